//! RTA: property tests between the three computations of the list schedule, and
//! monotonicity. (The CLI's RTA tests are in tests/cli.rs.)

use gpu_makespan::rta::{closed_form_equal_c, list_schedule, simulate_slots, Task};
use proptest::prelude::*;

fn kernels(cs: &[f64], gs: &[u64], rs: &[f64]) -> Vec<Task> {
    cs.iter().zip(gs).zip(rs).enumerate().map(|(i, ((&c, &g), &r))| Task::given(format!("K{i}"), 100.0, c, g, 512, r)).collect()
}

fn task_set() -> impl Strategy<Value = (Vec<Task>, u64)> {
    (1usize..12, 1u64..=16).prop_flat_map(|(n, g_max)| {
        (
            proptest::collection::vec(1u32..20, n),
            proptest::collection::vec(1u64..40, n),
            proptest::collection::vec(0u32..30, n),
            Just(g_max),
        )
            .prop_map(|(c, g, r, g_max)| {
                let c: Vec<f64> = c.into_iter().map(f64::from).collect();
                let r: Vec<f64> = r.into_iter().map(f64::from).collect();
                (kernels(&c, &g, &r), g_max)
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn list_schedule_matches_slot_simulation((ks, g_max) in task_set()) {
        prop_assert_eq!(list_schedule(&ks, g_max), simulate_slots(&ks, g_max).0);
    }

    #[test]
    fn closed_form_matches_list_schedule_on_equal_c(gs in proptest::collection::vec(1u64..40, 1..12), g_max in 1u64..=16, c in 1u32..20) {
        let c = f64::from(c);
        let ks = kernels(&vec![c; gs.len()], &gs, &vec![0.0; gs.len()]);
        prop_assert_eq!(closed_form_equal_c(&gs, g_max, c), list_schedule(&ks, g_max));
    }

    #[test]
    fn responses_never_decrease_when_a_c_grows((ks, g_max) in task_set(), pick in any::<prop::sample::Index>(), extra in 1u32..10) {
        let before = list_schedule(&ks, g_max);
        let mut grown = ks.clone();
        let i = pick.index(grown.len());
        grown[i].wcet += f64::from(extra);
        let after = list_schedule(&grown, g_max);
        for ((a, b), k) in after.iter().zip(&before).zip(&ks) {
            prop_assert!(a - k.release >= b - k.release, "{}: response {} < {}", k.name, a - k.release, b - k.release);
        }
    }
}
