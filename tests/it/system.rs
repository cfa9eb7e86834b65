//! The CPU-GPU system analysis: a small system computed by hand (every formula), the
//! WATERS 2019 AMALTHEA model read with its counts, response times monotone in C, a GPU
//! response moving the offloading task's response as the equations say, and bad input.

use crate::common;

use common::cli::{input_error, json_of, makespan, temp_file};
use gpu_makespan::system::cost::Cost;
use gpu_makespan::system::cpu::{analyse_core, Case, Entity, OffloadMode};
use gpu_makespan::system::model::ms;
use gpu_makespan::system::report::{analyse, Options, Paradigm, SystemReport};
use gpu_makespan::system::Ps;
use gpu_makespan::system::{model::System, read};
use proptest::prelude::*;

const SMALL: &str = "instances/system/small.toml";
const WATERS: &str = "instances/amalthea/waters-challenge-2019.amxmi";

fn small() -> System {
    read(&std::fs::read_to_string(SMALL).unwrap(), SMALL).unwrap()
}

fn run(sys: &System, communication: Paradigm, offload: OffloadMode) -> SystemReport {
    analyse(sys, None, Options::default().with_communication(communication).with_offload(offload)).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// The row of task `name` on any core.
fn row<'a>(rep: &'a SystemReport, name: &str) -> &'a gpu_makespan::system::cpu::Response {
    rep.cores.iter().flat_map(|c| &c.tasks).find(|t| t.entity.name == name).unwrap_or_else(|| panic!("no row {name}"))
}

#[test]
fn the_small_system_by_hand() {
    // 1 GHz: one cycle is 1 ns. T1: R1 = 1..2 M cycles, writes x (2 lines x 10 cycles),
    // implicit copy-out of x (20 more): C+ = 2 000 040 ns, C- = 1 000 040 ns.
    let rep = run(&small(), Paradigm::Implicit, OffloadMode::Model);
    let t1 = row(&rep, "T1");
    assert!(close(ms(t1.entity.c.worst), 2.00004) && close(ms(t1.entity.c.best), 1.00004), "{t1:?}");
    assert!(close(ms(t1.worst.unwrap()), 2.00004) && close(ms(t1.best.unwrap()), 1.00004));
    // T2: R2 = 0.5..1 M cycles, reads x (20), copy-in of x (20): C+ = 1.00004 ms.
    // R+ = C2 + ceil(R / 5) C1 = 1.00004 + 2.00004 = 3.00008 ms (rate-monotonic, T1 first).
    let t2 = row(&rep, "T2");
    assert!(close(ms(t2.entity.c.worst), 1.00004) && close(ms(t2.worst.unwrap()), 3.00008), "{t2:?}");
    // Best case from R+: ceil0((3.00008 - 0 - 5) / 5) = 0 interferences: R- = C- = 0.50004.
    assert!(close(ms(t2.best.unwrap()), 0.50004), "{t2:?}");
    // OFF offloads G (GPU ticks 2..3 M cycles, alone on the GPU: R_gpu = [2, 3] ms) and
    // waits actively: C = pre + post + R_gpu = [1 + 1 + 2, 1 + 1 + 3].
    let off = row(&rep, "OFF");
    assert_eq!(off.entity.case, Case::SyncOffload);
    assert!(close(ms(off.entity.c.best), 4.0) && close(ms(off.entity.c.worst), 5.0) && close(ms(off.worst.unwrap()), 5.0), "{off:?}");
    assert!(close(ms(rep.gpu[0].r_worst.unwrap()), 3.0) && close(ms(rep.gpu[0].response.best), 2.0));
    // The chain T1 -> T2, implicit: worst reaction (5 + 2.00004) + (10 + 3.00008); best
    // R1- + C2- = 1.00004 + 0.50004; LET: 2 (5 + 10) and 5 + 10.
    let c = &rep.chains[0];
    let i = c.implicit.unwrap();
    assert!(close(i.reaction.worst, 20.00012) && close(i.reaction.best, 1.50008), "{i:?}");
    assert!(close(i.initial_reaction.worst, 2.00004 + 10.0 + 3.00008));
    assert!(close(i.age.worst, 5.0 + i.initial_reaction.worst - i.initial_reaction.best));
    let l = c.let_.unwrap();
    assert!(close(l.reaction.worst, 30.0) && close(l.reaction.best, 15.0) && close(l.age.best, 10.0));
    assert_eq!(c.meets_requirement, Some(true));
    assert!(rep.schedulable);
    // Direct communication: no copies (C1+ = 2 000 020 ns).
    let direct = run(&small(), Paradigm::Direct, OffloadMode::Model);
    assert!(close(ms(row(&direct, "T1").entity.c.worst), 2.00002));
    // LET verdict: 30 ms > the 25 ms requirement.
    let by_let = run(&small(), Paradigm::Let, OffloadMode::Model);
    assert_eq!(by_let.chains[0].meets_requirement, Some(false));
    assert!(!by_let.schedulable);
}

#[test]
fn asynchronous_offloading_suspends_and_jitters() {
    let rep = run(&small(), Paradigm::Implicit, OffloadMode::Async);
    let off = row(&rep, "OFF");
    assert_eq!(off.entity.case, Case::AsyncOffload);
    // C = pre + post, suspension = R_gpu: R+ = 2 + 3, R- = 2 + 2.
    assert!(
        close(ms(off.entity.c.worst), 2.0)
            && close(ms(off.entity.suspension.worst), 3.0)
            && close(ms(off.worst.unwrap()), 5.0)
            && close(ms(off.best.unwrap()), 4.0)
    );
    // A lower-priority task LOW (T = 40, C = 16) on OFF's core sees OFF (T = 20, C = 2)
    // with the jitter R - C = 3: R = 16 + ceil((R + 3) / 20) 2: 16 -> 18 -> 20 -> 20
    // (18 without the jitter).
    let mut sys = small();
    sys.runnables.insert(
        "long".into(),
        gpu_makespan::system::model::Runnable {
            name: "long".into(),
            ticks: [("A57".to_string(), gpu_makespan::system::model::TickRange { lower: 16_000_000, upper: 16_000_000 })].into(),
            ..Default::default()
        },
    );
    sys.tasks.push(gpu_makespan::system::model::Task {
        name: "LOW".into(),
        period: Some(Ps::new(40 * 1_000_000_000)),
        unit: Some("Core1".into()),
        pre: vec!["long".into()],
        ..Default::default()
    });
    let rep = run(&sys, Paradigm::Direct, OffloadMode::Async);
    assert!(close(ms(row(&rep, "LOW").worst.unwrap()), 20.0), "{:?}", row(&rep, "LOW"));
    let sync = run(&sys, Paradigm::Direct, OffloadMode::Sync);
    // Synchronous: OFF's C is 5 and no jitter: R = 16 + ceil(R / 20) 5: 16 -> 21 -> 26 -> 26.
    assert!(close(ms(row(&sync, "LOW").worst.unwrap()), 26.0), "{:?}", row(&sync, "LOW"));
}

#[test]
fn a_longer_gpu_response_moves_the_offloading_task_by_as_much() {
    let text = std::fs::read_to_string(SMALL).unwrap();
    let slower = read(&text.replace("GPU_def = [2000000, 3000000]", "GPU_def = [2000000, 4000000]"), "slower").unwrap();
    for mode in [OffloadMode::Sync, OffloadMode::Async] {
        let (a, b) = (run(&small(), Paradigm::Implicit, mode), run(&slower, Paradigm::Implicit, mode));
        assert!(close(ms(b.gpu[0].r_worst.unwrap()) - ms(a.gpu[0].r_worst.unwrap()), 1.0));
        let (ra, rb) = (ms(row(&a, "OFF").worst.unwrap()), ms(row(&b, "OFF").worst.unwrap()));
        assert!(close(rb - ra, 1.0), "{mode:?}: {ra} -> {rb}");
    }
}

#[test]
fn a_gpu_task_mapped_to_a_cpu_runs_with_its_trigger() {
    let mut sys = small();
    sys.map("G", "Core1", "--map").unwrap();
    let rep = run(&sys, Paradigm::Implicit, OffloadMode::Model);
    let g = row(&rep, "G");
    assert_eq!(g.entity.case, Case::GpuTaskOnCpu);
    assert_eq!(g.entity.tasks, vec!["OFF".to_string(), "G".to_string()]);
    // pre + G's A57 ticks + post: [1 + 6 + 1, 1 + 8 + 1] ms at OFF's period.
    assert!(close(ms(g.entity.c.best), 8.0) && close(ms(g.entity.c.worst), 10.0) && close(ms(g.entity.period), 20.0), "{g:?}");
    assert!(rep.gpu.is_empty() && rep.cores.iter().flat_map(|c| &c.tasks).all(|t| t.entity.name != "OFF"));
}

#[test]
fn the_kernels_file_gives_the_gpu_response() {
    let v = json_of(&["system", SMALL, "--kernels", "instances/system/small-kernels.toml"]);
    // 4 blocks of 1024 threads, 1.5 ms each, 2 per SM on 2 SMs: all at once.
    assert_eq!(v["gpu"][0]["kernel_response"], 1.5);
    assert_eq!(v["gpu"][0]["source"], "kernels file");
    assert!(v["warnings"].as_array().unwrap().is_empty(), "{}", v["warnings"]);
    let dir = tempfile::tempdir().unwrap();
    let kernels = std::fs::read_to_string("instances/system/small-kernels.toml").unwrap().replace("name = \"G\"", "name = \"X\"");
    let other = json_of(&["system", SMALL, "--kernels", &temp_file(&dir, "k.toml", &kernels)]);
    assert!(other["warnings"].to_string().contains("named after no GPU task"), "{}", other["warnings"]);
    // Two kernels of G, G/a and G/b, that could run side by side on the two SMs: one
    // stream runs them one after another, so G takes 1.5 + 1.5 ms, not 1.5.
    let two = "unit = \"ms\"\n[[kernels]]\nname = \"G/a\"\nperiod = 20\nwcet = 1.5\nblocks = 1\nthreads_per_block = 1024\n[[kernels]]\nname = \"G/b\"\nperiod = 20\nwcet = 1.5\nblocks = 1\nthreads_per_block = 1024\n";
    let serial = json_of(&["system", SMALL, "--kernels", &temp_file(&dir, "two.toml", two)]);
    assert_eq!(serial["gpu"][0]["kernel_response"], 3.0, "{}", serial["gpu"]);
    let off =
        v["cores"].as_array().unwrap().iter().flat_map(|c| c["tasks"].as_array().unwrap()).find(|t| t["name"] == "OFF").unwrap().clone();
    assert_eq!(off["c_worst"], 3.5);
    for key in ["communication", "offload", "cores", "gpu", "gpu_bound", "chains", "schedulable", "verdict", "warnings", "assumptions"] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
}

#[test]
fn the_waters_2019_model_is_read_with_its_counts() {
    let sys = read(&std::fs::read_to_string(WATERS).unwrap(), WATERS).unwrap();
    assert_eq!(sys.tasks.len(), 14);
    assert_eq!(sys.tasks.iter().filter(|t| t.period.is_some()).count(), 10);
    assert_eq!(sys.tasks.iter().filter(|t| t.offload.is_some()).count(), 4);
    assert_eq!(sys.runnables.len(), 27);
    assert_eq!(sys.labels.len(), 30);
    assert_eq!(sys.stimuli.len(), 12);
    assert_eq!(sys.stimuli.values().filter(|p| p.is_some()).count(), 8);
    assert_eq!(sys.tasks.iter().filter(|t| t.deadline.is_some()).count(), 9);
    let periods: Vec<u128> = sys.tasks.iter().filter_map(|t| t.period).map(Ps::get).collect();
    assert_eq!(periods.iter().min(), Some(&5_000_000_000));
    assert_eq!(periods.iter().max(), Some(&400_000_000_000));
    assert_eq!(sys.units.iter().filter(|u| !u.gpu).count(), 6);
    assert_eq!(sys.labels["Cloud_map_host"], 1_500_000);
    let detection = sys.task("PRE_Detection_gpu_POST").unwrap();
    assert_eq!(detection.offload.as_ref().unwrap().target, "Detection");
    assert_eq!(detection.offload.as_ref().unwrap().wait, gpu_makespan::system::model::Wait::Passive);
    assert_eq!(detection.post, vec!["AsyncOffloadingCosts".to_string(), "Detection_Postprocessing".to_string()]);
    assert!(sys.warnings.iter().any(|w| w.contains("CacheDefinition")), "{:?}", sys.warnings);
    // And analysed from the command line, with chains and a timeline.
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("chains.svg");
    let out = makespan()
        .args(["system", WATERS, "--chains", "instances/amalthea/waters-challenge-2019-chains.toml", "--json", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["gpu"].as_array().unwrap().len(), 4);
    assert_eq!(v["chains"].as_array().unwrap().len(), 2);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("lidar-to-steering"));
    // The time axis starts at 0: no negative tick (labels sit left of the axis).
    let negative = text.lines().map(str::trim).any(|l| l.strip_prefix('-').is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())));
    assert!(!negative, "a negative tick label in the chain timeline");
}

#[test]
fn the_integer_mapping_numbers_cpus_then_gpus() {
    let mut sys = small();
    // Units: Core0 = 0, Core1 = 1, GPU = 2; tasks T1, T2, OFF, G.
    sys.map_numbers(&[1, 1, 0, 2], Default::default(), "--mapping").unwrap();
    let rep = run(&sys, Paradigm::Implicit, OffloadMode::Model);
    assert_eq!(rep.cores.iter().find(|c| c.unit == "Core1").unwrap().tasks.len(), 2);
    assert!(sys.map_numbers(&[1, 1, 0], Default::default(), "--mapping").is_err());
    assert!(sys.map_numbers(&[1, 1, 0, 3], Default::default(), "--mapping").is_err());
}

#[test]
fn bad_system_input_names_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(SMALL).unwrap();
    let bad = temp_file(&dir, "bad.amxmi", "<am:Amalthea xmlns:am=\"http://app4mc.eclipse.org/amalthea/1.0.0\"><swModel>");
    input_error(&["system", &bad], "not XML");
    let no_unit = temp_file(&dir, "nounit.toml", &text.replace("unit = \"Core1\"\npre", "pre"));
    input_error(&["system", &no_unit], "tasks.OFF.unit");
    let bad_label = temp_file(&dir, "label.toml", &text.replace("reads = [\"x\"]", "reads = [\"z\"]"));
    input_error(&["system", &bad_label], "runnables.R2");
    let no_ticks = temp_file(&dir, "ticks.toml", &text.replace("name = \"R2\"\nticks = { A57", "name = \"R2\"\nticks = { A53"));
    input_error(&["system", &no_ticks], "runnables.R2.ticks");
    input_error(&["system", SMALL, "--map", "T1"], "--map");
    input_error(&["system", SMALL, "--map", "T1=Core9"], "--map");
    let err = input_error(&["system", SMALL, "--mapping", "0,0"], "--mapping");
    assert!(err.contains("--mapping = 0,0") && err.contains("got 2"), "the list given, not its length: {err}");
    input_error(&["system", SMALL, "--map", "OFF=GPU"], "tasks.OFF.offload");
    let twice = temp_file(&dir, "twice.toml", &format!("{text}\n[[tasks]]\nname = \"OFF2\"\nperiod = \"40 ms\"\nunit = \"Core1\"\npre = [\"pre\"]\noffload = \"G\"\nwait = \"active\"\n"));
    input_error(&["system", &twice], "tasks.G.stimuli");
    input_error(&["system", SMALL, "--communication", "telepathy"], "--communication");
    let chains = temp_file(&dir, "chains.toml", "[[chains]]\nname = \"c\"\ntasks = [\"T1\", \"NOPE\"]\n");
    input_error(&["system", SMALL, "--chains", &chains], "chains.c");
    let old = temp_file(&dir, "old.amxmi", &std::fs::read_to_string(WATERS).unwrap().replace("activityGraph", "callGraph"));
    input_error(&["system", &old], "0.9.8");
    let coop = temp_file(
        &dir,
        "coop.amxmi",
        &std::fs::read_to_string(WATERS).unwrap().replacen("preemption=\"preemptive\"", "preemption=\"cooperative\"", 1),
    );
    input_error(&["system", &coop], "preemption");
    input_error(&["system", "instances/no-such-model.amxmi"], "no-such-model");
}

fn entity(period: u128, c: u128) -> Entity {
    Entity::periodic(&format!("t{period}-{c}"), Ps::new(period), Cost { best: Ps::new(c / 2), worst: Ps::new(c) })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A longer execution time of any task never shortens any worst-case response, and
    /// a task that had none (R > T) still has none.
    #[test]
    fn responses_are_monotone_in_c(tasks in prop::collection::vec((1u128..60, 1u128..20), 1..6), which in 0usize..6, more in 1u128..10) {
        let ents: Vec<Entity> = tasks.iter().map(|&(t, c)| entity(t * 10, c)).collect();
        let mut longer = ents.clone();
        let k = which % ents.len();
        longer[k].c.worst += Ps::new(more);
        let (_, a) = analyse_core(&ents.iter().collect::<Vec<_>>(), gpu_makespan::system::Reference::Proven, (&Default::default(), None));
        let (_, b) = analyse_core(&longer.iter().collect::<Vec<_>>(), gpu_makespan::system::Reference::Proven, (&Default::default(), None));
        for (x, y) in a.iter().zip(&b) {
            match (x.worst, y.worst) {
                (Some(rx), Some(ry)) => prop_assert!(ry >= rx, "{:?} -> {:?}", rx, ry),
                (None, Some(_)) => prop_assert!(false, "a longer C made an unanalysable task analysable"),
                _ => {}
            }
            if let (Some(bx), Some(wx)) = (x.best, x.worst) {
                prop_assert!(bx <= wx);
            }
        }
    }
}

#[test]
fn the_models_event_chains_become_chains() {
    let model = std::fs::read_to_string(WATERS).unwrap();
    let events = r#"<eventModel>
    <events xsi:type="am:ProcessEvent" name="lidar_end" eventType="terminate" entity="Lidar_Grabber?type=Task" />
    <events xsi:type="am:RunnableEvent" name="planner_start" eventType="start" entity="Planner_Function?type=Runnable" />
    <events xsi:type="am:ProcessEvent" name="planner_end" eventType="terminate" entity="Planner?type=Task" />
    <events xsi:type="am:ProcessEvent" name="dasm_start" eventType="start" entity="DASM?type=Task" />
    <events xsi:type="am:LabelEvent" name="grid_write" entity="Occupancy_grid_host?type=Label" />
  </eventModel>
  <constraintsModel>
    <eventChains name="EC1" stimulus="lidar_end?type=ProcessEvent" response="dasm_start?type=ProcessEvent">
      <items xsi:type="am:EventChainContainer"><eventChain name="s1" stimulus="lidar_end?type=ProcessEvent" response="planner_start?type=RunnableEvent" /></items>
      <items xsi:type="am:EventChainContainer"><eventChain name="s2" stimulus="planner_end?type=ProcessEvent" response="dasm_start?type=ProcessEvent" /></items>
    </eventChains>
    <eventChains name="EC2" stimulus="grid_write?type=LabelEvent" response="dasm_start?type=ProcessEvent" />
    <timingConstraints xsi:type="am:EventChainLatencyConstraint" name="L1" scope="EC1?type=EventChain" type="Reaction">
      <maximum value="100" unit="ms" />
    </timingConstraints>"#;
    let with_chains = model.replacen("<constraintsModel>", events, 1);
    let sys = read(&with_chains, "with-chains").unwrap();
    assert_eq!(sys.chains.len(), 1, "{:?}", sys.chains);
    assert_eq!(sys.chains[0].name, "EC1");
    assert_eq!(sys.chains[0].tasks, vec!["Lidar_Grabber".to_string(), "Planner".to_string(), "DASM".to_string()]);
    assert_eq!(sys.chains[0].requirement, Some(Ps::new(100 * 1_000_000_000)));
    assert!(sys.warnings.iter().any(|w| w.contains("event chain EC2 left out") && w.contains("LabelEvent")), "{:?}", sys.warnings);
    // Without contention every task of the chain has its R+ (with it, Planner passes its
    // period on Core3).
    let off = Options::default()
        .with_communication(Paradigm::Implicit)
        .with_offload(OffloadMode::Model)
        .with_contention(gpu_makespan::system::ContentionMode::Off);
    let rep = analyse(&sys, None, off).unwrap();
    assert!(rep.chains[0].implicit.is_some());
}

#[test]
fn contention_on_the_round_robin_interconnect() {
    let with = json_of(&["system", WATERS]);
    let off = json_of(&["system", WATERS, "--contention", "off"]);
    assert_eq!(with["contention"]["mode"], "round-robin");
    assert_eq!(off["contention"]["mode"], "none");
    // The model gives the interconnect's bursts (4 beats), clock (1.5 GHz) and ports
    // (128 bits; the cores' are 64): a core's line is 8 beats, 2 grants, each waiting one
    // grant (4 cycles: 2.667 ns, rounded up) of Core0, Core3-5 and the GPU; Core2 has no
    // task. The GPU's line is one grant.
    let wait = |v: &serde_json::Value, unit: &str| {
        v["contention"]["units"].as_array().unwrap().iter().find(|u| u["unit"] == unit).unwrap()["wait_ns"].clone()
    };
    assert_eq!(wait(&with, "Core1"), 26.67);
    assert_eq!(wait(&with, "GP10B"), 13.335);
    assert!(with["contention"]["grant"].as_str().unwrap().contains("one burst of at most 4 beats"), "{}", with["contention"]);
    // The cautious reading: a transfer holds the interconnect for its unit's latency:
    // Core0 16 cycles at 2 GHz (8 ns), Core3-5 40 cycles (20 ns each), the GPU 5 cycles
    // at 1.5 GHz (3.334 ns).
    let latency = json_of(&["system", WATERS, "--contention", "latency"]);
    assert_eq!(wait(&latency, "Core1"), 71.334);
    // A memory with an access latency, or an interconnect with latencies of its own:
    // bursts alone would hold it too briefly, so the cautious reading, with a warning.
    let dir = tempfile::tempdir().unwrap();
    let waters = std::fs::read_to_string(WATERS).unwrap();
    let slow = waters.replace(
        r#"<accessLatency xsi:type="am:DiscreteValueConstant" value="0" />"#,
        r#"<accessLatency xsi:type="am:DiscreteValueConstant" value="10" />"#,
    );
    let own = waters.replace(
        r#"maxBurstSize="4" maxConcurrentTransfers="1" />"#,
        r#"maxBurstSize="4" maxConcurrentTransfers="1"><readLatency xsi:type="am:DiscreteValueConstant" value="3" /></definitions>"#,
    );
    for (name, text, needle) in [("slow.amxmi", slow, "the memory's access latency"), ("own.amxmi", own, "its own latencies")] {
        assert_ne!(text, waters);
        let v = json_of(&["system", &temp_file(&dir, name, &text)]);
        assert_eq!(wait(&v, "Core1"), 71.334, "{name}");
        assert!(v["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains(needle)), "{name}: {}", v["warnings"]);
    }
    // Only worst cases move, never down.
    let tasks = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["cores"].as_array().unwrap().iter().flat_map(|c| c["tasks"].as_array().unwrap().clone()).collect()
    };
    for (a, b) in tasks(&with).iter().zip(tasks(&off)) {
        assert_eq!(a["name"], b["name"]);
        assert_eq!(a["c_best"], b["c_best"], "{}", a["name"]);
        assert!(a["c_worst"].as_f64() >= b["c_worst"].as_f64(), "{}", a["name"]);
    }
    // Lidar_Grabber: 11.743 ms without contention; its lines wait at most 26.67 ns each
    // (per access), less over its window (job-driven); the cautious reading charges more.
    let c = |v: &serde_json::Value| tasks(v).into_iter().find(|t| t["name"] == "Lidar_Grabber").unwrap()["c_worst"].as_f64().unwrap();
    assert!((c(&off) - 11.743).abs() < 1e-3, "{}", c(&off));
    assert!((c(&with) - 13.924).abs() < 1e-3, "{}", c(&with));
    assert!(c(&latency) > c(&with), "{}", c(&latency));
}

/// APP4RTA's default integer mapping of the WATERS model (its screenshots), in its unit
/// numbering: Denver Core0-1 as 0-1, A57 Core2-5 as 2-5, the GPU 6.
const APP4RTA_MAPPING: &str = "4,1,1,3,4,0,3,3,3,0,6,2,5,6";

fn task_json(v: &serde_json::Value, name: &str) -> serde_json::Value {
    v["cores"].as_array().unwrap().iter().flat_map(|c| c["tasks"].as_array().unwrap().clone()).find(|t| t["name"] == name).unwrap()
}

#[test]
fn app4rta_numbers_the_units_by_name() {
    let v = json_of(&["system", WATERS, "--mapping", APP4RTA_MAPPING, "--unit-order", "app4rta"]);
    let unit_of = |task: &str| -> String {
        v["cores"].as_array().unwrap().iter().find(|c| c["tasks"].as_array().unwrap().iter().any(|t| t["name"] == task)).unwrap()["unit"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(unit_of("Planner"), "Core0");
    assert_eq!(unit_of("Localization"), "Core2");
    assert_eq!(unit_of("Lane_detection"), "Core5");
    let gpu: Vec<&str> = v["gpu"].as_array().unwrap().iter().map(|g| g["task"].as_str().unwrap()).collect();
    assert_eq!(gpu, ["SFM", "Detection"]);
    // The model's several-unit affinities are overridden: no warning about them.
    assert!(!v["warnings"].to_string().contains("affinity"), "{}", v["warnings"]);
    assert!(json_of(&["system", WATERS])["warnings"].to_string().contains("affinity"));
    // The model's order numbers the A57 cores first: 0 is Core2.
    let model = json_of(&["system", WATERS, "--mapping", APP4RTA_MAPPING]);
    assert!(model["cores"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["unit"] == "Core2" && c["tasks"].as_array().unwrap().iter().any(|t| t["name"] == "Planner")));
}

#[test]
fn reference_mode_follows_the_gsoc_document_and_is_not_proven() {
    let args = ["system", WATERS, "--mapping", APP4RTA_MAPPING, "--unit-order", "app4rta", "--offload", "sync", "--chains"];
    let chains = "instances/amalthea/waters-challenge-2019-chains.toml";
    let proven = json_of(&[&args[..], &[chains, "--contention", "off"]].concat());
    let reference = json_of(&[&args[..], &[chains, "--reference", "app4rta"]].concat());
    assert_eq!(reference["reference"], "app4rta");
    assert_eq!(reference["verdict"], "optimistic");
    assert_eq!(reference["contention"]["mode"], "none");
    assert_eq!(reference["gpu_sharing"]["mode"], "alone");
    // A GPU task on a CPU: its trigger's labels only, not its pre- and post-processing
    // ticks (the document), so C drops; tasks with ticks only are the same.
    for name in ["Localization", "Lane_detection"] {
        assert!(task_json(&reference, name)["c_worst"].as_f64() < task_json(&proven, name)["c_worst"].as_f64(), "{name}");
    }
    assert_eq!(task_json(&reference, "Planner")["c_worst"], task_json(&proven, "Planner")["c_worst"]);
    // LET worst reaction of Lidar_Grabber -> Planner -> DASM (33, 15, 5 ms): the document's
    // 2 (33 + 15) + 5 = 101 ms against the proven 2 (33 + 15 + 5) = 106 ms.
    assert_eq!(reference["chains"][0]["let"]["reaction"]["worst"], 101.0);
    assert_eq!(proven["chains"][0]["let"]["reaction"]["worst"], 106.0);
    let text =
        String::from_utf8(makespan().args([&args[..], &[chains, "--reference", "app4rta"]].concat()).output().unwrap().stdout).unwrap();
    assert!(text.lines().next().unwrap().contains("NOT proven"), "{text}");
}

#[test]
fn time_slices_come_from_the_model_within_its_schedulers_limits() {
    let v = json_of(&["system", WATERS, "--context-switch", "50us"]);
    assert_eq!(v["gpu_sharing"]["mode"], "time-slices");
    let slices: Vec<f64> = v["gpu"].as_array().unwrap().iter().map(|g| g["time_slice"].as_f64().unwrap()).collect();
    assert_eq!(slices, [7.2, 50.0, 50.0, 50.0]);
    assert_eq!(v["verdict"], "proven");
    // A slice below GPU_Sched's minimumTimeslice (1000 us) is raised to it, with a warning.
    let dir = tempfile::tempdir().unwrap();
    let model = std::fs::read_to_string(WATERS).unwrap().replace("TimeSlice_SFM\" value=\"7200µs\"", "TimeSlice_SFM\" value=\"500µs\"");
    let short = json_of(&["system", &temp_file(&dir, "w.amxmi", &model)]);
    assert_eq!(short["gpu"][0]["time_slice"], 1.0);
    assert!(short["warnings"].to_string().contains("outside its scheduler GPU_Sched's limits"), "{}", short["warnings"]);
    // Contention the model states but the analysis leaves out: not proven.
    assert_eq!(json_of(&["system", WATERS, "--context-switch", "50us", "--contention", "off"])["verdict"], "optimistic");
}

/// Issue 50's reproducer of the best case: `H` (every 2 ms, 1 ms) above `L` (every 10 ms,
/// pre 0.2 ms, offloads `G` of 1 ms and waits as `wait` says, post 0.2 ms).
fn waits_under_preemption(wait: &str) -> String {
    crate::system_gpu::h_above_l(("2 ms", "1000000"), "10 ms", ("200000", wait, "200000"), "1000000", "")
}

#[test]
fn the_best_case_lets_preemptions_overlap_the_wait() {
    // L released at 0: pre 0-0.2, G 0.2-1.2 while H (released at 0.2) runs 0.2-1.2, post
    // 1.2-1.4: 1.4 ms. The Redell-Sanfridson recurrence over C- = 1.4 said 2.4.
    for wait in ["active", "passive"] {
        let rep = run(&read(&waits_under_preemption(wait), "issue50").unwrap(), Paradigm::Direct, OffloadMode::Model);
        let l = row(&rep, "L");
        assert!(close(ms(l.best.unwrap()), 1.4), "{wait}: {l:?}");
        // The chain's best reaction and initial reaction start from it: 1.4 + C-(H) = 2.4.
        let c = rep.chains[0].implicit.unwrap();
        assert!(close(c.reaction.best, 2.4) && close(c.initial_reaction.best, 2.4), "{wait}: {c:?}");
        // H keeps its own: 1 ms.
        assert!(close(ms(row(&rep, "H").best.unwrap()), 1.0));
    }
}

#[test]
fn a_task_below_a_synchronous_offloader_counts_only_its_time_on_the_core() {
    // H and L both every 3 ms, X (5 ms, period 100 ms) below them. With H released 0.2
    // after L, each 3 ms holds L's pre (0.2), H over L's wait (1), L's post (0.2) and 1.6
    // ms for X: X released at 1.4 runs 1.4-3, 4.4-6, 7.4-9, 10.4-10.6: 9.2 ms. Counting
    // L's whole C- (1.4 with the wait) beside H's 1 ms per 3 ms gave R- = 24.2. The
    // recurrence's 9.2 holds only once H and L run: a job of X before their first
    // release takes its own 5 ms, which is R- now (`cpu::no_interference`).
    let x = "[[runnables]]\nname = \"x\"\nticks = { A57 = 5000000 }\n[[tasks]]\nname = \"X\"\nperiod = \"100 ms\"\npriority = 0\nunit = \"Core0\"\nrunnables = [\"x\"]";
    let text = crate::system_gpu::h_above_l(("3 ms", "1000000"), "3 ms", ("200000", "active", "200000"), "1000000", x);
    let rep = run(&read(&text, "below").unwrap(), Paradigm::Direct, OffloadMode::Model);
    let x = row(&rep, "X");
    assert!(close(ms(x.worst.unwrap()), 26.6), "{x:?}");
    assert!(close(ms(x.best.unwrap()), 5.0), "{x:?}");
}

#[test]
fn nonsense_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(SMALL).unwrap();
    let zero = temp_file(&dir, "d0.toml", &text.replacen("period = \"5 ms\"", "period = \"5 ms\"\ndeadline = \"0 ms\"", 1));
    input_error(&["system", &zero], "tasks.T1.deadline");
    let idle = temp_file(&dir, "idle.toml", &text.replacen("runnables = [\"R1\"]", "runnables = []", 1));
    input_error(&["system", &idle], "tasks.T1.runnables");
    let idle_gpu = temp_file(&dir, "idle-gpu.toml", &text.replacen("runnables = [\"G_function\"]", "runnables = []", 1));
    input_error(&["system", &idle_gpu], "tasks.G.runnables");
    // A GPU task whose kernels come from the kernels file needs no runnable.
    json_of(&["system", &idle_gpu, "--kernels", "instances/system/small-kernels.toml"]);
    // No GPU unit: named as such, for the TOML form and for an AMALTHEA model.
    let no_gpu = text.replacen("[[units]]\nname = \"GPU\"\nkind = \"GPU_def\"\ngpu = true\nfrequency = \"1 GHz\"\n", "", 1);
    assert!(!no_gpu.contains("gpu = true"));
    let message = input_error(&["system", &temp_file(&dir, "nogpu.toml", &no_gpu)], "tasks.G.unit");
    assert!(message.contains("no GPU unit") && message.contains("OFF offloads G"), "{message}");
    let waters = std::fs::read_to_string(WATERS).unwrap();
    let start = waters.find("<modules xsi:type=\"am:ProcessingUnit\" name=\"GP10B\"").unwrap();
    let end = start + waters[start..].find("</modules>").unwrap() + "</modules>".len();
    let without = format!("{}{}", &waters[..start], &waters[end..]);
    let message = input_error(&["system", &temp_file(&dir, "nogpu.amxmi", &without)], ".unit");
    assert!(message.contains("no GPU unit") && !message.contains("scheduler"), "{message}");
    // The interconnect's burst fields: a burst of 0 beats, a port under 8 bits, a
    // frequency without a unit.
    let ic = |extra: &str| text.clone() + &format!("\n[interconnect]\npolicy = \"RoundRobin\"\n{extra}");
    input_error(&["system", &temp_file(&dir, "b0.toml", &ic("max_burst_size = 0\n"))], "interconnect.max_burst_size");
    input_error(&["system", &temp_file(&dir, "p4.toml", &ic("port_bits = 4\n"))], "interconnect.port_bits");
    input_error(&["system", &temp_file(&dir, "f.toml", &ic("frequency = \"1.5\"\n"))], "interconnect.frequency");
    input_error(
        &["system", &temp_file(&dir, "u4.toml", &text.replacen("write_latency = 10", "write_latency = 10\nport_bits = 0", 1))],
        "units.Core0.port_bits",
    );
}

/// The TOML form's interconnect with bursts: Core0's 64-bit port makes a line 2 grants
/// of 4 beats, each waiting one burst of Core1 (4 cycles at 1 GHz: 4 ns); without the
/// burst fields a grant holds it for Core1's whole latency.
#[test]
fn the_toml_form_gives_the_interconnects_bursts() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(SMALL).unwrap().replacen("write_latency = 10", "write_latency = 10\nport_bits = 64", 1);
    let text = text.replacen(
        "frequency = \"1 GHz\"\n\n[[units]]\nname = \"GPU\"",
        "frequency = \"1 GHz\"\nread_latency = 30\nwrite_latency = 30\n\n[[units]]\nname = \"GPU\"",
        1,
    );
    let plain = text.clone() + "\n[interconnect]\npolicy = \"RoundRobin\"\n";
    let bursts = plain.clone() + "max_burst_size = 4\nfrequency = \"1 GHz\"\nport_bits = 128\n";
    let wait = |v: &serde_json::Value, unit: &str| {
        v["contention"]["units"].as_array().unwrap().iter().find(|u| u["unit"] == unit).unwrap()["wait_ns"].as_f64().unwrap()
    };
    let with = json_of(&["system", &temp_file(&dir, "bursts.toml", &bursts)]);
    let without = json_of(&["system", &temp_file(&dir, "plain.toml", &plain)]);
    // Core0 waits for Core1 and the GPU (one 4-beat burst each, 4 ns) per grant, 2 grants.
    assert_eq!(wait(&with, "Core0"), 16.0, "{}", with["contention"]);
    // Without bursts: Core1's 30 cycles at 1 GHz and the GPU's latency (0 cycles).
    assert_eq!(wait(&without, "Core0"), 30.0, "{}", without["contention"]);
}

#[test]
fn a_chain_may_revisit_a_task() {
    // T1 -> T1: T1's value read by a later job of T1 (docs/system-model.md, "Chains"):
    // implicit worst 2 (5 + 2.00004), best R-(T1) + C-(T1); T1 -> T2 -> T1 likewise.
    let mut sys = small();
    sys.chains = vec![
        gpu_makespan::system::model::Chain { name: "self".into(), tasks: vec!["T1".into(), "T1".into()], requirement: None },
        gpu_makespan::system::model::Chain { name: "loop".into(), tasks: vec!["T1".into(), "T2".into(), "T1".into()], requirement: None },
    ];
    let rep = run(&sys, Paradigm::Implicit, OffloadMode::Model);
    let own = rep.chains[0].implicit.unwrap();
    assert!(close(own.reaction.worst, 2.0 * 7.00004) && close(own.reaction.best, 2.0 * 1.00004), "{own:?}");
    let round = rep.chains[1].implicit.unwrap();
    assert!(close(round.reaction.worst, 7.00004 + 13.00008 + 7.00004), "{round:?}");
    assert!(close(rep.chains[1].let_.unwrap().reaction.worst, 2.0 * 20.0));
}

/// Issue 55's text items on the WATERS model: the GPU's load is printed and in JSON, the
/// `prio` column shows the rank rate-monotonic scheduling uses, `utilization` and the
/// GPU bound word are explained, the swapped deadlines are named, `-q` says the warnings
/// are hidden, and `--svg` without chains is refused before any file is made.
#[test]
fn the_system_report_says_what_it_uses() {
    let out = makespan().args(["system", WATERS, "-q"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    for needle in [
        "GPU load 1.544 (each task's kernels alone over its trigger's period, summed: above 1, the GPU cannot keep up)",
        "priorities rate-monotonic (prio: rank, #0 highest), utilization 0.318 (sum of (C+ + S+) / T)",
        "bound        time-sliced:",
        "warnings     5 (not shown with --quiet",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    // DASM (period 5) is Core0's highest rate-monotonic priority, the model's is 1.
    assert!(text.lines().any(|l| l.starts_with("DASM") && l.contains(" #0 ")), "{text}");
    let v = json_of(&["system", WATERS]);
    assert!((v["gpu_load"].as_f64().unwrap() - 1.5435).abs() < 1e-3, "{}", v["gpu_load"]);
    let warnings = v["warnings"].as_array().unwrap();
    assert!(warnings.iter().any(|w| w.as_str().unwrap().contains(
        "task PRE_Lane_detection_gpu_POST: deadline 200.000 ms above its period 66.000 ms, analysed as given; PRE_Detection_gpu_POST has period 200.000 ms"
    )));
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("chains.svg");
    input_error(&["system", WATERS, "--svg", svg.to_str().unwrap()], "--svg");
    assert!(!svg.exists());
}

/// `makespan system --json` on the WATERS model with APP4RTA's mapping, and `extra`.
fn on_app4rtas_mapping(extra: &[&str]) -> serde_json::Value {
    json_of(&[&["system", WATERS, "--mapping", "4,1,1,3,4,0,3,3,3,0,6,2,5,6", "--unit-order", "app4rta"], extra].concat())
}

/// A chain without latencies names the task that blocks them, the term and the margin;
/// on APP4RTA's mapping the other chain gets its values (issue 55).
#[test]
fn a_chain_without_latencies_names_the_task() {
    let v = on_app4rtas_mapping(&["--chains", "instances/amalthea/app4rta-chains.toml", "--context-switch", "100us"]);
    let notes: Vec<String> = v["chains"][0]["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
    assert!(
        notes.iter().any(|n| n == "no implicit latencies: no worst-case response within its period for Localization (no R+ within its period 400.000 ms: its trigger's pre- and post-processing runnables (18.579 ms, run on its core with the task) make its C+ without contention 406.939 ms, 6.939 ms above its period)"),
        "{notes:?}"
    );
    assert_eq!(v["chains"][1]["name"], "can-steering");
    let worst = v["chains"][1]["implicit"]["reaction"]["worst"].as_f64().unwrap();
    assert!((worst - 65.510).abs() < 1e-3, "{}", v["chains"][1]);
    let planner = |v: &serde_json::Value| {
        v["cores"].as_array().unwrap().iter().flat_map(|c| c["tasks"].as_array().unwrap().clone()).find(|t| t["name"] == "Planner").unwrap()
    };
    let planner_now = planner(&v);
    assert!((planner_now["r_worst"].as_f64().unwrap() - 13.829).abs() < 1e-3, "{planner_now}");
    assert_eq!(planner_now["blocked_by"], serde_json::Value::Null);
    // With the cautious reading Planner has no R+, and the term is the interconnect.
    let cautious = on_app4rtas_mapping(&["--contention", "latency"]);
    assert_eq!(
        planner(&cautious)["blocked_by"],
        "its core's wait for the interconnect (2.870 ms over a period) takes R+ 0.628 ms above its period"
    );
}

/// `--total-time-limit`: the tasks not analysed by then get no R+ and say why, the
/// status says `time_limit` (text and JSON), and a limit that is no time is refused.
#[test]
fn the_time_limit_ends_with_a_status() {
    let v = json_of(&["system", WATERS, "--total-time-limit", "0.000000001"]);
    assert_eq!(v["status"], "time_limit");
    let tasks: Vec<serde_json::Value> =
        v["cores"].as_array().unwrap().iter().flat_map(|c| c["tasks"].as_array().unwrap().clone()).collect();
    assert!(!tasks.is_empty());
    for t in &tasks {
        assert_eq!(t["r_worst"], serde_json::Value::Null, "{t}");
        assert_eq!(t["blocked_by"], "not analysed: the time limit was reached first", "{t}");
    }
    assert_eq!(v["schedulable"], false);
    let out = makespan().args(["system", WATERS, "--total-time-limit", "0.000000001", "-q"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\nstatus       time_limit: the time limit was reached"));
    assert_eq!(json_of(&["system", WATERS, "--total-time-limit", "60"])["status"], "complete");
    input_error(&["system", WATERS, "--total-time-limit", "-1"], "--total-time-limit");
}

/// The MobSTr dataset's published analysis (`scripts/compare-mobstr.py`): with the
/// mapping read off its numbers, direct communication and no contention, each published
/// response's lower end is our C- to the nanosecond (its values are in ns).
#[test]
fn the_mobstr_dataset_lower_ends_are_ours() {
    let published: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string("instances/amalthea/mobstr-results.json").unwrap()).unwrap();
    let script = std::fs::read_to_string("scripts/compare-mobstr.py").unwrap();
    let mapping = script.lines().find_map(|l| l.strip_prefix("MAPPING = \"")).unwrap().trim_end_matches('"');
    let v = json_of(&[
        "system",
        "instances/amalthea/mobstr-mapped.amxmi",
        "--mapping",
        mapping,
        "--unit-order",
        "app4rta",
        "--communication",
        "direct",
        "--contention",
        "off",
    ]);
    let ours = |name: &str| {
        v["cores"].as_array().unwrap().iter().flat_map(|c| c["tasks"].as_array().unwrap().clone()).find(|t| t["name"] == name).unwrap()
            ["c_best"]
            .as_f64()
            .unwrap()
    };
    for name in ["Lidar_Grabber", "DASM", "EKF", "CANbus_polling", "OS_Overhead"] {
        let e = published["lExecutableResult"].as_array().unwrap().iter().find(|e| e["executableID"] == name).unwrap();
        let lower_ms = e["delayLowerBound"].as_f64().unwrap() / 1e6;
        assert!((ours(name) - lower_ms).abs() < 1e-6, "{name}: ours {} published {lower_ms}", ours(name));
    }
}

/// Reference mode follows the GSoC document's implicit formulas (issue 55, item 4): on
/// APP4RTA's mapping the lidar chain's worst reaction, initial reaction and age are
/// 887.131, 892.131 and 530.006 ms (APP4RTA: 893.305, 898.305, 528.956 from its own
/// responses, which hold its contention term).
#[test]
fn reference_mode_gives_the_documents_implicit_latencies() {
    let v = on_app4rtas_mapping(&["--offload", "sync", "--chains", "instances/amalthea/app4rta-chains.toml", "--reference", "app4rta"]);
    let implicit = &v["chains"][0]["implicit"];
    for (field, want) in [("reaction", 887.131), ("initial_reaction", 892.131), ("age", 530.006)] {
        let got = implicit[field]["worst"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-3, "{field}: {got}");
    }
}
