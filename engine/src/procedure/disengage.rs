//! 3rd edition Disengage, a general action only an engaged model takes.
//! Inside its action: one enemy engaging it may strike it with a melee
//! action (the enemy crew picks which, or none), neither side declaring
//! triggers; a successful strike does nothing of its own but shortens the
//! push that follows by a 2/4/6 flip under the strike's accuracy, one
//! positive modifier for each other enemy engaging the model; then the
//! model pushes up to its Mv, less that, in a straight line, leaving
//! engagement if it can. No Interact for the rest of its activation.

use super::*;
use crate::action::{ActionRequest, duel_for};
use crate::damage::{accuracy, flip_damage};
use crate::event::ActionSlot;
use crate::flip::FlipInProgress;
use crate::flip::FlipPurpose;
use crate::state::DisengageStage;
use crate::table::Board;

/// The strikes the enemies of `model` may make at it as it disengages:
/// each enemy engaging it, with each melee action it could take at it.
pub(crate) fn strikes(state: &GameState, model: ModelId) -> Vec<(ModelId, String)> {
    let table = state.table();
    let board = Board::new(&table, state.edition);
    let Ok(engaging) = crate::table::measure::engaged_with(&board, model.object()) else {
        return Vec::new();
    };
    let mut strikes = Vec::new();
    for enemy in state.models.iter().filter(|m| m.in_play()) {
        if !engaging.contains(&enemy.id.object()) {
            continue;
        }
        for action in enemy
            .card
            .actions
            .iter()
            .filter(|a| a.kind == crate::duel::ActionKind::Melee)
        {
            // An action "once per" turn or game that the enemy has taken
            // is not taken again for a strike.
            let used = state
                .encounter
                .as_deref()
                .is_some_and(|e| e.once_used_by(enemy.id, &action.name).is_some());
            let request = ActionRequest::own(enemy.id, &action.name, Some(model));
            if !used && duel_for(state, &request).is_ok() && Sim::strike_cost_paid(state, &request)
            {
                strikes.push((enemy.id, action.name.to_string()));
            }
        }
    }
    strikes
}

impl Sim<'_> {
    /// The Disengage command: only while engaged, never under control.
    pub(super) fn disengage(
        &mut self,
        actor: ModelId,
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        if controller.is_some() {
            return refuse(NOT_UNDER_CONTROL);
        }
        if !self.engaged(actor) {
            return refuse("Disengage can only be declared while engaged");
        }
        self.declare_general(actor, crate::rules::GeneralAction::Disengage, slot, None)?;
        self.emit(Event::DisengageStarted { model: actor })
    }

    /// Whether the crew could pay the strike's soulstone cost, if any.
    fn strike_cost_paid(state: &GameState, request: &ActionRequest) -> bool {
        Self::soulstone_cost_in(state, request)
            .is_none_or(|(seat, cost)| state.player(seat).soulstones >= u16::from(cost))
    }

    /// The Disengage's automatic steps; false while the enemy crew chooses
    /// its strike.
    pub(super) fn advance_disengage(&mut self) -> Result<bool, RuleError> {
        let Some(Frame::Disengage { model, stage }) = self.state.frame().cloned() else {
            return Err(RuleError::NothingPending);
        };
        match stage {
            DisengageStage::Strike => {
                if !strikes(&self.state, model).is_empty() {
                    return Ok(false);
                }
                self.emit(Event::DisengageStrike {
                    model,
                    striker: None,
                })?;
            }
            DisengageStage::Struck { seat, modifiers } => {
                self.push_check()?;
                self.emit(Event::DisengageFlipStarted {
                    seat,
                    model,
                    modifiers,
                })?;
                self.reveal(seat, None, crate::flip::reveal_count(modifiers))?;
            }
            DisengageStage::Push { reduction } => {
                let m = self.state.model(model).ok_or(RuleError::NothingPending)?;
                let inches = if m.on_table() {
                    self.state.tokens.speed_of(m).saturating_sub(reduction)
                } else {
                    0
                };
                self.emit(Event::DisengagePushOffered {
                    seat: m.owner,
                    model,
                    inches,
                })?;
            }
        }
        Ok(true)
    }

    /// The enemy crew's choice of strike, or none.
    pub(super) fn strike_command(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Disengage {
            model,
            stage: DisengageStage::Strike,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(seat, self.model_owner(model)?.other())?;
        match command {
            PlayerCommand::DeclineStrike => self.emit(Event::DisengageStrike {
                model,
                striker: None,
            }),
            PlayerCommand::Strike {
                model: striker,
                action,
            } => {
                let allowed = strikes(&self.state, model)
                    .iter()
                    .any(|(m, a)| m == striker && a == action);
                if !allowed {
                    return refuse(format!(
                        "{} cannot strike {} with {action}: the strike is a melee action of an enemy model engaging it, able to target it",
                        self.model_name(*striker),
                        self.model_name(model)
                    ));
                }
                self.emit(Event::DisengageStrike {
                    model,
                    striker: Some(*striker),
                })?;
                let request = ActionRequest::own(*striker, action, Some(model));
                self.take_action(&request, ActionSlot::Strike)
            }
            _ => refuse(format!(
                "strike {} as it disengages, or let it go",
                self.model_name(model)
            )),
        }
    }

    /// A successful strike: instead of its normal effects, the push will
    /// be shortened by a flip once the strike ends. True when the duel was
    /// a strike's.
    pub(super) fn strike_succeeded(&mut self, margin: i16) -> Result<bool, RuleError> {
        let Some((striker, model)) = self.state.strike_in_progress() else {
            return Ok(false);
        };
        let seat = self.model_owner(striker)?;
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let others = crate::table::measure::engaged_with(&board, model.object())
            .map_or(0, |engaging| {
                engaging.iter().filter(|e| **e != striker.object()).count()
            });
        let modifiers = accuracy(margin).saturating_add(i8::try_from(others).unwrap_or(i8::MAX));
        self.emit(Event::DisengageStruck {
            seat,
            model,
            modifiers,
        })?;
        Ok(true)
    }

    /// The reduction flip's card gives the inches taken off the push.
    pub(super) fn end_disengage_flip(&mut self, flip: &FlipInProgress) -> Result<(), RuleError> {
        let model = self
            .state
            .frames
            .iter()
            .rev()
            .find_map(|f| match f {
                Frame::Disengage { model, .. } => Some(*model),
                _ => None,
            })
            .ok_or(RuleError::NothingPending)?;
        let reduction = flip.card.map_or(0, |card| flip_damage(card, 2, 4, 6));
        if let Some(card) = flip.card {
            self.emit(Event::ConflictCleared {
                cards: vec![(flip.seat, card)],
            })?;
        }
        self.emit(Event::DisengageFlipEnded { model, reduction })
    }
}

/// Why a controlled model is not offered Disengage.
pub(super) const NOT_UNDER_CONTROL: &str = "a model under another crew's control may not Disengage: the enemy crew that chooses the strike would be the controlling one";

/// A disengage's facts: the strike, its flip and the push.
pub(crate) fn apply_disengage_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::DisengageStarted { model } => {
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.activation.disengaged = true;
            }
            state.frames.push(Frame::Disengage {
                model: *model,
                stage: DisengageStage::Strike,
            });
        }
        Event::DisengageStrike { model, .. } => {
            state.set_disengage_stage(*model, DisengageStage::Push { reduction: 0 });
        }
        Event::DisengageStruck {
            seat,
            model,
            modifiers,
        } => state.set_disengage_stage(
            *model,
            DisengageStage::Struck {
                seat: *seat,
                modifiers: *modifiers,
            },
        ),
        Event::DisengageFlipStarted {
            seat, modifiers, ..
        } => state.frames.push(Frame::Flip {
            flip: FlipInProgress {
                seat: *seat,
                modifiers: *modifiers,
                purpose: FlipPurpose::Disengage,
                card: None,
                cheat_decided: false,
            },
        }),
        Event::DisengageFlipEnded { model, reduction } => {
            state.pop_frame(|f| matches!(f, Frame::Flip { .. }));
            state.set_disengage_stage(
                *model,
                DisengageStage::Push {
                    reduction: *reduction,
                },
            );
        }
        Event::DisengagePushOffered {
            seat,
            model,
            inches,
        } => {
            state.pop_frame(|f| matches!(f, Frame::Disengage { .. }));
            if *inches > 0 {
                state.frames.push(Frame::Move {
                    seat: *seat,
                    model: *model,
                    inches: *inches,
                    push: true,
                });
            }
        }
        _ => {}
    }
}
