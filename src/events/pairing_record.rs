//! What a round keeps of how it was paired (its `pairing` column): the
//! optimiser's answer for a Swiss round, the teams' pairing for a team
//! round, the bracket name for a playoff round.

use super::EventError;
use super::stored_json::from_stored_json;
use crate::db::events::Round;
use crate::tournament::pairing::RoundPairing;

/// What is kept of the optimiser's answer with the round.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct StoredPairing {
    pub seed: u64,
    pub method: crate::tournament::pairing::PairingMethod,
    pub proven_optimal: bool,
    pub cost: crate::tournament::pairing::PairingCost,
    /// For an unproven pairing, the least any pairing could cost.
    #[serde(default)]
    pub lower_bound: Option<crate::tournament::pairing::PairingCost>,
    /// Swaps made by hand since: the cost and the proof were the
    /// optimiser's, and no longer describe the pairings.
    #[serde(default)]
    pub swaps_by_hand: u32,
}

/// What a round's `pairing` column records: a playoff round its name in
/// the bracket, a team round the teams' pairing, a Swiss round the
/// optimiser's answer. The shapes share no field, so the record is read by
/// its shape; one that matches none is an error naming the round.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum PairingRecord {
    Playoff(super::playoffs::PlayoffPairing),
    Team(super::teams::TeamRoundPairing),
    Swiss(StoredPairing),
}

impl PairingRecord {
    pub fn of(round: &Round) -> Result<Self, EventError> {
        from_stored_json("rounds.pairing", round.id, &round.pairing)
    }

    /// The bracket name of a playoff round ("Quarterfinals").
    pub fn playoff_name(&self) -> Option<&str> {
        match self {
            Self::Playoff(p) => Some(&p.playoff),
            Self::Team(_) | Self::Swiss(_) => None,
        }
    }

    /// The optimiser's record of a Swiss round.
    pub fn swiss(&self) -> Option<&StoredPairing> {
        match self {
            Self::Swiss(p) => Some(p),
            Self::Playoff(_) | Self::Team(_) => None,
        }
    }
}

impl StoredPairing {
    /// The optimiser's pairings, untouched: its cost and proof still hold.
    pub fn as_paired(&self) -> bool {
        self.swaps_by_hand == 0
    }
}

impl From<&RoundPairing> for StoredPairing {
    fn from(p: &RoundPairing) -> Self {
        Self {
            seed: p.seed,
            method: p.method,
            proven_optimal: p.proven_optimal,
            cost: p.cost,
            lower_bound: p.lower_bound,
            swaps_by_hand: 0,
        }
    }
}
