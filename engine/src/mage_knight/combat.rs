//! Close and ranged combat: who may attack whom, the modifiers and the
//! rule of 3, the attack roll with its critical hits and misses, damage
//! (and its division among several targets) and healing.

use serde::{Deserialize, Serialize};

use super::battlefield;
use super::capture;
pub use super::capture::Capture;
use super::constructed;
use super::facts::{ActionKind, Critical, Fact, Harm, RollFor};
use super::game::{Battle, PendingSplit, Warrior, WarriorId};
use super::movement::{allowance, check_path, move_along, ready_for_action};
use super::orders::Work;
use super::warrior::{Ability, AttackType, DamageType, DefenseType, SpeedType};
use crate::table::Point;
use crate::table::geometry::V2;
use crate::{RuleError, Seat};

/// No value is modified by more than 3 once all modifiers are added.
pub fn rule_of_three(modifiers: i32) -> i32 {
    modifiers.clamp(-3, 3)
}

/// A value with its modifiers, never below 0.
fn modified(value: u8, modifiers: i32) -> u8 {
    u8::try_from((i32::from(value) + rule_of_three(modifiers)).max(0)).unwrap_or(u8::MAX)
}

/// A close combat action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CloseAttack {
    pub attacker: WarriorId,
    pub target: WarriorId,
    /// Friendly sword warriors without action tokens, their front arcs on
    /// the target, adding 1 each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gang_up: Vec<WarriorId>,
    /// Moves first (a sword warrior away from opposing warriors, pushed
    /// for it) and attacks at the end of the path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surge: Option<Surge>,
    /// A sword warrior's attempt, at -3, to take the target captive
    /// instead of damaging it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capture: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Surge {
    pub path: Vec<Point>,
    pub facing: u16,
}

/// A ranged combat action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangedAttack {
    pub attacker: WarriorId,
    /// Up to its target arrows, each once.
    pub targets: Vec<WarriorId>,
    /// A bow's +1 to attack or damage when every target is within half its
    /// range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point_blank: Option<Boost>,
    /// A bow's shot at one warrior in base contact with the attacker's
    /// friends, at -2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub precision: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Boost {
    Attack,
    Damage,
}

/// An attack the rules allow: each target's attack and defense values
/// with their modifiers, and the damage on a hit.
#[derive(Debug, Clone)]
pub struct AttackPlan {
    pub attacker: WarriorId,
    pub kind: ActionKind,
    /// (target, attack value against it, its defense value).
    pub against: Vec<(WarriorId, u8, u8)>,
    pub damage: u8,
    /// Heals instead of harming (a Mender's close combat action).
    pub heals: bool,
    pub gang_up: Vec<WarriorId>,
    pub surge: Option<Surge>,
    /// A close attack's attack and damage modifiers behind `against` and
    /// `damage`: a surge's pushing damage turns the dial before the
    /// attack, whose values then come from the new click.
    pub attack_modifiers: i32,
    pub damage_modifiers: i32,
    /// What a hit does instead of damage: take or eliminate a captive.
    pub capture: Option<Capture>,
    /// A ranged combat formation's other members, given the action too.
    pub shared: Vec<WarriorId>,
}

/// What a ranged combat formation's members add to the primary
/// attacker's values (before the rule of 3).
#[derive(Debug, Clone, Copy, Default)]
pub struct Support {
    pub attack: i32,
    pub damage: i32,
}

impl AttackPlan {
    /// The chance of a hit against each target (a 12 always hits, a 2
    /// always misses): what a bot may weigh without knowing the dice.
    pub fn chances(&self) -> Vec<f64> {
        self.against
            .iter()
            .map(|(_, attack, defense)| hit_chance(*attack, *defense))
            .collect()
    }
}

/// The chance that 2d6 plus `attack` reaches `defense`.
pub fn hit_chance(attack: u8, defense: u8) -> f64 {
    let mut hits = 0;
    for a in 1..=6u8 {
        for b in 1..=6u8 {
            let roll = a + b;
            if roll == 12 || (roll != 2 && roll + attack >= defense) {
                hits += 1;
            }
        }
    }
    f64::from(hits) / 36.0
}

/// The target's defense value against this attack: +2 for a wave warrior
/// in water, and what the caller adds (hindering terrain).
pub(super) fn defense_of(battle: &Battle, target: &Warrior, extra: i32) -> u8 {
    let mut modifiers = extra;
    // At soaring level: the height advantage modifier, always.
    if target.soaring {
        modifiers += 1;
    }
    if !target.is_captive()
        && target.speed_type() == SpeedType::Wave
        && battle.terrain_at(target.center()).any(|f| f.is_water())
    {
        modifiers += 2;
    }
    modified(target.click().defense, modifiers)
}

pub(super) fn attack_value(attacker: &Warrior, modifiers: i32, kind: Option<AttackType>) -> u8 {
    let bonus = if kind.is_some() && attacker.card.attack_type == kind {
        attacker.card.attack_bonus
    } else {
        0
    };
    modified(attacker.click().attack, modifiers).saturating_add(bonus)
}

pub(super) fn from_rear(attacker: V2, target: &Warrior) -> bool {
    !battlefield::in_front_arc(target.center(), target.facing, attacker)
}

fn target_of(battle: &Battle, id: WarriorId) -> Result<&Warrior, RuleError> {
    battle
        .warrior(id)
        .filter(|w| w.on_battlefield())
        .ok_or_else(|| {
            RuleError::not_allowed(format!("warrior {} is not on the battlefield", id.0))
        })
}

/// Checks a close combat action.
pub fn check_close(
    battle: &Battle,
    seat: Seat,
    order: &CloseAttack,
) -> Result<AttackPlan, RuleError> {
    let attacker = ready_for_action(battle, seat, order.attacker)?;
    let name = &attacker.card.name;
    if attacker.has(Ability::Demoralized) {
        return Err(RuleError::not_allowed(format!(
            "{name} is demoralized and may only be given move actions"
        )));
    }
    let target = target_of(battle, order.target)?;
    if target.id == attacker.id {
        return Err(RuleError::not_allowed("a warrior can never target itself"));
    }
    if attacker.captive.is_some() || target.is_captive() {
        return capture::check_eliminating_captive(battle, attacker, target, order);
    }
    let heals = target.seat == seat;
    if attacker.soaring != target.soaring {
        return Err(RuleError::not_allowed(format!(
            "{name} and {} are not at one level: close combat is between warriors on the ground or between warriors soaring",
            target.card.name
        )));
    }
    if order.capture && (attacker.soaring || target.soaring) {
        return Err(RuleError::not_allowed(
            "captures are made on the ground, not at soaring level",
        ));
    }
    if order.capture && (heals || !attacker.has_attack_type(AttackType::Sword)) {
        return Err(RuleError::not_allowed(format!(
            "only a sword warrior captures, and only an opposing warrior; {name} cannot capture {}",
            target.card.name
        )));
    }
    if heals && !attacker.has(Ability::Mender) {
        return Err(RuleError::not_allowed(
            "friendly warriors cannot target each other with damaging attacks",
        ));
    }
    // Where the attacker stands when it attacks: after its surge, if any.
    let mut at = attacker.center();
    let mut facing = attacker.facing;
    if let Some(surge) = &order.surge {
        if heals || !attacker.has_attack_type(AttackType::Sword) {
            return Err(RuleError::not_allowed(format!(
                "only a sword warrior surges into an opposing warrior; {name} cannot"
            )));
        }
        if battle.opposing_in_contact(attacker).next().is_some() {
            return Err(RuleError::not_allowed(format!(
                "{name} is in base contact with an opposing warrior and cannot surge"
            )));
        }
        check_path(
            battle,
            attacker,
            &surge.path,
            allowance(battle, attacker, false),
            attacker.soaring,
        )?;
        at = surge.path.last().map_or(at, |p| p.v2());
        facing = surge.facing % 360;
    }
    if !battlefield::in_contact(at, target.center())
        || !battlefield::in_front_arc(at, facing, target.center())
    {
        return Err(RuleError::not_allowed(format!(
            "{name}'s front arc must be in base contact with {}",
            target.card.name
        )));
    }
    let mut modifiers = 0;
    if !heals && from_rear(at, target) {
        modifiers += 1;
    }
    if order.capture {
        modifiers += capture::PENALTY;
    }
    let mut helpers: Vec<WarriorId> = Vec::new();
    for id in &order.gang_up {
        let helper = battle
            .warrior(*id)
            .filter(|w| w.seat == seat && w.able() && w.id != attacker.id)
            .filter(|w| w.soaring == target.soaring)
            .ok_or_else(|| RuleError::not_allowed(format!("warrior {} cannot gang up", id.0)))?;
        let helper_name = &helper.card.name;
        if heals {
            return Err(RuleError::not_allowed("no one gangs up to heal"));
        }
        if helpers.contains(id) {
            return Err(RuleError::not_allowed(format!(
                "{helper_name} gangs up once"
            )));
        }
        if !helper.has_attack_type(AttackType::Sword) {
            return Err(RuleError::not_allowed(format!(
                "only sword warriors gang up; {helper_name} cannot"
            )));
        }
        if helper.tokens > 0 {
            return Err(RuleError::not_allowed(format!(
                "{helper_name} has an action token and cannot gang up"
            )));
        }
        if !battlefield::in_contact(helper.center(), target.center())
            || !battlefield::in_front_arc(helper.center(), helper.facing, target.center())
        {
            return Err(RuleError::not_allowed(format!(
                "{helper_name}'s front arc must be in base contact with {} to gang up",
                target.card.name
            )));
        }
        helpers.push(*id);
        modifiers += 1;
    }
    let damage_modifiers = i32::from(attacker.has(Ability::Fury));
    Ok(AttackPlan {
        attacker: attacker.id,
        kind: ActionKind::CloseCombat,
        against: vec![close_against(battle, attacker, target, modifiers)],
        damage: if heals {
            1
        } else {
            modified(attacker.click().damage, damage_modifiers)
        },
        heals,
        gang_up: helpers,
        surge: order.surge.clone(),
        attack_modifiers: modifiers,
        damage_modifiers,
        capture: order.capture.then_some(Capture::Take),
        shared: Vec::new(),
    })
}

/// A close attack's target with the attack value against it (a sword's
/// bonus added) and its defense value.
pub(super) fn close_against(
    battle: &Battle,
    attacker: &Warrior,
    target: &Warrior,
    modifiers: i32,
) -> (WarriorId, u8, u8) {
    (
        target.id,
        attack_value(attacker, modifiers, Some(AttackType::Sword)),
        defense_of(battle, target, 0),
    )
}

/// Checks a ranged combat action.
pub fn check_ranged(
    battle: &Battle,
    seat: Seat,
    order: &RangedAttack,
) -> Result<AttackPlan, RuleError> {
    check_ranged_with(battle, seat, order, Support::default())
}

/// Whether `warrior` may be given a ranged combat action at all.
pub(super) fn may_shoot(battle: &Battle, warrior: &Warrior) -> Result<(), RuleError> {
    let name = &warrior.card.name;
    if warrior.has(Ability::Demoralized) {
        return Err(RuleError::not_allowed(format!(
            "{name} is demoralized and may only be given move actions"
        )));
    }
    if warrior.captive.is_some() {
        return Err(RuleError::not_allowed(format!(
            "{name} holds a captive: it may only move, or attack its captive to eliminate it"
        )));
    }
    if warrior.card.range == 0 {
        return Err(RuleError::not_allowed(format!("{name} has no range")));
    }
    if battle.opposing_in_contact(warrior).next().is_some() {
        return Err(RuleError::not_allowed(format!(
            "{name} is in base contact with an opposing warrior and cannot make a ranged attack"
        )));
    }
    Ok(())
}

/// A ranged combat action with what a formation's members add.
pub(super) fn check_ranged_with(
    battle: &Battle,
    seat: Seat,
    order: &RangedAttack,
    support: Support,
) -> Result<AttackPlan, RuleError> {
    let attacker = ready_for_action(battle, seat, order.attacker)?;
    let name = &attacker.card.name;
    let card = &attacker.card;
    may_shoot(battle, attacker)?;
    if order.targets.is_empty() || order.targets.len() > usize::from(card.targets) {
        return Err(RuleError::not_allowed(format!(
            "{name} targets 1 to {} warriors with one ranged attack",
            card.targets
        )));
    }
    let bow = attacker.has_attack_type(AttackType::Bow);
    if order.precision && (!bow || order.targets.len() != 1) {
        return Err(RuleError::not_allowed(
            "precision is a bow warrior's shot at a single target",
        ));
    }
    let at = attacker.center();
    let half_range = f64::from(card.range.div_ceil(2));
    let mut against = Vec::new();
    let mut all_close = true;
    for (i, id) in order.targets.iter().enumerate() {
        if order.targets[..i].contains(id) {
            return Err(RuleError::not_allowed(
                "a ranged attack targets each warrior once",
            ));
        }
        let target = target_of(battle, *id)?;
        let target_name = &target.card.name;
        if target.id == attacker.id {
            return Err(RuleError::not_allowed("a warrior can never target itself"));
        }
        if target.seat == seat {
            return Err(RuleError::not_allowed(
                "friendly warriors cannot target each other with damaging attacks",
            ));
        }
        if target.is_captive() {
            return Err(RuleError::not_allowed(format!(
                "{target_name} is a captive: only its captor may target it, to eliminate it"
            )));
        }
        if card.attack_type == Some(AttackType::Wand)
            && target.card.defense_type == DefenseType::MagicImmunity
        {
            return Err(RuleError::not_allowed(format!(
                "{target_name} is immune to magic: a wand attack cannot target it"
            )));
        }
        let distance = at.dist(target.center());
        if distance > f64::from(card.range) + battlefield::CONTACT {
            return Err(RuleError::not_allowed(format!(
                "{target_name} is {distance:.1}\" away, beyond {name}'s range of {}\"",
                card.range
            )));
        }
        all_close &= distance <= half_range + battlefield::CONTACT;
        if !battlefield::in_front_arc(at, attacker.facing, target.center()) {
            return Err(RuleError::not_allowed(format!(
                "the line of fire to {target_name} does not pass through {name}'s front arc"
            )));
        }
        let fire = super::fire::fire_to(battle, attacker, target)?;
        let engaged_with_friend = battle.army(seat).any(|f| {
            f.on_battlefield()
                && f.soaring == target.soaring
                && battlefield::in_contact(f.center(), target.center())
        });
        if engaged_with_friend && !order.precision {
            return Err(RuleError::not_allowed(format!(
                "{target_name} is in base contact with a warrior friendly to {name} (a bow may use precision)"
            )));
        }
        let mut modifiers = support.attack;
        if from_rear(at, target) {
            modifiers += 1;
        }
        if order.precision {
            modifiers -= 2;
        }
        if order.point_blank == Some(Boost::Attack) {
            modifiers += 1;
        }
        against.push((
            target.id,
            attack_value(
                attacker,
                modifiers,
                card.attack_type.filter(|t| t.is_ranged()),
            ),
            defense_of(
                battle,
                target,
                i32::from(fire.hindered)
                    + i32::from(fire.height)
                    + i32::from(constructed::fortification(battle, at, target)),
            ),
        ));
    }
    if order.point_blank.is_some() && (!bow || !all_close) {
        return Err(RuleError::not_allowed(format!(
            "point blank is a bow's, with every target within {half_range}\" (half its range)"
        )));
    }
    let damage_modifiers = i32::from(order.point_blank == Some(Boost::Damage)) + support.damage;
    Ok(AttackPlan {
        attacker: attacker.id,
        kind: ActionKind::RangedCombat,
        against,
        damage: modified(card.ranged_damage, damage_modifiers),
        heals: false,
        gang_up: Vec::new(),
        surge: None,
        // Each target's modifiers differ; only a surge reads these.
        attack_modifiers: 0,
        damage_modifiers,
        capture: None,
        shared: Vec::new(),
    })
}

/// Resolves a close combat action (with its surge first, if any).
pub(super) fn resolve_close(work: &mut Work, plan: &AttackPlan) {
    let id = plan.attacker;
    work.push(Fact::ActionGiven {
        warrior: id,
        kind: ActionKind::CloseCombat,
    });
    let mut plan = plan.clone();
    if let Some(surge) = &plan.surge {
        move_along(work, id, &surge.path, surge.facing, None);
        work.deal(id, 1, Harm::Pushing);
        let Some(surged) = work.battle.warrior(id).filter(|w| w.on_battlefield()) else {
            return;
        };
        // The push came first: the attack uses the click it turned to.
        let attack = attack_value(surged, plan.attack_modifiers, Some(AttackType::Sword));
        for (_, value, _) in &mut plan.against {
            *value = attack;
        }
        plan.damage = modified(surged.click().damage, plan.damage_modifiers);
    }
    let plan = &plan;
    let (critical, hits) = attack_roll(work, plan);
    if let Some(capture) = plan.capture {
        for target in hits {
            match capture {
                Capture::Take => capture::take_captive(work, id, target),
                Capture::Eliminate => {
                    let credited = work.battle.warrior(id).map(|w| w.seat);
                    work.eliminate(target, credited);
                }
            }
        }
    } else if plan.heals {
        for target in hits {
            heal(work, target, 1 + u8::from(critical == Some(Critical::Hit)));
        }
    } else {
        let extra = u8::from(critical == Some(Critical::Hit));
        for target in hits {
            work.deal(target, plan.damage + extra, Harm::Attack { by: id });
        }
    }
    after_attack(work, id, critical);
}

/// Resolves a ranged combat action; damage over several hits waits for
/// its player to divide it.
pub(super) fn resolve_ranged(work: &mut Work, plan: &AttackPlan) {
    let id = plan.attacker;
    work.push(Fact::ActionGiven {
        warrior: id,
        kind: ActionKind::RangedCombat,
    });
    if !plan.shared.is_empty() {
        work.push(Fact::ActionShared {
            warriors: plan.shared.clone(),
            kind: ActionKind::RangedCombat,
        });
    }
    let (critical, hits) = attack_roll(work, plan);
    let seat = work.battle.warrior(id).map_or(Seat::A, |w| w.seat);
    let is_critical = critical == Some(Critical::Hit);
    // Only the primary attacker is pushed by a critical miss; every
    // member takes its action token.
    let finish_members = |work: &mut Work| {
        for member in &plan.shared {
            work.finish_action(*member);
        }
    };
    match hits.as_slice() {
        [] => {
            after_attack(work, id, critical);
            finish_members(work);
        }
        [one] => {
            work.deal(
                *one,
                plan.damage + u8::from(is_critical),
                Harm::Attack { by: id },
            );
            after_attack(work, id, critical);
            finish_members(work);
        }
        _ if plan.damage == 0 => after_attack(work, id, critical),
        _ => work.push(Fact::SplitAsked {
            seat,
            split: Box::new(PendingSplit {
                attacker: id,
                hits,
                damage: plan.damage,
                critical: is_critical,
            }),
        }),
    }
}

/// Divides a ranged attack's damage, then ends the action.
pub(super) fn split_damage(
    work: &mut Work,
    split: &PendingSplit,
    shares: &[u8],
) -> Result<(), RuleError> {
    if shares.len() != split.hits.len() {
        return Err(RuleError::not_allowed(format!(
            "give a share (0 or more) to each of the {} targets hit",
            split.hits.len()
        )));
    }
    let total: u32 = shares.iter().map(|s| u32::from(*s)).sum();
    if total != u32::from(split.damage) {
        return Err(RuleError::not_allowed(format!(
            "the shares must add up to the attack's {} damage",
            split.damage
        )));
    }
    let seat = work
        .battle
        .warrior(split.attacker)
        .map_or(Seat::A, |w| w.seat);
    work.push(Fact::DamageDivided {
        seat,
        shares: split
            .hits
            .iter()
            .copied()
            .zip(shares.iter().copied())
            .collect(),
    });
    for (target, share) in split.hits.iter().zip(shares) {
        // A critical hit adds 1 to every target the attack hit.
        let amount = share + u8::from(split.critical);
        work.deal(*target, amount, Harm::Attack { by: split.attacker });
    }
    let critical = split.critical.then_some(Critical::Hit);
    after_attack(work, split.attacker, critical);
    Ok(())
}

/// The attack roll against every target: (critical, hits).
pub(super) fn attack_roll(
    work: &mut Work,
    plan: &AttackPlan,
) -> (Option<Critical>, Vec<WarriorId>) {
    let dice = work.roll(
        RollFor::Attack {
            attacker: plan.attacker,
        },
        2,
    );
    let roll: u8 = dice.iter().sum();
    let critical = match roll {
        12 => Some(Critical::Hit),
        2 => Some(Critical::Miss),
        _ => None,
    };
    let hits: Vec<WarriorId> = plan
        .against
        .iter()
        .filter(|(_, attack, defense)| match critical {
            Some(Critical::Hit) => true,
            Some(Critical::Miss) => false,
            None => roll + attack >= *defense,
        })
        .map(|(id, ..)| *id)
        .collect();
    work.push(Fact::Attacked {
        attacker: plan.attacker,
        roll,
        against: plan.against.clone(),
        hits: hits.clone(),
        critical,
    });
    (critical, hits)
}

/// A critical miss pushes the attacker; then its action token.
pub(super) fn after_attack(work: &mut Work, attacker: WarriorId, critical: Option<Critical>) {
    if critical == Some(Critical::Miss) {
        work.deal(attacker, 1, Harm::Pushing);
    }
    work.finish_action(attacker);
}

/// Heals `amount`, never past the starting marker; a golem heals back to
/// its last repair marker (or the start) and not at all while one shows.
fn heal(work: &mut Work, id: WarriorId, amount: u8) {
    let Some(warrior) = work.battle.warrior(id) else {
        return;
    };
    let healed = if warrior.card.damage_type == DamageType::Golem {
        if warrior.click().repair {
            0
        } else {
            let back = (0..warrior.damage)
                .rev()
                .find(|d| warrior.card.click(*d).is_some_and(|c| c.repair))
                .unwrap_or(0);
            warrior.damage - back
        }
    } else {
        amount.min(warrior.damage)
    };
    if healed > 0 {
        work.push(Fact::Healed {
            warrior: id,
            amount: healed,
        });
    }
}
