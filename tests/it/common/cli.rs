//! Helpers for tests that run the real `makespan` binary.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

/// The `makespan` binary under test.
pub fn makespan() -> Command {
    Command::cargo_bin("makespan").unwrap()
}

/// Runs `args` with `--json`, expects success, returns the parsed output.
pub fn json_of(args: &[&str]) -> Value {
    let out = makespan().args(args).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs `args`, expects exit code 2 and a one-line error (no panic) containing `field`;
/// returns the error.
pub fn input_error<S: AsRef<std::ffi::OsStr>>(args: &[S], field: &str) -> String {
    let out = makespan().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let shown: Vec<String> = args.iter().map(|a| a.as_ref().to_string_lossy().into_owned()).collect();
    assert_eq!(out.status.code(), Some(2), "{shown:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{shown:?}: {err}");
    assert!(err.contains(field), "{shown:?}: {err}");
    assert!(!err.contains("panicked"), "{shown:?}: {err}");
    err
}

/// Runs `args`, expects success and every one of `needles` on stdout.
pub fn assert_stdout(args: &[&str], needles: &[&str]) {
    let mut a = makespan().args(args).assert().success();
    for n in needles {
        a = a.stdout(predicate::str::contains(*n));
    }
}

/// Writes `text` to a file `name` in `dir` and returns its path as a string.
pub fn temp_file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// Runs `rta` on `text` saved with extension `ext`; expects the one-line error of
/// [`input_error`] naming `field`, and returns it.
pub fn rta_input_error(text: &str, ext: &str, field: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = temp_file(&dir, &format!("input.{ext}"), text);
    input_error(&["rta", &path], field)
}
