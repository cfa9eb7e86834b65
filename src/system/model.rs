//! A CPU-GPU system as the analysis reads it, whether from an AMALTHEA model
//! ([`crate::system::amalthea`]) or from its TOML form ([`crate::system::toml_form`]):
//! processing units, labels, runnables, tasks (with their offloading to the GPU), the
//! mapping of tasks to units, and cause-effect chains.
//!
//! Times are integers of picoseconds ([`Ps`]); frequencies are exact rationals, so a
//! number of cycles becomes a time by one rounding, up for worst cases and down for best
//! cases ([`Frequency::time_up`], [`Frequency::time_down`]).

use crate::error::InputError;
use crate::model::cycles::Cycles;
use serde::Serialize;
use std::collections::BTreeMap;

crate::time_unit::time_unit! {
    /// A time in picoseconds, the system analysis's one unit of time. Picoseconds add and
    /// subtract among themselves, scale by a count (`u128`) and divide into a count; they
    /// do not mix with the kernel RTA's ticks (`rta::Ticks`, whose length depends on a task
    /// set: `system::kernel_time` converts, rounding up), with cycles (`Cycles`: a unit's
    /// frequency converts them, rounding up or down) or with bare numbers. `Ps::new`/`get`
    /// take and give the raw number.
    Ps
}

/// The longest time a task's period, deadline, execution time or suspension may be:
/// 2^50 ps (about 18.8 minutes), so that the response-time sums cannot overflow.
pub const MAX_TIME: Ps = Ps::new(1 << 50);

/// Picoseconds per millisecond.
pub const PS_PER_MS: u128 = 1_000_000_000;

/// `t` in milliseconds, for reports (exact to the picosecond up to about 2^53 ps).
pub fn ms(t: Ps) -> f64 {
    t.get() as f64 / PS_PER_MS as f64
}

/// Serialises a time of picoseconds as milliseconds (`serialize_with`), as the reports
/// have always written it; the value itself stays exact in picoseconds.
pub(crate) fn serialize_ms<S: serde::Serializer>(t: &Ps, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(ms(*t))
}

/// [`serialize_ms`] of an optional time (`null` when absent).
pub(crate) fn serialize_ms_option<S: serde::Serializer>(t: &Option<Ps>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_some(&ms(*t)),
        None => s.serialize_none(),
    }
}

/// A clock frequency `num / den` Hz, exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frequency {
    /// Numerator, Hz.
    pub num: u128,
    /// Denominator.
    pub den: u128,
}

impl Frequency {
    /// `cycles` at this frequency, rounded up to the picosecond (for worst cases);
    /// `None` if it does not fit in 128 bits.
    pub fn time_up(self, cycles: Cycles) -> Option<Ps> {
        Some(Ps::new(cycles.get().checked_mul(1_000_000_000_000)?.checked_mul(self.den)?.div_ceil(self.num)))
    }

    /// `cycles` at this frequency, rounded down to the picosecond (for best cases);
    /// `None` if it does not fit in 128 bits.
    pub fn time_down(self, cycles: Cycles) -> Option<Ps> {
        Some(Ps::new(cycles.get().checked_mul(1_000_000_000_000)?.checked_mul(self.den)? / self.num))
    }

    /// How many cycles at this frequency `t` picoseconds are, rounded up.
    pub fn cycles_up(self, t: Ps) -> Cycles {
        Cycles::new((t.get() * self.num).div_ceil(self.den * 1_000_000_000_000))
    }

    /// In GHz, for reports.
    pub fn ghz(self) -> f64 {
        self.num as f64 / self.den as f64 / 1e9
    }
}

/// A processing unit: a CPU core or the GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// Name (`Core0`, `GP10B`).
    pub name: String,
    /// Its definition's name (`Denver`, `A57`, `GPU_def`): runnables' ticks are keyed by it.
    pub kind: String,
    /// Whether it is a GPU.
    pub gpu: bool,
    /// Clock.
    pub frequency: Frequency,
    /// Cycles to read one 64-byte line of a label from memory.
    pub read_latency: u64,
    /// Cycles to write one 64-byte line of a label to memory.
    pub write_latency: u64,
    /// Cycles one line access may wait for the interconnect in the worst case (memory
    /// contention, set by [`super::contention::with_contention`]; 0 without it).
    pub contention: u64,
    /// Width in bits of its port to the interconnect (the narrowest initiator port), if
    /// the model gives one.
    pub port_bits: Option<u64>,
}

/// Lower and upper bounds on a runnable's cycles on one kind of unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TickRange {
    /// Fewest cycles (best case).
    pub lower: u64,
    /// Most cycles (worst case).
    pub upper: u64,
}

/// A runnable: its cycles per kind of unit and the labels it reads and writes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Runnable {
    /// Name.
    pub name: String,
    /// Cycles per unit kind (summed over its tick items).
    pub ticks: BTreeMap<String, TickRange>,
    /// Cycles on a kind without its own entry.
    pub default_ticks: Option<TickRange>,
    /// Labels read, in order (each access counts).
    pub reads: Vec<String>,
    /// Labels written, in order (each access counts).
    pub writes: Vec<String>,
}

impl Runnable {
    /// Its cycles on units of `kind`, if the model gives them.
    pub fn ticks_on(&self, kind: &str) -> Option<TickRange> {
        self.ticks.get(kind).copied().or(self.default_ticks)
    }

    /// A runnable that only moves data (no cycles of its own): the host-to-device and
    /// device-to-host copies of a GPU task.
    pub fn is_copy(&self) -> bool {
        self.ticks.is_empty() && self.default_ticks.is_none()
    }
}

/// How an offloading task waits for its GPU task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Wait {
    /// Synchronous: the core spins until the GPU task ends (the wait is execution).
    Active,
    /// Asynchronous: the task suspends; lower-priority tasks run meanwhile.
    Passive,
    /// The task does not wait (fire and forget).
    None,
}

/// A task's offloading: the GPU task it triggers and how it waits.
#[derive(Debug, Clone, PartialEq)]
pub struct Offload {
    /// The triggered task.
    pub target: String,
    /// How the trigger's task waits for it.
    pub wait: Wait,
}

/// A task: its activation, mapping, and the runnables it calls around its offloading.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Task {
    /// Name.
    pub name: String,
    /// Period of its periodic activation; `None` for a task started by a trigger.
    pub period: Option<Ps>,
    /// Response-time requirement (default: the period).
    pub deadline: Option<Ps>,
    /// Fixed priority as the model gives it (larger is higher).
    pub priority: Option<i64>,
    /// The unit it is mapped to.
    pub unit: Option<String>,
    /// Runnables before its offloading (all of them when it offloads nothing).
    pub pre: Vec<String>,
    /// What it offloads, if anything.
    pub offload: Option<Offload>,
    /// Runnables after the wait.
    pub post: Vec<String>,
    /// Its time slice when it runs on a GPU that time-slices between contexts (the
    /// WATERS 2019 model's `TimeSlice_<task>` allocation parameter).
    pub time_slice: Option<Ps>,
}

/// How an integer mapping numbers the units (CPUs first, then GPUs, either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnitOrder {
    /// In the model's order.
    #[default]
    Model,
    /// By name, digits compared as numbers (`Core2` before `Core10`): on the WATERS 2019
    /// model the numbering of APP4RTA (Denver `Core0`-`Core1` as 0-1, A57 `Core2`-`Core5`
    /// as 2-5, the GPU 6), whose copy of the model lists the cores in that order.
    Names,
}

/// The start of the warning for a task whose affinity names several units, followed by
/// `rest`.
pub fn affinity_warning(task: &str, rest: &str) -> String {
    format!("task {task}: affinity {rest}")
}

/// A name as a sort key with its runs of digits compared as numbers.
fn natural(name: &str) -> Vec<(String, u128)> {
    let mut out = Vec::new();
    let mut rest = name;
    while !rest.is_empty() {
        let text_end = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_end);
        let digits_end = tail.find(|c: char| !c.is_ascii_digit()).unwrap_or(tail.len());
        let (digits, tail) = tail.split_at(digits_end);
        out.push((text.to_string(), digits.parse().unwrap_or(u128::MAX)));
        rest = tail;
    }
    out
}

/// A cause-effect chain: tasks in data-flow order, and its latency requirement.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    /// Name.
    pub name: String,
    /// Task names, first (reads the input) to last (produces the output).
    pub tasks: Vec<String>,
    /// Required end-to-end latency (worst-case reaction), if any.
    pub requirement: Option<Ps>,
}

/// A whole system.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct System {
    /// Processing units in the model's order.
    pub units: Vec<Unit>,
    /// Label sizes in bytes.
    pub labels: BTreeMap<String, u64>,
    /// Runnables by name.
    pub runnables: BTreeMap<String, Runnable>,
    /// Tasks in the model's order.
    pub tasks: Vec<Task>,
    /// Cause-effect chains.
    pub chains: Vec<Chain>,
    /// Stimuli read (periodic and inter-process), by name: the period of a periodic one.
    pub stimuli: BTreeMap<String, Option<Ps>>,
    /// What was read but is not modelled, and choices made while reading.
    pub warnings: Vec<String>,
    /// The interconnect between the units and the memory, if the model gives one.
    pub interconnect: Option<Interconnect>,
}

/// The interconnect that serialises the units' memory accesses (AMALTHEA's
/// `ConnectionHandlerDefinition`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interconnect {
    /// Its definition's name.
    pub name: String,
    /// Arbitration policy (`RoundRobin`, `PriorityBased`, ...).
    pub policy: String,
    /// Transfers it serves at once.
    pub max_concurrent_transfers: u64,
    /// Most beats one grant moves (`maxBurstSize`), if given.
    pub max_burst: Option<u64>,
    /// Its clock (its module's frequency domain), if given.
    pub frequency: Option<Frequency>,
    /// Width in bits of its narrowest port, if given.
    pub port_bits: Option<u64>,
}

impl System {
    /// The unit named `name`.
    pub fn unit(&self, name: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.name == name)
    }

    /// The task named `name`.
    pub fn task(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.name == name)
    }

    /// The task whose trigger starts `name`, if any (the first, in the model's order).
    pub fn trigger_of(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().find(|t| t.offload.as_ref().is_some_and(|o| o.target == name))
    }

    /// Every triggered task's name with the tasks that trigger it, in the model's order
    /// (one pass, for lookups over many tasks).
    pub fn triggers(&self) -> std::collections::HashMap<&str, Vec<&Task>> {
        let mut out: std::collections::HashMap<&str, Vec<&Task>> = std::collections::HashMap::new();
        for t in &self.tasks {
            if let Some(o) = &t.offload {
                out.entry(o.target.as_str()).or_default().push(t);
            }
        }
        out
    }

    /// The units in the order of an integer mapping: CPUs first, then GPUs, each in
    /// `order` (APP4RTA numbers the CPU cores before the GPUs).
    pub fn numbered_units(&self, order: UnitOrder) -> Vec<&Unit> {
        let mut cpus: Vec<&Unit> = self.units.iter().filter(|u| !u.gpu).collect();
        let mut gpus: Vec<&Unit> = self.units.iter().filter(|u| u.gpu).collect();
        if order == UnitOrder::Names {
            cpus.sort_by_key(|u| natural(&u.name));
            gpus.sort_by_key(|u| natural(&u.name));
        }
        cpus.into_iter().chain(gpus).collect()
    }

    /// Maps `task` to `unit` (a command-line mapping), replacing the model's.
    pub fn map(&mut self, task: &str, unit: &str, field: &str) -> Result<(), InputError> {
        if self.unit(unit).is_none() {
            let names: Vec<&str> = self.units.iter().map(|u| u.name.as_str()).collect();
            return Err(InputError::new(field, format!("{task}={unit}"), format!("no unit {unit:?}; the units are {}", names.join(", "))));
        }
        let t = self
            .tasks
            .iter_mut()
            .find(|t| t.name == task)
            .ok_or_else(|| InputError::new(field, format!("{task}={unit}"), format!("no task {task:?}")))?;
        t.unit = Some(unit.to_string());
        self.forget_affinity(task);
        Ok(())
    }

    /// Maps every task, in the model's order, to the unit of that number in
    /// [`System::numbered_units`] (APP4RTA's integer array).
    pub fn map_numbers(&mut self, numbers: &[i64], order: UnitOrder, field: &str) -> Result<(), InputError> {
        if numbers.len() != self.tasks.len() {
            return Err(InputError::new(
                field,
                numbers.iter().map(i64::to_string).collect::<Vec<_>>().join(","),
                format!(
                    "needs one unit number per task, got {}: {} tasks ({})",
                    numbers.len(),
                    self.tasks.len(),
                    self.tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        let names: Vec<String> = self.numbered_units(order).iter().map(|u| u.name.clone()).collect();
        for (i, &n) in numbers.iter().enumerate() {
            let unit = usize::try_from(n).ok().and_then(|n| names.get(n)).ok_or_else(|| {
                InputError::new(
                    format!("{field}[{i}]"),
                    n,
                    format!("must be a unit number from 0 to {} ({})", names.len() - 1, names.join(", ")),
                )
            })?;
            self.tasks[i].unit = Some(unit.clone());
            let name = self.tasks[i].name.clone();
            self.forget_affinity(&name);
        }
        Ok(())
    }

    /// Drops the warning that `task`'s affinity named several units, once a mapping
    /// option has placed it (the warning's form is [`affinity_warning`]'s).
    fn forget_affinity(&mut self, task: &str) {
        let moved = affinity_warning(task, "");
        self.warnings.retain(|w| !w.starts_with(&moved));
    }

    /// Checks that the model has tasks, every name refers to something, every task is mapped to a unit
    /// (a GPU task to a GPU the model lacks is named as such), every periodic task has a
    /// positive period and deadline and calls a runnable or offloads, triggered tasks
    /// have a trigger, and chains name tasks.
    pub fn check(&self) -> Result<(), InputError> {
        if self.tasks.is_empty() {
            return Err(InputError::new("tasks", "", "the model has no tasks: nothing to analyse (an empty or task-less file)"));
        }
        unique(self.units.iter().map(|u| u.name.as_str()), "units")?;
        unique(self.tasks.iter().map(|t| t.name.as_str()), "tasks")?;
        for u in &self.units {
            if u.frequency.num == 0 || u.frequency.den == 0 {
                return Err(InputError::new(format!("units.{}.frequency", u.name), 0, "must be positive"));
            }
        }
        for r in self.runnables.values() {
            for l in r.reads.iter().chain(&r.writes) {
                if !self.labels.contains_key(l) {
                    return Err(InputError::new(format!("runnables.{}", r.name), l, "accesses a label the model does not define"));
                }
            }
            for (kind, t) in r.ticks.iter().map(|(k, t)| (k.as_str(), t)).chain(r.default_ticks.iter().map(|t| ("default", t))) {
                if t.lower > t.upper {
                    return Err(InputError::new(
                        format!("runnables.{}.ticks.{kind}", r.name),
                        format!("{}..{}", t.lower, t.upper),
                        "lower bound above the upper bound",
                    ));
                }
            }
        }
        let triggers = self.triggers();
        let names: std::collections::HashMap<&str, &Task> = self.tasks.iter().map(|t| (t.name.as_str(), t)).collect();
        for t in &self.tasks {
            self.check_task(t, &triggers, &names)?;
        }
        for c in &self.chains {
            if c.tasks.is_empty() {
                return Err(InputError::new(format!("chains.{}", c.name), "[]", "a chain needs at least one task"));
            }
            for name in &c.tasks {
                if !names.contains_key(name.as_str()) {
                    return Err(InputError::new(format!("chains.{}", c.name), name, "names no task of the model"));
                }
            }
        }
        Ok(())
    }

    fn check_task(
        &self,
        t: &Task,
        triggers: &std::collections::HashMap<&str, Vec<&Task>>,
        names: &std::collections::HashMap<&str, &Task>,
    ) -> Result<(), InputError> {
        let field = |f: &str| format!("tasks.{}.{f}", t.name);
        for r in t.pre.iter().chain(&t.post) {
            if !self.runnables.contains_key(r) {
                return Err(InputError::new(field("runnables"), r, "calls a runnable the model does not define"));
            }
        }
        let unit = t.unit.as_deref().ok_or_else(|| {
            InputError::new(field("unit"), "", "the task is mapped to no unit; map it (a task allocation, or the map option TASK=UNIT)")
        })?;
        let by = triggers.get(t.name.as_str()).map_or(&[][..], Vec::as_slice);
        if self.unit(unit).is_none() {
            return Err(match by.first() {
                Some(trigger) if !self.units.iter().any(|u| u.gpu) => InputError::new(
                    field("unit"),
                    unit,
                    format!(
                        "the model has no GPU unit (no unit {unit:?}), and {} offloads {} to it: add the GPU to the model, or map {} to a CPU",
                        trigger.name, t.name, t.name
                    ),
                ),
                _ => InputError::new(field("unit"), unit, "no such unit"),
            });
        }
        // A GPU task may take its kernels from the kernels file: `gpu::analyse_gpu` checks it.
        if t.pre.is_empty() && t.post.is_empty() && t.offload.is_none() && by.is_empty() {
            return Err(InputError::new(field("runnables"), "[]", "the task calls no runnable and offloads nothing: nothing to analyse"));
        }
        if t.deadline == Some(Ps::ZERO) {
            return Err(InputError::new(field("deadline"), 0, "must be positive"));
        }
        if by.len() > 1 {
            return Err(InputError::new(
                field("stimuli"),
                by.len(),
                "the task is triggered by several tasks; one trigger per GPU task is modelled",
            ));
        }
        match (t.period, by.first()) {
            (Some(Ps::ZERO), _) => return Err(InputError::new(field("period"), 0, "must be positive")),
            _ if t.time_slice == Some(Ps::ZERO) => return Err(InputError::new(field("time_slice"), 0, "must be positive")),
            (None, None) => {
                return Err(InputError::new(field("period"), "", "the task has no periodic activation and no trigger starts it"))
            }
            (Some(_), Some(by)) => {
                return Err(InputError::new(
                    field("period"),
                    "",
                    format!("the task is periodic and also triggered by {}; give it one activation", by.name),
                ))
            }
            _ => {}
        }
        if let Some(o) = &t.offload {
            if self.unit(unit).is_some_and(|u| u.gpu) {
                return Err(InputError::new(
                    field("offload"),
                    &o.target,
                    format!("the task is mapped to the GPU {unit} and offloads again; nested offloading is not modelled"),
                ));
            }
            let target = names
                .get(o.target.as_str())
                .ok_or_else(|| InputError::new(field("offload"), &o.target, "triggers no task of the model"))?;
            if target.offload.is_some() {
                return Err(InputError::new(
                    field("offload"),
                    &o.target,
                    "the triggered task offloads again; nested offloading is not modelled",
                ));
            }
        }
        Ok(())
    }
}

fn unique<'a>(names: impl Iterator<Item = &'a str>, field: &str) -> Result<(), InputError> {
    let mut seen = std::collections::BTreeSet::new();
    for n in names {
        if !seen.insert(n) {
            return Err(InputError::new(field, n, "the name occurs twice"));
        }
    }
    Ok(())
}

/// A size in bytes from a value and an AMALTHEA data-size unit (`B`, `kB` = 1000 B,
/// `KiB` = 1024 B, ..., `bit`, `kbit`, ...; bits round up to whole bytes).
pub fn bytes_of(value: &str, unit: &str, field: &str) -> Result<u64, InputError> {
    let v: u128 = value.trim().parse().map_err(|_| InputError::new(field, value, "must be a non-negative integer"))?;
    let (bits, mult): (bool, u128) = match unit {
        "B" | "" => (false, 1),
        "kB" => (false, 1000),
        "MB" => (false, 1_000_000),
        "GB" => (false, 1_000_000_000),
        "TB" => (false, 1_000_000_000_000),
        "KiB" => (false, 1 << 10),
        "MiB" => (false, 1 << 20),
        "GiB" => (false, 1 << 30),
        "TiB" => (false, 1 << 40),
        "bit" => (true, 1),
        "kbit" => (true, 1000),
        "Mbit" => (true, 1_000_000),
        "Gbit" => (true, 1_000_000_000),
        "Kibit" => (true, 1 << 10),
        "Mibit" => (true, 1 << 20),
        "Gibit" => (true, 1 << 30),
        other => {
            return Err(InputError::new(
                field,
                format!("{value} {other}"),
                "unknown data-size unit (B, kB, KiB, MB, MiB, GB, GiB, bit, kbit, ...)",
            ))
        }
    };
    let total = v.checked_mul(mult).map(|b| if bits { b.div_ceil(8) } else { b });
    total.and_then(|b| u64::try_from(b).ok()).ok_or_else(|| InputError::new(field, format!("{value} {unit}"), "too large"))
}

/// Decimal digits of picoseconds in one `unit` (`s` 12, `ms` 9, `us`/`µs` 6, `ns` 3,
/// `ps` 0), if it is a time unit.
pub fn ps_digits(unit: &str) -> Option<u32> {
    match unit.trim() {
        "s" => Some(12),
        "ms" => Some(9),
        "us" | "µs" => Some(6),
        "ns" => Some(3),
        "ps" => Some(0),
        _ => None,
    }
}

/// A time written as a number and a unit, with or without a space (`"7200µs"`,
/// `"1000 µs"`), in picoseconds.
pub fn time_text(text: &str, field: &str) -> Result<Ps, InputError> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (value, unit) = (t[..split].trim(), t[split..].trim());
    if value.is_empty() || unit.is_empty() {
        return Err(InputError::new(field, text, "a time is a number and a unit, e.g. \"100us\" or \"7.2 ms\""));
    }
    time_of(value, unit, field)
}

/// A time in picoseconds from a decimal value and a unit (`s`, `ms`, `us`/`µs`, `ns`,
/// `ps`), exact; a value finer than a picosecond is refused.
pub fn time_of(value: &str, unit: &str, field: &str) -> Result<Ps, InputError> {
    let d = crate::rta::time::Decimal::parse(value.trim(), field)?;
    let exp = ps_digits(unit)
        .ok_or_else(|| InputError::new(field, format!("{value} {}", unit.trim()), "unknown time unit (s, ms, us, ns, ps)"))?;
    if d.decimals > exp {
        return Err(InputError::new(field, format!("{value} {unit}"), "finer than a picosecond"));
    }
    10u128
        .checked_pow(exp - d.decimals)
        .and_then(|m| d.digits.checked_mul(m))
        .map(Ps::new)
        .ok_or_else(|| InputError::new(field, format!("{value} {unit}"), "too large"))
}

/// A frequency from a decimal value and a unit (`Hz`, `kHz`, `MHz`, `GHz`), exact.
pub fn frequency_of(value: &str, unit: &str, field: &str) -> Result<Frequency, InputError> {
    let d = crate::rta::time::Decimal::parse(value.trim(), field)?;
    let exp: u32 = match unit.trim() {
        "Hz" => 0,
        "kHz" => 3,
        "MHz" => 6,
        "GHz" => 9,
        other => return Err(InputError::new(field, format!("{value} {other}"), "unknown frequency unit (Hz, kHz, MHz, GHz)")),
    };
    if d.digits == 0 {
        return Err(InputError::new(field, format!("{value} {unit}"), "must be positive"));
    }
    let num = 10u128.checked_pow(exp).and_then(|m| d.digits.checked_mul(m));
    let den = 10u128.checked_pow(d.decimals);
    match (num, den) {
        (Some(num), Some(den)) if num <= 1 << 80 => Ok(Frequency { num, den }),
        _ => Err(InputError::new(field, format!("{value} {unit}"), "too large or too precise")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_convert_exactly() {
        assert_eq!(bytes_of("1500", "kB", "x").unwrap(), 1_500_000);
        assert_eq!(bytes_of("2", "MiB", "x").unwrap(), 2 << 20);
        assert_eq!(bytes_of("9", "bit", "x").unwrap(), 2);
        assert!(bytes_of("1", "parsec", "x").is_err());
        assert_eq!(time_of("5", "ms", "x").unwrap(), Ps::new(5 * PS_PER_MS));
        assert_eq!(time_of("7200", "µs", "x").unwrap(), Ps::new(7200 * 1_000_000));
        assert_eq!(time_of("0.5", "ns", "x").unwrap(), Ps::new(500));
        assert!(time_of("0.0001", "ns", "x").is_err());
        let f = frequency_of("1.5", "GHz", "x").unwrap();
        assert_eq!(f.time_up(Cycles::new(3)), Some(Ps::new(2000)));
        assert_eq!(f.time_up(Cycles::new(1)), Some(Ps::new(667)));
        assert_eq!(f.time_down(Cycles::new(1)), Some(Ps::new(666)));
        assert_eq!(f.time_up(Cycles::MAX / 2), None);
        assert_eq!(f.cycles_up(Ps::new(667)), Cycles::new(2));
        assert_eq!(frequency_of("2.0", "GHz", "x").unwrap().time_up(Cycles::new(100_000_000)), Some(Ps::new(50 * PS_PER_MS)));
    }
}
