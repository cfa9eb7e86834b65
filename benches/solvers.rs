//! Speed targets (issue 3): `LLCLL`, sigma 1, exact for W = 64 (target: under 1 s,
//! single thread); random 8-instruction kernels with W = 16 (target: under 1 s each);
//! the 12-instruction kernel as W grows; ILP short vs long constraint forms.
//! Run with `cargo bench --bench solvers`; figures are quoted in README.md.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gpu_makespan::bounds::safe_horizon;
use gpu_makespan::ilp::{self, ConstraintForm, IlpOptions};
use gpu_makespan::instance::Instance;
use gpu_makespan::search::{solve, SearchLimits};
use gpu_makespan::state::Model;
use std::hint::black_box;
use std::time::Duration;

fn exact(inst: &Instance) -> u64 {
    let m = Model::new(inst).unwrap();
    let out = solve(&m, SearchLimits::default());
    assert!(out.exact);
    out.makespan
}

fn search_llcll(c: &mut Criterion) {
    let mut g = c.benchmark_group("search_LLCLL");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for w in [8, 16, 32, 64] {
        let inst = Instance::new("LLCLL", w, 1, 1).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(w), &inst, |b, i| b.iter(|| black_box(exact(i))));
    }
    g.finish();
}

fn search_12(c: &mut Criterion) {
    let mut g = c.benchmark_group("search_LLCLLCLLCLLC");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for w in [4, 8, 12] {
        let inst = Instance::new("LLCLLCLLCLLC", w, 1, 1).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(w), &inst, |b, i| b.iter(|| black_box(exact(i))));
    }
    g.finish();
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
                if x & 1 == 0 { 'L' } else { 'C' }
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
    for w in [2, 3, 4] {
        let inst = Instance::new("LLCLL", w, 1, 1).unwrap();
        for form in [ConstraintForm::Short, ConstraintForm::Long] {
            let opts = IlpOptions { form, horizon: safe_horizon(&inst), time_limit: None, symmetry_breaking: true, start: None };
            g.bench_with_input(BenchmarkId::new(format!("{form:?}"), w), &opts, |b, o| {
                b.iter(|| black_box(ilp::solve(&inst, o).unwrap().makespan))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, search_llcll, search_12, search_random8, ilp_forms);
criterion_main!(benches);
