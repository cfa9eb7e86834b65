//! One job of a sweep: its parameters, its stable id, the shard it belongs to, and
//! running it into a record (one JSON object: `id`, `job`, then the fields of the
//! command's `--json`, or `error`).

use gpu_makespan::error::{Error, InputError};
use gpu_makespan::experiments;
use gpu_makespan::BoundsReport;
use gpu_makespan::Budget;
use gpu_makespan::Instance;
use gpu_makespan::Unit;
use gpu_makespan::{solve, Method, SolveOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// What every job of a sweep runs; its record has the fields of that command's `--json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SweepCommand {
    /// `makespan solve`: the exact makespan or proven bounds.
    Solve,
    /// `makespan approx --x X`: the paper's estimate, with a proven bound beside it.
    Approx,
    /// `makespan bound`: the closed-form bounds.
    Bound,
}

/// The solver settings shared by every job of a spec.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Methods (`[None]` for `bound`).
    pub methods: Vec<Option<Method>>,
    /// Seconds per solve (`None` for `bound`).
    pub time_limit: Option<f64>,
    /// Search limit in stored states, if given.
    pub max_states: Option<usize>,
    /// Search memory limit in bytes, if given.
    pub max_memory: Option<usize>,
    /// Overall seconds of an approx job (all its solves), if given.
    pub total_time_limit: Option<f64>,
}

/// What defines a job. Everything but `file` enters the id, so an instance written as a
/// kernel or read from a file is the same job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobParams {
    /// The command run.
    pub command: SweepCommand,
    /// Instruction string as given (before the sigma = 1/n transformation).
    pub kernel: String,
    /// Instance file the job came from (not part of the id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// `W`.
    pub warps: u32,
    /// sigma_L as given (`1`, `4`, `1/2`).
    pub sigma_l: String,
    /// sigma_C as given.
    pub sigma_c: String,
    /// Method (`null` for `bound`).
    pub method: Option<Method>,
    /// `x` (approx only).
    pub x: Option<u32>,
    /// Seconds per solve (`null` for `bound`).
    pub time_limit: Option<f64>,
    /// Search limit in stored states, when the spec sets one.
    pub max_states: Option<usize>,
    /// Search memory limit in bytes, when the spec sets one.
    pub max_memory: Option<usize>,
    /// Overall seconds of an approx job, when the spec sets one (left out of the JSON,
    /// and so of the id, when not set: older ids stay the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_time_limit: Option<f64>,
}

impl JobParams {
    /// The parameters of `command` on `inst` with the spec's `settings`.
    pub fn new(
        command: SweepCommand,
        inst: &Instance,
        file: Option<&str>,
        method: Option<Method>,
        x: Option<u32>,
        settings: &Settings,
    ) -> JobParams {
        JobParams {
            command,
            kernel: inst.source_kernel.clone(),
            file: file.map(str::to_string),
            warps: inst.warps,
            sigma_l: inst.sigma_given(Unit::L),
            sigma_c: inst.sigma_given(Unit::C),
            method,
            x,
            time_limit: settings.time_limit,
            max_states: settings.max_states,
            max_memory: settings.max_memory,
            total_time_limit: settings.total_time_limit,
        }
    }

    /// The stable id: the command, `-`, and 16 hex digits of the 64-bit FNV-1a hash of the
    /// parameters' JSON without `file` (object keys in a fixed order). Depends on the
    /// parameters only: the same in every shard, run and machine.
    pub fn id(&self) -> String {
        let mut v = serde_json::to_value(self).expect("parameters serialise");
        if let Some(map) = v.as_object_mut() {
            map.remove("file");
        }
        let command = serde_json::to_value(self.command).expect("command serialises");
        format!("{}-{:016x}", command.as_str().unwrap_or("job"), fnv1a(canonical(&v).as_bytes()))
    }
}

/// JSON text of `v` with every object's keys sorted, whatever map serde_json was built with.
fn canonical(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys.iter().map(|k| format!("{}:{}", Value::String((*k).clone()), canonical(&m[*k]))).collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

/// 64-bit FNV-1a: a fixed, documented hash (unlike std's, which may change between releases).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A job: its parameters, id and instance.
#[derive(Debug, Clone)]
pub struct Job {
    /// Stable id ([`JobParams::id`]).
    pub id: String,
    /// Parameters.
    pub params: JobParams,
    /// The instance (already checked).
    pub instance: Instance,
}

impl Job {
    /// A job from checked parameters and their instance.
    pub fn new(params: JobParams, instance: Instance) -> Job {
        Job { id: params.id(), params, instance }
    }

    /// A rough cost used only to balance shards: instructions x warps x x.
    pub fn cost(&self) -> u64 {
        (self.instance.len() as u64).saturating_mul(u64::from(self.instance.warps)).saturating_mul(u64::from(self.params.x.unwrap_or(1)))
    }

    /// Runs the job: the command's `--json` object.
    pub fn execute(&self) -> Result<Value, Error> {
        let inst = &self.instance;
        let value = match self.params.command {
            SweepCommand::Bound => serde_json::to_value(BoundsReport::of(inst)),
            SweepCommand::Solve => serde_json::to_value(solve(inst, &self.options())?.record(inst, false)),
            SweepCommand::Approx => {
                let x = self.params.x.ok_or_else(|| InputError::new("x", "", "approx jobs need x"))?;
                serde_json::to_value(experiments::approx(inst, x, &self.options(), &|| {})?)
            }
        };
        Ok(value.expect("results serialise"))
    }

    /// The solver options of the job.
    pub fn options(&self) -> SolveOptions {
        let p = &self.params;
        let d = SolveOptions::default();
        let budget =
            Budget::new(p.time_limit.and_then(|t| Duration::try_from_secs_f64(t).ok()), p.max_memory.unwrap_or(d.budget.max_memory()))
                .with_overall_limit(p.total_time_limit.and_then(|t| Duration::try_from_secs_f64(t).ok()));
        let (method, max_states) = (p.method.unwrap_or(d.method), p.max_states.unwrap_or(d.max_states));
        d.with_method(method).with_budget(budget).with_max_states(max_states)
    }

    /// The job's record: `id`, `job` (the parameters), then the result's fields, or
    /// `error` (one line) when the job failed.
    pub fn record(&self, result: &Result<Value, Error>) -> Value {
        let mut map = serde_json::Map::new();
        map.insert("id".into(), Value::String(self.id.clone()));
        map.insert("job".into(), serde_json::to_value(&self.params).expect("parameters serialise"));
        match result {
            Ok(Value::Object(fields)) => map.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone()))),
            Ok(other) => {
                map.insert("result".into(), other.clone());
            }
            Err(e) => {
                map.insert("error".into(), Value::String(crate::files::shorten_line(&e.to_string())));
            }
        }
        Value::Object(map)
    }
}

/// Shard `index` of `count` (1-based, `--shard I/N`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// `I`, from 1 to `count`.
    pub index: u32,
    /// `N`, at least 1.
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = InputError;
    /// Parses `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Shard, InputError> {
        let bad = |why: &str| InputError::option("shard", s, why);
        let (i, n) = s.split_once('/').ok_or_else(|| bad("must be I/N, e.g. 2/4"))?;
        let whole = |t: &str| t.trim().parse::<u128>().ok();
        let (index, count): (u32, u32) = match (whole(i), whole(n)) {
            (Some(i), Some(n)) => match (u32::try_from(i), u32::try_from(n)) {
                (Ok(i), Ok(n)) => (i, n),
                _ => return Err(bad(&format!("I and N must be at most {} shards", u32::MAX))),
            },
            _ => return Err(bad("must be I/N with whole numbers, e.g. 2/4")),
        };
        if count == 0 || index == 0 || index > count {
            return Err(bad("I must be from 1 to N, and N at least 1"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The jobs of this shard, in their given order. The jobs are ranked by decreasing
    /// [`Job::cost`], ties by id, and dealt to the shards back and forth (1..N, N..1, ...),
    /// so each shard gets about the same count and cost. The subset depends only on the
    /// set of jobs: shards are disjoint and cover every job.
    pub fn select(&self, jobs: Vec<Job>) -> Vec<Job> {
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by(|&a, &b| jobs[b].cost().cmp(&jobs[a].cost()).then_with(|| jobs[a].id.cmp(&jobs[b].id)));
        let n = self.count as usize;
        let mut mine = vec![false; jobs.len()];
        for (rank, &j) in order.iter().enumerate() {
            let round = rank / n;
            let pos = rank % n;
            let shard = if round.is_multiple_of(2) { pos } else { n - 1 - pos };
            mine[j] = shard + 1 == self.index as usize;
        }
        jobs.into_iter().zip(mine).filter(|(_, m)| *m).map(|(j, _)| j).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn shard_parsing_names_the_flag() {
        assert_eq!("2/4".parse::<Shard>().unwrap(), Shard { index: 2, count: 4 });
        for bad in ["0/4", "5/4", "1/0", "x/2", "3"] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert_eq!((e.field.as_str(), e.option), ("shard", true), "{bad}");
        }
    }
}
