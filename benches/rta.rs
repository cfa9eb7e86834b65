//! Speed target: the list schedule of 100 000 kernels of up to 64 blocks each
//! in under 1 second. Run with `cargo bench --bench rta`.

use criterion::{criterion_group, criterion_main, Criterion};
use gpu_makespan::rta::analysis::Task;
use gpu_makespan::rta::list::{list_schedule, simulate_slots};
use std::hint::black_box;
use std::time::Duration;

fn task_set(n: usize) -> Vec<Task> {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|i| {
            let wcet = (1 + next() % 50) as u128;
            Task::given(format!("K{i}"), 1_000_000_000, wcet, 1 + next() % 64, 256, i as u128 * 3)
        })
        .collect()
}

fn rta(c: &mut Criterion) {
    let ks = task_set(100_000);
    let mut g = c.benchmark_group("rta_100k_kernels");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("list_schedule", |b| b.iter(|| black_box(list_schedule(&ks, 16).len())));
    g.bench_function("slot_simulation", |b| b.iter(|| black_box(simulate_slots(&ks, &vec![16; ks.len()], true).0.len())));
    g.finish();
}

criterion_group!(benches, rta);
criterion_main!(benches);
