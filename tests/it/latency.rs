//! `makespan simulate` (latencies and deterministic schedulers) against an independent
//! cycle-level simulator written from `docs/latency.md` alone: it shares no code with the
//! library's run (its own expansion of sigma = 1/n, its own priority rule per scheduler,
//! barriers released after each cycle), and the two must agree cycle for cycle. At
//! latency 1 every simulated schedule is one the paper's adversary may pick: it passes
//! the paper's checker and stays within the exact worst case.

use gpu_makespan::model::checker::check_blocks;
use gpu_makespan::model::simulate::latency_horizon;
use gpu_makespan::{Blocks, Instance, Latencies, LatencyRange, Program, Scheduler, SmCounts, SolveOptions};
use proptest::prelude::*;

/// One random case: phases (instruction strings), warps per block, blocks, the SM as
/// hardware counts (sigma 1/2, 1, 2 per class), latencies and the scheduler.
#[derive(Debug, Clone)]
struct Case {
    phases: Vec<String>,
    warps: u32,
    blocks: u32,
    units: (i64, i64),
    latency: (u32, u32),
    scheduler: Scheduler,
}

fn case() -> impl Strategy<Value = Case> {
    let phase = proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=4).prop_map(|v| v.into_iter().collect::<String>());
    let units = prop_oneof![Just(16i64), Just(32), Just(64)];
    let scheduler = prop_oneof![Just(Scheduler::Gto), Just(Scheduler::Lrr), Just(Scheduler::OldestFirst)];
    (proptest::collection::vec(phase, 1..=3), 1u32..=5, 1u32..=3, (units.clone(), units), (1u32..=30, 1u32..=6), scheduler)
        .prop_map(|(phases, warps, blocks, units, latency, scheduler)| Case { phases, warps, blocks, units, latency, scheduler })
}

fn blocks_of(c: &Case) -> Blocks {
    let sm = SmCounts { load_store_units: c.units.0, cuda_cores: c.units.1, warp_size: 32 };
    let program = Program::build(&c.phases.join("|"), |k| Instance::from_counts(k, c.warps as i64, &sm)).unwrap();
    Blocks::new(program, c.blocks)
}

fn latencies(l: u32, c: u32) -> Latencies {
    let fixed = |n: u32| LatencyRange::new(n as i64, n as i64, "latency").unwrap();
    Latencies { l: fixed(l), c: fixed(c) }
}

/// The reference simulator. Instructions are `(is_load, latency)` after its own
/// expansion: with `units` below 32 an instruction takes `32 / units` issue cycles (the
/// copies before the last have latency 1), above 32 the class issues `units / 32` per
/// cycle. Returns each warp's issue cycles.
fn reference(c: &Case) -> Vec<Vec<u64>> {
    let copies = |units: i64| if units < 32 { (32 / units) as usize } else { 1 };
    let per_cycle = |units: i64| if units > 32 { (units / 32) as usize } else { 1 };
    let mut program: Vec<(bool, u32)> = Vec::new();
    let mut barriers_at = Vec::new();
    for (p, phase) in c.phases.iter().enumerate() {
        for ch in phase.chars() {
            let load = ch == 'L';
            let (units, lat) = if load { (c.units.0, c.latency.0) } else { (c.units.1, c.latency.1) };
            let n = copies(units);
            program.extend((0..n).map(|k| (load, if k + 1 == n { lat } else { 1 })));
        }
        if p + 1 < c.phases.len() {
            barriers_at.push(program.len());
        }
    }
    let (per_block, n) = (c.warps as usize, (c.warps * c.blocks) as usize);
    let cap = [per_cycle(c.units.0), per_cycle(c.units.1)];
    let mut next = vec![0usize; n];
    let mut earliest = vec![1u64; n];
    let mut parked = vec![false; n];
    let mut barrier_done = vec![0u64; c.blocks as usize];
    let mut out = vec![Vec::new(); n];
    // GTO's greedy warp; LRR's first warp, per class (0: L, 1: C).
    let (mut greedy, mut start) = (0usize, [0usize; 2]);
    let mut t = 1u64;
    while next.iter().any(|&i| i < program.len()) {
        assert!(t < 10_000_000, "the reference does not end");
        let class = |w: usize| usize::from(!program[next[w]].0);
        let rank = |w: usize| match c.scheduler {
            Scheduler::Gto => (w != greedy, w),
            Scheduler::Lrr => (false, (w + n - start[class(w)]) % n),
            _ => (false, w),
        };
        let mut ready: Vec<usize> = (0..n).filter(|&w| next[w] < program.len() && !parked[w] && earliest[w] <= t).collect();
        ready.sort_by_key(|&w| rank(w));
        let mut used = [0usize; 2];
        let mut issued = Vec::new();
        let mut last = [None; 2];
        for w in ready {
            let (load, lat) = program[next[w]];
            let class = usize::from(!load);
            if used[class] == cap[class] {
                continue;
            }
            used[class] += 1;
            issued.push(w);
            last[class] = Some(w);
            out[w].push(t);
            next[w] += 1;
            earliest[w] = t + lat as u64;
            if barriers_at.contains(&next[w]) {
                parked[w] = true;
                barrier_done[w / per_block] = barrier_done[w / per_block].max(t + lat as u64);
            }
        }
        for (b, done) in barrier_done.iter_mut().enumerate() {
            let warps = b * per_block..(b + 1) * per_block;
            if warps.clone().all(|w| parked[w]) {
                for w in warps {
                    parked[w] = false;
                    earliest[w] = *done;
                }
                *done = 0;
            }
        }
        if let Some(&first) = issued.first() {
            greedy = first;
        }
        for (start, last) in start.iter_mut().zip(last) {
            if let Some(last) = last {
                *start = (last + 1) % n;
            }
        }
        t += 1;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, .. ProptestConfig::default() })]

    /// `simulate` issues every instruction in the cycle the reference does, and its
    /// makespan is the reference's last result.
    #[test]
    fn simulate_agrees_with_the_reference_cycle_for_cycle(c in case()) {
        let run = blocks_of(&c).simulate(&latencies(c.latency.0, c.latency.1), c.scheduler).unwrap();
        let expected = reference(&c);
        prop_assert_eq!(&run.schedule.cycles, &expected, "{:?}", c);
        let last = run.schedule.cycles.iter().zip(&run.latencies).map(|(r, l)| r[r.len() - 1] + l[r.len() - 1] as u64 - 1).max().unwrap();
        prop_assert_eq!(run.makespan, last);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// At latency 1 a deterministic scheduler is one of the paper's work-conserving
    /// choices: its schedule passes the paper's checker with the same makespan, which
    /// the exact worst case bounds from above.
    #[test]
    fn at_latency_one_a_scheduler_is_one_of_the_adversarys_choices(mut c in case()) {
        c.warps = c.warps.min(3);
        c.blocks = c.blocks.min(2);
        let blocks = blocks_of(&c);
        let run = blocks.simulate(&Latencies::ONE, c.scheduler).unwrap();
        prop_assert_eq!(check_blocks(&blocks, &run.schedule), Ok(run.makespan));
        let worst = gpu_makespan::solve_kernel(&blocks, &SolveOptions::default()).unwrap().interval();
        prop_assert!(worst.exact() && run.makespan <= worst.upper(), "{:?}: {} above {}", c, run.makespan, worst);
    }
}

/// Hand-computed runs: a load's latency hides behind the other warps under every
/// scheduler, and the schedulers differ where they should.
#[test]
fn hand_computed_runs() {
    let blocks = |k: &str, w: i64| Blocks::from(Program::build(k, |p| Instance::new(p, w, 1, 1)).unwrap());
    // LC, 2 warps, L latency 5: L at 1 and 2, C at 6 and 7.
    for s in [Scheduler::Gto, Scheduler::Lrr, Scheduler::OldestFirst] {
        let run = blocks("LC", 2).simulate(&latencies(5, 1), s).unwrap();
        assert_eq!(run.schedule.cycles, vec![vec![1, 6], vec![2, 7]], "{s}");
    }
    // CC on 2 warps, sigma_C = 1, latency 1: GTO and oldest-first run warp 1 through
    // (1, 2 then 3, 4); LRR alternates (1, 3 and 2, 4).
    let run = |s| blocks("CC", 2).simulate(&Latencies::ONE, s).unwrap().schedule.cycles;
    assert_eq!(run(Scheduler::Gto), vec![vec![1, 2], vec![3, 4]]);
    assert_eq!(run(Scheduler::OldestFirst), vec![vec![1, 2], vec![3, 4]]);
    assert_eq!(run(Scheduler::Lrr), vec![vec![1, 3], vec![2, 4]]);
    // C latency 2, CC on 2 warps: GTO's greedy warp 1 stalls, warp 2 issues and becomes
    // greedy, stalls in turn, and warp 1 issues: 1, 3 / 2, 4.
    let run = |s| blocks("CC", 2).simulate(&latencies(1, 2), s).unwrap().schedule.cycles;
    assert_eq!(run(Scheduler::Gto), vec![vec![1, 3], vec![2, 4]]);
}

/// The brute force of the worst case with latency ranges: every work-conserving choice
/// (exactly `min(sigma_X, ready_X)` `X` issues per cycle, any such subset) and every
/// latency in its range for every issue, by a memoised search over per-warp states
/// written from `docs/latency.md` (no code of the library's). Sigma is integral here.
/// A warp in the brute force: next instruction, cycles until ready (or until its last
/// result is there), parked at a barrier.
type WarpState = (usize, u32, bool);

struct Brute {
    /// Per instruction of a warp: (is a load, shortest latency, longest latency).
    program: Vec<(bool, u32, u32)>,
    /// Instruction counts after which a barrier holds the block.
    barriers: Vec<usize>,
    per_block: usize,
    sigma: [usize; 2],
    memo: std::collections::HashMap<(Vec<WarpState>, Vec<u32>), u64>,
}

impl Brute {
    /// Cycles from now until the last result is there. `warps[w]` = (next instruction,
    /// cycles until ready or until its last result is there, parked at a barrier);
    /// `done[b]` = cycles until the last result of block `b`'s parked warps is there.
    fn worst(&mut self, warps: Vec<WarpState>, done: Vec<u32>) -> u64 {
        let len = self.program.len();
        if warps.iter().all(|&(i, _, _)| i == len) {
            return warps.iter().map(|&(_, w, _)| w as u64).max().unwrap_or(0);
        }
        if let Some(&v) = self.memo.get(&(warps.clone(), done.clone())) {
            return v;
        }
        let ready = |x: usize| -> Vec<usize> {
            (0..warps.len())
                .filter(|&w| warps[w].0 < len && warps[w].1 == 0 && !warps[w].2 && usize::from(!self.program[warps[w].0].0) == x)
                .collect()
        };
        let (rl, rc) = (ready(0), ready(1));
        let mut best = 0;
        for l in subsets(&rl, self.sigma[0].min(rl.len())) {
            for c in subsets(&rc, self.sigma[1].min(rc.len())) {
                let issued: Vec<usize> = l.iter().chain(&c).copied().collect();
                for lats in latency_choices(&issued.iter().map(|&w| self.program[warps[w].0]).collect::<Vec<_>>()) {
                    let (next, next_done) = self.step(&warps, &done, &issued, &lats);
                    best = best.max(1 + self.worst(next, next_done));
                }
            }
        }
        self.memo.insert((warps, done), best);
        best
    }

    /// The state at the next cycle after `issued` issue with latencies `lats`.
    fn step(&self, warps: &[WarpState], done: &[u32], issued: &[usize], lats: &[u32]) -> (Vec<WarpState>, Vec<u32>) {
        let mut next: Vec<WarpState> = warps.iter().map(|&(i, w, p)| (i, w.saturating_sub(1), p)).collect();
        let mut next_done: Vec<u32> = done.iter().map(|d| d.saturating_sub(1)).collect();
        for (&w, &lat) in issued.iter().zip(lats) {
            next[w] = (warps[w].0 + 1, lat - 1, false);
            if self.barriers.contains(&next[w].0) {
                next[w].2 = true;
                next_done[w / self.per_block] = next_done[w / self.per_block].max(lat - 1);
            }
        }
        for (b, d) in next_done.iter_mut().enumerate() {
            let block = b * self.per_block..(b + 1) * self.per_block;
            if block.clone().all(|w| next[w].2) {
                block.for_each(|w| next[w] = (next[w].0, *d, false));
                *d = 0;
            }
        }
        (next, next_done)
    }
}

/// Every `k`-subset of `items`.
fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << items.len())
        .filter(|m| m.count_ones() as usize == k)
        .map(|m| (0..items.len()).filter(|&i| m >> i & 1 == 1).map(|i| items[i]).collect())
        .collect()
}

/// Every choice of one latency in its range per issued instruction.
fn latency_choices(ranges: &[(bool, u32, u32)]) -> Vec<Vec<u32>> {
    ranges.iter().fold(vec![Vec::new()], |acc, &(_, lo, hi)| {
        acc.iter().flat_map(|a| (lo..=hi).map(move |l| [a.clone(), vec![l]].concat())).collect()
    })
}

/// A tiny random case for the brute force: 1-2 phases of 1-3 instructions, 1-2 warps per
/// block, 1-2 blocks, sigma 1-2, L latency in a range within 1-4, C within 1-2, a scheduler.
/// Phases, warps per block, blocks, sigmas, (L min, L spread, C min, C spread), scheduler.
type Tiny = (Vec<String>, u32, u32, (i64, i64), (u32, u32, u32, u32), Scheduler);

fn tiny() -> impl Strategy<Value = Tiny> {
    let phase = proptest::collection::vec(prop_oneof![Just('L'), Just('C')], 1..=3).prop_map(|v| v.into_iter().collect::<String>());
    let scheduler = prop_oneof![Just(Scheduler::Any), Just(Scheduler::Gto), Just(Scheduler::Lrr), Just(Scheduler::OldestFirst)];
    (proptest::collection::vec(phase, 1..=2), 1u32..=2, 1u32..=2, (1i64..=2, 1i64..=2), (1u32..=4, 0u32..=2, 1u32..=2, 0u32..=1), scheduler)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// The brute force's worst case over every work-conserving choice and every latency
    /// in the ranges lies between the longest run `simulate` finds (a schedule the
    /// adversary may pick) and the latency horizon (the proven upper end).
    #[test]
    fn the_interval_holds_the_brute_force_worst_case((phases, warps, blocks, sigma, (l, dl, c, dc), scheduler) in tiny()) {
        let program = Program::build(&phases.join("|"), |k| Instance::new(k, warps as i64, sigma.0, sigma.1)).unwrap();
        let b = Blocks::new(program, blocks);
        let range = |lo: u32, d: u32| LatencyRange::new(lo as i64, (lo + d) as i64, "latency").unwrap();
        let latency = Latencies { l: range(l, dl), c: range(c, dc) };
        let run = b.simulate(&latency, scheduler).unwrap();
        let mut program = Vec::new();
        let mut barriers = Vec::new();
        for (p, phase) in phases.iter().enumerate() {
            program.extend(phase.chars().map(|ch| if ch == 'L' { (true, l, l + dl) } else { (false, c, c + dc) }));
            if p + 1 < phases.len() {
                barriers.push(program.len());
            }
        }
        let n = (warps * blocks) as usize;
        let mut brute = Brute { program, barriers, per_block: warps as usize, sigma: [sigma.0 as usize, sigma.1 as usize], memo: Default::default() };
        let truth = brute.worst(vec![(0, 0, false); n], vec![0; blocks as usize]);
        // The run is one schedule the adversary may pick; the horizon bounds them all.
        let horizon = latency_horizon(&b, &latency);
        prop_assert!(run.makespan <= truth && truth <= horizon, "{:?} {} {:?}: truth {} outside [{}, {}]", phases, warps, latency, truth, run.makespan, horizon);
        // What is open (`any`, a range) is reported as that interval; a deterministic
        // scheduler with fixed latencies as its one run.
        let open = scheduler == Scheduler::Any || dl + dc > 0;
        prop_assert!(run.interval.upper() <= horizon && (open || run.interval.exact()));
        // Over every scheduler, the searched interval holds the truth (exact with fixed
        // latencies, where the search completes).
        if scheduler == Scheduler::Any {
            let within = b.simulate_within(&latency, scheduler, &SolveOptions::default()).unwrap();
            prop_assert!(within.interval.lower() <= truth && truth <= within.interval.upper(), "{:?}: truth {} outside {}", phases, truth, within.interval);
            prop_assert!(within.interval.exact(), "{:?}: {}", phases, within.interval);
        }
        // The block search (waiting stages, skipped by a shorter latency) is exact: the
        // brute force's value, with fixed latencies and with ranges.
        let sol = b.solve_with(&latency, &SolveOptions::default()).unwrap();
        prop_assert!(sol.exact() && sol.interval.upper() == truth, "{:?} {} {:?}: search {} brute force {}", phases, warps, latency, sol.interval, truth);
    }
}

/// `makespan simulate` on the real binary: the table, the JSON contract, the chart, and
/// files with latencies refused by every command that computes the paper's model.
#[test]
fn simulate_on_the_command_line() {
    use crate::common::cli::{assert_stdout, input_error, json_of, temp_file};
    assert_stdout(
        &["simulate", "--kernel", "LC", "--warps", "2", "--latency-l", "5"],
        &["scheduler    gto", "makespan            7  [exact"],
    );
    // Over every scheduler and every L latency in 5..400: exact by the block search.
    let v = json_of(&["simulate", "--kernel", "LC", "--warps", "2", "--latency-l", "5..400", "--scheduler", "any", "--schedule"]);
    assert_eq!(
        (v["interval"]["lower"].as_u64(), v["interval"]["upper"].as_u64(), v["interval"]["exact"].as_bool()),
        (Some(402), Some(402), Some(true))
    );
    // A deterministic scheduler over the range: the runs and the latency horizon.
    let g = json_of(&["simulate", "--kernel", "LC", "--warps", "2", "--latency-l", "5..400", "--scheduler", "gto"]);
    assert_eq!((g["interval"]["lower"].as_u64(), g["interval"]["upper"].as_u64()), (Some(402), Some(403)));
    assert_eq!(
        (v["makespan"].as_u64(), v["run_latency"]["L"]["max"].as_u64(), v["scheduler"].as_str()),
        (Some(402), Some(400), Some("any"))
    );
    assert_eq!(v["schedule"].as_array().map(Vec::len), Some(4));
    assert_stdout(
        &["simulate", "--kernel", "L|C", "--warps", "2", "--latency-l", "4", "--scheduler", "oldest-first", "--schedule"],
        &["warp 1 L---.C.", "warp 2 .L---.C"],
    );
    input_error(&["simulate", "--kernel", "LC", "--warps", "2", "--latency-l", "0"], "--latency-l");
    input_error(&["simulate", "--kernel", "LC", "--warps", "2", "--scheduler", "fifo"], "--scheduler");
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "lat.toml", "kernel = \"LC\"\nwarps = 2\nlatency = { L = [5, 400], C = 4 }\nscheduler = \"lrr\"\n");
    assert_stdout(&["simulate", &file], &["scheduler    lrr", "worst case   [405, 406]"]);
    for command in ["solve", "bound", "approx"] {
        let args: Vec<&str> = if command == "approx" { vec![command, &file, "--x", "1"] } else { vec![command, &file] };
        input_error(&args, "latency");
    }
    let file = temp_file(&dir, "gto.toml", "kernel = \"LC\"\nwarps = 2\nscheduler = \"gto\"\n");
    input_error(&["solve", &file], "scheduler");
    // `any` with fixed latencies, from the file (not replaced by the default GTO): the
    // exact worst case by the block search.
    let file = temp_file(&dir, "any.toml", "kernel = \"LCLC|CC\"\nwarps = 4\nscheduler = \"any\"\nlatency = { L = 20, C = 4 }\n");
    assert_stdout(
        &["simulate", &file],
        &["scheduler    any", "makespan           62  [exact worst case over every work-conserving scheduler"],
    );
}

/// `rta` with `gpu.latency`: every C computed from instructions says which model it rests
/// on; with latencies the turnover bound grows by each instruction's longest wait, and
/// the isolated C is the latency horizon of one block.
#[test]
fn rta_states_the_latency_model_of_every_c() {
    use gpu_makespan::rta::{analyse, taskset, Timeline};
    let set = |gpu: &str| {
        format!(
            "unit = \"us\"\n[gpu]\ncycle_time = 1\nwarp_arbitration = \"oldest-first\"\n{gpu}\n[[kernels]]\nname = \"K\"\nperiod = 100000\ninstructions = \"LLC|CC\"\nblocks = 1\nthreads_per_block = 64\n[[kernels]]\nname = \"I\"\nperiod = 100000\ninstructions = \"LC\"\nblocks = 1\nthreads_per_block = 32\ncontention = \"isolated\"\n"
        )
    };
    let c = |gpu: &str| {
        let w = taskset::from_text(&set(gpu), "set.toml", None, &SolveOptions::default(), None).unwrap();
        let rep = analyse(&w, Timeline::Omitted).unwrap();
        rep.kernels.iter().map(|k| (k.in_unit(k.wcet) as u64, k.wcet_source.clone(), rep.assumptions.join("\n"))).collect::<Vec<_>>()
    };
    let zero = c("");
    assert!(
        zero.iter().all(|(_, source, assumes)| source.contains("no latencies") && assumes.contains("no latencies: the C of K, I")),
        "{zero:?}"
    );
    let lat = c("latency = { L = [5, 400], C = 4 }");
    assert!(
        lat.iter()
            .all(|(_, source, assumes)| source.contains("with instruction latencies") && assumes.contains("latencies: the C of K, I")),
        "{lat:?}"
    );
    // K: 2 warps, TX2 SM (sigma_L 1, sigma_C 4): LLC|CC waits 399 + 399 + 3 + 3 + 3 more.
    assert_eq!(lat[0].0, zero[0].0 + 399 * 2 + 3 * 3);
    // I alone: 1 warp of LC: the latency horizon 2 + 399 + 3.
    assert_eq!(lat[1].0, 2 + 399 + 3);
}

/// `rta` under round-robin arbitration (`gpu.warp_arbitration = "round-robin"`, also read as `"lrr"`): a block's C
/// counts the SM's warp slots, not how long the other kernels are, and holds beside a
/// kernel given by `wcet`; the report states the assumption.
#[test]
fn rta_under_round_robin_counts_slots_not_lengths() {
    use gpu_makespan::rta::{analyse, taskset, Timeline};
    let c = |other: &str| {
        let text = format!(
            "unit = \"us\"\n[gpu]\ncycle_time = 1\nwarp_arbitration = \"lrr\"\nlatency = {{ L = [5, 400], C = 4 }}\n[[kernels]]\nname = \"K\"\nperiod = 1000000\ninstructions = \"LLC|CC\"\nblocks = 1\nthreads_per_block = 64\n[[kernels]]\nname = \"O\"\nperiod = 1000000\n{other}\nblocks = 4\nthreads_per_block = 1024\n"
        );
        let w = taskset::from_text(&text, "set.toml", None, &SolveOptions::default(), None).unwrap();
        let rep = analyse(&w, Timeline::Omitted).unwrap();
        let k = &rep.kernels[0];
        assert!(!k.wcet_optimistic && k.wcet_source.contains("round-robin warp arbitration"), "{}", k.wcet_source);
        assert!(rep.assumptions.iter().any(|a| a.starts_with("warp arbitration round robin")), "{:?}", rep.assumptions);
        k.in_unit(k.wcet) as u64
    };
    // K: 2 warps on the TX2 SM (64 slots, sigma_L 1, sigma_C 4): I = 5 (2 L, 3 C);
    // each L waits for 63 others, each C for floor(63 / 4) = 15; latency waits
    // 2 x 399 + 3 x 3.
    let expected = 5 + 2 * 63 + 3 * 15 + 2 * 399 + 3 * 3;
    assert_eq!(c("instructions = \"LC\""), expected);
    assert_eq!(c(&format!("instructions = \"{}\"", "LC".repeat(500))), expected);
    assert_eq!(c("wcet = 5000"), expected);
}

/// The six real kernels under round robin with the TX2 profile's published latencies
/// (`instances/rta-real-kernels-lrr.toml`): every C bounds the kernel's own full SM (8
/// blocks of 8 warps starting together, `simulate --scheduler lrr` at the longest
/// latencies: one arrival pattern the bound covers), and saxpy's is the hand sum.
#[test]
fn real_kernels_under_round_robin_bound_their_own_full_sm_run() {
    use crate::common::cli::json_of;
    let rep = json_of(&["rta", "instances/rta-real-kernels-lrr.toml"]);
    assert_eq!(rep["schedulable"], true);
    for k in rep["kernels"].as_array().unwrap() {
        let name = k["name"].as_str().unwrap();
        let source = k["wcet_source"].as_str().unwrap();
        let cycles: u64 = source.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(k["wcet_model"], "latencies", "{name}");
        let file = format!("instances/real/{}.toml", if name == "gemm" { "gemm-tiled" } else { name });
        let own = json_of(&[
            "simulate",
            &file,
            "--warps",
            "64",
            "--warps-per-block",
            "8",
            "--scheduler",
            "lrr",
            "--latency-l",
            "2750",
            "--latency-c",
            "14",
        ]);
        let run = own["makespan"].as_u64().unwrap();
        assert!(run <= cycles, "{name}: C {cycles} below its own full SM's run {run}");
        if name == "saxpy" {
            // CCCCCCCCCLCCLCLC: I = 16 (3 L, 13 C); 63 other slots, sigma_L 1, sigma_C 4.
            assert_eq!(cycles, 16 + 3 * 63 + 13 * 15 + 3 * 2749 + 13 * 13);
        }
    }
}

/// The TX2 latency profile (`--gpu instances/gpu-tx2-latencies.toml`) on a task set in
/// microseconds: the task set keeps a `[gpu]` of its clock only (a profile cannot carry
/// it); any other field there is still refused beside `--gpu`.
#[test]
fn the_latency_profile_serves_a_task_set_with_its_own_clock() {
    use crate::common::cli::{input_error, json_of, temp_file};
    let dir = tempfile::tempdir().unwrap();
    let kernels = "[[kernels]]\nname = \"K\"\nperiod = 1000\ninstructions = \"LLCC|CL\"\nblocks = 8\nthreads_per_block = 128\n";
    let set = temp_file(&dir, "set.toml", &format!("unit = \"us\"\n[gpu]\nclock = \"1.3 GHz\"\n{kernels}"));
    let v = json_of(&["rta", &set, "--gpu", "instances/gpu-tx2-latencies.toml"]);
    let k = &v["kernels"][0];
    assert_eq!(k["wcet_model"], "latencies");
    assert_eq!(k["wcet_optimistic"], false);
    let source = k["wcet_source"].as_str().unwrap();
    assert!(source.contains("round-robin warp arbitration") && source.contains("L = 23..2750"), "{source}");
    let other = temp_file(&dir, "other.toml", &format!("unit = \"us\"\n[gpu]\nclock = \"1.3 GHz\"\nmax_threads = 4096\n{kernels}"));
    input_error(&["rta", &other, "--gpu", "instances/gpu-tx2-latencies.toml"], "--gpu");
}
