//! The interconnect's wait bound (`system::contention::Bus::wait`) against a
//! discrete-time bus simulator written from the model's rules, not from the bound: units
//! that run jobs of compute gaps and line accesses, each line a fixed number of grants;
//! one grant at a time on the interconnect, round robin among the units with a request
//! pending (the next after the last one served), each grant holding it for its unit's
//! hold time. Which units are active, how much they transfer, when their jobs are
//! released (sporadically, at least a period apart) and whether the bound is told their
//! responses are drawn at random. One unit's job is watched: the time its grants wait,
//! over the window from its start to its end, may never exceed the bound for its lines
//! and that window.

use gpu_makespan::system::contention::{Bus, Grants, Master, Traffic};
use gpu_makespan::system::Ps;
use proptest::prelude::*;

/// A unit's jobs: `gaps[i]` ticks of compute before access `i`, `gaps[lines]` after the
/// last; every job alike.
#[derive(Debug, Clone)]
struct Unit {
    hold: u64,
    grants: u64,
    gaps: Vec<u64>,
    period: u64,
    /// Extra delay of each release beyond the period (sporadic releases).
    late: Vec<u64>,
    /// Whether the bound is told the simulated worst response.
    told: bool,
}

impl Unit {
    fn lines(&self) -> u64 {
        self.gaps.len() as u64 - 1
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Idle,
    Computing(u64),
    Requesting(u64),
    Transferring(u64),
}

/// One unit in the simulation.
struct Run {
    releases: Vec<u64>,
    next_job: usize,
    release: u64,
    access: usize,
    grant: u64,
    state: State,
    worst_response: u64,
    waited: u64,
}

/// Steps unit `u` at time `t` until it needs the interconnect or time to pass.
fn settle(u: &Unit, r: &mut Run, t: u64) {
    loop {
        match r.state {
            State::Idle => match r.releases.get(r.next_job) {
                Some(&rel) if rel <= t => {
                    r.release = rel;
                    r.next_job += 1;
                    r.access = 0;
                    r.state = State::Computing(t + u.gaps[0]);
                }
                _ => return,
            },
            State::Computing(until) if until <= t => {
                if r.access < u.lines() as usize {
                    r.grant = 0;
                    r.state = State::Requesting(t);
                } else {
                    r.worst_response = r.worst_response.max(t - r.release);
                    r.state = State::Idle;
                }
            }
            State::Transferring(until) if until <= t => {
                r.grant += 1;
                if r.grant < u.grants {
                    r.state = State::Requesting(t);
                } else {
                    r.access += 1;
                    r.state = State::Computing(t + u.gaps[r.access]);
                }
            }
            _ => return,
        }
    }
}

/// Simulates every unit (unit 0 is watched: one job released at `start`) until unit 0's
/// job ends; its wait, its window and each other unit's worst response.
fn simulate(units: &[Unit], start: u64) -> (u64, u64, Vec<u64>) {
    let mut runs: Vec<Run> = units
        .iter()
        .enumerate()
        .map(|(i, u)| {
            let releases = if i == 0 {
                vec![start]
            } else {
                // r_0 = late_0, r_k = r_(k-1) + period + late_k: at least a period apart.
                u.late
                    .iter()
                    .scan(None, |prev: &mut Option<u64>, &l| {
                        let r = prev.map_or(l, |p| p + u.period + l);
                        *prev = Some(r);
                        Some(r)
                    })
                    .collect()
            };
            Run { releases, next_job: 0, release: 0, access: 0, grant: 0, state: State::Idle, worst_response: 0, waited: 0 }
        })
        .collect();
    let (mut busy_until, mut last) = (0u64, 0usize);
    for t in 0..100_000u64 {
        for (u, r) in units.iter().zip(runs.iter_mut()) {
            settle(u, r, t);
        }
        if runs[0].next_job == 1 && runs[0].state == State::Idle {
            let window = t - start;
            // A job still running, or released and waiting, has a response of at least
            // its time so far: the simulated worst is a bound only with it.
            let worst = runs
                .iter()
                .map(|r| {
                    let running = if r.state == State::Idle { 0 } else { t - r.release };
                    let waiting = r.releases.get(r.next_job).filter(|&&rel| rel <= t).map_or(0, |rel| t - rel);
                    r.worst_response.max(running).max(waiting)
                })
                .collect();
            return (runs[0].waited, window, worst);
        }
        if t >= busy_until {
            let n = units.len();
            let pick = (1..=n).map(|k| (last + k) % n).find(|&i| matches!(runs[i].state, State::Requesting(_)));
            if let Some(i) = pick {
                let State::Requesting(since) = runs[i].state else { unreachable!() };
                runs[i].waited += t - since;
                runs[i].state = State::Transferring(t + units[i].hold);
                busy_until = t + units[i].hold;
                last = i;
            }
        }
    }
    panic!("the watched job did not end");
}

/// The bound for unit 0: every other unit a master with one source of traffic.
fn bus(units: &[Unit], worst: &[u64]) -> Bus {
    let others = units
        .iter()
        .zip(worst)
        .skip(1)
        .enumerate()
        .map(|(i, (u, &w))| Master {
            unit: format!("u{}", i + 1),
            grants: Grants { per_line: u128::from(u.grants), hold: Ps::new(u128::from(u.hold)) },
            traffic: vec![Traffic {
                lines: u128::from(u.lines()),
                period: Ps::new(u128::from(u.period)),
                // A job's compute and its own grants, with no waiting.
                span: Ps::new(u128::from(u.gaps.iter().sum::<u64>() + u.lines() * u.grants * u.hold)),
                // The simulated worst response is a bound for this run, when it ended.
                response: u.told.then(|| Ps::new(u128::from(w))),
            }],
        })
        .collect();
    Bus { grants_per_line: u128::from(units[0].grants), own_hold: Ps::ZERO, others }
}

fn unit(max_lines: usize) -> impl Strategy<Value = Unit> {
    (
        1u64..=4,
        1u64..=2,
        proptest::collection::vec(0u64..=4, 1..=max_lines + 1),
        1u64..=40,
        proptest::collection::vec(0u64..=6, 1..=12),
        any::<bool>(),
    )
        .prop_map(|(hold, grants, gaps, period, late, told)| Unit { hold, grants, gaps, period, late, told })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(20_000, 2_000)))]

    #[test]
    fn the_watched_jobs_wait_never_exceeds_the_bound(
        watched in unit(6),
        others in proptest::collection::vec(unit(5), 0..=3),
        start in 0u64..=60,
    ) {
        let mut units = vec![watched];
        units.extend(others);
        let (waited, window, worst) = simulate(&units, start);
        let bound = bus(&units, &worst).wait(u128::from(units[0].lines()), Ps::new(u128::from(window)));
        prop_assert!(Ps::new(u128::from(waited)) <= bound, "waited {waited} in a window of {window}, bound {bound:?}");
    }
}
