//! Real compiler output (nvcc 13.5 for sm_90, llc 14 for sm_80) run through `ptxvm run`.
//!
//! Every case in `tests/compilers/` is a launch spec (`NAME.launch.json`) and an expected
//! result (`NAME.expected.json`) computed by `tools/compiler_cases.py`, an independent
//! Python reference of the kernel's source, never from ptxvm. The expected file names the
//! PTX (`ptx`, a path in the corpus), the exit code, and either every buffer after the
//! launch (`buffers`; a `null` element is order-dependent and not checked) or substrings of
//! the fault diagnostic (`stderr`).
//!
//! A case with `"enabled": false` waits for an instruction ptxvm cannot run yet
//! (`waiting_for`). It must still fail that way, with exit 1 and a diagnostic that ends in
//! "yet" ("cannot run this instruction yet", "not supported yet"). Once it runs, this test
//! fails and says so, so that the case gets enabled (or its wrong result looked at).
//! `COMPILERS_CASE=substring` runs only the matching cases.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/compilers");

struct Case {
    name: String,
    spec: PathBuf,
    expected: Value,
}

fn cases() -> Vec<Case> {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .expect("tests/compilers exists")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".expected.json").map(str::to_owned)
        })
        .collect();
    names.sort();
    let filter = std::env::var("COMPILERS_CASE").unwrap_or_default();
    names
        .into_iter()
        .filter(|n| n.contains(&filter))
        .map(|name| {
            let path = Path::new(DIR).join(format!("{name}.expected.json"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let expected = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            Case { spec: Path::new(DIR).join(format!("{name}.launch.json")), name, expected }
        })
        .collect()
}

/// What one run gave: exit code, stdout parsed as JSON (or Null) and stderr.
struct Run {
    code: Option<i32>,
    json: Value,
    stderr: String,
}

fn run(case: &Case) -> Run {
    let ptx = case.expected["ptx"].as_str().unwrap_or_else(|| panic!("{}: no \"ptx\" field", case.name));
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", ptx, "--launch"])
        .arg(&case.spec)
        .output()
        .expect("ptxvm runs");
    Run {
        code: out.status.code(),
        json: serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// An integer element as i128 (covers both u64 and i64).
fn int(v: &Value) -> Option<i128> {
    v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from))
}

/// A float element as f64: a number, "nan", "inf", "-inf", or "0x..." bits of the
/// element type (the contract's value syntax; results print every NaN as "nan").
fn float(elem: &str, v: &Value) -> Option<f64> {
    match v {
        Value::String(s) => match s.as_str() {
            "nan" => Some(f64::NAN),
            "inf" => Some(f64::INFINITY),
            "-inf" => Some(f64::NEG_INFINITY),
            hex => {
                let bits = u64::from_str_radix(hex.strip_prefix("0x")?, 16).ok()?;
                Some(match elem {
                    "f64" => f64::from_bits(bits),
                    "f32" => f64::from(f32::from_bits(bits as u32)),
                    "f16" => half::f16::from_bits(bits as u16).to_f64(),
                    _ => half::bf16::from_bits(bits as u16).to_f64(),
                })
            }
        },
        other => other.as_f64(),
    }
}

/// The bits of a float in its element type; every NaN is the same (results print "nan").
fn float_bits(elem: &str, x: f64) -> u64 {
    if x.is_nan() {
        return u64::MAX;
    }
    match elem {
        "f64" => x.to_bits(),
        "f32" => u64::from((x as f32).to_bits()),
        "f16" => u64::from(half::f16::from_f64(x).to_bits()),
        "bf16" => u64::from(half::bf16::from_f64(x).to_bits()),
        other => panic!("not a float element type: {other}"),
    }
}

fn same(elem: &str, want: &Value, got: &Value) -> bool {
    if want.is_null() {
        return true;
    }
    if matches!(elem, "f16" | "bf16" | "f32" | "f64") {
        match (float(elem, want), float(elem, got)) {
            (Some(w), Some(g)) => float_bits(elem, w) == float_bits(elem, g),
            _ => false,
        }
    } else {
        matches!((int(want), int(got)), (Some(w), Some(g)) if w == g)
    }
}

/// Compares a run with the expected result; `Err` says how it differs.
fn check(case: &Case, run: &Run) -> Result<(), String> {
    let want_exit = case.expected["exit"].as_i64().unwrap_or(0) as i32;
    if run.code != Some(want_exit) {
        return Err(format!("exit {:?}, expected {want_exit}; stderr: {}", run.code, run.stderr.trim()));
    }
    if want_exit != 0 {
        let missing: Vec<&str> = case.expected["stderr"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).filter(|s| !run.stderr.contains(s)).collect())
            .unwrap_or_default();
        return if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("stderr lacks {missing:?}: {}", run.stderr.trim()))
        };
    }
    let empty = Vec::new();
    let got = run.json["buffers"].as_array().unwrap_or(&empty);
    let want = case.expected["buffers"].as_array().unwrap_or(&empty);
    if got.len() != want.len() {
        return Err(format!("{} buffers in the result, expected {}", got.len(), want.len()));
    }
    let mut diffs = Vec::new();
    for (w, g) in want.iter().zip(got) {
        let arg = &w["arg"];
        let elem = w["buffer"].as_str().unwrap_or("?");
        if g["arg"] != *arg || g["buffer"] != w["buffer"] {
            diffs.push(format!("result buffer {g:?} where arg {arg} ({elem}) was expected"));
            continue;
        }
        let (wd, gd) = (w["data"].as_array().unwrap_or(&empty), g["data"].as_array().unwrap_or(&empty));
        if wd.len() != gd.len() {
            diffs.push(format!("arg {arg}: {} elements, expected {}", gd.len(), wd.len()));
            continue;
        }
        let bad: Vec<usize> = (0..wd.len()).filter(|&i| !same(elem, &wd[i], &gd[i])).collect();
        if let Some(&first) = bad.first() {
            let shown: Vec<String> =
                bad.iter().take(8).map(|&i| format!("[{i}] got {} want {}", gd[i], wd[i])).collect();
            diffs.push(format!(
                "arg {arg} ({elem}): {} of {} elements differ, first at {first}: {}",
                bad.len(),
                wd.len(),
                shown.join(", ")
            ));
        }
    }
    if diffs.is_empty() { Ok(()) } else { Err(diffs.join("\n    ")) }
}

/// A disabled case still fails because ptxvm lacks something (exit 1, and the diagnostic
/// says ptxvm cannot do it yet: "cannot run this instruction yet", "not supported yet",
/// "not a register ptxvm can run with yet").
fn still_waiting(run: &Run) -> bool {
    run.code == Some(1)
        && run.stderr.lines().next().is_some_and(|l| l.contains("error:") && l.ends_with(" yet"))
}

#[test]
fn compiler_kernels_give_the_reference_results() {
    let cases = cases();
    assert!(!cases.is_empty() || std::env::var("COMPILERS_CASE").is_ok(), "no cases in {DIR}");
    let mut failures = Vec::new();
    for case in &cases {
        let enabled = case.expected["enabled"].as_bool().unwrap_or(true);
        let r = run(case);
        let outcome = check(case, &r);
        let waiting = case.expected["waiting_for"].as_str().unwrap_or("?");
        match (enabled, outcome) {
            (true, Ok(())) => println!("pass     {}", case.name),
            (true, Err(e)) => failures.push(format!("{}: {e}", case.name)),
            (false, Ok(())) => failures.push(format!(
                "{}: passes now (it waited for {waiting}): enable it in tools/compiler_cases.py",
                case.name
            )),
            (false, Err(_)) if still_waiting(&r) => {
                let first = r.stderr.lines().next().unwrap_or("");
                println!("disabled {} (waits for {waiting}): {first}", case.name);
            }
            (false, Err(e)) => failures
                .push(format!("{}: no longer waits for {waiting} but fails otherwise: {e}", case.name)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}
