//! Task-set files for the RTA: kernels in launch order, each with a per-block WCET
//! given directly (`wcet`) or computed from the warp-level model (`instructions`).

use crate::bounds::safe_horizon;
use crate::error::{positive, InputError, SolveError};
use crate::instance::{parse_toml, read_text, Instance};
use crate::rta::Kernel;
use crate::sm::SmCounts;
use crate::solve::{solve, Method, SolveOptions};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// Which warps a computed per-block WCET accounts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contention {
    /// `T^(ceil(b/S))`: one block alone on an SM.
    Isolated,
    /// `T^(sm_threads/S)`: a full SM of warps starting together (default).
    FullSm,
}

/// `[gpu]`: defaults are the Jetson TX2.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuSection {
    /// `b_max`, threads of the pooled SMs (TX2: 4096).
    pub max_threads: Option<i64>,
    /// Resident threads per SM (TX2: 2048).
    pub sm_threads: Option<i64>,
    /// Period units per cycle, to convert makespans (default 1: periods in cycles).
    pub cycle_time: Option<f64>,
    /// SM profile for `instructions` kernels (TX2: L = 32, C = 128, S = 32).
    pub sm: Option<SmCounts>,
}

/// One `[[kernels]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelEntry {
    /// Name (default `K<i>`).
    pub name: Option<String>,
    /// `T_i`, also the deadline.
    pub period: f64,
    /// `C_i` given directly.
    pub wcet: Option<f64>,
    /// Instruction string to compute `C_i` from.
    pub instructions: Option<String>,
    /// Which contention the computed `C_i` assumes (default `full-sm`).
    pub contention: Option<Contention>,
    /// SM profile for this kernel (default: `[gpu.sm]`).
    pub sm: Option<SmCounts>,
    /// `g_i`.
    pub blocks: i64,
    /// `b_i`.
    pub threads_per_block: i64,
    /// `r_i` (default 0).
    pub release: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskSetFile {
    gpu: Option<GpuSection>,
    kernels: Vec<KernelEntry>,
    description: Option<String>,
}

/// A computed WCET is reused for the same instructions, warp count and SM profile.
type CacheKey = (String, u32, (i64, i64, i64));

/// The Jetson TX2 SM: 32 load/store units, 128 CUDA cores, warp size 32.
pub const TX2_SM: SmCounts = SmCounts { load_store_units: 32, cuda_cores: 128, warp_size: 32 };

/// A task set ready for the analysis, with where each `C_i` comes from.
#[derive(Debug, Clone, Serialize)]
pub struct TaskSet {
    /// Kernels in launch order.
    pub kernels: Vec<Kernel>,
    /// For each kernel: how its `C_i` was obtained and what that rests on.
    pub wcet_sources: Vec<String>,
    /// `b_max`.
    pub max_threads: u64,
    /// Threads per SM.
    pub sm_threads: u64,
}

/// Limits for computing per-block WCETs.
#[derive(Debug, Clone, Copy)]
pub struct WcetLimits {
    /// Per distinct kernel.
    pub time_limit: Duration,
    /// Search memory limit.
    pub max_states: usize,
}

impl TaskSet {
    /// Reads a task-set file and computes the WCETs it asks for.
    pub fn from_path(path: &Path, limits: WcetLimits) -> Result<TaskSet, SolveError> {
        let text = read_text(path)?;
        let file: TaskSetFile = parse_toml(&text, &path.display().to_string())?;
        let _ = &file.description;
        TaskSet::build(file, limits)
    }

    fn build(file: TaskSetFile, limits: WcetLimits) -> Result<TaskSet, SolveError> {
        let gpu = file.gpu.unwrap_or(GpuSection { max_threads: None, sm_threads: None, cycle_time: None, sm: None });
        let max_threads = positive(gpu.max_threads.unwrap_or(4096), "gpu.max_threads")?;
        let sm_threads = positive(gpu.sm_threads.unwrap_or(2048), "gpu.sm_threads")?;
        let cycle_time = gpu.cycle_time.unwrap_or(1.0);
        if !(cycle_time > 0.0 && cycle_time.is_finite()) {
            return Err(InputError::new("gpu.cycle_time", cycle_time, "must be positive").into());
        }
        if file.kernels.is_empty() {
            return Err(InputError::new("kernels", "[]", "the task set has no kernels").into());
        }
        let mut cache: HashMap<CacheKey, (u64, String)> = HashMap::new();
        let (mut kernels, mut sources) = (Vec::new(), Vec::new());
        for (i, e) in file.kernels.iter().enumerate() {
            let field = |f: &str| format!("kernels[{i}].{f}");
            let b = positive(e.threads_per_block, &field("threads_per_block"))?;
            if b > 1024 {
                return Err(InputError::new(field("threads_per_block"), b, "at most 1024 threads per block").into());
            }
            let blocks = positive(e.blocks, &field("blocks"))?;
            let (wcet, source) = match (&e.wcet, &e.instructions) {
                (Some(w), None) => (*w, "given (wcet)".to_string()),
                (None, Some(instr)) => {
                    let sm = e.sm.or(gpu.sm).unwrap_or(TX2_SM);
                    let contention = e.contention.unwrap_or(Contention::FullSm);
                    let warp_size = positive(sm.warp_size, &field("sm.warp_size"))?;
                    let warps = match contention {
                        Contention::Isolated => b.div_ceil(warp_size),
                        Contention::FullSm => (sm_threads / warp_size).max(1),
                    } as u32;
                    let key = (instr.clone(), warps, (sm.load_store_units, sm.cuda_cores, sm.warp_size));
                    let (cycles, how) = match cache.get(&key) {
                        Some(v) => v.clone(),
                        None => {
                            let inst = Instance::from_counts(instr, warps as i64, &sm).map_err(|e| InputError { field: field(&e.field), ..e })?;
                            let v = per_block_cycles(&inst, limits)?;
                            cache.insert(key, v.clone());
                            v
                        }
                    };
                    (cycles as f64 * cycle_time, format!("{cycles} cycles x {cycle_time}: {how}; {}", assumption(contention, warps)))
                }
                (Some(_), Some(_)) => return Err(InputError::new(field("wcet"), "and instructions", "give either wcet or instructions, not both").into()),
                (None, None) => return Err(InputError::new(field("wcet"), "(missing)", "give wcet or instructions").into()),
            };
            if e.contention.is_some() && e.instructions.is_none() {
                return Err(InputError::new(field("contention"), "set", "contention only applies to kernels given by instructions").into());
            }
            kernels.push(Kernel {
                name: e.name.clone().unwrap_or_else(|| format!("K{}", i + 1)),
                period: e.period,
                wcet,
                blocks,
                threads_per_block: b,
                release: e.release.unwrap_or(0.0),
            });
            sources.push(source);
        }
        Ok(TaskSet { kernels, wcet_sources: sources, max_threads, sm_threads })
    }
}

/// The proven upper bound on `T^(W)` in cycles (exact when the search finishes), and how.
fn per_block_cycles(inst: &Instance, limits: WcetLimits) -> Result<(u64, String), SolveError> {
    let opts = SolveOptions { method: Method::Search, time_limit: Some(limits.time_limit), max_states: limits.max_states, ..SolveOptions::default() };
    match solve(inst, &opts) {
        Ok(sol) if sol.exact => Ok((sol.upper_bound, format!("exact T^({}) of {}", inst.warps, inst.kernel))),
        Ok(sol) => Ok((sol.upper_bound, format!("proven upper bound on T^({}) (search stopped; exact value >= {})", inst.warps, sol.makespan))),
        Err(SolveError::Input(_)) => Ok((safe_horizon(inst), format!("safe horizon of T^({}) (proven; too large for the exact search)", inst.warps))),
        Err(e) => Err(e),
    }
}

fn assumption(c: Contention, warps: u32) -> String {
    match c {
        Contention::Isolated => format!(
            "isolated: one block's {warps} warps alone on an SM; ignores other blocks resident on the same SM (optimistic) and block turnover"
        ),
        Contention::FullSm => format!(
            "full-sm: {warps} warps of a full SM starting together; contention-aware, but does not cover block turnover (blocks starting mid-way)"
        ),
    }
}
