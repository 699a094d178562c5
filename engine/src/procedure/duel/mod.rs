//! The duel procedure: from the duel's start through modifying, flipping,
//! choosing, cheating, the Red Joker's suit and triggers to its outcome and
//! the damage it deals. Its step moves on in `state::apply` (see
//! `duel::Duel`), never by a logged cursor.

use std::borrow::Cow;

use crate::duel::{DuelSpec, Suits};
use crate::table::Board;

use super::*;

mod facts;
pub(crate) use facts::apply_duel_facts;

impl Sim<'_> {
    pub(super) fn start_duel(
        &mut self,
        spec: &Arc<crate::duel::DuelSpec>,
    ) -> Result<(), RuleError> {
        spec.validate().map_err(RuleError::invalid)?;
        self.push_check()?;
        let initiator = self
            .state
            .model(spec.initiator)
            .filter(|m| m.in_play())
            .ok_or_else(|| {
                RuleError::invalid(format!("model {} is not in play", spec.initiator.0))
            })?;
        let initiator_seat = spec.controller.unwrap_or(initiator.owner);
        let (resister_seat, resister_base) = match (spec.resister, spec.resist_stat) {
            (Some(id), Some(stat)) => {
                let m = self
                    .state
                    .model(id)
                    .filter(|m| m.in_play())
                    .ok_or_else(|| RuleError::invalid(format!("model {} is not in play", id.0)))?;
                let owner = m.owner;
                let (value, lasting) = self.resisting_stat(spec, id, stat);
                // The lasting abilities that changed the stat, in the log.
                for fired in lasting {
                    let name = self
                        .state
                        .ability(fired.model, fired.index)
                        .map(|a| Arc::<str>::from(a.name.as_str()))
                        .unwrap_or_else(|| Arc::from(""));
                    self.emit(Event::AbilityUsed {
                        model: fired.model,
                        index: fired.index,
                        name,
                    })?;
                }
                (Some(owner), Some(value))
            }
            _ => (None, None),
        };
        if let Some(target) = spec.target {
            self.model_owner(target)?;
        }
        // A suit printed on the initiator's card that a token blanks
        // (Stunned) is not part of the duel: the spec says so from the start.
        let blanked = self
            .state
            .model(spec.initiator)
            .map(|m| {
                self.book()
                    .effects_at(
                        &m.tokens,
                        Window::DuelStarted,
                        Situation::in_duel(spec, true),
                    )
                    .into_iter()
                    .filter_map(|(_, effect)| match effect {
                        Effect::BlankCardSuit { suit } => Some(suit),
                        _ => None,
                    })
                    .fold(Suits::none(), Suits::with)
            })
            .unwrap_or_default();
        let blanked_spec;
        let spec = if spec.skill_suits.without(blanked) == spec.skill_suits {
            spec
        } else {
            blanked_spec = Arc::new(DuelSpec {
                skill_suits: spec.skill_suits.without(blanked),
                ..(**spec).clone()
            });
            &blanked_spec
        };
        self.emit(Event::DuelStarted {
            spec: Arc::clone(spec),
            initiator_seat,
            resister_seat,
            initiator_base: spec.skill,
            resister_base,
        })?;
        let situation = Situation::in_duel(spec, true);
        self.open_window(
            spec.initiator,
            Some(Role::Initiator),
            Window::DuelStarted,
            situation,
        )?;
        if let Some(target) = spec.resister {
            self.favour_the_tokens_friends(target, initiator_seat, situation)?;
        }
        // Then the abilities of both models, fired at the same moment: the
        // initiator's player resolves theirs first.
        let target = spec.resister.or(spec.target);
        let mut fired = self.fired(
            spec.initiator,
            AbilityWindow::DuelStarted,
            situation,
            target,
        );
        if let Some(target) = target.filter(|t| *t != spec.initiator) {
            fired.extend(self.fired(
                target,
                AbilityWindow::Targeted,
                Situation::in_duel(spec, false),
                Some(spec.initiator),
            ));
        }
        self.resolve_batch(fired, initiator_seat, None)
    }

    /// The attacked model's tokens that help attacks by their own crew
    /// (Adversary): a fate modifier on the attacker's flip when `attacker`
    /// is the crew that gave the token.
    fn favour_the_tokens_friends(
        &mut self,
        target: ModelId,
        attacker: Seat,
        situation: Situation,
    ) -> Result<(), RuleError> {
        let Some(m) = self.state.model(target) else {
            return Ok(());
        };
        let favoured: Vec<(Token, i8)> = self
            .book()
            .effects_at(&m.tokens, Window::TargetedByAttack, situation)
            .into_iter()
            .filter(|(token, _)| m.token_applier(*token) == Some(attacker))
            .filter_map(|(token, effect)| match effect {
                Effect::FateModifier { by } => Some((token, by)),
                _ => None,
            })
            .collect();
        for (token, by) in favoured {
            self.emit(Event::ModifierAdded {
                role: Role::Initiator,
                amount: by,
                source: self.token_name(token).into(),
            })?;
        }
        Ok(())
    }

    pub(super) fn duel_command(
        &mut self,
        seat: Seat,
        step: DuelStep,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        // Whoever decides the step, the seat check comes first.
        let role = step.deciding_role().ok_or(RuleError::NothingPending)?;
        let side = self.side(role)?.clone();
        Self::require_seat(seat, side.seat)?;
        match step {
            DuelStep::Relent { .. } => match command {
                PlayerCommand::Relent => self.emit(Event::Relented { role }),
                PlayerCommand::Resist => self.emit(Event::RelentDeclined { role }),
                _ => refuse("first decide whether to relent"),
            },
            DuelStep::Modify { .. } => self.modify(role, &side, command),
            DuelStep::LookingAtTop { .. } => {
                let card = self
                    .state
                    .player(seat)
                    .deck
                    .top()
                    .ok_or(RuleError::NothingPending)?;
                match command {
                    PlayerCommand::KeepTopCard => self.emit(Event::TopCardKept { seat })?,
                    PlayerCommand::DiscardTopCard => {
                        self.emit(Event::TopCardDiscarded { seat, card })?
                    }
                    _ => return refuse("keep or discard the card you looked at"),
                }
                Ok(())
            }
            DuelStep::Choose { .. } => {
                let PlayerCommand::ChooseCard { card } = command else {
                    return refuse("choose which revealed card to use");
                };
                let revealed = side.revealed;
                let allowed = allowed_choices(&revealed, side.modifiers);
                if !allowed.contains(*card) {
                    return refuse(choice_reason(&revealed, side.modifiers));
                }
                self.choose(seat, Some(role), *card)
            }
            DuelStep::Cheat { .. } => {
                match command {
                    PlayerCommand::Cheat { card } => {
                        if let Some(reason) = self.cheat_forbidden(role) {
                            return refuse(reason);
                        }
                        if !self.state.player(seat).hand.contains(*card) {
                            return Err(RuleError::CardNotInHand {
                                seat,
                                card: card.to_string(),
                            });
                        }
                        let Some(out) = side.card else {
                            return refuse("there is no card to replace");
                        };
                        self.emit(Event::Cheated {
                            seat,
                            role: Some(role),
                            card_in: *card,
                            card_out: out,
                        })?;
                    }
                    PlayerCommand::DeclineCheat => {
                        self.emit(Event::CheatDeclined { role: Some(role) })?
                    }
                    _ => return refuse("cheat fate or decline"),
                }
                Ok(())
            }
            DuelStep::JokerSuit { .. } => {
                let PlayerCommand::ChooseJokerSuit { suit } = command else {
                    return refuse("choose the Red Joker's suit (or none)");
                };
                self.emit(Event::JokerSuitChosen { role, suit: *suit })
            }
            DuelStep::Triggers { .. } => {
                match command {
                    PlayerCommand::DeclareTrigger { name } => {
                        let trigger = self
                            .legal_triggers(role)?
                            .into_iter()
                            .find(|t| &t.name == name)
                            .ok_or_else(|| RuleError::not_allowed(format!("{name} cannot be declared: its suits are not in the total, its soulstones cannot be paid, its target breaks its restriction, or it is not this duel's trigger")))?;
                        for _ in 0..trigger.soulstones {
                            self.emit(Event::SoulstoneSpent {
                                seat,
                                purpose: format!("trigger {}", trigger.name).into(),
                                role: None,
                            })?;
                        }
                        self.emit(Event::TriggerDeclared {
                            role,
                            name: Arc::from(name.as_str()),
                        })?;
                        if let TriggerEffect::SetRaiseValue { value } = trigger.effect {
                            self.emit(Event::RaiseValueChanged {
                                value: value.max(1),
                            })?;
                        }
                    }
                    PlayerCommand::DeclineTrigger => self.emit(Event::TriggerDeclined { role })?,
                    _ => return refuse("declare a trigger or decline"),
                }
                Ok(())
            }
            DuelStep::Flip | DuelStep::Outcome => Err(RuleError::NothingPending),
        }
    }

    pub(super) fn modify(
        &mut self,
        role: Role,
        side: &Side,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let seat = side.seat;
        // Only what the checks read: the name is looked up for messages.
        let model = self
            .state
            .model(side.model)
            .map(|m| ModelFacts {
                id: m.id,
                tokens: m.tokens.clone(),
                soulstone_user: m.card.soulstone_user,
            })
            .ok_or(RuleError::NothingPending)?;
        match command {
            PlayerCommand::FinishModifying => self.emit(Event::FinishedModifying { role }),
            PlayerCommand::UseToken { token, suit } => {
                self.spend_token(role, side, &model, *token, *suit)
            }
            PlayerCommand::Empower { card } => {
                if self.rules().duel.boost != DuelBoost::DiscardLowCard {
                    return refuse(
                        "empowering is a 4th edition rule; in 3rd edition spend a soulstone",
                    );
                }
                if side.empowered {
                    return refuse("a model empowers a duel only once");
                }
                if !self.state.player(seat).hand.contains(*card) {
                    return Err(RuleError::CardNotInHand {
                        seat,
                        card: card.to_string(),
                    });
                }
                if card.value() > 5 {
                    return refuse("only a card of value 5 or less can be discarded to empower");
                }
                self.emit(Event::Empowered {
                    role,
                    seat,
                    card: *card,
                })?;
                self.emit(Event::ModifierAdded {
                    role,
                    amount: 1,
                    source: "empowered".into(),
                })?;
                if let Some(suit) = card.suit() {
                    self.emit(Event::SuitAdded {
                        role,
                        suit,
                        source: format!("empowered with {card}").into(),
                    })?;
                }
                Ok(())
            }
            PlayerCommand::SpendSoulstone { boost } => {
                if self.rules().duel.boost != DuelBoost::Soulstone {
                    return refuse(
                        "in 4th edition duels are empowered by discarding a card, not by soulstones",
                    );
                }
                if !model.soulstone_user {
                    return refuse(format!(
                        "{} cannot use soulstones",
                        self.model_name(model.id)
                    ));
                }
                if side.soulstone_spent {
                    return refuse("a model spends one soulstone per duel");
                }
                if self.state.player(seat).soulstones == 0 {
                    return refuse("the crew has no soulstones left");
                }
                self.emit(Event::SoulstoneSpent {
                    seat,
                    purpose: "duel".into(),
                    role: Some(role),
                })?;
                match boost {
                    Boost::Modifier => self.emit(Event::ModifierAdded {
                        role,
                        amount: 1,
                        source: "soulstone".into(),
                    }),
                    Boost::Suit(suit) => self.emit(Event::SuitAdded {
                        role,
                        suit: *suit,
                        source: "soulstone".into(),
                    }),
                }
            }
            _ => refuse("modify the duel (tokens, empower or soulstones) or finish modifying"),
        }
    }

    /// A side spends one of its model's tokens on the duel, as the token's
    /// spending rule says.
    fn spend_token(
        &mut self,
        role: Role,
        side: &Side,
        model: &ModelFacts,
        token: Token,
        suit: Option<crate::fate::Suit>,
    ) -> Result<(), RuleError> {
        let name = self.token_name(token);
        if !model.tokens.has(token) {
            return refuse(format!("{} has no {name} token", self.model_name(model.id)));
        }
        let situation = Situation::in_duel(&self.duel()?.spec, role == Role::Initiator);
        let Some(rule) = self.book().spending(token, situation).cloned() else {
            return refuse(if self.book().spendable().any(|(t, _)| t == token) {
                format!("{name} cannot be spent on this duel")
            } else {
                format!("{name} is not spent on a duel")
            });
        };
        if rule.once_per_duel && side.spent.contains(&token) {
            return refuse(format!("{name} can be spent once per duel"));
        }
        let adds_suit = rule.effects.contains(&Effect::AddSuit);
        match (adds_suit, suit) {
            (true, None) => return refuse(format!("name the suit {name} adds")),
            (false, Some(_)) => return refuse(format!("{name} adds no suit")),
            _ => {}
        }
        let looks = rule.effects.contains(&Effect::LookAtTopCard);
        if looks && !self.ensure_deck(side.seat)? {
            return refuse("there is no card to look at");
        }
        self.emit(Event::TokenUsed {
            role,
            model: model.id,
            token,
        })?;
        for effect in &rule.effects {
            match *effect {
                Effect::Remove { by } => self.remove_token(model.id, token, by)?,
                Effect::FateModifier { by } => self.emit(Event::ModifierAdded {
                    role,
                    amount: by,
                    source: name.clone().into(),
                })?,
                Effect::AddSuit => {
                    if let Some(suit) = suit {
                        self.emit(Event::SuitAdded {
                            role,
                            suit,
                            source: name.clone().into(),
                        })?;
                    }
                }
                Effect::LookAtTopCard => {
                    let seat = side.seat;
                    let card = match self.state.player(seat).deck.top() {
                        Some(card) => Hidden::new(seat, card),
                        None => Hidden::unknown(seat),
                    };
                    self.emit(Event::TopCardSeen { seat, card })?;
                }
                // Read when the damage flip is made (`Side::spent`).
                Effect::DamageFlipModifier { .. } => {}
                // Not spending effects: the book refuses them here.
                Effect::ForbidCheating
                | Effect::ForbidTriggers
                | Effect::AddDamage { .. }
                | Effect::ReduceDamage { .. }
                | Effect::NoSoulstoneOnDeath
                | Effect::SufferDamage { .. }
                | Effect::ModifyStat { .. }
                | Effect::ActionLimit { .. }
                | Effect::ForbidInteract
                | Effect::ModifySpeed { .. }
                | Effect::UnmovableByEnemies
                | Effect::IgnoredForObjectives
                | Effect::BonusActionsCount
                | Effect::BlankCardSuit { .. } => {}
            }
        }
        Ok(())
    }

    /// Why a side may not cheat now (public reasons only), if it may not.
    pub(super) fn cheat_forbidden(&self, role: Role) -> Option<Cow<'static, str>> {
        let duel = self.state.duel()?;
        let side = duel.side(role)?;
        if side.relented {
            return Some("a relenting model does not cheat".into());
        }
        if side.cheat_decided {
            return Some("each player has one chance to cheat a duel".into());
        }
        if duel.spec.cannot_cheat {
            return Some("this duel cannot be cheated".into());
        }
        if side.flipped_black_joker {
            return Some("the Black Joker was flipped: it cannot be cheated".into());
        }
        let other = duel.side(match role {
            Role::Initiator => Role::Resister,
            Role::Resister => Role::Initiator,
        });
        if other.is_some_and(|o| o.flipped_red_joker) {
            return Some("the opponent flipped the Red Joker: no cheating".into());
        }
        if let Some(reason) = self.rules().duel.cheat_forbidden(side.modifiers) {
            return Some(reason.into());
        }
        let situation = Situation::in_duel(&duel.spec, role == Role::Initiator);
        if let Some(token) = self.token_with_effect(
            side.model,
            Window::Cheating,
            situation,
            Effect::ForbidCheating,
        ) {
            return Some(
                format!("{}: this action cannot be cheated", self.token_name(token)).into(),
            );
        }
        if self.state.player(side.seat).hand.is_empty() {
            return Some("the hand is empty".into());
        }
        None
    }

    pub(super) fn legal_triggers(&self, role: Role) -> Result<Vec<TriggerSpec>, RuleError> {
        let duel = self.duel()?;
        let side = self.side(role)?;
        let forbidden = self
            .token_with_effect(
                side.model,
                Window::DeclaringTriggers,
                Situation::default(),
                Effect::ForbidTriggers,
            )
            .is_some();
        if side.relented || forbidden {
            return Ok(Vec::new());
        }
        let list = match role {
            Role::Initiator => &duel.spec.triggers,
            Role::Resister => &duel.spec.resist_triggers,
        };
        let suits = side.all_suits();
        let soulstones = self.state.player(side.seat).soulstones;
        Ok(list
            .iter()
            .filter(|t| suits.contains_all(t.suits) && u16::from(t.soulstones) <= soulstones)
            .cloned()
            .collect())
    }

    /// Runs the duel's automatic steps; false when a decision is awaited.
    /// The step itself moves on as facts are applied (`state::apply`).
    pub(super) fn advance_duel(&mut self) -> Result<bool, RuleError> {
        let rules = &self.rules().duel;
        // Only the shape of the duel, not a copy of it: this runs at every step.
        let step = self.duel()?.step;
        match step {
            DuelStep::Relent { .. } | DuelStep::LookingAtTop { .. } => Ok(false),
            DuelStep::Modify { role } => {
                let side = self.side(role)?.clone();
                // Nothing to decide, judging only from what both players can see.
                let model = self.state.model(side.model);
                let situation = Situation::in_duel(&self.duel()?.spec, role == Role::Initiator);
                let tokens_usable = model.as_ref().is_some_and(|m| {
                    m.tokens
                        .iter()
                        .any(|(t, _)| self.book().spending(t, situation).is_some())
                });
                let other_options = match rules.boost {
                    DuelBoost::DiscardLowCard => {
                        !side.empowered && !self.state.player(side.seat).hand.is_empty()
                    }
                    DuelBoost::Soulstone => {
                        !side.soulstone_spent
                            && model.as_ref().is_some_and(|m| m.card.soulstone_user)
                            && self.state.player(side.seat).soulstones > 0
                    }
                };
                if !tokens_usable && !other_options {
                    self.emit(Event::FinishedModifying { role })?;
                    return Ok(true);
                }
                Ok(false)
            }
            DuelStep::Flip => {
                self.flip_all()?;
                Ok(true)
            }
            DuelStep::Choose { .. } => {
                if self.duel()?.choosing().is_some() {
                    return Ok(false);
                }
                // Every card is chosen: the totals so far, then cheating.
                self.announce(false)?;
                Ok(true)
            }
            DuelStep::Cheat { order, next } => {
                let role = order[usize::from(next)];
                if let Some(reason) = self.cheat_forbidden(role) {
                    self.emit(Event::CheatSkipped { role, reason })?;
                    return Ok(true);
                }
                Ok(false)
            }
            DuelStep::JokerSuit { role } => {
                let side = self.side(role)?;
                if side.card.is_some_and(|c| c.is_red_joker()) && !side.joker_suit_chosen {
                    return Ok(false);
                }
                self.announce(true)?;
                Ok(true)
            }
            DuelStep::Triggers { order, next } => {
                let role = order[usize::from(next)];
                if self.legal_triggers(role)?.is_empty() {
                    self.emit(Event::TriggerDeclined { role })?;
                    return Ok(true);
                }
                Ok(false)
            }
            DuelStep::Outcome => {
                self.resolve_duel()?;
                Ok(true)
            }
        }
    }

    /// The resister's stat as it stands, with the lasting abilities that
    /// changed it; in 3rd edition cover adds 1 to the Df of the model an
    /// attack targets (M3E line 2572).
    fn resisting_stat(
        &self,
        spec: &DuelSpec,
        model: ModelId,
        stat: crate::duel::Stat,
    ) -> (i16, Vec<crate::ability::FiredAbility>) {
        let (value, lasting) = self.stat_now(model, stat);
        let cover =
            self.rules().duel.cover_adds_defense && spec.cover && stat == crate::duel::Stat::Df;
        (value + i16::from(cover), lasting)
    }

    /// Step B: every side that did not relent flips.
    pub(super) fn flip_all(&mut self) -> Result<(), RuleError> {
        // The resisting stat counts as it is when the cards are flipped:
        // tokens gained or lost since the duel started (an ability's) count.
        let duel = self.duel()?;
        if let (Some(side), Some(stat)) = (duel.side(Role::Resister), duel.spec.resist_stat)
            && self.state.model(side.model).is_some()
        {
            let now = self.resisting_stat(&duel.spec, side.model, stat).0;
            if now != side.base {
                self.emit(Event::ResistStatChanged {
                    from: side.base,
                    to: now,
                })?;
            }
        }
        for role in self.duel()?.roles() {
            let side = self.side(role)?;
            if side.relented {
                continue;
            }
            let (seat, modifiers) = (side.seat, side.modifiers);
            let cards = self.reveal(seat, Some(role), reveal_count(modifiers))?;
            let allowed = allowed_choices(&cards, modifiers);
            if let [only] = allowed.as_slice() {
                self.choose(seat, Some(role), *only)?;
            }
        }
        self.emit(Event::DuelFlipped)
    }

    /// Announces the duel totals (`last`: the final totals, after cheating).
    pub(super) fn announce(&mut self, last: bool) -> Result<(), RuleError> {
        let duel = self.duel()?;
        let initiator = duel
            .side(Role::Initiator)
            .ok_or(RuleError::NothingPending)?;
        let (initiator_total, resister) = crate::duel::totals(duel);
        let announced = Event::TotalsAnnounced {
            initiator: initiator_total,
            initiator_suits: initiator.all_suits(),
            resister,
            resister_suits: duel.side(Role::Resister).map(Side::all_suits),
            last,
        };
        self.emit(announced)
    }

    /// Steps F and G: the outcome, the conflict cleared, damage queued.
    pub(super) fn resolve_duel(&mut self) -> Result<(), RuleError> {
        let duel = self.duel()?.clone();
        let spec = duel.spec.clone();
        if duel.side(Role::Initiator).is_none() {
            return Err(RuleError::NothingPending);
        }
        let outcome = crate::duel::outcome(&duel, &self.rules().duel);
        let success = outcome.success;
        self.emit(Event::DuelResolved { outcome })?;
        let mut cleared = Vec::new();
        for seat in Seat::BOTH {
            for card in self.state.player(seat).conflict.as_slice() {
                cleared.push((seat, *card));
            }
        }
        if !cleared.is_empty() {
            self.emit(Event::ConflictCleared { cards: cleared })?;
        }
        if success {
            self.queue_action_damage(&duel, &outcome)?;
        }
        // Tokens that end with the action.
        let situation = Situation::in_duel(&spec, true);
        self.open_window(spec.initiator, None, Window::DuelEnded, situation)?;
        self.emit(Event::DuelEnded)
    }

    pub(super) fn queue_action_damage(
        &mut self,
        duel: &Duel,
        outcome: &Outcome,
    ) -> Result<(), RuleError> {
        // A strike at a disengaging model shortens its push instead.
        if self.strike_succeeded(outcome.margin)? {
            return Ok(());
        }
        let rules = &self.rules().duel;
        let spec = &duel.spec;
        if let Some(marker) = self.damages_enemies_touching(spec) {
            return self.damage_enemies_touching(duel, outcome, &marker);
        }
        let Some(target) = spec.damaged_model() else {
            return Ok(());
        };
        let initiator = duel.side(Role::Initiator).cloned();
        let attacker_seat = initiator.as_ref().map(|s| s.seat);
        let declared = declared_triggers(duel);
        let infuse_on_kill = declared
            .iter()
            .any(|t| t.effect == TriggerEffect::InfuseOnKill)
            .then_some(attacker_seat)
            .flatten();
        let batch = self.batch();
        let (credit, credit_crew) = self.kill_credit(spec);
        // "When resolving" effects on the target.
        let acting_crew = spec
            .controller
            .or_else(|| self.state.model(spec.initiator).map(|m| m.owner));
        // Tokens from triggers that resolve with the damage; the others
        // come once the action's damage is done (`after_succeeding`).
        for trigger in declared.iter().filter(|t| t.timing.with_the_damage()) {
            if let TriggerEffect::TargetGainsToken { token } = trigger.effect {
                self.gain_token(target, token, 1, acting_crew)?;
            }
        }
        let effects: Vec<TriggerEffect> = declared.iter().map(|t| t.effect).collect();
        self.generate_actions(&effects, target)?;
        if let Some(amount) = damage_amount(spec.damage) {
            let mut additions: Vec<(String, u8)> = declared
                .iter()
                .filter_map(|t| match t.effect {
                    TriggerEffect::AddDamage { amount } => Some((t.name.clone(), amount)),
                    _ => None,
                })
                .collect();
            // The attacker's tokens that add to a successful attack's damage.
            let situation = Situation::in_duel(spec, true);
            for (token, effect) in
                self.open_window(spec.initiator, None, Window::AddingDamage, situation)?
            {
                if let Effect::AddDamage { by } = effect {
                    additions.push((self.token_name(token), by));
                }
            }
            let fired = self.fired(
                spec.initiator,
                AbilityWindow::AddingDamage,
                situation,
                Some(target),
            );
            for (name, effect) in self.damage_changes(&fired) {
                if let AbilityEffect::AddDamage { by } = effect {
                    additions.push((name.to_string(), by));
                }
            }
            // The rest of these abilities resolves in card order: the
            // damage is being worked out and cannot wait for a choice.
            for fired in fired {
                self.resolve_ability(fired)?;
            }
            let mut modifiers = 0;
            if rules.damage_flips() {
                if spec.is_opposed() {
                    modifiers += accuracy(outcome.margin);
                }
                if let Some(side) = initiator.as_ref() {
                    modifiers += self.book().damage_flip_modifier(&side.spent);
                }
                if spec.cover {
                    modifiers -= 1;
                }
            }
            let raises = if rules.raises_add_damage(spec.kind) {
                outcome.raises
            } else {
                0
            };
            self.queue(DamageInstance {
                target,
                source: if spec.action.is_empty() {
                    "the action".into()
                } else {
                    spec.action.clone()
                },
                credit,
                credit_crew,
                attacker: attacker_seat,
                amount,
                modifiers,
                raises,
                additions,
                tie: rules.tie_reduces_damage && outcome.tie,
                cover: rules.cover_reduces_damage && spec.cover,
                irreducible: spec.irreducible,
                ignores: spec.ignores.clone(),
                infuse_on_kill,
                batch,
                from_ability: false,
            })?;
        }
        // Instance damage from triggers follows the action's own damage.
        for trigger in &declared {
            if let TriggerEffect::InstanceDamage { amount } = trigger.effect {
                self.queue(DamageInstance {
                    target,
                    source: trigger.name.clone(),
                    credit,
                    credit_crew,
                    attacker: attacker_seat,
                    amount: DamageAmount::Fixed { amount },
                    modifiers: 0,
                    raises: 0,
                    additions: Vec::new(),
                    tie: false,
                    cover: rules.cover_reduces_damage && spec.cover,
                    irreducible: spec.irreducible,
                    ignores: spec.ignores.clone(),
                    infuse_on_kill,
                    batch: batch + 1,
                    from_ability: false,
                })?;
            }
        }
        Ok(())
    }

    /// Who Killed Whom, 1a: an enemy-controlled model earns no credit;
    /// the crew controlling it does.
    fn kill_credit(&self, spec: &DuelSpec) -> (Option<ModelId>, Option<Seat>) {
        match spec.controller {
            Some(crew) if Some(crew) != self.state.model(spec.initiator).map(|m| m.owner) => {
                (None, Some(crew))
            }
            _ => (Some(spec.initiator), None),
        }
    }

    /// The marker whose touching enemies the action's damage goes to, if
    /// its card says so.
    fn damages_enemies_touching(&self, spec: &DuelSpec) -> Option<String> {
        self.state
            .model(spec.initiator)?
            .card
            .actions
            .iter()
            .find(|a| *a.name == *spec.action)?
            .damages_enemies_touching
            .clone()
    }

    /// The action's damage (with its raises and declared triggers' added
    /// damage), dealt at the same moment to every enemy model in base
    /// contact with a marker called `marker`, sight lines aside.
    fn damage_enemies_touching(
        &mut self,
        duel: &Duel,
        outcome: &Outcome,
        marker: &str,
    ) -> Result<(), RuleError> {
        let spec = &duel.spec;
        let Some(amount) = damage_amount(spec.damage) else {
            return Ok(());
        };
        let Some(acting_crew) = spec
            .controller
            .or_else(|| self.state.model(spec.initiator).map(|m| m.owner))
        else {
            return Ok(());
        };
        let touching = crate::table::measure::models_touching_markers_named(
            &Board::new(&self.state.table(), self.state.edition),
            marker,
            |seat| seat != acting_crew,
        );
        let victims: Vec<ModelId> = self
            .state
            .models
            .iter()
            .map(|m| m.id)
            .filter(|id| touching.contains(&id.object()))
            .collect();
        let initiator = duel.side(Role::Initiator).cloned();
        let additions: Vec<(String, u8)> = declared_triggers(duel)
            .into_iter()
            .filter_map(|t| match t.effect {
                TriggerEffect::AddDamage { amount } => Some((t.name, amount)),
                _ => None,
            })
            .collect();
        let raises = if self.rules().duel.raises_add_damage(spec.kind) {
            outcome.raises
        } else {
            0
        };
        let (credit, credit_crew) = self.kill_credit(spec);
        let batch = self.batch();
        for victim in victims {
            self.queue(DamageInstance {
                credit,
                credit_crew,
                attacker: initiator.as_ref().map(|s| s.seat),
                amount,
                raises,
                additions: additions.clone(),
                irreducible: spec.irreducible,
                ignores: spec.ignores.clone(),
                ..DamageInstance::fixed(victim, spec.action.clone(), 0, false, batch)
            })?;
        }
        Ok(())
    }
}

pub(super) fn choice_reason(revealed: &[Card], modifiers: i8) -> String {
    if revealed.iter().any(|c| c.is_black_joker()) {
        "the Black Joker must be used".into()
    } else if modifiers < 0 {
        "with a negative modifier the lowest card must be used (or the Red Joker)".into()
    } else {
        "choose one of the revealed cards".into()
    }
}

/// The initiator's declared trigger, as the duel's spec lists it.
fn declared_triggers(duel: &Duel) -> Vec<TriggerSpec> {
    match duel.side(Role::Initiator).and_then(|s| s.trigger.clone()) {
        Some(name) => duel
            .spec
            .triggers
            .iter()
            .filter(|t| *t.name == *name)
            .cloned()
            .collect(),
        None => Vec::new(),
    }
}

/// An action's damage profile as the amount its damage instance deals.
fn damage_amount(profile: DamageProfile) -> Option<DamageAmount> {
    match profile {
        DamageProfile::None => None,
        DamageProfile::Fixed { amount } => Some(DamageAmount::Fixed { amount }),
        DamageProfile::Flip {
            weak,
            moderate,
            severe,
            blasts,
        } => Some(DamageAmount::Flip {
            weak,
            moderate,
            severe,
            blasts,
        }),
    }
}
