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
use crate::rta::jobs::{Residents, Class, Job, TieOrder};
use crate::rta::list::{block_starts_beside, entry_in_list, finishes};
use crate::rta::time::Ticks;
use std::fmt;
use std::ops::Range;

/// Most launch orders tried one by one.
pub const MAX_ORDERS: u64 = 40_320;

/// Most blocks scheduled over all orders tried (orders times blocks).
pub const MAX_ORDER_WORK: u64 = 40_000_000;

/// What one order tried costs besides its blocks, in block steps (the list's set-up
/// over every job, SM and class): so that many orders of few blocks, round after
/// round of a fixpoint, also end in the merged bound rather than run for minutes.
pub const ORDER_OVERHEAD: u64 = 1_000;

/// How tied releases were handled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ties {
    /// No two jobs released together with a free order.
    None,
    /// Every launch order of the tied jobs tried; the maximum reported.
    AllOrders(u64),
    /// Too many orders: each tied group merged (`bound_over_orders`).
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

/// Reads back the words of its `Display` (`none`, `worst of N launch orders`, `bound
/// over every launch order`).
impl std::str::FromStr for Ties {
    type Err = String;
    fn from_str(s: &str) -> Result<Ties, String> {
        let orders = s.strip_prefix("worst of ").and_then(|rest| rest.strip_suffix(" launch orders")).and_then(|n| n.parse().ok());
        match (s, orders) {
            ("none", _) => Ok(Ties::None),
            ("bound over every launch order", _) => Ok(Ties::Bound),
            (_, Some(n)) => Ok(Ties::AllOrders(n)),
            _ => Err(format!("`{s}` is not none, worst of N launch orders or bound over every launch order")),
        }
    }
}

/// Reads back the words it is serialised as.
impl<'de> serde::Deserialize<'de> for Ties {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

/// Most jobs of one group whose orders are enumerated (longer groups are bounded).
pub const MAX_GROUP: usize = 24;

/// What bounds each job's entry into the queue: `late[i]`, the latest time job `i` may
/// enter, and `first[i]`, jobs that enter strictly before it in every execution whose
/// promises hold (besides its stream predecessor; `first` may be shorter than the jobs,
/// or empty: nothing more is known). Each `k` in `first[i]` must have `(late[k], k) <
/// (late[i], i)`, so that ordering by `late` keeps them ([`stream_orders`]); the fact
/// must rest only on promises due by `i`'s real entry (as the copy engine's order of
/// [`crate::rta::queues`] does).
#[derive(Debug, Clone, Copy)]
pub struct Entries<'a> {
    /// The latest entry of each job.
    pub late: &'a [Ticks],
    /// Per job, the jobs that enter before it.
    pub first: &'a [Vec<usize>],
}

impl<'a> Entries<'a> {
    /// Only the latest entries known.
    pub fn late(late: &'a [Ticks]) -> Entries<'a> {
        Entries { late, first: &[] }
    }
}

/// Per job: its worst finish, the order of its group that gives it, how ties went, and
/// whether a reachable execution attains it.
#[derive(Debug, Clone)]
pub struct Worsts {
    /// Each job's reported finish (the most over the orders tried, or the merged bound).
    pub finish: Vec<Ticks>,
    /// The order of the job's free group that gives its finish (`None`: not tied, or merged).
    pub order: Vec<Option<Vec<usize>>>,
    /// How ties were handled.
    pub ties: Ties,
    /// Per job: its finish is that of a list schedule that can happen ([`realizable`]:
    /// every job entering within its window, in the order tried). Always false for a job
    /// of a merged group.
    pub attained: Vec<bool>,
    /// Per combination of the groups' orders tried one by one, each job's block starts
    /// (nominal indices) in the list of that combination ([`crate::rta::list::block_starts`]:
    /// in an execution whose jobs enter in that combination's order, the real `m`-th block
    /// of a job starts by its `m`-th start there). Kept only by [`worst_keeping_starts`] and
    /// [`every_order_beside`], where every combination is tried one by one and all of them
    /// together are at most [`KEEP_STARTS`] starts; empty otherwise (also without a group:
    /// the caller has the one list).
    pub starts: Vec<Vec<Vec<Ticks>>>,
}

/// The most block starts [`Worsts::starts`] keeps, over every combination.
pub const KEEP_STARTS: u64 = 1 << 18;

/// The worst finish of every job (nominal indices) over the orders of `groups`, with
/// the orders that attain them. With too many orders, the groups with the most orders
/// are merged ([`bound_over_orders`]) and the others still tried one by one (hybrid),
/// or, if a group to merge has stream waits inside, all are bounded. `late[i]`: the
/// latest time job `i` may enter the queue (it bounds which orders can happen,
/// [`stream_orders`], and each entry, [`every_order`]). `work` is what is left of the
/// block steps the orders tried one by one may take (over all calls of one analysis, so
/// that a fixpoint of many rounds stays within it); what they take is deducted, and with
/// too little left the groups are merged. `order`: whether jobs entering the queue at the
/// same instant may do so in any order ([`TieOrder::Free`]) or only in the nominal one
/// (for [`Worsts::attained`]).
pub fn worst_for(jobs: &[Job], groups: &[Range<usize>], entries: Entries, order: TieOrder, classes: &[Class], p: &Platform, work: &mut u64) -> Worsts {
    worst_over(jobs, groups, entries, order, classes, p, work, false)
}

/// [`worst_for`], keeping [`Worsts::starts`] where every combination is tried one by one
/// (and they are few enough).
pub fn worst_keeping_starts(
    jobs: &[Job],
    groups: &[Range<usize>],
    entries: Entries,
    order: TieOrder,
    classes: &[Class],
    p: &Platform,
    work: &mut u64,
) -> Worsts {
    worst_over(jobs, groups, entries, order, classes, p, work, true)
}

/// [`worst_for`], keeping the starts where `keep`.
#[allow(clippy::too_many_arguments)]
fn worst_over(jobs: &[Job], groups: &[Range<usize>], entries: Entries, order: TieOrder, classes: &[Class], p: &Platform, work: &mut u64, keep: bool) -> Worsts {
    let (n, late) = (jobs.len(), entries.late);
    let free = order == TieOrder::Free;
    if groups.is_empty() {
        let finish = finishes(jobs, classes, p);
        let attained = vec![realizable(jobs, &finish, free); n];
        return Worsts { finish, order: vec![None; n], ties: Ties::None, attained, starts: Vec::new() };
    }
    let blocks: u64 = jobs.iter().map(|j| j.blocks).sum::<u64>().max(1);
    let (cap, orders) = orders_within(jobs, groups, entries, free, *work);
    if let Some(total) = orders.iter().try_fold(1usize, |acc, o| acc.checked_mul(o.len()).filter(|&t| t <= cap)) {
        *work = work.saturating_sub(total as u64 * (blocks + ORDER_OVERHEAD));
        return every_order(jobs, groups, &orders, late, free, classes, p, (Ticks::ZERO, &[]), keep);
    }
    // Try the groups with the fewest orders while their product fits; merge the rest.
    let mut by_size: Vec<usize> = (0..groups.len()).collect();
    by_size.sort_by_key(|&g| orders[g].len());
    let mut total = 1usize;
    let tried: Vec<usize> = by_size
        .into_iter()
        .take_while(|&g| match total.checked_mul(orders[g].len()).filter(|&t| t <= cap) {
            Some(t) => {
                total = t;
                true
            }
            None => false,
        })
        .collect();
    let merged: Vec<Range<usize>> = (0..groups.len()).filter(|g| !tried.contains(g)).map(|g| groups[g].clone()).collect();
    let waits = merged.iter().any(|g| jobs[g.clone()].iter().any(|j| j.after.is_some_and(|a| g.contains(&a))));
    if tried.is_empty() || waits {
        let finish = bound_over_orders(jobs, late, groups, classes, p);
        return Worsts { finish, order: vec![None; n], ties: Ties::Bound, attained: vec![false; n], starts: Vec::new() };
    }
    *work = work.saturating_sub(total as u64 * (blocks + ORDER_OVERHEAD));
    Worsts { ties: Ties::Bound, attained: vec![false; n], starts: Vec::new(), ..hybrid(jobs, late, groups, &tried, &orders, classes, p) }
}

/// How many combinations of orders one call may try (one round `MAX_ORDER_WORK /
/// blocks`, all rounds together what `work` leaves, each order counted with its
/// overhead), and each group's orders that fit the windows, at most one more than that.
fn orders_within(jobs: &[Job], groups: &[Range<usize>], entries: Entries, free: bool, work: u64) -> (usize, Vec<Vec<Vec<usize>>>) {
    let blocks: u64 = jobs.iter().map(|j| j.blocks).sum::<u64>().max(1);
    let cap = (MAX_ORDERS as usize).min((MAX_ORDER_WORK / blocks).min(work / (blocks + ORDER_OVERHEAD)) as usize);
    let windows = Windows { earliest: earliest_entries(jobs), late: entries.late, fixed: !free, first: entries.first };
    (cap, groups.iter().map(|g| stream_orders(jobs, g.clone(), &windows, cap.saturating_add(1))).collect())
}

/// [`worst_for`] with every list starting no block before `from` and counting the blocks
/// of `beside` (each its end and class) as running until their ends
/// ([`crate::rta::list::block_starts_beside`]; what this bounds rests on the caller's
/// proof), where every combination of the groups' orders can be tried within `work`
/// (deducted); `None` otherwise.
#[allow(clippy::too_many_arguments)]
pub fn every_order_beside(
    jobs: &[Job],
    groups: &[Range<usize>],
    late: &[Ticks],
    order: TieOrder,
    classes: &[Class],
    p: &Platform,
    work: &mut u64,
    beside: (Ticks, &[(Ticks, usize)]),
) -> Option<Worsts> {
    let free = order == TieOrder::Free;
    let blocks: u64 = jobs.iter().map(|j| j.blocks).sum::<u64>().max(1);
    let (cap, orders) = orders_within(jobs, groups, Entries::late(late), free, *work);
    let total = orders.iter().try_fold(1usize, |acc, o| acc.checked_mul(o.len()).filter(|&t| t <= cap))?;
    *work = work.saturating_sub(total as u64 * (blocks + ORDER_OVERHEAD));
    Some(every_order(jobs, groups, &orders, late, free, classes, p, beside, true))
}

/// Every combination of the orders of the groups `tried`, the other groups merged into
/// one job each (as [`bound_over_orders`] merges them); every job enters at its `late`
/// time. Per job (nominal indices) its worst finish and, in a tried group, the order.
fn hybrid(
    jobs: &[Job],
    late: &[Ticks],
    groups: &[Range<usize>],
    tried: &[usize],
    orders: &[Vec<Vec<usize>>],
    classes: &[Class],
    p: &Platform,
) -> Worsts {
    let mut classes = classes.to_vec();
    let (mut collapsed, mut position) = (Vec::new(), vec![0; jobs.len()]);
    let (mut new_groups, mut new_orders) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < jobs.len() {
        let Some(g) = groups.iter().position(|r| r.start == i) else {
            position[i] = collapsed.len();
            collapsed.push(Job { ready: late[i], ..jobs[i] });
            i += 1;
            continue;
        };
        let r = groups[g].clone();
        if tried.contains(&g) {
            // The group's jobs keep their places; its orders are shifted to them.
            let base = collapsed.len();
            r.clone().for_each(|k| {
                position[k] = collapsed.len();
                collapsed.push(Job { ready: late[k], ..jobs[k] });
            });
            new_groups.push(base..base + r.len());
            new_orders.push(orders[g].iter().map(|o| o.iter().map(|&k| k - r.start + base).collect()).collect::<Vec<Vec<usize>>>());
        } else {
            r.clone().for_each(|k| position[k] = collapsed.len());
            collapsed.push(merge(&jobs[r.clone()], r.clone().map(|k| late[k]).max().unwrap_or(Ticks::ZERO), &mut classes));
        }
        i = r.end;
    }
    let entered: Vec<Ticks> = collapsed.iter().map(|j| j.ready).collect();
    let w = every_order(&collapsed, &new_groups, &new_orders, &entered, true, &classes, p, (Ticks::ZERO, &[]), false);
    let back = |o: &Vec<usize>| o.iter().map(|&c| (0..jobs.len()).find(|&k| position[k] == c).expect("a job")).collect();
    Worsts {
        finish: position.iter().map(|&c| w.finish[c]).collect(),
        order: position.iter().map(|&c| w.order[c].as_ref().map(back)).collect(),
        ties: w.ties,
        attained: vec![false; jobs.len()],
        starts: Vec::new(),
    }
}

/// The orders of the jobs of `group` that can happen (at most `cap` of them; more means
/// too many): every job after its stream predecessor when both are in the group, and
/// every job after the jobs known to enter before it (`Windows::first`, [`Entries`]), and
/// every job entering within its window, no earlier than its earliest entry
/// ([`earliest_entries`]) and no later than `late`: an order puts job `j` before job `i`
/// only if some entries `e_j <= e_i` fit the windows, i.e. (greedily, entries as early
/// as they may be) the latest earliest entry of the jobs placed up to `i` is at most
/// `late[i]`.
///
/// Why leaving the others out is safe (the proof of [`crate::rta::queues`], whose
/// "earliest broken promise" argument it extends): a job `a`'s finish depends only on the
/// jobs ahead of it in the queue. Take the real order `R`; if `j` is before `i` in `R` and
/// `E_j > late[i]` (`E` the earliest entry, below the real one: [`earliest_entries`],
/// strictly where it says so), then `e_i >= e_j >= E_j > late[i]`: `i` broke its entry
/// promise. When
/// `i` is ahead of `a`, or `j` is ahead of `a` and `i` behind it, that promise was due at
/// `late[i] < e_a <= late[a] < F_a` (in the second case `late[i] < E_j <= e_j <= e_a`):
/// an earlier broken promise than `F_a`. So, with no earlier promise broken, `R` up to `a`
/// passes the test, and so does `R` up to `a` followed by the other jobs by increasing
/// `late`, ties in nominal order (which also keeps each stream in order: a successor's
/// `late` is at least its predecessor's finish, after that one's entry; where a
/// predecessor's reported finish rests on an order in which its own entry was capped
/// (`Job::entered_by`), move it, its successors and the jobs known to follow it to just
/// after the last job of smaller `late`: the window test still passes, their earliest
/// entries being below that `late`, and the order that gives the predecessor's finish is
/// unchanged, a cold review's exchange argument): an order tried, with the same jobs
/// ahead of `a` in the same order. A job `k` known to enter before
/// `i` ([`Entries`]) is before it in `R` unless a promise due by `i`'s real entry broke
/// (before `F_a` when `i` is ahead of `a`), and after `a` the order by `late` keeps `k`
/// before `i`, since `(late[k], k) < (late[i], i)`.
///
/// With a fixed order of simultaneous entries (`Windows::fixed`: the nominal order at
/// the same instant, as the reference simulator's fixed ties), `j` before `i` with `j`
/// nominally after `i` needs `e_j < e_i`: the test keeps that strictness apart from the
/// whole ticks, and the argument is the same (`E_j >= late[i]` would give
/// `e_i > e_j >= late[i]`, a broken promise).
fn stream_orders(jobs: &[Job], group: Range<usize>, windows: &Windows, cap: usize) -> Vec<Vec<usize>> {
    if group.len() > MAX_GROUP {
        // Too long to enumerate whatever the streams: as many orders as "too many".
        return vec![Vec::new(); cap];
    }
    struct Orders<'a> {
        jobs: &'a [Job],
        group: Range<usize>,
        windows: &'a Windows<'a>,
        cap: usize,
        out: Vec<Vec<usize>>,
    }
    impl Orders<'_> {
        /// Every way to go on from `order`, whose jobs' least entries are `entries`
        /// (each a time, and whether the entry is strictly after it).
        fn extend(&mut self, order: &mut Vec<usize>, entries: &mut Vec<(Ticks, bool)>) {
            if self.out.len() >= self.cap {
                return;
            }
            if order.len() == self.group.len() {
                self.out.push(order.clone());
                return;
            }
            let late = self.windows.late;
            // A job left whose window closed before the last entry can never be placed:
            // no order goes on from here (cut now, or the dead branches grow exponentially).
            let entered = entries.last().map_or(Ticks::ZERO, |e| e.0);
            if self.group.clone().any(|k| !order.contains(&k) && late[k] < entered) {
                return;
            }
            for i in self.group.clone() {
                let placed = |k: usize| order.contains(&k);
                let before = |a: usize| !self.group.contains(&a) || placed(a);
                let known = self.windows.first.get(i).is_none_or(|f| f.iter().all(|&k| before(k)));
                let ready = self.jobs[i].after.is_none_or(before) && known;
                if placed(i) || !ready {
                    continue;
                }
                let entry = self.windows.least_entry(i, order, entries);
                if entry.0 < late[i] || (entry.0 == late[i] && !entry.1) {
                    order.push(i);
                    entries.push(entry);
                    self.extend(order, entries);
                    order.pop();
                    entries.pop();
                }
            }
        }
    }
    let mut all = Orders { jobs, group: group.clone(), windows, cap, out: Vec::new() };
    all.extend(&mut Vec::with_capacity(group.len()), &mut Vec::with_capacity(group.len()));
    if all.out.is_empty() {
        // No order fits: `late` is not yet a bound (a round of the fixpoint before the
        // last, whose entries only grow). Every order that keeps the streams, as before
        // the windows were used; the last round has the real order among its own.
        let open = Windows { earliest: vec![(Ticks::ZERO, false); jobs.len()], late: &vec![Ticks::MAX; jobs.len()], fixed: false, first: &[] };
        let mut all = Orders { jobs, group, windows: &open, cap, out: Vec::new() };
        all.extend(&mut Vec::new(), &mut Vec::new());
        return all.out;
    }
    all.out
}

/// Each job's entry window: `earliest` from [`earliest_entries`], `late` the latest;
/// `fixed`: jobs entering at the same instant enter in the nominal order (a launch order
/// the user fixed), else in any order; `first`: as [`Entries::first`].
struct Windows<'a> {
    earliest: Vec<(Ticks, bool)>,
    late: &'a [Ticks],
    fixed: bool,
    first: &'a [Vec<usize>],
}

impl Windows<'_> {
    /// The least entry of job `i` placed after `order` (whose least entries are
    /// `entries`): no earlier than its earliest entry and any job before it, and, with a
    /// fixed order, strictly after a job before it that comes later in the nominal order
    /// (at the same instant it would have entered first). As `(time, strictly after)`;
    /// whole ticks and strictness are kept apart, since `t + epsilon` stays below `t + 1`
    /// however often it is taken.
    fn least_entry(&self, i: usize, order: &[usize], entries: &[(Ticks, bool)]) -> (Ticks, bool) {
        order.iter().zip(entries).fold(self.earliest[i], |least, (&p, &(t, strict))| {
            least.max((t, strict || (self.fixed && p > i)))
        })
    }
}

/// Per job (nominal order), a bound below its real entry into the queue, as `(time,
/// strictly after)`: its release (strictly after it with a copy in: the kernel enters
/// once its copy in, launched at the release at the earliest, has completed, and a copy
/// takes a positive time), and strictly after its stream predecessor's earliest
/// entry (a job enters only once its predecessor has completed, after that one's entry
/// by a block's positive time, which may be less than a tick: strictly later, never a
/// whole tick later; and a chain of successors stays strictly after the first's, not a
/// tick per link).
fn earliest_entries(jobs: &[Job]) -> Vec<(Ticks, bool)> {
    let mut earliest = vec![(Ticks::ZERO, false); jobs.len()];
    for (i, j) in jobs.iter().enumerate() {
        let own = (j.release, j.copy_in > Ticks::ZERO);
        earliest[i] = j.after.map_or(own, |a| own.max((earliest[a].0, true)));
    }
    earliest
}

/// Whether the list schedule of `run` (in queue order, `finish` its finishes) can happen:
/// each job's entry in it (its `ready`, or its stream predecessor's finish there if later:
/// [`entry_in_list`]) is no earlier than the entry of the job before it in the queue. Then every job entering
/// at exactly that time, with every block taking its `C`, is an execution (each entry is
/// within the job's window: `ready` is at least its release and at most its latest entry),
/// whose queue is `run`'s order; at equal entries that order must be the nominal one
/// unless simultaneous entries are `free` to go in any order.
fn realizable(run: &[Job], finish: &[Ticks], free: bool) -> bool {
    let mut done = std::collections::HashMap::new();
    let mut before: Option<(Ticks, usize)> = None;
    for (j, &f) in run.iter().zip(finish) {
        let entry = entry_in_list(j, &done);
        // An entry capped below its stream predecessor's finish is not that of an
        // execution with every block at its `C`.
        if entry != entry_in_list(&Job { entered_by: Ticks::MAX, ..*j }, &done) {
            return false;
        }
        if let Some((e, id)) = before {
            if entry < e || (entry == e && !free && id > j.id) {
                return false;
            }
        }
        before = Some((entry, j.id));
        done.insert(j.id, f);
    }
    true
}

/// The list schedule of every combination of the groups' `orders`; per job its worst
/// finish, the order of its group that gives it, and whether a combination that can
/// happen gives it ([`realizable`]; `free`: simultaneous entries in any order).
/// `late[i]`: the latest time job `i` may enter the queue.
///
/// In an order that puts a job ahead of job `k`, it entered no later than `k` did, so by
/// `late[k]`: each job's `ready` is lowered to the least `late` of the jobs after it in
/// the order, and so is its entry after a stream wait (`Job::entered_by`: in that order
/// it entered by then even if its stream predecessor's bound in the list is later; the
/// list schedule is monotone in the entries, so a lower bound on none of them is taken). With copies a job's `ready` (its kernel's entry bound, after its copy
/// in) is taken from the previous round of [`crate::rta::queues`], over every order;
/// without the cap an order could charge a job for a copy wait that only another order
/// has, and the rounds would never settle. A job after it outside its group is released
/// after its latest entry, so such a cap is at least that entry (with two queues it may
/// still bind, the reported finishes being the least over passes, and it stays above the
/// real entry); and a cap never goes below a release, since only orders that fit the
/// windows are tried ([`stream_orders`]). `(from, beside)`: as in
/// [`every_order_beside`] (`(0, [])`: none); `keep`: whether to keep the starts
/// ([`Worsts::starts`], within [`KEEP_STARTS`]).
#[allow(clippy::too_many_arguments)]
fn every_order(
    jobs: &[Job],
    groups: &[Range<usize>],
    orders: &[Vec<Vec<usize>>],
    late: &[Ticks],
    free: bool,
    classes: &[Class],
    p: &Platform,
    (from, beside): (Ticks, &[(Ticks, usize)]),
    keep: bool,
) -> Worsts {
    let n = jobs.len();
    let mut group_of = vec![None; n];
    for (g, r) in groups.iter().enumerate() {
        r.clone().for_each(|i| group_of[i] = Some(g));
    }
    let (mut finish, mut best): (Vec<Ticks>, Vec<Option<Vec<usize>>>) = (vec![Ticks::ZERO; n], vec![None; n]);
    let mut attained = vec![false; n];
    let mut order: Vec<usize> = (0..n).collect();
    let mut run: Vec<Job> = jobs.to_vec();
    let mut pick = vec![0usize; groups.len()];
    let mut tried = 0u64;
    let combinations = orders.iter().fold(1u64, |acc, o| acc.saturating_mul(o.len() as u64));
    let keep = keep && combinations.saturating_mul(jobs.iter().map(|j| j.blocks).sum()) <= KEEP_STARTS;
    let mut kept = Vec::new();
    loop {
        tried += 1;
        for ((r, list), &k) in groups.iter().zip(orders).zip(&pick) {
            order[r.clone()].copy_from_slice(&list[k]);
        }
        for (slot, &i) in run.iter_mut().zip(&order) {
            *slot = jobs[i];
        }
        let mut entered_by = Ticks::MAX;
        for (slot, &i) in run.iter_mut().zip(&order).rev() {
            slot.ready = slot.ready.min(entered_by);
            slot.entered_by = entered_by;
            entered_by = entered_by.min(late[i]);
        }
        let fin = if keep || !beside.is_empty() || from > Ticks::ZERO {
            let (fin, starts) = block_starts_beside(&run, classes, p, from, beside);
            let mut nominal = vec![Vec::new(); n];
            for (&i, s) in order.iter().zip(starts) {
                nominal[i] = s;
            }
            if keep {
                kept.push(nominal);
            }
            fin
        } else {
            finishes(&run, classes, p)
        };
        let real = realizable(&run, &fin, free);
        for (&i, &f) in order.iter().zip(&fin) {
            if f > finish[i] || best[i].is_none() && group_of[i].is_some() {
                finish[i] = f;
                best[i] = group_of[i].map(|g| orders[g][pick[g]].clone());
                attained[i] = false;
            }
            // The first realizable combination that attains the finish is the witness.
            if f == finish[i] && real && !attained[i] {
                attained[i] = true;
                best[i] = group_of[i].map(|g| orders[g][pick[g]].clone());
            }
        }
        // The next combination (an odometer over the groups' orders).
        let Some(g) = (0..pick.len()).find(|&g| pick[g] + 1 < orders[g].len()) else {
            return Worsts { finish, order: best, ties: Ties::AllOrders(tried), attained, starts: kept };
        };
        pick[g] += 1;
        pick[..g].iter_mut().for_each(|k| *k = 0);
    }
}

/// A bound on every job's finish over all launch orders: `jobs` with `ready` their
/// release plus the launch overhead, `late[i]` the latest time job `i` may enter the
/// queue (also after its stream predecessor).
///
/// A free group none of whose jobs waits for another of the group is merged into one
/// job (all its blocks, the longest time, the envelope of the demands, exact only if all
/// demands are equal, the latest `ready` of its jobs); every job of the group gets the
/// merged job's finish. Why: whatever the real order inside the group, the real block at
/// each position has at most the time and demand of the merged block there and entered
/// the queue no later, so the proof of [`crate::rta::analysis`] applies position by
/// position.
///
/// A group in which some job waits for another (its stream predecessor) cannot be merged
/// (the waiting job's blocks do not start before the other's end, which the merged job
/// does not know). It gets the **serial bound** `max(T0, E) + sum_k g_k C_k`, with `T0`
/// the latest finish of every job before it and `E` the latest release plus overhead of
/// its jobs: from that time on, no job ahead of the group runs, every job of the group
/// has entered unless it waits for one of the group (one waiting for an earlier job has
/// entered: that one ended by `T0`), and a job that waits enters when the one it waits
/// for completes;
/// jobs after the group enter after all of it (the groups are maximal). So whenever no
/// block of the group runs, the head of the queue is a job of the group with a block to
/// dispatch on an empty GPU, which takes it at once: some block of the group runs at
/// every moment until the group is done, which therefore takes at most the sum of its
/// blocks' times. The jobs after it are scheduled from its bound on, on an empty GPU.
/// With two priority queues a high job of the group may also wait once, after its entry,
/// for the low blocks running then (its `blocking`, [`crate::rta::priority`]): the
/// serial bound adds every job's `blocking`.
pub fn bound_over_orders(jobs: &[Job], late: &[Ticks], groups: &[Range<usize>], classes: &[Class], p: &Platform) -> Vec<Ticks> {
    let waits = |g: &Range<usize>| jobs[g.clone()].iter().any(|j| j.after.is_some_and(|a| g.contains(&a)));
    let entering: Vec<Job> = jobs.iter().map(|j| Job { ready: late[j.id], ..*j }).collect();
    let mut out = vec![Ticks::ZERO; jobs.len()];
    let (mut start, mut floor, mut latest) = (0, Ticks::ZERO, Ticks::ZERO);
    for g in groups.iter().filter(|g| waits(g)) {
        let before: Vec<Range<usize>> = groups.iter().filter(|r| r.start >= start && r.end <= g.start).cloned().collect();
        merged_finishes(&entering, start..g.start, &before, floor, classes, p, &mut out);
        latest = out[start..g.start].iter().copied().fold(latest, Ticks::max);
        let entry = jobs[g.clone()].iter().map(|j| j.ready).max().unwrap_or(Ticks::ZERO);
        // Each job's blocking (two queues) may hold the group up once, after its entry.
        let work: Ticks = jobs[g.clone()].iter().map(|j| j.wcet * j.blocks as u128 + j.blocking).sum();
        let serial = latest.max(entry).max(floor) + work;
        out[g.clone()].fill(serial);
        (start, floor, latest) = (g.end, serial, latest.max(serial));
    }
    let rest: Vec<Range<usize>> = groups.iter().filter(|r| r.start >= start).cloned().collect();
    merged_finishes(&entering, start..jobs.len(), &rest, floor, classes, p, &mut out);
    out
}

/// One job standing for the free group `members`: all their blocks, the longest time, the
/// envelope of their demands (a new class in `classes`, [`Class::covering`]),
/// entering at `ready`, waiting for no job in the schedule.
fn merge(members: &[Job], ready: Ticks, classes: &mut Vec<Class>) -> Job {
    classes.push(Class::covering(members, classes));
    Job {
        wcet: members.iter().map(|j| j.wcet).max().unwrap_or(Ticks::ZERO),
        blocking: members.iter().map(|j| j.blocking).max().unwrap_or(Ticks::ZERO),
        blocked_until: members.iter().map(|j| j.blocked_until).max().unwrap_or(Ticks::ZERO),
        residents: merged_residents(members),
        blocks: members.iter().map(|j| j.blocks).sum(),
        ready,
        entered_by: Ticks::MAX,
        class: classes.len() - 1,
        after: None,
        ..members[0]
    }
}

/// The [`Job::residents`] of a job merging `members`: per class the most of any member
/// (the blocks at each position are one member's, and only its residents run beside
/// them), or none, the merged job's blocking then delaying its entry, when a member
/// with a blocking has none or there are too many classes.
fn merged_residents(members: &[Job]) -> Residents {
    let blocked = members.iter().filter(|j| j.blocking > Ticks::ZERO);
    blocked
        .map(|j| (!j.residents.is_empty()).then_some(j.residents))
        .try_fold(Residents::NONE, |all, r| all.max(&r?))
        .unwrap_or(Residents::NONE)
}

/// The list schedule of `jobs[range]` (none dispatched before `floor`) with each of
/// `groups` (inside `range`) merged into one job; every job's finish into `out`.
fn merged_finishes(
    jobs: &[Job],
    range: Range<usize>,
    groups: &[Range<usize>],
    floor: Ticks,
    classes: &[Class],
    p: &Platform,
    out: &mut [Ticks],
) {
    let mut classes = classes.to_vec();
    let mut merged = Vec::new();
    let mut position = Vec::with_capacity(range.len());
    let mut i = range.start;
    let mut groups = groups.iter().peekable();
    while i < range.end {
        match groups.next_if(|g| g.start == i) {
            Some(g) => {
                let members = &jobs[g.clone()];
                merged.push(merge(members, members.iter().map(|j| j.ready).max().unwrap_or(Ticks::ZERO).max(floor), &mut classes));
                position.extend(g.clone().map(|_| merged.len() - 1));
                i = g.end;
            }
            None => {
                merged.push(Job { ready: jobs[i].ready.max(floor), ..jobs[i] });
                position.push(merged.len() - 1);
                i += 1;
            }
        }
    }
    let f = finishes(&merged, &classes, p);
    for (k, &m) in position.iter().enumerate() {
        out[range.start + k] = f[m];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rta::jobs::tests::job;

    /// Trying one group and merging the other never reports below trying both.
    #[test]
    fn the_hybrid_bound_covers_every_order() {
        use rand::{Rng, SeedableRng};
        let p = Platform::TX2;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(38);
        for _ in 0..300 {
            let classes: Vec<Class> = (0..6)
                .map(|_| {
                    let threads = [64u64, 256, 544, 512][rng.random_range(0..4)];
                    let d = p.demand(threads, rng.random_range(0..30_000), [0u64, 16, 32][rng.random_range(0..3)], "k").unwrap();
                    Class { demand: d, exact: true }
                })
                .collect();
            let jobs: Vec<Job> = (0..6)
                .map(|i| Job {
                    release: if i < 3 { Ticks::ZERO } else { Ticks::new(5) },
                    ready: if i < 3 { Ticks::ZERO } else { Ticks::new(5) },
                    wcet: Ticks::new(rng.random_range(1..10)),
                    blocks: rng.random_range(1..12),
                    class: i,
                    ..job(i, None)
                })
                .collect();
            let groups = vec![0..3, 3..6];
            let late: Vec<Ticks> = jobs.iter().map(|j| j.ready).collect();
            let windows = Windows { earliest: earliest_entries(&jobs), late: &late, fixed: false, first: &[] };
            let orders: Vec<Vec<Vec<usize>>> = groups.iter().map(|g| stream_orders(&jobs, g.clone(), &windows, 100)).collect();
            let all = every_order(&jobs, &groups, &orders, &late, true, &classes, &p, (Ticks::ZERO, &[]), false).finish;
            for tried in [vec![0], vec![1]] {
                let hybrid = hybrid(&jobs, &late, &groups, &tried, &orders, &classes, &p).finish;
                assert!(hybrid.iter().zip(&all).all(|(h, a)| h >= a), "{hybrid:?} < {all:?}");
            }
            let merged = bound_over_orders(&jobs, &late, &groups, &classes, &p);
            assert!(merged.iter().zip(&all).all(|(m, a)| m >= a));
        }
    }

    fn orders(jobs: &[Job], group: Range<usize>, late: &[Ticks], cap: usize) -> Vec<Vec<usize>> {
        stream_orders(jobs, group, &Windows { earliest: earliest_entries(jobs), late, fixed: false, first: &[] }, cap)
    }

    /// With a fixed order, jobs 0 and 1 released at 0 and entering by 0 enter in that
    /// order; in any order, either first. A job with room to enter later may go first.
    #[test]
    fn simultaneous_entries_keep_a_fixed_order() {
        let jobs = vec![job(0, None), job(1, None)];
        let zero = [Ticks::ZERO; 2];
        let with = |late: &[Ticks], fixed: bool| {
            let mut o = stream_orders(&jobs, 0..2, &Windows { earliest: earliest_entries(&jobs), late, fixed, first: &[] }, 10);
            o.sort();
            o
        };
        assert_eq!(with(&zero, true), [vec![0, 1]]);
        assert_eq!(with(&zero, false), [vec![0, 1], vec![1, 0]]);
        assert_eq!(with(&[Ticks::new(1), Ticks::ZERO], true), [vec![0, 1], vec![1, 0]]);
    }

    /// Latest entries of a round before the fixpoint's last may fit no order (job 1
    /// released at 5 but to enter by 1): every order that keeps the streams is tried.
    #[test]
    fn no_order_fitting_the_windows_tries_them_all() {
        let jobs = vec![job(0, None), Job { release: Ticks::new(5), ..job(1, None) }];
        assert_eq!(orders(&jobs, 0..2, &[Ticks::ZERO, Ticks::new(1)], 10).len(), 2);
    }

    /// A stream successor enters after its predecessor has completed, so after its entry:
    /// jobs 0 and 2 released at 0 entering by 0, job 1 (after job 0) by 5. Job 1 cannot
    /// enter before job 2 (it enters after 0, job 2 by 0): of the orders that keep the
    /// stream, 0 2 1 and 2 0 1.
    #[test]
    fn a_stream_successor_enters_after_its_predecessor() {
        let jobs = vec![job(0, None), job(1, Some(0)), job(2, None)];
        assert_eq!(earliest_entries(&jobs), [(0, false), (0, true), (0, false)].map(|(t, s)| (Ticks::new(t), s)));
        let mut found = orders(&jobs, 0..3, &[0, 5, 0].map(Ticks::new), 100);
        found.sort();
        assert_eq!(found, [vec![0, 2, 1], vec![2, 0, 1]]);
    }

    #[test]
    fn orders_keep_each_stream_in_order() {
        let free: Vec<Job> = (0..3).map(|i| job(i, None)).collect();
        let late = [Ticks::new(10); 3];
        assert_eq!(orders(&free, 0..3, &late, 100).len(), 6);
        // Job 2 follows job 0 in its stream: 3 of the 6 orders.
        let linked = vec![job(0, None), job(1, None), job(2, Some(0))];
        let linked_orders = orders(&linked, 0..3, &late, 100);
        assert_eq!(linked_orders.len(), 3);
        assert!(linked_orders.iter().all(|o| o.iter().position(|&i| i == 0) < o.iter().position(|&i| i == 2)));
        assert_eq!(orders(&free, 0..3, &late, 4).len(), 4);
    }

    /// Entry windows [release, late]: A [0, 5], B [4, 9], C [8, 13]. C cannot enter
    /// before A (C is released after A's latest entry), B may pass either: of the 6
    /// orders, A B C, A C B and B A C can happen.
    #[test]
    fn orders_fit_the_entry_windows() {
        let jobs: Vec<Job> = (0..3).map(|i| Job { release: Ticks::new(4 * i as u128), ..job(i, None) }).collect();
        let late = [5, 9, 13].map(Ticks::new);
        let mut found = orders(&jobs, 0..3, &late, 100);
        found.sort();
        assert_eq!(found, [vec![0, 1, 2], vec![0, 2, 1], vec![1, 0, 2]]);
    }

    /// 24 jobs released at 0, 1, ..., 23, each entering within 1 of its release: 75,025
    /// orders fit the windows (each job swaps at most with a neighbour), of which the
    /// first 40,321 are listed. Branches that cannot complete are cut at once (without
    /// the cut this takes about 10^9 steps).
    #[test]
    fn orders_stop_where_a_window_has_closed() {
        let jobs: Vec<Job> = (0..24).map(|i| Job { release: Ticks::new(i as u128), ..job(i, None) }).collect();
        let late: Vec<Ticks> = (0..24).map(|i| Ticks::new(i + 1)).collect();
        assert_eq!(orders(&jobs, 0..24, &late, 40_321).len(), 40_321);
        assert_eq!(orders(&jobs[..10], 0..10, &late, 1000).len(), 89);
    }

    /// A list schedule can happen when each job's entry (its `ready`, or its stream
    /// predecessor's finish if later) is no earlier than the one before it in the queue;
    /// at equal entries, out of the nominal order only if simultaneous entries are free.
    #[test]
    fn a_witness_needs_entries_in_queue_order() {
        let at = |id: usize, ready: u128, after: Option<usize>| Job { ready: Ticks::new(ready), ..job(id, after) };
        let f = |v: &[u128]| v.iter().map(|&t| Ticks::new(t)).collect::<Vec<_>>();
        assert!(realizable(&[at(0, 1, None), at(1, 2, None)], &f(&[3, 4]), false));
        assert!(!realizable(&[at(1, 2, None), at(0, 1, None)], &f(&[4, 5]), true));
        assert!(realizable(&[at(1, 1, None), at(0, 1, None)], &f(&[3, 4]), true));
        assert!(!realizable(&[at(1, 1, None), at(0, 1, None)], &f(&[3, 4]), false));
        // Job 2 waits for job 0 (finishing at 5) and so enters at 5, after job 1 (at 2).
        assert!(!realizable(&[at(0, 0, None), at(2, 1, Some(0)), at(1, 2, None)], &f(&[5, 6, 7]), true));
        assert!(realizable(&[at(0, 0, None), at(1, 2, None), at(2, 1, Some(0))], &f(&[5, 6, 7]), true));
    }
}
