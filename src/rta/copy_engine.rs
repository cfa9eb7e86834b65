//! The copy engine of a simulated run (rules C1-C4): one FIFO queue, served one copy at a
//! time, each to completion. Used by the nominal per-SM run ([`crate::rta::sms`]) and by
//! the reference simulator ([`crate::rta::simulator`]); the analysis bounds it in
//! [`crate::rta::copies`].

pub use crate::rta::copies::Direction;
use crate::rta::time::Ticks;

/// One copy of a simulated run, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CopyRun {
    /// Index of the job in the sequence the run was given.
    pub job: usize,
    /// Its copy in or its copy out.
    #[serde(skip)]
    pub direction: Direction,
    /// Start on the copy engine.
    pub start: Ticks,
    /// Completion.
    pub end: Ticks,
}

/// A copy waiting in the queue: when it entered, its place among copies entering at the
/// same time (lower first), and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Waiting {
    entry: Ticks,
    tie: u64,
    job: usize,
    direction: Direction,
    time: Ticks,
}

/// The copy engine's queue and when it is next free.
#[derive(Debug, Clone, Default)]
pub struct CopyEngine {
    free_at: Ticks,
    waiting: std::collections::BTreeSet<Waiting>,
}

impl CopyEngine {
    /// A copy of `time` ticks entering the queue at `entry` (copies entering at the same
    /// time in increasing `tie`).
    pub fn enter(&mut self, entry: Ticks, tie: u64, job: usize, direction: Direction, time: Ticks) {
        self.waiting.insert(Waiting { entry, tie, job, direction, time });
    }

    /// When the next copy starts if no other enters before then (`None`: none waits).
    pub fn next_start(&self) -> Option<Ticks> {
        self.waiting.first().map(|w| w.entry.max(self.free_at))
    }

    /// Starts the queue's head if it starts by `t`, and returns its run. The caller must
    /// have entered every copy that enters by then (a completion that lets a stream go
    /// on is known once its copy has started): then the head is the real one.
    pub fn start_next(&mut self, t: Ticks) -> Option<CopyRun> {
        let start = self.next_start().filter(|&s| s <= t)?;
        let w = self.waiting.pop_first()?;
        self.free_at = start + w.time;
        Some(CopyRun { job: w.job, direction: w.direction, start, end: self.free_at })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_run_one_at_a_time_in_entry_order() {
        let mut ce = CopyEngine::default();
        ce.enter(Ticks::new(2), 0, 1, Direction::In, Ticks::new(3));
        ce.enter(Ticks::ZERO, 0, 0, Direction::In, Ticks::new(4));
        let runs: Vec<CopyRun> = std::iter::from_fn(|| ce.start_next(Ticks::new(10))).collect();
        assert_eq!(runs.iter().map(|r| (r.job, r.start.get(), r.end.get())).collect::<Vec<_>>(), vec![(0, 0, 4), (1, 4, 7)]);
        assert_eq!(ce.next_start(), None);
        ce.enter(Ticks::new(20), 0, 2, Direction::Out, Ticks::new(1));
        assert!(ce.start_next(Ticks::new(19)).is_none());
        assert_eq!(ce.next_start(), Some(Ticks::new(20)));
    }
}
