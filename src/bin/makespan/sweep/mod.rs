//! Sweeps: a grid of solves (`solve`, `approx` or `bound` jobs over kernels, warp
//! counts, sigmas, methods and x) run in parallel, split into shards for a cluster,
//! appended one JSON line per finished job, resumable, and merged and reported.
//!
//! Guarantees:
//! - every job has a stable [`job::Job::id`] derived from its parameters only, the same
//!   in every shard and every run;
//! - [`job::Shard`] `I/N` takes a fixed subset of the jobs; the N subsets are disjoint
//!   and together are the whole grid;
//! - [`run::run`] appends each job's record as soon as the job ends, so an interrupted
//!   run loses at most the jobs in flight, and with `resume` skips every id already in
//!   the file;
//! - [`results::merge`] refuses two records of one id whose results differ (apart from
//!   timings and work statistics, see [`results::VOLATILE`]).
//!
//! The numbers in a record are those of the command's `--json` and keep their meaning:
//! `exact` only when lower = upper, `estimate` never a bound.

pub mod command;
pub mod job;
pub mod report;
pub mod results;
pub mod run;
pub mod spec;

pub use job::Shard;
pub use spec::Spec;

#[cfg(test)]
mod tests {
    use super::{Shard, Spec};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn a_total_time_limit_left_out_keeps_the_id() {
        // Without the field the id (and the record's job) stay as before.
        let plain: Spec = toml::from_str("command = \"solve\"\nkernels = [\"LLC\"]\nwarps = [2]\ntime_limit = 5\n").unwrap();
        assert!(serde_json::to_value(&plain.jobs().unwrap()[0].params).unwrap().get("total_time_limit").is_none());
    }

    #[test]
    fn ids_are_stable_and_do_not_depend_on_the_file() {
        // A fixed id guards against accidental changes (a changed id would make --resume rerun
        // every job and merge see different jobs).
        let spec: Spec = toml::from_str("command = \"solve\"\nkernels = [\"LLC\"]\nwarps = [2]\ntime_limit = 5\n").unwrap();
        assert_eq!(spec.jobs().unwrap()[0].id, "solve-50433d2ab5dd6408");
        let from_file: Spec =
            toml::from_str("command = \"solve\"\nfiles = [\"instances/fig2-llc.toml\"]\nwarps = [2]\ntime_limit = 5\n").unwrap();
        let job = &from_file.jobs().unwrap()[0];
        assert_eq!(job.params.file.as_deref(), Some("instances/fig2-llc.toml"));
        let by_kernel: Spec = toml::from_str(&format!(
            "command = \"solve\"\nkernels = [\"{}\"]\nwarps = [2]\ntime_limit = 5\nsigma_l = {}\nsigma_c = {}\n",
            job.params.kernel, job.instance.sigma_l, job.instance.sigma_c
        ))
        .unwrap();
        if job.instance.copies_l == 1 && job.instance.copies_c == 1 {
            assert_eq!(by_kernel.jobs().unwrap()[0].id, job.id);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Shards are disjoint, cover every job, and differ in size by at most one.
        #[test]
        fn shards_partition_the_jobs(kernels in prop::collection::vec("[LC]{1,6}", 1..5), warps in prop::collection::vec(1i64..40, 1..5), n in 1u32..9) {
            let text = format!("command = \"bound\"\nkernels = {kernels:?}\nwarps = {warps:?}\n");
            let spec: Spec = toml::from_str(&text).unwrap();
            let jobs = spec.jobs().unwrap();
            let all: BTreeSet<String> = jobs.iter().map(|j| j.id.clone()).collect();
            prop_assert_eq!(all.len(), jobs.len(), "ids unique");
            let mut seen = BTreeSet::new();
            let mut sizes = Vec::new();
            for i in 1..=n {
                let mine = Shard { index: i, count: n }.select(jobs.clone());
                sizes.push(mine.len());
                for j in mine {
                    prop_assert!(seen.insert(j.id), "a job in two shards");
                }
            }
            prop_assert_eq!(seen, all);
            prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        }
    }
}
