//! The sm_90 runtime instructions nvcc emits from ordinary CUDA C++ (cooperative
//! groups' `invoke_one`, `__isGlobal` and friends, `alloca`, cluster APIs,
//! programmatic dependent launch), through `ptxvm run` on hand-written PTX in
//! `tests/data/run/sm90_runtime.ptx`. Expected values follow from the PTX ISA's rules
//! as each test states them, and from ptxvm's documented launch model (no cooperative
//! launch), never from ptxvm's output.

mod common;

use serde_json::Value;
use std::process::Output;

const PTX: &str = "tests/data/run/sm90_runtime.ptx";

fn run(kernel: &str, grid: u32, block: u32, args: &str) -> (Output, Value) {
    let spec = format!(r#"{{"kernel": "{kernel}", "grid": {grid}, "block": {block}, "args": [{args}]}}"#);
    common::run_spec(PTX, &spec, &[])
}

fn words(json: &Value) -> Vec<u64> {
    json["buffers"][0]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
}

fn ok(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// PTX ISA 9.7.13.12: `elect.sync d|p, membermask` elects the lowest lane of the
/// members executing it; `d` is the leader's lane number in every member, `p` true
/// only in the leader. A block of 40 threads: warp 1 has lanes 0..7 only.
#[test]
fn elect_picks_the_lowest_member_lane() {
    let (out, json) = run("elect", 1, 40, r#"{"buffer": "u32", "len": 120}"#);
    ok(&out);
    let got = words(&json);
    for t in 0..40u64 {
        let lane = t % 32;
        let (first, pred) = if lane < 4 { (99, 99) } else { (4, u64::from(lane == 4)) };
        let want = [first, pred, 0];
        assert_eq!(got[3 * t as usize..3 * t as usize + 3], want, "thread {t}");
    }
}

/// PTX ISA 9.7.9.22: `isspacep.space p, a` is true when generic address `a` lies in
/// `space`'s window: a buffer and a `.global` variable are global, a shared, a local
/// and a `.const` variable's generic addresses are in their own windows only, and a
/// buffer is no kernel parameter.
#[test]
fn isspacep_tells_each_window_apart() {
    let (out, json) = run("spaces", 1, 1, r#"{"buffer": "u32", "len": 6}"#);
    ok(&out);
    // Bits: 1 global, 2 shared, 4 local, 8 const.
    assert_eq!(words(&json), [1, 2, 4, 8, 1, 0]);
}

/// PTX ISA 9.7.9.16: `alloca` gives the thread `size` bytes of its local stack,
/// aligned as asked, alive until the function returns: a callee's allocation is gone
/// after it returns, and the caller's later one does not overlap its earlier one.
#[test]
fn alloca_allocates_per_thread_stack_that_a_call_does_not_clobber() {
    let (out, json) = run("stack", 1, 4, r#"{"buffer": "u32", "len": 8}, {"type": "u64", "value": 0}"#);
    ok(&out);
    let mut want = Vec::new();
    for t in 0..4u64 {
        let a: u64 = (0..=t).map(|i| 100 * t + i).sum();
        let fill: u64 = (0..=t).map(|i| 1000 + i).sum();
        want.extend([a + fill + 5 * 6, 1]);
    }
    assert_eq!(words(&json), want);
}

#[test]
fn alloca_past_the_local_memory_limit_faults() {
    let (out, _) = run("stack", 1, 4, r#"{"buffer": "u32", "len": 8}, {"type": "u64", "value": 100000000}"#);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("alloca: the thread's local memory would reach"), "{err}");
}

/// A cluster of one CTA (PTX ISA 9.7.13.3, 9.7.9.23, 9.7.9.24, 10.11-10.19): the
/// cluster barrier orders the shared writes of both warps, `mapa` to rank 0 is the
/// CTA's own shared memory, the CTA's rank is 0 of 1, the cluster id is the CTA id,
/// `%is_explicit_cluster` holds for a kernel declaring `.reqnctapercluster`, and
/// `%envreg1` (the cooperative-launch workspace) is 0. `griddepcontrol` lets the
/// single grid go on.
#[test]
fn a_cluster_is_one_cta() {
    let (out, json) = run("cluster", 2, 64, r#"{"buffer": "u32", "len": 82}"#);
    ok(&out);
    let got = words(&json);
    let shared: Vec<u64> = (0..64).map(|t| 3 * (63 - t)).collect();
    assert_eq!(got[..64], shared);
    for cta in 0..2u64 {
        let row = &got[64 + 9 * cta as usize..73 + 9 * cta as usize];
        assert_eq!(row, [0, 0, 1, 0, 1, cta, 2, 1, 0], "CTA {cta}");
    }
}

/// A kernel that requires clusters of two CTAs runs in them: `%cluster_nctarank` is 2
/// (tests/run_cluster.rs has the clusters themselves).
#[test]
fn a_kernel_requiring_clusters_of_two_runs_in_them() {
    let (out, json) = run("pair", 2, 32, r#"{"buffer": "u32", "len": 1}"#);
    ok(&out);
    assert_eq!(words(&json), [2]);
}

/// PTX ISA 9.7.13.5/9.7.13.6: `atom`/`red` `.add.v4.f32` and `.v2.f32` (nvcc's
/// `atomicAdd(float4 *, float4)`) add each element atomically; the old first
/// elements the 64 threads see are 0, 1, ..., 63 in some order. `pmevent` changes
/// nothing.
#[test]
fn vector_f32_atomics_add_every_element() {
    let (out, json) = run("vatom", 1, 64, r#"{"buffer": "f32", "len": 6}, {"buffer": "f32", "len": 64}"#);
    ok(&out);
    let f = |k: usize| -> Vec<f64> {
        json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
    };
    assert_eq!(f(0), [64.0, 128.0, 192.0, 256.0, 32.0, 16.0]);
    let mut olds = f(1);
    olds.sort_by(f64::total_cmp);
    assert_eq!(olds, (0..64).map(f64::from).collect::<Vec<_>>());
}

/// CUDA's device heap (CUDA C++ Programming Guide, "Dynamic Global Memory
/// Allocation"): `malloc` blocks are 16-byte aligned and do not overlap, each thread
/// reads back what it wrote after a barrier; `__nv_aligned_device_malloc` blocks are
/// aligned as asked; a request past the heap (8 MiB by default) gives null and
/// `free` is accepted. Run with a small request too, which must succeed.
#[test]
fn device_malloc_gives_disjoint_aligned_blocks_and_null_past_the_heap() {
    for (big, fits) in [(9_000_000u64, false), (64, true)] {
        let args = format!(
            r#"{{"buffer": "u64", "len": 120}}, {{"buffer": "u32", "len": 40}}, {{"type": "u64", "value": {big}}}"#
        );
        let (out, json) = run("heap", 1, 40, &args);
        ok(&out);
        let ptrs = words(&json);
        let sums: Vec<u64> =
            json["buffers"][1]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        let mut blocks = Vec::new();
        for t in 0..40 {
            let (p, q, r) = (ptrs[3 * t], ptrs[3 * t + 1], ptrs[3 * t + 2]);
            assert!(p != 0 && p % 16 == 0, "thread {t}: malloc gave {p:#x}");
            assert!(q != 0 && q % 256 == 0, "thread {t}: aligned malloc gave {q:#x}");
            assert_eq!(r != 0, fits, "thread {t}: malloc({big}) gave {r:#x}");
            blocks.extend([(p, 24), (q, 8)]);
            if fits {
                blocks.push((r, big));
            }
            assert_eq!(sums[t], 6 * t as u64 + 15, "thread {t}");
        }
        blocks.sort_unstable();
        for w in blocks.windows(2) {
            assert!(w[0].0 + w[0].1 <= w[1].0, "blocks {:#x?} and {:#x?} overlap", w[0], w[1]);
        }
    }
}

/// PTX ISA 9.7.9.23: `mapa` maps an address to the same variable in the CTA of
/// rank `b` of the cluster; rank 0 is the CTA itself (a load through the mapped
/// address reads what the CTA stored), and in a cluster of one CTA any other rank is
/// outside the cluster, a fault.
#[test]
fn mapa_to_rank_zero_is_the_cta_itself_and_other_ranks_fault() {
    let (out, json) = run("maprank", 1, 1, r#"{"buffer": "u64", "len": 1}, {"type": "u32", "value": 0}"#);
    ok(&out);
    assert_eq!(words(&json), [42]);
    let (out, _) = run("maprank", 1, 1, r#"{"buffer": "u64", "len": 1}, {"type": "u32", "value": 1}"#);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("mapa: CTA rank 1 is outside the cluster"), "{err}");
}

/// `free` gives a block back (CUDA C++ Programming Guide, "Dynamic Global Memory
/// Allocation": memory freed may be reused by later `malloc`s): 20,000 takes of 1 KiB,
/// each freed, never run out of the 8 MiB heap, and first fit hands out the same block
/// each time. Freeing a block twice is undefined behaviour, a fault. (Before, `free`
/// gave nothing back and about 12,000 of these calls got null.)
#[test]
fn freed_heap_blocks_are_reused_and_a_double_free_faults() {
    let (out, json) = run("heaploop", 1, 1, r#"{"buffer": "u32", "len": 2}, {"type": "u32", "value": 0}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(words(&json), [0, 1]);
    let (out, _) = run("heaploop", 1, 1, r#"{"buffer": "u32", "len": 2}, {"type": "u32", "value": 1}"#);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a block malloc returned, or one already freed"), "{err}");
}

/// alloca's block is aligned to at least 8 bytes whatever immAlign asks (PTX ISA
/// 9.7.19.3: max(immAlign, 8)); a vector atomic outside global memory is undefined
/// behaviour (PTX ISA 9.7.13.5), a fault.
#[test]
fn alloca_aligns_to_eight_and_vector_atomics_stay_in_global_memory() {
    let (out, json) = run("allocalign", 1, 1, r#"{"buffer": "u64", "len": 1}"#);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(words(&json), [0]);
    let (out, _) = run("vatomshared", 1, 1, "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("vector atomics work on global memory only"), "{err}");
}
