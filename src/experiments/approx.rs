//! The paper's approximation (eqs. 42-43): `T_approx(x) = min_{y=1..x} ceil(W/y) T^(y)`.
//!
//! **An estimate, not a bound** (`instances/lcl-approx-counterexample.toml`): for `LCL`, sigma 1,
//! `T^(2) = 4` but `T^(4) = 9 > ceil(4/2) T^(2) = 8`. Every result therefore carries
//! `estimate_is_bound = false` and, beside it, `safe_upper_bound`: the smaller of the
//! safe horizon (proven in [`crate::model::bounds`]) and the proven upper bound on `T^(W)`
//! that a time-limited exact search reaches. No other rule is used.
//!
//! The `T^(y)` are computed in parallel with rayon, each by an exact method.

use crate::error::{Error, Inconsistency, InputError};
use crate::exact::solve::{show_closed_forms, solve, solve_alone, Method, SolveOptions};
use crate::experiments::RunStatus;
use crate::model::bounds;
use crate::model::instance::Instance;
use crate::model::interval::Interval;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One `y` of the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Row {
    /// Number of warps `y`.
    pub y: u32,
    /// `T^(y)` (exact when `exact`; else the longest schedule found).
    pub makespan: u64,
    /// Proven upper bound on `T^(y)`.
    pub upper_bound: u64,
    /// `makespan` is `T^(y)`.
    pub exact: bool,
    /// `[makespan, upper_bound]` as one object (`lower`, `upper`, `exact`); absent in
    /// records written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// `ceil(W/y) * T^(y)` (eq. 43), from the upper bound when `T^(y)` is not exact.
    pub scaled: u64,
    /// Seconds to compute `T^(y)`.
    pub seconds: f64,
}

/// The `estimate_is_bound` field of [`Approx`]: serialises as `false`, always.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NotABound;

impl Serialize for NotABound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(false)
    }
}

/// Reads back only `false`: a record that claims the estimate is a bound is refused.
impl<'de> Deserialize<'de> for NotABound {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            false => Ok(NotABound),
            true => Err(serde::de::Error::custom("estimate_is_bound must be false: the estimate is not a proven bound")),
        }
    }
}

/// The `approx` result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Approx {
    /// `x`.
    pub x: u32,
    /// `W`.
    pub warps: u32,
    /// `T_approx(x)`: an estimate of `T^(W)`, NOT a proven bound.
    pub estimate: u64,
    /// The `y` attaining the minimum.
    pub argmin_y: u32,
    /// Serialises as `false`: the estimate is not a proven bound (a type, not a flag,
    /// so that no code can set it).
    pub estimate_is_bound: NotABound,
    /// Per `y`.
    pub rows: Vec<Row>,
    /// Proven upper bound on `T^(W)`.
    pub safe_upper_bound: u64,
    /// Where `safe_upper_bound` comes from.
    pub safe_upper_bound_source: String,
    /// `T^(W)` when an exact search finished within the time limit.
    pub exact_makespan: Option<u64>,
    /// The longest schedule found for `W` warps (a proven lower bound on `T^(W)`).
    pub lower_bound: Option<u64>,
    /// `[lower_bound, safe_upper_bound]` as one object (`lower`, `upper`, `exact`),
    /// when `lower_bound` is known; absent in records written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval: Option<Interval>,
    /// Paper's eq. 5 (not a proven bound when a sigma > 1).
    pub pessimistic: u64,
    /// Proven safe horizon.
    pub safe_horizon: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// `complete`, or how the run ended early (`total_time_limit`, `interrupted`); the
    /// rows are those finished, the estimate their minimum. (Records written before the
    /// field existed read as `complete`.)
    #[serde(default)]
    pub status: RunStatus,
    /// Caveats.
    pub notes: Vec<String>,
}

/// Computes `T^(y)` for every `y` in `ys` in parallel (in the current rayon pool),
/// calling `progress` after each; each solve gets the whole time limit of `opts`, but
/// ends by its overall deadline, after which no solve starts (the first `y` of `ys`
/// always runs, so that a table is never empty). The rows returned are those finished,
/// in the order of `ys`. The memory limit of `opts` is shared by the solves that run at
/// once (at most the pool's threads, at most `ys.len()`): each gets its share
/// ([`SolveOptions::sharing_memory`]).
pub fn table(inst: &Instance, ys: &[u32], opts: &SolveOptions, progress: &(dyn Fn() + Sync)) -> Result<Vec<Row>, Error> {
    let shared = opts.sharing_memory(rayon::current_num_threads().min(ys.len()));
    let opts = &SolveOptions { budget: shared.budget.unwatched(), ..shared };
    let rows: Vec<Option<Row>> = ys
        .par_iter()
        .enumerate()
        .map(|(i, &y)| {
            if i > 0 && opts.budget.overall_over() {
                return Ok(None);
            }
            let started = Instant::now();
            let sol = solve(&inst.with_warps(y), &opts.restarted())?;
            progress();
            let o = &sol.outcome;
            Ok(Some(Row {
                y,
                makespan: o.lower_bound(),
                upper_bound: o.upper_bound(),
                exact: o.exact(),
                interval: Some(o.interval()),
                scaled: (inst.warps as u64).div_ceil(y as u64) * o.upper_bound(),
                seconds: started.elapsed().as_secs_f64(),
            }))
        })
        .collect::<Result<_, Error>>()?;
    Ok(rows.into_iter().flatten().collect())
}

/// `T_approx(x)` and its argmin over the `rows` with `y <= x` (all `y = 1..=x` when the
/// run completed; those finished when it stopped early; `rows` holds `y = 1`).
pub fn estimate(rows: &[Row], x: u32) -> (u64, u32) {
    rows.iter().filter(|r| r.y <= x).map(|r| (r.scaled, r.y)).min().expect("the table holds y = 1")
}

/// Checks an `x` (or `x_max`) against `W`.
pub fn check_x(inst: &Instance, x: i64, field: &str) -> Result<u32, InputError> {
    if x < 1 || x > inst.warps as i64 {
        return Err(InputError::new(field, x, format!("must be from 1 to W = {}", inst.warps)));
    }
    Ok(x as u32)
}

/// The full `approx` computation: the table for `y = 1..x`, the estimate, and the
/// proven upper bound from a search on `T^(W)` limited by the time limit of `opts`.
/// When the overall limit of `opts` ends the table early, the estimate is the minimum
/// over the rows finished (status and a note say so); the proven upper bound still comes
/// from the safe horizon or a search (which starts even then, with its cheap bounds).
///
/// ```
/// use gpu_makespan::{experiments, Instance, SolveOptions};
///
/// let inst = Instance::new("LLC", 8, 1, 1)?;
/// let a = experiments::approx(&inst, 4, &SolveOptions::default(), &|| {})?;
/// assert!(a.lower_bound.is_none_or(|l| l <= a.safe_upper_bound)); // both proven
/// // The estimate is not a bound, and says so in its JSON.
/// assert_eq!(serde_json::to_value(&a).unwrap()["estimate_is_bound"], false);
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn approx(inst: &Instance, x: u32, opts: &SolveOptions, progress: &(dyn Fn() + Sync)) -> Result<Approx, Error> {
    if opts.method == Method::Heuristic {
        return Err(InputError::option("method", "heuristic", "the approximation needs exact T^(y): use search, ilp or both").into());
    }
    let started = Instant::now();
    show_closed_forms(inst, &opts.budget);
    let ys: Vec<u32> = (1..=x).collect();
    let rows = table(inst, &ys, opts, progress)?;
    let status = RunStatus::of(rows.len() == ys.len(), &opts.budget);
    let (est, argmin) = estimate(&rows, x);
    let safe = bounds::safe_horizon(inst);
    let whole = solve_alone(inst, &SolveOptions { method: Method::Search, ..opts.restarted() });
    let (ub, source, exact, lower) = match whole.map(|s| s.outcome) {
        Ok(o) if o.exact() => {
            (o.lower_bound(), format!("exact T^({}) by the search", inst.warps), Some(o.lower_bound()), Some(o.lower_bound()))
        }
        Ok(o) if o.upper_bound() < safe => {
            (o.upper_bound(), "proven upper bound of the time-limited exact search".to_string(), None, Some(o.lower_bound()))
        }
        Ok(o) => (safe, "safe horizon (proven)".to_string(), None, Some(o.lower_bound())),
        Err(Error::TooLarge(_)) => (safe, "safe horizon (proven; the instance is too large for the search)".to_string(), None, None),
        Err(e) => return Err(e),
    };
    let mut notes = vec![format!(
        "the estimate {est} is NOT a proven bound (eqs. 42-43 can be below T^(W)); use safe_upper_bound = {ub} where a bound is needed"
    )];
    if let Some(t) = exact {
        if est < t {
            notes.push(format!("here the estimate {est} is below the exact T^(W) = {t}: it would have been unsafe"));
        }
    }
    notes.extend(status.note(&format!("{} of the {x} T^(y)", x as usize - rows.len())));
    if rows.iter().any(|r| !r.exact) {
        notes.push("some T^(y) hit the time limit; their rows use the proven upper bound in `scaled`".into());
    }
    let interval = lower
        .map(|l| {
            Interval::new(l, ub)
                .ok_or_else(|| Inconsistency::Disagreement(format!("approx: a schedule of {l} cycles exceeds the proven bound {ub}")))
        })
        .transpose()?;
    Ok(Approx {
        x,
        warps: inst.warps,
        estimate: est,
        argmin_y: argmin,
        estimate_is_bound: NotABound,
        rows,
        safe_upper_bound: ub,
        safe_upper_bound_source: source,
        exact_makespan: exact,
        lower_bound: lower,
        interval,
        pessimistic: bounds::pessimistic(inst),
        safe_horizon: safe,
        seconds: started.elapsed().as_secs_f64(),
        status,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lcl_counterexample_estimate_8_exact_9() {
        let inst = Instance::new("LCL", 4, 1, 1).unwrap();
        let a = approx(&inst, 2, &SolveOptions::default(), &|| {}).unwrap();
        assert_eq!(a.estimate, 8);
        assert_eq!(a.argmin_y, 2);
        assert_eq!(a.exact_makespan, Some(9));
        assert_eq!(a.safe_upper_bound, 9);
        assert!(a.notes.iter().any(|n| n.contains("below the exact")));
        assert_eq!(a.status, RunStatus::Complete);
    }

    #[test]
    fn an_overall_limit_keeps_the_rows_finished() {
        let inst = Instance::new("LLCLLC", 64, 1, 1).unwrap();
        let mut opts = SolveOptions::default();
        opts.budget = opts.budget.with_overall_limit(Some(std::time::Duration::ZERO));
        let a = approx(&inst, 64, &opts, &|| {}).unwrap();
        assert_eq!(a.status, RunStatus::TotalTimeLimit);
        assert_eq!(a.rows.len(), 1, "only y = 1 runs after the limit");
        assert_eq!((a.estimate, a.argmin_y), (a.rows[0].scaled, 1));
        assert!(a.safe_upper_bound >= a.lower_bound.unwrap_or(0));
        assert!(a.notes.iter().any(|n| n.contains("63 of the 64 T^(y) not computed")), "{:?}", a.notes);
    }
}
