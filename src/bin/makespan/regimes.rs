//! `makespan preempt --compare`: the same task set under the TX2's own ways of sharing
//! the GPU (`rta::analyse`: FIFO, stream priorities, time slicing) beside the
//! preemption-point framework, per kernel.

use crate::output::text::round_up;
use gpu_makespan::rta::{self, Preemptive, Priority, RtaReport, Task, Timeline, Window, Workload};
use std::fmt::Write;

/// One way of sharing the GPU and what the RTA gives for it (or why it gives nothing).
pub(crate) struct Regime {
    /// Short name (the table's column, the JSON's `regime`).
    pub(crate) name: &'static str,
    /// How the task set is read for it.
    pub(crate) how: String,
    pub(crate) result: Result<RtaReport, String>,
}

/// The task set as FIFO (rule X1: one queue, every kernel in a stream of its own),
/// stream priorities (A1-A2: the kernels of the framework's best rank in the high
/// stream priority) and time slicing (every kernel a process of its own, the profile's
/// slices), each over the hyperperiod's jobs.
pub(crate) fn regimes(w: &Workload, framework: &Preemptive) -> Vec<Regime> {
    let base = Workload { window: Window::Hyperperiod, ..w.clone() };
    let plain = |t: &Task| Task { priority: Priority::Low, process: None, stream: None, ..t.clone() };
    let best = framework.kernels.iter().map(|k| k.rank).min().unwrap_or(0);
    let high: Vec<&str> = framework.kernels.iter().filter(|k| k.rank == best).map(|k| k.name.as_str()).collect();
    let with = |f: &dyn Fn(&Task) -> Task| Workload { tasks: base.tasks.iter().map(f).collect(), ..base.clone() };
    let regime = |name: &'static str, how: String, w: Workload| match rta::analyse(&w, Timeline::Omitted) {
        Ok(rep) => Regime { name, how, result: Ok(rep) },
        // The hyperperiod's jobs may be more than the analysis takes: the first jobs
        // still show a miss (not that every job meets its deadline).
        Err(e) => match rta::analyse(&Workload { window: Window::OneJob, ..w }, Timeline::Omitted) {
            Ok(rep) => Regime { name, how: format!("{how}; FIRST JOBS ONLY (the hyperperiod's jobs: {e})"), result: Ok(rep) },
            Err(e) => Regime { name, how, result: Err(e.to_string()) },
        },
    };
    vec![
        regime("fifo", "rule X1: one EE queue, each kernel in a stream of its own".into(), with(&plain)),
        regime(
            "priorities",
            format!("rules A1-A2: {} in the high stream priority, the rest low", high.join(", ")),
            with(&|t| Task { priority: if high.contains(&t.name.as_str()) { Priority::High } else { Priority::Low }, ..plain(t) }),
        ),
        regime(
            "time-slicing",
            "each kernel a process of its own, the profile's gpu.time_slice and gpu.context_switch".into(),
            with(&|t| Task { process: Some(t.name.clone()), ..plain(t) }),
        ),
    ]
}

/// The side-by-side table: per kernel its deadline and each regime's worst response
/// and verdict, the framework last.
pub(crate) fn table(framework: &Preemptive, regimes: &[Regime]) -> String {
    let t = |v: rta::Ticks| round_up(&framework.scale.format(v));
    let mut s = format!("{:<12} {:>9}", "kernel", "deadline");
    for r in regimes {
        let _ = write!(s, " {:>20}", r.name);
    }
    let _ = writeln!(s, " {:>20}", "framework");
    for k in &framework.kernels {
        let _ = write!(s, "{:<12} {:>9}", k.name, k.deadline.map_or("-".into(), t));
        for r in regimes {
            let cell = match &r.result {
                Ok(rep) => rep.kernels.iter().find(|row| row.name == k.name).map_or("-".into(), |row| {
                    format!("{} {}", round_up(&row.exact(row.response)), if row.schedulable == Some(false) { "MISSES" } else { "meets" })
                }),
                Err(_) => "-".into(),
            };
            let _ = write!(s, " {cell:>20}");
        }
        let own = match (k.response, k.schedulable) {
            (Some(r), Some(false)) => format!("{} MISSES", t(r)),
            (Some(r), _) => format!("{} meets", t(r)),
            (None, _) => "no bound".into(),
        };
        let _ = writeln!(s, " {own:>20}");
    }
    for r in regimes {
        match &r.result {
            Ok(rep) => {
                let _ = writeln!(s, "{:<12} {}; {} ({})", r.name, r.how, rep.bound, rep.verdict);
            }
            Err(e) => {
                let _ = writeln!(s, "{:<12} not analysed: {e}", r.name);
            }
        }
    }
    let _ = writeln!(s, "{:<12} the preemption-point framework, ranks as above ({})", "framework", framework.verdict);
    let _ = writeln!(
        s,
        "responses    worst over the hyperperiod's jobs (rta) and over every job (framework), exact decimals in {}",
        framework.unit
    );
    s
}

/// The comparison for `--json`: per regime its responses by kernel name (`null`: none),
/// whether every kernel meets its deadline, or the reason it was not analysed.
pub(crate) fn json(regimes: &[Regime]) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = regimes
        .iter()
        .map(|r| match &r.result {
            Ok(rep) => {
                let responses: serde_json::Map<String, serde_json::Value> =
                    rep.kernels.iter().map(|k| (k.name.clone(), serde_json::json!(k.in_unit(k.response)))).collect();
                serde_json::json!({ "regime": r.name, "how": r.how, "responses": responses, "schedulable": rep.schedulable, "bound": rep.bound, "verdict": rep.verdict })
            }
            Err(e) => serde_json::json!({ "regime": r.name, "how": r.how, "error": e }),
        })
        .collect();
    serde_json::Value::Array(rows)
}
