//! The dense programme against the plain DP and the branch and bound, its ranking
//! against the states the plain DP reaches, and its place inside `search::solve`.

use crate::common;

use common::{exact_branch_and_bound, inst, instances, plain_dp};
use gpu_makespan::budget::Budget;
use gpu_makespan::exact::dense::{self, Limits, Ranking, Unsolved};
use gpu_makespan::exact::search::{self, SearchLimits};
use gpu_makespan::model::bounds;
use gpu_makespan::model::checker::check;
use gpu_makespan::state::transitions::Transitions;
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The dense programme's path, with one thread or two sharing the table, is as long
    /// as the plain DP's value and passes the checker, and it solves exactly the states the
    /// plain DP reaches; every one of them has its own rank below `C(I + W, W)`.
    #[test]
    fn dense_equals_plain_dp(inst in instances(12, 9, 3, 4)) {
        let trans = Transitions::new(&inst);
        let mut memo = HashMap::new();
        let t = plain_dp(&trans, &trans.start(), &mut memo);
        for threads in [1, 2] {
            let solved = dense::longest(&inst, bounds::safe_horizon(&inst), Limits { threads, ..Limits::table(u64::MAX) }).unwrap();
            prop_assert_eq!(solved.trace.cycles(), t);
            prop_assert_eq!(check(&inst, &solved.trace.schedule(inst.warps, inst.len())), Ok(t));
            prop_assert_eq!(solved.solved, memo.len() as u64);
        }
        let ranking = Ranking::for_instance(&inst, u64::MAX).unwrap();
        let ranks: HashSet<usize> = memo.keys().map(|s| ranking.rank(s)).collect();
        prop_assert_eq!(ranks.len(), memo.len());
        prop_assert!(ranks.iter().all(|&r| (r as u64) < ranking.states()));
    }

    /// `search::solve` gives the same exact value with and without the dense table.
    #[test]
    fn search_with_and_without_dense_agree(inst in instances(10, 8, 2, 4)) {
        let with = search::solve(&inst, SearchLimits::default()).unwrap();
        let without = exact_branch_and_bound(&inst);
        prop_assert!(with.exact());
        prop_assert_eq!(with.lower_bound(), without.lower_bound());
    }
}

/// `tx2-0064`'s kernel at 5 warps: 1.6 M states reached, too many for the branch and
/// bound's first 20 000.
const TX2_0064: &str = "LCCCCCCCCCCLLCCCCCLLLLCCCCLCCCCCCCLLLLCCCCCCCCCCCLCCCCCCCCCCCCLL";

#[test]
fn the_dense_table_answers_only_where_it_fits_in_half_the_memory_limit() {
    let i = inst(TX2_0064, 5, 1, 4);
    // The safe horizon is 173, below 255: one byte per state.
    assert_eq!(gpu_makespan::model::bounds::safe_horizon(&i), 173);
    let table = dense::states(64, 5).unwrap() as usize;
    let out = search::solve(&i, SearchLimits { budget: Budget::new(None, 2 * table), ..SearchLimits::default() }).unwrap();
    assert_eq!((out.lower_bound(), out.upper_bound()), (134, 134));
    assert_eq!(out.stats.search.unwrap().dense_states, 1_629_865);
    let limits = SearchLimits { budget: Budget::new(Some(Duration::from_millis(500)), 2 * table - 2), ..SearchLimits::default() };
    let out = search::solve(&i, limits).unwrap();
    assert_eq!(out.stats.search.unwrap().dense_states, 0);
    assert!(out.lower_bound() <= 134 && out.upper_bound() >= 134);
}

#[test]
fn a_short_branch_and_bound_answers_first_where_the_bounds_are_tight() {
    // sigma 1/1: the last-warp bound is exact at the start, nothing is expanded.
    let i = inst("LLCCLLCLLCCL", 16, 1, 1);
    let out = search::solve(&i, SearchLimits::default()).unwrap();
    assert_eq!(out.lower_bound(), out.upper_bound());
    assert_eq!(out.stats.search.unwrap().dense_states, 0);
}

#[test]
fn the_tx2_kernel_of_64_instructions_at_six_warps() {
    // The branch and bound ends a minute at [157, 186] here; the dense programme solves
    // the 26 M reachable states of 131 M.
    let i = inst(TX2_0064, 6, 1, 4);
    assert_eq!(dense::states(64, 6), Some(131_115_985));
    let limits = Limits { budget: Budget::new(Some(Duration::from_secs(600)), 1 << 30), threads: 2, ..Limits::table(u64::MAX) };
    let s = dense::longest(&i, bounds::safe_horizon(&i), limits).unwrap();
    assert_eq!(s.trace.cycles(), 158);
    assert_eq!(check(&i, &s.trace.schedule(6, 64)), Ok(158));
}

#[test]
fn too_large_and_out_of_time_are_told_apart() {
    let i = inst("LLC", 64, 1, 1);
    assert_eq!(dense::longest(&i, bounds::safe_horizon(&i), Limits::table(1000)).unwrap_err(), Unsolved::TooLarge);
    let past = Limits { budget: Budget::new(Some(Duration::ZERO), 1 << 20), ..Limits::table(u64::MAX) };
    assert_eq!(dense::longest(&i, bounds::safe_horizon(&i), past).unwrap_err(), Unsolved::TimeLimit);
}
