//! What a kernel file states about a block's resources: static shared memory (PTX
//! `.shared` declarations, SASS `.nv.shared.NAME` sections, `SHARED:N` of
//! `cuobjdump -res-usage`, `N bytes smem` of `ptxas -v`), registers per thread
//! (`SHI_REGISTERS=N` of `nvdisasm`, `REG:N`, `Used N registers`), and PTX's
//! `.reqntid` / `.maxntid`. Whatever a file does not state stays `None`: never 0.

use serde::Serialize;
use std::collections::HashMap;

/// One kernel's resources as its file states them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Resources {
    /// Static shared memory per block in bytes (`None`: not stated).
    pub shared_memory: Option<u64>,
    /// The kernel declares dynamic shared memory (`.extern .shared`), whose size is
    /// given at launch, not in the file.
    pub dynamic_shared_memory: bool,
    /// Registers per thread (`None`: not stated; PTX has none, it is virtual).
    pub registers_per_thread: Option<u64>,
    /// `.reqntid`: the block size the kernel requires (threads, all dimensions).
    pub required_threads: Option<u64>,
    /// `.maxntid`: the largest block size the kernel allows.
    pub max_threads: Option<u64>,
    /// The launch's dynamic shared memory per block in bytes, as the user gives it
    /// (`--dynamic-smem`; `None`: not given). A launch allocates it whether or not the
    /// kernel declares dynamic shared memory.
    pub dynamic_shared_memory_bytes: Option<u64>,
    /// Static plus the launch's dynamic shared memory: a block's whole shared memory
    /// (`None` while either part is unknown).
    pub shared_memory_per_block: Option<u64>,
}

impl Resources {
    /// `self` with what `other` states where `self` states nothing.
    pub fn or(self, other: Resources) -> Resources {
        Resources {
            shared_memory: self.shared_memory.or(other.shared_memory),
            dynamic_shared_memory: self.dynamic_shared_memory || other.dynamic_shared_memory,
            registers_per_thread: self.registers_per_thread.or(other.registers_per_thread),
            required_threads: self.required_threads.or(other.required_threads),
            max_threads: self.max_threads.or(other.max_threads),
            dynamic_shared_memory_bytes: self.dynamic_shared_memory_bytes.or(other.dynamic_shared_memory_bytes),
            shared_memory_per_block: None,
        }
        .with_launch(None)
    }

    /// `self` with the launch's dynamic shared memory `dynamic` (over what `self` holds)
    /// and the block's whole shared memory: static plus dynamic, when the file states
    /// the static part and the dynamic one is given.
    pub fn with_launch(self, dynamic: Option<u64>) -> Resources {
        let bytes = dynamic.or(self.dynamic_shared_memory_bytes);
        Resources { dynamic_shared_memory_bytes: bytes, shared_memory_per_block: self.shared_memory.zip(bytes).map(|(s, d)| s + d), ..self }
    }
}

/// What resource-usage text (`usage_lines`) states for `kernel` over what its file
/// states (`file`); the error's reason when the text states nothing for it.
pub fn over_usage(text: &str, kernel: &str, file: Resources) -> Result<Resources, String> {
    let usage = usage_lines(text).get(kernel).copied().ok_or_else(|| format!("states nothing for the kernel {kernel}"))?;
    Ok(usage.or(file))
}

/// Bytes of one element of a PTX type (`.b8` 1 ... `.f64` 8).
fn type_bytes(t: &str) -> Option<u64> {
    let digits: String = t.trim_start_matches('.').chars().skip(1).collect();
    match (t.trim_start_matches('.').chars().next()?, digits.parse::<u64>().ok()?) {
        ('b' | 'u' | 's' | 'f', bits) if bits >= 8 && bits % 8 == 0 => Some(bits / 8),
        _ => None,
    }
}

/// The bytes a PTX `.shared` declaration reserves (`.shared .align 4 .b8 sdata[1024]`,
/// `.shared .f32 tile[16][17]`), and whether it is `.extern` (dynamic, size unknown).
pub fn ptx_shared(statement: &str) -> Option<(u64, bool)> {
    let words: Vec<&str> = statement.split_whitespace().collect();
    if !words.contains(&".shared") || words.first().is_some_and(|w| !w.starts_with('.')) {
        return None;
    }
    if words.contains(&".extern") {
        return Some((0, true));
    }
    let elem = words.iter().filter_map(|w| type_bytes(w)).next()?;
    let decl = words.last()?;
    let count: u64 = decl.split('[').skip(1).map(|d| d.trim_end_matches(']').trim().parse::<u64>().unwrap_or(1)).product();
    Some((elem * count.max(1), false))
}

/// The name a PTX `.shared` declaration declares (`sdata` of `.extern .shared .align 16
/// .b8 sdata[];`).
pub fn ptx_shared_name(statement: &str) -> Option<String> {
    let decl = statement.split_whitespace().last()?;
    let name = decl.split('[').next()?.trim();
    (!name.is_empty() && !name.starts_with('.')).then(|| name.to_string())
}

/// The thread count of a `.reqntid 16, 16` / `.maxntid 256` directive in `header`.
pub fn ptx_threads(header: &str, directive: &str) -> Option<u64> {
    let at = header.find(directive)?;
    let rest = &header[at + directive.len()..];
    let dims: Vec<u64> = rest.split(',').map_while(|d| d.split_whitespace().next()?.parse().ok()).collect();
    (!dims.is_empty()).then(|| dims.iter().product())
}

/// Per kernel name, what resource-usage text states: `ptxas -v` (`Compiling entry
/// function 'NAME'` then `Used N registers, M bytes smem`), `cuobjdump -res-usage`
/// (`Function NAME:` then `REG:N ... SHARED:M`), and `nvdisasm`'s
/// `.section .text.NAME` with `SHI_REGISTERS=N` and `.nv.shared.NAME` with `.zero N`.
pub fn usage_lines(text: &str) -> HashMap<String, Resources> {
    let mut out: HashMap<String, Resources> = HashMap::new();
    let mut current: Option<String> = None;
    let mut shared_section: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(name) = between(line, "entry function '", "'").or_else(|| between(line, "Function properties for ", "")) {
            current = Some(name);
        } else if let Some(name) = line.strip_prefix("Function ").and_then(|r| r.strip_suffix(':')) {
            current = Some(name.trim().to_string());
        } else if let Some(name) = between(line, ".section", ",").map(|s| s.trim().to_string()) {
            shared_section = name.strip_prefix(".nv.shared.").map(str::to_string);
            if let Some(n) = name.strip_prefix(".text.") {
                current = Some(n.to_string());
            }
        }
        let Some(name) = current.clone() else { continue };
        let entry = out.entry(name).or_default();
        if let Some(r) = number_after(line, "Used ").filter(|_| line.contains("registers")) {
            entry.registers_per_thread = Some(r);
        }
        if let Some(r) = number_after(line, "REG:").or_else(|| number_after(line, "SHI_REGISTERS=")) {
            entry.registers_per_thread = Some(r);
        }
        if let Some(s) = number_after(line, "SHARED:").or_else(|| number_before(line, "bytes smem")) {
            entry.shared_memory = Some(s);
        }
        if let (Some(section), Some(z)) = (&shared_section, number_after(line, ".zero")) {
            out.entry(section.clone()).or_default().shared_memory = Some(z);
        }
    }
    out.retain(|_, r| *r != Resources::default());
    out
}

fn between(line: &str, start: &str, end: &str) -> Option<String> {
    let at = line.find(start)? + start.len();
    let rest = &line[at..];
    let stop = if end.is_empty() { rest.len() } else { rest.find(end)? };
    let s = rest[..stop].trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn number_after(line: &str, key: &str) -> Option<u64> {
    let at = line.find(key)? + key.len();
    line[at..].trim_start().split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

fn number_before(line: &str, key: &str) -> Option<u64> {
    let at = line.find(key)?;
    line[..at].split(|c: char| !c.is_ascii_digit()).rfind(|s| !s.is_empty())?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_declarations() {
        assert_eq!(ptx_shared(".shared .align 4 .b8 sdata[1024]"), Some((1024, false)));
        assert_eq!(ptx_shared(".shared .f32 tile[32][33]"), Some((4224, false)));
        assert_eq!(ptx_shared(".extern .shared .align 16 .b8 dyn[]"), Some((0, true)));
        assert_eq!(ptx_shared("st.shared.f32 [%r1], %f1"), None);
        assert_eq!(ptx_threads(".visible .entry k( .param .u64 a ) .reqntid 16, 16, 1", ".reqntid"), Some(256));
        assert_eq!(ptx_threads(".entry k() .maxntid 128", ".maxntid"), Some(128));
        assert_eq!(ptx_shared_name(".extern .shared .align 16 .b8 s_Data[]").as_deref(), Some("s_Data"));
        assert_eq!(ptx_shared_name(".shared .f32 tile[32][33]").as_deref(), Some("tile"));
    }

    /// The launch's dynamic size is kept through `or` (resource-usage text over the
    /// file's) and summed with the static size only when both are known.
    #[test]
    fn launch_size_and_the_block_total() {
        let file = Resources { shared_memory: Some(2112), dynamic_shared_memory: true, ..Resources::default() }.with_launch(Some(64));
        assert_eq!((file.dynamic_shared_memory_bytes, file.shared_memory_per_block), (Some(64), Some(2176)));
        let usage = "Function k:\n  REG:26 STACK:0 SHARED:4096 LOCAL:0\n";
        let merged = over_usage(usage, "k", file).unwrap();
        assert_eq!((merged.registers_per_thread, merged.shared_memory, merged.shared_memory_per_block), (Some(26), Some(4096), Some(4160)));
        assert!(merged.dynamic_shared_memory);
        assert_eq!(Resources { shared_memory: Some(8), ..Resources::default() }.with_launch(None).shared_memory_per_block, None);
        assert_eq!(Resources::default().with_launch(Some(64)).shared_memory_per_block, None);
        assert!(over_usage(usage, "other", file).unwrap_err().contains("other"));
    }

    #[test]
    fn resource_usage_text() {
        let ptxas = "ptxas info    : Compiling entry function '_Z9transposePfS_ii' for 'sm_62'\nptxas info    : Function properties for _Z9transposePfS_ii\n    0 bytes stack frame\nptxas info    : Used 12 registers, 4224 bytes smem, 344 bytes cmem[0]\n";
        let r = usage_lines(ptxas)["_Z9transposePfS_ii"];
        assert_eq!((r.registers_per_thread, r.shared_memory), (Some(12), Some(4224)));
        let cuobjdump = "Resource usage:\n Common:\n  GLOBAL:0\n Function _Z3addPf:\n  REG:8 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:328\n";
        let r = usage_lines(cuobjdump)["_Z3addPf"];
        assert_eq!((r.registers_per_thread, r.shared_memory), (Some(8), Some(1024)));
        let nvdisasm = "\t.section\t.text.gemm_tiled,\"ax\",@progbits\n\t.sectioninfo\t@\"SHI_REGISTERS=62\"\n\t.section\t.nv.shared.gemm_tiled,\"aw\",@nobits\n\t.zero\t\t2048\n";
        let r = usage_lines(nvdisasm)["gemm_tiled"];
        assert_eq!((r.registers_per_thread, r.shared_memory), (Some(62), Some(2048)));
    }
}
