//! Warp-count states, the shared ground of the exact search and the heuristic.
//!
//! Warps are identical, so a state is how many warps have completed `p` instructions,
//! for `p = 0..I` (domain notes, section 1). In each cycle exactly
//! `min(sigma_X, #warps whose next instruction is X)` warps advance on X, for X = L, C;
//! the adversary picks which positions they come from. A state is packed into a
//! `u128`, `bits` bits per position `0..I-1` (the count of finished warps is implied).

use crate::error::InputError;
use crate::instance::Instance;
use crate::kernel::Unit;
use crate::schedule::Schedule;

/// A packed warp-count state. `0` means every warp has finished.
pub type State = u128;

/// Reusable buffers for [`Model::successors_with`].
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    ready: Vec<(usize, u32)>,
    after: Vec<u32>,
    deltas: Vec<State>,
    l_deltas: Vec<State>,
}

/// The transition system of one instance.
#[derive(Debug, Clone)]
pub struct Model {
    /// `I`.
    pub len: usize,
    /// `W`.
    pub warps: u32,
    sigma_l: u32,
    sigma_c: u32,
    units: Vec<Unit>,
    bits: u32,
    mask: u128,
    /// L instructions from position `p` to the end.
    suffix_l: Vec<u64>,
    /// C instructions from position `p` to the end.
    suffix_c: Vec<u64>,
    /// `run_l[p]`: L instructions from `p` to the end of the run of L's at `p` (0 at a C).
    run_l: Vec<u64>,
    /// `run_c[p]`: likewise for runs of C's.
    run_c: Vec<u64>,
    /// Longest run of consecutive L's.
    max_run_l: u64,
    /// Longest run of consecutive C's.
    max_run_c: u64,
}

impl Model {
    /// Builds the model; refuses instances whose states do not fit in 128 bits.
    pub fn new(inst: &Instance) -> Result<Model, InputError> {
        let len = inst.len();
        let bits = 32 - inst.warps.leading_zeros();
        if len as u32 * bits > 128 {
            return Err(InputError::new(
                "kernel",
                format!("{} instructions x {} warps", len, inst.warps),
                format!("too large for the exact search's state encoding (I * {bits} bits > 128); use bounds, the heuristic or the ILP"),
            ));
        }
        let units = inst.kernel.units().to_vec();
        let mut suffix_l = vec![0; len + 1];
        let mut suffix_c = vec![0; len + 1];
        for p in (0..len).rev() {
            suffix_l[p] = suffix_l[p + 1] + (units[p] == Unit::L) as u64;
            suffix_c[p] = suffix_c[p + 1] + (units[p] == Unit::C) as u64;
        }
        let runs = |u: Unit| {
            let mut r = vec![0u64; len + 1];
            for p in (0..len).rev() {
                r[p] = if units[p] == u { 1 + r[p + 1] } else { 0 };
            }
            r.truncate(len);
            r
        };
        let (run_l, run_c) = (runs(Unit::L), runs(Unit::C));
        let (max_run_l, max_run_c) = (run_l.iter().copied().max().unwrap_or(0), run_c.iter().copied().max().unwrap_or(0));
        Ok(Model {
            run_l,
            run_c,
            max_run_l,
            max_run_c,
            len,
            warps: inst.warps,
            sigma_l: inst.sigma_l,
            sigma_c: inst.sigma_c,
            units,
            bits,
            mask: (1u128 << bits) - 1,
            suffix_l,
            suffix_c,
        })
    }

    /// Whether every state fits in 64 bits.
    pub fn fits_u64(&self) -> bool {
        self.len as u32 * self.bits <= 64
    }

    /// All `W` warps before their first instruction.
    pub fn start(&self) -> State {
        self.warps as u128
    }

    /// Number of warps that have completed exactly `p` instructions (`p < I`).
    pub fn count(&self, s: State, p: usize) -> u32 {
        ((s >> (p as u32 * self.bits)) & self.mask) as u32
    }

    fn shift(&self, p: usize) -> u32 {
        p as u32 * self.bits
    }

    /// Every successor of `s` (one per choice of the adversary), appended to `out`
    /// after clearing it. Empty exactly when `s` is finished.
    pub fn successors(&self, s: State, out: &mut Vec<State>) {
        self.successors_with(s, &mut Scratch::default(), out);
    }

    /// [`Model::successors`] reusing the buffers in `scratch` (no allocation once warm).
    pub fn successors_with(&self, s: State, scratch: &mut Scratch, out: &mut Vec<State>) {
        out.clear();
        if s == 0 {
            return;
        }
        self.unit_deltas(s, Unit::L, scratch);
        std::mem::swap(&mut scratch.deltas, &mut scratch.l_deltas);
        self.unit_deltas(s, Unit::C, scratch);
        for &dl in &scratch.l_deltas {
            for &dc in &scratch.deltas {
                out.push(s.wrapping_add(dl).wrapping_add(dc));
            }
        }
    }

    /// Fills `scratch.deltas` with the additive changes to the packed state for every
    /// way of advancing `min(sigma_u, ready_u)` warps of type `u` (a single zero delta
    /// if none is ready).
    fn unit_deltas(&self, s: State, u: Unit, scratch: &mut Scratch) {
        let sigma = match u {
            Unit::L => self.sigma_l,
            Unit::C => self.sigma_c,
        };
        scratch.ready.clear();
        for p in 0..self.len {
            if self.units[p] == u {
                let n = self.count(s, p);
                if n > 0 {
                    scratch.ready.push((p, n));
                }
            }
        }
        scratch.after.clear();
        scratch.after.resize(scratch.ready.len() + 1, 0);
        for j in (0..scratch.ready.len()).rev() {
            scratch.after[j] = scratch.after[j + 1] + scratch.ready[j].1;
        }
        let need = scratch.after[0].min(sigma);
        scratch.deltas.clear();
        if need == 1 {
            // The common sigma = 1 case: one warp from any ready position.
            for &(p, _) in &scratch.ready {
                scratch.deltas.push(self.advance(0, p, 1));
            }
            return;
        }
        self.distribute(&scratch.ready, &scratch.after, 0, need, 0, &mut scratch.deltas);
    }

    fn distribute(&self, ready: &[(usize, u32)], after: &[u32], j: usize, left: u32, delta: State, out: &mut Vec<State>) {
        if j == ready.len() {
            out.push(delta);
            return;
        }
        let (p, n) = ready[j];
        let lo = left.saturating_sub(after[j + 1]);
        for k in (lo..=n.min(left)).rev() {
            self.distribute(ready, after, j + 1, left - k, self.advance(delta, p, k), out);
        }
    }

    /// `delta` plus the change of moving `k` warps from position `p` to `p + 1`.
    fn advance(&self, delta: State, p: usize, k: u32) -> State {
        let mut d = delta.wrapping_sub((k as u128) << self.shift(p));
        if p + 1 < self.len {
            d = d.wrapping_add((k as u128) << self.shift(p + 1));
        }
        d
    }

    /// Remaining L and C instructions over all warps in `s`.
    pub fn remaining(&self, s: State) -> (u64, u64) {
        let (mut l, mut c) = (0, 0);
        for p in 0..self.len {
            let n = self.count(s, p) as u64;
            l += n * self.suffix_l[p];
            c += n * self.suffix_c[p];
        }
        (l, c)
    }

    /// A proven upper bound on the cycles still needed from `s`: the minimum of
    /// * the safe-horizon argument (see [`crate::bounds`]) applied to each position a
    ///   last warp may hold, and
    /// * the *queue bound*, when `sigma_L = 1` and no run of C's is longer than
    ///   `sigma_C` (and the same with L and C swapped). Proof:
    ///   1. With `sigma_L = 1`, every cycle in which some warp is ready for an L issues
    ///      exactly one L, so `T(s) = R_L + N0`, where `N0` counts the cycles in which
    ///      no warp is ready for an L.
    ///   2. Let `Q` be the warps ready for a C and `Phi` the C instructions left in
    ///      their current runs of C's (`Q <= Phi <= D Q`, `D` the longest run). A cycle
    ///      issues `min(sigma_C, Q)` C's, each lowering `Phi` by one, and at most one L,
    ///      which can start a new run: `Phi' <= Phi - min(sigma_C, Q) + D`. If
    ///      `Q >= sigma_C >= D` then `Phi' <= Phi`; otherwise `Phi' <= Phi - Phi/D + D`,
    ///      which is `<= D^2` when `Phi <= D^2` and `< Phi` when `Phi > D^2`. So `Q`
    ///      never exceeds `K = max(Phi(s), D^2)`.
    ///   3. In an `N0` cycle every unfinished warp is in `Q`, so from the first `N0`
    ///      cycle on at most `K` warps are unfinished, each with at most `c_max` C's
    ///      left (the most any occupied position has left). Take the warp that
    ///      finishes last: in each `N0` cycle it issues one of its `<= c_max` C's, or
    ///      all `sigma_C` C units are busy with the other `<= (K-1) c_max` C's. Hence
    ///      `N0 <= min(R_C, c_max + floor((K-1) c_max / sigma_C))`.
    pub fn upper_bound(&self, s: State) -> u64 {
        let (rl, rc) = self.remaining(s);
        let mut per_warp = 0;
        let (mut phi_l, mut phi_c, mut l_max, mut c_max) = (0u64, 0u64, 0u64, 0u64);
        for p in 0..self.len {
            let n = self.count(s, p) as u64;
            if n == 0 {
                continue;
            }
            let (ol, oc) = (rl - self.suffix_l[p], rc - self.suffix_c[p]);
            per_warp = per_warp.max((self.len - p) as u64 + ol / self.sigma_l as u64 + oc / self.sigma_c as u64);
            phi_l += n * self.run_l[p];
            phi_c += n * self.run_c[p];
            l_max = l_max.max(self.suffix_l[p]);
            c_max = c_max.max(self.suffix_c[p]);
        }
        let mut bound = per_warp;
        if self.sigma_l == 1 && self.max_run_c <= self.sigma_c as u64 {
            bound = bound.min(rl + queue_bound(rc, phi_c, self.max_run_c, c_max, self.sigma_c));
        }
        if self.sigma_c == 1 && self.max_run_l <= self.sigma_l as u64 {
            bound = bound.min(rc + queue_bound(rl, phi_l, self.max_run_l, l_max, self.sigma_l));
        }
        bound
    }

    /// A proven lower bound on the cycles still needed from `s` (longest remaining
    /// warp; work divided by capacity).
    pub fn lower_bound(&self, s: State) -> u64 {
        let (rl, rc) = self.remaining(s);
        let longest = (0..self.len).find(|&p| self.count(s, p) > 0).map_or(0, |p| (self.len - p) as u64);
        longest.max(rl.div_ceil(self.sigma_l as u64)).max(rc.div_ceil(self.sigma_c as u64))
    }

    /// Turns a path of states `start = path[0], ..., path[T] = 0` into a concrete
    /// schedule of `T` cycles, assigning the advancing counts to individual warps.
    pub fn schedule_of(&self, path: &[State]) -> Schedule {
        let w = self.warps as usize;
        let mut cycles = vec![Vec::with_capacity(self.len); w];
        let mut at: Vec<std::collections::VecDeque<usize>> = vec![Default::default(); self.len + 1];
        at[0] = (0..w).collect();
        for (t, pair) in path.windows(2).enumerate() {
            let (s, next) = (pair[0], pair[1]);
            let mut carry = 0i64; // warps that moved from p-1 into p
            let mut moving = Vec::new();
            for p in 0..self.len {
                let before = self.count(s, p) as i64;
                let after = self.count(next, p) as i64;
                let k = before + carry - after;
                if k > 0 {
                    moving.push((p, k as usize));
                }
                carry = k;
            }
            for (p, k) in moving.into_iter().rev() {
                for _ in 0..k {
                    let warp = at[p].pop_front().expect("the path's counts are consistent");
                    cycles[warp].push(t as u64 + 1);
                    at[p + 1].push_back(warp);
                }
            }
        }
        Schedule { cycles }
    }
}

/// Step 3 of [`Model::upper_bound`]'s queue bound: at most
/// `min(R, x_max + floor((K-1) x_max / sigma))` cycles without a ready warp of the
/// other type, with `K = max(Phi, D^2)`.
fn queue_bound(remaining: u64, phi: u64, longest_run: u64, x_max: u64, sigma: u32) -> u64 {
    if remaining == 0 {
        return 0;
    }
    let k = phi.max(longest_run * longest_run).max(1);
    remaining.min(x_max + (k - 1) * x_max / sigma as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_of_start() {
        let i = Instance::new("LLC", 4, 1, 1).unwrap();
        let m = Model::new(&i).unwrap();
        let mut out = Vec::new();
        m.successors(m.start(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(m.count(out[0], 0), 3);
        assert_eq!(m.count(out[0], 1), 1);
        let i = Instance::new("LCL", 4, 2, 1).unwrap();
        let m = Model::new(&i).unwrap();
        let s1 = { m.successors(m.start(), &mut out); out[0] };
        assert_eq!((m.count(s1, 0), m.count(s1, 1)), (2, 2));
        m.successors(s1, &mut out);
        // L: 2 from position 0; C: 1 from position 1.
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn bounds_at_start_match_closed_forms() {
        let i = Instance::new("LLCLLL", 4, 2, 2).unwrap();
        let m = Model::new(&i).unwrap();
        assert_eq!(m.upper_bound(m.start()), crate::bounds::safe_horizon(&i));
        assert_eq!(m.lower_bound(m.start()), crate::bounds::lower_bound(&i));
    }
}
