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
    "time_unit",
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

#[test]
fn the_library_uses_no_dependency_of_the_cli_feature() {
    for (_, path) in library_files() {
        let text = std::fs::read_to_string(&path).unwrap();
        for dep in ["indicatif", "plotters", "ctrlc", "clap_complete"] {
            assert!(!text.contains(&format!("{dep}::")), "{} uses {dep} (a dependency of the `cli` feature)", path.display());
        }
    }
}

/// Every file under `src/`, as its path relative to `src/` (`rta/analysis.rs`).
fn source_paths() -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut paths: Vec<String> = files.iter().map(|p| p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/")).collect();
    paths.sort();
    paths
}

#[test]
fn every_source_file_is_in_the_architecture_page() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md")).unwrap();
    let missing: Vec<String> = source_paths().into_iter().filter(|p| !doc.contains(&format!("`{p}`"))).collect();
    assert!(missing.is_empty(), "docs/architecture.md does not name (as `path`, relative to src/): {}", missing.join(", "));
}

/// The sibling files of `dir` (a folder of `src/`) that the code of `text` names, as
/// `crate::<dir>::<file>`, `super::<file>` (from a file of `dir`) or `self::<file>`.
fn sibling_uses(dir: &str, text: &str, siblings: &BTreeSet<String>) -> BTreeSet<String> {
    let prefix = format!("crate::{}::", dir.replace('/', "::"));
    let mut found = BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for p in [prefix.as_str(), "super::"] {
            for (i, _) in line.match_indices(p) {
                let rest = &line[i + p.len()..];
                let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
                    group
                        .split('}')
                        .next()
                        .unwrap_or("")
                        .split(',')
                        .map(|n| n.trim().split("::").next().unwrap_or("").to_string())
                        .collect()
                } else {
                    vec![rest.chars().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_').collect()]
                };
                found.extend(names.into_iter().filter(|n| siblings.contains(n)));
            }
        }
    }
    found
}

/// A circle among the files of `src/<dir>/` (files that use each other, directly or
/// through others of the folder), if any, as the file names along it.
fn file_circle(dir: &str) -> Option<Vec<String>> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut edges = std::collections::BTreeMap::new();
    let names: BTreeSet<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs") && p.file_name().unwrap() != "mod.rs")
        .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
        .collect();
    for name in &names {
        let text = std::fs::read_to_string(folder.join(format!("{name}.rs"))).unwrap();
        let mut used = sibling_uses(dir, &text, &names);
        used.remove(name);
        edges.insert(name.clone(), used);
    }
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        edges: &std::collections::BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            return Some(path[i..].iter().cloned().chain([n.to_string()]).collect());
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_string());
        for m in &edges[n] {
            if let Some(c) = visit(m, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    names.iter().find_map(|n| visit(n, &edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_file_circle_in_rta_model_or_system() {
    for dir in ["rta", "model", "system"] {
        assert_eq!(file_circle(dir), None, "files of src/{dir}/ use each other in a circle");
    }
}

#[test]
fn the_circle_check_sees_uses() {
    let siblings = BTreeSet::from(["jobs".to_string(), "time".to_string(), "gpu".to_string()]);
    let text = "use crate::rta::jobs::{sequence, Job};\nuse super::{time::Ticks, gpu};\n// crate::rta::list\n";
    assert_eq!(sibling_uses("rta", text, &siblings), siblings);
}

#[test]
fn no_function_of_the_binary_is_over_80_lines() {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin");
    let mut files = Vec::new();
    rust_files(&bin, &mut files);
    let mut long = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let is_fn = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn "].iter().any(|p| trimmed.starts_with(p));
            if !is_fn || line.trim_end().ends_with(';') {
                continue;
            }
            // rustfmt closes a function at its own indentation.
            let close = format!("{}}}", &line[..line.len() - trimmed.len()]);
            let end = lines[i..].iter().position(|l| l.trim_end() == close).map_or(lines.len(), |k| i + k);
            if end + 1 - i > 80 {
                long.push(format!("{}:{} ({} lines)", path.display(), i + 1, end + 1 - i));
            }
        }
    }
    assert!(long.is_empty(), "functions over 80 lines in src/bin/: {}", long.join(", "));
}

#[test]
fn the_readme_library_example_is_the_crate_doctest() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme.split("## As a library").nth(1).expect("README has a section \"As a library\"");
    let code = section.split("```rust\n").nth(1).and_then(|c| c.split("```").next()).expect("a rust example in it");
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let doc: Vec<&str> = lib.lines().filter_map(|l| l.strip_prefix("//! ").or(l.strip_prefix("//!"))).collect();
    let lines: Vec<&str> = code.lines().collect();
    let found = doc.windows(lines.len()).any(|w| w == lines.as_slice());
    assert!(found, "the README's library example is not, line for line, an example of src/lib.rs's crate doc (tested as a doctest)");
}

#[test]
fn the_readme_stays_a_guide_and_no_page_points_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.lines().count() <= 600, "README.md has {} lines (at most 600: details go to docs/)", readme.lines().count());
    let mut pages = vec![root.join("README.md")];
    pages.extend(
        std::fs::read_dir(root.join("docs")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    let repo = root.canonicalize().unwrap();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        assert!(!text.contains("../shared"), "{} points outside the repository", page.display());
        // Every relative link resolves to a file of the repository.
        for (i, _) in text.match_indices("](") {
            let target: String = text[i + 2..].chars().take_while(|c| *c != ')' && *c != '#').collect();
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let path = page.parent().unwrap().join(&target);
            let resolved = path.canonicalize().unwrap_or_else(|_| panic!("{}: link to {target}, which does not exist", page.display()));
            assert!(resolved.starts_with(&repo), "{}: link to {target}, outside the repository", page.display());
        }
    }
}
