//! Several blocks with barriers on one SM ([`crate::model::blocks`]): the exact worst
//! case by an exhaustive longest-path search over block states, with identical blocks
//! merged (a state is the multiset of the blocks' states: each block's phase and the
//! count of its warps at each position of that phase, the last position meaning "at
//! the barrier"). When the search stops early, the proven interval is the longest
//! checked schedule found (greedy, hill-climbed over static priorities, random) and the
//! smaller of the block horizon and the idle bound ([`crate::exact::idle_bound`], at
//! latency 1). Every schedule returned has passed [`check_blocks`] and its makespan is
//! the reported lower bound.

use crate::budget::Budget;
use crate::error::{Error, Inconsistency, TooLarge};
use crate::exact::outcome::Stop;
use crate::exact::solve::{SolveOptions, Status};
use crate::model::blocks::Blocks;
use crate::model::checker::check_blocks_per_issue;
use crate::model::latency::Latencies;
use crate::model::simulate::latency_horizon;
use crate::model::interval::Interval;
use crate::model::kernel::Unit;
use crate::model::schedule::Schedule;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// The result of [`solve_blocks`]: a proven interval and a checked schedule.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BlockSolution {
    /// The proven interval: its lower end is the checked schedule's makespan, its upper
    /// end the search's value (exact when it completed) or the smaller of the block
    /// horizon and the idle bound ([`upper_from`](Self::upper_from)).
    pub interval: Interval,
    /// What proved the upper end: `"search"` (the completed search), `"block_horizon"`
    /// ([`Blocks::horizon`]), `"latency_horizon"` (with latencies other than 1) or
    /// `"idle_bound"` (an integer programme on the L unit's idle cycles, proven in
    /// `docs/idle-bound.md`).
    pub upper_from: &'static str,
    /// `optimal` when lower = upper, else why the search stopped.
    pub status: Status,
    /// The schedule, checked by `check_blocks` (rows: warp `w` of block `w / W`).
    pub schedule: Schedule,
    /// The latency of every issue of the schedule (`latencies[w][i]`: warp `w`'s
    /// instruction `i`; all 1 in the paper's model).
    pub latencies: Vec<Vec<u32>>,
    /// Distinct states stored by the search.
    pub states: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl BlockSolution {
    /// lower = upper.
    pub fn exact(&self) -> bool {
        self.interval.exact()
    }
}

/// [`BlockSolution::upper_from`] when the search completed.
pub(crate) const UPPER_FROM_SEARCH: &str = "search";
/// [`BlockSolution::upper_from`]: the block horizon.
pub(crate) const UPPER_FROM_HORIZON: &str = "block_horizon";
/// [`BlockSolution::upper_from`]: the latency horizon (with latencies other than 1).
pub(crate) const UPPER_FROM_LATENCY: &str = "latency_horizon";
/// [`BlockSolution::upper_from`]: the idle bound ([`crate::exact::idle_bound`]).
pub(crate) const UPPER_FROM_IDLE: &str = "idle_bound";

/// One block's state: `[phase, count at position 0, ..., count at the barrier]`.
type Block = Vec<u16>;
/// Moves of one cycle: (block, position, warps advanced, waiting stages skipped). A warp
/// issuing an instruction whose latency may be shorter than its longest skips that many
/// waiting stages (latency = longest - skipped); every other move skips none.
type Moves = Vec<(usize, usize, u16, u16)>;

/// The stages of a phase: an instruction to issue on a unit (`Some`), or a cycle of
/// waiting for the previous instruction's result (`None`: every warp there moves on in
/// the next cycle, whatever the scheduler does). With latency 1 there are no waits and
/// the state space is the paper's.
type Stage = Option<Unit>;

struct Space<'a> {
    blocks: &'a Blocks,
    phases: Vec<Vec<Stage>>,
    /// Per phase and stage: how many waiting stages a warp issuing there may skip (its
    /// longest latency minus its shortest; 0 for fixed latencies and waiting stages).
    skips: Vec<Vec<u16>>,
    w: u16,
}

impl<'a> Space<'a> {
    fn new(blocks: &'a Blocks) -> Space<'a> {
        Space::with_latencies(blocks, &vec![(1, 1); blocks.len()])
    }

    /// The space with instruction `i`'s latency in `latencies[i] = (min, max)` (all phases
    /// in order): `max - 1` waiting stages after it, of which an issue may skip up to
    /// `max - min`.
    fn with_latencies(blocks: &'a Blocks, latencies: &[(u32, u32)]) -> Space<'a> {
        let mut lat = latencies.iter();
        let (mut phases, mut skips) = (Vec::new(), Vec::new());
        for p in &blocks.program.phases {
            let (mut stages, mut skip) = (Vec::new(), Vec::new());
            for &u in p.kernel.units() {
                let &(lo, hi) = lat.next().unwrap_or(&(1, 1));
                stages.push(Some(u));
                skip.push((hi - lo) as u16);
                stages.extend(std::iter::repeat_n(None, hi as usize - 1));
                skip.extend(std::iter::repeat_n(0, hi as usize - 1));
            }
            phases.push(stages);
            skips.push(skip);
        }
        Space { blocks, phases, skips, w: u16::try_from(blocks.warps_per_block()).unwrap_or(u16::MAX) }
    }

    /// `moves` (the scheduler's choice) with every warp at a waiting stage moving on.
    fn with_waits(&self, state: &[Block], moves: &Moves) -> Moves {
        let mut all = moves.clone();
        for (bi, b) in state.iter().enumerate() {
            let stages = &self.phases[b[0] as usize];
            all.extend(stages.iter().enumerate().filter(|&(p, st)| st.is_none() && b[1 + p] > 0).map(|(p, _)| (bi, p, b[1 + p], 0)));
        }
        all
    }

    fn start(&self) -> Vec<Block> {
        vec![self.fresh(0); self.blocks.blocks as usize]
    }

    fn fresh(&self, phase: usize) -> Block {
        let mut b = vec![0u16; self.phases[phase].len() + 2];
        (b[0], b[1]) = (phase as u16, self.w);
        b
    }

    fn done(&self, b: &Block) -> bool {
        b[0] as usize + 1 == self.phases.len() && *b.last().expect("non-empty") == self.w
    }

    /// The index of each phase's first stage, all phases in order.
    fn offsets(&self) -> Vec<usize> {
        self.phases.iter().scan(0, |at, p| Some(*at).inspect(|_| *at += p.len())).collect()
    }

    /// `before[y][k][p]`: the stages of phase `k` from position `p` before its next
    /// instruction of unit `y` (L = 0, C = 1), or to the phase's end.
    fn stages_before(&self) -> [Vec<Vec<u16>>; 2] {
        let per = |y: Unit| {
            self.phases
                .iter()
                .map(|stages| {
                    let mut out = vec![0u16; stages.len() + 1];
                    for p in (0..stages.len()).rev() {
                        out[p] = if stages[p] == Some(y) { 0 } else { out[p + 1].saturating_add(1) };
                    }
                    out
                })
                .collect()
        };
        [per(Unit::L), per(Unit::C)]
    }

    /// The ready warps of `state` per unit (L, then C): `(block, position, count)`.
    fn classes(&self, state: &[Block]) -> [Vec<(usize, usize, u16)>; 2] {
        let mut classes = [Vec::new(), Vec::new()];
        for (bi, b) in state.iter().enumerate() {
            let stages = &self.phases[b[0] as usize];
            for (p, &st) in stages.iter().enumerate() {
                if let (Some(u), true) = (st, b[1 + p] > 0) {
                    classes[(u == Unit::C) as usize].push((bi, p, b[1 + p]));
                }
            }
        }
        classes
    }

    /// How many successors [`Space::successors`] lists for `state` (saturating; as a
    /// float, since it can exceed any integer type): the ways to take `min(sigma, ready)`
    /// warps of each unit from its classes, L ways times C ways. Computed without listing
    /// them, so that a state whose list would not fit the memory stops the search first.
    fn successor_count(&self, state: &[Block]) -> f64 {
        let classes = self.classes(state);
        let ways = |x: usize, sigma: u64| {
            let ready: u64 = classes[x].iter().map(|c| c.2 as u64).sum();
            let n = ready.min(sigma) as usize;
            // ways[k]: the ways to take k warps from the classes seen so far.
            let mut ways = vec![0f64; n + 1];
            ways[0] = 1.0;
            for &(_, _, c) in &classes[x] {
                let mut next = vec![0f64; n + 1];
                let mut window = 0f64;
                for k in 0..=n {
                    window += ways[k];
                    if k > c as usize {
                        window -= ways[k - c as usize - 1];
                    }
                    next[k] = window;
                }
                ways = next;
            }
            ways[n]
        };
        // Landing choices: at most C(n + k, k) ways to split the n <= min(c, sigma_X)
        // warps a class issues over its k + 1 latencies (an over-count: a class may issue
        // fewer).
        let sigma = [self.blocks.sigma(Unit::L), self.blocks.sigma(Unit::C)];
        let landing: f64 = classes
            .iter()
            .enumerate()
            .flat_map(|(x, list)| list.iter().map(move |&(bi, p, c)| (bi, p, (c as u64).min(sigma[x]))))
            .map(|(bi, p, n)| (self.skips[state[bi][0] as usize][p], n))
            .filter(|&(k, _)| k > 0)
            .map(|(k, n)| (1..=n).map(|j| (k as u64 + j) as f64 / j as f64).product::<f64>())
            .product();
        ways(0, self.blocks.sigma(Unit::L)) * ways(1, self.blocks.sigma(Unit::C)) * landing
    }

    /// The most entries a successor of `state` has in a flat list ([`Frame`]): each block
    /// at its current phase's length or the next one's, whichever is longer.
    fn flat_len(&self, state: &[Block]) -> usize {
        let len = |phase: usize| self.phases.get(phase).map_or(0, |p| p.len() + 2);
        state.iter().map(|b| len(b[0] as usize).max(len(b[0] as usize + 1))).sum()
    }

    /// The blocks of a state stored flat (each block's length follows from its phase).
    fn unflatten(&self, mut flat: &[u16]) -> Vec<Block> {
        let mut state = Vec::new();
        while let Some(&phase) = flat.first() {
            let (block, rest) = flat.split_at(self.phases[phase as usize].len() + 2);
            state.push(block.to_vec());
            flat = rest;
        }
        state
    }

    /// Every successor of `state` (one cycle of a work-conserving schedule), with its moves.
    fn successors(&self, state: &[Block]) -> Vec<(Moves, Vec<Block>)> {
        let mut out = Vec::new();
        self.each_successor(state, |m, next| {
            out.push((m, next));
            true
        });
        out
    }

    /// [`Space::successors`], each passed to `each` as it is made, until `each` returns
    /// false; whether every successor was passed.
    fn each_successor(&self, state: &[Block], mut each: impl FnMut(Moves, Vec<Block>) -> bool) -> bool {
        let classes = self.classes(state);
        let take = |x: usize, sigma: u64| {
            let ready: u64 = classes[x].iter().map(|c| c.2 as u64).sum();
            let mut out = Vec::new();
            spread(&classes[x], ready.min(sigma) as u16, &mut Vec::new(), &mut out);
            out
        };
        let (ls, cs) = (take(0, self.blocks.sigma(Unit::L)), take(1, self.blocks.sigma(Unit::C)));
        for l in &ls {
            for c in &cs {
                let moves: Moves = l.iter().chain(c).copied().filter(|m| m.2 > 0).collect();
                let mut landed = Vec::new();
                self.land(state, &moves, &mut Vec::new(), &mut landed);
                for m in landed {
                    let next = self.apply(state, &m);
                    if !each(m, next) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Every way to split each of `moves` over the waiting stages its warps may skip.
    fn land(&self, state: &[Block], moves: &[(usize, usize, u16, u16)], now: &mut Moves, out: &mut Vec<Moves>) {
        let Some((&(bi, p, x, _), rest)) = moves.split_first() else {
            out.push(now.clone());
            return;
        };
        let k = self.skips[state[bi][0] as usize][p];
        split(x, k, &mut Vec::new(), &mut |parts| {
            let before = now.len();
            now.extend(parts.iter().enumerate().filter(|(_, &n)| n > 0).map(|(s, &n)| (bi, p, n, s as u16)));
            self.land(state, rest, now, out);
            now.truncate(before);
        });
    }

    /// The state after the scheduler's `moves` (the waiting warps move on too).
    fn apply(&self, state: &[Block], moves: &Moves) -> Vec<Block> {
        let mut next = state.to_vec();
        for &(bi, p, x, skip) in &self.with_waits(state, moves) {
            next[bi][1 + p] -= x;
            next[bi][2 + p + skip as usize] += x;
        }
        for b in &mut next {
            if *b.last().expect("non-empty") == self.w && (b[0] as usize) + 1 < self.phases.len() {
                *b = self.fresh(b[0] as usize + 1);
            }
        }
        next
    }
}

/// Every way to split `x` warps over `k + 1` latencies (`parts[s]`: the warps skipping
/// `s` waiting stages), each passed to `each`.
fn split(x: u16, k: u16, parts: &mut Vec<u16>, each: &mut dyn FnMut(&[u16])) {
    if parts.len() == k as usize {
        parts.push(x);
        each(parts);
        parts.pop();
        return;
    }
    for n in 0..=x {
        parts.push(n);
        split(x - n, k, parts, each);
        parts.pop();
    }
}

/// Every way to take `n` warps from `classes` (block, position, count), each within its
/// count; a way lists only the classes it takes from (at most `n`, so a list of many
/// ways over many classes stays small).
fn spread(classes: &[(usize, usize, u16)], n: u16, now: &mut Moves, out: &mut Vec<Moves>) {
    if n == 0 {
        out.push(now.clone());
        return;
    }
    let Some((&(bi, p, c), rest)) = classes.split_first() else {
        return;
    };
    let left: u32 = rest.iter().map(|r| r.2 as u32).sum();
    for x in (n.saturating_sub(left.min(u16::MAX as u32) as u16))..=n.min(c) {
        if x > 0 {
            now.push((bi, p, x, 0));
        }
        spread(rest, n - x, now, out);
        if x > 0 {
            now.pop();
        }
    }
}

/// A state's key: its blocks sorted and flat (blocks of one phase are interchangeable).
fn key(state: &[Block]) -> Vec<u16> {
    let mut out = Vec::new();
    key_into(state, &mut out);
    out
}

/// [`key`], appended to `out`.
fn key_into(state: &[Block], out: &mut Vec<u16>) {
    let mut blocks: Vec<&Block> = state.iter().collect();
    blocks.sort();
    out.extend(blocks.into_iter().flatten());
}

/// The bytes the allocator takes for a heap block of `bytes` (glibc's malloc: an 8-byte
/// header, 16-byte alignment, 32 bytes at least), so that the memory cap counts what the
/// search really holds.
fn heap_chunk(bytes: usize) -> usize {
    (bytes + 8).max(32).next_multiple_of(16)
}

/// A state's successor list in the search, stored flat: the states' keys ([`key`]) one
/// after the other, `ends[i]` the end of state `i` (two heap blocks per list, however
/// long, so a stopped search frees its stack at once).
struct Frame {
    key: Vec<u16>,
    flat: Vec<u16>,
    ends: Vec<usize>,
    best: u32,
    bytes: usize,
}

impl Frame {
    /// The frame of `s` with its `count` successors ([`Space::successor_count`]) listed
    /// (made only after [`Memo::stop`] has admitted the list's bytes,
    /// [`Memo::list_bytes`]), or why `budget` stopped it (a list of millions of states
    /// takes seconds to make).
    fn of(space: &Space, s: &[Block], count: f64, budget: &Budget) -> Result<Frame, Stop> {
        let count = count as usize;
        let (mut flat, mut ends) = (Vec::with_capacity(count * space.flat_len(s)), Vec::with_capacity(count));
        let made = space.each_successor(s, |_, next| {
            key_into(&next, &mut flat);
            ends.push(flat.len());
            ends.len() % 1024 != 0 || !budget.is_over()
        });
        if !made {
            return Err(if budget.interrupted() { Stop::Interrupted } else { Stop::TimeLimit });
        }
        let bytes = heap_chunk(flat.capacity() * 2) + heap_chunk(ends.capacity() * 8) + std::mem::size_of::<Frame>();
        Ok(Frame { key: key(s), flat, ends, best: 0, bytes })
    }
}

struct Memo<'a> {
    space: Space<'a>,
    value: FxHashMap<Vec<u16>, u32>,
    bytes: usize,
}

impl Memo<'_> {
    /// The longest remaining time from `root`, or why the search stopped.
    fn longest(&mut self, root: Vec<Block>, budget: &Budget, max_states: usize) -> Result<u32, Stop> {
        if root.iter().all(|b| self.space.done(b)) {
            return Ok(0);
        }
        let count = self.space.successor_count(&root);
        self.stop(budget, max_states, self.list_bytes(&root, count))?;
        let mut stack = vec![Frame::of(&self.space, &root, count, budget)?];
        let mut stack_bytes = stack[0].bytes;
        while let Some(top) = stack.last_mut() {
            if let Some(end) = top.ends.pop() {
                // The list holds keys: a state met before needs no blocks.
                let start = top.ends.last().copied().unwrap_or(0);
                if let Some(&v) = self.value.get(&top.flat[start..end]) {
                    top.best = top.best.max(v + 1);
                    top.flat.truncate(start);
                    continue;
                }
                let s = self.space.unflatten(&top.flat[start..end]);
                top.flat.truncate(start);
                if s.iter().all(|b| self.space.done(b)) {
                    top.best = top.best.max(1);
                } else {
                    let count = self.space.successor_count(&s);
                    self.stop(budget, max_states, stack_bytes.saturating_add(self.list_bytes(&s, count)))?;
                    let f = Frame::of(&self.space, &s, count, budget)?;
                    stack_bytes += f.bytes;
                    stack.push(f);
                }
                continue;
            }
            let done = stack.pop().expect("top");
            stack_bytes -= done.bytes.min(stack_bytes);
            // The key's heap block, and its slot (a key, a value and a control byte) in a
            // table at least 7/8 full before it doubles, counted three times: while it
            // grows, the old table and the new one (twice as large) are both held.
            self.bytes += heap_chunk(done.key.len() * 2) + (3 * 8 * (std::mem::size_of::<(Vec<u16>, u32)>() + 1)).div_ceil(7);
            self.value.insert(done.key, done.best);
            if let Some(parent) = stack.last_mut() {
                parent.best = parent.best.max(done.best + 1);
            } else {
                return Ok(done.best);
            }
        }
        unreachable!("the root frame returns")
    }

    /// The bytes the successor list of `s` will take, counted before it is listed (a
    /// state of many blocks can have more successors than any memory holds): per
    /// successor, its flat entries and end, and one unit's choice of moves while the list
    /// is made (the choices of both units are at most one more than the successors);
    /// `count` is [`Space::successor_count`] of `s`.
    fn list_bytes(&self, s: &[Block], count: f64) -> usize {
        let classes = self.space.classes(s);
        let sigma = [self.space.blocks.sigma(Unit::L), self.space.blocks.sigma(Unit::C)];
        let moves = (0..2).map(|x| (classes[x].len() as u64).min(sigma[x]) as usize).max().unwrap_or(0);
        let choice = 24 + heap_chunk(moves * std::mem::size_of::<(usize, usize, u16, u16)>());
        let each = self.space.flat_len(s) * 2 + 8 + choice;
        let bytes = (count + 1.0) * each as f64 + 4.0 * 32.0;
        if bytes >= usize::MAX as f64 {
            usize::MAX
        } else {
            bytes as usize
        }
    }

    /// Whether to stop: the budget (time, memory counting the table and the frames'
    /// successor lists, `stack`), or the state limit.
    fn stop(&self, budget: &Budget, max_states: usize, stack: usize) -> Result<(), Stop> {
        if budget.interrupted() {
            Err(Stop::Interrupted)
        } else if budget.time_left().is_some_and(|t| t <= self.freeing_time()) {
            // Past the deadline, or so close that freeing the table would pass it.
            Err(Stop::TimeLimit)
        } else if self.value.len() >= max_states {
            Err(Stop::MaxStates)
        } else if self.bytes.saturating_add(stack) >= budget.max_memory() {
            Err(Stop::MaxMemory)
        } else {
            Ok(())
        }
    }

    /// The time freeing the table will take when the search ends (a boxed key per state,
    /// as in the kernel search).
    fn freeing_time(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.value.len() as u64 * crate::exact::search::FREE_NANOS_PER_KEY)
    }

    fn remaining(&self, s: &[Block]) -> u32 {
        if s.iter().all(|b| self.space.done(b)) {
            0
        } else {
            self.value[&key(s)]
        }
    }
}

/// Warp identities while replaying a path: `at[block][position]` lists the warps there.
struct Replay {
    at: Vec<Vec<Vec<usize>>>,
    cycles: Vec<Vec<u64>>,
    /// Each warp's latency of each instruction issued so far.
    latencies: Vec<Vec<u32>>,
}

/// A schedule played out, with the latency of every issue.
struct Played {
    schedule: Schedule,
    latencies: Vec<Vec<u32>>,
}

impl Played {
    /// The cycle the last result is there (the checker's makespan).
    fn end(&self) -> u64 {
        let last = |w: usize| self.schedule.cycles[w].last().map_or(0, |&t| t + *self.latencies[w].last().unwrap_or(&1) as u64 - 1);
        (0..self.schedule.cycles.len()).map(last).max().unwrap_or(0)
    }
}

impl Replay {
    fn new(space: &Space) -> Replay {
        let (b, w) = (space.blocks.blocks as usize, space.w as usize);
        let mut at = vec![vec![Vec::new(); space.phases[0].len() + 1]; b];
        for (bi, block) in at.iter_mut().enumerate() {
            block[0] = (bi * w..(bi + 1) * w).collect();
        }
        Replay { at, cycles: vec![Vec::with_capacity(space.blocks.len()); b * w], latencies: vec![Vec::with_capacity(space.blocks.len()); b * w] }
    }

    fn step(&mut self, space: &Space, before: &[Block], moves: &Moves, t: u64) {
        // Take every moving warp first, so that none moves twice in one cycle.
        let mut moved = Vec::new();
        for &(bi, p, x, skip) in moves {
            for _ in 0..x {
                moved.push((bi, p, skip, self.at[bi][p].pop().expect("the counts say a warp is there")));
            }
        }
        for (bi, p, skip, warp) in moved {
            let stages = &space.phases[before[bi][0] as usize];
            if stages[p].is_some() {
                let waits = stages[p + 1..].iter().take_while(|st| st.is_none()).count();
                self.cycles[warp].push(t);
                self.latencies[warp].push((waits + 1 - skip as usize) as u32);
            }
            self.at[bi][p + 1 + skip as usize].push(warp);
        }
        for (bi, b) in before.iter().enumerate() {
            let last = self.at[bi].len() - 1;
            if self.at[bi][last].len() == space.w as usize && (b[0] as usize) + 1 < space.phases.len() {
                let warps = std::mem::take(&mut self.at[bi][last]);
                self.at[bi] = vec![Vec::new(); space.phases[b[0] as usize + 1].len() + 1];
                self.at[bi][0] = warps;
            }
        }
    }
}

/// The warps at each block's positions, `at[block][position]`; a move of `x` warps
/// from a position takes the last `x` listed there.
type At = [Vec<Vec<usize>>];

/// One schedule from the start state, choosing each cycle's moves with `choose` (given
/// the state, the ready classes `(block, position, count)` per unit, L then C, and the
/// warps at each position, which it may reorder to choose which of them move).
fn play(space: &Space, mut choose: impl FnMut(&[Block], &[Vec<(usize, usize, u16)>; 2], &mut At) -> Moves) -> Played {
    let mut state = space.start();
    let mut replay = Replay::new(space);
    let mut t = 0;
    while !state.iter().all(|b| space.done(b)) {
        t += 1;
        let moves = choose(&state, &space.classes(&state), &mut replay.at);
        let after = space.apply(&state, &moves);
        replay.step(space, &state, &space.with_waits(&state, &moves), t);
        state = after;
    }
    Played { schedule: Schedule { cycles: replay.cycles }, latencies: replay.latencies }
}

/// Work-conserving moves that serve the classes in the order `rank` gives (lowest first):
/// for each unit, as many warps as it has room for, class by class.
fn serve(classes: &[Vec<(usize, usize, u16)>; 2], sigma: [u64; 2], mut rank: impl FnMut(&(usize, usize, u16)) -> u64) -> Moves {
    let mut moves = Vec::new();
    for (x, list) in classes.iter().enumerate() {
        let mut order = list.clone();
        // Each class's key is drawn once: `rank` may be random, and a key that changes
        // between comparisons is no order (the sort may panic).
        order.sort_by_cached_key(&mut rank);
        let mut room = sigma[x];
        for (bi, p, c) in order {
            let take = (c as u64).min(room);
            if take > 0 {
                moves.push((bi, p, take as u16, 0));
            }
            room -= take;
        }
    }
    moves
}

/// The worst-case makespan of `blocks` starting together, exact when the search
/// completes within `opts`' budget and `max_states`; otherwise the longest of a few
/// checked greedy, hill-climbed and random schedules and the smaller of the block horizon
/// and the idle bound ([`BlockSolution::upper_from`] says which). Refuses nothing beyond what
/// [`Blocks`] guarantees; the schedule is re-checked and must match the value found.
///
/// ```
/// use gpu_makespan::{solve_blocks, Blocks, Instance, Program, SolveOptions};
///
/// // Two blocks of 2 warps of `L|LC` start together on one SM.
/// let program = Program::build("L|LC", |phase| Instance::new(phase, 2, 1, 1))?;
/// let sol = solve_blocks(&Blocks::new(program, 2), &SolveOptions::default())?;
/// assert!(sol.exact());
/// assert_eq!(sol.interval.upper(), 9);
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn solve_blocks(blocks: &Blocks, opts: &SolveOptions) -> Result<BlockSolution, Error> {
    blocks.solve_with(&Latencies::ONE, opts)
}

impl Blocks {
    /// [`solve_blocks`] with instruction `latency` ([`Latencies`], fixed or ranges;
    /// `docs/latency.md`): the worst case over every work-conserving schedule (any
    /// scheduler) and every latency in the ranges, exact when the search completes (each
    /// instruction followed by `lambda^max - 1` waiting stages that every warp passes one
    /// per cycle, of which an issue may skip up to `lambda^max - lambda^min`: the same
    /// search over a longer program); otherwise the longest checked schedule found and the
    /// latency horizon (the block horizon plus each instruction's longest wait, proven in
    /// `docs/latency.md`). The schedule is re-checked with the latency of every issue.
    ///
    /// ```
    /// use gpu_makespan::{Blocks, Latencies, LatencyRange, Program, SolveOptions};
    ///
    /// // Two warps of `LC`, a load taking 5 cycles: the worst case is 7 (L, L, then both C's).
    /// let blocks = Blocks::from(Program::from_toml("kernel = \"LC\"\nwarps = 2\n", "example")?);
    /// let latency = Latencies { l: LatencyRange::new(5, 5, "L")?, c: LatencyRange::ONE };
    /// let sol = blocks.solve_with(&latency, &SolveOptions::default())?;
    /// assert!(sol.exact() && sol.interval.upper() == 7);
    /// # Ok::<(), gpu_makespan::Error>(())
    /// ```
    pub fn solve_with(&self, latency: &Latencies, opts: &SolveOptions) -> Result<BlockSolution, Error> {
        self.search_with(latency, opts, true)
    }

    /// [`Blocks::solve_with`]; `more_rollouts`: when the search stops early, spend the time
    /// left on more random schedules (for a better lower end).
    pub(crate) fn search_with(&self, latency: &Latencies, opts: &SolveOptions, more_rollouts: bool) -> Result<BlockSolution, Error> {
        let stages = self.program.phases.iter().map(|p| p.len() as u64 + latency.waits(p.kernel.units(), self.program.copies())).max().unwrap_or(0);
        let state = stages * self.blocks as u64;
        if !latency.is_one() && (stages > MAX_STAGES || state > MAX_STATE_STAGES) {
            return Err(TooLarge {
                field: "latency".into(),
                value: latency.to_string(),
                reason: format!(
                    "one search stage per instruction and per cycle of waiting: {stages} in a phase ({state} over the blocks), at most {MAX_STAGES} ({MAX_STATE_STAGES})"
                ),
            }
            .into());
        }
        search_blocks(self, latency, latency_horizon(self, latency), opts, more_rollouts)
    }
}

/// The most stages (instructions and waiting cycles) of one phase the search with
/// latencies takes: every state holds a count per stage, and a random schedule passes
/// one stage per cycle.
pub const MAX_STAGES: u64 = 16_384;

/// The most stages of all blocks' current phases together (a state's length).
pub const MAX_STATE_STAGES: u64 = 65_536;

/// The search of [`Blocks::solve_with`] with `latency` (fixed or ranges) and the proven
/// `fallback` upper bound (used when the search stops, or the idle bound if smaller).
fn search_blocks(blocks: &Blocks, latency: &Latencies, fallback: u64, opts: &SolveOptions, more_rollouts: bool) -> Result<BlockSolution, Error> {
    let started = std::time::Instant::now();
    let (units, copies) = (blocks.units(), blocks.program.copies());
    let ranges: Vec<(u32, u32)> =
        latency.per_instruction(&units, copies, |r| r.min).into_iter().zip(latency.per_instruction(&units, copies, |r| r.max)).collect();
    let space = Space::with_latencies(blocks, &ranges);
    // The idle bound, where it applies, on a thread of its own beside the schedules and
    // the search (HiGHS uses one core), within nine tenths of the time. A search that
    // can end gets a head start (it often ends first, and HiGHS then never starts); once
    // the search ends, HiGHS is interrupted. On a rayon worker (sweeps, where every core
    // has a job) a search that can end runs alone and keeps back a fifth of its time, in
    // which HiGHS runs if the search stops.
    let (idle_applies, hopeless) = (idle_applies(blocks, latency), hopeless(blocks));
    let alone = idle_applies && !hopeless && rayon::current_thread_index().is_some();
    let head_start = if hopeless { std::time::Duration::ZERO } else { IDLE_HEAD_START };
    let mut beside = (idle_applies && !alone).then(|| IdleBeside::start(blocks, &opts.budget, head_start)).flatten();
    let budget = match opts.budget.time_left() {
        Some(t) if alone => opts.budget.at_most(t.mul_f64(0.8)),
        _ => opts.budget.clone(),
    };
    // Schedules first, within a tenth of the search's time (2 s without a limit; nine
    // tenths when the search is `hopeless`): the lower end if the search stops. Half of
    // it goes to greedy and random schedules (a quarter each, at least one schedule
    // each), half to the climb.
    let part = if hopeless { 0.9 } else { 0.1 };
    let share = budget.time_left().map_or(std::time::Duration::from_secs(2), |t| t.mul_f64(part));
    let guess = longest_random(&space, 0..64, &budget.at_most(share / 4));
    let guess = [longest_greedy(&space, &budget.at_most(share / 4)), longest_climbed(&space, &budget.at_most(share / 2))]
        .into_iter()
        .fold(guess, |a, b| if b.end() > a.end() { b } else { a });
    let mut memo = Memo { space, value: FxHashMap::default(), bytes: 0 };
    let found = memo.longest(memo.space.start(), &budget, opts.max_states);
    let (schedule, upper, status, upper_from) = match found {
        Ok(v) => {
            let s = play(&memo.space, |now, _, _| {
                let v = memo.remaining(now);
                let next = memo.space.successors(now);
                next.into_iter().find(|(_, a)| memo.remaining(a) + 1 == v).expect("a longest path goes on").0
            });
            (s, v as u64, Status::Optimal, UPPER_FROM_SEARCH)
        }
        Err(stop) => {
            // A search stopped by its state or memory cap leaves time: a longer climb,
            // for a better lower end (without a time limit, up to 2 s more).
            let best = if budget.is_over() || !more_rollouts {
                guess
            } else {
                let more = budget.time_left().unwrap_or(std::time::Duration::from_secs(2));
                let more = longest_climbed(&memo.space, &budget.at_most(more));
                if more.end() > guess.end() {
                    more
                } else {
                    guess
                }
            };
            let idle = match beside.take() {
                Some(thread) => thread.joined(&opts.budget),
                None if idle_applies => {
                    let limit = opts.budget.at_most(opts.budget.time_left().unwrap_or(IDLE_SECONDS));
                    idle_within(blocks, &limit, &[opts.budget.stop_flag().clone()])
                }
                None => None,
            };
            let horizon = if latency.is_one() { UPPER_FROM_HORIZON } else { UPPER_FROM_LATENCY };
            match idle {
                Some(v) if v < blocks.lower_bound() => {
                    return Err(Inconsistency::Disagreement(format!("the idle bound {v} is below the blocks' lower bound {}", blocks.lower_bound())).into())
                }
                Some(v) if v < fallback => (best, v, status_of(stop), UPPER_FROM_IDLE),
                _ => (best, fallback, status_of(stop), horizon),
            }
        }
    };
    let lower = check_blocks_per_issue(blocks, latency, &schedule.latencies, &schedule.schedule)
        .map_err(|v| Inconsistency::Rejected { method: "blocks".into(), violation: v })?;
    if status == Status::Optimal && lower != upper {
        return Err(Inconsistency::Disagreement(format!("the blocks' search found {upper} cycles, its schedule lasts {lower}")).into());
    }
    // A search that ended stops HiGHS, and checks what it proved by then, if it ends
    // soon: the idle bound is never below the exact value.
    if let Some(v) = beside.and_then(|thread| thread.stopped()).filter(|&v| v < upper) {
        return Err(Inconsistency::Disagreement(format!("the idle bound {v} is below the blocks' exact worst case {upper}")).into());
    }
    let states = memo.value.len() as u64;
    let interval = Interval::new(lower, upper).ok_or_else(|| {
        Inconsistency::Disagreement(format!("the blocks' checked schedule lasts {lower}, above the proven bound {upper}"))
    })?;
    let Played { schedule, latencies } = schedule;
    Ok(BlockSolution { interval, upper_from, status, schedule, latencies, states, seconds: started.elapsed().as_secs_f64() })
}

/// HiGHS's time for the idle bound when the solve has no time limit.
const IDLE_SECONDS: std::time::Duration = std::time::Duration::from_secs(20);

/// How long a search that can end runs before HiGHS starts beside it.
const IDLE_HEAD_START: std::time::Duration = std::time::Duration::from_secs(1);

/// How long an interrupted HiGHS (Ctrl-C) is waited for: it stops at its next MIP
/// interrupt check, within about a second on the full SM of issue 53 (its presolve and
/// root LP are not interrupted), with a bound that beats the block horizon (8 x 8: 536
/// or 542 where the horizon is 685).
const IDLE_STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// How long HiGHS is waited for once the search has ended, to check its bound against
/// the exact value (a check only: the answer does not depend on it).
const IDLE_CHECK_WAIT: std::time::Duration = std::time::Duration::from_millis(200);

/// The idle bound on a thread of its own beside a block search. Dropped (an early
/// return), it stops HiGHS as [`IdleBeside::stopped`] does, without waiting.
struct IdleBeside {
    /// `None` once joined.
    thread: Option<std::thread::JoinHandle<Option<u64>>>,
    /// Set when the search has ended: HiGHS, or its head start, stops.
    done: crate::budget::StopFlag,
    /// Set when the search has stopped without an answer: the head start ends.
    go: crate::budget::StopFlag,
}

impl IdleBeside {
    /// Starts the idle bound after `head_start` (unless stopped before), within nine
    /// tenths of `budget`'s time from now (or [`IDLE_SECONDS`]; the head start counts),
    /// stopped by `budget`'s stop flag or by [`IdleBeside::stopped`]; `None` when no
    /// thread can be made (the caller then computes it in line). HiGHS runs C++ code
    /// with deep calls: the thread gets a 64 MiB stack.
    fn start(blocks: &Blocks, budget: &Budget, head_start: std::time::Duration) -> Option<IdleBeside> {
        let (b, limit) = (blocks.clone(), budget.at_most(budget.time_left().map_or(IDLE_SECONDS, |t| t.mul_f64(0.9))));
        let (done, go) = (crate::budget::StopFlag::new(), crate::budget::StopFlag::new());
        let (stops, started) = ([budget.stop_flag().clone(), done.clone()], go.clone());
        let thread = std::thread::Builder::new()
            .name("idle-bound".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let until = std::time::Instant::now() + head_start;
                while !stops.iter().any(crate::budget::StopFlag::is_set) {
                    let left = until.saturating_duration_since(std::time::Instant::now());
                    if left.is_zero() || started.is_set() {
                        return idle_within(&b, &limit, &stops);
                    }
                    std::thread::park_timeout(left);
                }
                None
            })
            .ok()?;
        Some(IdleBeside { thread: Some(thread), done, go })
    }

    /// The idle bound (its head start ends now: the search has stopped), waited for
    /// within its time limit; once `budget` is interrupted (HiGHS is then interrupted
    /// too), for at most [`IDLE_STOP_WAIT`] more. `None` if it gave none, panicked, or
    /// did not end in time (the thread then ends on its own, at HiGHS's next interrupt
    /// check).
    fn joined(mut self, budget: &Budget) -> Option<u64> {
        self.wake(&self.go);
        let mut deadline = None;
        self.wait(|| budget.interrupted() && std::time::Instant::now() >= *deadline.get_or_insert_with(|| std::time::Instant::now() + IDLE_STOP_WAIT))
    }

    /// Stops HiGHS (the search has ended) and returns what it proved by then, if it
    /// ends within [`IDLE_CHECK_WAIT`] (its presolve and root LP are not interrupted: a
    /// thread still in them ends on its own, at HiGHS's next interrupt check).
    fn stopped(mut self) -> Option<u64> {
        self.wake(&self.done);
        let until = std::time::Instant::now() + IDLE_CHECK_WAIT;
        self.wait(|| std::time::Instant::now() >= until)
    }

    /// Sets `flag` (one of this thread's) and wakes the thread from its head start.
    fn wake(&self, flag: &crate::budget::StopFlag) {
        flag.set();
        if let Some(t) = &self.thread {
            t.thread().unpark();
        }
    }

    /// The thread's value once it has ended, polled every 2 ms; `None` once `give_up`
    /// says so first (or if it panicked, or was joined before).
    fn wait(&mut self, mut give_up: impl FnMut() -> bool) -> Option<u64> {
        loop {
            match self.thread.take() {
                Some(t) if t.is_finished() => return t.join().ok().flatten(),
                None => return None,
                running => self.thread = running,
            }
            if give_up() {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

impl Drop for IdleBeside {
    fn drop(&mut self) {
        self.wake(&self.done);
    }
}

/// Whether the idle bound ([`crate::exact::idle_bound`]) covers these blocks: the
/// latency-1 model with whole sigma (no unit copies), a programme of at most
/// `MAX_COLUMNS` columns, and HiGHS built in (feature `ilp`).
fn idle_applies(blocks: &Blocks, latency: &Latencies) -> bool {
    use crate::exact::idle_bound::{Shape, MAX_COLUMNS};
    cfg!(feature = "ilp") && latency.is_one() && blocks.program.copies() == (1, 1) && Shape::of(blocks).columns() <= MAX_COLUMNS
}

/// The idle bound of `blocks` within `budget` (`None` when it gives none in time), HiGHS
/// stopped early when one of `stops` is set.
fn idle_within(blocks: &Blocks, budget: &Budget, stops: &[crate::budget::StopFlag]) -> Option<u64> {
    if budget.is_over() {
        return None;
    }
    #[cfg(feature = "ilp")]
    return crate::exact::idle_bound::idle_bound(blocks, budget.time_left(), stops);
    #[cfg(not(feature = "ilp"))]
    {
        let _ = (blocks, stops);
        None
    }
}

/// Whether the block states are so many that no search can store them: more than
/// `10^15` multisets of `B` block states, counting each phase's ways to place `W` warps
/// on its stages (an over-count of the reachable states, which are far fewer; the
/// limit keeps 3 blocks of 4 and 2 of 8 warps of a 20-instruction phase searched).
fn hopeless(blocks: &Blocks) -> bool {
    let ln_choose = |n: f64, k: f64| (1..=k as u64).map(|i| ((n - k + i as f64) / i as f64).ln()).sum::<f64>();
    let w = blocks.warps_per_block() as f64;
    let per_block: f64 = blocks.program.phases.iter().map(|p| ln_choose(p.len() as f64 + w, w).exp()).sum();
    let b = blocks.blocks as f64;
    ln_choose(per_block + b - 1.0, b) > 15.0 * std::f64::consts::LN_10
}

fn status_of(stop: Stop) -> Status {
    match stop {
        Stop::TimeLimit | Stop::Completed => Status::TimeLimit,
        Stop::MaxStates => Status::MaxStates,
        Stop::MaxMemory => Status::MaxMemory,
        Stop::Interrupted => Status::Interrupted,
    }
}

/// The longest of a few greedy schedules that starve a unit `Y` (each checked by the
/// caller): the other unit serves first the warps with the most stages left before
/// their next `Y` instruction (so that as few warps as possible are ready for `Y`, which
/// then idles), and `Y` serves the blocks in a rank (the last block's warps, and within a
/// block the least advanced, wait), the furthest-ahead warps first. Each `Y` (L, C) and
/// block rank is played plainly and with a few moves at random, until `budget` is over
/// (at least one schedule).
fn longest_greedy(space: &Space, budget: &Budget) -> Played {
    let before = space.stages_before();
    let sigma = [space.blocks.sigma(Unit::L), space.blocks.sigma(Unit::C)];
    let mut best: Option<Played> = None;
    for seed in 0..24u64 {
        if seed > 0 && budget.is_over() {
            break;
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        let y = (seed % 2) as usize;
        let odds = [0.0, 0.05, 0.1][(seed / 2 % 3) as usize];
        let mut rank: Vec<u64> = (0..space.blocks.blocks as u64).collect();
        rank.shuffle(&mut rng);
        let s = play(space, |state, classes, _| {
            let mut moves = Vec::new();
            for (x, list) in classes.iter().enumerate() {
                let key = |&(bi, p, _): &(usize, usize, u16)| {
                    let ahead = u16::MAX as u64 - p as u64;
                    if x == y {
                        rank[bi] << 20 | ahead
                    } else {
                        (u16::MAX as u64 - before[y][state[bi][0] as usize][p] as u64) << 40 | rank[bi] << 20 | ahead
                    }
                };
                let mut order: Vec<(u64, (usize, usize, u16))> = list.iter().map(|c| (key(c), *c)).collect();
                for o in &mut order {
                    if rng.random_bool(odds) {
                        o.0 = rng.random::<u64>();
                    }
                }
                order.sort_unstable_by_key(|o| o.0);
                let mut room = sigma[x];
                for (_, (bi, p, c)) in order {
                    let take = (c as u64).min(room);
                    if take > 0 {
                        moves.push((bi, p, take as u16, 0));
                    }
                    room -= take;
                }
            }
            moves
        });
        if best.as_ref().is_none_or(|b| s.end() > b.end()) {
            best = Some(s);
        }
    }
    best.expect("at least one schedule")
}

/// A static priority for a hill climb: a weight per unit and stage (all phases in
/// order) and per unit and warp; each cycle, each unit serves its ready warps by the
/// sum, highest first.
#[derive(Clone)]
struct Priority {
    stage: [Vec<f64>; 2],
    warp: [Vec<f64>; 2],
}

impl Priority {
    /// The climb's start for a starved unit `y`: the other unit prefers the warps with
    /// the most stages left before their next `y` instruction (as [`longest_greedy`]),
    /// and `y` the least advanced warps (on the real phase pair of the tests this start
    /// climbs to 490 cycles at 8 blocks of 8 warps, the furthest-ahead one to 477).
    fn starving(space: &Space, y: usize) -> Priority {
        let before = space.stages_before();
        let mut stage = [Vec::new(), Vec::new()];
        for (k, run) in before[y].iter().enumerate() {
            // `run` has one more entry than the phase has stages (its end).
            stage[1 - y].extend(run[..space.phases[k].len()].iter().map(|&r| r as f64));
        }
        stage[y] = (0..stage[1 - y].len()).map(|s| -(s as f64)).collect();
        let n = space.blocks.warps() as usize;
        Priority { stage, warp: [vec![0.0; n], vec![0.0; n]] }
    }

    /// The same priority with one weight moved by a normal step of a random scale.
    fn nudged(&self, rng: &mut SmallRng) -> Priority {
        let mut next = self.clone();
        let x = rng.random_range(0..2usize);
        let scale = [0.5, 2.0, 8.0, 30.0][rng.random_range(0..4usize)];
        // A standard normal draw (Box-Muller).
        let step = (-2.0 * (1.0 - rng.random::<f64>()).ln()).sqrt() * (std::f64::consts::TAU * rng.random::<f64>()).cos() * scale;
        let list = if rng.random_bool(0.5) { &mut next.stage[x] } else { &mut next.warp[x] };
        let i = rng.random_range(0..list.len());
        list[i] += step;
        next
    }

    /// One schedule served by this priority (work-conserving, every latency its longest).
    fn play(&self, space: &Space, offsets: &[usize]) -> Played {
        let sigma = [space.blocks.sigma(Unit::L), space.blocks.sigma(Unit::C)];
        play(space, |state, classes, at| {
            let mut moves = Vec::new();
            for (x, list) in classes.iter().enumerate() {
                let mut ready: Vec<(f64, usize, usize, usize)> = Vec::new();
                for &(bi, p, _) in list {
                    let s = offsets[state[bi][0] as usize] + p;
                    ready.extend(at[bi][p].iter().map(|&w| (self.stage[x][s] + self.warp[x][w], bi, p, w)));
                }
                ready.sort_by(|a, b| b.0.total_cmp(&a.0));
                ready.truncate(sigma[x] as usize);
                for &(_, bi, p, w) in &ready {
                    // The chosen warp last in its list: a move takes the last ones.
                    let list = &mut at[bi][p];
                    let i = list.iter().position(|&v| v == w).expect("a ready warp is listed");
                    list.remove(i);
                    list.push(w);
                    match moves.iter_mut().find(|m: &&mut (usize, usize, u16, u16)| m.0 == bi && m.1 == p) {
                        Some(m) => m.2 += 1,
                        None => moves.push((bi, p, 1, 0)),
                    }
                }
            }
            moves
        })
    }
}

/// Steps without a longer schedule after which a climb stops, per warp.
const CLIMB_STALL: u64 = 500;

/// A hill climb over static priorities ([`Priority`]) from the greedy start that
/// starves the busier unit: each step moves one weight and keeps the priority if its
/// schedule is no shorter, until `budget` is over or [`CLIMB_STALL`] steps per warp in a row found
/// nothing longer (at least one schedule). The longest
/// schedule played (each checked by the caller).
fn longest_climbed(space: &Space, budget: &Budget) -> Played {
    let offsets = space.offsets();
    let n = space.blocks.warps() as u64;
    let load = |u: Unit| n * space.blocks.count(u) / space.blocks.sigma(u);
    let y = usize::from(load(Unit::C) > load(Unit::L));
    let mut rng = SmallRng::seed_from_u64(1);
    let mut now = Priority::starving(space, y);
    let mut best = now.play(space, &offsets);
    let mut stalled = 0;
    while !budget.is_over() && stalled < CLIMB_STALL * n {
        let next = now.nudged(&mut rng);
        let s = next.play(space, &offsets);
        stalled = if s.end() > best.end() { 0 } else { stalled + 1 };
        if s.end() >= best.end() {
            (now, best) = (next, s);
        }
    }
    best
}

/// The longest of the schedules of `seeds` (each checked by the caller), until the
/// budget is over (at least one). Even seeds starve: each cycle they advance the warps
/// of the blocks ranked first (a random rank per seed), the furthest-ahead warps first,
/// so the last block, and its last warp, fall behind; odd seeds move at random.
fn longest_random(space: &Space, seeds: std::ops::Range<u64>, budget: &Budget) -> Played {
    let mut best: Option<Played> = None;
    let first = seeds.start;
    for seed in seeds {
        if seed > first && budget.is_over() {
            break;
        }
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut rank: Vec<u64> = (0..space.blocks.blocks as u64).collect();
        rank.shuffle(&mut rng);
        let sigma = [space.blocks.sigma(Unit::L), space.blocks.sigma(Unit::C)];
        let s = if seed % 2 == 0 {
            // Blocks ranked first, and their furthest-ahead warps, are served first.
            play(space, |_, classes, _| serve(classes, sigma, |&(bi, p, _)| rank[bi] * 1_000_000 + (u16::MAX as u64 - p as u64)))
        } else {
            play(space, |_, classes, _| serve(classes, sigma, |_| rng.random::<u32>() as u64))
        };
        if best.as_ref().is_none_or(|b| s.end() > b.end()) {
            best = Some(s);
        }
    }
    best.expect("at least one seed")
}

/// The exact worst-case number of cycles left from a reachable state, `issued[w]` being
/// the instructions warp `w` has issued (row `w` is warp `w` of block `w / W`), by the
/// same exhaustive search as [`solve_blocks`] (within `budget`; `None` when it stops).
/// For tests and experiments: the search's value at any state, not only the start.
pub fn longest_from(blocks: &Blocks, issued: &[usize], budget: &Budget) -> Option<u64> {
    let space = Space::new(blocks);
    let ends = blocks.program.phase_ends();
    let root: Vec<Block> = issued
        .chunks(space.w as usize)
        .map(|mine| {
            let least = *mine.iter().min().expect("W >= 1");
            // The current phase: the one its least advanced warp is in (the last when done).
            let k = ends.iter().position(|&e| least < e).unwrap_or(ends.len() - 1);
            let start = ends[k] - space.phases[k].len();
            let mut b = vec![0u16; space.phases[k].len() + 2];
            b[0] = k as u16;
            for &d in mine {
                b[1 + d.min(ends[k]) - start] += 1;
            }
            b
        })
        .collect();
    let mut memo = Memo { space, value: FxHashMap::default(), bytes: 0 };
    memo.longest(root, budget, usize::MAX).ok().map(u64::from)
}

/// `solve --json` for several blocks with barriers.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct BlocksJson {
    /// Always `search` (the exhaustive search over block states).
    pub method: &'static str,
    /// The transformed kernel with its barriers (`|`).
    pub kernel: String,
    /// The kernel as given.
    pub source_kernel: String,
    /// `B W`, all warps.
    pub warps: u32,
    /// `W`.
    pub warps_per_block: u32,
    /// `B`.
    pub blocks: u32,
    /// sigma_L after the transformation.
    pub sigma_l: u32,
    /// sigma_C after the transformation.
    pub sigma_c: u32,
    /// Barriers (phases - 1).
    pub barriers: usize,
    /// How the run ended.
    pub status: Status,
    /// What stopped the search early (`time_limit`, `max_states`, `max_memory`,
    /// `interrupted`), absent when it completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<Status>,
    /// The checked schedule's makespan (a proven lower bound).
    pub makespan: u64,
    /// A proven upper bound.
    pub upper_bound: u64,
    /// What proved `upper_bound`: `search`, `block_horizon`, `latency_horizon` or
    /// `idle_bound` ([`BlockSolution::upper_from`]).
    pub upper_bound_from: &'static str,
    /// `makespan == upper_bound`.
    pub exact: bool,
    /// `[makespan, upper_bound]` as one object (`lower`, `upper`, `exact`).
    pub interval: Interval,
    /// The block horizon (a proven upper bound).
    pub safe_horizon: u64,
    /// Distinct states stored.
    pub states: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The checked schedule, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<crate::model::schedule::Issue>>,
}

impl BlockSolution {
    /// The `makespan solve --json` record of this solution of `b`; with
    /// `with_schedule`, the schedule (rows: warp `w` of block `w / W`).
    pub fn record(&self, b: &Blocks, with_schedule: bool) -> BlocksJson {
        blocks_json(b, self, with_schedule)
    }
}

/// The `solve --json` object of several blocks.
pub fn blocks_json(b: &Blocks, sol: &BlockSolution, with_schedule: bool) -> BlocksJson {
    let first = &b.program.phases[0];
    BlocksJson {
        method: "search",
        stopped_by: (sol.status != Status::Optimal).then_some(sol.status),
        kernel: b.program.kernel(),
        source_kernel: b.program.source_kernel.clone(),
        warps: b.warps(),
        warps_per_block: b.warps_per_block(),
        blocks: b.blocks,
        sigma_l: first.sigma_l,
        sigma_c: first.sigma_c,
        barriers: b.program.phases.len() - 1,
        status: sol.status,
        makespan: sol.interval.lower(),
        upper_bound: sol.interval.upper(),
        upper_bound_from: sol.upper_from,
        exact: sol.exact(),
        interval: sol.interval,
        safe_horizon: b.horizon(),
        states: sol.states,
        seconds: sol.seconds,
        schedule: with_schedule.then(|| sol.schedule.issues_of_units(&b.units())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;
    use crate::model::program::Program;

    /// The idle bound on a thread of its own gives what it gives in line (84 at 2 blocks
    /// of 4 warps of a real barrier pair); stopped in its head start it gives none (were
    /// the stop missed, HiGHS would start after the minute and give 84).
    #[cfg(feature = "ilp")]
    #[test]
    fn the_idle_bound_beside_the_search() {
        let program = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |p| Instance::new(p, 4, 1, 4)).unwrap();
        let blocks = Blocks::new(program, 2);
        let budget = Budget::default();
        let zero = std::time::Duration::ZERO;
        assert_eq!(IdleBeside::start(&blocks, &budget, zero).unwrap().joined(&budget), Some(84));
        let beside = IdleBeside::start(&blocks, &budget, std::time::Duration::from_secs(60)).unwrap();
        beside.wake(&beside.done);
        assert_eq!(beside.joined(&budget), None);
    }

    /// HiGHS interrupted through its callback (here after 2 s of the about 4 s it needs
    /// alone) still gives its dual bound so far: a bound, not below the finished one (84).
    /// An interrupt before HiGHS has a feasible point gives none (a loaded machine): then
    /// it is tried again with twice the delay, up to 8 s, until one gives a bound (and says
    /// so when HiGHS finished before its interrupt).
    #[cfg(feature = "ilp")]
    #[test]
    fn an_interrupted_idle_bound_is_still_a_bound() {
        let program = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |p| Instance::new(p, 4, 1, 4)).unwrap();
        let blocks = Blocks::new(program, 2);
        let (mut bound, mut interrupted) = (None, false);
        for secs in [2, 4, 8] {
            let stop = crate::budget::StopFlag::new();
            let setter = stop.clone();
            let timer = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_secs(secs));
                setter.set();
            });
            bound = crate::exact::idle_bound::idle_bound(&blocks, None, std::slice::from_ref(&stop));
            interrupted = stop.is_set();
            timer.join().unwrap();
            if bound.is_some() {
                break;
            }
        }
        if !interrupted {
            eprintln!("HiGHS finished before the interrupt: only the finished bound was checked");
        }
        assert!(bound.is_some_and(|v| v >= 84), "{bound:?}");
    }

    /// The greedy schedules starve the busier unit: on 8 blocks of 8 warps of a real
    /// barrier pair (sigma 1/4) the L unit idles while every warp works through its first
    /// C run, about 80 cycles, before the 384 cycles of L work: at least 476 cycles,
    /// where the random schedules reach 448. The schedule passes the checker.
    #[test]
    fn greedy_schedules_starve_the_busier_unit() {
        let program = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |p| Instance::new(p, 8, 1, 4)).unwrap();
        let blocks = Blocks::new(program, 8);
        let space = Space::new(&blocks);
        let played = longest_greedy(&space, &Budget::default());
        let checked = check_blocks_per_issue(&blocks, &Latencies::ONE, &played.latencies, &played.schedule).unwrap();
        assert_eq!(checked, played.end());
        assert!(checked >= 476, "{checked}");
    }

    /// The climb starts from the starving priority and keeps a schedule only if it is no
    /// shorter, so it ends at least as long as its start; its schedule passes the checker.
    #[test]
    fn a_climb_ends_no_shorter_than_its_start() {
        let program = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |p| Instance::new(p, 4, 1, 4)).unwrap();
        let blocks = Blocks::new(program, 3);
        let space = Space::new(&blocks);
        let offsets = space.offsets();
        let start = Priority::starving(&space, 0).play(&space, &offsets).end();
        let played = longest_climbed(&space, &Budget::default().at_most(std::time::Duration::from_millis(300)));
        let checked = check_blocks_per_issue(&blocks, &Latencies::ONE, &played.latencies, &played.schedule).unwrap();
        assert_eq!(checked, played.end());
        assert!(checked >= start, "{checked} < {start}");
    }

    /// A frame holds the keys of its state's successors in their order, within its reserved
    /// capacity (it never grows), and within the bytes the memory cap counted for it.
    #[test]
    fn a_frame_holds_its_successors_within_the_bytes_counted() {
        for (kernel, w, b, sl, sc) in [("LLC|CL", 2, 3, 1, 2), ("CLCL|LLC|C", 3, 4, 2, 4), ("CCCL|LC", 4, 3, 1, 4), ("L|L|C", 4, 2, 2, 3)] {
            let program = Program::build(kernel, |p| Instance::new(p, w, sl, sc)).unwrap();
            let blocks = Blocks::new(program, b);
            let memo = Memo { space: Space::new(&blocks), value: FxHashMap::default(), bytes: 0 };
            let mut rng = SmallRng::seed_from_u64(3);
            let mut state = memo.space.start();
            while !state.iter().all(|x| memo.space.done(x)) {
                let next = memo.space.successors(&state);
                let count = memo.space.successor_count(&state);
                let frame = Frame::of(&memo.space, &state, count, &Budget::default()).unwrap();
                assert_eq!(frame.flat.capacity(), count as usize * memo.space.flat_len(&state), "{kernel} at {state:?}");
                let counted = memo.list_bytes(&state, count);
                assert!(frame.bytes <= counted, "{kernel} at {state:?}: {} > {counted}", frame.bytes);
                let starts = std::iter::once(0).chain(frame.ends.iter().copied());
                let held: Vec<Vec<u16>> = starts.zip(&frame.ends).map(|(a, &e)| frame.flat[a..e].to_vec()).collect();
                let keys: Vec<Vec<u16>> = next.iter().map(|(_, s)| key(s)).collect();
                assert_eq!(held, keys, "{kernel} at {state:?}");
                assert!(held.iter().all(|k| key(&memo.space.unflatten(k)) == *k));
                state = next[rng.random_range(0..next.len())].1.clone();
            }
        }
    }

    /// A successor list of thousands of states stops being made when the budget is over.
    #[test]
    fn a_list_stops_being_made_at_the_deadline() {
        let program = Program::build("C|L", |p| Instance::new(p, 1, 4, 4)).unwrap();
        let blocks = Blocks::new(program, 20);
        let space = Space::new(&blocks);
        let root = space.start();
        let count = space.successor_count(&root);
        assert_eq!(count, 4845.0);
        let over = Budget::default().at_most(std::time::Duration::ZERO);
        assert!(matches!(Frame::of(&space, &root, count, &over), Err(Stop::TimeLimit)));
        assert_eq!(Frame::of(&space, &root, count, &Budget::default()).unwrap().ends.len(), 4845);
    }

    /// The count taken before listing equals the list's length, along random schedules of
    /// a few block shapes (states with several classes per unit and capped sigmas).
    #[test]
    fn successor_count_is_the_list_length() {
        for (kernel, w, b, sl, sc) in [("LLC|CL", 2, 3, 1, 2), ("CLCL|LLC|C", 3, 4, 2, 4), ("LC", 1, 5, 3, 1), ("L|L|C", 4, 2, 2, 3)] {
            let program = Program::build(kernel, |p| Instance::new(p, w, sl, sc)).unwrap();
            let blocks = Blocks::new(program, b);
            let space = Space::new(&blocks);
            let mut rng = SmallRng::seed_from_u64(7);
            let mut state = space.start();
            while !state.iter().all(|x| space.done(x)) {
                let next = space.successors(&state);
                assert_eq!(space.successor_count(&state), next.len() as f64, "{kernel} at {state:?}");
                state = next[rng.random_range(0..next.len())].1.clone();
            }
        }
    }
}
