//! The proven interval around a worst case: one type for every result that carries one.
//!
//! An [`Interval`] holds a proven lower bound (the makespan of a checked schedule, or a
//! closed form) and a proven upper bound, never below it. [`Interval::exact`] is derived
//! (lower = upper), never stored, so no record can claim an exact value its bounds do
//! not show. Records keep their historical field names (`makespan`, `lower`,
//! `lower_bound`, `upper_bound`, ...) beside an `interval` object of this type.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A proven interval `[lower, upper]` (cycles), `lower <= upper`.
///
/// JSON: `{"lower": 9, "upper": 9, "exact": true}`; `exact` is written for readers
/// and, when read back, must agree with the bounds.
///
/// ```
/// use gpu_makespan::Interval;
///
/// let known = Interval::new(9, 9).unwrap();
/// assert!(known.exact());
/// assert_eq!(known.to_string(), "9");
/// let open = Interval::new(12, 15).unwrap();
/// assert_eq!((open.lower(), open.upper(), open.exact()), (12, 15, false));
/// assert_eq!(open.to_string(), "[12, 15]");
/// assert!(Interval::new(3, 2).is_none()); // an upper bound below the lower one
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Fields", try_from = "Fields")]
pub struct Interval {
    lower: u64,
    upper: u64,
}

impl Interval {
    /// The interval `[lower, upper]`; `None` when `upper < lower` (two bounds that
    /// contradict each other: a wrong proof somewhere).
    pub fn new(lower: u64, upper: u64) -> Option<Interval> {
        (lower <= upper).then_some(Interval { lower, upper })
    }

    /// The one-point interval of a value known exactly.
    pub fn point(value: u64) -> Interval {
        Interval { lower: value, upper: value }
    }

    /// The proven lower bound.
    pub fn lower(self) -> u64 {
        self.lower
    }

    /// The proven upper bound (never below [`Interval::lower`]).
    pub fn upper(self) -> u64 {
        self.upper
    }

    /// The worst case is known: lower = upper.
    pub fn exact(self) -> bool {
        self.lower == self.upper
    }

    /// Both bounds added: the interval of a sum (e.g. of a kernel's barrier phases run
    /// one after the other), proven when both are.
    pub fn plus(self, other: Interval) -> Interval {
        Interval { lower: self.lower + other.lower, upper: self.upper + other.upper }
    }
}

/// `9` when exact, else `[12, 15]`.
impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.exact() {
            write!(f, "{}", self.lower)
        } else {
            write!(f, "[{}, {}]", self.lower, self.upper)
        }
    }
}

/// The serialised form; `exact` is optional when read.
#[derive(Serialize, Deserialize)]
struct Fields {
    lower: u64,
    upper: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exact: Option<bool>,
}

impl From<Interval> for Fields {
    fn from(i: Interval) -> Fields {
        Fields { lower: i.lower, upper: i.upper, exact: Some(i.exact()) }
    }
}

impl TryFrom<Fields> for Interval {
    type Error = String;
    fn try_from(f: Fields) -> Result<Interval, String> {
        let i = Interval::new(f.lower, f.upper).ok_or_else(|| format!("interval: upper {} is below lower {}", f.upper, f.lower))?;
        match f.exact {
            Some(e) if e != i.exact() => Err(format!("interval: exact = {e} but lower = {} and upper = {}", f.lower, f.upper)),
            _ => Ok(i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_is_derived_and_shown_as_one_value() {
        let i = Interval::new(4, 7).unwrap();
        assert!(!i.exact());
        assert_eq!(i.to_string(), "[4, 7]");
        assert_eq!(Interval::point(7).to_string(), "7");
        assert!(Interval::point(7).exact());
        assert_eq!(i.plus(Interval::point(2)), Interval::new(6, 9).unwrap());
        assert!(Interval::new(8, 7).is_none());
    }

    #[test]
    fn serde_round_trip_and_refusals() {
        let i = Interval::new(9, 12).unwrap();
        let text = serde_json::to_string(&i).unwrap();
        assert_eq!(text, r#"{"lower":9,"upper":12,"exact":false}"#);
        assert_eq!(serde_json::from_str::<Interval>(&text).unwrap(), i);
        assert_eq!(serde_json::from_str::<Interval>(r#"{"lower":5,"upper":5}"#).unwrap(), Interval::point(5));
        let below = serde_json::from_str::<Interval>(r#"{"lower":6,"upper":5}"#).unwrap_err().to_string();
        assert!(below.contains("below"), "{below}");
        let claims = serde_json::from_str::<Interval>(r#"{"lower":5,"upper":6,"exact":true}"#).unwrap_err().to_string();
        assert!(claims.contains("exact = true"), "{claims}");
    }
}
