//! The proven interval of a running solve, for progress display: the work raises its
//! lower bound (the longest checked schedule so far) and lowers its upper bound (the
//! best proven bound so far) as it goes, and a progress bar reads both at any time.
//!
//! Guarantees: the lower bound only rises and the upper bound only falls (atomic
//! maximum and minimum); both are values the work had proven when it reported them, so
//! the interval shown always contains `T^(W)`. It is display only: no result is read
//! from it.

use std::sync::atomic::{AtomicU64, Ordering};

/// The interval `[lower, upper]` known so far (`upper` is `u64::MAX` until reported).
#[derive(Debug)]
pub struct Watch {
    lower: AtomicU64,
    upper: AtomicU64,
}

impl Default for Watch {
    fn default() -> Self {
        Watch { lower: AtomicU64::new(0), upper: AtomicU64::new(u64::MAX) }
    }
}

impl Watch {
    /// An empty interval: lower 0, no upper bound yet.
    pub fn new() -> Watch {
        Watch::default()
    }

    /// A schedule of `cycles` was found (and will be checked): the lower bound rises to it.
    pub fn lower_is_at_least(&self, cycles: u64) {
        self.lower.fetch_max(cycles, Ordering::Relaxed);
    }

    /// `cycles` was proven an upper bound: the upper bound falls to it.
    pub fn upper_is_at_most(&self, cycles: u64) {
        self.upper.fetch_min(cycles, Ordering::Relaxed);
    }

    /// The interval so far: `(lower, upper)`, `upper` `None` until one is reported.
    pub fn interval(&self) -> (u64, Option<u64>) {
        let upper = self.upper.load(Ordering::Relaxed);
        (self.lower.load(Ordering::Relaxed), (upper != u64::MAX).then_some(upper))
    }

    /// The interval as people read it: `[lower, upper]`, or `[lower, ?]`.
    pub fn text(&self) -> String {
        match self.interval() {
            (l, Some(u)) if l == u => format!("exact {l}"),
            (l, Some(u)) => format!("proven [{l}, {u}]"),
            (l, None) => format!("proven [{l}, ?]"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_only_narrows() {
        let w = Watch::new();
        assert_eq!(w.text(), "proven [0, ?]");
        w.upper_is_at_most(20);
        w.lower_is_at_least(9);
        w.upper_is_at_most(30);
        w.lower_is_at_least(5);
        assert_eq!(w.interval(), (9, Some(20)));
        assert_eq!(w.text(), "proven [9, 20]");
        w.upper_is_at_most(9);
        assert_eq!(w.text(), "exact 9");
    }
}
