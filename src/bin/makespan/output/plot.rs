//! SVG pictures: the RTA block-slot timeline and solver-convergence plots.

use gpu_makespan::bounds;
use gpu_makespan::rta::Priority;
use gpu_makespan::rta::RtaReport;
use gpu_makespan::rta::Ticks;
use gpu_makespan::Instance;
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
pub(crate) fn colour(i: usize) -> RGBColor {
    if i < PALETTE.len() {
        return PALETTE[i];
    }
    let hue = (i as f64 * 0.618_033_988_75).fract();
    let (r, g, b) = HSLColor(hue, 0.65, 0.45).rgb();
    RGBColor(r, g, b)
}

/// Most blocks a timeline SVG draws (each is two SVG elements).
pub const MAX_SVG_BLOCKS: u64 = 100_000;
/// Most kernels a timeline SVG draws.
pub const MAX_SVG_KERNELS: usize = 1_000;

/// Refuses, before any work, a timeline that would be too large to draw or to open.
pub fn check_timeline(w: &gpu_makespan::rta::Workload) -> Result<(), gpu_makespan::error::InputError> {
    let blocks: u64 = w.tasks.iter().map(|t| t.blocks).fold(0, u64::saturating_add);
    if w.tasks.len() > MAX_SVG_KERNELS || blocks > MAX_SVG_BLOCKS {
        return Err(gpu_makespan::error::InputError::option(
            "svg",
            format!("{} kernels, {blocks} blocks", w.tasks.len()),
            format!("a timeline draws at most {MAX_SVG_KERNELS} kernels and {MAX_SVG_BLOCKS} blocks; leave out the timeline"),
        ));
    }
    Ok(())
}

/// Legend entries that fit beside a timeline of `height` pixels.
const LEGEND_ROW: u32 = 18;

/// Draws the nominal run of the dispatch rules the RTA checks its bound against: one
/// band of rows per SM (a row per block resident at once), one rectangle per block with
/// a white edge (so back-to-back blocks stay apart), coloured by kernel; with copies, a
/// copy-engine row above the SMs (each copy lighter, with a black edge); each job's
/// release as a triangle under the SMs (tied releases stacked, not on top of each
/// other), each absolute deadline as a black dashed line (no kernel is black); the
/// legend, with the reported responses, in its own column on the right.
pub fn rta_timeline(path: &Path, rep: &RtaReport) -> Result<(), String> {
    let err = io_err(path);
    if rep.runs.len() as u64 > MAX_SVG_BLOCKS {
        return Err(format!(
            "the timeline has {} blocks, more than the {MAX_SVG_BLOCKS} an SVG draws; leave out the timeline",
            rep.runs.len()
        ));
    }
    let (runs, kernels) = (&rep.runs, &rep.kernels);
    let time = |t| rep.scale.to_f64(t);
    let (lanes, offsets, ce_row, rows) = rows_of(rep);
    let mut stack = std::collections::HashMap::new();
    let marks: Vec<(f64, f64, usize)> = rep
        .jobs
        .iter()
        .map(|j| {
            let k = stack.entry(j.release).or_insert(0usize);
            *k += 1;
            (time(j.release), -0.45 - 0.6 * (*k - 1) as f64, j.kernel)
        })
        .collect();
    let bottom = marks.iter().map(|m| m.1).fold(-0.45, f64::min) - 0.4;
    let t_end = runs
        .iter()
        .map(|r| time(r.end))
        .chain(rep.copies.iter().map(|c| time(c.end)))
        .chain(rep.slices.iter().map(|c| time(c.end)))
        .chain(rep.jobs.iter().filter_map(|j| j.deadline.map(time)))
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let height = (140 + (28.0 * (rows - bottom).min(60.0)) as u32).max(80 + LEGEND_ROW * (kernels.len().min(40) as u32));
    let root = SVGBackend::new(path, (1200, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (left, right) = root.split_horizontally(930);
    let mut chart = ChartBuilder::on(&left)
        .caption(format!("Nominal run per SM (launch order as given), times in {}", rep.unit), ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..t_end * 1.02, bottom..rows + 0.5)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc(format!("time ({})", rep.unit))
        .y_desc(if ce_row.is_some() {
            "SMs, a row per resident block; copy engine or time slices on top (releases: triangles below)"
        } else {
            "SMs, a row per resident block (releases: triangles below)"
        })
        .y_label_formatter(&|_| String::new())
        .disable_y_mesh()
        .draw()
        .map_err(|e| err(&e))?;
    let label = ("sans-serif", 13).into_font();
    for (sm, (&o, &l)) in offsets.iter().zip(&lanes).enumerate() {
        chart
            .draw_series([Rectangle::new([(0.0, o), (t_end * 1.02, o + l as f64)], RGBColor(245, 245, 245).filled())])
            .map_err(|e| err(&e))?;
        chart.draw_series([Text::new(format!("SM {sm}"), (0.0, o + l as f64 + 0.45), label.clone())]).map_err(|e| err(&e))?;
    }
    if let Some(y) = ce_row {
        extra_row(&mut chart, rep, (y, t_end), &label).map_err(|e| err(&e))?;
    }
    for (ki, _) in kernels.iter().enumerate() {
        let c = colour(ki);
        let boxes = runs.iter().filter(|r| rep.jobs[r.job].kernel == ki).map(|r| {
            let y = offsets[r.sm] + r.lane as f64;
            [(time(r.start), y + 0.08), (time(r.end), y + 0.92)]
        });
        chart.draw_series(boxes.clone().map(|b| Rectangle::new(b, c.mix(0.85).filled()))).map_err(|e| err(&e))?;
        chart.draw_series(boxes.map(|b| Rectangle::new(b, WHITE.stroke_width(1)))).map_err(|e| err(&e))?;
    }
    chart.draw_series(marks.iter().map(|&(t, y, k)| TriangleMarker::new((t, y), 6, colour(k).filled()))).map_err(|e| err(&e))?;
    for at in rep.jobs.iter().filter_map(|j| j.deadline.map(time)) {
        chart.draw_series(DashedLineSeries::new(vec![(at, bottom), (at, rows + 0.5)], 6, 4, BLACK.stroke_width(2))).map_err(|e| err(&e))?;
    }
    legend(&right, rep).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// The timeline's rows: per SM its lanes (a row per block resident at once) and the
/// height its band starts at, the copy engine's row (when there are copies, above the
/// SMs), and the rows in all.
fn rows_of(rep: &RtaReport) -> (Vec<usize>, Vec<f64>, Option<f64>, f64) {
    let mut lanes = vec![1usize; rep.sms.max(1)];
    for r in &rep.runs {
        lanes[r.sm] = lanes[r.sm].max(r.lane + 1);
    }
    let offsets: Vec<f64> = lanes.iter().scan(0.0, |o, &l| Some(std::mem::replace(o, *o + l as f64 + 0.5))).collect();
    let sm_rows = offsets.last().copied().unwrap_or(0.0) + *lanes.last().unwrap_or(&1) as f64;
    let ce_row = (!rep.copies.is_empty() || !rep.slices.is_empty()).then_some(sm_rows + 0.5);
    (lanes, offsets, ce_row, ce_row.map_or(sm_rows, |y| y + 1.0))
}

/// A row above the SMs at height `y`, the copy engine's (or with time slicing, which
/// job's process held the GPU): each copy (or slice) of the nominal run, lighter than the
/// blocks and with a black edge, in its kernel's colour.
fn extra_row<DB: DrawingBackend>(
    chart: &mut ChartContext<DB, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>,
    rep: &RtaReport,
    (y, t_end): (f64, f64),
    label: &FontDesc,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let time = |t| rep.scale.to_f64(t);
    let (name, spans): (&str, Vec<(usize, Ticks, Ticks)>) = if rep.slices.is_empty() {
        ("copy engine", rep.copies.iter().map(|c| (c.job, c.start, c.end)).collect())
    } else {
        ("GPU time slices (process holding the GPU)", rep.slices.iter().map(|c| (c.job, c.start, c.end)).collect())
    };
    chart.draw_series([Rectangle::new([(0.0, y), (t_end * 1.02, y + 1.0)], RGBColor(235, 235, 245).filled())])?;
    chart.draw_series([Text::new(name.to_string(), (0.0, y + 1.45), label.clone())])?;
    let boxes = spans.iter().map(|&(job, start, end)| (colour(rep.jobs[job].kernel), [(time(start), y + 0.15), (time(end), y + 0.85)]));
    chart.draw_series(boxes.clone().map(|(c, b)| Rectangle::new(b, c.mix(0.45).filled())))?;
    chart.draw_series(boxes.map(|(_, b)| Rectangle::new(b, BLACK.stroke_width(1))))?;
    Ok(())
}

/// The timeline's legend: a swatch and `name [stream, high]: R (D)` per kernel (the
/// stream if it has one, `high` for a high-priority stream), as many as fit, then how
/// many more there are.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    rep: &RtaReport,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let rows = ((area.dim_in_pixel().1.saturating_sub(60)) / LEGEND_ROW) as usize;
    let style = ("sans-serif", 13).into_font();
    area.draw(&Text::new("kernel: response (deadline)", (10, 40), style.clone()))?;
    let shown = if rep.kernels.len() > rows { rows.saturating_sub(1) } else { rep.kernels.len() };
    for (i, k) in rep.kernels.iter().take(shown).enumerate() {
        let y = 60 + LEGEND_ROW as i32 * i as i32;
        area.draw(&Rectangle::new([(10, y), (24, y + 12)], colour(i).filled()))?;
        let d = k.deadline.map_or("-".to_string(), |d| k.exact(d));
        let queue = match (&k.stream, k.priority) {
            (None, Priority::Low) => String::new(),
            (None, Priority::High) => " [high]".into(),
            (Some(s), Priority::Low) => format!(" [{s}]"),
            (Some(s), Priority::High) => format!(" [{s}, high]"),
        };
        area.draw(&Text::new(format!("{}{queue}: {} ({d})", k.name, k.exact(k.response)), (30, y), style.clone()))?;
    }
    if shown < rep.kernels.len() {
        let y = 60 + LEGEND_ROW as i32 * shown as i32;
        area.draw(&Text::new(format!("... and {} more", rep.kernels.len() - shown), (10, y), style))?;
    }
    Ok(())
}

pub(crate) fn io_err(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> String + '_ {
    move |e| format!("cannot write {}: {e}", path.display())
}

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Swatch {
    /// A solid line with a filled marker.
    Line,
    /// A dashed line.
    Dashed,
    /// A hollow marker (points not proven within the time limit).
    Hollow,
}

/// A legend in its own column (so it covers no data): one row per entry.
fn legend_column<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBColor, Swatch)],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = ("sans-serif", 13).into_font();
    for (i, (label, c, swatch)) in entries.iter().enumerate() {
        let y = 50 + 22 * i as i32;
        match swatch {
            Swatch::Line => {
                area.draw(&PathElement::new(vec![(8, y), (40, y)], c.stroke_width(2)))?;
                area.draw(&Circle::new((24, y), 4, c.filled()))?;
            }
            Swatch::Dashed => {
                for x in [8, 20, 32] {
                    area.draw(&PathElement::new(vec![(x, y), (x + 7, y)], c.stroke_width(2)))?;
                }
            }
            Swatch::Hollow => area.draw(&Circle::new((24, y), 4, c.stroke_width(2)))?,
        }
        area.draw(&Text::new(label.clone(), (48, y - 7), style.clone()))?;
    }
    Ok(())
}

/// `x` axis labels: integers only.
fn integer_label(v: &f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{}", *v as i64)
    } else {
        String::new()
    }
}

/// Draws `points` as a line with markers: filled where `exact`, hollow where not.
fn marked_series<DB: DrawingBackend, X: Ranged<ValueType = f64>, Y: Ranged<ValueType = f64>>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: &[(f64, f64, bool)],
    c: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    chart.draw_series(LineSeries::new(points.iter().map(|&(x, y, _)| (x, y)), c.stroke_width(2)))?;
    chart.draw_series(points.iter().map(|&(x, y, exact)| Circle::new((x, y), 4, if exact { c.filled() } else { c.stroke_width(2) })))?;
    Ok(())
}

/// Figs. 6-7 for `inst`: `T^(W,x)` and `T_approx(x)` against `x` with point markers
/// (hollow where `T^(x)` was not proven within the time limit), the pessimistic bound,
/// the safe horizon and (when known) the exact `T^(W)` as horizontal lines (top);
/// seconds to compute `T^(x)`, optionally on a log axis (bottom). The legend has its own
/// column; the title gives the instance as the user gave it.
pub fn convergence(path: &Path, inst: &Instance, run: &gpu_makespan::experiments::ConvergeRun, log_time: bool) -> Result<(), String> {
    let err = io_err(path);
    let rows = &run.rows;
    let (pessimistic, safe) = (bounds::pessimistic(inst), bounds::safe_horizon(inst));
    let root = SVGBackend::new(path, (1150, 800)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plots, side) = root.split_horizontally(850);
    let (top, bottom) = plots.split_vertically(520);
    let x_max = rows.len().max(1) as f64;
    let values = rows.iter().flat_map(|r| [r.scaled, r.estimate]).chain([pessimistic, safe]).chain(run.exact_makespan);
    let (lo, hi) = values.fold((u64::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo.min(hi)) as f64 * 0.05).max(1.0);
    let mut c = ChartBuilder::on(&top)
        .caption(format!("convergence: {}", inst.given()), ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .build_cartesian_2d(0.5..x_max + 0.5, (lo as f64 - pad)..(hi as f64 + pad))
        .map_err(|e| err(&e))?;
    c.configure_mesh()
        .x_desc("x")
        .y_desc("cycles")
        .x_label_formatter(&integer_label)
        .y_label_formatter(&integer_label)
        .draw()
        .map_err(|e| err(&e))?;
    let pts =
        |f: fn(&gpu_makespan::experiments::ConvergeRow) -> u64| rows.iter().map(|r| (r.x as f64, f(r) as f64, r.exact)).collect::<Vec<_>>();
    marked_series(&mut c, &pts(|r| r.scaled), PALETTE[0]).map_err(|e| err(&e))?;
    marked_series(&mut c, &pts(|r| r.estimate), PALETTE[1]).map_err(|e| err(&e))?;
    let mut lines =
        vec![(pessimistic, PALETTE[3], "pessimistic, eq. 5".to_string()), (safe, PALETTE[2], "safe horizon (proven)".to_string())];
    if let Some(t) = run.exact_makespan {
        lines.push((t, RGBColor(0, 0, 0), format!("T^(W) = {t} (exact)")));
    }
    for (v, color, _) in &lines {
        c.draw_series(DashedLineSeries::new(vec![(0.5, *v as f64), (x_max + 0.5, *v as f64)], 8, 5, color.stroke_width(2)))
            .map_err(|e| err(&e))?;
    }
    let mut b =
        time_chart(&bottom, 0.5..x_max + 0.5, rows.iter().map(|r| r.seconds), log_time, ("x", "seconds for T^(x)")).map_err(|e| err(&e))?;
    let secs: Vec<(f64, f64, bool)> = rows.iter().map(|r| (r.x as f64, time_value(r.seconds, log_time), r.exact)).collect();
    marked_series(&mut b, &secs, PALETTE[4]).map_err(|e| err(&e))?;
    let mut entries = vec![
        ("T^(W,x) = ceil(W/x) T^(x)".to_string(), PALETTE[0], Swatch::Line),
        ("T_approx(x): estimate, not a bound".to_string(), PALETTE[1], Swatch::Line),
    ];
    entries.extend(lines.into_iter().map(|(_, c, l)| (l, c, Swatch::Dashed)));
    entries.push(("seconds for T^(x) (bottom)".to_string(), PALETTE[4], Swatch::Line));
    if rows.iter().any(|r| !r.exact) {
        entries.push(("hollow: T^(x) not proven in time".to_string(), RGBColor(90, 90, 90), Swatch::Hollow));
    }
    legend_column(&side, &entries).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// A chart of seconds against an integer axis spanning `x_range`. With `log_time` the
/// values are drawn as `log10(seconds)` and the axis labelled in seconds, so one chart
/// type serves both scales; use [`time_value`] for the points.
fn time_chart<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    x_range: std::ops::Range<f64>,
    seconds: impl Iterator<Item = f64>,
    log_time: bool,
    (x_label, label): (&str, &str),
) -> Result<
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>>,
    DrawingAreaErrorKind<std::io::Error>,
> {
    let values: Vec<f64> = seconds.map(|s| time_value(s, log_time)).collect();
    let (lo, hi) = values.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if values.is_empty() { (0.0, 1.0) } else { (lo, hi) };
    let pad = ((hi - lo) * 0.1).max(if log_time { 0.2 } else { 1e-3 });
    let lo = if log_time { lo - pad } else { 0.0 };
    let mut b = ChartBuilder::on(area).margin(10).x_label_area_size(30).y_label_area_size(70).build_cartesian_2d(x_range, lo..hi + pad)?;
    let seconds_label = |v: &f64| {
        let s = if log_time { 10f64.powf(*v) } else { *v };
        format!("{}", (s * 1e4).round() / 1e4)
    };
    b.configure_mesh()
        .x_desc(x_label)
        .y_desc(if log_time { format!("{label} (log scale)") } else { label.to_string() })
        .x_label_formatter(&integer_label)
        .y_label_formatter(&seconds_label)
        .draw()?;
    Ok(b)
}

/// A time as drawn by [`time_chart`].
fn time_value(seconds: f64, log_time: bool) -> f64 {
    if log_time {
        seconds.max(1e-6).log10()
    } else {
        seconds
    }
}

/// Fig. 5: ILP seconds of the short and long constraint forms against `W` for `inst`'s
/// kernel, with point markers (hollow where the solve hit its time limit), optionally on a
/// log axis; the legend has its own column.
pub fn constraint_forms(path: &Path, inst: &Instance, rows: &[gpu_makespan::experiments::FormRow], log_time: bool) -> Result<(), String> {
    let err = io_err(path);
    let root = SVGBackend::new(path, (1150, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plot, side) = root.split_horizontally(850);
    let (title, body) = plot.split_vertically(40);
    let given = inst.given();
    let kernel = given.rsplit_once(", W =").map_or(given.as_str(), |(k, _)| k);
    title
        .draw(&Text::new(format!("ILP time, short vs long constraints: {kernel}"), (80, 12), ("sans-serif", 18).into_font()))
        .map_err(|e| err(&e))?;
    let w_max = rows.len().max(1) as f64;
    let mut c = time_chart(
        &body,
        0.5..w_max + 0.5,
        rows.iter().flat_map(|r| [r.short_seconds, r.long_seconds]),
        log_time,
        ("W (warps)", "ILP seconds"),
    )
    .map_err(|e| err(&e))?;
    let short: Vec<(f64, f64, bool)> =
        rows.iter().map(|r| (r.warps as f64, time_value(r.short_seconds, log_time), r.short_optimal)).collect();
    let long: Vec<(f64, f64, bool)> = rows.iter().map(|r| (r.warps as f64, time_value(r.long_seconds, log_time), r.long_optimal)).collect();
    marked_series(&mut c, &short, PALETTE[0]).map_err(|e| err(&e))?;
    marked_series(&mut c, &long, PALETTE[1]).map_err(|e| err(&e))?;
    let mut entries = vec![
        ("short constraints (34, 37)".to_string(), PALETTE[0], Swatch::Line),
        ("long constraints (33, 36)".to_string(), PALETTE[1], Swatch::Line),
    ];
    if rows.iter().any(|r| !r.short_optimal || !r.long_optimal) {
        entries.push(("hollow: time limit reached".to_string(), RGBColor(90, 90, 90), Swatch::Hollow));
    }
    legend_column(&side, &entries).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// One line of a sweep plot: its label and its rows, ordered along the x axis.
struct SweepSeries<'a> {
    label: String,
    rows: Vec<&'a crate::sweep::report::Row>,
}

/// The axis value of a sweep row: `x` for approx rows, `W` otherwise.
fn sweep_axis(r: &crate::sweep::report::Row) -> f64 {
    if r.command == "approx" {
        r.x.unwrap_or(0) as f64
    } else {
        r.warps as f64
    }
}

/// The name of the swept axis of `command`'s rows (see [`sweep_axis`]).
fn sweep_axis_name(command: &str) -> &'static str {
    if command == "approx" {
        "x"
    } else {
        "W (warps)"
    }
}

/// The rows of one command (without errors) grouped into series (every parameter but
/// the axis one).
fn sweep_series<'a>(rows: &[&'a crate::sweep::report::Row]) -> Vec<SweepSeries<'a>> {
    let mut series: Vec<SweepSeries<'a>> = Vec::new();
    for r in rows {
        let kernel =
            if r.kernel.chars().count() > 18 { format!("{}..", r.kernel.chars().take(16).collect::<String>()) } else { r.kernel.clone() };
        let mut label = format!("{} {kernel} s={}/{}", r.command, r.sigma_l, r.sigma_c);
        if r.command != "bound" {
            label.push_str(&format!(" {}", r.method));
        }
        if r.command == "approx" {
            label.push_str(&format!(" W={}", r.warps));
        }
        match series.iter_mut().find(|s| s.label == label) {
            Some(s) => s.rows.push(r),
            None => series.push(SweepSeries { label, rows: vec![r] }),
        }
    }
    for s in &mut series {
        s.rows.sort_by(|a, b| sweep_axis(a).total_cmp(&sweep_axis(b)));
    }
    series
}

/// Most legend entries a sweep plot lists.
const SWEEP_LEGEND: usize = 30;

/// The `sweep report --svg` picture. Per command in the results: the values against the
/// swept axis (`W` for solve and bound, `x` for approx) - the proven upper bound as a
/// line with markers (filled where exact) and the proven lower bound dashed, or for
/// approx the estimate (NOT a bound) as the line and the proven upper bound dashed - and,
/// for commands that solve, the seconds per job on a log axis. One colour per series
/// (every other parameter); the legend has its own column.
pub fn sweep(path: &Path, rows: &[crate::sweep::report::Row]) -> Result<(), String> {
    let err = io_err(path);
    let groups: Vec<(&str, Vec<&crate::sweep::report::Row>)> = ["solve", "approx", "bound"]
        .into_iter()
        .map(|c| (c, rows.iter().filter(|r| r.command == c && r.error.is_none()).collect::<Vec<_>>()))
        .filter(|(_, rs)| !rs.is_empty())
        .collect();
    let panels: usize = groups.iter().map(|(c, _)| if *c == "bound" { 1 } else { 2 }).sum::<usize>().max(1);
    let root = SVGBackend::new(path, (1200, 40 + 330 * panels as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plots, side) = root.split_horizontally(850);
    let areas = plots.split_evenly((panels, 1));
    let mut entries = Vec::new();
    let mut next = 0;
    let mut colour_index = 0;
    for (command, rs) in &groups {
        let series = sweep_series(rs);
        let colours: Vec<RGBColor> = (0..series.len()).map(|i| colour(colour_index + i)).collect();
        colour_index += series.len();
        sweep_values(&areas[next], command, &series, &colours).map_err(|e| err(&e))?;
        next += 1;
        if *command != "bound" {
            sweep_times(&areas[next], command, &series, &colours).map_err(|e| err(&e))?;
            next += 1;
        }
        entries.extend(series.iter().zip(&colours).map(|(s, c)| (s.label.clone(), *c, Swatch::Line)));
    }
    if entries.len() > SWEEP_LEGEND {
        let more = entries.len() - SWEEP_LEGEND + 1;
        entries.truncate(SWEEP_LEGEND - 1);
        entries.push((format!("... and {more} more series"), RGBColor(90, 90, 90), Swatch::Hollow));
    }
    entries.push(("dashed: the other proven bound".to_string(), RGBColor(90, 90, 90), Swatch::Dashed));
    entries.push(("hollow: not exact".to_string(), RGBColor(90, 90, 90), Swatch::Hollow));
    legend_column(&side, &entries).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Range of the swept axis over `series`, padded by half a step.
fn sweep_x_range(series: &[SweepSeries]) -> std::ops::Range<f64> {
    let xs = series.iter().flat_map(|s| s.rows.iter().map(|r| sweep_axis(r)));
    let (lo, hi) = xs.fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
    if lo > hi {
        0.5..1.5
    } else {
        (lo - 0.5).max(0.0)..hi + 0.5
    }
}

fn sweep_values<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    command: &str,
    series: &[SweepSeries],
    colours: &[RGBColor],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let main = |r: &crate::sweep::report::Row| if command == "approx" { r.estimate } else { r.upper };
    let other = |r: &crate::sweep::report::Row| if command == "approx" { r.upper } else { r.lower };
    let values = series.iter().flat_map(|s| s.rows.iter().flat_map(|r| [main(r), other(r)])).flatten();
    let (lo, hi) = values.fold((u64::MAX, 0), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if lo > hi { (0, 1) } else { (lo, hi) };
    let pad = ((hi - lo) as f64 * 0.05).max(1.0);
    let caption = match command {
        "approx" => "approx: estimate T_approx(x) (NOT a bound), proven upper bound dashed",
        "bound" => "bound: safe horizon (proven upper), proven lower bound dashed",
        _ => "solve: proven upper bound, proven lower bound dashed",
    };
    let mut c = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(70)
        .build_cartesian_2d(sweep_x_range(series), (lo as f64 - pad)..(hi as f64 + pad))?;
    c.configure_mesh()
        .x_desc(sweep_axis_name(command))
        .y_desc("cycles")
        .x_label_formatter(&integer_label)
        .y_label_formatter(&integer_label)
        .draw()?;
    for (s, &col) in series.iter().zip(colours) {
        let pts: Vec<(f64, f64, bool)> = s.rows.iter().filter_map(|r| main(r).map(|v| (sweep_axis(r), v as f64, r.exact))).collect();
        marked_series(&mut c, &pts, col)?;
        let dashed: Vec<(f64, f64)> = s.rows.iter().filter_map(|r| other(r).map(|v| (sweep_axis(r), v as f64))).collect();
        c.draw_series(DashedLineSeries::new(dashed, 6, 4, col.stroke_width(1)))?;
    }
    Ok(())
}

fn sweep_times(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    command: &str,
    series: &[SweepSeries],
    colours: &[RGBColor],
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let seconds = series.iter().flat_map(|s| s.rows.iter().filter_map(|r| r.seconds));
    let mut c = time_chart(area, sweep_x_range(series), seconds, true, (sweep_axis_name(command), &format!("{command}: seconds per job")))?;
    for (s, &col) in series.iter().zip(colours) {
        let pts: Vec<(f64, f64, bool)> =
            s.rows.iter().filter_map(|r| r.seconds.map(|t| (sweep_axis(r), time_value(t, true), r.exact))).collect();
        marked_series(&mut c, &pts, col)?;
    }
    Ok(())
}

/// Each chain's worst-case reaction as a timeline (`makespan system --svg`): a row per
/// hop, first the longest wait for the task's next release (light), then its worst
/// response (implicit: `R+`; LET: its period), the hops one after the other, so that the
/// last bar ends at the chain's worst reaction bound. Times in ms.
pub fn chain_timeline(path: &Path, rep: &gpu_makespan::system::SystemReport) -> Result<(), String> {
    let err = io_err(path);
    let chains: Vec<_> = rep.chains.iter().filter(|c| !c.worst_hops.is_empty()).collect();
    let rows: usize = chains.iter().map(|c| c.worst_hops.len() + 1).sum::<usize>().max(1);
    let end = chains
        .iter()
        .map(|c| c.worst_hops.iter().map(|&(_, w, r)| gpu_makespan::system::ms(w + r)).sum::<f64>())
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let root = SVGBackend::new(path, (1100, 120 + 26 * rows as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    // Labels go in the y-label area (not at negative times); row k spans [-k, -k + 1],
    // its bar the middle 70 % of it, its label centred on it.
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "Worst-case reaction of each chain ({:?}): wait for release, then response{}",
                rep.communication,
                match rep.verdict {
                    gpu_makespan::rta::Verdict::Optimistic => " (NOT proven: see the report's verdict)",
                    gpu_makespan::rta::Verdict::Proven => "",
                }
            ),
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(30)
        .y_label_area_size(240)
        .build_cartesian_2d(0.0..end * 1.02, -(rows as f64) + 1.0..1.0)
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc("time (ms)").y_label_formatter(&|_| String::new()).disable_y_mesh().draw().map_err(|e| err(&e))?;
    let font = ("sans-serif", 13).into_font();
    let mut labels: Vec<(String, f64, i32)> = Vec::new();
    let mut row = 0.0;
    for (ci, c) in chains.iter().enumerate() {
        labels.push((format!("chain {}", c.name), row, 0));
        let mut at = 0.0;
        for (name, wait, response) in &c.worst_hops {
            row -= 1.0;
            let (w, r) = (gpu_makespan::system::ms(*wait), gpu_makespan::system::ms(*response));
            labels.push((name.clone(), row, 12));
            chart
                .draw_series([Rectangle::new([(at, row + 0.15), (at + w, row + 0.85)], colour(ci).mix(0.25).filled())])
                .map_err(|e| err(&e))?;
            chart
                .draw_series([Rectangle::new([(at + w, row + 0.15), (at + w + r, row + 0.85)], colour(ci).filled())])
                .map_err(|e| err(&e))?;
            at += w + r;
        }
        row -= 1.0;
    }
    for (text, row, indent) in labels {
        let (_, y) = chart.backend_coord(&(0.0, row + 0.5));
        root.draw(&Text::new(text, (20 + indent, y - 7), font.clone())).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}
