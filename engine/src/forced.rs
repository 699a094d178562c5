//! Decisions the game may take for a player, by the player's standing
//! answers (`docs/play.md`): the ones with a single legal option (the one
//! declaration a crew brought allows, finishing a duel's modifiers with
//! nothing to modify with, keeping a scheme that cannot be revealed,
//! ending an activation with no action left); declining a cheat that no
//! card in hand could make count; and, for a player who never boosts a
//! duel, finishing its modifiers at once. The hosting layer takes them for
//! players who want it; the engine only says which.
//!
//! Taking a decision at once can show the opponent something: that it was
//! the only option (no card could empower, the scheme could not be
//! revealed), or that no card in hand would have changed a duel. A player
//! who would rather not show that decides every one themself. Never
//! boosting shows nothing: it is the player's policy, not their hand.

use crate::Seat;
use crate::command::PlayerCommand;
use crate::damage::{accuracy, band};
use crate::duel::{DamageProfile, Duel, DuelStep, Outcome, Role, outcome, outcome_if_cheated};
use crate::fate::Card;
use crate::flip::FlipStage;
use crate::pending::{Choice, decision, only_option};
use crate::state::{Frame, GameState};

/// What a player lets the game decide for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StandingAnswers {
    /// Decisions with a single legal option.
    pub single_options: bool,
    /// Declining a cheat when no card in hand changes the duel's result.
    pub idle_cheats: bool,
    /// Finishing a duel's modifiers without boosting (no empowering, no
    /// soulstone, no token spent before the flip).
    pub never_boost: bool,
}

impl Default for StandingAnswers {
    /// A new player's answers: the game takes single options and idle
    /// cheats; boosting stays the player's choice.
    fn default() -> Self {
        Self {
            single_options: true,
            idle_cheats: true,
            never_boost: false,
        }
    }
}

/// The command `seat` would have to send now, if the decision it faces has
/// one option and that option is a whole command (a point or a path is
/// never taken for a player).
pub fn forced_choice(state: &GameState, seat: Seat) -> Option<PlayerCommand> {
    match only_option(state, seat)? {
        Choice::Command { command } => Some(command),
        _ => None,
    }
}

/// The command the game sends for `seat` now under `answers`, if any.
pub fn standing_choice(
    state: &GameState,
    seat: Seat,
    answers: StandingAnswers,
) -> Option<PlayerCommand> {
    if answers.single_options
        && let Some(command) = forced_choice(state, seat)
    {
        return Some(command);
    }
    if let Some(Frame::Flip { flip }) = state.frame() {
        return (answers.idle_cheats
            && flip.seat == seat
            && flip.stage() == FlipStage::Cheat
            && flip_cheat_is_idle(state, seat, flip.card?))
        .then_some(PlayerCommand::DeclineCheat);
    }
    let duel = state.duel()?;
    let role = duel.step.deciding_role()?;
    if duel.side(role)?.seat != seat {
        return None;
    }
    // Only these steps are answered: listing the options of any other
    // would be work for nothing, after every command.
    let answered = match duel.step {
        DuelStep::Modify { .. } => answers.never_boost,
        DuelStep::Cheat { .. } => answers.idle_cheats,
        _ => false,
    };
    if !answered {
        return None;
    }
    let choices = decision(state, seat)?.choices;
    let offered = |wanted: &PlayerCommand| {
        choices
            .iter()
            .any(|c| matches!(c, Choice::Command { command } if command == wanted))
    };
    match duel.step {
        DuelStep::Modify { .. } if answers.never_boost => {
            offered(&PlayerCommand::FinishModifying).then_some(PlayerCommand::FinishModifying)
        }
        DuelStep::Cheat { .. } if answers.idle_cheats => {
            let idle = cheat_cards(&choices)?
                .iter()
                .all(|&card| cheat_changes_nothing(state, duel, role, card));
            idle.then_some(PlayerCommand::DeclineCheat)
        }
        _ => None,
    }
}

/// The cards a cheat decision offers, if it is one: every option a cheat
/// or the decline, the decline among them.
fn cheat_cards(choices: &[Choice]) -> Option<Vec<Card>> {
    let mut declinable = false;
    let mut cards = Vec::new();
    for choice in choices {
        match choice {
            Choice::Command {
                command: PlayerCommand::Cheat { card },
            } => cards.push(*card),
            Choice::Command {
                command: PlayerCommand::DeclineCheat,
            } => declinable = true,
            _ => return None,
        }
    }
    declinable.then_some(cards)
}

/// Whether `role` cheating `card` would leave the duel's result as it is:
/// success, tie, raises, the damage flip's modifier and the triggers the
/// side could declare; and, while the other side still cheats after it, no
/// higher total to hold against that cheat.
fn cheat_changes_nothing(state: &GameState, duel: &Duel, role: Role, card: Card) -> bool {
    // A Red Joker's suit is chosen after the cheat: never judged idle.
    if card.is_red_joker() {
        return false;
    }
    let rules = &state.edition.rules().duel;
    let now = outcome(duel, rules);
    let then = outcome_if_cheated(duel, role, card, rules);
    let own = |o: &Outcome| match role {
        Role::Initiator => o.initiator_total,
        Role::Resister => o.resister_total.unwrap_or_default(),
    };
    let flip_modifier = |o: &Outcome| match duel.spec.damage {
        DamageProfile::Flip { .. } => accuracy(o.margin),
        _ => 0,
    };
    let same_result = now.success == then.success
        && now.tie == then.tie
        && now.raises == then.raises
        && flip_modifier(&now) == flip_modifier(&then);
    let other_cheats_after = match duel.step {
        DuelStep::Cheat { order, next } => order
            .iter()
            .skip(usize::from(next) + 1)
            .filter(|r| **r != role)
            .any(|r| {
                duel.side(*r).is_some_and(|s| {
                    !s.relented && !s.cheat_decided && !state.player(s.seat).hand.is_empty()
                })
            }),
        _ => false,
    };
    same_result
        && same_triggers(duel, role, card)
        && !(other_cheats_after && own(&then) > own(&now))
}

/// Whether no card `seat` may cheat into a flip (3rd edition damage,
/// Disengage, Assist: each reads only the card's band) would change the
/// band of `card`, the one it holds. A Joker either side is never idle.
fn flip_cheat_is_idle(state: &GameState, seat: Seat, card: Card) -> bool {
    let Some(cards) = decision(state, seat).and_then(|d| cheat_cards(&d.choices)) else {
        return false;
    };
    let plain = |c: Card| !c.is_red_joker() && !c.is_black_joker();
    plain(card) && cards.iter().all(|&c| plain(c) && band(c) == band(card))
}

/// Whether the side's declarable triggers, by their suits, stay the same
/// with `card` in place of its card.
fn same_triggers(duel: &Duel, role: Role, card: Card) -> bool {
    let Some(side) = duel.side(role) else {
        return true;
    };
    let mut cheated = side.clone();
    cheated.card = Some(card);
    let list = match role {
        Role::Initiator => &duel.spec.triggers,
        Role::Resister => &duel.spec.resist_triggers,
    };
    let (before, after) = (side.all_suits(), cheated.all_suits());
    list.iter()
        .all(|t| before.contains_all(t.suits) == after.contains_all(t.suits))
}
