//! Results files (JSON Lines: one record per line, each an object with a string `id`):
//! reading, resuming, and merging with a check for conflicting results.

use super::job::{JobParams, SweepCommand};
use gpu_makespan::error::InputError;
use gpu_makespan::experiments::Approx;
use gpu_makespan::BoundsReport;
use gpu_makespan::SolutionJson;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// Fields that differ between two runs of the same job without the results differing:
/// timings and work statistics, at any depth. [`comparable`] drops them.
pub const VOLATILE: [&str; 3] = ["seconds", "search_stats", "ilp_stats"];

/// What a record holds besides its id and parameters, read back through the same types
/// the commands print with `--json`: a solve, an approx or a bound result, or the error
/// that refused the job.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum JobResult {
    /// The job was refused (or failed): its one-line error.
    Failed {
        /// The error.
        error: String,
    },
    /// `solve --json`.
    Solve(Box<SolutionJson>),
    /// `approx --json`.
    Approx(Box<Approx>),
    /// `bound --json`.
    Bound(BoundsReport),
}

impl JobResult {
    /// The command whose result this is (`None` for an error).
    pub fn command(&self) -> Option<SweepCommand> {
        match self {
            JobResult::Failed { .. } => None,
            JobResult::Solve(_) => Some(SweepCommand::Solve),
            JobResult::Approx(_) => Some(SweepCommand::Approx),
            JobResult::Bound(_) => Some(SweepCommand::Bound),
        }
    }
}

/// A record as the sweep writes it: its id, the job's parameters, and the result.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Typed {
    id: String,
    job: JobParams,
    #[serde(flatten)]
    result: JobResult,
}

/// One record of a results file.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The job id.
    pub id: String,
    /// The job's parameters.
    pub job: JobParams,
    /// The job's result.
    pub result: JobResult,
    /// The record's line as written, without its newline (kept for merging and, parsed
    /// again only when an id repeats, the conflict check: a parsed JSON value takes
    /// several times the memory of its text).
    pub text: String,
    /// Where it was read: `file:line`.
    pub at: String,
}

impl Record {
    /// The whole record as a JSON value (parsed again from its text).
    pub fn value(&self) -> Value {
        serde_json::from_str(&self.text).expect("a record's text was read as JSON")
    }
}

/// Reads every record of `path`. Every line must be a JSON object with a string `id`
/// (blank lines are skipped); otherwise an error names the file and line. (The commands
/// read records one at a time; the tests read them whole.)
#[cfg(test)]
pub fn read(path: &Path) -> Result<Vec<Record>, InputError> {
    let mut records = Vec::new();
    let partial = for_each_record(path, &mut |r| {
        records.push(r);
        Ok(())
    })?;
    match partial {
        Some(line) => Err(cut_off(path, line)),
        None => Ok(records),
    }
}

/// The error of a results file whose line `line` is cut off.
fn cut_off(path: &Path, line: usize) -> InputError {
    InputError::new("file", path.display(), format!("line {line} is cut off (an interrupted run?); resume the sweep, which drops it"))
}

/// The ids already in a results file, for `--resume`. A last line cut off by an
/// interrupted run (no newline, not JSON) is removed from the file (its job runs again);
/// the number of bytes removed is returned. A missing file holds no ids.
pub fn resume(path: &Path) -> Result<(Vec<String>, u64), InputError> {
    if !path.exists() {
        return Ok((Vec::new(), 0));
    }
    let mut ids = Vec::new();
    let partial = for_each_record(path, &mut |r| {
        ids.push(r.id);
        Ok(())
    })?;
    let mut removed = 0;
    if partial.is_some() {
        let text = std::fs::read(path).map_err(|e| InputError::option("out", path.display(), e.to_string()))?;
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        removed = (text.len() - keep) as u64;
        let file =
            std::fs::OpenOptions::new().write(true).open(path).map_err(|e| InputError::option("out", path.display(), e.to_string()))?;
        file.set_len(keep as u64).map_err(|e| InputError::option("out", path.display(), e.to_string()))?;
    }
    Ok((ids, removed))
}

/// Calls `each` with every record of `path` (`-`: standard input) as it is read, one
/// line in memory at a time; returns the line number of a cut-off last line if there is
/// one.
fn for_each_record(path: &Path, each: &mut dyn FnMut(Record) -> Result<(), InputError>) -> Result<Option<usize>, InputError> {
    let mut reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        Box::new(BufReader::new(std::fs::File::open(path).map_err(|e| InputError::new("file", path.display(), e.to_string()))?))
    };
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        let n = reader.read_line(&mut line).map_err(|e| InputError::new("file", path.display(), format!("line {number}: {e}")))?;
        if n == 0 {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        match parse_record(&line, path, number) {
            Ok(r) => each(r)?,
            Err(_) if !line.ends_with('\n') => return Ok(Some(number)),
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

fn parse_record(line: &str, path: &Path, number: usize) -> Result<Record, InputError> {
    let at = format!("{}:{number}", path.display());
    let bad = |why: &str| InputError::new("file", &at, why);
    let value: Value = serde_json::from_str(line).map_err(|e| bad(&format!("not a JSON object: {e}")))?;
    if value.get("id").and_then(Value::as_str).is_none() {
        return Err(bad("record without a string `id`"));
    }
    let typed = Typed::deserialize(&value)
        .map_err(|e| bad(&format!("not a record of a sweep job (an id, the job, and a result or an error): {e}")))?;
    if typed.result.command().is_some_and(|c| c != typed.job.command) {
        return Err(bad("the result is not of the job's command"));
    }
    let text = line.trim_end().to_string();
    Ok(Record { id: typed.id, job: typed.job, result: typed.result, text, at })
}

/// `v` without the [`VOLATILE`] fields, at any depth.
pub fn comparable(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            Value::Object(m.iter().filter(|(k, _)| !VOLATILE.contains(&k.as_str())).map(|(k, v)| (k.clone(), comparable(v))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(comparable).collect()),
        other => other.clone(),
    }
}

/// The first place where `a` and `b` differ, as `path: a vs b`, ignoring [`VOLATILE`]
/// fields, fields only one of them has, and the instance file a job was read from (`job.file`: not part of a job's
/// identity, as in its id); `None` when they agree.
pub fn difference(a: &Value, b: &Value) -> Option<String> {
    let without_file = |v: &Value| {
        let mut v = comparable(v);
        if let Some(job) = v.get_mut("job").and_then(Value::as_object_mut) {
            job.remove("file");
        }
        v
    };
    diff_at(&without_file(a), &without_file(b), "")
}

fn diff_at(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        // A field only one of them has (added after the other was written, e.g.
        // `interval`) is no conflict; the fields both have must agree.
        (Value::Object(x), Value::Object(y)) => x.iter().find_map(|(k, p)| y.get(k).and_then(|q| diff_at(p, q, &join(path, k)))),
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (p, q))| diff_at(p, q, &format!("{path}[{i}]")))
        }
        _ if a == b => None,
        _ => Some(format!(
            "{}: {} vs {}",
            if path.is_empty() { "record" } else { path },
            crate::wording::shorten(&a.to_string()),
            crate::wording::shorten(&b.to_string())
        )),
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Merges results files: one record per id, sorted by id. Two records of one id must
/// agree (apart from [`VOLATILE`] fields); the first is kept. A conflict is an error
/// naming the id, both places and the first differing field. The files are read one
/// record at a time: the memory is that of the records kept (their text and typed
/// result), not of every file at once.
pub fn merge(inputs: &[PathBuf]) -> Result<Vec<Record>, InputError> {
    let mut by_id: BTreeMap<String, Record> = BTreeMap::new();
    for path in inputs {
        let partial = for_each_record(path, &mut |r| {
            match by_id.get(&r.id) {
                None => {
                    by_id.insert(r.id.clone(), r);
                }
                Some(kept) => {
                    if let Some(d) = difference(&kept.value(), &r.value()) {
                        return Err(InputError::new("id", &r.id, format!("conflicting results in {} and {}: {d}", kept.at, r.at)));
                    }
                }
            }
            Ok(())
        })?;
        if let Some(line) = partial {
            return Err(cut_off(path, line));
        }
    }
    Ok(by_id.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn volatile_fields_do_not_count_as_differences() {
        let a = json!({"id": "x", "makespan": 5, "seconds": 1.0, "rows": [{"y": 1, "seconds": 0.1}], "search_stats": {"expansions": 3}});
        let b = json!({"id": "x", "makespan": 5, "seconds": 2.0, "rows": [{"y": 1, "seconds": 0.7}], "search_stats": null});
        assert_eq!(difference(&a, &b), None);
        let c = json!({"id": "x", "makespan": 6, "seconds": 1.0, "rows": [{"y": 1, "seconds": 0.1}]});
        assert_eq!(difference(&a, &c).unwrap(), "makespan: 5 vs 6");
        let d = json!({"id": "x", "makespan": 5, "rows": [{"y": 2}]});
        assert_eq!(difference(&a, &d).unwrap(), "rows[0].y: 1 vs 2");
    }

    /// A record written before a field existed does not conflict with one that has it;
    /// a value both have still must agree.
    #[test]
    fn an_added_field_is_no_conflict() {
        let old = serde_json::json!({"id": "solve-1", "result": {"makespan": 9, "upper_bound": 9}});
        let new = serde_json::json!({"id": "solve-1", "result": {"makespan": 9, "upper_bound": 9, "interval": {"lower": 9, "upper": 9, "exact": true}}});
        assert_eq!(difference(&old, &new), None);
        let other = serde_json::json!({"id": "solve-1", "result": {"makespan": 9, "upper_bound": 10}});
        assert_eq!(difference(&new, &other).unwrap(), "result.upper_bound: 9 vs 10");
    }
}

#[cfg(test)]
mod reading {
    use super::{read, JobResult};

    /// A record as `sweep` writes it (solve of LLC at W = 4).
    const SOLVE: &str = r#"{"id":"solve-edad986b9a5a6b48","job":{"command":"solve","kernel":"LLC","warps":4,"sigma_l":"1","sigma_c":"1","method":"search","x":null,"time_limit":10.0,"max_states":null,"max_memory":null},"kernel":"LLC","source_kernel":"LLC","warps":4,"sigma_l":1,"sigma_c":1,"method":"search","constraints":null,"horizon":12,"status":"optimal","makespan":9,"upper_bound":9,"exact":true,"seconds":0.000190465,"horizon_may_cut":false,"stopped_by":null,"pessimistic":12,"safe_horizon":12,"notes":[],"search_stats":{"expansions":0,"stored_states":0,"initial_lower_bound":9,"beam_lower_bound":0,"dense_states":0},"ilp_stats":null}"#;

    fn file_with(text: &str) -> tempfile::NamedTempFile {
        let f = tempfile::Builder::new().suffix(".jsonl").tempfile().unwrap();
        std::fs::write(f.path(), format!("{text}\n")).unwrap();
        f
    }

    /// Records are read back through the types the commands print, and a record without
    /// a result, or with a result of another command, is refused naming file and line.
    #[test]
    fn records_are_read_back_typed_and_bad_ones_refused_by_line() {
        let good = file_with(SOLVE);
        match &read(good.path()).unwrap()[0].result {
            JobResult::Solve(s) => assert_eq!((s.makespan, s.upper_bound, s.exact), (9, 9, true)),
            other => panic!("not a solve result: {other:?}"),
        }
        let job = &serde_json::from_str::<serde_json::Value>(SOLVE).unwrap()["job"];
        for text in [format!("{{\"id\":\"a\",\"job\":{job}}}"), SOLVE.replace("\"upper_bound\":9", "\"upper_bound\":\"nine\"")] {
            let bad = file_with(&text);
            let e = read(bad.path()).unwrap_err();
            assert!(e.value.ends_with(":1"), "{text}: {e}");
        }
    }
}
