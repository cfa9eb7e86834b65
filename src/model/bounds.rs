//! Closed-form bounds on the worst-case makespan `T^(W)`.
//!
//! * [`pessimistic`]: the paper's eq. 5, `ceil(W/sigma_L) I_L + ceil(W/sigma_C) I_C`.
//!   **Not** an upper bound when a sigma > 1 (`LLCLLL`, W = 4, sigma 2/2: eq. 5 gives 12, the worst case is 13).
//! * [`safe_horizon`]: `I + floor((W-1) I_L / sigma_L) + floor((W-1) I_C / sigma_C)`,
//!   a proven upper bound for every instance (proof below).
//! * [`lower_bound`]: a proven lower bound, from work and path length.
//!
//! Proof of the safe horizon. Take the warp that finishes last. In every cycle up to
//! its last one it either issues one of its `I` instructions, or it is ready for an
//! instruction of type X and does not issue it; by work-conservation all `sigma_X`
//! X units are then busy, necessarily with other warps' X instructions. The other
//! `W-1` warps have `(W-1) I_X` X instructions in total, so at most
//! `floor((W-1) I_X / sigma_X)` cycles can be such X-waiting cycles.

use crate::model::instance::Instance;
use crate::model::kernel::Unit;

/// The paper's pessimistic makespan, eq. 5. Equals the safe horizon when both sigmas
/// are 1; otherwise it can be *below* the true worst case and is then not a bound.
pub fn pessimistic(inst: &Instance) -> u64 {
    let w = inst.warps as u64;
    let t_l = w.div_ceil(inst.sigma_l as u64) * inst.kernel.i_l() as u64;
    let t_c = w.div_ceil(inst.sigma_c as u64) * inst.kernel.i_c() as u64;
    t_l + t_c
}

/// The safe horizon `H`: a proven upper bound on `T^(W)` (see the module docs).
///
/// ```
/// let inst = gpu_makespan::Instance::new("LLC", 4, 1, 1)?;
/// assert_eq!(gpu_makespan::safe_horizon(&inst), 12); // T^(4) = 9 lies below
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn safe_horizon(inst: &Instance) -> u64 {
    let w1 = inst.warps as u64 - 1;
    inst.len() as u64 + w1 * inst.kernel.i_l() as u64 / inst.sigma_l as u64 + w1 * inst.kernel.i_c() as u64 / inst.sigma_c as u64
}

/// A proven lower bound on `T^(W)`: every schedule needs at least `I` cycles, and at
/// least `ceil(W I_X / sigma_X)` cycles to issue all X instructions.
///
/// ```
/// let inst = gpu_makespan::Instance::new("LLC", 4, 1, 1)?;
/// assert_eq!(gpu_makespan::lower_bound(&inst), 8); // 8 loads on one unit; T^(4) = 9
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn lower_bound(inst: &Instance) -> u64 {
    let w = inst.warps as u64;
    let work = |u: Unit| (w * inst.kernel.count(u) as u64).div_ceil(inst.sigma(u) as u64);
    (inst.len() as u64).max(work(Unit::L)).max(work(Unit::C))
}

/// True when eq. 5 is not proven safe for this instance: it is below the safe horizon.
/// (It may still happen to exceed `T^(W)`; only an exact solve can tell.)
pub fn pessimistic_unproven(inst: &Instance) -> bool {
    pessimistic(inst) < safe_horizon(inst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sigma_one_bounds_coincide() {
        let i = Instance::new("LLC", 4, 1, 1).unwrap();
        assert_eq!(pessimistic(&i), 12);
        assert_eq!(safe_horizon(&i), 12);
        assert_eq!(lower_bound(&i), 8);
    }

    #[test]
    fn counterexample_of_domain_notes() {
        let i = Instance::new("LLCLLL", 4, 2, 2).unwrap();
        assert_eq!(pessimistic(&i), 12);
        assert_eq!(safe_horizon(&i), 6 + 15 / 2 + 3 / 2);
        assert!(pessimistic_unproven(&i));
    }
}
