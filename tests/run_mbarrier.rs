//! mbarrier objects and bulk copies through `ptxvm run` (PTX ISA 9.7.13.15,
//! 9.7.9.25.4.1), on hand-written PTX in `tests/data/run/mbarrier_*.ptx`. Expected
//! values follow from the ISA's rules as each test states them, never from ptxvm;
//! nvcc's own use of the family (libcu++'s `cuda::barrier`, `cuda::pipeline`) is in
//! `tests/kernels.rs`.

mod common;

use serde_json::Value;
use std::process::{Command, Output};

fn run(ptx: &str, kernel: &str, block: u32, args: &str, extra: &[&str]) -> (Output, Value) {
    let spec = format!(r#"{{"kernel": "{kernel}", "grid": 1, "block": {block}, "args": [{args}]}}"#);
    common::run_spec(ptx, &spec, extra)
}

fn words(json: &Value, k: usize) -> Vec<u64> {
    json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
}

fn ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn phases_parities_states_pending_counts_and_tx_counts_follow_the_isa() {
    let (out, json) =
        run("tests/data/run/mbarrier_phases.ptx", "phases", 1, r#"{"buffer": "u32", "len": 15}"#, &[]);
    ok(&out);
    let want = [
        3, // pending_count of the first arrival's state: 3 pending before it
        0, // test_wait.parity 0 in phase 0: the current phase is not complete
        1, // test_wait.parity 1 in phase 0: the preceding phase counts as complete
        0, // test_wait on the state of phase 0, still running
        2, // a .noComplete arrival with 2 pending (then a plain one completes phase 0)
        1, // phase 1: parity 0 names phase 0, complete
        1, // try_wait on phase 0's state (with a suspend-time hint): complete
        0, // test_wait on a state of phase 1: not complete
        2, // arrive_drop.noComplete in phase 1 saw 2 pending (3 - 1)
        2, // phase 2 expects 2 arrivals: the drop lowered the expected count
        1, // try_wait.parity 1 in phase 2: phase 1 is complete
        0, // all arrivals in but 48 bytes expected: not complete
        0, // 40 of them completed: still not
        1, // the last 8: phase 2 completes
        2, // phase 3 through a generic address: 2 pending before a .noComplete arrival
    ];
    assert_eq!(words(&json, 0), want);
}

/// phaseParity names a phase by its low bit alone: ptxas 13.5 compiles
/// `mbarrier.test_wait.parity`/`try_wait.parity` to `SHF.L.U32 R0, Rparity, 0x1f`
/// feeding `SYNCS.PHASECHK`, so only bit 0 reaches the phase check, and Triton's
/// warp-specialized matmul passes `-(phase & 1)`. On a fresh barrier 2 is phase 0's
/// parity (not complete), 3 and 0xffffffff the preceding phase's (complete).
#[test]
fn phase_parity_is_its_low_bit() {
    let (out, json) =
        run("tests/data/run/mbarrier_phases.ptx", "wide_parity", 1, r#"{"buffer": "u32", "len": 3}"#, &[]);
    ok(&out);
    assert_eq!(words(&json, 0), [0, 1, 1]);
}

/// out[tid] = arr[tid + 1] + tid = (tid + 1)^2 + tid for the even threads, which
/// waited; tid for the odd ones, which arrived.
fn neighbours() -> Vec<u64> {
    (0..64).map(|t| if t % 2 == 0 { (t + 1) * (t + 1) + t } else { t }).collect()
}

#[test]
fn lanes_of_a_warp_wait_while_their_neighbours_arrive() {
    for kernel in ["blocking", "spinning"] {
        let (out, json) =
            run("tests/data/run/mbarrier_lanes.ptx", kernel, 64, r#"{"buffer": "u32", "len": 64}"#, &[]);
        ok(&out);
        assert_eq!(words(&json, 0), neighbours(), "{kernel}");
    }
}

#[test]
fn lanes_of_one_group_waiting_on_different_mbarriers_go_on_separately() {
    // Even lanes (bar0) then odd lanes (bar1, which waits for the even ones through
    // thread 32): 1 + (tid & 1) below 32, 7 for the relay, nothing past it. With
    // try_wait, and with a test_wait loop.
    let want: Vec<u64> = (0..64)
        .map(|t| {
            if t < 32 {
                1 + (t & 1)
            } else if t == 32 {
                7
            } else {
                0
            }
        })
        .collect();
    for kernel in ["partial", "partial_spin"] {
        let (out, json) =
            run("tests/data/run/mbarrier_lanes.ptx", kernel, 64, r#"{"buffer": "u32", "len": 64}"#, &[]);
        ok(&out);
        assert_eq!(words(&json, 0), want, "{kernel}");
    }
}

#[test]
fn cp_async_arrive_counts_one_arrival_only_with_noinc() {
    let args = r#"{"buffer": "u32", "data": [5, 6, 77, 8]}, {"buffer": "u32", "len": 3}"#;
    let (out, json) = run("tests/data/run/mbarrier_phases.ptx", "cp_async_arrive", 1, args, &[]);
    ok(&out);
    // init 3; .noinc arrives (2 pending); the plain form adds one and arrives (still
    // 2), which the next arrival's state shows; the copy is visible after the wait.
    assert_eq!(words(&json, 1), [2, 77, 1]);
}

#[test]
fn bulk_copies_complete_on_the_mbarrier_and_store_back() {
    let input: Vec<String> = (0..64).map(|i| (1000 + 37 * i).to_string()).collect();
    let args =
        format!(r#"{{"buffer": "u32", "data": [{}]}}, {{"buffer": "u32", "len": 64}}"#, input.join(", "));
    let (out, json) = run("tests/data/run/mbarrier_bulk.ptx", "roundtrip", 32, &args, &[]);
    ok(&out);
    let want: Vec<u64> = (0..64).map(|i| (1000 + 37 * i) * 3 + i % 32).collect();
    assert_eq!(words(&json, 1), want);
}

#[test]
fn tritons_bulk_copy_kernel_runs() {
    // corpus/triton/mbarrier_bulk.ptx: 16 KiB in through one bulk copy, then each of
    // 128 threads writes twice its float. The mbarrier sits past the 16 KiB.
    let x = |i: i32| f64::from(i) * 0.25 - 512.0;
    let input: Vec<String> = (0..4096).map(|i| format!("{:?}", x(i))).collect();
    let args =
        format!(r#"{{"buffer": "f32", "data": [{}]}}, {{"buffer": "f32", "len": 128}}"#, input.join(", "));
    let dir = std::env::temp_dir().join(format!("ptxvm-mbar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("triton.json");
    let spec = format!(
        r#"{{"kernel": "bulk_copy_kernel", "grid": 1, "block": 128, "dynamic_shared_bytes": 16392, "args": [{args}]}}"#
    );
    std::fs::write(&path, spec).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "corpus/triton/mbarrier_bulk.ptx", "--launch", path.to_str().unwrap()])
        .output()
        .unwrap();
    ok(&out);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got: Vec<f64> =
        json["buffers"][1]["data"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    let want: Vec<f64> = (0..128).map(|i| 2.0 * x(i)).collect();
    assert_eq!(got, want);
}

/// Runs a kernel of mbarrier_faults.ptx and returns its diagnostic (exit 2).
fn fault(kernel: &str, block: u32, args: &str, extra: &[&str]) -> String {
    let (out, _) = run("tests/data/run/mbarrier_faults.ptx", kernel, block, args, extra);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{kernel}: {err}");
    err
}

#[test]
fn a_barrier_that_never_completes_is_a_deadlock_naming_it() {
    let err = fault("never", 64, "", &[]);
    assert!(err.contains("mbarrier_faults.ptx:27:2: fault: kernel `never`"), "{err}");
    assert!(err.contains("deadlock: no thread of the CTA can go on"), "{err}");
    assert!(
        err.contains("lanes 0xffffffff of warp 0 wait at mbarrier.try_wait for the phase of parity 0")
            && err.contains("(1 of 2 arrivals pending, tx-count 0, current phase parity 0)"),
        "{err}"
    );
    assert!(
        err.contains(
            "note: `mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;`: lanes 0xffffffff of warp 1"
        ),
        "{err}"
    );
    // A test_wait loop never blocks: it spins until the step budget is spent.
    let err = fault("spin_forever", 32, "", &["--max-steps", "20000"]);
    assert!(err.contains("instruction budget exhausted: 20000 warp instructions"), "{err}");
}

#[test]
fn undefined_uses_of_an_mbarrier_are_faults() {
    let err = fault("pending_plain", 32, "", &[]);
    assert!(
        err.contains("is not one an mbarrier.arrive.noComplete or arrive_drop.noComplete returned"),
        "{err}"
    );
    let err = fault("uninit", 32, "", &[]);
    assert!(
        err.contains(
            "`mbarrier.arrive.shared.b64 _, [bar];`: no initialised mbarrier object at shared address 0x0"
        ),
        "{err}"
    );
    let err = fault("zero_count", 1, r#"{"type": "u32", "value": 0}"#, &[]);
    assert!(err.contains("the expected arrival count 0 is outside 1..=1048575"), "{err}");
    let err = fault("over_arrive", 1, "", &[]);
    assert!(err.contains("2 arrivals when the current phase has 1 pending"), "{err}");
    let err = fault("completes", 1, "", &[]);
    assert!(err.contains("mbarrier.arrive.noComplete: the arrival completes the current phase"), "{err}");
    let err = fault("tx_overflow", 1, "", &[]);
    assert!(
        err.contains("mbarrier_faults.ptx:80:2") && err.contains("the tx-count 1048576 overflows 1048575"),
        "{err}"
    );
    let err = fault("global_object", 1, r#"{"buffer": "u8", "len": 8}"#, &[]);
    assert!(err.contains("the mbarrier object's address 0x7f0000000000 is not in shared memory"), "{err}");
    let err = fault("bulk_size", 1, r#"{"buffer": "u8", "len": 64}"#, &[]);
    assert!(err.contains("cp.async.bulk: size 24"), "{err}");
}

#[test]
fn racecheck_takes_a_completed_phase_as_ordering_its_arrivals_before_its_waits() {
    // The libcu++ kernels of tests/kernels order every shared access through mbarriers
    // alone (after the barrier that publishes init); none is a race.
    for case in ["producer_consumer", "split_phase", "memcpy_async", "pipeline"] {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["run", "tests/kernels/mbarrier.ptx", "--launch"])
            .arg(format!("tests/kernels/mbarrier_{case}.launch.json"))
            .args(["--sanitize", "racecheck,initcheck"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{case}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let (out, _) = run(
        "tests/data/run/mbarrier_lanes.ptx",
        "blocking",
        64,
        r#"{"buffer": "u32", "len": 64}"#,
        &["--sanitize", "racecheck"],
    );
    ok(&out);
}

#[test]
fn a_tensor_copy_needs_a_tensor_map() {
    // (Bulk reductions run: tests/run_bulk.rs.) 128 zero bytes are no map cuTensorMapEncodeTiled made (driver/tests/programs/tma.c
    // runs real ones).
    let (out, _) =
        run("tests/data/run/mbarrier_unsupported.ptx", "tensor", 1, r#"{"buffer": "u8", "len": 128}"#, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("are not a tensor map made by cuTensorMapEncodeTiled"), "{err}");
    // A tile copy through an im2col map is undefined behaviour, reported.
    use ptxvm::exec::tma::{Im2colArgs, TensorMap, Tiled};
    let t = Tiled {
        dtype: 7,
        rank: 3,
        global: 0x1000,
        dims: vec![8, 8, 2],
        strides: vec![32, 256],
        element_strides: vec![1; 3],
        ..Tiled::default()
    };
    let args = Im2colArgs { lower: vec![0], upper: vec![0], channels: 8, pixels: 8 };
    let bytes = TensorMap::im2col(&t, &args).unwrap().encode().map(|b| b.to_string()).join(", ");
    let (out, _) = run(
        "tests/data/run/mbarrier_unsupported.ptx",
        "tensor3d",
        1,
        &format!(r#"{{"buffer": "u8", "data": [{bytes}]}}"#),
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a tile copy through a tensor map cuTensorMapEncodeIm2col made (undefined"),
        "{err}"
    );
}

/// A try_wait whose phase cannot complete while the thread waits returns false once
/// its time limit passes, and the thread may go on (here to arrive itself); before,
/// ptxvm reported the first try_wait as a deadlock. A try_wait retried in a loop with
/// nothing left to arrive is still one (`a_barrier_that_never_completes_...`).
#[test]
fn try_wait_gives_false_when_its_time_limit_passes() {
    let (out, json) =
        run("tests/data/run/mbarrier_timeout.ptx", "timeout", 1, r#"{"buffer": "u32", "len": 2}"#, &[]);
    ok(&out);
    assert_eq!(words(&json, 0), [0, 1]);
}

#[test]
fn a_tensor_prefetch_is_a_hint() {
    let (out, _) = common::run_spec(
        "tests/data/run/tma_prefetch.ptx",
        r#"{"grid": 1, "block": 1, "args": [{"type": "u64", "value": 0}]}"#,
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}
