// A benchmark may stop at the first broken assumption.
#![allow(clippy::expect_used, clippy::unwrap_used)]

//! Table rules throughput on a busy table: 20 terrain pieces and 20
//! models (the yardstick). LoS between every ordered pair of
//! models, and Walk validations of two-segment paths. Figures are in
//! docs/benchmarks.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use soulstone_engine::table::movement::{MoveKind, Waypoint, position_conflict, validate_move};
use soulstone_engine::table::sight::line_of_sight;
use soulstone_engine::table::{
    BaseMm, Board, Footprint, ObjectId, Piece, Point, Table, Target, Terrain, Trait, Traits, milli,
};
use soulstone_engine::{Edition, Seat};

/// A fixed, busy table: walls, blocks, woods and marsh, and 20 models
/// placed where they may stand.
fn busy_table() -> Table {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut table = Table::default();
    let kinds = [
        vec![Trait::Blocking, Trait::Impassable],
        vec![Trait::Blocking, Trait::Climbable],
        vec![Trait::Dense, Trait::Concealing],
        vec![Trait::Severe],
    ];
    for i in 0..20u32 {
        let (w, h) = (rng.random_range(0.5..4.0), rng.random_range(0.5..4.0));
        let (x, y) = (
            rng.random_range(1.0..(35.0 - w)),
            rng.random_range(1.0..(35.0 - h)),
        );
        let corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
        std::sync::Arc::make_mut(&mut table.terrain)
            .pieces_mut()
            .push(Terrain {
                id: ObjectId(100 + i),
                name: format!("terrain {i}"),
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
                height: milli(rng.random_range(1.0..4.0_f64).round()),
                traits: Traits::from(kinds[i as usize % kinds.len()].clone()),
                hazard: None,
                parts: Vec::new(),
            });
    }
    let mut id = 1;
    while table.pieces.len() < 20 {
        let piece = Piece {
            id: ObjectId(id),
            name: format!("model {id}").into(),
            seat: if id % 2 == 0 { Seat::A } else { Seat::B },
            base: BaseMm([30, 30, 40, 50][id as usize % 4]),
            sz: [1, 2, 2, 3][id as usize % 4],
            at: Point {
                x: milli(rng.random_range(1.0..35.0)),
                y: milli(rng.random_range(1.0..35.0)),
            },
            z: 0,
            peon: false,
            ignores_terrain: false,
            engagement: Some(1),
        };
        let mut trial = table.clone();
        trial.pieces.push(piece.clone());
        let board = Board::new(&trial, Edition::Fourth);
        if position_conflict(&board, piece.id).unwrap().is_none() {
            table.pieces.push(piece);
        }
        id += 1;
    }
    table
}

fn los(c: &mut Criterion) {
    let table = busy_table();
    let board = Board::new(&table, Edition::Fourth);
    let pairs: Vec<(ObjectId, ObjectId)> = table
        .pieces
        .iter()
        .flat_map(|a| {
            table
                .pieces
                .iter()
                .filter(move |b| b.id != a.id)
                .map(move |b| (a.id, b.id))
        })
        .collect();
    let visible = pairs
        .iter()
        .filter(|(a, b)| line_of_sight(&board, Target::Object(*a), Target::Object(*b)).unwrap())
        .count();
    println!("{} pairs, {visible} with LoS", pairs.len());
    let mut group = c.benchmark_group("table");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_function("los_all_pairs_20_models_20_terrain", |b| {
        b.iter(|| {
            for (a, t) in &pairs {
                black_box(line_of_sight(&board, Target::Object(*a), Target::Object(*t)).unwrap());
            }
        })
    });
    // The worst case: no LoS means every candidate line was tried.
    let blocked: Vec<(ObjectId, ObjectId)> = pairs
        .iter()
        .copied()
        .filter(|(a, b)| !line_of_sight(&board, Target::Object(*a), Target::Object(*b)).unwrap())
        .collect();
    group.throughput(Throughput::Elements(blocked.len() as u64));
    group.bench_function("los_blocked_pairs_only", |b| {
        b.iter(|| {
            for (a, t) in &blocked {
                black_box(line_of_sight(&board, Target::Object(*a), Target::Object(*t)).unwrap());
            }
        })
    });
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let walks: Vec<(ObjectId, Vec<Waypoint>)> = table
        .pieces
        .iter()
        .flat_map(|p| {
            let mut paths = Vec::new();
            for _ in 0..5 {
                let mut step = |from: Point| {
                    let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
                    let to_x = (f64::from(from.x) / 1000.0 + 2.5 * angle.cos()).clamp(1.0, 35.0);
                    let to_y = (f64::from(from.y) / 1000.0 + 2.5 * angle.sin()).clamp(1.0, 35.0);
                    Point {
                        x: milli(to_x),
                        y: milli(to_y),
                    }
                };
                let first = step(p.at);
                let second = step(first);
                paths.push((
                    p.id,
                    vec![
                        Waypoint {
                            x: first.x,
                            y: first.y,
                            z: 0,
                        },
                        Waypoint {
                            x: second.x,
                            y: second.y,
                            z: 0,
                        },
                    ],
                ));
            }
            paths
        })
        .collect();
    let legal = walks
        .iter()
        .filter(|(id, path)| validate_move(&board, *id, path, MoveKind::Walk, 5.0).is_ok())
        .count();
    println!("{} walks, {legal} legal", walks.len());
    group.throughput(Throughput::Elements(walks.len() as u64));
    group.bench_function("walk_validation_two_segments", |b| {
        b.iter(|| {
            for (id, path) in &walks {
                let _ = black_box(validate_move(&board, *id, path, MoveKind::Walk, 5.0));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, los);
criterion_main!(benches);
