//! The integration tests, as one test binary (one link of the library and HiGHS instead
//! of ten): each module is one concern, `common` holds the shared helpers.

mod common;

mod approx;
mod architecture;
mod barriers;
mod blocks;
mod bus;
mod cli;
mod dense;
mod fuzz;
mod hardening;
mod ilp;
mod import;
mod latency;
mod messages;
mod preemptive;
mod rta;
mod search;
mod structure;
mod sweep;
mod system;
mod system_bus_sim;
mod system_gpu;
mod system_sim;
mod truth;
mod turnover;
