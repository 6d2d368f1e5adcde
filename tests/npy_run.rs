//! `.npy` buffers through `ptxvm run` (docs/launch-spec.md): inputs are files NumPy
//! wrote (tests/data/npy/), and the expected outputs are computed here by hand.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy").join(name)
}

/// A fresh folder for one test.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptxvm-npy-run-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(spec: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(["run", "examples/saxpy.ptx", "--launch", spec.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap()
}

/// saxpy (y = a*x + y over n elements) with `x` and `y` as argument texts.
fn saxpy(dir: &Path, x: &str, y: &str, n: u32) -> PathBuf {
    let spec = dir.join("spec.json");
    let text = format!(
        r#"{{"kernel": "saxpy", "grid": 1, "block": 32, "args": [{{"type": "f32", "value": 2.0}}, {x}, {y}, {{"type": "s32", "value": {n}}}]}}"#
    );
    std::fs::write(&spec, text).unwrap();
    spec
}

#[test]
fn npy_inputs_and_out_dir_files_carry_the_bytes() {
    let dir = folder("saxpy");
    // f4.npy holds [1.0, -2.5, 0.125]; the path is relative to the spec's folder.
    std::fs::copy(fixture("f4.npy"), dir.join("x.npy")).unwrap();
    let spec = saxpy(
        &dir,
        r#"{"type": "buffer", "npy": "x.npy"}"#,
        r#"{"buffer": "f32", "data": [0.5, 0.5, 0.5], "name": "y"}"#,
        3,
    );
    let out_dir = dir.join("out");
    let out = run(&spec, &["--out-dir", out_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (x_file, y_file) = (out_dir.join("arg1.npy"), out_dir.join("y.npy"));
    let want = serde_json::json!({"kernel": "saxpy", "buffers": [
        {"arg": 1, "buffer": "f32", "len": 3, "npy": x_file.to_str().unwrap()},
        {"arg": 2, "buffer": "f32", "len": 3, "npy": y_file.to_str().unwrap()}]});
    assert_eq!(json, want);
    // x comes back as NumPy wrote it; y = 2x + 0.5 = [2.5, -4.5, 0.75], with the header
    // NumPy writes for a (3,) float32 array (f4.npy's first 128 bytes).
    assert_eq!(std::fs::read(&x_file).unwrap(), std::fs::read(fixture("f4.npy")).unwrap());
    let y = std::fs::read(&y_file).unwrap();
    let numpy = std::fs::read(fixture("f4.npy")).unwrap();
    assert_eq!(y[..128], numpy[..128]);
    let want: Vec<u8> = [2.5f32, -4.5, 0.75].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(y[128..], want);
}

#[test]
fn out_dir_with_out_writes_the_listing_to_the_file() {
    let dir = folder("listing");
    let x =
        format!(r#"{{"type": "buffer", "npy": {:?}, "name": "x"}}"#, fixture("v3_f4.npy").to_str().unwrap());
    let spec = saxpy(&dir, &x, r#"{"buffer": "f32", "len": 2, "name": "y"}"#, 2);
    let listing = dir.join("result.json");
    let out = run(&spec, &["--out-dir", dir.join("o").to_str().unwrap(), "--out", listing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
    let json: Value = serde_json::from_slice(&std::fs::read(&listing).unwrap()).unwrap();
    assert_eq!(json["buffers"][1]["len"], 2);
    // v3_f4.npy holds [1.0, 2.0]: y = 2x + 0 = [2.0, 4.0].
    let y = std::fs::read(dir.join("o/y.npy")).unwrap();
    let want: Vec<u8> = [2.0f32, 4.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert_eq!(y[y.len() - 8..], want);
}

#[test]
fn bad_npy_inputs_exit_1_naming_the_file_and_dtype() {
    let dir = folder("bad");
    for (file, message) in [
        ("big_f4.npy", "big_f4.npy: dtype '>f4' is big-endian"),
        ("object.npy", "object.npy: dtype '|O' is not a number type"),
        ("fortran_2x3_i4.npy", "Fortran order"),
        ("make_fixtures.py", "not a .npy file"),
    ] {
        let x = format!(r#"{{"type": "buffer", "npy": {:?}}}"#, fixture(file).to_str().unwrap());
        let spec = saxpy(&dir, &x, r#"{"buffer": "f32", "len": 2}"#, 2);
        let out = run(&spec, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains("args[1].npy") && err.contains(message), "{file}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // An out-dir that cannot be made: exit 1 naming it.
    let spec = saxpy(&dir, r#"{"buffer": "f32", "len": 2}"#, r#"{"buffer": "f32", "len": 2}"#, 2);
    std::fs::write(dir.join("file"), b"").unwrap();
    let out = run(&spec, &["--out-dir", dir.join("file/sub").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot create"));
}
