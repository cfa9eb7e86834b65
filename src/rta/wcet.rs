//! The link from the warp model to the RTA: a block's execution time `C` computed from
//! its instruction string, and the assumption that value rests on.

use crate::error::Error;
use crate::exact::blocks::solve_blocks;
use crate::exact::solve::{solve, Method, SolveOptions};
use crate::model::blocks::{lrr_turnover_bound_with, turnover_bound_beside, Beside, Blocks};
use crate::model::latency::Latencies;
use crate::model::simulate::latency_horizon;
use crate::model::bounds::safe_horizon;
use crate::model::cycles::Cycles;
use crate::model::instance::Instance;
use crate::model::program::Program;
use crate::rta::gpu::{Arbitration, Platform};
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
            Contention::FullSm => format!("full-sm: {warps} warps of a full SM starting together"),
        }
    }
}

/// The words every `wcet_source` resting on [`Arbitration::OldestFirst`] contains.
pub const OLDEST_FIRST: &str = "oldest-first warp arbitration";

/// The words every `wcet_source` resting on [`Arbitration::RoundRobin`] contains.
pub const ROUND_ROBIN: &str = "round-robin warp arbitration";

/// The words every `wcet_source` of a `C` computed in the paper's zero-latency model
/// contains.
pub const NO_LATENCIES: &str = "no latencies (latency 1, the paper's model): not a bound on real hardware";

/// The words every `wcet_source` of a `C` computed with instruction latencies contains.
pub const WITH_LATENCIES: &str = "with instruction latencies (gpu.latency)";

/// What a `C` computed with `latency` rests on, for `wcet_source`.
fn latency_model(latency: &Latencies) -> String {
    if latency.is_one() {
        NO_LATENCIES.to_string()
    } else {
        format!("{WITH_LATENCIES} {latency}, each instruction waiting for its predecessor's result")
    }
}

/// The latency horizon of `blocks` (proven for every work-conserving scheduler and every
/// latency up to the longest; `crate::model::simulate::latency_horizon`) as a computed
/// `C`, reported optimistic (it covers blocks starting together only).
fn horizon_with(blocks: &Blocks, latency: &Latencies, what: &str) -> Computed {
    Computed {
        cycles: Cycles::from(latency_horizon(blocks, latency)),
        how: format!("latency horizon (proven for any work-conserving scheduler) of {what}; {}", latency_model(latency)),
        optimistic: true,
    }
}

/// Per-block cycle counts already computed, keyed by instance (same kernel, warps, SM).
#[derive(Debug, Default)]
pub struct WcetCache {
    known: HashMap<Instance, (Cycles, String)>,
}

impl WcetCache {
    /// The proven upper bound on `T^(W)` of `inst` in cycles (exact when the search
    /// finishes within the limits; the safe horizon when the instance is too large for
    /// the search), and a sentence saying which. Computed once per distinct instance.
    /// `limits` are those of this solve (its time limit restarts here; the method is
    /// always the search): the phases of one kernel share one deadline (see
    /// `phases_cycles`).
    pub fn block_cycles(&mut self, inst: &Instance, limits: &SolveOptions) -> Result<(Cycles, String), Error> {
        if let Some(v) = self.known.get(inst) {
            return Ok(v.clone());
        }
        let v = block_cycles(inst, limits)?;
        self.known.insert(inst.clone(), v.clone());
        Ok(v)
    }
}

/// The proven upper bound on a block's cycles of a kernel that may have barriers: the
/// sum over its phases (one block; see [`crate::model::program`]), and what it rests on.
fn phases_cycles(p: &Program, cache: &mut WcetCache, limits: &SolveOptions) -> Result<(Cycles, String), Error> {
    if !p.has_barriers() {
        return cache.block_cycles(&p.phases[0], limits);
    }
    // One deadline for the whole kernel: the distinct phases run smallest state space
    // first, each starting with its fair share of the time left (the time left over the
    // phases not yet started), so a phase proven exact early hands its time on to the
    // later, larger ones, and the largest gets all that is left.
    let kernel = limits.budget.with_overall_limit(limits.budget.time_limit());
    let (distinct, index) = p.distinct();
    let order = crate::exact::phases::smallest_first(&distinct);
    let mut values = vec![(Cycles::ZERO, String::new()); distinct.len()];
    for (k, &i) in order.iter().enumerate() {
        let share = kernel.time_left().map(|left| left / (order.len() - k) as u32);
        let phase_limits = SolveOptions { budget: kernel.with_time_limit(share), ..limits.clone() };
        values[i] = cache.block_cycles(distinct[i], &phase_limits)?;
    }
    let total: Cycles = index.iter().map(|&i| values[i].0).sum();
    let exact = index.iter().filter(|&&i| values[i].1.starts_with("exact")).count();
    Ok((
        total,
        format!(
            "sum over the {} barrier phases of one block of their proven bounds on T^({}), {exact} of them exact",
            p.phases.len(),
            p.warps()
        ),
    ))
}

/// A computed `C` in cycles, what it is, and whether it is known not to bound a block's
/// time in every case the RTA covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Computed {
    /// Cycles (of the SM's clock): the task set's cycle time makes them its unit.
    pub cycles: Cycles,
    /// Which bound it is and what it rests on, for `wcet_source`.
    pub how: String,
    /// Known not to bound every block's time (no proven verdict rests on it).
    pub optimistic: bool,
}

impl Computed {
    /// `contention = "isolated"`: one block alone (optimistic); with latencies its
    /// latency horizon.
    pub fn isolated(one: &Program, latency: &Latencies, cache: &mut WcetCache, limits: &SolveOptions) -> Result<Computed, Error> {
        let assumption = Contention::Isolated.assumption(one.warps());
        if !latency.is_one() {
            let c = horizon_with(&Blocks::new(one.clone(), 1), latency, &format!("one block of {} warps", one.warps()));
            return Ok(Computed { how: format!("{}; {assumption}", c.how), ..c });
        }
        let (cycles, how) = phases_cycles(one, cache, limits)?;
        Ok(Computed { cycles, how: format!("{how}; {assumption}; {NO_LATENCIES}"), optimistic: true })
    }
}

/// The most warps of the model (warps of `sm.warp_size` threads) resident on one SM at
/// once: the platform's warps per SM times the model warps one platform warp's threads
/// can make (`ceil(platform warp / model warp)`; a block takes whole platform warps of
/// threads, so a model warp never shares one). With the TX2's 32 on both sides, 64.
pub(crate) fn warp_slots(p: &Platform, sm: &crate::model::sm::SmCounts) -> u64 {
    let model = sm.warp_size.max(1) as u64;
    (p.sm_threads / p.warp_size).max(1) * p.warp_size.div_ceil(model)
}

/// `contention = "full-sm"`: with oldest-first arbitration, the turnover bound
/// ([`turnover_bound_beside`], with the profile's latencies: proven for any arrival
/// pattern, beside the kernels of `beside` as they fit, `None` when a kernel given by
/// `wcet` may share the SM); with round-robin arbitration, the
/// round-robin turnover bound ([`lrr_turnover_bound_with`]: proven for any arrival
/// pattern and any other kernels, counting only the SM's `slots` model warp slots,
/// [`warp_slots`]); otherwise the worst case of a full SM of
/// warps starting together (several blocks with barriers as [`crate::exact::blocks`]),
/// which does not cover turnover and is reported optimistic.
pub fn full_sm(
    one: &Program,
    p: &Platform,
    (arbitration, latency): (Arbitration, &Latencies),
    slots: u64,
    beside: Option<Beside>,
    cache: &mut WcetCache,
    limits: &SolveOptions,
) -> Result<Computed, Error> {
    let w = one.warps() as u64;
    match (arbitration, beside) {
        (Arbitration::OldestFirst, Some(beside)) => {
            let (r, ahead) = (beside.room_warps, beside.ahead());
            Ok(Computed {
                cycles: Cycles::from(turnover_bound_beside(one, &beside, latency)),
                how: format!(
                    "proven bound covering block turnover under {OLDEST_FIRST} (gpu.warp_arbitration): one block of {w} warps beside at most {r} other resident warps holding at most {} L and {} C instructions together (the task set's kernels as they fit beside it, at most one job's blocks each, both classes counted over one set of blocks), any arrival pattern; {}",
                    ahead.l,
                    ahead.c,
                    latency_model(latency)
                ),
                optimistic: false,
            })
        }
        (Arbitration::RoundRobin, _) => Ok(Computed {
            cycles: Cycles::from(lrr_turnover_bound_with(one, slots, latency)),
            how: format!(
                "proven bound covering block turnover under {ROUND_ROBIN} (gpu.warp_arbitration): one block of {w} warps on an SM of {slots} warp slots, each of its instructions waiting at most for one instruction of every other slot's warp (whatever kernel it runs), any arrival pattern; {}",
                latency_model(latency)
            ),
            optimistic: false,
        }),
        (Arbitration::OldestFirst, None) => {
            let c = together(one, (p, slots), latency, cache, limits)?;
            Ok(Computed { how: format!("{}; a kernel given by wcet may share the SM and its warps' instructions are unknown, so no bound covers block turnover", c.how), ..c })
        }
        (Arbitration::Unknown, _) => {
            let c = together(one, (p, slots), latency, cache, limits)?;
            Ok(Computed { how: format!("{}; no warp arbitration assumed (gpu.warp_arbitration = \"unknown\"): blocks that start while others are mid-way are not covered; set gpu.warp_arbitration = \"oldest-first\" or \"round-robin\" for a C that covers them", c.how), ..c })
        }
    }
}

/// The worst case of a full SM of warps starting together (`sm_warps` model warps,
/// [`warp_slots`]): `T^(sm warps)` without barriers, `B` blocks of `W` warps with them.
/// Optimistic: it covers no turnover.
fn together(one: &Program, (p, sm_warps): (&Platform, u64), latency: &Latencies, cache: &mut WcetCache, limits: &SolveOptions) -> Result<Computed, Error> {
    let w = one.warps() as u64;
    let b = (sm_warps / w).clamp(1, p.max_blocks_per_sm);
    if !latency.is_one() {
        let (blocks, what) = match one.has_barriers() {
            false => (Blocks::new(one.with_warps(sm_warps as u32), 1), format!("{sm_warps} warps of a full SM starting together")),
            true => (Blocks::new(one.clone(), b as u32), format!("{b} blocks of {w} warps with their barriers starting together")),
        };
        let c = horizon_with(&blocks, latency, &what);
        return Ok(Computed { how: format!("{} (full-sm: a full SM of this kernel's blocks)", c.how), ..c });
    }
    if !one.has_barriers() {
        let (cycles, how) = cache.block_cycles(&one.phases[0].with_warps(sm_warps as u32), limits)?;
        return Ok(Computed {
            cycles,
            how: format!("{how}; {}; {NO_LATENCIES}", Contention::FullSm.assumption(sm_warps as u32)),
            optimistic: true,
        });
    }
    let blocks = Blocks::new(one.clone(), b as u32);
    let opts = SolveOptions { budget: limits.budget.restarted().unwatched(), ..limits.clone() };
    let sol = solve_blocks(&blocks, &opts)?;
    let what = match sol.upper_from {
        _ if sol.exact() => "exact worst case",
        crate::exact::blocks::UPPER_FROM_IDLE => "proven upper bound (search stopped; the idle bound)",
        _ => "proven upper bound (search stopped; the block horizon)",
    };
    Ok(Computed {
        cycles: Cycles::from(sol.interval.upper()),
        how: format!(
            "{what} of {b} blocks of {w} warps with their barriers starting together (full-sm: a full SM of this kernel's blocks); {NO_LATENCIES}"
        ),
        optimistic: true,
    })
}

fn block_cycles(inst: &Instance, limits: &SolveOptions) -> Result<(Cycles, String), Error> {
    let opts = SolveOptions { method: Method::Search, budget: limits.budget.restarted().unwatched(), ..limits.clone() };
    match solve(inst, &opts).map(|s| s.outcome) {
        Ok(o) if o.exact() => Ok((Cycles::from(o.upper_bound()), format!("exact T^({}) of {}", inst.warps, inst.kernel))),
        Ok(o) => {
            Ok((Cycles::from(o.upper_bound()), format!("proven upper bound on T^({}) (search stopped; exact value >= {})", inst.warps, o.lower_bound())))
        }
        Err(Error::TooLarge(_)) => {
            Ok((Cycles::from(safe_horizon(inst)), format!("safe horizon of T^({}) (proven; too large for the exact search)", inst.warps)))
        }
        Err(e) => Err(e),
    }
}
