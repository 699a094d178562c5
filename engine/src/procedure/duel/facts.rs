//! How the duel's facts apply: its steps, modifiers, cheats, triggers and end.

use super::*;
use crate::state::innermost_action;

/// The duel's facts: its steps, modifiers, cheats and triggers.
pub(crate) fn apply_duel_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::DuelStarted {
            spec,
            initiator_seat,
            resister_seat,
            initiator_base,
            resister_base,
        } => {
            use crate::duel::{Duel, Side, Sides};
            let initiator = Side::new(
                spec.initiator,
                *initiator_seat,
                *initiator_base,
                spec.skill_suits,
                spec.modifiers,
            );
            let resister = match (spec.resister, resister_seat, resister_base) {
                (Some(resister), Some(seat), Some(base)) => {
                    Some(Side::new(resister, *seat, *base, Default::default(), 0))
                }
                _ => None,
            };
            state.last_outcome = None;
            let relent = state.edition.rules().actions.friendly_simple_duels_relent;
            state.frames.push(Frame::Duel {
                duel: Duel {
                    raise_value: spec.raise_value,
                    spec: std::sync::Arc::clone(spec),
                    step: Duel::first_step(spec, relent),
                    sides: Sides::new(initiator, resister),
                },
            });
        }
        Event::Relented { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.relented = true;
                side.modified = true;
                side.cheat_decided = true;
                side.trigger_decided = true;
            }
            state.duel_step(Duel::modify_or_flip);
        }
        Event::RelentDeclined { .. } => state.duel_step(Duel::modify_or_flip),
        Event::TotalsAnnounced { last: false, .. } => {
            state.duel_step(|duel| duel.cheat_from(duel.cheat_order(), 0));
        }
        Event::TotalsAnnounced { last: true, .. } => {
            let slots = state.trigger_slots();
            state.duel_step(|duel| duel.triggers_from(0, slots));
        }
        Event::TopCardKept { .. } => state.duel_step(back_to_modifying),
        Event::CheatSkipped { .. } => state.duel_step(next_cheat),
        Event::DuelFlipped => state.duel_step(|duel| DuelStep::Choose {
            role: duel.choosing().unwrap_or(Role::Initiator),
        }),
        Event::ModifierAdded { role, amount, .. } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.modifiers = side.modifiers.saturating_add(*amount);
            }
        }
        Event::SuitAdded { role, suit, .. } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.suits = side.suits.with(*suit);
            }
        }
        Event::Empowered { role, seat, card } => {
            let player = state.player_mut(*seat);
            if player.hand.remove(*card) {
                player.discard.push(*card);
            }
            if let Some(side) = state.side_mut(Some(*role)) {
                side.empowered = true;
            }
        }
        Event::TokenUsed { role, token, .. } => {
            // Spending it is the choice; its effects (removing it among
            // them) are facts of their own.
            if let Some(side) = state.side_mut(Some(*role)) {
                side.spent.push(*token);
            }
        }
        Event::TopCardSeen { .. } => {
            if let Some(duel) = state.duel_mut()
                && let crate::duel::DuelStep::Modify { role } = duel.step
            {
                duel.step = crate::duel::DuelStep::LookingAtTop { role };
            }
        }
        Event::TopCardDiscarded { seat, .. } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player.deck.pop() {
                player.discard.push(card);
            }
            state.duel_step(back_to_modifying);
        }
        Event::FinishedModifying { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.modified = true;
            }
            state.duel_step(Duel::modify_or_flip);
        }
        _ => apply_duel_end_facts(state, event),
    }
}
/// The duel's later facts: cheating, the Joker's suit, triggers, the
/// outcome and its end.
fn apply_duel_end_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::Cheated {
            seat,
            role,
            card_in,
            card_out,
        } => {
            let player = state.player_mut(*seat);
            if player.hand.remove(*card_in) && player.conflict.remove(*card_out) {
                player.conflict.push(*card_in);
                player.discard.push(*card_out);
            }
            if let Some(side) = state.side_mut(*role) {
                side.card = Some(*card_in);
                side.cheat_decided = true;
            }
            cheat_decided(state, *role, Some(*card_in));
        }
        Event::CheatDeclined { role } => {
            if let Some(side) = state.side_mut(*role) {
                side.cheat_decided = true;
            }
            cheat_decided(state, *role, None);
        }
        Event::JokerSuitChosen { role, suit } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.joker_suit = *suit;
                side.joker_suit_chosen = true;
            }
            state.duel_step(Duel::joker_suit_step);
        }
        Event::TriggerDeclared { role, name } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.trigger = Some(name.clone());
                side.trigger_decided = true;
            }
            if *role == crate::duel::Role::Initiator
                && let Some(action) = innermost_action(state)
            {
                action.trigger = Some(name.to_string());
            }
            let slots = state.trigger_slots();
            state.duel_step(|duel| next_trigger(duel, slots));
        }
        Event::TriggerDeclined { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.trigger_decided = true;
            }
            let slots = state.trigger_slots();
            state.duel_step(|duel| next_trigger(duel, slots));
        }
        Event::RaiseValueChanged { value } => {
            if let Some(duel) = state.duel_mut() {
                duel.raise_value = *value;
            }
        }
        Event::DuelResolved { outcome } => {
            state.last_outcome = Some(*outcome);
        }
        Event::ConflictCleared { cards } => {
            for (seat, card) in cards {
                let player = state.player_mut(*seat);
                if player.conflict.remove(*card) {
                    player.discard.push(*card);
                }
            }
        }
        Event::DuelEnded => state.pop_frame(|f| matches!(f, Frame::Duel { .. })),
        _ => {}
    }
}

/// After looking at the top card (Insight), the side goes on modifying.
fn back_to_modifying(duel: &Duel) -> DuelStep {
    match duel.step {
        DuelStep::LookingAtTop { role } => DuelStep::Modify { role },
        step => step,
    }
}

fn next_cheat(duel: &Duel) -> DuelStep {
    match duel.step {
        DuelStep::Cheat { order, next } => duel.cheat_from(order, next + 1),
        step => step,
    }
}

fn next_trigger(duel: &Duel, slots: u8) -> DuelStep {
    match duel.step {
        DuelStep::Triggers { next, .. } => duel.triggers_from(next + 1, slots),
        step => step,
    }
}

/// A side of the duel (`role`) or the damage flip (`None`) decided on cheating.
fn cheat_decided(state: &mut GameState, role: Option<crate::duel::Role>, card_in: Option<Card>) {
    if role.is_some() {
        state.duel_step(next_cheat);
    } else if let Some(flip) = state.flip_mut() {
        flip.cheat_decided = true;
        if card_in.is_some() {
            flip.card = card_in;
        }
    }
}
