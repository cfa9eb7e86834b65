//! The exact combinatorial solver for `T^(W)`: memoised branch and bound over
//! warp-count states.
//!
//! Design (see [`crate::state`] for the transition system):
//! * **Symmetry.** Warps are identical, so the search runs on counts of warps per
//!   program position, never on warp identities: `W!` schedules collapse into one state.
//! * **Memoisation.** `T(s) = 1 + max over successors T(s')`, `T(done) = 0`; every
//!   fully explored state stores its exact value and the index of its best successor,
//!   so a state reached again by another path (or at another depth) costs one lookup.
//! * **Branch and bound.** A state reached after `d` cycles is expanded only if
//!   `d + UB(s)` exceeds the longest schedule found so far, where `UB` is the proven
//!   per-state bound [`Model::upper_bound`]. A state whose subtree was cut stores the
//!   upper bound it proved instead of an exact value, and is re-expanded only when it
//!   is met again at a depth where that bound no longer suffices.
//! * **Incumbent.** Adversarial rollouts ([`crate::heuristic`]) give the first
//!   incumbent; successors are tried in decreasing order of their upper bound.
//! * **Limits.** A time limit and a limit on stored states stop the expansion; the
//!   unfinished subtrees then report their proven upper bounds, so the result is always
//!   the longest schedule found (a lower bound, with a witness) and a proven upper bound.
//!
//! Guarantee: when `exact` is true, `makespan` is `T^(W)` and `path` is a witness.

use crate::heuristic::longest_rollout_until;
use crate::state::{Model, Scratch, State};
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};

/// Limits of one search.
#[derive(Debug, Clone, Copy)]
pub struct SearchLimits {
    /// Stop expanding after this long.
    pub time_limit: Option<Duration>,
    /// Stop expanding once this many states are stored (bounds memory: about 40 bytes
    /// per state).
    pub max_states: usize,
    /// Randomised rollouts per policy for the initial incumbent.
    pub rollouts: usize,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits { time_limit: None, max_states: 40_000_000, rollouts: 32 }
    }
}

/// Result of a search.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// Longest schedule found (exact when `exact`).
    pub makespan: u64,
    /// Proven upper bound on `T^(W)`; equals `makespan` when `exact`.
    pub upper_bound: u64,
    /// Whether the search completed (optimality proven).
    pub exact: bool,
    /// Why the search stopped early, if it did.
    pub stopped_by: Option<&'static str>,
    /// State path of the longest schedule found.
    pub path: Vec<State>,
    /// States expanded.
    pub expansions: u64,
    /// States stored in the memo table at the end.
    pub stored_states: usize,
    /// Length of the initial (heuristic) incumbent.
    pub initial_lower_bound: u64,
}

/// Approximate bytes per stored state (key, entry, hash-table overhead).
pub const BYTES_PER_STATE: usize = 40;

#[derive(Clone, Copy)]
struct Entry {
    value: u32,
    exact: bool,
    best: u32,
}

impl Entry {
    fn pack(self) -> u64 {
        self.value as u64 | (self.exact as u64) << 32 | (self.best as u64) << 33
    }
    fn unpack(v: u64) -> Entry {
        Entry { value: v as u32, exact: (v >> 32) & 1 == 1, best: (v >> 33) as u32 }
    }
}

/// Memo-table key: states that fit in 64 bits are stored as `u64` (half the memory
/// traffic of `u128`).
trait Key: Copy + Eq + std::hash::Hash {
    fn of(s: State) -> Self;
}
impl Key for u64 {
    fn of(s: State) -> Self {
        s as u64
    }
}
impl Key for u128 {
    fn of(s: State) -> Self {
        s
    }
}

struct Search<'a, K: Key> {
    model: &'a Model,
    limits: SearchLimits,
    started: Instant,
    memo: FxHashMap<K, u64>,
    best: u64,
    incumbent: Vec<State>,
    path: Vec<State>,
    expansions: u64,
    stopped_by: Option<&'static str>,
    scratch: Scratch,
    succ: Vec<State>,
    /// Per-depth buffers of (bound, successor index, successor), reused across expansions.
    orders: Vec<Vec<(u64, usize, State)>>,
}

/// Computes `T^(W)` exactly (within `limits`) for the instance behind `model`.
///
/// The depth-first search recurses once per cycle, so it runs on a thread whose stack
/// fits the longest possible schedule (callers such as rayon workers have small stacks).
pub fn solve(model: &Model, limits: SearchLimits) -> SearchOutcome {
    let root_bound = model.upper_bound(model.start());
    let stack = (root_bound as usize * 512).clamp(8 << 20, 4 << 30);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("makespan-search".into())
            .stack_size(stack)
            .spawn_scoped(scope, || {
                if model.fits_u64() {
                    run::<u64>(model, limits, root_bound)
                } else {
                    run::<u128>(model, limits, root_bound)
                }
            })
            .expect("spawning the search thread")
            .join()
            .expect("the search thread does not panic")
    })
}

/// The search proper; `root_bound` is [`Model::upper_bound`] of the start state.
fn run<K: Key>(model: &Model, limits: SearchLimits, root_bound: u64) -> SearchOutcome {
    let started = Instant::now();
    // Rollouts may use at most a quarter of the time limit.
    let deadline = limits.time_limit.map(|l| started + l / 4);
    let seed = longest_rollout_until(model, limits.rollouts, 0x6d61_6b65, deadline);
    let mut search = Search::<K> {
        model,
        limits,
        started,
        memo: FxHashMap::default(),
        best: seed.length,
        incumbent: seed.path,
        path: Vec::new(),
        expansions: 0,
        stopped_by: None,
        scratch: Scratch::default(),
        succ: Vec::new(),
        orders: Vec::new(),
    };
    let root = model.start();
    let (value, _) = search.dfs(root, 0, root_bound);
    let upper_bound = value.max(search.best);
    debug_assert!(search.stopped_by.is_some() || value == search.best);
    SearchOutcome {
        makespan: search.best,
        upper_bound,
        exact: upper_bound == search.best,
        stopped_by: search.stopped_by,
        path: search.incumbent,
        expansions: search.expansions,
        stored_states: search.memo.len(),
        initial_lower_bound: seed.length,
    }
}

impl<K: Key> Search<'_, K> {
    /// Returns `(v, exact)`: `T(s)` itself when `exact`, else a proven upper bound.
    /// `bound` is [`Model::upper_bound`] of `s`, computed by the caller.
    fn dfs(&mut self, s: State, depth: u64, bound: u64) -> (u64, bool) {
        if s == 0 {
            if depth > self.best {
                self.best = depth;
                self.incumbent = self.path.clone();
                self.incumbent.push(0);
            }
            return (0, true);
        }
        if depth + bound <= self.best {
            // Nothing below `s` can beat the incumbent; the lookup would not change that.
            return (bound, false);
        }
        let known = self.memo.get(&K::of(s)).map(|&v| Entry::unpack(v));
        let ub = match known {
            Some(e) if e.exact => {
                self.offer(s, depth, e.value as u64);
                return (e.value as u64, true);
            }
            Some(e) => e.value as u64,
            None => bound,
        };
        if depth + ub <= self.best || self.should_stop() {
            return (ub, false);
        }
        self.expand(s, depth)
    }

    fn expand(&mut self, s: State, depth: u64) -> (u64, bool) {
        self.expansions += 1;
        self.model.successors_with(s, &mut self.scratch, &mut self.succ);
        let level = depth as usize;
        if self.orders.len() <= level {
            self.orders.resize_with(level + 1, Vec::new);
        }
        let mut order = std::mem::take(&mut self.orders[level]);
        order.clear();
        order.extend(self.succ.iter().enumerate().map(|(j, &n)| (self.model.upper_bound(n), j, n)));
        order.sort_unstable_by(|a, b| b.cmp(a));
        self.path.push(s);
        let (mut best_v, mut best_j, mut all_exact) = (0u64, 0usize, true);
        for &(bound, j, child) in &order {
            let (v, exact) = self.dfs(child, depth + 1, bound);
            all_exact &= exact;
            if v > best_v || (v == best_v && exact) {
                best_v = v;
                best_j = j;
            }
        }
        self.orders[level] = order;
        self.path.pop();
        let value = 1 + best_v;
        self.memo.insert(K::of(s), Entry { value: value as u32, exact: all_exact, best: best_j as u32 }.pack());
        (value, all_exact)
    }

    /// A state with exact value `v` was met after `depth` cycles: a schedule of
    /// `depth + v` cycles exists; keep it if it is the longest so far.
    fn offer(&mut self, s: State, depth: u64, v: u64) {
        if depth + v <= self.best {
            return;
        }
        self.best = depth + v;
        let mut path = self.path.clone();
        let mut cur = s;
        let mut succ = Vec::new();
        while cur != 0 {
            path.push(cur);
            let e = Entry::unpack(self.memo[&K::of(cur)]);
            self.model.successors_with(cur, &mut self.scratch, &mut succ);
            cur = succ[e.best as usize];
        }
        path.push(0);
        self.incumbent = path;
    }

    fn should_stop(&mut self) -> bool {
        if self.stopped_by.is_some() {
            return true;
        }
        if self.memo.len() >= self.limits.max_states {
            self.stopped_by = Some("max_states");
        } else if self.expansions.is_multiple_of(1024) {
            if let Some(limit) = self.limits.time_limit {
                if self.started.elapsed() >= limit {
                    self.stopped_by = Some("time_limit");
                }
            }
        }
        self.stopped_by.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::check;
    use crate::instance::Instance;

    fn exact(k: &str, w: i64, sl: i64, sc: i64) -> u64 {
        let inst = Instance::new(k, w, sl, sc).unwrap();
        let m = Model::new(&inst).unwrap();
        let out = solve(&m, SearchLimits::default());
        assert!(out.exact);
        assert_eq!(check(&inst, &m.schedule_of(&out.path)), Ok(out.makespan));
        out.makespan
    }

    #[test]
    fn known_values() {
        assert_eq!(exact("LLC", 4, 1, 1), 9);
        assert_eq!(exact("LCL", 4, 1, 1), 9);
        assert_eq!(exact("LCL", 2, 1, 1), 4);
        assert_eq!(exact("LLCLLL", 4, 2, 2), 13);
    }

    #[test]
    fn stops_with_bounds() {
        // CC and LL pairs: the queue bound does not apply, the search must expand.
        let inst = Instance::new("LLCCLLCC", 24, 1, 1).unwrap();
        let m = Model::new(&inst).unwrap();
        let out = solve(&m, SearchLimits { max_states: 10, ..SearchLimits::default() });
        assert_eq!(out.stopped_by, Some("max_states"));
        assert!(out.makespan <= out.upper_bound);
        assert!(out.upper_bound <= crate::bounds::safe_horizon(&inst));
        assert_eq!(check(&inst, &m.schedule_of(&out.path)), Ok(out.makespan));
    }
}
