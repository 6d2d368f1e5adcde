//! Kernels of our own compiled by nvcc 13 for sm_90 (`tests/kernels/src/`): softmax,
//! GELU, layer norm and Black-Scholes through CUDA's approximate math, the fast
//! intrinsics, `printf` with a struct passed by value, a failing `assert`, an
//! `mma.sync` tile fed by `ldmatrix`, `stmatrix`, `setmaxnreg` and `mma.sync` with f16
//! accumulators (`hopper.cu`), a `cp.async` double-buffered copy, and every one
//! of CUDA's SIMD intrinsics (packed `add/min/max.u16x2`, `vabsdiff2/4`), and the
//! half-precision `atomicAdd`s and 16-bit `atomicCAS`; libcu++'s `cuda::barrier`
//! (a producer/consumer across warps, a split arrive/wait, `cuda::memcpy_async`) and
//! `cuda::pipeline` double buffering, which compile to the mbarrier family; and the
//! `wmma` cases (`wmma_*`): the corpus's `<mma.h>` GEMMs
//! (`corpus/cuda/ptx/sm_{80,90}/wmma_gemm.ptx`), every other shape and type (sub-byte
//! too) in `tests/kernels/src/wmma.cu`, f64 in each rounding mode (`wmma_f64_rnd.ptx`,
//! hand-written), and the faults. Each runs through `ptxvm run` and is compared with
//! `NAME.expected.json`, which `tools/kernel_cases.py` (and `tools/wmma_cases.py`)
//! computes from the source in Python (never from ptxvm):
//! exactly, or within the stated tolerance where the kernel uses approximate math.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kernels");

fn check(name: &str) -> Result<(), String> {
    let read = |suffix: &str| -> Value {
        let path = Path::new(DIR).join(format!("{name}.{suffix}"));
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
    };
    let want = read("expected.json");
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", want["ptx"].as_str().unwrap(), "--launch"])
        .arg(Path::new(DIR).join(format!("{name}.launch.json")))
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.code() != want["exit"].as_i64().map(|c| c as i32) {
        return Err(format!("exit {:?}, want {}: {stderr}", out.status.code(), want["exit"]));
    }
    for s in want["stderr"].as_array().into_iter().flatten() {
        if !stderr.contains(s.as_str().unwrap()) {
            return Err(format!("stderr lacks {s}: {stderr}"));
        }
    }
    if want["exit"] != 0 {
        return Ok(());
    }
    // Device printf output, then the result JSON on the last line.
    let (printed, json) = stdout.trim_end().rsplit_once('\n').unwrap_or(("", stdout.trim_end()));
    let printed = if printed.is_empty() { String::new() } else { format!("{printed}\n") };
    if printed != want["stdout"].as_str().unwrap_or("") {
        return Err(format!("printed:\n{printed}\nwant:\n{}", want["stdout"].as_str().unwrap_or("")));
    }
    let result: Value = serde_json::from_str(json).map_err(|e| format!("{e}: {json}"))?;
    for b in want["buffers"].as_array().unwrap() {
        let arg = &b["arg"];
        let got = result["buffers"].as_array().unwrap().iter().find(|g| &g["arg"] == arg).unwrap();
        let (rel, abs) = (b["rel"].as_f64().unwrap(), b["abs"].as_f64().unwrap());
        let (got, exp) = (got["data"].as_array().unwrap(), b["data"].as_array().unwrap());
        if got.len() != exp.len() {
            return Err(format!("arg {arg}: {} elements, want {}", got.len(), exp.len()));
        }
        let mut worst = (0.0f64, 0usize);
        for (i, (g, e)) in got.iter().zip(exp).enumerate() {
            let (g, e) = (g.as_f64().unwrap_or(f64::NAN), e.as_f64().unwrap());
            let err = (g - e).abs();
            if err.is_nan() || err > abs + rel * e.abs() {
                return Err(format!("arg {arg}[{i}]: {g}, want {e} (within {abs} + {rel} x |want|)"));
            }
            let scaled = err / (abs + rel * e.abs()).max(f64::MIN_POSITIVE);
            if scaled > worst.0 {
                worst = (scaled, i);
            }
        }
        eprintln!("{name}: arg {arg}: worst error {:.2} of the tolerance, at {}", worst.0, worst.1);
    }
    Ok(())
}

#[test]
fn nvcc_kernels_match_their_references() {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .filter_map(|e| {
            e.ok()?.file_name().into_string().ok()?.strip_suffix(".expected.json").map(str::to_owned)
        })
        .collect();
    names.sort();
    // 24 from tools/kernel_cases.py, 25 from tools/wmma_cases.py, 35 from
    // tools/wgmma_cases.py (8 of them sparse), 19 from tools/mma_sp_cases.py.
    assert_eq!(names.len(), 103, "{names:?}");
    let failed: Vec<String> =
        names.iter().filter_map(|n| check(n).err().map(|e| format!("{n}: {e}"))).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
