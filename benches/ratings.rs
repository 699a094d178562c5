// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Recomputing every rating from scratch: 100,000 games among 2,000 players
//! over 400 ranked events in 48 months (goal: under 2 s). Figures are in
//! docs/benchmarks.md.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use soulstone::tournament::Outcome;
use soulstone::tournament::rating::{RatedEvent, RatedGame, ratings};

fn synthetic_season(games: usize, players: i64, events: usize, months: i32) -> Vec<RatedEvent> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let per_event = games / events;
    (0..events)
        .map(|event| RatedEvent {
            event: event as i64,
            month: event as i32 * months / events as i32,
            games: (0..per_event)
                .map(|_| {
                    let a = rng.random_range(0..players);
                    let b = (a + rng.random_range(1..players)) % players;
                    let outcome = match rng.random_range(0..10) {
                        0 => Outcome::Draw,
                        1..=5 => Outcome::AWins,
                        _ => Outcome::BWins,
                    };
                    RatedGame { a, b, outcome }
                })
                .collect(),
        })
        .collect()
}

fn recompute(c: &mut Criterion) {
    let season = synthetic_season(100_000, 2_000, 400, 48);
    assert_eq!(season.iter().map(|e| e.games.len()).sum::<usize>(), 100_000);
    let mut group = c.benchmark_group("ratings");
    group.sample_size(10);
    group.bench_function("recompute_100000_games", |b| {
        b.iter(|| {
            let rated = ratings(&season);
            assert_eq!(rated.len(), 2_000);
            rated
        })
    });
    group.finish();
}

criterion_group!(benches, recompute);
criterion_main!(benches);
