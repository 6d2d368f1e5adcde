//! Bulk reductions and multicast bulk copies through `ptxvm run` (PTX ISA 9.7.9.25.4):
//! `cp.reduce.async.bulk` into global memory and into another CTA's shared memory,
//! in every operation and type pair that ptxas 13.5 accepts (the 39 of CCCL's
//! `cuda::ptx`), and `cp.async.bulk ... .multicast::cluster`.
//!
//! The PTX is made here, one kernel per pair (ptxas 13.5 accepts each). The expected
//! values come from the ISA's definitions of the reductions (those of `red`: `inc`
//! is `old >= b ? 0 : old + 1`, `dec` is `old == 0 || old > b ? b : old - 1`,
//! `.add.f32` rounds to nearest even and flushes subnormal inputs and results, the
//! halves' `.add.noftz` does not, `min`/`max` of halves as the `min`/`max`
//! instructions order them) computed with Rust's own arithmetic and the `half` crate,
//! never with ptxvm's.

mod common;

use half::{bf16, f16};
use serde_json::Value;

/// The pairs ptxas 13.5 accepts into global memory (`-arch=sm_90a`), op then type.
const GLOBAL: &[(&str, &str)] = &[
    ("add.noftz", "f16"),
    ("add.noftz", "bf16"),
    ("add", "u32"),
    ("add", "s32"),
    ("add", "u64"),
    ("add", "f32"),
    ("add", "f64"),
    ("min", "f16"),
    ("min", "bf16"),
    ("min", "u32"),
    ("min", "s32"),
    ("min", "u64"),
    ("min", "s64"),
    ("max", "f16"),
    ("max", "bf16"),
    ("max", "u32"),
    ("max", "s32"),
    ("max", "u64"),
    ("max", "s64"),
    ("inc", "u32"),
    ("dec", "u32"),
    ("and", "b32"),
    ("and", "b64"),
    ("or", "b32"),
    ("or", "b64"),
    ("xor", "b32"),
    ("xor", "b64"),
];

/// The pairs ptxas 13.5 accepts into shared memory of the cluster.
const SHARED: &[(&str, &str)] = &[
    ("add", "u32"),
    ("add", "s32"),
    ("add", "u64"),
    ("min", "u32"),
    ("min", "s32"),
    ("max", "u32"),
    ("max", "s32"),
    ("inc", "u32"),
    ("dec", "u32"),
    ("and", "b32"),
    ("or", "b32"),
    ("xor", "b32"),
];

const HEAD: &str = ".version 8.6\n.target sm_90a\n.address_size 64\n";

/// Four 16-byte moves from `[from + k]` to `[to + k]` through `%rd3`, `%rd4`.
fn copy64(ld: &str, from: &str, st: &str, to: &str) -> String {
    (0..4)
        .map(|k| {
            let o = 16 * k;
            format!(
                "    ld.{ld}.v2.u64 {{%rd3, %rd4}}, [{from}+{o}];\n    st.{st}.v2.u64 [{to}+{o}], {{%rd3, %rd4}};\n"
            )
        })
        .collect()
}

fn kernel_name(prefix: &str, op: &str, ty: &str) -> String {
    format!("{prefix}_{}_{ty}", op.replace('.', "_"))
}

/// One thread: `in`'s 64 bytes into shared memory, reduced into `out` in a bulk group.
fn global_kernel(op: &str, ty: &str) -> String {
    format!(
        ".visible .entry {name}(.param .u64 out, .param .u64 in)\n{{\n    .reg .b64 %rd<5>;\n    .shared .align 16 \
         .b8 buf[64];\n    ld.param.u64 %rd1, [out];\n    ld.param.u64 %rd2, [in];\n{copy}    \
         fence.proxy.async.shared::cta;\n    cp.reduce.async.bulk.global.shared::cta.bulk_group.{op}.{ty} [%rd1], \
         [buf], 64;\n    cp.async.bulk.commit_group;\n    cp.async.bulk.wait_group 0;\n    ret;\n}}\n",
        name = kernel_name("g", op, ty),
        copy = copy64("global", "%rd2", "shared", "buf"),
    )
}

/// Two CTAs of one thread in a cluster: each holds `in` in `src` and `out` in `dst`;
/// rank 0 reduces its `src` into rank 1's `dst`, completing on rank 1's mbarrier,
/// whose thread then writes its `dst` to `out`.
fn shared_kernel(op: &str, ty: &str) -> String {
    format!(
        ".visible .entry {name}(.param .u64 out, .param .u64 in)\n.reqnctapercluster 2, 1, 1\n{{\n    .reg .pred %p;\n    \
         .reg .b32 %r<8>;\n    .reg .b64 %rd<5>;\n    .shared .align 16 .b8 src[64];\n    .shared .align 16 .b8 \
         dst[64];\n    .shared .align 8 .b64 bar;\n    ld.param.u64 %rd1, [out];\n    ld.param.u64 %rd2, \
         [in];\n{fill_src}{fill_dst}    mov.u32 %r1, %cluster_ctarank;\n    mbarrier.init.shared::cta.b64 [bar], 1;\n    \
         setp.eq.u32 %p, %r1, 1;\n    @%p mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 64;\n    \
         fence.proxy.async.shared::cta;\n    barrier.cluster.arrive.release;\n    barrier.cluster.wait.acquire;\n    @%p \
         bra WAIT;\n    mov.u32 %r2, dst;\n    mov.u32 %r3, 1;\n    mapa.shared::cluster.u32 %r4, %r2, %r3;\n    mov.u32 \
         %r5, bar;\n    mapa.shared::cluster.u32 %r6, %r5, %r3;\n    mov.u32 %r7, src;\n    \
         cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.{op}.{ty} [%r4], [%r7], 64, \
         [%r6];\n    bra END;\nWAIT:\n    mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0;\n    @!%p bra \
         WAIT;\n{write}END:\n    barrier.cluster.arrive;\n    barrier.cluster.wait;\n    ret;\n}}\n",
        name = kernel_name("s", op, ty),
        fill_src = copy64("global", "%rd2", "shared", "src"),
        fill_dst = copy64("global", "%rd1", "shared", "dst"),
        write = copy64("shared", "dst", "global", "%rd1"),
    )
}

/// The module with every kernel, written once for all tests.
fn module() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        let mut ptx = HEAD.to_string();
        for (op, ty) in GLOBAL {
            ptx += &global_kernel(op, ty);
        }
        for (op, ty) in SHARED {
            ptx += &shared_kernel(op, ty);
        }
        let dir = std::env::temp_dir().join(format!("ptxvm-bulk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bulk_reduce.ptx");
        std::fs::write(&path, ptx).unwrap();
        path.to_str().unwrap().to_string()
    })
}

fn words(json: &Value, k: usize) -> Vec<u64> {
    json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
}

fn list(v: &[u64]) -> String {
    v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// Runs `kernel` on `grid` CTAs of one thread with `out` and `in` as 8 u64 words each;
/// `out` after the run.
fn reduce(kernel: &str, grid: u32, out: &[u64], inp: &[u64]) -> Vec<u64> {
    let spec = format!(
        r#"{{"kernel": "{kernel}", "grid": {grid}, "block": 1, "args": [{{"buffer": "u64", "data": [{}]}}, {{"buffer": "u64", "data": [{}]}}]}}"#,
        list(out),
        list(inp)
    );
    let (o, json) = common::run_spec(module(), &spec, &[]);
    assert_eq!(o.status.code(), Some(0), "{kernel}: {}", String::from_utf8_lossy(&o.stderr));
    words(&json, 0)
}

/// Bits of a width from a 64-byte image, and back.
fn split(words: &[u64], bytes: usize) -> Vec<u64> {
    let raw: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    raw.chunks(bytes).map(|c| c.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b))).collect()
}

fn join(elems: &[u64], bytes: usize) -> Vec<u64> {
    let raw: Vec<u8> = elems.iter().flat_map(|e| e.to_le_bytes()[..bytes].to_vec()).collect();
    raw.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
}

fn flush32(x: f32) -> f32 {
    if x.is_subnormal() { 0.0f32.copysign(x) } else { x }
}

/// `min`/`max` of halves given as f32 (exactly): a NaN gives the other; two NaNs the
/// canonical NaN; -0 below +0.
fn half_min_max(a: u64, b: u64, max: bool, to_f32: impl Fn(u64) -> f32) -> u64 {
    let (x, y) = (to_f32(a), to_f32(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => 0x7fff,
        (true, false) => b,
        (false, true) => a,
        _ if x == y => {
            // Equal: the zeros differ in sign (-0 is the min); otherwise the same bits.
            let a_neg = a & 0x8000 != 0;
            if a_neg != max { a } else { b }
        }
        _ if (x < y) != max => a,
        _ => b,
    }
}

/// The reduction of `old` with `b` that the ISA defines for `op` on `ty`.
fn expect(op: &str, ty: &str, old: u64, b: u64) -> u64 {
    let bits = match ty {
        "f16" | "bf16" => 16,
        "u32" | "s32" | "b32" | "f32" => 32,
        _ => 64,
    };
    let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
    let (old, b) = (old & mask, b & mask);
    let sx = |v: u64| if bits == 32 { i64::from(v as u32 as i32) } else { v as i64 };
    let f16v = |v: u64| f16::from_bits(v as u16).to_f32();
    let bf16v = |v: u64| bf16::from_bits(v as u16).to_f32();
    let r = match (op, ty) {
        ("add.noftz", "f16") => u64::from(f16::from_f32(f16v(old) + f16v(b)).to_bits()),
        ("add.noftz", "bf16") => u64::from(bf16::from_f32(bf16v(old) + bf16v(b)).to_bits()),
        ("add", "f32") => {
            let x = flush32(f32::from_bits(old as u32)) + flush32(f32::from_bits(b as u32));
            u64::from(flush32(x).to_bits())
        }
        ("add", "f64") => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
        ("add", _) => old.wrapping_add(b),
        ("min" | "max", "f16") => half_min_max(old, b, op == "max", f16v),
        ("min" | "max", "bf16") => half_min_max(old, b, op == "max", bf16v),
        ("min", "s32" | "s64") => sx(old).min(sx(b)) as u64,
        ("max", "s32" | "s64") => sx(old).max(sx(b)) as u64,
        ("min", _) => old.min(b),
        ("max", _) => old.max(b),
        ("inc", _) => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        ("dec", _) => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        ("and", _) => old & b,
        ("or", _) => old | b,
        ("xor", _) => old ^ b,
        _ => unreachable!("{op}.{ty}"),
    };
    r & mask
}

/// Values of `ty` that tell the reductions apart: zeros of both signs, extremes,
/// subnormals and NaNs of the halves, infinities, and pseudo-random bits.
fn values(ty: &str, seed: u64, n: usize) -> Vec<u64> {
    let special: &[u64] = match ty {
        "f16" | "bf16" => {
            &[0x0000, 0x8000, 0x0001, 0x8001, 0x7c00, 0xfc00, 0x7e00, 0x3c00, 0xbc00, 0x7bff, 0x0400]
        }
        "f32" => {
            &[0, 0x8000_0000, 0x0000_0001, 0x8000_0003, 0x7f80_0000, 0x3f80_0000, 0x007f_ffff, 0xbf80_0000]
        }
        "f64" => &[
            0,
            0x8000_0000_0000_0000,
            1,
            0x7ff0_0000_0000_0000,
            0x3ff0_0000_0000_0000,
            0xbff8_0000_0000_0000,
        ],
        "u32" | "s32" | "b32" => &[0, 1, 2, 5, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 3],
        _ => &[0, 1, 5, 0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000, u64::MAX, 3, 0xffff_ffff],
    };
    let mut x = seed;
    (0..n)
        .map(|k| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let random = x >> 11;
            // Mostly special values, so that pairs of them meet; small numbers for inc and dec.
            let v = match k % 4 {
                0 | 1 => special[(random as usize) % special.len()],
                2 => random % 8,
                _ => random,
            };
            // Adds of floats stay clear of NaNs, whose payloads the ISA leaves open.
            match ty {
                "f32" if f32::from_bits(v as u32).is_nan() => 0x4000_0000,
                "f64" if f64::from_bits(v).is_nan() => 0x4000_0000_0000_0000,
                _ => v,
            }
        })
        .collect()
}

fn check(prefix: &str, op: &str, ty: &str, grid: u32) {
    let bytes = match ty {
        "f16" | "bf16" => 2,
        "u32" | "s32" | "b32" | "f32" => 4,
        _ => 8,
    };
    let n = 64 / bytes;
    let seed = ty.len() as u64 * 31 + op.len() as u64;
    // The halves' adds stay clear of NaNs too.
    let no_nan = |v: u64| {
        let nan =
            op == "add.noftz" && (ty == "f16" && v & 0x7fff > 0x7c00 || ty == "bf16" && v & 0x7fff > 0x7f80);
        if nan { 0x3c00 } else { v }
    };
    let olds: Vec<u64> = values(ty, seed, n).into_iter().map(no_nan).collect();
    let bs: Vec<u64> = values(ty, seed ^ 0xabcdef, n).into_iter().map(no_nan).collect();
    let got =
        split(&reduce(&kernel_name(prefix, op, ty), grid, &join(&olds, bytes), &join(&bs, bytes)), bytes);
    for k in 0..n {
        let want = expect(op, ty, olds[k], bs[k]);
        assert_eq!(got[k], want, "{prefix} {op}.{ty} element {k}: {:#x} with {:#x}", olds[k], bs[k]);
    }
}

#[test]
fn every_reduction_into_global_memory_is_red_s() {
    for (op, ty) in GLOBAL {
        check("g", op, ty, 1);
    }
}

#[test]
fn every_reduction_into_another_cta_s_shared_memory_completes_on_its_mbarrier() {
    for (op, ty) in SHARED {
        check("s", op, ty, 2);
    }
}

/// The pairs ptxas refuses are refused before the launch, with why (`ptxvm check`,
/// which still takes the bulk copies' open row, is issue 22's).
#[test]
fn a_pair_the_isa_does_not_define_is_refused_with_why() {
    for (ins, why) in [
        ("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16", ".add on .f16 needs .noftz"),
        ("cp.reduce.async.bulk.global.shared::cta.bulk_group.min.noftz.f16", ".noftz is only for .add"),
        (
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.s32",
            ".inc into global memory takes .u32, not .s32",
        ),
        ("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s64", "not .s64"),
    ] {
        let ptx = format!(
            "{HEAD}.visible .entry k(.param .u64 out)\n{{\n    .reg .b64 %rd<2>;\n    .shared .align 16 .b8 \
             buf[64];\n    ld.param.u64 %rd1, [out];\n    {ins} [%rd1], [buf], 64;\n    ret;\n}}\n"
        );
        let dir = std::env::temp_dir().join(format!("ptxvm-bulk-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.ptx", ins.replace([':', '.'], "_")));
        std::fs::write(&path, ptx).unwrap();
        let spec = r#"{"kernel": "k", "grid": 1, "block": 1, "args": [{"buffer": "u64", "len": 8}]}"#;
        let (out, _) = common::run_spec(path.to_str().unwrap(), spec, &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{ins}: {err}");
        assert!(err.contains(ins) && err.contains(why), "{ins}: {err}");
    }
}

const MULTICAST: &str = "tests/data/run/bulk_multicast.ptx";

/// Four CTAs in a cluster; rank 0 copies 64 bytes of `in` into the shared `dst` of
/// ranks 0, 2 and 3 (mask 0b1101), each completing on its own mbarrier, then each rank
/// writes its `dst` to `out[8 rank..]`. Rank 1 is not in the mask: its part of `out`
/// stays zero.
#[test]
fn a_multicast_bulk_copy_lands_in_each_cta_of_its_mask() {
    let input: Vec<u64> = (0..8).map(|k| 0x1111_1111_1111_1111 * (k + 1)).collect();
    let spec = format!(
        r#"{{"kernel": "multicast", "grid": 4, "block": 1, "args": [{{"buffer": "u64", "len": 32}}, {{"buffer": "u64", "data": [{}]}}]}}"#,
        list(&input)
    );
    let (out, json) = common::run_spec(MULTICAST, &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let got = words(&json, 0);
    for rank in 0..4 {
        let want = if rank == 1 { vec![0; 8] } else { input.clone() };
        assert_eq!(got[8 * rank..8 * rank + 8], want, "rank {rank}");
    }
}

/// Outside clusters a CTA is a cluster of one: mask 1 is the CTA itself.
#[test]
fn a_multicast_outside_clusters_lands_in_the_cta_itself() {
    let input: Vec<u64> = (0..8).map(|k| 0x0101_0101_0101_0101 * (k + 3)).collect();
    let spec = format!(
        r#"{{"kernel": "multicast_alone", "grid": 1, "block": 1, "args": [{{"buffer": "u64", "len": 8}}, {{"buffer": "u64", "data": [{}]}}]}}"#,
        list(&input)
    );
    let (out, json) = common::run_spec(MULTICAST, &spec, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(words(&json, 0), input);
}

/// A mask naming a rank past the cluster's four is undefined behaviour, reported.
#[test]
fn a_multicast_mask_outside_the_cluster_faults() {
    let spec = r#"{"kernel": "multicast_outside", "grid": 4, "block": 1, "args": [{"buffer": "u64", "len": 32}, {"buffer": "u64", "len": 8}]}"#;
    let (out, _) = common::run_spec(MULTICAST, spec, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the CTA mask 0x0011 names CTAs outside the cluster of 4"), "{err}");
}
