//! The one budget every piece of work runs within: a time limit (and the deadline it
//! sets once the work starts), a memory limit, and a stop flag that an interrupt
//! (Ctrl-C) sets. Created once from the command line (or a sweep job) with the defaults
//! defined here, and handed down; the parts of it that each stage may use are named in
//! [`Part`], the one place where the time is split.
//!
//! A command that runs many solves may also have an *overall* deadline (its
//! `--total-time-limit`): every restarted solve ends by it, and
//! [`Budget::overall_over`] tells the command to start no more.
//!
//! Guarantees: a deadline that would not fit in an [`Instant`] (a time limit of
//! centuries) is no deadline, never a panic; [`Budget::is_over`] is true once the
//! deadline has passed or the stop flag is set, and stays true.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::watch::Watch;

/// The default memory limit of a solve's state tables: 2 GiB.
pub const DEFAULT_MAX_MEMORY: usize = 2 << 30;

/// The default time limit of each solve of the commands that run many (approx,
/// converge, rta from instructions, sweep jobs): 10 s.
pub const DEFAULT_TIME_LIMIT_PER_SOLVE: Duration = Duration::from_secs(10);

/// The default time limit of `makespan solve` (the whole command, wall clock): 60 s.
/// A solve it stops ends with its proven interval and status `time_limit`.
pub const DEFAULT_TIME_LIMIT_SOLVE: Duration = Duration::from_secs(60);

/// The default time limit of each ILP solve of the constraint-form experiment: 60 s.
pub const DEFAULT_TIME_LIMIT_PER_ILP: Duration = Duration::from_secs(60);

/// Where a budget reads the time: the system's monotonic clock, or a manual clock that
/// moves only when told to (for tests of time limits that must not depend on the
/// machine's speed). Cloning shares a manual clock.
#[derive(Debug, Clone, Default)]
pub struct Clock(Option<Arc<ManualTime>>);

/// A manual clock's start and how far it has been moved (nanoseconds).
#[derive(Debug)]
struct ManualTime {
    start: Instant,
    elapsed_ns: AtomicU64,
}

impl Clock {
    /// The system's monotonic clock ([`Instant::now`]).
    pub fn system() -> Clock {
        Clock(None)
    }

    /// A clock that stands still until [`Clock::advance`] moves it.
    pub fn manual() -> Clock {
        Clock(Some(Arc::new(ManualTime { start: Instant::now(), elapsed_ns: AtomicU64::new(0) })))
    }

    /// Moves a manual clock forward by `by` (the system clock cannot be moved: no effect).
    pub fn advance(&self, by: Duration) {
        if let Some(m) = &self.0 {
            m.elapsed_ns.fetch_add(by.as_nanos().min(u64::MAX as u128) as u64, Ordering::SeqCst);
        }
    }

    /// The time now.
    pub fn now(&self) -> Instant {
        match &self.0 {
            None => Instant::now(),
            Some(m) => m.start + Duration::from_nanos(m.elapsed_ns.load(Ordering::SeqCst)),
        }
    }

    /// `now + limit`, or no deadline when there is no limit or it does not fit an
    /// [`Instant`].
    fn deadline_after(&self, limit: Option<Duration>) -> Option<Instant> {
        limit.and_then(|l| self.now().checked_add(l))
    }
}

/// A flag shared by everything that must stop when it is set (an interrupt). Cloning
/// shares it.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not set.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Sets the flag: every budget that holds it is over from now on.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The share of the time left that one stage of a solve may use. Every split of the
/// time is one variant here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Building the per-state bounds (end games, jam automata): a quarter; where they
    /// are not built in time the bounds are weaker, never wrong.
    BoundBuilding,
    /// The search's initial rollouts: a quarter.
    Rollouts,
    /// The dense programme, after a short branch and bound: three quarters.
    Dense,
    /// The ILP of `--method both`, before the search: a half.
    IlpOfBoth,
    /// The search of `--method both`, after the ILP: all that is left, at least a
    /// quarter of the whole limit (see [`Budget::at_least`]).
    SearchOfBoth,
    /// The priority rules of the heuristic rollouts: a third.
    PriorityRules,
    /// The priority rules on the search's beam thread, before its beams: a quarter.
    BeamThreadRules,
    /// The beams of a search on a rayon worker, run before its branch and bound on the
    /// same thread (no second thread there): a half.
    InlineBeams,
}

impl Part {
    /// The fraction of the time left, as numerator and denominator.
    pub fn fraction(self) -> (u32, u32) {
        match self {
            Part::BoundBuilding | Part::Rollouts | Part::BeamThreadRules => (1, 4),
            Part::PriorityRules => (1, 3),
            Part::Dense => (3, 4),
            Part::IlpOfBoth | Part::InlineBeams => (1, 2),
            Part::SearchOfBoth => (1, 1),
        }
    }
}

/// The time, memory and stop flag a piece of work runs within.
#[derive(Debug, Clone)]
pub struct Budget {
    time_limit: Option<Duration>,
    deadline: Option<Instant>,
    overall: Option<Instant>,
    max_memory: usize,
    stop: StopFlag,
    watch: Option<Arc<Watch>>,
    clock: Clock,
}

impl Default for Budget {
    /// No time limit, `DEFAULT_MAX_MEMORY`, a stop flag of its own.
    fn default() -> Self {
        Budget::new(None, DEFAULT_MAX_MEMORY)
    }
}

impl Budget {
    /// The default memory limit of a solve's state tables: 2 GiB.
    pub const DEFAULT_MAX_MEMORY: usize = DEFAULT_MAX_MEMORY;
    /// The default time limit of each solve of the commands that run many (approx,
    /// converge, rta from instructions, sweep jobs): 10 s.
    pub const DEFAULT_TIME_LIMIT_PER_SOLVE: Duration = DEFAULT_TIME_LIMIT_PER_SOLVE;
    /// The default time limit of `makespan solve` (the whole command, wall clock): 60 s.
    pub const DEFAULT_TIME_LIMIT_SOLVE: Duration = DEFAULT_TIME_LIMIT_SOLVE;
    /// The default time limit of each ILP solve of the constraint-form experiment: 60 s.
    pub const DEFAULT_TIME_LIMIT_PER_ILP: Duration = DEFAULT_TIME_LIMIT_PER_ILP;
}

impl Budget {
    /// A budget of `time_limit` from now (none: no deadline) and `max_memory` bytes, with
    /// a stop flag of its own.
    pub fn new(time_limit: Option<Duration>, max_memory: usize) -> Budget {
        Budget::on_clock(Clock::system(), time_limit, max_memory)
    }

    /// [`Budget::new`] on `clock` (every deadline of the budget and of the budgets made
    /// from it is read on it).
    pub fn on_clock(clock: Clock, time_limit: Option<Duration>, max_memory: usize) -> Budget {
        let deadline = clock.deadline_after(time_limit);
        Budget { time_limit, deadline, overall: None, max_memory, stop: StopFlag::new(), watch: None, clock }
    }

    /// The clock the budget reads the time on.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The same budget, stopped by `stop` (e.g. the interrupt flag of the program).
    pub fn with_stop(self, stop: StopFlag) -> Budget {
        Budget { stop, ..self }
    }

    /// The same budget, reporting its work's proven interval to `watch` (for progress).
    pub fn watched(self, watch: Arc<Watch>) -> Budget {
        Budget { watch: Some(watch), ..self }
    }

    /// The same budget without a watch (for solves of other instances than the one
    /// watched, such as the `T^(y)` of the approximation).
    pub fn unwatched(&self) -> Budget {
        Budget { watch: None, ..self.clone() }
    }

    /// Reports a checked schedule of `cycles` to the watch, if any.
    pub fn found(&self, cycles: u64) {
        if let Some(w) = &self.watch {
            w.lower_is_at_least(cycles);
        }
    }

    /// Reports a proven upper bound to the watch, if any.
    pub fn proved(&self, upper: u64) {
        if let Some(w) = &self.watch {
            w.upper_is_at_most(upper);
        }
    }

    /// The same limits with the time limit starting now (for each of many solves that
    /// get the limit each), sharing the stop flag; never past the overall deadline.
    pub fn restarted(&self) -> Budget {
        self.with_time_limit(self.time_limit)
    }

    /// The same budget with `time_limit` (from now) instead, never past the overall
    /// deadline.
    pub fn with_time_limit(&self, time_limit: Option<Duration>) -> Budget {
        Budget { time_limit, deadline: earlier(self.clock.deadline_after(time_limit), self.overall), ..self.clone() }
    }

    /// The same budget with an overall limit of `total` from now (none: no overall
    /// limit) for a command that runs many solves: the current deadline and every
    /// restarted one end by it; never past an overall deadline the budget already has.
    pub fn with_overall_limit(&self, total: Option<Duration>) -> Budget {
        let overall = earlier(self.clock.deadline_after(total), self.overall);
        Budget { overall, deadline: earlier(self.deadline, overall), ..self.clone() }
    }

    /// Whether a command that runs many solves must start no more: its overall
    /// deadline has passed or the stop flag is set. (A budget without an overall limit
    /// is over only when interrupted.)
    pub fn overall_over(&self) -> bool {
        self.interrupted() || self.overall.is_some_and(|d| self.clock.now() >= d)
    }

    /// The time limit the budget was made with.
    pub fn time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    /// When the time runs out, if ever.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The memory limit in bytes.
    pub fn max_memory(&self) -> usize {
        self.max_memory
    }

    /// The time left (zero once past the deadline), if there is a deadline.
    pub fn time_left(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(self.clock.now()))
    }

    /// The stop flag (shared with every budget made from this one).
    pub(crate) fn stop_flag(&self) -> &StopFlag {
        &self.stop
    }

    /// Whether the stop flag is set (an interrupt).
    pub fn interrupted(&self) -> bool {
        self.stop.is_set()
    }

    /// Whether the deadline has passed.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| self.clock.now() >= d)
    }

    /// Whether the work must stop: the deadline has passed or the stop flag is set.
    pub fn is_over(&self) -> bool {
        self.interrupted() || self.past_deadline()
    }

    /// The budget of one stage: `part` of the time left from now, the same memory and
    /// stop flag.
    pub fn part(&self, part: Part) -> Budget {
        let (num, den) = part.fraction();
        let deadline = match self.time_left() {
            Some(left) if num < den => self.clock.deadline_after(Some(left * num / den)),
            _ => self.deadline,
        };
        Budget { deadline, ..self.clone() }
    }

    /// The same budget, ending `reserve` earlier (for work that must follow it, such as
    /// re-checking a witness), but never before half of the time left.
    pub fn keeping_back(&self, reserve: Duration) -> Budget {
        let deadline = self.time_left().and_then(|left| self.clock.deadline_after(Some(left - reserve.min(left / 2))));
        Budget { deadline: deadline.or(self.deadline), ..self.clone() }
    }

    /// The same budget, but ending no later than `most` from now: the earlier of its
    /// deadline and now + `most`.
    pub fn at_most(&self, most: Duration) -> Budget {
        Budget { deadline: earlier(self.deadline, self.clock.deadline_after(Some(most))), ..self.clone() }
    }

    /// The same budget, but ending no earlier than `least` from now: the later of its
    /// deadline and now + `least` (no deadline stays no deadline), but never past the
    /// overall deadline.
    pub fn at_least(&self, least: Duration) -> Budget {
        let floor = self.clock.deadline_after(Some(least));
        let deadline = match (self.deadline, floor) {
            (Some(d), Some(f)) => Some(d.max(f)),
            (d, _) => d,
        };
        Budget { deadline: earlier(deadline, self.overall), ..self.clone() }
    }

    /// The memory the dense programme's table may take: half of the memory limit (the
    /// branch and bound that runs after it, if it does not end, gets the whole limit).
    pub fn dense_table_memory(&self) -> usize {
        self.max_memory / 2
    }

    /// The budget of one of `at_once` solves that run at the same time and share the
    /// memory: `max_memory / at_once` each (`at_once` 0 counts as 1).
    pub fn sharing_memory(&self, at_once: usize) -> Budget {
        Budget { max_memory: self.max_memory / at_once.max(1), ..self.clone() }
    }
}

/// The earlier of two deadlines (none is never).
fn earlier(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_limit_is_no_deadline_not_a_panic() {
        let b = Budget::new(Some(Duration::from_secs_f64(1e19)), DEFAULT_MAX_MEMORY);
        assert!(b.deadline().is_none());
        assert!(!b.is_over());
        assert_eq!(b.time_limit(), Some(Duration::from_secs_f64(1e19)));
    }

    /// A budget of `secs` on a clock that stands still (and that clock).
    fn still(secs: u64) -> (Budget, Clock) {
        let clock = Clock::manual();
        (Budget::on_clock(clock.clone(), Some(Duration::from_secs(secs)), 1 << 20), clock)
    }

    #[test]
    fn parts_split_the_time_left() {
        let (b, _) = still(100);
        assert_eq!(b.part(Part::BoundBuilding).time_left(), Some(Duration::from_secs(25)));
        assert_eq!(b.part(Part::Dense).time_left(), Some(Duration::from_secs(75)));
        assert_eq!(b.part(Part::SearchOfBoth).deadline(), b.deadline());
        assert!(Budget::default().part(Part::Dense).deadline().is_none());
    }

    #[test]
    fn keeping_back_never_takes_more_than_half() {
        let (b, clock) = still(10);
        assert_eq!(b.keeping_back(Duration::from_secs(100)).time_left(), Some(Duration::from_secs(5)));
        assert_eq!(b.keeping_back(Duration::from_secs(1)).time_left(), Some(Duration::from_secs(9)));
        clock.advance(Duration::from_secs(8));
        assert_eq!(b.keeping_back(Duration::from_secs(100)).time_left(), Some(Duration::from_secs(1)));
    }

    #[test]
    fn the_stop_flag_is_shared_by_parts_and_restarts() {
        let flag = StopFlag::new();
        let b = Budget::new(None, 1 << 20).with_stop(flag.clone());
        let part = b.part(Part::Dense);
        let again = b.restarted();
        assert!(!part.is_over() && !again.is_over());
        flag.set();
        assert!(part.is_over() && again.is_over() && b.interrupted());
        assert!(!part.past_deadline());
    }

    #[test]
    fn the_overall_limit_caps_every_restart() {
        let (b, clock) = still(100);
        let b = b.with_overall_limit(Some(Duration::from_secs(2)));
        for budget in [b.clone(), b.restarted(), b.at_least(Duration::from_secs(50)), b.with_time_limit(None)] {
            assert_eq!(budget.time_left(), Some(Duration::from_secs(2)));
        }
        assert!(!b.overall_over());
        clock.advance(Duration::from_secs(1));
        assert_eq!(b.restarted().time_left(), Some(Duration::from_secs(1)));
        assert!(!b.overall_over() && !b.is_over());
        clock.advance(Duration::from_secs(1));
        assert!(b.overall_over() && b.restarted().is_over() && b.is_over());
        let over = b.with_overall_limit(Some(Duration::ZERO));
        assert!(over.overall_over() && over.restarted().is_over());
        let none = Budget::on_clock(clock, Some(Duration::ZERO), 1 << 20);
        assert!(none.is_over() && !none.overall_over());
    }

    #[test]
    fn a_deadline_passes_exactly_when_its_time_is_up() {
        let (b, clock) = still(10);
        clock.advance(Duration::from_millis(9_999));
        assert!(!b.is_over() && !b.past_deadline());
        assert_eq!(b.time_left(), Some(Duration::from_millis(1)));
        clock.advance(Duration::from_millis(1));
        assert!(b.is_over() && b.past_deadline());
        assert_eq!(b.time_left(), Some(Duration::ZERO));
        // Budgets made from it read the same clock.
        assert!(b.at_most(Duration::from_secs(5)).is_over());
        assert!(!b.at_least(Duration::from_secs(5)).is_over());
    }

    #[test]
    fn memory_is_shared_among_solves_at_once() {
        let b = Budget::new(None, 1000 << 20);
        assert_eq!(b.sharing_memory(4).max_memory(), 250 << 20);
        assert_eq!(b.sharing_memory(0).max_memory(), 1000 << 20);
    }
}
