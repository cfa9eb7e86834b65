//! Each subcommand: load its input, call the library, print.

use crate::args::{Cli, Command};
use crate::options::{budget, max_states as positive_states, rta_request, with_total};
use crate::sweep::sweep;
use crate::terminal::{json, out, pool, prepare, svg, Failure, Progress};
use clap::CommandFactory;
use gpu_makespan::budget::{Budget, StopFlag};
use gpu_makespan::exact::solve::{self, Horizon, SolveOptions};
use gpu_makespan::experiments::{approx, convergence};
use gpu_makespan::files::write_text;
use gpu_makespan::output::{plot, text as report};
use gpu_makespan::rta::analysis as rta;
use gpu_makespan::rta::taskset;
use gpu_makespan::watch::Watch;
use std::sync::Arc;

/// Runs the subcommand of `cli`; `stop` is set by an interrupt (Ctrl-C), and work that
/// sees it ends with the best proven results so far.
pub(crate) fn run(cli: Cli, stop: &StopFlag) -> Result<(), Failure> {
    let progress = Progress { quiet: cli.quiet };
    match cli.command {
        Command::Bound { instance, json: as_json } => {
            let program = instance.load_program()?;
            if program.has_barriers() {
                let reports: Vec<_> = program.phases.iter().map(gpu_makespan::state_bounds::report::BoundsReport::of).collect();
                if as_json {
                    out(&json(&gpu_makespan::state_bounds::report::PhasedBounds::of(&program.source_kernel, reports)))?;
                } else {
                    out(&report::phased_bounds_table(&program))?;
                }
                return Ok(());
            }
            let inst = program.single("bound")?;
            // The closed forms first, on the progress line, while the per-state bounds build.
            let watch = Arc::new(Watch::new());
            solve::show_closed_forms(&inst, &Budget::default().watched(watch.clone()));
            let pb = progress.watching("building the bounds", &watch);
            let text =
                if as_json { json(&gpu_makespan::state_bounds::report::BoundsReport::of(&inst)) } else { report::bounds_table(&inst) };
            pb.finish_and_clear();
            out(&text)?;
        }
        Command::Solve { instance, solver, schedule, json: as_json } => {
            let program = instance.load_program()?;
            let opts = solver.options(stop)?;
            if program.has_barriers() {
                return solve_phases(&program, &opts, schedule, as_json, &progress);
            }
            let inst = program.single("solve")?;
            if schedule {
                report::check_schedule_size(&inst, gpu_makespan::model::bounds::lower_bound(&inst), as_json)?;
            }
            if !opts.method.uses_ilp() && opts.horizon != Horizon::Safe {
                progress.note("note: --horizon applies to the ILP only; the search is never truncated");
            }
            let watch = Arc::new(Watch::new());
            let opts = SolveOptions { budget: opts.budget.watched(watch.clone()), ..opts };
            let pb = progress.watching(&format!("solving with {:?}", opts.method).to_lowercase(), &watch);
            let result = solve::solve(&inst, &opts);
            pb.finish_and_clear();
            let sol = result?;
            if schedule {
                report::check_schedule_size(&inst, sol.outcome.lower_bound(), as_json)?;
            }
            if as_json {
                out(&json(&gpu_makespan::exact::record::solution(&inst, &sol, schedule)))?;
            } else {
                out(&report::solution_table(&inst, &sol))?;
                if schedule {
                    out(&report::schedule_chart(&inst, &sol))?;
                }
            }
        }
        Command::Approx { instance, x, solver, total, threads, json: as_json } => {
            let inst = instance.load()?;
            let x = approx::check_x(&inst, x, "--x")?;
            let mut opts = solver.options_with_default_limit(stop)?;
            opts.budget = with_total(opts.budget, total.total_time_limit)?;
            let pool = pool(threads)?;
            let watch = Arc::new(Watch::new());
            opts.budget = opts.budget.watched(watch.clone());
            let pb = progress.bar_watching(x as u64, "T^(y)", &watch);
            let a = pool.install(|| approx::approx(&inst, x, &opts, &|| pb.inc(1)));
            pb.finish_and_clear();
            let a = a?;
            if as_json {
                out(&json(&a))?;
            } else {
                out(&report::approx_table(&inst, &a))?;
            }
        }
        Command::Converge { instance, x_max, solver, total, threads, csv, svg: svg_path, log_time } => {
            prepare(&[(&csv, "--csv"), (&svg_path, "--svg")], &instance.file.as_deref().into_iter().collect::<Vec<_>>())?;
            let inst = instance.load()?;
            let x_max = approx::check_x(&inst, x_max, "--x-max")?;
            let mut opts = solver.options_with_default_limit(stop)?;
            opts.budget = with_total(opts.budget, total.total_time_limit)?;
            let pool = pool(threads)?;
            let watch = Arc::new(Watch::new());
            opts.budget = opts.budget.watched(watch.clone());
            let pb = progress.bar_watching(x_max as u64, "T^(x)", &watch);
            let run = pool.install(|| convergence::converge(&inst, x_max, &opts, &|| pb.inc(1)));
            pb.finish_and_clear();
            let run = run?;
            let text = convergence::converge_csv(&inst, &run.rows);
            csv.map(|p| write_text(&p, &text, "--csv")).transpose()?;
            svg(svg_path.as_deref(), |p| plot::convergence(p, &inst, &run, log_time))?;
            out(&text)?;
            if let Some(note) = run.status.note(&format!("{} of the {x_max} x", x_max as usize - run.rows.len())) {
                progress.note(&format!("note: {note}; the rows above are complete"));
            }
            progress.note(&format!(
                "estimate = T_approx(x) is NOT a proven bound; the proven safe horizon is {}",
                gpu_makespan::model::bounds::safe_horizon(&inst)
            ));
        }
        Command::CompareConstraints { mut instance, warps_max, time_limit, total, csv, svg: svg_path, log_time } => {
            // W runs from 1 to --warps-max: a kernel string needs no --warps here.
            if instance.kernel.is_some() && instance.warps.is_none() {
                instance.warps = Some(1);
            }
            prepare(&[(&csv, "--csv"), (&svg_path, "--svg")], &instance.file.as_deref().into_iter().collect::<Vec<_>>())?;
            let inst = instance.load()?;
            let warps_max = convergence::check_warps_max(warps_max, "--warps-max")?;
            let budget = with_total(budget(Some(time_limit), None, stop)?, total.total_time_limit)?;
            let opts = SolveOptions { budget, ..SolveOptions::default() };
            let pb = progress.bar(warps_max as u64, "W");
            let run = convergence::compare_constraints(&inst, warps_max, &opts, &|| pb.inc(1));
            pb.finish_and_clear();
            let run = run?;
            let text = convergence::forms_csv(&run.rows);
            csv.map(|p| write_text(&p, &text, "--csv")).transpose()?;
            svg(svg_path.as_deref(), |p| plot::constraint_forms(p, &inst, &run.rows, log_time))?;
            out(&text)?;
            if let Some(stopped) = &run.stopped {
                progress.note(&format!("note: {stopped}; the rows above are complete"));
            }
        }
        Command::Rta {
            file,
            deadline,
            window,
            file_order,
            gpu,
            json: as_json,
            svg: svg_path,
            time_limit,
            total_time_limit,
            max_states,
            max_memory,
        } => {
            prepare(&[(&svg_path, "--svg")], &[file.as_path()].into_iter().chain(gpu.as_deref()).collect::<Vec<_>>())?;
            let limits = SolveOptions {
                budget: with_total(budget(Some(time_limit), max_memory.as_deref(), stop)?, total_time_limit)?,
                max_states: positive_states(max_states)?,
                ..SolveOptions::default()
            };
            let pb = progress.spinner("computing per-block WCETs and the schedule");
            let request = rta_request(gpu, deadline.as_deref(), window.as_deref(), file_order)?;
            let w = taskset::load(&file, &request, &limits);
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
        Command::System { model, kernels, chains, map, mapping, communication, offload, json: as_json, svg: svg_path, time_limit } => {
            let inputs: Vec<&std::path::Path> =
                [Some(model.as_path()), kernels.as_deref(), chains.as_deref()].into_iter().flatten().collect();
            prepare(&[(&svg_path, "--svg")], &inputs)?;
            let sys = crate::options::system_model(&model, chains.as_deref(), mapping.as_deref(), &map)?;
            let opts = crate::options::system_options(&communication, &offload);
            let limits = SolveOptions { budget: budget(Some(time_limit), None, stop)?, ..SolveOptions::default() };
            let pb = progress.spinner("analysing the system");
            let side = kernels.as_deref().map(|k| taskset::load(k, &taskset::Request::default(), &limits)).transpose();
            let rep = side.and_then(|side| gpu_makespan::system::report::analyse(&sys, side.as_ref(), opts));
            pb.finish_and_clear();
            let rep = rep?;
            svg(svg_path.as_deref(), |p| plot::chain_timeline(p, &rep))?;
            if as_json {
                out(&json(&rep))?;
            } else {
                out(&report::system_tables(&rep))?;
            }
        }
        Command::Sweep(cli) => sweep(cli, &progress, stop)?,
        Command::Import { file, format, entry, trace, units, trips, block_threads, warps, sm, arch, out: out_path, json: as_json } => {
            let text = gpu_makespan::files::read_text(&file)?;
            let origin = gpu_makespan::files::origin(&file);
            let format = gpu_makespan::import::Format::pick(&format, &origin, &text)?;
            let request = crate::options::import_request(entry, trace, units.as_deref(), &trips, block_threads, warps, &sm, arch)?;
            let imported = gpu_makespan::import::import(&text, &origin, format, &request).map_err(|mut e| {
                if matches!(e.field.as_str(), "branch" | "opcode") {
                    e.reason.push_str(" (options --trip LABEL=N, --trace, --units MAP.toml)");
                }
                e
            })?;
            let toml_text = gpu_makespan::import::to_toml(&imported);
            // What import writes, every command reads: the phases must build.
            gpu_makespan::model::program::Program::from_file_data(&gpu_makespan::files::parse_toml(&toml_text, "the imported instance")?)?;
            let text = if as_json { json(&imported) } else { toml_text };
            match out_path {
                Some(p) => write_text(&p, &text, "--out")?,
                None => out(&text)?,
            }
        }
        Command::BenchSuite { out: dir, seed } => {
            let suite = gpu_makespan::experiments::bench::suite(seed);
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

/// `solve` of a kernel with barriers: the phases in parallel, the totals, the checked
/// schedule with its barriers.
fn solve_phases(
    program: &gpu_makespan::model::program::Program,
    opts: &SolveOptions,
    schedule: bool,
    as_json: bool,
    progress: &Progress,
) -> Result<(), Failure> {
    use gpu_makespan::exact::phases;
    if schedule {
        for inst in &program.phases {
            report::check_schedule_size(inst, gpu_makespan::model::bounds::lower_bound(inst), as_json)?;
        }
    }
    let pb = progress.spinner(&format!("solving {} phases with {:?}", program.phases.len(), opts.method).to_lowercase());
    let result = phases::solve_phases(program, opts);
    pb.finish_and_clear();
    let sol = result?;
    if as_json {
        out(&json(&phases::phased_json(program, &sol, schedule)))?;
    } else {
        out(&report::phased_table(program, &sol))?;
        if schedule {
            out(&report::phased_chart(program, &sol))?;
        }
    }
    Ok(())
}
