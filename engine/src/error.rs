//! Why the rules refuse a command. A refused command changes nothing.

use serde::{Deserialize, Serialize};

use super::Seat;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum RuleError {
    #[error(
        "this command was made for version {made_for} of the game, but it is at version {current}; look at the game again"
    )]
    StaleVersion { made_for: u64, current: u64 },
    #[error("nothing is waiting for a decision right now")]
    NothingPending,
    #[error("it is {waiting_for}'s decision, not yours")]
    NotYourTurn { waiting_for: String },
    #[error("{reason}")]
    NotAllowed { reason: String },
    #[error("{seat:?} does not hold the card {card}")]
    CardNotInHand { seat: Seat, card: String },
    #[error("the setup is invalid: {reason}")]
    InvalidSetup { reason: String },
    #[error("limit reached: {reason}")]
    Limit { reason: String },
    #[error("the game is over")]
    GameOver,
}

impl RuleError {
    pub fn not_allowed(reason: impl Into<String>) -> Self {
        Self::NotAllowed {
            reason: reason.into(),
        }
    }

    pub fn invalid(reason: impl Into<String>) -> Self {
        Self::InvalidSetup {
            reason: reason.into(),
        }
    }
}
