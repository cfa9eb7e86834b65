//! GPU tasks that share the GPU by time slicing, each its own context (process): the
//! kernel RTA's per-job bound ([`crate::rta::slicing`]) lets every other context hold the
//! GPU for a whole slice at every wait, whatever it has to do. A GPU task offloaded by a
//! periodic task that waits for it has at most one job's work per period, so over a
//! response window the other contexts can hold the GPU only as long as their jobs in that
//! window need: [`sliced_response`] bounds a GPU task's response with that cap.

use super::model::Ps;

/// One GPU task as the time-slice bound sees it: its context, times in picoseconds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// `E_k` of each of its kernels, in stream order: the kernel alone on the GPU
    /// ([`crate::rta::slicing::alone`], with the block overhead).
    pub alone: Vec<Ps>,
    /// `Q`: its time slice.
    pub slice: Ps,
    /// `T`: its trigger's period when the trigger waits for it and its jobs are known to
    /// end within that period (the condition of the cap); `None`: no cap (a whole slice
    /// at every wait).
    pub period: Option<Ps>,
    /// Whether it has at most one job's kernels at any time and none for a while after
    /// each job ends: its trigger waits for it and needs more than zero time (its pre
    /// runnables, or the job's copies) between one GPU job's end and the next one's
    /// kernels, whatever its response (the condition of the per-wait cap). Assumed: a
    /// context without work gives the GPU up at once.
    pub one_job: bool,
}

impl Context {
    /// `W = sum_k E_k`: the GPU time one job needs with the GPU to itself.
    pub fn work(&self) -> Ps {
        self.alone.iter().sum()
    }

    /// `H`: the longest one hold of the GPU by this context executes: its slice, or one
    /// job's work when less and it has one job at a time ([`Context::one_job`]).
    pub fn hold(&self) -> Ps {
        if self.one_job {
            self.slice.min(self.work())
        } else {
            self.slice
        }
    }

    /// `k = sum_k ceil(E_k / Q)`: the most waits one job goes through.
    pub fn waits(&self) -> u128 {
        self.alone.iter().map(|e| e.ceil_ratio(self.slice.max(Ps::new(1)))).sum()
    }
}

/// The response bound of one job of context `c` from its release, with `launch` the
/// launch overhead `L` and `switch` the longest context switch `S`, `N` contexts:
///
/// `R = L + W_c + sum_{p != c} I_p(R) + k_c N S`,
/// `I_p(R) = min(k_c H_p, (ceil(R / T_p) + 1) W_p)` (`k_c H_p` when `T_p` is not known),
/// `H_p = min(Q_p, W_p)` when `p` has one job at a time ([`Context::one_job`]), else `Q_p`,
///
/// the least fixed point from `R = L + W_c + k_c N S`, never above the uncapped bound
/// `U = L + W_c + k_c (sum_{p != c} Q_p + N S)` (which it returns when the iteration
/// reaches it).
///
/// Proof. The assumptions of [`crate::rta::slicing::sliced_finishes`]: round robin
/// among the contexts with work, each for its slice; a context without work gives the GPU
/// up; compute preemption (a context's execution is its execution on a GPU of its own,
/// time stopped while it waits); each context's kernels in one stream; a switch takes at
/// most `S`. Let the job be released at `r` and be unfinished at `r + t`. Its first
/// kernel enters by `r + L`, each later one when the one before it completes, so from
/// `r + L` on its context has work, and every instant of `[r + L, r + t]` is its context
/// executing (less than `W_c` in all, as the job is unfinished), another context holding
/// the GPU, or a switch. By the proof of `sliced_finishes`, applied to each kernel, the
/// context waits at most `ceil(E_k / Q_c)` times while kernel `k` is in its queue, `k_c`
/// times in all, and in each wait every other context holds the GPU at most once, for at
/// most its slice, with at most `N` switches: at most `k_c Q_p` for context `p`, `k_c N S`
/// for the switches. With `one_job`, one hold of `p` executes at most what is left of one
/// of its jobs: its trigger waits for its GPU job before it can offload the next, so `p`
/// never has kernels of two jobs, and when a job ends `p` has no work for a time above
/// zero (the trigger's pre runnables, the copies) and gives the GPU up, ending
/// the hold; so at most `k_c W_p` over the `k_c` waits, whatever the trigger's response.
/// Moreover `p` holds the GPU only while it has work, executing, so at
/// most as long as its jobs that execute within `[r, r + t]` need alone, each at most
/// `W_p`. When `T_p` is given, `p`'s trigger is released at least `T_p` apart, waits for
/// its GPU job, and each of its jobs ends within `T_p` of its release: the GPU job of
/// trigger job `m` (released at `a_m`) executes within `[a_m, a_m + T_p)`, so those
/// meeting `[r, r + t]` have `a_m` in `(r - T_p, r + t]`, at most `ceil(t / T_p) + 1`
/// releases. So `t < f(t) = L + W_c + sum_p I_p(t) + k_c N S`, and `f` is
/// non-decreasing. The iteration from `R_0 = L + W_c + k_c N S <= f(0)` rises and stops at `R* = f(R*)`, or at `U`, the uncapped bound (`f <= U` everywhere, and
/// `U` is `sliced_finishes`'s bound for the job's last kernel). Were the job unfinished at
/// `r + R*`, then `R* < f(R*) = R*`: so it finishes by `r + min(R*, U)`.
///
/// The condition on `p` (each job of its trigger ends within `T_p`) is what the CPU
/// analysis proves afterwards (`R+ <= T_p`); the system analysis drops the cap of every
/// context whose trigger it does not prove so, and repeats (`report::analyse`). The
/// argument is the usual first-violation one: at the first instant some trigger job
/// would pass its period, every GPU job whose window began earlier had its bound, so
/// that trigger job's response is within its `R+ <= T_p`: no such instant exists.
pub fn sliced_response(contexts: &[Context], c: usize, launch: Ps, switch: Ps) -> Ps {
    let me = &contexts[c];
    let (w, k, n) = (me.work(), me.waits(), contexts.len() as u128);
    let base = launch + w + k * n * switch;
    let others = || contexts.iter().enumerate().filter(move |&(p, _)| p != c).map(|(_, x)| x);
    let uncapped = base + k * others().map(|p| p.slice).sum::<Ps>();
    let interference = |r: Ps| -> Ps {
        others()
            .map(|p| match p.period {
                Some(t) => (k * p.hold()).min((r.ceil_ratio(t) + 1) * p.work()),
                None => k * p.hold(),
            })
            .sum()
    };
    let mut r = base;
    loop {
        let next = base + interference(r);
        if next >= uncapped {
            return uncapped;
        }
        if next == r {
            return r;
        }
        r = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(alone: &[Ps], slice: Ps, period: Option<Ps>) -> Context {
        Context { alone: alone.to_vec(), slice, period, one_job: false }
    }

    #[test]
    fn a_context_with_one_job_at_a_time_holds_at_most_a_job_per_wait() {
        // E = 10 in slices of 4: 3 waits; the other (slice 5, jobs of 2, no period known)
        // executes at most 2 per hold: 3 x 2 instead of 3 x 5.
        let other = Context { one_job: true, ..ctx(&[Ps::new(2)], Ps::new(5), None) };
        let cs = [ctx(&[Ps::new(10)], Ps::new(4), None), other.clone()];
        assert_eq!(sliced_response(&cs, 0, Ps::ZERO, Ps::new(1)), Ps::new(10 + 3 * 2 + 3 * 2));
        // Jobs longer than a slice: the slice.
        let long = [ctx(&[Ps::new(10)], Ps::new(4), None), Context { alone: vec![Ps::new(7)], ..other }];
        assert_eq!(sliced_response(&long, 0, Ps::ZERO, Ps::new(1)), Ps::new(10 + 3 * 5 + 3 * 2));
    }

    #[test]
    fn without_periods_every_other_context_holds_a_slice_at_every_wait() {
        // E = 10 in slices of 4: 3 waits; the other holds 5 each time, 2 switches of 1.
        let cs = [ctx(&[Ps::new(10)], Ps::new(4), None), ctx(&[Ps::new(100)], Ps::new(5), None)];
        assert_eq!(sliced_response(&cs, 0, Ps::ZERO, Ps::new(1)), Ps::new(10 + 3 * 5 + 3 * 2));
    }

    #[test]
    fn a_periodic_context_holds_no_more_than_its_jobs_need() {
        // The other needs 2 per job, one job per 1000: at most 2 jobs in the window.
        let cs = [ctx(&[Ps::new(10)], Ps::new(4), None), ctx(&[Ps::new(2)], Ps::new(5), Some(Ps::new(1000)))];
        assert_eq!(sliced_response(&cs, 0, Ps::ZERO, Ps::new(1)), Ps::new(10 + 2 * 2 + 3 * 2));
        // Periods short enough that the cap does not bite: the uncapped bound.
        let busy = [ctx(&[Ps::new(10)], Ps::new(4), None), ctx(&[Ps::new(2)], Ps::new(5), Some(Ps::new(1)))];
        assert_eq!(sliced_response(&busy, 0, Ps::ZERO, Ps::new(1)), Ps::new(10 + 3 * 5 + 3 * 2));
    }

    #[test]
    fn each_kernel_counts_its_own_waits() {
        // Two kernels of 3 in slices of 4: one wait each (2), not ceil(6 / 4) = 2 either way;
        // two kernels of 5: 2 waits each (4) where one job of 10 would have 3.
        assert_eq!(ctx(&[Ps::new(5), Ps::new(5)], Ps::new(4), None).waits(), 4);
        assert_eq!(ctx(&[Ps::new(10)], Ps::new(4), None).waits(), 3);
    }
}
