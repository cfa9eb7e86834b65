//! The kernel-level response-time analysis of the Jetson TX2 GPU scheduler: the
//! analysis itself, GPU profiles, exact time, task-set and examiner files, and per-block
//! execution times from the warp model.

pub mod analysis;
pub mod examiner;
pub mod gpu;
pub mod jobs;
pub mod list;
pub mod sms;
pub mod taskset;
pub mod ties;
pub mod time;
pub mod wcet;
