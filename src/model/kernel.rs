//! Kernel instruction strings: `L` (load/store unit) and `C` (CUDA core).
//!
//! A [`Kernel`] is the sequence every warp executes, one instruction per cycle, in order.

use crate::error::InputError;
use serde::Serialize;
use std::fmt;

/// Longest instruction string accepted (after the sigma = 1/n transformation).
pub const MAX_INSTRUCTIONS: usize = 10_000;

/// The functional unit an instruction runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub enum Unit {
    /// Load/store unit (`L`).
    L,
    /// CUDA core (`C`).
    C,
}

impl Unit {
    /// The letter used in instruction strings and charts.
    pub fn letter(self) -> char {
        match self {
            Unit::L => 'L',
            Unit::C => 'C',
        }
    }
}

/// A kernel instruction string. Guaranteed non-empty and at most `MAX_INSTRUCTIONS` long.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Kernel {
    units: Vec<Unit>,
}

/// Why a kernel with barriers is refused where a barrier-free one is needed (a
/// [`Kernel`], an [`crate::model::instance::Instance`]), and what takes it instead.
pub(crate) const BARRIER_FREE: &str = "an Instance is barrier-free: give a kernel with barriers as a Program (Program::build; exact::phases::solve_phases solves it phase by phase)";

/// The preemption-point marker in instruction strings (`makespan preempt`): a barrier
/// of the block where it may stop at a launch's end; `rta` reads the kernel without its
/// points, and only `preempt` reads them.
pub(crate) const POINT: char = '^';

impl Kernel {
    /// Parses a string of `L`/`C` (case-insensitive; spaces and `_` are ignored so that
    /// long kernels can be grouped). Errors name the field `field` and the bad value.
    pub fn parse_field(text: &str, field: &str) -> Result<Kernel, InputError> {
        let mut units = Vec::with_capacity(text.len());
        for (position, ch) in text.chars().enumerate() {
            match ch {
                'L' | 'l' => units.push(Unit::L),
                'C' | 'c' => units.push(Unit::C),
                ' ' | '_' => {}
                '|' => {
                    return Err(InputError::new(
                        field,
                        format!("{:?}", crate::error::shorten(text)),
                        format!("has a barrier (|); {BARRIER_FREE}"),
                    ))
                }
                POINT => {
                    return Err(InputError::new(
                        field,
                        format!("{:?}", crate::error::shorten(text)),
                        format!(
                            "has a preemption point (^) at character {}: makespan preempt reads points (task sets); here write a barrier (|) where the command takes barriers",
                            position + 1
                        ),
                    ))
                }
                other => {
                    return Err(InputError::new(
                        field,
                        format!("{text:?}"),
                        format!(
                            "unknown instruction {other:?} at character {}: only L (load/store) and C (CUDA core) are allowed",
                            position + 1
                        ),
                    ))
                }
            }
        }
        Kernel::from_units(units).map_err(|reason| InputError::new(field, format!("{text:?}"), reason))
    }

    /// Parses an instruction string given in the field `kernel`.
    pub fn parse(text: &str) -> Result<Kernel, InputError> {
        Kernel::parse_field(text, "kernel")
    }

    fn from_units(units: Vec<Unit>) -> Result<Kernel, String> {
        if units.is_empty() {
            return Err("the instruction string is empty".into());
        }
        if units.len() > MAX_INSTRUCTIONS {
            return Err(format!("{} instructions; at most {MAX_INSTRUCTIONS} are supported", units.len()));
        }
        Ok(Kernel { units })
    }

    /// The paper's transformation (Fig. 1) for sigma = 1/n: every `L` becomes `copies_l`
    /// consecutive `L`s and every `C` becomes `copies_c` consecutive `C`s.
    pub fn expand(&self, copies_l: u32, copies_c: u32) -> Result<Kernel, String> {
        let mut units = Vec::new();
        for &u in &self.units {
            let n = match u {
                Unit::L => copies_l,
                Unit::C => copies_c,
            };
            for _ in 0..n {
                units.push(u);
                if units.len() > MAX_INSTRUCTIONS {
                    return Err(format!("the transformed string would exceed {MAX_INSTRUCTIONS} instructions"));
                }
            }
        }
        Kernel::from_units(units)
    }

    /// Number of instructions, `I`.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Always false: kernels are non-empty by construction.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// The unit of instruction `i` (0-based).
    pub fn unit(&self, i: usize) -> Unit {
        self.units[i]
    }

    /// The instructions in order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Number of instructions of type `u` (`I_L` or `I_C`).
    pub fn count(&self, u: Unit) -> usize {
        self.units.iter().filter(|&&x| x == u).count()
    }

    /// `I_L`, the number of load/store instructions.
    pub fn i_l(&self) -> usize {
        self.count(Unit::L)
    }

    /// `I_C`, the number of CUDA-core instructions.
    pub fn i_c(&self) -> usize {
        self.count(Unit::C)
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for u in &self.units {
            write!(f, "{}", u.letter())?;
        }
        Ok(())
    }
}

/// Serialised as its instruction string, e.g. `"LLC"`.
impl serde::Serialize for Kernel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_counts() {
        let k = Kernel::parse("LLC").unwrap();
        assert_eq!(k.len(), 3);
        assert_eq!((k.i_l(), k.i_c()), (2, 1));
        assert_eq!(k.to_string(), "LLC");
    }

    #[test]
    fn rejects_unknown_letters_and_empty() {
        let e = Kernel::parse("LXC").unwrap_err();
        assert_eq!(e.field, "kernel");
        assert!(e.to_string().contains("'X'"), "{e}");
        assert!(Kernel::parse("").is_err());
        assert!(Kernel::parse("  ").is_err());
    }

    #[test]
    fn fig1_transformation() {
        let k = Kernel::parse("LC").unwrap().expand(2, 1).unwrap();
        assert_eq!(k.to_string(), "LLC");
    }
}
