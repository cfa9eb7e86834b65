//! The dispatch rules on the real SMs (one run): the head job's next block goes, as
//! soon as possible and not before its job's `ready` time or the previous dispatch, to
//! an SM with room for it (threads, a block slot, shared memory, and its warps in the
//! sub-partitions' registers). Used for the nominal run (`simulated_finish`, the SVG)
//! and, with random block times and SM choices, to test the reported bounds.

use crate::rta::gpu::{Capacity, Placement, Platform};
use crate::rta::jobs::{Class, Job};
use crate::rta::time::Ticks;
use crate::rta::workload::Priority;
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

/// Runs the dispatch rules on `jobs` (in the given order within each priority's queue,
/// classes exact; a job whose stream predecessor ran earlier in `jobs` starts no block
/// before that one's finish; a low job's block only while no high job waits, A2):
/// `duration(job, block)` is a block's time (at most its job's `wcet`), `choose` picks
/// among the SMs with room (their indices, increasing). Returns each job's finish and,
/// with `timeline`, every block's run.
pub fn simulate_sms(
    jobs: &[Job],
    classes: &[Class],
    platform: &Platform,
    duration: &mut dyn FnMut(usize, u64) -> Ticks,
    choose: &mut dyn FnMut(&[usize], &[Capacity]) -> usize,
    timeline: bool,
) -> (Vec<Ticks>, Vec<SmRun>) {
    let n = platform.sms() as usize;
    let mut free = vec![platform.capacity(); n];
    let mut lanes: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut running: BinaryHeap<RunningBlock> = BinaryHeap::new();
    let (mut t, mut out, mut runs, mut room) = (0, Vec::with_capacity(jobs.len()), Vec::new(), Vec::new());
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
    let mut done: std::collections::HashMap<usize, Ticks> = std::collections::HashMap::new();
    // Each EE queue's jobs in the given order: the high queue's, then the low queue's.
    let levels: [Vec<usize>; 2] = [Priority::High, Priority::Low].map(|q| (0..jobs.len()).filter(|&i| jobs[i].priority == q).collect());
    let (mut cursor, mut block, mut finish) = ([0usize; 2], [0u64; 2], vec![0; jobs.len()]);
    out.resize(jobs.len(), 0);
    loop {
        // A job enters its queue at its ready time, and once its stream predecessor (if run
        // earlier) completed.
        let entry = |q: usize, done: &std::collections::HashMap<usize, Ticks>| {
            levels[q].get(cursor[q]).map(|&ji| {
                let j = &jobs[ji];
                j.after.and_then(|a| done.get(&a)).map_or(j.ready, |&f| j.ready.max(f))
            })
        };
        let entries = [entry(0, &done), entry(1, &done)];
        // The head of the high queue if it has entered, else the low queue's (A2).
        let Some(q) = (0..2).find(|&q| entries[q].is_some_and(|e| e <= t)) else {
            match entries.iter().flatten().min() {
                Some(&e) => {
                    t = t.max(e);
                    complete(t, &mut running, &mut free, &mut lanes);
                    continue;
                }
                None => break,
            }
        };
        let ji = levels[q][cursor[q]];
        let j = &jobs[ji];
        let demand = &classes[j.class].demand;
        room.clear();
        room.extend((0..n).filter(|&s| free[s].fits(demand)));
        if room.is_empty() {
            let Reverse((end, ..)) = *running.peek().expect("a block that fits an empty SM waits only for running blocks");
            // A high job entering meanwhile goes first.
            t = t.max(entries[0].filter(|_| q == 1).map_or(end, |e| e.min(end)));
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
            runs.push(SmRun { job: ji, sm, lane, start: t, end });
        }
        block[q] += 1;
        if block[q] == j.blocks {
            done.insert(j.id, finish[ji]);
            out[ji] = finish[ji];
            (cursor[q], block[q]) = (cursor[q] + 1, 0);
        }
    }
    (out, runs)
}

/// The nominal SM choice: the SM with the most free threads, the lowest index on ties.
pub fn most_free_threads(room: &[usize], free: &[Capacity]) -> usize {
    *room.iter().max_by_key(|&&s| (free[s].free_threads(), Reverse(s))).expect("called with at least one SM")
}
