//! Kernel-level response-time analysis of the Jetson TX2 GPU scheduler (the thesis
//! chapter's Algorithm 2, with the corrections listed in `docs/rta-model.md`),
//! on a per-SM platform model ([`crate::rta::gpu`]) with exact time arithmetic
//! ([`crate::rta::time`]).
//!
//! Model (rules of Amert et al., RTSS 2017, for the TX2): kernels launch in release
//! order; only the head kernel's blocks dispatch (rule X1), in order, each as soon as
//! some SM has room for it (threads, resident blocks, shared memory, registers); a
//! kernel released at `r_i` dispatches no block before `r_i`. `f_i` is the finish of its
//! last block, `R_i = f_i - r_i`. Each kernel is one job.
//!
//! **Which response is reported, and why it is safe.** `C_i` bounds a block's time, so
//! the reported `f_i` must hold for every block time up to `C_i` and (with mixed block
//! demands) for every choice of SM. The report uses a list schedule with a slot
//! threshold `g_i` per kernel ([`slot_thresholds`], [`simulate_slots`]): a block of
//! kernel `i` starts at the first time, not before its release nor its predecessor's
//! start, when fewer than `g_i` blocks run. `g_i` is chosen so that whenever fewer than
//! `g_i` blocks run, some SM has room for a block of `i`, whatever SMs the running
//! blocks went to.
//! 1. *It bounds the real GPU.* By induction over blocks in dispatch order: if every
//!    earlier real block started no later than in the list schedule, it also ends no
//!    later (its time is at most `C`), so at any time at most as many real blocks run.
//!    The real block can start as soon as its predecessor has started, it is released
//!    and some SM has room, which holds at the list schedule's start (fewer than `g_i`
//!    blocks run); so it starts no later.
//! 2. *It is monotone.* The start of block `k` is `max(r_k, s_(k-1), g_k-th largest end
//!    among earlier blocks)`, a non-decreasing function of earlier ends, so shorter
//!    blocks never make anything later.
//!
//! When every kernel has the same demand `d`, every `g_i = #SMs * fit(d)` and the list
//! schedule *is* the GPU's schedule (SMs are interchangeable): the reported response is
//! exact for `C` and, by 2, safe for shorter blocks. With mixed demands it is a safe
//! bound (by 1 and 2) that may be pessimistic. `bound` in the report says which. A
//! per-SM simulation of the dispatch rules ([`simulate_sms`]) gives `simulated_finish`
//! and is checked against it.
//!
//! With one demand, [`list_schedule`] (the chapter's Algorithm 2 with the steps its
//! text implies), [`simulate_slots`] and [`closed_form_equal_c`] (the corrected special
//! case) compute the same schedule three ways and are tested against each other.

use crate::error::{Error, Inconsistency, InputError};
use crate::rta::gpu::{Capacity, Demand, Platform};
use crate::rta::time::{Scale, Ticks};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// One kernel as the analysis sees it (`C` already known), times in ticks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Task {
    /// Name for reports.
    pub name: String,
    /// Relative deadline (the period of a task-set file), if any.
    pub deadline: Option<Ticks>,
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
    /// `r_i`: release time.
    pub release: Ticks,
    /// Where `C_i` comes from and what it rests on.
    pub wcet_source: String,
}

impl Task {
    /// A task with `C_i` given directly and no shared memory or registers declared.
    pub fn given(name: impl Into<String>, deadline: Ticks, wcet: Ticks, blocks: u64, threads_per_block: u64, release: Ticks) -> Task {
        Task {
            name: name.into(),
            deadline: Some(deadline),
            wcet,
            blocks,
            threads_per_block,
            shared_memory: 0,
            registers_per_thread: 0,
            release,
            wcet_source: "given (wcet)".into(),
        }
    }
}

/// Everything an analysis needs: tasks (in the order given), the GPU, and the time base.
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
}

/// One block in a timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BlockRun {
    /// Index of the kernel in launch order.
    pub kernel: usize,
    /// Slot (list schedule) or SM (per-SM simulation), 0-based.
    pub slot: usize,
    /// Dispatch time.
    pub start: Ticks,
    /// Completion time.
    pub end: Ticks,
}

/// The indices of `tasks` in launch order: on the GPU a kernel released earlier
/// launches first, whatever order a file lists them in (stable on equal release times).
pub fn launch_order(tasks: &[Task]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|&i| tasks[i].release);
    order
}

/// The chapter's Algorithm 2 on `g_max` slots, tasks in the given order, with the steps
/// its text and example rely on: the pair taken by `min(h)` is removed from `h`, pairs
/// at equal times merge, no `(t, 0)` pairs, and (added) a kernel does not dispatch
/// before its release. `h` maps a time to the number of slots that become free then.
/// Returns `f_i` per task.
pub fn list_schedule(tasks: &[Task], g_max: u64) -> Vec<Ticks> {
    let mut h: BTreeMap<Ticks, u64> = BTreeMap::new();
    let (mut t_a, mut g_f) = (0, g_max);
    let mut out = Vec::with_capacity(tasks.len());
    for k in tasks {
        if k.release > t_a {
            t_a = k.release;
            // Slots freed up to the release are free at t_a.
            while let Some(entry) = h.first_entry() {
                if *entry.key() > t_a {
                    break;
                }
                g_f += entry.remove();
            }
        }
        let mut left = k.blocks;
        loop {
            if g_f == 0 {
                let (t, n) = h.pop_first().expect("occupied slots are tracked in h");
                t_a = t_a.max(t);
                g_f = n;
            }
            let now = left.min(g_f);
            *h.entry(t_a + k.wcet).or_default() += now;
            g_f -= now;
            left -= now;
            if left == 0 {
                out.push(t_a + k.wcet);
                break;
            }
        }
    }
    out
}

/// The list schedule with a slot threshold per task: each block, in the given order,
/// starts at the first time, not before its kernel's release nor before the previous
/// block's start, when fewer than `slots[k]` earlier blocks are still running. With
/// every threshold `g` this is the FIFO schedule of `g` identical slots (the plain
/// simulation of Algorithm 2's model). Returns `f_i` per task and, with `timeline`, the
/// blocks (each in the lane that freed earliest).
pub fn simulate_slots(tasks: &[Task], slots: &[u64], timeline: bool) -> (Vec<Ticks>, Vec<BlockRun>) {
    let n_lanes = slots.iter().copied().max().unwrap_or(1) as usize;
    let mut lanes: BinaryHeap<Reverse<(Ticks, usize)>> =
        if timeline { (0..n_lanes).map(|l| Reverse((0, l))).collect() } else { BinaryHeap::new() };
    let mut ends: BinaryHeap<Reverse<Ticks>> = BinaryHeap::new();
    let (mut runs, mut out, mut last) = (Vec::new(), Vec::with_capacity(tasks.len()), 0);
    let drop_until = |t: Ticks, ends: &mut BinaryHeap<Reverse<Ticks>>| {
        while ends.peek().is_some_and(|&Reverse(e)| e <= t) {
            ends.pop();
        }
    };
    for (ki, k) in tasks.iter().enumerate() {
        let mut finish = 0;
        for _ in 0..k.blocks {
            let mut t = k.release.max(last);
            drop_until(t, &mut ends);
            while ends.len() as u64 >= slots[ki] {
                let Reverse(e) = ends.pop().expect("non-empty");
                t = t.max(e);
                drop_until(t, &mut ends);
            }
            let end = t + k.wcet;
            ends.push(Reverse(end));
            last = t;
            finish = finish.max(end);
            if timeline {
                let Reverse((free, lane)) = lanes.pop().expect("one lane per slot");
                debug_assert!(free <= t, "fewer running blocks than lanes");
                lanes.push(Reverse((end, lane)));
                runs.push(BlockRun { kernel: ki, slot: lane, start: t, end });
            }
        }
        out.push(finish);
    }
    (out, runs)
}

/// The slot threshold of each task (in launch order) for the safe list schedule:
/// `#SMs * k_i` with `k_i = min(max_blocks_per_sm, 1 + min_r floor((cap_r - d_i,r) / E_i,r))`,
/// where `E_i` is the envelope of the demands of tasks `0..=i` (the only blocks that can
/// run when a block of task `i` dispatches). When fewer than `#SMs * k_i` blocks run,
/// some SM runs at most `k_i - 1`, each using at most `E_i`, so a block of task `i`
/// fits there. With one demand `d` this is `#SMs * fit(d)`.
pub fn slot_thresholds(demands: &[Demand], platform: &Platform) -> Vec<u64> {
    let cap = platform.capacity();
    let mut envelope = Demand::default();
    demands
        .iter()
        .map(|d| {
            envelope = envelope.envelope(*d);
            let room = |c: u64, need: u64, e: u64| (c - need).checked_div(e).map_or(u64::MAX, |m| 1 + m);
            let k = cap
                .blocks
                .min(room(cap.threads, d.threads, envelope.threads))
                .min(room(cap.shared_memory, d.shared_memory, envelope.shared_memory))
                .min(room(cap.registers, d.registers, envelope.registers));
            platform.sms() * k
        })
        .collect()
}

/// The dispatch rules on the real SMs, tasks in the given (launch) order: the head
/// kernel's next block goes, as soon as possible and not before its release or the
/// previous dispatch, to an SM with room for it; `choose` picks among the SMs with room
/// (their indices, increasing); `duration(kernel, block)` is the block's time (at most
/// `C`). Returns `f_i` per task.
pub fn simulate_sms(
    tasks: &[Task],
    demands: &[Demand],
    platform: &Platform,
    duration: &mut dyn FnMut(usize, u64) -> Ticks,
    choose: &mut dyn FnMut(&[usize], &[Capacity]) -> usize,
) -> Vec<Ticks> {
    let mut free = vec![platform.capacity(); platform.sms() as usize];
    let mut running: BinaryHeap<Reverse<(Ticks, usize, usize)>> = BinaryHeap::new();
    let (mut t, mut out, mut room) = (0, Vec::with_capacity(tasks.len()), Vec::new());
    let complete = |until: Ticks, running: &mut BinaryHeap<Reverse<(Ticks, usize, usize)>>, free: &mut [Capacity]| {
        while let Some(&Reverse((end, sm, k))) = running.peek() {
            if end > until {
                break;
            }
            running.pop();
            free[sm].give(&demands[k]);
        }
    };
    for (ki, k) in tasks.iter().enumerate() {
        t = t.max(k.release);
        complete(t, &mut running, &mut free);
        let mut finish = 0;
        for b in 0..k.blocks {
            loop {
                room.clear();
                room.extend((0..free.len()).filter(|&s| free[s].fits(&demands[ki])));
                if !room.is_empty() {
                    break;
                }
                let Reverse((end, _, _)) = *running.peek().expect("a block that fits an empty SM waits only for running blocks");
                t = t.max(end);
                complete(t, &mut running, &mut free);
            }
            let sm = choose(&room, &free);
            free[sm].take(&demands[ki]);
            let end = t + duration(ki, b);
            running.push(Reverse((end, sm, ki)));
            finish = finish.max(end);
        }
        out.push(finish);
    }
    out
}

/// The nominal SM choice: the SM with the most free threads, the lowest index on ties.
pub fn most_free_threads(room: &[usize], free: &[Capacity]) -> usize {
    *room.iter().max_by_key(|&&s| (free[s].threads, Reverse(s))).expect("called with at least one SM")
}

/// The chapter's special case (all kernels released at 0 with the same `C`), corrected:
/// `g_i <= g_f`: `f_i = t_a + C`; otherwise `f_i = t_a + C (1 + ceil((g_i - g_f)/g_max))`.
/// Returns `f_i` for each kernel's block count in `blocks`.
pub fn closed_form_equal_c(blocks: &[u64], g_max: u64, c: Ticks) -> Vec<Ticks> {
    let (mut t_a, mut g_f) = (0, g_max);
    let mut out = Vec::with_capacity(blocks.len());
    for &g in blocks {
        if g <= g_f {
            out.push(t_a + c);
            g_f -= g;
        } else {
            let waves = (g - g_f).div_ceil(g_max);
            out.push(t_a + c * (1 + waves) as Ticks);
            t_a += c * waves as Ticks;
            g_f = waves * g_max - (g - g_f);
        }
        if g_f == 0 {
            t_a += c;
            g_f = g_max;
        }
    }
    out
}

/// Which guarantee the reported responses carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Bound {
    /// One block demand: the list schedule is the GPU's schedule for block times `C`,
    /// and monotone, so it holds for every block time up to `C`.
    ExactMonotone,
    /// Mixed demands: the list schedule of envelope blocks, a safe upper bound for every
    /// block time up to `C` and every choice of SM.
    Envelope,
}

/// One row of the RTA report (`--json`: `kernels[]`), in launch order.
#[derive(Debug, Clone, Serialize)]
pub struct KernelRow {
    /// Name.
    pub name: String,
    /// `f_i`, the reported (safe) finish, in the input's unit.
    pub finish: f64,
    /// `R_i = f_i - r_i`, the reported (safe) response time.
    pub response: f64,
    /// Relative deadline (`null` if none was given).
    pub deadline: Option<f64>,
    /// `R_i <= deadline`, computed exactly (`null` without a deadline).
    pub schedulable: Option<bool>,
    /// `r_i`.
    pub release: f64,
    /// `C_i` used.
    pub wcet: f64,
    /// Where `C_i` comes from and what it assumes.
    pub wcet_source: String,
    /// `g_i`.
    pub blocks: u64,
    /// `b_i`.
    pub threads_per_block: u64,
    /// Shared memory per block (bytes).
    pub shared_memory: u64,
    /// Registers per thread.
    pub registers_per_thread: u64,
    /// `f_i` as an exact decimal.
    pub finish_exact: String,
    /// `R_i` as an exact decimal.
    pub response_exact: String,
    /// `f_i` of the per-SM simulation of the dispatch rules with block times `C` and
    /// the nominal SM choice (never above `finish`).
    pub simulated_finish: f64,
    /// `g_i`: the list schedule starts a block of this kernel when fewer than this many
    /// blocks run.
    pub slots: u64,
}

/// The whole RTA result (`makespan rta --json`).
#[derive(Debug, Clone, Serialize)]
pub struct RtaReport {
    /// Per kernel, in launch order.
    pub kernels: Vec<KernelRow>,
    /// Every kernel meets its deadline (`null` if no deadlines were given).
    pub schedulable: Option<bool>,
    /// Block slots: `#SMs * fit(d)` with one block demand `d`; with mixed demands the
    /// smallest per-kernel threshold (`kernels[].slots`).
    pub g_max: u64,
    /// `sum C_i g_i b_i / (T_i b_max)` (`null` if no deadlines were given).
    pub utilization: Option<f64>,
    /// The time unit of every time in the report.
    pub unit: String,
    /// Which guarantee the responses carry (`exact-monotone` or `envelope`).
    pub bound: Bound,
    /// What the analysis assumes.
    pub assumptions: Vec<String>,
    /// The list schedule's block timeline, when asked for (not serialised).
    #[serde(skip)]
    pub runs: Vec<BlockRun>,
    /// Ticks per unit (not serialised).
    #[serde(skip)]
    pub scale: Scale,
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
    w.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let kernel = format!("kernels[{i}]");
            if t.blocks == 0 {
                return Err(InputError::new(format!("{kernel}.blocks"), 0, "a kernel has at least one block"));
            }
            if t.wcet == 0 {
                return Err(InputError::new(format!("{kernel}.wcet"), 0, "must be positive"));
            }
            if t.deadline == Some(0) {
                return Err(InputError::new(format!("{kernel}.period"), 0, "must be positive"));
            }
            w.platform.demand(t.threads_per_block, t.shared_memory, t.registers_per_thread, &kernel)
        })
        .collect()
}

/// Analyses `w`: tasks in launch order ([`launch_order`]), the list schedule with the
/// slot thresholds (reported; with one demand Algorithm 2 must agree), and the per-SM
/// simulation (must agree with one demand, must not exceed it with mixed demands).
/// With `timeline`, the report keeps every block's run (for the SVG timeline of `output::plot`).
pub fn analyse(w: &Workload, timeline: bool) -> Result<RtaReport, Error> {
    let given_demands = demands(w)?;
    let order = launch_order(&w.tasks);
    let tasks: Vec<Task> = order.iter().map(|&i| w.tasks[i].clone()).collect();
    let demands: Vec<Demand> = order.iter().map(|&i| given_demands[i]).collect();
    let uniform = demands.iter().all(|d| *d == demands[0]);
    let slots = slot_thresholds(&demands, &w.platform);
    let (finishes, runs) = simulate_slots(&tasks, &slots, timeline);
    let g = slots.iter().copied().min().unwrap_or(1);
    if uniform && list_schedule(&tasks, g) != finishes {
        return Err(Inconsistency::Disagreement("Algorithm 2 and the slot simulation differ".into()).into());
    }
    let simulated = simulate_sms(&tasks, &demands, &w.platform, &mut |k, _| tasks[k].wcet, &mut most_free_threads);
    let bound = if uniform { Bound::ExactMonotone } else { Bound::Envelope };
    check_simulation(&tasks, &finishes, &simulated, bound)?;
    let kernels: Vec<KernelRow> =
        tasks.iter().zip(&finishes).zip(&simulated).zip(&slots).map(|(((t, &f), &s), &g)| row(t, f, s, g, w.scale)).collect();
    let with_deadlines = tasks.iter().all(|t| t.deadline.is_some());
    Ok(RtaReport {
        schedulable: kernels.iter().map(|k| k.schedulable).collect::<Option<Vec<bool>>>().map(|v| v.iter().all(|&s| s)),
        utilization: with_deadlines.then(|| utilization(&tasks, &w.platform, w.scale)),
        assumptions: assumptions(&order, &tasks, w, &demands, bound),
        kernels,
        g_max: g,
        unit: w.unit.clone(),
        bound,
        runs,
        scale: w.scale,
    })
}

/// The per-SM simulation equals the list schedule with one demand, and never exceeds it.
fn check_simulation(tasks: &[Task], reported: &[Ticks], simulated: &[Ticks], bound: Bound) -> Result<(), Inconsistency> {
    for ((t, &f), &s) in tasks.iter().zip(reported).zip(simulated) {
        if s > f || (bound == Bound::ExactMonotone && s != f) {
            return Err(Inconsistency::Disagreement(format!(
                "{}: per-SM simulation finishes at {s} ticks, the list schedule at {f} ({bound:?})",
                t.name
            )));
        }
    }
    Ok(())
}

fn row(t: &Task, finish: Ticks, simulated: Ticks, slots: u64, scale: Scale) -> KernelRow {
    let response = finish - t.release;
    KernelRow {
        name: t.name.clone(),
        finish: scale.to_f64(finish),
        response: scale.to_f64(response),
        deadline: t.deadline.map(|d| scale.to_f64(d)),
        schedulable: t.deadline.map(|d| response <= d),
        release: scale.to_f64(t.release),
        wcet: scale.to_f64(t.wcet),
        wcet_source: t.wcet_source.clone(),
        blocks: t.blocks,
        threads_per_block: t.threads_per_block,
        shared_memory: t.shared_memory,
        registers_per_thread: t.registers_per_thread,
        finish_exact: scale.format(finish),
        response_exact: scale.format(response),
        simulated_finish: scale.to_f64(simulated),
        slots,
    }
}

/// Total utilisation as a fraction of the GPU's thread capacity:
/// `sum_i C_i g_i b_i / (T_i b_max)` (the chapter's `u_i` divided by `b_max`).
fn utilization(tasks: &[Task], p: &Platform, scale: Scale) -> f64 {
    tasks
        .iter()
        .map(|k| {
            scale.to_f64(k.wcet) * (k.blocks * k.threads_per_block) as f64 / (scale.to_f64(k.deadline.unwrap_or(1)) * p.max_threads as f64)
        })
        .sum()
}

fn assumptions(order: &[usize], tasks: &[Task], w: &Workload, demands: &[Demand], bound: Bound) -> Vec<String> {
    let p = &w.platform;
    let limits = format!(
        "{} SMs of {} threads, {} blocks, {} B shared memory, {} registers",
        p.sms(),
        p.sm_threads,
        p.max_blocks_per_sm,
        p.shared_memory_per_sm,
        p.registers_per_sm
    );
    let mut out = vec![
        format!("FIFO dispatch in launch order, only the head kernel's blocks (rule X1), each block to an SM with room; {limits}"),
        match bound {
            Bound::ExactMonotone => format!(
                "one block demand ({} threads, {} B shared memory, {} registers): {} slots; the responses are those of the dispatch rules with block times C, and hold for every shorter block time (the list schedule is monotone)",
                demands[0].threads,
                demands[0].shared_memory,
                demands[0].registers,
                p.sms() * p.fit(&demands[0])
            ),
            Bound::Envelope => "mixed block demands: the responses are a safe bound for every block time up to C and every choice of SM (list schedule with per-kernel slot thresholds, kernels[].slots); simulated_finish is one nominal run of the dispatch rules".into(),
        },
        "each kernel is one job released at its release time".into(),
        "C_i bounds the time one block occupies its SM; see wcet_source for what it rests on".into(),
    ];
    if order.iter().enumerate().any(|(k, &i)| k != i) {
        let names: Vec<&str> = tasks.iter().map(|t| t.name.as_str()).collect();
        out.push(format!("kernels analysed in release order (launch order on the GPU), not in the order given: {}", names.join(", ")));
    }
    if tasks.windows(2).any(|p| p[0].release == p[1].release) {
        out.push("kernels released at the same time are taken in the order given; on the GPU their launch order is not fixed".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyse_all(w: &Workload) -> Result<RtaReport, Error> {
        analyse(w, true)
    }

    fn workload(tasks: Vec<Task>, decimals: u32) -> Workload {
        Workload { tasks, platform: Platform::TX2, scale: Scale { decimals }, unit: "s".into() }
    }

    pub fn chapter_example() -> Vec<Task> {
        [(4, 2), (6, 7), (6, 2), (5, 5)]
            .iter()
            .enumerate()
            .map(|(i, &(c, g))| Task::given(format!("K{}", i + 1), 15, c, g, 512, 0))
            .collect()
    }

    #[test]
    fn chapter_worked_example() {
        let rep = analyse_all(&workload(chapter_example(), 0)).unwrap();
        assert_eq!(rep.g_max, 8);
        let f: Vec<f64> = rep.kernels.iter().map(|r| r.finish).collect();
        assert_eq!(f, vec![4.0, 10.0, 12.0, 11.0]);
        assert_eq!(rep.schedulable, Some(true));
        assert_eq!(rep.bound, Bound::ExactMonotone);
    }

    #[test]
    fn closed_form_edge_cases_of_the_chapter() {
        // g_i = g_f (the chapter's sgn(0) gives alpha = 1/2) and g_i - g_f = g_max.
        assert_eq!(closed_form_equal_c(&[8, 8], 8, 3), vec![3, 6]);
        assert_eq!(closed_form_equal_c(&[2, 14, 1], 8, 3), vec![3, 6, 9]);
        assert_eq!(closed_form_equal_c(&[2, 22, 1], 8, 1), vec![1, 3, 4]);
    }

    #[test]
    fn release_delays_dispatch() {
        let mut ks = chapter_example();
        ks[1].release = 20;
        let rep = analyse_all(&workload(ks, 0)).unwrap();
        let k2 = rep.kernels.iter().find(|k| k.name == "K2").unwrap();
        assert_eq!(k2.finish, 26.0);
        assert_eq!(k2.response, 6.0);
    }

    #[test]
    fn resident_block_limit_caps_the_slots() {
        // 100 blocks of 32 threads: 2 SMs x min(2048/32, 32) = 64 slots, so two waves.
        let rep = analyse_all(&workload(vec![Task::given("K", 10, 1, 100, 32, 0)], 0)).unwrap();
        assert_eq!(rep.g_max, 64);
        assert_eq!(rep.kernels[0].finish, 2.0);
    }

    #[test]
    fn kernels_launch_in_release_order() {
        // A (2 blocks, released at 0.5) listed before B (8 blocks, released at 0): B
        // launches first and fills the 8 slots until 1, so A finishes at 2. (Tenths.)
        let ks = vec![Task::given("A", 100, 10, 2, 512, 5), Task::given("B", 100, 10, 8, 512, 0)];
        let rep = analyse_all(&workload(ks, 1)).unwrap();
        let a = rep.kernels.iter().find(|k| k.name == "A").unwrap();
        assert_eq!(a.response, 1.5);
        assert_eq!(a.response_exact, "1.5");
        assert_eq!(rep.kernels[0].name, "B");
        assert!(rep.assumptions.iter().any(|n| n.contains("release order")));
    }

    #[test]
    fn huge_release_time_is_exact() {
        let rep = analyse_all(&workload(vec![Task::given("K", 10, 1, 1, 512, 10_000_000_000_000_000)], 0)).unwrap();
        assert_eq!(rep.kernels[0].response, 1.0);
        assert_eq!(rep.kernels[0].finish_exact, "10000000000000001");
    }

    #[test]
    fn mixed_block_sizes_use_the_envelope() {
        let mut ks = chapter_example();
        ks[2].threads_per_block = 256;
        ks[3].shared_memory = 20_000;
        let rep = analyse_all(&workload(ks, 0)).unwrap();
        assert_eq!(rep.bound, Bound::Envelope);
        // K1, K2: 512 threads alone: 4 per SM. K3 (256 threads) beside 512-thread blocks:
        // 1 + (2048 - 256) / 512 = 4. K4 (512 threads, 20 224 B) beside blocks of up to
        // 20 224 B: 1 + (65 536 - 20 224) / 20 224 = 3.
        let slots: Vec<u64> = rep.kernels.iter().map(|k| k.slots).collect();
        assert_eq!(slots, vec![8, 8, 8, 6]);
        assert_eq!(rep.g_max, 6);
        assert!(rep.kernels.iter().all(|k| k.simulated_finish <= k.finish));
    }

    #[test]
    fn blocks_that_never_fit_are_refused() {
        let mut ks = chapter_example();
        ks[1].shared_memory = 60_000;
        let e = analyse_all(&workload(ks, 0)).unwrap_err();
        assert!(e.to_string().contains("kernels[1].shared_memory"), "{e}");
    }
}
