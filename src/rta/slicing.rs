//! Time slicing between processes: kernels launched by different OS processes (CUDA
//! contexts) do not share the EE queue; the GPU runs one process at a time, round robin
//! among those with work, each for a time slice, and switches between them at a cost.
//! [`sliced_finishes`] bounds every job's finish under that sharing for processes whose
//! kernels all go to one stream (the case of a task offloading to the GPU from its own
//! process); [`check_slicing`] refuses what it does not cover.

use crate::error::InputError;
use crate::rta::gpu::Platform;
use crate::rta::jobs::{Job, Sequence};
use crate::rta::room;
use crate::rta::time::{Scale, Ticks};
use crate::rta::workload::{Priority, Task, Workload};

/// The processes of `w`'s kernels, in order of first appearance (`None`: the default
/// process).
pub fn processes(w: &Workload) -> Vec<Option<&str>> {
    let mut seen: Vec<Option<&str>> = Vec::new();
    for t in &w.tasks {
        if !seen.contains(&t.process.as_deref()) {
            seen.push(t.process.as_deref());
        }
    }
    seen
}

/// Per job of `seq`, the index of its kernel's process in [`processes`].
pub fn process_of(w: &Workload, seq: &Sequence) -> Vec<usize> {
    let names = processes(w);
    seq.jobs.iter().map(|j| names.iter().position(|p| *p == w.tasks[j.task].process.as_deref()).unwrap_or(0)).collect()
}

/// Whether the kernels of `w` come from two processes or more (then they share the GPU
/// by time slicing).
pub fn sliced(w: &Workload) -> bool {
    processes(w).len() > 1
}

/// Each process's time slice (in the order of [`processes`]): its kernels' own
/// `time_slice`, else the GPU profile's. Refused, naming the field: a process without a
/// positive slice, or whose kernels give two different ones.
pub fn slices(w: &Workload) -> Result<Vec<Ticks>, InputError> {
    processes(w)
        .into_iter()
        .map(|p| {
            let mine: Vec<usize> = (0..w.tasks.len()).filter(|&i| w.tasks[i].process.as_deref() == p).collect();
            let own: Vec<(usize, Ticks)> = mine.iter().filter_map(|&i| w.tasks[i].time_slice.map(|s| (i, s))).collect();
            if let Some(&(i, s)) = own.iter().find(|(_, s)| *s != own[0].1 || *s == Ticks::ZERO) {
                let why = if s == Ticks::ZERO { "must be positive".to_string() } else { format!("kernels[{}] of the same process gives another", own[0].0) };
                return Err(InputError::new(format!("kernels[{i}].time_slice"), w.scale.format(s), why));
            }
            // A process's slice is given on each of its kernels or on none (the profile's).
            if let (Some(&(k, s)), Some(&i)) = (own.first(), mine.iter().find(|&&i| w.tasks[i].time_slice.is_none())) {
                return Err(InputError::new(
                    format!("kernels[{i}].time_slice"),
                    "",
                    format!(
                        "missing: kernels[{k}] of the same process gives {}; a process has one slice: give it on each of its kernels, or on none for the profile's gpu.time_slice",
                        w.scale.format(s)
                    ),
                ));
            }
            match own.first().map_or(w.time_slice, |&(_, s)| s) {
                Ticks::ZERO => Err(InputError::new(
                    "gpu.time_slice",
                    "",
                    "kernels of two processes or more share the GPU by time slicing: give the GPU profile's time_slice (and context_switch), or each process's kernels theirs",
                )),
                s => Ok(s),
            }
        })
        .collect()
}

/// Refuses, naming the field, what the time-slicing bound does not cover: a process
/// without a time slice ([`slices`]), no `gpu.context_switch`, a process whose kernels are in more than one
/// stream (they would share the process's EE queue), a high-priority stream, or copies.
/// Returns each process's slice.
pub fn check_slicing(w: &Workload) -> Result<Vec<Ticks>, InputError> {
    let slices = slices(w)?;
    if w.context_switch.is_none() {
        return Err(InputError::new(
            "gpu.context_switch",
            "",
            "kernels of two processes or more share the GPU by time slicing: give the longest switch between two processes (0 if it costs nothing)",
        ));
    }
    for (i, t) in w.tasks.iter().enumerate() {
        let kernel = format!("kernels[{i}]");
        refuse_unsliced_kernel(t, &kernel, w.scale)?;
        // A stream belongs to one process (CUDA streams are per context).
        if let Some(k) = w.tasks.iter().position(|u| u.stream.is_some() && u.stream == t.stream && u.process != t.process) {
            return Err(InputError::new(
                format!("{kernel}.stream"),
                t.stream.clone().unwrap_or_default(),
                format!("kernels[{k}] is in the same stream from another process; a stream belongs to one process"),
            ));
        }
        // The process's first kernel fixes its stream.
        let first = w.tasks.iter().position(|u| u.process == t.process).unwrap_or(i);
        if first != i && (t.stream.is_none() || t.stream != w.tasks[first].stream) {
            return Err(InputError::new(
                format!("{kernel}.stream"),
                t.stream.clone().unwrap_or_default(),
                format!(
                    "with time slicing, each process's kernels must go to one stream, as kernels[{first}]'s: give them the same stream (or put them in processes of their own)"
                ),
            ));
        }
    }
    Ok(slices)
}

/// Refuses, naming `kernel`'s field (`kernel`: how the input names it, e.g.
/// `kernels[3]`; times in `scale`), what the time-slicing bound does not cover on one
/// kernel: a high-priority stream, or copies.
pub fn refuse_unsliced_kernel(t: &Task, kernel: &str, scale: Scale) -> Result<(), InputError> {
    if t.priority == Priority::High {
        return Err(InputError::new(
            format!("{kernel}.priority"),
            "high",
            "stream priorities are not analysed together with time slicing between processes",
        ));
    }
    if t.copy_in > Ticks::ZERO || t.copy_out > Ticks::ZERO {
        let (field, time) = if t.copy_in > Ticks::ZERO { ("copy_in", t.copy_in) } else { ("copy_out", t.copy_out) };
        return Err(InputError::new(
            format!("{kernel}.{field}"),
            scale.format(time),
            "copies are not analysed together with time slicing between processes",
        ));
    }
    Ok(())
}

/// `B_c`, the longest time process `c` (an index of `slices`, each process's slice) can
/// go without the GPU while it has work: every other process's slice once and a switch
/// before each and back, `sum over p != c of Q_p + N * context_switch` for `N`
/// processes.
pub fn blackout(slices: &[Ticks], c: usize, context_switch: Ticks) -> Ticks {
    let others: Ticks = slices.iter().enumerate().filter(|&(p, _)| p != c).map(|(_, &q)| q).sum();
    others + context_switch * slices.len() as u128
}

/// `E_j`: the time one job takes on a GPU its process has to itself, its kernel alone:
/// `ceil(g / slots) * C` with `slots = #SMs * fit(d)` (each wave of at most `slots`
/// blocks ends within `C` of its start; [`room::fit`] holds in every case the profile
/// leaves open).
pub fn alone(blocks: u64, wcet: Ticks, demand: &crate::rta::gpu::Demand, p: &Platform) -> Ticks {
    let slots = p.sms() * room::fit(p, demand);
    wcet * blocks.div_ceil(slots.max(1)) as u128
}

/// Every job's finish under time slicing (`slices` from [`check_slicing`], `process`
/// each job's process as an index of it):
/// `F_j = max(r_j + L, F_pred(j)) + E_j + ceil(E_j / Q_c) * B_c`, `pred(j)` the job
/// before it in its stream, `E_j` from [`alone`], `Q_c` its process's time slice, `B_c`
/// from [`blackout`].
///
/// Proof. Assumptions: the GPU serves the processes with work round robin, each for its
/// slice (`Q_c` for process `c`) while it has work (a process without work gives the GPU up), a switch
/// takes at most `context_switch`, and a switched-out process's blocks are saved and
/// resumed where they stopped (compute preemption), so that a process's execution is
/// its execution on a GPU of its own with time stopped while it waits. Each process's
/// kernels are in one stream: its jobs run one after another, each alone in its
/// process's EE queue. Job `j` enters by `a = max(r_j + L, F_pred)` (its stream
/// predecessor has completed by `F_pred`, by induction in launch order); from then until
/// it completes its process has work. Its kernel needs at most `E_j` of the process's
/// own GPU time. While the process has work and does not hold the GPU, each other process
/// holds it for at most one slice before the process's turn comes again (round robin),
/// plus the switches: each such wait is at most `B_c`. Count the waits in `[a, F_j]`,
/// where the process's own time comes in stretches, each but the last a whole slice
/// `Q_c` (a slice ends early only when the process runs out of work), the last one
/// positive. If the process does not hold the GPU at `a`, a wait precedes every stretch:
/// with `k` stretches, `(k - 1) Q_c < E_j`, so `k <= ceil(E_j / Q_c)` waits. If it holds
/// it (the rest of a slice begun for the job before it, a first stretch `p1 > 0`), the
/// waits are one fewer than the stretches: `p1 + (k - 2) Q_c < E_j` gives
/// `k - 1 <= ceil((E_j - p1) / Q_c) <= ceil(E_j / Q_c)`. So
/// `F_j <= a + E_j + ceil(E_j / Q_c) * B_c`.
///
/// **Only the work the others have** (issue 54). Then, in rounds (at most
/// [`MAX_SLICE_ROUNDS`], while a bound falls), with `k = ceil(E_j / Q_c)` and `F` the
/// finishes so far: `F_j <= a + E_j + k N s + sum over p != c of min(k Q_p, W_p)`, `N`
/// processes, `s` the switch, `W_p` the sum of `E` over the jobs of process `p` released
/// before `F_j` whose bound `F` is after `a`. Proof: in `[a, F_j]` the GPU is held by the
/// job's process (at most `E_j`), switches (at most `N` per wait, `k` waits, as above),
/// or another process `p`: at most one slice `Q_p` per wait, and, as a process holds the
/// GPU only while it has work and its execution is its own GPU's with time stopped, at
/// most the own time of the jobs it runs in `[a, F_j]`: each at most `E`, and a job
/// released after the true finish or done by `a` (its bound `F` at most `a`) runs none
/// of it. Every `F` used is a proven bound (the previous round's, or this round's for
/// jobs before), and the true finish is at most `F_j`, so the window is covered; a new
/// bound is kept only where it is lower. The cap needs every job of `p` released before
/// `F_j` listed: it is not used with [`Workload::unlisted_jobs`], nor for a process with
/// a periodic kernel whose next job (after the last one analysed, also with one job per
/// kernel) is released before `F_j`.
///
/// **Only the switches the others can cause, and the window from below** (issue 54).
/// With `x` in place of `F_j` (jobs released before `x`), `J_p` the number of jobs of `p`
/// counted in `W_p` and `H = sum over p != c of min(k, floor(W_p / Q_p) + J_p)` (for a
/// process whose work is not capped, `k`): `V(x) = a + E_j + s min(k N, 2 H + 1) + sum
/// over p != c of min(k Q_p, W_p)`. If `V(x) <= x`, the job is done by `V(x)`. Proof:
/// suppose it is not done by `x`. In `[a, x)` its own time is below `E_j`; the GPU is
/// never idle (its process has work). A switch into another process `p` in `[a, x)`
/// starts a hold of `p` (with work) that ends at its slice's end (having run `Q_p` of the
/// own time of `p`'s jobs not done by `a` and released before `x`: at most `floor(W_p /
/// Q_p)` such holds), ends because `p` runs out of work (at a completion of one of `p`'s
/// jobs in the window), or still runs at `x` (one of `p`'s jobs in progress then): at
/// most `floor(W_p / Q_p) + J_p` in all, and at most one per wait, `k`. Between two
/// switches into `c` the GPU left `c`, by a switch into another process: at most `2 H +
/// 1` switches, each at most `s`, and at most `k N` as above. So `x - a < E_j + s min(k
/// N, 2 H + 1) + sum min(k Q_p, W_p) = V(x) - a`, against `V(x) <= x`. Done by `x`, the
/// jobs released after its true finish run none of it, and `V(x)`, over the jobs released
/// before `x`, bounds it as above. `x` is found from `a + E_j` upwards (`x = V(x)`, at
/// most as many steps as jobs, each adding one); where it passes the last bound, the
/// bound with the last bound as the window's end stands.
///
/// **Alone until another process has work** (issue 54). Let `r` be the least release of
/// the other processes' jobs whose bound `F` is after `a` (and of their jobs not listed,
/// [`unlisted_from`]; capped rounds only). In `[a, r)` no other process has work: a job
/// done by `a` runs none of its time after it, and no other is released before `r`. A
/// switch into another process needs it to have work when it starts, so at `a` the GPU
/// is held by `c`, by a process without work (which gives it up) or in a switch into
/// `c`: after at most one switch, `c` holds the GPU until `r` at least (round robin
/// among processes with work). So if `E_j <= r - a - s`, `j` is done by `a + s + E_j`;
/// else at `r` it needs at most `E_j - (r - a - s)` more of its own time and has work
/// throughout, and the bounds above hold from `r` with that time in place of `E_j`. And if
/// `E_j <= r - a` and `E_j <= Q_c`, `j` is done by `a + s + E_j`: where `c` holds the GPU
/// at `a`, it keeps it until `r` at least (a slice ending before `r` is renewed without a
/// switch, no other process having work), `E_j` after `a` at the latest; else a switch
/// into `c` ends at some `h <= a + s` (one under way at `a`, or one starting at `a`), and
/// from `h` `c` holds a whole slice while it has work: done by `h + E_j`.
///
/// **Chains** (issue 54). Every bound above holds as well with `a` and `E_j` those of a
/// chain of jobs of `j`'s stream ending at `j` ([`chains`], whose proof says why); the
/// least over the chains is kept.
pub fn sliced_finishes(seq: &Sequence, w: &Workload, slices: &[Ticks], process: &[usize]) -> Vec<Ticks> {
    let switch = w.context_switch.unwrap_or(Ticks::ZERO);
    let own: Vec<Ticks> = seq.jobs.iter().map(|j| alone(j.blocks, j.wcet, &seq.classes[j.class].demand, &w.platform)).collect();
    let unlisted = unlisted_from(seq, w, slices.len(), process);
    // Job `j`'s bound from the finishes so far, for a chain ending at `j` that has
    // entered by `start` and needs `e` of its own time ([`chains`]); with `capped`, each
    // other process's share is at most its work in the window (without, `ceil(E_j / Q_c)
    // * B_c`), the window's end the last bound or found from below.
    let chain_bound = |j: &Job, (start, e): (Ticks, Ticks), finish: &[Ticks], capped: bool| {
        let c = process[j.id];
        let k = e.ceil_ratio(slices[c]);
        // Process `p`'s own time and jobs in the window up to `to` (`None`: not bounded).
        let work = |p: usize, to: Ticks| match unlisted[p] {
            _ if !capped => None,
            Some(h) if h < to => None,
            _ => {
                let mine = seq.jobs.iter().filter(|o| process[o.id] == p && o.release < to && finish[o.id] > start);
                Some(mine.fold((Ticks::ZERO, 0u128), |(w, n), o| (w + own[o.id], n + 1)))
            }
        };
        let value = |to: Ticks| {
            let (mut others, mut holds) = (Ticks::ZERO, 0u128);
            for p in (0..slices.len()).filter(|&p| p != c) {
                let (w, h) = work(p, to).map_or((Ticks::MAX, k), |(w, n)| (w, k.min(w.get() / slices[p].get() + n)));
                (others, holds) = (others + (slices[p] * k).min(w), holds + h);
            }
            start + e + switch * (slices.len() as u128 * k).min(2 * holds + 1) + others
        };
        if !capped {
            return value(Ticks::MAX);
        }
        // From below: done by any `x` with `value(x) <= x`, and then by `value(x)`.
        let mut x = start + e;
        for _ in 0..seq.jobs.len() + 2 {
            let b = value(x);
            if b <= x {
                return b;
            }
            if b >= finish[j.id] {
                break;
            }
            x = b;
        }
        value(finish[j.id])
    };
    // The earliest time another process than `c` may have work after `start`: the least
    // release of its jobs not done by `start`, and of the jobs not listed.
    let alone_until = |c: usize, start: Ticks, finish: &[Ticks]| {
        let listed = seq.jobs.iter().filter(|o| process[o.id] != c && finish[o.id] > start).map(|o| o.release);
        let unlisted = (0..slices.len()).filter(|&p| p != c).filter_map(|p| unlisted[p]);
        listed.chain(unlisted).min().unwrap_or(Ticks::MAX)
    };
    let shares = Shares { seq, own: &own, process, slices, switch, unlisted: &unlisted, chain_ready: chain_ready(seq) };
    let bound = |j: &Job, finish: &[Ticks], capped: bool| {
        let c = process[j.id];
        let each = |(a, e): (Ticks, Ticks)| {
            let plain = chain_bound(j, (a, e), finish, capped);
            if !capped {
                return plain;
            }
            // Alone until `r`: at most one switch, then its own time until `r`; or, with
            // no more than a slice and `r - a` to do, done in its first hold.
            let r = alone_until(c, a, finish);
            if r.checked_sub(a).is_some_and(|lead| e <= lead && e <= slices[c]) {
                return plain.min(a + switch + e);
            }
            match r.checked_sub(a + switch) {
                Some(lead) if lead > Ticks::ZERO => match e.checked_sub(lead) {
                    None | Some(Ticks::ZERO) => plain.min(a + switch + e),
                    Some(rest) => plain.min(chain_bound(j, (r, rest), finish, capped)),
                },
                _ => plain,
            }
        };
        let chained = chains(seq, j, finish, &own).into_iter().map(each).min().expect("j's own chain");
        if capped { busy_window(j, finish, &shares).map_or(chained, |b| chained.min(b)) } else { chained }
    };
    let mut finish: Vec<Ticks> = vec![Ticks::ZERO; seq.jobs.len()];
    for j in &seq.jobs {
        finish[j.id] = bound(j, &finish, false);
    }
    for _ in 0..if w.unlisted_jobs { 0 } else { MAX_SLICE_ROUNDS } {
        let mut lower = false;
        for j in &seq.jobs {
            let b = bound(j, &finish, true);
            if b < finish[j.id] {
                (finish[j.id], lower) = (b, true);
            }
        }
        if !lower {
            break;
        }
    }
    finish
}

/// What [`busy_window`] reads of the analysis: the jobs, each one's `E`, process, the
/// processes' slices, the switch, each process's first unlisted release, and
/// [`chain_ready`].
struct Shares<'a> {
    seq: &'a Sequence,
    own: &'a [Ticks],
    process: &'a [usize],
    slices: &'a [Ticks],
    switch: Ticks,
    unlisted: &'a [Option<Ticks>],
    chain_ready: Option<Vec<Ticks>>,
}

/// Per job, the latest `ready` of it and the jobs before it in its stream (`R_m` of
/// [`busy_window`]); `None` where a job's stream predecessor does not come before it.
fn chain_ready(seq: &Sequence) -> Option<Vec<Ticks>> {
    let mut out = vec![Ticks::ZERO; seq.jobs.len()];
    for m in &seq.jobs {
        let before = match m.after {
            Some(a) if a < m.id => out[a],
            Some(_) => return None,
            None => Ticks::ZERO,
        };
        out[m.id] = m.ready.max(before);
    }
    Some(out)
}

/// Most job pairs [`busy_window`] weighs for one job before it gives up (no claim).
pub const BUSY_WINDOW_STEPS: usize = 4_000_000;

/// **The GPU is never idle while a process has work** (issue 54): a bound on job `j`'s
/// finish from the work of every process, or `None` (a process may have a job not
/// listed in the window, or the search stopped).
///
/// Proof. For a job `m` let `R_m` be the latest `ready` of `m` and the jobs before it in
/// its stream, and `T = R_j`. At any `t` in `[T, F_j)` the first job of `j`'s stream not
/// complete at `t` has entered (its predecessor being complete, by `max(ready, F_pred)
/// <= t`) and has work: the GPU is busy (a process holds it, or it switches into one with
/// work). So the busy period that `j` completes in starts at some `t* <= T`, when some job
/// `k` enters (`release_k <= t* <= ready_k`) with no job pending just before. Suppose `j`
/// is not done by `x > T`. In `[t*, x)` the GPU runs the own time of jobs that enter at or
/// after `t*` (one entered before is complete at `t*`); such a job, or one before it in
/// its stream, has `ready >= t*` (a job entering at `t* <= max(ready, F_pred)` with
/// `ready < t*` has its predecessor complete at or after `t*`, so entered at or after it
/// too), so `R_m >= release_k`; they are released before `x`, not behind `j` in its
/// stream (those wait for `j`), and not done by `t*` (a bound `F_m <= release_k` leaves
/// none after it): less than the sum `W` of their `E`, as `j` is among them and not done.
/// The rest is switches: each
/// starts a hold of a process `p` with work that ends at a slice's end having run `Q_p`
/// of those jobs' own time (at most `floor(W_p / Q_p)`), when `p` runs out of work at one
/// of its jobs' completions, or still runs at `x` (one of its jobs in progress then): at
/// most `H = sum over p with such jobs of floor(W_p / Q_p) + J_p`, `J_p` their number.
/// So `x - ready_k <= x - t* < W + s H`. Hence `j` is done by any `x > T` with `x >=
/// ready_k + W_k(x) + s H_k(x)` for every job `k` with `release_k <= T` (the jobs that may
/// start that busy period): the least such `x` is found from `T + E_j` upwards (`> T`,
/// as every `E` is positive: a kernel has blocks and a positive `C`; each side grows
/// with `x`, so `f(x) <= x` gives `f(f(x)) <= f(x)`). Every job of every
/// process released before `x` must be listed: not used where a process has a job not
/// listed ([`unlisted_from`]) before `x`.
fn busy_window(j: &Job, finish: &[Ticks], s: &Shares) -> Option<Ticks> {
    let jobs = &s.seq.jobs;
    let chain_ready = s.chain_ready.as_ref()?;
    // `j` and the jobs behind it in its stream (each waits for the one before it, which
    // comes before it: [`chain_ready`]).
    let mut behind = vec![false; jobs.len()];
    behind[j.id] = true;
    for m in &jobs[j.id + 1..] {
        behind[m.id] = m.after.is_some_and(|a| behind[a]);
    }
    let last_ready = chain_ready[j.id];
    let starts: Vec<&Job> = jobs.iter().filter(|k| k.release <= last_ready).collect();
    if starts.len().saturating_mul(jobs.len()).saturating_mul(jobs.len() + 2) > BUSY_WINDOW_STEPS {
        return None;
    }
    let least = last_ready + s.own[j.id];
    let need = |x: Ticks| {
        let mut most = least;
        for k in &starts {
            let (mut work, mut count) = (vec![Ticks::ZERO; s.slices.len()], vec![0u128; s.slices.len()]);
            let counted = jobs.iter().filter(|m| (m.id == j.id || !behind[m.id]) && m.release < x && chain_ready[m.id] >= k.release && finish[m.id] > k.release);
            for m in counted {
                let p = s.process[m.id];
                (work[p], count[p]) = (work[p] + s.own[m.id], count[p] + 1);
            }
            let holds: u128 = (0..s.slices.len()).filter(|&p| count[p] > 0).map(|p| work[p].get() / s.slices[p].get() + count[p]).sum();
            let w: Ticks = work.iter().copied().sum();
            most = most.max(k.ready + w + s.switch * holds);
        }
        most
    };
    let mut x = least;
    for _ in 0..jobs.len() + 2 {
        if s.unlisted.iter().any(|u| u.is_some_and(|h| h < x)) {
            return None;
        }
        let f = need(x);
        if f <= x {
            return Some(f);
        }
        if f >= finish[j.id] {
            return None;
        }
        x = f;
    }
    None
}

/// Most jobs before `j` in its stream that [`chains`] tries as a chain's first.
pub const MAX_CHAIN: usize = 16;

/// The chains of jobs of `j`'s stream ending at `j` that the bound of
/// [`sliced_finishes`] may take as one: for each first job `i` (`j` itself, then the
/// jobs before it in its stream, at most [`MAX_CHAIN`], while every job after `i` up to
/// `j` is ready by `a_i`), `(a_i, sum of E_m over i..=j)`, with `a_i = max(ready_i,
/// F_pred(i))` the time by which `i` has entered and `finish` the bounds so far.
///
/// Proof that the bound holds with `a = a_i` and `E_j` replaced by the chain's own time:
/// the proof of [`sliced_finishes`] uses of `[a, F_j]` only that the process has work in
/// it until `j` completes and that it needs at most `E_j` of its own time there. At a
/// time `t >= a_i` before `j` completes, let `m` be the first job of the chain not
/// complete at `t`: `i` has entered by `a_i`, and any later `m` is launched by `ready_m
/// <= a_i <= t` with its stream predecessor complete, so it is in the process's queue.
/// The chain's jobs run one after another, each needing at most its `E_m` of the
/// process's own time from `a_i` on, so `j` completes after at most their sum.
fn chains(seq: &Sequence, j: &Job, finish: &[Ticks], own: &[Ticks]) -> Vec<(Ticks, Ticks)> {
    let entered = |i: &Job| i.after.map_or(i.ready, |a| i.ready.max(finish[a]));
    let (mut out, mut i, mut e, mut latest_ready) = (vec![(entered(j), own[j.id])], j, own[j.id], j.ready);
    while let Some(before) = i.after.filter(|_| out.len() <= MAX_CHAIN) {
        latest_ready = latest_ready.max(i.ready);
        i = &seq.jobs[before];
        e = e.saturating_add(own[i.id]);
        if latest_ready > entered(i) {
            break;
        }
        out.push((entered(i), e));
    }
    out
}

/// Per process: the earliest release of a job of it that `seq` does not list (each
/// periodic kernel's next job after the last one analysed: in a window, or with one job
/// per kernel, where a kernel with a period still recurs), `None` if none can come.
fn unlisted_from(seq: &Sequence, w: &Workload, processes: usize, process: &[usize]) -> Vec<Option<Ticks>> {
    let mut last = vec![Ticks::ZERO; w.tasks.len()];
    seq.jobs.iter().for_each(|j| last[j.task] = last[j.task].max(j.release));
    let mut next: Vec<Option<Ticks>> = vec![None; processes];
    for j in &seq.jobs {
        let last = last[j.task];
        // A kernel without a period has no later job.
        if let Some(at) = w.tasks[j.task].period.and_then(|p| last.checked_add(p)) {
            let p = process[j.id];
            next[p] = Some(next[p].map_or(at, |n| n.min(at)));
        }
    }
    next
}

/// Most rounds of [`sliced_finishes`]' refinement by the other processes' work.
pub const MAX_SLICE_ROUNDS: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::time::Scale;
    use crate::rta::workload::{Task, Timing};

    #[test]
    fn the_blackout_counts_every_other_slice_and_the_switches() {
        let tasks = (0..3)
            .map(|i| Task {
                process: Some(format!("p{i}")),
                ..Task::given(format!("K{i}"), Timing { period: Ticks::new(100), wcet: Ticks::new(1), release: Ticks::ZERO }, 1, 64)
            })
            .collect();
        let mut w = Workload::new(tasks, Platform::TX2, Scale::default(), "t");
        (w.time_slice, w.context_switch) = (Ticks::new(10), Some(Ticks::new(1)));
        let slices = |w: &Workload| check_slicing(w).unwrap().iter().map(|t| t.get()).collect::<Vec<_>>();
        assert_eq!(slices(&w), vec![10, 10, 10]);
        assert_eq!(blackout(&[Ticks::new(10), Ticks::new(10), Ticks::new(10)], 0, Ticks::new(1)), Ticks::new(2 * 10 + 3));
        // A process with a slice of its own: the others wait for it.
        w.tasks[1].time_slice = Some(Ticks::new(4));
        assert_eq!(slices(&w), vec![10, 4, 10]);
        // A second kernel of process p1 without the slice: refused, naming it.
        w.tasks.push(Task { time_slice: None, ..w.tasks[1].clone() });
        let e = check_slicing(&w).unwrap_err();
        assert_eq!((e.field.as_str(), e.reason.starts_with("missing: kernels[1]")), ("kernels[3].time_slice", true));
        w.tasks.pop();
        assert_eq!(blackout(&[Ticks::new(10), Ticks::new(4), Ticks::new(10)], 0, Ticks::new(1)), Ticks::new(4 + 10 + 3));
        w.time_slice = Ticks::ZERO;
        assert_eq!(check_slicing(&w).unwrap_err().field, "gpu.time_slice");
    }
}
