//! The table rules: every worked example of the rulebooks' table chapters
//! as a scenario file under tests/scenarios/table, property tests of the
//! geometry, and the debug SVG.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use soulstone_engine::Edition;
use soulstone_engine::Seat;
use soulstone_engine::table::movement::{
    MoveKind, Waypoint, position_conflict, push_around, validate_move,
};
use soulstone_engine::table::scenario::TableScenario;
use soulstone_engine::table::sight::line_of_sight;
use soulstone_engine::table::{
    BaseMm, Board, Footprint, ObjectId, Piece, Point, Table, Target, Terrain, Trait, Traits,
    measure, milli,
};

fn table_scenarios() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/table");
    let mut files = Vec::new();
    for edition in ["m4e", "m3e"] {
        for entry in std::fs::read_dir(root.join(edition)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Runs every table scenario and writes its SVG next to the other test
/// artefacts, so a person can look at what the engine decided.
#[test]
fn every_table_scenario_meets_its_expectations() {
    let files = table_scenarios();
    assert!(
        files.len() >= 14,
        "expected the table examples, found {}",
        files.len()
    );
    let artefacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-artifacts/tables");
    std::fs::create_dir_all(&artefacts).unwrap();
    let mut failures = Vec::new();
    let mut checks = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let scenario =
            TableScenario::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !scenario.checks.is_empty(),
            "{}: a scenario must check something",
            path.display()
        );
        let run = scenario
            .check()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        checks += run.passed + run.failures.len();
        if !run.failures.is_empty() {
            failures.push(format!(
                "{}:\n  {}",
                path.display(),
                run.failures.join("\n  ")
            ));
        }
        let svg = scenario.svg().unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("</svg>"));
        let name = format!(
            "{}-{}.svg",
            path.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy(),
            path.file_stem().unwrap().to_string_lossy()
        );
        std::fs::write(artefacts.join(name), svg).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checks >= 100, "only {checks} checks ran");
}

/// A wrong expectation fails: the checker is not a rubber stamp.
#[test]
fn a_wrong_table_expectation_is_reported() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/table/m4e/sight-lines.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let flipped = text.replacen("expect = false", "expect = true", 1);
    let run = TableScenario::from_toml(&flipped).unwrap().check().unwrap();
    assert_eq!(run.failures.len(), 1, "{:?}", run.failures);
    assert!(
        run.failures[0].contains("line of sight"),
        "{}",
        run.failures[0]
    );
}

#[test]
fn a_bad_table_scenario_says_what_is_wrong() {
    let text = r#"
name = "bad"
edition = "m4e"
[[terrain]]
name = "Nothing"
height = 1.0
"#;
    let error = TableScenario::from_toml(text).unwrap_err().to_string();
    assert!(error.contains("exactly one of polygon"), "{error}");
    let text = r#"
name = "bad"
edition = "m4e"
[[checks]]
check = "distance"
a = "Nobody"
b = "Nobody"
inches = 1.0
"#;
    let run = TableScenario::from_toml(text).unwrap().check().unwrap();
    assert!(
        run.failures[0].contains("no object is named"),
        "{:?}",
        run.failures
    );
}

/// Cover and concealment reach the duel: cover for the damage rules,
/// concealment as a negative fate modifier.
#[test]
fn cover_and_concealment_feed_the_duel() {
    use soulstone_engine::duel::DuelSpec;
    use soulstone_engine::table::sight::attack_situation;
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/table/m4e/dense-terrain.toml");
    let scenario = TableScenario::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
    let table = scenario.table().unwrap();
    let board = Board::new(&table, Edition::Fourth);
    let (ophelia, jack) = (table.pieces[0].id, table.pieces[1].id);
    let situation = attack_situation(&board, ophelia, jack).unwrap();
    assert!(
        situation.line_of_sight && situation.cover.is_none() && situation.concealment.is_some()
    );
    let mut spec: DuelSpec = serde_json::from_value(serde_json::json!({
        "initiator": 1, "skill": 6, "resister": 2, "resist_stat": "df"
    }))
    .unwrap();
    situation.apply_to(&mut spec);
    assert_eq!(spec.modifiers, -1);
    assert!(!spec.cover);

    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/table/m4e/cover-concealment.toml");
    let scenario = TableScenario::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
    let table = scenario.table().unwrap();
    let board = Board::new(&table, Edition::Fourth);
    let (stalker, firebranded) = (table.pieces[0].id, table.pieces[1].id);
    let situation = attack_situation(&board, stalker, firebranded).unwrap();
    let mut spec: DuelSpec = serde_json::from_value(serde_json::json!({
        "initiator": 1, "skill": 6, "resister": 2, "resist_stat": "df"
    }))
    .unwrap();
    situation.apply_to(&mut spec);
    assert!(spec.cover);
    assert_eq!(spec.modifiers, 0);
}

#[test]
fn acting_in_hazardous_terrain_is_reported_once_per_name() {
    use soulstone_engine::table::measure::hazards_while_acting;
    let text = r#"
name = "acting in hazards"
edition = "m4e"
[[models]]
name = "Burning"
seat = "a"
sz = 2
at = [10.0, 10.0]
[[models]]
name = "Safe"
seat = "a"
sz = 2
at = [20.0, 20.0]
[[markers]]
name = "Pyre"
at = [10.5, 10.0]
traits = ["hazardous"]
[[markers]]
name = "Pyre"
at = [9.5, 10.0]
traits = ["hazardous"]
"#;
    let scenario = TableScenario::from_toml(text).unwrap();
    let table = scenario.table().unwrap();
    let board = Board::new(&table, Edition::Fourth);
    assert_eq!(
        hazards_while_acting(&board, ObjectId(1)).unwrap(),
        vec!["Pyre".to_string()]
    );
    assert!(
        hazards_while_acting(&board, ObjectId(2))
            .unwrap()
            .is_empty()
    );
}

/// Saved tables replay identically: what is stored is integers only.
#[test]
fn the_stored_table_has_no_floats() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/table/m4e/vertical.toml");
    let scenario = TableScenario::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
    let table = scenario.table().unwrap();
    let json = serde_json::to_value(&table).unwrap();
    fn walk(value: &serde_json::Value, floats: &mut Vec<String>) {
        match value {
            serde_json::Value::Number(n) if !n.is_i64() && !n.is_u64() => {
                floats.push(n.to_string())
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| walk(v, floats)),
            serde_json::Value::Object(map) => map.values().for_each(|v| walk(v, floats)),
            _ => {}
        }
    }
    let mut floats = Vec::new();
    walk(&json, &mut floats);
    assert!(floats.is_empty(), "floats in the stored table: {floats:?}");
    assert!(!table.terrain.is_empty() && !table.pieces.is_empty());
    let back: Table = serde_json::from_value(json).unwrap();
    assert_eq!(back, table);
}

fn piece(id: u32, seat: Seat, base: u16, sz: u8, x: f64, y: f64) -> Piece {
    Piece {
        id: ObjectId(id),
        name: format!("model {id}").into(),
        seat,
        base: BaseMm(base),
        sz,
        at: Point {
            x: milli(x),
            y: milli(y),
        },
        z: 0,
        peon: false,
        ignores_terrain: false,
        engagement: Some(1),
    }
}

fn base_size() -> impl Strategy<Value = u16> {
    prop_oneof![Just(30u16), Just(40u16), Just(50u16)]
}

fn coordinate() -> impl Strategy<Value = f64> {
    (1_000i32..35_000).prop_map(|m| f64::from(m) / 1000.0)
}

/// Symmetric terrain: square pieces, mirrored left to right around x = 18.
fn symmetric_terrain(squares: &[(f64, f64, f64, bool)]) -> Vec<Terrain> {
    let mut terrain = Vec::new();
    for (i, (x, y, size, severe)) in squares.iter().enumerate() {
        for (k, mirror_x) in [*x, 36.0 - x - size].into_iter().enumerate() {
            let corners = [
                (mirror_x, *y),
                (mirror_x + size, *y),
                (mirror_x + size, y + size),
                (mirror_x, y + size),
            ];
            let traits = if *severe {
                Traits::from(vec![Trait::Severe])
            } else {
                Traits::from(vec![Trait::Impassable, Trait::Blocking])
            };
            terrain.push(Terrain {
                id: ObjectId(100 + 2 * i as u32 + k as u32),
                name: format!("terrain {i}/{k}"),
                footprint: Footprint::Polygon {
                    points: corners
                        .iter()
                        .map(|(x, y)| Point {
                            x: milli(*x),
                            y: milli(*y),
                        })
                        .collect(),
                },
                elevation: 0,
                height: 2000,
                traits,
                hazard: None,
                parts: Vec::new(),
            });
        }
    }
    terrain
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn distance_is_symmetric_and_never_negative(
        (ba, bb) in (base_size(), base_size()),
        (xa, ya, xb, yb) in (coordinate(), coordinate(), coordinate(), coordinate()),
        (za, zb) in (0i32..4, 0i32..4),
    ) {
        let mut table = Table::default();
        let mut a = piece(1, Seat::A, ba, 2, xa, ya);
        a.z = za * 1000;
        let mut b = piece(2, Seat::B, bb, 1, xb, yb);
        b.z = zb * 1000;
        table.pieces = vec![a, b];
        for edition in [Edition::Fourth, Edition::Third] {
            let board = Board::new(&table, edition);
            let one = board.body(Target::Object(ObjectId(1))).unwrap();
            let two = board.body(Target::Object(ObjectId(2))).unwrap();
            let ab = measure::distance(edition, &one, &two);
            let ba = measure::distance(edition, &two, &one);
            prop_assert!(ab >= 0.0);
            prop_assert!((ab - ba).abs() < 1e-9, "{ab} vs {ba}");
        }
    }

    #[test]
    fn with_nothing_in_between_there_is_always_los(
        (ba, bb) in (base_size(), base_size()),
        (xa, ya, xb, yb) in (coordinate(), coordinate(), coordinate(), coordinate()),
        (sa, sb) in (0u8..4, 0u8..4),
    ) {
        let table = Table { pieces: vec![piece(1, Seat::A, ba, sa, xa, ya), piece(2, Seat::B, bb, sb, xb, yb)], ..Table::default() };
        for edition in [Edition::Fourth, Edition::Third] {
            let board = Board::new(&table, edition);
            prop_assert!(line_of_sight(&board, Target::Object(ObjectId(1)), Target::Object(ObjectId(2))).unwrap());
            prop_assert!(line_of_sight(&board, Target::Object(ObjectId(2)), Target::Object(ObjectId(1))).unwrap());
        }
    }

    #[test]
    fn moving_zero_inches_is_always_legal(
        base in base_size(),
        (x, y) in (coordinate(), coordinate()),
        squares in prop::collection::vec((2.0f64..15.0, 2.0f64..30.0, 0.5f64..3.0, any::<bool>()), 0..5),
    ) {
        let table = Table { terrain: std::sync::Arc::new(symmetric_terrain(&squares).into()), pieces: vec![piece(1, Seat::A, base, 2, x, y)], ..Table::default() };
        let board = Board::new(&table, Edition::Fourth);
        prop_assume!(position_conflict(&board, ObjectId(1)).unwrap().is_none());
        let at = table.pieces[0].at;
        for path in [vec![], vec![Waypoint { x: at.x, y: at.y, z: 0 }]] {
            let outcome = validate_move(&board, ObjectId(1), &path, MoveKind::Walk, 0.0);
            prop_assert!(outcome.is_ok(), "{outcome:?}");
            prop_assert!(outcome.unwrap().cost.abs() < 1e-9);
        }
    }

    /// On terrain mirrored left to right, a legal path mirrored and
    /// reversed is legal too, at the same cost.
    #[test]
    fn a_valid_path_reversed_is_valid_on_symmetric_terrain(
        squares in prop::collection::vec((2.0f64..15.0, 2.0f64..30.0, 0.5f64..3.0, any::<bool>()), 0..5),
        points in prop::collection::vec((coordinate(), coordinate()), 2..5),
    ) {
        let start = points[0];
        let forward = Table { terrain: std::sync::Arc::new(symmetric_terrain(&squares).into()), pieces: vec![piece(1, Seat::A, 30, 2, start.0, start.1)], ..Table::default() };
        let path: Vec<Waypoint> = points[1..].iter().map(|(x, y)| Waypoint { x: milli(*x), y: milli(*y), z: 0 }).collect();
        let board = Board::new(&forward, Edition::Fourth);
        prop_assume!(position_conflict(&board, ObjectId(1)).unwrap().is_none());
        let Ok(outcome) = validate_move(&board, ObjectId(1), &path, MoveKind::Walk, 200.0) else {
            return Ok(());
        };
        // Walk back from the end, through the mirror images of the waypoints.
        let mirror = |w: Waypoint| Waypoint { x: 36_000 - w.x, y: w.y, z: 0 };
        let end = mirror(*path.last().unwrap());
        let mut back = forward.clone();
        back.pieces[0].at = Point { x: end.x, y: end.y };
        let mut reversed: Vec<Waypoint> = path.iter().rev().skip(1).copied().map(mirror).collect();
        reversed.push(mirror(Waypoint { x: milli(start.0), y: milli(start.1), z: 0 }));
        let board = Board::new(&back, Edition::Fourth);
        let again = validate_move(&board, ObjectId(1), &reversed, MoveKind::Walk, 200.0);
        prop_assert!(again.is_ok(), "forward {outcome:?}, back {again:?}");
        prop_assert!((again.unwrap().cost - outcome.cost).abs() < 0.01);
    }

    /// A push that goes around obstacles never moves the wrong way, never
    /// goes farther than it may, and never ends anywhere illegal.
    #[test]
    fn a_push_around_obstacles_keeps_its_promises(
        squares in prop::collection::vec((2.0f64..15.0, 2.0f64..30.0, 0.5f64..3.0, any::<bool>()), 0..5),
        (x, y) in (coordinate(), coordinate()),
        (px, py) in (coordinate(), coordinate()),
        distance in 0.0f64..8.0,
        away in any::<bool>(),
    ) {
        let table = Table { terrain: std::sync::Arc::new(symmetric_terrain(&squares).into()), pieces: vec![piece(1, Seat::A, 30, 2, x, y)], ..Table::default() };
        let board = Board::new(&table, Edition::Fourth);
        prop_assume!(position_conflict(&board, ObjectId(1)).unwrap().is_none());
        let point = Point { x: milli(px), y: milli(py) };
        let path = push_around(&board, ObjectId(1), point, distance, away).unwrap();
        let reference = point.v2();
        let mut at = table.pieces[0].at.v2();
        let mut travelled = 0.0;
        for w in &path {
            let next = Point { x: w.x, y: w.y }.v2();
            let (before, after) = (at.dist(reference), next.dist(reference));
            if away {
                prop_assert!(after >= before - 0.002, "{before} -> {after}");
            } else {
                prop_assert!(after <= before + 0.002, "{before} -> {after}");
            }
            travelled += at.dist(next);
            at = next;
        }
        prop_assert!(travelled <= distance + 0.01, "{travelled} > {distance}");
        if let Some(end) = path.last() {
            let mut moved = table.clone();
            moved.pieces[0].at = Point { x: end.x, y: end.y };
            let board = Board::new(&moved, Edition::Fourth);
            let conflict = position_conflict(&board, ObjectId(1)).unwrap();
            prop_assert!(conflict.is_none(), "{conflict:?} at the end of {path:?}");
        }
    }
}
