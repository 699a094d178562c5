//! Capturing (rulebook lines 392–400), scenario by scenario: a sword
//! warrior's capture at -3, the captor's limits (boot speed, the lower
//! speed, only moves or the attempt to eliminate its captive), the
//! captive's (no actions, no damage, no one's friend or foe, not able),
//! freeing, and a player left with only captives.

use soulstone_engine::Seat;
use soulstone_engine::mage_knight::combat::{CloseAttack, RangedAttack};
use soulstone_engine::mage_knight::facts::{Fact, RollFor};
use soulstone_engine::mage_knight::game::{Battle, EndReason, Objective, Stage, WarriorId};
use soulstone_engine::mage_knight::movement::MoveOrder;
use soulstone_engine::mage_knight::warrior::{SpeedType, WarriorCard};
use soulstone_engine::mage_knight::{Order, battlefield};

use super::mage_knight::at;
use super::mage_knight_rules::{
    against, archer, fresh_turn, next_roll, order, refused, scenario, soldier,
};

const CAPTOR: WarriorId = WarriorId(0);
const ARCHER: WarriorId = WarriorId(1);
const CAPTIVE: WarriorId = WarriorId(2);
const FAR_FOE: WarriorId = WarriorId(3);

fn close(attacker: WarriorId, target: WarriorId, capture: bool) -> Order {
    Order::CloseCombat(CloseAttack {
        attacker,
        target,
        gang_up: Vec::new(),
        surge: None,
        capture,
    })
}

fn walk(warrior: WarriorId, x: f64, y: f64, captive_to: Option<(f64, f64)>) -> Order {
    Order::Move(MoveOrder {
        warrior,
        path: vec![at(x, y)],
        facing: 90,
        double_time: false,
        captive_to: captive_to.map(|(x, y)| at(x, y)),
        change_level: false,
    })
}

/// A slow soldier: speed 4 on every click.
fn slow(name: &str) -> WarriorCard {
    let mut card = soldier(name);
    for click in &mut card.dial {
        click.speed = 4;
    }
    card
}

/// Seat A's captor in base contact with Seat B's slow soldier (front arc
/// to front arc), an archer of A's and a foe of B's far away.
fn face_off() -> Battle {
    scenario(
        vec![
            (soldier("Captor"), at(10.0, 10.0), 90),
            (archer("Archer"), at(20.0, 10.0), 90),
        ],
        vec![
            (slow("Slow Foe"), at(10.0, 11.25), 270),
            (soldier("Far Foe"), at(30.0, 30.0), 270),
        ],
    )
}

fn captured() -> Battle {
    let mut battle = face_off();
    next_roll(&mut battle, &[5, 4]);
    order(&mut battle, Seat::A, close(CAPTOR, CAPTIVE, true)).expect("a capture");
    fresh_turn(&mut battle);
    battle
}

#[test]
fn a_sword_warrior_captures_at_minus_three_and_its_captive_takes_no_damage() {
    let mut battle = face_off();
    battle.warriors[2].tokens = 1;
    refused(
        &mut battle,
        close(ARCHER, CAPTIVE, true),
        "only a sword warrior captures",
    );
    next_roll(&mut battle, &[5, 4]);
    let facts = order(&mut battle, Seat::A, close(CAPTOR, CAPTIVE, true)).unwrap();
    // 9 - 3 for the capture, against the front arc's defense of 15; 9 + 6.
    assert_eq!(against(&facts), vec![(CAPTIVE, 6, 15)]);
    assert!(facts.contains(&Fact::Captured {
        captor: CAPTOR,
        captive: CAPTIVE
    }));
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::Damaged { warrior, .. } if *warrior == CAPTIVE)),
        "a captive takes no damage"
    );
    let captive = &battle.warriors[2];
    assert_eq!(
        (captive.captor, captive.damage, captive.tokens),
        (Some(CAPTOR), 0, 0),
        "its action token is removed"
    );
    assert!(!captive.able(), "a captive is not able");
    assert_eq!(battle.warriors[0].captive, Some(CAPTIVE));
    assert_eq!(battle.warriors[0].speed_type(), SpeedType::Boot);

    // A miss takes no one captive.
    let mut missed = face_off();
    next_roll(&mut missed, &[1, 2]);
    let facts = order(&mut missed, Seat::A, close(CAPTOR, CAPTIVE, true)).unwrap();
    assert!(!facts.iter().any(|f| matches!(f, Fact::Captured { .. })));
    assert_eq!(missed.warriors[2].captor, None);
}

#[test]
fn a_captor_only_moves_its_captive_along_at_the_lower_speed_or_tries_to_eliminate_it() {
    let mut battle = captured();
    battle.warriors[3].at = Some(at(8.75, 10.0));
    refused(
        &mut battle,
        close(CAPTOR, FAR_FOE, false),
        "holds a captive",
    );
    let shot = Order::RangedCombat(RangedAttack {
        attacker: ARCHER,
        targets: vec![CAPTIVE],
        point_blank: None,
        precision: false,
    });
    refused(&mut battle, shot, "only its captor may target it");
    battle.warriors[3].at = Some(at(30.0, 30.0));

    // The captive is given no actions.
    let mut theirs = battle.clone();
    theirs.stage = Stage::Acting { seat: Seat::B };
    let error = order(&mut theirs, Seat::B, walk(CAPTIVE, 12.0, 12.0, None)).unwrap_err();
    assert!(error.contains("is a captive"), "{error}");

    // The lower speed value (the captive's 4), dragging the captive.
    refused(&mut battle, walk(CAPTOR, 10.0, 5.0, None), "may move 4\"");
    refused(
        &mut battle,
        walk(CAPTOR, 10.0, 7.0, Some((20.0, 20.0))),
        "must end in base contact with its captor",
    );
    let facts = order(&mut battle, Seat::A, walk(CAPTOR, 10.0, 7.0, None)).unwrap();
    assert!(
        !facts.iter().any(|f| matches!(
            f,
            Fact::Rolled {
                roll: RollFor::BreakAway { .. },
                ..
            }
        )),
        "a captive is no opponent to break away from"
    );
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 7.0)));
    assert_eq!(battle.warriors[2].at, Some(at(10.0, 8.25)));

    // Placed where its player says, still in contact.
    fresh_turn(&mut battle);
    order(
        &mut battle,
        Seat::A,
        walk(CAPTOR, 12.0, 7.0, Some((12.0, 8.25))),
    )
    .unwrap();
    assert_eq!(battle.warriors[2].at, Some(at(12.0, 8.25)));

    // No one gangs up on the attempt; a miss does nothing.
    fresh_turn(&mut battle);
    battle.warriors[1].at = Some(at(13.25, 8.25));
    battle.warriors[1].facing = 180;
    let ganging = Order::CloseCombat(CloseAttack {
        attacker: CAPTOR,
        target: CAPTIVE,
        gang_up: vec![ARCHER],
        surge: None,
        capture: false,
    });
    refused(&mut battle, ganging, "no one gangs up");
    next_roll(&mut battle, &[1, 2]);
    let facts = order(&mut battle, Seat::A, close(CAPTOR, CAPTIVE, false)).unwrap();
    assert_eq!(against(&facts), vec![(CAPTIVE, 6, 15)], "-3 to eliminate");
    assert_eq!(battle.warriors[2].damage, 0);
    assert_eq!(battle.warriors[2].captor, Some(CAPTOR));

    // A hit eliminates it, its points to the captor's player.
    fresh_turn(&mut battle);
    next_roll(&mut battle, &[5, 4]);
    let facts = order(&mut battle, Seat::A, close(CAPTOR, CAPTIVE, false)).unwrap();
    assert!(facts.contains(&Fact::Eliminated {
        warrior: CAPTIVE,
        credited: Some(Seat::A)
    }));
    assert_eq!(battle.eliminated_points, [20, 0]);
    assert_eq!(battle.warriors[0].captive, None, "no longer a captor");
    assert_eq!(battle.warriors[0].speed_type(), SpeedType::Boot);
}

#[test]
fn a_captive_is_freed_when_its_captor_is_eliminated() {
    let mut battle = captured();
    // The captor on its last click; the far foe comes into contact.
    battle.warriors[0].damage = 2;
    battle.warriors[3].at = Some(at(8.75, 10.0));
    battle.warriors[3].facing = 0;
    battle.stage = Stage::Acting { seat: Seat::B };
    next_roll(&mut battle, &[6, 5]);
    let facts = order(&mut battle, Seat::B, close(FAR_FOE, CAPTOR, false)).unwrap();
    let freed = facts
        .iter()
        .position(|f| *f == Fact::Freed { captive: CAPTIVE })
        .expect("freed");
    let gone = facts
        .iter()
        .position(|f| matches!(f, Fact::Eliminated { warrior, .. } if *warrior == CAPTOR))
        .expect("the captor eliminated");
    assert!(freed < gone);
    let freed = &battle.warriors[2];
    assert_eq!(freed.captor, None);
    assert!(freed.able(), "a freed captive is itself again");
    assert!(battlefield::in_contact(freed.center(), at(10.0, 10.0).v2()));
}

#[test]
fn a_player_left_with_only_captives_is_eliminated_and_the_game_ends() {
    let mut battle = scenario(
        vec![(soldier("Captor"), at(10.0, 10.0), 90)],
        vec![(soldier("Lone Foe"), at(10.0, 11.25), 270)],
    );
    battle.objectives.push(Objective {
        at: at(18.0, 18.0),
        controller: None,
    });
    next_roll(&mut battle, &[6, 6]);
    order(
        &mut battle,
        Seat::A,
        close(WarriorId(0), WarriorId(1), true),
    )
    .unwrap();
    let facts = order(&mut battle, Seat::A, Order::EndActions).unwrap();
    assert!(facts.contains(&Fact::Freed {
        captive: WarriorId(1)
    }));
    assert!(facts.contains(&Fact::PlayerEliminated { seat: Seat::B }));
    let outcome = battle.outcome.expect("the game ended");
    assert_eq!(outcome.reason, EndReason::LastArmyStanding);
    assert_eq!(
        (outcome.winner, outcome.objectives),
        (Some(Seat::A), [1, 0]),
        "the only player with able warriors takes every objective"
    );
    assert_eq!(battle.warriors[0].captive, None);
}
