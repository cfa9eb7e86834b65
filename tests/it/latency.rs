//! `makespan simulate` (latencies and deterministic schedulers) against an independent
//! cycle-level simulator written from `docs/latency.md` alone: it shares no code with the
//! library's run (its own expansion of sigma = 1/n, its own priority rule per scheduler,
//! barriers released after each cycle), and the two must agree cycle for cycle. At
//! latency 1 every simulated schedule is one the paper's adversary may pick: it passes
//! the paper's checker and stays within the exact worst case.

use gpu_makespan::model::checker::check_blocks;
use gpu_makespan::{Blocks, Instance, Latencies, LatencyRange, Program, Scheduler, SmCounts, SolveOptions};
use proptest::prelude::*;

/// One random case: phases (instruction strings), warps per block, blocks, the SM as
/// hardware counts (sigma 1/2, 1, 2 per class), latencies and the scheduler.
#[derive(Debug, Clone)]
struct Case {
    phases: Vec<String>,
    warps: u32,
    blocks: u32,
    units: (i64, i64),
    latency: (u32, u32),
    scheduler: Scheduler,
}

fn case() -> impl Strategy<Value = Case> {
    let phase = proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=4).prop_map(|v| v.into_iter().collect::<String>());
    let units = prop_oneof![Just(16i64), Just(32), Just(64)];
    let scheduler = prop_oneof![Just(Scheduler::Gto), Just(Scheduler::Lrr), Just(Scheduler::OldestFirst)];
    (proptest::collection::vec(phase, 1..=3), 1u32..=5, 1u32..=3, (units.clone(), units), (1u32..=30, 1u32..=6), scheduler)
        .prop_map(|(phases, warps, blocks, units, latency, scheduler)| Case { phases, warps, blocks, units, latency, scheduler })
}

fn blocks_of(c: &Case) -> Blocks {
    let sm = SmCounts { load_store_units: c.units.0, cuda_cores: c.units.1, warp_size: 32 };
    let program = Program::build(&c.phases.join("|"), |k| Instance::from_counts(k, c.warps as i64, &sm)).unwrap();
    Blocks::new(program, c.blocks)
}

fn latencies(l: u32, c: u32) -> Latencies {
    let fixed = |n: u32| LatencyRange::new(n as i64, n as i64, "latency").unwrap();
    Latencies { l: fixed(l), c: fixed(c) }
}

/// The reference simulator. Instructions are `(is_load, latency)` after its own
/// expansion: with `units` below 32 an instruction takes `32 / units` issue cycles (the
/// copies before the last have latency 1), above 32 the class issues `units / 32` per
/// cycle. Returns each warp's issue cycles.
fn reference(c: &Case) -> Vec<Vec<u64>> {
    let copies = |units: i64| if units < 32 { (32 / units) as usize } else { 1 };
    let per_cycle = |units: i64| if units > 32 { (units / 32) as usize } else { 1 };
    let mut program: Vec<(bool, u32)> = Vec::new();
    let mut barriers_at = Vec::new();
    for (p, phase) in c.phases.iter().enumerate() {
        for ch in phase.chars() {
            let load = ch == 'L';
            let (units, lat) = if load { (c.units.0, c.latency.0) } else { (c.units.1, c.latency.1) };
            let n = copies(units);
            program.extend((0..n).map(|k| (load, if k + 1 == n { lat } else { 1 })));
        }
        if p + 1 < c.phases.len() {
            barriers_at.push(program.len());
        }
    }
    let (per_block, n) = (c.warps as usize, (c.warps * c.blocks) as usize);
    let cap = [per_cycle(c.units.0), per_cycle(c.units.1)];
    let mut next = vec![0usize; n];
    let mut earliest = vec![1u64; n];
    let mut parked = vec![false; n];
    let mut barrier_done = vec![0u64; c.blocks as usize];
    let mut out = vec![Vec::new(); n];
    let (mut greedy, mut start) = (0usize, 0usize);
    let mut t = 1u64;
    while next.iter().any(|&i| i < program.len()) {
        assert!(t < 10_000_000, "the reference does not end");
        let rank = |w: usize| match c.scheduler {
            Scheduler::Gto => (w != greedy, w),
            Scheduler::Lrr => (false, (w + n - start) % n),
            _ => (false, w),
        };
        let mut ready: Vec<usize> = (0..n).filter(|&w| next[w] < program.len() && !parked[w] && earliest[w] <= t).collect();
        ready.sort_by_key(|&w| rank(w));
        let mut used = [0usize; 2];
        let mut issued = Vec::new();
        for w in ready {
            let (load, lat) = program[next[w]];
            let class = usize::from(!load);
            if used[class] == cap[class] {
                continue;
            }
            used[class] += 1;
            issued.push(w);
            out[w].push(t);
            next[w] += 1;
            earliest[w] = t + lat as u64;
            if barriers_at.contains(&next[w]) {
                parked[w] = true;
                barrier_done[w / per_block] = barrier_done[w / per_block].max(t + lat as u64);
            }
        }
        for (b, done) in barrier_done.iter_mut().enumerate() {
            let warps = b * per_block..(b + 1) * per_block;
            if warps.clone().all(|w| parked[w]) {
                for w in warps {
                    parked[w] = false;
                    earliest[w] = *done;
                }
                *done = 0;
            }
        }
        if let (Some(&first), Some(&last)) = (issued.first(), issued.last()) {
            greedy = first;
            start = (last + 1) % n;
        }
        t += 1;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, .. ProptestConfig::default() })]

    /// `simulate` issues every instruction in the cycle the reference does, and its
    /// makespan is the reference's last result.
    #[test]
    fn simulate_agrees_with_the_reference_cycle_for_cycle(c in case()) {
        let run = blocks_of(&c).simulate(&latencies(c.latency.0, c.latency.1), c.scheduler).unwrap();
        let expected = reference(&c);
        prop_assert_eq!(&run.schedule.cycles, &expected, "{:?}", c);
        let last = run.schedule.cycles.iter().map(|r| r[r.len() - 1] + run.latencies[r.len() - 1] as u64 - 1).max().unwrap();
        prop_assert_eq!(run.makespan, last);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// At latency 1 a deterministic scheduler is one of the paper's work-conserving
    /// choices: its schedule passes the paper's checker with the same makespan, which
    /// the exact worst case bounds from above.
    #[test]
    fn at_latency_one_a_scheduler_is_one_of_the_adversarys_choices(mut c in case()) {
        c.warps = c.warps.min(3);
        c.blocks = c.blocks.min(2);
        let blocks = blocks_of(&c);
        let run = blocks.simulate(&Latencies::ONE, c.scheduler).unwrap();
        prop_assert_eq!(check_blocks(&blocks, &run.schedule), Ok(run.makespan));
        let worst = gpu_makespan::solve_kernel(&blocks, &SolveOptions::default()).unwrap().interval();
        prop_assert!(worst.exact() && run.makespan <= worst.upper(), "{:?}: {} above {}", c, run.makespan, worst);
    }
}

/// Hand-computed runs: a load's latency hides behind the other warps under every
/// scheduler, and the schedulers differ where they should.
#[test]
fn hand_computed_runs() {
    let blocks = |k: &str, w: i64| Blocks::from(Program::build(k, |p| Instance::new(p, w, 1, 1)).unwrap());
    // LC, 2 warps, L latency 5: L at 1 and 2, C at 6 and 7.
    for s in [Scheduler::Gto, Scheduler::Lrr, Scheduler::OldestFirst] {
        let run = blocks("LC", 2).simulate(&latencies(5, 1), s).unwrap();
        assert_eq!(run.schedule.cycles, vec![vec![1, 6], vec![2, 7]], "{s}");
    }
    // CC on 2 warps, sigma_C = 1, latency 1: GTO and oldest-first run warp 1 through
    // (1, 2 then 3, 4); LRR alternates (1, 3 and 2, 4).
    let run = |s| blocks("CC", 2).simulate(&Latencies::ONE, s).unwrap().schedule.cycles;
    assert_eq!(run(Scheduler::Gto), vec![vec![1, 2], vec![3, 4]]);
    assert_eq!(run(Scheduler::OldestFirst), vec![vec![1, 2], vec![3, 4]]);
    assert_eq!(run(Scheduler::Lrr), vec![vec![1, 3], vec![2, 4]]);
    // C latency 2, CC on 2 warps: GTO's greedy warp 1 stalls, warp 2 issues and becomes
    // greedy, stalls in turn, and warp 1 issues: 1, 3 / 2, 4.
    let run = |s| blocks("CC", 2).simulate(&latencies(1, 2), s).unwrap().schedule.cycles;
    assert_eq!(run(Scheduler::Gto), vec![vec![1, 3], vec![2, 4]]);
}
