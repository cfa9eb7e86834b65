//! A reference simulator of the GPU the analysis bounds, written from the rules (Amert et
//! al., RTSS 2017, as the TX2 thesis gives them) and not from the analysis: every choice
//! the rules and the profile leave open is drawn at random, so that the property tests
//! and the pessimism measurement compare the reported finishes with executions that can
//! happen.
//!
//! * G1/G2/G4 (streams): a job enters the GPU's queue once released, plus a launch
//!   overhead drawn in `[0, L]`, and once the job before it in its stream has completed.
//!   Jobs entering at the same time enter in a random order: in half of the runs all
//!   before any block is assigned, in the other half one at a time with blocks assigned
//!   in between (the first, half of the time, only after the blocks that have room at
//!   that instant), then (half of the time) only up to a drawn number of blocks before
//!   the next one enters, since the rules do not order the blocks assigned at an instant
//!   and the kernels entering at it (a high kernel may cut a low head's blocks short).
//! * G3/X1 (FIFO EE queues): only the head job's blocks are assigned, in order, each as
//!   soon as some SM has room (R1-R3: threads, a block slot, shared memory, registers);
//!   among the SMs with room one is drawn at random, or in half of the runs the first in
//!   a fixed order (first fit). A1-A2: a job of a high-priority
//!   stream enters the high queue, whose head goes first; the low queue's head is
//!   assigned blocks only while the high queue is empty (running blocks are not
//!   preempted).
//! * Sub-partitions: a block's warps go to the register sub-partitions by a
//!   [`Placement`] (greedy to a random sub-partition with room, or round robin from
//!   sub-partition 0, or from a pointer that rotates per SM).
//! * Halves: a kernel marked confined (partitioned global caching) has each block in one
//!   half of an SM (half the warp slots, half the sub-partitions), the half drawn among
//!   those with room; the other kernels' blocks spread over the SM.
//! * Each block runs for a time drawn in `[1, C]` (`C` with the block overhead): per job,
//!   every block at `C`, every block at 1, every block at 1 but the last at `C` (room
//!   freed early, the job completing late), each drawn on its own (`C` half of the
//!   time), or each until an instant before a drawn kernel enters where it enters within
//!   the block's `C` (the next block then starts just before it arrives), else `C`. A
//!   set given in finer ticks lets blocks run for a fraction of its unit.
//! * C1-C4 (copies): a job's copy in enters the one CE queue once the job before it in its
//!   stream has completed (and up to `L` after its release), its kernel once the copy has
//!   completed; its copy out when its kernel completes. The copy engine serves the queue
//!   in order, one copy at a time, each for a time drawn as a block's (copies entering at
//!   the same time in a random order).

use crate::rta::copy_engine::{CopyEngine, Direction};
use crate::rta::gpu::{Demand, Platform, MAX_SUB_PARTITIONS};
use crate::rta::jobs::{Class, Job};
use crate::rta::time::Ticks;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use std::collections::VecDeque;

/// Where a block's warps go among the sub-partitions it may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Each warp to a sub-partition with room, drawn at random.
    Greedy,
    /// Warp `i` to the `i`-th sub-partition (mod their number).
    RoundRobinFixed,
    /// Warp `i` to the `(p + i)`-th, `p` advancing by the block's warps on each SM.
    RoundRobinRotating,
}

/// What the simulated hardware does where the rules leave it open.
#[derive(Debug, Clone)]
pub struct Hardware {
    /// The warp placement.
    pub placement: Placement,
    /// Per task: whether its blocks are confined to half an SM.
    pub confined: Vec<bool>,
    /// The launch overhead's upper bound `L` (each job's overhead is drawn in `[0, L]`).
    pub launch_overhead: Ticks,
    /// Every block takes its whole `C` (else its time is drawn: per job, all its blocks
    /// at `C`, all at 1 tick, all at 1 tick but the last at `C`, or each drawn on its
    /// own, so that runs where a whole kernel is short and another long, or a kernel
    /// frees its room early and completes late, are not rare).
    pub full_blocks: bool,
    /// Jobs entering the queue at the same time enter in the order of `jobs` (the order
    /// the user fixed for tied releases); else in a random order.
    pub fixed_ties: bool,
}

/// One SM's state.
#[derive(Debug, Clone)]
struct Sm {
    /// Thread slots used in each half (a spread block's warps count where they went).
    threads: [u64; 2],
    blocks: u64,
    shared_memory: u64,
    registers: [u64; MAX_SUB_PARTITIONS],
    pointer: usize,
}

/// A running block: its end, SM, the demand it holds, its warps per sub-partition.
struct Running {
    end: Ticks,
    sm: usize,
    job: usize,
    demand: Demand,
    warps: [u64; MAX_SUB_PARTITIONS],
}

/// The warps of a block of `d` per sub-partition among `subs` (indices), by `placement`,
/// if its registers fit there.
fn place<R: Rng + ?Sized>(
    sm: &mut Sm,
    d: &Demand,
    subs: &[usize],
    p: &Platform,
    placement: Placement,
    rng: &mut R,
) -> Option<[u64; MAX_SUB_PARTITIONS]> {
    let cap = p.registers_per_sub_partition();
    let mut used = sm.registers;
    let mut warps = [0u64; MAX_SUB_PARTITIONS];
    for i in 0..d.warps as usize {
        let s = match placement {
            Placement::Greedy => {
                let room: Vec<usize> = subs.iter().copied().filter(|&s| used[s] + d.registers_per_warp <= cap).collect();
                *room.choose(rng)?
            }
            Placement::RoundRobinFixed => subs[i % subs.len()],
            Placement::RoundRobinRotating => subs[(sm.pointer + i) % subs.len()],
        };
        if used[s] + d.registers_per_warp > cap {
            return None;
        }
        used[s] += d.registers_per_warp;
        warps[s] += 1;
    }
    Some(warps)
}

/// Tries to start a block of `d` on `sm`, spread or confined to a half drawn among those
/// with room; returns its warps per sub-partition.
fn try_start<R: Rng + ?Sized>(
    sm: &mut Sm,
    d: &Demand,
    confined: bool,
    p: &Platform,
    placement: Placement,
    rng: &mut R,
) -> Option<[u64; MAX_SUB_PARTITIONS]> {
    if sm.blocks >= p.max_blocks_per_sm || sm.shared_memory + d.shared_memory > p.shared_memory_per_sm {
        return None;
    }
    let s = p.register_sub_partitions as usize;
    let half_subs = |h: usize| (h * s / 2..(h + 1) * s / 2).collect::<Vec<usize>>();
    let half_of = |sub: usize| if s >= 2 { (sub * 2 / s).min(1) } else { 0 };
    let warp_threads = p.warp_size;
    let candidates: Vec<Vec<usize>> = if confined {
        let mut halves = vec![half_subs(0), half_subs(1)];
        halves.shuffle(rng);
        halves
    } else {
        vec![(0..s).collect()]
    };
    for subs in candidates {
        let Some(warps) = place(sm, d, &subs, p, placement, rng) else { continue };
        let mut threads = sm.threads;
        for (sub, &n) in warps.iter().enumerate().take(s) {
            threads[half_of(sub)] += n * warp_threads;
        }
        let fits = threads[0] + threads[1] <= p.sm_threads && (!confined || threads[half_of(subs[0])] <= p.sm_threads / 2);
        if !fits {
            continue;
        }
        sm.threads = threads;
        sm.blocks += 1;
        sm.shared_memory += d.shared_memory;
        for (r, &n) in sm.registers.iter_mut().zip(&warps) {
            *r += n * d.registers_per_warp;
        }
        if placement == Placement::RoundRobinRotating {
            sm.pointer = (sm.pointer + d.warps as usize) % subs.len().max(1);
        }
        return Some(warps);
    }
    None
}

/// Simulates the jobs of the nominal sequence `jobs` (their `release`, `wcet` with the
/// block overhead, `after` for streams, copies; `ready` is not used: the launch overhead
/// is drawn) on the GPU `p` with `hw`; returns each job's finish (of its copy out if it
/// has one, else of its kernel).
pub fn simulate<R: Rng + ?Sized>(jobs: &[Job], classes: &[Class], p: &Platform, hw: &Hardware, rng: &mut R) -> Vec<Ticks> {
    let n = jobs.len();
    // Each job's kernel launch and copy in reach their stream queue up to L after release.
    // (Drawn for copies only when there are some: runs without copies draw as before.)
    let overhead: Vec<[Ticks; 2]> = jobs
        .iter()
        .map(|j| {
            let kernel = draw(rng, hw.launch_overhead);
            [kernel, if j.copy_in > Ticks::ZERO { draw(rng, hw.launch_overhead) } else { Ticks::ZERO }]
        })
        .collect();
    // Kernels entering at one instant: all before any dispatch, or one at a time with the
    // heads dispatching in between (entries an instant apart in that order: a low job's
    // blocks may then start before a high job entering with it).
    let interleave = rng.random_bool(0.5);
    // Where blocks go: an SM with room drawn per block, or (half of the runs) the first
    // SM with room in a fixed order (first fit: it packs blocks of different kernels
    // unevenly, which is where a later block can find no room).
    let first_fit = rng.random_bool(0.5);
    // How each job's block times are drawn (`Hardware::full_blocks`).
    let styles: Vec<u64> = if hw.full_blocks { Vec::new() } else { jobs.iter().map(|_| rng.random_range(0..6)).collect() };
    // For style 5, per job, the job whose entry its blocks end an instant before.
    let targets: Vec<usize> = if hw.full_blocks { Vec::new() } else { jobs.iter().map(|_| rng.random_range(0..n)).collect() };
    let mut sms: Vec<Sm> =
        (0..p.sms()).map(|_| Sm { threads: [0; 2], blocks: 0, shared_memory: 0, registers: [0; MAX_SUB_PARTITIONS], pointer: 0 }).collect();
    let mut ops = Ops { end: vec![None; n], copied_in: vec![None; n], copy_entered: vec![false; n], engine: CopyEngine::default() };
    let mut last_end = vec![Ticks::ZERO; n];
    let mut left: Vec<u64> = jobs.iter().map(|j| j.blocks).collect();
    let mut entered = vec![false; n];
    // The EE queues: high priority first (A1-A2).
    let mut queues: [VecDeque<(usize, u64)>; 2] = [VecDeque::new(), VecDeque::new()];
    let mut running: Vec<Running> = Vec::new();
    let mut t: Ticks = Ticks::ZERO;
    // The instant at which entries were last held back for the blocks that have room.
    let mut held: Option<Ticks> = None;
    // When a job's stream lets it go on (its predecessor has completed), if known.
    let behind = |j: usize, end: &[Option<Ticks>]| jobs[j].after.map_or(Some(Ticks::ZERO), |a| end[a]);
    // When a job's copy in enters the CE queue, and when its kernel enters its EE queue, if known.
    let copy_entry = |j: usize, ops: &Ops| behind(j, &ops.end).map(|b| (jobs[j].release + overhead[j][1]).max(b));
    let kernel_entry = |j: usize, ops: &Ops| {
        let before = if jobs[j].copy_in > Ticks::ZERO { ops.copied_in[j] } else { behind(j, &ops.end) }?;
        Some((jobs[j].release + overhead[j][0]).max(before))
    };
    // Whether job `j` may enter its queue by `t` and has not.
    let entering = |j: usize, entered: &[bool], ops: &Ops, t: Ticks| !entered[j] && kernel_entry(j, ops).is_some_and(|e| e <= t);
    let pending = |entered: &[bool], ops: &Ops, t: Ticks| (0..n).any(|j| entering(j, entered, ops, t));
    loop {
        // Copies entering now, then the copy engine up to now.
        let mut now: Vec<usize> =
            (0..n).filter(|&j| jobs[j].copy_in > Ticks::ZERO && !ops.copy_entered[j] && copy_entry(j, &ops).is_some_and(|e| e <= t)).collect();
        if !hw.fixed_ties {
            now.shuffle(rng);
        }
        for (k, j) in now.into_iter().enumerate() {
            ops.copy_entered[j] = true;
            let tie = if hw.fixed_ties { j as u64 } else { k as u64 };
            ops.engine.enter(t, tie, j, Direction::In, copy_time(rng, hw, jobs[j].copy_in));
        }
        while let Some(c) = ops.engine.start_next(t) {
            match c.direction {
                Direction::In => ops.copied_in[c.job] = Some(c.end),
                Direction::Out => ops.end[c.job] = Some(c.end),
            }
        }
        // Kernels that enter their queue now, in a random order among themselves.
        let mut now: Vec<usize> = (0..n).filter(|&j| entering(j, &entered, &ops, t)).collect();
        if !hw.fixed_ties {
            now.shuffle(rng);
        }
        if interleave {
            now.truncate(1);
            // Once per instant (half of the time), the blocks that have room go first.
            if !now.is_empty() && held != Some(t) && rng.random_bool(0.5) {
                held = Some(t);
                now.clear();
            }
        }
        for j in now {
            entered[j] = true;
            queues[jobs[j].priority.queue()].push_back((j, 0));
        }
        // The head job's blocks (of the high queue if it is not empty), in order, while
        // some SM has room. Interleaved, with kernels still to enter now, only up to a
        // drawn number of blocks (half of the time): the rules do not order the blocks
        // assigned at an instant and the kernels entering at it, so a high kernel may cut
        // a low head's blocks short; half of those times just before the head's last
        // block, which then waits behind the kernel entering.
        let mut budget = if interleave && pending(&entered, &ops, t) && rng.random_bool(0.5) {
            let head_left = queues.iter().find_map(|q| q.front()).map_or(0, |&(j, b)| jobs[j].blocks - b);
            if rng.random_bool(0.5) {
                head_left.saturating_sub(1)
            } else {
                rng.random_range(0..=p.sms() * p.max_blocks_per_sm)
            }
        } else {
            u64::MAX
        };
        while let Some(&(j, b)) = queues.iter().find_map(|q| q.front()).filter(|_| budget > 0) {
            let queue = &mut queues[jobs[j].priority.queue()];
            let d = classes[jobs[j].class].demand;
            let confined = hw.confined[jobs[j].task];
            let mut order: Vec<usize> = (0..sms.len()).collect();
            if !first_fit {
                order.shuffle(rng);
            }
            let started = order.into_iter().find_map(|s| try_start(&mut sms[s], &d, confined, p, hw.placement, rng).map(|w| (s, w)));
            let Some((sm, warps)) = started else { break };
            let c = jobs[j].wcet.max(Ticks::new(1));
            let end = t + match styles.get(j) {
                None | Some(0) => c,
                Some(1) => Ticks::new(1),
                // Room freed at once, the job completing late.
                Some(4) if b + 1 < jobs[j].blocks => Ticks::new(1),
                Some(4) => c,
                // Until an instant before the target's entry where it falls within `C`
                // (the next block then starts just before that kernel arrives), else `C`.
                Some(5) => kernel_entry(targets[j], &ops)
                    .filter(|&e| !entered[targets[j]] && e > t + Ticks::new(1) && e <= t + c)
                    .map_or(c, |e| e - t - Ticks::new(1)),
                Some(_) => block_time(rng, c),
            };
            running.push(Running { end, sm, job: j, demand: d, warps });
            queue.pop_front();
            if b + 1 < jobs[j].blocks {
                queue.push_front((j, b + 1));
            }
            budget = budget.saturating_sub(1);
        }
        // The next event: a block's end, a copy's start, or a copy's or a kernel's entry.
        let next_end = running.iter().map(|r| r.end).min();
        let next_entry = (0..n)
            .filter(|&j| !entered[j])
            .filter_map(|j| kernel_entry(j, &ops))
            .chain((0..n).filter(|&j| jobs[j].copy_in > Ticks::ZERO && !ops.copy_entered[j]).filter_map(|j| copy_entry(j, &ops)))
            .filter(|&e| e > t)
            .min();
        // Interleaved: kernels left to enter now are entered (one at a time) before time moves.
        if interleave && pending(&entered, &ops, t) {
            continue;
        }
        let Some(next) = [next_end, next_entry, ops.engine.next_start()].into_iter().flatten().min() else { break };
        t = next;
        let mut done_now = Vec::new();
        running.retain(|r| {
            if r.end > t {
                return true;
            }
            let sm = &mut sms[r.sm];
            let s = p.register_sub_partitions as usize;
            for (sub, &w) in r.warps.iter().enumerate().take(s) {
                sm.threads[if s >= 2 { (sub * 2 / s).min(1) } else { 0 }] -= w * p.warp_size;
                sm.registers[sub] -= w * r.demand.registers_per_warp;
            }
            sm.blocks -= 1;
            sm.shared_memory -= r.demand.shared_memory;
            last_end[r.job] = last_end[r.job].max(r.end);
            left[r.job] -= 1;
            if left[r.job] == 0 {
                done_now.push(r.job);
            }
            false
        });
        // A kernel completed: its copy out enters the CE queue, or the job is done.
        if !hw.fixed_ties && done_now.iter().any(|&j| jobs[j].copy_out > Ticks::ZERO) {
            done_now.shuffle(rng);
        }
        for (k, j) in done_now.into_iter().enumerate() {
            if jobs[j].copy_out > Ticks::ZERO {
                let tie = if hw.fixed_ties { j as u64 } else { k as u64 };
                ops.engine.enter(t, tie, j, Direction::Out, copy_time(rng, hw, jobs[j].copy_out));
            } else {
                ops.end[j] = Some(last_end[j]);
            }
        }
    }
    ops.end.into_iter().map(|f| f.expect("every job ran")).collect()
}

/// What is known of the jobs' stream operations in a run.
struct Ops {
    /// Each job's completion (its copy out's, or its kernel's), once known.
    end: Vec<Option<Ticks>>,
    /// Completion of each job's copy in, once known.
    copied_in: Vec<Option<Ticks>>,
    /// Whether each job's copy in has entered the CE queue.
    copy_entered: Vec<bool>,
    engine: CopyEngine,
}

/// A copy's time in `[1, x]` (`x` with `full_blocks`).
fn copy_time<R: Rng + ?Sized>(rng: &mut R, hw: &Hardware, x: Ticks) -> Ticks {
    if hw.full_blocks {
        x
    } else {
        block_time(rng, x)
    }
}

/// A block's time in `[1, c]`: `c` half of the time (the worst cases are there), else 1
/// or a uniform draw.
fn block_time<R: Rng + ?Sized>(rng: &mut R, c: Ticks) -> Ticks {
    match rng.random_range(0..4) {
        0 | 1 => c,
        2 => Ticks::new(1),
        _ => Ticks::new(rng.random_range(1..=c.get())),
    }
}

/// A draw in `[0, max]`, at either end a third of the time each.
fn draw<R: Rng + ?Sized>(rng: &mut R, max: Ticks) -> Ticks {
    match rng.random_range(0..3) {
        0 => Ticks::ZERO,
        1 => max,
        _ => Ticks::new(rng.random_range(0..=max.get())),
    }
}
