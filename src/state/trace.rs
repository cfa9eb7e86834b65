//! A path through the transition system, stored as the moves of each cycle, and the
//! concrete schedule it stands for.

use super::Counts;
use crate::model::schedule::Schedule;
use std::collections::VecDeque;

/// The moves `(position, warps)` of each cycle of a path from the start state to the
/// finished state. Its length is the makespan of the schedule it stands for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    moves: Vec<(u32, u32)>,
    ends: Vec<usize>,
}

impl Trace {
    /// Appends one cycle with `moves` (in increasing position).
    pub fn push_cycle(&mut self, moves: &[(u32, u32)]) {
        self.moves.extend_from_slice(moves);
        self.ends.push(self.moves.len());
    }

    /// Appends the cycle that leads from `a` to `b` (one step of the transition system).
    pub fn push_step(&mut self, a: &Counts, b: &Counts) {
        let mut arriving: Option<(u32, u32)> = None;
        for &(p, n) in a.slots() {
            let came = arriving.take().filter(|&(q, _)| q == p).map_or(0, |(_, k)| k);
            let left = (n + came).saturating_sub(b.count(p as usize));
            if left > 0 {
                self.moves.push((p, left));
                arriving = Some((p + 1, left));
            }
        }
        self.ends.push(self.moves.len());
    }

    /// The path through the states `path[0] -> path[1] -> ...`.
    pub fn from_states(path: &[Counts]) -> Trace {
        let mut t = Trace::default();
        for pair in path.windows(2) {
            t.push_step(&pair[0], &pair[1]);
        }
        t
    }

    /// Number of cycles.
    pub fn cycles(&self) -> u64 {
        self.ends.len() as u64
    }

    /// The moves of cycle `t` (0-based).
    pub fn cycle(&self, t: usize) -> &[(u32, u32)] {
        let start = if t == 0 { 0 } else { self.ends[t - 1] };
        &self.moves[start..self.ends[t]]
    }

    /// A concrete schedule of `warps` warps running `len` instructions that follows this
    /// path, assigning the advancing counts to individual warps (first in, first out
    /// at each position). Whether it is valid is for the checker to say.
    pub fn schedule(&self, warps: u32, len: usize) -> Schedule {
        let w = warps as usize;
        let mut cycles = vec![Vec::with_capacity(len); w];
        let mut at: Vec<VecDeque<usize>> = vec![VecDeque::new(); len + 1];
        at[0] = (0..w).collect();
        for t in 0..self.ends.len() {
            // Highest position first, so that no warp moves twice in one cycle.
            for &(p, k) in self.cycle(t).iter().rev() {
                for _ in 0..k {
                    let Some(warp) = at[p as usize].pop_front() else { break };
                    cycles[warp].push(t as u64 + 1);
                    at[p as usize + 1].push_back(warp);
                }
            }
        }
        Schedule { cycles }
    }
}
