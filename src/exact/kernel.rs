//! Any kernel in one call: one phase, phases between barriers, or several blocks with
//! barriers, each to the method that solves it ([`solve_kernel`]).

use crate::error::{Error, Inconsistency, InputError};
use crate::exact::blocks::{solve_blocks, BlockSolution};
use crate::exact::phases::{solve_phases, PhasedSolution};
use crate::exact::solve::{solve, Method, Solution, SolveOptions, Status};
use crate::model::blocks::Blocks;
use crate::model::instance::Instance;
use crate::model::interval::Interval;
use crate::model::latency::Latencies;
use crate::model::program::Program;
use crate::model::schedule::Schedule;
use crate::model::scheduler::Scheduler;
use crate::model::simulate::Simulation;

/// The result of [`solve_kernel`], by the shape of the kernel, each with what was solved:
/// every variant carries a proven interval `[lower, upper]` on the worst-case makespan and
/// a schedule that the independent checker accepted with makespan `lower`. Serialises as
/// the record `makespan solve --json` prints (without the schedule: [`KernelSolution::to_json`]
/// gives it with one).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum KernelSolution {
    /// A kernel without barriers ([`solve`]).
    Plain(Instance, Solution),
    /// One block with barriers: its phases ([`solve_phases`]).
    Phases(Program, PhasedSolution),
    /// Several blocks with barriers ([`solve_blocks`]).
    Blocks(Blocks, BlockSolution),
}

impl KernelSolution {
    /// The proven interval on the worst case: its lower end is the checked schedule's
    /// makespan, its upper end a proven bound.
    pub fn interval(&self) -> Interval {
        match self {
            KernelSolution::Plain(_, s) => s.interval(),
            KernelSolution::Phases(_, s) => s.interval(),
            KernelSolution::Blocks(_, s) => s.interval,
        }
    }

    /// The proven lower bound on the worst case (the checked schedule's makespan).
    pub fn lower(&self) -> u64 {
        self.interval().lower()
    }

    /// The proven upper bound on the worst case.
    pub fn upper(&self) -> u64 {
        self.interval().upper()
    }

    /// lower = upper: the worst case is known exactly.
    pub fn exact(&self) -> bool {
        self.lower() == self.upper()
    }

    /// `optimal` when exact, else why the method stopped short.
    pub fn status(&self) -> Status {
        match self {
            KernelSolution::Plain(_, s) => s.status(),
            KernelSolution::Phases(_, s) => s.status(),
            KernelSolution::Blocks(_, s) => s.status,
        }
    }

    /// The JSON record `makespan solve --json` prints for this solution, with the
    /// schedule when `with_schedule`.
    pub fn to_json(&self, with_schedule: bool) -> serde_json::Value {
        let value = match self {
            KernelSolution::Plain(inst, s) => serde_json::to_value(s.record(inst, with_schedule)),
            KernelSolution::Phases(p, s) => serde_json::to_value(s.record(p, with_schedule)),
            KernelSolution::Blocks(b, s) => serde_json::to_value(s.record(b, with_schedule)),
        };
        value.unwrap_or(serde_json::Value::Null)
    }
}

impl serde::Serialize for KernelSolution {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json(false).serialize(s)
    }
}

/// Solves any kernel: `B` blocks of a program whose phases are separated by barriers.
/// One block without barriers goes to [`solve`] (any [`Method`]), one block with
/// barriers to [`solve_phases`], several blocks to [`solve_blocks`] (the search only:
/// another method is refused as an input error on `method`). Every guarantee is that of
/// the method called; a plain instance or program converts into [`Blocks`] with `into()`.
///
/// ```
/// use gpu_makespan::{solve_kernel, Blocks, Program, SolveOptions};
///
/// // Two blocks of 2 warps, a barrier after the first instruction, sigma_L = sigma_C = 1.
/// let program = Program::build("L|LC", |phase| gpu_makespan::Instance::new(phase, 2, 1, 1))?;
/// let kernel = Blocks::new(program, 2);
/// let sol = solve_kernel(&kernel, &SolveOptions::default())?;
/// assert!(sol.exact());
/// assert_eq!(sol.lower(), 9); // 8 loads on one load/store unit, and a barrier between
/// assert_eq!(sol.to_json(false)["exact"], true);
/// assert_eq!(serde_json::to_value(&sol).unwrap()["makespan"], 9);
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn solve_kernel(kernel: &Blocks, opts: &SolveOptions) -> Result<KernelSolution, Error> {
    if kernel.blocks > 1 {
        if opts.method != Method::Search {
            let method = format!("{:?}", opts.method).to_lowercase();
            return Err(InputError::new("method", method, "several blocks with barriers are solved by Method::Search only").into());
        }
        return solve_blocks(kernel, opts).map(|s| KernelSolution::Blocks(kernel.clone(), s));
    }
    match kernel.program.phases.as_slice() {
        [one] => solve(one, opts).map(|s| KernelSolution::Plain(one.clone(), s)),
        _ => solve_phases(&kernel.program, opts).map(|s| KernelSolution::Phases(kernel.program.clone(), s)),
    }
}

impl From<Instance> for Program {
    /// A kernel without barriers as a program of one phase.
    fn from(inst: Instance) -> Program {
        Program { source_kernel: inst.source_kernel.clone(), phases: vec![inst] }
    }
}

impl From<Program> for Blocks {
    /// One block of `program`.
    fn from(program: Program) -> Blocks {
        Blocks::new(program, 1)
    }
}

impl From<Instance> for Blocks {
    /// One block of a kernel without barriers.
    fn from(inst: Instance) -> Blocks {
        Blocks::new(inst.into(), 1)
    }
}

impl KernelSolution {
    /// The checked schedule whose makespan is the lower end (rows: warp `w` of block
    /// `w / W`, every instruction of all phases).
    pub fn schedule(&self) -> &Schedule {
        match self {
            KernelSolution::Plain(_, s) => s.outcome.witness().schedule(),
            KernelSolution::Phases(_, s) => &s.schedule,
            KernelSolution::Blocks(_, s) => &s.schedule,
        }
    }
}

impl Blocks {
    /// [`Blocks::simulate`], and with the `any` scheduler the worst case over every
    /// work-conserving schedule (and every latency in the ranges) searched within `opts`'
    /// budget: at latency 1 by [`solve_kernel`] (the paper's model and all its bounds),
    /// otherwise by [`Blocks::solve_with`] (the block search with waiting stages, no
    /// random schedules after it stops: the runs are the lower end). The interval becomes
    /// the tighter of the two (exact when the search completes), and the search's checked
    /// schedule is shown when it is longer than every run (`run_scheduler` then `any`).
    pub fn simulate_within(&self, latency: &Latencies, scheduler: Scheduler, opts: &SolveOptions) -> Result<Simulation, Error> {
        let mut run = self.simulate(latency, scheduler)?;
        if scheduler != Scheduler::Any {
            return Ok(run);
        }
        let (interval, status, schedule, latencies) = if latency.is_one() {
            let sol = solve_kernel(self, opts)?;
            let ones = vec![vec![1; self.len()]; self.warps() as usize];
            (sol.interval(), sol.status(), sol.schedule().clone(), ones)
        } else {
            match self.search_with(latency, opts, false) {
                Ok(sol) => (sol.interval, sol.status, sol.schedule, sol.latencies),
                // Too many waiting stages for the search: the runs and the horizon answer.
                Err(Error::TooLarge(t)) => {
                    run.upper_from = format!("the latency horizon (no exact search: {})", t.reason);
                    return Ok(run);
                }
                Err(e) => return Err(e),
            }
        };
        let (lower, upper) = (run.interval.lower().max(interval.lower()), run.interval.upper().min(interval.upper()));
        // Which bound gave the upper end: the run's (the latency horizon) or the search's.
        let from = if upper == run.interval.upper() { "the latency horizon" } else { "the solver's bound" };
        run.upper_from = match status {
            Status::Optimal => "the exact search".into(),
            stop => format!("{from} (the exact search stopped: {})", stop.as_str()),
        };
        run.interval = Interval::new(lower, upper)
            .ok_or_else(|| Inconsistency::Disagreement(format!("a schedule of {lower} cycles exceeds the proven bound {upper}")))?;
        if interval.lower() > run.makespan {
            (run.makespan, run.schedule, run.latencies, run.run_scheduler) = (interval.lower(), schedule, latencies, Scheduler::Any);
            // Each issue has its own latency within the ranges (`latencies`).
            run.run_latency = *latency;
        }
        Ok(run)
    }
}
