//! What the commands print: text tables and SVG plots (the `--json` objects are the library's own types, e.g. [`crate::exact::record`]). Output depends
//! on the library; nothing in the library depends on output.

pub mod plot;
pub mod text;
