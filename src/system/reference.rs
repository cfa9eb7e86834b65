//! Reference mode (`Reference::App4rta`): the GSoC document's formulas where this tool
//! departs from them, so that a user can set its numbers beside APP4RTA's. None of them
//! is a proven bound where the tool departs (`docs/system-model.md` says why for each);
//! a report in reference mode is never `proven`.
//!
//! What changes:
//! * a GPU task mapped to a CPU runs with its trigger's labels only: the pre-processing
//!   runnables' reads and the post-processing runnables' writes, without their ticks
//!   (GSoC "CPU Task Execution Time", case "The GPU task is mapped to a CPU");
//! * implicit and LET chain latencies by the document's formulas ([`implicit_document`],
//!   [`let_document`]);
//! * no memory contention (APP4RTA's `contentionForTask` formula is not public);
//! * each GPU task has the GPU to itself (APP4RTA analyses no sharing between GPU tasks).

use super::chains::{Hop, Latencies, Range};
use super::model::{Ps, Runnable, System};

/// Which rules the analysis follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reference {
    /// This tool's proven rules.
    #[default]
    Proven,
    /// The GSoC document's (APP4RTA's) rules where they differ.
    App4rta,
}

/// The trigger's runnables as the document counts them when its GPU task runs on a CPU:
/// the reads of `pre`, the writes of `post`, no ticks (copy-like runnables: accesses
/// only).
pub fn labels_only(sys: &System, pre: &[String], post: &[String]) -> Vec<Runnable> {
    let take = |names: &[String], reads: bool| -> Vec<Runnable> {
        names
            .iter()
            .filter_map(|n| sys.runnables.get(n))
            .map(|r| Runnable {
                name: format!("{} ({})", r.name, if reads { "its reads" } else { "its writes" }),
                reads: if reads { r.reads.clone() } else { Vec::new() },
                writes: if reads { Vec::new() } else { r.writes.clone() },
                ..Runnable::default()
            })
            .collect()
    };
    let mut out = take(pre, true);
    out.extend(take(post, false));
    out
}

/// LET latencies by the GSoC document ("Task Chain Reaction (Logical Execution Time
/// Communication Paradigm)", "Task Chain Age"): worst reaction `sum_{j < last} 2 T_j +
/// T_last`; worst initial reaction `T_0 + sum_{j >= 1} (T_j + f(j))` with `f(j) =
/// T_{j-1}` if `T_j > T_{j-1}`, else `T_j`; worst age `T_0 + sum_{j >= 1} g(j)` with
/// `g(0) = T_0` and `g(j)` = `2 T_j - g(j-1)` if `T_j = g(j-1)`, `T_j - g(j-1)` if
/// `T_j > g(j-1)`, else the distance from `g(j-1)` up to the next multiple of `T_j`
/// (a whole `T_j` when it divides `g(j-1)`); best reaction and best initial reaction
/// `sum_j T_j`, best age `T_last`. `None` if some task may not finish within its period.
pub fn let_document(hops: &[Hop]) -> Option<Latencies> {
    if hops.iter().any(|h| h.r_worst.is_none_or(|r| r > h.period)) {
        return None;
    }
    let t: Vec<Ps> = hops.iter().map(|h| h.period).collect();
    let (last, before) = t.split_last()?;
    let sum: Ps = t.iter().sum();
    let reaction = Range { best: sum, worst: 2 * before.iter().sum::<Ps>() + *last };
    let initial_worst = t[0] + (1..t.len()).map(|j| t[j] + if t[j] > t[j - 1] { t[j - 1] } else { t[j] }).sum::<Ps>();
    let mut g = t[0];
    let mut age_worst = t[0];
    for &tj in &t[1..] {
        g = match tj.cmp(&g) {
            std::cmp::Ordering::Equal => 2 * tj - g,
            std::cmp::Ordering::Greater => tj - g,
            std::cmp::Ordering::Less if !g.is_multiple_of(tj) => tj * g.ceil_ratio(tj) - g,
            std::cmp::Ordering::Less => tj * (g / tj + 1) - g,
        };
        age_worst += g;
    }
    Some(Latencies { reaction, initial_reaction: Range { best: sum, worst: initial_worst }, age: Range { best: *last, worst: age_worst } })
}

/// The GSoC document's implicit latencies ("Task Chain Reaction (Implicit)", "Task Chain
/// Age"), with `ip_j- = R_j- - C_j-` the best initial pending time and, where the
/// document's recursion for the worst one is ambiguous (`ip(tau_j)+ = f(0, R+_{(j-1) in
/// hp(j)})`), `ip_j+ = R_j+ - C_j+` (0 for a task that nothing preempts, as the last task
/// of both published chains):
///
/// * worst reaction `T_0 + R_0+ + sum_{j>=1} (R_j+ + f(j))`, `f(j) = T_j - ip_j-`, for the
///   last task `-ip_j+`;
/// * worst initial reaction `R_0+ + sum_{j>=1} (R_j+ + f(j))` with the four cases: `T_{j-1}
///   - ip_j+` if `T_j >= T_{j-1}` and the chain has at most 3 tasks; else `-ip_j+` if
///   `T_j >= T_{j-1}` and `j` is last; else `T_{j-1} + T_j - ip_j-` if `T_j >= T_{j-1}`
///   and `j = 1`; else `T_j - ip_j-`;
/// * best reaction and best initial reaction `R_0- + sum_{j>=1} (R_j- - ip_j-)`; worst age
///   `T_0 + initial+ - initial-`, best age `T_0 + initial- - reaction+` (at least 0).
///
/// Not proven (the worst reaction leaves out the last task's period, which Davare et
/// al.'s bound keeps). `None` if some task has no worst-case response.
pub fn implicit_document(hops: &[Hop]) -> Option<Latencies> {
    let worst: Vec<Ps> = hops.iter().map(|h| h.r_worst).collect::<Option<_>>()?;
    let last = hops.len().checked_sub(1)?;
    let ip_minus = |j: usize| hops[j].r_best.saturating_sub(hops[j].c_best);
    let ip_plus = |j: usize| worst[j].saturating_sub(hops[j].c_worst);
    let t = |j: usize| hops[j].period;
    let best = hops[0].r_best + (1..hops.len()).map(|j| hops[j].r_best.saturating_sub(ip_minus(j))).sum::<Ps>();
    let reaction: Ps = t(0)
        + worst[0]
        + (1..hops.len()).map(|j| if j == last { worst[j].saturating_sub(ip_plus(j)) } else { (worst[j] + t(j)).saturating_sub(ip_minus(j)) }).sum::<Ps>();
    let initial_step = |j: usize| {
        let rising = t(j) >= t(j - 1);
        match () {
            _ if rising && last < 3 => (worst[j] + t(j - 1)).saturating_sub(ip_plus(j)),
            _ if rising && j == last => worst[j].saturating_sub(ip_plus(j)),
            _ if rising && j == 1 => (worst[j] + t(j - 1) + t(j)).saturating_sub(ip_minus(j)),
            _ => (worst[j] + t(j)).saturating_sub(ip_minus(j)),
        }
    };
    let initial = worst[0] + (1..hops.len()).map(initial_step).sum::<Ps>();
    Some(Latencies {
        reaction: Range { best, worst: reaction },
        initial_reaction: Range { best, worst: initial },
        age: Range { best: (t(0) + best).saturating_sub(reaction), worst: t(0) + initial - best },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documents_implicit_formulas_give_the_published_values_from_app4rtas_responses() {
        // APP4RTA's published R+ of Lidar_Grabber, Localization, EKF, Planner and DASM
        // (18.27, 392.59, 4.79, 13.36, 1.30 ms; periods 33, 400, 15, 15, 5), each but
        // Lidar_Grabber the highest priority on its core (no pending time), and its
        // published best reaction 402.348 ms: the formulas give its worst reaction
        // 893.305, worst initial reaction 898.305 and worst age 528.956 ms to the 0.01 ms
        // the inputs are printed to.
        let r = [18.27, 392.59, 4.79, 13.36, 1.30];
        let t = [33.0, 400.0, 15.0, 15.0, 5.0];
        let ps = |ms: f64| Ps::new((ms * 1e9).round() as u128);
        let hops: Vec<Hop> = (0..5)
            .map(|j| Hop {
                period: ps(t[j]),
                // The best cases only through the published best reaction (all on hop 0).
                c_best: ps(if j == 0 { 402.348 } else { 0.0 }),
                r_best: ps(if j == 0 { 402.348 } else { 0.0 }),
                r_worst: Some(ps(r[j])),
                c_worst: ps(r[j]),
            })
            .collect();
        let l = implicit_document(&hops).unwrap();
        let near = |x: Ps, published: f64| (x.get() as f64 / 1e9 - published).abs() < 0.01;
        assert!(near(l.reaction.worst, 893.305), "{:?}", l.reaction);
        assert!(near(l.initial_reaction.worst, 898.305), "{:?}", l.initial_reaction);
        assert!(near(l.age.worst, 528.956), "{:?}", l.age);
        assert!(near(l.reaction.best, 402.348), "{:?}", l.reaction);
    }

    #[test]
    fn the_documents_let_formulas_on_the_published_chain() {
        // APP4RTA's chain Lidar_Grabber -> Localization -> EKF -> Planner -> DASM (periods
        // 33, 400, 15, 15, 5 ms): it prints LET reaction [468, 931] and initial reaction
        // [468, 536] ms, as these formulas give; its worst age (425 ms) is not what the
        // printed recursion gives (418 ms; docs/system-model.md).
        let hops: Vec<Hop> = [33, 400, 15, 15, 5].iter().map(|&t| Hop { period: Ps::new(t), c_best: Ps::ZERO, r_best: Ps::ZERO, r_worst: Some(Ps::new(t)), c_worst: Ps::new(t) }).collect();
        let l = let_document(&hops).unwrap();
        assert_eq!(l.reaction, Range { best: Ps::new(468), worst: Ps::new(931) });
        assert_eq!(l.initial_reaction, Range { best: Ps::new(468), worst: Ps::new(536) });
        assert_eq!(l.age, Range { best: Ps::new(5), worst: Ps::new(33 + 367 + 8 + 7 + 3) });
    }
}
