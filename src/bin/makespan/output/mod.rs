//! What the commands print: text tables and SVG plots (the `--json` objects are the
//! library's own types, e.g. `gpu_makespan::exact::record`). Part of the binary: the
//! library knows nothing of it.

pub mod branches;
pub mod plot;
pub mod simulation;
pub mod text;
