//! Problem instances: a kernel, a warp count `W` and an SM profile, read from TOML files
//! or built directly. An [`Instance`] is always already transformed (sigma integral).

use crate::error::InputError;
use crate::kernel::{Kernel, Unit};
use crate::sm::{SigmaModel, SmCounts};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Largest warp count accepted. Exact methods have their own, smaller, size limits.
pub const MAX_WARPS: i64 = 1_000_000;

/// One problem: `W` identical warps running `kernel` on one SM with integral
/// `sigma_l`, `sigma_c`. Guaranteed: `warps >= 1`, sigmas `>= 1`, kernel non-empty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
        if !(1..=MAX_WARPS).contains(&warps) {
            return Err(InputError::new("warps", warps, format!("the warp count must be from 1 to {MAX_WARPS}")));
        }
        let parsed = Kernel::parse(kernel)?;
        let expanded = parsed
            .expand(l.copies, c.copies)
            .map_err(|reason| InputError::new("kernel", format!("{kernel:?}"), reason))?;
        Ok(Instance {
            kernel: expanded,
            source_kernel: parsed.to_string(),
            warps: warps as u32,
            sigma_l: l.capacity,
            sigma_c: c.capacity,
        })
    }

    /// Builds an instance from a parsed file, checking that the SM is given one way only.
    pub fn from_file_data(f: &InstanceFile) -> Result<Instance, InputError> {
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

    /// Reads and parses an instance file.
    pub fn from_path(path: &Path) -> Result<Instance, InputError> {
        Instance::from_toml(&read_text(path)?, &path.display().to_string())
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

    /// The same kernel and SM with `warps` warps instead of `W`.
    pub fn with_warps(&self, warps: u32) -> Instance {
        Instance { warps: warps.max(1), ..self.clone() }
    }
}

/// Reads a file as UTF-8 text; a missing or unreadable file is an [`InputError`] on `file`.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    std::fs::read_to_string(path).map_err(|e| InputError::new("file", path.display(), e.to_string()))
}

/// Parses TOML into `T`, turning the (multi-line) TOML diagnostics into one line.
pub fn parse_toml<T: serde::de::DeserializeOwned>(text: &str, origin: &str) -> Result<T, InputError> {
    toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| text[..s.start.min(text.len())].lines().count().max(1));
        let msg = e.message().replace('\n', " ");
        let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
        InputError::new("file", origin, format!("not a valid file{at}: {msg}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_with_counts_is_transformed() {
        let i = Instance::from_toml(
            "kernel = \"LC\"\nwarps = 2\n[sm]\nload_store_units = 16\ncuda_cores = 32\nwarp_size = 32\n",
            "t",
        )
        .unwrap();
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
