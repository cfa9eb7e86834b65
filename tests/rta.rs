//! RTA: the chapter's example through the CLI, property tests between the three
//! computations, monotonicity, and bad task sets.

use assert_cmd::Command;
use gpu_makespan::rta::{closed_form_equal_c, list_schedule, simulate_slots, Kernel};
use proptest::prelude::*;
use serde_json::Value;

fn kernels(cs: &[f64], gs: &[u64], rs: &[f64]) -> Vec<Kernel> {
    cs.iter()
        .zip(gs)
        .zip(rs)
        .enumerate()
        .map(|(i, ((&c, &g), &r))| Kernel { name: format!("K{i}"), period: 100.0, wcet: c, blocks: g, threads_per_block: 512, release: r })
        .collect()
}

fn task_set() -> impl Strategy<Value = (Vec<Kernel>, u64)> {
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
        let f: Vec<f64> = list_schedule(&ks, g_max).iter().map(|r| r.finish).collect();
        prop_assert_eq!(closed_form_equal_c(&gs, g_max, c), f);
    }

    #[test]
    fn responses_never_decrease_when_a_c_grows((ks, g_max) in task_set(), pick in any::<prop::sample::Index>(), extra in 1u32..10) {
        let before = list_schedule(&ks, g_max);
        let mut grown = ks.clone();
        let i = pick.index(grown.len());
        grown[i].wcet += f64::from(extra);
        let after = list_schedule(&grown, g_max);
        for (a, b) in after.iter().zip(&before) {
            prop_assert!(a.response >= b.response, "{} {} < {}", a.name, a.response, b.response);
        }
    }
}

fn rta_json(path: &str) -> Value {
    let out = Command::cargo_bin("makespan").unwrap().args(["rta", path, "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn chapter_example_via_cli() {
    let v = rta_json("instances/rta-chapter-example.toml");
    let f: Vec<f64> = v["kernels"].as_array().unwrap().iter().map(|k| k["finish"].as_f64().unwrap()).collect();
    assert_eq!(f, vec![4.0, 10.0, 12.0, 11.0]);
    assert_eq!(v["schedulable"], true);
    for k in v["kernels"].as_array().unwrap() {
        for key in ["name", "finish", "response", "deadline", "schedulable"] {
            assert!(k.get(key).is_some(), "missing {key}");
        }
    }
}

#[test]
fn instruction_kernels_state_their_assumption_and_svg_is_written() {
    let v = rta_json("instances/rta-tx2-instructions.toml");
    let src: Vec<&str> = v["kernels"].as_array().unwrap().iter().map(|k| k["wcet_source"].as_str().unwrap()).collect();
    assert!(src[0].contains("isolated") && src[0].contains("optimistic"), "{}", src[0]);
    assert!(src[1].contains("full-sm") && src[1].contains("turnover"), "{}", src[1]);
    assert_eq!(v["kernels"][0]["wcet"], 47.0);
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("t.svg");
    Command::cargo_bin("makespan").unwrap().args(["rta", "instances/rta-chapter-example.toml", "--svg"]).arg(&svg).assert().success();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg") && text.matches("<rect").count() >= 16);
}

#[test]
fn bad_task_sets_exit_2_with_the_field() {
    let base = std::fs::read_to_string("instances/rta-chapter-example.toml").unwrap();
    let cases = [
        (base.replacen("threads_per_block = 512", "threads_per_block = 256", 1), "threads_per_block"),
        (base.replacen("threads_per_block = 512", "threads_per_block = 768", 1), "threads_per_block"),
        (base.replace("threads_per_block = 512", "threads_per_block = 2048"), "threads_per_block"),
        (base.replacen("blocks = 2", "blocks = 0", 1), "blocks"),
        (base.replacen("period = 15", "period = 0", 1), "period"),
        (base.replacen("wcet = 4", "wcet = 4\nrelease = -1", 1), "release"),
        (base.replacen("wcet = 4", "wcet = 4\ncolour = 1", 1), "colour"),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (i, (text, field)) in cases.iter().enumerate() {
        let p = dir.path().join(format!("c{i}.toml"));
        std::fs::write(&p, text).unwrap();
        let out = Command::cargo_bin("makespan").unwrap().arg("rta").arg(&p).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "case {i}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "case {i}: {err}");
        assert!(err.contains(field), "case {i}: {err}");
    }
}
