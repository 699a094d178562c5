//! The searching 1st edition bot (the normal and hard levels): Monte Carlo
//! search under hidden information, flat at the root, as the other
//! systems' ([`crate::bot::search`], the Mage Knight one).
//!
//! It starts from its seat's view ([`hidden_from`]), never the game. Each
//! iteration deals one world consistent with that view: every card of a
//! fate deck that is in no discard pile and not in the seat's own hand is
//! shuffled, the opponent's hand is dealt from its share (as many cards
//! as it holds) and both decks are what is left, in a new order, with a
//! seed of the search's own for later reshuffles. In that world it tries
//! one of the orders worth weighing (UCB over the root), plays on with
//! greedy bots on both sides to the game's end (or a turn's, by the
//! budget), and scores what it finds: the VP the strategy and schemes
//! would give if the game ended there, the crews left and the resources
//! in hand. The order tried most often wins. Its budget is a number of
//! worlds, never a time, so a game replays exactly.
//!
//! The opponent's unannounced schemes are not guessed: they score only at
//! the game's end, and leaving them out weighs every root order alike.
//!
//! Its own schemes are chosen from the same worlds, played whole
//! ([`choose_schemes`]).

use soulstone_random::RandomStream;

use super::actions::Action;
use super::bots::{self, Style};
use super::card::Characteristic;
use super::field;
use super::flow::{self, Order, Submission};
use super::objectives::{self, Scheme, SchemePick, Strategy};

use super::skirmish::{Model, Skirmish, Stage};
use super::{card::Station, hidden_from};
use crate::Seat;
use crate::bot::search::upper_bound;
use crate::fairness::Bytes32;
use crate::fate::Card;

/// How much a search may do for one decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Worlds dealt, one rollout each.
    pub iterations: u32,
    /// The orders weighed (the greedy bot's first); the rest are never
    /// searched.
    pub root_width: usize,
    /// Orders a rollout plays at most before it is scored.
    pub horizon: usize,
    /// Turns a rollout plays after the one searched: 0 to the end of this
    /// turn, 1 to the end of the next, `u8::MAX` to the game's end.
    pub turns: u8,
}

impl Budget {
    /// Rollouts to the game's end, which the turn's end fell short of
    /// (docs/benchmarks.md); about 10 ms a decision, 50 ms at the 95th
    /// percentile.
    pub const NORMAL: Budget = Budget {
        iterations: 128,
        root_width: 8,
        horizon: 4_000,
        turns: u8::MAX,
    };
    /// Four times normal's worlds over a wider root.
    pub const HARD: Budget = Budget {
        iterations: 512,
        root_width: 10,
        horizon: 4_000,
        turns: u8::MAX,
    };
}

/// Whether [`search`] weighs `seat`'s decision now on the bot threads:
/// which model to activate, and what an activated model of its own does.
/// The schemes are weighed too, but quickly and in the request (both
/// players choose at once); the rest (deployment, discards, cheating and
/// triggers in a duel) is played greedily.
pub fn would_search(game: &Skirmish, seat: Seat) -> bool {
    match &game.stage {
        Stage::Activating { seat: deciding } => *deciding == seat,
        Stage::Acting { activation } => game
            .model(activation.model)
            .is_some_and(|model| model.seat == seat),
        _ => false,
    }
}

/// What a searching bot for `seat` sends at `state` (the true game: the
/// seat's view is taken here): the search's order, or the greedy one
/// where there is nothing to weigh.
pub fn searched_or_greedy(
    state: &Skirmish,
    seat: Seat,
    budget: &Budget,
    seed: u64,
) -> Option<Order> {
    let view = hidden_from(state, Some(seat));
    search(&view, seat, budget, seed).or_else(|| bots::order(&view, seat, Style::Greedy, seed))
}

/// One order at the root, with what the worlds that tried it gave.
struct Arm {
    order: Order,
    visits: u32,
    reward: f64,
    /// Refused in some world: never tried again, never chosen.
    refused: bool,
}

impl Arm {
    /// Upper confidence bound over `total` tries of the root.
    fn bound(&self, total: u32) -> f64 {
        if self.refused {
            return f64::NEG_INFINITY;
        }
        if self.visits == 0 {
            return f64::INFINITY;
        }
        upper_bound(self.reward, self.visits, total, 0.3)
    }
}

/// The order `seat` should send, found with `budget` and `seed`; none when
/// there is nothing to weigh (not its decision, or a single order): the
/// caller then plays greedily. `view` must be the seat's view of the game.
pub fn search(view: &Skirmish, seat: Seat, budget: &Budget, seed: u64) -> Option<Order> {
    if view.stage == Stage::ChoosingSchemes && view.waits_for(seat) {
        return choose_schemes(view, seat, budget, seed);
    }
    if !would_search(view, seat) {
        return None;
    }
    let mut arms: Vec<Arm> = root_orders(view, seat, budget.root_width)
        .into_iter()
        .map(|order| Arm {
            order,
            visits: 0,
            reward: 0.0,
            refused: false,
        })
        .collect();
    if arms.len() <= 1 {
        return None;
    }
    let mut rng = RandomStream::from_seed_and_label(seed, "soulstone/m1e-search");
    let last_turn = view.turn.saturating_add(budget.turns);
    for tried in 0..budget.iterations {
        // Equal bounds: the earlier (greedier) arm.
        let Some(pick) = (0..arms.len()).max_by(|&i, &j| {
            arms[i]
                .bound(tried)
                .total_cmp(&arms[j].bound(tried))
                .then(j.cmp(&i))
        }) else {
            break;
        };
        if arms[pick].refused {
            break;
        }
        let mut world = deal(view, seat, &mut rng);
        let submission = Submission::Player {
            seat,
            version: world.version,
            order: arms[pick].order.clone(),
        };
        // Every root order is legal on the view, and no dealt card makes
        // it illegal; should one be refused, it is never tried again.
        if flow::execute(&mut world, &submission).is_err() {
            arms[pick].refused = true;
            continue;
        }
        rollout(&mut world, last_turn, budget.horizon, &mut rng);
        arms[pick].visits += 1;
        arms[pick].reward += reward(&world, seat);
    }
    arms.into_iter()
        .enumerate()
        .filter(|(_, arm)| !arm.refused && arm.visits > 0)
        .max_by(|(i, a), (j, b)| {
            a.visits
                .cmp(&b.visits)
                .then(a.reward.total_cmp(&b.reward))
                .then(j.cmp(i))
        })
        .map(|(_, arm)| arm.order)
}

/// The schemes `seat` should choose: each legal set weighed by the VP its
/// schemes gave at the end of whole games played out from worlds dealt
/// from the view. Every scheme is tried at once in each world (the
/// greedy play does not read them), so a few dozen games weigh them all;
/// a set is worth the sum of its schemes. Both players choose at once,
/// so this is quick enough to stay in the request that reaches it.
fn choose_schemes(view: &Skirmish, seat: Seat, budget: &Budget, seed: u64) -> Option<Order> {
    let sets: Vec<Vec<SchemePick>> = bots::choices(view, seat)
        .into_iter()
        .filter_map(|order| match order {
            Order::ChooseSchemes { schemes } => Some(schemes),
            _ => None,
        })
        .collect();
    let mut picks: Vec<SchemePick> = sets.iter().flatten().cloned().collect();
    picks.sort_by_key(|p| (p.scheme as u8, p.model, p.announce));
    picks.dedup();
    if picks.is_empty() {
        return None;
    }
    let mut rng = RandomStream::from_seed_and_label(seed, "soulstone/m1e-schemes");
    let mut scored = vec![0u32; picks.len()];
    let games = (budget.iterations / 2).max(1);
    for _ in 0..games {
        let mut world = deal(view, seat, &mut rng);
        let none = Submission::Player {
            seat,
            version: world.version,
            order: Order::ChooseSchemes {
                schemes: Vec::new(),
            },
        };
        flow::execute(&mut world, &none).ok()?;
        world.players[seat.index()].schemes = picks.clone();
        rollout(&mut world, u8::MAX, budget.horizon * 2, &mut rng);
        let kidnapped = world.player(seat).scheme_points_scored;
        for (pick, total) in picks.iter().zip(&mut scored) {
            *total += u32::from(match pick.scheme {
                // Scored when the named model is killed in melee, which
                // every pick of it in the world counted at once.
                Scheme::Kidnap => 2 * u8::from(kidnapped > 0),
                _ => objectives::scheme_points(&world, seat, pick),
            });
        }
    }
    let worth = |set: &Vec<SchemePick>| -> u32 {
        set.iter()
            .filter_map(|pick| picks.iter().position(|p| p == pick))
            .map(|i| scored[i])
            .sum()
    };
    // The most VP; at equal worth, the earlier (smaller) set.
    let best = sets
        .iter()
        .enumerate()
        .max_by(|(i, a), (j, b)| worth(a).cmp(&worth(b)).then(j.cmp(i)))
        .map(|(_, set)| set.clone())?;
    Some(Order::ChooseSchemes { schemes: best })
}

/// One world consistent with `view` (the seat's view), dealt with `rng`.
fn deal(view: &Skirmish, seat: Seat, rng: &mut RandomStream) -> Skirmish {
    let mut world = view.clone();
    world.seed = Bytes32(rng.next_bytes32());
    for owner in Seat::BOTH {
        let player = &mut world.players[owner.index()];
        let seen = |card: &Card| {
            player.discards.contains(card) || (owner == seat && player.hand.contains(card))
        };
        let mut unseen: Vec<Card> = Card::all().filter(|card| !seen(card)).collect();
        rng.shuffle(&mut unseen);
        if owner != seat {
            let held = player.hand_size.min(unseen.len());
            player.hand = unseen.split_off(unseen.len() - held);
        }
        unseen.truncate(player.deck_size);
        player.deck = unseen;
    }
    world
}

/// The orders to weigh, best first: the greedy bot's, then the rest by
/// how often such an order is the right one (attacks, then moves toward
/// the fight or the objective, then the quieter actions).
fn root_orders(view: &Skirmish, seat: Seat, width: usize) -> Vec<Order> {
    let greedy = bots::order(view, seat, Style::Greedy, 0);
    let mut ranked: Vec<(u8, Order)> = Vec::new();
    let mut walks_seen = 0;
    for order in bots::choices(view, seat) {
        let rank = match &order {
            Order::Act { action } => match action {
                Action::Strike { focus: false, .. } => 0,
                Action::Charge { .. } => 1,
                Action::Cast { channel: false, .. } => 2,
                Action::Walk { .. } => {
                    // The first two walks head for the nearest enemy and
                    // the strategy's ground; the others are compass points.
                    walks_seen += 1;
                    if walks_seen <= 2 { 3 } else { 6 }
                }
                Action::Interact { .. } => 3,
                Action::Strike { focus: true, .. } => 4,
                Action::Heal | Action::DefensiveStance => 5,
                Action::Cast { channel: true, .. } => 7,
                _ => 8,
            },
            Order::EndActivation => 5,
            Order::Activate { model } => {
                // Masters last: they are worth most and act best late.
                let master = view
                    .model(*model)
                    .is_some_and(|m| m.card.station == Station::Master);
                u8::from(master)
            }
            _ => 8,
        };
        ranked.push((rank, order));
    }
    ranked.sort_by_key(|(rank, _)| *rank);
    let mut orders: Vec<Order> = greedy.into_iter().collect();
    for (_, order) in ranked {
        if orders.len() >= width {
            break;
        }
        if !orders.contains(&order) {
            orders.push(order);
        }
    }
    orders
}

/// `world` played on by greedy bots until turn `last` ends, the game
/// ends, or `horizon` orders have been played.
fn rollout(world: &mut Skirmish, last: u8, horizon: usize, rng: &mut RandomStream) {
    for _ in 0..horizon {
        if world.is_over() || world.turn > last {
            return;
        }
        let Some(seat) = Seat::BOTH.into_iter().find(|s| world.waits_for(*s)) else {
            return;
        };
        // The world is whole: the bots may read it as their view.
        let next = bots::greedy(world, seat)
            .or_else(|| bots::order(world, seat, Style::Random, rng.next_u32().into()));
        let Some(next) = next else {
            return;
        };
        let submission = Submission::Player {
            seat,
            version: world.version,
            order: next,
        };
        if flow::execute(world, &submission).is_err() {
            return;
        }
    }
}

/// What a soulstone of crew left is worth against a VP, in the leaf's
/// reckoning.
const SOULSTONES_PER_VP: f64 = 4.0;

/// What a master counts for among the crew left (it has no cost).
const MASTER_WORTH: f64 = 12.0;

/// What `world` is worth to `seat`, from 0 (lost) to 1 (won): the VP the
/// table would give now, how near the strategy is, the crews left by
/// their wounds, and soulstones and cards in hand. A finished game counts
/// its VP alone, by the margin.
fn reward(world: &Skirmish, seat: Seat) -> f64 {
    let points = world
        .result
        .unwrap_or_else(|| objectives::final_points(world));
    let vp = |s: Seat| {
        let (strategy, schemes) = points[s.index()];
        f64::from(strategy) + f64::from(schemes)
    };
    if world.is_over() {
        let margin = vp(seat) - vp(seat.other());
        return 0.5 + 0.5 * margin / (1.0 + margin.abs());
    }
    let side = |s: Seat| {
        let crew: f64 = world
            .on_table(s)
            .map(|m| {
                let worth = m.card.cost.map_or(MASTER_WORTH, f64::from);
                worth * f64::from(m.wounds_left) / f64::from(m.card.wd.max(1))
            })
            .sum();
        let player = world.player(s);
        (vp(s) + 0.5 * strategy_progress(world, s)) * SOULSTONES_PER_VP
            + crew
            + 0.5 * f64::from(player.soulstones)
            + 0.25 * f64::from(u32::try_from(player.hand_size).unwrap_or(0))
    };
    // A rational squash (not `tanh`), which rounds alike everywhere.
    let lead = (side(seat) - side(seat.other())) / 8.0;
    0.5 + 0.5 * lead / (1.0 + lead.abs())
}

/// How far `seat` has come toward its strategy's next VP, about 0 to 2,
/// beside what [`objectives::strategy_points`] already gives: part credit
/// that lets a rollout tell a step toward it from a step away.
fn strategy_progress(world: &Skirmish, seat: Seat) -> f64 {
    let Some(strategy) = world.player(seat).strategy else {
        return 0.0;
    };
    let theirs = seat.other();
    let share = |part: usize, whole: usize| {
        f64::from(u32::try_from(part).unwrap_or(0))
            / f64::from(u32::try_from(whole.max(1)).unwrap_or(1))
    };
    match strategy {
        Strategy::Assassinate => world
            .crew(theirs)
            .filter(|m| m.card.station == Station::Master)
            .map(|m| 2.0 - 2.0 * f64::from(m.wounds_left) / f64::from(m.card.wd.max(1)))
            .fold(0.0, f64::max),
        Strategy::Slaughter => {
            let counted = |m: &&Model| {
                m.card.station != Station::Master && !m.card.is(Characteristic::Insignificant)
            };
            let all = world.crew(theirs).filter(counted).count();
            let gone = world
                .crew(theirs)
                .filter(counted)
                .filter(|m| !m.on_table())
                .count();
            2.0 * share(gone, all)
        }
        Strategy::ClaimJump => {
            let inside = |s: Seat| {
                world
                    .on_table(s)
                    .filter(|m| objectives::counts(m) && objectives::in_claim(m, true))
                    .count()
            };
            0.5 * share(inside(seat).min(2), 1) - 0.5 * share(inside(theirs).min(2), 1)
        }
        Strategy::Reconnoiter => {
            let mut quarters = [false; 4];
            for m in world.on_table(seat).filter(|m| objectives::counts(m)) {
                if let Some(p) = field::at(m) {
                    quarters[field::quarter(p)] = true;
                }
            }
            0.5 * share(quarters.iter().filter(|held| **held).count(), 1)
        }
        Strategy::TreasureHunt => {
            let home = world
                .deployment
                .map(|d| d.heart(field::side_of(world, seat)));
            let carried = world.on_table(seat).find(|m| m.carries_treasure);
            match (carried.and_then(field::at), home) {
                // Carried: the nearer home, the better.
                (Some(at), Some(home)) => 2.0 - at.dist(home) / field::SIZE,
                _ => 0.0,
            }
        }
    }
}
