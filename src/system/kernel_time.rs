//! Where the kernel RTA meets the system, as types: the RTA counts time in ticks of a
//! task set's time base ([`Ticks`]: its unit divided by `10^decimals`), the system
//! in picoseconds ([`Ps`]). A [`KernelClock`] is the one place a tick becomes a
//! picosecond (rounded up, so a bound stays a bound) or back.

use super::model::{ps_digits, Ps};
use crate::error::InputError;
use crate::rta::time::{Scale, Ticks};
use crate::rta::workload::Workload;

/// A time base of the kernel RTA: the scale of its ticks and how many picoseconds one
/// unit of its input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelClock {
    scale: Scale,
    /// Picoseconds in one unit of the input (`10^12` for seconds, 1 for picoseconds).
    ps_per_unit: u128,
}

impl KernelClock {
    /// The clock of the system's own kernel analysis: one tick is one picosecond.
    pub const PICOSECONDS: KernelClock = KernelClock { scale: Scale { decimals: 0 }, ps_per_unit: 1 };

    /// The clock of a kernels file read as an `rta` workload; its unit must be a time
    /// unit (`s`, `ms`, `us`, `ns`, `ps`), else the system's times cannot meet it.
    pub fn of(w: &Workload) -> Result<KernelClock, InputError> {
        let digits = ps_digits(&w.unit).ok_or_else(|| {
            InputError::option(
                "kernels",
                &w.unit,
                "the kernels file needs unit = \"s\", \"ms\", \"us\" or \"ns\" to meet the system's times",
            )
        })?;
        Ok(KernelClock { scale: w.scale, ps_per_unit: 10u128.pow(digits) })
    }

    /// The scale of the ticks (for a [`Workload`] on this clock).
    pub fn scale(self) -> Scale {
        self.scale
    }

    /// `t` in picoseconds, rounded up (never below the time `t` stands for).
    pub fn to_ps(self, t: Ticks) -> Ps {
        Ps::new((t.get() * self.ps_per_unit).div_ceil(10u128.pow(self.scale.decimals)))
    }

    /// `p` picoseconds in ticks of this clock, rounded up.
    #[allow(clippy::wrong_self_convention)] // a conversion by this clock, named as its inverse `to_ps`
    pub fn from_ps(self, p: Ps) -> Ticks {
        Ticks::new((p.get() * 10u128.pow(self.scale.decimals)).div_ceil(self.ps_per_unit))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_become_picoseconds_rounded_up() {
        // A task set in ms with 3 decimals: one tick is 1 us = 10^6 ps.
        let us = KernelClock { scale: Scale { decimals: 3 }, ps_per_unit: 10u128.pow(9) };
        assert_eq!(us.to_ps(Ticks::new(7)), Ps::new(7_000_000));
        assert_eq!(us.from_ps(Ps::new(7_000_001)), Ticks::new(8));
        // A task set in ns with 4 decimals: one tick is 0.1 ps, rounded up.
        let fine = KernelClock { scale: Scale { decimals: 4 }, ps_per_unit: 1000 };
        assert_eq!(fine.to_ps(Ticks::new(11)), Ps::new(2));
        assert_eq!(KernelClock::PICOSECONDS.to_ps(Ticks::new(42)), Ps::new(42));
        assert_eq!(KernelClock::PICOSECONDS.from_ps(Ps::new(42)), Ticks::new(42));
    }
}
