//! How good a position is for one seat, read from a dealt world: the VP
//! scored, what the strategy and the schemes in play would score at the
//! turn's end, markers, the crews' worth left on the table, soulstones and
//! cards. The search backs this up from the end of its rollouts.
//!
//! Only `+ - * /` on floats: a seeded bot must choose the same on every
//! machine, and `ln`, `exp` or `tanh` may round differently.

use crate::Seat;
use crate::encounter::objectives::{SchemeCondition, StrategyScoring};
use crate::encounter::scoring;
use crate::state::GameState;
use crate::table::MarkerKind;

/// A reward in 0..=1 for `seat`: one half is even, more is better.
pub(super) fn reward(world: &GameState, seat: Seat) -> f64 {
    let lead = worth(world, seat) - worth(world, seat.other());
    let lead = if world.ended {
        // A finished game is its score, and a win is worth more than a VP.
        let vp = f64::from(world.player(seat).victory_points)
            - f64::from(world.player(seat.other()).victory_points);
        vp + 2.0 * vp.signum()
    } else {
        lead
    };
    0.5 + lead / (2.0 * (lead.abs() + 4.0))
}

/// What `seat` holds, in about VP.
pub(super) fn worth(world: &GameState, seat: Seat) -> f64 {
    let player = world.player(seat);
    let mut worth = f64::from(player.victory_points);
    worth += objectives(world, seat);
    worth += 0.15 * scoring::friendly_markers(world, seat, MarkerKind::Strategy) as f64;
    worth += 0.05 * scoring::friendly_markers(world, seat, MarkerKind::Scheme) as f64;
    let crew: f64 = world
        .models
        .iter()
        .filter(|m| m.owner == seat && m.in_play() && m.card.max_health > 0)
        .map(|m| {
            f64::from(m.card.cost) * f64::from(m.health) / f64::from(m.card.max_health)
                + if m.card.cost == 0 { 0.5 } else { 0.0 }
        })
        .sum();
    worth += 0.08 * crew;
    worth += 0.1 * f64::from(player.soulstones) + 0.05 * player.hand.len() as f64;
    worth
}

/// The VP the strategy and `seat`'s schemes would give if the turn ended
/// now, weighed below a VP already scored (the other crew still acts).
fn objectives(world: &GameState, seat: Seat) -> f64 {
    let Some(encounter) = world.encounter.as_deref() else {
        return 0.0;
    };
    let rules = &world.edition.rules().encounter;
    if encounter.turn == 0 || encounter.turn < rules.first_scoring_turn {
        // Nothing scores yet: the ground won toward it still counts below.
        return 0.0;
    }
    let mut worth = 0.0;
    let strategy = &encounter.setup.strategy;
    if strategy.scoring != StrategyScoring::Claimed
        && encounter.strategy_vp[seat.index()] < rules.max_strategy_vp
        && scoring::strategy_scorers(world, encounter).contains(&seat)
    {
        worth += 0.6;
    }
    if encounter.scheme_vp[seat.index()] >= rules.max_scheme_vp {
        return worth;
    }
    let last_turn = encounter.turn >= rules.turns;
    for slot in &encounter.choices.schemes[seat.index()] {
        let Some(held) = slot.value.as_ref() else {
            continue;
        };
        let Some(def) = encounter.setup.schemes.scheme(&held.name) else {
            continue;
        };
        if def.is_claimed() {
            continue;
        }
        let met = |conditions: &[SchemeCondition]| {
            scoring::requirement_met(world, encounter, seat, held, conditions, None).is_some()
        };
        // A requirement met is worth its VP (weighed); one part way there
        // (one marker of two) a share of half as much, so that the search
        // sees the first step toward a scheme.
        let worth_of = |conditions: &[SchemeCondition]| {
            if met(conditions) {
                1.0
            } else if conditions.is_empty() {
                0.0
            } else {
                let done: f64 = conditions
                    .iter()
                    .map(|c| progress(world, encounter, seat, held, *c))
                    .sum();
                0.5 * done / conditions.len() as f64
            }
        };
        let revealed = encounter.choices.has_revealed(seat, &held.name);
        if !revealed {
            worth += 0.6 * worth_of(&def.reveal);
        }
        worth += 0.4 * worth_of(&def.additional);
        // An end-of-game requirement scores only then, but its ground is
        // taken on the turns before.
        worth += if last_turn { 0.4 } else { 0.2 } * worth_of(&def.end);
    }
    worth
}

/// How far toward `condition` `seat` is, 0 to 1: for a condition with a
/// count, the largest count that holds now over the count asked for.
fn progress(
    world: &GameState,
    encounter: &crate::encounter::Encounter,
    seat: Seat,
    held: &crate::encounter::HeldScheme,
    condition: SchemeCondition,
) -> f64 {
    let Some(asked) = count_of(condition).filter(|n| *n > 1) else {
        return if scoring::holds(world, encounter, seat, held, condition) {
            1.0
        } else {
            0.0
        };
    };
    (1..asked)
        .rev()
        .find(|n| scoring::holds(world, encounter, seat, held, with_count(condition, *n)))
        .map_or(0.0, |n| f64::from(n) / f64::from(asked))
}

/// The count a condition asks for, if it has one.
fn count_of(condition: SchemeCondition) -> Option<u8> {
    use SchemeCondition as C;
    match condition {
        C::SchemeMarkersIn { count, .. }
        | C::ModelsIn { count, .. }
        | C::ModelsInQuarters { count }
        | C::KilledThisTurn { count }
        | C::EnemiesAtHalfHealth { count }
        | C::SchemeMarkersNearOneEnemy { count, .. }
        | C::SchemeMarkersOnTerrain { count, .. }
        | C::EngagingCostlier { count }
        | C::ModelsNearCenterlineEnds { count, .. }
        | C::SchemeMarkersNearCorners { count, .. }
        | C::SchemeMarkersNearRemains { count, .. } => Some(count),
        _ => None,
    }
}

/// `condition` asking for `n` instead of its own count.
fn with_count(condition: SchemeCondition, n: u8) -> SchemeCondition {
    use SchemeCondition as C;
    match condition {
        C::SchemeMarkersIn { area, .. } => C::SchemeMarkersIn { area, count: n },
        C::ModelsIn { area, .. } => C::ModelsIn { area, count: n },
        C::ModelsInQuarters { .. } => C::ModelsInQuarters { count: n },
        C::KilledThisTurn { .. } => C::KilledThisTurn { count: n },
        C::EnemiesAtHalfHealth { .. } => C::EnemiesAtHalfHealth { count: n },
        C::SchemeMarkersNearOneEnemy { inches, .. } => {
            C::SchemeMarkersNearOneEnemy { inches, count: n }
        }
        C::SchemeMarkersOnTerrain { area, .. } => C::SchemeMarkersOnTerrain { area, count: n },
        C::EngagingCostlier { .. } => C::EngagingCostlier { count: n },
        C::ModelsNearCenterlineEnds { inches, .. } => {
            C::ModelsNearCenterlineEnds { inches, count: n }
        }
        C::SchemeMarkersNearCorners {
            inches,
            own_zone_at_most,
            ..
        } => C::SchemeMarkersNearCorners {
            inches,
            count: n,
            own_zone_at_most,
        },
        C::SchemeMarkersNearRemains { inches, .. } => {
            C::SchemeMarkersNearRemains { inches, count: n }
        }
        other => other,
    }
}
