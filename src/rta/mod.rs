//! The kernel-level response-time analysis of the Jetson TX2 GPU scheduler.
//!
//! In: a [`Workload`] of [`Task`]s (kernels: blocks, threads, `C` per block, period or
//! release) on a [`Platform`] (GPU profile) with a time [`Scale`], built in code
//! ([`Task::given`] with [`Timing`]) or read from task-set files ([`taskset`]). Out:
//! [`analyse`] gives an [`RtaReport`]: per kernel a [`KernelRow`] (response, finish,
//! deadline, verdict), the guarantee the responses carry ([`Bound`]) and whether every
//! `C` they rest on is proven ([`Verdict`]). The model, its sources and its proofs are in
//! `docs/rta-model.md`; the internal layout (jobs, list schedules, ties, priorities,
//! copies, slicing) in `docs/architecture.md`.
//!
//! Internally, files depend on each other without a circle: `gpu` <- `workload` <- `jobs`
//! <- `list` <- `ties` <- `priority`, `copies`, `queue_work` <- `queues`, `copy_engine` <- `sms` <- `report` <- `analysis`;
//! `slicing` and `time_slices` <- `analysis`;
//! `taskset` (with `points`) and `examiner` build a `workload`; `preemptive` (the
//! preemption-point framework, `makespan preempt`) reads a `workload` on its own.

internal! {
    mod adversary;
    mod analysis;
    mod apart;
    mod block_resources;
    mod copies;
    mod copy_engine;
    mod examiner;
    mod gpu;
    mod jobs;
    mod list;
    mod load;
    mod low_alone;
    mod points;
    mod preemptive;
    mod priority;
    mod queue_work;
    mod queues;
    mod report;
    mod resident_split;
    mod room;
    mod settle;
    mod simulator;
    mod slicing;
    mod sms;
    mod ties;
    mod time;
    mod time_slices;
    mod wcet;
    mod workload;
}
pub mod taskset;

pub use analysis::{analyse, Timeline};
pub use gpu::{Arbitration, GlobalCaching, Platform, WarpPlacement};
pub use jobs::TieOrder;
pub use preemptive::{preemptive, Preemptive, PreemptiveRow};
pub use report::{Bound, JobMark, KernelRow, KernelTies, RtaReport, Verdict};
pub use ties::Ties;
pub use time::{Decimal, Scale, Ticks};
pub use wcet::Contention;
pub use workload::{Launch, Priority, Ranking, Task, Timing, Window, Workload};
