//! CPU tasks: their execution time per the four cases of the GSoC document, and their
//! best and worst response times per core under fixed-priority preemptive scheduling.
//!
//! **Execution time** ([`entities`]), on the unit the task is mapped to, runnables'
//! ticks plus label access costs ([`crate::system::cost`]), plus the implicit copies
//! unless the communication is direct:
//! 1. *Synchronous offloading* (active wait): `C = pre + post + R_gpu`; the core spins
//!    while the GPU task runs, so its response is execution.
//! 2. *Asynchronous offloading* (passive wait): `C = pre + post`, and the task suspends
//!    for at most `R_gpu` (its suspension `S`). For itself the suspension counts as
//!    execution (`R = C + S + interference`); for lower-priority tasks it is a release
//!    jitter `J = R - C` of the task (the sound jitter of a self-suspending task; for a
//!    task of equal priority, whose `R` is not yet known, `J = D - C`, valid when it meets
//!    its deadline). When that does not hold (the suspending task has no `R`, or an
//!    equal-priority one misses its deadline), the tasks it interferes with are reported
//!    without `R`.
//! 3. *A GPU task mapped to a CPU*: as in the GSoC document, the triggering task is not
//!    scheduled on its own; the triggered task runs on its CPU at the trigger's period,
//!    priority and deadline, with `C = trigger's pre + the task's computing runnables on
//!    that CPU + trigger's post` (the copy runnables are dropped: no device memory).
//! 4. *Ticks only*: `C = runnables`. The GSoC document leaves label costs out here; this
//!    tool keeps them (a larger C is safe, the smaller one is not when labels are read).
//!
//! **Worst case**: `R = C + S + sum_{j in hep(i)} ceil((R + J_j) / T_j) C_j` by
//! fixed-point iteration from `C + S`. The GSoC document prints `R_{i-1}` inside the
//! ceiling; that is a typo for the current iterate `R^n_i` (the recurrence of Joseph and
//! Pandya), which is used here. `hep(i)`: every other task of the core with equal or
//! higher priority (equal priorities interfere both ways: safe for any tie order). The
//! iteration stops when `R` passes `T`: beyond it a job may still run when the next one
//! is released, which needs a busy-period analysis this tool does not do; the task is
//! then reported without `R` and not schedulable. An `R` up to `T` is reported even
//! when it passes `D` (the task misses its deadline).
//!
//! **Best case** ([`best_case`]): a task that waits for its GPU task (synchronously or
//! asynchronously), `C^- + S^-` with no interference (preemptions may fall in the wait,
//! which goes on on the GPU); any other task by Redell and Sanfridson's recurrence, as
//! in the GSoC document, `R^{n+1} = C^- + sum_{j in hp(i)} ceil0((R^n - J_j - T_j) / T_j)
//! C_j^-` from `R^0 = R^+` until it stops changing, with `hp(i)` only strictly higher
//! priorities (fewer interferers give a smaller value: still a lower bound) and each
//! offloading interferer counted by its time on the core only (`best_interferers`).
//!
//! **Priorities**: the model's (larger is higher, as OSEK and AUTOSAR count) when they
//! are not all equal on a core, else rate-monotonic (shorter period higher; equal
//! periods equal priority); the report says which per core.

use super::contention::Bus;
use super::cost::{copy_cycles, cost, lines, runnables, Communication, Cost};
use super::gpu::GpuSide;
use super::model::{ms, Ps, System, Task, Unit, Wait, MAX_TIME};
use super::reference::{labels_only, Reference};
use crate::error::InputError;
use crate::model::cycles::Cycles;
use serde::Serialize;

/// How offloading tasks wait, whatever the model says (the GSoC analyser's switch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OffloadMode {
    /// As the model's wait events say.
    #[default]
    Model,
    /// Every offloading task waits actively.
    Sync,
    /// Every offloading task waits passively.
    Async,
}

/// Which case of the GSoC document a task's execution time follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Case {
    /// No offloading: its runnables.
    Ticks,
    /// Offloads and waits actively: `R_gpu` is in `C`.
    SyncOffload,
    /// Offloads and suspends: `R_gpu` is its suspension.
    AsyncOffload,
    /// Offloads and does not wait.
    NoWaitOffload,
    /// A GPU task mapped to a CPU, with its trigger's runnables.
    GpuTaskOnCpu,
}

/// One task as its core schedules it.
#[derive(Debug, Clone, Serialize)]
pub struct Entity {
    /// Name (the triggered task's, for a GPU task on a CPU).
    pub name: String,
    /// Model tasks it stands for (itself, or the trigger and the triggered task).
    pub tasks: Vec<String>,
    /// Core.
    pub unit: String,
    /// Period, picoseconds.
    pub period: Ps,
    /// Relative deadline (the requirement, else the period).
    pub deadline: Ps,
    /// The model's priority, if any.
    pub model_priority: Option<i64>,
    /// Execution time.
    pub c: Cost,
    /// Suspension (asynchronous offloading), else zero.
    pub suspension: Cost,
    /// The case.
    pub case: Case,
    /// The GPU task it offloads to, if any.
    pub gpu_task: Option<String>,
    /// An offloading task's runnables before the offload, or a GPU task on a CPU's
    /// trigger's, without copies (the best case bounds when the GPU task is released;
    /// the worst case without waiting for the interconnect; zero for other cases).
    pub pre: Cost,
    /// An offloading task's runnables after the wait, or a GPU task on a CPU's trigger's,
    /// without copies (the worst case without waiting for the interconnect; zero for
    /// other cases).
    pub post: Cost,
    /// Synchronous offloading: the GPU response that `c` counts as execution (the core
    /// spins); zero for other cases. `c - wait` is what the task needs of the core.
    pub wait: Cost,
    /// Line accesses a job makes from its core at most (its runnables' and copies';
    /// not its GPU task's), for the interconnect ([`crate::system::contention`]).
    pub lines: u128,
    /// The part of `c.worst` that is waiting for the interconnect. Before the analysis
    /// the per-access bound (every line waits for every other active unit); in a
    /// [`Response`], the job-driven bound over the job's window when it has an `R+`.
    pub contention: Ps,
}

impl Entity {
    /// A task of the ticks-only case on `Core0` with deadline = period and no model
    /// priority (for tests and examples).
    pub fn periodic(name: &str, period: Ps, c: Cost) -> Entity {
        Entity {
            name: name.into(),
            tasks: vec![name.into()],
            unit: "Core0".into(),
            period,
            deadline: period,
            model_priority: None,
            c,
            suspension: Cost::default(),
            case: Case::Ticks,
            gpu_task: None,
            pre: Cost::default(),
            post: Cost::default(),
            wait: Cost::default(),
            lines: 0,
            contention: Ps::ZERO,
        }
    }

    /// `C+` without waiting for the interconnect.
    pub fn c0(&self) -> Ps {
        self.c.worst - self.contention
    }
}

/// A response-time result of one entity: times exact in picoseconds. Serialised as a
/// row of a core's table in `makespan system --json` (`cores[].tasks[]`, times in ms:
/// `name`, `tasks`, `case`, `priority`, `rank`, `period`, `deadline`, `c_best`,
/// `c_worst`, `suspension` (the worst), `gpu_task`, `r_best`, `r_worst`, `schedulable`,
/// `blocked_by`: without `r_worst`, the term that keeps it above its period, or why it
/// was not analysed; `pre`, `post`: an offloading task's runnables before and after the
/// offload, or a GPU task on a CPU's trigger's, `[best, worst]` without copies or
/// contention, null for a task that does not offload).
#[derive(Debug, Clone)]
pub struct Response {
    /// The entity.
    pub entity: Entity,
    /// Rank on its core: 0 is the highest priority (equal priorities share a rank).
    pub rank: usize,
    /// Worst-case response time, if it converged within `T`.
    pub worst: Option<Ps>,
    /// Best-case response time (with `worst`).
    pub best: Option<Ps>,
    /// `worst <= deadline`.
    pub schedulable: bool,
    /// Without `worst`: the term that keeps it above the period, and by how much.
    pub blocked_by: Option<String>,
}

impl Serialize for Response {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let e = &self.entity;
        let mut row = s.serialize_struct("Response", 17)?;
        row.serialize_field("name", &e.name)?;
        row.serialize_field("tasks", &e.tasks)?;
        row.serialize_field("case", &e.case)?;
        row.serialize_field("priority", &e.model_priority)?;
        row.serialize_field("rank", &self.rank)?;
        row.serialize_field("period", &ms(e.period))?;
        row.serialize_field("deadline", &ms(e.deadline))?;
        row.serialize_field("c_best", &ms(e.c.best))?;
        row.serialize_field("c_worst", &ms(e.c.worst))?;
        row.serialize_field("suspension", &ms(e.suspension.worst))?;
        row.serialize_field("gpu_task", &e.gpu_task)?;
        row.serialize_field("r_best", &self.best.map(ms))?;
        row.serialize_field("r_worst", &self.worst.map(ms))?;
        row.serialize_field("schedulable", &self.schedulable)?;
        row.serialize_field("blocked_by", &self.blocked_by)?;
        let part = |c: Cost| (e.case != Case::Ticks).then(|| [ms(c.best), ms(c.worst)]);
        row.serialize_field("pre", &part(e.pre))?;
        row.serialize_field("post", &part(e.post))?;
        row.end()
    }
}

/// The response of the entity that runs model task `name` (an entity stands for one task,
/// or for several merged), if any.
pub fn response_of<'a>(all: &'a [Response], name: &str) -> Option<&'a Response> {
    all.iter().find(|r| r.entity.tasks.iter().any(|t| t == name))
}

/// The tasks each core schedules, with their execution times: `sys` with each unit's
/// per-line contention ([`crate::system::contention::with_contention`]), `plain` the
/// same system without it (for [`Entity::contention`]).
pub fn entities(
    (sys, plain): (&System, &System),
    gpu: &GpuSide,
    comm: Communication,
    mode: OffloadMode,
    rules: Reference,
) -> Result<Vec<Entity>, InputError> {
    let mut out = Vec::new();
    for t in &sys.tasks {
        let unit = mapped(sys, t);
        if unit.gpu || t.period.is_none() {
            continue; // GPU tasks, and triggered tasks (handled with their trigger).
        }
        let mut e = entity(sys, t, unit, gpu, (comm, mode, rules))?;
        let alone = entity(plain, t, mapped(plain, t), gpu, (comm, mode, rules))?;
        e.contention = e.c.worst.saturating_sub(alone.c.worst);
        (e.pre, e.post) = (alone.pre, alone.post);
        let longest = e.period.max(e.deadline).max(e.c.worst + e.suspension.worst);
        if longest > MAX_TIME {
            return Err(InputError::new(
                format!("tasks.{}", e.name),
                format!("{} ps", longest.get()),
                "a period, deadline or C + S above 2^50 ps (about 18 minutes) is too large to analyse",
            ));
        }
        out.push(e);
    }
    Ok(out)
}

fn mapped<'a>(sys: &'a System, t: &Task) -> &'a Unit {
    sys.unit(t.unit.as_deref().unwrap_or("")).expect("checked by System::check")
}

fn entity(sys: &System, t: &Task, unit: &Unit, gpu: &GpuSide, how: (Communication, OffloadMode, Reference)) -> Result<Entity, InputError> {
    let (comm, mode, rules) = how;
    let period = t.period.expect("periodic");
    let base = Entity {
        name: t.name.clone(),
        tasks: vec![t.name.clone()],
        unit: unit.name.clone(),
        period,
        deadline: t.deadline.unwrap_or(period),
        model_priority: t.priority,
        c: Cost::default(),
        suspension: Cost::default(),
        case: Case::Ticks,
        gpu_task: None,
        pre: Cost::default(),
        post: Cost::default(),
        wait: Cost::default(),
        lines: 0,
        contention: Ps::ZERO,
    };
    let implicit = comm == Communication::Implicit;
    let Some(o) = &t.offload else {
        let rs = runnables(sys, &t.pre);
        return Ok(Entity { c: cost(sys, &rs, unit, &t.name, copies(sys, &rs, unit, comm, &t.name)?)?, lines: lines(sys, &rs, implicit), ..base });
    };
    let target = sys.task(&o.target).expect("checked");
    let target_unit = mapped(sys, target);
    if !target_unit.gpu {
        let computing: Vec<String> = target.pre.iter().filter(|r| !sys.runnables[*r].is_copy()).cloned().collect();
        let trigger_labels = if rules == Reference::App4rta { labels_only(sys, &t.pre, &t.post) } else { Vec::new() };
        let mut rs = runnables(sys, &computing);
        if rules == Reference::App4rta {
            rs.extend(trigger_labels.iter());
        } else {
            rs.splice(0..0, runnables(sys, &t.pre));
            rs.extend(runnables(sys, &t.post));
        }
        let c = cost(sys, &rs, target_unit, &target.name, copies(sys, &rs, target_unit, comm, &target.name)?)?;
        return Ok(Entity {
            name: target.name.clone(),
            tasks: vec![t.name.clone(), target.name.clone()],
            unit: target_unit.name.clone(),
            c,
            case: Case::GpuTaskOnCpu,
            lines: lines(sys, &rs, implicit),
            pre: cost(sys, &runnables(sys, &t.pre), target_unit, &target.name, (Cycles::ZERO, Cycles::ZERO))?,
            post: cost(sys, &runnables(sys, &t.post), target_unit, &target.name, (Cycles::ZERO, Cycles::ZERO))?,
            ..base
        });
    }
    let mut names = t.pre.clone();
    names.extend(t.post.iter().cloned());
    let rs = runnables(sys, &names);
    let own = cost(sys, &rs, unit, &t.name, copies(sys, &rs, unit, comm, &t.name)?)?;
    let r_gpu = gpu.tasks.iter().find(|g| g.task == target.name).map(|g| g.response).expect("analysed with the GPU side");
    let wait = match (mode, o.wait) {
        (_, Wait::None) => Wait::None,
        (OffloadMode::Sync, _) => Wait::Active,
        (OffloadMode::Async, _) => Wait::Passive,
        (OffloadMode::Model, w) => w,
    };
    let base = Entity {
        gpu_task: Some(target.name.clone()),
        pre: cost(sys, &runnables(sys, &t.pre), unit, &t.name, (Cycles::ZERO, Cycles::ZERO))?,
        post: cost(sys, &runnables(sys, &t.post), unit, &t.name, (Cycles::ZERO, Cycles::ZERO))?,
        lines: lines(sys, &rs, implicit),
        ..base
    };
    Ok(match wait {
        Wait::Active => Entity { c: own + r_gpu, wait: r_gpu, case: Case::SyncOffload, ..base },
        Wait::Passive => Entity { c: own, suspension: r_gpu, case: Case::AsyncOffload, ..base },
        Wait::None => Entity { c: own, case: Case::NoWaitOffload, ..base },
    })
}

fn copies(sys: &System, rs: &[&super::model::Runnable], unit: &Unit, comm: Communication, task: &str) -> Result<(Cycles, Cycles), InputError> {
    match comm {
        Communication::Direct => Ok((Cycles::ZERO, Cycles::ZERO)),
        Communication::Implicit => copy_cycles(sys, rs, unit, task),
    }
}

/// How a core's priorities were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Priorities {
    /// The model's priorities (larger is higher).
    Model,
    /// Rate-monotonic: shorter period higher.
    RateMonotonic,
}

/// The priority scheme of a core's entities and each one's rank (0 highest).
pub fn ranks(on_core: &[&Entity]) -> (Priorities, Vec<usize>) {
    let given: Vec<i64> = on_core.iter().filter_map(|e| e.model_priority).collect();
    let model = given.len() == on_core.len() && given.iter().any(|&p| p != given[0]);
    let key = |e: &Entity| if model { -(e.model_priority.unwrap_or(0) as i128) } else { e.period.get() as i128 };
    let mut keys: Vec<i128> = on_core.iter().map(|e| key(e)).collect();
    keys.sort_unstable();
    keys.dedup();
    let ranks = on_core.iter().map(|e| keys.binary_search(&key(e)).expect("present")).collect();
    (if model { Priorities::Model } else { Priorities::RateMonotonic }, ranks)
}

/// Most iterations of a response-time recurrence before it is declared divergent.
pub const MAX_ITERATIONS: usize = 1_000_000;

/// Response times of the entities of one core (see the module docs): the worst case by
/// [`worst_case`], with `bus` the interconnect as this core sees it (empty: no
/// contention beyond what `C+` holds); the best case `C- + S-` under this tool's rules
/// ([`Reference::Proven`], proof in [`no_interference`]), the Redell-Sanfridson
/// recurrence ([`best_case`]) under the GSoC document's ([`Reference::App4rta`]). A
/// response's entity has the `C+` of one job in its window: `C0` plus the job-driven
/// wait of its own accesses over `R+` (at most the per-access one it came with).
///
/// With a `deadline` that passes, the tasks not analysed by then get no `R+` and a
/// `blocked_by` that says so (the others keep theirs: proven).
pub fn analyse_core(on_core: &[&Entity], rules: Reference, (bus, deadline): (&Bus, Option<std::time::Instant>)) -> (Priorities, Vec<Response>) {
    let (scheme, rank) = ranks(on_core);
    let mut order: Vec<usize> = (0..on_core.len()).collect();
    order.sort_by_key(|&i| rank[i]);
    let mut worst: Vec<Option<Ps>> = vec![None; on_core.len()];
    let mut blocked: Vec<Option<String>> = vec![None; on_core.len()];
    // The interferers of strictly higher ranks, merged by their release pattern (the
    // recurrence is linear in `c` and `lines`, so merging changes no value), and of the
    // rank at hand: each task's interferers are those less itself.
    let mut higher = Interferers::default();
    for group in order.chunk_by(|&a, &b| rank[a] == rank[b]) {
        let mut level = higher.clone();
        group.iter().for_each(|&j| level.add(Interferer::of(on_core[j], None), 1));
        for &i in group {
            if past(deadline) {
                blocked[i] = Some(TIME_LIMIT.into());
                continue;
            }
            let mut mine = level.clone();
            mine.add(Interferer::of(on_core[i], None), -1);
            let interferers = mine.list();
            worst[i] = worst_case(on_core[i], &interferers, bus);
            if worst[i].is_none() {
                blocked[i] = Some(blocked_by(on_core[i], &interferers, bus));
            }
        }
        group.iter().for_each(|&j| higher.add(Interferer::of(on_core[j], worst[j]), 1));
    }
    // A suspending interferer's jitter rests on its own response: R - C when it has
    // one, D - C for an equal priority, valid only when it meets its deadline. Where that
    // fails, the tasks it interferes with are not analysed; repeated until nothing
    // changes, as a response dropped here founds another task's jitter (the order of the
    // tasks must not matter).
    let mut changed = true;
    while changed {
        changed = false;
        // The highest rank of a suspending task without R+ (it founds no jitter for any
        // task of its rank or below), and per rank the suspending tasks past their
        // deadline (each founds none for the others of its rank).
        let without = (0..on_core.len()).filter(|&j| on_core[j].case == Case::AsyncOffload && worst[j].is_none()).map(|j| rank[j]).min();
        let late: Vec<bool> =
            (0..on_core.len()).map(|j| on_core[j].case == Case::AsyncOffload && worst[j].is_some_and(|r| r > on_core[j].deadline)).collect();
        let mut late_at = vec![0usize; on_core.len()];
        (0..on_core.len()).filter(|&j| late[j]).for_each(|j| late_at[rank[j]] += 1);
        for i in 0..on_core.len() {
            let unfounded = without.is_some_and(|r| r <= rank[i]) || late_at[rank[i]] > usize::from(late[i]);
            if unfounded && worst[i].is_some() {
                worst[i] = None;
                blocked[i] = Some("a suspending task of higher or equal priority on its core has no R+ (or misses its deadline at equal priority), so its jitter is unknown".into());
                changed = true;
            }
        }
    }
    let responses = (0..on_core.len())
        .map(|i| {
            let e = on_core[i];
            let best = worst[i].map(|w| match rules {
                Reference::Proven => no_interference(e),
                Reference::App4rta => {
                    let hp: Vec<(Ps, Ps, Ps)> =
                        (0..on_core.len()).filter(|&j| rank[j] < rank[i]).flat_map(|j| best_interferers(on_core[j], worst[j])).collect();
                    best_case(e, w, &hp)
                }
            });
            let entity = match worst[i] {
                Some(r) => in_window(e, bus, r),
                None => e.clone(),
            };
            let schedulable = worst[i].is_some_and(|w| w <= e.deadline);
            Response { entity, rank: rank[i], worst: worst[i], best, schedulable, blocked_by: blocked[i].take() }
        })
        .collect();
    (scheme, responses)
}

/// `e` with the `C+` of one job whose response is at most `r`: its own accesses wait at
/// most [`Bus::wait`] over a window of length `r` (they all fall in it), and at most the
/// per-access wait it came with.
fn in_window(e: &Entity, bus: &Bus, r: Ps) -> Entity {
    let contention = e.contention.min(bus.wait(e.lines, r));
    Entity { c: Cost { worst: e.c0() + contention, ..e.c }, contention, ..e.clone() }
}

/// Why `e` gets no `R+` within its period `T`, with the margin: its own `C0 + S` when
/// that alone passes `T` (for a GPU task on a CPU, its trigger's pre- and
/// post-processing when they alone make the difference), else the terms of
/// [`worst_case`] at `R = T`: the wait for the interconnect when the work alone fits,
/// else the higher-priority work.
fn blocked_by(e: &Entity, interferers: &[Interferer], bus: &Bus) -> String {
    let t = e.period;
    let own = e.c0() + e.suspension.worst;
    if own > t {
        let sides = e.pre.worst + e.post.worst;
        if e.case == Case::GpuTaskOnCpu && own.saturating_sub(sides) <= t {
            return format!(
                "its trigger's pre- and post-processing runnables ({:.3} ms, run on its core with the task) make its C+ without contention {:.3} ms, {:.3} ms above its period",
                ms(sides),
                ms(own),
                ms(own - t)
            );
        }
        return format!("its C+ without contention plus S+, {:.3} ms, is {:.3} ms above its period", ms(own), ms(own - t));
    }
    let (work, wait) = window_terms(e, interferers, bus, t);
    let over = (own + work + wait).saturating_sub(t);
    if own + work <= t {
        format!("its core's wait for the interconnect ({:.3} ms over a period) takes R+ {:.3} ms above its period", ms(wait), ms(over))
    } else {
        format!("work of higher or equal priority on its core ({:.3} ms over a period) takes R+ {:.3} ms above its period", ms(work), ms(over))
    }
}

/// The interference terms of [`worst_case`] over a window of length `r`: the work of the
/// interferers counted (without waiting), and the wait for the interconnect of every
/// access the window holds, `W(N(r), r)`, with the grants left in flight.
fn window_terms(e: &Entity, interferers: &[Interferer], bus: &Bus, r: Ps) -> (Ps, Ps) {
    let work: Ps = interferers.iter().map(|i| i.c * (r + i.jitter).ceil_ratio(i.period)).sum();
    let lines = interferers.iter().fold(e.lines, |n, i| n.saturating_add(i.lines.saturating_mul((r + i.line_jitter).ceil_ratio(i.period))));
    (work, (bus.wait(lines, r) + in_flight(e, interferers, bus, r)).min(MAX_TIME))
}

/// Whether `deadline` has passed (none: never).
pub fn past(deadline: Option<std::time::Instant>) -> bool {
    deadline.is_some_and(|d| std::time::Instant::now() >= d)
}

/// The `blocked_by` of a task the time limit left unanalysed.
pub const TIME_LIMIT: &str = "not analysed: the time limit was reached first";

/// Interferers merged by release pattern `(period, jitter, line jitter)`: their `c` and
/// `lines` summed (signed while a task is taken out again).
#[derive(Debug, Clone, Default)]
struct Interferers(std::collections::BTreeMap<(Ps, Ps, Ps), (i128, i128, i128)>);

impl Interferers {
    /// Adds `x` `times` times (`-1` takes it out).
    fn add(&mut self, x: Interferer, times: i128) {
        let slot = self.0.entry((x.period, x.jitter, x.line_jitter)).or_default();
        slot.0 += times * x.c.get() as i128;
        slot.1 += times * x.lines as i128;
        slot.2 += times * x.tasks as i128;
    }

    /// One interferer per release pattern with work or accesses.
    fn list(&self) -> Vec<Interferer> {
        self.0
            .iter()
            .filter(|(_, &(_, _, tasks))| tasks > 0)
            .map(|(&(period, jitter, line_jitter), &(c, lines, tasks))| Interferer {
                period,
                c: Ps::new(c.max(0) as u128),
                jitter,
                lines: lines.max(0) as u128,
                line_jitter,
                tasks: tasks as u128,
            })
            .collect()
    }
}

/// The wait for grants of the core's own unit left in flight by a job that was preempted
/// or ended (see [`worst_case`]): one each time a job of the window starts running, at
/// most once per job counted (twice for a suspending job: it starts again after its GPU
/// job), and once for the job itself (twice when it suspends), in a window of length `r`.
fn in_flight(e: &Entity, interferers: &[Interferer], bus: &Bus, r: Ps) -> Ps {
    let starts = |suspends: bool| if suspends { 2 } else { 1 };
    let others: u128 = interferers.iter().map(|i| i.tasks * starts(i.line_jitter > Ps::ZERO) * (r + i.line_jitter).ceil_ratio(i.period)).sum();
    bus.own_hold.saturating_mul(starts(e.case == Case::AsyncOffload) + others)
}

/// An entity of equal or higher priority as the worst-case recurrence sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interferer {
    /// Minimum time between releases.
    pub period: Ps,
    /// Execution per job without waiting for the interconnect ([`Entity::c0`]).
    pub c: Ps,
    /// Release jitter of its execution.
    pub jitter: Ps,
    /// Line accesses per job.
    pub lines: u128,
    /// Release jitter of its accesses: only jobs released less than this before a window
    /// (or in it) access memory in it.
    pub line_jitter: Ps,
    /// How many tasks it stands for (merged ones share the release pattern; 1 for one).
    pub tasks: u128,
}

impl Interferer {
    /// `e` as an interferer, `worst` its `R+` when known. A task that does not suspend:
    /// no jitter (at the start of a level-i busy window none of its jobs is pending).
    /// A suspending task (asynchronous offloading): its work as released with jitter
    /// `J = R - C0` (`R` its response, or `D` for an equal priority, valid when it meets
    /// its deadline). Proof: a job released at `x` ends by `x + R`, so of its work at most
    /// `min(C0, x + R - y)` is left at any `y`: no more than a job released at `x + R -
    /// C0` running `C0`; a `C0` below the job's `C+` only makes `J` larger. Its accesses:
    /// every job released in `(a - R, a + t)` may be running in `[a, a + t)`, so they get
    /// jitter `R`.
    pub fn of(e: &Entity, worst: Option<Ps>) -> Interferer {
        let (jitter, line_jitter) = if e.case == Case::AsyncOffload {
            let r = worst.unwrap_or(e.deadline);
            (r.saturating_sub(e.c0()), r)
        } else {
            (Ps::ZERO, Ps::ZERO)
        };
        Interferer { period: e.period, c: e.c0(), jitter, lines: e.lines, line_jitter, tasks: 1 }
    }
}

/// A higher-priority entity as the best-case recurrence sees it: `(T, C-, J)` triples of
/// code that is ready from its (jittered) release until it completes, each job executing
/// at least `C-` on the core (see [`best_case`]). `worst`: the entity's `R+`.
///
/// * Ticks only, no-wait offloading, a GPU task on a CPU: itself, `(T, C-, 0)`.
/// * Synchronous offloading: ready (running, spinning or preempted) from its release to
///   its end, and on the core at least `C- - wait-` (its runnables and copies; the spin
///   may overlap preemptions by still higher priorities): `(T, C- - wait-, 0)`.
/// * Asynchronous offloading: not ready while suspended, so two pieces: its pre part,
///   ready from its release until the offload, at least `pre-`: `(T, pre-, 0)`; and its
///   post part, ready from the GPU job's end until it completes, at least `post-`,
///   released at `a + x` with `x` in `[pre- + S-, R+ - post-]`: nominally `T` apart with
///   jitter `J = R+ - post- - pre- - S-`. Without an `R+` the post part is left out
///   (fewer interferers: still a lower bound).
fn best_interferers(e: &Entity, worst: Option<Ps>) -> Vec<(Ps, Ps, Ps)> {
    match e.case {
        Case::SyncOffload => vec![(e.period, e.c.best - e.wait.best, Ps::ZERO)],
        Case::AsyncOffload => {
            let post = worst.map(|r| (e.period, e.post.best, r.saturating_sub(e.post.best + e.pre.best + e.suspension.best)));
            std::iter::once((e.period, e.pre.best, Ps::ZERO)).chain(post).collect()
        }
        Case::Ticks | Case::NoWaitOffload | Case::GpuTaskOnCpu => vec![(e.period, e.c.best, Ps::ZERO)],
    }
}

/// Whether the entity waits for its GPU task (synchronously or asynchronously).
pub fn waits(e: &Entity) -> bool {
    matches!(e.case, Case::SyncOffload | Case::AsyncOffload)
}

/// The worst-case recurrence; `None` when it passes `T` or does not converge:
///
/// `R = C0 + S + sum_j ceil((R + J_j) / T_j) C0_j + W(N(R), R) + h P(R)`,
/// `N(R) = n + sum_j ceil((R + J'_j) / T_j) n_j`,
///
/// with `C0` execution without waiting for the interconnect, `n` line accesses per job,
/// `J'` the jitter of the accesses ([`Interferer::of`]) and `W` the interconnect's wait
/// ([`Bus::wait`]). Proof: in a window of length `R` from the start of the level-i busy
/// window, the core runs the job and the higher- and equal-priority jobs counted; their
/// work without waiting is at most the first sum (Joseph and Pandya; jitter as in
/// [`Interferer::of`]), and all the accesses they make in the window, at most `N(R)`,
/// wait at most `W(N(R), R)` together. A job preempted (or ended) with a grant of its
/// core in flight leaves it on the interconnect for at most `h` ([`Bus::own_hold`]), and
/// the job that runs next may wait for it: at most once each time a job starts running
/// in the window, `P(R)` times (`in_flight`: once per job counted, twice for a
/// suspending one). If the job has not ended by `R`,
/// the core was busy with that work all along, so the least fixed point bounds the
/// response. Without contention (`W = 0`, `h = 0`, `C0 = C+`) it is the recurrence of the
/// module docs.
pub fn worst_case(e: &Entity, interferers: &[Interferer], bus: &Bus) -> Option<Ps> {
    let limit = e.period;
    let own = e.c0() + e.suspension.worst;
    let mut r = own;
    for _ in 0..MAX_ITERATIONS {
        if r > limit {
            return None;
        }
        let (work, wait) = window_terms(e, interferers, bus, r);
        let next = own + work + wait;
        if next == r {
            return Some(r);
        }
        r = next;
    }
    None
}

/// A lower bound on the response of every job of `e` under this tool's rules: `C- + S-`,
/// its own execution and suspension, no interference.
///
/// Proof: a job executes at least `C-` on the core after its release (its runnables and
/// copies) and, offloading asynchronously, is suspended at least `S-` (its GPU job's best
/// response) between its pre and post parts; these do not overlap, so it ends at least
/// `C- + S-` after its release, whatever else runs. Interference is not counted: the
/// model gives no phases, so a higher-priority task may not have been released yet when
/// the job runs (at start-up, or behind a later offset). The Redell-Sanfridson
/// recurrence ([`best_case`]) counts it and is then not a lower bound: `T0` (period 2 ms,
/// offset 0, no wait, pre 0.4 ms, post 0.1 ms) below `T1` (period 1 ms, offset 0.5 ms,
/// pre 0.4 ms, post 0.2 ms) got `R- = 1.1` ms, where its first job takes 0.5 ms before
/// `T1` is first released (found by the simulator of `tests/it/system_sim.rs`; a too
/// large `R-` made a chain's worst data age too small).
pub fn no_interference(e: &Entity) -> Ps {
    e.c.best + e.suspension.best
}

/// The Redell-Sanfridson best case of the GSoC document (reference mode), from the worst
/// case `from`, with
/// `hp` the `(T, C-, J)` of the code of strictly higher priority
/// (`best_interferers`).
///
/// * A task that waits for its GPU task (synchronous or asynchronous offloading):
///   `C- + S-`, no interference assumed. Proof: a job runs its pre part (at least the
///   copy-in and `pre-` on the core), then its GPU job runs, at least the GPU task's best
///   response `G-` (its copies and kernels need that much even alone on the GPU; for
///   synchronous offloading `G-` is the `wait-` inside `C-`, for asynchronous it is
///   `S-`), then its post part (at least `post-` and the copy-out): three intervals one
///   after another, each at least its best case, so the job takes at least their sum,
///   `C- + S-`, whatever preempts it. Preemptions are not added: they may fall in the
///   wait, which goes on on the GPU meanwhile (issue 50: `L` with pre 0.2 ms, a 1 ms GPU
///   task and post 0.2 ms takes 1.4 ms when `H` preempts it only during the wait; the
///   Redell-Sanfridson recurrence over `C- = 1.4` gave 2.4 ms).
/// * Any other task is ready from its release until it completes, the model of Redell
///   and Sanfridson (*Exact best-case response time analysis of fixed priority scheduled
///   tasks*, ECRTS 2002): `R^{n+1} = C- + sum_hp ceil0((R^n - J - T) / T) C-_j` from
///   `R^0 = R+`, down to its largest fixed point below `R+`, a lower bound on every
///   job's response when each higher-priority piece of code is a task with period `T`,
///   release jitter at most `J` and at least `C-` of execution per job, ready from its
///   release until it completes. `best_interferers` gives such pieces for every case
///   (a synchronous offloader is such a task whose execution is its time on the core,
///   at least `C- - wait-`; an asynchronous one two such tasks). Fewer interferers or
///   smaller `C-` only lower the value, so it stays a lower bound.
pub fn best_case(e: &Entity, from: Ps, hp: &[(Ps, Ps, Ps)]) -> Ps {
    let own = e.c.best + e.suspension.best;
    if waits(e) {
        return own;
    }
    let mut r = from;
    for _ in 0..MAX_ITERATIONS {
        let next = own + hp.iter().map(|&(t, c, j)| c * ceil0(r.get() as i128 - j.get() as i128 - t.get() as i128, t)).sum::<Ps>();
        if next == r {
            return r;
        }
        r = next;
    }
    own
}

/// `max(0, ceil(x / t))` for `x` picoseconds (signed): a count.
fn ceil0(x: i128, t: Ps) -> u128 {
    if x <= 0 {
        0
    } else {
        (x as u128).div_ceil(t.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(name: &str, period: Ps, c: Ps) -> Entity {
        Entity::periodic(name, period, Cost { best: c / 2, worst: c })
    }

    #[test]
    fn the_textbook_example() {
        // (T, C) = (7, 3), (12, 3), (20, 5): R = 3, 6, 20 (Buttazzo's example of RTA).
        let (a, b, c) = (e("a", Ps::new(7), Ps::new(3)), e("b", Ps::new(12), Ps::new(3)), e("c", Ps::new(20), Ps::new(5)));
        let (scheme, r) = analyse_core(&[&c, &a, &b], Reference::Proven, (&Bus::default(), None));
        assert_eq!(scheme, Priorities::RateMonotonic);
        let worst: Vec<Option<Ps>> = r.iter().map(|x| x.worst).collect();
        assert_eq!(worst, vec![Some(Ps::new(20)), Some(Ps::new(3)), Some(Ps::new(6))]);
        assert!(r.iter().all(|x| x.schedulable));
        let d = e("d", Ps::new(20), Ps::new(6));
        let (_, r) = analyse_core(&[&a, &b, &d], Reference::Proven, (&Bus::default(), None));
        assert_eq!(r[2].worst, None, "21 > T = 20: not analysed, not schedulable");
        assert!(!r[2].schedulable);
        let mut late = e("d", Ps::new(20), Ps::new(5));
        late.deadline = Ps::new(15);
        let (_, r) = analyse_core(&[&a, &b, &late], Reference::Proven, (&Bus::default(), None));
        assert_eq!((r[2].worst, r[2].schedulable), (Some(Ps::new(20)), false), "R = 20 <= T but > D = 15");
    }

    /// The simulator's counterexample to the recurrence as a lower bound: the low task's
    /// first job runs before the high task's first release (a later offset), so its best
    /// case is its own execution; the document's recurrence (reference mode) says more.
    #[test]
    fn the_best_case_counts_no_interference_under_the_tools_rules() {
        let mut low = Entity::periodic("low", Ps::new(20), Cost { best: Ps::new(5), worst: Ps::new(5) });
        low.case = Case::NoWaitOffload;
        let mut high = Entity::periodic("high", Ps::new(10), Cost { best: Ps::new(6), worst: Ps::new(6) });
        high.case = Case::NoWaitOffload;
        (low.model_priority, high.model_priority) = (Some(1), Some(2));
        let (_, proven) = analyse_core(&[&low, &high], Reference::Proven, (&Bus::default(), None));
        assert_eq!(proven[0].best, Some(Ps::new(5)));
        let (_, document) = analyse_core(&[&low, &high], Reference::App4rta, (&Bus::default(), None));
        assert_eq!(document[0].best, Some(Ps::new(11)), "the recurrence: 5 + ceil0((17 - 10) / 10) 6");
    }

    #[test]
    fn the_best_case_recurrence_by_hand() {
        // hp: T = 5, C- = 1. From R+ = 12 with C- = 3: 3 + ceil0((12 - 5) / 5) 1 = 5, then
        // 3 + ceil0(0) = 3, then 3.
        let hp = [(Ps::new(5), Ps::new(1), Ps::ZERO)];
        let me = Entity::periodic("me", Ps::new(40), Cost { best: Ps::new(3), worst: Ps::new(6) });
        assert_eq!(best_case(&me, Ps::new(12), &hp), Ps::new(3));
        // From 30: 3 + ceil(25 / 5) = 8; 3 + ceil(3 / 5) = 4; 3 + 0 = 3.
        assert_eq!(best_case(&me, Ps::new(30), &hp), Ps::new(3));
        // A jitter shifts it: J = 4 from 30: 3 + ceil(21 / 5) = 8, 3 + 0 = 3.
        assert_eq!(best_case(&me, Ps::new(30), &[(Ps::new(5), Ps::new(1), Ps::new(4))]), Ps::new(3));
        // An interferer whose release the window must hold: T = 2, from 20:
        // 3 + ceil(18 / 2) = 12, 3 + 5 = 8, 3 + 3 = 6, 3 + 2 = 5, 3 + 2 = 5.
        assert_eq!(best_case(&me, Ps::new(20), &[(Ps::new(2), Ps::new(1), Ps::ZERO)]), Ps::new(5));
    }

    #[test]
    fn an_equal_priority_suspending_task_jitters_by_d_minus_c() {
        let mut off = Entity::periodic("off", Ps::new(20), Cost { best: Ps::new(2), worst: Ps::new(2) });
        off.case = Case::AsyncOffload;
        off.suspension = Cost { best: Ps::new(3), worst: Ps::new(3) };
        let other = Entity::periodic("other", Ps::new(20), Cost { best: Ps::new(5), worst: Ps::new(5) });
        // Equal periods: equal priority under rate-monotonic. For `other`, off has
        // J = D - C = 18: R = 5 + ceil((R + 18) / 20) 2: 7 -> 9 -> 9.
        let (_, r) = analyse_core(&[&off, &other], Reference::Proven, (&Bus::default(), None));
        assert_eq!(r[1].worst, Some(Ps::new(9)));
        // For `off`: R = 2 + 3 + ceil(R / 20) 5 = 10.
        assert_eq!(r[0].worst, Some(Ps::new(10)));
    }

    #[test]
    fn a_suspending_task_without_a_response_leaves_lower_ones_unanalysed() {
        let mut off = Entity::periodic("off", Ps::new(10), Cost { best: Ps::new(2), worst: Ps::new(2) });
        off.case = Case::AsyncOffload;
        off.suspension = Cost { best: Ps::new(9), worst: Ps::new(9) };
        let low = Entity::periodic("low", Ps::new(40), Cost { best: Ps::new(1), worst: Ps::new(1) });
        // off: R = 2 + 9 = 11 > T = 10: no R; low's jitter term would rest on it.
        let (_, r) = analyse_core(&[&off, &low], Reference::Proven, (&Bus::default(), None));
        assert_eq!((r[0].worst, r[1].worst), (None, None));
        assert!(!r[1].schedulable);
    }

    #[test]
    fn an_unfounded_jitter_is_found_whatever_the_order_of_the_tasks() {
        // X and Z suspend at equal priority 2, Y below them. X's R (9, with Z's jitter
        // D - C = 18) passes its deadline 6, so Z's R (16, resting on X's D - C) is
        // unfounded, and so is Y's, which rests on Z's jitter: in every order.
        let async_task = |name: &str, c: u128, s: u128, d: u128| {
            let mut t = Entity::periodic(name, Ps::new(20), Cost { best: Ps::new(c), worst: Ps::new(c) });
            (t.case, t.suspension, t.deadline, t.model_priority) = (Case::AsyncOffload, Cost { best: Ps::new(s), worst: Ps::new(s) }, Ps::new(d), Some(2));
            t
        };
        let (x, z) = (async_task("X", 2, 3, 6), async_task("Z", 2, 12, 20));
        let mut y = Entity::periodic("Y", Ps::new(40), Cost { best: Ps::new(1), worst: Ps::new(1) });
        y.model_priority = Some(1);
        for order in [[&x, &y, &z], [&x, &z, &y], [&y, &z, &x], [&z, &y, &x]] {
            let (_, r) = analyse_core(&order, Reference::Proven, (&Bus::default(), None));
            let y = r.iter().find(|r| r.entity.name == "Y").unwrap();
            assert_eq!(y.worst, None, "{:?}", order.map(|e| &e.name));
        }
    }

    #[test]
    fn a_grant_left_in_flight_delays_each_start_once() {
        // hp: T 10, C 2; lo: C 3; one grant of the core holds the interconnect 1. lo waits
        // for one left by whatever ran before it and one left by hp's preemption:
        // R = 3 + 2 + 1 x (1 + 1) = 7 (5 without).
        let bus = Bus { own_hold: Ps::new(1), ..Bus::default() };
        let (hp, lo) = (e("hp", Ps::new(10), Ps::new(2)), e("lo", Ps::new(40), Ps::new(3)));
        let (_, r) = analyse_core(&[&hp, &lo], Reference::Proven, (&bus, None));
        assert_eq!((r[0].worst, r[1].worst), (Some(Ps::new(3)), Some(Ps::new(7))));
        let (_, r) = analyse_core(&[&hp, &lo], Reference::Proven, (&Bus::default(), None));
        assert_eq!(r[1].worst, Some(Ps::new(5)));
    }

    #[test]
    fn model_priorities_are_used_when_they_differ() {
        let (mut a, mut b) = (e("a", Ps::new(7), Ps::new(3)), e("b", Ps::new(12), Ps::new(3)));
        a.model_priority = Some(1);
        b.model_priority = Some(2);
        let (scheme, r) = analyse_core(&[&a, &b], Reference::Proven, (&Bus::default(), None));
        assert_eq!(scheme, Priorities::Model);
        assert_eq!((r[0].rank, r[1].rank), (1, 0));
        assert_eq!(r[1].worst, Some(Ps::new(3)));
        assert_eq!(r[0].worst, Some(Ps::new(6)));
    }
}
