//! Corrupted Idols (3rd edition): a strategy marker dropped on the
//! centreline at each start phase, where the suit of the initiative
//! player's flip says, and the Interact that moves one for damage.

use super::*;
use crate::command::Interaction;
use crate::encounter::objectives::{CenterlinePlace, IdolRule};
use crate::encounter::{Encounter, Step};
use crate::event::ActionSlot;
use crate::fate::Suit;
use crate::table::geometry::{Shape, V2};
use crate::table::measure::Layout;
use crate::table::{Board, MarkerKind, ObjectId, Point, TABLE_SIZE, TOUCH, Trait, inches};

/// Jokers flipped again for the idol's place before giving up (a deck
/// holds two; a reshuffle could bring them back).
const MAX_IDOL_REFLIPS: usize = 6;

/// The way `seat` faces across the table: from the middle of its own
/// table half towards the centerpoint, and the enemy half beyond.
pub(crate) fn facing(encounter: &Encounter, seat: Seat) -> V2 {
    let Shape::Polygon { points } = encounter.setup.layout().half(encounter.layout_side(seat))
    else {
        return V2::new(0.0, 1.0);
    };
    let count = points.len().max(1) as f64;
    let sum = points.iter().fold(V2::new(0.0, 0.0), |acc, p| acc.plus(*p));
    Layout::centerpoint().minus(sum.scale(1.0 / count)).unit()
}

/// Whether a disc of `radius` centred at `center` lies on the table.
fn on_table(center: V2, radius: f64) -> bool {
    let size = inches(TABLE_SIZE);
    let fits = |v: f64| v >= radius - 1e-9 && v <= size - radius + 1e-9;
    fits(center.x) && fits(center.y)
}

/// Something an idol may not drop on: a model's base or a strategy
/// marker (a disc), or impassable terrain.
enum InTheWay<'a> {
    Disc(V2, f64),
    Terrain(&'a Shape),
}

impl InTheWay<'_> {
    /// How far a disc at `center` is from it (negative: overlapping).
    fn gap(&self, center: V2, radius: f64) -> f64 {
        match self {
            InTheWay::Disc(c, r) => center.dist(*c) - r - radius,
            InTheWay::Terrain(shape) => shape.gap_to_disc(center, radius),
        }
    }
}

/// What an idol may not be dropped on top of.
fn in_the_way<'a>(state: &GameState, board: &'a Board) -> Vec<InTheWay<'a>> {
    // The board's bodies are the models on the table.
    let models = board.bodies().map(|b| InTheWay::Disc(b.center, b.radius));
    let markers = state
        .markers
        .iter()
        .filter(|k| k.kind == MarkerKind::Strategy)
        .map(|k| InTheWay::Disc(k.at.v2(), k.base.radius()));
    let terrain = board
        .obstacles()
        .filter(|o| o.has(Trait::Impassable))
        .map(|o| InTheWay::Terrain(&o.shape));
    models.chain(markers).chain(terrain).collect()
}

/// The smallest distance along `direction` from `from` at which a disc
/// no longer overlaps `thing`, up to `limit`: the spot touching it.
fn touching_along(
    thing: &InTheWay,
    from: V2,
    direction: V2,
    radius: f64,
    limit: f64,
) -> Option<f64> {
    const STEP: f64 = 0.05;
    let gap = |t: f64| thing.gap(from.plus(direction.scale(t)), radius);
    let mut inside = 0.0;
    let mut t = STEP;
    while gap(t) < 0.0 {
        inside = t;
        t += STEP;
        if t > limit {
            return None;
        }
    }
    // Halve the bracket down to well under the table's thousandth-inch grid.
    let mut clear = t;
    for _ in 0..40 {
        let mid = (inside + clear) / 2.0;
        if gap(mid) < 0.0 {
            inside = mid;
        } else {
            clear = mid;
        }
    }
    Some(clear)
}

/// Where this turn's idol may drop for `suit`, as `seat` (with
/// initiative) sees the table: the suit's place if it is clear; else,
/// for each thing in the way, the spots either side of it along the
/// centreline touching it and clear of everything. An edge place offers
/// both edges. Empty: the marker does not drop.
pub(crate) fn idol_spots(state: &GameState, seat: Seat, suit: Suit) -> Vec<Point> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let Some(rule) = encounter.setup.strategy.idols else {
        return Vec::new();
    };
    let Some(def) = state.marker_types.of_kind(MarkerKind::Strategy) else {
        return Vec::new();
    };
    let radius = def.base().radius();
    let (one_end, other_end) = encounter.setup.layout().centerline();
    let center = Layout::centerpoint();
    // Facing the enemy half, the left end lies counter-clockwise.
    let ahead = facing(encounter, seat);
    let (left, right) = if ahead.cross(one_end.minus(center)) > 0.0 {
        (one_end, other_end)
    } else {
        (other_end, one_end)
    };
    let along = right.minus(left).unit();
    let length = right.dist(left);
    // The marker at an edge touches the table's edge: the nearest centre
    // to the end that keeps it on the table.
    let edge_inset = |end: V2, inward: V2| {
        let size = inches(TABLE_SIZE);
        [(end.x, inward.x), (end.y, inward.y)]
            .into_iter()
            .map(|(at, step)| {
                if step > 1e-9 && at < radius {
                    (radius - at) / step
                } else if step < -1e-9 && at > size - radius {
                    (at - (size - radius)) / -step
                } else {
                    0.0
                }
            })
            .fold(0.0, f64::max)
    };
    let places: Vec<V2> = match rule.place(suit) {
        CenterlinePlace::Left(inches) => vec![left.plus(along.scale(f64::from(inches)))],
        CenterlinePlace::Right(inches) => vec![right.minus(along.scale(f64::from(inches)))],
        CenterlinePlace::Centerpoint => vec![center],
        CenterlinePlace::Edge => vec![
            left.plus(along.scale(edge_inset(left, along))),
            right.minus(along.scale(edge_inset(right, along.scale(-1.0)))),
        ],
    };
    let table = state.table();
    let board = Board::new(&table, state.edition);
    let things = in_the_way(state, &board);
    let clear = |at: V2| on_table(at, radius) && things.iter().all(|t| t.gap(at, radius) >= -TOUCH);
    let mut spots: Vec<Point> = Vec::new();
    let mut offer = |at: V2| {
        let point = Point::from_v2(at);
        if clear(point.v2()) && !spots.iter().any(|s| s.v2().dist(point.v2()) < 0.01) {
            spots.push(point);
        }
    };
    for place in places {
        let blocking: Vec<&InTheWay> = things
            .iter()
            .filter(|t| t.gap(place, radius) < -TOUCH)
            .collect();
        if blocking.is_empty() {
            offer(place);
            continue;
        }
        for thing in blocking {
            for direction in [along, along.scale(-1.0)] {
                if let Some(t) = touching_along(thing, place, direction, radius, length) {
                    offer(place.plus(direction.scale(t)));
                }
            }
        }
    }
    spots
}

/// The Interacts that would move `marker` (in base contact with `model`)
/// for each amount of damage the rule allows, each towards the enemy half
/// of the model's crew or 60 degrees either side (`decide` keeps the
/// legal ones).
pub(crate) fn idol_moves(
    state: &GameState,
    model: &crate::model::Model,
    marker: &crate::table::Marker,
    rule: IdolRule,
) -> Vec<PlayerCommand> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let ahead = facing(encounter, model.owner);
    let turned = |degrees: f64| {
        let (sin, cos) = degrees.to_radians().sin_cos();
        V2::new(ahead.x * cos - ahead.y * sin, ahead.x * sin + ahead.y * cos)
    };
    let most = u16::from(rule.max_damage).min(model.health);
    let from = marker.at.v2();
    (1..=most)
        .filter_map(|d| u8::try_from(d).ok())
        .flat_map(|damage| {
            [0.0, 60.0, -60.0].map(|degrees| PlayerCommand::Interact {
                with: Interaction::MoveIdol {
                    marker: marker.id,
                    damage,
                    to: Point::from_v2(from.plus(turned(degrees).scale(f64::from(damage)))),
                },
            })
        })
        .collect()
}

impl Sim<'_> {
    /// 3rd edition start phase, once initiative is settled: Corrupted
    /// Idols drops its marker, then step D.
    pub(super) fn initiative_settled(&mut self) -> Result<(), RuleError> {
        let encounter = self.encounter()?;
        if encounter.setup.strategy.idols.is_none() {
            return self.leadership_step(None);
        }
        let seat = encounter.initiative;
        let mut card = encounter.initiative_cards.map(|cards| cards[seat.index()]);
        // A Joker has no suit for a place: that player flips again.
        let mut reflips = 0;
        let suit = loop {
            if let Some(suit) = card.and_then(Card::suit) {
                break Some(suit);
            }
            if reflips == MAX_IDOL_REFLIPS {
                break None;
            }
            reflips += 1;
            let revealed = self.reveal(seat, None, 1)?;
            card = revealed.first().copied();
            if revealed.is_empty() {
                break None;
            }
            self.emit(Event::RevealedDiscarded {
                seat,
                cards: revealed,
            })?;
        };
        let Some(suit) = suit else {
            self.emit(Event::IdolNotDropped)?;
            return self.leadership_step(None);
        };
        let Some(rule) = self.encounter()?.setup.strategy.idols else {
            return self.leadership_step(None);
        };
        self.emit(Event::IdolPlaceFlipped {
            seat,
            suit,
            place: rule.place(suit),
        })?;
        let spots = idol_spots(&self.state, seat, suit);
        match spots.as_slice() {
            [] => {
                self.emit(Event::IdolNotDropped)?;
                self.leadership_step(None)
            }
            [only] => {
                self.drop_idol(*only)?;
                self.leadership_step(None)
            }
            _ => self.step_to(Step::DropIdol { seat, suit }),
        }
    }

    /// `seat` drops this turn's idol at `at`, one of the spots left to it.
    pub(super) fn choose_idol_spot(
        &mut self,
        seat: Seat,
        suit: Suit,
        at: Point,
    ) -> Result<(), RuleError> {
        if !idol_spots(&self.state, seat, suit).contains(&at) {
            return refuse(
                "the idol drops only at one of the spots offered: its place on the centreline, or touching what is in the way",
            );
        }
        self.drop_idol(at)?;
        self.leadership_step(None)
    }

    fn drop_idol(&mut self, at: Point) -> Result<(), RuleError> {
        let Some(def) = self.state.marker_types.of_kind(MarkerKind::Strategy) else {
            return refuse("the content defines no strategy marker");
        };
        let name = def.name.clone();
        self.drop_marker(name, None, at)
    }

    /// `actor` suffers `damage` irreducible damage and drops the strategy
    /// marker in base contact with it centred at `to`, at most that many
    /// inches away, touching no model and no impassable terrain.
    pub(super) fn move_idol(
        &mut self,
        board: &Board,
        actor: ModelId,
        (marker, damage, to): (ObjectId, u8, Point),
        slot: ActionSlot,
        controller: Option<Seat>,
    ) -> Result<(), RuleError> {
        let Some(rule) = self.encounter()?.setup.strategy.idols else {
            return refuse("this strategy's markers are not moved for damage");
        };
        if self.marker_within(board, actor, marker)? != MarkerKind::Strategy {
            return refuse("that is not a strategy marker");
        }
        let Some(found) = self.state.markers.iter().find(|k| k.id == marker).cloned() else {
            return refuse("there is no such marker");
        };
        let health = self.state.model(actor).map_or(0, |m| m.health);
        if damage == 0 || damage > rule.max_damage {
            return refuse(format!(
                "the model suffers 1 to {} damage to move the marker",
                rule.max_damage
            ));
        }
        if u16::from(damage) > health {
            return refuse(format!(
                "{} may not suffer more damage than its health ({health})",
                self.model_name(actor)
            ));
        }
        let radius = found.base.radius();
        let center = to.v2();
        if center.dist(found.at.v2()) > f64::from(damage) + 1e-9 {
            return refuse(format!("the marker moves at most {damage}\""));
        }
        if !on_table(center, radius) {
            return refuse("the marker must stay on the table");
        }
        if super::encounter::gap_to_models(board, center, radius) <= TOUCH {
            return refuse("the marker may not be dropped in base contact with a model");
        }
        let touches_terrain = board
            .obstacles()
            .any(|o| o.has(Trait::Impassable) && o.shape.gap_to_disc(center, radius) <= TOUCH);
        if touches_terrain {
            return refuse("the marker may not be dropped in base contact with impassable terrain");
        }
        // The rules drop the marker after the damage; it is moved as the
        // damage is queued, checked against the model still standing (a
        // kill could only have freed room).
        self.declare_general(
            actor,
            crate::rules::GeneralAction::Interact,
            slot,
            controller,
        )?;
        self.emit(Event::MarkerRemoved { id: marker })?;
        self.drop_marker(found.name, found.owner, to)?;
        let source = self.encounter()?.setup.strategy.name.clone();
        self.queue(DamageInstance::fixed(
            actor,
            source,
            damage,
            true,
            self.batch(),
        ))?;
        self.general_ended(actor, Vec::new())
    }
}
