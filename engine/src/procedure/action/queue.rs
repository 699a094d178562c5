//! Actions an effect generates: the queue waiting for their names,
//! targets and paths, and the commands that fill them in.

use super::*;

impl Sim<'_> {
    /// The actions a successful action generates, queued in the order
    /// the rules resolve them: the action's own effect (a target that
    /// declares an action, as Obey does: Resolving Actions step D), then
    /// its declared triggers' (step E), in the order listed. An additional
    /// action that an effect (not a Charge) generated generates nothing:
    /// each is ignored, the rest of its effect still happens.
    pub(in crate::procedure) fn generate_actions(
        &mut self,
        triggers: &[TriggerEffect],
        target: ModelId,
    ) -> Result<(), RuleError> {
        let Some(action) = self.state.action_in_progress().cloned() else {
            return Ok(());
        };
        let own = self
            .state
            .model(action.actor)
            .and_then(|m| m.card.actions.iter().find(|a| *a.name == *action.name))
            .map(|card| {
                card.after_succeeding
                    .iter()
                    .filter(|effect| **effect == ActionEffect::TargetTakesAction)
                    .map(|_| TriggerEffect::TargetTakesAction)
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        // Each with whether a declared trigger generated it.
        let generating = own
            .iter()
            .map(|effect| (effect, false))
            .chain(triggers.iter().map(|effect| (effect, true)))
            .filter(|(effect, _)| effect.generates_action());
        // Control passes down: a controlled action's generated actions are
        // controlled by the same crew (Chains of Control).
        let controller = action
            .controller
            .or_else(|| self.state.model(action.actor).map(|m| m.owner));
        for (effect, by_trigger) in generating {
            if action.slot == crate::event::ActionSlot::Additional {
                self.emit(Event::AdditionalActionIgnored {
                    model: action.actor,
                    action: action.name.clone(),
                })?;
                continue;
            }
            let queued = match effect {
                TriggerEffect::TakeActionAgain => QueuedAction::again(&action, Some(target), None),
                TriggerEffect::TakeActionAgainAtDifferentModel => {
                    QueuedAction::again(&action, None, Some(target))
                }
                TriggerEffect::TargetTakesAction => {
                    if let Some(reason) = self.uncontrollable(target, controller) {
                        self.emit(Event::ControlRefused {
                            model: target,
                            reason,
                        })?;
                        continue;
                    }
                    QueuedAction {
                        model: target,
                        action: None,
                        target: None,
                        different_from: None,
                        controller,
                        from_charge: false,
                        of_kind: None,
                        by_trigger: false,
                    }
                }
                // Its model may declare an action of the kind, named once
                // the place is done and the action has resolved.
                TriggerEffect::PlaceThisModel {
                    then_may_declare: Some(kind),
                    ..
                } => QueuedAction {
                    model: action.actor,
                    action: None,
                    target: None,
                    different_from: None,
                    controller: action.controller,
                    from_charge: false,
                    of_kind: Some(*kind),
                    by_trigger: false,
                },
                _ => continue,
            };
            let queued = QueuedAction {
                by_trigger,
                ..queued
            };
            self.emit(Event::ActionQueued { queued })?;
        }
        Ok(())
    }

    /// Why `crew` may not control `model` (Control: never a master or a
    /// leader of another crew), if it may not.
    fn uncontrollable(&self, model: ModelId, crew: Option<Seat>) -> Option<String> {
        let m = self.state.model(model)?;
        if crew == Some(m.owner) {
            return None;
        }
        let leader = self.state.leads_crew(model);
        if m.card.master {
            Some(format!("{} is a master and cannot be controlled", m.name()))
        } else if leader {
            Some(format!(
                "{} leads its crew and cannot be controlled",
                m.name()
            ))
        } else {
            None
        }
    }

    /// Declares the queue's next additional action, if the action that
    /// generated it has ended and nothing about it is left to choose; one
    /// that cannot be declared is dropped with the reason. True when an
    /// action was declared or dropped.
    pub(in crate::procedure) fn declare_queued_action(&mut self) -> Result<bool, RuleError> {
        let mut progressed = false;
        while let Some(next) = self.state.action_queue.first().cloned() {
            if matches!(self.state.frame(), Some(Frame::Action { .. })) {
                return Ok(progressed);
            }
            if let Some(reason) = self.queued_action_refusal(&next) {
                self.emit(Event::QueuedActionDropped {
                    model: next.model,
                    action: next.action.clone(),
                    reason,
                })?;
                progressed = true;
                continue;
            }
            // Every action generated under control is named before the
            // first is declared; then the first's target is chosen. One
            // whose model has no action it could name is dropped.
            if let Some(unnamed) = self.state.unnamed_queued().cloned() {
                if self.nameable_actions(&unnamed).is_empty() {
                    self.emit(Event::QueuedActionDropped {
                        model: unnamed.model,
                        action: None,
                        reason: format!(
                            "{} has no action it could declare",
                            self.model_name(unnamed.model)
                        ),
                    })?;
                    progressed = true;
                    continue;
                }
                return Ok(progressed);
            }
            let Some(action) = next.action.as_deref() else {
                return Ok(progressed);
            };
            // A general action waits for its command, unless it could
            // not be taken now.
            if let (Some(_), Some(general)) = (
                self.state.queued_general(),
                GeneralAction::from_name(action),
            ) {
                let refusal = self
                    .general_refusal(next.model, general)
                    .or_else(|| self.nothing_to_interact(next.model, general));
                let Some(reason) = refusal else {
                    return Ok(progressed);
                };
                self.emit(Event::QueuedActionDropped {
                    model: next.model,
                    action: next.action.clone(),
                    reason,
                })?;
                progressed = true;
                continue;
            }
            let Some(target) = next.target else {
                if self.queued_targets(&next).is_empty() {
                    self.emit(Event::QueuedActionDropped {
                        model: next.model,
                        action: next.action.clone(),
                        reason: "no model may be targeted by it".into(),
                    })?;
                    progressed = true;
                    continue;
                }
                return Ok(progressed);
            };
            let request = ActionRequest {
                actor: next.model,
                action,
                target: Some(target),
                controller: next.controller,
            };
            match duel_for(&self.state, &request) {
                Ok(_) => {
                    let slot = crate::event::ActionSlot::Additional;
                    self.take_generated_action(&request, slot, &next)?;
                    return Ok(true);
                }
                Err(reason) => self.emit(Event::QueuedActionDropped {
                    model: next.model,
                    action: next.action.clone(),
                    reason: reason.to_string(),
                })?,
            }
            progressed = true;
        }
        Ok(progressed)
    }

    /// The actions of a queued entry's model its controller may name: those
    /// on its card that no "once per" or cost rules out (and the moves,
    /// under control). Whether a target is in reach is checked when it is
    /// declared (dropped if none is).
    fn nameable_actions(&self, entry: &QueuedAction) -> Vec<String> {
        let Some(m) = self.state.model(entry.model) else {
            return Vec::new();
        };
        let mut names: Vec<String> = m
            .card
            .actions
            .iter()
            // A Charge's action is a melee one.
            .filter(|a| entry.required_kind().is_none_or(|kind| a.kind == kind))
            .map(|a| QueuedAction {
                action: Some(a.name.to_string()),
                ..entry.clone()
            })
            // Named ahead of its turn, an action may have no target yet (a
            // Charge may bring one in reach); one named as it is declared
            // (a Charge's action) needs one now.
            .filter(|named| {
                self.queued_action_refusal(named).is_none()
                    && (!entry.named_when_declared() || !self.queued_targets(named).is_empty())
            })
            .filter_map(|named| named.action)
            .collect();
        // The general actions, for a model under control, that it could
        // take now.
        if !entry.named_when_declared() && entry.controller.is_some() {
            names.extend(
                crate::state::controlled_general_actions(self.state.edition)
                    .iter()
                    .filter(|action| self.general_refusal(entry.model, **action).is_none())
                    .map(|action| action.name().to_string()),
            );
        }
        names
    }

    /// The crew that decides for `action`: its controller, or the acting
    /// model's owner.
    pub(super) fn decider(&self, action: &ActionInProgress) -> Result<Seat, RuleError> {
        match action.controller {
            Some(seat) => Ok(seat),
            None => self.model_owner(action.actor),
        }
    }

    /// Why the controlled `model` could not take the general action
    /// `action` now, if it could not.
    fn general_refusal(&self, model: ModelId, action: GeneralAction) -> Option<String> {
        if self
            .state
            .model(model)
            .is_none_or(|m| m.placement.is_none())
        {
            return Some("the model is not on the table".into());
        }
        if !crate::state::controlled_general_actions(self.state.edition).contains(&action) {
            return Some(format!(
                "{} has no general action {}",
                self.state.edition.name(),
                action.name()
            ));
        }
        match action {
            GeneralAction::Disengage => Some(super::disengage::NOT_UNDER_CONTROL.into()),
            // Named only when some Assist could be sent: the controller
            // would otherwise have nothing to answer with.
            GeneralAction::Assist => {
                let crew = self
                    .state
                    .action_queue
                    .iter()
                    .find(|q| q.model == model)
                    .and_then(|q| q.decided_by(&self.state));
                let any = crew.is_some_and(|crew| {
                    super::assist_commands(&self.state, model).iter().any(|c| {
                        matches!(c, PlayerCommand::Assist { target, token }
                            if super::assist_refusal(&self.state, crew, model, *target, *token).is_none())
                    })
                });
                (!any).then(|| {
                    "no friendly model within 2\" in sight has a condition Assist lowers".into()
                })
            }
            GeneralAction::Charge if self.engaged(model) => {
                Some("an engaged model cannot Charge".into())
            }
            GeneralAction::Interact => self.interact_refusal(model),
            GeneralAction::Slam => {
                let slammable = general_commands(&self.state, model).iter().any(|c| {
                    matches!(
                        c,
                        PlayerCommand::Slam { .. } | PlayerCommand::SlamTerrain { .. }
                    )
                });
                (!slammable).then(|| {
                    "no marker or destructible terrain Slam could remove is within 1\"".into()
                })
            }
            _ => None,
        }
    }

    /// A queued Interact under control with nothing to interact with and
    /// no room for a scheme marker (3rd edition spaces them 4" apart) is
    /// dropped rather than waited for: why, if so.
    fn nothing_to_interact(&self, model: ModelId, action: GeneralAction) -> Option<String> {
        if action != GeneralAction::Interact {
            return None;
        }
        let m = self.state.model(model)?;
        let seat = self
            .state
            .queued_general()
            .and_then(|q| q.decided_by(&self.state))
            .unwrap_or(m.owner);
        let can = general_commands(&self.state, model).iter().any(|c| {
            matches!(c, PlayerCommand::Interact { .. })
                && crate::pending::command_is_legal(&self.state, seat, c)
        }) || crate::procedure::scheme_marker_beside(&self.state, seat, m).is_some()
            || crate::procedure::explosives_beside(&self.state, seat, m).is_some();
        (!can).then(|| "there is nothing to Interact with, nor room for a scheme marker".into())
    }

    /// The models the queue's first action may be declared against: the
    /// action allows them (range, sight, alignment under control) and, for
    /// "a different model", not the one the effect last affected.
    fn queued_targets(&self, next: &QueuedAction) -> Vec<Option<ModelId>> {
        let Some(action) = next.action.as_deref() else {
            return Vec::new();
        };
        let request = |target| ActionRequest {
            actor: next.model,
            action,
            target,
            controller: next.controller,
        };
        let mut targets: Vec<Option<ModelId>> = self
            .state
            .models
            .iter()
            .filter(|m| m.in_play() && Some(m.id) != next.different_from)
            .map(|m| Some(m.id))
            .collect();
        targets.push(None);
        targets.retain(|t| duel_for(&self.state, &request(*t)).is_ok());
        targets
    }

    /// The controller's decision for the queue: names the first unnamed
    /// action (`name_generated_action`), then declares the first action:
    /// its target (`declare_generated_action`) or, for a move, its path
    /// (`walk`, `charge`).
    pub(in crate::procedure) fn queue_command(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        if let Some(unnamed) = self.state.unnamed_queued().cloned() {
            let chooser = unnamed
                .decided_by(&self.state)
                .ok_or(RuleError::NothingPending)?;
            Self::require_seat(seat, chooser)?;
            if *command == PlayerCommand::DeclineGeneratedAction && unnamed.named_when_declared() {
                self.emit(Event::QueuedActionDropped {
                    model: unnamed.model,
                    action: None,
                    reason: "its player declined it".into(),
                })?;
                self.declare_queued_action()?;
                return Ok(());
            }
            let PlayerCommand::NameGeneratedAction { action } = command else {
                return refuse(format!(
                    "name the action {} declares first{}",
                    self.model_name(unnamed.model),
                    if unnamed.named_when_declared() {
                        ", or decline it"
                    } else {
                        ""
                    }
                ));
            };
            let m = self
                .state
                .model(unnamed.model)
                .ok_or(RuleError::NothingPending)?;
            let on_card = m.card.actions.iter().any(|a| *a.name == **action);
            let controlled_general = unnamed.controller.is_some()
                && GeneralAction::from_name(action).is_some_and(|general| {
                    crate::state::controlled_general_actions(self.state.edition).contains(&general)
                });
            if !(on_card || controlled_general) {
                return refuse(format!("{} has no action called {action:?}", m.name()));
            }
            if !self.nameable_actions(&unnamed).contains(action) {
                return refuse(format!(
                    "{} could not declare {action} (a \"once per\" used, its cost, or for a Charge's or an effect's action, not of its kind or no model in reach)",
                    m.name()
                ));
            }
            self.emit(Event::GeneratedActionNamed {
                model: unnamed.model,
                action: action.clone(),
            })?;
            self.declare_queued_action()?;
            return Ok(());
        }
        let next = self
            .state
            .action_queue
            .first()
            .cloned()
            .ok_or(RuleError::NothingPending)?;
        let chooser = next
            .decided_by(&self.state)
            .ok_or(RuleError::NothingPending)?;
        Self::require_seat(seat, chooser)?;
        if self.state.queued_general().is_some() {
            use crate::table::movement::MoveKind;
            let slot = crate::event::ActionSlot::Additional;
            let named = next.action.as_deref().unwrap_or("general action");
            let general = GeneralAction::from_name(named);
            if command.general_action() != general {
                let model = self.model_name(next.model);
                return refuse(match general {
                    Some(GeneralAction::Walk | GeneralAction::Charge) => {
                        format!("send the path of {model}'s {named}")
                    }
                    Some(GeneralAction::Prepare) => {
                        format!("send the token {model}'s Prepare gives")
                    }
                    Some(GeneralAction::Slam) => {
                        format!("send the marker or terrain {model}'s Slam removes")
                    }
                    _ => format!("send the marker {model}'s {named} makes, removes or claims"),
                });
            }
            return match command {
                PlayerCommand::Walk { path, land_at } => self.move_model(
                    next.model,
                    path,
                    *land_at,
                    MoveKind::Walk,
                    slot,
                    next.controller,
                ),
                PlayerCommand::Charge { to, land_at } => self.move_model(
                    next.model,
                    &[*to],
                    *land_at,
                    MoveKind::Charge,
                    slot,
                    next.controller,
                ),
                _ => self.general_action(seat, next.model, command, slot, next.controller),
            };
        }
        let (PlayerCommand::DeclareGeneratedAction { target }, Some(action)) =
            (command, next.action.as_deref())
        else {
            return refuse(format!(
                "choose the target of the action {} declares first",
                self.model_name(next.model)
            ));
        };
        if let Some(previous) = next.different_from.filter(|p| *target == Some(*p)) {
            return refuse(format!(
                "the action must target a different model than {}",
                self.model_name(previous)
            ));
        }
        let request = ActionRequest {
            actor: next.model,
            action,
            target: *target,
            controller: next.controller,
        };
        // A Charge's melee action does not count, and may generate another.
        let slot = if next.from_charge {
            crate::event::ActionSlot::Free
        } else {
            crate::event::ActionSlot::Additional
        };
        self.take_generated_action(&request, slot, &next)
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
        let action = next.action.as_deref()?;
        let once_used = self
            .state
            .encounter
            .as_ref()
            .is_some_and(|e| e.once_used_by(next.model, action).is_some());
        if once_used {
            return Some(format!("{action} is \"once per\" and has been taken"));
        }
        self.unpaid_cost(&ActionRequest {
            actor: next.model,
            action,
            target: next.target,
            controller: next.controller,
        })
    }
}
