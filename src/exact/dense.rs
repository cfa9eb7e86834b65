//! The dense dynamic programme: `T^(W)` exactly, by the longest-path recursion over
//! the warp-count states with every state's value in one array indexed by its rank.
//!
//! The simple exact method beside the branch and bound of [`crate::exact::search`]: no
//! per-state bound, no pruning, no hash table. A state is a multiset of `W` positions
//! in `0..=I` (finished warps at `I`), so there are `C(I + W, W)` of them, and the
//! combinatorial number system ranks them densely: sort the positions
//! `p_0 <= ... <= p_{W-1}`, then `rank = sum_k C(p_k + k, k + 1)` is a bijection onto
//! `0..C(I + W, W)`. One cell per state holds `T(s) + 1` once `s` is solved (0: not
//! yet): a byte where the horizon (a proven upper bound on every `T(s)`) is below 255,
//! else a `u16`. The whole table is allocated and zeroed at the start, so its memory is
//! `C(I + W, W)` or `2 C(I + W, W)` bytes however few states are reached
//! ([`bytes_per_state`]).
//!
//! Where it fits (few warps, long kernels: `C(I + W, W)` in the hundreds of millions)
//! it is much faster than the branch and bound, whose per-state bounds are loose there
//! and which re-expands states whose stored bound no longer suffices; `tx2-0064`'s
//! kernel at `W = 6` (131 M ranks, 26 M reached) is exact in seconds where the branch
//! and bound ends its time limit with a 19 % interval.
//!
//! Guarantee: when [`longest`] returns a trace, it is a longest path through the
//! transition system (every successor of every state on it was solved), so its length is
//! `T^(W)`; the caller re-checks it as a schedule.

use crate::budget::Budget;
use crate::model::instance::Instance;
use crate::state::trace::Trace;
use crate::state::transitions::{Scratch, Transitions};
use crate::state::Counts;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU8, Ordering};

/// Bytes per state of the table for values up to `horizon`: 1 below 255 (a state's
/// value `T(s) + 1` then fits a byte), else 2.
pub fn bytes_per_state(horizon: u64) -> usize {
    if horizon < u8::MAX as u64 {
        1
    } else {
        2
    }
}

/// One cell of the table: a state's `T(s) + 1`, 0 while unsolved, in 8 or 16 bits.
trait Cell: Sync {
    fn zero() -> Self;
    fn get(&self) -> u16;
    fn set(&self, v: u16);
}

impl Cell for AtomicU8 {
    fn zero() -> Self {
        AtomicU8::new(0)
    }
    fn get(&self) -> u16 {
        self.load(Ordering::Relaxed) as u16
    }
    fn set(&self, v: u16) {
        // Byte cells are used only below a horizon of 255, which bounds every value.
        self.store(u8::try_from(v).expect("the safe horizon bounds every value"), Ordering::Relaxed)
    }
}

impl Cell for AtomicU16 {
    fn zero() -> Self {
        AtomicU16::new(0)
    }
    fn get(&self) -> u16 {
        self.load(Ordering::Relaxed)
    }
    fn set(&self, v: u16) {
        self.store(v, Ordering::Relaxed)
    }
}

/// The dense ranking of the states of one instance.
#[derive(Debug, Clone)]
pub struct Ranking {
    len: u32,
    warps: usize,
    /// `binom[n * (W + 1) + k] = C(n, k)` for `n <= I + W`, `k <= W` (saturating).
    binom: Vec<u64>,
}

impl Ranking {
    /// The ranking of `inst`'s states, if their number `C(I + W, W)` fits in `max_states`.
    pub fn for_instance(inst: &Instance, max_states: u64) -> Option<Ranking> {
        let (len, warps) = (inst.len() as u64, inst.warps as u64);
        if states(len, warps)? > max_states {
            return None;
        }
        let (n_max, w) = ((len + warps) as usize, warps as usize);
        let mut binom = vec![0u64; (n_max + 1) * (w + 1)];
        for n in 0..=n_max {
            binom[n * (w + 1)] = 1;
            for k in 1..=w.min(n) {
                binom[n * (w + 1) + k] = binom[(n - 1) * (w + 1) + k - 1].saturating_add(binom[(n - 1) * (w + 1) + k]);
            }
        }
        Some(Ranking { len: len as u32, warps: w, binom })
    }

    /// Number of states, `C(I + W, W)`.
    pub fn states(&self) -> u64 {
        self.c(self.len as usize + self.warps, self.warps)
    }

    fn c(&self, n: usize, k: usize) -> u64 {
        self.binom[n * (self.warps + 1) + k]
    }

    /// The rank of `s`, in `0..states()`: distinct states have distinct ranks.
    pub fn rank(&self, s: &Counts) -> usize {
        let mut r = 0;
        let mut k = 0;
        for &(p, n) in s.slots() {
            for _ in 0..n {
                r += self.c(p as usize + k, k + 1);
                k += 1;
            }
        }
        for k in k..self.warps {
            r += self.c(self.len as usize + k, k + 1);
        }
        r as usize
    }
}

pub use crate::state::states;

/// Whether [`longest`] can hold `inst`'s table: at most `table_states` states
/// (`C(I + W, W)`) and a `horizon` (a proven upper bound on `T^(W)`) below `u16::MAX`.
pub fn fits(inst: &Instance, horizon: u64, table_states: u64) -> bool {
    horizon < u16::MAX as u64 && states(inst.len() as u64, inst.warps as u64).is_some_and(|n| n <= table_states)
}

/// Most states a table of `bytes` can hold for values up to `horizon`.
pub fn states_in(bytes: usize, horizon: u64) -> u64 {
    (bytes / bytes_per_state(horizon)) as u64
}

/// Limits of one run of [`longest`].
#[derive(Debug, Clone)]
pub struct Limits {
    /// Most states the table may have (`C(I + W, W)`, [`bytes_per_state`] each).
    pub table_states: u64,
    /// Most states one thread may solve (of those reached from the start).
    pub solved_states: u64,
    /// When to give up (time, or the stop flag; its memory is not used: the table's size
    /// is `table_states`).
    pub budget: Budget,
    /// Threads that run the programme on the one table (at least 1).
    pub threads: usize,
}

impl Limits {
    /// No limit but the table's size.
    pub fn table(table_states: u64) -> Limits {
        Limits { table_states, solved_states: u64::MAX, budget: Budget::default(), threads: 1 }
    }
}

/// Why [`longest`] gave up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsolved {
    /// The instance has more states than the limit, a makespan that may not fit the
    /// table's `u16` values, or the system refused the table's memory.
    TooLarge,
    /// The deadline passed.
    TimeLimit,
    /// More states were reached than the limit on solved states.
    MaxStates,
}

/// What [`longest`] found.
#[derive(Debug, Clone)]
pub struct Solved {
    /// A longest path: its length is `T^(W)`.
    pub trace: Trace,
    /// States solved (reached from the start).
    pub solved: u64,
}

/// One frame of the explicit depth-first stack: a state whose successors are being
/// solved.
#[derive(Default)]
struct Frame {
    state: Counts,
    rank: usize,
    choices: usize,
    next: usize,
    best: u16,
    scratch: Scratch,
    /// Rank increments of the L move sets (choice `j` moves L set `j / nc`).
    inc_l: Vec<usize>,
    /// Rank increments of the C move sets (choice `j` moves C set `j % nc`).
    inc_c: Vec<usize>,
}

impl Frame {
    /// The rank of successor `j`: the parent's plus the increments of its L and C moves
    /// (they are at distinct positions, so their increments add, see [`Increments`]).
    fn rank_of(&self, j: usize) -> usize {
        let nc = self.inc_c.len();
        self.rank + self.inc_l[j / nc] + self.inc_c[j % nc]
    }
}

/// `T^(W)` of `inst` and a longest path, by the dense programme, within `limits`.
/// `horizon` is a proven upper bound on `T^(W)` (the safe horizon): at `u16::MAX` or
/// above the table cannot hold the values and the instance is [`Unsolved::TooLarge`].
pub fn longest(inst: &Instance, horizon: u64, limits: Limits) -> Result<Solved, Unsolved> {
    if !fits(inst, horizon, limits.table_states) {
        return Err(Unsolved::TooLarge);
    }
    let ranking = Ranking::for_instance(inst, limits.table_states).ok_or(Unsolved::TooLarge)?;
    let t = Transitions::new(inst);
    if bytes_per_state(horizon) == 1 {
        solve_in::<AtomicU8>(&t, &ranking, &limits)
    } else {
        solve_in::<AtomicU16>(&t, &ranking, &limits)
    }
}

/// [`longest`] with a table of cells `C`, which hold every value up to the horizon.
fn solve_in<C: Cell>(t: &Transitions, ranking: &Ranking, limits: &Limits) -> Result<Solved, Unsolved> {
    // The table is reserved first, so that a system that cannot give it ends the run
    // as too large rather than aborting the process.
    let mut table: Vec<C> = Vec::new();
    table.try_reserve_exact(ranking.states() as usize).map_err(|_| Unsolved::TooLarge)?;
    table.extend((0..ranking.states()).map(|_| C::zero()));
    let solved = solve_from(t, ranking, &table, limits)?;
    Ok(Solved { trace: path(t, ranking, &table), solved })
}

/// Fills `table` for every state reachable from the start with `limits.threads`
/// threads; returns how many states it holds.
///
/// Every thread runs the whole depth-first programme from the start, in its own order of
/// the choices (the first thread in choice order, the others alternately reversed and
/// in order), and reads and writes the one table: a value is stored only once all
/// successors' values are known, so every value any thread reads is exact, and a state
/// two threads solve at once gets the same value twice. The first thread to solve the
/// start stops the others.
fn solve_from<C: Cell>(t: &Transitions, ranking: &Ranking, table: &[C], limits: &Limits) -> Result<u64, Unsolved> {
    let stop = AtomicBool::new(false);
    let results: Vec<Result<(), Unsolved>> = std::thread::scope(|scope| {
        let run = |reverse: bool| {
            let r = walk(t, ranking, table, limits, reverse, &stop);
            stop.store(true, Ordering::Relaxed);
            r
        };
        let helpers: Vec<_> = (1..limits.threads.max(1)).map(|i| scope.spawn(move || run(i % 2 == 1))).collect();
        let mut results = vec![run(false)];
        results.extend(helpers.into_iter().map(|h| h.join().expect("a dense worker does not panic")));
        results
    });
    if table[ranking.rank(&t.start())].get() == 0 {
        return Err(results.into_iter().find_map(Result::err).unwrap_or(Unsolved::TimeLimit));
    }
    Ok(table.iter().filter(|v| v.get() != 0).count() as u64)
}

/// One thread's depth-first programme from the start (choices in reverse order if
/// `reverse`), until the start is solved or `stop` is set (both `Ok`), or a limit.
fn walk<C: Cell>(
    t: &Transitions,
    ranking: &Ranking,
    table: &[C],
    limits: &Limits,
    reverse: bool,
    stop: &AtomicBool,
) -> Result<(), Unsolved> {
    let mut frames: Vec<Frame> = Vec::new();
    let mut depth = 0;
    let mut solved = 0u64;
    let mut child = Counts::default();
    let mut incs = Increments::default();
    let finished = ranking.states() as usize - 1;
    let start = t.start();
    push(t, ranking, &mut incs, &mut frames, depth, &start, ranking.rank(&start));
    for step in 0u64.. {
        if step % (1 << 14) == 0 {
            if stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            if limits.budget.is_over() {
                return Err(Unsolved::TimeLimit);
            }
        }
        // The solved successors in one tight loop (their table reads overlap), up to the
        // first unsolved one, which is solved first.
        let f = &mut frames[depth];
        let mut unsolved = None;
        while f.next < f.choices {
            let j = if reverse { f.choices - 1 - f.next } else { f.next };
            f.next += 1;
            let rank = f.rank_of(j);
            // The finished state has the last rank and the value 0 (stored as 1).
            let known = if rank == finished { 1 } else { table[rank].get() };
            if known == 0 {
                unsolved = Some((j, rank));
                break;
            }
            f.best = f.best.max(known);
        }
        if let Some((j, rank)) = unsolved {
            let moves = t.moves_of(&mut f.scratch, j);
            t.apply(&f.state, moves, &mut child);
            depth += 1;
            push(t, ranking, &mut incs, &mut frames, depth, &child, rank);
            continue;
        }
        // All successors solved: T(s) = 1 + max T(s'), stored as T(s) + 1.
        let value = f.best + 1;
        if solved == limits.solved_states {
            return Err(Unsolved::MaxStates);
        }
        table[f.rank].set(value);
        solved += 1;
        if depth == 0 {
            break;
        }
        depth -= 1;
        frames[depth].best = frames[depth].best.max(value);
    }
    Ok(())
}

/// The rank increments of one state's moves. A move takes the top `k` warps of the group
/// at `p` (in sorted order, indices `top - k..top`) to `p + 1`: the sequence stays
/// sorted, and the term of each moved index `i` rises from `C(p + i, i + 1)` to
/// `C(p + 1 + i, i + 1)`, by `C(p + i, i)`. So moving them adds `cum[offset[p] + k]`, the
/// sum of those `k` terms, and a move set's increment (moves at distinct positions) is one
/// lookup per moved group.
#[derive(Default)]
struct Increments {
    /// `offset[p]`: where the group at `p` starts in `cum` (meaningful at occupied `p`).
    offset: Vec<u32>,
    /// `cum[offset[p] + k]`: the sum of `C(p + i, i)` over the top `k` indices `i` of the
    /// group at `p` in sorted order.
    cum: Vec<u64>,
}

impl Increments {
    /// Fills the tables for `s`.
    fn fill(&mut self, ranking: &Ranking, s: &Counts) {
        self.offset.resize(ranking.len as usize + 1, 0);
        self.cum.clear();
        let mut first = 0;
        for &(p, n) in s.slots() {
            self.offset[p as usize] = self.cum.len() as u32;
            let top = first + n as usize;
            let mut sum = 0;
            self.cum.push(0);
            for i in (first..top).rev() {
                sum += ranking.c(p as usize + i, i);
                self.cum.push(sum);
            }
            first = top;
        }
    }

    /// The rank increment of `moves` (of the state last filled).
    fn of(&self, moves: &[(u32, u32)]) -> usize {
        let sum: u64 = moves.iter().map(|&(p, k)| self.cum[self.offset[p as usize] as usize + k as usize]).sum();
        sum as usize
    }
}

/// Makes `frames[depth]` the frame of the unsolved state `s` of rank `rank`.
fn push(t: &Transitions, ranking: &Ranking, incs: &mut Increments, frames: &mut Vec<Frame>, depth: usize, s: &Counts, rank: usize) {
    if frames.len() <= depth {
        frames.push(Frame::default());
    }
    let f = &mut frames[depth];
    f.state.assign(s);
    f.rank = rank;
    f.choices = t.choices(s, &mut f.scratch);
    f.next = 0;
    f.best = 0;
    incs.fill(ranking, s);
    let (sets_l, sets_c) = (&f.scratch.l, &f.scratch.c);
    f.inc_l.clear();
    f.inc_l.extend((0..sets_l.len()).map(|a| incs.of(sets_l.get(a))));
    f.inc_c.clear();
    f.inc_c.extend((0..sets_c.len()).map(|b| incs.of(sets_c.get(b))));
}

/// The path that follows, from the start, a successor of largest value at every step
/// (all of them are in `table` once the start is solved).
fn path<C: Cell>(t: &Transitions, ranking: &Ranking, table: &[C]) -> Trace {
    let value = |s: &Counts| {
        if s.is_finished() {
            0
        } else {
            table[ranking.rank(s)].get() - 1
        }
    };
    let mut trace = Trace::default();
    let mut scratch = Scratch::default();
    let (mut s, mut next) = (t.start(), Counts::default());
    while !s.is_finished() {
        let target = value(&s) - 1;
        let n = t.choices(&s, &mut scratch);
        let j = (0..n)
            .find(|&j| {
                t.successor(&s, &mut scratch, j, &mut next);
                value(&next) == target
            })
            .expect("a solved state has a successor one cycle shorter");
        trace.push_cycle(t.moves_of(&mut scratch, j));
        t.successor(&s, &mut scratch, j, &mut next);
        std::mem::swap(&mut s, &mut next);
    }
    trace
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(k: &str, w: i64, l: i64, c: i64) -> Instance {
        Instance::new(k, w, l, c).unwrap()
    }

    #[test]
    fn ranks_are_a_bijection_onto_the_states() {
        let i = inst("LCCL", 3, 1, 1);
        let r = Ranking::for_instance(&i, u64::MAX).unwrap();
        assert_eq!(r.states(), 35); // C(7, 3)
        let mut seen = [false; 35];
        for a in 0..=4u32 {
            for b in a..=4 {
                for c in b..=4 {
                    let mut pairs = std::collections::BTreeMap::new();
                    for p in [a, b, c].into_iter().filter(|&p| p < 4) {
                        *pairs.entry(p).or_insert(0) += 1;
                    }
                    let rank = r.rank(&Counts::from_pairs(pairs));
                    assert!(!seen[rank], "rank {rank} twice");
                    seen[rank] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn increments_give_every_successors_rank() {
        let i = inst("LCCLCCCL", 5, 1, 2);
        let (r, t) = (Ranking::for_instance(&i, u64::MAX).unwrap(), Transitions::new(&i));
        let (mut incs, mut scratch, mut next) = (Increments::default(), Scratch::default(), Counts::default());
        let (mut todo, mut seen) = (vec![t.start()], std::collections::HashSet::new());
        while let Some(s) = todo.pop() {
            incs.fill(&r, &s);
            for j in 0..t.choices(&s, &mut scratch) {
                let rank = r.rank(&s) + incs.of(t.moves_of(&mut scratch, j));
                t.successor(&s, &mut scratch, j, &mut next);
                assert_eq!(rank, r.rank(&next));
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        assert!(seen.len() > 100);
    }

    #[test]
    fn state_counts() {
        assert_eq!(states(64, 6), Some(131_115_985));
        assert_eq!(states(3, 4), Some(35));
        assert_eq!(states(1, 1), Some(2));
        assert_eq!(states(10_000, 64), None);
    }

    #[test]
    fn the_papers_figure_2() {
        let s = longest(&inst("LLC", 4, 1, 1), 12, Limits::table(1000)).unwrap();
        assert_eq!(s.trace.cycles(), 9);
        assert_eq!(s.solved, 21);
        let few = Limits { solved_states: 20, ..Limits::table(1000) };
        assert_eq!(longest(&inst("LLC", 4, 1, 1), 12, few).unwrap_err(), Unsolved::MaxStates);
    }

    #[test]
    fn byte_and_two_byte_tables_agree() {
        // Horizon 254: values up to 255 in bytes; 255: two bytes per state.
        assert_eq!((bytes_per_state(254), bytes_per_state(255)), (1, 2));
        for (k, w, c) in [("LCCLCCCL", 5, 2), ("CCLCCCLLC", 4, 4), ("LLC", 4, 1)] {
            let byte = longest(&inst(k, w, 1, c), 254, Limits::table(1 << 20)).unwrap();
            let wide = longest(&inst(k, w, 1, c), 255, Limits::table(1 << 20)).unwrap();
            assert_eq!((byte.trace.cycles(), byte.solved), (wide.trace.cycles(), wide.solved), "{k}");
        }
    }

    #[test]
    fn refuses_what_does_not_fit() {
        assert_eq!(longest(&inst("LLC", 4, 1, 1), 12, Limits::table(34)).unwrap_err(), Unsolved::TooLarge);
        assert_eq!(longest(&inst("LLC", 4, 1, 1), 70_000, Limits::table(1000)).unwrap_err(), Unsolved::TooLarge);
    }

    #[test]
    fn a_past_deadline_stops_it() {
        let past = Limits { budget: Budget::new(Some(std::time::Duration::ZERO), 1 << 20), ..Limits::table(1000) };
        assert_eq!(longest(&inst("LLC", 4, 1, 1), 12, past).unwrap_err(), Unsolved::TimeLimit);
    }
}
