//! The transition system of one instance: which states follow a state in one cycle.
//!
//! A *move* `(p, k)` advances `k` warps from position `p` to `p + 1` (a warp leaving
//! the last position finishes). In each cycle the adversary picks one *move set* per
//! unit type: `min(sigma_X, ready_X)` warps in all, taken from the positions whose next
//! instruction is X. A successor is one L move set combined with one C move set.
//!
//! Order of the choices (relied on by the rollouts): L sets outermost, and within a unit
//! type the sets that take the most warps from the lowest positions come first; the
//! first choice is therefore "advance the laggards", the last "advance the leaders".

use super::Counts;
use crate::model::instance::Instance;
use crate::model::kernel::Unit;

/// Move sets of one unit type, stored flat.
#[derive(Debug, Clone, Default)]
pub struct MoveSets {
    flat: Vec<(u32, u32)>,
    ends: Vec<usize>,
}

impl MoveSets {
    /// Number of sets.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no sets (never after [`Transitions::choices`]).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Set `i`, in increasing position.
    pub fn get(&self, i: usize) -> &[(u32, u32)] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.flat[start..self.ends[i]]
    }

    fn clear(&mut self) {
        self.flat.clear();
        self.ends.clear();
    }

    fn push(&mut self, set: &[(u32, u32)]) {
        self.flat.extend_from_slice(set);
        self.ends.push(self.flat.len());
    }
}

/// Reusable buffers for [`Transitions`] (no allocation once warm).
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    ready: Vec<(u32, u32)>,
    after: Vec<u32>,
    current: Vec<(u32, u32)>,
    /// L move sets of the last [`Transitions::choices`] call.
    pub l: MoveSets,
    /// C move sets of the last [`Transitions::choices`] call.
    pub c: MoveSets,
    merged: Vec<(u32, u32)>,
}

/// The transition system of one instance.
#[derive(Debug, Clone)]
pub struct Transitions {
    len: usize,
    warps: u32,
    sigma_l: u32,
    sigma_c: u32,
    units: Vec<Unit>,
}

impl Transitions {
    /// The transition system of `inst`.
    pub fn new(inst: &Instance) -> Transitions {
        Transitions {
            len: inst.len(),
            warps: inst.warps,
            sigma_l: inst.sigma_l,
            sigma_c: inst.sigma_c,
            units: inst.kernel.units().to_vec(),
        }
    }

    /// `I`.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Always false (kernels are non-empty).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `W`.
    pub fn warps(&self) -> u32 {
        self.warps
    }

    /// The unit of each position of the (transformed) kernel.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// `(sigma_L, sigma_C)`.
    pub fn sigmas(&self) -> (u32, u32) {
        (self.sigma_l, self.sigma_c)
    }

    /// All `W` warps before their first instruction.
    pub fn start(&self) -> Counts {
        Counts::start(self.warps)
    }

    /// Enumerates the move sets of both unit types of `s` into `scratch.l` and
    /// `scratch.c`; returns the number of successors, `|L sets| * |C sets|`
    /// (0 exactly when `s` is finished). Choice `j` is L set `j / |C sets|` with C set
    /// `j % |C sets|`.
    pub fn choices(&self, s: &Counts, scratch: &mut Scratch) -> usize {
        if s.is_finished() {
            scratch.l.clear();
            scratch.c.clear();
            return 0;
        }
        for (unit, sigma) in [(Unit::L, self.sigma_l), (Unit::C, self.sigma_c)] {
            self.move_sets(s, unit, sigma, scratch);
        }
        scratch.l.len() * scratch.c.len()
    }

    /// The number [`Transitions::choices`] would return for `s`, without enumerating
    /// (saturating): per unit, the ways of taking `min(ready, sigma)` warps from the
    /// ready positions, counted by a small table over the positions.
    pub fn choice_count(&self, s: &Counts) -> u128 {
        if s.is_finished() {
            return 0;
        }
        let per_unit = |unit: Unit, sigma: u32| {
            let ready: Vec<u32> = s.slots().iter().filter(|&&(p, _)| self.units[p as usize] == unit).map(|&(_, n)| n).collect();
            let need = ready.iter().sum::<u32>().min(sigma) as usize;
            // ways[m]: ways of taking m warps from the positions seen so far.
            let mut ways = vec![0u128; need + 1];
            ways[0] = 1;
            for n in ready {
                let mut next = vec![0u128; need + 1];
                for (m, &w) in ways.iter().enumerate().filter(|(_, w)| **w > 0) {
                    for k in 0..=(n as usize).min(need - m) {
                        next[m + k] = next[m + k].saturating_add(w);
                    }
                }
                ways = next;
            }
            ways[need]
        };
        per_unit(Unit::L, self.sigma_l).saturating_mul(per_unit(Unit::C, self.sigma_c))
    }

    /// Writes successor `j` of the last [`Transitions::choices`] call on `s` into `out`.
    pub fn successor(&self, s: &Counts, scratch: &mut Scratch, j: usize, out: &mut Counts) {
        let nc = scratch.c.len();
        merge(scratch.l.get(j / nc), scratch.c.get(j % nc), &mut scratch.merged);
        self.apply(s, &scratch.merged, out);
    }

    /// The moves of choice `j` of the last [`Transitions::choices`] call, in increasing
    /// position.
    pub fn moves_of<'a>(&self, scratch: &'a mut Scratch, j: usize) -> &'a [(u32, u32)] {
        let nc = scratch.c.len();
        merge(scratch.l.get(j / nc), scratch.c.get(j % nc), &mut scratch.merged);
        &scratch.merged
    }

    /// Every successor of `s`, in choice order, written into `out` (resized to their
    /// number, reusing its states' buffers). Empty exactly when `s` is finished.
    pub fn successors(&self, s: &Counts, scratch: &mut Scratch, out: &mut Vec<Counts>) {
        let n = self.choices(s, scratch);
        out.resize_with(n, Counts::default);
        for (j, next) in out.iter_mut().enumerate() {
            self.successor(s, scratch, j, next);
        }
    }

    /// The first (`lowest_first`) or last choice, computed directly: advance as many
    /// warps as possible from the lowest (or highest) ready positions. Returns the moves.
    pub fn extreme<'a>(&self, s: &Counts, lowest_first: bool, scratch: &'a mut Scratch, out: &mut Counts) -> &'a [(u32, u32)] {
        if lowest_first {
            self.issue_in_order(s, s.slots().iter().copied(), &mut scratch.merged, out);
        } else {
            self.issue_in_order(s, s.slots().iter().rev().copied(), &mut scratch.merged, out);
        }
        &scratch.merged
    }

    /// One work-conserving cycle with a fixed preference: each unit issues to as many
    /// ready warps as its sigma allows, taking the occupied `(position, warps)` slots of
    /// `s` in the order `order` yields them (a position may come more than once, with
    /// its warps split between the entries). The moves (in increasing position, one per
    /// position) go to `moves`, the successor to `out`.
    pub fn issue_in_order(&self, s: &Counts, order: impl Iterator<Item = (u32, u32)>, moves: &mut Vec<(u32, u32)>, out: &mut Counts) {
        moves.clear();
        let (mut left_l, mut left_c) = (self.sigma_l, self.sigma_c);
        for (p, n) in order {
            let left = match self.units[p as usize] {
                Unit::L => &mut left_l,
                Unit::C => &mut left_c,
            };
            let k = n.min(*left);
            if k > 0 {
                *left -= k;
                moves.push((p, k));
            }
        }
        moves.sort_unstable();
        moves.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
        self.apply(s, moves, out);
    }

    /// `s` after `moves` (in increasing position, each at an occupied position), into `out`.
    pub fn apply(&self, s: &Counts, moves: &[(u32, u32)], out: &mut Counts) {
        let last = self.len as u32 - 1;
        let buf = out.buffer();
        let mut arriving: Option<(u32, u32)> = None;
        let mut m = moves.iter().peekable();
        for &(p, n) in s.slots() {
            if let Some((q, k)) = arriving.filter(|&(q, _)| q < p) {
                buf.push((q, k));
                arriving = None;
            }
            let leave = match m.peek() {
                Some(&&(q, k)) if q == p => {
                    m.next();
                    k
                }
                _ => 0,
            };
            let came = arriving.take().map_or(0, |(_, k)| k);
            let stay = n - leave + came;
            if stay > 0 {
                buf.push((p, stay));
            }
            if leave > 0 && p < last {
                arriving = Some((p + 1, leave));
            }
        }
        if let Some(a) = arriving {
            buf.push(a);
        }
    }

    /// Fills `scratch.l` or `scratch.c` with every way of advancing
    /// `min(sigma, ready)` warps of type `unit` (one empty set if none is ready).
    fn move_sets(&self, s: &Counts, unit: Unit, sigma: u32, scratch: &mut Scratch) {
        scratch.ready.clear();
        scratch.ready.extend(s.slots().iter().copied().filter(|&(p, _)| self.units[p as usize] == unit));
        let ready = &scratch.ready;
        scratch.after.clear();
        scratch.after.resize(ready.len() + 1, 0);
        for j in (0..ready.len()).rev() {
            scratch.after[j] = scratch.after[j + 1] + ready[j].1;
        }
        let need = scratch.after[0].min(sigma);
        let sets = if unit == Unit::L { &mut scratch.l } else { &mut scratch.c };
        sets.clear();
        scratch.current.clear();
        distribute(ready, &scratch.after, 0, need, &mut scratch.current, sets);
    }
}

/// Every way of taking `left` warps from `ready[j..]` (`after[j]` warps in all), the
/// largest share from the lowest position first.
fn distribute(ready: &[(u32, u32)], after: &[u32], j: usize, left: u32, current: &mut Vec<(u32, u32)>, out: &mut MoveSets) {
    if j == ready.len() || left == 0 {
        out.push(current);
        return;
    }
    let (p, n) = ready[j];
    let lo = left.saturating_sub(after[j + 1]);
    for k in (lo..=n.min(left)).rev() {
        if k > 0 {
            current.push((p, k));
        }
        distribute(ready, after, j + 1, left - k, current, out);
        if k > 0 {
            current.pop();
        }
    }
}

/// Merges two move lists sorted by position (their positions are disjoint).
fn merge(a: &[(u32, u32)], b: &[(u32, u32)], out: &mut Vec<(u32, u32)>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(t: &Transitions, s: &Counts) -> Vec<Counts> {
        let mut out = Vec::new();
        t.successors(s, &mut Scratch::default(), &mut out);
        out
    }

    /// The count without listing equals the listed count, at every state reachable in a
    /// few cycles of kernels with several sigmas.
    #[test]
    fn choice_count_matches_choices() {
        for (k, w, sl, sc) in [("LLCLCCLL", 6, 2, 3), ("LCLLC", 9, 1, 4), ("CCCLL", 7, 3, 1)] {
            let t = Transitions::new(&Instance::new(k, w, sl, sc).unwrap());
            let mut frontier = vec![t.start()];
            for _ in 0..4 {
                let mut next = Vec::new();
                for s in &frontier {
                    assert_eq!(t.choice_count(s), t.choices(s, &mut Scratch::default()) as u128, "{k} {s:?}");
                    next.extend(all(&t, s));
                }
                next.sort_by_key(|c| format!("{c:?}"));
                next.dedup();
                frontier = next;
            }
        }
    }

    #[test]
    fn successors_of_start() {
        let t = Transitions::new(&Instance::new("LLC", 4, 1, 1).unwrap());
        let out = all(&t, &t.start());
        assert_eq!(out, vec![Counts::from_pairs([(0, 3), (1, 1)])]);
        let t = Transitions::new(&Instance::new("LCL", 4, 2, 1).unwrap());
        let s1 = all(&t, &t.start()).remove(0);
        assert_eq!((s1.count(0), s1.count(1)), (2, 2));
        // L: 2 from position 0; C: 1 from position 1.
        assert_eq!(all(&t, &s1).len(), 1);
    }

    #[test]
    fn extremes_are_the_first_and_last_choice() {
        let t = Transitions::new(&Instance::new("LCLLCL", 9, 2, 1).unwrap());
        let s = Counts::from_pairs([(0, 2), (1, 2), (2, 1), (3, 3), (5, 1)]);
        let succ = all(&t, &s);
        assert!(succ.len() > 2);
        let mut out = Counts::default();
        t.extreme(&s, true, &mut Scratch::default(), &mut out);
        assert_eq!(out, succ[0]);
        t.extreme(&s, false, &mut Scratch::default(), &mut out);
        assert_eq!(&out, succ.last().unwrap());
        // Warps leaving the last position finish.
        assert!(succ.iter().all(|n| n.warps() <= s.warps()));
    }
}
