//! When an SM surely has room for one more block, whatever the hardware does where
//! NVIDIA does not document it: where a block's warps go among the register
//! sub-partitions ([`WarpPlacement`]) and whether blocks are confined to half an SM
//! (partitioned global caching, [`GlobalCaching`]). Each undocumented choice the
//! profile leaves open is a *scenario*; every threshold here is the least over the
//! scenarios, so it holds in whichever one the hardware runs.
//!
//! **Scenarios.** Placement: `Greedy` (each warp to any sub-partition with room, as the
//! occupancy calculator's formula implies) or `RoundRobin` (warp `i` to sub-partition
//! `(s0 + i) mod S'` of the sub-partitions the block may use, for a fixed or rotating
//! `s0`: a block puts at most `ceil(w / S')` warps in each). Mode: `Whole` (every block
//! spread over the SM), `Halves` (every block confined to one half: half the warp slots,
//! `S / 2` sub-partitions), or `Mixed` (some blocks confined, some not).
//!
//! **Slots of one demand** ([`slots`]): `Whole`/`Halves` with `parts` = 1 or 2 halves,
//! `c = floor(R_sp / r_w)` warps per sub-partition and `S' = S / parts`: per part
//! `min(floor(T / parts / t), floor(c S' / w))` (`Greedy`) or
//! `min(floor(T / parts / t), floor(c / ceil(w / S')))` (`RoundRobin`), times `parts`,
//! capped by shared memory and the block limit. For `Greedy` this is the calculator's
//! count; for `RoundRobin` it is exact with a fixed `s0` (sub-partition `s0` gets
//! `ceil(w / S')` of every block) and safe with a rotating one (never more per
//! sub-partition).
//!
//! **Room beside others** ([`beside`]): `k` such that an SM running at most `k - 1`
//! blocks, each of demand at most `e` (fieldwise), has room for a block of demand `d`.
//! With `room(cap, need, each) = 1 + floor((cap - need) / each)`:
//! * `Whole`: threads `room(T, t_d, t_e)`; registers, `Greedy`:
//!   `room(R, need_S(d), r_e)` with `need_S(d) = w r_w + S (r_w - u)` (free registers
//!   that hold `w` warps however the others are spread, since every allocation is a
//!   multiple of `u`: `floor(f / r_w) >= (f - r_w + u) / r_w`), or, when larger, the
//!   same count in warps of `d` ([`greedy_in_warps`]: `room(S floor(R_sp / r_wd), w_d,
//!   w_e ceil(r_we / r_wd))`, exact when every warp has `d`'s registers); `RoundRobin`:
//!   `room(R_sp, ceil(w_d / S) r_wd, share_e)` (every sub-partition must take
//!   `ceil(w_d / S)` warps; each running block holds at most `share_e` registers in each,
//!   `share_e` the largest `ceil(w_b / S) r_wb` of the running kinds: each kind charged
//!   its own warps' registers, not the largest warps times the largest registers).
//! * `Halves`: `2 room_half`, with `room_half` the same counts on half an SM (`T / 2`,
//!   `R / 2` with `need_{S/2}`, `S / 2` sub-partitions): of `k - 1 <= 2 room_half - 1`
//!   blocks the half with fewer holds at most `room_half - 1`, so it has room.
//! * `Mixed`: the least of `room_half` (a confined new block: the half holding fewer
//!   running blocks, counting a spread block in both halves, holds at most `k - 1`,
//!   each at most `e` there) and the `Whole` counts with a running block's share of a
//!   sub-partition taken as `ceil(w_e / (S / 2))` (a confined block's), for a spread
//!   new block.
//!
//! Shared memory (per SM, never halved) `room(M, m_d, m_e)` and the block limit cap
//! every scenario; `k >= 1`, since an empty SM has room for any checked demand.

use crate::rta::gpu::{Demand, GlobalCaching, Platform, WarpPlacement};

/// Where a block's warps go among the sub-partitions it may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Each warp to any sub-partition with room.
    Greedy,
    /// Round robin from some start: at most `ceil(w / S')` warps of a block per
    /// sub-partition.
    RoundRobin,
}

/// Whether blocks are confined to half an SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Every block spread over the whole SM.
    Whole,
    /// Every block in one half.
    Halves,
    /// Some blocks confined, some spread.
    Mixed,
}

/// The placements the profile leaves open.
pub fn policies(p: &Platform) -> &'static [Policy] {
    match p.warp_placement {
        WarpPlacement::Any => &[Policy::Greedy],
        WarpPlacement::RoundRobin => &[Policy::RoundRobin],
        WarpPlacement::Unknown => &[Policy::Greedy, Policy::RoundRobin],
    }
}

/// The modes the profile leaves open.
pub fn modes(p: &Platform) -> &'static [Mode] {
    match p.global_caching {
        GlobalCaching::Off => &[Mode::Whole],
        GlobalCaching::Partitioned => &[Mode::Halves],
        GlobalCaching::Unknown => &[Mode::Whole, Mode::Halves, Mode::Mixed],
    }
}

/// `cap / need`, or unbounded when nothing is needed.
fn per(cap: u64, need: u64) -> u64 {
    cap.checked_div(need).unwrap_or(u64::MAX)
}

/// `1 + floor((cap - need) / each)`: at most `k - 1` running of `each` leave `need`
/// free in `cap` (1 when `need` exceeds `cap`: never beside another).
fn room(cap: u64, need: u64, each: u64) -> u64 {
    cap.checked_sub(need).map_or(1, |left| per(left, each).saturating_add(1))
}

/// Free registers in `subs` sub-partitions that hold the `w` warps of `d` however the
/// other warps are spread: `w r_w + subs (r_w - u)` (0 without registers).
fn greedy_need(p: &Platform, d: &Demand, subs: u64) -> u64 {
    if d.registers_per_warp == 0 {
        return 0;
    }
    let slack = d.registers_per_warp.saturating_sub(p.register_allocation_unit.max(1));
    d.registers.saturating_add(subs.saturating_mul(slack))
}

/// The greedy register rule counted in warps of the head `h` (a second sufficient
/// condition beside `need_S`, better when the running warps are about `h`'s size):
/// `(cap, need)` = `(subs floor(R_sp / r_h), w_h)` over `subs` sub-partitions; a running
/// block `b` is charged [`head_warps`]`(h, b)` = `w_b ceil(r_b / r_h)`. `None` when `h`
/// has no registers (`need_S` = 0 then covers it).
///
/// Proof. Under `Greedy` a block of `h` has register room in a part iff its
/// sub-partitions' `floor(f_s / r_h)` sum to at least `w_h`, `f_s` the free registers of
/// sub-partition `s`. With `m_s` the sum of `ceil(r_b / r_h)` over the warps held in `s`,
/// `f_s >= R_sp - m_s r_h`, so `floor(f_s / r_h) >= max(0, floor(R_sp / r_h) - m_s) >=
/// floor(R_sp / r_h) - m_s`, and the sum is at least `subs floor(R_sp / r_h) - M`, `M` the
/// charges' sum over the part's running blocks. So `M <= cap - need` gives room.
fn greedy_in_warps(p: &Platform, h: &Demand, subs: u64) -> Option<(u64, u64)> {
    (h.registers_per_warp > 0).then(|| (subs.saturating_mul(per(p.registers_per_sub_partition(), h.registers_per_warp)), h.warps))
}

/// What a running block of `b` (or any block under it, for an envelope) is charged in
/// [`greedy_in_warps`] for a head of `h`: `w_b ceil(r_b / r_h)`.
fn head_warps(h: &Demand, b: &Demand) -> u64 {
    b.warps.saturating_mul(b.registers_per_warp.div_ceil(h.registers_per_warp.max(1)))
}

/// Registers one block of `d` (or, for an envelope, any block under it) holds at most in
/// one sub-partition under round robin over `subs` sub-partitions: all of the SM's, or
/// half of them (the demand's own figures, so an envelope charges each kind only its own
/// warps' registers).
fn round_robin_share(p: &Platform, d: &Demand, subs: u64) -> u64 {
    d.round_robin_registers[usize::from(subs < p.register_sub_partitions)]
}

/// The slots of one SM for blocks all of demand `d` under `policy`, each block in one of
/// `parts` parts (1: whole SM, 2: halves).
pub fn slots(p: &Platform, d: &Demand, policy: Policy, parts: u64) -> u64 {
    let subs = p.register_sub_partitions / parts;
    let c = per(p.registers_per_sub_partition(), d.registers_per_warp);
    let by_registers = match policy {
        Policy::Greedy => per(c.saturating_mul(subs), d.warps),
        Policy::RoundRobin => per(c, d.warps.div_ceil(subs.max(1))),
    };
    let per_part = per(p.sm_threads / parts, d.threads).min(by_registers);
    per_part.saturating_mul(parts).min(p.max_blocks_per_sm).min(per(p.shared_memory_per_sm, d.shared_memory))
}

/// Threads and registers `room` of a block of `d` beside blocks of at most `e` in one
/// part of `1 / parts` of the SM, `e`'s round-robin share taken over `e_subs`
/// sub-partitions.
fn part_room(p: &Platform, d: &Demand, e: &Demand, policy: Policy, parts: u64, e_subs: u64) -> u64 {
    Resource::Threads.room(p, d, e, parts, e_subs).min(Resource::Registers(policy).room(p, d, e, parts, e_subs))
}

/// `k` in one scenario (see the module documentation).
pub fn beside_in(p: &Platform, d: &Demand, e: &Demand, policy: Policy, mode: Mode) -> u64 {
    let s = p.register_sub_partitions;
    let k = match mode {
        Mode::Whole => part_room(p, d, e, policy, 1, s),
        Mode::Halves => part_room(p, d, e, policy, 2, s / 2).saturating_mul(2),
        Mode::Mixed => part_room(p, d, e, policy, 2, s / 2).min(part_room(p, d, e, policy, 1, s / 2)),
    };
    // Shared memory (never halved) and the block limit.
    k.min(Resource::Shared.room(p, d, e, 1, s)).min(Resource::Blocks.room(p, d, e, 1, s)).max(1)
}

/// `k` such that an SM running at most `k - 1` blocks, each of demand at most `e`, has
/// room for a block of demand `d`, in every scenario the profile leaves open.
pub fn beside(p: &Platform, d: &Demand, e: &Demand) -> u64 {
    scenarios(p).map(|(policy, mode)| beside_in(p, d, e, policy, mode)).min().unwrap_or(1)
}

fn scenarios(p: &Platform) -> impl Iterator<Item = (Policy, Mode)> + '_ {
    policies(p).iter().flat_map(move |&policy| modes(p).iter().map(move |&mode| (policy, mode)))
}

/// A scenario's value for blocks all of demand `d`: its slots (`Whole`, `Halves`) or,
/// for `Mixed`, its threshold beside blocks of `d`.
fn value(p: &Platform, d: &Demand, policy: Policy, mode: Mode) -> u64 {
    match mode {
        Mode::Whole => slots(p, d, policy, 1),
        Mode::Halves => slots(p, d, policy, 2),
        Mode::Mixed => beside_in(p, d, d, policy, mode),
    }
}

/// The slots the analysis counts on one SM for blocks all of demand `d`: the least over
/// the scenarios, so an SM running fewer has room in each.
pub fn fit(p: &Platform, d: &Demand) -> u64 {
    scenarios(p).map(|(policy, mode)| value(p, d, policy, mode)).min().unwrap_or(0)
}

/// Whether [`fit`] is exactly the hardware's count: every scenario left open, and the
/// greedy placement in each mode left open (which holds at least as many as any round
/// robin), give the same value.
pub fn fit_is_exact(p: &Platform, d: &Demand) -> bool {
    let low = fit(p, d);
    // Every scenario's mode with either placement: the scenarios themselves included.
    let high =
        modes(p).iter().flat_map(|&mode| [Policy::Greedy, Policy::RoundRobin].map(|policy| value(p, d, policy, mode))).max().unwrap_or(0);
    low == high
}

/// The most blocks of demand `d` one SM can hold in any scenario: the occupancy
/// calculator's count ([`slots`] with `Greedy` placement on the whole SM). Every scenario
/// holds at most this many: a sub-partition holds at most `c` of `d`'s warps whatever
/// the placement, and confining blocks to halves only divides the threads further.
pub fn most(p: &Platform, d: &Demand) -> u64 {
    slots(p, d, Policy::Greedy, 1)
}

/// Whether a block of demand `head` has room on every SM, in every scenario the profile
/// leaves open, when each SM runs, of each `(d, n)` of `running`, at most `n` blocks of
/// demand at most `d` (and nothing else). False where a scenario confines blocks to half
/// an SM (not covered here).
///
/// Proof. In a `Whole` scenario a block of `head` has room as soon as, for every resource
/// of [`weights`]' proof (threads, registers in the placement, shared memory, block
/// slots), the running blocks' charges sum to at most `cap - need(head)`, or, for greedy
/// registers, their charges in the head's warps do ([`greedy_in_warps`]); on any SM they
/// sum to at most `sum n * charge(d)` (charges grow with the demand).
pub fn beside_every_sm(p: &Platform, head: &Demand, running: &[(Demand, u64)]) -> bool {
    if modes(p) != [Mode::Whole] {
        return false;
    }
    let s = p.register_sub_partitions;
    policies(p).iter().all(|&policy| {
        [Resource::Threads, Resource::Registers(policy), Resource::Shared, Resource::Blocks].into_iter().all(|r| {
            charges_fit(r.cap(p, 1), r.need(p, head, s), running, |d| r.charge(p, d, s))
                || matches!(r, Resource::Registers(Policy::Greedy))
                    && greedy_in_warps(p, head, s).is_some_and(|(cap, need)| charges_fit(cap, need, running, |d| head_warps(head, d)))
        })
    })
}

/// Whether `n` blocks of each `(d, n)` of `running`, each charged `charge(d)`, leave
/// `need` of `cap`.
fn charges_fit(cap: u64, need: u64, running: &[(Demand, u64)], charge: impl Fn(&Demand) -> u64) -> bool {
    let used = running.iter().fold(0u128, |sum, (d, n)| sum.saturating_add(u128::from(charge(d)) * u128::from(*n)));
    cap.checked_sub(need).is_some_and(|left| used <= u128::from(left))
}

/// Most per-SM count vectors [`some_sm_has_room`] looks at before it gives up (and claims
/// nothing).
pub const PLACEMENT_BUDGET: usize = 20_000;

/// Whether a block of demand `head` has room on some SM, in every scenario the profile
/// leaves open, when at most `n` blocks of exactly demand `d` run for each `(d, n)` of
/// `running` (and nothing else), however they are placed. Decided for GPUs of one or two
/// SMs (false for more, and false when the per-SM count vectors exceed
/// [`PLACEMENT_BUDGET`]: no claim either way).
///
/// Proof. Suppose the head has room on no SM. Each SM `s` then runs `x_s` blocks of each
/// demand with (a) `x_s` fitting on one SM: the threads, registers (each block's
/// `registers`, whatever their placement), shared memory and block slots of `x_s` within
/// an SM's, and `x_s[d] <= most(d)`; and (b) no room for the head beside `x_s`, so
/// [`beside_every_sm`] is false for `x_s` (where it is true the head has room). The
/// `x_s` of all SMs sum to at most `n` per demand. Any `y <= x_s` still fits (a), and
/// among them one that is minimal for (b) (removing any block makes it true). So two
/// minimal vectors of (a)-(b), one per SM, sum to at most `n`, or one does on a single
/// SM. Where no such vectors exist, the head has room on some SM.
pub fn some_sm_has_room(p: &Platform, head: &Demand, running: &[(Demand, u64)]) -> bool {
    let sms = p.sms();
    if modes(p) != [Mode::Whole] || sms > 2 || running.is_empty() {
        return sms <= 2 && running.is_empty();
    }
    let bound: Vec<u64> = running.iter().map(|(d, n)| (*n).min(most(p, d))).collect();
    let blocked = |x: &[u64]| {
        let on: Vec<(Demand, u64)> = running.iter().zip(x).map(|((d, _), &k)| (*d, k)).collect();
        !beside_every_sm(p, head, &on)
    };
    let Some(vectors) = fitting_vectors(p, running, &bound) else { return false };
    let minimal: Vec<&Vec<u64>> = vectors
        .iter()
        .filter(|x| {
            blocked(x)
                && (0..x.len()).filter(|&i| x[i] > 0).all(|i| {
                    let mut y = (*x).clone();
                    y[i] -= 1;
                    !blocked(&y)
                })
        })
        .collect();
    let within = |a: &[u64], b: &[u64]| a.iter().zip(b).zip(running).all(|((&a, &b), (_, n))| a + b <= *n);
    if sms == 1 {
        return minimal.is_empty();
    }
    !minimal.iter().any(|a| minimal.iter().any(|b| within(a, b)))
}

/// Every count vector `x <= bound` whose blocks of `running`'s demands fit on one SM by
/// the totals (threads, registers, shared memory, block slots); `None` beyond
/// [`PLACEMENT_BUDGET`].
fn fitting_vectors(p: &Platform, running: &[(Demand, u64)], bound: &[u64]) -> Option<Vec<Vec<u64>>> {
    let fits = |x: &[u64]| {
        let sum = |f: &dyn Fn(&Demand) -> u64| running.iter().zip(x).fold(0u128, |s, ((d, _), &k)| s + u128::from(f(d)) * u128::from(k));
        sum(&|d| d.threads) <= u128::from(p.sm_threads)
            && sum(&|d| d.registers) <= u128::from(p.registers_per_sm)
            && sum(&|d| d.shared_memory) <= u128::from(p.shared_memory_per_sm)
            && x.iter().map(|&k| u128::from(k)).sum::<u128>() <= u128::from(p.max_blocks_per_sm)
    };
    let mut out = vec![vec![0; bound.len()]];
    for i in 0..bound.len() {
        let mut next = Vec::new();
        for x in &out {
            let mut y = x.clone();
            while fits(&y) {
                next.push(y.clone());
                if next.len() > PLACEMENT_BUDGET || y[i] == bound[i] {
                    break;
                }
                y[i] += 1;
            }
            if next.len() > PLACEMENT_BUDGET {
                return None;
            }
        }
        out = next;
    }
    Some(out)
}

/// Fixed-point unit of [`weights`]: a weight of 1.
pub const WEIGHT_ONE: u128 = 1 << 32;

/// Per demand of `running`, a **weight** (in units of `1 / WEIGHT_ONE`, rounded up) such
/// that on an SM where a block of a demand in `heads` has no room, the running blocks'
/// weights sum to at least `WEIGHT_ONE`, in every scenario the profile leaves open.
/// `None` when a scenario confines blocks to half an SM (not covered here) or a head
/// needs more than an SM has.
///
/// Proof. In a `Whole` scenario a block of demand `h` has room beside running blocks
/// (module documentation, the counts of [`beside`]) as soon as, for every resource `r`
/// below, the running blocks' charges sum to at most `cap_r - need_r(h)`: threads
/// (`T`, `h`'s threads, each block's threads), registers (`Greedy`: `R`, `need_S(h)`,
/// each block's registers; `RoundRobin`: `R_sp`, `h`'s share of a sub-partition, each
/// block's share: the busiest sub-partition holds at most the shares' sum), shared
/// memory (`M`, `h`'s, each block's) and the block limit (`B`, 1, 1). A resource `h`
/// needs none of (`need_r(h) = 0`: no shared memory, no registers) never keeps it out,
/// whatever the charges: every room rule of the model asks for `need_r(h)` free, and
/// none is always free (the model has no per-block reservation of shared memory, as
/// compute capability 6.2 has none), so the condition is needed only for the others.
/// `None` too for no heads. So with no room,
/// some `r` with `need_r(h) >= 1` has a charge sum of at least `cap_r - need_r(h) + 1 >=
/// cap_r - N_r + 1`, `N_r` the largest need over `heads` (charges are whole units; so
/// `N_r >= 1`), and the weights `max_r charge_r(b) / (cap_r - N_r + 1)` over the
/// resources with `N_r >= 1` (and the scenarios) sum to at least 1. Rounding each weight
/// up keeps the sum at least 1.
pub fn weights(p: &Platform, heads: &[Demand], running: &[Demand]) -> Option<Vec<u128>> {
    weights_in_grains(p, heads, running, false)
}

/// [`weights`] where **every** running block is of a demand in `running`: the charges'
/// sum on a resource `r` is then a multiple of `g_r`, the greatest common divisor of the
/// charges of `running`, so with no room it is at least `D_r = ceil((cap_r - N_r + 1) /
/// g_r) g_r`, and the weights `max_r charge_r(b) / D_r` sum to at least 1 (two blocks of
/// 1024 threads block a head of 1024: each weighs 1/2, not 1024/1025). Not for weighing
/// a subset of what runs (e.g. one class at a time).
pub fn weights_among(p: &Platform, heads: &[Demand], running: &[Demand]) -> Option<Vec<u128>> {
    weights_in_grains(p, heads, running, true)
}

/// [`weights`], or with `grains` [`weights_among`]. A weight depends on its block's
/// demand and on the *sets* of demands in `heads` and `running` (a largest need, a
/// greatest common divisor), so it is computed once per distinct demand.
fn weights_in_grains(p: &Platform, heads: &[Demand], running: &[Demand], grains: bool) -> Option<Vec<u128>> {
    let distinct = |all: &[Demand]| all.iter().fold(Vec::new(), |mut d: Vec<Demand>, x| {
        if !d.contains(x) {
            d.push(*x);
        }
        d
    });
    let (heads, kinds) = (distinct(heads), distinct(running));
    if kinds.len() < running.len() {
        let w = weights_of_distinct(p, &heads, &kinds, grains)?;
        return Some(running.iter().map(|b| w[kinds.iter().position(|k| k == b).unwrap_or(0)]).collect());
    }
    weights_of_distinct(p, &heads, running, grains)
}

/// [`weights_in_grains`] on demands as given.
fn weights_of_distinct(p: &Platform, heads: &[Demand], running: &[Demand], grains: bool) -> Option<Vec<u128>> {
    if modes(p) != [Mode::Whole] {
        return None;
    }
    if heads.is_empty() {
        return None;
    }
    let s = p.register_sub_partitions;
    let mut out = vec![0u128; running.len()];
    for &policy in policies(p) {
        for resource in [Resource::Threads, Resource::Registers(policy), Resource::Shared, Resource::Blocks] {
            let need = heads.iter().map(|h| resource.need(p, h, s)).max().unwrap_or(0);
            // A resource no head needs never keeps one out (proof above).
            if need == 0 {
                continue;
            }
            // The charges' sum is a multiple of their greatest common divisor `g`.
            let g = if grains { running.iter().map(|b| u128::from(resource.charge(p, b, s))).fold(0, crate::time_unit::gcd).max(1) } else { 1 };
            let den = (u128::from(resource.cap(p, 1).checked_sub(need)?) + 1).div_ceil(g) * g;
            for (w, b) in out.iter_mut().zip(running) {
                *w = (*w).max((u128::from(resource.charge(p, b, s)) * WEIGHT_ONE).div_ceil(den));
            }
        }
    }
    Some(out)
}

/// A resource of an SM as the room rule counts it ([`beside_in`]) and [`weights`]
/// charges it: what a part has, what a new block needs free, what a running block holds.
#[derive(Clone, Copy)]
enum Resource {
    Threads,
    Registers(Policy),
    Shared,
    Blocks,
}

impl Resource {
    /// What `1 / parts` of an SM has: threads, registers (of the part, or of one
    /// sub-partition under round robin), bytes of shared memory and block slots (of the
    /// whole SM: never halved).
    fn cap(self, p: &Platform, parts: u64) -> u64 {
        match self {
            Resource::Threads => p.sm_threads / parts,
            Resource::Registers(Policy::Greedy) => p.registers_per_sm / parts,
            Resource::Registers(Policy::RoundRobin) => p.registers_per_sub_partition(),
            Resource::Shared => p.shared_memory_per_sm,
            Resource::Blocks => p.max_blocks_per_sm,
        }
    }

    /// What must be free for a block of `h` to have room, its warps over `subs`
    /// sub-partitions (module documentation).
    fn need(self, p: &Platform, h: &Demand, subs: u64) -> u64 {
        match self {
            Resource::Threads => h.threads,
            Resource::Registers(Policy::Greedy) => greedy_need(p, h, subs),
            Resource::Registers(Policy::RoundRobin) => round_robin_share(p, h, subs),
            Resource::Shared => h.shared_memory,
            Resource::Blocks => 1,
        }
    }

    /// What a running block of `b` holds of it (at most, in one sub-partition, its warps
    /// over `subs` of them).
    fn charge(self, p: &Platform, b: &Demand, subs: u64) -> u64 {
        match self {
            Resource::Threads => b.threads,
            Resource::Registers(Policy::Greedy) => b.registers,
            Resource::Registers(Policy::RoundRobin) => round_robin_share(p, b, subs),
            Resource::Shared => b.shared_memory,
            Resource::Blocks => 1,
        }
    }

    /// `room` of this resource for a block of `d` beside blocks of at most `e` in
    /// `1 / parts` of the SM (`e`'s share over `e_subs` sub-partitions).
    /// Greedy registers take the better of `need_S` and [`greedy_in_warps`] (each
    /// suffices).
    fn room(self, p: &Platform, d: &Demand, e: &Demand, parts: u64, e_subs: u64) -> u64 {
        let subs = p.register_sub_partitions / parts;
        let k = room(self.cap(p, parts), self.need(p, d, subs), self.charge(p, e, e_subs));
        match (self, greedy_in_warps(p, d, subs)) {
            (Resource::Registers(Policy::Greedy), Some((cap, need))) => k.max(room(cap, need, head_warps(d, e))),
            _ => k,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tx2(placement: WarpPlacement, caching: GlobalCaching) -> Platform {
        Platform { warp_placement: placement, global_caching: caching, ..Platform::TX2 }
    }

    /// Three blocks of 33 KiB fit an SM of 100 KiB, two once the driver reserves 1 KiB
    /// per block (compute capability 8.0 on).
    #[test]
    fn reserved_shared_memory_lowers_the_fit() {
        let sm_86 = Platform { shared_memory_per_sm: 102_400, ..Platform::TX2 };
        let reserved = Platform { shared_memory_reserved_per_block: 1024, ..sm_86 };
        assert_eq!(fit(&sm_86, &sm_86.demand(128, 33_792, 0, "k").unwrap()), 3);
        assert_eq!(fit(&reserved, &reserved.demand(128, 33_792, 0, "k").unwrap()), 2);
    }

    #[test]
    fn round_robin_holds_fewer_when_warps_do_not_divide() {
        // 3 warps of 32 x 160 = 5120 registers: 3 per sub-partition (16 384).
        let p = tx2(WarpPlacement::Any, GlobalCaching::Off);
        let d = p.demand(96, 0, 160, "k").unwrap();
        assert_eq!(slots(&p, &d, Policy::Greedy, 1), 4); // 12 warps of room, 3 each
        assert_eq!(slots(&p, &d, Policy::RoundRobin, 1), 3); // 1 per block in sub-partition 0
        assert!(fit_is_exact(&p, &d) && fit(&p, &d) == 4);
        let unknown = tx2(WarpPlacement::Unknown, GlobalCaching::Off);
        assert_eq!(fit(&unknown, &d), 3);
        assert!(!fit_is_exact(&unknown, &d));
    }

    #[test]
    fn partitioned_caching_confines_blocks_to_half_an_sm() {
        // 544 threads = 17 warps: 3 per SM, but 1 per half (32 warps).
        let on = tx2(WarpPlacement::Any, GlobalCaching::Partitioned);
        let d = on.demand(544, 0, 0, "k").unwrap();
        assert_eq!(fit(&Platform { global_caching: GlobalCaching::Off, ..on }, &d), 3);
        assert_eq!(fit(&on, &d), 2);
        assert!(fit_is_exact(&on, &d));
        // A mix: one spread block (9 + 8 warps) beside one confined (17) leaves 15 and 23:
        // no half has 17 warps free for a third.
        let mixed = tx2(WarpPlacement::Any, GlobalCaching::Unknown);
        assert_eq!(fit(&mixed, &d), 1);
    }

    #[test]
    fn tx2_fits() {
        let p = Platform::TX2;
        let d = |t, s, r| p.demand(t, s, r, "k").unwrap();
        assert_eq!(fit(&p, &d(512, 0, 0)), 4);
        assert_eq!(fit(&p, &d(32, 0, 0)), 32);
        assert_eq!(fit(&p, &d(256, 20_000, 0)), 3);
        // 64 registers per thread: 2048 per warp, 8 warps per block = 16384 per block.
        assert_eq!(fit(&p, &d(256, 0, 64)), 4);
    }

    /// Occupancy as CUDA's occupancy calculator counts it on compute capability 6.2
    /// (threads in whole warps, 64 warps per SM; registers per warp in units of 256;
    /// shared memory in units of 256 bytes; 32 blocks per SM), derived by hand:
    /// (threads, registers per thread, shared memory) -> blocks per SM. Greedy
    /// placement (the calculator's); round robin, where it differs, below.
    #[test]
    fn occupancy_table() {
        let p = tx2(WarpPlacement::Any, GlobalCaching::Off);
        let cases = [
            ((682, 0, 0), 2),     // 22 warps: 2 x 22 = 44 of 64 warps; 3 would be 66
            ((80, 0, 0), 21),     // 3 warps each: 21 x 3 = 63
            ((33, 0, 0), 32),     // 2 warps each, 32 blocks (block limit)
            ((1024, 0, 0), 2),    // 32 warps each
            ((96, 0, 0), 21),     // 3 warps each
            ((256, 32, 0), 8),    // 8 warps x 1024 registers = 8192 per block: 8 per 65 536
            ((256, 33, 0), 6),    // 33 x 32 = 1056 -> 1280 per warp, 10 240 per block: 6
            ((128, 255, 0), 2),   // 255 x 32 = 8160 -> 8192 per warp, 32 768 per block (its limit)
            ((64, 0, 1), 32),     // 1 byte -> 256 bytes
            ((64, 0, 12_289), 5), // 12 544 bytes each: 5 x 12 544 = 62 720 of 65 536
            // Registers per sub-partition (16 384 each): 40 x 32 = 1280 per warp, 12 warps
            // per sub-partition, 48 per SM: 2 blocks of 17 warps (pooled: 65 536 / 21 760 = 3).
            ((544, 40, 0), 2),
            ((352, 48, 0), 3), // 1536 per warp: 10 per sub-partition, 40 per SM, 11 warps each
            ((64, 255, 0), 4), // 8192 per warp: 2 per sub-partition, 8 per SM
        ];
        for ((threads, regs, shared), blocks) in cases {
            let d = p.demand(threads, shared, regs, "k").unwrap();
            assert_eq!(fit(&p, &d), blocks, "{threads} threads, {regs} registers, {shared} bytes");
        }
        // Round robin: 11 warps put 3 in sub-partition 0: 10 / 3 = 3 blocks, as greedy.
        let rr = tx2(WarpPlacement::RoundRobin, GlobalCaching::Off);
        assert_eq!(fit(&rr, &rr.demand(352, 0, 48, "k").unwrap()), 3);
        // 64 threads at 255 registers: 2 warps, 1 per sub-partition: 2 per sub-partition.
        assert_eq!(fit(&rr, &rr.demand(64, 0, 255, "k").unwrap()), 2);
    }

    /// One SM as the hardware fills it (threads, shared memory, block slots, registers
    /// per sub-partition), written apart from the room rule: warps placed greedily at a
    /// random sub-partition with room, or round robin from a random start.
    struct Sm {
        threads: u64,
        shared: u64,
        blocks: u64,
        registers: Vec<u64>,
        policy: Policy,
    }

    impl Sm {
        fn empty(subs: usize, policy: Policy) -> Sm {
            Sm { threads: 0, shared: 0, blocks: 0, registers: vec![0; subs], policy }
        }

        /// Where `d`'s warps go, if they fit (sub-partition per warp).
        fn spots(&self, p: &Platform, d: &Demand, start: usize) -> Option<Vec<usize>> {
            let fits = self.threads + d.threads <= p.sm_threads
                && self.shared + d.shared_memory <= p.shared_memory_per_sm
                && self.blocks < p.max_blocks_per_sm;
            let (cap, subs) = (p.registers_per_sub_partition(), self.registers.len());
            let mut used = self.registers.clone();
            let mut out = Vec::new();
            for i in 0..d.warps as usize {
                let s = match self.policy {
                    Policy::Greedy => (0..subs).map(|k| (start + k) % subs).find(|&s| used[s] + d.registers_per_warp <= cap)?,
                    Policy::RoundRobin => Some((start + i) % subs).filter(|&s| used[s] + d.registers_per_warp <= cap)?,
                };
                used[s] += d.registers_per_warp;
                out.push(s);
            }
            fits.then_some(out)
        }

        /// Whether the placement has room for `d`: greedy from any sub-partition, round
        /// robin from the hardware's `start`.
        fn has_room(&self, p: &Platform, d: &Demand, start: usize) -> bool {
            match self.policy {
                Policy::Greedy => (0..self.registers.len()).any(|from| self.spots(p, d, from).is_some()),
                Policy::RoundRobin => self.spots(p, d, start).is_some(),
            }
        }

        fn place(&mut self, p: &Platform, d: &Demand, start: usize) -> bool {
            let Some(spots) = self.spots(p, d, start) else { return false };
            spots.into_iter().for_each(|s| self.registers[s] += d.registers_per_warp);
            (self.threads, self.shared, self.blocks) = (self.threads + d.threads, self.shared + d.shared_memory, self.blocks + 1);
            true
        }
    }

    /// Up to three random block demands (some shared memory, some registers).
    fn random_kinds(p: &Platform, rng: &mut rand::rngs::SmallRng) -> Vec<Demand> {
        use rand::Rng;
        (0..3)
            .filter_map(|_| {
                let shared = if rng.random_bool(0.3) { rng.random_range(0..40_000) } else { 0 };
                let registers = if rng.random_bool(0.6) { rng.random_range(16..=128) } else { 0 };
                // Coarse sizes half the time (their charges share a large divisor).
                let threads = if rng.random_bool(0.5) { 256 * rng.random_range(1..=4) } else { rng.random_range(1..=1024) };
                let shared = if shared > 0 && rng.random_bool(0.5) { shared / 8192 * 8192 + 8192 } else { shared };
                p.demand(threads, shared, registers, "k").ok()
            })
            .collect()
    }

    /// Wherever a head (every kind, or some of them) has no room on an SM filled at random
    /// with blocks of the kinds, the running blocks' weights sum to at least 1 (both
    /// placements; a resource no head needs is not weighed).
    #[test]
    fn weights_sum_to_one_wherever_a_head_has_no_room() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(54);
        let mut blocked = 0;
        for (placement, policy) in [(WarpPlacement::Any, Policy::Greedy), (WarpPlacement::RoundRobin, Policy::RoundRobin)] {
            let p = tx2(placement, GlobalCaching::Off);
            for _ in 0..20_000 {
                let kinds = random_kinds(&p, &mut rng);
                if kinds.is_empty() {
                    continue;
                }
                // The heads: every kind, or some of them (a head that cannot be one then).
                let heads: Vec<Demand> = kinds.iter().copied().filter(|_| rng.random_bool(0.7)).collect();
                let heads = if heads.is_empty() { kinds.clone() } else { heads };
                let w = weights_among(&p, &heads, &kinds).unwrap();
                let subs = p.register_sub_partitions as usize;
                let mut sm = Sm::empty(subs, policy);
                let mut sum = 0;
                for _ in 0..rng.random_range(0..40) {
                    let k = rng.random_range(0..kinds.len().max(1));
                    if k < kinds.len() && sm.place(&p, &kinds[k], rng.random_range(0..subs)) {
                        sum += w[k];
                    }
                }
                let start = rng.random_range(0..subs);
                for h in heads.iter().filter(|h| !sm.has_room(&p, h, start)) {
                    blocked += 1;
                    assert!(sum >= WEIGHT_ONE, "{h:?} blocked by weight {sum} ({placement:?})");
                }
            }
        }
        assert!(blocked > 10_000, "only {blocked} blocked heads");
    }

    /// Wherever [`beside_every_sm`] promises room beside the blocks on an SM filled at
    /// random (each kind counted as often as it was placed, or more), the SM has room for
    /// the head; and no SM filled with one kind holds more than its [`most`] (both
    /// placements).
    #[test]
    fn room_beside_every_sm_and_most_hold_on_a_filled_sm() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(57);
        let mut promised = 0;
        for (placement, policy) in [(WarpPlacement::Any, Policy::Greedy), (WarpPlacement::RoundRobin, Policy::RoundRobin)] {
            let p = tx2(placement, GlobalCaching::Off);
            let subs = p.register_sub_partitions as usize;
            for _ in 0..20_000 {
                let kinds = random_kinds(&p, &mut rng);
                if kinds.is_empty() {
                    continue;
                }
                let mut sm = Sm::empty(subs, policy);
                let mut placed = vec![0u64; kinds.len()];
                for _ in 0..rng.random_range(0..40) {
                    let k = rng.random_range(0..kinds.len());
                    if sm.place(&p, &kinds[k], rng.random_range(0..subs)) {
                        placed[k] += 1;
                    }
                }
                let counted: Vec<(Demand, u64)> = kinds.iter().zip(&placed).map(|(d, &n)| (*d, n + rng.random_range(0..2))).collect();
                let start = rng.random_range(0..subs);
                for h in kinds.iter().filter(|h| beside_every_sm(&p, h, &counted)) {
                    promised += 1;
                    assert!(sm.has_room(&p, h, start), "{h:?} promised room beside {counted:?} ({placement:?})");
                }
                let mut one = Sm::empty(subs, policy);
                let mut n = 0;
                while one.place(&p, &kinds[0], rng.random_range(0..subs)) {
                    n += 1;
                }
                assert!(n <= most(&p, &kinds[0]), "{n} blocks of {:?} on one SM, most {}", kinds[0], most(&p, &kinds[0]));
            }
        }
        assert!(promised > 5_000, "only {promised} promises");
    }

    /// Wherever two SMs filled at random from the counted blocks (each kind placed at most
    /// as often as counted) both lack room for a head, [`some_sm_has_room`] does not claim
    /// room; and it does claim it often (both placements).
    #[test]
    fn room_on_some_sm_is_never_claimed_where_a_fill_blocks_both() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(58);
        let (mut claimed, mut blocked) = (0, 0);
        for (placement, policy) in [(WarpPlacement::Any, Policy::Greedy), (WarpPlacement::RoundRobin, Policy::RoundRobin)] {
            let p = tx2(placement, GlobalCaching::Off);
            let subs = p.register_sub_partitions as usize;
            for _ in 0..4_000 {
                let kinds = random_kinds(&p, &mut rng);
                if kinds.is_empty() {
                    continue;
                }
                let counts: Vec<(Demand, u64)> = kinds.iter().map(|d| (*d, rng.random_range(0..12))).collect();
                let mut left: Vec<u64> = counts.iter().map(|c| c.1).collect();
                let mut sms = [Sm::empty(subs, policy), Sm::empty(subs, policy)];
                for _ in 0..200 {
                    let (k, s) = (rng.random_range(0..kinds.len()), rng.random_range(0..2));
                    if left[k] > 0 && sms[s].place(&p, &kinds[k], rng.random_range(0..subs)) {
                        left[k] -= 1;
                    }
                }
                for h in &kinds {
                    let start = rng.random_range(0..subs);
                    let claim = some_sm_has_room(&p, h, &counts);
                    claimed += usize::from(claim);
                    if sms.iter().all(|sm| !sm.has_room(&p, h, start)) {
                        blocked += 1;
                        assert!(!claim, "{h:?} claimed room beside {counts:?}, both SMs full ({placement:?})");
                    }
                }
            }
        }
        assert!(claimed > 2_000 && blocked > 2_000, "{claimed} claims, {blocked} blocked");
    }

    /// Wherever an SM filled at random runs fewer than [`beside_in`]`(d, e)` blocks, each
    /// of a kind under the envelope `e`, it has room for `d` (`Whole`, both placements);
    /// and the greedy count in the head's warps ([`greedy_in_warps`]) raises the count
    /// often (so the draw exercises it).
    #[test]
    fn beside_holds_on_a_filled_sm() {
        use rand::rngs::SmallRng;
        use rand::{Rng, SeedableRng};
        let mut rng = SmallRng::seed_from_u64(59);
        let (mut checked, mut raised) = (0, 0);
        for (placement, policy) in [(WarpPlacement::Any, Policy::Greedy), (WarpPlacement::RoundRobin, Policy::RoundRobin)] {
            let p = tx2(placement, GlobalCaching::Off);
            let subs = p.register_sub_partitions as usize;
            for _ in 0..20_000 {
                let kinds = random_kinds(&p, &mut rng);
                let Some(&first) = kinds.first() else { continue };
                let e = kinds.iter().fold(first, |e, k| e.envelope(*k));
                let h = kinds[rng.random_range(0..kinds.len())];
                let k = beside_in(&p, &h, &e, policy, Mode::Whole);
                let without = Resource::Threads.room(&p, &h, &e, 1, p.register_sub_partitions).min(room(
                    Resource::Registers(policy).cap(&p, 1),
                    Resource::Registers(policy).need(&p, &h, p.register_sub_partitions),
                    Resource::Registers(policy).charge(&p, &e, p.register_sub_partitions),
                ));
                raised += usize::from(k > without.min(k));
                let mut sm = Sm::empty(subs, policy);
                let mut n = 0;
                for _ in 0..rng.random_range(0..60) {
                    if n + 1 < k && sm.place(&p, &kinds[rng.random_range(0..kinds.len())], rng.random_range(0..subs)) {
                        n += 1;
                    }
                }
                checked += 1;
                let start = rng.random_range(0..subs);
                assert!(sm.has_room(&p, &h, start), "{h:?} beside {n} blocks under {e:?}, k {k} ({placement:?})");
            }
        }
        assert!(checked > 30_000 && raised > 500, "{checked} checked, {raised} raised");
    }

    #[test]
    fn beside_never_exceeds_slots_of_one_demand() {
        for caching in [GlobalCaching::Off, GlobalCaching::Partitioned, GlobalCaching::Unknown] {
            for placement in [WarpPlacement::Any, WarpPlacement::RoundRobin, WarpPlacement::Unknown] {
                let p = tx2(placement, caching);
                for (t, r, m) in [(544, 40, 0), (96, 160, 0), (512, 0, 0), (96, 64, 4000), (1024, 32, 0), (33, 255, 100)] {
                    let d = p.demand(t, m, r, "k").unwrap();
                    assert!(beside(&p, &d, &d) <= fit(&p, &d).max(1), "{t} {r} {m} {caching:?} {placement:?}");
                }
            }
        }
    }
}
