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
