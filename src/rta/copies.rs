//! The copy engine as the analysis sees it (rules C1-C4 of Amert et al., as the TX2
//! thesis gives them): a job's copy in and copy out are operations of its stream, before
//! and after its kernel; each enters the one CE queue when it reaches the head of its
//! stream queue, and the copy engine serves that FIFO queue one copy at a time, each to
//! completion. [`copy_finishes`] bounds when every copy completes from bounds on when
//! each may enter.

use crate::rta::jobs::{stream_roots, Job};
use crate::rta::time::Ticks;

/// Most copy pairs the bound may weigh in one analysis round (its work grows with the
/// square of the copies in a window).
pub const MAX_COPY_WORK: u64 = 200_000_000;

/// Which of a job's copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Direction {
    /// To the GPU, before the kernel.
    In,
    /// Back, after the kernel.
    Out,
}

/// One copy as the bound sees it.
#[derive(Debug, Clone, Copy)]
struct Copy {
    /// Its job (index of the nominal sequence).
    job: usize,
    direction: Direction,
    /// It enters the CE queue no earlier than this (its job's release).
    earliest: Ticks,
    /// ... and no later than this.
    latest: Ticks,
    /// Its time on the copy engine (at most).
    time: Ticks,
}

/// Per job, the bound on the completion of its copy in and of its copy out (`None`
/// where the job has no such copy).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyFinishes {
    /// Completion of each job's copy in.
    pub copy_in: Vec<Option<Ticks>>,
    /// Completion of each job's copy out.
    pub copy_out: Vec<Option<Ticks>>,
}

/// A bound on the completion of every copy, given for each job the latest time its
/// copy in may enter the CE queue (`enter_in`) and the latest time its copy out may
/// (`enter_out`, its kernel's reported finish); `None` when the work would exceed
/// `budget` (steps of the bound, lowered by what is used).
///
/// **Bound.** For a copy `c` entering by `e_c`, let `S_c` be the copies other than `c`
/// that are not after `c` in its stream and whose job is released by `e_c`, a copy out
/// only if its job is released before `e_c` (no other can be ahead of `c` in the queue), `a_k = min(e_k, e_c)` for `k` in `S_c`, and `x` the copy
/// times. Take the distinct values `h` among the `a_k` and `e_c`, each with `l` the next
/// smaller one (0 below the least). For such an `h`, let `A = {k in S_c : a_k >= h}`,
/// split by stream: `Sum_s` and `Max_s` the total and the longest time of stream `s`'s
/// copies in `A`. Then `c` completes by the largest, over the values `h`, of
///
/// `h + x_c + min(Sum_own, e_c - l) + sum over other streams s of min(Sum_s, e_c - l + Max_s)`
///
/// (`own` is `c`'s stream, whose copies in `A` are all before `c`), the value for each `h`
/// (not each stream's term) capped at
///
/// `e_c + x_c + sum over other streams s of Max_s`
///
/// (at most one copy of each other stream is ahead of `c` when it enters).
///
/// Proof. Hypothesis: every copy `k` really enters by its `e_k` (the fixpoint of
/// [`crate::rta::queues`] discharges it), and the engine is never idle while its queue
/// holds a copy. A copy enters no earlier than its job's release (a copy in at the
/// release at the earliest, a copy out after its kernel), so a copy of a job released
/// after `e_c` enters after `c` and is served after it; so does a copy out of a job
/// released at `e_c` or later: it enters once its kernel has completed, strictly after
/// the release, since a block takes a positive time. Let `t0` be the supremum of the
/// times at or before `c`'s real entry `e` at which the engine is idle with an empty
/// queue (the GPU starts so, at 0 or later). From `t0` until `c` completes the engine is
/// never idle: each copy it serves entered in `[t0, e]` (FIFO: nothing that enters
/// after `c` is served before it), so `c` completes by `t0` plus the real times of those
/// copies. Each of them is released by `e <= e_c`, is not after `c` in its stream (those
/// enter after `c` completes), and
/// entered at or after `t0`, so its own latest entry `e_k >= t0`, hence `a_k >= t0`: it
/// is in `A` for the `h` with `l < t0 <= h` (the least `h >= t0`; `e_c >= e >= t0`). The
/// copies of one stream run one after another: each enters only once the one before it
/// has completed (C4). So of one stream's copies served in `[t0, e]` all but the last
/// completed before the last one entered, by `e`, after `t0`: together at most
/// `e - t0 < e_c - l` (at most `e_c - l` when `l = 0 = t0`), plus the last, at most
/// `Max_s`. The copies of `c`'s own stream served then all completed before `c` entered:
/// at most `e - t0`. With `t0 <= h` that is the bound's term for `h`. The same holds if
/// the engine serves both directions apart or one queue feeds two engines: in
/// `[t0, completion]` (`t0` now the last time every engine is idle with an empty queue)
/// some engine is always busy with a copy from that set: with one queue per engine, `c`'s
/// own engine; with one queue feeding two, while `c`'s queue head waits for its engine,
/// that engine serves a copy that entered before the head.
///
/// The cap: at `c`'s real entry `e <= e_c`, each stream has at most one copy in the
/// CE queue or in service (C4: a stream's operation enters only once the one before it
/// has completed), none of `c`'s own (they completed before `c` entered), and every copy
/// entering after `e` is served after `c`. So until `c` starts, some engine is busy
/// with one of those at most one copy per other stream (entered in `[t0, e]`, hence in
/// `A` for the same `h`), each for at most its time, and `c` completes by `e` plus their
/// times plus `x_c`. The two bounds hold for the same `h` (the one with `l < t0 <= h`),
/// so their least does.
///
/// The bound only grows with any `e_k` (a larger entry bound adds copies to `S_c` or
/// raises an `a_k`), so it may be iterated with the kernels' bounds to a fixpoint
/// ([`crate::rta::queues`]).
pub fn copy_finishes(jobs: &[Job], enter_in: &[Ticks], enter_out: &[Ticks], budget: &mut u64) -> Option<CopyFinishes> {
    let copies = copies_of(jobs, enter_in, enter_out);
    let root = stream_roots(jobs);
    // Copies by the release of their job: those that may be ahead of `c` are a prefix.
    let mut by_release: Vec<Copy> = copies.clone();
    by_release.sort_by_key(|k| k.earliest);
    let mut out = CopyFinishes { copy_in: vec![None; jobs.len()], copy_out: vec![None; jobs.len()] };
    let mut ahead: Vec<Ahead> = Vec::new();
    for c in &copies {
        let prefix = by_release.partition_point(|k| k.earliest <= c.latest);
        let not_after_c = |k: &&Copy| root[k.job] != root[c.job] || (k.job, k.direction) < (c.job, c.direction);
        // A copy out enters strictly after its job's release (after its kernel).
        let may_enter_first = |k: &&Copy| k.direction == Direction::In || k.earliest < c.latest;
        ahead.clear();
        ahead.extend(by_release[..prefix].iter().filter(not_after_c).filter(may_enter_first).map(|k| Ahead {
            entry: k.latest.min(c.latest),
            time: k.time,
            stream: root[k.job],
        }));
        let done = busy_end(c, root[c.job], &mut ahead, budget)?;
        match c.direction {
            Direction::In => out.copy_in[c.job] = Some(done),
            Direction::Out => out.copy_out[c.job] = Some(done),
        }
    }
    Some(out)
}

/// The copies of `jobs` with their entry windows.
fn copies_of(jobs: &[Job], enter_in: &[Ticks], enter_out: &[Ticks]) -> Vec<Copy> {
    let mut copies = Vec::new();
    for j in jobs {
        for (direction, time, latest) in [(Direction::In, j.copy_in, enter_in[j.id]), (Direction::Out, j.copy_out, enter_out[j.id])] {
            if time > Ticks::ZERO {
                copies.push(Copy { job: j.id, direction, earliest: j.release, latest, time });
            }
        }
    }
    copies
}

/// A copy that may be ahead of another: its entry bound capped at the other's (`a_k`),
/// its time and its stream.
#[derive(Debug, Clone, Copy)]
struct Ahead {
    entry: Ticks,
    time: Ticks,
    stream: usize,
}

/// The bound of [`copy_finishes`] for `c` (of stream `own`) over the copies `ahead` of
/// it (sorted here), or `None` when its work exceeds `budget`.
fn busy_end(c: &Copy, own: usize, ahead: &mut [Ahead], budget: &mut u64) -> Option<Ticks> {
    ahead.sort_unstable_by_key(|k| std::cmp::Reverse(k.entry));
    // Per stream, the total and the longest time of its copies with `a_k >= h`.
    let mut streams: std::collections::HashMap<usize, (Ticks, Ticks)> = std::collections::HashMap::new();
    let (mut i, mut end, mut h) = (0, Ticks::ZERO, c.latest);
    loop {
        while i < ahead.len() && ahead[i].entry >= h {
            let s = streams.entry(ahead[i].stream).or_insert((Ticks::ZERO, Ticks::ZERO));
            *s = (s.0.saturating_add(ahead[i].time), s.1.max(ahead[i].time));
            i += 1;
        }
        let l = ahead.get(i).map_or(Ticks::ZERO, |k| k.entry);
        *budget = budget.checked_sub(streams.len() as u64 + 1)?;
        let gap = c.latest - l;
        // Per stream its share up to the gap, and (the cap) at most one copy of each other
        // stream in service or queued when c enters.
        let (others, one_each) = streams.iter().fold((Ticks::ZERO, Ticks::ZERO), |(others, one_each), (&s, &(sum, most))| match s == own {
            true => (others.saturating_add(sum.min(gap)), one_each),
            false => (others.saturating_add(sum.min(gap.saturating_add(most))), one_each.saturating_add(most)),
        });
        let busy = h.saturating_add(others);
        end = end.max(busy.min(c.latest.saturating_add(one_each)).saturating_add(c.time));
        match ahead.get(i) {
            Some(k) => h = k.entry,
            None => return Some(end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy(latest: u128, time: u128) -> Copy {
        Copy { job: 0, direction: Direction::In, earliest: Ticks::ZERO, latest: Ticks::new(latest), time: Ticks::new(time) }
    }

    #[test]
    fn one_server_serves_in_turn() {
        let ahead = |v: &[(Ticks, Ticks, usize)]| v.iter().map(|&(entry, time, stream)| Ahead { entry, time, stream }).collect::<Vec<_>>();
        let mut budget = 1000;
        // c (entry 5, time 1) behind copies of two other streams entering at 0: 0 + 3 + 4 + 1.
        assert_eq!(busy_end(&copy(5, 1), 9, &mut ahead(&[(Ticks::ZERO, Ticks::new(3), 1), (Ticks::ZERO, Ticks::new(4), 2)]), &mut budget), Some(Ticks::new(8)));
        // A gap: c alone from 10 on.
        assert_eq!(busy_end(&copy(10, 1), 9, &mut ahead(&[(Ticks::ZERO, Ticks::new(2), 1)]), &mut budget), Some(Ticks::new(11)));
        // Two copies of one other stream ahead of c entering by 0: the first had to complete
        // before the second entered, by 0, so only the longest counts: 0 + 5 + 1.
        assert_eq!(busy_end(&copy(0, 1), 9, &mut ahead(&[(Ticks::ZERO, Ticks::new(5), 1), (Ticks::ZERO, Ticks::new(3), 1)]), &mut budget), Some(Ticks::new(6)));
        // c's own stream's copies completed before c entered (by 0): none counts.
        assert_eq!(busy_end(&copy(0, 1), 1, &mut ahead(&[(Ticks::ZERO, Ticks::new(5), 1)]), &mut budget), Some(Ticks::new(1)));
        assert_eq!(busy_end(&copy(0, 1), 1, &mut ahead(&[(Ticks::ZERO, Ticks::new(5), 1)]), &mut 0), None);
        // Three other streams, each with 20 of copies entering by 0 and 5, ahead of c (entry
        // 10, time 1): one engine does at most 10 of them by c's entry, and then at most one
        // of each stream is ahead of c: 10 + 3 x 10 + 1, not 0 + 3 x 20 + 1.
        let t = |entry: u128, stream: usize| (Ticks::new(entry), Ticks::new(10), stream);
        let mut three = ahead(&[t(0, 1), t(5, 1), t(0, 2), t(5, 2), t(0, 3), t(5, 3)]);
        assert_eq!(busy_end(&copy(10, 1), 9, &mut three, &mut budget), Some(Ticks::new(41)));
    }
}
