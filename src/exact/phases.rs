//! Kernels with block barriers, solved phase by phase ([`crate::model::program`] proves
//! that, for one thread block, the worst case is the sum of the phases' worst cases):
//! the phases in parallel (rayon), each with the whole time limit and an equal share of
//! the memory limit, and the witnesses concatenated and re-checked with the barriers.

use crate::error::{Error, Inconsistency};
use crate::exact::record::{solution, SolutionJson};
use crate::exact::solve::{solve, Solution, SolveOptions, Status};
use crate::model::checker::check_phases;
use crate::model::program::Program;
use crate::model::schedule::{Issue, Schedule};
use rayon::prelude::*;
use serde::Serialize;

/// The phases' solutions and their concatenated, checked witness.
#[derive(Debug, Clone)]
pub struct PhasedSolution {
    /// One solution per phase, in order.
    pub phases: Vec<Solution>,
    /// The phases' witnesses one after the other (checked with the barriers).
    pub schedule: Schedule,
    /// Wall-clock seconds of the whole solve (distinct phases in parallel).
    pub seconds: f64,
}

impl PhasedSolution {
    /// The proven lower bound: the sum of the phases' (the checked schedule's makespan).
    pub fn lower_bound(&self) -> u64 {
        self.phases.iter().map(|s| s.outcome.lower_bound()).sum()
    }

    /// The proven upper bound: the sum of the phases'.
    pub fn upper_bound(&self) -> u64 {
        self.phases.iter().map(|s| s.outcome.upper_bound()).sum()
    }

    /// Exact when every phase is.
    pub fn exact(&self) -> bool {
        self.phases.iter().all(Solution::exact)
    }

    /// `optimal` when exact, else the first phase's reason for stopping short.
    pub fn status(&self) -> Status {
        self.phases.iter().map(Solution::status).find(|s| *s != Status::Optimal).unwrap_or(Status::Optimal)
    }
}

/// Solves every distinct phase of `p` with `opts` (in parallel; the time limit applies
/// to each, from now; a phase that occurs several times is solved once) and checks the
/// concatenated witness against the barriers.
pub fn solve_phases(p: &Program, opts: &SolveOptions) -> Result<PhasedSolution, Error> {
    let (distinct, index) = p.distinct();
    let started = std::time::Instant::now();
    let at_once = rayon::current_num_threads().min(distinct.len());
    // One deadline for all phases: the time limit is the whole solve's wall clock, and a
    // phase that ends early leaves its time to the ones still running.
    let budget = opts.budget.sharing_memory(at_once).unwatched();
    let phase_opts = SolveOptions { budget, ..opts.clone() };
    let solved = distinct.par_iter().map(|inst| solve(inst, &phase_opts)).collect::<Result<Vec<_>, _>>()?;
    let phases: Vec<Solution> = index.iter().map(|&i| solved[i].clone()).collect();
    let mut cycles = vec![Vec::with_capacity(p.len()); p.warps() as usize];
    let mut offset = 0;
    for sol in &phases {
        let w = sol.outcome.witness();
        for (row, part) in cycles.iter_mut().zip(&w.schedule().cycles) {
            row.extend(part.iter().map(|&t| t + offset));
        }
        offset += w.makespan();
    }
    let schedule = Schedule { cycles };
    let checked = check_phases(&p.phases, &schedule).map_err(|v| Inconsistency::Rejected { method: "phases".into(), violation: v })?;
    let solved = PhasedSolution { phases, schedule, seconds: started.elapsed().as_secs_f64() };
    if checked != solved.lower_bound() {
        return Err(Inconsistency::Disagreement(format!(
            "the phases' schedule lasts {checked} cycles, their makespans add to {}",
            solved.lower_bound()
        ))
        .into());
    }
    Ok(solved)
}

/// `solve --json` for a kernel with barriers.
#[derive(Debug, Clone, Serialize)]
pub struct PhasedJson {
    /// The transformed kernel with its barriers (`|`).
    pub kernel: String,
    /// The kernel as given.
    pub source_kernel: String,
    /// `W` (one thread block).
    pub warps: u32,
    /// sigma_L after the transformation.
    pub sigma_l: u32,
    /// sigma_C after the transformation.
    pub sigma_c: u32,
    /// Barriers (phases - 1).
    pub barriers: usize,
    /// How the run ended (`optimal` only when every phase is exact).
    pub status: Status,
    /// The checked schedule's makespan: the sum of the phases' (a proven lower bound).
    pub makespan: u64,
    /// The sum of the phases' proven upper bounds.
    pub upper_bound: u64,
    /// `makespan == upper_bound`.
    pub exact: bool,
    /// Sum of the phases' proven safe horizons.
    pub safe_horizon: u64,
    /// Wall-clock seconds of the whole solve (distinct phases in parallel).
    pub seconds: f64,
    /// Per phase, the `solve --json` object (without schedules).
    pub phases: Vec<SolutionJson>,
    /// The concatenated checked schedule, when asked for; `instruction` counts across
    /// all phases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<Issue>>,
}

/// The `solve --json` object of a kernel with barriers.
pub fn phased_json(p: &Program, sol: &PhasedSolution, with_schedule: bool) -> PhasedJson {
    let phases: Vec<SolutionJson> = p.phases.iter().zip(&sol.phases).map(|(inst, s)| solution(inst, s, false)).collect();
    PhasedJson {
        kernel: p.kernel(),
        source_kernel: p.source_kernel.clone(),
        warps: p.warps(),
        sigma_l: p.phases[0].sigma_l,
        sigma_c: p.phases[0].sigma_c,
        barriers: p.phases.len() - 1,
        status: sol.status(),
        makespan: sol.lower_bound(),
        upper_bound: sol.upper_bound(),
        exact: sol.exact(),
        safe_horizon: phases.iter().map(|j| j.safe_horizon).sum(),
        seconds: sol.seconds,
        phases,
        schedule: with_schedule.then(|| {
            let units: Vec<crate::model::kernel::Unit> = p.phases.iter().flat_map(|ph| ph.kernel.units().iter().copied()).collect();
            sol.schedule.issues_of_units(&units)
        }),
    }
}
