//! A low job whose blocks are all assigned before any high job arrives.
//!
//! Under two EE queues ([`crate::rta::priority`]) a low job's bounds weigh the high jobs
//! that may come into its window. But from a quiet point `q` (every job released before
//! it is done by then: from the list of all jobs or from the bounds, `Pool::quiet_points`
//! and `Pool::quiet_by_bounds`) until the first release `r_h` of a high job
//! at or after `q`, the GPU runs only low jobs released from `q` on, through one FIFO
//! queue: the single queue of [`crate::rta::analysis`]. [`before_any_high`] bounds each
//! low job there, and keeps the bound of a job whose last block that bound assigns
//! before `r_h`.

use crate::rta::gpu::Platform;
use crate::rta::jobs::{free_groups, Class, Job, Residents, TieOrder};
use crate::rta::list::finishes;
use crate::rta::ties::{worst_for, Entries};
use crate::rta::time::Ticks;
use crate::rta::workload::Priority;

/// Per job of `jobs` (the nominal sequence; `late[i]` the latest time job `i` may enter
/// its queue): for a low job released at or after the quiet point `q`, its finish bound
/// `F_l` among the low jobs alone (released from `q` on and before `r_h`, the first
/// release at or after `q` of a high job; every launch order of their free groups,
/// [`worst_for`], within the tie orders' `work`), where `F_l - C_l < r_h`; else
/// `Ticks::MAX`.
///
/// Proof. At `q` no block of a job released before `q` runs and none is left to assign
/// (the quiet point's premise), and until `r_h` no high job is in the system, so up to
/// `r_h` a real execution is the prefix of an execution of the low jobs released from `q`
/// on alone, on an empty GPU, through one FIFO queue (a low job released at or after
/// `r_h` enters after `r_h` and changes nothing before it). There `l`'s finish is at most
/// `F_l` (the single queue's bound: each job entering by its `ready` or its stream
/// predecessor's finish in the list, or within `late` where orders are tried; a
/// predecessor not among these jobs was released before `q`, so is done by then), and `l`'s last
/// block is assigned by `F_l - C_l`: in the execution with the same choices and that
/// block taking all of `C_l`, which the bound covers, it ends by `F_l`. With `F_l - C_l <
/// r_h` that assignment comes within the shared prefix, so `l`'s last block is assigned
/// by then in the real execution too, and `l` ends by `F_l - C_l + C_l`.
pub fn before_any_high(
    jobs: &[Job],
    late: &[Ticks],
    q: Ticks,
    order: TieOrder,
    classes: &[Class],
    p: &Platform,
    work: &mut u64,
) -> Vec<Ticks> {
    let mut out = vec![Ticks::MAX; jobs.len()];
    let first_high =
        jobs.iter().filter(|j| j.priority == Priority::High && j.release >= q).map(|j| j.release).min().unwrap_or(Ticks::MAX);
    let lows: Vec<usize> =
        (0..jobs.len()).filter(|&i| jobs[i].priority == Priority::Low && jobs[i].release >= q && jobs[i].release < first_high).collect();
    if lows.is_empty() {
        return out;
    }
    let index = |i: usize| lows.iter().position(|&k| k == i);
    let sub: Vec<Job> = lows
        .iter()
        .enumerate()
        .map(|(k, &i)| Job {
            id: k,
            after: jobs[i].after.and_then(index),
            blocking: Ticks::ZERO,
            blocked_until: Ticks::ZERO,
            residents: Residents::NONE,
            ..jobs[i]
        })
        .collect();
    let sub_late: Vec<Ticks> = lows.iter().map(|&i| late[i]).collect();
    let groups = free_groups(&sub, order, &|j: &Job| sub_late[j.id]);
    let finish =
        if groups.is_empty() { finishes(&sub, classes, p) } else { worst_for(&sub, &groups, Entries::late(&sub_late), order, classes, p, work).finish };
    for (k, &i) in lows.iter().enumerate() {
        if finish[k].saturating_sub(jobs[i].wcet) < first_high {
            out[i] = finish[k];
        }
    }
    out
}
