//! GPU profiles as data: the per-SM limits that decide how many blocks fit on an SM
//! (threads, resident blocks, shared memory, registers), and each block's demand.
//!
//! The default is the Jetson TX2 (compute capability 6.2): 2 SMs, each with 2048
//! resident threads (64 warps), 32 resident blocks, 64 KiB shared memory (48 KiB per
//! block) and 65 536 32-bit registers; at most 1024 threads per block, 32 768 registers
//! per block and 255 per thread; threads are held in whole warps of 32, registers are
//! allocated per warp in units of 256 within each of the SM's 4 warp-scheduler
//! sub-partitions of 16 384 registers (a warp's registers cannot span two), shared
//! memory in units of 256 bytes. Sources: CUDA's occupancy calculator
//! (`cuda_occupancy.h`: `cudaOccMaxBlocksPerSMRegsLimit`, `cudaOccSubPartitionsPerMultiprocessor`)
//! and the CUDA C Programming Guide's table of compute capabilities (6.2).
//!
//! **Registers and halves.** How many blocks fit, and when an SM surely has room beside
//! others, is in [`crate::rta::room`]: registers are counted per sub-partition, and the
//! profile says what is known of the two things NVIDIA does not document, where a
//! block's warps go among the sub-partitions ([`WarpPlacement`]) and whether blocks are
//! confined to half an SM ([`GlobalCaching`]); the analysis is safe for every case left
//! open. The per-SM simulation ([`Capacity`]) places warps greedily in sub-partitions.

use crate::error::{positive, InputError};
use crate::rta::time::Decimal;
use serde::{Deserialize, Serialize};

/// Most SMs a profile may have (the largest GPUs have about 150).
pub const MAX_SMS: u64 = 256;

/// Most warp-scheduler sub-partitions per SM a profile may have (NVIDIA GPUs have 1 to 4).
pub const MAX_SUB_PARTITIONS: usize = 8;

/// How the hardware places a block's warps into the SM's warp-scheduler sub-partitions
/// (each warp's registers in one). NVIDIA does not document it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarpPlacement {
    /// Each warp to any sub-partition with room (what the occupancy calculator's
    /// formula implies).
    Any,
    /// Warp `i` of a block to sub-partition `(s0 + i) mod S`, from a fixed or rotating
    /// `s0`: at most `ceil(w / S)` warps of a block in any sub-partition.
    RoundRobin,
    /// Not known: the analysis is safe for both (the default).
    Unknown,
}

/// Partitioned global caching (CUDA's `cudaOccPartitionedGCConfig`, supported on
/// compute capability 5.2-6.2 but 6.0): a kernel whose global loads are cached in L1
/// (`-Xptxas -dlcm=ca`) has each block confined to one half of an SM (half its warp
/// slots and half its register sub-partitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GlobalCaching {
    /// No kernel is confined to half an SM (the default: the thesis's TX2 measurements,
    /// with default compiler flags, reproduce with whole SMs).
    Off,
    /// Every kernel is confined (`on`): all built with `-dlcm=ca`.
    #[serde(rename = "on")]
    Partitioned,
    /// Some kernels may be confined and others not: safe for any mix.
    Unknown,
}

/// A GPU's per-SM limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Platform {
    /// `b_max`, resident threads of all SMs together (TX2: 4096).
    pub max_threads: u64,
    /// Resident threads per SM (TX2: 2048).
    pub sm_threads: u64,
    /// Resident blocks per SM (TX2: 32).
    pub max_blocks_per_sm: u64,
    /// Shared memory per SM in bytes (TX2: 65 536).
    pub shared_memory_per_sm: u64,
    /// Shared memory per block in bytes (TX2: 49 152).
    pub shared_memory_per_block: u64,
    /// 32-bit registers per SM (TX2: 65 536).
    pub registers_per_sm: u64,
    /// Threads per block (TX2: 1024).
    pub max_threads_per_block: u64,
    /// Threads per warp (32).
    pub warp_size: u64,
    /// Registers are allocated per warp in multiples of this (TX2: 256).
    pub register_allocation_unit: u64,
    /// Shared memory is allocated per block in multiples of this many bytes (TX2: 256).
    pub shared_memory_allocation_unit: u64,
    /// Shared memory the driver reserves for every block, on top of what the kernel
    /// uses, before rounding to the allocation unit (TX2: 0; compute capability 8.0
    /// and later: 1024, CUDA's `reservedSharedMemPerBlock`). Counted for every block,
    /// even one that uses no shared memory, as CUDA's occupancy calculator does.
    pub shared_memory_reserved_per_block: u64,
    /// 32-bit registers one block may use (TX2: 32 768).
    pub max_registers_per_block: u64,
    /// 32-bit registers one thread may use (TX2: 255).
    pub max_registers_per_thread: u64,
    /// Warp-scheduler sub-partitions per SM, each with `registers_per_sm / n` registers
    /// (TX2: 4).
    pub register_sub_partitions: u64,
    /// Where a block's warps go among the sub-partitions (TX2: not documented, so
    /// [`WarpPlacement::Unknown`]).
    pub warp_placement: WarpPlacement,
    /// Whether blocks are confined to half an SM (TX2: [`GlobalCaching::Off`]).
    pub global_caching: GlobalCaching,
}

impl Platform {
    /// The Jetson TX2.
    pub const TX2: Platform = Platform {
        max_threads: 4096,
        sm_threads: 2048,
        max_blocks_per_sm: 32,
        shared_memory_per_sm: 65_536,
        shared_memory_per_block: 49_152,
        registers_per_sm: 65_536,
        max_threads_per_block: 1024,
        warp_size: 32,
        register_allocation_unit: 256,
        shared_memory_allocation_unit: 256,
        shared_memory_reserved_per_block: 0,
        max_registers_per_block: 32_768,
        max_registers_per_thread: 255,
        register_sub_partitions: 4,
        warp_placement: WarpPlacement::Unknown,
        global_caching: GlobalCaching::Off,
    };

    /// Number of SMs, `max_threads / sm_threads`.
    pub fn sms(&self) -> u64 {
        self.max_threads / self.sm_threads.max(1)
    }

    /// What one block of `threads` threads using `shared_memory` bytes and
    /// `registers_per_thread` registers per thread occupies on an SM, after allocation
    /// granularity: threads in whole warps, registers per warp in allocation units,
    /// shared memory with the profile's reserved bytes in allocation units (CUDA's
    /// `cudaOccMaxBlocksPerSMSmemLimit`: `roundUp(static + dynamic + reserved,
    /// granularity)`). `kernel` names the kernel in errors (e.g.
    /// `kernels[2]`); a block that cannot launch (above a per-block or per-thread limit)
    /// is refused, naming the limit (a block that fits no empty SM in some case the profile
    /// leaves open is refused by `crate::rta::workload::demands`).
    pub fn demand(&self, threads: u64, shared_memory: u64, registers_per_thread: u64, kernel: &str) -> Result<Demand, InputError> {
        let field = |f: &str| format!("{kernel}.{f}");
        if threads == 0 || threads > self.max_threads_per_block.min(self.sm_threads) {
            return Err(InputError::new(
                field("threads_per_block"),
                threads,
                format!("must be from 1 to {} threads", self.max_threads_per_block.min(self.sm_threads)),
            ));
        }
        if shared_memory > self.shared_memory_per_block.min(self.shared_memory_per_sm) {
            return Err(InputError::new(
                field("shared_memory"),
                shared_memory,
                format!("more than the {} bytes a block may use", self.shared_memory_per_block.min(self.shared_memory_per_sm)),
            ));
        }
        let warps = threads.div_ceil(self.warp_size);
        let thread_slots = warps.saturating_mul(self.warp_size);
        if thread_slots > self.sm_threads {
            return Err(InputError::new(
                field("threads_per_block"),
                threads,
                format!("takes {warps} warps ({thread_slots} thread slots), more than the {} of an SM", self.sm_threads),
            ));
        }
        if registers_per_thread > self.max_registers_per_thread {
            return Err(InputError::new(
                field("registers_per_thread"),
                registers_per_thread,
                format!("more than the {} registers a thread may use (gpu.max_registers_per_thread)", self.max_registers_per_thread),
            ));
        }
        let unit = self.register_allocation_unit.max(1);
        let per_warp = (registers_per_thread.saturating_mul(self.warp_size)).div_ceil(unit).saturating_mul(unit);
        let registers = warps.saturating_mul(per_warp);
        // The hardware's launch check assumes the block's warps are spread over every
        // sub-partition: warps rounded up to a multiple of their number.
        let assumed = warps.div_ceil(self.register_sub_partitions).saturating_mul(self.register_sub_partitions).saturating_mul(per_warp);
        let register_cap = self.max_registers_per_block.min(self.registers_per_sm);
        if registers.max(assumed) > register_cap {
            return Err(InputError::new(
                field("registers_per_thread"),
                registers_per_thread,
                format!(
                    "a block of {threads} threads would need {} registers ({warps} warps, counted as whole sets of {} sub-partitions, x {per_warp}), more than the {register_cap} a block may use (gpu.max_registers_per_block, gpu.registers_per_sm)",
                    registers.max(assumed), self.register_sub_partitions
                ),
            ));
        }
        if per_warp > self.registers_per_sub_partition() {
            return Err(InputError::new(
                field("registers_per_thread"),
                registers_per_thread,
                format!(
                    "a warp would need {per_warp} registers, more than the {} of one sub-partition",
                    self.registers_per_sub_partition()
                ),
            ));
        }
        let unit = self.shared_memory_allocation_unit.max(1);
        let reserved = self.shared_memory_reserved_per_block;
        let shared = shared_memory.saturating_add(reserved).div_ceil(unit).saturating_mul(unit);
        if shared > self.shared_memory_per_sm {
            let with = if reserved > 0 { format!(" with the {reserved} reserved per block (gpu.shared_memory_reserved_per_block)") } else { String::new() };
            return Err(InputError::new(
                field("shared_memory"),
                shared_memory,
                format!(
                    "takes {shared} bytes{with} in allocation units of {unit} (gpu.shared_memory_allocation_unit), more than the {} of an SM",
                    self.shared_memory_per_sm
                ),
            ));
        }
        let subs = self.register_sub_partitions.max(1);
        let round_robin_registers = [subs, (subs / 2).max(1)].map(|n| warps.div_ceil(n).saturating_mul(per_warp));
        Ok(Demand { threads: thread_slots, warps, shared_memory: shared, registers_per_warp: per_warp, registers, round_robin_registers })
    }

    /// Registers of one warp-scheduler sub-partition.
    pub fn registers_per_sub_partition(&self) -> u64 {
        self.registers_per_sm / self.register_sub_partitions.max(1)
    }

    /// What an empty SM offers: in halves when every block is confined to one
    /// ([`GlobalCaching::Partitioned`]), else whole (the nominal case of `Unknown`).
    pub fn capacity(&self) -> Capacity {
        let n = self.register_sub_partitions as usize;
        let mut registers = [0; MAX_SUB_PARTITIONS];
        registers[..n].fill(self.registers_per_sub_partition());
        let parts = if self.global_caching == GlobalCaching::Partitioned { 2 } else { 1 };
        let mut threads = [0; 2];
        threads[..parts].fill(self.sm_threads / parts as u64);
        Capacity {
            threads,
            parts,
            blocks: self.max_blocks_per_sm,
            shared_memory: self.shared_memory_per_sm,
            registers,
            sub_partitions: n,
            round_robin: self.warp_placement == WarpPlacement::RoundRobin,
        }
    }

    /// Checks the limits themselves (all positive, `max_threads` a multiple of `sm_threads`).
    pub fn check(&self) -> Result<(), InputError> {
        for (field, v) in [
            ("gpu.max_threads", self.max_threads),
            ("gpu.sm_threads", self.sm_threads),
            ("gpu.max_blocks_per_sm", self.max_blocks_per_sm),
            ("gpu.shared_memory_per_sm", self.shared_memory_per_sm),
            ("gpu.registers_per_sm", self.registers_per_sm),
            ("gpu.max_threads_per_block", self.max_threads_per_block),
            ("gpu.warp_size", self.warp_size),
            ("gpu.register_sub_partitions", self.register_sub_partitions),
        ] {
            if v == 0 {
                return Err(InputError::new(field, 0, "must be positive"));
            }
        }
        if self.sms() > MAX_SMS {
            return Err(InputError::new(
                "gpu.max_threads",
                self.max_threads,
                format!("means {} SMs of gpu.sm_threads = {}; at most {MAX_SMS} SMs are supported", self.sms(), self.sm_threads),
            ));
        }
        if self.register_sub_partitions > MAX_SUB_PARTITIONS as u64 || self.register_sub_partitions > self.registers_per_sm {
            return Err(InputError::new(
                "gpu.register_sub_partitions",
                self.register_sub_partitions,
                format!("must be from 1 to {MAX_SUB_PARTITIONS} and at most gpu.registers_per_sm"),
            ));
        }
        let unit = self.register_allocation_unit.max(1);
        if !self.registers_per_sm.is_multiple_of(self.register_sub_partitions.saturating_mul(unit)) {
            return Err(InputError::new(
                "gpu.registers_per_sm",
                self.registers_per_sm,
                format!(
                    "must be a multiple of gpu.register_sub_partitions x gpu.register_allocation_unit = {} (each sub-partition holds whole allocation units)",
                    self.register_sub_partitions.saturating_mul(unit)
                ),
            ));
        }
        if self.global_caching != GlobalCaching::Off
            && (!self.register_sub_partitions.is_multiple_of(2) || !self.sm_threads.is_multiple_of(2 * self.warp_size))
        {
            return Err(InputError::new(
                "gpu.partitioned_global_caching",
                "on",
                "halves of an SM need an even number of sub-partitions and of warps per SM",
            ));
        }
        if self.shared_memory_reserved_per_block >= self.shared_memory_per_sm {
            return Err(InputError::new(
                "gpu.shared_memory_reserved_per_block",
                self.shared_memory_reserved_per_block,
                format!("must be below gpu.shared_memory_per_sm = {} (no block would fit)", self.shared_memory_per_sm),
            ));
        }
        if !self.max_threads.is_multiple_of(self.sm_threads) {
            return Err(InputError::new(
                "gpu.max_threads",
                self.max_threads,
                format!("must be a multiple of gpu.sm_threads = {}", self.sm_threads),
            ));
        }
        Ok(())
    }
}

/// What one block occupies on its SM while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Demand {
    /// Thread slots: the block's threads rounded up to whole warps.
    pub threads: u64,
    /// Warps.
    pub warps: u64,
    /// Shared memory in bytes (rounded up to the allocation unit).
    pub shared_memory: u64,
    /// Registers of one warp (rounded up to the allocation unit).
    pub registers_per_warp: u64,
    /// Registers of the block: `warps * registers_per_warp`.
    pub registers: u64,
    /// Registers the block holds at most in one sub-partition when its warps go round
    /// robin over all the SM's sub-partitions (`[0]`: `ceil(w / S) r_w`) or over half of
    /// them (`[1]`: `ceil(w / (S / 2)) r_w`, a block confined to half an SM).
    pub round_robin_registers: [u64; 2],
}

impl Demand {
    /// The smallest demand at least as large as `self` and `other` in every resource
    /// (fieldwise maximum; `registers` may be below `warps * registers_per_warp`).
    pub fn envelope(self, other: Demand) -> Demand {
        Demand {
            threads: self.threads.max(other.threads),
            warps: self.warps.max(other.warps),
            shared_memory: self.shared_memory.max(other.shared_memory),
            registers_per_warp: self.registers_per_warp.max(other.registers_per_warp),
            registers: self.registers.max(other.registers),
            round_robin_registers: [0, 1].map(|i| self.round_robin_registers[i].max(other.round_robin_registers[i])),
        }
    }
}

/// Free resources of one SM, registers per warp-scheduler sub-partition, threads per
/// part (the whole SM, or its two halves when blocks are confined to one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Free thread slots of each part (the first `parts` entries).
    pub threads: [u64; 2],
    /// 1 (blocks spread over the SM) or 2 (each block in one half).
    pub parts: usize,
    /// Resident blocks.
    pub blocks: u64,
    /// Shared memory in bytes.
    pub shared_memory: u64,
    /// Free registers of each sub-partition (the first `sub_partitions` entries; a half
    /// has the first or the second half of them).
    pub registers: [u64; MAX_SUB_PARTITIONS],
    /// Number of sub-partitions.
    pub sub_partitions: usize,
    /// Warps go round robin from the part's first sub-partition
    /// ([`WarpPlacement::RoundRobin`]); else each to the one with the most free registers.
    pub round_robin: bool,
}

/// Where one block went: its part, and its warps per sub-partition, as
/// [`Capacity::take`] placed them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Placement {
    /// The part (0 for a whole SM).
    pub part: usize,
    /// Warps per sub-partition.
    pub warps: [u16; MAX_SUB_PARTITIONS],
}

impl Capacity {
    /// The sub-partitions of `part`.
    fn subs(&self, part: usize) -> std::ops::Range<usize> {
        let n = self.sub_partitions / self.parts;
        part * n..(part + 1) * n
    }

    /// Free thread slots of the SM.
    pub fn free_threads(&self) -> u64 {
        self.threads[..self.parts].iter().sum()
    }

    /// Whether part `part` holds a block of `d`'s threads and warps (its warps in the
    /// part's sub-partitions' free registers: `sum_s floor(f_s / r_w) >= w`).
    fn fits_in(&self, d: &Demand, part: usize) -> bool {
        let warps_room = |r: u64| r.checked_div(d.registers_per_warp).unwrap_or(u64::MAX);
        let subs = self.subs(part);
        let registers = if self.round_robin {
            let n = subs.len() as u64;
            subs.clone().all(|s| warps_room(self.registers[s]) >= (d.warps + n - 1 - (s - subs.start) as u64) / n)
        } else {
            self.registers[subs].iter().map(|&r| warps_room(r)).fold(0u64, u64::saturating_add) >= d.warps
        };
        self.threads[part] >= d.threads && registers
    }

    /// Whether a block of demand `d` fits: a block slot, shared memory, and some part
    /// with room for its threads and warps.
    pub fn fits(&self, d: &Demand) -> bool {
        self.blocks >= 1 && self.shared_memory >= d.shared_memory && (0..self.parts).any(|part| self.fits_in(d, part))
    }

    /// Takes one block of demand `d` (which must fit): the part with room and the most
    /// free threads (the lowest on ties), each warp in its sub-partition with the most
    /// free registers (the lowest on ties), or round robin; returns where it went.
    pub fn take(&mut self, d: &Demand) -> Placement {
        let part = (0..self.parts)
            .filter(|&p| self.fits_in(d, p))
            .max_by_key(|&p| (self.threads[p], std::cmp::Reverse(p)))
            .expect("the block fits");
        self.threads[part] -= d.threads;
        self.blocks -= 1;
        self.shared_memory -= d.shared_memory;
        let mut placed = Placement { part, warps: [0; MAX_SUB_PARTITIONS] };
        if d.registers_per_warp > 0 {
            let subs = self.subs(part);
            for i in 0..d.warps as usize {
                let s = if self.round_robin {
                    subs.start + i % subs.len()
                } else {
                    subs.clone().max_by_key(|&s| (self.registers[s], std::cmp::Reverse(s))).expect("one sub-partition")
                };
                self.registers[s] -= d.registers_per_warp;
                placed.warps[s] += 1;
            }
        }
        placed
    }

    /// Returns one block of demand `d` which went where `placed` says.
    pub fn give(&mut self, d: &Demand, placed: &Placement) {
        self.threads[placed.part] += d.threads;
        self.blocks += 1;
        self.shared_memory += d.shared_memory;
        for (r, &n) in self.registers.iter_mut().zip(&placed.warps) {
            *r += n as u64 * d.registers_per_warp;
        }
    }
}

/// `[gpu]` of a task-set file, or a GPU profile file (`--gpu`); every field optional,
/// defaults from the TX2.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuSection {
    /// `b_max`, threads of all SMs together.
    pub max_threads: Option<i64>,
    /// Resident threads per SM.
    pub sm_threads: Option<i64>,
    /// Resident blocks per SM.
    pub max_blocks_per_sm: Option<i64>,
    /// Shared memory per SM in bytes.
    pub shared_memory_per_sm: Option<i64>,
    /// Shared memory per block in bytes.
    pub shared_memory_per_block: Option<i64>,
    /// Registers per SM.
    pub registers_per_sm: Option<i64>,
    /// Threads per block.
    pub max_threads_per_block: Option<i64>,
    /// Register allocation unit (per warp).
    pub register_allocation_unit: Option<i64>,
    /// Shared-memory allocation unit in bytes.
    pub shared_memory_allocation_unit: Option<i64>,
    /// Shared memory reserved for every block in bytes (default 0; 1024 from compute
    /// capability 8.0).
    pub shared_memory_reserved_per_block: Option<i64>,
    /// Registers one block may use.
    pub max_registers_per_block: Option<i64>,
    /// Registers one thread may use.
    pub max_registers_per_thread: Option<i64>,
    /// Warp-scheduler sub-partitions per SM (registers are allocated within each).
    pub register_sub_partitions: Option<i64>,
    /// Time from a kernel's release to its first block's dispatch, at most (in the
    /// input's time unit; default 0).
    pub launch_overhead: Option<toml::Spanned<crate::rta::time::Number>>,
    /// Time added to every block's `C` (dispatch and teardown), at most (in the input's
    /// time unit; default 0).
    pub block_overhead: Option<toml::Spanned<crate::rta::time::Number>>,
    /// The time slice each process (CUDA context) gets on the GPU when several have
    /// work (in the input's time unit; needed when kernels name two processes or more).
    pub time_slice: Option<toml::Spanned<crate::rta::time::Number>>,
    /// The time a switch between processes takes, at most (in the input's time unit;
    /// default 0).
    pub context_switch: Option<toml::Spanned<crate::rta::time::Number>>,
    /// Period units per cycle, for C computed from instructions (task-set files only).
    pub cycle_time: Option<toml::Spanned<crate::rta::time::Number>>,
    /// The SM clock (`"1.3 GHz"`) instead of `cycle_time`, with the task set's `unit`
    /// (`s`, `ms`, `us` or `ns`): one cycle, rounded up, is the cycle time.
    pub clock: Option<String>,
    /// SM profile for `instructions` kernels (task-set files only).
    pub sm: Option<crate::model::sm::SmCounts>,
    /// Where a block's warps go among the sub-partitions: `any`, `round-robin` or
    /// `unknown` (default).
    pub warp_placement: Option<String>,
    /// Blocks confined to half an SM: `off` (default), `on` or `unknown`.
    pub partitioned_global_caching: Option<String>,
    /// How an SM's units choose among ready warps, for `C` computed from instructions:
    /// `oldest-first` or `unknown` (default; see [`Arbitration`]).
    pub warp_arbitration: Option<String>,
    /// How blocks that arrive on an SM in the same cycle rank under oldest-first
    /// arbitration: `tie` (default: neither is older) or `queue-order` (the one
    /// dispatched first is older; see [`Profile::queue_order_ties`]).
    pub same_cycle_arrivals: Option<String>,
    /// Instruction latencies for `C` computed from instructions (`latency = { L = [5,
    /// 400], C = 4 }`; default 1, the paper's model, which is not a bound on real
    /// hardware; `docs/latency.md`).
    pub latency: Option<crate::model::latency::LatencyFile>,
    /// A name for the profile, ignored by the model.
    pub name: Option<String>,
}

/// How an SM's units choose among ready warps: what a per-block `C` that covers block
/// turnover (blocks starting while others are mid-way) rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arbitration {
    /// Not known (default): the paper's adversarial work-conserving scheduler, under
    /// which no bound covers turnover; a computed `C` covers blocks starting together
    /// only and is reported optimistic.
    #[default]
    Unknown,
    /// Among ready warps, each unit serves warps of the block that arrived on the SM
    /// first (GPGPU-Sim's "greedy then oldest" after a stall, and its oldest-first
    /// tie rule; Rogers et al., MICRO 2012). An assumption about the hardware, not a
    /// documented TX2 property: `crate::model::blocks::turnover_bound` holds under it.
    OldestFirst,
    /// Loose round robin, one rotation per unit class over the SM's warp slots: each
    /// class serves ready warps in slot order from after the slot it served last
    /// (GPGPU-Sim's `lrr`, `docs/latency.md`). An assumption about the hardware, not a
    /// documented TX2 property: `crate::model::blocks::lrr_turnover_bound_with` holds
    /// under it whatever the other kernels are, even kernels given by `wcet`.
    /// `"round-robin"` in files (`"lrr"`, the scheduler's word, is read as the same).
    #[serde(alias = "lrr")]
    RoundRobin,
}

/// A GPU profile: the platform and the overheads it adds to every kernel and block,
/// exact decimals in the input's time unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// The per-SM limits.
    pub platform: Platform,
    /// At most this long from a kernel's release to its first block's dispatch.
    pub launch_overhead: Decimal,
    /// Added to every block's `C`.
    pub block_overhead: Decimal,
    /// The time slice of each process when several share the GPU (0: not given).
    pub time_slice: Decimal,
    /// A switch between processes takes at most this long (`None`: not given; needed
    /// with time slicing).
    pub context_switch: Option<Decimal>,
    /// The warp arbitration `C` computed from instructions may rest on.
    pub arbitration: Arbitration,
    /// `gpu.same_cycle_arrivals = "queue-order"`: under oldest-first arbitration, of two
    /// blocks arriving on an SM in the same cycle the one dispatched first is the older
    /// (GPGPU-Sim's oldest-first and greedy-then-oldest schedulers rank warps by a
    /// dynamic warp id that grows in the order warps are set up on the core,
    /// `sort_warps_by_oldest_dynamic_id`); `false` (default): they tie. An assumption
    /// about the hardware; with it a block's `C` need not count the kernels that enter
    /// the queue after its own (issue 53's rule X1).
    pub queue_order_ties: bool,
    /// The instruction latencies `C` computed from instructions rests on (latency 1:
    /// the paper's model).
    pub latency: crate::model::latency::Latencies,
}

impl Profile {
    /// The profile's times, for choosing a common time scale.
    pub fn times(&self) -> [Decimal; 4] {
        [self.launch_overhead, self.block_overhead, self.time_slice, self.context_switch.unwrap_or(Decimal::ZERO)]
    }
}

impl Profile {
    /// The TX2 without overheads.
    pub const TX2: Profile = Profile {
        platform: Platform::TX2,
        launch_overhead: Decimal::ZERO,
        block_overhead: Decimal::ZERO,
        time_slice: Decimal::ZERO,
        context_switch: None,
        arbitration: Arbitration::Unknown,
        queue_order_ties: false,
        latency: crate::model::latency::Latencies::ONE,
    };
}

impl GpuSection {
    /// The profile these fields describe (`text` is the file they were read from, for
    /// exact decimals).
    pub fn profile(&self, text: &str) -> Result<Profile, InputError> {
        let time = |v: &Option<toml::Spanned<crate::rta::time::Number>>, field: &str| {
            v.as_ref().map_or(Ok(Decimal::ZERO), |v| Decimal::of_toml(text, v, field))
        };
        Ok(Profile {
            platform: self.platform()?,
            launch_overhead: time(&self.launch_overhead, "gpu.launch_overhead")?,
            block_overhead: time(&self.block_overhead, "gpu.block_overhead")?,
            time_slice: self.time_slice.as_ref().map_or(Ok(Decimal::ZERO), |v| Decimal::positive_of_toml(text, v, "gpu.time_slice"))?,
            context_switch: self.context_switch.as_ref().map(|v| Decimal::of_toml(text, v, "gpu.context_switch")).transpose()?,
            arbitration: word(&self.warp_arbitration, "gpu.warp_arbitration", &["oldest-first", "round-robin", "lrr", "unknown"])?.unwrap_or_default(),
            queue_order_ties: match self.same_cycle_arrivals.as_deref().map(str::trim) {
                None | Some("tie") => false,
                Some("queue-order") => true,
                Some(v) => return Err(InputError::new("gpu.same_cycle_arrivals", v, "must be one of tie, queue-order")),
            },
            latency: match &self.latency {
                None => crate::model::latency::Latencies::ONE,
                Some(f) => f.latencies().map_err(|e| {
                    let field = format!("gpu.{}", e.field);
                    e.in_field(field)
                })?,
            },
        })
    }

    /// The platform these fields describe, the TX2's value where a field is absent.
    pub fn platform(&self) -> Result<Platform, InputError> {
        let t = Platform::TX2;
        let get = |v: Option<i64>, default: u64, field: &str| v.map_or(Ok(default), |v| positive(v, field));
        let p = Platform {
            max_threads: get(self.max_threads, t.max_threads, "gpu.max_threads")?,
            sm_threads: get(self.sm_threads, t.sm_threads, "gpu.sm_threads")?,
            max_blocks_per_sm: get(self.max_blocks_per_sm, t.max_blocks_per_sm, "gpu.max_blocks_per_sm")?,
            shared_memory_per_sm: get(self.shared_memory_per_sm, t.shared_memory_per_sm, "gpu.shared_memory_per_sm")?,
            shared_memory_per_block: get(self.shared_memory_per_block, t.shared_memory_per_block, "gpu.shared_memory_per_block")?,
            registers_per_sm: get(self.registers_per_sm, t.registers_per_sm, "gpu.registers_per_sm")?,
            max_threads_per_block: get(self.max_threads_per_block, t.max_threads_per_block, "gpu.max_threads_per_block")?,
            warp_size: t.warp_size,
            register_allocation_unit: get(self.register_allocation_unit, t.register_allocation_unit, "gpu.register_allocation_unit")?,
            shared_memory_allocation_unit: get(
                self.shared_memory_allocation_unit,
                t.shared_memory_allocation_unit,
                "gpu.shared_memory_allocation_unit",
            )?,
            shared_memory_reserved_per_block: match self.shared_memory_reserved_per_block {
                None => t.shared_memory_reserved_per_block,
                Some(v) => u64::try_from(v)
                    .map_err(|_| InputError::new("gpu.shared_memory_reserved_per_block", v, "must be 0 or a positive integer"))?,
            },
            max_registers_per_block: get(self.max_registers_per_block, t.max_registers_per_block, "gpu.max_registers_per_block")?,
            max_registers_per_thread: get(self.max_registers_per_thread, t.max_registers_per_thread, "gpu.max_registers_per_thread")?,
            register_sub_partitions: get(self.register_sub_partitions, t.register_sub_partitions, "gpu.register_sub_partitions")?,
            warp_placement: word(&self.warp_placement, "gpu.warp_placement", &["any", "round-robin", "unknown"])?
                .unwrap_or(t.warp_placement),
            global_caching: word(&self.partitioned_global_caching, "gpu.partitioned_global_caching", &["off", "on", "unknown"])?
                .unwrap_or(t.global_caching),
        };
        p.check()?;
        Ok(p)
    }
}

/// A word field read as the enum `T` whose serde names are `words`, naming the field when
/// it is none of them.
fn word<T: serde::de::DeserializeOwned>(value: &Option<String>, field: &str, words: &[&str]) -> Result<Option<T>, InputError> {
    value
        .as_deref()
        .map(|v| {
            serde_json::from_value(serde_json::Value::String(v.trim().to_string()))
                .map_err(|_| InputError::new(field, v, format!("must be one of {}", words.join(", "))))
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demands_and_envelopes() {
        let p = Platform::TX2;
        assert_eq!(p.sms(), 2);
        let d = |t, s, r| p.demand(t, s, r, "k").unwrap();
        assert!(p.demand(2048, 0, 0, "k").is_err());
        assert!(p.demand(256, 50_000, 0, "k").unwrap_err().field.ends_with("shared_memory"));
        assert_eq!(
            d(256, 0, 0).envelope(d(512, 1, 0)),
            Demand { threads: 512, warps: 16, shared_memory: 256, registers_per_warp: 0, registers: 0, round_robin_registers: [0, 0] }
        );
    }

    /// From compute capability 8.0 the driver reserves 1 KiB of shared memory per block
    /// (`reservedSharedMemPerBlock`): a block of 33 KiB takes 34 KiB, and a block that uses
    /// none still takes the reserve (how many fit: `room`'s tests).
    #[test]
    fn reserved_shared_memory_is_taken_by_every_block() {
        let sm_86 = Platform { shared_memory_per_sm: 102_400, ..Platform::TX2 };
        let reserved = Platform { shared_memory_reserved_per_block: 1024, ..sm_86 };
        assert_eq!(sm_86.demand(128, 33_792, 0, "k").unwrap().shared_memory, 33_792);
        assert_eq!(reserved.demand(128, 33_792, 0, "k").unwrap().shared_memory, 34_816);
        assert_eq!(reserved.demand(32, 0, 0, "k").unwrap().shared_memory, 1024);
        assert_eq!(sm_86.demand(32, 0, 0, "k").unwrap().shared_memory, 0);
        // A block at the per-block limit is still launched; one the reserve pushes past
        // the SM is refused, naming the reserve.
        let tight = Platform { shared_memory_per_sm: 49_152, shared_memory_reserved_per_block: 1024, ..Platform::TX2 };
        assert!(tight.demand(32, 49_152, 0, "k").unwrap_err().reason.contains("gpu.shared_memory_reserved_per_block"));
        let e = Platform { shared_memory_reserved_per_block: 65_536, ..Platform::TX2 }.check().unwrap_err();
        assert_eq!(e.field, "gpu.shared_memory_reserved_per_block");
    }

    #[test]
    fn profiles_whose_registers_split_into_partial_units_are_refused() {
        // 4 sub-partitions of 16 000 registers: not whole 256-register units.
        let odd = Platform { registers_per_sm: 64_000, ..Platform::TX2 };
        let e = odd.check().unwrap_err();
        assert_eq!(e.field, "gpu.registers_per_sm");
        assert!(Platform::TX2.check().is_ok());
    }

    #[test]
    fn kernels_that_cannot_launch_are_refused_naming_the_limit() {
        let p = Platform::TX2;
        let e = p.demand(64, 0, 256, "kernels[0]").unwrap_err();
        assert!(e.field == "kernels[0].registers_per_thread" && e.reason.contains("max_registers_per_thread"), "{e}");
        // 1024 threads x 40 registers = 40 960 > 32 768 per block.
        let e = p.demand(1024, 0, 40, "kernels[0]").unwrap_err();
        assert!(e.reason.contains("max_registers_per_block"), "{e}");
        // The hardware's check counts warps in whole sets of 4 sub-partitions: 17 warps of
        // 56 x 32 = 1792 registers are 30 464 (under 32 768), but counted as 20, 35 840.
        let e = p.demand(544, 0, 56, "kernels[0]").unwrap_err();
        assert!(e.reason.contains("35840"), "{e}");
        // A profile whose allocation unit or SM memory makes a block too large: refused, no panic.
        let odd = Platform { shared_memory_per_sm: 1000, shared_memory_per_block: 1000, ..p };
        assert!(odd.demand(32, 900, 0, "k").unwrap_err().reason.contains("allocation units"));
        let huge_unit = Platform { shared_memory_allocation_unit: 70_000, ..p };
        assert!(huge_unit.demand(32, 1, 0, "k").is_err());
        assert!(huge_unit.demand(32, 0, 0, "k").is_ok());
    }
}
