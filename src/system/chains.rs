//! End-to-end latencies of cause-effect chains (GSoC document, "End-to-End Latency"),
//! from each chain task's period `T`, execution time `C` and response time `R`, best
//! (`-`) and worst (`+`). Every value below is proven for its definition, given that the
//! response times are; where the GSoC document prints a tighter formula that rests on
//! something not proven here, the proven one is used and the difference named.
//!
//! *Implicit communication* (reads at a job's start, writes at its end):
//! * worst reaction `sum_j (T_j + R_j^+)` (Davare et al., 2007; Dürr et al., 2019 prove
//!   it bounds reaction and data age). The GSoC document subtracts initial pending times
//!   `ip^+` computed by a recursion `f(k, R)` whose printed form is ambiguous; not used.
//! * best reaction `R_0^- + sum_{j>=1} C_j^-` (the GSoC formula with
//!   `ip^- = R^- - C^-`): from the first task's release, it must respond, and each later
//!   task must run a whole job after reading.
//! * worst initial reaction (from the first task's release) `R_0^+ + sum_{j>=1} (T_j +
//!   R_j^+)`; best initial reaction = best reaction (GSoC).
//! * age: worst `T_0 + initial^+ - initial^-` (GSoC's definition with the proven
//!   bounds: two consecutive chain instances start `T_0` apart and each ends within its
//!   initial-reaction interval); best `max(0, T_0 + initial^- - reaction^+)` (GSoC).
//!
//! *LET* (each job reads at its release and writes at its period's end):
//! * worst reaction `sum_j 2 T_j`: each hop waits at most one period for a release and
//!   then takes its period. The GSoC document prints `sum_{j < last} 2 T_j + T_last`,
//!   which leaves out the wait of the last task for its release; not used (but in
//!   reference mode, [`super::reference::let_document`]).
//! * best reaction `sum_j T_j` (GSoC); worst initial reaction `T_0 + sum_{j>=1} 2 T_j`,
//!   best initial reaction `sum_j T_j`; age: worst `T_0 + initial^+ - initial^-`, best
//!   `T_last` (GSoC).
//!
//! LET values need every chain task to finish within its period (`R^+ <= T`), implicit
//! ones every `R^+`: a chain with a task without one gets no values, and says why.

use super::model::Ps;
use serde::Serialize;

/// What a chain needs of one task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// Period.
    pub period: Ps,
    /// Execution time, best.
    pub c_best: Ps,
    /// Response time, best.
    pub r_best: Ps,
    /// Response time, worst (`None`: not schedulable).
    pub r_worst: Option<Ps>,
    /// Execution time, worst (the document's worst initial pending time is `R+ - C+`).
    pub c_worst: Ps,
}

/// Best and worst of one latency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range {
    /// Lower bound.
    pub best: Ps,
    /// Upper bound.
    pub worst: Ps,
}

/// The latencies of a chain under one communication paradigm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Latencies {
    /// From the input to the first output that reflects it.
    pub reaction: Range,
    /// From the first task's release to the output.
    pub initial_reaction: Range,
    /// How long one output stays the newest.
    pub age: Range,
}

/// Under implicit communication; `None` if some task has no worst-case response.
pub fn implicit(hops: &[Hop]) -> Option<Latencies> {
    let worst: Vec<Ps> = hops.iter().map(|h| h.r_worst).collect::<Option<_>>()?;
    let (first, rest) = hops.split_first()?;
    let reaction_worst: Ps = hops.iter().zip(&worst).map(|(h, &r)| h.period + r).sum();
    let reaction_best = first.r_best + rest.iter().map(|h| h.c_best).sum::<Ps>();
    let initial_worst = worst[0] + rest.iter().zip(&worst[1..]).map(|(h, &r)| h.period + r).sum::<Ps>();
    let initial = Range { best: reaction_best, worst: initial_worst };
    Some(Latencies {
        reaction: Range { best: reaction_best, worst: reaction_worst },
        initial_reaction: initial,
        age: Range {
            best: (first.period + initial.best).saturating_sub(reaction_worst),
            worst: first.period + initial.worst - initial.best,
        },
    })
}

/// Under LET; `None` if some task may not finish within its period.
pub fn let_(hops: &[Hop]) -> Option<Latencies> {
    if hops.iter().any(|h| h.r_worst.is_none_or(|r| r > h.period)) {
        return None;
    }
    let (first, rest) = hops.split_first()?;
    let sum: Ps = hops.iter().map(|h| h.period).sum();
    let initial = Range { best: sum, worst: first.period + rest.iter().map(|h| 2 * h.period).sum::<Ps>() };
    Some(Latencies {
        reaction: Range { best: sum, worst: 2 * sum },
        initial_reaction: initial,
        age: Range { best: hops.last()?.period, worst: first.period + initial.worst - initial.best },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(period: Ps, c_best: Ps, r_best: Ps, r_worst: Ps) -> Hop {
        Hop { period, c_best, r_best, r_worst: Some(r_worst), c_worst: c_best }
    }

    #[test]
    fn hand_computed_chain() {
        // T = 10, 20; C- = 1, 2; R- = 1, 3; R+ = 4, 9.
        let hops = [hop(Ps::new(10), Ps::new(1), Ps::new(1), Ps::new(4)), hop(Ps::new(20), Ps::new(2), Ps::new(3), Ps::new(9))];
        let i = implicit(&hops).unwrap();
        assert_eq!(i.reaction, Range { best: Ps::new(1 + 2), worst: Ps::new(10 + 4 + 20 + 9) });
        assert_eq!(i.initial_reaction, Range { best: Ps::new(3), worst: Ps::new(4 + 20 + 9) });
        assert_eq!(i.age, Range { best: Ps::ZERO, worst: Ps::new(10 + 33 - 3) });
        let l = let_(&hops).unwrap();
        assert_eq!(l.reaction, Range { best: Ps::new(30), worst: Ps::new(60) });
        assert_eq!(l.initial_reaction, Range { best: Ps::new(30), worst: Ps::new(10 + 40) });
        assert_eq!(l.age, Range { best: Ps::new(20), worst: Ps::new(10 + 50 - 30) });
        let late = [hop(Ps::new(10), Ps::new(1), Ps::new(1), Ps::new(11)), hop(Ps::new(20), Ps::new(2), Ps::new(3), Ps::new(9))];
        assert!(let_(&late).is_none() && implicit(&late).is_some());
        assert!(implicit(&[Hop { r_worst: None, ..hops[0] }]).is_none());
    }
}
