//! Memory contention on the interconnect: a label access of one unit may wait while the
//! other units access memory. The model's interconnect (AMALTHEA's
//! `ConnectionHandlerDefinition`; the WATERS 2019 model's `Interconnect`: `RoundRobin`,
//! `maxConcurrentTransfers = 1`) serves the units' transfers one at a time in round
//! robin, so one line access of unit `u` waits for at most one line access of every
//! other unit that may access memory at the same time:
//!
//! `D_u = sum over v != u, v active of max(L_read(v), L_write(v)) / f_v`,
//!
//! added to each line `u` reads or writes in the worst case (rounded up to `u`'s cycles),
//! nothing in the best case. A unit is *active* when a task is mapped to it. This is the
//! round-robin bus bound of Paolieri, Quiñones, Cazorla, Bernat and Valero (*Hardware
//! support for WCET analysis of hard real-time multicore systems*, ISCA 2009: a request
//! waits at most `(N - 1)` times the longest transfer for `N` masters), with each unit's
//! own access latency as the time its transfer holds the interconnect. The WATERS 2019
//! challenge's own contention formula (its forum thread "Memory Contention Model") and
//! APP4RTA's `Contention.java` were not reachable, so this is not their formula; the docs
//! say so (`docs/system-model.md`).

use super::model::{Ps, System};
use crate::model::cycles::Cycles;

/// Whether label accesses pay for contention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContentionMode {
    /// As the model's interconnect implies (round robin), when it gives one.
    #[default]
    Model,
    /// None: each access costs its latency only.
    Off,
}

/// What contention the analysis used: the per-unit wait for each line, in picoseconds,
/// or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentionUsed {
    /// Round-robin waits per unit (name, picoseconds per line), units with tasks only.
    RoundRobin(Vec<(String, Ps)>),
    /// Not applied, and why.
    None(String),
    /// The model states an interconnect whose contention is not applied (turned off, or
    /// not modelled): the numbers leave out a cost the model states.
    Ignored(String),
}

impl ContentionUsed {
    /// Whether the numbers leave out contention the model states.
    pub fn ignored(&self) -> bool {
        matches!(self, ContentionUsed::Ignored(_))
    }
}

/// `sys` with each unit's `contention` set (cycles per line, rounded up), and what was
/// used.
pub fn with_contention(sys: &System, mode: ContentionMode) -> (System, ContentionUsed) {
    let mut out = sys.clone();
    let skip = match (&sys.interconnect, mode) {
        (None, _) => Some(ContentionUsed::None("the model gives no interconnect".to_string())),
        (Some(i), ContentionMode::Off) => {
            Some(ContentionUsed::Ignored(format!("turned off, though the model gives the interconnect {}", i.name)))
        }
        (Some(i), _) if i.policy != "RoundRobin" => {
            Some(ContentionUsed::Ignored(format!("the interconnect {}'s policy {} is not modelled (round robin is)", i.name, i.policy)))
        }
        _ => None,
    };
    if let Some(skip) = skip {
        return (out, skip);
    }
    let active: Vec<bool> = sys.units.iter().map(|u| sys.tasks.iter().any(|t| t.unit.as_deref() == Some(u.name.as_str()))).collect();
    // One line transfer of each unit, at its own clock, rounded up.
    let transfer: Vec<Ps> =
        sys.units.iter().map(|u| u.frequency.time_up(Cycles::from(u.read_latency.max(u.write_latency))).unwrap_or(Ps::MAX / 4)).collect();
    let mut waits = Vec::new();
    for (i, unit) in out.units.iter_mut().enumerate() {
        let wait: Ps = (0..transfer.len()).filter(|&j| j != i && active[j]).map(|j| transfer[j]).sum();
        unit.contention = u64::try_from(unit.frequency.cycles_up(wait).get()).unwrap_or(u64::MAX / 4);
        if active[i] {
            waits.push((unit.name.clone(), wait));
        }
    }
    (out, ContentionUsed::RoundRobin(waits))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::model::{Frequency, Interconnect, Task, Unit};

    fn unit(name: &str, ghz: u128, latency: u64) -> Unit {
        let frequency = Frequency { num: ghz * 1_000_000_000, den: 1 };
        Unit { name: name.into(), kind: "K".into(), gpu: false, frequency, read_latency: latency, write_latency: latency, contention: 0 }
    }

    #[test]
    fn each_line_waits_for_one_transfer_of_every_other_active_unit() {
        let mut sys = System { units: vec![unit("a", 2, 40), unit("b", 1, 10), unit("idle", 1, 1000)], ..System::default() };
        sys.tasks = ["a", "b"].iter().map(|u| Task { name: format!("t{u}"), unit: Some(u.to_string()), ..Task::default() }).collect();
        sys.interconnect = Some(Interconnect { name: "i".into(), policy: "RoundRobin".into(), max_concurrent_transfers: 1 });
        let (with, used) = with_contention(&sys, ContentionMode::Model);
        // a waits for b's 10 cycles at 1 GHz = 10 ns = 20 of its cycles; b for a's 40
        // cycles at 2 GHz = 20 ns = 20 of its cycles; the idle unit has no task.
        assert_eq!(with.units[0].contention, 20);
        assert_eq!(with.units[1].contention, 20);
        assert_eq!(used, ContentionUsed::RoundRobin(vec![("a".into(), Ps::new(10_000)), ("b".into(), Ps::new(20_000))]));
        let (off, _) = with_contention(&sys, ContentionMode::Off);
        assert!(off.units.iter().all(|u| u.contention == 0));
        sys.interconnect.as_mut().unwrap().policy = "PriorityBased".into();
        assert!(with_contention(&sys, ContentionMode::Model).1.ignored());
        sys.interconnect = None;
        assert!(matches!(with_contention(&sys, ContentionMode::Model).1, ContentionUsed::None(_)));
    }
}
