//! What the engine waits for. The options are worked out by asking
//! [`decide`](super::decide) about every command that could make sense now,
//! so `pending` and `decide` can never disagree.

use serde::{Deserialize, Serialize};

use super::command::{Boost, PlayerCommand, Submission};
use super::duel::{Duel, DuelStep, Side};
use super::encounter::Step;
use super::fate::{Card, Suit};
use super::model::ModelId;
use super::procedure::{
    encounter_candidates, encounter_choices, explosives_choice, scheme_marker_choice,
};
use super::rules::{DuelBoost, GeneralAction};
use super::state::{DiscardReason, Frame, GameState};
use super::table::measure::Deployment;
use super::table::movement::Waypoint;
use super::token::Effect;
use super::{Seat, decide};

/// One legal choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Choice {
    /// Send exactly this command.
    Command { command: PlayerCommand },
    /// Send `discard_down` with exactly `count` of these cards.
    DiscardCards { count: u8, from: Vec<Card> },
    /// Send `contribute` with any 32 bytes of your own entropy.
    Entropy,
    /// Send `split_crew` naming any of these models as the first group.
    SplitCrew { models: Vec<ModelId> },
    /// Send `discard_before_drawing` with any of these cards, or none.
    DiscardAny { from: Vec<Card> },
    /// Send `deploy` for one of these models at a point that puts its base
    /// completely within the zone (the layout's `side` of `deployment`).
    Deploy {
        models: Vec<ModelId>,
        deployment: Deployment,
        side: Seat,
    },
    /// Send `walk` with a path the table allows (up to `inches`, half
    /// that if it starts engaged).
    Walk { model: ModelId, inches: u8 },
    /// Send `charge` to a point in one straight line up to `inches` away.
    Charge { model: ModelId, inches: u8 },
    /// Send `interact` making a scheme marker within 1" of the model.
    MakeSchemeMarker { model: ModelId },
    /// Send `interact` with `plant_explosives`: a strategy marker in base
    /// contact with the model, for one of its explosives tokens.
    PlantExplosives { model: ModelId },
    /// Send `place` with a point within `inches` of where `model` stands
    /// (where it stands is one) or, when `touching` is given, a point that
    /// puts it in base contact with that model.
    Place {
        model: ModelId,
        inches: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        touching: Option<ModelId>,
    },
    /// Send `draw_from_discard` with up to `up_to` of these cards, or none.
    DrawFromDiscard { up_to: u8, from: Vec<Card> },
    /// Send `move` with a path for `model` up to `inches` long (where it
    /// stands, to stay): a move an effect allows.
    Move { model: ModelId, inches: u8 },
    /// Send `drop_blast` with the centre of a 50 mm blast marker touching
    /// `target` (the first marker) or an earlier marker, overlapping
    /// neither; `left` markers are still to drop (3rd edition blasts).
    DropBlast { target: ModelId, left: u8 },
    /// Send `place` with a point where the model called `with` stands
    /// touching `model`, which it replaces.
    Replace { model: ModelId, with: String },
    /// Send `summon` with one of these models (full names) at a point
    /// that puts it in base contact with `summoner` and in its line of
    /// sight.
    Summon {
        summoner: ModelId,
        models: Vec<String>,
    },
}

/// A player's open decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub seat: Seat,
    pub prompt: String,
    pub choices: Vec<Choice>,
}

/// Everything the game waits for. Empty `decisions` with `waiting_for_game`
/// means the game flow (turn sequence, server) acts next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub version: u64,
    pub decisions: Vec<Decision>,
    pub waiting_for_game: bool,
    pub ended: bool,
}

impl Pending {
    pub fn seats(&self) -> Vec<Seat> {
        self.decisions.iter().map(|d| d.seat).collect()
    }

    pub fn for_seat(&self, seat: Seat) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.seat == seat)
    }
}

/// The decisions the game waits for, with every legal option.
pub fn pending(state: &GameState) -> Pending {
    let decisions: Vec<Decision> = Seat::BOTH
        .into_iter()
        .filter_map(|seat| decision(state, seat))
        .collect();
    Pending {
        version: state.version,
        // The flow's next command is awaited when nothing is in progress
        // but, perhaps, an activation (its actions are the flow's).
        waiting_for_game: decisions.is_empty()
            && matches!(state.frame(), None | Some(Frame::Activation { .. }))
            && !state.ended,
        ended: state.ended,
        decisions,
    }
}

/// Where the game waits for players to choose among their options (as
/// opposed to entropy for the shuffles or a discard).
fn choosing(state: &GameState) -> bool {
    !state.ended
        && matches!(
            state.frame(),
            Some(
                Frame::Duel { .. }
                    | Frame::Damage { .. }
                    | Frame::Action { .. }
                    | Frame::Flip { .. }
                    | Frame::Abilities { .. }
                    | Frame::Either { .. }
                    | Frame::ChooseModel { .. }
                    | Frame::ChooseMarker { .. }
                    | Frame::Place { .. }
                    | Frame::Replace { .. }
                    | Frame::Summon { .. }
                    | Frame::Blasts { .. }
                    | Frame::Move { .. }
                    | Frame::Disengage { .. }
                    | Frame::KillUnlessPaid { .. }
                    | Frame::DrawFromDiscard { .. }
                    | Frame::Activation { .. },
            ) | None
        )
}

fn is_legal(state: &GameState, seat: Seat, choice: &Choice) -> bool {
    match choice {
        Choice::Command { command } => legal(state, seat, command),
        _ => true,
    }
}

/// `seat`'s decision with every legal option, if the game waits for it.
pub fn decision(state: &GameState, seat: Seat) -> Option<Decision> {
    match state.frame() {
        Some(Frame::Contributions) => {
            state.fairness.contributions[seat.index()]
                .is_none()
                .then(|| Decision {
                    seat,
                    prompt: "contribute entropy for the deck shuffles (the digital cut)".into(),
                    choices: vec![Choice::Entropy],
                })
        }
        Some(Frame::Discard {
            seat: discarding,
            count,
            reason,
        }) if *discarding == seat => {
            let hand = state.player(seat).hand.as_slice();
            let count = (*count).min(u8::try_from(hand.len()).unwrap_or(u8::MAX));
            Some(Decision {
                seat,
                prompt: match reason {
                    DiscardReason::HandLimit => {
                        format!("discard {count} card(s) down to the maximum hand size")
                    }
                    DiscardReason::Ability => format!("discard {count} card(s) of your choice"),
                },
                choices: vec![Choice::DiscardCards {
                    count,
                    from: hand.to_vec(),
                }],
            })
        }
        _ if choosing(state) => {
            let choices: Vec<Choice> = options(state, seat, true)
                .into_iter()
                .filter(|choice| is_legal(state, seat, choice))
                .collect();
            (!choices.is_empty()).then(|| Decision {
                seat,
                prompt: prompt(state),
                choices,
            })
        }
        _ => None,
    }
}

/// `seat`'s only option, if the game waits for it and it has exactly one:
/// `decision` with one choice, found out by stopping at the second legal
/// option (the game asks this after every command, for both seats).
pub fn only_option(state: &GameState, seat: Seat) -> Option<Choice> {
    match state.frame() {
        Some(Frame::Contributions | Frame::Discard { .. }) => {
            let decision = decision(state, seat)?;
            match <[Choice; 1]>::try_from(decision.choices) {
                Ok([only]) => Some(only),
                Err(_) => None,
            }
        }
        _ if choosing(state) => {
            let mut legal = options(state, seat, true)
                .into_iter()
                .filter(|choice| is_legal(state, seat, choice));
            let first = legal.next()?;
            legal.next().is_none().then_some(first)
        }
        _ => None,
    }
}

/// Whether the game waits for `seat`: `decision` is some, found out by
/// stopping at the first legal option (views of other players ask this).
pub fn waits_for(state: &GameState, seat: Seat) -> bool {
    match state.frame() {
        Some(Frame::Contributions) => state.fairness.contributions[seat.index()].is_none(),
        Some(Frame::Discard {
            seat: discarding, ..
        }) => *discarding == seat,
        _ if choosing(state) => options(state, seat, true)
            .iter()
            .any(|choice| is_legal(state, seat, choice)),
        _ => false,
    }
}

/// `seat`'s options before `decide` has checked the plain commands: a
/// superset of what `pending` lists (choices with parameters are checked
/// as they are offered). Sampling from it and checking only the option
/// drawn picks uniformly among the legal ones far more cheaply than
/// `pending` (the random bot plays this way).
pub fn unchecked_options(state: &GameState, seat: Seat) -> Vec<Choice> {
    options(state, seat, false)
}

/// The options; with `probe`, a choice with parameters is offered only if
/// `decide` accepts a probe of it (as `pending` promises).
fn options(state: &GameState, seat: Seat, probe: bool) -> Vec<Choice> {
    if state.ended {
        return Vec::new();
    }
    match state.frame() {
        Some(Frame::Contributions) => {
            if state.fairness.contributions[seat.index()].is_none() {
                vec![Choice::Entropy]
            } else {
                Vec::new()
            }
        }
        Some(Frame::Discard { .. }) => pending(state)
            .for_seat(seat)
            .map(|d| d.choices.clone())
            .unwrap_or_default(),
        Some(Frame::Summon {
            seat: chooser,
            summoner,
            options,
        }) if *chooser == seat => summon_choices(state, seat, *summoner, options, probe),
        Some(Frame::Summon { .. }) => Vec::new(),
        Some(Frame::Replace {
            seat: chooser,
            model,
            with,
            ..
        }) if *chooser == seat => vec![Choice::Replace {
            model: *model,
            with: with.clone(),
        }],
        Some(Frame::Replace { .. }) => Vec::new(),
        Some(Frame::Place {
            seat: chooser,
            model,
            inches,
            touching,
        }) if *chooser == seat => vec![Choice::Place {
            model: *model,
            inches: *inches,
            touching: *touching,
        }],
        Some(Frame::Place { .. }) => Vec::new(),
        // Offered while some spot fits, as `pending` promises.
        Some(Frame::Blasts {
            seat: chooser,
            target,
            count,
            dropped,
            ..
        }) if *chooser == seat && (!probe || !super::procedure::blast_spots(state).is_empty()) => {
            vec![Choice::DropBlast {
                target: *target,
                left: count.saturating_sub(u8::try_from(dropped.len()).unwrap_or(u8::MAX)),
            }]
        }
        Some(Frame::Blasts { .. }) => Vec::new(),
        Some(Frame::Move {
            seat: chooser,
            model,
            inches,
            ..
        }) if *chooser == seat => vec![Choice::Move {
            model: *model,
            inches: *inches,
        }],
        Some(Frame::Move { .. }) => Vec::new(),
        Some(Frame::DrawFromDiscard {
            seat: chooser,
            up_to,
            max_value,
        }) if *chooser == seat => vec![Choice::DrawFromDiscard {
            up_to: *up_to,
            from: state
                .player(seat)
                .discard
                .as_slice()
                .iter()
                .copied()
                .filter(|c| super::procedure::drawable_from_discard(*c, *max_value))
                .collect(),
        }],
        Some(Frame::DrawFromDiscard { .. }) => Vec::new(),
        _ => {
            let mut choices: Vec<Choice> = candidates(state, seat)
                .into_iter()
                .map(|command| Choice::Command { command })
                .collect();
            // Unchecked, the moves and markers are offered on the cheap
            // checks alone, and filling them in finds out the rest.
            choices.extend(encounter_choices(state, seat, probe));
            choices
        }
    }
}

/// A summon's options: the models with a place to stand around the
/// summoner (`Choice::Summon`), and for a model with none, the command
/// that leaves it out. Unchecked, every model is offered with a place.
fn summon_choices(
    state: &GameState,
    seat: Seat,
    summoner: ModelId,
    options: &[String],
    probe: bool,
) -> Vec<Choice> {
    if !probe {
        return vec![Choice::Summon {
            summoner,
            models: options.to_vec(),
        }];
    }
    let (placeable, unplaceable): (Vec<&String>, Vec<&String>) = options.iter().partition(|name| {
        state.summonable_card(seat, name).is_some_and(|card| {
            !super::procedure::new_model_spots(
                state,
                summoner,
                &card,
                super::procedure::Beside::InSight,
            )
            .is_empty()
        })
    });
    let mut choices: Vec<Choice> = unplaceable
        .into_iter()
        .map(|name| Choice::Command {
            command: PlayerCommand::Summon {
                model: name.clone(),
                at: None,
            },
        })
        .collect();
    if !placeable.is_empty() {
        choices.push(Choice::Summon {
            summoner,
            models: placeable.into_iter().cloned().collect(),
        });
    }
    choices
}

pub(crate) fn legal(state: &GameState, seat: Seat, command: &PlayerCommand) -> bool {
    let submission = Submission::player(seat, state.version, command.clone());
    decide(state, &submission).is_ok()
}

/// Whether `seat` may send `command` now (`decide` tells).
pub(crate) fn command_is_legal(state: &GameState, seat: Seat, command: &PlayerCommand) -> bool {
    legal(state, seat, command)
}

fn prompt(state: &GameState) -> String {
    if matches!(state.frame(), None | Some(Frame::Activation { .. }))
        && let Some(words) = queue_prompt(state)
    {
        return words;
    }
    match state.frame() {
        None | Some(Frame::Action { .. } | Frame::Activation { .. })
            if !state.damage_queue.is_empty() =>
        {
            "choose which damaged model resolves its damage first".into()
        }
        None | Some(Frame::Activation { .. }) => step_prompt(state),
        Some(Frame::Duel { duel }) => match duel.step {
            DuelStep::Relent { .. } => "relent to this friendly duel, or resist".into(),
            DuelStep::Modify { .. } => "modify the duel, or finish modifying".into(),
            DuelStep::LookingAtTop { .. } => {
                "keep the card you looked at on top of your deck, or discard it".into()
            }
            DuelStep::Flip => "the cards are being flipped".into(),
            DuelStep::Choose { .. } => "choose which revealed card to use".into(),
            DuelStep::Cheat { .. } => "cheat fate with a card from your hand, or decline".into(),
            DuelStep::JokerSuit { .. } => "choose the Red Joker's suit (or none)".into(),
            DuelStep::Triggers { .. } => "declare a trigger, or decline".into(),
            DuelStep::Outcome => "the duel is resolving".into(),
        },
        Some(Frame::Abilities { .. }) => {
            "abilities fired at once: choose which resolves next (a model's abilities resolve together)".into()
        }
        Some(Frame::ChooseModel { then, .. }) => match then {
            crate::ability::ModelChoice::Heal { amount } => {
                format!("choose the model that heals {amount}")
            }
            crate::ability::ModelChoice::PounceOn => {
                "choose the enemy model to pounce on: this model is placed touching it and takes its action again against it".into()
            }
            crate::ability::ModelChoice::GainExplosives { from, count } => format!(
                "choose the model that gains the {count} explosives token(s) of {}, killed, or let them go",
                state.model(*from).map_or("the model", |m| m.name())
            ),
        },
        Some(Frame::ChooseMarker { then, .. }) => match then {
            crate::ability::MarkerChoice::Neutralise => {
                "your kill may turn one enemy strategy marker in the killed model's table quarter neutral: choose which, or none".into()
            }
        },
        Some(Frame::Summon { .. }) => {
            "choose the model to summon and where it stands, touching its summoner".into()
        }
        Some(Frame::Replace { model, with, .. }) => format!(
            "choose where {with} stands, touching {}, which it replaces",
            state.model(*model).map_or("the model", |m| m.name())
        ),
        Some(Frame::Place {
            model,
            touching: Some(other),
            ..
        }) => format!(
            "choose where {} is placed, in base contact with {}",
            state.model(*model).map_or("the model", |m| m.name()),
            state.model(*other).map_or("the model", |m| m.name())
        ),
        Some(Frame::KillUnlessPaid { model, .. }) => format!(
            "discard a card or a soulstone so that {} is not killed, or let it be killed",
            state.model(*model).map_or("the model", |m| m.name())
        ),
        Some(Frame::DrawFromDiscard { up_to, max_value, .. }) => format!(
            "draw up to {up_to} cards of value 1 to {max_value} from your discard pile, or none"
        ),
        Some(Frame::Move {
            model,
            inches,
            push: true,
            ..
        }) => format!(
            "push {} up to {inches}\" in a straight line (or leave it where it stands)",
            state.model(*model).map_or("the model", |m| m.name())
        ),
        Some(Frame::Move { model, inches, .. }) => format!(
            "move {} up to {inches}\" (or leave it where it stands)",
            state.model(*model).map_or("the model", |m| m.name())
        ),
        Some(Frame::Disengage { model, .. }) => format!(
            "{} disengages: strike it with a melee action of a model engaging it (no triggers; a success shortens its push), or let it go",
            state.model(*model).map_or("the model", |m| m.name())
        ),
        Some(Frame::Blasts {
            target,
            count,
            dropped,
            ..
        }) => format!(
            "drop blast marker {} of {count}, touching {}",
            dropped.len() + 1,
            if dropped.is_empty() {
                state.model(*target).map_or("the target", |m| m.name())
            } else {
                "an earlier blast marker"
            }
        ),
        Some(Frame::Place { model, inches, .. }) => format!(
            "choose where {} is placed, within {inches}\" of where it stands",
            state.model(*model).map_or("the model", |m| m.name())
        ),
        Some(Frame::Either { model, options, .. }) => format!(
            "choose for {}: {}, or {}",
            state.model(*model).map_or("your model", |m| m.name()),
            either_words(state, options[0]),
            either_words(state, options[1])
        ),
        Some(Frame::Flip { flip }) => match flip.stage() {
            super::flip::FlipStage::Choose => "choose the flip's card".into(),
            super::flip::FlipStage::Cheat => "cheat the flip, or decline".into(),
        },
        Some(Frame::Damage { progress }) => match progress.stage() {
            super::damage::DamageStage::Block => {
                "spend a soulstone to put a negative modifier on the damage flip, or decline".into()
            }
            super::damage::DamageStage::Reductions => "use a damage reduction, or decline".into(),
            super::damage::DamageStage::SoulstoneReduce => {
                "spend a soulstone to reduce the damage, or decline".into()
            }
        },
        _ => String::new(),
    }
}

/// What the encounter's current step asks of the player.
fn step_prompt(state: &GameState) -> String {
    let two_schemes =
        state.edition.rules().encounter.schemes == crate::rules::SchemeRule::TwoFromThePool;
    match state.encounter.as_deref().map(|e| e.step) {
    Some(Step::ChooseSchemes) if two_schemes => {
        "choose two schemes from the pool, one at a time: they stay secret until they score".into()
    }
    Some(Step::RevealScheme { .. }) if two_schemes => {
        "claim 1 VP for a scheme whose condition holds (revealing it if it is secret; your opponent confirms or disputes), or keep your schemes for now".into()
    }
    Some(Step::ChooseZone) => "choose your deployment zone".into(),
    Some(Step::Declare { what }) => format!(
        "choose your {} in secret: it is revealed once both players have chosen",
        what.label()
    ),
    Some(Step::SplitCrew) => "divide your crew into two groups".into(),
    Some(Step::ChooseGroup) => {
        "choose which of your opponent's groups deploys first".into()
    }
    Some(Step::Deploy { .. }) => "deploy a model completely within your zone".into(),
    Some(Step::PlaceExplosives { .. }) => {
        "put an explosives token on one of your models (a minion carries one, any other model two)".into()
    }
    Some(Step::ChooseSchemes | Step::SelectSchemes) => "select your scheme".into(),
    Some(Step::GiveInitiative { .. }) => "choose who has initiative this turn".into(),
    Some(Step::AssumeLeadership { .. }) => {
        "your crew has no master in play: a henchman may assume leadership".into()
    }
    Some(Step::StartDiscard) => "discard any cards before drawing to your hand size".into(),
    Some(Step::InitiativeCheat { .. }) => {
        "cheat your initiative flip with a card from your hand, or not".into()
    }
    Some(Step::SoulstoneDraw { .. }) => {
        "spend a soulstone to draw two cards (then discard down), or not".into()
    }
    Some(Step::Activations) if matches!(state.frame(), Some(Frame::Activation { .. })) => {
        "take an action with the acting model, or end its activation".into()
    }
    Some(Step::Activations) => "activate a model, or pass".into(),
    // Only its owner's decision asks, so only they learn it here.
    Some(Step::RevealScheme { seat })
        if state
            .encounter
            .as_deref()
            .is_some_and(|e| e.holds_claimed_scheme(seat)) =>
    {
        "claim your scheme's VP (the engine cannot check it: your opponent confirms or disputes), or keep it for now".into()
    }
    Some(Step::RevealScheme { .. }) => "reveal your scheme, or keep it for now".into(),
    Some(Step::AbandonScheme { .. }) => "abandon your scheme, or keep it".into(),
    Some(Step::RevealAfterActivation { .. }) => {
        "a model has finished activating: reveal your scheme if it is revealed at the end of an activation, or keep it".into()
    }
    Some(Step::RemoveStrategyMarker { .. }) => "remove a strategy marker".into(),
    Some(Step::DropIdol { .. }) => {
        "choose where this turn's idol drops on the centreline".into()
    }
    Some(Step::ClaimStrategy { .. }) => {
        "claim the VP your crew gained from the strategy this turn (0 if none): your opponent confirms or disputes".into()
    }
    Some(Step::AnswerClaim { .. }) => match state.encounter.as_deref().and_then(|e| e.choices.claim.as_ref()) {
        Some(claim) => format!(
            "{} claims {} VP for {}: confirm it, or dispute it for the organisers to decide",
            claim.seat.label(),
            claim.vp,
            claim.objective.name()
        ),
        None => "answer the claim".into(),
    },
    Some(Step::EndEffects | Step::StartOfGame | Step::StartEffects { .. } | Step::Over)
    | None => String::new(),
}
}

/// The queue's decision: name the first unnamed action from its model's
/// card, or else pick the first action's target (any model, or none).
fn queue_candidates(state: &GameState, commands: &mut Vec<PlayerCommand>) {
    if let Some(unnamed) = state.unnamed_queued() {
        if let Some(m) = state.model(unnamed.model) {
            let general = crate::state::controlled_general_actions(state.edition)
                .iter()
                .map(|a| a.name().to_string());
            commands.extend(
                m.card
                    .actions
                    .iter()
                    .map(|a| a.name.to_string())
                    .chain(general)
                    .map(|action| PlayerCommand::NameGeneratedAction { action }),
            );
            if unnamed.named_when_declared() {
                commands.push(PlayerCommand::DeclineGeneratedAction);
            }
        }
        return;
    }
    // A general action under control: its marker or token (a move's
    // path is a choice with a parameter).
    if let Some(next) = state.queued_general() {
        let named = next
            .action
            .as_deref()
            .and_then(crate::rules::GeneralAction::from_name);
        commands.extend(
            super::procedure::general_commands(state, next.model)
                .into_iter()
                .filter(|command| command.general_action() == named),
        );
        return;
    }
    commands.extend(
        state
            .models
            .iter()
            .filter(|m| m.on_table())
            .map(|m| PlayerCommand::DeclareGeneratedAction { target: Some(m.id) }),
    );
    commands.push(PlayerCommand::DeclareGeneratedAction { target: None });
}

/// The parameter a queued general action under control waits for from
/// its controller: a Walk's or Charge's path, or the point of a scheme
/// marker an Interact makes.
pub(crate) fn queued_general_choices(state: &GameState, seat: Seat, probe: bool) -> Vec<Choice> {
    let Some(next) = state.queued_general() else {
        return Vec::new();
    };
    let Some(m) = state.model(next.model) else {
        return Vec::new();
    };
    let (Some(here), true) = (m.placement, next.decided_by(state) == Some(seat)) else {
        return Vec::new();
    };
    let named = next
        .action
        .as_deref()
        .and_then(crate::rules::GeneralAction::from_name);
    match named {
        Some(GeneralAction::Walk | GeneralAction::Charge) => {}
        Some(GeneralAction::Interact) if probe => {
            return scheme_marker_choice(state, seat, m)
                .into_iter()
                .chain(explosives_choice(state, seat, m))
                .collect();
        }
        Some(GeneralAction::Interact) => {
            let mut choices = vec![Choice::MakeSchemeMarker { model: m.id }];
            if state
                .encounter
                .as_deref()
                .is_some_and(|e| e.explosives_on(m.id) > 0)
            {
                choices.push(Choice::PlantExplosives { model: m.id });
            }
            return choices;
        }
        _ => return Vec::new(),
    }
    let inches = state.tokens.speed_of(m);
    let stay = Waypoint {
        x: here.at.x,
        y: here.at.y,
        z: here.z,
    };
    let (choice, command) = if named == Some(GeneralAction::Charge) {
        (
            Choice::Charge {
                model: m.id,
                inches,
            },
            PlayerCommand::Charge {
                to: stay,
                land_at: None,
            },
        )
    } else {
        (
            Choice::Walk {
                model: m.id,
                inches,
            },
            PlayerCommand::Walk {
                path: vec![stay],
                land_at: None,
            },
        )
    };
    // Moving nowhere is legal whenever a move is: the probe.
    if probe && !legal(state, seat, &command) {
        return Vec::new();
    }
    vec![choice]
}

/// One side of a "this or that" choice, in words.
pub fn either_words(state: &GameState, option: crate::ability::EitherOption) -> String {
    match option {
        crate::ability::EitherOption::Discard { count } => format!("discard {count} card(s)"),
        crate::ability::EitherOption::GainToken { token } => {
            format!("gain a {} token", state.tokens.name(token))
        }
    }
}

/// What the queue waits for, in words.
fn queue_prompt(state: &GameState) -> Option<String> {
    if !state.damage_queue.is_empty() {
        return None;
    }
    let name = |id| state.model(id).map_or("the model", |m| m.name());
    if let Some(unnamed) = state.unnamed_queued() {
        return Some(format!(
            "choose the action {} declares under your control",
            name(unnamed.model)
        ));
    }
    let next = state.action_queue.first()?;
    if let Some(general) = state.queued_general() {
        return Some(format!(
            "{} with {} under your control",
            general.action.as_deref().unwrap_or("act"),
            name(general.model)
        ));
    }
    Some(format!(
        "choose the target of {}'s {}{}",
        name(next.model),
        next.action.as_deref().unwrap_or("action"),
        match next.different_from {
            Some(previous) => format!(" (a different model than {})", name(previous)),
            None => String::new(),
        }
    ))
}

/// A duel step's commands for the deciding side's player.
fn duel_candidates(state: &GameState, duel: &Duel, side: &Side, commands: &mut Vec<PlayerCommand>) {
    let player = state.player(side.seat);
    let hand = player.hand.as_slice();
    match &duel.step {
        DuelStep::Relent { .. } => commands.extend([PlayerCommand::Relent, PlayerCommand::Resist]),
        DuelStep::Modify { .. } => {
            commands.push(PlayerCommand::FinishModifying);
            // Every token a model could spend; `decide` keeps the ones
            // this model holds and may spend now.
            for (token, rule) in state.tokens.spendable() {
                if rule.effects.contains(&Effect::AddSuit) {
                    commands.extend(Suit::ALL.map(|suit| PlayerCommand::UseToken {
                        token,
                        suit: Some(suit),
                    }));
                } else {
                    commands.push(PlayerCommand::UseToken { token, suit: None });
                }
            }
            // Each edition boosts a duel one way: the other is never offered.
            match state.edition.rules().duel.boost {
                DuelBoost::DiscardLowCard => {
                    commands.extend(hand.iter().map(|&card| PlayerCommand::Empower { card }));
                }
                // Only a soulstone user with a soulstone to spend, once a duel.
                DuelBoost::Soulstone
                    if player.soulstones > 0
                        && !side.soulstone_spent
                        && state
                            .model(side.model)
                            .is_some_and(|m| m.card.soulstone_user) =>
                {
                    commands.push(PlayerCommand::SpendSoulstone {
                        boost: Boost::Modifier,
                    });
                    commands.extend(Suit::ALL.map(|suit| PlayerCommand::SpendSoulstone {
                        boost: Boost::Suit(suit),
                    }));
                }
                DuelBoost::Soulstone => {}
            }
        }
        DuelStep::LookingAtTop { .. } => {
            commands.extend([PlayerCommand::KeepTopCard, PlayerCommand::DiscardTopCard])
        }
        DuelStep::Choose { .. } => {
            commands.extend(
                side.revealed
                    .iter()
                    .map(|&card| PlayerCommand::ChooseCard { card }),
            );
        }
        DuelStep::Cheat { .. } => {
            commands.extend(hand.iter().map(|&card| PlayerCommand::Cheat { card }));
            commands.push(PlayerCommand::DeclineCheat);
        }
        DuelStep::JokerSuit { .. } => {
            commands.push(PlayerCommand::ChooseJokerSuit { suit: None });
            commands
                .extend(Suit::ALL.map(|suit| PlayerCommand::ChooseJokerSuit { suit: Some(suit) }));
        }
        DuelStep::Triggers { .. } => {
            let names = duel
                .spec
                .triggers
                .iter()
                .chain(&duel.spec.resist_triggers)
                .map(|t| t.name.clone());
            commands.extend(names.map(|name| PlayerCommand::DeclareTrigger { name }));
            commands.push(PlayerCommand::DeclineTrigger);
        }
        DuelStep::Flip | DuelStep::Outcome => {}
    }
}

/// Every player command that could be legal now (decide filters them).
fn candidates(state: &GameState, seat: Seat) -> Vec<PlayerCommand> {
    let player = state.player(seat);
    let hand = player.hand.as_slice();
    // Most lists fit without regrowing (an activation's actions and
    // targets, a hand to cheat from), and the choices reuse the allocation.
    let mut commands = Vec::with_capacity(32);
    match state.frame() {
        Some(Frame::Duel { duel }) => {
            // Only the deciding side's player has anything to send.
            if let Some(side) = duel.deciding_side().filter(|side| side.seat == seat) {
                duel_candidates(state, duel, side, &mut commands);
            }
        }
        // Nothing in progress (or an activation or action between its
        // procedures): the order of damage dealt at once, and the
        // encounter's decisions.
        None | Some(Frame::Activation { .. })
            if state.damage_queue.is_empty() && !state.action_queue.is_empty() =>
        {
            queue_candidates(state, &mut commands);
        }
        None | Some(Frame::Action { .. } | Frame::Activation { .. }) => {
            if state.damage_queue.is_empty() && !matches!(state.frame(), Some(Frame::Action { .. }))
            {
                encounter_candidates(state, seat, &mut commands);
            }
            for instance in &state.damage_queue {
                let command = PlayerCommand::ResolveDamageFirst {
                    model: instance.target,
                };
                if !commands.contains(&command) {
                    commands.push(command);
                }
            }
        }
        Some(Frame::Abilities { batch }) => {
            let (chooser, options) = super::procedure::batch_options(state, batch);
            if chooser == seat {
                commands.extend(options.iter().filter_map(|fired| {
                    let ability = state.ability(fired.model, fired.index)?;
                    Some(PlayerCommand::ResolveAbility {
                        model: fired.model,
                        name: ability.name.clone(),
                    })
                }));
            }
        }
        Some(Frame::ChooseModel {
            seat: chooser,
            options,
            then,
        }) if *chooser == seat => {
            commands.extend(
                options
                    .iter()
                    .map(|&model| PlayerCommand::ChooseModel { model }),
            );
            if then.optional() {
                commands.push(PlayerCommand::DeclineChoice);
            }
        }
        Some(Frame::ChooseMarker {
            seat: chooser,
            options,
            then,
        }) if *chooser == seat => {
            commands.extend(
                options
                    .iter()
                    .map(|&marker| PlayerCommand::ChooseMarker { marker }),
            );
            if then.optional() {
                commands.push(PlayerCommand::DeclineChoice);
            }
        }
        Some(Frame::KillUnlessPaid { seat: chooser, .. }) if *chooser == seat => {
            commands.extend(
                hand.iter()
                    .map(|&card| PlayerCommand::PayAgainstKill { card: Some(card) }),
            );
            commands.extend([
                PlayerCommand::PayAgainstKill { card: None },
                PlayerCommand::DeclinePayment,
            ]);
        }
        Some(Frame::Disengage {
            model,
            stage: crate::state::DisengageStage::Strike,
        }) if state.model(*model).is_some_and(|m| m.owner != seat) => {
            commands.extend(
                super::procedure::strikes(state, *model)
                    .into_iter()
                    .map(|(model, action)| PlayerCommand::Strike { model, action }),
            );
            commands.push(PlayerCommand::DeclineStrike);
        }
        Some(Frame::Either { seat: chooser, .. }) if *chooser == seat => {
            commands.extend([
                PlayerCommand::ChooseEither { first: true },
                PlayerCommand::ChooseEither { first: false },
            ]);
        }
        Some(Frame::Flip { .. }) => {
            commands.extend(
                player
                    .revealed
                    .as_slice()
                    .iter()
                    .map(|&card| PlayerCommand::ChooseCard { card }),
            );
            commands.extend(hand.iter().map(|&card| PlayerCommand::Cheat { card }));
            commands.push(PlayerCommand::DeclineCheat);
        }
        Some(Frame::Damage { progress }) => {
            commands.extend([PlayerCommand::BlockDamage, PlayerCommand::DeclineBlock]);
            if let Some(model) = state.model(progress.instance.target) {
                commands.extend(model.card.reductions.iter().map(|r| {
                    PlayerCommand::UseReduction {
                        name: r.name.clone(),
                    }
                }));
            }
            commands.extend([
                PlayerCommand::DeclineReduction,
                PlayerCommand::ReduceDamage,
                PlayerCommand::DeclineReduce,
            ]);
        }
        _ => {}
    }
    commands
}
