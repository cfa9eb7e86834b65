//! Each subcommand, one function each: load its input, call the library, print.

use crate::args::{
    ApproxArgs, BenchSuiteArgs, BoundArgs, Cli, Command, CompareArgs, ConvergeArgs, ImportArgs, InstanceArgs, PlotArgs, PreemptArgs,
    RtaArgs, SimulateArgs, SolveArgs, SystemArgs, ThreadsArg,
};
use crate::files::write_text;
use crate::options::{budget, max_states as positive_states, rta_request, with_total};
use crate::output::{plot, simulation, text as report};
use crate::sweep::command::sweep;
use crate::terminal::{json, out, pool, prepare, svg, Failure, Progress};
use clap::CommandFactory;
use gpu_makespan::bounds::{BoundsReport, PhasedBounds};
use gpu_makespan::experiments;
use gpu_makespan::rta::{self, taskset};
use gpu_makespan::{lower_bound, safe_horizon, BlockSolution, Blocks, Budget, Error, Horizon, Instance, Method, PhasedSolution, Program};
use gpu_makespan::{Solution, SolveOptions, Status, StopFlag, Watch};
use indicatif::ProgressBar;
use std::path::Path;
use std::sync::Arc;

/// What every subcommand gets besides its arguments: how to report progress, and the
/// interrupt flag (Ctrl-C), which work sees and ends with the best proven results so far.
pub(crate) struct Context<'a> {
    pub(crate) progress: Progress,
    pub(crate) stop: &'a StopFlag,
}

/// Runs the subcommand of `cli`.
pub(crate) fn run(cli: Cli, stop: &StopFlag) -> Result<(), Failure> {
    let cx = Context { progress: Progress { quiet: cli.quiet }, stop };
    match cli.command {
        Command::Bound(a) => bound(a, &cx),
        Command::Solve(a) => solve(a, &cx),
        Command::Simulate(a) => simulate(a, &cx),
        Command::Approx(a) => approx(a, &cx),
        Command::Converge(a) => converge(a, &cx),
        Command::CompareConstraints(a) => compare_constraints(a, &cx),
        Command::Rta(a) => rta(a, &cx),
        Command::Preempt(a) => preempt(a, &cx),
        Command::System(a) => system(a, &cx),
        Command::Sweep(a) => sweep(a, &cx.progress, stop),
        Command::Import(a) => import(a),
        Command::BenchSuite(a) => bench_suite(a),
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "makespan", &mut script);
            out(&String::from_utf8_lossy(&script))
        }
    }
}

/// Runs `work` on a pool of `threads` workers with `opts`' budget watched by a progress
/// bar of `len` steps named `what` (the proven interval of the running solve beside it).
/// The one setup of the commands that solve many instances at once.
fn watched_in_pool<T>(
    cx: &Context,
    threads: ThreadsArg,
    len: u64,
    what: &str,
    opts: &mut SolveOptions,
    work: impl FnOnce(&SolveOptions, &(dyn Fn() + Sync)) -> T + Send,
) -> Result<T, Failure>
where
    T: Send,
{
    let pool = pool(threads.threads)?;
    let watch = Arc::new(Watch::new());
    opts.budget = opts.budget.clone().watched(watch.clone());
    let pb = cx.progress.bar_watching(len, what, &watch);
    let tick = || pb.inc(1);
    let result = pool.install(|| work(opts, &tick));
    pb.finish_and_clear();
    Ok(result)
}

/// Checks before any work that `--csv` and `--svg` can be written and are not the
/// instance file.
fn prepare_plot(plot: &PlotArgs, instance: &InstanceArgs) -> Result<(), Failure> {
    let inputs: Vec<&Path> = instance.file.as_deref().into_iter().collect();
    Ok(prepare(&[(&plot.csv, "--csv"), (&plot.svg, "--svg")], &inputs)?)
}

/// The rows of a plotting command: `text` (CSV) to `--csv` and stdout, `draw` (given the
/// path and `--log-time`) to `--svg`.
fn write_plot(plot: PlotArgs, text: &str, draw: impl FnOnce(&Path, bool) -> Result<(), String>) -> Result<(), Failure> {
    plot.csv.map(|p| write_text(&p, text, "--csv")).transpose()?;
    svg(plot.svg.as_deref(), |p| draw(p, plot.log_time))?;
    out(text)
}

fn bound(a: BoundArgs, cx: &Context) -> Result<(), Failure> {
    let blocks = a.instance.load_blocks()?;
    if blocks.blocks > 1 {
        return out(&if a.json.json {
            json(&gpu_makespan::bounds::BlocksBounds::of(&blocks))
        } else {
            report::blocks_bounds_table(&blocks)
        });
    }
    let program = blocks.program;
    if program.has_barriers() {
        return if a.json.json { out(&json(&PhasedBounds::of_program(&program))) } else { out(&report::phased_bounds_table(&program)) };
    }
    let inst = program.single()?;
    // The closed forms first, on the progress line, while the per-state bounds build.
    let watch = Arc::new(Watch::new());
    let shown = Budget::default().watched(watch.clone());
    shown.proved(safe_horizon(&inst));
    shown.found(lower_bound(&inst));
    let pb = cx.progress.watching("building the bounds", &watch);
    let text = if a.json.json { json(&BoundsReport::of(&inst)) } else { report::bounds_table(&inst) };
    pb.finish_and_clear();
    out(&text)
}

fn solve(a: SolveArgs, cx: &Context) -> Result<(), Failure> {
    let blocks = a.instance.load_blocks()?;
    let opts = a.solver.options(cx.stop, Some(gpu_makespan::Budget::DEFAULT_TIME_LIMIT_SOLVE))?;
    let stopped_by_default = |stopped: bool| {
        if stopped && a.solver.default_time_limit() {
            cx.progress.note(&format!(
                "note: stopped by solve's default time limit of {} s: the interval is proven; --time-limit SECONDS (or none) changes it",
                gpu_makespan::Budget::DEFAULT_TIME_LIMIT_SOLVE.as_secs()
            ));
        }
    };
    let show = Shown { schedule: a.schedule, as_json: a.json.json, progress: &cx.progress, stopped_by_default: &stopped_by_default };
    if blocks.blocks > 1 {
        return solve_blocks(&blocks, &opts, &show);
    }
    let program = blocks.program;
    if program.has_barriers() {
        return solve_phases(&program, &opts, &show);
    }
    let inst = program.single()?;
    if a.schedule {
        report::check_schedule_size(&inst, lower_bound(&inst), a.json.json)?;
    }
    note_horizon(&cx.progress, &opts);
    let watch = Arc::new(Watch::new());
    let watched = opts.budget.clone().watched(watch.clone());
    let opts = opts.with_budget(watched);
    let pb = cx.progress.watching(&format!("solving with {:?}", opts.method).to_lowercase(), &watch);
    finish_solve(&show, pb, || gpu_makespan::solve(&inst, &opts).map(|sol| (&inst, sol)))
}

/// What `solve` shows and where: the schedule, JSON, progress, and the note when the
/// default time limit stopped it.
#[derive(Clone, Copy)]
struct Shown<'a> {
    schedule: bool,
    as_json: bool,
    progress: &'a Progress,
    stopped_by_default: &'a dyn Fn(bool),
}

/// Notes that `--horizon` does nothing when the method does not use the ILP.
fn note_horizon(progress: &Progress, opts: &SolveOptions) {
    if !opts.method.uses_ilp() && opts.horizon != Horizon::Safe {
        progress.note("note: --horizon applies to the ILP only; the search is never truncated");
    }
}

/// A solution `solve` prints, with what was solved: a kernel's, a barrier kernel's
/// phases', or several blocks'. The three share one flow, [`finish_solve`].
trait Solved {
    /// Whether a time limit stopped the solve (any phase's, for phases).
    fn timed_out(&self) -> bool;
    /// Checks, once solved, that the schedule can be shown (JSON: `as_json`).
    fn check_schedule(&self, _as_json: bool) -> Result<(), Failure> {
        Ok(())
    }
    /// The JSON record, with the schedule if `schedule`.
    fn json(&self, schedule: bool) -> String;
    /// The table for people.
    fn table(&self) -> String;
    /// The schedule's chart.
    fn chart(&self) -> String;
}

impl Solved for (&Instance, Solution) {
    fn timed_out(&self) -> bool {
        self.1.status() == Status::TimeLimit
    }
    fn check_schedule(&self, as_json: bool) -> Result<(), Failure> {
        Ok(report::check_schedule_size(self.0, self.1.outcome.lower_bound(), as_json)?)
    }
    fn json(&self, schedule: bool) -> String {
        json(&self.1.record(self.0, schedule))
    }
    fn table(&self) -> String {
        report::solution_table(self.0, &self.1)
    }
    fn chart(&self) -> String {
        report::schedule_chart(self.0, &self.1)
    }
}

impl Solved for (&Program, PhasedSolution) {
    fn timed_out(&self) -> bool {
        self.1.phases.iter().any(|p| p.status() == Status::TimeLimit)
    }
    fn json(&self, schedule: bool) -> String {
        json(&self.1.record(self.0, schedule))
    }
    fn table(&self) -> String {
        report::phased_table(self.0, &self.1)
    }
    fn chart(&self) -> String {
        report::phased_chart(self.0, &self.1)
    }
}

impl Solved for (&Blocks, BlockSolution) {
    fn timed_out(&self) -> bool {
        self.1.status == Status::TimeLimit
    }
    fn json(&self, schedule: bool) -> String {
        json(&self.1.record(self.0, schedule))
    }
    fn table(&self) -> String {
        report::blocks_table(self.0, &self.1)
    }
    fn chart(&self) -> String {
        report::blocks_chart(self.0, &self.1)
    }
}

/// The flow the three kinds of `solve` share once set up: `work` behind the progress
/// line `pb`, the note when the default time limit stopped it, the schedule's size
/// checked, then the JSON record, or the table and (with `--schedule`) the chart.
fn finish_solve<S: Solved>(show: &Shown, pb: ProgressBar, work: impl FnOnce() -> Result<S, Error>) -> Result<(), Failure> {
    let result = work();
    pb.finish_and_clear();
    let sol = result?;
    (show.stopped_by_default)(sol.timed_out());
    if show.schedule {
        sol.check_schedule(show.as_json)?;
    }
    if show.as_json {
        return out(&sol.json(show.schedule));
    }
    out(&sol.table())?;
    if show.schedule {
        out(&sol.chart())?;
    }
    Ok(())
}

/// `solve` of a kernel with barriers: the phases in parallel, the totals, the checked
/// schedule with its barriers.
fn solve_phases(program: &Program, opts: &SolveOptions, show: &Shown) -> Result<(), Failure> {
    if show.schedule {
        for inst in &program.phases {
            report::check_schedule_size(inst, lower_bound(inst), show.as_json)?;
        }
    }
    let pb = show.progress.spinner(&format!("solving {} phases with {:?}", program.phases.len(), opts.method).to_lowercase());
    finish_solve(show, pb, || gpu_makespan::solve_phases(program, opts).map(|sol| (program, sol)))
}

/// `solve` of several blocks with barriers: the exhaustive search over block states
/// (or the proven interval when it stops), the checked schedule.
fn solve_blocks(blocks: &Blocks, opts: &SolveOptions, show: &Shown) -> Result<(), Failure> {
    if opts.method != Method::Search {
        return Err(gpu_makespan::error::InputError::option(
            "method",
            format!("{:?}", opts.method).to_lowercase(),
            "several blocks with barriers are solved by the search only",
        )
        .into());
    }
    note_horizon(show.progress, opts);
    let pb = show.progress.spinner(&format!("searching the states of {} blocks", blocks.blocks));
    finish_solve(show, pb, || gpu_makespan::solve_blocks(blocks, opts).map(|sol| (blocks, sol)))
}

fn simulate(a: SimulateArgs, cx: &Context) -> Result<(), Failure> {
    let inputs: Vec<&Path> = a.instance.file.as_deref().into_iter().collect();
    prepare(&[(&a.svg, "--svg")], &inputs)?;
    let (blocks, latency, scheduler) = a.instance.load_simulation(&a)?;
    let limit = a.time_limit.unwrap_or(gpu_makespan::Budget::DEFAULT_TIME_LIMIT_PER_SOLVE.as_secs_f64());
    let opts = SolveOptions::default().with_budget(budget(Some(limit), a.max_memory.as_deref(), cx.stop)?);
    simulation::check_sizes(&blocks, &latency, a.schedule, a.json.json, a.svg.is_some())?;
    let pb = cx.progress.spinner("simulating");
    let run = blocks.simulate_within(&latency, scheduler, &opts)?;
    pb.finish_and_clear();
    let text = if a.json.json {
        simulation::simulation_json(&blocks, &run, a.schedule)?
    } else {
        simulation::simulation_table(&blocks, &run, a.schedule)?
    };
    svg(a.svg.as_deref(), |p| simulation::simulation(p, &blocks, &run))?;
    out(&text)
}

fn approx(a: ApproxArgs, cx: &Context) -> Result<(), Failure> {
    let inst = a.instance.load()?;
    let x = experiments::check_x(&inst, a.x, "--x")?;
    let mut opts = a.solver.options_with_default_limit(cx.stop)?;
    opts.budget = with_total(opts.budget, a.total.total_time_limit)?;
    let result = watched_in_pool(cx, a.threads, x as u64, "T^(y)", &mut opts, |o, tick| experiments::approx(&inst, x, o, tick))?;
    let result = result?;
    if a.json.json {
        out(&json(&result))
    } else {
        out(&report::approx_table(&inst, &result))
    }
}

fn converge(a: ConvergeArgs, cx: &Context) -> Result<(), Failure> {
    prepare_plot(&a.plot, &a.instance)?;
    let inst = a.instance.load()?;
    let x_max = experiments::check_x(&inst, a.x_max, "--x-max")?;
    let mut opts = a.solver.options_with_default_limit(cx.stop)?;
    opts.budget = with_total(opts.budget, a.total.total_time_limit)?;
    let run = watched_in_pool(cx, a.threads, x_max as u64, "T^(x)", &mut opts, |o, tick| experiments::converge(&inst, x_max, o, tick))?;
    let run = run?;
    write_plot(a.plot, &experiments::converge_csv(&inst, &run.rows), |p, log_time| plot::convergence(p, &inst, &run, log_time))?;
    if let Some(note) = run.status.note(&format!("{} of the {x_max} x", x_max as usize - run.rows.len())) {
        cx.progress.note(&format!("note: {note}; the rows above are complete"));
    }
    cx.progress.note(&format!("estimate = T_approx(x) is NOT a proven bound; the proven safe horizon is {}", safe_horizon(&inst)));
    Ok(())
}

fn compare_constraints(mut a: CompareArgs, cx: &Context) -> Result<(), Failure> {
    // W runs from 1 to --warps-max: a kernel string needs no --warps here.
    if a.instance.kernel.is_some() && a.instance.warps.is_none() {
        a.instance.warps = Some(1);
    }
    prepare_plot(&a.plot, &a.instance)?;
    let inst = a.instance.load()?;
    let warps_max = experiments::check_warps_max(a.warps_max, "--warps-max")?;
    let budget = with_total(budget(Some(a.time_limit), None, cx.stop)?, a.total.total_time_limit)?;
    let opts = SolveOptions::default().with_budget(budget);
    let pb = cx.progress.bar(warps_max as u64, "W");
    let run = experiments::compare_constraints(&inst, warps_max, &opts, &|| pb.inc(1));
    pb.finish_and_clear();
    let run = run?;
    write_plot(a.plot, &experiments::forms_csv(&run.rows), |p, log_time| plot::constraint_forms(p, &inst, &run.rows, log_time))?;
    if let Some(stopped) = &run.stopped {
        cx.progress.note(&format!("note: {stopped}; the rows above are complete"));
    }
    Ok(())
}

fn rta(a: RtaArgs, cx: &Context) -> Result<(), Failure> {
    prepare(&[(&a.svg, "--svg")], &[a.file.as_path()].into_iter().chain(a.gpu.as_deref()).collect::<Vec<_>>())?;
    let limits = SolveOptions::default()
        .with_budget(with_total(budget(Some(a.wcet.time_limit), a.max_memory.as_deref(), cx.stop)?, a.total_time_limit)?)
        .with_max_states(positive_states(a.max_states)?);
    let pb = cx.progress.spinner("computing per-block WCETs and the schedule");
    let request = rta_request(a.gpu, a.deadline.as_deref(), a.window.as_deref(), a.file_order)?;
    let w = taskset::load(&a.file, &request, &limits);
    pb.finish_and_clear();
    let w = w?;
    if a.svg.is_some() {
        plot::check_timeline(&w)?;
    }
    let rep = rta::analyse(&w, if a.svg.is_some() { rta::Timeline::Kept } else { rta::Timeline::Omitted })?;
    svg(a.svg.as_deref(), |p| plot::rta_timeline(p, &rep))?;
    if a.json.json {
        out(&json(&rep))
    } else {
        out(&report::rta_table(&rep))
    }
}

fn preempt(a: PreemptArgs, cx: &Context) -> Result<(), Failure> {
    prepare(&[], &[a.file.as_path()].into_iter().chain(a.gpu.as_deref()).collect::<Vec<_>>())?;
    let limits = SolveOptions::default().with_budget(budget(Some(a.wcet.time_limit), None, cx.stop)?);
    let pb = cx.progress.spinner("computing per-segment WCETs");
    let budget = a
        .points_budget
        .as_deref()
        .map(|b| rta::Decimal::parse_number(b, "points-budget").map_err(gpu_makespan::InputError::as_option))
        .transpose()?;
    // The comparison's regimes drop the streams: its C's count every kernel beside a block.
    let request = taskset::Request::default().with_gpu(a.gpu).with_points_budget(budget).with_streams_apart(a.compare);
    let w = taskset::load(&a.file, &request, &limits);
    pb.finish_and_clear();
    let w = w?;
    let rep = rta::preemptive(&w)?;
    let regimes = if a.compare { crate::regimes::regimes(&w, &rep) } else { Vec::new() };
    match (a.json.json, a.compare) {
        (true, false) => out(&json(&rep)),
        (true, true) => out(&json(&serde_json::json!({ "framework": rep, "comparison": crate::regimes::json(&regimes) }))),
        (false, false) => out(&report::preempt_table(&rep)),
        (false, true) => out(&(report::preempt_table(&rep) + "\n" + &crate::regimes::table(&rep, &regimes))),
    }
}

fn system(a: SystemArgs, cx: &Context) -> Result<(), Failure> {
    let inputs: Vec<&Path> = [Some(a.model.as_path()), a.kernels.as_deref(), a.chains.as_deref()].into_iter().flatten().collect();
    let sys = crate::options::system_model(&a)?;
    if let (Some(svg), true) = (&a.svg, sys.chains.is_empty()) {
        // Refused before the file is made: an empty chart helps nobody.
        return Err(gpu_makespan::error::InputError::option(
            "svg",
            svg.display(),
            "draws the end-to-end chains, and the system has none: give --chains FILE, or leave --svg out",
        )
        .into());
    }
    prepare(&[(&a.svg, "--svg")], &inputs)?;
    let opts = crate::options::system_options(&a)?;
    let limits = SolveOptions::default().with_budget(budget(Some(a.wcet.time_limit), None, cx.stop)?);
    let pb = cx.progress.spinner("analysing the system");
    let side = a.kernels.as_deref().map(|k| taskset::load(k, &taskset::Request::default(), &limits)).transpose();
    let rep = side.and_then(|side| gpu_makespan::system::analyse(&sys, side.as_ref(), opts));
    pb.finish_and_clear();
    let rep = rep?;
    svg(a.svg.as_deref(), |p| plot::chain_timeline(p, &rep))?;
    if a.json.json {
        return out(&json(&rep));
    }
    for w in &rep.warnings {
        cx.progress.note(&format!("warning: {w}"));
    }
    out(&report::system_tables(&rep, !cx.progress.quiet))
}

fn import(a: ImportArgs) -> Result<(), Failure> {
    use gpu_makespan::import;
    let text = gpu_makespan::files::read_text(&a.file)?;
    let origin = gpu_makespan::files::origin(&a.file);
    let format = import::Format::pick(&a.format, &origin, &text)?;
    let mut request =
        crate::options::import_request(a.entry, a.trace, a.units.as_deref(), &a.trips, a.block_threads, a.warps, &a.sm, a.arch)?;
    request.dynamic_shared_memory = a.dynamic_smem;
    if a.list_branches {
        let (entry, branches) = import::list_branches(&text, &origin, format, &request)?;
        return out(&if a.json { json(&branches) } else { crate::output::branches::branch_table(&entry, &origin, &branches) });
    }
    let mut imported = import::import(&text, &origin, format, &request).map_err(|mut e| {
        if let Some(all) = import::branches_after(&e, &text, &origin, format, &request) {
            e.reason = crate::output::branches::all_branches_hint(&e.reason, &all);
        } else if matches!(e.field.as_str(), "branch" | "opcode") {
            e.reason.push_str(" (options --trip LABEL=N, --trace, --units MAP.toml)");
        }
        e
    })?;
    if let Some(usage) = &a.resource_usage {
        let p = &mut imported.provenance;
        p.resources = import::over_usage(&gpu_makespan::files::read_text(usage)?, &p.entry, p.resources)
            .map_err(|reason| gpu_makespan::error::InputError::option("resource_usage", usage.display(), reason))?;
    }
    let toml_text = import::to_toml(&imported);
    // What import writes, every command reads: the phases must build.
    Program::from_toml(&toml_text, "the imported instance")?;
    let text = if a.json { json(&imported) } else { toml_text };
    match a.out {
        Some(p) => Ok(write_text(&p, &text, "--out")?),
        None => out(&text),
    }
}

fn bench_suite(a: BenchSuiteArgs) -> Result<(), Failure> {
    let mut listing = String::new();
    for b in &crate::bench_suite::suite(a.seed) {
        let path = a.out.join(&b.name);
        write_text(&path, &b.text, "--out")?;
        listing.push_str(&format!("{}\n", path.display()));
    }
    out(&listing)
}
