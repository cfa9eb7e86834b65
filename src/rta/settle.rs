//! A time at which a window bound **settles**: the work bounds of
//! [`crate::rta::priority`] and [`crate::rta::queue_work`] hold at any time `x` with
//! `next(x) <= x` (their proofs use only that inequality), and iterating `next` from
//! below finds the least such `x` but may creep up by a tick per step when block times
//! are long in ticks (a set given in finer ticks needs more steps, and the bound was lost
//! where they ran out). Past the plain steps, [`settle`] gallops: it doubles the last
//! step until it reaches a settled time, then halves the gap back towards the last
//! unsettled iterate. Every time it returns was checked to settle.

use crate::rta::time::Ticks;

/// What one evaluation of a window bound at a time `x` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The bound holds with this value (e.g. the blocks counted weigh too little to
    /// block anything: no wait at all).
    Settled(Ticks),
    /// `next(x)`: `x` settles if this is at most `x`.
    Next(Ticks),
}

/// Most plain steps of a window bound's fixed-point iteration before [`settle`] gallops
/// (the window bounds of [`crate::rta::priority`] and [`crate::rta::queue_work`]).
pub const WINDOW_STEPS: usize = 1_000;

/// Most doublings and halvings of the gallop.
const GALLOP: usize = 128;

/// A time `x >= start` that settles under `step`, or a value `step` gives as
/// [`Step::Settled`]: first the iterates `x, next(x), ...` from `start`, at most `steps`
/// of them (the least settled time from `start` on where `next` does not decrease), then
/// the gallop.
/// `None` where `step` gives `None`, a time overflows, or the gallop finds nothing.
///
/// Guarantee: `Some(x)` is either a value `step` returned as settled or a time `x` for
/// which `step(x)` returned `Next(n)` with `n <= x`.
pub fn settle(start: Ticks, steps: usize, mut step: impl FnMut(Ticks) -> Option<Step>) -> Option<Ticks> {
    let mut x = start;
    for _ in 0..steps {
        match step(x)? {
            Step::Settled(v) => return Some(v),
            Step::Next(n) if n <= x => return Some(x),
            Step::Next(n) => x = n,
        }
    }
    // `x` is the last iterate, not yet evaluated: its own step is the gallop's first.
    gallop(x, &mut step)
}

/// From `lo` (not known to settle), times `lo + d 2^m` (`d` the step at `lo`) until one
/// settles, then halving between the last unsettled time and it.
fn gallop(lo: Ticks, step: &mut impl FnMut(Ticks) -> Option<Step>) -> Option<Ticks> {
    let d = match step(lo)? {
        Step::Settled(v) => return Some(v),
        Step::Next(n) if n <= lo => return Some(lo),
        Step::Next(n) => n - lo,
    };
    let (mut lo, mut hi) = (lo, None);
    let mut reach = d;
    for _ in 0..GALLOP {
        let y = lo.checked_add(reach)?;
        match step(y)? {
            Step::Settled(v) => return Some(v),
            Step::Next(n) if n <= y => {
                hi = Some(y);
                break;
            }
            Step::Next(_) => {
                lo = y;
                reach = reach.checked_add(reach)?;
            }
        }
    }
    let mut hi = hi?;
    for _ in 0..GALLOP {
        let gap = (hi - lo).get();
        if gap <= 1 {
            break;
        }
        let mid = lo.checked_add(Ticks::new(gap / 2))?;
        match step(mid)? {
            Step::Settled(v) => return Some(v),
            Step::Next(n) if n <= mid => hi = mid,
            Step::Next(_) => lo = mid,
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `next(x) = a + floor(s x)` for a slope `s = num / den < 1`: its least settled time
    /// by brute force.
    fn least(a: u128, num: u128, den: u128) -> u128 {
        (a..).find(|&x| a + num * x / den <= x).unwrap()
    }

    #[test]
    fn the_iterates_give_the_least_settled_time() {
        let step = |x: Ticks| Some(Step::Next(Ticks::new(10 + x.get() / 2)));
        assert_eq!(settle(Ticks::new(1), 1_000, step), Some(Ticks::new(least(10, 1, 2))));
    }

    #[test]
    fn a_slow_creep_is_galloped_to_a_settled_time() {
        // Slope 999/1000: the iterates creep for thousands of steps.
        let (a, num, den) = (5_000u128, 999u128, 1_000u128);
        let next = |x: Ticks| a + num * x.get() / den;
        let found = settle(Ticks::new(1), 10, |x| Some(Step::Next(Ticks::new(next(x))))).unwrap();
        assert!(next(found) <= found.get(), "{found:?} does not settle");
        assert!(found.get() >= least(a, num, den));
        // Without the gallop, 10 steps are far from enough.
        let mut x = 1u128;
        for _ in 0..10 {
            x = next(Ticks::new(x));
        }
        assert!(next(Ticks::new(x)) > x);
    }

    #[test]
    fn a_settled_value_is_returned_as_it_is() {
        assert_eq!(settle(Ticks::new(5), 3, |_| Some(Step::Settled(Ticks::new(2)))), Some(Ticks::new(2)));
        assert_eq!(settle(Ticks::new(5), 0, |_| Some(Step::Settled(Ticks::new(2)))), Some(Ticks::new(2)));
    }

    #[test]
    fn no_settled_time_gives_none() {
        // next(x) = x + 1 never settles: the gallop runs out.
        assert_eq!(settle(Ticks::new(1), 5, |x| Some(Step::Next(x + Ticks::new(1)))), None);
        assert_eq!(settle(Ticks::new(1), 5, |_| None), None);
    }
}
