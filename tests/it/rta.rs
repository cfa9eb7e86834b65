//! RTA: the three computations of the one-demand list schedule against each other; the
//! per-SM dispatch rules (block times up to C, any SM choice, warps in sub-partitions,
//! any launch order of tied releases, periodic jobs) against the reported responses;
//! the reported list schedule against the static-threshold one and the tie bound
//! against the worst over every order. (The CLI's RTA tests are in tests/it/cli.rs.)

use gpu_makespan::rta::analysis::analyse;
use gpu_makespan::rta::gpu::Platform;
use gpu_makespan::rta::jobs::{sequence, Job, Sequence};
use gpu_makespan::rta::list::{closed_form_equal_c, finishes, list_schedule, simulate_slots, slot_thresholds};
use gpu_makespan::rta::report::Bound;
use gpu_makespan::rta::sms::simulate_sms;
use gpu_makespan::rta::ties::{bound_over_orders, worst_over_orders};
use gpu_makespan::rta::time::Scale;
use gpu_makespan::rta::workload::{demands, Task, Workload};
use gpu_makespan::rta::workload::{Launch, Window};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn kernels(cs: &[u128], gs: &[u64], rs: &[u128]) -> Vec<Task> {
    cs.iter().zip(gs).zip(rs).enumerate().map(|(i, ((&c, &g), &r))| Task::given(format!("K{i}"), 100, c, g, 512, r)).collect()
}

fn task_set() -> impl Strategy<Value = (Vec<Task>, u64)> {
    (1usize..12, 1u64..=16).prop_flat_map(|(n, g_max)| {
        (
            proptest::collection::vec(1u128..20, n),
            proptest::collection::vec(1u64..40, n),
            proptest::collection::vec(0u128..30, n),
            Just(g_max),
        )
            .prop_map(|(c, g, r, g_max)| (kernels(&c, &g, &r), g_max))
    })
}

/// Task sets with mixed block sizes, shared memory and registers on the TX2, releases
/// in a small range (so that some tie).
fn mixed_task_set() -> impl Strategy<Value = Vec<Task>> {
    let task = (
        1u128..20,
        1u64..24,
        0u128..6,
        // Sizes that are not whole warps too (33, 80, 544, 682 threads).
        prop_oneof![Just(64u64), Just(128), Just(256), Just(384), Just(512), Just(1024), Just(33), Just(80), Just(544), Just(682)],
        0u64..30_000,
        0u64..80,
        1u128..40,
    );
    proptest::collection::vec(task, 1..7).prop_map(|ts| {
        ts.into_iter()
            .enumerate()
            .map(|(i, (c, g, r, b, smem, regs, period))| {
                let warps = b.div_ceil(32);
                // At most 32 768 registers a block may use (warps counted in whole sets of 4).
                let cap = 32_768 / (warps.div_ceil(4) * 4) / 256 * 256 / 32;
                Task {
                    shared_memory: smem,
                    registers_per_thread: regs.min(cap),
                    period: Some(period),
                    ..Task::given(format!("K{i}"), 1000, c, g, b, r)
                }
            })
            .collect()
    })
}

fn workload(tasks: Vec<Task>) -> Workload {
    Workload::new(tasks, Platform::TX2, Scale::default(), "t")
}

fn sequence_of(w: &Workload) -> Sequence {
    sequence(w, &demands(w).unwrap(), w.launch, w.window).unwrap()
}

/// The jobs of `seq` with each group of tied releases shuffled.
fn shuffled(seq: &Sequence, rng: &mut SmallRng) -> Vec<Job> {
    let mut jobs = seq.jobs.clone();
    for r in &seq.free_ties {
        jobs[r.clone()].shuffle(rng);
    }
    jobs
}

/// Each job's reported finish, by (task, job number).
fn reported_by_job(seq: &Sequence, finish: &[u128]) -> std::collections::HashMap<(usize, u64), u128> {
    seq.jobs.iter().zip(finish).map(|(j, &f)| ((j.task, j.number), f)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn list_schedule_matches_slot_simulation((ks, g_max) in task_set()) {
        prop_assert_eq!(list_schedule(&ks, g_max), simulate_slots(&ks, &vec![g_max; ks.len()], true).0);
    }

    #[test]
    fn closed_form_matches_list_schedule_on_equal_c(gs in proptest::collection::vec(1u64..40, 1..12), g_max in 1u64..=16, c in 1u128..20) {
        let ks = kernels(&vec![c; gs.len()], &gs, &vec![0; gs.len()]);
        prop_assert_eq!(closed_form_equal_c(&gs, g_max, c), list_schedule(&ks, g_max));
    }

    #[test]
    fn responses_never_decrease_when_a_c_grows((ks, g_max) in task_set(), pick in any::<prop::sample::Index>(), extra in 1u128..10) {
        let before = list_schedule(&ks, g_max);
        let mut grown = ks.clone();
        let i = pick.index(grown.len());
        grown[i].wcet += extra;
        let after = list_schedule(&grown, g_max);
        for ((a, b), k) in after.iter().zip(&before).zip(&ks) {
            prop_assert!(a >= b, "{}: finish {} < {}", k.name, a, b);
        }
    }

    /// Whatever each block's time up to C, whatever SM each block goes to and whatever
    /// the launch order of tied releases, no job of the dispatch rules (warps in whole
    /// warps and sub-partitions) finishes after its reported finish; with a window too.
    #[test]
    fn reported_responses_hold_for_shorter_blocks_any_sm_and_any_order(tasks in mixed_task_set(), periodic in any::<bool>(), seed in any::<u64>()) {
        let mut w = workload(tasks);
        if periodic {
            w.window = Window::Until(60);
        }
        let seq = sequence_of(&w);
        let worst = worst_over_orders(&seq, &w.platform);
        let reported = reported_by_job(&seq, &worst.finish);
        let rep = analyse(&w, false).unwrap();
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..6 {
            let jobs = shuffled(&seq, &mut rng);
            let (sim, _) = simulate_sms(
                &jobs,
                &seq.classes,
                &w.platform,
                &mut |j, _| rng.random_range(1..=jobs[j].wcet),
                &mut |room, _| room[0],
                false,
            );
            for (j, s) in jobs.iter().zip(&sim) {
                let f = reported[&(j.task, j.number)];
                prop_assert!(*s <= f, "{} job {}: simulated {} > reported {}", w.tasks[j.task].name, j.number, s, f);
            }
        }
        for k in &rep.kernels {
            prop_assert!(k.simulated_finish <= k.finish || k.jobs > 1, "{}", k.name);
        }
    }

    /// The reported list schedule (running blocks only) is never above the one with
    /// static thresholds (every earlier demand), which is safe too.
    #[test]
    fn running_blocks_only_is_tighter_than_static_thresholds(tasks in mixed_task_set()) {
        let w = Workload { launch: Launch::FileOrder, ..workload(tasks) };
        let seq = sequence_of(&w);
        let dynamic = finishes(&seq.jobs, &seq.classes, &w.platform);
        let ordered: Vec<Task> = seq.jobs.iter().map(|j| w.tasks[j.task].clone()).collect();
        let demands: Vec<_> = seq.jobs.iter().map(|j| seq.classes[j.class].demand).collect();
        let (fixed, _) = simulate_slots(&ordered, &slot_thresholds(&demands, &w.platform), false);
        for ((d, s), t) in dynamic.iter().zip(&fixed).zip(&ordered) {
            prop_assert!(d <= s, "{}: {} > {}", t.name, d, s);
        }
    }

    /// The merged-group bound is at least the worst over every launch order.
    #[test]
    fn tie_bound_covers_every_order(tasks in mixed_task_set()) {
        let w = workload(tasks);
        let seq = sequence_of(&w);
        let worst = worst_over_orders(&seq, &w.platform);
        let bound = bound_over_orders(&seq, &w.platform);
        for ((j, b), f) in seq.jobs.iter().zip(&bound).zip(&worst.finish) {
            prop_assert!(b >= f, "{}: bound {} < worst {}", w.tasks[j.task].name, b, f);
        }
    }

    /// With one block size and a fixed launch order the per-SM dispatch rules are the
    /// list schedule, for any SM choice; the report says the responses are exact.
    #[test]
    fn one_block_size_is_exact((ks, _) in task_set(), seed in any::<u64>()) {
        let w = Workload { launch: Launch::FileOrder, ..workload(ks) };
        let rep = analyse(&w, false).unwrap();
        prop_assert_eq!(rep.bound, Bound::ExactMonotone);
        let seq = sequence_of(&w);
        let mut rng = SmallRng::seed_from_u64(seed);
        let (sim, _) = simulate_sms(&seq.jobs, &seq.classes, &w.platform, &mut |j, _| seq.jobs[j].wcet, &mut |room, _| room[rng.random_range(0..room.len())], false);
        let reported: Vec<f64> = rep.kernels.iter().map(|k| k.finish).collect();
        prop_assert_eq!(sim.iter().map(|&s| s as f64).collect::<Vec<_>>(), reported);
    }
}

/// Registers per sub-partition: 544 threads (17 warps) at 40 registers (1280 per warp)
/// fit 12 warps per sub-partition, 48 per SM: 2 blocks, not the pooled 3.
#[test]
fn registers_are_allocated_per_sub_partition() {
    let t = Task { registers_per_thread: 40, ..Task::given("K", 10, 1, 6, 544, 0) };
    let rep = analyse(&workload(vec![t]), false).unwrap();
    assert_eq!(rep.g_max, 4);
    assert_eq!(rep.kernels[0].finish, 2.0);
}

/// Periodic jobs: deadline apart from the period, the worst job reported.
#[test]
fn periodic_jobs_report_their_worst() {
    // A: 8 blocks of 1024 threads (4 slots), C 2, period 4: alone a job takes 4.
    // B: 1 block, C 1, released at 1 with period 8, deadline 3: it waits behind A's
    // first job (4 to 5) and A's second job, released at 4 behind it, ends at 9.
    // Window: 1 + lcm(4, 8) = 9: A's jobs at 0, 4, 8 (the third also ends 5 late).
    let a = Task::given("A", 4, 2, 8, 1024, 0);
    let b = Task { deadline: Some(3), ..Task::given("B", 8, 1, 1, 1024, 1) };
    let mut w = workload(vec![a, b]);
    w.window = Window::Hyperperiod;
    let rep = analyse(&w, false).unwrap();
    let b = rep.kernels.iter().find(|k| k.name == "B").unwrap();
    assert_eq!(b.jobs, 1);
    assert_eq!(b.response, 4.0);
    assert_eq!(b.schedulable, Some(false));
    let a = rep.kernels.iter().find(|k| k.name == "A").unwrap();
    assert_eq!(a.jobs, 3);
    assert_eq!((a.worst_job, a.response), (1, 5.0));
}
