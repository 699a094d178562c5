//! Commands and facts in words for the game page: what a button does, and
//! the log a player reads, with the numbers a player at a table would say
//! ("Rusty Nail: Charge at Grub (enemy). 13 (Masks) against 9: succeeds.
//! Grub suffers 4 damage, health 7 → 3"). Facts the cases below do not
//! name read from the JSON forms the engine defines, so a new fact reads
//! sensibly without a new case; the four facts that carry a secret are
//! only ever read from their form redacted for the viewer.

use serde_json::Value;
use soulstone_engine::command::Interaction;
use soulstone_engine::duel::{Outcome, Suits};
use soulstone_engine::event::DamageReport;
use soulstone_engine::model::ModelId;
use soulstone_engine::model::Placement;
use soulstone_engine::table::Point;
use soulstone_engine::{Event, GameState, PlayerCommand, Seat, Viewer};

use super::cards::suits_words;
use super::names::Names;

/// Words for one viewer of one game.
pub struct Words<'a> {
    pub state: &'a GameState,
    pub viewer: Viewer,
    pub names: &'a Names,
}

/// "declare_trigger" → "Declare trigger".
fn humanise(tag: &str) -> String {
    let spaced = tag.replace('_', " ");
    capitalised(&spaced)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A card written "13R" as "13 of Rams".
fn card_name(code: &str) -> String {
    code.parse::<soulstone_engine::fate::Card>()
        .map_or_else(|_| code.to_string(), |card| card.long_name())
}

/// A table point in inches, as the table's coordinates give it.
pub fn point_words(at: Point) -> String {
    let v = at.v2();
    format!("({:.1}\", {:.1}\")", v.x, v.y)
}

fn total_words(total: i16, suits: Suits) -> String {
    let suits = suits_words(suits);
    if suits.is_empty() {
        total.to_string()
    } else {
        format!("{total} ({suits})")
    }
}

fn distance(from: &Placement, to: &Placement) -> f64 {
    from.at.v2().dist(to.at.v2())
}

impl<'a> Words<'a> {
    pub fn new(state: &'a GameState, viewer: Viewer, names: &'a Names) -> Self {
        Self {
            state,
            viewer,
            names,
        }
    }

    fn model(&self, id: ModelId) -> String {
        self.names.name(id)
    }

    fn model_json(&self, id: u64) -> String {
        u16::try_from(id).map_or_else(|_| format!("model {id}"), |id| self.model(ModelId(id)))
    }

    /// "you", or the seat: how the viewer reads a player.
    pub fn seat(&self, seat: Seat) -> String {
        if self.viewer == Viewer::Player(seat) {
            "you".into()
        } else {
            seat.label().into()
        }
    }

    fn seat_json(&self, seat: &str) -> String {
        match seat {
            "a" => self.seat(Seat::A),
            "b" => self.seat(Seat::B),
            other => other.to_string(),
        }
    }

    /// The details of a command or fact worth reading, in its fields' order.
    fn details(&self, fields: &serde_json::Map<String, Value>) -> Vec<String> {
        let mut parts = Vec::new();
        for (key, value) in fields {
            let text = match (key.as_str(), value) {
                ("type", _) => continue,
                (
                    "model" | "target" | "second_target" | "actor" | "attacker" | "defender",
                    Value::Number(n),
                ) => n.as_u64().map(|id| self.model_json(id)),
                ("seat" | "to" | "by" | "winner", Value::String(s)) if s.len() == 1 => {
                    Some(self.seat_json(s))
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
                    "action" | "name" | "scheme" | "choice" | "token" | "zone" | "what"
                    | "strategy",
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

    fn sentence(&self, json: &Value) -> String {
        let Value::Object(fields) = json else {
            return json.to_string();
        };
        let tag = fields.get("type").and_then(Value::as_str).unwrap_or("step");
        let parts = self.details(fields);
        if parts.is_empty() {
            humanise(tag)
        } else {
            format!("{}: {}", humanise(tag), parts.join(", "))
        }
    }

    /// What a command's button says.
    pub fn command(&self, command: &PlayerCommand) -> String {
        let state = self.state;
        match command {
            PlayerCommand::Contribute { .. } => "Cut your deck".into(),
            PlayerCommand::Pass => "Pass".into(),
            PlayerCommand::Activate { model } => format!("Activate {}", self.model(*model)),
            PlayerCommand::ChainActivate { model } => {
                format!("Activate {} next (chain activation)", self.model(*model))
            }
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
            } => format!("Reveal your scheme, claiming {vp} VP"),
            PlayerCommand::DrawWithSoulstone => "Spend a soulstone to draw two cards".into(),
            PlayerCommand::PlaceExplosives { model } => {
                format!("Put an explosives token on {}", self.model(*model))
            }
            PlayerCommand::DeclineSoulstoneDraw => "Draw no more cards".into(),
            PlayerCommand::ConfirmClaim => "Confirm the claim".into(),
            PlayerCommand::DisputeClaim => "Dispute the claim (the organisers decide)".into(),
            PlayerCommand::ChooseModel { model } => self.names.labelled(*model),
            PlayerCommand::ChooseMarker { marker } => {
                state.markers.iter().find(|m| m.id == *marker).map_or_else(
                    || "That marker".into(),
                    |m| format!("The {} at {}", m.name, point_words(m.at)),
                )
            }
            PlayerCommand::DeclineChoice => match state.frame() {
                Some(soulstone_engine::state::Frame::ChooseMarker { .. }) => {
                    "Turn no marker".into()
                }
                Some(soulstone_engine::state::Frame::ChooseModel {
                    then: soulstone_engine::ability::ModelChoice::GainExplosives { .. },
                    ..
                }) => "Let the explosives go".into(),
                _ => "Choose none".into(),
            },
            PlayerCommand::ChooseEither { first } => match state.frame() {
                Some(soulstone_engine::state::Frame::Either { options, .. }) => {
                    let option = if *first { options[0] } else { options[1] };
                    capitalised(&soulstone_engine::pending::either_words(state, option))
                }
                _ => "Choose".into(),
            },
            PlayerCommand::NameGeneratedAction { action } => {
                let model = state
                    .unnamed_queued()
                    .map_or_else(String::new, |q| self.model(q.model));
                format!("{model} declares {action}")
            }
            PlayerCommand::DeclineGeneratedAction => {
                let model = state
                    .unnamed_queued()
                    .map_or_else(String::new, |q| self.model(q.model));
                format!("{model} declares no action")
            }
            PlayerCommand::DeclareGeneratedAction { target } => {
                let next = state.action_queue.first();
                let action = next.and_then(|q| q.action.clone()).unwrap_or_default();
                match target {
                    Some(target) => format!("{action} at {}", self.names.labelled(*target)),
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
                    text.push_str(&format!(" at {}", self.names.labelled(*target)));
                }
                if *signature {
                    text.push_str(" (signature)");
                }
                text
            }
            PlayerCommand::Disengage => "Disengage (an engaging enemy may strike first)".into(),
            PlayerCommand::Strike { model, action } => {
                format!("Strike with {}'s {action}", self.model(*model))
            }
            PlayerCommand::DeclineStrike => "Let it disengage without a strike".into(),
            PlayerCommand::SlamTerrain { terrain } => {
                let name = state
                    .terrain
                    .iter()
                    .find(|t| t.id == *terrain)
                    .map_or("the terrain", |t| t.name.as_str());
                format!("Slam: remove {name} from play")
            }
            PlayerCommand::Assist { target, token } => format!(
                "Assist {}: lower its {} by a 1/2/3 flip",
                self.names.labelled(*target),
                state.tokens.name(*token)
            ),
            PlayerCommand::DropIdol { at } => format!("Drop the idol at {}", point_words(*at)),
            PlayerCommand::Interact {
                with: Interaction::MoveIdol { damage, to, .. },
            } => {
                let model = state
                    .acting_model()
                    .map_or_else(String::new, |id| self.model(id));
                format!(
                    "Interact: {model} suffers {damage} damage to move the idol to {}",
                    point_words(*to)
                )
            }
            PlayerCommand::Summon { model, at: None } => {
                format!("{model} has no place to stand: leave it out")
            }
            PlayerCommand::FinishModifying => "Finish modifying".into(),
            PlayerCommand::DeclineCheat => "Do not cheat".into(),
            PlayerCommand::DeclineTrigger => "Declare no trigger".into(),
            PlayerCommand::DeclareTrigger { name } => format!("Declare {name}"),
            PlayerCommand::KeepScheme => "Keep your scheme for now".into(),
            PlayerCommand::RevealScheme => "Reveal your scheme".into(),
            PlayerCommand::AbandonScheme => "Abandon your scheme".into(),
            PlayerCommand::FinishActivation => "End this activation".into(),
            other => serde_json::to_value(other)
                .map(|json| self.sentence(&json))
                .unwrap_or_default(),
        }
    }

    fn outcome_words(&self, outcome: &Outcome) -> String {
        let totals = match outcome.resister_total {
            Some(r) => format!("{} against {r}", outcome.initiator_total),
            None => outcome.initiator_total.to_string(),
        };
        let result = match (outcome.success, outcome.tie, outcome.raises) {
            (false, _, _) => "fails".to_string(),
            (true, true, _) => "succeeds on a tie".to_string(),
            (true, false, 0) => "succeeds".to_string(),
            (true, false, 1) => "succeeds with a raise".to_string(),
            (true, false, n) => format!("succeeds with {n} raises"),
        };
        format!("{totals}: {result}")
    }

    fn damage_words(&self, report: &DamageReport) -> String {
        let mut text = format!(
            "{} suffers {} damage",
            self.model(report.target),
            report.amount
        );
        let mut why: Vec<String> = Vec::new();
        if report.raises_added > 0 || !report.additions.is_empty() {
            why.push(format!("{} base", report.base));
            if report.raises_added > 0 {
                why.push(format!("+{} from raises", report.raises_added));
            }
            for (name, amount) in &report.additions {
                why.push(format!("+{amount} {name}"));
            }
        }
        for (name, amount) in &report.reductions {
            why.push(format!("−{amount} {name}"));
        }
        if !why.is_empty() {
            text.push_str(&format!(" ({})", why.join(", ")));
        }
        text
    }

    /// A fact as the log shows it to the viewer, with its numbers.
    pub fn fact(&self, fact: &Event) -> String {
        match fact {
            Event::TurnStarted { turn } => format!("Turn {turn} begins"),
            Event::InitiativeSet { seat, .. } => {
                format!("{} has initiative", capitalised(&self.seat(*seat)))
            }
            Event::ActivePlayer { seat } => {
                format!("{} to activate", capitalised(&self.seat(*seat)))
            }
            Event::ActivationStarted { model } => format!("{} activates", self.model(*model)),
            Event::ActivationEnded { model } => {
                format!("{} ends its activation", self.model(*model))
            }
            Event::Passed { seat, .. } => format!("{} passed", capitalised(&self.seat(*seat))),
            Event::ActionDeclared {
                model,
                action,
                target,
                ..
            } => match target {
                Some(target) => format!(
                    "{}: {action} at {}",
                    self.model(*model),
                    self.names.labelled(*target)
                ),
                None => format!("{}: {action}", self.model(*model)),
            },
            Event::Revealed { seat, cards, .. } => format!(
                "{} flipped {}",
                capitalised(&self.seat(*seat)),
                cards
                    .as_slice()
                    .iter()
                    .map(|c| c.long_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::CardChosen { seat, card, .. } => {
                format!(
                    "{} used the {}",
                    capitalised(&self.seat(*seat)),
                    card.long_name()
                )
            }
            Event::Cheated {
                seat,
                card_in,
                card_out,
                ..
            } => format!(
                "{} cheated the {} for the {}",
                capitalised(&self.seat(*seat)),
                card_in.long_name(),
                card_out.long_name()
            ),
            Event::TotalsAnnounced {
                initiator,
                initiator_suits,
                resister,
                resister_suits,
                last,
            } => {
                let first = total_words(*initiator, *initiator_suits);
                let totals = match (resister, resister_suits) {
                    (Some(r), suits) => format!(
                        "{first} against {}",
                        total_words(*r, suits.unwrap_or_default())
                    ),
                    (None, _) => first,
                };
                if *last {
                    format!("Final totals {totals}")
                } else {
                    format!("Totals {totals}")
                }
            }
            Event::TriggerDeclared { name, .. } => format!("Trigger: {name}"),
            Event::DuelResolved { outcome } => capitalised(&self.outcome_words(outcome)),
            Event::DamageDealt { report } => self.damage_words(report),
            Event::HealthChanged { model, from, to } => {
                format!("{}: health {from} → {to}", self.model(*model))
            }
            Event::ModelKilled { model, credit, .. } => match credit {
                Some(by) if by != model => {
                    format!("{} is killed by {}", self.model(*model), self.model(*by))
                }
                _ => format!("{} is killed", self.model(*model)),
            },
            Event::ModelMoved {
                model,
                from,
                to,
                charge,
                ..
            } => format!(
                "{} {} {:.1}\" to {}",
                self.model(*model),
                if *charge { "charges" } else { "moves" },
                distance(from, to),
                point_words(to.at)
            ),
            Event::ModelPushed {
                model, from, to, ..
            } => format!(
                "{} is pushed {:.1}\" to {}",
                self.model(*model),
                distance(from, to),
                point_words(to.at)
            ),
            Event::ModelDeployed { model, at } => {
                format!("{} deploys at {}", self.model(*model), point_words(at.at))
            }
            Event::TokenGained { model, token, .. } => format!(
                "{} gains {}",
                self.model(*model),
                self.state.tokens.name(*token)
            ),
            Event::TokenRemoved { model, token, .. } => format!(
                "{} loses {}",
                self.model(*model),
                self.state.tokens.name(*token)
            ),
            Event::VictoryPointsGained {
                seat,
                amount,
                source,
            } => format!(
                "{} {} {amount} VP ({source})",
                capitalised(&self.seat(*seat)),
                if self.viewer == Viewer::Player(*seat) {
                    "score"
                } else {
                    "scores"
                }
            ),
            Event::MarkerMade { marker, owner, at } => match owner {
                Some(seat) => format!(
                    "{} made a {marker} at {}",
                    capitalised(&self.seat(*seat)),
                    point_words(at.at)
                ),
                None => format!("A {marker} is made at {}", point_words(at.at)),
            },
            Event::EndPhaseStarted { .. } => "The end phase begins".into(),
            Event::ActionFailedOutOfRange { reason, .. } => format!("It fails: {reason}"),
            // The secret-carrying facts (a card drawn, the top card seen,
            // a declaration, a scheme) are read redacted for the viewer.
            other => self.sentence(&other.for_viewer(self.viewer)),
        }
    }
}

/// What a command's button says (the names worked out for this call).
pub fn command(state: &GameState, viewer: Viewer, command: &PlayerCommand) -> String {
    let names = Names::of(state, viewer);
    Words::new(state, viewer, &names).command(command)
}

/// A fact as the log shows it to `viewer` (the names worked out for this
/// call).
pub fn fact(state: &GameState, viewer: Viewer, fact: &Event) -> String {
    let names = Names::of(state, viewer);
    Words::new(state, viewer, &names).fact(fact)
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

/// One entry of the game log: a headline fact (a turn, an activation, an
/// action, a deployment, a score) with the numbers that followed it in one
/// line, and every fact of it in words below.
pub struct LogEntry {
    /// The fact number it starts at (the replay's steps).
    pub seq: u64,
    pub summary: String,
    pub details: Vec<String>,
    /// A turn's first entry, drawn as a heading.
    pub turn: bool,
}

/// Whether a fact starts a log entry of its own.
fn headline(fact: &Event) -> bool {
    matches!(
        fact,
        Event::TurnStarted { .. }
            | Event::ActivationStarted { .. }
            | Event::ActionDeclared { .. }
            | Event::ModelDeployed { .. }
            | Event::EndPhaseStarted { .. }
            | Event::DeclarationsRevealed { .. }
            | Event::ZoneChosen { .. }
            | Event::Passed { .. }
            | Event::SchemeRevealed { .. }
            | Event::StrategyScored { .. }
            | Event::ContributionsComplete
    )
}

/// Whether a fact's words belong in its entry's one-line summary.
fn summed_up(fact: &Event) -> bool {
    matches!(
        fact,
        Event::DuelResolved { .. }
            | Event::ActionFailedOutOfRange { .. }
            | Event::DamageDealt { .. }
            | Event::HealthChanged { .. }
            | Event::ModelKilled { .. }
            | Event::ModelMoved { .. }
            | Event::ModelPushed { .. }
            | Event::TriggerDeclared { .. }
            | Event::VictoryPointsGained { .. }
            | Event::MarkerMade { .. }
            | Event::TokenGained { .. }
    )
}

/// The log's entries for `facts` (numbered as stored), oldest first.
pub fn log_entries(words: &Words, facts: &[(u64, Event)]) -> Vec<LogEntry> {
    let mut entries: Vec<LogEntry> = Vec::new();
    for (seq, fact) in facts {
        let text = words.fact(fact);
        if headline(fact) || entries.is_empty() {
            entries.push(LogEntry {
                seq: *seq,
                summary: text.clone(),
                details: Vec::new(),
                turn: matches!(fact, Event::TurnStarted { .. }),
            });
        } else if let Some(entry) = entries.last_mut()
            && summed_up(fact)
        {
            entry.summary.push_str(". ");
            entry.summary.push_str(&text);
        }
        if let Some(entry) = entries.last_mut() {
            entry.details.push(format!("{seq}. {text}"));
        }
    }
    entries
}
