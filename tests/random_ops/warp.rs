//! Models of what a warp or CTA does together, from every thread's sources (PTX ISA
//! fragment layouts, shuffles, votes, reductions), and of the forms whose code is more
//! than one instruction: matrix products and loads, `wmma`, mbarriers, `cp.async`,
//! `brx.idx` and calls.

use super::*;

/// `mma.sync.aligned.m16n8k32.row.col{.satfinite}.s32.atype.btype.s32` with `.s8` or
/// `.u8` A and B (PTX ISA 9.7.14.5.14): element `j` of lane `lane`'s D fragment, from
/// the warp's A (four registers of four bytes each), B (two of four bytes) and C (four
/// s32) fragments, each element placed by the ISA's "row and column of a matrix
/// fragment" formulas. `.satfinite` clamps the exact sum to the s32 range; without it
/// the sum wraps. `signs` says whether A and B are signed.
pub(crate) fn mma_s8(warp: &[Vec<u64>], lane: usize, j: u64, satfinite: bool, signs: [bool; 2]) -> u64 {
    let (mut a, mut b, mut c) = ([[0i64; 32]; 16], [[0i64; 8]; 32], [[0i64; 8]; 16]);
    let byte = |v: u64, k: usize, signed: bool| {
        let x = (v >> (8 * k)) as u8;
        if signed { i64::from(x as i8) } else { i64::from(x) }
    };
    for (l, s) in warp.iter().enumerate() {
        let (g, t) = (l >> 2, l % 4);
        for i in 0..16 {
            let row = if i < 4 || (8..12).contains(&i) { g } else { g + 8 };
            let col = t * 4 + (i & 3) + if i >= 8 { 16 } else { 0 };
            a[row][col] = byte(s[i / 4], i % 4, signs[0]);
        }
        for i in 0..8 {
            let row = t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 };
            b[row][g] = byte(s[4 + i / 4], i % 4, signs[1]);
        }
        for i in 0..4 {
            let row = if i < 2 { g } else { g + 8 };
            c[row][t * 2 + (i & 1)] = i64::from(s[6 + i] as u32 as i32);
        }
    }
    let (g, t, j) = (lane >> 2, lane % 4, j as usize);
    let (row, col) = (if j < 2 { g } else { g + 8 }, t * 2 + (j & 1));
    let d = (0..32).map(|k| a[row][k] * b[k][col]).sum::<i64>() + c[row][col];
    let d = if satfinite { d.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) } else { d };
    u64::from(d as u32)
}

/// `mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64` (PTX ISA 9.7.14.5.14, matrix
/// fragments for `.m8n8k4` with `.f64`): element `j` of lane `lane`'s D fragment, from
/// the warp's A (one f64: row `lane >> 2`, column `lane % 4`), B (one f64: row
/// `lane % 4`, column `lane >> 2`) and C (two f64: row `lane >> 2`, column
/// `(lane % 4) * 2 + i`). Each element is the low byte of an H register as an s8 (the
/// emitted `cvt.rn.f64.s8`), so every partial sum is an integer below 2^17 and the
/// result is exact in whatever order the machine adds.
pub(crate) fn mma_f64(warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let v = |l: usize, k: usize| sx(warp[l][k], 8);
    let (g, col) = (lane >> 2, (lane % 4) * 2 + j as usize);
    let a = |row: usize, k: usize| v(row * 4 + k, 0);
    let b = |k: usize, col: usize| v(col * 4 + k, 1);
    let c = v(g * 4 + col / 2, 2 + col % 2);
    let d = (0..4).map(|k| a(g, k) * b(k, col)).sum::<i64>() + c;
    (d as f64).to_bits()
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.atype.btype.f32` with `.f16` or `.bf16` A
/// and B (PTX ISA 9.7.14.5.14, "Matrix Fragments for mma.m16n8k16 with floating point
/// type"): element `j` of lane `lane`'s D fragment. A (sources 0-3) holds a0-a7, two
/// per register, a_i at row `g` (`g + 8` for i in 2, 3, 6, 7) and column `2t + (i & 1)`
/// (`+ 8` from a4); B (sources 4-5) holds b0-b3 at row `2t + (i & 1)` (`+ 8` from b2)
/// and column `g`; C (sources 6-9) and D hold c0-c3 at row `g` (`g + 8` from c2) and
/// column `2t + (i & 1)`; `g` is the lane's group (lane / 4) and `t` its place in it.
/// Each A and B element is a 4-bit field of its source as a small signed integer (see
/// [`mma_elem`]) and each C element the low byte, so every sum is an integer below 2^11
/// and exact in whatever order the tensor cores add; the result is its f32 bits.
pub(crate) fn mma_half(warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let (mut a, mut b, mut c) = ([[0i64; 16]; 16], [[0i64; 8]; 16], [[0i64; 8]; 16]);
    for (l, s) in warp.iter().enumerate() {
        let (g, t) = (l >> 2, l % 4);
        for i in 0..8 {
            let row = if matches!(i, 2 | 3 | 6 | 7) { g + 8 } else { g };
            let col = 2 * t + (i & 1) + if i >= 4 { 8 } else { 0 };
            a[row][col] = mma_elem(s[i / 2], i % 2);
        }
        for i in 0..4 {
            let row = 2 * t + (i & 1) + if i >= 2 { 8 } else { 0 };
            b[row][g] = mma_elem(s[4 + i / 2], i % 2);
        }
        for i in 0..4 {
            let row = if i < 2 { g } else { g + 8 };
            c[row][2 * t + (i & 1)] = sx(s[6 + i], 8);
        }
    }
    let (g, t, j) = (lane >> 2, lane % 4, j as usize);
    let (row, col) = (if j < 2 { g } else { g + 8 }, 2 * t + (j & 1));
    let d = (0..16).map(|k| a[row][k] * b[k][col]).sum::<i64>() + c[row][col];
    bits32(d as f32)
}

/// An A or B element of the half-precision `mma` forms: the signed 4-bit field at bit
/// 0 (the low half of the register) or bit 16 (the high half) of the source, which the
/// generated code extracts with `bfe.s32` and packs with `cvt.rn.{f16,bf16}x2.f32`.
pub(crate) fn mma_elem(v: u64, half: usize) -> i64 {
    sx(v >> (16 * half), 4)
}

/// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32` (PTX ISA 9.7.14.5.14, "Matrix
/// Fragments for mma.m16n8k8" with `.tf32`): A (sources 0-3) holds a0-a3 at row `g`
/// (`g + 8` for a1, a3) and column `t` (`t + 4` for a2, a3); B (sources 4-5) b0, b1 at
/// row `t` (`t + 4` for b1) and column `g`; C and D as for m16n8k16. Every element is
/// the low byte of its source as an s8 (an exact tf32), so the sums are exact.
pub(crate) fn mma_tf32(warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let (mut a, mut b, mut c) = ([[0i64; 8]; 16], [[0i64; 8]; 8], [[0i64; 8]; 16]);
    for (l, s) in warp.iter().enumerate() {
        let (g, t) = (l >> 2, l % 4);
        for i in 0..4 {
            a[if i % 2 == 1 { g + 8 } else { g }][if i >= 2 { t + 4 } else { t }] = sx(s[i], 8);
        }
        for i in 0..2 {
            b[if i == 1 { t + 4 } else { t }][g] = sx(s[4 + i], 8);
        }
        for i in 0..4 {
            c[if i < 2 { g } else { g + 8 }][2 * t + (i & 1)] = sx(s[6 + i], 8);
        }
    }
    let (g, t, j) = (lane >> 2, lane % 4, j as usize);
    let (row, col) = (if j < 2 { g } else { g + 8 }, 2 * t + (j & 1));
    let d = (0..8).map(|k| a[row][k] * b[k][col]).sum::<i64>() + c[row][col];
    bits32(d as f32)
}

/// `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16` (PTX ISA 9.7.14.5.15):
/// row `r` of matrix `m` is the eight 16-bit elements at the address lane `8m + r`
/// gives (here its thread's 16 bytes of shared memory, two words). Destination `m` of
/// lane (`g`, `t`) holds elements (`g`, `2t`) and (`g`, `2t + 1`) of matrix `m`, the
/// first in the low half; `.trans` loads the matrix transposed, elements (`2t`, `g`)
/// and (`2t + 1`, `g`).
pub(crate) fn ldmatrix(warp: &[Vec<u64>], lane: usize, m: u64, trans: bool) -> u64 {
    let elem = |row: usize, col: usize| (warp[8 * m as usize + row][col / 4] >> (16 * (col % 4))) & 0xffff;
    let (g, t) = (lane >> 2, lane % 4);
    if trans { elem(2 * t, g) | elem(2 * t + 1, g) << 16 } else { elem(g, 2 * t) | elem(g, 2 * t + 1) << 16 }
}

/// `cp.async` of `size` bytes (PTX ISA 9.7.9.25.3.1) into the shared word `old` from
/// the global word `from`: the first `src_size` bytes come from global memory, the
/// rest of the `size` bytes are zeros, and the bytes past `size` keep their value.
/// `first` is where this word starts in the copy (8 for the second word of a 16-byte
/// one).
pub(crate) fn cp_async(old: u64, from: u64, size: u64, src_size: u64, first: u64) -> u64 {
    let bytes = |n: u64| if n >= 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
    let (copy, zero) = (src_size.min(size).saturating_sub(first), size.saturating_sub(first));
    (old & !bytes(zero)) | (from & bytes(copy))
}

/// The value `brx.idx` form's target `j` writes: each of the four targets writes its
/// own constant, from the immediate.
pub(crate) fn brx_value(imm: u64, j: u64) -> u64 {
    (imm ^ (0x1357_9bdf * (j + 1))) & 0xffff_ffff
}

/// The module's functions, which the call forms use: `fadd` takes and returns `.reg`
/// parameters; `fmix` and `fsub` take and return `.param` ones (`fsub` calls `fadd`)
/// and share the prototype of the indirect call.
pub(crate) const FUNCS: &str = "\
.func (.reg .b32 r) fadd(.reg .b32 a, .reg .b32 b)\n{\n\tadd.s32 r, a, b;\n\tret;\n}\n\n\
.func (.param .b32 r) fmix(.param .b32 a, .param .b32 b)\n{\n\t.reg .b32 %x<3>;\n\tld.param.b32 %x0, [a];\n\tld.param.b32 %x1, [b];\n\
\txor.b32 %x2, %x0, %x1;\n\tshl.b32 %x2, %x2, 3;\n\tst.param.b32 [r], %x2;\n\tret;\n}\n\n\
.func (.param .b32 r) fsub(.param .b32 a, .param .b32 b)\n{\n\t.reg .b32 %x<3>;\n\tld.param.b32 %x0, [a];\n\tld.param.b32 %x1, [b];\n\
\tneg.s32 %x1, %x1;\n\tcall (%x2), fadd, (%x0, %x1);\n\tst.param.b32 [r], %x2;\n\tret;\n}\n\n";

/// `fmix` and `fsub` of [`FUNCS`].
pub(crate) fn fmix(a: u64, b: u64) -> u64 {
    ((a ^ b) << 3) & 0xffff_ffff
}

pub(crate) fn fsub(a: u64, b: u64) -> u64 {
    a.wrapping_sub(b) & 0xffff_ffff
}

/// The `wmma` forms (PTX ISA 9.7.14.4), on the warp's 1,024 bytes of shared memory
/// (its threads' 32 bytes each, in order). CUDA leaves the map of matrix elements into
/// fragments to the implementation, so only what does not depend on it is drawn: a
/// load and a store in different layouts (kind 0: a 16x16 f32 matrix loaded by rows
/// and stored by columns, so transposed; kind 1: the first 512 bytes as a 16x16 f16
/// matrix, loaded by columns and stored by rows), and (kind 2) `D = A * B + C` with A
/// the first 512 bytes as f16 by rows, B the next 512 as f16 by columns, C the whole
/// region as f32 by rows, each fragment register first masked to a small value by the
/// same operation on every element (see [`wmma_a`], [`wmma_c`]) so that the sums are
/// exact; D is stored by rows over the region. The result is word `j` of the
/// thread's four.
pub(crate) fn wmma_ref(kind: u64, warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let bytes: Vec<u8> = warp.iter().flat_map(|w| w.iter().flat_map(|v| v.to_le_bytes())).collect();
    let half = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let mut out = bytes.clone();
    for i in 0..16 {
        for k in 0..16 {
            match kind {
                0 => out[4 * (k * 16 + i)..][..4].copy_from_slice(&word(4 * (i * 16 + k)).to_le_bytes()),
                1 => out[2 * (i * 16 + k)..][..2].copy_from_slice(&half(2 * (k * 16 + i)).to_le_bytes()),
                _ => {
                    let a = |i: usize, k: usize| wmma_a(half(2 * (i * 16 + k)));
                    let b = |k: usize, j: usize| wmma_a(half(512 + 2 * (j * 16 + k)));
                    let d = (0..16).map(|m| a(i, m) * b(m, k)).sum::<f64>() + wmma_c(word(4 * (i * 16 + k)));
                    out[4 * (i * 16 + k)..][..4].copy_from_slice(&(d as f32).to_bits().to_le_bytes());
                }
            }
        }
    }
    let at = 32 * lane + 8 * j as usize;
    u64::from_le_bytes(out[at..at + 8].try_into().unwrap())
}

/// An A or B element after the mask `and.b32 0x83008300; or.b32 0x3c003c00` on its
/// f16x2 register: the sign, exponent 0 and two mantissa bits, ±(1 + m/4).
pub(crate) fn wmma_a(h: u16) -> f64 {
    let v = 1.0 + f64::from((h >> 8) & 3) / 4.0;
    if h & 0x8000 != 0 { -v } else { v }
}

/// A C element after `and.b32 0x80700000; or.b32 0x41000000` on its f32 register:
/// ±(8 + m), m in 0..8.
pub(crate) fn wmma_c(v: u32) -> f64 {
    let x = 8.0 + f64::from((v >> 20) & 7);
    if v & 0x8000_0000 != 0 { -x } else { x }
}

/// The code of a `wmma` form of [`wmma_ref`]'s `kind`: the warp's base address into
/// %a3, then the loads, masks, product and store on %wf0 ... %wf23.
pub(crate) fn wmma_text(kind: u64) -> String {
    let regs = |from: usize, n: usize| {
        let r: Vec<String> = (from..from + n).map(|k| format!("%wf{k}")).collect();
        format!("{{{}}}", r.join(", "))
    };
    let mut s = String::from(
        "\tshr.u32 %t1, %t0, 5;\n\tmul.wide.u32 %a2, %t1, 1024;\n\tmov.u64 %a3, sh;\n\tadd.s64 %a3, %a3, %a2;\n",
    );
    let w = "sync.aligned";
    match kind {
        0 => {
            s += &format!("\twmma.load.c.{w}.row.m16n16k16.shared.f32 {}, [%a3];\n", regs(0, 8));
            s += &format!("\twmma.store.d.{w}.col.m16n16k16.shared.f32 [%a3], {};\n", regs(0, 8));
        }
        1 => {
            s += &format!("\twmma.load.c.{w}.col.m16n16k16.shared.f16 {}, [%a3];\n", regs(0, 4));
            s += &format!("\twmma.store.d.{w}.row.m16n16k16.shared.f16 [%a3], {};\n", regs(0, 4));
        }
        _ => {
            s += &format!("\twmma.load.a.{w}.row.m16n16k16.shared.f16 {}, [%a3];\n", regs(0, 8));
            s += &format!("\twmma.load.b.{w}.col.m16n16k16.shared.f16 {}, [%a3+512];\n", regs(8, 8));
            s += &format!("\twmma.load.c.{w}.row.m16n16k16.shared.f32 {}, [%a3];\n", regs(16, 8));
            for k in 0..24 {
                let (and, or) =
                    if k < 16 { ("0x83008300", "0x3c003c00") } else { ("0x80700000", "0x41000000") };
                s += &format!("\tand.b32 %wf{k}, %wf{k}, {and};\n\tor.b32 %wf{k}, %wf{k}, {or};\n");
            }
            s += &format!(
                "\twmma.mma.{w}.row.col.m16n16k16.f32.f32 {}, {}, {}, {};\n",
                regs(16, 8),
                regs(0, 8),
                regs(8, 8),
                regs(16, 8)
            );
            s += &format!("\twmma.store.d.{w}.row.m16n16k16.shared.f32 [%a3], {};\n", regs(16, 8));
        }
    }
    s
}

/// The mbarrier form (PTX ISA 9.7.13.15): `mbarrier.init` of the thread's own word with
/// an expected count `c` of 1 to 3, `n` arrivals in one `mbarrier.arrive` with a count
/// (none when `n` is 0; at most `c`: more than the pending count is undefined), then
/// whether the phase of parity 0 has completed: `mbarrier.test_wait.parity`, or the
/// blocking `try_wait.parity` when it has; then `mbarrier.inval`. The immediate holds
/// `c - 1`, then `n`, then whether to use `try_wait`. The word's contents are the
/// implementation's.
pub(crate) fn mbar_parts(imm: u64) -> (u64, u64, bool) {
    let c = imm % 3 + 1;
    let n = (imm / 3) % 4 % (c + 1);
    (c, n, imm / 12 % 2 == 1 && n == c)
}

/// `setp` and `set` with a boolean operation (PTX ISA 9.7.6.1, 9.7.6.2): `op` 0 and, 1
/// or, 2 xor of the comparison `t` (or, for the second destination `j` 1, of `!t`) with
/// the predicate `c`.
pub(crate) fn combine(op: u8, t: bool, c: u64, j: u64) -> u64 {
    let (t, c) = (t != (j == 1), c & 1 == 1);
    u64::from(match op {
        0 => t && c,
        1 => t || c,
        _ => t != c,
    })
}

/// The `b` and `c` operands of a `shfl` form with immediates: `b` below 32, and `c`
/// with a clamp value in bits 0-4 and a segment mask in bits 8-12.
pub(crate) fn shfl_bc(imm: u64) -> (u64, u64) {
    (imm % 32, ((imm / 32) % 32) | ((imm / 1024 % 32) << 8))
}

/// `shfl.sync` with a full member mask (PTX ISA 9.7.9.6, shfl.sync), step by step as
/// its semantics write it: `mode` 0 `.up`, 1 `.down`, 2 `.bfly`, 3 `.idx`; lane
/// `lane`'s `d` (`j` 0) or `p` (`j` 1), from the warp's sources `a` and the lane's own
/// `b` and `c`.
pub(crate) fn shfl(mode: u8, warp: &[Vec<u64>], lane: usize, j: u64, b: u64, c: u64) -> u64 {
    let lane = lane as i64;
    let (bval, cval, mask) = ((b & 31) as i64, (c & 31) as i64, (c >> 8 & 31) as i64);
    let max_lane = (lane & mask) | (cval & !mask);
    let min_lane = lane & mask;
    let (src, pval) = match mode {
        0 => (lane - bval, lane - bval >= max_lane),
        1 => (lane + bval, lane + bval <= max_lane),
        2 => (lane ^ bval, (lane ^ bval) <= max_lane),
        _ => (min_lane | (bval & !mask), (min_lane | (bval & !mask)) <= max_lane),
    };
    let src = if pval { src } else { lane };
    if j == 1 { u64::from(pval) } else { warp[src as usize][0] & 0xffff_ffff }
}

/// `match.sync` with a full member mask (PTX ISA, match.sync) on the warp's
/// first sources: `.any` gives the lanes whose value equals the lane's own; `.all`
/// gives the member mask (and true) when all values are equal, else 0 (and false).
pub(crate) fn match_sync(all: bool, warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let same = |v: u64| (0..warp.len()).filter(|&l| warp[l][0] == v).fold(0, |m, l| m | 1 << l);
    if !all {
        return same(warp[lane][0]);
    }
    let uniform = warp.iter().all(|s| s[0] == warp[0][0]);
    if j == 1 {
        u64::from(uniform)
    } else if uniform {
        0xffff_ffff
    } else {
        0
    }
}

/// `redux.sync` with a full member mask (PTX ISA, redux.sync): `op` 0 add
/// (modulo 2^32), 1 min, 2 max (of the type's signedness), 3 and, 4 or, 5 xor over
/// the warp's first sources.
pub(crate) fn redux(op: u8, signed: bool, warp: &[Vec<u64>]) -> u64 {
    let v = |s: &Vec<u64>| if signed { i64::from(s[0] as u32 as i32) } else { i64::from(s[0] as u32) };
    let r = match op {
        0 => warp.iter().fold(0i64, |a, s| a.wrapping_add(v(s))),
        1 => warp.iter().map(v).min().unwrap_or(0),
        2 => warp.iter().map(v).max().unwrap_or(0),
        3 => warp.iter().fold(-1i64, |a, s| a & v(s)),
        4 => warp.iter().fold(0i64, |a, s| a | v(s)),
        _ => warp.iter().fold(0i64, |a, s| a ^ v(s)),
    };
    r as u64 & 0xffff_ffff
}

/// `vote.sync` with a full member mask (PTX ISA, vote.sync) on the warp's
/// first sources (predicates): `mode` 0 `.all`, 1 `.any`, 2 `.uni`, 3 `.ballot.b32`
/// (bit l is lane l's predicate).
pub(crate) fn vote(mode: u8, warp: &[Vec<u64>]) -> u64 {
    let p = |s: &Vec<u64>| s[0] & 1 == 1;
    match mode {
        0 => u64::from(warp.iter().all(p)),
        1 => u64::from(warp.iter().any(p)),
        2 => u64::from(warp.iter().all(p) || !warp.iter().any(p)),
        _ => warp.iter().enumerate().filter(|(_, s)| p(s)).fold(0, |m, (l, _)| m | 1 << l),
    }
}
