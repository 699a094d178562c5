//! Formations (rulebook lines 460–517), scenario by scenario: three to
//! five grouped warriors of one faction sharing one action; a movement
//! formation at its slowest member's speed, its break away rolls first,
//! ending grouped; a ranged combat formation's +2 attack or a bow's +1
//! damage under the rule of 3, each member's line of fire, and only the
//! primary attacker pushed by a critical miss. Shyft and Mage Spawn.

use soulstone_engine::Seat;
use soulstone_engine::mage_knight::combat::{Boost, RangedAttack};
use soulstone_engine::mage_knight::facts::{ActionKind, Fact, RollFor};
use soulstone_engine::mage_knight::formation::{
    Contribution, FormationMove, MAGE_SPAWN, RangedFormation, SHYFT,
};
use soulstone_engine::mage_knight::game::WarriorId;
use soulstone_engine::mage_knight::movement::MoveOrder;
use soulstone_engine::mage_knight::warrior::{SpeedType, WarriorCard};
use soulstone_engine::mage_knight::{Order, bots};
use soulstone_engine::table::Point;

use super::mage_knight::at;
use super::mage_knight_rules::{
    against, archer, card, click, next_roll, order, refused, scenario, soldier,
};

const W0: WarriorId = WarriorId(0);
const W1: WarriorId = WarriorId(1);
const W2: WarriorId = WarriorId(2);

/// Three of A's side by side in base contact at y = 10, facing up.
fn row(cards: [WarriorCard; 3]) -> Vec<(WarriorCard, Point, u16)> {
    cards
        .into_iter()
        .zip([10.0, 11.25, 12.5])
        .map(|(c, x)| (c, at(x, 10.0), 90))
        .collect()
}

/// Each listed member of the row moves `dx`, `dy` from its place in it.
fn shift(members: &[WarriorId], dx: f64, dy: f64, facing: u16) -> Order {
    Order::MoveFormation(FormationMove {
        members: members
            .iter()
            .map(|id| {
                let x = [10.0, 11.25, 12.5][usize::from(id.0)];
                MoveOrder {
                    warrior: *id,
                    path: vec![at(x + dx, 10.0 + dy)],
                    facing,
                    double_time: false,
                    captive_to: None,
                    change_level: false,
                }
            })
            .collect(),
    })
}

fn with_faction(mut card: WarriorCard, faction: &str) -> WarriorCard {
    card.faction = faction.into();
    card
}

fn far_foe() -> Vec<(WarriorCard, Point, u16)> {
    vec![(soldier("Foe"), at(30.0, 30.0), 270)]
}

#[test]
fn a_movement_formation_moves_together_at_its_slowest_speed_for_one_action() {
    let mut slow = soldier("Slow");
    for c in &mut slow.dial {
        c.speed = 4;
    }
    let mut battle = scenario(row([soldier("Left"), slow, soldier("Right")]), far_foe());
    let members = [W0, W1, W2];
    refused(&mut battle, shift(&members, 0.0, 5.0, 90), "may move 4\"");
    let facts = order(&mut battle, Seat::A, shift(&members, 0.0, 4.0, 90)).unwrap();
    assert!(facts.contains(&Fact::ActionShared {
        warriors: vec![W1, W2],
        kind: ActionKind::Move
    }));
    assert_eq!(battle.actions_left, 2, "one action for the whole formation");
    for (w, x) in battle.warriors.iter().take(3).zip([10.0, 11.25, 12.5]) {
        assert_eq!(w.at, Some(at(x, 14.0)));
        assert!(w.acted, "every member was given the action");
        assert_eq!(w.tokens, 1, "every member takes a token");
    }
}

#[test]
fn a_movement_formation_double_times_together_and_its_boot_members_are_pushed() {
    let mut rider = soldier("Rider");
    rider.speed_type = SpeedType::Horseshoe;
    let mut battle = scenario(row([soldier("Left"), rider, soldier("Right")]), far_foe());
    let double = |dy: f64| {
        let mut order = shift(&[W0, W1, W2], 0.0, dy, 90);
        if let Order::MoveFormation(f) = &mut order {
            for member in &mut f.members {
                member.double_time = true;
            }
        }
        order
    };
    refused(&mut battle, double(17.0), "may move 16\"");
    order(&mut battle, Seat::A, double(16.0)).unwrap();
    let damage: Vec<u8> = battle.warriors.iter().take(3).map(|w| w.damage).collect();
    assert_eq!(
        damage,
        vec![1, 0, 1],
        "boots are pushed, the horseshoe is not"
    );
    assert!(
        battle
            .warriors
            .iter()
            .take(3)
            .all(|w| w.at.is_some_and(|p| p.v2().y > 25.9))
    );
}

#[test]
fn a_formation_is_three_to_five_grouped_warriors_of_one_faction_and_ends_grouped() {
    let mut battle = scenario(
        row([soldier("Left"), soldier("Middle"), soldier("Right")]),
        far_foe(),
    );
    refused(
        &mut battle,
        shift(&[W0, W1], 0.0, 2.0, 90),
        "3 to 5 members",
    );
    refused(
        &mut battle,
        shift(&[W0, W1, W1], 0.0, 2.0, 90),
        "named twice",
    );
    // Moving one member away splits the formation.
    let split = Order::MoveFormation(FormationMove {
        members: vec![
            MoveOrder {
                warrior: W0,
                path: vec![at(7.0, 10.0)],
                facing: 90,
                double_time: false,
                captive_to: None,
                change_level: false,
            },
            MoveOrder {
                warrior: W1,
                path: Vec::new(),
                facing: 90,
                double_time: false,
                captive_to: None,
                change_level: false,
            },
            MoveOrder {
                warrior: W2,
                path: Vec::new(),
                facing: 90,
                double_time: false,
                captive_to: None,
                change_level: false,
            },
        ],
    });
    refused(&mut battle, split, "in one group");
    let mut hurried = shift(&[W0, W1, W2], 0.0, 2.0, 90);
    if let Order::MoveFormation(f) = &mut hurried {
        f.members[0].double_time = true;
    }
    refused(
        &mut battle,
        hurried,
        "every member uses double-time, or none",
    );

    let mut apart = scenario(
        row([soldier("Left"), soldier("Middle"), soldier("Right")]),
        far_foe(),
    );
    apart.warriors[2].at = Some(at(20.0, 10.0));
    refused(&mut apart, shift(&[W0, W1, W2], 0.0, 2.0, 90), "grouped");

    let mut mixed = scenario(
        row([
            soldier("Left"),
            soldier("Middle"),
            with_faction(soldier("Stranger"), "Others"),
        ]),
        far_foe(),
    );
    refused(
        &mut mixed,
        shift(&[W0, W1, W2], 0.0, 2.0, 90),
        "same faction",
    );
}

#[test]
fn mage_spawn_join_formations_only_beside_a_friendly_shyft() {
    let spawn = |name: &str| with_faction(soldier(name), MAGE_SPAWN);
    let mut alone = scenario(row([spawn("A"), spawn("B"), spawn("C")]), far_foe());
    refused(&mut alone, shift(&[W0, W1, W2], 0.0, 2.0, 90), "Mage Spawn");
    let mut a = row([spawn("A"), spawn("B"), spawn("C")]);
    a.push((with_faction(soldier("Shyft"), SHYFT), at(30.0, 5.0), 90));
    let mut led = scenario(a, far_foe());
    order(&mut led, Seat::A, shift(&[W0, W1, W2], 0.0, 2.0, 90)).unwrap();
    assert_eq!(led.warriors[0].at, Some(at(10.0, 12.0)));
}

#[test]
fn break_away_rolls_come_before_any_member_moves_and_a_failed_one_only_turns() {
    // A foe touches the left member's rear arc.
    let mut battle = scenario(
        row([soldier("Left"), soldier("Middle"), soldier("Right")]),
        vec![(soldier("Foe"), at(10.0, 8.75), 90)],
    );
    next_roll(&mut battle, &[2]);
    let facts = order(&mut battle, Seat::A, shift(&[W0, W1, W2], 0.0, 3.0, 80)).unwrap();
    let roll = facts
        .iter()
        .position(|f| {
            matches!(
                f,
                Fact::Rolled {
                    roll: RollFor::BreakAway { warrior: W0 },
                    ..
                }
            )
        })
        .expect("the left member rolls to break away");
    let first_move = facts
        .iter()
        .position(|f| matches!(f, Fact::Moved { .. }))
        .expect("the others move");
    assert!(roll < first_move, "every roll before any member moves");
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 10.0)), "a 2 fails");
    assert_eq!(battle.warriors[0].facing, 80, "it still turns");
    assert_eq!(battle.warriors[1].at, Some(at(11.25, 13.0)));
    assert_eq!(battle.warriors[2].at, Some(at(12.5, 13.0)));
    assert!(battle.warriors.iter().take(3).all(|w| w.tokens == 1));
}

/// A foe with a long dial, in front of the row at (11.25, 18).
fn target() -> Vec<(WarriorCard, Point, u16)> {
    let sturdy = card("Sturdy Foe", Some("sword"), vec![click(6, 9, 15, 2); 6]);
    vec![(sturdy, at(11.25, 18.0), 270)]
}

fn volley(target: WarriorId, members: &[(WarriorId, Boost)]) -> Order {
    Order::RangedFormation(RangedFormation {
        attack: RangedAttack {
            attacker: W0,
            targets: vec![target],
            point_blank: None,
            precision: false,
        },
        members: members
            .iter()
            .map(|(warrior, adds)| Contribution {
                warrior: *warrior,
                adds: *adds,
            })
            .collect(),
    })
}

#[test]
fn a_ranged_formation_adds_two_to_attack_or_a_bows_one_to_damage() {
    let mut battle = scenario(row([archer("P"), archer("Q"), archer("R")]), target());
    let foe = WarriorId(3);
    next_roll(&mut battle, &[3, 2]);
    let facts = order(
        &mut battle,
        Seat::A,
        volley(foe, &[(W1, Boost::Attack), (W2, Boost::Damage)]),
    )
    .unwrap();
    assert_eq!(against(&facts), vec![(foe, 11, 15)], "9 + 2");
    assert!(facts.contains(&Fact::Damaged {
        warrior: foe,
        amount: 3,
        harm: soulstone_engine::mage_knight::facts::Harm::Attack { by: W0 }
    }));
    assert_eq!(battle.actions_left, 2);
    assert!(
        battle
            .warriors
            .iter()
            .take(3)
            .all(|w| w.acted && w.tokens == 1)
    );
}

#[test]
fn the_rule_of_three_caps_what_a_formation_adds() {
    let mut a = row([archer("P"), archer("Q"), archer("R")]);
    a.push((archer("S"), at(13.75, 10.0), 90));
    a.push((archer("T"), at(15.0, 10.0), 90));
    let mut foe = target();
    foe[0].1 = at(12.5, 18.0);
    let mut battle = scenario(a, foe);
    let foe = WarriorId(5);
    next_roll(&mut battle, &[3, 2]);
    let all_attack: Vec<(WarriorId, Boost)> =
        (1..5).map(|i| (WarriorId(i), Boost::Attack)).collect();
    let facts = order(&mut battle, Seat::A, volley(foe, &all_attack)).unwrap();
    assert_eq!(against(&facts), vec![(foe, 12, 15)], "+8 is held to +3");
}

#[test]
fn each_member_needs_its_line_of_fire_and_only_a_bow_adds_damage() {
    let mut wand = card("Wand", Some("wand"), vec![click(7, 9, 14, 2); 3]);
    wand.range = 10;
    wand.ranged_damage = 2;
    let mut battle = scenario(row([archer("P"), archer("Q"), wand]), target());
    let foe = WarriorId(3);
    refused(
        &mut battle,
        volley(foe, &[(W1, Boost::Attack), (W2, Boost::Damage)]),
        "only a bow warrior adds to the damage",
    );
    let mut two = volley(foe, &[(W1, Boost::Attack), (W2, Boost::Attack)]);
    if let Order::RangedFormation(f) = &mut two {
        f.attack.targets.push(W1);
    }
    refused(&mut battle, two, "a single warrior");

    // A second foe's base stands across the wand's line of fire only.
    let mut foes = target();
    foes.push((soldier("Blocker"), at(12.2, 14.0), 270));
    let mut wand = card("Wand", Some("wand"), vec![click(7, 9, 14, 2); 3]);
    wand.range = 10;
    wand.ranged_damage = 2;
    let mut blocked = scenario(row([archer("P"), archer("Q"), wand]), foes);
    refused(
        &mut blocked,
        volley(foe, &[(W1, Boost::Attack), (W2, Boost::Attack)]),
        "blocks the line of fire",
    );

    // A critical miss pushes the primary attacker only.
    let mut battle = scenario(row([archer("P"), archer("Q"), archer("R")]), target());
    next_roll(&mut battle, &[1, 1]);
    order(
        &mut battle,
        Seat::A,
        volley(foe, &[(W1, Boost::Attack), (W2, Boost::Attack)]),
    )
    .unwrap();
    let damage: Vec<u8> = battle.warriors.iter().take(4).map(|w| w.damage).collect();
    assert_eq!(damage, vec![1, 0, 0, 0]);
    assert!(battle.warriors.iter().take(3).all(|w| w.tokens == 1));
}

#[test]
fn the_page_and_the_bots_offer_a_ranged_formation_when_one_is_there() {
    let battle = scenario(row([archer("P"), archer("Q"), archer("R")]), target());
    let offered = bots::suggestions(&battle, Seat::A, 200);
    let volley = offered
        .iter()
        .find_map(|o| match o {
            Order::RangedFormation(f) => Some(f),
            _ => None,
        })
        .expect("a ranged formation among the suggestions");
    assert_eq!(volley.attack.targets, vec![WarriorId(3)]);
    assert_eq!(volley.members.len(), 2);
    assert!(
        volley.members.iter().all(|m| m.adds == Boost::Damage),
        "bows add to the damage"
    );
}
