//! Two EE queues (stream priorities, Amert et al. A1-A2): a kernel of a high-priority
//! stream enters the high queue, one of a low-priority stream the low queue, and a block
//! of the low queue's head is assigned only while the high queue is empty. Each queue is
//! FIFO (X1, G3: a kernel leaves its queue once fully dispatched). Blocks are never
//! preempted: a high kernel waits for the low blocks already running.
//!
//! **High jobs: the low blocks still running.** For a high job `j`, let `U_j` be the
//! latest finish bound `F_l` (given below: the low jobs are bounded first, [`PASSES`]) of
//! the low jobs `l` released by `j`'s latest entry (or by that of a high job before `j`),
//! and `B_j` the longest block (its `C` plus the block overhead) of those with `F_l >
//! r_j`. The high jobs are analysed alone, as one FIFO ([`crate::rta::ties::worst_for`]:
//! every launch order of their tied groups). Let `E` be a job's entry in the list (its
//! release plus the launch overhead, or its stream predecessor's finish in the same list
//! schedule if later, or lowered to a later job's latest entry in a tried order) and `T_j
//! = max(E, min(E + B_j, U_j))` (`blocking` and `blocked_until`; merged jobs take the
//! largest of each, and the serial bound adds `B_j`). From `T_j` on no low block stands
//! in `j`'s way; before it, the blocks of those low jobs may still run. The list either
//! enters `j` at `T_j`, or, where those blocks can be counted per class
//! ([`crate::rta::jobs::Residents`], [`residents`]), enters it at `E` and counts them as
//! running blocks in every room check, those of `l` until `max(E, min(E + C_l, U_j))` (or
//! earlier for a block with a known end, [`residents`]), at most `T_j` (never later than the first: every block starts no later). Why it holds:
//! take a high job `j` entering the high queue at
//! `e_j`, the list's `E >= e_j` (the list's proof), and a time `t >= E` at which the list
//! starts a block of `j`. A low block running at `t` started at some `s`. If `s <= e_j`
//! (one assigned at the instant `j` enters included), its job `l` was released by `e_j`,
//! so it is one of the `l` above: with `F_l <= r_j <= e_j <= E <= t` it is done by `t`;
//! otherwise the block ends by `s + C_l <= E + C_l <= E + B_j` and (`l` being done by
//! `F_l`) by `U_j`, so by `T_j`: until it ends it is among the residents. If `s > e_j`, the high
//! queue held `j` until it was fully dispatched, so that happened by `s <= t`. Either way
//! the real blocks running at `t` are among the list's (high blocks, by its induction)
//! and the residents still counted, and the list's room checks, which hold for any
//! running set of at most so many blocks of each class, hold for them; so the proof of
//! [`crate::rta::analysis`] (positions in the high FIFO, real entries no later than the
//! list's) goes through unchanged: in its induction the job whose block the list starts
//! at `t` is the head of the real high queue then (the jobs before it had all their
//! blocks at earlier positions). (A form with `F_l - late_j` in place of the cap would
//! not hold: a tried order or a stream predecessor's finish may let the list enter `j`
//! before `late_j`; a cold review's counterexamples are tests.) Using `F_l` is one more
//! promise of the earliest-broken-promise argument of [`crate::rta::queues`]: it is used
//! only for a block ending by `F_l <= t`, with `t` below `j`'s own bound (every block
//! takes a positive time), so `l`'s promise comes due before `j`'s.
//!
//! **Low jobs: a pooled list.** For a low job `l` entering by `e_l`, let `S` be `l`, every
//! other low job that may enter the low queue by `e_l` (released by then, and not after
//! `l` in its stream), and every high job released by `D`. Schedule `S` as one list,
//! every block with the longest time and the envelope of the demands in `S`, the jobs by
//! their latest entry (a low job other than `l` by the earlier of its own and `e_l`: if
//! it is assigned a block before `l`'s last, it entered the FIFO low queue before `l`, so
//! by both). Let `t_last` be the list's last start; `D` starts at `e_l` and grows to
//! `t_last` until no high job is released in `(D, t_last]`. Then `l`'s last block is
//! assigned by `t_last`, and `l` ends by `t_last` plus its own block time. Why: suppose
//! it is assigned at some `X > t_last`. Let `A` be the jobs with a block assigned before
//! `X` that are released by `t_last`: `A` is in `S` (its low jobs entered the low queue
//! before `l`; its high jobs were released by `t_last`, so by `D`). Every block assigned
//! by `t_last` is of `A`. By induction over the positions of the real dispatch order, the
//! `p`-th real block starts no later than the `p`-th of the list of `A`: at the list's
//! `t_p <= t_last` at least `p` blocks of `A` have entered and fewer than `p` are
//! assigned, so a queue is not empty and the head of the higher non-empty one (a job of
//! `A`: it is assigned a block before `X`) is eligible; fewer than `#SMs *
//! fit(envelope)` blocks run, all no larger than the envelope, so it has room. The list
//! of `A` starts each of its blocks no later than the list of `S` (a FIFO list of
//! identical blocks never starts a block later when jobs are removed), so every block of
//! `A`, `l`'s last among them, is assigned by `t_last < X`: a contradiction. The
//! report takes the least of this, the work bound of `Pool::low_job_by_work` (each
//! block at its own time, not the longest, and without the jobs bounded to be done by
//! `l`'s release), its windowed form (`Pool::windowed_x`), the high-busy bound
//! (`Pool::high_busy_x`: high jobs counted by the time they can be in the high queue)
//! and the empty-high-queue bound (`Pool::room_once_high_queue_empty`: once the high
//! jobs released by then, and any low job ahead of `l` that could not have room, have
//! their last blocks assigned, `l`'s last block surely has room), with the reach (`D`)
//! of the one reported.
//!
//! **Passes.** The low jobs' bounds rest on the entries, the releases and, for the work
//! bound, finishes known from an earlier pass; the high jobs' on the low jobs' finishes.
//! So the analysis runs passes (at most [`PASSES`]): the low jobs with the finishes of
//! the last pass (none at first), then the high jobs with those low finishes; each job's
//! reported finish is the least over the passes. Every pass's bounds hold, by induction
//! over the passes: the finishes a pass takes as done are bounds of earlier passes (or,
//! for a low job, of this pass's low jobs bounded before it), no smaller than the ones
//! reported, and due before the bound that uses them (a job done by `l`'s release, before
//! `l`'s finish; a low job done by a high job's list start, before the high job's finish;
//! a low job's last block assigned by `l`'s release, `Pool::may_head`, no later than
//! `l`'s own; a high job's last block assigned, or a job done, by the `Y` of
//! `Pool::room_once_high_queue_empty`, no later than `l`'s own assignment), which is
//! what the earliest-broken-promise argument of
//! [`crate::rta::queues`] needs.

use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::{free_groups, stream_roots, Class, Job, Residents, TieOrder};
use crate::rta::list::{block_starts, still_running};
use crate::rta::low_alone::{before_any_high, least_ends, Alone, ByOrder};
use crate::rta::resident_split::{room_for_every_split, AtY, HighList, SPLIT_STEPS};
use crate::rta::room;
use crate::rta::settle::{settle, Step, WINDOW_STEPS};
use crate::rta::ties::{worst_keeping_starts, Entries, Ties, Worsts};
use crate::rta::time::Ticks;
use crate::rta::workload::Priority;

/// Whether `jobs` use both queues (with one, the analysis is the plain FIFO one).
pub fn two_queues(jobs: &[Job]) -> bool {
    jobs.iter().any(|j| j.priority == Priority::High) && jobs.iter().any(|j| j.priority == Priority::Low)
}

/// Most passes of [`worst_two_queues`] (low jobs, then high jobs, each from the last
/// pass's finishes); any pass's result is a bound.
pub const PASSES: usize = 4;

/// Most block steps of the pooled lists of the low jobs in one run ([`worst_two_queues`]
/// over all rounds of the stream fixpoint and every round of a window): beyond, the lists are not used (the work
/// bounds stand; such sets were refused before issue 54's item 4).
pub const MAX_POOLED_WORK: u64 = 200_000_000;

/// Most jobs the low jobs' pools may scan (and blocks the quiet points' lists may
/// place) in one run, over all rounds of the stream fixpoint and every round of a window
/// (about half a minute on one core): beyond, the analysis is refused (a window too long
/// for its load).
pub const MAX_POOL_SCANS: u64 = 2_000_000_000;

/// What the analysis of the two queues may still spend ([`worst_two_queues`], over all
/// rounds of the stream fixpoint and all rounds of a window, `crate::rta::queues`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Block steps of the low jobs' pooled lists ([`MAX_POOLED_WORK`]); once spent, the
    /// work bounds alone.
    pub lists: u64,
    /// Jobs scanned for the low jobs' pools ([`MAX_POOL_SCANS`]); once spent, refused.
    pub scans: u64,
    /// Block starts of the low lists beside the high blocks ([`ALONE_STEPS`]; once spent,
    /// none).
    pub alone: u64,
}

impl Budget {
    /// The whole budget of one run.
    pub const FULL: Budget = Budget { lists: MAX_POOLED_WORK, scans: MAX_POOL_SCANS, alone: ALONE_STEPS };
}

/// The reported finishes under two queues, per job of `jobs` (the nominal sequence, with
/// `late[i]` the latest time job `i` may enter its queue), with the launch orders of the
/// high jobs' tied groups that give them, how ties went, and per job the latest release
/// that may still change its finish (`reach`: its entry for a high job, `D` for a low one).
pub struct TwoQueues {
    /// Reported finish per job.
    pub finish: Vec<Ticks>,
    /// The launch order of the job's high tie group giving its finish, if any.
    pub order: Vec<Option<Vec<usize>>>,
    /// How ties were handled (a bound if any low jobs tie, as the pooled list covers
    /// every order).
    pub ties: Ties,
    /// Per job: jobs released up to this time may change its finish.
    pub reach: Vec<Ticks>,
    /// Per job: whether it is in a group of its queue whose launch order is free.
    pub tied: Vec<bool>,
}

/// What the high jobs' bounds rest on (per job of `jobs`): the entries `late` (0 for low
/// jobs), the low jobs' finish bounds `low_finish` (0 for high jobs) and the jobs'
/// `ready` (with copies, the gate of their copy in).
#[derive(PartialEq)]
struct HighInputs {
    late: Vec<Ticks>,
    low_finish: Vec<Ticks>,
    /// Per low job, end bounds of its first blocks ([`Alone::ends`]).
    low_ends: Vec<Vec<Ticks>>,
    ready: Vec<Ticks>,
}

/// The block starts of [`before_any_high`]'s lists beside the high blocks, per analysis
/// ([`Budget::alone`]).
pub const ALONE_STEPS: u64 = 4_000_000;

/// The high jobs' finishes, tie orders and ties for their [`HighInputs`].
pub struct HighJobs {
    inputs: HighInputs,
    finish: Vec<Ticks>,
    orders: Vec<Option<Vec<usize>>>,
    ties: Ties,
    tied: Vec<bool>,
    /// Per high job, where the high jobs have one order: the start bound of each of its
    /// blocks in the list that bounds its finish ([`crate::rta::list::block_starts`]).
    starts: Vec<Option<Vec<Ticks>>>,
    /// The list giving `starts`, where they are known.
    list: Option<HighList>,
    /// Per launch order of the high jobs' free groups (one without a group), each high
    /// job's block start bounds in that order, where kept
    /// ([`crate::rta::ties::Worsts::starts`]); none otherwise.
    by_order: ByOrder,
    /// What is left of the tie orders' work budget, over every round
    /// ([`crate::rta::ties::worst_for`]).
    work: u64,
}

/// The jobs, their latest entries and the GPU, with what is left of the work budget.
struct Pool<'a> {
    jobs: &'a [Job],
    late: &'a [Ticks],
    classes: &'a [Class],
    p: &'a Platform,
    budget: &'a mut u64,
    /// Per job, a bound on its kernel's finish from an earlier pass, or for a low job
    /// from this one once it is bounded (`Ticks::MAX`: none).
    done: Vec<Ticks>,
    /// Per high job, the start bounds of its blocks from an earlier pass
    /// ([`HighJobs::starts`]), if known.
    starts: Vec<Option<Vec<Ticks>>>,
    /// The high jobs' list giving `starts` ([`HighJobs::list`]), if known.
    list: Option<HighList>,
    /// The start bounds per launch order ([`HighJobs::by_order`]) from an earlier pass.
    by_order: ByOrder,
    /// What is left of the block steps of [`room_for_every_split`] ([`SPLIT_STEPS`]).
    split_steps: std::cell::Cell<u64>,
    /// Whether `jobs` are in release order (the nominal order is).
    by_release: bool,
    /// What is left of the pools' scans ([`Budget::scans`]).
    scans: std::cell::Cell<u64>,
}

/// See the module documentation for the two bounds and why they hold. `budget`: what
/// the analysis may still spend ([`Budget`]): once the lists' share is spent, the low
/// jobs have the work bounds alone (each a bound without the lists); `None` once the
/// pools' scans are spent (the caller refuses).
/// `highs`: the high jobs' result of an earlier round or pass and the [`HighInputs`] it
/// was computed for (it depends on nothing else), reused when they are the same, else
/// replaced.
pub fn worst_two_queues(
    jobs: &[Job],
    late: &[Ticks],
    order: TieOrder,
    classes: &[Class],
    p: &Platform,
    budget: &mut Budget,
    highs: &mut Option<HighJobs>,
) -> Option<TwoQueues> {
    let n = jobs.len();
    let lows: Vec<usize> = (0..n).filter(|&i| jobs[i].priority == Priority::Low).collect();
    let root = stream_roots(jobs);
    let high_late: Vec<Ticks> = (0..n).map(|i| if jobs[i].priority == Priority::High { late[i] } else { Ticks::ZERO }).collect();
    let ready: Vec<Ticks> = jobs.iter().map(|j| j.ready).collect();
    // Passes: the low jobs from the entries, releases and the last pass's finishes (none
    // at first: a job done by a low job's release leaves its work bound), then the high
    // jobs from the low jobs' finishes (a low job done by a high job's entry does not
    // block it). Every pass's bounds hold, and each job's reported finish is the least
    // over the passes (module documentation, "Passes"). The quiet points rest on the
    // entries alone: found once.
    let (mut finish, mut reach) = (vec![Ticks::ZERO; n], late.to_vec());
    let by_release = jobs.windows(2).all(|w| w[0].release <= w[1].release);
    let scans = std::cell::Cell::new(budget.scans);
    let mut pool = Pool { jobs, late, classes, p, budget: &mut budget.lists, done: vec![Ticks::MAX; n], starts: vec![None; n], list: None, by_order: ByOrder::default(), split_steps: std::cell::Cell::new(SPLIT_STEPS), by_release, scans };
    let quiet = pool.quiet_points();
    let mut by_release_order: Vec<usize> = (0..n).collect();
    by_release_order.sort_by_key(|&i| jobs[i].release);
    // Per quiet point, the low jobs' bounds before any high job arrives (the same each pass).
    let mut alone: std::collections::BTreeMap<Ticks, Alone> = std::collections::BTreeMap::new();
    // Per low job, end bounds of its first blocks from those lists (each holds: the least kept).
    let mut low_ends: Vec<Vec<Ticks>> = vec![Vec::new(); n];
    let mut alone_work = crate::rta::ties::MAX_ORDER_WORK / 8;
    // The lists beside the high blocks rest on their start bounds: anew when those change.
    let mut alone_starts = pool.by_order.clone();
    for _ in 0..PASSES {
        let previous = pool.done.clone();
        if alone_starts != pool.by_order {
            alone.clear();
            alone_starts.clone_from(&pool.by_order);
        }
        for &l in &lows {
            // The latest quiet point at or before l's release: the jobs released before it
            // are done. From the list of all jobs, and from the bounds so far: each gives
            // bounds (neither is always the better), the least is kept.
            let q_list = quiet.iter().copied().take_while(|&q| q <= jobs[l].release).last().unwrap_or(Ticks::ZERO);
            let q_bounds = pool.quiet_by_bounds(&by_release_order, jobs[l].release);
            // The pass giving the least finish gives its reach too: the time by which its
            // bound has l's last block assigned, which is what the window's argument needs
            // (`crate::rta::analysis::with_context_jobs`: a job entering after it changes
            // no dispatch of l's blocks).
            let mut best = (Ticks::MAX, Ticks::MAX);
            for &q in &[q_list, q_bounds][..if q_bounds > q_list { 2 } else { 1 }] {
                let (mut f, mut d) = pool.low_job(&root, l, q);
                let a = alone.entry(q).or_insert_with(|| before_any_high(jobs, late, q, order, classes, p, &mut alone_work, &pool.by_order, &mut budget.alone));
                let before_high = a.finish[l];
                low_ends[l] = least_ends(&low_ends[l], &a.ends[l]);
                if before_high < f {
                    (f, d) = (before_high, before_high - jobs[l].wcet);
                }
                if f < best.0 {
                    best = (f, d);
                }
            }
            let (f, d) = best;
            if f < previous[l] {
                (finish[l], reach[l]) = (f, d);
            }
            // Later low jobs of this pass may count on it.
            pool.done[l] = finish[l];
            if pool.scans.get() == 0 {
                return None;
            }
        }
        let low_finish: Vec<Ticks> = (0..n).map(|i| if jobs[i].priority == Priority::Low { finish[i] } else { Ticks::ZERO }).collect();
        let inputs = HighInputs { late: high_late.clone(), low_finish, low_ends: low_ends.clone(), ready: ready.clone() };
        if highs.as_ref().is_none_or(|h| h.inputs != inputs) {
            let work = highs.as_ref().map_or(4 * crate::rta::ties::MAX_ORDER_WORK, |h| h.work);
            *highs = Some(high_jobs(jobs, inputs, order, classes, p, work));
        }
        let h = highs.as_ref()?;
        for i in (0..n).filter(|&i| jobs[i].priority == Priority::High) {
            finish[i] = h.finish[i].min(previous[i]);
        }
        if finish == previous && pool.starts == h.starts && pool.list == h.list && pool.by_order == h.by_order {
            break;
        }
        pool.done.clone_from(&finish);
        pool.starts.clone_from(&h.starts);
        pool.by_order.clone_from(&h.by_order);
        pool.list.clone_from(&h.list);
    }
    budget.scans = pool.scans.get();
    let h = highs.as_ref()?;
    let (orders, mut tied) = (h.orders.clone(), h.tied.clone());
    let low_jobs: Vec<Job> = lows.iter().map(|&i| jobs[i]).collect();
    let low_groups = free_groups(&low_jobs, order, &|j: &Job| late[j.id]);
    low_groups.iter().flat_map(|g| g.clone()).for_each(|k| tied[lows[k]] = true);
    let ties = if low_groups.is_empty() { h.ties } else { Ties::Bound };
    Some(TwoQueues { finish, order: orders, ties, reach, tied })
}

/// The high jobs alone, each entering one low block later than `late` (module
/// documentation): their finishes, tie orders and whether they are tied (per job of
/// `jobs`; nothing for low jobs).
fn high_jobs(jobs: &[Job], inputs: HighInputs, order: TieOrder, classes: &[Class], p: &Platform, mut work: u64) -> HighJobs {
    let n = jobs.len();
    let (mut finish, mut orders, mut tied) = (vec![Ticks::ZERO; n], vec![None; n], vec![false; n]);
    let highs: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].priority == Priority::High).collect();
    let index = |i: usize| highs.iter().position(|&h| h == i);
    let sub_late: Vec<Ticks> = highs.iter().map(|&i| inputs.late[i]).collect();
    let releases: Vec<Ticks> = highs.iter().map(|&i| jobs[i].release).collect();
    let mut blocking = blocking(jobs, &releases, &sub_late, &inputs.low_finish, &inputs.low_ends);
    for (k, b) in room_beside_all(jobs, &highs, &sub_late, classes, p).into_iter().enumerate() {
        if b {
            blocking[k] = (Ticks::ZERO, Ticks::ZERO);
        }
    }
    let residents = residents(jobs, &releases, &sub_late, &inputs.low_finish, &inputs.low_ends, classes, p);
    let sub: Vec<Job> = highs
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let (blocking, blocked_until) = blocking[k];
            let residents = if blocking > Ticks::ZERO { residents[k].0 } else { Residents::NONE };
            Job { id: k, after: jobs[i].after.and_then(index), blocking, blocked_until, residents, ..jobs[i] }
        })
        .collect();
    // The list `resident_split` runs again keys the residents by class and `C` (its
    // `outside` counts the low jobs of each key): there, every block by its `C`.
    let by_c: Vec<Job> = sub.iter().zip(&residents).map(|(j, r)| Job { residents: if j.residents.is_empty() { j.residents } else { r.1 }, ..*j }).collect();
    // Which high jobs may swap in the high queue: from their real entry windows.
    let groups = free_groups(&sub, order, &|j: &Job| sub_late[j.id]);
    let mut starts = vec![None; n];
    let mut list = None;
    let (f, o, ties, by_order) = if groups.is_empty() {
        // One order: the list `worst_for` would run, with its blocks' starts kept.
        let (f, s) = block_starts(&sub, classes, p);
        for (&i, s) in highs.iter().zip(&s) {
            starts[i] = Some(s.clone());
        }
        list = Some(HighList { jobs: by_c, of: highs.clone() });
        (f, vec![None; sub.len()], Ties::None, vec![s])
    } else {
        let Worsts { finish, order: o, ties, starts: s, .. } = worst_keeping_starts(&sub, &groups, Entries::late(&sub_late), order, classes, p, &mut work);
        (finish, o, ties, s)
    };
    groups.iter().flat_map(|g| g.clone()).for_each(|k| tied[highs[k]] = true);
    for (k, &i) in highs.iter().enumerate() {
        finish[i] = f[k];
        orders[i] = o[k].as_ref().map(|o| o.iter().map(|&m| highs[m]).collect());
    }
    HighJobs { inputs, finish, orders, ties, tied, starts, list, by_order: ByOrder { highs: highs.clone(), starts: by_order }, work }
}

/// Per high job (in nominal order: `release` its releases, `late` its latest entries):
/// `(B_j, U_j)`. `U_j` is the latest finish bound `F_l` (`low_finish[l]`) of the low jobs
/// `l` released by the latest entry of `j` or of a high job before it (a low block running
/// when `j` enters belongs to a low job released before that entry), and `B_j` the longest
/// block `C_l` of those with a block that may still run from the release of `j` or of a
/// later high job on ([`left_at`] of `min_{k >= j} r_k` positive; the others' blocks have
/// ended by `j`'s entry). A list enters `j` at `min(entry + B_j, U_j)` if later than its
/// entry (module documentation).
fn blocking(jobs: &[Job], release: &[Ticks], late: &[Ticks], low_finish: &[Ticks], low_ends: &[Vec<Ticks>]) -> Vec<(Ticks, Ticks)> {
    let mut lows: Vec<(Ticks, Ticks, usize)> = jobs.iter().filter(|j| j.priority == Priority::Low).map(|j| (j.release, j.wcet, j.id)).collect();
    lows.sort_unstable();
    let done_by = least_release_from(release);
    let mut running: std::collections::BinaryHeap<(Ticks, usize)> = std::collections::BinaryHeap::new();
    let (mut next, mut entry, mut until) = (0, Ticks::ZERO, Ticks::ZERO);
    late.iter()
        .zip(done_by)
        .map(|(&e, done_by)| {
            entry = entry.max(e);
            while next < lows.len() && lows[next].0 <= entry {
                running.push((lows[next].1, lows[next].2));
                until = until.max(low_finish[lows[next].2]);
                next += 1;
            }
            // The longest block of a low job that may still run at j's entry (none left
            // stays none: `done_by` does not decrease).
            while running.peek().is_some_and(|&(_, l)| left_at(&jobs[l], low_finish, low_ends, done_by) == 0) {
                running.pop();
            }
            (running.peek().map_or(Ticks::ZERO, |&(c, _)| c), until)
        })
        .collect()
}

/// How many blocks of low job `l` may still run at or after `y`: none where it is bounded
/// to be done by `y` (`F_l <= y`), else its blocks but those of its first blocks bounded
/// to end by `y` (`low_ends`, [`Alone::ends`]: the real `m`-th block ends by the `m`-th
/// bound, so those have ended). Not increasing in `y`.
fn left_at(l: &Job, low_finish: &[Ticks], low_ends: &[Vec<Ticks>], y: Ticks) -> u64 {
    if low_finish[l.id] <= y {
        0
    } else {
        l.blocks - low_ends[l.id].partition_point(|&e| e <= y) as u64
    }
}

/// Per high job (of `release`, their releases in nominal order), the least release from
/// it on, `min_{k >= j} r_k`: non-decreasing, so a low job done by it stays done for the
/// later ones ([`blocking`], [`residents`]).
fn least_release_from(release: &[Ticks]) -> Vec<Ticks> {
    let mut done_by = release.to_vec();
    for k in (1..done_by.len()).rev() {
        done_by[k - 1] = done_by[k - 1].min(done_by[k]);
    }
    done_by
}

/// Per high job (in nominal order: `release` its releases, `late` its latest entries):
/// the low blocks that may still run at its entry ([`Job::residents`]), per class and
/// block time `C_l` (a block with a known end `e`: `min(C_l, e - min_{k >= j} r_k)`,
/// [`ends_after`]): the blocks of the low jobs `l` of [`blocking`] (released by the
/// latest entry of `j` or of a high job before it) that may still run from `min_{k >= j}
/// r_k` on ([`left_at`]), at most `#SMs` times [`room::most`] of an exact class (no SM holds more of
/// it). [`Residents::NONE`]
/// where they span more classes than a [`Residents`] holds (the blocking then delays the
/// job's entry). Second, the same with every block by its `C_l` (the form
/// [`room_for_every_split`] needs: its keys are the low jobs' class and `C`); the first
/// falls back to it where it takes too many pairs.
///
/// Why a list may start `j`'s blocks beside them from its entry `E` on (the module
/// documentation's proof, for `t < max(E, min(E + B_j, U_j))`): a low block running at
/// such a `t` started no later than `e_j <= E <= t` (had it started later, `j` would be
/// fully dispatched), so its job `l` was released by then, and it has not ended by `t >= r_j
/// >= min_{k >= j} r_k`: one of the blocks [`left_at`] counts, and no more of its class run
/// than are counted. The high
/// blocks running at `t` are among the list's running blocks (the list's induction), so
/// the real running blocks are among the list's and the residents, and the list's room
/// checks, which hold for any running set of at most so many blocks of each class, hold
/// for them: the real head block (of `j`) has room. Such a block of `l`, started by
/// `e_j <= E`, ends by `E + C_l`, by `F_l <= U_j`, and, with a known end `e`, by `e`,
/// which is at most `E + e - min_{k >= j} r_k` as `E >= r_j`: so the list counts it until
/// `max(E, min(E + t, U_j))` only, `t` its time above (at most `max(E, min(E + B_j, U_j))`, from which on
/// no low block runs before `j` is fully dispatched, as the module documentation shows).
fn residents(jobs: &[Job], release: &[Ticks], late: &[Ticks], low_finish: &[Ticks], low_ends: &[Vec<Ticks>], classes: &[Class], p: &Platform) -> Vec<(Residents, Residents)> {
    let done_by = least_release_from(release);
    let lows: Vec<&Job> = jobs.iter().filter(|j| j.priority == Priority::Low).collect();
    let mut entry = Ticks::ZERO;
    late.iter()
        .zip(done_by)
        .map(|(&e, done_by)| {
            entry = entry.max(e);
            let released = || lows.iter().filter(|l| l.release <= entry);
            // Each block that may still run, by class and time: the blocks with a known
            // end, by what is left of it after `done_by` (`E >= r_j >= done_by`); if that
            // takes too many pairs, every block by its `C`.
            let by_end = counts(released().flat_map(|l| ends_after(l, low_finish, low_ends, done_by)), classes, p);
            let by_c = Residents::new(counts(released().map(|l| (l.class, l.wcet, left_at(l, low_finish, low_ends, done_by))), classes, p));
            (Residents::new(by_end).or(by_c).unwrap_or(Residents::NONE), by_c.unwrap_or(Residents::NONE))
        })
        .collect()
}

/// The blocks of low job `l` that may still run after `y` ([`left_at`]), as `(class,
/// time, count)`: those with a known end `e > y` (`low_ends`) each by `min(C_l, e - y)`,
/// the others by `C_l`. A block counted from an entry `E >= y` for that time has ended by
/// then: by `e <= E + (e - y)`, or by its start (at most `E`) plus `C_l`.
fn ends_after(l: &Job, low_finish: &[Ticks], low_ends: &[Vec<Ticks>], y: Ticks) -> Vec<(usize, Ticks, u64)> {
    if low_finish[l.id] <= y {
        return Vec::new();
    }
    let ends = &low_ends[l.id];
    let known = ends.iter().filter(|&&e| e > y).map(|&e| (l.class, l.wcet.min(e - y), 1));
    known.chain(std::iter::once((l.class, l.wcet, l.blocks.saturating_sub(ends.len() as u64)))).collect()
}

/// The blocks of `blocks` (class, time, count) summed per class and time, each count at
/// most `#SMs` times [`room::most`] of an exact class (no SM holds more of it).
fn counts(blocks: impl Iterator<Item = (usize, Ticks, u64)>, classes: &[Class], p: &Platform) -> Vec<(usize, Ticks, u64)> {
    let mut counts: std::collections::BTreeMap<(usize, Ticks), u64> = std::collections::BTreeMap::new();
    for (c, time, n) in blocks {
        *counts.entry((c, time)).or_default() += n;
    }
    counts
        .into_iter()
        .map(|((c, time), n)| {
            let class = &classes[c];
            (c, time, if class.exact { n.min(p.sms().saturating_mul(room::most(p, &class.demand))) } else { n })
        })
        .collect()
}

/// Per high job `j` (of `highs`, in nominal order; `late` their latest entries): whether
/// a block of `j` always has room, beside every block of the jobs released by the latest
/// entry of `j` or of a high job before it (`r <= entry`; `j`'s own blocks but the one
/// to start): their blocks' weights
/// ([`room::weights`], head `j`'s class) sum to less than `#SMs`, or a block of `j` has
/// room on every SM beside as many of them as one SM can hold ([`room::beside_every_sm`]:
/// of each exact class at most its [`room::most`]), or (every class exact) on some SM
/// however they are placed ([`room::some_sm_has_room`]). Then `j` needs no blocking
/// (`B_j = 0`).
///
/// Proof: let the list start a block of `j` at `t >= E`. By the list's induction the
/// real high blocks running at `t` are among the list's (jobs of the high FIFO ahead of
/// `j` or `j` itself, released by `entry`), and a low block running at `t` started either
/// before `e_j <= entry`, its job released by then, or after `e_j` with the high queue
/// empty, `j` then fully dispatched (module documentation). So the real blocks running at
/// `t` are among the blocks counted. With weights summing to less than `#SMs`, some SM
/// holds less than 1 of them and has room for `j`'s block; with room beside as many as
/// one SM can hold, every SM has room (one SM holds at most `most` blocks of an exact
/// class, and no more of a class than are counted); by the placement rule, some SM has
/// room. Either way `j`'s block, the head of
/// the real high queue (or already started), starts by `t`.
fn room_beside_all(jobs: &[Job], highs: &[usize], late: &[Ticks], classes: &[Class], p: &Platform) -> Vec<bool> {
    let mut entry = Ticks::ZERO;
    highs
        .iter()
        .zip(late)
        .map(|(&j, &e)| {
            entry = entry.max(e);
            // Per class, the blocks counted (the head block itself is not running).
            let mut blocks: std::collections::BTreeMap<usize, u64> = std::collections::BTreeMap::new();
            for k in jobs.iter().filter(|k| k.release <= entry) {
                *blocks.entry(k.class).or_default() += k.blocks - u64::from(k.id == jobs[j].id);
            }
            always_room(jobs[j].class, &blocks, classes, p)
        })
        .collect()
}

/// Whether a block of class `head` has room on some SM whenever at most `n` blocks of
/// each class `c` run, for each `(c, n)` of `blocks`, however they are placed: their
/// weights ([`room::weights`]) sum to less than `#SMs`, or the head has room on every SM
/// beside as many of them as one SM can hold ([`room::beside_every_sm`]: of each exact
/// class at most its [`room::most`]), or (every class exact) on some SM however they are
/// placed ([`room::some_sm_has_room`]). Proof: with weights summing to less than
/// `#SMs`, some SM holds less than 1 of them and has room; one SM holds at most `most`
/// blocks of an exact class and no more of a class than run; the last is
/// [`room::some_sm_has_room`]'s claim.
fn always_room(head: usize, blocks: &std::collections::BTreeMap<usize, u64>, classes: &[Class], p: &Platform) -> bool {
    // Of an exact class no SM holds more than its `most`.
    let on_one_sm = |c: usize, n: u64| if classes[c].exact { n.min(room::most(p, &classes[c].demand)) } else { n };
    let per_sm: Vec<(Demand, u64)> = blocks.iter().map(|(&c, &n)| (classes[c].demand, on_one_sm(c, n))).collect();
    if room::beside_every_sm(p, &classes[head].demand, &per_sm) {
        return true;
    }
    let counted: Vec<(Demand, u64)> = blocks.iter().map(|(&c, &n)| (classes[c].demand, n)).collect();
    if blocks.keys().all(|&c| classes[c].exact) && room::some_sm_has_room(p, &classes[head].demand, &counted) {
        return true;
    }
    let mut sum = 0u128;
    for (&c, &n) in blocks {
        let Some(weight) = room::weights(p, &[classes[head].demand], &[classes[c].demand]).map(|w| w[0]) else { return false };
        sum = sum.saturating_add(weight.saturating_mul(u128::from(n)));
    }
    sum < u128::from(p.sms()).saturating_mul(room::WEIGHT_ONE)
}

impl Pool<'_> {
    /// The pooled bound of low job `l` (module documentation): its finish and `D`. Only
    /// jobs released at or after the quiet point `q` are pooled (the others are done by
    /// `q`, [`Pool::quiet_points`]).
    /// Once the pooled lists' budget is spent, the work bounds alone (each is a bound).
    fn low_job(&mut self, root: &[usize], l: usize, q: Ticks) -> (Ticks, Ticks) {
        let (jobs, late) = (self.jobs, self.late);
        let (work_finish, work_d) = self.low_job_by_work(root, l, q);
        let mut d = late[l];
        let listed = loop {
            let pool = self.pool_of(root, l, q, d);
            // A low job ahead of l entered before it: by l's latest entry too.
            let entry = |k: usize| if jobs[k].priority == Priority::Low { late[k].min(late[l]) } else { late[k] };
            let Some((list, f)) = self.pooled(&pool, &entry) else { break None };
            let last = f.last().copied().unwrap_or(Ticks::ZERO) - list[0].wcet;
            // The list only grows with the high jobs added: once it reaches the work
            // bound it is not the one reported.
            if last + jobs[l].wcet >= work_finish {
                break None;
            }
            let added = jobs.iter().any(|j| j.priority == Priority::High && j.release > d && j.release <= last);
            d = d.max(last);
            if !added {
                break Some((last + jobs[l].wcet, d));
            }
        };
        // The reach of the bound reported (at least the time by which it has l's last
        // block assigned, as `crate::rta::analysis::with_context_jobs` needs), not of the
        // others: a cold review's sets rose or were refused when the window's widened the
        // reach of the others.
        let (finish, d) = listed.unwrap_or((work_finish, work_d));
        let windowed = self.windowed_x(root, l, q);
        let busy = [false, true].map(|split| self.high_busy_x(root, l, q, split));
        let emptied = self.room_once_high_queue_empty(root, l, q);
        match windowed.into_iter().chain(busy.into_iter().flatten()).chain(emptied).min().and_then(|x| x.checked_add(jobs[l].wcet)) {
            Some(w) if w < finish => (w, w),
            _ => (finish, d),
        }
    }

    /// The **high-busy bound** of low job `l`: `X`, a time from `e_l + 1` on with `e_l +
    /// |A ∩ [e_l, X)| + floor(V(X) / G) + 1 <= X` (the first of the iterates from `e_l +
    /// 1`, or past [`WINDOW_STEPS`] of them one that [`settle`] finds), over `S(X)` (as in [`Pool::windowed_x`]: `l`,
    /// the low jobs ahead of it, the high jobs released in `[q, X)`; none done by `r_l`),
    /// whose high jobs are split in two: those of `H_1` count by the time they can be in
    /// the high queue, `A` the union of their `[r_h, F_h)` (`F_h` their finish bounds from
    /// an earlier pass, `done`), the others (`H_2`) by their work, as the low jobs do:
    /// `V(X) = sum_k w_k n_k min(C_k, |[max(r_k, r_l), min(X, F_k)) \ A|)` over the jobs `k`
    /// of `S(X)` not in `H_1`, with `n_k` their blocks (less one for `l`) and `w_k` the
    /// [`room::weights_among`] of their demands with those that may head as heads
    /// ([`Pool::may_head`]; `G = #SMs`; where they
    /// do not apply, 1 each with `G` their [`Pool::slots`]). With `split`, `H_1` holds the
    /// high jobs whose time `F_h - r_h` is less than their weighted work over `G` (jobs of
    /// several waves of blocks; `None` at once if that puts none or every high job in
    /// `H_1`, as the windowed bound or the unsplit one covers it), else every high job.
    /// `l`'s last block is assigned by `X`, and `l` ends by `X + C_l`. For low jobs behind
    /// high jobs made long by many blocks, which the work bounds charge in full. `None`
    /// where [`settle`] finds no such `X`, an `F_h` of `H_1` is unknown, or on an
    /// overflow.
    ///
    /// Proof (for any split). Let `e` (`r_l <= e <= e_l`) be `l`'s real entry, and suppose
    /// its last block is assigned at `X' > X`. At every instant `t` of `[e, X)`, `l` is in
    /// the low queue. Let `t` be outside `A`. No job of `H_1` is in the high queue (`h`
    /// enters at `r_h` or later and leaves it when its last block starts, before `F_h`), nor
    /// a high job released before `q` or done by `r_l` (done by `e`) or released at or after
    /// `X`: the head of the higher non-empty queue is a job of `H_2` or a low job of `S(X)`
    /// (`l` or ahead of it), eligible, with no room: the blocks running at `t` weigh at
    /// least `G`. They are blocks of the jobs of `S(X)` not in `H_1` (no block of `h` runs
    /// outside `[r_h, F_h)`; a low job behind `l` has no block before `l`'s last; a job
    /// released before `q` or done by `r_l` runs none at `t >= e`), none of them `l`'s
    /// last, so the weights apply (every running block is of their demands, and the head,
    /// in the queue at `t >= e`, is one that [`Pool::may_head`]),
    /// and a block of `k` runs there within `[max(r_k, e), min(X, F_k)) \ A` for at most
    /// `C_k`. So `G |[e, X) \ A| <= V(X)`, and `X - e = |A ∩ [e, X)| + |[e, X) \ A| < |A ∩
    /// [e_l, X)| + (e_l - e) + floor(V(X) / G) + 1 <= X - e` (times are whole ticks, so
    /// `|[e, X) \ A| <= floor(V(X) / G)`): a contradiction. Each `F_h` and `F_k` is used only at instants before `X`, below `l`'s
    /// own bound: one more promise of [`crate::rta::queues`]'s argument, due before `l`'s.
    fn high_busy_x(&self, root: &[usize], l: usize, q: Ticks, split: bool) -> Option<Ticks> {
        let (jobs, late) = (self.jobs, self.late);
        let (e, r_l) = (late[l], jobs[l].release);
        let mut first = true;
        settle(e.checked_add(Ticks::new(1))?, WINDOW_STEPS, |x| {
            let pool = self.window_pool(root, l, q, x);
            let in_a = self.queue_time_counted(&pool, l, split)?;
            // A split that puts no high job in `H_1`, or all, is covered by another bound.
            let all = in_a.iter().zip(&pool).all(|(&a, &k)| a == (jobs[k].priority == Priority::High));
            if split && first && (all || !in_a.contains(&true)) {
                return None;
            }
            first = false;
            let busy = Union::of(pool.iter().zip(&in_a).filter(|(_, &a)| a).map(|(&h, _)| (jobs[h].release, self.done[h])));
            let worked: Vec<usize> = pool.iter().zip(&in_a).filter(|(_, &a)| !a).map(|(&k, _)| k).collect();
            let (weights, g) = self.weights_or_slots(&worked, l)?;
            let work = worked.iter().zip(&weights).try_fold(0u128, |sum, (&k, &w)| {
                let j = &jobs[k];
                let (from, to) = (j.release.max(r_l), x.min(self.done[k]));
                let free = to.saturating_sub(from) - busy.covered(from, to);
                sum.checked_add(w.checked_mul(u128::from(j.blocks - u64::from(k == l)))?.checked_mul(j.wcet.min(free).get())?)
            })?;
            Some(Step::Next(e.checked_add(busy.covered(e, x))?.checked_add(Ticks::new(work / g + 1))?))
        })
    }

    /// Per job of `pool`, whether [`Pool::high_busy_x`] counts it by its time in the high
    /// queue (`H_1`): a high job, with `split` only if `F_h - r_h` is less than its weighted
    /// work over `G` (its weight among all of `pool`'s demands). `None` if a high job of
    /// `H_1` has no finish bound yet.
    fn queue_time_counted(&self, pool: &[usize], l: usize, split: bool) -> Option<Vec<bool>> {
        let jobs = self.jobs;
        let weighed = if split { Some(self.weights_or_slots(pool, l)?) } else { None };
        pool.iter()
            .enumerate()
            .map(|(i, &k)| {
                let j = &jobs[k];
                if j.priority != Priority::High {
                    return Some(false);
                }
                let span = self.done[k].saturating_sub(j.release).get();
                let in_a = weighed.as_ref().is_none_or(|(w, g)| {
                    span.saturating_mul(*g) < w[i].saturating_mul(u128::from(j.blocks)).saturating_mul(j.wcet.get())
                });
                (!in_a || self.done[k] < Ticks::MAX).then_some(in_a)
            })
            .collect()
    }

    /// Whether job `k` of a pool of low job `l` may head its queue in `l`'s window (from
    /// `l`'s entry on): `l` and every high job may; a low job `k` ahead of `l` only if the
    /// bound of an earlier pass (or of this one, computed before `l`'s) does not have its
    /// last block assigned by `l`'s release. Every bound of a low job here is `X_k + C_k`
    /// with `X_k` a bound on its last block's assignment (the pooled list's last start,
    /// the `X` of [`Pool::low_job_by_work`], [`Pool::weighted_x`], [`Pool::windowed_x`],
    /// [`Pool::high_busy_x`], the `Y` of [`Pool::room_once_high_queue_empty`], and the
    /// least of them over passes), so `F_k - C_k` is one (the empty-high-queue bound uses
    /// it at its `Y` instead of `r_l`): with `F_k - C_k <= r_l` the job has
    /// left the low queue by `e >= r_l` (a block assigned at `r_l` itself included: the
    /// head at an instant is the one after that instant's assignments). A promise due at
    /// `F_k - C_k <= r_l`, no later than `l`'s own assignment (`crate::rta::queues`: such
    /// promises are ordered by the order their bounds were computed).
    fn may_head(&self, k: usize, l: usize) -> bool {
        let j = &self.jobs[k];
        k == l || j.priority == Priority::High || self.done[k] == Ticks::MAX || self.done[k].saturating_sub(j.wcet) > self.jobs[l].release
    }

    /// The demands of the jobs of `pool` that [`Pool::may_head`] in `l`'s window.
    fn heads_of(&self, pool: &[usize], l: usize) -> Vec<Demand> {
        pool.iter().filter(|&&k| self.may_head(k, l)).map(|&k| self.classes[self.jobs[k].class].demand).collect()
    }

    /// The [`room::weights_among`] of `pool`'s demands with those of its jobs that may be a
    /// head in `l`'s window as heads ([`Pool::may_head`]) and `G = #SMs`, or where they do
    /// not apply, 1 each with `G` the [`Pool::slots`] of `pool`.
    fn weights_or_slots(&self, pool: &[usize], l: usize) -> Option<(Vec<u128>, u128)> {
        let demands: Vec<Demand> = pool.iter().map(|&k| self.classes[self.jobs[k].class].demand).collect();
        let heads = self.heads_of(pool, l);
        Some(match room::weights_among(self.p, &heads, &demands) {
            Some(w) => (w, u128::from(self.p.sms()).checked_mul(room::WEIGHT_ONE)?),
            None => (vec![1; pool.len()], u128::from(self.slots(pool))),
        })
    }

    /// `S` for low job `l` with high jobs released by `d`, as job indices (module
    /// documentation): `l`, every other low job that may enter the low queue by `l`'s
    /// latest entry and is not after `l` in its stream, every high job released by `d`;
    /// only jobs released at or after the quiet point `q`.
    fn pool_of(&self, root: &[usize], l: usize, q: Ticks, d: Ticks) -> Vec<usize> {
        let (jobs, late) = (self.jobs, self.late);
        let ahead = |k: usize| {
            let j = &jobs[k];
            j.priority == Priority::Low && (k == l || (j.release <= late[l] && !(root[k] == root[l] && k > l)))
        };
        // Only jobs released in [q, max(late[l], d)] qualify: with the jobs in release
        // order (the nominal order), only that range is scanned.
        let range = if self.by_release {
            jobs.partition_point(|j| j.release < q)..jobs.partition_point(|j| j.release <= late[l].max(d))
        } else {
            0..jobs.len()
        };
        self.scans.set(self.scans.get().saturating_sub(range.len() as u64));
        range.filter(|&k| jobs[k].release >= q && (ahead(k) || (jobs[k].priority == Priority::High && jobs[k].release <= d))).collect()
    }

    /// The **work bound** of low job `l` (issue 54): with `S'` the jobs of `S` (as for the
    /// pooled list) less those an earlier pass bounds to be done by `l`'s release (`done`),
    /// `G` its slots (`#SMs` times the fit of the envelope of its demands) and `W` the sum
    /// over `S'` of each job's blocks times its own block time, less `l`'s own block time,
    /// `l`'s last block is assigned by `X = e_l + floor(W / G) + 1`, or by `e_l` if `S'`
    /// has at most `G` blocks, and `l` ends by `X + C_l`; `D` grows to `X` until no high
    /// job is released in `(D, X]`. Returns the finish and `D`.
    ///
    /// Proof. Let `e <= e_l` be `l`'s real entry and `X'` its last block's assignment, and
    /// suppose `X' > X`. Throughout `[e, X')` `l` is in the low queue, so some queue is not
    /// empty and the head of the higher non-empty one is eligible: it is not assigned a
    /// block only for want of room. Every block running at such an instant `t` in `[e, X)`
    /// (`X <= D`) was assigned before `t`: of a low job ahead of `l` (no low job behind `l`
    /// is assigned a block before `l`'s last), of a high job released before `t` (so by
    /// `D`), or of a job released before the quiet point `q`, done by then: all in `S`; and
    /// not of a job done by `l`'s release `<= e <= t`: all in `S'`, no larger than the
    /// envelope, and with fewer than `G` of them the head (in `S'` too: it is not done)
    /// would have room. So at least `G` blocks of `S'` run at every instant of `[e, X)`,
    /// none of them `l`'s last (it starts at `X' > X`). With at most `G` blocks in `S'`
    /// that is impossible at `e` itself, so `X' <= e`. Otherwise `G (X - e)` is at most the
    /// time the blocks of `S'` other than `l`'s last run in `[e, X)`, at most `W`; but
    /// `G (X - e) >= G (floor(W / G) + 1) > W`: a contradiction. So `X' <= X`. The pass's
    /// use of `done` is one more promise of [`crate::rta::queues`]'s argument: each is a
    /// job's bound due by `l`'s release, before `l`'s own.
    fn low_job_by_work(&self, root: &[usize], l: usize, q: Ticks) -> (Ticks, Ticks) {
        let (jobs, late) = (self.jobs, self.late);
        let mut d = late[l];
        loop {
            let pool: Vec<usize> = self.pool_of(root, l, q, d).into_iter().filter(|&k| k == l || self.done[k] > jobs[l].release).collect();
            let slots = self.slots(&pool) as u128;
            let blocks: u128 = pool.iter().map(|&k| jobs[k].blocks as u128).sum();
            let work: Ticks = pool.iter().map(|&k| jobs[k].wcet * jobs[k].blocks as u128).sum::<Ticks>() - jobs[l].wcet;
            let x = if blocks <= slots { late[l] } else { late[l] + Ticks::new(work.get() / slots + 1) };
            let x = self.weighted_x(&pool, l).map_or(x, |w| x.min(w));
            let added = jobs.iter().any(|j| j.priority == Priority::High && j.release > d && j.release <= x);
            d = d.max(x);
            if !added {
                return (x + jobs[l].wcet, d);
            }
        }
    }

    /// The **empty-high-queue bound** of low job `l`: `Y`, a time from `e_l` on by which
    /// every high job released by `Y` (at or after the quiet point `q`) has its last block
    /// assigned, by `F_h - C_h` (`F_h` its finish bound from an earlier pass; the least
    /// such time from `e_l` or from one of the times `F_k - C_k` by which a low job ahead
    /// of `l` has its last block assigned, the first of them that passes), if then every
    /// low job that may head the low queue at `Y` (`l` and the low jobs ahead of it
    /// without `F_k - C_k <= Y`) always has room ([`always_room`]) beside the blocks of the
    /// jobs of `S` ([`Pool::pool_of`] with `D = Y`) not bounded to be done by `Y`, `l`'s
    /// last block left out, and of a high job whose blocks' start bounds are known only
    /// those that may still run at `Y` ([`Pool::running_at`]). `l`'s last block is then
    /// assigned by `Y`, and `l` ends by `Y + C_l`. `None` when some high job's bound is
    /// unknown, or the room is not sure.
    ///
    /// Proof. Every bound `F_h` of a high job is `h`'s last block's assignment bound plus
    /// `C_h`: a list's finish is its last start plus its blocks' time (at least `C_h`, the
    /// longest of a merged group), and the real last block starts no later than the
    /// list's (the position induction); the serial bound `T + sum g C + sum B` covers
    /// every instant from `T` to `h`'s last assignment by a block of the group ahead of
    /// `h` (or of `h`, not its last) or by a wait of at most `B_j` for low blocks, so that
    /// assignment comes by `F_h - C_h`. So `h` has left the high queue by `F_h - C_h`. Let
    /// `e <= e_l <= Y` be `l`'s real entry and suppose its last block is assigned after
    /// `Y`. At `Y` (after that instant's assignments) the high queue holds no job: one
    /// released by `Y` has left it by `F_h - C_h <= Y`, one released before `q` is done
    /// by then. `l` is in the low queue, so the low queue's head, `l` or a low job ahead
    /// of it that has not left the queue by `Y` (so not one with `F_k - C_k <= Y`: every
    /// low job's bound here is its last assignment's bound plus `C_k`, as
    /// [`Pool::may_head`] says), is not assigned a block for want of room. The blocks running at `Y` are of `l` (not its
    /// last), of low jobs ahead of `l`, of high jobs released by `Y` (so of `S` with `D =
    /// Y`), none of a job done by `Y`, and of a high job `h` none whose start bound `s_m`
    /// has `s_m + C_h <= Y` (it has ended by then): at most as many of each class as
    /// counted, so the head has room, a contradiction. The promises used, of
    /// [`crate::rta::queues`]'s argument, fall due by `Y`, no later than `l`'s own
    /// assignment promise: each high or low job's assignment by `F_k - C_k <= Y`, each block's
    /// start by `s_m < Y` and each job's finish `F_k <= Y` (computed before `l`'s bound,
    /// so ordered before it where they fall due at `Y` itself).
    fn room_once_high_queue_empty(&self, root: &[usize], l: usize, q: Ticks) -> Option<Ticks> {
        let (jobs, late) = (self.jobs, self.late);
        // From `e_l`, or from when a low job ahead of `l` has left the low queue.
        let mut from: Vec<Ticks> = self
            .pool_of(root, l, q, late[l])
            .into_iter()
            .filter(|&k| k != l && jobs[k].priority == Priority::Low && self.done[k] < Ticks::MAX)
            .map(|k| self.done[k].saturating_sub(jobs[k].wcet))
            .filter(|&t| t > late[l])
            .collect();
        from.push(late[l]);
        from.sort_unstable();
        from.dedup();
        // A start at or before the `Y` a failed start reached reaches that `Y` again (the
        // least fixed point at or after it), and fails again.
        let mut reached: Option<Ticks> = None;
        for y in from {
            if reached.is_some_and(|r| y <= r) {
                continue;
            }
            match self.room_from(root, l, q, y)? {
                Ok(y) => return Some(y),
                Err(y) => reached = Some(y),
            }
        }
        None
    }

    /// [`Pool::room_once_high_queue_empty`] from `y`: `Some(Ok(Y))` where the `Y` reached
    /// from `y` (the least time from `y` on by which every high job released by then has
    /// its last block assigned) passes, `Some(Err(Y))` where the room is not sure there,
    /// `None` where some high job's bound is unknown.
    fn room_from(&self, root: &[usize], l: usize, q: Ticks, mut y: Ticks) -> Option<Result<Ticks, Ticks>> {
        let jobs = self.jobs;
        let pool = loop {
            let pool = self.pool_of(root, l, q, y);
            let mut left = y;
            for &h in pool.iter().filter(|&&h| jobs[h].priority == Priority::High) {
                if self.done[h] == Ticks::MAX {
                    return None;
                }
                left = left.max(self.done[h].saturating_sub(jobs[h].wcet));
            }
            if left == y {
                break pool;
            }
            y = left;
        };
        // The blocks that may run at `Y`: of `l` (not its last), of the low jobs ahead and
        // of the high jobs, none of a job done by then.
        let counted = |k: usize| k == l || self.done[k] > y;
        let (mut low, mut highs) = (std::collections::BTreeMap::new(), Vec::new());
        for &k in pool.iter().filter(|&&k| counted(k)) {
            match jobs[k].priority {
                Priority::Low => *low.entry(jobs[k].class).or_default() += jobs[k].blocks - u64::from(k == l),
                Priority::High => highs.push((k, self.running_at(k, y).unwrap_or(jobs[k].blocks))),
            }
        }
        let mut blocks = low.clone();
        for &(k, n) in &highs {
            *blocks.entry(jobs[k].class).or_default() += n;
        }
        // The low jobs that may head the low queue at `Y`: not bounded to have left it by
        // then (`F_k - C_k <= Y`, [`Pool::may_head`]'s argument at `Y` instead of `r_l`).
        let at_y = |k: usize| k == l || self.done[k] == Ticks::MAX || self.done[k].saturating_sub(jobs[k].wcet) > y;
        let heads: std::collections::BTreeSet<usize> =
            pool.iter().filter(|&&k| jobs[k].priority == Priority::Low && at_y(k)).map(|&k| jobs[k].class).collect();
        let room = |blocks: &std::collections::BTreeMap<usize, u64>| heads.iter().all(|&h| always_room(h, blocks, self.classes, self.p));
        if room(&blocks) {
            return Some(Ok(y));
        }
        // Where the high blocks start late for low blocks that have ended by `Y`.
        let mut outside: std::collections::BTreeMap<(usize, Ticks), u64> = std::collections::BTreeMap::new();
        for j in jobs.iter().filter(|j| j.priority == Priority::Low) {
            *outside.entry((j.class, j.wcet)).or_default() += j.blocks;
        }
        for &k in pool.iter().filter(|&&k| jobs[k].priority == Priority::Low && counted(k)) {
            *outside.entry((jobs[k].class, jobs[k].wcet)).or_default() -= jobs[k].blocks;
        }
        let outside = |c: usize, t: Ticks| outside.get(&(c, t)).copied().unwrap_or(0);
        let at = AtY { y, late: self.late, highs: &highs, low: &low, outside: &outside };
        let split = self.list.as_ref().is_some_and(|list| room_for_every_split(list, &at, self.classes, self.p, &room, &self.split_steps));
        Some(if split { Ok(y) } else { Err(y) })
    }

    /// How many blocks of high job `k` may still run at `y` (after that instant): those
    /// whose start bound ([`Pool::starts`]) plus `C_k` is after `y`; `None` where the
    /// bounds are not known. Proof: the real `m`-th block of `k` starts by the `m`-th
    /// bound `s_m` ([`block_starts`]), so with `s_m + C_k <= y` it has ended by `y`. A
    /// promise due at `s_m < y`, before the bound using it.
    fn running_at(&self, k: usize, y: Ticks) -> Option<u64> {
        let c = self.jobs[k].wcet;
        // A job's start bounds do not decrease (its blocks start in order in the list).
        self.starts[k].as_ref().map(|s| still_running(s, c, y))
    }

    /// `S(X)` of [`Pool::windowed_x`] and [`Pool::high_busy_x`] for `X = x`: the jobs of
    /// `S` ([`Pool::pool_of`] with high jobs released by `x`) but the high ones released at
    /// `x` and those an earlier pass bounds to be done by `l`'s release (`l` kept).
    fn window_pool(&self, root: &[usize], l: usize, q: Ticks, x: Ticks) -> Vec<usize> {
        let (jobs, r_l) = (self.jobs, self.jobs[l].release);
        self.pool_of(root, l, q, x)
            .into_iter()
            .filter(|&k| k == l || (self.done[k] > r_l && !(jobs[k].priority == Priority::High && jobs[k].release >= x)))
            .collect()
    }

    /// The **weighted work bound** of low job `l` over `pool` (`S'` of the work bound): with
    /// each block weighted by [`room::weights`] (heads and running blocks of `S'`), `V`
    /// the sum over `S'` of blocks times block time times weight, less `l`'s own block
    /// time times its weight, and `U` the blocks' weights less one of `l`'s, `l`'s last
    /// block is assigned by `e_l` if `U < #SMs`, else by `e_l + floor(V / #SMs) + 1` (in
    /// the weights' fixed point). `None` where the weights do not apply or overflow.
    ///
    /// Proof: as for the work bound, at every instant of `[e, X)` the head has no room on
    /// any SM, so the blocks of `S'` running there (none of them `l`'s last) weigh at least
    /// 1 per SM, `#SMs` in all. With `U < #SMs` that fails at `e` itself, so `X' <= e`;
    /// otherwise `#SMs (X - e)` is at most the weighted time the blocks of `S'` other than
    /// `l`'s last run in `[e, X)`, at most `V`, while `#SMs (floor(V / #SMs) + 1) > V`.
    fn weighted_x(&self, pool: &[usize], l: usize) -> Option<Ticks> {
        let (jobs, late) = (self.jobs, self.late);
        let demands: Vec<Demand> = pool.iter().map(|&k| self.classes[jobs[k].class].demand).collect();
        let weights = room::weights_among(self.p, &demands, &demands)?;
        let own = weights[pool.iter().position(|&k| k == l)?];
        let (mut total, mut work) = (0u128, 0u128);
        for (&k, &w) in pool.iter().zip(&weights) {
            total = total.checked_add(w.checked_mul(jobs[k].blocks as u128)?)?;
            work = work.checked_add(w.checked_mul(jobs[k].blocks as u128)?.checked_mul(jobs[k].wcet.get())?)?;
        }
        let (total, work) = (total - own, work - own.checked_mul(jobs[l].wcet.get())?);
        let sms = u128::from(self.p.sms()).checked_mul(room::WEIGHT_ONE)?;
        Some(if total < sms { late[l] } else { late[l].checked_add(Ticks::new(work / sms + 1))? })
    }

    /// The **windowed work bound** of low job `l`: `X > e_l` with `e_l + floor(V(X) / G) +
    /// 1 <= X` (the least such fixed point where the iterates from `e_l + 1` reach it in
    /// [`WINDOW_STEPS`] steps, else one that [`settle`] finds; or `e_l` if the blocks of
    /// some `S(X)`, `X > e_l`, other than `l`'s last weigh less than `G`), where `S(X)` is `S` of the work bound with only the
    /// high jobs released before `X`, each job `k` of `S(X)` has weight `w_k` (the
    /// [`room::weights_among`] of its demand with the demands of the jobs of `S(X)` that
    /// [`Pool::may_head`] as heads, `l`'s own against `l` and the high jobs only, `G =
    /// #SMs`; where
    /// the weights do not apply, 1 each with `G` the slots of [`Pool::slots`]), and
    /// `V(X) = sum_k w_k n_k min(C_k, (min(X, F_k) - max(r_k, r_l))^+)`, with `n_k` the
    /// blocks of `k` (less one for `l`) and `F_k` its finish bound if known (`done`). `l`'s
    /// last block is assigned by `X`, and `l` ends by `X + C_l`. `None` if [`settle`] finds
    /// no such `X` or a sum overflows.
    ///
    /// Proof. As for the weighted work bound, suppose `l`'s last block is assigned at `X' >
    /// X`, `l` entering at `e` with `r_l <= e <= e_l`. At every instant `t` of `[e, X)` the
    /// head of the higher non-empty queue has no room on any SM, so the blocks running at
    /// `t` weigh at least `G`; they are of jobs of `S(X)` (a high job running or heading the
    /// high queue at `t < X` was released before `X`; a job done by its bound `F_k <= t`
    /// runs no block at `t`), none of them `l`'s last, and every head at `t` is a job of
    /// `S(X)` in its queue at `t >= e`, so one that [`Pool::may_head`], whose demands the
    /// weights take as heads. A block of `k` runs within
    /// `[max(r_k, e), min(X, F_k))`, for at most `C_k`: the blocks of `k` other than `l`'s
    /// last run at most `n_k min(C_k, (min(X, F_k) - max(r_k, r_l))^+)` in `[e, X)`, and
    /// `G (X - e) <= V(X)`. But `G (X - e) >= G (X - e_l) >= G (floor(V(X) / G) + 1) >
    /// V(X)`: a contradiction. Where the blocks of some `S(X)` weigh less than `G` in all,
    /// the contradiction comes at `e` itself (`X' <= e <= e_l`: the blocks running at `e`
    /// are of jobs released by `e_l`, all in `S(e_l + 1)`, within `S(X)`, the head at `e`
    /// one whose demand the weights take as a head). A bound `F_k < X` is used only
    /// for blocks running before `X`, below `l`'s own bound: one more promise of
    /// [`crate::rta::queues`]'s argument, due before `l`'s.
    fn windowed_x(&self, root: &[usize], l: usize, q: Ticks) -> Option<Ticks> {
        let (jobs, late) = (self.jobs, self.late);
        let (e, r_l) = (late[l], jobs[l].release);
        // From `e_l + 1`: the jobs released by `e_l` may run at `e_l` itself.
        settle(e.checked_add(Ticks::new(1))?, WINDOW_STEPS, |x| {
            let pool = self.window_pool(root, l, q, x);
            let demands: Vec<Demand> = pool.iter().map(|&k| self.classes[jobs[k].class].demand).collect();
            let (weights, g) = match room::weights_among(self.p, &self.heads_of(&pool, l), &demands) {
                Some(mut w) => {
                    // While a block of l runs, the head is l or a high job (and any of the pool may run).
                    let heads: Vec<Demand> =
                        pool.iter().filter(|&&k| k == l || jobs[k].priority == Priority::High).map(|&k| self.classes[jobs[k].class].demand).collect();
                    let own = room::weights_among(self.p, &heads, &demands)?[pool.iter().position(|&k| k == l)?];
                    pool.iter().zip(w.iter_mut()).filter(|(&k, _)| k == l).for_each(|(_, w)| *w = own);
                    (w, u128::from(self.p.sms()).checked_mul(room::WEIGHT_ONE)?)
                }
                None => (vec![1; pool.len()], u128::from(self.slots(&pool))),
            };
            let (mut total, mut work) = (0u128, 0u128);
            for (&k, &w) in pool.iter().zip(&weights) {
                let j = &jobs[k];
                let n = u128::from(j.blocks - u64::from(k == l));
                let span = x.min(self.done[k]).saturating_sub(j.release.max(r_l));
                total = total.checked_add(w.checked_mul(n)?)?;
                work = work.checked_add(w.checked_mul(n)?.checked_mul(j.wcet.min(span).get())?)?;
            }
            if total < g {
                return Some(Step::Settled(e));
            }
            Some(Step::Next(e.checked_add(Ticks::new(work / g + 1))?))
        })
    }

    /// Times `q` at which the GPU is surely idle with every job released before `q` done:
    /// no job is released before `q` and may enter after it (`release < q <= late`), and
    /// the pooled list of all jobs (every block with the longest time and the envelope of
    /// all demands, by latest entry) has finished every job entering before `q` by `q`.
    /// Why: the jobs released before `q` are exactly those entering before `q` (latest
    /// entry `< q`), so the list's first `M` blocks are exactly their `M` blocks, and only
    /// their blocks can be assigned before `q`. By the position induction of the module
    /// documentation (over all jobs, which hold every block assigned; the head of the
    /// higher non-empty queue is always eligible), the first `M` real blocks start no
    /// later than the list's first `M`, all before `q`: they are those jobs' blocks, and
    /// (block times being positive and at most the longest) all end by `q`.
    fn quiet_points(&mut self) -> Vec<Ticks> {
        let all: Vec<usize> = (0..self.jobs.len()).collect();
        // One list of every block per round, outside the lists' budget (the lists per
        // low job are what it caps; this one counts as scans): the quiet points stay
        // when those lists are given up.
        let blocks: u64 = self.jobs.iter().map(|j| j.blocks).sum();
        self.scans.set(self.scans.get().saturating_sub(blocks));
        let (list, f) = self.list(&all, &|k| self.late[k]);
        // The latest entry of the jobs released before each time, by release.
        let mut by_release: Vec<(Ticks, Ticks)> = self.jobs.iter().map(|j| (j.release, self.late[j.id])).collect();
        by_release.sort_unstable();
        let latest: Vec<Ticks> = by_release
            .iter()
            .scan(Ticks::ZERO, |m, &(_, e)| {
                *m = e.max(*m);
                Some(*m)
            })
            .collect();
        let in_flight = |q: Ticks| {
            let before = by_release.partition_point(|&(r, _)| r < q);
            before > 0 && latest[before - 1] >= q
        };
        let mut done_by: Ticks = Ticks::ZERO;
        let mut out = Vec::new();
        for (k, j) in list.iter().enumerate() {
            if k > 0 && done_by <= j.ready && !in_flight(j.ready) {
                out.push(j.ready);
            }
            done_by = done_by.max(f[k]);
        }
        out
    }

    /// The latest release `q <= r` (of a job, `sorted` the jobs by release) by which every
    /// job released before it is bounded to be done (`done`: an earlier pass's bounds, or
    /// this pass's for the low jobs bounded already): a quiet point as
    /// [`Pool::quiet_points`] gives, from the bounds instead of one list. Why: a job done
    /// by `q` entered before `q`, and one released at or after `q` enters no earlier, so
    /// at `q` no block of a job released before it runs and none is left to assign. The
    /// promises used fall due by `q <= r`, before any bound of a job released at `r`
    /// (the passes' argument of the module documentation).
    fn quiet_by_bounds(&self, sorted: &[usize], r: Ticks) -> Ticks {
        let (mut q, mut done_before, mut i) = (Ticks::ZERO, Ticks::ZERO, 0);
        while i < sorted.len() && self.jobs[sorted[i]].release <= r {
            let at = self.jobs[sorted[i]].release;
            if done_before <= at {
                q = at;
            }
            while i < sorted.len() && self.jobs[sorted[i]].release == at {
                done_before = done_before.max(self.done[sorted[i]]);
                i += 1;
            }
        }
        q
    }

    /// `G`, the slots of `pool`'s blocks all alike: `#SMs` times the fit of the envelope
    /// of their demands (the envelope beside itself when the demands differ; at least 1,
    /// as any block fits an empty GPU).
    fn slots(&self, pool: &[usize]) -> u64 {
        let Class { demand, exact } = Class::covering(pool.iter().map(|&k| &self.jobs[k]), self.classes);
        let k = if exact { room::fit(self.p, &demand) } else { room::beside(self.p, &demand, &demand) };
        self.p.sms().saturating_mul(k).max(1)
    }

    /// The list schedule of `pool` (job indices), every block with the longest time and
    /// the envelope of the demands, the jobs by their latest entry (`entry`): the list and
    /// its finishes. All blocks alike, the list schedule of [`crate::rta::list::finishes`] has
    /// one slot count `G = #SMs * k` (`k` the fit of the envelope, or the envelope beside
    /// itself when the demands differ; at least 1, as any block fits an empty GPU), so a
    /// block starts at `max(ready, previous start, the start G blocks earlier + C)`.
    /// `None` once the budget is spent (for good: no later list, however short).
    fn pooled(&mut self, pool: &[usize], entry: &dyn Fn(usize) -> Ticks) -> Option<(Vec<Job>, Vec<Ticks>)> {
        let steps: u64 = pool.iter().map(|&k| self.jobs[k].blocks).sum();
        let Some(left) = self.budget.checked_sub(steps) else {
            *self.budget = 0;
            return None;
        };
        *self.budget = left;
        Some(self.list(pool, entry))
    }

    /// The list of [`Pool::pooled`], outside the budget.
    fn list(&self, pool: &[usize], entry: &dyn Fn(usize) -> Ticks) -> (Vec<Job>, Vec<Ticks>) {
        let jobs = self.jobs;
        let wcet = pool.iter().map(|&k| jobs[k].wcet).max().unwrap_or(Ticks::ZERO);
        let mut list: Vec<Job> = pool.iter().map(|&k| Job { ready: entry(k), wcet, class: 0, after: None, ..jobs[k] }).collect();
        list.sort_by_key(|j| (j.ready, j.id));
        let slots = self.slots(pool) as usize;
        let mut starts: std::collections::VecDeque<Ticks> = std::collections::VecDeque::with_capacity(slots);
        let mut last = Ticks::ZERO;
        let f = list
            .iter()
            .map(|j| {
                for _ in 0..j.blocks {
                    let mut t = j.ready.max(last);
                    if starts.len() == slots {
                        t = t.max(starts.pop_front().unwrap_or(Ticks::ZERO) + wcet);
                    }
                    starts.push_back(t);
                    last = t;
                }
                last + wcet
            })
            .collect();
        (list, f)
    }
}

/// A union of half-open intervals of time, for the time they cover.
struct Union {
    /// Disjoint, sorted, non-empty intervals.
    spans: Vec<(Ticks, Ticks)>,
}

impl Union {
    /// The union of the intervals `[a, b)` (empty ones ignored).
    fn of(intervals: impl Iterator<Item = (Ticks, Ticks)>) -> Union {
        let mut all: Vec<(Ticks, Ticks)> = intervals.filter(|(a, b)| a < b).collect();
        all.sort_unstable();
        let mut spans: Vec<(Ticks, Ticks)> = Vec::with_capacity(all.len());
        for (a, b) in all {
            match spans.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => spans.push((a, b)),
            }
        }
        Union { spans }
    }

    /// The time of `[a, b)` the union covers.
    fn covered(&self, a: Ticks, b: Ticks) -> Ticks {
        let first = self.spans.partition_point(|&(_, end)| end <= a);
        self.spans[first..].iter().take_while(|&&(start, _)| start < b).map(|&(start, end)| end.min(b).saturating_sub(start.max(a))).sum()
    }
}
