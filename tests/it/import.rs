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

/// `entry` of `file` imported with the trip counts `--list-branches` proposes, and
/// `extra` options, as JSON.
fn imported(file: &str, entry: &str, extra: &[&str]) -> serde_json::Value {
    let trips = proposals(file, entry);
    let mut args = vec!["import".to_string(), path(file), "--warps".into(), "8".into(), "--entry".into(), entry.into()];
    args.extend(trips.iter().cloned());
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    json_of(&args)
}

/// Every kernel of every file imports in one run with only the trip counts the listing
/// proposes; the architecture is read from the file (`.target`, `code for`,
/// `.headerflags`), and the kernel is named by its demangled name.
#[test]
fn every_sample_imports_in_one_run_after_list_branches() {
    for (file, arch) in FILES {
        for entry in KERNELS {
            let v = imported(file, entry, &[]);
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

/// `vectors.cu`: vector accesses (`float4`, `uint4`, `uint2`), brace operands (`mov.b64
/// {..}` of a double shuffle, `tex.1d.v4` with `[%rd, {%r}]`, `mma` fragments) and
/// dynamic shared memory, as NVRTC 12.9 (PTX, `-lineinfo` too) and ptxas 12.9 with
/// nvdisasm 13.5 (SASS, sm_75) print them.
const VECTOR_FILES: [&str; 4] = ["vectors.sm62.ptx", "vectors.sm62.lineinfo.ptx", "vectors.sm75.ptx", "vectors.sm75.nvdisasm.sass"];
const VECTOR_KERNELS: [&str; 5] = ["scaleFloat4", "scanExclusiveShared4", "convolutionRowsFloat4", "bitonicSortShared2", "fwtWarpShfl"];

/// Every kernel of `vectors.cu` imports from every file with the proposed trip counts;
/// `-lineinfo` PTX (`.loc` lines end without `;`) gives the same kernels as plain PTX.
#[test]
fn vector_kernels_import_from_every_file() {
    for file in VECTOR_FILES {
        for entry in VECTOR_KERNELS {
            let v = imported(file, entry, &[]);
            let kernel = v["kernel"].as_str().unwrap();
            assert!(kernel.contains('L') && kernel.contains('C'), "{file} {entry}: {kernel}");
            if file == "vectors.sm62.lineinfo.ptx" {
                assert_eq!(v["kernel"], imported("vectors.sm62.ptx", entry, &[])["kernel"], "{entry}");
            }
        }
    }
}

/// A vector access is one instruction (docs/import.md, "Unit maps"), checked against
/// counts made by hand from the real PTX, and against the SASS ptxas makes of it.
#[test]
fn vector_accesses_count_one_instruction_each_by_hand() {
    // scaleFloat4 in vectors.sm62.ptx, the bounds branch ($L__BB0_2) not taken, by hand
    // (the 4 ld.param are no instruction of the model):
    //   mov.u32 x3, mad.lo.s32, setp.ge.s32, @%p1 bra      C C C C C C      6 C
    //   cvta.to.global, mul.wide.s32, add.s64               C C C            9 C
    //   ld.global.v4.f32 {%f2, %f3, %f4, %f5}, [%rd5]       L                1 L
    //   cvta.to.global, add.s64, mul.f32 x4                 C C C C C C     15 C
    //   st.global.v4.f32 [%rd7], {%f13, %f12, %f11, %f10}   L                2 L
    //   ret                                                 C               16 C
    // 18 instructions. Before brace operands were read, the import was refused
    // ("invalid opcode = %f2,"), and with `default = "C"` it gave 21.
    let hand = "CCCCCCCCCLCCCCCCLC";
    for file in ["vectors.sm62.ptx", "vectors.sm62.lineinfo.ptx", "vectors.sm75.ptx"] {
        let v = json_of(&["import", &path(file), "--warps", "8", "--entry", "scaleFloat4", "--trip", "$L__BB0_2=0"]);
        assert_eq!(v["kernel"], hand, "{file}");
    }
    // mmaTile in vectors.sm75.ptx, straight line, by hand (3 ld.param: none):
    //   cvta x3, mov.u32 %tid, shl, cvt, and, add           C x8
    //   ld.global.v2.u32 {%r6, %r7}, [%rd9]                 L
    //   shl, cvt, and, add                                  C x4
    //   ld.global.u32 %r3, [%rd12]                          L
    //   mov.f32, shl, cvt, and, add, mov.f32 x3             C x8
    //   mma.sync.aligned.m16n8k8... {%f1, ..}, {%r6, %r7}, {%r3}, {%f1, ..}   C
    //   st.global.v4.f32 [%rd15], {%f1, %f2, %f3, %f4}      L
    //   ret                                                 C
    // 25 instructions: 22 C, 3 L.
    let v = json_of(&["import", &path("vectors.sm75.ptx"), "--warps", "8", "--entry", "mmaTile"]);
    assert_eq!(v["kernel"], "CCCCCCCCLCCCCLCCCCCCCCCLC");
    // ptxas issues one load/store instruction per PTX access, vector or not (LDG.E.128,
    // LDS.U.128, STS.64, ...): the L counts of PTX and SASS agree on every kernel that
    // has no constant-bank load (which SASS folds into operands).
    let l = |v: &serde_json::Value| v["provenance"]["classes"]["L"].as_u64().unwrap();
    for entry in ["scaleFloat4", "scanExclusiveShared4", "bitonicSortShared2", "fwtWarpShfl", "mmaTile"] {
        let (ptx, sass) = (imported("vectors.sm75.ptx", entry, &[]), imported("vectors.sm75.nvdisasm.sass", entry, &[]));
        assert_eq!(l(&ptx), l(&sass), "{entry}");
    }
}

/// `extern __shared__` is a module-level `.extern .shared` array: the kernels that name
/// it are flagged, the others not; `--dynamic-smem` records the launch's size and the
/// block's whole shared memory under the provenance.
#[test]
fn dynamic_shared_memory_is_flagged_and_recorded() {
    let resources = |entry: &str, extra: &[&str]| imported("vectors.sm62.ptx", entry, extra)["provenance"]["resources"].clone();
    for (entry, dynamic) in
        [("scanExclusiveShared4", true), ("bitonicSortShared2", true), ("scaleFloat4", false), ("convolutionRowsFloat4", false)]
    {
        let r = resources(entry, &[]);
        assert_eq!(r["dynamic_shared_memory"], dynamic, "{entry}: {r}");
        assert!(r["dynamic_shared_memory_bytes"].is_null() && r["shared_memory_per_block"].is_null(), "{entry}: {r}");
    }
    let r = resources("scanExclusiveShared4", &["--dynamic-smem", "1024"]);
    assert_eq!(
        (r["shared_memory"].as_u64(), r["dynamic_shared_memory_bytes"].as_u64(), r["shared_memory_per_block"].as_u64()),
        (Some(0), Some(1024), Some(1024))
    );
    // Static 2112 B (the tile and its apron) plus a launch's 64 B.
    let r = resources("convolutionRowsFloat4", &["--dynamic-smem", "64", "--resource-usage", &path("vectors.sm62.ptxas.txt")]);
    assert_eq!(
        (r["shared_memory"].as_u64(), r["registers_per_thread"].as_u64(), r["shared_memory_per_block"].as_u64()),
        (Some(2112), Some(26), Some(2176))
    );
    let out = makespan()
        .args([
            "import",
            &path("vectors.sm62.ptx"),
            "--warps",
            "8",
            "--entry",
            "scaleFloat4",
            "--trip",
            "$L__BB0_2=0",
            "--dynamic-smem",
            "256",
        ])
        .output()
        .unwrap();
    let toml = String::from_utf8(out.stdout).unwrap();
    assert!(toml.contains("dynamic_shared_memory_bytes = 256") && toml.contains("shared_memory_per_block = 256"), "{toml}");
}

/// `rta` refuses a kernel file that declares dynamic shared memory until the task set
/// gives the launch's size, then adds it to the static size; every resource names where
/// it came from (the kernel file, `resource_usage`, given), and SASS says its shared
/// memory is static only.
#[test]
fn rta_asks_for_dynamic_shared_memory_and_names_each_source() {
    let dir = tempfile::tempdir().unwrap();
    let d = format!("{}/{DIR}", env!("CARGO_MANIFEST_DIR"));
    // scanExclusiveShared4 with 256 threads: the scan loop runs 8 times (offsets 1 to 128).
    let set = |extra: &str| {
        let text = format!(
            "[gpu]\nwarp_arbitration = \"oldest-first\"\n[[kernels]]\nperiod = 1000000\nkernel_file = \"{d}/vectors.sm62.ptx\"\nentry = \"scanExclusiveShared4\"\ntrip = {{ \"$L__BB1_5\" = 0, \"$L__BB1_4\" = 0, \"$L__BB1_2\" = 8 }}\nblocks = 8\nthreads_per_block = 256\n{extra}"
        );
        temp_file(&dir, "scan.toml", &text)
    };
    let err = input_error(&["rta", &set("")], "kernels[0].dynamic_shared_memory");
    assert!(err.contains(".extern .shared"), "{err}");
    let v = json_of(&["rta", &set("dynamic_shared_memory = 4096\n")]);
    let k = &v["kernels"][0];
    assert_eq!(k["shared_memory"].as_u64(), Some(4096), "{k}");
    let src = k["wcet_source"].as_str().unwrap();
    assert!(src.contains("shared_memory 4096 B: 0 B static from the kernel file + 4096 B dynamic_shared_memory given"), "{src}");
    // ptxas -v states registers but no shared memory for this kernel: each from its source.
    let usage = format!("dynamic_shared_memory = 4096\nresource_usage = \"{d}/vectors.sm62.ptxas.txt\"\n");
    let src = json_of(&["rta", &set(&usage)])["kernels"][0]["wcet_source"].as_str().unwrap().to_string();
    assert!(src.contains("static from the kernel file") && src.contains("registers_per_thread 17 from resource_usage"), "{src}");
    let err = input_error(&["rta", &set("dynamic_shared_memory = 4096\nshared_memory = 100\n")], "kernels[0].shared_memory");
    assert!(err.contains("4096"), "{err}");
    input_error(&["rta", &set("dynamic_shared_memory = -1\n")], "kernels[0].dynamic_shared_memory");
    let plain = "[[kernels]]\nperiod = 100\ninstructions = \"LC\"\ndynamic_shared_memory = 8\nblocks = 8\nthreads_per_block = 256\n";
    input_error(&["rta", &temp_file(&dir, "p.toml", plain)], "kernels[0].dynamic_shared_memory");
    // cuobjdump SASS states no shared memory: ptxas -v's is named as from resource_usage,
    // and static only (SASS hides extern __shared__).
    let sass = format!(
        "[gpu]\nwarp_arbitration = \"oldest-first\"\n[[kernels]]\nperiod = 1000000\nkernel_file = \"{d}/samples.sm62.cuobjdump.sass\"\nentry = \"transposeNoBankConflicts\"\nresource_usage = \"{d}/samples.sm62.ptxas.txt\"\nblocks = 8\nthreads_per_block = 256\n"
    );
    let v = json_of(&["rta", &temp_file(&dir, "sass.toml", &sass)]);
    let src = v["kernels"][0]["wcet_source"].as_str().unwrap();
    assert!(src.contains("shared_memory 4224 B from resource_usage") && src.contains("static only"), "{src}");
    assert!(src.contains("registers_per_thread 18 from resource_usage") && !src.contains("kernel file"), "{src}");
}

/// From NVRTC output to a proven verdict without editing the PTX: five kernels of
/// `vectors.cu`, the two with `extern __shared__` given their launch sizes; without
/// them the task set is refused, naming the first such kernel's field.
#[test]
fn vector_kernels_get_a_proven_verdict() {
    let v = json_of(&["rta", "instances/rta-vector-kernels.toml"]);
    assert_eq!(v["verdict"], "proven");
    let shared: Vec<u64> = v["kernels"].as_array().unwrap().iter().map(|k| k["shared_memory"].as_u64().unwrap()).collect();
    assert_eq!(shared, [0, 1024, 2112, 8192, 0]);
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(std::fs::canonicalize("instances/real").unwrap(), dir.path().join("real")).unwrap();
    let text = std::fs::read_to_string("instances/rta-vector-kernels.toml").unwrap();
    let without: String = text.lines().filter(|l| !l.starts_with("dynamic_shared_memory")).map(|l| format!("{l}\n")).collect();
    input_error(&["rta", &temp_file(&dir, "v.toml", &without)], "kernels[1].dynamic_shared_memory");
}

/// The corpus of public benchmark kernels (`docs/corpus.md`: PolyBench/GPU and Rodinia,
/// NVRTC 12.9 PTX for compute_62, ptxas 12.9's report): every committed instance is what
/// `import` makes today from its PTX with the trip counts and block size its provenance
/// records, and the corpus has at least 30 kernels, barrier kernels among them.
#[test]
fn the_corpus_instances_are_what_import_makes_of_their_ptx() {
    let mut kernels = 0;
    let mut with_barriers = 0;
    for dir in ["instances/real/polybench", "instances/real/rodinia"] {
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.retain(|p| p.extension().is_some_and(|e| e == "toml"));
        files.sort();
        for file in files {
            let committed: toml::Value = toml::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let p = &committed["provenance"];
            let source = p["source"].as_str().unwrap();
            let usage = source.replace(".ptx", ".ptxas.txt");
            let threads = p["block_threads"].as_integer().unwrap().to_string();
            let mut args = vec!["import", source, "--entry", p["entry"].as_str().unwrap(), "--block-threads", &threads];
            args.extend(["--sm", "tx2", "--resource-usage", &usage]);
            let trips: Vec<String> = p["trips"].as_array().unwrap().iter().map(|t| format!("--trip={}", t.as_str().unwrap())).collect();
            args.extend(trips.iter().map(String::as_str));
            let v = json_of(&args);
            let name = file.display();
            assert_eq!(v["kernel"].as_str(), committed["kernel"].as_str(), "{name}");
            assert_eq!(v["warps_per_block"].as_i64(), committed["warps_per_block"].as_integer(), "{name}");
            let resources = &p["resources"];
            assert_eq!(
                v["provenance"]["resources"]["registers_per_thread"].as_i64(),
                resources["registers_per_thread"].as_integer(),
                "{name}"
            );
            assert_eq!(v["provenance"]["resources"]["shared_memory"].as_i64(), resources["shared_memory"].as_integer(), "{name}");
            kernels += 1;
            with_barriers += usize::from(p["barriers"].as_integer().unwrap() > 0);
        }
    }
    assert!(kernels >= 30 && with_barriers >= 5, "{kernels} kernels, {with_barriers} with barriers");
}
