//! The searching bots (issue 53) never read what their seat may not see:
//! at positions of real games, with everything hidden from the seat
//! changed (the opponent's hand, deck and scheme, the seat's deck order,
//! the secret seed), the normal and hard bots choose the same command from
//! the same seed; and they do search, choosing otherwise than the easy
//! bot somewhere.

use soulstone_engine::bot::{Bot, BotKind};
use soulstone_engine::pending;
use soulstone_engine::{GameState, Seat, Submission, execute, view};
use soulstone_random::RandomStream;

use crate::information_sets::{positions, with_hidden_changed};

/// Whether `seat` has a choice to weigh at `state` during the turns.
fn weighs(state: &GameState, seat: Seat) -> bool {
    state.encounter.as_deref().is_some_and(|e| e.turn > 0)
        && pending::decision(state, seat).is_some_and(|d| d.choices.len() >= 2)
}

fn check_edition(edition: &str, seed: u64) {
    let mut rng = RandomStream::from_seed_and_label(seed, "search bot secrecy");
    let (mut weighed, mut hard_weighed, mut not_greedy) = (0, 0, 0);
    for (n, state) in positions(edition, seed).into_iter().enumerate() {
        for seat in Seat::BOTH.into_iter().filter(|s| weighs(&state, *s)) {
            let changed = with_hidden_changed(&state, seat, &mut rng);
            assert_ne!(state, changed, "{edition} #{n}: nothing was changed");
            let seen = soulstone_engine::Viewer::Player(seat);
            assert_eq!(view(&state, seen), view(&changed, seen), "{edition} #{n}");
            let bot_seed = seed * 1_000 + n as u64;
            let mut levels = vec![BotKind::Normal];
            if n % 3 == 0 {
                levels.push(BotKind::Hard);
                hard_weighed += 1;
            }
            for level in levels {
                let choose = |state: &GameState| {
                    Bot::new(level, seat, bot_seed)
                        .decide(state)
                        .unwrap_or_else(|| panic!("{edition} #{n}: {level:?} found no command"))
                };
                let chosen = choose(&state);
                assert_eq!(
                    chosen,
                    choose(&changed),
                    "{edition} #{n}: {level:?} for {seat:?} told apart two states it cannot see apart"
                );
                // What it chose is a legal command of the true game.
                let mut after = state.clone();
                execute(
                    &mut after,
                    &Submission::player(seat, state.version, chosen.clone()),
                )
                .unwrap_or_else(|e| panic!("{edition} #{n}: {level:?} chose {chosen:?}: {e}"));
                if level == BotKind::Normal {
                    let easy = Bot::new(BotKind::Greedy, seat, bot_seed).decide(&state);
                    not_greedy += usize::from(easy.as_ref() != Some(&chosen));
                }
            }
            weighed += 1;
        }
    }
    assert!(weighed >= 4, "{edition}: only {weighed} positions to weigh");
    assert!(hard_weighed >= 1, "{edition}: the hard bot weighed nothing");
    // A search that always agreed with the easy bot would be no search.
    assert!(
        not_greedy >= 1,
        "{edition}: the normal bot chose as the easy one at all {weighed} positions"
    );
}

#[test]
fn fourth_edition_searching_bots_choose_alike_whatever_they_cannot_see() {
    for seed in [3, 11] {
        check_edition("m4e", seed);
    }
}

#[test]
fn third_edition_searching_bots_choose_alike_whatever_they_cannot_see() {
    for seed in [5, 12] {
        check_edition("m3e", seed);
    }
}
