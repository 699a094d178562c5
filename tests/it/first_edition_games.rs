//! 1st edition encounters played whole by bots (issue 55): every game
//! ends within the game's length, every card of both fate decks is
//! accounted for after every command, the soulstone pools only fall, every
//! log verifies (each shuffle and card against the seed, and the commands
//! played again give the same facts), and no view holds a card or scheme
//! its viewer may not see. Six games here; `M1E_GAMES=1000` runs more.

use soulstone::content::{shipped_first_edition, shipped_first_edition_conditions};
use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::first_edition::flow::{Order, Submission, TURNS};
use soulstone_engine::first_edition::{
    self, Fact, FinishedLog, FirstEdition, Setup, Skirmish, Stage, verify,
};
use soulstone_engine::system::TableGame;

/// The commands a game may take before it counts as endless.
const MAX_COMMANDS: usize = 20_000;

/// A Scrap between two of the shipped crews, picked by `seed`.
pub fn set_up(seed: u64) -> Setup {
    let book = shipped_first_edition().expect("the shipped 1st edition content loads");
    let lists = book.crews();
    let a = &lists[usize::try_from(seed).unwrap() % lists.len()];
    let b = &lists[usize::try_from(seed + 1).unwrap() % lists.len()];
    let crews = [a, b].map(|list| book.hire(list).expect("a shipped crew hires"));
    Setup {
        encounter: crews[0].encounter,
        crews,
        summonable: book.models().cloned().collect(),
        conditions: shipped_first_edition_conditions().expect("the condition book loads"),
        seed: Bytes32::digest_of(&format!("m1e test seed {seed}")),
    }
}

/// Plays a game with the given bots, checking the invariants after every
/// command; returns the finished log and the game.
pub fn play(setup: Setup, bots: [BotKind; 2], seed: u64) -> (FinishedLog, Skirmish) {
    let pools = setup.crews.each_ref().map(|c| c.pool);
    let mut game = first_edition::start(setup.clone()).expect("the setup starts");
    let mut facts: Vec<Fact> = Vec::new();
    let mut commands = Vec::new();
    let mut stones = pools;
    for step in 0..MAX_COMMANDS {
        if game.is_over() {
            break;
        }
        let waiting = FirstEdition::waiting_for(&game);
        assert!(!waiting.is_empty(), "a game going on waits for someone");
        let seat = waiting[step % waiting.len()];
        let order = FirstEdition::bot_command(
            &game,
            seat,
            bots[seat.index()],
            seed.wrapping_mul(7919).wrapping_add(game.version),
        )
        .unwrap_or_else(|| panic!("the game waits for {seat:?}, whose bot has no move"));
        let submission = Submission::Player {
            seat,
            version: game.version,
            order: order.clone(),
        };
        let made = first_edition::execute(&mut game, &submission)
            .unwrap_or_else(|e| panic!("the bot's {order:?} was refused: {e}"));
        commands.push((u32::try_from(facts.len()).unwrap(), submission));
        facts.extend(made);
        for seat in Seat::BOTH {
            let player = game.player(seat);
            let held = player.deck.len() + player.hand.len() + player.discards.len();
            assert_eq!(held, 54, "every card of {seat:?}'s deck is somewhere");
            assert!(
                player.hand.len() <= usize::from(game.encounter.max_hand()) + 1,
                "the hand stays near its size"
            );
            assert!(
                player.soulstones <= stones[seat.index()],
                "soulstones are only spent"
            );
            stones[seat.index()] = player.soulstones;
            secrets_hold(&game, seat);
        }
    }
    assert!(
        game.is_over(),
        "the game ends within {MAX_COMMANDS} commands"
    );
    let log = FinishedLog {
        log_format: FirstEdition::LOG_FORMAT,
        rules_version: FirstEdition::RULES_VERSION,
        setup,
        facts,
        commands,
    };
    (log, game)
}

/// `seat`'s view holds neither deck's order, nor the other hand, nor the
/// other player's unannounced schemes.
fn secrets_hold(game: &Skirmish, seat: Seat) {
    let view = first_edition::view(game, Some(seat));
    let other = seat.other();
    if game.is_over() {
        return;
    }
    for s in Seat::BOTH {
        assert!(
            view.game.player(s).deck.is_empty(),
            "no deck's order is seen"
        );
    }
    assert!(
        view.game.player(other).hand.is_empty(),
        "the other hand is hidden"
    );
    assert_eq!(
        view.game.player(other).hand_size,
        game.player(other).hand.len(),
        "its size is not"
    );
    assert!(
        view.game
            .player(other)
            .schemes
            .iter()
            .all(|p| p.announce && game.turn > 0),
        "only announced schemes are seen, once deployment is done"
    );
    assert_eq!(view.game.seed, Bytes32::default(), "the seed stays secret");
}

pub fn check_finished(log: &FinishedLog, game: &Skirmish) {
    let result = game.result.expect("a finished game has its result");
    let wiped = Seat::BOTH
        .iter()
        .any(|s| game.on_table(*s).next().is_none());
    assert!(
        game.turn >= TURNS || wiped || game.final_turn.is_none(),
        "the game lasts six turns unless a crew is gone"
    );
    for (strategy, schemes) in result {
        assert!(
            strategy <= 4 && schemes <= 6,
            "VP within the encounter's: {result:?}"
        );
    }
    let checked = verify(log).unwrap_or_else(|e| panic!("the log verifies: {e}"));
    assert!(checked > 50, "the verification checked cards: {checked}");
    let json = serde_json::to_string(log).unwrap();
    let back: FinishedLog = serde_json::from_str(&json).unwrap();
    assert_eq!(verify(&back), Ok(checked), "the log survives JSON");
}

#[test]
fn random_and_greedy_games_end_and_verify() {
    let games: u64 = std::env::var("M1E_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    let mut struck = 0;
    for seed in 0..games {
        let bots = match seed % 3 {
            0 => [BotKind::Random, BotKind::Random],
            1 => [BotKind::Greedy, BotKind::Random],
            _ => [BotKind::Greedy, BotKind::Greedy],
        };
        let (log, game) = play(set_up(seed), bots, seed);
        check_finished(&log, &game);
        struck += log
            .facts
            .iter()
            .filter(|f| matches!(f, Fact::Wounded { .. }))
            .count();
    }
    assert!(struck > 0, "models are hurt in these games");
}

#[test]
fn a_tampered_log_fails_verification() {
    let (log, game) = play(set_up(1), [BotKind::Greedy, BotKind::Greedy], 3);
    check_finished(&log, &game);
    let mut tampered = log.clone();
    let drew = tampered
        .facts
        .iter()
        .position(|f| matches!(f, Fact::Drew { .. }))
        .expect("cards are drawn");
    if let Fact::Drew { cards, .. } = &mut tampered.facts[drew] {
        cards.reverse();
        cards.rotate_left(1);
    }
    assert!(verify(&tampered).is_err(), "a changed draw is caught");
    let mut other_seed = log.clone();
    other_seed.setup.seed = Bytes32::digest_of("another seed");
    assert!(verify(&other_seed).is_err(), "another seed is caught");
}

/// The greedy bot decides from its view: the same whatever the cards the
/// other player holds and the order of both decks.
#[test]
fn the_greedy_bot_reads_nothing_it_may_not_see() {
    let mut game = first_edition::start(set_up(2)).unwrap();
    let mut compared = 0;
    for step in 0..3_000 {
        if game.is_over() {
            break;
        }
        let seat = FirstEdition::waiting_for(&game)[0];
        let order = FirstEdition::bot_command(&game, seat, BotKind::Greedy, step).unwrap();
        if game.turn > 0 && !matches!(game.stage, Stage::Contributing) {
            let mut other = game.clone();
            let theirs = &mut other.players[seat.other().index()];
            theirs.hand.reverse();
            if let Some(card) = theirs.hand.first_mut() {
                *card = soulstone_engine::fate::Card::RED_JOKER;
            }
            for player in &mut other.players {
                player.deck.reverse();
            }
            assert_eq!(
                FirstEdition::bot_command(&other, seat, BotKind::Greedy, step),
                Some(order.clone()),
                "the bot's choice does not depend on hidden cards"
            );
            compared += 1;
        }
        let submission = Submission::Player {
            seat,
            version: game.version,
            order,
        };
        first_edition::execute(&mut game, &submission).unwrap();
    }
    assert!(compared > 100, "the bot was compared often: {compared}");
}

/// A command the rules refuse changes nothing.
#[test]
fn refused_commands_change_nothing() {
    let mut game = first_edition::start(set_up(0)).unwrap();
    let before = serde_json::to_string(&game).unwrap();
    let wrong = Submission::Player {
        seat: Seat::A,
        version: game.version,
        order: Order::EndActivation,
    };
    let refusal = first_edition::execute(&mut game, &wrong).unwrap_err();
    assert!(
        refusal.to_string().contains("not a choice now"),
        "{refusal}"
    );
    let stale = Submission::Player {
        seat: Seat::A,
        version: game.version + 1,
        order: Order::Contribute {
            entropy: Bytes32::default(),
        },
    };
    assert!(first_edition::execute(&mut game, &stale).is_err());
    assert_eq!(serde_json::to_string(&game).unwrap(), before);
}
