//! The warp-wide matrix instructions: `ldmatrix` and `mma.sync` (PTX ISA 9.7.14.5).
//!
//! Both are `.sync.aligned`: every thread of the warp executes the same instruction
//! together, so ptxvm runs them when the warp's group holds all 32 lanes and reports
//! anything else as the undefined behaviour it is. Each lane holds a fragment; the
//! layouts below are the ISA's ("Matrix Fragments for mma.m16n8k16" and its siblings):
//! `g` is a lane's group (lane / 4) and `t` its place in the group (lane % 4).

use super::warp::{Cta, Fault, Warp};
use crate::lower::program::{Inst, MmaKind, Op};
use crate::sem::matrix::{dot_f32, dot_f64, dot_int};

/// The lanes of a warp.
const FULL: u32 = u32::MAX;

/// Matrix element positions of a 16x8 accumulator fragment (f32 or s32): register `i`
/// of lane (`g`, `t`) holds row `g` (`+8` for i >= 2), column `2t + (i & 1)`.
fn acc16(g: usize, t: usize, i: usize) -> (usize, usize) {
    (if i < 2 { g } else { g + 8 }, 2 * t + (i & 1))
}

impl Cta<'_> {
    /// Runs a warp-wide matrix instruction for the `active` lanes.
    pub(super) fn matrix(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        active: u32,
    ) -> Result<(), Fault> {
        let name = if matches!(inst.op, Op::Ldmatrix { .. }) { "ldmatrix" } else { "mma.sync" };
        if active != FULL {
            let cause = format!(
                "{name}.aligned needs all 32 threads of the warp executing it together; lanes {:#010x} do \
                 not (undefined behaviour)",
                !active
            );
            return Err(self.fault(n, warp, active, inst, cause));
        }
        let read = |w: &Warp, s, lane: usize| super::lane::read(w, s, lane);
        match &inst.op {
            Op::Ldmatrix { count, trans, dsts, mem, addr, offset } => {
                // elem[m][row][col]: 16-bit elements; row r of matrix m is at the address
                // that lane 8m + r gives.
                let mut elem = [[[0u64; 8]; 8]; 4];
                for (m, matrix) in elem.iter_mut().enumerate().take(usize::from(*count)) {
                    for (r, row) in matrix.iter_mut().enumerate() {
                        let lane = 8 * m + r;
                        let a = read(warp, *addr, lane).wrapping_add(*offset as u64);
                        for (c, e) in row.iter_mut().enumerate() {
                            *e = self
                                .load(warp, shared, *mem, a.wrapping_add(2 * c as u64), 2, lane)
                                .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                        }
                    }
                }
                for lane in 0..32 {
                    let (g, t) = (lane / 4, lane % 4);
                    for m in 0..usize::from(*count) {
                        let (lo, hi) = if *trans {
                            (elem[m][2 * t][g], elem[m][2 * t + 1][g])
                        } else {
                            (elem[m][g][2 * t], elem[m][g][2 * t + 1])
                        };
                        super::lane::write(warp, dsts[m], lane, lo | hi << 16);
                    }
                }
            }
            Op::Mma(mma) => {
                let regs = |srcs: &[crate::lower::program::Src]| -> Vec<Vec<u64>> {
                    (0..32).map(|lane| srcs.iter().map(|s| read(warp, *s, lane)).collect()).collect()
                };
                let (a, b, c) = (regs(&mma.a), regs(&mma.b), regs(&mma.c));
                let d = match mma.kind {
                    MmaKind::Half { bf16 } => half_mma(&a, &b, &c, bf16),
                    MmaKind::Tf32 => tf32_mma(&a, &b, &c),
                    MmaKind::Int8 { a_signed, b_signed, satfinite } => {
                        int8_mma(&a, &b, &c, a_signed, b_signed, satfinite)
                    }
                    MmaKind::F64 => f64_mma(&a, &b, &c),
                };
                for (lane, values) in d.iter().enumerate() {
                    for (slot, v) in mma.d.iter().zip(values) {
                        super::lane::write(warp, *slot, lane, *v);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The f32 accumulator fragment of every lane into a 16x8 matrix.
fn c_matrix(c: &[Vec<u64>]) -> [[f32; 8]; 16] {
    let mut m = [[0f32; 8]; 16];
    for (lane, regs) in c.iter().enumerate() {
        for (i, r) in regs.iter().enumerate() {
            let (row, col) = acc16(lane / 4, lane % 4, i);
            m[row][col] = f32::from_bits(*r as u32);
        }
    }
    m
}

/// `D` of a 16x8 f32 result, as each lane's four registers.
fn d_fragments(d: impl Fn(usize, usize) -> u64) -> Vec<Vec<u64>> {
    (0..32)
        .map(|lane| {
            (0..4)
                .map(|i| {
                    let (r, c) = acc16(lane / 4, lane % 4, i);
                    d(r, c)
                })
                .collect()
        })
        .collect()
}

/// `m16n8k16.f32.{f16,bf16}`: A is 16x16, B 16x8, two halves per register.
fn half_mma(a: &[Vec<u64>], b: &[Vec<u64>], c: &[Vec<u64>], bf16: bool) -> Vec<Vec<u64>> {
    let value = |h: u64| -> f32 {
        if bf16 {
            f32::from_bits((h as u32 & 0xffff) << 16)
        } else {
            crate::sem::cvt::widen(crate::sem::round::F16, h & 0xffff) as f32
        }
    };
    let mut am = [[0f32; 16]; 16];
    let mut bm = [[0f32; 8]; 16];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..8 {
            let row = if i < 2 || (4..6).contains(&i) { g } else { g + 8 };
            let col = 2 * t + (i & 1) + if i >= 4 { 8 } else { 0 };
            am[row][col] = value(a[lane][i / 2] >> (16 * (i & 1)));
        }
        for i in 0..4 {
            let row = 2 * t + (i & 1) + if i >= 2 { 8 } else { 0 };
            bm[row][g] = value(b[lane][i / 2] >> (16 * (i & 1)));
        }
    }
    let cm = c_matrix(c);
    d_fragments(|r, col| {
        let column: Vec<f32> = (0..16).map(|k| bm[k][col]).collect();
        u64::from(dot_f32(&am[r], &column, cm[r][col]).to_bits())
    })
}

/// `m16n8k8.f32.tf32`: A is 16x8, B 8x8, one tf32 per register (the low 13 bits of
/// the f32 are not read).
fn tf32_mma(a: &[Vec<u64>], b: &[Vec<u64>], c: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let value = |r: u64| f32::from_bits(r as u32 & 0xffff_e000);
    let mut am = [[0f32; 8]; 16];
    let mut bm = [[0f32; 8]; 8];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for (i, (row, col)) in [(g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)].into_iter().enumerate() {
            am[row][col] = value(a[lane][i]);
        }
        bm[t][g] = value(b[lane][0]);
        bm[t + 4][g] = value(b[lane][1]);
    }
    let cm = c_matrix(c);
    d_fragments(|r, col| {
        let column: Vec<f32> = (0..8).map(|k| bm[k][col]).collect();
        u64::from(dot_f32(&am[r], &column, cm[r][col]).to_bits())
    })
}

/// `m16n8k32.s32.{s8,u8}`: A is 16x32, B 32x8, four bytes per register.
fn int8_mma(
    a: &[Vec<u64>],
    b: &[Vec<u64>],
    c: &[Vec<u64>],
    a_signed: bool,
    b_signed: bool,
    sat: bool,
) -> Vec<Vec<u64>> {
    let byte = |r: u64, k: usize, signed: bool| {
        let v = (r >> (8 * k)) as u8;
        if signed { i64::from(v as i8) } else { i64::from(v) }
    };
    let mut am = [[0i64; 32]; 16];
    let mut bm = [[0i64; 8]; 32];
    let mut cm = [[0i64; 8]; 16];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..16 {
            let row = if i < 4 || (8..12).contains(&i) { g } else { g + 8 };
            let col = 4 * t + (i & 3) + if i >= 8 { 16 } else { 0 };
            am[row][col] = byte(a[lane][i / 4], i % 4, a_signed);
        }
        for i in 0..8 {
            let row = 4 * t + (i & 3) + if i >= 4 { 16 } else { 0 };
            bm[row][g] = byte(b[lane][i / 4], i % 4, b_signed);
        }
        for (i, &v) in c[lane].iter().enumerate() {
            let (row, col) = acc16(g, t, i);
            cm[row][col] = i64::from(v as u32 as i32);
        }
    }
    d_fragments(|r, col| {
        let column: Vec<i64> = (0..32).map(|k| bm[k][col]).collect();
        u64::from(dot_int(&am[r], &column, cm[r][col], sat))
    })
}

/// `m8n8k4.f64`: A is 8x4, B 4x8, C and D 8x8, one f64 per register.
fn f64_mma(a: &[Vec<u64>], b: &[Vec<u64>], c: &[Vec<u64>]) -> Vec<Vec<u64>> {
    let mut am = [[0f64; 4]; 8];
    let mut bm = [[0f64; 8]; 4];
    let mut cm = [[0f64; 8]; 8];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        am[g][t] = f64::from_bits(a[lane][0]);
        bm[t][g] = f64::from_bits(b[lane][0]);
        cm[g][2 * t] = f64::from_bits(c[lane][0]);
        cm[g][2 * t + 1] = f64::from_bits(c[lane][1]);
    }
    (0..32)
        .map(|lane| {
            let (g, t) = (lane / 4, lane % 4);
            (0..2)
                .map(|i| {
                    let col = 2 * t + i;
                    let column: Vec<f64> = (0..4).map(|k| bm[k][col]).collect();
                    dot_f64(&am[g], &column, cm[g][col]).to_bits()
                })
                .collect()
        })
        .collect()
}
