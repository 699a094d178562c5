//! Terrain placed by the players (rulebook lines 128, 134–139): the pile
//! each army brings, the player after the first player placing first, the
//! 3" around everything else, four features at most, and a pass when
//! nothing left fits. Each refused order changes nothing.

use soulstone_engine::Seat;
use soulstone_engine::fairness::Bytes32;
use soulstone_engine::mage_knight::battlefield::{Feature, TerrainKind};
use soulstone_engine::mage_knight::bots::{self, Style};
use soulstone_engine::mage_knight::content::Roster;
use soulstone_engine::mage_knight::game::{Battle, Stage};
use soulstone_engine::mage_knight::placing::{self, PlaceTerrain, TerrainPiece};
use soulstone_engine::mage_knight::{self as mk, Order, Setup, Submission};

use super::mage_knight::{at, feature};
use super::mage_knight_rules::soldier;

fn piece(name: &str, kind: TerrainKind, across: u8) -> Feature {
    TerrainPiece {
        name: name.into(),
        kind,
        across,
        elevated: false,
        construction: None,
    }
    .feature()
}

fn army(name: &str, terrain: Vec<Feature>) -> mk::Army {
    mk::Army {
        name: name.into(),
        warriors: vec![soldier("Soldier"), soldier("Soldier")],
        terrain,
        domains: Vec::new(),
        items: Vec::new(),
    }
}

/// A game of two soldiers a side, with `terrain` down and these piles to place.
pub(crate) fn start(terrain: Vec<Feature>, piles: [Vec<Feature>; 2]) -> Battle {
    let [a, b] = piles;
    mk::start(Setup {
        seed: Bytes32::digest_of("placing"),
        build_total: 100,
        rounds: 4,
        armies: [army("A", a), army("B", b)],
        terrain,
    })
    .unwrap()
}

fn send(battle: &mut Battle, seat: Seat, order: Order) -> Result<(), String> {
    let submission = Submission::Player {
        seat,
        version: battle.version,
        order,
    };
    mk::execute(battle, &submission)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn refused(battle: &mut Battle, seat: Seat, order: Order, because: &str) {
    let before = battle.clone();
    let error = send(battle, seat, order).expect_err("refused");
    assert!(error.contains(because), "{error:?} should say {because:?}");
    assert_eq!(*battle, before, "a refused order changes nothing");
}

/// Entropy and the objectives, by the bots: the game then waits for the
/// terrain (or the deployment).
fn to_terrain(battle: &mut Battle) {
    for step in 0..10 {
        if !matches!(
            battle.stage,
            Stage::Contributing | Stage::PlacingObjective { .. }
        ) {
            return;
        }
        let seat = Seat::BOTH
            .into_iter()
            .find(|s| battle.waits_for(*s))
            .unwrap();
        let order = bots::order(battle, seat, Style::Greedy, step).unwrap();
        send(battle, seat, order).unwrap();
    }
}

fn place(feature: u8, x: f64, y: f64) -> Order {
    Order::PlaceTerrain(PlaceTerrain {
        feature,
        at: at(x, y),
    })
}

#[test]
fn the_player_after_the_first_places_first_and_they_alternate_up_to_four() {
    let mut battle = start(
        Vec::new(),
        [
            vec![
                piece("Wood", TerrainKind::Hindering, 4),
                piece("Rock", TerrainKind::Blocking, 2),
                piece("Pool", TerrainKind::ShallowWater, 3),
            ],
            vec![
                piece("Scrub", TerrainKind::Concealing, 3),
                piece("Ruin", TerrainKind::Blocking, 3),
                piece("Ditch", TerrainKind::Chasm, 2),
            ],
        ],
    );
    assert_eq!(battle.pile.len(), 6);
    to_terrain(&mut battle);
    let first = battle.first.unwrap();
    let second = first.other();
    assert_eq!(battle.stage, Stage::PlacingTerrain { seat: second });
    let centre = battle.objectives[0].at.v2();
    assert_eq!((centre.x, centre.y), (18.0, 18.0));

    refused(
        &mut battle,
        first,
        place(0, 10.0, 18.0),
        "decision, not yours",
    );
    for (order, because) in [
        (place(6, 10.0, 18.0), "there is no feature 7"),
        (place(0, 4.0, 18.0), "from the battlefield's edge"),
        (
            place(0, 18.0, 7.0),
            "from the far edge of Player A's deployment area",
        ),
        (place(0, 18.0, 22.0), "from objective 1"),
        (Order::PassTerrain, "still fits"),
    ] {
        refused(&mut battle, second, order, because);
    }

    // The Wood (4" across) 5" clear of the centre token's edge.
    send(&mut battle, second, place(0, 18.0 - 0.75 - 3.0 - 2.0, 18.0)).unwrap();
    assert_eq!(battle.terrain.len(), 1);
    assert_eq!(battle.terrain[0].name, "Wood");
    assert_eq!(battle.pile.len(), 5);
    assert_eq!(battle.stage, Stage::PlacingTerrain { seat: first });
    // The Rock (now the pile's first) 2.5" from the Wood's edge.
    let wood = battle.terrain[0].shape().bounding_circle().0;
    refused(
        &mut battle,
        first,
        place(0, wood.x, wood.y + 2.0 + 2.5 + 1.0),
        "from Wood",
    );

    for turn in 0..3 {
        let seat = if turn % 2 == 0 { first } else { second };
        assert_eq!(battle.stage, Stage::PlacingTerrain { seat });
        let spot = *placing::spots(&battle, 0).last().expect("room for it");
        send(
            &mut battle,
            seat,
            Order::PlaceTerrain(PlaceTerrain {
                feature: 0,
                at: spot,
            }),
        )
        .unwrap();
    }
    // Four placed: the other two stay in the pile, and deployment begins.
    assert_eq!(battle.terrain.len(), 4);
    assert_eq!(battle.placed_terrain, 4);
    assert_eq!(battle.pile.len(), 2);
    assert_eq!(battle.stage, Stage::Deploying { seat: first });
    for (i, a) in battle.terrain.iter().enumerate() {
        for b in &battle.terrain[i + 1..] {
            assert!(placing::gap(&a.shape(), &b.shape()) >= 3.0 - 0.02);
        }
    }
}

#[test]
fn a_pile_with_nothing_that_fits_is_passed_and_deployment_begins() {
    // A blocking mound 34" across in the middle leaves no room 3" from it
    // and from the edges for the smallest feature.
    let mound = feature("the Mound", TerrainKind::Blocking, 18.0, 18.0, 17.0);
    let mut battle = start(
        vec![mound],
        [vec![piece("Rock", TerrainKind::Blocking, 2)], Vec::new()],
    );
    battle.stage = Stage::PlacingTerrain { seat: Seat::B };
    battle.first = Some(Seat::A);
    battle.dice.contributions = [Some(Bytes32::default()), Some(Bytes32::default())];
    assert!(!placing::any_fits(&battle));
    refused(&mut battle, Seat::B, place(0, 4.0, 4.0), "from the Mound");
    let suggested = bots::suggestions(&battle, Seat::B, 5);
    assert_eq!(suggested, vec![Order::PassTerrain]);
    send(&mut battle, Seat::B, Order::PassTerrain).unwrap();
    assert!(battle.pile.is_empty());
    assert_eq!(battle.stage, Stage::Deploying { seat: Seat::A });
}

#[test]
fn with_no_pile_the_game_goes_straight_to_deployment() {
    let mut battle = start(Vec::new(), [Vec::new(), Vec::new()]);
    to_terrain(&mut battle);
    assert_eq!(
        battle.stage,
        Stage::Deploying {
            seat: battle.first.unwrap()
        }
    );
}

#[test]
fn an_army_brings_at_most_four_good_features() {
    let five = (0..5)
        .map(|i| piece(&format!("Rock {i}"), TerrainKind::Blocking, 2))
        .collect();
    let refused = mk::start(Setup {
        seed: Bytes32::digest_of("five"),
        build_total: 100,
        rounds: 4,
        armies: [army("A", five), army("B", Vec::new())],
        terrain: Vec::new(),
    })
    .expect_err("five features");
    assert!(refused.to_string().contains("at most 4"), "{refused}");

    let roster = Roster::load(
        [(
            "w.toml",
            "[[warriors]]\nname = \"Guard\"\nfaction = \"F\"\npoints = 20\nspeed_type = \"boot\"\ndial = [{ speed = 8, attack = 9, defense = 15, damage = 2 }]\n",
        )],
        [],
    )
    .unwrap();
    let text = "name = \"A\"\nbuild_total = 100\nwarriors = [\"Guard\"]\n\n[[terrain]]\nname = \"Big\"\nkind = \"hindering\"\nacross = 12\n";
    let error = roster.read_army("army.toml", text).expect_err("too big");
    assert_eq!(
        (error.field.as_str(), error.line),
        ("terrain[0].across", Some(8))
    );
    assert!(error.message.contains("2 to 10 inches across"), "{error}");
    let low_water = text
        .replace("across = 12", "across = 4\nelevated = true")
        .replace("hindering", "shallow_water");
    let error = roster
        .read_army("army.toml", &low_water)
        .expect_err("raised water");
    assert!(error.message.contains("can be elevated"), "{error}");
    let fine = text.replace("across = 12", "across = 4");
    let list = roster.read_army("army.toml", &fine).unwrap();
    let fielded = roster.field(&list).unwrap();
    assert_eq!(fielded.terrain.len(), 1);
}
