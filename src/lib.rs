//! gpu-makespan: worst-case makespan of GPU warps on one streaming multiprocessor
//! (Berezovskyi, Bletsas, Andersson 2012), with proven bounds, an exact ILP, an exact
//! combinatorial search, an independent schedule checker, the paper's approximation,
//! and the Jetson TX2 kernel-level response-time analysis.
//!
//! Every number the library returns is labelled: exact, proven bound, or estimate.
//! Every method returns an [`outcome::Outcome`]: a re-checked witness and a proven
//! upper bound, with `exact` derived from the two.

pub mod approx;
pub mod bench;
pub mod bounds;
pub mod checker;
pub mod convergence;
pub mod dense;
pub mod error;
pub mod examiner;
pub mod files;
pub mod gpu;
pub mod heuristic;
pub mod ilp;
pub mod instance;
pub mod json;
pub mod kernel;
pub mod outcome;
pub mod plot;
pub mod report;
pub mod rta;
pub mod schedule;
pub mod search;
pub mod sm;
pub mod solve;
pub mod state;
pub mod state_bounds;
pub mod sweep;
pub mod taskset;
pub mod time;
pub mod wcet;
