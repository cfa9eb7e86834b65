//! The command line's values turned into the library's options, once: errors name the
//! flag. Defaults come from the library (`gpu_makespan::budget`), defined once there.

use crate::args::{InstanceArgs, SolverArgs};
use gpu_makespan::budget::{Budget, StopFlag, DEFAULT_MAX_MEMORY, DEFAULT_TIME_LIMIT_PER_SOLVE};
use gpu_makespan::error::{bytes, seconds, InputError};
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::model::instance::{Instance, InstanceSource};
use gpu_makespan::rta::jobs::Launch;
use gpu_makespan::rta::taskset::{Request, WindowRequest};
use gpu_makespan::rta::time::Decimal;
use std::path::PathBuf;

impl InstanceArgs {
    fn source(&self) -> InstanceSource {
        InstanceSource {
            file: self.file.clone(),
            kernel: self.kernel.clone(),
            warps: self.warps,
            sigma_l: self.sigma_l,
            sigma_c: self.sigma_c,
        }
    }

    /// A barrier-free instance.
    pub(crate) fn load(&self) -> Result<Instance, InputError> {
        self.source().load()
    }

    /// A kernel that may have barriers, as phases.
    pub(crate) fn load_program(&self) -> Result<gpu_makespan::model::program::Program, InputError> {
        self.source().load_program()
    }
}

/// The budget of `--time-limit` (seconds, if given) and `--max-memory` (bytes, default
/// 2G), stopped by `stop` (the program's interrupt flag).
pub(crate) fn budget(time_limit: Option<f64>, max_memory: Option<&str>, stop: &StopFlag) -> Result<Budget, InputError> {
    let time_limit = time_limit.map(|t| seconds(t, "--time-limit")).transpose()?;
    let max_memory = max_memory.map(|m| bytes(m, "--max-memory")).transpose()?.unwrap_or(DEFAULT_MAX_MEMORY);
    Ok(Budget::new(time_limit, max_memory).with_stop(stop.clone()))
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
        let mut o = self.options(stop)?;
        if o.budget.time_limit().is_none() {
            o.budget = o.budget.with_time_limit(Some(DEFAULT_TIME_LIMIT_PER_SOLVE));
        }
        Ok(o)
    }

    pub(crate) fn options(&self, stop: &StopFlag) -> Result<SolveOptions, InputError> {
        Ok(SolveOptions {
            method: self.method,
            form: self.constraints,
            horizon: self.horizon,
            budget: budget(self.time_limit, self.max_memory.as_deref(), stop)?,
            max_states: max_states(self.max_states)?,
            symmetry_breaking: !self.no_symmetry_breaking,
            dense: !self.no_dense,
        })
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
    let exact = |text: &str, name: &str| Decimal::parse_number(text, name).map_err(InputError::as_option);
    let window = match window {
        None => None,
        Some(w) if w.trim().eq_ignore_ascii_case("hyperperiod") => Some(WindowRequest::Hyperperiod),
        Some(w) => Some(WindowRequest::Until(exact(w, "window")?)),
    };
    Ok(Request {
        gpu,
        deadline: deadline.map(|d| exact(d, "deadline")).transpose()?,
        window,
        launch: if file_order { Launch::FileOrder } else { Launch::AnyOrder },
    })
}
