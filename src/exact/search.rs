//! The exact combinatorial solver for `T^(W)`: memoised branch and bound over
//! warp-count states.
//!
//! Design (see [`crate::state`] for the transition system):
//! * **Symmetry.** Warps are identical, so the search runs on counts of warps per
//!   program position, never on warp identities: `W!` schedules collapse into one state.
//! * **Memoisation.** `T(s) = 1 + max over successors T(s')`, `T(done) = 0`; every
//!   fully explored state stores its exact value and the index of its best successor,
//!   so a state reached again by another path (or at another depth) costs one lookup.
//!   States are stored under an [`Encoding`]; the search is generic over it.
//! * **Branch and bound.** A state reached after `d` cycles is expanded only if
//!   `d + UB(s)` exceeds the longest schedule found so far, where `UB` is a proven
//!   per-state bound ([`StateBound`], generic). A state whose subtree was cut stores the
//!   upper bound it proved instead of an exact value, and is re-expanded only when it
//!   is met again at a depth where that bound no longer suffices.
//! * **Incumbent.** Adversarial rollouts ([`crate::exact::heuristic`]) give the first
//!   incumbent; successors are tried in decreasing order of their upper bound.
//! * **Both cores.** Unless it runs on a rayon worker (where the callers already run
//!   searches in parallel), the search starts a second thread that runs beam searches
//!   ([`crate::exact::heuristic::beam`]) of growing width while the depth-first search runs.
//!   On a rayon worker with a time limit the same beams run first, on the worker's thread,
//!   for half of the time left or until a schedule reaches the start state's bound. A
//!   barrier kernel's phases are solved this way; without the beams their lower ends were
//!   up to 12 % below the truth.
//!   Each longer schedule it finds is published (its trace first, then its length); the
//!   depth-first search reads the length whenever it reads the clock and prunes with it.
//!   Pruning with the length of any real schedule is sound (the same as finding it
//!   itself), and the result's trace is the longer of the two threads' schedules, so
//!   its length is the value the search reports.
//! * **Limits.** A time limit and a limit on stored states stop the expansion; the
//!   unfinished subtrees then report their proven upper bounds, so the result is always
//!   the longest schedule found (a lower bound, with a witness) and a proven upper bound.
//!
//! Guarantee: when the search completes, its trace is a longest schedule: `T^(W)`.

use crate::budget::{Budget, Part};
use crate::error::{Error, TooLarge};
use crate::exact::dense;
use crate::exact::heuristic::{beam, priority, rollouts_until};
use crate::exact::outcome::{Outcome, SearchStats, Stats, Stop, Witness};
use crate::model::instance::Instance;
use crate::state::packed::{Packed128, Packed64};
use crate::state::sparse::Sparse;
use crate::state::trace::Trace;
use crate::state::transitions::{Scratch, Transitions};
use crate::state::{Counts, Encoding};
use crate::state_bounds::{standard_until, StateBound, Tables};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Limits of one search.
#[derive(Debug, Clone)]
pub struct SearchLimits {
    /// Time, memory and stop flag: stop expanding once the budget is over, and before the
    /// memo table (its buckets, keys and the copy a resize makes) would need more than
    /// its memory.
    pub budget: Budget,
    /// Stop expanding once this many states are stored (branch and bound).
    pub max_states: usize,
    /// Randomised rollouts per policy for the initial incumbent.
    pub rollouts: usize,
    /// Run beam searches: on a second thread, or on a rayon worker with a time limit
    /// first on the same thread for half of the time left (none without a time limit).
    pub beam: bool,
    /// [`solve`] tries the dense programme ([`crate::exact::dense`]) when its table of all
    /// `C(I + W, W)` states fits in half of `max_memory` and a short branch and bound did
    /// not end, for at most three quarters of the time left (`max_states` limits the
    /// branch and bound only: the table's memory is fixed by its size).
    pub dense: bool,
}

/// The default limit of the branch and bound in stored states: 40 million.
pub const DEFAULT_MAX_STATES: usize = 40_000_000;

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits { budget: Budget::default(), max_states: DEFAULT_MAX_STATES, rollouts: 32, beam: true, dense: true }
    }
}

/// Bytes the memo table of `capacity` entries occupies: hashbrown allocates a power of
/// two of buckets, at least 8/7 of the capacity, each with its key, its packed entry and
/// one control byte.
fn table_bytes<K>(capacity: usize) -> usize {
    let buckets = (capacity.saturating_mul(8) / 7).max(1).next_power_of_two();
    buckets.saturating_mul(std::mem::size_of::<(K, u64)>() + 1)
}

/// What [`search`] found, before its trace is turned into a checked schedule.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The longest path found (exact when `stop` is `Completed`).
    pub trace: Trace,
    /// Proven upper bound on `T^(W)`.
    pub upper_bound: u64,
    /// Why the search stopped.
    pub stop: Stop,
    /// Statistics.
    pub stats: SearchStats,
}

/// Computes `T^(W)` of `inst` exactly (within `limits`) with the standard per-state
/// bound, by the branch and bound (choosing the most compact encoding that holds its
/// states: packed in 64 or 128 bits, else [`Sparse`], which holds any instance) or the
/// dense programme:
/// * where the dense table fits ([`SearchLimits::dense`]), a branch and bound of at most
///   [`PROBE_STATES`] stored states runs first (where the per-state bounds are tight it
///   ends at once), then the dense programme for at most three quarters of the time left;
/// * if neither ended, the branch and bound runs with the time left.
///
/// The witness is re-checked; the upper bound is never above the safe horizon, nor above
/// the start-state bound that `bound` prints ([`at_most_start_bound`]; unless Ctrl-C or
/// an overall deadline such as `--total-time-limit` cut its bounds short).
///
/// The bounds' end games and automata are built in full (past the time limit if they
/// take longer), the search gets the time left; where the dense programme will solve
/// every state sooner ([`DENSE_FIRST_STATES`]) they are built only if it stops short,
/// before the branch and bound that follows it.
pub fn solve(inst: &Instance, limits: SearchLimits) -> Result<Outcome, Error> {
    let t = Transitions::new(inst);
    if let Some(answer) = quick_answer(inst, &t, &limits) {
        return outcome(inst, answer);
    }
    let horizon = crate::model::bounds::safe_horizon(inst);
    let fits = limits.dense && dense::fits(inst, horizon, dense_table_states(&limits, horizon));
    let small = crate::state::states(inst.len() as u64, inst.warps as u64).is_some_and(|n| n <= DENSE_FIRST_STATES);
    if fits && small {
        let cheap = standard_until(inst, &limits.budget.with_time_limit(Some(Duration::ZERO)));
        if let Some(out) = probe_and_dense(inst, &t, &cheap, &limits)? {
            return at_most_start_bound(inst, out, true, &limits.budget);
        }
    }
    let building = limits.budget.with_time_limit(None);
    let bound = standard_until(inst, &building);
    let weakened = building.is_over();
    if fits && !small {
        if let Some(out) = probe_and_dense(inst, &t, &bound, &limits)? {
            return at_most_start_bound(inst, out, weakened, &limits.budget);
        }
    }
    let r = search_encoded(inst, &t, &bound, limits.clone())?;
    at_most_start_bound(inst, outcome(inst, r)?, weakened, &limits.budget)
}

/// `out` with its upper bound at most [`start_state_bound`](crate::state_bounds::report::start_state_bound)
/// (what `bound` prints), so that a solve is never looser than `bound`: when `weakened`
/// (the per-state bounds the method used were built past their deadline, so their value
/// at the start may be higher) and `out` is not exact, the bounds are built again in full,
/// past the time limit (interruptible; the tail bound's end games take about 1.5 s at
/// most, the clipped bound's automata have their own work cap). Otherwise `out`'s upper
/// bound is already at most the method's bound at the start state, which is that value.
pub fn at_most_start_bound(inst: &Instance, out: Outcome, weakened: bool, budget: &crate::budget::Budget) -> Result<Outcome, Error> {
    if !weakened || out.exact() {
        return Ok(out);
    }
    let full = crate::state_bounds::report::start_state_bound_until(inst, &budget.with_time_limit(None));
    Ok(out.capped(full)?)
}

/// Most states (`C(I + W, W)`) for which [`solve`] leaves the per-state bounds' end games
/// unbuilt and lets the dense programme solve every state: it takes about 0.03 us per
/// state on 2 cores, the tail bound's end games about 8 us per state (up to 200 000).
pub const DENSE_FIRST_STATES: u64 = 100_000_000;

/// Where the dense table fits: a branch and bound of at most [`PROBE_STATES`] stored
/// states, then the dense programme. `Some` when one of them ended the solve (or the probe
/// had the whole state limit), `None` when the branch and bound must go on.
fn probe_and_dense<B: StateBound>(inst: &Instance, t: &Transitions, bound: &B, limits: &SearchLimits) -> Result<Option<Outcome>, Error> {
    let probe = SearchLimits { max_states: PROBE_STATES.min(limits.max_states), beam: false, ..limits.clone() };
    let probe_states = probe.max_states;
    let r = search_encoded(inst, t, bound, probe)?;
    if r.stop != Stop::MaxStates {
        return outcome(inst, r).map(Some);
    }
    if let Some(out) = solve_dense(inst, limits)? {
        return Ok(Some(out));
    }
    if probe_states == limits.max_states {
        return outcome(inst, r).map(Some);
    }
    Ok(None)
}

/// Most successors of one state the branch and bound lists (each is a state in memory);
/// a state with more stops the search with the memory limit as reason.
pub const MAX_EXPANDED_CHOICES: u128 = 1 << 20;

/// How long `quick_answer` may take.
pub const QUICK: Duration = Duration::from_millis(10);

/// Cheap first: the per-state bounds without their end games and automata (a few
/// milliseconds) and rollouts for at most [`QUICK`]; when the longest rollout meets the
/// bound at the start state, that is `T^(W)`, proven, without building the expensive
/// bounds. `None` when the interval is still open.
fn quick_answer(inst: &Instance, t: &Transitions, limits: &SearchLimits) -> Option<SearchResult> {
    let cheap = standard_until(inst, &limits.budget.with_time_limit(Some(Duration::ZERO)));
    let upper = cheap.upper(&t.start()).min(crate::model::bounds::safe_horizon(inst));
    let trace = crate::exact::heuristic::longest_rollout_until(t, &cheap, 8, 0x7175_6963, &limits.budget.at_most(QUICK));
    limits.budget.proved(upper);
    limits.budget.found(trace.cycles());
    let stats = SearchStats { expansions: 0, stored_states: 0, initial_lower_bound: trace.cycles(), beam_lower_bound: 0, dense_states: 0 };
    (trace.cycles() >= upper).then_some(SearchResult { trace, upper_bound: upper, stop: Stop::Completed, stats })
}

/// Stored states of the branch and bound that [`solve`] runs before the dense programme.
pub const PROBE_STATES: usize = 20_000;

/// The branch and bound of `t` in the most compact encoding that holds its states.
fn search_encoded<B: StateBound>(inst: &Instance, t: &Transitions, bound: &B, limits: SearchLimits) -> Result<SearchResult, TooLarge> {
    if let Some(e) = Packed64::for_instance(inst.len(), inst.warps) {
        search(t, bound, e, limits)
    } else if let Some(e) = Packed128::for_instance(inst.len(), inst.warps) {
        search(t, bound, e, limits)
    } else {
        search(t, bound, Sparse, limits)
    }
}

/// A search result (the branch and bound's or the dense programme's) as an outcome: its
/// witness re-checked, its upper bound capped by the safe horizon.
fn outcome(inst: &Instance, r: SearchResult) -> Result<Outcome, Error> {
    let schedule = r.trace.schedule(inst.warps, inst.len());
    let witness = Witness::check(inst, "search", schedule, Some(r.trace.cycles()))?;
    let upper = r.upper_bound.min(crate::model::bounds::safe_horizon(inst));
    Ok(Outcome::new(witness, upper, r.stop, Stats { search: Some(r.stats), ilp: None })?)
}

/// Most states of the dense table under `limits` for values up to `horizon`: half of
/// the memory limit.
fn dense_table_states(limits: &SearchLimits, horizon: u64) -> u64 {
    dense::states_in(limits.budget.dense_table_memory(), horizon)
}

/// The dense programme with a table of at most half of `limits.max_memory` and three
/// quarters of its time limit (`max_states` does not apply: the table's size is its
/// memory), on both cores unless on a rayon worker (where the callers already run solves
/// in parallel): an exact outcome (re-checked witness, upper bound = its length), or
/// `None` when the instance does not fit or a limit stopped it.
fn solve_dense(inst: &Instance, limits: &SearchLimits) -> Result<Option<Outcome>, Error> {
    let budget = limits.budget.part(Part::Dense);
    let threads =
        if rayon::current_thread_index().is_some() { 1 } else { std::thread::available_parallelism().map_or(1, |n| n.get().min(2)) };
    let horizon = crate::model::bounds::safe_horizon(inst);
    let dense_limits = dense::Limits { table_states: dense_table_states(limits, horizon), solved_states: u64::MAX, budget, threads };
    let Ok(solved) = dense::longest(inst, horizon, dense_limits) else {
        return Ok(None);
    };
    let stats = SearchStats {
        expansions: solved.solved,
        stored_states: solved.solved as usize,
        initial_lower_bound: 0,
        beam_lower_bound: 0,
        dense_states: solved.solved,
    };
    let exact = SearchResult { upper_bound: solved.trace.cycles(), trace: solved.trace, stop: Stop::Completed, stats };
    outcome(inst, exact).map(Some)
}

/// The search proper, generic over the encoding of memo keys and the per-state bound.
///
/// The depth-first search recurses once per cycle, so it runs on a thread whose stack
/// fits the longest possible schedule (callers such as rayon workers have small stacks);
/// if the system cannot give that stack, the instance is [`TooLarge`] for the search.
pub fn search<E: Encoding, B: StateBound>(t: &Transitions, bound: &B, enc: E, limits: SearchLimits) -> Result<SearchResult, TooLarge> {
    let root_bound = bound.upper(&t.start());
    limits.budget.proved(root_bound);
    let too_large = |reason: String| TooLarge { field: "warps".into(), value: t.warps().to_string(), reason };
    if root_bound > MAX_VALUE {
        // The memo keeps values in 32 bits: a larger one would be cut and prune wrongly.
        return Err(too_large(format!(
            "the search keeps remaining times in 32 bits and the start-state bound is {root_bound} cycles (at most {MAX_VALUE}); the closed-form bounds still answer"
        )));
    }
    let stack = (root_bound as usize).saturating_mul(1024).clamp(8 << 20, 4 << 30);
    let with_beam = limits.beam && rayon::current_thread_index().is_none();
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("makespan-search".into())
            .stack_size(stack)
            .spawn_scoped(scope, || run(t, bound, enc, limits, root_bound, with_beam))
            .map_err(|e| {
                too_large(format!(
                    "the search needs a stack of {} MiB for schedules of up to {root_bound} cycles and the system refused it ({e})",
                    stack >> 20
                ))
            })?;
        Ok(handle.join().expect("the search thread does not panic"))
    })
}

/// Nanoseconds kept back per boxed memo key for freeing it when the search ends.
pub(crate) const FREE_NANOS_PER_KEY: u64 = 250;

/// The largest remaining time the memo can hold (`Entry` keeps values in 32 bits);
/// [`search`] refuses instances whose start-state bound is above it.
pub const MAX_VALUE: u64 = u32::MAX as u64;

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

struct Search<'a, E: Encoding, B> {
    t: &'a Transitions,
    bound: &'a B,
    enc: E,
    limits: SearchLimits,
    memo: FxHashMap<E::Key, u64>,
    best: u64,
    incumbent: Trace,
    /// States on the current path (`path[..depth]`), buffers reused.
    path: Vec<Counts>,
    expansions: u64,
    /// Successors generated since the clock was last read.
    work: usize,
    /// Heap bytes owned by the stored keys.
    key_bytes: usize,
    stop: Stop,
    scratch: Scratch,
    /// Per-depth buffers of (bound, successor index, successor), reused across expansions.
    orders: Vec<Vec<(u64, usize, Counts)>>,
    /// The beam thread's longest schedule (its length raises `best`).
    shared: &'a Shared,
}

/// What the beam thread shares with the depth-first search.
struct Shared {
    /// Length of the longest schedule found by the beams (0: none yet).
    best: AtomicU64,
    /// Its trace, stored before `best` is raised.
    trace: Mutex<Option<Trace>>,
    /// Set when the depth-first search has ended.
    done: AtomicBool,
}

/// The beam thread: a local search over static priorities for a quarter of the time
/// left (at most [`BEAM_THREAD_PRIORITY_ROLLOUTS`] rollouts without a time limit), then beams of
/// growing width until the search ends, a schedule reaches the start state's bound (none
/// can be longer), or the time is up.
fn beam_worker<B: StateBound>(t: &Transitions, bound: &B, root_bound: u64, shared: &Shared, budget: Budget) {
    let done = || shared.done.load(Ordering::Relaxed) || shared.best.load(Ordering::Acquire) >= root_bound;
    let stop = || done() || budget.is_over();
    let mut found = |trace: Trace| {
        let n = trace.cycles();
        let mut slot = shared.trace.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|b| b.cycles() < n) {
            *slot = Some(trace);
            shared.best.fetch_max(n, Ordering::Release);
        }
    };
    priority::search_share(t, 0x7072_696f, &budget, Part::BeamThreadRules, BEAM_THREAD_PRIORITY_ROLLOUTS, &done, &mut found);
    beam::beams(t, bound, &Tables::new_for(t), root_bound, 0x6265_616d, &stop, &mut found);
}

/// Most priority rollouts the beam thread runs when there is no time limit.
pub const BEAM_THREAD_PRIORITY_ROLLOUTS: u64 = 2000;

fn run<E: Encoding, B: StateBound>(
    t: &Transitions,
    bound: &B,
    enc: E,
    limits: SearchLimits,
    root_bound: u64,
    with_beam: bool,
) -> SearchResult {
    let seed = rollouts_until(t, bound, limits.rollouts, 0x6d61_6b65, &limits.budget.part(Part::Rollouts));
    limits.budget.found(seed.cycles());
    let shared = Shared { best: AtomicU64::new(0), trace: Mutex::new(None), done: AtomicBool::new(false) };
    let end = limits.budget.clone();
    if limits.beam && !with_beam && limits.budget.time_left().is_some() {
        // On a rayon worker both cores are taken: with a time limit the beams run first
        // on this thread for half of the time left; the branch and bound reads their
        // longest schedule's length with the clock, as it does the beam thread's.
        beam_worker(t, bound, root_bound, &shared, limits.budget.part(Part::InlineBeams));
    }
    let mut result = std::thread::scope(|scope| {
        if with_beam {
            let beam_thread = std::thread::Builder::new().name("makespan-beam".into());
            // Without the second thread the search still runs: it only loses the beams.
            let _ = beam_thread.spawn_scoped(scope, || beam_worker(t, bound, root_bound, &shared, end));
        }
        let r = dfs_run(t, bound, enc, limits, Begin { root_bound, seed }, &shared);
        shared.done.store(true, Ordering::Relaxed);
        r
    });
    let beam_trace = shared.trace.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(b) = beam_trace {
        result.stats.beam_lower_bound = b.cycles();
        if b.cycles() > result.trace.cycles() {
            result.trace = b;
        }
    }
    result
}

/// Where the depth-first search starts: the start state's bound and the first
/// incumbent.
struct Begin {
    root_bound: u64,
    seed: Trace,
}

/// The depth-first branch and bound from the start state.
fn dfs_run<E: Encoding, B: StateBound>(
    t: &Transitions,
    bound: &B,
    enc: E,
    limits: SearchLimits,
    begin: Begin,
    shared: &Shared,
) -> SearchResult {
    let Begin { root_bound, seed } = begin;
    let initial = seed.cycles();
    let mut search = Search {
        t,
        bound,
        enc,
        limits,
        memo: FxHashMap::default(),
        best: initial,
        incumbent: seed,
        path: Vec::new(),
        expansions: 0,
        work: 0,
        key_bytes: 0,
        stop: Stop::Completed,
        scratch: Scratch::default(),
        orders: Vec::new(),
        shared,
    };
    let (value, _) = search.dfs(&t.start(), 0, root_bound);
    let upper_bound = value.max(search.best);
    debug_assert!(search.stop != Stop::Completed || value == search.best);
    let result = SearchResult {
        upper_bound,
        stop: search.stop,
        stats: SearchStats {
            expansions: search.expansions,
            stored_states: search.memo.len(),
            initial_lower_bound: initial,
            beam_lower_bound: 0,
            dense_states: 0,
        },
        trace: std::mem::take(&mut search.incumbent),
    };
    // The memo is freed here, inside the solve (no thread outlives it); the time this
    // takes with boxed keys was kept back by `should_stop`.
    result
}

impl<E: Encoding, B: StateBound> Search<'_, E, B> {
    /// Returns `(v, exact)`: `T(s)` itself when `exact`, else a proven upper bound.
    /// `bound` is the per-state upper bound of `s`, computed by the caller.
    fn dfs(&mut self, s: &Counts, depth: u64, bound: u64) -> (u64, bool) {
        if s.is_finished() {
            if depth > self.best {
                self.best = depth;
                self.incumbent = Trace::from_states(&self.path[..depth as usize]);
                self.incumbent.push_step(&self.path[depth as usize - 1], s);
            }
            return (0, true);
        }
        if depth + bound <= self.best {
            // Nothing below `s` can beat the incumbent; the lookup would not change that.
            return (bound, false);
        }
        let key = self.enc.encode(s);
        let known = self.memo.get(&key).map(|&v| Entry::unpack(v));
        let ub = match known {
            Some(e) if e.exact => {
                self.offer(s, depth, e.value as u64);
                return (e.value as u64, true);
            }
            Some(e) => e.value as u64,
            None => bound,
        };
        if depth + ub <= self.best || self.should_stop(depth) {
            return (ub, false);
        }
        self.expand(s, key, depth, ub)
    }

    /// Expands `s`, whose remaining time is at most `ub`: returns `T(s)` when every child
    /// was solved exactly, else the smaller of `ub` and one more than the children's
    /// values (both proven upper bounds; the children's per-state bounds can exceed the
    /// parent's by more than the cycle between them).
    fn expand(&mut self, s: &Counts, key: E::Key, depth: u64, ub: u64) -> (u64, bool) {
        self.expansions += 1;
        let level = depth as usize;
        if self.orders.len() <= level {
            self.orders.resize_with(level + 1, Vec::new);
            self.path.resize_with(level + 1, Counts::default);
        }
        if self.t.choice_count(s) > MAX_EXPANDED_CHOICES {
            // Too many successors to hold: the state keeps its proven bound `ub`, and the
            // search can no longer be exact (stopped by memory).
            self.stop = Stop::MaxMemory;
            return (ub, false);
        }
        let mut order = std::mem::take(&mut self.orders[level]);
        let n = self.t.choices(s, &mut self.scratch);
        self.work += n;
        order.resize_with(n, || (0, 0, Counts::default()));
        for (j, entry) in order.iter_mut().enumerate() {
            self.t.successor(s, &mut self.scratch, j, &mut entry.2);
            entry.0 = self.bound.upper(&entry.2);
            entry.1 = j;
        }
        order.sort_unstable_by_key(|e| std::cmp::Reverse((e.0, e.1)));
        self.path[level].assign(s);
        let (mut best_v, mut best_j, mut all_exact) = (0u64, 0usize, true);
        for (bound, j, child) in &order {
            let (v, exact) = self.dfs(child, depth + 1, *bound);
            all_exact &= exact;
            if v > best_v || (v == best_v && exact) {
                best_v = v;
                best_j = *j;
            }
        }
        self.orders[level] = order;
        let value = if all_exact { 1 + best_v } else { (1 + best_v).min(ub) };
        let heap = self.enc.key_bytes(&key);
        if self.memo.insert(key, Entry { value: value as u32, exact: all_exact, best: best_j as u32 }.pack()).is_none() {
            self.key_bytes += heap;
        }
        (value, all_exact)
    }

    /// A state with exact value `v` was met after `depth` cycles: a schedule of
    /// `depth + v` cycles exists; keep it if it is the longest so far.
    fn offer(&mut self, s: &Counts, depth: u64, v: u64) {
        if depth + v <= self.best {
            return;
        }
        self.best = depth + v;
        let mut states: Vec<Counts> = self.path[..depth as usize].to_vec();
        let mut cur = s.clone();
        while !cur.is_finished() {
            let e = Entry::unpack(self.memo[&self.enc.encode(&cur)]);
            let mut next = Counts::default();
            self.t.choices(&cur, &mut self.scratch);
            self.t.successor(&cur, &mut self.scratch, e.best as usize, &mut next);
            states.push(std::mem::replace(&mut cur, next));
        }
        states.push(cur);
        self.incumbent = Trace::from_states(&states);
    }

    /// Bytes the memo table would need after `more` insertions (the states on the current
    /// path are all inserted as the search unwinds, even after a stop), counting the old
    /// table while a resize copies it.
    fn memory_after(&self, more: usize) -> usize {
        let capacity = self.memo.capacity();
        let table = table_bytes::<E::Key>(capacity);
        let peak = if self.memo.len() + more <= capacity { table } else { table + table_bytes::<E::Key>(capacity.max(4) * 2) };
        peak.saturating_add(self.key_bytes).saturating_add(self.key_bytes / 8)
    }

    /// The time freeing the memo will take when the search ends: 80 to 260 ns per boxed
    /// key measured here (5.5 M keys in 0.46 s, 4.5 M in 1.2 s), kept back as 250 ns;
    /// nothing for packed keys.
    fn freeing_time(&self) -> Duration {
        if self.key_bytes == 0 {
            return Duration::ZERO;
        }
        Duration::from_nanos(self.memo.len() as u64 * FREE_NANOS_PER_KEY)
    }

    fn should_stop(&mut self, depth: u64) -> bool {
        if self.stop != Stop::Completed {
            return true;
        }
        if self.memo.len() >= self.limits.max_states {
            self.stop = Stop::MaxStates;
        } else if self.memory_after(depth as usize + 1) > self.limits.budget.max_memory() {
            self.stop = Stop::MaxMemory;
        } else if self.work >= 4096 {
            // The clock is read every few thousand successors, however large each
            // expansion is.
            self.work = 0;
            // A longer schedule found by the beam thread prunes like one found here.
            self.best = self.best.max(self.shared.best.load(Ordering::Acquire));
            self.limits.budget.found(self.best);
            if self.limits.budget.interrupted() {
                self.stop = Stop::Interrupted;
            } else if self.limits.budget.time_left().is_some_and(|left| left <= self.freeing_time()) {
                self.stop = Stop::TimeLimit;
            }
        }
        self.stop != Stop::Completed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::sparse::Sparse;
    use crate::state_bounds::standard;

    /// A bound that claims `self.0` cycles from every state: stands for an instance whose
    /// start-state bound is at the memo's edge, without building one.
    struct Claim(u64);
    impl StateBound for Claim {
        fn upper(&self, s: &Counts) -> u64 {
            if s.warps() == 0 {
                0
            } else {
                self.0
            }
        }
    }

    #[test]
    fn values_above_32_bits_are_refused_not_cut() {
        let inst = Instance::new("LC", 2, 1, 1).unwrap();
        let t = Transitions::new(&inst);
        let limits = SearchLimits { beam: false, max_states: 10, ..SearchLimits::default() };
        let refused = search(&t, &Claim(MAX_VALUE + 1), Sparse, limits).map(|r| r.upper_bound).expect_err("refused");
        assert_eq!(refused.field, "warps");
        assert!(refused.reason.contains("32 bits"), "{}", refused.reason);
        // At the edge itself the search runs, and the value it proves is the true one.
        let at_edge = search(&t, &Claim(MAX_VALUE), Sparse, SearchLimits { beam: false, ..SearchLimits::default() }).unwrap();
        assert_eq!((at_edge.trace.cycles(), at_edge.upper_bound), (3, 3));
    }

    fn exact(k: &str, w: i64, sl: i64, sc: i64) -> u64 {
        let inst = Instance::new(k, w, sl, sc).unwrap();
        let out = solve(&inst, SearchLimits::default()).unwrap();
        assert!(out.exact());
        assert_eq!(out.stop(), Stop::Completed);
        out.lower_bound()
    }

    #[test]
    fn known_values() {
        assert_eq!(exact("LLC", 4, 1, 1), 9);
        assert_eq!(exact("LCL", 4, 1, 1), 9);
        assert_eq!(exact("LCL", 2, 1, 1), 4);
        assert_eq!(exact("LLCLLL", 4, 2, 2), 13);
    }

    #[test]
    fn sparse_encoding_gives_the_same_values() {
        for (k, w, sl, sc) in [("LLC", 4, 1, 1), ("LLCLLL", 4, 2, 2), ("LLCCLLCC", 6, 1, 1)] {
            let inst = Instance::new(k, w, sl, sc).unwrap();
            let t = Transitions::new(&inst);
            let r = search(&t, &standard(&inst), Sparse, SearchLimits::default()).unwrap();
            assert_eq!(r.stop, Stop::Completed);
            assert_eq!(r.trace.cycles(), exact(k, w, sl, sc), "{k} W={w}");
        }
    }

    #[test]
    fn stops_with_bounds() {
        // CC and LL pairs with sigma 2/2: no bound for a sigma of 1 applies, the search
        // must expand (with sigma 1/1 the last-warp bound is exact at the start).
        let inst = Instance::new("LLCCLLCC", 24, 2, 2).unwrap();
        // (The limit on stored states is the branch and bound's: the dense table would
        // solve this instance.)
        let out = solve(&inst, SearchLimits { max_states: 10, dense: false, ..SearchLimits::default() }).unwrap();
        assert_eq!(out.stop(), Stop::MaxStates);
        assert!(out.lower_bound() <= out.upper_bound());
        assert!(out.upper_bound() <= crate::model::bounds::safe_horizon(&inst));
    }

    #[test]
    fn any_size_is_searched_within_the_memory_limit() {
        // 24 instructions at W = 64 do not fit 128 bits: the sparse encoding holds them.
        let inst = Instance::new(&"LC".repeat(12), 64, 1, 1).unwrap();
        let out = solve(&inst, SearchLimits { budget: Budget::new(None, 1 << 20), ..SearchLimits::default() }).unwrap();
        assert!(out.lower_bound() <= out.upper_bound());
        assert!(out.exact() || out.stop() == Stop::MaxMemory, "{:?}", out.stop());
    }
}
