//! `makespan system` against a discrete-time simulator of one core and one GPU, written
//! from the model's rules and not from the analysis: fixed-priority preemptive
//! scheduling of tasks that run a pre part, may offload a GPU task (waiting actively,
//! passively or not at all) and run a post part; the GPU serves one job at a time in
//! FIFO order (each GPU task known by its ticks fills the GPU), a GPU task's jobs one
//! after another (one stream). Execution times and phases are drawn at random. No
//! simulated response may be below the reported `R-` or above the reported `R+`.

use crate::common::Draw;
use gpu_makespan::system::cpu::OffloadMode;
use gpu_makespan::system::model::ms;
use gpu_makespan::system::read;
use gpu_makespan::system::report::{analyse, Options, Paradigm, SystemReport};
use proptest::prelude::*;

/// One simulator step, in cycles at 1 GHz (0.1 ms).
const STEP: u64 = 100_000;

/// How a task offloads.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Ticks,
    Active,
    Passive,
    NoWait,
}

/// A task of the random model; times in steps, ranges `[lo, hi]`.
#[derive(Debug, Clone)]
struct Spec {
    kind: Kind,
    period: u64,
    phase: u64,
    pre: (u64, u64),
    post: (u64, u64),
    gpu: (u64, u64),
}

fn model(specs: &[Spec], priorities: &[i64]) -> String {
    let mut s = crate::system_gpu::units(1);
    let range = |(lo, hi): (u64, u64)| format!("[{}, {}]", lo * STEP, hi * STEP);
    for (i, t) in specs.iter().enumerate() {
        s += &format!("[[runnables]]\nname = \"p{i}\"\nticks = {{ A57 = {} }}\n", range(t.pre));
        let head =
            format!("[[tasks]]\nname = \"T{i}\"\nperiod = \"{} us\"\npriority = {}\nunit = \"Core0\"\n", t.period * 100, priorities[i]);
        if t.kind == Kind::Ticks {
            s += &format!("{head}runnables = [\"p{i}\"]\n");
            continue;
        }
        let wait = match t.kind {
            Kind::Active => "active",
            Kind::Passive => "passive",
            _ => "none",
        };
        s += &format!("[[runnables]]\nname = \"q{i}\"\nticks = {{ A57 = {} }}\n", range(t.post));
        s += &format!("[[runnables]]\nname = \"g{i}\"\nticks = {{ GPU_def = {} }}\n", range(t.gpu));
        s += &format!("{head}pre = [\"p{i}\"]\noffload = \"G{i}\"\nwait = \"{wait}\"\npost = [\"q{i}\"]\n");
        s += &format!("[[tasks]]\nname = \"G{i}\"\nunit = \"GPU\"\nrunnables = [\"g{i}\"]\n");
    }
    s
}

/// Where a CPU job is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Pre,
    Waiting,
    Post,
}

#[derive(Debug, Clone)]
struct Job {
    release: u64,
    phase: Phase,
    left: u64,
    post: u64,
    gpu: u64,
}

/// Responses observed: per task, CPU jobs `(release, finish or None)` and GPU jobs
/// `(release, finish or None)`, in steps.
struct Observed {
    cpu: Vec<Vec<(u64, Option<u64>)>>,
    gpu: Vec<Vec<(u64, Option<u64>)>>,
}

/// Simulates `horizon` steps; a larger priority value is higher.
fn simulate(specs: &[Spec], priorities: &[i64], seed: u64, horizon: u64) -> Observed {
    let n = specs.len();
    let mut draw = Draw(seed);
    let mut queues: Vec<std::collections::VecDeque<Job>> = vec![Default::default(); n];
    // Per GPU task: its stream of (release, work left); the FIFO of streams whose head
    // entered the GPU's queue; the GPU's current stream.
    let mut streams: Vec<std::collections::VecDeque<(u64, u64)>> = vec![Default::default(); n];
    let mut fifo: std::collections::VecDeque<usize> = Default::default();
    let mut queued = vec![false; n];
    let mut obs = Observed { cpu: vec![Vec::new(); n], gpu: vec![Vec::new(); n] };
    for t in 0..horizon {
        for (i, s) in specs.iter().enumerate() {
            if t >= s.phase && (t - s.phase) % s.period == 0 {
                let (pre, post, gpu) = (draw.next(s.pre.0, s.pre.1), draw.next(s.post.0, s.post.1), draw.next(s.gpu.0, s.gpu.1));
                queues[i].push_back(Job { release: t, phase: Phase::Pre, left: pre, post, gpu });
            }
        }
        for g in 0..n {
            if !queued[g] && !streams[g].is_empty() {
                queued[g] = true;
                fifo.push_back(g);
            }
        }
        // The CPU: the highest-priority task whose head job is ready (a job waiting
        // actively spins: it holds the core without progress).
        let ready = |i: usize, q: &std::collections::VecDeque<Job>| {
            q.front().is_some_and(|j| j.phase != Phase::Waiting || specs[i].kind == Kind::Active)
        };
        let running = (0..n).filter(|&i| ready(i, &queues[i])).max_by_key(|&i| priorities[i]);
        let mut offloads = Vec::new();
        if let Some(i) = running {
            let job = queues[i].front_mut().unwrap();
            if job.phase != Phase::Waiting {
                job.left -= 1;
            }
            if job.left == 0 && job.phase == Phase::Pre {
                if specs[i].kind == Kind::Ticks {
                    obs.cpu[i].push((job.release, Some(t + 1)));
                    queues[i].pop_front();
                } else {
                    offloads.push((i, job.gpu));
                    (job.phase, job.left) = if specs[i].kind == Kind::NoWait { (Phase::Post, job.post) } else { (Phase::Waiting, 0) };
                }
            } else if job.left == 0 && job.phase == Phase::Post {
                obs.cpu[i].push((job.release, Some(t + 1)));
                queues[i].pop_front();
            }
        }
        // The GPU: the head of the FIFO's stream runs.
        if let Some(&g) = fifo.front() {
            let job = streams[g].front_mut().unwrap();
            job.1 -= 1;
            if job.1 == 0 {
                obs.gpu[g].push((job.0, Some(t + 1)));
                streams[g].pop_front();
                fifo.pop_front();
                queued[g] = false;
                if specs[g].kind != Kind::NoWait {
                    let trigger = queues[g].front_mut().unwrap();
                    (trigger.phase, trigger.left) = (Phase::Post, trigger.post);
                }
            }
        }
        for (i, work) in offloads {
            streams[i].push_back((t + 1, work));
        }
    }
    for i in 0..n {
        obs.cpu[i].extend(queues[i].iter().map(|j| (j.release, None)));
        obs.gpu[i].extend(streams[i].iter().map(|j| (j.0, None)));
    }
    obs
}

fn spec() -> impl Strategy<Value = Spec> {
    (0usize..4, prop::sample::select(vec![6u64, 8, 10, 12, 20, 40]), 0u64..40, (1u64..8, 0u64..3), (1u64..3, 0u64..2), (1u64..6, 0u64..3))
        .prop_map(|(k, period, phase, pre, post, gpu)| Spec {
            kind: [Kind::Ticks, Kind::Active, Kind::Passive, Kind::NoWait][k],
            period,
            phase: phase % period,
            pre: (pre.0, pre.0 + pre.1),
            post: (post.0, post.0 + post.1),
            gpu: (gpu.0, gpu.0 + gpu.1),
        })
}

/// Every observed response (in steps) against `[best, worst]` in ms: an unfinished job
/// counts as running to `horizon`.
fn check(what: &str, jobs: &[(u64, Option<u64>)], best: Option<f64>, worst: Option<f64>, horizon: u64) -> Result<(), TestCaseError> {
    let ms = |steps: u64| steps as f64 / 10.0;
    for &(r, f) in jobs {
        if let (Some(b), Some(f)) = (best, f) {
            prop_assert!(ms(f - r) + 1e-9 >= b, "{what}: job released at {r} took {} ms < R- {b}", ms(f - r));
        }
        if let Some(w) = worst {
            let took = f.unwrap_or(horizon) - r;
            prop_assert!(ms(took) <= w + 1e-9, "{what}: job released at {r} took {} ms > R+ {w} (finished: {})", ms(took), f.is_some());
        }
    }
    Ok(())
}

fn analysed(text: &str) -> SystemReport {
    let sys = read(text, "simulated").unwrap();
    let opts = Options::default().with_communication(Paradigm::Direct).with_offload(OffloadMode::Model);
    analyse(&sys, None, opts).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// No simulated job responds below `R-` or above `R+`, on the core or on the GPU.
    #[test]
    fn no_simulated_response_leaves_the_reported_bounds(
        specs in prop::collection::vec(spec(), 1..5),
        order in any::<u64>(),
        seed in any::<u64>(),
    ) {
        // Distinct priorities in a random order.
        let mut priorities: Vec<i64> = (0..specs.len() as i64).collect();
        let mut d = Draw(order);
        for i in (1..priorities.len()).rev() {
            priorities.swap(i, d.next(0, i as u64) as usize);
        }
        let rep = analysed(&model(&specs, &priorities));
        let horizon = 1200;
        let obs = simulate(&specs, &priorities, seed, horizon);
        for (i, jobs) in obs.cpu.iter().enumerate() {
            let row = rep.cores.iter().flat_map(|c| &c.tasks).find(|t| t.entity.name == format!("T{i}")).unwrap();
            check(&format!("T{i}"), jobs, row.best.map(ms), row.worst.map(ms), horizon)?;
        }
        for g in &rep.gpu {
            let i: usize = g.task[1..].parse().unwrap();
            check(&g.task, &obs.gpu[i], Some(ms(g.response.best)), g.r_worst.map(ms), horizon)?;
        }
    }
}
