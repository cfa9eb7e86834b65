//! Sweeps: sharding, resuming, merging and reporting, on the real binary (the spec and
//! shard logic has unit tests beside it in `src/bin/makespan/sweep/`).

use crate::common;

use common::cli::{input_error, makespan, temp_file};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SPEC: &str = r#"
command = "solve"
kernels = ["LLC", "LCL", "LLCLL", "LCCL"]
files = ["instances/fig2-llc.toml"]
warps = [2, 3, 5]
sigma_c = [1, 2]
time_limit = 20
"#;

/// Runs `sweep` with `args` and expects success.
fn sweep(args: &[&str]) {
    let out = makespan().arg("--quiet").arg("sweep").args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The records of a results file (one JSON object per line).
fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The records of a results file by id.
fn by_id(path: &Path) -> BTreeMap<String, Value> {
    records(path).into_iter().map(|r| (r["id"].as_str().unwrap().to_string(), r)).collect()
}

/// `v` without the fields that differ from run to run (timings, work statistics).
fn comparable(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !["seconds", "search_stats", "ilp_stats"].contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), comparable(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(comparable).collect()),
        other => other.clone(),
    }
}

#[test]
fn three_shards_merge_to_exactly_the_unsharded_results() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", SPEC);
    let path = |name: &str| dir.path().join(name).display().to_string();
    sweep(&[&spec, "--out", &path("all.jsonl"), "--threads", "2"]);
    let mut shard_ids: Vec<BTreeSet<String>> = Vec::new();
    for i in 1..=3 {
        let name = path(&format!("shard{i}.jsonl"));
        sweep(&[&spec, "--out", &name, "--shard", &format!("{i}/3")]);
        shard_ids.push(by_id(Path::new(&name)).into_keys().collect());
    }
    for a in 0..3 {
        for b in a + 1..3 {
            assert!(shard_ids[a].is_disjoint(&shard_ids[b]), "shards {a} and {b} share ids");
        }
    }
    let sizes: Vec<usize> = shard_ids.iter().map(BTreeSet::len).collect();
    assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1, "unbalanced shards {sizes:?}");
    sweep(&["merge", &path("shard1.jsonl"), &path("shard2.jsonl"), &path("shard3.jsonl"), "--out", &path("merged.jsonl")]);
    let (merged, all) = (by_id(Path::new(&path("merged.jsonl"))), by_id(Path::new(&path("all.jsonl"))));
    // 4 kernels x 3 W x 2 sigma_C; the file's jobs are those of kernel LLC, sigma 1/1.
    assert_eq!(all.len(), 24);
    assert_eq!(merged.keys().collect::<Vec<_>>(), all.keys().collect::<Vec<_>>());
    for (id, v) in &all {
        assert_eq!(comparable(&merged[id]), comparable(v), "{id}");
        assert_eq!(v["exact"], Value::Bool(true), "{id}");
    }
    // Merging the unsharded run with the shards finds no conflict either.
    sweep(&["merge", &path("merged.jsonl"), &path("all.jsonl"), "--out", &path("both.jsonl")]);
    assert_eq!(by_id(Path::new(&path("both.jsonl"))).len(), 24);
    // Standard input as a results file, for merge and report.
    let piped = makespan()
        .args(["sweep", "merge", "-", "--out", &path("piped.jsonl")])
        .write_stdin(std::fs::read_to_string(path("all.jsonl")).unwrap())
        .output()
        .unwrap();
    assert!(piped.status.success(), "{}", String::from_utf8_lossy(&piped.stderr));
    assert_eq!(by_id(Path::new(&path("piped.jsonl"))).len(), 24);
    let report =
        makespan().args(["sweep", "report", "-"]).write_stdin(std::fs::read_to_string(path("all.jsonl")).unwrap()).output().unwrap();
    assert!(report.status.success() && String::from_utf8_lossy(&report.stdout).contains("optimal"));
}

#[test]
fn resume_on_a_finished_file_adds_nothing_and_finishes_a_cut_one() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", SPEC);
    let out = dir.path().join("r.jsonl").display().to_string();
    sweep(&[&spec, "--out", &out]);
    let finished = std::fs::read_to_string(&out).unwrap();
    sweep(&[&spec, "--out", &out, "--resume"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), finished);
    // Cut the file after 10 whole lines and half of the 11th, as a killed run leaves it.
    let lines: Vec<&str> = finished.lines().collect();
    let cut = format!("{}\n{}", lines[..10].join("\n"), &lines[10][..lines[10].len() / 2]);
    std::fs::write(&out, cut).unwrap();
    sweep(&[&spec, "--out", &out, "--resume"]);
    let resumed = by_id(Path::new(&out));
    assert_eq!(resumed.len(), 24);
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 24, "one line per id");
}

#[test]
fn an_existing_results_file_is_not_overwritten_without_resume() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", SPEC);
    let out = temp_file(&dir, "r.jsonl", "{\"id\":\"x\"}\n");
    input_error(&["sweep", &spec, "--out", &out], "--out");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "{\"id\":\"x\"}\n");
}

#[test]
fn merge_refuses_conflicting_results_for_one_id() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", "command = \"solve\"\nkernels = [\"LLC\"]\nwarps = [4]\n");
    let a = dir.path().join("a.jsonl").display().to_string();
    sweep(&[&spec, "--out", &a]);
    let text = std::fs::read_to_string(&a).unwrap();
    let mut v: Value = serde_json::from_str(text.trim()).unwrap();
    v["upper_bound"] = Value::from(v["upper_bound"].as_u64().unwrap() + 1);
    let b = temp_file(&dir, "b.jsonl", &format!("{v}\n"));
    let err = input_error(&["sweep", "merge", &a, &b, "--out", "/dev/null"], "upper_bound");
    assert!(err.contains(v["id"].as_str().unwrap()), "{err}");
    // Timings alone are not a conflict.
    v["upper_bound"] = text.trim().parse::<Value>().unwrap()["upper_bound"].clone();
    v["seconds"] = Value::from(123.0);
    let c = temp_file(&dir, "c.jsonl", &format!("{v}\n"));
    sweep(&["merge", &a, &c, "--out", &dir.path().join("m.jsonl").display().to_string()]);
}

#[test]
fn report_writes_a_table_csv_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", "command = \"approx\"\nkernels = [\"LCL\", \"LLCLL\"]\nwarps = [4, 6]\nx_max = 3\n");
    let out = dir.path().join("ap.jsonl");
    sweep(&[&spec, "--out", &out.display().to_string()]);
    let recs = by_id(&out);
    assert_eq!(recs.len(), 12);
    assert!(recs.values().all(|v| v["estimate_is_bound"] == Value::Bool(false)));
    let table = makespan().args(["--quiet", "sweep", "report", &out.display().to_string(), "--csv", "--svg"]).output().unwrap();
    assert!(table.status.success());
    let stdout = String::from_utf8_lossy(&table.stdout);
    assert!(stdout.contains("jobs: 12 (12 exact"), "{stdout}");
    assert!(stdout.contains("NOT a bound"), "{stdout}");
    let csv = std::fs::read_to_string(out.with_extension("csv")).unwrap();
    assert_eq!(csv.lines().count(), 13);
    assert!(csv.starts_with("id,command,kernel,"));
    let svg = std::fs::read_to_string(out.with_extension("svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("NOT a bound"));
}

#[test]
fn bad_specs_name_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.jsonl").display().to_string();
    let cases = [
        ("command = \"solve\"\nkernels = [\"LLC\"]\n", "warps"),
        ("command = \"solve\"\nkernels = [\"LLC\", \"LXC\"]\nwarps = 2\n", "kernels[1]"),
        ("command = \"solve\"\nkernels = \"LLC\"\nwarps = [2, 0]\n", "warps"),
        ("command = \"solve\"\nkernels = \"LLC\"\nwarps = 2\nx = [1]\n", "x"),
        ("command = \"approx\"\nkernels = \"LLC\"\nwarps = 2\n", "x"),
        ("command = \"approx\"\nkernels = \"LLC\"\nwarps = 2\nx = 1\nmethod = \"heuristic\"\n", "method[0]"),
        ("command = \"bound\"\nkernels = \"LLC\"\nwarps = 2\nmethod = \"search\"\n", "method"),
        ("command = \"solve\"\nkernels = \"LLC\"\nwarps = 2\ntime_limit = -1\n", "time_limit"),
        ("command = \"solve\"\nkernels = \"LLC\"\nwarps = 2\nbogus = 1\n", "bogus"),
        ("command = \"solve\"\nkernels = \"LLC\"\nwarps = 2\ntotal_time_limit = 5\n", "total_time_limit"),
        ("command = \"approx\"\nkernels = \"LLC\"\nwarps = 2\nx = 1\ntotal_time_limit = 0\n", "total_time_limit"),
        ("command = \"fly\"\nkernels = \"LLC\"\nwarps = 2\n", "fly"),
        ("command = \"solve\"\nfiles = [\"no/such/file.toml\"]\n", "files[0]"),
        ("command = \"solve\"\nkernels = \"LLC\"\nwarps = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nsigma_c = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]\nsigma_l = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101]\n", "sweep grid"),
    ];
    for (text, field) in cases {
        let spec = temp_file(&dir, "bad.toml", text);
        input_error(&["sweep", &spec, "--out", &out], field);
    }
    let spec = temp_file(&dir, "ok.toml", "command = \"solve\"\nkernels = \"LLC\"\nwarps = 2\n");
    for shard in ["0/3", "4/3", "1/0", "a/b"] {
        input_error(&["sweep", &spec, "--out", &out, "--shard", shard], "--shard");
    }
    input_error(&["sweep", "merge", "no/such.jsonl", "--out", &out], "no/such.jsonl");
    let bad = temp_file(&dir, "bad.jsonl", "{\"id\": 1}\n");
    input_error(&["sweep", "report", &bad], "bad.jsonl:1");
}

#[test]
fn approx_jobs_end_at_their_total_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(
        &dir,
        "a.toml",
        "command = \"approx\"\nkernels = \"LLC\"\nwarps = 1000000\nx = 1000000\ntime_limit = 0.01\ntotal_time_limit = 1\n",
    );
    let out = dir.path().join("a.jsonl");
    sweep(&[&spec, "--out", out.to_str().unwrap()]);
    let v = &records(&out)[0];
    assert_eq!(v["status"], "total_time_limit", "{v}");
    assert_eq!(v["job"]["total_time_limit"], 1.0);
}

#[test]
fn dry_run_lists_the_shards_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", SPEC);
    let out = makespan().args(["sweep", &spec, "--out", "unused.jsonl", "--shard", "2/4", "--dry-run"]).output().unwrap();
    assert!(out.status.success());
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 6, "24 jobs in 4 shards");
    assert!(lines.iter().all(|l| l["id"].as_str().unwrap().starts_with("solve-")));
    assert!(!Path::new("unused.jsonl").exists());
}

/// Records are read back through the types the commands print: a solve record is the
/// `solve --json` object, and records without a result, with a result of another
/// command, or claiming that an estimate is a bound are refused naming file and line
/// (the typed reading has unit tests in `src/bin/makespan/sweep/results.rs`).
#[test]
fn records_are_read_back_typed_and_records_without_results_refused() {
    let dir = tempfile::tempdir().unwrap();
    let spec = temp_file(&dir, "spec.toml", "command = \"solve\"\nkernels = [\"LLC\"]\nwarps = [4]\n");
    let out = dir.path().join("r.jsonl");
    sweep(&[&spec, "--out", &out.display().to_string()]);
    let value = &records(&out)[0];
    assert_eq!((&value["makespan"], &value["upper_bound"], &value["exact"]), (&Value::from(9), &Value::from(9), &Value::Bool(true)));
    let line = std::fs::read_to_string(&out).unwrap();
    let job = &value["job"];
    let bad = [
        format!("{{\"id\":\"a\",\"job\":{job}}}\n"),
        "{\"id\":\"a\"}\n".to_string(),
        line.replace("\"upper_bound\":9", "\"upper_bound\":\"nine\""),
        line.replace("\"command\":\"solve\"", "\"command\":\"bound\""),
    ];
    for text in bad {
        let f = temp_file(&dir, "bad.jsonl", &text);
        input_error(&["sweep", "report", &f], "bad.jsonl:1");
    }
    let approx = r#"{"id":"b","job":{"command":"approx","kernel":"LCL","warps":4,"sigma_l":"1","sigma_c":"1","method":"search","x":2,"time_limit":1.0,"max_states":null,"max_memory":null},"x":2,"warps":4,"estimate":8,"argmin_y":2,"estimate_is_bound":true,"rows":[],"safe_upper_bound":9,"safe_upper_bound_source":"","exact_makespan":9,"lower_bound":9,"pessimistic":12,"safe_horizon":12,"seconds":0.1,"notes":[]}"#;
    let f = temp_file(&dir, "claims.jsonl", &format!("{approx}\n"));
    input_error(&["sweep", "report", &f], "claims.jsonl:1");
    let honest =
        temp_file(&dir, "honest.jsonl", &format!("{}\n", approx.replace("\"estimate_is_bound\":true", "\"estimate_is_bound\":false")));
    let report = makespan().args(["sweep", "report", &honest]).output().unwrap();
    assert!(report.status.success(), "{}", String::from_utf8_lossy(&report.stderr));
}

/// A job given as a kernel in one run and read from an instance file in another is one
/// job: the same id, and merge keeps one record without a conflict.
#[test]
fn a_job_from_a_kernel_or_a_file_is_one_job() {
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let by_kernel = temp_file(&dir, "k.toml", "command = \"solve\"\nkernels = [\"LLC\"]\nwarps = [4]\n");
    let by_file = temp_file(&dir, "f.toml", &format!("command = \"solve\"\nfiles = [\"{root}/instances/fig2-llc.toml\"]\n"));
    let (a, b, m) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"), dir.path().join("m.jsonl"));
    sweep(&[&by_kernel, "--out", a.to_str().unwrap()]);
    sweep(&[&by_file, "--out", b.to_str().unwrap()]);
    assert_eq!(by_id(&a).keys().collect::<Vec<_>>(), by_id(&b).keys().collect::<Vec<_>>());
    sweep(&["merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", m.to_str().unwrap()]);
    assert_eq!(by_id(&m).len(), 1);
}
