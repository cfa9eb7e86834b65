//! The binary ILP of Berezovskyi, Bletsas and Andersson (2012), Fig. 3, built with
//! `good_lp` and solved with HiGHS.
//!
//! Variables `X[w,i,t]` (the paper's `LS` for L instructions, `CC` for C instructions;
//! the other is fixed to 0 by eqs. 10/17 and not created) for `t` in the window
//! `[i, H - I + i]` that precedence allows, plus `E_t`, `G_t` ("all L / all C units busy").
//! Constraints: capacity (14, 15); one instruction per warp per cycle (16, summed over
//! both types, which implies the paper's two per-type rows); every instruction once (17);
//! precedence (18-19); `E_t`, `G_t` linearised (40, 41); work-conservation in the short
//! form (34, 37: `TL[w,i,t] + E_t >= 1`) or the long form (33, 36:
//! `sum_i TL[w,i,t] >= I_L (1 - E_t)`), with
//! `TL[w,i,t] = sum_{t'>=t} X[w,i-1,t'] + sum_{t'<=t} X[w,i,t']` ("not waiting for i at t").
//! Objective (13): the cycle of warp `W`'s last instruction, with every other warp's
//! last instruction no later (`W-1` rows). Added, valid without loss of generality
//! (warps are identical): warps `1..W-1` are ordered by the cycle of their first
//! instruction (`--no-symmetry-breaking` removes these rows).
//!
//! Guarantee: with status `Optimal` and a horizon that is at least the safe horizon,
//! `makespan` is `T^(W)`; the schedule is read back and re-checked by the caller.

use crate::bounds::safe_horizon;
use crate::error::{InputError, SolveError};
use crate::instance::Instance;
use crate::kernel::Unit;
use crate::schedule::Schedule;
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};
use serde::Serialize;
use std::time::{Duration, Instant};

/// Which linearisation of the work-conserving constraints to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintForm {
    /// `W * I * H` short rows (eqs. 34, 37).
    Short,
    /// `W * H` long rows per unit type (eqs. 33, 36).
    Long,
}

/// Largest number of binary variables the tool will build (about 1 GiB of model).
pub const MAX_VARIABLES: u64 = 3_000_000;
/// Largest number of non-zeros in the work-conserving rows the tool will build.
pub const MAX_NONZEROS: u64 = 150_000_000;

/// Options of one ILP solve.
#[derive(Debug, Clone)]
pub struct IlpOptions {
    /// Work-conserving constraint form.
    pub form: ConstraintForm,
    /// `T`, the number of cycles modelled. Below the safe horizon the optimum may be cut.
    pub horizon: u64,
    /// HiGHS time limit.
    pub time_limit: Option<Duration>,
    /// Order warps `1..W-1` by first issue.
    pub symmetry_breaking: bool,
    /// A valid schedule to start from (its warps are relabelled canonically).
    pub start: Option<Schedule>,
}

/// What HiGHS returned.
#[derive(Debug, Clone)]
pub struct IlpOutcome {
    /// Best schedule found (`None` if HiGHS found none within the time limit).
    pub schedule: Option<Schedule>,
    /// Objective of that schedule.
    pub makespan: Option<u64>,
    /// Proven upper bound *within the horizon* (floor of HiGHS's dual bound).
    pub dual_bound: u64,
    /// True when HiGHS proved optimality.
    pub optimal: bool,
    /// Seconds spent in HiGHS and model building.
    pub seconds: f64,
    /// Binary variables and rows of the model.
    pub variables: usize,
    /// Rows of the model.
    pub rows: usize,
}

struct Vars {
    /// `x[w][i]` = variables for cycles `lo(i) ..= hi(i)`.
    x: Vec<Vec<Vec<Variable>>>,
    e: Vec<Variable>,
    g: Vec<Variable>,
    count: usize,
}

/// Estimated model size: (binary variables, work-conserving non-zeros).
pub fn model_size(inst: &Instance, horizon: u64, form: ConstraintForm) -> (u64, u64) {
    let (w, i) = (inst.warps as u64, inst.len() as u64);
    let window = (horizon + 1).saturating_sub(i);
    let vars = w * i * window + 2 * horizon;
    let nz = match form {
        ConstraintForm::Short => w * i * window * (2 * window + 1),
        ConstraintForm::Long => w * i * window * window + w * horizon,
    };
    (vars, nz)
}

/// Refuses models that would not fit in memory, naming the field to change.
pub fn check_size(inst: &Instance, horizon: u64, form: ConstraintForm) -> Result<(), InputError> {
    let (vars, nz) = model_size(inst, horizon, form);
    if vars > MAX_VARIABLES || nz > MAX_NONZEROS {
        return Err(InputError::new(
            "warps",
            inst.warps,
            format!(
                "the ILP for {} warps x {} instructions x {horizon} cycles would have {vars} binary variables and {nz} non-zeros (limits {MAX_VARIABLES} and {MAX_NONZEROS}); use --method search, bounds or approx",
                inst.warps,
                inst.len()
            ),
        ));
    }
    Ok(())
}

fn window(inst: &Instance, horizon: u64, i: usize) -> (u64, u64) {
    (i as u64 + 1, horizon - (inst.len() - 1 - i) as u64)
}

/// Builds and solves the ILP of `inst` over `opts.horizon` cycles.
///
/// HiGHS's presolve occasionally returns a point that violates rows ("MIP solver
/// claims optimality, but with ... infeasibilities", seen on `CCCLC`, W = 2, sigma 2/2,
/// long form); the model is then solved again with presolve off.
pub fn solve(inst: &Instance, opts: &IlpOptions) -> Result<IlpOutcome, SolveError> {
    let started = Instant::now();
    if opts.horizon < inst.len() as u64 {
        return Err(InputError::new("horizon", opts.horizon, format!("shorter than the kernel ({} instructions)", inst.len())).into());
    }
    check_size(inst, opts.horizon, opts.form)?;
    match solve_once(inst, opts, started, true) {
        Err(SolveError::Solver(_)) => solve_once(inst, opts, started, false),
        other => other,
    }
}

fn solve_once(inst: &Instance, opts: &IlpOptions, started: Instant, presolve: bool) -> Result<IlpOutcome, SolveError> {
    let mut pv = ProblemVariables::new();
    let vars = make_vars(inst, opts.horizon, &mut pv);
    let (w_n, i_n) = (inst.warps as usize, inst.len());
    let last = &vars.x[w_n - 1][i_n - 1];
    let objective = cycle_expr(last, window(inst, opts.horizon, i_n - 1).0);
    let mut rows: Vec<good_lp::Constraint> = Vec::new();
    let loads = loads(inst, opts.horizon, &vars);
    add_capacity(inst, opts.horizon, &vars, &loads, &mut rows);
    add_assignment_and_precedence(inst, opts.horizon, &vars, &mut rows);
    add_objective_rows(inst, opts, &vars, &mut rows);
    add_saturation(inst, opts.horizon, &vars, &loads, &mut rows);
    add_work_conserving(inst, opts, &vars, &mut rows);
    let n_rows = rows.len();
    let mut problem = pv.maximise(objective).using(good_lp::solvers::highs::highs);
    for r in rows {
        problem.add_constraint(r);
    }
    let mut model = problem.try_into_inner().map_err(|e| SolveError::Solver(e.to_string()))?;
    if std::env::var_os("MAKESPAN_HIGHS_LOG").is_some() {
        model.set_option("output_flag", true);
        model.set_option("log_to_console", true);
    } else {
        model.make_quiet();
    }
    model.set_option("mip_rel_gap", 0.0);
    model.set_option("mip_abs_gap", 0.999);
    model.set_option("threads", 1);
    if !presolve {
        model.set_option("presolve", "off");
    }
    if let Some(limit) = opts.time_limit {
        let left = limit.saturating_sub(started.elapsed()).as_secs_f64();
        model.set_option("time_limit", left.max(0.001));
    }
    if let Some(start) = &opts.start {
        if let Some(cols) = start_columns(inst, opts.horizon, &vars, start) {
            let _ = model.try_set_solution(Some(&cols), None, None, None);
        }
    }
    let solved = model.try_solve().map_err(|e| SolveError::Solver(format!("HiGHS returned {e:?}")))?;
    read_outcome(inst, opts.horizon, &vars, solved, started, n_rows)
}

fn make_vars(inst: &Instance, horizon: u64, pv: &mut ProblemVariables) -> Vars {
    let mut count = 0;
    let mut x = Vec::with_capacity(inst.warps as usize);
    for _ in 0..inst.warps {
        let mut per_i = Vec::with_capacity(inst.len());
        for i in 0..inst.len() {
            let (lo, hi) = window(inst, horizon, i);
            per_i.push((lo..=hi).map(|_| pv.add(variable().binary())).collect::<Vec<_>>());
            count += (hi + 1 - lo) as usize;
        }
        x.push(per_i);
    }
    let e = (0..horizon).map(|_| pv.add(variable().binary())).collect();
    let g = (0..horizon).map(|_| pv.add(variable().binary())).collect();
    Vars { x, e, g, count: count + 2 * horizon as usize }
}

/// `sum_t t * X[t]` for variables starting at cycle `lo`.
fn cycle_expr(xs: &[Variable], lo: u64) -> Expression {
    let mut e = Expression::with_capacity(xs.len());
    for (k, &v) in xs.iter().enumerate() {
        e.add_mul((lo + k as u64) as f64, v);
    }
    e
}

/// Sum of the variables of `xs` (window starting at `lo`) whose cycle is in `from..=to`.
fn range_sum(xs: &[Variable], lo: u64, from: u64, to: u64) -> Expression {
    let mut e = Expression::with_capacity(xs.len());
    for (k, &v) in xs.iter().enumerate() {
        let t = lo + k as u64;
        if t >= from && t <= to {
            e.add_mul(1.0, v);
        }
    }
    e
}

/// The variable of `xs` (window `lo..=hi`) for cycle `t`, if `t` is in the window.
fn at(xs: &[Variable], (lo, hi): (u64, u64), t: u64) -> Option<Variable> {
    (t >= lo && t <= hi).then(|| xs[(t - lo) as usize])
}

/// `loads[t - 1][u]`: issues of unit `u` (0 = L, 1 = C) in cycle `t`, over all warps.
/// Built once and shared by the capacity rows and the `E_t`/`G_t` rows.
fn loads(inst: &Instance, horizon: u64, vars: &Vars) -> Vec<[Expression; 2]> {
    let mut out: Vec<[Expression; 2]> = (0..horizon).map(|_| Default::default()).collect();
    for xw in &vars.x {
        for (i, xs) in xw.iter().enumerate() {
            let u = (inst.kernel.unit(i) == Unit::C) as usize;
            let (lo, _) = window(inst, horizon, i);
            for (k, &v) in xs.iter().enumerate() {
                out[(lo + k as u64 - 1) as usize][u].add_mul(1.0, v);
            }
        }
    }
    out
}

fn add_capacity(inst: &Instance, horizon: u64, vars: &Vars, loads: &[[Expression; 2]], rows: &mut Vec<good_lp::Constraint>) {
    for t in 1..=horizon {
        for (u, unit) in [Unit::L, Unit::C].into_iter().enumerate() {
            rows.push(loads[t as usize - 1][u].clone().leq(inst.sigma(unit) as f64));
        }
        for xw in &vars.x {
            let mut one = Expression::default();
            for (i, xs) in xw.iter().enumerate() {
                if let Some(v) = at(xs, window(inst, horizon, i), t) {
                    one.add_mul(1.0, v);
                }
            }
            rows.push(one.leq(1.0));
        }
    }
}

fn add_assignment_and_precedence(inst: &Instance, horizon: u64, vars: &Vars, rows: &mut Vec<good_lp::Constraint>) {
    for xw in &vars.x {
        for (i, xs) in xw.iter().enumerate() {
            let (lo, hi) = window(inst, horizon, i);
            rows.push(range_sum(xs, lo, lo, hi).eq(1.0));
            if i + 1 < xw.len() {
                let next = cycle_expr(&xw[i + 1], window(inst, horizon, i + 1).0);
                rows.push((cycle_expr(xs, lo) + 1.0).leq(next));
            }
        }
    }
}

fn add_objective_rows(inst: &Instance, opts: &IlpOptions, vars: &Vars, rows: &mut Vec<good_lp::Constraint>) {
    let i_last = inst.len() - 1;
    let lo_last = window(inst, opts.horizon, i_last).0;
    let w_n = vars.x.len();
    let finish_w = cycle_expr(&vars.x[w_n - 1][i_last], lo_last);
    for w in 0..w_n - 1 {
        rows.push(cycle_expr(&vars.x[w][i_last], lo_last).leq(finish_w.clone()));
    }
    if opts.symmetry_breaking {
        for w in 0..w_n.saturating_sub(2) {
            rows.push(cycle_expr(&vars.x[w][0], 1).leq(cycle_expr(&vars.x[w + 1][0], 1)));
        }
    }
}

/// Eqs. 40-41 for `E_t` (L) and `G_t` (C): 1 exactly when all sigma units are busy.
fn add_saturation(inst: &Instance, horizon: u64, vars: &Vars, loads: &[[Expression; 2]], rows: &mut Vec<good_lp::Constraint>) {
    for t in 1..=horizon {
        let flags = [vars.e[t as usize - 1], vars.g[t as usize - 1]];
        for (u, unit) in [Unit::L, Unit::C].into_iter().enumerate() {
            let sigma = inst.sigma(unit) as f64;
            let l = &loads[t as usize - 1][u];
            rows.push(Expression::from(flags[u]).geq(l.clone() + (1.0 - sigma)));
            rows.push((sigma * flags[u]).leq(l.clone()));
        }
    }
}

/// `TL[w,i,t]` (or `TC`) as an expression, or `None` where it is identically 1.
fn not_waiting(inst: &Instance, horizon: u64, xw: &[Vec<Variable>], i: usize, t: u64) -> Option<Expression> {
    let (lo_i, hi_i) = window(inst, horizon, i);
    if t >= hi_i || (i > 0 && t <= window(inst, horizon, i - 1).0) {
        return None;
    }
    let mut e = range_sum(&xw[i], lo_i, 1, t);
    if i > 0 {
        let (lo_p, hi_p) = window(inst, horizon, i - 1);
        e += range_sum(&xw[i - 1], lo_p, t, hi_p);
    }
    Some(e)
}

fn add_work_conserving(inst: &Instance, opts: &IlpOptions, vars: &Vars, rows: &mut Vec<good_lp::Constraint>) {
    let h = opts.horizon;
    for xw in &vars.x {
        for t in 1..=h {
            for (u, flag) in [(Unit::L, vars.e[t as usize - 1]), (Unit::C, vars.g[t as usize - 1])] {
                let of_u = (0..inst.len()).filter(|&i| inst.kernel.unit(i) == u);
                match opts.form {
                    ConstraintForm::Short => {
                        for i in of_u {
                            if let Some(tl) = not_waiting(inst, h, xw, i, t) {
                                rows.push((tl + flag).geq(1.0));
                            }
                        }
                    }
                    ConstraintForm::Long => {
                        let (mut sum, mut n, mut any) = (Expression::default(), 0.0, false);
                        for i in of_u {
                            n += 1.0;
                            match not_waiting(inst, h, xw, i, t) {
                                Some(tl) => {
                                    sum += tl;
                                    any = true;
                                }
                                None => sum += 1.0,
                            }
                        }
                        if any {
                            rows.push((sum + n * flag).geq(n));
                        }
                    }
                }
            }
        }
    }
}

/// Column values of a known schedule (relabelled canonically), for a warm start.
fn start_columns(inst: &Instance, horizon: u64, vars: &Vars, s: &Schedule) -> Option<Vec<f64>> {
    let s = s.canonical();
    if s.makespan() > horizon {
        return None;
    }
    let mut cols = vec![0.0; vars.count];
    let mut index = 0usize;
    let mut used = vec![[0u32; 2]; horizon as usize + 1];
    for (w, xw) in vars.x.iter().enumerate() {
        for (i, xs) in xw.iter().enumerate() {
            let (lo, hi) = window(inst, horizon, i);
            let t = s.cycles[w][i];
            if t < lo || t > hi {
                return None;
            }
            cols[index + (t - lo) as usize] = 1.0;
            used[t as usize][(inst.kernel.unit(i) == Unit::C) as usize] += 1;
            index += xs.len();
        }
    }
    for t in 1..=horizon as usize {
        cols[index + t - 1] = (used[t][0] == inst.sigma_l) as u8 as f64;
        cols[index + horizon as usize + t - 1] = (used[t][1] == inst.sigma_c) as u8 as f64;
    }
    Some(cols)
}

fn read_outcome(
    inst: &Instance,
    horizon: u64,
    vars: &Vars,
    solved: highs::SolvedModel,
    started: Instant,
    n_rows: usize,
) -> Result<IlpOutcome, SolveError> {
    use highs::{HighsModelStatus as S, HighsSolutionStatus};
    let status = solved.status();
    let optimal = match status {
        S::Optimal => true,
        S::ReachedTimeLimit | S::ReachedIterationLimit | S::ReachedInterrupt | S::ReachedSolutionLimit | S::ReachedMemoryLimit => false,
        S::Infeasible if horizon >= safe_horizon(inst) => {
            return Err(SolveError::Solver("HiGHS reported the model infeasible although a schedule always fits the safe horizon".into()))
        }
        S::Infeasible => {
            return Err(InputError::new(
                "horizon",
                horizon,
                "no work-conserving schedule fits in this many cycles (the ILP is infeasible); use --horizon safe",
            )
            .into())
        }
        other => return Err(SolveError::Solver(format!("HiGHS ended with status {other:?}"))),
    };
    if optimal && solved.primal_solution_status() != HighsSolutionStatus::Feasible {
        return Err(SolveError::Solver("HiGHS claimed optimality without a feasible point".into()));
    }
    let have_solution = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    let dual = solved.double_info_value(c"mip_dual_bound").unwrap_or(f64::INFINITY);
    let dual_bound = if optimal || !dual.is_finite() { horizon } else { (dual + 1e-6).floor().clamp(0.0, horizon as f64) as u64 };
    let (schedule, makespan) = if have_solution {
        let cols = solved.get_solution().columns().to_vec();
        let s = schedule_from_columns(inst, horizon, vars, &cols);
        let m = s.cycles[inst.warps as usize - 1][inst.len() - 1];
        (Some(s), Some(m))
    } else {
        (None, None)
    };
    let dual_bound = if optimal { makespan.unwrap_or(horizon) } else { dual_bound.max(makespan.unwrap_or(0)) };
    Ok(IlpOutcome {
        schedule,
        makespan,
        dual_bound,
        optimal: optimal && have_solution,
        seconds: started.elapsed().as_secs_f64(),
        variables: vars.count,
        rows: n_rows,
    })
}

fn schedule_from_columns(inst: &Instance, horizon: u64, vars: &Vars, cols: &[f64]) -> Schedule {
    let mut index = 0usize;
    let mut cycles = Vec::with_capacity(vars.x.len());
    for xw in &vars.x {
        let mut row = Vec::with_capacity(xw.len());
        for (i, xs) in xw.iter().enumerate() {
            let lo = window(inst, horizon, i).0;
            let k = (0..xs.len()).max_by(|&a, &b| cols[index + a].total_cmp(&cols[index + b])).unwrap_or(0);
            row.push(lo + k as u64);
            index += xs.len();
        }
        cycles.push(row);
    }
    Schedule { cycles }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::check;

    fn run(k: &str, w: i64, sl: i64, sc: i64, form: ConstraintForm, horizon: Option<u64>) -> u64 {
        let inst = Instance::new(k, w, sl, sc).unwrap();
        let opts = IlpOptions {
            form,
            horizon: horizon.unwrap_or_else(|| safe_horizon(&inst)),
            time_limit: None,
            symmetry_breaking: true,
            start: None,
        };
        let out = solve(&inst, &opts).unwrap();
        assert!(out.optimal);
        let s = out.schedule.unwrap();
        assert_eq!(check(&inst, &s), Ok(out.makespan.unwrap()));
        out.makespan.unwrap()
    }

    #[test]
    fn fig2_and_lcl() {
        for form in [ConstraintForm::Short, ConstraintForm::Long] {
            assert_eq!(run("LLC", 4, 1, 1, form, None), 9);
            assert_eq!(run("LCL", 4, 1, 1, form, None), 9);
        }
    }

    #[test]
    fn counterexample_truncated_by_paper_horizon() {
        assert_eq!(run("LLCLLL", 4, 2, 2, ConstraintForm::Short, None), 13);
        assert_eq!(run("LLCLLL", 4, 2, 2, ConstraintForm::Short, Some(12)), 12);
    }
}
