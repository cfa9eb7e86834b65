//! The sweep specification: a TOML grid (README, "Running large experiments").
//!
//! ```toml
//! command = "solve"                  # solve | approx | bound
//! kernels = ["LLC", "LCL"]           # and/or files = ["instances/fig2-llc.toml"]
//! warps = [2, 4, 8]                  # with files: overrides the files' warps
//! sigma_l = [1]                      # kernels only (a file carries its SM)
//! sigma_c = [1, 2]
//! method = ["search"]                # optional; not with bound
//! x = [1, 2, 4]                      # approx only (or x_max = 8: every x from 1)
//! time_limit = 5                     # seconds per solve (default 10)
//! total_time_limit = 60              # approx only: seconds for all of a job's solves
//! ```
//! Every list may also be a single value. The grid is the product of the lists; jobs
//! with `x > W` are left out (they are not defined).

use super::job::{Job, JobParams, Settings, SweepCommand};
use crate::files::{bytes, seconds};
use crate::wording::positive;
use gpu_makespan::error::InputError;
use gpu_makespan::files::{origin, parse_toml, read_text};
use gpu_makespan::Instance;
use gpu_makespan::Method;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Most jobs one spec may describe.
pub const MAX_JOBS: u64 = 100_000;

/// One value or a list of values.
#[derive(Debug, Clone)]
pub enum OneOrMany<T> {
    /// `warps = 4`.
    One(T),
    /// `warps = [2, 4]`.
    Many(Vec<T>),
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for OneOrMany<T> {
    /// A value or a list; an entry of the wrong type is named by its position and type
    /// (e.g. `sigma_l = ["1/2"]`: entry 1, a string where an integer is expected).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match toml::Value::deserialize(d)? {
            toml::Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| T::deserialize(v.clone()).map_err(|e| D::Error::custom(format!("entry {} ({v}): {}", i + 1, e.message()))))
                .collect::<Result<Vec<T>, _>>()
                .map(OneOrMany::Many),
            v => T::deserialize(v.clone()).map(OneOrMany::One).map_err(|e| D::Error::custom(format!("{v}: {}", e.message()))),
        }
    }
}

impl<T> Default for OneOrMany<T> {
    fn default() -> Self {
        OneOrMany::Many(Vec::new())
    }
}

impl<T> OneOrMany<T> {
    fn values(&self) -> &[T] {
        match self {
            OneOrMany::One(v) => std::slice::from_ref(v),
            OneOrMany::Many(v) => v,
        }
    }
}

/// A sweep file as written. [`Spec::jobs`] checks it and expands the grid.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// What each job runs.
    pub command: SweepCommand,
    /// Instruction strings.
    #[serde(default)]
    pub kernels: OneOrMany<String>,
    /// Instance files (paths relative to the directory the sweep is started in).
    #[serde(default)]
    pub files: OneOrMany<PathBuf>,
    /// Warp counts (required with kernels; with files, overrides their `warps`).
    #[serde(default)]
    pub warps: OneOrMany<i64>,
    /// Integral sigma_L values for the kernels (default 1).
    #[serde(default)]
    pub sigma_l: OneOrMany<i64>,
    /// Integral sigma_C values for the kernels (default 1).
    #[serde(default)]
    pub sigma_c: OneOrMany<i64>,
    /// Methods (default `search`); not with `bound`.
    #[serde(default)]
    pub method: OneOrMany<String>,
    /// `x` values (approx only).
    #[serde(default)]
    pub x: OneOrMany<i64>,
    /// Every `x` from 1 to `x_max` (approx only; instead of `x`).
    pub x_max: Option<i64>,
    /// Seconds per solve (default [`gpu_makespan::Budget::DEFAULT_TIME_LIMIT_PER_SOLVE`], as `approx` and `converge`); not with `bound`.
    pub time_limit: Option<f64>,
    /// Overall seconds of each approx job (all its solves; approx only).
    pub total_time_limit: Option<f64>,
    /// Search limit in stored states.
    pub max_states: Option<i64>,
    /// Search memory limit (`"2G"`, `"512M"`, or a number of bytes).
    pub max_memory: Option<toml::Value>,
    /// Free text, ignored.
    #[allow(dead_code)]
    pub description: Option<String>,
}

impl Spec {
    /// Reads and parses a spec file (`-`: standard input).
    pub fn from_path(path: &Path) -> Result<Spec, InputError> {
        parse_toml(&read_text(path)?, &origin(path))
    }

    /// The grid's jobs in a fixed order, each checked (kernel, warps, sigmas, files),
    /// duplicates (same id) removed. Errors name the spec field and the value.
    pub fn jobs(&self) -> Result<Vec<Job>, InputError> {
        let settings = self.settings()?;
        let xs = self.x_values()?;
        let size = self.instance_count().saturating_mul(settings.methods.len() as u64).saturating_mul(xs.len().max(1) as u64);
        if size > MAX_JOBS {
            return Err(InputError::new("sweep grid", format!("{size} jobs"), format!("at most {MAX_JOBS} jobs per spec; split it")));
        }
        let instances = self.instances()?;
        let mut jobs = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (inst, file) in &instances {
            for &method in &settings.methods {
                for x in self.x_for(&xs, inst.warps) {
                    let params = JobParams::new(self.command, inst, file.as_deref(), method, x, &settings);
                    let job = Job::new(params, inst.clone());
                    if seen.insert(job.id.clone()) {
                        jobs.push(job);
                    }
                }
            }
        }
        Ok(jobs)
    }

    /// The x values of each job: `[None]` unless approx; approx jobs with `x > W` dropped.
    fn x_for(&self, xs: &[u32], warps: u32) -> Vec<Option<u32>> {
        match self.command {
            SweepCommand::Approx => xs.iter().copied().filter(|&x| x <= warps).map(Some).collect(),
            _ => vec![None],
        }
    }

    fn settings(&self) -> Result<Settings, InputError> {
        let bound = self.command == SweepCommand::Bound;
        let names = self.method.values();
        if bound && !names.is_empty() {
            return Err(InputError::new("method", names.join(","), "command = \"bound\" runs no solver; leave method out"));
        }
        if bound && self.time_limit.is_some() {
            return Err(InputError::new(
                "time_limit",
                self.time_limit.unwrap_or_default(),
                "command = \"bound\" runs no solver; leave time_limit out",
            ));
        }
        let methods = if bound {
            vec![None]
        } else if names.is_empty() {
            vec![Some(Method::Search)]
        } else {
            names.iter().enumerate().map(|(i, n)| self.method_named(i, n).map(Some)).collect::<Result<_, _>>()?
        };
        let time_limit =
            if bound { None } else { Some(self.time_limit.unwrap_or(gpu_makespan::Budget::DEFAULT_TIME_LIMIT_PER_SOLVE.as_secs_f64())) };
        if let Some(t) = time_limit {
            seconds(t, "time_limit")?;
        }
        let max_states = self.max_states.map(|n| positive(n, "max_states").map(|v| v as usize)).transpose()?;
        let max_memory = match &self.max_memory {
            None => None,
            Some(toml::Value::String(m)) => Some(bytes(m, "max_memory")?),
            Some(toml::Value::Integer(n)) => Some(bytes(&n.to_string(), "max_memory")?),
            Some(other) => return Err(InputError::new("max_memory", other, "a size such as \"2G\" or \"512M\", or a number of bytes")),
        };
        let total_time_limit = self.total_time_limit;
        if let Some(t) = total_time_limit {
            if self.command != SweepCommand::Approx {
                return Err(InputError::new("total_time_limit", t, "applies to approx jobs (many solves each); use time_limit"));
            }
            seconds(t, "total_time_limit")?;
        }
        Ok(Settings { methods, time_limit, max_states, max_memory, total_time_limit })
    }

    fn method_named(&self, i: usize, name: &str) -> Result<Method, InputError> {
        let m: Method = name.parse().map_err(|e: String| InputError::new(format!("method[{i}]"), name, e))?;
        if m == Method::Heuristic && self.command == SweepCommand::Approx {
            return Err(InputError::new(format!("method[{i}]"), name, "the approximation needs exact T^(y): use search, ilp or both"));
        }
        Ok(m)
    }

    /// How many instances the grid lists (before any is checked or read).
    fn instance_count(&self) -> u64 {
        let (sl, sc) = (self.sigma_l.values().len().max(1) as u64, self.sigma_c.values().len().max(1) as u64);
        let per_warps =
            (self.kernels.values().len() as u64).saturating_mul(sl).saturating_mul(sc).saturating_add(self.files.values().len() as u64);
        per_warps.saturating_mul(self.warps.values().len().max(1) as u64)
    }

    /// Every instance of the grid, with the file it came from.
    fn instances(&self) -> Result<Vec<(Instance, Option<String>)>, InputError> {
        let (kernels, files) = (self.kernels.values(), self.files.values());
        if kernels.is_empty() && files.is_empty() {
            return Err(InputError::new(
                "kernels",
                "",
                "the spec has no kernels and no files: give a non-empty kernels = [...] and/or files = [...]",
            ));
        }
        let warps = self.warps.values();
        if !kernels.is_empty() && warps.is_empty() {
            return Err(InputError::new("warps", "", "kernels need warps"));
        }
        if kernels.is_empty() && (!self.sigma_l.values().is_empty() || !self.sigma_c.values().is_empty()) {
            return Err(InputError::new("sigma_l/sigma_c", "", "apply to kernels only; a file carries its SM"));
        }
        let (sigma_l, sigma_c) = (or_one(self.sigma_l.values()), or_one(self.sigma_c.values()));
        let mut out = Vec::new();
        for (i, k) in kernels.iter().enumerate() {
            for &w in warps {
                for &sl in sigma_l {
                    for &sc in sigma_c {
                        let inst = Instance::new(k, w, sl, sc).map_err(|e| rename(e, i, "kernels"))?;
                        out.push((inst, None));
                    }
                }
            }
        }
        for (i, f) in files.iter().enumerate() {
            let base = Instance::from_path(f).map_err(|e| rename(e, i, "files"))?;
            if warps.is_empty() {
                out.push((base.clone(), Some(f.display().to_string())));
            }
            for &w in warps {
                out.push((base.with_warp_count(w, "warps")?, Some(f.display().to_string())));
            }
        }
        Ok(out)
    }

    fn x_values(&self) -> Result<Vec<u32>, InputError> {
        let given = self.x.values();
        let approx = self.command == SweepCommand::Approx;
        match (approx, given.is_empty(), self.x_max) {
            (false, true, None) => Ok(Vec::new()),
            (false, _, _) => Err(InputError::new("x", "", "x and x_max are for command = \"approx\" only")),
            (true, true, None) => Err(InputError::new("x", "", "command = \"approx\" needs x = [...] or x_max = N")),
            (true, false, Some(m)) => Err(InputError::new("x_max", m, "give x or x_max, not both")),
            (true, true, Some(m)) => Ok((1..=check_x(m, "x_max")?).collect()),
            (true, false, None) => given.iter().enumerate().map(|(i, &x)| check_x(x, &format!("x[{i}]"))).collect(),
        }
    }
}

/// The given values, or `[1]` when none are given.
fn or_one(v: &[i64]) -> &[i64] {
    if v.is_empty() {
        &[1]
    } else {
        v
    }
}

fn check_x(x: i64, field: &str) -> Result<u32, InputError> {
    u32::try_from(x)
        .ok()
        .filter(|&v| v >= 1 && i64::from(v) <= gpu_makespan::Instance::MAX_WARPS)
        .ok_or_else(|| InputError::new(field, x, "must be a warp count from 1"))
}

/// An instance error of list entry `i` of `list`, named `list[i].field`.
fn rename(e: InputError, i: usize, list: &str) -> InputError {
    let field = format!("{list}[{i}].{}", e.field);
    e.in_field(field)
}
