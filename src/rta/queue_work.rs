//! The **work bound** of one FIFO queue: a job's last block is assigned once the
//! blocks that may be ahead of it have done enough work, each weighed by its share of an
//! SM ([`crate::rta::room::weights`]). It does not depend on the order in which tied
//! jobs enter, so it bounds every launch order at once: used where the orders are too
//! many to try and the merged bound of [`crate::rta::ties::bound_over_orders`] (every
//! block at the group's longest time, with the envelope of its demands) stands in.

use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::{stream_roots, Class, Job};
use crate::rta::room;
use crate::rta::settle::{settle, Step, WINDOW_STEPS};
use crate::rta::time::Ticks;

/// Most pairs of jobs (job, job that may be ahead of it) one call weighs: beyond, no
/// bound is given (the others stand).
pub const MAX_PAIRS: usize = 4_000_000;

/// Most passes of [`tightened_work_bounds`] over the jobs, and most pairs (job, job
/// weighed for it) over all its passes: `MAX_PASSES` passes below 1,000 jobs, fewer
/// above.
pub const MAX_PASSES: usize = 16;

/// `done` (a bound on each job's finish resting only on promises due before it, as the
/// merged bound of [`crate::rta::ties::bound_over_orders`]) lowered by the work bound of
/// [`bound_of`] fed with its own results: job by job in the order of `jobs`,
/// each job's bound computed with the values lowered so far, and the passes repeated
/// while one lowers a value (at most [`MAX_PASSES`], fewer for many jobs: at most
/// `MAX_PASSES * 1000^2` pairs in all). Each value returned is at most `done`'s.
///
/// Proof, on the final values `D` (the earliest-broken-promise argument of
/// [`crate::rta::queues`]). Each `D_i` is either `done_i`, which rests on entry promises
/// due before it, or a value of [`bound_of`] computed from values `d_k` held
/// then, each at least the final `D_k` (values only go down). That bound uses, besides
/// entry promises due before `D_i`, only that a job `k` is done by `d_k` where `d_k <=
/// r_i`, or `d_k < X < D_i` (a block cut at `d_k`), or `d_k < t0 <= late[i] < D_i` (the
/// busy window). If `k` is still running after `d_k >= D_k`, `k` broke its promise `D_k`
/// strictly before `D_i`. So a first broken promise among the final values is never one
/// of these, and the order in which the values were computed plays no part (two jobs
/// cannot hold each other up: each use is of a promise due strictly earlier). Values left
/// when the passes stop are bounds too. Without this descent a merged group's loose
/// values count every earlier job of the group as still running, and the stream waits
/// built on them grow from round to round.
pub fn tightened_work_bounds(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform) -> Vec<Ticks> {
    let mut done = done.to_vec();
    let pairs = jobs.len().saturating_mul(jobs.len());
    if pairs > MAX_PAIRS {
        return done;
    }
    let passes = MAX_PASSES.min(MAX_PASSES * 1_000_000 / pairs.max(1)).max(1);
    let root = stream_roots(jobs);
    for _ in 0..passes {
        let mut lowered = false;
        for i in 0..jobs.len() {
            if let Some(b) = bound_of(jobs, late, &done, classes, p, &root, i).filter(|&b| b < done[i]) {
                done[i] = b;
                lowered = true;
            }
        }
        if !lowered {
            break;
        }
    }
    done
}

/// For job `i` of `jobs` (one FIFO queue, X1: a job's blocks are assigned only while it
/// heads the queue, each to an SM with room), a bound on its finish, or `None` where no
/// form applies (the weights do not, or a sum overflows): the least of the forms from its
/// release below ([`from_release`]), of the busy window ([`busy_assigned_by`]) and head by
/// head ([`heads_assigned_by`], [`entry_assigned_by`]), plus `C_i`. `late[k]` is the latest time job `k` may
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
/// envelope beside itself); [`from_release`] takes the lesser of the two.
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
fn bound_of(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform, root: &[usize], i: usize) -> Option<Ticks> {
    let busy = busy_assigned_by(jobs, late, done, classes, p, root, i);
    let heads = heads_assigned_by(jobs, late, done, classes, p, root, i);
    let entry = entry_assigned_by(jobs, late, done, classes, p, root, i);
    from_release(jobs, late, done, classes, p, root, i).into_iter().chain(busy).chain(heads).chain(entry).min()?.checked_add(jobs[i].wcet)
}

/// When job `i`'s last block is assigned, by the weighted and the counted form of
/// [`bound_of`] (the work from `i`'s release on), the lesser.
fn from_release(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform, root: &[usize], i: usize) -> Option<Ticks> {
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
    weighted.into_iter().chain(counted).min()
}

/// The **busy-window** form of [`bound_of`]: when job `i`'s last block is
/// assigned, counting the work from the last instant `t0` at which the queue was empty,
/// not from `i`'s release. `None` where the weights do not apply or a sum overflows.
///
/// Let `J` be `i` and the jobs `k` released by `late[i]` that are not after `i` in its
/// stream, `w_k` their weights ([`room::weights_among`], `J`'s demands as heads and as
/// running blocks), `G = #SMs` (in [`room::WEIGHT_ONE`] units), `n_k` the blocks of `k`
/// (one fewer for `i`) and `m_k = min(n_k, #SMs * per-SM cap)` (the cap
/// [`room::most`], the most blocks of the demand one SM holds in any scenario, for an
/// exact class, the block limit otherwise). For
/// a time `c`, let `V(c)` be the sum over `J` of 0 if `done[k] < c`, else `w_k n_k C_k`
/// if `late[k] >= c`, else `w_k m_k C_k`. Then `i`'s last block is assigned by the
/// largest, over `c` among `late[i]` and the values `late[k]`, `done[k]` of `J` in `[0,
/// late[i]]`, of `max(late[i], c + floor(V(c) / G) + 1)`.
///
/// Proof. Let `i` enter at `e <= late[i]` and `t0 <= e` be the supremum of the instants
/// up to `e` at which the queue is empty (it is before the first entry). Suppose `i`'s
/// last block is assigned at `X' > X`, for some `X >= late[i]` with `G (X - t0) >
/// V(t0)`. At every instant of `(t0, X)` the queue holds a job (`i` from `e` on), and its
/// head has no room on any SM (a head with room takes it at once): on each SM the
/// running blocks weigh at least 1, as the head entered in `[t0, e]` (so it is in `J`)
/// and every running block is one of a job that entered by `e` (a job behind `i` gets no
/// block before `X'`): so of `J`. Over `(t0, X)` the blocks run for a weighted time of at
/// least `G (X - t0)`. A job `k` of `J` that entered at or after `t0` has `late[k] >=
/// t0` (else its entry promise, due before `t0 <= e`, broke) and its blocks run in the
/// window at most `n_k C_k`; one that entered before `t0` was wholly dispatched by an
/// instant the queue was empty, before `t0`, so at most the blocks resident at `t0`, at
/// most `m_k`, run on, each for at most `C_k`; and no job with `done[k] < t0` runs a
/// block after `t0`, whenever it entered (else its promise broke before `t0`). So the weighted time is at most `V(t0)` and `G (X - t0)
/// <= V(t0)`: a contradiction. `V` does not increase with `t0` and changes only past
/// the values `late[k]` and `done[k]`, where it is counted inclusively; so over each
/// stretch of `t0` ending at such a value `c` (or at `late[i] >= e >= t0`), `t0 +
/// floor(V(t0) / G) + 1 <= c + floor(V(c) / G) + 1`, and `X`, the largest of these
/// over the values `c` and at least `late[i]`, has `G (X - t0) > V(t0)` for every `t0`
/// that can happen. The promises used are `late[k]` and `done[k]` below `t0 <=
/// e`, due before `i`'s bound (the earliest-broken-promise argument of
/// [`crate::rta::queues`]).
fn busy_assigned_by(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform, root: &[usize], i: usize) -> Option<Ticks> {
    let after_i = |k: usize| k > i && root[k] == root[i];
    let j: Vec<usize> = (0..jobs.len()).filter(|&k| k == i || (jobs[k].release <= late[i] && !after_i(k))).collect();
    let demands: Vec<Demand> = j.iter().map(|&k| classes[jobs[k].class].demand).collect();
    let w = room::weights_among(p, &demands, &demands)?;
    let g = u128::from(p.sms()).checked_mul(room::WEIGHT_ONE)?;
    // Per job of J: (late, done, full weighted work, carried-in weighted work).
    let mut terms = Vec::with_capacity(j.len());
    for (&k, &wk) in j.iter().zip(&w) {
        let class = classes[jobs[k].class];
        let blocks = u128::from(jobs[k].blocks - u64::from(k == i));
        let per_sm = if class.exact { room::most(p, &class.demand) } else { p.max_blocks_per_sm };
        let resident = blocks.min(u128::from(p.sms()).checked_mul(u128::from(per_sm))?);
        let c = jobs[k].wcet.get();
        let (late_k, done_k) = if k == i { (late[i], Ticks::MAX) } else { (late[k], done[k]) };
        terms.push((late_k, done_k, wk.checked_mul(blocks)?.checked_mul(c)?, wk.checked_mul(resident)?.checked_mul(c)?));
    }
    largest_over_window_starts(&terms, late[i], |c, v| c.checked_add(Ticks::new(v / g + 1)))
}

/// The **head-by-head** form of [`bound_of`]: when job `i`'s last block is assigned,
/// counting each job that may head the queue in the busy window by its own blocks alone,
/// packed `f_k` to an SM, and each job whose blocks may run beside a later head by one
/// block's time per SM. `None` where a sum overflows.
///
/// Let `J` be as in [`busy_assigned_by`], `S = #SMs`, `n_k` the blocks of `k`, `C_k`
/// their time and `f_k` a count such that an SM running fewer blocks, none larger than
/// `k`'s class demand, has room for another block of `k` in every scenario ([`room::fit`]
/// for an exact class, [`room::beside`] of the envelope beside itself otherwise). For a time `c`, let `H(c)` be the jobs of `J` with
/// `late[k] >= c` and `done[k] >= c`, `R(c)` those other than `i` with `done[k] >= c`,
/// `p_k = n_k - 1`, or 0 where `n_k - 1 < f_k`, and `U(c) = sum_(k in H(c)) p_k C_k /
/// f_k + sum_(k in R(c)) min(n_k, S) C_k`. Then `i`'s last block is assigned by the
/// largest, over `c` among `late[i]` and the values `late[k]`, `done[k]` of `J` in `[0,
/// late[i]]`, of `c + ceil(U(c) / S)` (and `late[i]`).
///
/// Proof. Let `i` enter at `e <= late[i]`, `t0 <= e` the supremum of the instants up to
/// `e` at which the queue is empty, and `X` the instant `i`'s last block is assigned. On
/// `(t0, X)` the queue holds a job at every instant, so its heads follow one another
/// without a gap: each head `h` holds the head over `I_h = [s_h, X_h)`, from when it
/// became head to when its last block is assigned (the next head's `s`), `i` the last;
/// these intervals tile `[t0, X)`, and each head entered in `[t0, e]`, so it is in `J`
/// with `late[h] >= t0` (else its entry promise broke before `t0 <= e`) and `done[h] >=
/// t0` (else `h` runs past `done[h] < t0`, a promise broken before `t0`): in `H(t0)`.
/// Heads whose blocks are all assigned at the instant they become head cover no time
/// (skipped below, so the `s_h` taken are strictly increasing); their blocks are
/// residents of the heads after them.
///
/// Within `I_h` only `h`'s blocks are assigned (X1: blocks are assigned only to the
/// head); so the blocks running at an instant `t` of `I_h` are `h`'s, other than its last
/// and any assigned with it at `X_h`, and *residents*: blocks of earlier jobs, assigned
/// by `s_h` (by earlier heads, or before `t0`). After the assignments at `t`, `h` has no room on any SM (a head with
/// room takes it at once, and its last block is still to come). So each SM at `t` is
/// either *pure*, running only blocks of `h`, and then at least `f_h` of them (an SM
/// running fewer blocks of at most `h`'s class demand has room for it), or *impure*,
/// running a resident. The pure time of all SMs in `I_h` is thus at most the time `h`'s
/// blocks other than its last run in it over `f_h`: at most `(n_h - 1) C_h / f_h`, and
/// none where `n_h - 1 < f_h` (no SM then holds `f_h` of them).
///
/// The impure time of an SM `m` in `I_h` is the time until the resident of `s_h` on `m`
/// that ends last ends: charge it to that block `b_m(h)` (among residents ending together,
/// the one assigned first, then a fixed order). Each instant is charged to a block
/// running then, so a block is charged at most its time `C_k`. And on `m` no two charged
/// blocks are of one job `k`: let `b` be charged for `h` and `b'`, of `k` too, for a
/// later `h'`. `b` is a resident at `s_h`, assigned by an earlier head, so `k` came before
/// `h` and all its blocks were assigned by `X_k <= s_h`; `b'` runs in `I_h'`, so it was
/// running on `m` at `s_h` too, and `b` ends no earlier than it (the choice at `h`); so
/// `b` also runs at `s_h'` and the choice at `h'` took `b'` over `b`: both end together,
/// and the tie rule, the same at `h` and `h'`, took each over the other, so `b = b'`.
/// The charged blocks are of jobs other than `i` (none of `i`'s runs before `X`), not
/// done by `t0` (a job with `done[k] < t0` runs nothing after it, or its promise broke
/// before `t0`), and a job has blocks on at most `min(n_k, S)` SMs: over all SMs the
/// impure time is at most `sum_(k in R(t0)) min(n_k, S) C_k`.
///
/// So `S (X - t0) <= U(t0)`. `U` does not increase with `t0` and changes only past the
/// values `late[k]` and `done[k]`, counted inclusively: for `t0` in a stretch ending at
/// such a value `c` (or at `late[i] >= t0`), `X <= t0 + U(t0) / S <= c + U(c) / S`,
/// rounded up to a tick (block times may be fractions of a tick, so `X` need not be a
/// whole number of them). The promises used are due before `t0 <= e`, before
/// `i`'s bound (the earliest-broken-promise argument of [`crate::rta::queues`]). Each
/// term is rounded up in [`room::WEIGHT_ONE`] units, which only raises `U`.
fn heads_assigned_by(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform, root: &[usize], i: usize) -> Option<Ticks> {
    let after_i = |k: usize| k > i && root[k] == root[i];
    let j: Vec<usize> = (0..jobs.len()).filter(|&k| k == i || (jobs[k].release <= late[i] && !after_i(k))).collect();
    let sms = u128::from(p.sms());
    let done_of = |k: usize| if k == i { Ticks::MAX } else { done[k] };
    // Per job of J: (late, done, own packed work and work as a resident, work as a
    // resident only).
    let mut terms = Vec::with_capacity(j.len());
    for &k in &j {
        let (own, resident) = head_terms(jobs, classes, p, i, k)?;
        terms.push((late[k], done_of(k), own.checked_add(resident)?, resident));
    }
    let g = sms.checked_mul(room::WEIGHT_ONE)?;
    largest_over_window_starts(&terms, late[i], |c, u| c.checked_add(Ticks::new(u.div_ceil(g))))
}

/// The largest `end(c, V(c))` (and `late_i`) over the candidate starts `c` of a busy
/// window: `late_i` and the values `late`, `done` of `terms` up to it. Each term is
/// `(late, done, full, carried)`: `V(c)` counts `full` while `late >= c`, `carried` once
/// `late < c <= done`, nothing past `done` (a sweep in increasing `c`). `None` on
/// overflow.
fn largest_over_window_starts(terms: &[(Ticks, Ticks, u128, u128)], late_i: Ticks, end: impl Fn(Ticks, u128) -> Option<Ticks>) -> Option<Ticks> {
    let mut candidates: Vec<Ticks> = terms.iter().flat_map(|&(l, d, _, _)| [l, d]).filter(|&c| c <= late_i).collect();
    candidates.push(late_i);
    candidates.sort_unstable();
    candidates.dedup();
    let mut by_late: Vec<usize> = (0..terms.len()).collect();
    by_late.sort_unstable_by_key(|&t| terms[t].0);
    let mut by_done: Vec<usize> = (0..terms.len()).collect();
    by_done.sort_unstable_by_key(|&t| terms[t].1);
    let mut v = terms.iter().try_fold(0u128, |v, t| v.checked_add(t.2))?;
    let (mut l, mut d) = (0, 0);
    // Per term: 0 full, 1 carried in, 2 gone.
    let mut state = vec![0u8; terms.len()];
    let mut bound = late_i;
    for &c in &candidates {
        // Past its done a term is gone, whenever it entered; past its late, carried in.
        while d < by_done.len() && terms[by_done[d]].1 < c {
            let t = by_done[d];
            v = v.checked_sub(if state[t] == 0 { terms[t].2 } else { terms[t].3 })?;
            state[t] = 2;
            d += 1;
        }
        while l < by_late.len() && terms[by_late[l]].0 < c {
            let t = by_late[l];
            if state[t] == 0 {
                v = v.checked_sub(terms[t].2)?.checked_add(terms[t].3)?;
                state[t] = 1;
            }
            l += 1;
        }
        bound = bound.max(end(c, v)?);
    }
    Some(bound)
}

/// The time `k`'s blocks but its last take packed `f_k` to an SM, over `f_k` (none
/// where they are fewer than `f_k`), and one block per SM for `C_k` (none for `i`):
/// the two terms of [`heads_assigned_by`], in [`room::WEIGHT_ONE`] units.
fn head_terms(jobs: &[Job], classes: &[Class], p: &Platform, i: usize, k: usize) -> Option<(u128, u128)> {
    let (class, c) = (classes[jobs[k].class], jobs[k].wcet.get());
    let f = if class.exact { room::fit(p, &class.demand) } else { room::beside(p, &class.demand, &class.demand) };
    // Fewer than `f` blocks besides the last never make an SM pure.
    let others = if jobs[k].blocks - 1 < f { 0 } else { jobs[k].blocks - 1 };
    let own = u128::from(others).checked_mul(c)?.checked_mul(room::WEIGHT_ONE)?.div_ceil(u128::from(f.max(1)));
    let resident = if k == i { 0 } else { u128::from(jobs[k].blocks).min(u128::from(p.sms())).checked_mul(c)?.checked_mul(room::WEIGHT_ONE)? };
    Some((own, resident))
}

/// The **head-by-head form from the entry**: [`heads_assigned_by`] over `[e, X)`, `e`
/// `i`'s entry, where at most one job of each other stream is in the queue or running.
/// `None` where a sum overflows.
///
/// Let `K_s`, for each stream `s` other than `i`'s (jobs chained by `after`; a job of
/// none is a stream of its own), be its jobs released by `late[i]` with `done[k] > r_i`,
/// and `own_k`, `res_k` the two terms of [`heads_assigned_by`] (`p_k C_k / f_k` and
/// `min(n_k, S) C_k`). Then `i`'s last block is assigned by `late[i] + ceil((own_i +
/// sum_s max_(k in K_s) (own_k + res_k)) / S)`.
///
/// Proof. Let `i` enter at `e <= late[i]` and its last block be assigned at `X`. A job
/// of a stream enters only once the one before it has completed, so at any instant at
/// most one job of a stream has entered and not completed. The jobs that assign or run
/// a block in `[e, X)` entered by `e` (one entering later is behind `i`) and have not
/// completed at `e`: of `i`'s own stream only `i` (those before it completed before it
/// entered), and of another stream `s` at most one, released by `e <= late[i]` and not
/// done by `r_i <= e` (or its promise `done[k] <= r_i` broke before `i`'s bound): in
/// `K_s`. Tile `[e, X)` by the intervals `[max(s_h, e), X_h)` of the heads from `e` on
/// and argue as in [`heads_assigned_by`], blocks assigned before `max(s_h, e)` being the
/// residents: the pure time of a head is at most `own_h`, and the impure time is charged
/// to at most one block per job per SM, each for at most its `C`, of jobs other than `i`
/// running at or after `e`, so at most `res_k` per such job. The jobs involved are `i`
/// and at most one of each `K_s`: `S (X - e) <= own_i + sum_s max_(k in K_s) (own_k +
/// res_k)`, and `e <= late[i]`; rounded up to a tick.
fn entry_assigned_by(jobs: &[Job], late: &[Ticks], done: &[Ticks], classes: &[Class], p: &Platform, root: &[usize], i: usize) -> Option<Ticks> {
    let r_i = jobs[i].release;
    let mut most: std::collections::BTreeMap<usize, u128> = std::collections::BTreeMap::new();
    for k in (0..jobs.len()).filter(|&k| k != i && root[k] != root[i] && jobs[k].release <= late[i] && done[k] > r_i) {
        let (own, resident) = head_terms(jobs, classes, p, i, k)?;
        let m = most.entry(root[k]).or_insert(0);
        *m = (*m).max(own.checked_add(resident)?);
    }
    let u = most.values().try_fold(head_terms(jobs, classes, p, i, i)?.0, |u, &m| u.checked_add(m))?;
    late[i].checked_add(Ticks::new(u.div_ceil(u128::from(p.sms()).checked_mul(room::WEIGHT_ONE)?)))
}

/// Blocks of one job that may run while `i`'s last block waits.
struct Run {
    blocks: u128,
    wcet: Ticks,
    done: Ticks,
}

/// When the last block is assigned (`late`: the latest entry, `r`: the release): by
/// `late` if the blocks of `runs` weigh (`weights`) less than `g` together; else by the
/// lesser of `X` for `V` without the window and an `X > late` with `late + floor(V(X) /
/// g) + 1 <= X` (so `g (X - late) > V(X)`), `V(X)` their weighted time in `[r, X)` (each
/// block `min(C, min(X, done) - r)`): the least, where the iterates from `late + 1`
/// reach it in [`WINDOW_STEPS`] steps, else one that [`settle`] finds; `None` on
/// overflow.
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
    let windowed = settle(late.checked_add(Ticks::new(1))?, WINDOW_STEPS, |x| Some(Step::Next(late.checked_add(Ticks::new(v(x)? / g + 1))?)));
    // Without the window: it settles too (`V(X) <= V(MAX)`).
    let whole = v(Ticks::MAX).and_then(|v| late.checked_add(Ticks::new(v / g + 1)));
    windowed.into_iter().chain(whole).min()
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
    /// The bound is fed back on itself ([`tightened_work_bounds`] from `done = MAX`),
    /// and is reached on some sets.
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
            // No bound where a value stays at `done`'s `MAX`.
            let bound: Vec<Option<Ticks>> = tightened_work_bounds(&jobs, &late, &done, &classes, &p).into_iter().map(|b| (b < Ticks::MAX).then_some(b)).collect();
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

    /// The busy-window form and the descent of [`tightened_work_bounds`] against the
    /// executions of a small set, some jobs chained in streams: every FIFO order that
    /// keeps each stream in order, each job entering at its release, at the latest entry
    /// the order allows (the least `late` of it and the jobs after it) or at a random
    /// time between, after its stream predecessor's finish, the entries kept in queue
    /// order and within `late` (the list's finishes, `crate::rta::list`, standing for the
    /// runs). `done` is the worst finish over those executions plus a random slack of up
    /// to 20 (so every promise holds and the descent has room): no form is ever below an
    /// execution's finish, the busy window is below the form from the release and the
    /// head-by-head form below both on some sets (and reached on some), and the descent
    /// lowers some values.
    #[test]
    fn the_busy_window_covers_every_execution() {
        let p = Platform::TX2;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(54);
        let (mut tighter, mut lowered, mut heads_tighter, mut heads_reached, mut entry_tighter) = (0, 0, 0, 0, 0);
        for _ in 0..300 {
            let n = rng.random_range(2..5);
            let classes: Vec<Class> = (0..n)
                .map(|_| {
                    let threads = [32u64, 256, 544, 1024][rng.random_range(0..4)];
                    let d = p.demand(threads, [0u64, 12_000, 40_000][rng.random_range(0..3)], [0u64, 16, 32][rng.random_range(0..3)], "k").unwrap();
                    Class { demand: d, exact: true }
                })
                .collect();
            let mut releases: Vec<u128> = (0..n).map(|_| rng.random_range(0..15)).collect();
            releases.sort_unstable();
            let jobs: Vec<Job> = (0..n)
                .map(|i| {
                    let after = (i > 0 && rng.random_bool(0.3)).then(|| rng.random_range(0..i));
                    let r = Ticks::new(releases[i]);
                    Job { wcet: Ticks::new(rng.random_range(1..12)), blocks: rng.random_range(1..12), class: i, release: r, ready: r, ..job(i, after) }
                })
                .collect();
            // A stream has one successor per job: a second one is left out of the stream.
            let jobs: Vec<Job> = (0..n)
                .map(|i| Job { after: jobs[i].after.filter(|&a| (0..i).all(|k| k == i || jobs[k].after != Some(a))), ..jobs[i] })
                .collect();
            let late: Vec<Ticks> = jobs.iter().map(|j| j.release + Ticks::new(rng.random_range(0..25))).collect();
            let mut worst = vec![Ticks::ZERO; n];
            let mut order: Vec<usize> = (0..n).collect();
            permutations(&mut order, 0, &mut |o| {
                let place = |k: usize| o.iter().position(|&x| x == k).unwrap_or(0);
                if jobs.iter().any(|j| j.after.is_some_and(|a| place(a) > place(j.id))) {
                    return;
                }
                for choice in 0..3u32.pow(n as u32) {
                    let mut at = Ticks::ZERO;
                    let run: Vec<Job> = o
                        .iter()
                        .enumerate()
                        .map(|(x, &k)| {
                            let latest = o[x..].iter().map(|&j| late[j]).min().unwrap_or(late[k]).max(jobs[k].release);
                            let e = match choice / 3u32.pow(k as u32) % 3 {
                                0 => jobs[k].release,
                                1 => latest,
                                _ => Ticks::new(rng.random_range(jobs[k].release.get()..=latest.get())),
                            };
                            at = at.max(e);
                            Job { ready: at, ..jobs[k] }
                        })
                        .collect();
                    let f = finishes(&run, &classes, &p);
                    let finish_of = |a: usize| run.iter().zip(&f).find(|(j, _)| j.id == a).map(|(_, &t)| t).unwrap_or(Ticks::ZERO);
                    // The entries as they happen (after the stream predecessor): in queue
                    // order and within each job's latest entry, or the run cannot happen.
                    let entries: Vec<Ticks> = run.iter().map(|j| j.after.map_or(j.ready, |a| j.ready.max(finish_of(a)))).collect();
                    if entries.windows(2).all(|w| w[0] <= w[1]) && run.iter().zip(&entries).all(|(j, &e)| e <= late[j.id]) {
                        for (j, &t) in run.iter().zip(&f) {
                            worst[j.id] = worst[j.id].max(t);
                        }
                    }
                }
            });
            let done: Vec<Ticks> = worst.iter().map(|&w| w + Ticks::new(rng.random_range(0..20))).collect();
            let root = stream_roots(&jobs);
            let tightened = tightened_work_bounds(&jobs, &late, &done, &classes, &p);
            for i in 0..n {
                assert!(tightened[i] >= worst[i], "job {i}: descent {:?} below {:?} ({jobs:?}, late {late:?}, done {done:?})", tightened[i], worst[i]);
                lowered += usize::from(tightened[i] < done[i]);
                let Some(busy) = busy_assigned_by(&jobs, &late, &done, &classes, &p, &root, i) else { continue };
                let busy = busy + jobs[i].wcet;
                assert!(busy >= worst[i], "job {i}: busy window {busy:?} below {:?} ({jobs:?}, late {late:?}, done {done:?})", worst[i]);
                let release = from_release(&jobs, &late, &done, &classes, &p, &root, i).map(|b| b + jobs[i].wcet);
                tighter += usize::from(release.is_some_and(|b| busy < b));
                let heads = heads_assigned_by(&jobs, &late, &done, &classes, &p, &root, i).expect("no overflow") + jobs[i].wcet;
                assert!(heads >= worst[i], "job {i}: head by head {heads:?} below {:?} ({jobs:?}, late {late:?}, done {done:?})", worst[i]);
                heads_tighter += usize::from(heads < busy && release.is_none_or(|b| heads < b));
                heads_reached += usize::from(heads == worst[i]);
                let entry = entry_assigned_by(&jobs, &late, &done, &classes, &p, &root, i).expect("no overflow") + jobs[i].wcet;
                assert!(entry >= worst[i], "job {i}: from the entry {entry:?} below {:?} ({jobs:?}, late {late:?}, done {done:?})", worst[i]);
                entry_tighter += usize::from(entry < heads.min(busy) && release.is_none_or(|b| entry < b));
            }
        }
        assert!(tighter > 0 && lowered > 0, "busy window tighter {tighter}, values lowered {lowered}");
        assert!(heads_tighter > 0 && heads_reached > 0 && entry_tighter > 0, "head by head tighter {heads_tighter}, reached {heads_reached}; from the entry tighter {entry_tighter}");
        eprintln!("head by head: tighter than both other forms {heads_tighter}, reached {heads_reached}; from the entry tighter than the three {entry_tighter}");
    }

    /// A stream predecessor of the job runs before the job enters, so inside a busy
    /// window that starts earlier: on the TX2 (4 slots of 1024 threads) `p` (4 blocks of
    /// 10) and `q` (8 blocks of 10) enter at 0, `q` behind `p`; `i`, `p`'s successor,
    /// enters at 10 once `p` is done and behind `q`, whose blocks run 10-20 and 20-30:
    /// `i` ends at 31. The busy window without `p` would give 22.
    #[test]
    fn a_stream_predecessor_counts_in_the_busy_window() {
        let p = Platform::TX2;
        let d = p.demand(1024, 0, 0, "k").unwrap();
        let classes = [Class { demand: d, exact: true }];
        let make = |id: usize, after: Option<usize>, release: u128, blocks: u64, wcet: u128| Job {
            release: Ticks::new(release),
            ready: Ticks::new(release),
            blocks,
            wcet: Ticks::new(wcet),
            class: 0,
            ..job(id, after)
        };
        let jobs = [make(0, None, 0, 4, 10), make(1, None, 0, 8, 10), make(2, Some(0), 1, 1, 1)];
        let late = [Ticks::ZERO, Ticks::ZERO, Ticks::new(10)];
        let done = [Ticks::new(10), Ticks::new(30), Ticks::MAX];
        let run = [jobs[0], jobs[1], Job { ready: Ticks::new(10), ..jobs[2] }];
        assert_eq!(finishes(&run, &classes, &p)[2], Ticks::new(31));
        let root = stream_roots(&jobs);
        let busy = busy_assigned_by(&jobs, &late, &done, &classes, &p, &root, 2).unwrap() + jobs[2].wcet;
        assert!(busy >= Ticks::new(31), "{busy:?}");
        assert!(tightened_work_bounds(&jobs, &late, &done, &classes, &p)[2] >= Ticks::new(31));
    }

    /// Head by head, a job's blocks beside a later head count once per SM they run on:
    /// on the TX2, `a` (2 blocks of 1024 threads and 30,000 bytes, `C` 10: two fit an SM)
    /// and `b` (1 block of 1024 threads and 40,000 bytes, `C` 1: no room beside a block of
    /// `a`) are released together; with `a` first and its blocks on the two SMs, `b`
    /// waits until 10 and ends at 11. The form gives `ceil(2 * 10 / 2) + 1 = 11`, reached
    /// (`a`'s one block besides its last never fills an SM); counting `a`'s blocks beside
    /// `b` once, not per SM, would give 6.
    #[test]
    fn a_resident_on_every_sm_holds_the_head_back() {
        let p = Platform::TX2;
        let classes = [p.demand(1024, 30_000, 0, "a").unwrap(), p.demand(1024, 40_000, 0, "b").unwrap()].map(|demand| Class { demand, exact: true });
        assert_eq!(room::fit(&p, &classes[0].demand), 2);
        let make = |id: usize, blocks: u64, wcet: u128| Job { blocks, wcet: Ticks::new(wcet), class: id, ..job(id, None) };
        let jobs = [make(0, 2, 10), make(1, 1, 1)];
        let (late, done) = ([Ticks::ZERO; 2], [Ticks::MAX; 2]);
        let root = stream_roots(&jobs);
        let heads = heads_assigned_by(&jobs, &late, &done, &classes, &p, &root, 1).unwrap() + jobs[1].wcet;
        assert_eq!(heads, Ticks::new(11));
    }

    /// Head by head, a head's blocks besides its last count once they can fill an SM: on
    /// the TX2, `a` (1 block) and `h` (2 blocks), each block of 1024 threads and 40,000
    /// bytes (one per SM) and `C` 10, released together; with `a` first, `h`'s first
    /// block runs beside it on the other SM and its last starts at 10: `h` ends at 20.
    /// The form gives `ceil((10 / 1 + 10) / 2) + 10 = 20`, reached; leaving out a head
    /// whose blocks besides its last are just `f` would give 15.
    #[test]
    fn a_head_filling_an_sm_counts() {
        let p = Platform::TX2;
        let demand = p.demand(1024, 40_000, 0, "k").unwrap();
        let classes = [Class { demand, exact: true }];
        assert_eq!(room::fit(&p, &demand), 1);
        let make = |id: usize, blocks: u64| Job { blocks, wcet: Ticks::new(10), class: 0, ..job(id, None) };
        let jobs = [make(0, 1), make(1, 2)];
        assert_eq!(finishes(&jobs, &classes, &p)[1], Ticks::new(20));
        let (late, done) = ([Ticks::ZERO; 2], [Ticks::MAX; 2]);
        let heads = heads_assigned_by(&jobs, &late, &done, &classes, &p, &stream_roots(&jobs), 1).unwrap() + jobs[1].wcet;
        assert_eq!(heads, Ticks::new(20));
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
