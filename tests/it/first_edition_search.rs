//! The searching 1st edition bot (the normal and hard levels): it chooses
//! from what its seat may see, so the other hand, both decks' order, the
//! other player's hidden schemes and the seed change nothing it does; it
//! thinks long only over its own activations; and its games keep the
//! rules and verify like any other.

use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::flow::{Order, Submission};
use soulstone_engine::first_edition::objectives::{Scheme, SchemePick};
use soulstone_engine::first_edition::{self, FirstEdition, Skirmish, Stage};
use soulstone_engine::system::TableGame;

use super::first_edition_games::{check_finished, play, set_up};

/// Positions of a greedy game where the seat to move picks a model or an
/// action for one of its own, every few such decisions.
fn searched_positions(seed: u64) -> Vec<(Skirmish, Seat)> {
    let mut game = first_edition::start(set_up(seed)).expect("starts");
    let mut found = Vec::new();
    let mut weighed = 0;
    for step in 0..5_000u64 {
        if game.is_over() || found.len() >= 8 {
            break;
        }
        let waiting = FirstEdition::waiting_for(&game);
        let seat = waiting[usize::try_from(step).unwrap() % waiting.len()];
        if matches!(game.stage, Stage::Activating { .. } | Stage::Acting { .. }) {
            weighed += 1;
            if weighed % 4 == 0 {
                found.push((game.clone(), seat));
            }
        }
        let order = FirstEdition::bot_command(&game, seat, BotKind::Greedy, step).expect("moves");
        let submission = FirstEdition::player_submission(seat, game.version, order);
        FirstEdition::execute(&mut game, &submission).expect("a legal order");
    }
    found
}

/// `game` with everything `seat` may not see changed: the other hand
/// swapped for cards of the other deck, both decks turned over, the
/// other player's unannounced schemes replaced, and another seed.
fn with_other_secrets(game: &Skirmish, seat: Seat, n: usize) -> Skirmish {
    let mut other = game.clone();
    other.seed = Bytes32::digest_of(&format!("another seed {n}"));
    let theirs = &mut other.players[seat.other().index()];
    let swapped = theirs.hand.len().min(theirs.deck.len());
    for i in 0..swapped {
        std::mem::swap(&mut theirs.hand[i], &mut theirs.deck[i]);
    }
    theirs.schemes.retain(|pick| pick.announce);
    theirs.schemes.push(SchemePick {
        scheme: Scheme::Raid,
        model: None,
        announce: false,
    });
    for player in &mut other.players {
        player.deck.reverse();
    }
    other
}

#[test]
fn the_searching_bot_chooses_alike_whatever_it_cannot_see() {
    let mut differs_from_greedy = 0;
    let mut compared = 0;
    for seed in [2, 3] {
        let positions = searched_positions(seed);
        assert!(positions.len() >= 6, "the game reached its activations");
        for (n, (game, seat)) in positions.iter().enumerate() {
            assert!(FirstEdition::bot_thinks_long(game, *seat, BotKind::Normal));
            assert!(!FirstEdition::bot_thinks_long(game, *seat, BotKind::Greedy));
            assert!(!FirstEdition::bot_thinks_long(
                game,
                seat.other(),
                BotKind::Hard
            ));
            let bot_seed = 17 + n as u64;
            let chosen = FirstEdition::bot_command(game, *seat, BotKind::Normal, bot_seed)
                .expect("the bot moves");
            let other = with_other_secrets(game, *seat, n);
            // The seat sees the same game in both, which differ.
            let seen = |g: &Skirmish| {
                serde_json::to_value(first_edition::hidden_from(g, Some(*seat))).unwrap()
            };
            assert_eq!(seen(&other), seen(game), "the seat cannot tell them apart");
            assert_ne!(
                serde_json::to_value(&other).unwrap(),
                serde_json::to_value(game).unwrap()
            );
            assert_eq!(
                FirstEdition::bot_command(&other, *seat, BotKind::Normal, bot_seed).as_ref(),
                Some(&chosen),
                "seed {seed} position {n}: the choice does not depend on hidden cards"
            );
            // What it chose is legal in the true game.
            let mut tried = game.clone();
            let submission = Submission::Player {
                seat: *seat,
                version: tried.version,
                order: chosen.clone(),
            };
            first_edition::execute(&mut tried, &submission)
                .unwrap_or_else(|e| panic!("{chosen:?} was refused: {e}"));
            if Some(chosen) != FirstEdition::bot_command(game, *seat, BotKind::Greedy, bot_seed) {
                differs_from_greedy += 1;
            }
            compared += 1;
        }
    }
    assert!(compared >= 12, "compared {compared} positions");
    assert!(
        differs_from_greedy > 0,
        "the search changed the greedy choice somewhere: it searches"
    );
    // Before the activations, nothing is searched.
    let setup = first_edition::start(set_up(4)).expect("starts");
    assert!(!FirstEdition::bot_thinks_long(
        &setup,
        Seat::A,
        BotKind::Hard
    ));
}

/// The schemes are weighed too, inside the request (both players choose
/// at once): the same choice whatever the other player's cards, and a
/// legal one.
#[test]
fn the_searching_bot_weighs_its_schemes_from_what_it_may_see() {
    let mut game = first_edition::start(set_up(7)).expect("starts");
    for step in 0..200u64 {
        if game.stage == Stage::ChoosingSchemes {
            break;
        }
        let seat = FirstEdition::waiting_for(&game)[0];
        let order = FirstEdition::bot_command(&game, seat, BotKind::Greedy, step).expect("moves");
        let submission = FirstEdition::player_submission(seat, game.version, order);
        FirstEdition::execute(&mut game, &submission).expect("a legal order");
    }
    assert_eq!(game.stage, Stage::ChoosingSchemes);
    for (n, seat) in Seat::BOTH.into_iter().enumerate() {
        assert!(!FirstEdition::bot_thinks_long(&game, seat, BotKind::Hard));
        let chosen = FirstEdition::bot_command(&game, seat, BotKind::Normal, 5).expect("chooses");
        assert!(matches!(chosen, Order::ChooseSchemes { .. }), "{chosen:?}");
        let mut other = game.clone();
        other.seed = Bytes32::digest_of(&format!("another seed {n}"));
        for player in &mut other.players {
            player.deck.reverse();
        }
        let theirs = &mut other.players[seat.other().index()];
        let swapped = theirs.hand.len().min(theirs.deck.len());
        for i in 0..swapped {
            std::mem::swap(&mut theirs.hand[i], &mut theirs.deck[i]);
        }
        assert_eq!(
            FirstEdition::bot_command(&other, seat, BotKind::Normal, 5).as_ref(),
            Some(&chosen),
            "{seat:?}: the schemes do not depend on hidden cards"
        );
        let mut tried = game.clone();
        let submission = FirstEdition::player_submission(seat, tried.version, chosen.clone());
        FirstEdition::execute(&mut tried, &submission)
            .unwrap_or_else(|e| panic!("{chosen:?} was refused: {e}"));
    }
}

#[test]
fn searching_bots_play_whole_games_that_keep_the_rules_and_verify() {
    for (seed, bots) in [
        (5, [BotKind::Normal, BotKind::Greedy]),
        (6, [BotKind::Greedy, BotKind::Normal]),
    ] {
        // `play` checks the decks, hands, pools and secrets after every
        // command.
        let (log, game) = play(set_up(seed), bots, seed);
        check_finished(&log, &game);
    }
}
