//! Time slicing between processes: kernels launched by different OS processes (CUDA
//! contexts) do not share the EE queue; the GPU runs one process at a time, round robin
//! among those with work, each for a time slice, and switches between them at a cost.
//! [`sliced_finishes`] bounds every job's finish under that sharing for processes whose
//! kernels all go to one stream (the case of a task offloading to the GPU from its own
//! process); [`check_slicing`] refuses what it does not cover.

use crate::error::InputError;
use crate::rta::gpu::Platform;
use crate::rta::jobs::Sequence;
use crate::rta::room;
use crate::rta::time::Ticks;
use crate::rta::workload::{Priority, Workload};

/// The processes of `w`'s kernels, in order of first appearance (`None`: the default
/// process).
pub fn processes(w: &Workload) -> Vec<Option<&str>> {
    let mut seen: Vec<Option<&str>> = Vec::new();
    for t in &w.tasks {
        if !seen.contains(&t.process.as_deref()) {
            seen.push(t.process.as_deref());
        }
    }
    seen
}

/// Whether the kernels of `w` come from two processes or more (then they share the GPU
/// by time slicing).
pub fn sliced(w: &Workload) -> bool {
    processes(w).len() > 1
}

/// Refuses, naming the field, what the time-slicing bound does not cover: no time
/// slice in the GPU profile, a process whose kernels are in more than one stream (they
/// would share the process's EE queue), a high-priority stream, or copies.
pub fn check_slicing(w: &Workload) -> Result<(), InputError> {
    if w.time_slice == 0 {
        return Err(InputError::new(
            "gpu.time_slice",
            "(missing)",
            "kernels of two processes or more share the GPU by time slicing: give the GPU profile's time_slice (and context_switch)",
        ));
    }
    for (i, t) in w.tasks.iter().enumerate() {
        let kernel = format!("kernels[{i}]");
        if t.priority == Priority::High {
            return Err(InputError::new(
                format!("{kernel}.priority"),
                "high",
                "stream priorities are not analysed together with time slicing between processes",
            ));
        }
        if t.copy_in > 0 || t.copy_out > 0 {
            let field = if t.copy_in > 0 { "copy_in" } else { "copy_out" };
            return Err(InputError::new(
                format!("{kernel}.{field}"),
                "set",
                "copies are not analysed together with time slicing between processes",
            ));
        }
        // A stream belongs to one process (CUDA streams are per context).
        if let Some(k) = w.tasks.iter().position(|u| u.stream.is_some() && u.stream == t.stream && u.process != t.process) {
            return Err(InputError::new(
                format!("{kernel}.stream"),
                t.stream.clone().unwrap_or_default(),
                format!("kernels[{k}] is in the same stream from another process; a stream belongs to one process"),
            ));
        }
        // The process's first kernel fixes its stream.
        let first = w.tasks.iter().position(|u| u.process == t.process).unwrap_or(i);
        if first != i && (t.stream.is_none() || t.stream != w.tasks[first].stream) {
            return Err(InputError::new(
                format!("{kernel}.stream"),
                t.stream.clone().unwrap_or_else(|| "(none)".into()),
                format!(
                    "with time slicing, each process's kernels must go to one stream, as kernels[{first}]'s: give them the same stream (or put them in processes of their own)"
                ),
            ));
        }
    }
    Ok(())
}

/// `B`, the longest time a process with work can go without the GPU: every other
/// process's slice once and a switch before each and back,
/// `(N - 1) * time_slice + N * context_switch` for `N` processes.
pub fn blackout(w: &Workload) -> Ticks {
    let n = processes(w).len() as Ticks;
    (n - 1) * w.time_slice + n * w.context_switch
}

/// `E_j`: the time one job takes on a GPU its process has to itself, its kernel alone:
/// `ceil(g / slots) * C` with `slots = #SMs * fit(d)` (each wave of at most `slots`
/// blocks ends within `C` of its start; [`room::fit`] holds in every case the profile
/// leaves open).
pub fn alone(blocks: u64, wcet: Ticks, demand: &crate::rta::gpu::Demand, p: &Platform) -> Ticks {
    let slots = p.sms() * room::fit(p, demand);
    blocks.div_ceil(slots.max(1)) as Ticks * wcet
}

/// Every job's finish under time slicing (processes checked by [`check_slicing`]):
/// `F_j = max(r_j + L, F_pred(j)) + E_j + (floor(E_j / Q) + 1) * B`, `pred(j)` the job
/// before it in its stream, `E_j` from [`alone`], `Q` the time slice, `B` from
/// [`blackout`].
///
/// Proof. Assumptions: the GPU serves the processes with work round robin, each for a
/// slice of `Q` while it has work (a process without work gives the GPU up), a switch
/// takes at most `context_switch`, and a switched-out process's blocks are saved and
/// resumed where they stopped (compute preemption), so that a process's execution is
/// its execution on a GPU of its own with time stopped while it waits. Each process's
/// kernels are in one stream: its jobs run one after another, each alone in its
/// process's EE queue. Job `j` enters by `a = max(r_j + L, F_pred)` (its stream
/// predecessor has completed by `F_pred`, by induction in launch order); from then until
/// it completes its process has work. Its kernel needs at most `E_j` of the process's
/// own GPU time. While the process has work and does not hold the GPU, each other process
/// holds it for at most one slice before the process's turn comes again (round robin),
/// plus the switches: each such wait is at most `B`. Every wait but the first follows a
/// whole slice `Q` of the process's own time in `[a, F_j]` (a slice ends early only when
/// the process runs out of work), so there are at most `floor(E_j / Q) + 1` waits, and
/// `F_j <= a + E_j + (floor(E_j / Q) + 1) * B`.
pub fn sliced_finishes(seq: &Sequence, w: &Workload) -> Vec<Ticks> {
    let b = blackout(w);
    let mut finish: Vec<Ticks> = vec![0; seq.jobs.len()];
    for j in &seq.jobs {
        let start = j.after.map_or(j.ready, |a| j.ready.max(finish[a]));
        let e = alone(j.blocks, j.wcet, &seq.classes[j.class].demand, &w.platform);
        finish[j.id] = start + e + (e / w.time_slice + 1) * b;
    }
    finish
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rta::time::Scale;
    use crate::rta::workload::Task;

    #[test]
    fn the_blackout_counts_every_other_slice_and_the_switches() {
        let tasks = (0..3).map(|i| Task { process: Some(format!("p{i}")), ..Task::given(format!("K{i}"), 100, 1, 1, 64, 0) }).collect();
        let mut w = Workload::new(tasks, Platform::TX2, Scale::default(), "t");
        (w.time_slice, w.context_switch) = (10, 1);
        assert_eq!(blackout(&w), 2 * 10 + 3);
        assert!(check_slicing(&w).is_ok());
        w.time_slice = 0;
        assert_eq!(check_slicing(&w).unwrap_err().field, "gpu.time_slice");
    }
}
