//! The link from the warp model to the RTA: a block's execution time `C` computed from
//! its instruction string, and the assumption that value rests on.

use crate::error::Error;
use crate::exact::solve::{solve, Method, SolveOptions};
use crate::model::bounds::safe_horizon;
use crate::model::instance::Instance;
use crate::model::sm::SmCounts;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Which warps a computed per-block WCET accounts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contention {
    /// `T^(ceil(b/S))`: one block alone on an SM.
    Isolated,
    /// `T^(sm_threads/S)`: a full SM of warps starting together (default).
    FullSm,
}

impl Contention {
    /// The warps the makespan is computed for: one block's (`ceil(b/S)`) or a full SM's.
    pub fn warps(self, threads_per_block: u64, sm_threads: u64, warp_size: u64) -> u32 {
        let w = match self {
            Contention::Isolated => threads_per_block.div_ceil(warp_size),
            Contention::FullSm => (sm_threads / warp_size).max(1),
        };
        u32::try_from(w).unwrap_or(u32::MAX)
    }

    /// The name used in task-set files.
    pub fn name(self) -> &'static str {
        match self {
            Contention::Isolated => "isolated",
            Contention::FullSm => "full-sm",
        }
    }

    /// What a `C` computed with this contention rests on, for the report.
    pub fn assumption(self, warps: u32) -> String {
        match self {
            Contention::Isolated => format!(
                "isolated: one block's {warps} warps alone on an SM; ignores other blocks resident on the same SM (optimistic) and block turnover"
            ),
            Contention::FullSm => format!(
                "full-sm: {warps} warps of a full SM starting together; contention-aware, but does not cover block turnover (blocks starting mid-way)"
            ),
        }
    }
}

/// The Jetson TX2 SM: 32 load/store units, 128 CUDA cores, warp size 32.
pub const TX2_SM: SmCounts = SmCounts { load_store_units: 32, cuda_cores: 128, warp_size: 32 };

/// Per-block cycle counts already computed, keyed by instance (same kernel, warps, SM).
#[derive(Debug, Default)]
pub struct WcetCache {
    known: HashMap<Instance, (u64, String)>,
}

impl WcetCache {
    /// The proven upper bound on `T^(W)` of `inst` in cycles (exact when the search
    /// finishes within the limits; the safe horizon when the instance is too large for
    /// the search), and a sentence saying which. Computed once per distinct instance.
    /// `limits` are those of each solve (its time limit restarts per distinct kernel; the
    /// method is always the search).
    pub fn block_cycles(&mut self, inst: &Instance, limits: &SolveOptions) -> Result<(u64, String), Error> {
        if let Some(v) = self.known.get(inst) {
            return Ok(v.clone());
        }
        let v = block_cycles(inst, limits)?;
        self.known.insert(inst.clone(), v.clone());
        Ok(v)
    }
}

fn block_cycles(inst: &Instance, limits: &SolveOptions) -> Result<(u64, String), Error> {
    let opts = SolveOptions { method: Method::Search, budget: limits.budget.restarted().unwatched(), ..limits.clone() };
    match solve(inst, &opts).map(|s| s.outcome) {
        Ok(o) if o.exact() => Ok((o.upper_bound(), format!("exact T^({}) of {}", inst.warps, inst.kernel))),
        Ok(o) => {
            Ok((o.upper_bound(), format!("proven upper bound on T^({}) (search stopped; exact value >= {})", inst.warps, o.lower_bound())))
        }
        Err(Error::TooLarge(_)) => {
            Ok((safe_horizon(inst), format!("safe horizon of T^({}) (proven; too large for the exact search)", inst.warps)))
        }
        Err(e) => Err(e),
    }
}
