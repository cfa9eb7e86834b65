//! Task-set files (TOML) for the RTA: kernels with a per-block WCET given directly
//! (`wcet`) or computed from the warp-level model (`instructions`, see `crate::rta::wcet`).
//! This module only reads files into a [`Workload`]; the model's checks are in
//! `crate::rta::workload::demands`. Times are read exactly (`crate::rta::time`).

use crate::error::{positive, Error, InputError};
use crate::exact::solve::SolveOptions;
use crate::files::{origin, parse_toml, read_text};
use crate::model::blocks::{Beside, Neighbour};
use crate::model::cycles::Cycles;
use crate::model::instance::Instance;
use crate::model::kernel::Unit;
use crate::model::program::Program;
use crate::model::sm::SmCounts;
use crate::rta::block_resources::{file_resources, Given, Stated};
use crate::rta::gpu::{Arbitration, GpuSection, Profile};
use crate::rta::points::POINT;
use crate::rta::time::{Decimal, Scale, Ticks};
use crate::rta::wcet::{self, Contention, WcetCache};
use crate::rta::workload::{Launch, Window};
use crate::rta::workload::{Priority, Ranking, Task, Workload};
use serde::Deserialize;
use std::path::Path;
use toml::Spanned;

/// One `[[kernels]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct KernelEntry {
    /// Name (default `K<i>`).
    pub name: Option<String>,
    /// `T_i`, the time between jobs (used with an analysis window).
    pub period: Spanned<crate::rta::time::Number>,
    /// Relative deadline of each job (default: the period).
    pub deadline: Option<Spanned<crate::rta::time::Number>>,
    /// `C_i` given directly.
    pub wcet: Option<Spanned<crate::rta::time::Number>>,
    /// Instruction string to compute `C_i` from.
    pub instructions: Option<String>,
    /// A PTX or SASS file to compute `C_i` from (as `makespan import` reads it; a path
    /// relative to the task-set file), instead of `instructions`.
    pub kernel_file: Option<String>,
    /// With `kernel_file`: the kernel to take when the file holds several.
    pub entry: Option<String>,
    /// With `kernel_file`: the file is one executed path.
    pub trace: Option<bool>,
    /// With `kernel_file`: a unit map on top of the built-in one (path relative to the task set).
    pub units: Option<String>,
    /// With `kernel_file`: trip counts per label, one (`3`) or one per visit (`[1, 2, 3]`).
    pub trip: Option<std::collections::BTreeMap<String, crate::import::trips::Trip>>,
    /// With `kernel_file`: the architecture when the file does not state it.
    pub arch: Option<String>,
    /// With `kernel_file`: `ptxas -v` or `cuobjdump -res-usage` output for it (registers,
    /// shared memory; a path relative to the task set).
    pub resource_usage: Option<String>,
    /// Which contention the computed `C_i` assumes (default `full-sm`).
    pub contention: Option<Contention>,
    /// SM profile for this kernel (default: `[gpu.sm]`).
    pub sm: Option<SmCounts>,
    /// `g_i`.
    pub blocks: i64,
    /// `b_i`.
    pub threads_per_block: i64,
    /// Shared memory per block in bytes (default 0).
    pub shared_memory: Option<i64>,
    /// With `kernel_file`: the launch's dynamic shared memory per block in bytes
    /// (`extern __shared__`, the third `<<<>>>` parameter), added to the static size the
    /// file states. Required when the file declares dynamic shared memory.
    pub dynamic_shared_memory: Option<i64>,
    /// Registers per thread (default 0: not limiting).
    pub registers_per_thread: Option<i64>,
    /// `r_i` (default 0).
    pub release: Option<Spanned<crate::rta::time::Number>>,
    /// Launch order among kernels released at the same time (lower first); give it on
    /// every kernel or on none.
    pub launch_order: Option<i64>,
    /// The CUDA stream it is launched into (default: a stream of its own): kernels of one
    /// stream run one after another.
    pub stream: Option<String>,
    /// The priority of its stream, `"low"` (default) or `"high"` (rules A1-A2).
    pub priority: Option<Priority>,
    /// The OS process (CUDA context) that launches it (default: one process for all):
    /// processes share the GPU by time slicing (`gpu.time_slice`).
    pub process: Option<String>,
    /// Its process's time slice when the process has its own (default: `gpu.time_slice`);
    /// the kernels of one process that give it give the same.
    pub time_slice: Option<Spanned<crate::rta::time::Number>>,
    /// Time of each job's copy to the GPU before its kernel (default 0: none), through
    /// the copy engine (rules C1-C4).
    pub copy_in: Option<Spanned<crate::rta::time::Number>>,
    /// Time of each job's copy back after its kernel (default 0: none).
    pub copy_out: Option<Spanned<crate::rta::time::Number>>,
    /// `makespan preempt`: an upper bound on one block's time in each segment between
    /// preemption points, in order, in place of `wcet` (whose value is then their sum).
    pub segments: Option<Vec<Spanned<crate::rta::time::Number>>>,
    /// `makespan preempt`: the kernel's priority rank (lower first).
    pub rank: Option<i64>,
    /// `makespan preempt`, with `kernel_file`: labels where the path gets a preemption
    /// point each time it passes them.
    pub points_at: Option<Vec<String>>,
    /// `makespan preempt`: this kernel's own save time (default: `framework.save`).
    pub save: Option<Spanned<crate::rta::time::Number>>,
    /// `makespan preempt`: this kernel's own relaunch time (default: `framework.relaunch`).
    pub relaunch: Option<Spanned<crate::rta::time::Number>>,
}

/// The `[framework]` table (`makespan preempt`): the preemption-point framework's
/// parameters, in the task set's unit.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameworkSection {
    quantum: Spanned<crate::rta::time::Number>,
    save: Option<Spanned<crate::rta::time::Number>>,
    relaunch: Option<Spanned<crate::rta::time::Number>>,
    priorities: Option<Ranking>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskSetFile {
    gpu: Option<GpuSection>,
    kernels: Vec<KernelEntry>,
    unit: Option<String>,
    framework: Option<FrameworkSection>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// A GPU profile file (`--gpu`): a `[gpu]` table as in task-set files.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    gpu: GpuSection,
    #[allow(dead_code)]
    description: Option<String>,
}

/// Reads a GPU profile file (`[gpu]` with the per-SM limits and overheads; absent
/// fields are the TX2's).
pub(crate) fn read_profile(path: &Path) -> Result<Profile, InputError> {
    let text = read_text(path).map_err(|e| InputError::option("gpu", path.display(), e.reason))?;
    let f: ProfileFile = parse_toml(&text, &origin(path))?;
    let task_set_only = [
        ("gpu.cycle_time", f.gpu.cycle_time.as_ref().map(|c| c.get_ref().0.to_string())),
        ("gpu.clock", f.gpu.clock.as_ref().map(|c| format!("\"{c}\""))),
    ];
    if let Some((name, Some(value))) = task_set_only.iter().find(|(_, given)| given.is_some()) {
        return Err(InputError::new(
            *name,
            value,
            format!(
                "{} is read from the task set's [gpu] table only (it converts C computed from instructions); move it there",
                origin(path)
            ),
        ));
    }
    f.gpu.profile(&text)
}

/// What an RTA run asks for besides its input file (the command line's choices).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Request {
    /// A GPU profile file, in place of the task set's own `[gpu]` (or the TX2's).
    pub gpu: Option<std::path::PathBuf>,
    /// A relative deadline for every kernel of an examiner config.
    pub deadline: Option<Decimal>,
    /// The analysis window: `None` for one job per kernel.
    pub window: Option<WindowRequest>,
    /// How tied releases launch.
    pub launch: Launch,
    /// `makespan preempt --points-budget`: place preemption points in every kernel
    /// given by instructions (or a kernel file), the fewest such that each segment's
    /// bound plus the framework's save is at most this (in the task set's unit); the
    /// kernel's own points, if any, are replaced.
    pub points_budget: Option<Decimal>,
    /// Compute each kernel's C as if every kernel were in a stream of its own (the turnover
    /// bound then counts the other kernels of a kernel's stream beside it): for analyses
    /// that drop the streams, as `makespan preempt --compare`'s regimes do. The kernels
    /// keep their streams.
    pub streams_apart: bool,
    /// The C's serve the jobs `makespan rta` analyses (one job per kernel, or the
    /// window's): under oldest-first arbitration a kernel's C then leaves out the kernels
    /// whose jobs are never on the GPU with its own (by the responses of an analysis,
    /// iterated: `crate::rta::apart`), and with `gpu.same_cycle_arrivals = "queue-order"`
    /// those whose jobs surely enter the queue after its own (same priority, released
    /// after its launch; the one-job proof is at the private `younger_kernels`). The
    /// result records it ([`Workload::wcets_for`]). Not for analyses that release kernels
    /// again or change their queues (`system`, `preempt`).
    pub single_jobs: bool,
}

with_setters!(Request {
    with_gpu => gpu: Option<std::path::PathBuf>,
    with_deadline => deadline: Option<Decimal>,
    with_window => window: Option<WindowRequest>,
    with_launch => launch: Launch,
    with_points_budget => points_budget: Option<Decimal>,
    with_streams_apart => streams_apart: bool,
    with_single_jobs => single_jobs: bool,
});

/// An analysis window as asked for, before the time scale is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WindowRequest {
    /// The largest release plus the hyperperiod.
    Hyperperiod,
    /// Jobs released before this time.
    Until(Decimal),
}

impl WindowRequest {
    /// The window in ticks of `scale` (which includes the window's decimals).
    fn in_ticks(self, scale: Scale) -> Result<Window, InputError> {
        match self {
            WindowRequest::Hyperperiod => Ok(Window::Hyperperiod),
            WindowRequest::Until(d) => scale.ticks(d, "window").map(Window::Until).map_err(InputError::as_option),
        }
    }
}

/// Reads an RTA input: a cuda_scheduling_examiner config (`.json`, see
/// `crate::rta::examiner`) or a task-set file (TOML), with what `request` adds.
/// `--deadline` applies to configs only, which carry none; `--window` to task sets only.
pub fn load(path: &Path, request: &Request, limits: &SolveOptions) -> Result<Workload, Error> {
    let profile = request.gpu.as_deref().map(read_profile).transpose()?;
    let text = read_text(path)?;
    if crate::rta::examiner::is_config(path, &text) {
        if request.window.is_some() {
            return Err(InputError::option(
                "window",
                "",
                "examiner configs run one iteration per benchmark; a window needs periods (task sets)",
            )
            .into());
        }
        let mut w = crate::rta::examiner::from_text(&text, &origin(path), profile.unwrap_or(Profile::TX2), request.deadline)?;
        w.launch = request.launch;
        return Ok(w);
    }
    if request.deadline.is_some() {
        return Err(InputError::option(
            "deadline",
            "",
            "applies to examiner configs; in a task set give each kernel a deadline (default: its period)",
        )
        .into());
    }
    let single_jobs = request.single_jobs && request.window.is_none();
    let parts = (request.window, request.points_budget, request.streams_apart);
    // One cache for every reading: a kernel's C solved once (a time-limited solve is not
    // repeated with another outcome).
    let mut cache = WcetCache::default();
    let mut reread = |apart: &[Vec<bool>]| read(&text, &origin(path), profile, limits, parts, (single_jobs, apart), &mut cache);
    let (mut w, read_profile, younger) = reread(&[])?;
    if request.single_jobs && !request.streams_apart {
        w = settle_apart(w, &read_profile, younger, request.launch, &mut |apart| reread(apart).map(|r| r.0))?;
    }
    Ok(launched(w, request.launch))
}

/// `w` with its tied releases launched by `launch`, which its C's then assume too
/// ([`Workload::wcets_for`]).
fn launched(mut w: Workload, launch: Launch) -> Workload {
    w.launch = launch;
    if let Some(jobs) = &mut w.wcets_for {
        jobs.1 = launch;
    }
    w
}

/// The task set read again with some kernels apart ([`settle_apart`]).
type Reread<'a> = dyn FnMut(&[Vec<bool>]) -> Result<Workload, Error> + 'a;

/// At most this many rounds of [`settle_apart`] (each one analysis and one reading).
const APART_ROUNDS: usize = 8;

/// `w` read again (`reread`) with the kernels [`crate::rta::apart::apart_kernels`] finds
/// apart by the responses of `w`'s analysis, round after round, until no more are found
/// (at most [`APART_ROUNDS`]); `younger`: those the first reading left out already.
///
/// Why the `Workload` returned is as safe as the first: a pair `(i, k)` found from an
/// analysis holds for the jobs of `i` that analysis ran (`apart_kernels`' proof), so a
/// C leaving `k` out bounds `i`'s blocks in those jobs. Each workload read with pairs is
/// kept only if its own analysis is proven and runs no job of `i` beyond those every
/// pair of `i` was checked for (`checked`); its responses are then proven (the C's bound
/// every block it runs), and so are the pairs found from them: by induction over the
/// rounds. A workload that fails the check, or whose reading or analysis fails, is
/// dropped and the last kept one returned.
///
/// Only under oldest-first arbitration, the one whose C counts what is beside the block
/// (the round-robin bound counts the SM's warp slots, which turnover can fill with new
/// warps however few are resident at once), and only when some kernel could be apart
/// with responses of 0 (else no analysis is run).
fn settle_apart(
    mut w: Workload,
    profile: &Profile,
    younger: Vec<Vec<bool>>,
    launch: Launch,
    reread: &mut Reread,
) -> Result<Workload, Error> {
    if profile.arbitration != Arbitration::OldestFirst {
        return Ok(w);
    }
    let queue_order = profile.queue_order_ties && one_process(w.tasks.iter().map(|t| t.process.as_deref()));
    let n = w.tasks.len();
    // Responses of 0 over the listed jobs only part the most pairs: a filter.
    let Ok(end) = crate::rta::jobs::window_end(&w, w.window) else { return Ok(w) };
    let listed = crate::rta::apart::listed(&w, end);
    if !adds(&younger, &crate::rta::apart::apart_kernels(&w, (end, &listed), &vec![Ticks::ZERO; n], queue_order)) {
        return Ok(w);
    }
    // Per pair, the jobs of `i` it was checked for (0: not apart).
    let (mut checked, mut known) = (vec![vec![0u128; n]; n], younger);
    w = launched(w, launch);
    let Some(mut rep) = proven_analysis(&w) else { return Ok(w) };
    for _ in 0..APART_ROUNDS {
        let (response, analysed) = analysed_jobs(&w, &rep);
        let found = crate::rta::apart::apart_kernels(&w, (rep.window, &analysed), &response, queue_order);
        if !adds(&known, &found) {
            break;
        }
        let mut next_checked = checked.clone();
        for (i, row) in found.iter().enumerate() {
            for (k, &f) in row.iter().enumerate().filter(|(_, &f)| f) {
                next_checked[i][k] = next_checked[i][k].max(analysed[i].unwrap_or(0));
                known[i][k] |= f;
            }
        }
        let apart: Vec<Vec<bool>> = next_checked.iter().map(|r| r.iter().map(|&c| c > 0).collect()).collect();
        let Ok(next) = reread(&apart).map(|next| launched(next, launch)) else { break };
        let Some(next_rep) = proven_analysis(&next) else { break };
        let (_, ran) = analysed_jobs(&next, &next_rep);
        let covered = (0..n).all(|i| (0..n).all(|k| next_checked[i][k] == 0 || ran[i].is_some_and(|c| c <= next_checked[i][k])));
        if !covered {
            break;
        }
        (w, rep, checked) = (next, next_rep, next_checked);
    }
    Ok(w)
}

/// The analysis of `w` when its verdict is proven (responses resting on a C known not to
/// bound its block prove nothing); `None` if refused or not proven.
fn proven_analysis(w: &Workload) -> Option<crate::rta::RtaReport> {
    crate::rta::analyse(w, crate::rta::Timeline::Omitted).ok().filter(|rep| rep.verdict == crate::rta::Verdict::Proven)
}

/// Per task of `w`, from its report `rep`: the worst response, and how many of its jobs
/// the analysis ran (every job in `rep.jobs`), `None` where it ran some whose finish it
/// does not report (context jobs after a window: not bounded by the response).
fn analysed_jobs(w: &Workload, rep: &crate::rta::RtaReport) -> (Vec<Ticks>, Vec<Option<u128>>) {
    w.tasks
        .iter()
        .map(|t| match rep.kernels.iter().position(|k| k.name == t.name) {
            Some(row) => {
                let ran = rep.jobs.iter().filter(|j| j.kernel == row).count() as u128;
                (rep.kernels[row].response, (ran == u128::from(rep.kernels[row].jobs)).then_some(ran))
            }
            None => (Ticks::new(u128::MAX), None),
        })
        .unzip()
}

/// Whether `found` marks a pair that `known` does not.
fn adds(known: &[Vec<bool>], found: &[Vec<bool>]) -> bool {
    known.iter().zip(found).any(|(k, f)| k.iter().zip(f).any(|(&k, &f)| f && !k))
}

/// One kernel before the common time scale is known.
struct Pending {
    task: Task,
    period: Decimal,
    deadline: Decimal,
    wcet: Decimal,
    release: Decimal,
    copy_in: Decimal,
    copy_out: Decimal,
    time_slice: Option<Decimal>,
    /// Per-segment bounds (empty: no preemption points); with `sum_segments` the
    /// kernel's `C` is their sum (given as `segments`), else `wcet` stays.
    segments: Vec<Decimal>,
    sum_segments: bool,
    /// With points in the instructions: the kernel's bound with its points as barriers.
    segments_wcet: Option<Decimal>,
    /// Its own save and relaunch times, if given.
    save: Option<Decimal>,
    relaunch: Option<Decimal>,
}

/// Parses the text of a task-set file (from `origin`) and computes the WCETs it asks
/// for. `profile`, from `--gpu`, supplies the GPU when the file has no `[gpu]` table;
/// `window` asks for periodic jobs.
///
/// ```
/// use gpu_makespan::rta::taskset;
///
/// let text = "[[kernels]]\nname = \"K1\"\nperiod = 10\nwcet = 2\nblocks = 4\nthreads_per_block = 256\n";
/// let w = taskset::from_text(text, "set.toml", None, &Default::default(), None)?;
/// let report = gpu_makespan::rta::analyse(&w, Default::default())?;
/// let k = &report.kernels[0];
/// assert_eq!(k.in_unit(k.finish), 2.0); // 4 blocks fit at once on the TX2
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn from_text(
    text: &str,
    origin: &str,
    profile: Option<Profile>,
    limits: &SolveOptions,
    window: Option<WindowRequest>,
) -> Result<Workload, Error> {
    read(text, origin, profile, limits, (window, None, false), (false, &[]), &mut WcetCache::default()).map(|r| r.0)
}

/// [`from_text`] with a budget for proposed preemption points ([`Request::points_budget`]),
/// C computed with the streams apart or not ([`Request::streams_apart`]), and for one
/// job per kernel or not ([`Request::single_jobs`]).
fn read(
    text: &str,
    origin: &str,
    profile: Option<Profile>,
    limits: &SolveOptions,
    (window, points_budget, streams_apart): (Option<WindowRequest>, Option<Decimal>, bool),
    (single_jobs, apart): (bool, &[Vec<bool>]),
    cache: &mut WcetCache,
) -> Result<(Workload, Profile, Vec<Vec<bool>>), Error> {
    let file: TaskSetFile = parse_toml(text, origin)?;
    let gpu = file.gpu.clone().unwrap_or_default();
    if profile.is_some() && file.gpu.is_some() && !only_cycle_time(text) {
        let why =
            "the task set has its own [gpu] table; edit it instead (beside a profile a task set's [gpu] may hold only clock or cycle_time)";
        return Err(InputError::option("gpu", "", why).into());
    }
    let profile = match profile {
        Some(p) => p,
        None => gpu.profile(text)?,
    };
    let cycle = cycle_time(text, &gpu, file.unit.as_deref())?;
    if file.kernels.is_empty() {
        return Err(InputError::new("kernels", "[]", "the task set has no kernels").into());
    }
    check_names(&file.kernels)?;
    let framework = file.framework.as_ref().map(|f| framework_times(text, f)).transpose()?;
    let budget = match (points_budget, framework) {
        (Some(b), Some([_, save, _])) => Some(Budget { budget: b, save }),
        (Some(_), None) => return Err(InputError::option("points-budget", "", "the task set has no [framework] table").into()),
        (None, _) => None,
    };
    let read = file.kernels.iter().enumerate().map(|(i, e)| instructions(i, e, origin)).collect::<Result<Vec<_>, _>>()?;
    let (raw, stated): (Vec<Option<String>>, Vec<Option<Stated>>) = read.into_iter().unzip();
    // Every analysis but the framework's reads the kernels without their points.
    let set: Vec<Option<String>> = raw.iter().map(|k| k.as_ref().map(|k| k.replace(POINT, ""))).collect();
    // What each kernel's C counts beside it (`beside`): with the streams apart, no kernel
    // shares its stream.
    let beside_kernels: std::borrow::Cow<[KernelEntry]> = if streams_apart {
        file.kernels.iter().map(|e| KernelEntry { stream: None, ..e.clone() }).collect()
    } else {
        std::borrow::Cow::Borrowed(&file.kernels)
    };
    let younger = younger_kernels(text, &file.kernels, &profile, single_jobs && !streams_apart);
    let mut pending = Vec::with_capacity(file.kernels.len());
    for (i, e) in file.kernels.iter().enumerate() {
        let cx = Context {
            younger: &younger[i],
            apart: apart.get(i).map_or(&[], Vec::as_slice),
            text,
            gpu: &gpu,
            profile: &profile,
            cycle: &cycle,
            limits,
            set: &set,
            raw: &raw,
            kernels: &beside_kernels,
            stated: stated[i].as_ref(),
            budget,
        };
        pending.push(entry(i, e, &cx, cache)?);
    }
    let window_decimal = match window {
        Some(WindowRequest::Until(d)) => Some(d),
        _ => None,
    };
    let overheads = profile.times();
    let ranking = ranking(file.framework.as_ref(), &file.kernels)?;
    let scale = Scale::fitting(
        pending
            .iter()
            .flat_map(|p| {
                [&p.period, &p.deadline, &p.wcet, &p.release, &p.copy_in, &p.copy_out]
                    .into_iter()
                    .chain(p.time_slice.as_ref())
                    .chain(&p.segments)
                    .chain(p.segments_wcet.as_ref())
                    .chain(p.save.as_ref())
                    .chain(p.relaunch.as_ref())
            })
            .chain(window_decimal.iter())
            .chain(overheads.iter())
            .chain(framework.iter().flatten()),
    );
    let mut tasks = Vec::with_capacity(pending.len());
    for (i, p) in pending.into_iter().enumerate() {
        let field = |f: &str| format!("kernels[{i}].{f}");
        tasks.push(Task {
            deadline: Some(scale.ticks(p.deadline, &field("deadline"))?),
            period: Some(scale.ticks(p.period, &field("period"))?),
            wcet: scale.ticks(p.wcet, &field("wcet"))?,
            release: scale.ticks(p.release, &field("release"))?,
            copy_in: scale.ticks(p.copy_in, &field("copy_in"))?,
            copy_out: scale.ticks(p.copy_out, &field("copy_out"))?,
            time_slice: p.time_slice.map(|s| scale.ticks(s, &field("time_slice"))).transpose()?,
            segments: p.segments.iter().map(|&d| scale.ticks(d, &field("segments"))).collect::<Result<_, _>>()?,
            segments_wcet: p.segments_wcet.map(|d| scale.ticks(d, &field("instructions"))).transpose()?,
            save: p.save.map(|d| scale.ticks(d, &field("save"))).transpose()?,
            relaunch: p.relaunch.map(|d| scale.ticks(d, &field("relaunch"))).transpose()?,
            ..p.task
        });
        if p.sum_segments {
            let t = tasks.last_mut().expect("just pushed");
            t.wcet = t
                .segments
                .iter()
                .try_fold(Ticks::ZERO, |s, &x| s.checked_add(x))
                .ok_or_else(|| InputError::new(field("segments"), "", "their sum is too large"))?;
        }
    }
    let mut w = Workload::new(tasks, profile.platform, scale, file.unit.unwrap_or_else(|| "input units".into()));
    w.launch_overhead = scale.ticks(profile.launch_overhead, "gpu.launch_overhead")?;
    w.block_overhead = scale.ticks(profile.block_overhead, "gpu.block_overhead")?;
    w.time_slice = scale.ticks(profile.time_slice, "gpu.time_slice")?;
    w.context_switch = profile.context_switch.map(|c| scale.ticks(c, "gpu.context_switch")).transpose()?;
    if let Some(win) = window {
        w.window = win.in_ticks(scale)?;
    }
    if let Some([quantum, save, relaunch]) = framework {
        w.quantum = Some(scale.ticks(quantum, "framework.quantum")?);
        w.save = scale.ticks(save, "framework.save")?;
        w.relaunch = scale.ticks(relaunch, "framework.relaunch")?;
    }
    w.ranking = ranking;
    let left_out = younger.iter().chain(apart).flatten().any(|&y| y);
    w.wcets_for = left_out.then_some((w.window, w.launch));
    Ok((w, profile, younger))
}

/// The `[framework]` table's quantum, save and relaunch times (the last two 0 when not
/// given); the quantum must be positive.
fn framework_times(text: &str, f: &FrameworkSection) -> Result<[Decimal; 3], InputError> {
    let quantum = Decimal::positive_of_toml(text, &f.quantum, "framework.quantum")?;
    let or_zero = |v: &Option<Spanned<crate::rta::time::Number>>, name: &str| {
        v.as_ref().map_or(Ok(Decimal::ZERO), |v| Decimal::of_toml(text, v, name))
    };
    Ok([quantum, or_zero(&f.save, "framework.save")?, or_zero(&f.relaunch, "framework.relaunch")?])
}

/// How the framework ranks the kernels: `framework.priorities`, or by default the ranks
/// given (every kernel's `rank`) or, with none given, Audsley's assignment. Ranks are
/// given on every kernel or on none, and only with `priorities = "given"` (or none).
fn ranking(f: Option<&FrameworkSection>, kernels: &[KernelEntry]) -> Result<Ranking, InputError> {
    let ranked = kernels.iter().filter(|e| e.rank.is_some()).count();
    let stated = f.and_then(|f| f.priorities);
    if f.is_none() {
        return match kernels.iter().position(|e| e.rank.is_some()) {
            Some(i) => Err(InputError::new(
                format!("kernels[{i}].rank"),
                kernels[i].rank.unwrap_or(0),
                "ranks apply to makespan preempt: give a [framework] table with its quantum",
            )),
            None => Ok(Ranking::Given),
        };
    }
    match (stated, ranked) {
        (None, 0) => Ok(Ranking::Audsley),
        (None | Some(Ranking::Given), n) if n == kernels.len() => Ok(Ranking::Given),
        (None | Some(Ranking::Given), _) => {
            let i = kernels.iter().position(|e| e.rank.is_none()).unwrap_or(0);
            Err(InputError::new(
                format!("kernels[{i}].rank"),
                "",
                "give a rank on every kernel or on none (then framework.priorities assigns them)",
            ))
        }
        (Some(r), 0) => Ok(r),
        (Some(_), _) => {
            let i = kernels.iter().position(|e| e.rank.is_some()).unwrap_or(0);
            Err(InputError::new(
                format!("kernels[{i}].rank"),
                kernels[i].rank.unwrap_or(0),
                "framework.priorities assigns the ranks: give ranks only with priorities = \"given\"",
            ))
        }
    }
}

/// Whether the task set's `[gpu]` table holds only what converts cycles into its time
/// unit (`clock`, `cycle_time`): the one `[gpu]` it may keep beside a `--gpu` profile,
/// which cannot carry them.
fn only_cycle_time(text: &str) -> bool {
    let table = text.parse::<toml::Table>().ok();
    let gpu = table.as_ref().and_then(|t| t.get("gpu")).and_then(|g| g.as_table());
    gpu.is_some_and(|g| g.keys().all(|k| k == "clock" || k == "cycle_time"))
}

/// Kernel names, where given, are non-empty and unique (reports and plots key on them).
fn check_names(kernels: &[KernelEntry]) -> Result<(), InputError> {
    let mut seen = std::collections::HashSet::new();
    for (i, e) in kernels.iter().enumerate() {
        let name = kernel_name(e, i);
        if name.trim().is_empty() {
            return Err(InputError::new(format!("kernels[{i}].name"), format!("{name:?}"), "a kernel name must not be empty"));
        }
        if !seen.insert(name.clone()) {
            return Err(InputError::new(format!("kernels[{i}].name"), format!("{name:?}"), "another kernel has this name"));
        }
    }
    Ok(())
}

/// The time of one SM cycle, and how the report says it (`x 0.5`, `at 1.3 GHz (...)`).
struct Cycle {
    time: Decimal,
    label: String,
    /// The task set's time unit when neither a clock nor a cycle time converts cycles
    /// into it: C from instructions is then refused.
    missing: Option<String>,
}

impl Cycle {
    /// `c` cycles in the task set's unit: `c` times the time of one cycle, exactly (a
    /// cycle time derived from `gpu.clock` is rounded up, so this is never below the
    /// time `c` stands for); an error naming `field` when the product is too large.
    fn time_of(&self, c: Cycles, field: &str) -> Result<Decimal, InputError> {
        self.time.times(c.get(), field)
    }
}

/// `gpu.cycle_time`, or one cycle of `gpu.clock` in the task set's `unit` (rounded up),
/// or 1 (C in cycles).
fn cycle_time(text: &str, gpu: &GpuSection, unit: Option<&str>) -> Result<Cycle, InputError> {
    let format = |d: Decimal| Scale { decimals: d.decimals }.format(Ticks::new(d.digits));
    match (&gpu.cycle_time, &gpu.clock) {
        (Some(c), Some(clock)) => Err(InputError::new(
            "gpu.clock",
            format!("\"{clock}\" and gpu.cycle_time = {}", c.get_ref().0),
            "give the clock or the cycle time, not both",
        )),
        (Some(c), None) => {
            let time = Decimal::positive_of_toml(text, c, "gpu.cycle_time")?;
            Ok(Cycle { time, label: format!("x cycle_time {}", format(time)), missing: None })
        }
        (None, Some(clock)) => {
            let (time, exact) = crate::rta::time::cycle_time_of_clock(clock, unit, "gpu.clock")?;
            let how = if exact { "" } else { ", rounded up" };
            Ok(Cycle {
                time,
                label: format!("at {} ({} {} per cycle{how})", clock.trim(), format(time), unit.unwrap_or_default()),
                missing: None,
            })
        }
        (None, None) => {
            let time_unit = unit.map(str::trim).filter(|u| crate::rta::time::unit_exponent(u).is_some());
            Ok(Cycle {
                time: Decimal { digits: 1, decimals: 0 },
                label: "x 1 (no cycle_time: times are in cycles)".into(),
                missing: time_unit.map(str::to_string),
            })
        }
    }
}

/// What every kernel's `C` is computed within: the file, the GPU, and every kernel's
/// instruction string (`None`: given by `wcet`), for the warps that may share its SM.
struct Context<'a> {
    text: &'a str,
    gpu: &'a GpuSection,
    profile: &'a Profile,
    cycle: &'a Cycle,
    limits: &'a SolveOptions,
    set: &'a [Option<String>],
    /// The same with their preemption points (`^`), as given or imported.
    raw: &'a [Option<String>],
    /// Every kernel of the set (for their block sizes and counts, and the streams that
    /// `beside` leaves out: none with [`Request::streams_apart`]).
    kernels: &'a [KernelEntry],
    /// What this kernel's file states about its resources (`None`: no kernel file).
    stated: Option<&'a Stated>,
    /// A budget for proposed preemption points.
    budget: Option<Budget>,
    /// Per kernel of the set, whether its blocks are all younger than this kernel's
    /// ([`younger_kernels`]): `beside` leaves it out.
    younger: &'a [bool],
    /// Per kernel of the set, whether its jobs are never on the GPU beside this kernel's
    /// (`crate::rta::apart`, from an earlier round's responses; empty: none known).
    apart: &'a [bool],
}

/// The points budget: each segment's bound plus `save` must be at most `budget`.
#[derive(Debug, Clone, Copy)]
struct Budget {
    budget: Decimal,
    save: Decimal,
}

impl Budget {
    /// `segment + save <= budget`, exactly (`false` when the numbers overflow).
    fn holds(&self, segment: Decimal) -> bool {
        let places = segment.decimals.max(self.save.decimals).max(self.budget.decimals);
        let at = |d: Decimal| 10u128.checked_pow(places - d.decimals).and_then(|f| d.digits.checked_mul(f));
        match (at(segment), at(self.save), at(self.budget)) {
            (Some(s), Some(v), Some(b)) => s.checked_add(v).is_some_and(|sum| sum <= b),
            _ => false,
        }
    }
}

/// A kernel's instruction string, from `instructions` or `kernel_file` (`None`: neither),
/// and what a kernel file states about its resources.
fn instructions(i: usize, e: &KernelEntry, task_set: &str) -> Result<(Option<String>, Option<Stated>), InputError> {
    let field = |f: &str| format!("kernels[{i}].{f}");
    match (&e.instructions, &e.kernel_file) {
        (Some(_), Some(_)) => Err(InputError::new(field("kernel_file"), "", "give either instructions or kernel_file, not both")),
        (Some(_), None) if e.points_at.is_some() => {
            Err(InputError::new(field("points_at"), "", "points_at applies to kernel_file; in instructions write ^"))
        }
        (Some(k), None) => Ok((Some(k.clone()), None)),
        (None, Some(f)) => kernel_file(e, f, task_set, &field).map(|(k, r)| (Some(k), Some(r))),
        (None, None) if e.points_at.is_some() => Err(InputError::new(field("points_at"), "", "points_at applies to kernel_file")),
        (None, None) => Ok((None, None)),
    }
}

fn entry(i: usize, e: &KernelEntry, cx: &Context, cache: &mut WcetCache) -> Result<Pending, Error> {
    let (text, gpu, profile, limits) = (cx.text, cx.gpu, cx.profile, cx.limits);
    let field = |f: &str| format!("kernels[{i}].{f}");
    let b = positive(e.threads_per_block, &field("threads_per_block"))?;
    let blocks = positive(e.blocks, &field("blocks"))?;
    let non_negative = |v: Option<i64>, f: &str| {
        u64::try_from(v.unwrap_or(0)).map_err(|_| InputError::new(field(f), v.unwrap_or(0), "must be zero or positive"))
    };
    let instructions = &cx.set[i];
    let (shared_memory, registers_per_thread, resources) = match cx.stated {
        Some(stated) => {
            let given = Given {
                shared_memory: e.shared_memory,
                registers_per_thread: e.registers_per_thread,
                dynamic_shared_memory: e.dynamic_shared_memory,
                resource_usage: e.resource_usage.as_deref(),
            };
            let (s, r, words) = file_resources(&given, stated, b, &profile.platform, &field)?;
            (s, r, Some(words))
        }
        None => (non_negative(e.shared_memory, "shared_memory")?, non_negative(e.registers_per_thread, "registers_per_thread")?, None),
    };
    for (f, given) in [("resource_usage", e.resource_usage.is_some()), ("dynamic_shared_memory", e.dynamic_shared_memory.is_some())] {
        if given && e.kernel_file.is_none() {
            return Err(InputError::new(field(f), "", format!("{f} only applies to kernels given by kernel_file")).into());
        }
    }
    if e.contention.is_some() && instructions.is_none() {
        return Err(
            InputError::new(field("contention"), "", "contention only applies to kernels given by instructions or kernel_file").into()
        );
    }
    let exact = |v: &Spanned<crate::rta::time::Number>, f: &str| Decimal::of_toml(text, v, &field(f));
    let positive_time = |v: &Spanned<crate::rta::time::Number>, f: &str| Decimal::positive_of_toml(text, v, &field(f));
    let period = positive_time(&e.period, "period")?;
    let deadline = e.deadline.as_ref().map_or(Ok(period), |d| positive_time(d, "deadline"))?;
    let mut optimistic = false;
    let mut segments = Vec::new();
    if let Some(given) = &e.segments {
        if e.wcet.is_some() || instructions.is_some() {
            return Err(InputError::new(field("segments"), "", "give segments in place of wcet, instructions or kernel_file").into());
        }
        if given.is_empty() {
            return Err(InputError::new(field("segments"), "[]", "give at least one segment").into());
        }
        for v in given {
            segments.push(positive_time(v, "segments")?);
        }
    }
    let sum_segments = e.segments.is_some();
    let mut segments_wcet = None;
    let mut pointed_text = None;
    let save = e.save.as_ref().map(|v| exact(v, "save")).transpose()?;
    let (wcet, wcet_source) = match (&e.wcet, &instructions) {
        (None, None) if sum_segments => (segments[0], "given (segments, their sum)".to_string()),
        (Some(w), None) => (positive_time(w, "wcet")?, "given (wcet)".to_string()),
        (None, Some(instr)) => {
            let sm = e.sm.or(gpu.sm).unwrap_or(SmCounts::TX2);
            let contention = e.contention.unwrap_or(Contention::FullSm);
            let warp_size = positive(sm.warp_size, &field("sm.warp_size"))?;
            let block = |text: &str| {
                Program::build(text, |phase| Instance::from_counts(phase, b.div_ceil(warp_size) as i64, &sm)).map_err(|err| {
                    // The instruction string's own field in the task set.
                    let own = if e.kernel_file.is_some() { "kernel_file" } else { "instructions" };
                    let f = field(if err.field == "kernel" { own } else { &err.field });
                    err.in_field(f)
                })
            };
            let one_block = block(instr)?;
            let slots = wcet::warp_slots(&profile.platform, &sm);
            let near = beside(cx, i, &sm, (&one_block, slots));
            let route = Route { contention, profile, slots, beside: near.as_ref(), limits };
            let c = route.computed(&one_block, cache)?;
            optimistic = c.optimistic;
            let pointed = match cx.budget {
                Some(framework) => {
                    let budget = Budget { save: save.unwrap_or(framework.save), ..framework };
                    let mut fits = |seg: &str| -> Result<bool, Error> {
                        let c = route.computed(&block(seg)?, cache)?;
                        Ok(budget.holds(cx.cycle.time_of(c.cycles, &field("instructions"))?))
                    };
                    let Some(p) = crate::rta::points::propose(instr, &mut fits)? else {
                        return Err(InputError::option(
                            "points-budget",
                            "",
                            format!("kernels[{i}] cannot be cut so that every segment's bound plus the save fits: some part that cannot be cut (one instruction, or the parts around it) takes more"),
                        )
                        .into());
                    };
                    Some((p.text, Some(p.fewest)))
                }
                None => cx.raw[i].clone().filter(|k| k.contains(POINT)).map(|k| (k, None)),
            };
            let mut points = String::new();
            if let Some((raw, fewest)) = pointed.filter(|(k, _)| k.contains(POINT)) {
                let s = segmented(&raw, fewest, (&route, &block), cx, cache, &field)?;
                optimistic |= s.optimistic;
                (segments, segments_wcet, points, pointed_text) = (s.segments, s.total, s.words, Some(raw));
            }
            if let Some(u) = &cx.cycle.missing {
                return Err(InputError::new(
                    "gpu.clock",
                    "",
                    format!("C of kernels[{i}] is computed in cycles and the task set's times are in {u}: give gpu.clock (\"1.3 GHz\") or gpu.cycle_time (in {u} per cycle)"),
                )
                .into());
            }
            let wcet = cx.cycle.time_of(c.cycles, &field("instructions"))?;
            let res = resources.map_or(String::new(), |r| format!("; block resources: {r}"));
            let stream = if near.is_some()
                && contention == Contention::FullSm
                && profile.arbitration == Arbitration::OldestFirst
                && shares_stream(cx.kernels, i)
            {
                "; the other kernels of its stream are not counted beside it (they run one after another, rule G4)"
            } else {
                ""
            };
            let used = near.is_some() && contention == Contention::FullSm;
            let (younger, apart) = (younger_words(cx, used), apart_words(cx, used));
            (wcet, format!("{} cycles {}: {}{stream}{younger}{apart}{res}{points}", c.cycles.get(), cx.cycle.label, c.how))
        }
        (Some(_), Some(_)) => {
            return Err(InputError::new(field("wcet"), "", "give either wcet or instructions (or kernel_file), not both").into())
        }
        (None, None) => return Err(InputError::new(field("wcet"), "", "give wcet, instructions or kernel_file").into()),
    };
    let task = Task {
        name: kernel_name(e, i),
        deadline: None,
        period: None,
        wcet: Ticks::ZERO,
        blocks,
        threads_per_block: b,
        shared_memory,
        registers_per_thread,
        release: Ticks::ZERO,
        launch_order: e.launch_order,
        stream: e.stream.clone(),
        priority: e.priority.unwrap_or_default(),
        process: match e.process.as_deref() {
            Some(p) if p.trim().is_empty() => return Err(InputError::new(field("process"), format!("{p:?}"), "must not be empty").into()),
            _ => e.process.clone(),
        },
        time_slice: None,
        copy_in: Ticks::ZERO,
        copy_out: Ticks::ZERO,
        wcet_source,
        wcet_optimistic: optimistic,
        segments: Vec::new(),
        segments_wcet: None,
        points: pointed_text,
        save: None,
        relaunch: None,
        rank: e.rank,
    };
    let release = e.release.as_ref().map_or(Ok(Decimal::ZERO), |r| exact(r, "release"))?;
    let copy_in = e.copy_in.as_ref().map_or(Ok(Decimal::ZERO), |c| exact(c, "copy_in"))?;
    let copy_out = e.copy_out.as_ref().map_or(Ok(Decimal::ZERO), |c| exact(c, "copy_out"))?;
    let time_slice = e.time_slice.as_ref().map(|s| exact(s, "time_slice")).transpose()?;
    let relaunch = e.relaunch.as_ref().map(|v| exact(v, "relaunch")).transpose()?;
    Ok(Pending {
        task,
        period,
        deadline,
        wcet,
        release,
        copy_in,
        copy_out,
        time_slice,
        segments,
        sum_segments,
        segments_wcet,
        save,
        relaunch,
    })
}

/// How a kernel's `C` is computed from a program (the kernel, or one of its segments).
struct Route<'a> {
    contention: Contention,
    profile: &'a Profile,
    slots: u64,
    beside: Option<&'a Beside>,
    limits: &'a SolveOptions,
}

impl Route<'_> {
    fn computed(&self, one_block: &Program, cache: &mut WcetCache) -> Result<wcet::Computed, Error> {
        let p = self.profile;
        match self.contention {
            Contention::Isolated => wcet::Computed::isolated(one_block, &p.latency, cache, self.limits),
            Contention::FullSm => {
                wcet::full_sm(one_block, &p.platform, (p.arbitration, &p.latency), self.slots, self.beside.cloned(), cache, self.limits)
            }
        }
    }
}

/// One block's program of an instruction string (a kernel or a part of one).
type OneBlock<'a> = dyn Fn(&str) -> Result<Program, InputError> + 'a;

/// A kernel's segments between its preemption points, as `makespan preempt` reads them.
struct Segmented {
    /// Each segment's bound, in the task set's unit.
    segments: Vec<Decimal>,
    /// A bound on them all together below their sum, when one holds across relaunches.
    total: Option<Decimal>,
    /// Some bound is known not to hold.
    optimistic: bool,
    /// What they rest on, for `wcet_source`.
    words: String,
}

/// The segments of `raw` (an instruction string with points; `fewest`: whether the
/// points were proposed, and if so whether no fewer do), each bounded by `route` as the
/// kernel's `C` is; under round-robin arbitration also the whole kernel with its points
/// read as barriers, a bound per instruction that holds across relaunches (an
/// oldest-first bound counts the blocks beside one arrival).
fn segmented(
    raw: &str,
    fewest: Option<bool>,
    (route, block): (&Route, &OneBlock),
    cx: &Context,
    cache: &mut WcetCache,
    field: &dyn Fn(&str) -> String,
) -> Result<Segmented, Error> {
    let (mut segments, mut cycles, mut optimistic) = (Vec::new(), Vec::new(), false);
    for part in raw.split(POINT) {
        if part.trim().is_empty() {
            return Err(InputError::new(field("instructions"), raw, "a preemption point (^) needs instructions on both sides").into());
        }
        let seg = route.computed(&block(part)?, cache)?;
        optimistic |= seg.optimistic;
        segments.push(cx.cycle.time_of(seg.cycles, &field("instructions"))?);
        cycles.push(seg.cycles.get().to_string());
    }
    let whole = match route.profile.arbitration {
        Arbitration::RoundRobin => Some(route.computed(&block(&raw.replace(POINT, "|"))?, cache)?),
        _ => None,
    };
    let total = whole.as_ref().map(|w| cx.cycle.time_of(w.cycles, &field("instructions"))).transpose()?;
    optimistic |= whole.as_ref().is_some_and(|w| w.optimistic);
    let all = whole.map_or(
        "their sum (the kernel's bound with its points as barriers holds across relaunches under round-robin arbitration only)".to_string(),
        |w| format!("at most {} cycles (the kernel with its points as barriers)", w.cycles.get()),
    );
    let chosen = match fewest {
        Some(true) => "points proposed for the points budget, the fewest (every segment tested): ",
        Some(false) => {
            "points proposed for the points budget, greedily (each segment grown while it fits; fewest if bounds grow with segments): "
        }
        None => "",
    };
    let words = format!(
        "; under makespan preempt: {chosen}{} segments between its preemption points (^, barriers of the block), each bounded the same way ({} cycles), all together {all}",
        cycles.len(),
        cycles.join(", "),
    );
    Ok(Segmented { segments, total, optimistic, words })
}

/// The words every `wcet_source` resting on `gpu.same_cycle_arrivals = "queue-order"`
/// contains.
pub(crate) const QUEUE_ORDER: &str = "same-cycle arrivals ranked by queue order";

/// For `wcet_source`, where the turnover bound was `used` and left kernels out
/// ([`younger_kernels`]): which, and why.
fn younger_words(cx: &Context, used: bool) -> String {
    let names: Vec<String> = (0..cx.kernels.len()).filter(|&k| used && cx.younger[k]).map(|k| kernel_name(&cx.kernels[k], k)).collect();
    if names.is_empty() {
        return String::new();
    }
    format!(
        "; {QUEUE_ORDER} (gpu.same_cycle_arrivals = \"queue-order\"), one job per kernel: {} enter the queue after it (same priority, released after its launch), so their blocks are younger and not counted beside it",
        names.join(", ")
    )
}

/// For `wcet_source`, where the turnover bound was `used` and left kernels out by an
/// earlier round's responses (`crate::rta::apart`) beyond [`younger_words`]: which.
fn apart_words(cx: &Context, used: bool) -> String {
    let apart = |k: usize| used && cx.apart.get(k) == Some(&true) && !cx.younger[k];
    let names: Vec<String> = (0..cx.kernels.len()).filter(|&k| apart(k)).map(|k| kernel_name(&cx.kernels[k], k)).collect();
    if names.is_empty() {
        return String::new();
    }
    let queue = if cx.profile.queue_order_ties && one_process(cx.kernels.iter().map(|e| e.process.as_deref())) {
        format!(", or entering its queue after it, {QUEUE_ORDER}")
    } else {
        String::new()
    };
    format!(
        "; {APART}: {} (by the release-to-finish windows of the jobs analysed, from an earlier round of this analysis{queue})",
        names.join(", ")
    )
}

/// The words every `wcet_source` leaving kernels out by [`apart_words`] contains.
pub(crate) const APART: &str = "not counted beside it, never on an SM while it is";

/// The name of kernel `i` of the set: its own, or `K<i+1>`.
fn kernel_name(e: &KernelEntry, i: usize) -> String {
    e.name.clone().unwrap_or_else(|| format!("K{}", i + 1))
}

/// Whether the kernels' `process` fields (`None`: not given) name one process at most,
/// so that no time slicing changes who is in the queue (the queue-order rule's premise).
fn one_process<'a>(processes: impl Iterator<Item = Option<&'a str>>) -> bool {
    processes.collect::<std::collections::HashSet<_>>().len() <= 1
}

/// Whether kernel `i` is in a stream with another kernel of the set.
fn shares_stream(kernels: &[KernelEntry], i: usize) -> bool {
    kernels[i].stream.as_ref().is_some_and(|s| kernels.iter().enumerate().any(|(k, e)| k != i && e.stream.as_ref() == Some(s)))
}

/// Per kernel `i` of `kernels`, per kernel `k`: whether every block of `k` is younger
/// than every block of `i`, under `gpu.same_cycle_arrivals = "queue-order"` with
/// oldest-first arbitration, one job per kernel (`single_jobs`) and one process: `k` has
/// `i`'s priority and is released after `r_i + L` (`L` the launch overhead), where `i`
/// has no copy in and shares its stream with no other kernel. All false otherwise.
///
/// Proof. `i`'s job enters its priority's queue at its launch, by `r_i + L` (no stream
/// predecessor to wait for, no copy before it); `k`'s enters the same queue no earlier
/// than `r_k > r_i + L`, so behind `i`'s (FIFO, one queue per priority: rules A1-A2,
/// G1-G4, `docs/rta-model.md`), and none of `k`'s blocks is dispatched before `i`'s
/// last. On an SM a block of `k` thus arrives after a block of `i`, or in the same
/// cycle but dispatched after it: younger under the queue-order rule. Under oldest-first
/// a younger warp is served only where fewer ready warps of older blocks than units
/// remain, so it never delays a ready warp of `i`'s block: the proof of
/// [`crate::model::blocks::turnover_bound_with`] counts only blocks no younger than the
/// block, and `k`'s are not among them. Checked exhaustively on tiny mixes
/// (`tests/it/turnover.rs`, `Rule::QueueOrder`, rule X1).
fn younger_kernels(text: &str, kernels: &[KernelEntry], profile: &Profile, single_jobs: bool) -> Vec<Vec<bool>> {
    let n = kernels.len();
    let none = vec![vec![false; n]; n];
    let one = one_process(kernels.iter().map(|e| e.process.as_deref()));
    if !single_jobs || !profile.queue_order_ties || profile.arbitration != Arbitration::OldestFirst || !one {
        return none;
    }
    let decimal =
        |v: &Option<Spanned<crate::rta::time::Number>>| v.as_ref().map_or(Some(Decimal::ZERO), |v| Decimal::of_toml(text, v, "").ok());
    let Some(releases) = kernels.iter().map(|e| decimal(&e.release)).collect::<Option<Vec<Decimal>>>() else { return none };
    let scale = Scale::fitting(releases.iter().chain([&profile.launch_overhead]));
    let ticks = |d: Decimal| scale.ticks(d, "").ok();
    let Some(r) = releases.into_iter().map(ticks).collect::<Option<Vec<Ticks>>>() else { return none };
    let Some(overhead) = ticks(profile.launch_overhead) else { return none };
    let enters_at_launch = |i: usize| !shares_stream(kernels, i) && decimal(&kernels[i].copy_in).is_some_and(|c| c.digits == 0);
    let priority: Vec<Priority> = kernels.iter().map(|e| e.priority.unwrap_or_default()).collect();
    (0..n)
        .map(|i| {
            let at_launch = enters_at_launch(i);
            (0..n).map(|k| at_launch && k != i && priority[k] == priority[i] && r[k] > r[i].saturating_add(overhead)).collect()
        })
        .collect()
}

/// What the warps beside a block of kernel `i` can hold (`one`: that block, on an SM of
/// `slots` model warps, [`wcet::warp_slots`]) under `sm`:
/// every kernel of the set but the others of `i`'s stream, at most one job's blocks each
/// (one fewer of `i`'s own), as they fit in the SM's other warp slots and block slots;
/// `None` when one of those kernels is given by `wcet` (its warps' instructions are
/// unknown). Every kernel is counted under `sm`, kernel `i`'s SM.
///
/// The kernels [`younger_kernels`] marks are left out too.
///
/// Why the kernels of `i`'s stream are left out: a job enters the queue only once the job
/// before it in its stream has completed (rule G4, `docs/rta-model.md`), so the jobs of
/// one stream run one after another and no block of another kernel of `i`'s stream is
/// resident while a block of `i` is ([`crate::model::blocks::Ahead::of_mix`] counts only blocks resident with
/// it).
fn beside(cx: &Context, i: usize, sm: &SmCounts, (one, slots): (&Program, u64)) -> Option<Beside> {
    let mut neighbours = Vec::with_capacity(cx.set.len());
    let stream = cx.kernels[i].stream.as_ref();
    for (k, (text, e)) in cx.set.iter().zip(cx.kernels).enumerate() {
        if k != i && (stream.is_some_and(|s| e.stream.as_ref() == Some(s)) || cx.younger[k] || cx.apart.get(k) == Some(&true)) {
            continue;
        }
        let p = Program::build(text.as_deref()?, |phase| Instance::from_counts(phase, 1, sm)).ok()?;
        let blocks = e.blocks.max(0) as u64 - u64::from(k == i && e.blocks > 0);
        let warps_per_block = (e.threads_per_block.max(1) as u64).div_ceil(sm.warp_size.max(1) as u64);
        neighbours.push(Neighbour { warps_per_block, blocks, count_l: p.count(Unit::L), count_c: p.count(Unit::C) });
    }
    let room_warps = slots.saturating_sub(one.warps() as u64);
    Some(Beside { neighbours, room_warps, room_blocks: cx.profile.platform.max_blocks_per_sm.saturating_sub(1) })
}

/// The instruction string of a `kernel_file` (read as `makespan import` reads it; the
/// path is relative to the task set named `origin`).
fn kernel_file(e: &KernelEntry, file: &str, task_set: &str, field: &dyn Fn(&str) -> String) -> Result<(String, Stated), InputError> {
    let base = std::path::Path::new(task_set).parent().filter(|_| task_set != "standard input").unwrap_or(std::path::Path::new(""));
    let path = base.join(file);
    let text = read_text(&path).map_err(|err| InputError::new(field("kernel_file"), file, err.reason))?;
    let units = e
        .units
        .as_ref()
        .map(|u| {
            let p = base.join(u);
            crate::import::units::UnitMap::from_toml(&read_text(&p)?, &origin(&p))
        })
        .transpose()?;
    let request = crate::import::Request {
        entry: e.entry.clone(),
        trace: e.trace.unwrap_or(false),
        trips: e.trip.clone().unwrap_or_default().into_iter().collect(),
        units,
        arch: e.arch.clone(),
        warps: 1,
        sm: SmCounts::TX2,
        block_threads: None,
        dynamic_shared_memory: None,
        points_at: e.points_at.clone().unwrap_or_default(),
    };
    let format = crate::import::Format::pick("auto", file, &text)?;
    let imp = crate::import::import(&text, &origin(&path), format, &request).map_err(|mut err| {
        if let Some(all) = crate::import::branches_after(&err, &text, &origin(&path), format, &request) {
            let trips: Vec<String> = all.iter().map(|b| format!("\"{}\" = {}", b.target, b.proposal().to_toml())).collect();
            err.reason = format!(
                "{}; all {} that need one, with proposed counts (a loop's real count is yours): trip = {{ {} }}",
                err.reason,
                all.len(),
                trips.join(", ")
            );
        }
        let f = field(&err.field);
        err.in_field(f)
    })?;
    let p = &imp.provenance;
    let Some(u) = &e.resource_usage else { return Ok((imp.kernel, Stated::new(p.resources, format, None))) };
    let text = read_text(&base.join(u)).map_err(|err| InputError::new(field("resource_usage"), u, err.reason))?;
    let usage = crate::import::resources::over_usage(&text, &p.entry, Default::default())
        .map_err(|reason| InputError::new(field("resource_usage"), u, reason))?;
    Ok((imp.kernel, Stated::new(p.resources, format, Some((usage, u)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_become_the_task_sets_unit_by_its_cycle_time_exactly() {
        // 0.00077 units per cycle (1.3 GHz in us, rounded up).
        let cycle = Cycle { time: Decimal { digits: 77, decimals: 5 }, label: String::new(), missing: None };
        assert_eq!(cycle.time_of(Cycles::new(13), "k").unwrap(), Decimal { digits: 1001, decimals: 5 });
        assert_eq!(cycle.time_of(Cycles::ZERO, "k").unwrap(), Decimal { digits: 0, decimals: 5 });
        assert_eq!(cycle.time_of(Cycles::MAX, "k").unwrap_err().field, "k");
    }
}

#[cfg(test)]
mod younger_tests {
    use super::*;

    /// `younger_kernels` of the task set `kernels` (TOML `[[kernels]]` entries) under a
    /// `[gpu]` table `gpu`, for one job per kernel or not.
    fn younger(gpu: &str, kernels: &str, single_jobs: bool) -> Vec<Vec<bool>> {
        let text = format!("[gpu]\n{gpu}\n{kernels}");
        let file: TaskSetFile = parse_toml(&text, "t").unwrap();
        let profile = file.gpu.clone().unwrap().profile(&text).unwrap();
        younger_kernels(&text, &file.kernels, &profile, single_jobs)
    }

    fn kernel(name: &str, more: &str) -> String {
        format!("[[kernels]]\nname = \"{name}\"\nperiod = 100\nwcet = 1\nblocks = 1\nthreads_per_block = 32\n{more}\n")
    }

    const RULE: &str = "warp_arbitration = \"oldest-first\"\nsame_cycle_arrivals = \"queue-order\"";

    /// A kernel released after another's launch is younger than it, not the reverse; and
    /// only under oldest-first with the queue-order rule, for one job per kernel.
    #[test]
    fn a_kernel_released_after_anothers_launch_is_younger() {
        let set = kernel("A", "") + &kernel("B", "release = 10");
        assert_eq!(younger(RULE, &set, true), vec![vec![false, true], vec![false, false]]);
        let none = vec![vec![false; 2]; 2];
        assert_eq!(younger(RULE, &set, false), none, "a window: later jobs");
        assert_eq!(younger("warp_arbitration = \"oldest-first\"", &set, true), none, "same-cycle arrivals tie");
        assert_eq!(younger("warp_arbitration = \"oldest-first\"\nsame_cycle_arrivals = \"tie\"", &set, true), none);
        assert_eq!(younger("warp_arbitration = \"round-robin\"\nsame_cycle_arrivals = \"queue-order\"", &set, true), none);
    }

    /// Where the kernel's entry is not its launch, or the other may pass it, nothing is
    /// left out.
    #[test]
    fn nothing_is_younger_where_the_entry_or_the_queue_is_open() {
        let none = vec![vec![false; 2]; 2];
        let b = kernel("B", "release = 10");
        // Released exactly at A's latest launch: they may enter together.
        assert_eq!(younger(&format!("{RULE}\nlaunch_overhead = 10"), &(kernel("A", "") + &b), true), none);
        assert!(younger(&format!("{RULE}\nlaunch_overhead = 9"), &(kernel("A", "") + &b), true)[0][1]);
        // A waits for its copy in: its entry is not known here.
        assert_eq!(younger(RULE, &(kernel("A", "copy_in = 1") + &b), true), none);
        // Another priority: its own queue.
        assert_eq!(younger(RULE, &(kernel("A", "") + &kernel("B", "release = 10\npriority = \"high\"")), true), none);
        // Processes share the GPU by time slices.
        let sliced = kernel("A", "process = \"p\"") + &kernel("B", "release = 10\nprocess = \"q\"");
        assert_eq!(younger(&format!("{RULE}\ntime_slice = 5\ncontext_switch = 1"), &sliced, true), none);
        // A shares its stream with C: it may wait for it.
        let streamed = kernel("A", "stream = \"s\"") + &b + &kernel("C", "release = 20\nstream = \"s\"");
        assert_eq!(younger(RULE, &streamed, true)[0], vec![false, false, false]);
        assert_eq!(younger(RULE, &streamed, true)[1], vec![false, false, true], "B does not wait: C enters after it");
    }
}
