//! Experiments of the paper and of this tool: the approximation (eqs. 42-43), the
//! convergence and constraint-form experiments (Figs. 5-7).

internal! {
    mod approx;
    mod convergence;
    mod csv;
}

pub use approx::{approx, check_x, Approx, NotABound, Row as ApproxRow};
pub use convergence::{
    check_warps_max, compare_constraints, converge, converge_csv, forms_csv, ConvergeRow, ConvergeRun, FormRow, FormRun,
};
pub use csv::table as csv_table;

use crate::budget::Budget;
use serde::{Deserialize, Serialize};

/// How a command that runs many solves ended: every row computed, or stopped early by
/// its overall time limit or an interrupt with the rows finished so far (each of them
/// as proven as when the run completes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Every row was computed.
    #[default]
    Complete,
    /// The overall time limit (`--total-time-limit`) ended the run.
    TotalTimeLimit,
    /// An interrupt ended the run.
    Interrupted,
    /// The next instance was too large to build (e.g. the ILP's model cap): the rows
    /// before it are kept.
    TooLarge,
}

impl RunStatus {
    /// The status of a run that computed every row it was asked for (`complete`), or
    /// else stopped by `budget`'s interrupt or overall limit.
    pub fn of(complete: bool, budget: &Budget) -> RunStatus {
        match (complete, budget.interrupted()) {
            (true, _) => RunStatus::Complete,
            (false, true) => RunStatus::Interrupted,
            (false, false) => RunStatus::TotalTimeLimit,
        }
    }

    /// A note for a run that stopped early (none when complete): what was left out.
    pub fn note(self, left_out: &str) -> Option<String> {
        match self {
            RunStatus::Complete => None,
            RunStatus::TotalTimeLimit => Some(format!("the total time limit ended the run: {left_out} not computed")),
            RunStatus::Interrupted => Some(format!("interrupted: {left_out} not computed")),
            RunStatus::TooLarge => Some(format!("too large: {left_out} not computed")),
        }
    }
}
