//! The event snapshot file read by `soulstone pair FILE` and exported by the
//! event page: players, the rounds so far, and the pairing settings. Its
//! format is documented in `docs/pairing.md`.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::pairing::{PairingError, PairingSettings, RoundPairing, pair_round};
use super::{Game, Player};

pub const SNAPSHOT_FORMAT: &str = "soulstone.event-snapshot/1";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSnapshot {
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(default)]
    pub settings: PairingSettings,
    pub players: Vec<Player>,
    #[serde(default)]
    pub rounds: Vec<RoundRecord>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    pub number: u32,
    pub games: Vec<Game>,
}

#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("the snapshot is not valid JSON for this format: {0}")]
    Json(#[from] serde_json::Error),
    #[error("unsupported snapshot format {found:?} (expected {SNAPSHOT_FORMAT:?})")]
    Format { found: String },
    #[error("round {0} appears twice")]
    DuplicateRound(u32),
    #[error("round {round}: player {player} plays twice")]
    PlayerTwice { round: u32, player: i64 },
    #[error("round {0} is the last round number there is: no round can follow it")]
    NoNextRound(u32),
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

impl EventSnapshot {
    pub fn parse(json: &str) -> Result<Self, SnapshotError> {
        let snapshot: Self = serde_json::from_str(json)?;
        if snapshot.format != SNAPSHOT_FORMAT {
            return Err(SnapshotError::Format {
                found: snapshot.format,
            });
        }
        let mut rounds = BTreeSet::new();
        for round in &snapshot.rounds {
            if !rounds.insert(round.number) {
                return Err(SnapshotError::DuplicateRound(round.number));
            }
            let mut seen = BTreeSet::new();
            for game in &round.games {
                for player in std::iter::once(game.a).chain(game.b) {
                    if !seen.insert(player) {
                        return Err(SnapshotError::PlayerTwice {
                            round: round.number,
                            player,
                        });
                    }
                }
            }
        }
        Ok(snapshot)
    }

    /// Every game, with its round number filled in.
    pub fn games(&self) -> Vec<Game> {
        self.rounds
            .iter()
            .flat_map(|round| {
                round.games.iter().map(move |g| Game {
                    round: Some(round.number),
                    ..g.clone()
                })
            })
            .collect()
    }

    pub fn next_round(&self) -> Result<u32, SnapshotError> {
        let last = self.rounds.iter().map(|r| r.number).max().unwrap_or(0);
        last.checked_add(1).ok_or(SnapshotError::NoNextRound(last))
    }

    /// The next round's pairing, exactly as the server pairs it.
    pub fn pair_next_round(&self) -> Result<RoundPairing, SnapshotError> {
        Ok(pair_round(
            &self.players,
            &self.games(),
            &self.settings,
            self.next_round()?,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_round_number_has_no_next_round() {
        let json = format!(
            r#"{{"format": "{SNAPSHOT_FORMAT}", "event": "Long league",
                "players": [{{"id": 1, "name": "Ada"}}, {{"id": 2, "name": "Bo"}}],
                "rounds": [{{"number": {}, "games": [{{"a": 1, "b": 2}}]}}]}}"#,
            u32::MAX
        );
        let snapshot = EventSnapshot::parse(&json).unwrap();
        let error = snapshot.pair_next_round().unwrap_err();
        assert!(
            matches!(error, SnapshotError::NoNextRound(u32::MAX)),
            "{error}"
        );
    }
}
