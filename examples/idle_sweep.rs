//! The idle bound against the exact block search at sizes the brute force cannot reach
//! (issue 53, item 3): random kernels of 3-10 instructions with barriers, 2-4 blocks of
//! 2-4 warps (9-16 warps in all), sigma up to 2/4; each solved exactly by the search
//! (4 s, 1 GiB; others skipped) and by the idle bound. Prints every instance where the
//! idle bound is below the exact value (a soundness failure) and the counts.
//! Run: `cargo run --release --example idle_sweep -- SEED COUNT` (`docs/idle-bound.md`).

use gpu_makespan::exact::blocks::solve_blocks;
use gpu_makespan::exact::idle_bound::idle_bound;
use gpu_makespan::exact::solve::SolveOptions;
use gpu_makespan::model::blocks::Blocks;
use gpu_makespan::model::instance::Instance;
use gpu_makespan::model::program::Program;
use gpu_makespan::Budget;
use rand::{Rng, SeedableRng};
fn main() {
    let seed: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let n: usize = std::env::args().nth(2).unwrap().parse().unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let (mut done, mut fails, mut tight, mut below_h) = (0, 0, 0, 0);
    for _ in 0..n {
        let len = rng.random_range(3..=10);
        let k: String = (0..len).map(|_| ['L', 'C', 'C', 'L', '|'][rng.random_range(0..5)]).collect();
        let phases: Vec<&str> = k.split('|').filter(|p| !p.is_empty()).collect();
        if phases.is_empty() {
            continue;
        }
        let k = phases.join("|");
        let (w, b, sl, sc) =
            (rng.random_range(2..=4i64), rng.random_range(2..=4u32), rng.random_range(1..=2i64), rng.random_range(1..=4i64));
        if (w as u32) * b > 16 || (w as u32) * b < 9 {
            continue;
        }
        let Ok(p) = Program::build(&k, |ph| Instance::new(ph, w, sl, sc)) else { continue };
        let bl = Blocks::new(p, b);
        let opts = SolveOptions::default().with_budget(Budget::new(Some(std::time::Duration::from_secs(4)), 1 << 30));
        let Ok(s) = solve_blocks(&bl, &opts) else { continue };
        if !s.exact() {
            continue;
        }
        let truth = s.interval.upper();
        let Some(v) = idle_bound(&bl, Some(std::time::Duration::from_secs(30)), &[]) else {
            println!("NONE {}", bl.given());
            continue;
        };
        done += 1;
        if v < truth {
            fails += 1;
            println!("FAIL {}: idle {v} < exact {truth}", bl.given());
        }
        if v == truth {
            tight += 1;
        }
        if v < bl.horizon() {
            below_h += 1;
        }
    }
    println!(
        "seed {seed}: {done} exact instances (9-16 warps), {fails} below the exact value, {tight} tight, {below_h} below the block horizon"
    );
}
