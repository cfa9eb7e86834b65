//! The independent schedule checker.
//!
//! Every schedule the tool prints passes [`check`] first. It shares no code with the
//! solvers: it recounts unit usage per cycle from the schedule itself and checks
//! 1. shape: one cycle per warp per instruction, all cycles >= 1;
//! 2. precedence: each warp issues its instructions in order, one per cycle
//!    (strictly increasing cycles, which also gives one instruction per warp per cycle);
//! 3. capacity: at most `sigma_X` X instructions in any cycle;
//! 4. work-conservation: in every cycle in which a warp is ready for an X instruction
//!    (it issued the previous one in an earlier cycle, or X is its first instruction)
//!    and does not issue it, exactly `sigma_X` X instructions are issued.

use crate::model::blocks::Blocks;
use crate::model::instance::Instance;
use crate::model::kernel::Unit;
use crate::model::latency::Latencies;
use crate::model::schedule::Schedule;

pub use crate::error::Violation;

/// Checks `s` against the model of `inst`; returns its makespan, or the first violation
/// found.
pub fn check(inst: &Instance, s: &Schedule) -> Result<u64, Violation> {
    check_rules(inst, s).map_err(Violation)
}

/// Checks a schedule of a kernel with barriers, one thread block: `s` has every warp's
/// instructions of all phases in order. Each phase must start in the cycle after the
/// previous one's last issue (no warp passes a barrier before all have reached it, and
/// the units do not idle when every warp is past it) and, shifted to start at cycle 1,
/// pass [`check`] for its phase. Returns the makespan.
pub fn check_phases(phases: &[Instance], s: &Schedule) -> Result<u64, Violation> {
    let mut offset = 0u64;
    let mut first = 0usize;
    for (k, phase) in phases.iter().enumerate() {
        let end = first + phase.len();
        let mut piece = Vec::with_capacity(s.cycles.len());
        for (w, row) in s.cycles.iter().enumerate() {
            let part = row
                .get(first..end)
                .ok_or_else(|| Violation(format!("warp {} has {} instructions, fewer than the phases'", w + 1, row.len())))?;
            if let Some(&t) = part.iter().find(|&&t| t <= offset) {
                return Err(Violation(format!(
                    "warp {} issues an instruction of phase {} at cycle {t}, before the barrier after cycle {offset}",
                    w + 1,
                    k + 1
                )));
            }
            piece.push(part.iter().map(|&t| t - offset).collect());
        }
        offset += check(phase, &Schedule { cycles: piece }).map_err(|v| Violation(format!("phase {}: {}", k + 1, v.as_str())))?;
        first = end;
    }
    if let Some(row) = s.cycles.iter().find(|r| r.len() != first) {
        return Err(Violation(format!("a warp has {} instructions, the phases {first}", row.len())));
    }
    Ok(offset)
}

/// Checks a schedule of `B` blocks with barriers ([`crate::model::blocks`]): row `w` is
/// warp `w` of block `w / W`, with every instruction of all phases. Rules 1-3 as in
/// [`check`] over all warps; a warp's first instruction of phase `k + 1` is issued
/// after the last phase-`k` issue of its own block (the barrier), and it is ready from
/// the cycle after that issue, so rule 4 holds from there. Returns the makespan.
pub fn check_blocks(blocks: &Blocks, s: &Schedule) -> Result<u64, Violation> {
    check_block_rules(blocks, &vec![vec![1; blocks.len()]; blocks.warps() as usize], s).map_err(Violation)
}

/// [`check_blocks`] with fixed instruction latencies ([`crate::model::latency`]),
/// each instruction's latency worked out here from the phases' kernels as given (an
/// instruction of sigma `1/n` is `n` copies, the last with the class's latency, the
/// others 1), not taken from the run. A warp's instruction issues at least
/// `latency - 1` cycles after its previous one's issue cycle and is ready from then; a
/// block's barrier releases it in the cycle after the last result of its warps'
/// instructions before the barrier (`issue + latency - 1`); rules 1, 3 and 4 as in
/// [`check`]. Returns the makespan: the latest `issue + latency - 1`. With latency 1
/// this is [`check_blocks`]. A latency range is a violation here (a schedule has one
/// latency per issue: [`check_blocks_per_issue`]).
pub fn check_blocks_with(blocks: &Blocks, latency: &Latencies, s: &Schedule) -> Result<u64, Violation> {
    let allowed = allowed_latencies(blocks, latency);
    if let Some(&(lo, hi)) = allowed.iter().find(|(lo, hi)| lo != hi) {
        return Err(Violation(format!("a latency range {lo}..{hi} is not one latency per issue")));
    }
    let one: Vec<u32> = allowed.iter().map(|&(lo, _)| lo).collect();
    check_block_rules(blocks, &vec![one; blocks.warps() as usize], s).map_err(Violation)
}

/// [`check_blocks_with`] for a schedule whose every issue has its own latency,
/// `latencies[w][i]` for instruction `i` of warp `w`: each must lie in its class's range
/// (1 for the copies of a `1/n` instruction but the last), then the rules as there.
pub fn check_blocks_per_issue(blocks: &Blocks, latency: &Latencies, latencies: &[Vec<u32>], s: &Schedule) -> Result<u64, Violation> {
    let allowed = allowed_latencies(blocks, latency);
    for (w, row) in latencies.iter().enumerate() {
        if let Some(i) = (0..row.len().min(allowed.len())).find(|&i| row[i] < allowed[i].0 || row[i] > allowed[i].1) {
            let (lo, hi) = allowed[i];
            return Err(Violation(format!("warp {} instruction {} has latency {}, outside {lo}..{hi}", w + 1, i + 1, row[i])));
        }
    }
    check_block_rules(blocks, latencies, s).map_err(Violation)
}

/// The latencies each instruction may have, `(min, max)`, from the phases as given.
fn allowed_latencies(blocks: &Blocks, latency: &Latencies) -> Vec<(u32, u32)> {
    let mut allowed = Vec::with_capacity(blocks.len());
    for phase in &blocks.program.phases {
        for ch in phase.source_kernel.chars().filter(|c| matches!(c, 'L' | 'C')) {
            let (copies, range) = if ch == 'L' { (phase.copies_l, latency.l) } else { (phase.copies_c, latency.c) };
            allowed.extend(std::iter::repeat_n((1, 1), copies.max(1) as usize - 1));
            allowed.push((range.min, range.max));
        }
    }
    allowed
}

fn check_block_rules(blocks: &Blocks, lat: &[Vec<u32>], s: &Schedule) -> Result<u64, String> {
    let units = blocks.units();
    let per_block = blocks.warps_per_block() as usize;
    let ends = blocks.program.phase_ends();
    let starts: Vec<usize> = std::iter::once(0).chain(ends.iter().copied()).take(ends.len()).collect();
    if s.cycles.len() != blocks.warps() as usize {
        return Err(format!("{} warps scheduled, {} expected", s.cycles.len(), blocks.warps()));
    }
    if lat.len() != s.cycles.len() || lat.iter().any(|r| r.len() != units.len() || r.contains(&0)) {
        return Err(format!("{} latencies of at least 1 needed per warp", units.len()));
    }
    for (w, row) in s.cycles.iter().enumerate() {
        if row.len() != units.len() {
            return Err(format!("warp {} has {} instructions, {} expected", w + 1, row.len(), units.len()));
        }
    }
    // done(w, i): the last cycle before warp w's instruction i's result is there.
    let done = |w: usize, i: usize| s.cycles[w][i] + lat[w][i] as u64 - 1;
    for (w, row) in s.cycles.iter().enumerate() {
        if let Some(i) = (0..row.len()).find(|&i| row[i] <= if i == 0 { 0 } else { done(w, i - 1) }) {
            return Err(format!("warp {} instruction {} at cycle {} does not follow the previous one", w + 1, i + 1, row[i]));
        }
    }
    // barrier[b][k]: the last result of phase k of a warp of block b.
    let barrier: Vec<Vec<u64>> = (0..s.cycles.len() / per_block)
        .map(|b| ends.iter().map(|&e| (b * per_block..(b + 1) * per_block).map(|w| done(w, e - 1)).max().unwrap_or(0)).collect())
        .collect();
    let horizon = s.makespan() as usize;
    let makespan = (0..s.cycles.len()).map(|w| done(w, units.len() - 1)).max().unwrap_or(0);
    let mut used = [vec![0u32; horizon + 1], vec![0u32; horizon + 1]];
    for row in &s.cycles {
        for (i, &t) in row.iter().enumerate() {
            used[(units[i] == Unit::C) as usize][t as usize] += 1;
        }
    }
    let sigma = [blocks.sigma(Unit::L) as u32, blocks.sigma(Unit::C) as u32];
    if let Some(t) = (1..=horizon).find(|&t| used[0][t] > sigma[0] || used[1][t] > sigma[1]) {
        return Err(format!("cycle {t}: {} L and {} C issued, capacity {} and {}", used[0][t], used[1][t], sigma[0], sigma[1]));
    }
    for (w, row) in s.cycles.iter().enumerate() {
        for (i, &t) in row.iter().enumerate() {
            let ready = match starts.iter().position(|&st| st == i) {
                Some(0) => 1,
                Some(k) => {
                    let m = barrier[w / per_block][k - 1];
                    if t <= m {
                        return Err(format!(
                            "warp {} issues an instruction of phase {} at cycle {t}, before its block's barrier after cycle {m}",
                            w + 1,
                            k + 1
                        ));
                    }
                    m + 1
                }
                None => done(w, i - 1) + 1,
            };
            let x = (units[i] == Unit::C) as usize;
            if let Some(idle) = (ready..t).find(|&c| used[x][c as usize] < sigma[x]) {
                return Err(format!(
                    "not work-conserving: warp {} is ready for instruction {} ({}) at cycle {idle} while only {} of {} units are busy",
                    w + 1,
                    i + 1,
                    units[i].letter(),
                    used[x][idle as usize],
                    sigma[x]
                ));
            }
        }
    }
    Ok(makespan)
}

fn check_rules(inst: &Instance, s: &Schedule) -> Result<u64, String> {
    let kernel = &inst.kernel;
    if s.cycles.len() != inst.warps as usize {
        return Err(format!("{} warps scheduled, {} expected", s.cycles.len(), inst.warps));
    }
    let mut horizon = 0u64;
    for (w, row) in s.cycles.iter().enumerate() {
        if row.len() != kernel.len() {
            return Err(format!("warp {} has {} instructions, {} expected", w + 1, row.len(), kernel.len()));
        }
        let mut prev = 0u64;
        for (i, &t) in row.iter().enumerate() {
            if t <= prev {
                return Err(format!("warp {} instruction {} at cycle {t} does not follow cycle {prev}", w + 1, i + 1));
            }
            prev = t;
        }
        horizon = horizon.max(prev);
    }
    let h = horizon as usize;
    let mut used_l = vec![0u32; h + 1];
    let mut used_c = vec![0u32; h + 1];
    for row in &s.cycles {
        for (i, &t) in row.iter().enumerate() {
            match kernel.unit(i) {
                Unit::L => used_l[t as usize] += 1,
                Unit::C => used_c[t as usize] += 1,
            }
        }
    }
    for t in 1..=h {
        if used_l[t] > inst.sigma_l || used_c[t] > inst.sigma_c {
            return Err(format!("cycle {t}: {} L and {} C issued, capacity {} and {}", used_l[t], used_c[t], inst.sigma_l, inst.sigma_c));
        }
    }
    // unsaturated_x[t] = number of cycles in 1..=t in which fewer than sigma_X X units
    // are busy; a warp may wait for an X instruction only in cycles not counted there.
    let prefix = |used: &[u32], sigma: u32| {
        let mut p = vec![0u64; h + 1];
        for t in 1..=h {
            p[t] = p[t - 1] + (used[t] < sigma) as u64;
        }
        p
    };
    let (free_l, free_c) = (prefix(&used_l, inst.sigma_l), prefix(&used_c, inst.sigma_c));
    for (w, row) in s.cycles.iter().enumerate() {
        let mut ready_from = 1u64;
        for (i, &t) in row.iter().enumerate() {
            let (free, used, sigma) = match kernel.unit(i) {
                Unit::L => (&free_l, &used_l, inst.sigma_l),
                Unit::C => (&free_c, &used_c, inst.sigma_c),
            };
            if free[t as usize - 1] > free[ready_from as usize - 1] {
                let idle = (ready_from..t).find(|&c| used[c as usize] < sigma).expect("counted above");
                return Err(format!(
                    "not work-conserving: warp {} is ready for instruction {} ({}) at cycle {idle} while only {} of {sigma} units are busy",
                    w + 1,
                    i + 1,
                    kernel.unit(i).letter(),
                    used[idle as usize]
                ));
            }
            ready_from = t + 1;
        }
    }
    Ok(horizon)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llc4() -> Instance {
        Instance::new("LLC", 4, 1, 1).unwrap()
    }

    #[test]
    fn barriers_hold_every_warp() {
        let phases = [Instance::new("LC", 2, 1, 1).unwrap(), Instance::new("C", 2, 1, 1).unwrap()];
        // Phase 1: LC on 2 warps ends at cycle 3; phase 2 starts at cycle 4.
        let ok = Schedule { cycles: vec![vec![1, 2, 4], vec![2, 3, 5]] };
        assert_eq!(check_phases(&phases, &ok), Ok(5));
        let early = Schedule { cycles: vec![vec![1, 2, 3], vec![2, 3, 4]] };
        assert!(check_phases(&phases, &early).unwrap_err().as_str().contains("before the barrier"));
        let idle = Schedule { cycles: vec![vec![1, 2, 5], vec![2, 3, 6]] };
        assert!(check_phases(&phases, &idle).unwrap_err().as_str().contains("phase 2"));
    }

    #[test]
    fn blocks_wait_only_for_their_own_barrier() {
        let program = crate::model::program::Program::build("L|C", |k| Instance::new(k, 1, 1, 1)).unwrap();
        let blocks = Blocks::new(program, 2);
        // Block 1 passes its barrier at cycle 2 while block 2 still waits for the L unit.
        let ok = Schedule { cycles: vec![vec![1, 2], vec![2, 3]] };
        assert_eq!(check_blocks(&blocks, &ok), Ok(3));
        let early = Schedule { cycles: vec![vec![1, 1], vec![2, 3]] };
        assert!(check_blocks(&blocks, &early).is_err());
        let idle = Schedule { cycles: vec![vec![1, 3], vec![2, 4]] };
        assert!(check_blocks(&blocks, &idle).unwrap_err().as_str().contains("not work-conserving"));
    }

    #[test]
    fn accepts_fig2() {
        let s = Schedule { cycles: vec![vec![1, 5, 6], vec![2, 6, 7], vec![3, 7, 8], vec![4, 8, 9]] };
        assert_eq!(check(&llc4(), &s), Ok(9));
    }

    #[test]
    fn rejects_idle_unit() {
        // warp 4 is ready for its first L at cycle 7, when no L is issued.
        let s = Schedule { cycles: vec![vec![1, 2, 3], vec![3, 4, 5], vec![5, 6, 7], vec![8, 9, 10]] };
        let e = check(&llc4(), &s).unwrap_err();
        assert!(e.as_str().contains("not work-conserving"), "{e}");
    }

    #[test]
    fn rejects_capacity_and_precedence() {
        let s = Schedule { cycles: vec![vec![1, 2, 3], vec![1, 3, 4], vec![2, 4, 5], vec![3, 5, 6]] };
        assert!(check(&llc4(), &s).unwrap_err().as_str().contains("capacity"));
        let s = Schedule { cycles: vec![vec![1, 1, 3], vec![2, 3, 4], vec![3, 4, 5], vec![4, 5, 6]] };
        assert!(check(&llc4(), &s).unwrap_err().as_str().contains("does not follow"));
    }
}
