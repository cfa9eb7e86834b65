//! Several thread blocks on one SM, each with its own barriers (`__syncthreads()`).
//!
//! **Semantics.** `B` blocks of `W` warps each run the same [`Program`] on one SM; the
//! units (`sigma_L`, `sigma_C`) are shared by all `B W` warps. A warp is ready for its
//! next instruction in every cycle after it issued the previous one, except that a warp
//! which issued the last instruction of phase `k` waits until every warp *of its own
//! block* has issued all of phase `k`: if the last of them issues at cycle `M`, the whole
//! block is ready for phase `k + 1` at `M + 1` (the barrier takes no cycle, as in
//! [`crate::model::program`]). Other blocks are not held. Work-conservation is the
//! paper's: in a cycle in which a ready warp does not issue its X instruction, all
//! `sigma_X` X units issue. With `B = 1` this is the one-block model of
//! [`crate::model::program`], whose worst case is the sum of the phases'.
//!
//! **Relation to the phase decomposition.** With `B >= 2` the sum of the phases' worst
//! cases at `B W` warps is not an upper bound (`L|LC`, `W = 3`, two blocks, sigma 2/2:
//! 8 against 7) and the barrier-free worst case at `B W` warps is not one either
//! (`CCCL|CC`, `W = 3`, two blocks, sigma 1/4: 13 against 12): a barrier lets one block
//! idle while the other keeps the units busy, and then fall behind. The sum is exact
//! again when `B = 1`, and trivially when the kernel has no barrier (one phase). The
//! worst case is computed by [`crate::exact::blocks`] (exhaustive at small sizes); at any
//! size [`Blocks::horizon`] bounds it.
//!
//! **The block horizon (proof).** Let block `b` finish last, and let its phase `k` run
//! from `s_k` (the cycle its warps are ready for phase `k`) to `a_k` (the last issue of
//! phase `k` by a warp of `b`), so the makespan is `sum_k (a_k - s_k + 1)`. Let `w_k` be
//! a warp of `b` issuing at `a_k`. In every cycle of `[s_k, a_k]`, `w_k` has not reached
//! the barrier, so it is ready: it issues one of its `I_k` phase-`k` instructions, or it
//! waits for an X instruction while all `sigma_X` X units issue instructions of other
//! warps. Those are phase-`k` instructions of the `W - 1` other warps of `b` (no warp of
//! `b` is in another phase then) or instructions of the other `B - 1` blocks. Counting
//! each issued instruction once over the disjoint intervals (and each waiting cycle waits
//! for one unit only: `w_k` is ready for one instruction), the X-waiting cycles are at
//! most `floor(((W - 1) I_X + (B - 1) W I_X) / sigma_X)`, so
//! `T <= I + floor((B W - 1) I_L / sigma_L) + floor((B W - 1) I_C / sigma_C)`: the safe
//! horizon of the barrier-free kernel at `B W` warps holds with barriers too.
//!
//! **Block turnover** (blocks that start while others are mid-way): see [`turnover_bound`].

use crate::error::InputError;
use crate::model::instance::{Instance, InstanceFile};
use crate::model::kernel::Unit;
use crate::model::latency::Latencies;
use crate::model::program::Program;

/// Largest total warp count `B W` of a several-block kernel with barriers.
pub const MAX_BLOCK_WARPS: u32 = 4096;

/// `B` blocks of the same program on one SM. Guaranteed: `blocks >= 1`; `program`'s
/// phases have the warps of one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocks {
    /// One block's program (`W` = warps per block).
    pub program: Program,
    /// `B`, the number of blocks starting together.
    pub blocks: u32,
}

impl Blocks {
    /// `B` blocks of `program`; `blocks` must be at least 1.
    pub fn new(program: Program, blocks: u32) -> Blocks {
        Blocks { program, blocks: blocks.max(1) }
    }

    /// The blocks of an instance file: `warps` = `B W` with `warps_per_block` = `W`
    /// (default: one block). With barriers, `warps` must be a multiple of
    /// `warps_per_block`; without, the split does not matter and the warps are one block.
    pub fn from_file_data(f: &InstanceFile) -> Result<Blocks, InputError> {
        crate::model::instance::check_warps(f.warps, "warps")?;
        let per_block = f.warps_per_block.unwrap_or(f.warps);
        if per_block < 1 || per_block > f.warps {
            return Err(InputError::new("warps_per_block", per_block, format!("must be from 1 to warps = {}", f.warps)));
        }
        let barriers = f.kernel.contains('|');
        if !barriers || per_block == f.warps {
            let program = Program::build(&f.kernel, |p| Instance::from_file_data(&InstanceFile { kernel: p.to_string(), ..f.clone() }))?;
            return Ok(Blocks::new(program, 1));
        }
        let blocks = split(f.warps, per_block)?;
        let program = Program::build(&f.kernel, |p| {
            Instance::from_file_data(&InstanceFile { kernel: p.to_string(), warps: per_block, warps_per_block: None, ..f.clone() })
        })?;
        Ok(Blocks::new(program, blocks))
    }

    /// `W`, warps per block.
    pub fn warps_per_block(&self) -> u32 {
        self.program.warps()
    }

    /// `B W`, all warps.
    pub fn warps(&self) -> u32 {
        self.blocks * self.warps_per_block()
    }

    /// Instructions per warp (all phases, after the transformation).
    pub fn len(&self) -> usize {
        self.program.len()
    }

    /// Always false (a program is non-empty).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `I_X`, instructions of unit `u` per warp, all phases.
    pub fn count(&self, u: Unit) -> u64 {
        self.program.count(u)
    }

    /// sigma of `u` (the same in every phase).
    pub fn sigma(&self, u: Unit) -> u64 {
        self.program.phases[0].sigma(u) as u64
    }

    /// The unit of every instruction of a warp, all phases in order.
    pub fn units(&self) -> Vec<Unit> {
        self.program.units()
    }

    /// The block horizon, a proven upper bound on the worst-case makespan of the `B`
    /// blocks starting together (proof in the module doc).
    pub fn horizon(&self) -> u64 {
        let others = self.warps() as u64 - 1;
        self.len() as u64 + others * self.count(Unit::L) / self.sigma(Unit::L) + others * self.count(Unit::C) / self.sigma(Unit::C)
    }

    /// A proven upper bound on the cycles left from a state reached by some schedule,
    /// given `issued[w]`, the instructions warp `w` has issued (row `w` is warp `w` of
    /// block `w / W`). Proof: the horizon's argument from the state on. For a block `b`
    /// not finished, in its current phase `k` (the one holding its least advanced warp)
    /// the warp `w_k` that issues last has at most `max_w` (left in phase `k`)
    /// instructions to issue, and while it waits the X units issue instructions of the
    /// other warps of `b` in phase `k` (at most their sum minus the least of one warp,
    /// since `w_k`'s own are not among them), of `b`'s later phases in later intervals
    /// (`W - 1` warps each), and of other blocks (all they have left). The bound is the
    /// largest over the unfinished blocks. All of a block's warps are in its current phase:
    /// none passes barrier `k` before its least advanced warp has issued phase `k`.
    /// `issued` must be a reachable state (no warp past a barrier its block has not all
    /// reached); others give no bound.
    pub fn horizon_from(&self, issued: &[usize]) -> u64 {
        let units = self.units();
        let ends = self.program.phase_ends();
        let w = self.warps_per_block() as usize;
        let left = |from: usize, to: usize, u: Unit| units[from.min(to)..to].iter().filter(|&&x| x == u).count() as u64;
        let total = |u: Unit| issued.iter().map(|&d| left(d, units.len(), u)).sum::<u64>();
        let mut worst = 0;
        for (b, mine) in issued.chunks(w).enumerate() {
            let least = *mine.iter().min().expect("W >= 1");
            let Some(k) = ends.iter().position(|&e| least < e) else { continue };
            let later: Vec<&crate::model::instance::Instance> = self.program.phases[k + 1..].iter().collect();
            let mut bound =
                mine.iter().map(|&d| (ends[k] - d) as u64).max().unwrap_or(0) + later.iter().map(|p| p.len() as u64).sum::<u64>();
            for u in [Unit::L, Unit::C] {
                let now: Vec<u64> = mine.iter().map(|&d| left(d, ends[k], u)).collect();
                let own = now.iter().sum::<u64>() - now.iter().min().expect("W >= 1")
                    + (w as u64 - 1) * later.iter().map(|p| p.kernel.count(u) as u64).sum::<u64>();
                let others = total(u) - issued[b * w..(b + 1) * w].iter().map(|&d| left(d, units.len(), u)).sum::<u64>();
                bound += (own + others) / self.sigma(u);
            }
            worst = worst.max(bound);
        }
        worst
    }

    /// A proven lower bound on the worst-case makespan: a warp's `I` instructions take
    /// `I` cycles, and the `B W I_X` X instructions take `ceil(B W I_X / sigma_X)`.
    pub fn lower_bound(&self) -> u64 {
        let work = |u: Unit| (self.warps() as u64 * self.count(u)).div_ceil(self.sigma(u));
        (self.len() as u64).max(work(Unit::L)).max(work(Unit::C))
    }

    /// `LLC|CCL, sigma_L = 1, sigma_C = 1, 3 blocks of W = 4`.
    pub fn given(&self) -> String {
        let first = &self.program.phases[0];
        format!(
            "{}, sigma_L = {}, sigma_C = {}, {} blocks of W = {}",
            self.program.source_kernel,
            first.sigma_given(Unit::L),
            first.sigma_given(Unit::C),
            self.blocks,
            self.warps_per_block()
        )
    }
}

/// The `bound --json` object of several blocks: the closed forms that hold for them.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct BlocksBounds {
    /// [`Blocks::given`].
    pub instance: String,
    /// `B`.
    pub blocks: u32,
    /// `W`.
    pub warps_per_block: u32,
    /// [`Blocks::horizon`], a proven upper bound.
    pub safe_horizon: u64,
    /// [`Blocks::lower_bound`], a proven lower bound.
    pub lower_bound: u64,
}

impl BlocksBounds {
    /// The closed forms of `b`.
    pub fn of(b: &Blocks) -> BlocksBounds {
        BlocksBounds {
            instance: b.given(),
            blocks: b.blocks,
            warps_per_block: b.warps_per_block(),
            safe_horizon: b.horizon(),
            lower_bound: b.lower_bound(),
        }
    }
}

/// `B = warps / per_block`, refused unless whole and within [`MAX_BLOCK_WARPS`].
pub fn split(warps: i64, per_block: i64) -> Result<u32, InputError> {
    if warps % per_block != 0 {
        return Err(InputError::new(
            "warps_per_block",
            per_block,
            format!("warps = {warps} is not a whole number of blocks of {per_block} warps (all blocks of a kernel have the same size)"),
        ));
    }
    if warps > MAX_BLOCK_WARPS as i64 {
        return Err(InputError::new("warps", warps, format!("several blocks with barriers are analysed up to {MAX_BLOCK_WARPS} warps")));
    }
    Ok((warps / per_block) as u32)
}

/// What may compete with a block that starts while others are mid-way: at most
/// `warps` other warps resident on the SM when it arrives, each with at most
/// `most_l` L and `most_c` C instructions (after the block's own SM transformation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interference {
    /// Other warps resident when the block arrives, blocks arriving in the same cycle
    /// included (its own block's not counted).
    pub warps: u64,
    /// Most L instructions of one of those warps.
    pub most_l: u64,
    /// Most C instructions of one of those warps.
    pub most_c: u64,
}

impl Interference {
    /// The most L and C instructions those warps hold together: `warps * most_X`.
    pub fn ahead(&self) -> Ahead {
        Ahead { l: self.warps * self.most_l, c: self.warps * self.most_c }
    }
}

/// The most L and C instructions that the warps resident beside a block when it
/// arrives (blocks arriving in the same cycle included, its own block's not) hold
/// together, each class on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ahead {
    /// L instructions.
    pub l: u64,
    /// C instructions.
    pub c: u64,
}

/// A kernel whose blocks may be resident beside a block: its warps per block, how many
/// of its blocks can be resident at once (a job's blocks; one fewer for the block's
/// own kernel), and one warp's L and C instructions on this SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Neighbour {
    /// Warps of one block.
    pub warps_per_block: u64,
    /// Most blocks resident at once.
    pub blocks: u64,
    /// L instructions of one warp.
    pub count_l: u64,
    /// C instructions of one warp.
    pub count_c: u64,
}

/// Who may be resident beside a block: the kernels that may have blocks there and the
/// room the SM has beside the block (warp slots and block slots).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Beside {
    /// The kernels, each at most `blocks` blocks.
    pub neighbours: Vec<Neighbour>,
    /// Warp slots beside the block.
    pub room_warps: u64,
    /// Block slots beside the block.
    pub room_blocks: u64,
}

impl Beside {
    /// What they can hold, class by class ([`Ahead::of_mix`]).
    pub fn ahead(&self) -> Ahead {
        Ahead::of_mix(&self.neighbours, self.room_warps, self.room_blocks)
    }
}

impl Ahead {
    /// The most the `neighbours` can hold beside a block in `room_warps` warp slots and
    /// `room_blocks` block slots: per class, the best choice of `n_k <= blocks_k` blocks
    /// of each kernel with `sum n_k warps_k <= room_warps` and `sum n_k <= room_blocks`
    /// (an exact bounded knapsack). Proven: the blocks that can be ahead of a block are
    /// resident together with it in its arrival cycle (they arrived no later and issue
    /// after it arrived), so they fit in the room beside it (a block holds all its warp
    /// slots until its last warp ends, as CUDA's occupancy counts it) and hold at most
    /// their whole programs; a kernel's jobs never overlap, so at most one job's blocks.
    pub fn of_mix(neighbours: &[Neighbour], room_warps: u64, room_blocks: u64) -> Ahead {
        let most = |count: &dyn Fn(&Neighbour) -> u64| knapsack(neighbours, room_warps, room_blocks, count);
        Ahead { l: most(&|n| n.count_l), c: most(&|n| n.count_c) }
    }
}

/// The best `sum n_k warps_k count(k)` over `n_k <= blocks_k`, `sum n_k warps_k <= warps`,
/// `sum n_k <= blocks` (dynamic programme over warps and blocks used).
fn knapsack(neighbours: &[Neighbour], warps: u64, blocks: u64, count: &dyn Fn(&Neighbour) -> u64) -> u64 {
    let (w, b) = (warps as usize, blocks.min(warps) as usize);
    let mut best = vec![vec![0u64; b + 1]; w + 1];
    for n in neighbours.iter().filter(|n| n.warps_per_block > 0 && count(n) > 0) {
        let (size, value) = (n.warps_per_block as usize, n.warps_per_block * count(n));
        for _ in 0..n.blocks.min(warps / n.warps_per_block) {
            for used in (size..=w).rev() {
                for k in (1..=b).rev() {
                    best[used][k] = best[used][k].max(best[used - size][k - 1] + value);
                }
            }
        }
    }
    best.iter().flatten().copied().max().unwrap_or(0)
}

/// A proven upper bound on the time from a block's arrival on an SM to its last issue
/// (to its last result, with latencies),
/// for **any** arrival pattern of the other blocks (block turnover: blocks mid-way,
/// blocks that replace finished ones), under **oldest-first arbitration**: in every
/// cycle, when a warp ready for an X instruction does not issue, every one of the
/// `sigma_X` X units issues an instruction of a warp whose block arrived on the SM no
/// later than the waiting warp's block (ties among same-age blocks free). Blocks
/// stopped by a context switch (time slicing) are assumed to come back on the same SM
/// with their warp slots and their age order (a restore is not an arrival). `program`
/// is one block's program (its `W`), `others` what was resident at its arrival.
///
/// Proof: as for [`Blocks::horizon`], take block `b`'s phases `[s_k, a_k]` and the warp
/// `w_k` issuing at `a_k`. In each cycle of `[s_k, a_k]`, `w_k` issues one of its `I_k`
/// instructions, or waits for X while all `sigma_X` X units issue instructions of warps
/// of `b` (phase `k`, not `w_k`) or of blocks no younger than `b`. Blocks arriving after
/// `b` are younger, so they never take a unit from `w_k`; blocks no younger than `b` are
/// resident when `b` arrives (blocks arriving in the same cycle included), at most `others.warps` warps with at most `most_X` X
/// instructions left each. So the X-waiting cycles number at most
/// `floor(((W - 1) I_X + others.warps most_X) / sigma_X)` and
/// `C <= I + sum_X floor(((W - 1) I_X + others.warps most_X) / sigma_X)`.
/// Without an arbitration rule no such bound exists: a work-conserving scheduler may
/// serve newly arrived warps for as long as they keep arriving.
///
/// **With latencies** ([`crate::model::latency`]: every instruction waits for its
/// predecessor's result, a barrier for its block's results) the bound grows by
/// `latency.waits(..)`, each instruction's longest wait, `sum_i (lambda_i^max - 1)`:
/// take `[s_k, e_k]` to end at the last result of phase `k` of a warp of `b` and `w_k`
/// the warp it belongs to; in each cycle `w_k` issues, waits for one of its own results
/// (at most `lambda_i - 1` cycles after instruction `i`, over all phases at most that
/// sum) or is ready and blocked as above, by warps no younger than `b` (the rule is
/// about ready warps and holds whatever they wait for otherwise). The counts of the
/// other two kinds of cycle are unchanged. With latency 1 it is [`turnover_bound`].
pub fn turnover_bound_with(program: &Program, others: Interference, latency: &Latencies) -> u64 {
    turnover_bound_ahead(program, others.ahead(), latency)
}

/// [`turnover_bound_with`] for what the warps beside the block hold together
/// (`ahead`, e.g. [`Ahead::of_mix`]): `I + sum_X floor(((W - 1) I_X + ahead_X) /
/// sigma_X)` over the classes the block has (`I_X > 0`: a warp without X instructions
/// never waits for an X unit), plus each instruction's longest wait. The proof of
/// [`turnover_bound_with`] counts exactly those instructions.
pub fn turnover_bound_ahead(program: &Program, ahead: Ahead, latency: &Latencies) -> u64 {
    program.len() as u64 + blocked_class_by_class(program, ahead) + result_waits(program, latency)
}

/// The cycles a warp of the block is ready and blocked, class by class:
/// `sum_X floor(((W - 1) I_X + ahead_X) / sigma_X)` over the classes it has.
fn blocked_class_by_class(program: &Program, ahead: Ahead) -> u64 {
    let w1 = program.warps() as u64 - 1;
    let sigma = |u: Unit| program.phases[0].sigma(u) as u64;
    let blocked = |u: Unit, more: u64| if program.count(u) == 0 { 0 } else { (w1 * program.count(u) + more) / sigma(u) };
    blocked(Unit::L, ahead.l) + blocked(Unit::C, ahead.c)
}

/// The cycles a warp waits for its own results: each instruction's longest wait,
/// `sum_i (lambda_i^max - 1)` (0 at latency 1).
fn result_waits(program: &Program, latency: &Latencies) -> u64 {
    latency.waits(&program.units(), program.copies())
}

/// A proven upper bound on the time from a block's arrival on an SM to its last result,
/// for **any** arrival pattern of the other blocks (block turnover), under
/// **round-robin arbitration** (`lrr`, one rotation per class): the SM's warps sit in
/// `slots` warp slots in a fixed circular order, and in every cycle the `sigma_X` X
/// units serve the ready X warps in that order, starting after the slot of the last
/// warp served an X instruction, last **in rotation order** (so a warp ready for X and
/// not served means all `sigma_X` X units issued). A context switch (time slicing) is
/// assumed to restore each block's warp slots and the rotations as they were. `slots` is the most warps resident on the SM at once, the
/// block's own included; what the other warps run, and how long, does not matter.
///
/// Proof: as for [`turnover_bound_with`], take block `b`'s phases `[s_k, e_k]` and the
/// warp `w_k` whose result ends phase `k`. In each cycle `w_k` issues one of its `I_k`
/// instructions, waits for one of its own results (over all phases at most
/// `latency.waits(..)` cycles) or is ready for an X instruction `i` and not served.
/// Count the last kind for one instruction `i`: from the cycle `w_k` becomes ready for
/// `i` until it issues, it stays ready. Let `S_t` be the slots strictly between the X
/// rotation's start slot of cycle `t` and `w_k`'s slot, in rotation order. If `w_k` is
/// not served in cycle `t`, the `sigma_X` X units served `sigma_X` distinct warps, all
/// in slots of `S_t` (the rotation reaches `w_k` only after them), and the next start is
/// the last of them, so `S_(t+1)` lies in `S_t` without those `sigma_X` slots:
/// `|S_(t+1)| <= |S_t| - sigma_X`. As `|S_t| <= slots - 1` at the first such cycle and
/// never below 0, `i` waits at most `floor((slots - 1) / sigma_X)` cycles unserved. A
/// warp that finishes and a new warp that takes its slot change nothing: the count is
/// over slots. Summed over the instructions of a warp of `b`:
/// `C <= I + sum_X I_X floor((slots - 1) / sigma_X) + latency.waits(..)`.
pub fn lrr_turnover_bound_with(program: &Program, slots: u64, latency: &Latencies) -> u64 {
    let others = slots.max(program.warps() as u64) - 1;
    let unserved = |u: Unit| program.count(u) * (others / program.phases[0].sigma(u) as u64);
    program.len() as u64 + unserved(Unit::L) + unserved(Unit::C) + result_waits(program, latency)
}

/// The oldest-first turnover bound beside a known mix: the smaller of
/// [`turnover_bound_ahead`] with [`Beside::ahead`] (each class's most, possibly from
/// different sets of blocks) and the same count over **one** set of blocks:
/// `I + floor(sum_X ((W - 1) I_X + S_X) / sigma_X)` maximised over the sets `S` that
/// fit (the classes the block has only), plus each instruction's longest wait.
///
/// Proof: the blocks ahead of the block form one set that fits beside it
/// ([`Ahead::of_mix`]), and by the proof of [`turnover_bound_with`] the block waits at
/// most `floor(((W - 1) I_X + S_X) / sigma_X)` cycles for X; the sum of the floors is at
/// most the floor of the sum, which is at most its maximum over every set that fits
/// (computed exactly, scaled by `sigma_L sigma_C` to stay in integers).
pub fn turnover_bound_beside(program: &Program, beside: &Beside, latency: &Latencies) -> u64 {
    let separate = blocked_class_by_class(program, beside.ahead());
    let (sl, sc) = (program.phases[0].sigma(Unit::L) as u64, program.phases[0].sigma(Unit::C) as u64);
    let weight = |u: Unit, other: u64| if program.count(u) > 0 { other } else { 0 };
    let (wl, wc) = (weight(Unit::L, sc), weight(Unit::C, sl));
    let value = |n: &Neighbour| n.count_l * wl + n.count_c * wc;
    let most = knapsack(&beside.neighbours, beside.room_warps, beside.room_blocks, &value);
    let own = (program.warps() as u64 - 1) * (program.count(Unit::L) * wl + program.count(Unit::C) * wc);
    let joint = (own + most) / (sl * sc);
    program.len() as u64 + separate.min(joint) + result_waits(program, latency)
}

/// [`turnover_bound_with`] at latency 1 (the paper's model).
pub fn turnover_bound(program: &Program, others: Interference) -> u64 {
    turnover_bound_ahead(program, others.ahead(), &Latencies::ONE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(kernel: &str, warps: i64, per_block: Option<i64>) -> InstanceFile {
        InstanceFile {
            kernel: kernel.into(),
            warps,
            sm: None,
            sigma_l: Some(2),
            sigma_c: Some(2),
            description: None,
            warps_per_block: per_block,
            provenance: None,
            latency: None,
            scheduler: None,
        }
    }

    #[test]
    fn blocks_split_the_warps() {
        let b = Blocks::from_file_data(&file("L|LC", 6, Some(3))).unwrap();
        assert_eq!((b.blocks, b.warps_per_block(), b.warps()), (2, 3, 6));
        // I = 3, I_L = 2, I_C = 1, sigma 2/2, 6 warps: 3 + 5 + 2.
        assert_eq!(b.horizon(), 10);
        assert_eq!(b.lower_bound(), 6);
        assert!(Blocks::from_file_data(&file("L|LC", 7, Some(3))).unwrap_err().reason.contains("whole number"));
        assert_eq!(Blocks::from_file_data(&file("LLC", 6, Some(3))).unwrap().blocks, 1);
        assert_eq!(Blocks::from_file_data(&file("L|C", 6, Some(6))).unwrap().blocks, 1);
    }

    #[test]
    fn lrr_turnover_bound_counts_slots_not_lengths() {
        let p = Program::build("LC|C", |k| Instance::new(k, 2, 1, 2)).unwrap();
        // I = 3 (1 L, 2 C); 8 slots: 7 others, each L waits 7 cycles, each C floor(7/2) = 3.
        assert_eq!(lrr_turnover_bound_with(&p, 8, &Latencies::ONE), 3 + 7 + 2 * 3);
        // Fewer slots than the block's warps: its own other warp is still there (one L
        // wait; floor(1 / 2) = 0 per C).
        assert_eq!(lrr_turnover_bound_with(&p, 0, &Latencies::ONE), 4);
    }

    #[test]
    fn turnover_bound_counts_older_warps() {
        let p = Program::build("LC|C", |k| Instance::new(k, 2, 1, 1)).unwrap();
        // I = 3; own other warp: 1 L, 2 C; 4 older warps with 1 L and 2 C each.
        assert_eq!(turnover_bound(&p, Interference { warps: 4, most_l: 1, most_c: 2 }), 3 + 5 + 10);
        // Nothing resident: the block alone, the safe horizon of one block.
        assert_eq!(turnover_bound(&p, Interference { warps: 0, most_l: 0, most_c: 0 }), 3 + 1 + 2);
        // A block without L never waits for the L unit, however many loads are ahead.
        let c = Program::build("CC", |k| Instance::new(k, 1, 1, 1)).unwrap();
        assert_eq!(turnover_bound(&c, Interference { warps: 4, most_l: 9, most_c: 1 }), 2 + 4);
    }

    #[test]
    fn ahead_counts_what_fits_beside_the_block() {
        let n = |w, b, l, c| Neighbour { warps_per_block: w, blocks: b, count_l: l, count_c: c };
        // 6 warp slots: one block of 4 warps x 10 L fits with one of 2 x 3 L (46), or
        // three of 2 warps (2 x 3 L each: 18): 46; C: the 2-warp kernel's 3 blocks (5 C
        // a warp: 30) beat the 4-warp one's 1 C a warp with one more block (4 + 10).
        let mix = [n(4, 1, 10, 1), n(2, 3, 3, 5)];
        assert_eq!(Ahead::of_mix(&mix, 6, 32), Ahead { l: 46, c: 30 });
        // Two block slots only: at most two blocks.
        assert_eq!(Ahead::of_mix(&mix, 6, 2), Ahead { l: 46, c: 20 });
        // No room, no blocks, or kernels without instructions: nothing ahead.
        assert_eq!(Ahead::of_mix(&mix, 0, 32), Ahead::default());
        assert_eq!(Ahead::of_mix(&[n(1, 0, 5, 5), n(1, 4, 0, 0)], 8, 8), Ahead::default());
    }

    #[test]
    fn one_set_of_blocks_is_ahead_for_both_classes() {
        let n = |l, c| Neighbour { warps_per_block: 1, blocks: 4, count_l: l, count_c: c };
        let lc = Program::build("LC", |k| Instance::new(k, 1, 1, 1)).unwrap();
        // Four slots of loaders or of computers, not both: class by class 2 + 16 + 16,
        // one set 2 + 16.
        let beside = Beside { neighbours: vec![n(4, 0), n(0, 4)], room_warps: 4, room_blocks: 32 };
        assert_eq!(turnover_bound_ahead(&lc, beside.ahead(), &Latencies::ONE), 34);
        assert_eq!(turnover_bound_beside(&lc, &beside, &Latencies::ONE), 18);
        // Mixed warps: one set holds both, and the class-by-class bound is no worse.
        let beside = Beside { neighbours: vec![n(2, 2)], room_warps: 4, room_blocks: 32 };
        assert_eq!(turnover_bound_beside(&lc, &beside, &Latencies::ONE), 2 + 8 + 8);
    }
}
