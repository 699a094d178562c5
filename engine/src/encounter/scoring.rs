//! Reading the table for the strategy and the schemes: who scores what
//! right now. Pure functions of the state; the end phase turns them into
//! facts.

use super::objectives::{Area, SchemeCondition, StrategyScoring};
use super::{Encounter, HeldScheme};
use crate::Seat;
use crate::model::Model;
use crate::state::GameState;
use crate::table::geometry::{Shape, V2, distance_to_segment};
use crate::table::measure::Layout;
use crate::table::{Body, MarkerKind, TABLE_SIZE, inches};

fn completely_inside(shape: &Shape, center: V2, radius: f64) -> bool {
    shape.signed_distance(center) <= -radius + 1e-9
}

/// Whether a disc (a base, or a marker's base) of `seat`'s counts as in `area`.
fn in_area(encounter: &Encounter, seat: Seat, area: Area, center: V2, radius: f64) -> bool {
    let layout = encounter.setup.layout();
    let enemy_side = encounter.layout_side(seat.other());
    match area {
        Area::EnemyHalf => completely_inside(&layout.half(enemy_side), center, radius),
        Area::EnemyDeploymentZone => layout.in_deployment_zone(
            enemy_side,
            &Body {
                id: None,
                center,
                radius,
                z: 0.0,
                size: 0.0,
                seat: None,
                peon: false,
            },
        ),
        Area::NearCenter { inches } => {
            center.dist(Layout::centerpoint()) - radius <= f64::from(inches) + 1e-9
        }
        Area::OnCenterline => {
            let (a, b) = layout.centerline();
            distance_to_segment(center, a, b) - radius <= 1.0 + 1e-9
        }
    }
}

/// A crew's models that conditions look at: in play, on the table, not
/// peons.
fn crew_models(state: &GameState, seat: Seat) -> impl Iterator<Item = (&Model, Body)> {
    state
        .models
        .iter()
        .filter(move |m| m.owner == seat && m.in_play() && !m.card.peon)
        .filter_map(|m| Some((&**m, m.body()?)))
}

/// The models that count for their own crew's strategy and schemes: its
/// crew models, less those a token has ignored for them (Craven).
fn scoring_models(state: &GameState, seat: Seat) -> impl Iterator<Item = (&Model, Body)> {
    crew_models(state, seat).filter(|(m, _)| !state.tokens.ignored_for_objectives(&m.tokens))
}

fn models_in(state: &GameState, encounter: &Encounter, seat: Seat, area: Area) -> usize {
    scoring_models(state, seat)
        .filter(|(_, b)| in_area(encounter, seat, area, b.center, b.radius))
        .count()
}

/// The table quarters `seat` controls (the cost of its scoring models
/// completely within a quarter beats the enemy's there).
fn quarter_costs(state: &GameState, seat: Seat) -> [u32; 4] {
    let mut costs = [0u32; 4];
    for (m, b) in scoring_models(state, seat) {
        for (q, cost) in costs.iter_mut().enumerate() {
            if completely_inside(&Layout::quarter(q), b.center, b.radius) {
                *cost += u32::from(m.card.cost);
            }
        }
    }
    costs
}

fn quarters_occupied(state: &GameState, seat: Seat) -> usize {
    (0..4)
        .filter(|q| {
            scoring_models(state, seat)
                .any(|(_, b)| completely_inside(&Layout::quarter(*q), b.center, b.radius))
        })
        .count()
}

/// Friendly markers of `kind` a crew has (strategy markers: claimed ones).
pub fn friendly_markers(state: &GameState, seat: Seat, kind: MarkerKind) -> usize {
    state
        .markers
        .iter()
        .filter(|m| m.kind == kind && m.owner == Some(seat))
        .count()
}

/// What the enemy models killed this turn count for Reckoning: a master
/// or its crew's leader 3, a henchman 2, any other model 1.
fn enemy_losses(state: &GameState, encounter: &Encounter, seat: Seat) -> u32 {
    let enemy = seat.other();
    encounter
        .killed_this_turn
        .iter()
        .filter_map(|id| state.model(*id))
        .filter(|m| m.owner == enemy)
        .map(|m| {
            if m.card.master || encounter.leaders[enemy.index()] == Some(m.id) {
                3
            } else if m.card.henchman {
                2
            } else {
                1
            }
        })
        .sum()
}

/// For a strategy that weighs each crew on its own: whether `seat`'s count
/// is above the VP it has scored from the strategy so far.
fn beats_own_score(state: &GameState, encounter: &Encounter, seat: Seat) -> bool {
    let scored = u32::from(encounter.strategy_vp[seat.index()]);
    match encounter.setup.strategy.scoring {
        StrategyScoring::MarkersAboveScored => {
            u32::try_from(friendly_markers(state, seat, MarkerKind::Strategy)).unwrap_or(u32::MAX)
                > scored
        }
        StrategyScoring::EnemyLossesAboveScored => {
            let none_left = !state
                .models
                .iter()
                .any(|m| m.owner == seat.other() && m.on_table());
            none_left || enemy_losses(state, encounter, seat) > scored
        }
        _ => false,
    }
}

/// The crews that score the strategy this turn (its VP before caps).
pub fn strategy_scorers(state: &GameState, encounter: &Encounter) -> Vec<Seat> {
    if matches!(
        encounter.setup.strategy.scoring,
        StrategyScoring::MarkersAboveScored | StrategyScoring::EnemyLossesAboveScored
    ) {
        return Seat::BOTH
            .into_iter()
            .filter(|seat| beats_own_score(state, encounter, *seat))
            .collect();
    }
    let count = |seat: Seat| -> usize {
        match encounter.setup.strategy.scoring {
            StrategyScoring::MostFriendlyMarkers => {
                friendly_markers(state, seat, MarkerKind::Strategy)
            }
            StrategyScoring::MostQuarters => {
                let mine = quarter_costs(state, seat);
                let theirs = quarter_costs(state, seat.other());
                (0..4).filter(|q| mine[*q] > theirs[*q]).count()
            }
            StrategyScoring::MostModelsIn { area } => {
                // The area is the table's own (near the centre, the centreline).
                models_in(state, encounter, seat, area)
            }
            // Never asked: its players claim what they score
            // (procedure/encounter.rs); the others are weighed above.
            StrategyScoring::Claimed
            | StrategyScoring::MarkersAboveScored
            | StrategyScoring::EnemyLossesAboveScored => 0,
        }
    };
    let (a, b) = (count(Seat::A), count(Seat::B));
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => vec![Seat::A],
        std::cmp::Ordering::Less => vec![Seat::B],
        std::cmp::Ordering::Equal if a > 0 || encounter.setup.strategy.empty_tie_scores => {
            vec![Seat::A, Seat::B]
        }
        std::cmp::Ordering::Equal => Vec::new(),
    }
}

/// Whether a scheme condition holds for `seat` now.
pub fn holds(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    held: &HeldScheme,
    condition: SchemeCondition,
) -> bool {
    let chosen = held.target.and_then(|id| state.model(id));
    match condition {
        SchemeCondition::ChosenModelKilled => {
            chosen.is_some_and(|m| m.status == crate::model::ModelStatus::Killed)
        }
        SchemeCondition::ChosenModelCostAtLeast { cost } => {
            chosen.is_some_and(|m| m.card.cost >= cost)
        }
        SchemeCondition::SchemeMarkersIn { area, count } => {
            state
                .markers
                .iter()
                .filter(|m| m.kind == MarkerKind::Scheme && m.owner == Some(seat))
                .filter(|m| in_area(encounter, seat, area, m.at.v2(), m.base.radius()))
                .count()
                >= usize::from(count)
        }
        SchemeCondition::ModelsIn { area, count } => {
            models_in(state, encounter, seat, area) >= usize::from(count)
        }
        SchemeCondition::ModelsInQuarters { count } => {
            quarters_occupied(state, seat) >= usize::from(count)
        }
        SchemeCondition::KilledThisTurn { count } => {
            encounter.kills_this_turn[seat.index()] >= count
        }
        SchemeCondition::EnemiesAtHalfHealth { count } => {
            // A Craven enemy is ignored for its own crew's schemes, not ours.
            crew_models(state, seat.other())
                .filter(|(m, _)| u32::from(m.health) * 2 <= u32::from(m.card.max_health))
                .count()
                >= usize::from(count)
        }
        SchemeCondition::ActivatedModelIn { area } => {
            let last = encounter.activated.last().copied();
            scoring_models(state, seat).any(|(m, b)| {
                Some(m.id) == last && in_area(encounter, seat, area, b.center, b.radius)
            })
        }
        // The player asserts it by claiming; the opponent checks.
        SchemeCondition::Claimed => true,
    }
}

/// The VP revealing `held` gains `seat` now (before the cap): none if it
/// cannot be revealed. For a claimed scheme, the most its player may claim.
pub fn reveal_value(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    held: &HeldScheme,
) -> Option<u8> {
    let def = encounter.setup.schemes.scheme(&held.name)?;
    if encounter.choices.has_revealed(seat, &def.name) {
        return None;
    }
    let all = |conditions: &[SchemeCondition]| {
        conditions
            .iter()
            .all(|c| holds(state, encounter, seat, held, *c))
    };
    if !all(&def.reveal) {
        return None;
    }
    let additional = !def.additional.is_empty() && all(&def.additional);
    Some(1 + u8::from(additional))
}

/// Half the table's side, in inches.
pub fn half_table() -> f64 {
    inches(TABLE_SIZE) / 2.0
}

/// Where the strategy's markers are made (Encounter Setup, once the
/// deployment zones are chosen).
pub fn strategy_marker_points(setup: &super::EncounterSetup) -> Vec<crate::table::Point> {
    use super::objectives::MarkerSpot;
    let half = half_table();
    let (a, b) = setup.layout().centerline();
    let along = b.minus(a).unit();
    let center = Layout::centerpoint();
    let mut points = Vec::new();
    for spot in &setup.strategy.markers {
        match spot {
            MarkerSpot::Centerpoint => points.push(center),
            MarkerSpot::QuarterCenters => points.extend([
                V2::new(half / 2.0, half / 2.0),
                V2::new(half * 1.5, half / 2.0),
                V2::new(half * 1.5, half * 1.5),
                V2::new(half / 2.0, half * 1.5),
            ]),
            MarkerSpot::OnCenterline { inches } => {
                let d = f64::from(*inches);
                points.extend([center.plus(along.scale(-d)), center.plus(along.scale(d))]);
            }
        }
    }
    points
        .into_iter()
        .map(crate::table::Point::from_v2)
        .collect()
}
