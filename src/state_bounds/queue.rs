//! The queue bound, for kernels where one unit type has sigma 1 and the other type's
//! runs are no longer than its sigma.

use super::{StateBound, Tables};
use crate::state::Counts;

/// Applies when `sigma_L = 1` and no run of C's is longer than `sigma_C` (and the same
/// with L and C swapped); elsewhere it is `u64::MAX` (no information). The bound is
/// `R_L + min(R_C, c_max + floor((K-1) c_max / sigma_C))` with `K = max(Phi, D^2)`.
///
/// Proof (for `sigma_L = 1`; the mirror case is the same with L and C swapped):
/// 1. With `sigma_L = 1`, every cycle in which some warp is ready for an L issues
///    exactly one L, so `T(s) = R_L + N0`, where `N0` counts the cycles in which no
///    warp is ready for an L.
/// 2. Let `Q` be the warps ready for a C and `Phi` the C instructions left in their
///    current runs of C's (`Q <= Phi <= D Q`, `D` the longest run). A cycle issues
///    `min(sigma_C, Q)` C's, each lowering `Phi` by one, and at most one L, which can
///    start a new run: `Phi' <= Phi - min(sigma_C, Q) + D`. If `Q >= sigma_C >= D` then
///    `Phi' <= Phi`; otherwise `Phi' <= Phi - Phi/D + D`, which is `<= D^2` when
///    `Phi <= D^2` and `< Phi` when `Phi > D^2`. So `Q` never exceeds
///    `K = max(Phi(s), D^2)`.
/// 3. In an `N0` cycle every unfinished warp is in `Q`, so from the first `N0` cycle on
///    at most `K` warps are unfinished, each with at most `c_max` C's left (the most any
///    occupied position has left). Take the warp that finishes last: in each `N0` cycle
///    it issues one of its `<= c_max` C's, or all `sigma_C` C units are busy with the
///    other `<= (K-1) c_max` C's. Hence `N0 <= min(R_C, c_max + floor((K-1) c_max / sigma_C))`.
#[derive(Debug, Clone)]
pub struct Queue {
    tables: Tables,
    /// `sigma_L = 1` and C-runs `<= sigma_C`: bound the cycles without a ready L.
    l_paced: bool,
    /// `sigma_C = 1` and L-runs `<= sigma_L`: bound the cycles without a ready C.
    c_paced: bool,
    max_run_l: u64,
    max_run_c: u64,
}

impl Queue {
    /// The bound for the kernel described by `tables`.
    pub fn new(t: &Tables) -> Queue {
        let max_run_l = t.run_l.iter().copied().max().unwrap_or(0);
        let max_run_c = t.run_c.iter().copied().max().unwrap_or(0);
        Queue {
            tables: t.clone(),
            l_paced: t.sigma_l == 1 && max_run_c <= t.sigma_c as u64,
            c_paced: t.sigma_c == 1 && max_run_l <= t.sigma_l as u64,
            max_run_l,
            max_run_c,
        }
    }

    /// Whether the bound applies to this kernel at all.
    pub fn applies(&self) -> bool {
        self.l_paced || self.c_paced
    }
}

impl StateBound for Queue {
    fn upper(&self, s: &Counts) -> u64 {
        if !self.applies() {
            return u64::MAX;
        }
        let t = &self.tables;
        let (rl, rc) = t.remaining(s);
        let (mut phi_l, mut phi_c, mut l_max, mut c_max) = (0u64, 0u64, 0u64, 0u64);
        for &(p, n) in s.slots() {
            let (p, n) = (p as usize, n as u64);
            phi_l += n * t.run_l[p];
            phi_c += n * t.run_c[p];
            l_max = l_max.max(t.suffix_l[p]);
            c_max = c_max.max(t.suffix_c[p]);
        }
        let mut bound = u64::MAX;
        if self.l_paced {
            bound = bound.min(rl + idle_cycles(rc, phi_c, self.max_run_c, c_max, t.sigma_c));
        }
        if self.c_paced {
            bound = bound.min(rc + idle_cycles(rl, phi_l, self.max_run_l, l_max, t.sigma_l));
        }
        bound
    }
}

/// Step 3: at most `min(R, x_max + floor((K-1) x_max / sigma))` cycles without a ready
/// warp of the paced type, with `K = max(Phi, D^2)`.
fn idle_cycles(remaining: u64, phi: u64, longest_run: u64, x_max: u64, sigma: u32) -> u64 {
    if remaining == 0 {
        return 0;
    }
    let k = phi.max(longest_run * longest_run).max(1);
    remaining.min(x_max + (k - 1) * x_max / sigma as u64)
}
