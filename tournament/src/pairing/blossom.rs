//! Minimum-cost perfect matching on a sparse graph, returning the dual
//! solution that proves it optimal.
//!
//! Edmonds' primal-dual blossom method as Galil's survey ("Efficient
//! algorithms for finding maximum matching in graphs", 1986) describes it,
//! laid out after Joris van Rantwijk's well-known implementation: stages
//! of S- and T-labelled trees (where van Rantwijk's stage ends at its first
//! augmenting path, ours goes on growing the trees not yet used and
//! augments between them too, since all are disjoint), blossoms
//! shrunk and expanded, and least-slack edges kept per vertex and per
//! blossom so that each dual change costs O(n). Internally it maximises the
//! weight `-cost` among matchings of largest size; with a perfect matching
//! among the edges that is the cheapest perfect matching.
//!
//! The integer crates on offer solve dense problems only, or 32-bit weights
//! without their duals; the pairing needs 128-bit weights on a few candidate
//! pairs per player and the duals for its certificate (`certificate.rs`),
//! which checks them independently of this code.

const NONE: usize = usize::MAX;

/// Duals are given in units of a quarter of a cost.
pub const SCALE: i128 = 4;

const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;
/// Added to an S label while tracing back for a blossom's base.
const CRUMB: u8 = 4;

/// An edge between two vertices with its cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub a: usize,
    pub b: usize,
    pub cost: i128,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MatchingError {
    #[error("the candidate pairs hold no perfect matching")]
    NoPerfectMatching,
    #[error("the solver used up its work budget")]
    OutOfWork,
    #[error("the matching solver reached an inconsistent state")]
    Inconsistent,
    #[error("a cost is too large for the matching solver")]
    Overflow,
}

/// An odd set of vertices (a blossom) with a positive dual.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OddSet {
    /// The smallest odd set strictly containing this one, as an index into
    /// [`Duals::sets`].
    pub parent: Option<usize>,
    /// The set's dual in quarters, never negative.
    pub dual: i128,
}

/// The dual solution of the matching problem, in quarters of a cost unit so
/// that it stays integral: for every pair `i, j` the dual is feasible when
/// `vertex[i] + vertex[j] - (sum of dual over the sets holding both)` is at
/// most [`SCALE`] times the pair's cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duals {
    pub vertex: Vec<i128>,
    pub sets: Vec<OddSet>,
    /// The innermost set holding each vertex, if any.
    pub innermost: Vec<Option<usize>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matched {
    /// Each vertex's partner.
    pub mate: Vec<usize>,
    pub duals: Duals,
    /// The work the solve took, in the units of its budget.
    pub work: u64,
}

/// The cheapest perfect matching of vertices `0..n` over `edges`, within
/// `work_limit` units of work (edges scanned and vertices visited).
pub fn min_cost_perfect_matching(
    n: usize,
    edges: &[Edge],
    work_limit: u64,
) -> Result<Matched, MatchingError> {
    if n == 0 {
        return Ok(Matched {
            mate: Vec::new(),
            duals: Duals {
                vertex: Vec::new(),
                sets: Vec::new(),
                innermost: Vec::new(),
            },
            work: 0,
        });
    }
    if n % 2 == 1 || edges.iter().any(|e| e.a >= n || e.b >= n || e.a == e.b) {
        return Err(MatchingError::NoPerfectMatching);
    }
    let mut solver = Solver::new(n, edges, work_limit)?;
    solver.jump_start();
    solver.run()?;
    solver.into_matched()
}

struct Solver {
    n: usize,
    /// (i, j, weight) with weight = -cost: the method maximises.
    edges: Vec<(usize, usize, i128)>,
    /// endpoint[p] is the vertex at endpoint p; edge k has endpoints 2k, 2k+1.
    endpoint: Vec<usize>,
    /// The remote endpoints of each vertex's edges.
    neighbend: Vec<Vec<usize>>,
    /// The remote endpoint of a vertex's matched edge, or NONE.
    mate: Vec<usize>,
    /// Label of a top-level blossom (and of T-reached vertices inside one).
    label: Vec<u8>,
    /// Remote endpoint of the edge through which a blossom got its label.
    labelend: Vec<usize>,
    /// Top-level blossom of each vertex.
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    /// Sub-blossoms of a blossom, from its base round the cycle.
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    /// blossomendps[b][i] is the endpoint of child i on the edge to child i+1.
    blossomendps: Vec<Vec<usize>>,
    /// Least-slack edge to an S-blossom (from a free vertex) or between
    /// S-blossoms (from a top-level S-blossom).
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    /// Twice each vertex's dual; each blossom's dual.
    dualvar: Vec<i128>,
    /// Edges known to have zero slack this stage.
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    /// Scratch for `add_blossom`: least-slack edge to each neighbouring blossom.
    bestedgeto: Vec<usize>,
    /// Free vertices (some may have been matched since the list was made).
    free: Vec<usize>,
    /// The current stage's number, and what it has touched: a stage then
    /// costs what it visits rather than the whole graph.
    stage: u32,
    vertex_stamp: Vec<u32>,
    blossom_stamp: Vec<u32>,
    /// Vertices labelled (as leaves of a labelled blossom) or given a
    /// least-slack edge this stage.
    stage_vertices: Vec<usize>,
    /// Blossoms (trivial ones included) labelled this stage.
    stage_blossoms: Vec<usize>,
    /// Edges allowed this stage.
    stage_edges: Vec<usize>,
    /// The free vertex at the root of each labelled vertex's tree.
    tree: Vec<usize>,
    /// Stamped with the stage when the tree rooted there has augmented: a
    /// stage goes on growing the other trees, so that one stage finds many
    /// disjoint augmenting paths instead of one.
    tree_used: Vec<u32>,
    /// Scratch: the dual change's steps that tie for the least.
    steps: Vec<Step>,
    work: u64,
    work_limit: u64,
}

/// `list[j]`, where a negative `j` counts from the end.
fn wrap(list: &[usize], j: isize) -> usize {
    let len = list.len() as isize;
    list[if j < 0 { j + len } else { j } as usize]
}

impl Solver {
    fn new(n: usize, edges: &[Edge], work_limit: u64) -> Result<Self, MatchingError> {
        // Weights are twice the negated cost, so that every starting vertex
        // dual below is even: the method keeps slacks between S-vertices
        // even (and its half-steps whole) only while the free vertices'
        // duals share one parity.
        let edges: Vec<(usize, usize, i128)> = edges
            .iter()
            .map(|e| {
                e.cost
                    .checked_mul(-2)
                    .filter(|w| w.unsigned_abs() <= i128::MAX.unsigned_abs() / 16)
                    .map(|w| (e.a, e.b, w))
                    .ok_or(MatchingError::Overflow)
            })
            .collect::<Result<_, _>>()?;
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![0; 2 * n];
        // Each vertex starts at its best incident weight, so every edge's
        // slack is non-negative and each vertex's best edges are tight.
        let mut best = vec![i128::MIN; n];
        for &(i, j, w) in &edges {
            best[i] = best[i].max(w);
            best[j] = best[j].max(w);
        }
        for (v, b) in best.into_iter().enumerate() {
            dualvar[v] = if b == i128::MIN { 0 } else { b };
        }
        let m = edges.len();
        Ok(Self {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar,
            allowedge: vec![false; m],
            queue: Vec::new(),
            bestedgeto: vec![NONE; 2 * n],
            free: Vec::new(),
            stage: 1,
            vertex_stamp: vec![0; n],
            blossom_stamp: vec![0; 2 * n],
            stage_vertices: Vec::new(),
            stage_blossoms: Vec::new(),
            stage_edges: Vec::new(),
            tree: vec![NONE; n],
            tree_used: vec![0; n],
            steps: Vec::new(),
            work: 0,
            work_limit,
        })
    }

    /// Twice the slack of edge k (not valid inside a blossom).
    fn slack(&self, k: usize) -> i128 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
    }

    fn mark_vertex(&mut self, v: usize) {
        if self.vertex_stamp[v] != self.stage {
            self.vertex_stamp[v] = self.stage;
            self.stage_vertices.push(v);
        }
    }

    fn mark_blossom(&mut self, b: usize) {
        if self.blossom_stamp[b] != self.stage {
            self.blossom_stamp[b] = self.stage;
            self.stage_blossoms.push(b);
        }
    }

    fn allow(&mut self, k: usize) {
        if !self.allowedge[k] {
            self.allowedge[k] = true;
            self.stage_edges.push(k);
        }
    }

    /// Clears what the last stage labelled, so the next starts from nothing.
    fn next_stage(&mut self) {
        for &v in &self.stage_vertices {
            self.label[v] = FREE;
            self.bestedge[v] = NONE;
        }
        for &b in &self.stage_blossoms {
            self.label[b] = FREE;
            self.bestedge[b] = NONE;
            self.blossombestedges[b] = None;
        }
        for &k in &self.stage_edges {
            self.allowedge[k] = false;
        }
        self.stage_vertices.clear();
        self.stage_blossoms.clear();
        self.stage_edges.clear();
        self.queue.clear();
        self.stage += 1;
    }

    fn spend(&mut self, units: usize) -> Result<(), MatchingError> {
        self.work = self.work.saturating_add(units as u64);
        if self.work > self.work_limit {
            Err(MatchingError::OutOfWork)
        } else {
            Ok(())
        }
    }

    /// A good start: match free vertices along tight edges, then lower each
    /// vertex still free to the least dual its edges allow, which makes its
    /// tightest edges tight, and match it along one to a free vertex. Duals
    /// stay feasible and even; with them most of a Swiss field pairs here.
    fn jump_start(&mut self) {
        for v in 0..self.n {
            if self.mate[v] != NONE {
                continue;
            }
            let found = self.neighbend[v].iter().copied().find(|&p| {
                let w = self.endpoint[p];
                self.mate[w] == NONE && self.slack(p / 2) == 0
            });
            if let Some(p) = found {
                self.match_edge(v, p);
            }
        }
        for v in 0..self.n {
            if self.mate[v] != NONE || self.neighbend[v].is_empty() {
                continue;
            }
            let mut lowest = i128::MIN;
            let mut partner = None;
            for &p in &self.neighbend[v] {
                let (w, need) = (self.endpoint[p], {
                    let (_, _, weight) = self.edges[p / 2];
                    2 * weight - self.dualvar[self.endpoint[p]]
                });
                let free = self.mate[w] == NONE;
                if need > lowest || (need == lowest && free && partner.is_none()) {
                    lowest = need;
                    partner = free.then_some(p);
                }
            }
            self.dualvar[v] = lowest;
            if let Some(p) = partner {
                self.match_edge(v, p);
            }
        }
    }

    /// Matches `v` along the edge whose remote endpoint is `p`.
    fn match_edge(&mut self, v: usize, p: usize) {
        let w = self.endpoint[p];
        self.mate[v] = p;
        self.mate[w] = p ^ 1;
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                stack.extend(self.blossomchilds[x].iter().rev());
            }
        }
        out
    }

    /// Labels the top-level blossom holding `w` with `t`, reached through
    /// the edge whose remote endpoint is `p`; a T label passes S to its mate.
    fn assign_label(&mut self, mut w: usize, mut t: u8, mut p: usize) -> Result<(), MatchingError> {
        loop {
            let b = self.inblossom[w];
            let tree = if p == NONE {
                w
            } else {
                self.tree[self.endpoint[p]]
            };
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            self.mark_blossom(b);
            let leaves = self.leaves(b);
            for &leaf in &leaves {
                self.mark_vertex(leaf);
                self.tree[leaf] = tree;
            }
            if t == S {
                self.queue.extend(leaves);
                return Ok(());
            }
            let base = self.blossombase[b];
            let m = self.mate[base];
            if m == NONE {
                return Err(MatchingError::Inconsistent);
            }
            w = self.endpoint[m];
            t = S;
            p = m ^ 1;
        }
    }

    /// Traces back from `v` and `w`: the base of a new blossom, or NONE for
    /// an augmenting path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & CRUMB != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = S | CRUMB;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        base
    }

    /// Shrinks the cycle through edge `k` (joining two S-blossoms) with the
    /// given base into a new S-blossom.
    fn add_blossom(&mut self, base: usize, k: usize) -> Result<(), MatchingError> {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self
            .unusedblossoms
            .pop()
            .ok_or(MatchingError::Inconsistent)?;
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut childs = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            childs.push(bv);
            endps.push(self.labelend[bv]);
            if self.labelend[bv] == NONE {
                return Err(MatchingError::Inconsistent);
            }
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        childs.push(bb);
        childs.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            childs.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            if self.labelend[bw] == NONE {
                return Err(MatchingError::Inconsistent);
            }
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = S;
        self.mark_blossom(b);
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        for leaf in self.leaves_of(&childs) {
            if self.label[self.inblossom[leaf]] == T {
                // A T-vertex inside an S-blossom becomes an S-vertex.
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        self.blossomchilds[b] = childs;
        self.blossomendps[b] = endps;

        // The least-slack edges from the new blossom to each S-blossom.
        let mut touched = Vec::new();
        for ci in 0..self.blossomchilds[b].len() {
            let child = self.blossomchilds[b][ci];
            let candidates: Vec<usize> = match self.blossombestedges[child].take() {
                Some(list) => list,
                None => self
                    .leaves(child)
                    .into_iter()
                    .flat_map(|leaf| self.neighbend[leaf].iter().map(|p| p / 2))
                    .collect(),
            };
            self.spend(candidates.len())?;
            for k in candidates {
                // The end of edge k outside the new blossom.
                let (i, j, _) = self.edges[k];
                let outside = if self.inblossom[j] == b { i } else { j };
                let bj = self.inblossom[outside];
                if bj != b && self.label[bj] == S {
                    let current = self.bestedgeto[bj];
                    if current == NONE {
                        touched.push(bj);
                        self.bestedgeto[bj] = k;
                    } else if self.slack(k) < self.slack(current) {
                        self.bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[child] = NONE;
        }
        let list: Vec<usize> = touched
            .iter()
            .map(|&bj| std::mem::replace(&mut self.bestedgeto[bj], NONE))
            .collect();
        self.bestedge[b] = list
            .iter()
            .copied()
            .min_by_key(|&k| self.slack(k))
            .unwrap_or(NONE);
        self.blossombestedges[b] = Some(list);
        Ok(())
    }

    fn leaves_of(&self, blossoms: &[usize]) -> Vec<usize> {
        blossoms.iter().flat_map(|&x| self.leaves(x)).collect()
    }

    /// Turns a top-level blossom's children into top-level blossoms.
    fn expand_blossom(&mut self, b: usize, endstage: bool) -> Result<(), MatchingError> {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage)?;
            } else {
                for leaf in self.leaves(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        // A T-blossom expanded mid-stage: relabel the children on the even
        // path from where it was entered to its base.
        if !endstage && self.label[b] == T {
            if self.labelend[b] == NONE {
                return Err(MatchingError::Inconsistent);
            }
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .ok_or(MatchingError::Inconsistent)? as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= childs.len() as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let q = wrap(&endps, j - endptrick as isize);
                self.label[self.endpoint[p ^ 1]] = FREE;
                self.label[self.endpoint[q ^ endptrick ^ 1]] = FREE;
                self.assign_label(self.endpoint[p ^ 1], T, p)?;
                self.allow(q / 2);
                j += jstep;
                p = wrap(&endps, j - endptrick as isize) ^ endptrick;
                self.allow(p / 2);
                j += jstep;
            }
            // The base child gets T without passing S on to its mate.
            let bv = wrap(&childs, j);
            self.label[self.endpoint[p ^ 1]] = T;
            self.label[bv] = T;
            self.mark_blossom(bv);
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while wrap(&childs, j) != entrychild {
                let bv = wrap(&childs, j);
                if self.label[bv] == S {
                    j += jstep;
                    continue;
                }
                let reached = self
                    .leaves(bv)
                    .into_iter()
                    .find(|&leaf| self.label[leaf] != FREE);
                if let Some(v) = reached {
                    self.label[v] = FREE;
                    let m = self.mate[self.blossombase[bv]];
                    if m == NONE {
                        return Err(MatchingError::Inconsistent);
                    }
                    self.label[self.endpoint[m]] = FREE;
                    self.assign_label(v, T, self.labelend[v])?;
                }
                j += jstep;
            }
        }
        self.label[b] = FREE;
        self.labelend[b] = NONE;
        self.blossombase[b] = NONE;
        self.bestedge[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombestedges[b] = None;
        self.unusedblossoms.push(b);
        Ok(())
    }

    /// Swaps matched and unmatched edges on the even path from vertex `v`
    /// to the base of blossom `b`, which then has `v` as its base.
    fn augment_blossom(&mut self, b: usize, v: usize) -> Result<(), MatchingError> {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
            if t == NONE {
                return Err(MatchingError::Inconsistent);
            }
        }
        if t >= self.n {
            self.augment_blossom(t, v)?;
        }
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .ok_or(MatchingError::Inconsistent)?;
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= self.blossomchilds[b].len() as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = wrap(&self.blossomchilds[b], j);
            let p = wrap(&self.blossomendps[b], j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p])?;
            }
            j += jstep;
            let t = wrap(&self.blossomchilds[b], j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1])?;
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
        Ok(())
    }

    /// Augments along the path through edge `k`, which joins two S-trees.
    fn augment_matching(&mut self, k: usize) -> Result<(), MatchingError> {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s)?;
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                let via = self.labelend[bt];
                if via == NONE {
                    return Err(MatchingError::Inconsistent);
                }
                s = self.endpoint[via];
                let j = self.endpoint[via ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j)?;
                }
                self.mate[j] = via;
                p = via ^ 1;
            }
        }
        Ok(())
    }

    fn run(&mut self) -> Result<(), MatchingError> {
        let n = self.n;
        self.free = (0..n).filter(|&v| self.mate[v] == NONE).collect();
        loop {
            let mate = &self.mate;
            self.free.retain(|&v| mate[v] == NONE);
            if self.free.is_empty() {
                return Ok(());
            }
            // A stage: label every free vertex S and grow until augmenting.
            self.next_stage();
            self.spend(self.free.len())?;
            for idx in 0..self.free.len() {
                let v = self.free[idx];
                if self.label[self.inblossom[v]] == FREE {
                    self.assign_label(v, S, NONE)?;
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if self.tree_used[self.tree[v]] == self.stage {
                        continue;
                    }
                    self.spend(self.neighbend[v].len())?;
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allow(k);
                            }
                        }
                        let bw = self.inblossom[w];
                        if self.allowedge[k] {
                            if self.label[bw] == FREE {
                                self.assign_label(w, T, p ^ 1)?;
                            } else if self.label[bw] == S {
                                // A tree that has augmented is left alone
                                // for the rest of the stage.
                                if self.tree_used[self.tree[w]] == self.stage {
                                    continue;
                                }
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k)?;
                                } else {
                                    let trees = (self.tree[v], self.tree[w]);
                                    self.augment_matching(k)?;
                                    self.tree_used[trees.0] = self.stage;
                                    self.tree_used[trees.1] = self.stage;
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == FREE {
                                // Inside a T-blossom, reached from outside:
                                // remembered for relabelling on expansion.
                                self.label[w] = T;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[bw] == S {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == FREE
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                            self.mark_vertex(w);
                        }
                    }
                }
                if augmented {
                    break;
                }

                // No augmenting path over tight edges: change the duals by
                // the largest step that keeps them feasible.
                self.spend(self.stage_vertices.len() + self.stage_blossoms.len())?;
                // Every step that ties for the least is taken at once: with
                // whole-number costs ties are the rule, and taking them one
                // by one costs a pass over the labelled vertices each.
                let mut delta: Option<i128> = None;
                let mut steps = std::mem::take(&mut self.steps);
                steps.clear();
                let mut consider = |d: i128, step: Step| {
                    if delta.is_none_or(|best| d < best) {
                        delta = Some(d);
                        steps.clear();
                    }
                    if delta == Some(d) {
                        steps.push(step);
                    }
                };
                for &v in &self.stage_vertices {
                    if self.label[self.inblossom[v]] == FREE && self.bestedge[v] != NONE {
                        consider(self.slack(self.bestedge[v]), Step::Free(self.bestedge[v]));
                    }
                }
                for &b in &self.stage_blossoms {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == S
                        && self.bestedge[b] != NONE
                        && (b < n || self.blossombase[b] != NONE)
                    {
                        consider(
                            self.slack(self.bestedge[b]) / 2,
                            Step::Between(self.bestedge[b]),
                        );
                    }
                }
                for &b in &self.stage_blossoms {
                    if b >= n
                        && self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == T
                    {
                        consider(self.dualvar[b], Step::Expand(b));
                    }
                }
                // Nothing left to reach: the matching is as large as these
                // edges allow and still not perfect.
                let Some(delta) = delta else {
                    return Err(MatchingError::NoPerfectMatching);
                };
                for &v in &self.stage_vertices {
                    match self.label[self.inblossom[v]] {
                        S => self.dualvar[v] -= delta,
                        T => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for &b in &self.stage_blossoms {
                    if b >= n && self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            S => self.dualvar[b] += delta,
                            T => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                // Tight edges first: expanding a T-blossom relabels only its
                // own children, so the S-vertices queued here stay S.
                for &step in &steps {
                    match step {
                        Step::Free(k) => {
                            self.allow(k);
                            let (i, j, _) = self.edges[k];
                            let s = if self.label[self.inblossom[i]] == FREE {
                                j
                            } else {
                                i
                            };
                            self.queue.push(s);
                        }
                        Step::Between(k) => {
                            self.allow(k);
                            self.queue.push(self.edges[k].0);
                        }
                        Step::Expand(_) => {}
                    }
                }
                for &step in &steps {
                    if let Step::Expand(b) = step
                        && self.blossomparent[b] == NONE
                        && self.blossombase[b] != NONE
                        && self.label[b] == T
                        && self.dualvar[b] == 0
                    {
                        self.expand_blossom(b, false)?;
                    }
                }
                self.steps = steps;
            }
            // End of a stage: S-blossoms whose dual fell to zero are opened.
            for idx in 0..self.stage_blossoms.len() {
                let b = self.stage_blossoms[idx];
                if b >= n
                    && self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == S
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true)?;
                }
            }
        }
    }

    fn into_matched(self) -> Result<Matched, MatchingError> {
        let n = self.n;
        let mut mate = Vec::with_capacity(n);
        for v in 0..n {
            let p = self.mate[v];
            if p == NONE {
                return Err(MatchingError::NoPerfectMatching);
            }
            mate.push(self.endpoint[p]);
        }
        // Blossoms still standing, numbered in order; their duals doubled.
        let sets: Vec<usize> = (n..2 * n)
            .filter(|&b| self.blossombase[b] != NONE)
            .collect();
        let mut index = vec![None; 2 * n];
        for (i, &b) in sets.iter().enumerate() {
            index[b] = Some(i);
        }
        let sets = sets
            .into_iter()
            .map(|b| OddSet {
                parent: index.get(self.blossomparent[b]).copied().flatten(),
                dual: 2 * self.dualvar[b],
            })
            .collect();
        let innermost = (0..n)
            .map(|v| index.get(self.blossomparent[v]).copied().flatten())
            .collect();
        // The method maximised w = -2 cost with vertex duals kept doubled
        // (2u) and blossom duals z: u_i + u_j + (z of blossoms holding both)
        // >= w. Times two, that is -2u_i - 2u_j - 2z <= 4 cost.
        let vertex = self.dualvar[..n].iter().map(|d| -d).collect();
        Ok(Matched {
            mate,
            duals: Duals {
                vertex,
                sets,
                innermost,
            },
            work: self.work,
        })
    }
}

#[derive(Debug, Clone, Copy)]
enum Step {
    /// The least-slack edge from an S-vertex to a free vertex becomes tight.
    Free(usize),
    /// The least-slack edge between two S-blossoms becomes tight.
    Between(usize),
    /// A T-blossom's dual reaches zero: expand it.
    Expand(usize),
}
