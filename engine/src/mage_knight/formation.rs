//! Formations: three to five warriors of one faction, grouped in base
//! contact, sharing the action given to one of them. A movement formation
//! moves every member at the lowest member's speed and ends grouped; a
//! ranged combat formation's members each add to the primary attacker's
//! attack or damage against a single target.

use serde::{Deserialize, Serialize};

use super::battlefield;
use super::combat::{self, AttackPlan, Boost, RangedAttack, Support};
use super::facts::{ActionKind, Fact};
use super::game::{Battle, Warrior, WarriorId};
use super::movement::{self, MoveOrder, MovePlan};
use super::orders::Work;
use super::warrior::AttackType;
use crate::table::Point;
use crate::table::geometry::V2;
use crate::{RuleError, Seat};

/// A formation has at least this many members...
pub const SMALLEST: usize = 3;
/// ...and at most this many.
pub const LARGEST: usize = 5;

/// Warriors of this faction have no faction symbol and join no formation,
/// unless a friendly Shyft is on the battlefield.
pub const MAGE_SPAWN: &str = "Mage Spawn";
/// Shyft warriors form formations with friendly Mage Spawn.
pub const SHYFT: &str = "Shyft";

/// A move action shared by a movement formation: the first member is the
/// one given the action; each member's own path and facing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormationMove {
    pub members: Vec<MoveOrder>,
}

/// A ranged combat action shared by a ranged combat formation: the
/// primary attacker's attack on a single target, and what each other
/// member adds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangedFormation {
    pub attack: RangedAttack,
    pub members: Vec<Contribution>,
}

/// A member's part in a ranged combat formation: +2 to the primary
/// attacker's attack value, or (a bow warrior's choice) +1 to its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contribution {
    pub warrior: WarriorId,
    pub adds: Boost,
}

/// The faction a warrior forms formations as: Mage Spawn count as Shyft
/// while a friendly Shyft is on the battlefield.
fn formation_faction<'a>(battle: &Battle, warrior: &'a Warrior) -> Option<&'a str> {
    let faction = warrior.card.faction.as_str();
    if faction != MAGE_SPAWN {
        return Some(faction);
    }
    battle
        .army(warrior.seat)
        .any(|w| w.on_battlefield() && !w.is_captive() && w.card.faction == SHYFT)
        .then_some(SHYFT)
}

/// The general requirements: three to five different warriors of `seat`,
/// each ready for the action, of one faction, grouped in base contact.
fn members<'a>(
    battle: &'a Battle,
    seat: Seat,
    ids: &[WarriorId],
) -> Result<Vec<&'a Warrior>, RuleError> {
    if !(SMALLEST..=LARGEST).contains(&ids.len()) {
        return Err(RuleError::not_allowed(format!(
            "a formation has {SMALLEST} to {LARGEST} members, not {}",
            ids.len()
        )));
    }
    let mut found: Vec<&Warrior> = Vec::new();
    for id in ids {
        let warrior = movement::ready_for_action(battle, seat, *id)?;
        if warrior.soaring {
            return Err(RuleError::not_allowed(format!(
                "{} is at soaring level: soaring warriors are never members of a formation",
                warrior.card.name
            )));
        }
        if found.iter().any(|w| w.id == *id) {
            return Err(RuleError::not_allowed(format!(
                "{} is named twice in the formation",
                warrior.card.name
            )));
        }
        found.push(warrior);
    }
    let factions: Vec<Option<&str>> = found.iter().map(|w| formation_faction(battle, w)).collect();
    if let Some(pos) = factions.iter().position(Option::is_none) {
        return Err(RuleError::not_allowed(format!(
            "{} is Mage Spawn, with no faction symbol: it joins a formation only beside a friendly Shyft",
            found[pos].card.name
        )));
    }
    if factions.windows(2).any(|pair| pair[0] != pair[1]) {
        return Err(RuleError::not_allowed(
            "every member of a formation is of the same faction",
        ));
    }
    let centers: Vec<V2> = found.iter().map(|w| w.center()).collect();
    if !grouped(&centers) {
        return Err(RuleError::not_allowed(
            "a formation's members are grouped, each in base contact with another of them",
        ));
    }
    Ok(found)
}

/// Whether the bases at `centers` form one group through base contact.
pub fn grouped(centers: &[V2]) -> bool {
    let Some(first) = centers.first() else {
        return false;
    };
    let mut reached = vec![false; centers.len()];
    reached[0] = true;
    let mut frontier = vec![*first];
    while let Some(at) = frontier.pop() {
        for (i, other) in centers.iter().enumerate() {
            if !reached[i] && battlefield::in_contact(at, *other) {
                reached[i] = true;
                frontier.push(*other);
            }
        }
    }
    reached.into_iter().all(|r| r)
}

/// Checks a movement formation's move: each member moves in turn, at the
/// lowest member's speed value, past the members already moved, and the
/// formation ends grouped. With double-time, every member uses it (each
/// a boot or horseshoe warrior away from opposing warriors), doubling
/// that speed; each boot member is pushed for it.
pub fn check_move(
    battle: &Battle,
    seat: Seat,
    order: &FormationMove,
) -> Result<Vec<MovePlan>, RuleError> {
    let ids: Vec<WarriorId> = order.members.iter().map(|m| m.warrior).collect();
    let found = members(battle, seat, &ids)?;
    if order.members.iter().any(|m| m.change_level) {
        return Err(RuleError::not_allowed(
            "no member of a formation takes off: soaring warriors are never members",
        ));
    }
    let hurried = order.members.iter().filter(|m| m.double_time).count();
    if hurried != 0 && hurried != order.members.len() {
        return Err(RuleError::not_allowed(
            "in a movement formation every member uses double-time, or none does",
        ));
    }
    let speed = found
        .iter()
        .map(|w| movement::speed_value(battle, w))
        .min()
        .unwrap_or(0);
    // Each member's path is checked where the earlier members now stand.
    let mut moved = battle.clone();
    let mut plans = Vec::new();
    for member in &order.members {
        let warrior = moved
            .warrior(member.warrior)
            .ok_or_else(|| RuleError::not_allowed("no such warrior"))?;
        let plan = movement::check_move(&moved, warrior, member, speed)?;
        for (id, to, facing) in plan_ends(&moved, &plan) {
            if let Some(w) = moved.warrior_mut(id) {
                w.at = Some(to);
                w.facing = facing;
            }
        }
        plans.push(plan);
    }
    let ends: Vec<V2> = ids
        .iter()
        .filter_map(|id| moved.warrior(*id))
        .map(Warrior::center)
        .collect();
    if !grouped(&ends) {
        return Err(RuleError::not_allowed(
            "at the end of the move each member must be in base contact with another, in one group",
        ));
    }
    Ok(plans)
}

/// A movement formation in which each member takes its leader's path,
/// shifted to start where it stands, its facing and its double-time; the
/// front of the formation moves first, so no one walks through a member still to
/// move (the first to move is the one given the action).
pub fn following(battle: &Battle, leader: MoveOrder, members: &[WarriorId]) -> FormationMove {
    let start = battle
        .warrior(leader.warrior)
        .map(|w| w.center())
        .unwrap_or_default();
    let end = leader.path.last().map_or(start, |p| p.v2());
    let shift = end.minus(start);
    let mut moving: Vec<(f64, MoveOrder)> = std::iter::once(leader.warrior)
        .chain(members.iter().copied().filter(|m| *m != leader.warrior))
        .map(|id| {
            let at = battle.warrior(id).map(|w| w.center()).unwrap_or_default();
            let path = leader
                .path
                .iter()
                .map(|p| Point::from_v2(at.plus(p.v2().minus(start))))
                .collect();
            (
                at.dot(shift),
                MoveOrder {
                    warrior: id,
                    path,
                    facing: leader.facing,
                    // Double-time is the whole formation's or no one's.
                    double_time: leader.double_time,
                    captive_to: None,
                    change_level: false,
                },
            )
        })
        .collect();
    moving.sort_by(|a, b| b.0.total_cmp(&a.0));
    FormationMove {
        members: moving.into_iter().map(|(_, m)| m).collect(),
    }
}

/// Where a move leaves its warrior (and its captive).
fn plan_ends(battle: &Battle, plan: &MovePlan) -> Vec<(WarriorId, Point, u16)> {
    let mut ends = Vec::new();
    if let Some(w) = battle.warrior(plan.warrior) {
        let to = plan.path.last().copied().or(w.at);
        if let Some(to) = to {
            ends.push((w.id, to, plan.facing));
        }
    }
    if let Some((captive, to)) = plan.carried {
        let facing = battle.warrior(captive).map_or(0, |w| w.facing);
        ends.push((captive, to, facing));
    }
    ends
}

/// Resolves a movement formation: one action given, shared by the others;
/// every break away roll before anyone moves (a member that fails only
/// turns); then each member moves in turn and takes its action token.
pub(super) fn resolve_move(work: &mut Work, plans: &[MovePlan]) {
    let Some((first, rest)) = plans.split_first() else {
        return;
    };
    work.push(Fact::ActionGiven {
        warrior: first.warrior,
        kind: ActionKind::Move,
    });
    work.push(Fact::ActionShared {
        warriors: rest.iter().map(|p| p.warrior).collect(),
        kind: ActionKind::Move,
    });
    let free: Vec<bool> = plans
        .iter()
        .map(|plan| movement::break_away(work, plan))
        .collect();
    for (plan, free) in plans.iter().zip(free) {
        if free {
            movement::travel(work, plan);
        }
    }
    for plan in plans {
        work.finish_action(plan.warrior);
    }
}

/// Checks a ranged combat formation: a damaging attack on one target by
/// the primary attacker; every member ready for a ranged combat action,
/// the target within its range, in its front arc and along an unblocked
/// line of fire. Only the primary attacker's line of fire brings the
/// hindering modifier; the rule of 3 holds over everything added.
pub fn check_ranged(
    battle: &Battle,
    seat: Seat,
    order: &RangedFormation,
) -> Result<AttackPlan, RuleError> {
    let attack = &order.attack;
    let [target_id] = attack.targets.as_slice() else {
        return Err(RuleError::not_allowed(
            "a ranged combat formation attacks a single warrior",
        ));
    };
    let mut ids = vec![attack.attacker];
    ids.extend(order.members.iter().map(|m| m.warrior));
    let found = members(battle, seat, &ids)?;
    let target = battle
        .warrior(*target_id)
        .filter(|w| w.on_battlefield())
        .ok_or_else(|| {
            RuleError::not_allowed(format!("warrior {} is not on the battlefield", target_id.0))
        })?;
    let mut support = Support::default();
    for (member, part) in found.iter().skip(1).zip(&order.members) {
        let name = &member.card.name;
        combat::may_shoot(battle, member)?;
        let distance = member.center().dist(target.center());
        if distance > f64::from(member.card.range) + battlefield::CONTACT {
            return Err(RuleError::not_allowed(format!(
                "{} is {distance:.1}\" from {name}, beyond its range of {}\"",
                target.card.name, member.card.range
            )));
        }
        if !battlefield::in_front_arc(member.center(), member.facing, target.center()) {
            return Err(RuleError::not_allowed(format!(
                "the line of fire to {} does not pass through {name}'s front arc",
                target.card.name
            )));
        }
        super::fire::fire_to(battle, member, target)?;
        match part.adds {
            Boost::Attack => support.attack += 2,
            Boost::Damage if member.has_attack_type(AttackType::Bow) => support.damage += 1,
            Boost::Damage => {
                return Err(RuleError::not_allowed(format!(
                    "only a bow warrior adds to the damage; {name} adds +2 to the attack"
                )));
            }
        }
    }
    let mut plan = combat::check_ranged_with(battle, seat, attack, support)?;
    plan.shared = order.members.iter().map(|m| m.warrior).collect();
    Ok(plan)
}
