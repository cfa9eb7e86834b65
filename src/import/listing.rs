//! What the PTX and SASS readers produce: the functions of a file, each a list of labels
//! and instructions with their line numbers.

/// Where a branch goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A label (`$L__BB0_2`, `.L_x_0`).
    Label(String),
    /// An address (`cuobjdump` prints `BRA 0x90`).
    Address(u64),
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instr {
    /// Opcode with its modifiers (`ld.global.f32`, `LDG.E.SYS`).
    pub opcode: String,
    /// 1-based line in the file.
    pub line: usize,
    /// Guarded by a predicate (`@%p1`, `@P0`, `@!P1`).
    pub predicated: bool,
    /// Guarded by the false predicate (`@!PT`): never executes.
    pub never: bool,
    /// Branch target, for instructions with one.
    pub target: Option<Target>,
    /// Address (SASS), if printed.
    pub address: Option<u64>,
}

/// A label or an instruction, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A label.
    Label(String),
    /// An instruction.
    Instr(Instr),
}

/// One kernel (PTX `.entry`, SASS function).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// 1-based line of its header.
    pub line: usize,
    /// Its body.
    pub items: Vec<Item>,
    /// What the file states about its resources.
    pub resources: crate::import::resources::Resources,
}

/// A file's functions and the architecture it names, if any.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Listing {
    /// Kernels, in file order.
    pub functions: Vec<Function>,
    /// `sm_NN` as the file states it (PTX `.target`, SASS headers).
    pub arch: Option<String>,
}

/// Splits `@P0 OP` / `@!%p1 op` into (predicated, never, rest).
pub fn predicate(text: &str) -> (bool, bool, &str) {
    let t = text.trim_start();
    match t.strip_prefix('@') {
        Some(rest) => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let guard = &rest[..end];
            (true, guard.eq_ignore_ascii_case("!PT"), rest[end..].trim_start())
        }
        None => (false, false, t),
    }
}
