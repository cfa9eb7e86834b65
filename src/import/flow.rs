//! From a function's listing to the instruction string one warp executes.
//!
//! - A trace (`trace`) is one executed path: every instruction in file order, branches
//!   counted as instructions and not followed.
//! - Static code is walked from its first instruction. An unconditional forward branch
//!   is followed. A branch to a label with a trip count (`--trip LABEL=N`): backward,
//!   the loop body runs `N` times (taken `N - 1` times, then it falls through, and the
//!   count restarts for the next entry to the loop); forward, `0` means never taken and
//!   any other value always taken (a loop's count is at least 1). A predicated
//!   `exit`/`ret` is a branch to `EXIT`. A SASS call to a subroutine of the function
//!   (`CALL.REL.NOINC 0x5b0`) is followed to its `RET`; an unconditional jump back to
//!   code the path has not run yet (a divergent path rejoining) is followed, not taken
//!   for a loop. Any other branch is refused, naming it and the two ways forward.
//! - Predicated instructions other than branches are counted (a warp issues them
//!   whatever the predicate); `@!PT` ones never execute and are skipped. Barriers
//!   become `|`; branches and exits taken on the path are issued on the cores (`C`).

use crate::error::InputError;
use crate::import::listing::{Function, Instr, Item, Target};
use crate::import::units::{Class, UnitMap};
use std::collections::{BTreeMap, HashMap};

/// Most instructions a walk visits (loops unrolled).
pub const MAX_WALK: usize = 1_000_000;

/// Deepest nesting of SASS subroutine calls followed.
pub const MAX_CALL_DEPTH: usize = 64;

/// The executed path as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Path {
    /// `L`/`C` with `|` at barriers.
    pub kernel: String,
    /// Instructions on the path per class name (`L`, `C`, `none`, `barrier`, `branch`, `exit`).
    pub classes: BTreeMap<String, u64>,
    /// Instructions on the path per map key (opcode class), e.g. `ld`, `fma`, `ld.param`.
    pub opcodes: BTreeMap<String, u64>,
}

impl Path {
    fn push(&mut self, class: Class, key: &str) {
        *self.classes.entry(class.name().to_string()).or_default() += 1;
        *self.opcodes.entry(key.to_string()).or_default() += 1;
        match class {
            Class::L => self.kernel.push('L'),
            Class::C | Class::Branch | Class::Exit => self.kernel.push('C'),
            Class::Barrier => self.kernel.push('|'),
            Class::Skip => {}
        }
    }
}

/// A branch the walk reached with no trip count: its target's name (label, `0x` address
/// or `EXIT`), its instruction, its item index and whether it goes backward.
pub struct Undecided<'a> {
    /// `$L__BB0_2`, `.L_x_3`, `0x260` or `EXIT`.
    pub target: String,
    /// Its item index in the function; `to` is the target's (for `EXIT`, the end).
    pub at: usize,
    /// The target's item index.
    pub to: usize,
    /// The branch instruction.
    pub instr: &'a Instr,
}

/// The path of `f` under `map` (`origin` names the file in errors). A branch that needs a
/// trip count and has none is refused, naming it.
pub fn walk(f: &Function, map: &UnitMap, trace: bool, trips: &HashMap<String, u64>, origin: &str) -> Result<Path, InputError> {
    walk_with(f, map, trace, trips, origin, &mut |u| Err(undecided_error(&u, origin)))
}

/// [`walk`], asking `undecided` whether a branch with no trip count is taken (it may
/// refuse instead): the listing of every such branch walks with it.
pub fn walk_with(
    f: &Function,
    map: &UnitMap,
    trace: bool,
    trips: &HashMap<String, u64>,
    origin: &str,
    undecided: &mut dyn FnMut(Undecided) -> Result<bool, InputError>,
) -> Result<Path, InputError> {
    let instrs: Vec<(usize, &Instr)> =
        f.items.iter().enumerate().filter_map(|(i, it)| if let Item::Instr(x) = it { Some((i, x)) } else { None }).collect();
    let classify = |x: &Instr| {
        map.class(&x.opcode).ok_or_else(|| {
            InputError::new(
                "opcode",
                &x.opcode,
                format!(
                    "{origin}:{}: not in the unit map {}; add it to a unit map of your own (units), or set default = \"C\" (or \"L\") there",
                    x.line, map.name
                ),
            )
        })
    };
    let mut path = Path::default();
    let labels: HashMap<&str, usize> =
        f.items.iter().enumerate().filter_map(|(i, it)| if let Item::Label(l) = it { Some((l.as_str(), i)) } else { None }).collect();
    if trace {
        let static_code = |why: String| {
            InputError::new(
                "trace",
                origin,
                format!("{why}: this is static code, not one executed path; import it without trace, with trip counts"),
            )
        };
        // A trace lists one path: a branch to a label the file defines is static code.
        if let Some((_, x)) = instrs.iter().find(|(_, x)| matches!(&x.target, Some(Target::Label(l)) if labels.contains_key(l.as_str()))) {
            return Err(static_code(format!("line {}: a branch to a label the file defines", x.line)));
        }
        let mut exit: Option<usize> = None;
        for (_, x) in &instrs {
            let (class, key) = classify(x)?;
            if let Some(at) = exit {
                return Err(static_code(format!("line {} follows the unconditional exit at line {at}", x.line)));
            }
            if class == Class::Exit && !x.predicated {
                exit = Some(x.line);
            }
            if !x.never {
                path.push(class, &key);
            }
        }
        return Ok(path);
    }
    let addresses: HashMap<u64, usize> = instrs.iter().filter_map(|(i, x)| x.address.map(|a| (a, *i))).collect();
    let mut taken: HashMap<usize, u64> = HashMap::new();
    let mut calls: Vec<usize> = Vec::new();
    let mut visited = vec![false; f.items.len()];
    let mut pc = 0usize;
    let mut steps = 0usize;
    while pc < f.items.len() {
        let Item::Instr(x) = &f.items[pc] else {
            pc += 1;
            continue;
        };
        steps += 1;
        if steps > MAX_WALK {
            let largest = trips.iter().max_by_key(|(_, n)| **n).map_or(String::new(), |(k, n)| format!(" (the largest: {k}={n})"));
            return Err(InputError::option(
                "trip",
                "",
                format!("the path of {} in {origin} passes {MAX_WALK} instructions: give smaller trip counts{largest}", f.name),
            ));
        }
        let (class, key) = classify(x)?;
        if x.never {
            pc += 1;
            continue;
        }
        path.push(class, &key);
        visited[pc] = true;
        let opcode_is = |head: &str| x.opcode.get(..head.len()).is_some_and(|h| h.eq_ignore_ascii_case(head));
        match class {
            // A SASS subroutine's return goes back to its call.
            Class::Exit if opcode_is("RET") && !calls.is_empty() && !x.predicated => {
                pc = calls.pop().expect("not empty");
            }
            Class::Exit if !x.predicated => return Ok(path),
            // A SASS call to a subroutine of the function (`CALL.REL.NOINC 0x5b0`, `CAL`):
            // followed, its return address kept.
            Class::Branch if opcode_is("CAL") && x.target.is_some() && !x.predicated => {
                let (_, to) = resolve(x, &labels, &addresses, origin)?;
                if calls.len() >= MAX_CALL_DEPTH {
                    return Err(InputError::new(
                        "branch",
                        &x.opcode,
                        format!("{origin}:{}: calls nest deeper than {MAX_CALL_DEPTH}", x.line),
                    ));
                }
                calls.push(pc + 1);
                pc = to;
            }
            Class::Exit => {
                let u = Undecided { target: "EXIT".into(), at: pc, to: f.items.len(), instr: x };
                match decide(u, trips, &mut taken, undecided)? {
                    true => return Ok(path),
                    false => pc += 1,
                }
            }
            Class::Branch => {
                let (target, to) = resolve(x, &labels, &addresses, origin)?;
                // An unconditional jump back to code the path has not run (a divergent
                // path rejoining the main one) is a jump, not a loop.
                let first = (to..f.items.len()).find(|&i| matches!(f.items[i], Item::Instr(_)));
                let rejoin = !x.predicated && to <= pc && first.is_some_and(|i| !visited[i]);
                pc = if rejoin || decide(Undecided { target, at: pc, to, instr: x }, trips, &mut taken, undecided)? { to } else { pc + 1 };
            }
            _ => pc += 1,
        }
    }
    Ok(path)
}

/// The instruction at address `a`: the one printed there, or, where `a` is the control
/// word that opens a Maxwell/Pascal bundle of four 8-byte slots (`cuobjdump` prints it
/// without an address), the first instruction after it.
pub fn instruction_at<T: Copy>(addresses: &HashMap<u64, T>, a: u64) -> Option<T> {
    addresses.get(&a).or_else(|| if a.is_multiple_of(32) { addresses.get(&(a + 8)) } else { None }).copied()
}

/// The label name and item index a branch goes to.
fn resolve(x: &Instr, labels: &HashMap<&str, usize>, addresses: &HashMap<u64, usize>, origin: &str) -> Result<(String, usize), InputError> {
    let missing =
        |what: String| InputError::new("branch", &x.opcode, format!("{origin}:{}: target {what} not found in the function", x.line));
    match &x.target {
        Some(Target::Label(l)) => labels.get(l.as_str()).map(|&i| (l.clone(), i)).ok_or_else(|| missing(l.clone())),
        Some(Target::Address(a)) => instruction_at(addresses, *a).map(|i| (format!("{a:#x}"), i)).ok_or_else(|| missing(format!("{a:#x}"))),
        None => Err(InputError::new(
            "branch",
            &x.opcode,
            format!(
                "{origin}:{}: a call to another function or an indirect branch cannot be followed (SASS calls to the function's own subroutines are: import the cuobjdump or nvdisasm SASS), or import a trace of the executed path (trace)",
                x.line
            ),
        )),
    }
}

/// Whether the branch `u` is taken this time: by its trip count, or unconditional and
/// forward, or else as `undecided` says.
fn decide(
    u: Undecided,
    trips: &HashMap<String, u64>,
    taken: &mut HashMap<usize, u64>,
    undecided: &mut dyn FnMut(Undecided) -> Result<bool, InputError>,
) -> Result<bool, InputError> {
    let backward = u.to <= u.at;
    match trips.get(&u.target) {
        Some(0) if backward => Err(InputError::option(
            "trip",
            format!("{}=0", u.target),
            format!(
                "line {}: a loop's branch is at the end of its body, which has run once when the branch is reached: give N >= 1 (the times the body runs)",
                u.instr.line
            ),
        )),
        Some(&n) if backward => {
            let count = taken.entry(u.at).or_default();
            if *count + 1 < n {
                *count += 1;
                Ok(true)
            } else {
                *count = 0;
                Ok(false)
            }
        }
        Some(&n) => Ok(n > 0),
        None if !u.instr.predicated && !backward => Ok(true),
        None => undecided(u),
    }
}

/// The words of every refusal of a branch with no trip count ([`is_undecided`]).
const UNDECIDED: &str = "branch the model cannot follow on its own";

/// Whether `e` is [`walk`]'s refusal of a branch with no trip count.
pub fn is_undecided(e: &InputError) -> bool {
    e.field == "branch" && e.reason.contains(UNDECIDED)
}

/// The refusal of a branch with no trip count.
fn undecided_error(u: &Undecided, origin: &str) -> InputError {
    let backward = u.to <= u.at;
    InputError::new(
        "branch",
        format!("{} to {}", u.instr.opcode, u.target),
        format!(
            "{origin}:{}: a {} {UNDECIDED}; give the trip count {}=N ({}; trip) or import a trace of the executed path (trace)",
            u.instr.line,
            if backward { "loop" } else { "conditional" },
            u.target,
            if backward { "the loop body runs N times" } else { "0: never taken, 1: always taken" }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::ptx;

    fn path(text: &str, trips: &[(&str, u64)], trace: bool) -> Result<String, InputError> {
        let l = ptx::read(text);
        let trips = trips.iter().map(|&(k, v)| (k.to_string(), v)).collect();
        walk(&l.functions[0], &UnitMap::built_in("ptx"), trace, &trips, "t.ptx").map(|p| p.kernel)
    }

    const LOOP: &str = ".entry k()\n{\nld.param.u64 %rd1, [p];\n$L_loop:\nld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\nbar.sync 0;\n@%p1 bra $L_loop;\n@%p2 bra $L_end;\nst.global.f32 [%rd1], %f2;\n$L_end:\nret;\n}\n";

    #[test]
    fn loops_unroll_and_guards_need_a_trip() {
        assert_eq!(path(LOOP, &[("$L_loop", 3), ("$L_end", 0)], false).unwrap(), "LC|CLC|CLC|CCLC");
        assert_eq!(path(LOOP, &[("$L_loop", 1), ("$L_end", 1)], false).unwrap(), "LC|CCC");
        let e = path(LOOP, &[("$L_end", 0)], false).unwrap_err();
        assert!(e.reason.contains("$L_loop=N") && e.reason.contains("trace") && e.reason.contains("t.ptx:8"), "{e}");
        let e = path(LOOP, &[("$L_loop", 2)], false).unwrap_err();
        assert!(e.reason.contains("0: never taken"), "{e}");
        // The same file as a trace is refused: it defines its branch targets (static code).
        assert!(path(LOOP, &[], true).unwrap_err().reason.contains("static code"));
        let trace = LOOP.replace("$L_loop:\n", "").replace("$L_end:\n", "");
        assert_eq!(path(&trace, &[], true).unwrap(), "LC|CCLC");
    }

    #[test]
    fn unknown_opcodes_name_the_line() {
        let e = path(".entry k()\n{\nadd.s32 %r1, %r1, 1;\nfrob.b32 %r2;\n}\n", &[], false).unwrap_err();
        assert!(e.to_string().contains("frob.b32") && e.reason.contains("t.ptx:4"), "{e}");
    }
}
