//! Which light task sets `makespan rta` refuses (issue 54, item 4: refusals only for real
//! overload). A fixed random corpus of periodic TX2 sets per family (one block demand;
//! mixed demands; stream priorities; a launch overhead; shared streams; copies), 2-6
//! kernels with harmonic periods, each set scaled so that its load (`load`: each block's
//! share of the GPU's block slots, whatever resource binds, times its `C`, over the
//! period; and no stream busier, its jobs one after another) is at most 50 % (drawn in
//! 10-50 %), analysed over the hyperperiod.
//! Prints, per family, how many sets were refused and why (each reason once, with its
//! count and the largest load refused for it), and the sets that took over 5 s.
//! Run: `cargo run --release --example rta_refusals [SETS]` (default 200 per family);
//! with `FULL=<family>` (a prefix of its name) every refused set of it is printed on
//! stderr, message and kernels; with `ONLY=<family>` only that family is analysed (the
//! same sets as in a full run); with `SLOW=<family>` every set of it that took over 5 s
//! is printed the same way (with its launch overhead).

use gpu_makespan::rta::analysis::{analyse, Timeline};
use gpu_makespan::rta::gpu::{Demand, Platform};
use gpu_makespan::rta::time::{Scale, Ticks};
use gpu_makespan::rta::workload::{Launch, Priority, Task, Timing, Window, Workload};
use gpu_makespan::rta::{load, room};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeMap;

const SETS: usize = 200;
const SIZES: [u64; 9] = [32, 64, 128, 256, 512, 1024, 80, 544, 682];
const FAMILIES: [&str; 6] = ["one demand", "mixed demands", "two priorities", "launch overhead", "shared streams", "copies"];

/// The load of `tasks` on the TX2: the larger of the GPU's (each block takes
/// `1 / (#SMs fit)` of the GPU for its `C`, `fit` its slots on one SM, [`room::fit`],
/// whatever binds: threads, shared memory, registers, the block limit; so
/// `sum C g / (T #SMs fit)`) and the heaviest of the loads the analysis reports when it
/// refuses (`load::heaviest`: each resource over time, each stream's jobs one after
/// another).
fn load(tasks: &[Task]) -> f64 {
    let p = Platform::TX2;
    let demands: Vec<Demand> = tasks
        .iter()
        .map(|t| p.demand(t.threads_per_block, t.shared_memory, t.registers_per_thread, &t.name).expect("a valid demand"))
        .collect();
    let slots: f64 = tasks
        .iter()
        .zip(&demands)
        .map(|(t, d)| (t.wcet.get() * t.blocks as u128) as f64 / (t.period.unwrap().get() as f64 * (p.sms() * room::fit(&p, d)) as f64))
        .sum();
    slots.max(load::heaviest(tasks, &demands, &p).expect("periods").0)
}

/// A random set of `family`, scaled to a load in [0.1, 0.5).
fn workload(rng: &mut SmallRng, family: usize) -> Workload {
    let mixed = family != 0;
    let size = SIZES[rng.random_range(0..SIZES.len())];
    let mut tasks: Vec<Task> = (0..rng.random_range(2..7))
        .map(|i| {
            let b = if mixed { SIZES[rng.random_range(0..SIZES.len())] } else { size };
            let period = Ticks::new(100 << rng.random_range(0..4));
            let timing = Timing { period, wcet: Ticks::new(rng.random_range(1..30)), release: Ticks::new(rng.random_range(0..20)) };
            let mut t = Task::given(format!("K{i}"), timing, rng.random_range(1..40), b);
            if mixed && rng.random_bool(0.3) {
                t.shared_memory = rng.random_range(0..40_000);
            }
            match family {
                2 => t.priority = if i == 0 || rng.random_bool(0.5) { Priority::High } else { Priority::Low },
                4 => t.stream = Some(format!("s{}", rng.random_range(0..2))),
                5 => {
                    t.copy_in = Ticks::new(if rng.random_bool(0.7) { rng.random_range(1..20) } else { 0 });
                    t.copy_out = Ticks::new(if rng.random_bool(0.5) { rng.random_range(1..20) } else { 0 });
                }
                _ => {}
            }
            t
        })
        .collect();
    // Scale the periods (their base 100 to one value: they stay harmonic) to the drawn
    // load, or a little below (the base is rounded up).
    let target = rng.random_range(0.1..0.5);
    let factor = (load(&tasks) / target).max(1.0 / 100.0);
    let base = (100.0 * factor).ceil().max(1.0) as u128;
    for t in &mut tasks {
        t.period = Some(Ticks::new(base * (t.period.unwrap().get() / 100)));
        t.deadline = t.period;
    }
    let mut w = Workload::new(tasks, Platform::TX2, Scale::default(), "t");
    w.window = Window::Hyperperiod;
    if family == 3 {
        w.launch_overhead = Ticks::new(rng.random_range(1..12));
    }
    if family == 4 {
        w.launch = Launch::FileOrder;
    }
    w
}

/// A refused set in full, on stderr: the message and every kernel.
fn show(family: &str, load: f64, message: &str, w: &Workload) {
    eprintln!("{family} load {load:.2}: {message}");
    for t in &w.tasks {
        eprintln!(
            "   {} {:?} release {} period {} C {} blocks {} threads {} shared {} registers {} stream {:?} copies {}/{}",
            t.name,
            t.priority,
            t.release.get(),
            t.period.map_or(0, |p| p.get()),
            t.wcet.get(),
            t.blocks,
            t.threads_per_block,
            t.shared_memory,
            t.registers_per_thread,
            t.stream,
            t.copy_in.get(),
            t.copy_out.get()
        );
    }
}

fn main() {
    let sets: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(SETS);
    let mut rng = SmallRng::seed_from_u64(54);
    for (family, name) in FAMILIES.iter().enumerate() {
        let mut reasons: BTreeMap<String, (usize, f64)> = BTreeMap::new();
        let (mut refused, mut slow, mut slowest) = (0, 0, 0.0f64);
        // With `ONLY=<family>` (a prefix of its name) the other families' sets are drawn
        // (the same sets as in a full run) but not analysed.
        let only = std::env::var("ONLY").ok().is_none_or(|f| name.starts_with(&f));
        for _ in 0..sets {
            let w = workload(&mut rng, family);
            if !only {
                continue;
            }
            let u = load(&w.tasks);
            let start = std::time::Instant::now();
            let result = analyse(&w, Timeline::Omitted);
            let took = start.elapsed().as_secs_f64();
            slowest = slowest.max(took);
            if took > 5.0 {
                slow += 1;
                eprintln!("{name}: a set of load {u:.2} took {took:.1} s ({} kernels)", w.tasks.len());
                if std::env::var("SLOW").is_ok_and(|f| name.starts_with(&f)) {
                    show(name, u, &format!("took {took:.1} s, launch overhead {}", w.launch_overhead.get()), &w);
                }
            }
            if let Err(e) = result {
                refused += 1;
                let text = e.to_string();
                if std::env::var("FULL").is_ok_and(|f| name.starts_with(&f)) {
                    show(name, u, &text, &w);
                }
                // The reason without the numbers of this set.
                let reason: String = text.split(':').nth(1).unwrap_or(&text).chars().filter(|c| !c.is_ascii_digit()).take(90).collect();
                let entry = reasons.entry(reason).or_insert((0, 0.0));
                entry.0 += 1;
                entry.1 = entry.1.max(u);
            }
        }
        if !only {
            continue;
        }
        println!("{name:<16} sets {sets}  refused {refused}  over 5 s {slow} (slowest {slowest:.1} s)");
        for (reason, (n, u)) in reasons {
            println!("    {n:>4} x (load up to {u:.2}) {reason}");
        }
    }
}
