//! What an order is worth to the greedy bot: an attack's expected damage
//! and eliminations, a position's nearness to the objectives and the
//! enemy, a bombardment's and a pick-up's share.

use super::super::battlefield::{self, SIZE};
use super::super::bombardment::{self, PlacedToken};
use super::super::combat::{self, AttackPlan, Boost, Capture, RangedAttack};
use super::super::constructed;
use super::super::formation;
use super::super::game::{Battle, Warrior};
use super::super::items;
use super::super::movement;
use super::super::orders::Order;
use crate::Seat;
use crate::table::geometry::V2;

/// What a legal `order` is worth to a greedy player (with a shot's point
/// blank bonus taken when it can be), or `None` if the rules refuse it.
pub(super) fn weigh(battle: &Battle, warrior: &Warrior, order: Order) -> Option<(Order, f64)> {
    let seat = warrior.seat;
    let push_cost = if warrior.tokens > 0 {
        value_of_click(warrior)
    } else {
        0.0
    };
    match order {
        Order::CloseCombat(close) => {
            let plan = combat::check_close(battle, seat, &close).ok()?;
            let chance = plan.chances().first().copied().unwrap_or(0.0);
            let target = battle.warrior(close.target)?;
            let value = if plan.capture == Some(Capture::Eliminate) {
                chance * f64::from(target.card.points)
            } else if plan.capture == Some(Capture::Take) {
                // A captive neither fights nor holds objectives, but
                // scores nothing until it is eliminated.
                chance * f64::from(target.card.points) * 0.4
            } else if plan.heals {
                let friend = battle.warrior(close.target)?;
                plan.chances().first().copied().unwrap_or(0.0) * value_of_click(friend)
            } else {
                worth(battle, &plan)
            };
            let surge = if close.surge.is_some() {
                value_of_click(warrior) * 0.7
            } else {
                0.0
            };
            Some((Order::CloseCombat(close), value - surge - push_cost))
        }
        Order::RangedCombat(shot) => {
            let plan = combat::check_ranged(battle, seat, &shot).ok()?;
            let boosted = RangedAttack {
                point_blank: Some(Boost::Attack),
                ..shot.clone()
            };
            let (order, plan) = match combat::check_ranged(battle, seat, &boosted) {
                Ok(better) => (boosted, better),
                Err(_) => (shot, plan),
            };
            Some((Order::RangedCombat(order), worth(battle, &plan) - push_cost))
        }
        Order::RangedFormation(shot) => {
            let plan = formation::check_ranged(battle, seat, &shot).ok()?;
            let pushes: f64 = plan
                .shared
                .iter()
                .filter_map(|id| battle.warrior(*id))
                .filter(|w| w.tokens > 0)
                .map(value_of_click)
                .sum();
            Some((
                Order::RangedFormation(shot),
                worth(battle, &plan) - push_cost - pushes,
            ))
        }
        Order::MoveFormation(group) => {
            formation::check_move(battle, seat, &group).ok()?;
            let mut value = 0.0;
            for member in &group.members {
                let w = battle.warrior(member.warrior)?;
                let to = member.path.last().map_or(w.center(), |p| p.v2());
                value +=
                    position_worth(battle, seat, to) - position_worth(battle, seat, w.center());
                if w.tokens > 0 {
                    value -= value_of_click(w);
                }
            }
            Some((Order::MoveFormation(group), value))
        }
        Order::Move(step) => {
            movement::check(battle, seat, &step).ok()?;
            let to = step.path.last().map_or(warrior.center(), |p| p.v2());
            let value =
                position_worth(battle, seat, to) - position_worth(battle, seat, warrior.center());
            Some((Order::Move(step), value - push_cost))
        }
        Order::PickUpItem(pick) => {
            items::check_pick_up(battle, seat, &pick).ok()?;
            let item = &battle.loose_items.get(usize::from(pick.item))?.item;
            // Its points, as a guess at what it adds to the wielder.
            Some((
                Order::PickUpItem(pick),
                f64::from(item.points) / 2.0 - push_cost,
            ))
        }
        Order::AttackTerrain(attack) => {
            let plan = constructed::check(battle, seat, &attack).ok()?;
            let chance = combat::hit_chance(plan.attack, plan.defense);
            let structure = battle
                .terrain
                .get(usize::from(attack.feature))?
                .construction?
                .structure;
            let left = structure.saturating_sub(battle.structure_damage(attack.feature));
            // Opening a line of fire or a way through is worth a little;
            // a blow that leaves the feature standing is soon repaired.
            let value = if plan.damage >= left { 4.0 } else { 0.5 };
            Some((Order::AttackTerrain(attack), chance * value - push_cost))
        }
        Order::Bombard(shell) => {
            let tokens = bombardment::check(battle, seat, &shell).ok()?;
            let value = bombard_worth(battle, warrior, &tokens)?;
            Some((Order::Bombard(shell), value - push_cost))
        }
        other => Some((other, 0.0)),
    }
}

/// A bombardment's worth if the warriors stood still: each token's chance
/// to land, by the damage expected on the warriors under it (friends
/// count against). Halved, as they move before it falls.
fn bombard_worth(battle: &Battle, warrior: &Warrior, tokens: &[PlacedToken]) -> Option<f64> {
    let token = warrior.card.bombardment.as_ref()?;
    let (attack, damage, _) = bombardment::values(warrior)?;
    let mut value = 0.0;
    for placed in tokens {
        let lands = combat::hit_chance(attack, token.landing);
        for w in battle.standing().filter(|w| !w.soaring && !w.is_captive()) {
            if bombardment::in_area(placed.at.v2(), token.radius, w.center()) {
                let hit = combat::hit_chance(attack, w.click().defense);
                let harm = lands * hit * f64::from(damage) * value_of_click(w);
                value += if w.seat == warrior.seat { -harm } else { harm };
            }
        }
    }
    Some(value * 0.5)
}

/// The points one click of damage to `warrior` is worth.
fn value_of_click(warrior: &Warrior) -> f64 {
    f64::from(warrior.card.points) / f64::from(warrior.card.clicks().max(1))
}

/// An attack's expected worth: damage by the chance to hit, and the
/// warrior's points when it may eliminate it.
fn worth(battle: &Battle, plan: &AttackPlan) -> f64 {
    if plan.heals {
        return 0.0;
    }
    let share = f64::from(plan.damage) / plan.against.len().max(1) as f64;
    plan.against
        .iter()
        .zip(plan.chances())
        .filter_map(|((id, ..), chance)| battle.warrior(*id).map(|t| (t, chance)))
        .map(|(target, chance)| {
            let left = f64::from(target.card.clicks().saturating_sub(target.damage));
            let kills = if share >= left {
                f64::from(target.card.points)
            } else {
                0.0
            };
            chance * (share.min(left) * value_of_click(target) + kills)
        })
        .sum()
}

/// How good a spot is for one of `seat`'s warriors: near the objectives
/// it does not hold, most of all touching them.
fn position_worth(battle: &Battle, seat: Seat, spot: V2) -> f64 {
    battle
        .objectives
        .iter()
        .map(|o| {
            let gap = spot.dist(o.at.v2());
            let held = o.controller == Some(seat);
            let weight = if held { 2.0 } else { 6.0 };
            let touching = if battlefield::touches_objective(spot, o.at.v2()) {
                weight * 3.0
            } else {
                0.0
            };
            touching + weight * (1.0 - gap / SIZE)
        })
        .sum()
}
