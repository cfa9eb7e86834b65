//! A fast lower bound on `T^(W)`: adversarial rollouts over warp-count states.
//!
//! Every rollout is a real work-conserving schedule, so its length is a proven lower
//! bound on the worst case; it is never presented as exact. Policies:
//! * `laggard`: advance the warps that are furthest behind (round-robin like Fig. 2);
//! * `leader`: advance the warps that are furthest ahead;
//! * `greedy`: pick the successor with the largest proven upper bound on the remaining
//!   time (ties broken at random), i.e. keep as much delay possible as long as possible;
//! * `random`: uniform successor.
//!
//! Rollouts use a fixed seed, so results are reproducible.

use crate::state::{Model, Scratch, State};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// The longest rollout found: its length and its state path (`path[0]` is the start,
/// `path[len]` is the finished state).
#[derive(Debug, Clone)]
pub struct Rollout {
    /// Cycles (= makespan of the corresponding schedule).
    pub length: u64,
    /// States visited, one per cycle boundary.
    pub path: Vec<State>,
}

#[derive(Clone, Copy)]
enum Policy {
    Laggard,
    Leader,
    Greedy,
    Random,
}

/// Runs `rounds` randomised rollouts of each randomised policy plus the deterministic
/// ones, and returns the longest. `O(rounds * T * successors)`.
pub fn longest_rollout(model: &Model, rounds: usize, seed: u64) -> Rollout {
    longest_rollout_until(model, rounds, seed, None)
}

/// [`longest_rollout`], starting no randomised round after `deadline` (the two
/// deterministic rollouts always run, so there is always a schedule).
pub fn longest_rollout_until(model: &Model, rounds: usize, seed: u64, deadline: Option<Instant>) -> Rollout {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut best = rollout(model, Policy::Laggard, &mut rng);
    let consider = |r: Rollout, best: &mut Rollout| {
        if r.length > best.length {
            *best = r;
        }
    };
    consider(rollout(model, Policy::Leader, &mut rng), &mut best);
    for _ in 0..rounds {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        consider(rollout(model, Policy::Greedy, &mut rng), &mut best);
        consider(rollout(model, Policy::Random, &mut rng), &mut best);
    }
    best
}

fn rollout(model: &Model, policy: Policy, rng: &mut SmallRng) -> Rollout {
    let mut s = model.start();
    let mut path = vec![s];
    let (mut succ, mut scratch) = (Vec::new(), Scratch::default());
    while s != 0 {
        model.successors_with(s, &mut scratch, &mut succ);
        s = match policy {
            // successors() lists larger moves from lower positions first.
            Policy::Laggard => succ[0],
            Policy::Leader => succ[succ.len() - 1],
            Policy::Random => succ[rng.random_range(0..succ.len())],
            Policy::Greedy => {
                let mut best = (0u64, 0u64, succ[0]);
                for &n in &succ {
                    let key = (model.upper_bound(n), rng.random::<u64>());
                    if (key.0, key.1) > (best.0, best.1) {
                        best = (key.0, key.1, n);
                    }
                }
                best.2
            }
        };
        path.push(s);
    }
    Rollout { length: path.len() as u64 - 1, path }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::check;
    use crate::instance::Instance;

    #[test]
    fn rollouts_are_valid_schedules() {
        for (k, w, sl, sc) in [("LLC", 4, 1, 1), ("LCL", 4, 1, 1), ("LLCLLL", 4, 2, 2), ("CLLCCL", 7, 2, 3)] {
            let inst = Instance::new(k, w, sl, sc).unwrap();
            let m = Model::new(&inst).unwrap();
            let r = longest_rollout(&m, 8, 1);
            let s = m.schedule_of(&r.path);
            assert_eq!(check(&inst, &s), Ok(r.length), "{k} W={w}");
        }
    }
}
