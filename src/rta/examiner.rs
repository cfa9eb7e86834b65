//! Experiment configs of cuda_scheduling_examiner (Amert et al.), the JSON files the
//! TX2 measurements behind this RTA were taken with, read as a [`Workload`].
//!
//! What is modelled: every benchmark is one `timer_spin` kernel launched once after the
//! common start barrier, `release_time` seconds later; each of its `block_count` blocks
//! spins for `additional_info` nanoseconds (default 10 ms), its `C`; in a stream of its
//! own, whose `stream_priority` (a CUDA priority) picks the EE queue. Times are in
//! seconds, exactly (nanosecond resolution or finer). What cannot be modelled is refused,
//! naming the benchmark and the reason: other benchmark libraries,
//! separate processes (`use_processes`, MPS, `mps_thread_percentage`), `sm_mask`, more
//! than one iteration.
//! Configs carry no deadlines: `--deadline` gives every kernel one.

use crate::error::{Error, InputError};
use crate::rta::gpu::Profile;
use crate::rta::time::{Decimal, Scale, Ticks};
use crate::rta::workload::{Priority, Task, Timing, Workload};
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

/// `timer_spin`'s default spin time, in nanoseconds.
pub const DEFAULT_SPIN_NS: u128 = 10_000_000;

/// The top level of a config (fields the examiner documents; unknown ones are refused).
/// Fields that do not change the schedule of one iteration are read and ignored.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Config {
    name: Option<String>,
    max_iterations: Option<i64>,
    max_time: Option<f64>,
    use_processes: Option<bool>,
    cuda_device: Option<i64>,
    base_result_directory: Option<String>,
    pin_cpus: Option<bool>,
    do_warmup: Option<bool>,
    sync_every_iteration: Option<bool>,
    comment: Option<Value>,
    benchmarks: Vec<Benchmark>,
}

/// One benchmark of a config (ignored fields as in [`Config`]).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Benchmark {
    filename: String,
    log_name: Option<String>,
    label: Option<String>,
    thread_count: Value,
    block_count: Value,
    data_size: Option<Value>,
    additional_info: Option<Value>,
    max_iterations: Option<i64>,
    max_time: Option<f64>,
    release_time: Option<Value>,
    cpu_core: Option<i64>,
    stream_priority: Option<Value>,
    sm_mask: Option<Value>,
    mps_thread_percentage: Option<Value>,
    comment: Option<Value>,
}

/// The raw text of each benchmark's `release_time` (read again from the text once the
/// file is known to be unambiguous), so that it is read exactly as written.
#[derive(Deserialize)]
struct RawConfig<'a> {
    #[serde(borrow)]
    benchmarks: Vec<RawBenchmark<'a>>,
}

#[derive(Deserialize)]
struct RawBenchmark<'a> {
    #[serde(borrow)]
    release_time: Option<&'a serde_json::value::RawValue>,
}

/// Whether an input looks like an examiner config: a `.json` file, or text that starts
/// with `{` (standard input).
pub fn is_config(path: &Path, text: &str) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) || text.trim_start().starts_with('{')
}

/// A JSON value read with every object key at most once (except `comment`, which the
/// examiner's configs repeat and this analysis ignores).
struct Unambiguous(Value);

impl<'de> serde::Deserialize<'de> for Unambiguous {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(UnambiguousVisitor).map(Unambiguous)
    }
}

struct UnambiguousVisitor;

impl<'de> serde::de::Visitor<'de> for UnambiguousVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unambiguous(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let Unambiguous(value) = map.next_value()?;
            if object.contains_key(&key) && key != "comment" {
                return Err(serde::de::Error::custom(format!("the key \"{key}\" appears twice in one object")));
            }
            object.entry(key).or_insert(value);
        }
        Ok(Value::Object(object))
    }
}

/// Parses the text of a config (from `origin`) into a workload on the GPU of
/// `profile`; `deadline` (seconds, relative) is given to every kernel when set.
pub fn from_text(text: &str, origin: &str, profile: Profile, deadline: Option<Decimal>) -> Result<Workload, Error> {
    // Via a generic value first: the examiner's own parser (cJSON) accepts repeated keys
    // such as several "comment" entries; any other repeated key is refused (cJSON would
    // read the first, serde the last: the file is ambiguous).
    let value: Value = serde_json::from_str::<Unambiguous>(text)
        .map_err(|e| InputError::new("file", origin, format!("not valid JSON (line {}): {}", e.line(), e.to_string().replace('\n', " "))))?
        .0;
    let config: Config = serde_json::from_value(value).map_err(|e| {
        InputError::new("file", origin, format!("not a cuda_scheduling_examiner config: {}", e.to_string().replace('\n', " ")))
    })?;
    if config.use_processes == Some(true) {
        return Err(InputError::new(
            "use_processes",
            true,
            "benchmarks in separate processes (or under MPS) share the GPU by time slicing, which this analysis does not model",
        )
        .into());
    }
    if config.benchmarks.is_empty() {
        return Err(InputError::new("benchmarks", "[]", "the config has no benchmarks").into());
    }
    if deadline.is_some_and(|d| d.digits == 0) {
        return Err(InputError::option("deadline", 0, "must be positive").into());
    }
    let raw: RawConfig = serde_json::from_str(text).map_err(|e| InputError::new("file", origin, e.to_string()))?;
    let mut pending = Vec::new();
    for (i, b) in config.benchmarks.iter().enumerate() {
        let release = raw.benchmarks.get(i).and_then(|r| r.release_time).map(|r| r.get());
        pending.push(benchmark(i, b, config.max_iterations, release)?);
    }
    let nanosecond = Decimal { digits: 1, decimals: 9 };
    let overheads = profile.times();
    let scale = Scale::fitting(pending.iter().map(|(_, r)| r).chain(deadline.iter()).chain([&nanosecond]).chain(overheads.iter()));
    let mut tasks = Vec::with_capacity(pending.len());
    for (i, (mut task, release)) in pending.into_iter().enumerate() {
        let field = |f: &str| format!("benchmarks[{i}].{f}");
        task.wcet = scale.ticks(Decimal { digits: task.wcet.get(), decimals: 9 }, &field("additional_info"))?;
        task.release = scale.ticks(release, &field("release_time"))?;
        task.deadline = deadline.map(|d| scale.ticks(d, "deadline").map_err(InputError::as_option)).transpose()?;
        tasks.push(task);
    }
    let mut w = Workload::new(tasks, profile.platform, scale, "s");
    w.launch_overhead = scale.ticks(profile.launch_overhead, "gpu.launch_overhead")?;
    w.block_overhead = scale.ticks(profile.block_overhead, "gpu.block_overhead")?;
    Ok(w)
}

/// A CUDA stream priority as the TX2 runs it: lower numbers are higher priorities, the
/// device's range is 0 (the default, least) to -1 (greatest) on Pascal, and CUDA clamps
/// a value outside the range to it. So every negative value is the high queue.
pub fn stream_priority(cuda: i64) -> Priority {
    if cuda < 0 {
        Priority::High
    } else {
        Priority::Low
    }
}

/// One benchmark as a task (its `wcet` still in nanoseconds) and its release time.
fn benchmark(i: usize, b: &Benchmark, default_iterations: Option<i64>, release: Option<&str>) -> Result<(Task, Decimal), InputError> {
    let name = b.label.clone().or_else(|| b.log_name.clone()).unwrap_or_else(|| format!("benchmark {}", i + 1));
    let field = |f: &str| format!("benchmarks[{i}].{f}");
    let refuse = |f: &str, v: &dyn std::fmt::Display, why: &str| InputError::new(field(f), v, format!("benchmark {name:?}: {why}"));
    let library = b.filename.rsplit('/').next().unwrap_or(&b.filename);
    if library != "timer_spin.so" {
        return Err(refuse("filename", &b.filename, "only timer_spin.so kernels (a known time per block) can be modelled"));
    }
    let priority = match &b.stream_priority {
        None | Some(Value::Null) => Priority::Low,
        Some(Value::Number(n)) if n.as_i64().is_some() => stream_priority(n.as_i64().unwrap_or(0)),
        Some(p) => return Err(refuse("stream_priority", p, "must be an integer (a CUDA stream priority: lower is higher)")),
    };
    if let Some(m) = &b.sm_mask {
        return Err(refuse("sm_mask", m, "SM masks restrict where blocks may go, which this analysis does not model"));
    }
    if let Some(m) = b.mps_thread_percentage.as_ref().filter(|m| !m.is_null()) {
        return Err(refuse(
            "mps_thread_percentage",
            m,
            "an MPS thread percentage limits the SMs a process's kernels may use, which this analysis does not model",
        ));
    }
    match b.max_iterations.or(default_iterations) {
        Some(1) => {}
        Some(n) => return Err(refuse("max_iterations", &n, "only one iteration (one job per kernel) is analysed; set max_iterations = 1")),
        None => {
            return Err(refuse(
                "max_iterations",
                &"",
                "the config does not say how many iterations run (the examiner's default runs until max_time); set max_iterations = 1",
            ))
        }
    }
    let threads = dims(&b.thread_count).map_err(|why| refuse("thread_count", &b.thread_count, why))?;
    let blocks = dims(&b.block_count).map_err(|why| refuse("block_count", &b.block_count, why))?;
    let spin = spin_ns(b.additional_info.as_ref()).ok_or_else(|| {
        refuse(
            "additional_info",
            b.additional_info.as_ref().unwrap_or(&Value::Null),
            "timer_spin takes a number of nanoseconds (a positive integer, or a string of one)",
        )
    })?;
    let release = match (release, &b.release_time) {
        (_, None | Some(Value::Null)) => Decimal::ZERO,
        (Some(raw), Some(Value::Number(_))) => Decimal::parse_number(raw, &field("release_time"))?,
        (_, Some(v)) => return Err(refuse("release_time", v, "must be a number of seconds >= 0")),
    };
    // Unlike a task set, a config gives no period or deadline.
    let timing = Timing { period: Ticks::ZERO, wcet: Ticks::new(spin), release: Ticks::ZERO };
    let task = Task {
        deadline: None,
        period: None,
        priority,
        wcet_source: format!(
            "timer_spin: {spin} ns per block (the spin time{}; launch and dispatch overheads only as the GPU profile's launch_overhead and block_overhead)",
            if matches!(&b.additional_info, None | Some(Value::Null)) || b.additional_info.as_ref().and_then(Value::as_str).is_some_and(|s| s.trim().is_empty()) {
                ", timer_spin's default: additional_info absent or empty"
            } else {
                ""
            }
        ),
        ..Task::given(name, timing, blocks, threads)
    };
    Ok((task, release))
}

/// A block or grid size: a positive integer or an array of 1-3 positive integers (their
/// product); the error says which rule is broken.
fn dims(v: &Value) -> Result<u64, &'static str> {
    const SHAPE: &str = "must be a positive integer or an array of up to 3";
    let one = |x: &Value| match x {
        Value::Number(n) if n.as_u64().is_some_and(|n| n > 0) => Ok(n.as_u64().unwrap_or(1)),
        Value::Number(n) if n.as_f64().is_some_and(|f| f >= 1.0 && f.fract() == 0.0) => Err("too large (more than 2^64)"),
        _ => Err(SHAPE),
    };
    match v {
        Value::Array(a) if (1..=3).contains(&a.len()) => {
            a.iter().try_fold(1u64, |p, x| one(x).and_then(|n| p.checked_mul(n).ok_or("the product is too large (more than 2^64)")))
        }
        Value::Array(_) => Err(SHAPE),
        x => one(x),
    }
}

/// `timer_spin`'s spin time: absent or empty means the default.
fn spin_ns(v: Option<&Value>) -> Option<u128> {
    let n = match v {
        None | Some(Value::Null) => return Some(DEFAULT_SPIN_NS),
        Some(Value::String(s)) if s.trim().is_empty() => return Some(DEFAULT_SPIN_NS),
        Some(Value::String(s)) => s.trim().parse::<u128>().ok()?,
        Some(x) => x.as_u64()? as u128,
    };
    (n > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sizes_and_spin_times() {
        assert_eq!(dims(&json!(512)), Ok(512));
        assert_eq!(dims(&json!([16, 2, 2])), Ok(64));
        assert!(dims(&json!([16, 2, 2, 2])).is_err());
        assert!(dims(&json!(0)).is_err());
        assert!(dims(&json!([4294967296u64, 4294967296u64])).unwrap_err().contains("too large"));
        assert_eq!(spin_ns(None), Some(DEFAULT_SPIN_NS));
        assert_eq!(spin_ns(Some(&json!("500000000"))), Some(500_000_000));
        assert_eq!(spin_ns(Some(&json!(4000000000u64))), Some(4_000_000_000));
        assert_eq!(spin_ns(Some(&json!("abc"))), None);
        assert_eq!(spin_ns(Some(&json!(0))), None);
    }
}
