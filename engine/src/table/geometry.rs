//! Plane geometry in inches (f64) for the table rules. Positions are stored
//! as integers (see [`super::Milli`]); they become f64 only here, for the
//! computation, so a saved game replays identically.
//!
//! One tolerance decides every "touching" question: [`TOUCH`]. Two shapes
//! whose gap is at most `TOUCH` touch; a line passes *through* a shape only
//! when it goes deeper than `TOUCH` into it. `TOUCH` is the storage grid
//! (a thousandth of an inch), so anything placed on the grid to touch does.

use geo::{BooleanOps, ConvexHull, MultiPoint, Polygon as GeoPolygon};

/// The tolerance for "touching", in inches (see the module docs).
pub const TOUCH: f64 = 0.001;

/// Circles become polygons of this many sides where geo needs polygons
/// (support areas, the area between). The largest common base (50 mm) then
/// loses under 0.0005" at its edge, below [`TOUCH`].
pub const CIRCLE_SIDES: usize = 96;

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl V2 {
    pub const fn new(x: f64, y: f64) -> Self {
        V2 { x, y }
    }
    pub fn plus(self, o: V2) -> V2 {
        V2::new(self.x + o.x, self.y + o.y)
    }
    pub fn minus(self, o: V2) -> V2 {
        V2::new(self.x - o.x, self.y - o.y)
    }
    pub fn scale(self, k: f64) -> V2 {
        V2::new(self.x * k, self.y * k)
    }
    pub fn dot(self, o: V2) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub fn cross(self, o: V2) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub fn len(self) -> f64 {
        self.dot(self).sqrt()
    }
    pub fn dist(self, o: V2) -> f64 {
        self.minus(o).len()
    }
    /// The unit vector, or zero for a zero vector.
    pub fn unit(self) -> V2 {
        let l = self.len();
        if l < 1e-12 {
            V2::default()
        } else {
            self.scale(1.0 / l)
        }
    }
    /// A point along the segment from `self` to `o`.
    pub fn lerp(self, o: V2, t: f64) -> V2 {
        self.plus(o.minus(self).scale(t))
    }
}

/// A footprint seen from above: a base, a marker or a terrain piece.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Circle {
        center: V2,
        radius: f64,
    },
    /// A simple polygon (convex or not), vertices in either order.
    Polygon {
        points: Vec<V2>,
    },
}

impl Shape {
    /// A circle of the same radius as the smallest circle around the shape:
    /// a cheap first test before the exact one.
    pub fn bounding_circle(&self) -> (V2, f64) {
        match self {
            Shape::Circle { center, radius } => (*center, *radius),
            Shape::Polygon { points } => {
                let n = points.len().max(1) as f64;
                let sum = points.iter().fold(V2::default(), |acc, p| acc.plus(*p));
                let centre = sum.scale(1.0 / n);
                let radius = points.iter().map(|p| p.dist(centre)).fold(0.0, f64::max);
                (centre, radius)
            }
        }
    }

    /// The distance from `p` to the shape: negative inside (minus the
    /// distance to the boundary), zero on it, positive outside.
    pub fn signed_distance(&self, p: V2) -> f64 {
        match self {
            Shape::Circle { center, radius } => p.dist(*center) - radius,
            Shape::Polygon { points } => {
                let boundary = polygon_edges(points)
                    .map(|(a, b)| distance_to_segment(p, a, b))
                    .fold(f64::INFINITY, f64::min);
                if point_in_polygon(p, points) {
                    -boundary
                } else {
                    boundary
                }
            }
        }
    }

    /// The gap between a disc and the shape: negative when they overlap.
    pub fn gap_to_disc(&self, center: V2, radius: f64) -> f64 {
        self.signed_distance(center) - radius
    }

    /// Whether the segment comes within [`TOUCH`] of the shape: grazing a
    /// base or the corner of a wall counts (the rulebook's 30 mm model
    /// placed perfectly between two others blocks them).
    pub fn touched_by(&self, a: V2, b: V2) -> bool {
        match self {
            Shape::Circle { center, radius } => distance_to_segment(*center, a, b) < radius + TOUCH,
            Shape::Polygon { points } => {
                point_in_polygon(a, points)
                    || polygon_edges(points).any(|(p, q)| segment_distance(a, b, p, q) < TOUCH)
            }
        }
    }

    /// Whether the segment goes into the shape deeper than [`TOUCH`].
    pub fn crossed_by(&self, a: V2, b: V2) -> bool {
        match self {
            Shape::Circle { center, radius } => distance_to_segment(*center, a, b) < radius - TOUCH,
            Shape::Polygon { points } => {
                inside_intervals(a, b, points, |p| self.signed_distance(p) < -TOUCH)
                    .next()
                    .is_some()
            }
        }
    }

    /// How much of the segment lies inside the shape, in inches.
    pub fn length_inside(&self, a: V2, b: V2) -> f64 {
        let total = a.dist(b);
        match self {
            Shape::Circle { center, radius } => {
                let (t0, t1) = match line_circle(a, b, *center, *radius) {
                    Some(interval) => interval,
                    None => return 0.0,
                };
                (t1.min(1.0) - t0.max(0.0)).max(0.0) * total
            }
            Shape::Polygon { points } => {
                inside_intervals(a, b, points, |p| point_in_polygon(p, points))
                    .map(|(t0, t1)| (t1 - t0) * total)
                    .sum()
            }
        }
    }

    /// The parts of the segment `a`→`b` (as parameters in 0..=1) during
    /// which a disc of `radius` moving along it overlaps the shape deeper
    /// than [`TOUCH`]. Sorted, disjoint.
    pub fn swept_overlap(&self, a: V2, b: V2, radius: f64) -> Vec<(f64, f64)> {
        let reach = radius - TOUCH;
        let mut intervals: Vec<(f64, f64)> = Vec::new();
        match self {
            Shape::Circle { center, radius: r } => {
                intervals.extend(
                    line_circle(a, b, *center, r + reach)
                        .map(clamp_unit)
                        .filter(nonempty),
                );
            }
            Shape::Polygon { points } => {
                if reach > 0.0 {
                    for (p, q) in polygon_edges(points) {
                        if let Some(interval) = line_capsule(a, b, p, q, reach) {
                            intervals.extend(Some(clamp_unit(interval)).filter(nonempty));
                        }
                    }
                }
                intervals.extend(inside_intervals(a, b, points, |p| {
                    point_in_polygon(p, points)
                }));
            }
        }
        merge_intervals(intervals)
    }

    /// The shape as a geo polygon (circles as [`CIRCLE_SIDES`]-gons).
    pub fn to_geo(&self) -> GeoPolygon<f64> {
        match self {
            Shape::Circle { center, radius } => geo_circle(*center, *radius),
            Shape::Polygon { points } => GeoPolygon::new(
                points
                    .iter()
                    .map(|p| geo::coord! { x: p.x, y: p.y })
                    .collect(),
                vec![],
            ),
        }
    }

    pub fn area(&self) -> f64 {
        match self {
            Shape::Circle { radius, .. } => std::f64::consts::PI * radius * radius,
            Shape::Polygon { points } => {
                polygon_edges(points)
                    .map(|(a, b)| a.cross(b))
                    .sum::<f64>()
                    .abs()
                    / 2.0
            }
        }
    }
}

pub fn geo_circle(center: V2, radius: f64) -> GeoPolygon<f64> {
    GeoPolygon::new(
        circle_points(center, radius)
            .map(|p| geo::coord! { x: p.x, y: p.y })
            .collect(),
        vec![],
    )
}

pub fn circle_points(center: V2, radius: f64) -> impl Iterator<Item = V2> {
    (0..CIRCLE_SIDES).map(move |i| {
        let angle = std::f64::consts::TAU * i as f64 / CIRCLE_SIDES as f64;
        V2::new(
            center.x + radius * angle.cos(),
            center.y + radius * angle.sin(),
        )
    })
}

/// The share (0..=1) of a disc's area covered by the union of `surfaces`.
pub fn covered_share(center: V2, radius: f64, surfaces: &[&Shape]) -> f64 {
    if surfaces.is_empty() || radius <= 0.0 {
        return 0.0;
    }
    use geo::Area;
    let disc = geo_circle(center, radius);
    let union = surfaces
        .iter()
        .map(|s| geo::MultiPolygon::new(vec![s.to_geo()]))
        .reduce(|acc, s| acc.union(&s));
    let Some(union) = union else { return 0.0 };
    let covered = disc.intersection(&union).unsigned_area();
    (covered / disc.unsigned_area()).clamp(0.0, 1.0)
}

/// The convex hull of several shapes (the area between them).
pub fn hull_of(shapes: &[Shape]) -> GeoPolygon<f64> {
    let points: Vec<geo::Point<f64>> = shapes
        .iter()
        .flat_map(|shape| match shape {
            Shape::Circle { center, radius } if *radius > 0.0 => {
                circle_points(*center, *radius).collect::<Vec<_>>()
            }
            Shape::Circle { center, .. } => vec![*center],
            Shape::Polygon { points } => points.clone(),
        })
        .map(|p| geo::Point::new(p.x, p.y))
        .collect();
    MultiPoint::new(points).convex_hull()
}

pub fn from_geo(polygon: &GeoPolygon<f64>) -> Shape {
    let mut points: Vec<V2> = polygon
        .exterior()
        .coords()
        .map(|c| V2::new(c.x, c.y))
        .collect();
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    Shape::Polygon { points }
}

pub fn polygon_edges(points: &[V2]) -> impl Iterator<Item = (V2, V2)> + '_ {
    let n = points.len();
    (0..n).map(move |i| (points[i], points[(i + 1) % n]))
}

/// The least distance between two segments.
pub fn segment_distance(a: V2, b: V2, p: V2, q: V2) -> f64 {
    let d = b.minus(a);
    let e = q.minus(p);
    let denom = d.cross(e);
    if denom.abs() > 1e-15 {
        let t = p.minus(a).cross(e) / denom;
        let u = p.minus(a).cross(d) / denom;
        if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
            return 0.0;
        }
    }
    distance_to_segment(a, p, q)
        .min(distance_to_segment(b, p, q))
        .min(distance_to_segment(p, a, b))
        .min(distance_to_segment(q, a, b))
}

pub fn distance_to_segment(p: V2, a: V2, b: V2) -> f64 {
    let ab = b.minus(a);
    let len2 = ab.dot(ab);
    let t = if len2 < 1e-18 {
        0.0
    } else {
        (p.minus(a).dot(ab) / len2).clamp(0.0, 1.0)
    };
    p.dist(a.lerp(b, t))
}

/// Even-odd rule; points on the boundary may land either way (callers
/// that care use [`Shape::signed_distance`] with [`TOUCH`]).
pub fn point_in_polygon(p: V2, points: &[V2]) -> bool {
    let mut inside = false;
    for (a, b) in polygon_edges(points) {
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Splits the segment where it meets the polygon's edges and yields the
/// pieces (as parameters) whose midpoints pass `inside`.
fn inside_intervals<'a>(
    a: V2,
    b: V2,
    points: &'a [V2],
    inside: impl Fn(V2) -> bool + 'a,
) -> impl Iterator<Item = (f64, f64)> + 'a {
    let d = b.minus(a);
    let mut cuts = vec![0.0, 1.0];
    for (p, q) in polygon_edges(points) {
        let e = q.minus(p);
        let denom = d.cross(e);
        if denom.abs() < 1e-15 {
            continue;
        }
        let t = p.minus(a).cross(e) / denom;
        let u = p.minus(a).cross(d) / denom;
        if (0.0..=1.0).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&u) {
            cuts.push(t);
        }
    }
    cuts.sort_by(f64::total_cmp);
    let pieces: Vec<(f64, f64)> = cuts
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|(s, e)| e - s > 1e-12)
        .collect();
    pieces
        .into_iter()
        .filter(move |(s, e)| inside(a.lerp(b, (s + e) / 2.0)))
}

/// The parameters where the line through `a`,`b` is inside the circle.
pub fn line_circle(a: V2, b: V2, center: V2, radius: f64) -> Option<(f64, f64)> {
    if radius <= 0.0 {
        return None;
    }
    let d = b.minus(a);
    let f = a.minus(center);
    let qa = d.dot(d);
    if qa < 1e-18 {
        return (f.len() < radius).then_some((0.0, 1.0));
    }
    let qb = 2.0 * f.dot(d);
    let qc = f.dot(f) - radius * radius;
    let disc = qb * qb - 4.0 * qa * qc;
    if disc <= 0.0 {
        return None;
    }
    let root = disc.sqrt();
    Some(((-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)))
}

/// The parameters where the segment is within `radius` of the segment p–q
/// (a capsule, so one interval).
fn line_capsule(a: V2, b: V2, p: V2, q: V2, radius: f64) -> Option<(f64, f64)> {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    let mut widen = |interval: Option<(f64, f64)>| {
        if let Some((s, e)) = interval {
            lo = lo.min(s);
            hi = hi.max(e);
        }
    };
    widen(line_circle(a, b, p, radius));
    widen(line_circle(a, b, q, radius));
    // The straight part: within `radius` of the line p–q and between the
    // perpendiculars at p and q.
    let e = q.minus(p);
    let len = e.len();
    if len > 1e-12 {
        let n = V2::new(-e.y, e.x).scale(1.0 / len);
        let u = e.scale(1.0 / len);
        let d = b.minus(a);
        let mut interval = (f64::NEG_INFINITY, f64::INFINITY);
        for (value, slope, min, max) in [
            (a.minus(p).dot(n), d.dot(n), -radius, radius),
            (a.minus(p).dot(u), d.dot(u), 0.0, len),
        ] {
            if slope.abs() < 1e-15 {
                if value <= min || value >= max {
                    interval = (1.0, 0.0);
                }
            } else {
                let t0 = (min - value) / slope;
                let t1 = (max - value) / slope;
                interval = (interval.0.max(t0.min(t1)), interval.1.min(t0.max(t1)));
            }
        }
        if interval.0 < interval.1 {
            widen(Some(interval));
        }
    }
    (lo < hi).then_some((lo, hi))
}

fn clamp_unit((s, e): (f64, f64)) -> (f64, f64) {
    (s.max(0.0), e.min(1.0))
}

fn nonempty(interval: &(f64, f64)) -> bool {
    interval.1 - interval.0 > 1e-12
}

pub fn merge_intervals(mut intervals: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    intervals.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::with_capacity(intervals.len());
    for (s, e) in intervals {
        match merged.last_mut() {
            Some(last) if s <= last.1 + 1e-12 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// The lines tangent to two circles (radius 0 for a point), as
/// (unit normal, offset) with `normal · x = offset`. Up to four.
pub fn common_tangents(c1: V2, r1: f64, c2: V2, r2: f64, out: &mut Vec<(V2, f64)>) {
    let d = c2.minus(c1);
    let d2 = d.dot(d);
    if d2 < 1e-18 {
        return;
    }
    for s2 in [1.0, -1.0] {
        // Signed distances: +r1 from c1 and s2·r2 from c2.
        let dr = s2 * r2 - r1;
        let h2 = d2 - dr * dr;
        if h2 < -1e-12 {
            continue;
        }
        let h = h2.max(0.0).sqrt();
        for sign in [1.0, -1.0] {
            let n = V2::new(
                (d.x * dr - sign * d.y * h) / d2,
                (d.y * dr + sign * d.x * h) / d2,
            );
            let offset = n.dot(c1) - r1;
            out.push((n, offset));
        }
    }
}

/// The parameter interval (along `direction` from `origin`) where a line
/// passes within `radius + TOUCH` of `center`; a tangent line gets its
/// touching point as a zero-length interval.
pub fn chord(origin: V2, direction: V2, center: V2, radius: f64) -> Option<(f64, f64)> {
    let along = center.minus(origin).dot(direction);
    let off = center.minus(origin).cross(direction).abs();
    if off > radius + TOUCH {
        return None;
    }
    let half = (radius * radius - off * off).max(0.0).sqrt();
    Some((along - half, along + half))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, size: f64) -> Shape {
        Shape::Polygon {
            points: vec![
                V2::new(x0, y0),
                V2::new(x0 + size, y0),
                V2::new(x0 + size, y0 + size),
                V2::new(x0, y0 + size),
            ],
        }
    }

    #[test]
    fn signed_distance_is_negative_inside() {
        let s = square(0.0, 0.0, 2.0);
        assert!((s.signed_distance(V2::new(1.0, 1.0)) + 1.0).abs() < 1e-9);
        assert!((s.signed_distance(V2::new(3.0, 1.0)) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn length_inside_a_square() {
        let s = square(0.0, 0.0, 2.0);
        let l = s.length_inside(V2::new(-1.0, 1.0), V2::new(3.0, 1.0));
        assert!((l - 2.0).abs() < 1e-9, "{l}");
    }

    #[test]
    fn swept_disc_meets_a_square_a_radius_early() {
        let s = square(4.0, -1.0, 2.0);
        let intervals = s.swept_overlap(V2::new(0.0, 0.0), V2::new(10.0, 0.0), 1.0);
        assert_eq!(intervals.len(), 1);
        let (t0, t1) = intervals[0];
        assert!((t0 * 10.0 - 3.001).abs() < 1e-6, "{t0}");
        assert!((t1 * 10.0 - 6.999).abs() < 1e-6, "{t1}");
    }

    #[test]
    fn tangents_of_two_separate_circles() {
        let mut lines = Vec::new();
        common_tangents(V2::new(0.0, 0.0), 1.0, V2::new(5.0, 0.0), 1.0, &mut lines);
        assert_eq!(lines.len(), 4);
        for (n, offset) in lines {
            assert!((n.dot(V2::new(0.0, 0.0)) - offset - 1.0).abs() < 1e-9);
            assert!((n.dot(V2::new(5.0, 0.0)) - offset).abs() - 1.0 < 1e-9);
        }
    }

    #[test]
    fn half_a_disc_on_a_square_is_half_supported() {
        let s = square(0.0, -5.0, 10.0);
        let share = covered_share(V2::new(0.0, 0.0), 1.0, &[&s]);
        assert!((share - 0.5).abs() < 0.001, "{share}");
    }
}
