//! Thread-block clusters through `ptxvm run` (PTX ISA 2.2.1, 9.7.9.23, 9.7.13.3), on
//! hand-written PTX in `tests/data/run/cluster.ptx`, whose kernels declare their
//! cluster shape (`.reqnctapercluster`). Expected values follow from the ISA: the
//! cluster special registers from the grid's tiling into clusters, distributed
//! shared memory through `mapa`, and the cluster barrier counting every thread of
//! the cluster. Never from ptxvm's output.

mod common;

use serde_json::Value;
use std::process::Output;

const PTX: &str = "tests/data/run/cluster.ptx";

fn run(kernel: &str, grid: u32, args: &str) -> (Output, Value) {
    let spec = format!(r#"{{"kernel": "{kernel}", "grid": {grid}, "block": 64, "args": [{args}]}}"#);
    common::run_spec(PTX, &spec, &[])
}

fn words(json: &Value, k: usize) -> Vec<u64> {
    json["buffers"][k]["data"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
}

/// Runs a kernel that must fault; its diagnostic.
fn fault(kernel: &str, grid: u32) -> String {
    let (out, _) = run(kernel, grid, "");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{kernel}: {err}");
    err
}

/// Eight CTAs in clusters of four: CTA c is rank c % 4 of cluster c / 4. Each thread
/// reads element tid of the next rank's shared array (1000 rank + tid), and every
/// thread of the cluster adds 1 to rank 0's counter before the second barrier.
#[test]
fn ctas_of_a_cluster_read_each_others_shared_memory() {
    let (out, json) =
        run("cluster_exchange", 8, r#"{"buffer": "u32", "len": 64}, {"buffer": "u32", "len": 512}"#);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (regs, next) = (words(&json, 0), words(&json, 1));
    for c in 0..8u64 {
        let rank = c % 4;
        // ctarank, nctarank, clusterid.x, cluster_ctaid.x, nclusterid.x, counter,
        // getctarank of the next rank's address.
        let want = [rank, 4, c / 4, rank, 2, 4 * 64, (rank + 1) % 4, 0];
        assert_eq!(regs[8 * c as usize..8 * c as usize + 8], want, "CTA {c}");
        for t in 0..64u64 {
            assert_eq!(next[(64 * c + t) as usize], 1000 * ((rank + 1) % 4) + t, "CTA {c} thread {t}");
        }
    }
}

#[test]
fn a_grid_must_tile_into_whole_clusters() {
    let (out, _) =
        run("cluster_exchange", 6, r#"{"buffer": "u32", "len": 64}, {"buffer": "u32", "len": 512}"#);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the grid (6, 1, 1) is not a whole number of clusters of (4, 1, 1)"), "{err}");
}

/// Rank 1's second warp waits at `bar.sync` for its first warp, which waits at the
/// cluster barrier for the second: a deadlock of the cluster, reported at the CTA
/// that waits for something of its own, with what each of its groups waits for.
#[test]
fn a_cluster_barrier_that_cannot_complete_is_a_deadlock() {
    let err = fault("cluster_deadlock", 2);
    // Rank 1 waits for something of its own (its CTA barrier): the fault is its.
    assert!(
        err.contains("ctaid=(1,0,0)") && err.contains("deadlock in a cluster: none of its CTAs"),
        "{err}"
    );
    assert!(err.contains("In rank 1: deadlock: no thread of the CTA can go on"), "{err}");
    assert!(err.contains("note: `bar.sync 0;`: lanes 0xffffffff of warp 1 wait at barrier 0"), "{err}");
    assert!(err.contains("note: `barrier.cluster.wait;`: CTA (0,0,0) (rank 0) waits here"), "{err}");
}

/// PTX ISA 9.7.13.3: a thread waits for the phase it arrived in; waiting without
/// arriving, arriving twice, and `mapa` to a rank outside the cluster are undefined.
#[test]
fn undefined_uses_of_the_cluster_are_faults() {
    assert!(fault("cluster_wait_first", 2).contains("lane 0 waits without having arrived"));
    assert!(fault("cluster_arrive_twice", 2).contains("lane 0 arrives again before it waited"));
    assert!(fault("cluster_far_rank", 2).contains("mapa: CTA rank 2 is outside the cluster of 2 CTAs"));
}

/// The launch spec's `"cluster"` tiles a kernel without a cluster shape of its own:
/// CTAs 0..4 in clusters of 2 are ranks 0, 1, 0, 1 of 2; without it, each is rank 0
/// of 1; a cluster that does not tile the grid is a bad spec (exit 1).
#[test]
fn the_launch_spec_gives_the_cluster_shape() {
    let spec = |cluster: &str| {
        format!(
            r#"{{"kernel": "cluster_ranks", "grid": 4, "block": 32{cluster}, "args": [{{"buffer": "u32", "len": 8}}]}}"#
        )
    };
    let (out, json) = common::run_spec(PTX, &spec(r#", "cluster": [2, 1, 1]"#), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(words(&json, 0), [0, 2, 1, 2, 0, 2, 1, 2]);
    let (out, json) = common::run_spec(PTX, &spec(""), &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(words(&json, 0), [0, 1, 0, 1, 0, 1, 0, 1]);
    let (out, _) = common::run_spec(PTX, &spec(r#", "cluster": 3"#), &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the grid (4, 1, 1) is not a whole number of clusters of (3, 1, 1)"), "{err}");
}

/// Threads that arrived and exited without waiting count as exited in later phases,
/// not as arrived: the second phase completes with the threads that remain.
#[test]
fn threads_that_arrive_then_exit_stop_counting_in_later_phases() {
    let (out, json) = run("cluster_exit_after_arrive", 2, r#"{"buffer": "u32", "len": 2}"#);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(words(&json, 0), [7, 7]);
}

/// `.shared::cluster` addresses carry the rank above bit 24 (`exec/cluster.rs`); in a
/// kernel not in clusters such an offset is past its shared memory, and faults.
#[test]
fn a_shared_offset_past_the_cta_is_no_alias_of_its_own() {
    let err = fault("cluster_far_offset", 1);
    assert!(err.contains("is outside the cluster of 1 CTA"), "{err}");
}

/// `cluster_ring`: 12 clusters of 2 CTAs, each waiting on the next one's flag.
fn cluster_ring(start: u32, threads: &str) -> (Output, Value, String) {
    let spec = format!(
        r#"{{"kernel": "cluster_ring", "grid": 24, "block": 64, "args": [{{"buffer": "u32", "len": 12}},
            {{"type": "u32", "value": 12}}, {{"type": "u32", "value": {start}}}]}}"#
    );
    let (out, json) = common::run_spec_env(PTX, &spec, &[], &[("RAYON_NUM_THREADS", threads)]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, json, err)
}

/// Clusters take turns as CTAs do: a cluster waiting on memory a later cluster writes
/// steps aside for it, on one host thread or two, so the chain started by the last
/// cluster completes; with no start it is a deadlock across clusters, found as one.
#[test]
fn clusters_that_wait_on_later_clusters_take_turns() {
    for threads in ["1", "2"] {
        let (out, json, err) = cluster_ring(11, threads);
        assert_eq!(out.status.code(), Some(0), "{threads} threads: {err}");
        assert_eq!(words(&json, 0), vec![1; 12], "{threads} threads");
        let (out, _, err) = cluster_ring(12, threads);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("deadlock across CTAs: each of the 12 CTAs still running waits"), "{err}");
        // Rank 1 of cluster 0 is CTA 1; its thread 0 loops.
        assert!(err.contains("ctaid=(1,0,0) tid=(0,0,0)"), "{err}");
        assert!(err.contains("CTA (1,0,0) loops here: lanes 0x00000001 of warp 0"), "{err}");
    }
}
