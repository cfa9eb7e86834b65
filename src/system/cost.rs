//! Execution time of runnables on a unit: their cycles (the model's ticks for the
//! unit's kind) plus the memory access cost of the labels they access, and, under
//! implicit communication, the copy-in and copy-out of a task's labels.
//!
//! Memory access cost (WATERS 2019, GSoC document "Memory Access Cost"): each access to
//! a label of `S` bytes costs `ceil(S / 64)` times the unit's read or write latency, in
//! cycles of the unit. Every access in a runnable counts. Cycles become time once, at
//! the end of a sum: worst cases rounded up, best cases down ([`Frequency`]).
//!
//! Implicit communication (AUTOSAR; GSoC "Local Copy Cost"): a task copies every label it
//! reads into local memory when it starts (`C^0 = sum over read labels`) and every label
//! it writes back when it ends (`C^last = sum over written labels`), each label once; the
//! copies are added to the task's execution time, on top of the runnables' own accesses
//! (the GSoC document adds them the same way).

use super::model::{Frequency, Ps, Runnable, System, TickRange, Unit, MAX_TIME};
use crate::error::InputError;
use crate::model::cycles::Cycles;
use serde::Serialize;
use std::collections::BTreeSet;

/// Best and worst execution time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Cost {
    /// A lower bound (best case), picoseconds.
    pub best: Ps,
    /// An upper bound (worst case), picoseconds.
    pub worst: Ps,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost { best: self.best + o.best, worst: self.worst + o.worst }
    }
}

/// How tasks communicate through labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Communication {
    /// Every access goes to shared memory as it happens.
    Direct,
    /// Copy-in at the start, copy-out at the end (AUTOSAR implicit communication).
    Implicit,
}

/// Cycles of the 64-byte lines of `label` at `latency` cycles each, best and worst: the
/// worst adds the unit's `contention` per line (at most 2^58 x 2^65: no overflow).
fn access_cycles(sys: &System, label: &str, latency: u64, unit: &Unit) -> (Cycles, Cycles) {
    let lines = (sys.labels.get(label).copied().unwrap_or(0) as u128).div_ceil(64);
    (lines * Cycles::from(latency), lines * (Cycles::from(latency) + Cycles::from(unit.contention)))
}

/// `a + b` for best and worst cycle counts (see [`add`]).
fn add2(a: (Cycles, Cycles), b: (Cycles, Cycles), what: &str) -> Result<(Cycles, Cycles), InputError> {
    Ok((add(a.0, b.0, what)?, add(a.1, b.1, what)?))
}

/// `a + b`, or an error naming `what` when the sum does not fit.
fn add(a: Cycles, b: Cycles, what: &str) -> Result<Cycles, InputError> {
    a.checked_add(b).ok_or_else(|| InputError::new(what, "(sum)", "too many cycles to add up"))
}

/// Cycles of one runnable on `unit`: lower and upper, label accesses included. A
/// runnable without ticks for the unit's kind is an error naming both, except a copy
/// runnable (no ticks at all), which costs its accesses only.
pub fn runnable_cycles(sys: &System, r: &Runnable, unit: &Unit, task: &str) -> Result<(Cycles, Cycles), InputError> {
    let ticks = match r.ticks_on(&unit.kind) {
        Some(t) => t,
        None if r.is_copy() => TickRange { lower: 0, upper: 0 },
        None => {
            return Err(InputError::new(
                format!("runnables.{}.ticks", r.name),
                &unit.kind,
                format!("the runnable has no ticks for {} (task {task} is mapped to {}); map the task elsewhere", unit.kind, unit.name),
            ))
        }
    };
    let field = format!("runnables.{}", r.name);
    let mut memory = (Cycles::ZERO, Cycles::ZERO);
    for l in &r.reads {
        memory = add2(memory, access_cycles(sys, l, unit.read_latency, unit), &field)?;
    }
    for l in &r.writes {
        memory = add2(memory, access_cycles(sys, l, unit.write_latency, unit), &field)?;
    }
    Ok((add(Cycles::from(ticks.lower), memory.0, &field)?, add(Cycles::from(ticks.upper), memory.1, &field)?))
}

/// Cycles of the implicit copy-in (every label read by `runnables`, once) and copy-out
/// (every label written, once) on `unit`, best and worst.
pub fn copy_cycles(sys: &System, runnables: &[&Runnable], unit: &Unit, task: &str) -> Result<(Cycles, Cycles), InputError> {
    let reads: BTreeSet<&String> = runnables.iter().flat_map(|r| &r.reads).collect();
    let writes: BTreeSet<&String> = runnables.iter().flat_map(|r| &r.writes).collect();
    let field = format!("tasks.{task}");
    let mut total = (Cycles::ZERO, Cycles::ZERO);
    for l in reads {
        total = add2(total, access_cycles(sys, l, unit.read_latency, unit), &field)?;
    }
    for l in writes {
        total = add2(total, access_cycles(sys, l, unit.write_latency, unit), &field)?;
    }
    Ok(total)
}

/// Line accesses (64-byte lines, every access counted, as [`runnable_cycles`] charges
/// them) of `rs`, plus the lines of their implicit copies when `copies` (as
/// [`copy_cycles`] charges them).
pub fn lines(sys: &System, rs: &[&Runnable], copies: bool) -> u128 {
    let of = |l: &String| (sys.labels.get(l).copied().unwrap_or(0) as u128).div_ceil(64);
    let accesses: u128 = rs.iter().flat_map(|r| r.reads.iter().chain(&r.writes)).map(of).sum();
    if !copies {
        return accesses;
    }
    let reads: BTreeSet<&String> = rs.iter().flat_map(|r| &r.reads).collect();
    let writes: BTreeSet<&String> = rs.iter().flat_map(|r| &r.writes).collect();
    accesses + reads.into_iter().map(of).sum::<u128>() + writes.into_iter().map(of).sum::<u128>()
}

/// The runnables named in `names` (checked to exist by [`System::check`]).
pub fn runnables<'a>(sys: &'a System, names: &[String]) -> Vec<&'a Runnable> {
    names.iter().filter_map(|n| sys.runnables.get(n)).collect()
}

/// Execution time of `rs` on `unit`, plus `extra_cycles` (e.g. implicit copies; best
/// and worst).
pub fn cost(sys: &System, rs: &[&Runnable], unit: &Unit, task: &str, extra_cycles: (Cycles, Cycles)) -> Result<Cost, InputError> {
    let (mut lower, mut upper) = extra_cycles;
    let field = format!("tasks.{task}");
    for r in rs {
        let (l, u) = runnable_cycles(sys, r, unit, task)?;
        lower = add(lower, l, &field)?;
        upper = add(upper, u, &field)?;
    }
    time(unit.frequency, lower, upper, &field)
}

/// Cycles as a [`Cost`]: the lower count rounded down, the upper rounded up; an error
/// naming `field` when it is longer than [`MAX_TIME`].
pub fn time(f: Frequency, lower: Cycles, upper: Cycles, field: &str) -> Result<Cost, InputError> {
    match (f.time_down(lower), f.time_up(upper)) {
        (Some(best), Some(worst)) if worst <= MAX_TIME => Ok(Cost { best, worst }),
        _ => Err(InputError::new(field, format!("{} cycles", upper.get()), "longer than 2^50 ps (about 18 minutes): too large to analyse")),
    }
}
