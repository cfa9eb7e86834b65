//! One entry point for every makespan method.
//!
//! Each method returns the common [`Outcome`] (a re-checked witness and a proven upper
//! bound); this module picks the method, cross-checks `both`, and adds the
//! plain-language notes a user must see. Nothing here can turn a checker rejection or a
//! disagreement into a result: those are [`Error::Inconsistent`].

use crate::budget::{Budget, Part};
use crate::error::{Error, InputError, TooLarge};
use crate::exact::heuristic::longest_rollout_until;
use crate::exact::ilp::ConstraintForm;
use crate::exact::outcome::{Outcome, Stats, Stop, Witness};
use crate::exact::search::{self, SearchLimits, DEFAULT_MAX_STATES};
#[cfg(feature = "ilp")]
use crate::exact::{
    heuristic::longest_rollout_of,
    ilp::{self, IlpOptions},
};
use crate::model::bounds;
use crate::model::instance::Instance;
use crate::model::interval::Interval;
use crate::state::transitions::Transitions;
use crate::state_bounds::{self, StateBound};
use serde::Serialize;
use std::time::{Duration, Instant};

/// How `T^(W)` is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The binary ILP of the paper, solved by HiGHS (feature `ilp`).
    #[cfg(feature = "ilp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ilp")))]
    Ilp,
    /// The exact combinatorial search (default).
    Search,
    /// Adversarial rollouts only: a proven lower bound, exact only if it meets the
    /// safe horizon.
    Heuristic,
    /// ILP and search; fails loudly if they disagree (feature `ilp`).
    #[cfg(feature = "ilp")]
    #[cfg_attr(docsrs, doc(cfg(feature = "ilp")))]
    Both,
}

impl Method {
    /// The names accepted by [`std::str::FromStr`], as on the command line (`ilp` and
    /// `both` are listed in every build; without the `ilp` feature they parse to an
    /// error that says so).
    pub const NAMES: [&'static str; 4] = ["ilp", "search", "heuristic", "both"];

    /// Whether the method runs the ILP (and so uses its horizon and constraint form).
    pub fn uses_ilp(self) -> bool {
        match self {
            #[cfg(feature = "ilp")]
            Method::Ilp | Method::Both => true,
            Method::Search | Method::Heuristic => false,
        }
    }

    /// The ILP method, or, in a build without the `ilp` feature, an input error on
    /// `method` saying that this build has no ILP solver.
    pub fn ilp() -> Result<Method, InputError> {
        Method::needing_ilp("ilp")
    }

    #[cfg(feature = "ilp")]
    fn needing_ilp(name: &str) -> Result<Method, InputError> {
        Ok(if name == "both" { Method::Both } else { Method::Ilp })
    }

    #[cfg(not(feature = "ilp"))]
    fn needing_ilp(name: &str) -> Result<Method, InputError> {
        Err(InputError::option(
            "method",
            name,
            "this build of gpu-makespan has no ILP solver (built without the `ilp` feature, which needs HiGHS); use the search method",
        ))
    }
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ilp" | "both" => Method::needing_ilp(s).map_err(|e| e.reason),
            "search" => Ok(Method::Search),
            "heuristic" => Ok(Method::Heuristic),
            other => Err(format!("`{other}` is not one of {}", Method::NAMES.join(", "))),
        }
    }
}

/// How a run ended, as printed (`status` in `solve --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Optimality proven (for the ILP: within its horizon).
    Optimal,
    /// The time limit stopped the method; the makespan is the longest schedule found and
    /// the upper bound a proven bound.
    TimeLimit,
    /// The limit on stored states stopped the search; as for `TimeLimit`.
    MaxStates,
    /// The memory limit stopped the search; as for `TimeLimit`.
    MaxMemory,
    /// Heuristic result whose bounds do not meet: the makespan is a proven lower bound.
    LowerBound,
    /// An interrupt (Ctrl-C) stopped the method; as for `TimeLimit`.
    Interrupted,
}

impl Status {
    /// The word printed for it, as in `solve --json` (`optimal`, `time_limit`,
    /// `max_states`, `max_memory`, `lower_bound`, `interrupted`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::TimeLimit => "time_limit",
            Status::MaxStates => "max_states",
            Status::MaxMemory => "max_memory",
            Status::LowerBound => "lower_bound",
            Status::Interrupted => "interrupted",
        }
    }
}

/// The word of [`Status::as_str`].
impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The ILP horizon `T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizon {
    /// The proven safe horizon (default).
    Safe,
    /// The paper's eq. 5 (reproduces the paper; can truncate when a sigma > 1).
    Paper,
    /// A given number of cycles.
    Cycles(u64),
}

impl Horizon {
    /// The number of cycles for `inst`.
    pub fn cycles(self, inst: &Instance) -> u64 {
        match self {
            Horizon::Safe => bounds::safe_horizon(inst),
            Horizon::Paper => bounds::pessimistic(inst),
            Horizon::Cycles(n) => n,
        }
    }
}

impl std::str::FromStr for Horizon {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "safe" => Ok(Horizon::Safe),
            "paper" => Ok(Horizon::Paper),
            n => n
                .parse::<u64>()
                .ok()
                .filter(|&v| v > 0)
                .map(Horizon::Cycles)
                .ok_or_else(|| format!("`{n}` is not safe, paper or a positive number of cycles")),
        }
    }
}

/// Settings of one solve.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SolveOptions {
    /// Method.
    pub method: Method,
    /// ILP work-conserving constraint form.
    pub form: ConstraintForm,
    /// ILP horizon.
    pub horizon: Horizon,
    /// Time limit (its deadline set when the budget was made or restarted), memory
    /// limit of the search's tables, and the stop flag.
    pub budget: Budget,
    /// Limit of the search, in stored states.
    pub max_states: usize,
    /// ILP symmetry-breaking rows.
    pub symmetry_breaking: bool,
    /// The search tries the dense programme where it fits (`SearchLimits::dense`).
    pub dense: bool,
}

impl SolveOptions {
    /// The default limit of the branch and bound in stored states: 40 million.
    pub const DEFAULT_MAX_STATES: usize = DEFAULT_MAX_STATES;
}

with_setters!(SolveOptions {
    with_method => method: Method,
    with_form => form: ConstraintForm,
    with_horizon => horizon: Horizon,
    with_budget => budget: Budget,
    with_max_states => max_states: usize,
    with_symmetry_breaking => symmetry_breaking: bool,
    with_dense => dense: bool,
});

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::Search,
            form: ConstraintForm::Short,
            horizon: Horizon::Safe,
            budget: Budget::default(),
            max_states: DEFAULT_MAX_STATES,
            symmetry_breaking: true,
            dense: true,
        }
    }
}

impl SolveOptions {
    /// These options for one of `at_once` solves that run at the same time and share
    /// the memory limit: each gets `max_memory / at_once` (`at_once` 0 counts as 1), so
    /// their search tables together stay within it. The other limits are per solve.
    pub fn sharing_memory(&self, at_once: usize) -> SolveOptions {
        SolveOptions { budget: self.budget.sharing_memory(at_once), ..self.clone() }
    }

    /// These options for one more solve that gets the whole time limit, starting now (the
    /// stop flag stays shared).
    pub fn restarted(&self) -> SolveOptions {
        SolveOptions { budget: self.budget.restarted(), ..self.clone() }
    }
}

/// A solve: the method's [`Outcome`] and what the method ran with. Serialises with
/// serde (the outcome as [`Outcome`] does; read back, its witness is re-checked only
/// by [`Outcome::recheck`]).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Solution {
    /// Method used.
    pub method: Method,
    /// ILP constraint form, when the ILP ran.
    pub constraints: Option<ConstraintForm>,
    /// Cycles modelled by the ILP; for other methods, the safe horizon they are capped by.
    pub horizon: u64,
    /// Witness, proven bounds, stop reason, statistics.
    pub outcome: Outcome,
    /// Plain-language caveats the user must see.
    pub notes: Vec<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Solution {
    /// `T^(W)` is known (lower = upper).
    pub fn exact(&self) -> bool {
        self.outcome.exact()
    }

    /// The proven interval on `T^(W)`.
    pub fn interval(&self) -> Interval {
        self.outcome.interval()
    }

    /// This solution and a `later` one of the same instance as one: the longer witness,
    /// the smaller upper bound, `later`'s method and stop reason, the notes of both (each
    /// once), the seconds added. Fails if one's witness exceeds the other's upper bound.
    pub fn merged(self, later: Solution) -> Result<Solution, Error> {
        let outcome = later.outcome.merge(self.outcome)?;
        let mut notes = self.notes;
        notes.extend(later.notes.into_iter().filter(|n| !notes.contains(n)).collect::<Vec<_>>());
        Ok(Solution { outcome, notes, seconds: self.seconds + later.seconds, ..later })
    }

    /// The printed status, derived from the outcome.
    pub fn status(&self) -> Status {
        match self.outcome.stop() {
            _ if self.exact() => Status::Optimal,
            Stop::TimeLimit => Status::TimeLimit,
            Stop::MaxStates => Status::MaxStates,
            Stop::MaxMemory => Status::MaxMemory,
            Stop::Interrupted => Status::Interrupted,
            Stop::Completed if self.method == Method::Heuristic => Status::LowerBound,
            Stop::Completed => Status::Optimal,
        }
    }

    /// The ILP proved an optimum equal to a horizon below the safe horizon: the horizon
    /// may have cut the worst case.
    pub fn horizon_may_cut(&self, inst: &Instance) -> bool {
        let optimal = self.outcome.stats.ilp.is_some_and(|s| s.optimal);
        optimal && self.outcome.lower_bound() == self.horizon && self.horizon < bounds::safe_horizon(inst)
    }
}

/// Reports the closed-form interval of `inst` (its lower bound and safe horizon, both
/// proven) to `budget`'s watch: what a progress line shows before any search has run.
pub fn show_closed_forms(inst: &Instance, budget: &Budget) {
    budget.proved(bounds::safe_horizon(inst));
    budget.found(bounds::lower_bound(inst));
}

/// [`solve`] on a thread of its own, never a rayon worker: the search then runs its
/// second thread (beam searches beside the branch and bound, two threads for the dense
/// programme), as from the command line, even when called inside a rayon pool (e.g. the
/// final `T^(W)` of `approx` and `converge`, which runs alone after their table). Same
/// result type and guarantees as [`solve`].
pub fn solve_alone(inst: &Instance, opts: &SolveOptions) -> Result<Solution, Error> {
    std::thread::scope(|s| s.spawn(|| solve(inst, opts)).join()).unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Computes `T^(W)` (or bounds on it) for `inst` with `opts`.
///
/// `outcome.lower_bound()` is the makespan of a schedule the independent checker accepted,
/// `outcome.upper_bound()` is proven, and `exact()` holds only when the two meet. A time or
/// memory limit ends the solve with the interval proven so far and its [`Status`].
///
/// ```
/// use gpu_makespan::{solve, Budget, Instance, Method, SolveOptions, Status};
/// use std::time::Duration;
///
/// let inst = Instance::new("LLC", 4, 1, 1)?; // Fig. 2 of the paper: T^(4) = 9
/// let budget = Budget::new(Some(Duration::from_secs(5)), Budget::DEFAULT_MAX_MEMORY);
/// let sol = solve(&inst, &SolveOptions::default().with_method(Method::Search).with_budget(budget))?;
/// assert_eq!((sol.outcome.lower_bound(), sol.outcome.upper_bound()), (9, 9));
/// assert_eq!(sol.status(), Status::Optimal);
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn solve(inst: &Instance, opts: &SolveOptions) -> Result<Solution, Error> {
    check_witness_size(inst, &opts.budget)?;
    let started = Instant::now();
    let safe = bounds::safe_horizon(inst);
    show_closed_forms(inst, &opts.budget);
    let mut notes = eq5_notes(inst);
    let (outcome, constraints, horizon) = match opts.method {
        Method::Search => (run_search(inst, opts)?, None, safe),
        Method::Heuristic => {
            notes.push("heuristic: the makespan is a proven lower bound (a checked schedule); it is the worst case only if it meets the upper bound".into());
            (run_heuristic(inst, opts)?, None, safe)
        }
        #[cfg(feature = "ilp")]
        Method::Ilp => {
            let asked = opts.horizon.cycles(inst);
            let horizon = asked.min(safe);
            if asked > safe {
                notes.push(format!("horizon {asked} is above the safe horizon {safe}, which no schedule exceeds: the ILP uses {safe}"));
            }
            let (out, note) = run_ilp(inst, opts, horizon, &opts.budget)?;
            notes.extend(note);
            let out = searched_if_unpresolved(inst, opts, out)?;
            if out.stats.search.is_none() {
                notes.extend(horizon_notes(&out, horizon, safe));
            }
            // The ILP builds no per-state bound: where it stops short, `bound`'s is built.
            (search::at_most_start_bound(inst, out, true, &opts.budget)?, Some(opts.form), horizon)
        }
        #[cfg(feature = "ilp")]
        Method::Both => {
            let (ilp_out, note) = run_ilp(inst, opts, safe, &opts.budget.part(Part::IlpOfBoth))?;
            notes.extend(note);
            let status = match (ilp_out.stop(), unpresolved(&ilp_out)) {
                (_, true) => "without presolve, not trusted",
                (Stop::Completed, false) => "Optimal",
                _ => "TimeLimit",
            };
            let ilp_note = format!("ILP: {} ({status})", ilp_out.lower_bound());
            let least = opts.budget.time_limit().map_or(Duration::ZERO, |l| l / 4);
            let rest = opts.budget.part(Part::SearchOfBoth).at_least(least);
            let out = run_search(inst, &SolveOptions { budget: rest, ..opts.clone() })?.merge(ilp_out)?;
            notes.push(format!("{ilp_note}; search: agrees"));
            (out, Some(opts.form), safe)
        }
    };
    opts.budget.found(outcome.lower_bound());
    opts.budget.proved(outcome.upper_bound());
    Ok(Solution { method: opts.method, constraints, horizon, outcome, notes, seconds: started.elapsed().as_secs_f64() })
}

fn eq5_notes(inst: &Instance) -> Vec<String> {
    if !bounds::pessimistic_unproven(inst) {
        return Vec::new();
    }
    vec![format!(
        "the paper's pessimistic bound (eq. 5) = {} is below the safe horizon {}: it is not a proven bound for this instance",
        bounds::pessimistic(inst),
        bounds::safe_horizon(inst)
    )]
}

/// Bytes a witness takes per issued instruction while it is built and re-checked (its
/// cycle, the rollout's trace, the checker's tables).
pub const WITNESS_BYTES_PER_ISSUE: u64 = 32;

/// Every method returns a re-checked schedule of `W x I` issues: refused (too large,
/// naming `warps`) when that alone would exceed the memory limit, instead of being
/// killed by the system. The closed-form bounds (`bound`) need no schedule.
fn check_witness_size(inst: &Instance, budget: &Budget) -> Result<(), TooLarge> {
    let issues = (inst.warps as u64).saturating_mul(inst.len() as u64);
    let bytes = issues.saturating_mul(WITNESS_BYTES_PER_ISSUE);
    if bytes > budget.max_memory() as u64 {
        return Err(TooLarge {
            field: "warps".into(),
            value: inst.warps.to_string(),
            reason: format!(
                "a checked schedule of {} warps x {} instructions ({issues} issues, about {} MB) does not fit the memory limit of {} MB, and the proven closed-form bounds need none",
                inst.warps,
                inst.len(),
                bytes >> 20,
                budget.max_memory() >> 20
            ),
        });
    }
    Ok(())
}

/// The budget a method may spend before its witness is turned into a schedule and
/// re-checked: that takes time proportional to `W * I` (about 0.2 us per instruction
/// issued here), which is kept back, up to half the time left.
fn working_budget(inst: &Instance, budget: &Budget) -> Budget {
    budget.keeping_back(Duration::from_nanos((inst.warps as u64).saturating_mul(inst.len() as u64).saturating_mul(250)))
}

fn run_search(inst: &Instance, opts: &SolveOptions) -> Result<Outcome, Error> {
    let limits = SearchLimits {
        budget: working_budget(inst, &opts.budget),
        max_states: opts.max_states,
        dense: opts.dense,
        ..SearchLimits::default()
    };
    search::solve(inst, limits)
}

/// Rollouts and beams only, in rounds of doubling length until the time limit (one
/// round without a limit), or until a schedule meets the upper bound (then it is exact and nothing can improve it);
/// the upper bound is the search's per-state bound at the start state, at most the safe
/// horizon (the tail bound's end games get at most a quarter of the time limit).
fn run_heuristic(inst: &Instance, opts: &SolveOptions) -> Result<Outcome, Error> {
    let work = working_budget(inst, &opts.budget);
    let building = work.part(Part::BoundBuilding);
    let bound = state_bounds::standard_until(inst, &building);
    let weakened = building.is_over();
    let t = Transitions::new(inst);
    let upper = bound.upper(&t.start()).min(bounds::safe_horizon(inst));
    work.proved(upper);
    let mut round = std::time::Duration::from_millis(10);
    let mut seed = 0x6865_7572u64;
    // Without a time limit: one round of 64 rollouts and the priority rules, to the end.
    let first = if work.time_left().is_some() { work.at_most(round) } else { work.clone() };
    let mut trace = longest_rollout_until(&t, &bound, 64, seed, &first);
    while trace.cycles() < upper && work.time_left().is_some_and(|left| !left.is_zero()) && !work.interrupted() {
        round *= 2;
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        work.found(trace.cycles());
        let next = longest_rollout_until(&t, &bound, 64, seed, &work.at_most(round));
        if next.cycles() > trace.cycles() {
            trace = next;
        }
    }
    let witness = Witness::check(inst, "heuristic", trace.schedule(inst.warps, inst.len()), Some(trace.cycles()))?;
    let stop = if opts.budget.interrupted() { Stop::Interrupted } else { Stop::Completed };
    search::at_most_start_bound(inst, Outcome::new(witness, upper, stop, Stats::default())?, weakened, &opts.budget)
}

#[cfg(feature = "ilp")]
/// The ILP within `budget`'s time, warm-started from rollouts (which get a quarter of it). A model HiGHS would need
/// longer than the limit to set up ([`ilp::setup_time`]) is not started: the result is
/// then the rollouts' schedule with the safe horizon, stopped by the time limit, and a
/// note says so.
fn run_ilp(inst: &Instance, opts: &SolveOptions, horizon: u64, budget: &Budget) -> Result<(Outcome, Option<String>), Error> {
    ilp::check_size(inst, horizon, opts.form)?;
    let seed = longest_rollout_of(inst, 8, 0x0069_6c70, &budget.part(Part::Rollouts)).schedule(inst.warps, inst.len());
    let time_limit = budget.time_left();
    let setup = ilp::setup_time(inst, horizon, opts.form);
    if let Some(limit) = time_limit.filter(|&l| setup > l) {
        let witness = Witness::check(inst, "heuristic", seed, None)?;
        let (variables, _) = ilp::model_size(inst, horizon, opts.form);
        let stats = crate::exact::outcome::IlpStats { variables: variables as usize, rows: 0, makespan: None, optimal: false, presolve: true };
        let outcome = Outcome::new(witness, bounds::safe_horizon(inst), Stop::TimeLimit, Stats { search: None, ilp: Some(stats) })?;
        let note = format!(
            "the ILP was not started: HiGHS would need about {:.1} s to set it up, more than the {:.1} s limit; the makespan is a rollout's schedule",
            setup.as_secs_f64(),
            limit.as_secs_f64()
        );
        return Ok((outcome, Some(note)));
    }
    let ilp_opts = IlpOptions { form: opts.form, horizon, time_limit, symmetry_breaking: opts.symmetry_breaking, start: Some(seed), stop: Some(budget.stop_flag().clone()) };
    let out = ilp::solve_instance(inst, &ilp_opts)?;
    let note = unpresolved(&out).then(|| {
        "HiGHS's presolve failed on this model and its run without presolve is not trusted (HiGHS 1.15 without presolve has proven wrong optima): the upper bound and status are the exact search's".to_string()
    });
    Ok((out, note))
}

#[cfg(feature = "ilp")]
/// `out` of the paper's ILP, merged with the exact search's (within `opts`' budget and
/// limits, second in time) when HiGHS ran without presolve (`ilp_stats.presolve` false:
/// its optimum is not proven, its upper bound is the safe horizon): the search's upper
/// bound and stop, the longer schedule; a search bound below the ILP's re-checked
/// schedule is an inconsistency error. Otherwise `out` unchanged.
fn searched_if_unpresolved(inst: &Instance, opts: &SolveOptions, out: Outcome) -> Result<Outcome, Error> {
    if !unpresolved(&out) {
        return Ok(out);
    }
    Ok(run_search(inst, opts)?.merge(out)?)
}

#[cfg(feature = "ilp")]
/// Whether `out` came from an ILP run without presolve (`ilp_stats.presolve` false).
fn unpresolved(out: &Outcome) -> bool {
    out.stats.ilp.is_some_and(|s| !s.presolve)
}

#[cfg(feature = "ilp")]
/// What a horizon below the safe one means for an ILP result.
fn horizon_notes(out: &Outcome, horizon: u64, safe: u64) -> Vec<String> {
    let optimal = out.stats.ilp.is_some_and(|s| s.optimal);
    let covers = horizon >= safe;
    if optimal && out.lower_bound() == horizon {
        if covers {
            return vec![format!("the optimum equals the horizon {horizon}; the horizon is proven safe, so it did not cut the optimum")];
        }
        return vec![format!(
            "the optimum equals the horizon {horizon}, which is below the safe horizon {safe}: the horizon may have cut it; the worst case may be longer (rerun with the safe horizon)"
        )];
    }
    if !covers {
        return vec![format!(
            "horizon {horizon} is below the safe horizon {safe}: the result is the longest schedule of at most {horizon} cycles, not proven to be T^(W)"
        )];
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_displays_its_json_word() {
        for status in [Status::Optimal, Status::TimeLimit, Status::MaxStates, Status::MaxMemory, Status::LowerBound, Status::Interrupted] {
            assert_eq!(serde_json::to_value(status).unwrap(), status.to_string());
        }
        assert_eq!(Status::TimeLimit.to_string(), "time_limit");
    }

    /// HiGHS without presolve can prove wrong optima: an outcome that claims optimality
    /// for a schedule shorter than the worst case, as such a run could, comes out at the
    /// search's exact value, where the same claim from a presolved run would be taken as
    /// proven (an exact result that is too small).
    #[cfg(feature = "ilp")]
    #[test]
    fn a_run_without_presolve_is_confirmed_by_the_search() {
        use crate::exact::ilp::{outcome_of, IlpOutcome, IlpOptions};
        use crate::state::transitions::Transitions;
        let inst = Instance::new("LCLCCL", 4, 1, 2).unwrap();
        let exact = solve(&inst, &SolveOptions::default()).unwrap().outcome;
        assert!(exact.exact());
        let t = Transitions::new(&inst);
        let ranks = [(0..=inst.len() as u32).collect::<Vec<_>>(), (0..=inst.len() as u32).rev().collect()];
        let shortest = ranks
            .iter()
            .map(|rank| crate::exact::heuristic::priority::rollout(&t, rank, true, &|| false).unwrap())
            .min_by_key(|(cycles, _)| *cycles)
            .unwrap();
        assert!(shortest.0 < exact.upper_bound(), "{} is the worst case: no wrong claim to test", shortest.0);
        let claim = |presolved: bool| IlpOutcome {
            schedule: Some(shortest.1.schedule(inst.warps, inst.len())),
            makespan: Some(shortest.0),
            dual_bound: shortest.0,
            optimal: true,
            seconds: 0.0,
            variables: 0,
            rows: 0,
            interrupted: false,
            presolved,
        };
        let ilp = IlpOptions { form: ConstraintForm::Short, horizon: bounds::safe_horizon(&inst), time_limit: None, symmetry_breaking: true, start: None, stop: None };
        let opts = SolveOptions { method: Method::Ilp, ..SolveOptions::default() };
        let trusted = searched_if_unpresolved(&inst, &opts, outcome_of(&inst, &ilp, claim(true)).unwrap()).unwrap();
        assert_eq!((trusted.lower_bound(), trusted.upper_bound()), (shortest.0, shortest.0));
        let confirmed = searched_if_unpresolved(&inst, &opts, outcome_of(&inst, &ilp, claim(false)).unwrap()).unwrap();
        assert_eq!((confirmed.lower_bound(), confirmed.upper_bound()), (exact.lower_bound(), exact.upper_bound()));
        assert_eq!(confirmed.stop(), Stop::Completed);
        assert!(confirmed.stats.search.is_some() && unpresolved(&confirmed));
    }

    /// A solution (and so its outcome) reads back as written; a record whose schedule
    /// does not end at the interval's lower end, or whose interval is upside down, is refused.
    #[test]
    fn solution_and_outcome_round_trip() {
        let inst = Instance::new("LLC", 4, 1, 1).unwrap();
        let opts = SolveOptions { method: Method::Heuristic, ..SolveOptions::default() };
        for sol in [solve(&inst, &SolveOptions::default()).unwrap(), solve(&inst, &opts).unwrap()] {
            let text = serde_json::to_string(&sol).unwrap();
            let back: Solution = serde_json::from_str(&text).unwrap();
            assert_eq!(back, sol);
            assert_eq!(back.interval(), sol.interval());
            back.outcome.recheck(&inst).unwrap();
            let outcome: Outcome = serde_json::from_str(&serde_json::to_string(&sol.outcome).unwrap()).unwrap();
            assert_eq!(outcome, sol.outcome);
        }
        let sol = solve(&inst, &SolveOptions::default()).unwrap();
        assert_eq!(sol.interval().to_string(), "9");
        let mut v = serde_json::to_value(&sol.outcome).unwrap();
        v["interval"] = serde_json::json!({"lower": 8, "upper": 9});
        let e = serde_json::from_value::<Outcome>(v.clone()).unwrap_err().to_string();
        assert!(e.contains("makespan 9"), "{e}");
        v["interval"] = serde_json::json!({"lower": 9, "upper": 8});
        assert!(serde_json::from_value::<Outcome>(v).is_err());
        // A schedule read back is re-checked against the instance on demand.
        let other = Instance::new("LLC", 4, 2, 2).unwrap();
        assert!(sol.outcome.recheck(&other).is_err());
    }

    #[test]
    fn method_names_parse() {
        for name in Method::NAMES {
            let parsed = name.parse::<Method>();
            if cfg!(feature = "ilp") || !["ilp", "both"].contains(&name) {
                assert_eq!(serde_json::to_value(parsed.unwrap()).unwrap(), name);
            } else {
                assert!(parsed.unwrap_err().contains("no ILP solver"));
            }
        }
        assert!("fast".parse::<Method>().is_err());
    }
}
