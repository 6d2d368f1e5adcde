//! `mma.sp` (PTX ISA 9.7.14.6): a warp-wide `D = A * B + C` whose A is 2:4 sparse
//! (`.tf32`: 1:2). A's registers hold the compressed 16 x K/2 matrix in the fragment
//! of the dense shape with half its K; each group of four elements of a row of A
//! (two for `.tf32`) keeps two (one), placed by a 4-bit field of metadata: the low two
//! bits give the position of the group's first stored element, the next two its
//! second's (`.tf32`: 0b0100 puts it first, 0b1110 second). Fields go up in K from a
//! register's low bits.
//!
//! The threads that hold metadata are those the sparsity selector names (lane (g, t)
//! = (lane / 4, lane % 4)), for rows g and g + 8:
//! - 4 fields a row (f16/bf16 k16, tf32 k8): thread t = selector; bits 0..16 row g,
//!   16..32 row g + 8;
//! - 8 fields a row, 16-bit and tf32 types (f16/bf16 k32, tf32 k16): threads t =
//!   2 selector + h, h the half of K; bits 0..16 row g, 16..32 row g + 8;
//! - 8 fields a row, 8-bit types (k32): threads t = 2 selector + h, h the row (g, g
//!   + 8); all 32 bits;
//! - 16 fields a row (k64): all four, t = h + 2 q for row half h and K half q.
//!
//! This is how CUTLASS's CuTe metadata layouts and MLIR's sparse mma test (whose
//! expected output came from a GPU) read the ISA's figures. A metadata group whose
//! two indices are equal, or (`::ordered_metadata`) descend, and a selector outside
//! the ISA's set are undefined behaviour, reported. The products a group keeps are
//! summed as dense `mma` sums its own (`sem/matrix.rs`); the elements it drops are
//! not read, and neither are the rows of B they would meet.

use crate::lower::program::{MmaKind, Sparse};
use crate::sem::cvt::{float_to_float, fp8_to_f16, widen};
use crate::sem::matrix::{dot_f32, dot_int};
use crate::sem::round::{self, Rnd};

/// Every lane's registers of one fragment.
pub type Frags = [[u64; 4]; 32];

/// Bits of an element of A and B.
fn bits(kind: MmaKind) -> usize {
    match kind {
        MmaKind::Half { .. } => 16,
        MmaKind::Tf32 => 32,
        _ => 8,
    }
}

/// The metadata field of row `row`, group `grp`, from each lane's `e`, for elements
/// of `bits` bits, a K of `k` and selector `sel`.
fn field(bits: usize, k: usize, sel: usize, e: &[u64; 32], row: usize, grp: usize) -> u64 {
    let (g, hi) = (row % 8, row >= 8);
    let per_row = k / if bits == 32 { 2 } else { 4 };
    let (lane, at) = match (per_row, bits) {
        (4, _) => (4 * g + sel, 4 * grp + if hi { 16 } else { 0 }),
        (8, 16 | 32) => (4 * g + 2 * sel + grp / 4, 4 * (grp % 4) + if hi { 16 } else { 0 }),
        (8, _) => (4 * g + 2 * sel + usize::from(hi), 4 * grp),
        _ => (4 * g + usize::from(hi) + 2 * (grp / 8), 4 * (grp % 8)),
    };
    e[lane] >> at & 0xf
}

/// The elements each of 16 rows of a sparse A keeps, with the K each meets: the
/// compressed A's element (`a(row, column)`, `bits` bits) placed by the metadata in
/// `e` (K `k`, selector `sel`; `ordered`: `::ordered_metadata`), or why the
/// metadata is undefined.
pub fn kept(
    bits: usize,
    k: usize,
    sel: u8,
    ordered: bool,
    e: &[u64; 32],
    a: impl Fn(usize, usize) -> u64,
) -> Result<Vec<Vec<(u64, usize)>>, String> {
    let per_row = k / if bits == 32 { 2 } else { 4 };
    if per_row == 8 && sel > 1 {
        return Err(format!(
            "the sparsity selector {sel} is not 0 or 1, the pairs of threads that can hold this shape's metadata \
             (undefined behaviour)"
        ));
    }
    let mut kept: Vec<Vec<(u64, usize)>> = vec![Vec::new(); 16];
    for (row, kept) in kept.iter_mut().enumerate() {
        for grp in 0..per_row {
            let f = field(bits, k, usize::from(sel), e, row, grp);
            let bad = |why: &str| {
                Err(format!(
                    "the sparsity metadata {f:#06b} of row {row}, elements {}..{} of A {why} (undefined behaviour)",
                    grp * k / per_row,
                    (grp + 1) * k / per_row
                ))
            };
            if bits == 32 {
                let at = match f {
                    0b0100 => 0,
                    0b1110 => 1,
                    _ => return bad("is neither 0b0100 nor 0b1110, the two a .tf32 group may have"),
                };
                kept.push((a(row, grp), 2 * grp + at));
                continue;
            }
            let (i0, i1) = ((f & 3) as usize, (f >> 2) as usize);
            if i0 == i1 {
                return bad("places both of its group's elements at the same position");
            }
            if ordered && i0 > i1 {
                return bad(
                    "gives its group's positions in descending order, which ::ordered_metadata forbids",
                );
            }
            kept.push((a(row, 2 * grp), 4 * grp + i0));
            kept.push((a(row, 2 * grp + 1), 4 * grp + i1));
        }
    }
    Ok(kept)
}

/// Where lane (`g`, `t`)'s register `r`, element `j` (of 32 / bits) of a fragment of A
/// (the compressed 16 x K/2 matrix) lies: its row and column.
fn a_place(bits: usize, g: usize, t: usize, r: usize, j: usize) -> (usize, usize) {
    let per = 32 / bits;
    (g + 8 * (r & 1), per * t + j + 4 * per * (r >> 1))
}

/// The row of B (its K) of lane (`g`, `t`)'s register `r`, element `j`; the column is g.
fn b_row(bits: usize, t: usize, r: usize, j: usize) -> usize {
    let per = 32 / bits;
    per * t + j + 4 * per * r
}

/// `D` of `mma.sp` from every lane's A, B, C and metadata registers, or why the
/// instruction is undefined.
pub fn mma_sp(
    kind: MmaKind,
    sp: &Sparse,
    a: &Frags,
    b: &Frags,
    c: &Frags,
    e: &[u64; 32],
) -> Result<Frags, String> {
    let bits = bits(kind);
    let k = usize::from(sp.k);
    let mask = if bits == 32 { u64::MAX } else { (1 << bits) - 1 };
    let nregs = |n_bits: usize| n_bits / 1024;
    // The compressed A and B (B[k][col]) as raw elements.
    let mut am = vec![vec![0u64; k / 2]; 16];
    let mut bm = vec![vec![0u64; 8]; k];
    for (lane, (a, b)) in a.iter().zip(b).enumerate() {
        let (g, t) = (lane / 4, lane % 4);
        for (r, reg) in a.iter().enumerate().take(nregs(k * bits / 2 * 16)) {
            for j in 0..32 / bits {
                let (row, col) = a_place(bits, g, t, r, j);
                am[row][col] = reg >> (bits * j) & mask;
            }
        }
        for (r, reg) in b.iter().enumerate().take(nregs(k * bits * 8)) {
            for j in 0..32 / bits {
                bm[b_row(bits, t, r, j)][g] = reg >> (bits * j) & mask;
            }
        }
    }
    let kept = kept(bits, k, sp.selector, sp.ordered, e, |row, col| am[row][col])?;
    // C and D: row g (+ 8 for registers 2 and 3), column 2t + (i & 1); with f16
    // accumulators two halves in each of two registers.
    let acc16 = matches!(kind, MmaKind::Half { acc16: true, .. });
    let c_elem =
        |lane: usize, i: usize| if acc16 { c[lane][i / 2] >> (16 * (i & 1)) & 0xffff } else { c[lane][i] };
    // Each element's value once: A's kept ones by row, B's by K and column.
    let value = |v: u64, which: usize| -> f32 {
        match kind {
            MmaKind::Half { bf16, .. } => widen(if bf16 { round::BF16 } else { round::F16 }, v) as f32,
            MmaKind::Tf32 => f32::from_bits(v as u32 & 0xffff_e000),
            MmaKind::Fp8 { a, b } => {
                widen(round::F16, fp8_to_f16(if which == 0 { a } else { b }, v as u8)) as f32
            }
            _ => 0.0,
        }
    };
    let int = |v: u64, signed: bool| if signed { i64::from(v as u8 as i8) } else { v as i64 };
    let (a_signed, b_signed) = match kind {
        MmaKind::Int8 { a_signed, b_signed, .. } => (a_signed, b_signed),
        _ => (false, false),
    };
    let a_f: Vec<Vec<f32>> = kept.iter().map(|ks| ks.iter().map(|&(x, _)| value(x, 0)).collect()).collect();
    let a_i: Vec<Vec<i64>> =
        kept.iter().map(|ks| ks.iter().map(|&(x, _)| int(x, a_signed)).collect()).collect();
    let b_f: Vec<Vec<f32>> = bm.iter().map(|row| row.iter().map(|&x| value(x, 1)).collect()).collect();
    let b_i: Vec<Vec<i64>> = bm.iter().map(|row| row.iter().map(|&x| int(x, b_signed)).collect()).collect();
    let mut d = [[0u64; 4]; 32];
    for (lane, regs) in d.iter_mut().enumerate() {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..4 {
            let (row, col) = (g + if i >= 2 { 8 } else { 0 }, 2 * t + (i & 1));
            let ks = &kept[row];
            let v = match kind {
                MmaKind::Int8 { satfinite, .. } => {
                    let bv: Vec<i64> = ks.iter().map(|&(_, kk)| b_i[kk][col]).collect();
                    u64::from(dot_int(&a_i[row], &bv, i64::from(c_elem(lane, i) as u32 as i32), satfinite))
                }
                _ => {
                    let bv: Vec<f32> = ks.iter().map(|&(_, kk)| b_f[kk][col]).collect();
                    let c0 = if acc16 {
                        widen(round::F16, c_elem(lane, i)) as f32
                    } else {
                        f32::from_bits(c_elem(lane, i) as u32)
                    };
                    let sum = u64::from(dot_f32(&a_f[row], &bv, c0).to_bits());
                    if acc16 {
                        float_to_float(round::F16, round::F32, Rnd::Rn, false, false, sum)
                    } else {
                        sum
                    }
                }
            };
            if acc16 {
                regs[i / 2] |= v << (16 * (i & 1));
            } else {
                regs[i] = v;
            }
        }
    }
    Ok(d)
}
