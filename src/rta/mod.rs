//! The kernel-level response-time analysis of the Jetson TX2 GPU scheduler, by role:
//! what it takes in ([`workload`], read from task-set files by [`taskset`] and from
//! examiner configs by [`examiner`]), the analysis ([`analysis`] over [`jobs`],
//! [`list`], [`ties`], [`priority`], [`copies`], [`queues`] and [`sms`] with
//! [`copy_engine`]; between processes [`slicing`], simulated by [`time_slices`]), what
//! it reports
//! ([`report`]), GPU profiles ([`gpu`]), exact time ([`time`]) and per-block execution
//! times from the warp model ([`wcet`]).
//!
//! Files depend on each other without a circle: `time`, `gpu` <- `workload` <- `jobs`
//! <- `list` <- `ties` <- `priority`, `copies` <- `queues`, `copy_engine` <- `sms` <- `report` <- `analysis`;
//! `slicing` and `time_slices` <- `analysis`;
//! `taskset` and `examiner` build a `workload`.

pub mod analysis;
pub mod block_resources;
pub mod copies;
pub mod copy_engine;
pub mod examiner;
pub mod gpu;
pub mod jobs;
pub mod list;
pub mod priority;
pub mod queues;
pub mod report;
pub mod room;
pub mod simulator;
pub mod slicing;
pub mod sms;
pub mod taskset;
pub mod ties;
pub mod time;
pub mod time_slices;
pub mod wcet;
pub mod workload;

pub use analysis::{analyse, Timeline};
pub use report::{Bound, RtaReport, Verdict};
pub use workload::{Task, Timing, Workload};
