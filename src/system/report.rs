//! The whole system analysis ([`analyse`]) and its report (`makespan system --json`):
//! one table per core, one row per GPU task, one row per chain, each number labelled.

use super::chains::{implicit, let_, Hop, Latencies};
use super::contention::{buses, with_contention, Bus, ContentionUsed, Traffic};
use super::cost::{lines, runnables, Communication};
use super::cpu::{analyse_core, entities, past, response_of, waits, Entity, OffloadMode, Priorities, Response};
use super::gpu::{analyse_gpu, GpuResponse, GpuSide, SharingUsed};
use super::gpu_jobs::{gpu_bounds, GpuBound};
use super::model::{ms, Ps, System, Unit};
use super::reference::{implicit_document, let_document, Reference};
use crate::error::Error;
use crate::rta::report::Verdict;
use crate::rta::workload::Workload;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// What the analysis is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Options {
    /// How labels are communicated: the copy costs in `C` and which chain latencies
    /// give the chains' verdicts (LET chains use implicit copies).
    pub communication: Paradigm,
    /// How offloading tasks wait.
    pub offload: OffloadMode,
    /// How GPU tasks share the GPU.
    pub gpu: super::gpu::GpuOptions,
    /// Whether label accesses pay for memory contention.
    pub contention: super::contention::ContentionMode,
    /// This tool's proven rules, or the GSoC document's where they differ.
    pub reference: Reference,
    /// The longest the CPU analysis may take (wall clock); `None`: no limit. When it is
    /// reached, the tasks not yet analysed get no `R+` (their `blocked_by` says so), the
    /// bounds found stay proven, and the report's `status` is `time_limit`.
    pub time_limit: Option<std::time::Duration>,
}

with_setters!(Options {
    with_communication => communication: Paradigm,
    with_offload => offload: OffloadMode,
    with_gpu => gpu: super::gpu::GpuOptions,
    with_contention => contention: super::contention::ContentionMode,
    with_reference => reference: Reference,
    with_time_limit => time_limit: Option<std::time::Duration>,
});

impl Options {
    /// Reference mode fixes what APP4RTA does not model: no contention, each GPU task
    /// alone on the GPU.
    fn resolved(self) -> Options {
        match self.reference {
            Reference::Proven => self,
            Reference::App4rta => Options {
                contention: super::contention::ContentionMode::Off,
                gpu: super::gpu::GpuOptions { sharing: super::gpu::Sharing::Alone, ..self.gpu },
                ..self
            },
        }
    }
}

/// The communication paradigm of the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Paradigm {
    /// Direct accesses; chain verdicts from the implicit bounds (which hold for direct
    /// reads too in the worst case).
    Direct,
    /// Implicit communication (copy-in, copy-out).
    #[default]
    Implicit,
    /// Logical execution time: copies as implicit; chain verdicts from the LET latencies.
    Let,
}

impl Paradigm {
    fn copies(self) -> Communication {
        match self {
            Paradigm::Direct => Communication::Direct,
            Paradigm::Implicit | Paradigm::Let => Communication::Implicit,
        }
    }
}

/// One core.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct CoreRow {
    /// Name.
    pub unit: String,
    /// Definition (`A57`, `Denver`).
    pub kind: String,
    /// Clock in GHz.
    pub frequency_ghz: f64,
    /// `model` or `rate-monotonic`.
    pub priorities: Priorities,
    /// `sum (C + S) / T`, worst case.
    pub utilization: f64,
    /// Its tasks, highest priority first.
    pub tasks: Vec<Response>,
}

/// How the GPU was shared, for the report.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct GpuSharingRow {
    /// `fifo`, `time-slices` or `alone` (reference mode).
    pub mode: &'static str,
    /// The longest context switch used, ms (time slices only).
    pub context_switch: Option<f64>,
    /// Whether it was given (`false`: 0 was used and the verdict is optimistic).
    pub given: Option<bool>,
}

/// One latency range in ms.
#[derive(Debug, Clone, Copy, Serialize)]
#[non_exhaustive]
pub struct RangeMs {
    /// Lower bound.
    pub best: f64,
    /// Upper bound.
    pub worst: f64,
}

/// A chain's latencies in ms.
#[derive(Debug, Clone, Copy, Serialize)]
#[non_exhaustive]
pub struct LatenciesMs {
    /// Reaction.
    pub reaction: RangeMs,
    /// Initial reaction.
    pub initial_reaction: RangeMs,
    /// Age.
    pub age: RangeMs,
}

/// One chain.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ChainRow {
    /// Name.
    pub name: String,
    /// Its tasks in order.
    pub tasks: Vec<String>,
    /// Required worst-case reaction, ms.
    pub requirement: Option<f64>,
    /// Under implicit communication (`null` when a task has no worst-case response).
    pub implicit: Option<LatenciesMs>,
    /// Under LET (`null` when a task may not finish within its period).
    #[serde(rename = "let")]
    pub let_: Option<LatenciesMs>,
    /// The worst reaction of the analysis' paradigm meets the requirement (`null`
    /// without a requirement; `false` when the latencies are unknown).
    pub meets_requirement: Option<bool>,
    /// Why some latencies are missing.
    pub notes: Vec<String>,
    /// The worst-case hops for the timeline (not serialised): (task, wait, response).
    #[serde(skip)]
    pub worst_hops: Vec<(String, Ps, Ps)>,
}

/// The report of `makespan system`.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct SystemReport {
    /// `direct`, `implicit` or `let`.
    pub communication: Paradigm,
    /// `model`, `sync` or `async`.
    pub offload: OffloadMode,
    /// Per CPU core with tasks, in the model's order.
    pub cores: Vec<CoreRow>,
    /// Per GPU task, with its bounds (`r_worst`, `release_jitter`).
    pub gpu: Vec<GpuResponse>,
    /// The kernel RTA's guarantee for the GPU responses (`exact-monotone`, `envelope`,
    /// `tie-bound`; `null` without GPU tasks).
    pub gpu_bound: Option<crate::rta::report::Bound>,
    /// The kernel RTA's verdict on its C (`proven`, `optimistic`).
    pub gpu_verdict: Option<Verdict>,
    /// The GPU's load: each GPU task's kernels alone (`alone`) over its trigger's
    /// period, summed; above 1 the GPU cannot keep up. `null` without GPU tasks or when
    /// some GPU task has no periodic trigger.
    pub gpu_load: Option<f64>,
    /// How the GPU tasks shared the GPU: `fifo`, or `time-slices` with the
    /// `context_switch` (ms) and whether it was `given`.
    pub gpu_sharing: GpuSharingRow,
    /// Per chain.
    pub chains: Vec<ChainRow>,
    /// Every CPU task meets its deadline and every chain its requirement.
    pub schedulable: bool,
    /// `proven` when every number rests on the stated model only; `optimistic` when a
    /// GPU C is known not to bound its blocks, a context switch was not given, or in
    /// reference mode.
    pub verdict: Verdict,
    /// `proven` (this tool's rules) or `app4rta` (reference mode: the GSoC document's
    /// formulas where they differ; not bounds).
    pub reference: Reference,
    /// Read from the model and left out, and choices made.
    pub warnings: Vec<String>,
    /// What the numbers assume.
    pub assumptions: Vec<String>,
    /// Memory contention: `mode` (`round-robin` or `none`), `why` (when none), and per
    /// unit with tasks the longest wait of one line access (`units[]`: `unit`,
    /// `wait_ns`).
    pub contention: ContentionRow,
    /// `complete`, or `time_limit` when [`Options::time_limit`] left tasks unanalysed
    /// (their `blocked_by` says so; every bound shown is still proven).
    pub status: &'static str,
}

/// A warning per task whose deadline is above its period (analysed as given: a job
/// may then overlap the next, and `R+ > T` is not analysed), naming a task whose period
/// and deadline are the same two values the other way round (the model's deadlines may
/// be swapped).
fn deadlines_above_periods(sys: &System) -> Vec<String> {
    sys.tasks
        .iter()
        .filter_map(|t| Some((t, t.period?, t.deadline?)).filter(|&(_, p, d)| d > p))
        .map(|(t, p, d)| {
            let swapped = sys.tasks.iter().find(|u| u.name != t.name && u.period == Some(d) && u.deadline == Some(p));
            let hint = swapped.map_or(String::new(), |u| {
                format!("; {} has period {:.3} ms and deadline {:.3} ms: the two may be swapped in the model", u.name, ms(d), ms(p))
            });
            format!("task {}: deadline {:.3} ms above its period {:.3} ms, analysed as given{hint}", t.name, ms(d), ms(p))
        })
        .collect()
}

/// The GPU's load: `sum alone / T` over the GPU tasks (`None` without GPU tasks, or
/// when one has no periodic trigger).
fn gpu_load(gpu: &[GpuResponse]) -> Option<f64> {
    if gpu.is_empty() {
        return None;
    }
    gpu.iter().map(|g| g.trigger_period.map(|t| g.alone.get() as f64 / t.get() as f64)).sum()
}

/// Memory contention as used, for the report.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ContentionRow {
    /// `round-robin` or `none`.
    pub mode: &'static str,
    /// Why there is none (`null` when applied).
    pub why: Option<String>,
    /// What one grant of the interconnect moves and how long it holds it (`null` when
    /// none is applied).
    pub grant: Option<String>,
    /// Per unit with tasks: the longest wait of one line access, ns.
    pub units: Vec<UnitWait>,
}

/// One unit's contention wait per line.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct UnitWait {
    /// The unit.
    pub unit: String,
    /// Longest wait of one line access for the interconnect, ns.
    pub wait_ns: f64,
}

fn contention_row(c: &ContentionUsed) -> ContentionRow {
    match c {
        ContentionUsed::RoundRobin(waits, reading) => ContentionRow {
            mode: "round-robin",
            why: None,
            grant: Some(reading.clone()),
            units: waits.iter().map(|(u, w)| UnitWait { unit: u.clone(), wait_ns: w.get() as f64 / 1000.0 }).collect(),
        },
        ContentionUsed::None(why) | ContentionUsed::Ignored(why) => {
            ContentionRow { mode: "none", why: Some(why.clone()), grant: None, units: Vec::new() }
        }
    }
}

/// Analyses `sys` (checked here) with the kernels of `side` for its GPU tasks.
///
/// With time slices, a GPU task's bound may cap another GPU task's share by its jobs'
/// needs, which holds when that task's trigger ends within its period
/// (`super::gpu_sharing::sliced_response`); every GPU task whose trigger the CPU
/// analysis does not prove so loses its cap and the analysis repeats (at most once per
/// GPU task: the set only grows).
///
/// ```
/// use gpu_makespan::system::{self, analyse, OffloadMode, Options, Paradigm};
///
/// let sys = system::read(&std::fs::read_to_string("instances/system/small.toml").unwrap(), "small.toml")?;
/// let opts = Options::default().with_communication(Paradigm::Implicit).with_offload(OffloadMode::Model);
/// let report = analyse(&sys, None, opts)?;
/// for task in report.cores.iter().flat_map(|c| &c.tasks) {
///     // R+ is a proven upper bound on the response time (picoseconds), when it has one.
///     assert!(task.worst.is_none_or(|r| r >= task.entity.c.worst));
/// }
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn analyse(sys: &System, side: Option<&Workload>, opts: Options) -> Result<SystemReport, Error> {
    sys.check()?;
    let opts = opts.resolved();
    let deadline = opts.time_limit.and_then(|d| std::time::Instant::now().checked_add(d));
    let (contended, contention) = with_contention(sys, opts.contention);
    // Without the waits, but with the latencies `with_contention` may raise (an access
    // is never shorter than its line's own grants).
    let plain = &System { units: contended.units.iter().map(|u| Unit { contention: 0, ..u.clone() }).collect(), ..contended.clone() };
    let sys = &contended;
    let mut uncapped: BTreeSet<String> = BTreeSet::new();
    let (gpu, cores, all, bounds) = loop {
        let gpu = analyse_gpu(sys, side, opts.gpu, &uncapped)?;
        let (cores, all) = analyse_cores(sys, plain, (&contention, deadline), &gpu, opts)?;
        // A waiting trigger proven within its period ends its GPU job within it too (its
        // R+ counts the GPU response), so `late` holds exactly the tasks whose cap fails.
        let bounds = gpu_bounds(sys, &gpu, &all);
        let late = late_names(&in_time(&bounds));
        let unproven: Vec<String> = late.into_iter().filter(|n| !uncapped.contains(n)).collect();
        if !unproven.iter().any(|n| gpu.tasks.iter().any(|g| g.capped_by.contains(n))) {
            break (gpu, cores, all, bounds);
        }
        uncapped.extend(unproven);
    };
    let proven = in_time(&bounds);
    let chains: Vec<ChainRow> = sys.chains.iter().map(|c| chain_row(sys, c, (&all, &gpu, &proven), opts)).collect();
    let gpu_rows: Vec<GpuResponse> = gpu.tasks.iter().map(|g| gpu_row(g, &bounds[&g.task])).collect();
    let late = late_names(&proven);
    let schedulable = all.iter().all(|r| r.schedulable) && chains.iter().all(|c| c.meets_requirement != Some(false)) && late.is_empty();
    Ok(SystemReport {
        communication: opts.communication,
        offload: opts.offload,
        cores,
        gpu: gpu_rows,
        gpu_bound: gpu.report.as_ref().map(|r| r.bound),
        gpu_verdict: gpu.report.as_ref().map(|r| r.verdict),
        gpu_load: gpu_load(&gpu.tasks),
        gpu_sharing: match gpu.sharing {
            SharingUsed::Fifo => GpuSharingRow { mode: "fifo", context_switch: None, given: None },
            SharingUsed::Alone => GpuSharingRow { mode: "alone", context_switch: None, given: None },
            SharingUsed::TimeSlices { context_switch, given } => {
                GpuSharingRow { mode: "time-slices", context_switch: Some(ms(context_switch)), given: Some(given) }
            }
        },
        chains,
        schedulable,
        verdict: Verdict::of(gpu.report.iter().map(|r| r.verdict == Verdict::Optimistic).chain([
            gpu.switch_assumed(),
            gpu.sharing == SharingUsed::Alone,
            contention.ignored(),
            opts.reference == Reference::App4rta,
        ])),
        reference: opts.reference,
        warnings: sys
            .warnings
            .iter()
            .cloned()
            .chain(gpu.note.clone())
            .chain(deadlines_above_periods(sys))
            .chain((!late.is_empty()).then(|| {
                format!(
                    "GPU tasks not proven to end within their trigger's period (a waiting trigger without R+, or jobs that may queue up past their period; not schedulable): {}",
                    late.join(", ")
                )
            }))
            .chain(
                (!gpu.unclaimed.is_empty())
                    .then(|| format!("kernels file: {} named after no GPU task of the system; left out", gpu.unclaimed.join(", "))),
            )
            .collect(),
        assumptions: assumptions(&gpu, &contention, opts.reference),
        contention: contention_row(&contention),
        status: if all.iter().any(|r| r.blocked_by.as_deref() == Some(super::cpu::TIME_LIMIT)) { "time_limit" } else { "complete" },
    })
}

/// Most rounds of the interconnect's job-driven bound ([`analyse_cores`]).
const BUS_ROUNDS: usize = 4;

/// Every CPU core's rows, and every entity's response. `sys` has the per-access
/// contention, `plain` none, `used` says which applies. The interconnect's job-driven
/// bound needs the other units' responses: the first round bounds their jobs by their
/// spans only ([`Traffic::jobs`]), each later round also by the responses of the round
/// before, which are proven, so every round's responses are proven; the last is kept
/// (at most [`BUS_ROUNDS`], fewer when a round changes nothing).
fn analyse_cores(
    sys: &System,
    plain: &System,
    (used, deadline): (&ContentionUsed, Option<std::time::Instant>),
    gpu: &GpuSide,
    opts: Options,
) -> Result<(Vec<CoreRow>, Vec<Response>), Error> {
    let ents = entities((sys, plain), gpu, opts.communication.copies(), opts.offload, opts.reference)?;
    let mut known: BTreeMap<String, Ps> = BTreeMap::new();
    for round in 1.. {
        let buses = buses(sys, (used, opts.contention), &|unit| traffic(sys, unit, (&ents, gpu), &known));
        let (cores, all) = cores_once(sys, &ents, (&buses, deadline), opts);
        let now: BTreeMap<String, Ps> = all.iter().filter_map(|r| Some((r.entity.name.clone(), r.worst?))).collect();
        // Every round's bounds are proven: the time limit keeps the last one.
        if now == known || round == BUS_ROUNDS || past(deadline) {
            return Ok((cores, all));
        }
        known = now;
    }
    unreachable!("the loop returns by its last round")
}

/// What `unit` transfers: per task mapped to it, its lines per job, period, span (best
/// response) and, from `known`, its `R+`; for a GPU, per GPU task its runnables' lines,
/// its trigger's period and, when the trigger waits for it, the trigger's `R+`.
fn traffic(sys: &System, unit: &str, (ents, gpu): (&[Entity], &GpuSide), known: &BTreeMap<String, Ps>) -> Vec<Traffic> {
    let mut out: Vec<Traffic> = ents
        .iter()
        .filter(|e| e.unit == unit)
        .map(|e| Traffic { lines: e.lines, period: e.period, span: e.c.best + e.suspension.best, response: known.get(&e.name).copied() })
        .collect();
    for g in gpu.tasks.iter().filter(|g| g.unit == unit) {
        let Some(task) = sys.task(&g.task) else { continue };
        let trigger = g.triggered_by.as_deref().and_then(|t| ents.iter().find(|e| e.name == t));
        let response = trigger.filter(|e| waits(e)).and_then(|e| known.get(&e.name).copied());
        let period = g.trigger_period.or(task.period).unwrap_or(Ps::ZERO);
        out.push(Traffic { lines: lines(sys, &runnables(sys, &task.pre), false), period, span: g.response.best, response });
    }
    out
}

/// One round of [`analyse_cores`]: each core with its bus.
fn cores_once(sys: &System, ents: &[Entity], (buses, deadline): (&BTreeMap<String, Bus>, Option<std::time::Instant>), opts: Options) -> (Vec<CoreRow>, Vec<Response>) {
    let mut cores = Vec::new();
    let mut all: Vec<Response> = Vec::new();
    for unit in sys.units.iter().filter(|u| !u.gpu) {
        let on: Vec<_> = ents.iter().filter(|e| e.unit == unit.name).collect();
        if on.is_empty() {
            continue;
        }
        let (priorities, mut responses) = analyse_core(&on, opts.reference, (buses.get(&unit.name).unwrap_or(&Bus::default()), deadline));
        responses.sort_by_key(|r| r.rank);
        let utilization = responses.iter().map(|r| (r.entity.c.worst + r.entity.suspension.worst).get() as f64 / r.entity.period.get() as f64).sum();
        cores.push(CoreRow {
            unit: unit.name.clone(),
            kind: unit.kind.clone(),
            frequency_ghz: unit.frequency.ghz(),
            priorities,
            utilization,
            tasks: responses.clone(),
        });
        all.extend(responses);
    }
    (cores, all)
}

/// The GPU task's response with its bounds.
fn gpu_row(g: &GpuResponse, bound: &GpuBound) -> GpuResponse {
    GpuResponse { r_worst: bound.worst, release_jitter: bound.jitter, ..g.clone() }
}

/// The hop of a chain task: a CPU entity (by its name or a model task it stands for),
/// or a GPU task (its trigger's period, its response as both C and R: its bound from
/// `proven`, queueing included, none when it is late).
fn hop(name: &str, sys: &System, (all, gpu, proven): (&[Response], &GpuSide, &BTreeMap<String, Option<Ps>>)) -> Option<Hop> {
    if let Some(r) = response_of(all, name) {
        return Some(Hop {
            period: r.entity.period,
            c_best: r.entity.c.best,
            r_best: r.best.unwrap_or(r.entity.c.best),
            r_worst: r.worst,
            c_worst: r.entity.c.worst,
        });
    }
    let g = gpu.tasks.iter().find(|g| g.task == name)?;
    let period = sys.task(name)?.period.or_else(|| sys.trigger_of(name)?.period)?;
    let r_worst = proven.get(name).copied().flatten();
    Some(Hop { period, c_best: g.response.best, r_best: g.response.best, r_worst, c_worst: r_worst.unwrap_or(g.response.worst) })
}

/// Each GPU task's bound when it is proven to end within its period, `None` for the late
/// ones ([`GpuBound::within_period`]): the other GPU tasks' bounds assume it of a
/// waiting trigger's GPU task, and chains need it.
fn in_time(bounds: &BTreeMap<String, GpuBound>) -> BTreeMap<String, Option<Ps>> {
    bounds.iter().map(|(n, b)| (n.clone(), b.worst.filter(|_| b.within_period()))).collect()
}

/// The GPU tasks without a bound within their period, by name.
fn late_names(in_time: &BTreeMap<String, Option<Ps>>) -> Vec<String> {
    in_time.iter().filter(|(_, r)| r.is_none()).map(|(n, _)| n.clone()).collect()
}

fn chain_row(
    sys: &System,
    c: &super::model::Chain,
    found: (&[Response], &GpuSide, &BTreeMap<String, Option<Ps>>),
    opts: Options,
) -> ChainRow {
    let paradigm = opts.communication;
    let mut notes = Vec::new();
    let hops: Vec<Hop> = c
        .tasks
        .iter()
        .filter_map(|t| {
            let h = hop(t, sys, found);
            if h.is_none() {
                notes.push(format!("{t} has no period (a GPU task whose trigger is not periodic)"));
            }
            h
        })
        .collect();
    let complete = hops.len() == c.tasks.len();
    let imp = if opts.reference == Reference::App4rta { implicit_document(&hops) } else { implicit(&hops) }.filter(|_| complete);
    let let_v = if opts.reference == Reference::App4rta { let_document(&hops) } else { let_(&hops) }.filter(|_| complete);
    // The tasks that block the latencies, by name (with the margin they miss by); only
    // when every task has a hop, so that `hops` and `c.tasks` go together.
    let blocking = |late: &dyn Fn(&Hop) -> bool| {
        hops.iter()
            .zip(&c.tasks)
            .filter(|(h, _)| late(h))
            .map(|(h, name)| match h.r_worst {
                Some(r) => format!("{name} (R+ {:.3} ms above its period {:.3} ms)", ms(r), ms(h.period)),
                None => match response_of(found.0, name).and_then(|r| r.blocked_by.as_deref()) {
                    Some(why) => format!("{name} (no R+ within its period {:.3} ms: {why})", ms(h.period)),
                    None => format!("{name} (no R+: not shown to end within its period {:.3} ms)", ms(h.period)),
                },
            })
            .collect::<Vec<String>>()
            .join(", ")
    };
    if imp.is_none() && complete {
        notes.push(format!("no implicit latencies: no worst-case response within its period for {}", blocking(&|h: &Hop| h.r_worst.is_none())));
    }
    if let_v.is_none() && complete {
        notes.push(format!("no LET latencies: may not finish within its period: {}", blocking(&|h: &Hop| h.r_worst.is_none_or(|r| r > h.period))));
    }
    let chosen = if paradigm == Paradigm::Let { let_v } else { imp };
    let meets_requirement = c.requirement.map(|req| chosen.is_some_and(|l| l.reaction.worst <= req));
    let worst_hops = hops
        .iter()
        .zip(&c.tasks)
        .map(|(h, name)| {
            let response = if paradigm == Paradigm::Let { h.period } else { h.r_worst.unwrap_or(Ps::ZERO) };
            (name.clone(), h.period, response)
        })
        .collect();
    ChainRow {
        name: c.name.clone(),
        tasks: c.tasks.clone(),
        requirement: c.requirement.map(ms),
        implicit: imp.map(latencies_ms),
        let_: let_v.map(latencies_ms),
        meets_requirement,
        notes,
        worst_hops,
    }
}

fn latencies_ms(l: Latencies) -> LatenciesMs {
    let r = |x: super::chains::Range| RangeMs { best: ms(x.best), worst: ms(x.worst) };
    LatenciesMs { reaction: r(l.reaction), initial_reaction: r(l.initial_reaction), age: r(l.age) }
}

fn assumptions(gpu: &GpuSide, contention: &ContentionUsed, reference: Reference) -> Vec<String> {
    let memory = match contention {
        ContentionUsed::RoundRobin(_, reading) => format!("memory: the model's round-robin interconnect serves one grant at a time; {reading}; each grant of a unit waits at most one grant of every other unit with tasks, and in a window no more grants than the other units' jobs there can make; no cache effects"),
        ContentionUsed::None(why) => format!("memory: no contention for the interconnect ({why}); label accesses cost their latency only"),
        ContentionUsed::Ignored(why) => format!("memory: contention for the interconnect left out ({why}), so the verdict is optimistic; label accesses cost their latency only"),
    };
    let mut out = vec![
        "CPU cores: partitioned fixed-priority preemptive scheduling, each task pinned to its core; no blocking on shared resources, no OS overhead beyond the model's tasks".to_string(),
        memory,
        "times: cycles over exact frequencies, worst cases rounded up and best cases down to the picosecond".to_string(),
    ];
    if reference == Reference::App4rta {
        out.insert(0, "reference mode (app4rta): the GSoC document's formulas where this tool departs from them (a GPU task on a CPU with its trigger's labels only, the document's LET latencies, no contention, each GPU task alone on the GPU): NOT proven bounds".into());
    }
    match gpu.sharing {
        _ if gpu.tasks.is_empty() => {}
        SharingUsed::Alone => out.push("GPU: each GPU task with the GPU to itself (reference mode; not a bound when GPU tasks overlap)".into()),
        SharingUsed::Fifo => out.push("GPU: one context; each GPU task's kernels one stream of its own, each kernel charged with every other GPU task's kernels released with it, in any launch order (the kernel-level RTA's model of the TX2's FIFO dispatch; a kernel ahead that has partly run counts as one released with it with shorter block times, which that RTA's bound covers); a GPU task's own jobs one after another; no stream priorities; no time slicing".into()),
        SharingUsed::TimeSlices { context_switch, given } => {
            out.push("GPU: each GPU task a context of its own, its kernels one stream; the GPU serves the contexts with work round robin, each for its time slice, and a context without work gives the GPU up; compute preemption (a switched-out context resumes where it stopped); no other GPU context (display, other applications)".into());
            out.push(if given {
                format!("GPU: a context switch takes at most {} ms", ms(context_switch))
            } else {
                "GPU: context switches take no time: none was given (--context-switch, or gpu.context_switch in the kernels file), so the verdict is optimistic".into()
            });
            if gpu.tasks.iter().any(|g| !g.capped_by.is_empty()) {
                out.push("GPU: another GPU task's share is capped by its jobs' needs only where its trigger waits for it and is proven to end within its period".into());
            }
        }
    }
    if gpu.tasks.iter().any(|g| g.source.starts_with("ticks")) {
        out.push("GPU tasks without a kernels file: their ticks are their time with every SM to themselves; they share no SM with another kernel".into());
    }
    out
}
