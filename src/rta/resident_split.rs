//! The low blocks a high job meets at its entry, split by how many there were.
//!
//! The empty-high-queue bound of a low job `l` ([`crate::rta::priority`],
//! `Pool::room_once_high_queue_empty`) weighs `l`'s room at a time `Y` beside the high
//! blocks that may still run then and every block of the low jobs that may. The high
//! blocks' start bounds come from the high jobs' list, which counts beside each high job
//! `j` the low blocks that may run at its entry (its residents, [`Job::residents`]): many
//! residents start the high blocks late, so that many may still run at `Y`. But a
//! resident of `j` of block time `t` started by `j`'s entry, so by `late_j`: where
//! `late_j + t <= Y` it has ended by `Y`. The low blocks that delay the high jobs and
//! those still running at `Y` are then different blocks of the same low jobs, and
//! [`room_for_every_split`] checks the room for every number of the first.

use crate::rta::gpu::Platform;
use crate::rta::jobs::{Class, Job, Residents};
use crate::rta::list::{block_starts, still_running};
use crate::rta::time::Ticks;
use std::collections::BTreeMap;

/// Most list runs of one [`room_for_every_split`] (boxes of splits weighed).
pub const SPLIT_RUNS: usize = 32;

/// Most block steps of the lists of [`room_for_every_split`] over one analysis of two
/// queues (its `steps`); once spent, the room is not sure.
pub const SPLIT_STEPS: u64 = 1_000_000;

/// The high jobs' list of one order: its jobs with their blocking and entries as the list
/// runs them, and their residents each by its block's `C` (never a known end's shorter
/// time: the keys below are the low jobs' class and `C`, which `outside` counts), and each
/// one's index in the nominal sequence (`of`).
#[derive(Debug, Clone, PartialEq)]
pub struct HighList {
    /// The list's jobs (in the list's order).
    pub jobs: Vec<Job>,
    /// Per job of `jobs`, its index in the nominal sequence.
    pub of: Vec<usize>,
}

/// The room check at `y` that [`room_for_every_split`] weighs again.
pub struct AtY<'a> {
    /// The time `Y`.
    pub y: Ticks,
    /// Per job of the nominal sequence, its latest entry.
    pub late: &'a [Ticks],
    /// The high jobs counted at `Y` (nominal indices), with the most of their blocks that
    /// may still run then without the split (from the whole list's start bounds, or all).
    pub highs: &'a [(usize, u64)],
    /// Per class, the low blocks counted at `Y`.
    pub low: &'a BTreeMap<usize, u64>,
    /// Per class and block time, the blocks of low jobs of that class and time that are
    /// not counted at `Y`.
    pub outside: &'a dyn Fn(usize, Ticks) -> u64,
}

/// Whether `room` (the head's room beside at most so many blocks of each class) holds at
/// `Y` for every number of the residents that have ended by then.
///
/// For a key `(c, t)` (class and block time of [`Residents`]), let `Q` be the high jobs
/// of `list` counting residents of the key with `late_j + t <= Y`, `N` the most such a
/// job counts, and `n` the number of distinct real low blocks of the key that are
/// residents of some job of `Q`. Every real execution has some `n`; [`room_for_every_split`]
/// covers `[0, N]` per key (the top value standing for `N` or more) by boxes `[lo, hi]`,
/// halving a box where `room` fails, and checks in each box `room` beside
/// - the high blocks still running at `Y` by the list run again with each job of `Q`
///   counting at most `hi` residents of the key (at most its own count; a job left with
///   none of its residents has no blocking), at most the count without the split, and
/// - the low blocks of each class counted at `Y`, less `lo - outside` for each key of
///   that class (`outside` its blocks in jobs not counted at `Y`).
///
/// `false` where a box of one point fails, or after [`SPLIT_RUNS`] lists, or once
/// `steps` is spent.
///
/// Proof. Take a real execution with `n` in the box. (1) Each job `j` of `Q` meets at
/// its entry at most its own count of the key's blocks (the residents' proof,
/// `crate::rta::priority::residents`), and these are among the `n`, so at most `min(count,
/// hi)`; a job meeting no low block at its entry needs no blocking (a low block running
/// while it is in the high queue started by its entry, as in `room_beside_all`). So
/// the list run again counts at least the real residents of each job, and its proof (the
/// module documentation of [`crate::rta::priority`]: the list's room checks hold for any
/// running set of at most so many blocks of each class) gives the same start bounds:
/// the real `m`-th block of a high job starts by the list's `m`-th (one order, as
/// [`block_starts`] needs), so a block with `s_m + C <= Y` has ended by `Y`. (2) Each
/// of the `n` blocks started by some `e_j <= late_j` and takes at most `t`, so it has ended by
/// `late_j + t <= Y`; at least `n - outside >= lo - outside` of them are blocks of the
/// low jobs counted at `Y`, so at most the count less that many of those run at `Y`.
/// With `room` holding for these counts, it holds for the real running set at `Y`.
pub fn room_for_every_split(
    list: &HighList,
    at: &AtY,
    classes: &[Class],
    p: &Platform,
    room: &dyn Fn(&BTreeMap<usize, u64>) -> bool,
    steps: &std::cell::Cell<u64>,
) -> bool {
    // The list's jobs up to the last one counted at `Y` (a later one changes no earlier start).
    let upto = at.highs.iter().filter_map(|&(h, _)| list.of.iter().position(|&i| i == h)).max().map_or(0, |k| k + 1);
    let list = &HighList { jobs: list.jobs[..upto].to_vec(), of: list.of[..upto].to_vec() };
    let keys = keys(list, at);
    if keys.is_empty() {
        return false;
    }
    let (none, most): (Vec<u64>, Vec<u64>) = (vec![0; keys.len()], keys.iter().map(|&(_, _, n)| n).collect());
    // A failing point fails every box holding it: the all-zero and all-`N` points first,
    // so that a hopeless split costs two lists.
    for point in [&none, &most] {
        let c = counts_in_box(list, at, &keys, (point, point), classes, p, steps);
        match c {
            Some(counts) if room(&counts) => {}
            _ => return false,
        }
    }
    let mut boxes: Vec<(Vec<u64>, Vec<u64>)> = vec![(none, most)];
    for _ in 0..SPLIT_RUNS {
        let Some((lo, hi)) = boxes.pop() else { return true };
        let Some(counts) = counts_in_box(list, at, &keys, (&lo, &hi), classes, p, steps) else { return false };
        if room(&counts) {
            continue;
        }
        // Halve the widest side; a box of one point fails.
        let Some(d) = (0..keys.len()).filter(|&d| hi[d] > lo[d]).max_by_key(|&d| hi[d] - lo[d]) else { return false };
        let mid = lo[d] + (hi[d] - lo[d]) / 2;
        let (mut upper_lo, mut lower_hi) = (lo.clone(), hi.clone());
        upper_lo[d] = mid + 1;
        lower_hi[d] = mid;
        boxes.push((upper_lo, hi));
        boxes.push((lo, lower_hi));
    }
    boxes.is_empty()
}

/// The keys `(class, time, N)` whose residents have ended by `Y` for some job of the
/// list (`late_j + t <= Y`), with `N` the most such a job counts.
fn keys(list: &HighList, at: &AtY) -> Vec<(usize, Ticks, u64)> {
    let mut keys: BTreeMap<(usize, Ticks), u64> = BTreeMap::new();
    for (j, &i) in list.jobs.iter().zip(&list.of) {
        for (c, t, n) in j.residents.iter().filter(|&(_, t, _)| ended(at, i, t)) {
            let most = keys.entry((c, t)).or_default();
            *most = (*most).max(n);
        }
    }
    keys.into_iter().map(|((c, t), n)| (c, t, n)).collect()
}

/// Whether the residents of block time `t` of the job `i` (nominal) have ended by `Y`.
fn ended(at: &AtY, i: usize, t: Ticks) -> bool {
    at.late[i].saturating_add(t) <= at.y
}

/// The blocks per class counted at `Y` in the box `[lo, hi]` of the keys (the proof of
/// [`room_for_every_split`]); `None` once `steps` is spent.
fn counts_in_box(
    list: &HighList,
    at: &AtY,
    keys: &[(usize, Ticks, u64)],
    (lo, hi): (&[u64], &[u64]),
    classes: &[Class],
    p: &Platform,
    steps: &std::cell::Cell<u64>,
) -> Option<BTreeMap<usize, u64>> {
    let key = |c: usize, t: Ticks| keys.iter().position(|&(kc, kt, _)| (kc, kt) == (c, t));
    let jobs: Vec<Job> = list
        .jobs
        .iter()
        .zip(&list.of)
        .map(|(j, &i)| {
            let capped = j.residents.iter().map(|(c, t, n)| match key(c, t) {
                Some(k) if ended(at, i, t) => (c, t, n.min(hi[k])),
                _ => (c, t, n),
            });
            let residents = Residents::new(capped).unwrap_or(j.residents);
            let blocking = if residents.is_empty() && !j.residents.is_empty() { Ticks::ZERO } else { j.blocking };
            Job { residents, blocking, ..*j }
        })
        .collect();
    let work: u64 = jobs.iter().map(|j| j.blocks).sum();
    steps.set(steps.get().checked_sub(work)?);
    let (_, starts) = block_starts(&jobs, classes, p);
    let mut counts: BTreeMap<usize, u64> = BTreeMap::new();
    for &(h, most) in at.highs {
        let k = list.of.iter().position(|&i| i == h)?;
        let c = list.jobs[k].wcet;
        let running = still_running(&starts[k], c, at.y);
        *counts.entry(list.jobs[k].class).or_default() += running.min(most);
    }
    for (&c, &n) in at.low {
        let gone: u64 = keys.iter().zip(lo).filter(|((kc, _, _), _)| *kc == c).map(|(&(_, t, _), &lo)| lo.saturating_sub((at.outside)(c, t))).sum();
        *counts.entry(c).or_default() += n.saturating_sub(gone);
    }
    Some(counts)
}
