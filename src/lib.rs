//! # gpu-makespan
//!
//! Worst-case makespan of GPU warps on one streaming multiprocessor (Berezovskyi,
//! Bletsas and Andersson 2012): proven bounds, an exact combinatorial search, the
//! paper's ILP (feature `ilp`), an independent schedule checker and the paper's
//! approximation; real CUDA kernels read from PTX and SASS; the Jetson TX2 kernel-level
//! response-time analysis; and a CPU-GPU system analysis of AMALTHEA models with
//! end-to-end chains. The `makespan` command-line tool (feature `cli`) is a thin layer
//! over this crate.
//!
//! **Every number is labelled.** A solve returns an [`Outcome`]: a schedule re-checked
//! by the independent checker (its makespan is a proven *lower* bound on `T^(W)`) and a
//! proven *upper* bound; `exact()` is derived from the two (lower = upper), never
//! claimed. Response times come with the guarantee they carry ([`rta::Bound`]) and a
//! [`rta::Verdict`] that says whether every per-block time they rest on is proven.
//!
//! ## Start here
//!
//! | task | entry point |
//! | --- | --- |
//! | an instance | [`Instance::new`] (instruction string, `W`, sigmas), [`Instance::from_path`], [`Program::build`] (barriers `\|`), [`InstanceSource`] (as a user gives it) |
//! | any kernel's worst case, in one call | [`solve_kernel`] of [`Blocks`] (one block or several, with or without barriers) -> [`KernelSolution`] |
//! | the exact worst case `T^(W)` | [`solve`] with [`SolveOptions`] (method, [`Budget`]) -> [`Solution`]; [`solve_phases`], [`solve_blocks`] |
//! | closed forms and per-state bounds | [`bounds`]: [`safe_horizon`], [`lower_bound`], [`BoundsReport::of`] |
//! | CUDA code in | [`import()`] (PTX, SASS, traces) -> instance file text ([`import::to_toml`]) |
//! | kernel response times on the TX2 | [`rta::analyse`] of an [`rta::Workload`] (task-set files: [`rta::taskset`]) |
//! | a CPU-GPU system | [`system::read`], then [`system::analyse`] |
//! | the paper's experiments | [`experiments`]: the approximation, convergence, constraint forms |
//!
//! Options are `#[non_exhaustive]`: start from `Default` (or `new`) and set what you need
//! with their `with_*` methods. Reports are `#[non_exhaustive]` and serialise with serde.
//! The whole public surface is listed in `docs/public-api.txt` (checked in CI).
//!
//! Errors are one [`Error`] type: [`Error::is_input`] tells bad input (the message
//! names the field and value) from a solver failure or an internal inconsistency, which
//! is never hidden.
//!
//! ## Examples
//!
//! The exact worst case of the paper's Fig. 2 kernel, and the bounds around it:
//!
//! ```
//! use gpu_makespan::{lower_bound, safe_horizon, solve, BoundsReport, Instance, SolveOptions};
//!
//! // Four warps of `LLC` on an SM with sigma_L = sigma_C = 1.
//! let inst = Instance::new("LLC", 4, 1, 1)?;
//! let sol = solve(&inst, &SolveOptions::default())?;
//! assert!(sol.exact());
//! assert_eq!(sol.outcome.lower_bound(), 9); // T^(4), with a checked schedule
//! assert!(lower_bound(&inst) <= 9 && 9 <= safe_horizon(&inst));
//! let bounds = BoundsReport::of(&inst);
//! assert!(bounds.start_state_bound >= 9); // a proven upper bound
//! # Ok::<(), gpu_makespan::Error>(())
//! ```
//!
//! A PTX kernel into an instance (one block of 8 warps on the TX2's SM), then solved:
//!
//! ```
//! use gpu_makespan::import::{import, to_toml, Format, Request};
//!
//! let ptx = "
//! .version 6.0
//! .target sm_60
//! .address_size 64
//! .visible .entry copy(.param .u64 p)
//! {
//!     ld.param.u64 %rd1, [p];
//!     ld.global.f32 %f1, [%rd1];
//!     add.f32 %f2, %f1, %f1;
//!     st.global.f32 [%rd1], %f2;
//!     ret;
//! }";
//! let imported = import(ptx, "copy.ptx", Format::Ptx, &Request::new(8, gpu_makespan::SmCounts::TX2))?;
//! assert_eq!(imported.warps, 8);
//! let inst = gpu_makespan::Instance::from_toml(&to_toml(&imported), "copy.toml")?;
//! let sol = gpu_makespan::solve(&inst, &Default::default())?;
//! assert!(sol.exact());
//! # Ok::<(), gpu_makespan::Error>(())
//! ```
//!
//! The TX2 kernel-level RTA of a task set (the thesis chapter's worked example, one
//! block demand: the responses are exact for block times C and safe below them):
//!
//! ```
//! use gpu_makespan::rta::{self, taskset, Bound, Verdict};
//!
//! let text = std::fs::read_to_string("instances/rta-chapter-example.toml").unwrap();
//! let w = taskset::from_text(&text, "example", None, &Default::default(), None)?;
//! let report = rta::analyse(&w, rta::Timeline::Omitted)?;
//! let finish: Vec<f64> = report.kernels.iter().map(|k| report.in_unit(k.finish)).collect();
//! assert_eq!(finish, [4.0, 10.0, 12.0, 11.0]);
//! assert_eq!((report.bound, report.verdict), (Bound::ExactMonotone, Verdict::Proven));
//! assert_eq!(report.schedulable, Some(true));
//! # Ok::<(), gpu_makespan::Error>(())
//! ```
//!
//! A CPU-GPU system (TOML form of an AMALTHEA model): response times per core, GPU
//! tasks through the kernel RTA, chain latencies:
//!
//! ```
//! use gpu_makespan::system::{self, analyse, OffloadMode, Options, Paradigm};
//!
//! let text = std::fs::read_to_string("instances/system/small.toml").unwrap();
//! let sys = system::read(&text, "small.toml")?;
//! let opts = Options::default().with_communication(Paradigm::Implicit).with_offload(OffloadMode::Model);
//! let report = analyse(&sys, None, opts)?;
//! for core in &report.cores {
//!     for task in &core.tasks {
//!         // R+ is a proven upper bound on the task's response time (exact picoseconds).
//!         assert!(task.worst.is_none_or(|r| r >= task.entity.c.worst));
//!     }
//! }
//! # Ok::<(), gpu_makespan::Error>(())
//! ```
//!
//! ## Features
//!
//! * `ilp` (default): the paper's ILP through good_lp + HiGHS, which builds from source
//!   (cmake, a C++ compiler, libclang). Without it, `Method::Ilp` is
//!   refused as an input error and everything else works.
//! * `cli` (default): the `makespan` binary. The library never needs it:
//!   `cargo build --no-default-features --lib` builds the library alone.
//! * `internals`: not for users. It makes the implementation modules public (hidden
//!   from these docs, with no stability promise) for this crate's own tests and
//!   benchmarks, which turn it on themselves.

#![warn(missing_docs)]
// docs.rs (and `RUSTDOCFLAGS="--cfg docsrs" cargo +nightly doc`) marks feature-gated items.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Independent brute forces, simulators and cost probes that only this crate's tests and
// benchmarks call (through the `internals` feature) are unused in the library alone.
#![cfg_attr(not(feature = "internals"), allow(dead_code))]

/// Declares implementation modules: private to the crate (their items are not part of
/// the API), and public but hidden from the docs with the `internals` feature, which only
/// this crate's own tests and benchmarks turn on (it carries no stability promise).
macro_rules! internal {
    ($($(#[$attr:meta])* mod $name:ident;)*) => { $(
        $(#[$attr])* #[cfg(feature = "internals")] #[doc(hidden)] pub mod $name;
        $(#[$attr])* #[cfg(not(feature = "internals"))] pub(crate) mod $name;
    )* };
}

/// Consuming setters `with_<field>` for the options structs, which are
/// `#[non_exhaustive]`: a caller starts from `Default` (or `new`) and sets what it needs,
/// so a new option is not a breaking change.
macro_rules! with_setters {
    ($ty:ty { $($setter:ident => $field:ident: $fty:ty),* $(,)? }) => {
        impl $ty { $(
            #[doc = concat!("These options with `", stringify!($field), "` set to the value given (see the field).")]
            #[must_use]
            pub fn $setter(mut self, $field: $fty) -> Self {
                self.$field = $field;
                self
            }
        )* }
    };
}

internal! {
    mod budget;
    mod exact;
    mod model;
    mod state;
    mod state_bounds;
    mod watch;
}
mod time_unit;
/// Proven bounds on `T^(W)` without a search: the closed forms, the per-state bound of
/// the start state and their reports, and the paper's eq. 5 (not a bound: see
/// [`pessimistic_unproven`](bounds::pessimistic_unproven)).
pub mod bounds {
    pub use crate::model::blocks::BlocksBounds;
    pub use crate::model::bounds::{lower_bound, pessimistic, pessimistic_unproven, safe_horizon};
    pub use crate::state_bounds::report::{start_state_bound, BoundsReport, PhasedBounds};
}
pub mod error;
pub mod experiments;
pub mod files;
pub mod import;
pub mod rta;
pub mod system;

pub use bounds::{lower_bound, safe_horizon, BoundsReport};
pub use budget::{Budget, StopFlag};
pub use error::{Error, InputError};
pub use exact::blocks::{solve_blocks, BlockSolution, BlocksJson};
pub use exact::ilp::ConstraintForm;
pub use exact::kernel::{solve_kernel, KernelSolution};
pub use exact::outcome::Outcome;
pub use exact::phases::{solve_phases, PhasedJson, PhasedSolution};
pub use exact::record::SolutionJson;
pub use exact::solve::{solve, Horizon, Method, Solution, SolveOptions, Status};
pub use import::import;
pub use model::blocks::Blocks;
// Cycles as a type where they meet ticks or picoseconds (issue 51, item 2).
pub use model::cycles::Cycles;
pub use model::instance::Instance;
pub use model::kernel::{Kernel, Unit};
pub use model::latency::{Latencies, LatencyRange};
pub use model::scheduler::Scheduler;
pub use model::simulate::Simulation;
// One proven interval for every result (issue 51, item 3).
pub use model::interval::Interval;
pub use model::program::Program;
pub use model::schedule::Schedule;
pub use model::sm::SmCounts;
pub use model::source::InstanceSource;
pub use watch::Watch;
