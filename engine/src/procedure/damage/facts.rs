//! How the damage procedure's facts apply: the damage flip, blocks,
//! reductions and the queue of damage waiting to resolve.

use super::*;
use crate::flip::FlipPurpose;

/// The damage procedure's facts: the damage flip, blocks, reductions and the queue.
pub(crate) fn apply_damage_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::DamageDealt { report, .. } => {
            // 3rd edition: damage the acting model deals in its activation
            // (Vendetta).
            let by_acting = report.amount > 0
                && state
                    .edition
                    .rules()
                    .actions
                    .tracks_activation_damage_and_kill_markers
                && state
                    .damage()
                    .and_then(|d| d.instance.credit)
                    .is_some_and(|credit| state.acting_model() == Some(credit));
            if by_acting
                && let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut)
                && !encounter.damaged_this_activation.contains(&report.target)
            {
                encounter.damaged_this_activation.push(report.target);
            }
            state.pop_frame(|f| matches!(f, Frame::Damage { .. }));
        }
        Event::DamageFizzled { .. } => {
            state.pop_frame(|f| matches!(f, Frame::Damage { .. }));
        }
        Event::DamageFlipStarted {
            seat, modifiers, ..
        } => {
            if let Some(progress) = state.damage_mut() {
                progress.block_decided = true;
                progress.flip_started = true;
            }
            state.frames.push(Frame::Flip {
                flip: FlipInProgress {
                    seat: *seat,
                    modifiers: *modifiers,
                    purpose: FlipPurpose::Damage,
                    card: None,
                    cheat_decided: false,
                },
            });
        }
        Event::DamageFlipEnded { base, dealt } => {
            state.pop_frame(|f| matches!(f, Frame::Flip { .. }));
            if let Some(progress) = state.damage_mut() {
                progress.base = *base;
                progress.dealt = *dealt;
                progress.amount = *dealt;
                progress.flip_ended = true;
            }
        }
        Event::DamageBlocked { .. } => {
            if let Some(progress) = state.damage_mut() {
                progress.flip_modifiers = progress.flip_modifiers.saturating_sub(1);
                progress.block_decided = true;
            }
        }
        Event::BlockDeclined { .. } => {
            if let Some(progress) = state.damage_mut() {
                progress.block_decided = true;
            }
        }
        Event::DamageReductionFlip { by, .. } => {
            if let Some(progress) = state.damage_mut() {
                let before = progress.amount;
                progress.amount = before.saturating_sub(*by);
                progress
                    .reductions
                    .push(("soulstone".into(), before - progress.amount));
            }
        }
        Event::ReductionUsed { model, name } => {
            let index = state
                .model(*model)
                .and_then(|m| m.card.reductions.iter().position(|r| &r.name == name));
            if let Some(index) = index {
                let optional = state
                    .model(*model)
                    .is_some_and(|m| m.card.reductions[index].optional);
                if let Some(m) = state.model_mut(*model)
                    && m.card.reductions[index].once_per_activation
                {
                    m.reductions_used.push(index as u8);
                }
                if optional {
                    offered(state, index);
                }
            }
        }
        Event::ReductionDeclined { model, name } => {
            let index = state
                .model(*model)
                .and_then(|m| m.card.reductions.iter().position(|r| &r.name == name));
            if let Some(index) = index {
                offered(state, index);
            }
        }
        Event::DamageReduced { source, by, .. } => {
            if let Some(progress) = state.damage_mut() {
                progress.amount = progress.amount.saturating_sub(*by);
                progress.reductions.push((source.clone(), *by));
            }
        }
        Event::ReductionsApplied {
            reductions, amount, ..
        } => {
            if let Some(progress) = state.damage_mut() {
                progress.reductions.extend(reductions.iter().cloned());
                progress.amount = *amount;
                progress.reductions_applied = true;
            }
        }
        Event::DamageQueued { instance } => {
            state.damage_queue.push((**instance).clone());
        }
        Event::DamageResolving { target, batch } => {
            if let Some(index) = state
                .damage_queue
                .iter()
                .position(|d| d.batch == *batch && d.target == *target)
            {
                let instance = state.damage_queue.remove(index);
                state.frames.push(Frame::Damage {
                    progress: Box::new(DamageProgress::begin(instance)),
                });
            }
        }
        _ => {}
    }
}

/// The optional reduction at `index` was offered (used or declined).
fn offered(state: &mut GameState, index: usize) {
    if let Some(progress) = state.damage_mut() {
        progress.next_reduction = progress.next_reduction.max(index as u8 + 1);
    }
}
