//! The 1st edition's rules one by one (issue 55), each on a table laid
//! out by hand with the fate decks stacked, as the Malifaux scenario files
//! do for the other editions: the damage flip's twists and bands, the
//! Black Joker, cheating barred by a negative twist, Hard to Kill, armor,
//! soulstone prevention, ranged strikes in melee, walks and disengaging
//! strikes, charges, Harmless, Terrifying and falling back, halted
//! activations, conditions that cancel, and the schemes' limits. Each
//! names the quick reference's line (`../shared/seeds/004_*.txt`).

use soulstone_engine::Seat;
use soulstone_engine::bot::BotKind;
use soulstone_engine::fate::Card;
use soulstone_engine::first_edition::actions::Action;
use soulstone_engine::first_edition::flow::{Order, Submission};
use soulstone_engine::first_edition::objectives::{
    Deployment, Scheme, SchemePick, Strategy, schemes_problem,
};
use soulstone_engine::first_edition::skirmish::Activation;
use soulstone_engine::first_edition::{self, Fact, FirstEdition, ModelId, Skirmish, Stage};
use soulstone_engine::system::TableGame;
use soulstone_engine::table::Point;

use super::first_edition_games::set_up;

/// A game of `set_up(seed)` played by greedy bots to turn 1's first
/// activation, with every model parked apart along the table's edges.
fn table(seed: u64) -> Skirmish {
    let mut game = first_edition::start(set_up(seed)).unwrap();
    for step in 0..2_000u64 {
        if matches!(game.stage, Stage::Activating { .. }) {
            break;
        }
        let seat = FirstEdition::waiting_for(&game)[0];
        let order = FirstEdition::bot_command(&game, seat, BotKind::Greedy, step).unwrap();
        send(&mut game, seat, order);
    }
    assert!(
        matches!(game.stage, Stage::Activating { .. }),
        "turn 1 begins"
    );
    for (i, model) in game.models.iter_mut().enumerate() {
        let i = i32::try_from(i).unwrap();
        let y = if model.seat == Seat::A { 1_500 } else { 34_500 };
        model.at = Some(Point {
            x: 1_500 + (i % 8) * 4_500,
            y,
        });
    }
    game
}

fn send(game: &mut Skirmish, seat: Seat, order: Order) -> Vec<Fact> {
    let submission = Submission::Player {
        seat,
        version: game.version,
        order: order.clone(),
    };
    first_edition::execute(game, &submission)
        .unwrap_or_else(|e| panic!("{order:?} was refused: {e}"))
}

fn refused(game: &mut Skirmish, seat: Seat, order: Order) -> String {
    let before = serde_json::to_string(&*game).unwrap();
    let submission = Submission::Player {
        seat,
        version: game.version,
        order,
    };
    let error = first_edition::execute(game, &submission).unwrap_err();
    assert_eq!(
        serde_json::to_string(&*game).unwrap(),
        before,
        "a refusal changes nothing"
    );
    error.to_string()
}

fn id(game: &Skirmish, name: &str) -> ModelId {
    game.models
        .iter()
        .find(|m| m.card.name == name)
        .unwrap_or_else(|| panic!("{name} is in the game"))
        .id
}

fn seat_of(game: &Skirmish, model: ModelId) -> Seat {
    game.model(model).unwrap().seat
}

fn put(game: &mut Skirmish, model: ModelId, x: f64, y: f64) {
    game.models[usize::from(model.0)].at = Some(Point {
        x: (x * 1000.0) as i32,
        y: (y * 1000.0) as i32,
    });
}

/// Two models in base contact, side by side at the table's centre.
fn in_contact(game: &mut Skirmish, a: ModelId, b: ModelId) {
    let gap = (f64::from(game.model(a).unwrap().card.base)
        + f64::from(game.model(b).unwrap().card.base))
        / 25.4
        / 2.0;
    put(game, a, 18.0, 18.0);
    put(game, b, 18.0 + gap, 18.0);
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// Stacks `seat`'s deck so the given cards come first, in order, and
/// empties the hand into the deck's bottom unless `hand` gives it.
fn stack(game: &mut Skirmish, seat: Seat, first: &[&str], hand: &[&str]) {
    let first: Vec<Card> = first.iter().map(|c| card(c)).collect();
    let hand: Vec<Card> = hand.iter().map(|c| card(c)).collect();
    let player = &mut game.players[seat.index()];
    let mut rest: Vec<Card> = Card::all()
        .filter(|c| !first.contains(c) && !hand.contains(c))
        .collect();
    rest.extend(first.iter().rev());
    player.deck = rest;
    player.deck_size = player.deck.len();
    player.discards.clear();
    player.hand = hand.clone();
    player.hand_size = hand.len();
}

/// `model` is acting, with its two action points.
fn acting(game: &mut Skirmish, model: ModelId) {
    game.models[usize::from(model.0)].activated = true;
    game.stage = Stage::Acting {
        activation: Activation {
            model,
            general_ap: 2,
            extra_melee: 0,
            extra_ranged: 0,
            extra_cast: 0,
            actions: 0,
            zero_cast: false,
        },
    };
}

/// Every side of the duel under way passes its changes and triggers;
/// the facts of the last pass.
fn pass_duel(game: &mut Skirmish) -> Vec<Fact> {
    let mut facts = Vec::new();
    while let Stage::Dueling { duel, .. } = &game.stage {
        let order = match duel.step {
            soulstone_engine::first_edition::duel::DuelStep::Changing { .. } => {
                Order::ChangeTotal {
                    cheat: None,
                    soulstone: false,
                }
            }
            soulstone_engine::first_edition::duel::DuelStep::Triggering { .. } => {
                Order::Trigger { trigger: None }
            }
        };
        let seat = duel.waits_for();
        facts = send(game, seat, order);
    }
    facts
}

fn wounds(facts: &[Fact], model: ModelId) -> u8 {
    facts
        .iter()
        .filter_map(|f| match f {
            Fact::Wounded { model: m, wounds } if *m == model => Some(*wounds),
            _ => None,
        })
        .sum()
}

fn strike(target: ModelId, weapon: Option<u8>) -> Order {
    Order::Act {
        action: Action::Strike {
            target,
            weapon,
            focus: false,
        },
    }
}

/// Lines 108, 126–127: a strike won by 12 gives the damage flip a
/// positive twist (two cards, the higher counts): 12 is severe.
#[test]
fn a_strike_won_by_eleven_or_more_flips_damage_with_a_positive_twist() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let apprentice = id(&game, "Coil Apprentice");
    in_contact(&mut game, deputy, apprentice);
    stack(&mut game, Seat::A, &["13R", "3C", "12T"], &[]);
    stack(&mut game, Seat::B, &["1M"], &[]);
    acting(&mut game, deputy);
    // Truncheon: Cb 4, damage 1/2/3; the apprentice's Df is 4.
    let facts = send(&mut game, Seat::A, strike(apprentice, Some(1)));
    assert!(facts.contains(&Fact::Flipped {
        seat: Seat::A,
        cards: vec![card("3C"), card("12T")]
    }));
    assert_eq!(wounds(&facts, apprentice), 3, "severe damage");
    assert!(matches!(game.stage, Stage::Acting { ref activation } if activation.general_ap == 1));
}

/// Lines 126, 209: a tie gives two negative twists (the lowest of three
/// counts), and a negative twist bars cheating the damage flip.
#[test]
fn a_tied_strike_flips_damage_low_and_cannot_be_cheated() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let apprentice = id(&game, "Coil Apprentice");
    in_contact(&mut game, deputy, apprentice);
    stack(&mut game, Seat::A, &["5R", "12R", "2C", "9M"], &["13C"]);
    stack(&mut game, Seat::B, &["5M"], &[]);
    acting(&mut game, deputy);
    send(&mut game, Seat::A, strike(apprentice, Some(1)));
    // The attacker, winning the tie, may still change its total: it passes.
    assert!(
        matches!(game.stage, Stage::Dueling { .. }),
        "{:?}",
        game.stage
    );
    let facts = send(
        &mut game,
        Seat::A,
        Order::ChangeTotal {
            cheat: None,
            soulstone: false,
        },
    );
    assert!(
        !facts.iter().any(
            |f| matches!(f, Fact::Now { stage } if matches!(**stage, Stage::CheatingDamage { .. }))
        ),
        "no chance to cheat the damage flip"
    );
    assert_eq!(wounds(&facts, apprentice), 1, "weak damage from the 2");
}

/// The errata (damage, step 1) and line 127: the Black Joker on the damage
/// flip deals nothing.
#[test]
fn the_black_joker_on_the_damage_flip_deals_nothing() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let apprentice = id(&game, "Coil Apprentice");
    in_contact(&mut game, deputy, apprentice);
    stack(&mut game, Seat::A, &["10R", "BJ"], &[]);
    stack(&mut game, Seat::B, &["1M"], &[]);
    acting(&mut game, deputy);
    let facts = send(&mut game, Seat::A, strike(apprentice, Some(1)));
    assert_eq!(wounds(&facts, apprentice), 0);
    assert_eq!(game.model(apprentice).unwrap().wounds_left, 6);
}

/// Line 260 and 244: Hard to Kill leaves a model with 2 or more wounds at
/// 1; a prevention flip (line 128) is offered first to a soulstone user.
#[test]
fn hard_to_kill_leaves_one_wound_after_prevention_is_declined() {
    let mut game = table(0);
    let golem = id(&game, "Foundry Golem");
    let grice = id(&game, "Warden Ottoline Grice");
    in_contact(&mut game, golem, grice);
    game.models[usize::from(grice.0)].wounds_left = 3;
    // Cb 6 + 13 against Df 5 + 1: won by 13, a positive twist; 12 severe (6).
    stack(&mut game, Seat::B, &["13R", "4C", "12T"], &[]);
    stack(&mut game, Seat::A, &["1M"], &[]);
    acting(&mut game, golem);
    send(&mut game, Seat::B, strike(grice, Some(0)));
    // Grice, losing, may spend a soulstone on her defence: she passes.
    pass_duel(&mut game);
    assert!(
        matches!(game.stage, Stage::Preventing { .. }),
        "{:?}",
        game.stage
    );
    let facts = send(&mut game, Seat::A, Order::Prevent { soulstone: false });
    assert_eq!(wounds(&facts, grice), 2);
    assert_eq!(game.model(grice).unwrap().wounds_left, 1);
    assert!(!game.model(grice).unwrap().killed);
}

/// Line 128: a soulstone's prevention flip of 6–10 prevents 2.
#[test]
fn a_soulstone_prevents_damage_by_its_flip() {
    let mut game = table(0);
    let golem = id(&game, "Foundry Golem");
    let grice = id(&game, "Warden Ottoline Grice");
    in_contact(&mut game, golem, grice);
    stack(&mut game, Seat::B, &["13R", "4C", "12T"], &[]);
    stack(&mut game, Seat::A, &["1M", "7R"], &[]);
    let stones = game.player(Seat::A).soulstones;
    acting(&mut game, golem);
    send(&mut game, Seat::B, strike(grice, Some(0)));
    pass_duel(&mut game);
    let facts = send(&mut game, Seat::A, Order::Prevent { soulstone: true });
    assert_eq!(wounds(&facts, grice), 4, "6 severe, 2 prevented");
    assert_eq!(game.player(Seat::A).soulstones, stones - 1);
}

/// Line 244: armor reduces damage, not below 1.
#[test]
fn armor_reduces_damage_to_one_at_least() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let golem = id(&game, "Foundry Golem");
    in_contact(&mut game, deputy, golem);
    // Won by 14 (4+13 against 3+0... the golem flips the 1): weak 1 after a
    // twist? Margin 13: positive twist; 3 and 4 flip weak: 1 less armor 1.
    stack(&mut game, Seat::A, &["13R", "3C", "4T"], &[]);
    stack(&mut game, Seat::B, &["1M"], &[]);
    acting(&mut game, deputy);
    let facts = send(&mut game, Seat::A, strike(golem, Some(1)));
    // Hard to Wound 1 cancels the positive twist: one card, the 3: weak 1.
    assert_eq!(wounds(&facts, golem), 1);
}

/// Line 136: no ranged strikes while in melee; a strike names its reach.
#[test]
fn ranged_strikes_are_refused_in_melee_and_out_of_reach() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let apprentice = id(&game, "Coil Apprentice");
    in_contact(&mut game, deputy, apprentice);
    acting(&mut game, deputy);
    let message = refused(&mut game, Seat::A, strike(apprentice, Some(0)));
    assert!(message.contains("may not make ranged strikes"), "{message}");
    put(&mut game, apprentice, 18.0, 30.0);
    let message = refused(&mut game, Seat::A, strike(apprentice, Some(1)));
    assert!(message.contains("beyond the weapon's 1\""), "{message}");
}

/// Lines 90 and 112: a walk is at most Wk; leaving melee draws a
/// disengaging strike, and a hit cancels the walk.
#[test]
fn a_walk_out_of_melee_is_stopped_by_a_disengaging_strike_that_hits() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let apprentice = id(&game, "Coil Apprentice");
    in_contact(&mut game, deputy, apprentice);
    acting(&mut game, deputy);
    let too_far = Order::Act {
        action: Action::Walk {
            to: Point {
                x: 18_000,
                y: 11_000,
            },
        },
    };
    let message = refused(&mut game, Seat::A, too_far);
    assert!(message.contains("walks at most 5\""), "{message}");
    stack(&mut game, Seat::B, &["13R"], &[]);
    stack(&mut game, Seat::A, &["1M"], &[]);
    let before = game.model(deputy).unwrap().at;
    let facts = send(
        &mut game,
        Seat::A,
        Order::Act {
            action: Action::Walk {
                to: Point {
                    x: 18_000,
                    y: 14_000,
                },
            },
        },
    );
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::Placed { model, .. } if *model == deputy))
    );
    assert_eq!(
        game.model(deputy).unwrap().at,
        before,
        "the walk is cancelled"
    );
    assert_eq!(
        wounds(&facts, deputy),
        0,
        "a disengaging strike deals no damage"
    );
    assert!(matches!(game.stage, Stage::Acting { ref activation } if activation.general_ap == 1));
}

/// Line 91: a charge moves straight at Cg into contact, then strikes, with
/// a positive twist on the damage flip (our reading, docs/first-edition.md).
#[test]
fn a_charge_moves_into_contact_and_strikes() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    let apprentice = id(&game, "Coil Apprentice");
    put(&mut game, deputy, 18.0, 10.0);
    put(&mut game, apprentice, 18.0, 16.0);
    // Won by 8 (4+9 against 4+1): no twist from the margin, one from the
    // charge: two cards, 2 and 11: severe 3.
    stack(&mut game, Seat::A, &["9R", "2C", "11T"], &[]);
    stack(&mut game, Seat::B, &["1M"], &[]);
    acting(&mut game, deputy);
    let facts = send(
        &mut game,
        Seat::A,
        Order::Act {
            action: Action::Charge {
                target: apprentice,
                weapon: Some(1),
            },
        },
    );
    let gap = soulstone_engine::first_edition::field::gap(
        game.model(deputy).unwrap(),
        game.model(apprentice).unwrap(),
    )
    .unwrap();
    assert!(gap.abs() < 0.1, "in base contact: {gap}");
    assert_eq!(wounds(&facts, apprentice), 3);
    assert!(
        matches!(game.stage, Stage::Activating { .. }),
        "a charge spends both points"
    );
}

/// Line 268: attacking a Harmless model needs a Wp duel of 13; a loss
/// ends the action.
#[test]
fn a_harmless_model_turns_an_attack_aside_on_a_lost_willpower_duel() {
    let mut game = table(3);
    let deputy = id(&game, "Lamplight Deputy");
    let child = id(&game, "Hollow Child");
    assert_eq!(seat_of(&game, deputy), Seat::B);
    in_contact(&mut game, deputy, child);
    stack(&mut game, Seat::B, &["2R"], &[]);
    acting(&mut game, deputy);
    let facts = send(&mut game, Seat::B, strike(child, Some(1)));
    assert_eq!(
        facts
            .iter()
            .filter(|f| matches!(f, Fact::Flipped { .. }))
            .count(),
        1
    );
    assert_eq!(wounds(&facts, child), 0);
    assert!(matches!(game.stage, Stage::Acting { ref activation } if activation.general_ap == 1));
}

/// Lines 63–69 and 297: a living model in melee with a Terrifying enemy
/// takes a morale duel as it activates; a loss falls back, and it rallies
/// at its next activation.
#[test]
fn terror_sends_a_model_falling_back_and_it_rallies_next_time() {
    let mut game = table(3);
    let deputy = id(&game, "Lamplight Deputy");
    let widow = id(&game, "The Lantern Widow");
    in_contact(&mut game, widow, deputy);
    stack(&mut game, Seat::B, &["1R"], &[]);
    game.stage = Stage::Activating { seat: Seat::B };
    let facts = send(&mut game, Seat::B, Order::Activate { model: deputy });
    assert!(facts.contains(&Fact::FellBack { model: deputy }));
    let gap = soulstone_engine::first_edition::field::gap(
        game.model(deputy).unwrap(),
        game.model(widow).unwrap(),
    )
    .unwrap();
    assert!(gap > 5.0, "it fell back twice its Wk: {gap}");
    assert!(matches!(game.stage, Stage::Activating { seat: Seat::A }));
    game.models[usize::from(deputy.0)].activated = false;
    game.stage = Stage::Activating { seat: Seat::B };
    let facts = send(&mut game, Seat::B, Order::Activate { model: deputy });
    assert!(facts.contains(&Fact::Rallied { model: deputy }));
}

/// Line 84 and the errata: a halted (paralyzed) model's activation is
/// skipped, and the condition ends with it.
#[test]
fn a_halted_model_skips_its_activation() {
    let mut game = table(0);
    let deputy = id(&game, "Lamplight Deputy");
    game.models[usize::from(deputy.0)]
        .conditions
        .push(("paralyzed".into(), 1));
    game.stage = Stage::Activating { seat: Seat::A };
    let facts = send(&mut game, Seat::A, Order::Activate { model: deputy });
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::ConditionSet { model, value: 0, .. } if *model == deputy
    )));
    assert!(matches!(game.stage, Stage::Activating { seat: Seat::B }));
}

/// Line 86: the two general action modifiers negate each other.
#[test]
fn a_condition_cancels_its_opposite() {
    let mut game = table(0);
    let grice = id(&game, "Warden Ottoline Grice");
    let deputy = id(&game, "Lamplight Deputy");
    put(&mut game, grice, 18.0, 18.0);
    put(&mut game, deputy, 18.0, 21.0);
    game.models[usize::from(deputy.0)]
        .conditions
        .push(("slow".into(), 1));
    // Rally the Watch: Ca 6 + 13 against 10, not resisted.
    stack(&mut game, Seat::A, &["13R"], &[]);
    acting(&mut game, grice);
    let rally = u8::try_from(
        game.model(grice)
            .unwrap()
            .card
            .spells
            .iter()
            .position(|s| s.name == "Rally the Watch")
            .unwrap(),
    )
    .unwrap();
    send(
        &mut game,
        Seat::A,
        Order::Act {
            action: Action::Cast {
                spell: rally,
                target: deputy,
                channel: false,
            },
        },
    );
    let facts = pass_duel(&mut game);
    assert!(facts.contains(&Fact::ConditionSet {
        model: deputy,
        condition: "slow".into(),
        value: 0
    }));
    assert!(game.model(deputy).unwrap().conditions.is_empty());
}

/// Lines 380, 419–438: a Scrap takes two schemes at most; faction schemes
/// are their faction's; Thwart is always announced.
#[test]
fn schemes_keep_to_the_encounter_and_the_faction() {
    let game = table(0);
    let pick = |scheme, announce| SchemePick {
        scheme,
        model: None,
        announce,
    };
    let three = [
        pick(Scheme::HoldOut, false),
        pick(Scheme::Breakthrough, false),
        pick(Scheme::EyeForAnEye, false),
    ];
    assert!(
        schemes_problem(&game, Seat::A, &three)
            .unwrap()
            .contains("at most 2")
    );
    assert!(
        schemes_problem(&game, Seat::B, &[pick(Scheme::Raid, true)])
            .unwrap()
            .contains("Guild crews only")
    );
    assert_eq!(
        schemes_problem(&game, Seat::A, &[pick(Scheme::Raid, true)]),
        None
    );
    let bodyguard = SchemePick {
        scheme: Scheme::Bodyguard,
        model: Some(id(&game, "Coil Apprentice")),
        announce: true,
    };
    assert!(schemes_problem(&game, Seat::A, &[bodyguard]).is_some());
}

/// Lines 386–391: the flips' tables.
#[test]
fn strategy_and_deployment_follow_the_flip() {
    let strategies = [
        ("1R", Some(Strategy::TreasureHunt)),
        ("3R", Some(Strategy::TreasureHunt)),
        ("4R", Some(Strategy::Assassinate)),
        ("8R", Some(Strategy::Slaughter)),
        ("10R", Some(Strategy::ClaimJump)),
        ("13R", Some(Strategy::Reconnoiter)),
        ("RJ", None),
    ];
    for (flip, strategy) in strategies {
        assert_eq!(Strategy::from_flip(card(flip)), strategy, "{flip}");
    }
    assert_eq!(
        Deployment::from_flip(card("4M")),
        Some(Deployment::Diagonal)
    );
    assert_eq!(
        Deployment::from_flip(card("9M")),
        Some(Deployment::Standard)
    );
    assert_eq!(
        Deployment::from_flip(card("10M")),
        Some(Deployment::Corners)
    );
    assert_eq!(Deployment::from_flip(card("BJ")), None);
}
