//! Mage Knight's practice levels against each other: the shipped armies on
//! seeded terrain, each setup played twice with the seats swapped; wins,
//! objectives and points eliminated a game, and the time each level takes
//! per decision on one core. Figures: docs/benchmarks.md. A bench of the
//! server crate: it reads the content files and the clock.
//!
//! cargo bench --bench mk_strength -- LEVEL LEVEL SETUPS
//!
//! A level is `random`, `easy`, `normal`, `hard`, or a search of one's
//! own: `search:ITERATIONS:WIDTH:HORIZON:TURNS`.
// A measuring tool: a setup that does not start stops it with its reason.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "common/decision_times.rs"]
mod decision_times;
#[path = "common/levels.rs"]
mod levels;

use std::time::{Duration, Instant};

use decision_times::print_times;

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::{self as mk, bots::search::Budget};
use soulstone_engine::system::{MageKnight, TableGame};

type Level = levels::Level<Budget>;

fn level(text: &str) -> Level {
    Level::parse(text, |n| Budget {
        iterations: u32::try_from(n[0]).expect("iterations"),
        root_width: n[1],
        horizon: n[2],
        turns: u16::try_from(n[3]).expect("turns"),
    })
}

impl Level {
    fn order(&self, battle: &mk::Battle, seat: Seat, seed: u64) -> Option<mk::Order> {
        match &self.budget {
            Some(budget) => mk::bots::search::searched_or_greedy(battle, seat, budget, seed),
            None => MageKnight::bot_command(battle, seat, self.kind, seed),
        }
    }
}

fn setups(count: u64) -> Vec<mk::Setup> {
    let roster = soulstone::content::shipped_mage_knight().expect("Mage Knight content");
    let lists = roster.armies();
    let n = lists.len() as u64;
    (0..count)
        .map(|seed| {
            let armies = [
                roster.field(&lists[(seed % n) as usize]).expect("legal"),
                roster
                    .field(&lists[((seed / n + seed + 1) % n) as usize])
                    .expect("legal"),
            ];
            mk::Setup {
                seed: Bytes32::digest_of(&format!("mk-strength-{seed}")),
                build_total: 300,
                rounds: mk::game::STANDARD_ROUNDS,
                terrain: mk::placing::laid_before(&armies, seed),
                armies,
            }
        })
        .collect()
}

/// The finished battle; each seat's decision times go in `times` by seat.
fn play(
    setup: &mk::Setup,
    levels: [&Level; 2],
    seed: u64,
    times: &mut [Vec<Duration>; 2],
) -> mk::Battle {
    let mut battle = MageKnight::start(setup.clone()).expect("a game");
    for _ in 0..20_000 {
        if MageKnight::is_over(&battle) {
            break;
        }
        let seat = MageKnight::waiting_for(&battle)[0];
        let started = Instant::now();
        let order = levels[seat.index()]
            .order(
                &battle,
                seat,
                seed.wrapping_mul(7919).wrapping_add(battle.version),
            )
            .expect("a bot can move");
        times[seat.index()].push(started.elapsed());
        let submission = MageKnight::player_submission(seat, battle.version, order);
        MageKnight::execute(&mut battle, &submission).expect("a legal order");
    }
    assert!(MageKnight::is_over(&battle), "the game ended");
    battle
}

fn main() {
    // `cargo bench` adds `--bench` to the arguments.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| arg != "--bench")
        .collect();
    let usage = "usage: mk_strength LEVEL LEVEL SETUPS";
    let [ours, theirs] = [0, 1].map(|i| level(args.get(i).expect(usage)));
    let count: u64 = args.get(2).expect(usage).parse().expect(usage);
    let (mut wins, mut draws, mut losses, mut games) = (0u32, 0u32, 0u32, 0u32);
    let (mut our_objectives, mut their_objectives) = (0u32, 0u32);
    let (mut our_points, mut their_points) = (0u32, 0u32);
    let mut times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let started = Instant::now();
    for (n, setup) in setups(count).iter().enumerate() {
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
            let winner = end.outcome.as_ref().and_then(|o| o.winner);
            match winner {
                Some(seat) if seat == our_seat => wins += 1,
                Some(_) => losses += 1,
                None => draws += 1,
            }
            let objectives = Seat::BOTH.map(|s| u32::from(end.objectives_of(s)));
            our_objectives += objectives[mine];
            their_objectives += objectives[other];
            our_points += u32::from(end.eliminated_points[mine]);
            their_points += u32::from(end.eliminated_points[other]);
            println!(
                "game {games}: {} as {our_seat:?}: objectives {}-{}, eliminated {}-{}, {}",
                ours.name,
                objectives[mine],
                objectives[other],
                end.eliminated_points[mine],
                end.eliminated_points[other],
                match winner {
                    Some(seat) if seat == our_seat => "won",
                    Some(_) => "lost",
                    None => "drawn",
                }
            );
        }
    }
    let per = |n: u32| f64::from(n) / f64::from(games.max(1));
    println!(
        "{} against {}: {games} games, {wins} won, {draws} drawn, {losses} lost ({:.0}% won); \
         objectives {:.2} to {:.2} a game; points eliminated {:.0} to {:.0} a game; {:.0?} in all",
        ours.name,
        theirs.name,
        100.0 * per(wins),
        per(our_objectives),
        per(their_objectives),
        per(our_points),
        per(their_points),
        started.elapsed(),
    );
    for (level, times) in [&ours, &theirs].into_iter().zip(&mut times) {
        print_times(&level.name, times);
    }
}
