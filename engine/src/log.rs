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
use super::{RuleError, Seat, Submission, apply, execute};

/// The shape of stored facts. Raise it only with a migration that turns
/// logs of the old format into the new one.
pub const LOG_FORMAT: u32 = 2;

/// Raised whenever the same commands can give different facts (a rule
/// changed). Old games keep replaying from their facts; the number says
/// which rules adjudicated them.
pub const RULES_VERSION: u32 = 17;

/// Facts one stored game may hold.
pub const MAX_FACTS: usize = 200_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLog {
    pub log_format: u32,
    pub rules_version: u32,
    pub setup: NewGame,
    pub facts: Vec<Event>,
    /// Every command the game executed, with its seat, in order (none in
    /// logs kept before commands were): what [`GameLog::replay_commands`]
    /// plays through the rules again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<LoggedCommand>,
    /// The hashes of the content the game was made from (none in logs of
    /// games made before they were recorded). The setup holds every card
    /// played, so the log replays without that content; the hashes say
    /// which version of the server's cards and of a content pack it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<ContentHashes>,
    /// The server's signature over [`GameLog::chain`]: a log cut short or
    /// edited after it was sealed no longer matches it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<Seal>,
}

/// The SHA-256 hashes (hex) of the content a game was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentHashes {
    /// The server's own content: every shipped file and the operator's.
    pub server: String,
    /// The content pack version on top, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pack: Option<String>,
}

/// A command the game executed, and the index of the first fact it made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoggedCommand {
    pub at_fact: u32,
    pub submission: Submission,
}

/// A signature over a log's chain (hex): the signing key's public half,
/// and what it signed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seal {
    /// The ed25519 public key, 32 bytes in hex.
    pub key: String,
    /// The chain's head, 32 bytes in hex.
    pub chain: String,
    /// The ed25519 signature over the chain's head, 64 bytes in hex.
    pub signature: String,
}

/// What replaying a log's commands could show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandReplay {
    /// Every command, played through today's rules, made exactly the
    /// log's facts.
    Same {
        commands: usize,
        state: Box<GameState>,
    },
    /// The log keeps no commands (stored before they were kept).
    NoCommands,
    /// The log was adjudicated by other rules than this server's.
    OtherRules { rules_version: u32 },
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
            commands: Vec::new(),
            content: None,
            seal: None,
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
            #[serde(default)]
            commands: Vec<LoggedCommand>,
            #[serde(default)]
            content: Option<ContentHashes>,
            #[serde(default)]
            seal: Option<Seal>,
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
            commands: raw.commands,
            content: raw.content,
            seal: raw.seal,
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

    /// Plays the log's commands through this server's rules from its
    /// setup and requires them to make exactly its facts, naming the first
    /// that differs: a changed number, a fact deleted or added, a command
    /// swapped or a log cut short all show. Only a log of this server's
    /// rules version can be played again; older ones replay from their
    /// facts alone.
    pub fn replay_commands(&self) -> Result<CommandReplay, LogError> {
        if self.commands.is_empty() {
            return Ok(CommandReplay::NoCommands);
        }
        if self.rules_version != RULES_VERSION {
            return Ok(CommandReplay::OtherRules {
                rules_version: self.rules_version,
            });
        }
        let mut state = GameState::new(self.setup.clone()).map_err(LogError::Setup)?;
        let mut made = 0usize;
        for (number, logged) in self.commands.iter().enumerate() {
            if logged.at_fact as usize != made {
                return Err(LogError::Mismatch {
                    index: made.min(logged.at_fact as usize),
                    message: format!(
                        "command #{number} says its facts start at #{}, but the commands before it made {made}",
                        logged.at_fact
                    ),
                });
            }
            let facts =
                execute(&mut state, &logged.submission).map_err(|e| LogError::Mismatch {
                    index: made,
                    message: format!("command #{number} is refused by the rules: {e}"),
                })?;
            for fact in facts {
                let Some(logged_fact) = self.facts.get(made) else {
                    return Err(LogError::Mismatch {
                        index: made,
                        message: format!(
                            "the log ends after {} facts, but its commands go on to make {}",
                            self.facts.len(),
                            fact_words(&fact)
                        ),
                    });
                };
                if *logged_fact != fact {
                    return Err(LogError::Mismatch {
                        index: made,
                        message: format!(
                            "the log says {}, but command #{number} makes {}",
                            fact_words(logged_fact),
                            fact_words(&fact)
                        ),
                    });
                }
                made += 1;
            }
        }
        if made != self.facts.len() {
            return Err(LogError::Mismatch {
                index: made,
                message: format!(
                    "the log holds {} facts, but its commands make {made}",
                    self.facts.len()
                ),
            });
        }
        Ok(CommandReplay::Same {
            commands: self.commands.len(),
            state: Box::new(state),
        })
    }

    /// The hash a seal signs: the log's format, rules version and setup,
    /// then every fact and every command in order, each chained onto the
    /// hash before it (SHA-256 over the canonical JSON of each), so
    /// editing, removing or adding any of them changes it.
    pub fn chain(&self) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let mut head: [u8; 32] = Sha256::new()
            .chain_update(b"soulstone game log\0")
            .chain_update(self.log_format.to_le_bytes())
            .chain_update(self.rules_version.to_le_bytes())
            .chain_update(canonical(&self.setup))
            .finalize()
            .into();
        let mut link = |kind: &[u8], bytes: Vec<u8>| {
            head = Sha256::new()
                .chain_update(head)
                .chain_update(kind)
                .chain_update(bytes)
                .finalize()
                .into();
        };
        for fact in &self.facts {
            link(b"fact", canonical(fact));
        }
        for command in &self.commands {
            link(b"command", canonical(command));
        }
        // Only when recorded: the chains of logs from before stay the same.
        if let Some(content) = &self.content {
            link(b"content", canonical(content));
        }
        head
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

/// A fact in a log's error message: its JSON, cut short.
fn fact_words(fact: &Event) -> String {
    let json = serde_json::to_string(fact).unwrap_or_else(|e| e.to_string());
    const MOST: usize = 160;
    match json.char_indices().nth(MOST) {
        Some((cut, _)) => format!("{}…", &json[..cut]),
        None => json,
    }
}

/// A value the chain hashes, as canonical JSON bytes: the typed value
/// serialised, so a log read back hashes as it was written. Serialising
/// these types cannot fail (no map has keys that are not strings).
fn canonical<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
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
