//! The rules, pure: no web, database, files, network or clock. Everything is
//! deterministic given its inputs, and all chance comes from seeded ChaCha20
//! streams (see [`fairness`]).
//!
//! The engine is event-sourced. [`decide`] checks a player's (or the game
//! flow's) command against the rules and returns the events it causes;
//! [`apply`] is the only way the state changes. [`pending`] says what the
//! engine waits for and lists the legal options; [`view`] shows a player only
//! what they may see.

pub mod ability;
mod action;
pub mod bot;
pub mod command;
pub mod content;
pub mod damage;
pub mod duel;
pub mod encounter;
mod error;
pub mod event;
pub mod fairness;
pub mod fate;
pub mod first_edition;
mod flip;
pub mod forced;
mod hidden;
mod limits;
pub mod log;
pub mod mage_knight;
pub mod marker;
pub mod model;
pub mod pending;
pub mod pile;
pub mod preview;
mod procedure;
pub mod rules;
pub mod scenario;
pub mod state;
pub mod system;
pub mod table;
pub mod token;
mod view;

use serde::{Deserialize, Serialize};

pub use command::{FlowCommand, PlayerCommand, Submission};
pub use error::RuleError;
pub use event::Event;
pub use pending::{Pending, pending};
pub use state::GameState;
pub use view::{View, Viewer, view};

/// One of the two players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Seat {
    #[serde(rename = "a")]
    A,
    #[serde(rename = "b")]
    B,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::A, Seat::B];

    pub fn other(self) -> Seat {
        match self {
            Seat::A => Seat::B,
            Seat::B => Seat::A,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Seat::A => 0,
            Seat::B => 1,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Seat::A => "Player A",
            Seat::B => "Player B",
        }
    }
}

/// The Malifaux edition whose rules adjudicate a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum Edition {
    #[serde(rename = "m4e")]
    Fourth,
    #[serde(rename = "m3e")]
    Third,
}

impl Edition {
    /// The maximum control hand size.
    pub fn max_hand(self) -> u8 {
        self.rules().duel.max_hand
    }

    /// The short code crew lists and content files name it by.
    pub fn code(self) -> &'static str {
        self.rules().code
    }

    pub fn name(self) -> &'static str {
        self.rules().name
    }
}

/// Checks a command against the rules: the events it causes, or why not.
/// The state is not changed; apply the events to change it.
pub fn decide(state: &GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    state::decide(state, submission)
}

/// `decide` and `apply` in one step for a caller that owns the state: the
/// state `decide` worked out is kept instead of applying its events again.
/// A refused command leaves `state` unchanged.
pub fn execute(state: &mut GameState, submission: &Submission) -> Result<Vec<Event>, RuleError> {
    procedure::execute(state, submission)
}

/// Applies one event. Replaying a game's events from its initial state
/// reproduces the state exactly.
pub fn apply(state: &mut GameState, event: &Event) {
    state::apply(state, event)
}
