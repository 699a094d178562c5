//! Bombardment attacks (rulebook lines 444–458), scenario by scenario:
//! placing the tokens, the roll at the start of the next turn, drifting,
//! a blocked line of fire, and a bombardier that can no longer fire.

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::Order;
use soulstone_engine::mage_knight::battlefield::TerrainKind;
use soulstone_engine::mage_knight::bombardment::{Bombard, BombardmentToken, DriftBand};
use soulstone_engine::mage_knight::dice;
use soulstone_engine::mage_knight::facts::{Fact, Harm};
use soulstone_engine::mage_knight::game::{Battle, EndReason, WarriorId};
use soulstone_engine::mage_knight::warrior::{Ability, Click, WarriorCard};
use soulstone_engine::table::Point;

use super::mage_knight::{at, feature};
use super::mage_knight_rules::{card, click, order, refused, scenario, soldier};

const W0: WarriorId = WarriorId(0);
const W1: WarriorId = WarriorId(1);
const W2: WarriorId = WarriorId(2);
const W3: WarriorId = WarriorId(3);

fn showing(mut click: Click, ability: Ability) -> Click {
    click.abilities.push(ability);
    click
}

/// Range 8 (tokens up to 16" away), attack 9, damage 2; its token lands
/// on 14, covers 1" around it and drifts 6", 4" or 2".
fn mortar() -> WarriorCard {
    let b = Ability::Bombardment;
    let mut c = card(
        "Mortar",
        None,
        vec![
            showing(click(5, 9, 14, 1), b),
            showing(click(5, 8, 14, 1), b),
            showing(click(4, 8, 13, 1), b),
            showing(click(4, 7, 12, 1), Ability::Demoralized),
        ],
    );
    c.range = 8;
    c.ranged_damage = 2;
    c.bombardment = Some(BombardmentToken {
        tokens: 1,
        landing: 14,
        radius: 1,
        attack: 8,
        damage: 2,
        drift: vec![
            DriftBand {
                up_to: 8,
                inches: 6,
            },
            DriftBand {
                up_to: 11,
                inches: 4,
            },
            DriftBand {
                up_to: 13,
                inches: 2,
            },
        ],
    });
    c
}

/// A wall across the line from (10, 10) to (10, 22).
fn wall_between() -> std::sync::Arc<Vec<soulstone_engine::mage_knight::battlefield::Feature>> {
    std::sync::Arc::new(vec![feature(
        "Wall",
        TerrainKind::Blocking,
        10.0,
        16.0,
        1.0,
    )])
}

fn bombard(x: f64, y: f64) -> Order {
    Order::Bombard(Bombard {
        attacker: W0,
        spots: vec![at(x, y)],
    })
}

/// Sets the seed so that the next rolls show `wanted`, in order.
fn next_rolls(battle: &mut Battle, wanted: &[&[u8]]) {
    let contributions = battle.dice.contributions.map(Option::unwrap_or_default);
    let first = battle.dice.rolls;
    for n in 0..2_000_000u32 {
        let seed = Bytes32::digest_of(&format!("rolls-{n}"));
        let all = wanted.iter().enumerate().all(|(i, dice)| {
            let number = first + u32::try_from(i).unwrap();
            dice::roll(&seed, number, &contributions, dice.len() as u8) == *dice
        });
        if all {
            battle.dice.seed = seed;
            return;
        }
    }
    panic!("no seed rolls {wanted:?}");
}

/// Both players end their action phases: Seat A's next turn begins, and
/// with it the bombardment falls. The facts of that last step.
fn to_next_turn(battle: &mut Battle, rolls: &[&[u8]]) -> Vec<Fact> {
    order(battle, Seat::A, Order::EndActions).unwrap();
    next_rolls(battle, rolls);
    order(battle, Seat::B, Order::EndActions).unwrap()
}

fn landed(facts: &[Fact]) -> (u8, bool, Option<(u8, u8, Point)>) {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::BombardmentLanded {
                result,
                blocked,
                drift,
                ..
            } => Some((*result, *blocked, drift.map(|d| (d.die, d.inches, d.to)))),
            _ => None,
        })
        .expect("a token's roll")
}

fn targets(facts: &[Fact]) -> Vec<(WarriorId, u8)> {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::Attacked { against, .. } => Some(
                against
                    .iter()
                    .map(|(id, attack, _)| (*id, *attack))
                    .collect(),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

fn damaged(facts: &[Fact]) -> Vec<(WarriorId, u8)> {
    facts
        .iter()
        .filter_map(|f| match f {
            Fact::Damaged {
                warrior,
                amount,
                harm: Harm::Attack { by: W0 },
            } => Some((*warrior, *amount)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_token_is_placed_within_twice_the_range_and_falls_at_the_start_of_the_next_turn() {
    let mut battle = scenario(
        vec![
            (mortar(), at(10.0, 10.0), 90),
            (soldier("Guard"), at(25.0, 10.0), 90),
        ],
        vec![
            (soldier("Near"), at(10.0, 22.0), 270),
            (soldier("Beside"), at(11.5, 22.0), 270),
            (soldier("Far"), at(30.0, 30.0), 270),
        ],
    );
    refused(
        &mut battle,
        bombard(10.0, 26.5),
        "beyond twice Mortar's range (16\")",
    );
    refused(&mut battle, bombard(10.0, 5.0), "not in Mortar's front arc");
    refused(
        &mut battle,
        Order::Bombard(Bombard {
            attacker: W0,
            spots: vec![at(10.0, 22.0), at(12.0, 22.0)],
        }),
        "places 1 to 1 bombardment tokens",
    );
    refused(
        &mut battle,
        Order::Bombard(Bombard {
            attacker: W1,
            spots: vec![at(25.0, 20.0)],
        }),
        "Guard has no bombardment tokens",
    );

    let facts = order(&mut battle, Seat::A, bombard(10.0, 22.0)).unwrap();
    assert!(facts.iter().any(|f| matches!(f, Fact::Bombarded { .. })));
    assert!(
        !facts.iter().any(|f| matches!(f, Fact::Damaged { .. })),
        "nothing falls in the action: {facts:?}"
    );
    assert_eq!(battle.bombardments.len(), 1);
    assert_eq!(battle.bombardments[0].tokens[0].heading, 90);
    assert_eq!(battle.warrior(W0).unwrap().tokens, 1);

    // 4 + 3 + attack 9 = 16 reaches the landing value 14; then 3 + 3 + 9
    // = 15 reaches each soldier's defense 15.
    let facts = to_next_turn(&mut battle, &[&[4, 3], &[3, 3]]);
    assert_eq!(landed(&facts), (16, false, None));
    assert_eq!(targets(&facts), vec![(W2, 9), (W3, 9)], "{facts:?}");
    assert_eq!(damaged(&facts), vec![(W2, 2), (W3, 2)]);
    assert!(battle.bombardments.is_empty());
    // It fell in A's command phase: A's actions are still to give.
    assert_eq!(battle.actions_left, 3);
}

#[test]
fn a_missed_token_drifts_by_its_table_toward_the_die_and_hits_friends_too() {
    let mut battle = scenario(
        vec![
            (mortar(), at(10.0, 10.0), 90),
            (soldier("Unlucky"), at(8.27, 23.0), 90),
        ],
        vec![(soldier("Aimed at"), at(10.0, 22.0), 270)],
    );
    order(&mut battle, Seat::A, bombard(10.0, 22.0)).unwrap();
    // 1 + 2 + 9 = 12 misses 14: 2" (the band up to 13) toward face 2, 60°
    // round from the arrow (which points along +y): to (8.27, 23.0). Then
    // a 12: a critical hit on the only warrior there, A's own.
    let facts = to_next_turn(&mut battle, &[&[1, 2], &[2], &[6, 6]]);
    let (result, blocked, drift) = landed(&facts);
    assert_eq!((result, blocked), (12, false));
    let (die, inches, to) = drift.expect("a drift");
    assert_eq!((die, inches), (2, 2));
    assert!(
        (to.v2().x - 8.268).abs() < 0.01 && (to.v2().y - 23.0).abs() < 0.01,
        "{to:?}"
    );
    assert_eq!(targets(&facts), vec![(W1, 9)]);
    assert_eq!(damaged(&facts), vec![(W1, 3)]);
    // Eliminating a friend credits no one.
    assert!(facts.contains(&Fact::Eliminated {
        warrior: W1,
        credited: None
    }));
    assert_eq!(battle.warrior(W2).unwrap().damage, 0);
}

#[test]
fn a_line_of_fire_blocked_when_it_falls_costs_two() {
    let mut battle = scenario(
        vec![(mortar(), at(10.0, 10.0), 90)],
        vec![(soldier("Behind the wall"), at(10.0, 22.0), 270)],
    );
    battle.terrain = wall_between();
    // The wall does not stop the tokens being placed...
    order(&mut battle, Seat::A, bombard(10.0, 22.0)).unwrap();
    // ...but 3 + 3 + 9 - 2 = 13 misses 14, and the token drifts 2" straight
    // on (face 1), off the soldier: no one is left to target.
    let facts = to_next_turn(&mut battle, &[&[3, 3], &[1]]);
    let (result, blocked, drift) = landed(&facts);
    assert_eq!((result, blocked), (13, true));
    assert_eq!(drift.map(|d| d.2), Some(at(10.0, 24.0)));
    assert!(targets(&facts).is_empty());
    assert!(battle.bombardments.is_empty());
}

#[test]
fn a_bombardier_no_longer_showing_bombardment_falls_back_on_its_token() {
    let mut battle = scenario(
        vec![
            (mortar(), at(10.0, 10.0), 90),
            (soldier("Keeps A in the game"), at(30.0, 5.0), 90),
        ],
        vec![(soldier("Target"), at(10.0, 22.0), 270)],
    );
    battle.terrain = wall_between();
    order(&mut battle, Seat::A, bombard(10.0, 22.0)).unwrap();
    order(&mut battle, Seat::A, Order::EndActions).unwrap();
    // In B's turn the mortar is knocked down to its demoralized click.
    battle.warriors[0].damage = 3;
    // The token's attack 8, and no line of fire is drawn from a warrior
    // that cannot fire: 3 + 3 + 8 = 14 lands, 4 + 3 + 8 = 15 hits.
    next_rolls(&mut battle, &[&[3, 3], &[4, 3]]);
    let facts = order(&mut battle, Seat::B, Order::EndActions).unwrap();
    assert_eq!(landed(&facts), (14, false, None));
    assert_eq!(targets(&facts), vec![(W2, 8)]);
    assert_eq!(damaged(&facts), vec![(W2, 2)]);
    refused(
        &mut battle,
        bombard(10.0, 20.0),
        "demoralized and may only be given move actions",
    );
}

#[test]
fn a_bombardment_that_leaves_one_army_standing_ends_the_game() {
    let mut battle = scenario(
        vec![(mortar(), at(10.0, 10.0), 90)],
        vec![(soldier("Last"), at(10.0, 22.0), 270)],
    );
    battle.warriors[1].damage = 2;
    order(&mut battle, Seat::A, bombard(10.0, 22.0)).unwrap();
    let facts = to_next_turn(&mut battle, &[&[4, 3], &[3, 3]]);
    assert!(facts.contains(&Fact::Eliminated {
        warrior: W1,
        credited: Some(Seat::A)
    }));
    let outcome = battle.outcome.clone().expect("the game is over");
    assert_eq!(outcome.reason, EndReason::LastArmyStanding);
    assert_eq!(outcome.winner, Some(Seat::A));
}

#[test]
fn a_card_and_its_tokens_go_together() {
    let mut without_tokens = mortar();
    without_tokens.bombardment = None;
    let problems = without_tokens.problems();
    assert!(
        problems
            .iter()
            .any(|(field, m)| field == "bombardment" && m.contains("needs its tokens")),
        "{problems:?}"
    );
    let mut gappy = mortar();
    if let Some(token) = gappy.bombardment.as_mut() {
        token.drift.pop();
    }
    let problems = gappy.problems();
    assert!(
        problems
            .iter()
            .any(|(field, m)| field == "bombardment.drift" && m.contains("every result below")),
        "{problems:?}"
    );
    assert!(mortar().problems().is_empty(), "{:?}", mortar().problems());
}
