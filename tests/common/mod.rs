//! What the `ptxvm run` integration tests share: running a module with a launch
//! spec given as JSON text.

use serde_json::Value;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};

/// Runs `ptxvm run PTX --launch SPEC EXTRA...` from the crate's root, the spec
/// written to a file of its own (tests run in parallel); the output and the result
/// JSON (null when stdout is none).
pub fn run_spec(ptx: &str, spec: &str, extra: &[&str]) -> (Output, Value) {
    run_spec_env(ptx, spec, extra, &[])
}

/// [`run_spec`] with environment variables `env` set for `ptxvm`.
#[allow(dead_code)]
pub fn run_spec_env(ptx: &str, spec: &str, extra: &[&str], env: &[(&str, &str)]) -> (Output, Value) {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!("ptxvm-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.json", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&path, spec).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", ptx, "--launch", path.to_str().unwrap()])
        .args(extra)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out, json)
}
