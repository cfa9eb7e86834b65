//! The tail bound, for kernels where one unit type has sigma 1: the cycles in which that
//! unit idles, computed exactly on small end games instead of bounded by a formula.

use super::helpers::end_game;
use super::sides::Sides;
use super::{Paced, StateBound, Tables};
use crate::budget::Budget;
use crate::model::kernel::Unit;
use crate::state::transitions::Transitions;
use crate::state::Counts;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Mutex;

/// Most abstract queue configurations explored before a side is given up. At `W <= 24`
/// the queues are finite, but can be hundreds of thousands, seconds to list; on the real
/// barrier phases at W = 8-16 (`tests/data/ground-truth.csv`) every side whose bound was
/// the lowest had at most 12 002.
const MAX_CONFIGS: usize = 20_000;
/// Most warps an abstract queue may hold before a side is given up.
const MAX_QUEUE: u32 = 24;
/// Most bytes of queue configurations held (64 MiB).
const MAX_CONFIG_BYTES: usize = 64 << 20;
/// Most end-game states the idle-cycle DP may visit before a side is given up (about
/// 8 us each on TX2 kernels at W = 8-16: at most about 1.5 s).
const MAX_END_STATES: usize = 200_000;

/// What a side computed (`K` when the abstract queues were enumerated, and `g` when the
/// end games were solved), by kernel, sigmas, paced unit, root queue and `W` (the
/// queues are capped at `W` warps, so a result for one `W` is not reused for another):
/// `bound` and `solve` of one instance in one process, or a sweep's repeated jobs, build
/// it once.
type CacheKey = (Vec<Unit>, (u32, u32), Unit, Vec<u32>, u32);
type Computed = (Option<usize>, Option<Vec<u64>>);
/// The cache and the bytes its entries hold. Bounded: when an entry would take it past
/// [`CACHE_BYTES`] it is emptied first (a long sweep over many kernels starts afresh),
/// so it never holds more than that plus one entry.
static CACHE: Mutex<Option<(HashMap<CacheKey, Computed>, usize)>> = Mutex::new(None);
/// Most bytes the cache's entries may hold: 64 MiB.
const CACHE_BYTES: usize = 64 << 20;

/// Bytes an entry of the cache holds (its key's and its value's vectors).
fn entry_bytes(key: &CacheKey, value: &Computed) -> usize {
    key.0.len() * std::mem::size_of::<Unit>() + key.3.len() * 4 + value.1.as_ref().map_or(0, |g| g.len() * 8) + 64
}

/// `R_X + g[min(u, K)]` for the *paced* unit X with `sigma_X = 1` (L, C, or both,
/// taking the smaller), where `u` is the number of unfinished warps, `K` the largest
/// number of warps that can be ready for the other unit Y at once, and `g[k]` the most
/// cycles without an X-ready warp that an end game of at most `k` warps, all ready for
/// Y, can still have, computed exactly, or bounded in closed form where the end games are
/// too many (see `Side::idle`); where the abstract queues of step 2 are too many (limits
/// above), `K = W`. `u64::MAX` (no information) where neither sigma is 1.
///
/// Proof (X = L; the case X = C is the same with L and C swapped). Let `s` be a state
/// reachable from the start state.
/// 1. With `sigma_L = 1`, every cycle in which some warp is ready for an L issues
///    exactly one L, so every schedule from `s` lasts `R_L(s) + N0` cycles, where `N0`
///    counts its *idle* cycles, those in which no warp is ready for an L.
/// 2. The *queue* of a state is the multiset, over the warps ready for a C, of the C's
///    left in their current run of C's. In one cycle, `min(sigma_C, Q)` queued warps
///    issue a C, each lowering its entry by one and leaving the queue at zero (the next
///    instruction is an L, or none); at most one warp issues an L (`sigma_L = 1`), and it
///    joins the queue only if its next instruction starts a run of C's, with that run's
///    length, one of the lengths in `starts`. So the queues of the real states reachable
///    from the start state are among the configurations reachable in this abstract
///    system (any `min(sigma_C, Q)` entries lowered, then at most one entry from
///    `starts` added) through configurations of at most `W` warps (a real queue holds
///    only unfinished warps, so every queue of a real schedule has at most `W`), which
///    [`Tail::new`] enumerates exhaustively; `K` is the largest queue among them.
/// 3. Let `s1` be the first idle state of a schedule from `s` (if there is none,
///    `N0 = 0`). Every unfinished warp of `s1` is ready for a C, so `s1` is an *end game*:
///    all its warps at C positions, its queue one of the configurations of step 2, and
///    `u(s1) = Q(s1) <= min(u(s), K)` (warps only finish). All idle cycles of the
///    schedule are at or after `s1`, so `N0 <= G(s1)`, where `G` is the largest number
///    of idle cycles of any schedule from a state, computed exactly by a DP over every
///    state reachable from the end games. Hence `N0 <= g[min(u(s), K)]`, `g[k]` being
///    the largest `G` over the end games of at most `k` warps.
#[derive(Debug, Clone)]
pub struct Tail {
    sides: Sides<Side>,
}

/// One paced unit X (queued unit Y).
#[derive(Debug, Clone)]
struct Side {
    /// X instructions left from each position.
    suffix: Vec<u64>,
    /// Y instructions left from each position.
    suffix_queued: Vec<u64>,
    /// sigma_Y.
    sigma_queued: u64,
    /// `K`.
    most_queued: usize,
    /// `g[k]`, `k = 0..=K`, non-decreasing, when the end games were small enough.
    g: Option<Vec<u64>>,
}

impl Tail {
    /// The bound for the start state of `t`, reusing what an earlier call computed for
    /// the same kernel, sigmas, root queue and W (in this process).
    pub fn new(t: &Transitions, tables: &Tables) -> Tail {
        Tail::build(t, tables, true, &Budget::default())
    }

    /// [`Tail::new`], but the end games are left unsolved (the closed form is used) if
    /// solving them would go past `deadline`.
    pub fn until(t: &Transitions, tables: &Tables, budget: &Budget) -> Tail {
        Tail::build(t, tables, true, budget)
    }

    /// [`Tail::new`] computed afresh (for benchmarks of its cost).
    pub fn compute(t: &Transitions, tables: &Tables) -> Tail {
        Tail::build(t, tables, false, &Budget::default())
    }

    fn build(t: &Transitions, tables: &Tables, cached: bool, budget: &Budget) -> Tail {
        let sides = Sides::build(tables.paced_units().map(|(paced, view)| Some(Side::new(t, paced, view, cached, budget))));
        Tail { sides }
    }

    /// The same bound with the closed form only (no end games solved), the weaker of the
    /// two versions; for tests of that closed form.
    pub fn closed_form_only(mut self) -> Tail {
        self.sides.iter_mut().for_each(|s| s.g = None);
        self
    }

    /// Whether the bound gives any information for this instance.
    pub fn applies(&self) -> bool {
        !self.sides.is_empty()
    }

    /// `K` and `g[K]` (`None` where the end games were too many to solve) of each side
    /// that applies (paced L first), for reports and tests.
    pub fn summary(&self) -> Vec<(usize, Option<u64>)> {
        self.sides.iter().map(|s| (s.most_queued, s.g.as_ref().map(|g| g[s.most_queued]))).collect()
    }
}

impl StateBound for Tail {
    fn upper(&self, s: &Counts) -> u64 {
        self.sides.upper(s)
    }
}

/// One side: `R_X` plus the most idle cycles of X from the end games (proof above).
impl StateBound for Side {
    fn upper(&self, s: &Counts) -> u64 {
        let u = s.warps() as usize;
        let r: u64 = s.slots().iter().map(|&(p, n)| n as u64 * self.suffix[p as usize]).sum();
        r + self.idle(s, u.min(self.most_queued))
    }
}

impl Side {
    fn new(t: &Transitions, paced: Unit, view: Paced, cached: bool, budget: &Budget) -> Side {
        let units = t.units();
        let (runs, sigma_q) = (view.runs, view.sigma);
        let longest = runs.iter().copied().max().unwrap_or(0) as usize;
        let mut starts: Vec<usize> =
            (1..units.len()).filter(|&p| units[p - 1] == paced && units[p] != paced).map(|p| runs[p] as usize).collect();
        starts.sort_unstable();
        starts.dedup();
        let mut root = vec![0u32; longest + 1];
        if units[0] != paced {
            root[runs[0] as usize] = t.warps();
        }
        let key = (units.to_vec(), t.sigmas(), paced, root.clone(), t.warps());
        let found = if cached { CACHE.lock().ok().and_then(|c| c.as_ref().and_then(|(m, _)| m.get(&key).cloned())) } else { None };
        let (queued, g) = found.unwrap_or_else(|| {
            let configs = queue_configs(root, &starts, sigma_q, t.warps(), budget);
            let queued = configs.as_ref().map(|c| c.iter().map(|n| n.iter().sum::<u32>() as usize).max().unwrap_or(0));
            let g = configs.and_then(|c| end_games(units, runs, paced, &c, budget)).and_then(|e| idle_dp(t, paced, &e, budget));
            let cut = g.is_none() && budget.is_over();
            if let (false, Ok(mut c)) = (cut, CACHE.lock()) {
                let value = (queued, g.clone());
                let bytes = entry_bytes(&key, &value);
                let (m, held) = c.get_or_insert_with(|| (HashMap::default(), 0));
                if *held + bytes > CACHE_BYTES {
                    m.clear();
                    *held = 0;
                }
                if m.insert(key, value).is_none() {
                    *held += bytes;
                }
            }
            (queued, g)
        });
        // Without the abstract queues (too many), K = W still holds and the end games
        // are bounded by the closed form of `Side::idle` with k = u.
        let most_queued = queued.unwrap_or(t.warps() as usize);
        Side { suffix: view.paced_left.to_vec(), suffix_queued: view.queued_left.to_vec(), sigma_queued: sigma_q as u64, most_queued, g }
    }

    /// A bound on the idle cycles of any schedule from `s` whose end games have at most
    /// `k` warps: `g[k]` when the end games were solved, and in any case
    /// `y + floor((k - 1) y / sigma_Y)`, or just `y` when `k <= sigma_Y`, where `y` is the
    /// most Y instructions a warp of `s` has left. Proof of the second (step 3 of
    /// [`Tail`] gives the end game `s1`): take the warp of `s1` that finishes last. In each
    /// idle cycle it is ready for a Y (every unfinished warp is); it issues one of its
    /// `<= y` Y's, or `sigma_Y` other warps issue theirs, which needs `k > sigma_Y` and
    /// happens at most `floor((k - 1) y / sigma_Y)` times.
    fn idle(&self, s: &Counts, k: usize) -> u64 {
        let y = s.slots().first().map_or(0, |&(p, _)| self.suffix_queued[p as usize]);
        let k = k as u64;
        let formula = if k <= self.sigma_queued { y } else { y + (k - 1) * y / self.sigma_queued };
        self.g.as_ref().map_or(formula, |g| formula.min(g[k as usize]))
    }
}

/// Every queue configuration (`n[r]` warps with `r` instructions left in their run,
/// `r >= 1`) of at most `warps` warps reachable from `root` in the abstract system of
/// step 2 through such configurations, or `None` when there are more than
/// [`MAX_CONFIGS`] or a queue exceeds [`MAX_QUEUE`]. The cap keeps every real queue: a
/// real queue holds only unfinished warps, so it and every queue before it in a real
/// schedule has at most `W`, and that schedule's queues form an abstract path through
/// configurations of at most `W` warps.
fn queue_configs(root: Vec<u32>, starts: &[usize], sigma: u32, warps: u32, budget: &Budget) -> Option<HashSet<Vec<u32>>> {
    // Each configuration is a vector as long as the longest run: cap them by bytes too.
    let most = MAX_CONFIGS.min(MAX_CONFIG_BYTES / (4 * root.len().max(1)));
    let mut seen: HashSet<Vec<u32>> = std::iter::once(root.clone()).collect();
    let mut todo = vec![root];
    let mut lowered = Vec::new();
    while let Some(n) = todo.pop() {
        if n.iter().sum::<u32>() > MAX_QUEUE || seen.len() > most || seen.len().is_multiple_of(1024) && budget.is_over() {
            return None;
        }
        let q: u32 = n.iter().sum();
        lowered.clear();
        lower(&n, n.len() - 1, q.min(sigma), &mut n.clone(), &mut lowered);
        for m in &lowered {
            let mut next = vec![m.clone()];
            for &r in starts {
                let mut a = m.clone();
                a[r] += 1;
                next.push(a);
            }
            for c in next {
                if c.iter().sum::<u32>() <= warps && seen.insert(c.clone()) {
                    todo.push(c);
                }
            }
        }
    }
    Some(seen)
}

/// Every way of lowering `left` entries of `n` among lengths `1..=r` by one (each warp at
/// most once), written from `cur` (a copy of `n` with the lengths above `r` done).
fn lower(n: &[u32], r: usize, left: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
    if left == 0 {
        let mut c = cur.clone();
        c[0] = 0; // lengths lowered to 0 have left the queue
        out.push(c);
        return;
    }
    if r == 0 {
        return;
    }
    let below: u32 = n[1..r].iter().sum();
    for m in left.saturating_sub(below)..=left.min(n[r]) {
        cur[r] -= m;
        cur[r - 1] += m;
        lower(n, r - 1, left - m, cur, out);
        cur[r] += m;
        cur[r - 1] -= m;
    }
}

/// Every state whose warps all sit at positions of the queued unit, with a queue among
/// `configs` (each warp with `r` left in its run at a position whose run has `r` left), or
/// `None` when they are more than [`MAX_END_STATES`] or the budget runs out.
fn end_games(units: &[Unit], runs: &[u64], paced: Unit, configs: &HashSet<Vec<u32>>, budget: &Budget) -> Option<Vec<Counts>> {
    let mut at = vec![Vec::new(); runs.iter().copied().max().unwrap_or(0) as usize + 1];
    for (p, &u) in units.iter().enumerate() {
        if u != paced {
            at[runs[p] as usize].push(p as u32);
        }
    }
    let multisets = |places: usize, k: u32| (0..k as u64).fold(1u64, |acc, i| acc.saturating_mul(places as u64 + i) / (i + 1));
    let total = configs.iter().fold(0u64, |acc, n| {
        acc.saturating_add(n.iter().enumerate().skip(1).fold(1u64, |prod, (r, &k)| prod.saturating_mul(multisets(at[r].len(), k))))
    });
    if total > MAX_END_STATES as u64 {
        return None;
    }
    let mut out = Vec::new();
    for n in configs {
        let mut states = vec![Vec::new()];
        for (r, &k) in n.iter().enumerate().skip(1) {
            states =
                states.into_iter().flat_map(|s: Vec<u32>| spread(&at[r], k).into_iter().map(move |t| [s.clone(), t].concat())).collect();
            if states.len() > MAX_END_STATES || budget.is_over() {
                return None;
            }
        }
        for mut s in states {
            s.sort_unstable();
            out.push(Counts::from_pairs(group(&s)));
            if out.len() > MAX_END_STATES || out.len() % 4096 == 0 && budget.is_over() {
                return None;
            }
        }
    }
    Some(out)
}

/// Every multiset of `k` positions from `ps`, as sorted lists (in lexicographic order of
/// their indices into `ps`). Iterative: the work is linear in the output, which the caller
/// has already counted against [`MAX_END_STATES`].
fn spread(ps: &[u32], k: u32) -> Vec<Vec<u32>> {
    let k = k as usize;
    if k > 0 && ps.is_empty() {
        return Vec::new();
    }
    let mut idx = vec![0usize; k];
    let mut out = Vec::new();
    loop {
        out.push(idx.iter().map(|&i| ps[i]).collect());
        // The rightmost index that can still grow; it and every index after it take its next value.
        let Some(j) = idx.iter().rposition(|&i| i + 1 < ps.len()) else { return out };
        let next = idx[j] + 1;
        idx[j..].fill(next);
    }
}

/// Sorted positions as `(position, warps)` pairs.
fn group(s: &[u32]) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for &p in s {
        match pairs.last_mut() {
            Some((q, n)) if *q == p => *n += 1,
            _ => pairs.push((p, 1)),
        }
    }
    pairs
}

/// `g[k]` for `k = 0..=K`: the largest number of idle cycles (no warp ready for
/// `paced`) of any schedule from an end game of at most `k` warps, by an exact DP over
/// every state reachable from the end games (states in increasing order of instructions
/// left, so each successor is done before its predecessors).
fn idle_dp(t: &Transitions, paced: Unit, end_games: &[Counts], budget: &Budget) -> Option<Vec<u64>> {
    let states = end_game::closure(t, end_games, MAX_END_STATES, budget)?;
    let value = end_game::idle_of_closed(t, paced, states, budget)?;
    let most = end_games.iter().map(|s| s.warps() as usize).max().unwrap_or(0);
    let mut g = vec![0u64; most + 1];
    for s in end_games {
        let k = s.warps() as usize;
        g[k] = g[k].max(value[s]);
    }
    for k in 1..g.len() {
        g[k] = g[k].max(g[k - 1]);
    }
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;

    fn tail_of(kernel: &str, warps: i64, sigma_l: i64, sigma_c: i64) -> (Tail, Transitions) {
        let inst = Instance::new(kernel, warps, sigma_l, sigma_c).unwrap();
        let t = Transitions::new(&inst);
        (Tail::new(&t, &Tables::new(&inst)), t)
    }

    #[test]
    fn tx2_block_end_games_have_seven_idle_cycles() {
        // At most 4 warps ready for a C at once, and end games of at most 4 warps idle
        // the load/store unit for at most 7 cycles: T <= 64 * 5 + 7 = 327, which a
        // schedule reaches (tests/it/search.rs).
        let (tail, t) = tail_of("LLCCCCLCLCCL", 64, 1, 4);
        assert_eq!(tail.summary(), vec![(4, Some(7))]);
        assert_eq!(tail.upper(&t.start()), 327);
    }

    #[test]
    fn a_past_deadline_leaves_the_end_games_unsolved_and_uncached() {
        let inst = Instance::new("LLCCCCLCLCCL", 64, 1, 4).unwrap();
        let t = Transitions::new(&inst);
        let cut = Tail::until(&t, &Tables::new(&inst), &Budget::new(Some(std::time::Duration::ZERO), 1 << 20));
        assert_eq!(cut.summary(), vec![(4, None)]);
        // The closed form: K = 4 <= sigma_C, so the C's one warp has left, 7.
        assert_eq!(cut.upper(&t.start()), 327);
        assert_eq!(Tail::new(&t, &Tables::new(&inst)).summary(), vec![(4, Some(7))]);
    }

    #[test]
    fn long_kernels_with_short_runs_use_the_closed_form() {
        // 480 instructions, runs of C at most 4 = sigma_C: K = 4, too many end games to
        // solve, so the idle cycles are bounded by the C's one warp has: 7 * 40 = 280.
        let (tail, t) = tail_of(&"LCCLCLLCCCCL".repeat(40), 64, 1, 4);
        assert_eq!(tail.summary(), vec![(4, None)]);
        assert_eq!(tail.upper(&t.start()), 64 * 5 * 40 + 280);
    }

    #[test]
    fn no_side_without_a_sigma_of_one_and_k_w_for_an_unbounded_queue() {
        assert!(!tail_of("LLCCCCLCLCCL", 8, 2, 4).0.applies());
        // Runs of two C's arriving every cycle at sigma_C = 1 grow the abstract queue
        // without end (the side for paced C has runs of two L's: the same): K = W and
        // the closed form, which at the start gives R_X + y + (W - 1) y.
        // With W = 32 the queue passes MAX_QUEUE = 24 before W caps it.
        let (tail, t) = tail_of("LLCCLLCLLCCL", 32, 1, 1);
        assert_eq!(tail.summary(), vec![(32, None), (32, None)]);
        assert_eq!(tail.upper(&t.start()), 384); // 224 + 5 + 31 * 5 (paced L), 160 + 7 + 31 * 7
                                                 // Near the end the closed form is what helps: two warps at the last C run.
        assert_eq!(tail.upper(&Counts::from_pairs([(9, 2)])), 6); // R_L 2 + y 2 + (2 - 1) * 2
                                                                  // With W = 8 no queue holds more than 8 warps: the queues are enumerated and the
                                                                  // end games solved, and the bound is lower than the closed form's 96.
        let (tail, t) = tail_of("LLCCLLCLLCCL", 8, 1, 1);
        let summary = tail.summary();
        assert!(summary.iter().all(|&(k, g)| k <= 8 && g.is_some()), "{summary:?}");
        assert!(tail.upper(&t.start()) < 96, "{}", tail.upper(&t.start()));
    }

    #[test]
    fn queue_configs_of_short_runs() {
        // Runs of 2 arriving at most once a cycle, sigma 2: the C work queued never
        // exceeds max(Phi0, D^2) = 4 (the queue bound's step 2), and the queue {1, 2} is
        // reached (empty -> {2} -> {1} + a new {2}).
        let configs = queue_configs(vec![0, 0, 0], &[2], 2, 64, &Budget::default()).unwrap();
        assert!(configs.contains(&vec![0, 0, 0]) && configs.contains(&vec![0, 1, 1]));
        assert!(configs.iter().all(|n| n[1] + 2 * n[2] <= 4), "{configs:?}");
        // The same at sigma 1 grows without end: given up.
        assert!(queue_configs(vec![0, 0, 0], &[2], 1, 64, &Budget::default()).is_none());
        // Unless the warps are few: no queue holds more than W of them.
        let few = queue_configs(vec![0, 0, 0], &[2], 1, 3, &Budget::default()).unwrap();
        assert!(few.iter().all(|n| n.iter().sum::<u32>() <= 3) && few.contains(&vec![0, 0, 3]), "{few:?}");
    }

    #[test]
    fn spreads_and_groups() {
        assert_eq!(spread(&[2, 5], 2), vec![vec![2, 2], vec![2, 5], vec![5, 5]]);
        assert_eq!(spread(&[], 1), Vec::<Vec<u32>>::new());
        assert_eq!(spread(&[], 0), vec![Vec::<u32>::new()]);
        // Every sorted 3-multiset of 6 positions, once: C(6 + 2, 3) = 56, in order.
        let all = spread(&[1, 2, 3, 4, 5, 6], 3);
        let brute: Vec<Vec<u32>> = (1..=6).flat_map(|a| (a..=6).flat_map(move |b| (b..=6).map(move |c| vec![a, b, c]))).collect();
        assert_eq!(all, brute);
        assert_eq!(group(&[2, 2, 5]), vec![(2, 2), (5, 1)]);
    }
}
