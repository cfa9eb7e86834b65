//! Every input that used to panic, hang, blow up memory or answer unhelpfully,
//! each with the behaviour it has now (a one-line error with exit code 2, or a correct
//! answer within the limits).

use crate::common;

use common::cli::{input_error, json_of, makespan, temp_file as write};
use std::io::Read;
use std::process::Stdio;

#[test]
fn huge_time_limits_are_refused_by_every_command() {
    input_error(&["solve", "--kernel", "LLC", "--warps", "4", "--time-limit", "1e20"], "--time-limit");
    input_error(&["approx", "--kernel", "LLC", "--warps", "4", "--x", "2", "--time-limit", "1e20"], "--time-limit");
    input_error(&["converge", "--kernel", "LLC", "--warps", "4", "--x-max", "2", "--time-limit", "1e20"], "--time-limit");
    input_error(&["compare-constraints", "--kernel", "LLC", "--warps", "2", "--warps-max", "2", "--time-limit", "1e20"], "--time-limit");
    input_error(&["rta", "instances/rta-chapter-example.toml", "--time-limit", "1e20"], "--time-limit");
}

#[test]
fn negative_values_are_values_not_flags() {
    input_error(&["solve", "--kernel", "LLC", "--warps", "4", "--time-limit", "-inf"], "--time-limit");
    input_error(&["approx", "--kernel", "LLC", "--warps", "4", "--x", "2", "--threads", "-1"], "--threads");
    input_error(&["approx", "--kernel", "LLC", "--warps", "4", "--x", "2", "--threads", "100000"], "--threads");
    input_error(&["solve", "--kernel", "LLC", "--warps", "-3"], "warps");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // About 3 MB of chart: far more than a pipe holds, so the tool is still writing.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("makespan"))
        .args(["solve", "--kernel", "LLC", "--warps", "1000", "--schedule"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_full_disk_is_a_one_line_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("makespan"))
        .args(["bound", "--kernel", "LLC", "--warps", "3"])
        .stdout(full)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("standard output"), "{err}");
}

#[test]
fn horizons_beyond_the_safe_horizon_are_cut_to_it() {
    for h in ["9223372036854775808", "18446744073709551615"] {
        let v = json_of(&["solve", "--kernel", "LLC", "--warps", "2", "--method", "ilp", "--horizon", h]);
        assert_eq!(v["makespan"], 5);
        assert_eq!(v["horizon"], 6);
        assert_eq!(v["exact"], true);
        assert!(v["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("above the safe horizon")));
    }
}

#[test]
fn rta_sizes_are_capped() {
    let dir = tempfile::tempdir().unwrap();
    let sms = write(
        &dir,
        "sms.toml",
        "[gpu]\nmax_threads = 1099511627776\n[[kernels]]\nperiod = 10\nwcet = 1\nblocks = 3\nthreads_per_block = 1\n",
    );
    input_error(&["rta", &sms], "gpu.max_threads");
    let many = write(&dir, "many.toml", "[[kernels]]\nperiod = 10\nwcet = 1\nblocks = 1000000000000\nthreads_per_block = 512\n");
    input_error(&["rta", &many], "kernels[0].blocks");
    let big = write(&dir, "big.toml", "[[kernels]]\nperiod = 10\nwcet = 1\nblocks = 100000000\nthreads_per_block = 512\n");
    input_error(&["rta", &big], "kernels[0].blocks");
    let svg = dir.path().join("t.svg").display().to_string();
    let wide = write(&dir, "wide.toml", "[[kernels]]\nperiod = 10\nwcet = 1\nblocks = 200000\nthreads_per_block = 512\n");
    input_error(&["rta", &wide, "--svg", &svg], "--svg");
    let kernels: String =
        (0..2000).map(|i| format!("[[kernels]]\nname = \"K{i}\"\nperiod = 10\nwcet = 1\nblocks = 1\nthreads_per_block = 512\n")).collect();
    let kernels = write(&dir, "kernels.toml", &kernels);
    input_error(&["rta", &kernels, "--svg", &svg], "--svg");
    // Huge times are exact and still drawn.
    let huge = write(&dir, "huge.toml", "[[kernels]]\nperiod = 1e30\nwcet = 1\nblocks = 3\nthreads_per_block = 512\nrelease = 1e30\n");
    makespan().args(["rta", &huge, "--svg", &svg]).assert().success();
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn oversized_inputs_and_outputs_are_refused() {
    input_error(&["solve", "/dev/zero"], "file");
    input_error(&["solve", "--kernel", "LLC", "--warps", "1000000", "--schedule"], "--schedule");
    input_error(&["solve", "--kernel", "LLC", "--warps", "1000000", "--schedule", "--json"], "--schedule");
    let dir = tempfile::tempdir().unwrap();
    let long = write(&dir, "long.toml", &format!("kernel = \"{}\"\nwarps = 2\n", "LX".repeat(500_000)));
    let err = input_error(&["solve", &long], "kernel");
    assert!(err.len() < 400, "{} characters", err.len());
    let err = input_error(&["solve", "--kernel", &"LX".repeat(50_000), "--warps", "2"], "kernel");
    assert!(err.len() < 400, "{} characters", err.len());
}

#[test]
fn answers_that_were_wrong() {
    // The ILP's warm start no longer depends on the search's encoding.
    let l70 = "L".repeat(70);
    let v = json_of(&["solve", "--kernel", &l70, "--warps", "2", "--method", "ilp", "--time-limit", "1"]);
    assert!(v["status"] == "time_limit" || v["status"] == "optimal", "{}", v["status"]);
    assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64());
    let v = json_of(&["solve", "--kernel", "LCCCCCLCCCCCCCLL", "--warps", "24", "--sigma-c", "4", "--max-states", "1"]);
    assert_eq!(v["status"], "max_states");
    // The memory limit is in bytes, and any size is searched (24 instructions at W = 64
    // do not fit the packed encodings).
    let v = json_of(&["solve", "--kernel", "LCCCCCLCCCCCCCLL", "--warps", "24", "--sigma-c", "4", "--max-memory", "4M"]);
    assert_eq!(v["status"], "max_memory");
    assert_eq!(v["stopped_by"], "max_memory");
    assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64());
    let v = json_of(&["solve", "--kernel", &"LC".repeat(12), "--warps", "64", "--max-memory", "4M"]);
    assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64());
    input_error(&["solve", "--kernel", "LLC", "--warps", "2", "--max-memory", "12X"], "--max-memory");
    input_error(&["solve", "--kernel", "LLC", "--warps", "2", "--max-memory", "10"], "--max-memory");
    // A missing argument is named; a bad value lists the valid ones.
    input_error(&["approx", "--kernel", "LLC", "--warps", "3"], "--x");
    let err = input_error(&["solve", "--kernel", "LLC", "--warps", "2", "--constraints", "medium"], "--constraints");
    assert!(err.contains("short") && err.contains("long"), "{err}");
}

#[test]
fn file_errors_name_the_right_line_and_value() {
    let dir = tempfile::tempdir().unwrap();
    let dup = write(&dir, "dup.toml", "kernel = \"LLC\"\nwarps = 2\nwarps = 3\n");
    let err = input_error(&["solve", &dup], "line 3");
    assert!(err.contains("duplicate key") && err.contains("warps"), "{err}");
    let bad = write(&dir, "bad.toml", "kernel = \"LLC\"\nwarps = \"four\"\n");
    input_error(&["solve", &bad], "line 2");
    let sm = write(&dir, "sm.toml", "kernel = \"LLC\"\nwarps = 2\n[sm]\nload_store_units = 65536\ncuda_cores = 32\nwarp_size = 32\n");
    input_error(&["solve", &sm], "sm.load_store_units = 65536");
}

#[test]
fn output_paths_are_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "plain", "x");
    let inside_a_file = format!("{file}/x.csv");
    let err = input_error(&["converge", "--kernel", "LLC", "--warps", "2", "--x-max", "1", "--csv", &inside_a_file], "--csv");
    assert!(err.contains("not a directory"), "{err}");
    // A bad --svg stops compare-constraints before it solves anything: the --csv given
    // beside it is never written.
    let csv = dir.path().join("forms.csv");
    input_error(
        &[
            "compare-constraints",
            "--kernel",
            "LLCLL",
            "--warps",
            "6",
            "--warps-max",
            "6",
            "--csv",
            csv.to_str().unwrap(),
            "--svg",
            &format!("{file}/f.svg"),
        ],
        "--svg",
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap_or_default(), "");
}

#[test]
fn task_set_names_are_unique_and_not_empty() {
    let dir = tempfile::tempdir().unwrap();
    let k = |name: &str| format!("[[kernels]]\nname = \"{name}\"\nperiod = 10\nwcet = 1\nblocks = 1\nthreads_per_block = 512\n");
    let dup = write(&dir, "dup.toml", &(k("A") + &k("A")));
    input_error(&["rta", &dup], "kernels[1].name");
    let empty = write(&dir, "empty.toml", &k(" "));
    input_error(&["rta", &empty], "kernels[0].name");
}

#[test]
fn standard_input_is_read_with_a_dash() {
    makespan()
        .args(["solve", "-"])
        .write_stdin("kernel = \"LLC\"\nwarps = 4\n")
        .assert()
        .success()
        .stdout(predicates::str::contains("makespan            9"));
    let toml = std::fs::read_to_string("instances/rta-chapter-example.toml").unwrap();
    makespan().args(["rta", "-", "--json"]).write_stdin(toml).assert().success().stdout(predicates::str::contains("\"finish\": 12.0"));
    let config = std::fs::read_to_string("instances/examiner/thesis-order1.json").unwrap();
    makespan().args(["rta", "-", "--json"]).write_stdin(config).assert().success().stdout(predicates::str::contains("\"unit\": \"s\""));
}

#[test]
fn conveniences() {
    let out = makespan().arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("(git "), "{}", String::from_utf8_lossy(&out.stdout));
    let out = makespan().args(["completions", "bash"]).output().unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("makespan"));
    let noisy = makespan().args(["converge", "--kernel", "LLC", "--warps", "2", "--x-max", "1"]).output().unwrap();
    assert!(!noisy.stderr.is_empty());
    let quiet = makespan().args(["converge", "--kernel", "LLC", "--warps", "2", "--x-max", "1", "--quiet"]).output().unwrap();
    assert!(quiet.status.success() && quiet.stderr.is_empty(), "{}", String::from_utf8_lossy(&quiet.stderr));
}

#[test]
fn a_dense_table_the_system_refuses_falls_back_to_the_branch_and_bound() {
    // tx2-0128's kernel at W = 5: the dense table (344 M states, 688 MB) fits the default
    // --max-memory but not the 600 MB of address space the process is given.
    let kernel = std::fs::read_to_string("instances/bench/tx2-0128.toml").unwrap();
    let kernel = kernel.lines().find_map(|l| l.strip_prefix("kernel = \"")).unwrap().trim_end_matches('"').to_string();
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg("ulimit -v 600000; exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("makespan"))
        .args(["solve", "--kernel", &kernel, "--warps", "5", "--sigma-l", "1", "--sigma-c", "4", "--time-limit", "1", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // However fast the machine: the branch and bound ran (no dense table), and what it
    // printed is a proven interval.
    assert!(v["status"] == "time_limit" || v["status"] == "optimal", "{}", v["status"]);
    assert_eq!(v["search_stats"]["dense_states"], 0);
    assert!(v["makespan"].as_u64().unwrap() <= v["upper_bound"].as_u64().unwrap());
}

#[test]
fn a_total_time_limit_ends_many_solves_with_the_rows_finished() {
    // A million T^(y): without --total-time-limit this runs for hours.
    let v =
        json_of(&["approx", "--kernel", "LLC", "--warps", "1000000", "--x", "1000000", "--time-limit", "0.01", "--total-time-limit", "1"]);
    assert_eq!(v["status"], "total_time_limit");
    let rows = v["rows"].as_array().unwrap();
    assert!(!rows.is_empty() && rows.len() < 1_000_000 && rows[0]["y"] == 1);
    let est = v["estimate"].as_u64().unwrap();
    assert_eq!(est, rows.iter().map(|r| r["scaled"].as_u64().unwrap()).min().unwrap());
    assert!(v["notes"].to_string().contains("not computed"));

    let out = makespan()
        .args(["converge", "--kernel", "LLC", "--warps", "100000", "--x-max", "100000", "--time-limit", "0.01", "--total-time-limit", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!(lines > 1 && lines < 100_001, "{lines} lines");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the total time limit ended the run"));

    input_error(&["approx", "--kernel", "LLC", "--warps", "2", "--x", "2", "--total-time-limit", "0"], "--total-time-limit");
}

#[test]
fn compare_constraints_keeps_its_rows_when_the_ilp_gets_too_large() {
    // 800 instructions: W = 1 builds, W = 2 passes the ILP's model cap.
    let kernel = "LC".repeat(400);
    let out = makespan().args(["compare-constraints", "--kernel", &kernel, "--warps-max", "50", "--time-limit", "5"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().nth(1).unwrap().ends_with(",true,800"), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("stopped at W = 2: too large"));
}

#[test]
fn the_block_search_takes_any_block_count() {
    // 21 blocks and more panicked (a sort key drawn anew at every comparison).
    for b in ["21", "33", "64"] {
        let v = json_of(&["solve", "--kernel", "L|C", "--warps", b, "--warps-per-block", "1", "--time-limit", "2"]);
        assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64(), "{b} blocks: {v}");
        let v = json_of(&[
            "solve",
            "--kernel",
            "LLC|CL",
            "--warps",
            &(2 * b.parse::<u64>().unwrap()).to_string(),
            "--warps-per-block",
            "2",
            "--time-limit",
            "1",
        ]);
        assert!(v["makespan"].as_u64() <= v["upper_bound"].as_u64(), "{b} blocks: {v}");
    }
    // rta of a barrier kernel under full-sm without an arbitration runs the block search.
    let v = json_of(&["rta", "instances/rta-barrier-full-sm.toml", "--time-limit", "2"]);
    let k1 = &v["kernels"][0];
    assert!(k1["wcet_source"].as_str().unwrap().contains("32 blocks of 2 warps"), "{k1}");
}

#[test]
fn warps_beyond_one_block_with_barriers_are_split_by_the_user() {
    // One block has at most 32 warps; a barrier holds only its own block.
    let err = input_error(&["solve", "--kernel", "L|C", "--warps", "64"], "--warps");
    assert!(err.contains("warps_per_block"), "{err}");
    input_error(&["solve", "instances/real/reduction.toml", "--warps", "40"], "--warps");
    input_error(&["bound", "--kernel", "LC|CL", "--warps", "33"], "--warps");
    // Split as the user states, or without barriers, any count is taken.
    json_of(&["solve", "--kernel", "L|C", "--warps", "64", "--warps-per-block", "32", "--time-limit", "1"]);
    json_of(&["solve", "--kernel", "LC", "--warps", "64"]);
}

/// Times near 2^128 ticks: the work bounds' fixed points once wrapped and gave a bound
/// below the per-SM run ("methods disagree"). A cold review's two sets, each a high
/// kernel filling the GPU beside low kernels released with it: answered, and the low
/// kernel L waits at least for H's block (it may enter first) and its own.
#[test]
fn work_bounds_near_the_largest_time_do_not_wrap() {
    let low = |name: &str, wcet: &str, release: &str| {
        format!("[[kernels]]\nname = \"{name}\"\nwcet = {wcet}\nblocks = 1\nthreads_per_block = 128\nregisters_per_thread = 255\nperiod = 3.4e38\nrelease = {release}\n")
    };
    let high = |wcet: &str, release: &str| {
        format!("[[kernels]]\nname = \"H\"\npriority = \"high\"\nwcet = {wcet}\nblocks = 4\nthreads_per_block = 1024\nperiod = 3.4e38\nrelease = {release}\n")
    };
    let (r0, r1) = ("340282366916936082569758234099201242810e0", "340282366916936082569758234099201242811e0");
    let wrap = low("A", "2478297930194194206923262275e0", r0) + &high("381020740855544781410926592e0", r1) + &low("L", "1", r1);
    let r = "340282366920933627760096148915069386741e0";
    let ovf = high("1208925819614629174706176e0", r) + &low("L", "1", r);
    for (text, h) in [(wrap, 381020740855544781410926592.0), (ovf, 1208925819614629174706176.0)] {
        let out = makespan().args(["rta", "-", "--json"]).write_stdin(text).assert().success().get_output().stdout.clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let l = v["kernels"].as_array().unwrap().iter().find(|k| k["name"] == "L").unwrap();
        assert!(l["response"].as_f64().unwrap() >= h, "L: {}", l["response"]);
    }
}
