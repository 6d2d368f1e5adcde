//! Dynamic parallelism through `ptxvm run`: grids launched from device code run
//! after their parent, in launch order, with CUDA's limits (CUDA C++ Programming
//! Guide, "CUDA Dynamic Parallelism"; `cuda_device_runtime_api.h` for the error
//! codes). The kernels are nvcc's (`tests/data/run/children.cu`); expected values
//! follow from their source.

mod common;

use serde_json::Value;
use std::process::Output;

const PTX: &str = "tests/data/run/children.ptx";

fn run(kernel: &str, args: &str) -> (Output, Value) {
    run_grid(kernel, 1, args)
}

fn run_grid(kernel: &str, grid: u32, args: &str) -> (Output, Value) {
    let spec = format!(r#"{{"kernel": "{kernel}", "grid": {grid}, "block": 32, "args": [{args}]}}"#);
    common::run_spec(PTX, &spec, &[])
}

fn ints(json: &Value, k: usize) -> Vec<i64> {
    json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
}

#[test]
fn children_write_what_their_source_says() {
    let (out, json) = run("_Z6parentPi", r#"{"buffer": "s32", "len": 40}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let got = ints(&json, 0);
    for (i, &v) in got.iter().enumerate() {
        // Threads 0..3 launched children over out[8t..8t+8); nothing wrote 32..40.
        let want = if i < 32 { (i / 8 * 8 + 2 * (i % 8)) as i64 } else { 0 };
        assert_eq!(v, want, "out[{i}]");
    }
}

/// 24 levels of nesting below the host's grid (cudaLimitDevRuntimeSyncDepth's
/// hard limit): levels 0..=24 run, and the launch from level 24 returns
/// cudaErrorLaunchMaxDepthExceeded (65); every other launch succeeded.
#[test]
fn nesting_stops_at_depth_24_with_cudas_error() {
    let (out, json) = run(
        "_Z4deepPiS_i",
        r#"{"buffer": "s32", "len": 30}, {"buffer": "s32", "len": 30}, {"type": "s32", "value": 0}"#,
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (depths, errors) = (ints(&json, 0), ints(&json, 1));
    for d in 0..30 {
        assert_eq!(depths[d], if d <= 24 { d as i64 } else { 0 }, "depths[{d}]");
        assert_eq!(errors[d], if d == 24 { 65 } else { 0 }, "errors[{d}]");
    }
}

/// 2,048 launches may be pending (cudaLimitDevRuntimePendingLaunchCount's
/// default); more return cudaErrorLaunchPendingCountExceeded (69). The warp's 32
/// threads run the loop in step, so launches 0..63 of each make the 2,048 and
/// every later one fails; `errors[i]` is what launch `i` returned (every thread
/// writes the same value there).
#[test]
fn launches_past_the_pending_count_fail_with_cudas_error() {
    let (out, json) = run("_Z4manyPii", r#"{"buffer": "s32", "len": 100}, {"type": "s32", "value": 100}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let errors = ints(&json, 0);
    for (i, &e) in errors.iter().enumerate() {
        assert_eq!(e, if i < 64 { 0 } else { 69 }, "launch {i}");
    }
}

#[test]
fn a_fault_in_a_child_grid_is_the_launchs_fault() {
    let (out, json) = run("_Z13faulty_parentPi", r#"{"buffer": "s32", "len": 4}"#);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fault: kernel `_Z10writes_farPi (writes_far(int*))` (a grid launched from device code under `_Z13faulty_parentPi`)")
            && err.contains("out of bounds"),
        "{err}"
    );
    // The parent's own store is kept, as a fault keeps what was written before it.
    assert_eq!(ints(&json, 0), [5, 0, 0, 0]);
}

/// A child grid's printf output comes after its parent grid's, as the child runs
/// after the parent: CTA 0 launches before it prints, CTA 1 prints too.
#[test]
fn a_childs_printf_comes_after_its_parent_grids() {
    let (out, _) = run_grid("_Z11says_parentPi", 2, r#"{"buffer": "s32", "len": 1}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("parent CTA 0\nparent CTA 1\nchild of CTA 0\n"), "{text}");
}
