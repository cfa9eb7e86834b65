//! Instruction latencies (`docs/latency.md`): how many cycles after its issue a warp's
//! next instruction may issue.
//!
//! **The model.** An instruction of class `X` (`L` or `C`) issued in cycle `t` with
//! latency `lambda` lets its warp issue the next instruction from cycle `t + lambda` on;
//! the unit itself takes a new instruction every cycle (it is pipelined: `sigma_X`
//! issues per cycle, as in the paper). **Dependence assumed:** every instruction
//! depends on its predecessor in the warp (the safe default: no instruction-level
//! parallelism inside a warp). A barrier releases a block when the results of all its
//! warps' instructions before it are there. A warp's time ends when its last
//! instruction's result is there: `t + lambda - 1` for an issue in cycle `t`. Latency 1
//! everywhere is the paper's model, where every number is what it was.
//!
//! **sigma = 1/n.** The paper's transformation replaces an instruction by `n` copies,
//! each an instruction of its own: issued at most one per cycle and arbitrated like any
//! other, so another warp's copies may come between them (as in the paper's model, where
//! the copies were never required to be consecutive). The copies but the last have
//! latency 1, the last has the instruction's latency (the result takes `lambda` from the
//! last copy). Every bound here rests on this reading; copies forced to be consecutive
//! would be another model (a younger warp's started copies could then hold a unit).

use crate::error::InputError;
use crate::model::kernel::Unit;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest latency accepted, in cycles (a TX2 global load is a few hundred).
pub const MAX_LATENCY: u32 = 100_000;

/// The latencies an instruction of one class may have: every value in `[min, max]`
/// (`min = max`: one latency). Guaranteed `1 <= min <= max <= MAX_LATENCY`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct LatencyRange {
    /// Shortest latency in cycles.
    pub min: u32,
    /// Longest latency in cycles.
    pub max: u32,
}

impl LatencyRange {
    /// Latency 1: the paper's model.
    pub const ONE: LatencyRange = LatencyRange { min: 1, max: 1 };

    /// `[min, max]` for the field `field`, refused outside `1 <= min <= max <=
    /// MAX_LATENCY`.
    pub fn new(min: i64, max: i64, field: &str) -> Result<LatencyRange, InputError> {
        let bound = 1..=MAX_LATENCY as i64;
        if !bound.contains(&min) || !bound.contains(&max) {
            let v = if bound.contains(&min) { max } else { min };
            return Err(InputError::new(field, v, format!("a latency must be from 1 to {MAX_LATENCY} cycles")));
        }
        if min > max {
            return Err(InputError::new(field, format!("[{min}, {max}]"), "the shortest latency is above the longest"));
        }
        Ok(LatencyRange { min: min as u32, max: max as u32 })
    }

    /// Parses `N` (one latency) or `MIN..MAX` (a range), for the field `field`.
    pub fn parse(text: &str, field: &str) -> Result<LatencyRange, InputError> {
        let number = |s: &str| {
            let n = s.trim().parse::<i128>().map_err(|_| InputError::new(field, text, "give a number of cycles (`400`) or a range (`5..400`)"))?;
            Ok::<i64, InputError>(n.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
        };
        let range = match text.split_once("..") {
            Some((a, b)) => LatencyRange::new(number(a)?, number(b)?, field),
            None => number(text).and_then(|n| LatencyRange::new(n, n, field)),
        };
        range.map_err(|e| InputError { value: text.to_string(), ..e })
    }

    /// The one latency, if `min = max`.
    pub fn fixed(self) -> Option<u32> {
        (self.min == self.max).then_some(self.min)
    }
}

/// `N` or `MIN..MAX`.
impl fmt::Display for LatencyRange {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.fixed() {
            Some(n) => write!(f, "{n}"),
            None => write!(f, "{}..{}", self.min, self.max),
        }
    }
}

/// The latency of each instruction class. [`Latencies::ONE`] is the paper's model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Latencies {
    /// Latency of `L` (load/store) instructions.
    #[serde(rename = "L")]
    pub l: LatencyRange,
    /// Latency of `C` (CUDA-core) instructions.
    #[serde(rename = "C")]
    pub c: LatencyRange,
}

impl Default for Latencies {
    fn default() -> Latencies {
        Latencies::ONE
    }
}

impl Latencies {
    /// Latency 1 for every class: the paper's zero-latency model.
    pub const ONE: Latencies = Latencies { l: LatencyRange::ONE, c: LatencyRange::ONE };

    /// Whether this is the paper's model (latency 1 everywhere).
    pub fn is_one(&self) -> bool {
        *self == Latencies::ONE
    }

    /// The range of class `u`.
    pub fn of(&self, u: Unit) -> LatencyRange {
        match u {
            Unit::L => self.l,
            Unit::C => self.c,
        }
    }

    /// The latency of every instruction of `units` (a transformed kernel, the phases
    /// one after the other, made with `copies_l`/`copies_c` copies per instruction),
    /// each class's latency picked by `pick` (e.g. its `max`): the last copy of an
    /// instruction has it, the other copies 1.
    pub fn per_instruction(&self, units: &[Unit], copies: (u32, u32), pick: impl Fn(LatencyRange) -> u32) -> Vec<u32> {
        let mut out = Vec::with_capacity(units.len());
        let mut left = 0u32; // copies of the current instruction still to come
        for &u in units {
            if left == 0 {
                left = match u {
                    Unit::L => copies.0,
                    Unit::C => copies.1,
                }
                .max(1);
            }
            left -= 1;
            out.push(if left == 0 { pick(self.of(u)) } else { 1 });
        }
        out
    }
}

impl Latencies {
    /// `sum_i (lambda_i^max - 1)` over one warp's instructions `units` (transformed, made
    /// with `copies`): the most cycles a warp can spend waiting for its own results. 0 at
    /// latency 1.
    pub fn waits(&self, units: &[Unit], copies: (u32, u32)) -> u64 {
        self.per_instruction(units, copies, |r| r.max).iter().map(|&l| l as u64 - 1).sum()
    }

    /// `sum_i (lambda_i^min - 1)`: the least a warp waits for its own results.
    pub fn waits_min(&self, units: &[Unit], copies: (u32, u32)) -> u64 {
        self.per_instruction(units, copies, |r| r.min).iter().map(|&l| l as u64 - 1).sum()
    }
}

/// `L = 400, C = 4` (ranges as `5..400`).
impl fmt::Display for Latencies {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "L = {}, C = {}", self.l, self.c)
    }
}

/// The `latency` table of an instance file: `latency = { L = [5, 400], C = 4 }`, each
/// class a number or a `[min, max]` pair; a class left out has latency 1.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatencyFile {
    /// `L`'s latency.
    #[serde(rename = "L")]
    pub l: Option<LatencyValue>,
    /// `C`'s latency.
    #[serde(rename = "C")]
    pub c: Option<LatencyValue>,
}

/// One class's latency in a file: a number, or `[min, max]`.
#[derive(Debug, Clone, Copy)]
pub enum LatencyValue {
    /// One latency.
    One(i64),
    /// `[min, max]`.
    Range([i64; 2]),
}

/// A whole number of cycles or a pair `[min, max]`; anything else is refused with what
/// to write instead.
impl<'de> Deserialize<'de> for LatencyValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const EXPECTED: &str = "a whole number of cycles (4) or a range [min, max] ([5, 400])";
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = LatencyValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(EXPECTED)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<LatencyValue, E> {
                Ok(LatencyValue::One(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<LatencyValue, E> {
                Ok(LatencyValue::One(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<LatencyValue, A::Error> {
                let mut pair = Vec::new();
                while let Some(v) = seq.next_element::<i64>()? {
                    pair.push(v);
                }
                match pair[..] {
                    [a, b] => Ok(LatencyValue::Range([a, b])),
                    _ => Err(serde::de::Error::custom(format!("{} values; expected {EXPECTED}", pair.len()))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl LatencyFile {
    /// The latencies the table states, checked (errors name `latency.L` or `latency.C`).
    pub fn latencies(&self) -> Result<Latencies, InputError> {
        let range = |v: Option<LatencyValue>, field: &str| match v {
            None => Ok(LatencyRange::ONE),
            Some(LatencyValue::One(n)) => LatencyRange::new(n, n, field),
            Some(LatencyValue::Range([a, b])) => LatencyRange::new(a, b, field),
        };
        Ok(Latencies { l: range(self.l, "latency.L")?, c: range(self.c, "latency.C")? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_numbers_and_ranges() {
        assert_eq!(LatencyRange::parse("400", "f").unwrap(), LatencyRange { min: 400, max: 400 });
        assert_eq!(LatencyRange::parse("5..400", "f").unwrap(), LatencyRange { min: 5, max: 400 });
        for bad in ["0", "x", "5..", "400..5", "1..100001", "-3"] {
            let e = LatencyRange::parse(bad, "latency_l").unwrap_err();
            assert_eq!(e.field, "latency_l", "{bad}: {e}");
        }
        assert_eq!(LatencyRange::parse("5..400", "f").unwrap().to_string(), "5..400");
    }

    #[test]
    fn copies_but_the_last_have_latency_one() {
        let lat = Latencies { l: LatencyRange { min: 7, max: 9 }, c: LatencyRange { min: 3, max: 3 } };
        // LC with sigma_L = 1/2: L L C.
        let units = [Unit::L, Unit::L, Unit::C, Unit::L, Unit::L];
        assert_eq!(lat.per_instruction(&units, (2, 1), |r| r.max), vec![1, 9, 3, 1, 9]);
        assert_eq!(Latencies::ONE.per_instruction(&units, (2, 1), |r| r.max), vec![1; 5]);
    }

    #[test]
    fn file_tables_name_the_class() {
        let f: LatencyFile = toml::from_str("L = [5, 400]\nC = 4\n").unwrap();
        let lat = f.latencies().unwrap();
        assert_eq!((lat.l, lat.c.fixed()), (LatencyRange { min: 5, max: 400 }, Some(4)));
        let f: LatencyFile = toml::from_str("C = 0\n").unwrap();
        assert_eq!(f.latencies().unwrap_err().field, "latency.C");
    }
}
