//! Where a bot's models head: the fight, the strategy's markers, or the
//! places its own schemes ask for. The search tries a move toward each,
//! and its rollouts play with one of the three drawn at random, so the
//! worth of a scheme's ground shows in the worlds it scores.

use crate::Seat;
use crate::encounter::objectives::{Area, SchemeCondition};
use crate::encounter::scoring;
use crate::state::GameState;
use crate::table::geometry::V2;
use crate::table::{TABLE_SIZE, inches};

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
