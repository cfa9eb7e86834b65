//! Task-set files (TOML) for the RTA: kernels with a per-block WCET given directly
//! (`wcet`) or computed from the warp-level model (`instructions`, see [`crate::rta::wcet`]).
//! This module only reads files into a [`Workload`]; the model's checks are in
//! [`crate::rta::analysis::demands`]. Times are read exactly ([`crate::rta::time`]).

use crate::error::{positive, Error, InputError};
use crate::exact::solve::SolveOptions;
use crate::files::{origin, parse_toml, read_text};
use crate::model::instance::Instance;
use crate::model::sm::SmCounts;
use crate::rta::analysis::{Task, Workload};
use crate::rta::gpu::{GpuSection, Platform};
use crate::rta::time::{Decimal, Scale};
use crate::rta::wcet::{Contention, WcetCache, TX2_SM};
use serde::Deserialize;
use std::path::Path;

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
    /// Shared memory per block in bytes (default 0).
    pub shared_memory: Option<i64>,
    /// Registers per thread (default 0: not limiting).
    pub registers_per_thread: Option<i64>,
    /// `r_i` (default 0).
    pub release: Option<f64>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskSetFile {
    gpu: Option<GpuSection>,
    kernels: Vec<KernelEntry>,
    unit: Option<String>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// A GPU profile file (`--gpu`): a `[gpu]` table as in task-set files.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    gpu: GpuSection,
    #[allow(dead_code)]
    description: Option<String>,
}

/// Reads a GPU profile file (`[gpu]` with the per-SM limits; absent fields are the TX2's).
pub fn read_profile(path: &Path) -> Result<Platform, InputError> {
    let f: ProfileFile = parse_toml(&read_text(path)?, &origin(path))?;
    f.gpu.platform()
}

/// Reads an RTA input: a cuda_scheduling_examiner config (`.json`, see
/// [`crate::rta::examiner`]) or a task-set file (TOML). `gpu` is a GPU profile file
/// (`--gpu`); `deadline` (`--deadline`) applies to configs only, which carry none.
pub fn load(path: &Path, gpu: Option<&Path>, deadline: Option<f64>, limits: &SolveOptions) -> Result<Workload, Error> {
    let profile = gpu.map(read_profile).transpose()?;
    let text = read_text(path)?;
    if crate::rta::examiner::is_config(path, &text) {
        return crate::rta::examiner::from_text(&text, &origin(path), profile.unwrap_or(Platform::TX2), deadline);
    }
    if let Some(d) = deadline {
        return Err(
            InputError::option("deadline", d, "applies to examiner configs; in a task set each kernel's period is its deadline").into()
        );
    }
    from_text(&text, &origin(path), profile, limits)
}

/// One kernel before the common time scale is known.
struct Pending {
    task: Task,
    period: Decimal,
    wcet: Decimal,
    release: Decimal,
}

/// Parses the text of a task-set file (from `origin`) and computes the WCETs it asks
/// for. `profile`, from `--gpu`, supplies the GPU when the file has no `[gpu]` table.
pub fn from_text(text: &str, origin: &str, profile: Option<Platform>, limits: &SolveOptions) -> Result<Workload, Error> {
    let file: TaskSetFile = parse_toml(text, origin)?;
    let gpu = file.gpu.clone().unwrap_or_default();
    let platform = match (profile, &file.gpu) {
        (Some(_), Some(_)) => {
            return Err(InputError::option("gpu", "(given)", "the task set has its own [gpu] table; edit it instead").into())
        }
        (Some(p), None) => p,
        (None, _) => gpu.platform()?,
    };
    let cycle_time = Decimal::of_f64(gpu.cycle_time.unwrap_or(1.0), "gpu.cycle_time")?;
    if cycle_time.digits == 0 {
        return Err(InputError::new("gpu.cycle_time", 0, "must be positive").into());
    }
    if file.kernels.is_empty() {
        return Err(InputError::new("kernels", "[]", "the task set has no kernels").into());
    }
    check_names(&file.kernels)?;
    let mut cache = WcetCache::default();
    let mut pending = Vec::with_capacity(file.kernels.len());
    for (i, e) in file.kernels.iter().enumerate() {
        pending.push(entry(i, e, &gpu, &platform, cycle_time, limits, &mut cache)?);
    }
    let scale = Scale::fitting(pending.iter().flat_map(|p| [&p.period, &p.wcet, &p.release]));
    let mut tasks = Vec::with_capacity(pending.len());
    for (i, p) in pending.into_iter().enumerate() {
        let field = |f: &str| format!("kernels[{i}].{f}");
        tasks.push(Task {
            deadline: Some(scale.ticks(p.period, &field("period"))?),
            wcet: scale.ticks(p.wcet, &field("wcet"))?,
            release: scale.ticks(p.release, &field("release"))?,
            ..p.task
        });
    }
    Ok(Workload { tasks, platform, scale, unit: file.unit.unwrap_or_else(|| "input units".into()) })
}

/// Kernel names, where given, are non-empty and unique (reports and plots key on them).
fn check_names(kernels: &[KernelEntry]) -> Result<(), InputError> {
    let mut seen = std::collections::HashSet::new();
    for (i, e) in kernels.iter().enumerate() {
        let name = e.name.clone().unwrap_or_else(|| format!("K{}", i + 1));
        if name.trim().is_empty() {
            return Err(InputError::new(format!("kernels[{i}].name"), format!("{name:?}"), "a kernel name must not be empty"));
        }
        if !seen.insert(name.clone()) {
            return Err(InputError::new(format!("kernels[{i}].name"), format!("{name:?}"), "another kernel has this name"));
        }
    }
    Ok(())
}

fn entry(
    i: usize,
    e: &KernelEntry,
    gpu: &GpuSection,
    platform: &Platform,
    cycle_time: Decimal,
    limits: &SolveOptions,
    cache: &mut WcetCache,
) -> Result<Pending, Error> {
    let field = |f: &str| format!("kernels[{i}].{f}");
    let b = positive(e.threads_per_block, &field("threads_per_block"))?;
    let blocks = positive(e.blocks, &field("blocks"))?;
    let non_negative = |v: Option<i64>, f: &str| {
        u64::try_from(v.unwrap_or(0)).map_err(|_| InputError::new(field(f), v.unwrap_or(0), "must be zero or positive"))
    };
    if e.contention.is_some() && e.instructions.is_none() {
        return Err(InputError::new(field("contention"), "set", "contention only applies to kernels given by instructions").into());
    }
    let period = Decimal::of_f64(e.period, &field("period"))?;
    if period.digits == 0 {
        return Err(InputError::new(field("period"), e.period, "must be positive").into());
    }
    let (wcet, wcet_source) = match (&e.wcet, &e.instructions) {
        (Some(w), None) => {
            let d = Decimal::of_f64(*w, &field("wcet"))?;
            if d.digits == 0 {
                return Err(InputError::new(field("wcet"), w, "must be positive").into());
            }
            (d, "given (wcet)".to_string())
        }
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
            let wcet = cycle_time.times(cycles as u128, &field("instructions"))?;
            let ct = Scale { decimals: cycle_time.decimals }.format(cycle_time.digits);
            (wcet, format!("{cycles} cycles x {ct}: {how}; {}", contention.assumption(warps)))
        }
        (Some(_), Some(_)) => {
            return Err(InputError::new(field("wcet"), "and instructions", "give either wcet or instructions, not both").into())
        }
        (None, None) => return Err(InputError::new(field("wcet"), "(missing)", "give wcet or instructions").into()),
    };
    let task = Task {
        name: e.name.clone().unwrap_or_else(|| format!("K{}", i + 1)),
        deadline: None,
        wcet: 0,
        blocks,
        threads_per_block: b,
        shared_memory: non_negative(e.shared_memory, "shared_memory")?,
        registers_per_thread: non_negative(e.registers_per_thread, "registers_per_thread")?,
        release: 0,
        wcet_source,
    };
    let release = Decimal::of_f64(e.release.unwrap_or(0.0), &field("release"))?;
    Ok(Pending { task, period, wcet, release })
}
