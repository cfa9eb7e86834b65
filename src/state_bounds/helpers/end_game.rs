//! Exact end games: the most idle cycles of a paced unit (sigma 1) from every state of at
//! most `m` unfinished warps, by a DP over all of them. Used by [`super::super::clipped::Clipped`]
//! for its phase of few warps, and (the DP alone) by [`super::super::tail::Tail`].

use crate::budget::Budget;
use crate::model::kernel::Unit;
use crate::state::transitions::{Scratch, Transitions};
use crate::state::Counts;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The exact idle-cycle counts of every state with at most `m` unfinished warps.
#[derive(Debug, Clone)]
pub struct EndGame {
    /// `m`.
    pub warps: u64,
    /// `G(s)`: the most cycles without a ready warp for the paced unit, over every
    /// schedule from `s`, for every state `s` of at most `m` unfinished warps.
    pub idle: HashMap<Counts, u64>,
}

impl EndGame {
    /// The table for the largest `m` in `least..=most` whose states (all multisets of at
    /// most `m` positions of the kernel, `C(I + m, m)` of them) number at most `cap`;
    /// `None` if not even `least` fits, or `deadline` passes.
    pub fn largest(t: &Transitions, paced: Unit, least: u64, most: u64, cap: usize, budget: &Budget) -> Option<EndGame> {
        let len = t.len() as u64;
        let fits = |m: u64| states_of_at_most(len, m).is_some_and(|n| n <= cap as u64);
        let m = (least..=most).take_while(|&m| fits(m)).last()?;
        let states = all_states(t.len() as u32, m as u32);
        let idle = idle_of_closed(t, paced, states, budget)?;
        Some(EndGame { warps: m, idle })
    }
}

/// `C(len + m, m)`, the multisets of at most `m` of `len` positions, or `None` above
/// `u64::MAX`: the number of states of `m` warps on `len` instructions
/// ([`crate::state::states`]).
pub fn states_of_at_most(len: u64, m: u64) -> Option<u64> {
    crate::state::states(len, m)
}

/// Every state of at most `m` unfinished warps over positions `0..len` (the finished
/// state included).
fn all_states(len: u32, m: u32) -> Vec<Counts> {
    let mut out = vec![Counts::from_pairs([])];
    let mut cur: Vec<(u32, u32)> = Vec::new();
    extend(len, m, 0, &mut cur, &mut out);
    out
}

/// Adds every state whose slots are `cur` followed by slots at positions `>= from`, with
/// at most `left` more warps.
fn extend(len: u32, left: u32, from: u32, cur: &mut Vec<(u32, u32)>, out: &mut Vec<Counts>) {
    for p in from..len {
        for n in 1..=left {
            cur.push((p, n));
            out.push(Counts::from_pairs(cur.iter().copied()));
            extend(len, left - n, p + 1, cur, out);
            cur.pop();
        }
    }
}

/// The states reachable from `roots` (at most `cap` of them), or `None` if there are more
/// or `deadline` passes.
pub fn closure(t: &Transitions, roots: &[Counts], cap: usize, budget: &Budget) -> Option<Vec<Counts>> {
    let mut seen: HashSet<Counts> = roots.iter().cloned().collect();
    let mut todo: Vec<Counts> = seen.iter().cloned().collect();
    let (mut scratch, mut succ) = (Scratch::default(), Vec::new());
    let mut expanded = 0usize;
    while let Some(s) = todo.pop() {
        expanded += 1;
        if expanded.is_multiple_of(4096) && budget.is_over() {
            return None;
        }
        t.successors(&s, &mut scratch, &mut succ);
        for n in succ.drain(..) {
            if !seen.contains(&n) {
                if seen.len() >= cap {
                    return None;
                }
                todo.push(n.clone());
                seen.insert(n);
            }
        }
    }
    Some(seen.into_iter().collect())
}

/// `G(s)` for every state of `states`, a set closed under successors: the most cycles in
/// which no unfinished warp is ready for `paced`, over every schedule from `s` (a DP in
/// order of the instructions left, which every cycle lowers). `None` if `deadline` passes.
pub fn idle_of_closed(t: &Transitions, paced: Unit, mut states: Vec<Counts>, budget: &Budget) -> Option<HashMap<Counts, u64>> {
    let units = t.units();
    let left = |s: &Counts| s.slots().iter().map(|&(p, n)| n as u64 * (units.len() as u64 - p as u64)).sum::<u64>();
    states.sort_by_key(|s| left(s));
    let (mut scratch, mut succ) = (Scratch::default(), Vec::new());
    let mut value: HashMap<Counts, u64> = HashMap::with_capacity_and_hasher(states.len(), Default::default());
    for (i, s) in states.into_iter().enumerate() {
        if i.is_multiple_of(4096) && budget.is_over() {
            return None;
        }
        let idle = !s.is_finished() && s.slots().iter().all(|&(p, _)| units[p as usize] != paced);
        t.successors(&s, &mut scratch, &mut succ);
        let best = succ.iter().map(|n| value[n]).max().unwrap_or(0);
        value.insert(s, best + idle as u64);
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;

    #[test]
    fn counts_every_state_of_few_warps() {
        assert_eq!(states_of_at_most(3, 2), Some(10));
        assert_eq!(all_states(3, 2).len(), 10);
        assert_eq!(all_states(16, 7).len() as u64, states_of_at_most(16, 7).unwrap());
        let set: HashSet<Counts> = all_states(5, 3).into_iter().collect();
        assert_eq!(set.len() as u64, states_of_at_most(5, 3).unwrap());
    }

    #[test]
    fn idle_cycles_of_the_paper_kernel() {
        // LLC, sigma 1, W = 4: T = 9 = R_L + idle, R_L = 8, so one idle cycle of L.
        let t = Transitions::new(&Instance::new("LLC", 4, 1, 1).unwrap());
        let g = EndGame::largest(&t, Unit::L, 1, 4, 1_000, &Budget::default()).unwrap();
        assert_eq!(g.warps, 4);
        assert_eq!(g.idle[&t.start()], 1);
        // One warp alone at the C: one idle cycle; at the first L: one.
        assert_eq!(g.idle[&Counts::from_pairs([(2, 1)])], 1);
        assert_eq!(g.idle[&Counts::from_pairs([(0, 1)])], 1);
        // Too many states for the cap: the largest m that fits.
        assert_eq!(EndGame::largest(&t, Unit::L, 1, 4, 20, &Budget::default()).unwrap().warps, 3);
        assert!(EndGame::largest(&t, Unit::L, 3, 4, 5, &Budget::default()).is_none());
    }
}
