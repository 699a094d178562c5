//! The game state and `apply`, the only place it changes.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::damage::{DamageInstance, DamageProgress};
use super::duel::{Duel, Outcome};
use super::event::Event;
use super::fairness::{self, Bytes32, FAIRNESS_SCHEME};
use super::fate::{Card, DECK_SIZE};
use super::flip::RevealedCards;
use super::limits::{MAX_MODELS, MAX_SOULSTONES};
use super::model::Model;
use super::pile::Pile;
use super::{Edition, Seat};

/// One player's cards and soulstones.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PlayerState {
    /// Face down; the top card is last.
    pub deck: Pile,
    pub hand: Pile,
    /// Face up; the top card is last.
    pub discard: Pile,
    pub removed: Pile,
    /// Cards revealed by a flip, waiting for the choice of which one to use.
    pub revealed: Pile,
    /// Cards in the conflict (two when both sides of a duel are this player's).
    pub conflict: Pile,
    pub soulstones: u16,
}

impl PlayerState {
    /// Every card this player owns, wherever it is (always 54).
    pub fn card_count(&self) -> usize {
        self.deck.len()
            + self.hand.len()
            + self.discard.len()
            + self.removed.len()
            + self.revealed.len()
            + self.conflict.len()
    }
}

/// The server's commitment, the players' contributions and the shuffles so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fairness {
    /// Borrowed for new games: copying a state then allocates nothing for it.
    pub scheme: std::borrow::Cow<'static, str>,
    pub commitment: Bytes32,
    /// Secret until the game ends; never shown in a view before that.
    pub seed: Bytes32,
    pub contributions: [Option<Bytes32>; 2],
    pub shuffles: [u32; 2],
    pub revealed: bool,
}

impl Fairness {
    pub fn new(seed: Bytes32) -> Self {
        Self {
            scheme: std::borrow::Cow::Borrowed(FAIRNESS_SCHEME),
            commitment: fairness::commitment(&seed),
            seed,
            contributions: [None, None],
            shuffles: [0, 0],
            revealed: false,
        }
    }

    pub fn contributions_or_zero(&self) -> [Bytes32; 2] {
        [
            self.contributions[0].unwrap_or_default(),
            self.contributions[1].unwrap_or_default(),
        ]
    }
}

/// What the game is doing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for both players' entropy before the first shuffle.
    Contributions,
    Idle,
    Duel {
        /// Inline, not boxed: the state is copied for every command.
        duel: Duel,
    },
    Damage {
        progress: Box<DamageProgress>,
    },
    /// A player must discard down to the maximum hand size.
    HandLimit {
        seat: Seat,
    },
    Ended,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// Moves on with every event; commands carry the version they saw.
    pub version: u64,
    pub edition: Edition,
    pub fairness: Fairness,
    pub players: [PlayerState; 2],
    /// Shared until an event changes a model: the state is copied for every
    /// command, and most commands change no model.
    pub models: Arc<Vec<Model>>,
    pub phase: Phase,
    /// Damage waiting to be resolved, in order.
    pub damage_queue: Vec<DamageInstance>,
    /// The last duel's outcome (the damage that follows reads it).
    pub last_outcome: Option<Outcome>,
}

/// How a new game starts.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub edition: Edition,
    pub seed: Bytes32,
    pub soulstones: [u16; 2],
    pub models: Vec<Model>,
}

impl GameState {
    /// A new game: full decks (shuffled once both players contribute).
    pub fn new(setup: NewGame) -> Result<Self, super::RuleError> {
        let mut players = [PlayerState::default(), PlayerState::default()];
        for (player, soulstones) in players.iter_mut().zip(setup.soulstones) {
            let cards: Vec<Card> = Card::all().collect();
            player.deck = Pile::from_top_down(&cards);
            player.soulstones = soulstones.min(MAX_SOULSTONES);
        }
        let state = Self {
            version: 0,
            edition: setup.edition,
            fairness: Fairness::new(setup.seed),
            players,
            models: Arc::new(setup.models),
            phase: Phase::Contributions,
            damage_queue: Vec::new(),
            last_outcome: None,
        };
        state.validate()?;
        Ok(state)
    }

    /// Checks invariants of a state built by hand (scenarios).
    pub fn validate(&self) -> Result<(), super::RuleError> {
        use super::RuleError;
        if self.models.len() > MAX_MODELS {
            return Err(RuleError::invalid(format!("at most {MAX_MODELS} models")));
        }
        let mut ids = std::collections::BTreeSet::new();
        for model in self.models.iter() {
            model.validate().map_err(RuleError::invalid)?;
            if !ids.insert(model.id) {
                return Err(RuleError::invalid(format!(
                    "model id {} is used twice",
                    model.id.0
                )));
            }
        }
        for (seat, player) in Seat::BOTH.iter().zip(&self.players) {
            if player.card_count() != DECK_SIZE {
                return Err(RuleError::invalid(format!(
                    "{} must own exactly 54 cards, not {}",
                    seat.label(),
                    player.card_count()
                )));
            }
            let mut seen = std::collections::BTreeSet::new();
            let all = player
                .deck
                .as_slice()
                .iter()
                .chain(player.hand.as_slice())
                .chain(player.discard.as_slice())
                .chain(player.removed.as_slice())
                .chain(player.revealed.as_slice())
                .chain(player.conflict.as_slice());
            for card in all {
                if !seen.insert(*card) {
                    return Err(RuleError::invalid(format!(
                        "{} has the card {card} twice",
                        seat.label()
                    )));
                }
            }
            if player.soulstones > MAX_SOULSTONES {
                return Err(RuleError::invalid(format!(
                    "at most {MAX_SOULSTONES} soulstones"
                )));
            }
        }
        Ok(())
    }

    pub fn player(&self, seat: Seat) -> &PlayerState {
        &self.players[seat.index()]
    }

    pub fn player_mut(&mut self, seat: Seat) -> &mut PlayerState {
        &mut self.players[seat.index()]
    }

    pub fn model(&self, id: super::model::ModelId) -> Option<&Model> {
        self.models.iter().find(|m| m.id == id)
    }

    pub fn model_mut(&mut self, id: super::model::ModelId) -> Option<&mut Model> {
        Arc::make_mut(&mut self.models)
            .iter_mut()
            .find(|m| m.id == id)
    }

    pub fn duel(&self) -> Option<&Duel> {
        match &self.phase {
            Phase::Duel { duel } => Some(duel),
            _ => None,
        }
    }

    fn duel_mut(&mut self) -> Option<&mut Duel> {
        match &mut self.phase {
            Phase::Duel { duel } => Some(duel),
            _ => None,
        }
    }

    fn side_mut(&mut self, role: Option<super::duel::Role>) -> Option<&mut super::duel::Side> {
        let role = role?;
        self.duel_mut()?.side_mut(role)
    }
}

pub use super::rules::decide;

/// Applies one event (see the module documentation of `engine`).
pub fn apply(state: &mut GameState, event: &Event) {
    state.version += 1;
    match event {
        Event::Contributed { seat, entropy } => {
            state.fairness.contributions[seat.index()] = Some(*entropy);
        }
        Event::DeckShuffled {
            seat,
            number,
            with_deck,
            ..
        } => {
            let contributions = state.fairness.contributions_or_zero();
            let seed = state.fairness.seed;
            let player = state.player_mut(*seat);
            let mut cards = player.discard.take_all();
            if *with_deck {
                cards.extend(player.deck.take_all());
            }
            let shuffled = fairness::shuffle_cards(&seed, *seat, *number, &contributions, &cards);
            let player = state.player_mut(*seat);
            player.deck = Pile::from_top_down(&shuffled);
            state.fairness.shuffles[seat.index()] = *number;
        }
        Event::Drew { seat, .. } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player.deck.pop() {
                player.hand.push(card);
            }
        }
        Event::TokenGained {
            model,
            token,
            value,
        } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_add(*value));
            }
        }
        Event::TokenRemoved { model, token, by } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_sub(*by));
            }
        }
        Event::DuelStarted {
            spec,
            initiator_seat,
            resister_seat,
            initiator_base,
            resister_base,
        } => {
            use super::duel::{Duel, DuelStep, Role, Side, Sides};
            let initiator = Side::new(
                spec.initiator,
                *initiator_seat,
                *initiator_base,
                spec.skill_suits,
                spec.modifiers,
            );
            let resister = match (spec.resister, resister_seat, resister_base) {
                (Some(resister), Some(seat), Some(base)) => {
                    Some(Side::new(resister, *seat, *base, Default::default(), 0))
                }
                _ => None,
            };
            state.last_outcome = None;
            state.phase = Phase::Duel {
                duel: Duel {
                    raise_value: spec.raise_value,
                    spec: std::sync::Arc::clone(spec),
                    step: DuelStep::Modify {
                        role: Role::Initiator,
                    },
                    sides: Sides::new(initiator, resister),
                },
            };
        }
        Event::Relented { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.relented = true;
                side.modified = true;
                side.cheat_decided = true;
                side.trigger_decided = true;
            }
        }
        Event::RelentDeclined { .. }
        | Event::TotalsAnnounced { .. }
        | Event::TopCardKept { .. }
        | Event::CheatSkipped { .. }
        | Event::DamageDealt { .. }
        | Event::DamageFlipStarted { .. }
        | Event::DamageFlipEnded
        | Event::DamageBlocked { .. }
        | Event::RemainsDropped { .. } => {}
        Event::ModifierAdded { role, amount, .. } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.modifiers = side.modifiers.saturating_add(*amount);
            }
        }
        Event::SuitAdded { role, suit, .. } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.suits = side.suits.with(*suit);
            }
        }
        Event::Empowered { role, seat, card } => {
            let player = state.player_mut(*seat);
            if player.hand.remove(*card) {
                player.discard.push(*card);
            }
            if let Some(side) = state.side_mut(Some(*role)) {
                side.empowered = true;
            }
        }
        Event::SoulstoneSpent { seat, role, .. } => {
            let player = state.player_mut(*seat);
            player.soulstones = player.soulstones.saturating_sub(1);
            if let Some(side) = state.side_mut(*role) {
                side.soulstone_spent = true;
            }
        }
        Event::TokenUsed { role, model, token } => {
            if let Some(m) = state.model_mut(*model) {
                let current = m.tokens.value(*token);
                m.tokens.set(*token, current.saturating_sub(1));
            }
            if let Some(side) = state.side_mut(Some(*role))
                && *token == super::model::Token::Focused
            {
                side.used_focused = true;
            }
        }
        Event::SoulstoneInfused { seat } => {
            let player = state.player_mut(*seat);
            player.soulstones = (player.soulstones + 1).min(MAX_SOULSTONES);
        }
        Event::TopCardSeen { .. } => {
            if let Some(duel) = state.duel_mut()
                && let super::duel::DuelStep::Modify { role } = duel.step
            {
                duel.step = super::duel::DuelStep::InsightTop { role };
            }
        }
        Event::TopCardDiscarded { seat, .. } => {
            let player = state.player_mut(*seat);
            if let Some(card) = player.deck.pop() {
                player.discard.push(card);
            }
        }
        Event::FinishedModifying { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.modified = true;
            }
        }
        Event::Revealed { seat, role, cards } => {
            let player = state.player_mut(*seat);
            let mut moved = RevealedCards::new();
            for _ in cards {
                if let Some(card) = player.deck.pop() {
                    player.revealed.push(card);
                    moved.push(card);
                }
            }
            if let Some(side) = state.side_mut(*role) {
                // A flip reveals at most four cards in all, so this fits.
                for card in &moved {
                    side.revealed.push(*card);
                }
            }
        }
        Event::CardChosen { seat, role, card } => {
            let player = state.player_mut(*seat);
            if player.revealed.remove(*card) {
                player.conflict.push(*card);
            }
            if let Some(side) = state.side_mut(*role) {
                side.revealed.clear();
                side.card = Some(*card);
                side.flipped_black_joker = card.is_black_joker();
                side.flipped_red_joker = card.is_red_joker();
            }
        }
        Event::RevealedDiscarded { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.revealed.remove(*card) {
                    player.discard.push(*card);
                }
            }
        }
        Event::Cheated {
            seat,
            role,
            card_in,
            card_out,
        } => {
            let player = state.player_mut(*seat);
            if player.hand.remove(*card_in) && player.conflict.remove(*card_out) {
                player.conflict.push(*card_in);
                player.discard.push(*card_out);
            }
            if let Some(side) = state.side_mut(*role) {
                side.card = Some(*card_in);
                side.cheat_decided = true;
            }
        }
        Event::CheatDeclined { role } => {
            if let Some(side) = state.side_mut(*role) {
                side.cheat_decided = true;
            }
        }
        Event::JokerSuitChosen { role, suit } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.joker_suit = *suit;
                side.joker_suit_chosen = true;
            }
        }
        Event::TriggerDeclared { role, name } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.trigger = Some(name.clone());
                side.trigger_decided = true;
            }
        }
        Event::TriggerDeclined { role } => {
            if let Some(side) = state.side_mut(Some(*role)) {
                side.trigger_decided = true;
            }
        }
        Event::RaiseValueChanged { value } => {
            if let Some(duel) = state.duel_mut() {
                duel.raise_value = *value;
            }
        }
        Event::DuelResolved { outcome } => {
            state.last_outcome = Some(*outcome);
        }
        Event::ConflictCleared { cards } => {
            for (seat, card) in cards {
                let player = state.player_mut(*seat);
                if player.conflict.remove(*card) {
                    player.discard.push(*card);
                }
            }
        }
        Event::DuelEnded => {
            if matches!(state.phase, Phase::Duel { .. }) {
                state.phase = Phase::Idle;
            }
        }
        Event::DamageReductionFlip { .. } => {}
        Event::ReductionUsed { model, name } => {
            if let Some(m) = state.model_mut(*model)
                && let Some(index) = m.reductions.iter().position(|r| &r.name == name)
                && m.reductions[index].once_per_activation
            {
                m.reductions_used.push(index as u8);
            }
        }
        Event::HealthChanged { model, to, .. } => {
            if let Some(m) = state.model_mut(*model) {
                m.health = *to;
            }
        }
        Event::ModelKilled { model, .. } | Event::ModelRemoved { model } => {
            if let Some(m) = state.model_mut(*model) {
                m.killed = true;
            }
        }
        Event::HandOverLimit { seat, .. } => {
            state.phase = Phase::HandLimit { seat: *seat };
        }
        Event::Discarded { seat, cards } => {
            let player = state.player_mut(*seat);
            for card in cards {
                if player.hand.remove(*card) {
                    player.discard.push(*card);
                }
            }
            if matches!(state.phase, Phase::HandLimit { .. }) {
                state.phase = Phase::Idle;
            }
        }
        Event::ActivationStarted => {
            for m in Arc::make_mut(&mut state.models) {
                m.reductions_used.clear();
            }
        }
        Event::SeedRevealed { .. } => {
            state.fairness.revealed = true;
        }
        Event::GameEnded => {
            state.phase = Phase::Ended;
        }
        Event::DuelStep { step } => {
            if let Some(duel) = state.duel_mut() {
                duel.step = *step;
            }
        }
        Event::DamageStep { progress } => {
            state.phase = match progress {
                Some(progress) => Phase::Damage {
                    progress: progress.clone(),
                },
                None => Phase::Idle,
            };
        }
        Event::QueueDamage { instance } => {
            state.damage_queue.push((**instance).clone());
        }
        Event::DequeueDamage { index } => {
            if *index < state.damage_queue.len() {
                state.damage_queue.remove(*index);
            }
        }
        Event::ContributionsComplete => {
            state.phase = Phase::Idle;
        }
    }
}
