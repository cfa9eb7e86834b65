//! The paper's approximation: the formula, and the proven bound beside it.

use crate::common;

use common::{exact, ilp_options, inst, instances};
use gpu_makespan::budget::{Budget, DEFAULT_MAX_MEMORY};
use gpu_makespan::exact::ilp::{self, ConstraintForm};
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::experiments::approx::approx;
use gpu_makespan::model::bounds;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `safe_upper_bound` is never below the exact T^(W) (obtained by a separate search run),
    /// and the estimate is the formula over the table.
    #[test]
    fn safe_upper_bound_is_safe(inst in instances(6, 10, 3, 3), x in 1u32..=10) {
        let x = x.min(inst.warps);
        let a = approx(&inst, x, &SolveOptions::default(), &|| {}).unwrap();
        let t = exact(&inst).lower_bound();
        prop_assert!(a.safe_upper_bound >= t);
        prop_assert!(a.safe_upper_bound <= bounds::safe_horizon(&inst));
        let w = inst.warps as u64;
        let formula = a.rows.iter().map(|r| w.div_ceil(r.y as u64) * r.makespan).min().unwrap();
        prop_assert_eq!(a.estimate, formula);
    }
}

/// The estimate equals eqs. 42-43 evaluated on T^(y) obtained independently by the ILP.
#[test]
fn estimate_matches_formula_on_ilp_values() {
    for (k, w, x) in [("LLCLL", 6, 3), ("LCL", 4, 2), ("LCLCL", 5, 2)] {
        let i = inst(k, w, 1, 1);
        let a = approx(&i, x, &SolveOptions::default(), &|| {}).unwrap();
        let formula = (1..=x)
            .map(|y| {
                let iy = i.with_warps(y);
                let t = ilp::solve(&iy, &ilp_options(&iy, ConstraintForm::Short)).unwrap().makespan.unwrap();
                (w as u64).div_ceil(y as u64) * t
            })
            .min()
            .unwrap();
        assert_eq!(a.estimate, formula, "{k} W={w} x={x}");
    }
}

/// The `T^(y)` solves that run at once share `max_memory`: the kernel below at W = 8 needs
/// between 1 and 2 MB of search table (branch and bound alone), so with 2 MB it is exact
/// when the solves run one at a time and ends at the memory limit when two share it.
#[test]
fn solves_at_once_share_max_memory() {
    let i = inst("LCCCCCLCCCCCCCLL", 8, 1, 4);
    let opts = SolveOptions::default().with_budget(Budget::new(None, 2 << 20)).with_dense(false);
    let in_pool = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| gpu_makespan::experiments::approx::table(&i, &[8, 8], &opts, &|| {})).unwrap()
    };
    assert!(in_pool(1).iter().all(|r| r.exact && r.makespan == 48));
    let shared = in_pool(2);
    assert!(shared.iter().all(|r| !r.exact && r.makespan <= 48 && r.upper_bound >= 48), "{shared:?}");
}

/// Inside a rayon pool (where `approx` and `converge` run), `solve` with a time limit runs
/// the beams on its own thread before its branch and bound (no beam thread), while
/// `solve_alone`, used for their final `T^(W)`, runs the search as the command line does,
/// with its beam thread: both report a beam schedule.
#[test]
fn solve_alone_runs_the_beam_thread_inside_a_pool() {
    let i = inst("LCCCCCLCCCCCCCLL", 64, 1, 4);
    let opts = SolveOptions::default().with_budget(Budget::new(Some(std::time::Duration::from_millis(1500)), DEFAULT_MAX_MEMORY));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let beam = |alone: bool| {
        let s = pool
            .install(
                // Each solve gets the whole limit, from when it starts.
                || {
                    if alone {
                        gpu_makespan::exact::solve::solve_alone(&i, &opts.restarted())
                    } else {
                        gpu_makespan::exact::solve::solve(&i, &opts.restarted())
                    }
                },
            )
            .unwrap();
        s.outcome.stats.search.expect("the search ran").beam_lower_bound
    };
    assert!(beam(false) > 0);
    assert!(beam(true) > 0);
}
