//! How good a position is for one seat, read from a dealt world: the VP
//! scored, what the strategy and the schemes in play would score at the
//! turn's end, markers, the crews' worth left on the table, soulstones and
//! cards. The search backs this up from the end of its rollouts.
//!
//! Only `+ - * /` on floats: a seeded bot must choose the same on every
//! machine, and `ln`, `exp` or `tanh` may round differently.

use crate::Seat;
use crate::encounter::objectives::StrategyScoring;
use crate::encounter::{EncounterRules, scoring};
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
    let rules = EncounterRules::of(world.edition);
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
        let met = |conditions: &[crate::encounter::objectives::SchemeCondition]| {
            scoring::requirement_met(world, encounter, seat, held, conditions, None).is_some()
        };
        let revealed = encounter.choices.has_revealed(seat, &held.name);
        if !revealed && met(&def.reveal) {
            worth += 0.6;
        }
        if met(&def.additional) || (last_turn && met(&def.end)) {
            worth += 0.4;
        }
    }
    worth
}
