//! A log that proves the whole game: its commands, played through the rules
//! again, must make every fact it holds, and its seal must hold. Each kind
//! of edit is refused, naming the first fact that differs.

use soulstone::hosted::seal::{LogSigner, SealCheck, check_seal};
use soulstone_engine::log::{CommandReplay, GameLog, LogError, LoggedCommand, RULES_VERSION};
use soulstone_engine::{Event, GameState, execute};

use crate::replays::{golden_files, read};

/// A golden game of today's rules, with its commands kept as a hosted
/// game keeps them (each at the index of its first fact).
fn logged_game() -> GameLog {
    let (mut log, golden) = golden_files()
        .iter()
        .map(|(_, text)| read(text))
        .find(|(log, _)| log.rules_version == RULES_VERSION)
        .expect("a golden game of today's rules");
    let mut state = GameState::new(log.setup.clone()).unwrap();
    let mut made = 0u32;
    for submission in golden.commands {
        let facts = execute(&mut state, &submission).unwrap();
        if facts.is_empty() {
            continue;
        }
        log.commands.push(LoggedCommand {
            at_fact: made,
            submission,
        });
        made += u32::try_from(facts.len()).unwrap();
    }
    assert_eq!(made as usize, log.facts.len());
    log
}

fn mismatch_at(log: &GameLog) -> (usize, String) {
    match log.replay_commands() {
        Err(LogError::Mismatch { index, message }) => (index, message),
        other => panic!("the edit went unnoticed: {other:?}"),
    }
}

#[test]
fn an_untouched_log_replays_command_for_command_and_its_seal_holds() {
    let mut log = logged_game();
    let CommandReplay::Same { commands, state } = log.replay_commands().unwrap() else {
        panic!("not played again");
    };
    assert_eq!(commands, log.commands.len());
    assert_eq!(*state, log.replay().unwrap());
    let signer = LogSigner::from_secret(b"a server secret of thirty-two bytes");
    signer.seal(&mut log);
    // Written and read back, the seal still holds.
    let text = serde_json::to_string(&log).unwrap();
    let read_back = GameLog::from_json(&text).unwrap();
    assert_eq!(
        check_seal(&read_back, Some(&signer.public_key_hex())),
        Ok(SealCheck::Signed {
            key: signer.public_key_hex()
        })
    );
    // Another server's key is not this one.
    let other = LogSigner::from_secret(b"another server secret, also long!!");
    let refused = check_seal(&read_back, Some(&other.public_key_hex())).unwrap_err();
    assert!(refused.contains("not with"), "{refused}");
}

#[test]
fn a_changed_number_is_found_at_its_fact() {
    let log = logged_game();
    let index = log
        .facts
        .iter()
        .position(|f| matches!(f, Event::HealthChanged { .. }))
        .expect("some model's health changes");
    let mut edited = log.clone();
    if let Event::HealthChanged { to, .. } = &mut edited.facts[index] {
        *to = to.saturating_add(4);
    }
    let (at, message) = mismatch_at(&edited);
    assert_eq!(at, index, "{message}");
    assert!(message.contains("health_changed"), "{message}");
}

#[test]
fn a_deleted_fact_is_found_where_it_was() {
    let log = logged_game();
    let index = log.facts.len() / 2;
    let mut edited = log.clone();
    edited.facts.remove(index);
    let (at, message) = mismatch_at(&edited);
    assert_eq!(at, index, "{message}");
}

#[test]
fn a_log_cut_short_is_caught_by_its_commands_and_by_its_seal() {
    let mut log = logged_game();
    let signer = LogSigner::from_secret(b"a server secret of thirty-two bytes");
    signer.seal(&mut log);
    let keep = log.facts.len() / 3;

    // The facts cut, the commands left: they go on past the end.
    let mut cut = log.clone();
    cut.facts.truncate(keep);
    let (at, message) = mismatch_at(&cut);
    assert_eq!(at, keep, "{message}");
    assert!(message.contains("the log ends after"), "{message}");

    // Both cut where a command begins, so the commands agree: the seal
    // does not.
    let mut both = log.clone();
    let first_cut = both
        .commands
        .iter()
        .position(|c| c.at_fact as usize >= keep)
        .unwrap();
    let at_fact = both.commands[first_cut].at_fact as usize;
    both.commands.truncate(first_cut);
    both.facts.truncate(at_fact);
    assert!(matches!(
        both.replay_commands(),
        Ok(CommandReplay::Same { .. })
    ));
    let refused = check_seal(&both, Some(&signer.public_key_hex())).unwrap_err();
    assert!(refused.contains("edited or cut short"), "{refused}");
    // Without its seal, a key asked for finds none.
    both.seal = None;
    assert!(check_seal(&both, Some(&signer.public_key_hex())).is_err());
    assert_eq!(check_seal(&both, None), Ok(SealCheck::Unsealed));
}

#[test]
fn a_swapped_command_is_found_at_the_first_fact_it_changes() {
    let log = logged_game();
    // Two neighbouring commands of different players, or any two that
    // differ, exchanged (keeping where each says its facts begin).
    let at = (1..log.commands.len())
        .find(|&i| log.commands[i].submission != log.commands[i - 1].submission)
        .unwrap();
    let mut edited = log.clone();
    let (first, second) = (
        edited.commands[at - 1].submission.clone(),
        edited.commands[at].submission.clone(),
    );
    edited.commands[at - 1].submission = second;
    edited.commands[at].submission = first;
    let (index, message) = mismatch_at(&edited);
    assert!(
        index >= log.commands[at - 1].at_fact as usize,
        "named fact #{index} before the swap: {message}"
    );
    assert!(
        index
            <= log
                .commands
                .get(at + 1)
                .map_or(log.facts.len(), |c| c.at_fact as usize),
        "named fact #{index} after the swapped commands: {message}"
    );
}

#[test]
fn an_edited_log_no_longer_matches_its_seal() {
    let mut log = logged_game();
    let signer = LogSigner::from_secret(b"a server secret of thirty-two bytes");
    signer.seal(&mut log);
    let index = log
        .facts
        .iter()
        .position(|f| matches!(f, Event::HealthChanged { .. }))
        .unwrap();
    if let Event::HealthChanged { to, .. } = &mut log.facts[index] {
        *to = to.saturating_add(1);
    }
    let refused = check_seal(&log, None).unwrap_err();
    assert!(refused.contains("edited or cut short"), "{refused}");
}

/// The content hashes a log records are sealed with it: a log without
/// them chains as before, and a pack hash changed after sealing breaks it.
#[test]
fn the_content_hashes_are_sealed_with_the_log() {
    use soulstone_engine::log::ContentHashes;
    let mut log = logged_game();
    let without = log.chain();
    log.content = Some(ContentHashes {
        server: "ab".repeat(32),
        pack: Some("cd".repeat(32)),
    });
    assert_ne!(log.chain(), without, "the hashes are in the chain");
    let signer = LogSigner::from_secret(b"a server secret of thirty-two bytes");
    signer.seal(&mut log);
    let read_back = GameLog::from_json(&serde_json::to_string(&log).unwrap()).expect("reads back");
    assert_eq!(read_back.content, log.content);
    assert!(check_seal(&read_back, None).is_ok());
    let mut edited = read_back;
    if let Some(content) = &mut edited.content {
        content.pack = Some("ef".repeat(32));
    }
    let refused = check_seal(&edited, None).unwrap_err();
    assert!(refused.contains("edited or cut short"), "{refused}");
}

/// `soulstone game play --log` keeps the commands, and `soulstone game
/// verify` plays them again; a number changed in the file is named at its
/// fact, and a key that is not the seal's is refused.
#[test]
fn the_command_line_plays_a_logged_game_again_and_names_an_edit() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    let crews = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/crews");
    let played = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .args(["game", "play", "--seed", "7", "--crew"])
        .arg(crews.join("hollowmarch-50.txt"))
        .arg("--crew")
        .arg(crews.join("mudlark-50.txt"))
        .arg("--log")
        .arg(&path)
        .output()
        .unwrap();
    assert!(played.status.success(), "{played:?}");

    let verify = |file: &std::path::Path, key: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_soulstone"));
        command.args(["game", "verify"]);
        if let Some(key) = key {
            command.args(["--key", key]);
        }
        let out = command.arg(file).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, said) = verify(&path, None);
    assert!(ok, "{said}");
    assert!(said.contains("played through the rules again"), "{said}");
    assert!(said.contains("not sealed"), "{said}");
    // Asking for a key finds no seal on a log the command line played.
    let (ok, said) = verify(&path, Some(&"0".repeat(64)));
    assert!(!ok && said.contains("no seal"), "{said}");

    let mut log = GameLog::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // A victory point scored turned from 1 into 5.
    let index = log
        .facts
        .iter()
        .position(|f| matches!(f, Event::VictoryPointsGained { .. }))
        .expect("someone scores");
    if let Event::VictoryPointsGained { amount, .. } = &mut log.facts[index] {
        *amount = amount.saturating_add(4);
    }
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, serde_json::to_string(&log).unwrap()).unwrap();
    let (ok, said) = verify(&edited, None);
    assert!(!ok, "{said}");
    assert!(said.contains(&format!("fact #{index}")), "{said}");
}
