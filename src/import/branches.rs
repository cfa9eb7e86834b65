//! Every branch of a kernel's path that needs a trip count, found in one walk, with a
//! proposed count for each, and the trip counts a user gives matched to the function's
//! labels and addresses in every spelling the tools print (`0x260`, `260`, `0x0260`,
//! `/*0260*/`).
//!
//! The listing walks the path as [`flow::walk`](crate::import::flow::walk) does, and at
//! a branch with no trip count takes the proposal: a loop's body once (`1`), a
//! predicated exit never taken (`0`), a forward branch so that the code it governs runs:
//! never taken (`0`, the code it skips runs), or always (`1`) where the next instruction
//! jumps past its target (`@p bra A; bra.uni B`, the code at `A`). Pasting all the
//! proposals makes the import go through in one run, on the path the listing walked. A
//! proposal is not a claim about the kernel: a loop's real trip count, and which way a
//! data-dependent branch goes, are the user's to give.

use crate::error::InputError;
use crate::import::flow::{instruction_at, walk_with, Undecided};
use crate::import::listing::{Function, Item, Target};
use crate::import::trips::Trip;
use crate::import::units::{Class, UnitMap};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// What a branch does when taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Backward: the trip count is how many times the body runs.
    Loop,
    /// Forward: 0 never taken (the code it skips runs), any other count always taken.
    Forward,
    /// A predicated exit: 0 never taken, any other count always taken.
    Exit,
}

impl Kind {
    /// `loop`, `forward` or `exit`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Loop => "loop",
            Kind::Forward => "forward",
            Kind::Exit => "exit",
        }
    }
}

/// The instructions a branch governs: a loop's body, or the code a forward branch or an
/// exit skips when taken (as they stand in the file, inner branches not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Inside {
    /// Instructions (barriers and skipped ones included).
    pub instructions: u64,
    /// Of them, on the load/store units.
    pub l: u64,
    /// Of them, on the cores (branches and exits included).
    pub c: u64,
    /// Of them, barriers.
    pub barriers: u64,
}

/// A branch target the walk reached with no trip count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Branch {
    /// The trip-count key: a label, an address (`0x260`) or `EXIT`.
    pub target: String,
    /// Lines of the branch instructions to it on the path (1-based).
    pub lines: Vec<usize>,
    /// Loop, forward or exit (of the first branch to it on the path).
    pub kind: Kind,
    /// What it governs (of the first branch to it).
    pub inside: Inside,
    /// The proposed trip count: 1 for a loop, 0 otherwise.
    pub proposed: u64,
    /// Times the listing's walk met it: entries of a loop (each left after one run of
    /// the body, as proposed), arrivals at a forward branch or an exit.
    pub visits: u64,
    /// For a loop inside another: the innermost enclosing loop's target.
    pub outer: Option<String>,
    /// For a loop the walk entered more than once (at most `MAX_PROPOSED_VISITS`
    /// times): one count per entry (each the proposal), the shape of per-visit counts;
    /// its real counts are the user's.
    pub proposed_per_visit: Option<Vec<u64>>,
}

impl Branch {
    /// The proposal as a trip count: per visit where the loop is entered more than once.
    pub fn proposal(&self) -> Trip {
        match &self.proposed_per_visit {
            Some(v) => Trip::PerVisit(v.clone()),
            None => Trip::Count(self.proposed),
        }
    }
}

/// Most entries of a loop proposed one count each; beyond, one count for all is proposed.
pub const MAX_PROPOSED_VISITS: u64 = 100;

/// Every branch target on the path of `f` that has no trip count in `trips`, in the order
/// the walk meets them, each with its proposal: for a loop the walk enters several times
/// (nested in a loop whose count is given), one count per entry.
pub fn unresolved(f: &Function, map: &UnitMap, trips: &HashMap<String, Trip>, origin: &str) -> Result<Vec<Branch>, InputError> {
    let mut found: Vec<Branch> = Vec::new();
    let loops = loops(f);
    walk_with(f, map, false, trips, origin, &mut |u: Undecided| {
        if let Some(b) = found.iter_mut().find(|b| b.target == u.target) {
            if !b.lines.contains(&u.instr.line) {
                b.lines.push(u.instr.line);
            }
            b.visits += 1;
            return Ok(b.kind == Kind::Forward && b.proposed > 0);
        }
        let b = describe(f, map, &u, &loops);
        let taken = b.kind == Kind::Forward && b.proposed > 0;
        found.push(b);
        Ok(taken)
    })?;
    for b in found.iter_mut().filter(|b| b.kind == Kind::Loop && (2..=MAX_PROPOSED_VISITS).contains(&b.visits)) {
        b.proposed_per_visit = Some(vec![b.proposed; b.visits as usize]);
    }
    Ok(found)
}

/// The loops of `f`, its backward branches: (target key, target item, branch item).
fn loops(f: &Function) -> Vec<(String, usize, usize)> {
    let labels: HashMap<&str, usize> =
        f.items.iter().enumerate().filter_map(|(i, it)| if let Item::Label(l) = it { Some((l.as_str(), i)) } else { None }).collect();
    let addresses: HashMap<u64, usize> =
        f.items.iter().enumerate().filter_map(|(i, it)| if let Item::Instr(x) = it { x.address.map(|a| (a, i)) } else { None }).collect();
    let back = |(i, it): (usize, &Item)| {
        let Item::Instr(x) = it else { return None };
        let (key, to) = match x.target.as_ref()? {
            Target::Label(l) => (l.clone(), *labels.get(l.as_str())?),
            Target::Address(a) => (format!("{a:#x}"), instruction_at(&addresses, *a)?),
        };
        (to <= i).then_some((key, to, i))
    };
    f.items.iter().enumerate().filter_map(back).collect()
}

fn describe(f: &Function, map: &UnitMap, u: &Undecided, loops: &[(String, usize, usize)]) -> Branch {
    let kind = if u.target == "EXIT" {
        Kind::Exit
    } else if u.to <= u.at {
        Kind::Loop
    } else {
        Kind::Forward
    };
    let range = if kind == Kind::Loop { u.to..u.at + 1 } else { u.at + 1..u.to.min(f.items.len()) };
    let mut inside = Inside::default();
    for item in &f.items[range] {
        let Item::Instr(x) = item else { continue };
        inside.instructions += 1;
        match map.class(&x.opcode).map(|(c, _)| c) {
            Some(Class::L) => inside.l += 1,
            Some(Class::C | Class::Branch | Class::Exit) => inside.c += 1,
            Some(Class::Barrier) => inside.barriers += 1,
            _ => {}
        }
    }
    let proposed = u64::from(kind == Kind::Loop || kind == Kind::Forward && jumps_over(f, u));
    let outer = loops
        .iter()
        .filter(|(key, to, at)| kind == Kind::Loop && *key != u.target && *to <= u.to && *at >= u.at)
        .min_by_key(|(_, to, at)| at - to)
        .map(|(key, _, _)| key.clone());
    Branch { target: u.target.clone(), lines: vec![u.instr.line], kind, proposed, visits: 1, outer, proposed_per_visit: None, inside }
}

/// Whether the code after the forward branch `u` is an unconditional jump past its
/// target (`@p bra A; bra.uni B` with `A < B`, the form compilers give an `if` whose
/// body is placed at `A`): then taking the branch is what runs the code.
fn jumps_over(f: &Function, u: &Undecided) -> bool {
    let next = f.items[u.at + 1..].iter().find_map(|i| if let Item::Instr(x) = i { Some(x) } else { None });
    let Some(x) = next.filter(|x| !x.predicated && !x.never) else { return false };
    let to = match &x.target {
        Some(Target::Label(l)) => f.items.iter().position(|i| matches!(i, Item::Label(m) if m == l)),
        Some(Target::Address(a)) => f.items.iter().position(|i| matches!(i, Item::Instr(y) if y.address.is_some_and(|b| b >= *a))),
        None => None,
    };
    to.is_some_and(|to| to > u.to)
}

/// The trip counts `given` as the walk keys them: labels as written, addresses in any
/// spelling (`0x260`, `260`, `0x0260`, `/*0260*/`) as `0x260`, `EXIT` as is. A key that
/// names neither a label nor an instruction address of `f` is refused, with the
/// function's branch targets.
pub fn canonical_trips(f: &Function, given: &HashMap<String, Trip>) -> Result<HashMap<String, Trip>, InputError> {
    let labels: BTreeSet<&str> = f.items.iter().filter_map(|i| if let Item::Label(l) = i { Some(l.as_str()) } else { None }).collect();
    let addresses: HashMap<u64, ()> =
        f.items.iter().filter_map(|i| if let Item::Instr(x) = i { x.address.map(|a| (a, ())) } else { None }).collect();
    let mut out = HashMap::new();
    let mut keys: Vec<(&String, &Trip)> = given.iter().collect();
    keys.sort_by_key(|(k, _)| *k);
    for (key, n) in keys {
        if *n == Trip::PerVisit(Vec::new()) {
            return Err(InputError::option("trip", format!("{key}=[]"), "an empty list: give one count per visit, or one count"));
        }
        let canonical = if key == "EXIT" || labels.contains(key.as_str()) {
            key.clone()
        } else if let Some(a) = address(key).filter(|&a| instruction_at(&addresses, a).is_some()) {
            format!("{a:#x}")
        } else {
            return Err(unknown_key(f, key, n));
        };
        if out.insert(canonical.clone(), n.clone()).is_some() {
            return Err(InputError::option("trip", format!("{key}={n}"), format!("{canonical} has a trip count already")));
        }
    }
    Ok(out)
}

/// `0x260`, `260`, `0x0260`, `/*0260*/` as a number.
fn address(key: &str) -> Option<u64> {
    let k = key.trim();
    let k = k.strip_prefix("/*").and_then(|k| k.strip_suffix("*/")).unwrap_or(k).trim();
    let k = k.strip_prefix("0x").or_else(|| k.strip_prefix("0X")).unwrap_or(k);
    (!k.is_empty() && k.len() <= 16).then(|| u64::from_str_radix(k, 16).ok()).flatten()
}

fn unknown_key(f: &Function, key: &str, n: &Trip) -> InputError {
    let mut targets: Vec<String> = Vec::new();
    for item in &f.items {
        if let Item::Instr(x) = item {
            let t = match &x.target {
                Some(Target::Label(l)) => l.clone(),
                Some(Target::Address(a)) => format!("{a:#x}"),
                None => continue,
            };
            if !targets.contains(&t) {
                targets.push(t);
            }
        }
    }
    let shown = if targets.is_empty() { "none".to_string() } else { targets.join(", ") };
    let reason = if key.trim().is_empty() {
        format!("the label is empty: a shell replaces an unquoted $NAME with nothing, so quote the value ('$L__BB0_2=N'); the branch targets of {} are: {shown}", f.name)
    } else {
        format!("no label or address {key} in {}; its branch targets are: {shown}", f.name)
    };
    InputError::option("trip", format!("{key}={n}"), reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_in_every_spelling() {
        for k in ["0x260", "260", "0x0260", "/*0260*/", " 0x260 "] {
            assert_eq!(address(k), Some(0x260), "{k}");
        }
        assert_eq!(address("$L__BB0_2"), None);
        assert_eq!(address(""), None);
    }
}
