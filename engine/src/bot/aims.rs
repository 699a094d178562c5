//! Where a bot's models head: the fight, the strategy's markers, or the
//! places its own schemes ask for. The search tries a move toward each,
//! and its rollouts play with one of the three drawn at random, so the
//! worth of a scheme's ground shows in the worlds it scores.

use super::body_of;
use crate::Seat;
use crate::encounter::objectives::{Area, SchemeCondition};
use crate::encounter::scoring;
use crate::model::ModelId;
use crate::state::GameState;
use crate::table::geometry::V2;
use crate::table::measure::Layout;
use crate::table::{MarkerKind, TABLE_SIZE, inches};

/// What a bot's moves are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Aim {
    /// The nearest enemy first, for a model that can attack (the greedy
    /// bot's way).
    Fight,
    /// The strategy's markers first.
    Markers,
    /// The ground the seat's own schemes ask for first.
    Schemes,
}

impl Aim {
    pub(super) const ALL: [Aim; 3] = [Aim::Fight, Aim::Markers, Aim::Schemes];
}

/// Where a greedy model heads: the nearest strategy marker not yet its
/// crew's, else the nearest enemy, else the centre (a model with an attack
/// goes for the enemy first, as `aim` Fight); with how far from that
/// point's centre its base stops: 1", or touching a marker in 3rd
/// edition, whose general actions need base contact. Aiming at schemes,
/// the nearest ground its schemes ask for comes first.
pub(super) fn goal_for(
    state: &GameState,
    seat: Seat,
    model: ModelId,
    aim: Aim,
) -> Option<(V2, f64)> {
    let me = body_of(state, model)?.center;
    if aim == Aim::Schemes
        && let Some(goal) = scheme_goal(state, seat, me)
    {
        return Some(goal);
    }
    let marker_first = aim == Aim::Markers;
    let nearest = |goals: Vec<(V2, f64)>| {
        goals
            .into_iter()
            .min_by(|a, b| a.0.dist(me).total_cmp(&b.0.dist(me)))
    };
    // An idol already completely on the enemy half is where it should be.
    let idol_placed = |m: &crate::table::Marker| {
        state.encounter.as_deref().is_some_and(|e| {
            e.setup.strategy.idols.is_some()
                && crate::encounter::scoring::on_enemy_half(
                    e,
                    seat,
                    m.at.v2(),
                    m.base.radius(),
                    crate::encounter::objectives::HalfCount::Completely,
                )
        })
    };
    let marker_stop = |m: &crate::table::Marker| match state.edition.rules().actions.general_reach {
        crate::rules::GeneralReach::BaseContact => m.base.radius(),
        crate::rules::GeneralReach::Inches(inches) => f64::from(inches),
    };
    let marker = nearest(
        state
            .markers
            .iter()
            .filter(|m| m.kind == MarkerKind::Strategy && m.owner != Some(seat) && !idol_placed(m))
            .map(|m| (m.at.v2(), marker_stop(m)))
            .collect(),
    );
    let enemy = nearest(
        state
            .models
            .iter()
            .filter(|m| m.owner != seat && m.in_play())
            .filter_map(|m| Some((m.placement?.at.v2(), 1.0)))
            .collect(),
    );
    let has_attack = state
        .model(model)
        .is_some_and(|m| m.card.actions.iter().any(|a| a.resist.is_some()));
    // Idols score only when moved: a model goes for a nearer idol first,
    // whatever it could attack.
    let idols = state
        .encounter
        .as_deref()
        .is_some_and(|e| e.setup.strategy.idols.is_some());
    let preferred = match (enemy, marker) {
        (_, Some(k)) if marker_first => Some(k),
        (Some(e), Some(k)) if has_attack && idols && k.0.dist(me) < e.0.dist(me) => Some(k),
        (Some(e), _) if has_attack => Some(e),
        (e, k) => k.or(e),
    };
    preferred.or(Some((Layout::centerpoint(), 1.0)))
}

/// Spacing of the points tried as a scheme's ground, in inches.
const GRID: f64 = 3.0;

/// The nearest point to `from` of the ground `seat`'s schemes still ask
/// for (an area to stand or drop markers in, the centreline's ends, the
/// table's corners), with how far short of it a base stops.
pub(super) fn scheme_goal(state: &GameState, seat: Seat, from: V2) -> Option<(V2, f64)> {
    let encounter = state.encounter.as_deref()?;
    let mut goals: Vec<V2> = Vec::new();
    for slot in &encounter.choices.schemes[seat.index()] {
        let Some(held) = slot.value.as_ref() else {
            continue;
        };
        let Some(def) = encounter.setup.schemes.scheme(&held.name) else {
            continue;
        };
        let revealed = encounter.choices.has_revealed(seat, &held.name);
        let conditions = def
            .reveal
            .iter()
            .filter(|_| !revealed)
            .chain(&def.additional)
            .chain(&def.end);
        for condition in conditions {
            if scoring::holds(state, encounter, seat, held, *condition) {
                continue;
            }
            match *condition {
                SchemeCondition::SchemeMarkersIn { area, .. }
                | SchemeCondition::ModelsIn { area, .. }
                | SchemeCondition::ActivatedModelIn { area }
                | SchemeCondition::ModelClearOfEnemiesIn { area, .. }
                | SchemeCondition::SchemeMarkersOnTerrain { area, .. } => {
                    goals.extend(points_in(encounter, seat, area));
                }
                SchemeCondition::ModelsNearCenterlineEnds { .. } => {
                    let (a, b) = encounter.setup.layout().centerline();
                    goals.extend([a, b]);
                }
                SchemeCondition::SchemeMarkersNearCorners { .. } => {
                    let far = inches(TABLE_SIZE);
                    goals.extend([
                        V2::new(0.0, 0.0),
                        V2::new(far, 0.0),
                        V2::new(0.0, far),
                        V2::new(far, far),
                    ]);
                }
                _ => {}
            }
        }
    }
    goals
        .into_iter()
        .min_by(|a, b| a.dist(from).total_cmp(&b.dist(from)))
        .map(|goal| (goal, 0.0))
}

/// Points of a grid over the table that lie in `area` for `seat`.
fn points_in(encounter: &crate::encounter::Encounter, seat: Seat, area: Area) -> Vec<V2> {
    let size = inches(TABLE_SIZE);
    let steps = (size / GRID) as usize;
    (0..steps)
        .flat_map(|i| (0..steps).map(move |j| (i, j)))
        .map(|(i, j)| V2::new(GRID / 2.0 + GRID * i as f64, GRID / 2.0 + GRID * j as f64))
        .filter(|at| scoring::in_area(encounter, seat, area, *at, 0.5))
        .collect()
}
