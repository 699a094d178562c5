//! Content: stat cards and crew lists as data (docs/content.md). Shipped
//! content loads and hires legally; every kind of mistake is refused with
//! its file, line and field, or the hiring rule it breaks.

use std::path::Path;
use std::process::Command;

use soulstone_engine::Edition;
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::content::{Catalog, ContentError, parse_card};

fn shipped() -> Catalog {
    soulstone::content::load_catalog(&[&Path::new(env!("CARGO_MANIFEST_DIR")).join("content")])
        .unwrap_or_else(|errors| panic!("{errors:?}"))
}

const CARD: &str = r#"edition = "m4e"
name = "Test Model"
station = "minion"
factions = ["Guild"]
keywords = ["Lamplighter"]
cost = 5
base = 30
df = 4
wp = 5
sz = 2
sp = 5
health = 6

[[actions]]
name = "One"
kind = "melee"
range = 1
skill = 5
resist = "df"
damage = 2

[[actions]]
name = "Two"
kind = "melee"
range = 1
skill = 5
resist = "df"
damage = 2

[[actions]]
name = "Three"
kind = "missile"
range = 12
skill = 5
resist = "df"
damage = 1
"#;

fn card_error(text: &str) -> ContentError {
    parse_card("content/m4e/models/guild/test.toml", text).unwrap_err()
}

#[test]
fn the_shipped_content_checks_clean() {
    let output = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .args(["content", "check"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("content"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("no problems"), "{said}");
    assert!(
        said.contains("19 Mage Knight warriors and 3 armies"),
        "{said}"
    );
    assert!(said.contains("22 1st edition models and 4 crews"), "{said}");
    assert!(shipped().len() >= 10);
}

/// A Mage Knight warrior with a problem is named by file, line and field,
/// and the check fails.
#[test]
fn content_check_names_a_bad_mage_knight_warrior() {
    let dir = tempfile::tempdir().unwrap();
    let warriors = dir.path().join("mk/warriors");
    std::fs::create_dir_all(&warriors).unwrap();
    std::fs::write(
        warriors.join("bad.toml"),
        "[[warriors]]\nname = \"Lost\"\nfaction = \"Nobody\"\npoints = 0\nspeed_type = \"boot\"\ndial = [\n  { speed = 8, attack = 9, defense = 15, damage = 2 },\n]\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .args(["content", "check"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("bad.toml:4: warriors[0].points"), "{said}");
}

#[test]
fn a_bad_card_names_its_file_line_and_field() {
    assert!(parse_card("ok.toml", CARD).is_ok());

    // A wrong type deep in the card.
    let error = card_error(&CARD.replace("range = 12", "range = \"twelve\""));
    assert_eq!(error.field, "actions[2].range");
    assert_eq!(error.line, Some(33), "{error}");
    let shown = error.to_string();
    assert!(
        shown.starts_with("content/m4e/models/guild/test.toml:33: actions[2].range: "),
        "{shown}"
    );

    // An unknown field is refused, not ignored.
    let error = card_error(&CARD.replace("sp = 5", "sp = 5\nspeed = 5"));
    assert!(error.message.contains("speed"), "{error}");
    assert_eq!(error.line, Some(12), "{error}");

    // Syntax.
    let error = card_error(&CARD.replace("df = 4", "df = = 4"));
    assert_eq!(error.line, Some(8), "{error}");

    // Rules a well-formed card can still break.
    let error = card_error(&CARD.replace("station = \"minion\"", "station = \"master\""));
    assert_eq!(
        (error.field.as_str(), error.line),
        ("cost", Some(6)),
        "{error}"
    );
    let error = card_error(&CARD.replace(
        "damage = 1",
        "damage = { weak = 1, moderate = 2, severe = 3 }",
    ));
    assert_eq!(error.field, "actions[2].damage", "{error}");
    let error = card_error(&CARD.replace("sp = 5\n", ""));
    assert_eq!(error.field, "sp", "{error}");
}

#[test]
fn content_loads_whole_or_not_at_all() {
    let good = CARD.to_string();
    let bad = CARD.replace("df = 4", "df = 40");
    let duplicate = CARD.to_string();
    let errors = Catalog::load(
        soulstone::content::shipped_edition_files().iter().copied(),
        [
            ("a.toml", good.as_str()),
            ("b.toml", bad.as_str()),
            ("c.toml", duplicate.as_str()),
        ],
    )
    .unwrap_err();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[0].file, "b.toml");
    assert!(
        errors[1].message.contains("already defined in a.toml"),
        "{errors:?}"
    );

    let orphan = CARD.replace("characteristics", "x").replace(
        "station = \"minion\"",
        "station = \"minion\"\ncharacteristics = [\"totem\"]\ntotem_of = \"Nobody\"",
    );
    let errors = Catalog::load(
        soulstone::content::shipped_edition_files().iter().copied(),
        [("d.toml", orphan.as_str())],
    )
    .unwrap_err();
    assert!(
        errors[0].message.contains("no master called \"Nobody\""),
        "{errors:?}"
    );
}

#[test]
fn a_crew_list_round_trips_as_text_and_json() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/crews/lamplighters-50.txt");
    let list = CrewList::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(list.models.len(), 10);
    assert_eq!(CrewList::parse(&list.to_text()).unwrap(), list);
    let json = serde_json::to_string(&list).unwrap();
    assert_eq!(serde_json::from_str::<CrewList>(&json).unwrap(), list);
    let error = CrewList::parse("Faction: Guild\nLeader: X\nSize: fifty\n").unwrap_err();
    assert!(error.starts_with("line 3:"), "{error}");
    assert!(
        CrewList::parse("Faction: Guild\nSize: 50\n")
            .unwrap_err()
            .contains("Leader")
    );
}

fn lamplighters(models: &[&str]) -> CrewList {
    CrewList {
        edition: Edition::Fourth,
        faction: "Guild".into(),
        leader: "Odessa Vane, Lamplighter Marshal".into(),
        size: 50,
        models: models.iter().map(|m| m.to_string()).collect(),
        upgrades: Vec::new(),
    }
}

/// Each hiring rule, once kept and once broken.
#[test]
fn hiring_follows_each_rule() {
    let catalog = shipped();
    let fails = |list: CrewList, model: &str, words: &str| {
        let errors = list.hire(&catalog).unwrap_err();
        assert!(
            errors
                .iter()
                .any(|e| e.model == model && e.rule.contains(words)),
            "expected {model}: {words}; got {errors:?}"
        );
    };

    // The starter list: totem free, keyword models at cost, a versatile
    // model out of keyword without the extra soulstone; 46 spent, 4 kept.
    let starter = CrewList::parse(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/crews/lamplighters-50.txt"),
        )
        .unwrap(),
    )
    .unwrap();
    let hired = starter.hire(&catalog).unwrap();
    assert_eq!((hired.spent, hired.pool), (46, 4));
    assert!(hired.costs.contains(&("Wickling".into(), 0)));
    assert!(hired.costs.contains(&("Tollgate Sentry".into(), 6)));

    // Out of keyword costs one more; leftovers above 5 are lost.
    let small = lamplighters(&["Wickling", "Clerk of Writs"]);
    let hired = small.hire(&catalog).unwrap();
    assert!(hired.costs.contains(&("Clerk of Writs".into(), 5)));
    assert_eq!((hired.spent, hired.pool), (5, 5));

    // The totem must come with its master, and only with its master.
    fails(
        lamplighters(&["Lamplighter"]),
        "Wickling",
        "totem must be hired",
    );
    let mut other_leader = lamplighters(&["Wickling"]);
    other_leader.leader = "Harrow Stiles, Tollkeeper".into();
    fails(other_leader, "Wickling", "only with its master");
    // A second master, and a second version of the leader's name.
    fails(
        lamplighters(&["Wickling", "Harrow Stiles, Tollkeeper"]),
        "Harrow Stiles, Tollkeeper",
        "must be its leader",
    );
    fails(
        lamplighters(&["Wickling", "Odessa Vane, Ember Judge"]),
        "Odessa Vane, Ember Judge",
        "one version of a name",
    );
    // Model limits.
    fails(
        lamplighters(&[
            "Wickling",
            "Lamplighter",
            "Lamplighter",
            "Lamplighter",
            "Lamplighter",
        ]),
        "Lamplighter",
        "hired 4 times, its limit is 3",
    );
    fails(
        lamplighters(&["Wickling", "Brann Cole", "Brann Cole"]),
        "Brann Cole",
        "limit is 1",
    );
    // At most three out-of-keyword models.
    fails(
        lamplighters(&[
            "Wickling",
            "Clerk of Writs",
            "Clerk of Writs",
            "Clerk of Writs",
            "Clerk of Writs",
        ]),
        "Clerk of Writs",
        "out-of-keyword model 4 of 3 allowed",
    );
    // Loyal models only with a leader they share a keyword with.
    fails(
        lamplighters(&["Wickling", "Iron Deputy"]),
        "Iron Deputy",
        "loyal",
    );
    // The budget.
    let mut tight = starter.clone();
    tight.size = 40;
    fails(
        tight,
        "Odessa Vane, Lamplighter Marshal",
        "costs 46, more than the 40",
    );
    // Cards that do not exist, and the faction.
    fails(
        lamplighters(&["Wickling", "Rusty Nail"]),
        "Rusty Nail",
        "no such card",
    );
    let mut wrong_faction = lamplighters(&["Wickling"]);
    wrong_faction.faction = "Arcanists".into();
    fails(
        wrong_faction,
        "Odessa Vane, Lamplighter Marshal",
        "not of Arcanists",
    );
}

/// A scheme's reveal timing and the conditions that read it are checked
/// together, naming the scheme's field and line.
#[test]
fn a_scheme_timed_wrongly_names_its_field_and_line() {
    let file = "content/m4e/objectives.toml";
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    assert!(soulstone_engine::content::parse_edition_file(file, &text).is_ok());
    let index = text.matches("[[scheme]]").count() - 1;
    assert!(text.contains("name = \"Breakthrough\"\ntiming = \"end_of_activation\""));

    // Reading the model that just activated needs the end-of-activation timing.
    let untimed = text.replace("timing = \"end_of_activation\"\n", "");
    let error = soulstone_engine::content::parse_edition_file(file, &untimed).unwrap_err();
    assert_eq!(error.field, format!("scheme[{index}].timing"), "{error}");
    assert!(error.message.contains("end_of_activation"), "{error}");
    let header = untimed
        .lines()
        .position(|l| l.starts_with("name = \"Breakthrough\""))
        .unwrap();
    assert_eq!(
        error.line,
        Some(header),
        "the scheme's header line: {error}"
    );

    // A claimed scheme waits for its opponent's answer in the end phase.
    let claimed = text.replace(
        "reveal = [{ rule = \"activated_model_in\", area = \"enemy_deployment_zone\" }]",
        "reveal = [{ rule = \"claimed\" }]",
    );
    let error = soulstone_engine::content::parse_edition_file(file, &claimed).unwrap_err();
    assert_eq!(error.field, format!("scheme[{index}].timing"), "{error}");
    assert!(error.message.contains("claimed"), "{error}");
    assert_eq!(error.line, Some(header + 2), "the timing line: {error}");

    // An unknown timing is refused by name.
    let unknown = text.replace("\"end_of_activation\"", "\"end_of_game\"");
    let error = soulstone_engine::content::parse_edition_file(file, &unknown).unwrap_err();
    assert!(error.message.contains("end_of_game"), "{error}");
}

/// A Next Available Scheme the file does not define is an error at load,
/// naming the scheme's `next` field and its line: a crew could never
/// select it.
#[test]
fn a_next_scheme_the_file_lacks_names_its_field_and_line() {
    let file = "content/m4e/objectives.toml";
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    let shipped = soulstone_engine::content::parse_edition_file(file, &text);
    assert!(shipped.is_ok(), "{:?}", shipped.err());

    let dropped = text.replace("name = \"Frame Job\"", "name = \"Frame Up\"");
    let error = soulstone_engine::content::parse_edition_file(file, &dropped).unwrap_err();
    assert!(error.field.ends_with("].next"), "{error}");
    assert!(error.message.contains("\"Frame Job\""), "{error}");
    let line = error.line.expect("the error names a line");
    let lines: Vec<&str> = dropped.lines().collect();
    // The line is inside the scheme that names the missing one.
    let header = lines[..=line]
        .iter()
        .rposition(|l| l.starts_with("name = "))
        .unwrap();
    assert_eq!(lines[header], "name = \"Assassinate\"", "{error}");
}

/// A terrain piece's hazard names a token of its edition, checked once
/// every file of the edition has loaded (tokens and tables are written in
/// different files), and reported where the table was written.
#[test]
fn a_hazard_naming_no_token_names_its_table() {
    let edition_files: Vec<(&str, String)> = soulstone::content::shipped_edition_files()
        .iter()
        .map(|(file, text)| {
            let text = if file.ends_with("m4e/tables.toml") {
                assert!(
                    text.contains("hazard = \"burning\""),
                    "a shipped hazard with a token"
                );
                text.replace("hazard = \"burning\"", "hazard = \"burnt\"")
            } else {
                text.to_string()
            };
            (*file, text)
        })
        .collect();
    let errors = Catalog::load(
        edition_files.iter().map(|(f, t)| (*f, t.as_str())),
        std::iter::empty::<(&str, &str)>(),
    )
    .unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let error = &errors[0];
    assert!(error.file.ends_with("m4e/tables.toml"), "{error}");
    assert!(
        error.field.starts_with("table[") && error.field.ends_with("].terrain"),
        "{error}"
    );
    assert!(error.message.contains("\"burnt\""), "{error}");
    let tables = &edition_files
        .iter()
        .find(|(f, _)| f.ends_with("m4e/tables.toml"))
        .unwrap()
        .1;
    let line = error.line.expect("a line");
    assert!(
        tables.lines().nth(line - 1).unwrap().starts_with("name = "),
        "the table's name line: {error}"
    );

    // A hazard on terrain that is not hazardous is refused in its own file.
    let error = soulstone_engine::content::parse_edition_file(
        "tables.toml",
        &tables.replacen("traits = [\"hazardous\"]\nhazard", "traits = []\nhazard", 1),
    )
    .unwrap_err();
    assert!(error.message.contains("not hazardous"), "{error}");
}

/// Editors validate against docs/content.schema.json and
/// docs/edition.schema.json: they must be the schemas the code reads.
#[test]
fn the_published_schemas_are_current() {
    for (file, schema) in [
        (
            "docs/content.schema.json",
            soulstone_engine::content::card_schema(),
        ),
        (
            "docs/edition.schema.json",
            soulstone_engine::content::edition_schema(),
        ),
        (
            "docs/crew-card.schema.json",
            soulstone_engine::content::crew_card_schema(),
        ),
        (
            "docs/mk-warriors.schema.json",
            soulstone_engine::mage_knight::content::warrior_file_schema(),
        ),
        (
            "docs/mk-army.schema.json",
            soulstone_engine::mage_knight::content::army_list_schema(),
        ),
        (
            "docs/m1e-model.schema.json",
            soulstone_engine::first_edition::content::model_file_schema(),
        ),
        (
            "docs/m1e-crew.schema.json",
            soulstone_engine::first_edition::content::crew_list_schema(),
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let generated = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if std::env::var_os("SOULSTONE_WRITE_SCHEMA").is_some() {
            std::fs::write(&path, &generated).unwrap();
        }
        let published = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            published == generated,
            "{file} is out of date: run SOULSTONE_WRITE_SCHEMA=1 cargo test schema"
        );
    }
}

/// `content schema --of` prints another system's schema, as published.
#[test]
fn the_schema_command_prints_each_systems_schema() {
    for (of, schema) in [
        (
            "mk-warriors",
            soulstone_engine::mage_knight::content::warrior_file_schema(),
        ),
        (
            "m1e-crew",
            soulstone_engine::first_edition::content::crew_list_schema(),
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_soulstone"))
            .args(["content", "schema", "--of", of])
            .output()
            .unwrap();
        assert!(output.status.success(), "{of}");
        let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(printed, schema, "{of}");
    }
}

/// A card from content becomes the engine's definition.
#[test]
fn a_content_card_becomes_an_engine_definition() {
    let catalog = shipped();
    let odessa = catalog
        .card(Edition::Fourth, "Odessa Vane, Lamplighter Marshal")
        .unwrap();
    let card = odessa.model_card();
    assert_eq!(&*card.name, "Odessa Vane, Lamplighter Marshal");
    assert_eq!((card.df, card.wp, card.max_health), (5, 7, 13));
    assert!(card.infuses_on_death);
    let baton = card
        .actions
        .iter()
        .find(|a| &*a.name == "Hooked Baton")
        .unwrap();
    assert_eq!(baton.range, 1);
    assert_eq!(baton.after_succeeding.len(), 1);
    let lantern = card
        .actions
        .iter()
        .find(|a| &*a.name == "Signal Lantern")
        .unwrap();
    assert_eq!(lantern.triggers[0].name, "Blinding Flare");
}

/// Every ready crew list shipped hires legally at its size, and the
/// binary embeds exactly the content on disk.
#[test]
fn every_shipped_crew_hires_legally_and_is_embedded() {
    let catalog = shipped();
    let crews = soulstone::content::shipped_crews();
    assert!(crews.len() >= 4, "only {} crew lists", crews.len());
    let mut factions = std::collections::BTreeSet::new();
    for (file, text) in crews {
        let list = CrewList::parse(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(list.size, 50, "{file}");
        let hired = list
            .hire(&catalog)
            .unwrap_or_else(|errors| panic!("{file}: {errors:?}"));
        assert!(hired.spent <= 50 && hired.spent >= 45, "{file}: {hired:?}");
        factions.insert((list.edition.name(), list.faction.clone()));
        // 3rd edition has no crew cards.
        if list.edition == soulstone_engine::Edition::Third {
            assert_eq!(hired.crew_card, None, "{file}");
            continue;
        }
        // The leader's title brings its crew card.
        let crew_card = hired
            .crew_card
            .as_deref()
            .unwrap_or_else(|| panic!("{file}: the leader brings no crew card"));
        assert_eq!(
            catalog
                .crew_card_of(list.edition, &list.leader)
                .map(|c| c.name.as_str()),
            Some(crew_card)
        );
    }
    // Four factions' crews in each edition.
    for edition in [
        soulstone_engine::Edition::Fourth,
        soulstone_engine::Edition::Third,
    ] {
        let of_edition = factions
            .iter()
            .filter(|(e, _)| *e == edition.name())
            .count();
        assert!(of_edition >= 4, "{edition:?}: {factions:?}");
    }
    let embedded = soulstone::content::load_for_server(None).unwrap();
    assert_eq!(embedded.len(), catalog.len());
    assert_eq!(embedded.crew_cards().count(), catalog.crew_cards().count());
    assert!(catalog.crew_cards().count() >= 4);
}

/// An operator's content directory is loaded after the shipped cards; a
/// wrong card keeps the server from starting, and says where.
#[test]
fn a_wrong_card_in_the_content_directory_stops_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("extra/m4e/models/guild");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(
        models.join("bad.toml"),
        CARD.replace("range = 12", "range = -1"),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_soulstone"))
        .current_dir(dir.path())
        .env_clear()
        .env("SOULSTONE_CONTENT_DIR", dir.path().join("extra"))
        .env("SOULSTONE_BIND", "127.0.0.1:0")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.toml:33: actions[2].range"), "{stderr}");
    // Nothing was started: no database was made.
    assert!(!dir.path().join("data/soulstone.db").exists());

    // A good extra card loads beside the shipped ones.
    std::fs::write(models.join("bad.toml"), CARD).unwrap();
    let catalog = soulstone::content::load_for_server(Some(&dir.path().join("extra"))).unwrap();
    assert_eq!(catalog.len(), shipped().len() + 1);
}

/// The scenario files of the starter crews (tests/scenarios/m4e/crews),
/// each with its text.
/// The starter crews' scenario files, both editions'.
fn crew_scenarios() -> Vec<(String, soulstone_engine::scenario::Scenario)> {
    let mut files = scenarios_in("tests/scenarios/m4e/crews");
    files.extend(scenarios_in("tests/scenarios/m3e/crews"));
    files
}

/// The scenario files in `folder` (from the crate's root), each with its text.
fn scenarios_in(folder: &str) -> Vec<(String, soulstone_engine::scenario::Scenario)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let scenario = if path.extension().is_some_and(|e| e == "json") {
                soulstone_engine::scenario::Scenario::from_json(&text).unwrap()
            } else {
                soulstone_engine::scenario::Scenario::from_toml(&text).unwrap()
            };
            (text, scenario)
        })
        .collect()
}

/// Every action on every shipped card is taken in a scenario file under
/// tests/scenarios/m4e/crews, or by an activated model in one under
/// tests/scenarios/m4e/encounter (which the scenario suite runs and checks).
#[test]
fn every_action_of_the_starter_crews_has_a_scenario() {
    let mut taken = std::collections::BTreeSet::new();
    let encounters = scenarios_in("tests/scenarios/m4e/encounter");
    for (_, scenario) in crew_scenarios().into_iter().chain(encounters) {
        let cards: std::collections::BTreeMap<u16, String> = scenario
            .models
            .iter()
            .filter_map(|m| Some((m.id.0, m.card.clone()?)))
            .collect();
        // In an encounter the actor is the model activated last.
        let mut active = None;
        for step in &scenario.steps {
            if step.command["type"] == "activate" {
                active = step.command["model"].as_u64();
            }
            if step.command["type"] == "take_action"
                && step.refused.is_none()
                && let Some(card) = step.command["model"]
                    .as_u64()
                    .or(active)
                    .and_then(|id| cards.get(&(id as u16)))
            {
                let action = step.command["action"].as_str().unwrap_or_default();
                taken.insert((card.clone(), action.to_string()));
            }
        }
    }
    let mut missing = Vec::new();
    for card in shipped().cards() {
        for action in &card.actions {
            if !taken.contains(&(card.full_name(), action.name.clone())) {
                missing.push(format!("{}: {}", card.full_name(), action.name));
            }
        }
    }
    // Cards that are not in a starter crew list (the spare master titles and
    // hiring-test models) are exempt.
    let in_lists: std::collections::BTreeSet<String> = soulstone::content::shipped_crews()
        .iter()
        .flat_map(|(_, text)| {
            let list = CrewList::parse(text).unwrap();
            std::iter::once(list.leader).chain(list.models)
        })
        .collect();
    missing.retain(|m| {
        in_lists
            .iter()
            .any(|name| m.starts_with(&format!("{name}:")))
    });
    assert!(
        missing.is_empty(),
        "actions without a scenario: {missing:?}"
    );
    assert!(taken.len() >= 45, "only {} actions taken", taken.len());
}

/// Every ability the engine resolves on a card of a starter crew fires in
/// a scenario under tests/scenarios/m4e/crews, and that file expects it.
#[test]
fn every_ability_of_the_starter_crews_has_a_scenario() {
    use soulstone_engine::Event;
    let mut shown = std::collections::BTreeSet::new();
    for (text, scenario) in crew_scenarios() {
        let run = scenario.check(crate::support::shipped_content()).unwrap();
        for event in &run.events {
            if let Event::AbilityUsed { model, name, .. } = event
                && let Some(m) = run.initial.model(*model)
            {
                let expected = text.lines().any(|line| {
                    line.contains("\"ability_used\"") && line.contains(&format!("{name:?}"))
                });
                if expected {
                    shown.insert((m.card.name.to_string(), name.to_string()));
                }
            }
        }
    }
    let mut missing = Vec::new();
    for card in shipped().cards() {
        for ability in card.abilities.iter().filter(|a| a.window.is_some()) {
            if !shown.contains(&(card.full_name(), ability.name.clone())) {
                missing.push(format!("{}: {}", card.full_name(), ability.name));
            }
        }
    }
    // A crew card's abilities, on any model of its keyword.
    for crew_card in shipped().crew_cards() {
        for grant in &crew_card.grants {
            for ability in grant.abilities.iter().filter(|a| a.window.is_some()) {
                if !shown.iter().any(|(_, name)| *name == ability.name) {
                    missing.push(format!("{}: {}", crew_card.name, ability.name));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "abilities no scenario fires and expects: {missing:?}"
    );
    assert!(shown.len() >= 12, "only {} abilities shown", shown.len());
}

/// Together the starter crews use every building block of abilities: each
/// window, each effect, each condition and each selector the format has
/// (read from the published schema, so a new block needs a card using it).
#[test]
fn the_starter_crews_use_every_building_block() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/content.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    // An enum is a plain `enum` list when no variant has a description,
    // else `oneOf` its variants.
    let names = |definition: &str, pick: &dyn Fn(&serde_json::Value) -> Vec<String>| {
        let schema = &schema["$defs"][definition];
        if let Some(plain) = schema["enum"].as_array() {
            return plain
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect::<std::collections::BTreeSet<String>>();
        }
        schema["oneOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{definition} in the schema"))
            .iter()
            .flat_map(pick)
            .collect()
    };
    let constant = |v: &serde_json::Value| -> Vec<String> {
        let mut found: Vec<String> = v["const"].as_str().map(String::from).into_iter().collect();
        found.extend(
            v["enum"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e.as_str().map(String::from)),
        );
        found
    };
    // A unit variant is a constant; a variant with fields an object with
    // one property, its name.
    let variant = |v: &serde_json::Value| -> Vec<String> {
        let mut found = constant(v);
        if let Some(properties) = v["properties"].as_object() {
            found.extend(properties.keys().cloned());
        }
        found
    };
    let all_windows = names("AbilityWindow", &constant);
    let all_conditions = names("Condition", &constant);
    let all_selectors = names("Selector", &variant);
    let all_sides = names("SideFilter", &constant);
    let all_effects = names("AbilityEffect", &|v| {
        v["properties"]["effect"]["const"]
            .as_str()
            .map(String::from)
            .into_iter()
            .collect()
    });
    assert!(
        all_windows.len() >= 6 && all_effects.len() >= 9,
        "{all_effects:?}"
    );

    let mut windows = std::collections::BTreeSet::new();
    let mut conditions = std::collections::BTreeSet::new();
    let mut selectors = std::collections::BTreeSet::new();
    let mut effects = std::collections::BTreeSet::new();
    let mut sides = std::collections::BTreeSet::new();
    for card in shipped().cards() {
        for ability in &card.abilities {
            let ability = serde_json::to_value(ability).unwrap();
            if ability["window"].is_null() {
                continue;
            }
            windows.insert(ability["window"].as_str().unwrap().to_string());
            conditions.insert(ability["when"].as_str().unwrap().to_string());
            for effect in ability["effects"].as_array().unwrap() {
                effects.insert(effect["effect"].as_str().unwrap().to_string());
                match &effect["to"] {
                    serde_json::Value::String(to) => {
                        selectors.insert(to.clone());
                    }
                    serde_json::Value::Object(to) => {
                        for (name, fields) in to {
                            selectors.insert(name.clone());
                            if let Some(side) = fields["side"].as_str() {
                                sides.insert(side.to_string());
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // A selector left out means this model.
    selectors.insert("this_model".into());
    assert_eq!(windows, all_windows, "windows no starter card uses");
    assert_eq!(
        conditions, all_conditions,
        "conditions no starter card uses"
    );
    assert_eq!(selectors, all_selectors, "selectors no starter card uses");
    assert_eq!(effects, all_effects, "effects no starter card uses");
    assert_eq!(sides, all_sides, "sides no starter card selects");
}

/// A crew card names its master, which names it back; its abilities are
/// checked like a card's; a model of its keyword gains them in the crew.
#[test]
fn crew_cards_are_checked_and_grant_their_abilities() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e");
    let writ = std::fs::read_to_string(root.join("crew-cards/marshals-writ.toml")).unwrap();
    let master =
        std::fs::read_to_string(root.join("models/guild/odessa-vane-lamplighter-marshal.toml"))
            .unwrap();
    let lamplighter = std::fs::read_to_string(root.join("models/guild/lamplighter.toml")).unwrap();
    let load = |card: &str, master: &str| {
        Catalog::load_with_crew_cards(
            soulstone::content::shipped_edition_files().iter().copied(),
            [
                ("master.toml", master),
                ("lamplighter.toml", lamplighter.as_str()),
            ],
            [("writ.toml", card)],
        )
    };
    let catalog = load(&writ, &master).unwrap();
    let card = catalog
        .crew_card(Edition::Fourth, "Marshal's Writ")
        .unwrap();
    let plain = catalog.card(Edition::Fourth, "Lamplighter").unwrap();
    let in_crew = plain.model_card_in_crew(Some(card));
    let names = |model: &soulstone_engine::model::ModelCard| -> Vec<String> {
        model.abilities.iter().map(|a| a.name.clone()).collect()
    };
    assert_eq!(names(&plain.model_card()), ["Cinder Trail"]);
    assert_eq!(names(&in_crew), ["Cinder Trail", "Press the Watch"]);

    let errors = |card: &str, master: &str| -> String {
        load(card, master)
            .unwrap_err()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let wrong_master = writ.replace("Lamplighter Marshal\"", "Lamp Marshal\"");
    let error = errors(&wrong_master, &master);
    assert!(
        error.contains("writ.toml:4: master") && error.contains("no master card"),
        "{error}"
    );
    let unnamed = master.replace("crew_card = \"Marshal's Writ\"\n", "");
    assert!(errors(&writ, &unnamed).contains("no master card"));
    let dangling = master.replace("Marshal's Writ", "Lost Writ");
    let error = errors(&writ, &dangling);
    assert!(
        error.contains("no crew card called \"Lost Writ\""),
        "{error}"
    );
    let bad_window = writ.replace("window = \"duel_started\"", "window = \"killed\"");
    let error = errors(&bad_window, &master);
    assert!(
        error.contains("grants[0].abilities[0].effects[0]")
            && error.contains("does not act at Killed"),
        "{error}"
    );
    let bad_token = writ.replace(
        "effects = [{ effect = \"fate_modifier\", by = 1 }]",
        "effects = [{ effect = \"gain_token\", token = \"glowing\" }]",
    );
    let error = errors(&bad_token, &master);
    assert!(error.contains("glowing is not a token"), "{error}");
    let minion_with_card =
        lamplighter.replace("health = 6", "health = 6\ncrew_card = \"Marshal's Writ\"");
    let error = Catalog::load(
        soulstone::content::shipped_edition_files().iter().copied(),
        [("l.toml", minion_with_card.as_str())],
    )
    .unwrap_err();
    assert!(
        error[0]
            .message
            .contains("only a master brings a crew card"),
        "{error:?}"
    );
}
