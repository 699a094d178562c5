//! Soaring (rulebook lines 302–318), scenario by scenario: taking off and
//! landing at half speed, what a soaring warrior may touch and hold, and
//! lines of fire to, from and past soaring level.

use std::sync::Arc;

use soulstone_engine::Seat;
use soulstone_engine::mage_knight::Order;
use soulstone_engine::mage_knight::battlefield::{Elevation, TerrainKind};
use soulstone_engine::mage_knight::combat::{CloseAttack, RangedAttack};
use soulstone_engine::mage_knight::facts::{Fact, Placement};
use soulstone_engine::mage_knight::formation::FormationMove;
use soulstone_engine::mage_knight::game::{Objective, Stage, WarriorId};
use soulstone_engine::mage_knight::movement::MoveOrder;
use soulstone_engine::mage_knight::warrior::{SpeedType, WarriorCard};

use super::mage_knight::{at, feature, raised};
use super::mage_knight_elevated::low_wood;
use super::mage_knight_rules::{against, archer, fresh_turn, order, refused, scenario, soldier};

const W0: WarriorId = WarriorId(0);
const W1: WarriorId = WarriorId(1);
const W2: WarriorId = WarriorId(2);

fn winged(mut card: WarriorCard) -> WarriorCard {
    card.speed_type = SpeedType::Wing;
    card
}

fn fly(warrior: WarriorId, x: f64, y: f64, change_level: bool) -> Order {
    Order::Move(MoveOrder {
        warrior,
        path: vec![at(x, y)],
        facing: 90,
        double_time: false,
        captive_to: None,
        change_level,
    })
}

fn shoot(attacker: WarriorId, target: WarriorId) -> Order {
    Order::RangedCombat(RangedAttack {
        attacker,
        targets: vec![target],
        point_blank: None,
        precision: false,
    })
}

#[test]
fn a_wing_warrior_takes_off_and_lands_at_half_its_speed() {
    let mut battle = scenario(
        vec![
            (winged(soldier("Flyer")), at(10.0, 10.0), 90),
            (soldier("Walker"), at(20.0, 10.0), 90),
        ],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    refused(&mut battle, fly(W0, 10.0, 15.0, true), "may move 4\"");
    refused(
        &mut battle,
        fly(W1, 20.0, 11.0, true),
        "only a wing warrior soars",
    );
    let facts = order(&mut battle, Seat::A, fly(W0, 10.0, 14.0, true)).unwrap();
    assert!(facts.contains(&Fact::LevelChanged {
        warrior: W0,
        soaring: true
    }));
    assert!(battle.warriors[0].soaring);
    fresh_turn(&mut battle);
    order(&mut battle, Seat::A, fly(W0, 10.0, 22.0, false)).unwrap();
    assert!(battle.warriors[0].soaring, "it stays up while it moves");
    fresh_turn(&mut battle);
    refused(&mut battle, fly(W0, 10.0, 26.5, true), "may move 4\"");
    // Soaring, it may hang over a boulder; it may not land on one.
    battle.terrain = Arc::new(vec![feature(
        "the Boulder",
        TerrainKind::Blocking,
        10.0,
        30.0,
        1.5,
    )]);
    let mut over = battle.clone();
    order(&mut over, Seat::A, fly(W0, 10.0, 29.0, false)).unwrap();
    fresh_turn(&mut over);
    refused(
        &mut over,
        fly(W0, 10.0, 30.0, true),
        "cannot end its move in the Boulder",
    );
    order(&mut battle, Seat::A, fly(W0, 10.0, 26.0, true)).unwrap();
    assert!(!battle.warriors[0].soaring, "landed");
}

#[test]
fn a_soaring_warrior_holds_no_objective_and_touches_only_soaring_warriors() {
    let mut battle = scenario(
        vec![(winged(soldier("Flyer")), at(18.0, 15.0), 270)],
        vec![(soldier("Foe"), at(18.0, 13.75), 90)],
    );
    battle.warriors[0].soaring = true;
    battle.objectives.push(Objective {
        at: at(18.0, 18.0),
        controller: None,
    });
    refused(
        &mut battle,
        fly(W0, 18.0, 17.0, false),
        "cannot end in base contact with the objective",
    );
    let strike = Order::CloseCombat(CloseAttack {
        attacker: W0,
        target: W1,
        gang_up: Vec::new(),
        surge: None,
        capture: false,
    });
    refused(&mut battle, strike, "not at one level");
    assert_eq!(
        battle.opposing_in_contact(&battle.warriors[1]).count(),
        0,
        "the foe below touches no one"
    );
    // Set over the token, it still does not take it.
    battle.warriors[0].at = Some(at(18.0, 17.0));
    order(&mut battle, Seat::A, Order::EndActions).unwrap();
    assert_eq!(battle.objectives[0].controller, None);
}

#[test]
fn a_soaring_target_gains_height_and_no_base_or_terrain_stands_in_its_way() {
    let wood = low_wood();
    let field = |soaring: bool| {
        let mut battle = scenario(
            vec![
                (archer("Archer"), at(10.0, 10.0), 0),
                (soldier("Friend"), at(13.5, 10.0), 0),
            ],
            vec![(winged(soldier("Flyer")), at(18.5, 10.0), 180)],
        );
        battle.terrain = Arc::new(vec![wood.clone()]);
        battle.warriors[2].soaring = soaring;
        battle
    };
    let mut low = field(false);
    refused(&mut low, shoot(W0, W2), "Friend's base blocks");
    let mut high = field(true);
    let facts = order(&mut high, Seat::A, shoot(W0, W2)).unwrap();
    assert_eq!(
        against(&facts),
        vec![(W2, 9, 16)],
        "+1 at soaring level, no wood"
    );

    // A soaring base is in no ground line of fire's way.
    let mut under = scenario(
        vec![(archer("Archer"), at(10.0, 10.0), 0)],
        vec![
            (winged(soldier("Flyer")), at(14.0, 10.0), 180),
            (soldier("Foe"), at(18.0, 10.0), 180),
        ],
    );
    under.warriors[1].soaring = true;
    let facts = order(&mut under, Seat::A, shoot(W0, W2)).unwrap();
    assert_eq!(against(&facts), vec![(W2, 9, 15)]);

    // Shot at from soaring level, a warrior on a hill has no height
    // advantage.
    let mut perched = scenario(
        vec![(winged(archer("Hawk")), at(10.0, 10.0), 0)],
        vec![(soldier("Foe"), at(18.0, 10.0), 180)],
    );
    perched.terrain = Arc::new(vec![raised(
        "the Hill",
        TerrainKind::Clear,
        18.0,
        10.0,
        2.5,
        Elevation::Elevated,
    )]);
    perched.warriors[0].soaring = true;
    let facts = order(&mut perched, Seat::A, shoot(W0, W1)).unwrap();
    assert_eq!(against(&facts), vec![(W1, 9, 15)]);
}

#[test]
fn soaring_bases_let_ground_moves_pass_and_soaring_warriors_form_no_formation() {
    let mut battle = scenario(
        vec![
            (soldier("Walker"), at(10.0, 10.0), 90),
            (soldier("Second"), at(11.25, 10.0), 90),
            (soldier("Third"), at(12.5, 10.0), 90),
        ],
        vec![(winged(soldier("Flyer")), at(10.0, 13.0), 270)],
    );
    battle.warriors[3].soaring = true;
    refused(&mut battle, fly(W0, 10.0, 13.5, false), "would overlap");
    let mut passing = battle.clone();
    order(&mut passing, Seat::A, fly(W0, 10.0, 16.0, false)).unwrap();
    assert_eq!(passing.warriors[0].at, Some(at(10.0, 16.0)));

    battle.warriors[1].soaring = true;
    let group = Order::MoveFormation(FormationMove {
        members: [W0, W1, W2]
            .into_iter()
            .zip([10.0, 11.25, 12.5])
            .map(|(warrior, x)| MoveOrder {
                warrior,
                path: vec![at(x, 11.0)],
                facing: 90,
                double_time: false,
                captive_to: None,
                change_level: false,
            })
            .collect(),
    });
    refused(&mut battle, group, "never members of a formation");
}

#[test]
fn only_a_wing_warrior_is_deployed_at_soaring_level() {
    let deploy = |card: WarriorCard| {
        let mut battle = scenario(
            vec![(card, at(10.0, 1.5), 90)],
            vec![(soldier("Foe"), at(30.0, 34.0), 270)],
        );
        battle.warriors[0].at = None;
        battle.stage = Stage::Deploying { seat: Seat::A };
        let placed = Order::Deploy {
            placements: vec![Placement {
                warrior: W0,
                at: at(10.0, 1.5),
                facing: 90,
                soaring: true,
            }],
        };
        (battle, placed)
    };
    let (mut battle, placed) = deploy(soldier("Walker"));
    refused(
        &mut battle,
        placed,
        "only a wing warrior is deployed at soaring level",
    );
    let (mut battle, placed) = deploy(winged(soldier("Flyer")));
    order(&mut battle, Seat::A, placed).unwrap();
    assert!(battle.warriors[0].soaring);
}
