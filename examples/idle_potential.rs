//! Research probe, not a bound: measures how far the *clipped budget* `Psi + P` is from the
//! most idle L cycles `N0_big` (while more than sigma_C warps are unfinished), at every
//! state the plain DP reaches, for sigma_L = 1. The README ("What would reach the
//! targets") states the conjecture it tests and what is missing from its proof.
//!
//! `P` gives each L issue still to come that enters a run of C's the excess of that run's
//! stretch-bound term over `sigma_C - 1`; `Psi` is the stretch bound's term of the warps
//! already at a C. The probe prints `max(sigma_C N0_big - Psi - P)` per instance.
//!
//! ```text
//! cargo run --release --example idle_potential -- random 200 12   # 200 random instances, W <= 12
//! cargo run --release --example idle_potential -- kernel LCCCCCLCCCCCCCLL 4 10
//! ```

use gpu_makespan::instance::Instance;
use gpu_makespan::kernel::Unit;
use gpu_makespan::state::transitions::{Scratch, Transitions};
use gpu_makespan::state::Counts;
use std::collections::HashMap;

/// Most cycles with no L-ready warp while more than `sigma` warps are unfinished, over
/// every schedule from `s` (plain DP).
fn big_idle(t: &Transitions, s: &Counts, sigma: u64, memo: &mut HashMap<Counts, u64>) -> u64 {
    if s.is_finished() {
        return 0;
    }
    if let Some(&v) = memo.get(s) {
        return v;
    }
    let idle = s.warps() > sigma && s.slots().iter().all(|&(p, _)| t.units()[p as usize] != Unit::L);
    let mut succ = Vec::new();
    t.successors(s, &mut Scratch::default(), &mut succ);
    let v = idle as u64 + succ.iter().map(|n| big_idle(t, n, sigma, memo)).max().unwrap_or(0);
    memo.insert(s.clone(), v);
    v
}

/// Per position: `Psi` of a warp there, its `P`, and its stretch-bound budget `B`.
fn tables(units: &[Unit], sigma: u64) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let len = units.len();
    let mut run = vec![0u64; len + 1];
    for p in (0..len).rev() {
        run[p] = if units[p] == Unit::C { 1 + run[p + 1] } else { 0 };
    }
    let term = |p: usize| run[p] - 1 + (p + run[p] as usize == len) as u64;
    let psi: Vec<u64> = (0..=len).map(|p| if p < len && units[p] == Unit::C { term(p) } else { 0 }).collect();
    let (mut clipped, mut budget) = (vec![0u64; len + 1], vec![0u64; len + 1]);
    for p in (0..len).rev() {
        let enters = units[p] == Unit::L && p + 1 < len && units[p + 1] == Unit::C;
        clipped[p] = clipped[p + 1] + if enters { term(p + 1).saturating_sub(sigma - 1) } else { 0 };
        budget[p] = budget[p + 1] + if enters { term(p + 1) } else { 0 };
    }
    let budget = (0..=len).map(|p| budget[p] + psi[p]).collect();
    (psi, clipped, budget)
}

/// `(N0_big at the start, (Psi + P) / sigma and B / sigma at the start, worst excess, states)`.
fn probe(kernel: &str, warps: u64, sigma: u64) -> (u64, f64, f64, i64, usize) {
    let inst = Instance::new(kernel, warps as i64, 1, sigma as i64).expect("valid instance");
    let t = Transitions::new(&inst);
    let (psi, clipped, budget) = tables(t.units(), sigma);
    let sum = |s: &Counts, v: &[u64]| s.slots().iter().map(|&(p, n)| n as u64 * v[p as usize]).sum::<u64>();
    let mut memo = HashMap::new();
    let start = t.start();
    let n0 = big_idle(&t, &start, sigma, &mut memo);
    let worst = memo.iter().filter(|(s, _)| s.warps() > sigma).map(|(s, &v)| (sigma * v) as i64 - (sum(s, &psi) + sum(s, &clipped)) as i64).max().unwrap_or(0);
    let per = |x: u64| x as f64 / sigma as f64;
    (n0, per(sum(&start, &psi) + sum(&start, &clipped)), per(sum(&start, &budget)), worst, memo.len())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).map_or(d, |a| a.parse().expect("a number"));
    if args.first().map(String::as_str) == Some("kernel") {
        let kernel = args.get(1).expect("kernel string");
        let sigma = arg(2, 4);
        for w in sigma + 1..=arg(3, 10) {
            let (n0, clip, b, worst, states) = probe(kernel, w, sigma);
            println!("{kernel} sigma_C {sigma} W {w}: N0_big {n0}, (Psi+P)/sigma {clip:.1}, B/sigma {b:.1}, worst excess {worst} ({:.2} sigma), {states} states", worst as f64 / sigma as f64);
        }
        return;
    }
    let (count, max_w) = (arg(1, 200), arg(2, 12));
    let mut seed: u64 = 12345;
    let mut rnd = |m: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    let mut worst_ratio = 0f64;
    for _ in 0..count {
        let len = 4 + rnd(9) as usize;
        let kernel: String = (0..len).map(|_| if rnd(10) < 4 { 'L' } else { 'C' }).collect();
        let sigma = 2 + rnd(3);
        let w = sigma + 1 + rnd(max_w.max(sigma + 1) - sigma);
        if (w as f64 + 1.0).powf(len.min(9) as f64 / 2.0) > 2e5 {
            continue; // keep the plain DP small
        }
        let (_, _, _, worst, states) = probe(&kernel, w, sigma);
        worst_ratio = worst_ratio.max(worst as f64 / sigma as f64);
        println!("{kernel} W {w} sigma_C {sigma}: worst excess {worst} ({:.2} sigma), {states} states", worst as f64 / sigma as f64);
    }
    println!("largest excess over all instances: {worst_ratio:.2} sigma_C");
}
