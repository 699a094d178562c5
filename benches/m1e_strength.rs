//! The 1st edition's practice levels against each other: Scraps between
//! the shipped crews, each setup played twice with the seats swapped; wins,
//! VP from the strategy and from the schemes a game, and the time each
//! level takes per decision on one core. Figures: docs/benchmarks.md. A
//! bench of the server crate: it reads the content files and the clock.
//!
//! cargo bench --bench m1e_strength -- LEVEL LEVEL SETUPS
//!
//! A level is `random`, `easy`, `normal`, `hard`, or a search of one's
//! own: `search:ITERATIONS:WIDTH:HORIZON:TURNS`.
// A measuring tool: a setup that does not start stops it with its reason.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "common/decision_times.rs"]
mod decision_times;
#[path = "common/first_edition_setups.rs"]
mod first_edition_setups;
#[path = "common/levels.rs"]
mod levels;

use std::time::{Duration, Instant};

use decision_times::print_times;

use soulstone_engine::Seat;
use soulstone_engine::first_edition::search::{Budget, searched_or_greedy};
use soulstone_engine::first_edition::{self as m1e, flow::Order};
use soulstone_engine::system::{FirstEdition, TableGame};

type Level = levels::Level<Budget>;

fn level(text: &str) -> Level {
    Level::parse(text, |n| Budget {
        iterations: u32::try_from(n[0]).expect("iterations"),
        root_width: n[1],
        horizon: n[2],
        turns: u8::try_from(n[3]).expect("turns"),
    })
}

impl Level {
    fn order(&self, game: &m1e::Skirmish, seat: Seat, seed: u64) -> Option<Order> {
        match &self.budget {
            Some(budget) => searched_or_greedy(game, seat, budget, seed),
            None => FirstEdition::bot_command(game, seat, self.kind, seed),
        }
    }
}

/// The finished game; each seat's decision times go in `times` by seat.
fn play(
    setup: &m1e::Setup,
    levels: [&Level; 2],
    seed: u64,
    times: &mut [Vec<Duration>; 2],
) -> m1e::Skirmish {
    let mut game = FirstEdition::start(setup.clone()).expect("a game");
    for step in 0..20_000usize {
        if FirstEdition::is_over(&game) {
            break;
        }
        // Both decide at once in two steps of the setup: take turns.
        let waiting = FirstEdition::waiting_for(&game);
        let seat = waiting[step % waiting.len()];
        let started = Instant::now();
        let order = levels[seat.index()]
            .order(
                &game,
                seat,
                seed.wrapping_mul(7919).wrapping_add(game.version),
            )
            .expect("a bot can move");
        times[seat.index()].push(started.elapsed());
        let submission = FirstEdition::player_submission(seat, game.version, order);
        FirstEdition::execute(&mut game, &submission).expect("a legal order");
    }
    assert!(FirstEdition::is_over(&game), "the game ended");
    game
}

fn main() {
    // `cargo bench` adds `--bench` to the arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let usage = "usage: m1e_strength LEVEL LEVEL SETUPS";
    let [ours, theirs] = [0, 1].map(|i| level(args.get(i).expect(usage)));
    let count: usize = args.get(2).expect(usage).parse().expect(usage);
    let (mut wins, mut draws, mut losses, mut games) = (0u32, 0u32, 0u32, 0u32);
    let mut vp = [[0u32; 2]; 2];
    let (mut with_strategy, mut with_scheme) = (0u32, 0u32);
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let started = Instant::now();
    for (n, setup) in first_edition_setups::setups(count, "m1e strength")
        .iter()
        .enumerate()
    {
        for our_seat in Seat::BOTH {
            let levels = match our_seat {
                Seat::A => [&ours, &theirs],
                Seat::B => [&theirs, &ours],
            };
            let mut seat_times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
            let end = play(setup, levels, n as u64 + 1, &mut seat_times);
            let [mine, other] = [our_seat.index(), our_seat.other().index()];
            times[0].append(&mut seat_times[mine]);
            times[1].append(&mut seat_times[other]);
            games += 1;
            let result = end.result.expect("a finished game has its result");
            let total = |i: usize| u32::from(result[i].0) + u32::from(result[i].1);
            let outcome = total(mine).cmp(&total(other));
            match outcome {
                std::cmp::Ordering::Greater => wins += 1,
                std::cmp::Ordering::Less => losses += 1,
                std::cmp::Ordering::Equal => draws += 1,
            }
            for (side, i) in [mine, other].into_iter().enumerate() {
                vp[side][0] += u32::from(result[i].0);
                vp[side][1] += u32::from(result[i].1);
            }
            with_strategy += u32::from(result[mine].0 > 0);
            with_scheme += u32::from(result[mine].1 > 0);
            let strategies = [mine, other].map(|i| end.players[i].strategy);
            println!(
                "game {games}: {} as {our_seat:?}: strategies {strategies:?}, strategy {}-{}, \
                 schemes {}-{}, turns {}, {outcome:?}",
                ours.name,
                result[mine].0,
                result[other].0,
                result[mine].1,
                result[other].1,
                end.turn,
            );
        }
    }
    let per = |n: u32| f64::from(n) / f64::from(games.max(1));
    println!(
        "{} against {}: {games} games, {wins} won, {draws} drawn, {losses} lost ({:.0}% won, \
         {:.0}% with draws as halves); strategy VP {:.2} to {:.2} a game, scheme VP {:.2} to \
         {:.2}; {} scored strategy VP in {:.0}% of its games and scheme VP in {:.0}%; {:.0?} in all",
        ours.name,
        theirs.name,
        100.0 * per(wins),
        100.0 * (per(wins) + per(draws) / 2.0),
        per(vp[0][0]),
        per(vp[1][0]),
        per(vp[0][1]),
        per(vp[1][1]),
        ours.name,
        100.0 * per(with_strategy),
        100.0 * per(with_scheme),
        started.elapsed(),
    );
    for (level, times) in [&ours, &theirs].into_iter().zip(&mut times) {
        print_times(&level.name, times);
    }
}
