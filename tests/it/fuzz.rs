//! The fuzzer: random and mutated instance files, task sets, examiner configs
//! and command lines, fed to the parsers (in-process) and to the real binary.
//!
//! Asserted: no panic; the binary exits with 0 or 2 and prints no backtrace; it ends
//! within [`TIME_CAP`] under a [`MEMORY_CAP_KB`] address-space limit. The budget is fixed
//! (runs in CI with the test suite): `FUZZ_CASES` (default 300) parser cases per input
//! kind and `FUZZ_CLI_CASES` (default 40) command lines; raise them for a longer run.

use gpu_makespan::budget::Budget;
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::model::instance::Instance;
use gpu_makespan::rta::gpu::Profile;
use gpu_makespan::rta::time::Decimal;
use gpu_makespan::rta::{analysis as rta, examiner, taskset};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Wall-clock cap of one run of the binary.
const TIME_CAP: Duration = Duration::from_secs(60);
/// Address-space cap of one run of the binary (6 GiB).
const MEMORY_CAP_KB: u64 = 6 << 20;

fn budget(var: &str, default: u32) -> u32 {
    std::env::var(var).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn seeds(dir: &str, ext: &str, filter: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == ext) && filter(&p.file_name().unwrap().to_string_lossy()))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    out.sort();
    out
}

/// Tokens that tend to break parsers and models.
const TOKENS: &[&str] = &[
    "=",
    "\"",
    "[",
    "]",
    "{",
    "}",
    "\n",
    ",",
    ":",
    ".",
    "-",
    "0",
    "1",
    "7",
    "-1",
    "1e300",
    "nan",
    "inf",
    "-inf",
    "L",
    "C",
    "X",
    "LLCCLLCC",
    "18446744073709551616",
    "9223372036854775807",
    "4294967296",
    "1e-30",
    "0.1",
    "true",
    "null",
    "[[kernels]]",
    "[gpu]",
    "[sm]",
    "warps",
    "kernel",
    "blocks",
    "threads_per_block",
    "release",
    "period",
    "wcet",
    "sigma_l",
    "shared_memory",
    "registers_per_thread",
    "block_count",
    "thread_count",
    "release_time",
    "additional_info",
    "max_iterations",
    "\"./bin/timer_spin.so\"",
];

/// A seed with a few random edits (deletions, insertions of tokens, duplications).
fn mutated(seeds: Vec<String>) -> impl Strategy<Value = String> {
    let edit = (0usize..3, any::<prop::sample::Index>(), any::<prop::sample::Index>(), 0usize..TOKENS.len());
    (prop::sample::select(seeds), proptest::collection::vec(edit, 0..6)).prop_map(|(seed, edits)| {
        let mut text = seed.into_bytes();
        for (kind, at, len, token) in edits {
            let i = at.index(text.len() + 1);
            match kind {
                0 => {
                    let n = len.index(16.min(text.len() - i) + 1);
                    text.drain(i..i + n);
                }
                1 => text.splice(i..i, TOKENS[token].bytes()).for_each(drop),
                _ => {
                    let n = len.index(64.min(text.len() - i) + 1);
                    let copy: Vec<u8> = text[i..i + n].to_vec();
                    text.splice(i..i, copy).for_each(drop);
                }
            }
        }
        String::from_utf8_lossy(&text).into_owned()
    })
}

/// Random text or a mutated seed.
fn input(seeds: Vec<String>) -> impl Strategy<Value = String> {
    prop_oneof![1 => "\\PC{0,200}", 4 => mutated(seeds)]
}

/// A runner of `cases` cases whose failures are kept in
/// `tests/proptest-regressions/fuzz-NAME.txt` and replayed first on every later run (as
/// the `proptest!` tests' are): a failure found once, by `scripts/explore-seeds.sh` or
/// CI, stays a test.
fn runner(cases: u32, name: &str) -> TestRunner {
    let file: &'static str = Box::leak(format!("tests/proptest-regressions/fuzz-{name}.txt").into_boxed_str());
    let persistence = proptest::test_runner::FileFailurePersistence::Direct(file);
    TestRunner::new(Config { cases, failure_persistence: Some(Box::new(persistence)), ..Config::default() })
}

fn limits() -> SolveOptions {
    SolveOptions::default().with_budget(Budget::new(Some(Duration::from_millis(200)), 64 << 20)).with_max_states(100_000)
}

#[test]
fn instance_files_never_panic_the_parser() {
    let seeds = seeds("instances", "toml", |n| !n.starts_with("rta-") && !n.starts_with("gpu-"));
    runner(budget("FUZZ_CASES", 300), "instance_files_never_panic_the_parser")
        .run(&input(seeds), |text| {
            if let Ok(inst) = Instance::from_toml(&text, "fuzz") {
                let _ = (gpu_makespan::model::bounds::safe_horizon(&inst), gpu_makespan::model::bounds::lower_bound(&inst), inst.given());
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn task_sets_never_panic_the_parser_or_the_analysis() {
    let seeds = seeds("instances", "toml", |n| n.starts_with("rta-"));
    runner(budget("FUZZ_CASES", 300), "task_sets_never_panic_the_parser_or_the_analysis")
        .run(&input(seeds), |text| {
            if let Ok(w) = taskset::from_text(&text, "fuzz", None, &limits(), None) {
                let _ = rta::analyse(&w, rta::Timeline::Kept);
            }
            let window = Some(taskset::WindowRequest::Hyperperiod);
            if let Ok(w) = taskset::from_text(&text, "fuzz", None, &limits(), window) {
                let _ = rta::analyse(&w, rta::Timeline::Kept);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn examiner_configs_never_panic_the_parser_or_the_analysis() {
    let seeds = seeds("instances/examiner", "json", |_| true);
    runner(budget("FUZZ_CASES", 300), "examiner_configs_never_panic_the_parser_or_the_analysis")
        .run(&input(seeds), |text| {
            if let Ok(w) = examiner::from_text(&text, "fuzz", Profile::TX2, Some(Decimal { digits: 15, decimals: 0 })) {
                let _ = rta::analyse(&w, rta::Timeline::Kept);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn systems_never_panic_the_readers_or_the_analysis() {
    let mut seeds = seeds("instances/system", "toml", |n| n == "small.toml");
    seeds.extend(self::seeds("instances/amalthea", "amxmi", |_| true));
    runner(budget("FUZZ_CASES", 300), "systems_never_panic_the_readers_or_the_analysis")
        .run(&input(seeds), |text| {
            if let Ok(sys) = gpu_makespan::system::read(&text, "fuzz") {
                let opts = gpu_makespan::system::Options::default()
                    .with_communication(gpu_makespan::system::Paradigm::Implicit)
                    .with_offload(gpu_makespan::system::OffloadMode::Model);
                let _ = gpu_makespan::system::report::analyse(&sys, None, opts);
            }
            Ok(())
        })
        .unwrap();
}

/// A value that is usually one of `good` and sometimes one of `bad`.
fn value(good: &[&'static str], bad: &[&'static str]) -> BoxedStrategy<String> {
    let pick = |v: &[&'static str]| prop::sample::select(v.to_vec()).prop_map(str::to_string);
    prop_oneof![6 => pick(good), 1 => pick(bad)].boxed()
}

/// A seed as it is, or mutated.
fn file(seeds: Vec<String>) -> BoxedStrategy<String> {
    prop_oneof![prop::sample::select(seeds.clone()), mutated(seeds)].boxed()
}

/// The options each subcommand takes besides its instance, time limit and method.
fn extras(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "bound" => &["--json", "--quiet", "--warps-per-block=1", "--warps-per-block=2"],
        "solve" => &[
            "--json",
            "--schedule",
            "--quiet",
            "--constraints=long",
            "--horizon=paper",
            "--horizon=7",
            "--no-symmetry-breaking",
            "--max-states=1000",
            "--warps-per-block=1",
            "--warps-per-block=2",
        ],
        "approx" => &["--json", "--quiet", "--threads=1", "--threads=0", "--constraints=long"],
        "converge" => &["--quiet", "--threads=1", "--csv={dir}/c.csv", "--svg={dir}/c.svg", "--log-time"],
        "simulate" => {
            &["--json", "--schedule", "--quiet", "--warps-per-block=1", "--warps-per-block=2", "--latency-c=4", "--svg={dir}/s.svg"]
        }
        _ => &["--quiet", "--csv={dir}/f.csv", "--svg={dir}/f.svg", "--log-time"],
    }
}

/// A command line: a subcommand, its instance (flags, or a file that may be mutated),
/// and options with mostly good and sometimes bad values. Solver commands always get a
/// time limit (valid or not), so that every run is bounded.
fn command_line() -> impl Strategy<Value = (Vec<String>, Option<String>)> {
    let kernel = value(
        &["LLC", "LCLCL", "LLCCLLCC", "CCLL", "L", "CLCCLCCLLLCC", "llc", "L|LC", "LLC|CL|C", "C|L"],
        &["", "LXC", "L C-L", "|", "L||C"],
    );
    // With `--warps-per-block`, up to 64 blocks (the block search).
    let warps = value(&["1", "2", "4", "17", "21", "32", "64", "128"], &["0", "-1", "1000001", "x"]);
    let time = value(&["0.2", "0.5"], &["-1", "1e20", "nan", "-inf", "abc", "0"]);
    let small = value(&["1", "2", "3"], &["0", "-1", "1000001", "x"]);
    let sigma = value(&["1", "2", "4"], &["0", "2000", "-3"]);
    let method = value(&["search", "ilp", "both", "heuristic"], &["fast"]);
    let instance_file = file(seeds("instances", "toml", |n| !n.starts_with("rta-") && !n.starts_with("gpu-")));
    let rta_file = file([seeds("instances", "toml", |n| n.starts_with("rta-")), seeds("instances/examiner", "json", |_| true)].concat());
    let latency = value(&["1", "5", "20", "5..400", "400"], &["0", "-1", "400..5", "x", "100001", "5.."]);
    let scheduler = value(&["gto", "lrr", "oldest-first", "any"], &["fifo", ""]);
    let solver = (
        0usize..6,
        kernel,
        warps,
        sigma,
        method,
        time.clone(),
        small,
        any::<[prop::sample::Index; 2]>(),
        proptest::option::of(instance_file),
        (latency, scheduler),
    );
    let solver_line = solver.prop_map(|(cmd, k, w, sl, m, t, x, picks, file, (lat, sched))| {
        let name = ["bound", "solve", "approx", "converge", "compare-constraints", "simulate"][cmd];
        let mut args = vec![name.to_string()];
        if file.is_some() {
            args.push("{file}".into());
        } else {
            args.extend(["--kernel".into(), k, "--sigma-l".into(), sl]);
        }
        args.extend(["--warps".into(), w]);
        match name {
            "bound" => {}
            "compare-constraints" => args.extend(["--warps-max".into(), x, "--time-limit".into(), t]),
            "simulate" => args.extend(["--latency-l".into(), lat, "--scheduler".into(), sched, "--time-limit".into(), t]),
            _ => args.extend(["--method".into(), m, "--time-limit".into(), t]),
        }
        match name {
            "approx" => args.extend(["--x".into(), "2".into()]),
            "converge" => args.extend(["--x-max".into(), "2".into()]),
            _ => {}
        }
        let options = extras(name);
        let mut chosen: Vec<&str> = picks.iter().map(|p| options[p.index(options.len())]).collect();
        chosen.dedup_by(|a, b| a.split('=').next() == b.split('=').next());
        args.extend(chosen.into_iter().map(str::to_string));
        (args, file)
    });
    let rta_flag = value(
        &["", "--json", "--svg={dir}/t.svg", "--deadline=15", "--gpu=instances/gpu-tx2.toml"],
        &["--deadline=-1", "--gpu=instances/fig2-llc.toml"],
    );
    let rta_line = (rta_file, time, rta_flag).prop_map(|(file, t, flag)| {
        let mut args = vec!["rta".to_string(), "{file}".into(), "--time-limit".into(), t];
        if !flag.is_empty() {
            args.push(flag);
        }
        (args, Some(file))
    });
    prop_oneof![3 => solver_line, 2 => rta_line]
}

/// Runs the binary on `args` under the caps; returns (exit code, stderr).
fn run_capped(args: &[String], dir: &Path) -> (Option<i32>, String, Duration) {
    let bin = assert_cmd::cargo::cargo_bin("makespan");
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_CAP_KB}; exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > TIME_CAP {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    use std::io::Read;
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    let _ = dir;
    (status.and_then(|s| s.code()), err, started.elapsed())
}

#[test]
fn command_lines_exit_0_or_2_within_the_caps() {
    let dir = tempfile::tempdir().unwrap();
    let mut runner = runner(budget("FUZZ_CLI_CASES", 40), "command_lines_exit_0_or_2_within_the_caps");
    runner
        .run(&command_line(), |(args, file)| {
            let d = dir.path().display().to_string();
            let ext = if file.as_deref().is_some_and(|f| f.trim_start().starts_with('{')) { "json" } else { "toml" };
            let path = dir.path().join(format!("input.{ext}"));
            if let Some(text) = &file {
                std::fs::write(&path, text).unwrap();
            }
            let args: Vec<String> = args.iter().map(|a| a.replace("{file}", &path.display().to_string()).replace("{dir}", &d)).collect();
            let (code, err, took) = run_capped(&args, dir.path());
            if std::env::var_os("FUZZ_VERBOSE").is_some() {
                eprintln!("{code:?} {took:?} {args:?} {}", err.lines().next().unwrap_or(""));
            }
            prop_assert!(code.is_some(), "{args:?}: no exit within {TIME_CAP:?} (or killed by a signal) after {took:?}: {err}");
            prop_assert!(code == Some(0) || code == Some(2), "{args:?}: exit {code:?}: {err}");
            prop_assert!(!err.contains("panicked") && !err.contains("backtrace"), "{args:?}: {err}");
            Ok(())
        })
        .unwrap();
}
