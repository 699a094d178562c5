//! How long the engine takes to decide and apply one command, timed one
//! command at a time so that the 99th percentile can be read (criterion
//! times batches and reports means). Every position of whole bot games
//! is replayed: random bots for breadth, greedy bots for the positions a
//! real game reaches (fights, damage, the end phase). The goal (issue 15):
//! under 1 ms at the 99th percentile. Figures are in docs/benchmarks.md.
//!
//! `cargo bench --bench command_latency` (`SOULSTONE_LATENCY_GAMES` sets
//! the games per bot kind; default 40).
// A measuring program stops at a broken assumption, as the other benches.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "common/encounter_setups.rs"]
mod encounter_setups;

use std::time::{Duration, Instant};

use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::state::NewGame;
use soulstone_engine::{GameState, Seat, Submission, decide, execute};

/// Times each command of one whole game: `decide` alone (what a server
/// does to accept or refuse), then `decide` with `apply`.
fn time_game(
    setup: &NewGame,
    seed: u64,
    kind: BotKind,
    decided: &mut Vec<Duration>,
    whole: &mut Vec<Duration>,
) {
    let mut state = GameState::new(setup.clone()).expect("a game");
    let mut bots = [Bot::new(kind, Seat::A, seed), Bot::new(kind, Seat::B, seed)];
    while !state.ended {
        let Some((seat, command)) = bots
            .iter_mut()
            .find_map(|bot| Some((bot.seat, bot.decide(&state)?)))
        else {
            break;
        };
        let submission = Submission::player(seat, state.version, command);
        let started = Instant::now();
        let facts = decide(&state, &submission).expect("legal");
        decided.push(started.elapsed());
        std::hint::black_box(facts);
        let mut copy = state.clone();
        let started = Instant::now();
        execute(&mut copy, &submission).expect("legal");
        whole.push(started.elapsed());
        state = copy;
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn main() {
    // `cargo bench` passes criterion's flags; this program takes none.
    let games: u64 = std::env::var("SOULSTONE_LATENCY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let setups = encounter_setups::setups(16, |seed| seed / 4 + 1);
    println!("commands of whole 4th edition encounters, {games} games per bot kind");
    println!("| bots | commands | step | p50 | p99 | p99.9 | max |");
    println!("| --- | ---: | --- | ---: | ---: | ---: | ---: |");
    for (name, kind) in [("random", BotKind::Random), ("greedy", BotKind::Greedy)] {
        let (mut decided, mut whole) = (Vec::new(), Vec::new());
        for seed in 0..games {
            time_game(
                &setups[seed as usize % setups.len()],
                seed,
                kind,
                &mut decided,
                &mut whole,
            );
        }
        for (step, times) in [("decide", &mut decided), ("decide and apply", &mut whole)] {
            times.sort();
            println!(
                "| {name} | {} | {step} | {:.1?} | {:.1?} | {:.1?} | {:.1?} |",
                times.len(),
                percentile(times, 0.5),
                percentile(times, 0.99),
                percentile(times, 0.999),
                times.last().copied().unwrap_or_default()
            );
        }
    }
}
