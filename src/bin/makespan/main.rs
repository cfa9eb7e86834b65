//! `makespan`: the command-line front end. It parses arguments (`args.rs`), turns them
//! into library options once (`options.rs`), runs the subcommand (`commands.rs`,
//! `sweep.rs`) and prints (`terminal.rs`); all the work is in the `gpu_makespan` library.

mod args;
mod bench_suite;
mod commands;
mod files;
mod interrupt;
mod options;
mod output;
mod regimes;
mod sweep;
mod terminal;
mod wording;

use args::Cli;
use clap::Parser;
use commands::run;
use gpu_makespan::StopFlag;
use std::io::Write;
use std::process::ExitCode;
use terminal::{one_line, Failure};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(e.kind(), DisplayHelp | DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == DisplayHelpOnMissingArgumentOrSubcommand {
                // No subcommand: the help on stderr, and a usage error.
                let _ = write!(std::io::stderr(), "{}", e.render());
                return ExitCode::from(2);
            }
            let _ = writeln!(std::io::stderr(), "{}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    if !terminal::stdout_is_open() {
        let _ = writeln!(std::io::stderr(), "error: cannot write standard output: it is closed (the results would be lost)");
        return ExitCode::from(2);
    }
    let stop = StopFlag::new();
    interrupt::install(&stop);
    interrupt::say_ready();
    let failure = match run(cli, &stop) {
        Ok(()) if stop.is_set() => Failure::Interrupted,
        Ok(()) | Err(Failure::PipeClosed) => return ExitCode::SUCCESS,
        Err(f) => f,
    };
    let (message, code) = match failure {
        Failure::Lib(e) => {
            let code = if e.is_input() { 2 } else { 1 };
            (format!("error: {}", terminal::command_wording(&e.spell_option(terminal::flag).to_string())), code)
        }
        Failure::Output(e) => (format!("error: cannot write standard output: {e}"), 2),
        Failure::Jobs(text) => (format!("error: {text}"), 1),
        Failure::Interrupted => ("interrupted: what was printed is the best proven so far".to_string(), interrupt::EXIT_CODE),
        Failure::PipeClosed => unreachable!("handled above"),
    };
    let _ = writeln!(std::io::stderr(), "{message}");
    ExitCode::from(code)
}
