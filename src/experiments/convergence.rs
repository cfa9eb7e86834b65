//! Solver-convergence experiments: the paper's Figs. 6-7 (`converge`) and Fig. 5
//! (`compare-constraints`), as rows ready for CSV and SVG.

use crate::error::{Error, Inconsistency};
use crate::exact::ilp::ConstraintForm;
use crate::exact::solve::{show_closed_forms, solve, solve_alone, Method, SolveOptions, Status};
use crate::experiments::approx::{estimate, table};
use crate::experiments::{csv, RunStatus};
use crate::model::bounds;
use crate::model::instance::Instance;
use serde::Serialize;

/// One `x` of a convergence run.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ConvergeRow {
    /// `x`.
    pub x: u32,
    /// `T^(x)` (exact when `exact`).
    pub t_x: u64,
    /// Whether `T^(x)` is exact.
    pub exact: bool,
    /// `T^(W,x) = ceil(W/x) T^(x)` (eq. 43).
    pub scaled: u64,
    /// `T_approx(x)` (eq. 42): an estimate, not a bound.
    pub estimate: u64,
    /// Seconds to compute `T^(x)`.
    pub seconds: f64,
}

/// A convergence run: the rows, and `T^(W)` itself when the search proved it within
/// the time limit (the line the estimates converge to).
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct ConvergeRun {
    /// One row per `x` finished (every `x` when `status` is `complete`).
    pub rows: Vec<ConvergeRow>,
    /// Exact `T^(W)`, if known.
    pub exact_makespan: Option<u64>,
    /// `complete`, or how the run ended early.
    pub status: RunStatus,
}

/// Runs the convergence experiment for `x = 1..=x_max` (in parallel), and the search on
/// `T^(W)` within the same time limit. An overall limit in `opts` ends it early with
/// the rows finished (`x = 1` always runs); the search on `T^(W)` is then skipped.
///
/// ```
/// use gpu_makespan::{experiments, Instance, SolveOptions};
///
/// let run = experiments::converge(&Instance::new("LLC", 6, 1, 1)?, 3, &SolveOptions::default(), &|| {})?;
/// assert_eq!(run.rows.len(), 3); // x = 1, 2, 3
/// assert!(run.rows.iter().all(|r| r.exact) && run.exact_makespan.is_some());
/// // r.estimate is T_approx(x), eq. 42: an estimate of T^(W), not a bound.
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn converge(inst: &Instance, x_max: u32, opts: &SolveOptions, progress: &(dyn Fn() + Sync)) -> Result<ConvergeRun, Error> {
    show_closed_forms(inst, &opts.budget);
    let ys: Vec<u32> = (1..=x_max).collect();
    let rows = table(inst, &ys, opts, progress)?;
    let status = RunStatus::of(rows.len() == ys.len(), &opts.budget);
    let rows: Vec<ConvergeRow> = rows
        .iter()
        .map(|r| ConvergeRow {
            x: r.y,
            t_x: r.makespan,
            exact: r.exact,
            scaled: r.scaled,
            estimate: estimate(&rows, r.y).0,
            seconds: r.seconds,
        })
        .collect();
    if opts.budget.overall_over() {
        return Ok(ConvergeRun { rows, exact_makespan: None, status });
    }
    let exact_makespan = match solve_alone(inst, &SolveOptions { method: Method::Search, ..opts.restarted() }) {
        Ok(s) => s.exact().then(|| s.outcome.lower_bound()),
        Err(Error::TooLarge(_)) => None,
        Err(e) => return Err(e),
    };
    Ok(ConvergeRun { rows, exact_makespan, status })
}

/// CSV of a convergence run, with the pessimistic bound and the safe horizon repeated
/// on every line so that a plot needs no other input.
pub fn converge_csv(inst: &Instance, rows: &[ConvergeRow]) -> String {
    let (pessimistic, safe_horizon) = (bounds::pessimistic(inst).to_string(), bounds::safe_horizon(inst).to_string());
    let header = ["x", "t_x", "t_x_exact", "scaled", "estimate", "seconds", "pessimistic", "safe_horizon"];
    csv::table(&header, rows, |r| {
        let (x, t_x, exact, scaled, estimate) = (r.x, r.t_x, r.exact, r.scaled, r.estimate);
        let seconds = csv::fixed(r.seconds, 6);
        vec![
            x.to_string(),
            t_x.to_string(),
            exact.to_string(),
            scaled.to_string(),
            estimate.to_string(),
            seconds,
            pessimistic.clone(),
            safe_horizon.clone(),
        ]
    })
}

/// One `W` of the constraint-form comparison.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct FormRow {
    /// `W`.
    pub warps: u32,
    /// ILP seconds, short form (eqs. 34/37).
    pub short_seconds: f64,
    /// Whether the short form proved optimality within the limit.
    pub short_optimal: bool,
    /// ILP seconds, long form (eqs. 33/36).
    pub long_seconds: f64,
    /// Whether the long form proved optimality within the limit.
    pub long_optimal: bool,
    /// `T^(W)` when both proved it (they must agree), else the longer schedule found.
    pub makespan: u64,
}

/// Checks the largest `W` of a constraint-form comparison, given in `field`.
pub fn check_warps_max(warps_max: i64, field: &str) -> Result<u32, crate::error::InputError> {
    let max = crate::model::instance::MAX_WARPS;
    u32::try_from(warps_max)
        .ok()
        .filter(|&w| w >= 1 && w as i64 <= max)
        .ok_or_else(|| crate::error::InputError::new(field, warps_max, format!("must be from 1 to {max}")))
}

/// A constraint-form comparison: the rows finished, how the run ended, and why it
/// stopped before `warps_max` if it did.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct FormRun {
    /// One row per `W` finished, from 1 up.
    pub rows: Vec<FormRow>,
    /// `complete`, or how the run ended early (an overall limit or an interrupt).
    pub status: RunStatus,
    /// Why the run stopped before `warps_max`, if it did.
    pub stopped: Option<String>,
}

impl FormRun {
    /// A run ended by the overall limit or an interrupt before `W = w`.
    fn ended_early(rows: Vec<FormRow>, w: u32, warps_max: u32, budget: &crate::budget::Budget) -> FormRun {
        let status = RunStatus::of(false, budget);
        FormRun { rows, status, stopped: status.note(&format!("W = {w} to {warps_max}")) }
    }
}

/// ILP solve times of both constraint forms for `W = 1..=warps_max`, sequentially
/// (so that the times are not disturbed by each other). Fails if both forms prove
/// optimality with different values. Stops, keeping the rows finished, when the overall
/// limit of `opts` ends (a `W` whose solves it cut short is left out) or at the first
/// `W` whose ILP is too large to build.
pub fn compare_constraints(inst: &Instance, warps_max: u32, opts: &SolveOptions, progress: &dyn Fn()) -> Result<FormRun, Error> {
    let ilp = Method::ilp()?;
    let mut out = Vec::new();
    for w in 1..=warps_max {
        if opts.budget.overall_over() {
            return Ok(FormRun::ended_early(out, w, warps_max, &opts.budget));
        }
        let i = inst.with_warps(w);
        let run = |form| solve(&i, &SolveOptions { method: ilp, form, ..opts.restarted() });
        let (s, l) = match (run(ConstraintForm::Short), run(ConstraintForm::Long)) {
            (Ok(s), Ok(l)) => (s, l),
            (Err(Error::TooLarge(e)), _) | (_, Err(Error::TooLarge(e))) => {
                let stopped = format!("stopped at W = {w}: {e}");
                return Ok(FormRun { rows: out, status: RunStatus::TooLarge, stopped: Some(stopped) });
            }
            (Err(e), _) | (_, Err(e)) => return Err(e),
        };
        if opts.budget.overall_over() && !(s.exact() && l.exact()) {
            // Cut short by the overall limit, not by the per-solve one: its times would mislead.
            return Ok(FormRun::ended_early(out, w, warps_max, &opts.budget));
        }
        let (sm, lm) = (s.outcome.lower_bound(), l.outcome.lower_bound());
        if s.exact() && l.exact() && sm != lm {
            return Err(Inconsistency::Disagreement(format!("W = {w}: short form {sm} vs long form {lm}")).into());
        }
        progress();
        out.push(FormRow {
            warps: w,
            short_seconds: s.seconds,
            short_optimal: s.status() == Status::Optimal,
            long_seconds: l.seconds,
            long_optimal: l.status() == Status::Optimal,
            makespan: sm.max(lm),
        });
    }
    Ok(FormRun { rows: out, status: RunStatus::Complete, stopped: None })
}

/// CSV of the constraint-form comparison.
pub fn forms_csv(rows: &[FormRow]) -> String {
    let header = ["warps", "short_seconds", "short_optimal", "long_seconds", "long_optimal", "makespan"];
    csv::table(&header, rows, |r| {
        let (short, long) = (csv::fixed(r.short_seconds, 6), csv::fixed(r.long_seconds, 6));
        vec![r.warps.to_string(), short, r.short_optimal.to_string(), long, r.long_optimal.to_string(), r.makespan.to_string()]
    })
}
