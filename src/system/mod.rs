//! From kernels to systems: CPU tasks that offload work to the GPU, their response
//! times per core, the GPU tasks' responses from the kernel-level RTA ([`crate::rta`]),
//! and end-to-end latencies of cause-effect chains, after the APP4MC response-time
//! analyser of Google Summer of Code 2019 (`docs/system-model.md` states the equations,
//! the choices where that document is ambiguous, and what is not modelled).
//!
//! In: a [`System`] from [`read`] (an AMALTHEA model or its TOML form), chains from
//! [`read_chains`], [`Options`]. Out: [`analyse`] gives a [`SystemReport`]: per core its
//! tasks' [`TaskResponse`]s, per GPU task a [`GpuResponse`], per chain its latencies
//! ([`ChainRow`]). Times are exact picoseconds ([`Ps`]); reports write milliseconds.
//! Internal layers, bottom up: `model`, `amalthea` and `toml_form`, `cost`, `gpu`, `cpu`,
//! `chains`, `report` (`docs/architecture.md`).

internal! {
    mod amalthea;
    mod chains;
    mod contention;
    mod cost;
    mod cpu;
    mod event_chains;
    mod gpu;
    mod gpu_jobs;
    mod gpu_sharing;
    mod kernel_time;
    mod model;
    mod reference;
    mod report;
    mod toml_form;
    mod xml;
}

pub use contention::ContentionMode;
pub use cpu::{OffloadMode, Response as TaskResponse};
pub use gpu::{GpuOptions, GpuResponse, Sharing};
pub use model::{ms, time_text, Chain, Ps, System, UnitOrder};
pub use reference::Reference;
pub use report::{
    analyse, ChainRow, ContentionRow, CoreRow, GpuSharingRow, LatenciesMs, Options, Paradigm, RangeMs, SystemReport, UnitWait,
};
pub use toml_form::read_chains;

use crate::error::InputError;

/// Reads a system from `text` (from `origin`): an AMALTHEA model when it is XML (`<`
/// first), else the TOML form.
///
/// ```
/// use gpu_makespan::system::{self, analyse, Options};
///
/// let text = std::fs::read_to_string("instances/system/small.toml").unwrap();
/// let sys = system::read(&text, "small.toml")?;
/// let report = analyse(&sys, None, Options::default())?;
/// assert_eq!(report.cores.len(), 2);
/// let json = serde_json::to_value(&report).unwrap(); // the report `makespan system --json` prints
/// assert!(json["chains"].is_array());
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn read(text: &str, origin: &str) -> Result<System, InputError> {
    if text.trim_start().starts_with('<') {
        amalthea::read(text, origin)
    } else {
        toml_form::read(text, origin)
    }
}
