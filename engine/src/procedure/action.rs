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
    pub(super) fn take_action(&mut self, request: &ActionRequest) -> Result<(), RuleError> {
        let spec = Arc::new(duel_for(self.state, request)?);
        self.push_check()?;
        self.emit(Event::ActionDeclared {
            model: request.actor,
            action: request.action.to_string(),
            target: request.target,
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
                    let Some(target) = action.target else {
                        continue;
                    };
                    let Some(from) = self
                        .state
                        .model(target)
                        .filter(|m| m.in_play())
                        .and_then(|m| m.placement)
                    else {
                        // Killed by the damage, or off the table: nothing to push.
                        continue;
                    };
                    if !self
                        .state
                        .model(action.actor)
                        .is_some_and(|m| m.in_play() && m.placement.is_some())
                    {
                        // The actor was killed during its own action (an
                        // ability's damage): there is nothing to push away from.
                        continue;
                    }
                    let table = self.state.table();
                    let board = Board::new(&table, self.state.edition);
                    let end = movement::push_away_from(
                        &board,
                        target.object(),
                        action.actor.object(),
                        inches,
                    )
                    .map_err(|e| RuleError::invalid(e.to_string()))?;
                    let to = Placement {
                        at: crate::table::Point { x: end.x, y: end.y },
                        z: end.z,
                    };
                    if to != from {
                        self.emit(Event::ModelPushed {
                            model: target,
                            from,
                            to,
                        })?;
                    }
                }
            }
        }
        Ok(())
    }
}
