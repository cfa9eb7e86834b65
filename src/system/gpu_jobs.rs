//! Successive jobs of one GPU task: when a job can find the previous one still running,
//! and the bound on every job's response then ([`queued_response`], [`gpu_bounds`]).
//!
//! The GPU analyses ([`super::gpu`], [`super::gpu_sharing`]) bound one job of a GPU task
//! from the instant its stream holds no earlier job of the same task: `W`. That is the
//! job's response when its release finds the previous job done:
//!
//! * its trigger waits for it (synchronous or asynchronous offloading) and is proven to
//!   end within its period (`R+ <= T`): each GPU job ends before its trigger's job, so
//!   before the next release. Without the trigger's `R+` ("late trigger") jobs may
//!   overlap: no bound.
//! * nothing waits for it (`wait = none`): its releases are the ends of its trigger's
//!   pre part, which move with the trigger's preemptions: release jitter
//!   `J = (R+ - post-) - pre-` of the trigger (a job released at `a` offloads at
//!   `a + x`, `x >= pre-` as the pre runnables run first, and `x <= R+ - post-` as the post
//!   runnables run after it and the job ends by `a + R+`). Two releases can then be as
//!   little as `T - J` apart, and a job can wait for the previous one
//!   ([`queued_response`]). Without the trigger's `R+` the jitter is unknown: no bound.
//! * a periodic GPU task of its own: `J = 0`, the same bound.

use super::cpu::{response_of, Case, Response};
use super::gpu::GpuSide;
use super::model::{Ps, System, Wait};
use std::collections::BTreeMap;

/// The response bound of every job of a GPU task whose jobs run one after another (its
/// kernels are one stream), released nominally `period` apart with release jitter at
/// most `jitter`, each taking at most `w` from the instant the previous job is done or
/// its own release, whichever is later: `W + max(0, W + J - T)` when `W <= T`, `None`
/// (the jobs may queue up without end) when `W > T`.
///
/// Proof. Let job `k` be released at `a_k`, nominally `phi + kT`, with
/// `phi + kT <= a_k <= phi + kT + J`, so `a_k - a_m >= (k - m) T - J` for `m < k`. It
/// starts at `s_k = max(a_k, f_{k-1})` (its stream holds the previous job until `f_{k-1}`;
/// `s_0 = a_0`) and ends by `f_k <= s_k + W`: `W` holds from `s_k`, as the FIFO argument
/// (`gpu::fifo_times`) looks only at the queue from each kernel's entry, and the
/// time-slice bounds ([`super::gpu_sharing::sliced_response`], the kernel RTA's) run from
/// the job's start with its context holding work from then on. By induction,
/// `f_k <= max_{m <= k} (a_m + (k - m + 1) W)`: true for `k = 0`, and
/// `f_k <= max(a_k + W, f_{k-1} + W)`. So `f_k - a_k <= max(W, max_{q >= 1} ((q + 1) W -
/// (a_k - a_{k-q})))` `<= max(W, max_{q >= 1} (W + J + q (W - T)))`, and with `W <= T`
/// the inner maximum is at `q = 1`: `2W + J - T`. Hence `f_k - a_k <= W + max(0, W + J -
/// T)`. The bound is reached: `W = 9`, `T = 10`, `J = 4`, jobs released at 4 and 10
/// (6 apart): the second starts at 13 and ends at 22, 12 after its release (issue 50's
/// reproducer, up to the trigger's pre part).
pub fn queued_response(w: Ps, period: Ps, jitter: Ps) -> Option<Ps> {
    (w <= period).then(|| w + (w + jitter).saturating_sub(period))
}

/// One GPU task's bound on every job's response and its release jitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuBound {
    /// Every job's response from its release (`None`: not proven: a late trigger, or
    /// jobs that may queue up without end).
    pub worst: Option<Ps>,
    /// The jitter of its releases when nothing waits for it (`None` when its trigger
    /// waits, or when the jitter is unknown).
    pub jitter: Option<Ps>,
    /// The period of its releases (its trigger's, or its own).
    pub period: Option<Ps>,
}

impl GpuBound {
    /// Whether every job is proven to end within the period of its releases (the GPU
    /// task's implicit deadline; each GPU bound of another task assumes it of waiting
    /// triggers, and chains need it).
    pub fn within_period(&self) -> bool {
        matches!((self.worst, self.period), (Some(r), Some(t)) if r <= t)
    }
}

/// Every GPU task's [`GpuBound`], by name, from the GPU side's one-job bounds and the
/// CPU responses `all` (see the module documentation).
pub fn gpu_bounds(sys: &System, gpu: &GpuSide, all: &[Response]) -> BTreeMap<String, GpuBound> {
    gpu.tasks
        .iter()
        .map(|g| {
            let w = g.response.worst;
            let bound = match g.triggered_by.as_deref().and_then(|t| sys.task(t)) {
                Some(trigger) => {
                    let period = trigger.period;
                    let r = response_of(all, &trigger.name);
                    let waits = trigger.offload.as_ref().is_some_and(|o| o.wait != Wait::None);
                    match r.and_then(|r| r.worst.map(|rw| (r, rw))) {
                        Some(_) if waits => GpuBound { worst: Some(w), jitter: None, period },
                        Some((r, rw)) if r.entity.case == Case::NoWaitOffload => {
                            let e = &r.entity;
                            let jitter = rw.saturating_sub(e.post.best).saturating_sub(e.pre.best);
                            GpuBound { worst: period.and_then(|t| queued_response(w, t, jitter)), jitter: Some(jitter), period }
                        }
                        _ => GpuBound { worst: None, jitter: None, period },
                    }
                }
                None => {
                    let period = sys.task(&g.task).and_then(|t| t.period);
                    GpuBound { worst: period.and_then(|t| queued_response(w, t, Ps::ZERO)), jitter: Some(Ps::ZERO), period }
                }
            };
            (g.task.clone(), bound)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queued_jobs_by_hand() {
        // Issue 50: W = 9, T = 10, J = 4: 9 + (13 - 10) = 12.
        assert_eq!(queued_response(Ps::new(9), Ps::new(10), Ps::new(4)), Some(Ps::new(12)));
        // No jitter, or room enough: W.
        assert_eq!(queued_response(Ps::new(9), Ps::new(10), Ps::ZERO), Some(Ps::new(9)));
        assert_eq!(queued_response(Ps::new(5), Ps::new(10), Ps::new(5)), Some(Ps::new(5)));
        // W = T: every job may wait for the one before: W + J.
        assert_eq!(queued_response(Ps::new(10), Ps::new(10), Ps::new(3)), Some(Ps::new(13)));
        assert_eq!(queued_response(Ps::new(11), Ps::new(10), Ps::ZERO), None);
    }
}
