//! Upgrade cards as content (docs/content.md, "Upgrade cards"): checked on
//! load with the file, line and field; bought in a 3rd edition list with a
//! `+` line, which reads back the same as text and JSON; a Special upgrade
//! is never hired; bought ones come into the game on their models.

use soulstone_engine::content::Catalog;
use soulstone_engine::content::crew::CrewList;

/// The shipped edition files and one more, `extra`.
fn load_with(extra: &str) -> Result<Catalog, Vec<soulstone_engine::content::ContentError>> {
    Catalog::load_with_crew_cards(
        soulstone::content::shipped_edition_files()
            .iter()
            .copied()
            .chain([("club/m3e/upgrades.toml", extra)]),
        soulstone::content::shipped_cards().iter().copied(),
        soulstone::content::shipped_crew_cards().iter().copied(),
    )
}

const SPECIAL: &str = r#"edition = "m3e"

[[upgrade]]
name = "Marked Ledger"
text = "Never hired: an action would attach it."
special = true

[[upgrade.abilities]]
name = "Marked"
text = "In the end phase this model heals 1."
window = "end_phase"
effects = [{ effect = "heal", amount = 1 }]
"#;

#[test]
fn a_bad_upgrade_names_its_file_line_and_field() {
    // A club's own Special upgrade loads beside the shipped ones.
    let catalog = load_with(SPECIAL).unwrap_or_else(|e| panic!("{e:?}"));
    let special = catalog
        .upgrade(soulstone_engine::Edition::Third, "Marked Ledger")
        .expect("loaded");
    assert!(!special.hireable());

    for (text, field, words) in [
        (
            SPECIAL.replace("special = true", "special = true\ncost = 1"),
            "upgrade[0].cost",
            "a Special upgrade is never hired",
        ),
        (
            SPECIAL.replace("special = true", "cost = 1"),
            "upgrade[0].factions",
            "names the factions",
        ),
        (
            SPECIAL.replace("special = true", ""),
            "upgrade[0].cost",
            "a 3rd edition upgrade has a cost",
        ),
        (
            SPECIAL
                .replace("edition = \"m3e\"", "edition = \"m4e\"")
                .replace("special = true", "cost = 2"),
            "upgrade[0].cost",
            "4th edition crews hire no upgrades",
        ),
        (
            SPECIAL.replace("special = true", "special = true\nplentiful = 0"),
            "upgrade[0].plentiful",
            "at least 1",
        ),
    ] {
        let errors = load_with(&text).expect_err(words);
        let error = &errors[0];
        assert_eq!(error.file, "club/m3e/upgrades.toml", "{error}");
        assert_eq!(error.field, field, "{error}");
        assert!(error.message.contains(words), "{error}");
        let line = error.line.expect("a line");
        let written = text.lines().nth(line - 1).unwrap_or_default();
        assert!(
            written.starts_with(field.rsplit('.').next().unwrap_or_default())
                || written == "[[upgrade]]",
            "line {line} is {written:?}: {error}"
        );
    }

    // An ability naming a token the edition lacks, and a second definition.
    let errors = load_with(&SPECIAL.replace(
        "effects = [{ effect = \"heal\", amount = 1 }]",
        "effects = [{ effect = \"remove_token\", token = \"adversary\" }]",
    ))
    .expect_err("an unknown token");
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("Marked Ledger") && e.field.contains("effects[0].token")),
        "{errors:?}"
    );
    let twice = SPECIAL.replace("Marked Ledger", "Gator-Hide Boots");
    let errors = load_with(&twice).expect_err("defined twice");
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("Gator-Hide Boots is already defined")),
        "{errors:?}"
    );
}

#[test]
fn a_special_upgrade_is_never_hired() {
    let catalog = load_with(SPECIAL).unwrap_or_else(|e| panic!("{e:?}"));
    let list = CrewList::parse(
        "Edition: m3e\nFaction: Bayou\nLeader: Hetty Crane, Ferry Queen\n+ Marked Ledger\nSize: 50\n",
    )
    .expect("parses");
    let errors = list.hire(&catalog).expect_err("refused");
    assert!(
        errors.iter().any(|e| e.model == "Hetty Crane, Ferry Queen"
            && e.rule.contains("Marked Ledger is Special")),
        "{errors:?}"
    );
}

#[test]
fn a_list_buys_upgrades_with_plus_lines_that_read_back() {
    let text = "Edition: m3e\nFaction: Bayou\nLeader: Hetty Crane, Ferry Queen\n+ Ferry Lantern\nSize: 50\n- Snapping Gar\n+ Gator-Hide Boots\n- Reed Whistler\n- Reed Whistler\n- Mudflat Trapper\n+ Gator-Hide Boots\n";
    let list = CrewList::parse(text).expect("parses");
    let on: Vec<(usize, &str)> = list
        .upgrades
        .iter()
        .map(|u| (u.on, u.upgrade.as_str()))
        .collect();
    assert_eq!(
        on,
        [
            (0, "Ferry Lantern"),
            (1, "Gator-Hide Boots"),
            (4, "Gator-Hide Boots")
        ]
    );
    assert_eq!(list.to_text(), text);
    assert_eq!(CrewList::parse(&list.to_text()).expect("reads back"), list);
    let json = serde_json::to_string(&list).expect("json");
    assert_eq!(
        serde_json::from_str::<CrewList>(&json).expect("reads back"),
        list
    );
    // A list without upgrades keeps the JSON it had.
    let plain = CrewList::parse("Faction: Guild\nLeader: X\nSize: 50\n- Y\n").expect("parses");
    assert!(
        !serde_json::to_string(&plain)
            .expect("json")
            .contains("upgrades")
    );

    for (text, words) in [
        (
            "Faction: Bayou\n+ Ferry Lantern\nLeader: Hetty Crane, Ferry Queen\nSize: 50\n",
            "line 2: an upgrade goes on the line after the leader or model",
        ),
        (
            "Faction: Bayou\nLeader: Hetty Crane, Ferry Queen\nSize: 50\n- Reed Whistler x2\n+ Gator-Hide Boots\n",
            "line 5: an upgrade goes on one model",
        ),
        (
            "Faction: Bayou\nLeader: Hetty Crane, Ferry Queen\n+ \nSize: 50\n",
            "line 3: ",
        ),
    ] {
        let error = CrewList::parse(text).expect_err(words);
        assert!(error.starts_with(words), "{error}");
    }
}

/// An action of the content may attach an upgrade of the content (a
/// Special one, say), and loading refuses one that names none.
#[test]
fn an_action_attaches_only_an_upgrade_the_content_has() {
    let load = |upgrade: &str| {
        let cards: Vec<(&str, String)> = soulstone::content::shipped_cards()
            .iter()
            .map(|(file, text)| {
                let text = if file.ends_with("m3e/models/bayou/hetty-crane.toml") {
                    assert!(text.contains("{ effect = \"target_takes_action\" }"));
                    text.replace(
                        "{ effect = \"target_takes_action\" }",
                        &format!(
                            "{{ effect = \"attach_upgrade\", upgrade = \"{upgrade}\", to = \"target\" }}"
                        ),
                    )
                } else {
                    text.to_string()
                };
                (*file, text)
            })
            .collect();
        Catalog::load_with_crew_cards(
            soulstone::content::shipped_edition_files()
                .iter()
                .copied()
                .chain([("club/m3e/upgrades.toml", SPECIAL)]),
            cards.iter().map(|(f, t)| (*f, t.as_str())),
            soulstone::content::shipped_crew_cards().iter().copied(),
        )
    };
    load("Marked Ledger").unwrap_or_else(|e| panic!("{e:?}"));
    let errors = load("Golden Oar").expect_err("no such upgrade");
    assert!(
        errors.iter().any(|e| e.file.ends_with("hetty-crane.toml")
            && e.field.ends_with(".upgrade")
            && e.message.contains("no upgrade called \"Golden Oar\"")),
        "{errors:?}"
    );
}

/// Upgrades bought at hiring (3rd edition, M3E line 2851) come into the game
/// on their models: hidden with the lists until the crews are revealed,
/// then on the models' cards, named on the models, and playing their part
/// (Gator-Hide Boots' damage reduction is seen in a game).
#[test]
fn upgrades_bought_at_hiring_are_on_their_models_and_play() {
    use soulstone::content::{load_for_server, shipped_crews};
    use soulstone_engine::bot::{Bot, BotKind, play_to_end};
    use soulstone_engine::encounter::{Brought, new_encounter};
    use soulstone_engine::fairness::Bytes32;
    use soulstone_engine::{Event, GameState, Seat, Viewer, view};
    let catalog = load_for_server(None).expect("the shipped content loads");
    let lists: Vec<(String, CrewList)> = shipped_crews()
        .iter()
        .filter(|(path, _)| path.contains("m3e"))
        .map(|(path, text)| {
            (
                path.to_string(),
                CrewList::parse(text).expect("a shipped list"),
            )
        })
        .collect();
    let (kitted_name, kitted) = lists
        .iter()
        .find(|(path, _)| path.contains("cattail-kitted"))
        .expect("the shipped kitted Cattail list");
    assert!(!kitted.upgrades.is_empty(), "the list buys upgrades");
    let others: Vec<&(String, CrewList)> = lists
        .iter()
        .filter(|(path, _)| !path.contains("cattail"))
        .collect();
    let mut reduced = 0;
    for seed in 0..12u64 {
        let (other_name, other) = others[seed as usize % others.len()];
        let mine = [Brought {
            name: kitted_name,
            list: kitted,
        }];
        let theirs = [Brought {
            name: other_name,
            list: other,
        }];
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
        let setup = new_encounter(&catalog, [&mine, &theirs], Bytes32(bytes), None)
            .expect("the encounter sets up");
        let mut state = Box::new(GameState::new(setup.clone()).expect("a valid game"));
        let mut bots = [
            Bot::new(BotKind::Greedy, Seat::A, seed),
            Bot::new(BotKind::Greedy, Seat::B, seed),
        ];
        let mut facts = Vec::new();
        let mut checked_hidden = false;
        play_to_end(&mut state, &mut bots, 20_000, |state, _, new| {
            facts.extend_from_slice(new);
            if state.models.is_empty() {
                let shown = view(state, Viewer::Player(Seat::B));
                let text = serde_json::to_string(&shown).expect("a view serializes");
                assert!(
                    !text.contains("Gator-Hide Boots") && !text.contains("Ferry Lantern"),
                    "seed {seed}: B sees A's upgrades before the crews are revealed"
                );
                checked_hidden = true;
            }
        })
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(checked_hidden, "seed {seed}: the setup was seen");
        // The crews as hired: the first state with models, replayed.
        let mut replayed = GameState::new(setup).expect("a valid game");
        for fact in &facts {
            soulstone_engine::state::apply(&mut replayed, fact);
            if !replayed.models.is_empty() {
                break;
            }
        }
        let named = |name: &str| {
            replayed
                .models
                .iter()
                .filter(|m| m.owner == Seat::A && m.card.name.starts_with(name))
                .collect::<Vec<_>>()
        };
        let hetty = named("Hetty Crane")[0];
        assert_eq!(hetty.upgrades, vec!["Ferry Lantern".to_string()]);
        assert!(
            hetty
                .card
                .actions
                .iter()
                .any(|a| &*a.name == "Lantern Swing"),
            "the lantern's action is on Hetty's card"
        );
        for booted in ["Snapping Gar", "Mudflat Trapper"] {
            let model = named(booted)[0];
            assert_eq!(model.upgrades, vec!["Gator-Hide Boots".to_string()]);
            assert!(model.card.abilities.iter().any(|a| a.name == "Thick Hide"));
        }
        let unkitted = named("Reed Whistler");
        assert!(unkitted.iter().all(|m| m.upgrades.is_empty()));
        let spent: u16 = kitted.hire(&catalog).expect("hires").pool.into();
        assert_eq!(replayed.player(Seat::A).soulstones, spent);
        // B's upgrades: none bought.
        assert!(
            replayed
                .models
                .iter()
                .filter(|m| m.owner == Seat::B)
                .all(|m| m.upgrades.is_empty())
        );
        let booted: Vec<_> = replayed
            .models
            .iter()
            .filter(|m| m.upgrades.iter().any(|u| u == "Gator-Hide Boots"))
            .map(|m| m.id)
            .collect();
        reduced += facts
            .iter()
            .filter(|f| match f {
                Event::DamageDealt { report } => {
                    booted.contains(&report.target)
                        && report
                            .reductions
                            .iter()
                            .any(|(name, _)| name == "Thick Hide")
                }
                _ => false,
            })
            .count();
        if reduced > 0 {
            return;
        }
    }
    panic!("in 12 games the Gator-Hide Boots never reduced damage");
}
