//! The action procedure: a model's action from its declaration to its end.
//! Its duel, the damage the duel deals (and any model that damage kills)
//! and the action's after-succeeding effects, such as a push, all happen
//! inside it, as frames above it on the stack.

use super::*;
use crate::action::{ActionRequest, duel_for};
use crate::model::{ActionEffect, Placement};
use crate::state::{ActionInProgress, QueuedAction};
use crate::table::{Board, movement};

impl Sim<'_> {
    /// Declares an action once the rules allow it (the duel it calls for
    /// is worked out first, so a refused action changes nothing) and starts
    /// its duel inside it.
    pub(super) fn take_action(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
    ) -> Result<(), RuleError> {
        let spec = Arc::new(duel_for(self.state, request)?);
        if let Some(reason) = self.unpaid_cost(request.actor, request.action) {
            return Err(RuleError::not_allowed(reason));
        }
        self.push_check()?;
        self.emit(Event::ActionDeclared {
            model: request.actor,
            action: request.action.to_string(),
            target: request.target,
            slot,
        })?;
        self.pay_cost(request.actor, request.action)?;
        self.start_duel(&spec)
    }

    /// The soulstones an action drains to be declared, and its crew's seat.
    fn soulstone_cost(&self, actor: ModelId, action: &str) -> Option<(Seat, u8)> {
        let m = self.state.model(actor)?;
        let cost = m.card.actions.iter().find(|a| a.name == action)?.soulstones;
        (cost > 0).then_some((m.owner, cost))
    }

    /// Why the crew cannot pay for the action, if it cannot.
    fn unpaid_cost(&self, actor: ModelId, action: &str) -> Option<String> {
        let (seat, cost) = self.soulstone_cost(actor, action)?;
        let pool = self.state.player(seat).soulstones;
        (pool < u16::from(cost))
            .then(|| format!("{action} needs {cost} soulstone(s) drained, and the crew has {pool}"))
    }

    /// Declare and pay costs: the action's soulstones are drained at once.
    fn pay_cost(&mut self, actor: ModelId, action: &str) -> Result<(), RuleError> {
        let Some((seat, cost)) = self.soulstone_cost(actor, action) else {
            return Ok(());
        };
        for _ in 0..cost {
            self.emit(Event::SoulstoneSpent {
                seat,
                purpose: action.to_string().into(),
                role: None,
            })?;
        }
        Ok(())
    }

    /// The action's automatic steps once its duel has ended: its damage,
    /// then its effects and its end. False while its damage waits for a
    /// player to order it.
    pub(super) fn advance_action(&mut self) -> Result<bool, RuleError> {
        let Some(Frame::Action { action }) = self.state.frame() else {
            return Err(RuleError::NothingPending);
        };
        let action: ActionInProgress = (**action).clone();
        // The duel has ended: the damage it dealt resolves inside the action.
        if !self.state.damage_queue.is_empty() {
            return self.start_next_damage();
        }
        let success = self.state.last_outcome.is_some_and(|o| o.success);
        if success {
            self.after_succeeding(&action)?;
        }
        self.emit(Event::ActionEnded {
            model: action.actor,
            success,
        })?;
        self.declare_queued_action()?;
        Ok(true)
    }

    /// A trigger generated this action again against `target`: queued, or
    /// ignored when the action is itself an additional action that an
    /// effect (not a Charge) generated.
    pub(super) fn generate_action_again(&mut self, target: ModelId) -> Result<(), RuleError> {
        let Some(action) = self.state.frames.iter().rev().find_map(|f| match f {
            Frame::Action { action } => Some((**action).clone()),
            _ => None,
        }) else {
            return Ok(());
        };
        if action.slot == crate::event::ActionSlot::Additional {
            return self.emit(Event::AdditionalActionIgnored {
                model: action.actor,
                action: action.name,
            });
        }
        self.emit(Event::ActionQueued {
            queued: QueuedAction {
                model: action.actor,
                action: action.name,
                target: Some(target),
            },
        })
    }

    /// Declares the queue's next additional action, if the action that
    /// generated it has ended; one that cannot be declared is dropped with
    /// the reason. True when an action was declared.
    fn declare_queued_action(&mut self) -> Result<bool, RuleError> {
        while let Some(next) = self.state.action_queue.first().cloned() {
            if matches!(self.state.frame(), Some(Frame::Action { .. })) {
                return Ok(false);
            }
            let refusal = self.queued_action_refusal(&next);
            let request = ActionRequest {
                actor: next.model,
                action: &next.action,
                target: next.target,
            };
            let built = match refusal {
                Some(reason) => Err(reason),
                None => duel_for(self.state, &request).map_err(|e| e.to_string()),
            };
            match built {
                Ok(_) => {
                    self.take_action(&request, crate::event::ActionSlot::Additional)?;
                    return Ok(true);
                }
                Err(reason) => self.emit(Event::QueuedActionDropped {
                    model: next.model,
                    action: next.action.clone(),
                    reason,
                })?,
            }
        }
        Ok(false)
    }

    /// Why a queued action cannot be declared, before its duel is built.
    fn queued_action_refusal(&self, next: &QueuedAction) -> Option<String> {
        let in_play = |id: ModelId| self.state.model(id).is_some_and(|m| m.in_play());
        if !in_play(next.model) {
            return Some("the acting model is no longer in play".into());
        }
        if next.target.is_some_and(|t| !in_play(t)) {
            return Some("its target is no longer in play".into());
        }
        let once_used = self.state.encounter.as_ref().is_some_and(|e| {
            e.once_used
                .iter()
                .any(|(m, name, _)| *m == next.model && *name == next.action)
        });
        if once_used {
            return Some(format!(
                "{} is \"once per\" and has been taken",
                next.action
            ));
        }
        self.unpaid_cost(next.model, &next.action)
    }

    /// The action's effects once it succeeded and its damage resolved.
    fn after_succeeding(&mut self, action: &ActionInProgress) -> Result<(), RuleError> {
        let Some(card) = self
            .state
            .model(action.actor)
            .and_then(|m| m.card.actions.iter().find(|a| a.name == action.name))
            .cloned()
        else {
            return Ok(());
        };
        for effect in &card.after_succeeding {
            match *effect {
                ActionEffect::PushTargetAway { inches } => {
                    if let Some(target) = action.target {
                        self.push_away(target, action.actor, inches)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Pushes `model` `inches` directly away from `from`, if both stand on
    /// the table (a model killed by the damage, or an actor killed during
    /// its own action, is not pushed or pushed from).
    pub(super) fn push_away(
        &mut self,
        model: ModelId,
        from: ModelId,
        inches: u8,
    ) -> Result<(), RuleError> {
        let on_table = |id: ModelId| {
            self.state
                .model(id)
                .filter(|m| m.in_play())
                .and_then(|m| m.placement)
        };
        let (Some(start), Some(_)) = (on_table(model), on_table(from)) else {
            return Ok(());
        };
        // Hastened and Staggered: enemy models cannot move this one.
        let enemies = self
            .state
            .model(model)
            .zip(self.state.model(from))
            .is_some_and(|(moved, mover)| moved.owner != mover.owner);
        let unmovable = self
            .state
            .model(model)
            .is_some_and(|m| self.state.tokens.unmovable_by_enemies(&m.tokens));
        if enemies && unmovable {
            return Ok(());
        }
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let end = movement::push_away_from(&board, model.object(), from.object(), inches)
            .map_err(|e| RuleError::invalid(e.to_string()))?;
        let to = Placement {
            at: crate::table::Point { x: end.x, y: end.y },
            z: end.z,
        };
        if to == start {
            return Ok(());
        }
        self.emit(Event::ModelPushed {
            model,
            from: start,
            to,
        })
    }
}
