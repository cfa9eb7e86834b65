//! What an analysis reports ([`RtaReport`], `makespan rta --json`): per kernel its
//! reported finish and response ([`KernelRow`]), the guarantee they carry ([`Bound`],
//! [`Verdict`]), how tied releases were handled, and the assumptions in words. Built by
//! [`crate::rta::analysis::analyse`] from its sequence and list schedule.

use crate::files::serde_word;
use crate::rta::copy_engine::CopyRun;
use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::{Sequence, TieOrder};
use crate::rta::queues::Worst;
use crate::rta::sms::{SmRun, SmsRun};
use crate::rta::ties::Ties;
use crate::rta::time::{Scale, Ticks};
use crate::rta::time_slices::SliceRun;
use crate::rta::workload::{launch_order, Priority, Task, Workload};
use json::{KernelRowJson, RtaReportJson};
use serde::{Deserialize, Serialize, Serializer};

mod json;
use std::fmt;

/// One job of the nominal run, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct JobMark {
    /// Row of its kernel in [`RtaReport::kernels`].
    pub kernel: usize,
    /// Release time.
    pub release: Ticks,
    /// Absolute deadline, if any.
    pub deadline: Option<Ticks>,
}

/// Which guarantee the reported responses carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
    /// group merged, or the queue's work bound (`crate::rta::queue_work`) where lower.
    TieBound,
    /// Streams of both priorities: a safe upper bound (high kernels blocked by one low
    /// block, low kernels by a pooled list; `crate::rta::priority`).
    Priorities,
    /// One block demand, but copies through the copy engine: a safe upper bound (the
    /// copies bounded by `crate::rta::copies`), not exact.
    Copies,
    /// Kernels of several processes sharing the GPU by time slicing: a safe upper bound
    /// (`crate::rta::slicing`), not exact.
    TimeSliced,
    /// One block demand, but some kernel's reported response comes only from launch
    /// orders and entry times that cannot happen together (each job entering at its
    /// latest, in an order whose entries would have to go back in time): a safe upper
    /// bound, as `exact-monotone`'s list schedule, but no execution is known to reach it.
    UpperBound,
}

impl Bound {
    /// The word of the JSON field `bound` (`exact-monotone`, `envelope`, `tie-bound`,
    /// `priorities`, `copies`, `time-sliced`, `upper-bound`).
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::ExactMonotone => "exact-monotone",
            Bound::Envelope => "envelope",
            Bound::TieBound => "tie-bound",
            Bound::Priorities => "priorities",
            Bound::Copies => "copies",
            Bound::TimeSliced => "time-sliced",
            Bound::UpperBound => "upper-bound",
        }
    }
}

/// The word of [`Bound::as_str`].
impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One row of the RTA report (`--json`: `kernels[]`), in launch order of first jobs.
/// Every time is held once, in [`Ticks`] of the row's [`Scale`] (the task set's unit
/// divided into ticks); the JSON writes each as a number in the unit (`finish`) and, as
/// it always has, the exact ones also as decimals (`finish_exact`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "KernelRowJson", try_from = "KernelRowJson")]
#[non_exhaustive]
pub struct KernelRow {
    /// Name.
    pub name: String,
    /// `f`, the reported (safe) finish of the job with the worst response.
    pub finish: Ticks,
    /// `R = f - r`, the reported (safe) worst response time over the kernel's jobs.
    pub response: Ticks,
    /// Relative deadline (`null` if none was given).
    pub deadline: Option<Ticks>,
    /// `R <= deadline` for every job, computed exactly (`null` without a deadline).
    pub schedulable: Option<bool>,
    /// `r` of the job with the worst response.
    pub release: Ticks,
    /// `C_i` used (without the block overhead).
    pub wcet: Ticks,
    /// Where `C_i` comes from and what it assumes.
    pub wcet_source: String,
    /// The timing model a `C_i` computed from instructions rests on: `no-latencies` (the
    /// paper's model: not a bound on real hardware) or `latencies` (`gpu.latency`);
    /// `null` for a given `wcet`.
    pub wcet_model: Option<String>,
    /// `g_i`.
    pub blocks: u64,
    /// `b_i`.
    pub threads_per_block: u64,
    /// Shared memory per block (bytes).
    pub shared_memory: u64,
    /// Registers per thread.
    pub registers_per_thread: u64,
    /// `f` of the per-SM simulation of the dispatch rules with block times `C`, the
    /// nominal launch order and SM choice (never above `finish`).
    pub simulated_finish: Ticks,
    /// Block slots of the kernel alone: `#SMs * fit(d)`.
    pub slots: u64,
    /// Period (`null` if none).
    pub period: Option<Ticks>,
    /// Jobs of this kernel analysed (1 without a window).
    pub jobs: u64,
    /// The job (0-based) whose response is reported.
    pub worst_job: u64,
    /// How this kernel's launch among tied releases was handled (`none`, `given order`,
    /// `worst of N launch orders`, `bound over every launch order`).
    pub ties: KernelTies,
    /// The launch order of the worst job's tie group that gives its response, when
    /// every order was tried (`null` with copies: the copies' order, bounded apart, also
    /// counts).
    pub worst_order: Option<Vec<String>>,
    /// `C_i` is optimistic (e.g. `contention = "isolated"`): the response is not proven.
    pub wcet_optimistic: bool,
    /// Its stream's priority (`low` or `high`).
    pub priority: Priority,
    /// The CUDA stream it is launched into (`null`: a stream of its own).
    pub stream: Option<String>,
    /// The process (CUDA context) that launches it (`null`: the default process).
    pub process: Option<String>,
    /// Time of each job's copy in (`null`: none).
    pub copy_in: Option<Ticks>,
    /// Time of each job's copy out (`null`: none).
    pub copy_out: Option<Ticks>,
    /// The reported finish of the worst job's kernel (its last block), before its copy
    /// out; equal to `finish` without one.
    pub kernel_finish: Ticks,
    /// Ticks per unit of the times above (not serialised: the JSON gives the times in
    /// the unit).
    pub scale: Scale,
}

impl KernelRow {
    /// `t` (one of this row's times) in the task set's unit, as the nearest `f64`.
    pub fn in_unit(&self, t: Ticks) -> f64 {
        self.scale.to_f64(t)
    }

    /// `t` (one of this row's times) in the task set's unit as an exact decimal.
    pub fn exact(&self, t: Ticks) -> String {
        self.scale.format(t)
    }
}

/// The whole RTA result (`makespan rta --json`). Every time is in [`Ticks`] of
/// [`RtaReport::scale`]. Reads back with serde (the scale then the finest the written
/// times need); the fields that are not serialised (the nominal run, `sms`) read back
/// empty or zero.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(into = "RtaReportJson", try_from = "RtaReportJson")]
#[non_exhaustive]
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
    pub verdict: Verdict,
    /// How tied releases launch: `any-order`, `file-order` or `launch-order`.
    pub launch: TieOrder,
    /// How tied releases were analysed (`none`, `worst of N launch orders`, `bound over
    /// every launch order`).
    pub ties: Ties,
    /// End of the analysis window (`null`: one job per kernel).
    pub window: Option<Ticks>,
    /// Launch overhead (from the GPU profile).
    pub launch_overhead: Ticks,
    /// Block overhead added to every block's `C` (from the GPU profile).
    pub block_overhead: Ticks,
    /// What the analysis assumes.
    pub assumptions: Vec<String>,
    /// The nominal per-SM run, when asked for (not serialised).
    pub runs: Vec<SmRun>,
    /// The copies of the nominal run, when asked for (not serialised).
    pub copies: Vec<CopyRun>,
    /// With time slicing, who held the GPU when in the nominal run (not serialised).
    pub slices: Vec<SliceRun>,
    /// Every job of the nominal run (indices of `runs[].job`): its kernel row, release
    /// and absolute deadline (not serialised).
    pub jobs: Vec<JobMark>,
    /// SMs of the GPU (not serialised).
    pub sms: usize,
    /// Ticks per unit of every time in the report (not serialised).
    pub scale: Scale,
}

impl RtaReport {
    /// `t` (one of this report's times) in the task set's unit, as the nearest `f64`.
    pub fn in_unit(&self, t: Ticks) -> f64 {
        self.scale.to_f64(t)
    }
}

/// Whether the responses are proven: every `C` bounds its block's time, or some `C` is
/// known not to (e.g. `contention = "isolated"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every `C` is an upper bound on its block's time (as its `wcet_source` says).
    Proven,
    /// Some `C` is known not to bound its block's time: the responses are not proven.
    Optimistic,
}

impl Verdict {
    /// `Optimistic` when any of `optimistic` is, else `Proven`.
    pub fn of(mut optimistic: impl Iterator<Item = bool>) -> Verdict {
        if optimistic.any(|o| o) {
            Verdict::Optimistic
        } else {
            Verdict::Proven
        }
    }

    /// The word of the JSON field (`proven`, `optimistic`).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Proven => "proven",
            Verdict::Optimistic => "optimistic",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How one kernel's worst job launched among tied releases (`kernels[].ties`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KernelTies {
    /// Released with no other job at the same time (`none`).
    None,
    /// Tied, in the order the user fixed (`given order`).
    GivenOrder,
    /// Tied with a free order: every order tried, or the bound over all of them.
    Tried(Ties),
}

impl fmt::Display for KernelTies {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            KernelTies::None => f.write_str("none"),
            KernelTies::GivenOrder => f.write_str("given order"),
            KernelTies::Tried(t) => t.fmt(f),
        }
    }
}

impl Serialize for KernelTies {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Reads back the words it is serialised as (`none` is [`KernelTies::None`]).
impl<'de> Deserialize<'de> for KernelTies {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let words = String::deserialize(d)?;
        match words.as_str() {
            "none" => Ok(KernelTies::None),
            "given order" => Ok(KernelTies::GivenOrder),
            other => other.parse().map(KernelTies::Tried).map_err(serde::de::Error::custom),
        }
    }
}

/// The report of `w` from the analysis's parts: the sequence, the worst finishes over
/// launch orders, the nominal simulation, the demands and the guarantee.
pub(crate) fn report(w: &Workload, seq: &Sequence, worst: &Worst, demands: &[Demand], bound: Bound, run: SmsRun) -> RtaReport {
    let rows = rows(w, seq, worst, &run.finish, demands);
    let mut kernel_of_task = vec![0; w.tasks.len()];
    rows.iter().enumerate().for_each(|(r, (t, _))| kernel_of_task[*t] = r);
    let kernels: Vec<KernelRow> = rows.into_iter().map(|(_, k)| k).collect();
    let with_deadlines = w.tasks.iter().all(|t| t.deadline.is_some());
    let jobs = seq
        .jobs
        .iter()
        .map(|j| JobMark { kernel: kernel_of_task[j.task], release: j.release, deadline: w.tasks[j.task].deadline.map(|d| j.release + d) })
        .collect();
    RtaReport {
        schedulable: kernels.iter().map(|k| k.schedulable).collect::<Option<Vec<bool>>>().map(|v| v.iter().all(|&s| s)),
        utilization: with_deadlines.then(|| utilization(&w.tasks, &w.platform, w.scale)),
        assumptions: assumptions(w, seq, demands, bound, worst.ties),
        g_max: kernels.iter().map(|k| k.slots).min().unwrap_or(1),
        kernels,
        unit: w.unit.clone(),
        bound,
        verdict: Verdict::of(w.tasks.iter().map(|t| t.wcet_optimistic)),
        launch: seq.order,
        ties: worst.ties,
        window: seq.window_end,
        launch_overhead: w.launch_overhead,
        block_overhead: w.block_overhead,
        jobs,
        runs: run.blocks,
        copies: run.copies,
        slices: run.slices,
        sms: w.platform.sms() as usize,
        scale: w.scale,
    }
}

/// One row per kernel (with the task index), in launch order of first jobs: the job
/// with the worst response.
fn rows(w: &Workload, seq: &Sequence, worst: &Worst, simulated: &[Ticks], demands: &[Demand]) -> Vec<(usize, KernelRow)> {
    let mut first_seen = Vec::new();
    let mut best: Vec<Option<usize>> = vec![None; w.tasks.len()];
    let mut jobs = vec![0u64; w.tasks.len()];
    let mut all_meet = vec![true; w.tasks.len()];
    for (i, j) in seq.jobs.iter().enumerate().filter(|(_, j)| seq.reported(j)) {
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
    let tied: std::collections::HashSet<usize> = worst.groups.iter().flat_map(|r| r.clone()).collect();
    first_seen
        .into_iter()
        .map(|ti| {
            let t = &w.tasks[ti];
            let i = best[ti].expect("every kernel has a job");
            let (j, f) = (&seq.jobs[i], worst.finish[i]);
            let response = f - j.release;
            let ties = match (tied.contains(&i), seq.order) {
                (true, _) => KernelTies::Tried(worst.ties),
                (false, TieOrder::Free) => KernelTies::None,
                (false, _) => KernelTies::GivenOrder,
            };
            let row = KernelRow {
                name: t.name.clone(),
                finish: f,
                response,
                deadline: t.deadline,
                schedulable: t.deadline.map(|_| all_meet[ti]),
                release: j.release,
                wcet: t.wcet,
                wcet_source: t.wcet_source.clone(),
                wcet_model: wcet_model(&t.wcet_source),
                blocks: t.blocks,
                threads_per_block: t.threads_per_block,
                shared_memory: t.shared_memory,
                registers_per_thread: t.registers_per_thread,
                simulated_finish: simulated[i],
                slots: w.platform.sms() * crate::rta::room::fit(&w.platform, &demands[ti]),
                period: t.period,
                jobs: jobs[ti],
                worst_job: j.number,
                ties,
                // With copies the response also rests on the copies' order, bounded apart.
                worst_order: worst.order[i]
                    .as_ref()
                    .filter(|_| worst.copies.is_none())
                    .map(|o| o.iter().map(|&k| w.tasks[seq.jobs[k].task].name.clone()).collect()),
                wcet_optimistic: t.wcet_optimistic,
                priority: t.priority,
                stream: t.stream.clone(),
                process: t.process.clone(),
                copy_in: (t.copy_in > Ticks::ZERO).then_some(t.copy_in),
                copy_out: (t.copy_out > Ticks::ZERO).then_some(t.copy_out),
                kernel_finish: worst.kernel_finish[i],
                scale: w.scale,
            };
            (ti, row)
        })
        .collect()
}

/// Total utilisation as a fraction of the GPU's thread capacity:
/// `sum_i C_i g_i b_i / (T_i b_max)` (the chapter's `u_i` divided by `b_max`), with the
/// period, else the deadline, as `T_i`.
pub(crate) fn utilization(tasks: &[Task], p: &Platform, scale: Scale) -> f64 {
    tasks
        .iter()
        .map(|k| {
            let t = k.period.or(k.deadline).unwrap_or(Ticks::new(1));
            scale.to_f64(k.wcet) * (k.blocks * k.threads_per_block) as f64 / (scale.to_f64(t) * p.max_threads as f64)
        })
        .sum()
}

/// The `wcet_model` of a `C` whose `wcet_source` is `source`.
pub(crate) fn wcet_model(source: &str) -> Option<String> {
    use crate::rta::wcet::{NO_LATENCIES, WITH_LATENCIES};
    if source.contains(NO_LATENCIES) {
        Some("no-latencies".into())
    } else if source.contains(WITH_LATENCIES) {
        Some("latencies".into())
    } else {
        None
    }
}

/// The latency model every `C` computed from instructions rests on, one line per model
/// used (`docs/latency.md`).
fn latency_assumptions(w: &Workload, out: &mut Vec<String>) {
    use crate::rta::wcet::{NO_LATENCIES, WITH_LATENCIES};
    let names = |marker: &str| w.tasks.iter().filter(|t| t.wcet_source.contains(marker)).map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ");
    let zero = names(NO_LATENCIES);
    if !zero.is_empty() {
        out.push(format!("no latencies: the C of {zero} is computed in the paper's zero-latency model (every instruction's result the next cycle): not a bound on real hardware, where a global load takes hundreds of cycles; gpu.latency gives C with latencies (docs/latency.md)"));
    }
    let with = names(WITH_LATENCIES);
    if !with.is_empty() {
        out.push(format!("latencies: the C of {with} is computed with the profile's instruction latencies (gpu.latency; see wcet_source), each instruction waiting for its predecessor's result and each barrier for its block's results; the latencies are the profile's assumption, not measured here"));
    }
}

fn assumptions(w: &Workload, seq: &Sequence, demands: &[Demand], bound: Bound, ties: Ties) -> Vec<String> {
    let p = &w.platform;
    let reserved = match p.shared_memory_reserved_per_block {
        0 => String::new(),
        r => format!(" ({r} B of it reserved for every block)"),
    };
    let limits = format!(
        "{} SMs of {} threads, {} blocks, {} B shared memory{reserved}, {} registers in {} sub-partitions; warp placement {}, partitioned global caching {} (safe for every case left open)",
        p.sms(),
        p.sm_threads,
        p.max_blocks_per_sm,
        p.shared_memory_per_sm,
        p.registers_per_sm,
        p.register_sub_partitions,
        serde_word(&p.warp_placement),
        serde_word(&p.global_caching)
    );
    let mut out = vec![
        format!("FIFO dispatch in launch order, only the head kernel's blocks (rule X1), each block to an SM with room; {limits}"),
        match bound {
            Bound::ExactMonotone => format!(
                "one block demand ({} warps, {} B shared memory, {} registers per warp): {} slots; the responses are those of the dispatch rules with block times C (in the worst launch order of tied releases that fits the entry windows, reached by an execution), and hold for every shorter block time (the list schedule is monotone)",
                demands[0].warps,
                demands[0].shared_memory,
                demands[0].registers_per_warp,
                p.sms() * crate::rta::room::fit(p, &demands[0])
            ),
            Bound::Envelope => "mixed block demands, or slots that depend on what the GPU profile leaves open (warp placement, partitioned caching): the responses are a safe bound for every block time up to C, every choice of SM and sub-partition (list schedule counting the blocks still running, each kind by its demand, or the queue's work bound where lower); simulated_finish is one nominal run of the dispatch rules".into(),
            Bound::TieBound => "too many launch orders of tied releases to try: each group of tied jobs merged into one (all its blocks, the longest C, the largest demand), and each job's finish at most the queue's work bound (the blocks that may be ahead of it, each weighed by its share of an SM or counted against the slots, for the time they can run before its last block starts), the lesser of the two; a safe bound for every order".into(),
            Bound::TimeSliced => format!(
                "kernels of {} processes sharing the GPU by time slicing, round robin among those with work, slices of {} and switches of at most {} ({}), a process's blocks saved and resumed at a switch (compute preemption; restoring them, or draining blocks where the driver does that instead, counted in the switch), every process at the same interleave level (one slice per round), no GPU context outside the task set (e.g. a display); each process's kernels in one stream; a job's response is its kernel alone on the GPU, ceil(g / slots) C, plus, for each slice it needs, one wait of every other process's slice and the switches; a safe bound, not exact",
                crate::rta::slicing::processes(w).len(),
                crate::rta::slicing::slices(w).map_or("?".into(), |s| s.iter().map(|&q| w.scale.format(q)).collect::<Vec<_>>().join(", ")),
                w.scale.format(w.context_switch.unwrap_or(Ticks::ZERO)),
                w.unit
            ),
            Bound::UpperBound => format!(
                "one block demand ({} slots): the list schedule over every launch order of tied releases that fits the jobs' entry windows, each job entering at its latest, or the queue's work bound where lower; for some kernel the worst such order needs entries that cannot happen together, or the work bound is lower, so the response is a safe bound, not known to be reached",
                p.sms() * crate::rta::room::fit(p, &demands[0])
            ),
            Bound::Copies => "one block demand, with copies: the kernels' part as for one demand, the copies bounded as below; a safe bound, not exact".into(),
            Bound::Priorities => "streams of both priorities (two EE queues; a low kernel's blocks are assigned only while the high queue is empty, blocks are not preempted): a high kernel's blocks start where they have room beside every block of the low kernels that may still run at its entry (released by then and not bounded to be done by its release), each counted until its own block time after that entry, a low kernel's response counts every high kernel released before its last block could start (the lesser of a list with every block at the longest C and the largest demand, and the pool's work with each block weighed by its share of an SM, each kernel only for the time it can run before that start, or a high kernel by the time it can wait in the high queue, or the time by which the high queue is surely empty when the low kernel then surely has room); a safe bound, not exact".into(),
        },
        match (seq.window_end, seq.reported_until) {
            (None, _) => "each kernel is one job released at its release time".into(),
            (Some(e), Some(_)) => format!(
                "periodic jobs released at release + m period before {}; every job released from then on up to a time past the latest one of them may enter the queue or have its blocks passed is analysed as a job that may pass them, and their own responses are not reported (jobs released later may pass them; later jobs kept admitting more: releases closer than the launch overhead or stream waits chain past any end); responses are the worst over the jobs released before {}",
                w.scale.format(e),
                w.scale.format(e)
            ),
            (Some(e), None) => format!(
                "periodic jobs released at release + m period before {} (each kernel's first job at least), and every later job released by the latest time one of them may enter the queue (it may pass it); responses are the worst over these jobs; jobs after them are not analysed",
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
    if w.tasks.iter().any(|t| t.copy_in > Ticks::ZERO || t.copy_out > Ticks::ZERO) {
        out.push("copies (copy_in before a job's kernel, copy_out after it, in its stream) through one copy engine serving one FIFO queue, one copy at a time (rules C1-C4); a copy enters the queue once the operation before it in its stream has completed (a copy in at most the launch overhead after its release), and a kernel with a copy in enters its EE queue once that copy has completed; the response runs to the end of the copy out. Each copy's completion is bounded by the copies that may be ahead of it in the queue (also safe with one engine per direction); the copy times bound the real ones".into());
    }
    let rests_on = |words: &str| w.tasks.iter().any(|t| t.wcet_source.contains(words));
    let (oldest_first, round_robin) = (rests_on(crate::rta::wcet::OLDEST_FIRST), rests_on(crate::rta::wcet::ROUND_ROBIN));
    if oldest_first {
        out.push("warp arbitration oldest-first (gpu.warp_arbitration): among ready warps each unit serves the block that arrived on its SM first, as GPGPU-Sim's greedy-then-oldest does after a stall (Rogers et al., MICRO 2012); an assumption about the hardware, not a documented TX2 property; C computed from instructions covers block turnover under it".into());
    }
    if rests_on(crate::rta::taskset::QUEUE_ORDER) {
        out.push("same-cycle arrivals ranked by queue order (gpu.same_cycle_arrivals = \"queue-order\"): of two blocks arriving on an SM in the same cycle, the one dispatched first is the older, as GPGPU-Sim's oldest-first schedulers rank warps by a dynamic id given in the order warps are set up; an assumption about the hardware, not a documented TX2 property; a C computed from instructions then leaves out the kernels whose jobs enter the queue after its own".into());
    }
    if rests_on(crate::rta::taskset::APART) {
        out.push("kernels apart: a C computed from instructions leaves out the kernels whose jobs are never on the GPU while one of its own is, by the release-to-finish windows of an earlier round of this analysis (each round's responses proven, by induction over the rounds); those C's hold for the jobs analysed here only".into());
    }
    let processes: std::collections::HashSet<_> = w.tasks.iter().map(|t| t.process.as_deref()).collect();
    if processes.len() == 1 && (w.time_slice > Ticks::ZERO || w.tasks.iter().any(|t| t.time_slice.is_some())) {
        out.push("a time_slice is given, but every kernel is of one process: no time slicing between processes, so the slice is not used".into());
    }
    if processes.len() > 1 && (oldest_first || round_robin) {
        out.push("time slicing with C covering block turnover: a context switch is assumed to bring every stopped block back on the same SM with its warp slots, its age order and the warp schedulers' rotations as they were (a restore is not a new arrival)".into());
    }
    if round_robin {
        out.push("warp arbitration round robin (gpu.warp_arbitration = \"round-robin\"): each unit class serves ready warps in the circular order of the SM's warp slots, starting after the slot it served last, as GPGPU-Sim's loose round robin does per scheduler; an assumption about the hardware, not a documented TX2 property; C computed from instructions covers block turnover under it, whatever the other kernels run".into());
    }
    latency_assumptions(w, &mut out);
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

    #[test]
    fn bound_and_verdict_display_their_json_words() {
        for b in [Bound::ExactMonotone, Bound::Envelope, Bound::TieBound, Bound::Priorities, Bound::Copies, Bound::TimeSliced, Bound::UpperBound] {
            assert_eq!(serde_json::to_value(b).unwrap(), b.to_string());
            assert_eq!(serde_json::from_value::<Bound>(serde_json::to_value(b).unwrap()).unwrap(), b);
        }
        for v in [Verdict::Proven, Verdict::Optimistic] {
            assert_eq!(serde_json::to_value(v).unwrap(), v.to_string());
        }
        for t in [KernelTies::None, KernelTies::GivenOrder, KernelTies::Tried(Ties::AllOrders(24)), KernelTies::Tried(Ties::Bound)] {
            let back: KernelTies = serde_json::from_value(serde_json::to_value(t).unwrap()).unwrap();
            assert_eq!(back, t);
        }
        assert!(serde_json::from_value::<KernelTies>(serde_json::json!("worst of many launch orders")).is_err());
    }
}
