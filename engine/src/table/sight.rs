//! Line of sight, cover and concealment.
//!
//! A sight line runs between the edges of two bases without crossing
//! either. Which obstacles can block is decided once per query (by height
//! against both objects' sizes, enemy or not, distance to the smaller one);
//! then the search asks whether *some* segment between the two discs misses
//! them all. If one exists, one also exists that touches two of the shapes
//! involved (the two bases, blocking circles, polygon corners), so the
//! search tries exactly those common tangent lines: an exact answer up to
//! [`TOUCH`], not a sample.

use geo::{Area, BooleanOps, MultiPolygon};
use serde::Serialize;

use super::geometry::{Shape, TOUCH, V2, chord, common_tangents, geo_circle, hull_of};
use super::measure::{self, distance_to_obstacle, elevation_cover, stands_on};
use super::{Board, Body, Edition, ObjectId, Obstacle, TableError, Target, Trait};
use crate::rules::{ConcealmentException, CoverReach, HeightBlocking, StoodOnTerrain};

/// Within this of an intervening object, the smaller object's sight lines
/// through it are blocked (4th edition).
pub const BLOCKING_REACH: f64 = 2.0;
/// Cover: within this of the blocking terrain a sight line crosses.
pub const COVER_REACH: f64 = 2.0;
/// An attacker in concealing terrain ignores it when a sight line passes
/// through less than this of it.
pub const CONCEALMENT_EXCEPTION: f64 = 1.0;
/// 3rd edition shadows reach the terrain's height, at most this far.
pub const MAX_SHADOW: f64 = 3.0;

/// One obstacle a query must consider, with how it blocks.
#[derive(Debug, Clone, Copy)]
struct Blocker<'s> {
    id: Option<ObjectId>,
    shape: &'s Shape,
    /// Dense terrain blocks only lines that cross it completely.
    dense: bool,
}

/// What a LoS query found: a witness line when there is LoS, and the
/// objects that were able to block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SightReport {
    pub visible: bool,
    pub line: Option<(f64, f64, f64, f64)>,
    pub blockers: Vec<ObjectId>,
}

/// Whether `from` has LoS to `to`.
pub fn line_of_sight(board: &Board, from: Target, to: Target) -> Result<bool, TableError> {
    Ok(sight(board, from, to)?.visible)
}

pub fn sight(board: &Board, from: Target, to: Target) -> Result<SightReport, TableError> {
    let viewer = board.body(from)?;
    let target = board.body(to)?;
    if (viewer.id.is_some() && viewer.id == target.id) || measure::base_contact(&viewer, &target) {
        return Ok(SightReport {
            visible: true,
            line: None,
            blockers: Vec::new(),
        });
    }
    let shapes: Vec<Shape> = board.bodies().map(|b| b.shape()).collect();
    let blockers = blockers(board, &viewer, &target, &shapes);
    let line = find_sight_line(&viewer, &target, &blockers);
    Ok(SightReport {
        visible: line.is_some(),
        line: line.map(|(a, b)| (a.x, a.y, b.x, b.y)),
        blockers: blockers.iter().filter_map(|b| b.id).collect(),
    })
}

/// Whether an intervening object of `height` counts as at least as big as
/// `object`. A Sz 0 model is higher than terrain as tall as what it stands on.
fn reaches(height: f64, object: &Body) -> bool {
    if object.size <= 0.0 {
        height > object.z + TOUCH
    } else {
        height >= object.effective_size() - TOUCH
    }
}

/// Whether an intervening object of `height` whose footprint is `gap_to`
/// from each object blocks sight lines between them.
fn blocks(
    edition: Edition,
    height: f64,
    viewer: &Body,
    target: &Body,
    gap_to: impl Fn(&Body) -> f64,
) -> bool {
    let (v, t) = (reaches(height, viewer), reaches(height, target));
    let near_one = edition.rules().table.sight.height_blocking == HeightBlocking::BothOrTheNearOne;
    match (near_one, v, t) {
        (_, true, true) => true,
        (true, true, false) => gap_to(viewer) <= BLOCKING_REACH + TOUCH,
        (true, false, true) => gap_to(target) <= BLOCKING_REACH + TOUCH,
        _ => false,
    }
}

/// 3rd edition: blocking terrain with height casts a shadow as deep as it
/// is tall (at most 3"); a model partly in it whose Sz the terrain reaches
/// cannot see or be seen through it.
fn in_shadow_of(obstacle: &Obstacle, body: &Body) -> bool {
    let depth = (obstacle.top - obstacle.bottom).min(MAX_SHADOW);
    obstacle.has(Trait::Blocking)
        && depth > 0.0
        && distance_to_obstacle(body, obstacle) <= depth + TOUCH
        && reaches(obstacle.top, body)
}

fn blockers<'s>(
    board: &'s Board,
    viewer: &Body,
    target: &Body,
    model_shapes: &'s [Shape],
) -> Vec<Blocker<'s>> {
    let mut found = Vec::new();
    let corridor = Corridor::new(viewer, target);
    let stood_on = stood_on(board, viewer, target);
    for obstacle in board.obstacles() {
        let kind_blocks = obstacle.has(Trait::Blocking) || obstacle.has(Trait::Dense);
        if !kind_blocks || !corridor.may_meet(obstacle.bounds) {
            continue;
        }
        if ignores_what_it_stands_on(board.edition, &stood_on, viewer, target, obstacle) {
            continue;
        }
        let gap = |b: &Body| distance_to_obstacle(b, obstacle);
        let block = blocks(board.edition, obstacle.top, viewer, target, gap)
            || (board.rules().sight.shadows_block
                && (in_shadow_of(obstacle, viewer) || in_shadow_of(obstacle, target)));
        if block {
            found.push(Blocker {
                id: Some(obstacle.id),
                shape: &obstacle.shape,
                dense: obstacle.has(Trait::Dense) && !obstacle.has(Trait::Blocking),
            });
        }
    }
    for (body, shape) in board.bodies().zip(model_shapes) {
        if body.id == viewer.id
            || body.id == target.id
            || !corridor.may_meet((body.center, body.radius))
        {
            continue;
        }
        // 4th edition: only enemy models block; 3rd edition: any model.
        if !board.rules().sight.friendly_models_block
            && viewer.seat.is_some()
            && body.seat == viewer.seat
        {
            continue;
        }
        // A model standing exactly on a marker of its base size does not
        // hide it: a base covering the viewer's or target's never blocks.
        let covers = |o: &Body| body.center.dist(o.center) + o.radius <= body.radius + TOUCH;
        if covers(viewer) || covers(target) {
            continue;
        }
        let gap = |b: &Body| measure::horizontal_gap(b, &body);
        if blocks(board.edition, body.effective_size(), viewer, target, gap) {
            found.push(Blocker {
                id: body.id,
                shape,
                dense: false,
            });
        }
    }
    found
}

/// The terrain pieces either object stands on (any part of a piece).
fn stood_on(board: &Board, viewer: &Body, target: &Body) -> Vec<ObjectId> {
    // Nothing is stood on at table level, where most queries are.
    if viewer.z <= TOUCH && target.z <= TOUCH {
        return Vec::new();
    }
    board
        .obstacles()
        .filter(|o| stands_on(viewer, o) || stands_on(target, o))
        .map(|o| o.id)
        .collect()
}

/// Terrain either object stands on (any part of the piece: `stood_on`) does not block
/// their sight lines (4th edition). In 3rd edition it (and its shadow) is
/// ignored only when some sight line between them crosses 1" of it or less.
fn ignores_what_it_stands_on(
    edition: Edition,
    stood_on: &[ObjectId],
    viewer: &Body,
    target: &Body,
    obstacle: &Obstacle,
) -> bool {
    if !stood_on.contains(&obstacle.id) {
        return false;
    }
    match edition.rules().table.sight.stood_on {
        StoodOnTerrain::Ignored => true,
        StoodOnTerrain::IgnoredWhenThin => {
            shortest_passage(viewer, target, &obstacle.shape) <= CONCEALMENT_EXCEPTION + TOUCH
        }
    }
}

/// A quick bound on the region sight lines between two bases can reach.
struct Corridor {
    a: V2,
    b: V2,
    reach: f64,
}

impl Corridor {
    fn new(viewer: &Body, target: &Body) -> Self {
        Corridor {
            a: viewer.center,
            b: target.center,
            reach: viewer.radius.max(target.radius),
        }
    }
    fn may_meet(&self, (center, radius): (V2, f64)) -> bool {
        super::geometry::distance_to_segment(center, self.a, self.b) < radius + self.reach
    }
}

fn unblocked(a: V2, b: V2, blockers: &[Blocker]) -> bool {
    blockers.iter().all(|blocker| {
        if blocker.dense {
            // Seeing into or out of dense terrain is fine, through it is not.
            return !blocker.shape.crossed_by(a, b)
                || blocker.shape.signed_distance(a) <= TOUCH
                || blocker.shape.signed_distance(b) <= TOUCH;
        }
        !blocker.shape.touched_by(a, b)
    })
}

/// The segment of a line (normal `n`, offset) between the two discs, if the
/// line meets both without passing through either on the way.
fn segment_between(n: V2, offset: f64, viewer: &Body, target: &Body) -> Option<(V2, V2)> {
    let direction = V2::new(-n.y, n.x);
    let origin = n.scale(offset);
    let (a0, a1) = chord(origin, direction, viewer.center, viewer.radius)?;
    let (b0, b1) = chord(origin, direction, target.center, target.radius)?;
    let at = |t: f64| origin.plus(direction.scale(t));
    if a1 <= b0 + TOUCH {
        Some((at(a1), at(b0.max(a1))))
    } else if b1 <= a0 + TOUCH {
        Some((at(a0), at(b1.min(a0))))
    } else {
        None
    }
}

/// How far outside a blocker the tangent search passes: past the
/// [`TOUCH`] that counts as touching it.
const CLEARANCE: f64 = 2.0 * TOUCH;

/// A circle or a point the tangent search pivots on.
#[derive(Debug, Clone, Copy)]
struct Pivot {
    center: V2,
    radius: f64,
}

fn find_sight_line(viewer: &Body, target: &Body, blockers: &[Blocker]) -> Option<(V2, V2)> {
    // The straight line between the centres settles most queries.
    let axis = target.center.minus(viewer.center).unit();
    let n = V2::new(-axis.y, axis.x);
    if let Some((a, b)) = segment_between(n, n.dot(viewer.center), viewer, target)
        && unblocked(a, b, blockers)
    {
        return Some((a, b));
    }
    if blockers.is_empty() {
        return None;
    }
    let mut pivots = vec![
        Pivot {
            center: viewer.center,
            radius: viewer.radius,
        },
        Pivot {
            center: target.center,
            radius: target.radius,
        },
    ];
    for blocker in blockers {
        match blocker.shape {
            // Blockers are closed (touching one blocks), so the search
            // pivots just outside them.
            Shape::Circle { center, radius } => pivots.push(Pivot {
                center: *center,
                radius: radius + CLEARANCE,
            }),
            Shape::Polygon { points } => {
                pivots.extend(points.iter().map(|p| Pivot {
                    center: *p,
                    radius: CLEARANCE,
                }));
                if blocker.dense {
                    // Lines that start exactly where a base leaves dense terrain.
                    for body in [viewer, target] {
                        pivots.extend(
                            circle_polygon_crossings(body.center, body.radius, points).map(|p| {
                                Pivot {
                                    center: p,
                                    radius: 0.0,
                                }
                            }),
                        );
                    }
                }
            }
        }
    }
    let mut lines = Vec::with_capacity(4);
    for i in 0..pivots.len() {
        for j in (i + 1)..pivots.len() {
            lines.clear();
            common_tangents(
                pivots[i].center,
                pivots[i].radius,
                pivots[j].center,
                pivots[j].radius,
                &mut lines,
            );
            for (n, offset) in &lines {
                if let Some((a, b)) = segment_between(*n, *offset, viewer, target)
                    && unblocked(a, b, blockers)
                {
                    return Some((a, b));
                }
            }
        }
    }
    None
}

fn circle_polygon_crossings(
    center: V2,
    radius: f64,
    points: &[V2],
) -> impl Iterator<Item = V2> + '_ {
    super::geometry::polygon_edges(points).flat_map(move |(p, q)| {
        super::geometry::line_circle(p, q, center, radius)
            .map(|(t0, t1)| [t0, t1])
            .into_iter()
            .flatten()
            .filter(|t| (0.0..=1.0).contains(t))
            .map(move |t| p.lerp(q, t))
    })
}

/// Whether some sight line between the two bases passes through `shape`:
/// the shape meets the hull of the two bases outside the bases themselves.
pub fn some_sight_line_crosses(viewer: &Body, target: &Body, shape: &Shape) -> bool {
    // The hull lies within the larger radius of the segment between the
    // centres: a shape whose bounding circle stays farther off is never
    // crossed, and the polygon operations below are spared.
    let (around, reach) = shape.bounding_circle();
    let from_line =
        super::geometry::distance_to_segment(around, viewer.center, target.center) - reach;
    if from_line > viewer.radius.max(target.radius) + TOUCH {
        return false;
    }
    let hull = MultiPolygon::new(vec![hull_of(&[viewer.shape(), target.shape()])]);
    let piece = MultiPolygon::new(vec![shape.to_geo()]);
    let mut between = hull.intersection(&piece);
    for body in [viewer, target] {
        if body.radius > 0.0 {
            between = between.difference(&MultiPolygon::new(vec![geo_circle(
                body.center,
                body.radius,
            )]));
        }
    }
    between.unsigned_area() > TOUCH * TOUCH
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "from", content = "terrain")]
pub enum Cover {
    /// The target is 2" or more above the attacker (4th edition).
    Elevation,
    /// Blocking terrain near the target that a sight line crosses.
    Terrain(ObjectId),
}

/// Whether the target of an attack from `attacker` has cover, and why.
pub fn cover(board: &Board, attacker: Target, target: Target) -> Result<Option<Cover>, TableError> {
    let from = board.body(attacker)?;
    let to = board.body(target)?;
    if board.rules().sight.elevation_cover && elevation_cover(&from, &to) {
        return Ok(Some(Cover::Elevation));
    }
    let stood_on = stood_on(board, &from, &to);
    for obstacle in board.obstacles().filter(|o| o.has(Trait::Blocking)) {
        if ignores_what_it_stands_on(board.edition, &stood_on, &from, &to, obstacle) {
            continue;
        }
        let near = match board.rules().sight.cover_reach {
            CoverReach::Inch => distance_to_obstacle(&to, obstacle) <= COVER_REACH + TOUCH,
            CoverReach::Shadow => {
                let depth = (obstacle.top - obstacle.bottom).min(MAX_SHADOW);
                depth > 0.0 && distance_to_obstacle(&to, obstacle) <= depth + TOUCH
            }
        };
        if near && some_sight_line_crosses(&from, &to, &obstacle.shape) {
            return Ok(Some(Cover::Terrain(obstacle.id)));
        }
    }
    Ok(None)
}

/// Whether the target of an attack from `attacker` has concealment: the
/// concealing terrain a sight line passes through (if any). An attacker in
/// a concealing piece ignores it when some sight line passes through less
/// than 1" of it (3rd edition: 1" or less).
pub fn concealment(
    board: &Board,
    attacker: Target,
    target: Target,
) -> Result<Option<ObjectId>, TableError> {
    let from = board.body(attacker)?;
    let to = board.body(target)?;
    // An aura's concealment does not hinder a model friendly to it.
    let concealing = board
        .obstacles()
        .filter(|o| o.has(Trait::Concealing) && o.affects(&from));
    for obstacle in concealing {
        if !some_sight_line_crosses(&from, &to, &obstacle.shape) {
            continue;
        }
        if measure::in_terrain(board.edition, &from, obstacle) {
            let shortest = shortest_passage(&from, &to, &obstacle.shape);
            let ignored = match board.rules().sight.concealment_exception {
                ConcealmentException::LessThanAnInch => shortest < CONCEALMENT_EXCEPTION - TOUCH,
                ConcealmentException::AnInchOrLess => shortest <= CONCEALMENT_EXCEPTION + TOUCH,
            };
            if ignored {
                continue;
            }
        }
        return Ok(Some(obstacle.id));
    }
    Ok(None)
}

/// Sampled sight lines between the bases per side of the search in
/// [`shortest_passage`]: 64 points per base edge (a 50 mm base's points
/// are 0.05" apart).
const PASSAGE_SAMPLES: usize = 64;

/// The least length of `shape` a sight line between the bases crosses,
/// over sight lines sampled between points around both bases.
fn shortest_passage(viewer: &Body, target: &Body, shape: &Shape) -> f64 {
    let around = |body: &Body| -> Vec<V2> {
        if body.radius <= 0.0 {
            return vec![body.center];
        }
        (0..PASSAGE_SAMPLES)
            .map(|i| {
                let angle = std::f64::consts::TAU * i as f64 / PASSAGE_SAMPLES as f64;
                body.center
                    .plus(V2::new(angle.cos(), angle.sin()).scale(body.radius))
            })
            .collect()
    };
    let (starts, ends) = (around(viewer), around(target));
    let mut best = f64::INFINITY;
    for a in &starts {
        for b in &ends {
            let crosses_base = [viewer, target].iter().any(|body| {
                body.radius > 0.0
                    && super::geometry::distance_to_segment(body.center, *a, *b)
                        < body.radius - TOUCH
            });
            if !crosses_base {
                best = best.min(shape.length_inside(*a, *b));
            }
        }
    }
    best
}

/// What the table says about an attack: whether it can be drawn (LoS), and
/// the cover and concealment that feed the duel and its damage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttackSituation {
    pub line_of_sight: bool,
    pub cover: Option<Cover>,
    pub concealment: Option<ObjectId>,
}

pub fn attack_situation(
    board: &Board,
    attacker: ObjectId,
    target: ObjectId,
) -> Result<AttackSituation, TableError> {
    let (from, to) = (Target::Object(attacker), Target::Object(target));
    let line_of_sight = line_of_sight(board, from, to)?;
    Ok(AttackSituation {
        line_of_sight,
        ..hindrances(board, attacker, target)?
    })
}

/// The cover and concealment of an attack whose sight is already settled
/// (an action's duel checks it first): [`attack_situation`] without
/// measuring sight again. Its `line_of_sight` is left true.
pub fn hindrances(
    board: &Board,
    attacker: ObjectId,
    target: ObjectId,
) -> Result<AttackSituation, TableError> {
    let (from, to) = (Target::Object(attacker), Target::Object(target));
    Ok(AttackSituation {
        line_of_sight: true,
        cover: cover(board, from, to)?,
        concealment: concealment(board, from, to)?,
    })
}

impl AttackSituation {
    /// Sets up an attack's duel: cover for the damage rules (4th edition
    /// reduces the damage by 1; 3rd edition worsens the damage flip), and
    /// concealment as a negative fate modifier on the duel.
    pub fn apply_to(&self, spec: &mut crate::duel::DuelSpec) {
        spec.cover |= self.cover.is_some();
        if self.concealment.is_some() {
            spec.modifiers = spec.modifiers.saturating_sub(1);
        }
    }
}
