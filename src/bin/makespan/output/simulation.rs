//! What `makespan simulate` prints: the table, the cycle-by-warp chart with the cycles
//! each warp waits for a result, the JSON (the library's `Simulation` plus, when asked,
//! the issues) and the SVG of the schedule.

use super::plot::{colour, io_err};
use super::text::check_schedule_cells;
use gpu_makespan::error::InputError;
use gpu_makespan::{Blocks, Latencies, Simulation, Unit};
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// The most warps x cycles an SVG draws.
const MAX_SVG_CELLS: u64 = 2_000_000;

/// The table: what ran, the makespan and what it means; the chart with `--schedule`.
pub fn simulation_table(blocks: &Blocks, run: &Simulation, schedule: bool) -> Result<String, InputError> {
    let mut s = String::new();
    let per = if blocks.blocks > 1 { format!(" ({} blocks of {} warps)", blocks.blocks, run.warps_per_block) } else { String::new() };
    let _ = writeln!(s, "kernel       {}, W = {}{per}", crate::wording::shorten(&run.kernel), run.warps);
    let _ = writeln!(
        s,
        "sm           sigma_L = {}, sigma_C = {}",
        blocks.program.phases[0].sigma_given(Unit::L),
        blocks.program.phases[0].sigma_given(Unit::C)
    );
    let _ = writeln!(s, "scheduler    {}", run.scheduler);
    let _ = writeln!(s, "latency      {} (each instruction waits for its predecessor's result)", run.latency);
    let ranges = run.latency.l.fixed().is_none() || run.latency.c.fixed().is_none();
    let open = match (run.scheduler.is_deterministic(), ranges) {
        (true, _) => "every latency in its range",
        (false, true) => "every work-conserving scheduler and every latency in its range",
        (false, false) => "every work-conserving scheduler",
    };
    if run.interval.exact() {
        let what = if run.scheduler.is_deterministic() && !ranges {
            "exact for this scheduler and these latencies".to_string()
        } else {
            format!("exact worst case over {open}")
        };
        let _ = writeln!(s, "makespan     {:>8}  [{what}; schedule re-checked]", run.makespan);
    } else {
        let _ = writeln!(s, "worst case   {:>8}  [proven, over {open}]", run.interval.to_string());
        let _ = writeln!(s, "longest run  {:>8}  [{}, latency {}; schedule re-checked]", run.makespan, run.run_scheduler, run.run_latency);
        let _ = writeln!(s, "upper end    from {} [proven]", run.upper_from);
    }
    if schedule {
        check_schedule_cells(run.warps as u64, blocks.len() as u64, run.makespan, false)?;
        let _ = write!(
            s,
            "\nschedule ({} cycles, {}, checked; `-`: waiting for a result):\n{}",
            run.makespan,
            run.run_scheduler,
            run.schedule.chart_with(&blocks.units(), Some(&run.latencies))
        );
    }
    Ok(s)
}

/// `--json`: the library's [`Simulation`], with `schedule` (every issue, 1-based) when asked.
pub fn simulation_json(blocks: &Blocks, run: &Simulation, schedule: bool) -> Result<String, InputError> {
    let mut v = serde_json::to_value(run).expect("a simulation serialises");
    if schedule {
        check_schedule_cells(run.warps as u64, blocks.len() as u64, run.makespan, true)?;
        let issues = run.schedule.issues_of_units(&blocks.units());
        v["schedule"] = serde_json::to_value(issues).expect("issues serialise");
    }
    Ok(crate::terminal::json(&v))
}

/// Refuses, before any work, a chart, JSON schedule or SVG that would be over its cap
/// even at the shortest makespan possible: one warp's instructions and shortest waits,
/// or every warp's `X` instructions at `sigma_X` per cycle.
pub fn check_sizes(blocks: &Blocks, latency: &Latencies, schedule: bool, json: bool, svg: bool) -> Result<(), InputError> {
    let warps = blocks.warps() as u64;
    let chain = blocks.len() as u64 + latency.waits_min(&blocks.units(), blocks.program.copies());
    let throughput = |u: Unit| (warps * blocks.count(u)).div_ceil(blocks.sigma(u));
    let shortest = chain.max(throughput(Unit::L)).max(throughput(Unit::C));
    if schedule {
        check_schedule_cells(warps, blocks.len() as u64, shortest, json)?;
    }
    if svg && warps * shortest > MAX_SVG_CELLS {
        return Err(InputError::option(
            "svg",
            format!("{warps} warps x at least {shortest} cycles"),
            format!("more than the {MAX_SVG_CELLS} an SVG draws; leave out --svg"),
        ));
    }
    Ok(())
}

/// The schedule as SVG: one lane per warp, each instruction a box from its issue to its
/// result (darker in its issue cycle), coloured by block.
pub fn simulation(path: &Path, blocks: &Blocks, run: &Simulation) -> Result<(), String> {
    let err = io_err(path);
    if run.warps as u64 * run.makespan > MAX_SVG_CELLS {
        return Err(format!(
            "{} warps x {} cycles is more than the {MAX_SVG_CELLS} an SVG draws; leave out --svg",
            run.warps, run.makespan
        ));
    }
    let units = blocks.units();
    let height = (80 + 22 * run.warps).min(4000);
    let root = SVGBackend::new(path, (1000, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let t_end = run.makespan as f64 + 1.0;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{} under {}, latency {}: {} cycles",
                crate::wording::shorten(&run.kernel),
                run.run_scheduler,
                run.run_latency,
                run.makespan
            ),
            ("sans-serif", 16),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(1.0..t_end, run.warps as f64..0.0)
        .map_err(|e| err(&e))?;
    chart.configure_mesh().disable_y_mesh().x_desc("cycle").y_desc("warp").draw().map_err(|e| err(&e))?;
    for (w, row) in run.schedule.cycles.iter().enumerate() {
        let c = colour(w / run.warps_per_block as usize);
        let y = w as f64;
        for (i, &t) in row.iter().enumerate() {
            let (t, done) = (t as f64, (t + run.latencies[w][i] as u64) as f64);
            let fill = if units[i] == Unit::L { c.filled() } else { c.mix(0.6).filled() };
            chart.draw_series([Rectangle::new([(t, y + 0.15), (t + 1.0, y + 0.85)], fill)]).map_err(|e| err(&e))?;
            if done > t + 1.0 {
                chart.draw_series([Rectangle::new([(t + 1.0, y + 0.35), (done, y + 0.65)], c.mix(0.2).filled())]).map_err(|e| err(&e))?;
            }
        }
    }
    root.present().map_err(|e| err(&e))
}
