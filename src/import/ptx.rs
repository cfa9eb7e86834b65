//! Reads PTX as `nvcc -ptx` writes it: directives, `.entry`/`.func` bodies, labels,
//! predicated instructions (`@%p1 bra $L__BB0_2;`), vector and modifier suffixes, line
//! and block comments.

use crate::import::listing::{predicate, Function, Instr, Item, Listing, Target};
use crate::import::resources::Resources;

/// Removes `//` and `/* */` comments, keeping line breaks (so line numbers hold).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut block = false;
    while let Some(c) = chars.next() {
        if block {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                block = false;
            } else if c == '\n' {
                out.push('\n');
            }
            continue;
        }
        match (c, chars.peek()) {
            ('/', Some('/')) => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                block = true;
            }
            _ => out.push(c),
        }
    }
    out
}

/// The statements of `text` (split at `;`, at the braces of blocks and after labels)
/// with their line. A brace that opens inside a statement is an operand, not a block:
/// a vector (`ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];`, `mov.b64 {%r1, %r2},
/// %rd1;`, `tex.1d.v4.f32.s32 {..}, [%rd1, {%r5}];`, `mma`'s fragments) or an
/// initializer (`.global .b8 t[2] = {1, 2};`): it stays in its statement.
fn statements(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let (mut start, mut line) = (1, 1);
    let (mut blocks, mut operand) = (0usize, 0usize);
    for c in text.chars() {
        if current.trim().is_empty() {
            start = line;
        }
        match c {
            '{' if operand > 0 || opens_operand(&current, blocks) => {
                operand += 1;
                current.push(c);
            }
            '}' if operand > 0 => {
                operand -= 1;
                current.push(c);
            }
            ';' => out.push((start, std::mem::take(&mut current))),
            '{' | '}' => {
                blocks = if c == '{' { blocks + 1 } else { blocks.saturating_sub(1) };
                out.push((start, std::mem::take(&mut current)));
                out.push((line, c.to_string()));
            }
            ':' if !current.contains('(') && !current.trim().contains(char::is_whitespace) && !current.trim().is_empty() => {
                current.push(':');
                out.push((start, std::mem::take(&mut current)));
            }
            _ => current.push(c),
        }
        if c == '\n' {
            line += 1;
            if ends_at_line_break(&current) {
                out.push((start, std::mem::take(&mut current)));
            }
        }
    }
    out.push((start, current));
    out.into_iter().map(|(l, s)| (l, s.trim().to_string())).filter(|(_, s)| !s.is_empty()).collect()
}

/// Whether `current` is a directive that ends at its line break, without `;`: the
/// debug line directives `.loc` and `.file` (`nvcc -lineinfo`, `-G`), which would
/// otherwise swallow the instruction on the next line.
fn ends_at_line_break(current: &str) -> bool {
    let t = current.trim_start();
    [".loc", ".file"].iter().any(|d| t.strip_prefix(d).is_some_and(|rest| rest.starts_with(char::is_whitespace)))
}

/// Whether a `{` after `current` (the statement so far, inside `blocks` open blocks)
/// opens an operand: inside a body after an opcode, or after `=` anywhere. A `{` that
/// starts a statement opens a block (a body, a scope), as does the one after a header.
fn opens_operand(current: &str, blocks: usize) -> bool {
    let t = current.trim();
    !t.is_empty() && (blocks > 0 || t.ends_with('='))
}

/// Reads a PTX module: its `.entry` kernels (`.func` device functions are not kernels)
/// and its `.target`.
pub fn read(text: &str) -> Listing {
    let mut listing = Listing::default();
    let mut depth = 0usize;
    let mut header: Option<(String, usize, Resources)> = None;
    let mut current: Option<Function> = None;
    let mut module_shared = 0u64;
    // Module-level `.extern .shared` arrays (what `extern __shared__` compiles to).
    let mut module_dynamic: Vec<String> = Vec::new();
    for (line, st) in statements(&strip_comments(text)) {
        match st.as_str() {
            "{" => {
                depth += 1;
                if depth == 1 {
                    if let Some((name, l, resources)) = header.take() {
                        current = Some(Function { name, line: l, items: Vec::new(), resources });
                    }
                }
                continue;
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    listing.functions.extend(current.take());
                }
                continue;
            }
            _ => {}
        }
        if depth == 0 {
            if let Some(at) = st.find(".target") {
                let t = &st[at + ".target".len()..];
                listing.arch = t.split([',', ' ', '\t', '\n']).map(str::trim).find(|a| a.starts_with("sm_")).map(str::to_string);
            }
            if let Some(rest) = entry_name(&st) {
                let threads = |d: &str| crate::import::resources::ptx_threads(&st, d);
                let r = Resources { required_threads: threads(".reqntid"), max_threads: threads(".maxntid"), ..Resources::default() };
                header = Some((rest, line, r));
            } else if let Some((bytes, dynamic)) = crate::import::resources::ptx_shared(&st) {
                module_shared += bytes;
                module_dynamic.extend(crate::import::resources::ptx_shared_name(&st).filter(|_| dynamic));
            }
            continue;
        }
        let Some(f) = current.as_mut() else { continue };
        if let Some((bytes, dynamic)) = crate::import::resources::ptx_shared(&st) {
            f.resources.shared_memory = Some(f.resources.shared_memory.unwrap_or(0) + bytes);
            f.resources.dynamic_shared_memory |= dynamic;
            continue;
        }
        if let Some(label) = st.strip_suffix(':') {
            f.items.push(Item::Label(label.trim().to_string()));
            continue;
        }
        if st.starts_with('.') {
            continue;
        }
        let (predicated, never, rest) = predicate(&st);
        let opcode = rest.split_whitespace().next().unwrap_or("").to_string();
        // A kernel that names a module's dynamic shared array, or calls a function that
        // may, uses the launch's dynamic shared memory.
        let calls = opcode.to_ascii_lowercase().starts_with("call");
        f.resources.dynamic_shared_memory |= module_dynamic.iter().any(|n| calls || mentions(rest, n));
        let target = opcode
            .to_ascii_lowercase()
            .starts_with("bra")
            .then(|| rest.split_whitespace().last().map(|t| Target::Label(t.trim_end_matches(',').to_string())))
            .flatten();
        f.items.push(Item::Instr(Instr { opcode, line, predicated, never, target, address: None }));
    }
    // PTX states every static shared declaration: none is 0 bytes, and a module-level
    // one may be used by any kernel, so it counts for each.
    for f in &mut listing.functions {
        f.resources.shared_memory = Some(f.resources.shared_memory.unwrap_or(0) + module_shared);
    }
    listing
}

/// Whether `statement` names the symbol `name` as a whole identifier (`s_Data` in
/// `mov.u64 %rd1, s_Data;` or `[s_Data+4]`, not in `s_Data2`).
fn mentions(statement: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    statement.match_indices(name).any(|(at, _)| {
        !statement[..at].chars().next_back().is_some_and(ident) && !statement[at + name.len()..].chars().next().is_some_and(ident)
    })
}

/// The kernel name of a `.entry NAME(` header (`.visible .entry saxpy(`).
fn entry_name(st: &str) -> Option<String> {
    let at = st.find(".entry")?;
    let rest = st[at + ".entry".len()..].trim_start();
    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_entries_labels_and_predicates() {
        let text = ".version 6.0\n.target sm_60 // x\n.visible .entry k(\n .param .u32 a\n)\n{\n .reg .pred %p<2>;\n /* c */ ld.param.u32 %r1, [a];\n @%p1 bra $L1;\n add.s32 %r2, %r1, 1; mul.lo.s32 %r3, %r2, 2;\n$L1:\n ret;\n}\n";
        let l = read(text);
        assert_eq!(l.arch.as_deref(), Some("sm_60"));
        assert_eq!(l.functions.len(), 1);
        let f = &l.functions[0];
        assert_eq!(f.name, "k");
        let ops: Vec<String> = f
            .items
            .iter()
            .map(|i| match i {
                Item::Label(l) => format!("{l}:"),
                Item::Instr(x) => format!("{}@{}{}", x.opcode, x.line, if x.predicated { "?" } else { "" }),
            })
            .collect();
        assert_eq!(ops, vec!["ld.param.u32@8", "bra@9?", "add.s32@10", "mul.lo.s32@10", "$L1:", "ret@12"]);
        let Item::Instr(b) = &f.items[1] else { panic!() };
        assert_eq!(b.target, Some(Target::Label("$L1".into())));
    }

    fn opcodes(f: &Function) -> Vec<String> {
        f.items.iter().filter_map(|i| if let Item::Instr(x) = i { Some(x.opcode.clone()) } else { None }).collect()
    }

    /// Brace operands stay in their instruction; a brace that starts a statement opens
    /// a scope block whose instructions count; an initializer's braces are data.
    #[test]
    fn brace_operands_are_operands_and_scopes_are_blocks() {
        let text = ".target sm_62\n.global .align 4 .b8 t[4] = {1, 2, {3, 4}};\n.visible .entry k()\n{\n ld.global.v4.u32 {%r14, %r15, %r16, %r17}, [%rd7];\n mov.b64 {%r1, %r2}, %fd1;\n {\n .reg .b32 %tmp;\n tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r5}];\n }\n st.shared.v2.u32 [%rd2], {%r1,\n %r2};\n ret;\n}\n";
        let l = read(text);
        assert_eq!(l.functions.len(), 1);
        let f = &l.functions[0];
        assert_eq!(opcodes(f), ["ld.global.v4.u32", "mov.b64", "tex.1d.v4.f32.s32", "st.shared.v2.u32", "ret"]);
        let Item::Instr(st) = &f.items[3] else { panic!() };
        assert_eq!(st.line, 11);
    }

    /// `-lineinfo`'s `.loc` and `.file` lines end at their line break, without `;`.
    #[test]
    fn debug_line_directives_swallow_nothing() {
        let text = ".target sm_62\n.file 1 \"k.cu\"\n.visible .entry k()\n{\n .loc 1 10 3\n mov.u32 %r1, %tid.x;\n .loc 1 11 3\n @%p1 bra $L1;\n$L1:\n ret;\n}\n";
        assert_eq!(opcodes(&read(text).functions[0]), ["mov.u32", "bra", "ret"]);
    }

    /// A module's `.extern .shared` array flags the kernels that name it (or call a
    /// function, which might) as using dynamic shared memory, not the others.
    #[test]
    fn dynamic_shared_memory_follows_the_name() {
        let text = ".extern .shared .align 16 .b8 sdata[];\n.shared .align 4 .b8 fixed[64];\n.visible .entry uses()\n{\n mov.u64 %rd1, sdata;\n ret;\n}\n.visible .entry other()\n{\n mov.u64 %rd1, sdata2;\n ld.shared.u32 %r1, [_Zsdata];\n ret;\n}\n.visible .entry calls()\n{\n call.uni f, ();\n ret;\n}\n";
        let l = read(text);
        let dynamic: Vec<bool> = l.functions.iter().map(|f| f.resources.dynamic_shared_memory).collect();
        assert_eq!(dynamic, [true, false, true]);
        assert!(l.functions.iter().all(|f| f.resources.shared_memory == Some(64)));
        assert!(mentions("ld.shared.u32 %r1, [sdata+4]", "sdata") && !mentions("mov.u64 %rd1, s_sdata", "sdata"));
    }
}
