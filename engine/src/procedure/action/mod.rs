//! The action procedure: a model's action from its declaration to its end.
//! Its duel, the damage the duel deals (and any model that damage kills)
//! and the action's after-succeeding effects, such as a push, all happen
//! inside it, as frames above it on the stack.

use super::*;
use crate::action::{ActionRequest, Declaration, declaration, duel_for};
use crate::duel::TriggerEffect;
use crate::model::{ActionEffect, Model, Placement, UpgradeHolder};
use crate::state::{ActionInProgress, QueuedAction};
use crate::table::{Board, Point, movement};

impl Sim<'_> {
    /// Declares an action once the rules allow it (the duel it calls for
    /// is worked out first, so a refused action changes nothing) and starts
    /// its duel inside it.
    pub(super) fn take_action(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
    ) -> Result<(), RuleError> {
        let mut spec = match declaration(&self.state, request)? {
            Declaration::Duel(spec) => spec,
            Declaration::OutOfRange(reason) => {
                return self.declare_out_of_range(request, slot, reason);
            }
        };
        // Neither model declares triggers in a strike at a disengaging one.
        if slot == crate::event::ActionSlot::Strike {
            spec.triggers.clear();
            spec.resist_triggers.clear();
        }
        let spec = Arc::new(spec);
        self.declare_and_pay(request, slot)?;
        // With neither a resist nor a TN, no duel is required: the action
        // succeeds at once (Resolving Actions, step C).
        if spec.resister.is_none() && spec.tn.is_none() {
            return self.emit(Event::ActionSucceededWithoutDuel {
                model: request.actor,
            });
        }
        self.start_duel(&spec)
    }

    /// A 4th edition action at a target out of range: declared (it counts
    /// against the action limit, its costs are paid) and failed at once,
    /// with no duel; its end follows as any failed action's.
    fn declare_out_of_range(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
        reason: String,
    ) -> Result<(), RuleError> {
        self.declare_and_pay(request, slot)?;
        self.emit(Event::ActionFailedOutOfRange {
            model: request.actor,
            reason,
        })
    }

    /// Declares the action (its frame, its slot of the limit) and drains
    /// its soulstones, once the crew can pay; a crew that cannot changes
    /// nothing.
    fn declare_and_pay(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
    ) -> Result<(), RuleError> {
        if let Some(reason) = self.unpaid_cost(request) {
            return Err(RuleError::not_allowed(reason));
        }
        self.push_check()?;
        self.emit(Event::ActionDeclared {
            model: request.actor,
            action: request.action.to_string(),
            target: request.target,
            slot,
            controller: request.controller,
        })?;
        self.pay_cost(request)
    }

    /// The soulstones an action drains to be declared, and the seat of the
    /// crew that pays (the controlling crew pays for a model it controls).
    fn soulstone_cost(&self, request: &ActionRequest) -> Option<(Seat, u8)> {
        Self::soulstone_cost_in(&self.state, request)
    }

    /// [`Sim::soulstone_cost`] in `state`, for the options' checks.
    pub(super) fn soulstone_cost_in(
        state: &GameState,
        request: &ActionRequest,
    ) -> Option<(Seat, u8)> {
        let m = state.model(request.actor)?;
        let cost = m
            .card
            .actions
            .iter()
            .find(|a| *a.name == *request.action)?
            .soulstones;
        (cost > 0).then_some((request.controller.unwrap_or(m.owner), cost))
    }

    /// Why the crew cannot pay for the action, if it cannot.
    fn unpaid_cost(&self, request: &ActionRequest) -> Option<String> {
        let (seat, cost) = self.soulstone_cost(request)?;
        let pool = self.state.player(seat).soulstones;
        (pool < u16::from(cost)).then(|| {
            format!(
                "{} needs {cost} soulstone(s) drained, and the crew has {pool}",
                request.action
            )
        })
    }

    /// Declare and pay costs: the action's soulstones are drained at once.
    fn pay_cost(&mut self, request: &ActionRequest) -> Result<(), RuleError> {
        let Some((seat, cost)) = self.soulstone_cost(request) else {
            return Ok(());
        };
        for _ in 0..cost {
            self.emit(Event::SoulstoneSpent {
                seat,
                purpose: request.action.to_string().into(),
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
        // Disengage's frame holds no duel of its own (the last outcome is
        // its strike's); a strike's success has no effects of its own.
        let success =
            action.name == super::DISENGAGE || self.state.last_outcome.is_some_and(|o| o.success);
        let effects = success
            && action.name != super::DISENGAGE
            && action.slot != crate::event::ActionSlot::Strike;
        if effects && !action.effects_resolved {
            self.after_succeeding(&action)?;
            // Damage its effects dealt (a fall from a push) resolves
            // before the action ends; the effects do not resolve again.
            let unmarked = matches!(
                self.state.frame(),
                Some(Frame::Action { action }) if !action.effects_resolved
            );
            if unmarked && !self.state.damage_queue.is_empty() {
                self.emit(Event::ActionEffectsResolved {
                    model: action.actor,
                })?;
            }
            // A killing may wait on players or queue Demise damage: the
            // action ends once it has finished.
            let waiting = !matches!(self.state.frame(), Some(Frame::Action { .. }))
                || !self.state.damage_queue.is_empty();
            if waiting {
                return Ok(true);
            }
        }
        // Pushes during the action (its effects, triggers and abilities)
        // were recorded on its frame, read now that they are over.
        let pushed_through = match self.state.frame() {
            Some(Frame::Action { action }) => action.pushed_through.clone(),
            _ => Vec::new(),
        };
        self.emit(Event::ActionEnded {
            model: action.actor,
            success,
        })?;
        self.suffer_hazards(action.actor, Vec::new())?;
        // Then each model pushed through hazardous terrain, in the order
        // they were pushed.
        let mut pushed: Vec<ModelId> = Vec::new();
        for (model, _) in &pushed_through {
            if !pushed.contains(model) {
                pushed.push(*model);
            }
        }
        for model in pushed {
            let names = pushed_through
                .iter()
                .filter(|(m, _)| *m == model)
                .map(|(_, name)| name.clone())
                .collect();
            self.suffer_pushed_hazards(model, names)?;
        }
        // Hazard damage resolves first; the activation (or the game flow)
        // then declares any queued action.
        if self.state.damage_queue.is_empty() {
            self.declare_queued_action()?;
        }
        Ok(true)
    }

    /// After an action (its after-resolving effects done), the actor
    /// suffers the hazardous terrain it moved through (`moved_through`,
    /// one name per piece) or is in now: 1 damage per piece, each piece
    /// once per action, and in 4th edition at most once per activation.
    /// Only inside an activation, which keeps the count; a model far from
    /// hazardous terrain costs one scan.
    pub(super) fn suffer_hazards(
        &mut self,
        model: ModelId,
        moved_through: Vec<String>,
    ) -> Result<(), RuleError> {
        self.suffer_hazards_as(model, moved_through, true)
    }

    /// A model pushed through hazardous terrain (`moved_through`) suffers
    /// it as [`Sim::suffer_hazards`] says, without the terrain it stands
    /// in: it was moved, it did not act there.
    pub(super) fn suffer_pushed_hazards(
        &mut self,
        model: ModelId,
        moved_through: Vec<String>,
    ) -> Result<(), RuleError> {
        self.suffer_hazards_as(model, moved_through, false)
    }

    fn suffer_hazards_as(
        &mut self,
        model: ModelId,
        mut moved_through: Vec<String>,
        acted: bool,
    ) -> Result<(), RuleError> {
        // Building a board is dear: only for a model that acted near a
        // hazard (a hazardous piece's bounds, or any hazardous aura).
        let near_terrain = |m: &crate::model::Model| {
            m.placement.is_some_and(|spot| {
                crate::table::near_hazard(
                    &self.state.terrain,
                    &self.state.markers,
                    spot,
                    m.card.base,
                )
            })
        };
        let near = acted
            && (self.state.model(model).is_some_and(near_terrain)
                || self.state.holds_hazardous_aura());
        if !near && moved_through.is_empty() {
            return Ok(());
        }
        let Some(suffered) = self.state.frames.iter().rev().find_map(|f| match f {
            Frame::Activation { hazards, .. } => Some(hazards),
            _ => None,
        }) else {
            return Ok(());
        };
        let suffered = suffered.clone();
        if self.state.model(model).is_none_or(|m| !m.on_table()) {
            return Ok(());
        }
        if near {
            let table = self.state.table();
            let board = Board::new(&table, self.state.edition);
            if let Ok(now_in) = crate::table::measure::hazards_while_acting(&board, model.object())
            {
                moved_through.extend(now_in);
            }
        }
        moved_through.sort();
        moved_through.dedup();
        let once_per_activation =
            crate::ruleset::rules(self.state.edition).hazard_once_per_activation();
        for terrain in moved_through {
            if once_per_activation && suffered.iter().any(|(m, t)| *m == model && *t == terrain) {
                continue;
            }
            // A piece or marker that names its effect gives its token; the
            // rest deal 1.
            let effect = self.hazard_effect(&terrain);
            // An Aura (Hazardous): a kill by it is its friendly crew's.
            let aura_crew = self
                .state
                .aura_areas()
                .iter()
                .find(|aura| aura.name == terrain)
                .and_then(|aura| aura.friendly_to);
            let source = format!("hazardous terrain ({terrain})");
            self.emit(Event::HazardSuffered { model, terrain })?;
            match effect {
                Some((token, crew)) => {
                    // Terrain of no crew gives an enemy token, from the
                    // other crew; a crew's markers give that crew's.
                    let from = match crew {
                        Some(crew) => crew,
                        None => self.model_owner(model)?.other(),
                    };
                    self.gain_token(model, token, 1, Some(from))?;
                }
                // Terrain belongs to no crew: no model is credited with a
                // kill; an aura's crew is.
                None => {
                    let mut damage = DamageInstance::fixed(model, source, 1, false, self.batch());
                    damage.credit_crew = aura_crew;
                    self.queue(damage)?
                }
            }
        }
        Ok(())
    }

    /// The token a hazardous piece or marker type called `name` gives, and
    /// the crew it belongs to: markers of one name count as one piece, so
    /// theirs is the crew that made them all (none if crews differ).
    fn hazard_effect(&self, name: &str) -> Option<(Token, Option<Seat>)> {
        if let Some(piece) = self.state.terrain.iter().find(|p| p.name == name) {
            return piece.hazard.map(|token| (token, None));
        }
        let token = self.state.marker_types.named(name)?.hazard?;
        let mut owners = self
            .state
            .markers
            .iter()
            .filter(|m| m.name == name)
            .map(|m| m.owner);
        let first = owners.next().flatten();
        let crew = first.filter(|seat| owners.all(|o| o == Some(*seat)));
        Some((token, crew))
    }

    /// The actions a successful action generates, queued in the order
    /// the rules resolve them: the action's own effect (a target that
    /// declares an action, as Obey does: Resolving Actions step D), then
    /// its declared triggers' (step E), in the order listed. An additional
    /// action that an effect (not a Charge) generated generates nothing:
    /// each is ignored, the rest of its effect still happens.
    pub(super) fn generate_actions(
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
        let generating = own
            .iter()
            .chain(triggers)
            .filter(|effect| effect.generates_action());
        // Control passes down: a controlled action's generated actions are
        // controlled by the same crew (Chains of Control).
        let controller = action
            .controller
            .or_else(|| self.state.model(action.actor).map(|m| m.owner));
        for effect in generating {
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
                },
                _ => continue,
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
    pub(super) fn declare_queued_action(&mut self) -> Result<bool, RuleError> {
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
            if self.state.queued_general().is_some() {
                let refusal = self
                    .general_refusal(next.model, action)
                    .or_else(|| self.nothing_to_interact(next.model, action));
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
                    self.take_action(&request, crate::event::ActionSlot::Additional)?;
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
                    .filter(|action| self.general_refusal(entry.model, action).is_none())
                    .map(|action| action.to_string()),
            );
        }
        names
    }

    /// The crew that decides for `action`: its controller, or the acting
    /// model's owner.
    fn decider(&self, action: &ActionInProgress) -> Result<Seat, RuleError> {
        match action.controller {
            Some(seat) => Ok(seat),
            None => self.model_owner(action.actor),
        }
    }

    /// Why the controlled `model` could not take the general action
    /// `action` now, if it could not.
    fn general_refusal(&self, model: ModelId, action: &str) -> Option<String> {
        if self
            .state
            .model(model)
            .is_none_or(|m| m.placement.is_none())
        {
            return Some("the model is not on the table".into());
        }
        if !crate::state::controlled_general_actions(self.state.edition).contains(&action) {
            return Some(format!(
                "{} has no general action {action}",
                self.state.edition.name()
            ));
        }
        match action {
            super::DISENGAGE => Some(super::disengage::NOT_UNDER_CONTROL.into()),
            // Named only when some Assist could be sent: the controller
            // would otherwise have nothing to answer with.
            super::ASSIST => {
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
            "Charge" if self.engaged(model) => Some("an engaged model cannot Charge".into()),
            "Interact" => self.interact_refusal(model),
            "Slam" => {
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
    fn nothing_to_interact(&self, model: ModelId, action: &str) -> Option<String> {
        if action != "Interact" {
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
        }) || crate::pending::scheme_marker_beside(&self.state, seat, m).is_some()
            || crate::pending::explosives_beside(&self.state, seat, m).is_some();
        (!can).then(|| "there is nothing to Interact with, nor room for a scheme marker".into())
    }

    /// Whether the model is engaged on the table.
    pub(super) fn engaged(&self, model: ModelId) -> bool {
        self.engaged_ignoring(model, None)
    }

    /// The models the queue's first action may be declared against: the
    /// action allows them (range, sight, alignment under control) and, for
    /// "a different model", not the one the effect last affected.
    pub(super) fn queued_targets(&self, next: &QueuedAction) -> Vec<Option<ModelId>> {
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
    pub(super) fn queue_command(
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
                && crate::state::controlled_general_actions(self.state.edition)
                    .contains(&action.as_str());
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
            if command.general_action() != Some(named) {
                let model = self.model_name(next.model);
                return refuse(match named {
                    "Walk" | "Charge" => format!("send the path of {model}'s {named}"),
                    "Prepare" => format!("send the token {model}'s Prepare gives"),
                    "Slam" => format!("send the marker or terrain {model}'s Slam removes"),
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
        self.take_action(&request, slot)
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

    /// The action's effects once it succeeded and its damage resolved.
    fn after_succeeding(&mut self, action: &ActionInProgress) -> Result<(), RuleError> {
        let Some(card) = self
            .state
            .model(action.actor)
            .and_then(|m| m.card.actions.iter().find(|a| *a.name == *action.name))
            .cloned()
        else {
            return Ok(());
        };
        let mut kill = None;
        let mut place = None;
        let mut replace = None;
        let mut from_discard = None;
        // The crew that gains what the action draws, and gives what it
        // gives: its controller's.
        let drawer = match action.controller {
            Some(crew) => crew,
            None => self.model_owner(action.actor)?,
        };
        for effect in &card.after_succeeding {
            match *effect {
                ActionEffect::PushTargetAway { inches } => {
                    if let Some(target) = action.target {
                        self.push_away(target, action.actor, inches)?;
                    }
                }
                // Queued when the duel succeeded, in order with the
                // actions its triggers generate.
                ActionEffect::TargetTakesAction => {}
                ActionEffect::KillTarget {
                    raises,
                    unless_paid,
                } => {
                    let earned = self.state.last_outcome.is_some_and(|o| o.raises >= raises);
                    if earned {
                        kill = action.target.map(|target| (target, unless_paid));
                    }
                }
                ActionEffect::PlaceThisModel { inches } => place = Some((action.actor, inches)),
                ActionEffect::PlaceTarget { inches } => {
                    place = action.target.map(|target| (target, inches));
                }
                ActionEffect::ReplaceThisModel {
                    ref with,
                    ref together_with,
                } => replace = Some((with.clone(), together_with.clone())),
                ActionEffect::DrawCards { count } => {
                    for _ in 0..count {
                        self.draw(drawer)?;
                    }
                }
                ActionEffect::DrawFromDiscard { up_to, max_value } => {
                    from_discard = Some((up_to, max_value));
                }
                ActionEffect::AttachUpgrade { ref upgrade, to } => {
                    let holder = match to {
                        UpgradeHolder::Target => action.target,
                        UpgradeHolder::ThisModel => Some(action.actor),
                    };
                    if let Some(holder) = holder {
                        self.attach_upgrade(holder, upgrade, action)?;
                    }
                }
            }
        }
        // A declared trigger's after-succeeding effect that asks for a model.
        let declared = action
            .trigger
            .as_ref()
            .and_then(|name| card.triggers.iter().find(|t| t.name == *name));
        // A token the trigger gives after succeeding comes now, after the
        // damage: to a target still in play, from a model still in play.
        if let (Some(trigger), Some(target)) = (declared, action.target)
            && let TriggerEffect::TargetGainsToken { token } = trigger.effect
            && !trigger.timing.with_the_damage()
            && self.state.model(target).is_some_and(|m| m.in_play())
            && self.state.model(action.actor).is_some_and(|m| m.in_play())
        {
            self.gain_token(target, token, 1, Some(drawer))?;
        }
        match (declared.map(|t| t.effect), action.target) {
            (Some(TriggerEffect::AnotherModelHeals { amount, within }), Some(target)) => {
                self.heal_another(action, target, amount, within)?;
            }
            (Some(TriggerEffect::PushTargetAway { inches }), Some(target)) => {
                self.push_away(target, action.actor, inches)?;
            }
            (Some(TriggerEffect::PlaceThisModel { inches, .. }), _) => {
                place = Some((action.actor, inches));
            }
            (Some(TriggerEffect::Pounce { within }), _) => {
                return self.offer_pounce(action, within);
            }
            (Some(TriggerEffect::AttachActionsUpgradeToThisModel), _) => {
                let upgrade = card.after_succeeding.iter().find_map(|e| match e {
                    ActionEffect::AttachUpgrade { upgrade, .. } => Some(upgrade.clone()),
                    _ => None,
                });
                if let Some(upgrade) = upgrade {
                    self.attach_upgrade(action.actor, &upgrade, action)?;
                }
            }
            _ => {}
        }
        // A summoning action's pick, or a place, waits for its player.
        if !card.summons.is_empty() {
            return self.offer_summon(action.actor, &card);
        }
        if let Some((model, inches)) = place {
            return self.offer_place(action, model, inches);
        }
        if let Some((with, together_with)) = replace {
            return self.offer_replace(action, &with, together_with.as_ref());
        }
        if let Some((up_to, max_value)) = from_discard {
            let any = self
                .state
                .player(drawer)
                .discard
                .as_slice()
                .iter()
                .any(|c| drawable_from_discard(*c, max_value));
            if any && up_to > 0 {
                self.push_check()?;
                return self.emit(Event::DrawFromDiscardOffered {
                    seat: drawer,
                    up_to,
                    max_value,
                });
            }
        }
        // The killing comes last: it may wait on its players.
        let Some((target, unless_paid)) = kill else {
            return Ok(());
        };
        let Some(victim) = self.state.model(target).filter(|m| m.in_play()) else {
            return Ok(());
        };
        // Its controller may pay a card or a soulstone instead, if it has one.
        let seat = victim.owner;
        let player = self.state.player(seat);
        if unless_paid && (!player.hand.is_empty() || player.soulstones > 0) {
            self.push_check()?;
            return self.emit(Event::KillPaymentOffered {
                seat,
                model: target,
            });
        }
        self.execute(target, action)
    }

    /// The execute effect kills `target`, whatever its health.
    fn execute(&mut self, target: ModelId, action: &ActionInProgress) -> Result<(), RuleError> {
        self.emit(Event::ModelExecuted {
            model: target,
            action: action.name.clone(),
        })?;
        self.kill_by_effect(target, action)
    }

    /// The controller's answer to an execute effect it may pay off.
    pub(super) fn kill_payment_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::KillUnlessPaid { seat, model }) = self.state.frame().cloned() else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        match command {
            PlayerCommand::PayAgainstKill { card: Some(card) } => {
                if !self.state.player(seat).hand.contains(*card) {
                    return refuse(format!("{card} is not in your hand"));
                }
                self.emit(Event::Discarded {
                    seat,
                    cards: vec![*card],
                })?;
                self.emit(Event::KillPaidOff { seat, model })
            }
            PlayerCommand::PayAgainstKill { card: None } => {
                if self.state.player(seat).soulstones == 0 {
                    return refuse("your crew has no soulstone to discard");
                }
                self.emit(Event::SoulstoneSpent {
                    seat,
                    purpose: "not to be killed".into(),
                    role: None,
                })?;
                self.emit(Event::KillPaidOff { seat, model })
            }
            PlayerCommand::DeclinePayment => {
                let action = self
                    .state
                    .action_in_progress()
                    .cloned()
                    .ok_or(RuleError::NothingPending)?;
                self.emit(Event::KillPaymentDeclined { seat, model })?;
                self.execute(model, &action)
            }
            _ => refuse(format!(
                "discard a card or a soulstone so that {} is not killed, or decline",
                self.model_name(model)
            )),
        }
    }

    /// "Another model within `within` of the target heals": any model in
    /// play there but the acting one (the target included), picked by the
    /// acting player when there is more than one.
    fn heal_another(
        &mut self,
        action: &ActionInProgress,
        target: ModelId,
        amount: u8,
        within: u8,
    ) -> Result<(), RuleError> {
        let mut options: Vec<ModelId> = self
            .selected(
                &crate::ability::Selector::ModelsWithin {
                    inches: within,
                    side: crate::ability::SideFilter::Any,
                    keyword: None,
                },
                target,
                None,
            )
            .into_iter()
            .chain(std::iter::once(target))
            .filter(|id| *id != action.actor)
            .filter(|id| self.state.model(*id).is_some_and(|m| m.in_play()))
            .collect();
        options.sort();
        options.dedup();
        let seat = self.decider(action)?;
        match options.as_slice() {
            [] => Ok(()),
            [only] => self.heal(*only, amount),
            _ => {
                self.push_check()?;
                self.emit(Event::ModelChoiceOffered {
                    seat,
                    options,
                    then: crate::ability::ModelChoice::Heal { amount },
                })
            }
        }
    }

    /// Pouncing: the enemy models within `within` of the acting model that
    /// it could be placed touching; its player picks one when there are
    /// several, then where it goes.
    fn offer_pounce(&mut self, action: &ActionInProgress, within: u8) -> Result<(), RuleError> {
        let actor = action.actor;
        if self.state.model(actor).is_none_or(|m| !m.on_table()) {
            return Ok(());
        }
        let options: Vec<ModelId> = self
            .selected(
                &crate::ability::Selector::ModelsWithin {
                    inches: within,
                    side: crate::ability::SideFilter::Enemy,
                    keyword: None,
                },
                actor,
                None,
            )
            .into_iter()
            .filter(|enemy| !pounce_spots(&self.state, actor, *enemy).is_empty())
            .collect();
        let seat = self.decider(action)?;
        match options.as_slice() {
            [] => Ok(()),
            [only] => self.pounce_on(action, *only),
            _ => {
                self.push_check()?;
                self.emit(Event::ModelChoiceOffered {
                    seat,
                    options,
                    then: crate::ability::ModelChoice::PounceOn,
                })
            }
        }
    }

    /// The pounce on `enemy`: the action again against it is queued (or
    /// ignored, for an additional action), then the acting model's player
    /// places it touching `enemy`.
    fn pounce_on(&mut self, action: &ActionInProgress, enemy: ModelId) -> Result<(), RuleError> {
        if action.slot == crate::event::ActionSlot::Additional {
            self.emit(Event::AdditionalActionIgnored {
                model: action.actor,
                action: action.name.clone(),
            })?;
        } else {
            self.emit(Event::ActionQueued {
                queued: QueuedAction::again(action, Some(enemy), None),
            })?;
        }
        let seat = self.decider(action)?;
        self.push_check()?;
        self.emit(Event::PlaceOffered {
            seat,
            model: action.actor,
            inches: 0,
            touching: Some(enemy),
            rebirth: false,
        })
    }

    /// "Place this model within `inches`": its player picks the point, if
    /// it still stands on the table.
    fn offer_place(
        &mut self,
        action: &ActionInProgress,
        model: ModelId,
        inches: u8,
    ) -> Result<(), RuleError> {
        if self.state.model(model).is_none_or(|m| !m.on_table()) {
            return Ok(());
        }
        let seat = self.decider(action)?;
        self.push_check()?;
        self.emit(Event::PlaceOffered {
            seat,
            model,
            inches,
            touching: None,
            rebirth: false,
        })
    }

    /// The player's point for a `place` frame: within range of where the
    /// model stood, half supported, clear of models and impassable terrain.
    pub(super) fn place_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Place {
            seat,
            model,
            inches,
            touching,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::Place { at } = command else {
            return refuse("choose where the model is placed first");
        };
        let from = self
            .state
            .model(model)
            .and_then(|m| m.placement)
            .ok_or(RuleError::NothingPending)?;
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let placed = match touching {
            Some(other) => movement::place_touching(&board, model.object(), *at, other.object()),
            None => movement::place(&board, model.object(), *at, Some(inches.into()), false),
        }
        .map_err(|e| RuleError::not_allowed(e.to_string()))?;
        self.emit(Event::ModelPlaced {
            model,
            from,
            to: Placement {
                at: *at,
                z: placed.end.z,
            },
            hazards: placed.hazards,
        })
    }

    /// The player's pick for a `choose_model` frame, and its effect.
    pub(super) fn choose_model_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::ChooseModel {
            seat,
            options,
            then,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        if *command == PlayerCommand::DeclineChoice && then.optional() {
            return self.emit(Event::ChoiceDeclined { seat });
        }
        let PlayerCommand::ChooseModel { model } = command else {
            return refuse(if then.optional() {
                "choose a model first, or decline (decline_choice)"
            } else {
                "choose a model first"
            });
        };
        if !options.contains(model) {
            return refuse(format!(
                "{} is not one of the models offered",
                self.model_name(*model)
            ));
        }
        self.emit(Event::ModelChosen {
            seat,
            model: *model,
        })?;
        match then {
            crate::ability::ModelChoice::Heal { amount } => self.heal(*model, amount),
            crate::ability::ModelChoice::PounceOn => {
                let action = self
                    .state
                    .action_in_progress()
                    .cloned()
                    .ok_or(RuleError::NothingPending)?;
                self.pounce_on(&action, *model)
            }
            crate::ability::ModelChoice::GainExplosives { from, count } => {
                self.emit(Event::ExplosivesGained {
                    model: *model,
                    count,
                    from: Some(from),
                })
            }
        }
    }

    /// The player's pick for a `choose_marker` frame, and its effect.
    pub(super) fn choose_marker_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::ChooseMarker {
            seat,
            options,
            then,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        if *command == PlayerCommand::DeclineChoice && then.optional() {
            return self.emit(Event::ChoiceDeclined { seat });
        }
        let PlayerCommand::ChooseMarker { marker } = command else {
            return refuse(if then.optional() {
                "choose a marker first, or decline (decline_choice)"
            } else {
                "choose a marker first"
            });
        };
        if !options.contains(marker) {
            return refuse("that marker is not one of those offered");
        }
        self.emit(Event::MarkerChosen {
            seat,
            marker: *marker,
        })?;
        match then {
            crate::ability::MarkerChoice::Neutralise => self.emit(Event::MarkerClaimed {
                marker: *marker,
                owner: None,
            }),
        }
    }

    /// The cards a Resupply-like effect draws from the discard pile.
    pub(super) fn draw_from_discard_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::DrawFromDiscard {
            seat,
            up_to,
            max_value,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::DrawFromDiscard { cards } = command else {
            return refuse(format!(
                "choose up to {up_to} cards of value 1 to {max_value} from your discard pile (or none)"
            ));
        };
        if cards.len() > usize::from(up_to) {
            return refuse(format!("draw at most {up_to} cards"));
        }
        let discard = self.state.player(seat).discard.as_slice();
        for (i, card) in cards.iter().enumerate() {
            if cards[..i].contains(card) {
                return refuse(format!("{card} is named twice"));
            }
            if !discard.contains(card) {
                return refuse(format!("{card} is not in your discard pile"));
            }
            if !drawable_from_discard(*card, max_value) {
                return refuse(format!("{card} is not of value 1 to {max_value}"));
            }
        }
        self.emit(Event::DrewFromDiscard {
            seat,
            cards: cards.clone(),
        })
    }

    /// Attaches the upgrade face `upgrade` to `model` if its limitations
    /// allow: a Restricted upgrade only to a model of that name or keyword,
    /// never a second copy to one model (discarded without effect), and no
    /// more copies in the crew than Plentiful allows (one by default; the
    /// two faces of a double-sided card are one upgrade). An action an
    /// enemy crew controls attaches none (Control).
    fn attach_upgrade(
        &mut self,
        model: ModelId,
        upgrade: &str,
        by: &ActionInProgress,
    ) -> Result<(), RuleError> {
        let Some(m) = self.state.model(model).filter(|m| m.in_play()) else {
            return Ok(());
        };
        let enemy_controlled = by
            .controller
            .is_some_and(|crew| Some(crew) != self.state.model(by.actor).map(|a| a.owner));
        let Some(card) = self
            .state
            .upgrade_cards
            .iter()
            .find(|c| c.face(upgrade).is_some())
        else {
            return Err(RuleError::invalid(format!(
                "there is no upgrade called {upgrade} in this game"
            )));
        };
        let faces = |held: &crate::model::Model| {
            held.upgrades
                .iter()
                .filter(|u| card.face(u).is_some())
                .count()
        };
        let held_by_crew: usize = self
            .state
            .models
            .iter()
            .filter(|other| other.owner == m.owner && other.in_play())
            .map(|other| faces(other))
            .sum();
        let limit = usize::from(card.plentiful.unwrap_or(1));
        let reason = if enemy_controlled {
            Some("an action under an enemy's control attaches no upgrade".to_string())
        } else if let Some(needed) = card.unmet_restriction(&m.card) {
            Some(format!("it is restricted to {needed}"))
        } else if faces(m) > 0 {
            Some(format!("{} already has {}", m.name(), card.name()))
        } else if held_by_crew >= limit {
            Some(format!(
                "the crew already has {held_by_crew} of {} (at most {limit})",
                card.name()
            ))
        } else {
            None
        };
        match reason {
            Some(reason) => self.emit(Event::UpgradeNotAttached {
                model,
                upgrade: upgrade.to_string(),
                reason,
            }),
            None => self.emit(Event::UpgradeAttached {
                model,
                upgrade: upgrade.to_string(),
            }),
        }
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
        let pushed = movement::push_away_from(&board, model.object(), from.object(), inches)
            .map_err(|e| RuleError::invalid(e.to_string()))?;
        // Pushed off the edge of terrain, it falls.
        let (end, fall) = movement::settle(&board, model.object(), pushed)
            .map_err(|e| RuleError::invalid(e.to_string()))?;
        let to = Placement {
            at: crate::table::Point { x: end.x, y: end.y },
            z: end.z,
        };
        if to == start {
            return Ok(());
        }
        let hazards = movement::hazards_along(&board, model.object(), end)
            .map_err(|e| RuleError::invalid(e.to_string()))?;
        let in_action = self
            .state
            .frames
            .iter()
            .any(|f| matches!(f, Frame::Action { .. }));
        self.emit(Event::ModelPushed {
            model,
            from: start,
            to,
            hazards: hazards.clone(),
        })?;
        // The model that caused a fall deals its damage, irreducible.
        if let Some(fall) = fall.filter(|f| f.damage > 0) {
            let pusher = self.model_owner(from)?;
            self.queue(DamageInstance {
                credit: Some(from),
                attacker: Some(pusher),
                ..DamageInstance::fixed(model, "falling".into(), fall.damage, true, self.batch())
            })?;
        }
        // Outside an action (an ability of the start phase, say) the
        // push's hazards are suffered as soon as the effect is done.
        if !in_action && !hazards.is_empty() {
            self.suffer_pushed_hazards(model, hazards)?;
        }
        Ok(())
    }
}

/// Points where `model` may be placed in base contact with `onto`, tried
/// at `CONTACT_BEARINGS` around it (to offer only enemies it can reach,
/// and for bots).
pub(crate) fn pounce_spots(state: &GameState, model: ModelId, onto: ModelId) -> Vec<Point> {
    let (Some(me), Some(body)) = (state.model(model), state.model(onto).and_then(Model::body))
    else {
        return Vec::new();
    };
    let table = state.table();
    let board = Board::new(&table, state.edition);
    crate::table::contact_points(&body, me.card.base, super::summon::CONTACT_BEARINGS)
        .filter(|at| movement::place_touching(&board, model.object(), *at, onto.object()).is_ok())
        .collect()
}

/// Whether a card of the discard pile may be drawn by an effect allowing
/// values 1 to `max_value` (the jokers' 0 and 14 never are).
pub(crate) fn drawable_from_discard(card: crate::fate::Card, max_value: u8) -> bool {
    (1..=max_value).contains(&card.value())
}

mod facts;
pub(crate) use facts::{apply_action_facts, apply_choice_facts};
