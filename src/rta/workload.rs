//! What an analysis takes in: the kernels ([`Task`], `C` already known, times in ticks),
//! the GPU, the time base, which jobs and in which launch order ([`Workload`]), and the
//! checks every input passes before it is analysed ([`demands`]). Task-set files,
//! examiner configs and the system layer all build a [`Workload`]; nothing here depends on
//! the analysis or its report.

use crate::error::InputError;
use crate::rta::gpu::{Demand, Platform};
use crate::rta::room;
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
    /// The CUDA stream the kernel is launched into: kernels with the same stream run one
    /// after another (a launch enters the GPU's queue only once the previous one in its
    /// stream has completed). `None`: a stream of its own (its jobs still run in order).
    pub stream: Option<String>,
    /// The priority of its stream (rules A1-A2): a kernel of a high-priority stream goes
    /// to the high EE queue, whose kernels dispatch before any of the low queue's.
    pub priority: Priority,
    /// The OS process (CUDA context) that launches it (`None`: the default process).
    /// Processes share the GPU by time slicing (`crate::rta::slicing`).
    pub process: Option<String>,
    /// Its process's time slice, if the process has its own (else the GPU profile's).
    pub time_slice: Option<Ticks>,
    /// Time of the copy to the GPU before each job's kernel, in its stream (0: none): it
    /// goes through the copy engine (rules C1-C4) and the kernel enters its EE queue only
    /// once it has completed.
    pub copy_in: Ticks,
    /// Time of the copy back after each job's kernel, in its stream (0: none): the job,
    /// and its response, end when it completes.
    pub copy_out: Ticks,
    /// Where `C_i` comes from and what it rests on.
    pub wcet_source: String,
    /// Whether `C_i` is known to be optimistic (not a bound on a block's time).
    pub wcet_optimistic: bool,
    /// Under the preemption-point framework ([`crate::rta::preemptive`]): an upper bound
    /// on one block's time in each segment between its preemption points, in order
    /// (empty: no points, one segment of `wcet`).
    pub segments: Vec<Ticks>,
    /// Under the framework: a bound on one block's time over all its segments when one
    /// is known below their sum (the kernel with its points read as barriers).
    pub segments_wcet: Option<Ticks>,
    /// Under the framework: its instruction string with its preemption points (`^`),
    /// given or proposed (`None`: not computed from instructions, or no points).
    pub points: Option<String>,
    /// Under the framework: this kernel's own save time (the thesis's `t_bk[ex]`, 5.4;
    /// `None`: the framework's).
    pub save: Option<Ticks>,
    /// Under the framework: this kernel's own relaunch time (its `t_bk[in]` and launch;
    /// `None`: the framework's).
    pub relaunch: Option<Ticks>,
    /// Under the framework: its priority rank (lower runs first; `None`: assigned by
    /// [`Workload::ranking`]).
    pub rank: Option<i64>,
}

/// The times of a task given directly ([`Task::given`]), by name so that none can take
/// another's place, all in ticks of the workload's [`Scale`].
///
/// ```
/// use gpu_makespan::rta::{Task, Ticks, Timing};
///
/// let timing = Timing { period: Ticks::new(15), wcet: Ticks::new(4), release: Ticks::ZERO };
/// let k = Task::given("K1", timing, 2, 512);
/// assert_eq!((k.period, k.deadline, k.wcet), (Some(Ticks::new(15)), Some(Ticks::new(15)), Ticks::new(4)));
/// // Ticks add among themselves and scale by a count; they do not mix with other units.
/// assert_eq!(k.wcet * 2 + Ticks::new(1), Ticks::new(9));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Timing {
    /// Period between jobs, also the relative deadline.
    pub period: Ticks,
    /// `C_i`: an upper bound on the execution time of one block.
    pub wcet: Ticks,
    /// `r_i`: release time of the first job.
    pub release: Ticks,
}

impl Task {
    /// A task with `C_i` given directly (`timing`), its period as deadline, `blocks`
    /// blocks (`g_i`) of `threads_per_block` threads (`b_i`), and no shared memory or
    /// registers declared.
    pub fn given(name: impl Into<String>, timing: Timing, blocks: u64, threads_per_block: u64) -> Task {
        let Timing { period, wcet, release } = timing;
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
            stream: None,
            priority: Priority::Low,
            process: None,
            time_slice: None,
            copy_in: Ticks::ZERO,
            copy_out: Ticks::ZERO,
            wcet_source: "given (wcet)".into(),
            wcet_optimistic: false,
            segments: Vec::new(),
            segments_wcet: None,
            points: None,
            save: None,
            relaunch: None,
            rank: None,
        }
    }
}

/// A stream's priority. CUDA gives Pascal GPUs two levels (`cudaDeviceGetStreamPriorityRange`
/// returns 0 and -1): each has its own EE queue, and a block of the low queue's head
/// kernel is assigned only while the high queue is empty (Amert et al., A1-A2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// The default priority (CUDA priority 0).
    #[default]
    Low,
    /// The greatest priority (CUDA priority -1 on Pascal).
    High,
}

impl Priority {
    /// The index of its EE queue in a pair ordered as the GPU serves them: 0 for the high
    /// queue, 1 for the low one.
    pub fn queue(self) -> usize {
        usize::from(self == Priority::Low)
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
    /// The time slice of each process when kernels of several processes share the GPU
    /// (0: not given).
    pub time_slice: Ticks,
    /// A switch between processes takes at most this long (`None`: not given; time
    /// slicing needs it).
    pub context_switch: Option<Ticks>,
    /// How tied releases launch.
    pub launch: Launch,
    /// Which jobs are analysed.
    pub window: Window,
    /// Whether processes may have jobs the task set does not list (the system analysis,
    /// where a GPU task's trigger releases its kernels again and again): then time
    /// slicing charges every other process its whole slice at each wait, not only the
    /// work of its listed jobs. `false` (default): the jobs listed (one per kernel, or a
    /// window's) are all there are.
    pub unlisted_jobs: bool,
    /// The jobs some kernel's C was computed for, when it leaves out kernels for them
    /// (`taskset::Request::single_jobs`): `Some((window, launch))` when a kernel is left
    /// out because its jobs in that window (`Window::OneJob`: one job per kernel, the set
    /// as it stands), launched so, are never on the GPU beside the kernel's own, or enter
    /// its queue after them under `gpu.same_cycle_arrivals = "queue-order"`. Those C's
    /// hold for these jobs only: [`crate::rta::analyse`] refuses another window or launch
    /// order, and they hold no longer if releases, periods, priorities, streams, copies
    /// or the launch overhead change.
    pub wcets_for: Option<(Window, Launch)>,
    /// The preemption-point framework's quantum ([`crate::rta::preemptive`]; `None`: not
    /// given, the framework is not analysed).
    pub quantum: Option<Ticks>,
    /// Under the framework: the most time a block takes to save its context once it
    /// stops at a preemption point.
    pub save: Ticks,
    /// Under the framework: the most time from a launch (first or resumed) until every
    /// block runs its next segment (the host's launch and every block's restore or
    /// initialisation; the profile's launch and block overheads are added to it).
    pub relaunch: Ticks,
    /// Under the framework: how kernels get their priority ranks.
    pub ranking: Ranking,
}

impl Workload {
    /// A workload with no overheads, tied releases in any order, one job per kernel.
    pub fn new(tasks: Vec<Task>, platform: Platform, scale: Scale, unit: impl Into<String>) -> Workload {
        Workload {
            tasks,
            platform,
            scale,
            unit: unit.into(),
            launch_overhead: Ticks::ZERO,
            block_overhead: Ticks::ZERO,
            time_slice: Ticks::ZERO,
            context_switch: None,
            launch: Launch::AnyOrder,
            window: Window::OneJob,
            unlisted_jobs: false,
            wcets_for: None,
            quantum: None,
            save: Ticks::ZERO,
            relaunch: Ticks::ZERO,
            ranking: Ranking::Given,
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

/// How the preemption-point framework ranks kernels (thesis 4.6: a separate module
/// orders them; fixed priorities per kernel here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ranking {
    /// Each kernel's `rank` (lower first; equal ranks delay each other both ways).
    #[default]
    Given,
    /// Shorter period first (ties: file order).
    RateMonotonic,
    /// Shorter deadline first (ties: file order).
    DeadlineMonotonic,
    /// Audsley's optimal priority assignment: from the lowest rank up, any kernel that
    /// meets its deadline there with every unranked kernel above it; it finds an order
    /// in which every kernel meets its deadline whenever one exists for this test.
    Audsley,
}

/// How jobs released at the same time launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Launch {
    /// In any order (the GPU's race), unless every kernel has a `launch_order`.
    #[default]
    AnyOrder,
    /// In the order the input lists the kernels (an order the user knows, e.g. one host
    /// thread launching them; for kernels that must not overlap, give them one `stream`).
    FileOrder,
}

/// Which jobs the analysis covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Window {
    /// One job per kernel, released at its release time.
    #[default]
    OneJob,
    /// Every job released before this time (jobs at `release + m period`).
    Until(Ticks),
    /// Every job released before the largest release plus the hyperperiod (the least
    /// common multiple of the periods).
    Hyperperiod,
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
    check_stream_priorities(&w.tasks)?;
    w.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let kernel = format!("kernels[{i}]");
            if t.blocks == 0 {
                return Err(InputError::new(format!("{kernel}.blocks"), 0, "a kernel has at least one block"));
            }
            if t.wcet == Ticks::ZERO {
                return Err(InputError::new(format!("{kernel}.wcet"), 0, "must be positive"));
            }
            if t.deadline == Some(Ticks::ZERO) {
                return Err(InputError::new(format!("{kernel}.period"), 0, "must be positive"));
            }
            let d = w.platform.demand(t.threads_per_block, t.shared_memory, t.registers_per_thread, &kernel)?;
            if room::fit(&w.platform, &d) == 0 {
                return Err(InputError::new(
                    format!("{kernel}.registers_per_thread"),
                    t.registers_per_thread,
                    format!(
                        "{} warps of {} registers do not fit an empty SM (or half of one) in every case the GPU profile leaves open (gpu.warp_placement, gpu.partitioned_global_caching)",
                        d.warps, d.registers_per_warp
                    ),
                ));
            }
            Ok(d)
        })
        .collect()
}

/// A priority belongs to a stream (A1): kernels of one stream with different priorities
/// are refused.
fn check_stream_priorities(tasks: &[Task]) -> Result<(), InputError> {
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, t) in tasks.iter().enumerate() {
        let Some(s) = t.stream.as_deref() else { continue };
        let first = *seen.entry(s).or_insert(i);
        if tasks[first].priority != t.priority {
            return Err(InputError::new(
                format!("kernels[{i}].priority"),
                crate::files::serde_word(&t.priority),
                format!("kernels[{first}] is in the same stream {s:?} with another priority; a priority belongs to a stream"),
            ));
        }
    }
    Ok(())
}
