//! Warp schedulers: which ready warps issue when more are ready than units are free
//! (`docs/latency.md`, with sources).
//!
//! Every scheduler here is work-conserving in the paper's sense: in a cycle in which a
//! ready warp does not issue its `X` instruction, all `sigma_X` `X` units issue. They
//! differ in which ready warps those are. Each cycle the deterministic ones form one
//! priority list of all resident warps and go down it: a warp issues when it is ready
//! and its class has a unit left this cycle. Warps are ranked by age: block 1's warps
//! first, in warp order, then block 2's, and so on (all blocks start together).
//! GPGPU-Sim splits an SM's warps among several schedulers (by warp number), each
//! issuing from one warp per cycle; this model has one SM-wide list and the paper's
//! per-class capacities instead (stated in `docs/latency.md`).

use crate::error::InputError;
use serde::Serialize;
use std::fmt;

/// Which ready warps issue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheduler {
    /// Any work-conserving choice (the adversary of the paper): the worst case over all
    /// schedulers. Not a simulation: `solve` computes it.
    #[default]
    Any,
    /// Greedy-then-oldest (Rogers, O'Connor and Aamodt, MICRO 2012; GPGPU-Sim `gto`):
    /// the greedy warp first, then the others oldest first. The greedy warp is the
    /// first warp of the list that issued in the last cycle in which any warp issued
    /// (it keeps its place while it issues; warp 1 at the start).
    Gto,
    /// Loose round robin (GPGPU-Sim `lrr`), one rotation per class: the `X` units serve
    /// the ready `X` warps in circular warp order, starting after the last warp served an
    /// `X` instruction, last in that order (warp 1 first at the start). No warp waits for more
    /// than the other warps' one `X` issue each (the turnover bound
    /// `model::blocks::lrr_turnover_bound_with` rests on it; one rotation shared
    /// by both classes can starve a warp, `docs/latency.md`).
    Lrr,
    /// Oldest first: the warps by age, every cycle (the arbitration the turnover bound
    /// assumes, `gpu.warp_arbitration = "oldest-first"`).
    OldestFirst,
}

impl Scheduler {
    /// Every scheduler, in the order of the docs.
    pub const ALL: [Scheduler; 4] = [Scheduler::Any, Scheduler::Gto, Scheduler::Lrr, Scheduler::OldestFirst];

    /// The word of files and flags (`any`, `gto`, `lrr`, `oldest-first`).
    pub fn as_str(self) -> &'static str {
        match self {
            Scheduler::Any => "any",
            Scheduler::Gto => "gto",
            Scheduler::Lrr => "lrr",
            Scheduler::OldestFirst => "oldest-first",
        }
    }

    /// Parses the word of [`Scheduler::as_str`], for the field `field`.
    pub fn parse(text: &str, field: &str) -> Result<Scheduler, InputError> {
        Scheduler::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| InputError::new(field, text, "the scheduler must be \"any\", \"gto\", \"lrr\" or \"oldest-first\""))
    }

    /// Whether the choice is fixed (one run gives the time), as for all but `any`.
    pub fn is_deterministic(self) -> bool {
        self != Scheduler::Any
    }
}

impl fmt::Display for Scheduler {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A deterministic scheduler's state between cycles: the priority list of the next
/// cycle over `n` warps, per class (`0`: L, `1`: C).
#[derive(Debug, Clone)]
pub(crate) struct Priority {
    scheduler: Scheduler,
    n: usize,
    /// `gto`: the greedy warp (both entries); `lrr`: the warp that comes first, per class.
    lead: [usize; 2],
}

impl Priority {
    /// The state at the start (warp 0 leads).
    pub(crate) fn new(scheduler: Scheduler, n: usize) -> Priority {
        Priority { scheduler, n, lead: [0, 0] }
    }

    /// The priority list of this cycle for class `x`'s units.
    pub(crate) fn order(&self, x: usize) -> Vec<usize> {
        let lead = self.lead[x];
        match self.scheduler {
            Scheduler::Gto => std::iter::once(lead).chain((0..self.n).filter(|&w| w != lead)).collect(),
            Scheduler::Lrr => (0..self.n).map(|k| (lead + k) % self.n).collect(),
            Scheduler::Any | Scheduler::OldestFirst => (0..self.n).collect(),
        }
    }

    /// After a cycle in which the warps `issued[x]` issued class `x` (in list order).
    pub(crate) fn after(&mut self, issued: &[Vec<usize>; 2]) {
        match self.scheduler {
            Scheduler::Gto => {
                // The first issuer of the list: the greedy warp if it issued, else the oldest.
                let first = issued.iter().flatten().copied().min_by_key(|&w| (w != self.lead[0], w));
                if let Some(first) = first {
                    self.lead = [first, first];
                }
            }
            Scheduler::Lrr => {
                for (lead, issued) in self.lead.iter_mut().zip(issued) {
                    if let Some(&last) = issued.last() {
                        *lead = (last + 1) % self.n;
                    }
                }
            }
            Scheduler::Any | Scheduler::OldestFirst => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_bad_words_name_the_field() {
        for s in Scheduler::ALL {
            assert_eq!(Scheduler::parse(s.as_str(), "scheduler").unwrap(), s);
        }
        assert_eq!(Scheduler::parse("GTO", "scheduler").unwrap_err().field, "scheduler");
    }

    #[test]
    fn lists_follow_the_definitions() {
        let mut gto = Priority::new(Scheduler::Gto, 4);
        gto.after(&[vec![3], vec![2]]);
        assert_eq!(gto.order(0), [2, 0, 1, 3]);
        gto.after(&[vec![], vec![]]);
        assert_eq!(gto.order(1), [2, 0, 1, 3]);
        let mut lrr = Priority::new(Scheduler::Lrr, 4);
        lrr.after(&[vec![0, 2], vec![]]);
        assert_eq!(lrr.order(0), [3, 0, 1, 2]);
        assert_eq!(lrr.order(1), [0, 1, 2, 3]);
    }
}
