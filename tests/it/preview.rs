//! The game page's preview of a path (`soulstone_engine::preview`) against
//! the rules' answer to the command itself: on 10,000 random paths in
//! random positions of whole encounters, the verdict and its words are the
//! same, and the measure the ruler draws agrees with it (a path the rules
//! allow costs no more than the allowance; one refused as too far, more).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use soulstone::content::{load_for_server, shipped_crews};
use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::content::crew::CrewList;
use soulstone_engine::encounter::{Brought, new_encounter};
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::pending::{Choice, unchecked_options};
use soulstone_engine::preview::preview;
use soulstone_engine::table::movement::Waypoint;
use soulstone_engine::table::{inches, milli};
use soulstone_engine::{Edition, GameState, PlayerCommand, Seat, Submission, execute};

const PATHS: usize = 10_000;

fn lists(edition: Edition) -> Vec<(String, CrewList)> {
    shipped_crews()
        .iter()
        .filter(|(path, _)| path.contains(edition.code()))
        .map(|(path, text)| (path.to_string(), CrewList::parse(text).unwrap()))
        .collect()
}

/// A random path for `model` from where it stands: one to four waypoints,
/// each a step of up to 1.5 times its allowance, some off the table.
fn random_path(rng: &mut ChaCha8Rng, state: &GameState, model: u16, reach: f64) -> Vec<Waypoint> {
    let here = state
        .model(soulstone_engine::model::ModelId(model))
        .and_then(|m| m.placement)
        .expect("a model on the table");
    let (mut x, mut y) = (inches(here.at.x), inches(here.at.y));
    let steps = rng.random_range(1..=4);
    (0..steps)
        .map(|_| {
            let angle = rng.random_range(0.0..std::f64::consts::TAU);
            let step = rng.random_range(0.0..=reach * 1.5 / f64::from(steps as u8));
            x = (x + angle.cos() * step).clamp(-1.0, 37.0);
            y = (y + angle.sin() * step).clamp(-1.0, 37.0);
            Waypoint {
                x: milli(x),
                y: milli(y),
                z: 0,
            }
        })
        .collect()
}

#[test]
fn previews_agree_with_the_rules_on_ten_thousand_paths() {
    let catalog = load_for_server(None).expect("the shipped content loads");
    let mut rng = ChaCha8Rng::seed_from_u64(0x9e1e_7a61e);
    let (mut checked, mut allowed, mut too_far) = (0usize, 0usize, 0usize);
    let mut game = 0u64;
    while checked < PATHS {
        game += 1;
        let edition = if game.is_multiple_of(2) {
            Edition::Fourth
        } else {
            Edition::Third
        };
        let lists = lists(edition);
        let pick = |seat: usize| {
            let (name, list) = &lists[(game as usize + seat) % lists.len()];
            vec![Brought { name, list }]
        };
        let (a, b) = (pick(0), pick(1));
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&game.to_le_bytes());
        let setup = new_encounter(&catalog, [&a, &b], Bytes32(bytes), None).unwrap();
        let mut state = GameState::new(setup).unwrap();
        let mut bots = [
            Bot::new(BotKind::Random, Seat::A, game),
            Bot::new(BotKind::Random, Seat::B, game),
        ];
        for _ in 0..4_000 {
            if state.ended || checked >= PATHS {
                break;
            }
            // At a position where a model may move: a few random paths.
            for seat in Seat::BOTH {
                for choice in unchecked_options(&state, seat) {
                    let (model, reach, make): (u16, u8, fn(Vec<Waypoint>) -> PlayerCommand) =
                        match choice {
                            Choice::Walk { model, inches } => {
                                (model.0, inches, |path| PlayerCommand::Walk {
                                    path,
                                    land_at: None,
                                })
                            }
                            Choice::Charge { model, inches } => {
                                (model.0, inches, |path| PlayerCommand::Charge {
                                    to: path[path.len() - 1],
                                    land_at: None,
                                })
                            }
                            Choice::Move { model, inches } => {
                                (model.0, inches, |path| PlayerCommand::Move {
                                    path,
                                    land_at: None,
                                })
                            }
                            _ => continue,
                        };
                    if !rng.random_bool(0.3) {
                        continue;
                    }
                    for _ in 0..rng.random_range(1..=6) {
                        let path = random_path(&mut rng, &state, model, f64::from(reach));
                        let command = make(path);
                        let seen = preview(&state, seat, &command);
                        let mut copy = state.clone();
                        let answer = execute(
                            &mut copy,
                            &Submission::player(seat, state.version, command.clone()),
                        );
                        assert_eq!(
                            seen.legal,
                            answer.is_ok(),
                            "{command:?}: preview {seen:?}, rules {answer:?}"
                        );
                        assert_eq!(
                            seen.reason,
                            answer.as_ref().err().map(ToString::to_string),
                            "{command:?}"
                        );
                        if let Some(measure) = seen.path {
                            if seen.legal {
                                allowed += 1;
                                assert!(
                                    measure.cost <= measure.allowance + 0.01,
                                    "{command:?} allowed at {measure:?}"
                                );
                            } else if seen
                                .reason
                                .as_deref()
                                .is_some_and(|r| r.contains("is available"))
                            {
                                too_far += 1;
                                assert!(
                                    measure.cost > measure.allowance,
                                    "{command:?} refused as too far at {measure:?}"
                                );
                            }
                        }
                        checked += 1;
                    }
                }
            }
            let Some(seat) = Seat::BOTH
                .into_iter()
                .find(|seat| soulstone_engine::pending::waits_for(&state, *seat))
            else {
                break;
            };
            let Some(command) = bots[seat.index()].decide(&state) else {
                break;
            };
            let version = state.version;
            if execute(&mut state, &Submission::player(seat, version, command)).is_err() {
                break;
            }
        }
    }
    println!("{checked} paths in {game} games: {allowed} allowed, {too_far} too far");
    assert!(
        allowed > PATHS / 20 && too_far > PATHS / 20,
        "both verdicts come up: {allowed} allowed, {too_far} too far of {checked}"
    );
}
