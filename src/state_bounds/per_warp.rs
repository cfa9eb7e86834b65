//! The safe-horizon argument per state.

use super::{StateBound, Tables};
use crate::state::Counts;

/// For each occupied position `p`: a warp at `p` finishes within
/// `(I - p) + floor(O_L / sigma_L) + floor(O_C / sigma_C)` cycles, where `O_X` counts the
/// X instructions the *other* warps have left. The bound is the maximum over occupied
/// positions.
///
/// Proof (the argument of [`crate::model::bounds`], from an arbitrary state). Take the warp
/// that finishes last, at position `p`. In every cycle up to its last it either issues
/// one of its `I - p` remaining instructions, or it is ready for an X instruction and
/// does not issue it; by work-conservation all `sigma_X` X units are then busy with
/// other warps' X instructions, of which there are `O_X`, so there are at most
/// `floor(O_X / sigma_X)` such cycles for each X.
#[derive(Debug, Clone)]
pub struct PerWarp {
    tables: Tables,
}

impl PerWarp {
    /// The bound for the kernel described by `tables`.
    pub fn new(tables: &Tables) -> PerWarp {
        PerWarp { tables: tables.clone() }
    }
}

impl StateBound for PerWarp {
    fn upper(&self, s: &Counts) -> u64 {
        let t = &self.tables;
        let (rl, rc) = t.remaining(s);
        s.slots()
            .iter()
            .map(|&(p, _)| {
                let p = p as usize;
                let (ol, oc) = (rl - t.suffix_l[p], rc - t.suffix_c[p]);
                (t.len - p) as u64 + ol / t.sigma_l as u64 + oc / t.sigma_c as u64
            })
            .max()
            .unwrap_or(0)
    }
}
