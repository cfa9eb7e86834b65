//! Solver-convergence experiments: the paper's Figs. 6-7 (`converge`) and Fig. 5
//! (`compare-constraints`), as rows ready for CSV and SVG.

use crate::error::{Error, Inconsistency};
use crate::exact::ilp::ConstraintForm;
use crate::exact::solve::{solve, solve_alone, Method, SolveOptions, Status};
use crate::experiments::approx::{estimate, table};
use crate::model::bounds;
use crate::model::instance::Instance;
use serde::Serialize;
use std::fmt::Write;

/// One `x` of a convergence run.
#[derive(Debug, Clone, Serialize)]
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
pub struct ConvergeRun {
    /// One row per `x`.
    pub rows: Vec<ConvergeRow>,
    /// Exact `T^(W)`, if known.
    pub exact_makespan: Option<u64>,
}

/// Runs the convergence experiment for `x = 1..=x_max` (in parallel), and the search on
/// `T^(W)` within the same time limit.
pub fn converge(inst: &Instance, x_max: u32, opts: &SolveOptions, progress: &(dyn Fn() + Sync)) -> Result<ConvergeRun, Error> {
    let ys: Vec<u32> = (1..=x_max).collect();
    let rows = table(inst, &ys, opts, progress)?;
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
    let exact_makespan = match solve_alone(inst, &SolveOptions { method: Method::Search, ..opts.restarted() }) {
        Ok(s) => s.exact().then(|| s.outcome.lower_bound()),
        Err(Error::TooLarge(_)) => None,
        Err(e) => return Err(e),
    };
    Ok(ConvergeRun { rows, exact_makespan })
}

/// CSV of a convergence run, with the pessimistic bound and the safe horizon repeated
/// on every line so that a plot needs no other input.
pub fn converge_csv(inst: &Instance, rows: &[ConvergeRow]) -> String {
    let mut s = String::from("x,t_x,t_x_exact,scaled,estimate,seconds,pessimistic,safe_horizon\n");
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{:.6},{},{}",
            r.x,
            r.t_x,
            r.exact,
            r.scaled,
            r.estimate,
            r.seconds,
            bounds::pessimistic(inst),
            bounds::safe_horizon(inst)
        );
    }
    s
}

/// One `W` of the constraint-form comparison.
#[derive(Debug, Clone, Serialize)]
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

/// ILP solve times of both constraint forms for `W = 1..=warps_max`, sequentially
/// (so that the times are not disturbed by each other). Fails if both forms prove
/// optimality with different values.
pub fn compare_constraints(inst: &Instance, warps_max: u32, opts: &SolveOptions, progress: &dyn Fn()) -> Result<Vec<FormRow>, Error> {
    let mut out = Vec::new();
    for w in 1..=warps_max {
        let i = inst.with_warps(w);
        let run = |form| solve(&i, &SolveOptions { method: Method::Ilp, form, ..opts.restarted() });
        let (s, l) = (run(ConstraintForm::Short)?, run(ConstraintForm::Long)?);
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
    Ok(out)
}

/// CSV of the constraint-form comparison.
pub fn forms_csv(rows: &[FormRow]) -> String {
    let mut s = String::from("warps,short_seconds,short_optimal,long_seconds,long_optimal,makespan\n");
    for r in rows {
        let _ =
            writeln!(s, "{},{:.6},{},{:.6},{},{}", r.warps, r.short_seconds, r.short_optimal, r.long_seconds, r.long_optimal, r.makespan);
    }
    s
}
