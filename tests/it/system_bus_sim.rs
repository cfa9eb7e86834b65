//! `makespan system`'s `R+` with memory contention against a discrete-time simulator of
//! two or three cores on one round-robin interconnect, written from the model's rules
//! (`docs/system-model.md`, "Memory contention" and "Execution time") and not from the
//! analysis. Each core runs periodic tasks (the model gives no phases: each run draws
//! them, per task, all 0, or per core) under fixed-priority preemptive scheduling (the
//! model's priorities, or rate-monotonic); a job copies in the labels it reads (implicit
//! communication), reads its labels, runs its ticks (drawn per job: the lower end, the
//! upper end or between), writes its labels and copies out. Each 64-byte line access
//! costs the core's read or write latency uncontended: with bursts, its last `g x h` are
//! `g` grants of the interconnect holding it `h` each (a burst of the narrower port, one
//! beat per cycle of the interconnect's clock); with `--contention latency`, one grant
//! holding it for the whole latency. One grant at a time, round robin among the cores
//! with a request pending (the next after the last one served); a core has one access
//! outstanding. A job is preempted at any instant: a request waiting is withdrawn (asked
//! again on resuming), a grant in flight stays on the interconnect and completes the
//! preempted job's grant, and the core's next request waits for it. No simulated
//! response may be below `R-` or above `R+`.
//!
//! Found by it with the analysis mutated: `Bus::wait` 0, no `own_hold`, a line counted as
//! one grant (200 cases); `Traffic::jobs` without the response's jitter (`ceil(t / T)`
//! jobs) only at full size (`MAKESPAN_FULL_PROPTESTS=1`, 2,000 cases).

use crate::common::Draw;
use gpu_makespan::system::cpu::OffloadMode;
use gpu_makespan::system::read;
use gpu_makespan::system::report::{analyse, Options, Paradigm, SystemReport};
use gpu_makespan::system::ContentionMode;
use proptest::prelude::*;

/// One simulator step, in picoseconds: half a cycle at 1 GHz, a cycle at 2 GHz.
const STEP: u64 = 500;
/// The interconnect: 1 GHz (2 steps a beat), 128-bit ports.
const BUS_BITS: u64 = 128;

#[derive(Debug, Clone)]
struct Core {
    /// 1 or 2 GHz.
    ghz: u64,
    port_bits: u64,
    read_latency: u64,
    write_latency: u64,
}

impl Core {
    /// Steps per cycle.
    fn cycle(&self) -> u64 {
        2 / self.ghz
    }
    /// Grants per line and steps each holds, as the docs define them: with bursts of
    /// `burst` beats, `ceil(beats / burst)` grants of `min(beats, burst)` beats, a beat a
    /// cycle of the slower clock (the interconnect's 1 GHz); else one grant per line.
    fn grants(&self, burst: u64) -> (u64, u64) {
        let beats = 512 / self.port_bits.min(BUS_BITS);
        (beats.div_ceil(burst), 2 * beats.min(burst))
    }
}

/// A task: one runnable; ticks in cycles, label sizes in bytes, times in steps.
#[derive(Debug, Clone)]
struct Spec {
    period: u64,
    phase: u64,
    ticks: (u64, u64),
    reads: Vec<u64>,
    writes: Vec<u64>,
}

#[derive(Debug, Clone)]
struct Case {
    cores: Vec<(Core, Vec<Spec>)>,
    burst: u64,
    latency: bool,
    implicit: bool,
}

/// The model in the TOML form; without `priorities` every task gets none (so the tool
/// orders each core rate-monotonically).
fn model(case: &Case, priorities: Option<&[Vec<i64>]>) -> String {
    let mut s = String::new();
    for (c, (core, _)) in case.cores.iter().enumerate() {
        s += &format!(
            "[[units]]\nname = \"Core{c}\"\nkind = \"K{}\"\nfrequency = \"{} GHz\"\nread_latency = {}\nwrite_latency = {}\nport_bits = {}\n",
            core.ghz, core.ghz, core.read_latency, core.write_latency, core.port_bits
        );
    }
    s += &format!(
        "[interconnect]\npolicy = \"RoundRobin\"\nmax_burst_size = {}\nfrequency = \"1 GHz\"\nport_bits = {BUS_BITS}\n[labels]\n",
        case.burst
    );
    for (c, (_, tasks)) in case.cores.iter().enumerate() {
        for (i, t) in tasks.iter().enumerate() {
            for (k, b) in t.reads.iter().enumerate() {
                s += &format!("r{c}_{i}_{k} = {b}\n");
            }
            for (k, b) in t.writes.iter().enumerate() {
                s += &format!("w{c}_{i}_{k} = {b}\n");
            }
        }
    }
    for (c, (core, tasks)) in case.cores.iter().enumerate() {
        for (i, t) in tasks.iter().enumerate() {
            let names = |p: &str, n: usize| (0..n).map(|k| format!("\"{p}{c}_{i}_{k}\"")).collect::<Vec<_>>().join(", ");
            s += &format!(
                "[[runnables]]\nname = \"p{c}_{i}\"\nticks = {{ K{} = [{}, {}] }}\nreads = [{}]\nwrites = [{}]\n",
                core.ghz,
                t.ticks.0,
                t.ticks.1,
                names("r", t.reads.len()),
                names("w", t.writes.len())
            );
            let priority = priorities.map_or(String::new(), |p| format!("priority = {}\n", p[c][i]));
            s += &format!(
                "[[tasks]]\nname = \"T{c}_{i}\"\nperiod = \"{} ps\"\n{priority}unit = \"Core{c}\"\nrunnables = [\"p{c}_{i}\"]\n",
                t.period * STEP
            );
        }
    }
    s
}

/// One step of a job: compute, or one line access (`local` steps off the interconnect,
/// then `grants` grants holding it `hold` steps each).
#[derive(Debug, Clone, Copy)]
enum Op {
    Compute(u64),
    Line { local: u64, grants: u64, hold: u64 },
}

#[derive(Debug)]
struct Job {
    release: u64,
    ops: Vec<Op>,
    pos: usize,
    /// Steps left of the current compute or local part.
    left: u64,
    granted: u64,
    holding: bool,
}

impl Job {
    /// On to the next step.
    fn next(&mut self) {
        self.pos += 1;
        self.enter();
    }
    fn enter(&mut self) {
        self.granted = 0;
        self.left = match self.ops.get(self.pos) {
            Some(Op::Compute(n)) | Some(Op::Line { local: n, .. }) => *n,
            None => 0,
        };
    }
    /// Whether the job waits for a grant (its local part done, a grant left, none held).
    fn requesting(&self) -> bool {
        matches!(self.ops.get(self.pos), Some(Op::Line { grants, .. }) if self.left == 0 && !self.holding && self.granted < *grants)
    }
}

/// A job's steps: copy-in (implicit), reads, ticks, writes, copy-out (implicit).
fn ops(case: &Case, core: &Core, t: &Spec, ticks: u64) -> Vec<Op> {
    let (grants, hold) = core.grants(case.burst);
    let line = |latency: u64| {
        let l = latency * core.cycle();
        if case.latency {
            Op::Line { local: 0, grants: 1, hold: l }
        } else {
            Op::Line { local: l - grants * hold, grants, hold }
        }
    };
    let lines = |sizes: &[u64], latency: u64| {
        sizes.iter().flat_map(move |b| std::iter::repeat_n(line(latency), b.div_ceil(64) as usize)).collect::<Vec<_>>()
    };
    let (reads, writes) = (lines(&t.reads, core.read_latency), lines(&t.writes, core.write_latency));
    let copies = if case.implicit { 2 } else { 1 };
    let mut v: Vec<Op> = std::iter::repeat_n(reads, copies).flatten().collect();
    v.push(Op::Compute(ticks * core.cycle()));
    v.extend(std::iter::repeat_n(writes, copies).flatten());
    v
}

/// Per core and task, its jobs' `(release, finish or None)` in steps.
type Observed = Vec<Vec<Vec<(u64, Option<u64>)>>>;

/// Simulates `horizon` steps.
fn simulate(case: &Case, priorities: &[Vec<i64>], seed: u64, horizon: u64) -> Observed {
    let mut draw = Draw(seed);
    let mut queues: Vec<Vec<std::collections::VecDeque<Job>>> =
        case.cores.iter().map(|(_, ts)| ts.iter().map(|_| Default::default()).collect()).collect();
    let mut obs: Observed = case.cores.iter().map(|(_, ts)| vec![Vec::new(); ts.len()]).collect();
    let n = case.cores.len();
    // The grant on the interconnect: (core, task, until); the last core served.
    let (mut bus, mut last): (Option<(usize, usize, u64)>, usize) = (None, n - 1);
    for t in 0..horizon {
        if let Some((c, i, _)) = bus.filter(|b| b.2 == t) {
            let job = queues[c][i].front_mut().unwrap();
            (job.holding, job.granted) = (false, job.granted + 1);
            bus = None;
        }
        for (c, (core, tasks)) in case.cores.iter().enumerate() {
            for (i, s) in tasks.iter().enumerate() {
                if t >= s.phase && (t - s.phase) % s.period == 0 {
                    let ticks = match draw.next(0, 2) {
                        0 => s.ticks.0,
                        1 => s.ticks.1,
                        _ => draw.next(s.ticks.0, s.ticks.1),
                    };
                    let mut job = Job { release: t, ops: ops(case, core, s, ticks), pos: 0, left: 0, granted: 0, holding: false };
                    job.enter();
                    queues[c][i].push_back(job);
                }
            }
        }
        // Each core's running job, settled: zero-time steps taken, finished jobs recorded.
        let mut running = vec![None; n];
        for c in 0..n {
            while let Some(i) = (0..queues[c].len()).filter(|&i| !queues[c][i].is_empty()).max_by_key(|&i| priorities[c][i]) {
                let job = queues[c][i].front_mut().unwrap();
                match job.ops.get(job.pos) {
                    None => {
                        obs[c][i].push((job.release, Some(t)));
                        queues[c][i].pop_front();
                    }
                    Some(Op::Compute(_)) if job.left == 0 => job.next(),
                    Some(Op::Line { grants, .. }) if job.left == 0 && !job.holding && job.granted == *grants => job.next(),
                    _ => {
                        running[c] = Some(i);
                        break;
                    }
                }
            }
        }
        if bus.is_none() {
            let pick = (1..=n).map(|k| (last + k) % n).find(|&c| running[c].is_some_and(|i| queues[c][i][0].requesting()));
            if let Some(c) = pick {
                let i = running[c].unwrap();
                let job = queues[c][i].front_mut().unwrap();
                let Op::Line { hold, .. } = job.ops[job.pos] else { unreachable!() };
                job.holding = true;
                bus = Some((c, i, t + hold));
                last = c;
            }
        }
        for c in 0..n {
            if let Some(i) = running[c] {
                let job = queues[c][i].front_mut().unwrap();
                job.left = job.left.saturating_sub(1);
            }
        }
    }
    for (c, tasks) in queues.iter().enumerate() {
        for (i, q) in tasks.iter().enumerate() {
            obs[c][i].extend(q.iter().map(|j| (j.release, None)));
        }
    }
    obs
}

fn spec() -> impl Strategy<Value = Spec> {
    let sizes = || prop::collection::vec(1u64..=384, 0..=2);
    (800u64..=6000, 1u64..=200, 0u64..=1000, sizes(), sizes()).prop_map(|(period, lo, spread, reads, writes)| Spec {
        period,
        phase: 0,
        ticks: (lo, lo + spread),
        reads,
        writes,
    })
}

/// A core; its latencies at least its grants' holds (the bursts are part of the access).
fn core() -> impl Strategy<Value = (Core, Vec<Spec>)> {
    (
        1u64..=2,
        prop::sample::select(vec![32u64, 64, 128]),
        prop_oneof![Just(0u64), 1u64..=8],
        prop_oneof![Just(0u64), 1u64..=8],
        prop::collection::vec(spec(), 1..=3),
    )
        .prop_map(|(ghz, port_bits, r, w, specs)| {
            // The longest a line's grants hold the interconnect (bursts of 2 beats or
            // more: the whole line's beats), in cycles.
            let base = (512 / port_bits.min(BUS_BITS)) * 2 / (2 / ghz);
            (Core { ghz, port_bits, read_latency: base + r, write_latency: base + w }, specs)
        })
}

/// Every observed response (steps) against `[best, worst]` (ps); an unfinished job counts
/// as running to `horizon`.
fn check(what: &str, jobs: &[(u64, Option<u64>)], best: Option<u128>, worst: Option<u128>, horizon: u64) -> Result<(), TestCaseError> {
    for &(r, f) in jobs {
        if let (Some(b), Some(f)) = (best, f) {
            prop_assert!(u128::from((f - r) * STEP) >= b, "{what}: job released at {r} took {} ps < R- {b} ps", (f - r) * STEP);
        }
        if let Some(w) = worst {
            let took = (f.unwrap_or(horizon) - r) * STEP;
            prop_assert!(u128::from(took) <= w, "{what}: job released at step {r} took {took} ps > R+ {w} ps (finished: {})", f.is_some());
        }
    }
    Ok(())
}

fn analysed(text: &str, case: &Case) -> SystemReport {
    let sys = read(text, "simulated").unwrap();
    let opts = Options::default()
        .with_communication(if case.implicit { Paradigm::Implicit } else { Paradigm::Direct })
        .with_offload(OffloadMode::Model)
        .with_contention(if case.latency { ContentionMode::Latency } else { ContentionMode::Model });
    analyse(&sys, None, opts).unwrap()
}

/// Steps simulated per run (15 us: 2.5 to 18 periods of a task).
const HORIZON: u64 = 30_000;
/// Runs per case, each with its own phases and execution times.
const RUNS: u64 = 6;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(2_000, 200)))]

    /// No simulated job responds below `R-` or above `R+`.
    #[test]
    fn no_simulated_response_leaves_the_reported_bounds_with_contention(
        cores in prop::collection::vec(core(), 2..=3),
        burst in prop::sample::select(vec![2u64, 4, 8]),
        latency in any::<bool>(),
        implicit in any::<bool>(),
        given in any::<bool>(),
        order in any::<u64>(),
        seed in any::<u64>(),
    ) {
        let mut case = Case { cores, burst, latency, implicit };
        // Distinct priorities per core in a random order (larger is higher), or none given
        // and the shorter period higher (rate-monotonic; equal periods in any fixed order:
        // the tool lets them interfere both ways).
        let mut d = Draw(order);
        let priorities: Vec<Vec<i64>> = case
            .cores
            .iter()
            .map(|(_, ts)| {
                if !given {
                    return ts.iter().map(|s| -(s.period as i64)).collect();
                }
                let mut p: Vec<i64> = (0..ts.len() as i64).collect();
                for i in (1..p.len()).rev() {
                    p.swap(i, d.next(0, i as u64) as usize);
                }
                p
            })
            .collect();
        let text = model(&case, given.then_some(&priorities[..]));
        let rep = analysed(&text, &case);
        // The tool reads the interconnect as the simulator does: a line of `u` waits at
        // most `g_u` times the other cores' holds.
        let holds: Vec<(u64, u64)> = case
            .cores
            .iter()
            .map(|(c, _)| if latency { (1, c.read_latency.max(c.write_latency) * c.cycle()) } else { c.grants(burst) })
            .collect();
        prop_assert_eq!(rep.contention.mode, "round-robin");
        for (u, &(g, _)) in holds.iter().enumerate() {
            let others: u64 = holds.iter().enumerate().filter(|&(v, _)| v != u).map(|(_, h)| h.1).sum();
            let row = rep.contention.units.iter().find(|w| w.unit == format!("Core{u}")).unwrap();
            prop_assert!((row.wait_ns - (g * others * STEP) as f64 / 1000.0).abs() < 1e-6, "Core{u}: {} ns\n{text}", row.wait_ns);
        }
        let mut d = Draw(seed);
        for run in 0..RUNS {
            // Phases (the model gives none): each task its own, every task at 0, or each
            // core's tasks together (its critical instant) at an offset of the core's.
            for (_, ts) in &mut case.cores {
                let at = d.next(0, 6000);
                for s in ts.iter_mut() {
                    s.phase = [d.next(0, s.period - 1), 0, at][run as usize % 3];
                }
            }
            let phases: Vec<Vec<u64>> = case.cores.iter().map(|(_, ts)| ts.iter().map(|s| s.phase).collect()).collect();
            let obs = simulate(&case, &priorities, seed ^ run, HORIZON);
            for (c, tasks) in obs.iter().enumerate() {
                for (i, jobs) in tasks.iter().enumerate() {
                    let name = format!("T{c}_{i}");
                    let row = rep.cores.iter().flat_map(|c| &c.tasks).find(|t| t.entity.name == name).unwrap();
                    let what = format!(
                        "{name} (latency mode {latency}, implicit {implicit}, draws {}, phases in steps of {STEP} ps {phases:?})\n{text}\n",
                        seed ^ run
                    );
                    check(&what, jobs, row.best.map(|p| p.get()), row.worst.map(|p| p.get()), HORIZON)?;
                }
            }
        }
    }
}
