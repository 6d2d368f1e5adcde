//! Snapshots of whole textual outputs users read: `--help` and rendered diagnostics.
//! A change to them must be reviewed: rerun with `PTXVM_BLESS=1` to accept it, and
//! commit the new files in tests/snapshots/. (Computed results are never snapshots.)

use std::process::Command;

fn snapshot(name: &str, actual: &str) {
    let path = format!("tests/snapshots/{name}");
    if std::env::var_os("PTXVM_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(expected == actual, "{path} changed (PTXVM_BLESS=1 to accept):\n{actual}");
}

fn run(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm")).args(args).output().unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn help_texts() {
    snapshot("help.txt", &run(&["--help"]).0);
    snapshot("check_help.txt", &run(&["check", "--help"]).0);
}

#[test]
fn diagnostics_of_a_module_with_many_errors() {
    let (_, err) = run(&["check", "tests/data/invalid/many_errors.ptx"]);
    snapshot("many_errors.txt", &err);
}
