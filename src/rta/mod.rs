//! The kernel-level response-time analysis of the Jetson TX2 GPU scheduler, by role:
//! what it takes in (`workload`, read from task-set files by [`taskset`] and from
//! examiner configs by `examiner`), the analysis (`analysis` over `jobs`,
//! `list`, `ties`, `priority`, `copies`, `queues` and `sms` with
//! `copy_engine`; between processes `slicing`, simulated by `time_slices`), what
//! it reports
//! (`report`), GPU profiles (`gpu`), exact time (`time`, its unit types from `unit`) and
//! per-block execution times from the warp model (`wcet`).
//!
//! Files depend on each other without a circle: `unit` <- `time`, `gpu` <- `workload` <- `jobs`
//! <- `list` <- `ties` <- `priority`, `copies` <- `queues`, `copy_engine` <- `sms` <- `report` <- `analysis`;
//! `slicing` and `time_slices` <- `analysis`;
//! `taskset` and `examiner` build a `workload`.

internal! {
    mod analysis;
    mod block_resources;
    mod copies;
    mod copy_engine;
    mod examiner;
    mod gpu;
    mod jobs;
    mod list;
    mod priority;
    mod queues;
    mod report;
    mod room;
    mod simulator;
    mod slicing;
    mod sms;
    mod ties;
    mod time;
    mod time_slices;
    mod unit;
    mod wcet;
    mod workload;
}
pub mod taskset;

pub use analysis::{analyse, Timeline};
pub use gpu::{Arbitration, GlobalCaching, Platform, WarpPlacement};
pub use jobs::TieOrder;
pub use report::{Bound, JobMark, KernelRow, KernelTies, RtaReport, Verdict};
pub use ties::Ties;
pub use time::{Decimal, Scale, Ticks};
pub use wcet::Contention;
pub use workload::{Launch, Priority, Task, Timing, Window, Workload};
