//! The benchmark suite (`instances/bench/`, seed 2026) as criterion groups:
//! what each part of a time-limited solve costs at real sizes. The targets are in
//! README.md ("makespan bench-suite"); `scripts/bench-suite.sh` gives the whole-solve
//! table (bounds, gap, seconds, memory). Run with `cargo bench --bench suite`.
//!
//! * `suite_root_bounds`: the closed forms and the per-state bounds at the start state,
//!   for every instance (up to 1024 instructions);
//! * `suite_rollouts`: the adversarial rollouts (4 rounds) that give the first incumbent;
//! * `suite_priority`: one priority-rule rollout (laggard-first ranks), the unit of the
//!   beam thread's local search over priorities, for every instance;
//! * `suite_beam16`: one beam of width 16 (the beam thread's first beam);
//! * `suite_tail_build`: building the tail bound (abstract queues, end-game DP), uncached;
//! * `suite_jam_build`: solving the jam automaton of the clipped bound for W = 16, 64,
//!   256 (sigma 4, every layer of warps up to W);
//! * `suite_end_game_build`: building the clipped bound with its exact end games (both
//!   automata and the DP over every state of few warps) for the TX2 kernels up to 32
//!   instructions, the ones whose end games fit;
//! * `suite_exact`: the exact search on the paper's kernels and the TX2 block;
//! * `suite_dense`: the dense programme (every state of `C(I + W, W)`) on one and two
//!   threads, on `tx2-0064`'s kernel at W = 5 and `tx2-0128`'s at W = 4;
//! * `real_start_state_bound`: `bound`'s start-state bound of the real kernels of
//!   `instances/real/` (every distinct barrier phase) at W = 8 and 64;
//! * `real_solve_W8`: the whole exact `solve` of the real kernels that are exact at W = 8.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
// The suite's generator is the binary's (`makespan bench-suite`); the benchmark reads the
// same file.
#[path = "../src/bin/makespan/bench_suite.rs"]
#[allow(dead_code, unused_imports)]
mod bench_suite;
use bench_suite::suite;
use gpu_makespan::budget::Budget;
use gpu_makespan::exact::dense;
use gpu_makespan::exact::heuristic::{beam::beam, priority, rollouts_until};
use gpu_makespan::exact::search::{solve, SearchLimits};
use gpu_makespan::model::bounds::safe_horizon;
use gpu_makespan::model::instance::Instance;
use gpu_makespan::state::transitions::Transitions;
use gpu_makespan::state_bounds::clipped::{Clipped, END_GAME_STATES};
use gpu_makespan::state_bounds::helpers::jam::Jam;
use gpu_makespan::state_bounds::{lower_bound, standard, tail::Tail, StateBound, Tables};
use std::hint::black_box;
use std::time::Duration;

/// The suite's instances with at most `max_len` instructions (after the transformation).
fn instances(max_len: usize) -> Vec<(String, Instance)> {
    suite(2026)
        .into_iter()
        .map(|b| (b.name.trim_end_matches(".toml").to_string(), Instance::from_toml(&b.text, &b.name).expect("the suite parses")))
        .filter(|(_, i)| i.len() <= max_len)
        .collect()
}

fn root_bounds(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_root_bounds");
    g.sample_size(10).measurement_time(Duration::from_secs(2));
    for (name, inst) in instances(usize::MAX) {
        let (t, bound, tables) = (Transitions::new(&inst), standard(&inst), Tables::new(&inst));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, _| {
            b.iter(|| black_box((bound.upper(&t.start()), lower_bound(&tables, &t.start()))))
        });
    }
    g.finish();
}

fn rollouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_rollouts");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for (name, inst) in instances(80) {
        let (t, bound) = (Transitions::new(&inst), standard(&inst));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, _| {
            b.iter(|| black_box(rollouts_until(&t, &bound, 4, 1, &Budget::default()).cycles()))
        });
    }
    g.finish();
}

fn priority_rollout(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_priority");
    g.sample_size(10).measurement_time(Duration::from_secs(2));
    for (name, inst) in instances(usize::MAX) {
        let t = Transitions::new(&inst);
        let rank: Vec<u32> = (0..inst.len() as u32).rev().collect();
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, _| {
            b.iter(|| black_box(priority::rollout(&t, &rank, false, &|| false).map(|r| r.0)))
        });
    }
    g.finish();
}

fn beam16(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_beam16");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, inst) in instances(80) {
        let (t, bound, tables) = (Transitions::new(&inst), standard(&inst), Tables::new(&inst));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, _| {
            b.iter(|| black_box(beam(&t, &bound, &tables, 16, 1, &|| false).map(|tr| tr.cycles())))
        });
    }
    g.finish();
}

fn tail_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_tail_build");
    g.sample_size(10).measurement_time(Duration::from_secs(2));
    for (name, inst) in instances(usize::MAX) {
        let (t, tables) = (Transitions::new(&inst), Tables::new(&inst));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, _| {
            b.iter(|| black_box(Tail::compute(&t, &tables).upper(&t.start())))
        });
    }
    g.finish();
}

fn jam_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_jam_build");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for warps in [16u32, 64, 256] {
        g.bench_with_input(BenchmarkId::from_parameter(warps), &warps, |b, &w| {
            b.iter(|| black_box(Jam::new(4, w).expect("sigma 4 converges").slack(w as u64, w as u64)))
        });
    }
    g.finish();
}

fn end_game_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_end_game_build");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, inst) in instances(32).into_iter().filter(|(_, i)| i.sigma_l == 1 && i.sigma_c > 1) {
        let (t, tables) = (Transitions::new(&inst), Tables::new(&inst));
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, _| {
            b.iter(|| black_box(Clipped::with_end_games_until(&t, &tables, END_GAME_STATES, &Budget::default()).upper(&t.start())))
        });
    }
    g.finish();
}

fn exact(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_exact");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for (name, inst) in instances(usize::MAX).into_iter().filter(|(n, _)| n.starts_with("paper-") || n == "tx2-block") {
        g.bench_with_input(BenchmarkId::from_parameter(&name), &inst, |b, i| {
            b.iter(|| black_box(solve(i, SearchLimits::default()).unwrap().lower_bound()))
        });
    }
    g.finish();
}

fn dense_programme(c: &mut Criterion) {
    let mut g = c.benchmark_group("suite_dense");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, inst) in instances(usize::MAX) {
        let warps = match name.as_str() {
            "tx2-0064" => 5,
            "tx2-0128" => 4,
            _ => continue,
        };
        let inst = inst.with_warps(warps);
        for threads in [1, 2] {
            let limits = dense::Limits { threads, ..dense::Limits::table(u64::MAX) };
            let id = BenchmarkId::new(format!("{name}_W{warps}"), format!("{threads}_threads"));
            g.bench_with_input(id, &inst, |b, i| {
                b.iter(|| black_box(dense::longest(i, safe_horizon(i), limits.clone()).unwrap().trace.cycles()))
            });
        }
    }
    g.finish();
}

/// The real kernels of `instances/real/` (the README's WCET table): names and files.
fn real_kernels() -> Vec<(String, std::path::PathBuf)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/real");
    let names = ["saxpy", "reduction", "reduction-sm75", "stencil", "transpose", "gemm-tiled", "histogram"];
    let samples = ["vectorAdd", "transposeNoBankConflicts", "matrixMulCUDA", "reduce4", "histogram256Kernel"];
    let paths = names.iter().map(|n| (n.to_string(), root.join(format!("{n}.toml"))));
    paths.chain(samples.iter().map(|n| (n.to_string(), root.join(format!("cuda-samples/{n}.toml"))))).collect()
}

/// A real kernel's file as one block of `w` warps on its SM (TX2: sigma_L 1, sigma_C 4),
/// as `solve FILE --warps w` reads it.
fn real_program(file: &std::path::Path, w: i64) -> gpu_makespan::model::program::Program {
    let source = gpu_makespan::model::source::InstanceSource { file: Some(file.to_path_buf()), warps: Some(w), ..Default::default() };
    source.load_program().expect("a valid instance file")
}

/// `bound` on the real kernels at W = 8 and 64: the start-state bound of every distinct
/// phase (the first sample builds the tail bound's end games, later ones reuse its
/// cache, as a second `bound` in one process would; the other bounds are built each
/// time).
fn real_bounds(c: &mut Criterion) {
    let mut g = c.benchmark_group("real_start_state_bound");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, file) in real_kernels() {
        for w in [8, 64] {
            let p = real_program(&file, w);
            g.bench_with_input(BenchmarkId::new(&name, w), &p, |b, p| {
                b.iter(|| black_box(p.distinct().0.into_iter().map(gpu_makespan::state_bounds::report::start_state_bound).sum::<u64>()))
            });
        }
    }
    g.finish();
}

/// `solve` of the real kernels that are exact at W = 8 within seconds (the others run to
/// their time limit: the table of `scripts/wcet-table.sh` measures them): wall-clock time
/// to the exact value.
fn real_solve_w8(c: &mut Criterion) {
    use gpu_makespan::exact::{phases::solve_phases, solve::SolveOptions};
    let mut g = c.benchmark_group("real_solve_W8");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    let exact_at_8 = ["saxpy", "reduction", "reduction-sm75", "stencil", "transpose", "vectorAdd", "transposeNoBankConflicts"];
    for (name, file) in real_kernels().into_iter().filter(|(n, _)| exact_at_8.contains(&n.as_str())) {
        let p = real_program(&file, 8);
        g.bench_with_input(BenchmarkId::from_parameter(&name), &p, |b, p| {
            b.iter(|| {
                let sol = solve_phases(p, &SolveOptions::default()).expect("solved");
                assert!(sol.exact());
                black_box(sol.upper_bound())
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    root_bounds,
    rollouts,
    priority_rollout,
    beam16,
    tail_build,
    jam_build,
    end_game_build,
    exact,
    dense_programme,
    real_bounds,
    real_solve_w8
);
criterion_main!(benches);
