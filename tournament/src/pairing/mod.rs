//! Swiss pairing as a minimum-cost perfect matching (see `docs/pairing.md`).
//!
//! The cost of pairing two players is compared lexicographically:
//! 1. rematches (how often they have met before),
//! 2. same-club pairs (when the event avoids them),
//! 3. the squared difference of their tournament points,
//! 4. the squared difference of their standings positions (ties broken by
//!    standings order: neighbours in the standings meet).
//!
//! The terms are folded into one integer weight with multipliers large enough
//! that no amount of a lower term can outweigh one unit of a higher one, and
//! solved exactly: small fields with Edmonds' blossom algorithm on the whole
//! weight matrix (`integer-blossom`), larger ones by the window shortcut or
//! on candidate pairs proven by the matching's dual (`sparse.rs`), and the
//! largest split at "even" score-group boundaries, each path kept only when
//! its certificate proves it optimal (see `docs/pairing.md`).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

mod blossom;
mod sparse;
mod window;

use super::limits::{FigureError, check_figures, describe};
use super::standings::standings;
use super::tables::assign_tables;
use super::{Game, Player, PlayerId, Scoring, Tiebreaker};
use soulstone_random::RandomStream;

/// Everything about an event that affects its pairings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingSettings {
    #[serde(default)]
    pub scoring: Scoring,
    #[serde(default = "default_tiebreakers")]
    pub tiebreakers: Vec<Tiebreaker>,
    /// Keep players of one club, region or team apart when possible.
    #[serde(default)]
    pub avoid_same_club: bool,
    /// Round 1 is drawn at random from this seed.
    #[serde(default)]
    pub seed: u64,
}

pub fn default_tiebreakers() -> Vec<Tiebreaker> {
    vec![Tiebreaker::VpDiff, Tiebreaker::VpScored, Tiebreaker::Sos]
}

impl Default for PairingSettings {
    fn default() -> Self {
        Self {
            scoring: Scoring::default(),
            tiebreakers: default_tiebreakers(),
            avoid_same_club: false,
            seed: 0,
        }
    }
}

/// The cost terms of a pairing, in order of importance.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct PairingCost {
    pub rematches: i64,
    pub same_club: i64,
    pub score_diff_squared: i64,
    pub rank_diff_squared: i64,
}

impl std::ops::AddAssign for PairingCost {
    fn add_assign(&mut self, other: Self) {
        self.rematches += other.rematches;
        self.same_club += other.same_club;
        self.score_diff_squared += other.score_diff_squared;
        self.rank_diff_squared += other.rank_diff_squared;
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablePair {
    pub table: u32,
    /// The better-placed player.
    pub a: PlayerId,
    pub b: PlayerId,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PairingMethod {
    /// The whole field as one matching problem.
    Whole,
    /// Split at score-group boundaries, proven optimal by certificate.
    Segmented,
    /// Partners within a window of the pairing order, proven optimal by certificate.
    Window,
    /// A field beyond what the solver proves: the best pairing it found.
    BestFound,
    /// The whole field solved on candidate pairs, proven optimal by the
    /// matching's dual solution checked over every pair.
    Sparse,
}

/// A round's pairing, with the cost terms that justify it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    pub round: u32,
    pub pairs: Vec<TablePair>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
    pub cost: PairingCost,
    pub seed: u64,
    pub method: PairingMethod,
    /// True only when a certificate proves that no pairing costs less. A
    /// field beyond what the solver proves within its size limit gets the
    /// best pairing found, with this false and `lower_bound` set.
    pub proven_optimal: bool,
    /// For an unproven pairing: a cost no pairing of these players can go
    /// below, so the organiser sees how large the gap can be at most.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<PairingCost>,
    /// The paired players in pairing order (standings order, or the random
    /// order of round 1) with their points: what the cost terms are measured on.
    pub order: Vec<Ranked>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ranked {
    pub player: PlayerId,
    pub points: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    #[error("there are no players to pair")]
    NoPlayers,
    #[error("player {0} appears twice")]
    DuplicatePlayer(PlayerId),
    #[error("a game refers to player {0}, who is not in the event")]
    UnknownPlayer(PlayerId),
    #[error("the pairing weights overflow (too many rounds or points for one matching)")]
    Overflow,
    #[error(transparent)]
    Figures(#[from] FigureError),
    #[error(
        "{first} and {second} are both given fixed table {table}: a fixed table can belong to one player only"
    )]
    FixedTableClash {
        table: u32,
        first: String,
        second: String,
    },
}

/// Solver limits (tests lower them to exercise the segmented path).
#[derive(Debug, Clone, Copy)]
pub struct SolverOptions {
    /// Fields up to this size are solved as one problem.
    pub whole_field_max: usize,
    /// The largest problem the dense solver is given (memory grows with its square).
    pub dense_max: usize,
    /// Try the window shortcut before splitting into segments.
    pub window: bool,
    /// The largest field solved sparsely and proven by the dual check (the
    /// check visits every pair once).
    pub sparse_max: usize,
    /// Candidate partners per player in each order the sparse solver
    /// starts from (the dual check adds any pair it needs).
    pub sparse_neighbours: usize,
    /// The sparse solver's work budget (edges scanned, vertices visited),
    /// after which it returns its best pairing unproven.
    pub work_limit: u64,
}

/// About ten seconds of the sparse solver's work on the benchmark machine
/// (see docs/benchmarks.md); every measured field needs far less.
pub const DEFAULT_WORK_LIMIT: u64 = 400_000_000;

impl Default for SolverOptions {
    fn default() -> Self {
        Self {
            whole_field_max: 256,
            dense_max: 2_048,
            window: true,
            sparse_max: 20_000,
            sparse_neighbours: 8,
            work_limit: DEFAULT_WORK_LIMIT,
        }
    }
}

/// Pairs round `round` from the players and every game so far.
pub fn pair_round(
    players: &[Player],
    games: &[Game],
    settings: &PairingSettings,
    round: u32,
) -> Result<RoundPairing, PairingError> {
    pair_round_with(players, games, settings, round, SolverOptions::default())
}

/// A player as the solver sees them: position in the pairing order and score.
#[derive(Debug, Clone)]
struct Seat {
    id: PlayerId,
    score: i64,
    rank: i64,
    club: Option<String>,
}

pub fn pair_round_with(
    players: &[Player],
    games: &[Game],
    settings: &PairingSettings,
    round: u32,
    options: SolverOptions,
) -> Result<RoundPairing, PairingError> {
    let mut seen = BTreeSet::new();
    for p in players {
        if !seen.insert(p.id) {
            return Err(PairingError::DuplicatePlayer(p.id));
        }
    }
    for g in games {
        for id in std::iter::once(g.a).chain(g.b) {
            if !seen.contains(&id) {
                return Err(PairingError::UnknownPlayer(id));
            }
        }
    }
    check_figures(players, games, &settings.scoring)?;
    check_fixed_tables(players)?;
    let order = pairing_order(players, games, settings);
    if order.is_empty() {
        return Err(PairingError::NoPlayers);
    }
    let points: BTreeMap<PlayerId, i64> =
        standings(players, games, &settings.scoring, &settings.tiebreakers)
            .into_iter()
            .map(|row| (row.player, i64::from(row.points)))
            .collect();
    let by_id: BTreeMap<PlayerId, &Player> = players.iter().map(|p| (p.id, p)).collect();

    // With an odd count, the lowest-placed player without a bye sits out.
    let had_bye: BTreeSet<PlayerId> = games.iter().filter(|g| g.is_bye()).map(|g| g.a).collect();
    let mut active = order;
    let bye = if active.len() % 2 == 1 {
        let position = active
            .iter()
            .rposition(|id| !had_bye.contains(id))
            .unwrap_or(active.len() - 1);
        Some(active.remove(position))
    } else {
        None
    };

    let seats: Vec<Seat> = active
        .iter()
        .enumerate()
        .map(|(rank, id)| Seat {
            id: *id,
            score: points.get(id).copied().unwrap_or(0),
            rank: rank as i64,
            club: by_id
                .get(id)
                .and_then(|p| p.club.as_ref())
                .map(|c| c.trim().to_lowercase())
                .filter(|c| !c.is_empty()),
        })
        .collect();
    let history = Meetings::from_games(games);
    let costs = CostModel {
        seats: &seats,
        history: &history,
        avoid_same_club: settings.avoid_same_club,
    };

    let everybody: Vec<usize> = (0..seats.len()).collect();
    let (matched, method, proven_optimal) = if seats.len() <= options.whole_field_max {
        (costs.solve(&everybody)?, PairingMethod::Whole, true)
    } else if let Some(pairs) = options
        .window
        .then(|| costs.solve_window(&everybody))
        .flatten()
    {
        (pairs, PairingMethod::Window, true)
    } else if seats.len() <= options.sparse_max {
        match sparse::solve(&costs, options.sparse_neighbours, options.work_limit)? {
            sparse::Outcome::Proven(pairs) => (pairs, PairingMethod::Sparse, true),
            sparse::Outcome::Unproven(found) => {
                let window = costs.best_found(&everybody);
                let pairs = match found {
                    Some(found) if costs.total(&found) < costs.total(&window) => found,
                    _ => window,
                };
                (pairs, PairingMethod::BestFound, false)
            }
        }
    } else {
        costs.solve_segmented(options)?
    };

    let cost = costs.total(&matched);
    // A pairing at the lower bound is optimal however it was found.
    let lower_bound = costs.lower_bound(&everybody);
    let proven_optimal = proven_optimal || cost == lower_bound;
    let method = if proven_optimal {
        method
    } else {
        PairingMethod::BestFound
    };
    let mut pairs: Vec<(usize, usize)> = matched
        .into_iter()
        .map(|(x, y)| (x.min(y), x.max(y)))
        .collect();
    // Best-placed pairs first, so they get the lowest tables.
    pairs.sort_unstable();
    let ordered: Vec<(PlayerId, PlayerId)> = pairs
        .iter()
        .map(|&(x, y)| (seats[x].id, seats[y].id))
        .collect();
    let fixed: BTreeMap<PlayerId, u32> = players
        .iter()
        .filter_map(|p| p.fixed_table.map(|t| (p.id, t)))
        .collect();
    let mut tables_used: BTreeMap<PlayerId, BTreeSet<u32>> = BTreeMap::new();
    for g in games {
        if let Some(table) = g.table {
            for id in std::iter::once(g.a).chain(g.b) {
                tables_used.entry(id).or_default().insert(table);
            }
        }
    }
    let pairs = assign_tables(&ordered, &fixed, &tables_used)
        .into_iter()
        .map(|(table, a, b)| TablePair { table, a, b })
        .collect();
    Ok(RoundPairing {
        round,
        pairs,
        bye,
        cost,
        seed: settings.seed,
        method,
        proven_optimal,
        lower_bound: (!proven_optimal).then_some(lower_bound),
        order: seats
            .iter()
            .map(|s| Ranked {
                player: s.id,
                points: s.score,
            })
            .collect(),
    })
}

/// The order players are paired in: standings order, or a random order from
/// the seed before any game has been played. Dropped players are left out.
fn pairing_order(players: &[Player], games: &[Game], settings: &PairingSettings) -> Vec<PlayerId> {
    let active: BTreeSet<PlayerId> = players
        .iter()
        .filter(|p| !p.dropped)
        .map(|p| p.id)
        .collect();
    if games.is_empty() {
        let mut ids: Vec<PlayerId> = active.into_iter().collect();
        RandomStream::from_seed_and_label(settings.seed, "pairing/round-1").shuffle(&mut ids);
        return ids;
    }
    standings(players, games, &settings.scoring, &settings.tiebreakers)
        .into_iter()
        .map(|row| row.player)
        .filter(|id| active.contains(id))
        .collect()
}

/// A fixed table belongs to one player still playing.
fn check_fixed_tables(players: &[Player]) -> Result<(), PairingError> {
    let by_id: BTreeMap<PlayerId, &Player> = players.iter().map(|p| (p.id, p)).collect();
    let mut holders: BTreeMap<u32, PlayerId> = BTreeMap::new();
    for p in players.iter().filter(|p| !p.dropped) {
        let Some(table) = p.fixed_table else { continue };
        if let Some(first) = holders.insert(table, p.id) {
            return Err(PairingError::FixedTableClash {
                table,
                first: describe(&by_id, first),
                second: describe(&by_id, p.id),
            });
        }
    }
    Ok(())
}

/// How often each pair of players has met.
struct Meetings(BTreeMap<(PlayerId, PlayerId), i64>);

impl Meetings {
    fn from_games(games: &[Game]) -> Self {
        let mut met = BTreeMap::new();
        for g in games {
            if let Some(b) = g.b {
                *met.entry((g.a.min(b), g.a.max(b))).or_insert(0) += 1;
            }
        }
        Self(met)
    }

    fn count(&self, x: PlayerId, y: PlayerId) -> i64 {
        self.0.get(&(x.min(y), x.max(y))).copied().unwrap_or(0)
    }

    /// The most times any two players have met.
    fn most(&self) -> i64 {
        self.0.values().copied().max().unwrap_or(0)
    }
}

/// Pairs (as seat indices), how they were found, and whether proven optimal.
type Solved = (Vec<(usize, usize)>, PairingMethod, bool);

struct CostModel<'a> {
    seats: &'a [Seat],
    history: &'a Meetings,
    avoid_same_club: bool,
}

impl CostModel<'_> {
    fn pair_cost(&self, x: usize, y: usize) -> PairingCost {
        let (p, q) = (&self.seats[x], &self.seats[y]);
        let same_club = self.avoid_same_club && p.club.is_some() && p.club == q.club;
        PairingCost {
            rematches: self.history.count(p.id, q.id),
            same_club: i64::from(same_club),
            score_diff_squared: (p.score - q.score).pow(2),
            rank_diff_squared: (p.rank - q.rank).pow(2),
        }
    }

    /// The cost terms of a set of pairs, summed.
    fn total(&self, pairs: &[(usize, usize)]) -> PairingCost {
        let mut total = PairingCost::default();
        for &(x, y) in pairs {
            total += self.pair_cost(x, y);
        }
        total
    }

    /// The exact lexicographic optimum over the given seats (an even number).
    fn solve(&self, members: &[usize]) -> Result<Vec<(usize, usize)>, PairingError> {
        let k = members.len();
        if k == 0 {
            return Ok(Vec::new());
        }
        let mut terms = Vec::with_capacity(k * k);
        let mut max = PairingCost::default();
        for &x in members {
            for &y in members {
                let c = if x == y {
                    PairingCost::default()
                } else {
                    self.pair_cost(x, y)
                };
                max.rematches = max.rematches.max(c.rematches);
                max.same_club = max.same_club.max(c.same_club);
                max.score_diff_squared = max.score_diff_squared.max(c.score_diff_squared);
                max.rank_diff_squared = max.rank_diff_squared.max(c.rank_diff_squared);
                terms.push(c);
            }
        }
        let weights = Multipliers::for_problem(k, &max)?;
        let mut matrix = Vec::with_capacity(k * k);
        for c in &terms {
            matrix.push(weights.weight(c).ok_or(PairingError::Overflow)?);
        }
        // 64-bit arithmetic is the faster solve; most fields' weights fit
        // it with the solver's headroom.
        let narrow: Option<Vec<i64>> = matrix
            .iter()
            .map(|w| i64::try_from(*w).ok().filter(|w| *w <= i64::MAX / 16))
            .collect();
        let mate = match narrow {
            Some(matrix) => integer_blossom::min_weight_perfect_matching(&matrix, k),
            None => integer_blossom::min_weight_perfect_matching(&matrix, k),
        };
        Ok((0..k)
            .filter(|&i| mate.get(i).is_some_and(|&j| j > i))
            .filter_map(|i| mate.get(i).map(|&j| (members[i], members[j])))
            .collect())
    }

    /// The window shortcut over `members` (in pairing order), widened as far
    /// as its proof needs; `None` when it cannot prove its answer optimal.
    fn solve_window(&self, members: &[usize]) -> Option<Vec<(usize, usize)>> {
        let mut width = window::START_WIDTH;
        loop {
            let solution = window::solve(self, members, width)?;
            if solution.proves(self, members) {
                return Some(solution.pairs);
            }
            let needed = solution.width_needed(members.len());
            if needed <= width || needed > window::MAX_WIDTH {
                return None;
            }
            width = needed;
        }
    }

    /// Splits the field into score-separated parts of even size and proves
    /// each part optimal (see `docs/pairing.md`); merges parts whose proof
    /// fails. A part beyond `dense_max` players gets the window's best
    /// pairing, unproven unless the window proves it.
    fn solve_segmented(&self, options: SolverOptions) -> Result<Solved, PairingError> {
        // The parts are cut in score order, not in the pairing order: only
        // there is every player above a cut ahead on points of everybody
        // below it, which the proof needs. (Round 1 pairs in a random order
        // whatever the initial points.)
        let order = self.by_score(&(0..self.seats.len()).collect::<Vec<_>>());
        let n = order.len();
        let mut cuts: Vec<usize> = vec![0];
        for i in 1..n {
            if i % 2 == 0 && self.seats[order[i]].score != self.seats[order[i - 1]].score {
                cuts.push(i);
            }
        }
        cuts.push(n);
        let mut segments: Vec<(usize, usize)> = cuts.windows(2).map(|w| (w[0], w[1])).collect();
        let mut solved: Vec<Option<Vec<(usize, usize)>>> = vec![None; segments.len()];
        let mut proven = true;
        loop {
            let mut failed = None;
            for (i, &(start, end)) in segments.iter().enumerate() {
                if solved[i].is_some() {
                    continue;
                }
                let mut members = order[start..end].to_vec();
                members.sort_unstable();
                let (matched, certified) = if members.len() > options.dense_max {
                    match self.solve_window(&members) {
                        Some(pairs) => (pairs, true),
                        None => {
                            // Too large to solve exactly here: the best the
                            // window finds, unproven.
                            proven = false;
                            (self.best_found(&members), true)
                        }
                    }
                } else {
                    let matched = self.solve(&members)?;
                    let certified = segments.len() == 1 || self.certified(&members, &matched);
                    (matched, certified)
                };
                solved[i] = Some(matched);
                if !certified && failed.is_none() {
                    failed = Some(i);
                }
            }
            let Some(i) = failed else { break };
            // Merge the failing segment with a neighbour and solve again.
            let j = if i + 1 < segments.len() { i + 1 } else { i - 1 };
            let (lo, hi) = (i.min(j), i.max(j));
            let merged = (segments[lo].0, segments[hi].1);
            if merged.1 - merged.0 > options.dense_max {
                // Too large to solve as one: keep the parts, unproven.
                proven = false;
                break;
            }
            segments[lo] = merged;
            segments.remove(hi);
            solved[lo] = None;
            solved.remove(hi);
        }
        let pairs = solved.into_iter().flatten().flatten().collect();
        let method = if segments.len() == 1 {
            PairingMethod::Whole
        } else {
            PairingMethod::Segmented
        };
        Ok((pairs, method, proven))
    }

    /// A good pairing of `members` (in pairing order) where none can be
    /// proven: the cheaper of the window over the pairing order and the
    /// window over the points order (which keeps score differences near
    /// their least when the pairing order is not sorted by points).
    fn best_found(&self, members: &[usize]) -> Vec<(usize, usize)> {
        let by_points = self.by_score(members);
        [members, by_points.as_slice()]
            .into_iter()
            .filter_map(|order| window::solve(self, order, window::START_WIDTH))
            .min_by_key(|solution| solution.cost)
            .map(|solution| solution.pairs)
            .unwrap_or_default()
    }

    /// `members` by score, highest first (pairing order within a score).
    fn by_score(&self, members: &[usize]) -> Vec<usize> {
        let mut order = members.to_vec();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.seats[i].score), i));
        order
    }

    /// The least sum of squared differences any perfect matching of these
    /// values can have: pairing neighbours once they are sorted (for sorted
    /// values, re-pairing two crossing or nested pairs never increases a sum
    /// of squares, by convexity).
    fn neighbour_bound(mut values: Vec<i64>) -> i64 {
        values.sort_unstable();
        values
            .chunks(2)
            .map(|pair| match pair {
                [x, y] => (y - x).pow(2),
                _ => 0,
            })
            .sum()
    }

    /// The least third term (squared score differences) for `members`.
    fn score_bound(&self, members: &[usize]) -> i64 {
        Self::neighbour_bound(members.iter().map(|&i| self.seats[i].score).collect())
    }

    /// The least fourth term (squared place differences) for `members`.
    fn rank_bound(&self, members: &[usize]) -> i64 {
        Self::neighbour_bound(members.iter().map(|&i| self.seats[i].rank).collect())
    }

    /// The least number of same-club pairs among `members`: a club holding
    /// more than half of them must pair the surplus among itself.
    fn club_bound(&self, members: &[usize]) -> i64 {
        if !self.avoid_same_club {
            return 0;
        }
        let mut sizes: BTreeMap<&str, i64> = BTreeMap::new();
        for &i in members {
            if let Some(club) = &self.seats[i].club {
                *sizes.entry(club.as_str()).or_default() += 1;
            }
        }
        let n = members.len() as i64;
        let largest = sizes.values().copied().max().unwrap_or(0);
        (2 * largest - n).max(0) / 2
    }

    /// A cost no perfect matching of `members` goes below, compared
    /// lexicographically: each term at its own least (no rematch, the
    /// surplus of a club holding more than half the players, the sorted
    /// neighbours' squared differences of points and of places).
    fn lower_bound(&self, members: &[usize]) -> PairingCost {
        PairingCost {
            rematches: 0,
            same_club: self.club_bound(members),
            score_diff_squared: self.score_bound(members),
            rank_diff_squared: self.rank_bound(members),
        }
    }

    /// The segment certificate: no rematch, no same-club pair, and the least
    /// sum of squared score differences any perfect matching of these
    /// players can have.
    fn certified(&self, members: &[usize], matched: &[(usize, usize)]) -> bool {
        let total = self.total(matched);
        total.rematches == 0
            && total.same_club == 0
            && total.score_diff_squared == self.score_bound(members)
    }
}

/// One weight per pair, ordering the cost terms lexicographically.
struct Multipliers {
    rematch: i128,
    club: i128,
    score: i128,
}

impl Multipliers {
    /// Each unit of a term outweighs the largest possible total of every term below it.
    fn for_problem(k: usize, max: &PairingCost) -> Result<Self, PairingError> {
        let pairs = i128::try_from(k / 2).map_err(|_| PairingError::Overflow)?;
        let overflow = || PairingError::Overflow;
        let rank_total = pairs
            .checked_mul(i128::from(max.rank_diff_squared))
            .ok_or_else(overflow)?;
        let score = rank_total.checked_add(1).ok_or_else(overflow)?;
        let score_total = pairs
            .checked_mul(i128::from(max.score_diff_squared))
            .and_then(|v| v.checked_mul(score))
            .and_then(|v| v.checked_add(rank_total))
            .ok_or_else(overflow)?;
        let club = score_total.checked_add(1).ok_or_else(overflow)?;
        let club_total = pairs
            .checked_mul(i128::from(max.same_club))
            .and_then(|v| v.checked_mul(club))
            .and_then(|v| v.checked_add(score_total))
            .ok_or_else(overflow)?;
        let rematch = club_total.checked_add(1).ok_or_else(overflow)?;
        // The solver needs headroom: keep the largest weight below i128::MAX / 16.
        let largest = i128::from(max.rematches)
            .checked_mul(rematch)
            .and_then(|v| v.checked_add(club_total))
            .ok_or_else(overflow)?;
        if largest > i128::MAX / 16 {
            return Err(PairingError::Overflow);
        }
        Ok(Self {
            rematch,
            club,
            score,
        })
    }

    fn weight(&self, c: &PairingCost) -> Option<i128> {
        i128::from(c.rematches)
            .checked_mul(self.rematch)?
            .checked_add(i128::from(c.same_club).checked_mul(self.club)?)?
            .checked_add(i128::from(c.score_diff_squared).checked_mul(self.score)?)?
            .checked_add(i128::from(c.rank_diff_squared))
    }
}

#[cfg(test)]
mod tests;
