//! Whole 4th edition encounters played by the engine's bots: every game
//! ends after turn 4 within the VP caps, every card is accounted for, the
//! log replays to the same state, and no view shows a scheme to anyone but
//! its owner before it is revealed.

use soulstone::content::{load_for_server, shipped_crews};
use soulstone_engine::bot::{Bot, BotKind, play_to_end};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{MAX_SCHEME_VP, MAX_STRATEGY_VP, Step, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::fate::DECK_SIZE;
use soulstone_engine::log::{GameLog, Position};
use soulstone_engine::{GameState, Seat, Viewer, view};

fn crews() -> Vec<CrewList> {
    shipped_crews()
        .iter()
        .filter(|(path, _)| path.contains("m4e"))
        .map(|(_, text)| CrewList::parse(text).expect("a shipped crew list parses"))
        .collect()
}

/// Plays a whole encounter; checks the invariants as it goes.
fn play(seed: u64, kinds: [BotKind; 2]) -> (GameState, GameLog) {
    let catalog = load_for_server(None).expect("the shipped content loads");
    let lists = crews();
    let a = &lists[(seed as usize) % lists.len()];
    let b = &lists[(seed as usize / lists.len() + 1) % lists.len()];
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let setup =
        new_encounter(&catalog, [a, b], Bytes32(bytes), None).expect("the encounter sets up");
    let mut state = GameState::new(setup.clone()).expect("a valid game");
    let mut log = GameLog::new(setup);
    let mut bots = [
        Bot::new(kinds[0], Seat::A, seed),
        Bot::new(kinds[1], Seat::B, seed),
    ];
    let mut facts_so_far = Vec::new();
    play_to_end(&mut state, &mut bots, 20_000, |state, facts| {
        facts_so_far.extend_from_slice(facts);
        check(seed, state, &facts_so_far);
    })
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    log.facts = facts_so_far;
    assert!(state.ended, "seed {seed}: the game did not end");
    (state, log)
}

/// What holds after every command: 54 cards a deck, and schemes secret.
fn check(seed: u64, state: &GameState, facts: &[soulstone_engine::Event]) {
    for seat in Seat::BOTH {
        let p = state.player(seat);
        let cards = p.deck.len()
            + p.hand.len()
            + p.discard.len()
            + p.removed.len()
            + p.revealed.len()
            + p.conflict.len();
        assert_eq!(cards, DECK_SIZE, "seed {seed}: {seat:?}'s 54 cards");
    }
    // Another player's or a spectator's view never holds a scheme, nor
    // does the fact that selected it.
    let encounter = state.encounter.as_deref().expect("an encounter");
    for held in encounter.schemes.iter().flatten() {
        for viewer in [Viewer::Player(held.owner.other()), Viewer::Spectator] {
            let shown = view(state, viewer)
                .encounter
                .expect("the encounter is shown");
            let theirs = shown.schemes[held.owner.index()].as_ref().expect("held");
            assert!(
                theirs.value.is_none(),
                "seed {seed}: {viewer:?} sees a scheme"
            );
        }
        let mine = view(state, Viewer::Player(held.owner))
            .encounter
            .expect("shown");
        assert!(
            mine.schemes[held.owner.index()]
                .as_ref()
                .expect("held")
                .value
                .is_some()
        );
    }
    // Swapping a crew's scheme for another changes nothing its opponent
    // or a spectator sees.
    for seat in Seat::BOTH {
        let mut other = state.clone();
        let Some(held) = other
            .encounter
            .as_mut()
            .map(std::sync::Arc::make_mut)
            .and_then(|e| e.schemes[seat.index()].as_mut())
        else {
            continue;
        };
        held.value = Some(soulstone_engine::encounter::HeldScheme {
            name: "Some Other Scheme".into(),
            target: None,
        });
        for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
            assert_eq!(
                serde_json::to_value(view(state, viewer)).expect("json"),
                serde_json::to_value(view(&other, viewer)).expect("json"),
                "seed {seed}: {viewer:?} can tell {seat:?}'s scheme"
            );
        }
    }
    for fact in facts.iter().rev().take(8) {
        if let soulstone_engine::Event::SchemeSelected { seat, .. } = fact {
            for viewer in [Viewer::Player(seat.other()), Viewer::Spectator] {
                let shown = fact.for_viewer(viewer);
                assert!(
                    shown["scheme"].get("value").is_none(),
                    "seed {seed}: {shown}"
                );
            }
        }
    }
}

#[test]
fn bot_encounters_end_after_turn_four_within_the_caps_and_replay() {
    let games: u64 = std::env::var("SOULSTONE_ENCOUNTER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    for seed in 0..games {
        let kinds = match seed % 3 {
            0 => [BotKind::Random, BotKind::Random],
            1 => [BotKind::Greedy, BotKind::Random],
            _ => [BotKind::Greedy, BotKind::Greedy],
        };
        let (state, log) = play(seed, kinds);
        let encounter = state.encounter.as_deref().expect("an encounter");
        assert_eq!(encounter.turn, 4, "seed {seed}");
        assert_eq!(encounter.step, Step::Over, "seed {seed}");
        for seat in Seat::BOTH {
            let i = seat.index();
            assert!(encounter.strategy_vp[i] <= MAX_STRATEGY_VP);
            assert!(encounter.scheme_vp[i] <= MAX_SCHEME_VP);
            // Abilities may score too (an ability's gain_victory_points).
            assert!(
                state.player(seat).victory_points
                    >= encounter.strategy_vp[i] + encounter.scheme_vp[i]
            );
        }
        let replayed = log.replay().expect("the log replays");
        assert_eq!(Position::of(&replayed), Position::of(&state), "seed {seed}");
        assert_eq!(replayed.encounter, state.encounter, "seed {seed}");
    }
}

#[test]
fn verify_accepts_a_bot_game_log_and_rejects_one_changed_card() {
    let (_, log) = play(7, [BotKind::Greedy, BotKind::Random]);
    let text = serde_json::to_string(&log).expect("json");
    let stored = GameLog::from_json(&text).expect("the log reads back");
    stored.verify().expect("the log matches its seed");
    // Change the first card drawn to another card.
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("json");
    let facts = value["facts"].as_array_mut().expect("facts");
    let drawn = facts
        .iter_mut()
        .find(|f| f["type"] == "drew")
        .expect("a card was drawn");
    let card = drawn["card"]["value"]
        .as_str()
        .expect("the card")
        .to_string();
    let other = if card == "1R" { "2R" } else { "1R" };
    drawn["card"]["value"] = serde_json::Value::from(other);
    let changed = GameLog::from_json(&value.to_string()).expect("still a log");
    let error = changed.verify().expect_err("a changed card is caught");
    assert!(error.to_string().contains("drew"), "{error}");
}
