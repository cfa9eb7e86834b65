//! The stretch bound, for kernels where one unit type has sigma 1: the idle cycles of that
//! unit paid for by the work left in the other unit's runs.

use super::sides::{PacedSide, Sides};
use super::{Paced, StateBound, Tables};
use crate::model::kernel::Unit;
use crate::state::Counts;

/// The values of `f` over which [`Stretch`] minimises the ramp waste exactly.
pub const RAMP_STEPS: u64 = 512;

/// For the *paced* unit X with `sigma_X = 1` (L, C, or both, taking the smaller) and the
/// other unit Y (`sigma = sigma_Y`): `R_X + y` when at most `sigma` warps are left, else
/// `R_X + max(y, floor((B - V + M) / sigma) + 1)` (`0` in place of `B - V` when
/// negative), where `y` is the most Y's a warp has left, `V` the *ramp waste* below,
/// `M = max over positions p at or after the warp furthest behind of
/// (sigma * Y's left at p - b(p))` (`b(p)` a warp's share of `B` at `p`; `M >= 0`, the
/// end position giving 0), and
/// `B = Psi + A`: `Psi` sums, over the Y-ready warps, the Y's left in their current run
/// minus one (minus nothing for a final run: a run is final when the kernel ends with
/// it), and `A` the same quantity (run length minus one, or the length for a final run)
/// over every run of Y's the warps will still enter. `u64::MAX` where neither sigma is 1.
/// Unlike [`super::tail::Tail`] it holds from every state, reachable or not.
///
/// The ramp waste: with `u` warps left, `q` of them X-ready, and the warps ordered by
/// position from the front, let `d(f)`, `x(f)` and `b(f)` be the largest instructions
/// left, the sum of the X's left and the sum of the per-warp terms of `B` over the first
/// `f` warps; `V = 0` when `q = 0`, else
/// `V = min over f in 0..=u-sigma-1 of max((sigma - 1) r(f) + 1, b(f))` with
/// `r(f) = min(max(q, d(f), x(f)), u - f - sigma)` (positions further on have no more
/// instructions, X's or budget left, so these are the `f` smallest of each). The exact
/// minimum is taken over the first [`RAMP_STEPS`] values of `f`; the rest are covered
/// by `max(sigma, b(f))` at the first of them, which is at most their values.
///
/// Proof (X = L, Y = C; the other case swaps them). Take any schedule from `s`; `u(t)`
/// is the number of unfinished warps at cycle `t` (it never grows) and `q(t)` the
/// number of L-ready warps.
/// 1. `sigma_L = 1`: every cycle with an L-ready warp issues one L, so the schedule lasts
///    `R_L + N0`, `N0` the *idle* cycles (`q(t) = 0`).
/// 2. Let `Psi(t)` be the sum above at cycle `t`. A C issued to a warp lowers `Psi` by
///    one, except when it ends a non-final run (the warp is L-ready next cycle): then
///    `Psi` is unchanged. An L issue raises `Psi` only when the warp enters a run, by that
///    run's term of `A`. So `Psi + A` never grows, and the decreases of `Psi` over
///    disjoint sets of cycles sum to at most `B`.
/// 3. Split the cycles into the *big* phase (`u(t) >= sigma + 1`) and the *small* phase
///    after it. In the small phase every C-ready warp issues each cycle, so in each idle
///    cycle the warp that finishes last issues one of its `<= y` C's: at most `y` idle
///    cycles.
/// 4. In the big phase, let `[a_i, b_i]` (`i = 1..n`) be the maximal stretches of idle
///    cycles. An idle cycle has `u >= sigma + 1` C-ready warps and issues `sigma` C's;
///    none in `[a_i, b_i - 1]` ends a non-final run (the warp would make the next cycle
///    non-idle), so `Psi` falls by `sigma` in each of those cycles.
/// 5. For `i >= 2`, cycle `t = a_i - 1` is non-idle and lies after `b_{i-1}`. Only one
///    warp leaves the L-ready set per cycle (`sigma_L = 1`), so `q(t) <= q(a_i) + 1 = 1`
///    and `t` has at least `u(a_i) - 1 >= sigma` C-ready warps: it issues `sigma` C's,
///    and none ends a non-final run (that warp would be L-ready at the idle cycle `a_i`).
///    So `Psi` falls by `sigma` at `t` as well.
/// 6. The ramp before the first stretch (when `q = q(0) >= 1`): all cycles in `[0, a_1)`
///    are non-idle, and `a_1 >= q` since `q` falls by at most one per cycle. Let `f` be
///    the warps that finish before `a_1` (`u(a_1) = u - f >= sigma + 1`). Each issued its
///    `d_w` instructions one per cycle and its X's one per cycle of the single X unit, so
///    `a_1 >= max(q, d(f), x(f))`. For `k = 1..r`, `r = min(a_1, u - f - sigma) >= r(f)`,
///    cycle `a_1 - k` has `q <= k`, so at least `u(a_1) - k >= sigma` C-ready warps: it
///    issues `sigma` C's. Such a C that ends a non-final run is followed by that warp's
///    own L issue before `a_1`, in `[a_1 - r + 1, a_1 - 1]`: at most `r - 1` of them. So
///    `Psi` falls by at least `(sigma - 1) r + 1` in `[a_1 - r, a_1 - 1]`; it also falls
///    by the whole budget of the `f` finished warps (at least `b(f)`) before `a_1`. So
///    it falls by at least `V` in `[0, a_1)`, whatever `f` is.
/// 7. The cycles of steps 4-6 are distinct and precede the small phase, so by step 2
///    `sigma (N0_big - n) + sigma (n - 1) + V <= B - B_end` when `n >= 1`, where
///    `B_end >= 0` is `Psi + A` when the small phase begins (0 if no warp is left then):
///    `N0_big <= floor((B - V - B_end) / sigma) + 1`. With `B_end = 0` this is the
///    claim [`Stretch::big_phase_idle`] exposes.
/// 8. Let `p` be the position, when the small phase begins, of the warp that finishes
///    last (the end position if no warp is left). It is at or after the warp furthest
///    behind in `s`, its share of `B_end` is `b(p)`, and by step 3 the small phase has at
///    most `Y's left at p` idle cycles. If `n = 0` the idle cycles are at most those,
///    `<= y`; else `N0 <= floor((B - V - b(p)) / sigma) + 1 + Y's left at p
///    = floor((B - V + sigma * Y's left at p - b(p)) / sigma) + 1`, at most the bound's
///    second term.
#[derive(Debug, Clone)]
pub struct Stretch {
    sides: Sides<Side>,
}

/// The tables of one paced unit X, per position `p` (`0..=I`).
#[derive(Debug, Clone)]
struct Side {
    /// X.
    paced: Unit,
    /// X instructions left.
    paced_left: Vec<u64>,
    /// Y instructions left.
    queued_left: Vec<u64>,
    /// Whether a warp at `p` is X-ready (`p` is an X instruction).
    at_x: Vec<bool>,
    /// The term of `Psi` of a warp at `p` plus the terms of `A` of the runs it will enter.
    budget: Vec<u64>,
    /// sigma_Y.
    sigma: u64,
    /// `M` of the bound for a warp furthest behind at `p`: the most of
    /// `sigma * queued_left[p'] - budget[p']` over `p' >= p` (at least 0, at `p' = I`).
    end_game: Vec<u64>,
}

impl Stretch {
    /// The bound for the kernel described by `tables`.
    pub fn new(tables: &Tables) -> Stretch {
        Stretch { sides: Sides::of(tables) }
    }

    /// For each paced unit X (sigma 1), the proof's bound on `N0_big` from `s` (step 7):
    /// the X-idle cycles while more than sigma_Y warps are unfinished are at most
    /// `floor((B - V) / sigma_Y) + 1`; `None` when at most sigma_Y warps are left. The
    /// core claim of the bound, exposed so tests can check it without the slack of
    /// `y` and `R_X`.
    pub fn big_phase_idle(&self, s: &Counts) -> Vec<(Unit, Option<u64>)> {
        self.sides.big_phase_idle(s)
    }
}

impl PacedSide for Side {
    fn new(paced: Unit, view: Paced) -> Side {
        let runs = view.runs;
        let len = runs.len();
        let is_y = |p: usize| p < len && runs[p] > 0;
        let term = |p: usize| {
            let fin = p + runs[p] as usize == len;
            runs[p] - 1 + fin as u64
        };
        let mut budget = vec![0u64; len + 1];
        let mut entered_later = 0u64; // terms of the runs starting after p, entered by an L
        for p in (0..len).rev() {
            if p + 1 < len && is_y(p + 1) && !is_y(p) {
                entered_later += term(p + 1);
            }
            budget[p] = entered_later + if is_y(p) { term(p) } else { 0 };
        }
        let at_x = (0..=len).map(|p| p < len && !is_y(p)).collect();
        let sigma = view.sigma as u64;
        let mut end_game = vec![0u64; len + 1];
        for p in (0..len).rev() {
            end_game[p] = end_game[p + 1].max((sigma * view.queued_left[p]).saturating_sub(budget[p]));
        }
        Side { paced, paced_left: view.paced_left.to_vec(), queued_left: view.queued_left.to_vec(), at_x, budget, sigma, end_game }
    }

    fn paced(&self) -> Unit {
        self.paced
    }

    /// `floor((B - V) / sigma) + 1` (steps 4-7), or `None` when `u <= sigma`.
    fn big_phase_idle(&self, s: &Counts) -> Option<u64> {
        self.idle_from(s, &self.sums(s), 0)
    }
}

/// A side alone is a proven upper bound (its proof above); the bound is the least over
/// its sides ([`Sides`]).
impl StateBound for Side {
    fn upper(&self, s: &Counts) -> u64 {
        let Some(&(first, _)) = s.slots().first() else { return 0 };
        let sums = self.sums(s);
        let y = self.queued_left[first as usize];
        let idle = match self.idle_from(s, &sums, self.end_game[first as usize]) {
            Some(shared) => shared.max(y),
            None => y,
        };
        sums.rx + idle
    }
}

impl Side {
    /// `floor((B - V + extra) / sigma) + 1` from the sums of `s` (steps 7-8), or `None`
    /// when `u <= sigma`.
    fn idle_from(&self, s: &Counts, sums: &Sums, extra: u64) -> Option<u64> {
        let Sums { b, u, q, .. } = *sums;
        (u > self.sigma).then(|| (b.saturating_sub(self.ramp_waste(s, u, q)) + extra) / self.sigma + 1)
    }

    /// `R_X`, `B`, `u` and `q` of `s`, in one pass over its slots.
    fn sums(&self, s: &Counts) -> Sums {
        let mut sums = Sums::default();
        for &(p, n) in s.slots() {
            let (p, n) = (p as usize, n as u64);
            sums.rx += n * self.paced_left[p];
            sums.b += n * self.budget[p];
            sums.u += n;
            sums.q += if self.at_x[p] { n } else { 0 };
        }
        sums
    }

    /// `V` of the proof (step 6): the least budget spent before the first idle stretch
    /// when `q` of the `u > sigma` warps are X-ready.
    fn ramp_waste(&self, s: &Counts, u: u64, q: u64) -> u64 {
        self.ramp_waste_within(s, u, q, RAMP_STEPS)
    }

    /// [`Side::ramp_waste`] with the exact minimum taken over the first `steps` values
    /// of `f` only.
    fn ramp_waste_within(&self, s: &Counts, u: u64, q: u64, steps: u64) -> u64 {
        if q == 0 {
            return 0;
        }
        let sigma = self.sigma;
        let len = self.budget.len() - 1;
        let ramp = |a: u64, f: u64| (sigma - 1) * a.min(u - f - sigma) + 1;
        let mut best = ramp(q, 0);
        let (mut f, mut x, mut spent) = (0u64, 0u64, 0u64);
        for &(p, n) in s.slots().iter().rev() {
            let p = p as usize;
            for _ in 0..n {
                if f + 1 > u - sigma - 1 {
                    return best;
                }
                if f == steps {
                    return best.min(sigma.max(spent));
                }
                f += 1;
                x += self.paced_left[p];
                spent += self.budget[p];
                if spent >= best {
                    return best;
                }
                let a = q.max((len - p) as u64).max(x);
                best = best.min(ramp(a, f).max(spent));
            }
        }
        best
    }
}

/// Per-state sums of [`Side`]: X's left (`R_X`), budget (`B`), unfinished warps (`u`)
/// and X-ready warps (`q`).
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    rx: u64,
    b: u64,
    u: u64,
    q: u64,
}

impl StateBound for Stretch {
    fn upper(&self, s: &Counts) -> u64 {
        self.sides.upper(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;

    fn at_start(kernel: &str, warps: i64, sigma_l: i64, sigma_c: i64) -> u64 {
        let inst = Instance::new(kernel, warps, sigma_l, sigma_c).unwrap();
        Stretch::new(&Tables::new(&inst)).upper(&Counts::start(inst.warps))
    }

    #[test]
    fn tables_of_a_small_kernel() {
        // LCCL CCC: runs CC (non-final, term 1) and CCC (final, term 3).
        let inst = Instance::new("LCCLCCC", 2, 1, 4).unwrap();
        let side = &Stretch::new(&Tables::new(&inst)).sides[0];
        assert_eq!(side.budget, vec![4, 4, 3, 3, 3, 2, 1, 0]);
        // sigma * C's left - budget: 20 - 4, 20 - 4, 16 - 3, 12 - 3, 12 - 3, 8 - 2, 4 - 1, 0.
        assert_eq!(side.end_game, vec![16, 16, 13, 9, 9, 6, 3, 0]);
        // W = 2 < sigma_C = 4: R_L + y = 2 * 2 + 5.
        assert_eq!(side.upper(&Counts::start(2)), 9);
        // W = sigma_C = 4 is still the small phase: R_L + y = 4 * 2 + 5.
        assert_eq!(side.upper(&Counts::start(4)), 13);
        // W = 5, all five at the first L (q = 5): R_L 10, B = 5 * 4, ramp waste
        // V = (4 - 1) min(5, 5 - 4) + 1 = 4, M = 16: max(y = 5, floor(32 / 4) + 1) = 9.
        assert_eq!(side.upper(&Counts::start(5)), 19);
        // Four at the last C (term 1 each, final run) and one at the first L (q = 1):
        // B = 4 + 4, V = 3 * min(1, 5 - 4) + 1 = 4, M = 16: max(5, floor(20 / 4) + 1); R_L 2.
        assert_eq!(side.upper(&Counts::from_pairs([(0, 1), (6, 4)])), 8);
    }

    #[test]
    fn ramp_waste_cut_short_is_never_larger() {
        // The cut (f beyond `steps`) must only lower the waste, never raise it.
        let inst = Instance::new("LCCCCCLCCCCCCCLL", 300, 1, 4).unwrap();
        let side = &Stretch::new(&Tables::new(&inst)).sides[0];
        let states =
            [Counts::start(300), Counts::from_pairs([(0, 100), (3, 50), (6, 100), (14, 50)]), Counts::from_pairs([(6, 290), (15, 10)])];
        for s in &states {
            let Sums { u, q, .. } = side.sums(s);
            let full = side.ramp_waste_within(s, u, q, u64::MAX);
            for steps in [0, 1, 2, 5, 20, 100] {
                assert!(side.ramp_waste_within(s, u, q, steps) <= full, "{s:?} steps {steps}");
            }
            assert!(full > 0, "{s:?}: warps at an L leave a ramp");
        }
    }

    #[test]
    fn start_values() {
        // sigma 1/1, LLCCLLCLLCCL, W = 32. Paced L: R_L 224, B = 32 * 2 (the two CC
        // runs), ramp waste V = 0 * r + 1, M = 5 - 2 = 3: 224 + max(5, 63 + 3 + 1) = 291.
        // Paced C: R_C 160, B = 32 * 4 (three LL runs, the final L), M >= 7 - 4: >= 292.
        assert_eq!(at_start("LLCCLLCLLCCL", 32, 1, 1), 291);
        // TX2 profile, all 64 warps at the first L: B = 64 * (4 + 6) = 640; the ramp waste
        // is least when f = 14 warps finish first (a >= 4 * 14, r = 64 - 14 - 4 = 46):
        // max(3 * 46 + 1, 14 * 10) = 140; M = 4 * 12 - 10 = 38:
        // R_L 256 + max(y 12, floor(538 / 4) + 1) = 391 (without M: 256 + 125 + 1 + 12 = 394).
        assert_eq!(at_start("LCCCCCLCCCCCCCLL", 64, 1, 4), 391);
        assert_eq!(at_start("LLCCCCLCLCCL", 8, 2, 4), u64::MAX);
    }
}
