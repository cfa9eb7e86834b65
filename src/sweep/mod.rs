//! Sweeps: a grid of solves (`solve`, `approx` or `bound` jobs over kernels, warp
//! counts, sigmas, methods and x) run in parallel, split into shards for a cluster,
//! appended one JSON line per finished job, resumable, and merged and reported.
//!
//! Guarantees:
//! - every job has a stable [`job::Job::id`] derived from its parameters only, the same
//!   in every shard and every run;
//! - [`job::Shard`] `I/N` takes a fixed subset of the jobs; the N subsets are disjoint
//!   and together are the whole grid;
//! - [`run::run`] appends each job's record as soon as the job ends, so an interrupted
//!   run loses at most the jobs in flight, and with `resume` skips every id already in
//!   the file;
//! - [`results::merge`] refuses two records of one id whose results differ (apart from
//!   timings and work statistics, see [`results::VOLATILE`]).
//!
//! The numbers in a record are those of the command's `--json` and keep their meaning:
//! `exact` only when lower = upper, `estimate` never a bound.

pub mod job;
pub mod report;
pub mod results;
pub mod run;
pub mod spec;

pub use job::SweepCommand;
pub use job::{Job, JobParams, Shard};
pub use spec::Spec;
