//! Per-state bounds on the cycles still needed from a state: the pruning power of the
//! exact search and the guide of the greedy rollouts.
//!
//! Every bound is behind one small interface, [`StateBound`], with one file per
//! implementation; its doc comment carries its proof, and a property test checks it
//! against the plain DP at every visited state of random instances
//! (`tests/it/search.rs`). A new bound is one new file plus a field of [`Standard`]; the
//! map of all bounds is `docs/bounds.md`.
//!
//! * [`per_warp::PerWarp`]: the safe-horizon argument applied to each occupied position.
//! * [`queue::Queue`]: the queue bound for kernels with `sigma_L = 1` and short runs of
//!   C's (or the mirror case).
//! * [`tail::Tail`]: for kernels with a sigma of 1, the idle cycles of that unit computed
//!   exactly on small end games.
//! * [`stretch::Stretch`]: for kernels with a sigma of 1, the idle cycles of that unit
//!   paid for by the work left in the other unit's runs.
//! * [`period::Period`]: for kernels with a sigma of 1, the idle cycles of that unit
//!   counted per busy period of the other.
//! * [`clipped::Clipped`]: for kernels with a sigma of 1, the idle cycles of that unit
//!   paid for by the other unit's runs beyond their first sigma instructions, plus what
//!   jams can add ([`helpers::jam::Jam`]).
//!   With [`helpers::end_game::EndGame`] (the exact idle cycles of every state of few warps) it
//!   has a second side whose phase of few warps is solved exactly.
//! * [`last_warp::LastWarp`]: for kernels with a sigma of 1, the period bound's busy
//!   periods charged to the warp that finishes last (no separate end game with sigma 1).
//! * [`Standard`]: the minimum of the seven, used by the search and the rollouts.
//! * [`lower_bound`]: a proven lower bound (longest remaining warp, work / capacity).

pub mod clipped;
pub mod helpers;
pub mod last_warp;
pub mod per_warp;
pub mod period;
pub mod queue;
pub mod report;
pub mod sides;
pub mod stretch;
pub mod tail;

use crate::budget::Budget;
use crate::model::instance::Instance;
use crate::model::kernel::Unit;
use crate::state::Counts;

/// A proven upper bound on the remaining time of a state.
pub trait StateBound: Sync {
    /// An upper bound on the cycles that any work-conserving schedule still needs from
    /// `s` (`0` when `s` is finished). Must hold for every state reachable from the start
    /// state of the instance the bound was built for (the only states the search, the
    /// rollouts and the beams visit); [`tail::Tail`] relies on reachability.
    fn upper(&self, s: &Counts) -> u64;
}

/// The minimum of two proven upper bounds is a proven upper bound.
impl<A: StateBound, B: StateBound> StateBound for (A, B) {
    fn upper(&self, s: &Counts) -> u64 {
        self.0.upper(s).min(self.1.upper(s))
    }
}

/// The bound the search and the rollouts use: the minimum of every per-state bound,
/// one named field each. The minimum of proven upper bounds is a proven upper bound.
/// Adding a bound is a file, a field here, a line in [`standard_until`] and one in
/// [`StateBound::upper`] below (and a row in `docs/bounds.md`).
#[derive(Debug)]
pub struct Standard {
    /// The safe-horizon argument per occupied position.
    pub per_warp: per_warp::PerWarp,
    /// The queue bound (a sigma of 1, short runs of the other unit).
    pub queue: queue::Queue,
    /// The tail bound (a sigma of 1: abstract queues and exact end games).
    pub tail: tail::Tail,
    /// The stretch bound (a sigma of 1).
    pub stretch: stretch::Stretch,
    /// The period bound (a sigma of 1).
    pub period: period::Period,
    /// The clipped bound (a sigma of 1), with its split of exact end games.
    pub clipped: clipped::Clipped,
    /// The last-warp bound (a sigma of 1).
    pub last_warp: last_warp::LastWarp,
}

impl StateBound for Standard {
    fn upper(&self, s: &Counts) -> u64 {
        self.per_warp
            .upper(s)
            .min(self.queue.upper(s))
            .min(self.tail.upper(s))
            .min(self.stretch.upper(s))
            .min(self.period.upper(s))
            .min(self.clipped.upper(s))
            .min(self.last_warp.upper(s))
    }
}

/// Builds [`Standard`] for `inst`.
pub fn standard(inst: &Instance) -> Standard {
    standard_until(inst, &Budget::default())
}

/// [`standard`], with the tail bound's end games left unsolved (its closed form used)
/// and the clipped bound left out if building them would go past `deadline`: the bound
/// stays proven, only weaker.
pub fn standard_until(inst: &Instance, budget: &Budget) -> Standard {
    let tables = Tables::new(inst);
    let trans = crate::state::transitions::Transitions::new(inst);
    let tail = tail::Tail::until(&trans, &tables, budget);
    let clipped = clipped::Clipped::with_end_games_until(&trans, &tables, clipped::END_GAME_STATES, budget);
    Standard {
        per_warp: per_warp::PerWarp::new(&tables),
        queue: queue::Queue::new(&tables),
        tail,
        stretch: stretch::Stretch::new(&tables),
        period: period::Period::new(&tables),
        clipped,
        last_warp: last_warp::LastWarp::new(&tables),
    }
}

/// Per-position tables of a kernel shared by the bounds.
#[derive(Debug, Clone)]
pub struct Tables {
    /// `I`.
    pub len: usize,
    /// sigma_L.
    pub sigma_l: u32,
    /// sigma_C.
    pub sigma_c: u32,
    /// L instructions from position `p` to the end (`p = 0..=I`).
    pub suffix_l: Vec<u64>,
    /// C instructions from position `p` to the end.
    pub suffix_c: Vec<u64>,
    /// `run_l[p]`: L instructions from `p` to the end of the run of L's at `p` (0 at a C).
    pub run_l: Vec<u64>,
    /// `run_c[p]`: likewise for runs of C's.
    pub run_c: Vec<u64>,
}

impl Tables {
    /// The tables of `inst`'s kernel.
    pub fn new(inst: &Instance) -> Tables {
        Tables::of_units(inst.kernel.units(), inst.sigma_l, inst.sigma_c)
    }

    /// The tables of the kernel a transition system runs.
    pub fn new_for(t: &crate::state::transitions::Transitions) -> Tables {
        let (sigma_l, sigma_c) = t.sigmas();
        Tables::of_units(t.units(), sigma_l, sigma_c)
    }

    fn of_units(units: &[Unit], sigma_l: u32, sigma_c: u32) -> Tables {
        let len = units.len();
        let suffix = |u: Unit| {
            let mut r = vec![0u64; len + 1];
            for p in (0..len).rev() {
                r[p] = r[p + 1] + (units[p] == u) as u64;
            }
            r
        };
        let runs = |u: Unit| {
            let mut r = vec![0u64; len + 1];
            for p in (0..len).rev() {
                r[p] = if units[p] == u { 1 + r[p + 1] } else { 0 };
            }
            r.truncate(len);
            r
        };
        Tables { len, sigma_l, sigma_c, suffix_l: suffix(Unit::L), suffix_c: suffix(Unit::C), run_l: runs(Unit::L), run_c: runs(Unit::C) }
    }

    /// The tables as seen from `paced`, the unit whose idle cycles [`tail`] and
    /// [`stretch`] count, with the other unit *queued*; `None` unless `paced` has sigma 1.
    pub fn paced(&self, paced: Unit) -> Option<Paced<'_>> {
        let (sigma_paced, view) = match paced {
            Unit::L => {
                (self.sigma_l, Paced { runs: &self.run_c, paced_left: &self.suffix_l, queued_left: &self.suffix_c, sigma: self.sigma_c })
            }
            Unit::C => {
                (self.sigma_c, Paced { runs: &self.run_l, paced_left: &self.suffix_c, queued_left: &self.suffix_l, sigma: self.sigma_l })
            }
        };
        (sigma_paced == 1).then_some(view)
    }

    /// [`Tables::paced`] for L, then C, for each unit with sigma 1: the sides of the bounds
    /// that count one unit's idle cycles.
    pub fn paced_units(&self) -> impl Iterator<Item = (Unit, Paced<'_>)> {
        [Unit::L, Unit::C].into_iter().filter_map(|paced| self.paced(paced).map(|view| (paced, view)))
    }

    /// Remaining L and C instructions over all warps in `s`.
    pub fn remaining(&self, s: &Counts) -> (u64, u64) {
        s.slots()
            .iter()
            .fold((0, 0), |(l, c), &(p, n)| (l + n as u64 * self.suffix_l[p as usize], c + n as u64 * self.suffix_c[p as usize]))
    }
}

/// [`Tables`] seen from a unit with sigma 1 (see [`Tables::paced`]).
#[derive(Debug, Clone, Copy)]
pub struct Paced<'a> {
    /// Runs of the queued unit: its instructions from `p` to the end of the run (0 at a
    /// paced position).
    pub runs: &'a [u64],
    /// Paced-unit instructions from `p` to the end.
    pub paced_left: &'a [u64],
    /// Queued-unit instructions from `p` to the end.
    pub queued_left: &'a [u64],
    /// sigma of the queued unit.
    pub sigma: u32,
}

/// A proven lower bound on the cycles still needed from `s`: the warp furthest behind
/// needs one cycle per instruction it has left, and the remaining X instructions need
/// `ceil(R_X / sigma_X)` cycles.
pub fn lower_bound(tables: &Tables, s: &Counts) -> u64 {
    let (rl, rc) = tables.remaining(s);
    let longest = s.slots().first().map_or(0, |&(p, _)| (tables.len - p as usize) as u64);
    longest.max(rl.div_ceil(tables.sigma_l as u64)).max(rc.div_ceil(tables.sigma_c as u64))
}
