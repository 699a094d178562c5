//! The orders a bot tries for one warrior: attacks, heals, moves toward
//! the objectives and the enemy, formations, bombardments, attacks on
//! constructed terrain and picking up items. None is checked here.

use super::super::battlefield::{self, BASE};
use super::super::bombardment::Bombard;
use super::super::combat::{Boost, CloseAttack, RangedAttack, Surge};
use super::super::constructed::TerrainAttack;
use super::super::formation::{self, Contribution, RangedFormation};
use super::super::game::{Battle, Warrior, WarriorId};
use super::super::items::{self, PickUpItem};
use super::super::movement::{self, MoveOrder};
use super::super::orders::Order;
use super::super::warrior::{Ability, AttackType};
use crate::table::Point;
use crate::table::geometry::V2;

/// The orders worth trying for `warrior`, not yet checked: attacks on
/// each enemy (with every friend able to gang up, by surge, by a shot),
/// healing a friend, and moves toward the objectives, into contact with
/// the enemy, and around it.
pub(super) fn candidates(battle: &Battle, warrior: &Warrior) -> Vec<Order> {
    let seat = warrior.seat;
    let mut found = Vec::new();
    let enemies: Vec<&Warrior> = battle.standing().filter(|w| w.seat != seat).collect();
    let sword = warrior.has_attack_type(super::super::warrior::AttackType::Sword);
    let at = warrior.center();
    for enemy in &enemies {
        if battlefield::in_contact(at, enemy.center()) {
            let helpers: Vec<WarriorId> = battle
                .army(seat)
                .filter(|f| f.id != warrior.id && f.tokens == 0 && f.able())
                .filter(|f| battlefield::in_contact(f.center(), enemy.center()))
                .filter(|f| battlefield::in_front_arc(f.center(), f.facing, enemy.center()))
                .filter(|f| f.has_attack_type(super::super::warrior::AttackType::Sword))
                .map(|f| f.id)
                .collect();
            if sword && warrior.captive.is_none() {
                found.push(Order::CloseCombat(CloseAttack {
                    attacker: warrior.id,
                    target: enemy.id,
                    gang_up: helpers.clone(),
                    surge: None,
                    capture: true,
                }));
            }
            found.push(Order::CloseCombat(CloseAttack {
                attacker: warrior.id,
                target: enemy.id,
                gang_up: helpers,
                surge: None,
                capture: false,
            }));
        } else if sword && enemy.center().dist(at) <= f64::from(warrior.click().speed) + BASE {
            let spot = contact_point(at, enemy.center());
            found.push(Order::CloseCombat(CloseAttack {
                attacker: warrior.id,
                target: enemy.id,
                gang_up: Vec::new(),
                surge: Some(Surge {
                    path: vec![Point::from_v2(spot)],
                    facing: battlefield::facing_toward(spot, enemy.center()),
                }),
                capture: false,
            }));
        }
        if warrior.has(Ability::Bombardment)
            && enemy.center().dist(at) <= 2.0 * f64::from(warrior.card.range)
        {
            found.push(Order::Bombard(Bombard {
                attacker: warrior.id,
                spots: enemy.at.into_iter().collect(),
            }));
        }
        if warrior.card.range > 0
            && enemy.center().dist(at) <= f64::from(warrior.card.range) + battlefield::CONTACT
        {
            found.push(Order::RangedCombat(RangedAttack {
                attacker: warrior.id,
                targets: vec![enemy.id],
                point_blank: None,
                precision: false,
            }));
        }
    }
    if warrior.has(super::super::warrior::Ability::Mender) {
        for friend in battle
            .army(seat)
            .filter(|f| f.damage > 0 && f.on_battlefield())
        {
            found.push(Order::CloseCombat(CloseAttack {
                attacker: warrior.id,
                target: friend.id,
                gang_up: Vec::new(),
                surge: None,
                capture: false,
            }));
        }
    }
    if warrior.speed_type() == super::super::warrior::SpeedType::Wing {
        // Take off, or land, where it stands.
        found.push(Order::Move(MoveOrder {
            warrior: warrior.id,
            path: Vec::new(),
            facing: warrior.facing,
            double_time: false,
            captive_to: None,
            change_level: true,
        }));
    }
    if let Some(captive) = warrior.captive {
        found.push(Order::CloseCombat(CloseAttack {
            attacker: warrior.id,
            target: captive,
            gang_up: Vec::new(),
            surge: None,
            capture: false,
        }));
    }
    let speed = f64::from(movement::allowance(battle, warrior, false));
    let mut spots: Vec<V2> = (0..16)
        .flat_map(|k| {
            let angle = (f64::from(k) * 22.5).to_radians();
            let dir = V2::new(angle.cos(), angle.sin());
            [speed, speed / 2.0].map(|d| at.plus(dir.scale(d)))
        })
        .collect();
    for objective in &battle.objectives {
        let token = objective.at.v2();
        let gap = at.dist(token);
        let reach =
            (gap - (battlefield::BASE_RADIUS + battlefield::OBJECTIVE / 2.0) + 0.05).min(speed);
        if reach > 0.1 {
            spots.push(at.plus(token.minus(at).unit().scale(reach)));
        }
    }
    for enemy in &enemies {
        if enemy.center().dist(at) <= speed + BASE {
            spots.push(contact_point(at, enemy.center()));
        }
    }
    // Each move faces the nearest enemy (compared by squared distance,
    // from centers converted once: this loop is most of a random game).
    let enemy_centers: Vec<V2> = enemies.iter().map(|e| e.center()).collect();
    for spot in spots {
        let facing = enemy_centers
            .iter()
            .min_by(|a, b| {
                let (da, db) = (a.minus(spot), b.minus(spot));
                da.dot(da).total_cmp(&db.dot(db))
            })
            .map_or(warrior.facing, |e| battlefield::facing_toward(spot, *e));
        found.push(Order::Move(MoveOrder {
            warrior: warrior.id,
            path: vec![Point::from_v2(spot)],
            facing,
            double_time: false,
            captive_to: None,
            change_level: false,
        }));
    }
    found.extend(formation_candidates(battle, warrior, &enemies));
    found.extend(terrain_candidates(battle, warrior));
    found.extend(item_candidates(battle, warrior));
    found
}

/// Picking up a dropped item in reach, or moving into contact with one
/// within its speed; not yet checked.
fn item_candidates(battle: &Battle, warrior: &Warrior) -> Vec<Order> {
    let at = warrior.center();
    let touch = BASE / 2.0 + items::TOKEN_RADIUS;
    let mut found = Vec::new();
    for (i, loose) in battle.loose_items.iter().enumerate() {
        let Ok(item) = u8::try_from(i) else { break };
        let spot = loose.at.v2();
        let gap = at.dist(spot);
        if gap <= touch + battlefield::CONTACT {
            found.push(Order::PickUpItem(PickUpItem {
                warrior: warrior.id,
                item,
            }));
        } else if gap <= f64::from(warrior.click().speed) + touch {
            let to = spot.minus(spot.minus(at).unit().scale(touch));
            found.push(Order::Move(MoveOrder {
                warrior: warrior.id,
                path: vec![Point::from_v2(to)],
                facing: battlefield::facing_toward(to, spot),
                double_time: false,
                captive_to: None,
                change_level: false,
            }));
        }
    }
    found
}

/// Attacks on the constructed features near enough to reach, not yet
/// checked.
fn terrain_candidates(battle: &Battle, warrior: &Warrior) -> Vec<Order> {
    let at = warrior.center();
    let reach = f64::from(warrior.card.range);
    battle
        .terrain
        .iter()
        .enumerate()
        .filter(|(_, f)| f.construction.is_some())
        .filter_map(|(i, f)| Some((u8::try_from(i).ok()?, f.shape().gap_to_disc(at, 0.0))))
        .flat_map(|(feature, gap)| {
            let close = gap <= BASE / 2.0 + battlefield::CONTACT;
            let ranged = reach > 0.0 && gap <= reach;
            [(close, false), (ranged, true)]
                .into_iter()
                .filter(|(near, _)| *near)
                .map(move |(_, ranged)| {
                    Order::AttackTerrain(TerrainAttack {
                        attacker: warrior.id,
                        feature,
                        ranged,
                    })
                })
        })
        .collect()
}

/// Formations `warrior` could lead: its group of friends of one faction
/// (at most five, grouped in base contact), moving together the same way
/// toward the nearest enemy or objective, or its group of shooters
/// shooting together at an enemy in range of them all.
fn formation_candidates(battle: &Battle, warrior: &Warrior, enemies: &[&Warrior]) -> Vec<Order> {
    let mut found = Vec::new();
    let at = warrior.center();
    let group = group_around(battle, warrior, |_| true);
    let goal = enemies
        .iter()
        .map(|e| e.center())
        .chain(battle.objectives.iter().map(|o| o.at.v2()))
        .min_by(|a, b| a.dist(at).total_cmp(&b.dist(at)));
    if let Some(goal) = goal.filter(|g| g.dist(at) > BASE * 2.0)
        && group.len() >= formation::SMALLEST
    {
        let speed = group
            .iter()
            .map(|w| f64::from(movement::speed_value(battle, w)))
            .fold(f64::MAX, f64::min);
        let step = goal
            .minus(at)
            .unit()
            .scale(speed.min(goal.dist(at) - BASE * 2.0));
        let leader = MoveOrder {
            warrior: warrior.id,
            path: vec![Point::from_v2(at.plus(step))],
            facing: battlefield::facing_toward(at, goal),
            double_time: false,
            captive_to: None,
            change_level: false,
        };
        let members: Vec<WarriorId> = group.iter().map(|w| w.id).collect();
        found.push(Order::MoveFormation(formation::following(
            battle, leader, &members,
        )));
    }
    if warrior.card.range == 0 {
        return found;
    }
    for enemy in enemies {
        let in_range = |w: &Warrior| {
            w.card.range > 0
                && w.center().dist(enemy.center()) <= f64::from(w.card.range) + battlefield::CONTACT
        };
        let shooters = group_around(battle, warrior, in_range);
        if shooters.len() < formation::SMALLEST {
            continue;
        }
        found.push(Order::RangedFormation(RangedFormation {
            attack: RangedAttack {
                attacker: warrior.id,
                targets: vec![enemy.id],
                point_blank: None,
                precision: false,
            },
            members: shooters
                .iter()
                .skip(1)
                .map(|w| Contribution {
                    warrior: w.id,
                    adds: if w.has_attack_type(AttackType::Bow) {
                        Boost::Damage
                    } else {
                        Boost::Attack
                    },
                })
                .collect(),
        }));
    }
    found
}

/// `warrior` and up to four friends of its faction, ready for an action,
/// that `fits`, reached from it through base contact among them.
fn group_around<'a>(
    battle: &'a Battle,
    warrior: &'a Warrior,
    fits: impl Fn(&Warrior) -> bool,
) -> Vec<&'a Warrior> {
    let mut group: Vec<&Warrior> = vec![warrior];
    let mut i = 0;
    while i < group.len() && group.len() < formation::LARGEST {
        let at = group[i].center();
        for friend in battle.army(warrior.seat) {
            if group.len() < formation::LARGEST
                && friend.able()
                && !friend.acted
                && friend.tokens < 2
                && friend.card.faction == warrior.card.faction
                && !group.iter().any(|g| g.id == friend.id)
                && battlefield::in_contact(at, friend.center())
                && fits(friend)
            {
                group.push(friend);
            }
        }
        i += 1;
    }
    group
}

/// Where a base touches `target` coming straight from `from`.
fn contact_point(from: V2, target: V2) -> V2 {
    target.minus(target.minus(from).unit().scale(BASE))
}
