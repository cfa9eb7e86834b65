//! Errors the tool reports to its users.
//!
//! Every error caused by the input names the offending field and value in one line;
//! the CLI maps [`InputError`] to exit code 2.

use thiserror::Error;

/// Bad input: a field of an instance or task-set file (or of the command line) whose
/// value the model cannot accept. `Display` is one line naming the field and the value.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("invalid {field} = {value}: {reason}")]
pub struct InputError {
    /// The field, e.g. `warps`, `kernel`, `sm.load_store_units`.
    pub field: String,
    /// The value as the user wrote it.
    pub value: String,
    /// Why it is refused, and where useful what to do instead.
    pub reason: String,
}

impl InputError {
    /// Builds an error for `field` holding `value`, refused because of `reason`.
    pub fn new(field: impl Into<String>, value: impl ToString, reason: impl Into<String>) -> Self {
        InputError { field: field.into(), value: value.to_string(), reason: reason.into() }
    }
}

/// `value` as a positive integer, or an [`InputError`] on `field`.
pub fn positive(value: i64, field: &str) -> Result<u64, InputError> {
    u64::try_from(value).ok().filter(|&v| v > 0).ok_or_else(|| InputError::new(field, value, "must be a positive integer"))
}

/// Failure of a solver run that is not the user's input.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The input (or a size derived from it) cannot be handled.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The MILP solver failed (not a time limit: those end with a status instead).
    #[error("ILP solver failure: {0}")]
    Solver(String),
    /// A schedule produced by a solver was rejected by the independent checker.
    /// This is a bug in the tool and is never hidden.
    #[error("internal error: the {method} schedule was rejected by the checker: {reason}")]
    Rejected {
        /// Which method produced the schedule.
        method: String,
        /// The checker's verdict.
        reason: String,
    },
    /// Two exact methods disagree. This is a bug in the tool and is never hidden.
    #[error("internal error: exact methods disagree: {0}")]
    Disagreement(String),
}
