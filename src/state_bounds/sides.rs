//! The shape shared by the bounds that count one unit's idle cycles (tail, stretch,
//! period, clipped, last-warp): one *side* per unit with sigma 1 (the paced unit X, the
//! other unit Y queued), and the bound is the least over its sides.

use super::{Paced, StateBound, Tables};
use crate::model::kernel::Unit;
use crate::state::Counts;

/// The sides of one bound. Each side is a proven upper bound on its own, so their
/// minimum is too; with no side (no unit has sigma 1) the bound does not apply and is
/// `u64::MAX`, which no minimum picks.
#[derive(Debug, Clone)]
pub struct Sides<S>(Vec<S>);

impl<S> Sides<S> {
    /// The given sides.
    pub fn new(sides: Vec<S>) -> Sides<S> {
        Sides(sides)
    }

    /// Each side built with `build` (`None`: that side is left out).
    pub fn build<I: Iterator<Item = Option<S>>>(sides: I) -> Sides<S> {
        Sides(sides.flatten().collect())
    }
}

/// A side built from its paced unit alone, with the claim its proof makes on the big
/// phase (the stretch and period bounds): what [`Sides::of`] and
/// [`Sides::big_phase_idle`] need.
pub trait PacedSide: StateBound + Sized {
    /// The side whose paced unit X is `paced`, from X's view of the kernel.
    fn new(paced: Unit, view: Paced) -> Self;

    /// X.
    fn paced(&self) -> Unit;

    /// The proof's bound on the idle cycles of X from `s` while more than sigma_Y warps
    /// are unfinished; `None` when at most sigma_Y warps are left.
    fn big_phase_idle(&self, s: &Counts) -> Option<u64>;
}

impl<S: PacedSide> Sides<S> {
    /// One side for each unit of the kernel of `tables` with sigma 1 (none when neither
    /// has: the bound is then `u64::MAX`).
    pub fn of(tables: &Tables) -> Sides<S> {
        Sides::build(tables.paced_units().map(|(paced, view)| Some(S::new(paced, view))))
    }

    /// Each side's paced unit and [`PacedSide::big_phase_idle`] from `s`.
    pub fn big_phase_idle(&self, s: &Counts) -> Vec<(Unit, Option<u64>)> {
        self.0.iter().map(|side| (side.paced(), side.big_phase_idle(s))).collect()
    }
}

impl<S> std::ops::Deref for Sides<S> {
    type Target = [S];
    fn deref(&self) -> &[S] {
        &self.0
    }
}

impl<S> std::ops::DerefMut for Sides<S> {
    fn deref_mut(&mut self) -> &mut [S] {
        &mut self.0
    }
}

impl<S: StateBound> StateBound for Sides<S> {
    fn upper(&self, s: &Counts) -> u64 {
        self.0.iter().map(|side| side.upper(s)).min().unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Constant(u64);
    impl StateBound for Constant {
        fn upper(&self, _: &Counts) -> u64 {
            self.0
        }
    }

    #[test]
    fn least_over_the_sides_and_none_without_a_side() {
        let s = Counts::start(3);
        assert_eq!(Sides::new(vec![Constant(9), Constant(7)]).upper(&s), 7);
        assert_eq!(Sides::<Constant>::new(vec![]).upper(&s), u64::MAX);
    }
}
