//! `makespan import` on real toolchain output: the cuda-samples-style kernels of
//! `instances/real/cuda-samples/` as nvcc 13.5 (PTX, sm_75), cuobjdump and nvdisasm 13.5
//! (sm_75), NVRTC 12.9 (PTX for compute_62) and cuobjdump/nvdisasm 12.4 (sm_62, the
//! TX2) print them.

use crate::common::cli::{input_error, json_of, makespan, temp_file};

const DIR: &str = "instances/real/cuda-samples";
const FILES: [(&str, &str); 6] = [
    ("samples.sm75.ptx", "sm_75"),
    ("samples.sm75.cuobjdump.sass", "sm_75"),
    ("samples.sm75.nvdisasm.sass", "sm_75"),
    ("samples.sm62.ptx", "sm_62"),
    ("samples.sm62.cuobjdump.sass", "sm_62"),
    ("samples.sm62.nvdisasm.sass", "sm_62"),
];
const KERNELS: [&str; 5] = ["vectorAdd", "transposeNoBankConflicts", "matrixMulCUDA", "reduce4", "histogram256Kernel"];

fn path(file: &str) -> String {
    format!("{DIR}/{file}")
}

/// The `--trip` options `--list-branches --json` proposes.
fn proposals(file: &str, entry: &str) -> Vec<String> {
    let v = json_of(&["import", &path(file), "--warps", "8", "--entry", entry, "--list-branches"]);
    v.as_array().unwrap().iter().map(|b| format!("--trip={}={}", b["target"].as_str().unwrap(), b["proposed"])).collect()
}

/// Every kernel of every file imports in one run with only the trip counts the listing
/// proposes; the architecture is read from the file (`.target`, `code for`,
/// `.headerflags`), and the kernel is named by its demangled name.
#[test]
fn every_sample_imports_in_one_run_after_list_branches() {
    for (file, arch) in FILES {
        for entry in KERNELS {
            let trips = proposals(file, entry);
            let mut args = vec!["import".to_string(), path(file), "--warps".into(), "8".into(), "--entry".into(), entry.into()];
            args.extend(trips.iter().cloned());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let v = json_of(&args);
            let kernel = v["kernel"].as_str().unwrap();
            assert!(kernel.contains('L') && kernel.contains('C'), "{file} {entry}: {kernel}");
            assert_eq!(v["provenance"]["arch"], arch, "{file} {entry}");
            assert!(v["provenance"]["entry"].as_str().unwrap().contains(entry), "{file} {entry}");
            let barriers = v["provenance"]["barriers"].as_u64().unwrap();
            assert_eq!(barriers > 0, entry != "vectorAdd", "{file} {entry}: {barriers} barriers");
        }
    }
}

/// The table's paste line is the options the JSON proposes, quoted for the shell.
#[test]
fn the_table_lists_every_branch_and_the_text_to_paste() {
    let out =
        makespan().args(["import", &path("samples.sm75.ptx"), "--warps", "8", "--entry", "reduce4", "--list-branches"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("8 branch targets need a trip count"), "{text}");
    assert!(text.contains("loop") && text.contains("1 barrier"), "{text}");
    let paste = text.lines().last().unwrap();
    let quoted: Vec<String> = proposals("samples.sm75.ptx", "reduce4").iter().map(|t| format!("--trip '{}'", &t[7..])).collect();
    assert_eq!(paste, quoted.join(" "));
}

/// A refusal at a branch names every branch that needs a count, not only the first, and
/// gives the options to paste.
#[test]
fn a_refusal_lists_all_branches_at_once() {
    let err = input_error(&["import", &path("samples.sm75.ptx"), "--warps", "8", "--entry", "reduce4"], "branch");
    for target in ["$L__BB3_2", "$L__BB3_4", "$L__BB3_6", "$L__BB3_15"] {
        assert!(err.contains(&format!("--trip '{target}=")), "{target}: {err}");
    }
    assert!(err.contains("all 8 that need one"), "{err}");
}

/// cuobjdump prints branch targets as `0x220` and addresses as `/*0220*/`: every
/// spelling names the same branch; the Pascal bundle's control word (0x1c0) is the
/// instruction after it.
#[test]
fn trip_counts_take_addresses_in_every_spelling() {
    let kernel = |spelling: &str| {
        let t = format!("--trip={spelling}=0");
        let v = json_of(&[
            "import",
            &path("samples.sm75.cuobjdump.sass"),
            "--warps",
            "8",
            "--entry",
            "reduce4",
            &t,
            "--trip=0x180=3",
            "--trip=0x340=0",
            "--trip=0x3c0=0",
            "--trip=EXIT=0",
        ]);
        v["kernel"].as_str().unwrap().to_string()
    };
    let first = kernel("0x220");
    for s in ["220", "0x0220", "/*0220*/", "0X220"] {
        assert_eq!(kernel(s), first, "{s}");
    }
    assert_eq!(first.matches('|').count(), 4, "{first}");
    let v = json_of(&[
        "import",
        &path("samples.sm62.cuobjdump.sass"),
        "--warps",
        "8",
        "--entry",
        "reduce4",
        "--trip=0x1c0=0",
        "--trip=0x140=2",
        "--trip=EXIT=0",
    ]);
    assert_eq!(v["provenance"]["arch"], "sm_62");
    let err =
        input_error(&["import", &path("samples.sm75.cuobjdump.sass"), "--warps", "8", "--entry", "reduce4", "--trip=0x224=0"], "--trip");
    assert!(err.contains("0x220") && err.contains("0x180"), "{err}");
    let err = input_error(
        &["import", &path("samples.sm75.cuobjdump.sass"), "--warps", "8", "--entry", "reduce4", "--trip=0x220=0", "--trip=220=1"],
        "--trip",
    );
    assert!(err.contains("0x220 has a trip count already"), "{err}");
}

/// A `$label` the shell ate leaves an empty label: the error says to quote it.
#[test]
fn an_empty_label_hints_at_quoting() {
    let err = input_error(&["import", &path("samples.sm75.ptx"), "--warps", "8", "--entry", "vectorAdd", "--trip", "=0"], "--trip");
    assert!(err.contains("quote") && err.contains("$L__BB0_2"), "{err}");
}

/// `--entry` takes the demangled name, the signature or a unique part; an ambiguous or
/// unknown part lists the kernels one per line.
#[test]
fn entries_by_demangled_name_or_part() {
    let entry = |e: &str| json_of(&["import", &path("samples.sm75.ptx"), "--warps", "8", "--entry", e, "--list-branches"]);
    entry("vectorAdd(float const*, float const*, float*, int)");
    entry("NoBank");
    entry("_Z7reduce4PKfPfj");
    for bad in ["float*", "nothing"] {
        let out = makespan().args(["import", &path("samples.sm75.ptx"), "--warps", "8", "--entry", bad]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.starts_with(&format!("error: invalid --entry = {bad}:")), "{err}");
        assert!(err.contains("\n  reduce4  (_Z7reduce4PKfPfj)") || bad == "float*", "{err}");
    }
}

/// `--trace` reads one executed path: static code with instructions after its exit is
/// refused, and `--trace` with `--trip` is a contradiction.
#[test]
fn trace_refuses_static_code() {
    for file in ["samples.sm75.cuobjdump.sass", "samples.sm75.ptx", "samples.sm62.nvdisasm.sass"] {
        let err = input_error(&["import", &path(file), "--warps", "8", "--entry", "vectorAdd", "--trace"], "trace");
        assert!(err.contains("static code"), "{file}: {err}");
    }
    let out = makespan().args(["import", &path("samples.sm75.ptx"), "--warps", "8", "--trace", "--trip", "x=1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A SASS call to the function's own subroutine is followed to its return: reduce4's
/// divergent path (`BRA.DIV`) calls the shuffle helper five times, in cuobjdump and
/// nvdisasm alike; a loop's trip count 0 is refused (its body has run once).
#[test]
fn sass_calls_are_followed_and_loops_run_at_least_once() {
    let kernel = |file: &str, trips: &[&str]| {
        let mut args = vec!["import", file, "--warps", "8", "--entry", "reduce4"];
        args.extend_from_slice(trips);
        json_of(&args)["kernel"].as_str().unwrap().to_string()
    };
    let cuobjdump = path("samples.sm75.cuobjdump.sass");
    let nvdisasm = path("samples.sm75.nvdisasm.sass");
    let fast = kernel(&cuobjdump, &["--trip=0x220=0", "--trip=0x180=1", "--trip=0x340=0", "--trip=0x3c0=0", "--trip=EXIT=0"]);
    let slow = kernel(&cuobjdump, &["--trip=0x220=0", "--trip=0x180=1", "--trip=0x340=0", "--trip=0x3c0=1", "--trip=EXIT=0"]);
    assert!(slow.len() > fast.len(), "{fast} vs {slow}");
    let slow_nv = kernel(&nvdisasm, &["--trip=.L_x_9=0", "--trip=.L_x_10=1", "--trip=.L_x_12=0", "--trip=.L_x_13=1", "--trip=EXIT=0"]);
    assert_eq!(slow, slow_nv);
    let err = input_error(
        &[
            "import",
            &cuobjdump,
            "--warps",
            "8",
            "--entry",
            "reduce4",
            "--trip=0x220=0",
            "--trip=0x180=0",
            "--trip=0x340=0",
            "--trip=0x3c0=0",
            "--trip=EXIT=0",
        ],
        "--trip",
    );
    assert!(err.contains("N >= 1"), "{err}");
}

/// A per-warp trace (the taken branch followed by its target's label, printed at each
/// visit) imports with `--trace` and gives the kernel of the static code with its trip
/// count: gemm-tiled's tile loop, 4 iterations (`instances/real/gemm-tiled.trace.ptx`
/// with `$L__BB0_1:` after each of its 3 taken branches).
#[test]
fn per_warp_traces_import() {
    let plain = std::fs::read_to_string("instances/real/gemm-tiled.trace.ptx").unwrap();
    let mut taken = 0;
    let labelled: Vec<String> = plain
        .lines()
        .map(|l| {
            if l.contains("@%p1 bra") && taken < 3 {
                taken += 1;
                format!("{l}\n$L__BB0_1:")
            } else {
                l.to_string()
            }
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "gemm.trace.ptx", &(labelled.join("\n") + "\n"));
    let traced = json_of(&["import", &file, "--warps", "8", "--trace"]);
    let walked = json_of(&["import", "instances/real/gemm-tiled.ptx", "--warps", "8", "--trip", "$L__BB0_1=4"]);
    assert_eq!(traced["kernel"], walked["kernel"]);
    // The instructions of the file, indented (comments and `ld.param`, not one of the model, left out): 287.
    let instructions =
        plain.lines().filter(|l| l.starts_with('\t') && !l.trim_start().starts_with("//") && !l.contains("ld.param")).count();
    assert_eq!(instructions, 287);
    let kernel = traced["kernel"].as_str().unwrap();
    assert_eq!(kernel.len(), instructions, "barriers are `|`, every other instruction a letter");
    // Read as static code, the repeated label is refused.
    let err = input_error(&["import", &file, "--warps", "8", "--trip", "$L__BB0_1=4"], "branch");
    assert!(err.contains("defined twice"), "{err}");
}

/// Bitonic sort's loop nest in nvcc's PTX shape: the outer loop doubles `size` from 2 to
/// 512 (9 iterations), the inner one halves the stride from `size / 2` to 1 (1, 2, ...,
/// 9 iterations), a barrier in the inner body.
const BITONIC: &str = ".version 8.0\n.target sm_75\n.address_size 64\n\n.visible .entry bitonic(\n\t.param .u64 bitonic_param_0\n)\n{\n\tld.param.u64 \t%rd1, [bitonic_param_0];\n\tmov.u32 \t%r1, %tid.x;\n\tmov.u32 \t%r2, 2;\n$L__BB0_1:\n\tshr.u32 \t%r3, %r2, 1;\n$L__BB0_2:\n\tbar.sync \t0;\n\tld.shared.u32 \t%r4, [%rd1];\n\tld.shared.u32 \t%r5, [%rd1+4];\n\tmin.u32 \t%r6, %r4, %r5;\n\tst.shared.u32 \t[%rd1], %r6;\n\tshr.u32 \t%r3, %r3, 1;\n\tsetp.ne.s32 \t%p1, %r3, 0;\n\t@%p1 bra \t$L__BB0_2;\n\tshl.b32 \t%r2, %r2, 1;\n\tsetp.lt.u32 \t%p2, %r2, 1024;\n\t@%p2 bra \t$L__BB0_1;\n\tbar.sync \t0;\n\tret;\n}\n";

/// Per-visit trip counts state bitonic sort's inner loop (1, ..., 9 iterations) exactly:
/// by hand, 2 instructions before the nest, per outer iteration 4 (`shr`, `shl`, `setp`,
/// `bra`) and 7 per inner iteration (3 L, 4 C) with a barrier, 45 inner iterations in
/// all, then a barrier and `ret`: 135 L, 219 C, 46 barriers (the constant 9: 606
/// instructions). A list too short or too long is refused naming the label and counts;
/// `--list-branches` proposes one count per entry once the outer count is given.
#[test]
fn per_visit_trip_counts_state_nested_loops() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "bitonic.ptx", BITONIC);
    let import = |inner: &str| {
        let t = format!("$L__BB0_2={inner}");
        json_of(&["import", &file, "--warps", "8", "--trip", "$L__BB0_1=9", "--trip", &t])["kernel"].as_str().unwrap().to_string()
    };
    let count = |k: &str, c: char| k.chars().filter(|&x| x == c).count();
    let exact = import("1,2,3,4,5,6,7,8,9");
    assert_eq!((count(&exact, 'L'), count(&exact, 'C'), count(&exact, '|')), (135, 219, 46));
    let constant = import("9");
    assert_eq!(count(&constant, 'L') + count(&constant, 'C'), 606);
    let err = input_error(&["import", &file, "--warps", "8", "--trip", "$L__BB0_1=9", "--trip", "$L__BB0_2=1,2,3,4,5,6,7,8"], "--trip");
    assert!(
        err.contains("$L__BB0_2=1,2,3,4,5,6,7,8") && err.contains("enters it 9 times or more") && err.contains("gives 8 counts"),
        "{err}"
    );
    let err = input_error(&["import", &file, "--warps", "8", "--trip", "$L__BB0_1=2", "--trip", "$L__BB0_2=1,2,3"], "--trip");
    assert!(err.contains("gives 3 counts") && err.contains("enters it 2 times: give 2"), "{err}");
    input_error(&["import", &file, "--warps", "8", "--trip", "$L__BB0_2=1,x"], "--trip");
    // The listing: the inner loop nested in the outer one, then one count per entry.
    let v = json_of(&["import", &file, "--warps", "8", "--list-branches"]);
    assert_eq!((v[0]["target"].as_str(), v[0]["outer"].as_str(), v[1]["outer"].as_str()), (Some("$L__BB0_2"), Some("$L__BB0_1"), None));
    let out = makespan().args(["import", &file, "--warps", "8", "--trip", "$L__BB0_1=9", "--list-branches"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1 per entry, 9 entries (inside loop $L__BB0_1)"), "{text}");
    assert!(text.ends_with("--trip '$L__BB0_2=1,1,1,1,1,1,1,1,1'\n"), "{text}");
}

/// A task set's `trip` takes the per-visit list too; a short one is refused naming the
/// kernel's field, and a refusal at the nested loop proposes the list.
#[test]
fn task_sets_take_per_visit_trip_counts() {
    let dir = tempfile::tempdir().unwrap();
    let file = temp_file(&dir, "bitonic.ptx", BITONIC);
    let set = |trip: &str| {
        let text = format!("[[kernels]]\nperiod = 100000\nkernel_file = \"{file}\"\ncontention = \"isolated\"\nblocks = 1\nthreads_per_block = 64\n{trip}\n");
        temp_file(&dir, "set.toml", &text)
    };
    let wcet = |trip: &str| {
        let v = json_of(&["rta", &set(trip), "--time-limit", "2"]);
        v["kernels"][0]["wcet_source"].as_str().unwrap().to_string()
    };
    let exact = wcet("trip = { \"$L__BB0_1\" = 9, \"$L__BB0_2\" = [1, 2, 3, 4, 5, 6, 7, 8, 9] }");
    let constant = wcet("trip = { \"$L__BB0_1\" = 9, \"$L__BB0_2\" = 9 }");
    assert!(exact.contains("47 barrier phases") && constant.contains("83 barrier phases"), "{exact} / {constant}");
    let err = input_error(&["rta", &set("trip = { \"$L__BB0_1\" = 9, \"$L__BB0_2\" = [1, 2] }")], "kernels[0].trip");
    assert!(err.contains("gives 2 counts"), "{err}");
    let err = input_error(&["rta", &set("trip = { \"$L__BB0_1\" = 3 }")], "kernels[0]");
    assert!(err.contains("\"$L__BB0_2\" = [1, 1, 1]"), "{err}");
}
