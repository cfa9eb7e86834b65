//! The one result type of every makespan method.
//!
//! An [`Outcome`] holds only valid data: a [`Witness`] (a schedule that passed the
//! independent checker, so its makespan is a proven lower bound on `T^(W)`), a proven
//! upper bound that is never below it, why the method stopped, and statistics.
//! [`Outcome::exact`] is derived (lower = upper), never stored.

use crate::error::Inconsistency;
use crate::model::checker::check;
use crate::model::instance::Instance;
use crate::model::interval::Interval;
use crate::model::schedule::Schedule;
use serde::{Deserialize, Serialize};

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
    /// Longest schedule found by the priority rules and beams (the beam thread, or on a
    /// rayon worker with a time limit the same work before the branch and bound; 0 when
    /// they found none or did not run).
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
    /// Whether HiGHS proved optimality (within the horizon): never for a run without
    /// presolve.
    pub optimal: bool,
    /// False when HiGHS's presolved run failed and it ran without presolve: its optimum
    /// and dual bound are then not taken as proven (the upper end is the search's).
    /// Records written before the field read as true.
    #[serde(default = "presolved")]
    pub presolve: bool,
}

/// The default of [`IlpStats::presolve`]: HiGHS always presolved before the field.
fn presolved() -> bool {
    true
}

/// Statistics of whichever methods ran.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// When the search ran.
    pub search: Option<SearchStats>,
    /// When the ILP ran.
    pub ilp: Option<IlpStats>,
}

/// The result of one method on one instance.
///
/// Serialised as `{"interval": {"lower", "upper", "exact"}, "stop", "stats", "cycles"}`
/// (`cycles[w][i]`: the 1-based cycle in which warp `w` issues instruction `i`). Read
/// back, an outcome is checked only for its own consistency (the schedule's makespan is
/// the interval's lower end, the interval is ordered): the instance is not in the
/// record, so [`Outcome::recheck`] re-runs the independent checker once it is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "OutcomeFields", try_from = "OutcomeFields")]
pub struct Outcome {
    witness: Witness,
    upper_bound: u64,
    stop: Stop,
    /// Statistics.
    pub stats: Stats,
}

/// The serialised form of an [`Outcome`].
#[derive(Serialize, Deserialize)]
struct OutcomeFields {
    interval: Interval,
    stop: Stop,
    stats: Stats,
    cycles: Vec<Vec<u64>>,
}

impl From<Outcome> for OutcomeFields {
    fn from(o: Outcome) -> OutcomeFields {
        OutcomeFields { interval: o.interval(), stop: o.stop, stats: o.stats, cycles: o.witness.schedule.cycles }
    }
}

impl TryFrom<OutcomeFields> for Outcome {
    type Error = String;
    fn try_from(f: OutcomeFields) -> Result<Outcome, String> {
        let schedule = Schedule { cycles: f.cycles };
        let makespan = schedule.makespan();
        if makespan != f.interval.lower() {
            return Err(format!("outcome: the schedule's makespan {makespan} is not the interval's lower bound {}", f.interval.lower()));
        }
        Ok(Outcome { witness: Witness { schedule, makespan }, upper_bound: f.interval.upper(), stop: f.stop, stats: f.stats })
    }
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

    /// The proven interval `[lower_bound, upper_bound]` on `T^(W)`.
    pub fn interval(&self) -> Interval {
        Interval::new(self.witness.makespan, self.upper_bound).expect("Outcome::new keeps the witness within the upper bound")
    }

    /// Re-checks the witness schedule against `inst` with the independent checker (for
    /// an outcome read back from a record, whose instance was not stored with it).
    pub fn recheck(&self, inst: &Instance) -> Result<(), Inconsistency> {
        Witness::check(inst, "recorded", self.witness.schedule.clone(), Some(self.witness.makespan)).map(|_| ())
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
