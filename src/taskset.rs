//! Task-set files for the RTA: kernels in launch order, each with a per-block WCET
//! given directly (`wcet`) or computed from the warp-level model (`instructions`, see
//! [`crate::wcet`]). This module only reads files; the checks of the model's
//! assumptions are in [`crate::rta::Platform::g_max`].

use crate::error::{positive, Error, InputError};
use crate::files::{parse_toml, read_text};
use crate::instance::Instance;
use crate::rta::{Platform, Task};
use crate::sm::SmCounts;
use crate::wcet::{Contention, WcetCache, WcetLimits, TX2_SM};
use serde::Deserialize;
use std::path::Path;

/// `[gpu]`: defaults are the Jetson TX2.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuSection {
    /// `b_max`, threads of the pooled SMs (TX2: 4096).
    pub max_threads: Option<i64>,
    /// Resident threads per SM (TX2: 2048).
    pub sm_threads: Option<i64>,
    /// Resident blocks per SM (TX2: 32).
    pub max_blocks_per_sm: Option<i64>,
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
    #[allow(dead_code)]
    description: Option<String>,
}

/// A task set ready for the analysis: the platform and the tasks in launch order.
#[derive(Debug, Clone)]
pub struct TaskSet {
    /// The GPU.
    pub platform: Platform,
    /// Kernels in launch order, each with where its `C_i` comes from.
    pub tasks: Vec<Task>,
}

impl TaskSet {
    /// Reads a task-set file and computes the WCETs it asks for.
    pub fn from_path(path: &Path, limits: WcetLimits) -> Result<TaskSet, Error> {
        let text = read_text(path)?;
        let file: TaskSetFile = parse_toml(&text, &path.display().to_string())?;
        TaskSet::build(file, limits)
    }

    fn build(file: TaskSetFile, limits: WcetLimits) -> Result<TaskSet, Error> {
        let gpu = file.gpu.unwrap_or_default();
        let platform = Platform {
            max_threads: positive(gpu.max_threads.unwrap_or(4096), "gpu.max_threads")?,
            sm_threads: positive(gpu.sm_threads.unwrap_or(2048), "gpu.sm_threads")?,
            max_blocks_per_sm: positive(gpu.max_blocks_per_sm.unwrap_or(32), "gpu.max_blocks_per_sm")?,
        };
        let cycle_time = gpu.cycle_time.unwrap_or(1.0);
        if !(cycle_time > 0.0 && cycle_time.is_finite()) {
            return Err(InputError::new("gpu.cycle_time", cycle_time, "must be positive").into());
        }
        if file.kernels.is_empty() {
            return Err(InputError::new("kernels", "[]", "the task set has no kernels").into());
        }
        let mut cache = WcetCache::default();
        let mut tasks = Vec::with_capacity(file.kernels.len());
        for (i, e) in file.kernels.iter().enumerate() {
            let field = |f: &str| format!("kernels[{i}].{f}");
            let b = positive(e.threads_per_block, &field("threads_per_block"))?;
            let blocks = positive(e.blocks, &field("blocks"))?;
            if e.contention.is_some() && e.instructions.is_none() {
                return Err(InputError::new(field("contention"), "set", "contention only applies to kernels given by instructions").into());
            }
            let (wcet, wcet_source) = match (&e.wcet, &e.instructions) {
                (Some(w), None) => (*w, "given (wcet)".to_string()),
                (None, Some(instr)) => {
                    let sm = e.sm.or(gpu.sm).unwrap_or(TX2_SM);
                    let contention = e.contention.unwrap_or(Contention::FullSm);
                    let warp_size = positive(sm.warp_size, &field("sm.warp_size"))?;
                    let warps = contention.warps(b, platform.sm_threads, warp_size);
                    let inst = Instance::from_counts(instr, warps as i64, &sm).map_err(|err| {
                        let f = field(&err.field);
                        err.in_field(f)
                    })?;
                    let (cycles, how) = cache.block_cycles(&inst, limits)?;
                    (cycles as f64 * cycle_time, format!("{cycles} cycles x {cycle_time}: {how}; {}", contention.assumption(warps)))
                }
                (Some(_), Some(_)) => return Err(InputError::new(field("wcet"), "and instructions", "give either wcet or instructions, not both").into()),
                (None, None) => return Err(InputError::new(field("wcet"), "(missing)", "give wcet or instructions").into()),
            };
            tasks.push(Task {
                name: e.name.clone().unwrap_or_else(|| format!("K{}", i + 1)),
                period: e.period,
                wcet,
                blocks,
                threads_per_block: b,
                release: e.release.unwrap_or(0.0),
                wcet_source,
            });
        }
        Ok(TaskSet { platform, tasks })
    }
}
