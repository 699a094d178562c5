//! The activation phase: passing, activating a model, chain activations,
//! and each model's action limits.

use super::*;

/// Whether `seat` may not pass because passing takes a pass token (3rd
/// edition) and it has none left.
pub(crate) fn out_of_pass_tokens(state: &GameState, encounter: &Encounter, seat: Seat) -> bool {
    state.edition.rules().encounter.passing == PassingRule::PassTokens
        && encounter.pass_tokens[seat.index()] == 0
}

/// The refusal of any action past the model's action limit.
const LIMIT_REACHED: &str = "the model has reached its action limit";

/// Why a card action's limits refuse it (worded by
/// [`Sim::card_action_slot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SlotRefused {
    NotInEncounter,
    NoSuchAction,
    OnceUsed(crate::model::OncePer),
    NotSignature,
    SignatureUsed,
    BonusUsed,
    LimitReached,
}

impl Sim<'_> {
    /// `seat`'s models that may still activate this turn.
    pub(crate) fn unactivated(state: &GameState, seat: Seat) -> usize {
        let Some(encounter) = state.encounter.as_deref() else {
            return 0;
        };
        state
            .models
            .iter()
            .filter(|m| m.owner == seat && m.on_table())
            .filter(|m| !encounter.activated.contains(&m.id))
            .count()
    }

    /// The acting model's action limit now.
    pub(crate) fn action_limit(state: &GameState, model: ModelId) -> u8 {
        let (Some(m), Some(encounter)) = (state.model(model), state.encounter.as_deref()) else {
            return 0;
        };
        let owner = m.owner.index();
        let base: i8 = match state.edition.rules().encounter.action_limits {
            ActionLimits::BySizeAndStation => {
                let leader = encounter.assumed_leadership[owner] == Some(model);
                if m.card.peon {
                    1
                } else if (m.card.master && encounter.setup.size >= 50) || leader {
                    3
                } else {
                    2
                }
            }
            ActionLimits::LeadersAndMasters => {
                if m.card.master || encounter.leaders[owner] == Some(model) {
                    3
                } else {
                    2
                }
            }
        };
        let changed = base + state.tokens.action_limit_change(&m.tokens);
        // Fast raises it to three at most, Slow lowers it to one at least.
        changed.clamp(1, 3) as u8
    }

    /// Step D of the activation phase and the phase's end.
    pub(super) fn advance_activations(&mut self) -> Result<bool, RuleError> {
        let encounter = self.encounter()?;
        // A chain activation on offer waits for its crew's answer.
        if encounter.chain_offer.is_some() {
            return Ok(false);
        }
        let active = encounter.active;
        let transfer = encounter.transfer_due;
        let mine = Self::unactivated(&self.state, active);
        // The usual case after an activation's step: the active crew goes on.
        if !transfer && mine > 0 {
            return Ok(false);
        }
        let theirs = Self::unactivated(&self.state, active.other());
        if mine == 0 && theirs == 0 {
            self.step_to(Step::EndEffects)?;
            let first = self.encounter()?.initiative;
            self.end_phase(first)?;
            return Ok(true);
        }
        let next = if transfer && theirs == 0 {
            active
        } else {
            active.other()
        };
        self.emit(Event::ActivePlayer { seat: next })?;
        Ok(true)
    }

    /// The chain activation offered to `seat`, or why there is none.
    pub(super) fn chain_offer_for(
        &self,
        seat: Seat,
        encounter: &Encounter,
    ) -> Result<crate::encounter::ChainOffer, RuleError> {
        match &encounter.chain_offer {
            Some(offer) => {
                Self::require_seat(seat, offer.seat)?;
                Ok(offer.clone())
            }
            None => refuse("no chain activation is offered"),
        }
    }

    /// What the acting model does inside its activation.
    pub(super) fn activation_command(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Activation { model, .. }) = self.state.frame() else {
            return Err(RuleError::NothingPending);
        };
        let actor = *model;
        Self::require_seat(seat, self.model_owner(actor)?)?;
        match command {
            PlayerCommand::FinishActivation => self.end_activation(),
            PlayerCommand::TakeAction {
                action,
                target,
                signature,
            } => {
                let slot = Self::card_action_slot(&self.state, actor, action, *signature)?;
                let request = crate::action::ActionRequest::own(actor, action, *target);
                self.take_action(&request, slot)
            }
            PlayerCommand::Walk { path, land_at } => {
                let slot = Self::normal_slot(&self.state, actor)?;
                self.move_model(actor, path, *land_at, MoveKind::Walk, slot, None)
            }
            PlayerCommand::Charge { to, land_at } => {
                if self.encounter()?.activation.charged {
                    return refuse("Charge is once per activation");
                }
                let slot = Self::normal_slot(&self.state, actor)?;
                self.move_model(actor, &[*to], *land_at, MoveKind::Charge, slot, None)
            }
            PlayerCommand::Interact { .. }
            | PlayerCommand::Prepare { .. }
            | PlayerCommand::Slam { .. }
            | PlayerCommand::SlamTerrain { .. }
            | PlayerCommand::Concentrate
            | PlayerCommand::Disengage
            | PlayerCommand::Assist { .. } => {
                let slot = Self::normal_slot(&self.state, actor)?;
                self.general_action(seat, actor, command, slot, None)
            }
            _ => refuse("the acting model takes an action or ends its activation"),
        }
    }

    /// What a card action would use of the limit, or why it may not be taken.
    pub(crate) fn card_action_slot(
        state: &GameState,
        actor: ModelId,
        action: &str,
        signature: bool,
    ) -> Result<ActionSlot, RuleError> {
        Self::card_action_limits(state, actor, action, signature).map_err(|refusal| {
            let name = state.model(actor).map_or("the model", |m| m.name());
            match refusal {
                SlotRefused::NotInEncounter => RuleError::NothingPending,
                SlotRefused::NoSuchAction => {
                    RuleError::not_allowed(format!("{name} has no action {action}"))
                }
                SlotRefused::OnceUsed(per) => {
                    let per = match per {
                        crate::model::OncePer::Activation => "activation",
                        crate::model::OncePer::Turn => "turn",
                        crate::model::OncePer::Game => "game",
                    };
                    RuleError::not_allowed(format!(
                        "{action} is once per {per}, and it has been taken"
                    ))
                }
                SlotRefused::NotSignature => {
                    RuleError::not_allowed(format!("{action} is not a signature action of {name}"))
                }
                SlotRefused::SignatureUsed => {
                    RuleError::not_allowed("the signature action of this activation is used")
                }
                SlotRefused::BonusUsed => {
                    RuleError::not_allowed("a model takes one bonus action per activation")
                }
                SlotRefused::LimitReached => RuleError::not_allowed(LIMIT_REACHED),
            }
        })
    }

    /// The limits' side of [`Sim::card_action_slot`], without words: the
    /// options ask it of every action at every step.
    pub(crate) fn card_action_limits(
        state: &GameState,
        actor: ModelId,
        action: &str,
        signature: bool,
    ) -> Result<ActionSlot, SlotRefused> {
        let (Some(encounter), Some(m)) = (state.encounter.as_deref(), state.model(actor)) else {
            return Err(SlotRefused::NotInEncounter);
        };
        let Some(card) = m.card.actions.iter().find(|a| *a.name == *action) else {
            return Err(SlotRefused::NoSuchAction);
        };
        Self::card_action_limits_of(state, encounter, m, card, signature, || {
            Self::normal_limits(state, actor)
        })
    }

    /// [`Self::card_action_limits`] for a card action already found, with
    /// the limit of the model's normal actions asked of `normal` (the
    /// option list works it out once for all the model's actions).
    pub(crate) fn card_action_limits_of(
        state: &GameState,
        encounter: &crate::encounter::Encounter,
        m: &crate::model::Model,
        card: &crate::model::ActionCard,
        signature: bool,
        normal: impl FnOnce() -> Result<ActionSlot, SlotRefused>,
    ) -> Result<ActionSlot, SlotRefused> {
        if let Some(per) = encounter.once_used_by(m.id, &card.name) {
            return Err(SlotRefused::OnceUsed(per));
        }
        let used = encounter.activation;
        if signature {
            if !card.signature || m.card.peon {
                return Err(SlotRefused::NotSignature);
            }
            if used.signature {
                return Err(SlotRefused::SignatureUsed);
            }
            return Ok(ActionSlot::Signature);
        }
        if used.free_melee && card.kind == crate::duel::ActionKind::Melee {
            return Ok(ActionSlot::Free);
        }
        if card.bonus {
            // 3rd edition Stunned: a bonus action takes one of the limit.
            if state.tokens.bonus_actions_count(&m.tokens) {
                return normal();
            }
            if used.bonus {
                return Err(SlotRefused::BonusUsed);
            }
            return Ok(ActionSlot::Bonus);
        }
        normal()
    }

    /// One of the model's actions (general actions always take one: they
    /// are never signature actions).
    pub(crate) fn normal_slot(state: &GameState, actor: ModelId) -> Result<ActionSlot, RuleError> {
        Self::normal_limits(state, actor).map_err(|refusal| match refusal {
            SlotRefused::NotInEncounter => RuleError::NothingPending,
            _ => RuleError::not_allowed(LIMIT_REACHED),
        })
    }

    /// [`Sim::normal_slot`] without words.
    pub(crate) fn normal_limits(
        state: &GameState,
        actor: ModelId,
    ) -> Result<ActionSlot, SlotRefused> {
        let used = state
            .encounter
            .as_deref()
            .ok_or(SlotRefused::NotInEncounter)?
            .activation;
        if used.actions >= Self::action_limit(state, actor) {
            return Err(SlotRefused::LimitReached);
        }
        Ok(ActionSlot::Normal)
    }

    /// Inside an activation with nothing resolving: ends it once the model
    /// can do nothing more (killed, or every action used).
    pub(in crate::procedure) fn advance_in_activation(&mut self) -> Result<bool, RuleError> {
        let Some(Frame::Activation { model, .. }) = self.state.frame() else {
            return Ok(false);
        };
        let model = *model;
        if self.state.encounter.is_none() {
            return Ok(false);
        }
        let Some(m) = self.state.model(model) else {
            return Ok(false);
        };
        let used = self.encounter()?.activation;
        let spent = used.actions >= Self::action_limit(&self.state, model);
        let signature_left =
            !used.signature && !m.card.peon && m.card.actions.iter().any(|a| a.signature);
        let bonus_left = !used.bonus && m.card.actions.iter().any(|a| a.bonus);
        if !m.in_play() || (spent && !signature_left && !bonus_left && !used.free_melee) {
            self.end_activation()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A command of the activation phase: passing, activating a model, a chain
    /// activation, or (inside an activation) its actions.
    pub(super) fn activation_phase_command(
        &mut self,
        seat: Seat,
        encounter: &Encounter,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let in_activation = matches!(self.state.frame(), Some(Frame::Activation { .. }));
        let step = encounter.step;
        match (step, command) {
            (Step::Activations, PlayerCommand::Pass)
                if !in_activation && self.encounter_rules().passing == PassingRule::PassTokens =>
            {
                self.require_active(seat, encounter)?;
                if out_of_pass_tokens(&self.state, encounter, seat) {
                    return refuse("you pass only by discarding a pass token, and you have none");
                }
                self.emit(Event::Passed {
                    seat,
                    with_token: true,
                })
            }
            (Step::Activations, PlayerCommand::Pass) if !in_activation => {
                self.require_active(seat, encounter)?;
                if encounter.last_passed {
                    return refuse("the previous activation was passed: activate a model");
                }
                if Self::unactivated(&self.state, seat)
                    > Self::unactivated(&self.state, seat.other())
                {
                    return refuse(
                        "you may pass only with as many models left to activate as your opponent, or fewer",
                    );
                }
                self.emit(Event::Passed {
                    seat,
                    with_token: false,
                })
            }
            (Step::Activations, PlayerCommand::ChainActivate { model }) if !in_activation => {
                let offer = self.chain_offer_for(seat, encounter)?;
                if !offer.models.contains(model) {
                    return refuse(format!(
                        "the chain activation is offered to model(s) {}, not {}",
                        offer
                            .models
                            .iter()
                            .map(|m| m.0.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        model.0
                    ));
                }
                self.emit(Event::ChainActivationTaken { model: *model })?;
                self.start_activation(*model)
            }
            (Step::Activations, PlayerCommand::DeclineChainActivation) if !in_activation => {
                self.chain_offer_for(seat, encounter)?;
                self.emit(Event::ChainActivationDeclined { seat })
            }
            (Step::Activations, PlayerCommand::Activate { model }) if !in_activation => {
                self.require_active(seat, encounter)?;
                let m = self
                    .state
                    .model(*model)
                    .ok_or_else(|| RuleError::invalid(format!("there is no model {}", model.0)))?;
                if m.owner != seat {
                    return refuse(format!("{} is not yours", m.name()));
                }
                if !m.on_table() {
                    return refuse(format!("{} is not on the table", m.name()));
                }
                if encounter.activated.contains(model) {
                    return refuse(format!("{} has already activated this turn", m.name()));
                }
                self.start_activation(*model)
            }
            (Step::Activations, _) if in_activation => self.activation_command(seat, command),
            _ => wrong_step(step),
        }
    }
}
