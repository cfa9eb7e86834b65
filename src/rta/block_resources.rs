//! A kernel file's block resources in a task set: what the file and its
//! `resource_usage` state (static shared memory, registers per thread, `.reqntid`,
//! `.maxntid`, dynamic shared memory declared), what the task set gives
//! (`shared_memory`, `registers_per_thread`, `dynamic_shared_memory`), and the words that
//! name where each value the RTA uses comes from. A value nobody states is never 0: it is
//! the most a block may use.

use crate::error::InputError;
use crate::import::resources::Resources;
use crate::rta::gpu::Platform;

/// What a kernel file and its `resource_usage` state about a block, and where each
/// value comes from, for the report to name its source.
#[derive(Debug, Clone)]
pub(crate) struct Stated {
    /// What the file states, with `resource_usage`'s values over it.
    pub(crate) resources: Resources,
    /// Where the static shared memory is read: `the kernel file`, `resource_usage FILE`,
    /// both, or the one used with the other's value.
    pub(crate) shared_from: String,
    /// The same for the registers per thread.
    pub(crate) registers_from: String,
    /// The file would show dynamic shared memory (PTX's `.extern .shared`); SASS and
    /// resource-usage text do not.
    pub(crate) sees_dynamic: bool,
}

impl Stated {
    /// `file`'s statements (as `format`), with `usage`'s (from `resource_usage` `name`)
    /// over them.
    pub(crate) fn new(file: Resources, format: crate::import::Format, usage: Option<(Resources, &str)>) -> Stated {
        let (shared_from, registers_from) = match usage {
            Some((u, name)) => {
                (source(file.shared_memory, u.shared_memory, name), source(file.registers_per_thread, u.registers_per_thread, name))
            }
            None => ("the kernel file".to_string(), "the kernel file".to_string()),
        };
        Stated {
            resources: usage.map_or(file, |(u, _)| u.or(file)),
            shared_from,
            registers_from,
            sees_dynamic: format == crate::import::Format::Ptx,
        }
    }
}

/// Where a value comes from when the kernel file states `file` and `resource_usage`
/// `name` states `usage` (which wins): both, one, or the one used with the other's.
fn source(file: Option<u64>, usage: Option<u64>, name: &str) -> String {
    match (file, usage) {
        (Some(f), Some(u)) if f == u => format!("the kernel file and resource_usage {name}"),
        (Some(f), Some(_)) => format!("resource_usage {name} (the kernel file states {f})"),
        (_, Some(_)) => format!("resource_usage {name}"),
        _ => "the kernel file".to_string(),
    }
}

/// A kernel file's block resources: a field given in the task set wins; else what the
/// file (or its `resource_usage`) states, the static shared memory plus the launch's
/// `dynamic_shared_memory` (required when the file declares dynamic shared memory);
/// else (never 0) the most the launch allows: all of a block's shared memory, the most
/// registers per thread a block of `b` threads may have. Returns (shared memory,
/// registers per thread, what was taken and from where, in words).
/// What a task set's kernel entry gives about its block's resources (the fields of
/// `taskset::KernelEntry` that [`file_resources`] reads).
pub(crate) struct Given<'a> {
    /// `shared_memory`.
    pub(crate) shared_memory: Option<i64>,
    /// `registers_per_thread`.
    pub(crate) registers_per_thread: Option<i64>,
    /// `dynamic_shared_memory`.
    pub(crate) dynamic_shared_memory: Option<i64>,
    /// `resource_usage` (the file's name).
    pub(crate) resource_usage: Option<&'a str>,
}

pub(crate) fn file_resources(
    e: &Given,
    stated: &Stated,
    b: u64,
    p: &Platform,
    field: &dyn Fn(&str) -> String,
) -> Result<(u64, u64, String), InputError> {
    let given = |v: Option<i64>, f: &str| {
        v.map(|x| u64::try_from(x).map_err(|_| InputError::new(field(f), x, "must be zero or positive"))).transpose()
    };
    let r = stated.resources;
    if let Some(t) = r.required_threads.filter(|&t| t != b) {
        return Err(InputError::new(field("threads_per_block"), b, format!("the kernel file requires blocks of {t} threads (.reqntid)")));
    }
    if let Some(t) = r.max_threads.filter(|&t| t < b) {
        return Err(InputError::new(
            field("threads_per_block"),
            b,
            format!("the kernel file allows at most {t} threads per block (.maxntid)"),
        ));
    }
    let dynamic = given(e.dynamic_shared_memory, "dynamic_shared_memory")?;
    if r.dynamic_shared_memory && dynamic.is_none() {
        return Err(InputError::new(
            field("dynamic_shared_memory"),
            "",
            "the kernel file declares dynamic shared memory (.extern .shared, from extern __shared__), whose size the launch gives (the third <<<>>> parameter): give dynamic_shared_memory = N (bytes per block)",
        ));
    }
    let (given_shared, given_registers) =
        (given(e.shared_memory, "shared_memory")?, given(e.registers_per_thread, "registers_per_thread")?);
    let least = r.shared_memory.map(|s| s + dynamic.unwrap_or(0));
    if let Some((g, s)) = given_shared.zip(least).filter(|(g, s)| g < s) {
        let what = dynamic.map_or(String::new(), |d| format!(" plus {d} B dynamic_shared_memory given"));
        let reason =
            format!("{} B of static shared memory (from {}){what}; a block cannot use less", s - dynamic.unwrap_or(0), stated.shared_from);
        return Err(InputError::new(field("shared_memory"), g, reason));
    }
    if let Some((g, s)) = given_registers.zip(r.registers_per_thread).filter(|(g, s)| g < s) {
        let reason = format!("{s} registers per thread (from {}); a block cannot use less", stated.registers_from);
        return Err(InputError::new(field("registers_per_thread"), g, reason));
    }
    let (shared, shared_words) = block_shared(stated, given_shared, dynamic, p, &unstated(e));
    let registers = match (given_registers, r.registers_per_thread) {
        (Some(g), r) => {
            let note = r.map_or(String::new(), |r| format!(" ({r} from {})", stated.registers_from));
            (g, format!("registers_per_thread {g} given{note}"))
        }
        (None, Some(r)) => (r, format!("registers_per_thread {r} from {}", stated.registers_from)),
        (None, None) => {
            let most = (1..=p.max_registers_per_thread).rev().find(|&r| p.demand(b, shared, r, "").is_ok()).unwrap_or(0);
            (most, format!(
                "registers_per_thread not stated by {}: taken as {most}, the most a block of {b} threads may use (set resource_usage to the kernel's `ptxas -v` output for its own count)",
                unstated(e)
            ))
        }
    };
    Ok((shared, registers.0, format!("{shared_words}, {}", registers.1)))
}

/// A block's shared memory and where it comes from, in words: `shared_memory` given;
/// else the static size stated plus the launch's `dynamic`; else the most a block may
/// use.
fn block_shared(stated: &Stated, given: Option<u64>, dynamic: Option<u64>, p: &Platform, nobody: &str) -> (u64, String) {
    let (r, from) = (stated.resources, &stated.shared_from);
    let dynamic_words = dynamic.map_or(String::new(), |d| format!(" + {d} B dynamic_shared_memory given"));
    // SASS and resource-usage text state static shared memory only.
    let unseen = if stated.sees_dynamic || dynamic.is_some() {
        ""
    } else {
        " (static only: SASS does not show dynamic shared memory; give dynamic_shared_memory if the launch passes one)"
    };
    match (given, r.shared_memory) {
        (Some(g), s) => {
            let note = s.map_or(String::new(), |s| format!(" ({s} B static from {from}{dynamic_words})"));
            (g, format!("shared_memory {g} B given{note}"))
        }
        (None, Some(s)) if dynamic.is_some() => {
            let d = dynamic.unwrap_or(0);
            (s + d, format!("shared_memory {} B: {s} B static from {from}{dynamic_words}", s + d))
        }
        (None, Some(s)) => (s, format!("shared_memory {s} B from {from}{unseen}")),
        (None, None) => (
            p.shared_memory_per_block,
            format!("shared_memory not stated by {nobody}: taken as {} B, the most a block may use", p.shared_memory_per_block),
        ),
    }
}

/// What states nothing about a kernel's block: its file, and its resource_usage if given.
fn unstated(e: &Given) -> String {
    e.resource_usage.map_or("the kernel file".to_string(), |u| format!("the kernel file or resource_usage {u}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value names where it comes from: the file, resource_usage, both when they
    /// agree, and the file's own value when resource_usage's wins over it.
    #[test]
    fn sources_are_named() {
        assert_eq!(source(Some(8), None, "u.txt"), "the kernel file");
        assert_eq!(source(None, Some(8), "u.txt"), "resource_usage u.txt");
        assert_eq!(source(Some(8), Some(8), "u.txt"), "the kernel file and resource_usage u.txt");
        assert_eq!(source(Some(4), Some(8), "u.txt"), "resource_usage u.txt (the kernel file states 4)");
        let file = Resources { shared_memory: Some(1024), ..Resources::default() };
        let usage = Resources { registers_per_thread: Some(18), ..Resources::default() };
        let s = Stated::new(file, crate::import::Format::Sass, Some((usage, "u.txt")));
        assert_eq!((s.shared_from.as_str(), s.registers_from.as_str()), ("the kernel file", "resource_usage u.txt"));
        assert_eq!((s.resources.shared_memory, s.resources.registers_per_thread, s.sees_dynamic), (Some(1024), Some(18), false));
    }
}
