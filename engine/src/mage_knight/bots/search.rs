//! The searching Mage Knight bot (the normal and hard levels): Monte Carlo
//! search, flat at the root, as the Malifaux one ([`crate::bot::search`]).
//!
//! Its seat sees everything but the dice's seed once the domains are
//! revealed, so a world is the seat's view with a seed of the search's
//! own: the dice fall differently in every world. In each it tries one of
//! the orders the greedy bot rates best (UCB over the root), plays on with
//! greedy bots on both sides for the budget's player turns, and scores
//! what it finds. The order tried most often wins. Its budget is a
//! number of worlds, never a time, so a game replays exactly.

use soulstone_random::RandomStream;

use super::super::game::{Battle, Stage};
use super::super::orders::{self, Order, Submission};
use super::{Style, order, ranked};
use crate::Seat;
use crate::bot::search::upper_bound;
use crate::fairness::Bytes32;

/// How much a search may do for one decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Worlds dealt, one rollout each.
    pub iterations: u32,
    /// The orders tried (the greedy bot's best first), beside ending the
    /// action phase; the rest are never searched.
    pub root_width: usize,
    /// Orders a rollout plays at most before it is scored, if its turns
    /// have not ended first.
    pub horizon: usize,
    /// Player turns a rollout plays after the one searched: 1 to the end
    /// of the opponent's answer, 3 to the end of its next answer.
    pub turns: u16,
}

impl Budget {
    /// About a tenth of a second a decision (docs/benchmarks.md).
    pub const NORMAL: Budget = Budget {
        iterations: 64,
        root_width: 4,
        horizon: 60,
        turns: 3,
    };
    /// Twice normal's worlds, each played two turns further (more worlds
    /// alone were no stronger: docs/benchmarks.md).
    pub const HARD: Budget = Budget {
        iterations: 128,
        root_width: 4,
        horizon: 90,
        turns: 5,
    };
}

/// Whether [`search`] weighs `seat`'s decision now: an action of its own
/// turn. Setup, deployment and dividing a shot's damage are played
/// greedily.
pub fn would_search(battle: &Battle, seat: Seat) -> bool {
    battle.stage == Stage::Acting { seat }
}

/// What a searching bot for `seat` sends at `state` (the true game: the
/// seat's view is taken here): the search's order, or the greedy one
/// where there is nothing to search.
pub fn searched_or_greedy(state: &Battle, seat: Seat, budget: &Budget, seed: u64) -> Option<Order> {
    let view = super::super::hidden_from(state, Some(seat));
    search(&view, seat, budget, seed).or_else(|| order(&view, seat, Style::Greedy, seed))
}

/// One order at the root, with what the worlds that tried it gave.
struct Arm {
    order: Order,
    visits: u32,
    reward: f64,
}

impl Arm {
    /// Upper confidence bound over `total` tries of the root.
    fn bound(&self, total: u32) -> f64 {
        if self.visits == 0 {
            return f64::INFINITY;
        }
        upper_bound(self.reward, self.visits, total, 0.7)
    }
}

/// The order `seat` should send, found with `budget` and `seed`; none when
/// there is nothing to weigh (not its action, or a single order worth
/// trying): the caller then plays greedily. `view` must be the seat's
/// view of the game: the search never needs the seed.
pub fn search(view: &Battle, seat: Seat, budget: &Budget, seed: u64) -> Option<Order> {
    if !would_search(view, seat) {
        return None;
    }
    let mut rng = RandomStream::from_seed_and_label(seed, "soulstone/mk-search");
    let mut arms: Vec<Arm> = root_orders(view, seat, budget.root_width)
        .into_iter()
        .chain([Order::EndActions])
        .map(|order| Arm {
            order,
            visits: 0,
            reward: 0.0,
        })
        .collect();
    if arms.len() <= 1 {
        return arms.pop().map(|arm| arm.order);
    }
    let start_turn = view.turn;
    for tried in 0..budget.iterations {
        let mut world = view.clone();
        // A seed of the search's own for this world's dice.
        world.dice.seed = Bytes32(rng.next_bytes32());
        // Equal bounds: the earlier (better-rated) arm.
        let Some(pick) = (0..arms.len()).max_by(|&i, &j| {
            arms[i]
                .bound(tried)
                .total_cmp(&arms[j].bound(tried))
                .then(j.cmp(&i))
        }) else {
            break;
        };
        let submission = Submission::Player {
            seat,
            version: world.version,
            order: arms[pick].order.clone(),
        };
        // Every root order was checked as legal, and no roll can make it
        // illegal; should one be refused, it is never tried again.
        if orders::execute(&mut world, &submission).is_err() {
            arms[pick].visits = u32::MAX / 2;
            arms[pick].reward = f64::NEG_INFINITY;
            continue;
        }
        rollout(
            &mut world,
            start_turn.saturating_add(budget.turns),
            budget.horizon,
            &mut rng,
        );
        arms[pick].visits += 1;
        arms[pick].reward += reward(&world, seat);
    }
    arms.into_iter()
        .enumerate()
        .filter(|(_, arm)| arm.reward.is_finite())
        .max_by_key(|(i, arm)| (arm.visits, std::cmp::Reverse(*i)))
        .map(|(_, arm)| arm.order)
}

/// The `width` orders to search: each warrior's best first (which warrior
/// acts matters more than how), best warrior first, then the next best
/// of any.
fn root_orders(view: &Battle, seat: Seat, width: usize) -> Vec<Order> {
    let ranked = ranked(view, seat);
    let mut actors = Vec::new();
    let mut chosen = vec![false; ranked.len()];
    for (i, (order, _)) in ranked.iter().enumerate() {
        if actors.len() >= width {
            break;
        }
        let actor = order.actor();
        if !actors.contains(&actor) {
            actors.push(actor);
            chosen[i] = true;
        }
    }
    let (mut firsts, mut rest): (Vec<_>, Vec<_>) = ranked
        .into_iter()
        .zip(chosen)
        .partition(|(_, first)| *first);
    firsts.append(&mut rest);
    firsts
        .into_iter()
        .map(|((order, _), _)| order)
        .take(width)
        .collect()
}

/// `world` played on by greedy bots until turn `last` ends, the game
/// ends, or `horizon` orders have been played.
fn rollout(world: &mut Battle, last: u16, horizon: usize, rng: &mut RandomStream) {
    for _ in 0..horizon {
        if world.stage == Stage::Over || world.turn > last {
            return;
        }
        let Some(seat) = Seat::BOTH.into_iter().find(|s| world.waits_for(*s)) else {
            return;
        };
        let Some(next) = order(world, seat, Style::Greedy, rng.next_u32().into()) else {
            return;
        };
        let submission = Submission::Player {
            seat,
            version: world.version,
            order: next,
        };
        if orders::execute(world, &submission).is_err() {
            return;
        }
    }
}

/// What `world` is worth to `seat`, from 0 (lost) to 1 (won): the
/// objectives held, weighed more as the end nears, and the points of
/// warriors standing, by the share of their dial left.
fn reward(world: &Battle, seat: Seat) -> f64 {
    if let Some(outcome) = &world.outcome {
        return match outcome.winner {
            Some(winner) if winner == seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let progress =
        f64::from(world.turn) / f64::from(u16::from(world.rounds).saturating_mul(2).max(1));
    let per_objective = 50.0 + 100.0 * progress.min(1.0);
    let side = |s: Seat| {
        let standing: f64 = world
            .army(s)
            .filter(|w| w.on_battlefield() && !w.is_captive())
            .map(|w| {
                let clicks = f64::from(w.card.clicks().max(1));
                let left = f64::from(w.card.clicks().saturating_sub(w.damage));
                f64::from(w.card.points) * left / clicks
            })
            .sum();
        standing + per_objective * f64::from(world.objectives_of(s))
    };
    // A rational squash (not `tanh`), which rounds alike everywhere.
    let lead = (side(seat) - side(seat.other())) / 60.0;
    0.5 + 0.5 * lead / (1.0 + lead.abs())
}
