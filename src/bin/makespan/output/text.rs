//! Human-readable reports. Every number is labelled: `[exact]`, `[proven bound]`,
//! `[lower bound]` or `[estimate]`.

use gpu_makespan::bounds;
use gpu_makespan::files::serde_word;
use gpu_makespan::rta::Bound;
use gpu_makespan::system::ms;
use gpu_makespan::system::SystemReport;
use gpu_makespan::Instance;
use gpu_makespan::Solution;
use gpu_makespan::Unit;
use std::fmt::Write;

/// One line describing the instance as modelled.
pub fn instance_line(inst: &Instance) -> String {
    let given = if inst.source_kernel != inst.kernel.to_string() {
        format!(" (given as {}, transformed by the paper's Fig. 1)", inst.source_kernel)
    } else {
        String::new()
    };
    format!(
        "kernel {}{given}, I = {} (I_L = {}, I_C = {}), W = {} warps, sigma_L = {}, sigma_C = {}",
        inst.kernel,
        inst.len(),
        inst.kernel.i_l(),
        inst.kernel.i_c(),
        inst.warps,
        inst.sigma_l,
        inst.sigma_c
    )
}

/// How the paper's eq. 5 is labelled for `inst`.
fn eq5_label(inst: &Instance) -> &'static str {
    if bounds::pessimistic_unproven(inst) {
        "[NOT a proven bound here]"
    } else {
        "[proven upper bound]"
    }
}

/// The `bound` report.
pub fn bounds_table(inst: &Instance) -> String {
    let mut s = String::new();
    let (p, h, lb) = (bounds::pessimistic(inst), bounds::safe_horizon(inst), bounds::lower_bound(inst));
    let _ = writeln!(s, "instance     {}", instance_line(inst));
    let _ = writeln!(s, "safe horizon {h:>8}  [proven upper bound]  I + floor((W-1) I_L/sigma_L) + floor((W-1) I_C/sigma_C)");
    let label = format!("{:<25}", eq5_label(inst));
    let _ = writeln!(s, "pessimistic  {p:>8}  {label}  paper eq. 5: ceil(W/sigma_L) I_L + ceil(W/sigma_C) I_C");
    let _ = writeln!(s, "lower bound  {lb:>8}  [proven lower bound]  max(I, ceil(W I_L/sigma_L), ceil(W I_C/sigma_C))");
    let sb = gpu_makespan::bounds::start_state_bound(inst);
    let _ = writeln!(s, "state bound  {sb:>8}  [proven upper bound]  the search's per-state bounds (per-warp, queue, tail, stretch, period, clipped, last-warp) at the start");
    if bounds::pessimistic_unproven(inst) {
        let _ = writeln!(
            s,
            "note: eq. 5 is below the safe horizon, so it is not a proven bound for this instance (a sigma > 1 lets one warp be starved longer; see README)"
        );
    }
    s
}

/// The `solve` report (without the schedule chart; see [`schedule_chart`]).
pub fn solution_table(inst: &Instance, sol: &Solution) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "instance     {}", instance_line(inst));
    let o = &sol.outcome;
    let method = match sol.constraints {
        Some(c) => format!("{:?} ({:?} constraints, horizon {})", sol.method, c, sol.horizon).to_lowercase(),
        None => format!("{:?}", sol.method).to_lowercase(),
    };
    let _ = writeln!(s, "method       {method}");
    let status = sol.status().as_str();
    let _ = writeln!(s, "status       {status}{}", o.stop().stopped_by().map(|b| format!(" (stopped by {b})")).unwrap_or_default());
    let label = if sol.exact() { "[exact T^(W), schedule re-checked]" } else { "[lower bound: longest checked schedule found]" };
    let _ = writeln!(s, "makespan     {:>8}  {label}", o.lower_bound());
    let _ = writeln!(s, "upper bound  {:>8}  [proven]", o.upper_bound());
    let _ = writeln!(s, "safe horizon {:>8}  [proven upper bound]", bounds::safe_horizon(inst));
    let p_label = eq5_label(inst);
    let _ = writeln!(s, "eq. 5        {:>8}  {p_label}", bounds::pessimistic(inst));
    if let Some(st) = &o.stats.search {
        if st.dense_states > 0 {
            let _ = writeln!(
                s,
                "search       dense table: {} states solved (distinct; every state reachable from the start, no bound)",
                st.dense_states
            );
        } else {
            let _ = writeln!(s, "search       {} states expanded, {} stored", st.expansions, st.stored_states);
        }
    }
    if let Some(st) = &o.stats.ilp {
        let _ = writeln!(s, "ilp          {} binary variables, {} rows", st.variables, st.rows);
    }
    let _ = writeln!(s, "time         {:.3} s", sol.seconds);
    for n in &sol.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

/// Most cells (warps x cycles) of a printed schedule chart.
pub const MAX_CHART_CELLS: u64 = 10_000_000;
/// Most issued instructions (warps x instructions) in a `--json` schedule.
pub const MAX_JSON_ISSUES: u64 = 1_000_000;

/// [`check_schedule_cells`] for the schedule of `inst`.
pub fn check_schedule_size(inst: &Instance, cycles: u64, json: bool) -> Result<(), gpu_makespan::error::InputError> {
    check_schedule_cells(inst.warps as u64, inst.len() as u64, cycles, json)
}

/// Refuses a schedule output that would be too large: the chart of `w` warps has `w x T`
/// cells (`T` at least `cycles`), the JSON array `w x I` entries (`I` = `instructions`).
/// Called before solving with a lower bound on the makespan, and after with the makespan.
pub fn check_schedule_cells(w: u64, instructions: u64, cycles: u64, json: bool) -> Result<(), gpu_makespan::error::InputError> {
    let (size, cap, what) = if json {
        (w.saturating_mul(instructions), MAX_JSON_ISSUES, "issued instructions")
    } else {
        (w.saturating_mul(cycles), MAX_CHART_CELLS, "chart cells (warps x cycles)")
    };
    if size > cap {
        return Err(gpu_makespan::error::InputError::option(
            "schedule",
            format!("{size} {what}"),
            format!("more than the cap of {cap}; leave out the schedule (it is still checked)"),
        ));
    }
    Ok(())
}

/// The checked worst-case schedule as a cycle-by-warp chart, with its heading.
pub fn schedule_chart(inst: &Instance, sol: &Solution) -> String {
    let w = sol.outcome.witness();
    format!("\nworst-case schedule ({} cycles, checked):\n{}", w.makespan(), w.schedule().chart(&inst.kernel))
}

/// The `rta` report: exact decimals in the input's unit.
pub fn rta_table(rep: &gpu_makespan::rta::RtaReport) -> String {
    use gpu_makespan::rta::TieOrder;
    use gpu_makespan::rta::Ties;
    use gpu_makespan::rta::Verdict;
    let mut s = String::new();
    let jobs = rep.window.is_some();
    let _ = writeln!(
        s,
        "{:<12} {:>9} {:>9} {:>7} {:>6} {:>10} {:>10} {:>10}  {:<16} verdict",
        "kernel",
        "release",
        "C",
        "blocks",
        "b",
        "finish",
        if jobs { "worst R" } else { "response" },
        "deadline",
        "launch"
    );
    for k in &rep.kernels {
        s.push_str(&rta_row(rep, k, jobs));
    }
    let optimistic = rep.verdict == Verdict::Optimistic;
    let zero_latency = rep.kernels.iter().any(|k| k.wcet_model.as_deref() == Some("no-latencies"));
    let verdict = match (rep.schedulable, optimistic) {
        (Some(true), false) if zero_latency => "SCHEDULABLE in the zero-latency model: not proven on real hardware (give gpu.latency)",
        (Some(true), false) => "SCHEDULABLE: every kernel meets its deadline",
        (Some(true), true) => "meets every deadline ONLY IF the optimistic C hold (not proven)",
        (Some(false), _) => "NOT schedulable",
        (None, _) => "no deadlines given: responses only (a relative deadline for the kernels gives a verdict)",
    };
    let _ = writeln!(s, "task set     {verdict}");
    let _ = writeln!(s, "unit         {}", rep.unit);
    let bound = bound_line(rep.bound, optimistic);
    let _ = writeln!(s, "responses    {bound}");
    let _ = writeln!(s, "times        rounded up to {SIGNIFICANT} significant digits (whole numbers in full); exact values in --json");
    let launch = match (rep.launch, rep.ties) {
        (TieOrder::LaunchOrder, _) => "kernels released at the same time launch in their launch_order (as the file states)".to_string(),
        (TieOrder::FileOrder, _) => format!("kernels released at the same time launch in file order (--file-order); {}", rep.ties),
        (TieOrder::Free, Ties::None) => {
            "any order, but no two kernels are released at the same time: there is no order to choose".to_string()
        }
        (TieOrder::Free, t) => format!("kernels released at the same time may launch in any order: {t}"),
    };
    let _ = writeln!(s, "launch       {launch}");
    for k in rep.kernels.iter().filter(|k| k.worst_order.is_some()) {
        let _ = writeln!(s, "worst order  {}: {}", k.name, k.worst_order.as_deref().unwrap_or_default().join(", "));
    }
    let _ = writeln!(s, "g_max        {} block slots", rep.g_max);
    if let Some(u) = rep.utilization {
        let _ = writeln!(s, "utilization  {u:.4} of the GPU's thread-time");
    }
    let width = rep.kernels.iter().map(|k| k.name.chars().count()).max().unwrap_or(0).max(7);
    for k in &rep.kernels {
        let _ = writeln!(s, "C of {:<width$} {}", k.name, k.wcet_source);
    }
    for a in &rep.assumptions {
        let _ = writeln!(s, "assumes      {a}");
    }
    s
}

/// One kernel's row of the `rta` table.
fn rta_row(rep: &gpu_makespan::rta::RtaReport, k: &gpu_makespan::rta::KernelRow, jobs: bool) -> String {
    use gpu_makespan::rta::Ties;
    use gpu_makespan::rta::{KernelTies, Verdict};
    let verdict = match k.schedulable {
        Some(true) => "meets deadline",
        Some(false) => "MISSES DEADLINE",
        None => "-",
    };
    let deadline = k.deadline.map_or("-".to_string(), |d| round_up(&k.exact(d)));
    let label = if k.wcet_optimistic {
        "[OPTIMISTIC]"
    } else if rep.verdict == Verdict::Optimistic {
        "[not proven]"
    } else if k.wcet_model.as_deref() == Some("no-latencies") {
        "[proven, no latencies]"
    } else {
        "[proven]"
    };
    let launch = match k.ties {
        KernelTies::None => "alone",
        KernelTies::GivenOrder => "given order",
        KernelTies::Tried(Ties::AllOrders(_)) => "worst order",
        KernelTies::Tried(_) => "bound (ties)",
    };
    let job = if jobs { format!(" (job {} of {})", k.worst_job, k.jobs) } else { String::new() };
    format!(
        "{:<12} {:>9} {:>9} {:>7} {:>6} {:>10} {:>10} {:>10}  {:<16} {label} {verdict}{job}\n",
        k.name,
        round_up(&k.exact(k.release)),
        round_up(&k.exact(k.wcet)),
        k.blocks,
        k.threads_per_block,
        round_up(&k.exact(k.finish)),
        round_up(&k.exact(k.response)),
        deadline,
        launch
    )
}

/// Significant digits of the times in the `rta` table.
const SIGNIFICANT: usize = 6;

/// An exact non-negative decimal (`441.539999999999867538`) rounded **up** to
/// [`SIGNIFICANT`] significant digits, its whole part always in full (`441.540`): a
/// shown response or finish is never below the exact one.
pub fn round_up(exact: &str) -> String {
    let (int, frac) = exact.split_once('.').unwrap_or((exact, ""));
    let all: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let first = all.iter().position(|&d| d != 0).unwrap_or(all.len());
    let keep = (first + SIGNIFICANT).max(int.len()).min(all.len());
    let mut kept = all[..keep].to_vec();
    if all[keep..].iter().any(|&d| d != 0) {
        let mut i = kept.len();
        loop {
            if i == 0 {
                kept.insert(0, 1);
                break;
            }
            i -= 1;
            if kept[i] == 9 {
                kept[i] = 0;
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    let int_len = int.len() + kept.len() - keep;
    let text: String = kept.iter().map(|d| char::from(b'0' + d)).collect();
    let (whole, part) = text.split_at(int_len);
    let whole = if whole.trim_start_matches('0').is_empty() { "0" } else { whole.trim_start_matches('0') };
    let part = part.trim_end_matches('0');
    if part.is_empty() {
        whole.to_string()
    } else {
        format!("{whole}.{part}")
    }
}

/// The `approx` report.
pub fn approx_table(inst: &Instance, a: &gpu_makespan::experiments::Approx) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "instance     {}", instance_line(inst));
    let _ = writeln!(s, "{:>6} {:>10} {:>8} {:>14}", "y", "T^(y)", "exact", "ceil(W/y)T^(y)");
    for r in &a.rows {
        let _ = writeln!(s, "{:>6} {:>10} {:>8} {:>14}", r.y, r.makespan, if r.exact { "yes" } else { "NO" }, r.scaled);
    }
    let _ = writeln!(
        s,
        "estimate     {:>8}  [ESTIMATE, not a bound] T_approx({}) = min over y, attained at y = {}",
        a.estimate, a.x, a.argmin_y
    );
    let _ = writeln!(s, "safe bound   {:>8}  [proven upper bound] {}", a.safe_upper_bound, a.safe_upper_bound_source);
    match (a.exact_makespan, a.lower_bound) {
        (Some(t), _) => {
            let _ = writeln!(s, "T^(W)        {t:>8}  [exact]");
        }
        (None, Some(lb)) => {
            let _ = writeln!(s, "T^(W) >=     {lb:>8}  [proven lower bound; exact value not reached within the time limit]");
        }
        (None, None) => {}
    }
    let _ = writeln!(s, "safe horizon {:>8}  [proven upper bound]", a.safe_horizon);
    let p_label = eq5_label(inst);
    let _ = writeln!(s, "eq. 5        {:>8}  {p_label}", a.pessimistic);
    let _ = writeln!(s, "time         {:.3} s", a.seconds);
    for n in &a.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

/// The `instance` line of a kernel with barriers.
fn program_line(p: &gpu_makespan::Program) -> String {
    let first = &p.phases[0];
    format!(
        "instance     kernel {} with {} (|), I = {}, W = {} warps of one block, sigma_L = {}, sigma_C = {}\n",
        crate::wording::shorten(&p.kernel()),
        crate::wording::plural(p.phases.len() as u64 - 1, "barrier"),
        p.len(),
        p.warps(),
        first.sigma_l,
        first.sigma_c
    )
}

/// The `solve` report of a kernel with barriers: one line per phase (its interval), the
/// totals (sums, [`gpu_makespan::model::program`] proves them for one block), and the labels.
pub fn phased_table(p: &gpu_makespan::Program, sol: &gpu_makespan::PhasedSolution) -> String {
    let mut s = String::new();
    s.push_str(&program_line(p));
    let _ = writeln!(s, "{:>5} {:>6} {:>9} {:>9}  {:<12} kernel", "phase", "I", "lower", "upper", "status");
    for (k, (inst, ph)) in p.phases.iter().zip(&sol.phases).enumerate() {
        let status = if ph.exact() { "exact".to_string() } else { ph.status().to_string() };
        let _ = writeln!(
            s,
            "{:>5} {:>6} {:>9} {:>9}  {status:<12} {}",
            k + 1,
            inst.len(),
            ph.outcome.lower_bound(),
            ph.outcome.upper_bound(),
            crate::wording::shorten(&inst.kernel.to_string())
        );
    }
    let label = if sol.exact() {
        "[exact T^(W): every phase exact; schedule re-checked with the barriers]"
    } else {
        "[lower bound: the phases' checked schedules, re-checked with the barriers; T^(W) is in [makespan, upper bound]]"
    };
    let _ = writeln!(s, "makespan     {:>8}  {label}", sol.lower_bound());
    let _ = writeln!(s, "upper bound  {:>8}  [proven: the sum of the phases' proven upper bounds]", sol.upper_bound());
    let safe: u64 = p.phases.iter().map(bounds::safe_horizon).sum();
    let _ = writeln!(s, "safe horizon {safe:>8}  [proven upper bound: sum over the phases]");
    let _ = writeln!(s, "time         {:.3} s (wall clock; distinct phases in parallel)", sol.seconds);
    s
}

/// The checked schedule of a kernel with barriers, phase by phase, each chart starting
/// at its own cycle 1, with the barrier between them.
pub fn phased_chart(p: &gpu_makespan::Program, sol: &gpu_makespan::PhasedSolution) -> String {
    let mut s = format!("\nworst-case schedule ({} cycles, checked with the barriers):\n", sol.lower_bound());
    let mut offset = 0;
    for (k, (inst, ph)) in p.phases.iter().zip(&sol.phases).enumerate() {
        let w = ph.outcome.witness();
        if k > 0 {
            let _ = writeln!(s, "==== barrier: all {} warps wait here (after cycle {offset}) ====", p.warps());
        }
        let _ = writeln!(s, "phase {} (cycles {} to {}):", k + 1, offset + 1, offset + w.makespan());
        s.push_str(&w.schedule().chart(&inst.kernel));
        offset += w.makespan();
    }
    s
}

/// The `bound` report of a kernel with barriers: one row per phase, the sums, and what
/// each column is, once.
pub fn phased_bounds_table(p: &gpu_makespan::Program) -> String {
    let mut s = String::new();
    s.push_str(&program_line(p));
    let _ = writeln!(
        s,
        "{:>5} {:>6} {:>5} {:>5} {:>8} {:>8} {:>8} {:>8}  kernel",
        "phase", "I", "I_L", "I_C", "lower", "state", "horizon", "eq. 5"
    );
    let mut unproven = false;
    // The start-state bound once per distinct phase (it may take a second).
    let (distinct, index) = p.distinct();
    let bound: Vec<u64> = distinct.into_iter().map(gpu_makespan::bounds::start_state_bound).collect();
    let states: Vec<u64> = index.iter().map(|&i| bound[i]).collect();
    for (k, inst) in p.phases.iter().enumerate() {
        let star = if bounds::pessimistic_unproven(inst) { "*" } else { " " };
        unproven |= star == "*";
        let _ = writeln!(
            s,
            "{:>5} {:>6} {:>5} {:>5} {:>8} {:>8} {:>8} {:>7}{star}  {}",
            k + 1,
            inst.len(),
            inst.kernel.i_l(),
            inst.kernel.i_c(),
            bounds::lower_bound(inst),
            states[k],
            bounds::safe_horizon(inst),
            bounds::pessimistic(inst),
            crate::wording::shorten(&inst.kernel.to_string())
        );
    }
    let sum = |f: fn(&Instance) -> u64| p.phases.iter().map(f).sum::<u64>();
    let _ = writeln!(
        s,
        "{:>5} {:>6} {:>5} {:>5} {:>8} {:>8} {:>8}",
        "sum",
        p.len(),
        p.phases.iter().map(|i| i.kernel.i_l()).sum::<usize>(),
        p.phases.iter().map(|i| i.kernel.i_c()).sum::<usize>(),
        sum(bounds::lower_bound),
        states.iter().sum::<u64>(),
        sum(bounds::safe_horizon)
    );
    let _ = writeln!(
        s,
        "lower    [proven lower bound]  max(I, ceil(W I_L/sigma_L), ceil(W I_C/sigma_C)); the sum bounds the kernel (W warps of one block)"
    );
    let _ = writeln!(s, "state    [proven upper bound]  the search's per-state bounds at the start; the sum bounds the kernel");
    let _ = writeln!(s, "horizon  [proven upper bound]  the safe horizon I + floor((W-1) I_L/sigma_L) + floor((W-1) I_C/sigma_C); the sum bounds the kernel");
    let _ = writeln!(s, "eq. 5    the paper's ceil(W/sigma_L) I_L + ceil(W/sigma_C) I_C, a proven bound only where not marked *");
    if unproven {
        let _ = writeln!(s, "note: * eq. 5 is below the safe horizon, so it is not a proven bound for that phase (a sigma > 1 lets one warp be starved longer; see README)");
    }
    s
}

/// The `solve` report of several blocks with barriers.
pub fn blocks_table(b: &gpu_makespan::Blocks, sol: &gpu_makespan::BlockSolution) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "instance     kernel {} with {} (|), I = {}, {} blocks of W = {} warps ({} warps), sigma_L = {}, sigma_C = {}",
        crate::wording::shorten(&b.program.kernel()),
        crate::wording::plural(b.program.phases.len() as u64 - 1, "barrier"),
        b.len(),
        b.blocks,
        b.warps_per_block(),
        b.warps(),
        b.sigma(Unit::L),
        b.sigma(Unit::C)
    );
    let status = if sol.exact() { "optimal" } else { sol.status.as_str() };
    let _ = writeln!(s, "status       {status}");
    let label = if sol.exact() && sol.upper_from == "search" {
        "[exact: every state of the blocks searched; schedule re-checked with each block's barriers]"
    } else if sol.exact() {
        "[exact: the longest checked schedule found meets the proven upper bound; re-checked with each block's barriers]"
    } else {
        "[lower bound: the longest checked schedule found (greedy, climbed, random), re-checked with each block's barriers]"
    };
    let _ = writeln!(s, "makespan     {:>8}  {label}", sol.interval.lower());
    let how = match sol.upper_from {
        "search" => "the search's value",
        "idle_bound" => "the idle bound (docs/idle-bound.md), below the block horizon",
        "latency_horizon" => "the latency horizon",
        _ => "the block horizon",
    };
    let _ = writeln!(s, "upper bound  {:>8}  [proven: {how}]", sol.interval.upper());
    let _ = writeln!(s, "safe horizon {:>8}  [proven upper bound: the block horizon]", b.horizon());
    let _ = writeln!(s, "states       {:>8}", sol.states);
    let _ = writeln!(s, "time         {:.3} s", sol.seconds);
    s
}

/// The checked schedule of several blocks, all phases in one chart (warps of block
/// `k` are rows `(k - 1) W + 1` to `k W`).
pub fn blocks_chart(b: &gpu_makespan::Blocks, sol: &gpu_makespan::BlockSolution) -> String {
    let letters: String = b.units().iter().map(|u| u.letter()).collect();
    let kernel = gpu_makespan::Kernel::parse(&letters).expect("L and C only");
    format!(
        "\nworst-case schedule ({} cycles, checked with each block's barriers; warps 1-{} are block 1, and so on):\n{}",
        sol.interval.lower(),
        b.warps_per_block(),
        sol.schedule.chart(&kernel)
    )
}

/// The `bound` report of several blocks with barriers.
pub fn blocks_bounds_table(b: &gpu_makespan::Blocks) -> String {
    let r = gpu_makespan::bounds::BlocksBounds::of(b);
    let mut s = format!("instance     {}\n", r.instance);
    let _ = writeln!(
        s,
        "safe horizon {:>8}  [proven upper bound: the block horizon, any schedule of the blocks starting together]",
        r.safe_horizon
    );
    let _ = writeln!(s, "lower bound  {:>8}  [proven lower bound: a warp's I, and the units' work]", r.lower_bound);
    s
}

/// `makespan system`: one table per core, the GPU tasks, the chains, then the verdict,
/// warnings and assumptions. Worst cases are `[proven upper bound]`, best cases
/// `[proven lower bound]`, under the assumptions listed.
pub fn system_tables(rep: &SystemReport, warnings_shown: bool) -> String {
    use gpu_makespan::rta::Verdict;
    use gpu_makespan::system::Reference;
    let mut s = String::new();
    let meaning = match (rep.reference, rep.verdict) {
        (Reference::App4rta, _) => "REFERENCE MODE (app4rta): the GSoC document's formulas, NOT proven bounds",
        (Reference::Proven, Verdict::Proven) => "R+ and C+ are proven upper bounds, R- and C- proven lower bounds",
        (Reference::Proven, Verdict::Optimistic) => {
            "R+ and C+ are upper bounds only under an optimistic assumption (see verdict and assumes): NOT proven"
        }
    };
    let _ =
        writeln!(s, "communication {}, offloading {}; times in ms; {meaning}", serde_word(&rep.communication), serde_word(&rep.offload));
    system_cores(&mut s, rep);
    system_gpu(&mut s, rep);
    system_chains(&mut s, rep);
    let verdict = if rep.schedulable { "every task meets its deadline and every chain its requirement" } else { "NOT shown schedulable" };
    let _ = writeln!(s, "\nverdict      {verdict} (bounds {})", rep.verdict);
    if rep.status == "time_limit" {
        let _ = writeln!(s, "status       time_limit: the time limit was reached; tasks without R+ marked \"not analysed\" were not analysed (the bounds shown are proven)");
    }
    for a in &rep.assumptions {
        let _ = writeln!(s, "assumes      {a}");
    }
    if !rep.warnings.is_empty() {
        let shown = if warnings_shown { "on standard error" } else { "not shown with --quiet" };
        let _ = writeln!(s, "warnings     {} ({shown}; `warnings` in --json)", rep.warnings.len());
    }
    s
}

/// The per-core tables of `makespan system`.
fn system_cores(s: &mut String, rep: &SystemReport) {
    let opt = |v: Option<f64>| v.map_or("-".to_string(), |x| format!("{x:.3}"));
    for core in &rep.cores {
        let by_model = serde_word(&core.priorities) == "model";
        let _ = writeln!(
            s,
            "\ncore {} ({}, {:.3} GHz), priorities {} ({}), utilization {:.3} (sum of (C+ + S+) / T)",
            core.unit,
            core.kind,
            core.frequency_ghz,
            serde_word(&core.priorities),
            if by_model { "prio: the model's, larger higher" } else { "prio: rank, #0 highest" },
            core.utilization
        );
        let _ = writeln!(
            s,
            "{:<28} {:>4} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  {:<15} verdict",
            "task", "prio", "T", "D", "C-", "C+", "S+", "R-", "R+", "case"
        );
        for t in &core.tasks {
            // The priority used: the model's, or (rate-monotonic) the rank, #0 highest.
            let prio = match (by_model, t.entity.model_priority) {
                (true, Some(p)) => p.to_string(),
                _ => format!("#{}", t.rank),
            };
            let verdict = if t.schedulable {
                "meets D"
            } else if t.worst.is_none() {
                "MISSES D (R+ > T: not analysed)"
            } else {
                "MISSES D"
            };
            let _ = writeln!(
                s,
                "{:<28} {:>4} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9} {:>9}  {:<15} {verdict}",
                t.entity.name,
                prio,
                ms(t.entity.period),
                ms(t.entity.deadline),
                ms(t.entity.c.best),
                ms(t.entity.c.worst),
                ms(t.entity.suspension.worst),
                opt(t.best.map(ms)),
                opt(t.worst.map(ms)),
                serde_word(&t.entity.case)
            );
        }
    }
}

/// The GPU tasks' table of `makespan system`.
fn system_gpu(s: &mut String, rep: &SystemReport) {
    if !rep.gpu.is_empty() {
        let bound = rep.gpu_bound.as_ref().map_or("-".to_string(), serde_word);
        let sharing = match (rep.gpu_sharing.mode, rep.gpu_sharing.context_switch, rep.gpu_sharing.given) {
            ("time-slices", Some(cs), Some(true)) => format!("time slices, context switch {cs:.3}"),
            ("time-slices", ..) => "time slices, context switch not given (0)".to_string(),
            ("alone", ..) => "each alone on the GPU (reference mode)".to_string(),
            _ => "one FIFO context".to_string(),
        };
        let _ = writeln!(s, "\nGPU tasks ({sharing}; kernel-level RTA: {bound}, C {})", rep.gpu_verdict.map_or("-", |v| v.as_str()));
        if let Some(load) = rep.gpu_load {
            let keeps_up = if load > 1.0 { ": above 1, the GPU cannot keep up" } else { "" };
            let _ = writeln!(s, "GPU load {load:.3} (each task's kernels alone over its trigger's period, summed{keeps_up})");
        }
        let _ = writeln!(s, "{}", gpu_bound_words(rep.gpu_bound));
        let _ = writeln!(
            s,
            "{:<20} {:<28} {:>9} {:>9} {:>9} {:>9} {:>9}  source",
            "task", "triggered by", "slice", "copies", "kernels", "R-", "R+"
        );
        for g in &rep.gpu {
            let slice = g.time_slice.map_or("-".to_string(), |q| format!("{:.3}", ms(q)));
            let _ = writeln!(
                s,
                "{:<20} {:<28} {:>9} {:>9.3} {:>9.3} {:>9.3} {:>9}  {}",
                g.task,
                g.triggered_by.as_deref().unwrap_or("-"),
                slice,
                ms(g.copies.worst),
                ms(g.kernel_response),
                ms(g.response.best),
                g.r_worst.map_or("-".to_string(), |r| format!("{:.3}", ms(r))),
                g.source
            );
        }
    }
}

/// What the kernel-level RTA's bound word of the GPU table means (the `rta` table's words).
fn gpu_bound_words(bound: Option<Bound>) -> String {
    bound.map_or("bound        no kernel-level RTA".to_string(), |b| format!("bound        {b}: {}", bound_line(b, false)))
}

/// Each chain's latencies of `makespan system`.
fn system_chains(s: &mut String, rep: &SystemReport) {
    for c in &rep.chains {
        let _ = writeln!(s, "\nchain {}: {}", c.name, c.tasks.join(" -> "));
        let _ = writeln!(s, "{:<8} {:>21} {:>21} {:>21}", "", "reaction [-, +]", "initial reaction", "age");
        for (name, l) in [("implicit", &c.implicit), ("LET", &c.let_)] {
            let cell = |r: gpu_makespan::system::RangeMs| format!("[{:.3}, {:.3}]", r.best, r.worst);
            match l {
                Some(l) => {
                    let _ = writeln!(s, "{name:<8} {:>21} {:>21} {:>21}", cell(l.reaction), cell(l.initial_reaction), cell(l.age));
                }
                None => {
                    let _ = writeln!(s, "{name:<8} {:>21}", "-");
                }
            }
        }
        if let Some(req) = c.requirement {
            let has_latencies = c.implicit.is_some() || c.let_.is_some();
            let verdict = match c.meets_requirement {
                Some(true) => "met",
                _ if !has_latencies => "not shown to be met (no latencies)",
                _ => "NOT MET",
            };
            let _ = writeln!(s, "requirement {req:.3} ms on the worst reaction: {verdict}");
        }
        for n in &c.notes {
            let _ = writeln!(s, "note: {n}");
        }
    }
}

/// What the responses are, for the `responses` line of the table.
fn bound_line(bound: Bound, optimistic: bool) -> &'static str {
    match bound {
        _ if optimistic => "[OPTIMISTIC] some C is not a bound on a block's time (see below): the responses are not proven",
        Bound::ExactMonotone => {
            "[proven] exact for block times C (worst launch order of tied releases), safe for shorter ones (one block demand)"
        }
        Bound::Envelope => "[proven upper bound] safe for every block time up to C, every SM choice and launch order (mixed block demands)",
        Bound::TieBound => "[proven upper bound] safe for every block time up to C and every launch order (tied groups merged, or the queue's work bound)",
        Bound::Priorities => {
            "[proven upper bound] safe for every block time up to C, every SM choice and launch order (two stream priorities)"
        }
        Bound::Copies => {
            "[proven upper bound] safe for every block and copy time up to the given ones and every launch order (copy engine)"
        }
        Bound::TimeSliced => {
            "[proven upper bound] safe for every block time up to C and every phase of the processes' time slices (time slicing)"
        }
        Bound::UpperBound => {
            "[proven upper bound] safe for every block time up to C and launch order (one block demand; the worst order found needs entries that cannot happen together, so it may not be reached)"
        }
    }
}

/// The `preempt` report: the framework's figures per kernel, in rank order.
pub fn preempt_table(rep: &gpu_makespan::rta::Preemptive) -> String {
    use gpu_makespan::rta::{Ranking, Verdict};
    let t = |v: gpu_makespan::rta::Ticks| round_up(&rep.scale.format(v));
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<12} {:>4} {:>4} {:>9} {:>9} {:>8} {:>9} {:>9} {:>9} {:>10} {:>10}  verdict",
        "kernel", "rank", "segs", "longest", "C", "launches", "E", "launch", "blocking", "response", "deadline"
    );
    for k in &rep.kernels {
        let verdict = match k.schedulable {
            Some(true) => "meets deadline",
            Some(false) => "MISSES DEADLINE",
            None => "-",
        };
        let label = match (k.wcet_optimistic, k.wcet_model.as_deref()) {
            (true, _) => "[OPTIMISTIC]",
            (false, Some("no-latencies")) => "[proven, no latencies]",
            _ => "[proven]",
        };
        let _ = writeln!(
            s,
            "{:<12} {:>4} {:>4} {:>9} {:>9} {:>8} {:>9} {:>9} {:>9} {:>10} {:>10}  {label} {verdict}",
            k.name,
            k.rank,
            k.segments,
            t(k.longest_segment),
            t(k.wcet),
            k.launches,
            t(k.gpu_time),
            t(k.longest_launch),
            t(k.blocking),
            k.response.map_or("-".into(), t),
            k.deadline.map_or("-".into(), t),
        );
    }
    let zero_latency = rep.kernels.iter().any(|k| k.wcet_model.as_deref() == Some("no-latencies"));
    let verdict = match (rep.schedulable, rep.verdict) {
        (true, Verdict::Proven) if zero_latency => {
            "SCHEDULABLE under the framework in the zero-latency model: not proven on real hardware (give gpu.latency)"
        }
        (true, Verdict::Proven) => "SCHEDULABLE under the framework: every kernel meets its deadline (proven)",
        (true, Verdict::Optimistic) => "meets every deadline ONLY IF the optimistic C hold (not proven)",
        (false, _) => "NOT schedulable under the framework",
    };
    let _ = writeln!(s, "task set     {verdict}");
    let _ = writeln!(s, "unit         {}", rep.unit);
    let _ = writeln!(
        s,
        "framework    quantum {}, save {}, relaunch {} (with the profile's launch and block overheads); rules F1-F4 of docs/preemptive.md",
        t(rep.quantum),
        t(rep.save),
        t(rep.relaunch)
    );
    let ranks = match (rep.ranking, rep.feasible_order) {
        (Ranking::Given, _) => "as given (rank)".to_string(),
        (Ranking::RateMonotonic, _) => "rate-monotonic".to_string(),
        (Ranking::DeadlineMonotonic, _) => "deadline-monotonic".to_string(),
        (_, Some(false)) => {
            "Audsley's assignment found no order in which every kernel meets its deadline; the ranks left are deadline-monotonic"
                .to_string()
        }
        _ => "Audsley's optimal assignment".to_string(),
    };
    let _ = writeln!(s, "ranks        {ranks}");
    let _ = writeln!(s, "columns      longest: longest segment of a block; C: a block's segments together; launches: most per job; E: most GPU time per job; launch: its longest launch (how long it can hold off a kernel of a better rank); blocking: longest launch of a lower rank");
    let _ = writeln!(s, "times        rounded up to {SIGNIFICANT} significant digits (whole numbers in full); exact values in --json");
    let width = rep.kernels.iter().map(|k| k.name.chars().count()).max().unwrap_or(0).max(7);
    for k in &rep.kernels {
        let _ = writeln!(s, "C of {:<width$} {}", k.name, k.wcet_source);
    }
    for k in rep.kernels.iter().filter(|k| k.points.is_some()) {
        let _ = writeln!(s, "points of {:<width$} {}", k.name, k.points.as_deref().unwrap_or_default());
    }
    for k in rep.kernels.iter().filter(|k| k.note.is_some()) {
        let _ = writeln!(s, "no response  {}: {}", k.name, k.note.as_deref().unwrap_or_default());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::round_up;

    #[test]
    fn rounding_goes_up_and_keeps_whole_numbers() {
        assert_eq!(round_up("441.539999999999867538"), "441.54");
        assert_eq!(round_up("32.12307692307691344"), "32.1231");
        assert_eq!(round_up("146693846"), "146693846");
        assert_eq!(round_up("0.000769230769230769"), "0.000769231");
        assert_eq!(round_up("9.999999"), "10");
        assert_eq!(round_up("99999.95"), "100000");
        assert_eq!(round_up("0"), "0");
        assert_eq!(round_up("400"), "400");
        assert_eq!(round_up("1.5"), "1.5");
    }
}
