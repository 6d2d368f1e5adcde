//! `ptxvm run` through the command line (docs/launch-spec.md): results checked against
//! references computed here from each kernel's source semantics, never from ptxvm.

mod common;

use serde_json::Value;
use std::process::{Command, Output};

fn run(ptx: &str, spec: &str, extra: &[&str]) -> (Output, Value) {
    common::run_spec(ptx, spec, extra)
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| match x {
            Value::String(s) if s == "nan" => f64::NAN,
            other => other.as_f64().unwrap(),
        })
        .collect()
}

#[test]
fn saxpy_matches_fused_multiply_add() {
    let (out, json) =
        run("examples/saxpy.ptx", &std::fs::read_to_string("examples/saxpy.json").unwrap(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let y = floats(&json["buffers"][1]["data"]);
    let want: Vec<f64> = (1..=10).map(|x| f64::from(2.0f32.mul_add(x as f32, 0.5))).collect();
    assert_eq!(y, want);
    assert_eq!(json["buffers"][1]["arg"], 2);
}

#[test]
fn classify_follows_ordered_and_unordered_comparisons() {
    let (out, json) =
        run("examples/classify.ptx", &std::fs::read_to_string("examples/classify.json").unwrap(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // classify.cu: NaN -> 3, v < 0 -> 0, v == 0 (either zero) -> 1, else 2.
    let inputs = [
        f32::NAN,
        -1.5,
        0.0,
        -0.0,
        1.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::from_bits(1),
        f32::from_bits(0x7fa0_0000),
        -1e-45,
    ];
    let want: Vec<i64> = inputs
        .iter()
        .map(|&v| {
            if v.is_nan() {
                3
            } else if v < 0.0 {
                0
            } else if v == 0.0 {
                1
            } else {
                2
            }
        })
        .collect();
    let got: Vec<i64> =
        json["buffers"][1]["data"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
    assert_eq!(got, want);
}

#[test]
fn nested_divergence_and_lane_dependent_loops() {
    let spec = r#"{"grid": 1, "block": 40, "args": [{"buffer": "u32", "len": 40}]}"#;
    let (out, json) = run("tests/data/run/divergence.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let want: Vec<u64> = (0..40u64)
        .map(|t| {
            let base = if t % 2 == 1 { if t % 4 == 1 { 100 } else { 200 } } else { 300 };
            base + (0..t).sum::<u64>()
        })
        .collect();
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect();
    assert_eq!(got, want);
}

#[test]
fn out_of_bounds_access_faults_with_thread_and_line_and_keeps_earlier_writes() {
    let spec = std::fs::read_to_string("examples/saxpy_out_of_bounds.json").unwrap();
    let (out, json) = run("examples/saxpy.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    // Thread 20 is the first past the 20-element y: CTA 1 (16 threads each), tid 4.
    assert!(err.contains("kernel `saxpy`, ctaid=(1,0,0) tid=(4,0,0)"), "{err}");
    assert!(err.contains("ld.global.f32 %f3, [%rd7];"), "{err}");
    // y[20] is byte 80 of the 80-byte y, args[2]: the 4-byte load ends 4 bytes past it.
    assert!(err.contains("(offset 80) reaches 4 bytes past the end of args[2] (80 bytes at "), "{err}");
    assert!(err.starts_with("examples/saxpy.ptx:45:"), "{err}");
    // CTA 0 finished before the fault: y[i] = 2*x[i] + 0 for i < 16; the rest untouched.
    let y = floats(&json["buffers"][1]["data"]);
    let want: Vec<f64> = (0..20).map(|i| if i < 16 { 2.0 * i as f64 } else { 0.0 }).collect();
    assert_eq!(y, want);
}

#[test]
fn a_runaway_loop_exhausts_the_step_budget() {
    let spec = r#"{"grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/run/spin.ptx", spec, &["--max-steps", "1000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("instruction budget exhausted"));
    assert_eq!(json["buffers"][0]["data"][0], 0, "the store before the loop is kept");
}

#[test]
fn bad_specs_and_unsupported_instructions_exit_1() {
    let (out, _) = run("examples/saxpy.ptx", r#"{"grid": 1, "block": 1, "args": []}"#, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("takes 4 parameters, the spec gives 0"));
    let (out, _) = run("examples/saxpy.ptx", r#"{"grid": 1, "block": [32, 32, 2], "args": []}"#, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2048 threads per block"));
    let (out, _) = run("examples/saxpy.ptx", r#"{"grid": 1, "block": 1, "kernel": "nope", "args": []}"#, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no kernel named `nope`"));
    // A valid kernel with an instruction the executor does not run yet: named, with its line.
    let spec = r#"{"grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, _) = run("tests/data/run/unsupported.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("tests/data/run/unsupported.ptx:12:2: error: discard.global.L2: ptxvm cannot run"),
        "{err}"
    );
}

#[test]
fn set_slct_and_predicate_logic() {
    // Inputs with NaN (quiet and signalling), both zeros, subnormals and infinities.
    let xs: Vec<f32> = (0..32)
        .map(|t| match t % 8 {
            0 => f32::NAN,
            1 => -0.0,
            2 => f32::from_bits(0x8000_0001),
            3 => 0.5,
            4 => f32::from_bits(0x7fa0_0000),
            5 => f32::NEG_INFINITY,
            6 => 1.0,
            _ => t as f32 - 20.0,
        })
        .collect();
    let data: Vec<String> = xs.iter().map(|x| format!("\"0x{:08x}\"", x.to_bits())).collect();
    let spec = format!(
        r#"{{"grid": 1, "block": 32, "args": [{{"buffer": "u32", "len": 32}}, {{"buffer": "u32", "len": 32}},
            {{"buffer": "u32", "len": 32}}, {{"buffer": "f32", "data": [{}]}}]}}"#,
        data.join(", ")
    );
    let (out, json) = run("tests/data/run/select.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let column = |k: usize| -> Vec<u64> {
        json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
    };
    let (set, slct, pred) = (column(0), column(1), column(2));
    for (t, &x) in xs.iter().enumerate() {
        let t64 = t as u64;
        // ltu: less than, or unordered (ISA table 24); .and with "t odd".
        let ltu = x.is_nan() || x < 1.0;
        assert_eq!(set[t], if ltu && t % 2 == 1 { 0xffff_ffff } else { 0 }, "set, t={t} x={x}");
        // slct.f32: c >= 0 selects a (-0 included), NaN and negatives (subnormal too) select b.
        let a_selected = !x.is_nan() && (x >= 0.0 || x == 0.0);
        assert_eq!(slct[t], if a_selected { t64 } else { 1000 + t64 }, "slct, t={t} x={x}");
        assert_eq!(pred[t], u64::from(!((t < 16) ^ (t % 2 == 1))), "pred, t={t}");
    }
}

#[test]
fn brx_idx_spreads_lanes_over_every_target_and_faults_past_the_table() {
    let spec =
        r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}, {"type": "u32", "value": 4}]}"#;
    let (out, json) = run("tests/data/run/brx.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let want: Vec<u64> = (0..32u64).map(|t| 10 * (t % 4 + 1) + t).collect();
    assert_eq!(got, want);
    // With 5 cases asked of a 4-entry table, thread 4 is the first past it.
    let spec =
        r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}, {"type": "u32", "value": 5}]}"#;
    let (out, _) = run("tests/data/run/brx.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tid=(4,0,0)") && err.contains("brx.idx index 4 is past the 4 targets"), "{err}");
}

#[test]
fn packed_and_bf16_comparisons_write_p_and_q() {
    // Bit patterns with their values as f16 and as bf16 (from the formats' definitions).
    const P: [u32; 7] = [0x3c00, 0x4000, 0x7e00, 0x8000, 0x0000, 0xbc00, 0x7c00];
    let f16 = [1.0, 2.0, f64::NAN, -0.0, 0.0, -1.0, f64::INFINITY];
    let bf16 = [2f64.powi(-7), 2.0, 2f64.powi(125), -0.0, 0.0, -(2f64.powi(-7)), 2f64.powi(121)];
    let idx = |t: usize| (t % 7, (t / 7) % 7, (t + 3) % 7, (t * 2) % 7);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for t in 0..32 {
        let (la, lb, ha, hb) = idx(t);
        a.push((P[ha] << 16 | P[la]).to_string());
        b.push((P[hb] << 16 | P[lb]).to_string());
    }
    let spec = format!(
        r#"{{"grid": 1, "block": 32, "args": [{{"buffer": "u32", "len": 32}}, {{"buffer": "u32", "data": [{}]}}, {{"buffer": "u32", "data": [{}]}}]}}"#,
        a.join(", "),
        b.join(", ")
    );
    let (out, json) = run("tests/data/run/half.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    for (t, &g) in got.iter().enumerate() {
        let (la, lb, ha, hb) = idx(t);
        let lt = |x: f64, y: f64| x < y; // ordered: false with a NaN
        let p = lt(f16[la], f16[lb]);
        let q = lt(f16[ha], f16[hb]);
        let geu = bf16[la].is_nan() || bf16[lb].is_nan() || bf16[la] >= bf16[lb];
        let p_and_not_q = p && !q;
        let want = u64::from(p) | u64::from(q) << 1 | u64::from(geu) << 2 | u64::from(p_and_not_q) << 3;
        assert_eq!(g, want, "t={t}");
    }
}

#[test]
fn conversions_round_saturate_and_extend() {
    let xs: Vec<f32> = (0..32)
        .map(|t| match t % 8 {
            0 => f32::NAN,
            1 => 2.5,
            2 => -2.5,
            3 => 3.5,
            4 => 1e20,
            5 => f32::NEG_INFINITY,
            6 => -0.75,
            _ => t as f32 * 1.25,
        })
        .collect();
    let data: Vec<String> = xs.iter().map(|x| format!("\"0x{:08x}\"", x.to_bits())).collect();
    let spec = format!(
        r#"{{"grid": 1, "block": 32, "args": [{{"buffer": "s32", "len": 32}}, {{"buffer": "s32", "len": 32}},
            {{"buffer": "f32", "len": 32}}, {{"buffer": "s64", "len": 32}}, {{"buffer": "u32", "len": 32}},
            {{"buffer": "f32", "data": [{}]}}]}}"#,
        data.join(", ")
    );
    let (out, json) = run("tests/data/run/cvt.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let ints = |k: usize| -> Vec<i64> {
        json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
    };
    let (a, b, d, e) = (ints(0), ints(1), ints(3), ints(4));
    let c = floats(&json["buffers"][2]["data"]);
    for (t, &x) in xs.iter().enumerate() {
        // PTX: float-to-integer conversions saturate and send NaN to 0, which is
        // exactly Rust's `as` on the rounded value.
        assert_eq!(a[t], i64::from(x.trunc() as i32), "rzi t={t} x={x}");
        assert_eq!(b[t], i64::from(x.round_ties_even() as i32), "rni t={t} x={x}");
        let product = (t as i32).wrapping_mul(33_554_431);
        // The JSON holds the shortest decimal that reads back to the same f32.
        assert_eq!(c[t] as f32, product as f32, "rn.f32.s32 t={t}");
        assert_eq!(d[t], -(t as i64), "s64 from s32 t={t}");
        assert_eq!(e[t], (t as i64 * 20 - 100).clamp(0, 255), "sat.u8 t={t}");
    }
}

#[test]
fn shared_memory_reduction_across_warps_needs_the_barriers() {
    let input: Vec<u64> = (0..256).map(|i| (i * 7 + 3) % 1000).collect();
    let data: Vec<String> = input.iter().map(u64::to_string).collect();
    let spec = format!(
        r#"{{"grid": 2, "block": 128, "args": [{{"buffer": "u32", "len": 2}}, {{"buffer": "u32", "data": [{}]}}]}}"#,
        data.join(", ")
    );
    let (out, json) = run("tests/data/run/reduce.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(got, vec![input[..128].iter().sum::<u64>(), input[128..].iter().sum::<u64>()]);
}

#[test]
fn lanes_that_return_before_a_barrier_stop_counting() {
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}]}"#;
    let (out, json) = run("tests/data/run/return_before_barrier.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let want: Vec<u64> = (0..32).map(|t| if t % 2 == 0 { t + 100 } else { 0 }).collect();
    assert_eq!(got, want);
}

#[test]
fn a_cta_deadlocked_at_barriers_is_a_fault_naming_every_waiting_group() {
    let spec = r#"{"grid": 1, "block": 64, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, _) = run("tests/data/run/deadlock.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("tests/data/run/deadlock.ptx:13:2: fault: kernel `stuck`"), "{err}");
    assert!(
        err.contains("barrier that cannot complete") && err.contains("warp 0 wait at barrier 0"),
        "{err}"
    );
    assert!(
        err.contains("deadlock.ptx:16:2: note: `bar.sync 1;`: lanes 0xffffffff of warp 1 wait at barrier 1"),
        "{err}"
    );
}

#[test]
fn vote_ballot_after_reconvergence_sees_every_lane() {
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 32}, {"buffer": "u32", "len": 32}, {"buffer": "u32", "len": 32}]}"#;
    let (out, json) = run("tests/data/run/vote.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let col = |k: usize| -> Vec<u64> {
        json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
    };
    let ballot: u64 = (0..32).filter(|t| t % 3 == 0).map(|t| 1u64 << t).sum();
    assert_eq!(col(0), vec![ballot; 32]);
    assert_eq!(col(1), vec![1; 32], "every lane has x > 0");
    assert_eq!(col(2), vec![0xffff_ffff; 32], "all 32 lanes are active again after the join");
}

#[test]
fn many_ctas_in_parallel_write_disjoint_results() {
    let n = 5000usize;
    let x: Vec<String> = (0..n).map(|i| format!("{}", i % 97)).collect();
    let y: Vec<String> = (0..n).map(|i| format!("{}", (i % 13) as f32 * 0.25)).collect();
    let spec = format!(
        r#"{{"kernel": "saxpy", "grid": 40, "block": 128, "args": [{{"type": "f32", "value": -1.5}},
            {{"buffer": "f32", "data": [{}]}}, {{"buffer": "f32", "data": [{}]}}, {{"type": "s32", "value": {n}}}]}}"#,
        x.join(", "),
        y.join(", ")
    );
    let (out, json) = run("examples/saxpy.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = floats(&json["buffers"][1]["data"]);
    for (i, g) in got.iter().enumerate() {
        let want = (-1.5f32).mul_add((i % 97) as f32, (i % 13) as f32 * 0.25);
        assert_eq!(*g as f32, want, "i={i}");
    }
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect()
}

/// Collatz steps of `n` as `collatz` in calls.ptx counts them, or 1000 past `limit`.
fn collatz(mut n: u32, limit: u32) -> u32 {
    let mut steps = 0;
    while n > 1 {
        if steps >= limit {
            return 1000;
        }
        n = if n.is_multiple_of(2) { n / 2 } else { 3 * n + 1 };
        steps += 1;
    }
    steps
}

#[test]
fn divergent_calls_returns_and_recursion_reconverge() {
    let spec =
        r#"{"grid": 2, "block": 48, "args": [{"buffer": "u32", "len": 96}, {"buffer": "u32", "len": 192}]}"#;
    let (out, json) = run("tests/data/run/calls.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (got, info) = (u64s(&json["buffers"][0]["data"]), u64s(&json["buffers"][1]["data"]));
    let first = |g: u32| if g.is_multiple_of(2) { collatz(g + 1, 20) } else { (0..=g % 13).sum() };
    for g in 0..96u32 {
        let guarded = if g % 3 == 0 { collatz(g, 5) } else { 0 };
        assert_eq!(got[g as usize], u64::from(guarded * 10_000 + first(g)), "gid={g}");
    }
    // After every call has returned, the whole warp runs together again: activemask
    // is every thread of the warp (48 threads: 32 + 16), and the ballot sees them all.
    for g in 0..96u32 {
        let warp_base = g - g % 48 + (g % 48) / 32 * 32;
        let lanes = if g % 48 < 32 { 32 } else { 16 };
        let mask = if lanes == 32 { u32::MAX } else { (1 << lanes) - 1 };
        let ballot = (0..lanes).filter(|l| first(warp_base + l) != 1000).fold(0u32, |m, l| m | 1 << l);
        assert_eq!(info[2 * g as usize], u64::from(mask), "activemask, gid={g}");
        assert_eq!(info[2 * g as usize + 1], u64::from(ballot), "ballot, gid={g}");
    }
}

#[test]
fn indirect_calls_through_a_table_and_calltargets_split_lanes_by_target() {
    let spec =
        r#"{"grid": 2, "block": 40, "args": [{"buffer": "u32", "len": 80}, {"type": "u32", "value": 4}]}"#;
    let (out, json) = run("tests/data/run/indirect.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = u64s(&json["buffers"][0]["data"]);
    for g in 0..80u32 {
        let table = match g % 4 {
            0 => g + 100,
            1 => g * 3,
            2 => 0u32.wrapping_sub(g),
            _ => g * g,
        };
        let second = if g % 2 == 0 { g * g } else { g + 1 };
        assert_eq!(got[g as usize], u64::from(second.wrapping_mul(1000).wrapping_add(table)), "gid={g}");
    }
}

#[test]
fn an_indirect_call_whose_target_does_not_match_its_prototype_faults() {
    // With 5 table entries, thread 4 calls f_wide, which returns 8 bytes, not 4.
    let spec =
        r#"{"grid": 1, "block": 40, "args": [{"buffer": "u32", "len": 40}, {"type": "u32", "value": 5}]}"#;
    let (out, json) = run("tests/data/run/indirect.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(
            "tests/data/run/indirect.ptx:87:2: fault: kernel `indirect`, ctaid=(0,0,0) tid=(4,0,0)"
        ),
        "{err}"
    );
    assert!(err.contains("`f_wide`") && err.contains("do not match the prototype"), "{err}");
    // The first warp wrote its marker before the call; the second never ran.
    let want: Vec<u64> = (0..40).map(|t| if t < 32 { 7 } else { 0 }).collect();
    assert_eq!(u64s(&json["buffers"][0]["data"]), want);
}

#[test]
fn a_non_uniform_bra_uni_faults_and_a_uniform_one_runs() {
    let spec = |limit: u32| {
        format!(
            r#"{{"grid": 1, "block": 40, "args": [{{"buffer": "u32", "len": 40}}, {{"type": "u32", "value": {limit}}}]}}"#
        )
    };
    let (out, json) = run("tests/data/run/uni.ptx", &spec(64), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(u64s(&json["buffers"][0]["data"]), vec![2; 40]);
    let (out, json) = run("tests/data/run/uni.ptx", &spec(5), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("tid=(5,0,0)") && err.contains("bra.uni is not uniform"), "{err}");
    assert!(err.contains("lanes 0x0000001f take it, lanes 0xffffffe0 do not"), "{err}");
    // Written before the fault: the first warp's 2s; the second warp never ran.
    let want: Vec<u64> = (0..40).map(|t| if t < 32 { 2 } else { 0 }).collect();
    assert_eq!(u64s(&json["buffers"][0]["data"]), want);
}

#[test]
fn local_arrays_generic_pointers_and_vectors() {
    let spec =
        r#"{"grid": 2, "block": 36, "args": [{"buffer": "u32", "len": 72}, {"buffer": "u32", "len": 288}]}"#;
    let (out, json) = run("tests/data/run/local.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (sums, back) = (u64s(&json["buffers"][0]["data"]), u64s(&json["buffers"][1]["data"]));
    for g in 0..72u64 {
        let buf: Vec<u64> = (1..=8).map(|k| (g * k) & 0xffff_ffff).collect();
        let sum: u64 = buf.iter().sum();
        assert_eq!(sums[g as usize], (sum + 1000 * (buf[7] - buf[0])) & 0xffff_ffff, "gid={g}");
        assert_eq!(&back[4 * g as usize..4 * g as usize + 4], &buf[4..8], "gid={g}");
    }
}

#[test]
fn atomics_from_many_ctas_lose_no_update() {
    let input: Vec<u32> = (0..300u32).map(|i| (i * 7919 + 13) % 1000).collect();
    let data: Vec<String> = input.iter().map(u32::to_string).collect();
    let spec = format!(
        r#"{{"grid": 5, "block": 60, "args": [{{"buffer": "u32", "data": [{}]}}, {{"buffer": "u32", "len": 16}},
            {{"buffer": "s32", "data": [0, 0, 2147483647, -2147483648, 0, 0, 0, 0]}}, {{"buffer": "u32", "len": 300}}]}}"#,
        data.join(", ")
    );
    let (out, json) = run("tests/data/run/atomics.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bins = u64s(&json["buffers"][1]["data"]);
    for (b, &count) in bins.iter().enumerate() {
        assert_eq!(count, input.iter().filter(|&&v| v as usize % 16 == b).count() as u64, "bin {b}");
    }
    let acc: Vec<i64> =
        json["buffers"][2]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    let total: u64 = input.iter().map(|&v| u64::from(v)).sum();
    // acc[0..2] hold the u64 total as two s32 words.
    assert_eq!((acc[0] as u32 as u64) | (acc[1] as u32 as u64) << 32, total);
    assert_eq!(acc[2], i64::from(*input.iter().min().unwrap()) - 500);
    assert_eq!(acc[3], i64::from(*input.iter().max().unwrap()) - 500);
    // 300 atom.inc with bound 9 from 0: the counter ends at 300 % 10, and the old
    // values returned are each of 0..=9 exactly 30 times, whatever the order.
    assert_eq!(acc[4], 0);
    let mut olds = u64s(&json["buffers"][3]["data"]);
    olds.sort_unstable();
    assert_eq!(olds, (0..300).map(|i| i / 30).collect::<Vec<u64>>());
    assert_eq!(acc[5] as u32, input.iter().fold(0, |x, v| x ^ v));
    assert_eq!(acc[6], 300, "per-CTA shared counts, added once per CTA");
}

#[test]
fn dynamic_shared_memory_comes_from_the_launch() {
    let spec = |dyn_bytes: u32| {
        format!(
            r#"{{"grid": 3, "block": 50, "dynamic_shared_bytes": {dyn_bytes},
                "args": [{{"buffer": "u32", "data": [{}]}}, {{"buffer": "u32", "len": 150}}]}}"#,
            (0..150).map(|i| (i * 3 + 1).to_string()).collect::<Vec<_>>().join(", ")
        )
    };
    let (out, json) = run("tests/data/run/dynshared.ptx", &spec(200), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = u64s(&json["buffers"][1]["data"]);
    for g in 0..150u64 {
        let (cta, t) = (g / 50, g % 50);
        assert_eq!(got[g as usize], (cta * 50 + 49 - t) * 3 + 1 + 1000 * cta, "gid={g}");
    }
    // Too little dynamic shared memory: the store past it faults.
    let (out, _) = run("tests/data/run/dynshared.ptx", &spec(100), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tid=(25,0,0)")
            && err.contains("out of bounds: shared address")
            && err.contains("outside the CTA's 116 bytes of shared memory"),
        "{err}"
    );
}

#[test]
fn threads_that_exit_early_do_not_block_a_barrier() {
    let spec = r#"{"grid": 2, "block": 64, "args": [{"buffer": "u32", "len": 128}]}"#;
    let (out, json) = run("tests/data/run/exitbar.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = u64s(&json["buffers"][0]["data"]);
    for g in 0..128u64 {
        let t = g % 64;
        let want = if t % 4 == 3 {
            77
        } else {
            let n = if (t + 1) % 4 == 3 { t + 2 } else { t + 1 } % 64;
            3 * n
        };
        assert_eq!(got[g as usize], want, "gid={g}");
    }
}

#[test]
fn recursion_in_nvcc_output_matches_the_cuda_source() {
    // corpus/cuda/src/recursion.cu: factorial(a & 15), fib(a & 15), ackermann(a & 1, a & 3),
    // is_even(a & 63), for 50 threads over two CTAs of 40 (the last ten return early).
    let args: Vec<i64> = (0..50).map(|i| i * 37 % 101 - 20).collect();
    let data: Vec<String> = args.iter().map(i64::to_string).collect();
    let spec = format!(
        r#"{{"kernel": "_Z17recursive_kernelsPKiPyPiS2_S2_i", "grid": 2, "block": 40,
            "args": [{{"buffer": "s32", "data": [{}]}}, {{"buffer": "u64", "len": 50}}, {{"buffer": "s32", "len": 50}},
                     {{"buffer": "s32", "len": 50}}, {{"buffer": "s32", "len": 50}}, {{"type": "s32", "value": 50}}]}}"#,
        data.join(", ")
    );
    let (out, json) = run("corpus/cuda/ptx/sm_90/recursion.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    fn fib(n: i64) -> i64 {
        if n < 2 { n } else { fib(n - 1) + fib(n - 2) }
    }
    fn ack(m: i64, n: i64) -> i64 {
        if m == 0 {
            n + 1
        } else if n == 0 {
            ack(m - 1, 1)
        } else {
            ack(m - 1, ack(m, n - 1))
        }
    }
    let col = |k: usize| -> Vec<i64> {
        json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
    };
    for (i, &a) in args.iter().enumerate() {
        assert_eq!(col(1)[i], (1..=(a & 15).max(1)).product::<i64>(), "factorial, a={a}");
        assert_eq!(col(2)[i], fib(a & 15), "fib, a={a}");
        assert_eq!(col(3)[i], ack(a & 1, a & 3), "ackermann, a={a}");
        assert_eq!(col(4)[i], i64::from((a & 63) % 2 == 0), "parity, a={a}");
    }
}

#[test]
fn the_examples_run_as_their_readme_says() {
    let spec = |name: &str| std::fs::read_to_string(format!("examples/{name}.json")).unwrap();
    // collatz.cu: steps to reach 1, -1 past the cap of 100, 0 for a zero seed.
    let (out, json) = run("examples/collatz.ptx", &spec("collatz"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let steps = |mut n: u64| {
        let mut s = 0i64;
        while n != 1 {
            if s >= 100 {
                return -1;
            }
            n = if n % 2 == 1 { 3 * n + 1 } else { n / 2 };
            s += 1;
        }
        s
    };
    let seeds = [1u64, 2, 3, 6, 7, 9, 27, 97, 871, 0, 5, 12];
    let want: Vec<i64> = seeds.iter().map(|&s| if s == 0 { 0 } else { steps(s) }).collect();
    let got: Vec<i64> =
        json["buffers"][1]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(got, want);
    // recursion.cu, factorial column: (a & 15)!.
    let (out, json) = run("examples/recursion.ptx", &spec("recursion"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let fact: Vec<u64> = [0u64, 1, 2, 5, 7, 10, 13, 15].iter().map(|&a| (1..=a.max(1)).product()).collect();
    assert_eq!(u64s(&json["buffers"][1]["data"]), fact);
    // gather_trap.cu: index 9 is past the 4-element source: thread (1,0,0) of CTA 1 traps;
    // CTA 0 gathered its four values before.
    let (out, json) = run("examples/gather_trap.ptx", &spec("gather_trap"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ctaid=(1,0,0) tid=(1,0,0), `trap;`: trap"), "{err}");
    assert_eq!(floats(&json["buffers"][2]["data"])[..4], [13.0, 12.0, 11.0, 10.0]);
}

#[test]
fn misaligned_access_bad_call_target_and_runaway_recursion_fault_cleanly() {
    let spec = |k: &str| {
        format!(r#"{{"kernel": "{k}", "grid": 1, "block": 8, "args": [{{"buffer": "u32", "len": 8}}]}}"#)
    };
    let cases = [
        ("misaligned", ":42:2:", "tid=(5,0,0)", "is not aligned to the 4-byte access"),
        ("badcall", ":64:2:", "tid=(3,0,0)", "which is not the address of a .func"),
        ("runaway", ":18:2:", "tid=(0,0,0)", "call stack overflow: 4097 nested calls"),
    ];
    for (kernel, line, thread, cause) in cases {
        let (out, json) = run("tests/data/run/faults.ptx", &spec(kernel), &[]);
        assert_eq!(out.status.code(), Some(2), "{kernel}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with(&format!("tests/data/run/faults.ptx{line} fault: kernel `{kernel}`")),
            "{err}"
        );
        assert!(err.contains(thread) && err.contains(cause), "{err}");
        // Every thread stored 1 before the faulting instruction; nothing after it ran.
        assert_eq!(u64s(&json["buffers"][0]["data"]), vec![1; 8], "{kernel}");
    }
}

#[test]
fn a_store_past_a_kernels_shared_array_into_another_kernels_is_out_of_bounds() {
    let spec = |k: &str, idx: u32| {
        format!(
            r#"{{"kernel": "{k}", "grid": 1, "block": 1, "args": [{{"buffer": "u32", "len": 1}}{}]}}"#,
            if k == "ka" { format!(r#", {{"type": "u32", "value": {idx}}}"#) } else { String::new() }
        )
    };
    // sa[15] is the last word of ka's array: fine.
    let (out, json) = run("tests/data/run/two_kernels_shared.ptx", &spec("ka", 15), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 7);
    // sa[16] is where kb's sb lies.
    let (out, _) = run("tests/data/run/two_kernels_shared.ptx", &spec("ka", 16), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("st.shared.u32 [%r4], 7;") && err.contains("out of bounds: shared address 0x40"),
        "{err}"
    );
    // kb owns sb.
    let (out, json) = run("tests/data/run/two_kernels_shared.ptx", &spec("kb", 0), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 9);
}

#[test]
fn an_endless_loop_stops_at_the_time_limit_with_a_fault() {
    let spec = r#"{"grid": 4, "block": 64, "args": [{"buffer": "u32", "len": 1}]}"#;
    let start = std::time::Instant::now();
    let (out, _) =
        run("tests/data/run/endless.ptx", spec, &["--timeout", "0.5", "--max-steps", "1000000000000"]);
    let took = start.elapsed();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fault: kernel `endless`") && err.contains("time limit of 0.5 s exceeded"), "{err}");
    assert!(took < std::time::Duration::from_secs(20), "took {took:?}");
}

#[test]
fn ctrl_c_ends_a_launch_with_a_fault_report() {
    use std::process::{Command, Stdio};
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let spec = dir.join("endless_ctrl_c.json");
    std::fs::write(&spec, r#"{"grid": 2, "block": 32, "args": [{"buffer": "u32", "len": 1}]}"#).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .current_dir(root)
        .args(["run", "tests/data/run/endless.ptx", "--launch"])
        .arg(&spec)
        .args(["--timeout", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("fault: kernel `endless`, ctaid=(") && err.contains("interrupted (Ctrl-C)"),
        "{err}"
    );
    assert!(err.contains("endless.ptx:1"), "names the line: {err}");
}

#[test]
fn before_sm70_lanes_that_return_before_a_barrier_stop_counting() {
    let spec =
        r#"{"grid": 1, "block": 64, "args": [{"buffer": "u32", "len": 64}, {"type": "u32", "value": 40}]}"#;
    let (out, json) = run("tests/data/run/sm60_return_before_barrier.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let want: Vec<u64> = (0..64).map(|t| if t < 40 { t } else { 0 }).collect();
    assert_eq!(got, want);
}

#[test]
fn a_counted_barrier_releases_its_count_and_no_more() {
    let spec = r#"{"grid": 1, "block": 96, "args": [{"buffer": "u32", "len": 96}]}"#;
    let (out, json) = run("tests/data/run/count_barrier_phase.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("deadlock") && err.contains("warp 2 wait at barrier 1 for 64 threads"), "{err}");
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let want: Vec<u64> = (0..96).map(|t| u64::from(t < 64)).collect();
    assert_eq!(got, want, "the first two warps completed the phase");
}

#[test]
fn lanes_through_a_warp_sync_go_on_while_others_still_wait() {
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/run/warp_sync_progress.ptx", spec, &["--max-steps", "1000000"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 1);
}

#[test]
fn cluster_barriers_without_operands_are_valid() {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(["check", "tests/data/run/cluster_barrier.ptx"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_result_goes_to_out_or_stdout_and_a_failed_write_is_an_error() {
    let spec = std::fs::read_to_string("examples/saxpy.json").unwrap();
    let dir = std::env::temp_dir().join(format!("ptxvm-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("r.json");
    let (out, stdout_json) = run("examples/saxpy.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0));
    let (out, _) = run("examples/saxpy.ptx", &spec, &["--out", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.ends_with("]}\n"), "{text}");
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), stdout_json);
    // A device that is full: exit 1, and the message names the file.
    let (out, _) = run("examples/saxpy.ptx", &spec, &["--out", "/dev/full"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write /dev/full"), "{err}");
}

/// A reader that stops early (`ptxvm run ... | head`) ends the output quietly: the
/// exit code is the kernel's, and there is no panic or message.
#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    use std::process::Stdio;
    // gemm N=256 prints about 1.3 MB, far more than a pipe holds.
    let child = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(["run", "bench/kernels/gemm.ptx", "--launch", "bench/kernels/gemm256.json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = child;
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// nvcc's initialiser for pointers in a packed struct, a byte of an address at a
/// time (`0xFF00(generic(values)+4)`): the kernel reads through them.
#[test]
fn pointers_in_a_packed_struct_are_initialised_byte_by_byte() {
    let spec =
        r#"{"kernel": "_Z10use_packedPi", "grid": 1, "block": 4, "args": [{"buffer": "s32", "len": 4}]}"#;
    let (out, json) = run("corpus/cuda/ptx/sm_90/packed_pointers.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // packed_pointers.cu: values[1] + 'a' and values[3] + 'b', alternating.
    let want: Vec<i64> = vec![2 + 97, 4 + 98, 2 + 97, 4 + 98];
    let got: Vec<i64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
    assert_eq!(got, want);
}

/// `.attribute(.managed)` declares an ordinary global that every CTA sees.
#[test]
fn a_managed_variable_is_global_memory() {
    let spec = r#"{"grid": 1, "block": 64, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/syntax/managed.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 64);
}

/// A fetch through a handle that is no live texture object is a fault, reported as
/// an access out of bounds is: exit 2, the thread, the instruction and the handle.
#[test]
fn a_fetch_through_no_texture_object_is_a_fault() {
    let ptx = "corpus/cuda/ptx/sm_90/features.ptx";
    let spec = r#"{"kernel": "_Z10tex_sampleyPfi", "grid": 1, "block": 1, "args": [{"type": "u64", "value": 12345}, {"buffer": "f32", "len": 1}, {"type": "s32", "value": 1}]}"#;
    let (out, _) = run(ptx, spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("out of bounds: texture handle 0x3039 is not a live texture object"), "{err}");
    assert!(err.contains("tex.2d.v4.f32.f32"), "{err}");
}

/// A launch spec's texture: linear filtering between texel centres is the Guide's
/// weighted mean (weights of 1/256ths), channels the format lacks read 0, and
/// `tld4.r` returns the footprint's four reds in the ISA's order (i, j+1), (i+1,
/// j+1), (i+1, j), (i, j).
#[test]
fn a_spec_texture_filters_and_gathers_as_the_guide_says() {
    let spec = r#"{"grid": 1, "block": 3, "args": [
        {"texture": {"format": "f32", "channels": 2, "dims": [2, 2], "data": [1, 10, 3, 30, 5, 50, 7, 70], "filter": "linear"}},
        {"buffer": "f32", "data": [1.0, 0.75, 1.5]}, {"buffer": "f32", "data": [0.5, 0.5, 1.5]},
        {"buffer": "f32", "len": 12}, {"buffer": "f32", "len": 12}]}"#;
    let (out, json) = run("tests/data/tex/fetch2d.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // (1.0, 0.5): halfway between (1, 10) and (3, 30); (0.75, 0.5): a quarter of the
    // way; (1.5, 1.5): texel (1, 1) itself.
    let fetched = floats(&json["buffers"][2]["data"]);
    assert_eq!(fetched, [2.0, 20.0, 0.0, 0.0, 1.5, 15.0, 0.0, 0.0, 7.0, 70.0, 0.0, 0.0]);
    let gathered = floats(&json["buffers"][3]["data"]);
    assert_eq!(gathered, [5.0, 7.0, 3.0, 1.0, 5.0, 7.0, 3.0, 1.0, 7.0, 7.0, 7.0, 7.0]);
}

/// A launch spec's seamless cubemap: texel k of 2 x 2 faces (k = 4 face + 2 y + x)
/// holds k + 1, fetched at two directions of tests/tex/probes.py's probe 21, where
/// an H200 weighed the texels (15, 16, 23, 24) by (134, 6, 5, 111) near an edge and
/// (3, 14, 20) by (33, 193, 30) near a corner (tests/tex/gpu_probes.bin).
#[test]
fn a_spec_cubemap_filters_seamlessly_across_edges_and_corners() {
    let texels: Vec<String> = (1..=24).map(|v| v.to_string()).collect();
    let spec = format!(
        r#"{{"grid": 1, "block": 2, "args": [
        {{"texture": {{"format": "f32", "dims": [2, 2, 6], "shape": "cubemap", "filter": "linear", "seamless": true, "data": [{}]}}}},
        {{"buffer": "f32", "data": ["0xbedd008c", "0xbf71b013", "0xbf66623e", "0x3ece3826", "0xbf213e75", "0x3ecaf3f5"]}},
        {{"buffer": "f32", "len": 8}}]}}"#,
        texels.join(",")
    );
    let (out, json) = run("tests/data/tex/fetch_cube.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let edge = (134.0 * 15.0 + 6.0 * 16.0 + 5.0 * 23.0 + 111.0 * 24.0) / 256.0;
    let corner = (33.0 * 3.0 + 193.0 * 14.0 + 30.0 * 20.0) / 256.0;
    let got: Vec<f32> = floats(&json["buffers"][1]["data"]).into_iter().map(|v| v as f32).collect();
    assert_eq!(got, [edge, 0.0, 0.0, 0.0, corner, 0.0, 0.0, 0.0].map(|v: f64| v as f32));
    // "seamless" is for cubemaps.
    let flat = r#"{"grid": 1, "block": 1, "args": [
        {"texture": {"format": "f32", "dims": [2, 2], "filter": "linear", "seamless": true, "data": [1, 2, 3, 4]}},
        {"buffer": "f32", "len": 3}, {"buffer": "f32", "len": 4}]}"#;
    let (out, _) = run("tests/data/tex/fetch_cube.ptx", flat, &[]);
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seamless filtering is for cubemaps"));
}

/// A launch spec's surfaces: nvcc's `surf2Dread`/`surf2Dwrite` copy of float4
/// texels from one to another, and the result holds both surfaces' texels.
#[test]
fn spec_surfaces_are_read_written_and_reported() {
    let spec = r#"{"kernel": "surf_copy", "grid": 1, "block": 4, "args": [
        {"surface": {"format": "f32", "channels": 4, "dims": [3, 1], "data": [1,2,3,4, 5,6,7,8, 9,10,11,12]}},
        {"surface": {"format": "f32", "channels": 4, "dims": [3, 1]}}, {"type": "s32", "value": 3}]}"#;
    let (out, json) = run("corpus/cuda/ptx/sm_90/features.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][1]["arg"], 1);
    let want: Vec<f64> = (1..=12).map(f64::from).collect();
    assert_eq!(floats(&json["buffers"][1]["data"]), want);
}

/// A layered 1D surface read at a layer, `suq` and `txq` answering as a GPU does
/// (tests/tex/query.txt: a layered array's layers as its depth), and `sured.add`
/// from every thread into one texel, `.zero` dropping an add outside the surface.
#[test]
fn surface_loads_reductions_and_queries_through_spec_objects() {
    let texels: Vec<String> = (0..120).map(|v| v.to_string()).collect();
    let spec = format!(
        r#"{{"grid": 1, "block": 8, "args": [
        {{"surface": {{"format": "u32", "dims": [3, 4], "shape": "layered1d", "data": [0,1,2, 10,11,12, 20,21,22, 30,31,32]}}}},
        {{"surface": {{"format": "u32", "dims": [2, 2]}}}},
        {{"texture": {{"format": "u8", "channels": 4, "dims": [5, 3, 2], "shape": "layered2d", "read": "normalized", "data": [{}]}}}},
        {{"buffer": "u32", "len": 6}}]}}"#,
        texels.join(",")
    );
    let (out, json) = run("tests/data/tex/surf_ops.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Texel 1 of layer 2; width 3 and 4 layers; the texture 5 wide, 3 high, 2 layers.
    assert_eq!(json["buffers"][2]["data"], serde_json::json!([21, 3, 4, 5, 3, 2]));
    // 1 + 2 + ... + 8 into texel (1, 0).
    assert_eq!(json["buffers"][1]["data"], serde_json::json!([0, 36, 0, 0]));
}

/// Textures CUDA refuses are refused in the spec, naming the field.
#[test]
fn spec_textures_cuda_refuses_are_errors() {
    let cases = [
        (
            r#"{"format": "s16", "dims": [4], "data": [1, 2, 3, 4], "filter": "linear"}"#,
            "args[0].texture.filter",
        ),
        (r#"{"format": "u32", "dims": [2], "data": [1, 2], "read": "normalized"}"#, "args[0].texture.read"),
        (r#"{"format": "u8", "dims": [2], "data": [1, 2], "srgb": true}"#, "args[0].texture.srgb"),
        (
            r#"{"format": "f32", "dims": [2, 2], "data": [1, 2, 3]}"#,
            "3 texel values given; the shape holds 4",
        ),
        (
            r#"{"format": "f32", "dims": [4, 4, 5], "shape": "cubemap", "data": []}"#,
            "a cubemap is [size, size, 6]",
        ),
        (r#"{"format": "f64", "dims": [2], "data": [1, 2]}"#, "textures hold u8 s8"),
    ];
    for (tex, want) in cases {
        let spec = format!(
            r#"{{"grid": 1, "block": 1, "args": [{{"texture": {tex}}}, {{"buffer": "f32", "len": 1}}, {{"buffer": "f32", "len": 1}}, {{"buffer": "f32", "len": 4}}, {{"buffer": "f32", "len": 4}}]}}"#
        );
        let (out, _) = run("tests/data/tex/fetch2d.ptx", &spec, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tex}: {err}");
        assert!(err.contains(want), "{tex}: {err}");
    }
}

/// An unsized `.param .b8 a[]` receives the whole argument its caller passes.
#[test]
fn an_unsized_parameter_receives_the_whole_argument() {
    let spec = r#"{"grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/syntax/unsized_param.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Bytes 0, 3 and 7 of the argument, stored by the caller: 1 + 20 + 100.
    assert_eq!(json["buffers"][0]["data"][0], 121);
}

/// `WARP_SZ` is the warp size as a value (PTX ISA 10.2).
#[test]
fn warp_sz_is_32() {
    let spec = r#"{"grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/syntax/warp_sz.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 32);
}

/// A kernel body without `ret` ends at its closing brace (found by fuzzing: the
/// threads ran on into the next kernel's instructions with the wrong registers and
/// panicked).
#[test]
fn falling_off_the_end_of_a_kernel_ends_it() {
    for (kernel, want) in [("first", 0), ("second", 7)] {
        let spec = format!(
            r#"{{"kernel": "{kernel}", "grid": 2, "block": 64, "args": [{{"buffer": "u32", "len": 1}}]}}"#
        );
        let (out, json) = run("tests/data/syntax/fall_off_end.ptx", &spec, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(json["buffers"][0]["data"][0], want, "{kernel}");
    }
}

/// `mov.v2`/`mov.v4` move element by element, and a scalar source fills every
/// element (the file's comment gives the values the ISA says).
#[test]
fn vector_moves_run_element_by_element() {
    let spec = r#"{"grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 7}]}"#;
    let (out, json) = run("tests/data/syntax/vector_mov.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(got, [1, 2, 3, 4, 7, 7, 0x0002_0001]);
}

/// `.func`s with `.reg` parameters and returns (issue 9: `call (%r1), inc, (%r0)` left
/// 0): 32- and 64-bit registers, an immediate argument, and recursion, where every
/// frame has its own parameter registers.
#[test]
fn register_parameters_reach_the_callee_and_come_back() {
    let spec = r#"{"kernel": "k", "grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 96}]}"#;
    let (out, json) = run("tests/data/run/reg_params.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let fact = |n: u64| (1..=n.max(1)).product::<u64>();
    let want: Vec<u64> =
        (0..32u64).flat_map(|t| [t + 42, if t & 1 == 1 { t * 1000 } else { 7 }, fact(t % 6)]).collect();
    assert_eq!(got, want);
}

/// Integer division and remainder by zero give all ones at every width and
/// signedness, as the code an H100 runs does (tests/data/run/div_by_zero.ptx says
/// how that was read); `--check div0` reports the first one as a fault instead.
#[test]
fn division_by_zero_gives_all_ones_and_check_div0_reports_it() {
    let spec = r#"{"kernel": "k", "grid": 1, "block": 3, "args": [{"buffer": "u64", "len": 36}, {"type": "u32", "value": 0}]}"#;
    let (out, json) = run("tests/data/run/div_by_zero.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let widths = [16u32, 16, 16, 16, 32, 32, 32, 32, 64, 64, 64, 64];
    let want: Vec<u64> = (0..3)
        .flat_map(|_| widths.iter().map(|&w| if w == 64 { u64::MAX } else { (1u64 << w) - 1 }))
        .collect();
    assert_eq!(got, want);
    let (out, _) = run("tests/data/run/div_by_zero.ptx", spec, &["--check", "div0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("integer division by zero (--check div0)") && err.contains("div.u16"), "{err}");
}

#[test]
fn warp_wide_matrix_instructions_need_the_whole_warp_and_cp_async_its_alignment() {
    let ptx = "tests/data/run/matrix_faults.ptx";
    let mma = |limit: u32| {
        format!(
            r#"{{"kernel": "mma_half", "grid": 1, "block": 32, "args": [{{"buffer": "f32", "len": 32}}, {{"type": "u32", "value": {limit}}}]}}"#
        )
    };
    // The whole warp: D = A*B with every element 1.0 and k = 16 gives 16.0 everywhere.
    let (out, json) = run(ptx, &mma(32), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(floats(&json["buffers"][0]["data"]).iter().all(|&v| v == 16.0), "{json}");
    // Half a warp: a fault naming the instruction and the undefined behaviour.
    let (out, _) = run(ptx, &mma(16), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mma.sync.aligned needs all 32 threads") && err.contains("0xffff0000"), "{err}");

    let copy = |skew: u64| {
        format!(
            r#"{{"kernel": "copy", "grid": 1, "block": 1, "args": [{{"buffer": "u8", "len": 64}}, {{"type": "u64", "value": {skew}}}]}}"#
        )
    };
    let (out, _) = run(ptx, &copy(16), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (out, _) = run(ptx, &copy(8), &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("are not aligned to 16 bytes") && err.contains("cp.async"), "{err}");
}

#[test]
fn brkpt_stops_the_launch_at_the_thread_that_reached_it() {
    let spec = r#"{"kernel": "k", "grid": 1, "block": 8, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, _) = run("tests/data/run/brkpt.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tid=(3,0,0)") && err.contains("brkpt: breakpoint reached") && err.contains(":12:"),
        "{err}"
    );
}

#[test]
fn a_bytes_argument_must_fill_its_parameter_exactly() {
    let spec = r#"{"kernel": "hello", "grid": 1, "block": 1, "args": [{"buffer": "s32", "data": [1]}, {"type": "bytes", "value": "0x01020304"}]}"#;
    let (out, _) = run("tests/kernels/io.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("args[1]: 4 bytes for a 24-byte parameter"), "{err}");
}

#[test]
fn packed_halves_relu_and_simd_video() {
    // a = 0x7fff7fff, b = 0x81010000, c = 0x12345678. As halves: a = [32767, 32767],
    // b = [0, 0x8101] (-32511 signed). As bytes, lowest first: a = [ff 7f ff 7f],
    // b = [00 00 01 81].
    let spec = r#"{"kernel": "packed", "grid": 1, "block": 1, "args": [{"buffer": "u32", "len": 17},
        {"type": "u32", "value": 2147450879}, {"type": "u32", "value": 2164326400},
        {"type": "u32", "value": 305419896}]}"#;
    let (out, json) = run("tests/data/run/packed.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    let want: [u64; 17] = [
        0x0100_7fff, // add.u16x2: 0x7fff + 0x8101 wraps to 0x0100 in the high half
        0x0100_7fff, // add.s16x2: the same bits
        0x7fff_0000, // min.u16x2
        0x8101_0000, // min.s16x2: -32511 is the smaller high half
        0x8101_7fff, // max.u16x2
        0x7fff_7fff, // max.relu.s16x2
        0,           // min.relu.s16x2: 0 and relu(-32511)
        0,           // min.relu.s32: b is negative
        0x7fff_7fff, // max.relu.s32
        0xffff_7fff, // vadd2 .sat unsigned: 0x7fff + 0x8101 clamps to 0xffff
        0x7fff_5678, // vsub2.s32 .sat into d.h1: 32767 + 32511 clamps; the low half is c's
        0x4000_0080, // vavrg2 a.h01 b.h23: (32767 + 0 + 1) >> 1, (32767 - 32511 + 1) >> 1
        0x1201_5600, // vmax4.s32 into d.b20: bytes 2 and 0 are max(-1, 1), max(-1, 0)
        0x0000_0100, // vset4.s32 lt, a.b0123: [127 -1 127 -1] < [0 0 1 -127] only in element 1
        0x1234_567a, // vset2.ne.add: c + 1 + 1
        0x1234_56f7, // vmin4.add into d.b31: c + min(0x7f, 0x81) + min(0x7f, 0)
        0xfe02_7f01, // vabsdiff4.sat a.b7654 b.b3210: |b's bytes - a's bytes| signed
    ];
    assert_eq!(got.len(), want.len());
    for (k, (&g, &w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "slot {k}: {g:#010x}, want {w:#010x}");
    }
}

#[test]
fn a_fault_names_the_buffer_the_cuda_line_and_the_call_stack() {
    // Thread 19 of 20 reads x[20] inside load(), which scale() calls (lineinfo.cu,
    // compiled with -lineinfo): line 6 is `return p[i];`, line 12 the call.
    let spec = r#"{"kernel": "scale", "grid": 1, "block": 32, "args": [{"buffer": "f32", "len": 20},
        {"buffer": "f32", "len": 20}, {"type": "s32", "value": 20}]}"#;
    let (out, _) = run("tests/data/run/lineinfo.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].contains("tid=(19,0,0)") && lines[0].contains("ld.global.f32"), "{err}");
    assert!(lines[0].contains("(offset 80) reaches 4 bytes past the end of args[0] (80 bytes at"), "{err}");
    assert!(lines[1].ends_with("note: at tests/data/run/lineinfo.cu:6:5"), "{err}");
    assert!(lines[2].contains("note: called from `call.uni (retval0), _Z4loadPKfi"), "{err}");
    assert!(lines[2].ends_with("(tests/data/run/lineinfo.cu:12:9)"), "{err}");
    assert_eq!(lines.len(), 3, "{err}");
    // compute-sanitizer's spelling gives the same report: memcheck is always on.
    let (out, _) = run("tests/data/run/lineinfo.ptx", spec, &["--sanitize", "memcheck"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), err);
}

/// A launch of a kernel of tests/data/sanitize/sanitize.cu over 2 CTAs of 128 threads,
/// input 1..=256, under `--sanitize racecheck,initcheck`.
fn sanitized(kernel: &str, out_len: usize) -> (Output, Value, String) {
    let data: Vec<String> = (1..=256).map(|v: i32| v.to_string()).collect();
    let spec = format!(
        r#"{{"kernel": "{kernel}", "grid": 2, "block": 128, "args": [{{"buffer": "s32", "data": [{}]}},
            {{"buffer": "s32", "len": {out_len}}}]}}"#,
        data.join(", ")
    );
    let (out, json) = run("tests/data/sanitize/sanitize.ptx", &spec, &["--sanitize", "racecheck,initcheck"]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, json, err)
}

#[test]
fn racecheck_finds_the_missing_syncthreads() {
    let (out, _, err) = sanitized("racy_sum", 2);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // Thread 0 reads s[1] (sanitize.cu line 13) that thread 1 wrote (line 10), with no
    // barrier between: both threads and both lines are named.
    let raw = err
        .lines()
        .position(|l| {
            l.contains("read-after-write hazard: kernel `racy_sum`")
                && l.contains("reads byte 4 of `_ZZ8racy_sumE1s`")
        })
        .unwrap_or_else(|| panic!("{err}"));
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines[raw].contains("ctaid=(0,0,0) tid=(0,0,0), `ld.shared.u32")
            && lines[raw].contains("(tests/data/sanitize/sanitize.cu:13:9)"),
        "{err}"
    );
    assert!(
        lines[raw + 1].contains("note: tid=(1,0,0) wrote it before, with no barrier between: `st.shared.u32")
            && lines[raw + 1].ends_with("(tests/data/sanitize/sanitize.cu:10:5)"),
        "{err}"
    );
    // Both CTAs race the same way; the summary line closes the reports, of which at
    // most 10 are printed in full.
    assert!(err.contains("in 2 CTAs"), "{err}");
    let last = lines.last().unwrap();
    assert!(last.contains("sanitize: ") && last.contains(" hazard reports in kernel `racy_sum`"), "{err}");
    assert!(lines.iter().filter(|l| l.contains(": sanitize: ")).count() <= 11, "{err}");
}

#[test]
fn initcheck_finds_a_shared_read_no_thread_wrote() {
    let (out, _, err) = sanitized("uninit_read", 256);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // Thread 127 reads s[128], byte 512 of s, which no thread stores (line 50).
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].contains(
            "read of uninitialized shared memory: kernel `uninit_read`, ctaid=(0,0,0) tid=(127,0,0)"
        ),
        "{err}"
    );
    assert!(lines[0].contains("(tests/data/sanitize/sanitize.cu:50:5) reads byte 512 of `_ZZ11uninit_readE1s` (2 times in 2 CTAs)"), "{err}");
}

#[test]
fn correct_kernels_give_no_sanitizer_report() {
    for kernel in ["block_sum", "tree_sum"] {
        let (out, json, err) = sanitized(kernel, 2);
        assert_eq!(out.status.code(), Some(0), "{kernel}: {err}");
        assert!(err.is_empty(), "{kernel}: {err}");
        // 1 + ... + 128 and 129 + ... + 256.
        assert_eq!(json["buffers"][1]["data"], serde_json::json!([8256, 24640]), "{kernel}");
    }
    // Every shipped example and every kernel of tests/kernels runs with both checks and
    // gets no report (the ones that fault still fault, with no report).
    // (PTX, spec, exit): the faulting examples still fault (exit 2), the kernels of
    // tests/kernels exit as their expected files say, the others run (exit 0).
    let mut cases: Vec<(String, String, i64)> = Vec::new();
    for e in std::fs::read_dir("examples").unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let stem =
                p.file_stem().unwrap().to_str().unwrap().trim_end_matches("_out_of_bounds").to_string();
            let spec = p.to_str().unwrap().to_string();
            let faults = spec.contains("out_of_bounds") || spec.contains("gather_trap");
            cases.push((format!("examples/{stem}.ptx"), spec, if faults { 2 } else { 0 }));
        }
    }
    for e in std::fs::read_dir("tests/kernels").unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if let Some(stem) = name.strip_suffix(".launch.json") {
            let want: Value = serde_json::from_str(
                &std::fs::read_to_string(format!("tests/kernels/{stem}.expected.json")).unwrap(),
            )
            .unwrap();
            let exit = want["exit"].as_i64().unwrap();
            cases.push((want["ptx"].as_str().unwrap().to_string(), p.to_str().unwrap().to_string(), exit));
        }
    }
    assert!(cases.len() >= 16, "{cases:?}");
    for (ptx, spec, exit) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_ptxvm"))
            .args(["run", &ptx, "--launch", &spec, "--sanitize", "memcheck,racecheck,initcheck,synccheck"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("sanitize:") && !err.contains("panicked"), "{spec}: {err}");
        assert_eq!(out.status.code().map(i64::from), Some(exit), "{spec}: {err}");
    }
}

#[test]
fn racecheck_counts_a_syncwarp_only_for_the_lanes_in_it() {
    // Each lane stores s[t], then reads s[t ^ 1] (warp_sync.ptx).
    let hazards = |mode: u32| {
        let spec = format!(
            r#"{{"kernel": "neighbour", "grid": 1, "block": 32, "args": [{{"buffer": "u32", "len": 32}}, {{"type": "u32", "value": {mode}}}]}}"#
        );
        let (out, json) = run("tests/data/sanitize/warp_sync.ptx", &spec, &["--sanitize", "racecheck"]);
        // Whatever is reported, every lane read its neighbour's id.
        let want: Vec<u64> = (0..32).map(|t| t ^ 1).collect();
        let got: Vec<u64> =
            json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        assert_eq!(got, want);
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // No sync: every lane's read races with its neighbour's store.
    let (code, err) = hazards(0);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("read-after-write hazard") && err.contains("(32 times)"), "{err}");
    // __syncwarp() of the whole warp orders them.
    assert_eq!(hazards(1), (Some(0), String::new()));
    // A sync of lanes 0 and 1 only: the other 30 reads still race.
    let (code, err) = hazards(2);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("tid=(2,0,0)")
            && err.contains("(30 times)")
            && err.contains("note: tid=(3,0,0) wrote it"),
        "{err}"
    );
}

/// A scalar of another kind than its parameter's runs, with a warning on stderr
/// naming the argument, both types and the kernel; a demangled kernel name works.
#[test]
fn mismatched_scalar_types_warn_and_demangled_names_resolve() {
    let spec = std::fs::read_to_string("examples/saxpy.json")
        .unwrap()
        .replace(r#"{"type": "f32", "value": 2.0}"#, r#"{"type": "s32", "value": 1073741824}"#);
    let (out, json) = run("examples/saxpy.ptx", &spec, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning:")
            && err.contains("args[0]: type s32 given for parameter 0 of kernel `saxpy`, declared .f32"),
        "{err}"
    );
    // 1073741824 = 0x40000000, the bits of 2.0f32: y = 2x + 0.5.
    assert_eq!(floats(&json["buffers"][1]["data"])[0], 2.5);
    let spec =
        std::fs::read_to_string("examples/collatz.json").unwrap().replace("_Z7collatzPKyPiii", "collatz");
    let (out, json) = run("examples/collatz.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["kernel"], "_Z7collatzPKyPiii");
}

#[test]
fn fns_finds_the_nth_set_bit_and_a_base_past_31_faults() {
    // The ISA's examples on 0xaaaaaaaa: (base, offset) -> d.
    let spec = r#"{"kernel": "fns_each", "grid": 1, "block": 4, "args": [{"buffer": "u32", "len": 4},
        {"buffer": "u32", "data": [3, 3, 2, 2]}, {"buffer": "s32", "data": [1, -1, 1, -1]},
        {"type": "u32", "value": 2863311530}]}"#;
    let (out, json) = run("tests/data/run/fns.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"], serde_json::json!([3, 3, 3, 1]));
    let spec = spec.replace("[3, 3, 2, 2]", "[3, 3, 40, 2]");
    let (out, _) = run("tests/data/run/fns.ptx", &spec, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("tid=(2,0,0)") && err.contains("fns: base 40 is above 31 (undefined behaviour)"),
        "{err}"
    );
}

/// `wmma` forms outside the ISA's list are refused by `check`, each with the
/// instruction's name and what is wrong (ptxas 13.5 refuses each of them): a fragment
/// of the wrong number of registers, a type the shape does not have, sub-byte A in
/// column-major layout, single bits without `.and.popc` or `.xor.popc`.
#[test]
fn wmma_forms_outside_the_isa_are_refused_by_check() {
    let module = |body: &str| {
        format!(
            ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
             .reg .b32 %r<9>;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [p];\n{body}\nret;\n}}\n"
        )
    };
    for (body, want) in [
        (
            "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4}, [%rd1];",
            "wmma.load.a.sync.aligned.row.m16n16k16.global.f16: destination is a fragment of 8 registers, found 4",
        ),
        (
            "wmma.load.a.sync.aligned.row.m16n16k16.global.tf32 {%r1, %r2, %r3, %r4}, [%rd1];",
            "no such fragment in shape .m16n16k16",
        ),
        (
            "wmma.load.a.sync.aligned.col.m8n8k32.global.s4 {%r1}, [%rd1];",
            "a sub-byte fragment of this matrix is .row only",
        ),
        (
            "wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};",
            ".and/.xor.popc for .b1",
        ),
    ] {
        let src = module(body);
        let diags = ptxvm::api::Module::load(&src).err().unwrap_or_else(|| panic!("{body} was accepted"));
        assert!(diags.iter().any(|d| d.message.contains(want)), "{body}: {:?}", diags);
    }
}

/// `[reg+offset]` with a 32-bit register is summed in 32 bits (the fast path's scalar
/// `ld`/`st` and the general path's `atom` and vector accesses alike): a register
/// holding a shared address less 128, below address 0 for thread 0, reaches the word
/// through `+128`. Before, the sum was taken in 64 bits and thread 0 faulted at
/// 0x100000000.
#[test]
fn thirty_two_bit_shared_addresses_wrap() {
    let spec = r#"{"kernel": "shared32", "grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 64}]}"#;
    let (out, json) = run("tests/data/run/shared32.ptx", spec, &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let want: Vec<u64> = (0..32).map(|t| 3 * t + 1).chain((0..32).map(|t| 3 * t)).collect();
    let got: Vec<u64> =
        json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(got, want);
}

/// A wmma matrix must start at a multiple of its fragment's size (PTX ISA 9.7.14.4.2;
/// 32 bytes for eight f16x2 registers): 16 bytes in is a fault naming it, 32 loads.
#[test]
fn wmma_matrices_start_at_a_multiple_of_the_fragment_size() {
    let spec = |k: &str| {
        format!(r#"{{"kernel": "{k}", "grid": 1, "block": 32, "args": [{{"buffer": "u16", "len": 600}}]}}"#)
    };
    let (out, _) = run("tests/data/run/wmma_base.ptx", &spec("bad"), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the matrix must start at a multiple of the fragment's 32 bytes"), "{err}");
    let (out, _) = run("tests/data/run/wmma_base.ptx", &spec("good"), &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Static shared memory is laid out per kernel (src/lower/shared.rs): six kernels
/// with a 40 KiB tile each and a small array they all reach through a helper make
/// 240 KiB in the module, past the 227 KiB a CTA may have, but 40.1 KiB per kernel.
/// Each kernel runs, and neither its tile nor the shared array clobbers the other:
/// thread t of the k-th kernel reads back tile[t] = t + 7 + 2k and common[t] =
/// t + 100 (k + 1), as the PTX's header says.
#[test]
fn shared_memory_is_laid_out_per_kernel_so_a_module_may_hold_more_than_a_cta() {
    let ptx = "tests/data/run/shared_layout.ptx";
    for (k, name) in ["a", "b", "c", "d", "e", "f"].into_iter().enumerate() {
        let spec = format!(
            r#"{{"kernel": "{name}", "grid": 2, "block": 32, "args": [{{"buffer": "u32", "len": 64}}]}}"#
        );
        let (out, json) = run(ptx, &spec, &[]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let got = u64s(&json["buffers"][0]["data"]);
        let stamp = [100, 200, 300, 400, 500, 600][k];
        for t in 0..32u64 {
            assert_eq!(got[2 * t as usize], t + 7 + 2 * k as u64, "{name}: tile[{t}]");
            assert_eq!(got[2 * t as usize + 1], t + stamp, "{name}: common[{t}]");
        }
    }
}

/// ptxas refuses a kernel with more than 48 KiB of static shared memory ("uses too
/// much shared data (0x1e080 bytes, 0xc000 max)"); so does `run`.
#[test]
fn a_kernel_with_more_than_48_kib_of_static_shared_memory_is_refused() {
    let dir = std::env::temp_dir().join(format!("ptxvm-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("big_tile.ptx");
    std::fs::write(
        &ptx,
        ".version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 tile[49156];\n\
         .visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<2>;\n\tst.shared.u32 [tile], %r1;\n\tret;\n}\n",
    )
    .unwrap();
    let spec = r#"{"kernel": "k", "grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, _) = run(ptx.to_str().unwrap(), spec, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("more than 48 KiB (0xc000 bytes) of static shared memory"), "{err}");
}

/// `tests/data/run/ring.ptx`: CTA i waits for CTA i+1's flag; `start` begins the chain.
fn ring(ctas: u32, start: u32, env: &[(&str, &str)]) -> (Output, Value, String) {
    let spec = format!(
        r#"{{"grid": {ctas}, "block": 64, "args": [{{"buffer": "u32", "len": {ctas}}},
            {{"type": "u32", "value": {ctas}}}, {{"type": "u32", "value": {start}}}]}}"#
    );
    let (out, json) = common::run_spec_env("tests/data/run/ring.ptx", &spec, &[], env);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, json, err)
}

#[test]
fn ctas_that_wait_on_each_other_in_a_ring_are_a_deadlock() {
    for threads in ["1", "2"] {
        let started = std::time::Instant::now();
        let (out, json, err) = ring(12, 12, &[("RAYON_NUM_THREADS", threads)]);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("tests/data/run/ring.ptx:26:2: fault: kernel `ring`, ctaid=(0,0,0) tid=(0,0,0), `ld.volatile.global.u32 %r6, [%rd3];`: deadlock across CTAs: each of the 12 CTAs still running waits"),
            "{err}"
        );
        assert!(err.contains("CTA (0,0,0) loops here: lanes 0x00000001 of warp 0"), "{err}");
        // Eight notes, then the rest counted.
        for c in 1..=8 {
            assert!(
                err.contains(&format!(
                    "note: `ld.volatile.global.u32 %r6, [%rd3];`: CTA ({c},0,0) loops here"
                )),
                "{err}"
            );
        }
        assert!(!err.contains("CTA (9,0,0)") && err.contains("and 3 more CTAs wait"), "{err}");
        assert_eq!(json["buffers"][0]["data"], serde_json::json!(vec![0; 12]));
        // Well before the default budget, after the grace second.
        let took = started.elapsed().as_secs_f64();
        assert!((1.0..20.0).contains(&took), "{threads} threads: {took} s");
    }
    // With a CTA to start it, the same ring completes.
    let (out, json, err) = ring(12, 11, &[]);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(json["buffers"][0]["data"], serde_json::json!(vec![1; 12]));
}

#[test]
fn a_wait_that_counts_is_no_deadlock_and_a_back_off_that_settles_is_one() {
    // Thread 0 of each CTA gives up after 3,000,000 loads of a flag no one sets: its
    // state never repeats, so it is slow, not deadlocked.
    let spec = r#"{"grid": 4, "block": 64, "args": [{"buffer": "u32", "len": 1}, {"buffer": "u32", "len": 4},
        {"type": "u32", "value": 3000000}]}"#;
    let (out, json) = run("tests/data/run/bounded.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][1]["data"], serde_json::json!(vec![3_000_000; 4]));
    // A nanosleep back-off that doubles up to 256 ns repeats once it stops growing.
    let spec = r#"{"grid": 3, "block": 96, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, _) = run("tests/data/run/backoff.ptx", spec, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`ld.relaxed.gpu.global.u32 %r6, [%rd1];`: deadlock across CTAs: each of the 3 CTAs"),
        "{err}"
    );
    assert!(err.contains("CTA (0,0,0) loops here: lanes 0xffffffff of warp 0 (and 2 more warps)"), "{err}");
    // A budget smaller than the grace second still ends it first, as the budget.
    let (out, _) = run("tests/data/run/backoff.ptx", spec, &["--max-steps", "1000000"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("instruction budget exhausted") && err.contains("was waiting here"), "{err}");
}

#[test]
fn ctas_that_move_on_only_through_memory_for_longer_than_the_grace_are_no_deadlock() {
    // Both loops come back to the same registers at their branches; CTA 0's atomic
    // adds, over about 1.5 s, are all that moves the launch on.
    let spec = r#"{"grid": 2, "block": 1, "args": [{"buffer": "u32", "len": 1}, {"buffer": "u32", "len": 1},
        {"type": "u32", "value": 6000000}]}"#;
    let (out, json) = run("tests/data/run/relay.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(json["buffers"][0]["data"][0].as_u64().unwrap() >= 6_000_000);
    assert_eq!(json["buffers"][1]["data"][0], 1);
}

#[test]
fn stmatrix_outside_shared_memory_or_from_part_of_a_warp_is_a_fault() {
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u16", "len": 64}]}"#;
    let (out, json) = run("tests/data/run/stmatrix_global.ptx", spec, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("stmatrix: lane 0 gives the address 0x"), "{err}");
    assert!(err.contains("which is not in shared memory (undefined behaviour)"), "{err}");
    assert_eq!(json["buffers"][0]["data"], serde_json::json!(vec![0; 64]), "nothing written");
    let spec = r#"{"grid": 1, "block": 16, "args": [{"buffer": "u16", "len": 64}]}"#;
    let (out, _) = run("tests/data/run/stmatrix_global.ptx", spec, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stmatrix.aligned needs all 32 threads of the warp"), "{err}");
}

#[test]
fn kernel_parameters_through_generic_addresses_are_read_only_and_bounded() {
    let spec = |write: u32| {
        format!(
            r#"{{"grid": 1, "block": 1, "args": [{{"type": "u32", "value": 3}}, {{"type": "u32", "value": {write}}}]}}"#
        )
    };
    let (out, _) = run("tests/data/run/param_write.ptx", &spec(1), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("a write to the kernel's parameters (offset 0, generic address 0x7a0000000000): they are read-only"),
        "{err}"
    );
    let (out, _) = run("tests/data/run/param_write.ptx", &spec(0), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the 4-byte access at offset 8 of the kernel's parameters"), "{err}");
    assert!(err.contains("outside its 8 bytes of parameters"), "{err}");
}

#[test]
fn a_wait_on_the_clock_and_lanes_going_on_alone_past_a_spinning_half_are_no_deadlocks() {
    let spec = r#"{"grid": 2, "block": 32, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/run/clock_wait.ptx", spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 1);
    let spec = r#"{"grid": 1, "block": 32, "args": [{"buffer": "u32", "len": 1}]}"#;
    let (out, json) = run("tests/data/run/spin_alone.ptx", spec, &["--timeout", "20"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json["buffers"][0]["data"][0], 1);
}
