//! Mage Knight's rules one by one: two small armies on an open
//! battlefield, Seat A's action phase begun, the dice chosen by searching
//! for a seed that rolls them. Each refused order is checked to change
//! nothing.

use std::sync::Arc;

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::{Feature, TerrainKind};
use soulstone_engine::mage_knight::combat::{Boost, CloseAttack, RangedAttack};
use soulstone_engine::mage_knight::facts::{Fact, Harm};
use soulstone_engine::mage_knight::game::{Battle, EndReason, Stage, WarriorId};
use soulstone_engine::mage_knight::movement::MoveOrder;
use soulstone_engine::mage_knight::warrior::{Ability, Click, SpeedType, WarriorCard};
use soulstone_engine::mage_knight::{self as mk, MageKnight, Order, Setup, Submission};
use soulstone_engine::system::{TableGame, Tally};
use soulstone_engine::table::Point;

use super::mage_knight::{at, feature};

/// Each target's attack and defense values in an attack's facts.
pub(crate) fn against(facts: &[Fact]) -> Vec<(WarriorId, u8, u8)> {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::Attacked { against, .. } => Some(against.clone()),
            _ => None,
        })
        .expect("an attack")
}

pub(crate) fn card(name: &str, attack_type: Option<&str>, dial: Vec<Click>) -> WarriorCard {
    WarriorCard {
        name: name.into(),
        faction: "Testers".into(),
        unique: false,
        points: 20,
        speed_type: mk::warrior::SpeedType::Boot,
        attack_type: attack_type.map(|t| serde_json::from_value(serde_json::json!(t)).unwrap()),
        defense_type: Default::default(),
        damage_type: Default::default(),
        range: 0,
        targets: 1,
        ranged_damage: 0,
        attack_bonus: 0,
        item_slots: 0,
        bombardment: None,
        dial,
    }
}

pub(crate) fn click(speed: u8, attack: u8, defense: u8, damage: u8) -> Click {
    Click {
        speed,
        attack,
        defense,
        damage,
        abilities: Vec::new(),
        repair: false,
    }
}

pub(crate) fn soldier(name: &str) -> WarriorCard {
    card(
        name,
        Some("sword"),
        vec![click(8, 9, 15, 2), click(7, 8, 14, 2), click(6, 7, 13, 1)],
    )
}

pub(crate) fn archer(name: &str) -> WarriorCard {
    let mut c = card(
        name,
        Some("bow"),
        vec![click(7, 9, 14, 2), click(7, 8, 14, 2), click(6, 8, 13, 1)],
    );
    c.range = 10;
    c.ranged_damage = 2;
    c
}

/// A battle in Seat A's action phase: `a` and `b` placed where given,
/// facing as given, 3 actions to give.
pub(crate) fn scenario(
    a: Vec<(WarriorCard, Point, u16)>,
    b: Vec<(WarriorCard, Point, u16)>,
) -> Battle {
    scenario_armed(a, b, Vec::new())
}

/// [`scenario`], with `items` wielded in Seat A's army.
pub(crate) fn scenario_armed(
    a: Vec<(WarriorCard, Point, u16)>,
    b: Vec<(WarriorCard, Point, u16)>,
    items: Vec<mk::items::Wielded>,
) -> Battle {
    let setup = Setup {
        seed: Bytes32::digest_of("scenario"),
        build_total: 300,
        rounds: 8,
        armies: [
            mk::Army {
                name: "A".into(),
                warriors: a.iter().map(|(c, ..)| c.clone()).collect(),
                terrain: Vec::new(),
                domains: Vec::new(),
                items,
            },
            mk::Army {
                name: "B".into(),
                warriors: b.iter().map(|(c, ..)| c.clone()).collect(),
                terrain: Vec::new(),
                domains: Vec::new(),
                items: Vec::new(),
            },
        ],
        terrain: Vec::new(),
    };
    let mut battle = mk::start(setup).unwrap();
    for (w, (_, at, facing)) in battle.warriors.iter_mut().zip(a.iter().chain(b.iter())) {
        w.at = Some(*at);
        w.facing = *facing;
    }
    battle.stage = Stage::Acting { seat: Seat::A };
    battle.turn = 1;
    battle.first = Some(Seat::A);
    battle.actions_left = 3;
    battle.dice.contributions = [Some(Bytes32::default()), Some(Bytes32::default())];
    battle
}

/// Sets the dice's seed so that the next roll of `count` dice shows
/// `wanted`.
/// `battle` with `terrain` as its battlefield's features.
pub(crate) fn with_terrain(mut battle: Battle, terrain: Vec<Feature>) -> Battle {
    battle.terrain = std::sync::Arc::new(terrain);
    battle
}

pub(crate) fn next_roll(battle: &mut Battle, wanted: &[u8]) {
    for n in 0..100_000u32 {
        let seed = Bytes32::digest_of(&format!("roll-{n}"));
        battle.dice.seed = seed;
        if battle.dice.next(wanted.len() as u8) == wanted {
            return;
        }
    }
    panic!("no seed rolls {wanted:?}");
}

pub(crate) fn order(battle: &mut Battle, seat: Seat, order: Order) -> Result<Vec<Fact>, String> {
    let submission = Submission::Player {
        seat,
        version: battle.version,
        order,
    };
    mk::execute(battle, &submission).map_err(|e| e.to_string())
}

pub(crate) fn refused(battle: &mut Battle, o: Order, because: &str) {
    let before = battle.clone();
    let error = order(battle, Seat::A, o).expect_err("refused");
    assert!(error.contains(because), "{error:?} should say {because:?}");
    assert_eq!(*battle, before, "a refused order changes nothing");
}

const W0: WarriorId = WarriorId(0);
const W1: WarriorId = WarriorId(1);
const W2: WarriorId = WarriorId(2);

fn close(attacker: WarriorId, target: WarriorId) -> Order {
    Order::CloseCombat(CloseAttack {
        attacker,
        target,
        gang_up: Vec::new(),
        surge: None,
        capture: false,
    })
}

fn shot(attacker: WarriorId, targets: Vec<WarriorId>) -> Order {
    Order::RangedCombat(RangedAttack {
        attacker,
        targets,
        point_blank: None,
        precision: false,
    })
}

fn damage(facts: &[Fact]) -> Vec<(WarriorId, u8, Harm)> {
    facts
        .iter()
        .filter_map(|f| match f {
            Fact::Damaged {
                warrior,
                amount,
                harm,
            } => Some((*warrior, *amount, *harm)),
            _ => None,
        })
        .collect()
}

#[test]
fn close_combat_needs_the_front_arc_in_contact_and_gains_one_from_behind() {
    // A at (10,10) facing up; B touching it above, facing up too (its back
    // to A): A attacks its rear arc.
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 90)],
    );
    next_roll(&mut battle, &[3, 3]);
    let facts = order(&mut battle, Seat::A, close(W0, W1)).unwrap();
    // 6 + 9 attack + 1 from the rear = 16 against defense 15: a hit for 2.
    let attacked = facts
        .iter()
        .find_map(|f| match f {
            Fact::Attacked { against, hits, .. } => Some((against.clone(), hits.clone())),
            _ => None,
        })
        .unwrap();
    assert_eq!(attacked.0, vec![(W1, 10, 15)]);
    assert_eq!(attacked.1, vec![W1]);
    assert_eq!(damage(&facts), vec![(W1, 2, Harm::Attack { by: W0 })]);
    // The warrior cannot act again this turn.
    refused(&mut battle, close(W0, W1), "already given an action");
    // Out of its front arc, no attack.
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 270)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    refused(
        &mut battle,
        close(W0, W1),
        "front arc must be in base contact",
    );
}

#[test]
fn a_second_token_pushes_and_two_tokens_forbid_an_action() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    battle.warriors[0].tokens = 1;
    let walk = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(10.0, 15.0)],
        facing: 90,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    let facts = order(&mut battle, Seat::A, walk.clone()).unwrap();
    assert_eq!(damage(&facts), vec![(W0, 1, Harm::Pushing)]);
    assert_eq!(battle.warriors[0].tokens, 2);
    battle.warriors[0].acted = false;
    refused(&mut battle, walk, "two action tokens");
}

#[test]
fn a_move_is_limited_by_speed_bases_and_blocking_terrain() {
    let mut battle = scenario(
        vec![
            (soldier("Guard"), at(10.0, 10.0), 90),
            (soldier("Friend"), at(10.0, 13.0), 90),
        ],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    let walk = |x: f64, y: f64| {
        Order::Move(MoveOrder {
            warrior: W0,
            path: vec![at(x, y)],
            facing: 90,
            double_time: false,
            captive_to: None,
            change_level: false,
        })
    };
    refused(&mut battle, walk(10.0, 19.0), "may move 8\"");
    refused(&mut battle, walk(10.0, 16.0), "crosses Friend's base");
    refused(&mut battle, walk(11.0, 13.0), "overlap");
    battle.terrain = Arc::new(vec![feature(
        "a wall",
        TerrainKind::Blocking,
        14.0,
        10.0,
        1.0,
    )]);
    refused(&mut battle, walk(17.0, 10.0), "a wall");
    // Around it, with a bend, within 8".
    let around = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(13.0, 12.5), at(16.5, 11.0)],
        facing: 0,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    order(&mut battle, Seat::A, around).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(16.5, 11.0)));
}

#[test]
fn hindering_terrain_halves_speed_and_stops_a_warrior_entering_it() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    battle.terrain = Arc::new(vec![feature(
        "brush",
        TerrainKind::Hindering,
        10.0,
        16.0,
        3.0,
    )]);
    let through = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(10.0, 18.0)],
        facing: 90,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    refused(
        &mut battle,
        through,
        "must stop once its base is wholly in brush",
    );
    let into = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(10.0, 13.7)],
        facing: 90,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    order(&mut battle, Seat::A, into).unwrap();
    // Next turn, starting in it: half of 8.
    battle.warriors[0].acted = false;
    battle.actions_left = 2;
    let far = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(10.0, 18.5)],
        facing: 90,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    refused(&mut battle, far, "may move 4\"");
}

#[test]
fn breaking_away_fails_on_one_to_three_and_the_warrior_only_turns() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    next_roll(&mut battle, &[3]);
    let away = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(10.0, 5.0)],
        facing: 270,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    order(&mut battle, Seat::A, away.clone()).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 10.0)), "it stays");
    assert_eq!(battle.warriors[0].facing, 270, "but turns");
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    next_roll(&mut battle, &[4]);
    order(&mut battle, Seat::A, away).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 5.0)), "it breaks away");
}

#[test]
fn ending_in_contact_gives_the_opponent_a_free_spin() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 15.0), 90)],
    );
    let up = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(10.0, 13.75)],
        facing: 90,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    order(&mut battle, Seat::A, up).unwrap();
    assert_eq!(battle.warriors[1].facing, 270, "the foe turns to face it");
}

#[test]
fn critical_hits_add_damage_and_critical_misses_push_the_attacker() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    battle.warriors[1].card = Arc::new({
        let mut c = soldier("Foe");
        c.dial = vec![click(8, 9, 30, 2); 5];
        c
    });
    next_roll(&mut battle, &[6, 6]);
    let facts = order(&mut battle, Seat::A, close(W0, W1)).unwrap();
    assert_eq!(
        damage(&facts),
        vec![(W1, 3, Harm::Attack { by: W0 })],
        "defense 30 is hit anyway, for 2 + 1"
    );
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    battle.warriors[1].card = Arc::new({
        let mut c = soldier("Foe");
        c.dial = vec![click(8, 9, 0, 2); 5];
        c
    });
    next_roll(&mut battle, &[1, 1]);
    let facts = order(&mut battle, Seat::A, close(W0, W1)).unwrap();
    assert_eq!(
        damage(&facts),
        vec![(W0, 1, Harm::Pushing)],
        "defense 0 is missed, and the attacker pushed"
    );
}

#[test]
fn gang_up_adds_one_per_helper_within_the_rule_of_three() {
    let mut battle = scenario(
        vec![
            (soldier("Guard"), at(10.0, 10.0), 90),
            (soldier("Left"), at(8.95, 11.9), 328),
            (soldier("Right"), at(11.05, 11.9), 212),
            (soldier("Tired"), at(10.0, 13.7), 270),
        ],
        vec![(soldier("Foe"), at(10.0, 11.25), 0)],
    );
    battle.warriors[3].tokens = 1;
    let attack = |helpers: Vec<WarriorId>| {
        Order::CloseCombat(CloseAttack {
            attacker: W0,
            target: WarriorId(4),
            gang_up: helpers,
            surge: None,
            capture: false,
        })
    };
    refused(
        &mut battle,
        attack(vec![WarriorId(3)]),
        "has an action token",
    );
    next_roll(&mut battle, &[2, 3]);
    let facts = order(&mut battle, Seat::A, attack(vec![W1, W2])).unwrap();
    // The foe faces right (0°): A comes from its side, which is its rear
    // arc: +1, +2 from the helpers = +3 at most.
    let against = against(&facts);
    assert_eq!(against, vec![(WarriorId(4), 12, 15)]);
    assert_eq!(battle.warriors[1].tokens, 0, "helpers take no token");
    assert_eq!(battle.warriors[0].tokens, 1);
}

#[test]
fn ranged_attacks_need_range_a_clear_line_and_no_friend_in_contact() {
    let mut battle = scenario(
        vec![
            (archer("Archer"), at(10.0, 10.0), 90),
            (soldier("Friend"), at(21.25, 26.25), 90),
        ],
        vec![
            (soldier("Near"), at(10.0, 16.0), 270),
            (soldier("Far"), at(10.0, 19.5), 270),
            (soldier("Held"), at(20.0, 26.25), 270),
        ],
    );
    refused(
        &mut battle,
        shot(W0, vec![WarriorId(3)]),
        "Near's base blocks",
    );
    refused(
        &mut battle,
        shot(W0, vec![WarriorId(4)]),
        "beyond Archer's range",
    );
    refused(
        &mut battle,
        shot(W0, vec![W2, WarriorId(3)]),
        "targets 1 to 1",
    );
    battle.warriors[0].at = Some(at(20.0, 17.0));
    refused(
        &mut battle,
        shot(W0, vec![WarriorId(4)]),
        "friendly to Archer",
    );
    let precise = Order::RangedCombat(RangedAttack {
        attacker: W0,
        targets: vec![WarriorId(4)],
        point_blank: None,
        precision: true,
    });
    next_roll(&mut battle, &[4, 4]);
    let facts = order(&mut battle, Seat::A, precise).unwrap();
    let against = against(&facts);
    assert_eq!(against, vec![(WarriorId(4), 7, 15)], "precision: 9 - 2");
}

#[test]
fn point_blank_and_hindering_terrain_modify_a_shot() {
    let mut battle = scenario(
        vec![(archer("Archer"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 14.0), 90)],
    );
    battle.terrain = Arc::new(vec![feature(
        "brush",
        TerrainKind::Hindering,
        10.0,
        12.0,
        0.8,
    )]);
    let boosted = Order::RangedCombat(RangedAttack {
        attacker: W0,
        targets: vec![W1],
        point_blank: Some(Boost::Attack),
        precision: false,
    });
    next_roll(&mut battle, &[3, 3]);
    let facts = order(&mut battle, Seat::A, boosted).unwrap();
    let against = against(&facts);
    // 9 + 1 point blank + 1 its rear arc; defense 15 + 1 hindering.
    assert_eq!(against, vec![(W1, 11, 16)]);
}

#[test]
fn damage_over_several_hits_is_divided_by_its_player() {
    let mut two = archer("Twin");
    two.targets = 2;
    two.ranged_damage = 3;
    let mut battle = scenario(
        vec![(two, at(10.0, 10.0), 90)],
        vec![
            (soldier("One"), at(8.0, 16.0), 270),
            (soldier("Two"), at(12.0, 16.0), 270),
        ],
    );
    next_roll(&mut battle, &[5, 5]);
    order(&mut battle, Seat::A, shot(W0, vec![W1, W2])).unwrap();
    assert!(matches!(battle.stage, Stage::SplittingDamage { .. }));
    refused(
        &mut battle,
        Order::SplitDamage { shares: vec![1, 1] },
        "add up to the attack's 3 damage",
    );
    let facts = order(
        &mut battle,
        Seat::A,
        Order::SplitDamage { shares: vec![3, 0] },
    )
    .unwrap();
    assert_eq!(damage(&facts), vec![(W1, 3, Harm::Attack { by: W0 })]);
    assert!(battle.warriors[1].eliminated, "three clicks: eliminated");
    assert_eq!(battle.eliminated_points, [20, 0]);
    assert_eq!(
        battle.warriors[0].tokens, 1,
        "the action ends after the split"
    );
}

#[test]
fn magic_immunity_turns_wands_away_and_armour_takes_one_damage() {
    let mut wand = archer("Adept");
    wand.attack_type = Some(mk::warrior::AttackType::Wand);
    let mut golem = soldier("Golem");
    golem.defense_type = mk::warrior::DefenseType::MagicImmunity;
    let mut armoured = soldier("Armoured");
    for c in &mut armoured.dial {
        c.abilities.push(Ability::Armoured);
    }
    let mut battle = scenario(
        vec![
            (wand, at(10.0, 10.0), 90),
            (archer("Bow"), at(14.0, 10.0), 90),
        ],
        vec![
            (golem, at(10.0, 16.0), 270),
            (armoured, at(14.0, 16.0), 270),
        ],
    );
    refused(&mut battle, shot(W0, vec![W2]), "immune to magic");
    next_roll(&mut battle, &[6, 5]);
    let facts = order(&mut battle, Seat::A, shot(W1, vec![WarriorId(3)])).unwrap();
    assert_eq!(
        damage(&facts),
        vec![(WarriorId(3), 1, Harm::Attack { by: W1 })]
    );
}

#[test]
fn a_mender_heals_and_a_golem_heals_only_to_its_repair_marker() {
    let mut mender = card("Mender", None, vec![click(7, 9, 14, 1); 3]);
    for c in &mut mender.dial {
        c.abilities.push(Ability::Mender);
    }
    let mut golem = soldier("Golem");
    golem.damage_type = mk::warrior::DamageType::Golem;
    golem.dial = vec![
        click(6, 9, 15, 2),
        click(6, 9, 15, 2),
        Click {
            repair: true,
            ..click(6, 8, 14, 2)
        },
        click(5, 8, 14, 1),
        click(5, 7, 13, 1),
    ];
    let mut battle = scenario(
        vec![(mender, at(10.0, 10.0), 90), (golem, at(10.0, 11.25), 270)],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    battle.warriors[1].damage = 4;
    next_roll(&mut battle, &[4, 4]);
    order(&mut battle, Seat::A, close(W0, W1)).unwrap();
    assert_eq!(battle.warriors[1].damage, 2, "back to the repair marker");
    battle.warriors[0].acted = false;
    battle.warriors[0].tokens = 0;
    next_roll(&mut battle, &[4, 4]);
    let facts = order(&mut battle, Seat::A, close(W0, W1)).unwrap();
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::Healed { .. })),
        "no healing while it shows"
    );
    // A friend cannot be harmed.
    let mut battle2 = scenario(
        vec![
            (soldier("A"), at(10.0, 10.0), 90),
            (soldier("B"), at(10.0, 11.25), 270),
        ],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    refused(
        &mut battle2,
        close(W0, W1),
        "friendly warriors cannot target each other",
    );
}

#[test]
fn the_end_phase_takes_objectives_and_the_game_ends_with_the_last_army() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(18.0, 16.7), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    battle.objectives = vec![mk::game::Objective {
        at: at(18.0, 18.0),
        controller: None,
    }];
    order(&mut battle, Seat::A, Order::EndActions).unwrap();
    assert_eq!(battle.objectives[0].controller, Some(Seat::A));
    assert_eq!(battle.stage, Stage::Acting { seat: Seat::B });
    // Seat B's last warrior is demoralized: at the end of B's turn, B is out.
    battle.warriors[1].card = Arc::new({
        let mut c = soldier("Foe");
        for click in &mut c.dial {
            click.abilities.push(Ability::Demoralized);
        }
        c
    });
    let facts = order(&mut battle, Seat::B, Order::EndActions).unwrap();
    assert!(facts.contains(&Fact::PlayerEliminated { seat: Seat::B }));
    let outcome = battle.outcome.clone().expect("over");
    assert_eq!(outcome.winner, Some(Seat::A));
    assert_eq!(outcome.reason, EndReason::LastArmyStanding);
    assert!(matches!(
        MageKnight::score(&battle).tally,
        Tally::Objectives {
            objectives: [1, 0],
            ..
        }
    ));
}

#[test]
fn ties_go_to_points_eliminated_then_to_the_smaller_army() {
    let mut battle = scenario(
        vec![(soldier("Guard"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    battle.eliminated_points = [0, 20];
    let facts = mk::execute(
        &mut battle.clone(),
        &Submission::EndNow {
            version: battle.version,
        },
    )
    .unwrap();
    let winner = facts.iter().find_map(|f| match f {
        Fact::GameEnded { outcome } => Some(outcome.winner),
        _ => None,
    });
    assert_eq!(winner, Some(Some(Seat::B)));
    battle.eliminated_points = [0, 0];
    battle.army_points = [100, 120];
    let end = Submission::EndNow {
        version: battle.version,
    };
    let facts = mk::execute(&mut battle, &end).unwrap();
    assert!(facts.iter().any(|f| matches!(f, Fact::GameEnded { outcome } if outcome.winner == Some(Seat::A) && outcome.reason == EndReason::EndedEarly)));
}

#[test]
fn deployment_is_checked_warrior_by_warrior() {
    let mut battle = MageKnight::start(super::mage_knight::set_up(1)).unwrap();
    // The bots' entropy and objectives, up to the first deployment.
    while !matches!(battle.stage, Stage::Deploying { .. }) {
        let seat = MageKnight::waiting_for(&battle)[0];
        let o = MageKnight::bot_command(&battle, seat, soulstone_engine::bot::BotKind::Random, 1)
            .unwrap();
        order(&mut battle, seat, o).unwrap();
    }
    let Stage::Deploying { seat } = battle.stage.clone() else {
        unreachable!()
    };
    let Some(Order::Deploy { placements }) =
        MageKnight::bot_command(&battle, seat, soulstone_engine::bot::BotKind::Random, 1)
    else {
        panic!("a deployment")
    };
    let deploy = |placements: Vec<mk::facts::Placement>| Order::Deploy { placements };
    let before = battle.clone();
    let mut outside = placements.clone();
    outside[0].at = at(18.0, 18.0);
    let error = order(&mut battle, seat, deploy(outside)).unwrap_err();
    assert!(error.contains("deployment area"), "{error}");
    let mut stacked = placements.clone();
    stacked[1].at = stacked[0].at;
    let error = order(&mut battle, seat, deploy(stacked)).unwrap_err();
    assert!(error.contains("overlaps"), "{error}");
    let error = order(&mut battle, seat, deploy(placements[1..].to_vec())).unwrap_err();
    assert!(error.contains("deploy every warrior"), "{error}");
    let mut turned = placements.clone();
    turned[0].facing = 400;
    let error = order(&mut battle, seat, deploy(turned)).unwrap_err();
    assert!(error.contains("below 360"), "{error}");
    assert_eq!(battle, before, "refused deployments change nothing");
    order(&mut battle, seat, deploy(placements)).unwrap();
    assert_eq!(battle.stage, Stage::Deploying { seat: seat.other() });
}

fn with_speed(mut card: WarriorCard, speed: SpeedType) -> WarriorCard {
    card.speed_type = speed;
    card
}

fn move_to(warrior: WarriorId, x: f64, y: f64, double_time: bool) -> Order {
    Order::Move(MoveOrder {
        warrior,
        path: vec![at(x, y)],
        facing: 90,
        double_time,
        captive_to: None,
        change_level: false,
    })
}

#[test]
fn a_horseshoe_breaks_away_unless_it_rolls_a_one_and_shakes_off_those_behind() {
    // The rider faces up, one foe in front of it and one behind it.
    let setup = || {
        scenario(
            vec![(
                with_speed(soldier("Rider"), SpeedType::Horseshoe),
                at(10.0, 10.0),
                90,
            )],
            vec![
                (soldier("Front"), at(10.0, 11.25), 270),
                (soldier("Back"), at(10.0, 8.75), 90),
            ],
        )
    };
    let away = Order::Move(MoveOrder {
        warrior: W0,
        path: vec![at(14.0, 10.0)],
        facing: 0,
        double_time: false,
        captive_to: None,
        change_level: false,
    });
    // A 2 would hold a boot warrior; the rider breaks away, and only the
    // warrior outside its front arc takes shake off damage.
    let mut battle = setup();
    next_roll(&mut battle, &[2]);
    let facts = order(&mut battle, Seat::A, away.clone()).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(14.0, 10.0)));
    assert_eq!(damage(&facts), vec![(W2, 1, Harm::ShakeOff { by: W0 })]);
    // A 1 holds it, and a horseshoe that fails may not even turn.
    let mut battle = setup();
    next_roll(&mut battle, &[1]);
    let facts = order(&mut battle, Seat::A, away).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 10.0)));
    assert_eq!(battle.warriors[0].facing, 90);
    assert!(damage(&facts).is_empty());
}

#[test]
fn double_time_doubles_the_speed_and_pushes_boots_but_not_horseshoes() {
    let mut battle = scenario(
        vec![
            (soldier("Runner"), at(10.0, 5.0), 90),
            (
                with_speed(soldier("Rider"), SpeedType::Horseshoe),
                at(20.0, 5.0),
                90,
            ),
            (
                with_speed(soldier("Swimmer"), SpeedType::Wave),
                at(30.0, 5.0),
                90,
            ),
        ],
        vec![(soldier("Foe"), at(30.0, 33.0), 270)],
    );
    refused(&mut battle, move_to(W0, 10.0, 22.0, true), "may move 16\"");
    refused(
        &mut battle,
        move_to(W2, 30.0, 8.0, true),
        "only boot and horseshoe warriors use double-time",
    );
    let facts = order(&mut battle, Seat::A, move_to(W0, 10.0, 20.5, true)).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 20.5)));
    assert_eq!(damage(&facts), vec![(W0, 1, Harm::Pushing)]);
    let facts = order(&mut battle, Seat::A, move_to(W1, 20.0, 20.5, true)).unwrap();
    assert_eq!(battle.warriors[1].at, Some(at(20.0, 20.5)));
    assert!(
        damage(&facts).is_empty(),
        "a horseshoe is not pushed for it"
    );
    // Not from base contact with an opposing warrior.
    let mut battle = scenario(
        vec![(soldier("Runner"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    refused(
        &mut battle,
        move_to(W0, 10.0, 3.0, true),
        "cannot use double-time",
    );
}

#[test]
fn a_wave_warrior_treats_water_as_clear_and_defends_better_in_it() {
    let mut battle = scenario(
        vec![
            (soldier("Walker"), at(10.0, 10.0), 90),
            (
                with_speed(soldier("Swimmer"), SpeedType::Wave),
                at(20.0, 10.0),
                90,
            ),
            (soldier("Guard"), at(30.0, 11.75), 90),
        ],
        vec![(
            with_speed(soldier("Diver"), SpeedType::Wave),
            at(30.0, 13.0),
            270,
        )],
    );
    battle.terrain = Arc::new(vec![
        feature("a lake", TerrainKind::DeepWater, 10.0, 15.0, 2.5),
        feature("a ford", TerrainKind::ShallowWater, 20.0, 15.0, 2.5),
        feature("a pool", TerrainKind::ShallowWater, 30.0, 14.0, 2.0),
    ]);
    refused(&mut battle, move_to(W0, 10.0, 17.0, false), "a lake");
    battle.warriors[0].at = Some(at(20.0, 9.0));
    battle.warriors[1].at = Some(at(10.0, 9.0));
    refused(
        &mut battle,
        move_to(W0, 20.0, 16.5, false),
        "must stop once its base is wholly in a ford",
    );
    // The swimmer crosses the lake and stops in it at will.
    order(&mut battle, Seat::A, move_to(W1, 10.0, 16.5, false)).unwrap();
    assert_eq!(battle.warriors[1].at, Some(at(10.0, 16.5)));
    // The diver, in the pool, defends at 15 + 2.
    let facts = order(&mut battle, Seat::A, close(WarriorId(2), WarriorId(3))).unwrap();
    assert_eq!(against(&facts), vec![(WarriorId(3), 9, 17)]);
}

#[test]
fn a_wing_warrior_flies_over_bases_and_walls_but_lands_clear_of_them() {
    let flyer = || with_speed(soldier("Flyer"), SpeedType::Wing);
    let mut battle = scenario(
        vec![
            (flyer(), at(10.0, 10.0), 90),
            (soldier("Friend"), at(10.0, 12.0), 90),
        ],
        vec![(soldier("Foe"), at(30.0, 30.0), 270)],
    );
    battle.terrain = Arc::new(vec![feature(
        "a wall",
        TerrainKind::Blocking,
        10.0,
        15.0,
        1.0,
    )]);
    refused(
        &mut battle,
        move_to(W0, 10.0, 15.0, false),
        "cannot end its move in a wall",
    );
    refused(&mut battle, move_to(W0, 10.0, 12.3, false), "overlap");
    order(&mut battle, Seat::A, move_to(W0, 10.0, 17.5, false)).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 17.5)));
    // It fails to break away only on a 1.
    let mut battle = scenario(
        vec![(flyer(), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    next_roll(&mut battle, &[2]);
    order(&mut battle, Seat::A, move_to(W0, 10.0, 5.0, false)).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 5.0)));
}

#[test]
fn surge_moves_into_contact_pushes_the_attacker_and_then_attacks_with_its_new_click() {
    let surge_to = |x: f64, y: f64| {
        Order::CloseCombat(CloseAttack {
            attacker: W0,
            target: W1,
            gang_up: Vec::new(),
            surge: Some(mk::combat::Surge {
                path: vec![at(x, y)],
                facing: 90,
            }),
            capture: false,
        })
    };
    let mut battle = scenario(
        vec![(soldier("Charger"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 15.0), 270)],
    );
    // Ending short of contact, there is no attack.
    refused(&mut battle, surge_to(10.0, 12.0), "must be in base contact");
    let facts = order(&mut battle, Seat::A, surge_to(10.0, 13.75)).unwrap();
    assert_eq!(battle.warriors[0].at, Some(at(10.0, 13.75)));
    assert_eq!(damage(&facts)[0], (W0, 1, Harm::Pushing), "pushed first");
    // The push turned its dial to the second click: it attacks at 8, not 9.
    assert_eq!(against(&facts), vec![(W1, 8, 15)]);
    // Not from base contact with an opposing warrior.
    let mut battle = scenario(
        vec![(soldier("Charger"), at(10.0, 10.0), 90)],
        vec![(soldier("Foe"), at(10.0, 11.25), 270)],
    );
    refused(&mut battle, surge_to(10.0, 10.5), "cannot surge");
}

/// Seat A's next turn, as far as a scenario needs it: every warrior
/// without an action given or a token, three actions to give.
pub(crate) fn fresh_turn(battle: &mut Battle) {
    for w in &mut battle.warriors {
        w.acted = false;
        w.tokens = 0;
    }
    battle.actions_left = 3;
    battle.stage = Stage::Acting { seat: Seat::A };
}
