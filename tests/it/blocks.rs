//! Several blocks with barriers on one SM: the exact search against a brute force over
//! every warp's position that knows only the per-block barrier rule; the block horizon
//! at every reachable state; block turnover under oldest-first arbitration against a
//! simulator with staggered arrivals and every choice the rule leaves open drawn at random.

use gpu_makespan::budget::Budget;
use gpu_makespan::exact::blocks::{longest_from, solve_blocks};
use gpu_makespan::exact::idle_bound::idle_bound;
use gpu_makespan::exact::phases::solve_phases;
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::model::blocks::{
    lrr_turnover_bound_with, turnover_bound, turnover_bound_beside, turnover_bound_with, Beside, Blocks, Interference, Neighbour,
};
use gpu_makespan::model::instance::Instance;
use gpu_makespan::model::kernel::Unit;
use gpu_makespan::model::program::Program;
use gpu_makespan::{Latencies, LatencyRange};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

struct Brute<'a> {
    units: &'a [Unit],
    ends: Vec<usize>,
    w: usize,
    sigma: (usize, usize),
    memo: HashMap<Vec<usize>, u64>,
}

impl Brute<'_> {
    /// A warp is ready unless done, or at the end of a phase while a warp of its own
    /// block has not got there.
    fn ready(&self, pos: &[usize], warp: usize) -> bool {
        let p = pos[warp];
        let block = warp / self.w;
        p < self.units.len() && (!self.ends.contains(&p) || pos[block * self.w..(block + 1) * self.w].iter().all(|&q| q >= p))
    }

    /// Cycles left from `pos` (instructions issued per warp), the adversary choosing
    /// which ready warps issue (as many as the units allow).
    fn left(&mut self, pos: Vec<usize>) -> u64 {
        if pos.iter().all(|&p| p == self.units.len()) {
            return 0;
        }
        if let Some(&v) = self.memo.get(&pos) {
            return v;
        }
        let ready = |u: Unit| (0..pos.len()).filter(|&w| self.ready(&pos, w) && self.units[pos[w]] == u).collect::<Vec<_>>();
        let (l, c) = (ready(Unit::L), ready(Unit::C));
        let mut best = 0;
        for pick_l in subsets(&l, self.sigma.0.min(l.len())) {
            for pick_c in subsets(&c, self.sigma.1.min(c.len())) {
                let mut next = pos.clone();
                pick_l.iter().chain(&pick_c).for_each(|&w| next[w] += 1);
                for block in next.chunks_mut(self.w) {
                    block.sort_unstable();
                }
                best = best.max(1 + self.left(next));
            }
        }
        self.memo.insert(pos, best);
        best
    }
}

fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    if items.len() < k {
        return vec![];
    }
    let mut with: Vec<Vec<usize>> = subsets(&items[1..], k - 1).into_iter().map(|s| [s, vec![items[0]]].concat()).collect();
    with.extend(subsets(&items[1..], k));
    with
}

fn blocks(kernel: &str, w: i64, b: u32, sl: i64, sc: i64) -> Blocks {
    Blocks::new(Program::build(kernel, |p| Instance::new(p, w, sl, sc)).unwrap(), b)
}

fn brute(bl: &Blocks) -> (u64, HashMap<Vec<usize>, u64>) {
    let units = bl.units();
    let ends = bl.program.phases.iter().scan(0, |at, p| Some(*at + p.len()).inspect(|e| *at = *e)).collect();
    let sigma = (bl.sigma(Unit::L) as usize, bl.sigma(Unit::C) as usize);
    let mut b = Brute { units: &units, ends, w: bl.warps_per_block() as usize, sigma, memo: HashMap::new() };
    let v = b.left(vec![0; bl.warps() as usize]);
    (v, b.memo)
}

fn exact(bl: &Blocks) -> u64 {
    let s = solve_blocks(bl, &SolveOptions::default()).unwrap();
    assert!(s.exact(), "{}", bl.given());
    s.interval.upper()
}

#[test]
fn the_domain_notes_examples() {
    // The sum of the phases at 6 warps is 7; two blocks of 3 reach 8.
    let b = blocks("L|LC", 3, 2, 2, 2);
    assert_eq!((exact(&b), brute(&b).0), (8, 8));
    // The barrier-free worst case at 6 warps is 12; two blocks of 3 reach 13.
    let b = blocks("CCCL|CC", 3, 2, 1, 4);
    assert_eq!((exact(&b), brute(&b).0), (13, 13));
    assert!(b.horizon() >= 13);
}

fn kernel_with_barriers() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop_oneof![4 => Just('L'), 4 => Just('C'), 2 => Just('|')], 1..7)
        .prop_map(|v| v.into_iter().collect::<String>())
        .prop_filter("an instruction", |k| k.contains(['L', 'C']))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The exact search equals the brute force, at the start and at every state the brute
    /// force reaches; every schedule it returns is checked (inside `solve_blocks`); the
    /// block horizon holds at every reachable state and the lower bound at the start.
    #[test]
    fn several_blocks_solve_exactly(k in kernel_with_barriers(), w in 1i64..4, b in 1u32..3, sl in 1i64..3, sc in 1i64..4) {
        let bl = blocks(&k, w, b, sl, sc);
        let (truth, memo) = brute(&bl);
        prop_assert_eq!(exact(&bl), truth);
        prop_assert!(bl.lower_bound() <= truth);
        for (state, left) in &memo {
            prop_assert!(bl.horizon_from(state) >= *left, "{} at {:?}: {} < {}", bl.given(), state, bl.horizon_from(state), left);
            // The search from the same state agrees with the brute force.
            prop_assert_eq!(longest_from(&bl, state, &Budget::default()), Some(*left), "{} at {:?}", bl.given(), state);
        }
        prop_assert_eq!(bl.horizon_from(&vec![0; bl.warps() as usize]), bl.horizon());
    }

    /// A search stopped early (by a state cap of 0 to 40) still proves an interval that
    /// holds the brute force's value: its upper end is the smaller of the block horizon
    /// and the idle bound; its lower end is a checked schedule.
    #[test]
    fn a_stopped_block_search_still_holds_the_worst_case(k in kernel_with_barriers(), w in 1i64..4, b in 1u32..3, sl in 1i64..3, sc in 1i64..4, cap in 0usize..40) {
        let bl = blocks(&k, w, b, sl, sc);
        let truth = brute(&bl).0;
        let s = solve_blocks(&bl, &SolveOptions::default().with_max_states(cap)).unwrap();
        prop_assert!(s.interval.lower() <= truth && truth <= s.interval.upper(), "{}: {} not in {:?}", bl.given(), truth, s.interval);
        prop_assert!(s.interval.upper() <= bl.horizon());
    }

    /// The idle bound (`exact::idle_bound`, an integer programme solved by HiGHS) is
    /// never below the brute force's worst case; it is absent only when the programme is
    /// too large, which these tiny kernels never are.
    #[test]
    fn the_idle_bound_holds(k in kernel_with_barriers(), w in 1i64..4, b in 1u32..4, sl in 1i64..3, sc in 1i64..4) {
        let bl = blocks(&k, w, b, sl, sc);
        prop_assume!(bl.warps() <= 8);
        let truth = brute(&bl).0;
        let bound = idle_bound(&bl, None, &[]);
        prop_assert!(bound.is_some(), "{}: no idle bound", bl.given());
        prop_assert!(bound.unwrap() >= truth, "{}: idle bound {:?} below the worst case {}", bl.given(), bound, truth);
    }

    /// With one block the search agrees with the phase decomposition.
    #[test]
    fn one_block_is_the_sum_of_its_phases(k in kernel_with_barriers(), w in 1i64..5, sl in 1i64..3, sc in 1i64..4) {
        let bl = blocks(&k, w, 1, sl, sc);
        let phases = solve_phases(&bl.program, &SolveOptions::default()).unwrap();
        prop_assert!(phases.exact());
        prop_assert_eq!(exact(&bl), phases.upper_bound());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// At any block count from 1 to 64 the block search ends (here stopped early by a
    /// small state cap, so the random rollouts give the lower end) without a panic, and
    /// its interval lies between the blocks' lower bound and their horizon. (Random
    /// rollouts once drew a new sort key at every comparison, which panicked from 21
    /// blocks on.)
    #[test]
    fn any_block_count_gives_an_interval(k in kernel_with_barriers(), w in 1i64..4, b in 1u32..=64, sl in 1i64..3, sc in 1i64..4) {
        let bl = blocks(&k, w, b, sl, sc);
        let opts = SolveOptions::default().with_budget(Budget::new(Some(std::time::Duration::from_millis(300)), 64 << 20)).with_max_states(2_000);
        let s = solve_blocks(&bl, &opts).unwrap();
        let (lower, upper) = (s.interval.lower(), s.interval.upper());
        prop_assert!(bl.lower_bound() <= lower, "{}: lower {} below the lower bound {}", bl.given(), lower, bl.lower_bound());
        prop_assert!(upper <= bl.horizon(), "{}: [{}, {}], horizon {}", bl.given(), lower, upper, bl.horizon());
    }
}

/// One resident block of the turnover simulator.
struct Resident {
    kernel: usize,
    arrival: u64,
    /// A random rank among blocks of the same arrival (the rule leaves their order open).
    tie: u64,
    issued: Vec<usize>,
    /// Per warp: the cycle from which it may issue again (its last result is there).
    ready: Vec<u64>,
    /// Per warp: the cycle its last issued instruction's result is there.
    done: Vec<u64>,
    /// The last barrier (instruction count) the block has passed.
    released: usize,
    /// Per warp: its warp slot on the SM (round robin only).
    slots: Vec<usize>,
}

/// How the staggered simulator's units choose among ready warps.
#[derive(Clone, Copy, PartialEq)]
enum Arbitration {
    /// Oldest block first, same-age blocks in a random order.
    OldestFirst,
    /// Per class, the warp slots in circular order from after the last slot served.
    RoundRobin,
    /// Oldest block first, same-age blocks in the order they arrived (issue 53's
    /// queue-order rule); the first [`FIRST_JOB`] blocks are of the first program and
    /// the rest of the second (two jobs, one after the other in the FIFO queue).
    QueueOrder,
}

/// Under [`Arbitration::QueueOrder`], the blocks of the first program (its job's).
const FIRST_JOB: usize = 1;

/// Blocks of the `programs` (same `W`, same SM) arrive one after another, each when the
/// SM has room for it (at most `capacity` warps) and a random delay has passed, so they
/// start while others are mid-way and replace finished ones. Each cycle every unit
/// serves ready warps oldest block first, choosing at random among warps of blocks of
/// the same age. Every issue draws its latency from `latency[x]` (`(1, 1)`: the paper's
/// model, no draw): the warp is ready again that many cycles later, and a barrier
/// releases its block once every warp reached it and its results are there. Returns
/// each block's time from arrival to its last result, and its kernel. Under
/// `RoundRobin` a block's warps take free slots of `capacity` at random, and each class
/// serves the ready warps in slot order from after the slot it served last (random at
/// the start).
fn staggered(
    arbitration: Arbitration,
    programs: &[Program],
    capacity: usize,
    count: usize,
    latency: [(u64, u64); 2],
    rng: &mut SmallRng,
) -> Vec<(usize, u64)> {
    let w = programs[0].warps() as usize;
    let units: Vec<Vec<Unit>> = programs.iter().map(|p| p.phases.iter().flat_map(|ph| ph.kernel.units().to_vec()).collect()).collect();
    let ends: Vec<Vec<usize>> =
        programs.iter().map(|p| p.phases.iter().scan(0, |at, ph| Some(*at + ph.len()).inspect(|e| *at = *e)).collect()).collect();
    let sigma = [programs[0].phases[0].sigma_l as usize, programs[0].phases[0].sigma_c as usize];
    let (mut resident, mut times, mut started, mut t) = (Vec::<Resident>::new(), Vec::new(), 0, 0u64);
    let mut next_arrival = 1u64;
    let mut start = [rng.random_range(0..capacity), rng.random_range(0..capacity)];
    while started < count || !resident.is_empty() {
        t += 1;
        while started < count && t >= next_arrival && (resident.len() + 1) * w <= capacity {
            let kernel = match arbitration {
                Arbitration::QueueOrder => usize::from(started >= FIRST_JOB).min(programs.len() - 1),
                _ => rng.random_range(0..programs.len()),
            };
            let mut free: Vec<usize> = (0..capacity).filter(|s| resident.iter().all(|r| !r.slots.contains(s))).collect();
            free.shuffle(rng);
            resident.push(Resident {
                slots: free[..w].to_vec(),
                kernel,
                arrival: t,
                tie: if arbitration == Arbitration::QueueOrder { started as u64 } else { rng.random() },
                issued: vec![0; w],
                ready: vec![t; w],
                done: vec![0; w],
                released: 0,
            });
            started += 1;
            next_arrival = t + rng.random_range(0..4u64);
        }
        for r in resident.iter_mut() {
            let least = *r.issued.iter().min().unwrap();
            if let Some(&e) = ends[r.kernel].iter().find(|&&e| e > r.released && e < units[r.kernel].len()) {
                if least >= e && r.done.iter().all(|&d| d < t) {
                    r.released = e;
                    r.ready.iter_mut().for_each(|c| *c = (*c).max(t));
                }
            }
        }
        let mut ready: [Vec<(u64, u64, usize, usize)>; 2] = [Vec::new(), Vec::new()];
        for (bi, r) in resident.iter().enumerate() {
            for (wi, &p) in r.issued.iter().enumerate() {
                let at_barrier = ends[r.kernel].contains(&p) && p > r.released;
                if p < units[r.kernel].len() && !at_barrier && r.ready[wi] <= t {
                    let x = (units[r.kernel][p] == Unit::C) as usize;
                    ready[x].push((r.arrival, r.tie, bi, wi));
                }
            }
        }
        for (x, mut list) in ready.into_iter().enumerate() {
            // Oldest first; same-age blocks one after another in a random order, or
            // their warps interleaved at random.
            list.shuffle(rng);
            if arbitration == Arbitration::RoundRobin {
                let slot = |bi: usize, wi: usize| resident[bi].slots[wi];
                list.sort_by_key(|&(_, _, bi, wi)| (slot(bi, wi) + capacity - start[x]) % capacity);
                if let Some(&(_, _, bi, wi)) = list.iter().take(sigma[x]).next_back() {
                    start[x] = (slot(bi, wi) + 1) % capacity;
                }
            } else if arbitration == Arbitration::QueueOrder || rng.random_bool(0.5) {
                list.sort_by_key(|&(a, tie, _, _)| (a, tie));
            } else {
                list.sort_by_key(|&(a, _, _, _)| a);
            }
            for &(_, _, bi, wi) in list.iter().take(sigma[x]) {
                let (lo, hi) = latency[x];
                let lambda = if lo == hi { lo } else { rng.random_range(lo..=hi) };
                let r = &mut resident[bi];
                r.issued[wi] += 1;
                r.ready[wi] = t + lambda;
                r.done[wi] = t + lambda - 1;
            }
        }
        resident.retain(|r| {
            let last = *r.done.iter().max().unwrap();
            let finished = r.issued.iter().all(|&p| p == units[r.kernel].len()) && last <= t;
            if finished {
                times.push((r.kernel, last + 1 - r.arrival));
            }
            !finished
        });
    }
    times
}

/// The two kernels of a turnover test, `w` warps per block on an SM of sigmas `sigma`.
fn two_programs(kernels: [&str; 2], w: i64, sigma: (i64, i64)) -> Vec<Program> {
    kernels.iter().map(|k| Program::build(k, |p| Instance::new(p, w, sigma.0, sigma.1)).unwrap()).collect()
}

/// What may be resident beside a block: `warps` other warps, each as heavy as the
/// heaviest of `programs`.
fn heaviest(programs: &[Program], warps: usize) -> Interference {
    let most = |u: Unit| programs.iter().map(|p| p.phases.iter().map(|ph| ph.kernel.count(u) as u64).sum::<u64>()).max().unwrap();
    Interference { warps: warps as u64, most_l: most(Unit::L), most_c: most(Unit::C) }
}

/// Twelve blocks of the staggered simulator under `arbitration` (seeded by `seed`), each
/// within `bound` of its program.
fn within_bound(
    arbitration: Arbitration,
    programs: &[Program],
    capacity: usize,
    draws: [(u64, u64); 2],
    seed: u64,
    bound: impl Fn(&Program) -> u64,
) -> Result<(), TestCaseError> {
    let mut rng = SmallRng::seed_from_u64(seed);
    for (kernel, time) in staggered(arbitration, programs, capacity, 12, draws, &mut rng) {
        let bound = bound(&programs[kernel]);
        prop_assert!(time <= bound, "kernel {} took {} > {}", kernel, time, bound);
    }
    Ok(())
}

/// What kernels of `w`-warp blocks (each program with its most blocks) can hold beside
/// one block on an SM of `capacity` warp slots and `room` block slots.
fn beside_of(kernels: &[(&Program, u64)], w: i64, capacity: usize, room: usize) -> Beside {
    let neighbour = |&(p, blocks): &(&Program, u64)| Neighbour {
        warps_per_block: w as u64,
        blocks,
        count_l: p.count(Unit::L),
        count_c: p.count(Unit::C),
    };
    Beside { neighbours: kernels.iter().map(neighbour).collect(), room_warps: (capacity - w as usize) as u64, room_blocks: room as u64 - 1 }
}

/// Latency ranges `[lo, lo + d]` for L and C.
fn latencies(l: (u64, u64), c: (u64, u64)) -> Latencies {
    let range = |(lo, d): (u64, u64)| LatencyRange::new(lo as i64, (lo + d) as i64, "latency").unwrap();
    Latencies { l: range(l), c: range(c) }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// No block of the staggered simulator takes longer than its turnover bound, with
    /// the other resident warps counted as the SM's room beside it and the heaviest
    /// warp of any kernel that may be resident.
    #[test]
    fn turnover_never_exceeds_the_bound(k1 in kernel_with_barriers(), k2 in kernel_with_barriers(), w in 1i64..4,
                                        room in 1usize..4, sl in 1i64..3, sc in 1i64..5, seed: u64) {
        let programs = two_programs([&k1, &k2], w, (sl, sc));
        let capacity = room * w as usize;
        let others = heaviest(&programs, capacity - w as usize);
        within_bound(Arbitration::OldestFirst, &programs, capacity, [(1, 1), (1, 1)], seed, |p| turnover_bound(p, others))?;
    }

    /// With latencies drawn at random in their ranges, no block takes longer than its
    /// turnover bound with latencies (each instruction's longest wait added), with the
    /// heaviest kernel per warp or with what the mix can hold beside it.
    #[test]
    fn turnover_with_latencies_never_exceeds_the_bound(k1 in kernel_with_barriers(), k2 in kernel_with_barriers(), w in 1i64..4,
                                                       room in 1usize..4, sl in 1i64..3, sc in 1i64..5,
                                                       (l, dl, c, dc) in (1u64..6, 0u64..20, 1u64..4, 0u64..3), seed: u64) {
        let programs = two_programs([&k1, &k2], w, (sl, sc));
        let capacity = room * w as usize;
        let others = heaviest(&programs, capacity - w as usize);
        let latency = latencies((l, dl), (c, dc));
        let draws = [(l, l + dl), (c, c + dc)];
        within_bound(Arbitration::OldestFirst, &programs, capacity, draws, seed, |p| turnover_bound_with(p, others, &latency))?;
        // And what the two kernels can hold beside a block (any of the 12 blocks may be
        // of either kernel), both classes over one set.
        let beside = beside_of(&[(&programs[0], 12), (&programs[1], 12)], w, capacity, room);
        within_bound(Arbitration::OldestFirst, &programs, capacity, draws, seed, |p| turnover_bound_beside(p, &beside, &latency))?;
    }

    /// Under the queue-order rule (same-cycle arrivals ranked by arrival order), with
    /// latencies drawn at random in their ranges: [`FIRST_JOB`] block of the first
    /// program, then eleven of the second (arriving as they fit, often in the same cycle
    /// as the first's). The first's block is bounded with no other block beside it (rule
    /// X1: the second's blocks are all younger); one of the second with both. Ranking
    /// same-cycle arrivals the other way round fails it (seeds 1-3). The exhaustive check
    /// of X1 is in `tests/it/turnover.rs`; this one adds latencies above 1 and barriers.
    #[test]
    fn queue_order_turnover_leaves_later_kernels_out(k1 in kernel_with_barriers(), k2 in kernel_with_barriers(), w in 1i64..4,
                                                     room in 2usize..4, sl in 1i64..3, sc in 1i64..5,
                                                     (l, dl, c, dc) in (1u64..6, 0u64..20, 1u64..4, 0u64..3), seed: u64) {
        let programs = two_programs([&k1, &k2], w, (sl, sc));
        let capacity = room * w as usize;
        let latency = latencies((l, dl), (c, dc));
        let draws = [(l, l + dl), (c, c + dc)];
        let first = beside_of(&[(&programs[0], FIRST_JOB as u64 - 1)], w, capacity, room);
        let both = beside_of(&[(&programs[0], FIRST_JOB as u64), (&programs[1], 11 - FIRST_JOB as u64)], w, capacity, room);
        within_bound(Arbitration::QueueOrder, &programs, capacity, draws, seed, |p| {
            let own = if std::ptr::eq(p, &programs[0]) { &first } else { &both };
            turnover_bound_beside(p, own, &latency)
        })?;
    }

    /// Under round robin (one rotation per class over the SM's warp slots), with
    /// latencies drawn at random in their ranges, no block takes longer than
    /// `lrr_turnover_bound_with`, whatever the other kernels' lengths.
    #[test]
    fn round_robin_turnover_never_exceeds_its_bound(k1 in kernel_with_barriers(), k2 in kernel_with_barriers(), w in 1i64..4,
                                                    room in 1usize..5, sl in 1i64..3, sc in 1i64..5,
                                                    (l, dl, c, dc) in (1u64..6, 0u64..20, 1u64..4, 0u64..3), seed: u64) {
        let programs = two_programs([&k1, &k2], w, (sl, sc));
        let capacity = room * w as usize;
        let latency = latencies((l, dl), (c, dc));
        let draws = if seed % 2 == 0 { [(l, l + dl), (c, c + dc)] } else { [(l + dl, l + dl), (c + dc, c + dc)] };
        within_bound(Arbitration::RoundRobin, &programs, capacity, draws, seed, |p| lrr_turnover_bound_with(p, capacity as u64, &latency))?;
    }
}
