//! Choosing preemption points (`makespan preempt --points-budget`): where to cut a
//! kernel's instruction string so that every segment fits a blocking budget, with as
//! few points as possible.
//!
//! A point goes between two instructions, or in place of a barrier (`|`; a point is a
//! barrier of the block too, `docs/preemptive.md` G2). Whether a segment fits is the
//! caller's test (its bound, computed as the kernel's `C` is, plus the save, within the
//! budget). With at most [`MAX_TESTS`] segments to test, a shortest-path over the cut
//! positions tries every segment and gives the fewest points. Otherwise each segment is
//! grown until the next instruction would not fit (greedy): every segment still fits,
//! and the count is the fewest whenever a segment's bound does not shrink as the
//! segment grows, which the report does not claim.

use crate::error::Error;
pub(crate) use crate::model::kernel::POINT;

/// Most segments the exact search tests; beyond, the greedy cut.
pub(crate) const MAX_TESTS: usize = 2_000;

/// A kernel with its points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Proposal {
    /// The instruction string with `^` at each point.
    pub text: String,
    /// Whether no fewer points can do (every segment tested).
    pub fewest: bool,
}

/// A place to cut: the end of the segment before it and the start of the one after
/// (they differ by one when a barrier becomes the point).
#[derive(Debug, Clone, Copy)]
struct Cut {
    end: usize,
    start: usize,
}

/// The places `text` (no points in it) can be cut: between two instructions, or in
/// place of a barrier between two instructions (not next to the characters the
/// instruction strings ignore, spaces and `_`, so no segment is empty).
fn cuts(text: &str) -> Vec<Cut> {
    let b = text.as_bytes();
    let instruction = |i: usize| b.get(i).is_some_and(|c| matches!(c.to_ascii_uppercase(), b'L' | b'C'));
    let mut cuts = Vec::new();
    for (i, &c) in b.iter().enumerate().skip(1) {
        if c == b'|' && instruction(i - 1) && instruction(i + 1) {
            cuts.push(Cut { end: i, start: i + 1 });
        } else if instruction(i - 1) && instruction(i) {
            cuts.push(Cut { end: i, start: i });
        }
    }
    cuts
}

/// The fewest points in `text` (a kernel without points) such that `fits` holds for
/// every segment, or `None` when some segment that cannot be cut does not fit.
pub(crate) fn propose(text: &str, fits: &mut dyn FnMut(&str) -> Result<bool, Error>) -> Result<Option<Proposal>, Error> {
    let cuts = cuts(text);
    // Nodes: 0 the start, 1..=n the cuts, n + 1 the end.
    let n = cuts.len();
    let start = |k: usize| if k == 0 { 0 } else { cuts[k - 1].start };
    let end = |k: usize| if k == n + 1 { text.len() } else { cuts[k - 1].end };
    let exact = (n + 1) * (n + 2) / 2 <= MAX_TESTS;
    let mut best: Vec<Option<(usize, usize)>> = vec![None; n + 2];
    best[0] = Some((0, 0));
    if exact {
        for b in 1..=n + 1 {
            for a in 0..b {
                let Some((points, _)) = best[a] else { continue };
                let better = best[b].is_none_or(|(p, _)| points + usize::from(b <= n) < p);
                if better && fits(&text[start(a)..end(b)])? {
                    best[b] = Some((points + usize::from(b <= n), a));
                }
            }
        }
    } else {
        let mut a = 0;
        while a <= n {
            let mut reach = None;
            for b in a + 1..=n + 1 {
                if !fits(&text[start(a)..end(b)])? {
                    break;
                }
                reach = Some(b);
            }
            let Some(b) = reach else { return Ok(None) };
            best[b] = Some((0, a));
            a = b;
        }
    }
    if best[n + 1].is_none() {
        return Ok(None);
    }
    let mut chosen = Vec::new();
    let mut k = n + 1;
    while k != 0 {
        let (_, a) = best[k].expect("on the path");
        if a != 0 {
            chosen.push(a);
        }
        k = a;
    }
    chosen.reverse();
    let mut out = String::with_capacity(text.len() + chosen.len());
    let mut at = 0;
    for &k in &chosen {
        let c = cuts[k - 1];
        out.push_str(&text[at..c.end]);
        out.push(POINT);
        at = c.start;
    }
    out.push_str(&text[at..]);
    Ok(Some(Proposal { text: out, fewest: exact }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(text: &str, max: usize) -> Option<Proposal> {
        propose(text, &mut |s: &str| Ok(s.len() <= max)).unwrap()
    }

    #[test]
    fn points_go_between_instructions_or_in_place_of_barriers() {
        assert_eq!(with("LLCC", 2).unwrap().text, "LL^CC");
        assert_eq!(with("LL|CC", 2).unwrap().text, "LL^CC");
        assert_eq!(with("LLCC", 4).unwrap().text, "LLCC");
        // Spaces and `_` are no instructions: no cut beside them.
        assert_eq!(with(" LL_CC", 3).unwrap().text, " L^L_C^C");
        assert!(with("LLCC", 0).is_none());
        assert!(with("LLCC", 1).unwrap().fewest);
    }

    #[test]
    fn the_exact_search_finds_the_fewest_where_fit_is_not_monotone() {
        // Every segment must start with L and have at most 3 instructions: growing the
        // first segment as far as it fits (LLL) leaves CC, which cannot start one; the
        // search finds LL^LCC.
        let mut fits = |s: &str| Ok::<_, Error>(s.len() <= 3 && !s.starts_with('C'));
        assert_eq!(propose("LLLCC", &mut fits).unwrap().unwrap().text, "LL^LCC");
        assert!(propose("LCCCC", &mut fits).unwrap().is_none());
        // At most 3 and not exactly 2: LLLL takes one point, LLLLL two.
        let mut odd = |s: &str| Ok::<_, Error>(s.len() <= 3 && s.len() != 2);
        assert_eq!(propose("LLLL", &mut odd).unwrap().unwrap().text, "L^LLL");
        assert_eq!(propose("LLLLL", &mut odd).unwrap().unwrap().text, "L^L^LLL");
    }
}
