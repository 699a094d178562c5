//! 3rd edition blast markers: where the attacker may drop them, and what
//! they touch (Area Effects: Blasts).

use super::geometry::{TOUCH, V2};
use super::{BaseMm, Board, Body, ObjectId, Point, TABLE_SIZE, Target, contact_points};

/// A blast marker's base.
pub const BASE: BaseMm = BaseMm(50);
/// A marker reaches this far above and below the target's base.
pub const REACH_UP_AND_DOWN: f64 = 1.0;
/// Bearings tried around the target or a marker when looking for spots.
const BEARINGS: u16 = 24;

/// Whether a blast marker may be dropped centred `at`: touching the target
/// (the first marker) or one of those `dropped` (the others), overlapping
/// neither, on the table.
pub fn fits(board: &Board, target: ObjectId, dropped: &[Point], at: Point) -> Result<(), String> {
    let radius = BASE.radius();
    let target = board
        .body(Target::Object(target))
        .map_err(|e| e.to_string())?;
    let off_table = |v: i32| !(0..=TABLE_SIZE).contains(&v);
    if off_table(at.x) || off_table(at.y) {
        return Err("a blast marker is dropped on the table".into());
    }
    let center = at.v2();
    let markers = dropped.iter().map(|p| (p.v2(), radius));
    let mut others = std::iter::once((target.center, target.radius)).chain(markers);
    if others.any(|(c, r)| c.dist(center) < r + radius - TOUCH) {
        return Err("a blast marker may not overlap the target or another blast marker".into());
    }
    let touches = |c: V2, r: f64| c.dist(center) <= r + radius + TOUCH;
    if dropped.is_empty() {
        if !touches(target.center, target.radius) {
            return Err("the first blast marker is dropped in base contact with the target".into());
        }
    } else if !dropped.iter().any(|p| touches(p.v2(), radius)) {
        return Err(
            "each further blast marker is dropped in base contact with an earlier one".into(),
        );
    }
    Ok(())
}

/// The models (not the target) whose bases touch or lie under a marker,
/// within the 1" a marker reaches above and below the target's base.
pub fn hits(board: &Board, target: ObjectId, dropped: &[Point]) -> Vec<ObjectId> {
    let Ok(aim) = board.body(Target::Object(target)) else {
        return Vec::new();
    };
    let radius = BASE.radius();
    let (low, high) = (aim.z - REACH_UP_AND_DOWN, aim.z + REACH_UP_AND_DOWN);
    board
        .bodies()
        .filter(|body| body.id != aim.id)
        .filter(|body| body.z <= high + TOUCH && body.z + body.size >= low - TOUCH)
        .filter(|body| {
            dropped
                .iter()
                .any(|p| p.v2().dist(body.center) <= body.radius + radius + TOUCH)
        })
        .filter_map(|body| body.id)
        .collect()
}

/// Where the next marker could go: around the target (the first) or
/// around the markers dropped, at evenly spread bearings.
pub fn spots(board: &Board, target: ObjectId, dropped: &[Point]) -> Vec<Point> {
    let Ok(aim) = board.body(Target::Object(target)) else {
        return Vec::new();
    };
    let anchors: Vec<Body> = if dropped.is_empty() {
        vec![aim]
    } else {
        dropped
            .iter()
            .map(|p| Body {
                id: None,
                center: p.v2(),
                radius: BASE.radius(),
                z: aim.z,
                size: 0.0,
                seat: None,
                peon: false,
            })
            .collect()
    };
    anchors
        .iter()
        .flat_map(|anchor| contact_points(anchor, BASE, BEARINGS).collect::<Vec<_>>())
        .filter(|at| fits(board, target, dropped, *at).is_ok())
        .collect()
}
