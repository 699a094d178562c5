//! Lines of fire (rulebook 402–416, 585–603): what blocks one (bases,
//! blocking terrain, elevated terrain between warriors off it), and what
//! it brings to the defense (hindering terrain, the height advantage).

use super::battlefield;
use super::game::{Battle, Warrior, WarriorId};
use crate::RuleError;
use crate::table::geometry::V2;

/// A line of fire's effect on the defense.
pub struct Fire {
    /// The hindering terrain modifier applies.
    pub hindered: bool,
    /// The height advantage modifier applies: a target on elevated
    /// terrain, an attacker not.
    pub height: bool,
}

/// The line of fire to a target at soaring level meets no terrain and no
/// base; to one on the ground, see [`line_of_fire`].
pub fn fire_to(battle: &Battle, attacker: &Warrior, target: &Warrior) -> Result<Fire, RuleError> {
    if target.soaring {
        return Ok(Fire {
            hindered: false,
            height: false,
        });
    }
    line_of_fire(battle, attacker, target)
}

/// The line of fire from `attacker` to `target`, or why it is blocked.
/// No soaring warrior's base is in the way. On the ground, every other base and blocking terrain block it, and any
/// elevated feature it crosses. With the attacker or the target raised,
/// only bases on their elevated features block it, and low hindering
/// terrain counts only where one of them stands in it.
pub fn line_of_fire(
    battle: &Battle,
    attacker: &Warrior,
    target: &Warrior,
) -> Result<Fire, RuleError> {
    line_to(
        battle,
        attacker,
        target.center(),
        Some(target.id),
        &target.card.name,
    )
}

/// The line of fire from `attacker` to a ground spot `b` (a warrior's
/// center, `target`, or a bombardment token's), named `aim` in refusals.
pub(super) fn line_to(
    battle: &Battle,
    attacker: &Warrior,
    b: V2,
    target: Option<WarriorId>,
    aim: &str,
) -> Result<Fire, RuleError> {
    let a = attacker.center();
    let (high_a, high_b) = (battle.elevation_at(a), battle.elevation_at(b));
    // A soaring attacker shoots from above the elevated terrain.
    let raised = high_a.is_some() || high_b.is_some() || attacker.soaring;
    let in_the_way = |w: &Warrior| {
        if w.soaring {
            return false;
        }
        if !raised {
            return true;
        }
        let level = battle.elevation_at(w.center());
        level.is_some() && (level == high_a || level == high_b)
    };
    if let Some(other) = battle.standing().find(|w| {
        w.id != attacker.id
            && Some(w.id) != target
            // A base standing on a token's spot is under the shot, not in its way.
            && (target.is_some() || w.center().dist(b) > battlefield::BASE_RADIUS)
            && in_the_way(w)
            && battlefield::fire_crosses_base(a, b, w.center())
    }) {
        return Err(RuleError::not_allowed(format!(
            "{}'s base blocks the line of fire to {}",
            other.card.name, aim
        )));
    }
    let mut hindered = false;
    for (i, feature) in battle.terrain.iter().enumerate() {
        let shape = feature.shape();
        let crosses = battlefield::segment_enters(&shape, a, b);
        let theirs = Some(i) == high_a || Some(i) == high_b || attacker.soaring;
        if crosses && (feature.kind.blocks_fire() || (feature.is_elevated() && !theirs)) {
            return Err(RuleError::not_allowed(format!(
                "{} blocks the line of fire to {}",
                feature.name, aim
            )));
        }
        if feature.kind.hinders_fire() {
            let beyond = battlefield::fire_enters_beyond_attacker(&shape, a, b);
            let under_target = feature.occupied_from(b);
            hindered |= if raised && !feature.is_elevated() {
                under_target || (beyond && feature.occupied_from(a))
            } else {
                beyond || under_target
            };
        }
    }
    Ok(Fire {
        hindered,
        height: high_b.is_some() && high_a.is_none() && !attacker.soaring,
    })
}
