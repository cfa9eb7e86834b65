//! The one result type of every makespan method.
//!
//! An [`Outcome`] holds only valid data: a [`Witness`] (a schedule that passed the
//! independent checker, so its makespan is a proven lower bound on `T^(W)`), a proven
//! upper bound that is never below it, why the method stopped, and statistics.
//! [`Outcome::exact`] is derived (lower = upper), never stored.

use crate::error::Inconsistency;
use crate::model::checker::check;
use crate::model::instance::Instance;
use crate::model::schedule::Schedule;
use serde::Serialize;

/// A schedule that passed [`crate::model::checker::check`]; only [`Witness::check`] makes one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    schedule: Schedule,
    makespan: u64,
}

impl Witness {
    /// Re-checks `schedule` for `inst`. `claimed`, if given, is the makespan the method
    /// reported, which must equal the checked one. `method` names the producer in errors.
    pub fn check(inst: &Instance, method: &str, schedule: Schedule, claimed: Option<u64>) -> Result<Witness, Inconsistency> {
        let makespan = check(inst, &schedule).map_err(|violation| Inconsistency::Rejected { method: method.into(), violation })?;
        match claimed {
            Some(reported) if reported != makespan => {
                Err(Inconsistency::Misreported { method: method.into(), reported, checked: makespan })
            }
            _ => Ok(Witness { schedule, makespan }),
        }
    }

    /// The checked makespan: a proven lower bound on `T^(W)`.
    pub fn makespan(&self) -> u64 {
        self.makespan
    }

    /// The checked schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }
}

/// Why a method stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The method ran to its end (for the exact methods: optimality proven within
    /// their model; for the heuristic: all rollouts done).
    Completed,
    /// The time limit stopped it.
    TimeLimit,
    /// The limit on stored states stopped it.
    MaxStates,
    /// The memory limit (bytes) stopped it.
    MaxMemory,
    /// An interrupt (Ctrl-C) stopped it.
    Interrupted,
}

impl Stop {
    /// The `stopped_by` value of `solve --json`: `None` when completed.
    pub fn stopped_by(self) -> Option<&'static str> {
        match self {
            Stop::Completed => None,
            Stop::TimeLimit => Some("time_limit"),
            Stop::MaxStates => Some("max_states"),
            Stop::MaxMemory => Some("max_memory"),
            Stop::Interrupted => Some("interrupted"),
        }
    }
}

/// Statistics of a search run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SearchStats {
    /// States expanded.
    pub expansions: u64,
    /// States stored at the end.
    pub stored_states: usize,
    /// Longest heuristic rollout (first incumbent).
    pub initial_lower_bound: u64,
    /// Longest schedule found by the beam thread (0 when it found none or did not run).
    pub beam_lower_bound: u64,
    /// States solved by the dense programme ([`crate::exact::dense`]) when it gave the result
    /// (then every one of them was expanded once); 0 when the branch and bound did.
    pub dense_states: u64,
}

/// Size and result of an ILP run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct IlpStats {
    /// Binary variables.
    pub variables: usize,
    /// Rows.
    pub rows: usize,
    /// Objective found by the ILP (`null` if none).
    pub makespan: Option<u64>,
    /// Whether HiGHS proved optimality (within the horizon).
    pub optimal: bool,
}

/// Statistics of whichever methods ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// When the search ran.
    pub search: Option<SearchStats>,
    /// When the ILP ran.
    pub ilp: Option<IlpStats>,
}

/// The result of one method on one instance.
#[derive(Debug, Clone)]
pub struct Outcome {
    witness: Witness,
    upper_bound: u64,
    stop: Stop,
    /// Statistics.
    pub stats: Stats,
}

impl Outcome {
    /// Combines a witness and a proven upper bound; refuses a bound below the witness
    /// (that would be a wrong proof somewhere).
    pub fn new(witness: Witness, upper_bound: u64, stop: Stop, stats: Stats) -> Result<Outcome, Inconsistency> {
        if upper_bound < witness.makespan {
            return Err(Inconsistency::Disagreement(format!(
                "a checked schedule of {} cycles exceeds the proven upper bound {upper_bound}",
                witness.makespan
            )));
        }
        Ok(Outcome { witness, upper_bound, stop, stats })
    }

    /// The longest checked schedule found: a proven lower bound on `T^(W)`.
    pub fn lower_bound(&self) -> u64 {
        self.witness.makespan
    }

    /// A proven upper bound on `T^(W)`.
    pub fn upper_bound(&self) -> u64 {
        self.upper_bound
    }

    /// `T^(W)` is known: the bounds meet.
    pub fn exact(&self) -> bool {
        self.witness.makespan == self.upper_bound
    }

    /// Why the method stopped.
    pub fn stop(&self) -> Stop {
        self.stop
    }

    /// The witness schedule.
    pub fn witness(&self) -> &Witness {
        &self.witness
    }

    /// The same outcome with its upper bound lowered to `upper` where that is smaller (a
    /// proven upper bound from elsewhere). Fails if the witness exceeds `upper`.
    pub fn capped(self, upper: u64) -> Result<Outcome, Inconsistency> {
        let Outcome { witness, upper_bound, stop, stats } = self;
        Outcome::new(witness, upper_bound.min(upper), stop, stats)
    }

    /// Merges two outcomes for the same instance: the longer witness and the smaller
    /// upper bound; the stop reason stays `self`'s (the primary method's). Fails if one's
    /// witness exceeds the other's bound.
    pub fn merge(self, other: Outcome) -> Result<Outcome, Inconsistency> {
        if self.lower_bound() > other.upper_bound || other.lower_bound() > self.upper_bound {
            return Err(Inconsistency::Disagreement(format!(
                "[{}, {}] vs [{}, {}]",
                self.lower_bound(),
                self.upper_bound,
                other.lower_bound(),
                other.upper_bound
            )));
        }
        let stop = self.stop;
        let stats = Stats { search: self.stats.search.or(other.stats.search), ilp: self.stats.ilp.or(other.stats.ilp) };
        let upper = self.upper_bound.min(other.upper_bound);
        let witness = if other.lower_bound() > self.lower_bound() { other.witness } else { self.witness };
        Outcome::new(witness, upper, stop, stats)
    }
}
