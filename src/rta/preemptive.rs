//! Preemptive GPU scheduling by preemption points: the framework designed in J. A. Ayala
//! Barbosa's master's thesis (UNAM, 2020; summarised in `docs/preemptive.md` with the
//! rules below and the thesis sections they come from), analysed as limited-preemptive
//! fixed-priority scheduling whose non-preemptive regions are the kernels' launches.
//!
//! **The rules analysed** (each stated in `docs/preemptive.md`):
//! - *F1 (4.5, with the scheduler's high section `n = 1` and no fill):* the GPU runs
//!   one kernel job at a time, and all of its blocks are resident from its launch (the
//!   load balancer places whole kernels; a kernel whose blocks do not all fit at once is
//!   refused).
//! - *F2 (4.2, Algorithm 4.1; 4.4):* a job runs as a sequence of launches. A launch
//!   starts every unfinished block within `rho` (the host's launch, each block's
//!   restore or initialisation, the profile's launch and block overheads); the host
//!   raises the "quantum expired" flag `Q` after the launch; each block then stops at
//!   its next preemption point (the end of its current segment) and saves its context
//!   within `s`; a block that completes exits. The launch ends when every block has
//!   exited. `Q > rho` is required.
//! - *F3 (4.5, 4.6):* when a launch ends (or a job arrives at an idle GPU), the
//!   scheduler launches the pending job of the lowest rank (a kernel's jobs in release
//!   order); the decision's time is part of `rho`.
//! - *F4:* one block's time in segment `k` of kernel `i` is at most `c_{i,k}`
//!   whatever else runs (its own kernel's blocks, by F1), and its segments together
//!   take at most `C_i`: `sum_k c_{i,k}`, or less when a bound on the whole kernel with
//!   its points as barriers holds across relaunches (`Task::segments_wcet`, set under
//!   round-robin warp arbitration only). A kernel with points whose `C` rests on
//!   oldest-first arbitration is reported optimistic: that bound does not count the
//!   save and restore code of the blocks beside it.
//!
//! **One job's GPU time.** Let `cbar_i = max_k c_{i,k}` and
//! `N_i = min(ceil(C_i / (Q - rho)), K_i)` for `K_i` segments. (a) A job has at most
//! `N_i` launches: a block still unfinished after a launch ran segments without a break
//! from at most `rho` after the launch until the flag at `Q`, so at least `Q - rho` per
//! launch, and it had run less than its `C_i` in all (F4, segments take time > 0):
//! `(n - 1)(Q - rho) < C_i`; and it completed at least one segment in each launch (it
//! reads the flag only at a segment's end) with one still left: `n - 1 < K_i`.
//! (b) A launch that is not the job's last lasts at most `Q + cbar_i + s` (flag, then the
//! current segment and the save); the last one at most `rho + C_i - (n - 1)(Q - rho)`
//! for a job of `n` launches (its slowest block has that much left and runs it without
//! a stop). So the job occupies the GPU at most
//! `E_i = (N_i - 1)(Q + cbar_i + s) + rho + C_i - (N_i - 1)(Q - rho)
//!      = C_i + rho + (N_i - 1)(cbar_i + s + rho)` (increasing in `n`, so `n = N_i` is
//! the worst), and any one of its launches at most
//! `Lambda_i = min(Q + cbar_i + s, rho + C_i + s)` (`rho + C_i` when `N_i = 1`).
//!
//! **Response time** (Bril, Lukkien and Verhaegh, *Worst-case response time analysis
//! of real-time tasks under fixed-priority scheduling with deferred preemption*,
//! Real-Time Systems 42, 2009, revised; Yao, Buttazzo and Bertogna, RTS 47, 2011): a
//! launch is never interrupted, so kernel `i` is blocked at most once by a launch of a
//! kernel of higher rank number, started before its busy period:
//! `B_i = max_{j in lp(i)} Lambda_j`. Kernels of rank at most `i`'s other than `i`
//! (`hep(i)`) interfere. The level-`i` active period is the least `L > 0` with
//! `L = B_i + sum_{j in hep(i) + i} ceil(L / T_j) E_j`, and `K_i = ceil(L / T_i)` jobs
//! of `i` fall in it (released `T_i` apart from the critical instant). Job `k`
//! (`k = 0 .. K_i - 1`) starts its last launch at the latest at the least `S_k` with
//! `S_k = B_i + k E_i + A_i + sum_{j in hep(i)} (floor(S_k / T_j) + 1) E_j`, where
//! `A_i = (N_i - 1)(Q + cbar_i + s)` bounds its own launches before the last, and ends
//! by `S_k + F_i` with `F_i = rho + C_i - (N_i - 1)(Q - rho)`. For a job of `n < N_i`
//! launches the same argument gives `S(A(n)) + F(n)`, and each extra launch adds at
//! least `Q + cbar_i + s` to `S` while taking `Q - rho` from `F`, so `n = N_i` bounds
//! them all. `R_i = max_k (S_k + F_i - k T_i)`.
//!
//! The analysis is checked against a simulator of F1-F3 written apart from it
//! (`tests/it/preemptive.rs`): random points, quanta, costs and sporadic releases.

use crate::error::{Error, InputError};
use crate::rta::report::Verdict;
use crate::rta::room;
use crate::rta::time::{Scale, Ticks};
use crate::rta::workload::{demands, Ranking, Task, Workload};
use serde::{Serialize, Serializer};

/// Most fixed-point iterations for one busy period before it is reported unsettled.
const MAX_ITERATIONS: u32 = 1_000_000;

/// Most jobs of one level-`i` active period checked; beyond, the kernel gets no
/// response (a limit of the analysis, said in its note).
const MAX_JOBS: u128 = 100_000;

/// One kernel under the framework (`makespan preempt`). Times in ticks of
/// [`Preemptive::scale`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PreemptiveRow {
    /// Name.
    pub name: String,
    /// Its priority rank (1 runs first; equal ranks delay each other both ways).
    pub rank: i64,
    /// Segments between its preemption points (1: no points).
    pub segments: usize,
    /// `cbar_i`: the longest segment's per-block bound.
    pub longest_segment: Ticks,
    /// `C_i`: one block's time over all its segments.
    pub wcet: Ticks,
    /// `N_i`: the most launches one job takes.
    pub launches: u128,
    /// `E_i`: the most time one job holds the GPU.
    pub gpu_time: Ticks,
    /// `Lambda_i`: the longest one launch lasts (what it blocks higher ranks for).
    pub longest_launch: Ticks,
    /// `B_i`: the longest launch of a lower rank that can delay it.
    pub blocking: Ticks,
    /// `s`: its blocks' save time (its own, else the framework's).
    pub save: Ticks,
    /// `rho`: its relaunch time with the profile's launch and block overheads.
    pub relaunch: Ticks,
    /// `R_i`: the worst response (`None`: not bounded, see `note`).
    pub response: Option<Ticks>,
    /// Relative deadline.
    pub deadline: Option<Ticks>,
    /// `R_i <= deadline` (`None` without a deadline).
    pub schedulable: Option<bool>,
    /// Jobs of its level-`i` active period checked.
    pub jobs: u128,
    /// Its `C` is known not to bound a block's time (the response is not proven).
    pub wcet_optimistic: bool,
    /// Where its segments' bounds come from and what they rest on.
    pub wcet_source: String,
    /// `no-latencies` (the paper's model: not a bound on real hardware), `latencies`, or
    /// `None` for given times.
    pub wcet_model: Option<String>,
    /// Its instruction string with its preemption points, given or proposed (`None`:
    /// not computed from instructions, or no points).
    pub points: Option<String>,
    /// Why there is no response, if so.
    pub note: Option<String>,
}

/// The framework's analysis of a task set ([`preemptive`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Preemptive {
    /// Per kernel, in rank order (then the input's order).
    pub kernels: Vec<PreemptiveRow>,
    /// Every kernel meets its deadline.
    pub schedulable: bool,
    /// `proven` when every `C` is a proven bound, else `optimistic`.
    pub verdict: Verdict,
    /// How the ranks were assigned.
    pub ranking: Ranking,
    /// With Audsley's assignment: whether some order of ranks makes every kernel meet
    /// its deadline (`false`: none does, for this test; the ranks left are
    /// deadline-monotonic).
    pub feasible_order: Option<bool>,
    /// `Q`.
    pub quantum: Ticks,
    /// `s`.
    pub save: Ticks,
    /// `rho`: the task set's relaunch plus the profile's launch and block overheads.
    pub relaunch: Ticks,
    /// The task set's time unit.
    pub unit: String,
    /// Ticks per unit.
    pub scale: Scale,
}

/// One kernel's figures that do not depend on the others (the module's `E_i` etc.).
#[derive(Debug, Clone, Copy)]
struct Demand {
    period: Ticks,
    deadline: Option<Ticks>,
    gpu_time: Ticks,
    longest_launch: Ticks,
    /// `A_i`: its own launches before the last.
    before_last: Ticks,
    /// `F_i`: its last launch.
    last: Ticks,
    launches: u128,
    longest_segment: Ticks,
    wcet: Ticks,
    save: Ticks,
    relaunch: Ticks,
}

/// The framework's parameters, in ticks.
#[derive(Debug, Clone, Copy)]
struct Costs {
    quantum: Ticks,
    save: Ticks,
    relaunch: Ticks,
}

impl Costs {
    /// `E_i`, `Lambda_i`, `A_i`, `F_i` of `t` (module doc, "one job's GPU time").
    fn demand(&self, t: &Task) -> Result<Demand, String> {
        let sum = if t.segments.is_empty() { Some(t.wcet) } else { t.segments.iter().try_fold(Ticks::ZERO, |s, &x| s.checked_add(x)) };
        let sum = sum.ok_or("the sum of its segments overflows")?;
        let wcet = t.segments_wcet.map_or(sum, |w| w.min(sum));
        let longest_segment = t.segments.iter().copied().max().unwrap_or(t.wcet);
        let progress = self.quantum - self.relaunch;
        let launches = wcet.ceil_ratio(progress).clamp(1, t.segments.len().max(1) as u128);
        let extra = launches - 1;
        let per_extra = longest_segment.checked_add(self.save).and_then(|x| x.checked_add(self.relaunch));
        let gpu_time = per_extra
            .and_then(|x| x.checked_mul(extra))
            .and_then(|x| x.checked_add(wcet.checked_add(self.relaunch)?))
            .ok_or("its GPU time overflows")?;
        // Every sum below is at most `gpu_time` (checked above) or `Q + cbar + s`.
        let stop = self.quantum.checked_add(longest_segment).and_then(|x| x.checked_add(self.save)).ok_or("its launch time overflows")?;
        let longest_launch = if extra == 0 { self.relaunch + wcet } else { stop.min(self.relaunch + wcet + self.save) };
        let before_last = stop.checked_mul(extra).ok_or("its GPU time overflows")?;
        let last = self.relaunch + wcet - progress * extra;
        let period = t.period.ok_or("it has no period")?;
        let (save, relaunch) = (self.save, self.relaunch);
        Ok(Demand { period, deadline: t.deadline, gpu_time, longest_launch, before_last, last, launches, longest_segment, wcet, save, relaunch })
    }
}

/// The framework's analysis of `w` (its `quantum`, `save`, `relaunch`, `ranking`, and
/// each task's `segments` and `rank`): per kernel a proven upper bound on its
/// response under rules F1-F4 (module doc), whenever the kernels' `C` are.
///
/// ```
/// use gpu_makespan::rta::{preemptive, taskset, Ticks};
///
/// let text = "unit = \"ms\"\n[framework]\nquantum = 1\nrelaunch = 0.1\nsave = 0.1\n\
///     [[kernels]]\nname = \"long\"\nperiod = 50\nsegments = [0.5, 0.5, 0.5, 0.5]\nblocks = 2\nthreads_per_block = 256\nrank = 2\n\
///     [[kernels]]\nname = \"short\"\nperiod = 5\ndeadline = 2\nsegments = [0.2]\nblocks = 2\nthreads_per_block = 256\nrank = 1\n";
/// let w = taskset::from_text(text, "set.toml", None, &Default::default(), None)?;
/// let r = preemptive(&w)?;
/// let short = &r.kernels[0];
/// // Blocked by one launch of `long` (1 + 0.5 + 0.1), then its own launch (0.1 + 0.2).
/// assert_eq!((short.name.as_str(), short.response), ("short", Some(Ticks::new(19))));
/// assert_eq!(short.schedulable, Some(true));
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn preemptive(w: &Workload) -> Result<Preemptive, Error> {
    let quantum = w.quantum.ok_or_else(|| InputError::new("framework.quantum", "", "the task set has no [framework] table with a quantum"))?;
    let relaunch = costs(w, quantum, None, "framework.relaunch")?.relaunch;
    check_fit(w)?;
    let mut demand = Vec::with_capacity(w.tasks.len());
    for (i, t) in w.tasks.iter().enumerate() {
        let costs = costs(w, quantum, Some(t), &format!("kernels[{i}].relaunch"))?;
        demand.push(costs.demand(t).map_err(|why| InputError::new(format!("kernels[{i}]"), &t.name, why))?);
    }
    let (ranks, feasible_order) = ranks(w, &demand);
    let mut order: Vec<usize> = (0..w.tasks.len()).collect();
    order.sort_by_key(|&i| (ranks[i], i));
    let kernels: Vec<PreemptiveRow> = order.iter().map(|&i| row(w, &demand, &ranks, i)).collect();
    let optimistic = kernels.iter().any(|k| k.wcet_optimistic);
    Ok(Preemptive {
        schedulable: kernels.iter().all(|k| k.schedulable != Some(false) && k.response.is_some()),
        kernels,
        verdict: if optimistic { Verdict::Optimistic } else { Verdict::Proven },
        ranking: w.ranking,
        feasible_order,
        quantum,
        save: w.save,
        relaunch,
        unit: w.unit.clone(),
        scale: w.scale,
    })
}

/// The costs of `t`'s launches (its own save and relaunch, else the framework's; the
/// profile's launch and block overheads added to the relaunch), which must leave its
/// blocks time to run in a quantum (`field` names the relaunch in errors).
fn costs(w: &Workload, quantum: Ticks, t: Option<&Task>, field: &str) -> Result<Costs, InputError> {
    let own = t.and_then(|t| t.relaunch).unwrap_or(w.relaunch);
    let relaunch = own.checked_add(w.launch_overhead).and_then(|x| x.checked_add(w.block_overhead));
    let relaunch = relaunch.ok_or_else(|| InputError::new(field, w.scale.format(own), "with the profile's overheads, too large"))?;
    if quantum <= relaunch {
        return Err(InputError::new(
            field,
            w.scale.format(own),
            format!(
                "the relaunch time ({} with the profile's launch and block overheads) must be below the quantum ({}): a launch must leave its blocks time to run",
                w.scale.format(relaunch),
                w.scale.format(quantum)
            ),
        ));
    }
    Ok(Costs { quantum, save: t.and_then(|t| t.save).unwrap_or(w.save), relaunch })
}

/// Rule F1's precondition: every kernel's blocks fit on the GPU at once, in every
/// placement the profile leaves open ([`room::fit`]).
fn check_fit(w: &Workload) -> Result<(), InputError> {
    let demands = demands(w)?;
    for (i, (t, d)) in w.tasks.iter().zip(&demands).enumerate() {
        let slots = w.platform.sms() * room::fit(&w.platform, d);
        if t.blocks > slots {
            return Err(InputError::new(
                format!("kernels[{i}].blocks"),
                t.blocks,
                format!("more than the {slots} blocks that fit on the GPU at once: the framework's load balancer places whole kernels (thesis 4.5)"),
            ));
        }
    }
    Ok(())
}

/// Each kernel's rank (1 runs first) by `w.ranking`, and with Audsley's assignment
/// whether it found an order in which every kernel meets its deadline.
fn ranks(w: &Workload, demand: &[Demand]) -> (Vec<i64>, Option<bool>) {
    let n = w.tasks.len();
    let by = |key: &dyn Fn(usize) -> Ticks| {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (key(i), i));
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r as i64 + 1;
        }
        rank
    };
    let deadline = |i: usize| demand[i].deadline.unwrap_or(demand[i].period);
    match w.ranking {
        Ranking::Given => (w.tasks.iter().map(|t| t.rank.unwrap_or(0)).collect(), None),
        Ranking::RateMonotonic => (by(&|i| demand[i].period), None),
        Ranking::DeadlineMonotonic => (by(&deadline), None),
        Ranking::Audsley => {
            let (rank, found) = audsley(demand, &by(&deadline));
            (rank, Some(found))
        }
    }
}

/// Audsley's optimal priority assignment: from the lowest rank up, the first kernel
/// (latest deadline first) that meets its deadline with every unranked kernel above
/// it. The test depends only on the sets above and below (their blocking is a
/// maximum, their interference a sum), so the assignment is optimal for it. When no
/// kernel fits a level, the rest keep their deadline-monotonic order.
fn audsley(demand: &[Demand], dm: &[i64]) -> (Vec<i64>, bool) {
    let n = demand.len();
    let mut rank = vec![0i64; n];
    let mut unranked: Vec<usize> = (0..n).collect();
    unranked.sort_by_key(|&i| std::cmp::Reverse(dm[i]));
    for level in (1..=n as i64).rev() {
        let fits = unranked.iter().position(|&i| {
            let above: Vec<usize> = unranked.iter().copied().filter(|&j| j != i).collect();
            let below: Vec<usize> = (0..n).filter(|&j| rank[j] != 0).collect();
            let r = response(demand, i, &above, &below);
            matches!(r, Ok(r) if demand[i].deadline.is_none_or(|d| r <= d))
        });
        match fits {
            Some(p) => rank[unranked.remove(p)] = level,
            None => {
                // The rest keep their deadline-monotonic order, above every level found.
                unranked.sort_by_key(|&i| dm[i]);
                for (r, &i) in unranked.iter().enumerate() {
                    rank[i] = r as i64 + 1;
                }
                return (rank, false);
            }
        }
    }
    (rank, true)
}

/// The row of kernel `i` under `ranks`.
fn row(w: &Workload, demand: &[Demand], ranks: &[i64], i: usize) -> PreemptiveRow {
    let n = demand.len();
    let above: Vec<usize> = (0..n).filter(|&j| j != i && ranks[j] <= ranks[i]).collect();
    let below: Vec<usize> = (0..n).filter(|&j| ranks[j] > ranks[i]).collect();
    let d = &demand[i];
    let (response, jobs, note) = match response_jobs(demand, i, &above, &below) {
        Ok((r, k)) => (Some(r), k, None),
        Err(why) => (None, 0, Some(why)),
    };
    let t = &w.tasks[i];
    // An oldest-first bound counts the instructions of the blocks beside it, not the
    // save and restore code other blocks run at their points (a relaunch is also a new
    // arrival beside other blocks): not a bound under the framework.
    let oldest_first = t.points.is_some() && t.wcet_source.contains(crate::rta::wcet::OLDEST_FIRST);
    let wcet_source = if oldest_first {
        format!("{}; under the framework OPTIMISTIC: an oldest-first bound counts the other blocks' instructions, not the save and restore code they run at their points (gpu.warp_arbitration = \"round-robin\" gives a bound that does)", t.wcet_source)
    } else {
        t.wcet_source.clone()
    };
    PreemptiveRow {
        name: t.name.clone(),
        rank: ranks[i],
        segments: t.segments.len().max(1),
        longest_segment: d.longest_segment,
        wcet: d.wcet,
        launches: d.launches,
        gpu_time: d.gpu_time,
        longest_launch: d.longest_launch,
        blocking: blocking(demand, &below),
        save: d.save,
        relaunch: d.relaunch,
        response,
        deadline: d.deadline,
        schedulable: match (response, d.deadline) {
            (Some(r), Some(dl)) => Some(r <= dl),
            (None, Some(_)) => Some(false),
            (_, None) => None,
        },
        jobs,
        wcet_optimistic: t.wcet_optimistic || oldest_first,
        wcet_model: crate::rta::report::wcet_model(&t.wcet_source),
        wcet_source,
        points: t.points.clone(),
        note,
    }
}

/// `B_i`: the longest launch among `below`.
fn blocking(demand: &[Demand], below: &[usize]) -> Ticks {
    below.iter().map(|&j| demand[j].longest_launch).max().unwrap_or(Ticks::ZERO)
}

/// `R_i` with `above` (`hep(i)`) and `below` (`lp(i)`).
fn response(demand: &[Demand], i: usize, above: &[usize], below: &[usize]) -> Result<Ticks, String> {
    response_jobs(demand, i, above, below).map(|(r, _)| r)
}

/// `R_i` and the jobs of the level-`i` active period (module doc, "response time").
fn response_jobs(demand: &[Demand], i: usize, above: &[usize], below: &[usize]) -> Result<(Ticks, u128), String> {
    let b = blocking(demand, below);
    let me = &demand[i];
    let busy = fixpoint(b + me.gpu_time + above.iter().map(|&j| demand[j].gpu_time).sum::<Ticks>(), |l| {
        let mine = me.gpu_time.checked_mul(l.ceil_ratio(me.period))?;
        above.iter().try_fold(b.checked_add(mine)?, |sum, &j| sum.checked_add(demand[j].gpu_time.checked_mul(l.ceil_ratio(demand[j].period))?))
    })
    .ok_or_else(|| overload(demand, i, above))?;
    let jobs = busy.ceil_ratio(me.period).max(1);
    if jobs > MAX_JOBS {
        return Err(format!(
            "its level-i active period holds {jobs} of its jobs, more than the {MAX_JOBS} the analysis checks (a limit of the analysis, not an overload)"
        ));
    }
    let mut worst = Ticks::ZERO;
    for k in 0..jobs {
        let own = me.gpu_time.checked_mul(k).and_then(|x| x.checked_add(me.before_last)).and_then(|x| x.checked_add(b)).ok_or("its busy period overflows")?;
        let start = fixpoint(own + above.iter().map(|&j| demand[j].gpu_time).sum::<Ticks>(), |s| {
            above.iter().try_fold(own, |sum, &j| sum.checked_add(demand[j].gpu_time.checked_mul(s / demand[j].period + 1)?))
        })
        .ok_or_else(|| overload(demand, i, above))?;
        worst = worst.max((start + me.last).saturating_sub(me.period * k));
    }
    Ok((worst, jobs))
}

/// Why a busy period did not settle: the utilisation of the kernels involved.
fn overload(demand: &[Demand], i: usize, above: &[usize]) -> String {
    let u: f64 = std::iter::once(i).chain(above.iter().copied()).map(|j| demand[j].gpu_time.get() as f64 / demand[j].period.get() as f64).sum();
    if u >= 1.0 {
        format!("its busy period does not end: the GPU time of its kernel and those ranked at or above it is {:.1} % of the GPU", 100.0 * u)
    } else {
        format!(
            "its busy period did not settle within {MAX_ITERATIONS} steps (the GPU time of its kernel and those ranked at or above it is {:.1} % of the GPU: a limit of the analysis, not an overload)",
            100.0 * u
        )
    }
}

/// The least fixed point of `x = f(x)` from `start` (`f` nondecreasing), `None` when it
/// overflows or does not settle within [`MAX_ITERATIONS`].
fn fixpoint(start: Ticks, f: impl Fn(Ticks) -> Option<Ticks>) -> Option<Ticks> {
    let mut x = start;
    for _ in 0..MAX_ITERATIONS {
        let next = f(x)?;
        if next <= x {
            return Some(x);
        }
        x = next;
    }
    None
}

impl Preemptive {
    /// `t` (one of this report's times) in the task set's unit, as the nearest `f64`.
    pub fn in_unit(&self, t: Ticks) -> f64 {
        self.scale.to_f64(t)
    }
}

impl Serialize for Preemptive {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let u = |t: Ticks| self.in_unit(t);
        let kernels: Vec<serde_json::Value> = self
            .kernels
            .iter()
            .map(|k| {
                serde_json::json!({
                    "name": k.name, "rank": k.rank, "segments": k.segments, "longest_segment": u(k.longest_segment),
                    "wcet": u(k.wcet), "launches": k.launches, "gpu_time": u(k.gpu_time), "longest_launch": u(k.longest_launch),
                    "blocking": u(k.blocking), "save": u(k.save), "relaunch": u(k.relaunch), "response": k.response.map(u), "deadline": k.deadline.map(u),
                    "schedulable": k.schedulable, "jobs": k.jobs, "wcet_optimistic": k.wcet_optimistic,
                    "wcet_source": k.wcet_source, "wcet_model": k.wcet_model, "points": k.points, "note": k.note,
                })
            })
            .collect();
        serde_json::json!({
            "kernels": kernels, "schedulable": self.schedulable, "verdict": self.verdict, "ranking": self.ranking,
            "feasible_order": self.feasible_order, "quantum": u(self.quantum), "save": u(self.save), "relaunch": u(self.relaunch),
            "unit": self.unit,
        })
        .serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::gpu::Platform;
    use crate::rta::workload::Timing;

    fn kernel(name: &str, period: u128, segments: &[u128], rank: i64) -> Task {
        let timing = Timing { period: Ticks::new(period), wcet: Ticks::new(segments.iter().sum()), release: Ticks::ZERO };
        Task { segments: segments.iter().map(|&s| Ticks::new(s)).collect(), rank: Some(rank), ..Task::given(name, timing, 1, 64) }
    }

    fn framework(tasks: Vec<Task>, quantum: u128, save: u128, relaunch: u128) -> Workload {
        Workload {
            quantum: Some(Ticks::new(quantum)),
            save: Ticks::new(save),
            relaunch: Ticks::new(relaunch),
            ..Workload::new(tasks, Platform::TX2, Scale::default(), "ms")
        }
    }

    #[test]
    fn a_long_kernel_takes_launches_and_pays_for_each() {
        // C = 40 in segments of 10, Q = 10, rho = 2: progress 8 per launch, so at most
        // 5 launches by time but 4 by segments; E = 40 + 2 + 3 (10 + 1 + 2) = 81;
        // longest launch min(10 + 10 + 1, 2 + 40 + 1) = 21.
        let w = framework(vec![kernel("long", 1000, &[10, 10, 10, 10], 1)], 10, 1, 2);
        let r = preemptive(&w).unwrap();
        let k = &r.kernels[0];
        assert_eq!((k.launches, k.gpu_time, k.longest_launch), (4, Ticks::new(81), Ticks::new(21)));
        // Alone: A = 3 * 21 = 63, F = 2 + 40 - 3 * 8 = 18: 81 = E.
        assert_eq!(k.response, Some(Ticks::new(81)));
        // One segment: never stopped, one launch whatever the quantum.
        let w = framework(vec![kernel("whole", 1000, &[40], 1)], 10, 1, 2);
        let k = &preemptive(&w).unwrap().kernels[0];
        assert_eq!((k.launches, k.gpu_time, k.response), (1, Ticks::new(42), Some(Ticks::new(42))));
    }

    #[test]
    fn the_high_rank_waits_for_one_launch_only() {
        let w = framework(vec![kernel("long", 1000, &[10, 10, 10, 10], 2), kernel("short", 50, &[3], 1)], 10, 1, 2);
        let r = preemptive(&w).unwrap();
        assert_eq!(r.kernels[0].name, "short");
        // B = 21, then its own launch 2 + 3.
        assert_eq!((r.kernels[0].blocking, r.kernels[0].response), (Ticks::new(21), Some(Ticks::new(26))));
        // long: A = 63, S = 63 + (floor(S / 50) + 1) 5 = 73, then F = 18: 91.
        assert_eq!(r.kernels[1].response, Some(Ticks::new(91)));
    }

    #[test]
    fn audsley_finds_an_order_whenever_one_exists() {
        // Random sets of 3 kernels; every order of ranks tried by hand.
        let mut seed = 7u64;
        let mut draw = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut found, mut beyond_dm) = (0, 0);
        for _ in 0..400 {
            let tasks: Vec<Task> = (0..3)
                .map(|i| {
                    let segs: Vec<u128> = (0..1 + draw(3)).map(|_| 1 + draw(6) as u128).collect();
                    let mut k = kernel(&format!("k{i}"), 20 + draw(40) as u128, &segs, 0);
                    k.deadline = Some(Ticks::new(8 + draw(40) as u128));
                    k
                })
                .collect();
            let mut w = framework(tasks, 4 + draw(6) as u128, draw(2) as u128, draw(2) as u128);
            let orders = [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]];
            let any = orders.iter().any(|o| {
                let mut given = w.clone();
                for (t, &r) in given.tasks.iter_mut().zip(o) {
                    t.rank = Some(r);
                }
                preemptive(&given).unwrap().schedulable
            });
            w.ranking = Ranking::DeadlineMonotonic;
            beyond_dm += usize::from(any && !preemptive(&w).unwrap().schedulable);
            w.ranking = Ranking::Audsley;
            let opt = preemptive(&w).unwrap();
            assert_eq!((opt.feasible_order, opt.schedulable), (Some(any), any), "{:?}", w.tasks);
            let mut ranks: Vec<i64> = opt.kernels.iter().map(|k| k.rank).collect();
            ranks.sort();
            assert_eq!(ranks, [1, 2, 3], "distinct ranks, found or not");
            found += usize::from(any);
        }
        assert!(found > 50 && found < 350 && beyond_dm > 0, "{found} of 400 feasible, {beyond_dm} not by deadline-monotonic ranks");
    }

    #[test]
    fn a_busy_period_of_too_many_jobs_is_a_limit_not_a_response() {
        let w = framework(vec![kernel("low", 1_000_000_000, &[100_000_000], 2), kernel("high", 10, &[1], 1)], 5, 0, 0);
        let r = preemptive(&w).unwrap();
        let note = r.kernels[0].note.as_deref().unwrap_or("");
        assert!(r.kernels[0].response.is_none() && note.contains("more than the 100000"), "{note}");
    }

    #[test]
    fn sums_that_overflow_are_refused_not_wrapped() {
        let big = u128::MAX / 2 + 1;
        let mut k = kernel("k", 100, &[1], 1);
        k.segments = vec![Ticks::new(big), Ticks::new(big)];
        let e = preemptive(&framework(vec![k], 10, 0, 1)).unwrap_err();
        assert!(e.to_string().contains("overflows"), "{e}");
    }

    #[test]
    fn a_kernel_that_does_not_fit_at_once_is_refused() {
        let mut k = kernel("wide", 100, &[5], 1);
        k.blocks = 10_000;
        let e = preemptive(&framework(vec![k], 10, 0, 1)).unwrap_err();
        assert!(e.to_string().contains("kernels[0].blocks"), "{e}");
    }

    #[test]
    fn a_quantum_not_above_the_relaunch_is_refused() {
        let e = preemptive(&framework(vec![kernel("k", 100, &[5], 1)], 2, 0, 2)).unwrap_err();
        assert!(e.to_string().contains("framework.relaunch") && e.to_string().contains("quantum"), "{e}");
    }

    #[test]
    fn overload_gives_no_response_and_says_why() {
        let w = framework(vec![kernel("a", 10, &[6], 1), kernel("b", 10, &[6], 2)], 100, 0, 1);
        let r = preemptive(&w).unwrap();
        assert!(!r.schedulable);
        assert!(r.kernels[1].response.is_none() && r.kernels[1].note.as_deref().unwrap_or("").contains("does not end"));
    }
}
