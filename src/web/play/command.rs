//! What a browser may send about a game. The request body can only hold a
//! [`PlayerCommand`]; the seat comes from the signed-in session, never from
//! the body, so no request can make a game-flow step
//! ([`soulstone_engine::FlowCommand`]) or speak for the other player.

use serde::Deserialize;
use soulstone_engine::{PlayerCommand, Seat, Submission};

use super::forms::FormKind;

/// The longest idempotency key a client may send (a UUID is 36).
pub const MAX_IDEMPOTENCY_KEY: usize = 64;

/// The most waypoints a path may have (the engine's own limit).
const MAX_WAYPOINTS: usize = 16;

/// The table's side, in inches.
const TABLE: f64 = soulstone_engine::table::TABLE_SIZE as f64 / 1000.0;

/// A player's command as posted by a browser.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandRequest {
    /// The game version the player saw; a stale one is refused.
    pub version: u64,
    /// Chosen by the client so a retried request is applied once.
    pub idempotency_key: String,
    pub command: PlayerCommand,
}

/// Why a command request was not even put to the rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandRequestError {
    #[error("the request is not a player's command: {0}")]
    NotACommand(String),
    #[error("the idempotency key must be 1 to {MAX_IDEMPOTENCY_KEY} characters")]
    BadIdempotencyKey,
}

impl CommandRequest {
    /// Reads a JSON request body.
    pub fn from_json(body: &[u8]) -> Result<Self, CommandRequestError> {
        let request: Self = serde_json::from_slice(body)
            .map_err(|e| CommandRequestError::NotACommand(e.to_string()))?;
        if request.idempotency_key.is_empty() || request.idempotency_key.len() > MAX_IDEMPOTENCY_KEY
        {
            return Err(CommandRequestError::BadIdempotencyKey);
        }
        Ok(request)
    }

    /// The submission for the engine, for the seat the session holds.
    pub fn into_submission(self, seat: Seat) -> Submission {
        Submission::player(seat, self.version, self.command)
    }
}

/// The game page's forms, one kind per way of choosing (see
/// `templates/play/game.html`): a command given whole, or the parts of one
/// the player fills in. Read into the command the engine decides.
pub fn command_from_form(
    fields: &[(String, String)],
    state: &soulstone_engine::GameState,
    seat: Seat,
) -> Result<PlayerCommand, String> {
    use soulstone_engine::command::Interaction;
    use soulstone_engine::fate::Card;
    use soulstone_engine::model::ModelId;
    use soulstone_engine::table::{Point, milli, movement::Waypoint};

    let one = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim())
    };
    let all = |name: &'static str| {
        fields
            .iter()
            .filter(move |(key, _)| key == name)
            .map(|(_, value)| value.trim())
    };
    let cards = || -> Result<Vec<Card>, String> {
        all("card")
            .map(|code| code.parse::<Card>().map_err(|e| e.to_string()))
            .collect()
    };
    let model = |value: &str| -> Result<ModelId, String> {
        value
            .parse::<u16>()
            .map(ModelId)
            .map_err(|_| format!("{value:?} is not a model"))
    };
    let inches = |name: &str| -> Result<i32, String> {
        let raw = one(name).unwrap_or_default();
        let value: f64 = raw
            .parse()
            .map_err(|_| format!("{name} must be a distance in inches, like 12.5"))?;
        if !(0.0..=TABLE).contains(&value) {
            return Err(format!("{name} must be on the table, 0 to {TABLE} inches"));
        }
        Ok(milli(value))
    };
    let point = || -> Result<Point, String> {
        Ok(Point {
            x: inches("x")?,
            y: inches("y")?,
        })
    };
    let waypoint = || -> Result<Waypoint, String> {
        let at = point()?;
        Ok(Waypoint {
            x: at.x,
            y: at.y,
            z: 0,
        })
    };
    // A path: the waypoints before the end point ("via": "12.5, 8; 14, 10"),
    // then x and y.
    let path = || -> Result<Vec<Waypoint>, String> {
        let mut path = Vec::new();
        for (n, pair) in one("via")
            .unwrap_or_default()
            .split(';')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .enumerate()
        {
            let mut parts = pair.split(',').map(str::trim);
            let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(format!(
                    "waypoint {} must be two distances, x and y, like 12.5, 8",
                    n + 1
                ));
            };
            let read = |v: &str| -> Result<i32, String> {
                let value: f64 = v.parse().map_err(|_| {
                    format!(
                        "waypoint {} must be distances in inches, like 12.5, 8",
                        n + 1
                    )
                })?;
                if !(0.0..=TABLE).contains(&value) {
                    return Err(format!("waypoint {} must be on the table", n + 1));
                }
                Ok(milli(value))
            };
            path.push(Waypoint {
                x: read(x)?,
                y: read(y)?,
                z: 0,
            });
        }
        if path.len() >= MAX_WAYPOINTS {
            return Err(format!("a path has at most {MAX_WAYPOINTS} waypoints"));
        }
        path.push(waypoint()?);
        Ok(path)
    };
    let kind = one("kind").unwrap_or_default();
    let kind: FormKind = kind
        .parse()
        .map_err(|_| format!("{kind:?} is not a way to choose"))?;
    match kind {
        FormKind::Command => serde_json::from_str(one("command").unwrap_or_default())
            .map_err(|e| format!("the command could not be read: {e}")),
        FormKind::Entropy => {
            use sha2::{Digest, Sha256};
            let text = one("entropy").unwrap_or_default();
            if text.is_empty() {
                return Err("type a few words or numbers of your own to cut your deck".into());
            }
            let digest = Sha256::digest(format!("soulstone-cut-v1\n{text}").as_bytes());
            let mut entropy = [0u8; 32];
            entropy.copy_from_slice(&digest);
            Ok(PlayerCommand::Contribute {
                entropy: soulstone_engine::fairness::Bytes32(entropy),
            })
        }
        FormKind::DiscardAny => Ok(PlayerCommand::DiscardBeforeDrawing { cards: cards()? }),
        FormKind::DrawFromDiscard => Ok(PlayerCommand::DrawFromDiscard { cards: cards()? }),
        FormKind::DiscardCards => Ok(PlayerCommand::DiscardDown { cards: cards()? }),
        FormKind::SplitCrew => Ok(PlayerCommand::SplitCrew {
            first: all("model").map(model).collect::<Result<_, _>>()?,
        }),
        FormKind::Deploy => Ok(PlayerCommand::Deploy {
            model: model(one("model").unwrap_or_default())?,
            at: point()?,
        }),
        FormKind::Place => Ok(PlayerCommand::Place { at: point()? }),
        FormKind::DropBlast => Ok(PlayerCommand::DropBlast { at: point()? }),
        FormKind::Move => Ok(PlayerCommand::Move {
            path: path()?,
            land_at: None,
        }),
        FormKind::Summon => Ok(PlayerCommand::Summon {
            model: one("summon").unwrap_or_default().to_string(),
            at: Some(point()?),
        }),
        // Paths from the form stay on the ground, where nothing falls;
        // a fall's landing place comes with a command sent whole.
        FormKind::Walk => Ok(PlayerCommand::Walk {
            path: path()?,
            land_at: None,
        }),
        FormKind::Charge => Ok(PlayerCommand::Charge {
            to: waypoint()?,
            land_at: None,
        }),
        FormKind::PlantExplosives => Ok(PlayerCommand::Interact {
            with: Interaction::PlantExplosives { at: point()? },
        }),
        FormKind::SchemeMarker => Ok(PlayerCommand::Interact {
            with: Interaction::MakeSchemeMarker {
                at: point()?,
                replacing: soulstone_engine::encounter::scheme_marker_to_replace(state, seat),
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use soulstone_engine::FlowCommand;

    fn body(command: serde_json::Value) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "version": 3,
            "idempotency_key": "k-1",
            "command": command,
        }))
        .unwrap()
    }

    #[test]
    fn a_player_command_becomes_a_submission_for_the_sessions_seat() {
        let request =
            CommandRequest::from_json(&body(serde_json::json!({"type": "relent"}))).unwrap();
        assert_eq!(
            request.into_submission(Seat::B),
            Submission::player(Seat::B, 3, PlayerCommand::Relent)
        );
    }

    /// Every game-flow command, in the exact JSON the engine itself writes,
    /// is refused as a request body, and so is an attempt to name a sender.
    #[test]
    fn no_request_body_can_carry_a_game_flow_command() {
        let flow_commands = [
            FlowCommand::Draw {
                seat: Seat::A,
                count: 7,
            },
            FlowCommand::ShuffleDiscards,
            FlowCommand::StartActivation {
                model: soulstone_engine::model::ModelId(1),
            },
            FlowCommand::EndActivation,
            FlowCommand::EndGame,
            FlowCommand::DealDamage {
                target: soulstone_engine::model::ModelId(1),
                amount: 5,
                irreducible: true,
                source: "a forged hazard".into(),
                credit: None,
            },
            FlowCommand::GainToken {
                model: soulstone_engine::model::ModelId(2),
                token: soulstone_engine::model::Token::new("stunned").unwrap(),
                value: 1,
                from: Some(Seat::A),
            },
        ];
        for command in flow_commands {
            let json = serde_json::to_value(&command).unwrap();
            let refused = CommandRequest::from_json(&body(json.clone()));
            assert!(
                matches!(refused, Err(CommandRequestError::NotACommand(_))),
                "{json} was accepted: {refused:?}"
            );
        }
        let as_system = serde_json::to_vec(&serde_json::json!({
            "by": "flow",
            "version": 3,
            "idempotency_key": "k-2",
            "command": {"type": "relent"},
        }))
        .unwrap();
        assert!(CommandRequest::from_json(&as_system).is_err());
        let whole_submission =
            serde_json::to_vec(&Submission::flow(3, FlowCommand::EndGame)).unwrap();
        assert!(CommandRequest::from_json(&whole_submission).is_err());
    }

    #[test]
    fn a_missing_or_huge_idempotency_key_is_refused() {
        let mut request: serde_json::Value =
            serde_json::from_slice(&body(serde_json::json!({"type": "resist"}))).unwrap();
        request["idempotency_key"] = "".into();
        assert_eq!(
            CommandRequest::from_json(&serde_json::to_vec(&request).unwrap()),
            Err(CommandRequestError::BadIdempotencyKey)
        );
        request["idempotency_key"] = "x".repeat(MAX_IDEMPOTENCY_KEY + 1).into();
        assert_eq!(
            CommandRequest::from_json(&serde_json::to_vec(&request).unwrap()),
            Err(CommandRequestError::BadIdempotencyKey)
        );
    }
}
