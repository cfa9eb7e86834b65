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

/// Colour of series `i`: the 8 colours of the palette, then evenly spread hues.
fn colour(i: usize) -> RGBColor {
    if i < PALETTE.len() {
        return PALETTE[i];
    }
    let hue = (i as f64 * 0.618_033_988_75).fract();
    let (r, g, b) = HSLColor(hue, 0.65, 0.45).rgb();
    RGBColor(r, g, b)
}

/// Legend entries that fit beside a timeline of `height` pixels.
const LEGEND_ROW: u32 = 18;

/// Draws the RTA's block timeline (the list schedule the responses come from): one row
/// per slot, one rectangle per block with a white edge (so back-to-back blocks stay
/// apart), coloured by kernel; each kernel's release as a triangle under the slots and
/// its absolute deadline as a dashed line; the legend in its own column on the right.
pub fn rta_timeline(path: &Path, rep: &RtaReport) -> Result<(), String> {
    let err = io_err(path);
    let (runs, g_max, kernels) = (&rep.runs, rep.g_max, &rep.kernels);
    let time = |t| rep.scale.to_f64(t);
    let t_end = runs
        .iter()
        .map(|r| time(r.end))
        .chain(kernels.iter().map(|k| k.release + k.deadline.unwrap_or(0.0)))
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let height = (140 + 28 * g_max.min(48) as u32).max(80 + LEGEND_ROW * (kernels.len().min(40) as u32));
    let root = SVGBackend::new(path, (1200, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (left, right) = root.split_horizontally(930);
    let mut chart = ChartBuilder::on(&left)
        .caption(format!("GPU block slots (FIFO list schedule), times in {}", rep.unit), ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..t_end * 1.02, -0.8..g_max as f64)
        .map_err(|e| err(&e))?;
    let slot_label = |v: &f64| if *v >= 0.0 && v.fract() == 0.0 && *v < g_max as f64 { format!("{}", *v as i64) } else { String::new() };
    chart
        .configure_mesh()
        .x_desc(format!("time ({})", rep.unit))
        .y_desc("slot (releases: triangles below)")
        .y_label_formatter(&slot_label)
        .disable_y_mesh()
        .draw()
        .map_err(|e| err(&e))?;
    for (ki, k) in kernels.iter().enumerate() {
        let c = colour(ki);
        let boxes = runs.iter().filter(|r| r.kernel == ki).map(|r| [(time(r.start), r.slot as f64 + 0.08), (time(r.end), r.slot as f64 + 0.92)]);
        chart.draw_series(boxes.clone().map(|b| Rectangle::new(b, c.mix(0.85).filled()))).map_err(|e| err(&e))?;
        chart.draw_series(boxes.map(|b| Rectangle::new(b, WHITE.stroke_width(1)))).map_err(|e| err(&e))?;
        chart.draw_series([TriangleMarker::new((k.release, -0.45), 6, c.filled())]).map_err(|e| err(&e))?;
        if let Some(d) = k.deadline {
            let at = k.release + d;
            chart.draw_series(DashedLineSeries::new(vec![(at, -0.8), (at, g_max as f64)], 6, 4, c.stroke_width(2))).map_err(|e| err(&e))?;
        }
    }
    legend(&right, rep).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// The timeline's legend: a swatch and `name: R = ..., D = ...` per kernel, as many as
/// fit, then how many more there are.
fn legend<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>, rep: &RtaReport) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let rows = ((area.dim_in_pixel().1.saturating_sub(60)) / LEGEND_ROW) as usize;
    let style = ("sans-serif", 13).into_font();
    area.draw(&Text::new("kernel: response (deadline)", (10, 40), style.clone()))?;
    let shown = if rep.kernels.len() > rows { rows.saturating_sub(1) } else { rep.kernels.len() };
    for (i, k) in rep.kernels.iter().take(shown).enumerate() {
        let y = 60 + LEGEND_ROW as i32 * i as i32;
        area.draw(&Rectangle::new([(10, y), (24, y + 12)], colour(i).filled()))?;
        let d = k.deadline.map_or("-".to_string(), |d| d.to_string());
        area.draw(&Text::new(format!("{}: {} ({d})", k.name, k.response_exact), (30, y), style.clone()))?;
    }
    if shown < rep.kernels.len() {
        let y = 60 + LEGEND_ROW as i32 * shown as i32;
        area.draw(&Text::new(format!("... and {} more", rep.kernels.len() - shown), (10, y), style))?;
    }
    Ok(())
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
