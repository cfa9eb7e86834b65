//! The record of one solve, as `solve --json` prints it and sweeps store it. Field names
//! are contracts (README); add, don't rename.

use crate::exact::ilp::ConstraintForm;
use crate::exact::outcome::{IlpStats, SearchStats};
use crate::exact::solve::{Method, Solution, Status};
use crate::model::bounds;
use crate::model::instance::Instance;
use crate::model::interval::Interval;
use crate::model::schedule::Issue;
use serde::{Deserialize, Serialize};

/// `solve --json`. `makespan` is the length of a re-checked schedule (a proven lower
/// bound; `T^(W)` when `exact`), `upper_bound` is always proven, `exact` is derived
/// (`makespan == upper_bound`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SolutionJson {
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
    /// Cycles modelled by the ILP; for other methods, the safe horizon.
    pub horizon: u64,
    /// How the run ended.
    pub status: Status,
    /// Longest checked schedule found.
    pub makespan: u64,
    /// Proven upper bound on `T^(W)`.
    pub upper_bound: u64,
    /// `makespan == upper_bound`.
    pub exact: bool,
    /// `[makespan, upper_bound]` as one object (`lower`, `upper`, `exact`); absent in
    /// records written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The ILP optimum reached a horizon below the safe horizon, which may have cut it.
    pub horizon_may_cut: bool,
    /// Why a limited run stopped (`time_limit` or `max_states`).
    pub stopped_by: Option<String>,
    /// The paper's eq. 5 (not a proven bound when a sigma > 1).
    pub pessimistic: u64,
    /// Proven safe horizon.
    pub safe_horizon: u64,
    /// Plain-language caveats.
    pub notes: Vec<String>,
    /// Search statistics, when the search ran.
    pub search_stats: Option<SearchStats>,
    /// ILP size, when the ILP ran.
    pub ilp_stats: Option<IlpStats>,
    /// The checked schedule's issued instructions, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Vec<Issue>>,
}

impl Solution {
    /// The `makespan solve --json` record of this solution of `inst`; with
    /// `with_schedule`, the `schedule` array.
    pub fn record(&self, inst: &Instance, with_schedule: bool) -> SolutionJson {
        solution(inst, self, with_schedule)
    }
}

/// The `solve --json` object of `sol`; with `with_schedule`, the `schedule` array.
pub fn solution(inst: &Instance, sol: &Solution, with_schedule: bool) -> SolutionJson {
    let o = &sol.outcome;
    SolutionJson {
        kernel: inst.kernel.to_string(),
        source_kernel: inst.source_kernel.clone(),
        warps: inst.warps,
        sigma_l: inst.sigma_l,
        sigma_c: inst.sigma_c,
        method: sol.method,
        constraints: sol.constraints,
        horizon: sol.horizon,
        status: sol.status(),
        makespan: o.lower_bound(),
        upper_bound: o.upper_bound(),
        exact: o.exact(),
        interval: Some(o.interval()),
        seconds: sol.seconds,
        horizon_may_cut: sol.horizon_may_cut(inst),
        stopped_by: o.stop().stopped_by().map(str::to_string),
        pessimistic: bounds::pessimistic(inst),
        safe_horizon: bounds::safe_horizon(inst),
        notes: sol.notes.clone(),
        search_stats: o.stats.search,
        ilp_stats: o.stats.ilp,
        schedule: with_schedule.then(|| o.witness().schedule().issues(&inst.kernel)),
    }
}
