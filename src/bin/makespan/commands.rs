//! Each subcommand, one function each: load its input, call the library, print.

use crate::args::{
    ApproxArgs, BenchSuiteArgs, BoundArgs, Cli, Command, CompareArgs, ConvergeArgs, ImportArgs, InstanceArgs, PlotArgs, RtaArgs, SolveArgs,
    SystemArgs, ThreadsArg,
};
use crate::options::{budget, max_states as positive_states, rta_request, with_total};
use crate::output::{plot, text as report};
use crate::sweep::sweep;
use crate::terminal::{json, out, pool, prepare, svg, Failure, Progress};
use clap::CommandFactory;
use gpu_makespan::budget::{Budget, StopFlag};
use gpu_makespan::exact::solve::{self, Horizon, SolveOptions};
use gpu_makespan::experiments::{approx, convergence};
use gpu_makespan::files::write_text;
use gpu_makespan::model::bounds::{lower_bound, safe_horizon};
use gpu_makespan::model::program::Program;
use gpu_makespan::rta::{analysis as rta, taskset};
use gpu_makespan::state_bounds::report::{BoundsReport, PhasedBounds};
use gpu_makespan::watch::Watch;
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
        Command::Approx(a) => approx(a, &cx),
        Command::Converge(a) => converge(a, &cx),
        Command::CompareConstraints(a) => compare_constraints(a, &cx),
        Command::Rta(a) => rta(a, &cx),
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
            json(&gpu_makespan::model::blocks::BlocksBounds::of(&blocks))
        } else {
            report::blocks_bounds_table(&blocks)
        });
    }
    let program = blocks.program;
    if program.has_barriers() {
        let reports: Vec<_> = program.phases.iter().map(BoundsReport::of).collect();
        return if a.json.json {
            out(&json(&PhasedBounds::of(&program.source_kernel, reports)))
        } else {
            out(&report::phased_bounds_table(&program))
        };
    }
    let inst = program.single()?;
    // The closed forms first, on the progress line, while the per-state bounds build.
    let watch = Arc::new(Watch::new());
    solve::show_closed_forms(&inst, &Budget::default().watched(watch.clone()));
    let pb = cx.progress.watching("building the bounds", &watch);
    let text = if a.json.json { json(&BoundsReport::of(&inst)) } else { report::bounds_table(&inst) };
    pb.finish_and_clear();
    out(&text)
}

fn solve(a: SolveArgs, cx: &Context) -> Result<(), Failure> {
    let blocks = a.instance.load_blocks()?;
    let opts = a.solver.options(cx.stop, Some(gpu_makespan::budget::DEFAULT_TIME_LIMIT_SOLVE))?;
    let stopped_by_default = |stopped: bool| {
        if stopped && a.solver.default_time_limit() {
            cx.progress.note(&format!(
                "note: stopped by solve's default time limit of {} s: the interval is proven; --time-limit SECONDS (or none) changes it",
                gpu_makespan::budget::DEFAULT_TIME_LIMIT_SOLVE.as_secs()
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
    if !opts.method.uses_ilp() && opts.horizon != Horizon::Safe {
        cx.progress.note("note: --horizon applies to the ILP only; the search is never truncated");
    }
    let watch = Arc::new(Watch::new());
    let opts = SolveOptions { budget: opts.budget.watched(watch.clone()), ..opts };
    let pb = cx.progress.watching(&format!("solving with {:?}", opts.method).to_lowercase(), &watch);
    let result = solve::solve(&inst, &opts);
    pb.finish_and_clear();
    let sol = result?;
    stopped_by_default(sol.status() == gpu_makespan::exact::solve::Status::TimeLimit);
    if a.schedule {
        report::check_schedule_size(&inst, sol.outcome.lower_bound(), a.json.json)?;
    }
    if a.json.json {
        return out(&json(&gpu_makespan::exact::record::solution(&inst, &sol, a.schedule)));
    }
    out(&report::solution_table(&inst, &sol))?;
    if a.schedule {
        out(&report::schedule_chart(&inst, &sol))?;
    }
    Ok(())
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

/// `solve` of a kernel with barriers: the phases in parallel, the totals, the checked
/// schedule with its barriers.
fn solve_phases(program: &Program, opts: &SolveOptions, show: &Shown) -> Result<(), Failure> {
    let Shown { schedule, as_json, progress, stopped_by_default } = *show;
    use gpu_makespan::exact::phases;
    if schedule {
        for inst in &program.phases {
            report::check_schedule_size(inst, lower_bound(inst), as_json)?;
        }
    }
    let pb = progress.spinner(&format!("solving {} phases with {:?}", program.phases.len(), opts.method).to_lowercase());
    let result = phases::solve_phases(program, opts);
    pb.finish_and_clear();
    let sol = result?;
    stopped_by_default(sol.phases.iter().any(|p| p.status() == gpu_makespan::exact::solve::Status::TimeLimit));
    if as_json {
        return out(&json(&phases::phased_json(program, &sol, schedule)));
    }
    out(&report::phased_table(program, &sol))?;
    if schedule {
        out(&report::phased_chart(program, &sol))?;
    }
    Ok(())
}

/// `solve` of several blocks with barriers: the exhaustive search over block states
/// (or the proven interval when it stops), the checked schedule.
fn solve_blocks(blocks: &gpu_makespan::model::blocks::Blocks, opts: &SolveOptions, show: &Shown) -> Result<(), Failure> {
    let Shown { schedule, as_json, progress, stopped_by_default } = *show;
    use gpu_makespan::exact::blocks;
    if opts.method != gpu_makespan::exact::solve::Method::Search {
        return Err(gpu_makespan::error::InputError::option(
            "method",
            format!("{:?}", opts.method).to_lowercase(),
            "several blocks with barriers are solved by the search only",
        )
        .into());
    }
    if opts.horizon != Horizon::Safe {
        progress.note("note: --horizon applies to the ILP only; the search is never truncated");
    }
    let pb = progress.spinner(&format!("searching the states of {} blocks", blocks.blocks));
    let result = blocks::solve_blocks(blocks, opts);
    pb.finish_and_clear();
    let sol = result?;
    stopped_by_default(sol.status == gpu_makespan::exact::solve::Status::TimeLimit);
    if as_json {
        return out(&json(&blocks::blocks_json(blocks, &sol, schedule)));
    }
    out(&report::blocks_table(blocks, &sol))?;
    if schedule {
        out(&report::blocks_chart(blocks, &sol))?;
    }
    Ok(())
}

fn approx(a: ApproxArgs, cx: &Context) -> Result<(), Failure> {
    let inst = a.instance.load()?;
    let x = approx::check_x(&inst, a.x, "--x")?;
    let mut opts = a.solver.options_with_default_limit(cx.stop)?;
    opts.budget = with_total(opts.budget, a.total.total_time_limit)?;
    let result = watched_in_pool(cx, a.threads, x as u64, "T^(y)", &mut opts, |o, tick| approx::approx(&inst, x, o, tick))?;
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
    let x_max = approx::check_x(&inst, a.x_max, "--x-max")?;
    let mut opts = a.solver.options_with_default_limit(cx.stop)?;
    opts.budget = with_total(opts.budget, a.total.total_time_limit)?;
    let run = watched_in_pool(cx, a.threads, x_max as u64, "T^(x)", &mut opts, |o, tick| convergence::converge(&inst, x_max, o, tick))?;
    let run = run?;
    write_plot(a.plot, &convergence::converge_csv(&inst, &run.rows), |p, log_time| plot::convergence(p, &inst, &run, log_time))?;
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
    let warps_max = convergence::check_warps_max(a.warps_max, "--warps-max")?;
    let budget = with_total(budget(Some(a.time_limit), None, cx.stop)?, a.total.total_time_limit)?;
    let opts = SolveOptions { budget, ..SolveOptions::default() };
    let pb = cx.progress.bar(warps_max as u64, "W");
    let run = convergence::compare_constraints(&inst, warps_max, &opts, &|| pb.inc(1));
    pb.finish_and_clear();
    let run = run?;
    write_plot(a.plot, &convergence::forms_csv(&run.rows), |p, log_time| plot::constraint_forms(p, &inst, &run.rows, log_time))?;
    if let Some(stopped) = &run.stopped {
        cx.progress.note(&format!("note: {stopped}; the rows above are complete"));
    }
    Ok(())
}

fn rta(a: RtaArgs, cx: &Context) -> Result<(), Failure> {
    prepare(&[(&a.svg, "--svg")], &[a.file.as_path()].into_iter().chain(a.gpu.as_deref()).collect::<Vec<_>>())?;
    let limits = SolveOptions {
        budget: with_total(budget(Some(a.wcet.time_limit), a.max_memory.as_deref(), cx.stop)?, a.total_time_limit)?,
        max_states: positive_states(a.max_states)?,
        ..SolveOptions::default()
    };
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

fn system(a: SystemArgs, cx: &Context) -> Result<(), Failure> {
    let inputs: Vec<&Path> = [Some(a.model.as_path()), a.kernels.as_deref(), a.chains.as_deref()].into_iter().flatten().collect();
    prepare(&[(&a.svg, "--svg")], &inputs)?;
    let sys = crate::options::system_model(&a)?;
    let opts = crate::options::system_options(&a)?;
    let limits = SolveOptions { budget: budget(Some(a.wcet.time_limit), None, cx.stop)?, ..SolveOptions::default() };
    let pb = cx.progress.spinner("analysing the system");
    let side = a.kernels.as_deref().map(|k| taskset::load(k, &taskset::Request::default(), &limits)).transpose();
    let rep = side.and_then(|side| gpu_makespan::system::report::analyse(&sys, side.as_ref(), opts));
    pb.finish_and_clear();
    let rep = rep?;
    svg(a.svg.as_deref(), |p| plot::chain_timeline(p, &rep))?;
    if a.json.json {
        return out(&json(&rep));
    }
    for w in &rep.warnings {
        cx.progress.note(&format!("warning: {w}"));
    }
    out(&report::system_tables(&rep))
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
        p.resources = import::resources::over_usage(&gpu_makespan::files::read_text(usage)?, &p.entry, p.resources)
            .map_err(|reason| gpu_makespan::error::InputError::option("resource_usage", usage.display(), reason))?;
    }
    let toml_text = import::to_toml(&imported);
    // What import writes, every command reads: the phases must build.
    Program::from_file_data(&gpu_makespan::files::parse_toml(&toml_text, "the imported instance")?)?;
    let text = if a.json { json(&imported) } else { toml_text };
    match a.out {
        Some(p) => Ok(write_text(&p, &text, "--out")?),
        None => out(&text),
    }
}

fn bench_suite(a: BenchSuiteArgs) -> Result<(), Failure> {
    let mut listing = String::new();
    for b in &gpu_makespan::experiments::bench::suite(a.seed) {
        let path = a.out.join(&b.name);
        write_text(&path, &b.text, "--out")?;
        listing.push_str(&format!("{}\n", path.display()));
    }
    out(&listing)
}
