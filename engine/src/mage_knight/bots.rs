//! Practice opponents for Mage Knight: a random one and a greedy one. A
//! bot decides from its own seat's view (the dice's seed is not in it), so
//! it weighs an attack by its chance to hit, never by the roll to come.
//! Every order it sends is one the rules accept: each candidate is checked
//! as a player's would be.

use soulstone_random::RandomStream;

use super::battlefield::{self, BASE, SIZE};
use super::combat::{self, AttackPlan, Boost, CloseAttack, RangedAttack, Surge};
use super::facts::Placement;
use super::game::{Battle, Stage, Warrior, WarriorId};
use super::movement::{self, MoveOrder};
use super::orders::{Order, objective_spot};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::table::geometry::V2;
use crate::table::{Point, milli};

/// How a bot chooses among the orders the rules allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Any legal order, uniformly among those it tries.
    Random,
    /// The order worth most now: expected damage, objectives, position.
    Greedy,
}

/// What `seat`'s bot sends now, if the game waits for it. `battle` must be
/// the seat's view of the game (no seed).
pub fn order(battle: &Battle, seat: Seat, style: Style, seed: u64) -> Option<Order> {
    if !battle.waits_for(seat) {
        return None;
    }
    let mut rng = RandomStream::from_seed_and_label(seed, "mk-bot");
    Some(match &battle.stage {
        Stage::Contributing => Order::Contribute {
            entropy: Bytes32::digest_of(&format!("mk-bot-{seed}")),
        },
        Stage::PlacingObjective { .. } => place_objective(battle, seat, &mut rng),
        Stage::Deploying { .. } => deploy(battle, seat, &mut rng),
        Stage::SplittingDamage { split, .. } => {
            let mut shares = vec![0u8; split.hits.len()];
            // Greedy: all on the target nearest its end; random: spread.
            for _ in 0..split.damage {
                let i = match style {
                    Style::Random => rng.below(u32::try_from(shares.len()).unwrap_or(1)) as usize,
                    Style::Greedy => nearest_to_end(battle, &split.hits),
                };
                if let Some(share) = shares.get_mut(i) {
                    *share += 1;
                }
            }
            Order::SplitDamage { shares }
        }
        Stage::Acting { .. } => act(battle, seat, style, &mut rng),
        Stage::Over => return None,
    })
}

fn nearest_to_end(battle: &Battle, hits: &[WarriorId]) -> usize {
    (0..hits.len())
        .min_by_key(|i| {
            battle
                .warrior(hits[*i])
                .map_or(u8::MAX, |w| w.card.clicks().saturating_sub(w.damage))
        })
        .unwrap_or(0)
}

fn place_objective(battle: &Battle, seat: Seat, rng: &mut RandomStream) -> Order {
    for _ in 0..50 {
        let x = milli(3.0 + f64::from(rng.below(30)));
        if objective_spot(battle, seat, x).is_ok() {
            return Order::PlaceObjective { x };
        }
    }
    // The center of the line is always free of the other tokens, which
    // lie on other lines or in the center.
    Order::PlaceObjective {
        x: milli(SIZE / 4.0),
    }
}

/// Two rows across the deployment area, shuffled, facing the far edge.
fn deploy(battle: &Battle, seat: Seat, rng: &mut RandomStream) -> Order {
    let rows = match seat {
        Seat::A => [0.7, 2.0],
        Seat::B => [SIZE - 0.7, SIZE - 2.0],
    };
    let facing = match seat {
        Seat::A => 90,
        Seat::B => 270,
    };
    let mut slots: Vec<V2> = rows
        .iter()
        .flat_map(|y| {
            (0..15).map(move |i| {
                V2::new(
                    battlefield::DEPLOYMENT_MARGIN + 0.7 + 1.35 * f64::from(i),
                    *y,
                )
            })
        })
        .filter(|at| {
            !battle.terrain.iter().any(|f| {
                f.kind.blocks_movement(super::warrior::SpeedType::Boot)
                    && battlefield::base_overlaps(&f.shape(), *at)
            })
        })
        .collect();
    rng.shuffle(&mut slots);
    let placements = battle
        .army(seat)
        .zip(slots)
        .map(|(w, at)| Placement {
            warrior: w.id,
            at: Point::from_v2(at),
            facing,
        })
        .collect();
    Order::Deploy { placements }
}

/// The action phase: an action for a warrior, or the end of the phase.
fn act(battle: &Battle, seat: Seat, style: Style, rng: &mut RandomStream) -> Order {
    let ready: Vec<&Warrior> = battle
        .army(seat)
        .filter(|w| movement::ready_for_action(battle, seat, w.id).is_ok())
        .collect();
    match style {
        Style::Random => {
            for _ in 0..12 {
                let Some(w) = pick(&ready, rng) else { break };
                let candidates = candidates(battle, w);
                if let Some((order, _)) = pick(&candidates, rng) {
                    return order.clone();
                }
            }
            Order::EndActions
        }
        Style::Greedy => ready
            .iter()
            .flat_map(|w| candidates(battle, w))
            .map(|(order, worth)| (order, worth + f64::from(rng.below(100)) / 10_000.0))
            .filter(|(_, worth)| *worth > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Order::EndActions, |(order, _)| order),
    }
}

fn pick<'a, T>(items: &'a [T], rng: &mut RandomStream) -> Option<&'a T> {
    if items.is_empty() {
        return None;
    }
    items.get(rng.below(u32::try_from(items.len()).unwrap_or(u32::MAX)) as usize)
}

/// The legal orders worth trying for `warrior`, each with what it is
/// worth to a greedy player.
fn candidates(battle: &Battle, warrior: &Warrior) -> Vec<(Order, f64)> {
    let seat = warrior.seat;
    let mut found = Vec::new();
    let enemies: Vec<&Warrior> = battle.standing().filter(|w| w.seat != seat).collect();
    let push_cost = if warrior.tokens > 0 {
        value_of_click(warrior)
    } else {
        0.0
    };
    // Attacks.
    for enemy in &enemies {
        let helpers: Vec<WarriorId> = battle
            .army(seat)
            .filter(|f| f.id != warrior.id && f.tokens == 0 && f.able())
            .filter(|f| battlefield::in_contact(f.center(), enemy.center()))
            .filter(|f| battlefield::in_front_arc(f.center(), f.facing, enemy.center()))
            .filter(|f| f.has_attack_type(super::warrior::AttackType::Sword))
            .map(|f| f.id)
            .collect();
        let close = CloseAttack {
            attacker: warrior.id,
            target: enemy.id,
            gang_up: helpers,
            surge: None,
        };
        if let Ok(plan) = combat::check_close(battle, seat, &close) {
            found.push((Order::CloseCombat(close), worth(battle, &plan) - push_cost));
        }
        if warrior.has_attack_type(super::warrior::AttackType::Sword)
            && enemy.center().dist(warrior.center()) <= f64::from(warrior.click().speed) + BASE
        {
            let spot = contact_point(warrior.center(), enemy.center());
            let surge = CloseAttack {
                attacker: warrior.id,
                target: enemy.id,
                gang_up: Vec::new(),
                surge: Some(Surge {
                    path: vec![Point::from_v2(spot)],
                    facing: battlefield::facing_toward(spot, enemy.center()),
                }),
            };
            if let Ok(plan) = combat::check_close(battle, seat, &surge) {
                let cost = value_of_click(warrior) * 0.7 + push_cost;
                found.push((Order::CloseCombat(surge), worth(battle, &plan) - cost));
            }
        }
        let shot = RangedAttack {
            attacker: warrior.id,
            targets: vec![enemy.id],
            point_blank: None,
            precision: false,
        };
        if let Ok(plan) = combat::check_ranged(battle, seat, &shot) {
            let boosted = RangedAttack {
                point_blank: Some(Boost::Attack),
                ..shot.clone()
            };
            let (order, plan) = match combat::check_ranged(battle, seat, &boosted) {
                Ok(better) => (boosted, better),
                Err(_) => (shot, plan),
            };
            found.push((Order::RangedCombat(order), worth(battle, &plan) - push_cost));
        }
    }
    // Healing a friend.
    for friend in battle
        .army(seat)
        .filter(|f| f.damage > 0 && f.on_battlefield())
    {
        let heal = CloseAttack {
            attacker: warrior.id,
            target: friend.id,
            gang_up: Vec::new(),
            surge: None,
        };
        if let Ok(plan) = combat::check_close(battle, seat, &heal) {
            let chance = plan.chances().first().copied().unwrap_or(0.0);
            found.push((
                Order::CloseCombat(heal),
                chance * value_of_click(friend) - push_cost,
            ));
        }
    }
    // Moves: toward the objectives and the enemy, and around.
    let speed = f64::from(movement::allowance(battle, warrior, false));
    let at = warrior.center();
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
    for spot in spots {
        let facing = enemies
            .iter()
            .min_by(|a, b| a.center().dist(spot).total_cmp(&b.center().dist(spot)))
            .map_or(warrior.facing, |e| {
                battlefield::facing_toward(spot, e.center())
            });
        let order = MoveOrder {
            warrior: warrior.id,
            path: vec![Point::from_v2(spot)],
            facing,
            double_time: false,
        };
        if movement::check(battle, seat, &order).is_ok() {
            let value = position_worth(battle, seat, spot) - position_worth(battle, seat, at);
            found.push((Order::Move(order), value - push_cost));
        }
    }
    found
}

/// Where a base touches `target` coming straight from `from`.
fn contact_point(from: V2, target: V2) -> V2 {
    target.minus(target.minus(from).unit().scale(BASE))
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
