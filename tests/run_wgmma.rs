//! What the PTX ISA leaves undefined about `wgmma.mma_async` (9.7.15.5.2), and ptxvm
//! reports, beside the defined orders, through `ptxvm run` on hand-written PTX in
//! `tests/data/run/wgmma_faults.ptx`: shared memory is zero, so D = A*B + C keeps C,
//! which each kernel sets to 1, 2, ... 8 in `%f1..%f8`. The products themselves are
//! checked in `tests/kernels.rs` (`tools/wgmma_cases.py`).

mod common;

use serde_json::Value;
use std::process::Output;

const PTX: &str = "tests/data/run/wgmma_faults.ptx";

fn run(kernel: &str, block: u32) -> (Output, Value) {
    let spec = format!(
        r#"{{"kernel": "{kernel}", "grid": 1, "block": {block}, "args": [{{"buffer": "f32", "len": 128}}]}}"#
    );
    common::run_spec(PTX, &spec, &[])
}

fn floats(json: &Value) -> Vec<f64> {
    json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
}

/// Runs a kernel that must fault and returns its diagnostic.
fn fault(kernel: &str, block: u32) -> String {
    let (out, _) = run(kernel, block);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{kernel}: {err}");
    err
}

#[test]
fn accumulators_read_after_the_wait_hold_the_result() {
    for (kernel, want) in [("waits_first", 3.0), ("shared_after_wait", 1.0)] {
        let (out, json) = run(kernel, 128);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(floats(&json), vec![want; 128], "{kernel}");
    }
}

#[test]
fn an_accumulator_touched_before_its_wait_is_reported() {
    // Read by a store, and written by a mov before the commit.
    for (kernel, line) in [("reads_before_wait", "66:5"), ("writes_before_commit", "96:5")] {
        let err = fault(kernel, 128);
        assert!(err.contains(&format!("wgmma_faults.ptx:{line}: fault")), "{err}");
        assert!(err.contains("names an accumulator or A register of a wgmma.mma_async that no"), "{err}");
        assert!(err.contains("note: `wgmma.mma_async"), "{err}");
    }
}

/// `wait_group 1` completes every group but the newest: the first group's `%f4` is
/// read (4 from every thread of warp 0 before the fault), the second's `%f8` is not.
#[test]
fn wait_group_n_leaves_the_newest_n_groups_pending() {
    let (out, json) = run("wait_one", 128);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("wgmma_faults.ptx:133:5: fault") && err.contains("%f8"), "{err}");
    assert!(err.contains("129:5: note: `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f5"), "{err}");
    assert_eq!(floats(&json)[..32], [4.0; 32]);
}

#[test]
fn shared_memory_changed_under_a_pending_wgmma_is_reported_at_the_wait() {
    let err = fault("shared_changed", 128);
    // The store wrote 0x3c00 at tile + 2: byte 3 changed.
    assert!(
        err.contains("168:5: fault") && err.contains("shared memory at 0x3 that a wgmma.mma_async read"),
        "{err}"
    );
    assert!(err.contains("162:5: note") && err.contains("the wgmma.mma_async that read it"), "{err}");
}

#[test]
fn a_warpgroup_must_execute_the_same_wgmma() {
    let err = fault("disagree", 128);
    assert!(err.contains("tid=(32,0,0)") && err.contains("the warpgroup disagrees"), "{err}");
    assert!(err.contains("B 0x1000080001") && err.contains("B 0x1000080000"), "{err}");
    let err = fault("warp_leaves", 128);
    assert!(err.contains("warp 3 of the warpgroup exited without executing a wgmma.mma_async"), "{err}");
    let err = fault("waits_first", 64);
    assert!(err.contains("needs a whole warpgroup (threads 0..128), and the CTA has 64 threads"), "{err}");
}
