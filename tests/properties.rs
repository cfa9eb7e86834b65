//! Property tests: independent methods compared on random instances.

use gpu_makespan::bounds;
use gpu_makespan::checker::check;
use gpu_makespan::heuristic::longest_rollout;
use gpu_makespan::ilp::{self, ConstraintForm, IlpOptions};
use gpu_makespan::instance::Instance;
use gpu_makespan::search::{self, SearchLimits};
use gpu_makespan::state::Model;
use proptest::prelude::*;
use std::time::Duration;

fn kernel(max_len: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=max_len).prop_map(|v| v.into_iter().collect())
}

/// Random instances in the ranges: 1-8 instructions, 1-10 warps,
/// sigma_L in 1..3, sigma_C in 1..4.
fn instance() -> impl Strategy<Value = Instance> {
    (kernel(8), 1i64..=10, 1i64..=3, 1i64..=4).prop_map(|(k, w, l, c)| Instance::new(&k, w, l, c).unwrap())
}

/// Instances small enough for HiGHS to prove optimality in well under a second.
fn small_instance() -> impl Strategy<Value = Instance> {
    instance().prop_filter("ILP-sized", |i| i.warps as usize * i.len() <= 12)
}

fn exact_search(inst: &Instance) -> (u64, gpu_makespan::schedule::Schedule) {
    let m = Model::new(inst).unwrap();
    let out = search::solve(&m, SearchLimits::default());
    assert!(out.exact);
    (out.makespan, m.schedule_of(&out.path))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// search is exact, its witness passes the checker, and it lies between the proven
    /// lower bound and the safe horizon; the heuristic never exceeds it.
    #[test]
    fn search_witness_and_bounds(inst in instance()) {
        let (t, s) = exact_search(&inst);
        prop_assert_eq!(check(&inst, &s), Ok(t));
        prop_assert!(t <= bounds::safe_horizon(&inst));
        prop_assert!(t >= bounds::lower_bound(&inst));
        let m = Model::new(&inst).unwrap();
        let h = longest_rollout(&m, 4, 7);
        prop_assert!(h.length <= t);
        prop_assert_eq!(check(&inst, &m.schedule_of(&h.path)), Ok(h.length));
        if inst.sigma_l == 1 && inst.sigma_c == 1 {
            prop_assert!(t <= bounds::pessimistic(&inst));
        }
    }
}

/// Longest path by plain memoised recursion over the transition system: no bounds,
/// no pruning, no heuristic. Independent of the search's branch and bound.
fn plain_dp(m: &Model, s: gpu_makespan::state::State, memo: &mut std::collections::HashMap<u128, u64>) -> u64 {
    if s == 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let mut succ = Vec::new();
    m.successors(s, &mut succ);
    let v = 1 + succ.iter().map(|&n| plain_dp(m, n, memo)).max().unwrap();
    memo.insert(s, v);
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Branch and bound (with its upper bounds) loses nothing: it equals the plain DP,
    /// and the per-state upper bound holds at every state the plain DP visited.
    #[test]
    fn search_equals_plain_dp_and_bounds_hold(inst in instance()) {
        let m = Model::new(&inst).unwrap();
        let mut memo = std::collections::HashMap::new();
        let t = plain_dp(&m, m.start(), &mut memo);
        prop_assert_eq!(exact_search(&inst).0, t);
        for (&s, &v) in &memo {
            prop_assert!(m.upper_bound(s) >= v, "state {:x}: bound {} < {}", s, m.upper_bound(s), v);
            prop_assert!(m.lower_bound(s) <= v);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The ILP (safe horizon) and the search agree exactly; the ILP schedule passes the checker.
    #[test]
    fn search_equals_ilp(inst in small_instance(), long in any::<bool>()) {
        let (t, _) = exact_search(&inst);
        let form = if long { ConstraintForm::Long } else { ConstraintForm::Short };
        let opts = IlpOptions { form, horizon: bounds::safe_horizon(&inst), time_limit: None, symmetry_breaking: true, start: None };
        let out = ilp::solve(&inst, &opts).unwrap();
        prop_assert!(out.optimal);
        let s = out.schedule.unwrap();
        prop_assert_eq!(check(&inst, &s), Ok(out.makespan.unwrap()));
        prop_assert_eq!(out.makespan.unwrap(), t, "{} W={} sl={} sc={}", inst.kernel, inst.warps, inst.sigma_l, inst.sigma_c);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// On the full range, a time-limited ILP brackets the exact value: its schedule is
    /// never longer, its proven bound never shorter.
    #[test]
    fn ilp_brackets_search_on_full_range(inst in instance()) {
        let (t, _) = exact_search(&inst);
        let opts = IlpOptions {
            form: ConstraintForm::Short,
            horizon: bounds::safe_horizon(&inst),
            time_limit: Some(Duration::from_millis(1500)),
            symmetry_breaking: true,
            start: None,
        };
        let out = ilp::solve(&inst, &opts).unwrap();
        if let (Some(m), Some(s)) = (out.makespan, &out.schedule) {
            prop_assert_eq!(check(&inst, s), Ok(m));
            prop_assert!(m <= t);
        }
        prop_assert!(out.dual_bound >= t);
    }
}

#[test]
fn short_and_long_forms_agree_on_the_paper_instances() {
    for (k, w, l, c) in [("LLC", 4, 1, 1), ("LCL", 4, 1, 1), ("LLCLL", 3, 1, 1), ("LLCLLL", 4, 2, 2), ("LLCLLCLL", 2, 1, 1)] {
        let inst = Instance::new(k, w, l, c).unwrap();
        let values: Vec<u64> = [ConstraintForm::Short, ConstraintForm::Long]
            .into_iter()
            .map(|form| {
                let opts = IlpOptions { form, horizon: bounds::safe_horizon(&inst), time_limit: None, symmetry_breaking: true, start: None };
                ilp::solve(&inst, &opts).unwrap().makespan.unwrap()
            })
            .collect();
        assert_eq!(values[0], values[1], "{k} W={w}");
        assert_eq!(values[0], exact_search(&inst).0, "{k} W={w}");
    }
}
