//! One entry point for every makespan method.
//!
//! Each method returns the common [`Outcome`] (a re-checked witness and a proven upper
//! bound); this module picks the method, cross-checks `both`, and adds the
//! plain-language notes a user must see. Nothing here can turn a checker rejection or a
//! disagreement into a result: those are [`Error::Inconsistent`].

use crate::bounds;
use crate::error::Error;
use crate::heuristic::longest_rollout_of;
use crate::ilp::{self, ConstraintForm, IlpOptions};
use crate::instance::Instance;
use crate::outcome::{Outcome, Stats, Stop, Witness};
use crate::search::{self, SearchLimits};
use serde::Serialize;
use std::time::{Duration, Instant};

/// How `T^(W)` is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The binary ILP of the paper, solved by HiGHS.
    Ilp,
    /// The exact combinatorial search (default).
    Search,
    /// Adversarial rollouts only: a proven lower bound, exact only if it meets the
    /// safe horizon.
    Heuristic,
    /// ILP and search; fails loudly if they disagree.
    Both,
}

impl Method {
    /// The names accepted by [`std::str::FromStr`], as on the command line.
    pub const NAMES: [&'static str; 4] = ["ilp", "search", "heuristic", "both"];

    /// Whether the method runs the ILP (and so uses its horizon and constraint form).
    pub fn uses_ilp(self) -> bool {
        matches!(self, Method::Ilp | Method::Both)
    }
}

impl std::str::FromStr for Method {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ilp" => Ok(Method::Ilp),
            "search" => Ok(Method::Search),
            "heuristic" => Ok(Method::Heuristic),
            "both" => Ok(Method::Both),
            other => Err(format!("`{other}` is not one of {}", Method::NAMES.join(", "))),
        }
    }
}

/// How a run ended, as printed (`status` in `solve --json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Optimality proven (for the ILP: within its horizon).
    Optimal,
    /// A time or memory limit stopped the method; the makespan is the longest schedule
    /// found and the upper bound a proven bound.
    TimeLimit,
    /// Heuristic result whose bounds do not meet: the makespan is a proven lower bound.
    LowerBound,
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
pub struct SolveOptions {
    /// Method.
    pub method: Method,
    /// ILP work-conserving constraint form.
    pub form: ConstraintForm,
    /// ILP horizon.
    pub horizon: Horizon,
    /// Time limit for the whole run.
    pub time_limit: Option<Duration>,
    /// Memory limit of the search, in stored states.
    pub max_states: usize,
    /// ILP symmetry-breaking rows.
    pub symmetry_breaking: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::Search,
            form: ConstraintForm::Short,
            horizon: Horizon::Safe,
            time_limit: None,
            max_states: SearchLimits::default().max_states,
            symmetry_breaking: true,
        }
    }
}

/// A solve: the method's [`Outcome`] and what the method ran with.
#[derive(Debug, Clone)]
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

    /// The printed status, derived from the outcome.
    pub fn status(&self) -> Status {
        match self.outcome.stop() {
            _ if self.exact() => Status::Optimal,
            Stop::TimeLimit | Stop::MaxStates => Status::TimeLimit,
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

/// Computes `T^(W)` (or bounds on it) for `inst` with `opts`.
pub fn solve(inst: &Instance, opts: &SolveOptions) -> Result<Solution, Error> {
    let started = Instant::now();
    let safe = bounds::safe_horizon(inst);
    let mut notes = eq5_notes(inst);
    let (outcome, constraints, horizon) = match opts.method {
        Method::Search => (run_search(inst, opts)?, None, safe),
        Method::Heuristic => {
            notes.push("heuristic: the makespan is a proven lower bound (a checked schedule); it is the worst case only if it meets the upper bound".into());
            (run_heuristic(inst)?, None, safe)
        }
        Method::Ilp => {
            let horizon = opts.horizon.cycles(inst);
            let out = run_ilp(inst, opts, horizon)?;
            notes.extend(horizon_notes(&out, horizon, safe));
            (out, Some(opts.form), horizon)
        }
        Method::Both => {
            let ilp_out = run_ilp(inst, opts, safe)?;
            let ilp_note = format!("ILP: {} ({})", ilp_out.lower_bound(), if ilp_out.stop() == Stop::Completed { "Optimal" } else { "TimeLimit" });
            let out = run_search(inst, opts)?.merge(ilp_out)?;
            notes.push(format!("{ilp_note}; search: agrees"));
            (out, Some(opts.form), safe)
        }
    };
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

fn run_search(inst: &Instance, opts: &SolveOptions) -> Result<Outcome, Error> {
    let limits = SearchLimits { time_limit: opts.time_limit, max_states: opts.max_states, ..SearchLimits::default() };
    search::solve(inst, limits)
}

/// Rollouts only; the upper bound is the safe horizon.
fn run_heuristic(inst: &Instance) -> Result<Outcome, Error> {
    let trace = longest_rollout_of(inst, 64, 0x6865_7572);
    let witness = Witness::check(inst, "heuristic", trace.schedule(inst.warps, inst.len()), Some(trace.cycles()))?;
    Ok(Outcome::new(witness, bounds::safe_horizon(inst), Stop::Completed, Stats::default())?)
}

fn run_ilp(inst: &Instance, opts: &SolveOptions, horizon: u64) -> Result<Outcome, Error> {
    ilp::check_size(inst, horizon, opts.form)?;
    let seed = longest_rollout_of(inst, 8, 0x0069_6c70).schedule(inst.warps, inst.len());
    let ilp_opts = IlpOptions { form: opts.form, horizon, time_limit: opts.time_limit, symmetry_breaking: opts.symmetry_breaking, start: Some(seed) };
    ilp::solve_instance(inst, &ilp_opts)
}

/// What a horizon below the safe one means for an ILP result.
fn horizon_notes(out: &Outcome, horizon: u64, safe: u64) -> Vec<String> {
    let optimal = out.stats.ilp.is_some_and(|s| s.optimal);
    let covers = horizon >= safe;
    if optimal && out.lower_bound() == horizon {
        if covers {
            return vec![format!("the optimum equals the horizon {horizon}; the horizon is proven safe, so it did not cut the optimum")];
        }
        return vec![format!(
            "the optimum equals the horizon {horizon}, which is below the safe horizon {safe}: the horizon may have cut it; the worst case may be longer (rerun with --horizon safe)"
        )];
    }
    if !covers {
        return vec![format!(
            "horizon {horizon} is below the safe horizon {safe}: the result is the longest schedule of at most {horizon} cycles, not proven to be T^(W)"
        )];
    }
    Vec::new()
}
