//! Beam search for long schedules: a lower bound on `T^(W)` that looks further than
//! single rollouts.
//!
//! All states of one depth have run the same number of cycles, so the search keeps, at
//! each depth, the `width` distinct states whose remaining time looks longest - ranked
//! by the proven upper bound on the remaining cycles, then by the proven lower bound
//! ([`crate::state_bounds`]), then at random - and expands each into (a sample of) its
//! successors. The deepest state to finish gives the schedule. Every path it follows is
//! a real work-conserving schedule (it only takes transitions of the system), so its
//! length is a proven lower bound; like every witness, the schedule is re-checked by
//! the checker before it is reported.

use crate::budget::Budget;
use crate::state::trace::Trace;
use crate::state::transitions::{Scratch, Transitions};
use crate::state::Counts;
use crate::state_bounds::{lower_bound, StateBound, Tables};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;

/// Most successors of one state the beam weighs (a random sample beyond that, plus the
/// two extreme choices).
const SAMPLE: usize = 48;

/// A node of the beam's tree: its parent and the moves of the cycle that led to it.
struct Node {
    parent: u32,
    start: u32,
    end: u32,
}

/// The tree of visited beam states, for rebuilding the chosen path.
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
    moves: Vec<(u32, u32)>,
}

impl Tree {
    fn push(&mut self, parent: u32, moves: &[(u32, u32)]) -> u32 {
        let start = self.moves.len() as u32;
        self.moves.extend_from_slice(moves);
        self.nodes.push(Node { parent, start, end: self.moves.len() as u32 });
        (self.nodes.len() - 1) as u32
    }

    /// The trace from the root (node 0) to `leaf`.
    fn trace(&self, leaf: u32) -> Trace {
        let mut chain = Vec::new();
        let mut n = leaf;
        while n != 0 {
            chain.push(n);
            n = self.nodes[n as usize].parent;
        }
        let mut t = Trace::default();
        for &n in chain.iter().rev() {
            let node = &self.nodes[n as usize];
            t.push_cycle(&self.moves[node.start as usize..node.end as usize]);
        }
        t
    }
}

/// Widest beam [`beams`] tries.
pub const MAX_WIDTH: usize = 4096;

/// Most tree nodes (width x depth) one beam may keep: about 80 bytes each with the
/// per-depth candidates, so a beam holds at most about 250 MB (measured: 160 MB peak
/// for 1.9 M nodes with sigma_C = 4).
pub const MAX_NODES: u64 = 3_000_000;

/// Beams of width 16, 64, 256, ... while `stop()` is false, up to [`MAX_WIDTH`] and to
/// the widest whose tree stays under [`MAX_NODES`] for schedules of up to `horizon`
/// cycles; a beam abandoned by `stop()` gives nothing. Calls `found` with each schedule
/// longer than the ones before it.
pub fn beams(
    t: &Transitions,
    bound: &impl StateBound,
    tables: &Tables,
    horizon: u64,
    seed: u64,
    stop: &dyn Fn() -> bool,
    found: &mut dyn FnMut(Trace),
) {
    let mut longest = 0;
    let mut width = 16usize;
    while width <= MAX_WIDTH && (width as u64).saturating_mul(horizon.max(1)) <= MAX_NODES && !stop() {
        match beam(t, bound, tables, width, seed ^ width as u64, stop) {
            Some(tr) if tr.cycles() > longest => {
                longest = tr.cycles();
                found(tr);
            }
            Some(_) => {}
            None => break,
        }
        width *= 4;
    }
}

/// [`beams`] until `deadline`, or without one a single beam of width 16 when the
/// instance is small enough for it to be quick (`horizon * I <= 2 * 10^6`). The longest
/// schedule found, if any.
pub fn beams_until(t: &Transitions, bound: &impl StateBound, tables: &Tables, horizon: u64, seed: u64, budget: &Budget) -> Option<Trace> {
    let mut best: Option<Trace> = None;
    match budget.deadline() {
        Some(_) => beams(t, bound, tables, horizon, seed, &|| budget.is_over(), &mut |tr| best = Some(tr)),
        None if horizon.saturating_mul(t.len() as u64) <= 2_000_000 => best = beam(t, bound, tables, 16, seed, &|| budget.interrupted()),
        None => {}
    }
    best
}

/// A state of the next depth: how promising it looks, and how it was reached.
struct Candidate {
    /// (upper bound, lower bound, random tie-break): larger is kept first.
    rank: (u64, u64, u64),
    /// The tree node it was reached from.
    parent: u32,
    /// The moves of the cycle that reached it.
    moves: Vec<(u32, u32)>,
}

/// The beam's working state.
struct Beam<'a, B> {
    t: &'a Transitions,
    bound: &'a B,
    tables: &'a Tables,
    rng: SmallRng,
    tree: Tree,
    scratch: Scratch,
    next: Counts,
}

impl<B: StateBound> Beam<'_, B> {
    /// The distinct successors of `frontier` (a sample of each state's), with the node of
    /// one that finishes, if any; `None` if `stop()` (asked before each state) turns true.
    fn layer(&mut self, frontier: &[(Counts, u32)], stop: &dyn Fn() -> bool) -> Option<(FxHashMap<Counts, Candidate>, Option<u32>)> {
        let mut layer: FxHashMap<Counts, Candidate> = FxHashMap::default();
        let mut finished = None;
        for (s, node) in frontier {
            if stop() {
                return None;
            }
            if self.t.choice_count(s) > crate::exact::heuristic::MAX_LISTED_CHOICES {
                continue;
            }
            let n = self.t.choices(s, &mut self.scratch);
            for j in sample(n, &mut self.rng) {
                self.t.successor(s, &mut self.scratch, j, &mut self.next);
                if self.next.is_finished() {
                    if finished.is_none() {
                        finished = Some(self.tree.push(*node, self.t.moves_of(&mut self.scratch, j)));
                    }
                    continue;
                }
                let rank = (self.bound.upper(&self.next), lower_bound(self.tables, &self.next), self.rng.random::<u64>());
                // The moves are copied only for a successor that is kept.
                match layer.get_mut(&self.next) {
                    Some(old) if old.rank >= rank => {}
                    Some(old) => *old = Candidate { rank, parent: *node, moves: self.t.moves_of(&mut self.scratch, j).to_vec() },
                    None => {
                        let c = Candidate { rank, parent: *node, moves: self.t.moves_of(&mut self.scratch, j).to_vec() };
                        layer.insert(self.next.clone(), c);
                    }
                }
            }
        }
        Some((layer, finished))
    }
}

/// The longest schedule a beam of `width` states finds, or `None` if `stop()` turns
/// true first (it is asked before each state is expanded). `seed` makes the sampling
/// reproducible.
pub fn beam(t: &Transitions, bound: &impl StateBound, tables: &Tables, width: usize, seed: u64, stop: &dyn Fn() -> bool) -> Option<Trace> {
    let mut b = Beam {
        t,
        bound,
        tables,
        rng: SmallRng::seed_from_u64(seed),
        tree: Tree::default(),
        scratch: Scratch::default(),
        next: Counts::default(),
    };
    b.tree.push(0, &[]);
    let mut frontier: Vec<(Counts, u32)> = vec![(t.start(), 0)];
    let mut best: Option<u32> = None;
    while !frontier.is_empty() {
        let (layer, finished) = b.layer(&frontier, stop)?;
        best = finished.or(best);
        let mut ranked: Vec<(Counts, Candidate)> = layer.into_iter().collect();
        ranked.sort_unstable_by_key(|(_, c)| std::cmp::Reverse(c.rank));
        ranked.truncate(width.max(1));
        frontier = ranked.into_iter().map(|(s, c)| (s, b.tree.push(c.parent, &c.moves))).collect();
    }
    best.map(|leaf| b.tree.trace(leaf))
}

/// The choices of a state with `n` successors that the beam weighs: all of them, or the
/// first, the last and a random sample.
fn sample(n: usize, rng: &mut SmallRng) -> Vec<usize> {
    if n <= SAMPLE {
        return (0..n).collect();
    }
    let mut v = vec![0, n - 1];
    v.extend((2..SAMPLE).map(|_| rng.random_range(0..n)));
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::checker::check;
    use crate::model::instance::Instance;
    use crate::state_bounds::standard;

    #[test]
    fn beam_schedules_are_valid_and_at_most_exact() {
        for (k, w, sl, sc, exact) in [("LLC", 4, 1, 1, 9), ("LCL", 4, 1, 1, 9), ("LLCLL", 8, 1, 1, 33)] {
            let inst = Instance::new(k, w, sl, sc).unwrap();
            let t = Transitions::new(&inst);
            let trace = beam(&t, &standard(&inst), &Tables::new(&inst), 16, 7, &|| false).unwrap();
            let s = trace.schedule(inst.warps, inst.len());
            assert_eq!(check(&inst, &s), Ok(trace.cycles()), "{k} W={w}");
            assert!(trace.cycles() <= exact, "{k} W={w}");
        }
    }
}
