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
use crate::rta::workload::{Launch, Priority, Task, Window, Workload, MAX_TOTAL_BLOCKS};
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
    /// Its index in the nominal sequence ([`Sequence::jobs`]).
    pub id: usize,
    /// The job before it in its stream (an index of the nominal sequence), if any: it
    /// enters the GPU's queue only once that one has completed.
    pub after: Option<usize>,
    /// Its stream's priority: which EE queue it enters.
    pub priority: Priority,
    /// Added to its entry by the analysis (after any stream wait), but not past
    /// `blocked_until`: with two priority queues, the low block a high job may wait for
    /// ([`crate::rta::priority`]); else 0.
    pub blocking: Ticks,
    /// The low blocks a high job may wait for are done by then (0 without blocking).
    pub blocked_until: Ticks,
    /// With two priority queues, the low blocks that may still run when a high job
    /// enters (at most so many of each class): when not empty, a list schedule runs the
    /// job's blocks beside them from its entry until its blocking ends, instead of
    /// delaying its entry by `blocking` ([`crate::rta::list::finishes`]). Empty otherwise.
    pub residents: Residents,
    /// In a launch order tried for its free group, the least latest entry of the jobs
    /// after it there ([`crate::rta::ties`]): it entered the queue by then, even when its
    /// stream predecessor's finish bound is later. `Ticks::MAX` otherwise.
    pub entered_by: Ticks,
    /// Time of its copy in (0: none), before the kernel in its stream.
    pub copy_in: Ticks,
    /// Time of its copy out (0: none), after the kernel in its stream.
    pub copy_out: Ticks,
}

impl Job {
    /// Whether it has a copy in or a copy out.
    pub fn copies(&self) -> bool {
        self.copy_in > Ticks::ZERO || self.copy_out > Ticks::ZERO
    }
}

/// Most classes a [`Residents`] holds.
pub const MAX_RESIDENT_CLASSES: usize = 8;

/// Blocks that may occupy the GPU beside a job's blocks: per class of the sequence and
/// block time, at most so many, each started by the job's entry (so ended one block time
/// later), as [`Job::residents`]; at most [`MAX_RESIDENT_CLASSES`] such pairs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Residents {
    counts: [(usize, Ticks, u64); MAX_RESIDENT_CLASSES],
    len: usize,
}

impl Residents {
    /// None.
    pub const NONE: Residents = Residents { counts: [(0, Ticks::ZERO, 0); MAX_RESIDENT_CLASSES], len: 0 };

    /// At most `n` blocks of class `c` and time `C` for each `(c, C, n)` of `counts` (a
    /// pair given twice counts the larger); `None` with more than
    /// [`MAX_RESIDENT_CLASSES`] pairs. Pairs with no block are left out.
    pub fn new(counts: impl IntoIterator<Item = (usize, Ticks, u64)>) -> Option<Residents> {
        counts.into_iter().filter(|&(_, _, n)| n > 0).try_fold(Residents::NONE, |mut r, (c, time, n)| {
            match r.counts[..r.len].iter_mut().find(|(k, t, _)| (*k, *t) == (c, time)) {
                Some((_, _, m)) => *m = (*m).max(n),
                None if r.len < MAX_RESIDENT_CLASSES => {
                    r.counts[r.len] = (c, time, n);
                    r.len += 1;
                }
                None => return None,
            }
            Some(r)
        })
    }

    /// The classes, block times and counts.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Ticks, u64)> + '_ {
        self.counts[..self.len].iter().copied()
    }

    /// Whether it holds no block.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Per class and time the larger count of `self` and `other` (covering either);
    /// `None` with too many pairs.
    pub fn max(&self, other: &Residents) -> Option<Residents> {
        Residents::new(self.iter().chain(other.iter()))
    }
}

/// A block demand in a sequence. `exact` says every block of this class has exactly
/// this demand (not merely at most), which the analysis needs to count exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Class {
    /// The demand (an upper bound of the blocks' demands when not `exact`).
    pub demand: Demand,
    /// Whether every block of the class has exactly `demand`.
    pub exact: bool,
}

impl Class {
    /// The class covering every block of `members` (at least one job): the envelope of
    /// their demands, exact only if they all have one and the same exact class.
    pub fn covering<'a>(members: impl IntoIterator<Item = &'a Job>, classes: &[Class]) -> Class {
        let mut members = members.into_iter();
        let first = classes[members.next().expect("a class covers at least one job").class];
        members.fold(first, |c, j| {
            let other = classes[j.class];
            Class { demand: c.demand.envelope(other.demand), exact: c.exact && other == first }
        })
    }
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
    /// When set, the jobs released at or after this time (the window's end) are in the
    /// sequence only as jobs that may pass one released before it (every job released
    /// by a floor past the window's reach is there): their own finishes are not
    /// reported (`None`: every job's is). See `analysis::with_context_jobs`.
    pub reported_until: Option<Ticks>,
}

impl Sequence {
    /// Whether `j`'s finish is reported (see [`Sequence::reported_until`]).
    pub fn reported(&self, j: &Job) -> bool {
        self.reported_until.is_none_or(|u| j.release < u)
    }
}

/// What fixes the order of tied releases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    sequence_until(w, demands, launch, window, None)
}

/// [`sequence`] with, in a window, every job released before `until` too (when later than
/// the window's end): jobs that may enter the queue ahead of an analysed one.
pub fn sequence_until(
    w: &Workload,
    demands: &[Demand],
    launch: Launch,
    window: Window,
    until: Option<Ticks>,
) -> Result<Sequence, InputError> {
    let order = tie_order(&w.tasks, launch)?;
    let window_end = window_end(w, window)?;
    let end = window_end.map(|e| until.map_or(e, |u| e.max(u)));
    let mut jobs = Vec::new();
    for (i, t) in w.tasks.iter().enumerate() {
        push_jobs(&mut jobs, i, t, w, stream_end(w, i, end))?;
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
    link_streams(&mut jobs, &w.tasks);
    if order == TieOrder::Free {
        check_stream_ties(&jobs, &w.tasks)?;
    }
    let free_ties = free_groups(&jobs, order, &|j: &Job| j.ready);
    let classes = demands.iter().map(|&demand| Class { demand, exact: true }).collect();
    Ok(Sequence { jobs, classes, free_ties, order, window_end, reported_until: None })
}

/// Numbers the jobs (in their nominal order) and links each to the one before it in its
/// stream: a kernel's `stream`, or one of its own.
fn link_streams(jobs: &mut [Job], tasks: &[Task]) {
    let mut last: std::collections::HashMap<(bool, String), usize> = std::collections::HashMap::new();
    for (id, j) in jobs.iter_mut().enumerate() {
        j.id = id;
        let t = &tasks[j.task];
        let key = match &t.stream {
            Some(s) => (true, s.clone()),
            None => (false, j.task.to_string()),
        };
        j.after = last.insert(key, id);
    }
}

/// Per job, the first job of its stream (jobs of one stream share it).
pub fn stream_roots(jobs: &[Job]) -> Vec<usize> {
    let mut root = vec![0; jobs.len()];
    for (i, j) in jobs.iter().enumerate() {
        root[i] = j.after.map_or(i, |a| root[a]);
    }
    root
}

/// With the launch order of tied releases free, two kernels of one stream released at the
/// same time would race into the stream, and which one waits for the other is not
/// known: refused (give `launch_order` or `--file-order`, their order in the stream).
fn check_stream_ties(jobs: &[Job], tasks: &[Task]) -> Result<(), InputError> {
    for j in jobs {
        let Some(a) = j.after else { continue };
        let p = &jobs[a];
        if p.release == j.release && p.task != j.task {
            let stream = tasks[j.task].stream.clone().unwrap_or_default();
            return Err(InputError::new(
                format!("kernels[{}].stream", j.task),
                stream,
                format!(
                    "{:?} and {:?} are launched into this stream at the same time, in an order that is not given: give launch_order on every kernel (or the file order) for their order in the stream",
                    tasks[p.task].name, tasks[j.task].name
                ),
            ));
        }
    }
    Ok(())
}

/// The groups of `jobs` (in nominal order, by release) whose order on the GPU's queue is
/// not fixed: runs in which each job is released no later than the latest time an
/// earlier one of the run may enter the queue (`enters`: its release plus the launch
/// overhead, or later behind its stream). Jobs released together are tied; jobs
/// released apart by less than what may delay the earlier one may swap. A run is free
/// if the launch order of tied releases is free, or if some job of it may enter the
/// queue after its release (then even an order the user fixed for tied releases can
/// change); with no overhead and a fixed order, runs keep their order.
pub fn free_groups(jobs: &[Job], order: TieOrder, enters: &dyn Fn(&Job) -> Ticks) -> Vec<Range<usize>> {
    let mut groups = Vec::new();
    let mut start = 0;
    let mut latest = Ticks::ZERO;
    let mut delayed = false;
    for i in 0..=jobs.len() {
        if i == jobs.len() || (i > start && jobs[i].release > latest) {
            if i - start >= 2 && (order == TieOrder::Free || delayed) {
                groups.push(start..i);
            }
            if i == jobs.len() {
                break;
            }
            (start, latest, delayed) = (i, Ticks::ZERO, false);
        }
        let e = enters(&jobs[i]);
        latest = latest.max(e);
        delayed |= e > jobs[i].release;
    }
    groups
}

fn tie_order(tasks: &[Task], launch: Launch) -> Result<TieOrder, InputError> {
    let given = tasks.iter().filter(|t| t.launch_order.is_some()).count();
    if launch == Launch::FileOrder {
        if given > 0 {
            return Err(InputError::option("file-order", "", "the kernels have launch_order fields; give one or the other"));
        }
        return Ok(TieOrder::FileOrder);
    }
    if given == 0 {
        return Ok(TieOrder::Free);
    }
    if let Some(i) = tasks.iter().position(|t| t.launch_order.is_none()) {
        return Err(InputError::new(format!("kernels[{i}].launch_order"), "", "give launch_order on every kernel or on none"));
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

/// Which stream kernel `i` of `tasks` is in: its named stream, or one of its own (named
/// streams and own ones never equal).
pub(crate) fn stream_of(tasks: &[Task], i: usize) -> (bool, String) {
    tasks[i].stream.clone().map_or((false, i.to_string()), |s| (true, s))
}

/// In a window, whether some job left out of `seq` may pass an analysed one: a job of
/// another stream released no later than that one's latest entry `late[id]` (jobs of one
/// stream never pass each other).
pub fn missing_may_pass(w: &Workload, seq: &Sequence, late: &[Ticks]) -> bool {
    if seq.window_end.is_none() {
        return false;
    }
    (0..w.tasks.len()).any(|i| {
        let t = &w.tasks[i];
        let Some(last) = seq.jobs.iter().filter(|j| j.task == i).map(|j| j.release).max() else { return false };
        let Some(next) = t.period.and_then(|p| last.checked_add(p)) else { return false };
        seq.jobs.iter().any(|j| stream_of(&w.tasks, j.task) != stream_of(&w.tasks, i) && next <= late[j.id])
    })
}

pub(crate) fn window_end(w: &Workload, window: Window) -> Result<Option<Ticks>, InputError> {
    let period =
        |i: usize| w.tasks[i].period.ok_or_else(|| InputError::option("window", "", format!("kernel {:?} has no period", w.tasks[i].name)));
    let last_release = w.tasks.iter().map(|t| t.release).max().unwrap_or(Ticks::ZERO);
    match window {
        Window::OneJob => Ok(None),
        Window::Until(end) => {
            (0..w.tasks.len()).try_for_each(|i| period(i).map(drop))?;
            if end == Ticks::ZERO {
                return Err(InputError::option("window", 0, "must be positive"));
            }
            Ok(Some(end))
        }
        Window::Hyperperiod => {
            let mut h: Ticks = Ticks::new(1);
            for i in 0..w.tasks.len() {
                let p = period(i)?;
                h = p.checked_mul(h / h.gcd(p)).ok_or_else(|| {
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

/// Pushes the jobs of task `i`: its first job, and with a window every later one
/// released before the window's end.
/// The end before which kernel `i`'s jobs are analysed: `end`, or later where a kernel of
/// its stream has a job analysed after it (a kernel's first job is analysed even when
/// released after `end`): every job of the stream released no later than the stream's
/// last analysed job is analysed too, since that job waits for them (rule G4; a cold
/// review's case: `K` every 10 and `I` at 500 in one stream, window 100: `I` was analysed
/// as if alone in its stream, 1 where 4 holds).
fn stream_end(w: &Workload, i: usize, end: Option<Ticks>) -> Option<Ticks> {
    let end = end?;
    let stream = stream_of(&w.tasks, i);
    let last = |k: usize| {
        let (r, p) = (w.tasks[k].release, w.tasks[k].period);
        match p.filter(|p| *p > Ticks::ZERO && r < end) {
            Some(p) => r + Ticks::new((end - r - Ticks::new(1)).get() / p.get() * p.get()),
            None => r,
        }
    };
    let latest = (0..w.tasks.len()).filter(|&k| stream_of(&w.tasks, k) == stream).map(last).max().unwrap_or(Ticks::ZERO);
    Some(end.max(latest.saturating_add(Ticks::new(1))))
}

fn push_jobs(jobs: &mut Vec<Job>, i: usize, t: &Task, w: &Workload, end: Option<Ticks>) -> Result<(), InputError> {
    let wcet = t.wcet.checked_add(w.block_overhead).ok_or_else(|| range_error(w, i, "wcet"))?;
    let mut release = t.release;
    for number in 0.. {
        if jobs.len() as u64 >= MAX_JOBS {
            return Err(too_many(t));
        }
        let ready = release.checked_add(w.launch_overhead).ok_or_else(|| range_error(w, i, "release"))?;
        jobs.push(Job {
            task: i,
            number,
            release,
            ready,
            wcet,
            blocks: t.blocks,
            class: i,
            id: 0,
            after: None,
            priority: t.priority,
            blocking: Ticks::ZERO,
            blocked_until: Ticks::ZERO,
            residents: Residents::NONE,
            entered_by: Ticks::MAX,
            copy_in: t.copy_in,
            copy_out: t.copy_out,
        });
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
        "",
        format!("more than {MAX_JOBS} jobs or {MAX_TOTAL_BLOCKS} blocks in the window (kernel {:?}); give a shorter window", t.name),
    )
}

fn range_error(w: &Workload, i: usize, field: &str) -> InputError {
    InputError::new(
        format!("kernels[{i}].{field}"),
        format!("{:?}", w.tasks[i].name),
        format!(
            "with the other times, finish times could exceed the {} ticks of {} {} the analysis counts",
            Ticks::MAX.get(),
            w.scale.format(Ticks::new(1)),
            w.unit
        ),
    )
}

/// Every finish is at most the latest dispatch time plus the work of all jobs, copies
/// included (one slot and the copy engine running them one after another); refuse inputs
/// where that could overflow.
fn check_range(jobs: &[Job], w: &Workload) -> Result<(), InputError> {
    let mut total = jobs.iter().map(|j| j.ready).max().unwrap_or(Ticks::ZERO);
    for j in jobs {
        total = j.wcet
            .checked_mul(j.blocks as u128)
            .and_then(|work| work.checked_add(j.copy_in)?.checked_add(j.copy_out))
            .and_then(|work| total.checked_add(work))
            .ok_or_else(|| range_error(w, j.task, "wcet"))?;
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A job of one block of 1 tick, released at 0, of kernel `id` (for tests).
    pub(crate) fn job(id: usize, after: Option<usize>) -> Job {
        Job {
            task: id,
            number: 0,
            release: Ticks::ZERO,
            ready: Ticks::ZERO,
            wcet: Ticks::new(1),
            blocks: 1,
            class: 0,
            id,
            after,
            priority: Default::default(),
            blocking: Ticks::ZERO,
            blocked_until: Ticks::ZERO,
            residents: Residents::NONE,
            entered_by: Ticks::MAX,
            copy_in: Ticks::ZERO,
            copy_out: Ticks::ZERO,
        }
    }

    #[test]
    fn gcd_and_lcm() {
        assert_eq!(Ticks::new(12).gcd(Ticks::new(18)), Ticks::new(6));
        assert_eq!(Ticks::new(7).gcd(Ticks::ZERO), Ticks::new(7));
    }
}
