//! Large fields: the whole field solved on a few candidate pairs per player,
//! proven optimal by the matching's dual solution over every pair.
//!
//! The blossom method (`blossom.rs`) returns, with its matching, dual values
//! for the players and for odd sets of players. [`check`] verifies them
//! independently of the solver: if every pair of the field — candidate or
//! not — satisfies the dual constraint, and the dual objective equals the
//! matching's cost, no perfect matching of the field costs less (weak
//! duality; argued in `docs/pairing.md`). The check does not rely on any
//! order of the players. Pairs whose constraint fails are added to the
//! candidates and the field is solved again, until none fails or the work
//! budget runs out.

use std::collections::{BTreeMap, BTreeSet};

use super::blossom::{self, Duals, Edge, MatchingError, SCALE};
use super::{CostModel, Multipliers, PairingCost, PairingError};

/// How far along the pairing order a player looks for candidates outside
/// their own club.
const CLUB_SCAN: usize = 64;
/// Rounds of solving, checking and adding the pairs the check found.
const MAX_ROUNDS: usize = 16;

/// What the sparse solver found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Proven optimal by the dual check over every pair.
    Proven(Vec<(usize, usize)>),
    /// The best perfect matching found before the work budget ran out (or
    /// `None` if the solver found none), not proven.
    Unproven(Option<Vec<(usize, usize)>>),
}

/// The dual check's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Proven,
    /// Pairs whose dual constraint fails, most violated first.
    Violated(Vec<(usize, usize)>),
    /// The duals do not describe a certificate (an even set, a negative set
    /// dual, a cycle of sets, or an objective that misses the cost): the
    /// matching is not proven.
    NoCertificate,
}

/// Solves the whole field of `model` on candidate pairs and proves it.
pub fn solve(
    model: &CostModel<'_>,
    neighbours: usize,
    work_limit: u64,
) -> Result<Outcome, PairingError> {
    let n = model.seats.len();
    let weights = Multipliers::for_problem(n, &model.largest_terms())?;
    let weight = |x: usize, y: usize| -> Result<i128, PairingError> {
        weights
            .weight(&model.pair_cost(x, y))
            .ok_or(PairingError::Overflow)
    };
    let mut candidates = candidate_pairs(model, neighbours.max(1));
    let mut edges = candidates
        .iter()
        .map(|&(a, b)| weight(a, b).map(|cost| Edge { a, b, cost }))
        .collect::<Result<Vec<_>, _>>()?;
    let mut best: Option<Vec<(usize, usize)>> = None;
    let mut work_left = work_limit;
    for _ in 0..MAX_ROUNDS {
        let matched = match blossom::min_cost_perfect_matching(n, &edges, work_left) {
            Ok(matched) => matched,
            Err(MatchingError::OutOfWork) => return Ok(Outcome::Unproven(best)),
            Err(MatchingError::Overflow) => return Err(PairingError::Overflow),
            Err(MatchingError::NoPerfectMatching | MatchingError::Inconsistent) => {
                return Ok(Outcome::Unproven(best));
            }
        };
        // Every round's solve and check count against one budget (checking
        // a pair costs about a quarter of scanning an edge).
        work_left = work_left.saturating_sub(matched.work + (n * n / 8) as u64);
        let pairs: Vec<(usize, usize)> = (0..n)
            .filter(|&i| matched.mate[i] > i)
            .map(|i| (i, matched.mate[i]))
            .collect();
        let verdict = check(model, &weights, &matched.mate, &matched.duals, 4 * n)?;
        match verdict {
            Verdict::Proven => return Ok(Outcome::Proven(pairs)),
            Verdict::NoCertificate => return Ok(Outcome::Unproven(Some(pairs))),
            Verdict::Violated(violated) => {
                best = Some(pairs);
                let before = edges.len();
                for (a, b) in violated {
                    if candidates.insert((a, b)) {
                        edges.push(Edge {
                            a,
                            b,
                            cost: weight(a, b)?,
                        });
                    }
                }
                if edges.len() == before {
                    return Ok(Outcome::Unproven(best));
                }
            }
        }
    }
    Ok(Outcome::Unproven(best))
}

/// Each player's `neighbours` nearest partners in the pairing order and in
/// the points order, and (when clubs are kept apart) as many nearest players
/// of another club, in both directions.
fn candidate_pairs(model: &CostModel<'_>, neighbours: usize) -> BTreeSet<(usize, usize)> {
    let n = model.seats.len();
    let mut out = BTreeSet::new();
    let mut add = |x: usize, y: usize| {
        if x != y {
            out.insert((x.min(y), x.max(y)));
        }
    };
    let by_points = model.by_score(&(0..n).collect::<Vec<_>>());
    for order in [(0..n).collect::<Vec<_>>(), by_points] {
        for (i, &x) in order.iter().enumerate() {
            for &y in order.iter().skip(i + 1).take(neighbours) {
                add(x, y);
            }
        }
    }
    if model.avoid_same_club {
        for x in 0..n {
            let Some(club) = &model.seats[x].club else {
                continue;
            };
            let other = |y: &usize| model.seats[*y].club.as_ref() != Some(club);
            for y in (x + 1..n)
                .take(CLUB_SCAN)
                .filter(other)
                .take(neighbours)
                .chain((0..x).rev().take(CLUB_SCAN).filter(other).take(neighbours))
                .collect::<Vec<_>>()
            {
                add(x, y);
            }
        }
    }
    out
}

/// Checks the dual solution against every pair of the field (not only the
/// candidates) and the matching's cost against the dual objective. Returns
/// at most `max_violated` violated pairs.
pub fn check(
    model: &CostModel<'_>,
    weights: &Multipliers,
    mate: &[usize],
    duals: &Duals,
    max_violated: usize,
) -> Result<Verdict, PairingError> {
    let n = model.seats.len();
    if mate.len() != n || duals.vertex.len() != n || duals.innermost.len() != n {
        return Ok(Verdict::NoCertificate);
    }
    if (0..n).any(|i| mate[i] >= n || mate[i] == i || mate[mate[i]] != i) {
        return Ok(Verdict::NoCertificate);
    }
    let Some(sets) = SetChains::new(duals) else {
        return Ok(Verdict::NoCertificate);
    };

    // Dual objective: each vertex once, each set times (|set| - 1) / 2.
    let mut objective: i128 = 0;
    for &y in &duals.vertex {
        objective = objective.checked_add(y).ok_or(PairingError::Overflow)?;
    }
    for (s, set) in duals.sets.iter().enumerate() {
        let size = sets.size(s) as u64;
        if size.is_multiple_of(2) || size < 3 || set.dual < 0 {
            return Ok(Verdict::NoCertificate);
        }
        let term = set
            .dual
            .checked_mul(i128::from((size - 1) / 2))
            .ok_or(PairingError::Overflow)?;
        objective = objective.checked_sub(term).ok_or(PairingError::Overflow)?;
    }
    let mut matched_cost: i128 = 0;
    for i in (0..n).filter(|&i| mate[i] > i) {
        let w = weights
            .weight(&model.pair_cost(i, mate[i]))
            .ok_or(PairingError::Overflow)?;
        matched_cost = matched_cost.checked_add(w).ok_or(PairingError::Overflow)?;
    }
    let scaled_cost = matched_cost
        .checked_mul(SCALE)
        .ok_or(PairingError::Overflow)?;

    // Every pair: y_i + y_j - (sets holding both) <= SCALE * cost(i, j).
    // The cost is at least its place, score and club terms (the rematch
    // term only adds), which settles nearly every pair from a few numbers
    // per seat without looking up its history. Seats are taken by score
    // group, each group in pairing order: a whole group is passed over when
    // its score difference alone outweighs the largest dual in it, and a
    // row's scan of a group ends once the place difference does.
    let club = club_numbers(model);
    let score_unit = weights.score.saturating_mul(SCALE);
    let club_unit = weights.club.saturating_mul(SCALE);
    let mut groups: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (i, seat) in model.seats.iter().enumerate() {
        groups.entry(seat.score).or_default().push(i);
    }
    let groups: Vec<(i64, Vec<usize>, i128)> = groups
        .into_iter()
        .map(|(score, members)| {
            let largest = members.iter().map(|&j| duals.vertex[j]).max().unwrap_or(0);
            (score, members, largest)
        })
        .collect();
    let mut violated: Vec<(i128, usize, usize)> = Vec::new();
    for i in 0..n {
        let yi = duals.vertex[i];
        let chain = sets.chain(i);
        for (score, members, largest) in &groups {
            let ds = model.seats[i].score.abs_diff(*score);
            let score_floor = score_unit.saturating_mul(i128::from(ds).saturating_pow(2));
            let reach = yi.saturating_add(*largest);
            if score_floor >= reach {
                continue;
            }
            let start = members.partition_point(|&j| j <= i);
            for &j in &members[start..] {
                let dr = (j - i) as i128;
                let mut floor = score_floor.saturating_add(SCALE * dr * dr);
                if floor >= reach {
                    break;
                }
                let lhs = yi + duals.vertex[j];
                if lhs <= floor {
                    continue;
                }
                if club[i] != 0 && club[i] == club[j] {
                    floor = floor.saturating_add(club_unit);
                    if lhs <= floor {
                        continue;
                    }
                }
                let reduced = lhs - common_sum(&chain, sets.position[j]);
                if reduced <= floor {
                    continue;
                }
                let exact = weights
                    .weight(&model.pair_cost(i, j))
                    .and_then(|w| w.checked_mul(SCALE))
                    .ok_or(PairingError::Overflow)?;
                let excess = reduced - exact;
                if excess > 0 {
                    violated.push((excess, i, j));
                }
            }
        }
    }
    if !violated.is_empty() {
        violated.sort_unstable_by(|a, b| b.cmp(a));
        violated.truncate(max_violated);
        return Ok(Verdict::Violated(
            violated.into_iter().map(|(_, i, j)| (i, j)).collect(),
        ));
    }
    // Feasible duals bound every perfect matching from below by the
    // objective; a matching that reaches it is optimal.
    if objective == scaled_cost {
        Ok(Verdict::Proven)
    } else {
        Ok(Verdict::NoCertificate)
    }
}

/// Each seat's club as a number (0 for none, or when clubs may meet).
fn club_numbers(model: &CostModel<'_>) -> Vec<u32> {
    let mut numbers: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    model
        .seats
        .iter()
        .map(|seat| match &seat.club {
            Some(club) if model.avoid_same_club => {
                let next = numbers.len() as u32 + 1;
                *numbers.entry(club.as_str()).or_insert(next)
            }
            _ => 0,
        })
        .collect()
}

/// The odd sets laid out for the sum of the duals of the sets holding both
/// ends of a pair: vertices numbered so that every set's members are
/// consecutive, each set a span of those numbers.
struct SetChains<'a> {
    duals: &'a Duals,
    position: Vec<usize>,
    span: Vec<(usize, usize)>,
    /// Sum of the duals of a set and every set holding it.
    outward_sum: Vec<i128>,
}

impl<'a> SetChains<'a> {
    /// `None` when the sets' parents form a cycle or point nowhere.
    fn new(duals: &'a Duals) -> Option<Self> {
        let count = duals.sets.len();
        let n = duals.innermost.len();
        let mut child_sets = vec![Vec::new(); count];
        let mut roots = Vec::new();
        for (s, set) in duals.sets.iter().enumerate() {
            match set.parent {
                Some(p) => child_sets.get_mut(p)?.push(s),
                None => roots.push(s),
            }
        }
        let mut direct = vec![Vec::new(); count];
        let mut loose = Vec::new();
        for (v, inner) in duals.innermost.iter().enumerate() {
            match *inner {
                Some(s) => direct.get_mut(s)?.push(v),
                None => loose.push(v),
            }
        }
        let mut position = vec![usize::MAX; n];
        let mut span = vec![(0, 0); count];
        let mut outward_sum = vec![0i128; count];
        let mut visited = 0;
        let mut next = 0;
        for root in roots {
            let mut stack = vec![(root, false)];
            while let Some((s, done)) = stack.pop() {
                if done {
                    span[s].1 = next;
                    continue;
                }
                visited += 1;
                let outer = duals.sets[s].parent.map_or(0, |p| outward_sum[p]);
                outward_sum[s] = outer.checked_add(duals.sets[s].dual)?;
                span[s].0 = next;
                for &v in &direct[s] {
                    position[v] = next;
                    next += 1;
                }
                stack.push((s, true));
                stack.extend(child_sets[s].iter().map(|&c| (c, false)));
            }
        }
        for v in loose {
            position[v] = next;
            next += 1;
        }
        // Sets on a cycle of parents are never reached from a root.
        (visited == count && next == n).then_some(Self {
            duals,
            position,
            span,
            outward_sum,
        })
    }

    fn size(&self, set: usize) -> usize {
        self.span[set].1 - self.span[set].0
    }

    /// The sets holding `v`, innermost first: (span, outward sum).
    fn chain(&self, v: usize) -> Vec<(usize, usize, i128)> {
        let mut out = Vec::new();
        let mut at = self.duals.innermost[v];
        while let Some(s) = at {
            out.push((self.span[s].0, self.span[s].1, self.outward_sum[s]));
            at = self.duals.sets[s].parent;
        }
        out
    }
}

/// The sum of the duals of the sets of `chain` (one vertex's, innermost
/// first) that also hold the vertex at `position`: the spans are nested, so
/// the first that holds it and every one after do.
fn common_sum(chain: &[(usize, usize, i128)], position: usize) -> i128 {
    let k = chain.partition_point(|&(start, end, _)| !(start <= position && position < end));
    chain.get(k).map_or(0, |c| c.2)
}

impl CostModel<'_> {
    /// The largest value each cost term can take over every pair of the
    /// field, without visiting the pairs.
    pub(super) fn largest_terms(&self) -> PairingCost {
        let n = self.seats.len() as i64;
        let (low, high) = self.seats.iter().fold((i64::MAX, i64::MIN), |(lo, hi), s| {
            (lo.min(s.score), hi.max(s.score))
        });
        PairingCost {
            rematches: self.history.most(),
            same_club: i64::from(self.avoid_same_club),
            score_diff_squared: if n == 0 { 0 } else { (high - low).pow(2) },
            rank_diff_squared: (n - 1).max(0).pow(2),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::blossom::{Edge, min_cost_perfect_matching};
    use proptest::prelude::*;

    /// Every perfect matching's cost, by brute force.
    fn cheapest(n: usize, cost: &[Vec<Option<i128>>]) -> Option<i128> {
        fn go(free: &[usize], cost: &[Vec<Option<i128>>]) -> Option<i128> {
            let Some(&first) = free.first() else {
                return Some(0);
            };
            let mut best: Option<i128> = None;
            for k in 1..free.len() {
                let other = free[k];
                let Some(c) = cost[first][other] else {
                    continue;
                };
                let rest: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&v| v != first && v != other)
                    .collect();
                if let Some(r) = go(&rest, cost) {
                    best = Some(best.map_or(c + r, |b: i128| b.min(c + r)));
                }
            }
            best
        }
        go(&(0..n).collect::<Vec<_>>(), cost)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// On random sparse graphs with small costs (many ties, many
        /// blossoms) the solver finds the cheapest perfect matching, and its
        /// duals are feasible on every edge with the objective at the cost.
        #[test]
        fn matches_brute_force_with_feasible_duals(
            half in 1usize..6,
            density in 30u32..100,
            costs in proptest::collection::vec((0u32..100, 0i64..12), 66),
        ) {
            let n = 2 * half;
            let mut cost = vec![vec![None; n]; n];
            let mut edges = Vec::new();
            let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
            for (k, (a, b)) in pairs.enumerate() {
                let (roll, c) = costs[k % costs.len()];
                // Keep a perfect matching: (0,1), (2,3), ... always.
                if roll < density || (a % 2 == 0 && b == a + 1) {
                    let c = i128::from(c);
                    cost[a][b] = Some(c);
                    cost[b][a] = Some(c);
                    edges.push(Edge { a, b, cost: c });
                }
            }
            let matched = min_cost_perfect_matching(n, &edges, u64::MAX).unwrap();
            let mut total = 0;
            for (a, &b) in matched.mate.iter().enumerate() {
                prop_assert_eq!(matched.mate[b], a);
                prop_assert!(cost[a][b].is_some());
                if a < b {
                    total += cost[a][b].unwrap();
                }
            }
            prop_assert_eq!(Some(total), cheapest(n, &cost));

            let duals = &matched.duals;
            let holds = |v: usize, set: usize| {
                let mut at = duals.innermost[v];
                while let Some(s) = at {
                    if s == set {
                        return true;
                    }
                    at = duals.sets[s].parent;
                }
                false
            };
            let mut objective: i128 = duals.vertex.iter().sum();
            for (s, set) in duals.sets.iter().enumerate() {
                prop_assert!(set.dual >= 0);
                let size = (0..n).filter(|&v| holds(v, s)).count() as i128;
                prop_assert_eq!(size % 2, 1);
                objective -= set.dual * (size - 1) / 2;
            }
            prop_assert_eq!(objective, 4 * total);
            for e in &edges {
                let common: i128 = duals
                    .sets
                    .iter()
                    .enumerate()
                    .filter(|&(s, _)| holds(e.a, s) && holds(e.b, s))
                    .map(|(_, set)| set.dual)
                    .sum();
                prop_assert!(duals.vertex[e.a] + duals.vertex[e.b] - common <= 4 * e.cost);
            }
        }
    }

    #[test]
    fn no_perfect_matching_is_an_error() {
        // A star: the centre can take one leaf only.
        let edges: Vec<Edge> = (1..4).map(|b| Edge { a: 0, b, cost: 1 }).collect();
        assert_eq!(
            min_cost_perfect_matching(4, &edges, u64::MAX),
            Err(super::MatchingError::NoPerfectMatching)
        );
    }

    #[test]
    fn the_work_budget_stops_the_solver() {
        let mut edges = Vec::new();
        for a in 0..40 {
            for b in a + 1..40 {
                edges.push(Edge {
                    a,
                    b,
                    cost: ((a * 7 + b * 13) % 11) as i128,
                });
            }
        }
        assert_eq!(
            min_cost_perfect_matching(40, &edges, 10),
            Err(super::MatchingError::OutOfWork)
        );
        assert!(min_cost_perfect_matching(40, &edges, u64::MAX).is_ok());
    }
}
