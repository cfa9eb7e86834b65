//! Problem instances: a kernel, a warp count `W` and an SM profile, read from TOML files
//! or built directly. An [`Instance`] is always already transformed (sigma integral).

use crate::error::InputError;
use crate::files::{origin, parse_toml, read_text};
use crate::model::kernel::{Kernel, Unit};
use crate::model::latency::{Latencies, LatencyFile};
use crate::model::scheduler::Scheduler;
use crate::model::sm::{SigmaModel, SmCounts};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Largest warp count accepted. Exact methods have their own, smaller, size limits.
pub const MAX_WARPS: i64 = Instance::MAX_WARPS;

/// One problem: `W` identical warps running `kernel` on one SM with integral
/// `sigma_l`, `sigma_c`. Guaranteed: `warps >= 1`, sigmas `>= 1`, kernel non-empty.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Instance {
    /// Instruction string after the sigma = 1/n transformation.
    pub kernel: Kernel,
    /// The instruction string as given, before the transformation.
    pub source_kernel: String,
    /// `W`, the number of warps.
    pub warps: u32,
    /// `sigma_L` after the transformation.
    pub sigma_l: u32,
    /// `sigma_C` after the transformation.
    pub sigma_c: u32,
    /// sigma_L as given: `n` for 1/n (each L became `n` L's), else 1.
    pub copies_l: u32,
    /// sigma_C as given: `n` for 1/n, else 1.
    pub copies_c: u32,
}

/// The TOML layout of an instance file (see README): `kernel`, `warps`, and either an
/// `[sm]` table of hardware counts or top-level `sigma_l`/`sigma_c`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceFile {
    /// Instruction string.
    pub kernel: String,
    /// `W`.
    pub warps: i64,
    /// Hardware counts (`L`, `C`, `S`).
    pub sm: Option<SmCounts>,
    /// Direct integral sigma_L.
    pub sigma_l: Option<i64>,
    /// Direct integral sigma_C.
    pub sigma_c: Option<i64>,
    /// Free text, ignored by the model.
    pub description: Option<String>,
    /// Warps per thread block (default: all `warps` are one block); with barriers in
    /// the kernel it must equal `warps`.
    pub warps_per_block: Option<i64>,
    /// Where the kernel came from (`makespan import`), ignored by the model.
    pub provenance: Option<toml::Value>,
    /// Instruction latencies (`latency = { L = [5, 400], C = 4 }`; default 1: the
    /// paper's model). Only `makespan simulate` takes others so far.
    pub latency: Option<LatencyFile>,
    /// The warp scheduler (`any`, the default, `gto`, `lrr`, `oldest-first`). Only
    /// `makespan simulate` takes a deterministic one so far.
    pub scheduler: Option<String>,
}

impl InstanceFile {
    /// The latencies and scheduler the file states (latency 1 and `any` when it states
    /// none), checked.
    pub fn warp_model(&self) -> Result<(Latencies, Scheduler), InputError> {
        let latency = self.latency.as_ref().map_or(Ok(Latencies::ONE), LatencyFile::latencies)?;
        let scheduler = self.scheduler.as_deref().map_or(Ok(Scheduler::Any), |s| Scheduler::parse(s, "scheduler"))?;
        Ok((latency, scheduler))
    }

    /// Refuses a latency other than 1 or a scheduler other than `any`: what every
    /// command but `simulate` computes is the paper's model (the worst case over every
    /// work-conserving choice, latency 1), and silently dropping either would print a
    /// number for another model.
    fn paper_model_only(&self) -> Result<(), InputError> {
        let (latency, scheduler) = self.warp_model()?;
        if !latency.is_one() {
            return Err(InputError::new("latency", latency, "latencies other than 1 are simulated only so far (makespan simulate); this command computes the paper's model (latency 1)"));
        }
        if scheduler != Scheduler::Any {
            return Err(InputError::new("scheduler", scheduler, "one scheduler's time is a simulation (makespan simulate); this command computes the worst case over every scheduler (`any`)"));
        }
        Ok(())
    }
}

impl Instance {
    /// The most warps an instance may have (larger counts are refused as input errors).
    pub const MAX_WARPS: i64 = 1_000_000;
}

impl Instance {
    /// Builds an instance from already-integral sigmas (`--kernel ... --sigma-l N`).
    pub fn new(kernel: &str, warps: i64, sigma_l: i64, sigma_c: i64) -> Result<Instance, InputError> {
        let l = SigmaModel::integral(sigma_l, "sigma_l")?;
        let c = SigmaModel::integral(sigma_c, "sigma_c")?;
        Instance::build(kernel, warps, l, c)
    }

    /// Builds an instance from hardware counts, applying the Fig. 1 transformation.
    pub fn from_counts(kernel: &str, warps: i64, sm: &SmCounts) -> Result<Instance, InputError> {
        let l = SigmaModel::from_units(sm.load_store_units, sm.warp_size, "sm.load_store_units")?;
        let c = SigmaModel::from_units(sm.cuda_cores, sm.warp_size, "sm.cuda_cores")?;
        Instance::build(kernel, warps, l, c)
    }

    fn build(kernel: &str, warps: i64, l: SigmaModel, c: SigmaModel) -> Result<Instance, InputError> {
        check_warps(warps, "warps")?;
        let parsed = Kernel::parse(kernel)?;
        let expanded = parsed.expand(l.copies, c.copies).map_err(|reason| InputError::new("kernel", format!("{kernel:?}"), reason))?;
        Ok(Instance {
            kernel: expanded,
            source_kernel: parsed.to_string(),
            warps: warps as u32,
            sigma_l: l.capacity,
            sigma_c: c.capacity,
            copies_l: l.copies,
            copies_c: c.copies,
        })
    }

    /// Builds an instance from a parsed file, checking that the SM is given one way only.
    pub fn from_file_data(f: &InstanceFile) -> Result<Instance, InputError> {
        f.paper_model_only()?;
        match (&f.sm, f.sigma_l, f.sigma_c) {
            (Some(sm), None, None) => Instance::from_counts(&f.kernel, f.warps, sm),
            (Some(_), l, c) => Err(InputError::new(
                if l.is_some() { "sigma_l" } else { "sigma_c" },
                l.or(c).unwrap_or_default(),
                "give either an [sm] table of hardware counts or sigma_l/sigma_c, not both",
            )),
            (None, l, c) => Instance::new(&f.kernel, f.warps, l.unwrap_or(1), c.unwrap_or(1)),
        }
    }

    /// Parses TOML text (the content of an instance file named `origin`).
    pub fn from_toml(text: &str, origin: &str) -> Result<Instance, InputError> {
        let data: InstanceFile = parse_toml(text, origin)?;
        Instance::from_file_data(&data)
    }

    /// Reads and parses an instance file (`-`: standard input).
    pub fn from_path(path: &Path) -> Result<Instance, InputError> {
        Instance::from_toml(&read_text(path)?, &origin(path))
    }

    /// `I`, instructions per warp (after the transformation).
    pub fn len(&self) -> usize {
        self.kernel.len()
    }

    /// Always false (kernels are non-empty).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// sigma of unit type `u`.
    pub fn sigma(&self, u: Unit) -> u32 {
        match u {
            Unit::L => self.sigma_l,
            Unit::C => self.sigma_c,
        }
    }

    /// The instance as the user gave it: `LCLCL, sigma_L = 1/2, sigma_C = 1, W = 420`.
    pub fn given(&self) -> String {
        format!(
            "{}, sigma_L = {}, sigma_C = {}, W = {}",
            self.source_kernel,
            self.sigma_given(Unit::L),
            self.sigma_given(Unit::C),
            self.warps
        )
    }

    /// sigma of unit type `u` as the user gave it: `1/n` for a fraction, else the integer.
    pub fn sigma_given(&self, u: Unit) -> String {
        let (capacity, copies) = match u {
            Unit::L => (self.sigma_l, self.copies_l),
            Unit::C => (self.sigma_c, self.copies_c),
        };
        if copies > 1 {
            format!("1/{copies}")
        } else {
            capacity.to_string()
        }
    }

    /// The same kernel and SM (and provenance) with `warps` warps instead of `W`.
    pub fn with_warps(&self, warps: u32) -> Instance {
        Instance { warps: warps.max(1), ..self.clone() }
    }

    /// [`Instance::with_warps`] for a warp count given by the user in `field`, checked
    /// like the `warps` of a file.
    pub fn with_warp_count(&self, warps: i64, field: &str) -> Result<Instance, InputError> {
        check_warps(warps, field)?;
        Ok(self.with_warps(warps as u32))
    }
}

pub(crate) fn check_warps(warps: i64, field: &str) -> Result<(), InputError> {
    if !(1..=MAX_WARPS).contains(&warps) {
        return Err(InputError::new(field, warps, format!("the warp count must be from 1 to {MAX_WARPS}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_with_counts_is_transformed() {
        let i =
            Instance::from_toml("kernel = \"LC\"\nwarps = 2\n[sm]\nload_store_units = 16\ncuda_cores = 32\nwarp_size = 32\n", "t").unwrap();
        assert_eq!(i.kernel.to_string(), "LLC");
        assert_eq!((i.sigma_l, i.sigma_c), (1, 1));
        assert_eq!(i.source_kernel, "LC");
    }

    #[test]
    fn file_errors_name_the_field() {
        let e = Instance::from_toml("kernel = \"LC\"\nwarps = 0\n", "t").unwrap_err();
        assert_eq!(e.field, "warps");
        let e = Instance::from_toml("kernel = \"LC\"\nwarps = 2\nbogus = 1\n", "t").unwrap_err();
        assert!(e.to_string().contains("bogus"), "{e}");
        assert!(!e.to_string().contains('\n'));
        let e = Instance::from_toml("kernel = \"LC\nwarps = 2\n", "t").unwrap_err();
        assert!(!e.to_string().contains('\n'), "{e}");
        let e = Instance::from_toml("kernel = \"LC\"\nwarps = 2\nsigma_l = 0\n", "t").unwrap_err();
        assert_eq!(e.field, "sigma_l");
    }
}
