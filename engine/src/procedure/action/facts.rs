//! How an action's facts apply, and those of the frames it opens to ask a
//! player.

use super::*;
use crate::event::ActionSlot;
use crate::state::wait_in_action;
use crate::state::{innermost_action, moved_by_effect};

/// An action's facts and those of the frames it opens (choices, placing, blasts, kill payments, draws from the discard).
pub(crate) fn apply_action_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::ActionDeclared {
            model,
            action,
            target,
            slot,
            controller,
        } => {
            state.frames.push(Frame::Action {
                action: Box::new(ActionInProgress {
                    actor: *model,
                    name: action.clone(),
                    target: *target,
                    slot: *slot,
                    controller: *controller,
                    effects_resolved: false,
                    trigger: None,
                    pushed_through: Vec::new(),
                }),
            });
            // An additional action is declared from the front of the queue
            // (a Charge's melee action, queued, as a free one).
            let from_queue = match slot {
                ActionSlot::Additional => true,
                ActionSlot::Free => state
                    .action_queue
                    .first()
                    .is_some_and(|q| q.from_charge && q.model == *model),
                _ => false,
            };
            if from_queue && !state.action_queue.is_empty() {
                state.action_queue.remove(0);
            }
            let once = state
                .model(*model)
                .and_then(|m| m.card.actions.iter().find(|a| *a.name == **action))
                .and_then(|a| a.once_per)
                .or_else(|| {
                    (action == crate::rules::GeneralAction::Concentrate.name())
                        .then_some(crate::model::OncePer::Activation)
                });
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                if let Some(per) = once {
                    encounter.once_used.push((*model, action.clone(), per));
                }
                let used = &mut encounter.activation;
                match slot {
                    ActionSlot::Normal => used.actions = used.actions.saturating_add(1),
                    ActionSlot::Signature => used.signature = true,
                    ActionSlot::Bonus => used.bonus = true,
                    ActionSlot::Free | ActionSlot::Additional | ActionSlot::Strike => {}
                }
                // The melee action a Charge gives comes straight after it.
                used.free_melee = false;
            }
        }
        Event::ActionEffectsResolved { .. } => {
            if let Some(action) = innermost_action(state) {
                action.effects_resolved = true;
            }
        }
        Event::ActionEnded { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Action { .. }));
        }
        Event::ActionQueued { queued } => state.action_queue.push(queued.clone()),
        Event::AdditionalActionIgnored { .. } | Event::ControlRefused { .. } => {}
        Event::ActionFailedOutOfRange { .. } => {
            state.last_outcome = Some(crate::duel::Outcome::without_duel(false));
        }
        Event::ActionSucceededWithoutDuel { .. } => {
            state.last_outcome = Some(crate::duel::Outcome::without_duel(true));
        }
        Event::GeneratedActionNamed { model, action } => {
            if let Some(queued) = state
                .action_queue
                .iter_mut()
                .find(|q| q.model == *model && q.action.is_none())
            {
                queued.action = Some(action.clone());
            }
        }
        // The queue's first entry, or the first still unnamed.
        Event::QueuedActionDropped { model, action, .. } => {
            if let Some(index) = state
                .action_queue
                .iter()
                .position(|q| q.model == *model && q.action == *action)
            {
                state.action_queue.remove(index);
            }
        }
        _ => {}
    }
}
/// The facts of the frames an action opens to ask its players: either/or,
/// a model or marker to choose, a place, blasts, a kill's payment, cards
/// from the discard, a move.
pub(crate) fn apply_choice_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::EitherOffered {
            seat,
            model,
            options,
        } => state.frames.push(Frame::Either {
            seat: *seat,
            model: *model,
            options: *options,
        }),
        Event::EitherChosen { .. } => state.pop_frame(|f| matches!(f, Frame::Either { .. })),
        Event::ModelChoiceOffered {
            seat,
            options,
            then,
        } => {
            let frame = Frame::ChooseModel {
                seat: *seat,
                options: options.clone(),
                then: *then,
            };
            if then.inside_action() {
                wait_in_action(state, frame);
            } else {
                state.frames.push(frame);
            }
        }
        Event::ModelChosen { .. } => {
            state.pop_frame(|f| matches!(f, Frame::ChooseModel { .. }));
        }
        Event::MarkerChoiceOffered {
            seat,
            options,
            then,
        } => state.frames.push(Frame::ChooseMarker {
            seat: *seat,
            options: options.clone(),
            then: *then,
        }),
        Event::MarkerChosen { .. } => {
            state.pop_frame(|f| matches!(f, Frame::ChooseMarker { .. }));
        }
        Event::ChoiceDeclined { .. } => {
            state
                .pop_frame(|f| matches!(f, Frame::ChooseModel { .. } | Frame::ChooseMarker { .. }));
        }
        Event::PlaceOffered {
            seat,
            model,
            inches,
            touching,
            rebirth,
        } => {
            let frame = Frame::Place {
                seat: *seat,
                model: *model,
                inches: *inches,
                touching: *touching,
            };
            // A rebirth's place comes before the action's own effects,
            // which still resolve after it.
            if *rebirth {
                state.frames.push(frame);
            } else {
                wait_in_action(state, frame);
            }
        }
        Event::BlastsOffered {
            seat,
            target,
            count,
            damage,
            source,
            credit,
        } => state.frames.push(Frame::Blasts {
            seat: *seat,
            target: *target,
            count: *count,
            damage: *damage,
            source: source.clone(),
            credit: *credit,
            dropped: Vec::new(),
        }),
        Event::KillPaymentOffered { seat, model } => wait_in_action(
            state,
            Frame::KillUnlessPaid {
                seat: *seat,
                model: *model,
            },
        ),
        Event::KillPaidOff { .. } | Event::KillPaymentDeclined { .. } => {
            state.pop_frame(|f| matches!(f, Frame::KillUnlessPaid { .. }));
        }
        Event::DrawFromDiscardOffered {
            seat,
            up_to,
            max_value,
        } => wait_in_action(
            state,
            Frame::DrawFromDiscard {
                seat: *seat,
                up_to: *up_to,
                max_value: *max_value,
            },
        ),
        Event::DrewFromDiscard { seat, cards } => {
            state.pop_frame(|f| matches!(f, Frame::DrawFromDiscard { .. }));
            let player = state.player_mut(*seat);
            for card in cards {
                if player.discard.remove(*card) {
                    player.hand.push(*card);
                }
            }
        }
        Event::MoveOffered {
            seat,
            model,
            inches,
        } => state.frames.push(Frame::Move {
            seat: *seat,
            model: *model,
            inches: *inches,
            push: false,
        }),
        Event::BlastDropped { at } => {
            if let Some(Frame::Blasts { dropped, .. }) = state.frames.last_mut() {
                dropped.push(*at);
            }
        }
        Event::BlastsLanded { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Blasts { .. }));
        }
        Event::ModelPlaced {
            model, to, hazards, ..
        } => {
            state.pop_frame(|f| matches!(f, Frame::Place { .. }));
            moved_by_effect(state, *model, *to, hazards);
        }
        _ => {}
    }
}
