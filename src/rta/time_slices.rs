//! The GPU's time slices in a simulated run: processes (CUDA contexts) hold the GPU one
//! at a time, round robin among those with work, each for a slice, with a switch between
//! two. Used by the nominal run of time-sliced workloads and by the property tests; the
//! analysis bounds it in [`crate::rta::slicing`].

use crate::rta::jobs::Job;
use crate::rta::time::Ticks;
use std::collections::VecDeque;

/// A stretch of time in which one job held the GPU, for drawing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceRun {
    /// Index of the job in the sequence the run was given.
    pub job: usize,
    /// Start.
    pub start: Ticks,
    /// End.
    pub end: Ticks,
}

/// What a sliced run is given besides the jobs.
pub struct Sharing<'a> {
    /// Per job, the index of its process (`0..processes`).
    pub process: &'a [usize],
    /// Number of processes.
    pub processes: usize,
    /// Per job, the time it needs with the GPU to itself (its kernel alone).
    pub service: &'a [Ticks],
    /// Per job, the earliest time it may enter (its release plus its launch overhead).
    pub ready: &'a [Ticks],
    /// Per process, the slice it holds the GPU for while it has work.
    pub time_slices: &'a [Ticks],
    /// The process holding the GPU at time 0 and what is left of its slice, if any.
    pub first: Option<(usize, Ticks)>,
}

/// Runs the processes' jobs (each process's jobs one after another, in the given order:
/// one stream per process) under round-robin time slicing; `switch()` is the time of
/// each switch between two processes. Returns each job's finish and the stretches of
/// time each job held the GPU.
pub fn run_slices(jobs: &[Job], s: &Sharing, switch: &mut dyn FnMut() -> Ticks) -> (Vec<Ticks>, Vec<SliceRun>) {
    let mut queue: Vec<VecDeque<usize>> = vec![VecDeque::new(); s.processes];
    for (i, &p) in s.process.iter().enumerate() {
        queue[p].push_back(i);
    }
    let (mut finish, mut left_of) = (vec![Ticks::ZERO; jobs.len()], s.service.to_vec());
    let mut runs = Vec::new();
    let (mut t, mut owner, mut slice) = (Ticks::ZERO, s.first.map(|f| f.0), s.first.map_or(Ticks::ZERO, |f| f.1));
    loop {
        // When each process's next job enters: once ready and its predecessor is done.
        let entry = |p: usize, finish: &[Ticks]| queue[p].front().map(|&j| jobs[j].after.map_or(s.ready[j], |a| s.ready[j].max(finish[a])));
        let pending = |p: usize, t: Ticks, finish: &[Ticks]| entry(p, finish).is_some_and(|e| e <= t);
        if let Some(o) = owner.filter(|&o| slice > Ticks::ZERO && pending(o, t, &finish)) {
            let j = queue[o][0];
            let d = slice.min(left_of[j]);
            if d > Ticks::ZERO {
                runs.push(SliceRun { job: j, start: t, end: t + d });
            }
            (t, slice, left_of[j]) = (t + d, slice - d, left_of[j] - d);
            if left_of[j] == Ticks::ZERO {
                finish[j] = t;
                queue[o].pop_front();
            }
            continue;
        }
        // The next process with work after the owner, round robin (the owner last).
        let after = owner.map_or(0, |o| o + 1);
        match (0..s.processes).map(|k| (after + k) % s.processes).find(|&p| pending(p, t, &finish)) {
            Some(p) => {
                if owner != Some(p) {
                    t += switch();
                }
                (owner, slice) = (Some(p), s.time_slices[p]);
            }
            None => match (0..s.processes).filter_map(|p| entry(p, &finish)).min() {
                Some(e) => t = t.max(e),
                None => return (finish, runs),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rta::jobs::tests::job;

    /// Two processes with 25 and 10 of work, slices of 10, switches of 1 (the first from
    /// no process): A 1-11, B 12-22 (done), A 23-33 and, alone, 33-38 without a switch.
    #[test]
    fn processes_take_turns() {
        let jobs = [job(0, None), job(1, None)];
        let sharing = Sharing { process: &[0, 1], processes: 2, service: &[Ticks::new(25), Ticks::new(10)], ready: &[Ticks::ZERO, Ticks::ZERO], time_slices: &[Ticks::new(10), Ticks::new(10)], first: None };
        let (finish, runs) = run_slices(&jobs, &sharing, &mut || Ticks::new(1));
        assert_eq!(finish, vec![Ticks::new(38), Ticks::new(22)]);
        let spans: Vec<(usize, u128, u128)> = runs.iter().map(|r| (r.job, r.start.get(), r.end.get())).collect();
        assert_eq!(spans, vec![(0, 1, 11), (1, 12, 22), (0, 23, 33), (0, 33, 38)]);
    }
}
