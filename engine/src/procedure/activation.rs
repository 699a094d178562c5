//! A model's activation and the end phase. The activation: its start
//! (once-per-activation limits start again, start-of-activation tokens and
//! abilities), the actions the game flow takes for it inside, and its end
//! (end-of-activation tokens, such as a token that lasts until then, and
//! abilities).

use super::*;

impl Sim<'_> {
    pub(super) fn start_activation(&mut self, model: ModelId) -> Result<(), RuleError> {
        if self.state.frame().is_some() {
            return refuse("another model's activation is in progress: end it first");
        }
        let owner = self
            .state
            .model(model)
            .filter(|m| m.in_play())
            .map(|m| m.owner)
            .ok_or_else(|| RuleError::invalid(format!("model {} is not in play", model.0)))?;
        self.push_check()?;
        self.emit(Event::ActivationStarted { model })?;
        self.own_window(
            model,
            owner,
            (Window::ActivationStarted, AbilityWindow::ActivationStarted),
            None,
        )
    }

    /// A window of the model alone: its tokens, then its abilities (which
    /// its owner orders), then `then`.
    fn own_window(
        &mut self,
        model: ModelId,
        owner: Seat,
        (tokens, abilities): (Window, AbilityWindow),
        then: Option<AfterAbilities>,
    ) -> Result<(), RuleError> {
        let batch = self.batch();
        self.token_window(model, tokens, batch)?;
        let fired = self.fired(model, abilities, Situation::default(), None);
        self.resolve_batch(fired, owner, then)
    }

    /// The end phase: each model's tokens, then every model's end-phase
    /// abilities as one batch, `first`'s models first.
    pub(super) fn end_phase(&mut self, first: Seat) -> Result<(), RuleError> {
        if self.state.frame().is_some() {
            return refuse("the end phase comes after every activation has ended");
        }
        let mut order: Vec<(bool, ModelId)> = self
            .state
            .models
            .iter()
            .filter(|m| m.in_play())
            .map(|m| (m.owner != first, m.id))
            .collect();
        order.sort();
        self.emit(Event::EndPhaseStarted { first })?;
        // Damage the tokens deal now is dealt at once: one batch.
        let batch = self.batch();
        let mut fired = Vec::new();
        for (_, model) in order {
            self.token_window(model, Window::EndPhase, batch)?;
            fired.extend(self.fired(model, AbilityWindow::EndPhase, Situation::default(), None));
        }
        self.resolve_batch(fired, first, None)
    }

    /// Opens a window outside a duel for `model`'s tokens, including the
    /// damage they deal.
    fn token_window(
        &mut self,
        model: ModelId,
        window: Window,
        batch: u32,
    ) -> Result<(), RuleError> {
        // The model as the window found it: who applied each token, and
        // its value, before the window may remove it.
        let Some(before) = self.state.shared_model(model) else {
            return Ok(());
        };
        for (token, effect) in self.open_window(model, None, window, Situation::default())? {
            if let Effect::SufferDamage {
                amount,
                irreducible,
                touching_enemies,
                plus_one_per,
            } = effect
            {
                let extra = match plus_one_per {
                    0 => 0,
                    per => before.tokens.value(token).saturating_sub(1) / per,
                };
                let amount = amount.saturating_add(extra);
                let owner = self.model_owner(model)?;
                let mut victims = vec![model];
                // The crew that gave the token gets the kill, but no model
                // does (who killed whom, 3); with `touching_enemies`, models
                // in base contact that are its enemies (all of them, for a
                // token from no crew) suffer it too.
                let applier = before.token_applier(token);
                if touching_enemies {
                    victims.extend(self.touching_enemies_of(model, applier));
                }
                for victim in victims {
                    self.queue(DamageInstance {
                        attacker: Some(owner),
                        credit_crew: applier,
                        from_ability: true,
                        ..DamageInstance::fixed(
                            victim,
                            self.token_name(token),
                            amount,
                            irreducible,
                            batch,
                        )
                    })?;
                }
            }
        }
        Ok(())
    }

    /// The models in base contact with `model`, other than it, that are
    /// enemies of `crew` (every one, when no crew applied the effect).
    fn touching_enemies_of(&self, model: ModelId, crew: Option<Seat>) -> Vec<ModelId> {
        let Some(holder) = self.state.model(model).and_then(|m| m.body()) else {
            return Vec::new();
        };
        self.state
            .models
            .iter()
            .filter(|m| m.id != model && m.in_play())
            .filter(|m| crew.is_none_or(|crew| m.owner != crew))
            .filter(|m| {
                m.body()
                    .is_some_and(|b| crate::table::measure::base_contact(&holder, &b))
            })
            .map(|m| m.id)
            .collect()
    }

    /// The models a chain activation may go to: selected, friendly, on the
    /// table and not yet activated this turn; none once the crew has
    /// activated `MAX_IN_A_ROW` models in a row.
    pub(super) fn chain_candidates(
        &self,
        to: &crate::ability::Selector,
        model: ModelId,
        other: Option<ModelId>,
        owner: Seat,
    ) -> Vec<ModelId> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Vec::new();
        };
        if encounter.in_a_row >= crate::encounter::MAX_IN_A_ROW {
            return Vec::new();
        }
        self.selected(to, model, other)
            .into_iter()
            .filter(|id| *id != model && !encounter.activated.contains(id))
            .filter(|id| {
                self.state
                    .model(*id)
                    .is_some_and(|m| m.owner == owner && m.on_table())
            })
            .collect()
    }

    pub(super) fn end_activation(&mut self) -> Result<(), RuleError> {
        let Some(Frame::Activation { model, .. }) = self.state.frame() else {
            return refuse("no activation is in progress");
        };
        let model = *model;
        let owner = self.model_owner(model)?;
        self.own_window(
            model,
            owner,
            (Window::ActivationEnded, AbilityWindow::ActivationEnded),
            Some(AfterAbilities::EndActivation { model }),
        )
    }
}

/// An activation's start and end.
pub(crate) fn apply_activation_facts(state: &mut GameState, event: &Event) {
    match event {
        Event::ActivationStarted { model } => {
            // Once-per-activation limits hold during each activation, any
            // model's.
            if state.models.iter().any(|m| !m.reductions_used.is_empty()) {
                for m in state.models_mut() {
                    if !m.reductions_used.is_empty() {
                        Arc::make_mut(m).reductions_used.clear();
                    }
                }
            }
            state.frames.push(Frame::Activation {
                model: *model,
                hazards: Vec::new(),
            });
            let owner = state.model(*model).map(|m| m.owner);
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                encounter.activated.push(*model);
                encounter.in_a_row = encounter.in_a_row.saturating_add(1);
                encounter.last_activated_by = owner;
                encounter.last_passed = false;
                encounter.activation = Default::default();
            }
        }
        Event::ActivationEnded { model } => {
            state.pop_frame(|f| matches!(f, Frame::Activation { .. }));
            // Those it damaged and left at half health or less, in play.
            let left: Vec<ModelId> = state
                .encounter
                .as_deref()
                .map(|e| e.damaged_this_activation.clone())
                .unwrap_or_default()
                .into_iter()
                .filter(|id| {
                    state.model(*id).is_some_and(|m| {
                        m.in_play() && u32::from(m.health) * 2 <= u32::from(m.card.max_health)
                    })
                })
                .collect();
            if let Some(encounter) = state.encounter.as_mut().map(Arc::make_mut) {
                let turn = encounter.turn;
                encounter.damaged_this_activation.clear();
                encounter
                    .left_at_half_health
                    .extend(
                        left.into_iter()
                            .map(|target| crate::encounter::DamagedInActivation {
                                by: *model,
                                target,
                                turn,
                            }),
                    );
                encounter.transfer_due = true;
                // Step C-5: once-per-activation effects may be used again.
                encounter
                    .once_used
                    .retain(|(_, _, per)| *per != crate::model::OncePer::Activation);
                encounter
                    .abilities_used
                    .retain(|(_, _, per)| *per != crate::model::OncePer::Activation);
            }
        }
        _ => {}
    }
}
