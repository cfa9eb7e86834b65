//! Speed targets: the list schedules of 100 000 kernels of up to 64 blocks each in
//! under 1 second each; every launch order of 8 tied kernels (40 320 orders, 992 blocks)
//! in under 2 seconds; the WATERS 2019 system (`makespan system`: read the AMALTHEA
//! model, 4 GPU tasks through the kernel RTA, 10 CPU tasks, 2 chains) in under 50 ms
//! (0.38 ms measured on the 2-core reference machine); a schedulable system of 30 000
//! tasks on 6 cores with contention (the analysis, the model already read) in under 1 s,
//! near-linear in the tasks (issue 55: 112 s before interferers and traffic were merged
//! by release pattern; 0.42 s measured).
//! Run with `cargo bench --bench rta`.

use criterion::{criterion_group, criterion_main, Criterion};
use gpu_makespan::rta::gpu::Platform;
use gpu_makespan::rta::jobs::sequence;
use gpu_makespan::rta::list::{finishes, list_schedule, simulate_slots};
use gpu_makespan::rta::queues::worst_over_orders;
use gpu_makespan::rta::time::{Scale, Ticks};
use gpu_makespan::rta::workload::{demands, Task, Timing, Workload};
use gpu_makespan::rta::workload::{Launch, Window};
use std::hint::black_box;
use std::time::Duration;

fn xorshift() -> impl FnMut() -> u64 {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

fn task_set(n: usize, tied: bool) -> Vec<Task> {
    let mut next = xorshift();
    let sizes = [64, 128, 256, 512, 1024];
    (0..n)
        .map(|i| {
            let wcet = (1 + next() % 50) as u128;
            let release = if tied { 0 } else { i as u128 * 3 };
            let blocks = if tied { 124 } else { 1 + next() % 64 };
            Task::given(
                format!("K{i}"),
                Timing { period: Ticks::new(1_000_000_000), wcet: Ticks::new(wcet), release: Ticks::new(release) },
                blocks,
                sizes[(next() % 5) as usize],
            )
        })
        .collect()
}

fn rta(c: &mut Criterion) {
    let ks: Vec<Task> = task_set(100_000, false).into_iter().map(|t| Task { threads_per_block: 256, ..t }).collect();
    let mut g = c.benchmark_group("rta_100k_kernels");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("list_schedule", |b| b.iter(|| black_box(list_schedule(&ks, 16).len())));
    g.bench_function("slot_simulation", |b| b.iter(|| black_box(simulate_slots(&ks, &vec![16; ks.len()], true).0.len())));
    let mixed = Workload { launch: Launch::FileOrder, ..Workload::new(task_set(100_000, false), Platform::TX2, Scale::default(), "t") };
    let seq = sequence(&mixed, &demands(&mixed).unwrap(), mixed.launch, Window::OneJob).unwrap();
    g.bench_function("running_blocks_mixed_sizes", |b| b.iter(|| black_box(finishes(&seq.jobs, &seq.classes, &mixed.platform).len())));
    g.finish();
    let tied = Workload::new(task_set(8, true), Platform::TX2, Scale::default(), "t");
    let seq = sequence(&tied, &demands(&tied).unwrap(), tied.launch, Window::OneJob).unwrap();
    let mut g = c.benchmark_group("rta_ties");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("every_order_of_8_kernels", |b| b.iter(|| black_box(worst_over_orders(&seq, &tied.platform).unwrap().finish.len())));
    g.finish();
}

fn system(c: &mut Criterion) {
    use gpu_makespan::system::{cpu::OffloadMode, read, report, toml_form};
    let text = std::fs::read_to_string("instances/amalthea/waters-challenge-2019.amxmi").unwrap();
    let chains = std::fs::read_to_string("instances/amalthea/waters-challenge-2019-chains.toml").unwrap();
    let opts = report::Options::default().with_communication(report::Paradigm::Implicit).with_offload(OffloadMode::Model);
    c.bench_function("system_waters_2019", |b| {
        b.iter(|| {
            let mut sys = read(&text, "waters").unwrap();
            sys.chains = toml_form::read_chains(&chains, "chains").unwrap();
            black_box(report::analyse(&sys, None, opts).unwrap().cores.len())
        })
    });
}

/// A schedulable TOML system of `n` tasks on 6 cores at about half load, periods from a
/// small set, each reading and writing a label, on a round-robin interconnect.
fn many_tasks(n: usize) -> String {
    let mut next = xorshift();
    let mut s: String = (0..6)
        .map(|c| format!("[[units]]\nname = \"Core{c}\"\nkind = \"A57\"\nfrequency = \"1 GHz\"\nread_latency = 10\nwrite_latency = 10\n"))
        .collect();
    s += "[[units]]\nname = \"GPU\"\nkind = \"GPU_def\"\ngpu = true\nfrequency = \"1 GHz\"\n[labels]\n";
    s += &(0..50).map(|i| format!("l{i} = 256\n")).collect::<String>();
    let periods = [5u64, 10, 20, 50, 100, 200, 1000];
    for i in 0..n {
        let p = periods[(next() % periods.len() as u64) as usize];
        let ticks = (p * 1_000_000 / 2 / (n as u64 / 6)).max(1);
        s += &format!(
            "[[runnables]]\nname = \"r{i}\"\nticks = {{ A57 = [{}, {ticks}] }}\nreads = [\"l{}\"]\nwrites = [\"l{}\"]\n",
            ticks / 2,
            i % 50,
            (i + 1) % 50
        );
        s += &format!("[[tasks]]\nname = \"T{i}\"\nperiod = \"{p} ms\"\nunit = \"Core{}\"\nrunnables = [\"r{i}\"]\n", i % 6);
    }
    s + "[interconnect]\npolicy = \"RoundRobin\"\n"
}

fn system_scale(c: &mut Criterion) {
    use gpu_makespan::system::{read, report};
    let sys = read(&many_tasks(30_000), "many").unwrap();
    let mut g = c.benchmark_group("system_scale");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("system_30000_tasks", |b| {
        b.iter(|| {
            let rep = report::analyse(&sys, None, report::Options::default()).unwrap();
            assert!(rep.cores.iter().flat_map(|c| &c.tasks).all(|t| t.worst.is_some()), "schedulable: every task has its R+");
            black_box(rep.cores.len())
        })
    });
    g.finish();
}

criterion_group!(benches, rta, system, system_scale);
criterion_main!(benches);
