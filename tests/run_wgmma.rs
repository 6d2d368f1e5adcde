//! What the PTX ISA leaves undefined about `wgmma.mma_async` (9.7.15.5), and ptxvm
//! reports, beside the defined orders, through `ptxvm run` on hand-written PTX in
//! `tests/data/run/wgmma_faults.ptx`: shared memory is zero, so D = A*B + C keeps C,
//! which each kernel sets to 1, 2, ... 8 in `%f1..%f8`. The products themselves are
//! checked in `tests/kernels.rs` (`tools/wgmma_cases.py`); Triton's own sm_90a GEMM
//! (`corpus/triton/matmul_wgmma.ptx`) runs here against a GEMM in Rust.

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
/// read (4 from every thread of the warp that faults, before the fault), the second's
/// `%f8` is not.
#[test]
fn wait_group_n_leaves_the_newest_n_groups_pending() {
    let (out, json) = run("wait_one", 128);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("wgmma_faults.ptx:133:5: fault") && err.contains("%f8"), "{err}");
    assert!(err.contains("129:5: note: `wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f5"), "{err}");
    let tid = err.split("tid=(").nth(1).and_then(|t| t.split(',').next()?.parse::<usize>().ok()).unwrap();
    let warp = tid / 32;
    assert_eq!(floats(&json)[32 * warp..32 * warp + 32], [4.0; 32], "{err}");
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

/// Runs one of Triton 3.9's sm_90a GEMMs (`corpus/triton/gen_sm90a.py`) 128 x 128 x
/// 128 on a 2 x 2 grid with `smem` bytes of shared memory, its own scalars `scalars`
/// and `scratch` bytes of global scratch per CTA, against a GEMM in Rust. Small
/// integers: every sum is exact in f32, so C is A B exactly.
fn triton_gemm(ptx: &str, kernel: &str, block: u32, smem: u32, scalars: &[usize], scratch: usize) {
    let (m, n, k) = (128usize, 128usize, 128usize);
    let a: Vec<i32> = (0..m * k).map(|e| ((e / k * 7 + e % k * 3) % 11) as i32 - 5).collect();
    let b: Vec<i32> = (0..k * n).map(|e| ((e / n * 5 + e % n * 2) % 9) as i32 - 4).collect();
    // Small integers: exact in f16.
    let f16 = |x: i32| half::f16::from_f32(x as f32).to_bits();
    let list = |v: &[i32]| v.iter().map(|&x| f16(x).to_string()).collect::<Vec<_>>().join(", ");
    let scalars: Vec<String> =
        scalars.iter().map(|v| format!(r#"{{"type": "u32", "value": {v}}}"#)).collect();
    let spec = format!(
        r#"{{"kernel": "{kernel}", "grid": [2, 2], "block": {block}, "dynamic_shared_bytes": {smem}, "args": [
            {{"buffer": "u16", "data": [{}]}}, {{"buffer": "u16", "data": [{}]}}, {{"buffer": "f32", "len": {}}},
            {}, {{"buffer": "u8", "len": {}}}, {{"buffer": "u8", "len": 16}}]}}"#,
        list(&a),
        list(&b),
        m * n,
        scalars.join(", "),
        (4 * scratch).max(16)
    );
    let (out, json) = common::run_spec(ptx, &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = floats_at(&json, 2);
    for i in 0..m {
        for j in 0..n {
            let want: i32 = (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum();
            assert_eq!(got[i * n + j], f64::from(want), "{kernel}: C[{i}][{j}]");
        }
    }
}

/// Tiles through pointers: wgmma from descriptors with B transposed, fed by a
/// pipeline of `cp.async` stages.
#[test]
fn tritons_sm90a_wgmma_gemm_matches_a_cpu_gemm() {
    let strides = [128, 128, 128, 128, 1, 128, 1, 128, 1];
    triton_gemm("corpus/triton/matmul_wgmma.ptx", "matmul", 128, 16384, &strides, 0);
}

/// Tiles through tensor descriptors Triton makes on the device: `tensormap.replace`
/// of every field of 128 zeroed bytes in shared memory, `tensormap.cp_fenceproxy` into
/// its global scratch (384 bytes a CTA), TMA loads on mbarriers, a TMA store.
#[test]
fn tritons_sm90a_tma_gemm_makes_its_tensor_maps_on_the_device() {
    triton_gemm("corpus/triton/matmul_tma.ptx", "matmul_tma", 128, 24600, &[128, 128, 128], 384);
}

/// The same loop warp-specialized (`tl.range(..., warp_specialize=True)`): 384 threads,
/// a producer warp issuing the TMA loads while the consumer warpgroups wait on
/// mbarriers with `try_wait.parity` given `-(phase & 1)` (`phase_parity_is_its_low_bit`
/// in tests/run_mbarrier.rs).
#[test]
fn tritons_warp_specialized_gemm_matches_a_cpu_gemm() {
    triton_gemm("corpus/triton/matmul_ws.ptx", "matmul_ws", 384, 57752, &[128, 128, 128], 512);
}

fn floats_at(json: &Value, k: usize) -> Vec<f64> {
    json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
}

/// PTX ISA 9.7.15.5.1: `wgmma.fence` must come before the first `wgmma.mma_async`,
/// and between any other access to a wgmma's accumulator or A registers and the
/// wgmma; without it the behaviour is undefined.
#[test]
fn a_wgmma_needs_a_fence_after_its_registers_were_last_touched() {
    let err = fault("no_fence", 128);
    assert!(err.contains("301:5: fault") && err.contains("with no wgmma.fence before it"), "{err}");
    let err = fault("write_after_fence", 128);
    assert!(err.contains("333:5: fault") && err.contains("was accessed since the last wgmma.fence"), "{err}");
    assert!(err.contains("332:5: note: `mov.f32 %f3, 0f41200000;`: the access"), "{err}");
}
