//! The battlefield's geometry: bases, facing and arcs, base contact,
//! terrain, movement paths and lines of fire. Positions are stored on the
//! table's grid (thousandths of an inch, [`Point`]) and become inches only
//! for the arithmetic, as on the Malifaux table.

use serde::{Deserialize, Serialize};

use super::warrior::SpeedType;
use crate::Seat;
use crate::table::geometry::{Shape, V2, distance_to_segment};
use crate::table::{Milli, Point, inches};

/// The standard battlefield is 3 feet square.
pub const SIZE: f64 = 36.0;
/// Every warrior's base, in inches across (the rules give no figure; this
/// is ours, see `docs/engine.md`).
pub const BASE: f64 = 1.25;
pub const BASE_RADIUS: f64 = BASE / 2.0;
/// An objective token, in inches across (ours too).
pub const OBJECTIVE: f64 = 1.5;
/// Half the front arc's angle, in degrees (ours: a 120° front arc; the
/// rest of the base is its rear arc).
pub const FRONT_ARC_HALF: f64 = 60.0;
/// How far apart two bases may be and still touch, in inches: commands
/// are written on a grid of thousandths, and players aim by hand.
pub const CONTACT: f64 = 0.02;
/// A deployment area is this deep from its edge...
pub const DEPLOYMENT_DEPTH: f64 = 3.0;
/// ...and at least this far from the other edges.
pub const DEPLOYMENT_MARGIN: f64 = 8.0;
/// The most points a movement path may bend at.
pub const MAX_WAYPOINTS: usize = 8;

/// A terrain feature's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// Open ground: a feature only when it is raised (a hill).
    Clear,
    Hindering,
    /// Clear for movement, hindering for lines of fire.
    Concealing,
    Blocking,
    /// Blocking for movement, clear for lines of fire.
    Chasm,
    /// Hindering for movement, clear for lines of fire.
    ShallowWater,
    /// Blocking for movement, clear for lines of fire.
    DeepWater,
}

impl TerrainKind {
    pub fn words(self) -> &'static str {
        match self {
            TerrainKind::Clear => "clear",
            TerrainKind::Hindering => "hindering",
            TerrainKind::Concealing => "concealing",
            TerrainKind::Blocking => "blocking",
            TerrainKind::Chasm => "chasm",
            TerrainKind::ShallowWater => "shallow water",
            TerrainKind::DeepWater => "deep water",
        }
    }

    fn is_water(self) -> bool {
        matches!(self, TerrainKind::ShallowWater | TerrainKind::DeepWater)
    }

    /// Whether a warrior moving with `speed` may not cross or stand in it.
    pub fn blocks_movement(self, speed: SpeedType) -> bool {
        match self {
            TerrainKind::Blocking | TerrainKind::Chasm => true,
            TerrainKind::DeepWater => speed != SpeedType::Wave,
            _ => false,
        }
    }

    /// Whether it slows a warrior moving with `speed`.
    pub fn hinders_movement(self, speed: SpeedType) -> bool {
        match self {
            TerrainKind::Hindering => true,
            TerrainKind::ShallowWater => speed != SpeedType::Wave,
            _ => false,
        }
    }

    pub fn blocks_fire(self) -> bool {
        self == TerrainKind::Blocking
    }

    pub fn hinders_fire(self) -> bool {
        matches!(self, TerrainKind::Hindering | TerrainKind::Concealing)
    }
}

/// A feature's outline, on the grid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Outline {
    Circle { center: Point, radius: Milli },
    Polygon { points: Vec<Point> },
}

/// How high a feature stands: every elevated feature is at the same
/// level above the battlefield.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "level", rename_all = "snake_case")]
pub enum Elevation {
    #[default]
    Ground,
    /// Gradual slopes up to a flat top.
    Elevated,
    /// Cliffs or walls: warriors move onto or off it only at its access
    /// points (at least one).
    Abrupt { access: Vec<Point> },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Feature {
    pub name: String,
    pub kind: TerrainKind,
    pub outline: Outline,
    #[serde(default, skip_serializing_if = "Elevation::is_ground")]
    pub elevation: Elevation,
    /// Built from a constructed terrain card: it can be attacked and
    /// eliminated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construction: Option<super::constructed::Construction>,
}

impl Elevation {
    pub fn is_ground(&self) -> bool {
        *self == Elevation::Ground
    }
}

/// How near an access point a path must cross an abrupt feature's edge.
pub const ACCESS_REACH: f64 = BASE_RADIUS;

impl Feature {
    pub fn shape(&self) -> Shape {
        match &self.outline {
            Outline::Circle { center, radius } => Shape::Circle {
                center: center.v2(),
                radius: inches(*radius),
            },
            Outline::Polygon { points } => Shape::Polygon {
                points: points.iter().map(|p| p.v2()).collect(),
            },
        }
    }

    /// Whether a warrior whose center dot is at `at` occupies it.
    pub fn occupied_from(&self, at: V2) -> bool {
        self.shape().signed_distance(at) < 0.0
    }

    pub fn is_elevated(&self) -> bool {
        !self.elevation.is_ground()
    }

    /// Why the feature cannot be on a battlefield, if it cannot: only
    /// clear, hindering and blocking terrain is raised, and abrupt
    /// terrain needs an access point on its edge.
    pub fn problem(&self) -> Option<String> {
        let raisable = matches!(
            self.kind,
            TerrainKind::Clear | TerrainKind::Hindering | TerrainKind::Blocking
        );
        if self.is_elevated() && !raisable {
            return Some(format!(
                "{}: only clear, hindering and blocking terrain can be elevated",
                self.name
            ));
        }
        if !self.is_elevated() && self.kind == TerrainKind::Clear {
            return Some(format!(
                "{}: clear terrain is a feature only when elevated",
                self.name
            ));
        }
        if let Elevation::Abrupt { access } = &self.elevation {
            let shape = self.shape();
            if access.is_empty() {
                return Some(format!(
                    "{}: abrupt elevated terrain needs at least one access point",
                    self.name
                ));
            }
            if access
                .iter()
                .any(|p| shape.signed_distance(p.v2()).abs() > ACCESS_REACH)
            {
                return Some(format!(
                    "{}: an access point lies on the feature's edge",
                    self.name
                ));
            }
        }
        None
    }

    pub fn is_water(&self) -> bool {
        self.kind.is_water()
    }
}

/// A facing in whole degrees, counterclockwise from the +x direction.
pub fn facing_vector(degrees: u16) -> V2 {
    let radians = f64::from(degrees % 360).to_radians();
    V2::new(radians.cos(), radians.sin())
}

/// The facing (whole degrees) from `from` toward `to`.
pub fn facing_toward(from: V2, to: V2) -> u16 {
    let d = to.minus(from);
    let degrees = d.y.atan2(d.x).to_degrees().round();
    (degrees.rem_euclid(360.0) as u16) % 360
}

/// Whether `point` is in the front arc of a base at `at` facing `facing`.
pub fn in_front_arc(at: V2, facing: u16, point: V2) -> bool {
    let to = point.minus(at).unit();
    let cos = to.dot(facing_vector(facing));
    cos >= (FRONT_ARC_HALF + 0.5).to_radians().cos()
}

/// Whether two bases touch (or overlap).
pub fn in_contact(a: V2, b: V2) -> bool {
    a.dist(b) <= BASE + CONTACT
}

/// Whether two bases overlap more than aiming by hand allows.
pub fn overlapping(a: V2, b: V2) -> bool {
    a.dist(b) < BASE - CONTACT
}

/// Whether a base centred at `at` touches an objective token at `token`.
pub fn touches_objective(at: V2, token: V2) -> bool {
    at.dist(token) <= BASE_RADIUS + OBJECTIVE / 2.0 + CONTACT
}

/// Whether a base centred at `at` lies wholly on the battlefield.
pub fn on_battlefield(at: V2) -> bool {
    let r = BASE_RADIUS - CONTACT;
    at.x >= r && at.y >= r && at.x <= SIZE - r && at.y <= SIZE - r
}

/// Whether a center dot at `at` lies in `seat`'s deployment area (seat A
/// along the bottom edge, B along the top).
pub fn in_deployment_area(seat: Seat, at: V2) -> bool {
    let across = (DEPLOYMENT_MARGIN..=SIZE - DEPLOYMENT_MARGIN).contains(&at.x);
    let deep = match seat {
        Seat::A => (0.0..=DEPLOYMENT_DEPTH).contains(&at.y),
        Seat::B => (SIZE - DEPLOYMENT_DEPTH..=SIZE).contains(&at.y),
    };
    across && deep
}

/// How far from its own edge `seat`'s deployment area's far edge lies,
/// measured as a y coordinate: an objective `distance` inches beyond it.
pub fn objective_line(seat: Seat, distance: u8) -> f64 {
    match seat {
        Seat::A => DEPLOYMENT_DEPTH + f64::from(distance),
        Seat::B => SIZE - DEPLOYMENT_DEPTH - f64::from(distance),
    }
}

/// The length of a path through `points`.
pub fn path_length(points: &[V2]) -> f64 {
    points.windows(2).map(|w| w[0].dist(w[1])).sum()
}

/// Whether a movement path's line passes through a base at `other`
/// (grazing its edge is allowed, as touching it is).
pub fn path_crosses_base(a: V2, b: V2, other: V2) -> bool {
    distance_to_segment(other, a, b) < BASE_RADIUS - CONTACT
}

/// Whether a segment passes between two bases in contact: it crosses the
/// line joining their centers.
pub fn passes_between(a: V2, b: V2, p: V2, q: V2) -> bool {
    let d1 = b.minus(a).cross(p.minus(a));
    let d2 = b.minus(a).cross(q.minus(a));
    let d3 = q.minus(p).cross(a.minus(p));
    let d4 = q.minus(p).cross(b.minus(p));
    (d1 * d2 < 0.0) && (d3 * d4 < 0.0)
}

/// Whether a line of fire between two centers is blocked by a base at
/// `other` (any overlap with the base blocks it).
pub fn fire_crosses_base(a: V2, b: V2, other: V2) -> bool {
    distance_to_segment(other, a, b) < BASE_RADIUS - CONTACT
}

/// Whether the segment enters `shape` (more than grazing it).
pub fn segment_enters(shape: &Shape, a: V2, b: V2) -> bool {
    shape.crossed_by(a, b) || shape.signed_distance(a) < 0.0 || shape.signed_distance(b) < 0.0
}

/// Whether the part of a line of fire beyond the attacker's base enters
/// `shape`: firing from the edge of hindering terrain is not hindered.
pub fn fire_enters_beyond_attacker(shape: &Shape, attacker: V2, target: V2) -> bool {
    let length = attacker.dist(target);
    if length <= BASE_RADIUS {
        return false;
    }
    let start = attacker.lerp(target, BASE_RADIUS / length);
    segment_enters(shape, start, target)
}

/// Whether a base at `at` overlaps `shape`.
pub fn base_overlaps(shape: &Shape, at: V2) -> bool {
    shape.gap_to_disc(at, BASE_RADIUS) < -CONTACT
}

/// Whether a base at `at` lies wholly inside `shape`.
pub fn base_inside(shape: &Shape, at: V2) -> bool {
    shape.signed_distance(at) <= -BASE_RADIUS
}

/// Terrain for a game whose players did not place their own: up to four
/// features from `seed`, each at least 3" from the others, from every
/// edge and from the far edges of the deployment areas, as the rules'
/// placement asks (ours: the kinds and sizes; see `docs/engine.md`).
pub fn seeded_terrain(seed: u64) -> Vec<Feature> {
    let mut stream = soulstone_random::RandomStream::from_seed_and_label(seed, "mk-terrain");
    let mut kinds = vec![
        ("a wood", TerrainKind::Hindering),
        ("tall grass", TerrainKind::Concealing),
        ("a boulder", TerrainKind::Blocking),
        ("a pond", TerrainKind::ShallowWater),
        ("a ruin", TerrainKind::Blocking),
        ("a thicket", TerrainKind::Hindering),
    ];
    let mut placed: Vec<(V2, f64)> = Vec::new();
    let mut features = Vec::new();
    for _ in 0..40 {
        if features.len() == 4 {
            break;
        }
        let radius = 1.5 + f64::from(stream.below(4)) * 0.5;
        let low = DEPLOYMENT_DEPTH + 3.0 + radius;
        let span = |low: f64, high: f64, stream: &mut soulstone_random::RandomStream| {
            low + f64::from(stream.below(1000)) / 1000.0 * (high - low)
        };
        let center = V2::new(
            span(3.0 + radius, SIZE - 3.0 - radius, &mut stream),
            span(low, SIZE - low, &mut stream),
        );
        if placed
            .iter()
            .any(|(other, r)| other.dist(center) < radius + r + 3.0)
        {
            continue;
        }
        // Each kind once, so the features' names tell them apart.
        let (name, kind) = kinds.remove(stream.below(kinds.len() as u32) as usize);
        placed.push((center, radius));
        features.push(Feature {
            name: name.to_owned(),
            kind,
            outline: Outline::Circle {
                center: Point::from_v2(center),
                radius: crate::table::milli(radius),
            },
            elevation: Elevation::Ground,
            construction: None,
        });
    }
    features
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arcs_contact_and_deployment() {
        let at = V2::new(10.0, 10.0);
        assert!(in_front_arc(at, 90, V2::new(10.0, 12.0)));
        assert!(in_front_arc(at, 90, V2::new(11.0, 11.8)), "within 60°");
        assert!(!in_front_arc(at, 90, V2::new(12.0, 10.5)), "beside it");
        assert!(!in_front_arc(at, 90, V2::new(10.0, 8.0)), "behind it");
        assert_eq!(facing_toward(at, V2::new(10.0, 5.0)), 270);
        assert!(in_contact(at, V2::new(11.25, 10.0)));
        assert!(!in_contact(at, V2::new(11.4, 10.0)));
        assert!(overlapping(at, V2::new(11.0, 10.0)));
        assert!(in_deployment_area(Seat::A, V2::new(8.0, 1.0)));
        assert!(!in_deployment_area(Seat::A, V2::new(7.9, 1.0)));
        assert!(in_deployment_area(Seat::B, V2::new(18.0, 34.0)));
        assert!(!in_deployment_area(Seat::B, V2::new(18.0, 32.9)));
        for seed in 0..50 {
            let terrain = seeded_terrain(seed);
            assert!(!terrain.is_empty());
            for (i, f) in terrain.iter().enumerate() {
                let Outline::Circle { center, radius } = &f.outline else {
                    panic!("circles")
                };
                let (c, r) = (center.v2(), inches(*radius));
                assert!(c.x - r >= 3.0 - 1e-6 && c.x + r <= SIZE - 3.0 + 1e-6);
                assert!(c.y - r >= DEPLOYMENT_DEPTH + 3.0 - 1e-3);
                for g in &terrain[i + 1..] {
                    let Outline::Circle {
                        center: d,
                        radius: s,
                    } = &g.outline
                    else {
                        panic!("circles")
                    };
                    assert!(c.dist(d.v2()) >= r + inches(*s) + 3.0 - 1e-3);
                }
            }
        }
        assert!(passes_between(
            V2::new(0.0, 0.0),
            V2::new(2.0, 0.0),
            V2::new(1.0, -1.0),
            V2::new(1.0, 1.0)
        ));
    }
}
