//! The EE queues as the analysis sees them: the stream-wait fixpoint (a job enters its
//! queue only once the job before it in its stream has completed) over one FIFO queue
//! ([`crate::rta::ties`]: every launch order the GPU leaves free, or a bound) or, with
//! stream priorities, two queues ([`crate::rta::priority`]).

use crate::error::InputError;
use crate::rta::copies::{copy_finishes, CopyFinishes, MAX_COPY_WORK};
use crate::rta::gpu::Platform;
use crate::rta::jobs::{free_groups, Job, Sequence};
use crate::rta::queue_work::tightened_work_bounds;
use crate::rta::priority::{two_queues, worst_two_queues, Budget, MAX_POOL_SCANS};
use crate::rta::ties::{worst_for, Entries, Ties, MAX_GROUP};
use crate::rta::time::Ticks;
use std::ops::Range;

/// Per job (indices of the nominal sequence): the reported finish, and for jobs in a
/// free group, the group's order (job indices) that attains it.
#[derive(Debug, Clone)]
pub struct Worst {
    /// Reported finish of each job: of its copy out if it has one, else of its kernel.
    pub finish: Vec<Ticks>,
    /// Reported finish of each job's kernel (its last block).
    pub kernel_finish: Vec<Ticks>,
    /// With copies, the reported completion of each job's copies
    /// ([`crate::rta::copies`]); `None` when no job has a copy.
    pub copies: Option<CopyFinishes>,
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
    /// [`crate::rta::priority`]; with copies, at least the latest entry of each of its
    /// copies).
    pub reach: Vec<Ticks>,
    /// Whether the jobs use both EE queues (stream priorities, [`crate::rta::priority`]).
    pub two_queues: bool,
    /// Per job: its reported kernel finish is that of a list schedule that can happen
    /// (every job entering within its window, in an order tried; [`crate::rta::ties`]),
    /// with one queue; false otherwise.
    pub attained: Vec<bool>,
}

/// Most rounds of the stream-backlog fixpoint ([`worst_over_orders`]).
pub const MAX_ROUNDS: usize = 200;

/// Most jobs of one queue for which the list's finishes are also lowered by the queue's
/// work bound ([`tightened_work_bounds`]) when the launch orders are tried one by one or
/// there are no ties (above, the work bound's passes cost their square per round; with
/// too many orders to try it is always used).
pub const MAX_CHECKED_JOBS: usize = 256;

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
/// one queue the entries of the jobs in the list schedule before `F_a` (and, for the
/// queue's work bound, `crate::rta::queue_work`, `a`'s own entry and
/// the round's finish bounds of jobs done by `r_a`, done before a busy window's start
/// (at most `a`'s latest entry) or cut below `a`'s bound, each at least the finish
/// reported); with two queues
/// the entries in a pool (by the list's last start `< F_a`), the jobs before a quiet
/// point (`q <= r_a`), and for a high job its entries plus `B` (before `F_a`) and the
/// finish promises of the low jobs that `B` takes as done (each due by a start of the
/// high job's list, before `F_a`). A low job's bound `X_a + C_a` also rests on a third
/// kind, "the last block of job `k` is assigned by `F_k - C_k`" (every bound, low or
/// high, being the last block's assignment plus `C`: `crate::rta::priority`'s
/// `may_head`, for a low job `k` ahead of `a`, used where `F_k - C_k <= r_a <= X_a`, and
/// its empty-high-queue bound, for the high jobs released by `X_a` and the low jobs ahead
/// of `a`, used where `F_k - C_k <= X_a`, beside finishes `F_k <= X_a` and high blocks'
/// start bounds `s_m < X_a`); the promise of `a`'s own
/// assignment may fall due at that same time, so promises falling due together are
/// ordered by the order their bounds were computed (`k`'s before `a`'s), and the first
/// broken one still rests only on promises kept. So no
/// promise is the first broken. The list schedule's proof then applies, over the orders
/// tried; orders that put a job before its stream predecessor are never tried (they
/// cannot happen). Rounds that do not settle end in an error, never in a bound.
///
/// **Copies** (rules C1-C4). A job's copy in is the first operation of the job in its
/// stream: it enters the CE queue by `max(r_j + L, F_pred(j))` (kept at least the
/// previous round's), and its kernel by that and by the copy's reported completion. The
/// copy out enters by the kernel's reported finish, and the job's finish `F_j` is the
/// copy out's completion. Copy completions are bounded from these entries by
/// [`crate::rta::copies::copy_finishes`], whose bound for a copy rests only on entries
/// due by its own entry bound, before its completion: the argument above covers them,
/// with these promises: a copy's entry rests on its stream predecessor's finish (copy
/// in) or its kernel's finish (copy out), due no later; a copy's completion on entries
/// due by its entry bound `e_c < F_c`; a kernel's dispatch bound in the list on its copy
/// in's and its stream predecessor's copy out's completions, due by it; and the cap of
/// tried orders ([`crate::rta::ties`]) on `late[k]`, below the capped job's finish
/// (every block takes a positive time).
pub fn worst_over_orders(seq: &Sequence, p: &Platform) -> Result<Worst, InputError> {
    let mut budget = Budget::FULL;
    worst_over_orders_within(seq, p, &mut budget)
}

/// [`worst_over_orders`] with what the two queues' analysis may still spend ([`Budget`]),
/// shared by the calls of one run (the rounds of a window: once the pooled lists are
/// spent in one, the later ones have the work bounds alone, and the pools' scans are
/// counted over all of them; the other budgets, of the tie orders, the copy engine and
/// the stream fixpoint's rounds, are per call).
pub(crate) fn worst_over_orders_within(seq: &Sequence, p: &Platform, budget: &mut Budget) -> Result<Worst, InputError> {
    let mut groups = seq.free_ties.clone();
    let mut late: Vec<Ticks> = seq.jobs.iter().map(|j| j.ready).collect();
    let mut enter_in = late.clone();
    // With copies, the earliest a kernel's blocks may dispatch in the list: after its copy
    // in and its stream predecessor's copy out (the list itself waits only for kernels).
    let mut gate = late.clone();
    let queues = two_queues(&seq.jobs);
    let copies = seq.jobs.iter().any(Job::copies);
    let (mut highs, mut copy_budget) = (None, MAX_COPY_WORK);
    // The orders tried one by one, over all rounds: four times one round's share.
    let mut order_work = 4 * crate::rta::ties::MAX_ORDER_WORK;
    // Per job: its finish is attained by an execution that can happen (one queue only).
    let mut attained = vec![false; seq.jobs.len()];
    for _ in 0..MAX_ROUNDS {
        let gated: Vec<Job>;
        let jobs = if copies {
            gated = seq.jobs.iter().map(|j| Job { ready: gate[j.id], ..*j }).collect();
            &gated
        } else {
            &seq.jobs
        };
        let (kernel_finish, order, ties, mut reach, tied) = if queues {
            let q = worst_two_queues(jobs, &late, seq.order, &seq.classes, p, budget, &mut highs).ok_or_else(|| {
                too_much(seq, format!("the analysis of the two priority queues needs more than {MAX_POOL_SCANS} jobs scanned by the low jobs' pools in one run"))
            })?;
            let tied = q.tied.iter().enumerate().filter(|(_, &t)| t).map(|(i, _)| i..i + 1).collect();
            (q.finish, q.order, q.ties, q.reach, Some(tied))
        } else {
            let first = if copies { copy_order(&seq.jobs, &groups, &enter_in, &late) } else { Vec::new() };
            let mut w = worst_for(jobs, &groups, Entries { late: &late, first: &first }, seq.order, &seq.classes, p, &mut order_work);
            if w.ties == Ties::Bound {
                // Orders too many to try: the queue's work bound holds for all of them.
                w.finish = tightened_work_bounds(jobs, &late, &w.finish, &seq.classes, p);
            } else if jobs.len() <= MAX_CHECKED_JOBS {
                // The list (with mixed demands a safe side, not the runs) may let a job of
                // another stream be ahead where it cannot be: the work bound holds too.
                let bound = tightened_work_bounds(jobs, &late, &w.finish, &seq.classes, p);
                for (k, b) in bound.into_iter().enumerate() {
                    if b < w.finish[k] {
                        (w.finish[k], w.order[k], w.attained[k]) = (b, None, false);
                    }
                }
            }
            attained = w.attained;
            (w.finish, w.order, w.ties, late.clone(), None)
        };
        let ends = if copies {
            Some(
                copy_finishes(&seq.jobs, &enter_in, &kernel_finish, &mut copy_budget)
                    .ok_or_else(|| too_much(seq, format!("the copy engine's analysis needs more than {MAX_COPY_WORK} steps")))?,
            )
        } else {
            None
        };
        let copy_in = |j: &Job| ends.as_ref().and_then(|e| e.copy_in[j.id]);
        let copy_out = |j: &Job| ends.as_ref().and_then(|e| e.copy_out[j.id]);
        let finish: Vec<Ticks> = seq.jobs.iter().map(|j| copy_out(j).unwrap_or(kernel_finish[j.id])).collect();
        // Never below the previous round's (the quiet points of two queues make a round's
        // finishes not monotone in the entries; a larger entry bound is still one).
        let behind = |j: &Job| j.after.map_or(j.ready, |a| j.ready.max(finish[a]));
        let next_in: Vec<Ticks> = seq.jobs.iter().map(|j| enter_in[j.id].max(behind(j))).collect();
        let next: Vec<Ticks> = seq.jobs.iter().map(|j| late[j.id].max(behind(j)).max(copy_in(j).unwrap_or(Ticks::ZERO))).collect();
        let next_gate: Vec<Ticks> = seq
            .jobs
            .iter()
            .map(|j| {
                let pred_out = j.after.filter(|&a| seq.jobs[a].copy_out > Ticks::ZERO).map_or(Ticks::ZERO, |a| finish[a]);
                gate[j.id].max(copy_in(j).unwrap_or(Ticks::ZERO)).max(pred_out)
            })
            .collect();
        let next_groups = free_groups(&seq.jobs, seq.order, &|j: &Job| next[j.id]);
        if next == late && next_in == enter_in && next_gate == gate && next_groups == groups {
            for j in seq.jobs.iter().filter(|j| j.copies()) {
                reach[j.id] = reach[j.id].max(enter_in[j.id]).max(kernel_finish[j.id]);
            }
            let jobs = seq.jobs.iter().map(|j| Job { ready: late[j.id], ..*j }).collect();
            let groups = tied.unwrap_or(groups);
            return Ok(Worst { finish, kernel_finish, copies: ends, order, ties, jobs, groups, reach, two_queues: queues, attained });
        }
        (late, enter_in, gate, groups) = (next, next_in, next_gate, next_groups);
    }
    Err(too_much(seq, format!("the analysis of the streams' waits did not settle in {MAX_ROUNDS} rounds")))
}

/// Per job, the jobs of its free group whose kernel enters the EE queue strictly before
/// its own in every execution, by the copy engine's order ([`Entries::first`]): `k`
/// before `i` when both have a copy in, `k`'s copy enters the CE queue by `enter_in[k] <
/// r_i`, `k`'s launch is due by `r_i` (`r_k + L <= r_i`, `jobs` with `ready = r + L`) and
/// `(late[k], k) < (late[i], i)`.
///
/// Proof (rules C1-C4: one CE queue, FIFO, one copy at a time). `i`'s copy enters the CE
/// queue at or after `r_i`, so after `k`'s (the promise `enter_in[k]`, due before `r_i`),
/// and starts once `k`'s has completed, at `c_k`; a copy takes a positive time, so it
/// completes at `c_i > c_k`, and `c_i > r_i`. A kernel with a copy in enters its queue at
/// the later of its launch and its copy's completion: `k`'s by `max(r_k + L, c_k) <=
/// max(r_i, c_k) < c_i`, and `i`'s at `c_i` or later.
fn copy_order(jobs: &[Job], groups: &[Range<usize>], enter_in: &[Ticks], late: &[Ticks]) -> Vec<Vec<usize>> {
    let mut first = vec![Vec::new(); jobs.len()];
    for g in groups.iter().filter(|g| g.len() <= MAX_GROUP) {
        for i in g.clone().filter(|&i| jobs[i].copy_in > Ticks::ZERO) {
            let r = jobs[i].release;
            first[i] = g
                .clone()
                .filter(|&k| k != i && jobs[k].copy_in > Ticks::ZERO)
                .filter(|&k| enter_in[k] < r && jobs[k].ready <= r && (late[k], k) < (late[i], i))
                .collect();
        }
    }
    first
}

/// The refusal of a set whose analysis needs more work than its budget (`why`), against
/// `--window` where a window is analysed, else against the kernels (a set without a
/// window has no window to shorten).
fn too_much(seq: &Sequence, why: String) -> InputError {
    let n = seq.jobs.len();
    if seq.window_end.is_some() {
        InputError::option("window", "", format!("{why} for the {n} jobs analysed: give a shorter window, longer periods or fewer jobs"))
    } else {
        InputError::new("kernels", "", format!("{why} for the {n} jobs analysed (one per kernel, no window): give fewer kernels or streams"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::jobs::sequence;
    use crate::rta::time::Scale;
    use crate::rta::workload::{demands, Task, Timing, Window, Workload};

    /// A refusal for the analysis's budget names `--window` and says to shorten it only
    /// where a window is analysed; without one it names the kernels and shows no value
    /// (issue 54: it once read "invalid kernels = N jobs", and "give a shorter window"
    /// with no window given).
    #[test]
    fn a_budget_refusal_names_the_window_only_where_there_is_one() {
        let k = Task::given("K", Timing { period: Ticks::new(10), wcet: Ticks::new(1), release: Ticks::ZERO }, 1, 512);
        let mut w = Workload::new(vec![k], Platform::TX2, Scale::default(), "t");
        let seq = |w: &Workload| sequence(w, &demands(w).unwrap(), w.launch, w.window).unwrap();
        let e = too_much(&seq(&w), "stop".into());
        assert_eq!(e.to_string(), "invalid kernels: stop for the 1 jobs analysed (one per kernel, no window): give fewer kernels or streams");
        w.window = Window::Until(Ticks::new(30));
        let e = too_much(&seq(&w), "stop".into());
        assert!(e.option && e.field == "window" && e.value.is_empty(), "{e:?}");
        assert!(e.reason.contains("give a shorter window"), "{}", e.reason);
    }
}
