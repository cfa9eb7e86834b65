//! The JSON form of an RTA report (`makespan rta --json`), a contract kept as it was:
//! each time of a row as a number in the task set's unit (`finish`) and, where it always
//! had one, as an exact decimal (`finish_exact`). The report types hold each time once,
//! in [`Ticks`] of their [`Scale`]; these private wire forms convert both ways. Reading
//! back, the scale is the finest one the written values need, the same for every row.

use crate::error::InputError;
use crate::rta::jobs::TieOrder;
use super::{Bound, KernelRow, KernelTies, RtaReport, Verdict};
use crate::rta::ties::Ties;
use crate::rta::time::{Decimal, Scale};
use crate::rta::workload::Priority;
use serde::{Deserialize, Serialize};

/// A [`KernelRow`] as written: today's keys, in today's order.
#[derive(Serialize, Deserialize)]
pub(crate) struct KernelRowJson {
    name: String,
    finish: f64,
    response: f64,
    deadline: Option<f64>,
    schedulable: Option<bool>,
    release: f64,
    wcet: f64,
    wcet_source: String,
    #[serde(default)]
    wcet_model: Option<String>,
    blocks: u64,
    threads_per_block: u64,
    shared_memory: u64,
    registers_per_thread: u64,
    finish_exact: String,
    response_exact: String,
    release_exact: String,
    wcet_exact: String,
    deadline_exact: Option<String>,
    simulated_finish: f64,
    slots: u64,
    period: Option<f64>,
    jobs: u64,
    worst_job: u64,
    ties: KernelTies,
    worst_order: Option<Vec<String>>,
    wcet_optimistic: bool,
    priority: Priority,
    stream: Option<String>,
    process: Option<String>,
    copy_in: Option<f64>,
    copy_out: Option<f64>,
    kernel_finish: f64,
}

/// An [`RtaReport`] as written (the fields that are not serialised left out).
#[derive(Serialize, Deserialize)]
pub(crate) struct RtaReportJson {
    kernels: Vec<KernelRowJson>,
    schedulable: Option<bool>,
    g_max: u64,
    utilization: Option<f64>,
    unit: String,
    bound: Bound,
    verdict: Verdict,
    launch: TieOrder,
    ties: Ties,
    window: Option<f64>,
    launch_overhead: f64,
    block_overhead: f64,
    assumptions: Vec<String>,
}

/// `$ty { $set: $value.., $field: $k.$field.. }`: a struct built from the values given
/// and the fields moved as they are from `$k`.
macro_rules! moved {
    ($k:ident => $ty:ident { $($set:ident: $value:expr),* $(,)? } $($field:ident),*) => {
        $ty { $($set: $value,)* $($field: $k.$field,)* }
    };
}

/// A row or its JSON form from `$k` of the other: the times given, every other field
/// moved (one list for both directions).
macro_rules! same_fields {
    ($k:ident => $ty:ident { $($body:tt)* }) => {
        moved!($k => $ty { $($body)* } name, schedulable, wcet_source, wcet_model, blocks, threads_per_block, shared_memory,
            registers_per_thread, slots, jobs, worst_job, ties, worst_order, wcet_optimistic, priority, stream, process)
    };
}

/// The report-level fields a report and its JSON form share as they are.
macro_rules! same_report_fields {
    ($k:ident => $ty:ident { $($body:tt)* }) => {
        moved!($k => $ty { $($body)* } schedulable, g_max, utilization, unit, bound, verdict, launch, ties, assumptions)
    };
}

impl From<KernelRow> for KernelRowJson {
    fn from(k: KernelRow) -> KernelRowJson {
        let (s, exact) = (k.scale, |t| k.scale.format(t));
        let value = |t| s.to_f64(t);
        same_fields!(k => KernelRowJson {
            finish: value(k.finish),
            response: value(k.response),
            deadline: k.deadline.map(value),
            release: value(k.release),
            wcet: value(k.wcet),
            finish_exact: exact(k.finish),
            response_exact: exact(k.response),
            release_exact: exact(k.release),
            wcet_exact: exact(k.wcet),
            deadline_exact: k.deadline.map(exact),
            simulated_finish: value(k.simulated_finish),
            period: k.period.map(value),
            copy_in: k.copy_in.map(value),
            copy_out: k.copy_out.map(value),
            kernel_finish: value(k.kernel_finish),
        })
    }
}

/// The times a row holds, read from its exact decimals where it has them, else from
/// its numbers (the shortest decimal of each `f64`).
struct RowTimes {
    finish: Decimal,
    response: Decimal,
    deadline: Option<Decimal>,
    release: Decimal,
    wcet: Decimal,
    simulated_finish: Decimal,
    period: Option<Decimal>,
    copy_in: Option<Decimal>,
    copy_out: Option<Decimal>,
    kernel_finish: Decimal,
}

impl RowTimes {
    fn of(k: &KernelRowJson) -> Result<RowTimes, InputError> {
        let exact = |s: &str, field: &str| Decimal::parse(s, field);
        let number = |v: f64, field: &str| Decimal::of_f64(v, field);
        Ok(RowTimes {
            finish: exact(&k.finish_exact, "finish_exact")?,
            response: exact(&k.response_exact, "response_exact")?,
            deadline: k.deadline_exact.as_deref().map(|d| exact(d, "deadline_exact")).transpose()?,
            release: exact(&k.release_exact, "release_exact")?,
            wcet: exact(&k.wcet_exact, "wcet_exact")?,
            simulated_finish: number(k.simulated_finish, "simulated_finish")?,
            period: k.period.map(|p| number(p, "period")).transpose()?,
            copy_in: k.copy_in.map(|c| number(c, "copy_in")).transpose()?,
            copy_out: k.copy_out.map(|c| number(c, "copy_out")).transpose()?,
            kernel_finish: number(k.kernel_finish, "kernel_finish")?,
        })
    }

    fn all(&self) -> impl Iterator<Item = &Decimal> {
        [&self.finish, &self.response, &self.release, &self.wcet, &self.simulated_finish, &self.kernel_finish]
            .into_iter()
            .chain([&self.deadline, &self.period, &self.copy_in, &self.copy_out].into_iter().flatten())
    }
}

/// `k` with its times in ticks of `scale` (fine enough for every one of them).
fn row(k: KernelRowJson, times: &RowTimes, scale: Scale) -> Result<KernelRow, InputError> {
    let ticks = |d: Decimal| scale.ticks(d, &k.name);
    let some = |d: Option<Decimal>| d.map(ticks).transpose();
    Ok(same_fields!(k => KernelRow {
        finish: ticks(times.finish)?,
        response: ticks(times.response)?,
        deadline: some(times.deadline)?,
        release: ticks(times.release)?,
        wcet: ticks(times.wcet)?,
        simulated_finish: ticks(times.simulated_finish)?,
        period: some(times.period)?,
        copy_in: some(times.copy_in)?,
        copy_out: some(times.copy_out)?,
        kernel_finish: ticks(times.kernel_finish)?,
        scale: scale,
    }))
}

/// Reads a row back in the finest scale its own times need.
impl TryFrom<KernelRowJson> for KernelRow {
    type Error = InputError;

    fn try_from(k: KernelRowJson) -> Result<KernelRow, InputError> {
        let times = RowTimes::of(&k)?;
        let scale = Scale::fitting(times.all());
        row(k, &times, scale)
    }
}

impl From<RtaReport> for RtaReportJson {
    fn from(r: RtaReport) -> RtaReportJson {
        let value = |t| r.scale.to_f64(t);
        same_report_fields!(r => RtaReportJson {
            window: r.window.map(value),
            launch_overhead: value(r.launch_overhead),
            block_overhead: value(r.block_overhead),
            kernels: r.kernels.into_iter().map(KernelRowJson::from).collect(),
        })
    }
}

/// Reads a report back with one scale for all its times: the finest any of them needs.
/// The fields that are not serialised (the nominal run, `sms`) read back empty or zero.
impl TryFrom<RtaReportJson> for RtaReport {
    type Error = InputError;

    fn try_from(r: RtaReportJson) -> Result<RtaReport, InputError> {
        let times = r.kernels.iter().map(RowTimes::of).collect::<Result<Vec<_>, _>>()?;
        let number = |v: f64, field: &str| Decimal::of_f64(v, field);
        let window = r.window.map(|w| number(w, "window")).transpose()?;
        let (launch, block) = (number(r.launch_overhead, "launch_overhead")?, number(r.block_overhead, "block_overhead")?);
        let scale = Scale::fitting(times.iter().flat_map(RowTimes::all).chain(window.iter()).chain([&launch, &block]));
        let ticks = |d: Decimal, field: &str| scale.ticks(d, field);
        Ok(same_report_fields!(r => RtaReport {
            kernels: r.kernels.into_iter().zip(&times).map(|(k, t)| row(k, t, scale)).collect::<Result<_, _>>()?,
            window: window.map(|w| ticks(w, "window")).transpose()?,
            launch_overhead: ticks(launch, "launch_overhead")?,
            block_overhead: ticks(block, "block_overhead")?,
            scale: scale,
            runs: Vec::new(),
            copies: Vec::new(),
            slices: Vec::new(),
            jobs: Vec::new(),
            sms: 0,
        }))
    }
}
