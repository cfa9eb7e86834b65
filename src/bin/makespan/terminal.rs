//! What the binary does with the terminal: progress and notes on stderr, results on
//! stdout (a closed pipe ends quietly), output files prepared before work starts, and
//! errors as one line with an exit code.

use crate::args::MAX_THREADS;
use gpu_makespan::error::{Error, InputError};
use gpu_makespan::files::prepare_output;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Progress on stderr (hidden with `--quiet`).
pub(crate) struct Progress {
    pub(crate) quiet: bool,
}

impl Progress {
    pub(crate) fn bar(&self, len: u64, what: &str) -> indicatif::ProgressBar {
        if self.quiet {
            return indicatif::ProgressBar::hidden();
        }
        let pb = indicatif::ProgressBar::with_draw_target(Some(len), indicatif::ProgressDrawTarget::stderr());
        pb.set_style(indicatif::ProgressStyle::with_template("{spinner} {pos}/{len} {msg} [{elapsed}]").expect("valid template"));
        pb.set_message(what.to_string());
        pb.enable_steady_tick(Duration::from_millis(200));
        pb
    }

    pub(crate) fn spinner(&self, msg: &str) -> indicatif::ProgressBar {
        if self.quiet {
            return indicatif::ProgressBar::hidden();
        }
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        pb.set_message(msg.to_string());
        pb.enable_steady_tick(Duration::from_millis(200));
        pb
    }

    /// A note for the user on stderr (not with `--quiet`).
    pub(crate) fn note(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr(), "{text}");
        }
    }
}

/// Why the program stops early.
pub(crate) enum Failure {
    /// A library error (exit 2 for input, 1 otherwise).
    Lib(Error),
    /// Standard output was closed (`| head`): stop quietly.
    PipeClosed,
    /// Standard output could not be written (e.g. a full disk).
    Output(std::io::Error),
    /// Some jobs of a sweep ended with an internal error (exit 1; the rest are recorded).
    Jobs(String),
    /// An interrupt stopped the work after its best results were printed (exit 130).
    Interrupted,
}

impl<E: Into<Error>> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::Lib(e.into())
    }
}

/// Writes `text` to standard output; a closed pipe ends the program quietly.
pub(crate) fn out(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).map_err(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => Failure::PipeClosed,
        _ => Failure::Output(e),
    })
}

pub(crate) fn pool(threads: Option<i64>) -> Result<rayon::ThreadPool, InputError> {
    let n = match threads {
        None => 0,
        Some(t) if (1..=MAX_THREADS).contains(&t) => t as usize,
        Some(t) => return Err(InputError::new("--threads", t, format!("must be from 1 to {MAX_THREADS}"))),
    };
    rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| InputError::new("--threads", n, e.to_string()))
}

pub(crate) fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).expect("serialisable") + "\n"
}

/// Checks every output path given before any work starts.
pub(crate) fn prepare(outputs: &[(&Option<PathBuf>, &str)]) -> Result<(), InputError> {
    for (path, field) in outputs {
        if let Some(p) = path {
            prepare_output(p, field)?;
        }
    }
    Ok(())
}

/// Draws an SVG with `draw` into a prepared path; errors name `--svg`.
pub(crate) fn svg(path: Option<&Path>, draw: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), InputError> {
    match path {
        Some(p) => draw(p).map_err(|e| InputError::new("--svg", p.display(), e)),
        None => Ok(()),
    }
}

/// clap's multi-line usage error as one line: the error, the missing arguments or the
/// possible values, without the usage and help hints.
pub(crate) fn one_line(text: &str) -> String {
    let kept: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information") && !l.starts_with("tip:"))
        .collect();
    if kept.is_empty() {
        "error: bad arguments".into()
    } else {
        gpu_makespan::error::shorten_line(&kept.join(" "))
    }
}

/// How the command line spells the library's option `name`: `--name`, with `-` for `_`.
pub(crate) fn flag(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}
