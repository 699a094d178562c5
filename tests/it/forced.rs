//! Decisions the game may take for a player (`soulstone_engine::forced`):
//! those with one legal option, a whole command.

use soulstone::content::{load_for_server, shipped_crews};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::forced::forced_choice;
use soulstone_engine::scenario::Scenario;
use soulstone_engine::{Edition, GameState, PlayerCommand, Seat, Submission, execute};

fn duel_with_hand(hand: &str) -> GameState {
    let text = format!(
        r#"
name = "a duel at its first step"
edition = "m4e"
[players.a]
deck = ["7C", "3R"]
hand = [{hand}]
[players.b]
deck = ["8R"]
[[models]]
id = 1
name = "Acting model"
owner = "a"
df = 5
wp = 5
health = 8
max_health = 8
[[models]]
id = 2
name = "Target"
owner = "b"
df = 4
wp = 4
health = 8
max_health = 8
"#
    );
    let catalog = load_for_server(None).expect("the shipped content loads");
    let mut state = Scenario::from_toml(&text)
        .unwrap()
        .initial_state(&catalog)
        .unwrap();
    let spec = serde_json::from_value(serde_json::json!({
        "action": "Strike", "initiator": 1, "skill": 5, "resister": 2, "resist_stat": "df"
    }))
    .unwrap();
    let version = state.version;
    execute(
        &mut state,
        &Submission::flow(version, soulstone_engine::FlowCommand::StartDuel { spec }),
    )
    .unwrap();
    state
}

#[test]
fn finishing_with_nothing_to_modify_is_taken_for_the_player() {
    // With only high cards the player cannot empower, and holds no token
    // or soulstone: finishing is the one option.
    let state = duel_with_hand(r#""12R", "13M""#);
    let decision = soulstone_engine::pending::decision(&state, Seat::A).expect("a decision");
    assert_eq!(decision.choices.len(), 1, "{decision:?}");
    assert_eq!(
        forced_choice(&state, Seat::A),
        Some(PlayerCommand::FinishModifying)
    );
}

#[test]
fn a_real_choice_is_never_taken() {
    // A 2 in hand may empower the duel: the player chooses.
    let state = duel_with_hand(r#""2R""#);
    let decision = soulstone_engine::pending::decision(&state, Seat::A).expect("a decision");
    assert!(decision.choices.len() > 1, "{decision:?}");
    assert_eq!(forced_choice(&state, Seat::A), None);
}

#[test]
fn the_one_declaration_a_player_can_make_is_taken_for_them() {
    let catalog = load_for_server(None).expect("the shipped content loads");
    let lists: Vec<(String, CrewList)> = shipped_crews()
        .iter()
        .filter(|(path, _)| path.contains(Edition::Fourth.code()))
        .map(|(path, text)| (path.to_string(), CrewList::parse(text).unwrap()))
        .collect();
    let one = |k: usize| {
        vec![Brought {
            name: &lists[k].0,
            list: &lists[k].1,
        }]
    };
    let two = vec![
        Brought {
            name: &lists[0].0,
            list: &lists[0].1,
        },
        Brought {
            name: &lists[1].0,
            list: &lists[1].1,
        },
    ];
    let (a, b) = (one(0), two);
    let setup = new_encounter(&catalog, [&a, &b], Bytes32([5; 32]), None).unwrap();
    let mut state = GameState::new(setup).unwrap();
    // Play up to the first declaration (the cut, the attacker's zone).
    let mut bots = [
        soulstone_engine::bot::Bot::new(soulstone_engine::bot::BotKind::Random, Seat::A, 1),
        soulstone_engine::bot::Bot::new(soulstone_engine::bot::BotKind::Random, Seat::B, 1),
    ];
    let mut declared_for_a = false;
    let mut b_chose = false;
    for _ in 0..200 {
        let declaring = matches!(
            state.encounter.as_deref().map(|e| e.step),
            Some(soulstone_engine::encounter::Step::Declare { .. })
        );
        if declaring {
            // Player A brought one crew: each declaration has one option.
            if let Some(command) = forced_choice(&state, Seat::A) {
                assert!(
                    matches!(command, PlayerCommand::Declare { .. }),
                    "{command:?}"
                );
                declared_for_a = true;
            }
            // Player B brought two crews: somewhere a declaration is theirs
            // to choose, and it is never taken for them.
            if let Some(decision) = soulstone_engine::pending::decision(&state, Seat::B)
                && decision.choices.len() > 1
            {
                assert_eq!(forced_choice(&state, Seat::B), None);
                b_chose = true;
            }
        }
        let Some(seat) = Seat::BOTH
            .into_iter()
            .find(|seat| soulstone_engine::pending::waits_for(&state, *seat))
        else {
            break;
        };
        let command = bots[seat.index()].decide(&state).unwrap();
        let version = state.version;
        execute(&mut state, &Submission::player(seat, version, command)).unwrap();
        if state.encounter.as_deref().is_some_and(|e| e.turn > 0) {
            break;
        }
    }
    assert!(declared_for_a, "no declaration was forced for player A");
    assert!(b_chose, "player B never had a choice to make");
}
