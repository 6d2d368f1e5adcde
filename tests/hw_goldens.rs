//! The hardware goldens of `tests/hw/` (see its README): PTX kernels whose results were
//! recorded on an NVIDIA H100, never produced by ptxvm. Every case folder holds
//! `kernel.ptx`, `launch.json` and `expected.json`, and is its own named test
//! (`folder/case`), so `cargo test --test hw_goldens -- its/` runs one folder and a
//! failure names the case.
//!
//! A case passes when `ptxvm run kernel.ptx --launch launch.json` exits as expected,
//! stderr holds every expected substring (fault cases), and every recorded buffer
//! matches bit for bit: ptxvm's printed values go back to raw bits through the buffer's
//! element type and meet the hardware's raw bits. Buffers the golden does not record
//! are not checked, and neither are the elements `tests/hw/known_differences.json`
//! lists, each with the reason the PTX does not determine its bits (written by
//! `tools/hw_known_differences.py`; a listed element that now matches is fine).

use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folders of `tests/hw/` and how many cases each held when committed: a folder
/// must not silently shrink.
const FOLDERS: [(&str, usize); 12] = [
    ("its", 8),
    ("its-random", 100),
    ("its-ub", 1),
    ("leaf_seed", 750),
    ("chain_seed", 250),
    ("leaf_arith", 375),
    ("chain_arith", 125),
    ("leaf_flow", 375),
    ("chain_flow", 125),
    ("leaf_width", 600),
    ("own", 16),
    ("tensor", 300),
];

/// How many of the project's cases a GPU ran (tests/hw/project: an H100, and the H200
/// for `kernels/`).
const PROJECT_CASES: usize = 366;

/// At most this many differing elements are shown per buffer.
const SHOWN: usize = 6;

/// What `tests/hw/known_differences.json` says of one case: the elements not compared,
/// as (argument, index), and, for undefined behaviour the GPU does not catch, the
/// exit code ptxvm gives instead (its buffers are then not compared) and substrings
/// its stderr must hold.
#[derive(Clone, Default)]
struct Known {
    skip: Vec<(u64, usize)>,
    exit: Option<i64>,
    stderr: Vec<Value>,
}

/// Every case's [`Known`], each entry with its reason.
fn known_differences(root: &Path) -> HashMap<String, Known> {
    let text = std::fs::read_to_string(root.join("known_differences.json")).unwrap_or_default();
    let json: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    let mut out = HashMap::new();
    for (case, entry) in json.as_object().into_iter().flatten() {
        assert!(
            entry["why"].as_str().is_some_and(|w| !w.is_empty()),
            "{case}: a known difference needs its reason"
        );
        let arg = entry["arg"].as_u64().unwrap_or(5);
        let elements = entry["elements"].as_array().into_iter().flatten();
        let skip = elements.filter_map(Value::as_u64).map(|k| (arg, k as usize)).collect();
        let stderr = entry["stderr"].as_array().cloned().unwrap_or_default();
        out.insert(case.clone(), Known { skip, exit: entry["exit"].as_i64(), stderr });
    }
    out
}

/// One golden: where ptxvm runs, the PTX and launch spec (relative to `cwd`), what the
/// H100 gave (`{"exit", "buffers": [{"arg", "buffer", "data"}]}`), and what is known
/// not to match.
struct Case {
    name: String,
    cwd: PathBuf,
    ptx: PathBuf,
    launch: PathBuf,
    expected: Value,
    known: Known,
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hw");
    let known = known_differences(&root);
    let mut trials = Vec::new();
    let mut counts = Vec::new();
    let mut add = |case: Case| {
        trials.push(Trial::test(case.name.clone(), move || run_case(&case)));
    };
    for (folder, min) in FOLDERS {
        let cases = find_cases(&root.join(folder));
        counts.push((folder.to_string(), cases.len(), min));
        for case in cases {
            let dir = root.join(folder).join(&case);
            let name = format!("{folder}/{case}");
            let expected = read_json(&dir.join("expected.json")).unwrap_or(Value::Null);
            let known = known.get(&name).cloned().unwrap_or_default();
            let (ptx, launch) = ("kernel.ptx".into(), "launch.json".into());
            add(Case { name, cwd: dir, ptx, launch, expected, known });
        }
    }
    let project = project_cases(&root, &known);
    counts.push(("project".to_string(), project.len(), PROJECT_CASES));
    for case in project {
        add(case);
    }
    trials.push(Trial::test("case_counts", move || {
        let short: Vec<String> = counts
            .iter()
            .filter(|(_, n, min)| n < min)
            .map(|(f, n, min)| format!("tests/hw/{f} has {n} cases, expected at least {min}"))
            .collect();
        if short.is_empty() { Ok(()) } else { Err(short.join("\n").into()) }
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// The project's own cases (tests/conformance, tests/compilers, examples) as the H100
/// ran them: `tests/hw/project/cases.json` names each one's PTX and launch spec in
/// this repository, and `GROUP/NAME.gpu.json` holds the exit code and every buffer's
/// raw bits.
fn project_cases(root: &Path, known: &HashMap<String, Known>) -> Vec<Case> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = read_json(&root.join("project/cases.json")).unwrap_or(Value::Null);
    let mut out = Vec::new();
    for (name, files) in manifest.as_object().into_iter().flatten() {
        let gpu = read_json(&root.join(format!("project/{name}.gpu.json"))).unwrap_or(Value::Null);
        // The recording names each buffer's element type `bits` where it read raw bits.
        let buffers: Vec<Value> = gpu["buffers"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| {
                let ty = b.get("bits").or_else(|| b.get("buffer")).cloned().unwrap_or(Value::Null);
                serde_json::json!({"arg": b["arg"], "buffer": ty, "data": b["data"]})
            })
            .collect();
        let known = known.get(&format!("project/{name}")).cloned().unwrap_or_default();
        let expected = serde_json::json!({"exit": gpu["exit"], "buffers": buffers, "stderr": known.stderr});
        out.push(Case {
            name: format!("project/{name}"),
            cwd: repo.to_path_buf(),
            ptx: PathBuf::from(files["ptx"].as_str().unwrap_or_default()),
            launch: PathBuf::from(files["launch"].as_str().unwrap_or_default()),
            expected,
            known,
        });
    }
    out
}

/// The case folders under `dir`, sorted. A folder missing one of its files is still a
/// case (it fails), not skipped.
fn find_cases(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<String> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn ptxvm(case: &Case, launch: &Path) -> Result<Output, String> {
    Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(&case.cwd)
        .arg("run")
        .arg(&case.ptx)
        .arg("--launch")
        .arg(launch)
        .output()
        .map_err(|e| format!("cannot run ptxvm: {e}"))
}

fn run_case(case: &Case) -> Result<(), Failed> {
    let expected = &case.expected;
    let recorded = expected["exit"].as_i64().ok_or("the golden has no integer \"exit\"")?;
    let want_exit = case.known.exit.unwrap_or(recorded);
    let out = ptxvm(case, &case.launch)?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let got_exit = out.status.code().map(i64::from);
    if got_exit != Some(want_exit) {
        return Err(format!("exit code {got_exit:?}, expected {want_exit}\nstderr: {}", stderr.trim()).into());
    }
    let mut problems = Vec::new();
    for s in expected["stderr"].as_array().into_iter().flatten() {
        let s = s.as_str().ok_or("expected.json: a \"stderr\" entry is not a string")?;
        if !stderr.contains(s) {
            problems.push(format!("stderr lacks {s:?}"));
        }
    }
    if want_exit == 0 {
        let text = String::from_utf8_lossy(&out.stdout);
        let result: Value =
            serde_json::from_str(&text).map_err(|e| format!("no result JSON on stdout ({e})"))?;
        for want in expected["buffers"].as_array().ok_or("the golden has no \"buffers\" list")? {
            if let Err(p) = check_buffer(case, want, &text, &result) {
                problems.push(p);
            }
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    if !stderr.trim().is_empty() {
        problems.push(format!("stderr: {}", stderr.trim()));
    }
    Err(problems.join("\n").into())
}

/// One element of ptxvm's output as raw bits; a NaN printed as `"nan"` has lost its bits.
#[derive(Clone, Copy, PartialEq)]
enum Got {
    Bits(u64),
    Nan,
}

/// Compares one recorded buffer (`want`, raw bits) with the same argument's buffer in
/// ptxvm's result.
fn check_buffer(case: &Case, want: &Value, text: &str, result: &Value) -> Result<(), String> {
    let arg = want["arg"].as_u64().ok_or("expected.json: a buffer without \"arg\"")?;
    let want_ty = want["buffer"].as_str().ok_or("expected.json: a buffer without element type")?;
    let want_width = width(want_ty).ok_or(format!("expected.json: unknown element type {want_ty}"))?;
    let want_data = want["data"].as_array().ok_or(format!("expected.json: arg {arg} has no data"))?;
    let want_bits = want_data
        .iter()
        .map(|v| raw_bits(v, want_width))
        .collect::<Result<Vec<u64>, String>>()
        .map_err(|e| format!("expected.json: arg {arg}: {e}"))?;

    let (got_ty, mut got) = result_buffer(text, result, arg)?;
    if width(&got_ty) != Some(want_width) {
        return Err(format!("arg {arg}: ptxvm printed {got_ty} elements, the golden holds {want_ty}"));
    }
    if got.len() != want_bits.len() {
        return Err(format!("arg {arg}: {} elements, expected {}", got.len(), want_bits.len()));
    }
    // A NaN printed as "nan" has lost its payload, and the hardware's NaN bits are part
    // of the golden. When such an element is expected to be a NaN, the launch is run
    // again with this buffer read as same-width unsigned integers (memory has no type,
    // so the kernel computes the same), which prints the exact bits. That is only
    // possible when the buffer's initial contents do not depend on its type (`len`, or
    // `"0x.."` data); otherwise the element cannot be compared and counts as a mismatch.
    if got.iter().zip(&want_bits).any(|(g, &w)| *g == Got::Nan && is_nan(&got_ty, w))
        && let Some(exact) = rerun_as_bits(case, arg, want_width)?
    {
        if exact.len() != got.len() {
            return Err(format!("arg {arg}: the rerun for NaN bits gave {} elements", exact.len()));
        }
        got = exact;
    }
    let bad: Vec<usize> = (0..got.len())
        .filter(|&i| got[i] != Got::Bits(want_bits[i]) && !case.known.skip.contains(&(arg, i)))
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let digits = want_width as usize / 4;
    let shown: Vec<String> = bad
        .iter()
        .take(SHOWN)
        .map(|&i| {
            let g = match got[i] {
                Got::Bits(b) => format!("{b:#0w$x}", w = digits + 2),
                Got::Nan => "nan (payload not printed)".to_string(),
            };
            format!("[{i}] got {g} want {:#0w$x}", want_bits[i], w = digits + 2)
        })
        .collect();
    Err(format!(
        "arg {arg} ({got_ty}): {} of {} elements differ (first at {}): {}",
        bad.len(),
        got.len(),
        bad[0],
        shown.join(", ")
    ))
}

/// The element type and the elements, as bits, of argument `arg`'s buffer in ptxvm's
/// result (`text`, parsed as `result`).
fn result_buffer(text: &str, result: &Value, arg: u64) -> Result<(String, Vec<Got>), String> {
    let buffers = result["buffers"].as_array().ok_or("result has no \"buffers\" list")?;
    let k = buffers
        .iter()
        .position(|b| b["arg"].as_u64() == Some(arg))
        .ok_or(format!("result has no buffer for arg {arg}"))?;
    let ty = buffers[k]["buffer"].as_str().ok_or(format!("arg {arg}: result buffer without element type"))?;
    let data = buffers[k]["data"].as_array().ok_or(format!("arg {arg}: result buffer without data"))?;
    let width = width(ty).ok_or(format!("arg {arg}: unknown element type {ty}"))?;
    let got = if matches!(ty, "f16" | "bf16" | "f32" | "f64") {
        let tokens = data_tokens(text, k).filter(|t| t.len() == data.len());
        let tokens = tokens.ok_or(format!("arg {arg}: cannot find its data in the result text"))?;
        tokens.iter().map(|t| float_token_bits(t, ty)).collect::<Result<Vec<Got>, String>>()
    } else {
        data.iter().map(|v| raw_bits(v, width).map(Got::Bits)).collect()
    };
    Ok((ty.to_string(), got.map_err(|e| format!("arg {arg}: ptxvm printed {e}"))?))
}

/// Runs the case again with argument `arg` retyped to `u{width}`, and returns that
/// buffer's exact bits. Initial data written as values (`1.5`, `"nan"`) is turned
/// into the bits the launch contract gives them first, so that it means the same;
/// `None` when that is not possible.
fn rerun_as_bits(case: &Case, arg: u64, width: u32) -> Result<Option<Vec<Got>>, String> {
    let mut launch = read_json(&case.cwd.join(&case.launch))?;
    let Some(spec) = launch["args"].get_mut(arg as usize) else { return Ok(None) };
    let ty = spec["buffer"].as_str().and_then(ptxvm::launch::ElemType::from_name);
    if let (Some(ty), Some(data)) = (ty, spec["data"].as_array_mut()) {
        for v in data.iter_mut() {
            let Ok(bits) = ptxvm::launch::encode(ty, v, "data") else { return Ok(None) };
            *v = Value::String(format!("{bits:#x}"));
        }
    }
    spec["buffer"] = Value::String(format!("u{width}"));
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("hw_goldens-{}-arg{arg}.json", case.name.replace('/', "-")));
    std::fs::write(&path, launch.to_string()).map_err(|e| format!("{}: {e}", path.display()))?;
    let out = ptxvm(case, &path)?;
    let _ = std::fs::remove_file(&path);
    if out.status.code() != Some(0) {
        return Err(format!("arg {arg}: the rerun with u{width} elements (to read NaN bits) did not exit 0"));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let result: Value = serde_json::from_str(&text).map_err(|e| format!("rerun: {e}"))?;
    Ok(Some(result_buffer(&text, &result, arg)?.1))
}

/// Bits of an element type, or `None` for an unknown type.
fn width(ty: &str) -> Option<u32> {
    match ty {
        "u8" | "s8" | "b8" => Some(8),
        "u16" | "s16" | "b16" | "f16" | "bf16" => Some(16),
        "u32" | "s32" | "b32" | "f32" => Some(32),
        "u64" | "s64" | "b64" | "f64" => Some(64),
        _ => None,
    }
}

/// A raw-bits value of a golden: a non-negative number, a negative number (the
/// same-width two's complement, as for `s32` data) or a `"0x.."` string.
fn raw_bits(v: &Value, width: u32) -> Result<u64, String> {
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let bits = if let Some(u) = v.as_u64() {
        u
    } else if let Some(i) = v.as_i64() {
        if width < 64 && i < -(1i64 << (width - 1)) {
            return Err(format!("{i} does not fit {width} bits"));
        }
        (i as u64) & mask
    } else if let Some(hex) = v.as_str().and_then(|s| s.strip_prefix("0x")) {
        u64::from_str_radix(hex, 16).map_err(|e| format!("{v}: {e}"))?
    } else {
        return Err(format!("{v} is not raw bits"));
    };
    if bits & !mask != 0 {
        return Err(format!("{v} does not fit {width} bits"));
    }
    Ok(bits)
}

/// The JSON tokens of the `k`-th buffer's `"data"` list in ptxvm's result text. Floats
/// are read from their text, not through serde_json's f64 (which is not always the
/// nearest one), so that a printed decimal comes back to exactly its bits.
fn data_tokens(text: &str, k: usize) -> Option<Vec<&str>> {
    let (at, _) = text.match_indices("\"data\"").nth(k)?;
    let rest = text[at + 6..].trim_start().strip_prefix(':')?.trim_start().strip_prefix('[')?;
    let list = rest[..rest.find(']')?].trim();
    Some(if list.is_empty() { Vec::new() } else { list.split(',').map(str::trim).collect() })
}

/// A float as ptxvm prints it (the shortest decimal that reads back to the same value of
/// its type, or `"nan"`, `"inf"`, `"-inf"`), back to bits.
fn float_token_bits(tok: &str, ty: &str) -> Result<Got, String> {
    let inf: u64 = match ty {
        "f16" => 0x7c00,
        "bf16" => 0x7f80,
        "f32" => 0x7f80_0000,
        _ => 0x7ff0_0000_0000_0000,
    };
    let sign_bit = 1u64 << (width(ty).unwrap_or(64) - 1);
    let bad = || format!("{tok} as {ty}");
    match tok {
        "\"nan\"" => return Ok(Got::Nan),
        "\"inf\"" => return Ok(Got::Bits(inf)),
        "\"-inf\"" => return Ok(Got::Bits(sign_bit | inf)),
        _ => {}
    }
    let bits = match ty {
        // Rust's parsing rounds the decimal itself to nearest, ties to even.
        "f64" => tok.parse::<f64>().map_err(|_| bad())?.to_bits(),
        "f32" => u64::from(tok.parse::<f32>().map_err(|_| bad())?.to_bits()),
        _ => {
            let x: f64 = tok.parse().map_err(|_| bad())?;
            let sign = if x.is_sign_negative() { sign_bit } else { 0 };
            let abs = tok.trim_start_matches('-');
            let value = |b: u64| {
                if ty == "f16" {
                    half::f16::from_bits(b as u16).to_f64()
                } else {
                    half::bf16::from_bits(b as u16).to_f64()
                }
            };
            // half's own f64 conversions drop low bits before rounding, so not those.
            let beyond = if ty == "f16" { 65536.0 } else { 2f64.powi(128) };
            sign | nearest(abs, x.abs(), inf, beyond, value)
        }
    };
    Ok(Got::Bits(bits))
}

/// The pattern of a 16-bit float type nearest to the decimal `text` (not negative; `a`
/// is the f64 nearest to it), ties to even, overflowing to `inf` (the infinity pattern).
/// `value` gives each finite pattern's value exactly, rising with the pattern; `beyond`
/// is the power of two past the largest finite value, from which IEEE measures
/// overflow. Midpoints are exact in f64; where `a` lands on one, the decimal itself
/// decides (it may lie just off the midpoint).
fn nearest(text: &str, a: f64, inf: u64, beyond: f64, value: impl Fn(u64) -> f64) -> u64 {
    if a.is_infinite() {
        return inf;
    }
    let at = |p: u64| if p == inf { beyond } else { value(p) };
    // The largest p with at(p) <= a (at(0) = 0 <= a).
    let (mut lo, mut hi) = (0, inf);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if at(mid) <= a { lo = mid } else { hi = mid - 1 }
    }
    if lo == inf {
        return inf;
    }
    let midpoint = (at(lo) + at(lo + 1)) / 2.0;
    let side = if a == midpoint { cmp_decimal(text, midpoint) } else { a.total_cmp(&midpoint) };
    match side {
        Ordering::Less => lo,
        Ordering::Greater => lo + 1,
        Ordering::Equal => lo + lo % 2,
    }
}

/// A non-negative decimal compared exactly with a positive finite f64.
fn cmp_decimal(text: &str, m: f64) -> Ordering {
    // Rust prints an f64 exactly when asked for enough digits (767 suffice).
    let (a, b) = (digits_exp(text), digits_exp(&format!("{m:.800e}")));
    if a.0.is_empty() {
        return Ordering::Less;
    }
    a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0))
}

/// A non-negative decimal as its significant digits (no leading or trailing zeros) and
/// the power of ten of the first of them. With equal powers, the digit strings compare
/// as the values do.
fn digits_exp(s: &str) -> (String, i64) {
    let (mantissa, exp) = s.split_once(['e', 'E']).unwrap_or((s, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let lead = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0').to_string();
    (digits, int.len() as i64 - 1 - lead as i64 + exp)
}

/// Whether `bits` is a NaN of float type `ty` (never for integer types).
fn is_nan(ty: &str, bits: u64) -> bool {
    match ty {
        "f16" => half::f16::from_bits(bits as u16).is_nan(),
        "bf16" => half::bf16::from_bits(bits as u16).is_nan(),
        "f32" => f32::from_bits(bits as u32).is_nan(),
        "f64" => f64::from_bits(bits).is_nan(),
        _ => false,
    }
}
