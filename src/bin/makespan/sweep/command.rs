//! `makespan sweep`: run, merge, report.

use crate::args::{SweepAction, SweepCli};
use crate::files::write_text;
use crate::output::plot;
use crate::terminal::{out, pool, prepare, svg, Failure, Progress};
use gpu_makespan::StopFlag;
use std::path::{Path, PathBuf};

pub(crate) fn sweep(cli: SweepCli, progress: &Progress, stop: &StopFlag) -> Result<(), Failure> {
    match cli.action {
        Some(SweepAction::Merge { files, out: path }) => sweep_merge(&files, &path, progress),
        Some(SweepAction::Report { files, csv, svg }) => sweep_report(&files, csv, svg, progress),
        None => sweep_run(cli, progress, stop),
    }
}

/// `makespan sweep SPEC --out FILE ...`: runs the shard's jobs not yet in FILE. After an
/// interrupt no job starts; the jobs running finish and are recorded.
pub(crate) fn sweep_run(cli: SweepCli, progress: &Progress, stop: &StopFlag) -> Result<(), Failure> {
    use crate::sweep::{run, Shard, Spec};
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
    let _lock = run::lock(&out_path)?;
    let resumed = run::open(&out_path, cli.resume)?;
    if resumed.removed_bytes > 0 {
        progress.note(&format!(
            "note: removed a cut-off last line ({} bytes) from {}; its job runs again",
            resumed.removed_bytes,
            out_path.display()
        ));
    }
    let shard_jobs = jobs.len();
    let todo = run::pending(jobs, &resumed.done);
    let started = std::time::Instant::now();
    let pb = progress.bar(todo.len() as u64, "jobs");
    let summary = pool.install(|| {
        run::run(&todo, &out_path, stop, &|job, _| {
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
        return Err(Failure::Jobs(format!(
            "{} jobs ended with an internal error; see their `error` fields in {}",
            summary.internal_errors,
            out_path.display()
        )));
    }
    Ok(())
}

/// `makespan sweep merge FILES --out FILE`.
pub(crate) fn sweep_merge(files: &[PathBuf], path: &Path, progress: &Progress) -> Result<(), Failure> {
    let merged = crate::sweep::results::merge(files)?;
    crate::files::write_lines(path, merged.iter().map(|r| r.text.as_str()), "--out")?;
    progress.note(&format!("{} records from {} files merged into {}", merged.len(), files.len(), path.display()));
    Ok(())
}

/// `makespan sweep report FILES [--csv [PATH]] [--svg [PATH]]`.
pub(crate) fn sweep_report(
    files: &[PathBuf],
    csv: Option<Option<PathBuf>>,
    svg_path: Option<Option<PathBuf>>,
    progress: &Progress,
) -> Result<(), Failure> {
    use crate::sweep::report as summary;
    for (given, flag, ext) in [(&csv, "--csv", "csv"), (&svg_path, "--svg", "svg")] {
        if let Some(Some(p)) = given {
            if p.extension().is_some_and(|e| e == "jsonl") {
                return Err(gpu_makespan::error::InputError::new(
                    flag,
                    p.display(),
                    format!(
                        "is a results file (.jsonl), taken as the {ext} path: put the results files before {flag}, or write {flag}=PATH"
                    ),
                )
                .into());
            }
        }
    }
    if files.is_empty() {
        return Err(gpu_makespan::error::InputError::new("FILES", "", "give one or more results files (.jsonl)").into());
    }
    let default = |ext: &str| files[0].with_extension(ext);
    let csv = csv.map(|p| p.unwrap_or_else(|| default("csv")));
    let svg_path = svg_path.map(|p| p.unwrap_or_else(|| default("svg")));
    prepare(&[(&csv, "--csv"), (&svg_path, "--svg")], &files.iter().map(PathBuf::as_path).collect::<Vec<_>>())?;
    let rows = summary::rows(&crate::sweep::results::merge(files)?);
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
