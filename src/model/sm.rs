//! Streaming-multiprocessor profiles and the sigma values derived from them.
//!
//! `sigma_X = X / S` is how many warps may issue an X instruction in one cycle
//! (eqs. 1-2). A sigma of `1/n` is modelled exactly by the paper's transformation
//! (Fig. 1: each X instruction becomes `n` copies, sigma becomes 1); an integral sigma
//! is a capacity; any other ratio (e.g. 48/32) has no exact model and is refused.

use crate::error::InputError;
use serde::{Deserialize, Serialize};

/// Hardware counts of one SM, as in the instance files' `[sm]` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SmCounts {
    /// `L`, load/store units per SM.
    pub load_store_units: i64,
    /// `C`, CUDA cores per SM.
    pub cuda_cores: i64,
    /// `S`, threads per warp.
    pub warp_size: i64,
}

/// How one unit type enters the model: `capacity` warps per cycle, and each instruction
/// of that type replaced by `copies` consecutive instructions. Exactly one of the two
/// is 1 unless both are (sigma = 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SigmaModel {
    /// Integral sigma after the transformation (warps per cycle).
    pub capacity: u32,
    /// `n` for a sigma of `1/n`, else 1.
    pub copies: u32,
}

/// Largest sigma accepted (warps per cycle per unit type); more would exceed any SM.
pub const MAX_SIGMA: i64 = 1024;

impl SmCounts {
    /// The Jetson TX2's SM (Pascal, compute capability 6.2): 32 load/store units, 128
    /// CUDA cores, warps of 32 threads (sigma_L = 1, sigma_C = 4).
    pub const TX2: SmCounts = SmCounts { load_store_units: 32, cuda_cores: 128, warp_size: 32 };
}

impl SigmaModel {
    /// A direct, integral sigma (`sigma_l = 2` in a file). Refuses values below 1.
    pub fn integral(value: i64, field: &str) -> Result<SigmaModel, InputError> {
        if !(1..=MAX_SIGMA).contains(&value) {
            return Err(InputError::new(
                field,
                value,
                format!("sigma must be an integer from 1 to {MAX_SIGMA} (for 1/n give the hardware counts in [sm])"),
            ));
        }
        Ok(SigmaModel { capacity: value as u32, copies: 1 })
    }

    /// sigma = `units / warp_size`. Exact for `1/n` and for integers; refused otherwise.
    pub fn from_units(units: i64, warp_size: i64, field: &str) -> Result<SigmaModel, InputError> {
        if !(1..=1 << 20).contains(&warp_size) {
            return Err(InputError::new("sm.warp_size", warp_size, "must be a positive number of threads"));
        }
        if !(1..=1 << 20).contains(&units) {
            return Err(InputError::new(field, units, "must be a positive number of units"));
        }
        if units % warp_size == 0 {
            let sigma = units / warp_size;
            if sigma > MAX_SIGMA {
                return Err(InputError::new(
                    field,
                    units,
                    format!("sigma = {units}/{warp_size} = {sigma} is above the largest supported sigma, {MAX_SIGMA}"),
                ));
            }
            return SigmaModel::integral(sigma, field);
        }
        if warp_size % units == 0 {
            let copies = warp_size / units;
            return Ok(SigmaModel { capacity: 1, copies: copies as u32 });
        }
        Err(InputError::new(
            field,
            units,
            format!(
                "sigma = {units}/{warp_size} is neither 1/n nor an integer; the paper's model has no exact treatment of it (rounding it down to a safe 1/n or integer is your decision, not the tool's)"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fermi_and_pascal() {
        assert_eq!(SigmaModel::from_units(16, 32, "l").unwrap(), SigmaModel { capacity: 1, copies: 2 });
        assert_eq!(SigmaModel::from_units(128, 32, "c").unwrap(), SigmaModel { capacity: 4, copies: 1 });
        assert_eq!(SigmaModel::from_units(32, 32, "c").unwrap(), SigmaModel { capacity: 1, copies: 1 });
    }

    #[test]
    fn refuses_cc21_and_zero() {
        let e = SigmaModel::from_units(48, 32, "sm.cuda_cores").unwrap_err();
        assert_eq!(e.field, "sm.cuda_cores");
        assert!(e.to_string().contains("48/32"));
        assert!(SigmaModel::from_units(0, 32, "x").is_err());
        assert!(SigmaModel::integral(0, "sigma_l").is_err());
        let e = SigmaModel::from_units(65536, 32, "sm.load_store_units").unwrap_err();
        assert_eq!(e.value, "65536");
    }
}
