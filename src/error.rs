//! Errors the tool reports to its users.
//!
//! Every error caused by the input names the offending field and value in one line; the
//! CLI maps [`Error::Input`] and [`Error::TooLarge`] to exit code 2 and every other
//! variant to exit code 1. [`Error::Inconsistent`] is a bug in the tool and is never
//! swallowed: no caller matches it away.

use thiserror::Error;

/// Bad input: a field of an instance or task-set file (or of the command line) whose
/// value the model cannot accept. `Display` is one line naming the field and the value.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("invalid {field}{}: {reason}", if value.is_empty() { String::new() } else { format!(" = {value}") })]
pub struct InputError {
    /// The field, e.g. `warps`, `kernel`, `sm.load_store_units`.
    pub field: String,
    /// The value as the user wrote it; empty where there is none to show (a missing
    /// field, a flag, two fields that exclude each other): then `Display` leaves out
    /// `= value`.
    pub value: String,
    /// Why it is refused, and where useful what to do instead.
    pub reason: String,
    /// Whether `field` names an option of the caller (a command-line flag, which the
    /// binary spells `--field`) rather than a field of an input file. The library never
    /// spells a flag itself.
    pub option: bool,
}

impl InputError {
    /// Builds an error for `field` holding `value`, refused because of `reason`. A value
    /// longer than `MAX_ECHO` characters is shortened (its length is said instead).
    pub fn new(field: impl Into<String>, value: impl ToString, reason: impl Into<String>) -> Self {
        InputError { field: field.into(), value: shorten(&value.to_string()), reason: reason.into(), option: false }
    }

    /// [`InputError::new`] for an option of the caller named `name` (e.g. `warps`,
    /// `sigma_l/sigma_c`), not a field of an input file.
    pub fn option(name: impl Into<String>, value: impl ToString, reason: impl Into<String>) -> Self {
        InputError { option: true, ..InputError::new(name, value, reason) }
    }

    /// The same error, about an option of the caller.
    pub fn as_option(self) -> Self {
        InputError { option: true, ..self }
    }

    /// The same error with an option's name as `spell` writes it (each name of a
    /// `/`-separated list); errors about file fields are unchanged.
    pub fn spell_option(self, spell: impl Fn(&str) -> String) -> Self {
        if !self.option {
            return self;
        }
        let field = self.field.split('/').map(&spell).collect::<Vec<_>>().join("/");
        InputError { field, option: false, ..self }
    }

    /// The same error with its field renamed (e.g. `kernel` -> `kernels[2].instructions`):
    /// a field of a file, even where the error was about an option.
    pub fn in_field(self, field: impl Into<String>) -> Self {
        InputError { field: field.into(), option: false, ..self }
    }
}

/// `n` and the word, plural unless `n` is 1: `1 barrier`, `3 barriers`.
pub(crate) fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A valid instance that one method cannot handle within its size limits (the model
/// would not fit in memory, or states do not fit the method's encoding). Another method
/// or the closed-form bounds may still answer; `Display` names the field to change.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("too large: {field} = {value}: {reason}")]
pub struct TooLarge {
    /// The field whose size is the problem (e.g. `warps`).
    pub field: String,
    /// Its value.
    pub value: String,
    /// Which limit is exceeded, and what to use instead.
    pub reason: String,
}

/// An internal inconsistency: two independent computations that must agree did not.
/// Always a bug in the tool; never hidden, never turned into a result.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Inconsistency {
    /// A schedule produced by a solver was rejected by the independent checker.
    #[error("the {method} schedule was rejected by the checker: {violation}")]
    Rejected {
        /// Which method produced the schedule.
        method: String,
        /// The checker's verdict.
        violation: Violation,
    },
    /// A solver's reported value differs from its checked schedule.
    #[error("the {method} reported {reported} but its checked schedule has makespan {checked}")]
    Misreported {
        /// Which method.
        method: String,
        /// What it reported.
        reported: u64,
        /// What the checker measured.
        checked: u64,
    },
    /// Two methods (or two computations of one schedule) disagree.
    #[error("methods disagree: {0}")]
    Disagreement(String),
}

/// The first rule of the model a schedule breaks, as found by the independent checker
/// (`model::checker`), described in one line by `Display`. Defined here, not in the
/// checker, so that errors depend on nothing else in the library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation(pub(crate) String);

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

impl Violation {
    /// The description, for tests that look for a rule's name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A failure of the MILP solver (HiGHS). Time limits are not failures: they end with
/// bounds and a status.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SolverError {
    /// The model could not be handed to HiGHS, or HiGHS returned an error code.
    #[error("HiGHS refused the model: {0}")]
    Backend(String),
    /// HiGHS ended with a status that is neither an optimum nor a limit.
    #[error("HiGHS ended with status {0}")]
    Status(String),
    /// HiGHS called a model infeasible that always has a solution (the safe horizon
    /// holds every work-conserving schedule).
    #[error("HiGHS reported the model infeasible although a schedule always fits the safe horizon")]
    Infeasible,
    /// HiGHS claimed optimality but returned no feasible point.
    #[error("HiGHS claimed optimality without a feasible point")]
    NoFeasiblePoint,
    /// Neither HiGHS nor the start schedule gave a schedule within the horizon.
    #[error("HiGHS found no schedule within the time limit and no start schedule fits horizon {horizon}")]
    NoSchedule {
        /// The horizon of the model.
        horizon: u64,
    },
}

/// Every failure of a library call.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum Error {
    /// The input cannot be accepted (exit code 2).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The instance is too large for the chosen method (exit code 2).
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The MILP solver failed (not a time limit: those end with bounds and a status).
    #[error("ILP solver failure: {0}")]
    Solver(#[from] SolverError),
    /// A bug in the tool: see [`Inconsistency`] (exit code 1).
    #[error("internal error: {0}")]
    Inconsistent(#[from] Inconsistency),
}

impl Error {
    /// Whether the error is the user's to fix (bad or too large input): exit code 2.
    pub fn is_input(&self) -> bool {
        matches!(self, Error::Input(_) | Error::TooLarge(_))
    }

    /// The same error with an option's name as `spell` writes it (see
    /// [`InputError::spell_option`]).
    pub fn spell_option(self, spell: impl Fn(&str) -> String) -> Self {
        match self {
            Error::Input(e) => Error::Input(e.spell_option(spell)),
            other => other,
        }
    }
}

/// Longest value echoed whole in an error message.
pub(crate) const MAX_ECHO: usize = 60;

/// `text` itself if short, else its start, `...` and its length; always one line.
pub(crate) fn shorten(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    let n = one_line.chars().count();
    if n <= MAX_ECHO {
        return one_line;
    }
    format!("{}... ({n} characters)", one_line.chars().take(MAX_ECHO).collect::<String>())
}

/// `value` as a positive integer, or an [`InputError`] on `field`.
pub(crate) fn positive(value: i64, field: &str) -> Result<u64, InputError> {
    u64::try_from(value).ok().filter(|&v| v > 0).ok_or_else(|| InputError::new(field, value, "must be a positive integer"))
}
