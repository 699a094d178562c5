//! Practice opponents for Mage Knight: a random one and a greedy one. A
//! bot decides from its own seat's view (the dice's seed is not in it), so
//! it weighs an attack by its chance to hit, never by the roll to come.
//! Every order it sends is one the rules accept: each candidate is checked
//! as a player's would be.

use soulstone_random::RandomStream;

use super::battlefield::{self, BASE, SIZE};
use super::bombardment::{self, Bombard, PlacedToken};
use super::combat::{self, AttackPlan, Boost, Capture, CloseAttack, RangedAttack, Surge};
use super::constructed::{self, TerrainAttack};
use super::domains::ChooseDomain;
use super::facts::Placement;
use super::formation::{self, Contribution, RangedFormation};
use super::game::{Battle, Stage, Warrior, WarriorId};
use super::items::{self, PickUpItem};
use super::movement::{self, MoveOrder};
use super::orders::{Order, objective_spot};
use super::placing::{self, PlaceTerrain};
use super::warrior::{Ability, AttackType};
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
        Stage::PlacingTerrain { .. } => place_terrain(battle, &mut rng),
        // Any of its own domains: none is known to be worth more.
        Stage::ChoosingDomains => {
            let deck = battle.domain_decks[seat.index()].len();
            let domain = rng.below(u32::try_from(deck).unwrap_or(1).max(1));
            Order::ChooseDomain(ChooseDomain {
                domain: u8::try_from(domain).unwrap_or(0),
            })
        }
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

/// Orders worth offering `seat` now, best first (at most `limit`): what a
/// page lists as one-click choices. Each is legal now; none needs the
/// seed, so `battle` may be the seat's view.
pub fn suggestions(battle: &Battle, seat: Seat, limit: usize) -> Vec<Order> {
    if !battle.waits_for(seat) {
        return Vec::new();
    }
    let mut rng = RandomStream::from_seed_and_label(battle.version, "mk-suggestions");
    match &battle.stage {
        Stage::PlacingObjective { .. } => (1..=5)
            .map(|k| milli(SIZE * f64::from(k) / 6.0))
            .filter(|x| objective_spot(battle, seat, *x).is_ok())
            .map(|x| Order::PlaceObjective { x })
            .take(limit)
            .collect(),
        Stage::Acting { .. } => {
            let mut found: Vec<(Order, f64)> = battle
                .army(seat)
                .filter(|w| movement::ready_for_action(battle, seat, w.id).is_ok())
                .flat_map(|w| {
                    candidates(battle, w)
                        .into_iter()
                        .filter_map(move |order| weigh(battle, w, order))
                })
                .collect();
            found.sort_by(|a, b| b.1.total_cmp(&a.1));
            found
                .into_iter()
                .map(|(order, _)| order)
                .take(limit)
                .collect()
        }
        Stage::ChoosingDomains => (0..battle.domain_decks[seat.index()].len())
            .filter_map(|i| u8::try_from(i).ok())
            .map(|domain| Order::ChooseDomain(ChooseDomain { domain }))
            .take(limit)
            .collect(),
        Stage::PlacingTerrain { .. } => {
            // Each feature near the middle, and a third and two thirds of
            // the way out through the places it fits.
            let mut found: Vec<Order> = (0..battle.pile.len())
                .filter_map(|i| u8::try_from(i).ok())
                .flat_map(|feature| {
                    let spots = placing::spots(battle, feature);
                    let n = spots.len();
                    let mut picked: Vec<_> = [0, n / 3, 2 * n / 3]
                        .into_iter()
                        .filter_map(|k| spots.get(k).copied())
                        .collect();
                    picked.dedup();
                    picked
                        .into_iter()
                        .map(move |at| Order::PlaceTerrain(PlaceTerrain { feature, at }))
                })
                .take(limit)
                .collect();
            // The second piece of a constructed pair may always be declined.
            if found.is_empty() || battle.second_constructed {
                found.push(Order::PassTerrain);
            }
            found
        }
        Stage::SplittingDamage { split, .. } => {
            let mut all_on: Vec<Order> = (0..split.hits.len())
                .map(|i| {
                    let mut shares = vec![0; split.hits.len()];
                    shares[i] = split.damage;
                    Order::SplitDamage { shares }
                })
                .collect();
            all_on.truncate(limit);
            all_on
        }
        _ => order(battle, seat, Style::Greedy, rng.below(u32::MAX).into())
            .into_iter()
            .collect(),
    }
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

/// Any feature of the pile, anywhere it fits; a pass if none fits.
fn place_terrain(battle: &Battle, rng: &mut RandomStream) -> Order {
    let mut features: Vec<u8> = (0..battle.pile.len())
        .filter_map(|i| u8::try_from(i).ok())
        .collect();
    rng.shuffle(&mut features);
    // A few spots at random first: scanning the whole grid costs a
    // thousand checks, most games need it only when the battlefield is full.
    for _ in 0..24 {
        let Some(feature) = features.first().copied() else {
            break;
        };
        let span = u32::from(placing::GRID.end() - placing::GRID.start()) + 1;
        let mut inch = || f64::from(u32::from(*placing::GRID.start()) + rng.below(span));
        let at = Point::from_v2(V2::new(inch(), inch()));
        let order = PlaceTerrain { feature, at };
        if placing::check(battle, &order).is_ok() {
            return Order::PlaceTerrain(order);
        }
    }
    for feature in features {
        let spots = placing::spots(battle, feature);
        if let Some(at) = pick(&spots, rng) {
            return Order::PlaceTerrain(PlaceTerrain { feature, at: *at });
        }
    }
    Order::PassTerrain
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

/// A row across the deployment area, the bases side by side (so they may
/// form formations), then a second row behind it for a large army;
/// the warriors shuffled along it, facing the far edge.
fn deploy(battle: &Battle, seat: Seat, rng: &mut RandomStream) -> Order {
    let rows = match seat {
        Seat::A => [2.0, 0.7],
        Seat::B => [SIZE - 2.0, SIZE - 0.7],
    };
    let facing = match seat {
        Seat::A => 90,
        Seat::B => 270,
    };
    // Where along the area the row starts: anywhere it still fits.
    let count = battle.army(seat).count().min(15);
    let room = 15u32.saturating_sub(u32::try_from(count).unwrap_or(15));
    let start = f64::from(rng.below(room + 1));
    let slots: Vec<V2> = rows
        .iter()
        .enumerate()
        .flat_map(|(row, y)| {
            // The second row is set a little along, not hidden straight
            // behind the first.
            let shift = if row == 0 { 0.0 } else { 0.3 };
            (0..15).map(move |i| {
                V2::new(
                    battlefield::DEPLOYMENT_MARGIN
                        + 0.7
                        + shift
                        + BASE * ((f64::from(i) + start) % 15.0),
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
    let mut warriors: Vec<&Warrior> = battle.army(seat).collect();
    rng.shuffle(&mut warriors);
    let placements = warriors
        .into_iter()
        .zip(slots)
        .map(|(w, at)| Placement {
            warrior: w.id,
            at: Point::from_v2(at),
            facing,
            soaring: false,
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
        // A warrior at random, then its candidates at random until one is
        // legal: checking a few is enough, and much cheaper than all.
        Style::Random => {
            for _ in 0..12 {
                let Some(w) = pick(&ready, rng) else { break };
                let mut orders = candidates(battle, w);
                rng.shuffle(&mut orders);
                // The rarer orders (formations, captures, taking off) are few among
                // the moves: tried first one time in three, so random
                // games reach their rules.
                if rng.below(3) == 0 {
                    orders.sort_by_key(|order| !is_rare(order));
                }
                if let Some(order) = orders
                    .into_iter()
                    .take(8)
                    .find(|order| legal(battle, seat, order))
                {
                    return order;
                }
            }
            Order::EndActions
        }
        Style::Greedy => ready
            .iter()
            .flat_map(|w| {
                candidates(battle, w)
                    .into_iter()
                    .filter_map(move |order| weigh(battle, w, order))
            })
            .map(|(order, worth)| (order, worth + f64::from(rng.below(100)) / 10_000.0))
            .filter(|(_, worth)| *worth > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(Order::EndActions, |(order, _)| order),
    }
}

fn is_rare(order: &Order) -> bool {
    match order {
        Order::MoveFormation(_)
        | Order::RangedFormation(_)
        | Order::AttackTerrain(_)
        | Order::PickUpItem(_) => true,
        Order::CloseCombat(close) => close.capture,
        Order::Move(step) => step.change_level,
        _ => false,
    }
}

fn pick<'a, T>(items: &'a [T], rng: &mut RandomStream) -> Option<&'a T> {
    if items.is_empty() {
        return None;
    }
    items.get(rng.below(u32::try_from(items.len()).unwrap_or(u32::MAX)) as usize)
}

/// The orders worth trying for `warrior`, not yet checked: attacks on
/// each enemy (with every friend able to gang up, by surge, by a shot),
/// healing a friend, and moves toward the objectives, into contact with
/// the enemy, and around it.
fn candidates(battle: &Battle, warrior: &Warrior) -> Vec<Order> {
    let seat = warrior.seat;
    let mut found = Vec::new();
    let enemies: Vec<&Warrior> = battle.standing().filter(|w| w.seat != seat).collect();
    let sword = warrior.has_attack_type(super::warrior::AttackType::Sword);
    let at = warrior.center();
    for enemy in &enemies {
        if battlefield::in_contact(at, enemy.center()) {
            let helpers: Vec<WarriorId> = battle
                .army(seat)
                .filter(|f| f.id != warrior.id && f.tokens == 0 && f.able())
                .filter(|f| battlefield::in_contact(f.center(), enemy.center()))
                .filter(|f| battlefield::in_front_arc(f.center(), f.facing, enemy.center()))
                .filter(|f| f.has_attack_type(super::warrior::AttackType::Sword))
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
    if warrior.has(super::warrior::Ability::Mender) {
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
    if warrior.speed_type() == super::warrior::SpeedType::Wing {
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

/// Whether the rules allow `order` now (checked as a player's would be,
/// without rolling).
fn legal(battle: &Battle, seat: Seat, order: &Order) -> bool {
    match order {
        Order::Move(m) => movement::check(battle, seat, m).is_ok(),
        Order::CloseCombat(c) => combat::check_close(battle, seat, c).is_ok(),
        Order::RangedCombat(r) => combat::check_ranged(battle, seat, r).is_ok(),
        Order::MoveFormation(f) => formation::check_move(battle, seat, f).is_ok(),
        Order::RangedFormation(f) => formation::check_ranged(battle, seat, f).is_ok(),
        Order::Bombard(b) => bombardment::check(battle, seat, b).is_ok(),
        Order::AttackTerrain(t) => constructed::check(battle, seat, t).is_ok(),
        Order::PickUpItem(p) => items::check_pick_up(battle, seat, p).is_ok(),
        _ => true,
    }
}

/// What a legal `order` is worth to a greedy player (with a shot's point
/// blank bonus taken when it can be), or `None` if the rules refuse it.
fn weigh(battle: &Battle, warrior: &Warrior, order: Order) -> Option<(Order, f64)> {
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
