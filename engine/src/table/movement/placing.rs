//! Place effects and pushes: where a model may be placed (touching
//! another, or at a point), and pushes away, directly or around what is in
//! the way.

use super::*;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlaceOutcome {
    pub end: Waypoint,
    /// Hazardous terrain it begins or ends in counts as moved through.
    pub hazards: Vec<String>,
}

/// Places model `id` with its centre at `to` in base contact with
/// `other`: a place with no range of its own ("in base contact with").
pub fn place_touching(
    board: &Board,
    id: ObjectId,
    to: Point,
    other: ObjectId,
) -> Result<PlaceOutcome, MoveError> {
    let outcome = place(board, id, to, None, false)?;
    let me = board.body(Target::Object(id))?;
    let placed = Body {
        center: to.v2(),
        z: inches(outcome.end.z),
        ..me
    };
    if !measure::base_contact(&placed, &board.body(Target::Object(other))?) {
        return Err(MoveError::Illegal(
            "the model must be placed in base contact with the model it pounces on".to_string(),
        ));
    }
    Ok(outcome)
}

/// Places model `id` with its centre at `to`, on the highest surface there
/// that supports it. `range` is measured from the base where it was
/// (any part within it, or all of it when `completely`). LoS is ignored.
pub fn place(
    board: &Board,
    id: ObjectId,
    to: Point,
    range: Option<f64>,
    completely: bool,
) -> Result<PlaceOutcome, MoveError> {
    let me = board.body(Target::Object(id))?;
    let center = to.v2();
    let z = landing_elevation(board, center, me.radius, f64::INFINITY);
    let placed = Body { center, z, ..me };
    if let Some(range) = range {
        let ok = if completely {
            measure::completely_within(&me, &placed, range)
        } else {
            measure::horizontal_gap(&me, &placed) <= range + TOUCH
        };
        if !ok {
            return Err(MoveError::Illegal(format!(
                "the place must be within {range}\" of where the model was"
            )));
        }
    }
    if !supported(board, center, me.radius, z) {
        return Err(MoveError::Illegal(
            "the base would not be at least half supported there".to_string(),
        ));
    }
    check_end(board, &placed)?;
    let mut hazards: Vec<String> = board
        .obstacles()
        .filter(|o| o.has(Trait::Hazardous) && o.affects(&me))
        .filter(|o| {
            measure::in_terrain(board.edition, &me, o)
                || measure::in_terrain(board.edition, &placed, o)
        })
        .map(|o| o.name.clone())
        .collect();
    hazards.sort();
    hazards.dedup();
    Ok(PlaceOutcome {
        end: Waypoint {
            x: to.x,
            y: to.y,
            z: milli(z),
        },
        hazards,
    })
}

/// An effect's push: `inches` (as a card prints it) directly away from
/// another object's centre.
pub fn push_away_from(
    board: &Board,
    id: ObjectId,
    source: ObjectId,
    inches: u8,
) -> Result<Waypoint, MoveError> {
    let from = board.body(Target::Object(source))?;
    push_directly(
        board,
        id,
        Point::from_v2(from.center),
        f64::from(inches),
        true,
    )
}

/// Where a model moved to `end` without walking (a push) comes to rest:
/// there, or, with less than half its base supported, where it lands after
/// falling (the first of equally near places, when the fall has several),
/// with the fall.
pub fn settle(
    board: &Board,
    id: ObjectId,
    end: Waypoint,
) -> Result<(Waypoint, Option<Fall>), MoveError> {
    let me = board.body(Target::Object(id))?;
    let moved = Body {
        center: Point { x: end.x, y: end.y }.v2(),
        z: inches(end.z),
        ..me
    };
    let Some(fall) = fall_if_unsupported(board, &moved)? else {
        return Ok((end, None));
    };
    let landing = fall
        .choices
        .first()
        .copied()
        .unwrap_or(Point { x: end.x, y: end.y });
    let rest = Waypoint {
        x: landing.x,
        y: landing.y,
        z: milli(fall.to),
    };
    Ok((rest, Some(fall)))
}

/// A push "directly" toward (or away from) a point: a straight line that
/// stops at impassable terrain or an enemy model, never passes the point,
/// and backs off so it does not end on a friendly model.
pub fn push_directly(
    board: &Board,
    id: ObjectId,
    point: Point,
    distance: f64,
    away: bool,
) -> Result<Waypoint, MoveError> {
    let me = board.body(Target::Object(id))?;
    let reference = point.v2();
    let toward = reference.minus(me.center);
    let direction = if away {
        toward.scale(-1.0).unit()
    } else {
        toward.unit()
    };
    let mut travel = if away {
        distance
    } else {
        distance.min(toward.len())
    };
    if direction == V2::default() {
        travel = 0.0;
    }
    let size = inches(TABLE_SIZE);
    // The table edge.
    for (position, heading) in [(me.center.x, direction.x), (me.center.y, direction.y)] {
        if heading > 1e-12 {
            travel = travel.min((size - me.radius - position) / heading);
        } else if heading < -1e-12 {
            travel = travel.min((position - me.radius) / -heading);
        }
    }
    let end_of = |t: f64| me.center.plus(direction.scale(t));
    let reach = travel;
    let full = end_of(reach);
    let first_contact = |shape: &Shape| -> Option<f64> {
        shape
            .swept_overlap(me.center, full, me.radius)
            .first()
            .map(|(s, _)| s * reach)
    };
    for obstacle in board.obstacles() {
        if solid(obstacle)
            && overlaps_vertically(me.z, me.effective_size(), obstacle.bottom, obstacle.top)
            && let Some(t) = first_contact(&obstacle.shape)
        {
            travel = travel.min(t);
        }
    }
    let others: Vec<Body> = board
        .bodies()
        .filter(|o| {
            o.id != me.id && overlaps_vertically(me.z, me.effective_size(), o.z, o.effective_size())
        })
        .collect();
    for other in others.iter().filter(|o| !may_pass(board.edition, &me, o)) {
        if let Some(t) = first_contact(&other.shape()) {
            travel = travel.min(t);
        }
    }
    // Friendly models may be passed but not ended on: back off. So does a
    // stop in base contact that rounding to the table's grid would push
    // into the other base.
    loop {
        let end = Point::from_v2(end_of(travel)).v2();
        let on = others
            .iter()
            .find(|o| end.dist(o.center) < me.radius + o.radius - TOUCH);
        match on {
            Some(other) => {
                let back = other
                    .shape()
                    .swept_overlap(me.center, end, me.radius)
                    .first()
                    .map(|(s, _)| s * travel);
                travel = back.unwrap_or(0.0).min(travel - TOUCH).max(0.0);
                if travel <= 0.0 {
                    break;
                }
            }
            None => break,
        }
    }
    let end = Point::from_v2(end_of(travel.max(0.0)));
    Ok(Waypoint {
        x: end.x,
        y: end.y,
        z: milli(me.z),
    })
}

/// The step a push "toward" or "away" (not "directly") takes at a time, in
/// inches, and the turns it considers (every 10°, up to 80° either way).
const PUSH_STEP: f64 = 0.05;
const PUSH_TURNS: [f64; 17] = [
    0.0, 10.0, -10.0, 20.0, -20.0, 30.0, -30.0, 40.0, -40.0, 50.0, -50.0, 60.0, -60.0, 70.0, -70.0,
    80.0, -80.0,
];

/// How far along `from`→`to` (0 to 1) base `me` gets before it meets the
/// table edge, solid terrain or a model it may not pass.
fn clear_fraction(board: &Board, me: &Body, from: V2, to: V2) -> f64 {
    let size = inches(TABLE_SIZE);
    let mut until: f64 = 1.0;
    // The table edge: where the centre would leave [r, size - r].
    let (low, high) = (me.radius - TOUCH, size - me.radius + TOUCH);
    for (start, end) in [(from.x, to.x), (from.y, to.y)] {
        let delta = end - start;
        if delta > 1e-12 && end > high {
            until = until.min(((high - start) / delta).max(0.0));
        } else if delta < -1e-12 && end < low {
            until = until.min(((start - low) / -delta).max(0.0));
        }
    }
    for o in board.obstacles() {
        if solid(o)
            && overlaps_vertically(me.z, me.effective_size(), o.bottom, o.top)
            && let Some((start, _)) = o.shape.swept_overlap(from, to, me.radius).first()
        {
            until = until.min(*start);
        }
    }
    for o in board.bodies() {
        if o.id != me.id
            && !may_pass(board.edition, me, &o)
            && overlaps_vertically(me.z, me.effective_size(), o.z, o.effective_size())
            && let Some((start, _)) = o.shape().swept_overlap(from, to, me.radius).first()
        {
            until = until.min(*start);
        }
    }
    until
}

/// A push toward (or away from) a point that goes around what is in its
/// way. At every step it looks down each heading within 80° of the straight
/// one for as far as it may still move, and takes a step along the heading
/// whose clear stretch gets closest to (or farthest from) the point, so it
/// veers early instead of pressing against an obstacle; a step is taken
/// only if it brings the centres closer (or farther apart), so the
/// reference points never move the wrong way. Severe terrain costs double.
/// It stops when the distance is spent or no step makes progress, and
/// backs off along its path so it does not end on another base.
pub fn push_around(
    board: &Board,
    id: ObjectId,
    point: Point,
    distance: f64,
    away: bool,
) -> Result<Vec<Waypoint>, MoveError> {
    let me = board.body(Target::Object(id))?;
    let reference = point.v2();
    let mut at = me.center;
    let mut path = vec![at];
    let mut remaining = distance.max(0.0);
    let clear_until = |from: V2, to: V2| clear_fraction(board, &me, from, to);
    let in_severe = |c: V2| {
        board.obstacles().any(|o| {
            o.has(Trait::Severe)
                && me.z <= o.top + TOUCH
                && o.shape.gap_to_disc(c, me.radius) < -TOUCH
        })
    };
    // The best distance to the point reachable along a clear stretch.
    let best_along = |from: V2, to: V2, until: f64| -> f64 {
        let d = to.minus(from);
        let len2 = d.dot(d);
        let t = if len2 < 1e-18 {
            0.0
        } else {
            (reference.minus(from).dot(d) / len2).clamp(0.0, until)
        };
        if away {
            from.lerp(to, until).dist(reference)
        } else {
            from.lerp(to, t).dist(reference)
        }
    };
    while remaining > 1e-9 {
        let gap = reference.minus(at);
        if !away && gap.len() <= TOUCH {
            break;
        }
        let heading = if away {
            gap.scale(-1.0).unit()
        } else {
            gap.unit()
        };
        if heading == V2::default() {
            break;
        }
        let cost = if in_severe(at) { 2.0 } else { 1.0 };
        let reach = remaining / cost;
        let mut choice: Option<(f64, V2)> = None;
        for turn in PUSH_TURNS {
            let (sin, cos) = turn.to_radians().sin_cos();
            let direction = V2::new(
                heading.x * cos - heading.y * sin,
                heading.x * sin + heading.y * cos,
            );
            let far = at.plus(direction.scale(reach));
            let until = clear_until(at, far);
            if until * reach < 1e-6 {
                continue;
            }
            let score = best_along(at, far, until);
            let better = match choice {
                None => true,
                Some((best, _)) => {
                    if away {
                        score > best + 1e-9
                    } else {
                        score < best - 1e-9
                    }
                }
            };
            if better {
                choice = Some((score, direction));
            }
        }
        let Some((_, direction)) = choice else { break };
        let mut length = reach.min(PUSH_STEP);
        if !away {
            // Never past the point's nearest approach on this heading.
            length = length.min(gap.dot(direction).max(0.0));
        }
        // On the thousandth-inch grid the path is reported in, so the place
        // checked here is exactly where the model ends (rounding afterwards
        // could tip a base that just touches terrain into it).
        let to = Point::from_v2(at.plus(direction.scale(length))).v2();
        let step = at.dist(to);
        let progress = if away {
            to.dist(reference) > at.dist(reference) + 1e-12
        } else {
            to.dist(reference) < at.dist(reference) - 1e-12
        };
        if step <= 1e-9 || !progress || clear_until(at, to) < 1.0 {
            break;
        }
        remaining -= step * cost;
        at = to;
        path.push(at);
    }
    // Friendly bases may be passed, not ended on.
    let ends_on_model = |c: V2| {
        board.bodies().any(|o| {
            o.id != me.id
                && overlaps_vertically(me.z, me.effective_size(), o.z, o.effective_size())
                && c.dist(o.center) < me.radius + o.radius - TOUCH
        })
    };
    while path.len() > 1 && path.last().is_some_and(|c| ends_on_model(*c)) {
        path.pop();
    }
    Ok(path
        .into_iter()
        .skip(1)
        .map(|c| {
            let p = Point::from_v2(c);
            Waypoint {
                x: p.x,
                y: p.y,
                z: milli(me.z),
            }
        })
        .collect())
}
