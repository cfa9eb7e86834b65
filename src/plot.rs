//! SVG pictures: the RTA block-slot timeline and solver-convergence plots.

use crate::bounds;
use crate::instance::Instance;
use crate::rta::RtaReport;
use plotters::prelude::*;
use std::path::Path;

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Draws the block timeline: one row per slot, one rectangle per block, coloured by
/// kernel, with each kernel's absolute deadline as a dashed line.
pub fn rta_timeline(path: &Path, rep: &RtaReport) -> Result<(), String> {
    let err = io_err(path);
    let (runs, g_max, kernels) = (&rep.runs, rep.g_max, &rep.kernels);
    let t_end = runs.iter().map(|r| r.end).fold(0.0, f64::max).max(kernels.iter().map(|k| k.release + k.deadline).fold(0.0, f64::max));
    let root = SVGBackend::new(path, (1000, 120 + 28 * g_max.min(64) as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption("GPU block slots (FIFO list schedule)", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..t_end * 1.02, 0.0..g_max as f64)
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc("time").y_desc("slot").disable_y_mesh().draw().map_err(|e| err(&e))?;
    for (ki, k) in kernels.iter().enumerate() {
        let color = PALETTE[ki % PALETTE.len()];
        let label = format!("{} (R = {}, T = {})", k.name, k.response, k.deadline);
        chart
            .draw_series(runs.iter().filter(|r| r.kernel == ki).map(|r| {
                Rectangle::new([(r.start, r.slot as f64 + 0.1), (r.end, r.slot as f64 + 0.9)], color.mix(0.8).filled())
            }))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        let d = k.release + k.deadline;
        chart
            .draw_series(DashedLineSeries::new(vec![(d, 0.0), (d, g_max as f64)], 6, 4, color.stroke_width(2)))
            .map_err(|e| err(&e))?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

fn io_err(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> String + '_ {
    move |e| format!("cannot write {}: {e}", path.display())
}

/// Figs. 6-7 for `inst`: `T^(W,x)` and `T_approx(x)` against `x`, the pessimistic bound
/// and the safe horizon dashed (top); seconds to compute `T^(x)` (bottom).
pub fn convergence(path: &Path, inst: &Instance, rows: &[crate::convergence::ConvergeRow]) -> Result<(), String> {
    let err = io_err(path);
    let title = &format!("convergence: {}, W = {}, sigma_L = {}, sigma_C = {}", inst.kernel, inst.warps, inst.sigma_l, inst.sigma_c);
    let (pessimistic, safe) = (bounds::pessimistic(inst), bounds::safe_horizon(inst));
    let root = SVGBackend::new(path, (900, 800)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (top, bottom) = root.split_vertically(520);
    let x_max = rows.len().max(1) as u32;
    let y_hi = rows.iter().map(|r| r.scaled).chain([pessimistic, safe]).max().unwrap_or(1) as f64 * 1.05;
    let y_lo = rows.iter().map(|r| r.estimate).min().unwrap_or(0) as f64 * 0.95;
    let mut c = ChartBuilder::on(&top)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5..x_max as f64 + 0.5, y_lo..y_hi)
        .map_err(|e| err(&e))?;
    c.configure_mesh().x_desc("x").y_desc("cycles").draw().map_err(|e| err(&e))?;
    let pts = |f: fn(&crate::convergence::ConvergeRow) -> u64| rows.iter().map(move |r| (r.x as f64, f(r) as f64)).collect::<Vec<_>>();
    c.draw_series(LineSeries::new(pts(|r| r.scaled), PALETTE[0].stroke_width(2)))
        .map_err(|e| err(&e))?
        .label("T^(W,x) = ceil(W/x) T^(x)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], PALETTE[0]));
    c.draw_series(LineSeries::new(pts(|r| r.estimate), PALETTE[1].stroke_width(3)))
        .map_err(|e| err(&e))?
        .label("T_approx(x) (estimate, not a bound)")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], PALETTE[1]));
    for (v, color, label) in [(pessimistic, PALETTE[3], "pessimistic, eq. 5"), (safe, PALETTE[2], "safe horizon (proven)")] {
        c.draw_series(DashedLineSeries::new(vec![(0.5, v as f64), (x_max as f64 + 0.5, v as f64)], 8, 5, color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    c.configure_series_labels().position(SeriesLabelPosition::UpperRight).background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| err(&e))?;
    let t_hi = rows.iter().map(|r| r.seconds).fold(1e-6, f64::max) * 1.1;
    let mut b = ChartBuilder::on(&bottom)
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5..x_max as f64 + 0.5, 0.0..t_hi)
        .map_err(|e| err(&e))?;
    b.configure_mesh().x_desc("x").y_desc("seconds for T^(x)").draw().map_err(|e| err(&e))?;
    b.draw_series(LineSeries::new(rows.iter().map(|r| (r.x as f64, r.seconds)), PALETTE[4].stroke_width(2))).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Fig. 5: ILP seconds of the short and long constraint forms against `W`, for `inst`'s kernel.
pub fn constraint_forms(path: &Path, inst: &Instance, rows: &[crate::convergence::FormRow]) -> Result<(), String> {
    let err = io_err(path);
    let title = &format!("ILP time, short vs long constraints: {}, sigma_L = {}, sigma_C = {}", inst.kernel, inst.sigma_l, inst.sigma_c);
    let root = SVGBackend::new(path, (900, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let w_max = rows.len().max(1) as f64;
    let t_hi = rows.iter().flat_map(|r| [r.short_seconds, r.long_seconds]).fold(1e-6, f64::max) * 1.1;
    let mut c = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(60)
        .build_cartesian_2d(0.5..w_max + 0.5, 0.0..t_hi)
        .map_err(|e| err(&e))?;
    c.configure_mesh().x_desc("W (warps)").y_desc("ILP seconds").draw().map_err(|e| err(&e))?;
    for (color, label, f) in [
        (PALETTE[0], "short constraints (34, 37)", (|r: &crate::convergence::FormRow| r.short_seconds) as fn(&_) -> f64),
        (PALETTE[1], "long constraints (33, 36)", |r| r.long_seconds),
    ] {
        c.draw_series(LineSeries::new(rows.iter().map(|r| (r.warps as f64, f(r))), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    c.configure_series_labels().position(SeriesLabelPosition::UpperLeft).background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
