//! How loaded a periodic task set is, to tell an overload from a limit of the analysis
//! when an analysis is refused (issue 54, item 4).
//!
//! **Overload, proven.** Two loads are each a lower bound on what the worst case needs,
//! every block taking its `C` (which the model allows):
//! * **a resource of the GPU** (threads, registers, shared memory, block slots): kernel
//!   `k` holds `g_k charge_k` of it for `C_k` per period `T_k`, and the GPU has `#SMs cap`;
//!   `sum_k C_k g_k charge_k / (T_k #SMs cap)` at 1 or more cannot be served;
//! * **a stream**: its jobs run one after another (each enters the queue once the one
//!   before it completed), and a job of kernel `k` takes at least its copies plus `C_k`
//!   times its waves `ceil(g_k / (#SMs m_k))`, `m_k` the most blocks of `k` an SM can
//!   hold by threads, shared memory and the block limit alone (whatever the placement);
//!   summed over the stream's kernels per period, 1 or more means its backlog grows
//!   without end (responses without bound).
//!
//! Below 1 in all of them the GPU may keep up, and a refusal is a limit of the analysis.

use crate::rta::gpu::{Demand, Platform};
use crate::rta::jobs::stream_of;
use crate::rta::time::Ticks;
use crate::rta::workload::Task;

/// The largest of the loads above, with what it is (a resource, or a stream named by
/// its first kernel). `None` unless every kernel has a period.
pub fn heaviest(tasks: &[Task], demands: &[Demand], p: &Platform) -> Option<(f64, String)> {
    let periods: Vec<f64> = tasks.iter().map(|t| t.period.map(|t| t.get() as f64)).collect::<Option<_>>()?;
    let sms = p.sms() as f64;
    let resource = |name: &str, cap: u64, charge: &dyn Fn(&Demand) -> u64| {
        let load: f64 = tasks
            .iter()
            .zip(demands)
            .zip(&periods)
            .map(|((t, d), &period)| t.wcet.get() as f64 * t.blocks as f64 * charge(d) as f64 / (period * sms * cap as f64))
            .sum();
        (load, format!("{name} of the GPU"))
    };
    let mut loads = vec![
        resource("the threads", p.sm_threads, &|d| d.threads),
        resource("the registers", p.registers_per_sm, &|d| d.registers),
        resource("the shared memory", p.shared_memory_per_sm, &|d| d.shared_memory),
        resource("the block slots", p.max_blocks_per_sm, &|_| 1),
    ];
    loads.extend(streams(tasks, demands, p, &periods));
    loads.into_iter().max_by(|a, b| a.0.total_cmp(&b.0))
}

/// Each stream's serial load (module documentation), named by its first kernel.
fn streams(tasks: &[Task], demands: &[Demand], p: &Platform, periods: &[f64]) -> Vec<(f64, String)> {
    let stream = |i: usize| stream_of(tasks, i);
    let mut out: Vec<((bool, String), f64, String)> = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        let d = &demands[i];
        let per_sm = [p.sm_threads.checked_div(d.threads), p.shared_memory_per_sm.checked_div(d.shared_memory), Some(p.max_blocks_per_sm)]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(1)
            .max(1);
        let waves = t.blocks.div_ceil(p.sms().saturating_mul(per_sm).max(1));
        let alone: Ticks = t.wcet.saturating_mul(waves as u128).saturating_add(t.copy_in).saturating_add(t.copy_out);
        let load = alone.get() as f64 / periods[i];
        match out.iter_mut().find(|(s, _, _)| *s == stream(i)) {
            Some(entry) => entry.1 += load,
            None => out.push((stream(i), load, format!("the stream of {:?}", t.name))),
        }
    }
    out.into_iter().map(|(_, load, name)| (load, name)).collect()
}
