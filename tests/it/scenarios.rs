//! The rulebooks' worked examples, as scenario files (docs/scenarios.md):
//! every file under tests/scenarios runs and must meet its expectations.

use std::path::{Path, PathBuf};
use std::process::Command;

use soulstone_engine::scenario::{FileFormat, Scenario, ScenarioContent, ScenarioFile};

/// Every scenario file, game and table alike.
fn scenario_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files = Vec::new();
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "toml" || e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The one runner takes every file under tests/scenarios, as
/// `soulstone scenario run --expect` does.
#[test]
fn every_scenario_file_meets_its_expectations() {
    let files = scenario_files();
    let table_files = files
        .iter()
        .filter(|f| f.components().any(|c| c.as_os_str() == "table"))
        .count();
    assert!(
        files.len() - table_files >= 15 && table_files >= 14,
        "expected the rulebook examples under tests/scenarios, found {} game and {table_files} table files",
        files.len() - table_files
    );
    let (first_edition, first_edition_conditions) =
        soulstone::content::first_edition_content().unwrap();
    let content = ScenarioContent {
        catalog: crate::support::shipped_content(),
        first_edition,
        first_edition_conditions,
    };
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let format = FileFormat::from_extension(path.extension().and_then(|e| e.to_str()));
        let scenario = ScenarioFile::parse(&text, format)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            scenario.has_expectations(),
            "{}: a scenario in the suite must say what it expects",
            path.display()
        );
        let is_table = matches!(scenario, ScenarioFile::Table(_));
        assert_eq!(
            is_table,
            path.components().any(|c| c.as_os_str() == "table"),
            "{}: read as the wrong kind of scenario",
            path.display()
        );
        let report = scenario
            .run(true, content)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if !report.failures().is_empty() {
            failures.push(format!(
                "{}:\n  {}",
                path.display(),
                report.failures().join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A step whose command is of the wrong kind for its sender is a mistake in
/// the file, and the runner says which step.
#[test]
fn a_flow_command_sent_by_a_player_is_a_scenario_error() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/m4e/raise-opposed-duel.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let first_system_step = text.find("by = \"system\"").unwrap();
    let mut broken = text.clone();
    broken.replace_range(
        first_system_step..first_system_step + "by = \"system\"".len(),
        "by = \"a\"",
    );
    let error = Scenario::from_toml(&broken)
        .unwrap()
        .run(crate::support::shipped_content())
        .unwrap_err();
    assert!(
        error.to_string().contains("not a player's command"),
        "{error}"
    );
}

#[test]
fn every_malifaux_edition_has_worked_examples() {
    let files: Vec<PathBuf> = scenario_files()
        .into_iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "table"))
        .collect();
    for edition in ["m4e", "m3e", "m1e"] {
        assert!(
            files
                .iter()
                .any(|f| f.parent().is_some_and(|p| p.ends_with(edition))),
            "no scenarios for {edition}"
        );
    }
}

/// A scenario whose expectation is wrong must fail: the checker is not a rubber stamp.
#[test]
fn a_wrong_expectation_is_reported() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/m4e/raise-opposed-duel.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("raises = 0, margin = 3", "raises = 1, margin = 3");
    let run = Scenario::from_toml(&text)
        .unwrap()
        .check(crate::support::shipped_content())
        .unwrap();
    assert_eq!(run.failures.len(), 1, "{:?}", run.failures);
    assert!(run.failures[0].contains("raises"), "{:?}", run.failures);
}

/// A 1st edition file is held to its expectations and its refusals: a
/// wrong wound count, a step that should be refused but is not, and a
/// model listed out of place are each reported.
#[test]
fn a_first_edition_scenario_is_held_to_what_it_says() {
    use soulstone_engine::first_edition::scenario::Scenario as FirstEditionScenario;

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/m1e/hard-to-kill.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let (book, conditions) = soulstone::content::first_edition_content().unwrap();
    let check = |text: &str| {
        FirstEditionScenario::from_toml(text)
            .unwrap()
            .check(book, conditions)
    };
    assert!(check(&text).unwrap().failures.is_empty());

    let wrong = text.replace("wounds_left = 1, killed", "wounds_left = 2, killed");
    let failures = check(&wrong).unwrap().failures;
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("wounds_left is 1, expected 2"),
        "{failures:?}"
    );

    // A prevention the rules take is not a refusal.
    let not_refused = text.replace(
        "order = { order = \"prevent\", soulstone = false }",
        "order = { order = \"prevent\", soulstone = false }\nrefused = \"anything\"",
    );
    let failures = check(&not_refused).unwrap().failures;
    assert!(
        failures
            .iter()
            .any(|f| f.contains("was allowed, but the file expects it refused")),
        "{failures:?}"
    );

    let out_of_place = text.replacen("id = 0", "id = 5", 1);
    let error = check(&out_of_place).unwrap_err();
    assert!(
        error.to_string().contains("a model's id is its place"),
        "{error}"
    );
}

/// Setup flips decide what the file leaves out and must agree with what it
/// names; a tie or a joker decides nothing. A hiring check that does not
/// hold is a failure like an expectation's.
#[test]
fn setup_flips_and_hiring_checks_are_held_to_the_rules() {
    let catalog = crate::support::shipped_content();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/m3e/encounter/setup-flips.toml");
    let text = std::fs::read_to_string(path).unwrap();
    for (from, to, problem) in [
        (
            "b = \"12C\"",
            "b = \"12T\"",
            "the flips give the strategy \"Turf War\", the file says \"Reckoning\"",
        ),
        ("b = \"12C\"", "b = \"5C\"", "5M and 5C tie"),
        ("a = \"5M\"", "a = \"RJ\"", "is a joker"),
        ("\"13R\"", "\"1T\"", "gives Detonate Charges again"),
    ] {
        let edited = text.replace(from, to);
        assert_ne!(edited, text, "{from}");
        let error = Scenario::from_toml(&edited)
            .unwrap()
            .check(catalog)
            .expect_err(problem);
        assert!(error.to_string().contains(problem), "{error}");
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/m4e/hiring.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replacen("pool = 5", "pool = 4", 1)
        .replace("refused = \"loyal\"", "refused = \"unique\"");
    let run = Scenario::from_toml(&text).unwrap().check(catalog).unwrap();
    assert_eq!(run.failures.len(), 2, "{:?}", run.failures);
    assert!(
        run.failures[0].contains("hiring 1: pool is 5, expected 4"),
        "{:?}",
        run.failures
    );
    assert!(
        run.failures[1].contains("hiring 5: refused, but not for \"unique\""),
        "{:?}",
        run.failures
    );
}

/// `soulstone scenario run --expect FILE`.
fn run_expecting(file: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .args(["scenario", "run", "--expect"])
        .arg(file)
        .output()
        .unwrap()
}

#[test]
fn the_cli_prints_json_and_checks_expectations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/m4e/raise-simple-duel-cheat.toml");
    let output = run_expecting(&path);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let run: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        run["final"]["players"][0]["discard"],
        serde_json::json!(["7C", "13C"])
    );
    assert!(run["events"].as_array().unwrap().len() > 5);

    // A broken expectation makes the command fail and say why.
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("raises = 2", "raises = 3");
    std::fs::write(&broken, text).unwrap();
    let output = run_expecting(&broken);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("raises"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    // The same command runs a table scenario.
    let table =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/table/m4e/sight-lines.toml");
    let output = run_expecting(&table);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let run: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(run["kind"], "table");
    assert!(run["passed"].as_u64().unwrap() > 3, "{run}");
    let wrong = dir.path().join("wrong-sight.toml");
    std::fs::write(
        &wrong,
        std::fs::read_to_string(&table)
            .unwrap()
            .replacen("expect = false", "expect = true", 1),
    )
    .unwrap();
    let output = run_expecting(&wrong);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("line of sight"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The engine is pure. Its crate's manifest names only pure dependencies, so
/// the compiler refuses any use of the web, the database or an async runtime;
/// what the standard library itself offers (files, network, clock,
/// hash-order iteration) is checked in its sources.
#[test]
fn the_engine_uses_nothing_impure() {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let allowed = [
        "geo",
        "hex",
        "hmac",
        "rand_chacha",
        "schemars",
        "serde",
        "serde_json",
        "serde_path_to_error",
        "sha2",
        "soulstone-random",
        "thiserror",
        "toml",
    ];
    for member in ["engine", "random"] {
        let manifest: toml::Table =
            std::fs::read_to_string(manifest_dir.join(member).join("Cargo.toml"))
                .unwrap()
                .parse()
                .unwrap();
        let dependencies = manifest["dependencies"].as_table().unwrap();
        let impure: Vec<&String> = dependencies
            .keys()
            .filter(|name| !allowed.contains(&name.as_str()))
            .collect();
        assert!(
            impure.is_empty(),
            "{member}/Cargo.toml depends on {impure:?}, which is not on the list of pure crates"
        );
    }

    // Besides the outside world, hash-order iteration and floats, which
    // could make a replay differ between machines.
    let forbidden: Vec<&str> = super::layers::OUTSIDE_WORLD
        .into_iter()
        .chain(["HashMap", "HashSet", "f32", "f64"])
        .collect();
    let mut found = Vec::new();
    let mut files = Vec::new();
    let mut folders = vec![
        manifest_dir.join("engine/src"),
        manifest_dir.join("random/src"),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    assert!(
        files.len() > 20,
        "the scan found only {} files",
        files.len()
    );
    let table = manifest_dir.join("engine/src/table");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // The table geometry computes in f64 by design, and so do what
        // measures the table for it (scenario files' inches, scoring areas,
        // deployment and moves, the bots' points, a previewed path's
        // length, Mage Knight's battlefield) and the searching bots'
        // averages (only + - * / and sqrt, which round alike everywhere);
        // what the state stores is integer (checked by
        // table::the_stored_table_has_no_floats and, for Mage Knight, by
        // mage_knight::bot_games_end_keep_their_invariants...).
        let measures_the_table = [
            "scenario/spec.rs",
            "encounter/scoring.rs",
            "procedure/encounter/general.rs",
            "procedure/encounter/markers.rs",
            "procedure/encounter/moves.rs",
            "procedure/encounter/setup.rs",
            "procedure/idols.rs",
            "bot.rs",
            "bot/aims.rs",
            "bot/eval.rs",
            "bot/search.rs",
            "preview.rs",
            "mage_knight/battlefield.rs",
            "mage_knight/bombardment.rs",
            "mage_knight/bots.rs",
            "mage_knight/bots/candidates.rs",
            "mage_knight/bots/worth.rs",
            "mage_knight/bots/search.rs",
            "mage_knight/combat.rs",
            "mage_knight/constructed.rs",
            "mage_knight/fire.rs",
            "mage_knight/formation.rs",
            "mage_knight/items.rs",
            "mage_knight/movement.rs",
            "mage_knight/orders.rs",
            "mage_knight/placing.rs",
            "first_edition/actions.rs",
            "first_edition/bots.rs",
            "first_edition/field.rs",
            "first_edition/objectives.rs",
            "first_edition/shifts.rs",
            "first_edition/scenario.rs",
            "first_edition/search.rs",
        ];
        let computes_in_floats =
            path.starts_with(&table) || measures_the_table.iter().any(|file| path.ends_with(file));
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for &word in &forbidden {
                if computes_in_floats && (word == "f64" || word == "f32") {
                    continue;
                }
                if code.contains(word) {
                    found.push(format!("{}:{}: {word}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The coverage table in docs/scenarios.md names every scenario file, and
/// only files that exist: a new file must say which example it encodes
/// (or that it is built from the rules text).
#[test]
fn the_coverage_table_names_every_scenario_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/scenarios.md")).unwrap();
    let start = doc
        .find("## Coverage of the rulebooks' worked examples")
        .expect("docs/scenarios.md has its coverage table");
    let named: std::collections::BTreeSet<String> = doc[start..]
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            (s.starts_with("m4e/")
                || s.starts_with("m3e/")
                || s.starts_with("m1e/")
                || s.starts_with("table/"))
                && (s.ends_with(".toml") || s.ends_with(".json"))
        })
        .map(String::from)
        .collect();
    let scenarios = root.join("tests/scenarios");
    let files: std::collections::BTreeSet<String> = scenario_files()
        .iter()
        .map(|f| {
            f.strip_prefix(&scenarios)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let unlisted: Vec<&String> = files.difference(&named).collect();
    let missing: Vec<&String> = named.difference(&files).collect();
    assert!(
        unlisted.is_empty() && missing.is_empty(),
        "scenario files the coverage table does not name: {unlisted:?}; names without a file: {missing:?}"
    );
    assert!(named.len() >= 40, "{named:?}");
}

/// The scenario file `relative` (under tests/scenarios) played for its
/// first `steps` steps, without its expectations.
fn first_steps_of(relative: &str, steps: usize) -> soulstone_engine::scenario::Run {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(relative);
    let mut scenario =
        soulstone_engine::scenario::Scenario::from_toml(&std::fs::read_to_string(path).unwrap())
            .unwrap();
    scenario.steps.truncate(steps);
    scenario.expect = None;
    let run = scenario.run(crate::support::shipped_content()).unwrap();
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    run
}

/// From the Zoraida example's state once Obey has generated its two
/// actions, seeded random and greedy bots answer every decision the queue
/// asks (names, targets, a controlled Charge's path, the Charge's melee
/// action) until it is empty: no game is stuck on a controlled action,
/// and over the seeds the controlled Charge is played.
#[test]
fn bots_answer_every_decision_of_a_controlled_queue() {
    use soulstone_engine::bot::{Bot, BotKind};
    use soulstone_engine::command::Submission;
    use soulstone_engine::{Event, Seat, execute};
    // Activate Zoraida, Obey the Cerberus, declare Ensorcel.
    let run = first_steps_of("m4e/control/actions-generated-by-effects.toml", 3);
    assert_eq!(run.final_state.action_queue.len(), 2);
    let mut charged = 0;
    for seed in 0..24 {
        let mut state = run.final_state.clone();
        let kind = if seed % 2 == 0 {
            BotKind::Random
        } else {
            BotKind::Greedy
        };
        let mut bots = [Bot::new(kind, Seat::A, seed), Bot::new(kind, Seat::B, seed)];
        let mut commands = 0;
        while !state.action_queue.is_empty() || state.frames.len() > 1 {
            let (bot, command) = bots
                .iter_mut()
                .find_map(|bot| bot.decide(&state).map(|c| (bot.seat, c)))
                .unwrap_or_else(|| panic!("seed {seed}: nobody can answer the queue"));
            let submission = Submission::player(bot, state.version, command);
            let facts = execute(&mut state, &submission).unwrap();
            charged += facts
                .iter()
                .filter(
                    |f| matches!(f, Event::ModelMoved { model, charge: true, .. } if model.0 == 2),
                )
                .count();
            commands += 1;
            assert!(commands < 200, "seed {seed}: the queue never empties");
        }
    }
    assert!(charged > 0, "no bot charged the Cerberus under control");
}

/// The coverage summary's totals for each book are the counts of the rows
/// above it, by status, so the table cannot claim more than it lists; and
/// every file a row names exists.
#[test]
fn the_coverage_summary_counts_the_rows() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/scenarios.md")).unwrap();
    let cells =
        |line: &str| -> Vec<String> { line.split('|').map(|c| c.trim().to_string()).collect() };
    for book in ["4E", "3E", "1E"] {
        // The 1st edition counts rules, with a fifth status: played by the
        // engine without a file yet.
        let mut counted = [0usize; 5];
        for line in doc
            .lines()
            .filter(|l| l.starts_with(&format!("| {book} |")))
        {
            let row = cells(line);
            // Example rows name lines of the book: "heading (123)", "(808–816)".
            let lines = row[2]
                .strip_suffix(')')
                .and_then(|r| r.rsplit_once('('))
                .map(|(_, lines)| lines);
            let is_example = lines.is_some_and(|l| {
                !l.is_empty() && l.chars().all(|c| c.is_ascii_digit() || ", –-".contains(c))
            });
            if !is_example || row.len() < 7 {
                continue;
            }
            let status = row[5].as_str();
            let index = ["encoded", "partial", "not built", "n/a", "played"]
                .iter()
                .position(|s| status.starts_with(s))
                .filter(|i| *i < 4 || book == "1E")
                .unwrap_or_else(|| panic!("{book}: a row with no status: {line}"));
            counted[index] += 1;
            for file in row[4].split('`').skip(1).step_by(2) {
                assert!(
                    root.join("tests/scenarios").join(file).exists(),
                    "{book}: {file} is named but does not exist"
                );
            }
            assert_eq!(
                index >= 2,
                row[4] == "—",
                "{book}: a row's file and its status disagree: {line}"
            );
        }
        let total = doc
            .lines()
            .find(|l| l.starts_with(&format!("| **{book}** | **all** |")))
            .unwrap_or_else(|| panic!("{book}: the summary has an all row"));
        let numbers: Vec<usize> = cells(total)
            .iter()
            .skip(3)
            .filter_map(|c| c.trim_matches('*').parse().ok())
            .collect();
        let mut expected = vec![
            counted.iter().sum(),
            counted[0],
            counted[1],
            counted[2],
            counted[3],
        ];
        if book == "1E" {
            expected.push(counted[4]);
        }
        assert_eq!(
            numbers, expected,
            "{book}: the summary's all row (examples, encoded, partial, not built, n/a) is not the rows' count"
        );
    }
}

/// Where several sets of scheme markers would score a 3rd edition scheme,
/// the options offer each set for the player to pick (and no claim
/// without markers): three markers near one enemy, any two of which meet
/// Detonate Charges, make three options, each of which `decide` accepts
/// and which removes exactly its two markers.
#[test]
fn a_scheme_that_removes_markers_offers_each_set_that_would_do() {
    use soulstone_engine::command::{PlayerCommand, Submission};
    use soulstone_engine::pending::{Choice, pending};
    use soulstone_engine::{Event, Seat, execute};
    // Up to the end phase's first question to A.
    let run = first_steps_of("m3e/encounter/scheme-marker-choice.toml", 4);
    let open = pending(&run.final_state);
    let decision = open.for_seat(Seat::A).expect("A is asked to score");
    let claims: Vec<Vec<u32>> = decision
        .choices
        .iter()
        .filter_map(|choice| match choice {
            Choice::Command {
                command:
                    PlayerCommand::ClaimScheme {
                        scheme: Some(name),
                        markers,
                        ..
                    },
            } if name == "Detonate Charges" => Some(markers.iter().map(|m| m.0).collect()),
            _ => None,
        })
        .collect();
    assert_eq!(
        claims,
        vec![vec![98304, 98305], vec![98304, 98306], vec![98305, 98306]]
    );
    for pair in claims {
        let mut state = run.final_state.clone();
        let command = PlayerCommand::ClaimScheme {
            vp: 1,
            scheme: Some("Detonate Charges".into()),
            markers: pair
                .iter()
                .map(|id| soulstone_engine::table::ObjectId(*id))
                .collect(),
        };
        let submission = Submission::player(Seat::A, state.version, command);
        let facts = execute(&mut state, &submission).unwrap();
        let removed: Vec<u32> = facts
            .iter()
            .filter_map(|f| match f {
                Event::MarkerRemoved { id } => Some(id.0),
                _ => None,
            })
            .collect();
        assert_eq!(removed, pair);
    }
}
