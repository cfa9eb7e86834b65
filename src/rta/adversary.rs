//! A search for the worst case of the reference simulator ([`crate::rta::simulator`]),
//! not only a sample of it: every open choice of a run (launch overheads, the order of
//! simultaneous entries, SMs and warp placements, block and copy times) is a draw from
//! a [`Tape`] of recorded numbers, and hill-climbing changes a few numbers of the tape
//! of the longest run found so far, per kernel, keeping a change that does not shorten
//! that kernel's worst response. Every run is a run of the simulator, so every response
//! found is reachable under its rules: a lower bound on the truth, to measure how far a
//! reported bound is above it (`examples/rta_pessimism.rs`).

use crate::rta::gpu::Platform;
use crate::rta::jobs::{Class, Job};
use crate::rta::simulator::{simulate, Hardware};
use crate::rta::time::Ticks;
use crate::rta::time_slices::{run_slices, Sharing};
use rand::rngs::SmallRng;
use rand::{Rng, RngCore, SeedableRng};

/// A source of random numbers that replays `values` and then draws fresh ones (kept, so
/// that the whole run is on the tape): the choices of one simulated run.
#[derive(Debug, Clone)]
pub struct Tape {
    values: Vec<u64>,
    at: usize,
    fresh: SmallRng,
}

impl Tape {
    /// A tape replaying `values`, then drawing from `seed`.
    pub fn new(values: Vec<u64>, seed: u64) -> Tape {
        Tape { values, at: 0, fresh: SmallRng::seed_from_u64(seed) }
    }

    /// The numbers drawn so far (with those replayed).
    pub fn values(&self) -> &[u64] {
        &self.values[..self.at.min(self.values.len())]
    }
}

impl RngCore for Tape {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        if self.at == self.values.len() {
            self.values.push(self.fresh.next_u64());
        }
        self.at += 1;
        self.values[self.at - 1]
    }

    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

/// Per kernel (task index), the longest response of one of its jobs over `runs` runs
/// of the simulator on `hw`: for each kernel in turn, a few random starts, then
/// hill-climbing on the tape of the run with its longest response (each step redraws 1
/// to 3 numbers, or every number from some point on). The responses of every kernel in
/// every run count, not only the one climbed for.
pub fn worst_responses(jobs: &[Job], classes: &[Class], p: &Platform, hw: &Hardware, runs: usize, seed: u64) -> Vec<Ticks> {
    climb(jobs, runs, seed, &|tape| simulate(jobs, classes, p, hw, tape))
}

/// What a time-sliced run ([`run_slices`]) is given besides the jobs, with the bounds of
/// the choices it leaves open.
#[derive(Debug, Clone, Copy)]
pub struct Slicing<'a> {
    /// Per job, the index of its process (`0..slices.len()`).
    pub process: &'a [usize],
    /// Per process, its time slice.
    pub slices: &'a [Ticks],
    /// The longest switch between two processes (each switch takes `[0, switch]`).
    pub switch: Ticks,
    /// The longest launch overhead (each job enters `[0, overhead]` after its release).
    pub overhead: Ticks,
}

/// [`worst_responses`] for processes sharing the GPU by time slices: each run draws
/// every job's own time (the simulator running it alone on `hw`, its block times and
/// SMs drawn), its launch overhead, which process holds the GPU at time 0 (or none) and
/// how much of its slice is left, and each switch's time (the longest half of the time);
/// then [`run_slices`]. Every run is one the slicing rules allow, so each response found
/// is reachable.
pub fn worst_sliced_responses(jobs: &[Job], classes: &[Class], p: &Platform, hw: &Hardware, s: &Slicing, runs: usize, seed: u64) -> Vec<Ticks> {
    let alone = Hardware { launch_overhead: Ticks::ZERO, ..hw.clone() };
    climb(jobs, runs, seed, &|tape| {
        let service: Vec<Ticks> = jobs
            .iter()
            .map(|j| simulate(&[Job { id: 0, after: None, release: Ticks::ZERO, ready: Ticks::ZERO, ..*j }], classes, p, &alone, tape)[0])
            .collect();
        let ready: Vec<Ticks> = jobs.iter().map(|j| j.release + Ticks::new(tape.random_range(0..=s.overhead.get()))).collect();
        let holder = tape.random_range(0..=s.slices.len());
        let first = (holder < s.slices.len()).then(|| (holder, Ticks::new(tape.random_range(0..=s.slices[holder].get()))));
        let sharing = Sharing { process: s.process, processes: s.slices.len(), service: &service, ready: &ready, time_slices: s.slices, first };
        let mut switch = || if tape.random_bool(0.5) { s.switch } else { Ticks::new(tape.random_range(0..=s.switch.get())) };
        run_slices(jobs, &sharing, &mut switch).0
    })
}

/// The search of [`worst_responses`] over any run: `run` makes one run from the choices
/// it draws from a tape and returns each job's finish.
fn climb(jobs: &[Job], runs: usize, seed: u64, run: &dyn Fn(&mut Tape) -> Vec<Ticks>) -> Vec<Ticks> {
    let tasks = jobs.iter().map(|j| j.task + 1).max().unwrap_or(0);
    let mut worst = vec![Ticks::ZERO; tasks];
    let mut rng = SmallRng::seed_from_u64(seed);
    let once = |values: Vec<u64>, rng: &mut SmallRng, worst: &mut Vec<Ticks>| {
        let mut tape = Tape::new(values, rng.random());
        let finish = run(&mut tape);
        let mut response = vec![Ticks::ZERO; tasks];
        for (j, f) in jobs.iter().zip(finish) {
            response[j.task] = response[j.task].max(f - j.release);
        }
        for (w, &r) in worst.iter_mut().zip(&response) {
            *w = (*w).max(r);
        }
        (tape.values().to_vec(), response)
    };
    let per_task = (runs / tasks.max(1)).max(1);
    let starts = (per_task / 2).max(1);
    for target in 0..tasks {
        let mut best: Option<(Vec<u64>, Ticks)> = None;
        for step in 0..per_task {
            let values = match &best {
                Some((tape, _)) if step >= starts => mutate(tape, &mut rng),
                _ => Vec::new(),
            };
            let (tape, response) = once(values, &mut rng, &mut worst);
            if best.as_ref().is_none_or(|b| response[target] >= b.1) {
                best = Some((tape, response[target]));
            }
        }
    }
    worst
}

/// A neighbour of `tape`: 1 to 3 numbers redrawn, or (a quarter of the time) the tape cut
/// at some point, so that every later choice is drawn afresh.
fn mutate(tape: &[u64], rng: &mut SmallRng) -> Vec<u64> {
    let mut next = tape.to_vec();
    if next.is_empty() {
        return next;
    }
    if rng.random_bool(0.5) {
        next.truncate(rng.random_range(0..next.len()));
        return next;
    }
    for _ in 0..rng.random_range(1..=3) {
        let i = rng.random_range(0..next.len());
        next[i] = rng.random();
    }
    next
}
