//! The game systems Soulstone runs events for. Plain data shared by every layer.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GameSystem {
    /// Malifaux 4th edition.
    #[serde(rename = "m4e")]
    Malifaux4,
    /// Malifaux 3rd edition.
    #[serde(rename = "m3e")]
    Malifaux3,
    /// Malifaux 1st edition.
    #[serde(rename = "m1e")]
    Malifaux1,
    /// The Mage Knight miniatures game.
    #[serde(rename = "mk")]
    MageKnight,
}

impl GameSystem {
    pub const ALL: [GameSystem; 4] = [
        GameSystem::Malifaux4,
        GameSystem::Malifaux3,
        GameSystem::Malifaux1,
        GameSystem::MageKnight,
    ];

    /// The short stable code used in URLs, files and the database.
    pub fn code(self) -> &'static str {
        match self {
            Self::Malifaux4 => "m4e",
            Self::Malifaux3 => "m3e",
            Self::Malifaux1 => "m1e",
            Self::MageKnight => "mk",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Malifaux4 => "Malifaux 4th edition",
            Self::Malifaux3 => "Malifaux 3rd edition",
            Self::Malifaux1 => "Malifaux 1st edition",
            Self::MageKnight => "Mage Knight",
        }
    }

    pub fn is_malifaux(self) -> bool {
        !matches!(self, Self::MageKnight)
    }

    /// Whether this system's setups draw on a strategy/scheme pool.
    pub fn uses_pools(self) -> bool {
        self.is_malifaux()
    }

    /// Whether a round may share one scenario at every table (strategy,
    /// deployment, scheme pool), each table flipping only for attacker and
    /// defender. 1st edition and Mage Knight setups are per player through
    /// and through (each player's strategy, who goes first), so they are
    /// flipped per table only.
    pub fn shares_round_scenarios(self) -> bool {
        matches!(self, Self::Malifaux4 | Self::Malifaux3)
    }

    /// The engine's edition of the encounters whose crews are written in
    /// the shared crew-list format (4th and 3rd edition Malifaux); the 1st
    /// edition and Mage Knight have rooms and list formats of their own.
    pub fn engine_edition(self) -> Option<soulstone_engine::Edition> {
        match self {
            Self::Malifaux4 => Some(soulstone_engine::Edition::Fourth),
            Self::Malifaux3 => Some(soulstone_engine::Edition::Third),
            Self::Malifaux1 | Self::MageKnight => None,
        }
    }
}

impl fmt::Display for GameSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game system {0:?} (use m4e, m3e, m1e or mk)")]
pub struct UnknownGameSystem(pub String);

impl FromStr for GameSystem {
    type Err = UnknownGameSystem;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let code = s.trim().to_ascii_lowercase();
        GameSystem::ALL
            .into_iter()
            .find(|system| system.code() == code)
            .ok_or_else(|| UnknownGameSystem(s.to_owned()))
    }
}
