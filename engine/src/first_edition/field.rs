//! The table of a 1st edition encounter: 36" square, measured from base
//! edge to base edge (the reference's "Measuring"), with bases that may
//! not overlap. The encounter is played on an open table for now: no
//! terrain, so nothing blocks sight or slows a move (docs/first-edition.md).

use super::card::{Ability, Characteristic, ModelCard, WeaponKind};
use super::skirmish::{Model, ModelId, Skirmish};
use crate::Seat;
use crate::table::Point;
use crate::table::geometry::{V2, distance_to_segment};

/// The table's side, in inches.
pub const SIZE: f64 = 36.0;
/// Slack for base contact, in inches.
pub const CONTACT: f64 = 0.05;

pub fn radius(card: &ModelCard) -> f64 {
    f64::from(card.base) / 25.4 / 2.0
}

pub fn at(model: &Model) -> Option<V2> {
    model.at.map(Point::v2)
}

/// Base edge to base edge.
pub fn gap(a: &Model, b: &Model) -> Option<f64> {
    Some(at(a)?.dist(at(b)?) - radius(&a.card) - radius(&b.card))
}

/// The whole base is on the table.
pub fn on_table(center: V2, r: f64) -> bool {
    center.x >= r && center.y >= r && center.x <= SIZE - r && center.y <= SIZE - r
}

/// A model's melee range: its longest basic melee weapon (Bash's 1" at
/// least), none while it is halted.
pub fn melee_range(game: &Skirmish, model: &Model) -> f64 {
    if super::flow::halted(game, model) {
        return -1.0;
    }
    model
        .card
        .weapons
        .iter()
        .filter(|w| w.kind == WeaponKind::Melee)
        .map(|w| f64::from(w.rg))
        .fold(1.0, f64::max)
}

/// Models are in melee when either is within the other's melee range.
pub fn engaged(game: &Skirmish, a: &Model, b: &Model) -> bool {
    if a.seat == b.seat || !a.on_table() || !b.on_table() {
        return false;
    }
    gap(a, b).is_some_and(|g| g <= melee_range(game, a).max(melee_range(game, b)) + CONTACT)
}

/// The enemies in melee with `model`.
pub fn engaging<'a>(game: &'a Skirmish, model: &'a Model) -> impl Iterator<Item = &'a Model> {
    game.on_table(model.seat.other())
        .filter(move |enemy| engaged(game, model, enemy))
}

/// Moves over other models (flight, float, pass through, spirits).
pub fn passes_over_models(card: &ModelCard) -> bool {
    card.has(&Ability::Fly)
        || card.has(&Ability::Float)
        || card.has(&Ability::PassThrough)
        || card.is(Characteristic::Spirit)
}

/// Why a model may not end where it would: worded only when read.
#[derive(Debug, Clone, Copy)]
pub enum Misplaced<'a> {
    OffTable,
    Overlaps(&'a Model),
}

impl std::fmt::Display for Misplaced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OffTable => f.write_str("the whole base must stay on the table"),
            Self::Overlaps(other) => write!(f, "its base would overlap {}'s", other.card.name),
        }
    }
}

/// Why `model` may not end at `to` (its base off the table or on another).
pub fn misplaced<'a>(game: &'a Skirmish, model: &Model, to: V2) -> Option<Misplaced<'a>> {
    let r = radius(&model.card);
    if !on_table(to, r) {
        return Some(Misplaced::OffTable);
    }
    game.models
        .iter()
        .find(|o| {
            o.id != model.id
                && o.on_table()
                && at(o).is_some_and(|p| p.dist(to) < r + radius(&o.card) - CONTACT)
        })
        .map(Misplaced::Overlaps)
}

/// [`misplaced`], in words.
pub fn placement_problem(game: &Skirmish, model: &Model, to: V2) -> Option<String> {
    misplaced(game, model, to).map(|m| m.to_string())
}

/// The first model a straight move from `from` to `to` would pass through.
pub fn blocking(game: &Skirmish, model: &Model, from: V2, to: V2) -> Option<ModelId> {
    if passes_over_models(&model.card) {
        return None;
    }
    let r = radius(&model.card);
    game.models
        .iter()
        .filter(|o| o.id != model.id && o.on_table())
        .filter(|o| {
            at(o).is_some_and(|p| {
                // Only a base that the path enters counts: one already in
                // contact at the start may be moved away from.
                distance_to_segment(p, from, to) < r + radius(&o.card) - CONTACT
                    && p.dist(to) < p.dist(from) + r
            })
        })
        .min_by(|a, b| {
            let da = at(a).map_or(0.0, |p| p.dist(from));
            let db = at(b).map_or(0.0, |p| p.dist(from));
            da.total_cmp(&db)
        })
        .map(|o| o.id)
}

/// The farthest point from `from` toward `toward`, at most `distance`
/// away, that the model may reach in a straight line: short of any base
/// in the way and of the table's edge, and no closer than contact with
/// `stop_at` (a charge's target).
pub fn straight_move(
    game: &Skirmish,
    model: &Model,
    from: V2,
    toward: V2,
    distance: f64,
    stop_at: Option<&Model>,
) -> V2 {
    let r = radius(&model.card);
    let length = from.dist(toward);
    if length < 1e-9 {
        return from;
    }
    let direction = toward.minus(from).unit();
    let mut reach = distance.min(length);
    if let Some(target) = stop_at.and_then(|t| Some((at(t)?, radius(&t.card)))) {
        reach = reach.min((from.dist(target.0) - r - target.1).max(0.0));
    }
    // Step back from the farthest point until the spot is free and the
    // way there is clear; an eighth of an inch at a time is finer than
    // any base.
    let mut travelled = reach;
    while travelled > 0.0 {
        let spot = from.plus(direction.scale(travelled));
        if misplaced(game, model, spot).is_none() && blocking(game, model, from, spot).is_none() {
            return spot;
        }
        travelled -= 0.125;
    }
    from
}

/// The nearest table edge's outward direction from `p`.
pub fn nearest_edge(p: V2) -> V2 {
    let options = [
        (p.x, V2::new(-1.0, 0.0)),
        (SIZE - p.x, V2::new(1.0, 0.0)),
        (p.y, V2::new(0.0, -1.0)),
        (SIZE - p.y, V2::new(0.0, 1.0)),
    ];
    options
        .into_iter()
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(V2::new(0.0, -1.0), |(_, d)| d)
}

/// The table quarter `p` is in (Reconnoiter).
pub fn quarter(p: V2) -> usize {
    usize::from(p.x >= SIZE / 2.0) + 2 * usize::from(p.y >= SIZE / 2.0)
}

pub fn center() -> V2 {
    V2::new(SIZE / 2.0, SIZE / 2.0)
}

pub fn point(v: V2) -> Point {
    Point::from_v2(v)
}

/// Inches between two stored points.
pub fn between(a: Point, b: Point) -> f64 {
    a.v2().dist(b.v2())
}

/// The seat's side of the table: the first to deploy takes the south.
pub fn side_of(game: &Skirmish, seat: Seat) -> usize {
    usize::from(game.first_deployer.is_some_and(|first| first != seat))
}
