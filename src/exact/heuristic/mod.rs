//! A fast lower bound on `T^(W)`: adversarial rollouts over warp-count states.
//!
//! Every rollout is a real work-conserving schedule, so its length is a proven lower
//! bound on the worst case; it is never presented as exact. Policies:
//! * `laggard`: advance the warps that are furthest behind (round-robin like Fig. 2);
//! * `leader`: advance the warps that are furthest ahead;
//! * `greedy`: pick the successor with the largest proven upper bound on the remaining
//!   time (ties broken at random), i.e. keep as much delay possible as long as possible;
//! * `random`: uniform successor;
//! * a beam search ([`beam`]) that keeps the most promising states of each depth.
//!
//! Rollouts use a fixed seed, so results are reproducible. They are generic over the
//! per-state bound that guides `greedy`.

pub mod beam;
pub mod priority;

use crate::budget::{Budget, Part};
use crate::model::instance::Instance;
use crate::state::trace::Trace;
use crate::state::transitions::{Scratch, Transitions};
use crate::state::Counts;
use crate::state_bounds::{standard, StateBound, Tables};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Most priority rollouts [`longest_rollout_until`] runs without a deadline.
pub const PRIORITY_ROLLOUTS: u64 = 200;

#[derive(Clone, Copy)]
enum Policy {
    Laggard,
    Leader,
    Greedy,
    Random,
}

/// [`longest_rollout_until`] on `inst` with its transition system and the standard bound.
pub fn longest_rollout_of(inst: &Instance, rounds: usize, seed: u64, budget: &Budget) -> Trace {
    longest_rollout_until(&Transitions::new(inst), &standard(inst), rounds, seed, budget)
}

/// Runs `rounds` randomised rollouts of each randomised policy plus the deterministic
/// ones, and returns the longest as a trace (its length is the makespan).
pub fn longest_rollout(t: &Transitions, bound: &impl StateBound, rounds: usize, seed: u64) -> Trace {
    longest_rollout_until(t, bound, rounds, seed, &Budget::default())
}

/// [`longest_rollout`], with no randomised rollout running past `deadline` (one that
/// would is abandoned), then [`priority::search_share`] for a third of the time left (or
/// at most [`PRIORITY_ROLLOUTS`] rollouts without a deadline, fewer on large
/// instances), then [`beam::beams_until`] in the
/// time left before `deadline`. The laggard rollout always runs, so there is always a
/// schedule; the leader rollout runs if there is time. Once a schedule meets `bound` at
/// the start state nothing can be longer: the priority rules and beams are skipped.
pub fn longest_rollout_until(t: &Transitions, bound: &impl StateBound, rounds: usize, seed: u64, budget: &Budget) -> Trace {
    let upper = bound.upper(&t.start());
    let mut best = rollouts_until(t, bound, rounds, seed, budget);
    if best.cycles() >= upper {
        return best;
    }
    let longest = std::cell::Cell::new(best.cycles());
    priority::search_share(t, seed, budget, Part::PriorityRules, PRIORITY_ROLLOUTS, &|| longest.get() >= upper, &mut |tr| {
        if tr.cycles() > best.cycles() {
            longest.set(tr.cycles());
            best = tr;
        }
    });
    if best.cycles() >= upper {
        return best;
    }
    let tables = Tables::new_for(t);
    match beam::beams_until(t, bound, &tables, upper, seed, budget) {
        Some(b) if b.cycles() > best.cycles() => b,
        _ => best,
    }
}

/// The rollouts of [`longest_rollout_until`] (no beam).
pub fn rollouts_until(t: &Transitions, bound: &impl StateBound, rounds: usize, seed: u64, budget: &Budget) -> Trace {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut best = rollout(t, bound, Policy::Laggard, &mut rng, &Budget::default()).expect("runs without a deadline");
    let mut consider = |r: Option<Trace>| {
        if let Some(r) = r.filter(|r| r.cycles() > best.cycles()) {
            best = r;
        }
    };
    consider(rollout(t, bound, Policy::Leader, &mut rng, budget));
    for _ in 0..rounds {
        if budget.is_over() {
            break;
        }
        consider(rollout(t, bound, Policy::Greedy, &mut rng, budget));
        consider(rollout(t, bound, Policy::Random, &mut rng, budget));
    }
    best
}

/// One rollout, or `None` if `deadline` passes first.
fn rollout(t: &Transitions, bound: &impl StateBound, policy: Policy, rng: &mut SmallRng, budget: &Budget) -> Option<Trace> {
    let (mut s, mut next, mut scratch) = (t.start(), Counts::default(), Scratch::default());
    let mut trace = Trace::default();
    while !s.is_finished() {
        if trace.cycles() % 64 == 63 && budget.is_over() {
            return None;
        }
        // A step with too many choices to list takes the laggard's or the leader's.
        let listable = matches!(policy, Policy::Laggard | Policy::Leader) || t.choice_count(&s) <= MAX_LISTED_CHOICES;
        match policy {
            _ if !listable => {
                let moves = t.extreme(&s, rng.random_bool(0.5), &mut scratch, &mut next);
                trace.push_cycle(moves);
            }
            Policy::Laggard | Policy::Leader => {
                let moves = t.extreme(&s, matches!(policy, Policy::Laggard), &mut scratch, &mut next);
                trace.push_cycle(moves);
            }
            Policy::Random => {
                let n = t.choices(&s, &mut scratch);
                let j = rng.random_range(0..n);
                trace.push_cycle(t.moves_of(&mut scratch, j));
                t.successor(&s, &mut scratch, j, &mut next);
            }
            Policy::Greedy => {
                let j = greedy_choice(t, bound, &s, &mut scratch, &mut next, rng);
                trace.push_cycle(t.moves_of(&mut scratch, j));
                t.successor(&s, &mut scratch, j, &mut next);
            }
        }
        std::mem::swap(&mut s, &mut next);
    }
    Some(trace)
}

/// Most choices a randomised rollout lists in one step (a step with more takes the
/// laggard's or the leader's moves).
pub const MAX_LISTED_CHOICES: u128 = 1 << 16;

/// Most successors the greedy policy weighs in one step (a random sample beyond that).
const GREEDY_SAMPLE: usize = 256;

/// The choice whose successor has the largest upper bound (random tie-break), among all
/// choices or, when there are more than [`GREEDY_SAMPLE`], a random sample of them.
fn greedy_choice(
    t: &Transitions,
    bound: &impl StateBound,
    s: &Counts,
    scratch: &mut Scratch,
    tmp: &mut Counts,
    rng: &mut SmallRng,
) -> usize {
    let n = t.choices(s, scratch);
    let mut best = (0u64, 0u64, 0usize);
    let sampled = n > GREEDY_SAMPLE;
    for k in 0..n.min(GREEDY_SAMPLE) {
        let j = if sampled { rng.random_range(0..n) } else { k };
        t.successor(s, scratch, j, tmp);
        let key = (bound.upper(tmp), rng.random::<u64>());
        if (key.0, key.1) > (best.0, best.1) {
            best = (key.0, key.1, j);
        }
    }
    best.2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::checker::check;

    #[test]
    fn rollouts_are_valid_schedules() {
        for (k, w, sl, sc) in [("LLC", 4, 1, 1), ("LCL", 4, 1, 1), ("LLCLLL", 4, 2, 2), ("CLLCCL", 7, 2, 3)] {
            let inst = Instance::new(k, w, sl, sc).unwrap();
            let r = longest_rollout_of(&inst, 8, 1, &Budget::default());
            let s = r.schedule(inst.warps, inst.len());
            assert_eq!(check(&inst, &s), Ok(r.cycles()), "{k} W={w}");
        }
    }
}
