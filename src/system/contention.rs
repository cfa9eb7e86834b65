//! Memory contention on the interconnect: a label access of one unit may wait while the
//! other units access memory. The model's interconnect (AMALTHEA's
//! `ConnectionHandlerDefinition`; the WATERS 2019 model's `Interconnect`: `RoundRobin`,
//! `maxConcurrentTransfers = 1`, `maxBurstSize = 4`) serves one *grant* at a time,
//! round robin among the units with a request pending. A grant moves one burst
//! ([`Grants`]): a 64-byte line of unit `v` takes `g_v` grants, each holding the
//! interconnect at most `h_v`. A unit has at most one request outstanding (the cost
//! model charges its accesses one after another).
//!
//! **Per access (request-driven).** Round robin serves every other unit at most once
//! before a waiting grant's turn comes back, so one line access of unit `u` waits at
//! most `D_u = g_u sum over v != u, v active of h_v` (Paolieri, Quiñones, Cazorla,
//! Bernat and Valero, *Hardware support for WCET analysis of hard real-time multicore
//! systems*, ISCA 2009: `(N - 1)` times the longest transfer for `N` masters). A unit is
//! *active* when a task is mapped to it. [`with_contention`] sets `D_u` (in `u`'s cycles,
//! rounded up) as each unit's per-line surcharge: the `C+` a job has whatever else runs.
//!
//! **Per window (job-driven, [`Bus::wait`]).** `N` line accesses of `u` in a window of
//! length `t` wait at most
//!
//! `W_u(N, t) = sum over v != u, v active of min(N g_u, A_v(t)) h_v`,
//!
//! `A_v(t)` bounding the grants `v` gets in any window of length `t`
//! ([`Master::transfers`]). Proof: while a grant of `u` waits, the interconnect serves
//! some other unit's grant (one at a time, and it is not idle while a request waits);
//! charge each instant of waiting to the unit served then. The instants charged to `v`
//! lie in `v`'s grants that overlap the window, at most `A_v(t)` of them, each at most
//! `h_v` long; and round robin serves `v` at most once per grant of `u`, so at most
//! `N g_u` of them delay `u`. Both bounds hold; take the smaller per unit.
//!
//! `A_v(t)` sums, over the sources of `v`'s traffic (its tasks, or a GPU's tasks), their
//! lines per job times the jobs that can run in the window ([`Traffic::jobs`]), times
//! `g_v`. The response-time analysis (`cpu::worst_case`) adds `W_u` over all the
//! accesses its window holds instead of `D_u` per access; `W_u(N, t) <= N D_u` up to the
//! rounding of `D_u` to cycles. `tests/it/bus.rs` checks `W` against a bus simulator.
//! It also adds one grant of the core's own unit per job start in the window
//! ([`Bus::own_hold`]): a preempted job's grant in flight.

use super::model::{Frequency, Ps, System};
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
    /// As `Model`, but each transfer holds the interconnect for its unit's whole access
    /// latency, even when the model gives the interconnect's burst size, clock and port
    /// widths (the more cautious reading).
    Latency,
}

/// What contention the analysis used: the per-unit wait for each line, in picoseconds,
/// or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentionUsed {
    /// Round-robin waits per unit (name, picoseconds per line), units with tasks only,
    /// and what one grant holds the interconnect for ([`Grants`]).
    RoundRobin(Vec<(String, Ps)>, String),
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
        (Some(i), _) if i.max_concurrent_transfers != 1 => Some(ContentionUsed::Ignored(format!(
            "the interconnect {} serves {} transfers at once, which is not modelled (one at a time is)",
            i.name, i.max_concurrent_transfers
        ))),
        _ => None,
    };
    if let Some(skip) = skip {
        return (out, skip);
    }
    let (grants, active) = (all_grants(sys, mode), active_units(sys));
    let mut waits = Vec::new();
    let mut reading = reading(sys, mode);
    let in_bursts = bursts(sys, mode).is_some();
    for (i, unit) in out.units.iter_mut().enumerate() {
        let others: Ps = (0..grants.len()).filter(|&j| j != i && active[j]).map(|j| grants[j].hold).sum();
        let wait = others * grants[i].per_line;
        unit.contention = u64::try_from(unit.frequency.cycles_up(wait).get()).unwrap_or(u64::MAX / 4);
        if active[i] {
            waits.push((unit.name.clone(), wait));
        }
        // With bursts, a line's own grants take their time on the interconnect even
        // alone: an access is never shorter than them.
        let own = grants[i].hold * grants[i].per_line;
        let own_cycles = u64::try_from(unit.frequency.cycles_up(own).get()).unwrap_or(u64::MAX / 4);
        if in_bursts && active[i] && own_cycles > unit.read_latency.min(unit.write_latency) {
            reading += &format!(
                "; a line of {} takes {} grants of at most {} ps, longer than its latency: each access of it is taken as {own_cycles} cycles at least",
                unit.name,
                grants[i].per_line,
                grants[i].hold.get()
            );
            unit.read_latency = unit.read_latency.max(own_cycles);
            unit.write_latency = unit.write_latency.max(own_cycles);
        }
    }
    (out, ContentionUsed::RoundRobin(waits, reading))
}

/// How one unit's line transfers use the interconnect: `per_line` grants, each holding
/// it at most `hold`.
///
/// With the model's burst size `B` (`maxBurstSize`), the interconnect's clock and the
/// narrower of the unit's and the interconnect's port widths (`w` bits): a 64-byte line
/// is `beats = ceil(512 / w)` beats, moved in `ceil(beats / B)` grants of at most
/// `min(beats, B)` beats each, one beat per cycle of the interconnect or of the unit,
/// whichever is slower. Without one of them (or with [`ContentionMode::Latency`], or
/// when the model gives the interconnect latencies or a data rate of its own, or the
/// memory an access latency: `amalthea` then drops the burst size): one grant per line,
/// holding the interconnect for the unit's whole access latency at its own clock (the
/// access cannot take longer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grants {
    /// Grants per 64-byte line.
    pub per_line: u128,
    /// Longest time one grant holds the interconnect.
    pub hold: Ps,
}

/// Each unit's [`Grants`].
fn all_grants(sys: &System, mode: ContentionMode) -> Vec<Grants> {
    let bursts = bursts(sys, mode);
    sys.units
        .iter()
        .map(|u| match bursts {
            Some((burst, clock, bits)) => {
                let width = u128::from(bits.min(u.port_bits.unwrap_or(bits)).max(8));
                let beats = 512u128.div_ceil(width);
                // A beat takes a cycle of the interconnect, or of the unit if it is slower.
                let beats_held = Cycles::new(beats.min(u128::from(burst)));
                let hold = clock.time_up(beats_held).max(u.frequency.time_up(beats_held)).unwrap_or(Ps::MAX / 4);
                Grants { per_line: beats.div_ceil(u128::from(burst)), hold }
            }
            None => {
                let hold = u.frequency.time_up(Cycles::from(u.read_latency.max(u.write_latency))).unwrap_or(Ps::MAX / 4);
                Grants { per_line: 1, hold }
            }
        })
        .collect()
}

/// The interconnect's burst size, clock and port width when the model gives all three
/// and `mode` reads grants as bursts ([`Grants`]).
fn bursts(sys: &System, mode: ContentionMode) -> Option<(u64, Frequency, u64)> {
    let i = sys.interconnect.as_ref().filter(|_| mode == ContentionMode::Model)?;
    Some((i.max_burst?, i.frequency?, i.port_bits?))
}

/// What a grant holds the interconnect for, in words (for the report's assumptions).
fn reading(sys: &System, mode: ContentionMode) -> String {
    match bursts(sys, mode) {
        Some((burst, clock, bits)) => format!(
            "a grant moves one burst of at most {burst} beats of the narrower of the unit's and the interconnect's ports (at most {bits} bits), one beat per cycle of the interconnect's {:.3} GHz clock",
            clock.ghz()
        ),
        _ => "a grant moves one 64-byte line and holds the interconnect at most its unit's whole access latency".to_string(),
    }
}

/// One source of a unit's transfers: jobs of at most `lines` line transfers each, one
/// job at a time (a task's jobs run one after another; a GPU task's jobs share its
/// stream).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traffic {
    /// Lines a job transfers at most.
    pub lines: u128,
    /// Minimum time between two releases.
    pub period: Ps,
    /// Least time a job takes from its first action to its end (its best response).
    pub span: Ps,
    /// A proven bound on a job's response from its release, when known.
    pub response: Option<Ps>,
}

/// A count that stands for "no bound": far above any count of lines a window can hold,
/// far below overflow when multiplied by a transfer time.
const UNBOUNDED: u128 = 1 << 64;

impl Traffic {
    /// The most jobs whose transfers can fall in a window of length `t`.
    ///
    /// Proof: by releases, only jobs released in `(a - R, a + t)` run in `[a, a + t)`, at
    /// most `ceil((t + R) / T)` of them. By spans, jobs run one at a time: at most one has
    /// started before `a` and not ended, and of those that start in the window all but the
    /// last end in it, each after at least `span` of its own, so at most `1 + floor(t /
    /// span) + 1`.
    pub fn jobs(&self, t: Ps) -> u128 {
        let by_span = if self.span > Ps::ZERO { 2 + t / self.span } else { UNBOUNDED };
        let by_release = match self.response {
            Some(r) if self.period > Ps::ZERO => (t + r).ceil_ratio(self.period),
            _ => UNBOUNDED,
        };
        by_span.min(by_release)
    }
}

/// Another unit as a unit's accesses see it on the interconnect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Master {
    /// The unit.
    pub unit: String,
    /// How its lines use the interconnect.
    pub grants: Grants,
    /// What it transfers.
    pub traffic: Vec<Traffic>,
}

impl Master {
    /// `A_v(t)`: the most grants this unit gets in a window of length `t`: each
    /// source's lines times its [`Traffic::jobs`], summed, times the grants per line.
    pub fn transfers(&self, t: Ps) -> u128 {
        let lines = self.traffic.iter().map(|s| s.lines.saturating_mul(s.jobs(t))).fold(0u128, |a, b| a.saturating_add(b));
        lines.saturating_mul(self.grants.per_line).min(UNBOUNDED)
    }
}

/// The interconnect as one unit's accesses see it: every other active unit. Empty when
/// accesses pay no contention.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bus {
    /// Grants per line of this unit.
    pub grants_per_line: u128,
    /// How long one grant of this unit holds the interconnect (zero without contention):
    /// a job preempted with a grant in flight leaves it on the interconnect, and the job
    /// that preempted it may wait for it ([`crate::system::cpu::worst_case`]).
    pub own_hold: Ps,
    /// The other active units.
    pub others: Vec<Master>,
}

impl Bus {
    /// `W_u(n, t)`: the most time `n` line accesses of this unit wait in a window of
    /// length `t` (the module's proof).
    pub fn wait(&self, n: u128, t: Ps) -> Ps {
        let mine = n.saturating_mul(self.grants_per_line).min(UNBOUNDED);
        self.others.iter().map(|m| m.grants.hold.saturating_mul(mine.min(m.transfers(t)))).fold(Ps::ZERO, Ps::saturating_add)
    }
}

/// Whether each unit has a task mapped to it.
fn active_units(sys: &System) -> Vec<bool> {
    sys.units.iter().map(|u| sys.tasks.iter().any(|t| t.unit.as_deref() == Some(u.name.as_str()))).collect()
}

/// Most sources a [`Master`] keeps apart; beyond, those of one period are merged.
const MAX_SOURCES: usize = 64;

/// `traffic` with the sources of one release pattern merged (lines summed: no value
/// changes) and, when more than [`MAX_SOURCES`] are left, those of one period merged into
/// one with the shortest span and the longest response (none if one has none): each
/// merged source's [`Traffic::jobs`] is at least each of its parts', so `A_v` only grows
/// and stays a bound, and [`Bus::wait`] costs at most a few sources per unit.
fn merged(traffic: Vec<Traffic>) -> Vec<Traffic> {
    let mut exact: std::collections::BTreeMap<(Ps, Ps, Option<Ps>), u128> = std::collections::BTreeMap::new();
    for t in traffic {
        *exact.entry((t.period, t.span, t.response)).or_default() += t.lines;
    }
    if exact.len() <= MAX_SOURCES {
        return exact.into_iter().map(|((period, span, response), lines)| Traffic { lines, period, span, response }).collect();
    }
    let mut by_period: std::collections::BTreeMap<Ps, Traffic> = std::collections::BTreeMap::new();
    for ((period, span, response), lines) in exact {
        let m = by_period.entry(period).or_insert(Traffic { lines: 0, period, span, response });
        m.lines = m.lines.saturating_add(lines);
        m.span = m.span.min(span);
        m.response = m.response.zip(response).map(|(a, b)| a.max(b));
    }
    by_period.into_values().collect()
}

/// Each active unit's [`Bus`], from each unit's traffic (`traffic(unit name)`); every bus
/// empty unless `used` is round robin. `mode` as given to [`with_contention`].
pub fn buses(
    sys: &System,
    (used, mode): (&ContentionUsed, ContentionMode),
    traffic: &dyn Fn(&str) -> Vec<Traffic>,
) -> std::collections::BTreeMap<String, Bus> {
    let (grants, active) = (all_grants(sys, mode), active_units(sys));
    let masters: Vec<Master> = sys
        .units
        .iter()
        .zip(&grants)
        .zip(&active)
        .filter(|(_, &a)| a)
        .map(|((u, &g), _)| Master { unit: u.name.clone(), grants: g, traffic: merged(traffic(&u.name)) })
        .collect();
    let applied = matches!(used, ContentionUsed::RoundRobin(..));
    masters
        .iter()
        .map(|m| {
            let others = if applied { masters.iter().filter(|o| o.unit != m.unit).cloned().collect() } else { Vec::new() };
            let own_hold = if applied { m.grants.hold } else { Ps::ZERO };
            (m.unit.clone(), Bus { grants_per_line: m.grants.per_line, own_hold, others })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::model::{Frequency, Interconnect, Task, Unit};

    fn unit(name: &str, ghz: u128, latency: u64) -> Unit {
        let frequency = Frequency { num: ghz * 1_000_000_000, den: 1 };
        Unit { name: name.into(), kind: "K".into(), gpu: false, frequency, read_latency: latency, write_latency: latency, contention: 0, port_bits: None }
    }

    fn two_units() -> System {
        let mut sys = System { units: vec![unit("a", 2, 40), unit("b", 1, 10), unit("idle", 1, 1000)], ..System::default() };
        sys.tasks = ["a", "b"].iter().map(|u| Task { name: format!("t{u}"), unit: Some(u.to_string()), ..Task::default() }).collect();
        sys.interconnect = Some(Interconnect {
            name: "i".into(),
            policy: "RoundRobin".into(),
            max_concurrent_transfers: 1,
            max_burst: None,
            frequency: None,
            port_bits: None,
        });
        sys
    }

    #[test]
    fn each_line_waits_for_one_transfer_of_every_other_active_unit() {
        let mut sys = two_units();
        let (with, used) = with_contention(&sys, ContentionMode::Model);
        // No burst size: a transfer holds the interconnect for its unit's latency. a waits
        // for b's 10 cycles at 1 GHz = 10 ns = 20 of its cycles; b for a's 40 cycles at
        // 2 GHz = 20 ns = 20 of its cycles; the idle unit has no task.
        assert_eq!(with.units[0].contention, 20);
        assert_eq!(with.units[1].contention, 20);
        let ContentionUsed::RoundRobin(waits, reading) = &used else { panic!("{used:?}") };
        assert_eq!(waits, &vec![("a".into(), Ps::new(10_000)), ("b".into(), Ps::new(20_000))]);
        assert!(reading.contains("whole access latency"), "{reading}");
        let (off, _) = with_contention(&sys, ContentionMode::Off);
        assert!(off.units.iter().all(|u| u.contention == 0));
        sys.interconnect.as_mut().unwrap().max_concurrent_transfers = 2;
        assert!(with_contention(&sys, ContentionMode::Model).1.ignored(), "concurrent transfers are not modelled");
        sys.interconnect.as_mut().unwrap().max_concurrent_transfers = 1;
        sys.interconnect.as_mut().unwrap().policy = "PriorityBased".into();
        assert!(with_contention(&sys, ContentionMode::Model).1.ignored());
        sys.interconnect = None;
        assert!(matches!(with_contention(&sys, ContentionMode::Model).1, ContentionUsed::None(_)));
    }

    #[test]
    fn with_a_burst_size_a_grant_holds_the_interconnect_for_one_burst() {
        // The WATERS shape: 128-bit interconnect at 1.5 GHz, bursts of 4 beats; unit a
        // has a 64-bit port (a line is 8 beats: 2 grants), b a 128-bit one (4 beats: 1).
        let mut sys = two_units();
        let ic = sys.interconnect.as_mut().unwrap();
        (ic.max_burst, ic.frequency, ic.port_bits) = (Some(4), Some(Frequency { num: 1_500_000_000, den: 1 }), Some(128));
        sys.units[0].port_bits = Some(64);
        sys.units[1].port_bits = Some(128);
        let (with, used) = with_contention(&sys, ContentionMode::Model);
        // One burst: 4 cycles at 1.5 GHz = 2667 ps (rounded up), or of the unit when it is
        // slower: b's 4 beats at 1 GHz hold it 4000 ps. a's line is 2 grants, each
        // waiting one of b's: 8000 ps = 16 of a's cycles at 2 GHz; b's line is one grant
        // waiting one of a's: 2667 ps = 3 cycles at 1 GHz.
        let ContentionUsed::RoundRobin(waits, reading) = &used else { panic!("{used:?}") };
        assert_eq!(waits, &vec![("a".into(), Ps::new(8_000)), ("b".into(), Ps::new(2_667))]);
        assert!(reading.contains("burst of at most 4 beats"), "{reading}");
        assert_eq!((with.units[0].contention, with.units[1].contention), (16, 3));
        assert_eq!((with.units[0].read_latency, with.units[1].read_latency), (40, 10), "the latencies cover the lines' grants");
        // A narrow port: a's line is 64 beats of 8 bits, 16 grants of 2667 ps: 42.7 ns,
        // more than its 40 cycles at 2 GHz (20 ns): an access takes 86 cycles at least.
        let mut narrow = sys.clone();
        narrow.units[0].port_bits = Some(8);
        let (slow, used) = with_contention(&narrow, ContentionMode::Model);
        assert_eq!((slow.units[0].read_latency, slow.units[0].write_latency), (86, 86));
        assert!(matches!(&used, ContentionUsed::RoundRobin(_, r) if r.contains("longer than its latency")), "{used:?}");
        // The cautious reading ignores the bursts.
        let (_, latency) = with_contention(&sys, ContentionMode::Latency);
        assert!(matches!(&latency, ContentionUsed::RoundRobin(w, _) if w[0].1 == Ps::new(10_000)), "{latency:?}");
        // The window bound: a's 100 lines (200 grants) against b's 3 lines per job, jobs
        // at least 1 us long and 10 us apart, with R = 4 us: in 5 us, 2 jobs by span
        // (2 + 5 / 1 = 7) and by release (ceil(9 / 10) = 1): 1 job, 3 grants.
        let bus = &buses(&sys, (&used, ContentionMode::Model), &|u| {
            let response = Some(Ps::new(4_000_000));
            if u == "b" { vec![Traffic { lines: 3, period: Ps::new(10_000_000), span: Ps::new(1_000_000), response }] } else { Vec::new() }
        })["a"];
        assert_eq!(bus.grants_per_line, 2);
        assert_eq!(bus.wait(100, Ps::new(5_000_000)), Ps::new(3 * 4_000));
        assert_eq!(bus.wait(1, Ps::new(5_000_000)), Ps::new(2 * 4_000), "one line of a: 2 grants, each waits one of b's");
    }

    #[test]
    fn a_source_without_a_response_is_bounded_by_its_span() {
        let t = Traffic { lines: 5, period: Ps::new(100), span: Ps::new(10), response: None };
        assert_eq!(t.jobs(Ps::new(35)), 2 + 3);
        assert_eq!(Traffic { response: Some(Ps::new(50)), ..t.clone() }.jobs(Ps::new(35)), 1);
        assert_eq!(Traffic { span: Ps::ZERO, ..t }.jobs(Ps::new(35)), UNBOUNDED);
    }
}
