//! Reading the table for the strategy and the schemes: who scores what
//! right now. Pure functions of the state; the end phase turns them into
//! facts.

use super::objectives::{Area, HalfCount, SchemeCondition, StrategyScoring};
use super::{Encounter, HeldScheme};
use crate::Seat;
use crate::model::{Model, ModelId};
use crate::state::GameState;
use crate::table::geometry::{Shape, TOUCH, V2, distance_to_segment};
use crate::table::measure::Layout;
use crate::table::{
    Board, Body, Marker, MarkerKind, ObjectId, TABLE_SIZE, footprint_shape, inches,
};

fn completely_inside(shape: &Shape, center: V2, radius: f64) -> bool {
    shape.signed_distance(center) <= -radius + 1e-9
}

/// Whether a disc (a base, or a marker's base) of `seat`'s counts as in `area`.
pub fn in_area(encounter: &Encounter, seat: Seat, area: Area, center: V2, radius: f64) -> bool {
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
        Area::AcrossCenterline => {
            let (a, b) = layout.centerline();
            distance_to_segment(center, a, b) <= radius + 1e-9
        }
    }
}

/// A crew's models that conditions look at: in play, on the table, not
/// peons nor Insignificant.
fn crew_models(state: &GameState, seat: Seat) -> impl Iterator<Item = (&Model, Body)> {
    state
        .models
        .iter()
        .filter(move |m| m.owner == seat && m.in_play() && m.card.counts_for_objectives())
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

/// Strategy markers, whoever's, on `seat`'s enemy half: any part of one
/// (so one across the centreline counts for both crews), or all of it.
pub fn strategy_markers_on_enemy_half(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    counts: HalfCount,
) -> usize {
    state
        .markers
        .iter()
        .filter(|k| k.kind == MarkerKind::Strategy)
        .filter(|k| on_enemy_half(encounter, seat, k.at.v2(), k.base.radius(), counts))
        .count()
}

/// Whether a marker of `radius` centred at `center` is on `seat`'s enemy
/// half, as `counts` says.
pub fn on_enemy_half(
    encounter: &Encounter,
    seat: Seat,
    center: crate::table::geometry::V2,
    radius: f64,
    counts: HalfCount,
) -> bool {
    let half = encounter
        .setup
        .layout()
        .half(encounter.layout_side(seat.other()));
    let distance = half.signed_distance(center);
    match counts {
        HalfCount::Touching => distance < radius - TOUCH,
        HalfCount::Completely => distance <= -radius + 1e-9,
    }
}

/// What the enemy models killed this turn count for Reckoning: a master
/// or its crew's leader 3, a henchman 2, any other model 1.
fn enemy_losses(state: &GameState, encounter: &Encounter, seat: Seat) -> u32 {
    let enemy = seat.other();
    encounter
        .killed_this_turn
        .iter()
        .filter_map(|id| state.model(*id))
        .filter(|m| m.owner == enemy && m.card.counts_for_objectives())
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
        StrategyScoring::MarkersOnEnemyHalfAboveScored { counts } => {
            u32::try_from(strategy_markers_on_enemy_half(
                state, encounter, seat, counts,
            ))
            .unwrap_or(u32::MAX)
                > scored
        }
        StrategyScoring::EnemyLossesAboveScored => {
            let none_left = !state
                .models
                .iter()
                .any(|m| m.owner == seat.other() && m.on_table() && m.card.counts_for_objectives());
            none_left || enemy_losses(state, encounter, seat) > scored
        }
        _ => false,
    }
}

/// The crews that score the strategy this turn (its VP before caps).
pub fn strategy_scorers(state: &GameState, encounter: &Encounter) -> Vec<Seat> {
    if matches!(
        encounter.setup.strategy.scoring,
        StrategyScoring::MarkersAboveScored
            | StrategyScoring::MarkersOnEnemyHalfAboveScored { .. }
            | StrategyScoring::EnemyLossesAboveScored
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
            // (procedure/encounter/schemes.rs); the others are weighed above.
            StrategyScoring::Claimed
            | StrategyScoring::MarkersAboveScored
            | StrategyScoring::MarkersOnEnemyHalfAboveScored { .. }
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
    counted_markers(state, encounter, seat, held, condition, None).is_some()
}

/// Whether all of `conditions` hold for `seat` now (none: never), with the
/// friendly scheme markers they counted: what a 3rd edition scheme that
/// spends its markers removes. With `among`, only those markers count
/// (the ones a player names to remove).
pub fn requirement_met(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    held: &HeldScheme,
    conditions: &[SchemeCondition],
    among: Option<&[ObjectId]>,
) -> Option<Vec<ObjectId>> {
    if conditions.is_empty() {
        return None;
    }
    let mut markers: Vec<ObjectId> = Vec::new();
    for condition in conditions {
        for id in counted_markers(state, encounter, seat, held, *condition, among)? {
            if !markers.contains(&id) {
                markers.push(id);
            }
        }
    }
    Some(markers)
}

/// `seat`'s scheme markers a requirement may count (and its scheme
/// remove): all of them, or only those `among` a player's choice.
fn spendable_markers<'s>(
    state: &'s GameState,
    seat: Seat,
    among: Option<&'s [ObjectId]>,
) -> impl Iterator<Item = &'s Marker> {
    state
        .scheme_markers_of(seat)
        .filter(move |k| among.is_none_or(|a| a.contains(&k.id)))
}

/// Whether two discs are within `inches` of each other (edge to edge).
fn within(a: (V2, f64), b: (V2, f64), inches: u8) -> bool {
    a.0.dist(b.0) - a.1 - b.1 <= f64::from(inches) + 1e-9
}

/// Picks `need` of the candidates, each matched to a different one of the
/// options it may take (`options[i]`): the candidates picked, if it can
/// be done. The sets are a crew's models or markers, so a plain search.
fn distinct_matching(options: &[Vec<usize>], need: usize) -> Option<Vec<usize>> {
    fn search(
        options: &[Vec<usize>],
        from: usize,
        need: usize,
        used: &mut Vec<usize>,
        picked: &mut Vec<usize>,
    ) -> bool {
        if picked.len() == need {
            return true;
        }
        for (i, choices) in options.iter().enumerate().skip(from) {
            for option in choices {
                if used.contains(option) {
                    continue;
                }
                used.push(*option);
                picked.push(i);
                if search(options, i + 1, need, used, picked) {
                    return true;
                }
                used.pop();
                picked.pop();
            }
        }
        false
    }
    let (mut used, mut picked) = (Vec::new(), Vec::new());
    search(options, 0, need, &mut used, &mut picked).then_some(picked)
}

/// The enemy models (in play, on the table) within `inches` of a disc,
/// `except` one of them.
fn enemies_within(
    state: &GameState,
    seat: Seat,
    disc: (V2, f64),
    inches: u8,
    except: Option<ModelId>,
) -> usize {
    crew_models(state, seat.other())
        .filter(|(m, b)| Some(m.id) != except && within(disc, (b.center, b.radius), inches))
        .count()
}

/// The models of `engager`'s crew that engage `model`.
fn engaging(state: &GameState, model: ModelId, engager: Seat) -> Vec<ModelId> {
    let table = state.table();
    let board = Board::new(&table, state.edition);
    let Ok(engaged) = crate::table::measure::engaged_with(&board, model.object()) else {
        return Vec::new();
    };
    crew_models(state, engager)
        .map(|(m, _)| m.id)
        .filter(|id| engaged.contains(&id.object()))
        .collect()
}

/// The table's corners, and whether each is in `seat`'s deployment zone.
fn corners(encounter: &Encounter, seat: Seat) -> [(V2, bool); 4] {
    let side = inches(TABLE_SIZE);
    let layout = encounter.setup.layout();
    let own = encounter.layout_side(seat);
    [
        V2::new(0.0, 0.0),
        V2::new(side, 0.0),
        V2::new(side, side),
        V2::new(0.0, side),
    ]
    .map(|corner| (corner, layout.in_deployment_zone(own, &point_body(corner))))
}

fn point_body(center: V2) -> Body {
    Body {
        id: None,
        center,
        radius: 0.0,
        z: 0.0,
        size: 0.0,
        seat: None,
        peon: false,
    }
}

/// The turn `seat` revealed its scheme `name`, if it has.
fn reveal_turn(encounter: &Encounter, seat: Seat, name: &str) -> Option<u8> {
    if !encounter.choices.has_revealed(seat, name) {
        return None;
    }
    encounter
        .choices
        .scores_of(seat, name)
        .map(|s| s.turn)
        .min()
}

/// Whether `condition` holds for `seat` now: the friendly scheme markers
/// it counted (none counted for a condition on models), or `None`.
fn counted_markers(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    held: &HeldScheme,
    condition: SchemeCondition,
    among: Option<&[ObjectId]>,
) -> Option<Vec<ObjectId>> {
    let chosen = held.target.and_then(|id| state.model(id));
    let chosen_on_table = || chosen.and_then(|m| Some((m, m.body()?)).filter(|_| m.in_play()));
    let check = |holds: bool| holds.then(Vec::new);
    match condition {
        SchemeCondition::ChosenModelKilled => {
            check(chosen.is_some_and(|m| m.status == crate::model::ModelStatus::Killed))
        }
        SchemeCondition::ChosenModelCostAtLeast { cost } => {
            check(chosen.is_some_and(|m| m.card.cost >= cost))
        }
        SchemeCondition::SchemeMarkersIn { area, count } => {
            let ids: Vec<ObjectId> = spendable_markers(state, seat, among)
                .filter(|m| in_area(encounter, seat, area, m.at.v2(), m.base.radius()))
                .map(|m| m.id)
                .take(usize::from(count))
                .collect();
            (ids.len() >= usize::from(count)).then_some(ids)
        }
        SchemeCondition::ModelsIn { area, count } => {
            check(models_in(state, encounter, seat, area) >= usize::from(count))
        }
        SchemeCondition::ModelsInQuarters { count } => {
            check(quarters_occupied(state, seat) >= usize::from(count))
        }
        SchemeCondition::KilledThisTurn { count } => {
            check(encounter.kills_this_turn[seat.index()] >= count)
        }
        SchemeCondition::EnemiesAtHalfHealth { count } => {
            check(enemies_at_half_health(state, seat) >= usize::from(count))
        }
        SchemeCondition::ActivatedModelIn { area } => {
            let last = encounter.activated.last().copied();
            check(scoring_models(state, seat).any(|(m, b)| {
                Some(m.id) == last && in_area(encounter, seat, area, b.center, b.radius)
            }))
        }
        SchemeCondition::SchemeMarkersNearOneEnemy { inches, count } => {
            markers_near_one_enemy(state, seat, among, inches, count)
        }
        SchemeCondition::ModelClearOfEnemiesIn { area, inches } => {
            check(scoring_models(state, seat).any(|(m, b)| {
                in_area(encounter, seat, area, b.center, b.radius)
                    && enemies_within(state, seat, (b.center, b.radius), inches, Some(m.id)) == 0
            }))
        }
        SchemeCondition::SchemeMarkersOnTerrain { area, count } => {
            markers_on_terrain(state, encounter, seat, among, area, count)
        }
        SchemeCondition::EngagingCostlier { count } => check(engaging_costlier(state, seat, count)),
        SchemeCondition::ModelsNearCenterlineEnds { inches, count } => {
            check(centerline_ends_held(state, encounter, seat, inches, count))
        }
        SchemeCondition::SchemeMarkersNearCorners {
            inches,
            count,
            own_zone_at_most,
        } => markers_near_corners(
            state,
            encounter,
            seat,
            among,
            inches,
            count,
            own_zone_at_most,
        ),
        SchemeCondition::KilledBySchemeMarker => encounter
            .kills_by_scheme_markers
            .iter()
            .filter(|kill| kill.seat == seat && kill.turn == encounter.turn)
            .flat_map(|kill| &kill.markers)
            .find(|id| spendable_markers(state, seat, among).any(|k| k.id == **id))
            .map(|id| vec![*id]),
        SchemeCondition::SchemeMarkersNearRemains { inches, count } => {
            markers_near_remains(state, seat, among, inches, count)
        }
        SchemeCondition::EnemyLeaderAtHalfHealth => {
            let leader = encounter.leaders[seat.other().index()].and_then(|id| state.model(id));
            check(leader.is_some_and(|m| {
                m.in_play() && u32::from(m.health) * 2 <= u32::from(m.card.max_health)
            }))
        }
        SchemeCondition::EnemyLeaderGone => {
            let leader = encounter.leaders[seat.other().index()].and_then(|id| state.model(id));
            check(leader.is_some_and(|m| !m.in_play()))
        }
        SchemeCondition::ChosenEngaged => {
            check(chosen.is_some_and(|m| m.in_play() && !engaging(state, m.id, seat).is_empty()))
        }
        SchemeCondition::ChosenAloneWithin { inches } => {
            let (m, b) = chosen_on_table()?;
            check(alone_within(state, m, b, inches))
        }
        SchemeCondition::ChosenIn { area } => {
            let (_, b) = chosen_on_table()?;
            check(in_area(encounter, seat, area, b.center, b.radius))
        }
        SchemeCondition::ChosenClearOfEnemies { inches } => {
            let (m, b) = chosen_on_table()?;
            check(enemies_within(state, m.owner, (b.center, b.radius), inches, None) == 0)
        }
        SchemeCondition::ChosenAtHalfHealthOrMore => check(chosen.is_some_and(|m| {
            m.in_play() && u32::from(m.health) * 2 >= u32::from(m.card.max_health)
        })),
        SchemeCondition::ChosenNearSchemeMarker { inches } => {
            let (_, b) = chosen_on_table()?;
            check(
                state
                    .scheme_markers_of(seat)
                    .any(|k| within((k.at.v2(), k.base.radius()), (b.center, b.radius), inches)),
            )
        }
        SchemeCondition::ChosenKilledByOwnCrewAfterReveal => {
            let revealed = reveal_turn(encounter, seat, &held.name)?;
            check(held.target.is_some_and(|target| {
                encounter
                    .own_crew_kills
                    .iter()
                    .any(|kill| kill.model == target && kill.turn > revealed)
            }))
        }
        SchemeCondition::ChosenInPlay => check(chosen.is_some_and(|m| m.in_play())),
        SchemeCondition::ChosenInteractedWith => {
            check(encounter.messages_delivered.iter().any(|d| {
                d.seat == seat && Some(d.target) == held.target && d.turn == encounter.turn
            }))
        }
        SchemeCondition::SecondChosenGone => check(
            held.second_target
                .and_then(|id| state.model(id))
                .is_some_and(|m| !m.in_play()),
        ),
        SchemeCondition::ChosenLeftSecondAtHalfHealth => {
            check(encounter.left_at_half_health.iter().any(|d| {
                Some(d.by) == held.target
                    && Some(d.target) == held.second_target
                    && d.turn == encounter.turn
            }))
        }
        // The player asserts it by claiming; the opponent checks.
        SchemeCondition::Claimed => Some(Vec::new()),
    }
}

/// How many enemy models are at half their maximum health or less. A
/// Craven enemy is ignored for its own crew's schemes, not for ours.
fn enemies_at_half_health(state: &GameState, seat: Seat) -> usize {
    crew_models(state, seat.other())
        .filter(|(m, _)| u32::from(m.health) * 2 <= u32::from(m.card.max_health))
        .count()
}

/// Whether no other model of `model`'s crew is within `inches` of it (a
/// scheme's "other enemy models" are the chosen one's own crew).
fn alone_within(state: &GameState, model: &Model, body: Body, inches: u8) -> bool {
    crew_models(state, model.owner)
        .filter(|(other, ob)| {
            other.id != model.id
                && within((body.center, body.radius), (ob.center, ob.radius), inches)
        })
        .count()
        == 0
}

/// `count` of the crew's spendable markers near one enemy model.
fn markers_near_one_enemy(
    state: &GameState,
    seat: Seat,
    among: Option<&[ObjectId]>,
    inches: u8,
    count: u8,
) -> Option<Vec<ObjectId>> {
    crew_models(state, seat.other()).find_map(|(_, enemy)| {
        let ids: Vec<ObjectId> = spendable_markers(state, seat, among)
            .filter(|k| {
                within(
                    (k.at.v2(), k.base.radius()),
                    (enemy.center, enemy.radius),
                    inches,
                )
            })
            .map(|k| k.id)
            .take(usize::from(count))
            .collect();
        (ids.len() >= usize::from(count)).then_some(ids)
    })
}

/// `count` of the crew's spendable markers in `area`, each on a different
/// terrain piece.
fn markers_on_terrain(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    among: Option<&[ObjectId]>,
    area: Area,
    count: u8,
) -> Option<Vec<ObjectId>> {
    let markers: Vec<&Marker> = spendable_markers(state, seat, among)
        .filter(|m| in_area(encounter, seat, area, m.at.v2(), m.base.radius()))
        .collect();
    let options: Vec<Vec<usize>> = markers
        .iter()
        .map(|k| {
            state
                .terrain
                .iter()
                .enumerate()
                .filter(|(_, t)| touches_terrain(t, k.at.v2(), k.base.radius()))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let picked = distinct_matching(&options, usize::from(count))?;
    Some(picked.into_iter().map(|i| markers[i].id).collect())
}

/// Whether `count` of the crew's models each engage a different enemy
/// that costs more than they do.
fn engaging_costlier(state: &GameState, seat: Seat, count: u8) -> bool {
    let friends: Vec<(ModelId, u8)> = scoring_models(state, seat)
        .map(|(m, _)| (m.id, m.card.cost))
        .collect();
    let enemies: Vec<(ModelId, u8)> = crew_models(state, seat.other())
        .map(|(m, _)| (m.id, m.card.cost))
        .collect();
    let engaged_by: Vec<Vec<ModelId>> = enemies
        .iter()
        .map(|(id, _)| engaging(state, *id, seat))
        .collect();
    let options: Vec<Vec<usize>> = friends
        .iter()
        .map(|(friend, cost)| {
            enemies
                .iter()
                .enumerate()
                .filter(|(e, (_, enemy_cost))| enemy_cost > cost && engaged_by[*e].contains(friend))
                .map(|(e, _)| e)
                .collect()
        })
        .collect();
    distinct_matching(&options, usize::from(count)).is_some()
}

/// Whether `count` ends of the centre line each have a different model of
/// the crew within `inches`.
fn centerline_ends_held(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    inches: u8,
    count: u8,
) -> bool {
    let (a, b) = encounter.setup.layout().centerline();
    let options: Vec<Vec<usize>> = scoring_models(state, seat)
        .map(|(_, body)| {
            [a, b]
                .iter()
                .enumerate()
                .filter(|(_, end)| within((body.center, body.radius), (**end, 0.0), inches))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    distinct_matching(&options, usize::from(count)).is_some()
}

/// `count` of the crew's spendable markers, each near a different table
/// corner, using at most `own_zone_at_most` corners of the crew's own zone.
fn markers_near_corners(
    state: &GameState,
    encounter: &Encounter,
    seat: Seat,
    among: Option<&[ObjectId]>,
    inches: u8,
    count: u8,
    own_zone_at_most: u8,
) -> Option<Vec<ObjectId>> {
    let corners = corners(encounter, seat);
    let markers: Vec<&Marker> = spendable_markers(state, seat, among).collect();
    // Every set of corners with few enough of the crew's own, until the
    // markers can stand by a different one each.
    (0u8..16)
        .filter(|set| {
            let own = (0..4)
                .filter(|c| set & (1 << c) != 0 && corners[*c].1)
                .count();
            own <= usize::from(own_zone_at_most)
        })
        .find_map(|set| {
            let options: Vec<Vec<usize>> = markers
                .iter()
                .map(|k| {
                    (0..4)
                        .filter(|c| set & (1 << c) != 0)
                        .filter(|c| {
                            within((k.at.v2(), k.base.radius()), (corners[*c].0, 0.0), inches)
                        })
                        .collect()
                })
                .collect();
            let picked = distinct_matching(&options, usize::from(count))?;
            Some(picked.into_iter().map(|i| markers[i].id).collect())
        })
}

/// `count` of the crew's spendable markers, each near a different Remains marker.
fn markers_near_remains(
    state: &GameState,
    seat: Seat,
    among: Option<&[ObjectId]>,
    inches: u8,
    count: u8,
) -> Option<Vec<ObjectId>> {
    let remains: Vec<&Marker> = state
        .markers
        .iter()
        .filter(|k| k.kind == MarkerKind::Remains)
        .collect();
    let markers: Vec<&Marker> = spendable_markers(state, seat, among).collect();
    let options: Vec<Vec<usize>> = markers
        .iter()
        .map(|k| {
            remains
                .iter()
                .enumerate()
                .filter(|(_, r)| {
                    within(
                        (k.at.v2(), k.base.radius()),
                        (r.at.v2(), r.base.radius()),
                        inches,
                    )
                })
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let picked = distinct_matching(&options, usize::from(count))?;
    Some(picked.into_iter().map(|i| markers[i].id).collect())
}

/// Whether a disc touches a terrain piece (any of its parts).
fn touches_terrain(terrain: &crate::table::Terrain, center: V2, radius: f64) -> bool {
    std::iter::once(&terrain.footprint)
        .chain(terrain.parts.iter().map(|p| &p.footprint))
        .any(|f| footprint_shape(f).signed_distance(center) <= radius + TOUCH)
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
