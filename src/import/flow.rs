//! From a function's listing to the instruction string one warp executes.
//!
//! - A trace (`trace`) is one executed path: every instruction in file order, branches
//!   counted as instructions and not followed. Static code given as a trace is refused
//!   by rules a per-warp trace cannot trip ([`fall_through_label`], an instruction after
//!   an unconditional exit).
//! - Static code is walked from its first instruction. An unconditional forward branch
//!   is followed. A branch to a label with a trip count (`--trip LABEL=N`): backward,
//!   the loop body runs `N` times (taken `N - 1` times, then it falls through, and the
//!   count restarts for the next entry to the loop); forward, `0` means never taken and
//!   any other value always taken (a loop's count is at least 1). Per-visit counts
//!   ([`Trip::PerVisit`]) give the count of each entry to the loop (each arrival at a
//!   forward branch) in turn; a list the path overruns or does not use up is refused. A predicated
//!   `exit`/`ret` is a branch to `EXIT`. A SASS call to a subroutine of the function
//!   (`CALL.REL.NOINC 0x5b0`) is followed to its `RET`; an unconditional jump back to
//!   code the path has not run yet (a divergent path rejoining) is followed, not taken
//!   for a loop. Any other branch is refused, naming it and the two ways forward.
//! - Predicated instructions other than branches are counted (a warp issues them
//!   whatever the predicate); `@!PT` ones never execute and are skipped. Barriers
//!   become `|`; branches and exits taken on the path are issued on the cores (`C`).

use crate::error::InputError;
use crate::import::listing::{Function, Instr, Item, Target};
use crate::import::trips::Trip;
use crate::import::units::{Class, UnitMap};
use crate::model::kernel::POINT;
use std::collections::{BTreeMap, HashMap, HashSet};

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
    /// A preemption point here: not before the first instruction nor twice in a row,
    /// and in place of a barrier just passed.
    fn point(&mut self) {
        if self.kernel.ends_with('|') {
            self.kernel.pop();
        }
        if self.kernel.ends_with(['L', 'C']) {
            self.kernel.push(POINT);
        }
    }

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
/// A per-visit list whose visits the path does not use up (the walk and the user
/// disagree on how often the branch is met) is refused, as is one the path overruns.
pub fn walk(f: &Function, map: &UnitMap, trace: bool, trips: &HashMap<String, Trip>, origin: &str) -> Result<Path, InputError> {
    walk_pointed(f, map, (trace, &[]), trips, origin)
}

/// [`walk`] with a preemption point (`^`) each time the path passes one of the labels
/// `points` (static code only; `makespan preempt`): not at the kernel's start or end,
/// and in place of a barrier right before it (a point is a barrier of the block).
pub fn walk_pointed(f: &Function, map: &UnitMap, (trace, points): (bool, &[String]), trips: &HashMap<String, Trip>, origin: &str) -> Result<Path, InputError> {
    let mut counts = Counts::default();
    let mut path = walk_counting(f, map, (trace, points), trips, origin, &mut counts, &mut |u| Err(undecided_error(&u, origin)))?;
    while path.kernel.ends_with(POINT) {
        path.kernel.pop();
    }
    if trace {
        return Ok(path);
    }
    let mut keys: Vec<&String> = trips.keys().collect();
    keys.sort();
    for key in keys {
        let Trip::PerVisit(v) = &trips[key] else { continue };
        let (visits, kind) = counts.visits.get(key.as_str()).copied().unwrap_or((0, Visit::Reach));
        if visits < v.len() {
            let why = match visits {
                0 => "the path never meets a branch to it".to_string(),
                n => format!("the path {} it {n} times: give {n}", kind.met()),
            };
            return Err(InputError::option(
                "trip",
                format!("{key}={}", trips[key]),
                format!("the list gives {} counts, one per visit; {why}", v.len()),
            ));
        }
    }
    Ok(path)
}

/// How often the walk met each branch target: loops' iterations per branch (item index),
/// and per target the visits made (loops entered and left, forward branches and exits
/// reached).
#[derive(Default)]
struct Counts {
    taken: HashMap<usize, u64>,
    visits: HashMap<String, (usize, Visit)>,
}

/// What a visit is for a branch target.
#[derive(Clone, Copy)]
enum Visit {
    /// A loop, entered.
    Loop,
    /// A forward branch or an exit, reached.
    Reach,
}

impl Visit {
    /// `enters` or `reaches`.
    fn met(self) -> &'static str {
        match self {
            Visit::Loop => "enters",
            Visit::Reach => "reaches",
        }
    }
}

/// [`walk`], asking `undecided` whether a branch with no trip count is taken (it may
/// refuse instead): the listing of every such branch walks with it.
pub fn walk_with(
    f: &Function,
    map: &UnitMap,
    trace: bool,
    trips: &HashMap<String, Trip>,
    origin: &str,
    undecided: &mut dyn FnMut(Undecided) -> Result<bool, InputError>,
) -> Result<Path, InputError> {
    walk_counting(f, map, (trace, &[]), trips, origin, &mut Counts::default(), undecided)
}

fn walk_counting(
    f: &Function,
    map: &UnitMap,
    (trace, points): (bool, &[String]),
    trips: &HashMap<String, Trip>,
    origin: &str,
    counts: &mut Counts,
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
    if trace {
        return trace_path(f, &instrs, &classify, origin);
    }
    let labels = label_indices(f)?;
    let addresses: HashMap<u64, usize> = instrs.iter().filter_map(|(i, x)| x.address.map(|a| (a, *i))).collect();
    let mut calls: Vec<usize> = Vec::new();
    let mut visited = vec![false; f.items.len()];
    let mut pc = 0usize;
    let mut steps = 0usize;
    while pc < f.items.len() {
        let Item::Instr(x) = &f.items[pc] else {
            if matches!(&f.items[pc], Item::Label(l) if points.contains(l)) {
                path.point();
            }
            pc += 1;
            continue;
        };
        steps += 1;
        if steps > MAX_WALK {
            let largest = trips.iter().max_by_key(|(_, n)| n.largest()).map_or(String::new(), |(k, n)| format!(" (the largest: {k}={n})"));
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
                match decide(u, trips, counts, undecided)? {
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
                pc = if rejoin || decide(Undecided { target, at: pc, to, instr: x }, trips, counts, undecided)? { to } else { pc + 1 };
            }
            _ => pc += 1,
        }
    }
    Ok(path)
}

type Classify<'a> = dyn Fn(&Instr) -> Result<(Class, String), InputError> + 'a;

/// A trace's path: every instruction in file order. Refused as static code when an
/// instruction follows an unconditional exit, or when a label some branch goes to is
/// reached other than right after a branch to it ([`fall_through_label`]).
fn trace_path(f: &Function, instrs: &[(usize, &Instr)], classify: &Classify, origin: &str) -> Result<Path, InputError> {
    let static_code = |why: String| {
        InputError::new(
            "trace",
            origin,
            format!("{why}: this is static code, not one executed path; import it without trace, with trip counts"),
        )
    };
    if let Some(why) = fall_through_label(f) {
        return Err(static_code(why));
    }
    let mut path = Path::default();
    let mut exit: Option<usize> = None;
    for (_, x) in instrs {
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
    Ok(path)
}

/// Why `f` is not a per-warp trace, if a label shows it: a trace prints a label only
/// right after the branch that went to it (`@%p1 bra BB_0;` then `BB_0:`; a label may be
/// printed again at each later visit, and the target of a branch not taken is not
/// printed), so every label a branch of the file goes to follows a branch to it, possibly
/// among other labels of the same place. Static code reaches its loop heads and join
/// points by falling through, or from the start. A branch to the next instruction is
/// consistent with a trace.
pub fn fall_through_label(f: &Function) -> Option<String> {
    let targets: HashSet<&str> = f
        .items
        .iter()
        .filter_map(|i| if let Item::Instr(Instr { target: Some(Target::Label(t)), .. }) = i { Some(t.as_str()) } else { None })
        .collect();
    let targeted = |l: &str| targets.contains(l);
    // The labels `run` printed together after the instruction `before`.
    let check = |run: &[&str], before: Option<&Instr>| {
        let taken = before.is_some_and(|b| matches!(&b.target, Some(Target::Label(t)) if run.contains(&t.as_str())));
        let l = run.iter().find(|l| !taken && targeted(l))?;
        let from = before.map_or("the start of the function".to_string(), |b| format!("line {} ({})", b.line, b.opcode));
        Some(format!("label {l}, a branch target, is reached from {from}, not by a branch to it"))
    };
    let mut before: Option<&Instr> = None;
    let mut run: Vec<&str> = Vec::new();
    for item in &f.items {
        match item {
            Item::Label(l) => run.push(l),
            Item::Instr(x) => {
                if let Some(why) = check(&run, before) {
                    return Some(why);
                }
                run.clear();
                before = Some(x);
            }
        }
    }
    check(&run, before)
}

/// The item index of each label of `f`; a label defined twice (a trace of a loop read as
/// static code) is refused.
fn label_indices(f: &Function) -> Result<HashMap<&str, usize>, InputError> {
    let mut labels = HashMap::new();
    for (i, it) in f.items.iter().enumerate() {
        if let Item::Label(l) = it {
            if labels.insert(l.as_str(), i).is_some() {
                return Err(InputError::new(
                    "branch",
                    l,
                    format!("the label is defined twice in {}: static code defines each label once; a trace of the executed path is read with trace", f.name),
                ));
            }
        }
    }
    Ok(labels)
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
    trips: &HashMap<String, Trip>,
    counts: &mut Counts,
    undecided: &mut dyn FnMut(Undecided) -> Result<bool, InputError>,
) -> Result<bool, InputError> {
    let backward = u.to <= u.at;
    let Some(trip) = trips.get(&u.target) else {
        return if !u.instr.predicated && !backward { Ok(true) } else { undecided(u) };
    };
    let kind = if backward { Visit::Loop } else { Visit::Reach };
    let visit = counts.visits.entry(u.target.clone()).or_insert((0, kind));
    let n = trip.at(visit.0).ok_or_else(|| {
        InputError::option(
            "trip",
            format!("{}={trip}", u.target),
            format!(
                "line {}: the path {} it {} times or more, and the list gives {} counts, one per visit: give one for each",
                u.instr.line,
                kind.met(),
                visit.0 + 1,
                visit.0
            ),
        )
    })?;
    if !backward {
        visit.0 += 1;
        return Ok(n > 0);
    }
    if n == 0 {
        return Err(InputError::option(
            "trip",
            format!("{}={trip}", u.target),
            format!(
                "line {}: a loop's branch is at the end of its body, which has run once when the branch is reached: give N >= 1 (the times the body runs)",
                u.instr.line
            ),
        ));
    }
    let count = counts.taken.entry(u.at).or_default();
    if *count + 1 < n {
        *count += 1;
        Ok(true)
    } else {
        *count = 0;
        visit.0 += 1;
        Ok(false)
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
            if backward { "the loop body runs N times, or N1,N2,... one count per entry" } else { "0: never taken, 1: always taken" }
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::ptx;

    fn path(text: &str, trips: &[(&str, u64)], trace: bool) -> Result<String, InputError> {
        let trips: Vec<(&str, Trip)> = trips.iter().map(|&(k, v)| (k, Trip::Count(v))).collect();
        path_per_visit(text, &trips, trace)
    }

    fn path_per_visit(text: &str, trips: &[(&str, Trip)], trace: bool) -> Result<String, InputError> {
        let l = ptx::read(text);
        let trips = trips.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
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
        // The same file as a trace is refused: its loop head is reached by falling through.
        let e = path(LOOP, &[], true).unwrap_err();
        assert!(e.reason.contains("static code") && e.reason.contains("label $L_loop") && e.reason.contains("line 3"), "{e}");
        let trace = LOOP.replace("$L_loop:\n", "").replace("$L_end:\n", "");
        assert_eq!(path(&trace, &[], true).unwrap(), "LC|CCLC");
    }

    /// Two nested loops, the inner one's count set per entry (bitonic sort's shape).
    const NESTED: &str = ".entry k()\n{\nld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\n$L_outer:\nmov.u32 %r2, 0;\n$L_inner:\nld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n@%p1 bra $L_inner;\nadd.s32 %r1, %r1, 1;\n@%p2 bra $L_outer;\nst.global.f32 [%rd1], %f2;\nret;\n}\n";

    /// NESTED's path by hand: `mov`, then per outer iteration `mov`, the inner body
    /// (`ld`, `add`, `bra`) `k` times, `add`, `bra`; then `st`, `ret`.
    fn nested_by_hand(inner: &[usize]) -> String {
        let body: String = inner.iter().map(|&k| format!("C{}CC", "LCC".repeat(k))).collect();
        format!("C{body}LC")
    }

    #[test]
    fn per_visit_counts_set_each_entry_of_a_loop() {
        let per = |outer: u64, inner: &[u64]| {
            path_per_visit(NESTED, &[("$L_outer", Trip::Count(outer)), ("$L_inner", Trip::PerVisit(inner.to_vec()))], false)
        };
        let k = per(3, &[1, 2, 3]).unwrap();
        assert_eq!(k, nested_by_hand(&[1, 2, 3]));
        assert_eq!(k.len(), 30, "1 + (6 + 9 + 12) + 2 instructions");
        // The constant that covers every entry counts more: 1 + 3 * 12 + 2.
        assert_eq!(path(NESTED, &[("$L_outer", 3), ("$L_inner", 3)], false).unwrap().len(), 39);
        // A one-entry list is a single count.
        assert_eq!(per(1, &[4]).unwrap(), nested_by_hand(&[4]));
        let e = per(3, &[1, 2]).unwrap_err();
        assert_eq!((e.field.as_str(), e.value.as_str()), ("trip", "$L_inner=1,2"));
        assert!(
            e.reason.contains("line 10") && e.reason.contains("enters it 3 times or more") && e.reason.contains("gives 2 counts"),
            "{e}"
        );
        let e = per(3, &[1, 2, 3, 4]).unwrap_err();
        assert!(e.reason.contains("gives 4 counts") && e.reason.contains("enters it 3 times: give 3"), "{e}");
        let e = per(2, &[1, 0]).unwrap_err();
        assert!(e.reason.contains("N >= 1"), "{e}");
        // Per visit on a forward branch: the i-th arrival, 0 not taken, else taken.
        let skip = ".entry k()\n{\n$L_loop:\nld.global.f32 %f1, [%rd1];\n@%p2 bra $L_skip;\nadd.f32 %f2, %f2, %f1;\n$L_skip:\n@%p1 bra $L_loop;\nret;\n}\n";
        let k = path_per_visit(skip, &[("$L_loop", Trip::Count(3)), ("$L_skip", Trip::PerVisit(vec![0, 1, 0]))], false);
        assert_eq!(k.unwrap(), "LCCC".to_string() + "LCC" + "LCCC" + "C");
        let e = path_per_visit(skip, &[("$L_loop", Trip::Count(3)), ("$L_skip", Trip::PerVisit(vec![0, 1]))], false).unwrap_err();
        assert!(e.reason.contains("reaches it 3 times or more"), "{e}");
    }

    /// A per-warp trace (a taken branch followed by its target's label, labels printed
    /// again at each visit, targets of branches not taken absent) imports, and counts what
    /// the static code walks with the same counts per visit.
    #[test]
    fn per_warp_traces_import_and_static_code_is_refused() {
        let trace = ".entry k()\n{\nld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\nmov.u32 %r2, 0;\nld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n@%p1 bra $L_inner;\nadd.s32 %r1, %r1, 1;\n@%p2 bra $L_outer;\n$L_outer:\nmov.u32 %r2, 0;\nld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n@%p1 bra $L_inner;\n$L_inner:\nld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n@%p1 bra $L_inner;\n$L_inner:\nld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n@%p1 bra $L_inner;\nadd.s32 %r1, %r1, 1;\n@%p2 bra $L_outer;\nst.global.f32 [%rd1], %f2;\nret;\n}\n";
        let k = path(trace, &[], true).unwrap();
        assert_eq!(k, nested_by_hand(&[1, 3]));
        assert_eq!(k, path_per_visit(NESTED, &[("$L_outer", Trip::Count(2)), ("$L_inner", Trip::PerVisit(vec![1, 3]))], false).unwrap());
        // Read as static code, the trace's repeated label is refused.
        let e = path(trace, &[("$L_inner", 1)], false).unwrap_err();
        assert!(e.reason.contains("defined twice") && e.reason.contains("trace"), "{e}");
        // A branch to the next instruction is consistent with a trace.
        let next = ".entry k()\n{\n@%p1 bra $L_a;\n$L_a:\nbra.uni $L_b;\n$L_b:\n$L_c:\nadd.f32 %f2, %f2, %f1;\nret;\n}\n";
        assert_eq!(path(next, &[], true).unwrap(), "CCCC");
        // Static code: the loop head after straight code, a join point after the code a
        // branch skips, a label first in the function.
        let e = path(NESTED, &[], true).unwrap_err();
        assert!(e.reason.contains("label $L_outer") && e.reason.contains("line 4 (mov.u32)"), "{e}");
        let join = ".entry k()\n{\n@%p1 bra $L_a;\nbra.uni $L_b;\n$L_a:\nadd.f32 %f2, %f2, %f1;\n$L_b:\nret;\n}\n";
        assert!(path(join, &[], true).unwrap_err().reason.contains("label $L_a, a branch target, is reached from line 4 (bra.uni)"));
        let first = ".entry k()\n{\n$L_a:\nadd.f32 %f2, %f2, %f1;\n@%p1 bra $L_a;\nret;\n}\n";
        assert!(path(first, &[], true).unwrap_err().reason.contains("the start of the function"));
    }

    /// NESTED with a forward skip in the inner body, as static code.
    const NESTED_SKIP: &str = ".entry k()\n{\nld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\n$L_outer:\nmov.u32 %r2, 0;\n$L_inner:\nld.global.f32 %f1, [%rd1];\n@%p3 bra $L_skip;\nadd.f32 %f2, %f2, %f1;\n$L_skip:\n@%p1 bra $L_inner;\nadd.s32 %r1, %r1, 1;\n@%p2 bra $L_outer;\nst.global.f32 [%rd1], %f2;\nret;\n}\n";

    /// The per-warp trace of NESTED_SKIP when outer iteration `i` runs the inner body
    /// `skips[i].len()` times, skipping the `add` where `skips[i][j]`: written from the
    /// loop structure, not by walking the code.
    fn nested_skip_trace(skips: &[Vec<bool>]) -> String {
        let mut t = vec![".entry k()", "{", "ld.param.u64 %rd1, [p];", "mov.u32 %r1, 0;"];
        for (i, inner) in skips.iter().enumerate() {
            t.extend(if i > 0 { &["$L_outer:"][..] } else { &[] });
            t.push("mov.u32 %r2, 0;");
            for (j, &skip) in inner.iter().enumerate() {
                t.extend(if j > 0 { &["$L_inner:"][..] } else { &[] });
                t.extend(["ld.global.f32 %f1, [%rd1];", "@%p3 bra $L_skip;", if skip { "$L_skip:" } else { "add.f32 %f2, %f2, %f1;" }]);
                t.push("@%p1 bra $L_inner;");
            }
            t.extend(["add.s32 %r1, %r1, 1;", "@%p2 bra $L_outer;"]);
        }
        t.extend(["st.global.f32 [%rd1], %f2;", "ret;", "}"]);
        t.join("\n") + "\n"
    }

    proptest::proptest! {
        /// Every per-warp trace of the nested loops imports (the static-code rule never
        /// trips on it) and counts what the static code walks with per-visit counts; the
        /// static code itself is refused as a trace.
        #[test]
        fn traces_match_per_visit_walks(skips in proptest::collection::vec(proptest::collection::vec(proptest::bool::ANY, 1..5), 1..5)) {
            let traced = path(&nested_skip_trace(&skips), &[], true).unwrap();
            let inner = Trip::PerVisit(skips.iter().map(|s| s.len() as u64).collect());
            let skip = Trip::PerVisit(skips.iter().flatten().map(|&b| u64::from(b)).collect());
            let trips = [("$L_outer", Trip::Count(skips.len() as u64)), ("$L_inner", inner), ("$L_skip", skip)];
            proptest::prop_assert_eq!(traced, path_per_visit(NESTED_SKIP, &trips, false).unwrap());
            proptest::prop_assert!(path(NESTED_SKIP, &[], true).is_err());
        }
    }

    #[test]
    fn unknown_opcodes_name_the_line() {
        let e = path(".entry k()\n{\nadd.s32 %r1, %r1, 1;\nfrob.b32 %r2;\n}\n", &[], false).unwrap_err();
        assert!(e.to_string().contains("frob.b32") && e.reason.contains("t.ptx:4"), "{e}");
    }
}
