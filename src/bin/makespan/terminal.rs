//! What the binary does with the terminal: progress and notes on stderr, results on
//! stdout (a closed pipe ends quietly), output files prepared before work starts, and
//! errors as one line with an exit code.

use crate::args::MAX_THREADS;
use crate::files::prepare_output;
use gpu_makespan::error::{Error, InputError};
use gpu_makespan::Watch;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Progress on stderr (hidden with `--quiet`).
pub(crate) struct Progress {
    pub(crate) quiet: bool,
}

impl Progress {
    pub(crate) fn bar(&self, len: u64, what: &str) -> indicatif::ProgressBar {
        self.line(Some(len), what, None)
    }

    pub(crate) fn spinner(&self, msg: &str) -> indicatif::ProgressBar {
        self.line(None, msg, None)
    }

    /// A spinner whose line shows the proven interval `watch` holds, as it narrows.
    pub(crate) fn watching(&self, msg: &str, watch: &Arc<Watch>) -> indicatif::ProgressBar {
        self.line(None, msg, Some(watch))
    }

    /// A bar of `len` steps whose line also shows the proven interval on `T^(W)` that
    /// `watch` holds.
    pub(crate) fn bar_watching(&self, len: u64, what: &str, watch: &Arc<Watch>) -> indicatif::ProgressBar {
        self.line(Some(len), what, Some(watch))
    }

    /// A progress line on stderr: a bar of `len` steps or a spinner, its message, the
    /// elapsed time, and the interval of `watch` if given.
    fn line(&self, len: Option<u64>, msg: &str, watch: Option<&Arc<Watch>>) -> indicatif::ProgressBar {
        if self.quiet {
            return indicatif::ProgressBar::hidden();
        }
        let count = if len.is_some() { "{pos}/{len} " } else { "" };
        let interval = if watch.is_some() { ": T^(W) {interval}" } else { "" };
        let template = format!("{{spinner}} {count}{{msg}}{interval} [{{elapsed}}]");
        let mut style = indicatif::ProgressStyle::with_template(&template).expect("valid template");
        if let Some(watch) = watch.cloned() {
            style = style.with_key("interval", move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&watch.text());
            });
        }
        let pb = indicatif::ProgressBar::with_draw_target(len, indicatif::ProgressDrawTarget::stderr());
        pb.set_style(style);
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
/// Whether standard output was closed when the process started (`makespan ... >&-`).
/// Rust's runtime reopens a closed descriptor 1 on /dev/null before `main`, so the check
/// runs earlier, as a constructor (Linux).
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static CHECK_STDOUT: extern "C" fn() = {
    extern "C" fn check() {
        extern "C" {
            fn fcntl(fd: i32, cmd: i32, ...) -> i32;
        }
        const F_GETFD: i32 = 1;
        // SAFETY: fcntl(F_GETFD) only queries the descriptor's flags.
        if unsafe { fcntl(1, F_GETFD) } == -1 {
            STDOUT_CLOSED_AT_START.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }
    check
};

/// Whether standard output is usable: it was open at start (what is written to a
/// closed one would be lost without an error).
pub(crate) fn stdout_is_open() -> bool {
    !STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed)
}

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

/// Checks every output path given before any work starts: none is one of the `inputs`
/// or another output (one would overwrite the other), and each can be written.
pub(crate) fn prepare(outputs: &[(&Option<PathBuf>, &str)], inputs: &[&Path]) -> Result<(), InputError> {
    let given: Vec<(&PathBuf, &str)> = outputs.iter().filter_map(|(p, f)| p.as_ref().map(|p| (p, *f))).collect();
    for (i, (p, field)) in given.iter().enumerate() {
        if let Some(input) = inputs.iter().find(|input| same_path(p, input)) {
            return Err(InputError::new(*field, p.display(), format!("is the input {}; it would be overwritten", input.display())));
        }
        if let Some((_, other)) = given[..i].iter().find(|(q, _)| same_path(p, q)) {
            return Err(InputError::new(*field, p.display(), format!("is also the {other} file; give two different paths")));
        }
    }
    for (p, field) in given {
        prepare_output(p, field)?;
    }
    Ok(())
}

/// Whether two paths name the same file (compared after resolving the directory; `-`
/// is never a file).
fn same_path(a: &Path, b: &Path) -> bool {
    let resolve = |p: &Path| -> Option<PathBuf> {
        if p.as_os_str() == "-" {
            return None;
        }
        if let Ok(c) = p.canonicalize() {
            return Some(c);
        }
        let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Some(dir.canonicalize().ok()?.join(p.file_name()?))
    };
    matches!((resolve(a), resolve(b)), (Some(x), Some(y)) if x == y)
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
        crate::files::shorten_line(&kept.join(" "))
    }
}

/// A library error in the command line's words: where the library names the calls that
/// take a kernel with barriers, the commands that do.
pub(crate) fn command_wording(message: &str) -> String {
    message.replace(
        "an Instance is barrier-free: give a kernel with barriers as a Program (Program::build; exact::phases::solve_phases solves it phase by phase)",
        "this command takes barrier-free kernels (solve, bound and rta analyse barrier kernels phase by phase)",
    )
}

/// How the command line spells the library's option `name`: `--name`, with `-` for `_`.
pub(crate) fn flag(name: &str) -> String {
    format!("--{}", name.replace('_', "-"))
}
