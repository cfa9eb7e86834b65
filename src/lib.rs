//! gpu-makespan: worst-case makespan of GPU warps on one streaming multiprocessor
//! (Berezovskyi, Bletsas, Andersson 2012), with proven bounds, an exact ILP, an exact
//! combinatorial search, an independent schedule checker, the paper's approximation,
//! and the Jetson TX2 kernel-level response-time analysis.
//!
//! Every number the library returns is labelled: exact, proven bound, or estimate.
//! Every method returns an [`exact::outcome::Outcome`]: a re-checked witness and a proven
//! upper bound, with `exact` derived from the two.

pub mod budget;
pub mod error;
pub mod exact;
pub mod experiments;
pub mod files;
pub mod import;
pub mod model;
pub mod output;
pub mod rta;
pub mod state;
pub mod state_bounds;
pub mod sweep;
pub mod system;
pub mod watch;
