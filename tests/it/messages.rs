//! Every subcommand's bad values: each refusal is one first line `error: invalid FIELD
//! [= VALUE]: reason` with exit code 2, and no message shows an empty or placeholder
//! value (`= (missing)`, `= set`, `= (given)`), parser jargon (`expected i64`,
//! `as i128`), a saturated count (`18446744073709551615`) or a wrong plural.

use crate::common::cli::{makespan, temp_file};

/// Text that must never appear in an error.
const PLACEHOLDERS: [&str; 14] = [
    "= (",
    "=  ",
    " = :",
    "= set:",
    "= and ",
    "(missing)",
    "(given)",
    "(set)",
    "expected i64",
    "expected u64",
    "as i128",
    "18446744073709551615",
    "1 barriers",
    "panicked",
];

fn refused(args: &[String]) -> String {
    let out = makespan().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "{args:?}: {err}");
    for p in PLACEHOLDERS {
        assert!(!err.contains(p), "{args:?} shows {p:?}: {err}");
    }
    err
}

#[test]
fn no_refusal_shows_a_placeholder() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| temp_file(&dir, name, text);
    let kernel_set = "[[kernels]]\nname = \"a\"\nperiod = 10\nblocks = 1\nthreads_per_block = 32\n";
    let cases: Vec<Vec<String>> = vec![
        // bound / solve / approx / converge / compare-constraints
        vec!["bound".into(), file("f1.toml", "kernel = \"LLC\"\nwarps = 4.5\n")],
        vec!["bound".into(), file("f2.toml", "kernel = \"LLC\"\nwarps = 99999999999999999999999\n")],
        vec!["solve".into(), file("f3.toml", "kernel = \"LLC\"\nwarps = -3\n")],
        vec!["solve".into(), file("f4.toml", "kernel = \"L|C\"\nwarps = 4\nwarps_per_block = 3\n")],
        vec!["solve".into(), "--kernel".into(), "LLC".into(), "--warps".into(), "3".into(), "--constraints".into(), "long".into()],
        vec!["solve".into(), "--kernel".into(), "LLC".into(), "--warps".into(), "3".into(), "--no-symmetry-breaking".into()],
        vec!["solve".into(), "--kernel".into(), "LLC".into(), "--warps".into(), "3".into(), "--time-limit".into(), "-1".into()],
        vec!["solve".into(), "--kernel".into(), "LLC".into(), "--warps".into(), "0".into()],
        vec!["solve".into(), "--kernel".into(), "LXC".into(), "--warps".into(), "2".into()],
        vec!["approx".into(), "--kernel".into(), "LLC".into(), "--warps".into(), "3".into(), "--x".into(), "9".into()],
        vec!["converge".into(), "--kernel".into(), "LLC".into(), "--warps".into(), "3".into(), "--x-max".into(), "0".into()],
        vec!["solve".into(), "--kernel".into(), "LLCLLC".into(), "--warps".into(), "4000".into(), "--method".into(), "ilp".into()],
        vec!["solve".into(), "--kernel".into(), "L|C".into(), "--warps".into(), "4".into(), "--method".into(), "ilp".into(), "--warps-per-block".into(), "2".into()],
        // rta
        vec!["rta".into(), file("r1.toml", "kernels = []\n")],
        vec!["rta".into(), file("r2.toml", &format!("{kernel_set}wcet = 1\ninstructions = \"LLC\"\n"))],
        vec!["rta".into(), file("r3.toml", kernel_set)],
        vec!["rta".into(), file("r4.toml", &format!("{kernel_set}wcet = 1\nblocks = 2.5\n"))],
        vec!["rta".into(), file("r5.toml", &format!("[gpu]\nclock = \"1.3 GHz\"\ncycle_time = 1\n{kernel_set}instructions = \"LLC\"\n"))],
        vec!["rta".into(), file("r6.toml", &format!("[gpu]\nclock = \"1.3 GHz\"\n{kernel_set}instructions = \"LLC\"\n"))],
        vec!["rta".into(), file("r7.toml", &format!("{kernel_set}wcet = 1\n")), "--deadline".into(), "3".into()],
        vec!["rta".into(), file("r8.toml", &format!("{kernel_set}wcet = 1\nresource_usage = \"x.txt\"\n"))],
        vec!["rta".into(), file("r9.json", "{\"benchmarks\": [{\"filename\": \"./bin/timer_spin.so\", \"thread_count\": 32, \"block_count\": 1, \"max_iterations\": 1, \"mps_thread_percentage\": 50}]}")],
        vec!["rta".into(), file("r10.json", "{\"benchmarks\": [{\"filename\": \"./bin/timer_spin.so\", \"thread_count\": 32, \"block_count\": 1}]}")],
        vec!["rta".into(), file("r11.toml", &format!("{kernel_set}wcet = 1\nlaunch_order = 1\n")), "--file-order".into()],
        vec!["rta".into(), file("r12.toml", &format!("{kernel_set}wcet = 1\n")), "--gpu".into(), file("g.toml", "[gpu]\ncycle_time = 2\n")],
        vec!["rta".into(), file("r13.toml", &format!("unit = \"us\"\n{kernel_set}instructions = \"LLC\"\n"))],
        vec!["rta".into(), file("r14.toml", &format!("unit = \"us\"\n[gpu]\nclock = \"fast\"\n{kernel_set}instructions = \"LLC\"\n"))],
        vec!["rta".into(), file("r15.toml", &format!("unit = \"minutes\"\n[gpu]\nclock = \"1 GHz\"\n{kernel_set}instructions = \"LLC\"\n"))],
        vec!["rta".into(), file("r16.toml", &format!("{kernel_set}wcet = 1\n")), "--gpu".into(), "no-such-profile.toml".into()],
        vec!["rta".into(), file("r17.toml", &format!("{kernel_set}kernel_file = \"../../work/nothing.ptx\"\n"))],
        // system
        vec!["system".into(), file("s1.toml", "")],
        // import
        vec!["import".into(), file("i1.ptx", ""), "--warps".into(), "2".into()],
        vec!["import".into(), "instances/real/saxpy.ptx".into()],
        vec!["import".into(), "instances/real/saxpy.ptx".into(), "--warps".into(), "0".into()],
        vec!["import".into(), "instances/real/saxpy.ptx".into(), "--block-threads".into(), "2000".into()],
        vec!["import".into(), "instances/real/saxpy.ptx".into(), "--warps".into(), "2".into(), "--format".into(), "sass".into()],
        vec!["import".into(), "instances/real/gemm-tiled.ptx".into(), "--warps".into(), "2".into(), "--trip".into(), "$L__BB0_1=900000".into()],
        vec!["import".into(), "instances/real/saxpy.ptx".into(), "--warps".into(), "2".into(), "--trip".into(), "=0".into()],
        vec!["import".into(), "instances/real/saxpy.ptx".into(), "--warps".into(), "2".into(), "--arch".into(), "sm_9000".into()],
        vec!["import".into(), "instances/real/cuda-samples/samples.sm75.ptx".into(), "--warps".into(), "2".into()],
        vec!["import".into(), "instances/real/cuda-samples/samples.sm75.ptx".into(), "--warps".into(), "2".into(), "--entry".into(), "reduce4".into()],
        vec!["import".into(), "instances/real/cuda-samples/samples.sm75.nvdisasm.sass".into(), "--warps".into(), "2".into(), "--entry".into(), "vectorAdd".into(), "--trace".into()],
        vec!["solve".into(), "--kernel".into(), format!("{}{}", "L".repeat(5000), "C".repeat(5000)), "--warps".into(), "1000000".into(), "--method".into(), "ilp".into()],
        vec!["compare-constraints".into(), "--kernel".into(), "LLC".into(), "--warps-max".into(), "0".into()],
        // sweep
        vec!["sweep".into(), "report".into(), "--csv".into(), "all.jsonl".into()],
        vec!["sweep".into(), file("w1.toml", "command = \"solve\"\nkernels = []\n")],
        vec!["sweep".into(), file("w2.toml", "command = \"solve\"\nkernels = [\"LLC\"]\nwarps = [2]\nx = [1]\n")],
    ];
    for args in &cases {
        refused(args);
    }
}

/// `system` prints its warnings on standard error, not among the results.
#[test]
fn system_warnings_go_to_stderr() {
    let out = makespan().args(["system", "instances/amalthea/waters-challenge-2019.amxmi"]).output().unwrap();
    assert!(out.status.success());
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!stdout.lines().any(|l| l.starts_with("warning ")), "{stdout}");
    assert!(stdout.contains("(on standard error; `warnings` in --json)"), "{stdout}");
    assert!(stderr.lines().any(|l| l.starts_with("warning: ")), "{stderr}");
}

/// `solve --help` states the default time limit; `none` lifts it.
#[test]
fn solve_has_a_stated_default_time_limit() {
    let out = makespan().args(["solve", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Default: 60 for `solve`"));
    makespan().args(["solve", "--kernel", "LLC", "--warps", "3", "--time-limit", "none"]).assert().success();
}

/// A sigma beside a file names the option given; a missing file (an instruction string
/// given without `--kernel`) is reported as the file, not as the sigma beside it.
#[test]
fn sigma_beside_a_file_names_the_option_and_the_missing_file_comes_first() {
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let err = refused(&args(&["bound", "instances/fig2-llc.toml", "--sigma-c", "2"]));
    assert!(err.starts_with("error: invalid --sigma-c = 2"), "{err}");
    let err = refused(&args(&["bound", "CCLC", "--sigma-l", "2"]));
    assert!(err.starts_with("error: invalid file = CCLC") && !err.contains("sigma"), "{err}");
}
