//! The executor's arms for the warp-wide forms of `lower/fast.rs`: each computes all
//! 32 lanes of a register row in one loop, then keeps the result only in the active
//! lanes (a guard is a mask applied at the write), so the loops have no branches and
//! vectorise. Each computes exactly what the general path (`lane.rs` over `sem`)
//! computes.

use super::memory::MemFault;
use super::warp::{Cta, Fault, Regs, Warp, lanes};
use crate::lower::fast::{Fast, I32, I64, R32, R64};
use crate::lower::program::{IMAGE_WINDOW, Inst, Mem};
use crate::sem::cmp::CmpOp;
use crate::sem::float::{F32_CANONICAL_NAN, FOp, f64_nan};

type Row32 = [u32; 32];
type Row64 = [u64; 32];

#[inline(always)]
fn row32(regs: &Regs, a: R32) -> Row32 {
    match a {
        R32::Reg(r) => regs.r32[usize::from(r)],
        R32::Imm(v) => [v; 32],
    }
}

#[inline(always)]
fn row64(regs: &Regs, a: R64) -> Row64 {
    match a {
        R64::Reg(r) => regs.r64[usize::from(r)],
        R64::Imm(v) => [v as i64 as u64; 32],
    }
}

/// A shift amount of a 64-bit shift: a 32-bit row.
#[inline(always)]
fn amount(regs: &Regs, a: R64) -> Row32 {
    match a {
        R64::Reg(r) => regs.r32[usize::from(r)],
        R64::Imm(v) => [v as u32; 32],
    }
}

/// Each lane's bit of a lane mask.
const BIT: Row32 = {
    let mut b = [0u32; 32];
    let mut l = 0;
    while l < 32 {
        b[l] = 1 << l;
        l += 1;
    }
    b
};

/// Writes `v` into the `active` lanes of `row` (a guard applied at the write).
#[inline(always)]
fn blend<T: Copy>(row: &mut [T; 32], v: [T; 32], active: u32) {
    if active == u32::MAX {
        *row = v;
    } else {
        for l in 0..32 {
            row[l] = if active & BIT[l] != 0 { v[l] } else { row[l] };
        }
    }
}

#[inline(always)]
fn put32(regs: &mut Regs, d: u16, v: Row32, active: u32) {
    blend(&mut regs.r32[usize::from(d)], v, active);
}

#[inline(always)]
fn put64(regs: &mut Regs, d: u16, v: Row64, active: u32) {
    blend(&mut regs.r64[usize::from(d)], v, active);
}

#[inline(always)]
fn put_pred(regs: &mut Regs, p: u16, m: u32, active: u32) {
    let row = &mut regs.pred[usize::from(p)];
    *row = (*row & !active) | (m & active);
}

/// An f32 operand row, subnormals flushed under `.ftz`. A function, not a closure:
/// closures called more than once are not inlined into the multiversioned loop.
#[inline(always)]
fn f32_row(regs: &Regs, r: R32, ftz: bool) -> [f32; 32] {
    map1(row32(regs, r), |x| f32::from_bits(flush(x, ftz)), 0.0)
}

/// The addresses of a memory access: register `addr` plus `offset`, in 64 bits, or
/// in 32 bits and zero-extended for a 32-bit register (as `lane::address`).
#[inline(always)]
fn address(regs: &Regs, addr: u16, wide: bool, offset: i32) -> Row64 {
    if wide {
        map1(regs.r64[usize::from(addr)], |a| a.wrapping_add(offset as i64 as u64), 0)
    } else {
        map1(regs.r32[usize::from(addr)], |a| u64::from(a.wrapping_add(offset as u32)), 0)
    }
}

#[inline(always)]
fn map2<T: Copy, U: Copy>(a: [T; 32], b: [T; 32], f: impl Fn(T, T) -> U, zero: U) -> [U; 32] {
    let mut r = [zero; 32];
    for l in 0..32 {
        r[l] = f(a[l], b[l]);
    }
    r
}

#[inline(always)]
fn map1<T: Copy, U: Copy>(a: [T; 32], f: impl Fn(T) -> U, zero: U) -> [U; 32] {
    let mut r = [zero; 32];
    for l in 0..32 {
        r[l] = f(a[l]);
    }
    r
}

#[inline(always)]
fn map3<T: Copy, U: Copy>(a: [T; 32], b: [T; 32], c: [T; 32], f: impl Fn(T, T, T) -> U, zero: U) -> [U; 32] {
    let mut r = [zero; 32];
    for l in 0..32 {
        r[l] = f(a[l], b[l], c[l]);
    }
    r
}

#[inline(always)]
fn mask_of<T: Copy>(a: [T; 32], b: [T; 32], f: impl Fn(T, T) -> bool) -> u32 {
    let mut m = 0u32;
    for l in 0..32 {
        m |= if f(a[l], b[l]) { BIT[l] } else { 0 };
    }
    m
}

/// A subnormal f32 (by bits) flushed to zero of its sign, for `.ftz`.
#[inline(always)]
fn flush(bits: u32, ftz: bool) -> u32 {
    if ftz && bits & 0x7f80_0000 == 0 { bits & 0x8000_0000 } else { bits }
}

/// An f32 result: NaN as the canonical NaN, flushed under `.ftz`.
#[inline(always)]
fn finish(v: f32, ftz: bool) -> u32 {
    if v.is_nan() { F32_CANONICAL_NAN } else { flush(v.to_bits(), ftz) }
}

/// An f64 result: a NaN comes from the operands' NaNs (`sem::float::f64_nan`).
#[inline(always)]
fn finish64(v: f64, ops: &[u64]) -> u64 {
    if v.is_nan() { f64_nan(ops) } else { v.to_bits() }
}

/// Integer comparison of a setp on one lane's values, by CmpOp (ISA 9.7.6.1).
#[inline(always)]
fn int_cmp<T: Ord, S: Ord>(op: CmpOp, x: T, y: T, sx: S, sy: S, signed: bool) -> bool {
    use CmpOp::*;
    match op {
        Eq => x == y,
        Ne => x != y,
        Lo => x < y,
        Ls => x <= y,
        Hi => x > y,
        Hs => x >= y,
        Lt if signed => sx < sy,
        Le if signed => sx <= sy,
        Gt if signed => sx > sy,
        Ge if signed => sx >= sy,
        Lt => x < y,
        Le => x <= y,
        Gt => x > y,
        Ge => x >= y,
        // Float-only comparisons never reach an integer setp (check rejects them).
        _ => false,
    }
}

/// `setp` on 32-bit integers: the lanes where it holds.
#[inline(always)]
fn setp_i32(op: CmpOp, signed: bool, a: Row32, b: Row32) -> u32 {
    use CmpOp::*;
    // One loop per operation, so each compiles to a vector compare.
    match (op, signed) {
        (Eq, _) => mask_of(a, b, |x, y| x == y),
        (Ne, _) => mask_of(a, b, |x, y| x != y),
        (Lt, true) => mask_of(a, b, |x, y| (x as i32) < (y as i32)),
        (Le, true) => mask_of(a, b, |x, y| (x as i32) <= (y as i32)),
        (Gt, true) => mask_of(a, b, |x, y| (x as i32) > (y as i32)),
        (Ge, true) => mask_of(a, b, |x, y| (x as i32) >= (y as i32)),
        (Lt | Lo, _) => mask_of(a, b, |x, y| x < y),
        (Le | Ls, _) => mask_of(a, b, |x, y| x <= y),
        (Gt | Hi, _) => mask_of(a, b, |x, y| x > y),
        (Ge | Hs, _) => mask_of(a, b, |x, y| x >= y),
        _ => mask_of(a, b, |x, y| int_cmp(op, x, y, x as i32, y as i32, signed)),
    }
}

#[inline(always)]
fn setp_i64(op: CmpOp, signed: bool, a: Row64, b: Row64) -> u32 {
    mask_of(a, b, |x, y| int_cmp(op, x, y, x as i64, y as i64, signed))
}

/// `setp` on f32 (ISA 9.7.6.1): ordered comparisons are false with a NaN operand,
/// the `u` forms true; `.ftz` flushes subnormal operands first. An unordered form
/// is the negation of the opposite ordered one, which is what the `!` says.
#[allow(clippy::neg_cmp_op_on_partial_ord)]
#[inline(always)]
fn setp_f32(op: CmpOp, ftz: bool, a: Row32, b: Row32) -> u32 {
    use CmpOp::*;
    let f = |x: u32| f32::from_bits(flush(x, ftz));
    match op {
        Eq => mask_of(a, b, |x, y| f(x) == f(y)),
        Ne => mask_of(a, b, |x, y| f(x) < f(y) || f(x) > f(y)),
        Lt => mask_of(a, b, |x, y| f(x) < f(y)),
        Le => mask_of(a, b, |x, y| f(x) <= f(y)),
        Gt => mask_of(a, b, |x, y| f(x) > f(y)),
        Ge => mask_of(a, b, |x, y| f(x) >= f(y)),
        Equ => mask_of(a, b, |x, y| !(f(x) < f(y) || f(x) > f(y))),
        Neu => mask_of(a, b, |x, y| f(x) != f(y)),
        Ltu => mask_of(a, b, |x, y| !(f(x) >= f(y))),
        Leu => mask_of(a, b, |x, y| !(f(x) > f(y))),
        Gtu => mask_of(a, b, |x, y| !(f(x) <= f(y))),
        Geu => mask_of(a, b, |x, y| !(f(x) < f(y))),
        Num => mask_of(a, b, |x, y| !f(x).is_nan() && !f(y).is_nan()),
        Nan => mask_of(a, b, |x, y| f(x).is_nan() || f(y).is_nan()),
        _ => mask_of(a, b, |x, y| crate::sem::cmp::cmp_f32(op, x, y, ftz)),
    }
}

#[inline(always)]
fn int32(op: I32, a: Row32, b: Row32) -> Row32 {
    match op {
        I32::Add => map2(a, b, u32::wrapping_add, 0),
        I32::Sub => map2(a, b, u32::wrapping_sub, 0),
        I32::MulLo => map2(a, b, u32::wrapping_mul, 0),
        I32::MulHiU => map2(a, b, |x, y| ((u64::from(x) * u64::from(y)) >> 32) as u32, 0),
        I32::MulHiS => map2(a, b, |x, y| ((i64::from(x as i32) * i64::from(y as i32)) >> 32) as u32, 0),
        I32::And => map2(a, b, |x, y| x & y, 0),
        I32::Or => map2(a, b, |x, y| x | y, 0),
        I32::Xor => map2(a, b, |x, y| x ^ y, 0),
        // Amounts past the width are clamped (ISA 9.7.8.7, 9.7.8.8).
        I32::Shl => map2(a, b, |x, y| if y >= 32 { 0 } else { x << y }, 0),
        I32::ShrU => map2(a, b, |x, y| if y >= 32 { 0 } else { x >> y }, 0),
        I32::ShrS => map2(a, b, |x, y| ((x as i32) >> y.min(31)) as u32, 0),
        I32::MinU => map2(a, b, u32::min, 0),
        I32::MinS => map2(a, b, |x, y| (x as i32).min(y as i32) as u32, 0),
        I32::MaxU => map2(a, b, u32::max, 0),
        I32::MaxS => map2(a, b, |x, y| (x as i32).max(y as i32) as u32, 0),
    }
}

#[inline(always)]
fn int64(op: I64, a: Row64, b: Row64, n: Row32) -> Row64 {
    match op {
        I64::Add => map2(a, b, u64::wrapping_add, 0),
        I64::Sub => map2(a, b, u64::wrapping_sub, 0),
        I64::MulLo => map2(a, b, u64::wrapping_mul, 0),
        I64::And => map2(a, b, |x, y| x & y, 0),
        I64::Or => map2(a, b, |x, y| x | y, 0),
        I64::Xor => map2(a, b, |x, y| x ^ y, 0),
        I64::Shl => map2(a, map1(n, u64::from, 0), |x, k| if k >= 64 { 0 } else { x << k }, 0),
        I64::ShrU => map2(a, map1(n, u64::from, 0), |x, k| if k >= 64 { 0 } else { x >> k }, 0),
        I64::ShrS => map2(a, map1(n, u64::from, 0), |x, k| ((x as i64) >> k.min(63)) as u64, 0),
    }
}

#[inline(always)]
fn f32_op(op: FOp, ftz: bool, a: Row32, b: Row32) -> Row32 {
    let f = |x: u32| f32::from_bits(flush(x, ftz));
    match op {
        FOp::Add => map2(a, b, |x, y| finish(f(x) + f(y), ftz), 0),
        FOp::Sub => map2(a, b, |x, y| finish(f(x) - f(y), ftz), 0),
        FOp::Mul => map2(a, b, |x, y| finish(f(x) * f(y), ftz), 0),
        FOp::Div => map2(a, b, |x, y| finish(f(x) / f(y), ftz), 0),
    }
}

#[inline(always)]
fn f64_op(op: FOp, a: Row64, b: Row64) -> Row64 {
    let f = f64::from_bits;
    match op {
        FOp::Add => map2(a, b, |x, y| finish64(f(x) + f(y), &[x, y]), 0),
        FOp::Sub => map2(a, b, |x, y| finish64(f(x) - f(y), &[x, y]), 0),
        FOp::Mul => map2(a, b, |x, y| finish64(f(x) * f(y), &[x, y]), 0),
        FOp::Div => map2(a, b, |x, y| finish64(f(x) / f(y), &[x, y]), 0),
    }
}

/// `a*b + c` rounded once, lane by lane: one instruction in the copies of [`run`]
/// built for CPUs with FMA, a library call otherwise.
#[inline(always)]
fn fma32(a: [f32; 32], b: [f32; 32], c: [f32; 32]) -> [f32; 32] {
    map3(a, b, c, f32::mul_add, 0.0)
}

#[inline(always)]
fn fma64(a: [f64; 32], b: [f64; 32], c: [f64; 32]) -> [f64; 32] {
    map3(a, b, c, f64::mul_add, 0.0)
}

/// The widest vector instructions this CPU has, found once: 0 not yet known, 1 none
/// beyond the build's, 2 AVX2 and FMA, 3 AVX-512 (F, BW, VL) too.
static LEVEL: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

#[cfg(target_arch = "x86_64")]
pub(super) fn level() -> u8 {
    use std::sync::atomic::Ordering::Relaxed;
    let known = LEVEL.load(Relaxed);
    if known != 0 {
        return known;
    }
    let avx2 = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
    let avx512 = avx2
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl");
    let l = if avx512 {
        3
    } else if avx2 {
        2
    } else {
        1
    };
    LEVEL.store(l, Relaxed);
    l
}

/// Runs a register-only warp-wide instruction for the `active` lanes. It is
/// inlined into each compiled copy of the executor's loop (`Cta::run_leaf`).
#[inline(always)]
pub(super) fn run_any(regs: &mut Regs, op: Fast, active: u32) {
    match op {
        Fast::Mov32 { d, a } => {
            let v = row32(regs, a);
            put32(regs, d, v, active);
        }
        Fast::Mov64 { d, a } => {
            let v = row64(regs, a);
            put64(regs, d, v, active);
        }
        Fast::Int32 { op, d, a, b } => {
            let v = int32(op, row32(regs, a), row32(regs, b));
            put32(regs, d, v, active);
        }
        Fast::Mad32 { d, a, b, c } => {
            let (x, y, z) = (row32(regs, a), row32(regs, b), row32(regs, c));
            let v = map3(x, y, z, |x, y, z| x.wrapping_mul(y).wrapping_add(z), 0);
            put32(regs, d, v, active);
        }
        Fast::Int64 { op, d, a, b } => {
            let x = row64(regs, a);
            let (y, n) = if matches!(op, I64::Shl | I64::ShrU | I64::ShrS) {
                ([0; 32], amount(regs, b))
            } else {
                (row64(regs, b), [0; 32])
            };
            let v = int64(op, x, y, n);
            put64(regs, d, v, active);
        }
        Fast::MulWide { signed, d, a, b } => {
            let (x, y) = (row32(regs, a), row32(regs, b));
            let v = if signed {
                map2(x, y, |x, y| (i64::from(x as i32) * i64::from(y as i32)) as u64, 0)
            } else {
                map2(x, y, |x, y| u64::from(x) * u64::from(y), 0)
            };
            put64(regs, d, v, active);
        }
        Fast::MadWide { signed, d, a, b, c } => {
            let (x, y, z) = (row32(regs, a), row32(regs, b), row64(regs, c));
            let p = if signed {
                map2(x, y, |x, y| (i64::from(x as i32) * i64::from(y as i32)) as u64, 0)
            } else {
                map2(x, y, |x, y| u64::from(x) * u64::from(y), 0)
            };
            put64(regs, d, map2(p, z, u64::wrapping_add, 0), active);
        }
        Fast::Extend { signed, d, a } => {
            let x = row32(regs, a);
            let v = if signed { map1(x, |x| x as i32 as i64 as u64, 0) } else { map1(x, u64::from, 0) };
            put64(regs, d, v, active);
        }
        Fast::F32 { op, ftz, d, a, b } => {
            let v = f32_op(op, ftz, row32(regs, a), row32(regs, b));
            put32(regs, d, v, active);
        }
        Fast::Fma32 { ftz, d, a, b, c } => {
            let (a, b, c) = (f32_row(regs, a, ftz), f32_row(regs, b, ftz), f32_row(regs, c, ftz));
            let r = fma32(a, b, c);
            put32(regs, d, map1(r, |v| finish(v, ftz), 0), active);
        }
        Fast::F64 { op, d, a, b } => {
            let v = f64_op(op, row64(regs, a), row64(regs, b));
            put64(regs, d, v, active);
        }
        Fast::Fma64 { d, a, b, c } => {
            let (a, b, c) = (row64(regs, a), row64(regs, b), row64(regs, c));
            let f = |r: Row64| map1(r, f64::from_bits, 0.0);
            let r = fma64(f(a), f(b), f(c));
            let mut v = [0u64; 32];
            for l in 0..32 {
                v[l] = finish64(r[l], &[a[l], b[l], c[l]]);
            }
            put64(regs, d, v, active);
        }
        Fast::SetpI32 { op, signed, p, a, b } => {
            let m = setp_i32(op, signed, row32(regs, a), row32(regs, b));
            put_pred(regs, p, m, active);
        }
        Fast::SetpI64 { op, signed, p, a, b } => {
            let m = setp_i64(op, signed, row64(regs, a), row64(regs, b));
            put_pred(regs, p, m, active);
        }
        Fast::SetpF32 { op, ftz, p, a, b } => {
            let m = setp_f32(op, ftz, row32(regs, a), row32(regs, b));
            put_pred(regs, p, m, active);
        }
        Fast::Selp32 { d, a, b, p, negated } => {
            let m = regs.pred[usize::from(p)] ^ if negated { u32::MAX } else { 0 };
            // `a` where the predicate holds, else `b`: a blend of `a` into `b` by it.
            let mut v = row32(regs, b);
            blend(&mut v, row32(regs, a), m);
            put32(regs, d, v, active);
        }
        Fast::Selp64 { d, a, b, p, negated } => {
            let m = regs.pred[usize::from(p)] ^ if negated { u32::MAX } else { 0 };
            // `a` where the predicate holds, else `b`: a blend of `a` into `b` by it.
            let mut v = row64(regs, b);
            blend(&mut v, row64(regs, a), m);
            put64(regs, d, v, active);
        }
        Fast::Trunc { d, a } => {
            let v = map1(row64(regs, a), |x| x as u32, 0);
            put32(regs, d, v, active);
        }
        Fast::Generic
        | Fast::Bra { .. }
        | Fast::Ld { .. }
        | Fast::St { .. }
        | Fast::Param { .. }
        | Fast::Sreg { .. } => {}
    }
}

impl Cta<'_> {
    /// A scalar `ld` or `st` of the warp-wide forms: for the whole warp when every
    /// lane lands in one allocation (or in shared memory the kernel owns), else lane
    /// by lane, so a fault names the first lane that met it.
    #[inline(always)]
    pub(super) fn fast_mem_any(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        op: Fast,
        active: u32,
    ) -> Result<(), Fault> {
        match op {
            Fast::Ld { mem, size, d, addr, wide_addr, offset } => {
                let at = address(&warp.regs, addr, wide_addr, offset);
                let mut out = [0u64; 32];
                match self.row_space(mem, &at, active, size, shared.len()) {
                    // Global rows load straight into the destination row.
                    Row::Global => {
                        let memory = self.memory;
                        let fault = |(lane, e): (u32, MemFault)| (lane, memory.explain(e));
                        let d = usize::from(d);
                        let done = if size == 8 {
                            self.memory.load_row(&at, active, 8, &mut warp.regs.r64[d]).map_err(fault)
                        } else {
                            self.memory
                                .load_row(&at, active, u64::from(size), &mut warp.regs.r32[d])
                                .map_err(fault)
                        };
                        return done.map_err(|(lane, cause)| self.fault(n, warp, 1 << lane, inst, cause));
                    }
                    Row::Shared => {
                        for l in 0..32 {
                            if active & BIT[l] != 0 {
                                let a = at[l] as usize;
                                let mut b = [0u8; 8];
                                b[..usize::from(size)].copy_from_slice(&shared[a..a + usize::from(size)]);
                                out[l] = u64::from_le_bytes(b);
                            }
                        }
                    }
                    Row::Lanes => {
                        for lane in lanes(active) {
                            let l = lane as usize;
                            out[l] = self
                                .load(warp, shared, mem, at[l], size, l)
                                .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                        }
                    }
                }
                if size == 8 {
                    put64(&mut warp.regs, d, out, active);
                } else {
                    put32(&mut warp.regs, d, map1(out, |v| v as u32, 0), active);
                }
            }
            Fast::St { mem, size, src, addr, wide_addr, offset } => {
                let at = address(&warp.regs, addr, wide_addr, offset);
                let v: Row64 = match (src, size) {
                    (R64::Reg(r), 4) => map1(warp.regs.r32[usize::from(r)], u64::from, 0),
                    (R64::Imm(v), 4) => [u64::from(v as u32); 32],
                    (src, _) => row64(&warp.regs, src),
                };
                match self.row_space(mem, &at, active, size, shared.len()) {
                    Row::Global => self
                        .memory
                        .store_row(&at, active, u64::from(size), &v)
                        .map_err(|(lane, e)| self.fault(n, warp, 1 << lane, inst, self.memory.explain(e)))?,
                    Row::Shared => {
                        for l in 0..32 {
                            if active & BIT[l] != 0 {
                                let a = at[l] as usize;
                                let k = usize::from(size);
                                shared[a..a + k].copy_from_slice(&v[l].to_le_bytes()[..k]);
                            }
                        }
                    }
                    Row::Lanes => {
                        for lane in lanes(active) {
                            let l = lane as usize;
                            self.store(warp, shared, mem, at[l], size, v[l], l)
                                .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `ld.param` of a kernel parameter (the same value in every lane) and `mov` of a
    /// special register, for the whole warp; the values are the general path's.
    pub(super) fn fast_uniform(&self, n: u64, warp: &mut Warp, op: Fast, active: u32) -> Result<(), String> {
        match op {
            Fast::Param { wide, d, offset, size, signed } => {
                let v = self.param(offset, size, signed)?;
                if wide {
                    put64(&mut warp.regs, d, [v; 32], active);
                } else {
                    put32(&mut warp.regs, d, [v as u32; 32], active);
                }
            }
            Fast::Sreg { d, sreg } => {
                let mut row = [0u32; 32];
                for (l, r) in row.iter_mut().enumerate() {
                    *r = self.special(n, warp, sreg, l as u32) as u32;
                }
                put32(&mut warp.regs, d, row, active);
            }
            _ => {}
        }
        Ok(())
    }

    /// How a warp's access can go: all to global memory (one lookup for the warp),
    /// all inside shared memory the kernel owns entirely, or lane by lane (generic
    /// addresses in windows, holes, and every access that faults).
    #[inline(always)]
    fn row_space(&self, mem: Mem, at: &Row64, active: u32, size: u8, shared_len: usize) -> Row {
        let all = |f: &dyn Fn(u64) -> bool| (0..32).all(|l| active & BIT[l] == 0 || f(at[l]));
        match mem {
            Mem::Global => Row::Global,
            Mem::Generic if all(&|a| a >= IMAGE_WINDOW) => Row::Global,
            Mem::Shared
                if self.program.funcs[self.kernel as usize].shared.is_none()
                    && !self.checks.shadow()
                    && all(&|a| {
                        a.is_multiple_of(u64::from(size))
                            && a.checked_add(u64::from(size)).is_some_and(|e| e <= shared_len as u64)
                    }) =>
            {
                Row::Shared
            }
            _ => Row::Lanes,
        }
    }
}

enum Row {
    Global,
    Shared,
    Lanes,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every integer and float comparison of the fast setp agrees with `sem`'s on
    /// special values (the general path's semantics).
    #[test]
    fn fast_setp_agrees_with_sem() {
        let ints: [u32; 8] = [0, 1, 2, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0xffff_ffff, 12345];
        let floats: [u32; 12] = [
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0xffff_ffff,
        ];
        let row = |v: &[u32], k: usize| -> Row32 { std::array::from_fn(|l| v[(l + k) % v.len()]) };
        use CmpOp::*;
        for op in [Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs] {
            for signed in [false, true] {
                for k in 0..ints.len() {
                    let (a, b) = (row(&ints, 0), row(&ints, k));
                    let m = setp_i32(op, signed, a, b);
                    for l in 0..32 {
                        let (x, y) = (u64::from(a[l]), u64::from(b[l]));
                        let (x, y) = if signed { (a[l] as i32 as u64, b[l] as i32 as u64) } else { (x, y) };
                        let want = crate::sem::cmp::cmp_int(op, x, y, signed);
                        assert_eq!(m >> l & 1 == 1, want, "{op:?} signed={signed} {:#x} {:#x}", a[l], b[l]);
                    }
                }
            }
        }
        for op in [Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan] {
            for ftz in [false, true] {
                for k in 0..floats.len() {
                    let (a, b) = (row(&floats, 0), row(&floats, k));
                    let m = setp_f32(op, ftz, a, b);
                    for l in 0..32 {
                        let want = crate::sem::cmp::cmp_f32(op, a[l], b[l], ftz);
                        assert_eq!(m >> l & 1 == 1, want, "{op:?} ftz={ftz} {:#x} {:#x}", a[l], b[l]);
                    }
                }
            }
        }
    }

    /// The fast f32 arithmetic and fma agree with `sem::float` bit for bit.
    #[test]
    fn fast_f32_arithmetic_agrees_with_sem() {
        let v: [u32; 14] = [
            0,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x3f80_0000,
            0xbf80_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0x7f7f_ffff,
            0x3eaa_aaab,
            0x0080_0000,
        ];
        let row = |k: usize| -> Row32 { std::array::from_fn(|l| v[(l * 7 + k) % v.len()]) };
        for k in 0..v.len() {
            for ftz in [false, true] {
                let (a, b, c) = (row(0), row(k), row(k + 3));
                for op in [FOp::Add, FOp::Sub, FOp::Mul] {
                    let got = f32_op(op, ftz, a, b);
                    for l in 0..32 {
                        assert_eq!(got[l], crate::sem::float::f32_binary(op, a[l], b[l], ftz, false));
                    }
                }
                let mut regs = Regs { r32: vec![a, b, c, [0; 32]], ..Regs::default() };
                run_any(
                    &mut regs,
                    Fast::Fma32 { ftz, d: 3, a: R32::Reg(0), b: R32::Reg(1), c: R32::Reg(2) },
                    u32::MAX,
                );
                for l in 0..32 {
                    assert_eq!(regs.r32[3][l], crate::sem::float::f32_fma(a[l], b[l], c[l], ftz, false));
                }
            }
        }
    }
}
