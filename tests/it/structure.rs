//! Issue 57, item 1 (which schedules attain `T^(W)`?) and item 2 (does a state whose
//! warps are all further along never take longer?), settled on exhaustive small
//! instances: the counterexamples are pinned here, the scan that found them is the
//! ignored `structure_scan` (figures in docs/experiments.md, 2026-11-29).
//!
//! Everything here is written apart from the library: a brute-force longest path over
//! sorted warp positions, and list schedules of three families. Every list schedule is
//! work-conserving (each unit issues to as many ready warps as it can), so it is one of
//! the schedules `T^(W)` maximises over; the brute force's start values are checked
//! against the library's plain DP.
//!
//! * **Warp ranks:** a static rank per warp at each unit (by symmetry the L ranks may be
//!   fixed, so `W!` schedules).
//! * **Warp rules:** per unit one of five dynamic rules (fixed index, laggard first,
//!   leader first, least recently issued at the unit first, most recently first), with
//!   the last `s` warps after every other at one unit or both (starved).
//! * **Position ranks** (the family of the library's local search,
//!   `exact::heuristic::priority`): a rank per program position, the ready warps at the
//!   best-ranked positions first, with starved warps as above.

use crate::common::{inst, plain_dp};
use gpu_makespan::state::transitions::Transitions;
use std::collections::HashMap;

/// What a list schedule sorts the ready warps of a unit by: (positions, last issue cycles
/// at this unit, warp, unit) to (starved, rank, warp).
type Key<'a> = &'a dyn Fn(&[usize], &[u32], usize, bool) -> (bool, i64, usize);

/// A tiny instance: `prog[i]` true for `L`; `sigma = [sigma_C, sigma_L]`, integral.
struct Tiny {
    prog: Vec<bool>,
    w: usize,
    sigma: [usize; 2],
}

impl Tiny {
    fn new(kernel: &str, w: usize, sigma_l: usize, sigma_c: usize) -> Tiny {
        Tiny { prog: kernel.chars().map(|c| c == 'L').collect(), w, sigma: [sigma_c, sigma_l] }
    }

    fn len(&self) -> usize {
        self.prog.len()
    }

    /// The warps (indices of `pos`) ready for `unit` (true: L).
    fn ready(&self, pos: &[usize], unit: bool) -> Vec<usize> {
        (0..pos.len()).filter(|&k| pos[k] < self.len() && self.prog[pos[k]] == unit).collect()
    }

    /// The longest time from `pos` to all done, over every work-conserving choice.
    fn worst(&self, pos: &[usize], memo: &mut HashMap<Vec<usize>, u32>) -> u32 {
        let mut key = pos.to_vec();
        key.sort_unstable();
        if key.iter().all(|&p| p == self.len()) {
            return 0;
        }
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let (l, c) = (self.ready(&key, true), self.ready(&key, false));
        let mut best = 0;
        for a in choose(&l, l.len().min(self.sigma[1])) {
            for b in choose(&c, c.len().min(self.sigma[0])) {
                let mut next = key.clone();
                a.iter().chain(&b).for_each(|&k| next[k] += 1);
                best = best.max(1 + self.worst(&next, memo));
            }
        }
        memo.insert(key, best);
        best
    }

    fn worst_from_start(&self) -> u32 {
        self.worst(&vec![0; self.w], &mut HashMap::new())
    }

    /// The list schedule that issues, at each unit, the ready warps with the least
    /// `key(positions, last issue cycles at this unit, warp, unit)` first.
    fn list(&self, key: Key) -> u32 {
        let mut pos = vec![0; self.w];
        let mut last = [vec![0u32; self.w], vec![0u32; self.w]];
        let mut t = 0;
        while pos.iter().any(|&p| p < self.len()) {
            t += 1;
            let mut issued = Vec::new();
            for unit in [true, false] {
                let mut ready = self.ready(&pos, unit);
                ready.sort_by_key(|&k| key(&pos, &last[unit as usize], k, unit));
                for &k in ready.iter().take(self.sigma[unit as usize]) {
                    last[unit as usize][k] = t;
                    issued.push(k);
                }
            }
            issued.into_iter().for_each(|k| pos[k] += 1);
        }
        t
    }

    /// Whether warp `k` is starved at `unit`: one of the last `starved` warps, at the
    /// units of `mask` (bit 1: L, bit 0: C).
    fn starved(&self, k: usize, unit: bool, starved: usize, mask: usize) -> bool {
        k + starved >= self.w && (mask >> unit as usize) & 1 == 1
    }

    /// The longest schedule of the warp-rank family.
    fn best_warp_ranks(&self) -> u32 {
        permutations(self.w)
            .iter()
            .map(|rank_c| self.list(&|_, _, k, unit| (false, if unit { k } else { rank_c[k] } as i64, k)))
            .max()
            .unwrap_or(0)
    }

    /// The longest schedule of the warp-rule family.
    fn best_warp_rules(&self) -> u32 {
        let rule = |r: usize, pos: &[usize], last: &[u32], k: usize| match r {
            0 => 0,
            1 => pos[k] as i64,
            2 => -(pos[k] as i64),
            3 => last[k] as i64,
            _ => -(last[k] as i64),
        };
        let mut best = 0;
        for (rl, rc) in (0..5).flat_map(|a| (0..5).map(move |b| (a, b))) {
            for (starved, mask) in starvations(self.w) {
                let key = |pos: &[usize], last: &[u32], k: usize, unit: bool| {
                    (self.starved(k, unit, starved, mask), rule(if unit { rl } else { rc }, pos, last, k), k)
                };
                best = best.max(self.list(&key));
            }
        }
        best
    }

    /// The longest schedule of the position-rank family (stops early at `target`).
    fn best_position_ranks(&self, target: u32) -> u32 {
        let mut best = 0;
        for rank in permutations(self.len()) {
            for (starved, mask) in starvations(self.w) {
                let key = |pos: &[usize], _: &[u32], k: usize, unit: bool| (self.starved(k, unit, starved, mask), rank[pos[k]] as i64, k);
                best = best.max(self.list(&key));
                if best >= target {
                    return best;
                }
            }
        }
        best
    }
}

/// No starved warp, or the last `s` at the L unit, the C unit or both.
fn starvations(w: usize) -> Vec<(usize, usize)> {
    std::iter::once((0, 0)).chain((1..w).flat_map(|s| (1..4).map(move |m| (s, m)))).collect()
}

/// The `k`-element subsets of `v`.
fn choose(v: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    if v.len() < k {
        return vec![];
    }
    let mut with: Vec<Vec<usize>> = choose(&v[1..], k - 1)
        .into_iter()
        .map(|mut s| {
            s.insert(0, v[0]);
            s
        })
        .collect();
    with.extend(choose(&v[1..], k));
    with
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    (0..n).fold(vec![vec![]], |all, m| {
        all.into_iter()
            .flat_map(|p: Vec<usize>| {
                (0..=p.len()).map(move |at| {
                    let mut q = p.clone();
                    q.insert(at, m);
                    q
                })
            })
            .collect()
    })
}

/// The brute force's start value is the library's plain DP's.
fn checked_worst(t: &Tiny, kernel: &str) -> u32 {
    let worst = t.worst_from_start();
    let trans = Transitions::new(&inst(kernel, t.w as i64, t.sigma[1] as i64, t.sigma[0] as i64));
    assert_eq!(worst as u64, plain_dp(&trans, &trans.start(), &mut HashMap::new()), "{kernel} W = {}", t.w);
    worst
}

/// The smallest instance no static warp rank attains: `LLCC`, W = 2, sigma 1/1. The worst
/// schedule (7 cycles) gives the L unit to the warp behind at cycle 2, then the other;
/// any fixed ranks let one warp take both L instructions first (6).
#[test]
fn no_static_warp_rank_attains_llcc() {
    let t = Tiny::new("LLCC", 2, 1, 1);
    assert_eq!(checked_worst(&t, "LLCC"), 7);
    assert_eq!(t.best_warp_ranks(), 6);
    assert_eq!(t.best_warp_rules(), 7);
}

/// A shortest instance that none of the 25 rule pairs, with
/// or without starved warps, attains: `LLCLCC`, W = 3, sigma 1/1, 14 cycles against 13.
/// A position rank does attain it.
#[test]
fn no_warp_rule_attains_llclcc() {
    let t = Tiny::new("LLCLCC", 3, 1, 1);
    assert_eq!(checked_worst(&t, "LLCLCC"), 14);
    assert_eq!(t.best_warp_ranks(), 13);
    assert_eq!(t.best_warp_rules(), 13);
    assert_eq!(t.best_position_ranks(14), 14);
}

/// Position ranks with starved warps attain `T^(W)` on every instance of at most 5
/// instructions, W = 2 and 3, sigmas 1/1, 1/2, 2/1, 2/2 (the scan goes to 8
/// instructions, docs/experiments.md); the smallest miss is at W = 4: `CCLLCC`, sigma
/// 2/2, 11 cycles against 10 from all 720 position ranks and every starvation.
#[test]
fn position_ranks_attain_small_instances_but_not_ccllcc() {
    for len in 1..=5 {
        for bits in 0..1u32 << len {
            let kernel: String = (0..len).map(|k| if bits >> k & 1 == 1 { 'L' } else { 'C' }).collect();
            for (w, sl, sc) in [2, 3].into_iter().flat_map(|w| [(w, 1, 1), (w, 1, 2), (w, 2, 1), (w, 2, 2)]) {
                let t = Tiny::new(&kernel, w, sl, sc);
                let worst = t.worst_from_start();
                assert_eq!(t.best_position_ranks(worst), worst, "{kernel} W = {w}, sigma {sl}/{sc}");
            }
        }
    }
    let t = Tiny::new("CCLLCC", 4, 2, 2);
    assert_eq!(checked_worst(&t, "CCLLCC"), 11);
    assert_eq!(t.best_position_ranks(11), 10);
}

/// Item 2's dominance ("a state whose warps are all at least as far as another's cannot
/// take longer") is false, even when every warp's next instruction is on the same unit
/// in both states, and even for one warp one instruction further: that can add 3 cycles
/// (`LCCLLCC`, W = 2: from positions 0 and 2, 7 cycles at most; from 0 and 3, 10).
#[test]
fn a_state_further_along_can_take_longer() {
    let mut memo = HashMap::new();
    let clc = Tiny::new("CLC", 2, 1, 1);
    assert_eq!((clc.worst(&[0, 1], &mut memo), clc.worst(&[0, 2], &mut memo)), (3, 4));
    let mut memo = HashMap::new();
    let same_units = Tiny::new("CLCC", 3, 1, 2);
    assert_eq!((same_units.worst(&[0, 0, 2], &mut memo), same_units.worst(&[0, 2, 2], &mut memo)), (5, 6));
    let mut memo = HashMap::new();
    let one_step = Tiny::new("LCCLLCC", 2, 1, 1);
    assert_eq!((one_step.worst(&[0, 2], &mut memo), one_step.worst(&[0, 3], &mut memo)), (7, 10));
}

/// Barrier phases add up, but a kernel without a barrier is not bounded by its pieces'
/// exact values (docs/experiments.md, 2026-11-30): `LLCCCLCC`, W = 4, sigma 1/3, takes 17
/// cycles, its pieces `L` and `LCCCLCC` 4 and 10. Nor is one warp more bounded by its own
/// work: `CCCC` with sigma_C = 4 takes 4 cycles at W = 4 and 8 at W = 5 (four warps
/// starve the fifth).
#[test]
fn pieces_and_one_more_warp_do_not_bound_a_kernel() {
    assert_eq!(checked_worst(&Tiny::new("LLCCCLCC", 4, 1, 3), "LLCCCLCC"), 17);
    let pieces = (checked_worst(&Tiny::new("L", 4, 1, 3), "L"), checked_worst(&Tiny::new("LCCCLCC", 4, 1, 3), "LCCCLCC"));
    assert_eq!(pieces, (4, 10));
    let warps = (checked_worst(&Tiny::new("CCCC", 4, 1, 4), "CCCC"), checked_worst(&Tiny::new("CCCC", 5, 1, 4), "CCCC"));
    assert_eq!(warps, (4, 8));
}

/// The scan behind docs/experiments.md (2026-11-29): every instance up to `MAX_LEN`
/// instructions, W = 2-4, seven sigma pairs; how many each family misses, and the first
/// miss. `cargo test --release -- --ignored structure_scan --nocapture` (about a minute).
#[test]
#[ignore = "an experiment: prints the table of docs/experiments.md"]
fn structure_scan() {
    const MAX_LEN: usize = 8;
    let sigmas = [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (1, 4), (3, 1)];
    for w in 2..=4 {
        let (mut n, mut misses, mut first) = (0, [0; 3], [None, None, None]);
        for len in 1..=MAX_LEN {
            for bits in 0..1u32 << len {
                let kernel: String = (0..len).map(|k| if bits >> k & 1 == 1 { 'L' } else { 'C' }).collect();
                for &(sl, sc) in &sigmas {
                    let t = Tiny::new(&kernel, w, sl, sc);
                    let worst = t.worst_from_start();
                    let found = [t.best_warp_ranks(), t.best_warp_rules(), t.best_position_ranks(worst)];
                    n += 1;
                    for f in 0..3 {
                        assert!(found[f] <= worst, "{kernel}: a list schedule above the worst");
                        if found[f] < worst {
                            misses[f] += 1;
                            first[f].get_or_insert(format!("{kernel} sigma {sl}/{sc}: {worst} vs {}", found[f]));
                        }
                    }
                }
            }
        }
        println!(
            "W = {w}: {n} instances; misses: warp ranks {} ({:?}), warp rules {} ({:?}), position ranks {} ({:?})",
            misses[0], first[0], misses[1], first[1], misses[2], first[2]
        );
    }
    // The ground-truth rows (W = 8-16): one static rank and the warp rules.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ground-truth.csv")).expect("the data file");
    let (mut rows, mut one_rank, mut rules, mut short) = (0, 0, 0, Vec::new());
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let n = |i: usize| f[i].parse::<usize>().expect("a number");
        let (t, truth) = (Tiny::new(f[0], n(1), n(2), n(3)), n(4) as u32);
        let (rank, rule) = (t.list(&|_, _, k, _| (false, k as i64, k)), t.best_warp_rules());
        assert!(rank <= truth && rule <= truth, "{line}");
        rows += 1;
        one_rank += usize::from(rank == truth);
        rules += usize::from(rule == truth);
        if rule < truth {
            short.push(format!("{} W = {}: {truth} vs {rule}", f[0], f[1]));
        }
    }
    println!("ground truth: {rows} rows; one static rank attains {one_rank}, the warp rules {rules}; short: {short:?}");
}

/// The dominance count of docs/experiments.md: over every pair of states `a <= b`
/// (sorted positions, componentwise) of every string up to 7 instructions, W = 2-3,
/// sigmas 1/1, 1/2, 2/1, 2/2, 1/3, how many have `T(b) > T(a)` and by how much at most.
#[test]
#[ignore = "an experiment: prints the dominance count of docs/experiments.md"]
fn dominance_scan() {
    fn states(w: usize, len: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == w {
            return out.push(cur.clone());
        }
        for p in cur.last().copied().unwrap_or(0)..=len {
            cur.push(p);
            states(w, len, cur, out);
            cur.pop();
        }
    }
    let (mut pairs, mut inverted, mut most) = (0u64, 0u64, 0);
    for len in 1..=7 {
        for bits in 0..1u32 << len {
            let kernel: String = (0..len).map(|k| if bits >> k & 1 == 1 { 'L' } else { 'C' }).collect();
            for (w, sl, sc) in [2, 3].into_iter().flat_map(|w| [(w, 1, 1), (w, 1, 2), (w, 2, 1), (w, 2, 2), (w, 1, 3)]) {
                let t = Tiny::new(&kernel, w, sl, sc);
                let mut all = Vec::new();
                states(w, len, &mut Vec::new(), &mut all);
                let mut memo = HashMap::new();
                let value: Vec<u32> = all.iter().map(|s| t.worst(s, &mut memo)).collect();
                for (a, va) in all.iter().zip(&value) {
                    for (b, vb) in all.iter().zip(&value) {
                        if a != b && a.iter().zip(b).all(|(p, q)| p <= q) {
                            pairs += 1;
                            if vb > va {
                                inverted += 1;
                                most = most.max(vb - va);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(inverted > 0, "dominance held on every pair");
    println!("{pairs} comparable pairs, {inverted} with the state further along longer, by at most {most}");
}
