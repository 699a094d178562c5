//! The action procedure: a model's action from its declaration to its end.
//! Its duel, the damage the duel deals (and any model that damage kills)
//! and the action's after-succeeding effects, such as a push, all happen
//! inside it, as frames above it on the stack.
//!
//! - `queue`: actions an effect generates, waiting for their names,
//!   targets and paths.
//! - `choices`: the frames an action opens to ask a player (a model or
//!   marker to choose, a place, a pounce, a kill's payment, cards from the
//!   discard).
//! - `hazards`: hazardous terrain suffered by a moving model.
//! - `facts`: how the action's facts and its frames' facts apply.

use super::*;
use crate::action::{ActionRequest, Declaration, declaration, duel_for};
use crate::duel::TriggerEffect;
use crate::model::{ActionEffect, Model, Placement, UpgradeHolder};
use crate::state::{ActionInProgress, QueuedAction};
use crate::table::{Board, Point, movement};

mod choices;
mod facts;
mod hazards;
mod queue;
pub(crate) use choices::{drawable_from_discard, pounce_spots};
pub(crate) use facts::{apply_action_facts, apply_choice_facts};

impl Sim<'_> {
    /// Declares an action once the rules allow it (the duel it calls for
    /// is worked out first, so a refused action changes nothing) and starts
    /// its duel inside it.
    pub(super) fn take_action(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
    ) -> Result<(), RuleError> {
        self.take_action_with(request, slot, true)
    }

    /// Declares the additional action `queued` stood for: as any other,
    /// except that in 3rd edition one a trigger generated declares no
    /// triggers.
    pub(super) fn take_generated_action(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
        queued: &crate::state::QueuedAction,
    ) -> Result<(), RuleError> {
        let may_declare_triggers = !queued.by_trigger
            || self
                .state
                .edition
                .rules()
                .actions
                .generated_by_trigger_declares_triggers;
        self.take_action_with(request, slot, may_declare_triggers)
    }

    fn take_action_with(
        &mut self,
        request: &ActionRequest,
        slot: crate::event::ActionSlot,
        may_declare_triggers: bool,
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
        if !may_declare_triggers {
            spec.triggers.clear();
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
        let success = action.name == GeneralAction::Disengage.name()
            || self.state.last_outcome.is_some_and(|o| o.success);
        let effects = success
            && action.name != GeneralAction::Disengage.name()
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

    /// Whether the model is engaged on the table.
    pub(super) fn engaged(&self, model: ModelId) -> bool {
        self.engaged_ignoring(model, None)
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
