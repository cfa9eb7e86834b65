//! `makespan`: the command-line front end. It parses arguments, calls the library and
//! prints; all the work is in the `gpu_makespan` library.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand};
use gpu_makespan::error::{bytes, seconds, Error, InputError};
use gpu_makespan::files::{prepare_output, write_text};
use gpu_makespan::ilp::ConstraintForm;
use gpu_makespan::instance::{Instance, InstanceSource};
use gpu_makespan::solve::{self, Horizon, Method, SolveOptions};
use gpu_makespan::taskset;
use gpu_makespan::wcet::WcetLimits;
use gpu_makespan::{approx, convergence, json, plot, report, rta, search::SearchLimits};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The version and the git revision the binary was built from.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (git ", env!("MAKESPAN_GIT_REVISION"), ")");

/// Most worker threads `--threads` accepts.
const MAX_THREADS: i64 = 256;

#[derive(Parser)]
#[command(name = "makespan", version = VERSION, about = "Worst-case makespan of GPU warps on one SM, proven bounds, and TX2 response-time analysis")]
struct Cli {
    /// No progress bars and no notes on standard error (errors are still printed).
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the paper's pessimistic bound (eq. 5), the proven safe horizon and a lower bound.
    Bound {
        #[command(flatten)]
        instance: InstanceArgs,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Compute the exact worst-case makespan T^(W) and a worst-case schedule.
    Solve {
        #[command(flatten)]
        instance: InstanceArgs,
        #[command(flatten)]
        solver: SolverArgs,
        /// Print the worst-case schedule (chart, or `schedule` array with --json).
        #[arg(long)]
        schedule: bool,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// The paper's estimate min_y ceil(W/y) T^(y) (eqs. 42-43), with a proven bound beside it.
    Approx {
        #[command(flatten)]
        instance: InstanceArgs,
        /// Largest y (1 <= x <= W).
        #[arg(long, allow_hyphen_values = true)]
        x: i64,
        #[command(flatten)]
        solver: SolverArgs,
        /// Worker threads for the T^(y) (default: all cores; at most 256).
        #[arg(long, allow_hyphen_values = true)]
        threads: Option<i64>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Convergence of T^(W,x) and T_approx(x) with x (paper Figs. 6-7), as CSV and SVG.
    Converge {
        #[command(flatten)]
        instance: InstanceArgs,
        /// Largest x (1 <= x_max <= W).
        #[arg(long, allow_hyphen_values = true)]
        x_max: i64,
        #[command(flatten)]
        solver: SolverArgs,
        /// Worker threads (default: all cores; at most 256).
        #[arg(long, allow_hyphen_values = true)]
        threads: Option<i64>,
        /// Write the rows as CSV.
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Write the plot as SVG.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Plot the computation times on a logarithmic axis.
        #[arg(long)]
        log_time: bool,
    },
    /// ILP solve time of the short vs long constraint forms as W grows (paper Fig. 5).
    CompareConstraints {
        #[command(flatten)]
        instance: InstanceArgs,
        /// Largest W.
        #[arg(long, allow_hyphen_values = true)]
        warps_max: i64,
        /// Time limit per ILP solve in seconds.
        #[arg(long, default_value_t = 60.0, allow_hyphen_values = true)]
        time_limit: f64,
        /// Write the rows as CSV.
        #[arg(long)]
        csv: Option<PathBuf>,
        /// Write the plot as SVG.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Plot the solve times on a logarithmic axis.
        #[arg(long)]
        log_time: bool,
    },
    /// Kernel-level response-time analysis of the Jetson TX2 GPU scheduler for a task set
    /// (TOML) or a cuda_scheduling_examiner config (JSON).
    Rta {
        /// Task-set file (TOML; see instances/rta-*.toml) or examiner config (.json); `-` reads
        /// standard input.
        file: PathBuf,
        /// Relative deadline in seconds for every kernel of an examiner config (which has none).
        #[arg(long, allow_hyphen_values = true)]
        deadline: Option<f64>,
        /// GPU profile file (a `[gpu]` table; see instances/gpu-tx2.toml). Default: the TX2.
        #[arg(long)]
        gpu: Option<PathBuf>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Write the block-slot timeline as SVG.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Time limit per distinct kernel when C is computed from instructions.
        #[arg(long, default_value_t = 10.0, allow_hyphen_values = true)]
        time_limit: f64,
        /// Search limit (stored states) when C is computed from instructions.
        #[arg(long, default_value_t = SearchLimits::default().max_states)]
        max_states: usize,
        /// Search memory limit in bytes when C is computed from instructions (2G, 512M, ...).
        #[arg(long, default_value = "2G")]
        max_memory: String,
    },
    /// Run a grid of jobs (spec TOML) in parallel, sharded and resumable, one JSON line
    /// per job; `sweep merge` and `sweep report` combine and summarise results.
    Sweep(SweepCli),
    /// Write the benchmark suite (instance files) into a directory.
    BenchSuite {
        /// Directory to write into.
        #[arg(long, default_value = "instances/bench")]
        out: PathBuf,
        /// Seed of the random kernels.
        #[arg(long, default_value_t = 2026)]
        seed: u64,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// `makespan sweep SPEC --out FILE [--shard I/N] [--resume] [--threads N]`, or a
/// `merge`/`report` subcommand.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct SweepCli {
    #[command(subcommand)]
    action: Option<SweepAction>,
    /// Sweep spec (TOML; see instances/sweeps/).
    #[arg(required = true)]
    spec: Option<PathBuf>,
    /// Results file (JSON Lines), appended as each job ends.
    #[arg(long, required = true)]
    out: Option<PathBuf>,
    /// Run only shard I of N (1 <= I <= N): a fixed, balanced subset of the jobs.
    #[arg(long)]
    shard: Option<String>,
    /// Skip the jobs whose id is already in --out (and continue the file).
    #[arg(long)]
    resume: bool,
    /// Jobs run at once (default: all cores; at most 256).
    #[arg(long, allow_hyphen_values = true)]
    threads: Option<i64>,
    /// List the jobs (id and parameters, one JSON line each) without running them.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Subcommand)]
enum SweepAction {
    /// Merge results files into one (one record per id, sorted by id); refuses two
    /// records of one id whose results differ (timings aside).
    Merge {
        /// Results files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Merged results file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Summarise results: a table on stdout, optionally CSV and an SVG of values and times.
    Report {
        /// Results files (more than one are merged first).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the rows as CSV (default path: the first file with .csv).
        #[arg(long, num_args = 0..=1)]
        csv: Option<Option<PathBuf>>,
        /// Write the plots as SVG (default path: the first file with .svg).
        #[arg(long, num_args = 0..=1)]
        svg: Option<Option<PathBuf>>,
    },
}

/// An instance: a file, or --kernel/--warps/--sigma-l/--sigma-c.
#[derive(Args, Clone)]
struct InstanceArgs {
    /// Instance file (TOML; see instances/); `-` reads standard input.
    file: Option<PathBuf>,
    /// Instruction string instead of a file (L = load/store, C = CUDA core).
    #[arg(long)]
    kernel: Option<String>,
    /// Number of warps W (with a file: overrides the file's `warps`).
    #[arg(long, allow_hyphen_values = true)]
    warps: Option<i64>,
    /// sigma_L, integer >= 1 (default 1; not with a file).
    #[arg(long, allow_hyphen_values = true)]
    sigma_l: Option<i64>,
    /// sigma_C, integer >= 1 (default 1; not with a file).
    #[arg(long, allow_hyphen_values = true)]
    sigma_c: Option<i64>,
}

#[derive(Args, Clone)]
struct SolverArgs {
    /// Exact method: `search` (combinatorial, default), `ilp` (paper's ILP with HiGHS),
    /// `both` (cross-check), `heuristic` (lower bound only).
    #[arg(long, default_value = "search", value_parser = PossibleValuesParser::new(Method::NAMES).map(|s| s.parse::<Method>().expect("listed")))]
    method: Method,
    /// ILP work-conserving constraints: short (eqs. 34/37) or long (33/36).
    #[arg(long, default_value = "short", value_parser = PossibleValuesParser::new(ConstraintForm::NAMES).map(|s| s.parse::<ConstraintForm>().expect("listed")))]
    constraints: ConstraintForm,
    /// ILP horizon: `safe` (proven, default), `paper` (eq. 5; may truncate), or a number of cycles.
    #[arg(long, default_value = "safe")]
    horizon: Horizon,
    /// Stop after this many seconds with the best proven bounds and status `time_limit`.
    #[arg(long, allow_hyphen_values = true)]
    time_limit: Option<f64>,
    /// Limit of the search's branch and bound in stored states (the dense table is
    /// bounded by --max-memory).
    #[arg(long, default_value_t = SearchLimits::default().max_states)]
    max_states: usize,
    /// Memory limit of the search's state table, in bytes (2G, 512M, ...); the dense
    /// table of all C(I+W, W) states is used only if it fits in half of it. approx and
    /// converge share it among the T^(y) solves that run at once.
    #[arg(long, default_value = "2G")]
    max_memory: String,
    /// Leave out the ILP's symmetry-breaking rows (pure Fig. 3 model).
    #[arg(long)]
    no_symmetry_breaking: bool,
    /// Never use the search's dense table of all C(I+W, W) states (branch and bound only).
    #[arg(long)]
    no_dense: bool,
}

impl InstanceArgs {
    fn load(&self) -> Result<Instance, InputError> {
        let source = InstanceSource {
            file: self.file.clone(),
            kernel: self.kernel.clone(),
            warps: self.warps,
            sigma_l: self.sigma_l,
            sigma_c: self.sigma_c,
        };
        source.load()
    }
}

impl SolverArgs {
    /// Options for the commands that run many solves: a 10 s limit per solve unless given.
    fn options_with_default_limit(&self) -> Result<SolveOptions, InputError> {
        let mut o = self.options()?;
        o.time_limit = o.time_limit.or(Some(Duration::from_secs(10)));
        Ok(o)
    }

    fn options(&self) -> Result<SolveOptions, InputError> {
        let time_limit = self.time_limit.map(|t| seconds(t, "--time-limit")).transpose()?;
        if self.max_states == 0 {
            return Err(InputError::new("--max-states", 0, "must be positive"));
        }
        Ok(SolveOptions {
            method: self.method,
            form: self.constraints,
            horizon: self.horizon,
            time_limit,
            max_states: self.max_states,
            max_memory: bytes(&self.max_memory, "--max-memory")?,
            symmetry_breaking: !self.no_symmetry_breaking,
            dense: !self.no_dense,
        })
    }
}

/// Progress on stderr (hidden with `--quiet`).
struct Progress {
    quiet: bool,
}

impl Progress {
    fn bar(&self, len: u64, what: &str) -> indicatif::ProgressBar {
        if self.quiet {
            return indicatif::ProgressBar::hidden();
        }
        let pb = indicatif::ProgressBar::with_draw_target(Some(len), indicatif::ProgressDrawTarget::stderr());
        pb.set_style(indicatif::ProgressStyle::with_template("{spinner} {pos}/{len} {msg} [{elapsed}]").expect("valid template"));
        pb.set_message(what.to_string());
        pb.enable_steady_tick(Duration::from_millis(200));
        pb
    }

    fn spinner(&self, msg: &str) -> indicatif::ProgressBar {
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
    fn note(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr(), "{text}");
        }
    }
}

/// Why the program stops early.
enum Failure {
    /// A library error (exit 2 for input, 1 otherwise).
    Lib(Error),
    /// Standard output was closed (`| head`): stop quietly.
    PipeClosed,
    /// Standard output could not be written (e.g. a full disk).
    Output(std::io::Error),
    /// Some jobs of a sweep ended with an internal error (exit 1; the rest are recorded).
    Jobs(String),
}

impl<E: Into<Error>> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::Lib(e.into())
    }
}

/// Writes `text` to standard output; a closed pipe ends the program quietly.
fn out(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes()).and_then(|_| stdout.flush()).map_err(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => Failure::PipeClosed,
        _ => Failure::Output(e),
    })
}

fn pool(threads: Option<i64>) -> Result<rayon::ThreadPool, InputError> {
    let n = match threads {
        None => 0,
        Some(t) if (1..=MAX_THREADS).contains(&t) => t as usize,
        Some(t) => return Err(InputError::new("--threads", t, format!("must be from 1 to {MAX_THREADS}"))),
    };
    rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| InputError::new("--threads", n, e.to_string()))
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).expect("serialisable") + "\n"
}

/// Checks every output path given before any work starts.
fn prepare(outputs: &[(&Option<PathBuf>, &str)]) -> Result<(), InputError> {
    for (path, field) in outputs {
        if let Some(p) = path {
            prepare_output(p, field)?;
        }
    }
    Ok(())
}

/// Draws an SVG with `draw` into a prepared path; errors name `--svg`.
fn svg(path: Option<&Path>, draw: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), InputError> {
    match path {
        Some(p) => draw(p).map_err(|e| InputError::new("--svg", p.display(), e)),
        None => Ok(()),
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    let progress = Progress { quiet: cli.quiet };
    match cli.command {
        Command::Bound { instance, json: as_json } => {
            let inst = instance.load()?;
            if as_json {
                out(&json(&gpu_makespan::bounds::BoundsReport::of(&inst)))?;
            } else {
                out(&report::bounds_table(&inst))?;
            }
        }
        Command::Solve { instance, solver, schedule, json: as_json } => {
            let inst = instance.load()?;
            let opts = solver.options()?;
            if schedule {
                report::check_schedule_size(&inst, gpu_makespan::bounds::lower_bound(&inst), as_json)?;
            }
            if !opts.method.uses_ilp() && opts.horizon != Horizon::Safe {
                progress.note("note: --horizon applies to the ILP only; the search is never truncated");
            }
            let pb = progress.spinner(&format!("solving with {:?}", opts.method).to_lowercase());
            let result = solve::solve(&inst, &opts);
            pb.finish_and_clear();
            let sol = result?;
            if schedule {
                report::check_schedule_size(&inst, sol.outcome.lower_bound(), as_json)?;
            }
            if as_json {
                out(&json(&json::solution(&inst, &sol, schedule)))?;
            } else {
                out(&report::solution_table(&inst, &sol))?;
                if schedule {
                    out(&report::schedule_chart(&inst, &sol))?;
                }
            }
        }
        Command::Approx { instance, x, solver, threads, json: as_json } => {
            let inst = instance.load()?;
            let x = approx::check_x(&inst, x, "--x")?;
            let opts = solver.options_with_default_limit()?;
            let pool = pool(threads)?;
            let pb = progress.bar(x as u64, "T^(y)");
            let a = pool.install(|| approx::approx(&inst, x, &opts, &|| pb.inc(1)));
            pb.finish_and_clear();
            let a = a?;
            if as_json {
                out(&json(&a))?;
            } else {
                out(&report::approx_table(&inst, &a))?;
            }
        }
        Command::Converge { instance, x_max, solver, threads, csv, svg: svg_path, log_time } => {
            prepare(&[(&csv, "--csv"), (&svg_path, "--svg")])?;
            let inst = instance.load()?;
            let x_max = approx::check_x(&inst, x_max, "--x-max")?;
            let opts = solver.options_with_default_limit()?;
            let pool = pool(threads)?;
            let pb = progress.bar(x_max as u64, "T^(x)");
            let run = pool.install(|| convergence::converge(&inst, x_max, &opts, &|| pb.inc(1)));
            pb.finish_and_clear();
            let run = run?;
            let text = convergence::converge_csv(&inst, &run.rows);
            csv.map(|p| write_text(&p, &text, "--csv")).transpose()?;
            svg(svg_path.as_deref(), |p| plot::convergence(p, &inst, &run, log_time))?;
            out(&text)?;
            progress.note(&format!("estimate = T_approx(x) is NOT a proven bound; the proven safe horizon is {}", gpu_makespan::bounds::safe_horizon(&inst)));
        }
        Command::CompareConstraints { instance, warps_max, time_limit, csv, svg: svg_path, log_time } => {
            prepare(&[(&csv, "--csv"), (&svg_path, "--svg")])?;
            let inst = instance.load()?;
            let warps_max = convergence::check_warps_max(warps_max, "--warps-max")?;
            let opts = SolveOptions { time_limit: Some(seconds(time_limit, "--time-limit")?), ..SolveOptions::default() };
            let pb = progress.bar(warps_max as u64, "W");
            let rows = convergence::compare_constraints(&inst, warps_max, &opts, &|| pb.inc(1));
            pb.finish_and_clear();
            let rows = rows?;
            let text = convergence::forms_csv(&rows);
            csv.map(|p| write_text(&p, &text, "--csv")).transpose()?;
            svg(svg_path.as_deref(), |p| plot::constraint_forms(p, &inst, &rows, log_time))?;
            out(&text)?;
        }
        Command::Rta { file, deadline, gpu, json: as_json, svg: svg_path, time_limit, max_states, max_memory } => {
            prepare(&[(&svg_path, "--svg")])?;
            let limits = WcetLimits { time_limit: seconds(time_limit, "--time-limit")?, max_states, max_memory: bytes(&max_memory, "--max-memory")? };
            let pb = progress.spinner("computing per-block WCETs and the schedule");
            let w = taskset::load(&file, gpu.as_deref(), deadline, limits);
            pb.finish_and_clear();
            let w = w?;
            if svg_path.is_some() {
                plot::check_timeline(&w)?;
            }
            let rep = rta::analyse(&w, svg_path.is_some())?;
            svg(svg_path.as_deref(), |p| plot::rta_timeline(p, &rep))?;
            if as_json {
                out(&json(&rep))?;
            } else {
                out(&report::rta_table(&rep))?;
            }
        }
        Command::Sweep(cli) => sweep(cli, &progress)?,
        Command::BenchSuite { out: dir, seed } => {
            let suite = gpu_makespan::bench::suite(seed);
            let mut listing = String::new();
            for b in &suite {
                let path = dir.join(&b.name);
                write_text(&path, &b.text, "--out")?;
                listing.push_str(&format!("{}\n", path.display()));
            }
            out(&listing)?;
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "makespan", &mut script);
            out(&String::from_utf8_lossy(&script))?;
        }
    }
    Ok(())
}

fn sweep(cli: SweepCli, progress: &Progress) -> Result<(), Failure> {
    match cli.action {
        Some(SweepAction::Merge { files, out: path }) => sweep_merge(&files, &path, progress),
        Some(SweepAction::Report { files, csv, svg }) => sweep_report(&files, csv, svg, progress),
        None => sweep_run(cli, progress),
    }
}

/// `makespan sweep SPEC --out FILE ...`: runs the shard's jobs not yet in FILE.
fn sweep_run(cli: SweepCli, progress: &Progress) -> Result<(), Failure> {
    use gpu_makespan::sweep::{run, Shard, Spec};
    let (spec_path, out_path) = (cli.spec.expect("required by clap"), cli.out.expect("required by clap"));
    let mut jobs = Spec::from_path(&spec_path)?.jobs()?;
    let all = jobs.len();
    if let Some(s) = &cli.shard {
        jobs = s.parse::<Shard>()?.select(jobs);
    }
    if cli.dry_run {
        let lines: String = jobs.iter().map(|j| format!("{}\n", serde_json::json!({"id": j.id, "job": j.params}))).collect();
        return out(&lines);
    }
    let pool = pool(cli.threads)?;
    let resumed = run::open(&out_path, cli.resume)?;
    if resumed.removed_bytes > 0 {
        progress.note(&format!("note: removed a cut-off last line ({} bytes) from {}; its job runs again", resumed.removed_bytes, out_path.display()));
    }
    let shard_jobs = jobs.len();
    let todo = run::pending(jobs, &resumed.done);
    let started = std::time::Instant::now();
    let pb = progress.bar(todo.len() as u64, "jobs");
    let summary = pool.install(|| {
        run::run(&todo, &out_path, &|job, _| {
            pb.inc(1);
            pb.set_message(job.id.clone());
        })
    });
    pb.finish_and_clear();
    let summary = summary?;
    out(&format!(
        "sweep: {all} jobs in the spec, {shard_jobs} in this shard; {} already in {}, {} run now ({} refused, {} internal errors) in {:.1} s\n",
        shard_jobs - todo.len(),
        out_path.display(),
        summary.ran,
        summary.refused,
        summary.internal_errors,
        started.elapsed().as_secs_f64()
    ))?;
    if summary.internal_errors > 0 {
        return Err(Failure::Jobs(format!("{} jobs ended with an internal error; see their `error` fields in {}", summary.internal_errors, out_path.display())));
    }
    Ok(())
}

/// `makespan sweep merge FILES --out FILE`.
fn sweep_merge(files: &[PathBuf], path: &Path, progress: &Progress) -> Result<(), Failure> {
    let merged = gpu_makespan::sweep::results::merge(files)?;
    write_text(path, &gpu_makespan::sweep::results::to_jsonl(&merged), "--out")?;
    progress.note(&format!("{} records from {} files merged into {}", merged.len(), files.len(), path.display()));
    Ok(())
}

/// `makespan sweep report FILES [--csv [PATH]] [--svg [PATH]]`.
fn sweep_report(files: &[PathBuf], csv: Option<Option<PathBuf>>, svg_path: Option<Option<PathBuf>>, progress: &Progress) -> Result<(), Failure> {
    use gpu_makespan::sweep::report as summary;
    let default = |ext: &str| files[0].with_extension(ext);
    let csv = csv.map(|p| p.unwrap_or_else(|| default("csv")));
    let svg_path = svg_path.map(|p| p.unwrap_or_else(|| default("svg")));
    prepare(&[(&csv, "--csv"), (&svg_path, "--svg")])?;
    let rows = summary::rows(&gpu_makespan::sweep::results::merge(files)?);
    if let Some(p) = &csv {
        write_text(p, &summary::csv(&rows), "--csv")?;
        progress.note(&format!("wrote {}", p.display()));
    }
    svg(svg_path.as_deref(), |p| plot::sweep(p, &rows))?;
    if let Some(p) = &svg_path {
        progress.note(&format!("wrote {}", p.display()));
    }
    out(&summary::table(&rows))
}

/// clap's multi-line usage error as one line: the error, the missing arguments or the
/// possible values, without the usage and help hints.
fn one_line(text: &str) -> String {
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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind::*;
            if matches!(e.kind(), DisplayHelp | DisplayVersion | DisplayHelpOnMissingArgumentOrSubcommand) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(std::io::stderr(), "{}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let failure = match run(cli) {
        Ok(()) | Err(Failure::PipeClosed) => return ExitCode::SUCCESS,
        Err(f) => f,
    };
    let (message, code) = match failure {
        Failure::Lib(e) => (format!("error: {e}"), if e.is_input() { 2 } else { 1 }),
        Failure::Output(e) => (format!("error: cannot write standard output: {e}"), 2),
        Failure::Jobs(text) => (format!("error: {text}"), 1),
        Failure::PipeClosed => unreachable!("handled above"),
    };
    let _ = writeln!(std::io::stderr(), "{message}");
    ExitCode::from(code)
}
