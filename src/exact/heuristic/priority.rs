//! Static-priority list schedules and a local search over the priorities: a lower bound
//! on `T^(W)` from adversarial dispatch rules that keep their choices over the whole run.
//!
//! A *priority* gives every program position a rank. In each cycle, each unit issues to
//! as many ready warps as it can (work conservation), taking the ready warps at the
//! highest-ranked positions first. Such rules make convoys: the warps at a low-ranked
//! position are starved while the unit is busy with the others, and released together
//! later (on `LCCCCCLCCCCCCCLL`, sigma 1/4, W = 64: 313 cycles against 307 from the
//! rollouts and beams). Every rule gives a real work-conserving schedule, so its length
//! is a proven lower bound; like every witness it is re-checked before it is reported.
//!
//! A rule may also *starve* one warp: the one furthest behind comes after every other
//! warp at both units, so it issues only where a unit would otherwise have a free slot,
//! and may be left to run much of its kernel alone at the end (`tx2-0256`: 6158 cycles
//! against 6142 without).
//!
//! The search first tries laggard-first with a starved warp, once; then it starts from
//! the leader-first and laggard-first orders and random ones (every other random one with
//! a starved warp), swaps the ranks of one to three random position pairs, and keeps a
//! change that does not shorten the schedule; after [`STALE`] changes without a longer
//! schedule it restarts from the next starting order. (The worst schedule of `tx2-0128`'s
//! kernel at W = 5, 272 cycles, is four warps in a convoy and one starved; the restarts
//! with a starved warp took the rules from 380 to 389 at W = 8 and 692 to 698 at W = 16.)

use crate::budget::{Budget, Part};
use crate::state::trace::Trace;
use crate::state::transitions::Transitions;
use crate::state::Counts;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Changes without a longer schedule before the search restarts.
pub const STALE: usize = 300;

/// [`search`] for `1 / divisor` of the time left before `deadline` (at most
/// [`orders_tried_over`] rollouts), or, without a
/// deadline, for at most `cap` rollouts, fewer on large instances so that they take
/// about as long as `2 * 10^7` warp-instructions (a rollout costs about `W * I`). Also
/// stops as soon as `halt()` is true.
pub fn search_share(
    t: &Transitions,
    seed: u64,
    budget: &Budget,
    part: Part,
    cap: u64,
    halt: &dyn Fn() -> bool,
    found: &mut dyn FnMut(Trace),
) {
    let share = budget.part(part);
    let size = (t.warps() as u64).saturating_mul(t.len() as u64).max(1);
    let rollouts = if share.deadline().is_some() { orders_tried_over(t.len()) } else { (20_000_000 / size).clamp(1, cap) };
    search(t, seed, rollouts, &|| halt() || share.is_over(), found);
}

/// Most rollouts [`search_share`] runs with a deadline: `8 n!` over `n` positions (four
/// times the `2 n!` distinct rules: an order, a starved warp or not), and at least eight
/// restarts' worth, `8 (STALE + 1)`, so that a short kernel does not keep drawing the
/// same few rules until the deadline (`CCCLC`, W = 2: 5 s of the ILP's warm start
/// before) and still gets every kind of start; from 20 positions on it is no limit. The
/// rules give lower bounds only, so the cap costs no safety.
fn orders_tried_over(n: usize) -> u64 {
    let orders = (1..=n as u64).try_fold(8u64, |acc, k| acc.checked_mul(k)).unwrap_or(u64::MAX);
    orders.max(8 * (STALE as u64 + 1))
}

/// The schedule that `rank` (one entry per position, higher first) gives, with its
/// moves when `record` is set; `None` when `stop()` turns true (asked every 64 cycles).
pub fn rollout(t: &Transitions, rank: &[u32], record: bool, stop: &dyn Fn() -> bool) -> Option<(u64, Trace)> {
    rollout_starving(t, rank, false, record, stop)
}

/// [`rollout`], and with `starve` one warp of the furthest-behind position comes after
/// every other warp at both units (the *starved* warp: it stays furthest behind, and
/// issues only when a unit would otherwise have a free slot).
pub fn rollout_starving(t: &Transitions, rank: &[u32], starve: bool, record: bool, stop: &dyn Fn() -> bool) -> Option<(u64, Trace)> {
    let (mut s, mut next) = (t.start(), Counts::default());
    let (mut trace, mut cycles) = (Trace::default(), 0u64);
    let (mut order, mut moves) = (Vec::new(), Vec::new());
    while !s.is_finished() {
        if cycles % 64 == 63 && stop() {
            return None;
        }
        order.clear();
        order.extend(s.slots().iter().map(|&(p, n)| (rank[p as usize], p, n)));
        let starved = if starve { s.slots().first().copied() } else { None };
        if let Some((p, _)) = starved {
            order.iter_mut().filter(|o| o.1 == p).for_each(|o| o.2 -= 1);
        }
        order.sort_unstable_by(|a, b| b.cmp(a));
        let last = starved.map(|(p, _)| (p, 1));
        t.issue_in_order(&s, order.iter().map(|&(_, p, n)| (p, n)).chain(last), &mut moves, &mut next);
        if record {
            trace.push_cycle(&moves);
        }
        std::mem::swap(&mut s, &mut next);
        cycles += 1;
    }
    Some((cycles, trace))
}

/// Local search over priorities until `stop()` or `max_rollouts` rollouts; calls `found`
/// with the schedule of each rule longer than every one before it (the first rule's
/// included).
pub fn search(t: &Transitions, seed: u64, max_rollouts: u64, stop: &dyn Fn() -> bool, found: &mut dyn FnMut(Trace)) {
    let n = t.len();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut done = 0u64;
    // `stop()` is asked before every rollout too: short ones never reach a 64th cycle.
    let eval = |rank: &[u32], starve: bool, done: &mut u64| {
        *done += 1;
        if stop() {
            return None;
        }
        rollout_starving(t, rank, starve, false, stop).map(|(c, _)| c)
    };
    // First the laggard-first order with a starved warp, once (always reported: the
    // first schedule); then the local search over orders without one.
    done += 1;
    if stop() {
        return;
    }
    let laggard: Vec<u32> = (0..n as u32).rev().collect();
    let Some((mut best, trace)) = rollout_starving(t, &laggard, true, true, stop) else { return };
    found(trace);
    for restart in 0.. {
        // Every other restart from the third on keeps a starved warp beside its order.
        let starve = restart >= 2 && restart % 2 == 1;
        let mut rank = start_order(n, restart, &mut rng);
        let Some(mut current) = eval(&rank, starve, &mut done) else { return };
        let mut stale = 0;
        loop {
            if current > best {
                best = current;
                if let Some((_, trace)) = rollout_starving(t, &rank, starve, true, stop) {
                    found(trace);
                }
            }
            if stale >= STALE || done >= max_rollouts || n < 2 {
                break;
            }
            let mut candidate = rank.clone();
            for _ in 0..rng.random_range(1..=3) {
                candidate.swap(rng.random_range(0..n), rng.random_range(0..n));
            }
            let Some(c) = eval(&candidate, starve, &mut done) else { return };
            stale = if c > current { 0 } else { stale + 1 };
            if c >= current {
                (rank, current) = (candidate, c);
            }
        }
        if done >= max_rollouts || n < 2 {
            return;
        }
    }
}

/// Starting order `restart`: leader-first (rank = position), laggard-first, then random.
fn start_order(n: usize, restart: usize, rng: &mut SmallRng) -> Vec<u32> {
    let mut rank: Vec<u32> = (0..n as u32).collect();
    match restart {
        0 => {}
        1 => rank.reverse(),
        _ => {
            for i in (1..n).rev() {
                rank.swap(i, rng.random_range(0..=i));
            }
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::checker::check;
    use crate::model::instance::Instance;

    #[test]
    fn rules_give_valid_schedules_of_the_reported_length() {
        for (k, w, sl, sc) in [("LLC", 4, 1, 1), ("LLCLLL", 4, 2, 2), ("LCCCCCLCCCCCCCLL", 8, 1, 4), ("CLLCCL", 7, 2, 3)] {
            let inst = Instance::new(k, w, sl, sc).unwrap();
            let t = Transitions::new(&inst);
            let mut longest = 0;
            search(&t, 1, 200, &|| false, &mut |tr| {
                assert!(tr.cycles() > longest, "{k}: found must only report longer schedules");
                longest = tr.cycles();
                let s = tr.schedule(inst.warps, inst.len());
                assert_eq!(check(&inst, &s), Ok(tr.cycles()), "{k} W={w}");
            });
            assert!(longest >= inst.len() as u64, "{k}: at least one schedule");
        }
    }

    #[test]
    fn fig2_laggard_rule_is_the_worst_case() {
        // LLC, W = 4, sigma 1: laggard-first gives the paper's 9 cycles.
        let t = Transitions::new(&Instance::new("LLC", 4, 1, 1).unwrap());
        assert_eq!(rollout(&t, &[2, 1, 0], false, &|| false).map(|r| r.0), Some(9));
        // The search finds it too, and stops when asked.
        let mut longest = 0;
        search(&t, 3, 50, &|| false, &mut |tr| longest = tr.cycles());
        assert_eq!(longest, 9);
        assert!(rollout(&t, &[2, 1, 0], false, &|| true).is_some(), "stop is asked only every 64 cycles");
        // Starving one warp: the other three go laggard-first (7 cycles, as W = 3), then
        // the starved one runs alone: L, L, C after the last of them (9 in all here too).
        let (c, trace) = rollout_starving(&t, &[2, 1, 0], true, true, &|| false).unwrap();
        assert_eq!(c, 9);
        let inst = Instance::new("LLC", 4, 1, 1).unwrap();
        assert_eq!(check(&inst, &trace.schedule(4, 3)), Ok(9));
        // The search itself stops on a short kernel (rollouts shorter than 64 cycles).
        let calls = std::cell::Cell::new(0u32);
        search(
            &t,
            3,
            u64::MAX,
            &|| {
                calls.set(calls.get() + 1);
                calls.get() > 100
            },
            &mut |_| {},
        );
        assert!(calls.get() > 100);
    }
}
