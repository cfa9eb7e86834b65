//! The **idle bound** of several blocks with barriers (issue 53, item 3): a proven upper
//! bound on the worst-case makespan of `B` blocks of `W` warps starting together in the
//! paper's model (latency 1, [`crate::model::blocks`]), from a small integer programme,
//! the *window-profile programme* (WPP), solved by HiGHS. It is much tighter than the
//! block horizon at full-SM sizes: `CCCCCCLCCCLLCCLCCCCC|LCCL`, sigma 1/4, 8 blocks of 8
//! warps: 504 (the block horizon: 685; the longest schedule found: 491).
//!
//! Research record, review and scripts: `docs/research/idle-bound/` (the programme is
//! `review/wppm.py` with `FIXPARK`, here row for row); how the tool uses it and its
//! figures: `docs/idle-bound.md`. The proof's steps follow.
//!
//! # Notation
//! `N = B W` warps; positions `0..I` of one warp's program (all phases); `ends` the
//! barrier positions strictly inside (a warp at position `p` in `ends` has issued all of
//! the phase before it and waits until every warp of its block is there). `lambda_1 <
//! ... < lambda_m` the L positions. A warp is in *stage* `j` when it has issued exactly
//! `j` L instructions. Under latency 1 an unfinished warp is in one of four states at
//! each cycle: finished, parked at a barrier, L-ready (set `Q`), C-ready (set `S`).
//! - For a C at `p`, `r(p)` = the C's left in its run inside the phase; `e(p) = r - 1`
//!   if the run ends at an L, else `r`.
//! - For an L at `lambda`: `g = e(lambda + 1) + 1` if a C of the same phase follows,
//!   `0` if an L follows, `1` if a barrier or the end follows; `h = g - sigma_C/sigma_L`.
//! - `E = sum_{S} e`, `Pi = E - |Q|`; `U~ = sum over L-unsaturated cycles t of (sigma_L -
//!   l_t)/sigma_L` (`l_t` the L's issued at `t`).
//! - A cycle is X-*saturated* when all `sigma_X` X units issue. A *Y cycle* is both
//!   C-unsaturated and L-unsaturated.
//!
//! # Proof
//! **Step 1 (identity).** Each cycle issues `min(sigma_L, |Q|)` L's, so counting the
//! `N I_L` L issues: `T = N I_L / sigma_L + U~`. Per cycle, `dPi_t = sum over L issues of
//! g - (C issues) + R_t`, where `R_t` is `-W` per block released into a phase starting
//! with L and `+W e(q)` per block released into a phase starting with C at `q`.
//!
//! **Step 2 (window identity).** Over any run `[p, e]` of consecutive C-saturated cycles
//! (all `sigma_C` C units issue), summing step 1: `sigma_C U~_X = Pi(p) - Pi(e + 1) +
//! sum over its L issues of h + R`, with `U~_X` the run's part of `U~`.
//!
//! **Step 3 (a window's value).** A *window* is a maximal C-saturated run holding an
//! L-unsaturated cycle; it ends at its last L-unsaturated cycle, or at the run's end if
//! the next cycle is a Y cycle (then `tau = 1`). It is *big* when more than `sigma_C`
//! warps are active (ready) in it, else *small*.
//! 1. `-Pi(e + 1) <= sigma_C + sigma_L - 1` after cancelling releases (`Q(e + 1)` is at
//!    most `sigma_L - 1` warps staying at an L, at most `sigma_C` leaving `S`, and
//!    releases into L, which cancel against `R`); `<= sigma_L - 1` when `tau = 1`.
//! 2. If the window does not start the schedule, cycle `p - 1` was C-unsaturated, so at
//!    most `sigma_C - 1 + sigma_L` warps are in `S` at `p` beside those released at
//!    `p - 1` into phases starting with C (`rho`), each holding at most `e_max(stage)`.
//! 3. A warp in `Q` at `p` stays in `Q` until it issues, and every L-ready warp issues in
//!    an L-unsaturated cycle: it issues at least one L inside the window.
//! 4. Writing `Pi(p) - |Q(p)| + sum h` warp by warp, with the units drained in the window
//!    (stock) in place of `E(p)`: the value is the stock drained minus the new units that
//!    survive the window (carry), plus `-1 + sum h` over the consecutive L's issued in
//!    the window by each warp in `Q` at `p` (or released into L in it: its `-1` comes from
//!    `R`), plus `sum h` for each C-ready warp at `p`, plus the slack of item 1. Each unit
//!    of a C run is counted at most once over the schedule; a warp released into C gets
//!    its units and its `h` run in a *global term*, `N sum_b (e(b) + KS(next L after b))`
//!    over the barriers `b` whose phase starts with C (`KS(j)` = the largest sum of
//!    consecutive `h` from `L_j`, at least 0). A window whose value row is negative (all
//!    of its value from releases into C) is left out of the slots: its part is in the
//!    global term, and its event stays in step 4's budget.
//! 5. Parking: a block with warps parked at barrier `b` has all its warps in `[b0, b]`
//!    (`b0` the barrier before, or 0) and at least one of them ready at a position in
//!    `[b0, b)`, so the warps parked at the barriers of stage `j` are at most `W - 1`
//!    times the ready warps at positions before them in their phases (review's R1), and
//!    at most `(W - 1) B`. The union over the barriers of one stage may be counted
//!    together: blocks parked at different barriers hold disjoint sets of warps.
//!
//! **Step 4 (minimum-position budget).** Let `m` be the lowest position of an unfinished
//! warp. A Y cycle and an X cycle of a small window issue to every ready warp, so each
//! raises `m`. A big window with `tau = 0` raises it too, at a later event of its own:
//! with `c = m(e)` at its last cycle `e`, if `c` is an L position every L-ready warp
//! issues at `e` (an L-unsaturated cycle); if a C position, the first C-unsaturated cycle
//! `u` after the run is not a Y cycle (`tau = 0`), so it is L-saturated and
//! C-unsaturated: every C-ready warp issues at `u`, and `m(u + 1) > c`. (The last X cycle
//! itself need not raise `m`: `CL`, one block of 2 warps, sigma 1/1.) Each event raises
//! `m` strictly and `m` only grows, so the events are at most the positions; with
//! `sigma_L = 1` they all sit at C positions (`Q` is empty at each), so
//! `Y + smallX + #big(tau = 0) <= I_C` (`I` when `sigma_L >= 2`). The initial window
//! (slot 0) is counted the same way.
//!
//! **The programme.** `K = budget + 1` time-ordered slots (slot 0 the initial window)
//! with, per slot, the warps per stage in `S`, in `Q`, parked, finished; the group moves
//! (how many L's each group issues in the window); stock, drained stock and carry per
//! stage; binaries "big window" (`w`) and `tau`. Rows: population `N`; the `S` cap of
//! item 2; parking (item 5); monotone progress between slots (every `Q` warp moves on);
//! the stock recursion; the window value of item 4 for big windows. Objective:
//! `sum X_k - #(big windows with tau = 0)`. Every real schedule maps to a feasible
//! point: its big windows (each with `tau = 1` followed by its own Y cycle, so at most
//! `Y + #big(tau = 0) <= budget` of them) fill the first slots in time order, "all
//! finished" the rest; the rows between slots only relate consecutive big windows, so
//! leaving a window out (Gap B) keeps them true. Every L-unsaturated cycle is a Y cycle
//! or in a window, and adds at most 1 to `U~`, so
//! `U~ <= sum over big windows of (U~_X - 1 + tau) + #big(tau = 0) + smallX + Y`; the
//! sum is at most `OPT + global / sigma_C` and the rest at most the budget. With `OPT`
//! the optimum, **`T <= floor(N I_L / sigma_L + OPT + budget + global / sigma_C)`**.
//! HiGHS's *dual bound* (gap 0) is used for `OPT`, never its primal value, with an
//! outward tolerance before the floor (review's R2); if HiGHS stops early its dual
//! bound still holds.
//!
//! A cold review (`docs/research/idle-bound/REVIEW.md`) checked each step and mapped
//! 140,000 real schedules onto the programme's rows (60,000 with the corrected parking
//! row, none rejected); a second review checked this port row by row against
//! `review/wppm.py` (identical values on 232 instances); the property test
//! `tests/it/blocks.rs::the_idle_bound_holds` compares it with an independent brute
//! force.

use crate::model::blocks::Blocks;
use crate::model::kernel::Unit;

/// The largest programme the idle bound builds (columns); larger ones are not tried.
pub const MAX_COLUMNS: usize = 60_000;

/// One warp's program as the idle bound sees it (positions over all phases). (Without
/// the `ilp` feature there is no programme to build, so most fields go unread.)
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "ilp"), allow(dead_code))]
pub struct Shape {
    ins: Vec<Unit>,
    /// Barrier positions strictly inside the program, ascending.
    ends: Vec<usize>,
    /// L positions `lambda_1 < ... < lambda_m`.
    lam: Vec<usize>,
    /// `e(p)` for C positions (0 elsewhere).
    e: Vec<f64>,
    /// `h` per L index.
    h: Vec<f64>,
    /// `KS(j)`: the largest sum of consecutive `h` from `L_j` on, at least 0.
    ks: Vec<f64>,
    n: f64,
    w: f64,
    b: f64,
    sl: f64,
    sc: f64,
}

#[cfg_attr(not(feature = "ilp"), allow(dead_code))]
impl Shape {
    /// The quantities of the proof for `blocks` (any latency is ignored: the bound is of
    /// the latency-1 model).
    pub fn of(blocks: &Blocks) -> Shape {
        let ins = blocks.units();
        let i = ins.len();
        let mut ends: Vec<usize> = blocks.program.phase_ends().into_iter().filter(|&e| e > 0 && e < i).collect();
        ends.dedup();
        let is_end = |q: usize| ends.binary_search(&q).is_ok();
        let mut e = vec![0.0; i];
        for p in (0..i).filter(|&p| ins[p] == Unit::C) {
            let (mut q, mut r) = (p, 0.0);
            while q < i && ins[q] == Unit::C {
                r += 1.0;
                q += 1;
                if is_end(q) {
                    break;
                }
            }
            e[p] = if q < i && !is_end(q) && ins[q] == Unit::L { r - 1.0 } else { r };
        }
        let (sl, sc) = (blocks.sigma(Unit::L) as f64, blocks.sigma(Unit::C) as f64);
        let lam: Vec<usize> = (0..i).filter(|&p| ins[p] == Unit::L).collect();
        let g = |p: usize| match p + 1 {
            q if q >= i || is_end(q) => 1.0,
            q if ins[q] == Unit::L => 0.0,
            q => e[q] + 1.0,
        };
        let h: Vec<f64> = lam.iter().map(|&p| g(p) - sc / sl).collect();
        let ks = (0..h.len())
            .map(|j| h[j..].iter().scan(0.0, |s, x| Some(*s + x).inspect(|v| *s = *v)).fold(0.0f64, f64::max))
            .collect();
        let (w, b) = (blocks.warps_per_block() as f64, blocks.blocks as f64);
        Shape { ins, ends, lam, e, h, ks, n: w * b, w, b, sl, sc }
    }

    fn len(&self) -> usize {
        self.ins.len()
    }

    fn m(&self) -> usize {
        self.lam.len()
    }

    fn is_end(&self, q: usize) -> bool {
        self.ends.binary_search(&q).is_ok()
    }

    /// Positions of stage `j` (after `L_j`, up to and with `L_{j+1}`'s position excluded).
    fn stage_range(&self, j: usize) -> (usize, usize) {
        let lo = if j >= 1 { self.lam[j - 1] + 1 } else { 0 };
        let hi = if j < self.m() { self.lam[j] } else { self.len() };
        (lo, hi)
    }

    /// The stage of a warp at position `p` (L's before it).
    fn stage_of(&self, p: usize) -> usize {
        self.lam.partition_point(|&l| l < p)
    }

    /// `KS` of the first L at or after `p` (0 if none).
    fn ks_from(&self, p: usize) -> f64 {
        self.ks.get(self.stage_of(p)).copied().unwrap_or(0.0)
    }

    /// `sum h` of `L_{a+1} ..= L_b`.
    fn hsum(&self, a: usize, b: usize) -> f64 {
        self.h[a..b].iter().sum()
    }

    /// The minimum-position budget of step 4: `I_C` with `sigma_L = 1`, else `I`.
    fn budget(&self) -> usize {
        if self.sl == 1.0 {
            self.ins.iter().filter(|&&u| u == Unit::C).count()
        } else {
            self.len()
        }
    }

    /// The global term of step 3, item 4: `N sum_b (e(b) + KS(next L))` over the barriers
    /// whose phase starts with C.
    fn global(&self) -> f64 {
        self.ends.iter().filter(|&&b| self.ins[b] == Unit::C).map(|&b| self.n * (self.e[b] + self.ks_from(b))).sum()
    }

    /// The programme's columns, estimated from its shape (to refuse huge ones cheaply).
    pub fn columns(&self) -> usize {
        let m = self.m() + 1;
        (self.budget() + 1).saturating_mul(3 * m * m + 12 * m + 8)
    }

    /// The bound from an upper bound `opt` on the programme's optimum (outward rounding).
    fn bound_from(&self, opt: f64) -> u64 {
        let il = self.lam.len() as f64;
        let x = self.n * il / self.sl + opt + self.budget() as f64 + self.global() / self.sc;
        (x + 1e-3 + 1e-6 * x.abs()).floor().max(0.0) as u64
    }
}

#[cfg(feature = "ilp")]
pub use programme::idle_bound;

#[cfg(feature = "ilp")]
mod programme {
    use super::{Shape, MAX_COLUMNS};
    use crate::model::blocks::Blocks;
    use crate::model::kernel::Unit;
    use crate::budget::StopFlag;
    use highs::{Col, HighsModelStatus as S, RowProblem, Sense};
    use std::collections::HashMap;
    use std::time::Duration;

    /// The idle bound of `blocks` (module doc): a proven upper bound on the worst-case
    /// makespan of the latency-1 model, or `None` when the programme is larger than
    /// [`MAX_COLUMNS`] or HiGHS gives no finite dual bound within `time_limit`. HiGHS's
    /// branch and bound stops early when one of `stops` is set (through its MIP
    /// interrupt callback; `None` if one is set before HiGHS starts). Only the dual bound
    /// is read, so a stopped or interrupted solve still gives a sound (looser) bound.
    pub fn idle_bound(blocks: &Blocks, time_limit: Option<Duration>, stops: &[StopFlag]) -> Option<u64> {
        let deadline = time_limit.map(|t| std::time::Instant::now() + t);
        let shape = Shape::of(blocks);
        if shape.columns() > MAX_COLUMNS || stops.iter().any(StopFlag::is_set) {
            return None;
        }
        Wpp::build(&shape).solve(deadline, stops).map(|opt| shape.bound_from(opt))
    }

    /// A column of the programme (names as in `review/wppm.py`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    enum Key {
        /// Warps in stage `j` at the start (window 0).
        U(usize),
        /// The X cycles of slot `k`.
        X(usize),
        Pi0,
        Tau(usize),
        Big(usize),
        Cy0(usize),
        /// Slot `k`, stage `j`: C-ready, L-ready, parked.
        S(usize, usize),
        Q(usize, usize),
        Z(usize, usize),
        Fin(usize),
        /// Moves in slot `k` from stage `j` to `j2` of C-ready, L-ready, released warps.
        Sx(usize, usize, usize),
        Qx(usize, usize, usize),
        Rx(usize, usize, usize),
        Rho(usize),
        St(usize, usize),
        Pi(usize, usize),
        Cy(usize, usize),
        Y(usize),
    }

    struct Wpp<'a> {
        shape: &'a Shape,
        pb: RowProblem,
        cols: HashMap<Key, Col>,
        /// Stages holding a barrier, with its positions.
        bar: Vec<(usize, Vec<usize>)>,
        k: usize,
        /// The value row's big-M and the cap on a slot's X cycles, the same in every slot.
        big_m: f64,
        mx: f64,
    }

    type Terms = Vec<(Key, f64)>;

    impl<'a> Wpp<'a> {
        fn col(&mut self, key: Key, cost: f64, lo: f64, hi: f64, integer: bool) {
            let c = self.pb.add_column_with_integrality(cost, lo..=hi, integer);
            self.cols.insert(key, c);
        }

        fn has(&self, key: Key) -> bool {
            self.cols.contains_key(&key)
        }

        /// A row `lo <= sum c x <= hi` (terms of one column merged).
        fn row(&mut self, terms: &[(Key, f64)], lo: f64, hi: f64) {
            let mut merged: Vec<(Col, f64)> = Vec::with_capacity(terms.len());
            for &(k, c) in terms {
                let col = self.cols[&k];
                match merged.iter_mut().find(|(x, _)| *x == col) {
                    Some(m) => m.1 += c,
                    None => merged.push((col, c)),
                }
            }
            self.pb.add_row(lo..=hi, merged);
        }

        fn bar_of(&self, j: usize) -> Option<&Vec<usize>> {
            self.bar.iter().find(|(s, _)| *s == j).map(|(_, b)| b)
        }

        /// Warps of slot `k` in stage `t` or later (any state), finished included.
        fn at_least(&self, k: usize, t: usize) -> Terms {
            let m = self.shape.m();
            let mut c = Vec::new();
            for j in t..=m {
                c.push((Key::S(k, j), 1.0));
                if j < m {
                    c.push((Key::Q(k, j), 1.0));
                }
                if self.bar_of(j).is_some() {
                    c.push((Key::Z(k, j), 1.0));
                }
            }
            c.push((Key::Fin(k), 1.0));
            c
        }

        /// The moves of slot `k` from a stage before `t` to `t` or later.
        fn crossing(&self, k: usize, t: usize, coef: f64) -> Terms {
            let m = self.shape.m();
            let mut c = Vec::new();
            for j0 in 0..t {
                for j2 in t..=m {
                    for key in [Key::Qx(k, j0, j2), Key::Sx(k, j0, j2), Key::Rx(k, j0, j2)] {
                        if self.has(key) {
                            c.push((key, coef));
                        }
                    }
                }
            }
            c
        }

        fn build(shape: &'a Shape) -> Wpp<'a> {
            let (m, i) = (shape.m(), shape.len());
            let bar = (0..=m)
                .filter_map(|j| {
                    let (lo, hi) = shape.stage_range(j);
                    let bs: Vec<usize> = shape.ends.iter().copied().filter(|&b| lo <= b && b <= hi && b < i).collect();
                    (!bs.is_empty()).then_some((j, bs))
                })
                .collect();
            let mut p = Wpp { shape, pb: RowProblem::default(), cols: HashMap::new(), bar, k: shape.budget() + 1, big_m: 0.0, mx: 0.0 };
            (p.big_m, p.mx) = p.value_constants();
            p.columns();
            p.window_zero();
            for k in 1..p.k {
                p.slot(k);
            }
            p
        }

        fn columns(&mut self) {
            let s = self.shape;
            let (m, n, inf) = (s.m(), s.n, f64::INFINITY);
            let rho_allowed = s.ends.iter().any(|&b| s.ins[b] == Unit::C);
            for j in 0..=m {
                self.col(Key::U(j), 0.0, 0.0, n, true);
            }
            self.col(Key::X(0), 1.0, 0.0, inf, false);
            self.col(Key::Pi0, 0.0, 0.0, inf, false);
            self.col(Key::Tau(0), 1.0, 0.0, 1.0, true);
            self.col(Key::Big(0), -1.0, 0.0, 1.0, true);
            for j in 0..=m {
                self.col(Key::Cy0(j), 0.0, 0.0, inf, false);
            }
            for k in 1..self.k {
                for j in 0..=m {
                    let (lo, hi) = s.stage_range(j);
                    let has_c = (lo..hi).any(|x| s.ins[x] == Unit::C);
                    self.col(Key::S(k, j), 0.0, 0.0, if has_c { n } else { 0.0 }, true);
                }
                for j in 0..m {
                    self.col(Key::Q(k, j), 0.0, 0.0, n, true);
                }
                for j in self.bar.iter().map(|b| b.0).collect::<Vec<_>>() {
                    self.col(Key::Z(k, j), 0.0, 0.0, n, true);
                }
                self.col(Key::Fin(k), 0.0, 0.0, n, true);
                for j in 0..=m {
                    for j2 in j..=m {
                        self.col(Key::Sx(k, j, j2), 0.0, 0.0, n, true);
                    }
                }
                for j in 0..m {
                    let rel_l = self.bar_of(j).is_some_and(|bs| bs.iter().any(|&b| s.ins[b] == Unit::L));
                    for j2 in j + 1..=m {
                        self.col(Key::Qx(k, j, j2), 0.0, 0.0, n, true);
                        if rel_l {
                            self.col(Key::Rx(k, j, j2), 0.0, 0.0, n, true);
                        }
                    }
                }
                if rho_allowed {
                    self.col(Key::Rho(k), 0.0, 0.0, n, true);
                }
                for j in 0..=m {
                    self.col(Key::St(k, j), 0.0, 0.0, inf, false);
                    self.col(Key::Pi(k, j), 0.0, 0.0, inf, false);
                    self.col(Key::Cy(k, j), 0.0, 0.0, inf, false);
                }
                self.col(Key::X(k), 1.0, 0.0, inf, false);
                self.col(Key::Y(k), 0.0, 0.0, 1.0, true);
                self.col(Key::Big(k), -1.0, 0.0, 1.0, true);
                self.col(Key::Tau(k), 1.0, 0.0, 1.0, true);
            }
        }

        /// `e_max(j)`: the most units of a C-ready warp in stage `j`.
        fn emax(&self, j: usize) -> f64 {
            let (lo, hi) = self.shape.stage_range(j);
            (lo..hi).filter(|&x| self.shape.ins[x] == Unit::C).map(|x| self.shape.e[x]).fold(0.0, f64::max)
        }

        /// `e_mass(j)`: the units a warp gets on entering stage `j`.
        fn emass(&self, j: usize) -> f64 {
            let s = self.shape;
            let first = s.stage_range(j).0;
            let starts_c = first < s.len() && s.ins[first] == Unit::C && (j == 0 || !s.is_end(first));
            if starts_c {
                s.e[first]
            } else {
                0.0
            }
        }

        fn slack(&self) -> f64 {
            self.shape.sc + self.shape.sl - 1.0
        }

        fn window_zero(&mut self) {
            let s = self.shape;
            let (m, n, inf) = (s.m(), s.n, f64::INFINITY);
            let us: Terms = (0..=m).map(|j| (Key::U(j), 1.0)).collect();
            self.row(&us, n, n);
            let e0 = if s.ins[0] == Unit::C { s.e[0] } else { 0.0 };
            if s.ins[0] == Unit::C && n >= s.sc {
                let mut v = vec![(Key::X(0), s.sc), (Key::Pi0, -1.0), (Key::Tau(0), s.sc)];
                v.extend((0..=m).map(|j| (Key::U(j), -s.hsum(0, j))));
                v.extend((0..=m).map(|j| (Key::Cy0(j), 1.0)));
                self.row(&v, -inf, self.slack());
                self.row(&[(Key::Tau(0), 1.0), (Key::Big(0), -1.0)], -inf, 0.0);
                let best = (0..=m).map(|j| s.hsum(0, j)).fold(0.0, f64::max);
                let mx0 = (n * e0 + n * best + self.slack()) / s.sc + 1.0;
                self.row(&[(Key::X(0), 1.0), (Key::Big(0), -mx0)], -inf, 0.0);
                for j in 1..=m {
                    let mut c = vec![(Key::Cy0(j), 1.0)];
                    c.extend((j..=m).map(|j2| (Key::U(j2), -self.emass(j))));
                    self.row(&c, -inf, 0.0);
                }
                self.row(&[(Key::Cy0(0), 1.0)], 0.0, 0.0);
                self.row(&[(Key::Pi0, 1.0)], 0.0, n * e0);
            } else {
                for key in [Key::X(0), Key::Pi0, Key::Tau(0), Key::Big(0)] {
                    self.row(&[(key, 1.0)], 0.0, 0.0);
                }
                self.row(&[(Key::U(0), 1.0)], n, n);
                for j in 0..=m {
                    self.row(&[(Key::Cy0(j), 1.0)], 0.0, 0.0);
                }
            }
        }

        fn slot(&mut self, k: usize) {
            let s = self.shape;
            let (m, n, inf) = (s.m(), s.n, f64::INFINITY);
            let rho_allowed = self.has(Key::Rho(k));
            // Population and the S cap (step 3, item 2).
            self.row(&self.at_least(k, 0), n, n);
            let mut cap: Terms = (0..=m).map(|j| (Key::S(k, j), 1.0)).collect();
            if rho_allowed {
                cap.push((Key::Rho(k), -1.0));
            }
            self.row(&cap, -inf, s.sc - 1.0 + s.sl);
            for j in 0..=m {
                let mut c: Terms = (j..=m).map(|j2| (Key::Sx(k, j, j2), 1.0)).collect();
                c.push((Key::S(k, j), -1.0));
                self.row(&c, 0.0, 0.0);
            }
            for j in 0..m {
                let mut c: Terms = (j + 1..=m).map(|j2| (Key::Qx(k, j, j2), 1.0)).collect();
                c.push((Key::Q(k, j), -1.0));
                self.row(&c, 0.0, 0.0);
            }
            self.parking(k);
            // Progress from the slot before.
            for t in 1..=m {
                let mut c = self.at_least(k, t);
                if k == 1 {
                    c.extend((t..=m).map(|j| (Key::U(j), -1.0)));
                } else {
                    c.extend(self.at_least(k - 1, t).into_iter().map(|(key, v)| (key, -v)));
                    c.extend(self.crossing(k - 1, t, -1.0));
                }
                self.row(&c, 0.0, inf);
            }
            if k >= 2 {
                self.row(&[(Key::Fin(k), 1.0), (Key::Fin(k - 1), -1.0)], 0.0, inf);
            }
            self.stock(k);
            self.value(k);
        }

        /// Step 3, item 5 (with the review's R1).
        fn parking(&mut self, k: usize) {
            let s = self.shape;
            let (n_w, inf) = (s.w, f64::INFINITY);
            for (j, bs) in self.bar.clone() {
                if j < s.m() && self.has(Key::Rx(k, j, j + 1)) {
                    let mut c: Terms = (j + 1..=s.m()).map(|j2| (Key::Rx(k, j, j2), 1.0)).collect();
                    c.push((Key::Z(k, j), -1.0));
                    self.row(&c, -inf, 0.0);
                }
                let mut act: Vec<Key> = Vec::new();
                for &b in &bs {
                    let b0 = s.ends.iter().copied().filter(|&e| e < b).max().unwrap_or(0);
                    for x in b0..b {
                        let key = match s.ins[x] {
                            Unit::C => Key::S(k, s.stage_of(x)),
                            Unit::L => Key::Q(k, s.stage_of(x)),
                        };
                        if !act.contains(&key) {
                            act.push(key);
                        }
                    }
                }
                let mut c = vec![(Key::Z(k, j), 1.0)];
                c.extend(act.into_iter().map(|key| (key, -(n_w - 1.0))));
                self.row(&c, -inf, 0.0);
                self.row(&[(Key::Z(k, j), 1.0)], 0.0, (n_w - 1.0) * s.b);
            }
        }

        /// The stock recursion and the carry (step 3, item 4).
        fn stock(&mut self, k: usize) {
            let s = self.shape;
            let (m, inf) = (s.m(), f64::INFINITY);
            let e0 = if s.ins[0] == Unit::C { s.e[0] } else { 0.0 };
            for j in 0..=m {
                let em = self.emass(j);
                self.row(&[(Key::St(k, j), 1.0), (Key::S(k, j), -self.emax(j))], -inf, 0.0);
                self.row(&[(Key::Pi(k, j), 1.0), (Key::St(k, j), -1.0)], -inf, 0.0);
                if k == 1 && j == 0 {
                    self.row(&[(Key::St(1, 0), 1.0), (Key::Pi0, 1.0)], -inf, s.n * e0);
                } else if k == 1 {
                    let mut c = vec![(Key::St(1, j), 1.0), (Key::Cy0(j), -1.0)];
                    c.extend(self.at_least(1, j).into_iter().map(|(key, v)| (key, -em * v)));
                    c.extend((j..=m).map(|j2| (Key::U(j2), em)));
                    self.row(&c, -inf, 0.0);
                } else {
                    let mut c = vec![(Key::St(k, j), 1.0), (Key::St(k - 1, j), -1.0), (Key::Pi(k - 1, j), 1.0), (Key::Cy(k - 1, j), -1.0)];
                    if j >= 1 {
                        c.extend(self.at_least(k, j).into_iter().map(|(key, v)| (key, -em * v)));
                        c.extend(self.at_least(k - 1, j).into_iter().map(|(key, v)| (key, em * v)));
                        c.extend(self.crossing(k - 1, j, em));
                    }
                    self.row(&c, -inf, 0.0);
                }
                let mut c = vec![(Key::Cy(k, j), 1.0)];
                c.extend(self.crossing(k, j, -em));
                self.row(&c, -inf, 0.0);
            }
        }

        /// The value row's big-M and the cap on a slot's X cycles (`Mbig`, `MX` of
        /// `review/wppm.py`), from the largest `e_max` and the extreme `h` sums.
        fn value_constants(&self) -> (f64, f64) {
            let s = self.shape;
            let (m, n) = (s.m(), s.n);
            let emax = (0..=m).map(|j| self.emax(j)).fold(0.0, f64::max);
            let hs: Vec<f64> = (0..=m).flat_map(|a| (a..=m).map(move |b| (a, b))).map(|(a, b)| s.hsum(a, b)).collect();
            let (hmin, hmax) = (hs.iter().copied().fold(f64::INFINITY, f64::min), hs.iter().copied().fold(f64::NEG_INFINITY, f64::max));
            let big_m = n * (emax + hmin.abs().max(hmax) + 2.0) + self.slack() + 1.0;
            (big_m, (n * (emax + hmax.max(0.0)) + self.slack()) / s.sc + 1.0)
        }

        /// The window's value (step 3) and its binaries.
        fn value(&mut self, k: usize) {
            let s = self.shape;
            let (m, inf, big_m, mx) = (s.m(), f64::INFINITY, self.big_m, self.mx);
            let mut v = vec![(Key::X(k), s.sc)];
            for j in 0..=m {
                v.push((Key::Pi(k, j), -1.0));
                v.push((Key::Cy(k, j), 1.0));
                v.extend((j + 1..=m).map(|j2| (Key::Sx(k, j, j2), -s.hsum(j, j2))));
            }
            for j in 0..m {
                for j2 in j + 1..=m {
                    let c = -1.0 + s.hsum(j, j2);
                    v.push((Key::Qx(k, j, j2), -c));
                    if self.has(Key::Rx(k, j, j2)) {
                        v.push((Key::Rx(k, j, j2), -c));
                    }
                }
            }
            v.push((Key::Y(k), big_m));
            v.push((Key::Tau(k), s.sc));
            self.row(&v, -inf, self.slack() + big_m);
            self.row(&[(Key::Tau(k), 1.0), (Key::Big(k), -1.0)], -inf, 0.0);
            self.row(&[(Key::Y(k), 1.0), (Key::Big(k), -1.0)], 0.0, 0.0);
            if k >= 2 {
                self.row(&[(Key::Big(k - 1), 1.0), (Key::Big(k), -1.0)], 0.0, inf);
            }
            self.row(&[(Key::X(k), 1.0), (Key::Y(k), -mx)], -inf, 0.0);
            // A small window (at most sigma_C active warps) counts in the budget instead.
            self.row(&[(Key::X(k), 1.0), (Key::Big(k), -mx)], -inf, 0.0);
            let mut act: Terms = (0..=m).map(|j| (Key::S(k, j), 1.0)).collect();
            act.extend((0..m).map(|j| (Key::Q(k, j), 1.0)));
            for j in 0..m {
                act.extend((j + 1..=m).map(|j2| (Key::Rx(k, j, j2), 1.0)).filter(|(key, _)| self.has(*key)));
            }
            if self.has(Key::Rho(k)) {
                act.extend(self.bar.iter().map(|(j, _)| (Key::Z(k, *j), 1.0)));
                act.push((Key::Rho(k), 1.0));
            }
            act.push((Key::Big(k), -(s.sc + 1.0)));
            self.row(&act, 0.0, inf);
        }

        /// An upper bound on the optimum: HiGHS's dual bound (gap 0), or `None`. Always
        /// with presolve: without it HiGHS 1.15 proves wrong optima on this programme
        /// (8 x 8: 101.5 where a checked integer point reaches 102; `docs/idle-bound.md`).
        fn solve(self, deadline: Option<std::time::Instant>, stops: &[StopFlag]) -> Option<f64> {
            let mut model = self.pb.try_optimise(Sense::Maximise).ok()?;
            model.make_quiet();
            model.set_option("mip_rel_gap", 0.0);
            model.set_option("mip_abs_gap", 0.0);
            model.set_option("threads", 1);
            model.set_option("presolve", "on");
            if let Some(d) = deadline {
                let left = d.saturating_duration_since(std::time::Instant::now());
                if left.is_zero() {
                    return None;
                }
                model.set_option("time_limit", left.as_secs_f64().max(0.001));
            }
            if stops.iter().any(StopFlag::is_set) {
                return None;
            }
            let solved = crate::exact::highs_interrupt::solve_until(model, stops).ok()?;
            match solved.status() {
                S::Optimal | S::ReachedTimeLimit | S::ReachedIterationLimit | S::ReachedInterrupt => {}
                _ => return None,
            }
            // The dual bound is read only beside a feasible point of at most its value:
            // HiGHS leaves the value unwritten (the crate's -1) when its info is invalid.
            let dual = solved.double_info_value(c"mip_dual_bound").ok()?;
            let primal = (solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible).then(|| solved.objective_value())?;
            (dual.is_finite() && dual >= primal - 1e-9).then_some(dual)
        }
    }
}

#[cfg(all(test, feature = "ilp"))]
mod tests {
    use super::*;
    use crate::model::instance::Instance;
    use crate::model::program::Program;

    fn blocks(kernel: &str, w: i64, b: u32, sl: i64, sc: i64) -> Blocks {
        Blocks::new(Program::build(kernel, |p| Instance::new(p, w, sl, sc)).unwrap(), b)
    }

    /// The proof's quantities on `CCL|LC`, sigma 1/2, by hand: `e` = 1, 0 on the first
    /// run (it ends at an L), 1 on the last C; `g` = 1 (a barrier follows `L_1`) and 2
    /// (`L_2` enters a run of one C), so `h` = -1, 0 and `KS` = 0, 0; the budget is
    /// `I_C` = 3; no phase starts with C, so the global term is 0.
    #[test]
    fn the_quantities_of_a_small_kernel() {
        let s = Shape::of(&blocks("CCL|LC", 2, 2, 1, 2));
        assert_eq!(s.ends, vec![3]);
        assert_eq!(s.lam, vec![2, 3]);
        assert_eq!(s.e, vec![1.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(s.h, vec![-1.0, 0.0]);
        assert_eq!(s.ks, vec![0.0, 0.0]);
        assert_eq!((s.budget(), s.global()), (3, 0.0));
    }

    /// The full SM of issue 53: 8 blocks of 8 warps of a real barrier pair, sigma 1/4.
    /// The research scripts and their review give 504 (the block horizon is 685, the
    /// longest schedule found 491); so does the port, without a time limit.
    #[test]
    fn a_full_sm_of_real_barrier_phases() {
        let b = blocks("CCCCCCLCCCLLCCLCCCCC|LCCL", 8, 8, 1, 4);
        assert_eq!(b.horizon(), 685);
        assert_eq!(idle_bound(&b, None, &[]), Some(504));
    }
}
