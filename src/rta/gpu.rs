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
//! **Registers.** One demand `d` (every block alike): as the occupancy calculator, an SM
//! holds `floor(R_sp / r_w)` warps per sub-partition (`r_w` the registers of one warp,
//! `R_sp = registers_per_sm / sub-partitions`), so `floor(S floor(R_sp / r_w) / w)` blocks
//! of `w` warps ([`Platform::fit`]). Mixed demands: a block of `w` warps fits when
//! `sum_s floor(f_s / r_w) >= w` over the sub-partitions' free registers `f_s` (a warp
//! may go to any sub-partition with room, as the calculator's formula implies). Since
//! every allocation is a multiple of the unit `u`, `floor(f / r_w) >= (f - r_w + u) / r_w`,
//! so `F >= w r_w + S (r_w - u)` free registers in all guarantee room however the SM's
//! warps are spread ([`Platform::register_need`]); the analysis of mixed demands uses
//! that, and the per-SM simulation ([`Capacity`]) places warps in sub-partitions.

use crate::error::{positive, InputError};
use crate::rta::time::Decimal;
use serde::{Deserialize, Serialize};

/// Most SMs a profile may have (the largest GPUs have about 150).
pub const MAX_SMS: u64 = 256;

/// Most warp-scheduler sub-partitions per SM a profile may have (NVIDIA GPUs have 1 to 4).
pub const MAX_SUB_PARTITIONS: usize = 8;

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
    /// 32-bit registers one block may use (TX2: 32 768).
    pub max_registers_per_block: u64,
    /// 32-bit registers one thread may use (TX2: 255).
    pub max_registers_per_thread: u64,
    /// Warp-scheduler sub-partitions per SM, each with `registers_per_sm / n` registers
    /// (TX2: 4).
    pub register_sub_partitions: u64,
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
        max_registers_per_block: 32_768,
        max_registers_per_thread: 255,
        register_sub_partitions: 4,
    };

    /// Number of SMs, `max_threads / sm_threads`.
    pub fn sms(&self) -> u64 {
        self.max_threads / self.sm_threads.max(1)
    }

    /// What one block of `threads` threads using `shared_memory` bytes and
    /// `registers_per_thread` registers per thread occupies on an SM, after allocation
    /// granularity: threads in whole warps, registers per warp in allocation units,
    /// shared memory in allocation units. `kernel` names the kernel in errors (e.g.
    /// `kernels[2]`); a block that cannot launch (above a per-block or per-thread limit)
    /// or can never fit on an SM is refused, naming the limit.
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
        let shared = shared_memory.div_ceil(unit).saturating_mul(unit);
        if shared > self.shared_memory_per_sm {
            return Err(InputError::new(
                field("shared_memory"),
                shared_memory,
                format!(
                    "takes {shared} bytes in allocation units of {unit} (gpu.shared_memory_allocation_unit), more than the {} of an SM",
                    self.shared_memory_per_sm
                ),
            ));
        }
        let d = Demand { threads: thread_slots, warps, shared_memory: shared, registers_per_warp: per_warp, registers };
        if self.fit(&d) == 0 {
            return Err(InputError::new(
                field("registers_per_thread"),
                registers_per_thread,
                format!("{warps} warps of {per_warp} registers do not fit in the SM's {} sub-partitions", self.register_sub_partitions),
            ));
        }
        Ok(d)
    }

    /// Registers of one warp-scheduler sub-partition.
    pub fn registers_per_sub_partition(&self) -> u64 {
        self.registers_per_sm / self.register_sub_partitions.max(1)
    }

    /// How many blocks of demand `d` fit on one empty SM, as CUDA's occupancy calculator
    /// counts them (registers: whole warps per sub-partition); at least 1 for a checked
    /// demand. When only blocks of demand `d` run on an SM, it has room for one more
    /// exactly when fewer than this many run.
    pub fn fit(&self, d: &Demand) -> u64 {
        let per = |cap: u64, need: u64| cap.checked_div(need).unwrap_or(u64::MAX);
        let warps_by_registers = per(self.registers_per_sub_partition(), d.registers_per_warp).saturating_mul(self.register_sub_partitions);
        (self.sm_threads / d.threads.max(1))
            .min(self.max_blocks_per_sm)
            .min(per(self.shared_memory_per_sm, d.shared_memory))
            .min(per(warps_by_registers, d.warps))
    }

    /// Free registers (in all sub-partitions together) that guarantee room for the warps
    /// of a block of demand `d`, however the SM's other warps are spread:
    /// `w r_w + S (r_w - u)` (see the module documentation); 0 without registers.
    pub fn register_need(&self, d: &Demand) -> u64 {
        if d.registers_per_warp == 0 {
            return 0;
        }
        let slack = d.registers_per_warp.saturating_sub(self.register_allocation_unit.max(1));
        d.registers.saturating_add(self.register_sub_partitions.saturating_mul(slack))
    }

    /// What an empty SM offers.
    pub fn capacity(&self) -> Capacity {
        let n = self.register_sub_partitions as usize;
        let mut registers = [0; MAX_SUB_PARTITIONS];
        registers[..n].fill(self.registers_per_sub_partition());
        Capacity {
            threads: self.sm_threads,
            blocks: self.max_blocks_per_sm,
            shared_memory: self.shared_memory_per_sm,
            registers,
            sub_partitions: n,
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
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
        }
    }
}

/// Free resources of one SM, registers per warp-scheduler sub-partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Threads.
    pub threads: u64,
    /// Resident blocks.
    pub blocks: u64,
    /// Shared memory in bytes.
    pub shared_memory: u64,
    /// Free registers of each sub-partition (the first `sub_partitions` entries).
    pub registers: [u64; MAX_SUB_PARTITIONS],
    /// Number of sub-partitions.
    pub sub_partitions: usize,
}

/// Warps of one block per sub-partition, as [`Capacity::take`] placed them.
pub type Placement = [u16; MAX_SUB_PARTITIONS];

impl Capacity {
    /// Whether a block of demand `d` fits: threads, a block slot, shared memory, and
    /// its warps in the sub-partitions' free registers (`sum_s floor(f_s / r_w) >= w`).
    pub fn fits(&self, d: &Demand) -> bool {
        let warps_room = |r: u64| r.checked_div(d.registers_per_warp).unwrap_or(u64::MAX);
        self.blocks >= 1
            && self.threads >= d.threads
            && self.shared_memory >= d.shared_memory
            && self.registers[..self.sub_partitions].iter().map(|&r| warps_room(r)).fold(0u64, u64::saturating_add) >= d.warps
    }

    /// Takes one block of demand `d` (which must fit), each warp in the sub-partition
    /// with the most free registers (the lowest on ties); returns where the warps went.
    pub fn take(&mut self, d: &Demand) -> Placement {
        self.threads -= d.threads;
        self.blocks -= 1;
        self.shared_memory -= d.shared_memory;
        let mut placed = [0; MAX_SUB_PARTITIONS];
        if d.registers_per_warp > 0 {
            for _ in 0..d.warps {
                let s = (0..self.sub_partitions).max_by_key(|&s| (self.registers[s], std::cmp::Reverse(s))).expect("one sub-partition");
                self.registers[s] -= d.registers_per_warp;
                placed[s] += 1;
            }
        }
        placed
    }

    /// Returns one block of demand `d` whose warps went where `placed` says.
    pub fn give(&mut self, d: &Demand, placed: &Placement) {
        self.threads += d.threads;
        self.blocks += 1;
        self.shared_memory += d.shared_memory;
        for (r, &n) in self.registers.iter_mut().zip(placed) {
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
    /// Period units per cycle, for C computed from instructions (task-set files only).
    pub cycle_time: Option<toml::Spanned<crate::rta::time::Number>>,
    /// SM profile for `instructions` kernels (task-set files only).
    pub sm: Option<crate::model::sm::SmCounts>,
    /// A name for the profile, ignored by the model.
    pub name: Option<String>,
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
}

impl Profile {
    /// The TX2 without overheads.
    pub const TX2: Profile = Profile { platform: Platform::TX2, launch_overhead: Decimal::ZERO, block_overhead: Decimal::ZERO };
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
            max_registers_per_block: get(self.max_registers_per_block, t.max_registers_per_block, "gpu.max_registers_per_block")?,
            max_registers_per_thread: get(self.max_registers_per_thread, t.max_registers_per_thread, "gpu.max_registers_per_thread")?,
            register_sub_partitions: get(self.register_sub_partitions, t.register_sub_partitions, "gpu.register_sub_partitions")?,
        };
        p.check()?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tx2_fits() {
        let p = Platform::TX2;
        assert_eq!(p.sms(), 2);
        let d = |t, s, r| p.demand(t, s, r, "k").unwrap();
        assert_eq!(p.fit(&d(512, 0, 0)), 4);
        assert_eq!(p.fit(&d(32, 0, 0)), 32);
        assert_eq!(p.fit(&d(256, 20_000, 0)), 3);
        // 64 registers per thread: 2048 per warp, 8 warps per block = 16384 per block.
        assert_eq!(p.fit(&d(256, 0, 64)), 4);
        assert!(p.demand(2048, 0, 0, "k").is_err());
        assert!(p.demand(256, 50_000, 0, "k").unwrap_err().field.ends_with("shared_memory"));
        assert_eq!(
            d(256, 0, 0).envelope(d(512, 1, 0)),
            Demand { threads: 512, warps: 16, shared_memory: 256, registers_per_warp: 0, registers: 0 }
        );
    }

    /// Occupancy as CUDA's occupancy calculator counts it on compute capability 6.2
    /// (threads in whole warps, 64 warps per SM; registers per warp in units of 256;
    /// shared memory in units of 256 bytes; 32 blocks per SM), derived by hand:
    /// (threads, registers per thread, shared memory) -> blocks per SM.
    #[test]
    fn occupancy_table() {
        let p = Platform::TX2;
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
            assert_eq!(p.fit(&d), blocks, "{threads} threads, {regs} registers, {shared} bytes");
        }
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
