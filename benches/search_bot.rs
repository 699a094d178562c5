//! A match between two bot levels over the setups of game logs, each setup
//! played twice with the seats swapped: wins, VP from the strategy and the
//! schemes, and the time a searching level takes per decision on one core.
//! `scripts/bot-strength.sh` writes the logs and runs this; the figures go
//! in docs/benchmarks.md. A bench of the server crate, not an example of
//! the engine's: it reads files and the clock, which the engine may not.
//!
//! cargo bench --bench search_bot -- LEVEL LEVEL LOG...
// A measuring tool: a log that does not read stops it with its reason.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "common/decision_times.rs"]
mod decision_times;
#[path = "common/levels.rs"]
mod levels;

use std::time::{Duration, Instant};

use decision_times::print_times;

use soulstone_engine::bot::Bot;
use soulstone_engine::bot::search::Budget;
use soulstone_engine::log::GameLog;
use soulstone_engine::{GameState, Seat, Submission};

/// What one game gave the first level (`ours`) and the second.
struct Outcome {
    vp: [u8; 2],
    strategy_vp: [u8; 2],
    scheme_vp: [u8; 2],
}

/// A level, or a search of one's own: `search:ITERATIONS:WIDTH:VARIANTS:HORIZON`.
type Level = levels::Level<Budget>;

fn level(text: &str) -> Level {
    Level::parse(text, |n| Budget {
        iterations: u32::try_from(n[0]).expect("iterations"),
        root_width: n[1],
        variants: n[2],
        horizon: n[3],
    })
}

impl Level {
    fn bot(&self, seat: Seat, seed: u64) -> Bot {
        let bot = Bot::new(self.kind, seat, seed);
        match &self.budget {
            Some(budget) => bot.with_budget(budget.clone()),
            None => bot,
        }
    }
}

fn play(log: &GameLog, levels: [&Level; 2], seed: u64, times: &mut [Vec<Duration>; 2]) -> Outcome {
    let mut state = Box::new(GameState::new(log.setup.clone()).expect("a game"));
    let mut bots = [levels[0].bot(Seat::A, seed), levels[1].bot(Seat::B, seed)];
    let mut first = 0;
    for _ in 0..50_000 {
        if state.ended {
            break;
        }
        let mut chosen = None;
        for i in [first, 1 - first] {
            let started = Instant::now();
            let command = bots[i].decide(&state);
            let took = started.elapsed();
            if let Some(command) = command {
                times[i].push(took);
                chosen = Some((i, command));
                break;
            }
        }
        let (i, command) = chosen.expect("a bot can move");
        first = i;
        match bots[i].take_worked_out(&state, &command) {
            Some((next, _)) => state = next,
            None => {
                let submission = Submission::player(bots[i].seat, state.version, command);
                soulstone_engine::execute(&mut state, &submission).expect("a legal command");
            }
        }
    }
    assert!(state.ended, "the game ended");
    let encounter = state.encounter.as_deref().expect("an encounter");
    Outcome {
        vp: Seat::BOTH.map(|s| state.player(s).victory_points),
        strategy_vp: encounter.strategy_vp,
        scheme_vp: encounter.scheme_vp,
    }
}

fn main() {
    // `cargo bench` adds `--bench` to the arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let [ours, theirs] = [0, 1].map(|i| {
        args.get(i)
            .map(|text| level(text))
            .expect("usage: bot_match LEVEL LEVEL LOG...")
    });
    let logs: Vec<GameLog> = args[2..]
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("a readable log");
            serde_json::from_str(&text).expect("a game log")
        })
        .collect();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let (mut strategy_games, mut scheme_games, mut games) = (0, 0, 0);
    let (mut strategy_vp, mut scheme_vp, mut their_vp, mut our_vp) = (0u32, 0u32, 0u32, 0u32);
    // Per level, not per seat: index 0 is `ours` whichever seat it held.
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let started = Instant::now();
    for (n, log) in logs.iter().enumerate() {
        for our_seat in Seat::BOTH {
            let levels = match our_seat {
                Seat::A => [&ours, &theirs],
                Seat::B => [&theirs, &ours],
            };
            let mut seat_times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
            let outcome = play(log, levels, n as u64 + 1, &mut seat_times);
            let [mine, other] = [our_seat.index(), our_seat.other().index()];
            times[0].append(&mut seat_times[mine]);
            times[1].append(&mut seat_times[other]);
            games += 1;
            match outcome.vp[mine].cmp(&outcome.vp[other]) {
                std::cmp::Ordering::Greater => wins += 1,
                std::cmp::Ordering::Equal => draws += 1,
                std::cmp::Ordering::Less => losses += 1,
            }
            strategy_games += usize::from(outcome.strategy_vp[mine] > 0);
            scheme_games += usize::from(outcome.scheme_vp[mine] > 0);
            strategy_vp += u32::from(outcome.strategy_vp[mine]);
            scheme_vp += u32::from(outcome.scheme_vp[mine]);
            our_vp += u32::from(outcome.vp[mine]);
            their_vp += u32::from(outcome.vp[other]);
            println!(
                "game {games}: {} as {our_seat:?} {}-{} (strategy {}, schemes {})",
                ours.name,
                outcome.vp[mine],
                outcome.vp[other],
                outcome.strategy_vp[mine],
                outcome.scheme_vp[mine],
            );
        }
    }
    let per = |n: u32| f64::from(n) / f64::from(games.max(1));
    println!(
        "{} against {}: {games} games, {wins} won, {draws} drawn, {losses} lost ({:.0}% won); \
         VP {:.2} to {:.2} a game; strategy VP {:.2} a game, in {:.0}% of games; \
         scheme VP {:.2} a game, at least one in {:.0}% of games; {:.0?} in all",
        ours.name,
        theirs.name,
        100.0 * f64::from(wins) / f64::from(games.max(1)),
        per(our_vp),
        per(their_vp),
        per(strategy_vp),
        100.0 * strategy_games as f64 / f64::from(games.max(1)),
        per(scheme_vp),
        100.0 * scheme_games as f64 / f64::from(games.max(1)),
        started.elapsed(),
    );
    for (level, times) in [&ours, &theirs].into_iter().zip(&mut times) {
        print_times(&level.name, times);
    }
}
