//! The dispatch rules on the real SMs (one run): the head job's next block goes, as
//! soon as possible and not before its job's `ready` time or the previous dispatch, to
//! an SM with room for it (threads, a block slot, shared memory, and its warps in the
//! sub-partitions' registers). Used for the nominal run (`simulated_finish`, the SVG)
//! and, with random block times and SM choices, to test the reported bounds.

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

/// Runs the dispatch rules on `jobs` (in the given order, classes exact; a job whose
/// stream predecessor ran earlier in `jobs` starts no block before that one's finish):
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
    for (ji, j) in jobs.iter().enumerate() {
        let demand = &classes[j.class].demand;
        // A job enters the queue once its stream predecessor (if run earlier) completed.
        t = t.max(j.after.and_then(|a| done.get(&a)).map_or(j.ready, |&f| j.ready.max(f)));
        complete(t, &mut running, &mut free, &mut lanes);
        let mut finish = 0;
        for b in 0..j.blocks {
            loop {
                room.clear();
                room.extend((0..n).filter(|&s| free[s].fits(demand)));
                if !room.is_empty() {
                    break;
                }
                let Reverse((end, ..)) = *running.peek().expect("a block that fits an empty SM waits only for running blocks");
                t = t.max(end);
                complete(t, &mut running, &mut free, &mut lanes);
            }
            let sm = choose(&room, &free);
            let placed = free[sm].take(demand);
            let lane = lanes[sm].iter().position(|busy| !busy).unwrap_or(lanes[sm].len());
            if lane == lanes[sm].len() {
                lanes[sm].push(true);
            }
            lanes[sm][lane] = true;
            let end = t + duration(ji, b);
            running.push(Reverse((end, sm, j.class, lane, placed)));
            finish = finish.max(end);
            if timeline {
                runs.push(SmRun { job: ji, sm, lane, start: t, end });
            }
        }
        done.insert(j.id, finish);
        out.push(finish);
    }
    (out, runs)
}

/// The nominal SM choice: the SM with the most free threads, the lowest index on ties.
pub fn most_free_threads(room: &[usize], free: &[Capacity]) -> usize {
    *room.iter().max_by_key(|&&s| (free[s].free_threads(), Reverse(s))).expect("called with at least one SM")
}
