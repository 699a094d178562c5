//! Practice opponents for Mage Knight: a random one and a greedy one. A
//! bot decides from its own seat's view (the dice's seed is not in it), so
//! it weighs an attack by its chance to hit, never by the roll to come.
//! Every order it sends is one the rules accept: each candidate is checked
//! as a player's would be. The candidates for a warrior are in
//! [`candidates`], what the greedy bot makes of them in [`worth`].

mod candidates;
pub mod search;
mod worth;

use soulstone_random::RandomStream;

use super::battlefield::{self, BASE, SIZE};
use super::bombardment;
use super::combat;
use super::constructed;
use super::domains::ChooseDomain;
use super::facts::Placement;
use super::formation;
use super::game::{Battle, Stage, Warrior, WarriorId};
use super::items;
use super::movement;
use super::orders::{Order, objective_spot};
use super::placing::{self, PlaceTerrain};
use crate::Seat;
use crate::fairness::Bytes32;
use crate::table::geometry::V2;
use crate::table::{Point, milli};
use candidates::candidates;
use worth::weigh;

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
        Stage::Acting { .. } => ranked(battle, seat)
            .into_iter()
            .map(|(order, _)| order)
            .take(limit)
            .collect(),
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

/// Every order the greedy bot finds for `seat`'s ready warriors, legal
/// now, with its worth, best first (a tie keeps the warriors' order).
fn ranked(battle: &Battle, seat: Seat) -> Vec<(Order, f64)> {
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
        if placing::fits(battle, &order) {
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
