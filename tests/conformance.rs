//! The conformance corpus of `tests/conformance/` (written by `tools/conformance.py`
//! from a reference built on the PTX ISA text, never from ptxvm): every case is a PTX
//! module, a launch spec and the expected result, run through the `ptxvm` binary as
//! the launch contract says. Each case is its own named test (`group/case`), so
//! `cargo test --test conformance -- setp_float/` runs one group and a failure names
//! the case.
//!
//! A case passes when the exit code matches, stderr holds every expected substring
//! (fault cases), and every buffer of the result JSON matches: integer buffers exactly,
//! float buffers by value in their own type (NaN matches NaN).

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The corpus must not silently shrink (issue 3 asks for at least 150 cases).
const MIN_CASES: usize = 150;

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = find_cases(&root.join("tests/conformance"));
    let count = cases.len();
    let mut trials: Vec<Trial> =
        cases.into_iter().map(|(name, ptx)| Trial::test(name, move || run_case(root, &ptx))).collect();
    trials.push(Trial::test("corpus_size", move || {
        if count >= MIN_CASES {
            Ok(())
        } else {
            Err(format!("{count} cases in tests/conformance, expected at least {MIN_CASES}").into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// Every `GROUP/CASE.ptx`, sorted, as (test name, path relative to the crate root).
fn find_cases(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let Ok(groups) = std::fs::read_dir(dir) else { return out };
    for group in groups.flatten().filter(|g| g.path().is_dir()) {
        let Ok(files) = std::fs::read_dir(group.path()) else { continue };
        for f in files.flatten() {
            let path = f.path();
            if path.extension().is_some_and(|e| e == "ptx") {
                let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                let g = group.file_name().to_string_lossy().into_owned();
                out.push((format!("{g}/{stem}"), PathBuf::from(format!("tests/conformance/{g}/{stem}.ptx"))));
            }
        }
    }
    out.sort();
    out
}

fn read_json(path: &Path) -> Result<Value, Failed> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn run_case(root: &Path, ptx: &Path) -> Result<(), Failed> {
    let stem = ptx.to_string_lossy().trim_end_matches(".ptx").to_string();
    let launch = format!("{stem}.launch.json");
    let expected = read_json(&root.join(format!("{stem}.expected.json")))?;
    let extra: Vec<String> = expected["cli_args"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(root)
        .arg("run")
        .arg(ptx)
        .args(["--launch", &launch])
        .args(&extra)
        .output()
        .map_err(|e| format!("cannot run ptxvm: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    let want_exit = expected["exit"].as_i64().unwrap_or(0);
    if out.status.code().map(i64::from) != Some(want_exit) {
        problems.push(format!("exit code {:?}, expected {want_exit}", out.status.code()));
    }
    for s in expected["stderr"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if !stderr.contains(s) {
            problems.push(format!("stderr lacks {s:?}"));
        }
    }
    match serde_json::from_slice::<Value>(&out.stdout) {
        Ok(result) => compare_buffers(&expected["buffers"], &result["buffers"], &mut problems),
        Err(e) => problems.push(format!("no result JSON on stdout ({e})")),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{}\nstderr: {}", problems.join("\n"), stderr.trim()).into())
    }
}

fn compare_buffers(want: &Value, got: &Value, problems: &mut Vec<String>) {
    let (Some(want), Some(got)) = (want.as_array(), got.as_array()) else {
        problems.push("result has no \"buffers\" list".into());
        return;
    };
    if want.len() != got.len() {
        problems.push(format!("{} buffers, expected {}", got.len(), want.len()));
    }
    for (w, g) in want.iter().zip(got) {
        let arg = &w["arg"];
        if w["arg"] != g["arg"] || w["buffer"] != g["buffer"] {
            problems.push(format!("buffer {} {}, expected arg {arg} {}", g["arg"], g["buffer"], w["buffer"]));
            continue;
        }
        let float = matches!(w["buffer"].as_str(), Some("f16" | "bf16" | "f32" | "f64"));
        let (wd, gd) = (w["data"].as_array(), g["data"].as_array());
        let (Some(wd), Some(gd)) = (wd, gd) else {
            problems.push(format!("arg {arg}: no data"));
            continue;
        };
        if wd.len() != gd.len() {
            problems.push(format!("arg {arg}: {} elements, expected {}", gd.len(), wd.len()));
            continue;
        }
        let bad: Vec<usize> = (0..wd.len()).filter(|&i| !same(&wd[i], &gd[i], float)).collect();
        if let Some(&first) = bad.first() {
            let shown: Vec<String> = bad
                .iter()
                .take(6)
                .map(|&i| format!("[{i}] got {} want {}", show(&gd[i]), show(&wd[i])))
                .collect();
            problems.push(format!(
                "arg {arg}: {} of {} elements differ (first at {first}): {}",
                bad.len(),
                wd.len(),
                shown.join(", ")
            ));
        }
    }
}

/// Integers compare exactly; floats by value, NaN equal to NaN.
fn same(want: &Value, got: &Value, float: bool) -> bool {
    if !float {
        return want == got;
    }
    match (float_of(want), float_of(got)) {
        (Some(a), Some(b)) => (a.is_nan() && b.is_nan()) || a == b,
        _ => false,
    }
}

fn float_of(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match s.as_str() {
            "nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            _ => None,
        },
        _ => None,
    }
}

fn show(v: &Value) -> String {
    match v.as_u64() {
        Some(n) => format!("{n:#x}"),
        None => v.to_string(),
    }
}
