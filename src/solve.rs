//! One entry point for every makespan method, and the labelled result they share.
//!
//! Every schedule a method returns is re-checked by [`crate::checker::check`] here,
//! and its checked makespan must equal the reported value; otherwise the run fails
//! with [`SolveError::Rejected`] instead of printing anything.

use crate::bounds;
use crate::checker::check;
use crate::error::SolveError;
use crate::heuristic::longest_rollout;
use crate::ilp::{self, ConstraintForm, IlpOptions};
use crate::instance::Instance;
use crate::schedule::{Issue, Schedule};
use crate::search::{self, SearchLimits};
use crate::state::Model;
use serde::Serialize;
use std::time::{Duration, Instant};

/// How `T^(W)` is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The binary ILP of the paper, solved by HiGHS.
    Ilp,
    /// The exact combinatorial search (default).
    Search,
    /// Adversarial rollouts only: a proven lower bound, never exact.
    Heuristic,
    /// ILP and search; fails loudly if they disagree.
    Both,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Optimality proven (for the ILP: within its horizon).
    Optimal,
    /// A time or memory limit stopped the method; `makespan` is the longest schedule
    /// found and `upper_bound` a proven bound.
    TimeLimit,
    /// Heuristic result: `makespan` is a proven lower bound only.
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

/// A labelled result. `makespan` is always the length of a checked schedule (so a
/// proven lower bound) and is `T^(W)` when `exact` is true; `upper_bound` is always
/// proven for `T^(W)`.
#[derive(Debug, Clone, Serialize)]
pub struct Solution {
    /// Instruction string after the sigma = 1/n transformation.
    pub kernel: String,
    /// Instruction string as given.
    pub source_kernel: String,
    /// `W`.
    pub warps: u32,
    /// sigma_L after the transformation.
    pub sigma_l: u32,
    /// sigma_C after the transformation.
    pub sigma_c: u32,
    /// Method used.
    pub method: Method,
    /// ILP constraint form (`null` for methods without one).
    pub constraints: Option<ConstraintForm>,
    /// Cycles modelled by the ILP; for other methods, the safe horizon they are capped by.
    pub horizon: u64,
    /// How the run ended.
    pub status: Status,
    /// Longest schedule found: `T^(W)` when `exact`, else a proven lower bound.
    pub makespan: u64,
    /// Proven upper bound on `T^(W)`.
    pub upper_bound: u64,
    /// True when `makespan` is proven to be `T^(W)`.
    pub exact: bool,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The ILP optimum reached a horizon below the safe horizon, which may have cut it.
    pub horizon_may_cut: bool,
    /// Why a limited run stopped (`time_limit` or `max_states`).
    pub stopped_by: Option<&'static str>,
    /// The paper's eq. 5 (not a proven bound when a sigma > 1).
    pub pessimistic: u64,
    /// Proven safe horizon.
    pub safe_horizon: u64,
    /// Plain-language caveats the user must see.
    pub notes: Vec<String>,
    /// Search statistics (states expanded, states stored), when the search ran.
    pub search_stats: Option<SearchStats>,
    /// ILP size, when the ILP ran.
    pub ilp_stats: Option<IlpStats>,
    /// The worst-case schedule found, checked (not serialised; see [`Solution::with_issues`]).
    #[serde(skip)]
    pub schedule_data: Schedule,
    /// Issued instructions of the schedule, filled only when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<Issue>>,
}

/// Statistics of a search run.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SearchStats {
    /// States expanded.
    pub expansions: u64,
    /// States stored at the end.
    pub stored_states: usize,
    /// Longest heuristic rollout (first incumbent).
    pub initial_lower_bound: u64,
}

/// Size and result of an ILP run.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct IlpStats {
    /// Binary variables.
    pub variables: usize,
    /// Rows.
    pub rows: usize,
    /// Objective found by the ILP (`null` if none).
    pub makespan: Option<u64>,
    /// Whether HiGHS proved optimality.
    pub optimal: bool,
}

impl Solution {
    /// Fills `schedule` with the issues of the schedule, for printing.
    pub fn with_issues(mut self, inst: &Instance) -> Self {
        self.schedule = Some(self.schedule_data.issues(&inst.kernel));
        self
    }
}

/// Computes `T^(W)` (or bounds on it) for `inst` with `opts`.
pub fn solve(inst: &Instance, opts: &SolveOptions) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let mut sol = match opts.method {
        Method::Search => run_search(inst, opts)?,
        Method::Heuristic => run_heuristic(inst)?,
        Method::Ilp => run_ilp(inst, opts)?,
        Method::Both => run_both(inst, opts)?,
    };
    sol.seconds = started.elapsed().as_secs_f64();
    Ok(sol)
}

fn base(inst: &Instance, method: Method, schedule: Schedule) -> Result<Solution, SolveError> {
    let makespan = check(inst, &schedule).map_err(|reason| SolveError::Rejected { method: format!("{method:?}").to_lowercase(), reason })?;
    let safe = bounds::safe_horizon(inst);
    let mut notes = Vec::new();
    if bounds::pessimistic_unproven(inst) {
        notes.push(format!(
            "the paper's pessimistic bound (eq. 5) = {} is below the safe horizon {safe}: it is not a proven bound for this instance",
            bounds::pessimistic(inst)
        ));
    }
    Ok(Solution {
        kernel: inst.kernel.to_string(),
        source_kernel: inst.source_kernel.clone(),
        warps: inst.warps,
        sigma_l: inst.sigma_l,
        sigma_c: inst.sigma_c,
        method,
        constraints: None,
        horizon: safe,
        status: Status::LowerBound,
        makespan,
        upper_bound: safe,
        exact: false,
        seconds: 0.0,
        horizon_may_cut: false,
        stopped_by: None,
        pessimistic: bounds::pessimistic(inst),
        safe_horizon: safe,
        notes,
        search_stats: None,
        ilp_stats: None,
        schedule_data: schedule,
        schedule: None,
    })
}

fn run_heuristic(inst: &Instance) -> Result<Solution, SolveError> {
    let model = Model::new(inst)?;
    let r = longest_rollout(&model, 64, 0x6865_7572);
    let mut sol = base(inst, Method::Heuristic, model.schedule_of(&r.path))?;
    sol.notes.push("heuristic: the makespan is a proven lower bound (a checked schedule), not the worst case".into());
    Ok(sol)
}

fn run_search(inst: &Instance, opts: &SolveOptions) -> Result<Solution, SolveError> {
    let model = Model::new(inst)?;
    let limits = SearchLimits { time_limit: opts.time_limit, max_states: opts.max_states, ..SearchLimits::default() };
    let out = search::solve(&model, limits);
    let mut sol = base(inst, Method::Search, model.schedule_of(&out.path))?;
    if sol.makespan != out.makespan {
        return Err(SolveError::Rejected { method: "search".into(), reason: format!("checked makespan {} != reported {}", sol.makespan, out.makespan) });
    }
    sol.upper_bound = out.upper_bound.min(sol.safe_horizon);
    sol.exact = out.exact;
    sol.status = if out.exact { Status::Optimal } else { Status::TimeLimit };
    sol.stopped_by = out.stopped_by;
    sol.search_stats = Some(SearchStats { expansions: out.expansions, stored_states: out.stored_states, initial_lower_bound: out.initial_lower_bound });
    Ok(sol)
}

fn ilp_horizon(inst: &Instance, h: Horizon) -> u64 {
    match h {
        Horizon::Safe => bounds::safe_horizon(inst),
        Horizon::Paper => bounds::pessimistic(inst),
        Horizon::Cycles(n) => n,
    }
}

fn run_ilp(inst: &Instance, opts: &SolveOptions) -> Result<Solution, SolveError> {
    let horizon = ilp_horizon(inst, opts.horizon);
    ilp::check_size(inst, horizon, opts.form)?;
    let seed = Model::new(inst).ok().map(|m| {
        let r = longest_rollout(&m, 8, 0x0069_6c70);
        m.schedule_of(&r.path)
    });
    let ilp_opts = IlpOptions {
        form: opts.form,
        horizon,
        time_limit: opts.time_limit,
        symmetry_breaking: opts.symmetry_breaking,
        start: seed.clone(),
    };
    let out = ilp::solve(inst, &ilp_opts)?;
    let schedule = match (&out.schedule, seed) {
        (Some(s), _) => s.clone(),
        (None, Some(s)) if s.makespan() <= horizon => s,
        _ => {
            return Err(SolveError::Solver(format!(
                "HiGHS found no schedule within the time limit and no heuristic schedule fits horizon {horizon}"
            )))
        }
    };
    let mut sol = base(inst, Method::Ilp, schedule)?;
    if let Some(m) = out.makespan {
        if m != sol.makespan {
            return Err(SolveError::Rejected { method: "ilp".into(), reason: format!("checked makespan {} != objective {m}", sol.makespan) });
        }
    }
    sol.constraints = Some(opts.form);
    sol.horizon = horizon;
    sol.ilp_stats = Some(IlpStats { variables: out.variables, rows: out.rows, makespan: out.makespan, optimal: out.optimal });
    let safe = sol.safe_horizon;
    let covers = horizon >= safe;
    sol.status = if out.optimal { Status::Optimal } else { Status::TimeLimit };
    sol.stopped_by = (!out.optimal).then_some("time_limit");
    sol.exact = out.optimal && covers;
    sol.upper_bound = if covers { out.dual_bound.min(safe) } else { safe };
    if out.optimal && sol.makespan == horizon {
        if covers {
            sol.notes.push(format!("the optimum equals the horizon {horizon}; the horizon is proven safe, so it did not cut the optimum"));
        } else {
            sol.horizon_may_cut = true;
            sol.notes.push(format!(
                "the optimum equals the horizon {horizon}, which is below the safe horizon {safe}: the horizon may have cut it; the worst case may be longer (rerun with --horizon safe)"
            ));
        }
    } else if !covers {
        sol.notes.push(format!(
            "horizon {horizon} is below the safe horizon {safe}: the result is the longest schedule of at most {horizon} cycles, not proven to be T^(W)"
        ));
    }
    Ok(sol)
}

fn run_both(inst: &Instance, opts: &SolveOptions) -> Result<Solution, SolveError> {
    let ilp_sol = run_ilp(inst, &SolveOptions { horizon: Horizon::Safe, ..opts.clone() })?;
    let mut sol = run_search(inst, opts)?;
    if ilp_sol.exact && sol.exact && ilp_sol.makespan != sol.makespan {
        return Err(SolveError::Disagreement(format!("ILP {} vs search {}", ilp_sol.makespan, sol.makespan)));
    }
    if ilp_sol.makespan > sol.upper_bound || sol.makespan > ilp_sol.upper_bound {
        return Err(SolveError::Disagreement(format!(
            "ILP [{}, {}] vs search [{}, {}]",
            ilp_sol.makespan, ilp_sol.upper_bound, sol.makespan, sol.upper_bound
        )));
    }
    if ilp_sol.makespan > sol.makespan {
        sol.schedule_data = ilp_sol.schedule_data.clone();
        sol.makespan = ilp_sol.makespan;
    }
    sol.upper_bound = sol.upper_bound.min(ilp_sol.upper_bound);
    sol.exact = sol.makespan == sol.upper_bound;
    sol.status = if sol.exact { Status::Optimal } else { Status::TimeLimit };
    sol.method = Method::Both;
    sol.constraints = ilp_sol.constraints;
    sol.ilp_stats = ilp_sol.ilp_stats;
    sol.notes.push(format!("ILP: {} ({:?}); search: agrees", ilp_sol.makespan, ilp_sol.status));
    Ok(sol)
}
