//! Commands and facts in words for the game page: what a button does, and
//! the log a player reads. Both read the JSON forms the engine already
//! defines, so a new command or fact reads sensibly without a new case
//! here; the cases below only name models, cards and seats.

use serde_json::Value;
use soulstone_engine::command::Interaction;
use soulstone_engine::model::ModelId;
use soulstone_engine::table::Point;
use soulstone_engine::{Event, GameState, PlayerCommand, Seat, Viewer};

/// "declare_trigger" → "Declare trigger".
fn humanise(tag: &str) -> String {
    let spaced = tag.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn model_name(state: &GameState, id: u64) -> String {
    u16::try_from(id)
        .ok()
        .and_then(|id| state.model(ModelId(id)))
        .map_or_else(|| format!("model {id}"), |m| m.card.name.to_string())
}

fn seat_name(seat: &str, viewer: Viewer) -> String {
    let seat = match seat {
        "a" => Seat::A,
        "b" => Seat::B,
        other => return other.to_string(),
    };
    if viewer == Viewer::Player(seat) {
        "you".into()
    } else {
        seat.label().into()
    }
}

/// A card written "13R" as "13 of Rams".
fn card_name(code: &str) -> String {
    code.parse::<soulstone_engine::fate::Card>()
        .map_or_else(|_| code.to_string(), |card| card.long_name())
}

/// The details of a command or fact worth reading, in its fields' order.
fn details(
    state: &GameState,
    viewer: Viewer,
    fields: &serde_json::Map<String, Value>,
) -> Vec<String> {
    let mut parts = Vec::new();
    for (key, value) in fields {
        let text = match (key.as_str(), value) {
            ("type", _) => continue,
            (
                "model" | "target" | "second_target" | "actor" | "attacker" | "defender",
                Value::Number(n),
            ) => n.as_u64().map(|id| model_name(state, id)),
            ("seat" | "to" | "by" | "winner", Value::String(s)) if s.len() == 1 => {
                Some(seat_name(s, viewer))
            }
            ("card", Value::String(code)) => Some(card_name(code)),
            // A card only its owner sees.
            ("card", Value::Object(hidden)) => Some(
                hidden
                    .get("value")
                    .and_then(Value::as_str)
                    .map_or_else(|| "a card".to_string(), card_name),
            ),
            ("cards", Value::Array(cards)) => Some(
                cards
                    .iter()
                    .filter_map(Value::as_str)
                    .map(card_name)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            (
                "action" | "name" | "scheme" | "choice" | "token" | "zone" | "what" | "strategy",
                Value::String(s),
            ) => Some(s.clone()),
            ("scheme", Value::Object(held)) => match held.get("value") {
                Some(Value::Object(scheme)) => {
                    scheme.get("name").and_then(Value::as_str).map(String::from)
                }
                _ => Some("a secret scheme".into()),
            },
            ("amount" | "damage" | "group" | "turn" | "count", Value::Number(n)) => {
                Some(format!("{key} {n}"))
            }
            ("marker", Value::Number(n)) => Some(format!("marker {n}")),
            ("vp", Value::Number(n)) => Some(format!("{n} VP")),
            // A claim's objective: the strategy's name, or the scheme it shows.
            ("objective", Value::Object(claimed)) => claimed
                .get("name")
                .or_else(|| claimed.get("scheme").and_then(|s| s.get("name")))
                .and_then(Value::as_str)
                .map(String::from),
            ("signature", Value::Bool(true)) => Some("as a signature action".into()),
            ("with", Value::Object(inner)) => inner
                .get("type")
                .and_then(Value::as_str)
                .map(humanise)
                .map(|s| s.to_lowercase()),
            _ => None,
        };
        if let Some(text) = text.filter(|t| !t.is_empty()) {
            parts.push(text);
        }
    }
    parts
}

fn sentence(state: &GameState, viewer: Viewer, json: &Value) -> String {
    let Value::Object(fields) = json else {
        return json.to_string();
    };
    let tag = fields.get("type").and_then(Value::as_str).unwrap_or("step");
    let parts = details(state, viewer, fields);
    if parts.is_empty() {
        humanise(tag)
    } else {
        format!("{}: {}", humanise(tag), parts.join(", "))
    }
}

/// What a command's button says.
pub fn command(state: &GameState, viewer: Viewer, command: &PlayerCommand) -> String {
    match command {
        PlayerCommand::Contribute { .. } => "Cut your deck".into(),
        PlayerCommand::Pass => "Pass".into(),
        PlayerCommand::Activate { model } => {
            format!("Activate {}", model_name(state, u64::from(model.0)))
        }
        PlayerCommand::ChainActivate { model } => format!(
            "Activate {} next (chain activation)",
            model_name(state, u64::from(model.0))
        ),
        PlayerCommand::DeclineChainActivation => "Decline the chain activation".into(),
        PlayerCommand::ClaimStrategy { vp: 0 } => "Claim no VP from the strategy".into(),
        PlayerCommand::ClaimStrategy { vp } => format!("Claim {vp} VP from the strategy"),
        PlayerCommand::ClaimScheme {
            vp,
            scheme: Some(name),
            markers,
        } if markers.is_empty() => format!("Score {name}, claiming {vp} VP"),
        PlayerCommand::ClaimScheme {
            vp,
            scheme: Some(name),
            markers,
        } => format!(
            "Score {name}, claiming {vp} VP, removing the scheme markers at {}",
            marker_places(state, markers)
        ),
        PlayerCommand::ClaimScheme {
            vp, scheme: None, ..
        } => {
            format!("Reveal your scheme, claiming {vp} VP")
        }
        PlayerCommand::DrawWithSoulstone => "Spend a soulstone to draw two cards".into(),
        PlayerCommand::PlaceExplosives { model } => format!(
            "Put an explosives token on {}",
            model_name(state, u64::from(model.0))
        ),
        PlayerCommand::DeclineSoulstoneDraw => "Draw no more cards".into(),
        PlayerCommand::ConfirmClaim => "Confirm the claim".into(),
        PlayerCommand::DisputeClaim => "Dispute the claim (the organisers decide)".into(),
        PlayerCommand::ChooseModel { model } => model_name(state, u64::from(model.0)),
        PlayerCommand::ChooseMarker { marker } => {
            state.markers.iter().find(|m| m.id == *marker).map_or_else(
                || "That marker".into(),
                |m| format!("The {} at {}", m.name, point_words(m.at)),
            )
        }
        PlayerCommand::DeclineChoice => match state.frame() {
            Some(soulstone_engine::state::Frame::ChooseMarker { .. }) => "Turn no marker".into(),
            Some(soulstone_engine::state::Frame::ChooseModel {
                then: soulstone_engine::ability::ModelChoice::GainExplosives { .. },
                ..
            }) => "Let the explosives go".into(),
            _ => "Choose none".into(),
        },
        PlayerCommand::ChooseEither { first } => match state.frame() {
            Some(soulstone_engine::state::Frame::Either { options, .. }) => {
                let option = if *first { options[0] } else { options[1] };
                let words = soulstone_engine::pending::either_words(state, option);
                let mut chars = words.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default()
            }
            _ => "Choose".into(),
        },
        PlayerCommand::NameGeneratedAction { action } => {
            let model = state
                .unnamed_queued()
                .map_or_else(String::new, |q| model_name(state, u64::from(q.model.0)));
            format!("{model} declares {action}")
        }
        PlayerCommand::DeclineGeneratedAction => {
            let model = state
                .unnamed_queued()
                .map_or_else(String::new, |q| model_name(state, u64::from(q.model.0)));
            format!("{model} declares no action")
        }
        PlayerCommand::DeclareGeneratedAction { target } => {
            let next = state.action_queue.first();
            let action = next.and_then(|q| q.action.clone()).unwrap_or_default();
            match target {
                Some(target) => format!("{action} → {}", model_name(state, u64::from(target.0))),
                None => format!("{action} (no target)"),
            }
        }
        PlayerCommand::TakeAction {
            action,
            target,
            signature,
        } => {
            let mut text = action.to_string();
            if let Some(target) = target {
                text.push_str(&format!(" → {}", model_name(state, u64::from(target.0))));
            }
            if *signature {
                text.push_str(" (signature)");
            }
            text
        }
        PlayerCommand::Disengage => "Disengage (an engaging enemy may strike first)".into(),
        PlayerCommand::Strike { model, action } => format!(
            "Strike with {}'s {action}",
            model_name(state, u64::from(model.0))
        ),
        PlayerCommand::DeclineStrike => "Let it disengage without a strike".into(),
        PlayerCommand::Assist { target, token } => format!(
            "Assist {}: lower its {} by a 1/2/3 flip",
            model_name(state, u64::from(target.0)),
            state.tokens.name(*token)
        ),
        PlayerCommand::DropIdol { at } => format!("Drop the idol at {}", point_words(*at)),
        PlayerCommand::Interact {
            with: Interaction::MoveIdol { damage, to, .. },
        } => {
            let model = state
                .acting_model()
                .map_or_else(String::new, |id| model_name(state, u64::from(id.0)));
            format!(
                "Interact: {model} suffers {damage} damage to move the idol to {}",
                point_words(*to)
            )
        }
        PlayerCommand::Summon { model, at: None } => {
            format!("{model} has no place to stand: leave it out")
        }
        other => serde_json::to_value(other)
            .map(|json| sentence(state, viewer, &json))
            .unwrap_or_default(),
    }
}

/// A table point in inches, as the table's coordinates give it.
fn point_words(at: Point) -> String {
    let v = at.v2();
    format!("({:.1}\", {:.1}\")", v.x, v.y)
}

/// Where each of `markers` lies ("(12.0\", 18.0\") and (14.0\", 18.0\")").
fn marker_places(state: &GameState, markers: &[soulstone_engine::table::ObjectId]) -> String {
    let places: Vec<String> = markers
        .iter()
        .map(|id| {
            state
                .markers
                .iter()
                .find(|k| k.id == *id)
                .map_or_else(|| format!("marker {}", id.0), |k| point_words(k.at))
        })
        .collect();
    match places.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => places.join(""),
    }
}

/// A fact as the log shows it to `viewer` (already redacted for them).
pub fn fact(state: &GameState, viewer: Viewer, fact: &Event) -> String {
    sentence(state, viewer, &fact.for_viewer(viewer))
}
