//! Warp-wide and flag-carrying instructions through `ptxvm run` (docs/launch-spec.md):
//! `shfl.sync` in every mode, `redux.sync`, `match.any.sync`, and the carry chain of `add.cc`/`addc`.
//! Expected values are computed here from each kernel's intent (a sum, a scan, a
//! wide addition), never taken from ptxvm.

mod common;

use serde_json::Value;
use std::process::Output;

fn run(ptx: &str, spec: &str) -> (Output, Value) {
    common::run_spec(ptx, spec, &[])
}

fn u32s(v: &Value) -> Vec<u32> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

#[test]
fn shuffles_reduce_scan_broadcast_and_shift_within_segments() {
    // Two warps of distinct values, some large enough to wrap a 32-bit sum.
    let input: Vec<u32> = (0..64u32).map(|i| i.wrapping_mul(2_654_435_761) >> (i % 7) ^ (i * 3)).collect();
    let data: Vec<String> = input.iter().map(|v| v.to_string()).collect();
    let spec = format!(
        r#"{{"grid": 1, "block": 64, "args": [{{"buffer": "u32", "data": [{}]}}, {{"buffer": "u32", "len": 448}}]}}"#,
        data.join(",")
    );
    let (out, json) = run("tests/data/isa/warp_shuffle.ptx", &spec);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = u32s(&json["buffers"][1]["data"]);
    for tid in 0..64usize {
        let warp = &input[tid / 32 * 32..tid / 32 * 32 + 32];
        let lane = tid % 32;
        let sum = warp.iter().fold(0u32, |a, &v| a.wrapping_add(v));
        let scan = warp[..=lane].iter().fold(0u32, |a, &v| a.wrapping_add(v));
        // Segments of 8 lanes: lane + 3 if it stays in the segment, else the lane itself.
        let (down, ok) = if lane % 8 + 3 < 8 { (warp[lane + 3], 1) } else { (warp[lane], 0) };
        let same = (0..32).filter(|&j| warp[j] % 3 == warp[lane] % 3).fold(0u32, |m, j| m | 1 << j);
        let want = [sum, scan, warp[5], down, ok, sum, same];
        assert_eq!(&got[7 * tid..7 * tid + 7], &want, "thread {tid}");
    }
}

#[test]
fn a_shuffle_completes_once_the_members_that_left_have_exited() {
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}]}"#;
    let (out, json) = run("tests/data/isa/shuffle_diverged.ptx", spec);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = u32s(&json["buffers"][0]["data"]);
    // Lanes 16-31 read lane ^ 1 (bfly 1); lanes 0-15 left before the shuffle.
    let want: Vec<u32> = (0..32).map(|t| if t < 16 { 0 } else { t ^ 1 }).collect();
    assert_eq!(got, want);
}

#[test]
fn warp_synchronous_instructions_of_different_kinds_on_one_mask_are_a_fault() {
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}]}"#;
    let (out, _) = run("tests/data/isa/sync_kinds_differ.ptx", spec);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("warp-synchronous instructions of different kinds meet"), "{err}");
    assert!(
        err.contains("note: `vote.sync.ballot.b32") || err.contains("note: `shfl.sync.bfly.b32"),
        "{err}"
    );
}

#[test]
fn carries_chain_through_wide_additions_and_subtractions() {
    // Per thread: a = (a0, a1, a2) and b = (b0, b1, b2), little-endian 32-bit words.
    let words: [[u32; 6]; 4] = [
        [0xffff_ffff, 0xffff_ffff, 1, 1, 0, 2],
        [0x8000_0000, 0x7fff_ffff, 0, 0x8000_0000, 0x8000_0000, 0],
        [5, 0, 0, 7, 0, 0],
        [0, 1, 0xffff_ffff, 1, 0, 0xffff_ffff],
    ];
    let data: Vec<String> = words.iter().flatten().map(|v| v.to_string()).collect();
    let spec = format!(
        r#"{{"grid": 1, "block": 4, "args": [{{"buffer": "u32", "data": [{}]}}, {{"buffer": "u32", "len": 20}}]}}"#,
        data.join(",")
    );
    let (out, json) = run("tests/data/isa/carry_chain.ptx", &spec);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = u32s(&json["buffers"][1]["data"]);
    for (t, w) in words.iter().enumerate() {
        let wide = |lo: u32, mid: u32, hi: u32| u128::from(lo) | u128::from(mid) << 32 | u128::from(hi) << 64;
        let sum = wide(w[0], w[1], w[2]) + wide(w[3], w[4], w[5]);
        let a64 = u64::from(w[0]) | u64::from(w[1]) << 32;
        let b64 = u64::from(w[3]) | u64::from(w[4]) << 32;
        let diff = a64.wrapping_sub(b64);
        let want = [sum as u32, (sum >> 32) as u32, (sum >> 64) as u32, diff as u32, (diff >> 32) as u32];
        assert_eq!(&got[5 * t..5 * t + 5], &want, "thread {t}");
    }
}

#[test]
fn set_with_half_operands_writes_halves() {
    let spec = r#"{"grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 3}]}"#;
    let (out, json) = run("tests/data/isa/set_halves.ptx", spec);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // a = (lo 1.0, hi 2.0), b = (1.0, 1.0): gt holds in the high half only, eq in the
    // low half only; NaN is unordered with itself. f16 1.0 is 0x3c00.
    assert_eq!(u32s(&json["buffers"][0]["data"]), [0x3c00_0000, 0x0000_ffff, 0x3c00]);
}
