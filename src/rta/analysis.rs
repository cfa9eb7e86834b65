//! Kernel-level response-time analysis of the Jetson TX2 GPU scheduler (the thesis
//! chapter's Algorithm 2, with the corrections listed in `docs/rta-model.md`), on a
//! per-SM platform model ([`crate::rta::gpu`]) with exact time arithmetic
//! ([`crate::rta::time`]).
//!
//! Model (rules of Amert et al., RTSS 2017, for the TX2): jobs launch in release order
//! (tied releases in any order, [`crate::rta::jobs`]); only the head job's blocks
//! dispatch (rule X1), in order, each as soon as some SM has room for it (threads,
//! resident blocks, shared memory, registers per sub-partition); a job released at `r`
//! dispatches no block before `r` plus the launch overhead. `f` is the finish of its
//! last block, `R = f - r`. By default each kernel is one job; with a window, periodic
//! jobs, and a kernel's response is the worst of its jobs'.
//!
//! **Which response is reported, and why it is safe.** `C` bounds a block's time, so
//! the reported `f` must hold for every block time up to `C`, every choice of SM and
//! sub-partition, and every launch order of tied jobs. The report uses a list schedule
//! ([`crate::rta::list::finishes`]): each block, in launch order, starts at the first
//! time `t`, not before its job's dispatch time nor its predecessor's start, at which
//! `n(t) < #SMs * k`, where `n(t)` counts the list schedule's blocks running at `t` (and,
//! with two priority queues, a high job's [`crate::rta::jobs::Residents`] until its
//! blocking ends: [`crate::rta::priority`]) and
//! `k` is chosen so that an SM running at most `k - 1` blocks of the running kinds has
//! room for the new block (`fit(d)` when every running block has the new block's demand
//! `d`, else the envelope rule of [`crate::rta::room::beside`]), or at which the running
//! blocks' weights ([`crate::rta::room::weights`], head `d`) sum to less than `#SMs`.
//! 1. *It bounds the real GPU.* Compare blocks by their position in the sequence; the
//!    real block at each position has at most the list block's time and demand. By
//!    induction, if every earlier real block started no later than its list block, it
//!    also ended no later. List starts never decrease along the sequence, so at the list
//!    start `t` of block `b` every earlier list block has started; the real blocks still
//!    running at `t` are earlier ones whose list blocks also run at `t`, with no larger
//!    demands, and later real blocks have not started (FIFO). Fewer than `#SMs * k` run,
//!    so some SM runs at most `k - 1` of them and has room; or their weights (no larger
//!    than their list blocks') sum to less than `#SMs`, so on some SM they weigh less
//!    than 1 and it has room: the real block, whose predecessor started by `t`, starts
//!    no later than `t`.
//! 2. *It is monotone.* Shorter blocks only remove running blocks at any `t`, and fewer
//!    running blocks of fewer kinds never lower `k` nor raise the weights' sum: nothing
//!    starts later.
//!
//! When every kernel has the same demand `d`, `k = fit(d)` throughout and the list
//! schedule *is* the GPU's schedule (an SM has room exactly when it runs fewer than
//! `fit(d)` blocks): the reported response is exact for `C` (in the worst launch order
//! of tied jobs) and, by 2, safe for shorter blocks. With mixed demands it is a safe
//! bound. `bound` in the report says which. A per-SM simulation of the dispatch rules
//! ([`crate::rta::sms::simulate_sms`], nominal choices) gives `simulated_finish` and is
//! checked against it.
//!
//! With one demand, one job per kernel and no overheads, [`crate::rta::list::list_schedule`]
//! (the chapter's Algorithm 2 with the steps its text implies) must agree; it, the static
//! slot simulation and the corrected closed form are tested against each other.

use crate::error::{Error, Inconsistency, InputError};
use crate::rta::gpu::Demand;
use crate::rta::jobs::{missing_may_pass, sequence, sequence_until, Job, Sequence};
use crate::rta::list::list_schedule;
use crate::rta::priority::Budget;
use crate::rta::queues::{worst_over_orders_within, Worst};
use crate::rta::report::{report, Bound, RtaReport};
use crate::rta::slicing::{check_slicing, process_of, sliced, sliced_finishes};
use crate::rta::sms::{most_free_threads, simulate_sms, SmsRun};
use crate::rta::ties::Ties;
use crate::rta::time::Ticks;
use crate::rta::time_slices::{run_slices, Sharing};
use crate::rta::workload::{demands, Task, Window, Workload};

/// Whether [`analyse`] keeps the nominal per-SM run in its report (for drawing it, e.g.
/// as a timeline); the responses are the same either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Timeline {
    /// The report's `runs`, `copies` and `slices` stay empty (default); its `jobs` are
    /// listed either way.
    #[default]
    Omitted,
    /// The report keeps the nominal run: `runs`, `copies` and `slices`.
    Kept,
}

/// Analyses `w`: the jobs in launch order (`crate::rta::jobs`), the reported list
/// schedule over the launch orders of tied jobs (`crate::rta::ties`), the per-SM
/// simulation of the nominal order (must not exceed it; must equal it with one demand
/// and no free ties), and with one demand, one job per kernel and no overhead,
/// Algorithm 2 (must agree). With [`Timeline::Kept`], the report keeps the nominal
/// per-SM run (for drawing it). A window is refused where some C holds for one job per
/// kernel only, or for another window ([`Workload::wcets_for`]).
///
/// A task set built in code (the thesis chapter's worked example: four kernels released
/// together, times in seconds, `C` given per block):
///
/// ```
/// use gpu_makespan::rta::{self, Launch, Platform, Scale, Task, Ticks, Timeline, Timing, Workload};
///
/// let tasks = [(4, 2), (6, 7), (6, 2), (5, 5)]
///     .iter()
///     .enumerate()
///     .map(|(i, &(c, g))| {
///         let timing = Timing { period: Ticks::new(15), wcet: Ticks::new(c), release: Ticks::ZERO };
///         Task::given(format!("K{}", i + 1), timing, g, 512)
///     })
///     .collect();
/// let mut w = Workload::new(tasks, Platform::TX2, Scale { decimals: 0 }, "s");
/// w.launch = Launch::FileOrder;
/// let report = rta::analyse(&w, Timeline::Omitted)?;
/// let finish: Vec<Ticks> = report.kernels.iter().map(|k| k.finish).collect();
/// assert_eq!(finish, [4, 10, 12, 11].map(Ticks::new));
/// assert_eq!(report.schedulable, Some(true));
/// // The report serialises (`makespan rta --json`) and reads back.
/// let back: rta::RtaReport = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
/// assert_eq!(back.kernels.len(), 4);
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn analyse(w: &Workload, timeline: Timeline) -> Result<RtaReport, Error> {
    if let Some((loaded, launch)) = w.wcets_for.filter(|&jobs| jobs != (w.window, w.launch)) {
        let why = match loaded {
            _ if loaded == w.window && launch != w.launch => "some C was computed for another launch order of tied releases (it leaves out kernels that cannot be beside it then): load the task set with this launch order",
            Window::OneJob => "some C was computed for one job per kernel (it leaves out kernels that cannot be beside it then): load the task set with the window so that its C's count every kernel that can be",
            _ => "some C was computed for the jobs of another window (it leaves out kernels that cannot be beside it then): load the task set with this window",
        };
        return Err(InputError::option("window", "", why).into());
    }
    let timeline = timeline == Timeline::Kept;
    let demands = demands(w)?;
    if sliced(w) {
        return analyse_sliced(w, &demands, timeline);
    }
    let (seq, worst) = analysed_jobs(w, &demands)?;
    // One demand whose slots are the hardware's in every case the profile leaves open.
    let uniform = demands.iter().all(|d| *d == demands[0]) && crate::rta::room::fit_is_exact(&w.platform, &demands[0]);
    // The nominal run: the nominal order, each job entering the queue at its release plus
    // the launch overhead, or once its stream predecessor has completed.
    let run = simulate_sms(&seq.jobs, &seq.classes, &w.platform, &mut |j, _| seq.jobs[j].wcet, &mut most_free_threads, timeline);
    let bound = match worst.ties {
        _ if worst.two_queues => Bound::Priorities,
        Ties::Bound => Bound::TieBound,
        _ if uniform && worst.copies.is_some() => Bound::Copies,
        _ if uniform && attained(&reported(&seq), &worst.finish, &worst.attained) => Bound::ExactMonotone,
        _ if uniform => Bound::UpperBound,
        _ => Bound::Envelope,
    };
    check(w, &seq, &worst, &run.finish, uniform)?;
    Ok(report(w, &seq, &worst, &demands, bound, run))
}

/// The jobs whose finishes are reported ([`Sequence::reported`]).
fn reported(seq: &Sequence) -> Vec<Job> {
    seq.jobs.iter().filter(|j| seq.reported(j)).copied().collect()
}

/// Whether every kernel's worst response is attained by an execution that can happen
/// (some job of the kernel with that response has `attained`).
fn attained(jobs: &[Job], finish: &[Ticks], attained: &[bool]) -> bool {
    // Per kernel: its worst response, and whether a job with it is attained.
    let mut worst: std::collections::HashMap<usize, (Ticks, bool)> = std::collections::HashMap::new();
    for j in jobs {
        let (r, a) = (finish[j.id] - j.release, attained[j.id]);
        let e = worst.entry(j.task).or_insert((r, a));
        if r > e.0 {
            *e = (r, a);
        } else if r == e.0 {
            e.1 |= a;
        }
    }
    worst.values().all(|&(_, a)| a)
}

/// Kernels of several processes ([`crate::rta::slicing`]): each job's bound, and the
/// nominal run (each job its kernel's nominal per-SM run alone, the processes in
/// turn from the first, switches at their longest), which must not exceed it.
fn analyse_sliced(w: &Workload, demands: &[Demand], timeline: bool) -> Result<RtaReport, Error> {
    let slices = check_slicing(w)?;
    let seq = sequence(w, demands, w.launch, w.window)?;
    let process = process_of(w, &seq);
    let finish = sliced_finishes(&seq, w, &slices, &process);
    let service: Vec<Ticks> = seq
        .jobs
        .iter()
        .map(|j| {
            let alone = Job { id: 0, after: None, ready: Ticks::ZERO, release: Ticks::ZERO, ..*j };
            simulate_sms(&[alone], &seq.classes, &w.platform, &mut |_, _| j.wcet, &mut most_free_threads, false).finish[0]
        })
        .collect();
    let ready: Vec<Ticks> = seq.jobs.iter().map(|j| j.ready).collect();
    let sharing =
        Sharing { process: &process, processes: slices.len(), service: &service, ready: &ready, time_slices: &slices, first: None };
    let (simulated, slices) = run_slices(&seq.jobs, &sharing, &mut || w.context_switch.unwrap_or(Ticks::ZERO));
    if let Some((j, (&s, &f))) = seq.jobs.iter().zip(simulated.iter().zip(&finish)).find(|(_, (s, f))| s > f) {
        return Err(Inconsistency::Disagreement(format!(
            "{} (job {}): the nominal time-sliced run finishes at {} ticks, the bound at {}",
            w.tasks[j.task].name,
            j.number,
            s.get(),
            f.get()
        ))
        .into());
    }
    let n = seq.jobs.len();
    let worst = Worst {
        finish: finish.clone(),
        kernel_finish: finish,
        copies: None,
        order: vec![None; n],
        ties: Ties::None,
        jobs: seq.jobs.clone(),
        groups: Vec::new(),
        reach: vec![Ticks::ZERO; n],
        two_queues: false,
        attained: vec![false; n],
    };
    let run = SmsRun { finish: simulated, slices: if timeline { slices } else { Vec::new() }, ..SmsRun::default() };
    Ok(report(w, &seq, &worst, demands, Bound::TimeSliced, run))
}

/// Most rounds that add jobs released after a window's end (`analysed_jobs`).
pub const MAX_WINDOW_ROUNDS: usize = 8;

/// Most jobs a round that adds jobs beyond a window analyses (in `analysed_jobs` and in
/// [`with_context_jobs`]): this many times the window's jobs (at least
/// [`MIN_CONTEXT_CAP`] of them). A reach that needs more keeps growing with the jobs
/// added (the analysis's own pessimism, or an overload): the rounds stop there, and the
/// set is refused as when they do not settle, instead of analysing tens of thousands of
/// jobs. With the cap an answer may come from an earlier round (the window's jobs only,
/// [`with_context_jobs`]) or the set be refused; every answer given is proven.
pub const MAX_CONTEXT_FACTOR: usize = 8;

/// The window's jobs counted at least this many for [`MAX_CONTEXT_FACTOR`].
pub const MIN_CONTEXT_CAP: usize = 16;

/// The most jobs a round that adds jobs beyond a window of `jobs` jobs may analyse
/// ([`MAX_CONTEXT_FACTOR`], [`MIN_CONTEXT_CAP`]).
fn context_cap(jobs: usize) -> usize {
    jobs.max(MIN_CONTEXT_CAP).saturating_mul(MAX_CONTEXT_FACTOR)
}

/// The jobs to analyse and their worst finishes. In a window, a job released after the
/// window's end may still enter the queue ahead of an analysed job (released no later
/// than that job's latest entry, which a launch overhead or a stream wait delays, or
/// ahead of a kernel's first job released after the end): such jobs are added, and the
/// analysis repeated, until every job released at or before the latest entry of any
/// analysed job is analysed. Then no job left out can pass an analysed one. If that
/// does not settle in [`MAX_WINDOW_ROUNDS`] rounds, or a round would analyse more than
/// [`context_cap`] of the first round's jobs, the jobs released from the end on are
/// context only ([`with_context_jobs`]): the first round that closes the window for the
/// jobs released before it, else that function's rounds. One [`Budget`] for the two
/// queues serves every round.
fn analysed_jobs(w: &Workload, demands: &[Demand]) -> Result<(Sequence, Worst), Error> {
    let overload = |latest: Ticks| {
        with_load(
            w,
            InputError::option(
                "window",
                "",
                format!(
                    "jobs released after the window's end keep entering the queue ahead of analysed ones (up to {} {}) in the analysis's bounds; give longer periods or a window that ends after a quiet time",
                    w.scale.format(latest),
                    w.unit
                ),
            ),
        )
    };
    let mut until = None;
    // One budget for the two queues over every round of the window (`Budget`).
    let mut budget = Budget::FULL;
    // The first round whose window jobs are closed without the later jobs' own reach
    // (`with_context_jobs`): the answer if the rounds do not settle.
    let mut closed = None;
    // The window's jobs' largest reach in the first round (every job released before the
    // end), where they are not closed: [`with_context_jobs`] starts from it.
    let mut first_reach = None;
    // The most jobs a round may analyse: set by the first round, the window's own jobs.
    let mut most = usize::MAX;
    for _ in 0..MAX_WINDOW_ROUNDS {
        let seq = match sequence_until(w, demands, w.launch, w.window, until) {
            Err(_) if until.is_some() => break,
            other => other?,
        };
        if seq.jobs.len() > most {
            break;
        }
        most = most.min(context_cap(seq.jobs.len()));
        let worst = match worst_over_orders_within(&seq, &w.platform, &mut budget) {
            Ok(worst) => worst,
            Err(_) if closed.is_some() => break,
            Err(e) => return Err(with_load(w, e).into()),
        };
        if !missing_may_pass(w, &seq, &worst.reach) {
            return Ok((seq, worst));
        }
        let next = worst.reach.iter().copied().max().unwrap_or(Ticks::ZERO) + Ticks::new(1);
        if closed.is_none() {
            // The sequence holds every job released before max(end, until).
            let floor = seq.window_end.map(|e| until.map_or(e, |u| e.max(u)).saturating_sub(Ticks::new(1)));
            match floor.map(|floor| window_closed(w, seq, worst, floor)) {
                Some(Ok(c)) => closed = Some(c),
                Some(Err(reach)) if until.is_none() => first_reach = reach,
                _ => {}
            }
        }
        until = Some(next);
    }
    match closed.map_or_else(|| with_context_jobs(w, demands, &mut budget, first_reach), |c| Ok(Some(c))) {
        Ok(Some(found)) => Ok(found),
        _ => Err(overload(until.unwrap_or(Ticks::ZERO)).into()),
    }
}

/// The window's jobs when the later jobs that may pass them keep reaching further (each
/// added job's latest entry admitting more, e.g. releases closer than the launch
/// overhead): the jobs released after the window's end `E` are *context*, analysed only
/// as jobs that may pass the window's, their finishes not reported
/// ([`Sequence::reported_until`]). The sequence holds every job released by a floor
/// `U`, from `E - 1` up, moved to `E + 2 (R - E)` while the window's jobs' largest reach
/// `R` ([`Worst::reach`]) is above `U`, until it is at most `U` (from `E + 2 (R - E)`
/// when `first_reach` gives `R` for `U = E - 1`, the window's jobs alone, already
/// analysed by the caller; `None` if not within
/// [`MAX_WINDOW_ROUNDS`] rounds or [`MAX_CONTEXT_FACTOR`] times the window's jobs; an
/// error of the analysis is returned, and the caller refuses either way).
///
/// Proof that each window job `a` ends by its reported finish. Let `S` be the jobs
/// released by `U` (the sequence). The analysis of `S` ([`crate::rta::queues::worst_over_orders`]) bounds
/// every job of every execution of `S` alone. Take an execution `X` of the whole set
/// and `X'`, the execution of `S` that makes `X`'s choices (entries, SMs, block and copy
/// times) until the first entry into a queue of a job released after `U`, at some `t >
/// U`, and any choices after: the two are the same up to `t`, since a job that has not
/// entered a queue has no effect. A job entering after `reach_a` changes no dispatch of
/// `a`'s blocks or copies (what `reach` means: with one queue it is behind `a` in it,
/// `a` having entered by its latest entry `reach_a`; with two queues, for a high `a`
/// the same, a low job waiting for the high queue to empty, and for a low `a` every
/// block of `a` is dispatched by `D = reach_a`; a copy enters behind `a`'s copies, which
/// enter by `reach_a`). After `t`, `X'` also makes `X`'s choices for `a` and for the
/// jobs ahead of `a` (all entered before `t`, so in `S`). So `a`'s blocks are dispatched
/// at the same times in `X` and `X'`, take the same times, and `a` ends at the same
/// time, by its finish in the analysis of `S`. A context job's finish bounds it only in executions of `S` alone:
/// jobs released after `U` may pass it, so it is not reported.
fn with_context_jobs(w: &Workload, demands: &[Demand], budget: &mut Budget, first_reach: Option<Ticks>) -> Result<Option<(Sequence, Worst)>, Error> {
    // An overload (some resource or stream loaded 1 or more with every block at its C)
    // is refused as such: its jobs' reach grows without end.
    if crate::rta::load::heaviest(&w.tasks, demands, &w.platform).is_none_or(|(load, _)| load >= 1.0) {
        return Ok(None);
    }
    let window = sequence(w, demands, w.launch, w.window)?;
    let Some(end) = window.window_end else { return Ok(None) };
    let most = context_cap(window.jobs.len());
    // Twice as far past the end as a reach: one that grows with every job added (a low
    // job charged each high job released before its bound) closes in a few rounds.
    let farther = |reach: Ticks| (reach - end).get().checked_mul(2).and_then(|d| end.checked_add(Ticks::new(d)));
    let mut floor = match first_reach {
        Some(reach) => match farther(reach) {
            Some(floor) => floor,
            None => return Ok(None),
        },
        None => end.saturating_sub(Ticks::new(1)),
    };
    for _ in 0..MAX_WINDOW_ROUNDS {
        // Every job released by the floor.
        let seq = sequence_until(w, demands, w.launch, w.window, Some(floor + Ticks::new(1)))?;
        if seq.jobs.len() > most {
            return Ok(None);
        }
        let worst = worst_over_orders_within(&seq, &w.platform, budget)?;
        match window_closed(w, seq, worst, floor) {
            Ok(closed) => return Ok(Some(closed)),
            Err(None) => return Ok(None),
            Err(Some(reach)) => {
                let Some(next) = farther(reach) else { return Ok(None) };
                floor = next;
            }
        }
    }
    Ok(None)
}

/// `seq` (every job released by `floor`) and its analysis as the window's answer of
/// [`with_context_jobs`], if the window's jobs (released before its end) reach no later
/// than `floor`; else the largest reach (`None` when every kernel's first job is not
/// released before the end: then the window's jobs are not those released before it).
fn window_closed(w: &Workload, seq: Sequence, worst: Worst, floor: Ticks) -> Result<(Sequence, Worst), Option<Ticks>> {
    let end = seq.window_end.filter(|&e| w.tasks.iter().all(|t| t.release < e)).ok_or(None)?;
    let reach = seq.jobs.iter().filter(|j| j.release < end).map(|j| worst.reach[j.id]).max().unwrap_or(Ticks::ZERO);
    if reach > floor {
        return Err(Some(reach));
    }
    Ok((Sequence { reported_until: Some(end), ..seq }, worst))
}

/// A refusal of the analysis's own limits (rounds, work, a window that keeps growing)
/// with the load that tells an overload from a limit of the analysis, when every kernel
/// has a period: the heaviest of the GPU's resources over time and of the streams' serial
/// loads ([`crate::rta::load`]), with the kernels' thread-time utilisation. At 1 or more
/// the GPU cannot keep up (every block taking its `C`); below, it may.
fn with_load(w: &Workload, mut e: InputError) -> InputError {
    let Ok(demands) = crate::rta::workload::demands(w) else { return e };
    let Some((load, what)) = crate::rta::load::heaviest(&w.tasks, &demands, &w.platform) else { return e };
    let u = crate::rta::report::utilization(&w.tasks, &w.platform, w.scale);
    e.reason += &if load >= 1.0 {
        format!(" ({what} is loaded {load:.3} with every block at its C: an overload, the GPU cannot keep up; the kernels use {u:.3} of the GPU's thread-time)")
    } else {
        format!(" (the heaviest load is {load:.3}, {what}, and the kernels use {u:.3} of the GPU's thread-time, so the GPU may keep up: a limit of the analysis, not an overload; the set is not proven schedulable)")
    };
    e
}

/// The nominal per-SM run never finishes a job after its reported finish, and equals
/// it with one demand and a fixed order; with one demand, one job per kernel, no
/// overheads and no free ties, Algorithm 2 gives the reported finishes.
fn check(w: &Workload, seq: &Sequence, worst: &Worst, simulated: &[Ticks], uniform: bool) -> Result<(), Inconsistency> {
    let fixed = worst.ties == Ties::None && !worst.two_queues && worst.copies.is_none();
    for ((j, &f), &s) in worst.jobs.iter().zip(&worst.finish).zip(simulated) {
        if !seq.reported(j) {
            continue;
        }
        if s > f || (uniform && fixed && s != f) {
            return Err(Inconsistency::Disagreement(format!(
                "{} (job {}): per-SM simulation finishes at {} ticks, the list schedule at {}",
                w.tasks[j.task].name,
                j.number,
                s.get(),
                f.get()
            )));
        }
    }
    let no_stream_waits = worst.jobs == seq.jobs;
    if uniform && fixed && no_stream_waits && seq.window_end.is_none() && w.launch_overhead == Ticks::ZERO && w.block_overhead == Ticks::ZERO {
        let tasks: Vec<Task> = seq.jobs.iter().map(|j| w.tasks[j.task].clone()).collect();
        let g = w.platform.sms() * crate::rta::room::fit(&w.platform, &seq.classes[0].demand);
        if list_schedule(&tasks, g) != worst.finish {
            return Err(Inconsistency::Disagreement("Algorithm 2 and the list schedule differ".into()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::gpu::Platform;
    use crate::rta::list::closed_form_equal_c;
    use crate::rta::time::Scale;
    use crate::rta::workload::{Launch, Timing};

    /// A refusal of the analysis's limits says whether the load is an overload.
    #[test]
    fn a_refusal_tells_an_overload_from_a_limit() {
        let k = |wcet: u128| Task::given("K", Timing { period: Ticks::new(10), wcet: Ticks::new(wcet), release: Ticks::ZERO }, 1, 512);
        let why = |wcet: u128| with_load(&workload(vec![k(wcet)], 0), InputError::option("window", "", "stop")).reason;
        // 512 of the TX2's 4,096 threads for 1 in 10: 0.0125; its own stream 1 in 10.
        assert_eq!(why(1), "stop (the heaviest load is 0.100, the stream of \"K\", and the kernels use 0.013 of the GPU's thread-time, so the GPU may keep up: a limit of the analysis, not an overload; the set is not proven schedulable)");
        assert!(why(10).contains("the stream of \"K\" is loaded 1.000 with every block at its C: an overload"), "{}", why(10));
        // Two kernels, each 8 blocks of 512 threads for 5 in 10, fill the GPU's threads;
        // each of their streams is busy half the time.
        let half = |name: &str| Task { name: name.into(), blocks: 8, ..k(5) };
        let why = with_load(&workload(vec![half("A"), half("B")], 0), InputError::option("window", "", "stop")).reason;
        assert!(why.contains("the threads of the GPU is loaded 1.000"), "{why}");
    }

    fn analyse_all(w: &Workload) -> Result<RtaReport, Error> {
        analyse(w, Timeline::Kept)
    }

    /// Tied releases in the order given (the chapter's example fixes it).
    fn workload(tasks: Vec<Task>, decimals: u32) -> Workload {
        Workload { launch: Launch::FileOrder, ..Workload::new(tasks, Platform::TX2, Scale { decimals }, "s") }
    }

    pub fn chapter_example() -> Vec<Task> {
        [(4, 2), (6, 7), (6, 2), (5, 5)]
            .iter()
            .enumerate()
            .map(|(i, &(c, g))| Task::given(format!("K{}", i + 1), Timing { period: Ticks::new(15), wcet: Ticks::new(c), release: Ticks::ZERO }, g, 512))
            .collect()
    }

    #[test]
    fn chapter_worked_example() {
        let rep = analyse_all(&workload(chapter_example(), 0)).unwrap();
        assert_eq!(rep.g_max, 8);
        let f: Vec<f64> = rep.kernels.iter().map(|r| r.in_unit(r.finish)).collect();
        assert_eq!(f, vec![4.0, 10.0, 12.0, 11.0]);
        assert_eq!(rep.schedulable, Some(true));
        assert_eq!(rep.bound, Bound::ExactMonotone);
    }

    /// Any launch order of tied releases: each kernel's worst over the 24 orders.
    #[test]
    fn tied_releases_take_the_worst_order() {
        let w = Workload::new(chapter_example(), Platform::TX2, Scale::default(), "s");
        let rep = analyse_all(&w).unwrap();
        let f: Vec<f64> = rep.kernels.iter().map(|r| r.in_unit(r.finish)).collect();
        assert_eq!(f, vec![10.0, 12.0, 12.0, 11.0]);
        assert_eq!(rep.ties, Ties::AllOrders(24));
        assert_eq!(rep.bound, Bound::ExactMonotone);
    }

    #[test]
    fn closed_form_edge_cases_of_the_chapter() {
        // g_i = g_f (the chapter's sgn(0) gives alpha = 1/2) and g_i - g_f = g_max.
        let closed = |g: &[u64], c: u128| closed_form_equal_c(g, 8, Ticks::new(c)).iter().map(|t| t.get()).collect::<Vec<_>>();
        assert_eq!(closed(&[8, 8], 3), vec![3, 6]);
        assert_eq!(closed(&[2, 14, 1], 3), vec![3, 6, 9]);
        assert_eq!(closed(&[2, 22, 1], 1), vec![1, 3, 4]);
    }

    #[test]
    fn release_delays_dispatch() {
        let mut ks = chapter_example();
        ks[1].release = Ticks::new(20);
        let rep = analyse_all(&workload(ks, 0)).unwrap();
        let k2 = rep.kernels.iter().find(|k| k.name == "K2").unwrap();
        assert_eq!(k2.in_unit(k2.finish), 26.0);
        assert_eq!(k2.in_unit(k2.response), 6.0);
    }

    #[test]
    fn resident_block_limit_caps_the_slots() {
        // 100 blocks of 32 threads: 2 SMs x min(2048/32, 32) = 64 slots, so two waves.
        let rep = analyse_all(&workload(vec![Task::given("K", Timing { period: Ticks::new(10), wcet: Ticks::new(1), release: Ticks::ZERO }, 100, 32)], 0)).unwrap();
        assert_eq!(rep.g_max, 64);
        assert_eq!(rep.in_unit(rep.kernels[0].finish), 2.0);
    }

    #[test]
    fn kernels_launch_in_release_order() {
        // A (2 blocks, released at 0.5) listed before B (8 blocks, released at 0): B
        // launches first and fills the 8 slots until 1, so A finishes at 2. (Tenths.)
        let ks = vec![
            Task::given("A", Timing { period: Ticks::new(100), wcet: Ticks::new(10), release: Ticks::new(5) }, 2, 512),
            Task::given("B", Timing { period: Ticks::new(100), wcet: Ticks::new(10), release: Ticks::ZERO }, 8, 512),
        ];
        let rep = analyse_all(&workload(ks, 1)).unwrap();
        let a = rep.kernels.iter().find(|k| k.name == "A").unwrap();
        assert_eq!(a.in_unit(a.response), 1.5);
        assert_eq!(a.exact(a.response), "1.5");
        assert_eq!(rep.kernels[0].name, "B");
        assert!(rep.assumptions.iter().any(|n| n.contains("release order")));
    }

    #[test]
    fn huge_release_time_is_exact() {
        let rep =
            analyse_all(&workload(vec![Task::given("K", Timing { period: Ticks::new(10), wcet: Ticks::new(1), release: Ticks::new(10_000_000_000_000_000) }, 1, 512)], 0))
                .unwrap();
        assert_eq!(rep.in_unit(rep.kernels[0].response), 1.0);
        assert_eq!(rep.kernels[0].exact(rep.kernels[0].finish), "10000000000000001");
    }

    #[test]
    fn mixed_block_sizes_use_the_envelope() {
        let mut ks = chapter_example();
        ks[2].threads_per_block = 256;
        ks[3].shared_memory = 20_000;
        let rep = analyse_all(&workload(ks, 0)).unwrap();
        assert_eq!(rep.bound, Bound::Envelope);
        // Alone: 512 threads: 4 per SM; 256 threads: 8; 512 threads and 20 224 B: 3.
        let slots: Vec<u64> = rep.kernels.iter().map(|k| k.slots).collect();
        assert_eq!(slots, vec![8, 8, 16, 6]);
        assert_eq!(rep.g_max, 6);
        assert!(rep.kernels.iter().all(|k| k.simulated_finish <= k.finish));
    }

    #[test]
    fn blocks_that_never_fit_are_refused() {
        let mut ks = chapter_example();
        ks[1].shared_memory = 60_000;
        let e = analyse_all(&workload(ks, 0)).unwrap_err();
        assert!(e.to_string().contains("kernels[1].shared_memory"), "{e}");
    }

    /// Without the timeline the report lists the same jobs but no nominal run; the
    /// responses are the same either way.
    #[test]
    fn an_omitted_timeline_still_lists_the_jobs() {
        let path = format!("{}/instances/rta-chapter-example.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let w = crate::rta::taskset::from_text(&text, &path, None, &Default::default(), None).unwrap();
        let (omitted, kept) = (analyse(&w, Timeline::Omitted).unwrap(), analyse(&w, Timeline::Kept).unwrap());
        assert!(!omitted.jobs.is_empty());
        assert_eq!(omitted.jobs, kept.jobs);
        assert!(omitted.runs.is_empty() && !kept.runs.is_empty());
        assert_eq!(serde_json::to_value(&omitted).unwrap(), serde_json::to_value(&kept).unwrap());
    }

    /// Reports of task sets with ties, priorities, copies and time slicing read back as
    /// written (every serialised field).
    #[test]
    fn reports_round_trip() {
        for file in ["rta-chapter-example", "rta-thesis-order1", "rta-priorities", "rta-copies", "rta-time-slicing"] {
            let path = format!("{}/instances/{file}.toml", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let w = crate::rta::taskset::from_text(&text, &path, None, &Default::default(), None).unwrap();
            let report = analyse(&w, Timeline::Omitted).unwrap();
            let json = serde_json::to_value(&report).unwrap();
            let back: RtaReport = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(serde_json::to_value(&back).unwrap(), json, "{file}");
            assert_eq!((back.bound, back.verdict, back.kernels.len()), (report.bound, report.verdict, report.kernels.len()));
            // One scale for every row, at most as fine as the analysis's, the same times.
            assert!(back.kernels.iter().all(|k| k.scale == back.scale) && back.scale.decimals <= report.scale.decimals, "{file}");
            for (b, k) in back.kernels.iter().zip(&report.kernels) {
                assert_eq!((b.exact(b.response), b.exact(b.kernel_finish)), (k.exact(k.response), k.exact(k.kernel_finish)), "{file}");
            }
        }
    }
}
