//! Measuring: distance between bases, within and completely within, base
//! contact, elevation and support, engagement, pulses, the area between
//! objects, and the parts of the table a deployment names.

use serde::{Deserialize, Serialize};

use super::geometry::{Shape, TOUCH, V2, covered_share, hull_of};
use super::sight;
use super::{
    Board, Body, Edition, ObjectId, Obstacle, Seat, TABLE_SIZE, TableError, Target, Trait, inches,
};
use crate::rules::{Engagement, Support, TerrainContact, VerticalDistance};

/// Falling this far deals damage (4th edition).
pub const FALL_DAMAGE_HEIGHT: f64 = 2.0;
/// Cover from elevation: the target is at least this much higher (4th edition).
pub const ELEVATION_COVER: f64 = 2.0;

/// The horizontal gap between two bases (0 when they touch or overlap).
pub fn horizontal_gap(a: &Body, b: &Body) -> f64 {
    (a.center.dist(b.center) - a.radius - b.radius).max(0.0)
}

/// The distance the rules measure between two objects. 4th edition ignores
/// vertical distance; 3rd edition adds the height difference less the
/// lower object's size (never below 0).
pub fn distance(edition: Edition, a: &Body, b: &Body) -> f64 {
    let flat = horizontal_gap(a, b);
    match edition.rules().table.vertical {
        VerticalDistance::Ignored => flat,
        VerticalDistance::AboveTheLowerObject => {
            let (low, high) = if a.z <= b.z { (a, b) } else { (b, a) };
            flat + (high.z - low.z - low.size).max(0.0)
        }
    }
}

/// Any part of `b`'s base is within `range` of `a`.
pub fn within(edition: Edition, a: &Body, b: &Body, range: f64) -> bool {
    distance(edition, a, b) <= range + TOUCH
}

/// Within a range printed on a card (whole inches): the rules outside the
/// table module never compute in floats.
pub fn within_card_range(edition: Edition, a: &Body, b: &Body, inches: u8) -> bool {
    within(edition, a, b, f64::from(inches))
}

/// Every part of `b`'s base is within `range` of `a`'s base.
pub fn completely_within(a: &Body, b: &Body, range: f64) -> bool {
    let farthest = (a.center.dist(b.center) + b.radius - a.radius).max(0.0);
    farthest <= range + TOUCH
}

/// Bases physically touching: edge to edge or overlapping, at the same
/// elevation (a base on a rock above another is within 0" but not in
/// contact). Never with itself.
pub fn base_contact(a: &Body, b: &Body) -> bool {
    if a.id.is_some() && a.id == b.id {
        return false;
    }
    a.center.dist(b.center) - a.radius - b.radius <= TOUCH && (a.z - b.z).abs() <= TOUCH
}

/// The candidates whose bodies are within `inches` of `from`, the nearest
/// first (ties in the candidates' order), at most `up_to` of them.
pub fn nearest_within<T: Copy>(
    edition: Edition,
    from: &Body,
    candidates: &[(T, Body)],
    inches: u8,
    up_to: usize,
) -> Vec<T> {
    let mut near: Vec<(f64, usize)> = candidates
        .iter()
        .enumerate()
        .filter(|(_, (_, body))| within(edition, from, body, f64::from(inches)))
        .map(|(index, (_, body))| (distance(edition, from, body), index))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near.into_iter()
        .take(up_to)
        .map(|(_, index)| candidates[index].0)
        .collect()
}

/// The distance from a base to a terrain piece's footprint.
pub fn distance_to_obstacle(body: &Body, obstacle: &Obstacle) -> f64 {
    obstacle
        .shape
        .gap_to_disc(body.center, body.radius)
        .max(0.0)
}

/// A model is in terrain when its base touches it (4th edition) or
/// overlaps it (3rd edition) at a height the terrain occupies.
pub fn in_terrain(edition: Edition, body: &Body, obstacle: &Obstacle) -> bool {
    let gap = obstacle.shape.gap_to_disc(body.center, body.radius);
    let touching = match edition.rules().table.terrain_contact {
        TerrainContact::Touching => gap <= TOUCH,
        TerrainContact::Overlapping => gap < -TOUCH,
    };
    touching && body.z <= obstacle.top + TOUCH && obstacle.bottom <= body.z + body.size + TOUCH
}

/// The terrain whose top the base stands on (overlapping it, at its top).
pub fn stands_on(body: &Body, obstacle: &Obstacle) -> bool {
    body.z > TOUCH
        && (obstacle.top - body.z).abs() <= TOUCH
        && obstacle.shape.gap_to_disc(body.center, body.radius) < -TOUCH
}

/// The share of a base supported at elevation `z` (the table supports
/// everything at 0; above it, the tops of climbable terrain at `z`).
pub fn support_share(board: &Board, center: V2, radius: f64, z: f64) -> f64 {
    if z <= TOUCH {
        return 1.0;
    }
    let surfaces: Vec<&Shape> = board
        .obstacles()
        .filter(|o| o.has(Trait::Climbable) && (o.top - z).abs() <= TOUCH)
        .filter(|o| o.shape.gap_to_disc(center, radius) < -TOUCH)
        .map(|o| &o.shape)
        .collect();
    covered_share(center, radius, &surfaces)
}

/// Whether a base at `z` is supported enough not to fall: 4th edition needs
/// half the base, 3rd edition any of it.
pub fn supported(board: &Board, center: V2, radius: f64, z: f64) -> bool {
    let share = support_share(board, center, radius, z);
    match board.rules().support {
        Support::HalfTheBase => share >= 0.5 - 1e-3,
        Support::AnyOfTheBase => share > 1e-3,
    }
}

/// The highest surface at or below `z` that supports a base at `center`:
/// where it lands when it falls.
pub fn landing_elevation(board: &Board, center: V2, radius: f64, z: f64) -> f64 {
    let mut levels: Vec<f64> = board
        .obstacles()
        .filter(|o| o.has(Trait::Climbable) && o.top <= z + TOUCH && o.top > TOUCH)
        .filter(|o| o.shape.gap_to_disc(center, radius) < -TOUCH)
        .map(|o| o.top)
        .collect();
    levels.sort_by(|a, b| b.total_cmp(a));
    levels.dedup_by(|a, b| (*a - *b).abs() <= TOUCH);
    levels
        .into_iter()
        .find(|level| supported(board, center, radius, *level))
        .unwrap_or(0.0)
}

/// A model may target another with a melee action only if its effective
/// Sz reaches the target's elevation (4th edition).
pub fn melee_reaches(attacker: &Body, target: &Body) -> bool {
    attacker.effective_size() + TOUCH >= target.z
}

/// Cover for being 2" or more above the attacker (4th edition).
pub fn elevation_cover(attacker: &Body, target: &Body) -> bool {
    target.z - attacker.z >= ELEVATION_COVER - TOUCH
}

/// The enemy models `id` is engaged with. 4th edition: within 1", unless
/// the elevation difference exceeds the lower model's Sz; peons never
/// engage and are never engaged. 3rd edition: within the enemy's
/// engagement range (its longest melee action's range; a model without
/// one engages nothing) and in its LoS.
pub fn engaged_with(board: &Board, id: ObjectId) -> Result<Vec<ObjectId>, TableError> {
    let me = board.body(Target::Object(id))?;
    engaged_at(board, &me)
}

/// The enemies a model would be engaged with if its base were `me`.
pub fn engaged_at(board: &Board, me: &Body) -> Result<Vec<ObjectId>, TableError> {
    let engagement = board.rules().engagement;
    let fixed = matches!(engagement, Engagement::FixedRange { .. });
    // Peons neither engage nor are engaged where engagement is a fixed range.
    if fixed && me.peon {
        return Ok(Vec::new());
    }
    let mut engaged = Vec::new();
    for piece in &board.table.pieces {
        let Some(range) = engagement_range(board.edition, piece) else {
            continue;
        };
        let other = super::piece_body(piece);
        if other.seat == me.seat || other.id == me.id || !within(board.edition, me, &other, range) {
            continue;
        }
        let engages = match engagement {
            Engagement::FixedRange { .. } => {
                let lower = if me.z <= other.z { me } else { &other };
                !other.peon && (me.z - other.z).abs() <= lower.size + TOUCH
            }
            Engagement::MeleeRangeInSight => match me.id {
                Some(my_id) => {
                    sight::line_of_sight(board, Target::Object(piece.id), Target::Object(my_id))?
                }
                None => true,
            },
        };
        if engages {
            engaged.push(piece.id);
        }
    }
    Ok(engaged)
}

/// How far a model engages, in whole inches: 1" in 4th edition, its melee
/// reach in 3rd (none without a melee action).
pub fn engagement_inches(edition: Edition, melee_reach: Option<u8>) -> Option<u8> {
    match edition.rules().table.engagement {
        Engagement::FixedRange { inches } => Some(inches),
        Engagement::MeleeRangeInSight => melee_reach,
    }
}

/// How far `piece` engages, in inches (`engagement_inches`).
pub fn engagement_range(edition: Edition, piece: &super::Piece) -> Option<f64> {
    engagement_inches(edition, piece.engagement).map(f64::from)
}

/// The hazardous terrain a model suffers for acting while in it (one
/// entry per name). Once per activation is the turn sequence's to track.
pub fn hazards_while_acting(board: &Board, id: ObjectId) -> Result<Vec<String>, TableError> {
    let me = board.body(Target::Object(id))?;
    let mut names: Vec<String> = board
        .obstacles()
        .filter(|o| o.has(Trait::Hazardous) && o.affects(&me) && in_terrain(board.edition, &me, o))
        .map(|o| o.name.clone())
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// The models a pulse of `range` from `source` reaches: within range of its
/// base edge, excluding the source, and with LoS to the source.
pub fn pulse(board: &Board, source: ObjectId, range: f64) -> Result<Vec<ObjectId>, TableError> {
    let origin = board.body(Target::Object(source))?;
    let mut hit = Vec::new();
    for body in board.bodies() {
        let Some(id) = body.id else { continue };
        if id == source || !within(board.edition, &origin, &body, range) {
            continue;
        }
        if sight::line_of_sight(board, Target::Object(id), Target::Object(source))? {
            hit.push(id);
        }
    }
    Ok(hit)
}

/// The models and markers at least partly inside the area between the
/// `corners` (the convex hull of their bases), corners included.
pub fn area_between(board: &Board, corners: &[ObjectId]) -> Result<Vec<ObjectId>, TableError> {
    let shapes: Vec<Shape> = corners
        .iter()
        .map(|id| board.body(Target::Object(*id)).map(|b| b.shape()))
        .collect::<Result<_, _>>()?;
    let hull = super::geometry::from_geo(&hull_of(&shapes));
    let mut inside = Vec::new();
    let candidates = board
        .table
        .pieces
        .iter()
        .map(|p| p.id)
        .chain(board.table.markers.iter().map(|m| m.id));
    for id in candidates {
        let body = board.body(Target::Object(id))?;
        if hull.gap_to_disc(body.center, body.radius) <= TOUCH {
            inside.push(id);
        }
    }
    Ok(inside)
}

/// The four deployments of Encounter Setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deployment {
    Standard,
    Corner,
    Flank,
    Wedge,
}

/// A side of the table, with player A deploying at the bottom (y = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableEdge {
    Bottom,
    Right,
    Top,
    Left,
}

impl TableEdge {
    pub const ALL: [TableEdge; 4] = [
        TableEdge::Bottom,
        TableEdge::Right,
        TableEdge::Top,
        TableEdge::Left,
    ];
}

/// The parts of the table a deployment names, with player A deploying at
/// the bottom edge (y = 0) or the bottom-left corner or quarter. The seeds
/// show the centreline only in figures, so this follows their text: it
/// splits the two deployment zones (parallel to the deployment edges for
/// Standard and Wedge, the diagonal between the unused corners for Corner
/// and Flank).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub deployment: Deployment,
}

impl Layout {
    pub fn centerpoint() -> V2 {
        let half = inches(TABLE_SIZE) / 2.0;
        V2::new(half, half)
    }

    /// The centreline's two ends on the table edges.
    pub fn centerline(&self) -> (V2, V2) {
        let size = inches(TABLE_SIZE);
        match self.deployment {
            Deployment::Standard | Deployment::Wedge => {
                (V2::new(0.0, size / 2.0), V2::new(size, size / 2.0))
            }
            Deployment::Corner | Deployment::Flank => (V2::new(0.0, size), V2::new(size, 0.0)),
        }
    }

    /// The table half holding `seat`'s deployment zone.
    pub fn half(&self, seat: Seat) -> Shape {
        let s = inches(TABLE_SIZE);
        let points = match (self.deployment, seat) {
            (Deployment::Standard | Deployment::Wedge, Seat::A) => {
                vec![(0.0, 0.0), (s, 0.0), (s, s / 2.0), (0.0, s / 2.0)]
            }
            (Deployment::Standard | Deployment::Wedge, Seat::B) => {
                vec![(0.0, s / 2.0), (s, s / 2.0), (s, s), (0.0, s)]
            }
            (Deployment::Corner | Deployment::Flank, Seat::A) => {
                vec![(0.0, 0.0), (s, 0.0), (0.0, s)]
            }
            (Deployment::Corner | Deployment::Flank, Seat::B) => vec![(s, 0.0), (s, s), (0.0, s)],
        };
        Shape::Polygon {
            points: points.into_iter().map(|(x, y)| V2::new(x, y)).collect(),
        }
    }

    /// `seat`'s friendly table edges: every table edge its deployment zone
    /// touches along some length (Standard's strip runs from side to side,
    /// so it touches three), in the order bottom, right, top, left. The
    /// enemy's are the other seat's.
    pub fn friendly_edges(&self, seat: Seat) -> Vec<TableEdge> {
        let s = inches(TABLE_SIZE);
        let Shape::Polygon { points } = self.zone_outline(seat) else {
            return Vec::new();
        };
        let on = |edge: TableEdge, a: V2, b: V2| {
            let near = |v: f64, line: f64| (v - line).abs() <= TOUCH;
            let along = match edge {
                TableEdge::Bottom => near(a.y, 0.0) && near(b.y, 0.0),
                TableEdge::Right => near(a.x, s) && near(b.x, s),
                TableEdge::Top => near(a.y, s) && near(b.y, s),
                TableEdge::Left => near(a.x, 0.0) && near(b.x, 0.0),
            };
            along && a.dist(b) > TOUCH
        };
        TableEdge::ALL
            .into_iter()
            .filter(|edge| super::geometry::polygon_edges(&points).any(|(a, b)| on(*edge, a, b)))
            .collect()
    }

    /// Quarter 0 is bottom-left, then counter-clockwise.
    pub fn quarter(index: usize) -> Shape {
        let h = inches(TABLE_SIZE) / 2.0;
        let (x, y) = [(0.0, 0.0), (h, 0.0), (h, h), (0.0, h)][index % 4];
        Shape::Polygon {
            points: vec![
                V2::new(x, y),
                V2::new(x + h, y),
                V2::new(x + h, y + h),
                V2::new(x, y + h),
            ],
        }
    }

    /// The outline of `seat`'s deployment zone, for drawing: the same zone
    /// `in_deployment_zone` checks, with Corner's arc as 24 straight pieces.
    pub fn zone_outline(&self, seat: Seat) -> Shape {
        let s = inches(TABLE_SIZE);
        let for_a: Vec<(f64, f64)> = match self.deployment {
            Deployment::Standard => vec![(0.0, 0.0), (s, 0.0), (s, 8.0), (0.0, 8.0)],
            Deployment::Corner => {
                const PIECES: u32 = 24;
                let mut points = vec![(0.0, 0.0)];
                points.extend((0..=PIECES).map(|i| {
                    let angle = std::f64::consts::FRAC_PI_2 * f64::from(i) / f64::from(PIECES);
                    (12.0 * angle.cos(), 12.0 * angle.sin())
                }));
                points
            }
            Deployment::Flank => vec![
                (0.0, 0.0),
                (s / 2.0, 0.0),
                (s / 2.0, 9.0),
                (9.0, 9.0),
                (9.0, s / 2.0),
                (0.0, s / 2.0),
            ],
            Deployment::Wedge => vec![(0.0, 0.0), (s, 0.0), (s / 2.0, 12.0)],
        };
        // Player B's zone mirrors A's through the centre.
        let mirror = |(x, y): (f64, f64)| match seat {
            Seat::A => V2::new(x, y),
            Seat::B => V2::new(s - x, s - y),
        };
        Shape::Polygon {
            points: for_a.into_iter().map(mirror).collect(),
        }
    }

    /// Whether a base is wholly inside `seat`'s deployment zone.
    pub fn in_deployment_zone(&self, seat: Seat, body: &Body) -> bool {
        let s = inches(TABLE_SIZE);
        // Player B's zone mirrors A's through the centre.
        let p = match seat {
            Seat::A => body.center,
            Seat::B => V2::new(s - body.center.x, s - body.center.y),
        };
        let r = body.radius;
        match self.deployment {
            Deployment::Standard => p.y + r <= 8.0 + TOUCH,
            Deployment::Corner => p.len() + r <= 12.0 + TOUCH,
            Deployment::Flank => {
                let in_quarter = p.x + r <= s / 2.0 + TOUCH && p.y + r <= s / 2.0 + TOUCH;
                // Within 9" of the table edges: the quarter less its inner 9" square.
                let inner = Shape::Polygon {
                    points: vec![
                        V2::new(9.0, 9.0),
                        V2::new(18.0, 9.0),
                        V2::new(18.0, 18.0),
                        V2::new(9.0, 18.0),
                    ],
                };
                in_quarter && inner.gap_to_disc(p, r) >= -TOUCH
            }
            Deployment::Wedge => {
                let wedge = Shape::Polygon {
                    points: vec![V2::new(0.0, 0.0), V2::new(s, 0.0), V2::new(s / 2.0, 12.0)],
                };
                wedge.signed_distance(p) <= -r + TOUCH
            }
        }
    }
}

/// The models whose seat `wanted` accepts that are in base contact with a
/// marker called `name` (each once, in the table's order), sight lines
/// aside.
pub fn models_touching_markers_named(
    board: &Board,
    name: &str,
    wanted: impl Fn(Seat) -> bool,
) -> Vec<ObjectId> {
    let markers: Vec<Body> = board
        .table
        .markers
        .iter()
        .filter(|m| m.name == name)
        .map(|m| m.body())
        .collect();
    board
        .table
        .pieces
        .iter()
        .filter(|p| wanted(p.seat))
        .map(super::piece_body)
        .filter(|model| markers.iter().any(|m| base_contact(model, m)))
        .filter_map(|model| model.id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Body;

    fn body(x: f64, y: f64) -> Body {
        Body {
            id: None,
            center: V2::new(x, y),
            radius: 0.59,
            z: 0.0,
            size: 2.0,
            seat: None,
            peon: false,
        }
    }

    #[test]
    fn the_drawn_zones_are_the_zones_the_rules_check() {
        for deployment in [
            Deployment::Standard,
            Deployment::Corner,
            Deployment::Flank,
            Deployment::Wedge,
        ] {
            let layout = Layout { deployment };
            for seat in [Seat::A, Seat::B] {
                let outline = layout.zone_outline(seat);
                // Between the half-inch lines every straight edge lies on.
                for x in 0..72 {
                    for y in 0..72 {
                        let p = V2::new(f64::from(x) / 2.0 + 0.25, f64::from(y) / 2.0 + 0.25);
                        let distance = outline.signed_distance(p);
                        // Near the edge the arc's straight pieces may differ.
                        if distance.abs() < 0.1 {
                            continue;
                        }
                        let mut point = body(p.x, p.y);
                        point.radius = 0.0;
                        assert_eq!(
                            distance < 0.0,
                            layout.in_deployment_zone(seat, &point),
                            "{deployment:?} {seat:?} at {p:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn deployment_zones_and_halves() {
        let standard = Layout {
            deployment: Deployment::Standard,
        };
        assert!(standard.in_deployment_zone(Seat::A, &body(18.0, 7.0)));
        assert!(!standard.in_deployment_zone(Seat::A, &body(18.0, 7.6)));
        assert!(standard.in_deployment_zone(Seat::B, &body(18.0, 29.0)));
        assert!(standard.half(Seat::A).signed_distance(V2::new(5.0, 17.0)) < 0.0);
        assert!(standard.half(Seat::B).signed_distance(V2::new(5.0, 19.0)) < 0.0);
        let corner = Layout {
            deployment: Deployment::Corner,
        };
        assert!(corner.in_deployment_zone(Seat::A, &body(7.0, 7.0)));
        assert!(!corner.in_deployment_zone(Seat::A, &body(9.0, 9.0)));
        assert!(corner.in_deployment_zone(Seat::B, &body(29.0, 29.0)));
        assert_eq!(
            corner.centerline(),
            (V2::new(0.0, 36.0), V2::new(36.0, 0.0))
        );
        let flank = Layout {
            deployment: Deployment::Flank,
        };
        assert!(flank.in_deployment_zone(Seat::A, &body(3.0, 15.0)));
        assert!(!flank.in_deployment_zone(Seat::A, &body(13.0, 13.0)));
        let wedge = Layout {
            deployment: Deployment::Wedge,
        };
        assert!(wedge.in_deployment_zone(Seat::A, &body(18.0, 5.0)));
        assert!(!wedge.in_deployment_zone(Seat::A, &body(3.0, 5.0)));
        assert_eq!(Layout::centerpoint(), V2::new(18.0, 18.0));
        assert!(Layout::quarter(2).signed_distance(V2::new(27.0, 27.0)) < 0.0);
    }
}
