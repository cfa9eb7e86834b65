//! The exact search against the plain DP, its witnesses against the checker, and every
//! per-state bound against the exact value at every reachable state.

use crate::common;

use common::{exact, exact_branch_and_bound, inst, instance, instances, plain_dp, KNOWN};
use gpu_makespan::exact::heuristic::beam::beam;
use gpu_makespan::exact::heuristic::{longest_rollout, priority};
use gpu_makespan::exact::search::{search, SearchLimits};
use gpu_makespan::model::bounds;
use gpu_makespan::model::checker::check;
use gpu_makespan::model::instance::Instance;
use gpu_makespan::model::kernel::Unit;
use gpu_makespan::state::sparse::Sparse;
use gpu_makespan::state::transitions::{Scratch, Transitions};
use gpu_makespan::state::Counts;
use gpu_makespan::state_bounds::helpers::jam::SCALE;
use gpu_makespan::state_bounds::{
    self, clipped::Clipped, last_warp::LastWarp, per_warp::PerWarp, period::Period, queue::Queue, stretch::Stretch, tail::Tail, StateBound,
    Tables,
};
use proptest::prelude::*;
use std::collections::HashMap;

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// search is exact, its witness passes the checker, and it lies between the proven
    /// lower bound and the safe horizon; the heuristics (rollouts, beams, priority rules)
    /// never exceed it and their schedules pass the checker.
    #[test]
    fn search_witness_and_bounds(inst in instance()) {
        let out = exact(&inst);
        let t = out.lower_bound();
        prop_assert_eq!(check(&inst, out.witness().schedule()), Ok(t));
        prop_assert!(t <= bounds::safe_horizon(&inst));
        prop_assert!(t >= bounds::lower_bound(&inst));
        let trans = Transitions::new(&inst);
        let h = longest_rollout(&trans, &state_bounds::standard(&inst), 4, 7);
        prop_assert!(h.cycles() <= t);
        prop_assert_eq!(check(&inst, &h.schedule(inst.warps, inst.len())), Ok(h.cycles()));
        for width in [1, 4, 64] {
            let b = beam(&trans, &state_bounds::standard(&inst), &Tables::new(&inst), width, 3, &|| false).expect("no stop");
            prop_assert!(b.cycles() <= t, "beam {} > exact {}", b.cycles(), t);
            prop_assert_eq!(check(&inst, &b.schedule(inst.warps, inst.len())), Ok(b.cycles()));
        }
        let mut priority_ok = Ok(());
        // Enough rollouts for four restarts (after `STALE` stale changes each), so the
        // restarts with a starved warp run too.
        priority::search(&trans, 5, 4 * priority::STALE as u64 + 20, &|| false, &mut |p| {
            if p.cycles() > t || check(&inst, &p.schedule(inst.warps, inst.len())) != Ok(p.cycles()) {
                priority_ok = Err(p.cycles());
            }
        });
        prop_assert_eq!(priority_ok, Ok(()), "priority rule schedule longer than exact {} or invalid", t);
        if inst.sigma_l == 1 && inst.sigma_c == 1 {
            prop_assert!(t <= bounds::pessimistic(&inst));
        }
    }

    /// Branch and bound (with its upper bounds) loses nothing: it equals the plain DP,
    /// and each per-state bound (and their minimum) holds at every state the plain DP
    /// visited; the per-state lower bound never exceeds the exact value.
    #[test]
    fn search_equals_plain_dp_and_bounds_hold(inst in instance()) {
        let trans = Transitions::new(&inst);
        let mut memo = HashMap::new();
        let t = plain_dp(&trans, &trans.start(), &mut memo);
        prop_assert_eq!(exact(&inst).lower_bound(), t);
        let bnb = exact_branch_and_bound(&inst);
        prop_assert_eq!(bnb.lower_bound(), t);
        prop_assert_eq!(check(&inst, bnb.witness().schedule()), Ok(t));
        let tables = Tables::new(&inst);
        let (per_warp, queue, standard) = (PerWarp::new(&tables), Queue::new(&tables), state_bounds::standard(&inst));
        let (tail, stretch, period) = (Tail::new(&trans, &tables), Stretch::new(&tables), Period::new(&tables));
        let (clipped, last) = (Clipped::new(&tables, inst.warps), LastWarp::new(&tables));
        for (s, &v) in &memo {
            prop_assert!(period.upper(s) >= v, "period bound {} < {} at {:?}", period.upper(s), v, s);
            prop_assert!(last.upper(s) >= v, "last-warp bound {} < {} at {:?}", last.upper(s), v, s);
            prop_assert!(clipped.upper(s) >= v, "clipped bound {} < {} at {:?}", clipped.upper(s), v, s);
            prop_assert!(per_warp.upper(s) >= v, "per-warp bound {} < {} at {:?}", per_warp.upper(s), v, s);
            prop_assert!(queue.upper(s) >= v, "queue bound {} < {} at {:?}", queue.upper(s), v, s);
            prop_assert!(tail.upper(s) >= v, "tail bound {} < {} at {:?}", tail.upper(s), v, s);
            prop_assert!(stretch.upper(s) >= v, "stretch bound {} < {} at {:?}", stretch.upper(s), v, s);
            prop_assert!(standard.upper(s) >= v);
            prop_assert!(state_bounds::lower_bound(&tables, s) <= v);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The tail bound where it is meant to work (a sigma of 1, larger W): it holds at every
    /// state the plain DP visits, and it applies to a good share of the instances.
    #[test]
    fn tail_bound_holds_at_every_state((inst, paced_l) in (instances(9, 14, 1, 4), any::<bool>())) {
        let (inst, trans, memo) = sigma_one_instance(inst, paced_l);
        let tail = Tail::new(&trans, &Tables::new(&inst));
        let closed = tail.clone().closed_form_only();
        let stretch = Stretch::new(&Tables::new(&inst));
        for (s, &v) in &memo {
            prop_assert!(stretch.upper(s) >= v, "stretch bound {} < {} at {:?}", stretch.upper(s), v, s);
            prop_assert!(tail.upper(s) >= v, "tail bound {} < {} at {:?} ({:?})", tail.upper(s), v, s, tail.summary());
            prop_assert!(closed.upper(s) >= v, "closed-form tail bound {} < {} at {:?}", closed.upper(s), v, s);
        }
    }
}

/// Instances where jams matter: sigma_C 2-4 and 5-14 warps (more than sigma_C, so the
/// clipped bound's big phase and the jam automaton's layers of few warps are exercised).
fn jam_prone() -> impl Strategy<Value = Instance> {
    (common::kernel(9), 5i64..=14, 2i64..=4).prop_map(|(k, w, c)| common::inst(&k, w, 1, c))
}

/// The clipped bound's core claim at every state of `LC^12` (sigma 1/4, W = 5..=9): the
/// idle cycles the jam automaton's terms pay for are real here (the bound without its
/// entry weights `M` is exceeded at W = 5).
#[test]
fn clipped_core_claim_on_a_long_run() {
    for w in 5..=9 {
        let inst = common::inst("LCCCCCCCCCCCC", w, 1, 4);
        let (inst, trans, memo) = sigma_one_instance(inst, true);
        let clipped = Clipped::new(&Tables::new(&inst), inst.warps);
        assert_eq!(bound_and_claim_hold(&inst, &trans, &memo, Unit::L, None, &|s| clipped.big_phase_idle(s)), Ok(()), "W {w}");
        // At the start: W = 5 has 12 idle cycles with more than 4 warps left.
        if w == 5 {
            assert_eq!(max_big_idle(&trans, &trans.start(), Unit::L, 4, &mut HashMap::new()), 12);
        }
    }
}

/// The same with exact end games of at most 5 and 6 warps (W = 6..=9): the side with the
/// end games holds and its core claim too, with the phase of few warps at 5 or 6 warps.
#[test]
fn clipped_end_games_on_a_long_run() {
    for (w, m) in [(6, 5), (7, 5), (8, 5), (8, 6), (9, 6)] {
        let inst = common::inst("LCCCCCCCCCCCC", w, 1, 4);
        let (inst, trans, memo) = sigma_one_instance(inst, true);
        let cap = state_bounds::helpers::end_game::states_of_at_most(inst.len() as u64, m).unwrap() as usize;
        let clipped = Clipped::with_end_games_until(&trans, &Tables::new(&inst), cap, &gpu_makespan::budget::Budget::default());
        assert_eq!(clipped.floors(), vec![(Unit::L, 4, false), (Unit::L, m, true)]);
        let mut idle = HashMap::new();
        for (s, &v) in &memo {
            let claim = clipped.big_phase_idle(s)[1].1.unwrap_or(0);
            let most = max_big_idle(&trans, s, Unit::L, m, &mut idle);
            assert!(most <= claim, "W {w} m {m}: idle {most} > {claim} at {s:?}");
            assert!(clipped.upper(s) >= v, "W {w} m {m}: bound below {v} at {s:?}");
        }
        // At the start the claim is within 4 of the truth (16 against 14 at W = 6).
        let start = clipped.big_phase_idle(&trans.start())[1].1.unwrap();
        assert!(start <= max_big_idle(&trans, &trans.start(), Unit::L, m, &mut idle) + 4, "W {w}: {start}");
    }
}

/// A bound's core claim per paced unit (`big_phase_idle` of the stretch, period and
/// clipped bounds).
type Claim<'a> = dyn Fn(&Counts) -> Vec<(Unit, Option<u64>)> + 'a;

/// At every state of `memo` (the exact remaining times of `inst`, paced unit `paced`):
/// `upper` (if given) is at least the exact value, and the most idle cycles of `paced`
/// while more than sigma_Y warps are unfinished is at most the core claim `claim(s)` for
/// `paced` (0 when the claim is `None`). The first failure, as a message.
fn bound_and_claim_hold(
    inst: &Instance,
    trans: &Transitions,
    memo: &HashMap<Counts, u64>,
    paced: Unit,
    upper: Option<&dyn StateBound>,
    claim: &Claim,
) -> Result<(), String> {
    let sigma_y = if paced == Unit::L { inst.sigma_c } else { inst.sigma_l } as u64;
    let mut idle = HashMap::new();
    for (s, &v) in memo {
        if let Some(b) = upper.map(|b| b.upper(s)).filter(|&b| b < v) {
            return Err(format!("bound {b} < {v} at {s:?}"));
        }
        let n0 = max_big_idle(trans, s, paced, sigma_y, &mut idle);
        match claim(s).into_iter().find(|&(u, _)| u == paced).and_then(|(_, b)| b) {
            Some(b) if n0 > b => return Err(format!("{paced:?} idle {n0} > {b} at {s:?}")),
            None if n0 > 0 => return Err(format!("{paced:?} idle {n0} > 0 at {s:?} (no claim)")),
            _ => {}
        }
    }
    Ok(())
}

/// `inst` with sigma_L = 1 (or, unless `paced_l`, its mirror with sigma_C = 1), its
/// transition system and the exact remaining time of every state reachable from the start.
fn sigma_one_instance(inst: Instance, paced_l: bool) -> (Instance, Transitions, HashMap<Counts, u64>) {
    let inst = if paced_l { inst } else { common::inst(&inst.kernel.to_string(), inst.warps as i64, inst.sigma_c as i64, 1) };
    let trans = Transitions::new(&inst);
    let mut memo = HashMap::new();
    plain_dp(&trans, &trans.start(), &mut memo);
    (inst, trans, memo)
}

/// Most cycles, over every schedule from `s`, in which no warp is ready for `paced`
/// while more than `sigma_y` warps are unfinished (the stretch bound's `N0_big`).
fn max_big_idle(t: &Transitions, s: &Counts, paced: Unit, sigma_y: u64, memo: &mut HashMap<Counts, u64>) -> u64 {
    if s.is_finished() {
        return 0;
    }
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let idle = s.warps() > sigma_y && s.slots().iter().all(|&(p, _)| t.units()[p as usize] != paced);
    let mut succ = Vec::new();
    t.successors(s, &mut Scratch::default(), &mut succ);
    let v = idle as u64 + succ.iter().map(|n| max_big_idle(t, n, paced, sigma_y, memo)).max().unwrap();
    memo.insert(s.clone(), v);
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The stretch bound's core claim without the slack of its other terms: at every
    /// state the plain DP visits, the most idle cycles of the paced unit while more than
    /// sigma warps are left is at most `floor((B - V) / sigma) + 1`.
    #[test]
    fn stretch_core_claim_holds_at_every_state((inst, paced_l) in (instances(8, 14, 1, 4), any::<bool>())) {
        let (inst, trans, memo) = sigma_one_instance(inst, paced_l);
        let stretch = Stretch::new(&Tables::new(&inst));
        let paced = if paced_l { Unit::L } else { Unit::C };
        prop_assert_eq!(bound_and_claim_hold(&inst, &trans, &memo, paced, None, &|s| stretch.big_phase_idle(s)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// The period bound where it applies (a sigma of 1, larger W): it holds at every state
    /// the plain DP visits, and so does its core claim without the slack of `R_X` and `y`:
    /// the most idle cycles of the paced unit while more than sigma_Y warps are
    /// unfinished is at most `floor((J + F + Phi) / sigma_Y)`.
    #[test]
    fn period_bound_and_core_claim_hold_at_every_state((inst, paced_l) in (instances(10, 12, 1, 4), any::<bool>())) {
        let (inst, trans, memo) = sigma_one_instance(inst, paced_l);
        let period = Period::new(&Tables::new(&inst));
        let paced = if paced_l { Unit::L } else { Unit::C };
        prop_assert_eq!(bound_and_claim_hold(&inst, &trans, &memo, paced, Some(&period), &|s| period.big_phase_idle(s)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// The clipped bound where it applies (a sigma of 1, larger W): it holds at every
    /// state the plain DP visits, and so does its core claim without the slack of `R_X`
    /// and `y`: the most idle cycles of the paced unit while more than sigma_Y warps are
    /// unfinished is at most `floor((Phi + sigma + F0 + slack + M) / sigma_Y)`.
    #[test]
    fn clipped_bound_and_core_claim_hold_at_every_state((inst, paced_l) in (prop_oneof![instances(10, 12, 1, 4), jam_prone()], any::<bool>())) {
        let (inst, trans, memo) = sigma_one_instance(inst, paced_l);
        let clipped = Clipped::new(&Tables::new(&inst), inst.warps);
        let paced = if paced_l { Unit::L } else { Unit::C };
        prop_assert_eq!(bound_and_claim_hold(&inst, &trans, &memo, paced, Some(&clipped), &|s| clipped.big_phase_idle(s)), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// The clipped bound with exact end games of at most `m` warps (`m` from sigma_Y to
    /// W - 1 and sigma_Y^2, so that both phases occur; none with sigma_Y 1): it holds at every state the plain DP visits, it
    /// is exact at the states of at most `m` warps, and the core claim of its side with
    /// the end games holds with `m` in place of sigma_Y: the most idle cycles of the paced
    /// unit while more than `m` warps are unfinished is at most
    /// `floor((Phi + m + F0 + slack + M) / sigma_Y)`.
    #[test]
    fn clipped_bound_with_end_games_holds_at_every_state((inst, paced_l, extra) in (prop_oneof![instances(10, 12, 1, 4), jam_prone()], any::<bool>(), 0u64..4)) {
        clipped_with_end_games_holds(inst, paced_l, extra)?;
    }
}

/// The test of `clipped_bound_with_end_games_holds_at_every_state` for one instance, paced
/// unit and `m = sigma_Y + extra` (capped).
fn clipped_with_end_games_holds(inst: Instance, paced_l: bool, extra: u64) -> Result<(), TestCaseError> {
    let (inst, trans, memo) = sigma_one_instance(inst, paced_l);
    let paced = if paced_l { Unit::L } else { Unit::C };
    let sigma_y = if paced_l { inst.sigma_c } else { inst.sigma_l } as u64;
    let m = (sigma_y + extra).min((inst.warps as u64).saturating_sub(1)).min(sigma_y * sigma_y).max(sigma_y);
    let cap = state_bounds::helpers::end_game::states_of_at_most(inst.len() as u64, m).unwrap() as usize;
    let clipped = Clipped::with_end_games_until(&trans, &Tables::new(&inst), cap, &gpu_makespan::budget::Budget::default());
    let floors = clipped.floors();
    let exact_side = floors.contains(&(paced, m, true));
    prop_assert!(exact_side || inst.warps as u64 <= sigma_y || sigma_y < 2, "{:?} (m {})", floors, m);
    let mut idle = HashMap::new();
    for (s, &v) in &memo {
        let b = clipped.upper(s);
        prop_assert!(b >= v, "bound {} < {} at {:?}", b, v, s);
        if exact_side && s.warps() <= m {
            prop_assert_eq!(b, v, "not exact at {:?}", s);
        }
        // Every side's core claim, with its own floor.
        for ((unit, floor, _), (_, claim)) in floors.iter().zip(clipped.big_phase_idle(s)) {
            if *unit == paced {
                let n0 = max_big_idle(&trans, s, paced, *floor, idle.entry(*floor).or_insert_with(HashMap::new));
                prop_assert!(n0 <= claim.unwrap_or(0), "idle {} > {:?} (floor {}) at {:?}", n0, claim, floor, s);
            }
        }
    }
    Ok(())
}

/// Kernels shaped like real code: a first run of 3-5 C's (every warp starts in it), then
/// L's and runs of C's shorter than sigma_C, so the jam automaton sees only small entry
/// values (`Clipped` leaves out the larger ones); sigma_C 2-4, 5-10 warps.
fn first_run_then_short_runs() -> impl Strategy<Value = Instance> {
    (3usize..=5, prop::collection::vec((1usize..=2, 1usize..=3), 1..=2), 5i64..=10, 2i64..=4).prop_map(|(first, rest, w, c)| {
        let mut k = "C".repeat(first);
        for (l, run) in rest {
            k += &"L".repeat(l);
            k += &"C".repeat(run.min(c as usize - 1));
        }
        common::inst(&k, w, 1, c)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// The clipped bound, both splits, on kernels whose entries are all below sigma_C (the
    /// jam automaton with fewer entry values) and that start with a long run of C's (the
    /// laggard's cap): it holds at every state the plain DP visits, it is exact at the
    /// states of at most `m = sigma_Y + 1` warps, and so do the core claims of both splits.
    #[test]
    fn clipped_bound_with_small_entries_holds_at_every_state((inst, paced_l) in (first_run_then_short_runs(), any::<bool>())) {
        clipped_with_end_games_holds(inst, paced_l, 1)?;
    }
}

/// Both sigmas 1 (the last-warp bound has no end game there), up to 12 instructions and
/// 2-12 warps.
fn both_paced() -> impl Strategy<Value = Instance> {
    (common::kernel(12), 2i64..=12).prop_map(|(k, w)| common::inst(&k, w, 1, 1))
}

proptest! {
    // 200 cases in a full run (scripts/explore-seeds.sh), 60 in CI (docs/testing.md).
    #![proptest_config(ProptestConfig { cases: common::cases(200, 60), ..ProptestConfig::default() })]

    /// The last-warp bound where it applies (a sigma of 1): it holds at every state the
    /// plain DP visits; its claim, every idle cycle of the paced unit (not only those of
    /// the big phase), is the bound less `R_X`.
    #[test]
    fn last_warp_bound_holds_at_every_state((inst, paced_l) in (prop_oneof![instances(10, 12, 1, 4), both_paced(), jam_prone()], any::<bool>())) {
        let (inst, trans, memo) = sigma_one_instance(inst, paced_l);
        let tables = Tables::new(&inst);
        let (last, units) = (LastWarp::new(&tables), LastWarp::units(&tables));
        let paced = if paced_l { Unit::L } else { Unit::C };
        let claim = |s: &Counts| units.iter().copied().zip(last.idle(s)).collect();
        prop_assert_eq!(bound_and_claim_hold(&inst, &trans, &memo, paced, Some(&last), &claim), Ok(()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// The search is generic over the encoding: the variable-width encoding gives the
    /// same value as the packed one.
    #[test]
    fn encodings_agree(inst in instance()) {
        let trans = Transitions::new(&inst);
        let r = search(&trans, &state_bounds::standard(&inst), Sparse, SearchLimits::default()).unwrap();
        prop_assert_eq!(r.trace.cycles(), exact(&inst).lower_bound());
        prop_assert_eq!(r.upper_bound, r.trace.cycles());
    }

    /// A search stopped early still brackets the exact value: its witness is no longer
    /// and its upper bound (one more than the children's values, capped by each
    /// state's own bound) no smaller than the plain DP's value, and never above the
    /// per-state bound at the start.
    #[test]
    fn stopped_search_brackets_the_exact_value(inst in instances(10, 12, 2, 4)) {
        let trans = Transitions::new(&inst);
        let t = plain_dp(&trans, &trans.start(), &mut HashMap::new());
        let bound = state_bounds::standard(&inst);
        for max_states in [1, 3, 10, 30, 100] {
            let limits = SearchLimits { max_states, beam: false, rollouts: 1, ..SearchLimits::default() };
            let r = search(&trans, &bound, Sparse, limits).unwrap();
            prop_assert!(r.trace.cycles() <= t);
            prop_assert!(r.upper_bound >= t, "upper {} < exact {} with {} states", r.upper_bound, t, max_states);
            prop_assert!(r.upper_bound <= bound.upper(&trans.start()));
        }
    }

    /// The beam thread changes nothing but speed: without it the search gives the same
    /// exact value, and with it (as in `exact`) the reported trace is as long as the value.
    #[test]
    fn beam_thread_changes_no_value(inst in instances(10, 12, 2, 4)) {
        let trans = Transitions::new(&inst);
        let alone = search(&trans, &state_bounds::standard(&inst), Sparse, SearchLimits { beam: false, ..SearchLimits::default() }).unwrap();
        let both = search(&trans, &state_bounds::standard(&inst), Sparse, SearchLimits::default()).unwrap();
        prop_assert_eq!(alone.trace.cycles(), alone.upper_bound);
        prop_assert_eq!(both.trace.cycles(), both.upper_bound);
        prop_assert_eq!(alone.upper_bound, both.upper_bound);
    }
}

#[test]
fn known_values_and_root_bounds() {
    for (k, w, l, c, t) in KNOWN {
        let i = inst(k, w, l, c);
        assert_eq!(exact(&i).lower_bound(), t, "{k} W={w}");
    }
    // At the start state the per-warp bound is the safe horizon and the lower bound the
    // closed-form one.
    let i = inst("LLCLLL", 4, 2, 2);
    let tables = Tables::new(&i);
    let start = Transitions::new(&i).start();
    assert_eq!(PerWarp::new(&tables).upper(&start), bounds::safe_horizon(&i));
    assert_eq!(state_bounds::lower_bound(&tables, &start), bounds::lower_bound(&i));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// The progress line's interval always holds T^(W) (from the plain DP), whether the
    /// solve ends exact or is cut short by a tiny state limit, and it ends at the
    /// solution's bounds or inside them.
    #[test]
    fn the_watched_interval_always_holds_the_makespan(inst in instance(), max_states in prop_oneof![Just(1usize), Just(1_000_000)], heuristic in any::<bool>()) {
        use gpu_makespan::exact::solve::{solve, Method, SolveOptions};
        let t = Transitions::new(&inst);
        let exact_value = plain_dp(&t, &t.start(), &mut HashMap::new());
        let watch = std::sync::Arc::new(gpu_makespan::watch::Watch::new());
        let method = if heuristic { Method::Heuristic } else { Method::Search };
        let opts = SolveOptions::default().with_method(method).with_max_states(max_states).with_dense(false).with_budget(gpu_makespan::Budget::default().watched(watch.clone()));
        let sol = solve(&inst, &opts).unwrap();
        let (lower, upper) = watch.interval();
        let upper = upper.expect("a solve always reports an upper bound");
        prop_assert!(lower <= exact_value && exact_value <= upper, "[{lower}, {upper}] misses {exact_value}");
        // The closed-form lower bound may lie above a cut-short witness.
        prop_assert!(lower >= sol.outcome.lower_bound() && upper <= sol.outcome.upper_bound());
    }
}

/// The most jam gain `J` (sum over busy cycles of `e - c` while more than `floor` warps are
/// left, `e` the entry value of the L issued (1 for the kernel's last L), `c` the C's
/// issued) of any schedule from
/// `counts` (warps per position, sigma_L = 1), by exhaustive recursion over every choice
/// of the L and of the C's: independent of the search's transitions and of the automaton.
fn max_jam_gain(units: &[Unit], sigma: u64, floor: u64, counts: Vec<u32>, memo: &mut HashMap<Vec<u32>, i64>) -> i64 {
    let len = units.len();
    let u: u64 = counts.iter().map(|&n| n as u64).sum();
    if u <= floor {
        return 0;
    }
    if let Some(&v) = memo.get(&counts) {
        return v;
    }
    let ls: Vec<usize> = (0..len).filter(|&p| counts[p] > 0 && units[p] == Unit::L).collect();
    let cs: Vec<usize> = (0..len).filter(|&p| counts[p] > 0 && units[p] == Unit::C).collect();
    let ready: u64 = cs.iter().map(|&p| counts[p] as u64).sum();
    let c = sigma.min(ready);
    // The clipped bound's entry values: min(k, sigma) into a run of k C's, 1 for the
    // kernel's last L (a warp's psi goes from -1 to 0 there), else 0.
    let entry = |p: usize| -> i64 {
        let run = units[p + 1..].iter().take_while(|&&x| x == Unit::C).count() as u64;
        if p + 1 == len {
            1
        } else {
            run.min(sigma) as i64
        }
    };
    // Every multiset of c C-ready warps, by how many leave each C position.
    let mut picks: Vec<Vec<u32>> = vec![vec![]];
    for &p in &cs {
        picks = picks.into_iter().flat_map(|pick| (0..=counts[p]).map(move |k| [pick.clone(), vec![k]].concat())).collect();
    }
    picks.retain(|pick| pick.iter().map(|&k| k as u64).sum::<u64>() == c);
    let l_choices: Vec<Option<usize>> = if ls.is_empty() { vec![None] } else { ls.iter().map(|&p| Some(p)).collect() };
    let mut best = i64::MIN;
    for l in &l_choices {
        for pick in &picks {
            let mut next = counts.clone();
            let mut moved: Vec<(usize, u32)> = cs.iter().zip(pick).map(|(&p, &k)| (p, k)).collect();
            moved.extend(l.map(|p| (p, 1)));
            for &(p, k) in &moved {
                next[p] -= k;
            }
            for &(p, k) in &moved {
                if p + 1 < len {
                    next[p + 1] += k;
                }
            }
            let gain = l.map_or(0, |p| entry(p) - c as i64);
            best = best.max(gain + max_jam_gain(units, sigma, floor, next, memo));
        }
    }
    memo.insert(counts, best);
    best
}

/// The jam automaton's allowance (`slack(u, q) + M`, the clipped bound's step 4) against
/// the most jam gain of real schedules, at every reachable state of kernels whose entries
/// are below sigma_C (where `Clipped` gives the automaton fewer entry values) and of
/// jam-prone ones: it must never be exceeded, and it is reached somewhere. Giving the
/// automaton one entry value less than the kernel has makes this fail (checked by hand:
/// `CCCCLCLCC`, W = 8, a gain of 1 against 0).
#[test]
fn jam_automaton_bounds_real_jam_gains() {
    let mut closest = i64::MAX;
    let cases = [
        ("CCCLCCL", 9, 4),
        ("LCCLCCLL", 8, 4),
        ("CCCCLCL", 9, 3),
        ("CCCLCC", 9, 4),
        ("CCCCLCLCC", 8, 4),
        ("CCCLCCLC", 10, 4),
        ("CCCLLCCLCC", 8, 3),
        ("LCCLCCCLC", 7, 4),
        ("LCCCLCC", 9, 3),
        ("CCLCLCLC", 9, 2),
    ];
    for (k, w, c) in cases {
        let inst = common::inst(k, w, 1, c);
        let (inst, trans, memo) = sigma_one_instance(inst, true);
        let cap = state_bounds::helpers::end_game::states_of_at_most(inst.len() as u64, c as u64 + 1).unwrap() as usize;
        let clipped = Clipped::with_end_games_until(&trans, &Tables::new(&inst), cap, &gpu_makespan::budget::Budget::default());
        let units = trans.units().to_vec();
        let mut gains: Vec<HashMap<Vec<u32>, i64>> = vec![HashMap::new(); 2];
        let mut tight = i64::MAX;
        for s in memo.keys() {
            let mut counts = vec![0u32; units.len()];
            s.slots().iter().for_each(|&(p, n)| counts[p as usize] = n);
            for (split, ((unit, floor, _), (_, allowance))) in clipped.floors().into_iter().zip(clipped.jam_allowance(s)).enumerate() {
                let Some(allowance) = allowance.filter(|_| unit == Unit::L) else { continue };
                let gain = max_jam_gain(&units, c as u64, floor, counts.clone(), &mut gains[split]);
                assert!(
                    gain * SCALE <= allowance,
                    "{k} W {w}: jam gain {gain} > {} at {s:?} (floor {floor})",
                    allowance as f64 / SCALE as f64
                );
                tight = tight.min(allowance - gain * SCALE);
            }
        }
        // The allowance is reached within one C somewhere (the automaton is not loose).
        closest = closest.min(tight);
    }
    // The automaton is not loose here: some real schedule reaches its allowance exactly.
    assert_eq!(closest, 0);
}
