//! GPU tasks in `makespan system`: each task's kernels one stream in `launch_order`, the
//! kernels file's fields honoured or refused, time slices between GPU tasks (the bound
//! by hand, the cap by the other task's jobs and its loss when that task's trigger is not
//! proven), the FIFO fallback, and an optimistic verdict without a context switch.

use crate::common;

use common::cli::{input_error, json_of, temp_file};
use gpu_makespan::system::cpu::OffloadMode;
use gpu_makespan::system::gpu::{GpuOptions, Sharing};
use gpu_makespan::system::model::ms;
use gpu_makespan::system::read;
use gpu_makespan::system::report::{analyse, Options, Paradigm, SystemReport};
use gpu_makespan::system::Ps;

const SMALL: &str = "instances/system/small.toml";

/// `cores` A57 cores `Core0`, ... and a GPU `GPU` (kind `GPU_def`), all at 1 GHz (one
/// cycle is 1 ns), in the TOML form.
pub fn units(cores: usize) -> String {
    let core = |i: usize| format!("[[units]]\nname = \"Core{i}\"\nkind = \"A57\"\nfrequency = \"1 GHz\"\n");
    (0..cores).map(core).collect::<String>() + "[[units]]\nname = \"GPU\"\nkind = \"GPU_def\"\ngpu = true\nfrequency = \"1 GHz\"\n"
}

/// Two cores and a GPU at 1 GHz (one cycle is 1 ns); A (period `ta`) offloads G1 (`g1`
/// ms on the GPU, slice `q1` ms), B (period 50 ms) offloads G2 (`g2` ms, slice `q2`
/// ms), both waiting actively. `slice1 = None` leaves G1 without a time slice.
fn two_gpu_tasks(ta: u64, g1: u64, q1: Option<u64>, g2: u64, q2: u64) -> String {
    let slice1 = q1.map_or(String::new(), |q| format!("time_slice = \"{q} ms\"\n"));
    let units = units(2);
    format!(
        r#"
{units}
[[runnables]]
name = "p"
ticks = {{ A57 = 1000 }}
[[runnables]]
name = "g1"
ticks = {{ GPU_def = {g1}000000 }}
[[runnables]]
name = "g2"
ticks = {{ GPU_def = {g2}000000 }}
[[tasks]]
name = "A"
period = "{ta} ms"
unit = "Core0"
pre = ["p"]
offload = "G1"
wait = "active"
[[tasks]]
name = "B"
period = "50 ms"
unit = "Core1"
pre = ["p"]
offload = "G2"
wait = "active"
[[tasks]]
name = "G1"
unit = "GPU"
runnables = ["g1"]
{slice1}
[[tasks]]
name = "G2"
unit = "GPU"
runnables = ["g2"]
time_slice = "{q2} ms"
"#
    )
}

fn analysed(text: &str, sharing: Sharing, switch_ms: Option<f64>) -> SystemReport {
    let sys = read(text, "test").unwrap();
    let context_switch = switch_ms.map(|m| Ps::new((m * 1e9).round() as u128));
    let opts = Options::default()
        .with_communication(Paradigm::Direct)
        .with_offload(OffloadMode::Model)
        .with_gpu(GpuOptions::default().with_sharing(sharing).with_context_switch(context_switch));
    analyse(&sys, None, opts).unwrap()
}

fn gpu<'a>(rep: &'a SystemReport, name: &str) -> &'a gpu_makespan::system::gpu::GpuResponse {
    rep.gpu.iter().find(|g| g.task == name).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn time_slices_by_hand() {
    // G1: E = 10 ms in slices of 4: 3 waits, each G2's slice (5) and 2 switches of 0.1:
    // uncapped 10 + 15 + 0.6 = 25.6 ms. But B releases G2 at most once per 50 ms and
    // ends within its period, so within G1's window G2 needs at most (ceil(R/50) + 1) x 2
    // = 4 ms: R = 10 + 4 + 0.6 = 14.6 ms.
    let rep = analysed(&two_gpu_tasks(100, 10, Some(4), 2, 5), Sharing::Auto, Some(0.1));
    assert_eq!(rep.gpu_sharing.mode, "time-slices");
    let g1 = gpu(&rep, "G1");
    assert!(close(ms(g1.kernel_response), 14.6), "{g1:?}");
    assert_eq!(g1.capped_by, ["G2"]);
    assert_eq!(g1.time_slice.map(ms), Some(4.0));
    // G2: E = 2 ms in slices of 5: one wait of G1's slice (4) and 2 switches: 6.2 ms; G1's
    // cap (10 ms a job) does not bite.
    let g2 = gpu(&rep, "G2");
    assert!(close(ms(g2.kernel_response), 6.2), "{g2:?}");
    assert!(g2.capped_by.is_empty());
    assert_eq!(rep.verdict.as_str(), "proven");
    // FIFO instead: one job each, released together: G2 may wait for all of G1.
    let fifo = analysed(&two_gpu_tasks(100, 10, Some(4), 2, 5), Sharing::Fifo, Some(0.1));
    assert_eq!(fifo.gpu_sharing.mode, "fifo");
    assert!(close(ms(gpu(&fifo, "G2").kernel_response), 12.0), "{:?}", fifo.gpu);
}

#[test]
fn a_cap_needs_the_other_trigger_proven_within_its_period() {
    // G2: E = 12 ms in slices of 2: 6 waits of G1's slice (4): uncapped 12 + 24 + 1.2 =
    // 37.2 ms; G1 needs 3 ms a job, A's period 100: capped 12 + 2 x 3 + 1.2 = 19.2 ms.
    let rep = analysed(&two_gpu_tasks(100, 3, Some(4), 12, 2), Sharing::Auto, Some(0.1));
    let g2 = gpu(&rep, "G2");
    assert!(close(ms(g2.kernel_response), 19.2), "{g2:?}");
    assert_eq!(g2.capped_by, ["G1"]);
    // With A's period 3 ms, A (G1 takes 3 + 2 + 0.2 ms) is not proven within it: G2 loses
    // the cap by periods. A still waits for each G1 job and runs 1000 cycles before the
    // next: G1 has one job at a time, so each of G2's 6 waits holds at most one G1 job,
    // 3 ms, not its slice of 4: 12 + 6 x 3 + 1.2 = 31.2 ms (37.2 without).
    let rep = analysed(&two_gpu_tasks(3, 3, Some(4), 12, 2), Sharing::Auto, Some(0.1));
    let g2 = gpu(&rep, "G2");
    assert!(close(ms(g2.kernel_response), 31.2), "{g2:?}");
    assert!(g2.capped_by.is_empty());
    assert!(!rep.schedulable);
    // G1's jobs may overlap (its trigger A has no R+: the late trigger): no bound, named.
    assert_eq!(gpu(&rep, "G1").r_worst, None, "{:?}", rep.gpu);
    assert!(rep.warnings.iter().any(|w| w.contains("not proven to end within") && w.contains("G1")), "{:?}", rep.warnings);
}

#[test]
fn without_every_slice_auto_is_fifo_and_time_slices_are_refused() {
    let text = two_gpu_tasks(100, 10, None, 2, 5);
    let rep = analysed(&text, Sharing::Auto, None);
    assert_eq!(rep.gpu_sharing.mode, "fifo");
    assert!(rep.warnings.iter().any(|w| w.contains("G1 has no time slice")), "{:?}", rep.warnings);
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, "s.toml", &text);
    input_error(&["system", &path, "--gpu-sharing", "time-slices"], "tasks.G1.time_slice");
    input_error(&["system", &path, "--context-switch", "fast"], "--context-switch");
}

#[test]
fn a_context_switch_not_given_makes_the_verdict_optimistic() {
    let rep = analysed(&two_gpu_tasks(100, 10, Some(4), 2, 5), Sharing::Auto, None);
    assert_eq!(rep.verdict.as_str(), "optimistic");
    assert!(rep.assumptions.iter().any(|a| a.contains("context switches take no time")));
    assert_eq!(rep.gpu_sharing.given, Some(false));
    // G1 without switches: 10 + 4 = 14 ms.
    assert!(close(ms(gpu(&rep, "G1").kernel_response), 14.0));
}

#[test]
fn a_tasks_kernels_are_one_stream_in_launch_order() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = |name: &str, order: i64, wcet: f64| {
        format!(
            "[[kernels]]\nname = \"{name}\"\nperiod = 20\nlaunch_order = {order}\nwcet = {wcet}\nblocks = 1\nthreads_per_block = 1024\n"
        )
    };
    let text = format!("unit = \"ms\"\n{}{}", kernel("G/late", 2, 1.0), kernel("G/early", 1, 0.5));
    let v = json_of(&["system", SMALL, "--kernels", &temp_file(&dir, "k.toml", &text)]);
    assert_eq!(v["gpu"][0]["kernels"], serde_json::json!(["G/early", "G/late"]));
    // One after another, never against each other: 0.5 + 1.0 ms.
    assert_eq!(v["gpu"][0]["kernel_response"], 1.5, "{}", v["gpu"]);
}

#[test]
fn kernels_file_fields_the_system_sets_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let base = "unit = \"ms\"\n[[kernels]]\nname = \"G\"\nwcet = 1.5\nblocks = 4\nthreads_per_block = 1024\n";
    let with_period = |line: &str| format!("{base}period = 20\n{line}\n");
    for (text, field) in [
        (with_period("release = 1"), "kernels[0].release"),
        (with_period("stream = \"s\""), "kernels[0].stream"),
        (with_period("process = \"p\""), "kernels[0].process"),
        (with_period("deadline = 5"), "kernels[0].deadline"),
        (format!("{base}period = 7\n"), "kernels[0].period"),
    ] {
        let path = temp_file(&dir, "k.toml", &text);
        input_error(&["system", SMALL, "--kernels", &path], field);
    }
    // The trigger's own period (20 ms) is accepted.
    let path = temp_file(&dir, "k.toml", &with_period(""));
    assert_eq!(json_of(&["system", SMALL, "--kernels", &path])["gpu"][0]["kernel_response"], 1.5);
}

/// When a context's jobs arrive: at fixed times, or one at a time, the first at `first`
/// and each next one `gap` after the one before ends (`gaps[m] >= 1`: a trigger that
/// waits for its GPU job and runs its post and pre runnables before the next offload).
#[derive(Debug, Clone)]
enum Arrivals {
    Fixed(Vec<u64>),
    Closed { first: u64, gaps: Vec<u64> },
}

/// A round-robin time-slicing GPU, unit by unit, written from the rules: the contexts
/// with work take turns in index order after the holder, each for its slice or until it
/// runs out of work; a change of holder costs `switch`. Jobs of context `c` arrive as
/// `arrivals[c]` says, each needing `work[c]`; returns per context the (release, finish)
/// of each job finished by `horizon`.
fn round_robin(work: &[u64], slices: &[u64], arrivals: &[Arrivals], switch: u64, horizon: u64) -> Vec<Vec<(u64, u64)>> {
    let n = work.len();
    let mut queue: Vec<std::collections::VecDeque<(u64, u64)>> = vec![Default::default(); n];
    let mut next = vec![0usize; n];
    let mut done: Vec<Vec<(u64, u64)>> = vec![Vec::new(); n];
    // The next arrival of each context, if any.
    let due = |c: usize, next: &[usize], done: &[Vec<(u64, u64)>]| match &arrivals[c] {
        Arrivals::Fixed(at) => at.get(next[c]).copied(),
        Arrivals::Closed { first, gaps } => match next[c] {
            0 => Some(*first),
            m if done[c].len() == m => gaps.get(m - 1).map(|g| done[c][m - 1].1 + g),
            _ => None,
        },
    };
    let release = |t: u64, queue: &mut Vec<std::collections::VecDeque<(u64, u64)>>, next: &mut Vec<usize>, done: &[Vec<(u64, u64)>]| {
        for c in 0..n {
            while let Some(at) = due(c, next, done).filter(|&at| at <= t) {
                queue[c].push_back((at, work[c]));
                next[c] += 1;
            }
        }
    };
    let (mut holder, mut left, mut t) = (0usize, 0u64, 0u64);
    while t < horizon {
        release(t, &mut queue, &mut next, &done);
        if left == 0 || queue[holder].is_empty() {
            let Some(c) = (1..=n).map(|i| (holder + i) % n).find(|&c| !queue[c].is_empty()) else {
                t += 1;
                continue;
            };
            if c != holder {
                t += switch;
                release(t, &mut queue, &mut next, &done);
            }
            (holder, left) = (c, slices[c]);
        }
        t += 1;
        left -= 1;
        let job = queue[holder].front_mut().unwrap();
        job.1 -= 1;
        if job.1 == 0 {
            done[holder].push((job.0, t));
            queue[holder].pop_front();
        }
    }
    done
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Against the round-robin simulator with periodic jobs released anywhere in the
    /// first part of their period: whenever every job of every context ends within its
    /// period (the cap's condition), no job's response is above `sliced_response`.
    #[test]
    fn no_simulated_response_is_above_the_capped_bound(
        ctx in proptest::collection::vec((1u64..20, 1u64..12, 30u64..160, 0u64..30, proptest::collection::vec(0u64..10, 12)), 2..5),
        switch in 0u64..3,
    ) {
        use gpu_makespan::system::gpu_sharing::{sliced_response, Context};
        let horizon = 1500;
        let releases: Vec<Vec<u64>> = ctx
            .iter()
            .map(|(_, _, period, phase, jitter)| (0..12u64).map(|m| phase + m * period + jitter[m as usize] % (period / 3)).collect())
            .collect();
        let arrivals: Vec<Arrivals> = releases.iter().cloned().map(Arrivals::Fixed).collect();
        let work: Vec<u64> = ctx.iter().map(|c| c.0).collect();
        let slices: Vec<u64> = ctx.iter().map(|c| c.1).collect();
        let done = round_robin(&work, &slices, &arrivals, switch, horizon);
        // The cap's condition: each job ends within its period of its nominal release.
        let within = ctx.iter().zip(&done).all(|((_, _, period, phase, _), jobs)| {
            jobs.iter().enumerate().all(|(m, &(_, f))| f <= phase + m as u64 * period + period)
        }) && done.iter().zip(&releases).all(|(d, r)| r.iter().filter(|&&x| x + 200 < horizon).count() <= d.len());
        proptest::prop_assume!(within);
        let contexts: Vec<Context> = ctx
            .iter()
            .map(|&(w, q, period, ..)| Context { alone: vec![Ps::new(w as u128)], slice: Ps::new(q as u128), period: Some(Ps::new(period as u128)), one_job: false })
            .collect();
        for (c, jobs) in done.iter().enumerate() {
            let bound = sliced_response(&contexts, c, Ps::ZERO, Ps::new(switch as u128));
            for &(r, f) in jobs {
                proptest::prop_assert!(Ps::new(u128::from(f - r)) <= bound, "context {c}: job released at {r} ends at {f}, bound {bound:?}");
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::common::cases(3000, 300)))]
    /// Against the same simulator, contexts whose jobs come one at a time (each next one
    /// at least a tick after the one before ends: `one_job`) beside contexts with jobs at
    /// any times; no trigger is proven and no period known. No job that starts without
    /// a job of its own context ahead of it may take longer than `sliced_response`.
    #[test]
    fn one_job_at_a_time_holds_at_most_a_job_per_wait(
        ctx in proptest::collection::vec((1u64..20, 1u64..12, proptest::prelude::any::<bool>(), 0u64..40, proptest::collection::vec(1u64..15, 12)), 2..5),
        switch in 0u64..3,
    ) {
        use gpu_makespan::system::gpu_sharing::{sliced_response, Context};
        let arrivals: Vec<Arrivals> = ctx
            .iter()
            .map(|(_, _, closed, first, gaps)| match closed {
                true => Arrivals::Closed { first: *first, gaps: gaps.clone() },
                // Any times, bursts included.
                false => Arrivals::Fixed(gaps.iter().scan(*first, |at, g| { *at += g % 4 * 7; Some(*at) }).collect()),
            })
            .collect();
        let work: Vec<u64> = ctx.iter().map(|c| c.0).collect();
        let slices: Vec<u64> = ctx.iter().map(|c| c.1).collect();
        let done = round_robin(&work, &slices, &arrivals, switch, 3000);
        let contexts: Vec<Context> = ctx
            .iter()
            .map(|&(w, q, closed, ..)| Context { alone: vec![Ps::new(w as u128)], slice: Ps::new(q as u128), period: None, one_job: closed })
            .collect();
        for (c, jobs) in done.iter().enumerate() {
            let bound = sliced_response(&contexts, c, Ps::ZERO, Ps::new(switch as u128));
            for (m, &(r, f)) in jobs.iter().enumerate() {
                if m > 0 && jobs[m - 1].1 > r {
                    continue; // behind a job of its own context: not what the bound covers
                }
                proptest::prop_assert!(Ps::new(u128::from(f - r)) <= bound, "context {c}: job released at {r} ends at {f}, bound {bound:?}");
            }
        }
    }
}

/// The one-job cap needs a gap: a context whose next job comes the instant the last one
/// ends keeps the GPU for its whole slice, beyond the cap (the simulator shows it), so
/// such a context must not get it.
#[test]
fn without_a_gap_a_context_keeps_the_gpu_past_one_job() {
    use gpu_makespan::system::gpu_sharing::sliced_response;
    // c0: 10 in slices of 4, released at 0; c1: jobs of 2, slice 5, each next job 0 after
    // the last ends, the first at 0.
    let arrivals = [Arrivals::Fixed(vec![0]), Arrivals::Closed { first: 0, gaps: vec![0; 40] }];
    let done = round_robin(&[10, 2], &[4, 5], &arrivals, 0, 200);
    let response = done[0][0].1 - done[0][0].0;
    let capped = [ctx_one(10, 4, false), ctx_one(2, 5, true)];
    let bound = sliced_response(&capped, 0, Ps::ZERO, Ps::ZERO);
    assert!(Ps::new(u128::from(response)) > bound, "response {response}, cap {bound:?}: the gap is what the cap needs");
    let uncapped = [ctx_one(10, 4, false), ctx_one(2, 5, false)];
    assert!(Ps::new(u128::from(response)) <= sliced_response(&uncapped, 0, Ps::ZERO, Ps::ZERO));
}

/// A context of one kernel of `work`, slice `slice`, no period.
fn ctx_one(work: u128, slice: u128, one_job: bool) -> gpu_makespan::system::gpu_sharing::Context {
    gpu_makespan::system::gpu_sharing::Context { alone: vec![Ps::new(work)], slice: Ps::new(slice), period: None, one_job }
}

#[test]
fn fifo_charges_each_kernel_with_one_kernel_of_every_other_stream() {
    // G1: kernels of 0.1 and 5 ms, G2: one of 1 ms, each filling the GPU (4 blocks of
    // 1024 threads on 2 SMs). G2 released just after G1/2 entered the queue waits for all
    // of it: 0.1 + 5 + 1 = 6.1 ms; releasing every first kernel together would give 1.1.
    let dir = tempfile::tempdir().unwrap();
    let system = temp_file(&dir, "s.toml", &two_gpu_tasks(100, 10, Some(4), 2, 5));
    let kernel = |name: &str, period: u64, wcet: f64| {
        format!("[[kernels]]\nname = \"{name}\"\nperiod = {period}\nwcet = {wcet}\nblocks = 4\nthreads_per_block = 1024\n")
    };
    let text = format!("unit = \"ms\"\n{}{}{}", kernel("G1/1", 100, 0.1), kernel("G1/2", 100, 5.0), kernel("G2", 50, 1.0));
    let v = json_of(&["system", &system, "--kernels", &temp_file(&dir, "k.toml", &text), "--gpu-sharing", "fifo"]);
    let time = |task: &str| v["gpu"].as_array().unwrap().iter().find(|g| g["task"] == task).unwrap()["kernel_response"].as_f64().unwrap();
    assert!(close(time("G2"), 6.1), "{}", v["gpu"]);
    // G1: each kernel with G2 ahead of it, one after another: (1 + 0.1) + (1 + 5).
    assert!(close(time("G1"), 7.1), "{}", v["gpu"]);
}

#[test]
fn a_gpu_task_nobody_waits_for_must_end_within_its_period() {
    // A (period 11 ms) fires G1 and does not wait; in one FIFO context G1 may wait for G2:
    // 10 + 2 = 12 ms > 11: its jobs may queue up without end: no bound.
    let text = two_gpu_tasks(11, 10, Some(4), 2, 5).replacen("wait = \"active\"", "wait = \"none\"", 1);
    let rep = analysed(&text, Sharing::Fifo, None);
    assert!(close(ms(gpu(&rep, "G1").kernel_response), 12.0), "{:?}", rep.gpu);
    assert_eq!(gpu(&rep, "G1").r_worst, None, "{:?}", rep.gpu);
    assert!(rep.cores.iter().flat_map(|c| &c.tasks).all(|t| t.schedulable));
    assert!(!rep.schedulable);
    assert!(
        rep.warnings.iter().any(|w| w.contains("not proven to end within their trigger's period") && w.contains("G1")),
        "{:?}",
        rep.warnings
    );
    // With a period of 13 ms it ends in time.
    let text = two_gpu_tasks(13, 10, Some(4), 2, 5).replacen("wait = \"active\"", "wait = \"none\"", 1);
    assert!(analysed(&text, Sharing::Fifo, None).schedulable);
}

#[test]
fn with_time_slices_stream_priorities_and_kernel_copies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let system = temp_file(&dir, "s.toml", &two_gpu_tasks(100, 10, Some(4), 2, 5));
    let kernel = "unit = \"ms\"\n[[kernels]]\nname = \"G1\"\nperiod = 100\nwcet = 1\nblocks = 2\nthreads_per_block = 1024\n";
    for (line, field) in [("priority = \"high\"", "kernels[0].priority"), ("copy_in = 0.5", "kernels[0].copy_in")] {
        let path = temp_file(&dir, "k.toml", &format!("{kernel}{line}\n"));
        input_error(&["system", &system, "--kernels", &path, "--context-switch", "0ms"], field);
        if field.ends_with("priority") {
            // Nor in one FIFO context: G1's later jobs could pass G2's queued kernel each
            // time, and the bound counts one kernel of G1 ahead of it.
            input_error(&["system", &system, "--kernels", &path, "--gpu-sharing", "fifo"], field);
        } else {
            json_of(&["system", &system, "--kernels", &path, "--gpu-sharing", "fifo"]);
        }
    }
}

/// One core at 1 GHz (a cycle is 1 ns) and a GPU: `H` (period `h.0`, `h.1` cycles)
/// above `L` (period `l`, a pre part of `pre` cycles, offloads `G` of `g` cycles on the
/// GPU and waits as `wait` says, a post part of `post` cycles), a chain `L -> H`, and
/// `extra` TOML. Cycles as TOML values: a number or `[lower, upper]`.
pub fn h_above_l(h: (&str, &str), l: &str, (pre, wait, post): (&str, &str, &str), g: &str, extra: &str) -> String {
    let (h_period, h_ticks) = h;
    let units = units(1);
    format!(
        r#"
{units}
[[runnables]]
name = "h"
ticks = {{ A57 = {h_ticks} }}
[[runnables]]
name = "pre"
ticks = {{ A57 = {pre} }}
[[runnables]]
name = "post"
ticks = {{ A57 = {post} }}
[[runnables]]
name = "g"
ticks = {{ GPU_def = {g} }}
[[tasks]]
name = "H"
period = "{h_period}"
priority = 2
unit = "Core0"
runnables = ["h"]
[[tasks]]
name = "L"
period = "{l}"
priority = 1
unit = "Core0"
pre = ["pre"]
offload = "G"
wait = "{wait}"
post = ["post"]
[[tasks]]
name = "G"
unit = "GPU"
runnables = ["g"]
[[chains]]
name = "lh"
tasks = ["L", "H"]
{extra}
"#
    )
}

/// Issue 50's reproducer of a GPU task nobody waits for: `H` every 5 ms (`h_ticks`
/// cycles) above `L` (every 10 ms, pre 0.5 ms, fires `G` without waiting, post 0.1 ms);
/// `G` takes 9 ms on the GPU.
fn fire_and_forget(h_ticks: &str) -> String {
    h_above_l(("5 ms", h_ticks), "10 ms", ("500000", "none", "100000"), "9000000", "")
}

#[test]
fn a_gpu_task_nobody_waits_for_queues_behind_its_jittered_jobs() {
    // L's R+ = 0.6 + 4 = 4.6 ms: G is released between 0.5 and 4.5 ms after L: jitter
    // 4.0. A job released at 4.5 ends at 13.5; the next, released at 10.501, waits for it
    // and ends at 22.5: 12 ms (12 - 0.001 here). Bound: 9 + (9 + 4 - 10) = 12 > the
    // period: not schedulable, named.
    let rep = analysed(&fire_and_forget("[1000, 4000000]"), Sharing::Auto, None);
    let g = gpu(&rep, "G");
    assert!(close(ms(g.r_worst.unwrap()), 12.0) && close(ms(g.release_jitter.unwrap()), 4.0), "{g:?}");
    assert!(rep.cores.iter().flat_map(|c| &c.tasks).all(|t| t.schedulable));
    assert!(!rep.schedulable);
    assert!(rep.warnings.iter().any(|w| w.contains("not proven to end within") && w.ends_with(": G")), "{:?}", rep.warnings);
    // H at 0.4 ms at most: jitter 0.4, 9 + 0 = 9 ms, within the period.
    let calm = analysed(&fire_and_forget("400000"), Sharing::Auto, None);
    assert!(close(ms(gpu(&calm, "G").r_worst.unwrap()), 9.0), "{:?}", calm.gpu);
    assert!(calm.schedulable);
    // H at 4.95 ms: L needs 0.6 + 2 x 4.95 > 10 ms, no R+; G's jitter is unknown: no
    // bound, named late.
    let late = analysed(&fire_and_forget("4950000"), Sharing::Auto, None);
    assert_eq!(gpu(&late, "G").r_worst, None, "{:?}", late.gpu);
    assert!(!late.schedulable);
    let v = json_of(&["system", &temp_file(&tempfile::tempdir().unwrap(), "f.toml", &fire_and_forget("[1000, 4000000]"))]);
    assert_eq!(v["gpu"][0]["r_worst"], 12.0);
    assert_eq!(v["gpu"][0]["release_jitter"], 4.0);
}
