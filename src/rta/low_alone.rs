//! A low job whose blocks are all assigned while the low queue is alone.
//!
//! Under two EE queues ([`crate::rta::priority`]) a low job's bounds weigh the high jobs
//! that may come into its window. But from a quiet point `q` (every job released before
//! it is done by then: from the list of all jobs or from the bounds, `Pool::quiet_points`
//! and `Pool::quiet_by_bounds`) until the first release `r_h` of a high job
//! at or after `q`, the GPU runs only low jobs released from `q` on, through one FIFO
//! queue: the single queue of [`crate::rta::analysis`]. And once the high jobs released
//! from `q` on before some later high release `cut` are all fully dispatched (by the
//! last start bound of their blocks, from the high jobs' list), the low queue is alone
//! again until `cut`, beside those high blocks still running. [`before_any_high`] bounds
//! each low job in both ways, and keeps the bound of a job whose last block that bound
//! assigns before the cut; also the end bound of each block that the lists start before
//! the cut, where their starts are kept ([`Alone::ends`]).

use crate::rta::gpu::Platform;
use crate::rta::jobs::{free_groups, Class, Job, Residents, TieOrder};
use crate::rta::list::{block_starts, block_starts_beside};
use crate::rta::ties::{every_order_beside, worst_for, Entries};
use crate::rta::time::Ticks;
use crate::rta::workload::Priority;

/// Per job of `jobs` (the nominal sequence; `late[i]` the latest time job `i` may enter
/// its queue; `by_order`, per launch order of the high jobs' free groups, each high job's
/// block start bounds in that order, where known): for a low job
/// released at or after the quiet point `q`, the least of its bounds below; else
/// `Ticks::MAX`.
///
/// **Alone.** Its finish bound `F_l` among the low jobs alone (released from `q` on and before `r_h`, the first
/// release at or after `q` of a high job; every launch order of their free groups,
/// [`worst_for`], within the tie orders' `work`), where `F_l - C_l < r_h`.
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
///
/// The block ends ([`Alone::ends`]): with one launch order (no free group) the list is
/// [`block_starts`]'s, whose `m`-th start `S_m` of `l` bounds the start of `l`'s real
/// `m`-th block in the execution of these jobs alone ([`block_starts`]'s proof). With
/// `S_m < r_h` that start comes within the shared prefix, so the real `m`-th block of `l`
/// starts by `S_m` and ends by `S_m + C_l`.
///
/// **Beside the high blocks.** Let `h_1, ..., h_k` be the high jobs released in `[q,
/// cut)` (every one released there: `cut` is the next high release, or none), each
/// with start bounds `s` of its blocks (of one order of `by_order`:
/// [`crate::rta::list::block_starts`] of the high jobs' list in that order, which hold
/// for every execution in which the high jobs enter in it), `from` the latest of their last
/// starts (and `q`), and the low jobs released in `[q, cut)` in one of their launch
/// orders (the only one, or each order of their free groups, [`every_order_beside`]; the
/// real low jobs enter in one of them, and with `ready` and stream waits as in
/// [`crate::rta::ties`]' lists). The list [`block_starts_beside`] starts their blocks in
/// that order from `from` on, counting each block of the `h_i` as running until its start
/// bound plus its `C`.
/// Claim: every low block the list starts at some `t_i < cut` (the `i`-th of the low
/// queue's sequence) really starts by `t_i`. By induction over `i`: the real blocks `0..i`
/// start by their list times (at most `t_i`). If the real `i`-th has not started by
/// `t_i`, then at `t_i`: its job has entered (by its `ready` or its stream predecessor's
/// list finish, as in the single queue's proof); every block before it in the low FIFO
/// has started, so its job is the low queue's head; the high queue is empty (a high job
/// released before `q` is done by `q`; each `h_i` is fully dispatched by `from <= t_i`; no
/// other is released before `cut > t_i`); and the real running blocks are among the
/// list's: a real high block is one of the `h_i`'s (started by its bound, so still
/// counted if it runs), a real low block `m < i` started by `t_m` and, taking at most its
/// `C`, is counted by the list until `t_m + C`, and no block of a job released before `q`
/// runs. The list's room check holds for any running set of at most so many blocks of
/// each class ([`crate::rta::list::finishes`]), so the real head block has room and
/// starts at `t_i`: a contradiction. So `l`'s last block, listed before `cut`, is
/// assigned by its list start and `l` ends by its list finish; its `m`-th block, listed
/// at `S_m < cut`, ends by `S_m + C_l`. Every `k` with `from < cut` is tried, each
/// within `steps` block starts (per analysis); per order a job has the least of these
/// bounds, and over the orders the most (its `m`-th end: the most, where every order
/// bounds it). A job keeps the least of that and its bound alone.
///
/// Why the most over the orders holds though the tried orders match a real one only up
/// to the jobs that have entered ([`crate::rta::ties`]' exchange argument): let `T` be the
/// bound and `a` the last high job that really enters before `T`. The order "the real one
/// up to `a`, then the rest by `late`" is tried (a broken promise that would leave it
/// untried is due before `a`'s real entry, so before `T`, the earliest-broken-promise
/// argument of [`crate::rta::queues`]). In it every cut's list is valid for the starts
/// before `T`: its prefix jobs' start bounds hold, and the other high jobs enter at or
/// after `T`, so they are not in the high queue before it. So its least over the cuts,
/// at most the most over the orders, bounds the real finish; the same for each end.
#[allow(clippy::too_many_arguments)]
pub fn before_any_high(
    jobs: &[Job],
    late: &[Ticks],
    q: Ticks,
    order: TieOrder,
    classes: &[Class],
    p: &Platform,
    work: &mut u64,
    by_order: &ByOrder,
    steps: &mut u64,
) -> Alone {
    let mut out = Alone { finish: vec![Ticks::MAX; jobs.len()], ends: vec![Vec::new(); jobs.len()] };
    let mut highs: Vec<usize> = (0..jobs.len()).filter(|&i| jobs[i].priority == Priority::High && jobs[i].release >= q).collect();
    highs.sort_by_key(|&i| jobs[i].release);
    let first_high = highs.first().map_or(Ticks::MAX, |&i| jobs[i].release);
    alone_until(&mut out, jobs, late, q, first_high, order, classes, p, work);
    // Per launch order of the high jobs, the least bound over the cuts; the most over the
    // orders holds (the real high jobs enter in one of them).
    let mut worst: Option<Alone> = None;
    let row: Vec<Option<usize>> = {
        let mut row = vec![None; jobs.len()];
        by_order.highs.iter().enumerate().for_each(|(k, &i)| row[i] = Some(k));
        row
    };
    for starts in &by_order.starts {
        let mut o = Alone { finish: vec![Ticks::MAX; jobs.len()], ends: vec![Vec::new(); jobs.len()] };
        // The high jobs released in [q, cut), each fully dispatched by `from`: from then
        // on until `cut` the low queue is alone, beside their blocks.
        let (mut from, mut beside) = (q, Vec::new());
        for (k, &h) in highs.iter().enumerate() {
            let Some(s) = row[h].map(|r| &starts[r]).filter(|s| s.len() as u64 == jobs[h].blocks) else { break };
            if *steps == 0 {
                break;
            }
            from = from.max(s.last().copied().unwrap_or(q));
            beside.extend(s.iter().map(|&s| (s + jobs[h].wcet, jobs[h].class)));
            let cut = highs.get(k + 1).map_or(Ticks::MAX, |&i| jobs[i].release);
            if cut > jobs[h].release && from < cut {
                after_high_prefix(&mut o, (jobs, late, order), q, cut, Beside { from, blocks: &beside, known: &out.ends }, classes, p, (work, steps));
            }
        }
        worst = Some(match worst {
            None => o,
            Some(w) => Alone {
                finish: w.finish.iter().zip(&o.finish).map(|(&a, &b)| a.max(b)).collect(),
                ends: w.ends.iter().zip(&o.ends).map(|(a, b)| most_ends(a, b)).collect(),
            },
        });
    }
    if let Some(w) = worst {
        for i in 0..jobs.len() {
            out.finish[i] = out.finish[i].min(w.finish[i]);
            out.ends[i] = least_ends(&out.ends[i], &w.ends[i]);
        }
    }
    out
}

/// The bounds of [`before_any_high`] from the low jobs alone until `cut` (the first high
/// release at or after `q`), kept in `out`.
#[allow(clippy::too_many_arguments)]
fn alone_until(out: &mut Alone, jobs: &[Job], late: &[Ticks], q: Ticks, cut: Ticks, order: TieOrder, classes: &[Class], p: &Platform, work: &mut u64) {
    let lows = lows_in(jobs, q, cut);
    if lows.is_empty() {
        return;
    }
    let sub = low_list(jobs, &lows);
    let sub_late: Vec<Ticks> = lows.iter().map(|&i| late[i]).collect();
    let groups = free_groups(&sub, order, &|j: &Job| sub_late[j.id]);
    if groups.is_empty() {
        let (finish, starts) = block_starts(&sub, classes, p);
        keep(out, jobs, &lows, &finish, Some(starts), cut);
    } else {
        let finish = worst_for(&sub, &groups, Entries::late(&sub_late), order, classes, p, work).finish;
        keep(out, jobs, &lows, &finish, None, cut);
    }
}

/// The bounds of [`before_any_high`] from the low jobs released in `[q, cut)`, listed
/// from `from` on beside the blocks of `beside` (the high jobs released in `[q, cut)`,
/// each fully dispatched by `from`) in every launch order of their free groups (the
/// most over the orders; each order's `m`-th ends too, where kept), kept in `out`;
/// nothing where not every order can be tried within `work`, or once `steps` (block
/// starts) are spent.
#[allow(clippy::too_many_arguments)]
fn after_high_prefix(
    out: &mut Alone,
    (jobs, late, order): (&[Job], &[Ticks], TieOrder),
    q: Ticks,
    cut: Ticks,
    Beside { from, blocks: beside, known: known_ends }: Beside,
    classes: &[Class],
    p: &Platform,
    (work, steps): (&mut u64, &mut u64),
) {
    let lows = lows_in(jobs, q, cut);
    let blocks: u64 = lows.iter().map(|&i| jobs[i].blocks).sum();
    if lows.is_empty() || blocks > *steps {
        return;
    }
    *steps -= blocks;
    let mut sub = low_list(jobs, &lows);
    // A job's first blocks known to start before the first high release (so before
    // `from`) run beside the list until their ends; its other blocks are listed (its last
    // always: the list's finish is the job's).
    let known: Vec<&[Ticks]> = lows.iter().zip(&mut sub).map(|(&i, j)| {
        let a = known_ends[i].len().min(j.blocks.saturating_sub(1) as usize);
        j.blocks -= a as u64;
        &known_ends[i][..a]
    }).collect();
    let mut beside = beside.to_vec();
    for (e, &i) in known.iter().zip(&lows) {
        beside.extend(e.iter().map(|&e| (e, jobs[i].class)));
    }
    // Each job's starts with its known blocks' first (`end - C`, before `from`).
    let whole = |starts: Vec<Vec<Ticks>>| -> Vec<Vec<Ticks>> {
        starts.into_iter().zip(&known).zip(&lows).map(|((s, e), &i)| e.iter().map(|&e| e - jobs[i].wcet).chain(s).collect()).collect()
    };
    let sub_late: Vec<Ticks> = lows.iter().map(|&i| late[i]).collect();
    let groups = free_groups(&sub, order, &|j: &Job| sub_late[j.id]);
    if groups.is_empty() {
        let (finish, starts) = block_starts_beside(&sub, classes, p, from, &beside);
        keep(out, jobs, &lows, &finish, Some(whole(starts)), cut);
    } else if let Some(w) = every_order_beside(&sub, &groups, &sub_late, order, classes, p, work, (from, &beside)) {
        // The `m`-th end of a job: the most over the orders, where every order has it.
        let starts = w.starts.into_iter().reduce(|a, b| a.iter().zip(&b).map(|(x, y)| most_ends(x, y)).collect());
        keep(out, jobs, &lows, &w.finish, starts.map(whole), cut);
    }
}

/// What a low list of [`after_high_prefix`] runs beside.
struct Beside<'a> {
    /// When the high jobs are all dispatched: no low block is listed before.
    from: Ticks,
    /// The high blocks, each its end bound and class.
    blocks: &'a [(Ticks, usize)],
    /// Per job of `jobs`, the end bounds of its first blocks known to start before the
    /// first high release ([`Alone::ends`] of the lists alone).
    known: &'a [Vec<Ticks>],
}

/// The low jobs released in `[q, cut)`, in nominal order.
fn lows_in(jobs: &[Job], q: Ticks, cut: Ticks) -> Vec<usize> {
    (0..jobs.len()).filter(|&i| jobs[i].priority == Priority::Low && jobs[i].release >= q && jobs[i].release < cut).collect()
}

/// The jobs `lows` of `jobs` as a list of their own: no blocking, no residents, stream
/// predecessors among them.
fn low_list(jobs: &[Job], lows: &[usize]) -> Vec<Job> {
    let mut at = vec![None; jobs.len()];
    lows.iter().enumerate().for_each(|(k, &i)| at[i] = Some(k));
    let index = |i: usize| at[i];
    lows.iter()
        .enumerate()
        .map(|(k, &i)| Job {
            id: k,
            after: jobs[i].after.and_then(index),
            blocking: Ticks::ZERO,
            blocked_until: Ticks::ZERO,
            residents: Residents::NONE,
            ..jobs[i]
        })
        .collect()
}

/// Keeps in `out` the finish `finish[k]` of each job `lows[k]` whose last block is
/// assigned before `cut` (`finish - C < cut`) where less than the kept one, and the end
/// bounds of its blocks started before `cut` (of `starts`, where given).
fn keep(out: &mut Alone, jobs: &[Job], lows: &[usize], finish: &[Ticks], starts: Option<Vec<Vec<Ticks>>>, cut: Ticks) {
    for (k, &i) in lows.iter().enumerate() {
        if finish[k].saturating_sub(jobs[i].wcet) < cut {
            out.finish[i] = out.finish[i].min(finish[k]);
        }
    }
    for (s, &i) in starts.into_iter().flatten().zip(lows) {
        let ends: Vec<Ticks> = s.into_iter().take_while(|&s| s < cut).map(|s| s + jobs[i].wcet).collect();
        out.ends[i] = least_ends(&out.ends[i], &ends);
    }
}

/// The high jobs' block start bounds per launch order of their free groups (one order
/// without a group): `starts[o][k]` those of job `highs[k]` (of `jobs`) in order `o`
/// ([`crate::rta::list::block_starts`] of the high jobs' list in it).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ByOrder {
    /// The high jobs, by their place in `jobs`.
    pub highs: Vec<usize>,
    /// Per order, per high job, its blocks' start bounds.
    pub starts: Vec<Vec<Vec<Ticks>>>,
}

/// What [`before_any_high`] bounds, per job of `jobs`.
pub struct Alone {
    /// The finish bound `F_l`, or `Ticks::MAX`.
    pub finish: Vec<Ticks>,
    /// The end bounds of the job's first blocks in their dispatch order (not decreasing:
    /// the real `m`-th block ends by the `m`-th), as far as they are known (none for a
    /// high job, nor from lists whose starts were not kept).
    pub ends: Vec<Vec<Ticks>>,
}

/// The most of two lists of a job's block bounds (ends or starts), each holding in some
/// of the cases: per block, the larger, as far as both are known (not decreasing, as
/// both are).
fn most_ends(a: &[Ticks], b: &[Ticks]) -> Vec<Ticks> {
    a.iter().zip(b).map(|(&x, &y)| x.max(y)).collect()
}

/// The least of two lists of end bounds of a job's first blocks ([`Alone::ends`]), each
/// holding: per block, the least of those given, as far as either is known (not
/// decreasing, as both are).
pub fn least_ends(a: &[Ticks], b: &[Ticks]) -> Vec<Ticks> {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    long.iter().enumerate().map(|(m, &e)| short.get(m).map_or(e, |&f| e.min(f))).collect()
}
