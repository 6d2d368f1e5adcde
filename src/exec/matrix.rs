//! The warp-wide matrix instructions: `ldmatrix`, `stmatrix` and `mma.sync` (PTX ISA 9.7.14.5),
//! and the entry of `wmma` (9.7.14.4, `wmma.rs`).
//!
//! Both are `.sync.aligned`: every thread of the warp executes the same instruction
//! together, so ptxvm runs them when the warp's group holds all 32 lanes and reports
//! anything else as the undefined behaviour it is. Each lane holds a fragment; the
//! layouts below are the ISA's ("Matrix Fragments for mma.m16n8k16" and its siblings):
//! `g` is a lane's group (lane / 4) and `t` its place in the group (lane % 4).

use super::warp::{Cta, Fault, Warp};
use crate::lower::program::Rnd;
use crate::lower::program::Src;
use crate::lower::program::{Inst, MmaKind, Op};
use crate::sem::cvt::{float_to_float, widen};
use crate::sem::matrix::{dot_f32, dot_f64, dot_int};
use crate::sem::round;

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
        use crate::lower::program::{Wgmma, Wmma};
        let name = match &inst.op {
            Op::Ldmatrix { .. } => "ldmatrix",
            Op::Stmatrix { .. } => "stmatrix",
            Op::Wmma(w) => match **w {
                Wmma::Load { .. } => "wmma.load.sync",
                Wmma::Store { .. } => "wmma.store.sync",
                Wmma::Mma { .. } => "wmma.mma.sync",
            },
            Op::Wgmma(w) => match w {
                Wgmma::Fence => "wgmma.fence.sync",
                Wgmma::Commit => "wgmma.commit_group.sync",
                Wgmma::Wait(_) => "wgmma.wait_group.sync",
                Wgmma::Mma(_) => "wgmma.mma_async.sync",
            },
            _ => "mma.sync",
        };
        if active != FULL {
            let cause = format!(
                "{name}.aligned needs all 32 threads of the warp executing it together; lanes {:#010x} do \
                 not (undefined behaviour)",
                !active
            );
            return Err(self.fault(n, warp, active, inst, cause));
        }
        use super::lane::read;
        match &inst.op {
            Op::Ldmatrix { count, trans, dsts, mem, addr, offset } => {
                // elem[m][row][col]: 16-bit elements; row r of matrix m is at the address
                // that lane 8m + r gives.
                let mut elem = [[[0u64; 8]; 8]; 4];
                for (m, matrix) in elem.iter_mut().enumerate().take(usize::from(*count)) {
                    for (r, row) in matrix.iter_mut().enumerate() {
                        let lane = 8 * m + r;
                        let a = super::lane::address(warp, *addr, *offset, lane);
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
            Op::Stmatrix { count, trans, srcs, mem, addr, offset } => {
                // The inverse of ldmatrix: lane (g, t) holds row g, columns 2t and 2t + 1
                // of each matrix (row 2t and 2t + 1 of column g with .trans).
                let mut elem = [[[0u64; 8]; 8]; 4];
                for lane in 0..32 {
                    let (g, t) = (lane / 4, lane % 4);
                    for (m, src) in srcs.iter().enumerate().take(usize::from(*count)) {
                        let v = read(warp, *src, lane);
                        for (j, half) in [v & 0xffff, v >> 16 & 0xffff].into_iter().enumerate() {
                            let (row, col) = if *trans { (2 * t + j, g) } else { (g, 2 * t + j) };
                            elem[m][row][col] = half;
                        }
                    }
                }
                for (m, matrix) in elem.iter().enumerate().take(usize::from(*count)) {
                    for (r, row) in matrix.iter().enumerate() {
                        let lane = 8 * m + r;
                        let a = super::lane::address(warp, *addr, *offset, lane);
                        if !matches!(self.target(warp, *mem, a), super::lane::Target::Shared(_)) {
                            let cause = format!(
                                "stmatrix: lane {lane} gives the address {a:#x}, which is not in shared memory \
                                 (undefined behaviour)"
                            );
                            return Err(self.fault(n, warp, 1 << lane, inst, cause));
                        }
                        for (c, e) in row.iter().enumerate() {
                            self.store(warp, shared, *mem, a.wrapping_add(2 * c as u64), 2, *e, lane)
                                .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                        }
                    }
                }
            }
            Op::Mma(mma) => {
                // Each lane's registers of a fragment (at most four).
                let regs = |srcs: &[Src]| -> Frags {
                    let mut f = [[0u64; 4]; 32];
                    for (lane, regs) in f.iter_mut().enumerate() {
                        for (r, s) in regs.iter_mut().zip(srcs) {
                            *r = read(warp, *s, lane);
                        }
                    }
                    f
                };
                let (a, b, c) = (regs(&mma.a), regs(&mma.b), regs(&mma.c));
                let d = match (&mma.sparse, mma.kind) {
                    (Some(sp), kind) => {
                        let e: [u64; 32] = std::array::from_fn(|lane| read(warp, sp.e, lane));
                        super::sparse::mma_sp(kind, sp, &a, &b, &c, &e)
                            .map_err(|cause| self.fault(n, warp, active, inst, format!("mma.sp: {cause}")))?
                    }
                    (None, MmaKind::Half { bf16, acc16 }) => half_mma(&a, &b, &c, bf16, acc16),
                    (None, MmaKind::Tf32) => tf32_mma(&a, &b, &c),
                    (None, MmaKind::Int8 { a_signed, b_signed, satfinite }) => {
                        int8_mma(&a, &b, &c, a_signed, b_signed, satfinite)
                    }
                    (None, MmaKind::F64) => f64_mma(&a, &b, &c),
                    // Lowering makes e4m3/e5m2 kinds only for mma.sp.
                    (None, MmaKind::Fp8 { .. }) => {
                        let cause = "mma.sync with e4m3/e5m2 operands is not run yet".to_string();
                        return Err(self.fault(n, warp, active, inst, cause));
                    }
                };
                for (lane, values) in d.iter().enumerate() {
                    for (slot, v) in mma.d.iter().zip(values) {
                        super::lane::write(warp, *slot, lane, *v);
                    }
                }
            }
            Op::Wmma(w) => self.wmma(n, warp, shared, inst, w)?,
            Op::Wgmma(w) => self.wgmma(n, warp, shared, inst, w)?,
            _ => {}
        }
        Ok(())
    }
}

/// Every lane's registers of one fragment.
use super::sparse::Frags;

/// A 16x8 accumulator fragment (f32 or s32) of every lane as a matrix, each register
/// converted by `value`.
fn c_matrix<T: Copy + Default>(c: &Frags, value: impl Fn(u64) -> T) -> [[T; 8]; 16] {
    let mut m = [[T::default(); 8]; 16];
    for (lane, regs) in c.iter().enumerate() {
        for (i, r) in regs.iter().enumerate() {
            let (row, col) = acc16(lane / 4, lane % 4, i);
            m[row][col] = value(*r);
        }
    }
    m
}

/// `D` of a 16x8 result, as each lane's four registers.
fn d_fragments(d: impl Fn(usize, usize) -> u64) -> Frags {
    let mut f = [[0u64; 4]; 32];
    for (lane, regs) in f.iter_mut().enumerate() {
        for (i, r) in regs.iter_mut().enumerate() {
            let (row, col) = acc16(lane / 4, lane % 4, i);
            *r = d(row, col);
        }
    }
    f
}

/// `m16n8k16.f32.{f16,bf16}`: A is 16x16, B 16x8, two halves per register. B is kept
/// transposed (`bt[column][k]`), so a column is a slice. With `acc16` C and D are f16,
/// element `i` of a lane's four in the half `i & 1` of register `i / 2`: C is summed
/// as an f32 one, and the sum rounded to f16 once, to nearest (as `wmma` with f16
/// accumulators).
fn half_mma(a: &Frags, b: &Frags, c: &Frags, bf16: bool, acc16: bool) -> Frags {
    let fmt = if bf16 { round::BF16 } else { round::F16 };
    let value = |h: u64| widen(fmt, h & 0xffff) as f32;
    let mut am = [[0f32; 16]; 16];
    let mut bt = [[0f32; 16]; 8];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..8 {
            let row = if i < 2 || (4..6).contains(&i) { g } else { g + 8 };
            let col = 2 * t + (i & 1) + if i >= 4 { 8 } else { 0 };
            am[row][col] = value(a[lane][i / 2] >> (16 * (i & 1)));
        }
        for i in 0..4 {
            let k = 2 * t + (i & 1) + if i >= 2 { 8 } else { 0 };
            bt[g][k] = value(b[lane][i / 2] >> (16 * (i & 1)));
        }
    }
    if !acc16 {
        let cm = c_matrix(c, |r| f32::from_bits(r as u32));
        return d_fragments(|r, col| u64::from(dot_f32(&am[r], &bt[col], cm[r][col]).to_bits()));
    }
    let halves = |f: &Frags| {
        let mut h = [[0u64; 4]; 32];
        for (lane, regs) in f.iter().enumerate() {
            for (i, e) in h[lane].iter_mut().enumerate() {
                *e = regs[i / 2] >> (16 * (i & 1)) & 0xffff;
            }
        }
        h
    };
    let cm = c_matrix(&halves(c), |h| widen(round::F16, h) as f32);
    let d = d_fragments(|r, col| {
        let sum = u64::from(dot_f32(&am[r], &bt[col], cm[r][col]).to_bits());
        float_to_float(round::F16, round::F32, Rnd::Rn, false, false, sum)
    });
    let mut packed = [[0u64; 4]; 32];
    for (lane, e) in d.iter().enumerate() {
        packed[lane][0] = e[0] | e[1] << 16;
        packed[lane][1] = e[2] | e[3] << 16;
    }
    packed
}

/// `m16n8k8.f32.tf32`: A is 16x8, B 8x8, one tf32 per register (the low 13 bits of
/// the f32 are not read).
fn tf32_mma(a: &Frags, b: &Frags, c: &Frags) -> Frags {
    let value = |r: u64| f32::from_bits(r as u32 & 0xffff_e000);
    let mut am = [[0f32; 8]; 16];
    let mut bt = [[0f32; 8]; 8];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for (i, (row, col)) in [(g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)].into_iter().enumerate() {
            am[row][col] = value(a[lane][i]);
        }
        bt[g][t] = value(b[lane][0]);
        bt[g][t + 4] = value(b[lane][1]);
    }
    let cm = c_matrix(c, |r| f32::from_bits(r as u32));
    d_fragments(|r, col| u64::from(dot_f32(&am[r], &bt[col], cm[r][col]).to_bits()))
}

/// `m16n8k32.s32.{s8,u8}`: A is 16x32, B 32x8, four bytes per register.
fn int8_mma(a: &Frags, b: &Frags, c: &Frags, a_signed: bool, b_signed: bool, sat: bool) -> Frags {
    let byte = |r: u64, k: usize, signed: bool| {
        let v = (r >> (8 * k)) as u8;
        if signed { i64::from(v as i8) } else { i64::from(v) }
    };
    let mut am = [[0i64; 32]; 16];
    let mut bt = [[0i64; 32]; 8];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        for i in 0..16 {
            let row = if i < 4 || (8..12).contains(&i) { g } else { g + 8 };
            let col = 4 * t + (i & 3) + if i >= 8 { 16 } else { 0 };
            am[row][col] = byte(a[lane][i / 4], i % 4, a_signed);
        }
        for i in 0..8 {
            let k = 4 * t + (i & 3) + if i >= 4 { 16 } else { 0 };
            bt[g][k] = byte(b[lane][i / 4], i % 4, b_signed);
        }
    }
    let cm = c_matrix(c, |r| i64::from(r as u32 as i32));
    d_fragments(|r, col| u64::from(dot_int(&am[r], &bt[col], cm[r][col], sat)))
}

/// `m8n8k4.f64`: A is 8x4, B 4x8, C and D 8x8, one f64 per register.
fn f64_mma(a: &Frags, b: &Frags, c: &Frags) -> Frags {
    let mut am = [[0f64; 4]; 8];
    let mut bt = [[0f64; 4]; 8];
    let mut cm = [[0f64; 8]; 8];
    for lane in 0..32 {
        let (g, t) = (lane / 4, lane % 4);
        am[g][t] = f64::from_bits(a[lane][0]);
        bt[g][t] = f64::from_bits(b[lane][0]);
        cm[g][2 * t] = f64::from_bits(c[lane][0]);
        cm[g][2 * t + 1] = f64::from_bits(c[lane][1]);
    }
    let mut d = [[0u64; 4]; 32];
    for (lane, regs) in d.iter_mut().enumerate() {
        let (g, t) = (lane / 4, lane % 4);
        for (i, r) in regs.iter_mut().take(2).enumerate() {
            *r = dot_f64(&am[g], &bt[2 * t + i], cm[g][2 * t + i]).to_bits();
        }
    }
    d
}
