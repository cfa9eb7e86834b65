//! A trip count as a user gives it: one count for every time the walk meets its branch
//! (`3`, `--trip 'L=3'`), or one count per visit (`[1, 2, 3]`, `--trip 'L=1,2,3'`): the
//! i-th entry is for the i-th time the loop is entered (a backward branch: the body runs
//! that many times) or the branch is reached (a forward branch or `EXIT`: 0 never taken,
//! any other count taken). A loop nested in another whose count depends on the outer
//! index (bitonic sort: the inner loop runs 1, 2, ..., 9 times) is stated exactly that way.

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One trip count, or one per visit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trip {
    /// The same count at every visit.
    Count(u64),
    /// The count of each visit, in the order the walk makes them (never empty once
    /// parsed by [`Trip::parse`] or checked by the importer).
    PerVisit(Vec<u64>),
}

impl Trip {
    /// The count of visit `visit` (0-based); `None` past the end of a per-visit list.
    pub fn at(&self, visit: usize) -> Option<u64> {
        match self {
            Trip::Count(n) => Some(*n),
            Trip::PerVisit(v) => v.get(visit).copied(),
        }
    }

    /// The largest count it gives (0 for an empty list).
    pub fn largest(&self) -> u64 {
        match self {
            Trip::Count(n) => *n,
            Trip::PerVisit(v) => v.iter().copied().max().unwrap_or(0),
        }
    }

    /// `N` or `N1,N2,...` (the text after `LABEL=` on the command line) as a trip; the
    /// error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Trip, String> {
        let counts: Result<Vec<u64>, _> = text.split(',').map(|n| n.trim().parse::<u64>()).collect();
        match counts {
            Ok(v) if v.len() == 1 => Ok(Trip::Count(v[0])),
            Ok(v) => Ok(Trip::PerVisit(v)),
            Err(_) if text.contains(',') => Err("write N1,N2,... : one whole number >= 0 per visit".into()),
            Err(_) => Err("N must be a whole number >= 0 (or N1,N2,... : one per visit)".into()),
        }
    }

    /// The TOML value of a task set's `trip` table: `3` or `[1, 2, 3]`.
    pub fn to_toml(&self) -> String {
        match self {
            Trip::Count(n) => n.to_string(),
            Trip::PerVisit(v) => format!("[{}]", v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
        }
    }
}

/// `3` or `1,2,3`, as `--trip` takes it.
impl fmt::Display for Trip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trip::Count(n) => write!(f, "{n}"),
            Trip::PerVisit(v) => write!(f, "{}", v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")),
        }
    }
}

impl Serialize for Trip {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Trip::Count(n) => s.serialize_u64(*n),
            Trip::PerVisit(v) => v.serialize(s),
        }
    }
}

struct TripVisitor;

impl<'de> Visitor<'de> for TripVisitor {
    type Value = Trip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a trip count N >= 0, or one per visit [N1, N2, ...]")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Trip, E> {
        Ok(Trip::Count(n))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Trip, E> {
        u64::try_from(n).map(Trip::Count).map_err(|_| E::invalid_value(de::Unexpected::Signed(n), &self))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Trip, A::Error> {
        let mut v = Vec::new();
        while let Some(n) = seq.next_element::<u64>()? {
            v.push(n);
        }
        Ok(Trip::PerVisit(v))
    }
}

impl<'de> Deserialize<'de> for Trip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Trip, D::Error> {
        d.deserialize_any(TripVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_count_or_one_per_visit() {
        assert_eq!(Trip::parse("3"), Ok(Trip::Count(3)));
        assert_eq!(Trip::parse(" 1, 2,3 "), Ok(Trip::PerVisit(vec![1, 2, 3])));
        assert!(Trip::parse("1,,2").unwrap_err().contains("N1,N2"));
        assert!(Trip::parse("-1").unwrap_err().contains("whole number"));
        assert!(Trip::parse("").is_err());
        let v = Trip::PerVisit(vec![1, 9]);
        assert_eq!((v.at(1), v.at(2), v.largest()), (Some(9), None, 9));
        assert_eq!(Trip::Count(4).at(100), Some(4));
        assert_eq!((v.to_string(), v.to_toml()), ("1,9".to_string(), "[1, 9]".to_string()));
    }

    #[test]
    fn toml_takes_both_forms() {
        #[derive(Deserialize)]
        struct T {
            trip: std::collections::BTreeMap<String, Trip>,
        }
        let t: T = toml::from_str("trip = { \"$L\" = [1, 2], E = 0 }").unwrap();
        assert_eq!(t.trip["$L"], Trip::PerVisit(vec![1, 2]));
        assert_eq!(t.trip["E"], Trip::Count(0));
        let e = toml::from_str::<T>("trip = { L = -2 }").err().unwrap().to_string();
        assert!(e.contains("N >= 0"), "{e}");
        assert!(toml::from_str::<T>("trip = { L = [1, \"x\"] }").is_err());
    }
}
