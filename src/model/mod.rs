//! The warp-level model of Berezovskyi, Bletsas and Andersson (2012): kernels
//! (instruction strings), SM profiles and sigma, instances, schedules, the independent
//! schedule checker, and the closed-form bounds.

pub mod blocks;
pub mod bounds;
pub mod checker;
pub mod cycles;
pub mod instance;
pub mod interval;
pub mod kernel;
pub mod latency;
pub mod program;
pub mod schedule;
pub mod scheduler;
pub mod simulate;
pub mod sm;
pub mod source;
