//! GPU tasks through the kernel-level RTA ([`crate::rta::analysis`]): every task mapped
//! to a GPU becomes kernels of one TX2 analysis, and its response is its copies plus the
//! time from its first kernel's release to its last kernel's finish.
//!
//! * A GPU task whose kernels a side file describes (an `rta` task set whose kernels are
//!   named after the task: `SFM`, or `SFM/...` for several) uses them: blocks, threads,
//!   shared memory, registers, and `wcet`, `instructions` or `kernel_file`, with the C the
//!   kernel RTA computes.
//! * A GPU task without one uses its ticks on the GPU as the time of the whole task when
//!   it has every SM to itself: one block per SM, each filling its SM, each taking the
//!   ticks' upper bound over the GPU's frequency. GPU tasks then never share an SM; the
//!   assumption is printed.
//!
//! A GPU task's kernels are one CUDA stream of its own, in `launch_order` (then file
//! order): they run one after another and never count against each other. How GPU tasks
//! share the GPU ([`Sharing`]):
//!
//! * **Time slices** (the TX2 between CUDA contexts, the WATERS 2019 model's
//!   `TimeSlice_*`): each GPU task is a process of its own; the GPU runs one at a time,
//!   round robin, each for its slice. The kernel RTA's time-sliced bound, with the other
//!   contexts' share capped by what their jobs can need ([`super::gpu_sharing`]).
//! * **FIFO** (one context): each kernel of a GPU task is charged with every other GPU
//!   task's kernels released with it at 0, in any launch order, and the task's kernel
//!   time is the sum over its kernels (`fifo_times`, which says why a simultaneous
//!   release covers every release pattern).
//!
//! Copies (the task's runnables without ticks, which only move labels between host and
//! device) run before and after the kernels, at the GPU's latencies and frequency.
//!
//! Best case: the copies and the ticks' lower bound for tick-only tasks; a kernel from a
//! side file adds nothing (its best case is not known), which keeps it a lower bound.

use super::cost::{runnable_cycles, runnables, time, Cost};
use super::gpu_sharing::{sliced_response, Context};
use super::kernel_time::KernelClock;
use super::model::{serialize_ms, serialize_ms_option, Ps, System, Task, Unit, Wait};
use crate::error::{Error, InputError};
use crate::model::cycles::Cycles;
use crate::rta::analysis::{analyse, Timeline};
use crate::rta::gpu::{Demand, Platform};
use crate::rta::report::RtaReport;
use crate::rta::time::Ticks;
use crate::rta::workload::{demands, Task as Kernel, Timing, Workload};
use serde::Serialize;
use std::collections::BTreeSet;

/// How the GPU tasks share the GPU (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sharing {
    /// Time slices when there are two GPU tasks or more and each has a time slice (from
    /// the model, or the kernels file), else FIFO.
    #[default]
    Auto,
    /// Each GPU task a context of its own; the GPU time-slices between them.
    TimeSlices,
    /// One context: the GPU's FIFO dispatch.
    Fifo,
    /// Each GPU task with the GPU to itself (reference mode: APP4RTA's model; not a bound
    /// when GPU tasks overlap).
    Alone,
}

/// What the GPU side needs beyond the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct GpuOptions {
    /// How the GPU tasks share the GPU.
    pub sharing: Sharing,
    /// The longest switch between two contexts (`None`: the kernels file's
    /// `gpu.context_switch`, else taken as 0 and the result marked optimistic).
    pub context_switch: Option<Ps>,
}

with_setters!(GpuOptions {
    with_sharing => sharing: Sharing,
    with_context_switch => context_switch: Option<Ps>,
});

/// One GPU task's response: times exact in picoseconds, serialised in milliseconds as
/// a row of `makespan system --json` (`gpu[]`: `copies` the worst copies, `r_best` the
/// best response, `r_worst` and `release_jitter` set by the system report).
#[derive(Debug, Clone, Serialize)]
pub struct GpuResponse {
    /// The GPU task.
    pub task: String,
    /// The task whose trigger starts it.
    pub triggered_by: Option<String>,
    /// Its unit.
    pub unit: String,
    /// Kernels analysed for it, in stream order.
    pub kernels: Vec<String>,
    /// Copies before and after the kernels (JSON: the worst, ms).
    #[serde(serialize_with = "worst_ms")]
    pub copies: Cost,
    /// Its kernels' time: from its first kernel's release to its last one's finish
    /// (kernel RTA, and with time slices the capped bound; its kernels are one stream).
    #[serde(serialize_with = "serialize_ms")]
    pub kernel_response: Ps,
    /// Best and worst response: copies plus kernels (JSON: `r_best`, the best, a lower
    /// bound).
    #[serde(rename = "r_best", serialize_with = "best_ms")]
    pub response: Cost,
    /// Worst response of every job from its release (upper bound under the kernel RTA's
    /// model; with a trigger that does not wait, its jobs' queueing behind each other
    /// included); `None` when not proven (its trigger has no `R+`, or its jobs may queue
    /// up without end), and before the system report ([`crate::system::report::analyse`])
    /// sets it.
    #[serde(serialize_with = "serialize_ms_option")]
    pub r_worst: Option<Ps>,
    /// The release jitter of a GPU task nobody waits for (its trigger's `R+ - post- -
    /// pre-`, 0 for a periodic GPU task); `None` when its trigger waits for it or has no
    /// `R+`, and before the system report sets it.
    #[serde(serialize_with = "serialize_ms_option")]
    pub release_jitter: Option<Ps>,
    /// Where the kernels come from (`side file` or `ticks as one block per SM`).
    pub source: String,
    /// Its time slice (time-sliced sharing only).
    #[serde(serialize_with = "serialize_ms_option")]
    pub time_slice: Option<Ps>,
    /// The GPU tasks whose share its bound caps by their jobs' needs (time slices only).
    pub capped_by: Vec<String>,
    /// Its kernels' time with the GPU to themselves (each `ceil(g / slots) C`, summed;
    /// JSON: ms): its share of the GPU's load.
    #[serde(serialize_with = "serialize_ms")]
    pub alone: Ps,
    /// Its trigger's period (`null`: no periodic trigger), for the GPU's load.
    #[serde(skip)]
    pub trigger_period: Option<Ps>,
}

fn worst_ms<S: serde::Serializer>(c: &Cost, s: S) -> Result<S::Ok, S::Error> {
    serialize_ms(&c.worst, s)
}

fn best_ms<S: serde::Serializer>(c: &Cost, s: S) -> Result<S::Ok, S::Error> {
    serialize_ms(&c.best, s)
}

/// How the GPU was shared in an analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SharingUsed {
    /// One context, FIFO dispatch.
    Fifo,
    /// Each GPU task alone (reference mode).
    Alone,
    /// Time slices between the GPU tasks' contexts.
    TimeSlices {
        /// The context switch used, picoseconds.
        context_switch: Ps,
        /// Whether it was given (else 0 was used: optimistic).
        given: bool,
    },
}

/// The GPU side of a system: one row per GPU task and the kernel RTA's report.
#[derive(Debug, Clone)]
pub struct GpuSide {
    /// Per GPU task, in the model's order.
    pub tasks: Vec<GpuResponse>,
    /// The kernel-level analysis (`None` when no task is mapped to a GPU).
    pub report: Option<RtaReport>,
    /// Kernels of the side file that no GPU task claims (left out of the analysis).
    pub unclaimed: Vec<String>,
    /// How the GPU tasks shared the GPU.
    pub sharing: SharingUsed,
    /// Why `Auto` chose FIFO while some GPU task has a time slice (for the warnings).
    pub note: Option<String>,
}

impl GpuSide {
    /// Whether a number rests on a context switch that was not given.
    pub fn switch_assumed(&self) -> bool {
        matches!(self.sharing, SharingUsed::TimeSlices { given: false, .. })
    }
}

/// A GPU task, its unit and its kernels before the analysis.
struct Planned<'a> {
    task: &'a Task,
    /// The task whose trigger starts it.
    trigger: Option<&'a Task>,
    unit: &'a Unit,
    copies: Cost,
    /// Kernel indices in the workload, in stream order.
    kernels: Vec<usize>,
    source: String,
    best_kernel: Ps,
    slice: Option<Ps>,
}

/// Analyses the GPU tasks of `sys` (mapped to a GPU unit) with the kernels of `side`
/// (an `rta` workload, if given). `uncapped`: GPU tasks whose share must not be capped
/// (their trigger is not proven to end within its period).
pub fn analyse_gpu(sys: &System, side: Option<&Workload>, opts: GpuOptions, uncapped: &BTreeSet<String>) -> Result<GpuSide, Error> {
    let gpu_tasks: Vec<(&Task, &Unit)> =
        sys.tasks.iter().filter_map(|t| t.unit.as_deref().and_then(|u| sys.unit(u)).filter(|u| u.gpu).map(|u| (t, u))).collect();
    if gpu_tasks.is_empty() {
        let unclaimed = side.map(|w| w.tasks.iter().map(|k| k.name.clone()).collect()).unwrap_or_default();
        return Ok(GpuSide { tasks: Vec::new(), report: None, unclaimed, sharing: SharingUsed::Fifo, note: None });
    }
    let clock = side.map(KernelClock::of).transpose()?.unwrap_or(KernelClock::PICOSECONDS);
    // The system's own kernel analysis runs in picoseconds.
    let in_ps = |t: Ticks| clock.to_ps(t);
    let platform = side.map_or(Platform::TX2, |w| w.platform);
    let default_slice = side.map(|w| in_ps(w.time_slice)).filter(|&q| q > Ps::ZERO);
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut plans = Vec::new();
    let triggers = sys.triggers();
    for (t, unit) in &gpu_tasks {
        let trigger = triggers.get(t.name.as_str()).and_then(|v| v.first().copied());
        plans.push(plan(sys, (t, trigger), unit, side, &in_ps, &platform, &mut kernels, default_slice)?);
    }
    let (sharing, note) = choose_sharing(&plans, opts, side, &in_ps)?;
    if let SharingUsed::TimeSlices { .. } = sharing {
        for p in &plans {
            refuse_with_slices(side, p, &kernels)?;
            for &k in &p.kernels {
                kernels[k].process = Some(p.task.name.clone());
                kernels[k].time_slice = p.slice.map(ps_ticks);
            }
        }
    }
    let mut w = Workload::new(kernels, platform, KernelClock::PICOSECONDS.scale(), "ps");
    if let Some(s) = side {
        w.launch_overhead = ps_ticks(in_ps(s.launch_overhead));
        w.block_overhead = ps_ticks(in_ps(s.block_overhead));
    }
    if let SharingUsed::TimeSlices { context_switch, .. } = sharing {
        w.context_switch = Some(ps_ticks(context_switch));
        // A GPU task's trigger releases its kernels again: the kernel RTA must not cap
        // another process by the one job it lists (`cap_shares` caps by the periods).
        w.unlisted_jobs = true;
    }
    let (report, times) = match sharing {
        SharingUsed::Fifo => fifo_times(&w, &plans)?,
        SharingUsed::Alone | SharingUsed::TimeSlices { .. } => {
            let r = if sharing == SharingUsed::Alone { alone_each(&w, &plans)? } else { analyse(&w, Timeline::Omitted)? };
            let t = chain_times(&r, &w, &plans);
            (r, t)
        }
    };
    let d = demands(&w)?;
    let mut rows: Vec<GpuResponse> = plans
        .iter()
        .zip(times)
        .map(|(p, kernel_response)| GpuResponse {
            alone: alone_times(p, &w, &d).into_iter().sum(),
            trigger_period: p.trigger.and_then(|t| t.period),
            task: p.task.name.clone(),
            triggered_by: p.trigger.map(|x| x.name.clone()),
            unit: p.unit.name.clone(),
            kernels: p.kernels.iter().map(|&k| w.tasks[k].name.clone()).collect(),
            copies: p.copies,
            kernel_response,
            response: Cost { best: p.copies.best + p.best_kernel, worst: p.copies.worst + kernel_response },
            r_worst: None,
            release_jitter: None,
            source: p.source.clone(),
            time_slice: p.slice.filter(|_| matches!(sharing, SharingUsed::TimeSlices { .. })),
            capped_by: Vec::new(),
        })
        .collect();
    if let SharingUsed::TimeSlices { context_switch, .. } = sharing {
        cap_shares(sys, &plans, (&w, &d), uncapped, context_switch, &mut rows);
    }
    let unclaimed = side
        .map(|s| s.tasks.iter().filter(|k| !rows.iter().any(|r| r.kernels.contains(&k.name))).map(|k| k.name.clone()).collect())
        .unwrap_or_default();
    Ok(GpuSide { tasks: rows, report: Some(report), unclaimed, sharing, note })
}

/// `p` picoseconds in ticks of the system's own kernel analysis (one tick is one
/// picosecond, [`KernelClock::PICOSECONDS`]).
fn ps_ticks(p: Ps) -> Ticks {
    KernelClock::PICOSECONDS.from_ps(p)
}

/// `t` ticks of the system's own kernel analysis in picoseconds.
fn ticks_ps(t: Ticks) -> Ps {
    KernelClock::PICOSECONDS.to_ps(t)
}

/// Each GPU task's kernel time from a report in which its kernels are one stream: from
/// its first kernel's release to its last one's finish.
fn chain_times(report: &RtaReport, w: &Workload, plans: &[Planned]) -> Vec<Ps> {
    let response = responses(report);
    let finish = |k: usize| ticks_ps(w.tasks[k].release) + response.get(w.tasks[k].name.as_str()).copied().unwrap_or(Ps::ZERO);
    plans.iter().map(|p| p.kernels.iter().map(|&k| finish(k)).max().unwrap_or(Ps::ZERO)).collect()
}

/// Each kernel's reported response in `report` (of the system's picosecond clock), by
/// name.
fn responses(report: &RtaReport) -> std::collections::HashMap<&str, Ps> {
    report.kernels.iter().map(|r| (r.name.as_str(), ticks_ps(r.response))).collect()
}

/// One FIFO context: each kernel of a GPU task may find, when it enters the queue, one
/// kernel of every other GPU task's stream ahead of it (a stream has one kernel in the
/// queue at a time), but none of its own task's. So each kernel's response is taken with
/// every other task's kernels released with it at 0, in any launch order (the kernel
/// RTA's worst), and a task's kernel time is the sum over its kernels, which run one
/// after another. Tasks with one kernel share one analysis; each kernel of a task with
/// several gets its own, without its task's other kernels.
///
/// Why a simultaneous release bounds every release pattern (jittered, sporadic, or a
/// stream backlogged with earlier jobs): when `c`'s kernel enters the queue at `x`, each
/// other stream has at most one kernel queued or running (its next waits in the stream);
/// kernels entering later queue behind it and dispatch no block before all of its blocks
/// are dispatched (one FIFO queue: a high stream priority, which would let them pass, is
/// refused by `honour`), and its dispatched blocks run within their `C`. So from `x` on
/// the kernels ahead are those kernels released at `x` with shorter block times (a
/// finished block 0, a running one its remainder) in some launch order with `c`'s last,
/// and the kernel RTA's bound holds for every block time up to `C` and every launch
/// order of tied releases (its `gpu_bound`). `c`'s own earlier jobs are
/// [`super::gpu_jobs`]'.
fn fifo_times(w: &Workload, plans: &[Planned]) -> Result<(RtaReport, Vec<Ps>), Error> {
    let free = |k: usize| Kernel { stream: None, release: Ticks::ZERO, ..w.tasks[k].clone() };
    let all = Workload { tasks: (0..w.tasks.len()).map(free).collect(), ..w.clone() };
    let report = analyse(&all, Timeline::Omitted)?;
    let together = responses(&report);
    let name = |k: usize| w.tasks[k].name.as_str();
    let mut times = Vec::new();
    for (c, p) in plans.iter().enumerate() {
        if let [k] = p.kernels[..] {
            times.push(together.get(name(k)).copied().unwrap_or(Ps::ZERO));
            continue;
        }
        let others: Vec<usize> = plans.iter().enumerate().filter(|&(q, _)| q != c).flat_map(|(_, q)| q.kernels.iter().copied()).collect();
        let mut sum = Ps::ZERO;
        for &k in &p.kernels {
            let tasks = std::iter::once(k).chain(others.iter().copied()).map(free).collect();
            sum += responses(&analyse(&Workload { tasks, ..w.clone() }, Timeline::Omitted)?).get(name(k)).copied().unwrap_or(Ps::ZERO);
        }
        times.push(sum);
    }
    Ok((report, times))
}

/// Each GPU task's kernels analysed alone (reference mode): one report with every
/// kernel's row from its own task's analysis.
fn alone_each(w: &Workload, plans: &[Planned]) -> Result<RtaReport, Error> {
    let mut merged: Option<RtaReport> = None;
    for p in plans {
        let tasks = p.kernels.iter().map(|&k| w.tasks[k].clone()).collect();
        let one = analyse(&Workload { tasks, ..w.clone() }, Timeline::Omitted)?;
        match &mut merged {
            None => merged = Some(one),
            Some(m) => {
                m.verdict =
                    crate::rta::report::Verdict::of([m.verdict, one.verdict].iter().map(|v| *v == crate::rta::report::Verdict::Optimistic));
                m.kernels.extend(one.kernels);
            }
        }
    }
    merged.ok_or_else(|| InputError::new("tasks", "", "no GPU task").into())
}

/// One GPU task's copies and kernels (added to `kernels`, in stream order, each in the
/// task's stream and released a picosecond after the one before it).
#[allow(clippy::too_many_arguments)]
fn plan<'a>(
    sys: &System,
    (t, trigger): (&'a Task, Option<&'a Task>),
    unit: &'a Unit,
    side: Option<&Workload>,
    in_ps: &dyn Fn(Ticks) -> Ps,
    platform: &Platform,
    kernels: &mut Vec<Kernel>,
    default_slice: Option<Ps>,
) -> Result<Planned<'a>, Error> {
    let rs = runnables(sys, &t.pre);
    let (mut copy, mut work) = ((Cycles::ZERO, Cycles::ZERO), (Cycles::ZERO, Cycles::ZERO));
    for r in &rs {
        let (l, u) = runnable_cycles(sys, r, unit, &t.name)?;
        let slot = if r.is_copy() { &mut copy } else { &mut work };
        slot.0 = slot.0.saturating_add(l);
        slot.1 = slot.1.saturating_add(u);
    }
    let field = format!("tasks.{}", t.name);
    let copies = time(unit.frequency, copy.0, copy.1, &field)?;
    let work = time(unit.frequency, work.0, work.1, &field)?;
    let mut mine: Vec<(usize, &Kernel)> = side
        .map(|w| w.tasks.iter().enumerate().filter(|(_, k)| k.name == t.name || k.name.starts_with(&format!("{}/", t.name))).collect())
        .unwrap_or_default();
    let mut slice = t.time_slice;
    let first = kernels.len();
    let (source, best_kernel) = if mine.is_empty() {
        if rs.is_empty() {
            return Err(InputError::new(
                format!("tasks.{}.runnables", t.name),
                "[]",
                "the GPU task calls no runnable and the kernels file names no kernel after it: nothing to analyse",
            )
            .into());
        }
        kernels.push(whole_gpu_kernel(&t.name, work.worst, platform));
        (format!("ticks on {} as one block per SM, each filling its SM (C = {:.3} ms)", unit.kind, super::model::ms(work.worst)), work.best)
    } else {
        // Stream order: launch_order, then file order.
        mine.sort_by_key(|&(i, k)| (k.launch_order.unwrap_or(0), i));
        let trigger_period = trigger.and_then(|x| x.period);
        for &(i, k) in &mine {
            honour(i, k, trigger_period, in_ps)?;
            if let Some(q) = k.time_slice.map(in_ps) {
                match slice {
                    Some(model) if model != q => {
                        return Err(InputError::new(
                            format!("kernels[{i}].time_slice"),
                            format!("{} ms", super::model::ms(q)),
                            format!("the model gives {} a time slice of {} ms", t.name, super::model::ms(model)),
                        )
                        .into())
                    }
                    _ => slice = Some(q),
                }
            }
            let period = None;
            kernels.push(Kernel {
                wcet: ps_ticks(in_ps(k.wcet)),
                release: Ticks::ZERO,
                period,
                deadline: None,
                launch_order: None,
                time_slice: None,
                ..k.clone()
            });
        }
        ("kernels file".to_string(), Ps::ZERO)
    };
    for (n, k) in kernels[first..].iter_mut().enumerate() {
        k.stream = Some(t.name.clone());
        k.release = Ticks::new(n as u128);
    }
    Ok(Planned {
        task: t,
        trigger,
        unit,
        copies,
        kernels: (first..kernels.len()).collect(),
        source,
        best_kernel,
        slice: slice.or(default_slice),
    })
}

/// A kernels file's fields that the system sets itself are refused when they say
/// otherwise: `release` (the trigger releases the GPU task), `period` (its trigger's),
/// `deadline` (the offloading task's deadline is checked), `stream` and `process` (each
/// GPU task is one stream, and with time slices one context, of its own); and a high
/// stream `priority`, which the FIFO bound does not cover.
fn honour(i: usize, k: &Kernel, trigger_period: Option<Ps>, in_ps: &dyn Fn(Ticks) -> Ps) -> Result<(), InputError> {
    let field = |f: &str| format!("kernels[{i}].{f}");
    let ms = |t: Ticks| format!("{} ms", super::model::ms(in_ps(t)));
    if k.release != Ticks::ZERO {
        return Err(InputError::new(field("release"), ms(k.release), "a GPU task's kernels are released by its trigger; give no release"));
    }
    if let Some(p) = k.period {
        if trigger_period != Some(in_ps(p)) {
            let why = trigger_period.map_or("the GPU task has no periodic trigger; give no period".to_string(), |t| {
                format!("the GPU task's period is its trigger's, {} ms; give that or none", super::model::ms(t))
            });
            return Err(InputError::new(field("period"), ms(p), why));
        }
    }
    if k.deadline.is_some() && k.deadline != k.period {
        return Err(InputError::new(
            field("deadline"),
            ms(k.deadline.unwrap_or(Ticks::ZERO)),
            "the offloading task's deadline is checked, not a kernel's; give none",
        ));
    }
    if let Some(s) = &k.stream {
        return Err(InputError::new(
            field("stream"),
            s,
            "a GPU task's kernels are one stream of its own (in launch_order); give no stream",
        ));
    }
    if let Some(p) = &k.process {
        return Err(InputError::new(field("process"), p, "each GPU task is a context of its own; give no process"));
    }
    if k.priority == crate::rta::workload::Priority::High {
        return Err(InputError::new(
            field("priority"),
            "high",
            "a high-priority stream's later jobs can pass another GPU task's queued kernel again and again, which the system's bound (one kernel of every other stream ahead) does not count; not modelled",
        ));
    }
    Ok(())
}

/// Which sharing applies, and the context switch with time slices.
fn choose_sharing(
    plans: &[Planned],
    opts: GpuOptions,
    side: Option<&Workload>,
    in_ps: &dyn Fn(Ticks) -> Ps,
) -> Result<(SharingUsed, Option<String>), InputError> {
    let missing: Vec<&str> = plans.iter().filter(|p| p.slice.is_none()).map(|p| p.task.name.as_str()).collect();
    let sliced = match opts.sharing {
        Sharing::Fifo => false,
        Sharing::Alone => return Ok((SharingUsed::Alone, None)),
        Sharing::TimeSlices => {
            if let Some(name) = missing.first() {
                return Err(InputError::new(
                    format!("tasks.{name}.time_slice"),
                    "",
                    "time-sliced sharing needs each GPU task's time slice (the model's TimeSlice_<task>, time_slice in the TOML form, or the kernels file's gpu.time_slice)",
                ));
            }
            true
        }
        Sharing::Auto => plans.len() > 1 && missing.is_empty(),
    };
    let note = (opts.sharing == Sharing::Auto && !sliced && plans.len() > 1 && missing.len() < plans.len())
        .then(|| format!("GPU: analysed as one FIFO context: {} has no time slice", missing.join(", ")));
    if !sliced {
        let unused = opts
            .context_switch
            .map(|_| "GPU: the context switch time given is not used (the GPU tasks share one FIFO context)".to_string());
        let note = match (note, unused) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        };
        return Ok((SharingUsed::Fifo, note));
    }
    let from_file = side.and_then(|w| w.context_switch).map(in_ps);
    let given = opts.context_switch.or(from_file);
    Ok((SharingUsed::TimeSlices { context_switch: given.unwrap_or(Ps::ZERO), given: given.is_some() }, note))
}

/// With time slices, what the kernel RTA does not analyse together with them is refused,
/// naming the kernels file's field.
fn refuse_with_slices(side: Option<&Workload>, p: &Planned, kernels: &[Kernel]) -> Result<(), InputError> {
    let Some(w) = side else { return Ok(()) };
    for &k in &p.kernels {
        if let Some(i) = w.tasks.iter().position(|t| t.name == kernels[k].name) {
            crate::rta::slicing::refuse_unsliced_kernel(&w.tasks[i], &format!("kernels[{i}]"), w.scale)?;
        }
    }
    Ok(())
}

/// With time slices: each GPU task's kernel time is the least of the kernel RTA's bound
/// and [`sliced_response`], which caps another task's share by its jobs' needs when its
/// trigger is periodic, waits for it, and is not in `uncapped`.
fn cap_shares(
    sys: &System,
    plans: &[Planned],
    (w, d): (&Workload, &[Demand]),
    uncapped: &BTreeSet<String>,
    switch: Ps,
    rows: &mut [GpuResponse],
) {
    let contexts: Vec<Context> = plans
        .iter()
        .map(|p| {
            let alone = alone_times(p, w, d);
            let waiting = p.trigger.filter(|t| t.offload.as_ref().is_some_and(|o| o.wait != Wait::None));
            let period = waiting.and_then(|t| t.period).filter(|_| !uncapped.contains(&p.task.name));
            let one_job = waiting.is_some_and(|t| p.copies.best > Ps::ZERO || between_jobs(sys, t) > Ps::ZERO);
            Context { alone, slice: p.slice.unwrap_or(Ps::new(1)), period, one_job }
        })
        .collect();
    for (c, row) in rows.iter_mut().enumerate() {
        let capped = sliced_response(&contexts, c, ticks_ps(w.launch_overhead), switch);
        if capped < row.kernel_response {
            row.kernel_response = capped;
            row.response.worst = row.copies.worst + capped;
            row.capped_by = contexts
                .iter()
                .zip(plans)
                .enumerate()
                .filter(|&(p, (x, _))| p != c && x.period.is_some())
                .map(|(_, (_, q))| q.task.name.clone())
                .collect();
        }
    }
}

/// The least time a trigger needs on its core between the end of one of its GPU jobs and
/// the offload of the next: its pre runnables' best case, which run after its previous
/// job ended and before the offload (zero when they cannot be costed). Not its post
/// runnables: an AMALTHEA task's calls between the trigger and the wait are read as
/// post, and those run while the GPU job does (a cold review's counterexample).
fn between_jobs(sys: &System, trigger: &Task) -> Ps {
    let Some(unit) = trigger.unit.as_deref().and_then(|u| sys.unit(u)) else { return Ps::ZERO };
    super::cost::cost(sys, &runnables(sys, &trigger.pre), unit, &trigger.name, (Cycles::ZERO, Cycles::ZERO)).map_or(Ps::ZERO, |c| c.best)
}

/// Each kernel's time of `p` with the GPU to itself (`ceil(g / slots) C`, with the block
/// overhead; `d` the workload's demands).
fn alone_times(p: &Planned, w: &Workload, d: &[Demand]) -> Vec<Ps> {
    p.kernels.iter().map(|&k| ticks_ps(crate::rta::slicing::alone(w.tasks[k].blocks, w.tasks[k].wcet + w.block_overhead, &d[k], &w.platform))).collect()
}

/// A GPU task known only by its ticks: one block per SM, each filling its SM (the most
/// threads of a block and the most shared memory of a block), each taking `c`.
fn whole_gpu_kernel(name: &str, c: Ps, p: &Platform) -> Kernel {
    let sms = (p.max_threads / p.sm_threads.max(1)).max(1);
    let mut k = Kernel::given(name, Timing { period: ps_ticks(c.max(Ps::new(1))), wcet: ps_ticks(c.max(Ps::new(1))), release: Ticks::ZERO }, sms, p.max_threads_per_block);
    k.shared_memory = p.shared_memory_per_block;
    k.deadline = None;
    k.period = None;
    k.wcet_source = "the GPU task's ticks (isolated execution with every SM to itself)".into();
    k
}
