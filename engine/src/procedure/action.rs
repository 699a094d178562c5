//! The action procedure: a model's action from its declaration to its end.
//! Its duel, the damage the duel deals (and any model that damage kills)
//! and the action's after-succeeding effects, such as a push, all happen
//! inside it, as frames above it on the stack.

use super::*;
use crate::action::{ActionRequest, duel_for};
use crate::model::{ActionEffect, Placement};
use crate::state::ActionInProgress;
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
        self.push_check()?;
        self.emit(Event::ActionDeclared {
            model: request.actor,
            action: request.action.to_string(),
            target: request.target,
            slot,
        })?;
        self.start_duel(&spec)
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
        Ok(true)
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
