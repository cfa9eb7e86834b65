//! Reference mode (`Reference::App4rta`): the GSoC document's formulas where this tool
//! departs from them, so that a user can set its numbers beside APP4RTA's. None of them
//! is a proven bound where the tool departs (`docs/system-model.md` says why for each);
//! a report in reference mode is never `proven`.
//!
//! What changes:
//! * a GPU task mapped to a CPU runs with its trigger's labels only: the pre-processing
//!   runnables' reads and the post-processing runnables' writes, without their ticks
//!   (GSoC "CPU Task Execution Time", case "The GPU task is mapped to a CPU");
//! * LET chain latencies by the document's formulas ([`let_document`]);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documents_let_formulas_on_the_published_chain() {
        // APP4RTA's chain Lidar_Grabber -> Localization -> EKF -> Planner -> DASM (periods
        // 33, 400, 15, 15, 5 ms): it prints LET reaction [468, 931] and initial reaction
        // [468, 536] ms, as these formulas give; its worst age (425 ms) is not what the
        // printed recursion gives (418 ms; docs/system-model.md).
        let hops: Vec<Hop> = [33, 400, 15, 15, 5].iter().map(|&t| Hop { period: Ps::new(t), c_best: Ps::ZERO, r_best: Ps::ZERO, r_worst: Some(Ps::new(t)) }).collect();
        let l = let_document(&hops).unwrap();
        assert_eq!(l.reaction, Range { best: Ps::new(468), worst: Ps::new(931) });
        assert_eq!(l.initial_reaction, Range { best: Ps::new(468), worst: Ps::new(536) });
        assert_eq!(l.age, Range { best: Ps::new(5), worst: Ps::new(33 + 367 + 8 + 7 + 3) });
    }
}
