//! The command line's values turned into the library's options, once: errors name the
//! flag. Defaults come from the library (`gpu_makespan::budget`), defined once there.

use crate::args::{InstanceArgs, SolverArgs, TimeLimit};
use crate::files::{bytes, seconds};
use gpu_makespan::rta::taskset::{Request, WindowRequest};
use gpu_makespan::rta::Decimal;
use gpu_makespan::rta::Launch;
use gpu_makespan::ConstraintForm;
use gpu_makespan::InputError;
use gpu_makespan::Instance;
use gpu_makespan::InstanceSource;
use gpu_makespan::SolveOptions;
use gpu_makespan::{Budget, StopFlag};
use std::path::PathBuf;

impl InstanceArgs {
    fn source(&self) -> InstanceSource {
        InstanceSource {
            file: self.file.clone(),
            kernel: self.kernel.clone(),
            warps: self.warps,
            sigma_l: self.sigma_l,
            sigma_c: self.sigma_c,
            warps_per_block: self.warps_per_block,
        }
    }

    /// Warps that may be several blocks with barriers.
    pub(crate) fn load_blocks(&self) -> Result<gpu_makespan::Blocks, InputError> {
        self.source().load_blocks()
    }

    /// The blocks, latencies and scheduler of `simulate`: the file's, overridden by
    /// `--latency-l`, `--latency-c` and `--scheduler` (default `gto` when neither
    /// gives one).
    pub(crate) fn load_simulation(
        &self,
        a: &crate::args::SimulateArgs,
    ) -> Result<(gpu_makespan::Blocks, gpu_makespan::Latencies, gpu_makespan::Scheduler), InputError> {
        use gpu_makespan::{LatencyRange, Scheduler};
        let (blocks, mut latency, in_file) = self.source().load_simulation()?;
        let flag =
            |v: &Option<String>, name: &str| v.as_deref().map(|t| LatencyRange::parse(t, name).map_err(InputError::as_option)).transpose();
        latency.l = flag(&a.latency_l, "latency_l")?.unwrap_or(latency.l);
        latency.c = flag(&a.latency_c, "latency_c")?.unwrap_or(latency.c);
        let scheduler = match &a.scheduler {
            Some(s) => Scheduler::parse(s, "scheduler").map_err(InputError::as_option)?,
            None => in_file.unwrap_or(Scheduler::Gto),
        };
        Ok((blocks, latency, scheduler))
    }

    /// A barrier-free instance.
    pub(crate) fn load(&self) -> Result<Instance, InputError> {
        self.source().load()
    }
}

/// The budget of `--time-limit` (seconds, if given) and `--max-memory` (bytes, default
/// 2G), stopped by `stop` (the program's interrupt flag).
pub(crate) fn budget(time_limit: Option<f64>, max_memory: Option<&str>, stop: &StopFlag) -> Result<Budget, InputError> {
    let time_limit = time_limit.map(|t| seconds(t, "--time-limit")).transpose()?;
    let max_memory = max_memory.map(|m| bytes(m, "--max-memory")).transpose()?.unwrap_or(gpu_makespan::Budget::DEFAULT_MAX_MEMORY);
    Ok(Budget::new(time_limit, max_memory).with_stop(stop.clone()))
}

/// `budget` with the overall limit `--total-time-limit` (seconds), if given.
pub(crate) fn with_total(budget: Budget, total: Option<f64>) -> Result<Budget, InputError> {
    let total = total.map(|t| seconds(t, "--total-time-limit")).transpose()?;
    Ok(budget.with_overall_limit(total))
}

/// `--max-states`, which must be positive.
pub(crate) fn max_states(n: usize) -> Result<usize, InputError> {
    if n == 0 {
        return Err(InputError::new("--max-states", 0, "must be positive"));
    }
    Ok(n)
}

impl SolverArgs {
    /// Options for the commands that run many solves: a 10 s limit per solve unless given.
    pub(crate) fn options_with_default_limit(&self, stop: &StopFlag) -> Result<SolveOptions, InputError> {
        self.options(stop, Some(gpu_makespan::Budget::DEFAULT_TIME_LIMIT_PER_SOLVE))
    }

    /// The solver's options; `default` is the time limit when `--time-limit` is not given
    /// (`--time-limit none`: no limit).
    pub(crate) fn options(&self, stop: &StopFlag, default: Option<std::time::Duration>) -> Result<SolveOptions, InputError> {
        let limit = match self.time_limit {
            Some(TimeLimit::Seconds(t)) => Some(t),
            Some(TimeLimit::Unlimited) => None,
            None => default.map(|d| d.as_secs_f64()),
        };
        if !self.method.uses_ilp() {
            if let Some(form) = self.constraints {
                let name = gpu_makespan::files::serde_word(&form);
                return Err(InputError::option("constraints", name, "applies to the ILP only: add --method ilp (or both)"));
            }
            if self.no_symmetry_breaking {
                return Err(InputError::option("no_symmetry_breaking", "", "applies to the ILP only: add --method ilp (or both)"));
            }
        }
        Ok(SolveOptions::default()
            .with_method(self.method)
            .with_form(self.constraints.unwrap_or(ConstraintForm::Short))
            .with_horizon(self.horizon)
            .with_budget(budget(limit, self.max_memory.as_deref(), stop)?)
            .with_max_states(max_states(self.max_states)?)
            .with_symmetry_breaking(!self.no_symmetry_breaking)
            .with_dense(!self.no_dense))
    }

    /// Whether the time limit is the command's default (not given).
    pub(crate) fn default_time_limit(&self) -> bool {
        self.time_limit.is_none()
    }
}

/// What `rta` asks for besides its file, from its options: `--deadline` and `--window`
/// read as exact decimals.
pub(crate) fn rta_request(
    gpu: Option<PathBuf>,
    deadline: Option<&str>,
    window: Option<&str>,
    file_order: bool,
) -> Result<Request, InputError> {
    let exact = |text: &str, name: &str| {
        if text.trim().starts_with('-') {
            return Err(InputError::option(name, text, "must be positive"));
        }
        Decimal::parse_number(text, name).map_err(InputError::as_option)
    };
    let window = match window {
        None => None,
        Some(w) if w.trim().eq_ignore_ascii_case("hyperperiod") => Some(WindowRequest::Hyperperiod),
        Some(w) => Some(WindowRequest::Until(exact(w, "window")?)),
    };
    Ok(Request::default()
        .with_gpu(gpu)
        .with_deadline(deadline.map(|d| exact(d, "deadline")).transpose()?)
        .with_window(window)
        .with_launch(if file_order { Launch::FileOrder } else { Launch::AnyOrder })
        // `rta` analyses the set as it stands (one job per kernel without a window).
        .with_single_jobs(true))
}

/// What `import` asks for, from its options: trip counts `LABEL=N` or `LABEL=N1,N2,...`, the SM (`tx2` or
/// `L,C,S`), `W` from `--block-threads` (whole warps) or `--warps`, a user map.
#[allow(clippy::too_many_arguments)]
pub(crate) fn import_request(
    entry: Option<String>,
    trace: bool,
    units: Option<&std::path::Path>,
    trips: &[String],
    block_threads: Option<i64>,
    warps: Option<i64>,
    sm: &str,
    arch: Option<String>,
) -> Result<gpu_makespan::import::Request, InputError> {
    use gpu_makespan::SmCounts;
    let sm = match sm.trim().to_ascii_lowercase().as_str() {
        "tx2" => gpu_makespan::SmCounts::TX2,
        other => {
            let v: Vec<Option<i64>> = other.split(',').map(|x| x.trim().parse().ok()).collect();
            match v.as_slice() {
                [Some(l), Some(c), Some(s)] => SmCounts { load_store_units: *l, cuda_cores: *c, warp_size: *s },
                _ => return Err(InputError::option("sm", sm, "give tx2, or L,C,S unit counts such as 32,128,32")),
            }
        }
    };
    let warps = match (block_threads, warps) {
        (Some(b), None) if (1..=1024).contains(&b) && sm.warp_size > 0 => (b + sm.warp_size - 1) / sm.warp_size,
        (Some(b), None) => {
            return Err(InputError::option(
                "block-threads",
                b,
                "must be from 1 to 1024 (CUDA's most threads per block), with a positive warp size",
            ))
        }
        (None, Some(w)) if (1..=gpu_makespan::Instance::MAX_WARPS).contains(&w) => w,
        (None, Some(w)) => return Err(InputError::option("warps", w, format!("must be from 1 to {}", gpu_makespan::Instance::MAX_WARPS))),
        _ => return Err(InputError::option("block-threads", "", "give --block-threads N or --warps W (the warps of one block)")),
    };
    let mut map = std::collections::HashMap::new();
    for t in trips {
        let (label, n) =
            t.split_once('=').ok_or_else(|| InputError::option("trip", t, "write LABEL=N (or LABEL=N1,N2,... one per visit)"))?;
        let n = gpu_makespan::import::Trip::parse(n).map_err(|why| InputError::option("trip", t, why))?;
        if map.insert(label.trim().to_string(), n).is_some() {
            return Err(InputError::option("trip", t, "this label has a trip count already"));
        }
    }
    let units = units
        .map(|p| gpu_makespan::import::UnitMap::from_toml(&gpu_makespan::files::read_text(p)?, &gpu_makespan::files::origin(p)))
        .transpose()
        .map_err(InputError::as_option)?;
    Ok(gpu_makespan::import::Request::new(warps, sm)
        .with_entry(entry)
        .with_trace(trace)
        .with_trips(map)
        .with_units(units)
        .with_arch(arch)
        .with_block_threads(block_threads))
}

/// The system to analyse: the model file, then `--chains`, then the mapping options
/// (`--mapping` first, `--map` over it).
pub(crate) fn system_model(a: &crate::args::SystemArgs) -> Result<gpu_makespan::system::System, InputError> {
    use gpu_makespan::files::{origin, read_text};
    use gpu_makespan::system::UnitOrder;
    let (model, chains, mapping, map) = (a.model.as_path(), a.chains.as_deref(), a.mapping.as_deref(), &a.map);
    let mut sys = gpu_makespan::system::read(&read_text(model)?, &origin(model))?;
    if let Some(path) = chains {
        sys.chains.extend(gpu_makespan::system::read_chains(&read_text(path)?, &origin(path))?);
    }
    if let Some(list) = mapping {
        let numbers = list
            .split(',')
            .map(|n| n.trim().parse::<i64>().map_err(|_| InputError::new("--mapping", list, "a comma-separated list of unit numbers")))
            .collect::<Result<Vec<_>, _>>()?;
        let order = if a.unit_order == "app4rta" { UnitOrder::Names } else { UnitOrder::Model };
        sys.map_numbers(&numbers, order, "--mapping")?;
    }
    for m in map {
        let (task, unit) = m.split_once('=').ok_or_else(|| InputError::new("--map", m, "must be TASK=UNIT"))?;
        sys.map(task.trim(), unit.trim(), "--map")?;
    }
    Ok(sys)
}

/// `--communication`, `--offload`, `--gpu-sharing`, `--contention`, `--reference`
/// (values checked by clap) and `--context-switch`.
pub(crate) fn system_options(a: &crate::args::SystemArgs) -> Result<gpu_makespan::system::Options, InputError> {
    use gpu_makespan::system::ContentionMode;
    use gpu_makespan::system::OffloadMode;
    use gpu_makespan::system::Reference;
    use gpu_makespan::system::{GpuOptions, Sharing};
    use gpu_makespan::system::{Options, Paradigm};
    let communication = match a.communication.as_str() {
        "direct" => Paradigm::Direct,
        "let" => Paradigm::Let,
        _ => Paradigm::Implicit,
    };
    let offload = match a.offload.as_str() {
        "sync" => OffloadMode::Sync,
        "async" => OffloadMode::Async,
        _ => OffloadMode::Model,
    };
    let sharing = match a.gpu_sharing.as_str() {
        "time-slices" => Sharing::TimeSlices,
        "fifo" => Sharing::Fifo,
        _ => Sharing::Auto,
    };
    let context_switch = a.context_switch.as_deref().map(|t| gpu_makespan::system::time_text(t, "--context-switch")).transpose()?;
    let contention = match a.contention.as_str() {
        "off" => ContentionMode::Off,
        "latency" => ContentionMode::Latency,
        _ => ContentionMode::Model,
    };
    let reference = if a.reference.is_some() { Reference::App4rta } else { Reference::Proven };
    let time_limit = a.total_time_limit.map(|t| seconds(t, "--total-time-limit")).transpose()?;
    Ok(Options::default()
        .with_time_limit(time_limit)
        .with_communication(communication)
        .with_offload(offload)
        .with_gpu(GpuOptions::default().with_sharing(sharing).with_context_switch(context_switch))
        .with_contention(contention)
        .with_reference(reference))
}
