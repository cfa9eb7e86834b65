//! How far the RTA's bound for mixed block sizes is above one nominal run of the
//! dispatch rules, on a fixed random corpus: the static slot thresholds (every earlier
//! kernel's demand counts for good) against the reported list schedule (only running
//! blocks count). Kernels in file order, one job each, so ties play no part.
//! Run: `cargo run --release --example rta_envelope_ratio`.

use gpu_makespan::rta::gpu::Platform;
use gpu_makespan::rta::jobs::sequence;
use gpu_makespan::rta::list::{finishes, simulate_slots, slot_thresholds};
use gpu_makespan::rta::sms::{most_free_threads, simulate_sms};
use gpu_makespan::rta::time::{Scale, Ticks};
use gpu_makespan::rta::workload::{demands, Task, Timing, Workload};
use gpu_makespan::rta::workload::{Launch, Window};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SETS: usize = 2000;
const SIZES: [u64; 9] = [32, 64, 128, 256, 512, 1024, 80, 544, 682];

fn random_set(rng: &mut SmallRng) -> Vec<Task> {
    (0..rng.random_range(2..9))
        .map(|i| {
            let b = SIZES[rng.random_range(0..SIZES.len())];
            let warps = b.div_ceil(32);
            let cap = 32_768 / (warps.div_ceil(4) * 4) / 256 * 256 / 32;
            Task {
                shared_memory: if rng.random_bool(0.3) { rng.random_range(0..40_000) } else { 0 },
                registers_per_thread: if rng.random_bool(0.5) { rng.random_range(16..=64u64).min(cap) } else { 0 },
                ..Task::given(
                    format!("K{i}"),
                    Timing {
                        period: Ticks::new(1_000_000),
                        wcet: Ticks::new(rng.random_range(1..100)),
                        release: Ticks::new(rng.random_range(0..200)),
                    },
                    rng.random_range(1..64),
                    b,
                )
            }
        })
        .collect()
}

fn main() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let (mut before, mut after) = (Vec::new(), Vec::new());
    for _ in 0..SETS {
        let w = Workload { launch: Launch::FileOrder, ..Workload::new(random_set(&mut rng), Platform::TX2, Scale::default(), "t") };
        let seq = sequence(&w, &demands(&w).expect("valid set"), w.launch, Window::OneJob).expect("sequence");
        if seq.classes.iter().all(|c| c.demand == seq.classes[0].demand) {
            continue;
        }
        let nominal =
            simulate_sms(&seq.jobs, &seq.classes, &w.platform, &mut |j, _| seq.jobs[j].wcet, &mut most_free_threads, false).finish;
        let dynamic = finishes(&seq.jobs, &seq.classes, &w.platform);
        let ordered: Vec<Task> = seq.jobs.iter().map(|j| w.tasks[j.task].clone()).collect();
        let demands: Vec<_> = seq.jobs.iter().map(|j| seq.classes[j.class].demand).collect();
        let (fixed, _) = simulate_slots(&ordered, &slot_thresholds(&demands, &w.platform), false);
        for (i, j) in seq.jobs.iter().enumerate() {
            let response = |f: Ticks| (f - j.release).get() as f64;
            before.push(response(fixed[i]) / response(nominal[i]));
            after.push(response(dynamic[i]) / response(nominal[i]));
        }
    }
    for (name, r) in [("static thresholds (before)", &mut before), ("running blocks (after)", &mut after)] {
        r.sort_by(f64::total_cmp);
        let mean = r.iter().sum::<f64>() / r.len() as f64;
        println!(
            "{name:<28} kernels {:>6}  response / nominal: mean {mean:.3}  median {:.3}  p90 {:.3}  max {:.3}",
            r.len(),
            r[r.len() / 2],
            r[r.len() * 9 / 10],
            r[r.len() - 1]
        );
    }
}
