//! The jam automaton: how much slack the queued unit can have in the cycles where the
//! paced unit is busy, over every schedule, as a longest path in a small finite automaton.
//! Used by [`super::super::clipped::Clipped`], whose doc comment states what it is for.
//!
//! Setting: the paced unit X has sigma 1, the queued unit Y has `sigma` (TX2: X = L,
//! Y = C, sigma 4). In a cycle `t` let `u` be the unfinished warps, `q` the X-ready ones,
//! `n = u - q` the Y-ready ones. The cycle is *idle* when `q = 0` (no X issued), *busy*
//! otherwise. A busy cycle issues one X, which *enters* a run of `k` Y's (its *entry
//! value* `e = min(k, sigma)`), or is the warp's last instruction (`e = 1` when the
//! caller counts it so: [`Jam::with_entries`]), or neither (`e = 0`), and `c = min(sigma,
//! n)` Y's. The quantity
//! bounded here is the *jam gain* `J = sum over busy cycles of (e - c)`, while
//! `u >= sigma + 1` (the *big phase*).
//!
//! The automaton's state is `(u, q, K)`, where the *cover* `K` holds, for each recent
//! cycle `t - i` (`i >= 1`) whose X entered a run with `e >= i`, the number `e - i >= 0`.
//! Facts about every schedule that the automaton keeps (and nothing else):
//! 1. A warp that entered a run of `k >= i` Y's at `t - i` has issued at most `i - 1` of
//!    them, so it is Y-ready at `t`: `|K| <= n`, and if `e - i >= 1` it has at least two
//!    Y's left, so it cannot end its run at `t`.
//! 2. An idle cycle issues `c = min(sigma, u) = sigma` Y's; a busy one issues
//!    `c = min(sigma, n)` (work-conserving). At most `min(c, n - #{K >= 1})` of the Y's
//!    issued end a run (`r` of them end a run followed by an X: those warps are X-ready
//!    next cycle; `f` end the kernel).
//! 3. The X issued in a busy cycle enters a run (`e` in `1..=sigma`; the warp is no longer
//!    X-ready), or is followed by another X (`q` unchanged), or is the warp's last
//!    instruction (`u` and `q` fall by one). So `q' = q - [left] + r`, `u' = u - f -
//!    [finished by its X]`, and `K'` is `K` minus one each (dropping those below 0) plus
//!    `e - 1` for an entry.
//!
//! Starting from an empty cover is a relaxation (a smaller cover only loosens 1-2). Each
//! transition weighs `c - e + mu(u) [entry]` (idle: 0), and [`Jam::slack`] is minus the
//! least weight of a path from `(u, q, {})` (paths may stop anywhere; stopping when `u`
//! falls to the *floor* or below is forced: `sigma`, or the larger `m` of the clipped
//! bound's side with exact end games, whose big phase has more than `m` warps). So for
//! every schedule, over its big phase, `J <= slack(u, q) + sum over entries of mu(u at
//! that cycle)`. The values are the fixed
//! point of `V(x) = min(0, min over x -> y of w + V(y))`, reached by value iteration and
//! certified by being a fixed point: along any path `V(x0) <= w0 + V(x1) <= ... <= sum of
//! w + V(x_end) <= sum of w`. Without the entry weights `mu` the gain is unbounded when
//! few warps are left (a path can repeat a round of entries that loses a little each
//! time); `mu(u)` is a weight per entry that makes the layer of `u` free of negative
//! cycles (for sigma 4 the least such `g / u`, from a table found by a search over `g`;
//! for other sigmas a guess raised until the iteration converges). For sigma 4 it is 0
//! from `u = sigma^2 + 1 = 17` on. Whatever the weights, only a fixed point is used.

use crate::budget::Budget;
use std::collections::HashMap;

/// Scale of the integer weights: `lcm(1..=16)`, so `mu(u) = g / u` is exact for `u <= 16`.
pub const SCALE: i64 = 720_720;

/// Which X moves the automaton has, beyond those every kernel has.
#[derive(Debug, Clone, Copy)]
pub struct Moves {
    /// The largest entry value of an X that enters a run of Y's (`<= sigma`): for a kernel
    /// whose X's enter only runs with `min(k, sigma) <= entry_max`, the moves with larger
    /// entries are left out, which keeps every real schedule a path (fact 3 with `e` in
    /// `1..=entry_max`); fewer moves can only lower the slack and the entry weights.
    pub entry_max: u64,
    /// A warp's last X has the value 1 (its move weighs `c - 1`: for a kernel that ends
    /// with an X, whose last X the clipped bound's potential counts so), else 0.
    pub finish: bool,
}

/// [`Moves`] with sigma and the floor, as the solver passes them on.
#[derive(Debug, Clone, Copy)]
struct Rules {
    sigma: u64,
    floor: u64,
    moves: Moves,
}

/// More reachable covers than this make the automaton too big: no bound.
const MAX_COVERS: usize = 4096;

/// Warp counts above this make the automaton too slow to build: no bound.
pub const MAX_WARPS: u32 = 256;

/// Moves examined for one automaton, at most (about a second): beyond, no bound.
/// Sigma 4 at W = 256 needs most of it (0.6 s); larger sigmas can need far more.
const MAX_WORK: u64 = 800_000_000;

/// What solving may still spend: the caller's budget and a number of moves examined.
struct Work<'a> {
    budget: &'a Budget,
    work_left: u64,
}

impl Work<'_> {
    /// Takes `work` moves; false once the budget is over or the work is spent.
    fn take(&mut self, work: u64) -> bool {
        if self.work_left < work || self.budget.is_over() {
            return false;
        }
        self.work_left -= work;
        true
    }
}

/// The solved automaton for one `sigma` and every `u` above its floor up to the
/// instance's `W`.
#[derive(Debug, Clone)]
pub struct Jam {
    /// Paths stop when `u` falls to `floor` (`>= sigma`) or below.
    floor: u64,
    /// `mu(u)` scaled by [`SCALE`], non-increasing in `u` (index `u`, `0..=W + 1`).
    mu: Vec<i64>,
    /// `slack(u, q)` scaled by [`SCALE`] (index `[u][q]`; empty for `u <= floor`).
    slack: Vec<Vec<i64>>,
}

/// The reachable covers (as sorted lists of `e - i`) and their transitions.
struct Covers {
    size: Vec<u64>,
    /// Elements >= 1 (warps that cannot end their run this cycle).
    deep: Vec<u64>,
    /// `next[k][a]`: the cover after a cycle whose X has entry value `a` (0: none).
    next: Vec<Vec<usize>>,
}

impl Covers {
    /// The covers reachable with entry values up to `entry_max` (`<= sigma`).
    fn new(entry_max: u64) -> Option<Covers> {
        let step = |c: &[u64], a: u64| {
            let mut n: Vec<u64> = c.iter().filter(|&&r| r >= 1).map(|&r| r - 1).collect();
            if a >= 1 {
                n.push(a - 1);
            }
            n.sort_unstable();
            n
        };
        let mut index: HashMap<Vec<u64>, usize> = HashMap::from([(Vec::new(), 0)]);
        let mut list: Vec<Vec<u64>> = vec![Vec::new()];
        let mut next: Vec<Vec<usize>> = Vec::new();
        let mut i = 0;
        while i < list.len() {
            let mut row = Vec::new();
            for a in 0..=entry_max {
                let n = step(&list[i], a);
                let k = *index.entry(n.clone()).or_insert_with(|| {
                    list.push(n);
                    list.len() - 1
                });
                row.push(k);
            }
            next.push(row);
            if list.len() > MAX_COVERS {
                return None;
            }
            i += 1;
        }
        let size = list.iter().map(|c| c.len() as u64).collect();
        let deep = list.iter().map(|c| c.iter().filter(|&&r| r >= 1).count() as u64).collect();
        Some(Covers { size, deep, next })
    }

    fn len(&self) -> usize {
        self.size.len()
    }
}

impl Jam {
    /// The automaton for `sigma` (the queued unit's) and `warps` warps; `None` when it
    /// would be too big (sigma so large that the covers exceed a few thousand, or
    /// `warps > MAX_WARPS`) or a layer does not converge.
    pub fn new(sigma: u64, warps: u32) -> Option<Jam> {
        Jam::until(sigma, warps, &Budget::default())
    }

    /// [`Jam::new`], or `None` if `deadline` passes while the layers are solved, or they
    /// need more than `MAX_WORK` (800 M) moves examined (the bound that uses it is then left
    /// out: the others stay proven).
    pub fn until(sigma: u64, warps: u32, budget: &Budget) -> Option<Jam> {
        Jam::with_floor(sigma, warps, sigma, budget)
    }

    /// [`Jam::until`] for a big phase of more than `floor` warps (`floor >= sigma`): paths
    /// are forced to stop when `u` falls to `floor` or below, so the layers of `floor` warps
    /// or fewer are not needed (their idle cycles are counted otherwise), and `mu` is only
    /// needed above `floor`.
    pub fn with_floor(sigma: u64, warps: u32, floor: u64, budget: &Budget) -> Option<Jam> {
        Jam::with_entries(sigma, Moves { entry_max: sigma, finish: false }, warps, floor, budget)
    }

    /// [`Jam::with_floor`] with the entry values and the last X's value of [`Moves`] (the
    /// proof is unchanged: every real schedule of such a kernel stays a path).
    pub fn with_entries(sigma: u64, moves: Moves, warps: u32, floor: u64, budget: &Budget) -> Option<Jam> {
        if warps > MAX_WARPS || sigma == 0 || floor < sigma || moves.entry_max > sigma {
            return None;
        }
        let rules = Rules { sigma, floor, moves };
        let covers = Covers::new(moves.entry_max)?;
        let top = warps as u64;
        let mut mu = vec![0i64; top as usize + 2];
        let mut layers: Vec<Vec<i64>> = vec![Vec::new(); top as usize + 1];
        let mut budget = Work { budget, work_left: MAX_WORK };
        for u in floor + 1..=top {
            let (m, layer) = solve_layer(&covers, rules, u, &layers, &mut budget)?;
            mu[u as usize] = m;
            layers[u as usize] = layer;
        }
        // mu(u) for u <= floor is never used; make the table non-increasing.
        for u in (0..=top as usize).rev() {
            mu[u] = mu[u].max(mu[u + 1]);
        }
        let n = covers.len();
        let slack = (0..=top as usize)
            .map(|u| if (u as u64) <= floor { Vec::new() } else { (0..=u).map(|q| -layers[u][q * n]).collect() })
            .collect();
        Some(Jam { floor, mu, slack })
    }

    /// `slack(u, q)` scaled by [`SCALE`]: `>= 0`; 0 when `u <= floor`.
    pub fn slack(&self, u: u64, q: u64) -> i64 {
        if u <= self.floor {
            return 0;
        }
        self.slack[u as usize][q as usize]
    }

    /// `mu(u)` scaled by [`SCALE`], non-increasing in `u`.
    pub fn mu(&self, u: u64) -> i64 {
        self.mu[(u as usize).min(self.mu.len() - 1)]
    }
}

/// The first guess of `g` in `mu(u) = g / u`: exact thresholds for sigma 4 (found by a
/// search over `g`), else a guess raised until the layer converges.
fn first_guess(sigma: u64, u: u64) -> i64 {
    const SIGMA_4: [i64; 12] = [9, 8, 7, 6, 5, 4, 3, 3, 2, 1, 1, 1];
    if sigma == 4 {
        return SIGMA_4.get((u - 5) as usize).copied().unwrap_or(0);
    }
    let ramp = (sigma * (sigma + 1) / 2) as i64;
    if u > sigma * sigma {
        0
    } else {
        (ramp - (u - sigma) as i64).max(0)
    }
}

/// Solves the layer of `u` (the layers below solved in `lower`): `(mu(u), values)`, with
/// the values indexed by `q * covers + cover`; `None` if no weight in the tried range
/// makes it converge.
fn solve_layer(covers: &Covers, rules: Rules, u: u64, lower: &[Vec<i64>], budget: &mut Work) -> Option<(i64, Vec<i64>)> {
    let Rules { sigma, moves: Moves { entry_max, .. }, .. } = rules;
    let ramp = (sigma * (sigma + 1) / 2) as i64 + 1;
    // The weight removes the negative cycles within the layer, which the floor does not
    // change: the same first guess. With smaller entries the least weight can be lower:
    // the search starts at 0.
    let mut g = if entry_max == sigma { first_guess(sigma, u) } else { 0 };
    while g <= ramp * u as i64 {
        let m = (g * SCALE + u as i64 - 1) / u as i64;
        if let Some(values) = iterate(covers, rules, u, m, lower, budget)? {
            return Some((m, values));
        }
        g += 1;
    }
    None
}

/// Value iteration on the layer of `u` with entry weight `m`: `Some(Some(fixed point))`,
/// `Some(None)` when it does not settle within the Bellman-Ford bound (a negative
/// cycle), `None` when the budget runs out.
fn iterate(covers: &Covers, rules: Rules, u: u64, m: i64, lower: &[Vec<i64>], budget: &mut Work) -> Option<Option<Vec<i64>>> {
    let Rules { sigma, moves: Moves { entry_max, .. }, .. } = rules;
    let n = covers.len();
    let valid = |u: u64, q: u64, k: usize| q <= u && u - q >= covers.size[k];
    let mut values = vec![0i64; (u as usize + 1) * n];
    let states = (0..=u).map(|q| (0..n).filter(|&k| valid(u, q, k)).count()).sum::<usize>();
    // Moves per state: (run ends, finishes) pairs times (sigma entries + 2 others).
    let per_state = (sigma + 1) * (sigma + 2) / 2 * (entry_max + 2);
    for _ in 0..states + 2 {
        if !budget.take(states as u64 * per_state) {
            return None;
        }
        let mut changed = false;
        for q in 0..=u {
            for k in 0..n {
                if !valid(u, q, k) {
                    continue;
                }
                let best = best_move(covers, rules, (u, q, k), m, &values, lower);
                let slot = &mut values[q as usize * n + k];
                if best < *slot {
                    *slot = best;
                    changed = true;
                }
            }
        }
        if !changed {
            return Some(Some(values));
        }
    }
    Some(None)
}

/// `min(0, min over moves of weight + value of the target)` at state `(u, q, k)`.
fn best_move(covers: &Covers, rules: Rules, (u, q, k): (u64, u64, usize), m: i64, same: &[i64], lower: &[Vec<i64>]) -> i64 {
    let Rules { sigma, floor, moves: Moves { entry_max, finish } } = rules;
    let n = covers.len();
    let value = |u2: u64, q2: u64, k2: usize| -> Option<i64> {
        if u2 <= floor {
            return Some(0);
        }
        if q2 > u2 || u2 - q2 < covers.size[k2] {
            return None;
        }
        let layer = if u2 == u { same } else { &lower[u2 as usize] };
        Some(layer[q2 as usize * n + k2])
    };
    let ready = u - q;
    let c = sigma.min(ready);
    let can_end = c.min(ready - covers.deep[k]);
    let mut best = 0i64;
    let mut consider = |w: i64, target: Option<i64>| {
        if let Some(v) = target {
            best = best.min(w + v);
        }
    };
    for r in 0..=can_end {
        for f in 0..=can_end - r {
            let u2 = u - f;
            if q == 0 {
                consider(0, value(u2, r, covers.next[k][0]));
                continue;
            }
            for a in 1..=entry_max {
                consider((c as i64 - a as i64) * SCALE + m, value(u2, q - 1 + r, covers.next[k][a as usize]));
            }
            let none = covers.next[k][0];
            consider(c as i64 * SCALE, value(u2, q + r, none));
            if u2 >= 1 {
                consider((c as i64 - finish as i64) * SCALE, value(u2 - 1, q - 1 + r, none));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_of_sigma_4() {
        // The covers reachable from the empty one (sorted lists of e - i): 42 for sigma 4.
        assert_eq!(Covers::new(4).unwrap().len(), 42);
        assert_eq!(Covers::new(1).unwrap().len(), 2); // {} and {0}
    }

    #[test]
    fn slack_of_sigma_4() {
        let jam = Jam::new(4, 24).unwrap();
        // From all warps X-ready (the start of a kernel beginning with an X) the ramp is
        // a path: the first four entries see 0, 1, 2, 3 Y-ready warps, 4 + 3 + 2 + 1 = 10.
        // The automaton allows a little more (paths through the layers of fewer warps).
        let ramp = jam.slack(24, 24);
        assert!((10 * SCALE..14 * SCALE).contains(&ramp), "{ramp}");
        // No warp X-ready and no cover: the first busy cycle has every other warp Y-ready.
        assert!(jam.slack(24, 0) <= ramp);
        // mu is 0 from 17 warps on, 1/16 below, and 9/5 at 5 warps.
        assert_eq!(jam.mu(17), 0);
        assert_eq!(jam.mu(16), SCALE / 16);
        assert_eq!(jam.mu(5), 9 * SCALE / 5);
        assert_eq!(jam.slack(4, 4), 0);
    }

    #[test]
    fn a_passed_deadline_or_too_much_work_gives_no_automaton() {
        assert!(Jam::until(4, 64, &Budget::new(Some(std::time::Duration::ZERO), 1 << 20)).is_none());
        assert!(Jam::until(4, 8, &Budget::default()).is_some());
        // sigma 6: its covers are many more and its layers need more than the budget.
        assert!(Jam::until(6, 64, &Budget::default()).is_none());
    }

    #[test]
    fn fewer_entry_values_give_less_slack() {
        // Entries of at most one Y (sigma 4): the warp an entry brings covers the next
        // cycle, so the ramp of 4 + 3 + 2 + 1 is gone and so are the entry weights.
        let moves = Moves { entry_max: 1, finish: false };
        let (all, ones) = (Jam::new(4, 24).unwrap(), Jam::with_entries(4, moves, 24, 4, &Budget::default()).unwrap());
        assert!(ones.slack(24, 24) < all.slack(24, 24));
        assert!((5..=24).all(|u| ones.mu(u) <= all.mu(u)));
        assert_eq!(ones.mu(5), 0);
        // More than sigma is refused.
        assert!(Jam::with_entries(4, Moves { entry_max: 5, ..moves }, 24, 4, &Budget::default()).is_none());
    }

    #[test]
    fn sigma_1_has_no_gain() {
        // sigma 1: an entry has e = 1 and the one Y-ready warp it brings covers the next
        // cycle; the automaton finds no gain beyond the first entry's.
        let jam = Jam::new(1, 12).unwrap();
        assert!(jam.slack(12, 12) <= SCALE);
    }
}
