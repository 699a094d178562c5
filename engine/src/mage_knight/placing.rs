//! Terrain placed by the players (rulebook 128, 134–139). Each player
//! brings up to four features to one pile; once the objective tokens are
//! down, the player after the first player takes any feature from the
//! pile and places it, then the other, in turn, until four are placed or
//! the pile is empty. Each goes at least 3" from every other feature,
//! every objective token, every battlefield edge and the far edge of each
//! deployment area. A player none of whose pile fits anywhere passes, and
//! the placing ends. A player who places a constructed feature may place
//! a second one in the same turn (the pair counts as one feature), or
//! pass to place none (see [`super::constructed`]).

use serde::{Deserialize, Serialize};

use super::battlefield::{
    DEPLOYMENT_DEPTH, DEPLOYMENT_MARGIN, Elevation, Feature, OBJECTIVE, Outline, SIZE, TerrainKind,
};
use super::constructed::Construction;
use super::game::Battle;
use crate::table::geometry::{Shape, V2, distance_to_segment, polygon_edges, segment_distance};
use crate::table::{Point, milli};
use crate::{RuleError, Seat};

/// The most features a player brings to the pile, and the most placed.
pub const MAX_BROUGHT: usize = 4;
pub const MAX_PLACED: u8 = 4;
/// How far a placed feature stays from everything else, in inches.
pub const GAP: f64 = 3.0;
/// How much nearer than [`GAP`] a typed point may put it: points are typed
/// by hand on a grid of thousandths.
const SLACK: f64 = 0.02;

/// Takes feature number `feature` from the pile and places it with its
/// centre at `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceTerrain {
    pub feature: u8,
    pub at: Point,
}

/// A feature an army file brings: round, `across` inches wide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainPiece {
    pub name: String,
    pub kind: TerrainKind,
    /// Its diameter, in inches (2 to 10).
    pub across: u8,
    /// A hill or a raised wood: elevated terrain (clear, hindering or
    /// blocking).
    #[serde(default)]
    pub elevated: bool,
    /// A constructed terrain card's values: a feature that can be
    /// attacked and eliminated (brought beside the other four).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construction: Option<Construction>,
}

impl TerrainPiece {
    /// The feature, centred on the battlefield's corner until placed.
    pub fn feature(&self) -> Feature {
        Feature {
            name: self.name.clone(),
            kind: self.kind,
            outline: Outline::Circle {
                center: Point { x: 0, y: 0 },
                radius: milli(f64::from(self.across) / 2.0),
            },
            elevation: if self.elevated {
                Elevation::Elevated
            } else {
                Elevation::Ground
            },
            construction: self.construction,
        }
    }

    /// What is wrong with it, and in which field (a construction's
    /// fields are named inside it: `construction.defense`).
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if !(2..=10).contains(&self.across) {
            return Some((
                "across",
                format!("{}: a terrain feature is 2 to 10 inches across", self.name),
            ));
        }
        if let Some((field, problem)) = self.construction.as_ref().and_then(Construction::problem) {
            return Some((field, format!("{}: {problem}", self.name)));
        }
        self.feature().problem().map(|p| ("kind", p))
    }
}

/// The terrain on the battlefield before the players place any: none when
/// either army brings features to the pile (the players place them), else
/// the seeded features standing in for a pile.
pub fn laid_before(armies: &[super::game::Army; 2], seed: u64) -> Vec<Feature> {
    if armies.iter().any(|a| !a.terrain.is_empty()) {
        Vec::new()
    } else {
        super::battlefield::seeded_terrain(seed)
    }
}

/// Where a shape's centre is: a circle's, or a polygon's bounding circle's.
fn centre(feature: &Feature) -> V2 {
    feature.shape().bounding_circle().0
}

/// The feature moved whole (with its access points) so its centre is at
/// `at`.
pub fn moved_to(feature: &Feature, at: Point) -> Feature {
    let offset = at.v2().minus(centre(feature));
    let shift = |p: &Point| Point::from_v2(p.v2().plus(offset));
    let outline = match &feature.outline {
        Outline::Circle { radius, .. } => Outline::Circle {
            center: at,
            radius: *radius,
        },
        Outline::Polygon { points } => Outline::Polygon {
            points: points.iter().map(shift).collect(),
        },
    };
    let elevation = match &feature.elevation {
        Elevation::Abrupt { access } => Elevation::Abrupt {
            access: access.iter().map(shift).collect(),
        },
        other => other.clone(),
    };
    Feature {
        name: feature.name.clone(),
        kind: feature.kind,
        outline,
        elevation,
        construction: feature.construction,
    }
}

/// The gap between two shapes (0 where they touch or overlap).
pub fn gap(a: &Shape, b: &Shape) -> f64 {
    match (a, b) {
        (Shape::Circle { center, radius }, other) | (other, Shape::Circle { center, radius }) => {
            other.gap_to_disc(*center, *radius).max(0.0)
        }
        (Shape::Polygon { points: p }, Shape::Polygon { points: q }) => {
            if p.iter().any(|v| b.signed_distance(*v) <= 0.0)
                || q.iter().any(|v| a.signed_distance(*v) <= 0.0)
            {
                return 0.0;
            }
            polygon_edges(p)
                .flat_map(|(a1, a2)| polygon_edges(q).map(move |(b1, b2)| (a1, a2, b1, b2)))
                .map(|(a1, a2, b1, b2)| segment_distance(a1, a2, b1, b2))
                .fold(f64::INFINITY, f64::min)
        }
    }
}

/// The gap between a shape and the segment `p`–`q`.
fn gap_to_segment(shape: &Shape, p: V2, q: V2) -> f64 {
    match shape {
        Shape::Circle { center, radius } => (distance_to_segment(*center, p, q) - radius).max(0.0),
        Shape::Polygon { points } => polygon_edges(points)
            .map(|(a, b)| segment_distance(a, b, p, q))
            .fold(f64::INFINITY, f64::min),
    }
}

/// How far a shape comes to the battlefield's edges: the least of its
/// four gaps (negative when it hangs over one).
fn gap_to_edges(shape: &Shape) -> f64 {
    let (low, high) = match shape {
        Shape::Circle { center, radius } => (
            V2::new(center.x - radius, center.y - radius),
            V2::new(center.x + radius, center.y + radius),
        ),
        Shape::Polygon { points } => points.iter().fold(
            (V2::new(f64::MAX, f64::MAX), V2::new(f64::MIN, f64::MIN)),
            |(lo, hi), p| {
                (
                    V2::new(lo.x.min(p.x), lo.y.min(p.y)),
                    V2::new(hi.x.max(p.x), hi.y.max(p.y)),
                )
            },
        ),
    };
    low.x.min(low.y).min(SIZE - high.x).min(SIZE - high.y)
}

/// The far edge of `seat`'s deployment area.
fn far_edge(seat: Seat) -> (V2, V2) {
    let y = match seat {
        Seat::A => DEPLOYMENT_DEPTH,
        Seat::B => SIZE - DEPLOYMENT_DEPTH,
    };
    (
        V2::new(DEPLOYMENT_MARGIN, y),
        V2::new(SIZE - DEPLOYMENT_MARGIN, y),
    )
}

/// What a feature would stand too near, and how near (inches).
enum Clash<'a> {
    Edge(f64),
    FarEdge(Seat, f64),
    Objective(usize, f64),
    Feature(&'a str, f64),
}

impl Clash<'_> {
    /// The refusal, in words: made only when a player is told, not for
    /// every spot a bot or the page tries.
    fn words(&self, name: &str) -> String {
        match self {
            Clash::Edge(gap) => format!(
                "{name} would be {:.1}\" from the battlefield's edge: terrain goes at least 3\" from every edge",
                gap.max(0.0)
            ),
            Clash::FarEdge(seat, gap) => format!(
                "{name} would be {gap:.1}\" from the far edge of {}'s deployment area: terrain goes at least 3\" from it",
                seat.label()
            ),
            Clash::Objective(i, gap) => format!(
                "{name} would be {gap:.1}\" from objective {}: terrain goes at least 3\" from every objective token",
                i + 1
            ),
            Clash::Feature(other, gap) => format!(
                "{name} would be {gap:.1}\" from {other}: terrain goes at least 3\" from every other feature"
            ),
        }
    }
}

/// What `feature` would stand too near where it is, if anything.
fn misplaced<'a>(battle: &'a Battle, feature: &Feature) -> Option<Clash<'a>> {
    let shape = feature.shape();
    let near = |gap: f64| gap < GAP - SLACK;
    let edges = gap_to_edges(&shape);
    if near(edges) {
        return Some(Clash::Edge(edges));
    }
    for seat in Seat::BOTH {
        let (p, q) = far_edge(seat);
        let g = gap_to_segment(&shape, p, q);
        if near(g) {
            return Some(Clash::FarEdge(seat, g));
        }
    }
    for (i, objective) in battle.objectives.iter().enumerate() {
        let g = shape
            .gap_to_disc(objective.at.v2(), OBJECTIVE / 2.0)
            .max(0.0);
        if near(g) {
            return Some(Clash::Objective(i, g));
        }
    }
    // Constructed terrain may stand near other constructed terrain.
    let both_constructed =
        |other: &Feature| feature.construction.is_some() && other.construction.is_some();
    for other in battle.terrain.iter().filter(|o| !both_constructed(o)) {
        let g = gap(&shape, &other.shape());
        if near(g) {
            return Some(Clash::Feature(&other.name, g));
        }
    }
    None
}

/// Whether a placement is allowed, without the words of a refusal (a
/// bot tries many spots).
pub fn fits(battle: &Battle, order: &PlaceTerrain) -> bool {
    battle
        .pile
        .get(usize::from(order.feature))
        .filter(|f| placeable_now(battle, f))
        .is_some_and(|f| misplaced(battle, &moved_to(f, order.at)).is_none())
}

/// Checks a placement: the feature where it would stand.
pub fn check(battle: &Battle, order: &PlaceTerrain) -> Result<Feature, RuleError> {
    let Some(feature) = battle.pile.get(usize::from(order.feature)) else {
        return Err(RuleError::invalid(format!(
            "the pile holds {} features: there is no feature {}",
            battle.pile.len(),
            order.feature + 1
        )));
    };
    if !placeable_now(battle, feature) {
        return Err(RuleError::not_allowed(format!(
            "{} is not constructed terrain: the second piece placed in a turn is constructed terrain (or pass to place none)",
            feature.name
        )));
    }
    let placed = moved_to(feature, order.at);
    match misplaced(battle, &placed) {
        Some(clash) => Err(RuleError::not_allowed(clash.words(&placed.name))),
        None => Ok(placed),
    }
}

/// Where feature `index` of the pile may go, on a grid of whole inches,
/// from the battlefield's centre out.
pub fn spots(battle: &Battle, index: u8) -> Vec<Point> {
    let Some(feature) = battle.pile.get(usize::from(index)) else {
        return Vec::new();
    };
    if !placeable_now(battle, feature) {
        return Vec::new();
    }
    let middle = V2::new(SIZE / 2.0, SIZE / 2.0);
    let mut found: Vec<Point> = grid()
        .filter(|at| misplaced(battle, &moved_to(feature, *at)).is_none())
        .collect();
    found.sort_by(|a, b| a.v2().dist(middle).total_cmp(&b.v2().dist(middle)));
    found
}

/// Whether any feature left in the pile fits anywhere (on the grid of
/// [`spots`]): if none does, the player may pass and the placing ends.
pub fn any_fits(battle: &Battle) -> bool {
    placeable(battle)
        .any(|feature| grid().any(|at| misplaced(battle, &moved_to(feature, at)).is_none()))
}

/// The features of the pile that may be placed now.
fn placeable(battle: &Battle) -> impl Iterator<Item = &Feature> {
    battle.pile.iter().filter(|f| placeable_now(battle, f))
}

/// Whether `feature` may be placed now: any may, but the second piece of
/// a turn is constructed terrain.
fn placeable_now(battle: &Battle, feature: &Feature) -> bool {
    !battle.second_constructed || feature.construction.is_some()
}

/// The whole inches a feature's centre may stand on: none nearer an edge
/// than the gap every feature keeps from it.
pub const GRID: std::ops::RangeInclusive<u16> = 3..=33;

fn grid() -> impl Iterator<Item = Point> {
    GRID.flat_map(|x| GRID.map(move |y| Point::from_v2(V2::new(f64::from(x), f64::from(y)))))
}

/// The stage after the objective tokens or a placement: the next player's
/// placement, or the first player's deployment. The second piece of a
/// constructed pair is the same player's.
pub fn next(battle: &Battle, placed_by: Option<Seat>) -> super::game::Stage {
    use super::game::Stage;
    let first = battle.first.unwrap_or(Seat::A);
    let done = battle.placed_terrain >= MAX_PLACED || battle.pile.is_empty();
    match placed_by {
        Some(seat) if battle.second_constructed => Stage::PlacingTerrain { seat },
        _ if done => super::domains::after_terrain(battle),
        // The player after the first player places first.
        None => Stage::PlacingTerrain {
            seat: first.other(),
        },
        Some(seat) => Stage::PlacingTerrain { seat: seat.other() },
    }
}
