//! The paper's approximation: formula, the LCL counterexample, proven bound beside it,
//! and the convergence / constraint-form outputs.

use assert_cmd::Command;
use gpu_makespan::approx::approx;
use gpu_makespan::bounds;
use gpu_makespan::ilp::{self, ConstraintForm, IlpOptions};
use gpu_makespan::instance::Instance;
use gpu_makespan::solve::SolveOptions;
use proptest::prelude::*;
use serde_json::Value;

fn instance() -> impl Strategy<Value = Instance> {
    (proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=6), 1i64..=10, 1i64..=3, 1i64..=3)
        .prop_map(|(k, w, l, c)| Instance::new(&k.into_iter().collect::<String>(), w, l, c).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `safe_upper_bound` is never below the exact T^(W) (obtained by a separate search run),
    /// and the estimate is the formula over the table.
    #[test]
    fn safe_upper_bound_is_safe(inst in instance(), x in 1u32..=10) {
        let x = x.min(inst.warps);
        let a = approx(&inst, x, &SolveOptions::default(), &|| {}).unwrap();
        let exact = gpu_makespan::solve::solve(&inst, &SolveOptions::default()).unwrap();
        prop_assert!(exact.exact);
        prop_assert!(a.safe_upper_bound >= exact.makespan);
        prop_assert!(a.safe_upper_bound <= bounds::safe_horizon(&inst));
        let w = inst.warps as u64;
        let formula = a.rows.iter().map(|r| w.div_ceil(r.y as u64) * r.makespan).min().unwrap();
        prop_assert_eq!(a.estimate, formula);
        prop_assert!(!a.estimate_is_bound);
    }
}

/// The estimate equals eqs. 42-43 evaluated on T^(y) obtained independently by the ILP.
#[test]
fn estimate_matches_formula_on_ilp_values() {
    for (k, w, x) in [("LLCLL", 6, 3), ("LCL", 4, 2), ("LCLCL", 5, 2)] {
        let inst = Instance::new(k, w, 1, 1).unwrap();
        let a = approx(&inst, x, &SolveOptions::default(), &|| {}).unwrap();
        let formula = (1..=x)
            .map(|y| {
                let iy = inst.with_warps(y);
                let opts = IlpOptions { form: ConstraintForm::Short, horizon: bounds::safe_horizon(&iy), time_limit: None, symmetry_breaking: true, start: None };
                let t = ilp::solve(&iy, &opts).unwrap().makespan.unwrap();
                (w as u64).div_ceil(y as u64) * t
            })
            .min()
            .unwrap();
        assert_eq!(a.estimate, formula, "{k} W={w} x={x}");
    }
}

#[test]
fn lcl_counterexample_via_cli() {
    let out = Command::cargo_bin("makespan").unwrap().args(["approx", "instances/lcl-approx-counterexample.toml", "--x", "2", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["estimate"], 8);
    assert_eq!(v["argmin_y"], 2);
    assert_eq!(v["exact_makespan"], 9);
    assert_eq!(v["safe_upper_bound"], 9);
    assert_eq!(v["estimate_is_bound"], false);
    assert_eq!(v["rows"][1]["scaled"], 8);
    for key in ["x", "estimate", "argmin_y", "rows", "safe_upper_bound", "estimate_is_bound"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    Command::cargo_bin("makespan")
        .unwrap()
        .args(["approx", "instances/lcl-approx-counterexample.toml", "--x", "2"])
        .assert()
        .success()
        .stdout(predicates::str::contains("[ESTIMATE, not a bound]"))
        .stdout(predicates::str::contains("9  [proven upper bound]"));
}

#[test]
fn converge_and_compare_constraints_write_csv_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, svg) = (dir.path().join("c.csv"), dir.path().join("c.svg"));
    Command::cargo_bin("makespan")
        .unwrap()
        .args(["converge", "instances/fig6-llcll-w600.toml", "--x-max", "6", "--threads", "1", "--csv"])
        .arg(&csv)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "x,t_x,t_x_exact,scaled,estimate,seconds,pessimistic,safe_horizon");
    assert_eq!(lines.len(), 7);
    // LLCLL, sigma 1: T^(x) = 4x + 1, so T^(600,1) = 600 * 5.
    assert!(lines[1].starts_with("1,5,true,3000,3000,"), "{}", lines[1]);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let (csv, svg) = (dir.path().join("f.csv"), dir.path().join("f.svg"));
    Command::cargo_bin("makespan")
        .unwrap()
        .args(["compare-constraints", "--kernel", "LLC", "--warps", "3", "--warps-max", "3", "--csv"])
        .arg(&csv)
        .arg("--svg")
        .arg(&svg)
        .assert()
        .success();
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 4);
    assert!(text.lines().nth(3).unwrap().ends_with(",true,7"), "{text}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn bad_x_is_exit_2() {
    for x in ["0", "5", "-1"] {
        let out = Command::cargo_bin("makespan").unwrap().args(["approx", "instances/lcl-approx-counterexample.toml", "--x", x]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--x"));
    }
}
