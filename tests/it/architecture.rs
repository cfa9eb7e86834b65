//! The architecture as a test: the library's top-level modules form layers (each may use
//! only the layers below it, so there is no module cycle), the library knows no
//! command-line parser, and the binary's main file stays small. `docs/architecture.md`
//! describes the same layers.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The top-level modules of `src/`, lowest layer first.
const LAYERS: &[&str] = &[
    "error",
    "watch",
    "budget",
    "files",
    "model",
    "import",
    "state",
    "state_bounds",
    "exact",
    "experiments",
    "rta",
    "system",
    "sweep",
    "output",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The library's files (not the binary's), with the top-level module each belongs to.
fn library_files() -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .filter(|p| !p.starts_with(src.join("bin")) && p.file_name().unwrap() != "lib.rs")
        .map(|p| {
            let first = p.strip_prefix(&src).unwrap().components().next().unwrap();
            let top = first.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
            (top, p)
        })
        .collect()
}

/// The top-level modules that the code (not the comments) of `text` names as `crate::X`.
fn uses(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, _) in line.match_indices("crate::") {
            let name: String = line[i + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            found.insert(name);
        }
    }
    found
}

#[test]
fn every_module_uses_only_lower_layers() {
    let files = library_files();
    assert!(files.len() > 40, "found {} files", files.len());
    let mut wrong = Vec::new();
    for (top, path) in &files {
        let layer = LAYERS.iter().position(|l| l == top).unwrap_or_else(|| panic!("{top} is not in LAYERS"));
        for used in uses(&std::fs::read_to_string(path).unwrap()) {
            match LAYERS.iter().position(|l| *l == used) {
                Some(u) if u <= layer => {}
                _ => wrong.push(format!("{} uses crate::{used}", path.display())),
            }
        }
    }
    assert!(wrong.is_empty(), "uses against the layers:\n{}", wrong.join("\n"));
}

#[test]
fn the_layer_check_sees_a_use() {
    assert_eq!(
        uses("use crate::model::kernel;\n// crate::output\nlet x = crate::exact::solve(i);"),
        BTreeSet::from(["model".to_string(), "exact".to_string()])
    );
}

#[test]
fn the_library_knows_no_command_line_parser_and_no_flag() {
    for (_, path) in library_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("clap::") && !text.contains("use clap"), "{} uses clap", path.display());
        // Errors name options (`InputError::option`); only the binary spells them as flags.
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let spelled = line.contains("\"--") || line.contains(" --") && line.contains('"') && !line.trim_start().starts_with("#[");
            assert!(!spelled, "{} spells a flag: {line}", path.display());
        }
    }
}

#[test]
fn the_binary_main_file_is_small() {
    let main = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/makespan/main.rs");
    let lines = std::fs::read_to_string(main).unwrap().lines().count();
    assert!(lines <= 200, "src/bin/makespan/main.rs has {lines} lines");
}
