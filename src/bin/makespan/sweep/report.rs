//! Summaries of sweep results: one row per job (table for people, CSV for programs) and
//! the totals. Each number keeps its label: `lower` and `upper` are proven bounds
//! (`exact` only when they are equal), `estimate` is the paper's approximation and never
//! a bound.

use super::results::{JobResult, Record};
use gpu_makespan::experiments::csv_table;
use serde_json::Value;
use std::fmt::Write;

/// One job's numbers, read from its record.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Job id.
    pub id: String,
    /// `solve`, `approx` or `bound`.
    pub command: String,
    /// Kernel as given.
    pub kernel: String,
    /// sigma_L as given.
    pub sigma_l: String,
    /// sigma_C as given.
    pub sigma_c: String,
    /// `W`.
    pub warps: u64,
    /// Method (`-` for bound).
    pub method: String,
    /// `x` (approx).
    pub x: Option<u64>,
    /// Proven lower bound on `T^(W)`: solve `makespan`, approx `lower_bound`, bound `lower_bound`.
    pub lower: Option<u64>,
    /// Proven upper bound on `T^(W)`: solve `upper_bound`, approx `safe_upper_bound`, bound
    /// `start_state_bound` (`safe_horizon` in records written before that field existed).
    pub upper: Option<u64>,
    /// `lower == upper`.
    pub exact: bool,
    /// approx `estimate` (NOT a bound).
    pub estimate: Option<u64>,
    /// solve `status`; `exact`/`bounds` for approx; `closed_form` for bound; `error`.
    pub status: String,
    /// Seconds the job took.
    pub seconds: Option<f64>,
    /// The error, for a failed job.
    pub error: Option<String>,
}

/// The name serde gives a unit-like enum value (`solve`, `time_limit`, ...).
fn text<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        _ => "-".into(),
    }
}

impl Row {
    /// The row of one record, from its typed parameters and result.
    pub fn of(r: &Record) -> Row {
        let job = &r.job;
        let (lower, upper, estimate, seconds, status) = match &r.result {
            JobResult::Failed { .. } => (None, None, None, None, "error".to_string()),
            JobResult::Solve(s) => (Some(s.makespan), Some(s.upper_bound), None, Some(s.seconds), text(&s.status)),
            JobResult::Approx(a) => {
                let exact = a.lower_bound == Some(a.safe_upper_bound);
                (
                    a.lower_bound,
                    Some(a.safe_upper_bound),
                    Some(a.estimate),
                    Some(a.seconds),
                    if exact { "exact" } else { "bounds" }.to_string(),
                )
            }
            JobResult::Bound(b) => {
                // Records written before `start_state_bound` existed read it as 0.
                let upper = if b.start_state_bound > 0 { b.start_state_bound } else { b.safe_horizon };
                (Some(b.lower_bound), Some(upper), None, None, "closed_form".to_string())
            }
        };
        let error = match &r.result {
            JobResult::Failed { error } => Some(error.clone()),
            _ => None,
        };
        Row {
            id: r.id.clone(),
            command: text(&job.command),
            kernel: job.kernel.clone(),
            sigma_l: job.sigma_l.clone(),
            sigma_c: job.sigma_c.clone(),
            warps: job.warps as u64,
            method: job.method.as_ref().map_or("-".to_string(), text),
            x: job.x.map(u64::from),
            lower,
            upper,
            exact: matches!((lower, upper), (Some(a), Some(b)) if a == b),
            estimate,
            status,
            seconds,
            error,
        }
    }

    /// `(upper - lower) / lower` in percent.
    pub fn gap_percent(&self) -> Option<f64> {
        match (self.lower, self.upper) {
            (Some(l), Some(u)) if l > 0 => Some((u.saturating_sub(l)) as f64 * 100.0 / l as f64),
            _ => None,
        }
    }

    /// The key rows are sorted by: command, kernel, sigmas, method, x, W.
    fn key(&self) -> (&str, &str, &str, &str, &str, Option<u64>, u64) {
        (&self.command, &self.kernel, &self.sigma_l, &self.sigma_c, &self.method, self.x, self.warps)
    }
}

/// The rows of `records`, sorted by command, kernel, sigmas, method, x and W.
pub fn rows(records: &[Record]) -> Vec<Row> {
    let mut rows: Vec<Row> = records.iter().map(Row::of).collect();
    rows.sort_by(|a, b| a.key().cmp(&b.key()));
    rows
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or("-".into(), |v| v.to_string())
}

fn gap(r: &Row) -> String {
    r.gap_percent().map_or("-".into(), |g| format!("{g:.1}"))
}

/// The table for people: one line per job, then the totals.
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<23} {:<7} {:<24} {:>4} {:>4} {:>6} {:<9} {:>4} {:>8} {:>8} {:>6} {:>8} {:<11} {:>8}",
        "id", "command", "kernel", "sL", "sC", "W", "method", "x", "lower", "upper", "gap%", "estimate", "status", "seconds"
    );
    for r in rows {
        let _ = writeln!(
            s,
            "{:<23} {:<7} {:<24} {:>4} {:>4} {:>6} {:<9} {:>4} {:>8} {:>8} {:>6} {:>8} {:<11} {:>8}",
            r.id,
            r.command,
            short(&r.kernel, 24),
            r.sigma_l,
            r.sigma_c,
            r.warps,
            r.method,
            opt(r.x),
            opt(r.lower),
            opt(r.upper),
            gap(r),
            opt(r.estimate),
            r.status,
            r.seconds.map_or("-".into(), |t| format!("{t:.3}"))
        );
    }
    s.push_str(&totals(rows));
    for r in rows.iter().filter(|r| r.error.is_some()) {
        let _ = writeln!(s, "error {}: {}", r.id, r.error.as_deref().unwrap_or_default());
    }
    s.push_str("lower/upper: proven bounds on T^(W) (exact when equal); estimate: the paper's T_approx(x), NOT a bound\n");
    s
}

/// `jobs: N (E exact, B with bounds only, F errors); job seconds: total T, longest M`.
pub fn totals(rows: &[Row]) -> String {
    let exact = rows.iter().filter(|r| r.exact && r.error.is_none()).count();
    let errors = rows.iter().filter(|r| r.error.is_some()).count();
    let secs: Vec<f64> = rows.iter().filter_map(|r| r.seconds).collect();
    let total: f64 = secs.iter().sum();
    let longest = secs.iter().copied().fold(0.0, f64::max);
    format!(
        "jobs: {} ({exact} exact, {} with bounds only, {errors} errors); job seconds: total {total:.2}, longest {longest:.2}\n",
        rows.len(),
        rows.len() - exact - errors
    )
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}..", s.chars().take(n - 2).collect::<String>())
    }
}

/// The rows as CSV (full kernels; errors quoted).
pub fn csv(rows: &[Row]) -> String {
    let header = [
        "id",
        "command",
        "kernel",
        "sigma_l",
        "sigma_c",
        "warps",
        "method",
        "x",
        "lower",
        "upper",
        "exact",
        "gap_percent",
        "estimate",
        "status",
        "seconds",
        "error",
    ];
    // A field that may be absent is empty; an error is quoted, its quotes doubled.
    fn cell<T: ToString>(v: Option<T>) -> String {
        v.map_or(String::new(), |v| v.to_string())
    }
    csv_table(&header, rows, |r| {
        vec![
            r.id.clone(),
            r.command.clone(),
            r.kernel.clone(),
            r.sigma_l.clone(),
            r.sigma_c.clone(),
            r.warps.to_string(),
            r.method.clone(),
            cell(r.x),
            cell(r.lower),
            cell(r.upper),
            r.exact.to_string(),
            cell(r.gap_percent().map(|g| format!("{g:.3}"))),
            cell(r.estimate),
            r.status.clone(),
            cell(r.seconds.map(|t| format!("{t:.6}"))),
            cell(r.error.as_deref().map(|e| format!("\"{}\"", e.replace('"', "\"\"")))),
        ]
    })
}
