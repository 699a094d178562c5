//! Tokens and markers are content: each edition's
//! `content/<edition>/tokens.toml` says what every token does (and no rules
//! code names one), and `markers.toml` what every marker type is.

use std::path::{Path, PathBuf};

use soulstone_engine::Edition;
use soulstone_engine::content::Catalog;
use soulstone_engine::duel::Stat;
use soulstone_engine::rules::TokenGain;
use soulstone_engine::token::{Effect, Situation, TokenBook, Tokens, Window};

use crate::support::{shipped_tokens, token};

fn holding(key: &str, value: u8) -> Tokens {
    let mut tokens = Tokens::default();
    tokens.set(token(key), value);
    tokens
}

const ENEMY: Situation = Situation {
    targets_enemy: true,
    is_initiator: true,
    opposed: true,
};

#[test]
fn a_token_acts_only_at_its_window_and_under_its_condition() {
    let fourth = shipped_tokens(Edition::Fourth);
    let third = shipped_tokens(Edition::Third);
    let distracted = holding("distracted", 1);
    assert_eq!(
        fourth.effects_at(&distracted, Window::DuelStarted, ENEMY),
        vec![
            (token("distracted"), Effect::Remove { by: 1 }),
            (token("distracted"), Effect::FateModifier { by: -1 }),
        ]
    );
    // 3rd edition: the condition stays until the action ends.
    assert_eq!(
        third.effects_at(&distracted, Window::DuelStarted, ENEMY),
        vec![(token("distracted"), Effect::FateModifier { by: -1 })]
    );
    let friendly = Situation {
        targets_enemy: false,
        ..ENEMY
    };
    assert!(
        fourth
            .effects_at(&distracted, Window::DuelStarted, friendly)
            .is_empty()
    );
    assert!(
        fourth
            .effects_at(&distracted, Window::Cheating, ENEMY)
            .is_empty()
    );
    // Entranced forbids only the initiator's cheating, and only in 4th edition.
    let entranced = holding("entranced", 1);
    let resisting = Situation {
        is_initiator: false,
        ..ENEMY
    };
    assert!(
        fourth
            .effects_at(&entranced, Window::Cheating, resisting)
            .is_empty()
    );
    assert_eq!(
        fourth.effects_at(&entranced, Window::Cheating, ENEMY),
        vec![(token("entranced"), Effect::ForbidCheating)]
    );
    assert!(!third.contains(token("entranced")));
    // A token spent by choice is not among the effects that simply happen.
    assert!(
        fourth
            .effects_at(&holding("focused", 1), Window::ModifyingDuel, ENEMY)
            .is_empty()
    );
    assert!(fourth.spending(token("focused"), ENEMY).is_some());
    // 3rd edition Focused helps opposed duels only.
    let simple = Situation {
        opposed: false,
        ..ENEMY
    };
    assert!(third.spending(token("focused"), simple).is_none());
    assert!(fourth.spending(token("focused"), simple).is_some());
}

#[test]
fn stats_follow_the_tokens_and_each_edition_counts_values_its_own_way() {
    let fourth = shipped_tokens(Edition::Fourth);
    let third = shipped_tokens(Edition::Third);
    // A 4th edition token counts once, whatever its value.
    assert_eq!(fourth.stat_change(&holding("injured", 1), Stat::Df), -1);
    assert_eq!(fourth.stat_change(&holding("bolstered", 1), Stat::Wp), 1);
    // A 3rd edition condition counts its value.
    assert_eq!(third.stat_change(&holding("injured", 3), Stat::Df), -3);
    assert_eq!(third.stat_change(&holding("focused", 3), Stat::Df), 0);
}

#[test]
fn each_edition_gains_and_cancels_tokens_its_own_way() {
    let fourth = shipped_tokens(Edition::Fourth);
    let third = shipped_tokens(Edition::Third);
    let focused = holding("focused", 1);
    assert_eq!(
        Edition::Fourth
            .rules()
            .duel
            .gain(&fourth, &focused, token("focused"), 1),
        TokenGain::Nothing
    );
    assert_eq!(
        Edition::Third
            .rules()
            .duel
            .gain(&third, &focused, token("focused"), 2),
        TokenGain::Gain { value: 2 }
    );
    // A 3rd edition condition without a value is held or not.
    let stunned = holding("stunned", 1);
    assert_eq!(
        Edition::Third
            .rules()
            .duel
            .gain(&third, &stunned, token("stunned"), 1),
        TokenGain::Nothing
    );
    assert_eq!(
        Edition::Third
            .rules()
            .duel
            .gain(&third, &focused, token("stunned"), 3),
        TokenGain::Gain { value: 1 }
    );
    let distracted = holding("distracted", 3);
    assert_eq!(
        Edition::Third
            .rules()
            .duel
            .gain(&third, &distracted, token("focused"), 1),
        TokenGain::Cancel {
            token: token("distracted"),
            by: 3
        }
    );
    assert_eq!(
        Edition::Fourth
            .rules()
            .duel
            .gain(&fourth, &distracted, token("focused"), 1),
        TokenGain::Cancel {
            token: token("distracted"),
            by: 1
        }
    );
}

fn shipped_markers_file() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/markers.toml"))
        .unwrap()
}

fn tokens_error(text: &str) -> String {
    let markers = shipped_markers_file();
    Catalog::load(
        [
            ("m4e/tokens.toml", text),
            ("m4e/markers.toml", markers.as_str()),
        ],
        [],
    )
    .unwrap_err()
    .iter()
    .map(ToString::to_string)
    .collect::<Vec<_>>()
    .join("\n")
}

#[test]
fn a_bad_tokens_file_is_refused_with_its_line_and_field() {
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/tokens.toml"),
    )
    .unwrap();
    let error = tokens_error(&shipped.replace("window = \"killed\"", "window = \"killled\""));
    assert!(error.contains("token[11].rules[0].window"), "{error}");
    assert!(error.contains("unknown variant `killled`"), "{error}");
    let error = tokens_error(&shipped.replace("cancels = \"Injured\"", "cancels = \"Hurt\""));
    assert!(
        error.contains("token[8].cancels") && error.contains("no token called \"Hurt\""),
        "{error}"
    );
    let error = tokens_error(&format!(
        "{shipped}\n[[token]]\nname = \"Focused\"\n[[token.rules]]\nwindow = \"killed\"\neffects = [{{ effect = \"no_soulstone_on_death\" }}]\n"
    ));
    assert!(error.contains("Focused is defined twice"), "{error}");
    let error = tokens_error(&shipped.replace(
        "window = \"killed\"\neffects",
        "window = \"killed\"\noptional = true\neffects",
    ));
    assert!(error.contains("spent by choice"), "{error}");
    let error = tokens_error(&shipped.replace(
        "window = \"reducing_damage\"\neffects = [{ effect = \"remove\", by = 1 }",
        "window = \"reducing_damage\"\neffects = [{ effect = \"add_suit\" }",
    ));
    assert!(error.contains("only from spending a token"), "{error}");
    let error = tokens_error(&shipped.replace(
        "[[token]]\nname = \"Focused\"\n",
        "[[token]]\nname = \"Focused\"\nhas_value = true\n",
    ));
    assert!(
        error.contains("token[0].has_value") && error.contains("only 3rd edition"),
        "{error}"
    );
    let error = tokens_error(&shipped.replace(
        "window = \"targeted_by_attack\"\neffects = [{ effect = \"fate_modifier\", by = 1 }",
        "window = \"targeted_by_attack\"\neffects = [{ effect = \"add_damage\", by = 1 }",
    ));
    assert!(
        error.contains("targeted_by_attack gives the attacker a fate_modifier"),
        "{error}"
    );
    let error = tokens_error(&shipped.replace(
        "window = \"duel_started\"\neffects = [{ effect = \"blank_card_suit\"",
        "window = \"activation_started\"\neffects = [{ effect = \"blank_card_suit\"",
    ));
    assert!(
        error.contains("blank_card_suit belongs at duel_started"),
        "{error}"
    );
    // The line is the rule's `window = ...` line.
    let line = shipped
        .lines()
        .position(|l| l == "window = \"killed\"")
        .unwrap()
        + 1;
    let error = tokens_error(&shipped.replace("window = \"killed\"", "window = \"killled\""));
    assert!(error.contains(&format!(":{line}:")), "{error}");
}

#[test]
fn a_card_may_give_only_its_editions_tokens() {
    let card = "edition = \"m3e\"\nname = \"Tester\"\nstation = \"minion\"\nfactions = [\"Guild\"]\ncost = 4\nbase = 30\ndf = 4\nwp = 4\nsz = 2\nmv = 5\nhealth = 4\n\n[[actions]]\nname = \"Poke\"\nkind = \"melee\"\nrange = 1\nskill = 4\nresist = \"df\"\ndamage = { weak = 1, moderate = 2, severe = 3 }\n\n[[actions.triggers]]\nname = \"Daze\"\nsuit = \"masks\"\ndoes = { kind = \"target_gains_token\", token = \"entranced\" }\n";
    let errors = Catalog::load(
        soulstone::content::shipped_edition_files().iter().copied(),
        [("m3e/models/tester.toml", card)],
    )
    .unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].field, "actions[0].triggers[0].does.token");
    assert!(errors[0].message.contains("not a token of this edition"));
    let fine = card.replace("\"entranced\"", "\"stunned\"");
    assert!(
        Catalog::load(
            soulstone::content::shipped_edition_files().iter().copied(),
            [("m3e/models/tester.toml", fine.as_str())],
        )
        .is_ok()
    );
}

/// A game's log carries its tokens, and reading it back checks them.
#[test]
fn a_game_reads_its_tokens_back_checked() {
    let book = shipped_tokens(Edition::Fourth);
    let json = serde_json::to_value(&book).unwrap();
    let back: TokenBook = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, book);
    assert!(back.contains(token("focused")));
    let mut broken = json;
    broken["token"][0]["cancels"] = "Nothing Here".into();
    let error = serde_json::from_value::<TokenBook>(broken).unwrap_err();
    assert!(error.to_string().contains("no token called"), "{error}");
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The words of code: identifiers split at `_` and at capitals, in lower
/// case, and the words inside string literals.
fn words(code: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in code.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_ascii_lowercase();
            word.push(c.to_ascii_lowercase());
        } else {
            previous_lower = false;
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Code without comments and without its tests.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|line| match line.find("//") {
            // `//` inside a string literal ("https://...") is rare in the
            // engine; a line cut short there only hides words, never adds them.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_rules_code_names_a_token() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<(String, Vec<String>)> = Vec::new();
    for edition in [Edition::Fourth, Edition::Third] {
        for (key, def) in shipped_tokens(edition).tokens() {
            // Summoning is a rule of its own (engine/src/procedure/summon.rs);
            // the token named after it is content like the rest, and the
            // code gives it through `on_summon`, never by name.
            if def.name == "Summon" {
                continue;
            }
            let token_words = words(key.as_str());
            if !names.iter().any(|(name, _)| *name == def.name) {
                names.push((def.name.clone(), token_words));
            }
        }
    }
    assert!(names.len() >= 11, "{names:?}");
    let mut files = Vec::new();
    rust_files(&root.join("engine/src"), &mut files);
    files.sort();
    assert!(files.len() > 30);
    let mut found = Vec::new();
    for file in &files {
        let code_words = words(&code_of(&std::fs::read_to_string(file).unwrap()));
        for (name, token_words) in &names {
            if code_words
                .windows(token_words.len())
                .any(|window| window == token_words.as_slice())
            {
                found.push(format!(
                    "{} names {name}",
                    file.strip_prefix(root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "tokens belong in content/<edition>/tokens.toml, not in the rules code:\n  {}",
        found.join("\n  ")
    );
    // The scan finds a token where one is named.
    assert_eq!(
        words(&code_of(
            "let x = Token::Focused; // Shielded\nlet y = \"stunned\";"
        )),
        ["let", "x", "token", "focused", "let", "y", "stunned"]
    );
}

fn markers_error(text: &str) -> String {
    let tokens = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("content/m4e/tokens.toml"),
    )
    .unwrap();
    match Catalog::load(
        [
            ("m4e/tokens.toml", tokens.as_str()),
            ("m4e/markers.toml", text),
        ],
        [],
    ) {
        Ok(_) => String::new(),
        Err(errors) => errors
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn marker_types_are_checked_whole() {
    let shipped = shipped_markers_file();
    assert_eq!(markers_error(&shipped), "");
    // The rules' kinds: each once, and the edition's games need them.
    let error = markers_error(&shipped.replace("kind = \"scheme\"\n", ""));
    assert!(
        error.contains("needs marker types of kind [Scheme]"),
        "{error}"
    );
    let error = markers_error(&shipped.replace("kind = \"strategy\"", "kind = \"remains\""));
    assert!(
        error.contains("marker[2].kind") && error.contains("a second marker of kind Remains"),
        "{error}"
    );
    let error = markers_error(&shipped.replace("name = \"Cinder\"", "name = \"Remains\""));
    assert!(error.contains("Remains is defined twice"), "{error}");
    let error =
        markers_error(&shipped.replace("traits = [\"hazardous\"]", "traits = [\"sticky\"]"));
    assert!(error.contains("unknown variant `sticky`"), "{error}");
    let error = markers_error(&format!(
        "{shipped}\n[[marker]]\nname = \"Boulder\"\nbase = 500\n"
    ));
    assert!(error.contains("base is 10 to 200 mm"), "{error}");
    // A card may make only markers its edition defines.
    let card = "edition = \"m4e\"\nname = \"Tester\"\nstation = \"minion\"\nfactions = [\"Guild\"]\ncost = 4\nbase = 30\ndf = 4\nwp = 4\nsz = 2\nsp = 5\nhealth = 4\n\n[[abilities]]\nname = \"Leave Soot\"\ntext = \"t\"\nwindow = \"killed\"\neffects = [{ effect = \"make_marker\", marker = \"Soot\" }]\n";
    let errors = Catalog::load(
        soulstone::content::shipped_edition_files().iter().copied(),
        [("m4e/models/tester.toml", card)],
    )
    .unwrap_err();
    assert_eq!(
        errors[0].field, "abilities[0].effects[0].marker",
        "{errors:?}"
    );
    assert!(errors[0].message.contains("no marker type called \"Soot\""));
    let fine = card.replace("\"Soot\"", "\"Cinder\"");
    assert!(
        Catalog::load(
            soulstone::content::shipped_edition_files().iter().copied(),
            [("m4e/models/tester.toml", fine.as_str())],
        )
        .is_ok()
    );
}
