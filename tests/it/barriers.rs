//! Kernels with block barriers: the phase decomposition (sum of the phases' worst
//! cases) against a brute force over the whole kernel that knows the barrier rule but
//! not the decomposition; the checker with barriers; refusals.

use gpu_makespan::exact::phases::solve_phases;
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::model::instance::{Instance, InstanceFile};
use gpu_makespan::model::kernel::Unit;
use gpu_makespan::model::program::Program;
use proptest::prelude::*;
use std::collections::HashMap;

/// Worst-case makespan by brute force: every warp's position in the whole kernel; a
/// warp at the first instruction of a phase is ready only once every warp has reached
/// it; each cycle the scheduler issues, work-conservingly, `min(ready, sigma)`
/// instructions per unit, choosing which warps adversarially.
fn brute(units: &[Unit], starts: &[usize], warps: usize, sigma: (usize, usize)) -> u64 {
    fn go(pos: Vec<usize>, units: &[Unit], starts: &[usize], sigma: (usize, usize), memo: &mut HashMap<Vec<usize>, u64>) -> u64 {
        if pos.iter().all(|&p| p == units.len()) {
            return 0;
        }
        if let Some(&v) = memo.get(&pos) {
            return v;
        }
        let least = *pos.iter().min().expect("warps");
        let ready = |p: usize| p < units.len() && (!starts.contains(&p) || least >= p);
        let l: Vec<usize> = (0..pos.len()).filter(|&w| ready(pos[w]) && units[pos[w]] == Unit::L).collect();
        let c: Vec<usize> = (0..pos.len()).filter(|&w| ready(pos[w]) && units[pos[w]] == Unit::C).collect();
        let mut best = 0;
        for pick_l in subsets(&l, sigma.0.min(l.len())) {
            for pick_c in subsets(&c, sigma.1.min(c.len())) {
                let mut next = pos.clone();
                pick_l.iter().chain(&pick_c).for_each(|&w| next[w] += 1);
                next.sort_unstable();
                best = best.max(1 + go(next, units, starts, sigma, memo));
            }
        }
        memo.insert(pos, best);
        best
    }
    go(vec![0; warps], units, starts, sigma, &mut HashMap::new())
}

fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    if items.len() < k {
        return vec![];
    }
    let mut with: Vec<Vec<usize>> = subsets(&items[1..], k - 1)
        .into_iter()
        .map(|mut s| {
            s.push(items[0]);
            s
        })
        .collect();
    with.extend(subsets(&items[1..], k));
    with
}

fn program(kernel: &str, warps: i64, sl: i64, sc: i64) -> Program {
    Program::build(kernel, |p| Instance::new(p, warps, sl, sc)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The sum of the phases' exact worst cases equals the brute force over the whole
    /// kernel with barriers; the concatenated witness passes the barrier checker.
    #[test]
    fn phases_add_up(kernel in "[LC]{1,3}(\\|[LC]{1,3}){0,2}", warps in 1i64..=3, sl in 1i64..=2, sc in 1i64..=2) {
        let p = program(&kernel, warps, sl, sc);
        let sol = solve_phases(&p, &SolveOptions::default()).unwrap();
        prop_assert!(sol.exact());
        let units: Vec<Unit> = p.phases.iter().flat_map(|ph| ph.kernel.units().to_vec()).collect();
        let starts: Vec<usize> = p.phases.iter().scan(0, |at, ph| { let s = *at; *at += ph.len(); Some(s) }).skip(1).collect();
        prop_assert_eq!(sol.lower_bound(), brute(&units, &starts, warps as usize, (sl as usize, sc as usize)));
        prop_assert_eq!(gpu_makespan::model::checker::check_phases(&p.phases, &sol.schedule), Ok(sol.lower_bound()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// `solve` is never looser than `bound`: at any time limit (none at all, 1 ms, 20 ms),
    /// every phase's proven upper bound is at most its start-state bound, so their sum is
    /// at most `bound`'s sum; and the interval still holds the truth (the lower bound is
    /// a checked schedule, the upper at least it).
    #[test]
    fn solve_is_never_looser_than_bound(
        kernel in "[LC]{4,12}(\\|[LC]{4,12}){1,3}",
        warps in 4i64..=12,
        sc in 2i64..=4,
        limit_ms in prop::sample::select(vec![0u64, 1, 20]),
    ) {
        let p = program(&kernel, warps, 1, sc);
        let budget = gpu_makespan::budget::Budget::new(Some(std::time::Duration::from_millis(limit_ms)), 1 << 30);
        let sol = solve_phases(&p, &SolveOptions::default().with_budget(budget)).unwrap();
        for (phase, s) in p.phases.iter().zip(&sol.phases) {
            let bound = gpu_makespan::state_bounds::report::start_state_bound(phase);
            prop_assert!(s.outcome.upper_bound() <= bound, "{}: {} > {bound}", phase.kernel, s.outcome.upper_bound());
        }
        let bound: u64 = p.phases.iter().map(gpu_makespan::state_bounds::report::start_state_bound).sum();
        prop_assert!(sol.lower_bound() <= sol.upper_bound() && sol.upper_bound() <= bound);
    }
}

/// Warps from several blocks with barriers are refused; without barriers they are fine.
#[test]
fn barriers_across_blocks_are_refused() {
    let file = |kernel: &str| InstanceFile {
        kernel: kernel.into(),
        warps: 8,
        sm: None,
        sigma_l: None,
        sigma_c: None,
        description: None,
        warps_per_block: Some(4),
        provenance: None,
        latency: None,
        scheduler: None,
    };
    let e = Program::from_file_data(&file("LC|C")).unwrap_err();
    assert_eq!(e.field, "warps_per_block");
    assert!(e.reason.contains("its own block"), "{e}");
    assert!(Program::from_file_data(&file("LCC")).is_ok());
}

/// The phases run on rayon workers, where the search has no second thread for its beams:
/// with a time limit the beams then run first on the same thread. Phase 2 of Rodinia's
/// `srad_cuda_1` (truth 105, by the dense programme in 13 s on 2 cores) got 93 from
/// the branch and bound alone within the phase's share of 10 s; the beams find 105 in
/// well under a second. A limit of 6 s in a pool of its own (other tests' solves do not
/// take its workers), the dense programme off so that the search is what runs.
#[test]
fn phases_on_workers_run_the_beams() {
    let p = program("CCCL|CCCLCCCCCLLCCCLCCCCCCCCCCCCLLCCCCLLC", 8, 1, 4);
    let budget = gpu_makespan::budget::Budget::new(Some(std::time::Duration::from_secs(6)), 1 << 30);
    let opts = SolveOptions::default().with_budget(budget).with_dense(false);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let sol = pool.install(|| solve_phases(&p, &opts)).unwrap();
    let long = &sol.phases[1];
    let beam = long.outcome.stats.search.expect("the search ran").beam_lower_bound;
    assert!(beam > 0, "the beams did not run on the worker");
    assert!(long.outcome.lower_bound() > 93, "{}", long.outcome.lower_bound());
    assert!(long.outcome.lower_bound() <= 105 && long.outcome.upper_bound() >= 105);
}
