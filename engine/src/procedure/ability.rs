//! Abilities firing: at a window, every ability of the model that acts
//! there and whose condition holds fires. Damage added or reduced is worked
//! into the damage at once; everything else resolves as a batch, in the
//! order the rules for simultaneous effects give: the active player picks
//! one of their models and orders its abilities, then their next model,
//! then the other player. A player with a real choice is asked (the
//! `Abilities` frame); otherwise the batch resolves at once.

use super::*;
use crate::ability::{AbilityBatch, AfterAbilities, FiredAbility, Selector, SideFilter};
use crate::table::measure::{base_contact, within_card_range};
use crate::table::{Board, ObjectId, Target};

/// An effect the procedure that opened the window applies itself (damage
/// added or reduced), with the ability's name.
pub(super) type Returned = (Arc<str>, AbilityEffect);

impl Sim<'_> {
    /// The abilities of `model` that fire at `window` in `situation`, in
    /// the order its card lists them. `other` is the other model of the
    /// moment (`Selector::OtherModel`).
    pub(super) fn fired(
        &self,
        model: ModelId,
        window: AbilityWindow,
        situation: Situation,
        other: Option<ModelId>,
    ) -> Vec<FiredAbility> {
        let Some(m) = self.state.model(model) else {
            return Vec::new();
        };
        m.card
            .abilities
            .iter()
            .enumerate()
            .filter(|(_, a)| a.window == window && a.when.holds(situation))
            .filter(|(index, a)| a.once_per.is_none() || !self.ability_spent(model, *index))
            .filter(|(_, a)| {
                a.once_per != Some(crate::model::OncePer::Activation)
                    || !self.once_per_activation_closed()
            })
            .map(|(index, _)| FiredAbility {
                model,
                index: u8::try_from(index).unwrap_or(u8::MAX),
                other,
            })
            .collect()
    }

    /// "Discard cards or gain a token" for `model`: the options it can
    /// resolve; a choice for its controller only when both remain.
    fn offer_either(&mut self, model: ModelId, count: u8, token: Token) -> Result<(), RuleError> {
        use crate::ability::EitherOption;
        let Some(m) = self.state.model(model).filter(|m| m.in_play()) else {
            return Ok(());
        };
        let seat = m.owner;
        let can_discard = count > 0 && self.state.player(seat).hand.len() >= usize::from(count);
        let can_gain = self.book().contains(token)
            && self.rules().duel.gain(self.book(), &m.tokens, token, 1) != TokenGain::Nothing;
        let discard = EitherOption::Discard { count };
        let gain = EitherOption::GainToken { token };
        match (can_discard, can_gain) {
            (true, true) => {
                self.push_check()?;
                self.emit(Event::EitherOffered {
                    seat,
                    model,
                    options: [discard, gain],
                })
            }
            (true, false) => self.resolve_either(seat, model, discard),
            (false, true) => self.resolve_either(seat, model, gain),
            (false, false) => Ok(()),
        }
    }

    /// The option of a "this or that" choice happens.
    pub(super) fn resolve_either(
        &mut self,
        seat: Seat,
        model: ModelId,
        option: crate::ability::EitherOption,
    ) -> Result<(), RuleError> {
        use crate::ability::EitherOption;
        match option {
            EitherOption::Discard { count } => {
                self.push_check()?;
                self.emit(Event::DiscardRequired { seat, count })
            }
            // The choice's frame does not keep whose ability offered it: a
            // token gained this way counts as from no crew.
            EitherOption::GainToken { token } => self.gain_token(model, token, 1, None),
        }
    }

    /// The controller's answer to a "this or that" choice.
    pub(super) fn either_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Either {
            seat,
            model,
            options,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::ChooseEither { first } = command else {
            return refuse("choose one of the two options first");
        };
        let option = if *first { options[0] } else { options[1] };
        self.emit(Event::EitherChosen {
            seat,
            model,
            option,
        })?;
        self.resolve_either(seat, model, option)
    }

    /// Whether "once per activation" effects are out of use now: in an
    /// encounter of an edition that keeps them to activations, while no
    /// model is activating (the start and end phases).
    pub(super) fn once_per_activation_closed(&self) -> bool {
        self.rules().actions.once_per_activation_only_inside_one
            && self.state.encounter.is_some()
            && self.state.acting_model().is_none()
    }

    /// Whether the model has used this "once per" ability within its limit.
    fn ability_spent(&self, model: ModelId, index: usize) -> bool {
        self.state.encounter.as_deref().is_some_and(|e| {
            e.abilities_used
                .iter()
                .any(|(m, i, _)| *m == model && usize::from(*i) == index)
        })
    }

    /// The damage the fired abilities add or take away (applied by the
    /// caller now, whatever order the rest resolves in).
    pub(super) fn damage_changes(&self, fired: &[FiredAbility]) -> Vec<Returned> {
        fired
            .iter()
            .filter_map(|f| {
                let ability = self
                    .state
                    .model(f.model)?
                    .card
                    .abilities
                    .get(usize::from(f.index))?;
                Some((ability, Arc::<str>::from(ability.name.as_str())))
            })
            .flat_map(|(ability, name)| {
                ability
                    .effects
                    .iter()
                    .filter(|e| {
                        matches!(
                            e,
                            AbilityEffect::AddDamage { .. } | AbilityEffect::ReduceDamage { .. }
                        )
                    })
                    .map(move |e| (Arc::clone(&name), e.clone()))
            })
            .collect()
    }

    /// Resolves a batch: at once when nobody has a choice, otherwise it
    /// waits in an `Abilities` frame. `then` runs when the batch is done.
    pub(super) fn resolve_batch(
        &mut self,
        fired: Vec<FiredAbility>,
        first: Seat,
        then: Option<AfterAbilities>,
    ) -> Result<(), RuleError> {
        let batch = AbilityBatch {
            pending: fired,
            first,
            resolving: None,
            then,
        };
        if batch.pending.len() > 1
            && Seat::BOTH
                .iter()
                .any(|seat| self.choices(&batch, *seat) > 1)
        {
            self.push_check()?;
            return self.emit(Event::AbilitiesWaiting {
                batch: Box::new(batch),
            });
        }
        let mut ordered = batch.pending.clone();
        // Nobody chooses: the first player's abilities, then the other's,
        // each in card order.
        ordered.sort_by_key(|f| {
            (
                self.state.model(f.model).map(|m| m.owner) != Some(first),
                f.model,
                f.index,
            )
        });
        for fired in ordered {
            self.resolve_ability(fired)?;
        }
        self.after_abilities(then)
    }

    /// How many abilities `seat` could pick from at the start of `batch`.
    fn choices(&self, batch: &AbilityBatch, seat: Seat) -> usize {
        batch
            .pending
            .iter()
            .filter(|f| self.state.model(f.model).map(|m| m.owner) == Some(seat))
            .count()
    }

    /// Who picks the next ability of the batch on top of the stack, and
    /// from which.
    pub(super) fn ability_options(&self) -> Option<(Seat, Vec<FiredAbility>)> {
        let Some(Frame::Abilities { batch }) = self.state.frame() else {
            return None;
        };
        Some(batch_options(&self.state, batch))
    }

    /// `ResolveAbility`: the player picks the next ability of the batch.
    pub(super) fn ability_command(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some((chooser, options)) = self.ability_options() else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(seat, chooser)?;
        let PlayerCommand::ResolveAbility { model, name } = command else {
            return refuse("choose which ability resolves next");
        };
        let fired = options
            .into_iter()
            .find(|f| {
                f.model == *model
                    && self
                        .state
                        .ability(f.model, f.index)
                        .is_some_and(|a| a.name == *name)
            })
            .ok_or_else(|| {
                RuleError::not_allowed(format!(
                    "{name} of model {} is not an ability you can resolve now (a model's abilities resolve together, once one of them has)",
                    model.0
                ))
            })?;
        self.resolve_from_frame(fired)
    }

    /// Resolves the batch on top of the stack while its next ability is
    /// not a choice.
    pub(super) fn advance_abilities(&mut self) -> Result<bool, RuleError> {
        let Some((_, options)) = self.ability_options() else {
            return Ok(false);
        };
        match options[..] {
            [only] => {
                self.resolve_from_frame(only)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn resolve_from_frame(&mut self, fired: FiredAbility) -> Result<(), RuleError> {
        let then = match self.state.frame() {
            Some(Frame::Abilities { batch }) if batch.pending.len() == 1 => batch.then,
            _ => None,
        };
        // Resolving the last ability pops the frame (`apply`).
        self.resolve_ability(fired)?;
        self.after_abilities(then)
    }

    fn after_abilities(&mut self, then: Option<AfterAbilities>) -> Result<(), RuleError> {
        match then {
            None => Ok(()),
            Some(AfterAbilities::FinishKilling {
                model,
                credit,
                crew,
            }) => self.finish_killing(model, credit, crew),
            Some(AfterAbilities::EndActivation { model }) => {
                self.emit(Event::ActivationEnded { model })?;
                self.reveal_after_activation(None)
            }
        }
    }

    /// One ability resolves: the fact, then its effects in order (damage
    /// added or reduced was worked in when it fired).
    pub(super) fn resolve_ability(&mut self, fired: FiredAbility) -> Result<(), RuleError> {
        let FiredAbility {
            model,
            index,
            other,
        } = fired;
        let Some(m) = self.state.model(model) else {
            return Ok(());
        };
        let Some(ability) = m.card.abilities.get(usize::from(index)).cloned() else {
            return Ok(());
        };
        let owner = m.owner;
        let name: Arc<str> = Arc::from(ability.name.as_str());
        self.emit(Event::AbilityUsed {
            model,
            index,
            name: Arc::clone(&name),
        })?;
        for effect in &ability.effects {
            self.resolve_effect(effect, model, other, owner, &name)?;
        }
        Ok(())
    }

    /// One effect of ability `name` of `model` (owned by `owner`), with the
    /// other model it fired for, if any.
    fn resolve_effect(
        &mut self,
        effect: &AbilityEffect,
        model: ModelId,
        other: Option<ModelId>,
        owner: Seat,
        name: &Arc<str>,
    ) -> Result<(), RuleError> {
        match effect {
            // Applied where they act: damage being worked out, a stat
            // being read.
            AbilityEffect::AddDamage { .. }
            | AbilityEffect::ReduceDamage { .. }
            | AbilityEffect::ChangeStat { .. } => {}
            AbilityEffect::FateModifier { by, to } => {
                for id in self.selected(to, model, other) {
                    if let Some(role) = self.role_in_duel(id) {
                        self.emit(Event::ModifierAdded {
                            role,
                            amount: *by,
                            source: name.to_string().into(),
                        })?;
                    }
                }
            }
            AbilityEffect::ChangeRaiseValue { value } => {
                if self.state.duel().is_some() {
                    self.emit(Event::RaiseValueChanged {
                        value: (*value).max(1),
                    })?;
                }
            }
            AbilityEffect::GainToken { token, to } => {
                let crew = self.state.model(model).map(|m| m.owner);
                for id in self.selected(to, model, other) {
                    self.gain_token(id, *token, 1, crew)?;
                }
            }
            AbilityEffect::RemoveToken { token, to } => {
                for id in self.selected(to, model, other) {
                    self.remove_token(id, *token, 0)?;
                }
            }
            AbilityEffect::Heal { amount, to } => {
                for id in self.selected(to, model, other) {
                    self.heal(id, *amount)?;
                }
            }
            AbilityEffect::DealDamage {
                amount,
                to,
                irreducible,
            } => {
                // Dealt to every selected model at once: one batch,
                // whose order the damaged models' controllers choose.
                let batch = self.batch();
                for id in self.selected(to, model, other) {
                    self.queue(DamageInstance {
                        credit: Some(model),
                        attacker: Some(owner),
                        from_ability: true,
                        ..DamageInstance::fixed(id, name.to_string(), *amount, *irreducible, batch)
                    })?;
                }
            }
            AbilityEffect::Push { inches, to } => {
                for id in self.selected(to, model, other) {
                    if id != model {
                        self.push_away(id, model, *inches)?;
                    }
                }
            }
            AbilityEffect::MakeMarker { marker } => {
                let spot = self.state.model(model).and_then(|m| m.placement);
                if let Some(at) = spot {
                    self.emit(Event::MarkerMade {
                        marker: marker.clone(),
                        owner: Some(owner),
                        at,
                    })?;
                }
            }
            AbilityEffect::RemoveMarkers { marker, inches } => {
                for id in self.markers_within(model, marker, *inches) {
                    self.emit(Event::MarkerRemoved { id })?;
                }
            }
            AbilityEffect::DiscardCards { count, to } => {
                let seats: std::collections::BTreeSet<Seat> = self
                    .selected(to, model, other)
                    .iter()
                    .filter_map(|id| self.state.model(*id).map(|m| m.owner))
                    .collect();
                for seat in seats {
                    self.require_discard(seat, *count)?;
                }
            }
            AbilityEffect::DiscardOrGainToken { count, token, to } => {
                for id in self.selected(to, model, other) {
                    self.offer_either(id, *count, *token)?;
                }
            }
            AbilityEffect::DrawCards { count } => {
                for _ in 0..(*count).min(MAX_DRAW) {
                    self.draw(owner)?;
                }
            }
            AbilityEffect::InfuseSoulstone => {
                self.emit(Event::SoulstoneInfused { seat: owner })?;
            }
            AbilityEffect::GainVictoryPoints { amount } => {
                self.emit(Event::VictoryPointsGained {
                    seat: owner,
                    amount: *amount,
                    source: name.to_string(),
                })?;
            }
            AbilityEffect::OfferChainActivation { to } => {
                let models = self.chain_candidates(to, model, other, owner);
                if !models.is_empty() {
                    self.emit(Event::ChainActivationOffered {
                        seat: owner,
                        models,
                    })?;
                }
            }
            AbilityEffect::DrainSoulstone => {
                if self.state.player(owner).soulstones > 0 {
                    self.emit(Event::SoulstoneSpent {
                        seat: owner,
                        purpose: format!("ability {name}").into(),
                        role: None,
                    })?;
                }
            }
        }
        Ok(())
    }

    /// `seat` discards `count` cards (no more than it holds). The choice
    /// waits on top of the stack; the ability's other effects have resolved
    /// by then.
    fn require_discard(&mut self, seat: Seat, count: u8) -> Result<(), RuleError> {
        let held = self.state.player(seat).hand.len();
        let count = count.min(u8::try_from(held).unwrap_or(u8::MAX));
        if count > 0 {
            self.push_check()?;
            self.emit(Event::DiscardRequired { seat, count })?;
        }
        Ok(())
    }

    /// The models in play a selector takes, for an ability of `model`.
    /// A model's Df or Wp as it stands: the card's, its tokens', and the
    /// lasting abilities of models in play that select it, each name
    /// counted once (Cumulative Abilities: the first model in id order
    /// stands for the others). Also the abilities that counted, for the log.
    pub(super) fn stat_now(
        &self,
        model: ModelId,
        stat: crate::duel::Stat,
    ) -> (i16, Vec<FiredAbility>) {
        let Some(m) = self.state.model(model) else {
            return (0, Vec::new());
        };
        let mut value = self.book().stat_of(m, stat);
        let mut counted: Vec<(FiredAbility, &str)> = Vec::new();
        for source in self.state.models.iter().filter(|s| s.in_play()) {
            for (index, ability) in source.card.abilities.iter().enumerate() {
                if ability.window != AbilityWindow::Lasting
                    || counted.iter().any(|(_, name)| *name == ability.name)
                {
                    continue;
                }
                let change: i16 = ability
                    .effects
                    .iter()
                    .filter_map(|effect| match effect {
                        AbilityEffect::ChangeStat { stat: s, by, to }
                            if *s == stat && self.selects(to, source.id, model) =>
                        {
                            Some(i16::from(*by))
                        }
                        _ => None,
                    })
                    .sum();
                if change != 0 {
                    value += change;
                    counted.push((
                        FiredAbility {
                            model: source.id,
                            index: u8::try_from(index).unwrap_or(u8::MAX),
                            other: Some(model),
                        },
                        ability.name.as_str(),
                    ));
                }
            }
        }
        (
            value.max(0),
            counted.into_iter().map(|(fired, _)| fired).collect(),
        )
    }

    pub(super) fn selected(
        &self,
        to: &Selector,
        model: ModelId,
        other: Option<ModelId>,
    ) -> Vec<ModelId> {
        let in_play = |id: &ModelId| self.state.model(*id).is_some_and(|m| m.in_play());
        match to {
            Selector::ThisModel => Some(model).filter(in_play).into_iter().collect(),
            Selector::OtherModel => other.filter(in_play).into_iter().collect(),
            Selector::ModelsWithin {
                inches,
                side,
                keyword,
            } => self.models_within(model, *inches, *side, keyword.as_deref()),
        }
    }

    /// The markers called `name` within `inches` of `model` on the table.
    fn markers_within(&self, model: ModelId, name: &str, inches: u8) -> Vec<ObjectId> {
        let markers = self
            .state
            .markers
            .iter()
            .filter(|m| m.name == name)
            .map(|m| m.id);
        self.objects_within(model, inches, markers)
    }

    /// Other models in play within `inches` of `model` on the table, in id order.
    fn models_within(
        &self,
        model: ModelId,
        inches: u8,
        side: SideFilter,
        keyword: Option<&str>,
    ) -> Vec<ModelId> {
        let Some(me) = self.state.model(model) else {
            return Vec::new();
        };
        let candidates = self
            .state
            .models
            .iter()
            .filter(|m| Self::may_be_within(me, m, side, keyword))
            .map(|m| m.id.object());
        self.objects_within(model, inches, candidates)
            .into_iter()
            .filter_map(|id| u16::try_from(id.0).ok().map(ModelId))
            .collect()
    }

    /// Whether `other` is a model [`Sim::models_within`] of `me` looks at:
    /// another model on the table, of the side and keyword asked for.
    fn may_be_within(
        me: &crate::model::Model,
        other: &crate::model::Model,
        side: SideFilter,
        keyword: Option<&str>,
    ) -> bool {
        other.id != me.id
            && other.on_table()
            && match side {
                SideFilter::Any => true,
                SideFilter::Friendly => other.owner == me.owner,
                SideFilter::Enemy => other.owner != me.owner,
            }
            && keyword.is_none_or(|k| other.card.keywords.iter().any(|own| own == k))
    }

    /// Whether a selector of `model`'s ability takes `target` (as
    /// [`Sim::selected`] with no other model would): asked of every lasting
    /// ability at every duel, so only `target` is measured.
    fn selects(&self, to: &Selector, model: ModelId, target: ModelId) -> bool {
        match to {
            Selector::ThisModel | Selector::OtherModel => {
                self.selected(to, model, None).contains(&target)
            }
            Selector::ModelsWithin {
                inches,
                side,
                keyword,
            } => {
                let (Some(me), Some(other)) = (self.state.model(model), self.state.model(target))
                else {
                    return false;
                };
                Self::may_be_within(me, other, *side, keyword.as_deref())
                    && !self
                        .objects_within(model, *inches, std::iter::once(target.object()))
                        .is_empty()
            }
        }
    }

    /// The `candidates` on the table within `inches` of `model` (0: in base
    /// contact, which also needs the same height); none when `model` is
    /// not on the table.
    fn objects_within(
        &self,
        model: ModelId,
        inches: u8,
        candidates: impl Iterator<Item = ObjectId>,
    ) -> Vec<ObjectId> {
        if self.state.model(model).and_then(|m| m.placement).is_none() {
            return Vec::new();
        }
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        let Ok(origin) = board.body(Target::Object(model.object())) else {
            return Vec::new();
        };
        candidates
            .filter(|id| {
                board.body(Target::Object(*id)).is_ok_and(|body| {
                    if inches == 0 {
                        base_contact(&origin, &body)
                    } else {
                        within_card_range(self.state.edition, &origin, &body, inches)
                    }
                })
            })
            .collect()
    }

    /// The side `id` flips for in the current duel, if any.
    fn role_in_duel(&self, id: ModelId) -> Option<Role> {
        let duel = self.state.duel()?;
        [Role::Initiator, Role::Resister]
            .into_iter()
            .find(|role| duel.side(*role).is_some_and(|side| side.model == id))
    }

    /// Heals a model in play with health left (a killed model is not healed
    /// back here), up to its maximum.
    pub(super) fn heal(&mut self, id: ModelId, amount: u8) -> Result<(), RuleError> {
        let Some(m) = self.state.model(id).filter(|m| m.in_play()) else {
            return Ok(());
        };
        let to = m
            .health
            .saturating_add(u16::from(amount))
            .min(m.card.max_health);
        if to == m.health || m.health == 0 {
            return Ok(());
        }
        self.emit(Event::HealthChanged {
            model: id,
            from: m.health,
            to,
        })
    }
}

/// Who picks next in `batch`, and from which abilities: the model being
/// resolved keeps going; otherwise the first player picks among their
/// models' abilities, then the other player.
pub(crate) fn batch_options(state: &GameState, batch: &AbilityBatch) -> (Seat, Vec<FiredAbility>) {
    let owner = |f: &FiredAbility| state.model(f.model).map(|m| m.owner);
    if let Some(model) = batch.resolving {
        let rest: Vec<FiredAbility> = batch
            .pending
            .iter()
            .copied()
            .filter(|f| f.model == model)
            .collect();
        if let Some(seat) = rest.first().and_then(owner) {
            return (seat, rest);
        }
    }
    for seat in [batch.first, batch.first.other()] {
        let theirs: Vec<FiredAbility> = batch
            .pending
            .iter()
            .copied()
            .filter(|f| owner(f) == Some(seat))
            .collect();
        if !theirs.is_empty() {
            return (seat, theirs);
        }
    }
    // Abilities of models that left the game: the first player orders them.
    (batch.first, batch.pending.clone())
}

/// The abilities' facts: one used, a resist stat changed, a batch waiting.
pub(crate) fn apply_ability_facts(state: &mut GameState, event: &Event) {
    match event {
        // Its effects are facts of their own; in a batch it leaves the queue.
        Event::AbilityUsed { model, index, .. } => {
            let once = state.ability(*model, *index).and_then(|a| a.once_per);
            if let (Some(per), Some(encounter)) =
                (once, state.encounter.as_mut().map(Arc::make_mut))
            {
                encounter.abilities_used.push((*model, *index, per));
            }
            if let Some(Frame::Abilities { batch }) = state.frames.last_mut() {
                if let Some(at) = batch
                    .pending
                    .iter()
                    .position(|f| f.model == *model && f.index == *index)
                {
                    batch.pending.remove(at);
                }
                batch.resolving = batch
                    .pending
                    .iter()
                    .any(|f| f.model == *model)
                    .then_some(*model);
                if batch.pending.is_empty() {
                    state.frames.pop();
                }
            }
        }
        Event::ResistStatChanged { to, .. } => {
            if let Some(side) = state.side_mut(Some(Role::Resister)) {
                side.base = *to;
            }
        }
        Event::AbilitiesWaiting { batch } => {
            state.frames.push(Frame::Abilities {
                batch: batch.clone(),
            });
        }
        _ => {}
    }
}
