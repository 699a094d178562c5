//! The searching Mage Knight bot (the normal and hard levels): it chooses
//! from what its seat may see, so the dice's secret seed changes nothing
//! it does; it thinks long only over its own actions; and its games keep
//! the rules and verify like any other.

use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::game::Stage;
use soulstone_engine::mage_knight::{MageKnight, verify};
use soulstone_engine::system::TableGame;

use super::mage_knight::{play, set_up};

/// Positions of a greedy game where `seat` gives an action, every few
/// actions, with the bot seed to ask at each.
fn acting_positions(seed: u64) -> Vec<(soulstone_engine::mage_knight::Battle, Seat)> {
    let mut battle = MageKnight::start(set_up(seed)).expect("starts");
    let mut found = Vec::new();
    for step in 0..2_000u64 {
        if MageKnight::is_over(&battle) || found.len() >= 8 {
            break;
        }
        let seat = MageKnight::waiting_for(&battle)[0];
        if matches!(battle.stage, Stage::Acting { .. }) && step % 5 == 0 {
            found.push((battle.clone(), seat));
        }
        let order =
            MageKnight::bot_command(&battle, seat, BotKind::Greedy, step).expect("an order");
        let submission = MageKnight::player_submission(seat, battle.version, order);
        MageKnight::execute(&mut battle, &submission).expect("a legal order");
    }
    found
}

#[test]
fn the_searching_bot_chooses_alike_whatever_the_dice_hold() {
    let mut differs_from_greedy = 0;
    let positions = acting_positions(4);
    assert!(positions.len() >= 6, "the game reached its actions");
    for (n, (battle, seat)) in positions.iter().enumerate() {
        let seed = 17 + n as u64;
        assert!(MageKnight::bot_thinks_long(battle, *seat, BotKind::Normal));
        assert!(!MageKnight::bot_thinks_long(battle, *seat, BotKind::Greedy));
        let chosen = MageKnight::bot_command(battle, *seat, BotKind::Normal, seed);
        // The same view with other dice to come: the seed is the one
        // thing of the game a player may not know.
        let mut other_dice = battle.clone();
        other_dice.dice.seed = Bytes32::digest_of(&format!("another seed {n}"));
        assert_ne!(other_dice.dice.seed, battle.dice.seed);
        assert_eq!(
            MageKnight::bot_command(&other_dice, *seat, BotKind::Normal, seed),
            chosen,
            "position {n}: the choice does not depend on the dice to come"
        );
        if chosen != MageKnight::bot_command(battle, *seat, BotKind::Greedy, seed) {
            differs_from_greedy += 1;
        }
    }
    assert!(
        differs_from_greedy > 0,
        "the search changed the greedy choice somewhere: it searches"
    );
    // Before the actions, nothing is searched.
    let setup = MageKnight::start(set_up(4)).expect("starts");
    assert!(!MageKnight::bot_thinks_long(&setup, Seat::A, BotKind::Hard));
}

#[test]
fn searching_bots_play_whole_games_that_keep_the_rules_and_verify() {
    for (seed, levels) in [
        (5, [BotKind::Normal, BotKind::Greedy]),
        (6, [BotKind::Greedy, BotKind::Normal]),
    ] {
        // `play` checks the dials, tokens and captives after every order.
        let (battle, log) = play(set_up(seed), levels, seed);
        assert!(battle.outcome.is_some(), "the game ended");
        let rolls = verify(&log).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(rolls > 10, "the game rolled its attacks");
    }
}

#[test]
fn the_normal_bot_beats_the_easy_one_in_most_games() {
    // Fixed setups and seeds, seats swapped: the same games every run.
    let mut won = 0;
    let games = 8;
    for n in 0..games {
        let normal = if n % 2 == 0 { Seat::A } else { Seat::B };
        let mut levels = [BotKind::Greedy; 2];
        levels[normal.index()] = BotKind::Normal;
        let (battle, _) = play(set_up(n / 2), levels, 40 + n / 2);
        if battle.outcome.as_ref().and_then(|o| o.winner) == Some(normal) {
            won += 1;
        }
    }
    assert!(won * 8 >= games * 5, "normal won {won} of {games}");
}
