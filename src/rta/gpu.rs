//! GPU profiles as data: the per-SM limits that decide how many blocks fit on an SM
//! (threads, resident blocks, shared memory, registers), and each block's demand.
//!
//! The default is the Jetson TX2 (compute capability 6.2): 2 SMs, each with 2048
//! resident threads, 32 resident blocks, 64 KiB shared memory (48 KiB per block) and
//! 65 536 32-bit registers; at most 1024 threads per block; registers are allocated per
//! warp in units of 256, shared memory in units of 256 bytes.

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
    };

    /// Number of SMs, `max_threads / sm_threads`.
    pub fn sms(&self) -> u64 {
        self.max_threads / self.sm_threads.max(1)
    }

    /// What one block of `threads` threads using `shared_memory` bytes and
    /// `registers_per_thread` registers per thread occupies on an SM, after allocation
    /// granularity. `kernel` names the kernel in errors (e.g. `kernels[2]`); a block that
    /// can never fit on an SM is refused.
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
        let per_warp =
            (registers_per_thread.saturating_mul(self.warp_size)).div_ceil(self.register_allocation_unit) * self.register_allocation_unit;
        let registers = warps.saturating_mul(per_warp);
        if registers > self.registers_per_sm {
            return Err(InputError::new(
                field("registers_per_thread"),
                registers_per_thread,
                format!("a block would need {registers} registers, more than the {} of an SM", self.registers_per_sm),
            ));
        }
        let unit = self.shared_memory_allocation_unit.max(1);
        Ok(Demand { threads, shared_memory: shared_memory.div_ceil(unit) * unit, registers })
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
    /// Threads.
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
}
