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

