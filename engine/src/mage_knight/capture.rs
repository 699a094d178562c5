//! Capturing: a sword warrior's close combat attack, at -3, that takes
//! its target captive instead of damaging it, and a captor's attempt, at
//! -3 too, to eliminate its captive. What a captor and a captive may do
//! otherwise is asked where it matters (`game::Warrior::is_captive`,
//! `movement::carried`, `orders::Work::eliminate`).

use super::battlefield;
use super::combat::{AttackPlan, CloseAttack, close_against, from_rear};
use super::facts::{ActionKind, Fact};
use super::game::{Battle, Warrior, WarriorId};
use super::orders::Work;
use crate::RuleError;

/// A close attack that captures rather than damages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capture {
    /// A hit makes the target the attacker's captive.
    Take,
    /// A captor's attack on its own captive: a hit eliminates it.
    Eliminate,
}

/// A capture attempt's penalty, and an attempt to eliminate a captive's.
pub(super) const PENALTY: i32 = -3;

/// A close attack by a captor or on a captive: only a captor's attack on
/// its own captive, to eliminate it, at -3 and with no one ganging up.
pub(super) fn check_eliminating_captive(
    battle: &Battle,
    attacker: &Warrior,
    target: &Warrior,
    order: &CloseAttack,
) -> Result<AttackPlan, RuleError> {
    let name = &attacker.card.name;
    let target_name = &target.card.name;
    if target.captor != Some(attacker.id) {
        return Err(RuleError::not_allowed(if target.is_captive() {
            format!("{target_name} is a captive: only its captor may target it, to eliminate it")
        } else {
            format!(
                "{name} holds a captive: it may only move, or attack its captive to eliminate it"
            )
        }));
    }
    if !order.gang_up.is_empty() {
        return Err(RuleError::not_allowed(
            "no one gangs up on an attempt to eliminate a captive",
        ));
    }
    if order.surge.is_some() || order.capture {
        return Err(RuleError::not_allowed(format!(
            "{name} may only attack its captive {target_name} where it stands, to eliminate it"
        )));
    }
    if !battlefield::in_contact(attacker.center(), target.center())
        || !battlefield::in_front_arc(attacker.center(), attacker.facing, target.center())
    {
        return Err(RuleError::not_allowed(format!(
            "{name}'s front arc must be in base contact with {target_name}"
        )));
    }
    let mut modifiers = PENALTY;
    if from_rear(attacker.center(), target) {
        modifiers += 1;
    }
    Ok(AttackPlan {
        attacker: attacker.id,
        kind: ActionKind::CloseCombat,
        against: vec![close_against(battle, attacker, target, modifiers)],
        damage: 0,
        heals: false,
        gang_up: Vec::new(),
        surge: None,
        attack_modifiers: modifiers,
        damage_modifiers: 0,
        capture: Some(Capture::Eliminate),
        shared: Vec::new(),
    })
}

/// A hit that captures: the target's captive (freeing any captive of its
/// own: a captive holds no one) with its action tokens removed.
pub(super) fn take_captive(work: &mut Work, captor: WarriorId, captive: WarriorId) {
    if let Some(held) = work.battle.warrior(captive).and_then(|w| w.captive) {
        work.push(Fact::Freed { captive: held });
    }
    work.push(Fact::Captured { captor, captive });
}
