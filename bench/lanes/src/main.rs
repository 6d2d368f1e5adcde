//! The lanes benchmark (issue 7): lane-instructions per second of ptxvm on five
//! kernels, on one core and on all cores, against ptoxide 0.1 from crates.io run in
//! the same process on the kernels it can run.
//!
//! A lane-instruction is one dynamic PTX instruction executed by one active lane:
//! every instruction a warp issues counts once for each lane active in it, whether
//! or not its guard predicate is true (an `@%p bra` that falls through counts, as in
//! NVIDIA's `thread_inst_executed`). The count is therefore the sum over all threads
//! of the length of each thread's own path through the kernel, which does not depend
//! on how an implementation schedules or reconverges the lanes of a warp, and it is
//! computed here analytically from the committed PTX (the path formulas are next to
//! each kernel below). `lanes --crosscheck` confirms the formulas against ptxvm's
//! step budget (`max_steps`, which counts warp instructions): on one-thread launches
//! warp instructions and lane instructions are the same number, so a binary search
//! for the smallest budget that lets the launch finish gives each path exactly.
//!
//! Each measured run covers the whole launch through the library API: load (parse,
//! check, decode) the module, allocate and fill the buffers, launch, copy every
//! buffer back. Building the host inputs and checking the outputs are not timed; every
//! timed run's output is compared with a Rust reference before it counts. The median
//! of several runs is reported. ptxvm runs inside a rayon pool of one thread and of
//! `available_parallelism` threads (ptxvm spreads CTAs over the current rayon pool).
//!
//! Besides the table, gemm N=256 is timed as whole processes from the same launch spec
//! (`ptxvm run bench/kernels/gemm.ptx --launch bench/kernels/gemm256.json` against this
//! binary running ptoxide from that spec), and a 2^24-thread launch's peak RSS is
//! compared with a 2^16-thread one.
//!
//! Modes: no argument runs the benchmark (`PTXVM_BENCH_QUICK=1`: tiny sizes, one run;
//! `PTXVM_BENCH_ONLY=saxpy,gemm`: only those kernels);
//! `--crosscheck` checks the instruction counts; `--write-gemm-spec PATH [N]` writes
//! the gemm launch spec; `--ptoxide-run PTX SPEC` and `--mem-probe LOG2` are the child
//! processes of the whole-process and memory measurements.

use ptxvm::api::{DEFAULT_MAX_STEPS, Device, Module};
use ptxvm::exec::limits::Limits;
use ptxvm::launch::Dim3;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const ALU_PTX: &str = include_str!("../../kernels/alu_loop.ptx");
const GEMM_PTX: &str = include_str!("../../kernels/gemm.ptx");
const REDUCE_PTX: &str = include_str!("../../kernels/reduce.ptx");
const COLLATZ_PTX: &str = include_str!("../../../examples/collatz.ptx");
const SAXPY_PTX: &str = include_str!("../../../examples/saxpy.ptx");
const COUNT_PTX: &str = include_str!("../../kernels/count.ptx");
const MMA_PTX: &str = include_str!("../../kernels/mma_gemm.ptx");
const WGMMA_PTX: &str = include_str!("../../kernels/wgmma_gemm.ptx");

const GEMM_ENTRY: &str = "_Z4gemmPfS_S_mmm";
const COLLATZ_ENTRY: &str = "_Z7collatzPKyPiii";

type Res<T> = Result<T, String>;

/// What one run gives: its time, every buffer afterwards, and the lane-instructions
/// the machine counted itself (ptxvm's [`Limits::lane_instructions`]; none for ptoxide).
type Ran = (Duration, Vec<Vec<u8>>, Option<u64>);

/// One kernel argument.
enum Arg {
    /// A global buffer with its initial bytes, and the bytes it must hold after the
    /// launch (`None`: not checked, e.g. an input).
    Buf { init: Vec<u8>, expect: Option<Vec<u8>>, elem: usize },
    /// A scalar parameter of `size` bytes (its little-endian low bytes).
    Scalar { bits: u64, size: usize },
}

/// One launch of one kernel, with its inputs, expected outputs and instruction count.
struct Case {
    name: &'static str,
    /// How big, in words.
    size: String,
    /// The lane-instruction count as a formula, in words.
    formula: String,
    ptx: &'static str,
    entry: &'static str,
    grid: [u32; 3],
    block: [u32; 3],
    args: Vec<Arg>,
    /// Dynamic lane-instructions of the launch (see the module comment).
    lanes: u64,
    /// Of those, the ones whose guard predicate holds: what ptxvm's own counter
    /// ([`Limits::lane_instructions`]) counts.
    guard_true: u64,
}

fn dim(d: [u32; 3]) -> Dim3 {
    Dim3 { x: d[0], y: d[1], z: d[2] }
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn u64_bytes(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Every thread of a launch as (ctaid, tid), x fastest.
fn threads(grid: [u32; 3], block: [u32; 3]) -> impl Iterator<Item = ([u32; 3], [u32; 3])> {
    let dims = |d: [u32; 3]| {
        (0..d[2]).flat_map(move |z| (0..d[1]).flat_map(move |y| (0..d[0]).map(move |x| [x, y, z])))
    };
    dims(grid).flat_map(move |c| dims(block).map(move |t| (c, t)))
}

// ---------------------------------------------------------------- 1. ALU loop

/// bench/kernels/alu_loop.ptx: per thread 13 instructions before the loop, 7 per
/// iteration (fma, add, xor, shl, add, setp, bra; the loop is a do-while, so
/// `iters` >= 1), 6 after it (mul.wide, add, xor, 2 st, ret):
/// lanes = threads x (19 + 7 x iters).
fn alu_path(iters: u32) -> u64 {
    19 + 7 * u64::from(iters.max(1))
}

/// Guarded instructions whose guard is false on a thread's path: the loop's last
/// `@%p1 bra`.
const ALU_OFF: u64 = 1;

fn alu_case(grid: u32, block: u32, iters: u32) -> Case {
    let n = grid * block;
    let c = f32::from_bits(0x3F7F_BE77); // 0.999
    let mut out = Vec::with_capacity(2 * n as usize);
    for gid in 0..n {
        let (mut f, mut a, mut b) = (gid as f32, gid, 0x1234_5678u32);
        for _ in 0..iters.max(1) {
            f = f.mul_add(c, 1.0);
            a = a.wrapping_add(0x9E37_79B9);
            b ^= a;
            b <<= 1;
        }
        out.push(f.to_bits());
        out.push(b ^ a);
    }
    Case {
        name: "alu_loop",
        size: format!("{n} thr x {iters} it"),
        formula: format!("{n} threads x (19 + 7 x {iters})"),
        ptx: ALU_PTX,
        entry: "alu_loop",
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        args: vec![
            Arg::Buf { init: vec![0; 8 * n as usize], expect: Some(u32_bytes(&out)), elem: 4 },
            Arg::Scalar { bits: u64::from(iters), size: 4 },
        ],
        lanes: u64::from(n) * alu_path(iters),
        guard_true: u64::from(n) * (alu_path(iters) - ALU_OFF),
    }
}

// ---------------------------------------------------------------- 2. gemm

/// ptoxide's kernels/gemm.ptx (nvcc 12.3), one thread per element of C = A(m x k) B(k x n):
/// 22 instructions to the bounds test; a thread out of range then runs `ret` (23).
/// In range: 3 (k == 0 test), 7 (set-up, k < 4 test); when k >= 4, 9 before the loop
/// unrolled by 4 and 21 per trip, k / 4 trips; 2 (remainder test); when r = k % 4 > 0,
/// 9 before the remainder loop and 8 per trip, r trips; then 6 (address, store) and
/// `ret`. With k == 0: 22 + 3 + 6 + 1. So for k = 256: 1394 per thread.
fn gemm_path(k: u64, in_range: bool) -> u64 {
    if !in_range {
        return 23;
    }
    if k == 0 {
        return 22 + 3 + 6 + 1;
    }
    let main = if k >= 4 { 9 + 21 * (k / 4) } else { 0 };
    let r = k % 4;
    let rem = if r > 0 { 9 + 8 * r } else { 0 };
    22 + 3 + 7 + main + 2 + rem + 6 + 1
}

/// Guard-false instructions on a gemm thread's path: `@%p3` (bounds) in range; `@%p4`
/// when k > 0; `@%p5` and the unrolled loop's last `bra` when k >= 4; `@%p7` and the
/// remainder loop's last `bra` when k % 4 > 0.
fn gemm_off(k: u64, in_range: bool) -> u64 {
    if !in_range {
        return 0;
    }
    if k == 0 {
        return 1;
    }
    2 + if k >= 4 { 2 } else { 0 } + if k.is_multiple_of(4) { 0 } else { 2 }
}

/// The gemm inputs: small integers, so every sum of products is exact in f32 in any
/// order and with or without fused multiply-adds.
fn gemm_inputs(m: usize, k: usize, n: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..m * k).map(|e| ((e / k * 7 + e % k * 3) % 11) as f32 - 5.0).collect();
    let b = (0..k * n).map(|e| ((e / n * 5 + e % n * 2) % 9) as f32 - 4.0).collect();
    (a, b)
}

fn gemm_reference(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for l in 0..k {
            let x = a[i * k + l];
            for j in 0..n {
                c[i * n + j] += x * b[l * n + j];
            }
        }
    }
    c
}

/// The grid and block of the gemm launch: 16 x 16 threads per CTA, x along the rows
/// of C (the kernel's i), y along its columns (j).
fn gemm_shape(m: u32, n: u32) -> ([u32; 3], [u32; 3]) {
    ([m.div_ceil(16).max(1), n.div_ceil(16).max(1), 1], [16, 16, 1])
}

fn gemm_case(m: u32, k: u32, n: u32, grid: [u32; 3], block: [u32; 3]) -> Case {
    let (mu, ku, nu) = (m as usize, k as usize, n as usize);
    let (a, b) = gemm_inputs(mu, ku, nu);
    let c = gemm_reference(&a, &b, mu, ku, nu);
    let (lanes, off) = threads(grid, block)
        .map(|(c, t)| {
            let i = c[0] * block[0] + t[0];
            let j = c[1] * block[1] + t[1];
            let in_range = i < m && j < n;
            (gemm_path(u64::from(k), in_range), gemm_off(u64::from(k), in_range))
        })
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    Case {
        name: "gemm",
        size: format!("N={n}"),
        formula: format!("{m} x {n} threads x {} (k = {k})", gemm_path(u64::from(k), true)),
        ptx: GEMM_PTX,
        entry: GEMM_ENTRY,
        grid,
        block,
        args: vec![
            Arg::Buf { init: f32_bytes(&a), expect: None, elem: 4 },
            Arg::Buf { init: f32_bytes(&b), expect: None, elem: 4 },
            Arg::Buf { init: vec![0; 4 * mu * nu], expect: Some(f32_bytes(&c)), elem: 4 },
            Arg::Scalar { bits: u64::from(m), size: 8 },
            Arg::Scalar { bits: u64::from(k), size: 8 },
            Arg::Scalar { bits: u64::from(n), size: 8 },
        ],
        lanes,
        guard_true: lanes - off,
    }
}

/// The launch spec of a gemm with m = k = n, for `ptxvm run` and `--ptoxide-run`.
fn gemm_spec(n: u32) -> String {
    let nu = n as usize;
    let (a, b) = gemm_inputs(nu, nu, nu);
    let (grid, block) = gemm_shape(n, n);
    let list = |v: &[f32]| v.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(",");
    let mut s = String::new();
    s += &format!(
        "{{\"kernel\": \"{GEMM_ENTRY}\", \"grid\": [{}, {}], \"block\": [{}, {}],\n",
        grid[0], grid[1], block[0], block[1]
    );
    s += " \"args\": [\n";
    s += &format!("  {{\"buffer\": \"f32\", \"data\": [{}]}},\n", list(&a));
    s += &format!("  {{\"buffer\": \"f32\", \"data\": [{}]}},\n", list(&b));
    s += &format!("  {{\"buffer\": \"f32\", \"len\": {}}},\n", nu * nu);
    s += &format!("  {{\"type\": \"u64\", \"value\": {n}}},\n");
    s += &format!("  {{\"type\": \"u64\", \"value\": {n}}},\n");
    s += &format!("  {{\"type\": \"u64\", \"value\": {n}}}\n");
    s += "]}\n";
    s
}

// ---------------------------------------------------------------- 3. reduction

/// bench/kernels/reduce.ptx (nvcc 13.5 from reduce.cu), thread t of a CTA, element
/// i = 256 ctaid + t: 10 instructions, 4 more to load when i < n, 7 (shared store,
/// bar.sync, set-up), then per stride s = 128, 64, ..., 1: 6 (test, bar.sync, shift,
/// loop test) and 6 more when t < s; then 2, 4 more for t == 0 (the store), and `ret`:
/// 68 + 4 [i < n] + 6 #{s : t < s} + 4 [t == 0].
fn reduce_path(t: u32, in_range: bool) -> u64 {
    let below = (0..8).filter(|j| t < (1 << j)).count() as u64;
    68 + 4 * u64::from(in_range) + 6 * below + 4 * u64::from(t == 0)
}

/// Guard-false instructions on a reduce thread's path: `@%p1` (bounds) in range, `@%p2`
/// for each stride s > t, the loop's last `bra`, and `@%p4` for t == 0.
fn reduce_off(t: u32, in_range: bool) -> u64 {
    let below = (0..8).filter(|j| t < (1 << j)).count() as u64;
    u64::from(in_range) + below + 1 + u64::from(t == 0)
}

fn reduce_case(n: u32, grid: u32, block: u32) -> Case {
    let input: Vec<u32> =
        (0..grid.max(n.div_ceil(256)) * 256).map(|i| i.wrapping_mul(2_654_435_761) >> 7).collect();
    let mut sums = vec![0u32; grid as usize];
    for (c, s) in sums.iter_mut().enumerate() {
        // Thread t < block adds element 256 c + t; the tree sums s[0 .. 256], and the
        // slots of threads that do not exist (block < 256) hold zero.
        for t in 0..block.min(256) {
            let i = c as u32 * 256 + t;
            if i < n {
                *s = s.wrapping_add(input[i as usize]);
            }
        }
    }
    let (lanes, off) = threads([grid, 1, 1], [block, 1, 1])
        .map(|(c, t)| {
            let in_range = c[0] * 256 + t[0] < n;
            (reduce_path(t[0], in_range), reduce_off(t[0], in_range))
        })
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    Case {
        name: "reduce",
        size: format!("n={n}"),
        formula: format!("{grid} CTAs x sum over t < {block} of (72 + 6 #{{s : t < s}} + 4 [t == 0])"),
        ptx: REDUCE_PTX,
        entry: "reduce256",
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        args: vec![
            Arg::Buf { init: u32_bytes(&input[..n as usize]), expect: None, elem: 4 },
            Arg::Buf { init: vec![0; 4 * grid as usize], expect: Some(u32_bytes(&sums)), elem: 4 },
            Arg::Scalar { bits: u64::from(n), size: 4 },
        ],
        lanes,
        guard_true: lanes - off,
    }
}

// ---------------------------------------------------------------- 4. collatz

/// examples/collatz.ptx, kernel `collatz` (nvcc 13.5 from examples/collatz.cu), thread
/// i: 10 instructions to the bounds test, `ret` when i >= n (11). Then 9; a zero seed
/// stores 0 (2 + ret: 22). Otherwise 3, and a seed of 1 stores 0 (2 + ret: 25); else 1,
/// then each loop trip is 3 (the cap test) + 10 (one step). Reaching 1 after s steps:
/// 26 + 13 s. Hitting the cap first: 29 + 13 cap.
fn collatz_path(seed: Option<u64>, cap: i32) -> u64 {
    let Some(mut x) = seed else { return 11 };
    if x == 0 {
        return 22;
    }
    if x == 1 {
        return 25;
    }
    let mut steps = 0u64;
    while x != 1 {
        if steps as i64 >= i64::from(cap) {
            return 29 + 13 * steps;
        }
        x = if x & 1 == 1 { x.wrapping_mul(3).wrapping_add(1) } else { x >> 1 };
        steps += 1;
    }
    26 + 13 * steps
}

/// Guard-false instructions on a collatz thread's path: `@%p1` (bounds) in range,
/// `@%p2` for a non-zero seed, `@%p3` for a seed other than 1; then `@%p4` (cap) on
/// every trip that goes on, and `@%p6` when 1 is reached: 3 + s + 1, or 3 + cap.
fn collatz_off(seed: Option<u64>, cap: i32) -> u64 {
    match seed {
        None => 0,
        Some(0) => 1,
        Some(1) => 2,
        Some(s) => match u64::try_from(collatz_steps(s, cap)) {
            Ok(steps) => 3 + steps + 1,
            Err(_) => 3 + u64::try_from(cap).unwrap_or(0),
        },
    }
}

/// collatz_steps of examples/collatz.cu, with a zero seed giving 0.
fn collatz_steps(mut x: u64, cap: i32) -> i32 {
    if x == 0 {
        return 0;
    }
    let mut steps = 0;
    while x != 1 {
        if steps >= cap {
            return -1;
        }
        x = if x & 1 == 1 { x.wrapping_mul(3).wrapping_add(1) } else { x >> 1 };
        steps += 1;
    }
    steps
}

fn collatz_case(seeds: Vec<u64>, n: u32, cap: i32, grid: u32, block: u32) -> Case {
    // Threads at or past n store nothing: those slots keep their zeros.
    let steps: Vec<u32> = seeds
        .iter()
        .enumerate()
        .map(|(i, &s)| if i < n as usize { collatz_steps(s, cap) as u32 } else { 0 })
        .collect();
    let (lanes, off) = (0..grid * block)
        .map(|i| {
            let seed = (i < n).then(|| seeds[i as usize]);
            (collatz_path(seed, cap), collatz_off(seed, cap))
        })
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    let len = seeds.len();
    Case {
        name: "collatz",
        size: format!("n={n}"),
        formula: format!("sum over {n} seeds of (26 + 13 steps), 22 for seed 0, 25 for seed 1"),
        ptx: COLLATZ_PTX,
        entry: COLLATZ_ENTRY,
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        args: vec![
            Arg::Buf { init: u64_bytes(&seeds), expect: None, elem: 8 },
            Arg::Buf { init: vec![0; 4 * len], expect: Some(u32_bytes(&steps)), elem: 4 },
            Arg::Scalar { bits: u64::from(n), size: 4 },
            Arg::Scalar { bits: cap as u32 as u64, size: 4 },
        ],
        lanes,
        guard_true: lanes - off,
    }
}

// ---------------------------------------------------------------- 5. saxpy

/// examples/saxpy.ptx (nvcc 13.5): 10 instructions to the bounds test, then 9 (two
/// loads, fma, store and addresses) and `ret` in range (20), `ret` alone out of it (11).
fn saxpy_path(in_range: bool) -> u64 {
    if in_range { 20 } else { 11 }
}

fn saxpy_case(n: u32, grid: u32, block: u32) -> Case {
    let a = 2.5f32;
    // Halves times 2.5 plus integers: exact, so fused and unfused agree.
    let x: Vec<f32> = (0..n).map(|i| (i % 4096) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 777) as f32).collect();
    let out: Vec<f32> = x.iter().zip(&y).map(|(x, y)| x.mul_add(a, *y)).collect();
    // Guard-false: `@%p1` (bounds) in range.
    let (lanes, off) = (0..u64::from(grid) * u64::from(block))
        .map(|i| (saxpy_path(i < u64::from(n)), u64::from(i < u64::from(n))))
        .fold((0, 0), |(a, b), (x, y)| (a + x, b + y));
    Case {
        name: "saxpy",
        size: format!("n={n}"),
        formula: format!("{n} threads x 20"),
        ptx: SAXPY_PTX,
        entry: "saxpy",
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        args: vec![
            Arg::Scalar { bits: u64::from(a.to_bits()), size: 4 },
            Arg::Buf { init: f32_bytes(&x), expect: None, elem: 4 },
            Arg::Buf { init: f32_bytes(&y), expect: Some(f32_bytes(&out)), elem: 4 },
            Arg::Scalar { bits: u64::from(n), size: 4 },
        ],
        lanes,
        guard_true: lanes - off,
    }
}

// ---------------------------------------------------------------- 6, 7. tensor-core GEMMs

/// A small integer (|x| <= 8) as f16 bits: exact.
fn f16_bits(x: i32) -> u16 {
    if x == 0 {
        return 0;
    }
    let (sign, m) = (if x < 0 { 0x8000 } else { 0 }, x.unsigned_abs());
    let e = 31 - m.leading_zeros(); // the leading bit's place
    let frac = (m << (10 - e)) & 0x3ff;
    sign | ((15 + e) as u16) << 10 | frac as u16
}

/// The tensor-core GEMMs' C = A B for f16 A (M x K, row-major) and B (given as Bt,
/// N x K): small integers, so every sum is exact in f32 whatever the order. Returns
/// A, Bt (as f16 bytes) and C.
fn tensor_inputs(m: usize, k: usize, n: usize) -> (Vec<u8>, Vec<u8>, Vec<f32>) {
    let a: Vec<i32> = (0..m * k).map(|e| ((e / k * 7 + e % k * 3) % 11) as i32 - 5).collect();
    let bt: Vec<i32> = (0..n * k).map(|e| ((e / k * 5 + e % k * 2) % 9) as i32 - 4).collect();
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k).map(|l| a[i * k + l] * bt[j * k + l]).sum::<i32>() as f32;
        }
    }
    let halves = |v: &[i32]| v.iter().flat_map(|&x| f16_bits(x).to_le_bytes()).collect();
    (halves(&a), halves(&bt), c)
}

/// bench/kernels/mma_gemm.ptx (one warp per 16 x 8 tile, an `mma.sync.m16n8k16` per
/// 16 of K) and bench/kernels/wgmma_gemm.ptx (one warpgroup per 64 x 128 tile, a
/// `wgmma.mma_async.m64n128k16` per 16 of K, its operands copied to shared memory
/// first). Per thread `pre + trip * k / 16 + post` lane-instructions: (29, 13, 15) and
/// (105, 19, 52) (the comments of the PTX files); the loop's last `@%p bra` is the
/// one guarded-off instruction.
fn tensor_case(wg: bool, m: u32, k: u32, n: u32) -> Case {
    let (a, bt, c) = tensor_inputs(m as usize, k as usize, n as usize);
    let ((tm, tn, block), (pre, trip, post)) =
        if wg { ((64, 128, 128), (105, 19, 52)) } else { ((16, 8, 32), (29, 13, 15)) };
    let threads = u64::from(m / tm) * u64::from(n / tn) * u64::from(block);
    let path = pre + trip * u64::from(k / 16) + post;
    Case {
        name: if wg { "wgmma" } else { "mma" },
        size: format!("{m}x{k}x{n}"),
        formula: format!("{threads} threads x ({pre} + {trip} x {} + {post})", k / 16),
        ptx: if wg { WGMMA_PTX } else { MMA_PTX },
        entry: if wg { "wgmma_gemm" } else { "mma_gemm" },
        grid: [n / tn, m / tm, 1],
        block: [block, 1, 1],
        args: vec![
            Arg::Buf { init: a, expect: None, elem: 2 },
            Arg::Buf { init: bt, expect: None, elem: 2 },
            Arg::Buf { init: vec![0; c.len() * 4], expect: Some(f32_bytes(&c)), elem: 4 },
            Arg::Scalar { bits: u64::from(k), size: 4 },
        ],
        lanes: threads * path,
        guard_true: threads * (path - 1),
    }
}

// ---------------------------------------------------------------- runners

/// Runs `case` on ptxvm through its library API; returns the time of the whole
/// launch (load, buffers in, launch, buffers out), every buffer afterwards and
/// ptxvm's own count of lane-instructions.
fn run_ptxvm(case: &Case, max_steps: u64) -> Res<Ran> {
    let t = Instant::now();
    let module = Module::load(case.ptx).map_err(|d| format!("invalid PTX: {}", d[0].message))?;
    let kernel = module.kernel(case.entry).map_err(|e| format!("cannot run: {}", e.message))?;
    if kernel.params.len() != case.args.len() {
        return Err(format!("kernel has {} params, case gives {}", kernel.params.len(), case.args.len()));
    }
    let mut device = Device::default();
    let mut params = vec![0u8; kernel.param_bytes as usize];
    let mut bufs = Vec::new();
    for (arg, &(_, offset, size)) in case.args.iter().zip(&kernel.params) {
        let bits = match arg {
            Arg::Buf { init, .. } => {
                let addr = device.alloc(init.len() as u64).map_err(|e| format!("{e:?}"))?;
                device.copy_to_device(addr, init).map_err(|e| format!("{e:?}"))?;
                bufs.push((addr, init.len()));
                addr
            }
            Arg::Scalar { bits, .. } => *bits,
        };
        let (o, s) = (offset as usize, size as usize);
        params[o..o + s].copy_from_slice(&bits.to_le_bytes()[..s]);
    }
    let limits = Limits::new(max_steps);
    device
        .launch_with(&kernel, dim(case.grid), dim(case.block), 0, &params, &limits)
        .map_err(|f| format!("fault: {} (ctaid {:?} tid {:?})", f.cause, f.ctaid, f.tid))?;
    let mut out = Vec::new();
    for (addr, len) in bufs {
        out.push(device.read_to_vec(addr, len).map_err(|e| format!("{e:?}"))?);
    }
    Ok((t.elapsed(), out, Some(limits.lane_instructions())))
}

/// The last panic message of a ptoxide run (ptoxide reports what it lacks with
/// `todo!()`), kept instead of printed.
static PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Runs `f`, turning a panic into an error with its message and location.
fn catching<T>(f: impl FnOnce() -> Res<T>) -> Res<T> {
    let old = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file().rsplit('/').next().unwrap_or(""), l.line()));
        *PANIC.lock().unwrap() = Some(format!("panic: {msg}{}", at.unwrap_or_default()));
    }));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(old);
    match r {
        Ok(r) => r,
        Err(_) => Err(PANIC.lock().unwrap().take().unwrap_or_else(|| "panic".into())),
    }
}

/// Runs `case` on ptoxide (single-threaded: it runs one thread at a time); the same
/// scope of timing as [`run_ptxvm`].
fn run_ptoxide(case: &Case) -> Res<Ran> {
    use ptoxide::{Argument, Context, LaunchParams};
    catching(|| {
        let t = Instant::now();
        let mut ctx = Context::new_with_module(case.ptx).map_err(|e| format!("{e}"))?;
        let mut ptrs = Vec::new();
        for arg in &case.args {
            if let Arg::Buf { init, .. } = arg {
                let p = ctx.alloc_raw(init.len(), 16);
                ctx.write_raw(p, 0, init);
                ptrs.push((p, init.len()));
            }
        }
        let mut bufs = ptrs.iter();
        let args: Vec<Argument> = case
            .args
            .iter()
            .map(|a| match a {
                Arg::Buf { .. } => Argument::Ptr(bufs.next().unwrap().0),
                Arg::Scalar { bits, size: 8 } => Argument::U64(*bits),
                Arg::Scalar { bits, .. } => Argument::U32(*bits as u32),
            })
            .collect();
        let launch = LaunchParams::func(case.entry);
        let launch = match case.block {
            [x, 1, 1] => launch.block1d(x),
            [x, y, 1] => launch.block2d(x, y),
            _ => return Err("3-D block".into()),
        };
        let launch = match case.grid {
            [x, 1, 1] => launch.grid1d(x),
            [x, y, 1] => launch.grid2d(x, y),
            _ => return Err("3-D grid".into()),
        };
        ctx.run(launch, &args).map_err(|e| format!("{e}"))?;
        let mut out = Vec::new();
        for &(p, len) in &ptrs {
            let mut v = vec![0u8; len];
            ctx.read_raw(p, 0, &mut v);
            out.push(v);
        }
        Ok((t.elapsed(), out, None))
    })
}

/// Compares the buffers after a run with the expected ones.
fn verify(case: &Case, out: &[Vec<u8>]) -> Res<()> {
    let bufs = case.args.iter().filter_map(|a| match a {
        Arg::Buf { expect, elem, .. } => Some((expect, *elem)),
        Arg::Scalar { .. } => None,
    });
    for (k, ((expect, elem), got)) in bufs.zip(out).enumerate() {
        let Some(expect) = expect else { continue };
        if expect != got {
            let e = (0..expect.len())
                .step_by(elem)
                .find(|&e| expect[e..e + elem] != got[e..e + elem])
                .unwrap_or(0);
            let hex = |b: &[u8]| b.iter().rev().map(|x| format!("{x:02x}")).collect::<String>();
            return Err(format!(
                "wrong output: buffer {k} element {}: got 0x{}, expected 0x{}",
                e / elem,
                hex(&got[e..e + elem]),
                hex(&expect[e..e + elem])
            ));
        }
    }
    Ok(())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The median time of `reps` verified runs (after one untimed, verified warm-up run
/// when `warm`), and the machine's own lane-instruction count of the last run.
fn measure(case: &Case, reps: usize, warm: bool, run: &dyn Fn() -> Res<Ran>) -> Res<(f64, Option<u64>)> {
    if warm {
        verify(case, &run()?.1)?;
    }
    let mut times = Vec::new();
    let mut counted = None;
    for _ in 0..reps {
        let (t, out, c) = run()?;
        verify(case, &out)?;
        times.push(t.as_secs_f64());
        counted = c;
    }
    Ok((median(times), counted))
}

// ---------------------------------------------------------------- the benchmark

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// The 1, 5 and 15 minute load averages: other work on the machine shows here.
fn load_average() -> String {
    let s = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// The repository root: `PTXVM_REPO`, or the checkout this crate (bench/lanes) was
/// built in.
fn repo_root() -> PathBuf {
    if let Some(p) = std::env::var_os("PTXVM_REPO") {
        return p.into();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// The seven kernels at the benchmark's sizes (tiny in quick mode).
fn bench_cases(quick: bool) -> Vec<Case> {
    if quick {
        vec![
            alu_case(2, 256, 20),
            {
                let (g, b) = gemm_shape(32, 32);
                gemm_case(32, 32, 32, g, b)
            },
            reduce_case(1 << 12, 16, 256),
            collatz_case((0..1024).collect(), 1024, 1000, 4, 256),
            saxpy_case(1 << 12, 16, 256),
            tensor_case(false, 64, 32, 128),
            tensor_case(true, 64, 32, 128),
        ]
    } else {
        vec![
            alu_case(64, 256, 2000),
            {
                let (g, b) = gemm_shape(256, 256);
                gemm_case(256, 256, 256, g, b)
            },
            reduce_case(1 << 22, 1 << 14, 256),
            collatz_case((0..1 << 17).collect(), 1 << 17, 1000, 1 << 9, 256),
            saxpy_case(1 << 22, 1 << 14, 256),
            tensor_case(false, 256, 256, 256),
            tensor_case(true, 256, 256, 256),
        ]
    }
}

fn bench() -> Res<()> {
    let quick = std::env::var_os("PTXVM_BENCH_QUICK").is_some();
    let reps = if quick { 1 } else { 5 };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = |n| rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|e| e.to_string());
    let (pool1, pool_all) = (pool(1)?, pool(cores)?);

    let mut cases = bench_cases(quick);
    // `PTXVM_BENCH_ONLY=gemm,saxpy` measures only those kernels.
    if let Ok(only) = std::env::var("PTXVM_BENCH_ONLY") {
        cases.retain(|c| only.split(',').any(|name| name == c.name));
    }

    println!("lanes benchmark: ptxvm (this checkout) vs ptoxide 0.1.0 (crates.io)");
    println!(
        "{} ({} cores available), {}, median of {reps} verified run{} per figure{}",
        cpu_name(),
        cores,
        if quick { "QUICK mode (tiny sizes)" } else { "full mode" },
        if reps == 1 { "" } else { "s" },
        if quick { "" } else { " after a warm-up run" }
    );
    println!("load average before: {}", load_average());
    println!(
        "M/s = million lane-instructions per second; the whole launch is timed (load, copy in, launch, copy out)"
    );
    println!("ratio vs ptoxide = ptxvm M/s / ptoxide M/s (ptoxide runs on one core)\n");
    println!(
        "{:<9} {:<20} {:>12} {:>11} {:>11} {:>8} {:>12} {:>10} {:>10}",
        "kernel",
        "size",
        "lane-instr",
        "ptxvm 1c",
        &format!("ptxvm {cores}c"),
        "scaling",
        "ptoxide 1c",
        "1c ratio",
        &format!("{cores}c ratio")
    );
    println!(
        "{:<9} {:<20} {:>12} {:>11} {:>11} {:>8} {:>12} {:>10} {:>10}",
        "", "", "", "M/s", "M/s", "", "M/s", "vs ptoxide", "vs ptoxide"
    );
    let mut notes = Vec::new();
    let mut counted = Vec::new();
    let mut macs = Vec::new();
    let mut failed = false;
    for case in &cases {
        let one = measure(case, reps, !quick, &|| pool1.install(|| run_ptxvm(case, DEFAULT_MAX_STEPS)));
        let all = measure(case, reps, !quick, &|| pool_all.install(|| run_ptxvm(case, DEFAULT_MAX_STEPS)));
        let ((one, c1), (all, c_all)) = match (one, all) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                println!("{:<9} {:<20} {:>12} ptxvm FAILED: {e}", case.name, case.size, case.lanes);
                failed = true;
                continue;
            }
        };
        let rate = |t: f64| case.lanes as f64 / t / 1e6;
        // ptoxide: one try first, so that a kernel it cannot run costs nothing more.
        let px = run_ptoxide(case)
            .and_then(|(_, out, _)| verify(case, &out))
            .and_then(|()| measure(case, reps, false, &|| run_ptoxide(case)));
        let (pcol, r1, rn) = match px {
            Ok((t, _)) => (format!("{:.1}", rate(t)), format!("{:.1}x", t / one), format!("{:.1}x", t / all)),
            Err(e) => {
                notes.push(format!("ptoxide on {}: {e}", case.name));
                ("n/a".into(), "n/a".into(), "n/a".into())
            }
        };
        println!(
            "{:<9} {:<20} {:>12} {:>11.1} {:>11.1} {:>7.2}x {:>12} {:>10} {:>10}",
            case.name,
            case.size,
            case.lanes,
            rate(one),
            rate(all),
            one / all,
            pcol,
            r1,
            rn
        );
        counted.push((case.name, case.guard_true, c1, c_all));
        // The tensor-core GEMMs do the same multiply-adds: per second, on one core.
        if let Some((m, k, n)) = case
            .size
            .split('x')
            .map(|d| d.parse::<f64>().ok())
            .collect::<Option<Vec<_>>>()
            .and_then(|d| (d.len() == 3).then(|| (d[0], d[1], d[2])))
        {
            macs.push(format!(
                "  {:<9} {:.1} million multiply-adds per second (1 core)",
                case.name,
                m * k * n / one / 1e6
            ));
        }
    }
    println!("\nlane-instructions (dynamic PTX instructions x active lanes, guarded-off included):");
    for case in &cases {
        println!("  {:<9} {} = {}", case.name, case.formula, case.lanes);
    }
    println!("ptxvm's own counter (Limits::lane_instructions) counts the lanes whose guard holds:");
    for (name, expect, c1, c_all) in counted {
        let verdict = if c1 == Some(expect) && c_all == Some(expect) { "agrees" } else { "DISAGREES" };
        let show = |c: Option<u64>| c.map_or("-".into(), |c| c.to_string());
        println!(
            "  {name:<9} formula {expect}, counted {} (1 core), {} (all): {verdict}",
            show(c1),
            show(c_all)
        );
    }
    if !macs.is_empty() {
        println!("the tensor-core GEMMs, m x k x n multiply-adds each, whole launch timed:");
        for line in &macs {
            println!("{line}");
        }
    }
    if !notes.is_empty() {
        println!("\nwhere ptoxide is n/a:");
        for n in &notes {
            println!("  {n}");
        }
    }

    // The child processes below get the machine to themselves: no idle pools, no
    // buffers of the table's runs.
    drop((cases, pool1, pool_all));
    let n = if quick { 32 } else { 256 };
    if let Err(e) = whole_process_gemm(n, reps) {
        println!("\nwhole-process gemm: FAILED: {e}");
        failed = true;
    }
    if let Err(e) = memory_check(quick) {
        println!("\nmemory check: FAILED: {e}");
        failed = true;
    }
    println!("\nload average after: {}", load_average());
    if failed { Err("some measurements failed".into()) } else { Ok(()) }
}

// ---------------------------------------------------------------- whole processes

/// Times one process; returns its wall time and stdout, failing on a non-zero exit.
fn time_process(cmd: &mut Command) -> Res<(f64, String)> {
    let t = Instant::now();
    let out = cmd.stderr(Stdio::piped()).output().map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    let secs = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    Ok((secs, String::from_utf8_lossy(&out.stdout).into_owned()))
}

/// Checks a result JSON (the launch contract's format) against the gemm reference.
fn check_gemm_result(json: &str, expect: &[f32]) -> Res<()> {
    let v: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("result is not JSON: {e}"))?;
    let bufs = v["buffers"].as_array().ok_or("result has no buffers")?;
    let c = bufs.iter().find(|b| b["arg"] == 2).ok_or("result has no arg 2")?;
    let data = c["data"].as_array().ok_or("arg 2 has no data")?;
    if data.len() != expect.len() {
        return Err(format!("C has {} elements, expected {}", data.len(), expect.len()));
    }
    for (i, (g, e)) in data.iter().zip(expect).enumerate() {
        if g.as_f64() != Some(f64::from(*e)) {
            return Err(format!("C[{i}] = {g}, expected {e}"));
        }
    }
    Ok(())
}

/// The ptxvm binary of this checkout, built (release) if it is missing or stale,
/// unless `PTXVM_BIN` names one.
fn ptxvm_bin() -> Res<PathBuf> {
    if let Some(p) = std::env::var_os("PTXVM_BIN") {
        return Ok(p.into());
    }
    let root = repo_root();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--quiet", "--bin", "ptxvm", "--manifest-path"])
        .arg(root.join("Cargo.toml"))
        .env_remove("CARGO_TARGET_DIR")
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err("cargo build --release --bin ptxvm failed".into());
    }
    Ok(root.join("target/release/ptxvm"))
}

fn whole_process_gemm(n: u32, reps: usize) -> Res<()> {
    let root = repo_root();
    let ptx = root.join("bench/kernels/gemm.ptx");
    let spec = if n == 256 {
        // The committed spec must be the one this benchmark generates.
        let p = root.join("bench/kernels/gemm256.json");
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        if text != gemm_spec(n) {
            return Err(format!("{} differs from `lanes --write-gemm-spec`", p.display()));
        }
        p
    } else {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/gemm{n}.json"));
        std::fs::write(&p, gemm_spec(n)).map_err(|e| format!("{}: {e}", p.display()))?;
        p
    };
    let nu = n as usize;
    let (a, b) = gemm_inputs(nu, nu, nu);
    let expect = gemm_reference(&a, &b, nu, nu, nu);
    let bin = ptxvm_bin()?;
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let rel = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    println!("\nwhole process, gemm N={n}, one launch spec ({}), median of {reps}:", rel(&spec));
    let run = |label: &str, mk: &dyn Fn() -> Command| -> Res<f64> {
        let mut times = Vec::new();
        for _ in 0..reps {
            let (t, out) = time_process(&mut mk())?;
            check_gemm_result(&out, &expect)?;
            times.push(t);
        }
        let t = median(times);
        println!("  {label:<62} {t:>8.3} s");
        Ok(t)
    };
    let all = run(&format!("ptxvm run {} --launch {}", rel(&ptx), rel(&spec)), &|| {
        let mut c = Command::new(&bin);
        c.arg("run").arg(&ptx).arg("--launch").arg(&spec);
        c
    })?;
    let one = run("  the same with RAYON_NUM_THREADS=1", &|| {
        let mut c = Command::new(&bin);
        c.arg("run").arg(&ptx).arg("--launch").arg(&spec).env("RAYON_NUM_THREADS", "1");
        c
    })?;
    let px = run("ptoxide 0.1.0 in a process (lanes --ptoxide-run, same files)", &|| {
        let mut c = Command::new(&me);
        c.arg("--ptoxide-run").arg(&ptx).arg(&spec);
        c
    })?;
    println!(
        "  ptoxide time / ptxvm time: {:.2}x (ptxvm on all cores), {:.2}x (ptxvm on one)",
        px / all,
        px / one
    );
    Ok(())
}

/// Child process: runs a launch spec (the subset gemm256.json uses: 1-D/2-D shapes,
/// u32/s32/u64/f32 buffers and scalars) on ptoxide and prints the result JSON in the
/// launch contract's format, as `ptxvm run` does.
fn ptoxide_run(ptx: &str, spec: &str) -> Res<()> {
    use ptoxide::{Argument, Context, LaunchParams};
    use serde_json::Value;
    let src = std::fs::read_to_string(ptx).map_err(|e| format!("{ptx}: {e}"))?;
    let text = std::fs::read_to_string(spec).map_err(|e| format!("{spec}: {e}"))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{spec}: {e}"))?;
    let shape = |v: &Value| -> Res<(u32, u32)> {
        match v {
            Value::Number(x) => Ok((x.as_u64().ok_or("bad shape")? as u32, 1)),
            Value::Array(a) => {
                let d = |k: usize| a.get(k).map_or(Some(1), |x| x.as_u64()).map(|x| x as u32);
                Ok((d(0).ok_or("bad shape")?, d(1).ok_or("bad shape")?))
            }
            _ => Err("bad shape".into()),
        }
    };
    let (gx, gy) = shape(&v["grid"])?;
    let (bx, by) = shape(&v["block"])?;
    let kernel = v["kernel"].as_str().ok_or("spec names no kernel")?;
    let mut ctx = Context::new_with_module(&src).map_err(|e| format!("{e}"))?;
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    let bits = |ty: &str, x: &Value| -> Res<u64> {
        Ok(match ty {
            "f32" => u64::from((x.as_f64().ok_or("bad value")? as f32).to_bits()),
            "s32" => x.as_i64().ok_or("bad value")? as i32 as u32 as u64,
            "u32" | "u64" => x.as_u64().ok_or("bad value")?,
            _ => return Err(format!("type {ty} not supported here")),
        })
    };
    for (k, a) in v["args"].as_array().ok_or("spec has no args")?.iter().enumerate() {
        if let Some(e) = a["buffer"].as_str() {
            let size = if e == "u64" { 8 } else { 4 };
            let bytes: Vec<u8> = match &a["data"] {
                Value::Array(d) => d
                    .iter()
                    .map(|x| bits(e, x))
                    .collect::<Res<Vec<u64>>>()?
                    .iter()
                    .flat_map(|b| b.to_le_bytes()[..size].to_vec())
                    .collect(),
                _ => vec![0; size * a["len"].as_u64().ok_or("buffer has no data or len")? as usize],
            };
            let p = ctx.alloc_raw(bytes.len(), 16);
            ctx.write_raw(p, 0, &bytes);
            args.push(Argument::Ptr(p));
            bufs.push((k, e.to_string(), p, bytes.len()));
        } else {
            let ty = a["type"].as_str().ok_or("arg has no type")?;
            let b = bits(ty, &a["value"])?;
            args.push(if ty == "u64" { Argument::U64(b) } else { Argument::U32(b as u32) });
        }
    }
    catching(|| {
        let launch = LaunchParams::func(kernel).grid2d(gx, gy).block2d(bx, by);
        ctx.run(launch, &args).map_err(|e| format!("{e}"))
    })?;
    let mut entries = Vec::new();
    for (k, e, p, len) in bufs {
        let mut raw = vec![0u8; len];
        ctx.read_raw(p, 0, &mut raw);
        let size = if e == "u64" { 8 } else { 4 };
        let vals: Vec<String> = raw
            .chunks(size)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..size].copy_from_slice(c);
                let x = u64::from_le_bytes(w);
                match e.as_str() {
                    "f32" => format!("{}", f32::from_bits(x as u32)),
                    "s32" => format!("{}", x as u32 as i32),
                    _ => format!("{x}"),
                }
            })
            .collect();
        entries.push(format!("{{\"arg\": {k}, \"buffer\": \"{e}\", \"data\": [{}]}}", vals.join(", ")));
    }
    println!("{{\"kernel\": \"{kernel}\", \"buffers\": [{}]}}", entries.join(", "));
    Ok(())
}

// ---------------------------------------------------------------- memory

fn vm_hwm_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Child process: launches bench/kernels/count.ptx over 2^log2 threads (CTAs of 256)
/// on the global rayon pool and prints its peak RSS before and after.
fn mem_probe(log2: u32) -> Res<()> {
    let before = vm_hwm_kib();
    let module = Module::load(COUNT_PTX).map_err(|d| d[0].message.clone())?;
    let kernel = module.kernel("count_ctas").map_err(|e| e.message)?;
    let mut device = Device::default();
    let ctr = device.alloc(4).map_err(|e| format!("{e:?}"))?;
    let grid = (1u64 << log2).div_ceil(256) as u32;
    let t = Instant::now();
    device
        .launch(
            &kernel,
            Dim3 { x: grid, y: 1, z: 1 },
            Dim3 { x: 256, y: 1, z: 1 },
            0,
            &ctr.to_le_bytes(),
            DEFAULT_MAX_STEPS,
        )
        .map_err(|f| f.cause)?;
    let secs = t.elapsed().as_secs_f64();
    let mut c = [0u8; 4];
    device.copy_from_device(ctr, &mut c).map_err(|e| format!("{e:?}"))?;
    if u32::from_le_bytes(c) != grid {
        return Err(format!("counter {} != {grid} CTAs", u32::from_le_bytes(c)));
    }
    println!("{before} {} {secs}", vm_hwm_kib());
    Ok(())
}

fn memory_check(quick: bool) -> Res<()> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let (small, big) = if quick { (12, 16) } else { (16, 24) };
    println!(
        "\npeak RSS (VmHWM) of a process launching bench/kernels/count.ptx (CTAs of 256, buffers: one u32):"
    );
    let mut peaks = Vec::new();
    for log2 in [small, big] {
        let (_, out) = time_process(Command::new(&me).arg("--mem-probe").arg(log2.to_string()))?;
        let f: Vec<f64> = out.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        let [before, after, secs] = f[..] else { return Err(format!("bad probe output {out:?}")) };
        println!(
            "  2^{log2:<2} threads ({:>6} CTAs): {:>8.1} MiB peak ({:.1} MiB before the launch), launch {:.2} s",
            (1u64 << log2) / 256,
            after / 1024.0,
            before / 1024.0,
            secs
        );
        peaks.push(after);
    }
    println!(
        "  growth for {}x the threads: {:+.1} MiB",
        1u64 << (big - small),
        (peaks[1] - peaks[0]) / 1024.0
    );
    Ok(())
}

// ---------------------------------------------------------------- cross-check

/// The smallest step budget (warp instructions) with which `case` runs to its end on
/// ptxvm, by binary search.
fn min_budget(case: &Case) -> Res<u64> {
    let ok = |b: u64| match run_ptxvm(case, b) {
        Ok(_) => Ok(true),
        Err(e) if e.contains("budget") => Ok(false),
        Err(e) => Err(e),
    };
    let mut hi = 64;
    while !ok(hi)? {
        hi *= 2;
        if hi > 1 << 40 {
            return Err("no budget suffices".into());
        }
    }
    let mut lo = 0; // ok(lo) is false: nothing runs in no steps
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if ok(mid)? { hi = mid } else { lo = mid }
    }
    Ok(hi)
}

fn crosscheck() -> Res<()> {
    // (what, case, expected warp instructions). One-thread launches: warp instructions
    // are that thread's lane-instructions, so these check the path formulas exactly.
    // The full-CTA launches also need the warps to issue each instruction once for
    // all the lanes that run it (true for these uniform or warp-aligned branches).
    let mut checks: Vec<(String, Case, u64)> = Vec::new();
    for iters in [1, 2, 7] {
        checks.push((format!("alu_loop 1 thread, iters={iters}"), alu_case(1, 1, iters), alu_path(iters)));
    }
    checks.push(("alu_loop 1 CTA of 64, iters=10".into(), alu_case(1, 64, 10), 2 * alu_path(10)));
    for k in [0, 1, 3, 4, 5, 8, 11, 256] {
        checks.push((
            format!("gemm 1 thread, k={k}"),
            gemm_case(1, k, 1, [1, 1, 1], [1, 1, 1]),
            gemm_path(k.into(), true),
        ));
    }
    checks.push((
        "gemm 1 thread out of range".into(),
        gemm_case(0, 4, 1, [1, 1, 1], [1, 1, 1]),
        gemm_path(4, false),
    ));
    checks.push((
        "gemm 1 CTA 16x16, N=16".into(),
        gemm_case(16, 16, 16, [1, 1, 1], [16, 16, 1]),
        8 * gemm_path(16, true),
    ));
    checks.push(("reduce 1 thread in range".into(), reduce_case(1, 1, 1), reduce_path(0, true)));
    checks.push(("reduce 1 thread out of range".into(), reduce_case(0, 1, 1), reduce_path(0, false)));
    // A warp runs a stride's `if` body when any of its lanes does (32 w < s).
    let warp = |w: u64| {
        10 + 4
            + 7
            + (0..8).map(|j| 6 + 6 * u64::from(32 * w < 1 << j)).sum::<u64>()
            + 2
            + 4 * u64::from(w == 0)
            + 1
    };
    checks.push(("reduce 1 CTA of 256".into(), reduce_case(256, 1, 256), (0..8).map(warp).sum()));
    for (seed, cap) in
        [(0, 1000), (1, 1000), (2, 1000), (3, 1000), (27, 1000), (871, 1000), (27, 5), (27, 0), (2, 1)]
    {
        checks.push((
            format!("collatz seed {seed} cap {cap}"),
            collatz_case(vec![seed], 1, cap, 1, 1),
            collatz_path(Some(seed), cap),
        ));
    }
    checks.push((
        "collatz out of range".into(),
        collatz_case(vec![5], 0, 1000, 1, 1),
        collatz_path(None, 1000),
    ));
    checks.push(("saxpy 1 thread in range".into(), saxpy_case(1, 1, 1), saxpy_path(true)));
    checks.push(("saxpy 1 thread out of range".into(), saxpy_case(0, 1, 1), saxpy_path(false)));
    checks.push(("saxpy 1 CTA of 256".into(), saxpy_case(256, 1, 256), 8 * saxpy_path(true)));
    let mut bad = 0;
    println!("step budget (warp instructions) and ptxvm's lane counter against the formulas:");
    for (what, case, expect) in &checks {
        let got = min_budget(case)?;
        // The run itself must also be right, and ptxvm's own counter agree.
        let (_, out, counted) = run_ptxvm(case, DEFAULT_MAX_STEPS)?;
        verify(case, &out)?;
        let ok = got == *expect && counted == Some(case.guard_true);
        bad += usize::from(!ok);
        println!(
            "  {what:<34} budget {got:>5} (formula {expect:>5})  counter {:>6} (formula {:>6})  {}",
            counted.unwrap_or(0),
            case.guard_true,
            if ok { "ok" } else { "MISMATCH" }
        );
    }
    // The benchmark's own launches, many CTAs on all cores: ptxvm's counter must match
    // the guard-true formula whatever the divergence and the schedule.
    println!("ptxvm's lane counter on the benchmark's launches (all cores):");
    for quick in [true, false] {
        for case in bench_cases(quick) {
            let (_, out, counted) = run_ptxvm(&case, DEFAULT_MAX_STEPS)?;
            verify(&case, &out)?;
            let ok = counted == Some(case.guard_true);
            bad += usize::from(!ok);
            println!(
                "  {:<9} {:<20} counter {:>10} (formula {:>10}; with guarded-off lanes {:>10})  {}",
                case.name,
                case.size,
                counted.unwrap_or(0),
                case.guard_true,
                case.lanes,
                if ok { "ok" } else { "MISMATCH" }
            );
        }
    }
    if bad > 0 { Err(format!("{bad} counts disagree")) } else { Ok(()) }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => bench(),
        ["--crosscheck"] => crosscheck(),
        ["--whole-process", n, reps] => match (n.parse(), reps.parse()) {
            (Ok(n), Ok(reps)) => whole_process_gemm(n, reps),
            _ => Err("bad N or reps".into()),
        },
        ["--ptoxide-run", ptx, spec] => ptoxide_run(ptx, spec),
        ["--mem-probe", log2] => log2.parse().map_err(|_| "bad log2".to_string()).and_then(mem_probe),
        ["--write-gemm-spec", path] => std::fs::write(path, gemm_spec(256)).map_err(|e| e.to_string()),
        ["--write-gemm-spec", path, n] => n
            .parse()
            .map_err(|_| "bad N".to_string())
            .and_then(|n| std::fs::write(path, gemm_spec(n)).map_err(|e| e.to_string())),
        _ => Err("usage: lanes [--crosscheck | --write-gemm-spec PATH [N] | --ptoxide-run PTX SPEC | --mem-probe LOG2]".into()),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lanes: {e}");
            ExitCode::FAILURE
        }
    }
}
