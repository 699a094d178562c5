//! Synthetic events for benchmarks and load tests: players in clubs, and
//! rounds of random pairings with random results. Deterministic by seed.

use super::pairing::PairingSettings;
use super::snapshot::{EventSnapshot, RoundRecord, SNAPSHOT_FORMAT};
use super::{Game, GameScore, Player, PlayerId};
use soulstone_random::RandomStream;

/// `players` players in clubs of about eight, after `rounds` random rounds.
pub fn random_event(players: usize, rounds: u32, seed: u64) -> EventSnapshot {
    let mut stream = RandomStream::from_seed_and_label(seed, "synthetic-event");
    let clubs = (players / 8).max(2) as u32;
    let roster: Vec<Player> = (1..=players)
        .map(|i| Player {
            id: i as PlayerId,
            name: format!("Player {i:05}"),
            club: Some(format!("Club {:04}", stream.below(clubs))),
            dropped: false,
            fixed_table: None,
            initial_points: 0,
        })
        .collect();
    let mut records = Vec::new();
    for number in 1..=rounds {
        let mut ids: Vec<PlayerId> = roster.iter().map(|p| p.id).collect();
        stream.shuffle(&mut ids);
        let mut games = Vec::with_capacity(ids.len() / 2 + 1);
        let mut pairs = ids.chunks_exact(2);
        for (table, pair) in (&mut pairs).enumerate() {
            let a_vp = stream.below(11) as i32;
            let b_vp = stream.below(11) as i32;
            games.push(Game {
                round: None,
                table: Some(table as u32 + 1),
                a: pair[0],
                b: Some(pair[1]),
                result: Some(GameScore::Malifaux { a_vp, b_vp }),
            });
        }
        if let [last] = pairs.remainder() {
            games.push(Game {
                round: None,
                table: None,
                a: *last,
                b: None,
                result: None,
            });
        }
        records.push(RoundRecord { number, games });
    }
    EventSnapshot {
        format: SNAPSHOT_FORMAT.to_owned(),
        event: Some(format!(
            "Synthetic event: {players} players, {rounds} rounds"
        )),
        settings: PairingSettings {
            avoid_same_club: true,
            seed,
            ..PairingSettings::default()
        },
        players: roster,
        rounds: records,
    }
}

/// How the players of a hard synthetic field are grouped (issue 20's table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clubs {
    /// Clubs of about eight, as in `random_event`.
    Many,
    /// No club at all.
    None,
    /// Two clubs, 60% and 40% of the field.
    TwoClubs,
    /// One region holding 30% of the field; the rest without one.
    OneRegion,
    /// Everybody in one club.
    OneClub,
}

/// A field shaped like the hard cases of real events.
#[derive(Debug, Clone, Copy)]
pub struct HardField {
    pub players: usize,
    /// Rounds already played (random pairings, random results).
    pub rounds: u32,
    pub clubs: Clubs,
    /// Initial points of 1 or 3 at random (a league's carried-over score).
    pub uneven_initial_points: bool,
    /// Six players who have all already met each other (a group that must
    /// float or rematch).
    pub met_group: bool,
    pub seed: u64,
}

impl HardField {
    pub fn snapshot(&self) -> EventSnapshot {
        let mut snapshot = random_event(self.players, self.rounds, self.seed);
        let mut stream = RandomStream::from_seed_and_label(self.seed, "hard-field");
        let n = snapshot.players.len();
        for (i, p) in snapshot.players.iter_mut().enumerate() {
            p.club = match self.clubs {
                Clubs::Many => p.club.take(),
                Clubs::None => None,
                Clubs::TwoClubs => Some(if i * 10 < n * 6 { "North" } else { "South" }.into()),
                Clubs::OneRegion => (i * 10 < n * 3).then(|| "The Region".into()),
                Clubs::OneClub => Some("Everyone".into()),
            };
            if self.uneven_initial_points {
                p.initial_points = if stream.below(2) == 0 { 1 } else { 3 };
            }
        }
        if self.met_group && n >= 6 {
            // A round robin among the first six (five more rounds by the
            // circle method, three draws each; nobody else plays them).
            let group: Vec<PlayerId> = snapshot.players.iter().take(6).map(|p| p.id).collect();
            let mut circle: Vec<PlayerId> = group[1..].to_vec();
            for step in 1..=5u32 {
                let games = (0..3)
                    .map(|k| {
                        let a = if k == 0 { group[0] } else { circle[k] };
                        let b = circle[if k == 0 { 0 } else { 5 - k }];
                        Game {
                            round: None,
                            table: None,
                            a,
                            b: Some(b),
                            result: Some(GameScore::Malifaux { a_vp: 3, b_vp: 3 }),
                        }
                    })
                    .collect();
                snapshot.rounds.push(RoundRecord {
                    number: self.rounds + step,
                    games,
                });
                circle.rotate_right(1);
            }
        }
        snapshot
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn the_met_group_plays_a_full_round_robin_once_a_round() {
        let field = HardField {
            players: 10,
            rounds: 1,
            clubs: Clubs::TwoClubs,
            uneven_initial_points: false,
            met_group: true,
            seed: 1,
        };
        let snapshot = field.snapshot();
        let extra = &snapshot.rounds[1..];
        assert_eq!(extra.len(), 5);
        let mut pairs = BTreeSet::new();
        for round in extra {
            let mut seen = BTreeSet::new();
            for g in &round.games {
                let b = g.b.unwrap();
                assert!(
                    seen.insert(g.a) && seen.insert(b),
                    "nobody plays twice a round"
                );
                assert!(pairs.insert((g.a.min(b), g.a.max(b))));
            }
        }
        assert_eq!(pairs.len(), 15, "every pair of the six, once");
        let north = snapshot
            .players
            .iter()
            .filter(|p| p.club.as_deref() == Some("North"))
            .count();
        assert_eq!(north, 6);
    }
}
