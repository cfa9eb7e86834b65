//! From kernels to systems: CPU tasks that offload work to the GPU, their response
//! times per core, the GPU tasks' responses from the kernel-level RTA, and end-to-end
//! latencies of cause-effect chains, after the APP4MC response-time analyser of Google
//! Summer of Code 2019 (`docs/system-model.md` states the equations, the choices where
//! that document is ambiguous, and what is not modelled).
//!
//! Layers, bottom up: [`model`] (the system), [`amalthea`] and [`toml_form`] (reading
//! it; [`event_chains`] for the model's chains), [`cost`] (execution times), [`gpu`] (GPU tasks through [`crate::rta`]; [`gpu_jobs`] for
//! successive jobs of one), [`cpu`]
//! (execution-time cases and response times per core), [`chains`] (end-to-end
//! latencies), [`report`] (all of it, as `makespan system` prints it).

pub mod amalthea;
pub mod chains;
pub mod contention;
pub mod cost;
pub mod cpu;
pub mod event_chains;
pub mod gpu;
pub mod gpu_jobs;
pub mod gpu_sharing;
pub mod kernel_time;
pub mod model;
pub mod reference;
pub mod report;
pub mod toml_form;
pub mod xml;

use crate::error::InputError;
use model::System;

/// Reads a system from `text` (from `origin`): an AMALTHEA model when it is XML (`<`
/// first), else the TOML form.
pub fn read(text: &str, origin: &str) -> Result<System, InputError> {
    if text.trim_start().starts_with('<') {
        amalthea::read(text, origin)
    } else {
        toml_form::read(text, origin)
    }
}
