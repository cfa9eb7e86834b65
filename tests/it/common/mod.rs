//! Helpers shared by the library tests: instances, proptest strategies, and the
//! independent reference computations (plain DP, exact search, ILP options).
#![allow(dead_code)]

pub mod cli;

use gpu_makespan::exact::ilp::{ConstraintForm, IlpOptions};
use gpu_makespan::exact::outcome::Outcome;
use gpu_makespan::exact::search::{self, SearchLimits};
use gpu_makespan::model::bounds;
use gpu_makespan::model::instance::Instance;
use gpu_makespan::state::transitions::{Scratch, Transitions};
use gpu_makespan::state::Counts;
use proptest::prelude::*;
use std::collections::HashMap;

/// The cases of a slow property test: `full` when `MAKESPAN_FULL_PROPTESTS=1` (set by
/// `scripts/explore-seeds.sh`), else `capped` (`scripts/test.sh`, so CI). Under one seed
/// the capped run is the first `capped` cases of the full one: the same cases, fewer, and
/// every assertion as in the full run.
pub fn cases(full: u32, capped: u32) -> u32 {
    if std::env::var("MAKESPAN_FULL_PROPTESTS").is_ok_and(|v| v == "1") {
        full
    } else {
        capped
    }
}

/// A small deterministic generator (SplitMix64) for simulators' choices.
pub struct Draw(pub u64);

impl Draw {
    /// A value in `lo..=hi`.
    pub fn next(&mut self, lo: u64, hi: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        lo + z % (hi - lo + 1)
    }
}

/// An instance from an instruction string, `W` and integral sigmas (must be valid).
pub fn inst(kernel: &str, warps: i64, sigma_l: i64, sigma_c: i64) -> Instance {
    Instance::new(kernel, warps, sigma_l, sigma_c).unwrap()
}

/// The paper's instances and the two counterexamples to the paper (README):
/// (kernel, W, sigma_L, sigma_C, T^(W)).
pub const KNOWN: [(&str, i64, i64, i64, u64); 4] = [("LLC", 4, 1, 1, 9), ("LCL", 4, 1, 1, 9), ("LCL", 2, 1, 1, 4), ("LLCLLL", 4, 2, 2, 13)];

/// Random instruction strings of 1 to `max_len` instructions.
pub fn kernel(max_len: usize) -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=max_len).prop_map(|v| v.into_iter().collect())
}

/// Random instances: 1 to `max_len` instructions, 1 to `max_w` warps, sigma_L in
/// `1..=max_sl`, sigma_C in `1..=max_sc`.
pub fn instances(max_len: usize, max_w: i64, max_sl: i64, max_sc: i64) -> impl Strategy<Value = Instance> {
    (kernel(max_len), 1i64..=max_w, 1i64..=max_sl, 1i64..=max_sc).prop_map(|(k, w, l, c)| inst(&k, w, l, c))
}

/// The small range: 1-8 instructions, 1-10 warps, sigma_L in 1..3, sigma_C in 1..4.
pub fn instance() -> impl Strategy<Value = Instance> {
    instances(8, 10, 3, 4)
}

/// The exact search's outcome (asserted exact).
pub fn exact(inst: &Instance) -> Outcome {
    let out = search::solve(inst, SearchLimits::default()).unwrap();
    assert!(out.exact(), "{} W={}", inst.kernel, inst.warps);
    out
}

/// The exact search's outcome without the dense programme: the branch and bound's
/// (asserted exact).
pub fn exact_branch_and_bound(inst: &Instance) -> Outcome {
    let out = search::solve(inst, SearchLimits { dense: false, ..SearchLimits::default() }).unwrap();
    assert!(out.exact(), "{} W={}", inst.kernel, inst.warps);
    assert_eq!(out.stats.search.unwrap().dense_states, 0);
    out
}

/// Longest path from `s` by plain memoised recursion over the transition system: no
/// bounds, no pruning, no heuristic. Independent of the search's branch and bound.
/// `memo` ends up holding the exact remaining time of every state reachable from `s`.
pub fn plain_dp(t: &Transitions, s: &Counts, memo: &mut HashMap<Counts, u64>) -> u64 {
    if s.is_finished() {
        return 0;
    }
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let mut succ = Vec::new();
    t.successors(s, &mut Scratch::default(), &mut succ);
    let v = 1 + succ.iter().map(|n| plain_dp(t, n, memo)).max().unwrap();
    memo.insert(s.clone(), v);
    v
}

/// ILP options over the safe horizon, without time limit or warm start.
pub fn ilp_options(inst: &Instance, form: ConstraintForm) -> IlpOptions {
    IlpOptions { form, horizon: bounds::safe_horizon(inst), time_limit: None, symmetry_breaking: true, start: None, stop: None }
}
