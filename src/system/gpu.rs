//! GPU tasks through the kernel-level RTA ([`crate::rta::analysis`]): every task mapped
//! to a GPU becomes kernels of one TX2 FIFO analysis, and its response is its copies plus
//! its kernels' responses, one after another.
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
//! Every GPU task's kernels are released together at time 0 and launch in any order (the
//! kernel RTA tries every order and reports the worst): a GPU task waits for the
//! kernels of every other GPU task that may be queued before it. The kernels of one GPU
//! task run one after another (one stream), so its kernel time is the *sum* of their
//! responses, each taken from a release at 0 with everything else queued (under the
//! model's assumption that a simultaneous release is the worst case, a later release of
//! the second kernel does not take longer); taking their latest finish instead would be
//! too small when they cannot overlap. That a simultaneous
//! release is the worst case for the TX2's FIFO dispatch is the kernel RTA's model, not a
//! theorem; the report says so. Copies (the task's runnables without ticks, which only
//! move labels between host and device) run before and after the kernels, at the GPU's
//! latencies and frequency.
//!
//! Best case: the copies and the ticks' lower bound for tick-only tasks; a kernel from a
//! side file adds nothing (its best case is not known), which keeps it a lower bound.

use super::cost::{runnable_cycles, runnables, time, Cost};
use super::kernel_time::{KernelClock, KernelTicks};
use super::model::{Ps, System, Task, Unit};
use crate::error::Error;
use crate::rta::analysis::analyse;
use crate::rta::gpu::Platform;
use crate::rta::report::RtaReport;
use crate::rta::time::Ticks;
use crate::rta::workload::{Task as Kernel, Workload};
use serde::Serialize;

/// One GPU task's response.
#[derive(Debug, Clone, Serialize)]
pub struct GpuResponse {
    /// The GPU task.
    pub task: String,
    /// The task whose trigger starts it.
    pub triggered_by: Option<String>,
    /// Its unit.
    pub unit: String,
    /// Kernels analysed for it.
    pub kernels: Vec<String>,
    /// Copies before and after the kernels.
    pub copies: Cost,
    /// Its kernels' time: the sum of their worst responses (kernel RTA), picoseconds.
    pub kernel_response: Ps,
    /// Best and worst response: copies plus kernels.
    pub response: Cost,
    /// Where the kernels come from (`side file` or `ticks as one block per SM`).
    pub source: String,
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
}

/// Analyses the GPU tasks of `sys` (mapped to a GPU unit) with the kernels of `side`
/// (an `rta` workload, if given).
pub fn analyse_gpu(sys: &System, side: Option<&Workload>) -> Result<GpuSide, Error> {
    let gpu_tasks: Vec<(&Task, &Unit)> =
        sys.tasks.iter().filter_map(|t| t.unit.as_deref().and_then(|u| sys.unit(u)).filter(|u| u.gpu).map(|u| (t, u))).collect();
    if gpu_tasks.is_empty() {
        let unclaimed = side.map(|w| w.tasks.iter().map(|k| k.name.clone()).collect()).unwrap_or_default();
        return Ok(GpuSide { tasks: Vec::new(), report: None, unclaimed });
    }
    let clock = side.map(KernelClock::of).transpose()?.unwrap_or(KernelClock::PICOSECONDS);
    // The system's own kernel analysis runs in picoseconds.
    let in_ps = |t: Ticks| clock.onto(KernelClock::PICOSECONDS, KernelTicks(t)).0;
    let platform = side.map_or(Platform::TX2, |w| w.platform);
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut rows = Vec::new();
    for (t, unit) in &gpu_tasks {
        let rs = runnables(sys, &t.pre);
        let (mut copy, mut work) = ((0u128, 0u128), (0u128, 0u128));
        for r in &rs {
            let (l, u) = runnable_cycles(sys, r, unit, &t.name)?;
            let slot = if r.is_copy() { &mut copy } else { &mut work };
            slot.0 = slot.0.saturating_add(l);
            slot.1 = slot.1.saturating_add(u);
        }
        let field = format!("tasks.{}", t.name);
        let copies = time(unit.frequency, copy.0, copy.1, &field)?;
        let work = time(unit.frequency, work.0, work.1, &field)?;
        let mine: Vec<Kernel> = side
            .map(|w| w.tasks.iter().filter(|k| k.name == t.name || k.name.starts_with(&format!("{}/", t.name))).cloned().collect())
            .unwrap_or_default();
        let (names, source, best_kernel) = if mine.is_empty() {
            kernels.push(whole_gpu_kernel(&t.name, work.worst, &platform));
            (
                vec![t.name.clone()],
                format!("ticks on {} as one block per SM, each filling its SM (C = {:.3} ms)", unit.kind, super::model::ms(work.worst)),
                work.best,
            )
        } else {
            let names = mine.iter().map(|k| k.name.clone()).collect();
            for k in mine {
                let period = k.period.map(in_ps);
                kernels.push(Kernel { wcet: in_ps(k.wcet), release: 0, period, deadline: None, launch_order: None, ..k });
            }
            (names, "kernels file".to_string(), 0)
        };
        rows.push(GpuResponse {
            task: t.name.clone(),
            triggered_by: sys.trigger_of(&t.name).map(|x| x.name.clone()),
            unit: unit.name.clone(),
            kernels: names,
            copies,
            kernel_response: 0,
            response: Cost { best: copies.best + best_kernel, worst: 0 },
            source,
        });
    }
    let mut w = Workload::new(kernels, platform, KernelClock::PICOSECONDS.scale(), "ps");
    if let Some(s) = side {
        w.launch_overhead = in_ps(s.launch_overhead);
        w.block_overhead = in_ps(s.block_overhead);
    }
    let report = analyse(&w, false)?;
    let unclaimed = side
        .map(|s| s.tasks.iter().filter(|k| !rows.iter().any(|r| r.kernels.contains(&k.name))).map(|k| k.name.clone()).collect())
        .unwrap_or_default();
    for row in &mut rows {
        row.kernel_response = row
            .kernels
            .iter()
            .filter_map(|k| report.kernels.iter().find(|r| &r.name == k))
            .map(|r| KernelClock::PICOSECONDS.to_ps(KernelTicks(r.response_ticks)))
            .sum();
        row.response.worst = row.copies.worst + row.kernel_response;
    }
    Ok(GpuSide { tasks: rows, report: Some(report), unclaimed })
}

/// A GPU task known only by its ticks: one block per SM, each filling its SM (the most
/// threads of a block and the most shared memory of a block), each taking `c`.
fn whole_gpu_kernel(name: &str, c: Ps, p: &Platform) -> Kernel {
    let sms = (p.max_threads / p.sm_threads.max(1)).max(1);
    let mut k = Kernel::given(name, c.max(1), c.max(1), sms, p.max_threads_per_block, 0);
    k.shared_memory = p.shared_memory_per_block;
    k.deadline = None;
    k.period = None;
    k.wcet_source = "the GPU task's ticks (isolated execution with every SM to itself)".into();
    k
}
