//! The ILP of [`super`] built with `good_lp` and solved with HiGHS (feature `ilp`).

use super::{ConstraintForm, IlpOptions, IlpOutcome};
use crate::error::{Error, InputError, SolverError};
use crate::model::bounds::safe_horizon;
use crate::model::instance::Instance;
use crate::model::kernel::Unit;
use crate::model::schedule::Schedule;
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};
use std::time::Instant;

/// HiGHS settings, typed. (good_lp's typed setters store options that only its own
/// `solve` applies; the tool needs HiGHS's raw model for the MIP dual bound, so the
/// options are applied here, in one place.)
#[derive(Debug, Clone, Copy)]
struct HighsSettings {
    /// Seconds left for HiGHS.
    time_limit: Option<f64>,
    /// Presolve on or off.
    presolve: bool,
    /// Print HiGHS's log (environment variable `MAKESPAN_HIGHS_LOG`).
    log: bool,
}

impl HighsSettings {
    fn apply(self, model: &mut highs::Model) {
        if self.log {
            model.set_option("output_flag", true);
            model.set_option("log_to_console", true);
        } else {
            model.make_quiet();
        }
        // Optimality on integral objectives: any gap below one cycle closes it.
        model.set_option("mip_rel_gap", 0.0);
        model.set_option("mip_abs_gap", 0.999);
        model.set_option("threads", 1);
        if !self.presolve {
            model.set_option("presolve", "off");
        }
        if let Some(t) = self.time_limit {
            model.set_option("time_limit", t.max(0.001));
        }
    }
}

pub(super) fn solve_once(inst: &Instance, opts: &IlpOptions, started: Instant, presolve: bool) -> Result<IlpOutcome, Error> {
    let mut pv = ProblemVariables::new();
    let m = Model::new(inst, opts.horizon, &mut pv);
    let rows = m.rows(opts);
    let n_rows = rows.len();
    let mut problem = pv.maximise(m.finish_expr(inst.warps as usize - 1)).using(good_lp::solvers::highs::highs);
    for r in rows {
        problem.add_constraint(r);
    }
    let mut model = problem.try_into_inner().map_err(|e| SolverError::Backend(e.to_string()))?;
    let settings = HighsSettings {
        time_limit: opts.time_limit.map(|l| l.saturating_sub(started.elapsed()).as_secs_f64()),
        presolve,
        log: std::env::var_os("MAKESPAN_HIGHS_LOG").is_some(),
    };
    settings.apply(&mut model);
    if let Some(cols) = opts.start.as_ref().and_then(|s| m.start_columns(s)) {
        let _ = model.try_set_solution(Some(&cols), None, None, None);
    }
    let solved = crate::exact::highs_interrupt::solve_until(model, opts.stop.as_slice()).map_err(|e| SolverError::Backend(format!("{e:?}")))?;
    m.read_outcome(solved, started, n_rows, presolve)
}

/// The ILP of one instance over one horizon: its variables and how to read them.
struct Model<'a> {
    inst: &'a Instance,
    horizon: u64,
    /// `x[w][i]` = variables for the cycles of the window of instruction `i`.
    x: Vec<Vec<Vec<Variable>>>,
    /// `first[w][i]`: column index of `x[w][i][0]` (columns are created in this order,
    /// then all `E_t`, then all `G_t`).
    first: Vec<Vec<usize>>,
    e: Vec<Variable>,
    g: Vec<Variable>,
    columns: usize,
}

impl<'a> Model<'a> {
    fn new(inst: &'a Instance, horizon: u64, pv: &mut ProblemVariables) -> Model<'a> {
        let mut m = Model { inst, horizon, x: Vec::new(), first: Vec::new(), e: Vec::new(), g: Vec::new(), columns: 0 };
        for _ in 0..inst.warps {
            let (mut per_i, mut firsts) = (Vec::with_capacity(inst.len()), Vec::with_capacity(inst.len()));
            for i in 0..inst.len() {
                let (lo, hi) = m.window(i);
                firsts.push(m.columns);
                per_i.push((lo..=hi).map(|_| pv.add(variable().binary())).collect::<Vec<_>>());
                m.columns += (hi + 1 - lo) as usize;
            }
            m.x.push(per_i);
            m.first.push(firsts);
        }
        m.e = (0..horizon).map(|_| pv.add(variable().binary())).collect();
        m.g = (0..horizon).map(|_| pv.add(variable().binary())).collect();
        m.columns += 2 * horizon as usize;
        m
    }

    /// Cycles in which instruction `i` can be issued: `[i + 1, H - (I - 1 - i)]`.
    fn window(&self, i: usize) -> (u64, u64) {
        (i as u64 + 1, self.horizon - (self.inst.len() - 1 - i) as u64)
    }

    /// `sum_t t * X[w,i,t]`: the cycle of warp `w`'s instruction `i`.
    fn cycle_expr(&self, w: usize, i: usize) -> Expression {
        let lo = self.window(i).0;
        let mut e = Expression::with_capacity(self.x[w][i].len());
        for (k, &v) in self.x[w][i].iter().enumerate() {
            e.add_mul((lo + k as u64) as f64, v);
        }
        e
    }

    /// The cycle of warp `w`'s last instruction.
    fn finish_expr(&self, w: usize) -> Expression {
        self.cycle_expr(w, self.inst.len() - 1)
    }

    /// Sum of `X[w,i,t]` over the cycles `t` in `from..=to`.
    fn range_sum(&self, w: usize, i: usize, from: u64, to: u64) -> Expression {
        let lo = self.window(i).0;
        let mut e = Expression::with_capacity(self.x[w][i].len());
        for (k, &v) in self.x[w][i].iter().enumerate() {
            let t = lo + k as u64;
            if t >= from && t <= to {
                e.add_mul(1.0, v);
            }
        }
        e
    }

    /// `X[w,i,t]`, if `t` is in the window of `i`.
    fn at(&self, w: usize, i: usize, t: u64) -> Option<Variable> {
        let (lo, hi) = self.window(i);
        (t >= lo && t <= hi).then(|| self.x[w][i][(t - lo) as usize])
    }

    fn unit_index(&self, i: usize) -> usize {
        (self.inst.kernel.unit(i) == Unit::C) as usize
    }

    /// Every row of the model, in the order HiGHS receives them.
    fn rows(&self, opts: &IlpOptions) -> Vec<good_lp::Constraint> {
        let mut rows = Vec::new();
        let loads = self.loads();
        self.add_capacity(&loads, &mut rows);
        self.add_assignment_and_precedence(&mut rows);
        self.add_objective_rows(opts.symmetry_breaking, &mut rows);
        self.add_saturation(&loads, &mut rows);
        self.add_work_conserving(opts.form, &mut rows);
        rows
    }

    /// `loads[t - 1][u]`: issues of unit `u` (0 = L, 1 = C) in cycle `t`, over all warps.
    /// Built once and shared by the capacity rows and the `E_t`/`G_t` rows.
    fn loads(&self) -> Vec<[Expression; 2]> {
        let mut out: Vec<[Expression; 2]> = (0..self.horizon).map(|_| Default::default()).collect();
        for xw in &self.x {
            for (i, xs) in xw.iter().enumerate() {
                let (u, lo) = (self.unit_index(i), self.window(i).0);
                for (k, &v) in xs.iter().enumerate() {
                    out[(lo + k as u64 - 1) as usize][u].add_mul(1.0, v);
                }
            }
        }
        out
    }

    /// Eqs. 14-16: capacity per unit type, one instruction per warp per cycle.
    fn add_capacity(&self, loads: &[[Expression; 2]], rows: &mut Vec<good_lp::Constraint>) {
        for t in 1..=self.horizon {
            for (u, unit) in [Unit::L, Unit::C].into_iter().enumerate() {
                rows.push(loads[t as usize - 1][u].clone().leq(self.inst.sigma(unit) as f64));
            }
            for w in 0..self.x.len() {
                let mut one = Expression::default();
                for i in 0..self.inst.len() {
                    if let Some(v) = self.at(w, i, t) {
                        one.add_mul(1.0, v);
                    }
                }
                rows.push(one.leq(1.0));
            }
        }
    }

    /// Eqs. 17-19: every instruction once, in order.
    fn add_assignment_and_precedence(&self, rows: &mut Vec<good_lp::Constraint>) {
        for w in 0..self.x.len() {
            for i in 0..self.inst.len() {
                let (lo, hi) = self.window(i);
                rows.push(self.range_sum(w, i, lo, hi).eq(1.0));
                if i + 1 < self.inst.len() {
                    rows.push((self.cycle_expr(w, i) + 1.0).leq(self.cycle_expr(w, i + 1)));
                }
            }
        }
    }

    /// Eq. 13's side rows (warp `W` finishes last) and the symmetry-breaking rows.
    fn add_objective_rows(&self, symmetry_breaking: bool, rows: &mut Vec<good_lp::Constraint>) {
        let w_n = self.x.len();
        let finish_w = self.finish_expr(w_n - 1);
        for w in 0..w_n - 1 {
            rows.push(self.finish_expr(w).leq(finish_w.clone()));
        }
        if symmetry_breaking {
            for w in 0..w_n.saturating_sub(2) {
                rows.push(self.cycle_expr(w, 0).leq(self.cycle_expr(w + 1, 0)));
            }
        }
    }

    /// Eqs. 40-41 for `E_t` (L) and `G_t` (C): 1 exactly when all sigma units are busy.
    fn add_saturation(&self, loads: &[[Expression; 2]], rows: &mut Vec<good_lp::Constraint>) {
        for t in 1..=self.horizon {
            let flags = [self.e[t as usize - 1], self.g[t as usize - 1]];
            for (u, unit) in [Unit::L, Unit::C].into_iter().enumerate() {
                let sigma = self.inst.sigma(unit) as f64;
                let l = &loads[t as usize - 1][u];
                rows.push(Expression::from(flags[u]).geq(l.clone() + (1.0 - sigma)));
                rows.push((sigma * flags[u]).leq(l.clone()));
            }
        }
    }

    /// `TL[w,i,t]` (or `TC`) as an expression, or `None` where it is identically 1.
    fn not_waiting(&self, w: usize, i: usize, t: u64) -> Option<Expression> {
        let (lo_i, hi_i) = self.window(i);
        if t >= hi_i || (i > 0 && t <= self.window(i - 1).0) {
            return None;
        }
        let mut e = self.range_sum(w, i, lo_i, t);
        if i > 0 {
            e += self.range_sum(w, i - 1, t, self.window(i - 1).1);
        }
        Some(e)
    }

    /// Eqs. 33-34 and 36-37: work-conservation, in the short or the long form.
    fn add_work_conserving(&self, form: ConstraintForm, rows: &mut Vec<good_lp::Constraint>) {
        for w in 0..self.x.len() {
            for t in 1..=self.horizon {
                for (u, flag) in [(Unit::L, self.e[t as usize - 1]), (Unit::C, self.g[t as usize - 1])] {
                    let of_u = (0..self.inst.len()).filter(|&i| self.inst.kernel.unit(i) == u);
                    match form {
                        ConstraintForm::Short => {
                            for i in of_u {
                                if let Some(tl) = self.not_waiting(w, i, t) {
                                    rows.push((tl + flag).geq(1.0));
                                }
                            }
                        }
                        ConstraintForm::Long => {
                            let (mut sum, mut n, mut any) = (Expression::default(), 0.0, false);
                            for i in of_u {
                                n += 1.0;
                                match self.not_waiting(w, i, t) {
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
    fn start_columns(&self, s: &Schedule) -> Option<Vec<f64>> {
        let s = s.canonical();
        if s.makespan() > self.horizon {
            return None;
        }
        let h = self.horizon as usize;
        let mut cols = vec![0.0; self.columns];
        let mut used = vec![[0u32; 2]; h + 1];
        for w in 0..self.x.len() {
            for i in 0..self.inst.len() {
                let (lo, hi) = self.window(i);
                let t = s.cycles[w][i];
                if t < lo || t > hi {
                    return None;
                }
                cols[self.first[w][i] + (t - lo) as usize] = 1.0;
                used[t as usize][self.unit_index(i)] += 1;
            }
        }
        let flags = self.columns - 2 * h;
        for t in 1..=h {
            cols[flags + t - 1] = (used[t][0] == self.inst.sigma_l) as u8 as f64;
            cols[flags + h + t - 1] = (used[t][1] == self.inst.sigma_c) as u8 as f64;
        }
        Some(cols)
    }

    /// The schedule in a column vector: for each warp and instruction, the cycle whose
    /// variable is largest.
    fn schedule_from(&self, cols: &[f64]) -> Schedule {
        let cycles = (0..self.x.len())
            .map(|w| {
                (0..self.inst.len())
                    .map(|i| {
                        let (first, n) = (self.first[w][i], self.x[w][i].len());
                        let k = (0..n).max_by(|&a, &b| cols[first + a].total_cmp(&cols[first + b])).unwrap_or(0);
                        self.window(i).0 + k as u64
                    })
                    .collect()
            })
            .collect();
        Schedule { cycles }
    }

    fn read_outcome(&self, solved: highs::SolvedModel, started: Instant, n_rows: usize, presolved: bool) -> Result<IlpOutcome, Error> {
        use highs::{HighsModelStatus as S, HighsSolutionStatus};
        let (inst, horizon) = (self.inst, self.horizon);
        let interrupted = solved.status() == S::ReachedInterrupt;
        let optimal = match solved.status() {
            S::Optimal => true,
            S::ReachedTimeLimit | S::ReachedIterationLimit | S::ReachedInterrupt | S::ReachedSolutionLimit | S::ReachedMemoryLimit => false,
            S::Infeasible if horizon >= safe_horizon(inst) => return Err(SolverError::Infeasible.into()),
            S::Infeasible => {
                return Err(InputError::new(
                    "horizon",
                    horizon,
                    "no work-conserving schedule fits in this many cycles (the ILP is infeasible); use the safe horizon",
                )
                .into())
            }
            other => return Err(SolverError::Status(format!("{other:?}")).into()),
        };
        let have_solution = solved.primal_solution_status() == HighsSolutionStatus::Feasible;
        if optimal && !have_solution {
            return Err(SolverError::NoFeasiblePoint.into());
        }
        let dual = solved.double_info_value(c"mip_dual_bound").unwrap_or(f64::INFINITY);
        let dual_bound = if optimal || !dual.is_finite() { horizon } else { (dual + 1e-6).floor().clamp(0.0, horizon as f64) as u64 };
        let (schedule, makespan) = if have_solution {
            let s = self.schedule_from(solved.get_solution().columns());
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
            variables: self.columns,
            rows: n_rows,
            interrupted,
            presolved,
        })
    }
}
