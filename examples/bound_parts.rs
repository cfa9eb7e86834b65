//! Each per-state upper bound at the start state, for a kernel at several warp counts:
//! which bound gives the start-state bound, and by how much the others miss it (a
//! research aid for issue 31; `docs/experiments.md` records what it showed).
//!
//! `cargo run --release --example bound_parts -- KERNEL W1,W2,... SIGMA_L SIGMA_C`

use gpu_makespan::model::instance::Instance;
use gpu_makespan::state::transitions::Transitions;
use gpu_makespan::state_bounds::{standard, StateBound};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 5 {
        eprintln!("usage: bound_parts KERNEL W1,W2,... SIGMA_L SIGMA_C");
        std::process::exit(2);
    }
    let (sigma_l, sigma_c): (i64, i64) = match (args[3].parse(), args[4].parse()) {
        (Ok(l), Ok(c)) => (l, c),
        _ => {
            eprintln!("sigmas must be integers");
            std::process::exit(2);
        }
    };
    for w in args[2].split(',') {
        let inst = match w
            .parse()
            .map_err(|_| w.to_string())
            .and_then(|w| Instance::new(&args[1], w, sigma_l, sigma_c).map_err(|e| e.to_string()))
        {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        };
        let b = standard(&inst);
        let s = Transitions::new(&inst).start();
        let parts = [
            ("per_warp", b.per_warp.upper(&s)),
            ("queue", b.queue.upper(&s)),
            ("tail", b.tail.upper(&s)),
            ("stretch", b.stretch.upper(&s)),
            ("period", b.period.upper(&s)),
            ("clipped", b.clipped.upper(&s)),
            ("last_warp", b.last_warp.upper(&s)),
        ];
        let shown: Vec<String> = parts.iter().map(|(n, v)| if *v == u64::MAX { format!("{n}=n/a") } else { format!("{n}={v}") }).collect();
        println!("W={w} {}", shown.join(" "));
        // The clipped bound's splits: the floor of the phase of few warps, the big phase's
        // idle cycles it allows, and the jam automaton's allowance (slack + M, in Y's).
        let c = gpu_makespan::state_bounds::clipped::Clipped::with_end_games_until(
            &Transitions::new(&inst),
            &gpu_makespan::state_bounds::Tables::new(&inst),
            gpu_makespan::state_bounds::clipped::END_GAME_STATES,
            &gpu_makespan::budget::Budget::default(),
        );
        let scale = gpu_makespan::state_bounds::helpers::jam::SCALE as f64;
        for (((unit, floor, exact), (_, big)), (_, jam)) in c.floors().into_iter().zip(c.big_phase_idle(&s)).zip(c.jam_allowance(&s)) {
            let jam = jam.map_or("-".to_string(), |j| format!("{:.1}", j as f64 / scale));
            println!("  clipped paced {unit:?} floor {floor} exact_end_games {exact}: big-phase idle <= {big:?}, slack + M = {jam}");
        }
    }
}
