//! Decisions the game may take for a player (`soulstone_engine::forced`):
//! those with one legal option, a whole command; a cheat no card would
//! make count; a duel's modifiers for a player who never boosts. And the
//! hosting layer taking them by the player's standing answers, on both
//! backends.

use soulstone::content::{load_for_server, shipped_crews};
use soulstone::hosted::{self, BroughtList, PracticeRequest};
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::forced::{StandingAnswers, forced_choice, standing_choice};
use soulstone_engine::scenario::Scenario;
use soulstone_engine::system::Malifaux;
use soulstone_engine::{Edition, GameState, PlayerCommand, Seat, Submission, execute};

use crate::support::app::create_verified_account;
use crate::support::{Backend, TestDb};

both_backends!(standing_answers_are_kept_and_the_game_takes_them);

fn duel_with_hand(hand: &str) -> GameState {
    duel_with(hand, 4)
}

fn duel_with(hand: &str, target_df: u8) -> GameState {
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
df = {target_df}
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
        if !bot_step(&mut state, &mut bots) {
            break;
        }
        if state.encounter.as_deref().is_some_and(|e| e.turn > 0) {
            break;
        }
    }
    assert!(declared_for_a, "no declaration was forced for player A");
    assert!(b_chose, "player B never had a choice to make");
}

/// Plays the duel's decisions the game takes by `answers` until player A
/// must decide something they do not take.
fn until_a_decides(state: &mut GameState, answers: StandingAnswers) {
    for _ in 0..20 {
        let Some(command) = standing_choice(state, Seat::A, answers) else {
            return;
        };
        let version = state.version;
        execute(state, &Submission::player(Seat::A, version, command)).unwrap();
    }
    panic!("the game kept deciding for player A");
}

fn cheat_step(state: &GameState) -> bool {
    state
        .duel()
        .is_some_and(|d| matches!(d.step, soulstone_engine::duel::DuelStep::Cheat { .. }))
}

#[test]
fn a_cheat_no_card_would_change_is_declined_for_the_player_who_lets_the_game() {
    // Player A attacks 5 + their flip against Df 1 + the opponent's flip,
    // whose hand is empty (so no cheat follows A's). The opponent's
    // flipped card is one of theirs only: B's deck holds an 8, A's a 7 or
    // a 3, so A wins either way.
    let idle = |hand: &str| {
        let mut state = duel_with(hand, 1);
        // Never boosting: the hand's card stays in hand for the cheat.
        let answers = StandingAnswers {
            idle_cheats: false,
            never_boost: true,
            ..StandingAnswers::default()
        };
        until_a_decides(&mut state, answers);
        assert!(cheat_step(&state), "not at the cheat: {:?}", state.duel());
        assert_eq!(standing_choice(&state, Seat::A, answers), None);
        standing_choice(&state, Seat::A, StandingAnswers::default())
    };
    // One point more than the flip keeps the win, with no raise (needs 5
    // over) and the same suit: nothing would change.
    let flipped = {
        let mut state = duel_with(r#""13M""#, 1);
        let asks_every_cheat = StandingAnswers {
            idle_cheats: false,
            never_boost: true,
            ..StandingAnswers::default()
        };
        until_a_decides(&mut state, asks_every_cheat);
        state
            .duel()
            .and_then(|d| d.side(soulstone_engine::duel::Role::Initiator))
            .and_then(|s| s.card)
            .expect("A flipped")
    };
    let one_more = soulstone_engine::fate::Card::suited(
        flipped.value() + 1,
        flipped.suit().expect("a suited card"),
    )
    .expect("a card one higher");
    assert_eq!(
        idle(&format!("\"{one_more}\"")),
        Some(PlayerCommand::DeclineCheat),
        "A flipped {flipped}, and {one_more} would change nothing"
    );
    // A 1 would lose the duel: the player decides.
    assert_eq!(idle(r#""1C""#), None);
}

#[test]
fn a_player_who_never_boosts_finishes_modifying_at_once() {
    // A 2 in hand could empower: a choice, unless the player never boosts.
    let state = duel_with_hand(r#""2R""#);
    assert_eq!(
        standing_choice(&state, Seat::A, StandingAnswers::default()),
        None
    );
    let never = StandingAnswers {
        never_boost: true,
        ..StandingAnswers::default()
    };
    assert_eq!(
        standing_choice(&state, Seat::A, never),
        Some(PlayerCommand::FinishModifying)
    );
}

/// The player's standing answers are stored, and the game takes what they
/// give: after every command no decision the answers would take is left
/// waiting, and ticking "never boost" while a duel waits on the player's
/// modifiers takes that decision at once.
async fn standing_answers_are_kept_and_the_game_takes_them(backend: Backend) {
    let test_db = TestDb::create(&backend);
    let db = test_db.open();
    let mut conn = db.conn().unwrap();
    let account = create_verified_account(&mut conn, "answers@example.org", "Player", false);
    assert_eq!(
        hosted::standing_answers(&mut conn, account).unwrap(),
        StandingAnswers::default()
    );
    let catalog = load_for_server(None).unwrap();
    let shipped: Vec<(&str, &str)> = shipped_crews()
        .iter()
        .copied()
        .filter(|(path, _)| path.contains("m4e"))
        .collect();
    let list = |i: usize| BroughtList {
        name: shipped[i].0.to_string(),
        list: CrewList::parse(shipped[i].1).unwrap(),
    };
    let request = PracticeRequest {
        content: Default::default(),
        account_id: account,
        lists: vec![list(0)],
        bot: BotKind::Random,
        bot_lists: vec![list(1)],
        seed: Bytes32([9; 32]),
        time_control_ms: None,
    };
    let now = chrono::Utc::now().naive_utc();
    let id = hosted::start_practice(&mut conn, &catalog, &request, now).unwrap();
    let mut boosts_turned_off = false;
    for n in 0..4_000u64 {
        let game = hosted::load::<Malifaux>(&mut conn, id).unwrap();
        if game.state.ended {
            break;
        }
        let answers = hosted::standing_answers(&mut conn, account).unwrap();
        assert_eq!(
            standing_choice(&game.state, Seat::A, answers),
            None,
            "a decision the answers take was left to the player at version {}",
            game.state.version
        );
        let modifying = game.state.duel().is_some_and(|d| {
            matches!(d.step, soulstone_engine::duel::DuelStep::Modify { role }
                if d.side(role).is_some_and(|s| s.seat == Seat::A))
        });
        if modifying && !boosts_turned_off {
            let never = StandingAnswers {
                never_boost: true,
                ..answers
            };
            hosted::set_standing_answers(&mut conn, account, never).unwrap();
            assert_eq!(hosted::standing_answers(&mut conn, account).unwrap(), never);
            let moved = hosted::apply_standing_answers(&mut conn, id, account, now)
                .unwrap()
                .expect("the waiting modifiers are finished at once");
            assert!(moved > game.state.version);
            let taken = hosted::forced_for(&mut conn, id, Seat::A).unwrap();
            assert!(
                taken
                    .iter()
                    .any(|(from, _)| *from == game.state.version + 1),
                "{taken:?}"
            );
            // Nothing more to take: a second save moves nothing.
            assert_eq!(
                hosted::apply_standing_answers(&mut conn, id, account, now).unwrap(),
                None
            );
            boosts_turned_off = true;
            continue;
        }
        let command = Bot::new(BotKind::Random, Seat::A, n)
            .decide(&game.state)
            .expect("the game waits for the player");
        hosted::submit::<Malifaux>(
            &mut conn,
            id,
            account,
            game.state.version,
            &format!("k{n}"),
            command,
            now,
        )
        .unwrap();
    }
    assert!(
        boosts_turned_off,
        "the player was never asked to modify a duel"
    );
    let taken = hosted::forced_for(&mut conn, id, Seat::A).unwrap();
    assert!(taken.len() > 1, "{taken:?}");
}

/// `forced_choice` stops at the second legal option; it must say what the
/// whole decision says, at every step of random games in both editions.
#[test]
fn the_quick_answer_agrees_with_the_whole_decision() {
    let catalog = load_for_server(None).expect("the shipped content loads");
    for edition in [Edition::Fourth, Edition::Third] {
        let lists: Vec<(String, CrewList)> = shipped_crews()
            .iter()
            .filter(|(path, _)| path.contains(edition.code()))
            .map(|(path, text)| (path.to_string(), CrewList::parse(text).unwrap()))
            .collect();
        assert!(lists.len() >= 2, "{edition:?} ships two lists");
        let brought = |k: usize| {
            vec![Brought {
                name: &lists[k].0,
                list: &lists[k].1,
            }]
        };
        let (a, b) = (brought(0), brought(1));
        let setup = new_encounter(&catalog, [&a, &b], Bytes32([3; 32]), None).unwrap();
        let mut state = GameState::new(setup).unwrap();
        let mut bots = Seat::BOTH.map(|seat| Bot::new(BotKind::Random, seat, 7));
        let mut compared = 0;
        for _ in 0..1_500 {
            for seat in Seat::BOTH {
                let whole = soulstone_engine::pending::decision(&state, seat).and_then(|d| match d
                    .choices
                    .as_slice()
                {
                    [soulstone_engine::pending::Choice::Command { command }] => {
                        Some(command.clone())
                    }
                    _ => None,
                });
                assert_eq!(forced_choice(&state, seat), whole, "at {}", state.version);
                compared += 1;
            }
            if !bot_step(&mut state, &mut bots) {
                break;
            }
        }
        assert!(compared > 200, "{edition:?}: only {compared} positions");
    }
}

/// The seat the game waits for plays its bot's command; false when the
/// game waits for nobody.
fn bot_step(state: &mut GameState, bots: &mut [Bot; 2]) -> bool {
    let Some(seat) = Seat::BOTH
        .into_iter()
        .find(|seat| soulstone_engine::pending::waits_for(state, *seat))
    else {
        return false;
    };
    let command = bots[seat.index()].decide(state).unwrap();
    let version = state.version;
    execute(state, &Submission::player(seat, version, command)).unwrap();
    true
}
