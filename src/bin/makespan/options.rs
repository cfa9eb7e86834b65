//! The command line's values turned into the library's options, once: errors name the
//! flag.

use crate::args::{InstanceArgs, SolverArgs};
use gpu_makespan::error::{bytes, seconds, InputError};
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::model::instance::{Instance, InstanceSource};
use std::time::Duration;

impl InstanceArgs {
    pub(crate) fn load(&self) -> Result<Instance, InputError> {
        let source = InstanceSource {
            file: self.file.clone(),
            kernel: self.kernel.clone(),
            warps: self.warps,
            sigma_l: self.sigma_l,
            sigma_c: self.sigma_c,
        };
        source.load()
    }
}

impl SolverArgs {
    /// Options for the commands that run many solves: a 10 s limit per solve unless given.
    pub(crate) fn options_with_default_limit(&self) -> Result<SolveOptions, InputError> {
        let mut o = self.options()?;
        o.time_limit = o.time_limit.or(Some(Duration::from_secs(10)));
        Ok(o)
    }

    pub(crate) fn options(&self) -> Result<SolveOptions, InputError> {
        let time_limit = self.time_limit.map(|t| seconds(t, "--time-limit")).transpose()?;
        if self.max_states == 0 {
            return Err(InputError::new("--max-states", 0, "must be positive"));
        }
        Ok(SolveOptions {
            method: self.method,
            form: self.constraints,
            horizon: self.horizon,
            time_limit,
            max_states: self.max_states,
            max_memory: bytes(&self.max_memory, "--max-memory")?,
            symmetry_breaking: !self.no_symmetry_breaking,
            dense: !self.no_dense,
        })
    }
}
