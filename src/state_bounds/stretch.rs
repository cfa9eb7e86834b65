//! The stretch bound, for kernels where one unit type has sigma 1: the idle cycles of that
//! unit paid for by the work left in the other unit's runs.

use super::{Paced, StateBound, Tables};
use crate::kernel::Unit;
use crate::state::Counts;

/// For the *paced* unit X with `sigma_X = 1` (L, C, or both, taking the smaller) and the
/// other unit Y (`sigma = sigma_Y`): `R_X + y` when fewer than `sigma` warps are left,
/// else `R_X + floor(B / sigma) + sigma * R' + 1 + y`, where `y` is the most Y's a warp
/// has left, `R'` the most *non-final* runs of Y's a warp has still to finish (a run is
/// final when the kernel ends with it), and `B = Psi + A`: `Psi` sums, over the Y-ready
/// warps, the Y's left in their current run minus one (minus nothing for a final run),
/// and `A` the same quantity (run length minus one, or the length for a final run) over
/// every run of Y's the warps will still enter. `u64::MAX` where neither sigma is 1.
/// Unlike [`super::tail::Tail`] it holds from every state, reachable or not.
///
/// Proof (X = L, Y = C; the other case swaps them). Take any schedule from `s`.
/// 1. `sigma_L = 1`: every cycle with an L-ready warp issues one L, so the schedule lasts
///    `R_L + N0`, `N0` the *idle* cycles (no L-ready warp).
/// 2. Let `Psi(t)` be the sum above at cycle `t`. A C issued to a warp lowers `Psi` by
///    one, except when it ends a non-final run (the warp is L-ready next cycle): then
///    `Psi` is unchanged. An L issue raises `Psi` only when the warp enters a run, by that
///    run's term of `A`. So the decreases of `Psi` over disjoint intervals sum to at most
///    `B`.
/// 3. Split the cycles into the *big* phase (at least `sigma` warps unfinished) and the
///    *small* phase after it. In the small phase every C-ready warp issues each cycle, so
///    in each idle cycle the warp that finishes last issues one of its `<= y` C's: at
///    most `y` idle cycles.
/// 4. In the big phase, let `[a_i, b_i]` be the maximal stretches of idle cycles and
///    `m_i >= 1` the non-idle cycles up to the next stretch. An idle cycle issues
///    `sigma` C's, and none in `[a_i, b_i - 1]` ends a non-final run (the warp would make
///    the next cycle non-idle), so `Psi` falls by `sigma` in each. A warp that ends a
///    non-final run in `[b_i, a_{i+1} - 1]` is at a C again at `a_{i+1}`, so it issues an
///    L in between, a different one for each such run end: at most `m_i` of them. If
///    every cycle of the gap has at least `sigma` C-ready warps ("good" gap), the gap and
///    `b_i` issue `sigma (m_i + 1)` C's, so `Psi` falls by at least `sigma` over
///    `[b_i, a_{i+1} - 1]` and by `sigma * len_i` over `[a_i, a_{i+1} - 1]`. In a "bad"
///    gap some cycle has fewer than `sigma` C-ready warps, so one of the `sigma` warps
///    that finish last is L-ready then, having ended a non-final run since `b_i`: there
///    are at most `sigma R'` bad gaps. So the big phase has at most
///    `B / sigma + sigma R' + 1` idle cycles (the `+1` for the last stretch), which with
///    step 3 gives the bound.
#[derive(Debug, Clone)]
pub struct Stretch {
    sides: Vec<Side>,
}

/// The tables of one paced unit X, per position `p` (`0..=I`).
#[derive(Debug, Clone)]
struct Side {
    /// X instructions left.
    paced_left: Vec<u64>,
    /// Y instructions left.
    queued_left: Vec<u64>,
    /// The term of `Psi` of a warp at `p` plus the terms of `A` of the runs it will enter.
    budget: Vec<u64>,
    /// Non-final runs of Y's ending at or after `p`.
    nonfinal_runs: Vec<u64>,
    /// sigma_Y.
    sigma: u64,
}

impl Stretch {
    /// The bound for the kernel described by `tables`.
    pub fn new(tables: &Tables) -> Stretch {
        Stretch { sides: [Unit::L, Unit::C].into_iter().filter_map(|paced| tables.paced(paced).map(Side::new)).collect() }
    }
}

impl Side {
    fn new(view: Paced) -> Side {
        let runs = view.runs;
        let len = runs.len();
        let is_y = |p: usize| p < len && runs[p] > 0;
        let term = |p: usize| {
            let fin = p + runs[p] as usize == len;
            runs[p] - 1 + fin as u64
        };
        let (mut budget, mut nonfinal_runs) = (vec![0u64; len + 1], vec![0u64; len + 1]);
        let mut entered_later = 0u64; // terms of the runs starting after p, entered by an L
        for p in (0..len).rev() {
            if p + 1 < len && is_y(p + 1) && !is_y(p) {
                entered_later += term(p + 1);
            }
            budget[p] = entered_later + if is_y(p) { term(p) } else { 0 };
            let ends_nonfinal_run = is_y(p) && runs[p] == 1 && p + 1 < len;
            nonfinal_runs[p] = nonfinal_runs[p + 1] + ends_nonfinal_run as u64;
        }
        Side { paced_left: view.paced_left.to_vec(), queued_left: view.queued_left.to_vec(), budget, nonfinal_runs, sigma: view.sigma as u64 }
    }

    fn upper(&self, s: &Counts) -> u64 {
        let Some(&(first, _)) = s.slots().first() else { return 0 };
        let first = first as usize;
        let (mut rx, mut b) = (0u64, 0u64);
        for &(p, n) in s.slots() {
            rx += n as u64 * self.paced_left[p as usize];
            b += n as u64 * self.budget[p as usize];
        }
        let y = self.queued_left[first];
        if s.warps() < self.sigma {
            return rx + y;
        }
        rx + b / self.sigma + self.sigma * self.nonfinal_runs[first] + 1 + y
    }
}

impl StateBound for Stretch {
    fn upper(&self, s: &Counts) -> u64 {
        self.sides.iter().map(|side| side.upper(s)).min().unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Instance;

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
        assert_eq!(side.nonfinal_runs, vec![1, 1, 1, 0, 0, 0, 0, 0]);
        // W = 2 < sigma_C = 4: R_L + y = 2 * 2 + 5.
        assert_eq!(side.upper(&Counts::start(2)), 9);
    }

    #[test]
    fn start_values() {
        // sigma 1/1, LLCCLLCLLCCL, W = 32. Paced L: R_L 224, B = 32 * 2 (the two CC
        // runs), R' = 3, y = 5: 297. Paced C: R_C 160, B = 32 * 4 (three LL runs, the
        // final L), R' = 3, y = 7: 299.
        assert_eq!(at_start("LLCCLLCLLCCL", 32, 1, 1), 297);
        assert_eq!(at_start("LLCCCCLCLCCL", 8, 2, 4), u64::MAX);
    }
}
