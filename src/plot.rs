//! SVG pictures: the RTA block-slot timeline and solver-convergence plots.

use crate::rta::{BlockRun, Kernel, KernelResult};
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
pub fn rta_timeline(path: &Path, kernels: &[Kernel], results: &[KernelResult], runs: &[BlockRun], g_max: u64) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let t_end = runs.iter().map(|r| r.end).fold(0.0, f64::max).max(kernels.iter().map(|k| k.release + k.period).fold(0.0, f64::max));
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
        let label = format!("{} (R = {}, T = {})", k.name, results[ki].response, k.period);
        chart
            .draw_series(runs.iter().filter(|r| r.kernel == ki).map(|r| {
                Rectangle::new([(r.start, r.slot as f64 + 0.1), (r.end, r.slot as f64 + 0.9)], color.mix(0.8).filled())
            }))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
        let d = k.release + k.period;
        chart
            .draw_series(DashedLineSeries::new(vec![(d, 0.0), (d, g_max as f64)], 6, 4, color.stroke_width(2)))
            .map_err(|e| err(&e))?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}
