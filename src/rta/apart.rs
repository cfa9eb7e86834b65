//! Kernels whose blocks are never beside another kernel's, from the jobs' release and
//! response windows of an earlier round of the analysis (issue 53, item 1).
//!
//! A kernel's `C` under turnover (`contention = "full-sm"`) counts the blocks that can be
//! resident beside one of its blocks and, under oldest-first arbitration, older than it.
//! A job of kernel `k` is on the GPU only between its release and its finish; if that
//! window never meets a window of kernel `i`'s jobs, no block of `k` is ever beside one
//! of `i`. Under the queue-order tie rule a job of `k` that enters the queue after `i`'s
//! job is younger as well. `taskset::load` iterates: `C`'s, responses, kernels apart,
//! `C`'s again, each round resting on the last round's proven responses.

use crate::rta::{Ticks, Workload};

/// Per kernel `i` of `w`, per kernel `k`: `true` when no block of `k` can delay a block of
/// `i` on an SM, for the jobs an analysis runs: `analysed[i]`, kernel `i`'s first jobs,
/// `Some(count)` when the analysis bounds every one of them (`response[i]`, an upper
/// bound on each from its release to its finish), `None` when it runs some it does not
/// bound (context jobs after a window; then no kernel is apart from `i`). `end`: the end
/// of the analysis window (`None`: one job per kernel, so `k` has one job). `queue_order`:
/// whether the queue-order tie rule holds with oldest-first arbitration in one process
/// (`gpu.same_cycle_arrivals = "queue-order"`, `gpu.warp_arbitration = "oldest-first"`).
/// `i == k` is never apart.
///
/// `k` is apart from `i` when for every analysed job `n` of `i` (release `r_n`) and every
/// job `m` of `k` (release `s_m`, analysed or later; one job only when `end` is `None`)
/// either
/// - (a) the windows miss each other: `s_m > r_n + R_i` or `s_m + R_k < r_n`; or
/// - (b) `queue_order`, `i` has no copy in and no stream shared with another kernel, `k`
///   has `i`'s priority, and `s_m > E_n = max(r_n + L, r_(n-1) + R_i)` (`L` the launch
///   overhead; the second term for `n > 0` only).
///
/// Proof. (a) A block of `k`'s job `m` is resident only within `[s_m, f_m]`, where
/// `f_m <= s_m + R_k` (no job is dispatched before its release; `R_k` bounds its finish), and a block
/// of `i`'s job `n` only within `[r_n, r_n + R_i]`; disjoint windows share no cycle. A
/// job of `k` released after the window's end is counted by the first test alone (it
/// needs `R_i` only); a job of `k` released before `r_n` is analysed (the analysis runs
/// every job released before its last one's), so `R_k` bounds it. (b) `i`'s job `n` enters its queue once launched (by `r_n + L`)
/// and once its stream predecessor, `i`'s job `n - 1` (a kernel's stream holds its
/// jobs in order, rule G4), has completed (by `r_(n-1) + R_i`); nothing else holds it
/// back (no copy in, no other kernel in its stream). So it enters by `E_n`, and `k`'s job
/// `m` enters no earlier than `s_m > E_n`: behind it in the same FIFO queue, so every
/// block of `k`'s job is dispatched after every block of `i`'s and is younger under the
/// queue-order rule; under oldest-first a younger block never delays an older one
/// (`taskset`'s `younger_kernels` proves the one-job case the same way). A `C` computed
/// without the kernels apart thus bounds every block of `i` in every analysed job (the
/// only ones whose block times the analysis uses), and the
/// analysis on those `C`'s bounds every response again: by induction over the rounds,
/// each round's responses are proven, whatever the rounds before found.
pub(crate) fn apart_kernels(w: &Workload, (end, analysed): (Option<Ticks>, &[Option<u128>]), response: &[Ticks], queue_order: bool) -> Vec<Vec<bool>> {
    let n = w.tasks.len();
    let overhead = w.launch_overhead.get();
    (0..n)
        .map(|i| {
            let enters_at_launch = queue_order && w.tasks[i].copy_in == Ticks::ZERO && !shares_stream(w, i);
            (0..n)
                .map(|k| {
                    let younger = enters_at_launch && w.tasks[k].priority == w.tasks[i].priority;
                    k != i
                        && analysed[i].is_some()
                        && releases(w, i, analysed[i])
                            .all(|(j, r)| !meets(w, k, end, window_low(r, response[k]), reach(w, i, (j, r), response[i], younger.then_some(overhead))))
                })
                .collect()
        })
        .collect()
}

/// The latest release of a job of another kernel that can still delay `i`'s job `j`
/// (released at `r`): `r + R_i` (its window's end), or with the queue-order rule its
/// latest entry, if earlier ([`apart_kernels`], (a) and (b)).
fn reach(w: &Workload, i: usize, (j, r): (u128, u128), r_i: Ticks, younger: Option<u128>) -> u128 {
    let window_end = r.saturating_add(r_i.get());
    let Some(overhead) = younger else { return window_end };
    let previous_done = if j == 0 { 0 } else { r.saturating_sub(period(w, i)).saturating_add(r_i.get()) };
    window_end.min(r.saturating_add(overhead).max(previous_done))
}

/// The earliest release of a job of a kernel with response bound `r_k` that can still be
/// on the GPU at `r` (test (a) of [`apart_kernels`]: `s + R_k >= r`).
fn window_low(r: u128, r_k: Ticks) -> u128 {
    r.saturating_sub(r_k.get())
}

/// Whether kernel `k` has a job released in `[low, high]`. Jobs after the window's end
/// count: they exist in reality.
fn meets(w: &Workload, k: usize, end: Option<Ticks>, low: u128, high: u128) -> bool {
    let s = w.tasks[k].release.get();
    if low > high || high < s {
        return false;
    }
    let p = period(w, k);
    if end.is_none() || p == 0 {
        return s >= low;
    }
    let first = if s >= low { s } else { s + (low - s).div_ceil(p) * p };
    first <= high
}

/// The releases of kernel `i`'s first `count` jobs (index, release).
fn releases(w: &Workload, i: usize, count: Option<u128>) -> impl Iterator<Item = (u128, u128)> + '_ {
    let (s, p) = (w.tasks[i].release.get(), period(w, i));
    (0..count.unwrap_or(0)).map(move |j| (j, s.saturating_add(j.saturating_mul(p))))
}

/// Per kernel of `w`, its jobs released before `end` (at least one; one job per kernel
/// without an end): the jobs a window lists.
pub(crate) fn listed(w: &Workload, end: Option<Ticks>) -> Vec<Option<u128>> {
    (0..w.tasks.len())
        .map(|i| {
            let (s, p) = (w.tasks[i].release.get(), period(w, i));
            Some(match end {
                Some(e) if p > 0 => e.get().saturating_sub(s).div_ceil(p).max(1),
                _ => 1,
            })
        })
        .collect()
}

/// Kernel `i`'s period in ticks (0 when it has none: one job).
fn period(w: &Workload, i: usize) -> u128 {
    w.tasks[i].period.map_or(0, Ticks::get)
}

/// Whether kernel `i` shares its stream with another kernel of `w`.
fn shares_stream(w: &Workload, i: usize) -> bool {
    w.tasks[i].stream.as_ref().is_some_and(|s| w.tasks.iter().enumerate().any(|(k, t)| k != i && t.stream.as_ref() == Some(s)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::{Platform, Priority, Scale, Task, Timing};

    fn set(kernels: &[(u128, u128)]) -> Workload {
        let tasks = kernels
            .iter()
            .enumerate()
            .map(|(i, &(release, period))| {
                let timing = Timing { period: Ticks::new(period), wcet: Ticks::new(1), release: Ticks::new(release) };
                Task::given(format!("K{i}"), timing, 1, 32)
            })
            .collect();
        Workload::new(tasks, Platform::TX2, Scale { decimals: 0 }, "us")
    }

    /// [`apart_kernels`] over the jobs a window ending at `end` lists.
    fn apart(w: &Workload, end: Option<u128>, response: &[Ticks], queue_order: bool) -> Vec<Vec<bool>> {
        let end = end.map(Ticks::new);
        apart_kernels(w, (end, &listed(w, end)), response, queue_order)
    }

    fn ticks(v: &[u128]) -> Vec<Ticks> {
        v.iter().map(|&t| Ticks::new(t)).collect()
    }

    #[test]
    fn one_job_each_apart_when_the_windows_miss() {
        // A at 0 (R 10), B at 20 (R 5): apart; B at 10: meets A's window's end.
        let w = set(&[(0, 100), (20, 100)]);
        assert_eq!(apart(&w, None, &ticks(&[10, 5]), false), [[false, true], [true, false]]);
        let w = set(&[(0, 100), (10, 100)]);
        assert_eq!(apart(&w, None, &ticks(&[10, 5]), false), [[false, false], [false, false]]);
        // A's R 9: B's job starts after A's last block.
        assert_eq!(apart(&w, None, &ticks(&[9, 5]), false), [[false, true], [true, false]]);
    }

    #[test]
    fn periodic_jobs_meet_in_a_later_period() {
        // A every 100 from 0 (R 10), B every 140 from 20 (R 5): B's job at 300 meets A's
        // at 300 within a window of 400, not of 300.
        let w = set(&[(0, 100), (20, 140)]);
        let r = ticks(&[10, 5]);
        assert!(apart(&w, Some(300), &r, false)[0][1]);
        assert!(!apart(&w, Some(400), &r, false)[0][1]);
        // B's job at 160 before A's at 200: its window ends at 165 (R 5) or 205 (R 45).
        assert!(!apart(&w, Some(300), &ticks(&[10, 45]), false)[0][1]);
        // A job released after the window's end still counts: B's first at 305 beside A's
        // last at 300 (window 301), and none beside A's last at 200 (window 300).
        let w = set(&[(0, 100), (305, 1000)]);
        assert!(!apart(&w, Some(301), &r, false)[0][1]);
        assert!(apart(&w, Some(300), &r, false)[0][1]);
    }

    #[test]
    fn jobs_analysed_after_the_window_count_and_context_jobs_part_nothing() {
        // A every 100 from 0 (R 10), B from 305 (R 5): apart over A's jobs before 300, not
        // when the analysis runs A's job at 300 too, nor when it runs one it does not bound.
        let w = set(&[(0, 100), (305, 1000)]);
        let (end, r) = (Some(Ticks::new(300)), ticks(&[10, 5]));
        assert!(apart_kernels(&w, (end, &[Some(3), Some(1)]), &r, false)[0][1]);
        assert!(!apart_kernels(&w, (end, &[Some(4), Some(1)]), &r, false)[0][1]);
        assert!(!apart_kernels(&w, (end, &[None, Some(1)]), &r, false)[0][1]);
    }

    #[test]
    fn later_jobs_of_one_queue_are_younger_under_the_queue_order_rule() {
        // A at 0 and B at 5, R 50 each: the windows meet, but B enters after A (L = 0).
        let mut w = set(&[(0, 100), (5, 100)]);
        let r = ticks(&[50, 50]);
        assert_eq!(apart(&w, None, &r, true), [[false, true], [false, false]]);
        assert_eq!(apart(&w, None, &r, false), [[false, false], [false, false]]);
        // The launch overhead of 5: B may enter first.
        w.launch_overhead = Ticks::new(5);
        assert!(!apart(&w, None, &r, true)[0][1]);
        w.launch_overhead = Ticks::ZERO;
        // Another priority, a copy in, or a stream shared with B: not younger.
        w.tasks[1].priority = Priority::High;
        assert!(!apart(&w, None, &r, true)[0][1]);
        w.tasks[1].priority = Priority::Low;
        w.tasks[0].copy_in = Ticks::new(1);
        assert!(!apart(&w, None, &r, true)[0][1]);
        w.tasks[0].copy_in = Ticks::ZERO;
        (w.tasks[0].stream, w.tasks[1].stream) = (Some("s".into()), Some("s".into()));
        assert!(!apart(&w, None, &r, true)[0][1]);
    }

    #[test]
    fn a_backlogged_job_enters_after_its_predecessor() {
        // A every 100 (R 150): its job at 100 enters by 150; B's jobs at 120, 220, ...
        // enter before it. With R 90 it enters at 100, before B's at 120.
        let w = set(&[(0, 100), (20, 100)]);
        assert!(!apart(&w, Some(300), &ticks(&[150, 50]), true)[0][1]);
        assert!(apart(&w, Some(300), &ticks(&[90, 50]), true)[0][1]);
    }
}
