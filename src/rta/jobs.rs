//! The sequence the GPU works through: every job of every kernel (one per kernel by
//! default; periodic jobs over an analysis window when asked), in launch order, with
//! the overheads of the GPU profile added, and the groups of jobs released together
//! whose launch order the GPU does not fix.
//!
//! Launch order: a job released earlier launches first. Among jobs released at the same
//! time the order is a race on the GPU (each host thread or stream launches its own),
//! unless the user fixes it: `launch_order` on every kernel (a lower value launches
//! first), or the file order ([`Launch::FileOrder`], e.g. one stream). Free groups are
//! analysed over every order, or bounded ([`crate::rta::ties`]).

use crate::error::InputError;
use crate::rta::gpu::Demand;
use crate::rta::time::Ticks;
use crate::rta::workload::{Launch, Task, Window, Workload, MAX_TOTAL_BLOCKS};
use std::ops::Range;

/// One kernel launch: `blocks` blocks of `wcet` ticks each, dispatchable from `ready`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    /// Index of the kernel in the workload's task list.
    pub task: usize,
    /// Job number of that kernel, 0-based.
    pub number: u64,
    /// Release time `r`.
    pub release: Ticks,
    /// Earliest dispatch: the release plus the launch overhead.
    pub ready: Ticks,
    /// Time of one block: `C` plus the block overhead.
    pub wcet: Ticks,
    /// Blocks.
    pub blocks: u64,
    /// Index of the block demand in [`Sequence::classes`].
    pub class: usize,
}

/// A block demand in a sequence. `exact` says every block of this class has exactly
/// this demand (not merely at most), which the analysis needs to count exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Class {
    /// The demand (an upper bound of the blocks' demands when not `exact`).
    pub demand: Demand,
    /// Whether every block of the class has exactly `demand`.
    pub exact: bool,
}

/// Most jobs of all kernels together in one analysis window.
pub const MAX_JOBS: u64 = 1_000_000;

/// The jobs in launch order and what is free about that order.
#[derive(Debug, Clone)]
pub struct Sequence {
    /// Jobs in the nominal launch order (ties by `launch_order`, else by file order).
    pub jobs: Vec<Job>,
    /// Block demands, one per kernel (index = task index).
    pub classes: Vec<Class>,
    /// Ranges of `jobs` released together whose launch order is free (2 or more jobs).
    pub free_ties: Vec<Range<usize>>,
    /// How tied releases are ordered.
    pub order: TieOrder,
    /// End of the analysis window (`None`: one job per kernel).
    pub window_end: Option<Ticks>,
}

/// What fixes the order of tied releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieOrder {
    /// Nothing: tied releases launch in any order (`any-order` in reports).
    #[serde(rename = "any-order")]
    Free,
    /// The file order (`--file-order`).
    FileOrder,
    /// Every kernel's `launch_order`.
    LaunchOrder,
}

impl std::fmt::Display for TieOrder {
    /// The words of the report's `launch` field: `any-order`, `file-order`, `launch-order`.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            TieOrder::Free => "any-order",
            TieOrder::FileOrder => "file-order",
            TieOrder::LaunchOrder => "launch-order",
        })
    }
}

/// Builds the job sequence of `w` (demands from [`crate::rta::workload::demands`]).
/// Refuses a `launch_order` on some kernels but not all or repeated, a window without
/// periods, more than [`MAX_JOBS`] jobs or [`MAX_TOTAL_BLOCKS`] blocks, and finish times
/// that could exceed the tick range.
pub fn sequence(w: &Workload, demands: &[Demand], launch: Launch, window: Window) -> Result<Sequence, InputError> {
    let order = tie_order(&w.tasks, launch)?;
    let window_end = window_end(w, window)?;
    let mut jobs = Vec::new();
    for (i, t) in w.tasks.iter().enumerate() {
        push_jobs(&mut jobs, i, t, w, window_end)?;
    }
    let key = |j: &Job| {
        let t = &w.tasks[j.task];
        let tie = if order == TieOrder::LaunchOrder { t.launch_order.unwrap_or(0) } else { 0 };
        (j.release, tie, j.task, j.number)
    };
    jobs.sort_by_key(key);
    if jobs.iter().map(|j| j.blocks).fold(0u64, u64::saturating_add) > MAX_TOTAL_BLOCKS {
        return Err(too_many(&w.tasks[jobs[0].task]));
    }
    check_range(&jobs, w)?;
    let mut free_ties = Vec::new();
    if order == TieOrder::Free {
        let mut start = 0;
        for i in 1..=jobs.len() {
            if i == jobs.len() || jobs[i].release != jobs[start].release {
                if i - start >= 2 {
                    free_ties.push(start..i);
                }
                start = i;
            }
        }
    }
    let classes = demands.iter().map(|&demand| Class { demand, exact: true }).collect();
    Ok(Sequence { jobs, classes, free_ties, order, window_end })
}

fn tie_order(tasks: &[Task], launch: Launch) -> Result<TieOrder, InputError> {
    let given = tasks.iter().filter(|t| t.launch_order.is_some()).count();
    if launch == Launch::FileOrder {
        if given > 0 {
            return Err(InputError::option("file-order", "set", "the kernels have launch_order fields; give one or the other"));
        }
        return Ok(TieOrder::FileOrder);
    }
    if given == 0 {
        return Ok(TieOrder::Free);
    }
    if let Some(i) = tasks.iter().position(|t| t.launch_order.is_none()) {
        return Err(InputError::new(format!("kernels[{i}].launch_order"), "(missing)", "give launch_order on every kernel or on none"));
    }
    let mut seen = std::collections::HashMap::new();
    for (i, t) in tasks.iter().enumerate() {
        if let Some(j) = seen.insert(t.launch_order, i) {
            return Err(InputError::new(
                format!("kernels[{i}].launch_order"),
                t.launch_order.unwrap_or(0),
                format!("kernels[{j}] has the same launch_order; the order must be total"),
            ));
        }
    }
    Ok(TieOrder::LaunchOrder)
}

fn window_end(w: &Workload, window: Window) -> Result<Option<Ticks>, InputError> {
    let period = |i: usize| {
        w.tasks[i].period.ok_or_else(|| InputError::option("window", "set", format!("kernel {:?} has no period", w.tasks[i].name)))
    };
    let last_release = w.tasks.iter().map(|t| t.release).max().unwrap_or(0);
    match window {
        Window::OneJob => Ok(None),
        Window::Until(end) => {
            (0..w.tasks.len()).try_for_each(|i| period(i).map(drop))?;
            if end == 0 {
                return Err(InputError::option("window", 0, "must be positive"));
            }
            Ok(Some(end))
        }
        Window::Hyperperiod => {
            let mut h: Ticks = 1;
            for i in 0..w.tasks.len() {
                let p = period(i)?;
                h = (h / gcd(h, p)).checked_mul(p).ok_or_else(|| {
                    InputError::option(
                        "window",
                        "hyperperiod",
                        "the least common multiple of the periods is too large; give a window length instead",
                    )
                })?;
            }
            last_release.checked_add(h).map(Some).ok_or_else(|| InputError::option("window", "hyperperiod", "too large"))
        }
    }
}

fn gcd(a: Ticks, b: Ticks) -> Ticks {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Pushes the jobs of task `i`: its first job, and with a window every later one
/// released before the window's end.
fn push_jobs(jobs: &mut Vec<Job>, i: usize, t: &Task, w: &Workload, end: Option<Ticks>) -> Result<(), InputError> {
    let wcet = t.wcet.checked_add(w.block_overhead).ok_or_else(|| range_error(w, i, "wcet"))?;
    let mut release = t.release;
    for number in 0.. {
        if jobs.len() as u64 >= MAX_JOBS {
            return Err(too_many(t));
        }
        let ready = release.checked_add(w.launch_overhead).ok_or_else(|| range_error(w, i, "release"))?;
        jobs.push(Job { task: i, number, release, ready, wcet, blocks: t.blocks, class: i });
        let (Some(e), Some(p)) = (end, t.period) else { break };
        match release.checked_add(p) {
            Some(r) if r < e => release = r,
            _ => break,
        }
    }
    Ok(())
}

fn too_many(t: &Task) -> InputError {
    InputError::option(
        "window",
        "set",
        format!("more than {MAX_JOBS} jobs or {MAX_TOTAL_BLOCKS} blocks in the window (kernel {:?}); give a shorter window", t.name),
    )
}

fn range_error(w: &Workload, i: usize, field: &str) -> InputError {
    InputError::new(
        format!("kernels[{i}].{field}"),
        format!("{:?}", w.tasks[i].name),
        format!(
            "with the other times, finish times could exceed the {} ticks of {} {} the analysis counts",
            Ticks::MAX,
            w.scale.format(1),
            w.unit
        ),
    )
}

/// Every finish is at most the latest dispatch time plus the work of all jobs (one slot
/// runs them one after another); refuse inputs where that could overflow.
fn check_range(jobs: &[Job], w: &Workload) -> Result<(), InputError> {
    let mut total = jobs.iter().map(|j| j.ready).max().unwrap_or(0);
    for j in jobs {
        total = (j.blocks as Ticks)
            .checked_mul(j.wcet)
            .and_then(|work| total.checked_add(work))
            .ok_or_else(|| range_error(w, j.task, "wcet"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcd_and_lcm() {
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(gcd(7, 0), 7);
    }
}
