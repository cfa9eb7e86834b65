//! One run of a deterministic warp scheduler with fixed latencies (`makespan
//! simulate`): the cycle-level schedule of [`Blocks`] (one kernel, one or several
//! blocks, with barriers) under the latency model of [`crate::model::latency`] and a
//! [`Scheduler`] of [`crate::model::scheduler`]. With fixed latencies and a fixed
//! choice the time is this one run: no search. The schedule passes the independent
//! checker ([`crate::model::checker::check_blocks_with`]) before it is returned, and its
//! makespan is the checker's.

use crate::error::{Error, Inconsistency, InputError};
use crate::model::blocks::Blocks;
use crate::model::checker::check_blocks_with;
use crate::model::kernel::Unit;
use crate::model::latency::Latencies;
use crate::model::schedule::Schedule;
use crate::model::scheduler::{Priority, Scheduler};
use serde::Serialize;

/// A simulated run: what ran (`makespan simulate --json` serialises these fields), the
/// schedule (issue cycles), each instruction's latency and the makespan (the cycle in
/// which the last result is there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Simulation {
    /// The instruction string as given (barriers as `|`).
    pub kernel: String,
    /// All warps, `B W`.
    pub warps: u32,
    /// Warps per block, `W`.
    pub warps_per_block: u32,
    /// The scheduler simulated.
    pub scheduler: Scheduler,
    /// The latency of each class.
    pub latency: Latencies,
    /// The last cycle of the run: the latest `issue + latency - 1`, re-checked by the
    /// independent checker. Exact for this scheduler and these latencies; not a worst
    /// case over other schedulers or latencies.
    pub makespan: u64,
    /// Always true: the schedule passed the checker (a failure is an error).
    pub checked: bool,
    /// Issue cycle of every instruction of every warp (row `w`: warp `w` of block
    /// `w / W`; all phases in order).
    #[serde(skip)]
    pub schedule: Schedule,
    /// The latency of each instruction of a warp (the same for every warp).
    #[serde(skip)]
    pub latencies: Vec<u32>,
}

impl Blocks {
    /// Runs the blocks under `scheduler` with the (fixed) `latency` of each class: the
    /// cycle-level schedule, re-checked by the independent checker, and its makespan.
    /// Refuses `any` (the worst case over every choice is `solve`'s) and latency ranges
    /// (their worst case is a search); an [`Error::Inconsistent`] if the run fails the
    /// checker, which would be a bug.
    ///
    /// ```
    /// use gpu_makespan::{Blocks, Latencies, LatencyRange, Program, Scheduler};
    ///
    /// // Two warps of `LC`: the second L issues while the first waits 5 cycles for its load.
    /// let blocks = Blocks::from(Program::from_toml("kernel = \"LC\"\nwarps = 2\n", "example")?);
    /// let latency = Latencies { l: LatencyRange::new(5, 5, "L")?, c: LatencyRange::ONE };
    /// let run = blocks.simulate(&latency, Scheduler::Gto)?;
    /// assert_eq!((run.makespan, run.schedule.cycles[1].clone()), (7, vec![2, 7]));
    /// # Ok::<(), gpu_makespan::Error>(())
    /// ```
    pub fn simulate(&self, latency: &Latencies, scheduler: Scheduler) -> Result<Simulation, Error> {
        simulate(self, latency, scheduler)
    }
}

fn simulate(blocks: &Blocks, latency: &Latencies, scheduler: Scheduler) -> Result<Simulation, Error> {
    if !scheduler.is_deterministic() {
        return Err(InputError::new("scheduler", "any", "a simulation needs one choice rule: gto, lrr or oldest-first (`any` is the worst case: solve)").into());
    }
    for (u, field) in [(Unit::L, "latency.L"), (Unit::C, "latency.C")] {
        if latency.of(u).fixed().is_none() {
            return Err(InputError::new(field, latency.of(u), "a simulation needs one latency per class; the worst case over a range is not computed yet").into());
        }
    }
    let copies = (blocks.program.phases[0].copies_l, blocks.program.phases[0].copies_c);
    let latencies = latency.per_instruction(&blocks.units(), copies, |r| r.max);
    let schedule = run(blocks, &latencies, scheduler);
    let makespan = check_blocks_with(blocks, &latencies, &schedule)
        .map_err(|violation| Inconsistency::Rejected { method: format!("{scheduler} simulation"), violation })?;
    let (kernel, warps, warps_per_block) = (blocks.program.kernel(), blocks.warps(), blocks.warps_per_block());
    Ok(Simulation { kernel, warps, warps_per_block, scheduler, latency: *latency, makespan, checked: true, schedule, latencies })
}

/// Where each warp is: its next instruction and the cycle from which it may issue it
/// (`None`: waiting at a barrier).
struct Warps {
    next: Vec<usize>,
    ready: Vec<Option<u64>>,
    cycles: Vec<Vec<u64>>,
}

/// The cycle-by-cycle run (cycles without a ready warp are skipped: nobody issues and
/// no scheduler state changes).
fn run(blocks: &Blocks, lat: &[u32], scheduler: Scheduler) -> Schedule {
    let (n, per_block, units) = (blocks.warps() as usize, blocks.warps_per_block() as usize, blocks.units());
    let ends = blocks.program.phase_ends();
    let sigma = [blocks.sigma(Unit::L), blocks.sigma(Unit::C)];
    let mut warps = Warps { next: vec![0; n], ready: vec![Some(1); n], cycles: vec![Vec::with_capacity(units.len()); n] };
    // Per block: warps at the current barrier, and when their last result is there.
    let mut waiting = vec![(0usize, 0u64); blocks.blocks as usize];
    let mut priority = Priority::new(scheduler, n);
    let mut t = 1u64;
    while let Some(next_ready) = (0..n).filter(|&w| warps.next[w] < units.len()).filter_map(|w| warps.ready[w]).min() {
        t = t.max(next_ready);
        let mut used = [0u64; 2];
        let mut issued = Vec::new();
        for w in priority.order() {
            let i = warps.next[w];
            let x = (i < units.len()).then(|| (units[i] == Unit::C) as usize);
            let Some(x) = x.filter(|&x| warps.ready[w].is_some_and(|r| r <= t) && used[x] < sigma[x]) else { continue };
            used[x] += 1;
            issued.push(w);
            warps.cycles[w].push(t);
            warps.next[w] = i + 1;
            warps.ready[w] = Some(t + lat[i] as u64);
            if ends.contains(&(i + 1)) && i + 1 < units.len() {
                arrive(&mut warps, &mut waiting[w / per_block], w, per_block, t + lat[i] as u64);
            }
        }
        priority.after(&issued);
        t += 1;
    }
    Schedule { cycles: warps.cycles }
}

/// Warp `w` reaches a barrier with its last result there at `done - 1`: it waits, and
/// when it is the block's last, the whole block is ready at the latest `done`.
fn arrive(warps: &mut Warps, block: &mut (usize, u64), w: usize, per_block: usize, done: u64) {
    warps.ready[w] = None;
    *block = (block.0 + 1, block.1.max(done));
    if block.0 == per_block {
        let first = w / per_block * per_block;
        for v in first..first + per_block {
            warps.ready[v] = Some(block.1);
        }
        *block = (0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;
    use crate::model::latency::LatencyRange;
    use crate::model::program::Program;

    fn blocks(kernel: &str, warps: i64, b: u32, sigma: (i64, i64)) -> Blocks {
        Blocks::new(Program::build(kernel, |k| Instance::new(k, warps, sigma.0, sigma.1)).unwrap(), b)
    }

    fn lat(l: u32, c: u32) -> Latencies {
        Latencies { l: LatencyRange { min: l, max: l }, c: LatencyRange { min: c, max: c } }
    }

    #[test]
    fn latency_one_oldest_first_is_the_papers_fig2_order() {
        // LLC, W = 4, sigma 1/1: the oldest warp runs ahead; 4 warps x 2 L = 8 L cycles, then the last C.
        let s = simulate(&blocks("LLC", 4, 1, (1, 1)), &Latencies::ONE, Scheduler::OldestFirst).unwrap();
        assert_eq!(s.schedule.cycles[0], vec![1, 2, 3]);
        assert_eq!(s.makespan, 9);
    }

    #[test]
    fn a_load_latency_hides_behind_other_warps() {
        // One warp: L (latency 5) then C: issue 1, result at 5, C at 6.
        let one = simulate(&blocks("LC", 1, 1, (1, 1)), &lat(5, 1), Scheduler::Gto).unwrap();
        assert_eq!((one.schedule.cycles[0].clone(), one.makespan), (vec![1, 6], 6));
        // Two warps: the second L issues at 2 while the first waits; C's at 6 and 7.
        let two = simulate(&blocks("LC", 2, 1, (1, 1)), &lat(5, 1), Scheduler::Gto).unwrap();
        assert_eq!(two.makespan, 7);
        // The last result counts: a final L of latency 5 issued at 1 ends at 5.
        assert_eq!(simulate(&blocks("L", 1, 1, (1, 1)), &lat(5, 1), Scheduler::Lrr).unwrap().makespan, 5);
    }

    #[test]
    fn a_barrier_waits_for_results() {
        // L|C, 2 warps: L's at 1 and 2 (latency 4): results at 4 and 5; C's from 6.
        let s = simulate(&blocks("L|C", 2, 1, (1, 1)), &lat(4, 1), Scheduler::OldestFirst).unwrap();
        assert_eq!(s.schedule.cycles, vec![vec![1, 6], vec![2, 7]]);
    }

    #[test]
    fn refuses_any_and_ranges() {
        let b = blocks("LC", 2, 1, (1, 1));
        assert!(simulate(&b, &Latencies::ONE, Scheduler::Any).is_err());
        let range = Latencies { l: LatencyRange { min: 5, max: 400 }, c: LatencyRange::ONE };
        assert!(simulate(&b, &range, Scheduler::Gto).is_err());
    }
}
