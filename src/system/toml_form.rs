//! The TOML form of a system (for tests, and for users without AMALTHEA), and the side
//! file of cause-effect chains. See `instances/system/` and the README for
//! an example. Times are strings with a unit (`"10 ms"`), frequencies likewise
//! (`"2 GHz"`), label sizes a number of bytes or a string with a unit (`"1.5 MB"` is not
//! allowed: whole numbers only, `"1500 kB"`).

use super::model::{bytes_of, frequency_of, time_of, Chain, Interconnect, Offload, Ps, Runnable, System, Task, TickRange, Unit, Wait};
use crate::error::InputError;
use crate::files::parse_toml;
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    units: Vec<UnitEntry>,
    #[serde(default)]
    labels: BTreeMap<String, Size>,
    #[serde(default)]
    runnables: Vec<RunnableEntry>,
    #[serde(default)]
    tasks: Vec<TaskEntry>,
    #[serde(default)]
    chains: Vec<ChainEntry>,
    interconnect: Option<InterconnectEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InterconnectEntry {
    policy: String,
    #[serde(default = "one")]
    max_concurrent_transfers: u64,
    max_burst_size: Option<u64>,
    frequency: Option<String>,
    port_bits: Option<u64>,
}

fn one() -> u64 {
    1
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitEntry {
    name: String,
    kind: String,
    #[serde(default)]
    gpu: bool,
    frequency: String,
    #[serde(default)]
    read_latency: u64,
    #[serde(default)]
    write_latency: u64,
    port_bits: Option<u64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Size {
    Bytes(u64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Ticks {
    Exact(u64),
    Range([u64; 2]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunnableEntry {
    name: String,
    #[serde(default)]
    ticks: BTreeMap<String, Ticks>,
    #[serde(default)]
    reads: Vec<String>,
    #[serde(default)]
    writes: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskEntry {
    name: String,
    period: Option<String>,
    deadline: Option<String>,
    priority: Option<i64>,
    unit: Option<String>,
    #[serde(default)]
    runnables: Vec<String>,
    #[serde(default)]
    pre: Vec<String>,
    offload: Option<String>,
    wait: Option<String>,
    #[serde(default)]
    post: Vec<String>,
    time_slice: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChainEntry {
    name: String,
    tasks: Vec<String>,
    requirement: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChainsFile {
    chains: Vec<ChainEntry>,
}

/// `"<value> <unit>"` split in two, or an error naming `field` with `reason`.
fn value_unit<'a>(text: &'a str, field: &str, reason: &str) -> Result<(&'a str, &'a str), InputError> {
    let mut parts = text.split_whitespace();
    match (parts.next(), parts.next(), parts.next()) {
        (Some(v), Some(u), None) => Ok((v, u)),
        _ => Err(InputError::new(field, text, reason)),
    }
}

/// A time given as `"<value> <unit>"`.
fn time(text: &str, field: &str) -> Result<Ps, InputError> {
    let (v, u) = value_unit(text, field, "a time is a number and a unit, e.g. \"10 ms\"")?;
    time_of(v, u, field)
}

/// Reads the TOML form in `text` (from `origin`).
pub fn read(text: &str, origin: &str) -> Result<System, InputError> {
    let f: File = parse_toml(text, origin)?;
    let mut sys = System::default();
    for u in f.units {
        port_width(u.port_bits, &format!("units.{}.port_bits", u.name))?;
        let field = format!("units.{}.frequency", u.name);
        let (v, unit) = value_unit(&u.frequency, &field, "a frequency is a number and a unit, e.g. \"2 GHz\"")?;
        let frequency = frequency_of(v, unit, &field)?;
        sys.units.push(Unit {
            name: u.name,
            kind: u.kind,
            gpu: u.gpu,
            frequency,
            read_latency: u.read_latency,
            write_latency: u.write_latency,
            contention: 0,
            port_bits: u.port_bits,
        });
    }
    for (name, size) in f.labels {
        let field = format!("labels.{name}");
        let bytes = match size {
            Size::Bytes(b) => b,
            Size::Text(t) => {
                let (v, u) = value_unit(&t, &field, "a size is bytes, or a whole number and a unit, e.g. \"2 MB\"")?;
                bytes_of(v, u, &field)?
            }
        };
        sys.labels.insert(name, bytes);
    }
    for r in f.runnables {
        let ticks = r
            .ticks
            .into_iter()
            .map(|(k, t)| match t {
                Ticks::Exact(v) => (k, TickRange { lower: v, upper: v }),
                Ticks::Range([lower, upper]) => (k, TickRange { lower, upper }),
            })
            .collect();
        sys.runnables.insert(r.name.clone(), Runnable { name: r.name, ticks, default_ticks: None, reads: r.reads, writes: r.writes });
    }
    for t in f.tasks {
        sys.tasks.push(task(t)?);
    }
    sys.chains = f.chains.into_iter().map(chain).collect::<Result<_, _>>()?;
    sys.interconnect = f.interconnect.map(interconnect).transpose()?;
    Ok(sys)
}

/// A port width, if given: at least 8 bits, or an error naming `field`.
fn port_width(bits: Option<u64>, field: &str) -> Result<(), InputError> {
    match bits.filter(|&b| b < 8) {
        Some(b) => Err(InputError::new(field, b.to_string(), "a port is at least 8 bits wide")),
        None => Ok(()),
    }
}

/// The `[interconnect]` table: a frequency is a number and a unit; a burst size and a
/// port width must be positive (a port at least 8 bits).
fn interconnect(i: InterconnectEntry) -> Result<Interconnect, InputError> {
    let frequency = match &i.frequency {
        Some(f) => {
            let (v, unit) = value_unit(f, "interconnect.frequency", "a frequency is a number and a unit, e.g. \"1.5 GHz\"")?;
            Some(frequency_of(v, unit, "interconnect.frequency")?)
        }
        None => None,
    };
    if i.max_burst_size == Some(0) {
        return Err(InputError::new("interconnect.max_burst_size", "0", "a burst moves at least one beat"));
    }
    port_width(i.port_bits, "interconnect.port_bits")?;
    Ok(Interconnect {
        name: "interconnect".into(),
        policy: i.policy,
        max_concurrent_transfers: i.max_concurrent_transfers,
        max_burst: i.max_burst_size,
        frequency,
        port_bits: i.port_bits,
    })
}

fn task(t: TaskEntry) -> Result<Task, InputError> {
    let field = |f: &str| format!("tasks.{}.{f}", t.name);
    if !t.runnables.is_empty() && (!t.pre.is_empty() || !t.post.is_empty()) {
        return Err(InputError::new(field("runnables"), "", "give runnables, or pre and post around an offload, not both"));
    }
    let wait = match t.wait.as_deref() {
        None | Some("none") => Wait::None,
        Some("active") => Wait::Active,
        Some("passive") => Wait::Passive,
        Some(other) => return Err(InputError::new(field("wait"), other, "must be active, passive or none")),
    };
    if t.offload.is_none() && (t.wait.is_some() || !t.post.is_empty()) {
        return Err(InputError::new(field("offload"), "", "wait and post need an offload"));
    }
    let mut pre = t.pre;
    pre.extend(t.runnables);
    Ok(Task {
        period: t.period.as_deref().map(|p| time(p, &field("period"))).transpose()?,
        deadline: t.deadline.as_deref().map(|d| time(d, &field("deadline"))).transpose()?,
        priority: t.priority,
        unit: t.unit,
        pre,
        offload: t.offload.map(|target| Offload { target, wait }),
        post: t.post,
        time_slice: t.time_slice.as_deref().map(|q| time(q, &field("time_slice"))).transpose()?,
        name: t.name,
    })
}

fn chain(c: ChainEntry) -> Result<Chain, InputError> {
    let requirement = c.requirement.as_deref().map(|r| time(r, &format!("chains.{}.requirement", c.name))).transpose()?;
    Ok(Chain { name: c.name, tasks: c.tasks, requirement })
}

/// Reads a chains file (`[[chains]]` tables with `name`, `tasks`, `requirement`).
///
/// ```
/// let chains = gpu_makespan::system::read_chains(
///     "[[chains]]\nname = \"a-to-b\"\ntasks = [\"A\", \"B\"]\nrequirement = \"100 ms\"\n",
///     "chains.toml",
/// )?;
/// assert_eq!((chains[0].name.as_str(), chains[0].tasks.len()), ("a-to-b", 2));
/// use gpu_makespan::system::Ps;
/// assert_eq!(chains[0].requirement, Some(Ps::new(100_000_000_000)));
/// assert_eq!(chains[0].requirement.map(gpu_makespan::system::ms), Some(100.0));
/// # Ok::<(), gpu_makespan::Error>(())
/// ```
pub fn read_chains(text: &str, origin: &str) -> Result<Vec<Chain>, InputError> {
    let f: ChainsFile = parse_toml(text, origin)?;
    f.chains.into_iter().map(chain).collect()
}
