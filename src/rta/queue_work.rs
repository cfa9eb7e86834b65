//! The **work bound** of one FIFO queue: a job's last block is assigned once the
//! blocks that may be ahead of it have done enough work, each weighed by its share of an
//! SM ([`crate::rta::room::weights`]). It does not depend on the order in which tied
//! jobs enter, so it bounds every launch order at once: used where the orders are too
//! many to try and the merged bound of [`crate::rta::ties::bound_over_orders`] (every
//! block at the group's longest time, with the envelope of its demands) stands in.

use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::{stream_roots, Class, Job};
use crate::rta::room;
use crate::rta::time::Ticks;

/// Most pairs of jobs (job, job that may be ahead of it) one call weighs: beyond, no
/// bound is given (the others stand).
pub const MAX_PAIRS: usize = 4_000_000;

/// Per job `i` of `jobs` (one FIFO queue, X1: a job's blocks are assigned only while it
/// heads the queue, each to an SM with room), a bound on its finish, or `None` where the
/// weights do not apply or a sum overflows. `late[k]` is the latest time job `k` may
/// enter the queue and `done[k]` a bound on its finish (a promise due before `i`'s
/// bound where it is used: `done[k] <= r_i`, or `k` runs at most until `done[k]` inside
/// the window below).
///
/// The bound: let `A` be `i` and every job `k` that may enter the queue before `i`
/// (released by `late[i]`, not of `i`'s stream: those run before `i` enters or after it is done) with `done[k] > r_i`; `w_k` the
/// weight of `k`'s demand with the demands of `A` as heads and as running blocks,
/// `G = #SMs` (in [`room::WEIGHT_ONE`] units), `n_k` the blocks of `k` (one fewer for
/// `i`) and `V = sum_(k in A) w_k n_k min(C_k, done[k] - r_i)` (`C_k` with the block
/// overhead). If `sum w_k n_k < G`, `i`'s last block is assigned by `late[i]`, else by
/// `X = late[i] + floor(V / G) + 1`, and by any `X > late[i]` with `G (X - late[i]) >
/// V(X)`, where `V(X)` counts each block for `min(C_k, min(X, done[k]) - r_i)` only (the
/// window, [`assigned_by`]); `i` ends by that plus `C_i`. The **counted** form
/// takes `w_k = 1` and `G` the slots of the envelope of `A`'s demands (`#SMs` times
/// [`room::fit`] of it if all are of one exact class, else [`room::beside`] of the
/// envelope beside itself); the lesser of the two is reported.
///
/// Proof. Let `i` enter at `e` (`r_i <= e <= late[i]`) and suppose its last block is
/// assigned at `X' > X`. At every instant `t` of `[e, X)` the queue's head is a job
/// that entered no later than `i` (FIFO) and is not done: so one of `A` (it was released
/// by `e <= late[i]`; a job of `i`'s stream before `i` completed before `i` entered; a
/// job with `done[k] <= r_i <= t` is done, if that promise holds), and it has no room on any SM
/// (else its next block would be assigned at `t`). So on every SM the running blocks hold
/// more of some resource than `cap - need(head)`, and weigh at least 1 ([`room::weights`]:
/// its heads include the head's demand): at least `G` on the GPU. (Counted: all of them
/// and the head are no larger than the envelope, and an SM running fewer than `G / #SMs`
/// such blocks has room for the head: by [`room::beside`] of the envelope beside itself,
/// or, where all of `A` are of one exact class, by [`room::fit`] of it.) They are blocks of jobs
/// that entered no later than `i` (a job behind `i` gets a block only once `i` is fully
/// dispatched, after `t`), none of them `i`'s last; a job with `done[k] <= r_i <= e` runs
/// no block then, and a block of `k` runs within `[e, min(X, done[k]))` for at most
/// `C_k`, so for at most `min(C_k, min(X, done[k]) - r_i)`. So `G (X - e) <= V(X) <= V`.
/// With `sum w_k n_k < G` this fails at `e` itself: `X' <= e <= late[i]`. Otherwise
/// `G (X - e) >= G (X - late[i]) > V(X)`: a contradiction (for `X = late[i] + floor(V /
/// G) + 1`, `G (X - late[i]) > V >= V(X)`). The
/// bound rests on `i`'s entry promise and on the `done[k]` used, due by `r_i` or, for a
/// block cut at `done[k] < X`, before `i`'s own bound: the earliest-broken-promise
/// argument of [`crate::rta::queues`] covers them.
pub fn fifo_work_bounds(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform) -> Vec<Option<Ticks>> {
    if jobs.len().saturating_mul(jobs.len()) > MAX_PAIRS {
        return vec![None; jobs.len()];
    }
    let root = stream_roots(jobs);
    (0..jobs.len()).map(|i| bound_of(jobs, late, done, classes, p, &root, i)).collect()
}

/// [`fifo_work_bounds`] for job `i`: the lesser of the weighted and the counted form.
fn bound_of(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform, root: &[usize], i: usize) -> Option<Ticks> {
    let r_i = jobs[i].release;
    // Jobs of `i`'s stream run before it enters or after it is done.
    let ahead = |k: usize| k == i || (jobs[k].release <= late[i] && root[k] != root[i] && done[k] > r_i);
    let a: Vec<usize> = (0..jobs.len()).filter(|&k| ahead(k)).collect();
    // Per job of `a`: its blocks that may run before `i`'s last is assigned, each one's
    // time, and when the job is done.
    let runs: Vec<Run> = a
        .iter()
        .map(|&k| Run { blocks: u128::from(jobs[k].blocks - u64::from(k == i)), wcet: jobs[k].wcet, done: if k == i { Ticks::MAX } else { done[k] } })
        .collect();
    let demands: Vec<Demand> = a.iter().map(|&k| classes[jobs[k].class].demand).collect();
    let weighted = room::weights_among(p, &demands, &demands).and_then(|w| {
        let g = u128::from(p.sms()).checked_mul(room::WEIGHT_ONE)?;
        assigned_by((late[i], r_i), &runs, &w, g)
    });
    let Class { demand, exact } = Class::covering(a.iter().map(|&k| &jobs[k]), classes);
    let per_sm = if exact { room::fit(p, &demand) } else { room::beside(p, &demand, &demand) };
    let counted = assigned_by((late[i], r_i), &runs, &vec![1; a.len()], u128::from(p.sms().saturating_mul(per_sm).max(1)));
    weighted.into_iter().chain(counted).min()?.checked_add(jobs[i].wcet)
}

/// Blocks of one job that may run while `i`'s last block waits.
struct Run {
    blocks: u128,
    wcet: Ticks,
    done: Ticks,
}

/// Most steps of the window's fixed point in [`assigned_by`]: beyond, the bound without
/// the window stands.
pub const WINDOW_STEPS: usize = 1_000;

/// When the last block is assigned (`late`: the latest entry, `r`: the release): by
/// `late` if the blocks of `runs` weigh (`weights`) less than `g` together; else by the
/// least `X > late` with `g (X - late) > V(X)`, `V(X)` their weighted time in `[r, X)`
/// (each block `min(C, min(X, done) - r)`), found from `late + 1` by `X = late +
/// floor(V(X) / g) + 1` in at most [`WINDOW_STEPS`] steps, else `X` for `V` without the
/// window; `None` on overflow.
fn assigned_by((late, r): (Ticks, Ticks), runs: &[Run], weights: &[u128], g: u128) -> Option<Ticks> {
    let total = runs.iter().zip(weights).try_fold(0u128, |t, (run, &w)| t.checked_add(w.checked_mul(run.blocks)?))?;
    if total < g {
        return Some(late);
    }
    let v = |x: Ticks| -> Option<u128> {
        runs.iter().zip(weights).try_fold(0u128, |v, (run, &w)| {
            let span = run.wcet.min(x.min(run.done).saturating_sub(r));
            v.checked_add(w.checked_mul(run.blocks)?.checked_mul(span.get())?)
        })
    };
    let mut x = late.checked_add(Ticks::new(1))?;
    for _ in 0..WINDOW_STEPS {
        let next = late.checked_add(Ticks::new(v(x)? / g + 1))?;
        if next <= x {
            return Some(x);
        }
        x = next;
    }
    late.checked_add(Ticks::new(v(Ticks::MAX)? / g + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::jobs::tests::job;
    use crate::rta::list::finishes;
    use rand::{Rng, SeedableRng};

    /// Every order of the list schedule (each block at its C, every job released at a
    /// random time up to its latest entry and entering between the two) against the
    /// bound, on random jobs of mixed demands; the list's finishes, written apart
    /// (`crate::rta::list`), stand for the runs (with mixed demands its room rule is
    /// itself a safe side, so this checks against one model of the runs, not the truth).
    /// The bound is reached on some sets.
    #[test]
    fn the_work_bound_covers_every_order() {
        let p = Platform::TX2;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(57);
        let mut reached = 0;
        for _ in 0..400 {
            let n = rng.random_range(2..6);
            let classes: Vec<Class> = (0..n)
                .map(|_| {
                    let threads = [32u64, 64, 256, 544, 1024][rng.random_range(0..5)];
                    let d = p.demand(threads, [0u64, 12_000, 40_000][rng.random_range(0..3)], [0u64, 16, 32][rng.random_range(0..3)], "k").unwrap();
                    Class { demand: d, exact: true }
                })
                .collect();
            let jobs: Vec<Job> =
                (0..n).map(|i| Job { wcet: Ticks::new(rng.random_range(1..12)), blocks: rng.random_range(1..9), class: i, ..job(i, None) }).collect();
            let late: Vec<Ticks> = (0..n).map(|_| Ticks::new(rng.random_range(0..12))).collect();
            let jobs: Vec<Job> = jobs
                .into_iter()
                .map(|j| {
                    let r = Ticks::new(rng.random_range(0..=late[j.id].get()));
                    Job { release: r, ready: r, ..j }
                })
                .collect();
            let done = vec![Ticks::MAX; n];
            let bound = fifo_work_bounds(&jobs, &late, &done, &classes, &p);
            let mut order: Vec<usize> = (0..n).collect();
            let mut worst = vec![Ticks::ZERO; n];
            permutations(&mut order, 0, &mut |o| {
                // Entries in this order, each within its window (`0..=late`).
                let mut at = Ticks::ZERO;
                let run: Vec<Job> = o
                    .iter()
                    .map(|&k| {
                        at = at.max(Ticks::new(rng.random_range(jobs[k].release.get()..=late[k].get())));
                        Job { ready: at.min(late[k]), ..jobs[k] }
                    })
                    .collect();
                // Entries that do not keep the order, or fall before a release, are skipped
                // (the list is FIFO by ready).
                if run.windows(2).all(|w| w[0].ready <= w[1].ready) && run.iter().all(|j| j.ready >= j.release) {
                    for (j, f) in run.iter().zip(finishes(&run, &classes, &p)) {
                        worst[j.id] = worst[j.id].max(f);
                    }
                }
            });
            for i in 0..n {
                if let Some(b) = bound[i] {
                    assert!(b >= worst[i], "job {i}: bound {b:?} below a run's {:?} ({jobs:?}, late {late:?})", worst[i]);
                    reached += usize::from(b == worst[i]);
                }
            }
        }
        assert!(reached > 0);
    }

    fn permutations(o: &mut Vec<usize>, k: usize, f: &mut dyn FnMut(&[usize])) {
        if k == o.len() {
            return f(o);
        }
        for i in k..o.len() {
            o.swap(k, i);
            permutations(o, k + 1, f);
            o.swap(k, i);
        }
    }
}
