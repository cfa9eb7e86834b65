//! Runs of warp schedulers with latencies (`makespan simulate`): the cycle-level
//! schedule of [`Blocks`] (one kernel, one or several blocks, with barriers) under the
//! latency model of [`crate::model::latency`] and a [`Scheduler`] of
//! [`crate::model::scheduler`]. With fixed latencies and a deterministic scheduler the
//! time is one run: exact, no search. With `any` or latency ranges the worst case is
//! bracketed by a proven interval: the longest of several runs (each a schedule the
//! open choices allow) and [`latency_horizon`]. Every schedule returned passes the
//! independent checker ([`crate::model::checker::check_blocks_with`]) and its makespan
//! is the checker's.

use crate::error::{Error, Inconsistency, TooLarge};
use crate::model::blocks::{Blocks, MAX_BLOCK_WARPS};
use crate::model::checker::check_blocks_with;
use crate::model::kernel::Unit;
use crate::model::interval::Interval;
use crate::model::latency::{Latencies, LatencyRange};
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
    /// The scheduler asked for (`any`: every work-conserving choice).
    pub scheduler: Scheduler,
    /// The latency of each class asked for (a range: every value in it).
    pub latency: Latencies,
    /// The worst case over what `scheduler` and `latency` leave open, proven: exact (the
    /// one run) for a deterministic scheduler with fixed latencies; otherwise from the
    /// longest run below to the latency horizon (the block horizon plus each
    /// instruction's longest wait, proven in `docs/latency.md`).
    pub interval: Interval,
    /// Where `interval`'s upper end comes from: `the run` (exact), `the exact search`,
    /// or `the latency horizon` and, with `any`, why the exact search did not give it.
    pub upper_from: String,
    /// The last cycle of the run shown: the latest `issue + latency - 1`, re-checked by
    /// the independent checker (`interval`'s lower end).
    pub makespan: u64,
    /// The scheduler of the run shown.
    pub run_scheduler: Scheduler,
    /// The latencies of the run shown: fixed for a scheduler's run; the ranges asked for
    /// when the exact search's schedule is shown (`latencies` has each issue's).
    pub run_latency: Latencies,
    /// Always true: the schedule passed the checker (a failure is an error).
    pub checked: bool,
    /// Issue cycle of every instruction of every warp (row `w`: warp `w` of block
    /// `w / W`; all phases in order).
    #[serde(skip)]
    pub schedule: Schedule,
    /// The latency of every issue of the schedule shown (`latencies[w][i]`: warp `w`'s
    /// instruction `i`).
    #[serde(skip)]
    pub latencies: Vec<Vec<u32>>,
}

impl Blocks {
    /// Runs the blocks under `scheduler` with the `latency` of each class. With a
    /// deterministic scheduler and fixed latencies: the cycle-level schedule, re-checked
    /// by the independent checker, and its makespan, exact. With `any` or a latency
    /// range: the proven interval on the worst case (the longest run of every
    /// deterministic scheduler the choice allows, at the shortest and the longest
    /// latencies of each class, up to the latency horizon) and that run. An
    /// [`Error::Inconsistent`] if a run fails the checker, which would be a bug.
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
    if blocks.warps() > MAX_BLOCK_WARPS {
        let reason = format!("a simulation runs at most {MAX_BLOCK_WARPS} warps (an SM holds 64); each cycle goes down the list of every warp");
        return Err(TooLarge { field: "warps".into(), value: blocks.warps().to_string(), reason }.into());
    }
    let schedulers: Vec<Scheduler> = match scheduler {
        Scheduler::Any => Scheduler::ALL.into_iter().filter(|s| s.is_deterministic()).collect(),
        s => vec![s],
    };
    let picks = fixed_picks(latency);
    let mut best: Option<(u64, Schedule, Vec<u32>, Scheduler, Latencies)> = None;
    for s in schedulers {
        for &pick in &picks {
            let (schedule, lat, makespan) = checked_run(blocks, &pick, s)?;
            if best.as_ref().is_none_or(|b| makespan > b.0) {
                best = Some((makespan, schedule, lat, s, pick));
            }
        }
    }
    let (makespan, schedule, latencies, run_scheduler, run_latency) = best.expect("at least one run");
    let open = !scheduler.is_deterministic() || picks.len() > 1;
    let upper = if open { latency_horizon(blocks, latency) } else { makespan };
    let interval = Interval::new(makespan, upper).ok_or_else(|| Inconsistency::Disagreement(format!("a run of {makespan} cycles exceeds the latency horizon {upper}")))?;
    let (kernel, warps, warps_per_block) = (blocks.program.kernel(), blocks.warps(), blocks.warps_per_block());
    Ok(Simulation {
        kernel,
        warps,
        warps_per_block,
        scheduler,
        latency: *latency,
        interval,
        upper_from: if open { "the latency horizon".into() } else { "the run".into() },
        makespan,
        run_scheduler,
        run_latency,
        checked: true,
        schedule,
        latencies: vec![latencies; warps as usize],
    })
}

/// The fixed latencies to run for `latency`: itself when fixed, else each class at its
/// shortest and its longest (2 or 4 picks).
fn fixed_picks(latency: &Latencies) -> Vec<Latencies> {
    let ends = |r: LatencyRange| if r.min == r.max { vec![r] } else { vec![LatencyRange { min: r.min, max: r.min }, LatencyRange { min: r.max, max: r.max }] };
    ends(latency.l).into_iter().flat_map(|l| ends(latency.c).into_iter().map(move |c| Latencies { l, c })).collect()
}

/// One run with fixed latencies, re-checked: its schedule, each instruction's latency and
/// its makespan.
fn checked_run(blocks: &Blocks, latency: &Latencies, scheduler: Scheduler) -> Result<(Schedule, Vec<u32>, u64), Error> {
    let latencies = latency.per_instruction(&blocks.units(), blocks.program.copies(), |r| r.max);
    let schedule = run(blocks, &latencies, scheduler);
    let makespan = check_blocks_with(blocks, latency, &schedule)
        .map_err(|violation| Inconsistency::Rejected { method: format!("{scheduler} simulation"), violation })?;
    Ok((schedule, latencies, makespan))
}

/// The **latency horizon**, a proven upper bound on the makespan of every
/// work-conserving schedule of `blocks` (all `B` blocks starting together, barriers per
/// block) with every instruction's latency in its class's range:
/// `T <= I + sum_i (lambda_i^max - 1) + floor((B W - 1) I_L / sigma_L) + floor((B W - 1) I_C / sigma_C)`,
/// the block horizon plus each instruction's longest wait (sums over one warp's
/// instructions after the 1/n transformation, whose copies but the last have latency 1).
///
/// **Proof.** Let block `b` hold the last result, in cycle `T`, and let its phase `k` run
/// from `s_k` (the cycle its warps are ready for it) to `e_k` (the cycle the last result
/// of a phase-`k` instruction of a warp of `b` is there); `s_{k+1} = e_k + 1` and
/// `e_K = T`, so `T = sum_k (e_k - s_k + 1)`. Let `w_k` be a warp of `b` whose last
/// phase-`k` result is there at `e_k`. In every cycle of `[s_k, e_k]`, `w_k` is not at
/// the barrier (its own result is not there before `e_k`), so it (a) issues one of its
/// phase-`k` instructions, (b) waits for the result of one it issued (at most
/// `lambda_i - 1` cycles after instruction `i`), or (c) is ready for an `X` instruction
/// and does not issue it, and then, by work conservation, all `sigma_X` `X` units issue
/// instructions of other warps: phase-`k` instructions of the `W - 1` other warps of `b`
/// (no warp of `b` is in another phase in that interval) or instructions of the `B - 1`
/// other blocks. Over all `k`, (a) counts `w`'s `I` instructions once, (b) at most
/// `sum_i (lambda_i^max - 1)` cycles, and each instruction of another warp is issued in
/// one cycle only, so the (c) cycles for `X` are at most
/// `floor(((W - 1) I_X + (B - 1) W I_X) / sigma_X)`. Summing gives the bound. With
/// latency 1 it is [`Blocks::horizon`].
pub fn latency_horizon(blocks: &Blocks, latency: &Latencies) -> u64 {
    blocks.horizon() + latency.waits(&blocks.units(), blocks.program.copies())
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
        let mut issued = [Vec::new(), Vec::new()];
        for (x, issued) in issued.iter_mut().enumerate() {
            for w in priority.order(x) {
                let i = warps.next[w];
                let ready = i < units.len() && (units[i] == Unit::C) as usize == x && warps.ready[w].is_some_and(|r| r <= t);
                if !ready || issued.len() as u64 >= sigma[x] {
                    continue;
                }
                issued.push(w);
                warps.cycles[w].push(t);
                warps.next[w] = i + 1;
                warps.ready[w] = Some(t + lat[i] as u64);
                if ends.contains(&(i + 1)) && i + 1 < units.len() {
                    arrive(&mut warps, &mut waiting[w / per_block], w, per_block, t + lat[i] as u64);
                }
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
    fn any_and_ranges_give_a_proven_interval() {
        let b = blocks("LC", 2, 1, (1, 1));
        // Latency 1, any scheduler: every deterministic run takes 3; the horizon is 4.
        let any = simulate(&b, &Latencies::ONE, Scheduler::Any).unwrap();
        assert_eq!((any.interval, any.makespan), (Interval::new(3, 4).unwrap(), 3));
        // L in 5..400: the longest run is at 400 (L at 1 and 2, C at 401 and 402); the
        // horizon adds 399 waiting cycles to 4.
        let range = Latencies { l: LatencyRange { min: 5, max: 400 }, c: LatencyRange::ONE };
        let r = simulate(&b, &range, Scheduler::Gto).unwrap();
        assert_eq!((r.interval, r.run_latency.l.max, r.run_scheduler), (Interval::new(402, 403).unwrap(), 400, Scheduler::Gto));
        // A deterministic scheduler with fixed latencies is exact.
        assert!(simulate(&b, &lat(5, 1), Scheduler::Lrr).unwrap().interval.exact());
    }
}
