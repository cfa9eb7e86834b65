//! The period bound, for kernels where both sigmas are 1: the idle cycles of one unit
//! counted per busy period of the other unit.

use super::{Paced, StateBound, Tables};
use crate::kernel::Unit;
use crate::state::Counts;

/// For `sigma_L = sigma_C = 1`, with X the *paced* unit (L or C, taking the smaller
/// bound) and Y the other: `R_X + y` when at most one warp is left, else
/// `R_X + y + J + K + phi_a + phi_b`, where
/// * `y` is the most Y's a warp has left;
/// * `kappa(p)` is, for a warp at position `p`, the most of
///   `[Y's left at p, if p is a Y] + sum over the runs of Y's that start in (p, p'] of
///   (length - 1) - (X's in [p, p') not followed by a Y) - (Y's left at p')`
///   over every position `p' >= p` at a Y and over `p' = I` (finished, nothing left);
/// * `J = max(0, 1 + sum of kappa over the warps)` when some warp is Y-ready, else 0;
/// * `K` sums, over the warps, `K+(p)`: over every run of X's at or after `p`, the most
///   of `max(0, kappa)` over its positions at or after `p`;
/// * `phi(p)` counts the runs of X's at or after `p` with a position at or after `p`
///   where `kappa >= 0`, and `phi_a + phi_b` is the sum of `phi` over the two warps
///   furthest behind (their positions with multiplicity).
///
/// Unlike [`super::tail::Tail`] it holds from every state, reachable or not.
///
/// Proof. Take any schedule from `s`; `u(t)` counts the unfinished warps at cycle `t`,
/// `R(t)` the Y's left in the current runs of the Y-ready warps.
/// 1. `sigma_X = 1`: every cycle with an X-ready warp issues one X, so the schedule lasts
///    `R_X + N0`, `N0` the *idle* cycles (no X-ready warp). Once at most one warp is left
///    (`sigma_Y = 1`), each idle cycle issues one of that warp's `<= y` Y's: at most `y`
///    idle cycles there. The rest are in the *big* phase (`u >= 2`), where an idle cycle
///    has every unfinished warp Y-ready, so `R >= 2`.
/// 2. `sigma_Y = 1`: every cycle with `R > 0` issues exactly one Y, so `R` falls by one
///    per cycle and grows only when a warp issues the X before a run of Y's (by the run's
///    length). A Y that ends a run makes at most one warp X-ready per cycle.
/// 3. Split the cycles into *periods*: maximal intervals with `R > 0`. Every big-phase
///    idle cycle lies in one. Take a period with idle cycles, `b` its last big-phase idle
///    cycle, and `s0` the cycle before the period (`R(s0) = 0`, so every unfinished warp
///    is X-ready at `s0`); or `s0 = 0` if `R(0) > 0` (the *initial* period).
///    Count the cycles of `[s0, b]`: each is idle or issues one X, which either enters a
///    run of Y's (`E` of them) or not (`NE`); and every cycle but `s0` (all of them in the
///    initial period) issues one Y. Per warp, the Y's it issues in `[s0, b]` are its
///    Y's left at `s0` plus the lengths of the runs it enters, minus its Y's left at
///    `b + 1`. So the idle cycles of the period are
///    `I = 2 + sum over warps of v_w - 1` (regular) or `I = 1 + sum of v_w` (initial),
///    `v_w = [Y's left at s0] + sum over entered runs of (length - 1) - NE_w - (Y's left
///    at b + 1)`. At `b` every unfinished warp is at a Y, so at `b + 1` all are at a Y,
///    finished, or (at most one, step 2) just X-ready after the last Y of its run; that
///    one has `v_w` at most `kappa + 1`, the others at most `kappa` of their position at
///    `s0`. Hence `I <= 2 + sum of kappa(p_w(s0))` for a regular period and
///    `I <= J` for the initial one.
/// 4. At the start of two periods with idle cycles, a warp is X-ready in two different
///    runs of X's: in between it was at a Y (step 3). Write `kappa = kappa+ - kappa-`.
///    A regular period has `I <= sum of kappa+ + max(0, 2 - sum of kappa-)`. Summed over
///    the periods, the first terms are at most `K` (each warp meets each run at most
///    once). The second is 2 when no warp has `kappa < 0`, 1 when one warp has
///    `kappa = -1` and the others `kappa >= 0`, else 0. The two warps `a`, `b` that
///    finish last are unfinished in every period with a big-phase idle cycle (`u >= 2`
///    there). In a period of the first kind both are in a run where they have
///    `kappa >= 0`; in one of the second kind at least one is. So the second terms sum
///    to at most the number of (period, warp in {a, b}) pairs with the warp at
///    `kappa >= 0`, which is at most `phi_a + phi_b`. With step 1 and the initial
///    period: `N0 <= y + J + K + phi_a + phi_b`.
#[derive(Debug, Clone)]
pub struct Period {
    sides: Vec<Side>,
}

/// The tables of one paced unit X, per position `p` (`0..=I`).
#[derive(Debug, Clone)]
struct Side {
    /// X instructions left.
    paced_left: Vec<u64>,
    /// Y instructions left.
    queued_left: Vec<u64>,
    /// Whether a warp at `p` is Y-ready.
    at_y: Vec<bool>,
    /// `kappa(p)` of the bound.
    kappa: Vec<i64>,
    /// `K+(p)`.
    k_plus: Vec<u64>,
    /// `phi(p)`.
    favourable: Vec<u64>,
}

impl Period {
    /// The bound for the kernel described by `tables`; it applies only when both sigmas
    /// are 1 (else it is `u64::MAX`).
    pub fn new(tables: &Tables) -> Period {
        let sides = if tables.sigma_l == 1 && tables.sigma_c == 1 {
            [Unit::L, Unit::C].into_iter().filter_map(|paced| tables.paced(paced).map(Side::new)).collect()
        } else {
            Vec::new()
        };
        Period { sides }
    }

    /// For each paced unit, the bound of step 4 on the idle cycles while at least two
    /// warps are unfinished: `J + K + phi_a + phi_b`; `None` when fewer than two
    /// warps are left. Exposed so tests can check it without the slack of `y` and `R_X`.
    pub fn big_phase_idle(&self, s: &Counts) -> Vec<Option<u64>> {
        self.sides.iter().map(|side| side.big_phase_idle(s)).collect()
    }
}

impl Side {
    fn new(view: Paced) -> Side {
        let runs = view.runs;
        let len = runs.len();
        let at_y: Vec<bool> = (0..=len).map(|p| p < len && runs[p] > 0).collect();
        let kappa = kappa_table(runs, &at_y);
        let (k_plus, favourable) = run_tables(&kappa, &at_y);
        Side { paced_left: view.paced_left.to_vec(), queued_left: view.queued_left.to_vec(), at_y, kappa, k_plus, favourable }
    }

    fn upper(&self, s: &Counts) -> u64 {
        let Some(&(first, _)) = s.slots().first() else { return 0 };
        let rx: u64 = s.slots().iter().map(|&(p, n)| n as u64 * self.paced_left[p as usize]).sum();
        rx + self.queued_left[first as usize] + self.big_phase_idle(s).unwrap_or(0)
    }

    /// `J + K + phi_a + phi_b`, or `None` when at most one warp is left.
    fn big_phase_idle(&self, s: &Counts) -> Option<u64> {
        let slots = s.slots();
        let (mut u, mut kappa_sum, mut k, mut any_y) = (0u64, 0i64, 0u64, false);
        for &(p, n) in slots {
            let (p, n) = (p as usize, n as u64);
            u += n;
            kappa_sum += n as i64 * self.kappa[p];
            k += n * self.k_plus[p];
            any_y |= self.at_y[p];
        }
        if u < 2 {
            return None;
        }
        let j = if any_y { (1 + kappa_sum).max(0) as u64 } else { 0 };
        let (first, n_first) = slots[0];
        let phi_a = self.favourable[first as usize];
        let phi_b = if n_first >= 2 { phi_a } else { self.favourable[slots[1].0 as usize] };
        Some(j + k + phi_a + phi_b)
    }
}

/// `kappa(p)` for `p = 0..=I` from the runs of Y's (`runs[p]`: Y's from `p` to the end
/// of its run, 0 at an X). With `A'(p)` = (sum of length - 1 over the runs starting at or
/// before `p`) - (X's before `p` not followed by a Y), the value of `p'` seen from `p` is
/// `[Y's left at p] + A'(p') - A'(p) - (Y's left at p')`, so `kappa` is a suffix maximum.
fn kappa_table(runs: &[u64], at_y: &[bool]) -> Vec<i64> {
    let len = runs.len();
    let mut a = vec![0i64; len + 1];
    let (mut entered, mut not_entering) = (0i64, 0i64);
    for p in 0..=len {
        if at_y[p] && (p == 0 || !at_y[p - 1]) {
            entered += runs[p] as i64 - 1;
        }
        a[p] = entered - not_entering;
        if p < len && !at_y[p] && !at_y[p + 1] {
            not_entering += 1;
        }
    }
    let left = |p: usize| if p < len { runs[p] as i64 } else { 0 };
    let mut best = a[len];
    let mut kappa = vec![0i64; len + 1];
    for p in (0..=len).rev() {
        if at_y[p] {
            best = best.max(a[p] - left(p));
        }
        kappa[p] = left(p) - a[p] + best;
    }
    kappa
}

/// `K+(p)` and `phi(p)` for `p = 0..=I`.
fn run_tables(kappa: &[i64], at_y: &[bool]) -> (Vec<u64>, Vec<u64>) {
    let len = kappa.len() - 1;
    let (mut k_plus, mut favourable) = (vec![0u64; len + 1], vec![0u64; len + 1]);
    let (mut after_k, mut after_phi, mut run_max) = (0u64, 0u64, i64::MIN);
    for p in (0..len).rev() {
        if at_y[p] {
            (k_plus[p], favourable[p]) = (after_k, after_phi);
            continue;
        }
        if at_y[p + 1] || p + 1 == len {
            run_max = i64::MIN; // the last X of a run: a new run, seen from the right
        }
        run_max = run_max.max(kappa[p]);
        k_plus[p] = after_k + run_max.max(0) as u64;
        favourable[p] = after_phi + (run_max >= 0) as u64;
        if p == 0 || at_y[p - 1] {
            (after_k, after_phi) = (k_plus[p], favourable[p]);
        }
    }
    (k_plus, favourable)
}

impl StateBound for Period {
    fn upper(&self, s: &Counts) -> u64 {
        self.sides.iter().map(|side| side.upper(s)).min().unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;

    fn side(kernel: &str, paced: Unit) -> Side {
        let inst = Instance::new(kernel, 2, 1, 1).unwrap();
        Side::new(Tables::new(&inst).paced(paced).unwrap())
    }

    #[test]
    fn tables_of_the_target_kernel() {
        // LLCCLLCLLCCL, paced L. From 0: its first L does not enter (-1), CC gives +1,
        // at the last C of CC 1 - 1 - 1 = -1; finished: 2 - 4 = -2. From 1: +1 - 1 = 0.
        // From 4: -1 + 0 - 1 = -2 at C; via 7, 8: -1 - 1 + 1 - 1 = -2. From 8: 0.
        // At a C: Y's left - 1 is reached by staying (0) or by the end of the run.
        let s = side("LLCCLLCLLCCL", Unit::L);
        assert_eq!(s.kappa, vec![-1, 0, 1, 0, -2, -1, 0, -1, 0, 1, 0, -1, 0]);
        // Runs of L's with kappa >= 0: {0, 1} (at 1) and {7, 8} (at 8); none positive.
        assert_eq!(s.favourable, vec![2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
        assert_eq!(s.k_plus, vec![0; 13]);
    }

    #[test]
    fn start_values() {
        // sigma 1/1, LLCCLLCLLCCL, W = 32, all at position 0 (no C-ready warp: J = 0).
        // Paced L: R_L 224 + y 5 + K 0 + phi 2 + 2 = 233 (the stretch bound gives 291,
        // the worst case found is 229).
        let inst = Instance::new("LLCCLLCLLCCL", 32, 1, 1).unwrap();
        let b = Period::new(&Tables::new(&inst));
        assert_eq!(b.sides[0].upper(&Counts::start(32)), 233);
        assert_eq!(b.upper(&Counts::start(32)), 233);
        // One warp left: R_L + y.
        assert_eq!(b.upper(&Counts::from_pairs([(4, 1)])), 5 + 3);
        // Not both sigmas 1: no bound.
        let tx2 = Instance::new("LLCCCCLCLCCL", 8, 1, 4).unwrap();
        assert_eq!(Period::new(&Tables::new(&tx2)).upper(&Counts::start(8)), u64::MAX);
    }

    #[test]
    fn a_y_ready_warp_adds_the_initial_period() {
        // LCCCCL, paced L.
        let s = side("LCCCCL", Unit::L);
        // From 0: enters CCCC (+3), at its last C: 3 - 1 = 2; finished: 3 - 1 = 2.
        assert_eq!(s.kappa[0], 2);
        // From 1 (4 C's left): staying 0, last C 4 - 1 = 3, finished 4 - 1 = 3.
        assert_eq!(s.kappa[1], 3);
        // Two warps at 1: J = 1 + 3 + 3 = 7, K = 0 (the final L: kappa -1), phi 0.
        assert_eq!(s.big_phase_idle(&Counts::from_pairs([(1, 2)])), Some(7));
        // Both at 0 (no C-ready warp): J = 0, K = 2 + 2, phi 1 + 1.
        assert_eq!(s.big_phase_idle(&Counts::start(2)), Some(6));
    }
}
