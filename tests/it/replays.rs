//! Golden replays: logs of whole random games recorded under
//! tests/replays/, replayed by every CI run. A change to a fact's JSON form
//! or to what applying a fact does breaks stored games, and fails here.
//! `SOULSTONE_RECORD_REPLAYS=1 cargo test replays` records the games that
//! are missing; `=all` re-records every one (only after a deliberate,
//! migrated change).

use std::path::{Path, PathBuf};

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::command::{PlayerCommand, Submission};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::log::{GameLog, LOG_FORMAT, LogError, Position, RULES_VERSION};
use soulstone_engine::pending::Choice;
use soulstone_engine::{Edition, GameState, execute, pending};

use crate::engine_props::{new_setup, new_setup_on_table, random_flow_command};

/// One golden file: the stored log, the commands that made it (to notice a
/// rules change) and the position it must reach.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Golden {
    log: Value,
    pub(crate) commands: Vec<Submission>,
    position: Position,
}

/// Name, edition, seed, and whether the game is played on a table with
/// actions (which nest procedures and push models).
const RECORDINGS: [(&str, Edition, u64, bool); 36] = [
    ("m4e-random-1", Edition::Fourth, 11, false),
    ("m4e-random-2", Edition::Fourth, 12, false),
    ("m3e-random-1", Edition::Third, 21, false),
    ("m3e-random-2", Edition::Third, 22, false),
    ("m4e-table-1", Edition::Fourth, 31, true),
    ("m3e-table-1", Edition::Third, 41, true),
    // Rules version 3: an encounter's setup hires crews and cuts after deployment.
    ("m4e-table-v3", Edition::Fourth, 51, true),
    ("m3e-random-v3", Edition::Third, 52, false),
    // Rules version 4: a 3rd edition condition without a value is held or
    // not; a 4th edition token's damage credits the crew that gave it.
    ("m4e-table-v4", Edition::Fourth, 61, true),
    ("m3e-random-v4", Edition::Third, 62, false),
    // Rules version 5: hazardous terrain deals its damage after an
    // encounter's actions.
    ("m4e-table-v5", Edition::Fourth, 71, true),
    ("m3e-random-v5", Edition::Third, 72, false),
    // Rules version 6: a model pushed through hazardous terrain suffers it
    // after the action; schemes may be revealed after an activation.
    ("m4e-table-v6", Edition::Fourth, 81, true),
    ("m3e-random-v6", Edition::Third, 82, false),
    // Rules version 7: a model pushed off terrain falls; damage-reducing
    // abilities have categories an action may ignore.
    ("m4e-table-v7", Edition::Fourth, 91, true),
    ("m3e-random-v7", Edition::Third, 92, false),
    // Rules version 8: 3rd edition schemes are checked by the engine and
    // its strategies picked by the pool's suits; a scheme's chosen model
    // must be one its choice allows.
    ("m4e-table-v8", Edition::Fourth, 111, true),
    ("m3e-random-v8", Edition::Third, 120, false),
    // Rules version 9: a push stopped in base contact never rounds into
    // the other base; Plant Explosives is played by the engine.
    ("m4e-table-v9", Edition::Fourth, 121, true),
    ("m3e-random-v9", Edition::Third, 112, false),
    // Rules version 10: Corrupted Idols is played by the engine (a
    // marker dropped each start phase, moved for damage); Turf War's
    // markers are impassable; a 3rd edition model takes one bonus action
    // an activation, and a Stunned one's take one of its limit.
    ("m4e-table-v10", Edition::Fourth, 133, true),
    ("m3e-random-v10", Edition::Third, 132, false),
    // Rules version 11: a 3rd edition model engages as far as its longest
    // melee action reaches (none without one), a Walk may not leave an
    // engaging enemy's range, and Disengage is a general action.
    ("m3e-table-v11", Edition::Third, 141, true),
    ("m3e-random-v11", Edition::Third, 142, false),
    // Rules version 12: a 3rd edition model may end a move on a strategy
    // marker and a dropped one may lie under it; the killing crew picks
    // the marker a Turf War kill turns, and the opposing crew the model
    // that gains a killed carrier's explosives; Assist is a general
    // action; strategies and schemes ignore Insignificant models.
    ("m4e-table-v12", Edition::Fourth, 151, true),
    ("m3e-table-v12", Edition::Third, 152, true),
    // Rules version 13: a Turf War kill's marker and a killed carrier's
    // explosives are offered even when there is one, and may be declined.
    ("m3e-table-v13", Edition::Third, 161, true),
    ("m3e-random-v13", Edition::Third, 162, false),
    // Rules version 14: the last turn's end phase selects no new schemes
    // and abandons none (the game ends before a new one could score).
    ("m4e-table-v14", Edition::Fourth, 171, true),
    ("m4e-random-v14", Edition::Fourth, 172, false),
    // Rules version 15: a 4th edition action out of range is declared and
    // fails; once-per-activation effects wait for an activation; every
    // 4th edition token keeps its crew, and the other crew's replaces it;
    // a trigger that names no timing resolves after the damage; Remains
    // are their crew's, five at most; Assassinate may be revealed at the
    // end of an activation; a 3rd edition Interact ignores who touches
    // the marker.
    ("m4e-table-v15", Edition::Fourth, 181, true),
    ("m3e-table-v15", Edition::Third, 182, true),
    // Rules version 16: a 3rd edition piece of hazardous terrain hurts
    // once per action, not once per activation; 3rd edition crews buy
    // upgrades at hiring.
    ("m3e-table-v16", Edition::Third, 191, true),
    ("m4e-table-v16", Edition::Fourth, 192, true),
    // Rules version 17: a 3rd edition action a trigger generated declares
    // no triggers; the starter crews of every faction.
    ("m3e-table-v17", Edition::Third, 201, true),
    ("m4e-table-v17", Edition::Fourth, 202, true),
];

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays")
}

/// Plays a random legal game and keeps its log and commands.
fn record(edition: Edition, seed: u64, on_table: bool) -> Golden {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let setup = if on_table {
        new_setup_on_table(&mut rng, edition)
    } else {
        new_setup(&mut rng, edition)
    };
    let mut state = GameState::new(setup.clone()).unwrap();
    let mut log = GameLog::new(setup);
    let mut commands = Vec::new();
    for _ in 0..400 {
        let waiting = pending(&state);
        if waiting.ended {
            break;
        }
        let submission = if let Some(decision) = waiting.decisions.choose(&mut rng).cloned() {
            let command = match decision.choices.choose(&mut rng).unwrap().clone() {
                Choice::Command { command } => command,
                Choice::DiscardCards { count, from } => PlayerCommand::DiscardDown {
                    cards: from.iter().take(usize::from(count)).copied().collect(),
                },
                Choice::Entropy => PlayerCommand::Contribute {
                    entropy: Bytes32(rng.random()),
                },
                // A choice with parameters (a blast's spot, a move's path):
                // a random bot fills it in. Games recorded before this
                // never met one, so their seeds still give the same game.
                other => {
                    let mut bot = Bot::new(BotKind::Random, decision.seat, rng.random());
                    match bot.decide(&state) {
                        Some(command) => command,
                        None => panic!("no bot could fill in {other:?}"),
                    }
                }
            };
            Submission::player(decision.seat, state.version, command)
        } else {
            Submission::flow(state.version, random_flow_command(&mut rng, &state))
        };
        // The game flow's random commands may be refused; those are not logged.
        if let Ok(facts) = execute(&mut state, &submission) {
            log.facts.extend(facts);
            commands.push(submission);
        }
    }
    Golden {
        log: serde_json::to_value(&log).unwrap(),
        position: Position::of(&state),
        commands,
    }
}

/// The golden file with one fact and one command a line, so a diff shows
/// exactly which facts changed.
fn one_item_a_line(golden: &Golden) -> String {
    let lines = |items: &[Value]| {
        items
            .iter()
            .map(|item| serde_json::to_string(item).unwrap())
            .collect::<Vec<_>>()
            .join(",\n")
    };
    let commands: Vec<Value> = golden
        .commands
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    format!(
        "{{\"log\": {{\"log_format\": {}, \"rules_version\": {}, \"setup\": {},\n\"facts\": [\n{}\n]}},\n\"commands\": [\n{}\n],\n\"position\": {}}}\n",
        golden.log["log_format"],
        golden.log["rules_version"],
        golden.log["setup"],
        lines(golden.log["facts"].as_array().unwrap()),
        lines(&commands),
        serde_json::to_string(&golden.position).unwrap(),
    )
}

pub(crate) fn golden_files() -> Vec<(String, String)> {
    // The tests run in parallel: the files are written once, before any is read.
    static RECORDED: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    RECORDED.get_or_init(|| {
        if std::env::var_os("SOULSTONE_RECORD_REPLAYS").is_some() {
            let everything = std::env::var_os("SOULSTONE_RECORD_REPLAYS") == Some("all".into());
            for (name, edition, seed, on_table) in RECORDINGS {
                let path = folder().join(format!("{name}.json"));
                // Stored games are never rewritten: only missing ones are
                // recorded, unless every one is asked for.
                if path.exists() && !everything {
                    continue;
                }
                let text = one_item_a_line(&record(edition, seed, on_table));
                std::fs::write(path, text).unwrap();
            }
        }
    });
    let mut files: Vec<(String, String)> = std::fs::read_dir(folder())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            (
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

pub(crate) fn read(text: &str) -> (GameLog, Golden) {
    let golden: Golden = serde_json::from_str(text).unwrap();
    let log = GameLog::from_json(&golden.log.to_string()).unwrap_or_else(|e| panic!("{e}"));
    (log, golden)
}

#[test]
fn golden_replays_reach_their_recorded_positions() {
    let files = golden_files();
    assert!(
        files.len() >= 6,
        "expected the golden logs, found {}",
        files.len()
    );
    for (path, text) in &files {
        let golden: Golden = serde_json::from_str(text).unwrap();
        let log = GameLog::from_json(&golden.log.to_string())
            .unwrap_or_else(|e| panic!("{path}: a stored game no longer loads: {e}"));
        assert!(
            log.facts.len() > 100,
            "{path}: only {} facts: not a real game",
            log.facts.len()
        );
        let state = log.replay().unwrap();
        assert_eq!(
            Position::of(&state),
            golden.position,
            "{path}: replaying the stored facts no longer reaches the recorded position"
        );
    }
}

/// Old games keep their facts, but today's rules must still turn the same
/// commands into the same facts, or RULES_VERSION must have been raised
/// (and a game recorded under the new rules added).
#[test]
fn the_same_commands_give_the_same_facts_under_the_same_rules() {
    let files = golden_files();
    let mut current = 0;
    for (path, text) in &files {
        let (log, golden) = read(text);
        assert!(
            log.rules_version <= RULES_VERSION,
            "{path}: from newer rules"
        );
        if log.rules_version < RULES_VERSION {
            continue;
        }
        current += 1;
        let mut state = GameState::new(log.setup.clone()).unwrap();
        let mut facts = Vec::new();
        for (index, submission) in golden.commands.iter().enumerate() {
            let made = execute(&mut state, submission).unwrap_or_else(|e| {
                panic!("{path}: command #{index} is now refused ({e}): raise RULES_VERSION")
            });
            facts.extend(made);
        }
        assert!(
            facts == log.facts,
            "{path}: the same commands now give other facts: the rules changed, so raise \
             RULES_VERSION and record a new golden game beside the old ones"
        );
    }
    assert!(
        current >= 2,
        "record golden games under rules version {RULES_VERSION}"
    );
}

/// A fact whose JSON form changed cannot pass unnoticed: loading the log
/// says which fact it cannot read, and a log of another format is refused.
#[test]
fn a_changed_fact_format_is_detected() {
    let files = golden_files();
    let (_, text) = &files[0];
    let golden: Golden = serde_json::from_str(text).unwrap();

    // A field renamed in one fact (as a careless refactor would).
    let mut renamed = golden.log.clone();
    let facts = renamed["facts"].as_array_mut().unwrap();
    let index = facts
        .iter()
        .position(|f| f["type"] == "revealed")
        .expect("a game with a flip");
    let fact = facts[index].as_object_mut().unwrap();
    let cards = fact.remove("cards").unwrap();
    fact.insert("flipped".into(), cards);
    match GameLog::from_json(&renamed.to_string()) {
        Err(LogError::Fact { index: at, message }) => {
            assert_eq!(at, index);
            assert!(
                message.contains("flipped") || message.contains("cards"),
                "{message}"
            );
        }
        other => panic!("a renamed field was not detected: {other:?}"),
    }

    // A fact type that no longer exists.
    let mut unknown = golden.log.clone();
    unknown["facts"][3]["type"] = "duel_step".into();
    assert!(matches!(
        GameLog::from_json(&unknown.to_string()),
        Err(LogError::Fact { index: 3, .. })
    ));

    // Another log format.
    let mut other_format = golden.log.clone();
    other_format["log_format"] = (LOG_FORMAT + 1).into();
    let error = GameLog::from_json(&other_format.to_string()).unwrap_err();
    assert!(matches!(error, LogError::Format { .. }));
    assert!(error.to_string().contains("migration"), "{error}");

    // And a fact applied differently reaches another position.
    let (log, golden) = read(text);
    let mut altered = log.clone();
    let health = altered
        .facts
        .iter()
        .position(|f| matches!(f, soulstone_engine::Event::HealthChanged { .. }))
        .expect("a game with damage");
    altered.facts.remove(health);
    assert_ne!(Position::of(&altered.replay().unwrap()), golden.position);
}
