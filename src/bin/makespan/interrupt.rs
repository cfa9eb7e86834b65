//! Ctrl-C: the first interrupt sets the program's stop flag (the work ends with the best
//! proven results so far, status `interrupted`; a sweep starts no new job), a second one
//! exits at once.

use gpu_makespan::StopFlag;
use std::io::Write;

/// The exit code after an interrupt (128 + SIGINT, as shells report it).
pub(crate) const EXIT_CODE: u8 = 130;

/// Installs the handler. If the system refuses it, Ctrl-C keeps its default effect
/// (the program ends at once), which is also safe.
pub(crate) fn install(stop: &StopFlag) {
    let stop = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if stop.is_set() {
            let _ = writeln!(std::io::stderr(), "interrupted twice: exiting now");
            std::process::exit(EXIT_CODE as i32);
        }
        stop.set();
        let _ = writeln!(std::io::stderr(), "interrupted: finishing with the best proven results so far (Ctrl-C again to exit now)");
    });
}

/// The environment variable that asks for [`READY_LINE`].
pub(crate) const READY_VARIABLE: &str = "MAKESPAN_READY";

/// The line printed on stderr, when [`READY_VARIABLE`] is set, once interrupts are
/// handled: a harness that signals the tool waits for it instead of sleeping.
pub(crate) const READY_LINE: &str = "ready: an interrupt now ends the work with the best proven results";

/// Prints [`READY_LINE`] if the environment asks for it.
pub(crate) fn say_ready() {
    if std::env::var_os(READY_VARIABLE).is_some() {
        let _ = writeln!(std::io::stderr(), "{READY_LINE}");
    }
}
