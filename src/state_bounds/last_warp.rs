//! The last-warp bound, for kernels where one unit has sigma 1: the period bound's busy
//! periods of the other unit, charged to the warp that finishes last.

use super::period::{chains, PeriodTables, Sums};
use super::sides::Sides;
use super::{Paced, StateBound, Tables};
use crate::model::kernel::Unit;
use crate::state::Counts;

/// For the *paced* unit X with `sigma_X = 1` (L, C, or both, taking the smaller bound) and
/// the other unit Y (`sigma = sigma_Y`): `R_X + y` when fewer than `sigma` warps are left,
/// else `R_X + floor((J + F + max over the occupied positions p of (G(p) - F(p))) / sigma)`,
/// with `val`, `kappa`, `J`, `F(p)` and `F = sum of F` as in [`super::period::Period`], `y` the
/// most Y's a warp has left, and
/// * `G(p)` the most, over chains `p <= p1 < q1 < ... < pk < qk` (each `p_i` at an X, each
///   `q_i` at a Y), of
///   `sum over i of max(0, 1 + sigma + val(p_i, q_i))`, plus
///   `sigma * (Y's left at q_k)` (at `p` when `k = 0`) when `sigma >= 2`.
///
/// Where the period bound adds `y` for the end game and a term for the `sigma + 1` warps
/// that finish last, this bound follows the one warp that finishes last through every
/// period: with `sigma = 1` it has no end game at all (`LLCCLLCLLCCL`, sigma 1/1, gives
/// `R_L + 5`, the exact value at every W, against `R_L + 9`). `u64::MAX` when neither sigma
/// is 1. Unlike [`super::tail::Tail`] it holds from every state, reachable or not.
///
/// Proof (X = L, Y = C; the other case swaps them). Take any schedule from `s` and let `w`
/// be a warp that finishes last (unfinished in `s`, at an occupied position `p_w`).
/// 1. `sigma_L = 1`: the schedule lasts `R_L + N0`, `N0` the *idle* cycles (no L-ready
///    warp, so every unfinished warp is C-ready and `min(sigma, u)` C's are issued). Call
///    the cycles with at least `sigma` unfinished warps the *big* phase (an idle cycle
///    there issues `sigma` C's) and the rest the small phase (only when `sigma >= 2`).
/// 2. Periods as in the period bound's proof (maximal intervals in which some warp is
///    C-ready; every idle cycle lies in one). Its step 3 uses only that an idle cycle
///    issues `sigma` C's, so it holds for the big-phase idle cycles `I_j` of a period
///    `j`, `b_j` the last of them: `sigma I_j <= J` for the initial period (if any) and
///    `sigma I_j <= 1 + sigma + sum over the warps of val(p_v(s0_j), q_v(j))` for a
///    regular one, `p_v(s0_j)` the warp's position (at an L) in the cycle before the
///    period and `q_v(j)` its position after `b_j` (or its last C there).
/// 3. In a regular period, `I_j >= 0`, so
///    `sigma I_j <= max(0, 1 + sigma + val_w(j)) + sum over v != w of max(0, val_v(j))`.
///    `w` is unfinished at `b_j` (it finishes last), so it is at a C then, and `q_w(j)`
///    can be taken at a C: its position after `b_j`, or the C it issued in `b_j` if that
///    was its run's last (then `val` grows by one at most, within the `sigma`; also if
///    that C was its last instruction). It is at an L in the cycle before the next
///    period: its `(p_w(s0_j), q_w(j))` form a chain from `p_w`, and so do every other
///    warp's (the period bound's step 4). Summed over the regular
///    periods, the other warps give at most `F - F(p_w)`, and `w` the chain sum of `G`.
/// 4. Small phase (`sigma >= 2`): every C-ready warp issues each cycle, so each idle cycle
///    issues a C of `w`: at most `w`'s C's left when it begins. `w` is then at or after
///    its position after the last `b_j`, so it has at most the C's left at the chain's
///    last `q_k` (at `p_w` if there is no regular period), which `G` adds times `sigma`.
/// 5. So `sigma N0 <= J + F - F(p_w) + G(p_w)`, at most the bound's sum; and once fewer than
///    `sigma` warps are left, the small phase alone gives `N0 <= y`.
#[derive(Debug, Clone)]
pub struct LastWarp {
    sides: Sides<Side>,
}

/// The tables of one paced unit X, per position `p` (`0..=I`).
#[derive(Debug, Clone)]
struct Side {
    /// The period bound's tables (`kappa`, `F`, ...).
    tables: PeriodTables,
    /// `G(p) - F(p)`.
    lag: Vec<i64>,
}

impl LastWarp {
    /// The bound for the kernel described by `tables`, for each unit with sigma 1
    /// (`u64::MAX` when neither has).
    pub fn new(tables: &Tables) -> LastWarp {
        LastWarp { sides: Sides::build(tables.paced_units().map(|(_, view)| Some(Side::new(view)))) }
    }

    /// For each paced unit X, the proof's bound on all idle cycles of X, or `None` when
    /// fewer than sigma_Y warps are left. Exposed so tests can check it without `R_X`.
    pub fn idle(&self, s: &Counts) -> Vec<Option<u64>> {
        self.sides
            .iter()
            .map(|side| {
                let (sums, lag) = side.sums(s);
                side.idle_from(&sums, lag)
            })
            .collect()
    }

    /// The paced units, in the order of [`LastWarp::idle`].
    pub fn units(tables: &Tables) -> Vec<Unit> {
        tables.paced_units().map(|(paced, _)| paced).collect()
    }
}

impl Side {
    fn new(view: Paced) -> Side {
        let tables = PeriodTables::new(view);
        let sigma = view.sigma as i64;
        let end_game = |p: usize| if sigma >= 2 { sigma * view.queued_left[p] as i64 } else { 0 };
        // `w`'s links end at a Y (step 3 of the proof), never at `I`.
        let g = chains(&tables.a, view.runs, &tables.at_y, 1 + sigma, false, &end_game);
        let lag = g.iter().zip(&tables.chain).map(|(g, &f)| g - f as i64).collect();
        Side { tables, lag }
    }

    /// The period bound's sums of `s` and the most of `G - F` over its occupied positions.
    fn sums(&self, s: &Counts) -> (Sums, i64) {
        let mut lag = i64::MIN;
        let sums = self.tables.sums(s, |p| lag = lag.max(self.lag[p]));
        (sums, lag)
    }

    /// `floor((J + F + max of G - F) / sigma)`, or `None` when fewer than `sigma` warps are
    /// left (or none).
    fn idle_from(&self, sums: &Sums, lag: i64) -> Option<u64> {
        let sigma = self.tables.sigma;
        if sums.u < sigma {
            return None;
        }
        let paid = (self.tables.initial_period(sums) + sums.chain) as i64 + lag;
        Some((paid / sigma as i64) as u64)
    }
}

impl StateBound for LastWarp {
    fn upper(&self, s: &Counts) -> u64 {
        self.sides.upper(s)
    }
}

/// A side alone is a proven upper bound (its proof above); the bound is the least over
/// its sides ([`Sides`]).
impl StateBound for Side {
    fn upper(&self, s: &Counts) -> u64 {
        let Some(&(first, _)) = s.slots().first() else { return 0 };
        let (sums, lag) = self.sums(s);
        sums.rx + self.idle_from(&sums, lag).unwrap_or(self.tables.queued_left[first as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;

    fn bound(kernel: &str, warps: i64, sigma_l: i64, sigma_c: i64) -> (LastWarp, Counts) {
        let inst = Instance::new(kernel, warps, sigma_l, sigma_c).unwrap();
        (LastWarp::new(&Tables::new(&inst)), Counts::start(warps as u32))
    }

    #[test]
    fn the_sigma_one_target_is_exact_at_the_start() {
        // LLCCLLCLLCCL, sigma 1/1, paced L: val(1, 3) = +1 (CC) - 1 (C left) = 0, so the
        // period of CC gives 2; LL C: val(5, 6) = 0 - 1 = -1, so 1; CC again 2. G = 5,
        // F = 0, J = 0: R_L + 5 (224 + 5 at W = 32, the worst case found).
        let (b, start) = bound("LLCCLLCLLCCL", 32, 1, 1);
        assert_eq!(b.sides[0].lag[0], 5);
        assert_eq!(b.upper(&start), 229);
        let (b, start) = bound("LLCCLLCLLCCL", 24, 1, 1);
        assert_eq!(b.upper(&start), 173);
    }

    #[test]
    fn a_long_run_and_the_end_game() {
        // LCCCCL, sigma 1/1, W = 2: G(0) = 1 + 1 + val(0, 4) = 2 + 3 - 1 = 4, F(0) = 2:
        // R_L 4 + (0 + 4 - 2 + 4) = 10, the worst case (the second warp waits 4 cycles
        // for the C unit, then runs alone).
        let (b, start) = bound("LCCCCL", 2, 1, 1);
        assert_eq!(b.upper(&start), 10);
        // sigma_C = 4 with 3 warps: fewer than sigma left, R_L + y = 6 + 4.
        let (b, start) = bound("LCCCCL", 3, 1, 4);
        assert_eq!(b.upper(&start), 10);
        // With 4: G(0) = 20, the link 0 -> 1 (`max(0, 5 + val(0, 1)) = 4`, no C issued
        // yet) then the end game `4 * 4`; F(0) = 2: R_L 8 + floor((0 + 8 + 18) / 4) = 14.
        let (b, start) = bound("LCCCCL", 4, 1, 4);
        assert_eq!(b.sides[0].lag[0], 18);
        assert_eq!(b.upper(&start), 14);
        // A kernel that ends with a run of C's: the last warp's last period ends at its last
        // C. LCC alone: val(0, 2) = 0, so R_L 1 + 2 = 3 (4 when it could end at I).
        let (b, start) = bound("LCC", 1, 1, 1);
        assert_eq!(b.upper(&start), 3);
        // Neither sigma 1: no bound.
        let (b, start) = bound("LCCCCL", 4, 2, 2);
        assert_eq!(b.upper(&start), u64::MAX);
    }
}
