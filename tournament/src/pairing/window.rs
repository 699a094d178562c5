//! An exact shortcut for large fields: the cheapest pairing in which every
//! player meets someone at most `width` places away in the pairing order,
//! found by dynamic programming over that order. The result is proven optimal
//! for the whole problem by the certificate in [`WindowSolution::proves`]
//! (argued in `docs/pairing.md`); otherwise the caller falls back to the
//! blossom solver.

use super::{CostModel, PairingCost};

/// The widest window tried (the work grows with 2^width).
pub const MAX_WIDTH: usize = 10;
/// The first window tried.
pub const START_WIDTH: usize = 6;

pub struct WindowSolution {
    pub pairs: Vec<(usize, usize)>,
    pub cost: PairingCost,
    pub width: usize,
}

impl WindowSolution {
    /// True when no pairing of `members` (in pairing order) can be cheaper:
    /// no rematch, no same-club pair, the least possible sum of squared
    /// score differences, and then either the least possible sum of squared
    /// place differences or a window wide enough for any pair an optimal
    /// pairing could contain (a pair `s` members apart is at least `s`
    /// places apart and costs `s²` in the last term, every other pair at
    /// least 1).
    pub fn proves(&self, model: &CostModel<'_>, members: &[usize]) -> bool {
        if self.cost.rematches != 0
            || self.cost.same_club != 0
            || self.cost.score_diff_squared != model.score_bound(members)
        {
            return false;
        }
        if self.cost.rank_diff_squared == model.rank_bound(members) {
            return true;
        }
        let slack = self.cost.rank_diff_squared - (members.len() as i64 / 2 - 1);
        slack < 0 || widest_span_allowed(slack) <= self.width as i64
    }

    /// The window a proof would need, given this solution's cost.
    pub fn width_needed(&self, n: usize) -> usize {
        let slack = self.cost.rank_diff_squared - (n as i64 / 2 - 1);
        usize::try_from(widest_span_allowed(slack.max(0))).unwrap_or(usize::MAX)
    }
}

/// The largest `s` with `s² ≤ slack`.
fn widest_span_allowed(slack: i64) -> i64 {
    let mut s = (slack as f64).sqrt() as i64;
    while s * s > slack {
        s -= 1;
    }
    while (s + 1) * (s + 1) <= slack {
        s += 1;
    }
    s
}

/// The cheapest perfect matching of `members` (seat indices in pairing
/// order) with every pair at most `width` members apart, as seat indices.
/// `None` when the count is odd or no such matching exists.
pub fn solve(model: &CostModel<'_>, members: &[usize], width: usize) -> Option<WindowSolution> {
    let n = members.len();
    if n % 2 == 1 || n == 0 {
        return None;
    }
    let width = width.clamp(1, (n - 1).max(1)).min(MAX_WIDTH);
    let states = 1usize << width;
    // costs[i * width + (d - 1)]: the cost of pairing i with i + d.
    let mut costs = vec![PairingCost::default(); n * width];
    for i in 0..n {
        for d in 1..=width {
            if i + d < n {
                costs[i * width + d - 1] = model.pair_cost(members[i], members[i + d]);
            }
        }
    }
    // State at position i: bit k set means position i + k is already taken.
    let mut current: Vec<Option<PairingCost>> = vec![None; states];
    let mut next: Vec<Option<PairingCost>> = vec![None; states];
    // How each state at position i + 1 was best reached: previous state and partner offset.
    let mut came_from = vec![(0u16, 0u8); (n + 1) * states];
    current[0] = Some(PairingCost::default());
    for i in 0..n {
        next.iter_mut().for_each(|c| *c = None);
        for (mask, reached) in current.iter().enumerate() {
            let Some(so_far) = *reached else {
                continue;
            };
            if mask & 1 == 1 {
                let target = mask >> 1;
                if improves(&next, target, &so_far) {
                    next[target] = Some(so_far);
                    came_from[(i + 1) * states + target] = (mask as u16, 0);
                }
                continue;
            }
            for d in 1..=width {
                if i + d >= n || (d < width && mask & (1 << d) != 0) {
                    continue;
                }
                let mut total = so_far;
                total += costs[i * width + d - 1];
                let target = (mask | (1 << d)) >> 1;
                if improves(&next, target, &total) {
                    next[target] = Some(total);
                    came_from[(i + 1) * states + target] = (mask as u16, d as u8);
                }
            }
        }
        std::mem::swap(&mut current, &mut next);
    }
    let cost = current[0]?;
    let mut pairs = Vec::with_capacity(n / 2);
    let mut state = 0usize;
    for i in (0..n).rev() {
        let (previous, d) = came_from[(i + 1) * states + state];
        if d > 0 {
            pairs.push((members[i], members[i + usize::from(d)]));
        }
        state = usize::from(previous);
    }
    pairs.reverse();
    Some(WindowSolution { pairs, cost, width })
}

fn improves(table: &[Option<PairingCost>], state: usize, cost: &PairingCost) -> bool {
    table[state].is_none_or(|existing| *cost < existing)
}
