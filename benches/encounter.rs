//! Whole encounters (4th edition, 3rd and 1st) played by the engine's
//! bots, from the setup flips to the final VP, and whole Mage Knight games:
//! games per second on one core (the goal is 1,000), and how long one
//! command takes to decide. Figures are in docs/benchmarks.md.
// A benchmark that cannot set up has nothing to measure: it stops.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[path = "common/encounter_setups.rs"]
mod encounter_setups;
#[path = "common/first_edition_setups.rs"]
mod first_edition_setups;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use soulstone_engine::bot::{Bot, BotKind, play_to_end};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition as m1e;
use soulstone_engine::mage_knight as mk;
use soulstone_engine::state::NewGame;
use soulstone_engine::system::{FirstEdition, MageKnight, TableGame};
use soulstone_engine::{GameState, Seat, Submission, execute};

// The allocator the server runs with (src/main.rs), so the games a second
// here are the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn play(setup: &NewGame, seed: u64, kind: BotKind) -> usize {
    let mut state = Box::new(GameState::new(setup.clone()).expect("a game"));
    let mut bots = [Bot::new(kind, Seat::A, seed), Bot::new(kind, Seat::B, seed)];
    let mut facts = 0;
    play_to_end(&mut state, &mut bots, 50_000, |_, _, f| facts += f.len()).expect("the game ends");
    facts
}

/// A whole game of a system played through the game-system boundary.
fn play_table_game<G: TableGame>(setup: &G::Setup, seed: u64, kind: BotKind) -> usize {
    let mut game = G::start(setup.clone()).expect("a game");
    let mut facts = 0;
    while !G::is_over(&game) {
        let seat = G::waiting_for(&game)[0];
        let version = G::version(&game);
        let order =
            G::bot_command(&game, seat, kind, seed.wrapping_add(version)).expect("a bot order");
        let submission = G::player_submission(seat, version, order);
        facts += G::execute(&mut game, &submission).expect("legal").len();
    }
    facts
}

/// Whole games of a system between random bots and between greedy bots,
/// through the game-system boundary.
fn bench_games<G: TableGame>(c: &mut Criterion, group: &str, setups: &[G::Setup]) {
    let mut group = c.benchmark_group(group);
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    for (name, kind) in [
        ("random_bots", BotKind::Random),
        ("greedy_bots", BotKind::Greedy),
    ] {
        let mut next = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                next += 1;
                play_table_game::<G>(&setups[next as usize % setups.len()], next, kind)
            })
        });
    }
    group.finish();
}

/// 1st edition Scraps of the ready crews in turn.
fn first_edition_setups() -> Vec<m1e::Setup> {
    first_edition_setups::setups(16, "m1e bench")
}

fn encounters(c: &mut Criterion) {
    let setups = encounter_setups::setups(16, |seed| seed + 1);
    // A fixed count of random-bot games and nothing else, for a profiler
    // or an instruction count (valgrind --tool=callgrind), which repeat
    // exactly where timings do not (SOULSTONE_BENCH_EDITION=m3e: 3rd
    // edition games).
    if let Some(games) = std::env::var("SOULSTONE_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse::<u64>().ok())
    {
        let started = std::time::Instant::now();
        match std::env::var("SOULSTONE_BENCH_EDITION").as_deref() {
            Ok("m1e") => {
                let m1e = first_edition_setups();
                for game in 0..games {
                    play_table_game::<FirstEdition>(
                        &m1e[game as usize % m1e.len()],
                        game,
                        BotKind::Random,
                    );
                }
            }
            edition => {
                let setups = match edition {
                    Ok("m3e") => encounter_setups::setups_of("m3e", 16, |seed| seed + 1),
                    _ => setups,
                };
                for game in 0..games {
                    play(&setups[game as usize % setups.len()], game, BotKind::Random);
                }
            }
        }
        eprintln!("{games} games in {:?}", started.elapsed());
        return;
    }
    let mut group = c.benchmark_group("engine_m4e_encounter");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    for (name, kind) in [
        ("random_bots", BotKind::Random),
        ("greedy_bots", BotKind::Greedy),
    ] {
        let mut next = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                next += 1;
                play(&setups[next as usize % setups.len()], next, kind)
            })
        });
    }
    group.finish();

    // 3rd edition encounters with its four starter crews (five turns).
    let m3e = encounter_setups::setups_of("m3e", 16, |seed| seed + 1);
    let mut group = c.benchmark_group("engine_m3e_encounter");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let mut next = 0u64;
    group.bench_function("random_bots", |b| {
        b.iter(|| {
            next += 1;
            play(&m3e[next as usize % m3e.len()], next, BotKind::Random)
        })
    });
    group.finish();

    // Mage Knight: the three ready 300-point armies in turn, placing the
    // terrain they bring, twelve rounds, through the game-system boundary.
    let roster = soulstone::content::shipped_mage_knight().expect("Mage Knight content");
    let lists = roster.armies();
    let mk_setups: Vec<mk::Setup> = (0..16u64)
        .map(|seed| {
            let n = lists.len() as u64;
            let armies = [
                roster.field(&lists[(seed % n) as usize]).expect("legal"),
                roster
                    .field(&lists[((seed + 1) % n) as usize])
                    .expect("legal"),
            ];
            mk::Setup {
                seed: Bytes32::digest_of(&seed.to_string()),
                build_total: 300,
                rounds: mk::game::STANDARD_ROUNDS,
                terrain: mk::placing::laid_before(&armies, seed),
                armies,
            }
        })
        .collect();
    bench_games::<MageKnight>(c, "engine_mk_game", &mk_setups);

    // 1st edition Scraps: the four ready 35-soulstone crews in turn, six
    // turns or more, through the game-system boundary
    // (SOULSTONE_BENCH_EDITION=m1e for a fixed count of them).
    bench_games::<FirstEdition>(c, "engine_m1e_encounter", &first_edition_setups());

    // One command, decided and applied, at points a hosted game would see:
    // the commands of a whole random game, replayed one at a time.
    let mut state = GameState::new(setups[0].clone()).expect("a game");
    let mut bots = [
        Bot::new(BotKind::Random, Seat::A, 1),
        Bot::new(BotKind::Random, Seat::B, 1),
    ];
    let mut positions: Vec<(GameState, Submission)> = Vec::new();
    while !state.ended {
        let Some((seat, command)) = bots
            .iter_mut()
            .find_map(|bot| Some((bot.seat, bot.decide(&state)?)))
        else {
            break;
        };
        let submission = Submission::player(seat, state.version, command);
        positions.push((state.clone(), submission.clone()));
        execute(&mut state, &submission).expect("legal");
    }
    let mut group = c.benchmark_group("engine_m4e_command");
    group.throughput(Throughput::Elements(1));
    let mut i = 0usize;
    group.bench_function("decide_and_apply", |b| {
        b.iter_batched(
            || {
                i = (i + 1) % positions.len();
                positions[i].clone()
            },
            |(mut state, submission)| execute(&mut state, &submission).expect("legal"),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, encounters);
criterion_main!(benches);
