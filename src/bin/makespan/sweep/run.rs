//! Running a sweep's jobs in parallel (in the current rayon pool), appending each
//! record to the results file as soon as its job ends.

use super::job::Job;
use super::results;
use crate::files::ensure_parent;
use gpu_makespan::error::InputError;
use gpu_makespan::StopFlag;
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Jobs run.
    pub ran: usize,
    /// Jobs whose record is an `error` because of the input (too large, ...).
    pub refused: usize,
    /// Jobs that ended with an internal error (a bug; the CLI exits with code 1).
    pub internal_errors: usize,
}

/// How a job ended, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobEnd {
    /// A result was recorded.
    Done,
    /// The input was refused (recorded as `error`).
    Refused,
    /// An internal error (recorded as `error`).
    Internal,
}

/// What a results file already holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resumed {
    /// Ids of the jobs already recorded.
    pub done: Vec<String>,
    /// Bytes of a cut-off last line removed from the file.
    pub removed_bytes: u64,
}

/// An exclusive lock on a results file, held while a sweep writes it (released when
/// dropped, or when the process ends however it ends): two sweeps on one file would run
/// every job twice.
#[derive(Debug)]
pub struct OutLock(#[allow(dead_code)] std::fs::File);

/// Takes the lock of `out` (creating it empty if needed), or refuses when another
/// process holds it.
pub fn lock(out: &Path) -> Result<OutLock, InputError> {
    ensure_parent(out, "out").map_err(InputError::as_option)?;
    if out.is_dir() {
        return Err(InputError::option("out", out.display(), "is a directory"));
    }
    let f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| InputError::option("out", out.display(), e.to_string()))?;
    match f.try_lock() {
        Ok(()) => Ok(OutLock(f)),
        Err(std::fs::TryLockError::WouldBlock) => Err(InputError::option(
            "out",
            out.display(),
            "another sweep is writing this file (it holds its lock); wait for it to end, or use another file",
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(InputError::option("out", out.display(), e.to_string())),
    }
}

/// Checks the results file before any work. Without `resume`, a non-empty `out` is
/// refused (no results are overwritten); with it, the ids already there are returned
/// (and a cut-off last line is removed, see [`results::resume`]).
pub fn open(out: &Path, resume: bool) -> Result<Resumed, InputError> {
    ensure_parent(out, "out").map_err(InputError::as_option)?;
    if out.is_dir() {
        return Err(InputError::option("out", out.display(), "is a directory"));
    }
    if resume {
        let (done, removed_bytes) = results::resume(out)?;
        return Ok(Resumed { done, removed_bytes });
    }
    if std::fs::metadata(out).map(|m| m.len() > 0).unwrap_or(false) {
        return Err(InputError::option("out", out.display(), "already holds results; resume it to continue it, or choose another file"));
    }
    Ok(Resumed::default())
}

/// The jobs still to run: those whose id is not in `done`.
pub fn pending(jobs: Vec<Job>, done: &[String]) -> Vec<Job> {
    let done: std::collections::HashSet<&str> = done.iter().map(String::as_str).collect();
    jobs.into_iter().filter(|j| !done.contains(j.id.as_str())).collect()
}

/// Runs `jobs` in parallel (in the current rayon pool) and appends one record per job
/// to `out`, each written whole and flushed as its job ends, so an interrupted run loses
/// at most the jobs in flight. `on_end` is called after each record is written. Only a
/// failure to write `out` stops the run early.
///
/// Once `stop` is set (an interrupt), no job starts: the jobs running finish and their
/// records are written, and [`Summary::ran`] counts only the jobs that ran.
pub fn run(jobs: &[Job], out: &Path, stop: &StopFlag, on_end: &(dyn Fn(&Job, JobEnd) + Sync)) -> Result<Summary, InputError> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| InputError::option("out", out.display(), e.to_string()))?;
    let file = Mutex::new(file);
    let (refused, internal, ran) = (AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0));
    jobs.par_iter().try_for_each(|job| {
        if stop.is_set() {
            return Ok(());
        }
        ran.fetch_add(1, Ordering::Relaxed);
        let result = job.execute();
        let end = match &result {
            Ok(_) => JobEnd::Done,
            Err(e) if e.is_input() => JobEnd::Refused,
            Err(_) => JobEnd::Internal,
        };
        let line = format!("{}\n", job.record(&result));
        let mut f = file.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(line.as_bytes()).and_then(|_| f.flush()).map_err(|e| InputError::option("out", out.display(), e.to_string()))?;
        drop(f);
        match end {
            JobEnd::Refused => refused.fetch_add(1, Ordering::Relaxed),
            JobEnd::Internal => internal.fetch_add(1, Ordering::Relaxed),
            JobEnd::Done => 0,
        };
        on_end(job, end);
        Ok::<(), InputError>(())
    })?;
    Ok(Summary { ran: ran.into_inner(), refused: refused.into_inner(), internal_errors: internal.into_inner() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sweep_at_a_time_per_results_file() {
        let dir = std::env::temp_dir().join(format!("makespan-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("r.jsonl");
        let held = lock(&out).unwrap();
        let e = lock(&out).unwrap_err();
        assert!(e.reason.contains("another sweep"), "{e}");
        drop(held);
        assert!(lock(&out).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
