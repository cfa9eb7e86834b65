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
//! The model and HiGHS live in `backend.rs`, behind the `ilp` feature (on by default);
//! without it the sizes and options stay and [`solve`] refuses the method.
//!
//! Guarantee: with status `Optimal` and a horizon that is at least the safe horizon,
//! `makespan` is `T^(W)`; the schedule is read back and re-checked by the caller.

use crate::budget::StopFlag;
use crate::error::{Error, InputError, SolverError, TooLarge};
use crate::exact::outcome::{IlpStats, Outcome, Stats, Stop, Witness};
use crate::model::bounds::safe_horizon;
use crate::model::instance::Instance;
use crate::model::schedule::Schedule;
use serde::Serialize;
use std::time::{Duration, Instant};

#[cfg(feature = "ilp")]
mod backend;

/// Which linearisation of the work-conserving constraints to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintForm {
    /// `W * I * H` short rows (eqs. 34, 37).
    Short,
    /// `W * H` long rows per unit type (eqs. 33, 36).
    Long,
}

impl ConstraintForm {
    /// The names accepted by [`std::str::FromStr`], as on the command line.
    pub const NAMES: [&'static str; 2] = ["short", "long"];
}

impl std::str::FromStr for ConstraintForm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "short" => Ok(ConstraintForm::Short),
            "long" => Ok(ConstraintForm::Long),
            other => Err(format!("`{other}` is not one of short, long")),
        }
    }
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
    /// A flag that interrupts HiGHS's branch and bound once set (Ctrl-C): the outcome is
    /// then the best point and the dual bound so far, as at a time limit.
    pub stop: Option<StopFlag>,
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
    /// True when HiGHS stopped because [`IlpOptions::stop`] was set.
    pub interrupted: bool,
    /// False when the presolved run failed and HiGHS ran again without presolve: then
    /// `optimal` and `dual_bound` are HiGHS's claims only (HiGHS 1.15 without presolve
    /// has proven wrong optima, `docs/idle-bound.md`) and [`solve_instance`] does not
    /// take them as an upper bound; the schedule is still re-checked.
    pub presolved: bool,
}

/// Estimated model size: (binary variables, work-conserving non-zeros), saturating.
pub fn model_size(inst: &Instance, horizon: u64, form: ConstraintForm) -> (u64, u64) {
    let (w, i) = (inst.warps as u64, inst.len() as u64);
    let window = horizon.saturating_add(1).saturating_sub(i);
    let wiw = w.saturating_mul(i).saturating_mul(window);
    let vars = wiw.saturating_add(horizon.saturating_mul(2));
    let nz = match form {
        ConstraintForm::Short => wiw.saturating_mul(window.saturating_mul(2).saturating_add(1)),
        ConstraintForm::Long => wiw.saturating_mul(window).saturating_add(w.saturating_mul(horizon)),
    };
    (vars, nz)
}

/// Time HiGHS is predicted to need to take in and presolve a model with this many
/// (estimated) non-zeros: about 100 ns each on the 2-core reference machine (an
/// over-estimate of non-zeros makes it conservative). HiGHS cannot be interrupted during
/// presolve, so a model predicted to need more than the time left is not started.
pub fn setup_time(inst: &Instance, horizon: u64, form: ConstraintForm) -> Duration {
    Duration::from_nanos(model_size(inst, horizon, form).1.saturating_mul(100))
}

/// Refuses models that would not fit in memory, naming the field to change.
pub fn check_size(inst: &Instance, horizon: u64, form: ConstraintForm) -> Result<(), TooLarge> {
    let (vars, nz) = model_size(inst, horizon, form);
    if vars > MAX_VARIABLES || nz > MAX_NONZEROS {
        // The sizes saturate: say "more than" rather than print u64::MAX.
        let count = |n: u64| if n == u64::MAX { format!("more than {}", u64::MAX) } else { n.to_string() };
        let (vars, nz) = (count(vars), count(nz));
        return Err(TooLarge {
            field: "warps".into(),
            value: inst.warps.to_string(),
            reason: format!(
                "the ILP for {} warps x {} instructions x {horizon} cycles would have {vars} binary variables and {nz} non-zeros (limits {MAX_VARIABLES} and {MAX_NONZEROS}); use the search method, the closed-form bounds or the approximation",
                inst.warps,
                inst.len()
            ),
        });
    }
    Ok(())
}

/// Solves `inst` with the ILP and returns the common [`Outcome`]: the ILP's schedule
/// (or, if HiGHS found none in time, the warm-start schedule), re-checked; as upper
/// bound HiGHS's dual bound when `opts.horizon` is at least the safe horizon, else the
/// safe horizon (a bound proven within a shorter horizon proves nothing about `T^(W)`).
/// When HiGHS had to run without presolve ([`IlpOutcome::presolved`]) its dual bound is
/// not trusted: the upper bound is the safe horizon, `ilp_stats.presolve` is false and
/// `ilp_stats.optimal` false (`solve --method ilp` then runs the exact search too).
pub fn solve_instance(inst: &Instance, opts: &IlpOptions) -> Result<Outcome, Error> {
    outcome_of(inst, opts, solve(inst, opts)?)
}

/// The outcome of one ILP run: its schedule re-checked, its upper end HiGHS's dual bound
/// when the run was presolved and the horizon covers the safe one, else the safe horizon.
pub(crate) fn outcome_of(inst: &Instance, opts: &IlpOptions, out: IlpOutcome) -> Result<Outcome, Error> {
    let horizon = opts.horizon;
    let schedule = match (out.schedule, &opts.start) {
        (Some(s), _) => s,
        (None, Some(s)) if s.makespan() <= horizon => s.clone(),
        _ => return Err(SolverError::NoSchedule { horizon }.into()),
    };
    let claimed = out.makespan;
    let witness = Witness::check(inst, "ilp", schedule, claimed)?;
    let safe = safe_horizon(inst);
    let upper = if horizon >= safe && out.presolved { out.dual_bound.min(safe) } else { safe };
    let stop = match (out.optimal, out.interrupted) {
        (true, _) => Stop::Completed,
        (false, true) => Stop::Interrupted,
        (false, false) => Stop::TimeLimit,
    };
    let stats = IlpStats { variables: out.variables, rows: out.rows, makespan: out.makespan, optimal: out.optimal && out.presolved, presolve: out.presolved };
    Ok(Outcome::new(witness, upper, stop, Stats { search: None, ilp: Some(stats) })?)
}

/// Builds and solves the ILP of `inst` over `opts.horizon` cycles.
///
/// HiGHS's presolve occasionally returns a point that violates rows ("MIP solver
/// claims optimality, but with ... infeasibilities", seen on `CCCLC`, W = 2, sigma 2/2,
/// long form); the model is then solved again with presolve off.
pub fn solve(inst: &Instance, opts: &IlpOptions) -> Result<IlpOutcome, Error> {
    let started = Instant::now();
    if opts.horizon < inst.len() as u64 {
        return Err(InputError::new("horizon", opts.horizon, format!("shorter than the kernel ({} instructions)", inst.len())).into());
    }
    check_size(inst, opts.horizon, opts.form)?;
    solve_checked(inst, opts, started)
}

#[cfg(feature = "ilp")]
fn solve_checked(inst: &Instance, opts: &IlpOptions, started: Instant) -> Result<IlpOutcome, Error> {
    match backend::solve_once(inst, opts, started, true) {
        Err(Error::Solver(_)) => backend::solve_once(inst, opts, started, false),
        other => other,
    }
}

/// Without the `ilp` feature there is no HiGHS: the method is refused as an input error
/// (exit 2), naming the option.
#[cfg(not(feature = "ilp"))]
fn solve_checked(_: &Instance, _: &IlpOptions, _: Instant) -> Result<IlpOutcome, Error> {
    Err(InputError::option(
        "method",
        "ilp",
        "this build of gpu-makespan has no ILP solver (built without the `ilp` feature, which needs HiGHS); use the search method",
    )
    .into())
}

#[cfg(all(test, feature = "ilp"))]
mod tests {
    use super::*;
    use crate::model::checker::check;

    /// A flag set before the solve interrupts HiGHS at its first branch-and-bound check:
    /// the outcome says so, is not optimal, and its dual bound (a bound still, as at a
    /// time limit) is not below the optimum the search finds.
    #[test]
    fn a_set_stop_flag_interrupts_the_ilp() {
        let inst = Instance::new("LLCLCCLCLLCC", 6, 1, 2).unwrap();
        let stop = StopFlag::new();
        stop.set();
        let opts = IlpOptions {
            form: ConstraintForm::Short,
            horizon: safe_horizon(&inst),
            time_limit: None,
            symmetry_breaking: true,
            start: None,
            stop: Some(stop),
        };
        let out = solve(&inst, &opts).unwrap();
        let exact = crate::exact::solve::solve(&inst, &crate::exact::solve::SolveOptions::default()).unwrap();
        assert!(out.interrupted && !out.optimal, "{out:?}");
        let exact = exact.outcome;
        assert_eq!(exact.lower_bound(), exact.upper_bound());
        assert!(out.dual_bound >= exact.upper_bound(), "{} < {}", out.dual_bound, exact.upper_bound());
    }

    /// A run without presolve says so, and its outcome does not take HiGHS's optimum as
    /// the upper bound (the safe horizon instead), nor call it optimal.
    #[test]
    fn a_run_without_presolve_is_not_trusted() {
        let inst = Instance::new("LLC", 3, 1, 1).unwrap();
        let opts = IlpOptions { form: ConstraintForm::Short, horizon: safe_horizon(&inst), time_limit: None, symmetry_breaking: true, start: None, stop: None };
        let run = backend::solve_once(&inst, &opts, Instant::now(), false).unwrap();
        assert!(!run.presolved && run.optimal, "{run:?}");
        let out = outcome_of(&inst, &opts, run).unwrap();
        let stats = out.stats.ilp.unwrap();
        assert!(!stats.presolve && !stats.optimal);
        assert_eq!(out.upper_bound(), safe_horizon(&inst));
        assert!(backend::solve_once(&inst, &opts, Instant::now(), true).unwrap().presolved);
    }

    fn run(k: &str, w: i64, sl: i64, sc: i64, form: ConstraintForm, horizon: Option<u64>) -> u64 {
        let inst = Instance::new(k, w, sl, sc).unwrap();
        let opts = IlpOptions {
            form,
            horizon: horizon.unwrap_or_else(|| safe_horizon(&inst)),
            time_limit: None,
            symmetry_breaking: true,
            start: None,
            stop: None,
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
