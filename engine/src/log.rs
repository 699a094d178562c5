//! The game log: how a game started and every fact since, stamped with the
//! log format and the rules version that wrote it. A stored game is its
//! log: replaying the facts with [`apply`](super::apply) from the setup
//! gives the state back, so the facts' JSON form is a promise to every game
//! already stored. `tests/replays/` holds golden logs that CI replays; a
//! change that would break stored games fails there.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::event::Event;
use super::model::{ModelId, ModelStatus, Placement, Token};
use super::state::{GameState, NewGame};
use super::table::{MarkerKind, ObjectId, Point};
use super::{RuleError, Seat, apply};

/// The shape of stored facts. Raise it only with a migration that turns
/// logs of the old format into the new one.
pub const LOG_FORMAT: u32 = 2;

/// Raised whenever the same commands can give different facts (a rule
/// changed). Old games keep replaying from their facts; the number says
/// which rules adjudicated them.
pub const RULES_VERSION: u32 = 15;

/// Facts one stored game may hold.
pub const MAX_FACTS: usize = 200_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLog {
    pub log_format: u32,
    pub rules_version: u32,
    pub setup: NewGame,
    pub facts: Vec<Event>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    #[error("the log is not valid JSON with a format, a rules version, a setup and facts: {0}")]
    Shape(String),
    #[error(
        "this log is in format {found}, but this server reads format {LOG_FORMAT}; it needs a migration"
    )]
    Format { found: u32 },
    #[error("fact #{index} is not a fact this server knows: {message}")]
    Fact { index: usize, message: String },
    #[error("the log's setup is not valid: {0}")]
    Setup(RuleError),
    #[error("the log holds more than {MAX_FACTS} facts")]
    TooLong,
    #[error("fact #{index}: {message}")]
    Mismatch { index: usize, message: String },
}

impl GameLog {
    /// An empty log for a new game, stamped with today's format and rules.
    pub fn new(setup: NewGame) -> Self {
        Self {
            log_format: LOG_FORMAT,
            rules_version: RULES_VERSION,
            setup,
            facts: Vec::new(),
        }
    }

    /// Reads a stored log, saying exactly which fact it cannot read.
    pub fn from_json(text: &str) -> Result<Self, LogError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            log_format: u32,
            rules_version: u32,
            setup: NewGame,
            facts: Vec<Value>,
        }
        let raw: Raw = serde_json::from_str(text).map_err(|e| LogError::Shape(e.to_string()))?;
        if raw.log_format != LOG_FORMAT {
            return Err(LogError::Format {
                found: raw.log_format,
            });
        }
        if raw.facts.len() > MAX_FACTS {
            return Err(LogError::TooLong);
        }
        let facts = raw
            .facts
            .into_iter()
            .enumerate()
            .map(|(index, fact)| {
                Event::deserialize(fact).map_err(|e| LogError::Fact {
                    index,
                    message: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            log_format: raw.log_format,
            rules_version: raw.rules_version,
            setup: raw.setup,
            facts,
        })
    }

    /// Replays the log checking it against its own seed: every card a
    /// fact says was drawn or revealed must be the one the seeded shuffles
    /// (with both players' contributions) put on top of that deck, and a
    /// revealed seed must be the setup's and match the commitment.
    pub fn verify(&self) -> Result<GameState, LogError> {
        let mut state = GameState::new(self.setup.clone()).map_err(LogError::Setup)?;
        for (index, fact) in self.facts.iter().enumerate() {
            let mismatch = |message: String| LogError::Mismatch { index, message };
            match fact {
                Event::Drew { seat, card } => {
                    let top = state.player(*seat).deck.top();
                    if card.value.is_some() && card.value != top {
                        return Err(mismatch(format!(
                            "{} drew {:?}, but the shuffled deck's top card is {:?}",
                            seat.label(),
                            card.value,
                            top
                        )));
                    }
                }
                Event::Revealed { seat, cards, .. } => {
                    let top: Vec<_> = state
                        .player(*seat)
                        .deck
                        .top_down()
                        .take(cards.len())
                        .collect();
                    if cards.as_slice() != top.as_slice() {
                        return Err(mismatch(format!(
                            "{} revealed {:?}, but the shuffled deck's top cards are {:?}",
                            seat.label(),
                            cards.as_slice(),
                            top
                        )));
                    }
                }
                Event::Discarded { seat, cards }
                | Event::DiscardedBeforeDrawing { seat, cards } => {
                    if let Some(card) = cards
                        .iter()
                        .find(|c| !state.player(*seat).hand.contains(**c))
                    {
                        return Err(mismatch(format!(
                            "{} discarded {card}, which is not in their hand",
                            seat.label()
                        )));
                    }
                }
                Event::SeedRevealed { seed }
                    if *seed != self.setup.seed
                        || crate::fairness::commitment(seed) != state.fairness.commitment =>
                {
                    return Err(mismatch(
                        "the revealed seed is not the committed one".into(),
                    ));
                }
                _ => {}
            }
            apply(&mut state, fact);
        }
        Ok(state)
    }

    /// The state after every fact.
    pub fn replay(&self) -> Result<GameState, LogError> {
        let mut state = GameState::new(self.setup.clone()).map_err(LogError::Setup)?;
        for fact in &self.facts {
            apply(&mut state, fact);
        }
        Ok(state)
    }
}

/// What a game position is, independent of how the engine stores its
/// procedures: the cards in every pile in order, soulstones, each model's
/// health, tokens and whether it is in play, and whether the game has
/// ended. Golden replays compare this, so the engine's insides may change
/// while old games still arrive where they did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub version: u64,
    pub players: Vec<PlayerPosition>,
    pub models: Vec<ModelPosition>,
    pub markers: Vec<(ObjectId, MarkerKind, Point)>,
    pub damage_waiting: usize,
    pub procedures: usize,
    pub ended: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerPosition {
    pub seat: Seat,
    pub deck: Vec<super::fate::Card>,
    pub hand: Vec<super::fate::Card>,
    pub discard: Vec<super::fate::Card>,
    pub soulstones: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPosition {
    pub id: ModelId,
    pub health: u16,
    pub tokens: Vec<(Token, u8)>,
    pub status: ModelStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
}

impl Position {
    pub fn of(state: &GameState) -> Self {
        Self {
            version: state.version,
            players: Seat::BOTH
                .iter()
                .map(|&seat| {
                    let player = state.player(seat);
                    PlayerPosition {
                        seat,
                        deck: player.deck.as_slice().to_vec(),
                        hand: player.hand.as_slice().to_vec(),
                        discard: player.discard.as_slice().to_vec(),
                        soulstones: player.soulstones,
                    }
                })
                .collect(),
            models: state
                .models
                .iter()
                .map(|m| ModelPosition {
                    id: m.id,
                    health: m.health,
                    tokens: m.tokens.iter().collect(),
                    status: m.status,
                    placement: m.placement,
                })
                .collect(),
            markers: state.markers.iter().map(|m| (m.id, m.kind, m.at)).collect(),
            damage_waiting: state.damage_queue.len(),
            procedures: state.frames.len(),
            ended: state.ended,
        }
    }
}
