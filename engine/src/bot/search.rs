//! The searching bots' choice: information-set Monte Carlo search with
//! determinization (Cowling, Powley and Whitehouse, 2012), flat at the
//! root.
//!
//! From what its seat knows ([`InfoSet`]) the search deals a world, tries
//! one of its best-looking commands there (UCB over the root, each command
//! counted only in the worlds where it was legal), plays the rest of the
//! turn out with quick greedy bots on both sides, and scores the end with
//! [`super::eval`]. The command tried most often wins. Its budget is a
//! number of worlds, never a time, so a game replays exactly.
//!
//! It reads the true state only through [`InfoSet::of`]: two states its
//! seat cannot tell apart give the same choice from the same seed.

use soulstone_random::RandomStream;

use super::aims::Aim;
use super::info::InfoSet;
use super::{Bot, BotKind, TRIES, eval, greedy_score};
use crate::Seat;
use crate::command::{PlayerCommand, Submission};
use crate::pending::{self, Choice};
use crate::state::GameState;

/// How much a search may do for one decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// Worlds dealt, one rollout each.
    pub iterations: u32,
    /// The options tried, best-scored first; the rest are never searched.
    pub root_width: usize,
    /// Commands filled at random for an option with parameters (a walk's
    /// end, a marker's spot), beside the greedy one.
    pub variants: usize,
    /// Commands a rollout plays at most before it is scored, if the turn
    /// has not ended first.
    pub horizon: usize,
}

impl Budget {
    /// Tens of milliseconds a decision (docs/benchmarks.md).
    pub const NORMAL: Budget = Budget {
        iterations: 160,
        root_width: 6,
        variants: 1,
        horizon: 100,
    };
    /// Under a second a decision (docs/benchmarks.md).
    pub const HARD: Budget = Budget {
        iterations: 640,
        root_width: 6,
        variants: 1,
        horizon: 100,
    };
}

/// One command at the root, with what the worlds that tried it gave.
struct Arm {
    command: PlayerCommand,
    visits: u32,
    reward: f64,
    /// Worlds in which it was legal when some arm was chosen.
    available: u32,
}

impl Arm {
    /// Upper confidence bound: an arm seldom tried is tried again.
    fn bound(&self) -> f64 {
        upper_bound(self.reward, self.visits, self.available, 0.7)
    }
}

/// UCB1's bound for a root order tried `visits` times (at least once) of
/// `tries`, with `reward` in all: its mean reward plus `exploration` times
/// the square root of the tries' logarithm over its visits. Only `sqrt`
/// and an integer logarithm, which round alike everywhere. Every system's
/// searching bot weighs its root with it.
pub(crate) fn upper_bound(reward: f64, visits: u32, tries: u32, exploration: f64) -> f64 {
    let mean = reward / f64::from(visits);
    let log = f64::from(tries.max(1).ilog2() + 1);
    mean + exploration * (log / f64::from(visits)).sqrt()
}

/// The command `seat` should send at `state`, found by searching with
/// `budget` and `seed`; none when the search has nothing to weigh (no
/// decision, a single option, the crews still secret, setup): the caller
/// then plays greedily.
pub fn search(state: &GameState, seat: Seat, budget: &Budget, seed: u64) -> Option<PlayerCommand> {
    if !would_search(state, seat) {
        return None;
    }
    let info = InfoSet::of(state, seat);
    search_known(&info, budget, seed)
}

/// Whether [`search`] weighs `seat`'s decision at `state`: during the
/// turns, when the opponent is not deciding at the same time. Setup is
/// played greedily (the crews are secret, and it is long); and where both
/// decide at once (discards, scheme choices) a search would play its
/// opponent's choice after seeing its own, so it is greedy there too.
pub fn would_search(state: &GameState, seat: Seat) -> bool {
    state.encounter.as_deref().is_some_and(|e| e.turn > 0)
        && !pending::waits_for(state, seat.other())
}

/// [`search`] from an information set alone.
pub fn search_known(info: &InfoSet, budget: &Budget, seed: u64) -> Option<PlayerCommand> {
    let seat = info.seat();
    let mut rng = RandomStream::from_seed_and_label(seed, "soulstone/search");
    let first_world = info.determinize(&mut rng).ok()?;
    let mut arms: Vec<Arm> = candidates(&first_world, seat, budget, &mut rng)
        .into_iter()
        .map(|command| Arm {
            command,
            visits: 0,
            reward: 0.0,
            available: 0,
        })
        .collect();
    if arms.len() <= 1 {
        return arms.pop().map(|arm| arm.command);
    }
    let mut quick = [
        Bot::quick(Seat::A, stream(&mut rng)),
        Bot::quick(Seat::B, stream(&mut rng)),
    ];
    let mut first_world = Some(first_world);
    for _ in 0..budget.iterations {
        let world = match first_world.take() {
            Some(world) => world,
            None => match info.determinize(&mut rng) {
                Ok(world) => world,
                Err(_) => break,
            },
        };
        let Some((arm, after)) = choose_arm(&mut arms, &world, seat) else {
            continue;
        };
        // Each side of a rollout plays for the fight, the markers or its
        // schemes, drawn anew.
        for bot in &mut quick {
            bot.aim = Aim::ALL[rng.below(3) as usize];
        }
        let end = rollout(after, &mut quick, seat, budget.horizon);
        arms[arm].visits += 1;
        arms[arm].reward += eval::reward(&end, seat);
    }
    // Most tried wins; a tie goes to the better-scored option.
    let best = arms
        .iter()
        .enumerate()
        .max_by_key(|(i, arm)| (arm.visits, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)?;
    Some(arms.swap_remove(best).command)
}

/// A fresh stream drawn from `rng`.
fn stream(rng: &mut RandomStream) -> RandomStream {
    RandomStream::from_key(rng.next_bytes32())
}

/// The commands worth searching at `world`'s decision for `seat`: its
/// options scored as the greedy bot scores them, the best `root_width`,
/// each with parameters filled greedily and `variants` times at random.
fn candidates(
    world: &GameState,
    seat: Seat,
    budget: &Budget,
    rng: &mut RandomStream,
) -> Vec<PlayerCommand> {
    let Some(decision) = pending::decision(world, seat) else {
        return Vec::new();
    };
    let mut ranked: Vec<(i64, usize, Choice)> = decision
        .choices
        .into_iter()
        .enumerate()
        .map(|(i, choice)| (greedy_score(world, seat, &choice), i, choice))
        .collect();
    ranked.sort_by_key(|(score, i, _)| (-score, *i));
    let mut greedy = Bot {
        tries: TRIES,
        ..Bot::quick(seat, stream(rng))
    };
    // The same, its models heading for the strategy's markers, or for
    // its schemes' ground, first.
    let mut aimed: Vec<Bot> = [Aim::Markers, Aim::Schemes]
        .into_iter()
        .map(|aim| Bot {
            aim,
            tries: TRIES,
            ..Bot::quick(seat, stream(rng))
        })
        .collect();
    let mut random = Bot {
        kind: BotKind::Random,
        ..Bot::quick(seat, stream(rng))
    };
    let mut commands: Vec<PlayerCommand> = Vec::new();
    for (_, _, choice) in ranked.into_iter().take(budget.root_width) {
        let parametric = !matches!(choice, Choice::Command { .. });
        let mut filled = vec![greedy.fill(world, choice.clone())];
        if parametric {
            filled.extend(aimed.iter_mut().map(|bot| bot.fill(world, choice.clone())));
            filled.extend((0..budget.variants).map(|_| random.fill(world, choice.clone())));
        }
        for command in filled.into_iter().flatten() {
            if !commands.contains(&command) {
                commands.push(command);
            }
        }
    }
    commands
}

/// The arm to try in `world` (unvisited ones first, in order, then the
/// highest bound), with the state it leads to; arms `decide` refuses in
/// this world are passed over and not counted as available.
fn choose_arm(arms: &mut [Arm], world: &GameState, seat: Seat) -> Option<(usize, Box<GameState>)> {
    let mut refused = vec![false; arms.len()];
    loop {
        let pick = arms
            .iter()
            .enumerate()
            .filter(|(i, _)| !refused[*i])
            .max_by(|(i, a), (j, b)| {
                let key = |arm: &Arm| {
                    if arm.visits == 0 {
                        f64::INFINITY
                    } else {
                        arm.bound()
                    }
                };
                // Equal bounds: the earlier (better-scored) arm.
                key(a).total_cmp(&key(b)).then(j.cmp(i))
            })
            .map(|(i, _)| i)?;
        let submission = Submission::player(seat, world.version, arms[pick].command.clone());
        match crate::procedure::decide_state(world, &submission) {
            Ok((after, _)) => {
                for (arm, refused) in arms.iter_mut().zip(&refused) {
                    if !refused {
                        arm.available += 1;
                    }
                }
                return Some((pick, after));
            }
            Err(_) => refused[pick] = true,
        }
    }
}

/// `world` played on by the quick bots until the turn ends, the game ends,
/// neither can move, or `horizon` commands have been played. `mover` just
/// moved and is asked first.
fn rollout(
    mut world: Box<GameState>,
    bots: &mut [Bot; 2],
    mover: Seat,
    horizon: usize,
) -> Box<GameState> {
    let turn = |world: &GameState| world.encounter.as_deref().map_or(0, |e| e.turn);
    let start = turn(&world);
    let mut first = mover.index();
    for _ in 0..horizon {
        if world.ended || turn(&world) != start {
            break;
        }
        let Some((index, command)) = [first, 1 - first]
            .into_iter()
            .find_map(|i| Some((i, bots[i].quick_choice(&world)?)))
        else {
            break;
        };
        first = index;
        match bots[index].take_worked_out(&world, &command) {
            Some((next, _)) => world = next,
            None => break,
        }
    }
    world
}
