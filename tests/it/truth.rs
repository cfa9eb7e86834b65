//! The ground truth of real barrier phases (`tests/data/ground-truth.csv`, made offline
//! by `scripts/ground-truth.sh` with the exhaustive dense programme): every proven bound
//! must bracket it, and at small sizes the plain DP recomputes it.

use crate::common::{inst, plain_dp};
use gpu_makespan::model::bounds::{lower_bound, safe_horizon};
use gpu_makespan::model::instance::Instance;
use gpu_makespan::state::transitions::Transitions;
use gpu_makespan::state_bounds::report::start_state_bound;
use std::collections::HashMap;

/// Most states `C(I + W, W)` for which the test recomputes a value by the plain DP.
const PLAIN_DP_STATES: u64 = 100_000;
/// Most states for which the test builds the start-state bound (seconds each above).
const STATE_BOUND_STATES: u64 = 2_000_000;

/// The rows of the data file: each instance (TX2 sigmas) and its exact makespan.
fn truth() -> Vec<(Instance, u64)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ground-truth.csv")).expect("the data file");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("kernel,warps,sigma_l,sigma_c,makespan,seconds"));
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let n = |i: usize| f[i].parse::<i64>().unwrap_or_else(|e| panic!("{line}: {e}"));
            (inst(f[0], n(1), n(2), n(3)), n(4) as u64)
        })
        .collect()
}

fn states(i: &Instance) -> u64 {
    gpu_makespan::state::states(i.len() as u64, i.warps as u64).unwrap_or(u64::MAX)
}

/// The closed forms and the start-state bound bracket every true value.
#[test]
fn every_proven_bound_brackets_the_truth() {
    let rows = truth();
    assert!(rows.len() >= 40, "only {} rows", rows.len());
    for (i, t) in &rows {
        assert!(lower_bound(i) <= *t && *t <= safe_horizon(i), "{} W = {}: {t}", i.kernel, i.warps);
        if states(i) <= STATE_BOUND_STATES {
            assert!(*t <= start_state_bound(i), "{} W = {}: {t} > {}", i.kernel, i.warps, start_state_bound(i));
        }
    }
}

/// The plain DP (no bound, no pruning) gives the recorded value where it is small.
#[test]
fn the_plain_dp_recomputes_the_small_values() {
    let small: Vec<(Instance, u64)> = truth().into_iter().filter(|(i, _)| states(i) <= PLAIN_DP_STATES).collect();
    assert!(small.len() >= 10, "only {} small rows", small.len());
    for (i, t) in small {
        let trans = Transitions::new(&i);
        assert_eq!(plain_dp(&trans, &trans.start(), &mut HashMap::new()), t, "{} W = {}", i.kernel, i.warps);
    }
}
