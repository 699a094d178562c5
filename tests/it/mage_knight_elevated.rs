//! Elevated terrain (rulebook lines 577–611), scenario by scenario: a
//! move ends as it climbs on, abrupt terrain only at its access points,
//! lines of fire over and around raised features, and the height
//! advantage modifier.

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::{Elevation, Feature, TerrainKind};
use soulstone_engine::mage_knight::combat::RangedAttack;
use soulstone_engine::mage_knight::game::WarriorId;
use soulstone_engine::mage_knight::movement::MoveOrder;
use soulstone_engine::mage_knight::{self as mk, Order, Setup};

use super::mage_knight::{at, feature, raised};
use super::mage_knight_rules::{
    against, archer, fresh_turn, order, refused, scenario, soldier, with_terrain,
};

fn hill(x: f64, y: f64, radius: f64) -> Feature {
    raised(
        "the Hill",
        TerrainKind::Clear,
        x,
        y,
        radius,
        Elevation::Elevated,
    )
}

fn walk(warrior: WarriorId, x: f64, y: f64) -> Order {
    Order::Move(MoveOrder {
        warrior,
        path: vec![at(x, y)],
        facing: 0,
        double_time: false,
        captive_to: None,
        change_level: false,
    })
}

fn shoot(target: WarriorId) -> Order {
    Order::RangedCombat(RangedAttack {
        attacker: WarriorId(0),
        targets: vec![target],
        point_blank: None,
        precision: false,
    })
}

#[test]
fn a_move_onto_elevated_terrain_ends_at_its_edge_and_leaves_it_freely() {
    let start = || {
        with_terrain(
            scenario(
                vec![(soldier("Climber"), at(10.0, 10.0), 0)],
                vec![(soldier("Foe"), at(30.0, 30.0), 180)],
            ),
            vec![hill(20.0, 10.0, 3.0)],
        )
    };
    let mut battle = start();
    // The hill's edge is at 17" across: 18" is a whole inch up it.
    refused(
        &mut battle,
        walk(WarriorId(0), 18.0, 10.0),
        "must stop as soon as it occupies the Hill",
    );
    order(&mut battle, Seat::A, walk(WarriorId(0), 17.1, 10.0)).unwrap();
    assert_eq!(battle.elevation_at(at(17.1, 10.0).v2()), Some(0));
    // On it, it moves as on clear terrain, and off it again.
    fresh_turn(&mut battle);
    order(&mut battle, Seat::A, walk(WarriorId(0), 22.0, 10.0)).unwrap();
    fresh_turn(&mut battle);
    order(&mut battle, Seat::A, walk(WarriorId(0), 25.0, 10.0)).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(25.0, 10.0)));
}

#[test]
fn abrupt_terrain_is_climbed_and_left_only_at_an_access_point() {
    let plateau = raised(
        "the Plateau",
        TerrainKind::Clear,
        20.0,
        10.0,
        3.0,
        Elevation::Abrupt {
            access: vec![at(17.0, 10.0)],
        },
    );
    let mut battle = with_terrain(
        scenario(
            vec![
                (soldier("Straight"), at(15.0, 10.0), 0),
                (soldier("Aside"), at(15.0, 12.0), 0),
            ],
            vec![(soldier("Foe"), at(30.0, 30.0), 180)],
        ),
        vec![plateau.clone()],
    );
    refused(
        &mut battle,
        walk(WarriorId(1), 17.9, 12.0),
        "only at an access point",
    );
    order(&mut battle, Seat::A, walk(WarriorId(0), 17.1, 10.0)).unwrap();
    // Off the far side is no way down.
    fresh_turn(&mut battle);
    battle.warriors[0].at = Some(at(20.0, 10.0));
    refused(
        &mut battle,
        walk(WarriorId(0), 24.0, 10.0),
        "may move off the Plateau",
    );
    order(&mut battle, Seat::A, walk(WarriorId(0), 15.0, 10.0)).unwrap();

    // A setup's raised features are checked when the game starts.
    let setup = |feature: Feature| Setup {
        seed: Bytes32::default(),
        build_total: 300,
        rounds: 8,
        armies: [
            mk::Army {
                name: "A".into(),
                warriors: vec![soldier("A")],
                terrain: Vec::new(),
                domains: Vec::new(),
                items: Vec::new(),
            },
            mk::Army {
                name: "B".into(),
                warriors: vec![soldier("B")],
                terrain: Vec::new(),
                domains: Vec::new(),
                items: Vec::new(),
            },
        ],
        terrain: vec![feature],
    };
    let mut stairless = plateau.clone();
    stairless.elevation = Elevation::Abrupt { access: Vec::new() };
    let error = mk::start(setup(stairless)).unwrap_err().to_string();
    assert!(error.contains("at least one access point"), "{error}");
    let floating = raised(
        "a raised pond",
        TerrainKind::ShallowWater,
        20.0,
        10.0,
        2.0,
        Elevation::Elevated,
    );
    let error = mk::start(setup(floating)).unwrap_err().to_string();
    assert!(
        error.contains("only clear, hindering and blocking"),
        "{error}"
    );
    assert!(mk::start(setup(plateau)).is_ok());
}

#[test]
fn an_elevated_feature_blocks_a_line_of_fire_between_warriors_off_it() {
    let mut battle = with_terrain(
        scenario(
            vec![(archer("Archer"), at(10.0, 10.0), 0)],
            vec![(soldier("Foe"), at(18.0, 10.0), 180)],
        ),
        vec![hill(14.0, 10.0, 1.5)],
    );
    refused(
        &mut battle,
        shoot(WarriorId(1)),
        "the Hill blocks the line of fire",
    );
}

/// Low hindering terrain across the line from (10, 10) to (22, 10).
pub(crate) fn low_wood() -> Feature {
    feature("the Wood", TerrainKind::Hindering, 16.0, 10.0, 0.8)
}

#[test]
fn a_raised_archer_shoots_over_bases_and_low_terrain_and_a_raised_target_gains_height() {
    let wood = low_wood();
    let field = |archer_on_hill: bool| {
        let mut terrain = vec![wood.clone()];
        if archer_on_hill {
            terrain.push(hill(10.0, 10.0, 2.0));
        }
        with_terrain(
            scenario(
                vec![
                    (archer("Archer"), at(10.0, 10.0), 0),
                    (soldier("Friend"), at(13.5, 10.0), 0),
                ],
                vec![(soldier("Foe"), at(18.5, 10.0), 180)],
            ),
            terrain,
        )
    };
    // From the ground, the friend's base is in the way.
    let mut low = field(false);
    refused(&mut low, shoot(WarriorId(2)), "Friend's base blocks");
    // From the hill, neither the base below nor the wood matters.
    let mut high = field(true);
    let facts = order(&mut high, Seat::A, shoot(WarriorId(2))).unwrap();
    assert_eq!(against(&facts), vec![(WarriorId(2), 9, 15)]);

    // A target on a hill, shot at from below: +1 to its defense; shot
    // at from the same hill: none.
    let perched = || {
        with_terrain(
            scenario(
                vec![(archer("Archer"), at(10.0, 10.0), 0)],
                vec![(soldier("Foe"), at(18.0, 10.0), 180)],
            ),
            vec![hill(18.0, 10.0, 2.5)],
        )
    };
    let mut below = perched();
    let facts = order(&mut below, Seat::A, shoot(WarriorId(1))).unwrap();
    assert_eq!(
        against(&facts),
        vec![(WarriorId(1), 9, 16)],
        "height advantage"
    );
    let mut level = perched();
    level.warriors[0].at = Some(at(16.0, 10.0));
    let facts = order(&mut level, Seat::A, shoot(WarriorId(1))).unwrap();
    assert_eq!(
        against(&facts),
        vec![(WarriorId(1), 9, 15)],
        "no height over an equal"
    );
}
