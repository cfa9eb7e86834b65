//! Kernels with block barriers, solved phase by phase ([`crate::model::program`] proves
//! that, for one thread block, the worst case is the sum of the phases' worst cases):
//! the distinct phases in parallel (rayon), sharing the time limit by need and the
//! memory limit equally, and the witnesses concatenated and re-checked with the barriers.

use crate::error::{Error, Inconsistency};
use crate::exact::record::{solution, SolutionJson};
use crate::exact::solve::{solve, Solution, SolveOptions, Status};
use crate::model::checker::check_phases;
use crate::model::interval::Interval;
use crate::model::program::Program;
use crate::model::schedule::{Issue, Schedule};
use rayon::prelude::*;
use serde::Serialize;

/// The phases' solutions and their concatenated, checked witness.
#[derive(Debug, Clone)]
#[non_exhaustive]
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

    /// The proven interval: the sum of the phases' (exact when every phase is).
    pub fn interval(&self) -> Interval {
        self.phases.iter().map(Solution::interval).fold(Interval::point(0), Interval::plus)
    }

    /// `optimal` when exact, else the first phase's reason for stopping short.
    pub fn status(&self) -> Status {
        self.phases.iter().map(Solution::status).find(|s| *s != Status::Optimal).unwrap_or(Status::Optimal)
    }
}

/// Solves every distinct phase of `p` with `opts` (a phase that occurs several times is
/// solved once) and checks the concatenated witness against the barriers.
///
/// The time limit is the whole solve's wall clock, shared by need: the distinct phases
/// run in parallel, smallest first, each starting with a fair share of the time left (the
/// time left times the phases solved at once over the phases not yet started), so a phase
/// proven exact early hands its time on to the later ones; time left at the end goes to
/// a second round for the phases still open, whose results are merged with the first (the
/// longer witness, the smaller upper bound). Each phase's upper bound is at most its
/// start-state bound (`crate::exact::search::at_most_start_bound`), so the sum is never
/// looser than `bound`'s.
///
/// ```
/// use gpu_makespan::{solve_phases, Instance, Program, SolveOptions};
///
/// // Two warps of `LL|C`: a barrier between the loads and the computation.
/// let p = Program::build("LL|C", |phase| Instance::new(phase, 2, 1, 1))?;
/// let sol = solve_phases(&p, &SolveOptions::default())?;
/// assert!(sol.exact());
/// assert_eq!(sol.upper_bound(), 6); // 4 loads on one unit, then the 2 computations on one core
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn solve_phases(p: &Program, opts: &SolveOptions) -> Result<PhasedSolution, Error> {
    let (distinct, index) = p.distinct();
    let started = std::time::Instant::now();
    let at_once = rayon::current_num_threads().min(distinct.len());
    let budget = opts.budget.sharing_memory(at_once).unwatched();
    let first = shared_round(&distinct, opts, &budget, at_once, None)?;
    let solved = if budget.time_left().is_some_and(|left| left >= SECOND_ROUND_MIN) && !budget.is_over() {
        shared_round(&distinct, opts, &budget, at_once, Some(first))?
    } else {
        first
    };
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

/// The indices of `distinct` (a program's distinct phases), smallest state space first
/// (`C(I + W, W)` warp-position multisets; ties in the given order): the order in which
/// phases that share one deadline are solved, so that the largest gets what the others
/// leave.
pub fn smallest_first(distinct: &[&crate::model::instance::Instance]) -> Vec<usize> {
    let size = |i: usize| crate::state::states(distinct[i].len() as u64, distinct[i].warps as u64).unwrap_or(u64::MAX);
    let mut order: Vec<usize> = (0..distinct.len()).collect();
    order.sort_by_key(|&i| size(i));
    order
}

/// The least time left for which [`solve_phases`] runs a second round on the phases still
/// open.
pub const SECOND_ROUND_MIN: std::time::Duration = std::time::Duration::from_millis(200);

/// One round over the distinct phases, smallest state space (`C(I + W, W)`) first, on
/// `at_once` workers; each phase starts with its fair share of the time left: the time
/// left times `at_once` over the phases not yet started, so the last phases to start
/// (the largest) get what the earlier ones did not use. With `earlier` (the first
/// round's solutions), only the phases it left open are solved again, and each result is
/// merged with the earlier one.
fn shared_round(
    distinct: &[&crate::model::instance::Instance],
    opts: &SolveOptions,
    budget: &crate::budget::Budget,
    at_once: usize,
    earlier: Option<Vec<Solution>>,
) -> Result<Vec<Solution>, Error> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let open = |i: usize| earlier.as_ref().is_none_or(|e| !e[i].exact());
    let order: Vec<usize> = smallest_first(distinct).into_iter().filter(|&i| open(i)).collect();
    let next = AtomicUsize::new(0);
    let solved: std::sync::Mutex<Vec<Option<Solution>>> = std::sync::Mutex::new(vec![None; distinct.len()]);
    let worker = |_| -> Result<(), Error> {
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&i) = order.get(k) else { return Ok(()) };
            let not_started = order.len() - k;
            let share = |left: std::time::Duration| left.mul_f64((at_once as f64 / not_started as f64).min(1.0));
            let phase_budget = budget.time_left().map_or_else(|| budget.clone(), |left| budget.at_most(share(left)));
            let sol = solve(distinct[i], &SolveOptions { budget: phase_budget, ..opts.clone() })?;
            let sol = match &earlier {
                Some(e) => e[i].clone().merged(sol)?,
                None => sol,
            };
            solved.lock().expect("no worker panicked")[i] = Some(sol);
        }
    };
    (0..at_once.max(1)).into_par_iter().map(worker).collect::<Result<(), Error>>()?;
    let solved = solved.into_inner().expect("no worker panicked");
    Ok(solved
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.or_else(|| earlier.as_ref().map(|e| e[i].clone())).expect("every phase solved"))
        .collect())
}

/// `solve --json` for a kernel with barriers.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[non_exhaustive]
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
    /// `[makespan, upper_bound]` as one object (`lower`, `upper`, `exact`).
    pub interval: Interval,
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

impl PhasedSolution {
    /// The `makespan solve --json` record of this solution of `p`; with
    /// `with_schedule`, the schedule with its barriers.
    pub fn record(&self, p: &Program, with_schedule: bool) -> PhasedJson {
        phased_json(p, self, with_schedule)
    }
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
        interval: sol.interval(),
        safe_horizon: phases.iter().map(|j| j.safe_horizon).sum(),
        seconds: sol.seconds,
        phases,
        schedule: with_schedule.then(|| {
            let units: Vec<crate::model::kernel::Unit> = p.phases.iter().flat_map(|ph| ph.kernel.units().iter().copied()).collect();
            sol.schedule.issues_of_units(&units)
        }),
    }
}
