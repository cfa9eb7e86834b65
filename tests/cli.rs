//! CLI tests on the real `makespan` binary.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn makespan() -> Command {
    Command::cargo_bin("makespan").unwrap()
}

fn json_of(args: &[&str]) -> Value {
    let out = makespan().args(args).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn fig2_example_prints_9_and_its_schedule() {
    makespan()
        .args(["solve", "instances/fig2-llc.toml", "--schedule"])
        .assert()
        .success()
        .stdout(predicate::str::contains("makespan            9  [exact"))
        .stdout(predicate::str::contains("warp 4 ...L...LC"));
}

#[test]
fn solve_json_has_the_contract_fields() {
    for method in ["ilp", "search"] {
        let v = json_of(&["solve", "instances/fig2-llc.toml", "--schedule", "--method", method]);
        for key in ["kernel", "warps", "sigma_l", "sigma_c", "method", "constraints", "horizon", "status", "makespan", "upper_bound", "seconds", "schedule"] {
            assert!(v.get(key).is_some(), "{method}: missing {key}");
        }
        assert_eq!(v["makespan"], 9);
        assert_eq!(v["upper_bound"], 9);
        assert_eq!(v["status"], "optimal");
        assert_eq!(v["method"], method);
        let sched = v["schedule"].as_array().unwrap();
        assert_eq!(sched.len(), 12);
        let last = sched.iter().map(|e| e["cycle"].as_u64().unwrap()).max().unwrap();
        assert_eq!(last, 9);
        assert!(sched.iter().all(|e| e["warp"].as_u64().unwrap() >= 1 && e["instruction"].as_u64().unwrap() >= 1));
    }
}

#[test]
fn counterexample_safe_vs_paper_horizon() {
    let safe = json_of(&["solve", "instances/counterexample-sigma2.toml", "--method", "ilp"]);
    assert_eq!(safe["makespan"], 13);
    assert_eq!(safe["horizon"], 14);
    let paper = json_of(&["solve", "instances/counterexample-sigma2.toml", "--method", "ilp", "--horizon", "paper"]);
    assert_eq!(paper["makespan"], 12);
    assert_eq!(paper["horizon_may_cut"], true);
    assert_eq!(paper["exact"], false);
    assert!(paper["upper_bound"].as_u64().unwrap() >= 13, "the upper bound must stay proven");
    makespan()
        .args(["solve", "instances/counterexample-sigma2.toml", "--method", "ilp", "--horizon", "paper"])
        .assert()
        .success()
        .stdout(predicate::str::contains("may have cut it"));
}

#[test]
fn bound_reports_eq5_as_unproven_when_sigma_exceeds_one() {
    let v = json_of(&["bound", "instances/counterexample-sigma2.toml"]);
    assert_eq!(v["pessimistic"], 12);
    assert_eq!(v["safe_horizon"], 14);
    assert_eq!(v["pessimistic_is_proven"], false);
    makespan()
        .args(["bound", "instances/counterexample-sigma2.toml"])
        .assert()
        .success()
        .stdout(predicate::str::contains("not a proven bound"));
}

#[test]
fn fermi_transformation_and_kernel_flags() {
    let v = json_of(&["solve", "instances/fig7-lclcl-fermi.toml"]);
    assert_eq!(v["kernel"], "LLCLLCLL");
    let v = json_of(&["solve", "--kernel", "LCL", "--warps", "4"]);
    assert_eq!(v["makespan"], 9);
    let v = json_of(&["solve", "--kernel", "LLCLLL", "--warps", "4", "--sigma-l", "2", "--sigma-c", "2", "--method", "both"]);
    assert_eq!(v["makespan"], 13);
    let v = json_of(&["solve", "--kernel", "LLCLL", "--warps", "8", "--method", "heuristic"]);
    assert_eq!(v["status"], "lower_bound");
    assert_eq!(v["exact"], false);
}

#[test]
fn time_and_state_limits_end_with_bounds() {
    let v = json_of(&["solve", "--kernel", "LLCCLLCLLCCL", "--warps", "24", "--max-states", "1000"]);
    assert_eq!(v["status"], "time_limit");
    assert_eq!(v["stopped_by"], "max_states");
    assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64());
    let v = json_of(&["solve", "--kernel", "LLCCLLCL", "--warps", "8", "--method", "ilp", "--time-limit", "0.5"]);
    assert!(v["status"] == "time_limit" || v["status"] == "optimal");
    assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64());
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let malformed = dir.path().join("bad.toml");
    std::fs::write(&malformed, "kernel = \"LLC\nwarps = 4\n").unwrap();
    let unknown = dir.path().join("unknown.toml");
    std::fs::write(&unknown, "kernel = \"LLC\"\nwarps = 4\ncolour = 1\n").unwrap();
    let cc21 = dir.path().join("cc21.toml");
    std::fs::write(&cc21, "kernel = \"LLC\"\nwarps = 4\n[sm]\nload_store_units = 16\ncuda_cores = 48\nwarp_size = 32\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--kernel".into(), "LXC".into(), "--warps".into(), "4".into()], "kernel"),
        (vec!["--kernel".into(), "".into(), "--warps".into(), "4".into()], "kernel"),
        (vec!["--kernel".into(), "LLC".into(), "--warps".into(), "0".into()], "warps"),
        (vec!["--kernel".into(), "LLC".into(), "--warps".into(), "4".into(), "--sigma-l".into(), "0".into()], "sigma_l"),
        (vec![malformed.display().to_string()], "file"),
        (vec![unknown.display().to_string()], "colour"),
        (vec![cc21.display().to_string()], "sm.cuda_cores"),
        (vec!["missing.toml".into()], "missing.toml"),
        (vec!["--kernel".into(), "LLCLLCLLCLLC".into(), "--warps".into(), "2000".into(), "--method".into(), "ilp".into()], "warps"),
        (vec!["--kernel".into(), "LLC".into(), "--warps".into(), "4".into(), "--method".into(), "ilp".into(), "--horizon".into(), "5".into()], "horizon"),
        (vec!["--kernel".into(), "LLC".into(), "--warps".into(), "4".into(), "--time-limit".into(), "-1".into()], "--time-limit"),
    ];
    for (args, field) in cases {
        let out = makespan().arg("solve").args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(field), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}
