//! How far `makespan rta`'s reported responses are above the worst the reference
//! simulator finds (`src/rta/simulator.rs`: every choice the TX2 rules leave open drawn
//! at random), on a fixed random corpus of TX2 task sets: one block demand, mixed
//! demands (sizes, shared memory, registers), tied releases, one job per kernel; and
//! mixed demands with stream priorities (each kernel high or low at random, both
//! present).
//! Per kernel: reported response / worst simulated response over `RUNS` runs.
//! Run: `cargo run --release --example rta_pessimism`.

use gpu_makespan::rta::analysis::{analyse, Timeline};
use gpu_makespan::rta::gpu::Platform;
use gpu_makespan::rta::jobs::sequence;
use gpu_makespan::rta::simulator::{simulate, Hardware, Placement};
use gpu_makespan::rta::time::{Scale, Ticks};
use gpu_makespan::rta::workload::{demands, Priority, Task, Timing, Workload};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SETS: usize = 500;
const RUNS: usize = 200;
const SIZES: [u64; 9] = [32, 64, 128, 256, 512, 1024, 80, 544, 682];

fn random_set(rng: &mut SmallRng, mixed: bool) -> Vec<Task> {
    let size = SIZES[rng.random_range(0..SIZES.len())];
    (0..rng.random_range(2..7))
        .map(|i| {
            let b = if mixed { SIZES[rng.random_range(0..SIZES.len())] } else { size };
            let warps = b.div_ceil(32);
            let cap = 32_768 / (warps.div_ceil(4) * 4) / 256 * 256 / 32;
            let release = Ticks::new(if rng.random_bool(0.5) { 0 } else { rng.random_range(0..40) });
            let task = Task::given(
                format!("K{i}"),
                Timing { period: Ticks::new(1_000_000), wcet: Ticks::new(rng.random_range(1..30)), release },
                rng.random_range(1..40),
                b,
            );
            if !mixed {
                return task;
            }
            Task {
                shared_memory: if rng.random_bool(0.3) { rng.random_range(0..40_000) } else { 0 },
                registers_per_thread: if rng.random_bool(0.5) { rng.random_range(16..=64u64).min(cap) } else { 0 },
                ..task
            }
        })
        .collect()
}

/// Each kernel of `tasks` high or low at random, the first high and the last low.
fn with_priorities(rng: &mut SmallRng, tasks: Vec<Task>) -> Vec<Task> {
    let n = tasks.len();
    tasks
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let high = i == 0 || (i + 1 < n && rng.random_bool(0.5));
            Task { priority: if high { Priority::High } else { Priority::Low }, ..t }
        })
        .collect()
}

fn main() {
    let mut rng = SmallRng::seed_from_u64(2026);
    for (mixed, priorities) in [(false, false), (true, false), (true, true)] {
        let mut ratios = Vec::new();
        for _ in 0..SETS {
            let mut tasks = random_set(&mut rng, mixed);
            if priorities {
                tasks = with_priorities(&mut rng, tasks);
            }
            let w = Workload::new(tasks, Platform::TX2, Scale::default(), "t");
            let Ok(rep) = analyse(&w, Timeline::Omitted) else { continue };
            let seq = sequence(&w, &demands(&w).expect("analysed"), w.launch, w.window).expect("analysed");
            let mut worst = vec![Ticks::ZERO; w.tasks.len()];
            for _ in 0..RUNS {
                let placement = [Placement::Greedy, Placement::RoundRobinFixed, Placement::RoundRobinRotating][rng.random_range(0..3)];
                let hw = Hardware {
                    placement,
                    confined: vec![false; w.tasks.len()],
                    launch_overhead: Ticks::ZERO,
                    full_blocks: rng.random_bool(0.8),
                    fixed_ties: false,
                };
                for (j, f) in seq.jobs.iter().zip(simulate(&seq.jobs, &seq.classes, &w.platform, &hw, &mut rng)) {
                    worst[j.task] = worst[j.task].max(f - j.release);
                }
            }
            for k in &rep.kernels {
                let i = w.tasks.iter().position(|t| t.name == k.name).expect("a kernel of the set");
                ratios.push(k.response.get() as f64 / worst[i].get() as f64);
            }
        }
        ratios.sort_by(f64::total_cmp);
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        println!(
            "{:<16} kernels {:>5}  reported / worst simulated: mean {mean:.3}  median {:.3}  p90 {:.3}  max {:.3}  (below 1: {})",
            match (mixed, priorities) {
                (_, true) => "two priorities",
                (true, _) => "mixed demands",
                _ => "one demand",
            },
            ratios.len(),
            ratios[ratios.len() / 2],
            ratios[ratios.len() * 9 / 10],
            ratios[ratios.len() - 1],
            ratios.iter().filter(|&&r| r < 1.0).count()
        );
    }
}
