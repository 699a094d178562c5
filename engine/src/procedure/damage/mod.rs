//! The damage procedure: one damage instance from the moment it starts
//! resolving (3rd edition blocks and damage flips, reductions, soulstones)
//! to health lost, and the killed timing. Its stage is worked out from
//! what has happened (`damage::DamageProgress::stage`).

use super::*;
use crate::flip::FlipInProgress;
use crate::table::{Board, MarkerKind, Point, blast};

mod facts;
pub(crate) use facts::apply_damage_facts;

impl Sim<'_> {
    pub(super) fn damage_command(
        &mut self,
        seat: Seat,
        stage: DamageStage,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let progress = self
            .state
            .damage()
            .ok_or(RuleError::NothingPending)?
            .clone();
        let target = progress.instance.target;
        let target_owner = self.model_owner(target)?;
        match stage {
            DamageStage::Block => {
                Self::require_seat(seat, target_owner)?;
                match command {
                    PlayerCommand::BlockDamage => {
                        self.emit(Event::SoulstoneSpent {
                            seat,
                            purpose: "block damage".into(),
                            role: None,
                        })?;
                        self.emit(Event::DamageBlocked {
                            seat,
                            model: target,
                        })
                    }
                    PlayerCommand::DeclineBlock => {
                        self.emit(Event::BlockDeclined { model: target })
                    }
                    _ => refuse("spend a soulstone to block, or decline"),
                }
            }
            DamageStage::Reductions => {
                Self::require_seat(seat, target_owner)?;
                let model = self
                    .state
                    .model(target)
                    .cloned()
                    .ok_or(RuleError::NothingPending)?;
                let offered = self
                    .optional_reduction(&progress)
                    .ok_or(RuleError::NothingPending)?;
                let reduction = model.card.reductions[offered].clone();
                match command {
                    PlayerCommand::UseReduction { name } if *name == reduction.name => {
                        for _ in 0..reduction.soulstones {
                            self.emit(Event::SoulstoneSpent {
                                seat,
                                purpose: format!("{} reduction", reduction.name).into(),
                                role: None,
                            })?;
                        }
                        self.emit(Event::ReductionUsed {
                            model: model.id,
                            name: reduction.name.clone(),
                        })?;
                        let after = if reduction.to_zero {
                            0
                        } else if reduction.can_reach_zero {
                            progress.amount.saturating_sub(reduction.amount)
                        } else {
                            floor_one(progress.amount, reduction.amount)
                        };
                        self.emit(Event::DamageReduced {
                            target,
                            source: reduction.name.clone(),
                            by: progress.amount - after,
                        })?;
                        // Its move comes now, inside this damage (the
                        // rest of the damage timing waits for it).
                        if reduction.then_moves > 0 && model.on_table() {
                            self.emit(Event::MoveOffered {
                                seat,
                                model: model.id,
                                inches: reduction.then_moves,
                            })?;
                        }
                        Ok(())
                    }
                    PlayerCommand::UseReduction { .. } => {
                        refuse(format!("the reduction on offer is {}", reduction.name))
                    }
                    PlayerCommand::DeclineReduction => self.emit(Event::ReductionDeclined {
                        model: model.id,
                        name: reduction.name.clone(),
                    }),
                    _ => refuse("use the reduction or decline"),
                }
            }
            DamageStage::SoulstoneReduce => {
                Self::require_seat(seat, target_owner)?;
                match command {
                    PlayerCommand::ReduceDamage => {
                        self.emit(Event::SoulstoneSpent {
                            seat,
                            purpose: "reduce damage".into(),
                            role: None,
                        })?;
                        let cards = self.reveal(seat, None, 1)?;
                        if let Some(card) = cards.first() {
                            self.choose(seat, None, *card)?;
                            let by = if card.is_black_joker() {
                                0
                            } else {
                                band(*card) + 1
                            };
                            self.emit(Event::DamageReductionFlip {
                                seat,
                                card: *card,
                                by,
                            })?;
                            self.emit(Event::ConflictCleared {
                                cards: vec![(seat, *card)],
                            })?;
                        }
                    }
                    PlayerCommand::DeclineReduce => {}
                    _ => return refuse("spend a soulstone to reduce the damage, or decline"),
                }
                self.suffer()
            }
        }
    }

    /// Several models were dealt damage at the same moment and none is
    /// resolving: the owner of the first picks which resolves next.
    pub(super) fn damage_order(&self) -> Option<Seat> {
        let first = self.state.damage_queue.first()?;
        let several = self
            .state
            .damage_queue
            .iter()
            .any(|d| d.batch == first.batch && d.target != first.target);
        if !several {
            return None;
        }
        self.state.model(first.target).map(|m| m.owner)
    }

    pub(super) fn damage_order_command(
        &mut self,
        seat: Seat,
        owner: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        Self::require_seat(seat, owner)?;
        let PlayerCommand::ResolveDamageFirst { model } = command else {
            return refuse("choose which damaged model resolves first");
        };
        let batch = self
            .state
            .damage_queue
            .first()
            .map(|d| d.batch)
            .ok_or(RuleError::NothingPending)?;
        if !self
            .state
            .damage_queue
            .iter()
            .any(|d| d.batch == batch && d.target == *model)
        {
            return refuse("that model has no damage waiting");
        }
        self.begin_damage(*model, batch)
    }

    /// The next queued damage starts resolving, unless its owner must first
    /// say which of several damaged models goes first.
    pub(super) fn start_next_damage(&mut self) -> Result<bool, RuleError> {
        let Some(first) = self.state.damage_queue.first() else {
            return Ok(false);
        };
        if self.damage_order().is_some() {
            return Ok(false);
        }
        let (target, batch) = (first.target, first.batch);
        self.begin_damage(target, batch)?;
        Ok(true)
    }

    pub(super) fn begin_damage(&mut self, target: ModelId, batch: u32) -> Result<(), RuleError> {
        self.push_check()?;
        self.emit(Event::DamageResolving { target, batch })?;
        if self.state.model(target).is_none_or(|m| !m.in_play()) {
            // The target left play: the damage does nothing.
            return self.emit(Event::DamageFizzled { target });
        }
        Ok(())
    }

    /// Runs the damage timing's automatic steps; false when a decision is awaited.
    pub(super) fn advance_damage(&mut self) -> Result<bool, RuleError> {
        let progress = self
            .state
            .damage()
            .ok_or(RuleError::NothingPending)?
            .clone();
        let target = progress.instance.target;
        let target_model = self.state.model(target);
        let owner = target_model.map_or(Seat::A, |m| m.owner);
        let can_spend = target_model.is_some_and(|m| m.card.soulstone_user)
            && self.state.player(owner).soulstones > 0;
        match progress.stage() {
            DamageStage::Block => {
                if can_spend && !progress.block_decided {
                    return Ok(false);
                }
                self.damage_flip(&progress)?;
                Ok(true)
            }
            DamageStage::Reductions => {
                if self.optional_reduction(&progress).is_some() {
                    return Ok(false);
                }
                self.automatic_reductions(&progress)?;
                Ok(true)
            }
            DamageStage::SoulstoneReduce => {
                let may_reduce = self.rules().duel.soulstones_reduce_damage
                    && !progress.instance.irreducible
                    && progress.amount > 0
                    && can_spend;
                if may_reduce {
                    return Ok(false);
                }
                self.suffer()?;
                Ok(true)
            }
        }
    }

    /// 3rd edition: the attacker flips for damage.
    pub(super) fn damage_flip(&mut self, progress: &DamageProgress) -> Result<(), RuleError> {
        let attacker = progress.instance.attacker.unwrap_or(Seat::A);
        self.push_check()?;
        self.emit(Event::DamageFlipStarted {
            seat: attacker,
            target: progress.instance.target,
            modifiers: progress.flip_modifiers,
        })?;
        self.reveal(attacker, None, reveal_count(progress.flip_modifiers))?;
        Ok(())
    }

    /// The damage flip has ended with `flip`'s card (none: no card could
    /// be flipped): the card gives the damage.
    pub(super) fn end_damage_flip(&mut self, flip: &FlipInProgress) -> Result<(), RuleError> {
        let progress = self
            .state
            .frames
            .iter()
            .rev()
            .find_map(|frame| match frame {
                Frame::Damage { progress } => Some((**progress).clone()),
                _ => None,
            })
            .ok_or(RuleError::NothingPending)?;
        let (mut base, mut dealt) = (0, 0);
        let mut blasts = None;
        if let (
            DamageAmount::Flip {
                weak,
                moderate,
                severe,
                blasts: dropped,
            },
            Some(card),
        ) = (progress.instance.amount, flip.card)
        {
            blasts = flip_band(card).map(|band| {
                (
                    dropped[usize::from(band)],
                    blast_damage(band, weak, moderate),
                )
            });
            base = flip_damage(card, weak, moderate, severe);
            // The Black Joker's nothing cannot be raised by anything.
            let additions: u8 = if card.is_black_joker() {
                0
            } else {
                progress.instance.additions.iter().map(|(_, a)| *a).sum()
            };
            dealt = base.saturating_add(additions);
            self.emit(Event::ConflictCleared {
                cards: vec![(flip.seat, card)],
            })?;
        }
        self.emit(Event::DamageFlipEnded { base, dealt })?;
        // An attack on a friendly model drops no blast; nor does one with
        // no room beside the target (or no table).
        let target = progress.instance.target;
        let friendly = self.model_owner(target).ok() == Some(flip.seat);
        let room = || {
            let table = self.state.table();
            let board = Board::new(&table, self.state.edition);
            !blast::spots(&board, target.object(), &[]).is_empty()
        };
        match blasts {
            Some((count, damage)) if count > 0 && !friendly && room() => {
                self.emit(Event::BlastsOffered {
                    seat: flip.seat,
                    target,
                    count,
                    damage,
                    source: format!("{} (blast)", progress.instance.source),
                    credit: progress.instance.credit,
                })
            }
            _ => Ok(()),
        }
    }

    /// The active player's blast marker for a `blasts` frame; after the
    /// last, each model the markers touch (not the target) is dealt the
    /// blast's damage, all at the same moment.
    pub(super) fn blast_command(
        &mut self,
        by: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let Some(Frame::Blasts {
            seat,
            target,
            count,
            damage,
            source,
            credit,
            mut dropped,
        }) = self.state.frame().cloned()
        else {
            return Err(RuleError::NothingPending);
        };
        Self::require_seat(by, seat)?;
        let PlayerCommand::DropBlast { at } = command else {
            return refuse("drop the next blast marker first");
        };
        let table = self.state.table();
        let board = Board::new(&table, self.state.edition);
        blast::fits(&board, target.object(), &dropped, *at).map_err(RuleError::not_allowed)?;
        self.emit(Event::BlastDropped { at: *at })?;
        dropped.push(*at);
        // The markers land once all are down, or when no room is left
        // for the next.
        let room = || !blast::spots(&board, target.object(), &dropped).is_empty();
        if dropped.len() < usize::from(count) && room() {
            return Ok(());
        }
        let hit = blast_hits(&board, target, &dropped);
        self.emit(Event::BlastsLanded { hit: hit.clone() })?;
        let batch = self.batch();
        for model in hit {
            self.queue(DamageInstance {
                credit,
                ..DamageInstance::fixed(model, source.clone(), damage, false, batch)
            })?;
        }
        Ok(())
    }

    /// The next optional reduction the damaged model could use, if any.
    pub(super) fn optional_reduction(&self, progress: &DamageProgress) -> Option<usize> {
        if progress.instance.irreducible || progress.amount == 0 {
            return None;
        }
        let model = self.state.model(progress.instance.target)?;
        let soulstones = self.state.player(model.owner).soulstones;
        model
            .card
            .reductions
            .iter()
            .enumerate()
            .skip(usize::from(progress.next_reduction))
            .find(|(index, r)| {
                r.optional
                    && !crate::model::ignored(r.defense, &progress.instance.ignores)
                    && u16::from(r.soulstones) <= soulstones
                    && !(r.once_per_activation
                        && (self.once_per_activation_closed()
                            || model.reductions_used.contains(&(*index as u8))))
            })
            .map(|(index, _)| index)
    }

    /// Damage timing step 3 after the optional reductions, in this order:
    /// cover and named reductions (not below 1), the tie (not below 0),
    /// Shielded (not below 0). Irreducible damage skips it.
    pub(super) fn automatic_reductions(
        &mut self,
        progress: &DamageProgress,
    ) -> Result<(), RuleError> {
        let target = progress.instance.target;
        let mut amount = progress.amount;
        let mut reductions: Vec<(String, u8)> = Vec::new();
        if !progress.instance.irreducible && amount > 0 {
            let model = self.state.shared_model(target);
            if progress.instance.cover {
                let before = amount;
                amount = floor_one(amount, 1);
                reductions.push(("cover".into(), before - amount));
            }
            if let Some(model) = &model {
                let reductions_of = &model.card.reductions;
                let adds = self.rules().actions.same_name_values_add;
                for (index, reduction) in reductions_of.iter().enumerate() {
                    let used = reduction.once_per_activation
                        && (self.once_per_activation_closed()
                            || model.reductions_used.contains(&(index as u8)));
                    // One name counts once: its first instance stands for
                    // the others, with their values added in 3rd edition.
                    let repeated = reductions_of[..index]
                        .iter()
                        .any(|r| r.name == reduction.name && !r.optional);
                    let passed_by =
                        crate::model::ignored(reduction.defense, &progress.instance.ignores);
                    if reduction.optional || used || repeated || passed_by || amount == 0 {
                        continue;
                    }
                    let value = if adds {
                        reductions_of[index..]
                            .iter()
                            .filter(|r| r.name == reduction.name && !r.optional)
                            .fold(0u8, |sum, r| sum.saturating_add(r.amount))
                    } else {
                        reduction.amount
                    };
                    let before = amount;
                    amount = if reduction.can_reach_zero {
                        amount.saturating_sub(value)
                    } else {
                        floor_one(amount, value)
                    };
                    if reduction.once_per_activation {
                        self.emit(Event::ReductionUsed {
                            model: model.id,
                            name: reduction.name.clone(),
                        })?;
                    }
                    reductions.push((reduction.name.clone(), before - amount));
                }
            }
            // The damaged model's abilities that reduce damage.
            if amount > 0 && !progress.instance.from_ability {
                let mut fired = self.fired(
                    target,
                    AbilityWindow::ReducingDamage,
                    Situation::default(),
                    progress.instance.credit,
                );
                // An ability of a category the damage ignores does nothing.
                fired.retain(|f| {
                    let category = self.state.ability(f.model, f.index).and_then(|a| a.defense);
                    !crate::model::ignored(category, &progress.instance.ignores)
                });
                let changes = self.damage_changes(&fired);
                // The rest of these abilities resolves in card order: the
                // damage is being worked out and cannot wait for a choice.
                for fired in fired {
                    self.resolve_ability(fired)?;
                }
                for (name, effect) in changes {
                    if let AbilityEffect::ReduceDamage { by, to_zero } = effect {
                        let before = amount;
                        amount = if to_zero {
                            amount.saturating_sub(by)
                        } else {
                            floor_one(amount, by)
                        };
                        reductions.push((name.to_string(), before - amount));
                    }
                }
            }
            if progress.instance.tie {
                let before = amount;
                amount = amount.saturating_sub(1);
                reductions.push(("tie".into(), before - amount));
            }
            // The damaged model's tokens that reduce damage.
            if amount > 0 {
                let effects =
                    self.open_window(target, None, Window::ReducingDamage, Situation::default())?;
                for (token, effect) in effects {
                    if let Effect::ReduceDamage { by } = effect {
                        let before = amount;
                        amount = amount.saturating_sub(by);
                        reductions.push((self.token_name(token), before - amount));
                    }
                }
            }
        }
        self.emit(Event::ReductionsApplied {
            target,
            reductions,
            amount,
        })
    }

    /// Steps 4–6: health goes down (never below 0); at 0 the model is killed.
    pub(super) fn suffer(&mut self) -> Result<(), RuleError> {
        let progress = self
            .state
            .damage()
            .ok_or(RuleError::NothingPending)?
            .clone();
        let target = progress.instance.target;
        self.emit(Event::DamageDealt {
            report: DamageReport {
                target,
                base: progress.base,
                raises_added: progress.raises_added,
                additions: progress.instance.additions.clone(),
                dealt: progress.dealt,
                reductions: progress.reductions.clone(),
                amount: progress.amount,
                irreducible: progress.instance.irreducible,
            },
        })?;
        let Some(model) = self.state.shared_model(target) else {
            return Ok(());
        };
        if progress.amount == 0 {
            return Ok(());
        }
        let to = model.health.saturating_sub(u16::from(progress.amount));
        self.emit(Event::HealthChanged {
            model: target,
            from: model.health,
            to,
        })?;
        if to == 0 {
            self.killed(target, &progress.instance, false)?;
        } else if !progress.instance.from_ability {
            let fired = self.fired(
                target,
                AbilityWindow::Damaged,
                Situation::default(),
                progress.instance.credit,
            );
            let first = self.active_seat(progress.instance.attacker, model.owner);
            self.resolve_batch(fired, first, None)?;
        }
        Ok(())
    }

    /// The killed timing.
    /// `by_effect`: an effect killed it whatever its health, so a heal in
    /// step 1 does not save it.
    pub(super) fn killed(
        &mut self,
        target: ModelId,
        instance: &DamageInstance,
        by_effect: bool,
    ) -> Result<(), RuleError> {
        let Some(model) = self.state.shared_model(target) else {
            return Ok(());
        };
        // 1. Heal or replace: a model healed above 0 is no longer killed.
        if let Some(health) = model.card.rebirth_health.filter(|_| !by_effect) {
            let to = health.min(model.card.max_health);
            if to > 0 {
                self.emit(Event::HealthChanged {
                    model: target,
                    from: 0,
                    to,
                })?;
                return self.offer_rebirth_place(&model);
            }
        }
        // 2. After-killing triggers.
        if let Some(seat) = instance.infuse_on_kill {
            self.emit(Event::SoulstoneInfused { seat })?;
        }
        // 3. Other effects after being killed: the model's own abilities
        // (which may wait for their order), then Demise damage, queued.
        let fired = self.fired(
            target,
            AbilityWindow::Killed,
            Situation::default(),
            instance.credit,
        );
        let first = self.active_seat(instance.attacker, model.owner);
        self.resolve_batch(
            fired,
            first,
            Some(AfterAbilities::FinishKilling {
                model: target,
                credit: instance.credit,
                crew: instance.credit_crew,
            }),
        )
    }

    /// An action's effect kills `target` outright: the killed timing, with
    /// the kill credited as the action's damage would be.
    pub(super) fn kill_by_effect(
        &mut self,
        target: ModelId,
        action: &crate::state::ActionInProgress,
    ) -> Result<(), RuleError> {
        let owner = self.model_owner(action.actor)?;
        let enemy_controlled = action.controller.is_some_and(|crew| crew != owner);
        let instance = DamageInstance {
            credit: (!enemy_controlled).then_some(action.actor),
            credit_crew: action.controller.filter(|_| enemy_controlled),
            attacker: Some(action.controller.unwrap_or(owner)),
            ..DamageInstance::fixed(target, action.name.clone(), 0, true, self.batch())
        };
        self.killed(target, &instance, true)
    }

    /// A rebirth that places the model beside a friendly model: its owner
    /// picks the spot, if such a model is on the table with room beside it.
    fn offer_rebirth_place(&mut self, model: &crate::model::Model) -> Result<(), RuleError> {
        let Some(name) = model.card.rebirth_beside.as_deref() else {
            return Ok(());
        };
        if !model.on_table() {
            return Ok(());
        }
        let beside = self.state.models.iter().find(|m| {
            m.id != model.id
                && m.owner == model.owner
                && m.on_table()
                && m.name() == name
                && !super::pounce_spots(&self.state, model.id, m.id).is_empty()
        });
        let Some(beside) = beside.map(|m| m.id) else {
            return Ok(());
        };
        self.push_check()?;
        self.emit(Event::PlaceOffered {
            seat: model.owner,
            model: model.id,
            inches: 0,
            touching: Some(beside),
            rebirth: true,
        })
    }

    /// The player whose effects resolve first: the one dealing the damage
    /// (the active player), or else the damaged model's controller.
    fn active_seat(&self, attacker: Option<Seat>, owner: Seat) -> Seat {
        attacker.unwrap_or(owner)
    }

    /// Killed timing after the model's own abilities: Demise damage (queued
    /// for later), the soulstone, remains, and the model leaves the game.
    pub(super) fn finish_killing(
        &mut self,
        target: ModelId,
        credit: Option<ModelId>,
        crew: Option<Seat>,
    ) -> Result<(), RuleError> {
        let leaves_something = self.rules().actions.killing_infuses_and_leaves_remains;
        let Some(model) = self.state.shared_model(target) else {
            return Ok(());
        };
        if let Some(demise) = &model.card.demise {
            let batch = self.batch();
            let mut victims = demise.targets.clone();
            if let Some(inches) = demise.within {
                let around = crate::ability::Selector::ModelsWithin {
                    inches,
                    side: crate::ability::SideFilter::Any,
                    keyword: None,
                };
                for id in self.selected(&around, target, None) {
                    if !victims.contains(&id) {
                        victims.push(id);
                    }
                }
            }
            for victim in &victims {
                if self.state.model(*victim).is_some_and(|m| m.in_play()) {
                    self.queue(DamageInstance {
                        credit: Some(target),
                        attacker: Some(model.owner),
                        from_ability: true,
                        ..DamageInstance::fixed(
                            *victim,
                            demise.name.clone(),
                            demise.damage,
                            demise.irreducible,
                            batch,
                        )
                    })?;
                }
            }
        }
        // 4. The owner infuses a soulstone (4th edition; never peons, nor a
        // model whose tokens say it does not).
        let no_soulstone = self
            .token_with_effect(
                target,
                Window::Killed,
                Situation::default(),
                Effect::NoSoulstoneOnDeath,
            )
            .is_some();
        if leaves_something && model.card.infuses_on_death && !model.card.peon && !no_soulstone {
            self.emit(Event::SoulstoneInfused { seat: model.owner })?;
        }
        // 5. Remains (4th edition; peons leave none). 3rd edition: a
        // Corpse or Scrap Marker by the model's characteristics.
        if leaves_something && !model.card.peon {
            // Friendly to the killed model's crew, which holds at most
            // five (M4E Markers, lines 1242 and 1444): with five, its
            // oldest goes first (the book lets the player pick; the
            // engine's reading, docs/engine.md).
            let oldest_of_five = {
                let mut crews = self
                    .state
                    .markers
                    .iter()
                    .filter(|k| k.kind == MarkerKind::Remains && k.owner == Some(model.owner));
                let oldest = crews.next().map(|k| k.id);
                oldest.filter(|_| crews.count() + 1 >= crate::encounter::MAX_FRIENDLY_MARKERS)
            };
            if let Some(id) = oldest_of_five {
                self.emit(Event::MarkerRemoved { id })?;
            }
            self.emit(Event::RemainsDropped {
                model: target,
                owner: Some(model.owner),
            })?;
        }
        if let Some(at) = model.placement {
            for marker in &model.card.remains_markers {
                if self.state.marker_types.named(marker).is_some() {
                    self.emit(Event::MarkerMade {
                        marker: marker.clone(),
                        owner: None,
                        at,
                    })?;
                }
            }
        }
        // Turf War: the killer's crew turns an enemy marker neutral (not
        // for a kill by an Insignificant model, which the strategy ignores).
        let killer = self.state.killer_crew(credit, crew);
        let counted_killer = credit
            .and_then(|id| self.state.model(id))
            .is_none_or(|m| m.card.counts_for_objectives());
        if let Some(killer) = killer.filter(|k| *k != model.owner && counted_killer) {
            self.neutralise_marker_after_kill(&model, killer)?;
        }
        // Plant Explosives: its tokens go to an enemy model nearby.
        self.pass_explosives_after_kill(&model)?;
        // 6. Removed from the game.
        self.emit(Event::ModelKilled {
            model: target,
            credit,
            crew,
        })
    }
}

/// A reduction that never takes damage below 1 (unless it already was 0).
fn floor_one(amount: u8, by: u8) -> u8 {
    if amount == 0 {
        return 0;
    }
    amount.saturating_sub(by).max(1)
}

/// Where the next blast marker of a `blasts` frame could go.
pub(crate) fn blast_spots(state: &GameState) -> Vec<Point> {
    let Some(Frame::Blasts {
        target, dropped, ..
    }) = state.frame()
    else {
        return Vec::new();
    };
    let table = state.table();
    let board = Board::new(&table, state.edition);
    blast::spots(&board, target.object(), dropped)
}

/// For the greedy bot: the spot for the next blast marker where the
/// markers touch the most enemy models less `seat`'s own (one board for
/// every spot weighed).
pub(crate) fn best_blast_spot(state: &GameState, seat: Seat) -> Option<Point> {
    let Some(Frame::Blasts {
        target, dropped, ..
    }) = state.frame()
    else {
        return None;
    };
    let table = state.table();
    let board = Board::new(&table, state.edition);
    let score = |at: Point| -> i32 {
        let mut markers = dropped.clone();
        markers.push(at);
        blast_hits(&board, *target, &markers)
            .into_iter()
            .map(|hit| match state.model(hit) {
                Some(m) if m.owner == seat => -1,
                Some(_) => 1,
                None => 0,
            })
            .sum()
    };
    blast::spots(&board, target.object(), dropped)
        .into_iter()
        .max_by_key(|at| score(*at))
}

/// The models a blast's markers touch (not its target).
fn blast_hits(board: &Board, target: ModelId, dropped: &[Point]) -> Vec<ModelId> {
    blast::hits(board, target.object(), dropped)
        .into_iter()
        .filter_map(|id| u16::try_from(id.0).ok().map(ModelId))
        .collect()
}
