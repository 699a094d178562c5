//! Constructed terrain (rulebook 613–651): placing a pair in one turn,
//! attacking a feature in close and ranged combat until it is eliminated
//! within one turn, and the fortification a warrior behind one gains.
//! Every refused order is checked to change nothing.

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::{Feature, TerrainKind};
use soulstone_engine::mage_knight::combat::RangedAttack;
use soulstone_engine::mage_knight::constructed::{Construction, TerrainAttack};
use soulstone_engine::mage_knight::content::Roster;
use soulstone_engine::mage_knight::facts::{Critical, Fact, Harm};
use soulstone_engine::mage_knight::game::{Battle, Stage, WarriorId};
use soulstone_engine::mage_knight::placing::{PlaceTerrain, TerrainPiece};
use soulstone_engine::mage_knight::{self as mk, Order};

use super::mage_knight::{at, feature};
use super::mage_knight_rules::{
    against, archer, fresh_turn, next_roll, order, refused, scenario, soldier, with_terrain,
};

const W0: WarriorId = WarriorId(0);
const W1: WarriorId = WarriorId(1);
const W2: WarriorId = WarriorId(2);

fn built(mut feature: Feature, defense: u8, structure: u8, fortification: u8) -> Feature {
    feature.construction = Some(Construction {
        defense,
        structure,
        fortification,
    });
    feature
}

/// A blocking wall 2" across at (`x`, `y`): defense 14, 3 structure.
fn wall(x: f64, y: f64) -> Feature {
    built(
        feature("the Wall", TerrainKind::Blocking, x, y, 1.0),
        14,
        3,
        0,
    )
}

fn hit_terrain(attacker: WarriorId, feature: u8, ranged: bool) -> Order {
    Order::AttackTerrain(TerrainAttack {
        attacker,
        feature,
        ranged,
    })
}

fn terrain_attack(facts: &[Fact]) -> (u8, u8, u8, bool, Option<Critical>) {
    facts
        .iter()
        .find_map(|f| match f {
            Fact::TerrainAttacked {
                roll,
                attack,
                defense,
                hit,
                critical,
                ..
            } => Some((*roll, *attack, *defense, *hit, *critical)),
            _ => None,
        })
        .expect("an attack on terrain")
}

#[test]
fn close_combat_wears_a_wall_down_within_one_turn_and_eliminates_it() {
    // Two guards face the wall from below and from its lower right, their
    // fronts touching it.
    let mut battle = with_terrain(
        scenario(
            vec![
                (soldier("Guard"), at(10.0, 8.375), 90),
                (soldier("Second"), at(11.407, 9.1875), 150),
            ],
            vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        ),
        vec![wall(10.0, 10.0)],
    );
    // Facing away, or not touching: refused.
    battle.warriors[1].facing = 270;
    refused(&mut battle, hit_terrain(W1, 0, false), "front arc");
    battle.warriors[1].facing = 150;
    refused(
        &mut battle,
        hit_terrain(W2, 0, false),
        "warrior 2 is not yours",
    );
    // 5 + 9 = 14 against defense 14: a hit for 2 of its 3 points.
    next_roll(&mut battle, &[2, 3]);
    let facts = order(&mut battle, Seat::A, hit_terrain(W0, 0, false)).unwrap();
    assert_eq!(terrain_attack(&facts), (5, 9, 14, true, None));
    assert!(facts.contains(&Fact::TerrainDamaged {
        feature: 0,
        name: "the Wall".into(),
        amount: 2
    }));
    assert_eq!(battle.structure_damage(0), 2);
    assert_eq!(battle.terrain.len(), 1);
    assert_eq!(battle.warriors[0].tokens, 1);
    // The second blow of the turn takes its last point: it leaves.
    next_roll(&mut battle, &[4, 4]);
    let facts = order(&mut battle, Seat::A, hit_terrain(W1, 0, false)).unwrap();
    assert!(facts.iter().any(|f| matches!(
        f,
        Fact::TerrainEliminated { name, .. } if name == "the Wall"
    )));
    assert!(battle.terrain.is_empty());
    assert!(battle.structure_damage.is_empty());
}

#[test]
fn structural_damage_is_forgotten_when_the_turn_ends() {
    let mut battle = with_terrain(
        scenario(
            vec![(soldier("Guard"), at(10.0, 8.375), 90)],
            vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        ),
        vec![
            feature("the Rock", TerrainKind::Blocking, 5.0, 20.0, 1.0),
            wall(10.0, 10.0),
        ],
    );
    refused(
        &mut battle,
        hit_terrain(W0, 0, false),
        "the Rock is not constructed terrain",
    );
    refused(&mut battle, hit_terrain(W0, 2, false), "no feature 3");
    next_roll(&mut battle, &[3, 3]);
    order(&mut battle, Seat::A, hit_terrain(W0, 1, false)).unwrap();
    assert_eq!(battle.structure_damage(1), 2);
    order(&mut battle, Seat::A, Order::EndActions).unwrap();
    // Seat B's turn began: the wall stands whole again.
    assert_eq!(battle.stage, Stage::Acting { seat: Seat::B });
    assert_eq!(battle.structure_damage(1), 0);
    assert_eq!(battle.terrain.len(), 2);
}

#[test]
fn a_critical_miss_against_terrain_pushes_the_attacker_and_a_critical_hit_adds_one() {
    let mut battle = with_terrain(
        scenario(
            vec![(soldier("Guard"), at(10.0, 8.375), 90)],
            vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        ),
        vec![wall(10.0, 10.0)],
    );
    next_roll(&mut battle, &[1, 1]);
    let facts = order(&mut battle, Seat::A, hit_terrain(W0, 0, false)).unwrap();
    assert_eq!(terrain_attack(&facts).4, Some(Critical::Miss));
    assert!(facts.contains(&Fact::Damaged {
        warrior: W0,
        amount: 1,
        harm: Harm::Pushing
    }));
    assert_eq!(battle.structure_damage(0), 0);
    fresh_turn(&mut battle);
    // Double six: 2 damage + 1 takes the whole 3.
    next_roll(&mut battle, &[6, 6]);
    let facts = order(&mut battle, Seat::A, hit_terrain(W0, 0, false)).unwrap();
    assert_eq!(terrain_attack(&facts).4, Some(Critical::Hit));
    assert!(battle.terrain.is_empty());
}

#[test]
fn a_ranged_attack_needs_range_the_front_arc_and_a_line_of_fire_to_an_edge() {
    let mut battle = with_terrain(
        scenario(
            vec![
                (archer("Archer"), at(10.0, 2.0), 90),
                (soldier("Friend"), at(10.0, 5.0), 90),
            ],
            vec![(soldier("Foe"), at(30.0, 30.0), 270)],
        ),
        vec![wall(10.0, 10.0)],
    );
    // The friend's base stands on every line to the wall's near side.
    refused(
        &mut battle,
        hit_terrain(W0, 0, true),
        "Friend's base blocks",
    );
    battle.warriors[1].at = Some(at(20.0, 5.0));
    battle.warriors[0].facing = 270;
    refused(&mut battle, hit_terrain(W0, 0, true), "front arc");
    battle.warriors[0].facing = 90;
    battle.warriors[0].at = Some(at(10.0, 27.0));
    battle.warriors[0].facing = 270;
    refused(
        &mut battle,
        hit_terrain(W0, 0, true),
        "beyond Archer's range",
    );
    battle.warriors[0].at = Some(at(10.0, 2.0));
    battle.warriors[0].facing = 90;
    refused(
        &mut battle,
        hit_terrain(W0, 0, false),
        "front arc is not in base contact",
    );
    // 3 + 9 = 12 against 14: a miss, and the action is spent.
    next_roll(&mut battle, &[1, 2]);
    let facts = order(&mut battle, Seat::A, hit_terrain(W0, 0, true)).unwrap();
    assert_eq!(terrain_attack(&facts), (3, 9, 14, false, None));
    assert!(
        !facts
            .iter()
            .any(|f| matches!(f, Fact::TerrainDamaged { .. }))
    );
    assert_eq!(battle.warriors[0].tokens, 1);
    fresh_turn(&mut battle);
    next_roll(&mut battle, &[5, 5]);
    order(&mut battle, Seat::A, hit_terrain(W0, 0, true)).unwrap();
    assert_eq!(battle.structure_damage(0), 2, "the archer's ranged damage");
}

#[test]
fn a_warrior_behind_a_fortification_adds_it_to_its_defense_against_shots_across_it() {
    // A hindering breastwork (fortification 2) at (10, 10); the foe sits
    // against its far side.
    let breastwork = built(
        feature("the Breastwork", TerrainKind::Hindering, 10.0, 10.0, 1.0),
        13,
        2,
        2,
    );
    let mut battle = with_terrain(
        scenario(
            vec![(archer("Archer"), at(10.0, 3.0), 90)],
            vec![(soldier("Foe"), at(10.0, 11.625), 270)],
        ),
        vec![breastwork],
    );
    let shoot = |battle: &mut Battle| {
        next_roll(battle, &[3, 3]);
        let facts = order(
            battle,
            Seat::A,
            Order::RangedCombat(RangedAttack {
                attacker: W0,
                targets: vec![W1],
                point_blank: None,
                precision: false,
            }),
        )
        .unwrap();
        against(&facts)[0].2
    };
    // 15 + 1 hindered + 2 fortification.
    assert_eq!(shoot(&mut battle), 18);
    // From the side, the line misses the breastwork: no bonus.
    fresh_turn(&mut battle);
    battle.warriors[1].damage = 0;
    battle.warriors[0].at = Some(at(3.0, 11.625));
    battle.warriors[0].facing = 0;
    assert_eq!(shoot(&mut battle), 15);
}

/// Placing terrain from these piles, the first player's opponent to place.
fn start_with_piles(piles: [Vec<Feature>; 2]) -> Battle {
    let mut battle = super::mage_knight_placing::start(Vec::new(), piles);
    battle.first = Some(Seat::A);
    battle.stage = Stage::PlacingTerrain { seat: Seat::B };
    battle.dice.contributions = [Some(Bytes32::default()), Some(Bytes32::default())];
    battle
}

fn piece(name: &str, kind: TerrainKind, constructed: bool) -> Feature {
    TerrainPiece {
        name: name.into(),
        kind,
        across: 3,
        elevated: false,
        construction: constructed.then_some(Construction {
            defense: 14,
            structure: 3,
            fortification: 0,
        }),
    }
    .feature()
}

fn place(feature: u8, x: f64, y: f64) -> Order {
    Order::PlaceTerrain(PlaceTerrain {
        feature,
        at: at(x, y),
    })
}

fn send(battle: &mut Battle, seat: Seat, o: Order) -> Result<Vec<Fact>, String> {
    let submission = mk::Submission::Player {
        seat,
        version: battle.version,
        order: o,
    };
    mk::execute(battle, &submission).map_err(|e| e.to_string())
}

#[test]
fn two_constructed_pieces_go_down_in_one_turn_near_each_other_and_count_as_one() {
    let mut battle = start_with_piles([
        vec![piece("Hedge", TerrainKind::Hindering, false)],
        vec![
            piece("Barricade", TerrainKind::Blocking, true),
            piece("Sandbags", TerrainKind::Hindering, true),
            piece("Ruin", TerrainKind::Blocking, false),
        ],
    ]);
    // B places the Barricade, and may place a second constructed piece.
    send(&mut battle, Seat::B, place(1, 10.0, 14.0)).unwrap();
    assert_eq!(battle.stage, Stage::PlacingTerrain { seat: Seat::B });
    assert!(battle.second_constructed);
    assert_eq!(battle.placed_terrain, 1);
    // Not a feature that is not constructed...
    let before = battle.clone();
    let error = send(&mut battle, Seat::B, place(0, 28.0, 14.0)).unwrap_err();
    assert!(
        error.contains("Hedge is not constructed terrain"),
        "{error}"
    );
    assert_eq!(battle, before);
    // ...but the Sandbags, 1" from the Barricade.
    send(&mut battle, Seat::B, place(1, 14.0, 14.0)).unwrap();
    assert_eq!(battle.terrain.len(), 2);
    assert_eq!(battle.placed_terrain, 1, "the pair counts as one feature");
    assert!(!battle.second_constructed);
    assert_eq!(battle.stage, Stage::PlacingTerrain { seat: Seat::A });
}

#[test]
fn the_second_constructed_piece_may_be_declined() {
    let mut battle = start_with_piles([
        vec![piece("Hedge", TerrainKind::Hindering, false)],
        vec![
            piece("Barricade", TerrainKind::Blocking, true),
            piece("Sandbags", TerrainKind::Hindering, true),
        ],
    ]);
    send(&mut battle, Seat::B, place(1, 10.0, 14.0)).unwrap();
    let suggested = mk::bots::suggestions(&battle, Seat::B, 5);
    assert!(suggested.contains(&Order::PassTerrain), "{suggested:?}");
    let facts = send(&mut battle, Seat::B, Order::PassTerrain).unwrap();
    assert!(facts.contains(&Fact::SecondPieceDeclined { seat: Seat::B }));
    assert_eq!(battle.stage, Stage::PlacingTerrain { seat: Seat::A });
    // Other terrain keeps its 3" from constructed terrain.
    let error = send(&mut battle, Seat::A, place(0, 14.0, 14.0)).unwrap_err();
    assert!(error.contains("from Barricade"), "{error}");
    // The Sandbags stay in the pile for a later turn.
    assert_eq!(battle.pile.len(), 2);
}

#[test]
fn an_army_file_brings_two_constructed_pieces_at_most_and_names_a_bad_value() {
    let roster = Roster::load(
        [(
            "w.toml",
            "[[warriors]]\nname = \"Guard\"\nfaction = \"F\"\npoints = 20\nspeed_type = \"boot\"\ndial = [{ speed = 8, attack = 9, defense = 15, damage = 2 }]\n",
        )],
        [],
    )
    .unwrap();
    let piece = |name: &str, defense: u8| {
        format!(
            "\n[[terrain]]\nname = \"{name}\"\nkind = \"blocking\"\nacross = 3\n\n[terrain.construction]\ndefense = {defense}\nstructure = 3\n"
        )
    };
    let head = "name = \"A\"\nbuild_total = 100\nwarriors = [\"Guard\"]\n";
    let bad = format!("{head}{}{}", piece("Post", 14), piece("Tower", 40));
    let error = roster.read_army("army.toml", &bad).expect_err("defense 40");
    assert_eq!(error.field, "terrain[1].construction.defense");
    assert_eq!(error.line, Some(20), "{error}");
    assert!(error.message.contains("10 to 20"), "{error}");

    let three = format!(
        "{head}{}{}{}",
        piece("Post", 14),
        piece("Tower", 14),
        piece("Gate", 14)
    );
    let error = roster.read_army("army.toml", &three).expect_err("three");
    assert!(error.message.contains("at most 2 constructed"), "{error}");

    let two = format!("{head}{}{}", piece("Post", 14), piece("Tower", 15));
    let list = roster.read_army("army.toml", &two).unwrap();
    let army = roster.field(&list).unwrap();
    assert_eq!(army.terrain[1].construction.map(|c| c.defense), Some(15));
}
