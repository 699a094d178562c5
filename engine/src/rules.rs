//! `decide`: checks a command against the rules and works out every event
//! it causes, running the automatic steps that follow until the game waits
//! for a decision again. It applies each event with `apply` as it goes (on a
//! copy for `decide`, in place for `execute`), so the events alone reproduce
//! the state.

use std::sync::Arc;

use super::Seat;
use super::command::{Boost, FlowCommand, PlayerCommand, Submission};
use super::damage::{
    DamageAmount, DamageInstance, DamageProgress, DamageStage, accuracy, band, flip_damage,
};
use super::duel::{DamageProfile, Duel, DuelStep, Outcome, Role, Side, TriggerEffect, TriggerSpec};
use super::error::RuleError;
use super::event::{DamageReport, Event};
use super::fate::Card;
use super::flip::{RevealedCards, allowed_choices, reveal_count};
use super::hidden::Hidden;
use super::limits::{
    MAX_DRAW, MAX_EVENTS_PER_COMMAND, MAX_FRAMES, MAX_QUEUED_DAMAGE, MAX_REVEALED, MAX_TOKEN_VALUE,
};
use super::model::{ModelId, Token, Tokens};
use super::ruleset::{self, DuelBoost, Effect, RuleSet, Situation, TokenGain, Window};
use super::state::{Frame, GameState, apply};

/// See the module documentation.
pub fn decide(state: &GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    check_version(state, submission)?;
    let mut scratch = state.clone();
    work_out(&mut scratch, submission)
}

/// See [`super::execute`].
pub fn execute(state: &mut GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    check_version(state, submission)?;
    // Worked out in place; a refusal part way puts the state back as it was.
    let before = state.clone();
    match work_out(state, submission) {
        Ok(events) => Ok(events),
        Err(refusal) => {
            *state = before;
            Err(refusal)
        }
    }
}

fn check_version(state: &GameState, submission: &Submission) -> Result<(), RuleError> {
    if submission.version() != state.version {
        return Err(RuleError::StaleVersion {
            made_for: submission.version(),
            current: state.version,
        });
    }
    Ok(())
}

/// Runs the command and the automatic steps after it on `state`, which is
/// left part way on a refusal (the callers own a copy to go back to).
fn work_out(state: &mut GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    let mut sim = Sim {
        state,
        // A duel step causes a handful of events: one allocation, no regrowth.
        events: Vec::with_capacity(8),
    };
    match submission {
        Submission::Player { seat, command, .. } => sim.player_command(*seat, command)?,
        Submission::Flow { command, .. } => sim.flow_command(command)?,
    }
    sim.advance()?;
    Ok(sim.events)
}

/// What modifying a duel reads of the model, without copying its name.
struct ModelFacts {
    id: ModelId,
    tokens: Tokens,
    soulstone_user: bool,
}

/// The innermost frame a command arrives in, without the parts it does not need.
enum FrameNow {
    None,
    Contributions,
    Duel(DuelStep),
    Damage(DamageStage),
    HandLimit(Seat),
}

struct Sim<'a> {
    state: &'a mut GameState,
    events: Vec<Event>,
}

fn refuse<T>(reason: impl Into<String>) -> Result<T, RuleError> {
    Err(RuleError::not_allowed(reason))
}

impl Sim<'_> {
    fn emit(&mut self, event: Event) -> Result<(), RuleError> {
        if self.events.len() >= MAX_EVENTS_PER_COMMAND {
            return Err(RuleError::Limit {
                reason: "one command caused too many events".into(),
            });
        }
        apply(self.state, &event);
        self.events.push(event);
        Ok(())
    }

    /// The rules of the game's edition.
    fn rules(&self) -> &'static dyn RuleSet {
        ruleset::rules(self.state.edition)
    }

    /// Opens a timing window for `model`'s tokens: the effects that change
    /// the game (fate modifiers on `role`, tokens removed) happen now; the
    /// others (what is forbidden, damage added or reduced) are returned for
    /// the procedure to use.
    fn open_window(
        &mut self,
        model: ModelId,
        role: Option<Role>,
        window: Window,
        situation: Situation,
    ) -> Result<Vec<(Token, Effect)>, RuleError> {
        let Some(tokens) = self.state.model(model).map(|m| m.tokens) else {
            return Ok(Vec::new());
        };
        let mut rest = Vec::new();
        for (token, effect) in self.rules().effects_at(&tokens, window, situation) {
            match (effect, role) {
                (Effect::Remove { by }, _) => {
                    let by = if by == 0 { tokens.value(token) } else { by };
                    self.emit(Event::TokenRemoved { model, token, by })?;
                }
                (Effect::FateModifier(amount), Some(role)) => self.emit(Event::ModifierAdded {
                    role,
                    amount,
                    source: token.name().into(),
                })?,
                (effect, _) => rest.push((token, effect)),
            }
        }
        Ok(rest)
    }

    /// Whether `model`'s tokens have `wanted` at `window`, without acting.
    fn token_effect(
        &self,
        model: ModelId,
        window: Window,
        situation: Situation,
        wanted: impl Fn(&Effect) -> bool,
    ) -> Option<Effect> {
        let tokens = self.state.model(model)?.tokens;
        self.rules()
            .effects_at(&tokens, window, situation)
            .into_iter()
            .map(|(_, effect)| effect)
            .find(|effect| wanted(effect))
    }

    fn duel(&self) -> Result<&Duel, RuleError> {
        self.state.duel().ok_or(RuleError::NothingPending)
    }

    fn side(&self, role: Role) -> Result<&Side, RuleError> {
        self.duel()?.side(role).ok_or(RuleError::NothingPending)
    }

    fn require_seat(by: Seat, seat: Seat) -> Result<(), RuleError> {
        if by == seat {
            Ok(())
        } else {
            Err(RuleError::NotYourTurn {
                waiting_for: seat.label().into(),
            })
        }
    }

    fn model_owner(&self, id: ModelId) -> Result<Seat, RuleError> {
        self.state
            .model(id)
            .map(|m| m.owner)
            .ok_or_else(|| RuleError::invalid(format!("there is no model {}", id.0)))
    }

    fn model_name(&self, id: ModelId) -> &str {
        self.state.model(id).map_or("the model", |m| m.name())
    }

    // ------------------------------------------------------------ commands

    fn player_command(&mut self, seat: Seat, command: &PlayerCommand) -> Result<(), RuleError> {
        if self.state.ended {
            return Err(RuleError::GameOver);
        }
        // Only what the command needs is read out of the innermost frame:
        // the command then changes the state it was read from.
        let frame = match self.state.frame() {
            None => FrameNow::None,
            Some(Frame::Contributions) => FrameNow::Contributions,
            Some(Frame::Duel { duel }) => FrameNow::Duel(duel.step),
            Some(Frame::Damage { progress }) => FrameNow::Damage(progress.stage()),
            Some(Frame::HandLimit { seat }) => FrameNow::HandLimit(*seat),
        };
        match frame {
            FrameNow::Contributions => match command {
                PlayerCommand::Contribute { entropy } => {
                    if self.state.fairness.contributions[seat.index()].is_some() {
                        return refuse("you have already contributed your entropy");
                    }
                    self.emit(Event::Contributed {
                        seat,
                        entropy: *entropy,
                    })
                }
                _ => refuse("both players must first contribute entropy for the shuffles"),
            },
            FrameNow::Duel(step) => self.duel_command(seat, step, command),
            FrameNow::Damage(stage) => self.damage_command(seat, stage, command),
            FrameNow::HandLimit(over) => self.hand_limit_command(seat, over, command),
            FrameNow::None => match self.damage_order() {
                Some(owner) => self.damage_order_command(seat, owner, command),
                None => Err(RuleError::NothingPending),
            },
        }
    }

    fn hand_limit_command(
        &mut self,
        seat: Seat,
        over: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        Self::require_seat(seat, over)?;
        let PlayerCommand::DiscardDown { cards } = command else {
            return refuse("discard down to your maximum hand size first");
        };
        let excess = self
            .state
            .player(over)
            .hand
            .len()
            .saturating_sub(usize::from(self.state.edition.max_hand()));
        if cards.len() != excess {
            return refuse(format!("discard exactly {excess} card(s)"));
        }
        let mut distinct = cards.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() != cards.len() {
            return refuse("each card can only be discarded once");
        }
        for card in cards {
            if !self.state.player(over).hand.contains(*card) {
                return Err(RuleError::CardNotInHand {
                    seat: over,
                    card: card.to_string(),
                });
            }
        }
        self.emit(Event::Discarded {
            seat: over,
            cards: cards.clone(),
        })
    }

    fn flow_command(&mut self, command: &FlowCommand) -> Result<(), RuleError> {
        // The game flow's next step waits until every procedure has ended.
        let idle = self.state.frames.is_empty() && !self.state.ended;
        match command {
            FlowCommand::EndGame => {
                if self.state.ended {
                    return Err(RuleError::GameOver);
                }
                self.emit(Event::SeedRevealed {
                    seed: self.state.fairness.seed,
                })?;
                self.emit(Event::GameEnded)
            }
            _ if !idle => refuse("finish what is in progress first"),
            FlowCommand::StartDuel { spec } => self.start_duel(spec),
            FlowCommand::TakeAction {
                model,
                action,
                target,
            } => {
                let request = super::action::ActionRequest {
                    actor: *model,
                    action,
                    target: *target,
                };
                let spec = super::action::shared_duel_for(self.state, &request)?;
                self.start_duel(&spec)
            }
            FlowCommand::DealDamage {
                target,
                amount,
                irreducible,
                source,
                credit,
            } => {
                self.model_owner(*target)?;
                if let Some(credit) = credit {
                    self.model_owner(*credit)?;
                }
                let instance = DamageInstance {
                    target: *target,
                    source: if source.is_empty() {
                        "damage".into()
                    } else {
                        source.clone()
                    },
                    credit: *credit,
                    attacker: None,
                    amount: DamageAmount::Fixed { amount: *amount },
                    modifiers: 0,
                    raises: 0,
                    additions: Vec::new(),
                    tie: false,
                    cover: false,
                    irreducible: *irreducible,
                    infuse_on_kill: None,
                    batch: self.batch(),
                };
                self.queue(instance)
            }
            FlowCommand::Draw { seat, count } => {
                if *count > MAX_DRAW {
                    return Err(RuleError::Limit {
                        reason: format!("draw at most {MAX_DRAW} cards at once"),
                    });
                }
                for _ in 0..*count {
                    self.draw(*seat)?;
                }
                Ok(())
            }
            FlowCommand::GainToken {
                model,
                token,
                value,
            } => {
                self.model_owner(*model)?;
                if *value == 0 || *value > MAX_TOKEN_VALUE {
                    return refuse(format!("a token's value is 1–{MAX_TOKEN_VALUE}"));
                }
                self.gain_token(*model, *token, *value)
            }
            FlowCommand::ShuffleDiscards => {
                for seat in Seat::BOTH {
                    let cards =
                        self.state.player(seat).deck.len() + self.state.player(seat).discard.len();
                    let number = self.state.fairness.shuffles[seat.index()] + 1;
                    self.emit(Event::DeckShuffled {
                        seat,
                        number,
                        cards: cards as u8,
                        with_deck: true,
                    })?;
                }
                Ok(())
            }
            FlowCommand::NewActivation => self.emit(Event::ActivationStarted),
        }
    }

    fn batch(&self) -> u32 {
        u32::try_from(self.state.version).unwrap_or(u32::MAX)
    }

    fn queue(&mut self, instance: DamageInstance) -> Result<(), RuleError> {
        if self.state.damage_queue.len() >= MAX_QUEUED_DAMAGE {
            return Err(RuleError::Limit {
                reason: "too much damage is waiting to be resolved".into(),
            });
        }
        self.emit(Event::DamageQueued {
            instance: Box::new(instance),
        })
    }

    /// Gains a token, following the edition's one-per-name and cancelling rules.
    fn gain_token(&mut self, model: ModelId, token: Token, value: u8) -> Result<(), RuleError> {
        let Some(m) = self.state.model(model) else {
            return Ok(());
        };
        match self.rules().gain(&m.tokens, token, value) {
            TokenGain::Nothing => Ok(()),
            TokenGain::Gain { value } => self.emit(Event::TokenGained {
                model,
                token,
                value,
            }),
            TokenGain::Cancel { token, by } => self.emit(Event::TokenRemoved { model, token, by }),
        }
    }

    // ------------------------------------------------------------ cards

    /// Makes sure a deck has a card, reshuffling the discard pile if empty.
    fn ensure_deck(&mut self, seat: Seat) -> Result<bool, RuleError> {
        if !self.state.player(seat).deck.is_empty() {
            return Ok(true);
        }
        let discard = self.state.player(seat).discard.len();
        if discard == 0 {
            return Ok(false);
        }
        let number = self.state.fairness.shuffles[seat.index()] + 1;
        self.emit(Event::DeckShuffled {
            seat,
            number,
            cards: discard as u8,
            with_deck: false,
        })?;
        Ok(true)
    }

    fn draw(&mut self, seat: Seat) -> Result<(), RuleError> {
        if !self.ensure_deck(seat)? {
            return Ok(());
        }
        let card = match self.state.player(seat).deck.top() {
            Some(card) => Hidden::new(seat, card),
            None => Hidden::unknown(seat),
        };
        self.emit(Event::Drew { seat, card })
    }

    /// Reveals `count` cards from the top of a deck (reshuffling as needed).
    fn reveal(
        &mut self,
        seat: Seat,
        role: Option<Role>,
        count: usize,
    ) -> Result<RevealedCards, RuleError> {
        let count = count.min(MAX_REVEALED);
        let mut cards = RevealedCards::new();
        // One event per run of cards from the same deck; the deck is
        // reshuffled from the discard pile if it runs out part way.
        while cards.len() < count && self.ensure_deck(seat)? {
            let batch: RevealedCards = self
                .state
                .player(seat)
                .deck
                .top_down()
                .take(count - cards.len())
                .collect();
            for card in &batch {
                cards.push(*card);
            }
            self.emit(Event::Revealed {
                seat,
                role,
                cards: batch,
            })?;
        }
        Ok(cards)
    }

    /// Puts a revealed card in the conflict and discards the rest.
    fn choose(&mut self, seat: Seat, role: Option<Role>, card: Card) -> Result<(), RuleError> {
        let revealed: &[Card] = match role {
            Some(role) => &self.side(role)?.revealed,
            None => self.state.player(seat).revealed.as_slice(),
        };
        let rest: RevealedCards = revealed.iter().copied().filter(|c| *c != card).collect();
        self.emit(Event::CardChosen { seat, role, card })?;
        if !rest.is_empty() {
            self.emit(Event::RevealedDiscarded { seat, cards: rest })?;
        }
        Ok(())
    }

    // ------------------------------------------------------------ duels

    fn start_duel(&mut self, spec: &Arc<super::duel::DuelSpec>) -> Result<(), RuleError> {
        spec.validate().map_err(RuleError::invalid)?;
        self.push_check()?;
        let initiator = self
            .state
            .model(spec.initiator)
            .filter(|m| m.in_play())
            .ok_or_else(|| {
                RuleError::invalid(format!("model {} is not in play", spec.initiator.0))
            })?;
        let initiator_seat = initiator.owner;
        let (resister_seat, resister_base) = match (spec.resister, spec.resist_stat) {
            (Some(id), Some(stat)) => {
                let m = self
                    .state
                    .model(id)
                    .filter(|m| m.in_play())
                    .ok_or_else(|| RuleError::invalid(format!("model {} is not in play", id.0)))?;
                (Some(m.owner), Some(self.rules().stat(m, stat)))
            }
            _ => (None, None),
        };
        if let Some(target) = spec.target {
            self.model_owner(target)?;
        }
        self.emit(Event::DuelStarted {
            spec: Arc::clone(spec),
            initiator_seat,
            resister_seat,
            initiator_base: spec.skill,
            resister_base,
        })?;
        let situation = Situation {
            targets_enemy: spec.targets_enemy,
            is_initiator: true,
            opposed: spec.is_opposed(),
        };
        self.open_window(
            spec.initiator,
            Some(Role::Initiator),
            Window::DuelStarted,
            situation,
        )?;
        Ok(())
    }

    fn duel_command(
        &mut self,
        seat: Seat,
        step: DuelStep,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        match step {
            DuelStep::Relent { role } => {
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
                match command {
                    PlayerCommand::Relent => self.emit(Event::Relented { role }),
                    PlayerCommand::Resist => self.emit(Event::RelentDeclined { role }),
                    _ => refuse("first decide whether to relent"),
                }
            }
            DuelStep::Modify { role } => {
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
                self.modify(role, &side, command)
            }
            DuelStep::InsightTop { role } => {
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
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
            DuelStep::Choose { role } => {
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
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
            DuelStep::Cheat { order, next } => {
                let role = order[usize::from(next)];
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
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
            DuelStep::JokerSuit { role } => {
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
                let PlayerCommand::ChooseJokerSuit { suit } = command else {
                    return refuse("choose the Red Joker's suit (or none)");
                };
                self.emit(Event::JokerSuitChosen { role, suit: *suit })
            }
            DuelStep::Triggers { order, next } => {
                let role = order[usize::from(next)];
                let side = self.side(role)?.clone();
                Self::require_seat(seat, side.seat)?;
                match command {
                    PlayerCommand::DeclareTrigger { name } => {
                        let trigger = self
                            .legal_triggers(role)?
                            .into_iter()
                            .find(|t| &t.name == name)
                            .ok_or_else(|| RuleError::not_allowed(format!("{name} cannot be declared: its suits are not in the total, its soulstones cannot be paid, or it is not this duel's trigger")))?;
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

    fn modify(
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
                tokens: m.tokens,
                soulstone_user: m.card.soulstone_user,
            })
            .ok_or(RuleError::NothingPending)?;
        let opposed = self.duel()?.spec.is_opposed();
        match command {
            PlayerCommand::FinishModifying => self.emit(Event::FinishedModifying { role }),
            PlayerCommand::UseToken { token, suit } => {
                if !model.tokens.has(*token) {
                    return refuse(format!(
                        "{} has no {token:?} token",
                        self.model_name(model.id)
                    ));
                }
                if suit.is_some() && *token != Token::Adaptable {
                    return refuse(format!("only Adaptable takes a suit, not {token:?}"));
                }
                if !self.rules().usable_tokens(opposed).contains(token) {
                    return refuse(match token {
                        Token::Focused => {
                            "in 3rd edition Focused only helps opposed duels".to_string()
                        }
                        _ => format!("{token:?} is not used before a duel"),
                    });
                }
                match token {
                    Token::Focused => {
                        if side.used_focused {
                            return refuse("Focused can be used once per duel");
                        }
                        self.emit(Event::TokenUsed {
                            role,
                            model: model.id,
                            token: Token::Focused,
                        })?;
                        self.emit(Event::ModifierAdded {
                            role,
                            amount: 1,
                            source: "Focused".into(),
                        })
                    }
                    Token::Adaptable => {
                        let Some(suit) = suit else {
                            return refuse("name the suit Adaptable adds");
                        };
                        self.emit(Event::TokenUsed {
                            role,
                            model: model.id,
                            token: Token::Adaptable,
                        })?;
                        self.emit(Event::SuitAdded {
                            role,
                            suit: *suit,
                            source: "Adaptable".into(),
                        })
                    }
                    Token::Insight => {
                        if !self.ensure_deck(seat)? {
                            return refuse("there is no card to look at");
                        }
                        self.emit(Event::TokenUsed {
                            role,
                            model: model.id,
                            token: Token::Insight,
                        })?;
                        let card = match self.state.player(seat).deck.top() {
                            Some(card) => Hidden::new(seat, card),
                            None => Hidden::unknown(seat),
                        };
                        self.emit(Event::TopCardSeen { seat, card })
                    }
                    _ => refuse(format!("{token:?} is not used before a duel")),
                }
            }
            PlayerCommand::Empower { card } => {
                if self.rules().duel_boost() != DuelBoost::DiscardLowCard {
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
                if self.rules().duel_boost() != DuelBoost::Soulstone {
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

    /// Why a side may not cheat now (public reasons only), if it may not.
    fn cheat_forbidden(&self, role: Role) -> Option<&'static str> {
        let duel = self.state.duel()?;
        let side = duel.side(role)?;
        if side.relented {
            return Some("a relenting model does not cheat");
        }
        if side.cheat_decided {
            return Some("each player has one chance to cheat a duel");
        }
        if duel.spec.cannot_cheat {
            return Some("this duel cannot be cheated");
        }
        if side.flipped_black_joker {
            return Some("the Black Joker was flipped: it cannot be cheated");
        }
        let other = duel.side(match role {
            Role::Initiator => Role::Resister,
            Role::Resister => Role::Initiator,
        });
        if other.is_some_and(|o| o.flipped_red_joker) {
            return Some("the opponent flipped the Red Joker: no cheating");
        }
        if let Some(reason) = self.rules().cheat_forbidden(side.modifiers) {
            return Some(reason);
        }
        let situation = Situation {
            targets_enemy: duel.spec.targets_enemy,
            is_initiator: role == Role::Initiator,
            opposed: duel.spec.is_opposed(),
        };
        if let Some(Effect::ForbidCheating(reason)) =
            self.token_effect(side.model, Window::Cheating, situation, |e| {
                matches!(e, Effect::ForbidCheating(_))
            })
        {
            return Some(reason);
        }
        if self.state.player(side.seat).hand.is_empty() {
            return Some("the hand is empty");
        }
        None
    }

    fn legal_triggers(&self, role: Role) -> Result<Vec<TriggerSpec>, RuleError> {
        let duel = self.duel()?;
        let side = self.side(role)?;
        let stunned = self
            .token_effect(
                side.model,
                Window::DeclaringTriggers,
                Situation::default(),
                |e| *e == Effect::ForbidTriggers,
            )
            .is_some();
        if side.relented || stunned {
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
    fn advance_duel(&mut self) -> Result<bool, RuleError> {
        let rules = self.rules();
        // Only the shape of the duel, not a copy of it: this runs at every step.
        let (step, opposed) = {
            let duel = self.duel()?;
            (duel.step, duel.spec.is_opposed())
        };
        match step {
            DuelStep::Relent { .. } | DuelStep::InsightTop { .. } => Ok(false),
            DuelStep::Modify { role } => {
                let side = self.side(role)?.clone();
                // Nothing to decide, judging only from what both players can see.
                let model = self.state.model(side.model);
                let tokens_usable = model.as_ref().is_some_and(|m| {
                    rules
                        .usable_tokens(opposed)
                        .iter()
                        .any(|t| m.tokens.has(*t))
                });
                let other_options = match rules.duel_boost() {
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
                    self.emit(Event::CheatSkipped {
                        role,
                        reason: reason.into(),
                    })?;
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

    /// Step B: every side that did not relent flips.
    fn flip_all(&mut self) -> Result<(), RuleError> {
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
    fn announce(&mut self, last: bool) -> Result<(), RuleError> {
        let duel = self.duel()?;
        let initiator = duel
            .side(Role::Initiator)
            .ok_or(RuleError::NothingPending)?;
        let (initiator_total, resister) = totals(duel);
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
    fn resolve_duel(&mut self) -> Result<(), RuleError> {
        let duel = self.duel()?.clone();
        let spec = duel.spec.clone();
        let initiator = duel
            .side(Role::Initiator)
            .ok_or(RuleError::NothingPending)?
            .clone();
        let (initiator_total, resister_total) = totals(&duel);
        let meets_tn = spec.tn.is_none_or(|tn| initiator_total >= tn)
            && initiator.all_suits().contains_all(spec.tn_suits);
        let beats_resister = resister_total.is_none_or(|r| initiator_total >= r);
        let relented_simple = initiator.relented;
        let success = meets_tn && beats_resister && !relented_simple;
        let tie = success && resister_total == Some(initiator_total);
        let raises = if success {
            let baseline = match (resister_total, spec.tn) {
                (Some(r), Some(tn)) => r.max(tn),
                (Some(r), None) => r,
                (None, Some(tn)) => tn,
                (None, None) => initiator_total,
            };
            self.rules().raises(
                initiator_total - baseline,
                duel.raise_value,
                initiator.flipped_red_joker,
            )
        } else {
            0
        };
        let outcome = Outcome {
            success,
            initiator_total,
            resister_total,
            tie,
            raises,
            margin: resister_total.map(|r| initiator_total - r).unwrap_or(0),
        };
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
        let situation = Situation {
            targets_enemy: spec.targets_enemy,
            is_initiator: true,
            opposed: spec.is_opposed(),
        };
        self.open_window(spec.initiator, None, Window::DuelEnded, situation)?;
        self.emit(Event::DuelEnded)
    }

    fn queue_action_damage(&mut self, duel: &Duel, outcome: &Outcome) -> Result<(), RuleError> {
        let rules = self.rules();
        let spec = &duel.spec;
        let Some(target) = spec.damaged_model() else {
            return Ok(());
        };
        let initiator = duel.side(Role::Initiator).cloned();
        let attacker_seat = initiator.as_ref().map(|s| s.seat);
        let declared: Vec<TriggerSpec> = match initiator.as_ref().and_then(|s| s.trigger.clone()) {
            Some(name) => spec
                .triggers
                .iter()
                .filter(|t| *t.name == *name)
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        let infuse_on_kill = declared
            .iter()
            .any(|t| t.effect == TriggerEffect::InfuseOnKill)
            .then_some(attacker_seat)
            .flatten();
        let batch = self.batch();
        // "When resolving" effects on the target.
        for trigger in &declared {
            if let TriggerEffect::TargetGainsToken { token } = trigger.effect {
                self.gain_token(target, token, 1)?;
            }
        }
        let amount = match spec.damage {
            DamageProfile::None => None,
            DamageProfile::Fixed { amount } => Some(DamageAmount::Fixed { amount }),
            DamageProfile::Flip {
                weak,
                moderate,
                severe,
            } => Some(DamageAmount::Flip {
                weak,
                moderate,
                severe,
            }),
        };
        if let Some(amount) = amount {
            let mut additions: Vec<(String, u8)> = declared
                .iter()
                .filter_map(|t| match t.effect {
                    TriggerEffect::AddDamage { amount } => Some((t.name.clone(), amount)),
                    _ => None,
                })
                .collect();
            // The attacker's tokens that add to a successful attack's damage.
            let situation = Situation {
                targets_enemy: spec.targets_enemy,
                is_initiator: true,
                opposed: spec.is_opposed(),
            };
            for (token, effect) in
                self.open_window(spec.initiator, None, Window::AddingDamage, situation)?
            {
                if let Effect::AddDamage(amount) = effect {
                    additions.push((token.name().into(), amount));
                }
            }
            let mut modifiers = 0;
            if rules.damage_flips() {
                if spec.is_opposed() {
                    modifiers += accuracy(outcome.margin);
                }
                if initiator.as_ref().is_some_and(|s| s.used_focused) {
                    modifiers += 1;
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
                credit: Some(spec.initiator),
                attacker: attacker_seat,
                amount,
                modifiers,
                raises,
                additions,
                tie: rules.tie_reduces_damage() && outcome.tie,
                cover: rules.cover_reduces_damage() && spec.cover,
                irreducible: spec.irreducible,
                infuse_on_kill,
                batch,
            })?;
        }
        // Instance damage from triggers follows the action's own damage.
        for trigger in &declared {
            if let TriggerEffect::InstanceDamage { amount } = trigger.effect {
                self.queue(DamageInstance {
                    target,
                    source: trigger.name.clone(),
                    credit: Some(spec.initiator),
                    attacker: attacker_seat,
                    amount: DamageAmount::Fixed { amount },
                    modifiers: 0,
                    raises: 0,
                    additions: Vec::new(),
                    tie: false,
                    cover: rules.cover_reduces_damage() && spec.cover,
                    irreducible: spec.irreducible,
                    infuse_on_kill,
                    batch: batch + 1,
                })?;
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------ damage

    fn damage_command(
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
        let attacker = progress.instance.attacker.unwrap_or(target_owner);
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
            DamageStage::FlipChoose => {
                Self::require_seat(seat, attacker)?;
                let PlayerCommand::ChooseCard { card } = command else {
                    return refuse("choose the damage flip's card");
                };
                let revealed = self.state.player(attacker).revealed.as_slice().to_vec();
                if !allowed_choices(&revealed, progress.flip_modifiers).contains(*card) {
                    return refuse(choice_reason(&revealed, progress.flip_modifiers));
                }
                self.choose(attacker, None, *card)
            }
            DamageStage::FlipCheat => {
                Self::require_seat(seat, attacker)?;
                match command {
                    PlayerCommand::Cheat { card } => {
                        if !self.state.player(attacker).hand.contains(*card) {
                            return Err(RuleError::CardNotInHand {
                                seat,
                                card: card.to_string(),
                            });
                        }
                        let Some(out) = progress.card else {
                            return refuse("there is no card to replace");
                        };
                        self.emit(Event::Cheated {
                            seat,
                            role: None,
                            card_in: *card,
                            card_out: out,
                        })
                    }
                    PlayerCommand::DeclineCheat => self.emit(Event::CheatDeclined { role: None }),
                    _ => refuse("cheat the damage flip or decline"),
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
                        })
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
    fn damage_order(&self) -> Option<Seat> {
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

    fn damage_order_command(
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
    fn start_next_damage(&mut self) -> Result<bool, RuleError> {
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

    fn begin_damage(&mut self, target: ModelId, batch: u32) -> Result<(), RuleError> {
        self.push_check()?;
        self.emit(Event::DamageResolving { target, batch })?;
        if self.state.model(target).is_none_or(|m| !m.in_play()) {
            // The target left play: the damage does nothing.
            return self.emit(Event::DamageFizzled { target });
        }
        Ok(())
    }

    /// Runs the damage timing's automatic steps; false when a decision is awaited.
    fn advance_damage(&mut self) -> Result<bool, RuleError> {
        let progress = self
            .state
            .damage()
            .ok_or(RuleError::NothingPending)?
            .clone();
        let target = progress.instance.target;
        let target_model = self.state.model(target).cloned();
        let owner = target_model.as_ref().map_or(Seat::A, |m| m.owner);
        let attacker = progress.instance.attacker.unwrap_or(Seat::A);
        let can_spend = target_model.as_ref().is_some_and(|m| m.card.soulstone_user)
            && self.state.player(owner).soulstones > 0;
        match progress.stage() {
            DamageStage::Block => {
                if can_spend && !progress.block_decided {
                    return Ok(false);
                }
                self.damage_flip(&progress)?;
                Ok(true)
            }
            DamageStage::FlipChoose => {
                let revealed = self.state.player(attacker).revealed.as_slice().to_vec();
                let allowed = allowed_choices(&revealed, progress.flip_modifiers);
                match allowed.as_slice() {
                    [] => {
                        // No card could be flipped: no damage.
                        self.emit(Event::DamageFlipEnded { base: 0, dealt: 0 })?;
                        Ok(true)
                    }
                    [only] => {
                        self.choose(attacker, None, *only)?;
                        Ok(true)
                    }
                    _ => Ok(false),
                }
            }
            DamageStage::FlipCheat => {
                let black = progress.card.is_some_and(|c| c.is_black_joker());
                let may_cheat = progress.flip_modifiers >= 0
                    && !black
                    && !self.state.player(attacker).hand.is_empty();
                if may_cheat && !progress.cheat_decided {
                    return Ok(false);
                }
                self.end_damage_flip(&progress)?;
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
                let may_reduce = self.rules().soulstones_reduce_damage()
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
    fn damage_flip(&mut self, progress: &DamageProgress) -> Result<(), RuleError> {
        let attacker = progress.instance.attacker.unwrap_or(Seat::A);
        self.emit(Event::DamageFlipStarted {
            seat: attacker,
            target: progress.instance.target,
            modifiers: progress.flip_modifiers,
        })?;
        self.reveal(attacker, None, reveal_count(progress.flip_modifiers))?;
        Ok(())
    }

    /// The damage flip's card gives the damage.
    fn end_damage_flip(&mut self, progress: &DamageProgress) -> Result<(), RuleError> {
        let attacker = progress.instance.attacker.unwrap_or(Seat::A);
        let (mut base, mut dealt) = (0, 0);
        if let (
            DamageAmount::Flip {
                weak,
                moderate,
                severe,
            },
            Some(card),
        ) = (progress.instance.amount, progress.card)
        {
            base = flip_damage(card, weak, moderate, severe);
            // The Black Joker's nothing cannot be raised by anything.
            let additions: u8 = if card.is_black_joker() {
                0
            } else {
                progress.instance.additions.iter().map(|(_, a)| *a).sum()
            };
            dealt = base.saturating_add(additions);
            self.emit(Event::ConflictCleared {
                cards: vec![(attacker, card)],
            })?;
        }
        self.emit(Event::DamageFlipEnded { base, dealt })
    }

    /// The next optional reduction the damaged model could use, if any.
    fn optional_reduction(&self, progress: &DamageProgress) -> Option<usize> {
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
                    && u16::from(r.soulstones) <= soulstones
                    && !(r.once_per_activation && model.reductions_used.contains(&(*index as u8)))
            })
            .map(|(index, _)| index)
    }

    /// Damage timing step 3 after the optional reductions, in this order:
    /// cover and named reductions (not below 1), the tie (not below 0),
    /// Shielded (not below 0). Irreducible damage skips it.
    fn automatic_reductions(&mut self, progress: &DamageProgress) -> Result<(), RuleError> {
        let target = progress.instance.target;
        let mut amount = progress.amount;
        let mut reductions: Vec<(String, u8)> = Vec::new();
        if !progress.instance.irreducible && amount > 0 {
            let model = self.state.model(target).cloned();
            if progress.instance.cover {
                let before = amount;
                amount = floor_one(amount, 1);
                reductions.push(("cover".into(), before - amount));
            }
            if let Some(model) = &model {
                for (index, reduction) in model.card.reductions.iter().enumerate() {
                    let used = reduction.once_per_activation
                        && model.reductions_used.contains(&(index as u8));
                    if reduction.optional || used || amount == 0 {
                        continue;
                    }
                    let before = amount;
                    amount = if reduction.can_reach_zero {
                        amount.saturating_sub(reduction.amount)
                    } else {
                        floor_one(amount, reduction.amount)
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
            if progress.instance.tie {
                let before = amount;
                amount = amount.saturating_sub(1);
                reductions.push(("tie".into(), before - amount));
            }
            // The damaged model's tokens that reduce damage (Shielded).
            if amount > 0 {
                let effects =
                    self.open_window(target, None, Window::ReducingDamage, Situation::default())?;
                for (token, effect) in effects {
                    if let Effect::ReduceDamage(by) = effect {
                        let before = amount;
                        amount = amount.saturating_sub(by);
                        reductions.push((token.name().into(), before - amount));
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
    fn suffer(&mut self) -> Result<(), RuleError> {
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
        let Some(model) = self.state.model(target).cloned() else {
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
            self.killed(target, &progress.instance)?;
        }
        Ok(())
    }

    /// The killed timing.
    fn killed(&mut self, target: ModelId, instance: &DamageInstance) -> Result<(), RuleError> {
        let leaves_something = self.rules().killing_infuses_and_leaves_remains();
        let Some(model) = self.state.model(target).cloned() else {
            return Ok(());
        };
        // 1. Heal or replace: a model healed above 0 is no longer killed.
        if let Some(health) = model.card.rebirth_health {
            let to = health.min(model.card.max_health);
            if to > 0 {
                return self.emit(Event::HealthChanged {
                    model: target,
                    from: 0,
                    to,
                });
            }
        }
        // 2. After-killing triggers.
        if let Some(seat) = instance.infuse_on_kill {
            self.emit(Event::SoulstoneInfused { seat })?;
        }
        // 3. Other effects after being killed (Demise): damage queued for later.
        if let Some(demise) = &model.card.demise {
            let batch = self.batch();
            for victim in &demise.targets {
                if self.state.model(*victim).is_some_and(|m| m.in_play()) {
                    self.queue(DamageInstance {
                        target: *victim,
                        source: demise.name.clone(),
                        credit: Some(target),
                        attacker: Some(model.owner),
                        amount: DamageAmount::Fixed {
                            amount: demise.damage,
                        },
                        modifiers: 0,
                        raises: 0,
                        additions: Vec::new(),
                        tie: false,
                        cover: false,
                        irreducible: demise.irreducible,
                        infuse_on_kill: None,
                        batch,
                    })?;
                }
            }
        }
        // 4. The owner infuses a soulstone (4th edition; never peons, nor a
        // model whose tokens say so: Summon).
        let no_soulstone = self
            .token_effect(target, Window::Killed, Situation::default(), |e| {
                *e == Effect::NoSoulstoneOnDeath
            })
            .is_some();
        if leaves_something && model.card.infuses_on_death && !model.card.peon && !no_soulstone {
            self.emit(Event::SoulstoneInfused { seat: model.owner })?;
        }
        // 5. Remains (4th edition; peons leave none).
        if leaves_something && !model.card.peon {
            self.emit(Event::RemainsDropped { model: target })?;
        }
        // 6. Removed from the game.
        self.emit(Event::ModelKilled {
            model: target,
            credit: instance.credit,
        })
    }

    // ------------------------------------------------------------ the loop

    /// Runs automatic steps until the game waits for a decision (or for
    /// its flow's next command). The innermost frame moves on first.
    fn advance(&mut self) -> Result<(), RuleError> {
        for _ in 0..MAX_EVENTS_PER_COMMAND {
            if self.state.ended {
                return Ok(());
            }
            let progressed = match self.state.frame() {
                Some(Frame::Contributions) => self.advance_contributions()?,
                Some(Frame::Duel { .. }) => self.advance_duel()?,
                Some(Frame::Damage { .. }) => self.advance_damage()?,
                Some(Frame::HandLimit { .. }) => false,
                None => {
                    if !self.state.damage_queue.is_empty() {
                        self.start_next_damage()?
                    } else if let Some(seat) = self.over_hand_limit() {
                        let excess = self.state.player(seat).hand.len()
                            - usize::from(self.state.edition.max_hand());
                        self.push_check()?;
                        self.emit(Event::HandOverLimit {
                            seat,
                            excess: excess as u8,
                        })?;
                        true
                    } else {
                        false
                    }
                }
            };
            if !progressed {
                return Ok(());
            }
        }
        Err(RuleError::Limit {
            reason: "the game did not settle".into(),
        })
    }

    /// Both players' entropy is in: the first shuffles, and play begins.
    fn advance_contributions(&mut self) -> Result<bool, RuleError> {
        if !self
            .state
            .fairness
            .contributions
            .iter()
            .all(Option::is_some)
        {
            return Ok(false);
        }
        for seat in Seat::BOTH {
            let number = self.state.fairness.shuffles[seat.index()] + 1;
            let cards = self.state.player(seat).deck.len() + self.state.player(seat).discard.len();
            self.emit(Event::DeckShuffled {
                seat,
                number,
                cards: cards as u8,
                with_deck: true,
            })?;
        }
        self.emit(Event::ContributionsComplete)?;
        Ok(true)
    }

    /// A procedure may start only while the stack has room.
    fn push_check(&self) -> Result<(), RuleError> {
        if self.state.frames.len() >= MAX_FRAMES {
            return Err(RuleError::Limit {
                reason: format!("at most {MAX_FRAMES} procedures can be in progress at once"),
            });
        }
        Ok(())
    }

    fn over_hand_limit(&self) -> Option<Seat> {
        let max = usize::from(self.state.edition.max_hand());
        Seat::BOTH
            .into_iter()
            .find(|s| self.state.player(*s).hand.len() > max)
    }
}

/// A reduction that never takes damage below 1 (unless it already was 0).
fn floor_one(amount: u8, by: u8) -> u8 {
    if amount == 0 {
        return 0;
    }
    amount.saturating_sub(by).max(1)
}

/// Final totals: a relenting resister's total equals the initiator's.
fn totals(duel: &Duel) -> (i16, Option<i16>) {
    let initiator = duel
        .side(Role::Initiator)
        .map(|s| if s.relented { 0 } else { s.total() })
        .unwrap_or(0);
    let resister = duel
        .side(Role::Resister)
        .map(|s| if s.relented { initiator } else { s.total() });
    (initiator, resister)
}

fn choice_reason(revealed: &[Card], modifiers: i8) -> String {
    if revealed.iter().any(|c| c.is_black_joker()) {
        "the Black Joker must be used".into()
    } else if modifiers < 0 {
        "with a negative modifier the lowest card must be used (or the Red Joker)".into()
    } else {
        "choose one of the revealed cards".into()
    }
}
