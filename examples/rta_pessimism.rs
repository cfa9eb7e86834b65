//! How far `makespan rta`'s reported responses are above the worst the reference
//! simulator reaches (`src/rta/simulator.rs`, every choice the TX2 rules leave open
//! searched by hill-climbing: `src/rta/adversary.rs`), on a fixed random corpus of TX2
//! task sets per family: one block demand; mixed demands (sizes, shared memory,
//! registers); mixed demands with stream priorities (each kernel high or low at random,
//! both present); with a launch overhead (releases spread, so that entry windows
//! overlap); kernels sharing streams (file order); copies in and out; two to four
//! processes sharing the GPU by time slices (each its kernels in one stream, the
//! profile's slice or a process's own, switches of 0-3); 8-11 kernels released
//! together in any order. One job per kernel.
//! Per kernel: reported response / longest response found over `RUNS` runs and, where
//! launches race without streams or overheads, a run in each reported worst launch order
//! and a hill-climb over the launch orders of tied releases (`climb_orders`): a lower
//! bound on the truth, so the ratio over-states the pessimism. Sets the analysis
//! refuses are counted apart.
//! Run: `cargo run --release --example rta_pessimism [SETS]` (default 300 per family);
//! `SHOW=<family name>[,<family name>...]` also prints each kernel of those families reported more than 3
//! (`SHOW_ABOVE`) times the worst found, with its set; `ONLY=<family name>` runs that
//! family alone (the same sets as in a full run only for the first family); `RUNS=<n>`
//! searches `n` runs per set instead of 400; `FINE=<n>` draws every time in units of `n`
//! ticks (default 100, so that the search can run a block for a hundredth of a unit).
//! Reported and found responses are printed in ticks.

use gpu_makespan::rta::adversary::{worst_responses, worst_sliced_responses, Slicing};
use gpu_makespan::rta::analysis::{analyse, Timeline};
use gpu_makespan::rta::gpu::{Platform, WarpPlacement};
use gpu_makespan::rta::jobs::sequence;
use gpu_makespan::rta::simulator::{simulate, Hardware, Placement};
use gpu_makespan::rta::slicing::{process_of, sliced, slices};
use gpu_makespan::rta::time::{Scale, Ticks};
use gpu_makespan::rta::workload::{demands, Launch, Priority, Task, Timing, Workload};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const SETS: usize = 300;
const RUNS: usize = 400;

/// The runs per set: `RUNS`, or the environment's `RUNS` (to see how far more search
/// moves the figures).
fn runs() -> usize {
    std::env::var("RUNS").ok().and_then(|r| r.parse().ok()).unwrap_or(RUNS)
}
/// Ticks per time unit of the corpus (`FINE`, default 100): every time of a set is drawn
/// in units and multiplied by it, so that the search may run blocks, copies and
/// overheads for a fraction of a unit (the model allows any time up to `C`), which a
/// one-tick grid (`FINE=1`, the figures before 2026-12-01) cannot.
fn fine() -> u128 {
    std::env::var("FINE").ok().and_then(|r| r.parse().ok()).unwrap_or(100)
}
const SIZES: [u64; 9] = [32, 64, 128, 256, 512, 1024, 80, 544, 682];

fn random_set(rng: &mut SmallRng, mixed: bool, kernels: std::ops::Range<usize>) -> Vec<Task> {
    let size = SIZES[rng.random_range(0..SIZES.len())];
    (0..rng.random_range(kernels))
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

/// Prints a kernel `k` of `w` reported `r` times the worst found (`found`), with its set
/// and every kernel's response.
fn show(w: &Workload, rep: &gpu_makespan::rta::RtaReport, k: &gpu_makespan::rta::KernelRow, r: f64, found: Ticks) {
    println!("ratio {r:.2} kernel {} reported {} found {}", k.name, k.response.get(), found.get());
    for t in &w.tasks {
        println!(
            "   {} rel {} C {} g {} b {} smem {} regs {} in {} out {} prio {:?} stream {:?} slice {:?}",
            t.name,
            t.release.get(),
            t.wcet.get(),
            t.blocks,
            t.threads_per_block,
            t.shared_memory,
            t.registers_per_thread,
            t.copy_in.get(),
            t.copy_out.get(),
            t.priority,
            t.stream,
            t.time_slice.map(|s| s.get())
        );
    }
    if w.tasks.iter().any(|t| t.process.is_some()) {
        println!(
            "   time slice {} switch {:?} overhead {}",
            w.time_slice.get(),
            w.context_switch.map(|s| s.get()),
            w.launch_overhead.get()
        );
    }
    for kk in &rep.kernels {
        println!("      {} response {}", kk.name, kk.response.get());
    }
}

/// The warp placements `w`'s profile allows (`gpu.warp_placement`): greedy where any
/// is, the two round-robin ones where round robin is, all three where it is unknown
/// (the TX2 profile of the corpus).
fn placements(w: &Workload) -> Vec<Placement> {
    match w.platform.warp_placement {
        WarpPlacement::Any => vec![Placement::Greedy],
        WarpPlacement::RoundRobin => vec![Placement::RoundRobinFixed, Placement::RoundRobinRotating],
        WarpPlacement::Unknown => vec![Placement::Greedy, Placement::RoundRobinFixed, Placement::RoundRobinRotating],
    }
}

/// Whether launches race with nothing else deciding the order of tied releases (no
/// stream, no process, no launch overhead): then running the set in file order with its
/// tasks permuted is a run of the set itself, in one launch order.
fn orders_race(w: &Workload) -> bool {
    w.launch == Launch::AnyOrder && w.launch_overhead == Ticks::ZERO && w.tasks.iter().all(|t| t.stream.is_none() && t.process.is_none())
}

/// Per task of `w` (by index), its longest response in one run of the simulator on
/// `placement` with every block at its `C` and the tasks entering in the order `order`
/// (a permutation of the task indices, which decides only among tied releases); `None`
/// where the permuted set cannot be built.
fn run_in_order(w: &Workload, order: &[usize], placement: Placement, rng: &mut SmallRng) -> Option<Vec<Ticks>> {
    let fixed = Workload { tasks: order.iter().map(|&i| w.tasks[i].clone()).collect(), launch: Launch::FileOrder, ..w.clone() };
    let seq = demands(&fixed).and_then(|d| sequence(&fixed, &d, fixed.launch, fixed.window)).ok()?;
    let hw =
        Hardware { placement, confined: vec![false; fixed.tasks.len()], launch_overhead: Ticks::ZERO, full_blocks: true, fixed_ties: true };
    let finish = simulate(&seq.jobs, &seq.classes, &fixed.platform, &hw, rng);
    let mut response = vec![Ticks::ZERO; w.tasks.len()];
    for (j, f) in seq.jobs.iter().zip(finish) {
        let i = order[j.task];
        response[i] = response[i].max(f - j.release);
    }
    Some(response)
}

/// One more run per kernel with a reported worst launch order (`worst_order`), where
/// launches race ([`orders_race`]): the simulator with every block at its `C` and the
/// tied kernels entering in that order (the others in release order), which reaches an
/// `exact-monotone` response. Each response of such a run raises `worst` (per task). Its
/// own random numbers: the corpus's stay the same.
fn witness_runs(w: &Workload, rep: &gpu_makespan::rta::RtaReport, worst: &mut [Ticks]) {
    if !orders_race(w) {
        return;
    }
    // Kernels of one tie group often share their worst order: each order runs once.
    let mut orders: Vec<&Vec<String>> = rep.kernels.iter().filter_map(|k| k.worst_order.as_ref()).collect();
    orders.sort();
    orders.dedup();
    let index = |name: &String| w.tasks.iter().position(|t| &t.name == name).expect("a kernel of the set");
    for names in orders {
        // The tied kernels' places in the file, refilled in the worst order.
        let mut order: Vec<usize> = (0..w.tasks.len()).collect();
        let places: Vec<usize> = (0..w.tasks.len()).filter(|&i| names.contains(&w.tasks[i].name)).collect();
        for (&i, name) in places.iter().zip(names) {
            order[i] = index(name);
        }
        if let Some(r) = run_in_order(w, &order, placements(w)[0], &mut SmallRng::seed_from_u64(7)) {
            raise(worst, &r);
        }
    }
}

/// Each `worst[i]` raised to `found[i]`.
fn raise(worst: &mut [Ticks], found: &[Ticks]) {
    worst.iter_mut().zip(found).for_each(|(w, &f)| *w = (*w).max(f));
}

/// Hill-climbing steps of [`climb_orders`] on the longest response, and then per tied
/// kernel on its own.
const ORDER_STEPS: usize = 1000;
const ORDER_STEPS_EACH: usize = 100;

/// The search over launch orders of tied releases, where launches race ([`orders_race`]):
/// hill-climbing over the order in which the tasks of each tie group enter (a move swaps
/// two of one group or moves one to another place in its group), every block at its
/// `C`, each order run in the first two placements the profile allows ([`placements`]:
/// greedy and fixed round robin on the TX2; [`run_in_order`]). First on the longest
/// response of any kernel ([`ORDER_STEPS`]), then for each tied kernel on its own
/// response, from the best order with that kernel moved last in its group
/// ([`ORDER_STEPS_EACH`]). Every run is a run of the set, so
/// each response found raises `worst`. The adversary's tape search draws the order of a
/// tie afresh at every run and meets a good order of 8-11 tied kernels by chance only:
/// an order found is not kept while the tape's other numbers change. Its own random
/// numbers: the corpus's stay the same.
fn climb_orders(w: &Workload, worst: &mut [Ticks]) {
    if !orders_race(w) {
        return;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..w.tasks.len() {
        match groups.iter_mut().find(|g| w.tasks[g[0]].release == w.tasks[i].release) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.retain(|g| g.len() > 1);
    if groups.is_empty() {
        return;
    }
    let mut search = OrderSearch { w, groups, rng: SmallRng::seed_from_u64(11), worst };
    let best = search.climb((0..w.tasks.len()).collect(), ORDER_STEPS, &|r| r.iter().copied().max().unwrap_or(Ticks::ZERO));
    for g in search.groups.clone() {
        for &k in &g {
            search.climb(with_last(&best, &g, k), ORDER_STEPS_EACH, &|r| r[k]);
        }
    }
}

/// `order` with the tasks of `group` rearranged by `edit` among the places they hold
/// (`edit` gets them in their order and must keep them all).
fn within_group(order: &[usize], group: &[usize], edit: impl FnOnce(&mut Vec<usize>)) -> Vec<usize> {
    let places: Vec<usize> = (0..order.len()).filter(|&p| group.contains(&order[p])).collect();
    let mut members: Vec<usize> = places.iter().map(|&p| order[p]).collect();
    edit(&mut members);
    let mut next = order.to_vec();
    places.iter().zip(members).for_each(|(&p, m)| next[p] = m);
    next
}

/// `order` with task `k` moved to the last place held by a task of `group`.
fn with_last(order: &[usize], group: &[usize], k: usize) -> Vec<usize> {
    within_group(order, group, |members| {
        members.retain(|&m| m != k);
        members.push(k);
    })
}

/// The state of [`climb_orders`]: the set, its tie groups (task indices of equal
/// release), its random numbers and the worst responses found so far.
struct OrderSearch<'a> {
    w: &'a Workload,
    groups: Vec<Vec<usize>>,
    rng: SmallRng,
    worst: &'a mut [Ticks],
}

impl OrderSearch<'_> {
    /// Per task, its longest response over one run of `order` in each of the two
    /// placements; `worst` raised by it.
    fn eval(&mut self, order: &[usize]) -> Vec<Ticks> {
        let mut most = vec![Ticks::ZERO; self.w.tasks.len()];
        for &placement in placements(self.w).iter().take(2) {
            if let Some(r) = run_in_order(self.w, order, placement, &mut self.rng) {
                raise(&mut most, &r);
            }
        }
        raise(self.worst, &most);
        most
    }

    /// A neighbour of `order`: within one group, two places swapped or one task moved.
    fn neighbour(&mut self, order: &[usize]) -> Vec<usize> {
        let g = &self.groups[self.rng.random_range(0..self.groups.len())];
        // `order` is a permutation: the group's tasks hold `g.len()` places.
        let (a, b) = (self.rng.random_range(0..g.len()), self.rng.random_range(0..g.len()));
        let swap = self.rng.random_bool(0.5);
        within_group(order, g, |members| {
            if swap {
                members.swap(a, b);
            } else {
                let x = members.remove(a);
                members.insert(b, x);
            }
        })
    }

    /// Hill-climbing from `start` for `steps` steps on `score` of the responses (a
    /// neighbour kept where it scores no less); the order reached.
    fn climb(&mut self, start: Vec<usize>, steps: usize, score: &dyn Fn(&[Ticks]) -> Ticks) -> Vec<usize> {
        let mut best = score(&self.eval(&start));
        let mut order = start;
        for _ in 0..steps {
            let next = self.neighbour(&order);
            let s = score(&self.eval(&next));
            if s >= best {
                (best, order) = (s, next);
            }
        }
        order
    }
}

/// The families of the corpus.
#[derive(Clone, Copy, PartialEq)]
enum Family {
    OneDemand,
    Mixed,
    Priorities,
    Overhead,
    Streams,
    Copies,
    Sliced,
    Tied,
}

impl Family {
    const ALL: [Family; 8] = [
        Family::OneDemand,
        Family::Mixed,
        Family::Priorities,
        Family::Overhead,
        Family::Streams,
        Family::Copies,
        Family::Sliced,
        Family::Tied,
    ];

    fn name(self) -> &'static str {
        match self {
            Family::OneDemand => "one demand",
            Family::Mixed => "mixed demands",
            Family::Priorities => "two priorities",
            Family::Overhead => "launch overhead",
            Family::Streams => "shared streams",
            Family::Copies => "copies",
            Family::Sliced => "time slicing",
            Family::Tied => "8-11 tied",
        }
    }

    /// A random workload of this family.
    fn workload(self, rng: &mut SmallRng) -> Workload {
        let kernels = if self == Family::Tied { 8..12 } else { 2..7 };
        let mut tasks = random_set(rng, self != Family::OneDemand, kernels);
        let mut launch = Launch::AnyOrder;
        match self {
            Family::Priorities => tasks = with_priorities(rng, tasks),
            Family::Streams => {
                launch = Launch::FileOrder;
                for t in &mut tasks {
                    t.stream = Some(format!("s{}", rng.random_range(0..2)));
                }
            }
            Family::Copies => {
                for t in &mut tasks {
                    t.copy_in = Ticks::new(if rng.random_bool(0.7) { rng.random_range(1..20) } else { 0 });
                    t.copy_out = Ticks::new(if rng.random_bool(0.5) { rng.random_range(1..20) } else { 0 });
                }
            }
            Family::Sliced => {
                // Two to four processes (the first two present), each its kernels in one stream.
                launch = Launch::FileOrder;
                let processes = rng.random_range(2..5);
                let own: Vec<Option<Ticks>> =
                    (0..processes).map(|_| rng.random_bool(0.3).then(|| Ticks::new(rng.random_range(1..20)))).collect();
                for (i, t) in tasks.iter_mut().enumerate() {
                    let p = if i < 2 { i } else { rng.random_range(0..processes) };
                    (t.process, t.stream, t.time_slice) = (Some(format!("p{p}")), Some(format!("p{p}")), own[p]);
                }
            }
            Family::Tied => tasks.iter_mut().for_each(|t| t.release = Ticks::ZERO),
            _ => {}
        }
        let f = fine();
        for t in &mut tasks {
            (t.wcet, t.release, t.copy_in, t.copy_out) = (t.wcet * f, t.release * f, t.copy_in * f, t.copy_out * f);
            (t.period, t.deadline) = (t.period.map(|x| x * f), t.deadline.map(|x| x * f));
            t.time_slice = t.time_slice.map(|x| x * f);
        }
        let mut w = Workload::new(tasks, Platform::TX2, Scale::default(), "t");
        w.launch = launch;
        if self == Family::Overhead {
            w.launch_overhead = Ticks::new(rng.random_range(1..12)) * f;
        }
        if self == Family::Sliced {
            (w.time_slice, w.context_switch) = (Ticks::new(rng.random_range(1..20)) * f, Some(Ticks::new(rng.random_range(0..4)) * f));
        }
        w
    }
}

fn main() {
    let sets: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(SETS);
    let mut rng = SmallRng::seed_from_u64(2026);
    let only = std::env::var("ONLY").ok();
    for family in Family::ALL {
        if only.as_ref().is_some_and(|o| o != family.name()) {
            continue;
        }
        let (mut ratios, mut refused) = (Vec::new(), 0);
        let mut bounds: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
        for _ in 0..sets {
            let w = family.workload(&mut rng);
            let Ok(rep) = analyse(&w, Timeline::Omitted) else {
                refused += 1;
                continue;
            };
            *bounds.entry(rep.bound.to_string()).or_default() += 1;
            let seq = sequence(&w, &demands(&w).expect("analysed"), w.launch, w.window).expect("analysed");
            let mut worst = vec![Ticks::ZERO; w.tasks.len()];
            let slicing = sliced(&w).then(|| (process_of(&w, &seq), slices(&w).expect("analysed")));
            // Each placement, with every block at its C and with block times searched.
            for placement in placements(&w) {
                for full_blocks in [true, false] {
                    let hw = Hardware {
                        placement,
                        confined: vec![false; w.tasks.len()],
                        launch_overhead: w.launch_overhead,
                        full_blocks,
                        fixed_ties: w.launch != Launch::AnyOrder,
                    };
                    let found = match &slicing {
                        Some((process, slices)) => {
                            let s =
                                Slicing { process, slices, switch: w.context_switch.unwrap_or(Ticks::ZERO), overhead: w.launch_overhead };
                            worst_sliced_responses(&seq.jobs, &seq.classes, &w.platform, &hw, &s, runs() / 6, rng.random())
                        }
                        None => worst_responses(&seq.jobs, &seq.classes, &w.platform, &hw, runs() / 6, rng.random()),
                    };
                    worst.iter_mut().zip(found).for_each(|(w, f)| *w = (*w).max(f));
                }
            }
            witness_runs(&w, &rep, &mut worst);
            climb_orders(&w, &mut worst);
            for k in &rep.kernels {
                let i = w.tasks.iter().position(|t| t.name == k.name).expect("a kernel of the set");
                let r = k.response.get() as f64 / worst[i].get() as f64;
                let above: f64 = std::env::var("SHOW_ABOVE").ok().and_then(|a| a.parse().ok()).unwrap_or(3.0);
                if std::env::var("SHOW").is_ok_and(|f| f.split(',').any(|f| f == family.name())) && r > above {
                    show(&w, &rep, k, r, worst[i]);
                }
                ratios.push(r);
            }
        }
        ratios.sort_by(f64::total_cmp);
        let mean = ratios.iter().sum::<f64>() / ratios.len().max(1) as f64;
        let at = |q: f64| ratios.get(((ratios.len() as f64 * q) as usize).min(ratios.len().saturating_sub(1))).copied().unwrap_or(f64::NAN);
        println!(
            "{:<16} kernels {:>5}  reported / worst found: mean {mean:.3}  median {:.3}  p90 {:.3}  max {:.3}  (below 1: {}; sets refused: {refused}; bounds {:?})",
            family.name(),
            ratios.len(),
            at(0.5),
            at(0.9),
            ratios.last().copied().unwrap_or(f64::NAN),
            ratios.iter().filter(|&&r| r < 1.0).count(),
            bounds
        );
    }
}
