//! List schedules of the FIFO dispatch rules on block slots: the chapter's Algorithm 2
//! and its corrected closed form (one block demand), the list schedule with a static
//! slot threshold per kernel (the simple safe bound for mixed demands), and the list
//! schedule the analysis reports ([`finishes`]), whose threshold follows the blocks that
//! are actually running. Each is a safe bound on the GPU's dispatch rules; see
//! [`crate::rta::analysis`] for the proof and `docs/rta-model.md`.

use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::{Class, Job, Residents};
use crate::rta::room;
use crate::rta::time::Ticks;
use crate::rta::workload::Task;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// One block of a slot list schedule's timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BlockRun {
    /// Index of the kernel in the given order.
    pub kernel: usize,
    /// Slot, 0-based.
    pub slot: usize,
    /// Dispatch time.
    pub start: Ticks,
    /// Completion time.
    pub end: Ticks,
}

/// The chapter's Algorithm 2 on `g_max` slots, tasks in the given order, with the steps
/// its text and example rely on: the pair taken by `min(h)` is removed from `h`, pairs
/// at equal times merge, no `(t, 0)` pairs, and (added) a kernel does not dispatch
/// before its release. `h` maps a time to the number of slots that become free then.
/// Returns `f_i` per task.
pub fn list_schedule(tasks: &[Task], g_max: u64) -> Vec<Ticks> {
    let mut h: BTreeMap<Ticks, u64> = BTreeMap::new();
    let (mut t_a, mut g_f) = (Ticks::ZERO, g_max);
    let mut out = Vec::with_capacity(tasks.len());
    for k in tasks {
        if k.release > t_a {
            t_a = k.release;
            // Slots freed up to the release are free at t_a.
            while let Some(entry) = h.first_entry() {
                if *entry.key() > t_a {
                    break;
                }
                g_f += entry.remove();
            }
        }
        let mut left = k.blocks;
        loop {
            if g_f == 0 {
                let (t, n) = h.pop_first().expect("occupied slots are tracked in h");
                t_a = t_a.max(t);
                g_f = n;
            }
            let now = left.min(g_f);
            *h.entry(t_a + k.wcet).or_default() += now;
            g_f -= now;
            left -= now;
            if left == 0 {
                out.push(t_a + k.wcet);
                break;
            }
        }
    }
    out
}

/// The list schedule with a slot threshold per task: each block, in the given order,
/// starts at the first time, not before its kernel's release nor before the previous
/// block's start, when fewer than `slots[k]` earlier blocks are still running. With
/// every threshold `g` this is the FIFO schedule of `g` identical slots (the plain
/// simulation of Algorithm 2's model). Returns `f_i` per task and, with `timeline`, the
/// blocks (each in the lane that freed earliest).
pub fn simulate_slots(tasks: &[Task], slots: &[u64], timeline: bool) -> (Vec<Ticks>, Vec<BlockRun>) {
    let n_lanes = slots.iter().copied().max().unwrap_or(1) as usize;
    let mut lanes: BinaryHeap<Reverse<(Ticks, usize)>> =
        if timeline { (0..n_lanes).map(|l| Reverse((Ticks::ZERO, l))).collect() } else { BinaryHeap::new() };
    let mut ends: BinaryHeap<Reverse<Ticks>> = BinaryHeap::new();
    let (mut runs, mut out, mut last) = (Vec::new(), Vec::with_capacity(tasks.len()), Ticks::ZERO);
    let drop_until = |t: Ticks, ends: &mut BinaryHeap<Reverse<Ticks>>| {
        while ends.peek().is_some_and(|&Reverse(e)| e <= t) {
            ends.pop();
        }
    };
    for (ki, k) in tasks.iter().enumerate() {
        let mut finish = Ticks::ZERO;
        for _ in 0..k.blocks {
            let mut t = k.release.max(last);
            drop_until(t, &mut ends);
            while ends.len() as u64 >= slots[ki] {
                let Reverse(e) = ends.pop().expect("non-empty");
                t = t.max(e);
                drop_until(t, &mut ends);
            }
            let end = t + k.wcet;
            ends.push(Reverse(end));
            last = t;
            finish = finish.max(end);
            if timeline {
                let Reverse((free, lane)) = lanes.pop().expect("one lane per slot");
                debug_assert!(free <= t, "fewer running blocks than lanes");
                lanes.push(Reverse((end, lane)));
                runs.push(BlockRun { kernel: ki, slot: lane, start: t, end });
            }
        }
        out.push(finish);
    }
    (out, runs)
}

/// The slot threshold of each task (in launch order) for the safe list schedule:
/// `#SMs * k_i` with `k_i` = [`room::beside`]`(d_i, E_i)` (in each scenario, the least
/// over the resources of `1 + floor((cap_r - need_r(d_i)) / E_i,r)`, greedy registers
/// also counted in `d_i`'s warps, and the block limit), where `E_i` is the envelope of
/// the demands of tasks `0..=i` (the only blocks that can run when a block of task `i`
/// dispatches). When fewer than `#SMs * k_i` blocks run,
/// some SM runs at most `k_i - 1`, each using at most `E_i`, so a block of task `i`
/// fits there ([`room::beside`]). With one demand `d` this is `#SMs * fit(d)`.
pub fn slot_thresholds(demands: &[Demand], platform: &Platform) -> Vec<u64> {
    let mut envelope: Option<Demand> = None;
    let mut uniform = true;
    demands
        .iter()
        .map(|d| {
            uniform &= envelope.is_none_or(|e| e == *d);
            let e = envelope.map_or(*d, |e| e.envelope(*d));
            envelope = Some(e);
            platform.sms() * if uniform { room::fit(platform, d) } else { room::beside(platform, d, &e) }
        })
        .collect()
}

/// The chapter's special case (all kernels released at 0 with the same `C`), corrected:
/// `g_i <= g_f`: `f_i = t_a + C`; otherwise `f_i = t_a + C (1 + ceil((g_i - g_f)/g_max))`.
/// Returns `f_i` for each kernel's block count in `blocks`.
pub fn closed_form_equal_c(blocks: &[u64], g_max: u64, c: Ticks) -> Vec<Ticks> {
    let (mut t_a, mut g_f) = (Ticks::ZERO, g_max);
    let mut out = Vec::with_capacity(blocks.len());
    for &g in blocks {
        if g <= g_f {
            out.push(t_a + c);
            g_f -= g;
        } else {
            let waves = (g - g_f).div_ceil(g_max);
            out.push(t_a + c * (1 + waves) as u128);
            t_a += c * waves as u128;
            g_f = waves * g_max - (g - g_f);
        }
        if g_f == 0 {
            t_a += c;
            g_f = g_max;
        }
    }
    out
}

/// Blocks running in a list schedule: their ends, how many of each class run, and the
/// weights of [`room::weights`] met so far (per head class and running class, only
/// those met: a matrix over every class cost `n^2` per list, found by a cold review).
struct Running {
    ends: BinaryHeap<Reverse<(Ticks, usize)>>,
    count: Vec<u64>,
    active: Vec<usize>,
    weights: std::collections::HashMap<(usize, usize), Option<u128>>,
    /// The current job's [`Job::residents`], each with the time until which it may run
    /// (dropped once it has passed).
    residents: Vec<(usize, u64, Ticks)>,
}

/// Most answers [`PLACEMENTS`] keeps (cleared beyond; a few hundred bytes each).
const MAX_PLACEMENTS: usize = 1 << 16;

/// A question of [`Running::room_by_placement`]: the head's class and the running
/// classes with their counts (in class order).
type Placement = (Class, Vec<(Class, u64)>);

thread_local! {
    /// Answers of [`Running::room_by_placement`] for one platform, kept over every list
    /// schedule of the thread: the orders tried for one set ask the same questions. Each
    /// answer is a function of the platform and the question alone.
    static PLACEMENTS: std::cell::RefCell<(Option<Platform>, rustc_hash::FxHashMap<Placement, bool>)> = std::cell::RefCell::default();
}

impl Running {
    fn new(classes: usize) -> Running {
        Running {
            ends: BinaryHeap::new(),
            count: vec![0; classes],
            active: Vec::new(),
            weights: std::collections::HashMap::new(),
            residents: Vec::new(),
        }
    }

    /// The blocks of `residents` run (beside those started), each of time `C` until
    /// `max(entry, min(entry + C, until))`, counted with the running blocks of their
    /// classes; those of an earlier job no longer count.
    fn set_residents(&mut self, residents: &Residents, entry: Ticks, until: Ticks) {
        for (c, n, _) in std::mem::take(&mut self.residents) {
            self.remove(c, n);
        }
        for (c, time, n) in residents.iter() {
            self.add(c, n);
            self.residents.push((c, n, entry.max((entry + time).min(until))));
        }
    }

    /// The next time a block ends (a resident's included), if any runs.
    fn next_end(&self) -> Option<Ticks> {
        let resident = self.residents.iter().map(|&(_, _, end)| end);
        self.ends.peek().map(|&Reverse((e, _))| e).into_iter().chain(resident).min()
    }

    /// Forgets the blocks that end by `t`.
    fn end_until(&mut self, t: Ticks) {
        for (c, n, _) in self.residents.extract_if(.., |&mut (_, _, end)| end <= t).collect::<Vec<_>>() {
            self.remove(c, n);
        }
        while let Some(&Reverse((e, c))) = self.ends.peek() {
            if e > t {
                break;
            }
            self.ends.pop();
            self.remove(c, 1);
        }
    }

    fn start(&mut self, end: Ticks, c: usize) {
        self.ends.push(Reverse((end, c)));
        self.add(c, 1);
    }

    /// Counts `n` more running blocks of class `c`.
    fn add(&mut self, c: usize, n: u64) {
        if self.count[c] == 0 && n > 0 {
            self.active.push(c);
        }
        self.count[c] += n;
    }

    /// Counts `n` fewer running blocks of class `c`.
    fn remove(&mut self, c: usize, n: u64) {
        self.count[c] -= n;
        if self.count[c] == 0 {
            self.active.retain(|&a| a != c);
        }
    }

    /// How many blocks run, the residents included.
    fn running(&self) -> u64 {
        self.ends.len() as u64 + self.residents.iter().map(|&(_, n, _)| n).sum::<u64>()
    }

    /// Whether a block of class `c` surely finds an SM with room, whatever SMs the
    /// running blocks went to: fewer than `#SMs * k` blocks run, with `k = fit(d)` when
    /// every running block has exactly `c`'s demand, else [`room::beside`] the envelope
    /// of the running classes; or the running blocks' weights ([`room::weights`], head
    /// `c`) sum to less than `#SMs`; or the placement forms ([`Running::room_by_placement`]). Each suffices: with
    /// no room for `c` on any SM, each SM runs at least `k` blocks and its blocks weigh at
    /// least 1.
    fn has_room(&mut self, c: usize, classes: &[Class], p: &Platform) -> bool {
        self.counted_room(c, classes, p) || self.weighed_room(c, classes, p) || self.room_by_placement(c, classes, p)
    }

    /// [`room_on_every_sm`] or [`room_on_some_sm`] for the running classes and counts,
    /// remembered per platform over the thread's list schedules ([`PLACEMENTS`]).
    fn room_by_placement(&self, c: usize, classes: &[Class], p: &Platform) -> bool {
        let mut active = self.active.clone();
        active.sort_unstable();
        let running: Vec<(Class, u64)> = active.iter().map(|&a| (classes[a], self.count[a])).collect();
        let key = (classes[c], running);
        let known = PLACEMENTS.with(|m| {
            let m = m.borrow();
            m.0.filter(|q| q == p).and_then(|_| m.1.get(&key).copied())
        });
        if let Some(known) = known {
            return known;
        }
        let known = room_on_every_sm(&key, p) || room_on_some_sm(&key, p);
        PLACEMENTS.with(|m| {
            let mut m = m.borrow_mut();
            if m.0 != Some(*p) || m.1.len() >= MAX_PLACEMENTS {
                *m = (Some(*p), rustc_hash::FxHashMap::default());
            }
            m.1.insert(key, known);
        });
        known
    }

    /// The weighted form of [`Running::has_room`]; false where the profile leaves no
    /// weights ([`room::weights`]: blocks confined to half an SM).
    fn weighed_room(&mut self, c: usize, classes: &[Class], p: &Platform) -> bool {
        let mut sum = 0u128;
        for &a in &self.active {
            let w = *self.weights.entry((c, a)).or_insert_with(|| room::weights(p, &[classes[c].demand], &[classes[a].demand]).map(|w| w[0]));
            let Some(w) = w else { return false };
            sum = sum.saturating_add(w.saturating_mul(u128::from(self.count[a])));
        }
        sum < u128::from(p.sms()).saturating_mul(room::WEIGHT_ONE)
    }

    /// The counted form of [`Running::has_room`].
    fn counted_room(&self, c: usize, classes: &[Class], p: &Platform) -> bool {
        let new = &classes[c];
        let alike = new.exact && self.active.iter().all(|&a| classes[a].exact && classes[a].demand == new.demand);
        let k = if alike {
            room::fit(p, &new.demand)
        } else {
            let e = self.active.iter().fold(new.demand, |e, &a| e.envelope(classes[a].demand));
            room::beside(p, &new.demand, &e)
        };
        self.running() < p.sms().saturating_mul(k)
    }
}

/// The placement form of [`Running::has_room`]: every running class exact, and no
/// placement of the running blocks leaves every SM without room for the head's block
/// ([`room::some_sm_has_room`]).
fn room_on_some_sm((head, running): &Placement, p: &Platform) -> bool {
    if !running.iter().all(|(class, _)| class.exact) {
        return false;
    }
    let running: Vec<(Demand, u64)> = running.iter().map(|&(class, n)| (class.demand, n)).collect();
    room::some_sm_has_room(p, &head.demand, &running)
}

/// The per-SM form of [`Running::has_room`]: the head's block has room beside as many
/// running blocks as one SM can hold ([`room::beside_every_sm`]; of an exact class at
/// most its [`room::most`], and no more of a class than run), so every SM has room.
fn room_on_every_sm((head, running): &Placement, p: &Platform) -> bool {
    let per_sm: Vec<(Demand, u64)> =
        running.iter().map(|&(class, n)| (class.demand, if class.exact { n.min(room::most(p, &class.demand)) } else { n })).collect();
    room::beside_every_sm(p, &head.demand, &per_sm)
}

/// When job `j` may dispatch in a list schedule: its `ready`, or the finish there of its
/// stream predecessor if later (`done`: the finishes so far, by job id), plus its
/// `blocking` but not past its `blocked_until` (nor before that entry) unless it has
/// [`Job::residents`] (then its blocks may start beside them from its entry); the stream
/// wait no later than its `entered_by`.
pub(crate) fn entry_in_list(j: &Job, done: &std::collections::HashMap<usize, Ticks>) -> Ticks {
    after_blocking(j, stream_entry(j, done))
}

/// When job `j`, entering a list schedule at `entry` (its [`stream_entry`]), may start
/// its blocks: at `entry` with [`Job::residents`], else once its `blocking` ends (module
/// [`crate::rta::priority`]): `entry` plus its `blocking`, but not past its
/// `blocked_until` (nor before `entry`).
fn after_blocking(j: &Job, entry: Ticks) -> Ticks {
    if j.residents.is_empty() {
        entry.max((entry + j.blocking).min(j.blocked_until))
    } else {
        entry
    }
}

/// Job `j`'s entry in a list schedule before any blocking: its `ready`, or its stream
/// predecessor's finish there if later, but no later than its `entered_by`.
fn stream_entry(j: &Job, done: &std::collections::HashMap<usize, Ticks>) -> Ticks {
    j.after.and_then(|a| done.get(&a)).map_or(j.ready, |&f| j.ready.max(f).min(j.entered_by.max(j.ready)))
}

/// The reported list schedule: jobs in the given (launch) order, each block starting at
/// the first time, not before its job's `ready` nor the previous block's start, at which
/// `Running::has_room` holds for the blocks of the list schedule still running.
/// Returns the finish of each job (in the given order).
///
/// It bounds the GPU (proof in [`crate::rta::analysis`]): the real blocks running when
/// a list block starts are among the list blocks running then, with demands at most
/// their classes'. Blocks of kernels that have finished no longer count, so a large
/// early kernel does not hold back later small ones (the static thresholds of
/// [`slot_thresholds`] keep every earlier demand).
///
/// A job whose stream predecessor (`after`) comes earlier in `jobs` is not dispatched
/// before that one's finish in this schedule (it enters the GPU's queue only then; the
/// list finish bounds the real one, by the same induction); its `blocking` is added to
/// its entry, or with [`Job::residents`] they count as running blocks from its entry
/// until its blocking ends (proof in [`crate::rta::priority`]).
pub fn finishes(jobs: &[Job], classes: &[Class], p: &Platform) -> Vec<Ticks> {
    run(jobs, classes, p, &mut |_, _| ())
}

/// The start of each block of each job (in the given order; a job's blocks in their
/// dispatch order, so not decreasing) in the list schedule of [`finishes`]. Where `jobs`
/// is the order in which the jobs really enter the queue (one order: no ties to try), by
/// the induction of [`finishes`] (the real `i`-th block of the queue starts no later
/// than the list's `i`-th) the real `m`-th block of a job starts by its `m`-th start
/// here, so it has ended by that start plus the job's `C`. With the finishes of
/// [`finishes`] (the same list).
pub fn block_starts(jobs: &[Job], classes: &[Class], p: &Platform) -> (Vec<Ticks>, Vec<Vec<Ticks>>) {
    block_starts_beside(jobs, classes, p, Ticks::ZERO, &[])
}

/// [`block_starts`] with no block starting before `from`, and the blocks of `beside`
/// (each its end and class) counted as running in every room check until their ends.
/// What this bounds rests on the caller's proof (`crate::rta::low_alone`: the high blocks
/// that may run beside the low queue once the high queue is empty for good).
pub fn block_starts_beside(jobs: &[Job], classes: &[Class], p: &Platform, from: Ticks, beside: &[(Ticks, usize)]) -> (Vec<Ticks>, Vec<Vec<Ticks>>) {
    let mut starts: Vec<Vec<Ticks>> = jobs.iter().map(|j| Vec::with_capacity(j.blocks as usize)).collect();
    let finish = run_beside(jobs, classes, p, from, beside, &mut |k, t| starts[k].push(t));
    (finish, starts)
}

/// How many of a job's blocks, started at `starts` (not decreasing, as
/// [`block_starts`] gives them) and each taking at most `c`, may still run after the
/// instant `y`: those with `s + c > y`.
pub fn still_running(starts: &[Ticks], c: Ticks, y: Ticks) -> u64 {
    (starts.len() - starts.partition_point(|&s| s.saturating_add(c) <= y)) as u64
}

/// The list schedule of [`finishes`], telling `started` each block's job (its place in
/// `jobs`) and start.
fn run(jobs: &[Job], classes: &[Class], p: &Platform, started: &mut dyn FnMut(usize, Ticks)) -> Vec<Ticks> {
    run_beside(jobs, classes, p, Ticks::ZERO, &[], started)
}

/// [`run`] from `from` on, beside the blocks of `beside` ([`block_starts_beside`]).
fn run_beside(jobs: &[Job], classes: &[Class], p: &Platform, from: Ticks, beside: &[(Ticks, usize)], started: &mut dyn FnMut(usize, Ticks)) -> Vec<Ticks> {
    let mut running = Running::new(classes.len());
    for &(end, c) in beside.iter().filter(|&&(end, _)| end > from) {
        running.start(end, c);
    }
    let mut last = from;
    let mut out = Vec::with_capacity(jobs.len());
    let mut done: std::collections::HashMap<usize, Ticks> = std::collections::HashMap::new();
    for (k, j) in jobs.iter().enumerate() {
        let mut finish = Ticks::ZERO;
        let entry = stream_entry(j, &done);
        let ready = after_blocking(j, entry);
        running.set_residents(&j.residents, entry, j.blocked_until);
        for _ in 0..j.blocks {
            let mut t = ready.max(last);
            running.end_until(t);
            while !running.has_room(j.class, classes, p) {
                let e = running.next_end().expect("an empty GPU has room for any checked block");
                t = t.max(e);
                running.end_until(t);
            }
            running.start(t + j.wcet, j.class);
            started(k, t);
            last = t;
            finish = finish.max(t + j.wcet);
        }
        done.insert(j.id, finish);
        out.push(finish);
    }
    out
}
