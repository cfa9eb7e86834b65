//! The dispatch rules on the real SMs (one run): the head job's next block goes, as
//! soon as possible and not before its job's `ready` time or the previous dispatch, to
//! an SM with room for it (threads, a block slot, shared memory, and its warps in the
//! sub-partitions' registers). Used for the nominal run (`simulated_finish`, the SVG)
//! and, with random block times and SM choices, to test the reported bounds.

use crate::rta::copy_engine::{CopyEngine, CopyRun, Direction};
use crate::rta::gpu::{Capacity, Placement, Platform};
use crate::rta::jobs::{Class, Job};
use crate::rta::time::Ticks;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One block of a per-SM run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SmRun {
    /// Index of the job in the sequence the run was given.
    pub job: usize,
    /// SM, 0-based.
    pub sm: usize,
    /// Row within the SM (the lowest row free at the block's start), for drawing.
    pub lane: usize,
    /// Dispatch time.
    pub start: Ticks,
    /// Completion time.
    pub end: Ticks,
}

/// A running block: its end, SM, class, lane and where its warps went.
type RunningBlock = Reverse<(Ticks, usize, usize, usize, Placement)>;

/// What a run gives: each job's finish (of its copy out if it has one, else of its
/// kernel) and, when asked, every block's and every copy's run.
#[derive(Debug, Clone, Default)]
pub struct SmsRun {
    /// Each job's finish.
    pub finish: Vec<Ticks>,
    /// Every block (with `timeline`).
    pub blocks: Vec<SmRun>,
    /// Every copy (with `timeline`).
    pub copies: Vec<CopyRun>,
    /// With time slicing, who held the GPU when (with `timeline`).
    pub slices: Vec<crate::rta::time_slices::SliceRun>,
}

/// Runs the dispatch rules on `jobs` (each priority's queue in the order its kernels
/// enter it, kernels entering together in the given order; classes exact; a job enters
/// no queue before its stream predecessor's finish; a low job's block only while no high job waits, A2; copies
/// through one FIFO copy engine, C1-C4, a job's copy in before its kernel enters the EE
/// queue and its copy out after its kernel): `duration(job, block)` is a block's time
/// (at most its job's `wcet`), `choose` picks among the SMs with room (their indices,
/// increasing). Returns each job's finish and, with `timeline`, every block's and
/// copy's run.
pub fn simulate_sms(
    jobs: &[Job],
    classes: &[Class],
    platform: &Platform,
    duration: &mut dyn FnMut(usize, u64) -> Ticks,
    choose: &mut dyn FnMut(&[usize], &[Capacity]) -> usize,
    timeline: bool,
) -> SmsRun {
    let n = platform.sms() as usize;
    let mut free = vec![platform.capacity(); n];
    let mut lanes: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut running: BinaryHeap<RunningBlock> = BinaryHeap::new();
    let (mut t, mut run, mut room) = (Ticks::ZERO, SmsRun { finish: vec![Ticks::ZERO; jobs.len()], ..SmsRun::default() }, Vec::new());
    let complete = |until: Ticks, running: &mut BinaryHeap<RunningBlock>, free: &mut [Capacity], lanes: &mut [Vec<bool>]| {
        while let Some(&Reverse((end, sm, c, lane, placed))) = running.peek() {
            if end > until {
                break;
            }
            running.pop();
            free[sm].give(&classes[c].demand, &placed);
            lanes[sm][lane] = false;
        }
    };
    let mut streams = Streams::new(jobs);
    // Each EE queue's head (the high queue's, then the low queue's) and the blocks it has dispatched.
    let (mut head, mut block, mut finish) = ([None::<(Ticks, usize)>; 2], [0u64; 2], vec![Ticks::ZERO; jobs.len()]);
    loop {
        // The copy engine up to now: each copy's completion may let its stream go on.
        while let Some(copy) = streams.engine.start_next(t) {
            streams.copied(copy, &mut run, timeline);
        }
        // Each queue's head: the job being dispatched, else the first to enter (a job's
        // kernel enters at its ready time, once its stream predecessor and its copy in,
        // if any, completed; ties in the given order). Entries not yet known are later.
        for (h, entered) in head.iter_mut().zip(&mut streams.entered) {
            if h.is_none() && entered.first().is_some_and(|&(e, _)| e <= t) {
                *h = entered.pop_first();
            }
        }
        let entries = [0, 1].map(|q| head[q].or(streams.entered[q].first().copied()).map(|(e, _)| e));
        // The head of the high queue if it has entered, else the low queue's (A2).
        let Some(q) = (0..2).find(|&q| entries[q].is_some_and(|e| e <= t)) else {
            let next = entries.iter().flatten().copied().chain(streams.engine.next_start()).min();
            match next {
                Some(e) => {
                    t = t.max(e);
                    complete(t, &mut running, &mut free, &mut lanes);
                    continue;
                }
                None => break,
            }
        };
        let ji = head[q].expect("the queue has a head").1;
        let j = &jobs[ji];
        let demand = &classes[j.class].demand;
        room.clear();
        room.extend((0..n).filter(|&s| free[s].fits(demand)));
        if room.is_empty() {
            let Reverse((end, ..)) = *running.peek().expect("a block that fits an empty SM waits only for running blocks");
            // A high job entering meanwhile goes first; a copy starting meanwhile may let one enter.
            let high = entries[0].filter(|_| q == 1);
            t = t.max([Some(end), high, streams.engine.next_start()].into_iter().flatten().min().unwrap_or(end));
            complete(t, &mut running, &mut free, &mut lanes);
            continue;
        }
        let sm = choose(&room, &free);
        let placed = free[sm].take(demand);
        let lane = lanes[sm].iter().position(|busy| !busy).unwrap_or(lanes[sm].len());
        if lane == lanes[sm].len() {
            lanes[sm].push(true);
        }
        lanes[sm][lane] = true;
        let end = t + duration(ji, block[q]);
        running.push(Reverse((end, sm, j.class, lane, placed)));
        finish[ji] = finish[ji].max(end);
        if timeline {
            run.blocks.push(SmRun { job: ji, sm, lane, start: t, end });
        }
        block[q] += 1;
        if block[q] == j.blocks {
            streams.kernel_done(ji, finish[ji], &mut run);
            (head[q], block[q]) = (None, 0);
        }
    }
    run
}

/// The streams of a run: which job follows which, the copy engine, and the kernels that
/// have entered (or will, at a known time) each EE queue.
struct Streams<'a> {
    jobs: &'a [Job],
    /// The next job in each job's stream.
    next: Vec<Option<usize>>,
    engine: CopyEngine,
    /// Per EE queue (high, low), the kernels whose entry is known and that are not yet
    /// its head: `(entry, job)`.
    entered: [std::collections::BTreeSet<(Ticks, usize)>; 2],
}

impl<'a> Streams<'a> {
    fn new(jobs: &'a [Job]) -> Streams<'a> {
        let mut next = vec![None; jobs.len()];
        for (i, j) in jobs.iter().enumerate() {
            if let Some(a) = j.after {
                next[a] = Some(i);
            }
        }
        let mut s = Streams { jobs, next, engine: CopyEngine::default(), entered: Default::default() };
        for (i, j) in jobs.iter().enumerate() {
            if j.after.is_none() {
                s.start(i, j.ready);
            }
        }
        s
    }

    /// Job `i` reaches the head of its stream at `at`: its copy in enters the CE queue,
    /// or without one its kernel its EE queue.
    fn start(&mut self, i: usize, at: Ticks) {
        let j = &self.jobs[i];
        if j.copy_in > Ticks::ZERO {
            self.engine.enter(at.max(j.ready), i as u64, i, Direction::In, j.copy_in);
        } else {
            self.enter(i, at);
        }
    }

    /// Job `i`'s kernel enters its EE queue at `at` (or its ready time, if later).
    fn enter(&mut self, i: usize, at: Ticks) {
        let j = &self.jobs[i];
        self.entered[j.priority.queue()].insert((at.max(j.ready), i));
    }

    /// Job `i`'s kernel ends at `f` (its last block dispatched).
    fn kernel_done(&mut self, i: usize, f: Ticks, run: &mut SmsRun) {
        let j = &self.jobs[i];
        if j.copy_out > Ticks::ZERO {
            self.engine.enter(f, i as u64, i, Direction::Out, j.copy_out);
        } else {
            self.job_done(i, f, run);
        }
    }

    fn job_done(&mut self, i: usize, f: Ticks, run: &mut SmsRun) {
        run.finish[i] = f;
        if let Some(k) = self.next[i] {
            self.start(k, f);
        }
    }

    /// A copy has started (its completion is known).
    fn copied(&mut self, copy: CopyRun, run: &mut SmsRun, timeline: bool) {
        if timeline {
            run.copies.push(copy);
        }
        match copy.direction {
            Direction::In => self.enter(copy.job, copy.end),
            Direction::Out => self.job_done(copy.job, copy.end, run),
        }
    }
}

/// The nominal SM choice: the SM with the most free threads, the lowest index on ties.
pub fn most_free_threads(room: &[usize], free: &[Capacity]) -> usize {
    *room.iter().max_by_key(|&&s| (free[s].free_threads(), Reverse(s))).expect("called with at least one SM")
}
