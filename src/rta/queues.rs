//! The EE queues as the analysis sees them: the stream-wait fixpoint (a job enters its
//! queue only once the job before it in its stream has completed) over one FIFO queue
//! ([`crate::rta::ties`]: every launch order the GPU leaves free, or a bound) or, with
//! stream priorities, two queues ([`crate::rta::priority`]).

use crate::error::InputError;
use crate::rta::gpu::Platform;
use crate::rta::jobs::{free_groups, Job, Sequence};
use crate::rta::priority::{two_queues, worst_two_queues, MAX_POOLED_WORK};
use crate::rta::ties::{worst_for, Ties};
use crate::rta::time::Ticks;
use std::ops::Range;

/// Per job (indices of the nominal sequence): the reported finish, and for jobs in a
/// free group, the group's order (job indices) that attains it.
#[derive(Debug, Clone)]
pub struct Worst {
    /// Reported finish of each job.
    pub finish: Vec<Ticks>,
    /// The launch order of the job's tie group that gives its finish (`None` when not tied,
    /// or under the bound).
    pub order: Vec<Option<Vec<usize>>>,
    /// How ties were handled.
    pub ties: Ties,
    /// The jobs as analysed, in nominal order: each `ready` the latest time it may enter
    /// the GPU's queue (its release plus the launch overhead, or its stream
    /// predecessor's reported finish if later).
    pub jobs: Vec<Job>,
    /// The groups of `jobs` whose order on the queue is free (with two queues, each job
    /// of a free group of its queue as a group of its own).
    pub groups: Vec<Range<usize>>,
    /// Per job: a job released up to this time may change its reported finish (its latest
    /// entry, or with two queues for a low job, the bound `D` of
    /// [`crate::rta::priority`]).
    pub reach: Vec<Ticks>,
    /// Whether the jobs use both EE queues (stream priorities, [`crate::rta::priority`]).
    pub two_queues: bool,
}

/// Most rounds of the stream-backlog fixpoint ([`worst_over_orders`]).
pub const MAX_ROUNDS: usize = 200;

/// The worst finish of every job over the queue orders the GPU leaves free.
///
/// **Streams.** A job enters the queue once released (plus up to the launch overhead)
/// *and* once the job before it in its stream has completed. With `F` the reported
/// finishes, job `j` enters by `max(r_j + L, F_pred(j))`: that is its `ready`, and jobs
/// released before it may enter may pass it, so the free groups are recomputed with it
/// ([`crate::rta::jobs::free_groups`]). Starting from the finishes without stream waits,
/// the readies and groups only grow (each round's readies are kept at least the previous
/// round's: a later bound on an entry is still one), and the finishes with them; the
/// rounds stop when nothing changes, with `ready >= max(r_j + L, F_pred(j))`.
///
/// Why every real job then enters by its `ready` and ends by `F`: take the earliest
/// broken promise, a promise being "job `k` enters by `ready_k`" or "job `a` ends by
/// `F_a`". A broken entry promise means the stream predecessor's finish promise broke no
/// later. Each finish bound rests only on entry promises due strictly before it: with
/// one queue the entries of the jobs in the list schedule before `F_a`; with two queues
/// the entries in a pool (by the list's last start `< F_a`), the jobs before a quiet
/// point (`q <= r_a`), and for a high job its entries plus `B` (before `F_a`). So no
/// promise is the first broken. The list schedule's proof then applies, over the orders
/// tried; orders that put a job before its stream predecessor are never tried (they
/// cannot happen). Rounds that do not settle end in an error, never in a bound.
pub fn worst_over_orders(seq: &Sequence, p: &Platform) -> Result<Worst, InputError> {
    let mut groups = seq.free_ties.clone();
    let mut late: Vec<Ticks> = seq.jobs.iter().map(|j| j.ready).collect();
    let queues = two_queues(&seq.jobs);
    let (mut budget, mut highs) = (MAX_POOLED_WORK, None);
    for _ in 0..MAX_ROUNDS {
        let (finish, order, ties, reach, tied) = if queues {
            let q = worst_two_queues(&seq.jobs, &late, seq.order, &seq.classes, p, &mut budget, &mut highs).ok_or_else(|| {
                InputError::new(
                    "kernels",
                    format!("{} jobs", seq.jobs.len()),
                    format!("the analysis of the two priority queues needs more than {MAX_POOLED_WORK} block steps (the GPU may not keep up with the kernels' periods): give a shorter window, longer periods or fewer jobs"),
                )
            })?;
            let tied = q.tied.iter().enumerate().filter(|(_, &t)| t).map(|(i, _)| i..i + 1).collect();
            (q.finish, q.order, q.ties, q.reach, Some(tied))
        } else {
            let (finish, order, ties) = worst_for(&seq.jobs, &groups, &late, &seq.classes, p);
            (finish, order, ties, late.clone(), None)
        };
        // Never below the previous round's (the quiet points of two queues make a round's
        // finishes not monotone in the entries; a larger entry bound is still one).
        let next: Vec<Ticks> = seq.jobs.iter().map(|j| late[j.id].max(j.after.map_or(j.ready, |a| j.ready.max(finish[a])))).collect();
        let next_groups = free_groups(&seq.jobs, seq.order, &|j: &Job| next[j.id]);
        if next == late && next_groups == groups {
            let jobs = seq.jobs.iter().map(|j| Job { ready: late[j.id], ..*j }).collect();
            let groups = tied.unwrap_or(groups);
            return Ok(Worst { finish, order, ties, jobs, groups, reach, two_queues: queues });
        }
        (late, groups) = (next, next_groups);
    }
    Err(InputError::option(
        "window",
        "set",
        format!("the analysis of the streams' waits did not settle in {MAX_ROUNDS} rounds: the kernels may not keep up with their periods; give a shorter window or longer periods"),
    ))
}
