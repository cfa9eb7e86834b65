//! The ILP against the exact search.

use crate::common;

use common::{exact, ilp_options, inst, instance};
use gpu_makespan::exact::ilp::{self, ConstraintForm};
use gpu_makespan::model::checker::check;
use gpu_makespan::model::instance::Instance;
use proptest::prelude::*;
use std::time::Duration;

/// Instances small enough for HiGHS to prove optimality in well under a second.
fn small_instance() -> impl Strategy<Value = Instance> {
    instance().prop_filter("ILP-sized", |i| i.warps as usize * i.len() <= 12)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The ILP (safe horizon) and the search agree exactly; the ILP schedule passes the checker.
    #[test]
    fn search_equals_ilp(inst in small_instance(), long in any::<bool>()) {
        let t = exact(&inst).lower_bound();
        let form = if long { ConstraintForm::Long } else { ConstraintForm::Short };
        let out = ilp::solve(&inst, &ilp_options(&inst, form)).unwrap();
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
        let t = exact(&inst).lower_bound();
        let opts = ilp::IlpOptions { time_limit: Some(Duration::from_millis(1500)), ..ilp_options(&inst, ConstraintForm::Short) };
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
        let i = inst(k, w, l, c);
        let values: Vec<u64> = [ConstraintForm::Short, ConstraintForm::Long]
            .into_iter()
            .map(|form| ilp::solve(&i, &ilp_options(&i, form)).unwrap().makespan.unwrap())
            .collect();
        assert_eq!(values[0], values[1], "{k} W={w}");
        assert_eq!(values[0], exact(&i).lower_bound(), "{k} W={w}");
    }
}

/// The ILP's row and variable counts are those of the model before the refactoring
/// (Fig. 2 instance, both forms): the model did not change.
#[test]
fn model_size_of_fig2_is_unchanged() {
    let i = inst("LLC", 4, 1, 1);
    for (form, rows) in [(ConstraintForm::Short, ROWS_SHORT), (ConstraintForm::Long, ROWS_LONG)] {
        let out = ilp::solve(&i, &ilp_options(&i, form)).unwrap();
        assert_eq!((out.variables, out.rows), (VARS, rows), "{form:?}");
    }
}

const VARS: usize = 144;
const ROWS_SHORT: usize = 253;
const ROWS_LONG: usize = 221;
