//! Reads SASS as `cuobjdump -sass` and `nvdisasm` print it: a header per function
//! (`Function : NAME`, or `.text.NAME:` and `NAME:` labels), address comments
//! (`/*0048*/`), encoding and control-code comments, predicates (`@P0`, `@!PT`),
//! dual-issue braces `{ ... }`, and `.L_x_N:` labels. `BRA.DIV` (taken only when the
//! warp has diverged) counts as a conditional branch.

use crate::import::listing::{predicate, Function, Instr, Item, Listing, Target};

/// Reads a SASS listing: its functions and the architecture its header names.
pub fn read(text: &str) -> Listing {
    let mut listing = Listing::default();
    let mut current: Option<Function> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if listing.arch.is_none() {
            listing.arch = arch_of(t);
        }
        if let Some(name) = function_header(t) {
            listing.functions.extend(current.take());
            current = Some(Function { name, line, items: Vec::new(), resources: Default::default() });
            continue;
        }
        let Some(f) = current.as_mut() else { continue };
        let (address, body) = address_of(t);
        let body = body.split("/*").next().unwrap_or("").trim().trim_start_matches('{').trim_end_matches('}').trim();
        if body.is_empty() || body.starts_with('.') && !body.ends_with(':') {
            continue;
        }
        if let Some(label) = body.strip_suffix(':') {
            if label == format!(".text.{}", f.name) || label == f.name {
                continue;
            }
            f.items.push(Item::Label(label.to_string()));
            continue;
        }
        if address.is_none() {
            continue;
        }
        let body = body.trim_end_matches(';').trim();
        let (predicated, never, rest) = predicate(body);
        // `BRA.DIV` is taken only when the warp has diverged: a conditional branch.
        let predicated = predicated || rest.to_ascii_uppercase().starts_with("BRA.DIV");
        let opcode = rest.split_whitespace().next().unwrap_or("").trim_end_matches(';').to_string();
        if opcode.is_empty() {
            continue;
        }
        let upper = opcode.to_ascii_uppercase();
        let jumps = ["BRA", "JMP", "BRX", "CAL"].iter().any(|p| upper.starts_with(p));
        let target = jumps.then(|| branch_target(rest)).flatten();
        f.items.push(Item::Instr(Instr { opcode, line, predicated, never, target, address }));
    }
    listing.functions.extend(current);
    let usage = crate::import::resources::usage_lines(text);
    for f in &mut listing.functions {
        f.resources = usage.get(&f.name).copied().unwrap_or_default();
    }
    listing
}

/// `Function : NAME` (cuobjdump) or `.text.NAME:` (nvdisasm).
fn function_header(t: &str) -> Option<String> {
    if let Some(rest) = t.strip_prefix("Function :").or_else(|| t.strip_prefix("Function:")) {
        return Some(rest.trim().to_string());
    }
    let name = t.strip_prefix(".text.")?.strip_suffix(':')?;
    Some(name.to_string())
}

/// `sm_NN` from `arch = sm_62` or `code for sm_62` (cuobjdump), `.target sm_75`
/// (nvdisasm 12.x and 13.x) or `EF_CUDA_SM75` (`.headerflags`).
fn arch_of(t: &str) -> Option<String> {
    let stated = t.strip_prefix("arch =").or_else(|| t.strip_prefix("code for")).or_else(|| t.strip_prefix(".target"));
    if let Some(rest) = stated {
        let word = rest.trim().split([' ', '\t', ',']).next().unwrap_or("");
        if word.starts_with("sm_") {
            return Some(word.to_string());
        }
    }
    let at = t.find("EF_CUDA_SM")?;
    let digits: String = t[at + "EF_CUDA_SM".len()..].chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty()).then(|| format!("sm_{digits}"))
}

/// A leading `/*0048*/` address comment, and the rest.
fn address_of(t: &str) -> (Option<u64>, &str) {
    let Some(rest) = t.strip_prefix("/*") else { return (None, t) };
    let Some(end) = rest.find("*/") else { return (None, t) };
    match u64::from_str_radix(rest[..end].trim(), 16) {
        Ok(a) if !rest[..end].trim().starts_with("0x") => (Some(a), rest[end + 2..].trim()),
        _ => (None, t),
    }
}

/// `` `(.L_x_0) `` (nvdisasm, with or without a trailing `(*"BRANCH_TARGETS ..."*)`) or
/// `0x90` (cuobjdump).
fn branch_target(rest: &str) -> Option<Target> {
    let rest = rest.split("(*").next().unwrap_or(rest);
    let last = rest.split_whitespace().last()?.trim_end_matches(';');
    if let Some(l) = last.strip_prefix("`(").and_then(|l| l.strip_suffix(')')) {
        return Some(Target::Label(l.to_string()));
    }
    let hex = last.strip_prefix("0x")?;
    u64::from_str_radix(hex, 16).ok().map(Target::Address)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cuobjdump_and_nvdisasm() {
        let cuobjdump = "\tcode for sm_62\n\t\tFunction : _Z1kPf\n\t.headerflags    @\"EF_CUDA_SM62\"\n        /* 0x001c4400fe0007f6 */\n        /*0008*/                   MOV R1, c[0x0][0x20];          /* 0x4c98078000870001 */\n        /*0010*/         {         LDG.E R2, [R2];                /* 0xeed4200000070202 */\n        /*0018*/                   BAR.SYNC 0x0;        }         /* 0xf0a81b8000070000 */\n        /*0020*/               @P0 BRA 0x8;                       /* 0xe2400fffff87000f */\n        /*0028*/               @!PT LDS RZ, [RZ];                 /* 0xef4803ff0007ffff */\n        /*0030*/                   EXIT;                          /* 0xe30000000007000f */\n";
        let l = read(cuobjdump);
        assert_eq!(l.arch.as_deref(), Some("sm_62"));
        let f = &l.functions[0];
        assert_eq!(f.name, "_Z1kPf");
        let ops: Vec<(String, bool, bool)> = f
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Instr(x) => Some((x.opcode.clone(), x.predicated, x.never)),
                Item::Label(_) => None,
            })
            .collect();
        assert_eq!(ops.len(), 6);
        assert_eq!(ops[1].0, "LDG.E");
        assert_eq!(ops[2].0, "BAR.SYNC");
        assert_eq!(ops[4], ("LDS".to_string(), true, true));
        let Item::Instr(b) = &f.items[3] else { panic!() };
        assert_eq!(b.target, Some(Target::Address(8)));
        let nvdisasm = "\t.headerflags\t@\"EF_CUDA_SM75 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM60)\"\n.text.saxpy:\n        /*0000*/                   MOV R1, c[0x0][0x28] ;\n.L_x_0:\n        /*0050*/               @P0 EXIT ;\n        /*00e0*/                   BRA `(.L_x_0);\n";
        let l = read(nvdisasm);
        assert_eq!(l.arch.as_deref(), Some("sm_75"));
        assert_eq!(l.functions[0].items.len(), 4);
        let Item::Instr(b) = &l.functions[0].items[3] else { panic!() };
        assert_eq!(b.target, Some(Target::Label(".L_x_0".into())));
    }
}
