//! Jobs released together launch in an order the GPU does not fix. The reported
//! finish of each job is the maximum over every launch order of each group of tied
//! jobs (the list schedule of [`crate::rta::list::finishes`] for each order), or, when
//! there are too many orders, a bound on that maximum: each group replaced by one job
//! of all its blocks, each as long as the group's longest and with the envelope of its
//! demands ([`bound_over_orders`]).
//!
//! Why the bound holds: whatever the real order inside a group, the real block at each
//! position of the sequence has at most the time and demand of the merged job's block
//! at the same position; the proof of [`crate::rta::analysis`] compares blocks by
//! position, so every real block ends no later than the merged job's block at its
//! position, and every job of the group by the merged job's finish.

use crate::rta::gpu::Platform;
use crate::rta::jobs::{Class, Job, Sequence};
use crate::rta::list::finishes;
use crate::rta::time::Ticks;
use std::fmt;

/// Most launch orders tried one by one.
pub const MAX_ORDERS: u64 = 40_320;

/// Most blocks scheduled over all orders tried (orders times blocks).
pub const MAX_ORDER_WORK: u64 = 40_000_000;

/// How tied releases were handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// No two jobs released together with a free order.
    None,
    /// Every launch order of the tied jobs tried; the maximum reported.
    AllOrders(u64),
    /// Too many orders: each tied group merged ([`bound_over_orders`]).
    Bound,
}

impl fmt::Display for Ties {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Ties::None => write!(f, "none"),
            Ties::AllOrders(n) => write!(f, "worst of {n} launch orders"),
            Ties::Bound => write!(f, "bound over every launch order"),
        }
    }
}

/// Serialised as its words (`none`, `worst of N launch orders`, ...), as the report's
/// JSON has always had them.
impl serde::Serialize for Ties {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Per job (indices of the nominal sequence): the reported finish, and for jobs in a
/// free group, the group's order (job indices) that attains it.
#[derive(Debug, Clone)]
pub struct Worst {
    /// Reported finish of each job.
    pub finish: Vec<Ticks>,
    /// The launch order of the job's tie group that gives its finish (`None` when not tied,
    /// or under the bound).
    pub order: Vec<Option<Vec<usize>>>,
    /// How ties were handled.
    pub ties: Ties,
}

/// The worst finish of every job over the launch orders `seq` leaves free.
pub fn worst_over_orders(seq: &Sequence, p: &Platform) -> Worst {
    let n = seq.jobs.len();
    if seq.free_ties.is_empty() {
        return Worst { finish: finishes(&seq.jobs, &seq.classes, p), order: vec![None; n], ties: Ties::None };
    }
    let orders = seq.free_ties.iter().try_fold(1u64, |acc, g| (2..=g.len() as u64).try_fold(acc, |a, k| a.checked_mul(k)));
    let blocks: u64 = seq.jobs.iter().map(|j| j.blocks).sum();
    match orders {
        Some(k) if k <= MAX_ORDERS && k.saturating_mul(blocks) <= MAX_ORDER_WORK => every_order(seq, p, k),
        _ => Worst { finish: bound_over_orders(seq, p), order: vec![None; n], ties: Ties::Bound },
    }
}

fn every_order(seq: &Sequence, p: &Platform, count: u64) -> Worst {
    let n = seq.jobs.len();
    let mut group_of = vec![None; n];
    for (g, r) in seq.free_ties.iter().enumerate() {
        r.clone().for_each(|i| group_of[i] = Some(g));
    }
    let mut perms: Vec<Vec<usize>> = seq.free_ties.iter().map(|r| r.clone().collect()).collect();
    let mut worst = Worst { finish: vec![0; n], order: vec![None; n], ties: Ties::AllOrders(count) };
    let mut order: Vec<usize> = (0..n).collect();
    let mut jobs: Vec<Job> = seq.jobs.clone();
    loop {
        for (r, perm) in seq.free_ties.iter().zip(&perms) {
            order[r.clone()].copy_from_slice(perm);
        }
        for (slot, &i) in jobs.iter_mut().zip(&order) {
            *slot = seq.jobs[i];
        }
        for (&i, &f) in order.iter().zip(&finishes(&jobs, &seq.classes, p)) {
            if f > worst.finish[i] || worst.order[i].is_none() && group_of[i].is_some() {
                worst.finish[i] = f;
                worst.order[i] = group_of[i].map(|g| perms[g].clone());
            }
        }
        if !perms.iter_mut().any(|perm| next_permutation(perm)) {
            return worst;
        }
    }
}

/// The next permutation in lexicographic order; at the last, back to the first and
/// `false`.
fn next_permutation(v: &mut [usize]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        v.reverse();
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).expect("v[i] > v[i - 1]");
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// A bound on every job's finish over all launch orders: the list schedule of the
/// sequence with each free group merged into one job (all its blocks, the longest
/// time, the envelope of the demands, exact only if all demands are equal); every job
/// of a group gets the merged job's finish.
pub fn bound_over_orders(seq: &Sequence, p: &Platform) -> Vec<Ticks> {
    let mut classes = seq.classes.clone();
    let mut merged = Vec::new();
    let mut position = vec![0; seq.jobs.len()];
    let mut i = 0;
    let mut groups = seq.free_ties.iter().peekable();
    while i < seq.jobs.len() {
        match groups.next_if(|g| g.start == i) {
            Some(g) => {
                let members = &seq.jobs[g.clone()];
                let first = classes[members[0].class];
                let demand = members.iter().fold(first.demand, |e, j| e.envelope(classes[j.class].demand));
                let exact = members.iter().all(|j| classes[j.class] == first);
                classes.push(Class { demand, exact });
                merged.push(Job {
                    wcet: members.iter().map(|j| j.wcet).max().unwrap_or(0),
                    blocks: members.iter().map(|j| j.blocks).sum(),
                    class: classes.len() - 1,
                    ..members[0]
                });
                g.clone().for_each(|k| position[k] = merged.len() - 1);
                i = g.end;
            }
            None => {
                merged.push(seq.jobs[i]);
                position[i] = merged.len() - 1;
                i += 1;
            }
        }
    }
    let f = finishes(&merged, &classes, p);
    position.iter().map(|&k| f[k]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_in_order() {
        let mut v = vec![0, 1, 2];
        let mut seen = vec![v.clone()];
        while next_permutation(&mut v) {
            seen.push(v.clone());
        }
        assert_eq!(seen.len(), 6);
        assert_eq!(v, vec![0, 1, 2]);
        assert_eq!(seen[1], vec![0, 2, 1]);
    }
}
