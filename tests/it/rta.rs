//! RTA: the three computations of the list schedule against each other, the per-SM
//! dispatch rules against the reported responses (shorter blocks, any SM choice), and
//! monotonicity. (The CLI's RTA tests are in tests/it/cli.rs.)

use gpu_makespan::rta::analysis::{
    analyse, closed_form_equal_c, launch_order, list_schedule, simulate_slots, simulate_sms, Bound, Task, Workload,
};
use gpu_makespan::rta::gpu::{Demand, Platform};
use gpu_makespan::rta::time::Scale;
use proptest::prelude::*;
use rand::rngs::SmallRng;
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

/// Task sets with mixed block sizes, shared memory and registers on the TX2.
fn mixed_task_set() -> impl Strategy<Value = Vec<Task>> {
    let task = (
        1u128..20,
        1u64..24,
        0u128..30,
        // Sizes that are not whole warps too (33, 80, 682 threads).
        prop_oneof![Just(64u64), Just(128), Just(256), Just(384), Just(512), Just(1024), Just(33), Just(80), Just(682)],
        0u64..30_000,
        0u64..64,
    );
    proptest::collection::vec(task, 1..8).prop_map(|ts| {
        ts.into_iter()
            .enumerate()
            .map(|(i, (c, g, r, b, smem, regs))| Task {
                shared_memory: smem,
                // At most the 32 768 registers a block may use on the TX2 (per warp in units of 256).
                registers_per_thread: regs.min(32_768 / b.div_ceil(32) / 256 * 256 / 32),
                ..Task::given(format!("K{i}"), 1000, c, g, b, r)
            })
            .collect()
    })
}

fn workload(tasks: Vec<Task>) -> Workload {
    Workload { tasks, platform: Platform::TX2, scale: Scale::default(), unit: "t".into() }
}

fn demands_in_launch_order(w: &Workload) -> (Vec<Task>, Vec<Demand>) {
    let demands = gpu_makespan::rta::analysis::demands(w).unwrap();
    let order = launch_order(&w.tasks);
    (order.iter().map(|&i| w.tasks[i].clone()).collect(), order.iter().map(|&i| demands[i]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

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

    /// Whatever each block's time up to C and whatever SM each block
    /// goes to, no kernel of the dispatch rules finishes after the reported finish.
    #[test]
    fn reported_responses_hold_for_shorter_blocks_and_any_sm(tasks in mixed_task_set(), seed in any::<u64>()) {
        let w = workload(tasks);
        let rep = analyse(&w, false).unwrap();
        let (tasks, demands) = demands_in_launch_order(&w);
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..8 {
            let sim = simulate_sms(
                &tasks,
                &demands,
                &w.platform,
                &mut |k, _| rng.random_range(1..=tasks[k].wcet),
                &mut |room, _| room[0],
            );
            for (k, (s, row)) in sim.iter().zip(&rep.kernels).enumerate() {
                prop_assert!(*s as f64 <= row.finish, "{} (#{k}): simulated {} > reported {}", row.name, s, row.finish);
            }
        }
    }

    /// With one block size the per-SM dispatch rules are the list schedule, for any SM
    /// choice; the report says the responses are exact.
    #[test]
    fn one_block_size_is_exact((ks, _) in task_set(), seed in any::<u64>()) {
        let w = workload(ks);
        let rep = analyse(&w, false).unwrap();
        prop_assert_eq!(rep.bound, Bound::ExactMonotone);
        let (tasks, demands) = demands_in_launch_order(&w);
        let mut rng = SmallRng::seed_from_u64(seed);
        let sim = simulate_sms(&tasks, &demands, &w.platform, &mut |k, _| tasks[k].wcet, &mut |room, _| room[rng.random_range(0..room.len())]);
        let reported: Vec<f64> = rep.kernels.iter().map(|k| k.finish).collect();
        prop_assert_eq!(sim.iter().map(|&s| s as f64).collect::<Vec<_>>(), reported);
    }
}
