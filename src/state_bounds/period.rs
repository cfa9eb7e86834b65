//! The period bound, for kernels where one unit has sigma 1: the idle cycles of that unit
//! counted per busy period of the other unit.

use super::sides::{PacedSide, Sides};
use super::{Paced, StateBound, Tables};
use crate::model::kernel::Unit;
use crate::state::Counts;

/// For the *paced* unit X with `sigma_X = 1` (L, C, or both, taking the smaller bound) and
/// the other unit Y (`sigma = sigma_Y`): `R_X + y` when at most `sigma` warps are left,
/// else `R_X + y + floor((J + F + Phi) / sigma)`, where
/// * `y` is the most Y's a warp has left;
/// * `val(p, p')` is, for a warp going from position `p` to `p' >= p`,
///   `[Y's left at p, if p is a Y] + sum over the runs of Y's that start in (p, p'] of
///   (length - 1) - (X's in [p, p') not followed by a Y) - (Y's left at p')`, and
///   `kappa(p)` its most over every `p'` at a Y and `p' = I` (finished, nothing left);
/// * `J = max(0, sigma + sum of kappa over the warps)` when some warp is Y-ready, else 0;
/// * `F` sums, over the warps, `F(p)`: the most, over *chains*
///   `p <= p1 < q1 < p2 < q2 < ...` (each `p_i` at an X, each `q_i` at a Y or `I`), of
///   `sum over i of max(0, val(p_i, q_i))`;
/// * `phi(p)` counts the runs of X's at or after `p` with a position at or after `p`
///   where `kappa >= 0`, and `Phi` sums `phi` over the `sigma + 1` warps furthest behind
///   (their positions with multiplicity).
///
/// Unlike [`super::tail::Tail`] it holds from every state, reachable or not.
///
/// Proof. Take any schedule from `s`; `u(t)` counts the unfinished warps at cycle `t`,
/// `R(t)` the Y's left in the current runs of the Y-ready warps.
/// 1. `sigma_X = 1`: every cycle with an X-ready warp issues one X, so the schedule lasts
///    `R_X + N0`, `N0` the *idle* cycles (no X-ready warp). Once at most `sigma` warps are
///    left, every Y-ready warp issues each cycle, so each idle cycle issues one of the
///    `<= y` Y's of the warp that finishes last: at most `y` idle cycles there. The rest
///    are in the *big* phase (`u >= sigma + 1`), where an idle cycle has every unfinished
///    warp Y-ready and issues `sigma` Y's.
/// 2. A cycle with `R > 0` issues between 1 and `sigma` Y's; `R` grows only when a warp
///    issues the X before a run of Y's. At most `sigma` warps become X-ready per cycle.
/// 3. Split the cycles into *periods*: maximal intervals with `R > 0`. Every big-phase
///    idle cycle lies in one. Take a period with big-phase idle cycles, `b` the last, and
///    `s0` the cycle before the period (`R(s0) = 0`: every unfinished warp is X-ready and
///    one X is issued); or `s0 = 0` if `R(0) > 0` (the *initial* period). Each cycle of
///    `[s0, b]` is idle (`I` of them) or issues one X, which either enters a run of Y's
///    (`E` of them) or not (`NE`). Each busy cycle but `s0` issues at least one Y (all of
///    them in the initial period) and each idle one `sigma`. Per warp, the Y's it issues in
///    `[s0, b]` are its Y's left at `s0` plus the lengths of the runs it enters, minus its
///    Y's left at `b + 1`. So `sigma I <= 1 + sum over warps of v_w` (regular) and
///    `sigma I <= sum of v_w` (initial), with `v_w = val(p_w(s0), p_w(b + 1))` written out
///    per run. At `b` every unfinished warp is at a Y, so at `b + 1` each is at a Y `q`,
///    finished (`q = I`), or (at most `sigma` of them, step 2) just X-ready after the last
///    Y `q` of its run, where `v_w = val(p_w(s0), q) + 1`. Hence
///    `sigma I <= 1 + sigma + sum of val(p_w(s0), q_w)` for a regular period and
///    `sigma I <= J` for the initial one.
/// 4. Between two periods with big-phase idle cycles a warp was at a Y: its positions at
///    the starts and ends (`q_w`) of those periods form a chain, and its starts lie in
///    different runs of X's. Write `val = val+ - val-`. A regular period has
///    `sigma I <= sum of val+ + max(0, 1 + sigma - sum of val-)`. Summed over the periods,
///    the first terms are at most `F`. In the second, if `m` warps have `val < 0`, the
///    term is at most `1 + sigma - m`, at most the number of the `sigma + 1` warps that
///    finish last with `val >= 0` (they are all unfinished in every big-phase period);
///    such a warp is in a run of X's where it has `kappa >= val >= 0`, once per run.
///    So the second terms sum to at most `Phi`, and with step 1 and the initial period:
///    `N0 <= y + floor((J + F + Phi) / sigma)`.
#[derive(Debug, Clone)]
pub struct Period {
    sides: Sides<Side>,
}

/// The tables of one paced unit X, per position `p` (`0..=I`).
#[derive(Debug, Clone)]
struct Side {
    /// X.
    paced: Unit,
    /// The tables the period argument needs.
    tables: PeriodTables,
    /// `phi(p)`.
    favourable: Vec<u64>,
}

/// The per-position tables of the period argument for one paced unit X (`0..=I`), shared
/// by the period bound and [`super::last_warp::LastWarp`].
#[derive(Debug, Clone)]
pub(super) struct PeriodTables {
    /// sigma_Y.
    pub sigma: u64,
    /// X instructions left.
    pub paced_left: Vec<u64>,
    /// Y instructions left.
    pub queued_left: Vec<u64>,
    /// Whether a warp at `p` is Y-ready.
    pub at_y: Vec<bool>,
    /// `A'(p)` ([`entered_minus_not_entering`]).
    pub a: Vec<i64>,
    /// `kappa(p)`.
    pub kappa: Vec<i64>,
    /// `F(p)`.
    pub chain: Vec<u64>,
}

impl PeriodTables {
    /// The tables of the unit `view` paces.
    pub fn new(view: Paced) -> PeriodTables {
        let runs = view.runs;
        let len = runs.len();
        let at_y: Vec<bool> = (0..=len).map(|p| p < len && runs[p] > 0).collect();
        let a = entered_minus_not_entering(runs, &at_y);
        let kappa = kappa_table(&a, runs, &at_y);
        let chain = chain_table(&a, runs, &at_y);
        let (paced_left, queued_left) = (view.paced_left.to_vec(), view.queued_left.to_vec());
        PeriodTables { sigma: view.sigma as u64, paced_left, queued_left, at_y, a, kappa, chain }
    }

    /// `R_X`, `u`, the sums of `kappa` and of `F`, and whether a warp is Y-ready, in one
    /// pass over the slots of `s` (calling `each` with every occupied position).
    pub fn sums(&self, s: &Counts, mut each: impl FnMut(usize)) -> Sums {
        let mut sums = Sums::default();
        for &(p, n) in s.slots() {
            let (p, n) = (p as usize, n as u64);
            sums.rx += n * self.paced_left[p];
            sums.u += n;
            sums.kappa += n as i64 * self.kappa[p];
            sums.chain += n * self.chain[p];
            sums.any_y |= self.at_y[p];
            each(p);
        }
        sums
    }

    /// `J`: `max(0, sigma + sum of kappa)` when some warp is Y-ready, else 0.
    pub fn initial_period(&self, sums: &Sums) -> u64 {
        if sums.any_y {
            (self.sigma as i64 + sums.kappa).max(0) as u64
        } else {
            0
        }
    }
}

impl Period {
    /// The bound for the kernel described by `tables`, for each unit with sigma 1
    /// (`u64::MAX` when neither has).
    pub fn new(tables: &Tables) -> Period {
        Period { sides: Sides::of(tables) }
    }

    /// For each paced unit X, the proof's bound on the idle cycles of X while more than
    /// sigma_Y warps are unfinished: `floor((J + F + Phi) / sigma_Y)`; `None` when at most
    /// sigma_Y warps are left. Exposed so tests can check it without the slack of `y`
    /// and `R_X`.
    pub fn big_phase_idle(&self, s: &Counts) -> Vec<(Unit, Option<u64>)> {
        self.sides.big_phase_idle(s)
    }
}

impl PacedSide for Side {
    fn new(paced: Unit, view: Paced) -> Side {
        let tables = PeriodTables::new(view);
        let favourable = favourable_runs(&tables.kappa, &tables.at_y);
        Side { paced, tables, favourable }
    }

    fn paced(&self) -> Unit {
        self.paced
    }

    /// `floor((J + F + Phi) / sigma)`, or `None` when at most `sigma` warps are left.
    fn big_phase_idle(&self, s: &Counts) -> Option<u64> {
        self.idle_from(s, &self.tables.sums(s, |_| {}))
    }
}

/// A side alone is a proven upper bound (its proof above); the bound is the least over
/// its sides ([`Sides`]).
impl StateBound for Side {
    fn upper(&self, s: &Counts) -> u64 {
        let Some(&(first, _)) = s.slots().first() else { return 0 };
        let sums = self.tables.sums(s, |_| {});
        sums.rx + self.tables.queued_left[first as usize] + self.idle_from(s, &sums).unwrap_or(0)
    }
}

impl Side {
    /// [`PacedSide::big_phase_idle`] from the sums of `s`.
    fn idle_from(&self, s: &Counts, sums: &Sums) -> Option<u64> {
        let sigma = self.tables.sigma;
        if sums.u <= sigma {
            return None;
        }
        // Phi: phi over the sigma + 1 warps furthest behind.
        let (mut phi, mut taken) = (0u64, 0u64);
        for &(p, n) in s.slots() {
            let k = (n as u64).min(sigma + 1 - taken);
            phi += k * self.favourable[p as usize];
            taken += k;
            if taken > sigma {
                break;
            }
        }
        Some((self.tables.initial_period(sums) + sums.chain + phi) / sigma)
    }
}

/// Per-state sums of [`PeriodTables`].
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Sums {
    pub rx: u64,
    pub u: u64,
    pub kappa: i64,
    pub chain: u64,
    pub any_y: bool,
}

/// `A'(p)` for `p = 0..=I`: (sum of length - 1 over the runs of Y's starting at or before
/// `p`) - (X's before `p` not followed by a Y). For an X at `p`,
/// `val(p, q) = A'(q) - (Y's left at q) - A'(p)`, and for a Y at `p` it has `Y's left at p`
/// more.
fn entered_minus_not_entering(runs: &[u64], at_y: &[bool]) -> Vec<i64> {
    let len = runs.len();
    let mut a = vec![0i64; len + 1];
    let (mut entered, mut not_entering) = (0i64, 0i64);
    for p in 0..=len {
        if at_y[p] && (p == 0 || !at_y[p - 1]) {
            entered += runs[p] as i64 - 1;
        }
        a[p] = entered - not_entering;
        if p < len && !at_y[p] && !at_y[p + 1] {
            not_entering += 1;
        }
    }
    a
}

/// `kappa(p)` for `p = 0..=I` (see [`Period`]), from `a = A'`.
fn kappa_table(a: &[i64], runs: &[u64], at_y: &[bool]) -> Vec<i64> {
    let len = runs.len();
    let left = |p: usize| if p < len { runs[p] as i64 } else { 0 };
    let mut best = a[len];
    let mut kappa = vec![0i64; len + 1];
    for p in (0..=len).rev() {
        if at_y[p] {
            best = best.max(a[p] - left(p));
        }
        kappa[p] = left(p) - a[p] + best;
    }
    kappa
}

/// `F(p)` for `p = 0..=I`: [`chains`] with no offset and no end term.
fn chain_table(a: &[i64], runs: &[u64], at_y: &[bool]) -> Vec<u64> {
    chains(a, runs, at_y, 0, true, &|_| 0).into_iter().map(|v| v as u64).collect()
}

/// For `p = 0..=I`, the most, over *chains* `p <= p1 < q1 < p2 < q2 < ... < pk < qk`
/// (each `p_i` at an X, each `q_i` at a Y, or `I` if `to_end`; `k >= 0`), of
/// `sum over i of max(0, offset + val(p_i, q_i)) + term(q_k)` (`term(p)` when `k = 0`),
/// where `term` is non-negative and never grows with its position. By a backward pass:
/// with `H(x)` the value from `x` and `T(q) = max(term(q), H(q + 1))` the value after a
/// link ending at `q`, an X at `p` has `H(p) = max(term(p), H(p + 1), max over q > p of
/// (max(0, offset + val(p, q)) + T(q)))`, and `max(0, v) + T = max(T, v + T)` splits the
/// inner maximum into two suffix maxima (`val(p, q) = A'(q) - left(q) - A'(p)`).
pub(super) fn chains(a: &[i64], runs: &[u64], at_y: &[bool], offset: i64, to_end: bool, term: &dyn Fn(usize) -> i64) -> Vec<i64> {
    let len = runs.len();
    let left = |q: usize| if q < len { runs[q] as i64 } else { 0 };
    let mut h = vec![0i64; len + 1];
    // Over the ends q > p seen so far: the most of T(q), and of A'(q) - left(q) + T(q).
    let (mut best_t, mut best_v) = (i64::MIN, i64::MIN);
    for p in (0..=len).rev() {
        // Staying put: `max(term(p), H(p + 1))`, which is also `T(p)` at an end.
        let stay = term(p).max(if p == len { 0 } else { h[p + 1] });
        let end = if p == len { to_end } else { at_y[p] };
        h[p] = if p == len || end || best_t == i64::MIN { stay } else { stay.max(best_t.max(offset - a[p] + best_v)) };
        if end {
            best_t = best_t.max(stay);
            best_v = best_v.max(a[p] - left(p) + stay);
        }
    }
    h
}

/// `phi(p)` for `p = 0..=I`.
fn favourable_runs(kappa: &[i64], at_y: &[bool]) -> Vec<u64> {
    let len = kappa.len() - 1;
    let mut favourable = vec![0u64; len + 1];
    let (mut after, mut run_max) = (0u64, i64::MIN);
    for p in (0..len).rev() {
        if at_y[p] {
            favourable[p] = after;
            continue;
        }
        if at_y[p + 1] || p + 1 == len {
            run_max = i64::MIN; // the last X of a run: a new run, seen from the right
        }
        run_max = run_max.max(kappa[p]);
        favourable[p] = after + (run_max >= 0) as u64;
        if p == 0 || at_y[p - 1] {
            after = favourable[p];
        }
    }
    favourable
}

impl StateBound for Period {
    fn upper(&self, s: &Counts) -> u64 {
        self.sides.upper(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::instance::Instance;

    fn side(kernel: &str, sigma_c: i64) -> Side {
        let inst = Instance::new(kernel, 2, 1, sigma_c).unwrap();
        Side::new(Unit::L, Tables::new(&inst).paced(Unit::L).unwrap())
    }

    #[test]
    fn tables_of_the_target_kernel() {
        // LLCCLLCLLCCL, paced L. From 0: its first L does not enter (-1), CC gives +1,
        // at the last C of CC 1 - 1 - 1 = -1; finished: 2 - 4 = -2. From 1: +1 - 1 = 0.
        // From 4: -1 + 0 - 1 = -2 at C; via 7, 8: -1 - 1 + 1 - 1 = -2. From 8: 0.
        // At a C: Y's left - 1 is reached by staying (0) or by the end of the run.
        let s = side("LLCCLLCLLCCL", 1);
        assert_eq!(s.tables.kappa, vec![-1, 0, 1, 0, -2, -1, 0, -1, 0, 1, 0, -1, 0]);
        // Runs of L's with kappa >= 0: {0, 1} (at 1) and {7, 8} (at 8); no chain gains.
        assert_eq!(s.favourable, vec![2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
        assert_eq!(s.tables.chain, vec![0; 13]);
    }

    #[test]
    fn start_values() {
        // sigma 1/1, LLCCLLCLLCCL, W = 32, all at position 0 (no C-ready warp: J = 0).
        // Paced L: R_L 224 + y 5 + (F 0 + Phi 2 + 2) / 1 = 233 (the stretch bound gives
        // 291, the worst case found is 229).
        let inst = Instance::new("LLCCLLCLLCCL", 32, 1, 1).unwrap();
        let b = Period::new(&Tables::new(&inst));
        assert_eq!(b.sides[0].upper(&Counts::start(32)), 233);
        assert_eq!(b.upper(&Counts::start(32)), 233);
        // One warp left: R_L + y.
        assert_eq!(b.upper(&Counts::from_pairs([(4, 1)])), 5 + 3);
        // Neither sigma 1: no bound.
        let inst = Instance::new("LLCCCCLCLCCL", 8, 2, 4).unwrap();
        assert_eq!(Period::new(&Tables::new(&inst)).upper(&Counts::start(8)), u64::MAX);
    }

    #[test]
    fn chains_and_sigma_4() {
        // LCCCCCLCCCCCCCLL, paced L, sigma_C = 4. kappa(0) = 4 + 6 - 1 = 9 (both runs of
        // C's, to the last C of the second); the chain 0 -> 5, 6 -> 13 gives only
        // (4 - 1) + (6 - 1) = 8, so F(0) = 9; from a C of the first run the best chain is
        // 6 -> 13: 5. Runs of L's with kappa >= 0: {0}, {6}.
        let s = side("LCCCCCLCCCCCCCLL", 4);
        assert_eq!(s.tables.kappa[0], 9);
        assert_eq!(&s.tables.chain[..8], &[9, 5, 5, 5, 5, 5, 5, 0]);
        assert_eq!(&s.favourable[..2], &[2, 1]);
        // W = 64 at the start: J = 0, F = 64 * 9, Phi = 5 * 2:
        // R_L 256 + y 12 + floor(586 / 4) = 414 (above the stretch bound's 391).
        assert_eq!(s.upper(&Counts::start(64)), 414);
        // At most sigma_C warps left: R_L + y.
        assert_eq!(s.upper(&Counts::start(4)), 16 + 12);
    }

    #[test]
    fn a_y_ready_warp_adds_the_initial_period() {
        // LCCCCL, paced L, sigma 1/1.
        let s = side("LCCCCL", 1);
        // From 0: enters CCCC (+3), at its last C: 3 - 1 = 2; finished: 3 - 1 = 2.
        assert_eq!(s.tables.kappa[0], 2);
        // From 1 (4 C's left): staying 0, last C 4 - 1 = 3, finished 4 - 1 = 3.
        assert_eq!(s.tables.kappa[1], 3);
        // Two warps at 1: J = 1 + 3 + 3 = 7, F = 0 (the final L: -1), Phi 0.
        assert_eq!(s.big_phase_idle(&Counts::from_pairs([(1, 2)])), Some(7));
        // Both at 0 (no C-ready warp): J = 0, F = 2 + 2, Phi 1 + 1.
        assert_eq!(s.big_phase_idle(&Counts::start(2)), Some(6));
    }
}
