//! Movement: validating a path of straight segments (Walk, Charge, moves
//! toward or away), falling, jumping, scaling, place effects and pushes
//! that move "directly". A refused move says why and changes nothing (the
//! functions only read the board; the caller moves the piece).

use serde::{Deserialize, Serialize};

use super::geometry::{Shape, TOUCH, V2};
use super::measure::{self, FALL_DAMAGE_HEIGHT, landing_elevation, support_share, supported};
use super::{
    Board, Body, Edition, Milli, ObjectId, Obstacle, Point, TABLE_SIZE, TableError, Target, Trait,
    inches, milli,
};
use crate::rules::{EngagedWalk, FallDamage, PassThrough};

mod placing;
pub use placing::{
    PlaceOutcome, place, place_touching, push_around, push_away_from, push_directly, settle,
};

/// A point of a path: where the centre of the base goes, at elevation `z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waypoint {
    pub x: Milli,
    pub y: Milli,
    #[serde(default)]
    pub z: Milli,
}

impl Waypoint {
    fn v2(self) -> V2 {
        Point {
            x: self.x,
            y: self.y,
        }
        .v2()
    }
}

/// What kind of movement a path is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum MoveKind {
    /// Up to Sp; half Sp (rounded down) when it starts engaged (4th edition).
    Walk,
    /// Up to Sp in one straight line; not while engaged.
    Charge,
    /// A move an effect allows, up to its distance, engaged or not
    /// (Kinetic Amplifier's 3").
    Effect,
    /// A push up to its distance: one straight line, engaged or not
    /// (3rd edition Disengage).
    Push,
    /// A move that may never take the reference points apart (toward) or
    /// closer together (away), going around what is in the way.
    Toward {
        x: Milli,
        y: Milli,
    },
    Away {
        x: Milli,
        y: Milli,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fall {
    pub from: f64,
    pub to: f64,
    pub damage: u8,
    /// How far the base had to be moved off where it would have landed.
    pub displaced: f64,
    /// The equally near legal landing places (one per arc); the model
    /// controlling the fall picks one.
    pub choices: Vec<Point>,
}

impl Fall {
    /// The landing place at `chosen` (to within a touch), if it is one.
    pub fn landing_at(&self, chosen: Point) -> Option<Point> {
        self.choices
            .iter()
            .copied()
            .find(|p| p.v2().dist(chosen.v2()) <= TOUCH * 2.0)
    }

    /// The landing places, in inches, for a message.
    pub fn choices_in_inches(&self) -> String {
        self.choices
            .iter()
            .map(|p| format!("({:.3}\", {:.3}\")", inches(p.x), inches(p.y)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveOutcome {
    /// Movement spent, in inches (severe terrain counts twice).
    pub cost: f64,
    pub allowance: f64,
    pub end: Waypoint,
    /// Hazardous terrain the model suffers (markers sharing a name are one piece).
    pub hazards: Vec<String>,
    /// Enemies it was engaged with at the start and no longer is.
    pub left_engagement: Vec<ObjectId>,
    /// The fall at the end of the path, if it ends unsupported.
    pub fall: Option<Fall>,
    /// Harmless falls part way (1" in 4th edition), after which the path
    /// goes on from where the base landed.
    pub falls_on_the_way: Vec<Fall>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MoveError {
    #[error(transparent)]
    Table(#[from] TableError),
    /// The path's cost is its length plus, once more, the part of it
    /// in severe terrain (and any climb): the message names both, so a
    /// player who aimed 6" is not told of 8" without a word why.
    #[error("{}", too_far_words(*length, *extra, *allowance))]
    TooFar {
        /// The path's length on the table, in inches.
        length: f64,
        /// What severe terrain and climbing add, in inches.
        extra: f64,
        allowance: f64,
    },
    #[error("segment {segment} leaves the table")]
    OffTable { segment: usize },
    #[error("segment {segment} crosses {name}, which cannot be moved through")]
    Impassable { segment: usize, name: String },
    #[error("segment {segment} moves through {name}, which it may not pass")]
    ThroughModel { segment: usize, name: String },
    #[error("the move cannot end overlapping {name}")]
    EndsOverlapping { name: String },
    #[error("segment {segment} climbs without climbable terrain in base contact")]
    NothingToClimb { segment: usize },
    #[error("segment {segment} moves both across and up or down; climb straight up or down")]
    Slanted { segment: usize },
    #[error(
        "the base is not supported at waypoint {waypoint}; a fall that deals damage, or could \
         land in more than one place, ends the move there"
    )]
    Unsupported { waypoint: usize },
    #[error("a Charge is one straight line")]
    ChargeNotStraight,
    #[error("a push is one straight line across the table")]
    PushNotStraight,
    #[error(
        "segment {segment} takes the model out of {name}'s engagement range, which a Walk may not"
    )]
    LeavesEngagement { segment: usize, name: String },
    #[error("an engaged model cannot Charge")]
    ChargeWhileEngaged,
    #[error("segment {segment} would take the reference points {direction}")]
    WrongDirection {
        segment: usize,
        direction: &'static str,
    },
    #[error("{0}")]
    Illegal(String),
}

/// Inches for a message: "3", "5.5", "8.1" (a tenth is as fine as a
/// player measures).
pub fn inches_words(value: f64) -> String {
    let tenths = (value * 10.0).round() / 10.0;
    if (tenths - tenths.round()).abs() < 1e-9 {
        format!("{}", tenths.round())
    } else {
        format!("{tenths:.1}")
    }
}

fn too_far_words(length: f64, extra: f64, allowance: f64) -> String {
    // A path a hair too long reads "4.03 of 4", never "4 of 4".
    let (needed, available) = distinct_inches(length + extra, allowance);
    if extra > TOUCH {
        format!(
            "the path is {}\" long, and severe terrain or climbing adds {}\": it needs {needed}\" but only {available}\" is available",
            inches_words(length),
            inches_words(extra),
        )
    } else {
        format!("the path is {needed}\" long but only {available}\" is available")
    }
}

/// Two distances in words, with the fewest decimals (up to three) that
/// tell them apart.
fn distinct_inches(more: f64, less: f64) -> (String, String) {
    let (a, b) = (inches_words(more), inches_words(less));
    if a != b {
        return (a, b);
    }
    for places in [2, 3] {
        let (a, b) = (format!("{more:.places$}"), format!("{less:.places$}"));
        if a != b || places == 3 {
            return (a, b);
        }
    }
    (a, b)
}

/// Validates moving model `id` along `path` (its current position first is
/// implied) with `sp` inches of speed.
pub fn validate_move(
    board: &Board,
    id: ObjectId,
    path: &[Waypoint],
    kind: MoveKind,
    sp: f64,
) -> Result<MoveOutcome, MoveError> {
    let piece = board.piece(id)?;
    let me = board.body(Target::Object(id))?;
    let start = Waypoint {
        x: piece.at.x,
        y: piece.at.y,
        z: piece.z,
    };
    let engaged = measure::engaged_with(board, id)?;
    let allowance = match kind {
        MoveKind::Charge if !engaged.is_empty() => return Err(MoveError::ChargeWhileEngaged),
        MoveKind::Walk
            if board.rules().engaged_walk == EngagedWalk::HalfSpeed && !engaged.is_empty() =>
        {
            (sp / 2.0).floor()
        }
        _ => sp,
    };
    let straight = path.len() <= 1 && path.iter().all(|w| w.z == start.z);
    match kind {
        MoveKind::Charge if !straight => return Err(MoveError::ChargeNotStraight),
        MoveKind::Push if !straight => return Err(MoveError::PushNotStraight),
        _ => {}
    }
    // 3rd edition: a Walk never takes the base out of the engagement range
    // of an enemy engaging it (it may go around the enemy). The range is a
    // disc, so a path whose waypoints stay inside it stays inside.
    let held_by: Vec<(Body, f64, String)> = match (kind, board.rules().engaged_walk) {
        (MoveKind::Walk, EngagedWalk::StaysEngaged) => engaged
            .iter()
            .filter_map(|e| {
                let piece = board.piece(*e).ok()?;
                let range = measure::engagement_range(board.edition, piece)?;
                Some((super::piece_body(piece), range, piece.name.to_string()))
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut points = Vec::with_capacity(path.len() + 1);
    points.push(start);
    points.extend_from_slice(path);

    let mut cost = 0.0;
    // The horizontal length alone, for a refusal's words.
    let mut length = 0.0;
    let mut hazards: Vec<String> = Vec::new();
    let mut falls_on_the_way = Vec::new();
    // Where the base is before each segment: a waypoint, or where it
    // landed after a harmless fall there.
    let mut from = start;
    for (index, pair) in points.windows(2).enumerate() {
        let (a, b) = (from, pair[1]);
        let segment = index + 1;
        check_direction(kind, a, b, segment)?;
        if a == b {
            // Moving 0" is still a move, and always legal.
        } else if a.x == b.x && a.y == b.y {
            cost += climb(board, &me, a, b, segment, piece.ignores_terrain)?;
        } else if a.z != b.z {
            return Err(MoveError::Slanted { segment });
        } else {
            let (along, severe) = horizontal(
                board,
                &me,
                a,
                b,
                segment,
                piece.ignores_terrain,
                &mut hazards,
            )?;
            length += along;
            cost += along + severe;
        }
        let last = segment == points.len() - 1;
        let at_b = Body {
            center: b.v2(),
            z: inches(b.z),
            ..me
        };
        from = b;
        // Holding on to climbable terrain at its edge, a model climbing
        // (straight up or down next) or staying at its height does not
        // fall; one that goes on at a lower height chose to fall.
        let climbing_on = points.get(segment + 1).is_some_and(|next| {
            clings(board, &at_b) && (next.z == b.z || (next.x, next.y) == (b.x, b.y))
        });
        if !last && !supported(board, at_b.center, at_b.radius, at_b.z) && !climbing_on {
            let (landing, fell) = harmless_fall(board, &at_b, segment)?;
            from = landing;
            falls_on_the_way.push(fell);
        }
        let now = Body {
            center: from.v2(),
            z: inches(from.z),
            ..me
        };
        if let Some((_, _, name)) = held_by
            .iter()
            .find(|(enemy, range, _)| !measure::within(board.edition, &now, enemy, *range))
        {
            return Err(MoveError::LeavesEngagement {
                segment,
                name: name.clone(),
            });
        }
    }
    if cost > allowance + TOUCH {
        return Err(MoveError::TooFar {
            length,
            extra: cost - length,
            allowance,
        });
    }
    let end = points.last().copied().unwrap_or(start);
    let moved = Body {
        center: end.v2(),
        z: inches(end.z),
        ..me
    };
    // Ending where it started overlaps nothing new: the position was
    // allowed when the model got there (two bases put in contact may
    // overlap by a rounding error).
    if end != start {
        check_end(board, &moved)?;
    }
    // A climb that ends without half the base supported falls.
    let fall = fall_if_unsupported(board, &moved)?;
    let now_engaged = measure::engaged_at(board, &moved)?;
    hazards.sort();
    hazards.dedup();
    Ok(MoveOutcome {
        cost,
        allowance,
        end,
        hazards,
        left_engagement: engaged
            .into_iter()
            .filter(|e| !now_engaged.contains(e))
            .collect(),
        fall,
        falls_on_the_way,
    })
}

/// A move toward (or away from) a point refuses a segment that takes the
/// model apart from (or closer to) it.
fn check_direction(
    kind: MoveKind,
    a: Waypoint,
    b: Waypoint,
    segment: usize,
) -> Result<(), MoveError> {
    let (reference, toward) = match kind {
        MoveKind::Toward { x, y } => (Point { x, y }.v2(), true),
        MoveKind::Away { x, y } => (Point { x, y }.v2(), false),
        MoveKind::Walk | MoveKind::Charge | MoveKind::Effect | MoveKind::Push => return Ok(()),
    };
    let step = b.v2().minus(a.v2());
    let ok = if toward {
        step.dot(b.v2().minus(reference)) <= TOUCH * TOUCH
    } else {
        step.dot(a.v2().minus(reference)) >= -TOUCH * TOUCH
    };
    if ok {
        return Ok(());
    }
    let direction = if toward { "apart" } else { "closer" };
    Err(MoveError::WrongDirection { segment, direction })
}

/// Where a model unsupported after a segment lands: a fall that deals no
/// damage lets it go on moving from there (off the terrain's edge, at no
/// cost), when that is one place; any other fall refuses the path.
fn harmless_fall(board: &Board, at: &Body, segment: usize) -> Result<(Waypoint, Fall), MoveError> {
    let fell = fall(board, at)?;
    let [landing] = fell.choices.as_slice() else {
        return Err(MoveError::Unsupported { waypoint: segment });
    };
    if fell.damage > 0 {
        return Err(MoveError::Unsupported { waypoint: segment });
    }
    let landed = Waypoint {
        x: landing.x,
        y: landing.y,
        z: milli(fell.to),
    };
    Ok((landed, fell))
}

/// Whether `me` may move through `other`'s base: friendly models and
/// enemy peons in 4th edition, no model in 3rd.
pub(super) fn may_pass(edition: Edition, me: &Body, other: &Body) -> bool {
    match edition.rules().table.pass_through {
        PassThrough::FriendsAndEnemyPeons => other.seat == me.seat || other.peon,
        PassThrough::Nothing => false,
    }
}

/// Whether a base of `radius` centred at `c` is on the table.
fn on_table(c: V2, radius: f64) -> bool {
    let size = inches(TABLE_SIZE);
    let (low, high) = (radius - TOUCH, size - radius + TOUCH);
    (low..=high).contains(&c.x) && (low..=high).contains(&c.y)
}

fn model_name(board: &Board, body: &Body) -> String {
    body.id
        .and_then(|id| board.piece(id).ok())
        .map(|p| p.name.to_string())
        .unwrap_or_default()
}

/// Whether two vertical extents overlap (more than touching).
pub(super) fn overlaps_vertically(bottom_a: f64, top_a: f64, bottom_b: f64, top_b: f64) -> bool {
    bottom_a < top_b - TOUCH && bottom_b < top_a - TOUCH
}

/// Terrain a model cannot move through: impassable, and the sides of
/// climbable terrain (its top is walked on, not through).
pub(super) fn solid(obstacle: &Obstacle) -> bool {
    obstacle.has(Trait::Impassable) || obstacle.has(Trait::Climbable)
}

/// Whether a base of radius `r` moving from `p` to `q` moves through, or
/// into base contact with, hazardous `obstacle` (its height aside).
fn moves_into_hazard(obstacle: &Obstacle, p: V2, q: V2, r: f64) -> bool {
    obstacle.has(Trait::Hazardous)
        && !obstacle
            .shape
            .swept_overlap(p, q, r + 2.0 * TOUCH)
            .is_empty()
}

/// The hazardous terrain (one name per piece) model `id` moves through or
/// into base contact with on a straight line from where it stands to
/// `to`, as a push moves it: none for a model unaffected by terrain.
pub fn hazards_along(board: &Board, id: ObjectId, to: Waypoint) -> Result<Vec<String>, MoveError> {
    let piece = board.piece(id)?;
    let me = board.body(Target::Object(id))?;
    if piece.ignores_terrain {
        return Ok(Vec::new());
    }
    let (z, top) = (me.z, me.z + me.size);
    let mut hazards: Vec<String> = board
        .obstacles()
        .filter(|o| z <= o.top + TOUCH && o.bottom <= top + TOUCH && o.affects(&me))
        .filter(|o| moves_into_hazard(o, me.center, to.v2(), me.radius))
        .map(|o| o.name.clone())
        .collect();
    hazards.sort();
    hazards.dedup();
    Ok(hazards)
}

/// A horizontal segment at one elevation: its length and the part of it
/// in severe terrain (which costs that much again), or why it is illegal.
fn horizontal(
    board: &Board,
    me: &Body,
    a: Waypoint,
    b: Waypoint,
    segment: usize,
    ignores_terrain: bool,
    hazards: &mut Vec<String>,
) -> Result<(f64, f64), MoveError> {
    let (p, q, z) = (a.v2(), b.v2(), inches(a.z));
    let r = me.radius;
    if !on_table(p, r) || !on_table(q, r) {
        return Err(MoveError::OffTable { segment });
    }
    let length = p.dist(q);
    // Every point the base sweeps lies within this of the segment's middle:
    // a piece whose bounding circle stays farther cannot touch it.
    let (middle, sweep) = (p.lerp(q, 0.5), r + length / 2.0 + TOUCH);
    let mut severe: Vec<(f64, f64)> = Vec::new();
    for obstacle in board.obstacles() {
        if ignores_terrain {
            break;
        }
        if obstacle.bounds.0.dist(middle) > obstacle.bounds.1 + sweep {
            continue;
        }
        let vertical = overlaps_vertically(z, z + me.size, obstacle.bottom, obstacle.top);
        if solid(obstacle) && vertical && !obstacle.shape.swept_overlap(p, q, r).is_empty() {
            return Err(MoveError::Impassable {
                segment,
                name: obstacle.name.clone(),
            });
        }
        let in_reach = z <= obstacle.top + TOUCH && obstacle.bottom <= z + me.size + TOUCH;
        if obstacle.has(Trait::Severe) && in_reach {
            severe.extend(obstacle.shape.swept_overlap(p, q, r));
        }
        if in_reach && obstacle.affects(me) && moves_into_hazard(obstacle, p, q, r) {
            hazards.push(obstacle.name.clone());
        }
    }
    for other in board.bodies() {
        if other.id == me.id
            || !overlaps_vertically(z, z + me.size, other.z, other.effective_size())
        {
            continue;
        }
        if !may_pass(board.edition, me, &other) && !other.shape().swept_overlap(p, q, r).is_empty()
        {
            let name = model_name(board, &other);
            return Err(MoveError::ThroughModel { segment, name });
        }
    }
    if z > TOUCH {
        // Above the table the base must stay supported along the way.
        let steps = (length / 0.1).ceil().max(1.0) as usize;
        for i in 1..steps {
            let at = p.lerp(q, i as f64 / steps as f64);
            if !holds_on(
                board,
                &Body {
                    center: at,
                    z,
                    ..*me
                },
            ) {
                return Err(MoveError::Unsupported { waypoint: segment });
            }
        }
    }
    let in_severe: f64 = super::geometry::merge_intervals(severe)
        .iter()
        .map(|(s, e)| (e - s) * length)
        .sum();
    Ok((length, in_severe))
}

/// A vertical segment: climbing along climbable terrain in base contact.
fn climb(
    board: &Board,
    me: &Body,
    a: Waypoint,
    b: Waypoint,
    segment: usize,
    ignores_terrain: bool,
) -> Result<f64, MoveError> {
    let (low, high) = (inches(a.z.min(b.z)), inches(a.z.max(b.z)));
    let at = a.v2();
    let wall = board.obstacles().any(|o| {
        o.has(Trait::Climbable)
            && o.top >= high - TOUCH
            && o.bottom <= low + TOUCH
            && o.shape.gap_to_disc(at, me.radius).abs() <= TOUCH * 2.0
    });
    if !wall {
        return Err(MoveError::NothingToClimb { segment });
    }
    // Ignoring terrain while moving ignores its vertical distance too.
    Ok(if ignores_terrain { 0.0 } else { high - low })
}

/// Touching climbable terrain that reaches the base's height: a model
/// partway up a climb, or climbing over the lip, does not fall mid-move.
fn clings(board: &Board, body: &Body) -> bool {
    body.z > TOUCH
        && board.obstacles().any(|o| {
            o.has(Trait::Climbable)
                && o.top >= body.z - TOUCH
                && o.bottom <= body.z + TOUCH
                && o.shape.gap_to_disc(body.center, body.radius) <= TOUCH * 2.0
        })
}

/// Supported, or holding on to climbable terrain: the base does not fall.
fn holds_on(board: &Board, body: &Body) -> bool {
    supported(board, body.center, body.radius, body.z) || clings(board, body)
}

/// Where a base may not end: overlapping another model or solid terrain,
/// or off the table.
fn end_conflict(board: &Board, body: &Body) -> Option<String> {
    if !on_table(body.center, body.radius) {
        return Some("the table edge".to_string());
    }
    for other in board.bodies() {
        if other.id == body.id
            || !overlaps_vertically(
                body.z,
                body.effective_size(),
                other.z,
                other.effective_size(),
            )
        {
            continue;
        }
        if body.center.dist(other.center) < body.radius + other.radius - TOUCH {
            return Some(model_name(board, &other));
        }
    }
    board
        .obstacles()
        .find(|o| {
            solid(o)
                && overlaps_vertically(
                    body.z,
                    body.effective_size().max(body.z + TOUCH * 2.0),
                    o.bottom,
                    o.top,
                )
                && o.shape.gap_to_disc(body.center, body.radius) < -TOUCH
        })
        .map(|o| o.name.clone())
}

/// What the model's current position overlaps that it may not (another
/// base, solid terrain, the table edge), if anything.
pub fn position_conflict(board: &Board, id: ObjectId) -> Result<Option<String>, TableError> {
    Ok(end_conflict(board, &board.body(Target::Object(id))?))
}

pub(super) fn check_end(board: &Board, body: &Body) -> Result<(), MoveError> {
    match end_conflict(board, body) {
        Some(name) => Err(MoveError::EndsOverlapping { name }),
        None => Ok(()),
    }
}

/// The fall of a base with less than half of it supported, if it has.
pub(super) fn fall_if_unsupported(board: &Board, body: &Body) -> Result<Option<Fall>, MoveError> {
    if supported(board, body.center, body.radius, body.z) {
        return Ok(None);
    }
    fall(board, body).map(Some)
}

/// Refuses a jump or a scale (`what`) in an edition without climbing
/// (3rd edition).
fn require_climbing(board: &Board, what: &str) -> Result<(), MoveError> {
    if board.rules().climbing {
        return Ok(());
    }
    Err(MoveError::Illegal(format!(
        "{} has no {what}",
        board.edition.rules().short_name
    )))
}

/// Falling damage: 4th edition, 1 from 2" or more; 3rd edition, half the
/// distance rounded down.
pub fn fall_damage(edition: Edition, height: f64) -> u8 {
    match edition.rules().table.fall_damage {
        FallDamage::OneFromTwoInches => u8::from(height >= FALL_DAMAGE_HEIGHT - TOUCH),
        FallDamage::HalfTheDistance => ((height + TOUCH) / 2.0).floor().clamp(0.0, 255.0) as u8,
    }
}

/// A base that is not supported falls straight down to the highest
/// surface that supports it; if it would land overlapping a model or solid
/// terrain it goes to the nearest legal places instead.
pub fn fall(board: &Board, body: &Body) -> Result<Fall, MoveError> {
    let to = landing_elevation(board, body.center, body.radius, body.z);
    let landed = Body { z: to, ..*body };
    let height = body.z - to;
    let damage = fall_damage(board.edition, height);
    if end_conflict(board, &landed).is_none() {
        return Ok(Fall {
            from: body.z,
            to,
            damage,
            displaced: 0.0,
            choices: vec![Point::from_v2(body.center)],
        });
    }
    // Rings of growing radius around the landing spot, 0.5° apart.
    const STEP: f64 = 0.01;
    const DIRECTIONS: usize = 720;
    let mut radius = STEP;
    while radius <= 12.0 {
        let legal: Vec<bool> = (0..DIRECTIONS)
            .map(|i| {
                let angle = std::f64::consts::TAU * i as f64 / DIRECTIONS as f64;
                let center = body
                    .center
                    .plus(V2::new(angle.cos(), angle.sin()).scale(radius));
                // It still lands at the level it fell to, beside what was in the way.
                end_conflict(
                    board,
                    &Body {
                        center,
                        z: to,
                        ..*body
                    },
                )
                .is_none()
                    && supported(board, center, body.radius, to)
            })
            .collect();
        if legal.iter().any(|ok| *ok) {
            let choices = arc_middles(&legal)
                .into_iter()
                .map(|i| {
                    let angle = std::f64::consts::TAU * i as f64 / DIRECTIONS as f64;
                    Point::from_v2(
                        body.center
                            .plus(V2::new(angle.cos(), angle.sin()).scale(radius)),
                    )
                })
                .collect();
            return Ok(Fall {
                from: body.z,
                to,
                damage,
                displaced: radius,
                choices,
            });
        }
        radius += STEP;
    }
    Err(MoveError::Illegal(
        "there is no legal place to land within 12\"".to_string(),
    ))
}

/// The middle index of each run of `true` in a circular list.
fn arc_middles(legal: &[bool]) -> Vec<usize> {
    let n = legal.len();
    let Some(gap) = legal.iter().position(|ok| !ok) else {
        return vec![0];
    };
    let mut middles = Vec::new();
    let mut run_start = None;
    for k in 1..=n {
        let i = (gap + k) % n;
        match (legal[i], run_start) {
            (true, None) => run_start = Some(k),
            (false, Some(s)) => {
                middles.push((gap + (s + k - 1) / 2) % n);
                run_start = None;
            }
            _ => {}
        }
    }
    middles
}

/// A jump from the model's position to land with its centre at `to`
/// (4th edition): onto a surface at its elevation or up to 1" lower, within
/// the movement left, over nothing taller than where it jumps from.
pub fn jump(board: &Board, id: ObjectId, to: Point, remaining: f64) -> Result<Waypoint, MoveError> {
    require_climbing(board, "jumping")?;
    let me = board.body(Target::Object(id))?;
    let target = to.v2();
    let length = me.center.dist(target);
    if length > remaining + TOUCH {
        return Err(MoveError::TooFar {
            length,
            extra: 0.0,
            allowance: remaining,
        });
    }
    let land = landing_elevation(board, target, me.radius, me.z);
    if me.z - land > 1.0 + TOUCH || !supported(board, target, me.radius, land) {
        return Err(MoveError::Illegal(
            "a jump must land on a surface at the same elevation or up to 1\" lower".to_string(),
        ));
    }
    for obstacle in board.obstacles() {
        if obstacle.top > me.z + TOUCH
            && !obstacle
                .shape
                .swept_overlap(me.center, target, me.radius)
                .is_empty()
        {
            return Err(MoveError::Impassable {
                segment: 1,
                name: obstacle.name.clone(),
            });
        }
    }
    for other in board.bodies() {
        if other.id != me.id
            && other.effective_size() > me.z + TOUCH
            && !other
                .shape()
                .swept_overlap(me.center, target, me.radius)
                .is_empty()
        {
            let name = model_name(board, &other);
            return Err(MoveError::ThroughModel { segment: 1, name });
        }
    }
    let landed = Body {
        center: target,
        z: land,
        ..me
    };
    check_end(board, &landed)?;
    Ok(Waypoint {
        x: to.x,
        y: to.y,
        z: milli(land),
    })
}

/// Scaling up climbable terrain the model ends a Walk in base contact with
/// (4th edition): straight up to its top, then inward at a right angle to
/// the contact until the base is wholly supported (or as much as it can be,
/// at least half). Blocked if that spot is taken.
pub fn scale_up(board: &Board, id: ObjectId, terrain: ObjectId) -> Result<Waypoint, MoveError> {
    require_climbing(board, "scaling")?;
    let me = board.body(Target::Object(id))?;
    let wall = board.obstacle(terrain)?;
    if !wall.has(Trait::Climbable) || wall.top <= me.z + TOUCH {
        return Err(MoveError::Illegal(format!(
            "{} is not climbable terrain above the model",
            wall.name
        )));
    }
    if wall.shape.gap_to_disc(me.center, me.radius).abs() > TOUCH * 2.0 {
        return Err(MoveError::Illegal(format!(
            "the model is not in base contact with {}",
            wall.name
        )));
    }
    let inward = inward_normal(&wall.shape, me.center);
    let z = wall.top;
    let mut best: Option<(f64, V2)> = None;
    let step = 0.005;
    let mut travelled = 0.0;
    while travelled <= me.radius * 2.0 + 0.01 {
        let center = me.center.plus(inward.scale(travelled));
        let share = support_share(board, center, me.radius, z);
        if share >= 0.999 {
            best = Some((share, center));
            break;
        }
        if share >= 0.5 && best.is_none_or(|(s, _)| share > s) {
            best = Some((share, center));
        }
        travelled += step;
    }
    let Some((_, center)) = best else {
        return Err(MoveError::Illegal(format!(
            "the base cannot be half supported on top of {}",
            wall.name
        )));
    };
    let landed = Body { center, z, ..me };
    check_end(board, &landed)?;
    let at = Point::from_v2(center);
    Ok(Waypoint {
        x: at.x,
        y: at.y,
        z: milli(z),
    })
}

/// Scaling down climbable terrain the model stands on, ending a Walk with
/// its base at the terrain's edge (4th edition): out at a right angle to
/// that edge until none of the base is on it, then straight down until
/// the base is supported. Not a fall: no damage.
pub fn scale_down(board: &Board, id: ObjectId, terrain: ObjectId) -> Result<Waypoint, MoveError> {
    require_climbing(board, "scaling")?;
    let me = board.body(Target::Object(id))?;
    let wall = board.obstacle(terrain)?;
    if !wall.has(Trait::Climbable)
        || (wall.top - me.z).abs() > TOUCH
        || !measure::stands_on(&me, wall)
    {
        return Err(MoveError::Illegal(format!(
            "the model is not standing on {}",
            wall.name
        )));
    }
    // At the edge: the base reaches the boundary of the top.
    let to_edge = -wall.shape.signed_distance(me.center);
    if to_edge > me.radius + TOUCH {
        return Err(MoveError::Illegal(format!(
            "the model is not at the edge of {}",
            wall.name
        )));
    }
    let outward = inward_normal(&wall.shape, me.center);
    let mut travelled = 0.0;
    let mut center = me.center;
    while wall.shape.gap_to_disc(center, me.radius) < -TOUCH {
        travelled += 0.005;
        center = me.center.plus(outward.scale(travelled));
        if travelled > 2.0 * me.radius + 1.0 {
            return Err(MoveError::Illegal(format!(
                "the base cannot get clear of {}",
                wall.name
            )));
        }
    }
    let z = landing_elevation(board, center, me.radius, wall.top - 2.0 * TOUCH);
    let landed = Body { center, z, ..me };
    check_end(board, &landed)?;
    let at = Point::from_v2(center);
    Ok(Waypoint {
        x: at.x,
        y: at.y,
        z: milli(z),
    })
}

/// The unit vector from `from` toward the nearest point of the shape's
/// boundary (into the shape for a base touching it from outside).
fn inward_normal(shape: &Shape, from: V2) -> V2 {
    match shape {
        Shape::Circle { center, .. } => center.minus(from).unit(),
        Shape::Polygon { points } => {
            let nearest = super::geometry::polygon_edges(points)
                .map(|(a, b)| {
                    let ab = b.minus(a);
                    let t = (from.minus(a).dot(ab) / ab.dot(ab).max(1e-18)).clamp(0.0, 1.0);
                    a.lerp(b, t)
                })
                .min_by(|p, q| p.dist(from).total_cmp(&q.dist(from)))
                .unwrap_or(from);
            nearest.minus(from).unit()
        }
    }
}
