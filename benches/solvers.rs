//! Speed targets: `LLCLL`, sigma 1, exact for W = 64 (target: under 1 s,
//! single thread); random 8-instruction kernels with W = 16 (target: under 1 s each);
//! the 12-instruction kernel as W grows; ILP short vs long constraint forms; small
//! instances answered by the cheap bounds and rollouts (`CCLCLLLL` W = 12: under 20 ms).
//! Run with `cargo bench --bench solvers`; figures are quoted in README.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gpu_makespan::exact::ilp::{self, ConstraintForm, IlpOptions};
use gpu_makespan::exact::search::{solve, SearchLimits};
use gpu_makespan::model::bounds::safe_horizon;
use gpu_makespan::model::instance::Instance;
use std::hint::black_box;
use std::time::Duration;

fn exact(inst: &Instance) -> u64 {
    let out = solve(inst, SearchLimits::default()).unwrap();
    assert!(out.exact());
    out.lower_bound()
}

/// One benchmark group: exact search of `kernel` (sigma 1) for each W in `warps`.
fn exact_group(c: &mut Criterion, kernel: &str, warps: &[i64]) {
    let mut g = c.benchmark_group(format!("search_{kernel}"));
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for &w in warps {
        let inst = Instance::new(kernel, w, 1, 1).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(w), &inst, |b, i| b.iter(|| black_box(exact(i))));
    }
    g.finish();
}

fn search_llcll(c: &mut Criterion) {
    exact_group(c, "LLCLL", &[8, 16, 32, 64]);
}

/// 12-instruction kernels: without CC/LL pairs (queue bound tight) and with both.
fn search_12(c: &mut Criterion) {
    exact_group(c, "LLCLLCLLCLLC", &[8, 16, 32, 64]);
    exact_group(c, "LLCCLLCLLCCL", &[4, 8, 12]);
}

fn search_random8(c: &mut Criterion) {
    let mut g = c.benchmark_group("search_random8_W16");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    // Fixed pseudo-random 8-instruction kernels (xorshift), sigma 1.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..4 {
        let k: String = (0..8)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x & 1 == 0 {
                    'L'
                } else {
                    'C'
                }
            })
            .collect();
        let inst = Instance::new(&k, 16, 1, 1).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(&k), &inst, |b, i| b.iter(|| black_box(exact(i))));
    }
    g.finish();
}

fn ilp_forms(c: &mut Criterion) {
    let mut g = c.benchmark_group("ilp_LLCLL");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for w in [2, 3] {
        let inst = Instance::new("LLCLL", w, 1, 1).unwrap();
        for form in [ConstraintForm::Short, ConstraintForm::Long] {
            let opts =
                IlpOptions { form, horizon: safe_horizon(&inst), time_limit: None, symmetry_breaking: true, start: None, stop: None };
            g.bench_with_input(BenchmarkId::new(format!("{form:?}"), w), &opts, |b, o| {
                b.iter(|| black_box(ilp::solve(&inst, o).unwrap().makespan))
            });
        }
    }
    g.finish();
}

/// The parallel part of `approx` (the table of T^(y), y = 1..12) for W = 600 of a kernel
/// with CC and LL pairs: 1 thread vs 2 (all cores here).
fn approx_threads(c: &mut Criterion) {
    use gpu_makespan::exact::solve::SolveOptions;
    use gpu_makespan::experiments::approx::table;
    let inst = Instance::new("LLCLLCCL", 600, 1, 1).unwrap();
    let mut g = c.benchmark_group("approx_LLCLLCCL_W600_x12");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        g.bench_with_input(BenchmarkId::new("threads", threads), &threads, |b, _| {
            b.iter(|| {
                pool.install(|| black_box(table(&inst, &(1..=12).collect::<Vec<u32>>(), &SolveOptions::default(), &|| {}).unwrap().len()))
            })
        });
    }
    g.finish();
}

/// Small instances whose rollouts meet the cheap bounds: no expensive bound is built.
fn search_small(c: &mut Criterion) {
    exact_group(c, "CCLCLLLL", &[12]);
}

/// Several blocks with barriers: the exhaustive search over block states (issue 39),
/// two blocks of W = 2 and 3 warps of a real barrier phase pair (sigma 1/4).
fn blocks_search(c: &mut Criterion) {
    use gpu_makespan::model::blocks::Blocks;
    use gpu_makespan::model::program::Program;
    let mut g = c.benchmark_group("blocks_search");
    g.sample_size(10);
    for w in [2i64, 3] {
        let p = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |k| Instance::new(k, w, 1, 4)).unwrap();
        let b = Blocks::new(p, 2);
        g.bench_with_input(BenchmarkId::from_parameter(w), &b, |bench, b| {
            bench.iter(|| {
                gpu_makespan::exact::blocks::solve_blocks(b, &gpu_makespan::exact::solve::SolveOptions::default()).unwrap().interval.upper()
            })
        });
    }
    g.finish();
}

/// A full SM of blocks with barriers (issue 53): 8 blocks of 8 warps of the same phase
/// pair, the search capped at 20,000 states, so the time is the greedy and random
/// schedules' (the lower end) and the capped search's, and the idle bound's HiGHS run
/// beside them (about 7 s, the longest of the three); its interval is [476, 504].
fn blocks_full_sm(c: &mut Criterion) {
    use gpu_makespan::model::blocks::Blocks;
    use gpu_makespan::model::program::Program;
    let mut g = c.benchmark_group("blocks_full_sm");
    g.sample_size(10);
    let p = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |k| Instance::new(k, 8, 1, 4)).unwrap();
    let b = Blocks::new(p, 8);
    let opts = gpu_makespan::exact::solve::SolveOptions::default().with_max_states(20_000);
    g.bench_function("8x8", |bench| bench.iter(|| gpu_makespan::exact::blocks::solve_blocks(&b, &opts).unwrap().interval.lower()));
    g.finish();
}

/// `simulate` (issue 52): one GTO run of the real gemm kernel (279 instructions, 9
/// phases) at W = 8, 16, 32 warps with L latency 400 and C latency 4, and the worst case
/// over every scheduler and L in 5..400 (12 runs and the latency horizon) at W = 32.
fn simulate_latencies(c: &mut Criterion) {
    use gpu_makespan::{Blocks, Latencies, LatencyRange, Program, Scheduler};
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/instances/real/gemm-tiled.toml")).unwrap();
    let range = |lo: i64, hi: i64| LatencyRange::new(lo, hi, "latency").unwrap();
    let fixed = Latencies { l: range(400, 400), c: range(4, 4) };
    let mut g = c.benchmark_group("simulate");
    g.sample_size(10);
    for w in [8u32, 16, 32] {
        let b = Blocks::from(Program::from_toml(&text, "gemm").unwrap().with_warps(w));
        g.bench_with_input(BenchmarkId::new("gto", w), &b, |bench, b| bench.iter(|| b.simulate(&fixed, Scheduler::Gto).unwrap().makespan));
    }
    let b = Blocks::from(Program::from_toml(&text, "gemm").unwrap().with_warps(32));
    let open = Latencies { l: range(5, 400), c: range(4, 4) };
    g.bench_function("any-5..400/32", |bench| bench.iter(|| b.simulate(&open, Scheduler::Any).unwrap().interval.upper()));
    g.finish();
    // The exact worst case over every scheduler with fixed latencies (the block search
    // with waiting stages): saxpy, L latency 5, C latency 4, W = 8 and 12.
    let saxpy = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/instances/real/saxpy.toml")).unwrap();
    let short = Latencies { l: range(5, 5), c: range(4, 4) };
    let mut g = c.benchmark_group("solve_with_latency");
    g.sample_size(10);
    for w in [8u32, 12] {
        let b = Blocks::from(Program::from_toml(&saxpy, "saxpy").unwrap().with_warps(w));
        let opts = gpu_makespan::SolveOptions::default();
        g.bench_with_input(BenchmarkId::new("saxpy-L5", w), &b, |bench, b| {
            bench.iter(|| b.solve_with(&short, &opts).unwrap().interval.upper())
        });
    }
    g.finish();
}

/// The idle bound alone (issue 53, item 3): HiGHS on the window-profile programme of
/// 2 x 4 and 8 x 8 blocks of the same phase pair (84 and 504; 3.8 s and 7.4 s measured).
fn idle_bound(c: &mut Criterion) {
    use gpu_makespan::model::blocks::Blocks;
    use gpu_makespan::model::program::Program;
    let mut g = c.benchmark_group("idle_bound");
    g.sample_size(10);
    for (b, w) in [(2u32, 4i64), (8, 8)] {
        let p = Program::build("CCCCCCLCCCLLCCLCCCCC|LCCL", |k| Instance::new(k, w, 1, 4)).unwrap();
        let blocks = Blocks::new(p, b);
        g.bench_with_input(BenchmarkId::from_parameter(format!("{b}x{w}")), &blocks, |bench, blocks| {
            bench.iter(|| gpu_makespan::exact::idle_bound::idle_bound(blocks, None, &[]))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    simulate_latencies,
    idle_bound,
    blocks_search,
    blocks_full_sm,
    search_small,
    search_llcll,
    search_12,
    search_random8,
    ilp_forms,
    approx_threads
);
criterion_main!(benches);
