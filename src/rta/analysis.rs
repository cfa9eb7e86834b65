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
//! `n(t) < #SMs * k`, where `n(t)` counts the list schedule's blocks running at `t` and
//! `k` is chosen so that an SM running at most `k - 1` blocks of the running kinds has
//! room for the new block (`fit(d)` when every running block has the new block's demand
//! `d`, else the envelope rule of [`crate::rta::list::blocks_beside`]).
//! 1. *It bounds the real GPU.* Compare blocks by their position in the sequence; the
//!    real block at each position has at most the list block's time and demand. By
//!    induction, if every earlier real block started no later than its list block, it
//!    also ended no later. List starts never decrease along the sequence, so at the list
//!    start `t` of block `b` every earlier list block has started; the real blocks still
//!    running at `t` are earlier ones whose list blocks also run at `t`, with no larger
//!    demands, and later real blocks have not started (FIFO). Fewer than `#SMs * k` run,
//!    so some SM runs at most `k - 1` of them and has room: the real block, whose
//!    predecessor started by `t`, starts no later than `t`.
//! 2. *It is monotone.* Shorter blocks only remove running blocks at any `t`, and fewer
//!    running blocks of fewer kinds never lower `k`: nothing starts later.
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
use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::{sequence, Launch, Sequence, TieOrder, Window};
use crate::rta::list::list_schedule;
use crate::rta::sms::{most_free_threads, simulate_sms, SmRun};
use crate::rta::ties::{worst_over_orders, Ties, Worst};
use crate::rta::time::{Scale, Ticks};
use serde::Serialize;

/// One kernel as the analysis sees it (`C` already known), times in ticks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Task {
    /// Name for reports.
    pub name: String,
    /// Relative deadline of each job, if any (task sets: `deadline`, else the period).
    pub deadline: Option<Ticks>,
    /// Period between jobs (used with an analysis window), if any.
    pub period: Option<Ticks>,
    /// `C_i`: an upper bound on the execution time of one block.
    pub wcet: Ticks,
    /// `g_i`: number of blocks.
    pub blocks: u64,
    /// `b_i`: threads per block.
    pub threads_per_block: u64,
    /// Shared memory per block in bytes (0 if not given).
    pub shared_memory: u64,
    /// Registers per thread (0 if not given).
    pub registers_per_thread: u64,
    /// `r_i`: release time (of the first job).
    pub release: Ticks,
    /// Launch order among jobs released at the same time (lower first), if given.
    pub launch_order: Option<i64>,
    /// Where `C_i` comes from and what it rests on.
    pub wcet_source: String,
    /// Whether `C_i` is known to be optimistic (not a bound on a block's time).
    pub wcet_optimistic: bool,
}

impl Task {
    /// A task with `C_i` given directly, its period as deadline, and no shared memory or
    /// registers declared.
    pub fn given(name: impl Into<String>, period: Ticks, wcet: Ticks, blocks: u64, threads_per_block: u64, release: Ticks) -> Task {
        Task {
            name: name.into(),
            deadline: Some(period),
            period: Some(period),
            wcet,
            blocks,
            threads_per_block,
            shared_memory: 0,
            registers_per_thread: 0,
            release,
            launch_order: None,
            wcet_source: "given (wcet)".into(),
            wcet_optimistic: false,
        }
    }
}

/// Everything an analysis needs: tasks (in the order given), the GPU, the time base,
/// and which jobs in which launch order.
#[derive(Debug, Clone)]
pub struct Workload {
    /// Kernels in the order the input lists them.
    pub tasks: Vec<Task>,
    /// The GPU.
    pub platform: Platform,
    /// Ticks per unit of the input.
    pub scale: Scale,
    /// The input's time unit (`"s"` for examiner configs).
    pub unit: String,
    /// At most this long from a job's release to its first dispatch.
    pub launch_overhead: Ticks,
    /// Added to every block's `C`.
    pub block_overhead: Ticks,
    /// How tied releases launch.
    pub launch: Launch,
    /// Which jobs are analysed.
    pub window: Window,
}

impl Workload {
    /// A workload with no overheads, tied releases in any order, one job per kernel.
    pub fn new(tasks: Vec<Task>, platform: Platform, scale: Scale, unit: impl Into<String>) -> Workload {
        Workload {
            tasks,
            platform,
            scale,
            unit: unit.into(),
            launch_overhead: 0,
            block_overhead: 0,
            launch: Launch::AnyOrder,
            window: Window::OneJob,
        }
    }
}

/// The indices of `tasks` in launch order by release (stable on equal release times:
/// the nominal order of tied kernels).
pub fn launch_order(tasks: &[Task]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|&i| (tasks[i].release, tasks[i].launch_order.unwrap_or(0)));
    order
}

/// One job of the nominal run, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JobMark {
    /// Row of its kernel in [`RtaReport::kernels`].
    pub kernel: usize,
    /// Release time.
    pub release: Ticks,
    /// Absolute deadline, if any.
    pub deadline: Option<Ticks>,
}

/// Which guarantee the reported responses carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bound {
    /// One block demand: the list schedule is the GPU's schedule for block times `C`
    /// (in the worst launch order of tied jobs), and monotone, so it holds for every
    /// block time up to `C`.
    ExactMonotone,
    /// Mixed demands: a safe upper bound for every block time up to `C`, every choice
    /// of SM and every launch order of tied jobs.
    Envelope,
    /// Too many launch orders of tied jobs to try: a safe upper bound with each tied
    /// group merged.
    TieBound,
}

/// One row of the RTA report (`--json`: `kernels[]`), in launch order of first jobs.
#[derive(Debug, Clone, Serialize)]
pub struct KernelRow {
    /// Name.
    pub name: String,
    /// `f`, the reported (safe) finish of the job with the worst response, in the input's unit.
    pub finish: f64,
    /// `R = f - r`, the reported (safe) worst response time over the kernel's jobs.
    pub response: f64,
    /// Relative deadline (`null` if none was given).
    pub deadline: Option<f64>,
    /// `R <= deadline` for every job, computed exactly (`null` without a deadline).
    pub schedulable: Option<bool>,
    /// `r` of the job with the worst response.
    pub release: f64,
    /// `C_i` used (without the block overhead).
    pub wcet: f64,
    /// Where `C_i` comes from and what it assumes.
    pub wcet_source: String,
    /// `g_i`.
    pub blocks: u64,
    /// `b_i`.
    pub threads_per_block: u64,
    /// Shared memory per block (bytes).
    pub shared_memory: u64,
    /// Registers per thread.
    pub registers_per_thread: u64,
    /// `f` as an exact decimal.
    pub finish_exact: String,
    /// `R` as an exact decimal.
    pub response_exact: String,
    /// `f` of the per-SM simulation of the dispatch rules with block times `C`, the
    /// nominal launch order and SM choice (never above `finish`).
    pub simulated_finish: f64,
    /// Block slots of the kernel alone: `#SMs * fit(d)`.
    pub slots: u64,
    /// Period (`null` if none).
    pub period: Option<f64>,
    /// Jobs of this kernel analysed (1 without a window).
    pub jobs: u64,
    /// The job (0-based) whose response is reported.
    pub worst_job: u64,
    /// How this kernel's launch among tied releases was handled (`none`, `given order`,
    /// `worst of N launch orders`, `bound over every launch order`).
    pub ties: String,
    /// The launch order of the worst job's tie group that gives its response, when
    /// every order was tried.
    pub worst_order: Option<Vec<String>>,
    /// `C_i` is optimistic (e.g. `contention = "isolated"`): the response is not proven.
    pub wcet_optimistic: bool,
}

/// The whole RTA result (`makespan rta --json`).
#[derive(Debug, Clone, Serialize)]
pub struct RtaReport {
    /// Per kernel, in launch order of first jobs.
    pub kernels: Vec<KernelRow>,
    /// Every kernel meets its deadline (`null` if no deadlines were given).
    pub schedulable: Option<bool>,
    /// Block slots: `#SMs * fit(d)` with one block demand `d`; with mixed demands the
    /// smallest of the kernels' (`kernels[].slots`).
    pub g_max: u64,
    /// `sum C_i g_i b_i / (T_i b_max)` (`null` if no deadlines were given).
    pub utilization: Option<f64>,
    /// The time unit of every time in the report.
    pub unit: String,
    /// Which guarantee the responses carry (`exact-monotone`, `envelope`, `tie-bound`).
    pub bound: Bound,
    /// `proven` when every `C` bounds its block's time (as stated in `wcet_source`),
    /// `optimistic` when some `C` is known not to.
    pub verdict: String,
    /// How tied releases launch: `any-order`, `file-order` or `launch-order`.
    pub launch: String,
    /// How tied releases were analysed (`none`, `worst of N launch orders`, `bound over
    /// every launch order`).
    pub ties: String,
    /// End of the analysis window (`null`: one job per kernel).
    pub window: Option<f64>,
    /// Launch overhead (from the GPU profile).
    pub launch_overhead: f64,
    /// Block overhead added to every block's `C` (from the GPU profile).
    pub block_overhead: f64,
    /// What the analysis assumes.
    pub assumptions: Vec<String>,
    /// The nominal per-SM run, when asked for (not serialised).
    #[serde(skip)]
    pub runs: Vec<SmRun>,
    /// Every job of the nominal run (indices of `runs[].job`): its kernel row, release
    /// and absolute deadline (not serialised).
    #[serde(skip)]
    pub jobs: Vec<JobMark>,
    /// SMs of the GPU (not serialised).
    #[serde(skip)]
    pub sms: usize,
    /// Ticks per unit (not serialised).
    #[serde(skip)]
    pub scale: Scale,
}

/// Most blocks of all kernels together that one analysis takes (time and memory grow
/// with them).
pub const MAX_TOTAL_BLOCKS: u64 = 10_000_000;

/// Every block's demand, checked against the platform (errors name `kernels[i]` in the
/// input's order), and the size caps.
pub fn demands(w: &Workload) -> Result<Vec<Demand>, InputError> {
    w.platform.check()?;
    if w.tasks.is_empty() {
        return Err(InputError::new("kernels", "[]", "the task set has no kernels"));
    }
    let total = w.tasks.iter().try_fold(0u64, |sum, t| sum.checked_add(t.blocks).filter(|&s| s <= MAX_TOTAL_BLOCKS));
    if total.is_none() {
        let i = w
            .tasks
            .iter()
            .scan(0u64, |sum, t| {
                *sum = sum.saturating_add(t.blocks);
                Some(*sum)
            })
            .position(|s| s > MAX_TOTAL_BLOCKS)
            .unwrap_or(0);
        return Err(InputError::new(
            format!("kernels[{i}].blocks"),
            w.tasks[i].blocks,
            format!("the kernels have more than {MAX_TOTAL_BLOCKS} blocks in all, the cap of one analysis"),
        ));
    }
    w.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let kernel = format!("kernels[{i}]");
            if t.blocks == 0 {
                return Err(InputError::new(format!("{kernel}.blocks"), 0, "a kernel has at least one block"));
            }
            if t.wcet == 0 {
                return Err(InputError::new(format!("{kernel}.wcet"), 0, "must be positive"));
            }
            if t.deadline == Some(0) {
                return Err(InputError::new(format!("{kernel}.period"), 0, "must be positive"));
            }
            w.platform.demand(t.threads_per_block, t.shared_memory, t.registers_per_thread, &kernel)
        })
        .collect()
}

/// Analyses `w`: the jobs in launch order ([`crate::rta::jobs`]), the reported list
/// schedule over the launch orders of tied jobs ([`crate::rta::ties`]), the per-SM
/// simulation of the nominal order (must not exceed it; must equal it with one demand
/// and no free ties), and with one demand, one job per kernel and no overhead,
/// Algorithm 2 (must agree). With `timeline`, the report keeps the nominal per-SM run
/// (for the SVG of `output::plot`).
pub fn analyse(w: &Workload, timeline: bool) -> Result<RtaReport, Error> {
    let demands = demands(w)?;
    let seq = sequence(w, &demands, w.launch, w.window)?;
    let uniform = demands.iter().all(|d| *d == demands[0]);
    let worst = worst_over_orders(&seq, &w.platform);
    let (simulated, runs) =
        simulate_sms(&seq.jobs, &seq.classes, &w.platform, &mut |j, _| seq.jobs[j].wcet, &mut most_free_threads, timeline);
    let bound = match worst.ties {
        Ties::Bound => Bound::TieBound,
        _ if uniform => Bound::ExactMonotone,
        _ => Bound::Envelope,
    };
    check(w, &seq, &worst, &simulated, uniform)?;
    let rows = rows(w, &seq, &worst, &simulated, &demands);
    let kernel_of_task: Vec<usize> = {
        let mut v = vec![0; w.tasks.len()];
        rows.iter().enumerate().for_each(|(r, (t, _))| v[*t] = r);
        v
    };
    let kernels: Vec<KernelRow> = rows.into_iter().map(|(_, k)| k).collect();
    let with_deadlines = w.tasks.iter().all(|t| t.deadline.is_some());
    let optimistic = w.tasks.iter().any(|t| t.wcet_optimistic);
    Ok(RtaReport {
        schedulable: kernels.iter().map(|k| k.schedulable).collect::<Option<Vec<bool>>>().map(|v| v.iter().all(|&s| s)),
        utilization: with_deadlines.then(|| utilization(&w.tasks, &w.platform, w.scale)),
        assumptions: assumptions(w, &seq, &demands, bound, worst.ties),
        g_max: kernels.iter().map(|k| k.slots).min().unwrap_or(1),
        kernels,
        unit: w.unit.clone(),
        bound,
        verdict: if optimistic { "optimistic" } else { "proven" }.into(),
        launch: match seq.order {
            TieOrder::Free => "any-order",
            TieOrder::FileOrder => "file-order",
            TieOrder::LaunchOrder => "launch-order",
        }
        .into(),
        ties: worst.ties.to_string(),
        window: seq.window_end.map(|e| w.scale.to_f64(e)),
        launch_overhead: w.scale.to_f64(w.launch_overhead),
        block_overhead: w.scale.to_f64(w.block_overhead),
        jobs: seq
            .jobs
            .iter()
            .map(|j| JobMark {
                kernel: kernel_of_task[j.task],
                release: j.release,
                deadline: w.tasks[j.task].deadline.map(|d| j.release + d),
            })
            .collect(),
        runs,
        sms: w.platform.sms() as usize,
        scale: w.scale,
    })
}

/// The nominal per-SM run never finishes a job after its reported finish, and equals
/// it with one demand and a fixed order; with one demand, one job per kernel, no
/// overheads and no free ties, Algorithm 2 gives the reported finishes.
fn check(w: &Workload, seq: &Sequence, worst: &Worst, simulated: &[Ticks], uniform: bool) -> Result<(), Inconsistency> {
    let fixed = worst.ties == Ties::None;
    for ((j, &f), &s) in seq.jobs.iter().zip(&worst.finish).zip(simulated) {
        if s > f || (uniform && fixed && s != f) {
            return Err(Inconsistency::Disagreement(format!(
                "{} (job {}): per-SM simulation finishes at {s} ticks, the list schedule at {f}",
                w.tasks[j.task].name, j.number
            )));
        }
    }
    if uniform && fixed && seq.window_end.is_none() && w.launch_overhead == 0 && w.block_overhead == 0 {
        let tasks: Vec<Task> = seq.jobs.iter().map(|j| w.tasks[j.task].clone()).collect();
        let g = w.platform.sms() * w.platform.fit(&seq.classes[0].demand);
        if list_schedule(&tasks, g) != worst.finish {
            return Err(Inconsistency::Disagreement("Algorithm 2 and the list schedule differ".into()));
        }
    }
    Ok(())
}

/// One row per kernel (with the task index), in launch order of first jobs: the job
/// with the worst response.
fn rows(w: &Workload, seq: &Sequence, worst: &Worst, simulated: &[Ticks], demands: &[Demand]) -> Vec<(usize, KernelRow)> {
    let scale = w.scale;
    let mut first_seen = Vec::new();
    let mut best: Vec<Option<usize>> = vec![None; w.tasks.len()];
    let mut jobs = vec![0u64; w.tasks.len()];
    let mut all_meet = vec![true; w.tasks.len()];
    for (i, j) in seq.jobs.iter().enumerate() {
        if best[j.task].is_none() {
            first_seen.push(j.task);
        }
        jobs[j.task] += 1;
        let response = worst.finish[i] - j.release;
        if let Some(d) = w.tasks[j.task].deadline {
            all_meet[j.task] &= response <= d;
        }
        if best[j.task].is_none_or(|b| response > worst.finish[b] - seq.jobs[b].release) {
            best[j.task] = Some(i);
        }
    }
    let tied: std::collections::HashSet<usize> = seq.free_ties.iter().flat_map(|r| r.clone()).collect();
    first_seen
        .into_iter()
        .map(|ti| {
            let t = &w.tasks[ti];
            let i = best[ti].expect("every kernel has a job");
            let (j, f) = (&seq.jobs[i], worst.finish[i]);
            let response = f - j.release;
            let ties = if !tied.contains(&i) {
                match seq.order {
                    TieOrder::Free => "none".to_string(),
                    _ => "given order".to_string(),
                }
            } else {
                worst.ties.to_string()
            };
            let row = KernelRow {
                name: t.name.clone(),
                finish: scale.to_f64(f),
                response: scale.to_f64(response),
                deadline: t.deadline.map(|d| scale.to_f64(d)),
                schedulable: t.deadline.map(|_| all_meet[ti]),
                release: scale.to_f64(j.release),
                wcet: scale.to_f64(t.wcet),
                wcet_source: t.wcet_source.clone(),
                blocks: t.blocks,
                threads_per_block: t.threads_per_block,
                shared_memory: t.shared_memory,
                registers_per_thread: t.registers_per_thread,
                finish_exact: scale.format(f),
                response_exact: scale.format(response),
                simulated_finish: scale.to_f64(simulated[i]),
                slots: w.platform.sms() * w.platform.fit(&demands[ti]),
                period: t.period.map(|p| scale.to_f64(p)),
                jobs: jobs[ti],
                worst_job: j.number,
                ties,
                worst_order: worst.order[i].as_ref().map(|o| o.iter().map(|&k| w.tasks[seq.jobs[k].task].name.clone()).collect()),
                wcet_optimistic: t.wcet_optimistic,
            };
            (ti, row)
        })
        .collect()
}

/// Total utilisation as a fraction of the GPU's thread capacity:
/// `sum_i C_i g_i b_i / (T_i b_max)` (the chapter's `u_i` divided by `b_max`), with the
/// period, else the deadline, as `T_i`.
fn utilization(tasks: &[Task], p: &Platform, scale: Scale) -> f64 {
    tasks
        .iter()
        .map(|k| {
            let t = k.period.or(k.deadline).unwrap_or(1);
            scale.to_f64(k.wcet) * (k.blocks * k.threads_per_block) as f64 / (scale.to_f64(t) * p.max_threads as f64)
        })
        .sum()
}

fn assumptions(w: &Workload, seq: &Sequence, demands: &[Demand], bound: Bound, ties: Ties) -> Vec<String> {
    let p = &w.platform;
    let limits = format!(
        "{} SMs of {} threads, {} blocks, {} B shared memory, {} registers in {} sub-partitions",
        p.sms(),
        p.sm_threads,
        p.max_blocks_per_sm,
        p.shared_memory_per_sm,
        p.registers_per_sm,
        p.register_sub_partitions
    );
    let mut out = vec![
        format!("FIFO dispatch in launch order, only the head kernel's blocks (rule X1), each block to an SM with room; {limits}"),
        match bound {
            Bound::ExactMonotone => format!(
                "one block demand ({} warps, {} B shared memory, {} registers per warp): {} slots; the responses are those of the dispatch rules with block times C (in the worst launch order of tied releases), and hold for every shorter block time (the list schedule is monotone)",
                demands[0].warps,
                demands[0].shared_memory,
                demands[0].registers_per_warp,
                p.sms() * p.fit(&demands[0])
            ),
            Bound::Envelope => "mixed block demands: the responses are a safe bound for every block time up to C, every choice of SM and sub-partition (list schedule counting the blocks still running, each kind by its demand); simulated_finish is one nominal run of the dispatch rules".into(),
            Bound::TieBound => "too many launch orders of tied releases to try: each group of tied jobs merged into one (all its blocks, the longest C, the largest demand), a safe bound for every order".into(),
        },
        match seq.window_end {
            None => "each kernel is one job released at its release time".into(),
            Some(e) => format!(
                "periodic jobs released at release + m period before {} (each kernel's first job at least); responses are the worst over these jobs; later jobs are not analysed",
                w.scale.format(e)
            ),
        },
        "C_i bounds the time one block occupies its SM; see wcet_source for what it rests on".into(),
        format!(
            "launch overhead {} (from release to first dispatch, at most) and block overhead {} (added to every block's C), in {}",
            w.scale.format(w.launch_overhead),
            w.scale.format(w.block_overhead),
            w.unit
        ),
    ];
    if w.tasks.iter().any(|t| t.wcet_optimistic) {
        let names: Vec<&str> = w.tasks.iter().filter(|t| t.wcet_optimistic).map(|t| t.name.as_str()).collect();
        out.push(format!(
            "OPTIMISTIC: the C of {} is not a bound on a block's time (see wcet_source); the verdict is not proven",
            names.join(", ")
        ));
    }
    let order = launch_order(&w.tasks);
    if order.iter().enumerate().any(|(k, &i)| k != i) {
        let names: Vec<&str> = order.iter().map(|&i| w.tasks[i].name.as_str()).collect();
        out.push(format!("kernels analysed in release order (launch order on the GPU), not in the order given: {}", names.join(", ")));
    }
    match (seq.order, ties) {
        (TieOrder::Free, Ties::None) => {}
        (TieOrder::Free, t) => out.push(format!("jobs released at the same time may launch in any order on the GPU: {t}")),
        (TieOrder::FileOrder, _) => out.push("jobs released at the same time launch in the order given (as stated by the user)".into()),
        (TieOrder::LaunchOrder, _) => out.push("jobs released at the same time launch by launch_order (as stated by the user)".into()),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::list::closed_form_equal_c;

    fn analyse_all(w: &Workload) -> Result<RtaReport, Error> {
        analyse(w, true)
    }

    /// Tied releases in the order given (the chapter's example fixes it).
    fn workload(tasks: Vec<Task>, decimals: u32) -> Workload {
        Workload { launch: Launch::FileOrder, ..Workload::new(tasks, Platform::TX2, Scale { decimals }, "s") }
    }

    pub fn chapter_example() -> Vec<Task> {
        [(4, 2), (6, 7), (6, 2), (5, 5)]
            .iter()
            .enumerate()
            .map(|(i, &(c, g))| Task::given(format!("K{}", i + 1), 15, c, g, 512, 0))
            .collect()
    }

    #[test]
    fn chapter_worked_example() {
        let rep = analyse_all(&workload(chapter_example(), 0)).unwrap();
        assert_eq!(rep.g_max, 8);
        let f: Vec<f64> = rep.kernels.iter().map(|r| r.finish).collect();
        assert_eq!(f, vec![4.0, 10.0, 12.0, 11.0]);
        assert_eq!(rep.schedulable, Some(true));
        assert_eq!(rep.bound, Bound::ExactMonotone);
    }

    /// Any launch order of tied releases: each kernel's worst over the 24 orders.
    #[test]
    fn tied_releases_take_the_worst_order() {
        let w = Workload::new(chapter_example(), Platform::TX2, Scale::default(), "s");
        let rep = analyse_all(&w).unwrap();
        let f: Vec<f64> = rep.kernels.iter().map(|r| r.finish).collect();
        assert_eq!(f, vec![10.0, 12.0, 12.0, 11.0]);
        assert_eq!(rep.ties, "worst of 24 launch orders");
        assert_eq!(rep.bound, Bound::ExactMonotone);
    }

    #[test]
    fn closed_form_edge_cases_of_the_chapter() {
        // g_i = g_f (the chapter's sgn(0) gives alpha = 1/2) and g_i - g_f = g_max.
        assert_eq!(closed_form_equal_c(&[8, 8], 8, 3), vec![3, 6]);
        assert_eq!(closed_form_equal_c(&[2, 14, 1], 8, 3), vec![3, 6, 9]);
        assert_eq!(closed_form_equal_c(&[2, 22, 1], 8, 1), vec![1, 3, 4]);
    }

    #[test]
    fn release_delays_dispatch() {
        let mut ks = chapter_example();
        ks[1].release = 20;
        let rep = analyse_all(&workload(ks, 0)).unwrap();
        let k2 = rep.kernels.iter().find(|k| k.name == "K2").unwrap();
        assert_eq!(k2.finish, 26.0);
        assert_eq!(k2.response, 6.0);
    }

    #[test]
    fn resident_block_limit_caps_the_slots() {
        // 100 blocks of 32 threads: 2 SMs x min(2048/32, 32) = 64 slots, so two waves.
        let rep = analyse_all(&workload(vec![Task::given("K", 10, 1, 100, 32, 0)], 0)).unwrap();
        assert_eq!(rep.g_max, 64);
        assert_eq!(rep.kernels[0].finish, 2.0);
    }

    #[test]
    fn kernels_launch_in_release_order() {
        // A (2 blocks, released at 0.5) listed before B (8 blocks, released at 0): B
        // launches first and fills the 8 slots until 1, so A finishes at 2. (Tenths.)
        let ks = vec![Task::given("A", 100, 10, 2, 512, 5), Task::given("B", 100, 10, 8, 512, 0)];
        let rep = analyse_all(&workload(ks, 1)).unwrap();
        let a = rep.kernels.iter().find(|k| k.name == "A").unwrap();
        assert_eq!(a.response, 1.5);
        assert_eq!(a.response_exact, "1.5");
        assert_eq!(rep.kernels[0].name, "B");
        assert!(rep.assumptions.iter().any(|n| n.contains("release order")));
    }

    #[test]
    fn huge_release_time_is_exact() {
        let rep = analyse_all(&workload(vec![Task::given("K", 10, 1, 1, 512, 10_000_000_000_000_000)], 0)).unwrap();
        assert_eq!(rep.kernels[0].response, 1.0);
        assert_eq!(rep.kernels[0].finish_exact, "10000000000000001");
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
}
