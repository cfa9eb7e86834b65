//! `import --list-branches`: every branch that needs a trip count, and the `--trip`
//! options to paste (quoted for the shell).

use crate::wording::plural;
use gpu_makespan::import::{Branch, BranchKind as Kind};

/// `--trip 'TARGET=N'` (or `TARGET=N1,N2,...` per visit) for each branch's proposal, in
/// one line.
pub fn paste(branches: &[Branch]) -> String {
    branches.iter().map(|b| format!("--trip '{}={}'", b.target, b.proposal())).collect::<Vec<_>>().join(" ")
}

fn inside(b: &Branch) -> String {
    let i = &b.inside;
    let what = match b.kind {
        Kind::Loop => "body",
        Kind::Forward => "skips",
        Kind::Exit => "after it",
    };
    let barriers = if i.barriers == 0 { String::new() } else { format!(", {}", plural(i.barriers, "barrier")) };
    format!("{what} {}: {} L, {} C{barriers}", i.instructions, i.l, i.c)
}

fn proposal(b: &Branch) -> String {
    match (b.kind, &b.outer) {
        (Kind::Loop, _) if b.visits > 1 && b.proposed_per_visit.is_none() => {
            format!("1 (entered {} times: one count for all, or N1,N2,... one per entry)", b.visits)
        }
        (Kind::Loop, _) if b.visits > 1 => format!(
            "1 per entry, {} entries{}: give each entry's trip count, in order",
            b.visits,
            b.outer.as_ref().map_or(String::new(), |o| format!(" (inside loop {o})"))
        ),
        (Kind::Loop, Some(o)) => {
            format!("1 (the body once; inside loop {o}: with its count given, list again for one count per entry, N1,N2,...)")
        }
        _ => fixed_proposal(b).to_string(),
    }
}

fn fixed_proposal(b: &Branch) -> &'static str {
    match b.kind {
        Kind::Loop => "1 (the body once: give the real trip count)",
        Kind::Forward if b.proposed > 0 => "1 (always taken: the next instruction jumps past it)",
        Kind::Forward => "0 (never taken: the code it skips runs)",
        Kind::Exit => "0 (never taken: the kernel goes on)",
    }
}

/// The table of `--list-branches` for kernel `entry` of file `origin`.
pub fn branch_table(entry: &str, origin: &str, branches: &[Branch]) -> String {
    if branches.is_empty() {
        return format!("{entry} in {origin}: no branch needs a trip count\n");
    }
    let rows: Vec<[String; 5]> = branches
        .iter()
        .map(|b| {
            let lines = b.lines.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
            [b.target.clone(), lines, b.kind.name().to_string(), inside(b), proposal(b)]
        })
        .collect();
    let head = ["target", "line", "kind", "instructions", "proposed trip count"];
    let mut width = head.map(str::len);
    for r in &rows {
        for (w, cell) in width.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        let mut s = String::new();
        for (k, c) in cells.iter().enumerate() {
            s.push_str(&format!("{c:<w$}  ", w = width[k]));
        }
        s.trim_end().to_string() + "\n"
    };
    let n = branches.len();
    let mut text =
        format!("{entry} in {origin}: {} need{} a trip count\n", plural(n as u64, "branch target"), if n == 1 { "s" } else { "" });
    text.push_str(&line(head));
    for r in &rows {
        text.push_str(&line([&r[0], &r[1], &r[2], &r[3], &r[4]]));
    }
    text.push_str("\nthe proposals walk one path: where a forward branch's other choice runs other code (an else arm), list\nagain with that choice given to see its branches, and keep the longer path for a worst case\n");
    text.push_str(&format!("\nthe proposals, to paste (change a loop's 1 to its trip count):\n{}\n", paste(branches)));
    text
}

/// A refusal at one branch, extended with every branch that needs a trip count and the
/// options that accept the proposals.
pub fn all_branches_hint(reason: &str, branches: &[Branch]) -> String {
    let list: Vec<String> = branches.iter().map(|b| format!("{} ({} at line {})", b.target, b.kind.name(), b.lines[0])).collect();
    let reason = reason.replace("; trip)", "; --trip)").replace("(trace)", "(--trace)");
    format!(
        "{reason}; all {} that need one: {}; to take the proposals (loops once): {} (--list-branches shows what each governs)",
        branches.len(),
        list.join(", "),
        paste(branches)
    )
}
