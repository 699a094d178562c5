//! One random-play conformance run over every game system, through the
//! boundary the host works with (`soulstone_engine::system::TableGame`)
//! and nothing else, as OpenSpiel tests every game it holds. What the host
//! relies on is checked for each: the game ends; the version counts the
//! facts; the facts alone rebuild the state from the setup; state, facts
//! and submissions survive a trip through JSON (the host stores them so);
//! a refused command (a stale version, a seat the game does not wait for)
//! changes nothing; while the game goes on it waits for someone; the
//! score adds up (Malifaux's parts to its total, Mage Knight's
//! objectives within the three tokens); ending it early ends it; and a
//! finished log is written. A new system adds one line to the list below.

use serde::Serialize;
use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::system::{FirstEdition, MageKnight, Malifaux, Score, TableGame, Tally};

/// Commands a conformance game may take before it counts as endless.
const MAX_COMMANDS: usize = 20_000;

/// The games each system plays: (what it is, its setup).
fn setups() -> Vec<(&'static str, <Malifaux as TableGame>::Setup)> {
    (0..4)
        .flat_map(|seed| {
            [
                (
                    "Malifaux 4th edition",
                    super::encounter::set_up("m4e", seed),
                ),
                (
                    "Malifaux 3rd edition",
                    super::encounter::set_up("m3e", seed),
                ),
            ]
        })
        .collect()
}

#[test]
fn every_game_system_plays_to_its_end_through_the_boundary() {
    for (name, setup) in setups() {
        conform::<Malifaux>(name, setup, 7);
    }
}

/// Malifaux's VP parts add up to the total; Mage Knight's objectives are
/// its total, and no more than the three tokens are held.
fn score_adds_up(name: &str, score: &Score) {
    match score.tally {
        Tally::VictoryPoints { strategy, schemes } => {
            for i in 0..2 {
                assert_eq!(
                    strategy[i] + schemes[i],
                    score.total[i],
                    "{name}: score parts"
                );
            }
        }
        Tally::Objectives {
            objectives,
            eliminated,
            army,
        } => {
            assert_eq!(objectives, score.total, "{name}: objectives are the score");
            assert!(
                objectives[0] + objectives[1] <= 3,
                "{name}: three objectives"
            );
            for i in 0..2 {
                assert!(
                    eliminated[i] <= army[1 - i],
                    "{name}: no more eliminated than the opposing army had"
                );
            }
        }
    }
}

#[test]
fn first_edition_plays_to_its_end_through_the_boundary() {
    for seed in 0..3 {
        conform::<FirstEdition>(
            "Malifaux 1st edition",
            super::first_edition_games::set_up(seed),
            11 + seed,
        );
    }
}

#[test]
fn mage_knight_plays_to_its_end_through_the_boundary() {
    for seed in 0..4 {
        conform::<MageKnight>("Mage Knight", super::mage_knight::set_up(seed), 7 + seed);
    }
}

fn json<T: Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("it serializes")
}

/// Plays one game of `G` from `setup` with random bots seeded by `seed`,
/// holding it to the boundary's promises after every command.
fn conform<G: TableGame>(name: &str, setup: G::Setup, seed: u64) {
    let mut state = G::start(setup.clone()).expect("the setup starts a game");
    let mut facts: Vec<G::Fact> = Vec::new();
    let mut commands: Vec<(u32, G::Submission)> = Vec::new();
    let mut ended_early = false;
    for step in 0..MAX_COMMANDS {
        if G::is_over(&state) {
            break;
        }
        let version = G::version(&state);
        assert_eq!(
            version,
            facts.len() as u64,
            "{name}: the version counts the facts"
        );
        let waiting = G::waiting_for(&state);
        assert!(
            !waiting.is_empty(),
            "{name}: a game going on waits for someone"
        );
        score_adds_up(name, &G::score(&state));
        let seat = waiting[(step + seed as usize) % waiting.len()];
        let bot_seed = seed.wrapping_mul(31).wrapping_add(version);
        let command =
            G::bot_command(&state, seat, BotKind::Random, bot_seed).unwrap_or_else(|| {
                panic!("{name}: the game waits for {seat:?}, whose bot has no move")
            });
        if step % 97 == 0 {
            refusals_change_nothing::<G>(name, &state, seat, &command);
        }
        if step == 40 {
            // Ending a game early (a clock, a resignation) ends it, on a copy.
            let mut copy = state.clone();
            G::execute(&mut copy, &G::end_now(version)).expect("a game can be ended");
            assert!(G::is_over(&copy), "{name}: ended early, the game is over");
            assert!(
                G::waiting_for(&copy).is_empty(),
                "{name}: an ended game waits for no one"
            );
            ended_early = true;
        }
        let submission = G::player_submission(seat, version, command);
        let made = G::execute(&mut state, &submission)
            .unwrap_or_else(|e| panic!("{name}: the random bot's command was refused: {e}"));
        assert!(!made.is_empty(), "{name}: an accepted command makes a fact");
        commands.push((u32::try_from(facts.len()).expect("few facts"), submission));
        facts.extend(made);
    }
    assert!(
        G::is_over(&state),
        "{name}: the game ended within {MAX_COMMANDS} commands"
    );
    assert!(
        ended_early,
        "{name}: the game lasted long enough to try ending it early"
    );
    assert_eq!(G::version(&state), facts.len() as u64);

    // The host stores the facts and submissions as JSON, and rebuilds the
    // state from the setup and the facts read back.
    let stored_facts: Vec<G::Fact> = facts
        .iter()
        .map(|fact| {
            serde_json::from_str(&serde_json::to_string(fact).expect("a fact serializes"))
                .expect("a stored fact reads back")
        })
        .collect();
    let mut rebuilt = G::start(
        serde_json::from_str(&serde_json::to_string(&setup).expect("setup serializes"))
            .expect("a stored setup reads back"),
    )
    .expect("the stored setup starts");
    for fact in &stored_facts {
        G::apply(&mut rebuilt, fact);
    }
    assert_eq!(
        json(&rebuilt),
        json(&state),
        "{name}: the facts rebuild the state"
    );
    let snapshot: G::State =
        serde_json::from_str(&serde_json::to_string(&state).expect("the state serializes"))
            .expect("a snapshot reads back");
    assert_eq!(
        json(&snapshot),
        json(&state),
        "{name}: a snapshot reads back the same"
    );
    for (_, submission) in &commands {
        let _: G::Submission =
            serde_json::from_str(&serde_json::to_string(submission).expect("it serializes"))
                .expect("a stored submission reads back");
    }
    let log = G::finished_log(setup, facts, commands, (G::LOG_FORMAT, G::RULES_VERSION));
    assert!(
        json(&log).is_object(),
        "{name}: the finished log is written"
    );
}

/// A stale version and a seat the game does not wait for are refused, and
/// leave the state as it was.
fn refusals_change_nothing<G: TableGame>(
    name: &str,
    state: &G::State,
    seat: Seat,
    command: &G::Command,
) {
    let before = json(state);
    let version = G::version(state);
    let mut copy = state.clone();
    let stale = G::player_submission(seat, version + 1, command.clone());
    assert!(
        G::execute(&mut copy, &stale).is_err(),
        "{name}: a stale version is refused"
    );
    assert_eq!(
        json(&copy),
        before,
        "{name}: a refused command changes nothing"
    );
    if !G::waiting_for(state).contains(&seat.other()) {
        let wrong_seat = G::player_submission(seat.other(), version, command.clone());
        assert!(
            G::execute(&mut copy, &wrong_seat).is_err(),
            "{name}: a seat the game does not wait for is refused"
        );
        assert_eq!(
            json(&copy),
            before,
            "{name}: a refused command changes nothing"
        );
    }
}
