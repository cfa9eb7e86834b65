//! GPU profiles as data: the per-SM limits that decide how many blocks fit on an SM
//! (threads, resident blocks, shared memory, registers), and each block's demand.
//!
//! The default is the Jetson TX2 (compute capability 6.2): 2 SMs, each with 2048
//! resident threads (64 warps), 32 resident blocks, 64 KiB shared memory (48 KiB per
//! block) and 65 536 32-bit registers; at most 1024 threads per block, 32 768 registers
//! per block and 255 per thread; threads are held in whole warps of 32, registers are
//! allocated per warp in units of 256, shared memory in units of 256 bytes. Sources:
//! CUDA's occupancy calculator (`cuda_occupancy.h`) and the CUDA C Programming Guide's
//! table of compute capabilities (6.2).
//!
//! Not modelled yet: registers are allocated within each of the SM's 4 warp-scheduler
//! sub-partitions (a warp's registers cannot span two), which can fit fewer blocks than
//! the pooled count here when a warp needs many registers (see `docs/rta-model.md`).

use crate::error::{positive, InputError};
use serde::{Deserialize, Serialize};

/// Most SMs a profile may have (the largest GPUs have about 150).
pub const MAX_SMS: u64 = 256;

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
        let register_cap = self.max_registers_per_block.min(self.registers_per_sm);
        if registers > register_cap {
            return Err(InputError::new(
                field("registers_per_thread"),
                registers_per_thread,
                format!(
                    "a block of {threads} threads would need {registers} registers, more than the {register_cap} a block may use (gpu.max_registers_per_block, gpu.registers_per_sm)"
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
        Ok(Demand { threads: thread_slots, shared_memory: shared, registers })
    }

    /// How many blocks of demand `d` fit on one empty SM (at least 1 for a checked demand).
    pub fn fit(&self, d: &Demand) -> u64 {
        let per = |cap: u64, need: u64| cap.checked_div(need).unwrap_or(u64::MAX);
        (self.sm_threads / d.threads.max(1))
            .min(self.max_blocks_per_sm)
            .min(per(self.shared_memory_per_sm, d.shared_memory))
            .min(per(self.registers_per_sm, d.registers))
    }

    /// What an empty SM offers.
    pub fn capacity(&self) -> Capacity {
        Capacity {
            threads: self.sm_threads,
            blocks: self.max_blocks_per_sm,
            shared_memory: self.shared_memory_per_sm,
            registers: self.registers_per_sm,
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
    /// Shared memory in bytes (rounded up to the allocation unit).
    pub shared_memory: u64,
    /// Registers (per warp, rounded up to the allocation unit, times warps).
    pub registers: u64,
}

impl Demand {
    /// The smallest demand at least as large as `self` and `other` in every resource.
    pub fn envelope(self, other: Demand) -> Demand {
        Demand {
            threads: self.threads.max(other.threads),
            shared_memory: self.shared_memory.max(other.shared_memory),
            registers: self.registers.max(other.registers),
        }
    }
}

/// Free resources of one SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capacity {
    /// Threads.
    pub threads: u64,
    /// Resident blocks.
    pub blocks: u64,
    /// Shared memory in bytes.
    pub shared_memory: u64,
    /// Registers.
    pub registers: u64,
}

impl Capacity {
    /// Whether a block of demand `d` fits.
    pub fn fits(&self, d: &Demand) -> bool {
        self.blocks >= 1 && self.threads >= d.threads && self.shared_memory >= d.shared_memory && self.registers >= d.registers
    }

    /// Takes one block of demand `d` (which must fit).
    pub fn take(&mut self, d: &Demand) {
        self.threads -= d.threads;
        self.blocks -= 1;
        self.shared_memory -= d.shared_memory;
        self.registers -= d.registers;
    }

    /// Returns one block of demand `d`.
    pub fn give(&mut self, d: &Demand) {
        self.threads += d.threads;
        self.blocks += 1;
        self.shared_memory += d.shared_memory;
        self.registers += d.registers;
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
    /// Period units per cycle, for C computed from instructions (task-set files only).
    pub cycle_time: Option<f64>,
    /// SM profile for `instructions` kernels (task-set files only).
    pub sm: Option<crate::model::sm::SmCounts>,
    /// A name for the profile, ignored by the model.
    pub name: Option<String>,
}

impl GpuSection {
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
        assert_eq!(d(256, 0, 0).envelope(d(512, 1, 0)), Demand { threads: 512, shared_memory: 256, registers: 0 });
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
        // A profile whose allocation unit or SM memory makes a block too large: refused, no panic.
        let odd = Platform { shared_memory_per_sm: 1000, shared_memory_per_block: 1000, ..p };
        assert!(odd.demand(32, 900, 0, "k").unwrap_err().reason.contains("allocation units"));
        let huge_unit = Platform { shared_memory_allocation_unit: 70_000, ..p };
        assert!(huge_unit.demand(32, 1, 0, "k").is_err());
        assert!(huge_unit.demand(32, 0, 0, "k").is_ok());
    }
}
