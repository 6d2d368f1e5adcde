//! What one lane computes: every instruction that does not change which lanes run,
//! and memory access in every state space (global, shared, the lane's local stack,
//! and generic addresses through their windows; DESIGN.md, "Memory"). A `String`
//! error is the cause of a fault; `warp.rs` adds the thread and the instruction.

use super::memory::MemFault;
use super::threads::Dim3;
use super::threads::WARP_SIZE;
use super::warp::{Cta, Regs, Warp};
use crate::lower::program::{
    AtomOp, AtomTy, BitOp, BitOp1, CarryOp, CmpKind, CvtKind, FUNC_WINDOW, FUnary, HalfOp, IntOp, IsSpace,
    LOCAL_WINDOW, Mem, Op, PARAM_WINDOW, PackKind, Pred, Rnd, SHARED_WINDOW, Special, Src,
};
use crate::lower::regs::{RegFile, Slot};
use crate::sem::approx::{self, ApproxFn};
use crate::sem::round::{F32, F64};
use crate::sem::{bits, cmp, cvt, farith, float, int, select};

/// Bytes of each generic window (PTX: 32-bit shared and local addresses).
const WINDOW: u64 = 1 << 32;

/// Where one access lands after its space and window are resolved.
pub(super) enum Target {
    Global(u64),
    Shared(u64),
    /// An address in the lane's local memory.
    Local(u64),
    /// An offset in the kernel's parameter buffer (read-only).
    Param(u64),
    /// An offset in the shared memory of the CTA of this rank in the cluster, another
    /// than the lane's own (`cluster.rs`).
    Remote(u32, u64),
}

impl Cta<'_> {
    /// Executes a non-branch instruction for one lane.
    pub(super) fn lane(
        &self,
        n: u64,
        w: &mut Warp,
        shared: &mut [u8],
        inst: &crate::lower::program::Inst,
        lane: u32,
    ) -> Result<(), String> {
        let l = lane as usize;
        match &inst.op {
            Op::Mov { dst, src } => {
                let v = read(w, *src, l);
                write(w, *dst, l, v);
            }
            Op::MovSpecial { dst, sreg } => {
                let v = self.special(n, w, *sreg, lane);
                write(w, *dst, l, v);
            }
            Op::LdParam { dsts, n, offset, size, signed } => {
                for (k, dst) in dsts.iter().take(*n as usize).enumerate() {
                    let v = self.param(*offset + k as u32 * u32::from(*size), *size, *signed)?;
                    if let Some(dst) = dst {
                        write(w, *dst, l, v);
                    }
                }
            }
            Op::Ld { mem, dsts, n, addr, offset, size, signed, .. } => {
                let a = address(w, *addr, *offset, l);
                vector_aligned(a, *n, *size)?;
                // A global vector is one access (GlobalMemory::load_vec).
                let whole = match (*n > 1).then(|| self.target(w, *mem, a)) {
                    Some(Target::Global(g)) => {
                        Some(self.memory.load_vec(g, *n, *size).map_err(|e| self.memory.explain(e))?)
                    }
                    _ => None,
                };
                for (k, dst) in dsts.iter().take(*n as usize).enumerate() {
                    let v = match whole {
                        Some(v) => v[k],
                        None => self.load(w, shared, *mem, a + (k as u64) * u64::from(*size), *size, l)?,
                    };
                    if let Some(dst) = dst {
                        write(w, *dst, l, extend(v, *size as usize, *signed));
                    }
                }
            }
            Op::St { mem, srcs, n, addr, offset, size } => {
                let a = address(w, *addr, *offset, l);
                vector_aligned(a, *n, *size)?;
                if *n > 1
                    && let Target::Global(g) = self.target(w, *mem, a)
                {
                    let mut v = [0u64; 4];
                    for (k, src) in srcs.iter().take(*n as usize).enumerate() {
                        v[k] = read(w, *src, l);
                    }
                    return self.memory.store_vec(g, *n, *size, &v).map_err(|e| self.memory.explain(e));
                }
                for (k, src) in srcs.iter().take(*n as usize).enumerate() {
                    let v = read(w, *src, l);
                    self.store(w, shared, *mem, a + (k as u64) * u64::from(*size), *size, v, l)?;
                }
            }
            Op::Atom { mem, op, ty, dst, addr, offset, b, c } => {
                let a = address(w, *addr, *offset, l);
                let (b, c) = (read(w, *b, l), read(w, *c, l));
                let old = self
                    .atomic(w, shared, *mem, a, *ty, l, |old| crate::sem::atom::apply(*op, *ty, old, b, c))?;
                if let Some(d) = dst {
                    write(w, *d, l, old);
                }
            }
            Op::AtomVec(v) => {
                let a = address(w, v.addr, v.offset, l);
                vector_aligned(a, v.n, 4)?;
                if !matches!(self.target(w, v.mem, a), Target::Global(_)) {
                    return Err(format!(
                        "atom/red .v{}.f32 at {a:#x}: vector atomics work on global memory only (PTX ISA 9.7.13.5; \
                         undefined behaviour elsewhere)",
                        v.n
                    ));
                }
                // Every source is read before a destination is written: a destination
                // may be a source register too.
                let n = usize::from(v.n);
                let mut olds = [0u64; 4];
                for (k, old) in olds.iter_mut().enumerate().take(n) {
                    let b = read(w, v.srcs[k], l);
                    let add = |old| crate::sem::atom::apply(AtomOp::Add, AtomTy::F32, old, b, 0);
                    *old = self.atomic(w, shared, v.mem, a + 4 * k as u64, AtomTy::F32, l, add)?;
                }
                for (d, old) in v.dsts.iter().zip(olds).take(n) {
                    if let Some(d) = d {
                        write(w, *d, l, old);
                    }
                }
            }
            Op::FrameAddr { dst, offset, generic } => {
                let a = u64::from(w.base + offset) + if *generic { LOCAL_WINDOW } else { 0 };
                write(w, *dst, l, a);
            }
            Op::Cvta { dst, src, to_generic, window } => {
                let v = read(w, *src, l);
                write(
                    w,
                    *dst,
                    l,
                    if *to_generic { v.wrapping_add(*window) } else { v.wrapping_sub(*window) },
                );
            }
            Op::Pack { dst, srcs, n, bits } => {
                let mask = if *bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
                let v =
                    srcs.iter().take(*n as usize).enumerate().fold(0u64, |acc, (k, s)| {
                        acc | (read(w, *s, l) & mask) << (k as u32 * u32::from(*bits))
                    });
                write(w, *dst, l, v);
            }
            Op::MovVector { dsts, srcs, n } => {
                let n = usize::from(*n);
                let mut v = [0u64; 4];
                for (x, s) in v.iter_mut().zip(srcs).take(n) {
                    *x = read(w, *s, l);
                }
                for (d, x) in dsts.iter().zip(v).take(n) {
                    if let Some(d) = d {
                        write(w, *d, l, x);
                    }
                }
            }
            Op::Unpack { dsts, n, bits, src } => {
                let mask = if *bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
                let v = read(w, *src, l);
                for (k, d) in dsts.iter().take(*n as usize).enumerate() {
                    if let Some(d) = d {
                        write(w, *d, l, v >> (k as u32 * u32::from(*bits)) & mask);
                    }
                }
            }
            Op::Lanes { op, lane, signed, relu, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                write(w, *dst, l, int::lanes(*op, *lane, *signed, *relu, x, y));
            }
            Op::Int { op, width, signed, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let v = match op {
                    IntOp::Add => int::add(*width, x, y),
                    IntOp::Sub => int::sub(*width, x, y),
                    IntOp::Min => int::min(*width, *signed, x, y),
                    IntOp::Max => int::max(*width, *signed, x, y),
                    IntOp::And => x & y,
                    IntOp::Or => x | y,
                    IntOp::Xor => x ^ y,
                    IntOp::Shl => int::shl(*width, x, y.min(u64::from(u32::MAX)) as u32),
                    IntOp::Shr => int::shr(*width, *signed, x, y.min(u64::from(u32::MAX)) as u32),
                    IntOp::Div | IntOp::Rem => {
                        let (v, what) = if *op == IntOp::Div {
                            (int::div(*width, *signed, x, y), "division")
                        } else {
                            (int::rem(*width, *signed, x, y), "remainder")
                        };
                        match v {
                            Some(v) => v,
                            None if self.checks.div0 => {
                                return Err(format!("integer {what} by zero (--check div0)"));
                            }
                            None => int::by_zero(*width),
                        }
                    }
                };
                write(w, *dst, l, v & width.mask());
            }
            Op::Not { width, dst, a } => {
                let v = !read(w, *a, l) & width.mask();
                write(w, *dst, l, v);
            }
            Op::Mul { part, width, signed, dst, a, b } => {
                let v = int::mul(*width, *part, *signed, read(w, *a, l), read(w, *b, l));
                write(w, *dst, l, v);
            }
            Op::Mad { part, width, signed, dst, a, b, c } => {
                let v = int::mad(*width, *part, *signed, read(w, *a, l), read(w, *b, l), read(w, *c, l));
                write(w, *dst, l, v);
            }
            Op::Float { op, f64, rnd, ftz, sat, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let v = match (*f64, *rnd) {
                    (true, Rnd::Rn) => float::f64_binary(*op, x, y),
                    (false, Rnd::Rn) => u64::from(float::f32_binary(*op, x as u32, y as u32, *ftz, *sat)),
                    (true, r) => farith::binary(F64, *op, r, false, false, x, y),
                    (false, r) => farith::binary(F32, *op, r, *ftz, *sat, x & 0xffff_ffff, y & 0xffff_ffff),
                };
                write(w, *dst, l, v);
            }
            Op::Fma { f64, rnd, ftz, sat, dst, a, b, c } => {
                let (x, y, z) = (read(w, *a, l), read(w, *b, l), read(w, *c, l));
                let v = match (*f64, *rnd) {
                    (true, Rnd::Rn) => float::f64_fma(x, y, z),
                    (false, Rnd::Rn) => u64::from(float::f32_fma(x as u32, y as u32, z as u32, *ftz, *sat)),
                    (true, r) => farith::fma(F64, r, false, false, x, y, z),
                    (false, r) => {
                        let m = |v: u64| v & 0xffff_ffff;
                        farith::fma(F32, r, *ftz, *sat, m(x), m(y), m(z))
                    }
                };
                write(w, *dst, l, v);
            }
            Op::Bits1 { op, width, dst, a } => {
                let x = read(w, *a, l);
                let v = match *op {
                    BitOp1::Cnot => bits::cnot(*width, x),
                    BitOp1::Popc => bits::popc(*width, x),
                    BitOp1::Clz => bits::clz(*width, x),
                    BitOp1::Brev => bits::brev(*width, x),
                    BitOp1::Bfind { signed, shiftamt } => bits::bfind(*width, signed, shiftamt, x),
                };
                write(w, *dst, l, v);
            }
            Op::Video { spec, dst, a, b, c } => {
                let [a, b, c] = [*a, *b, *c].map(|s| read(w, s, l) as u32);
                write(w, *dst, l, u64::from(spec.eval(a, b, c)));
            }
            Op::Bits { op, width, dst, srcs } => {
                let [p, q, r, s] = srcs.map(|s| read(w, s, l));
                let v = match *op {
                    BitOp::Bfe { signed } => bits::bfe(*width, signed, p, q, r),
                    BitOp::Bfi => bits::bfi(*width, p, q, r, s),
                    BitOp::Prmt(mode) => bits::prmt(mode, p, q, r),
                    BitOp::Shf { left, clamp } => bits::shf(left, clamp, p, q, r),
                    BitOp::Sad { signed } => bits::sad(*width, signed, p, q, r),
                    BitOp::Mul24 { hi, signed, mad } => {
                        let m = bits::mul24(hi, signed, p, q);
                        if mad { m.wrapping_add(r) & 0xffff_ffff } else { m }
                    }
                    BitOp::Copysign => float::copysign(width.0, p, q),
                    BitOp::SatS32 { subtract } => int::add_sat_s32(p, q, subtract),
                    BitOp::MadHiSatS32 => int::mad_hi_sat_s32(p, q, r),
                    BitOp::Dp4a { a_signed, b_signed } => bits::dp4a(a_signed, b_signed, p, q, r),
                    BitOp::Dp2a { hi, a_signed, b_signed } => bits::dp2a(hi, a_signed, b_signed, p, q, r),
                    BitOp::Bmsk { wrap } => bits::bmsk(wrap, p, q),
                    BitOp::Szext { wrap, signed } => bits::szext(wrap, signed, p, q),
                    BitOp::Lop3 => bits::lop3(p, q, r, s),
                    BitOp::Fns if q & 0xffff_ffff > 31 => {
                        return Err(format!(
                            "fns: base {} is above 31 (undefined behaviour)",
                            q & 0xffff_ffff
                        ));
                    }
                    BitOp::Fns => bits::fns(p, q, r),
                    BitOp::CvtPack { bits: n, signed } => bits::cvt_pack(u32::from(n), signed, p, q, r),
                };
                write(w, *dst, l, v);
            }
            Op::Carry { op, width, cin, cout, cc, dst, a, b, c } => {
                let (x, y, z) = (read(w, *a, l), read(w, *b, l), read(w, *c, l));
                let cf = w.regs.pred[*cc as usize] >> lane & 1 == 1;
                let carry_in = *cin && cf;
                let (v, carry) = match *op {
                    CarryOp::Add => int::add_carry(*width, x, y, carry_in),
                    CarryOp::Sub => int::sub_carry(*width, x, y, if *cin { cf } else { true }),
                    CarryOp::Mad { part, signed } => int::mad_carry(*width, part, signed, x, y, z, carry_in),
                };
                write(w, *dst, l, v);
                if *cout {
                    let row = &mut w.regs.pred[*cc as usize];
                    *row = (*row & !(1 << lane)) | u32::from(carry) << lane;
                }
            }
            Op::FUnary { op, f64, rnd, ftz, dst, a } => {
                let x = read(w, *a, l);
                let (fmt, x) = if *f64 { (F64, x) } else { (F32, x & 0xffff_ffff) };
                let v = match (*op, *f64) {
                    (FUnary::Abs | FUnary::Neg, true) => float::f64_abs_neg(*op == FUnary::Abs, x),
                    (FUnary::Abs | FUnary::Neg, false) => {
                        u64::from(float::f32_abs_neg(*op == FUnary::Abs, x as u32, *ftz))
                    }
                    (FUnary::Sqrt, _) => farith::sqrt(fmt, *rnd, *ftz, x),
                    (FUnary::Rcp, _) => farith::rcp(fmt, *rnd, *ftz, x),
                    (FUnary::Approx(ApproxFn::Rcp), true) => approx::rcp_approx_f64(x),
                    (FUnary::Approx(_), true) => approx::rsqrt_approx_f64(*ftz, x),
                    (FUnary::Approx(f), false) => u64::from(approx::approx_f32(f, *ftz, x as u32)),
                };
                write(w, *dst, l, v);
            }
            Op::FMinMax { m, f64, ftz, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let v = if *f64 {
                    float::f64_min_max(*m, x, y)
                } else {
                    u64::from(float::f32_min_max(*m, x as u32, y as u32, *ftz))
                };
                write(w, *dst, l, v);
            }
            Op::Half { op, fmt, x2, ftz, sat, dst, a, b, c } => {
                let (x, y, z) = (read(w, *a, l), read(w, *b, l), read(w, *c, l));
                let one = |x: u64, y: u64, z: u64| match *op {
                    HalfOp::Bin(f) => farith::binary(*fmt, f, Rnd::Rn, *ftz, *sat, x, y),
                    HalfOp::Fma => farith::fma(*fmt, Rnd::Rn, *ftz, *sat, x, y, z),
                    // -0 counts as negative, as the H100's cvt.relu makes it +0 (no
                    // golden covers fma.relu itself yet).
                    HalfOp::FmaRelu => {
                        let v = farith::fma(*fmt, Rnd::Rn, *ftz, *sat, x, y, z);
                        crate::sem::cvt::relu_satfinite(*fmt, true, false, v)
                    }
                    HalfOp::Neg | HalfOp::Abs => farith::half_abs_neg(*fmt, *op == HalfOp::Abs, *ftz, x),
                    HalfOp::MinMax(m) => farith::half_min_max(*fmt, m, *ftz, x, y),
                    HalfOp::Approx(f) => approx::approx_half(f, *fmt, *ftz, x),
                };
                let lo = |v: u64| v & 0xffff;
                let hi = |v: u64| v >> 16 & 0xffff;
                let v = if *x2 {
                    one(lo(x), lo(y), lo(z)) | one(hi(x), hi(y), hi(z)) << 16
                } else {
                    one(lo(x), lo(y), lo(z))
                };
                write(w, *dst, l, v);
            }
            Op::Fence => std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst),
            Op::Setp { kind, op, p, q, a, b, combine } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let c = combine.map(|(bop, c)| (bop, pred_bit(w, c, lane)));
                let (pv, qv) = match kind {
                    // Packed halves: p = BoolOp(t_low, c), q = BoolOp(t_high, c) (ISA 9.7.7.2).
                    CmpKind::F16x2 { ftz } => {
                        let (lo, hi) = cmp::cmp_f16x2(*op, x as u32, y as u32, *ftz);
                        (select::setp(lo, c).0, select::setp(hi, c).0)
                    }
                    CmpKind::BF16x2 => {
                        let (lo, hi) = cmp::cmp_bf16x2(*op, x as u32, y as u32);
                        (select::setp(lo, c).0, select::setp(hi, c).0)
                    }
                    _ => select::setp(compare_values(*kind, *op, x, y), c),
                };
                for (row, v) in [(p, pv), (q, qv)] {
                    if let Some(row) = row {
                        let bit = 1u32 << lane;
                        let r = &mut w.regs.pred[*row as usize];
                        *r = if v { *r | bit } else { *r & !bit };
                    }
                }
            }
            Op::Set { kind, op, one, dst, a, b, combine } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let (lo, hi, x2) = match *kind {
                    CmpKind::F16x2 { ftz } => {
                        let (lo, hi) = cmp::cmp_f16x2(*op, x as u32, y as u32, ftz);
                        (lo, hi, true)
                    }
                    CmpKind::BF16x2 => {
                        let (lo, hi) = cmp::cmp_bf16x2(*op, x as u32, y as u32);
                        (lo, hi, true)
                    }
                    k => (compare_values(k, *op, x, y), false, false),
                };
                let c = |t: bool| match combine {
                    Some((bop, c)) => bop.apply(t, pred_bit(w, *c, lane)),
                    None => t,
                };
                let (lo, hi) = (c(lo), c(hi));
                let pick = |t: bool| if t { *one } else { 0 };
                let v = if x2 { pick(lo) | pick(hi) << 16 } else { pick(lo) };
                write(w, *dst, l, v);
            }
            Op::Slct { f32, ftz, dst, a, b, c } => {
                let (x, y, z) = (read(w, *a, l), read(w, *b, l), read(w, *c, l));
                let v = if *f32 {
                    select::slct_f32(x, y, z as u32, *ftz)
                } else {
                    select::slct_s32(x, y, z as u32 as i32)
                };
                write(w, *dst, l, v);
            }
            Op::NegAbs { abs, width, dst, a } => {
                let x = read(w, *a, l);
                write(w, *dst, l, if *abs { int::abs(*width, x) } else { int::neg(*width, x) });
            }
            Op::Cvt { kind, dst, src } => {
                let v = read(w, *src, l);
                let out = match *kind {
                    CvtKind::IntInt { dst, src, sat } => cvt::int_to_int(dst, src, v, sat),
                    CvtKind::FloatInt { dst, src, round, ftz } => {
                        cvt::float_bits_to_int(dst, src, round, ftz, v & src_mask(src))
                    }
                    CvtKind::IntFloat { dst, src, rnd } => cvt::int_to_float(dst, src, rnd, v),
                    CvtKind::FloatFloat { dst, src, rnd, ftz, sat, relu, satfinite } => {
                        let r = cvt::float_to_float(dst, src, rnd, ftz, sat, v & src_mask(src));
                        cvt::relu_satfinite(dst, relu, satfinite, r)
                    }
                    CvtKind::Tf32 { rnd, away, satfinite } => {
                        u64::from(cvt::f32_to_tf32(rnd, away, satfinite, v as u32))
                    }
                    CvtKind::RoundInt { fmt, round, ftz, sat } => {
                        cvt::round_to_integral(fmt, round, ftz, sat, v & src_mask(fmt))
                    }
                };
                write(w, *dst, l, out);
            }
            Op::CvtPack { kind, rnd, relu, satfinite, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let f32_of = |v: u64| f64::from(f32::from_bits(v as u32));
                let f16_of = |v: u64| cvt::widen(crate::sem::round::F16, v & 0xffff);
                let v = match *kind {
                    PackKind::Halves(fmt) => {
                        let half = |v: u64| {
                            let r = cvt::float_to_float(fmt, F32, *rnd, false, false, v & 0xffff_ffff);
                            cvt::relu_satfinite(fmt, *relu, *satfinite, r)
                        };
                        half(x) << 16 | half(y)
                    }
                    PackKind::Fp8FromF32(f) => {
                        u64::from(cvt::to_fp8(f, *relu, f32_of(x))) << 8
                            | u64::from(cvt::to_fp8(f, *relu, f32_of(y)))
                    }
                    PackKind::Fp8FromF16x2(f) => {
                        u64::from(cvt::to_fp8(f, *relu, f16_of(x >> 16))) << 8
                            | u64::from(cvt::to_fp8(f, *relu, f16_of(x)))
                    }
                    PackKind::F16x2FromFp8(f) => {
                        let h = |b: u64| {
                            cvt::relu_satfinite(
                                crate::sem::round::F16,
                                *relu,
                                false,
                                cvt::fp8_to_f16(f, b as u8),
                            )
                        };
                        h(x >> 8 & 0xff) << 16 | h(x & 0xff)
                    }
                };
                write(w, *dst, l, v);
            }
            Op::CpAsync { dst, dst_offset, src, src_offset, size, src_size, ignore } => {
                let d = address(w, *dst, *dst_offset, l);
                let s = address(w, *src, *src_offset, l);
                let n = u64::from(*size);
                let ignored = ignore.is_some_and(|p| pred_bit(w, p, lane));
                let from = if ignored { 0 } else { read(w, *src_size, l) & 0xffff_ffff };
                if from > n {
                    return Err(format!("cp.async: source size {from} is larger than the copy's {n} bytes"));
                }
                if !d.is_multiple_of(n) || !s.is_multiple_of(n) {
                    return Err(format!(
                        "cp.async: addresses {d:#x} and {s:#x} are not aligned to {n} bytes"
                    ));
                }
                for k in 0..n {
                    let v = if k < from { self.load(w, shared, Mem::Global, s + k, 1, l)? } else { 0 };
                    self.store(w, shared, Mem::Shared, d + k, 1, v, l)?;
                }
            }
            Op::CpBulk(c) => self.cp_bulk(w, shared, c, l)?,
            Op::CpTensor(c) => self.cp_tensor(w, shared, c, l)?,
            Op::TensormapReplace(r) => self.tensormap_replace(w, shared, r, l)?,
            Op::TensormapCopy { dst, src } => {
                let (d, s) = (address(w, dst.1, dst.2, l), address(w, src.1, src.2, l));
                let mut bytes = [0u64; 16];
                for (k, b) in bytes.iter_mut().enumerate() {
                    *b = self.load(w, shared, src.0, s.wrapping_add(8 * k as u64), 8, l)?;
                }
                for (k, b) in bytes.iter().enumerate() {
                    self.store(w, shared, dst.0, d.wrapping_add(8 * k as u64), 8, *b, l)?;
                }
            }
            Op::DivApprox { full, ftz, dst, a, b } => {
                let v = approx::div_approx(*full, *ftz, read(w, *a, l) as u32, read(w, *b, l) as u32);
                write(w, *dst, l, u64::from(v));
            }
            Op::Mapa { dst, a, rank, window } => {
                use super::cluster::{OFFSET_MASK, RANK_SHIFT};
                let r = read(w, *rank, l) as u32;
                let size = self.shape.cluster_size();
                if r >= size {
                    return Err(format!(
                        "mapa: CTA rank {r} is outside the cluster of {size} CTA{} (undefined behaviour)",
                        if size == 1 { "" } else { "s" }
                    ));
                }
                // The offset in the CTA's shared memory, whatever rank it named; the
                // CTA's own rank gives the plain offset, as `.shared::cta` has it.
                let off = read(w, *a, l).wrapping_sub(*window) & OFFSET_MASK;
                let rank = if r == w.rank { 0 } else { (u64::from(r) + 1) << RANK_SHIFT };
                write(w, *dst, l, *window + off + rank);
            }
            Op::Getctarank { dst, a, window } => {
                let off = read(w, *a, l).wrapping_sub(*window);
                let r = off >> super::cluster::RANK_SHIFT;
                write(w, *dst, l, if r == 0 { u64::from(w.rank) } else { r - 1 });
            }
            Op::Isspacep { space, dst, a } => {
                let a = read(w, *a, l);
                // The windows a generic access goes through (`target`); the rest of
                // global memory is neither a `.const` variable nor a function.
                let target = self.target(w, Mem::Generic, a);
                let is_const = self.program.consts.iter().any(|&(lo, hi)| (lo..hi).contains(&a));
                let v = match space {
                    IsSpace::Shared => matches!(target, Target::Shared(_) | Target::Remote(..)),
                    IsSpace::Local => matches!(target, Target::Local(_)),
                    IsSpace::Const => is_const,
                    IsSpace::Param => matches!(target, Target::Param(_)),
                    IsSpace::Global => {
                        matches!(target, Target::Global(_))
                            && !(FUNC_WINDOW..FUNC_WINDOW + WINDOW).contains(&a)
                            && !is_const
                    }
                };
                write(w, *dst, l, u64::from(v));
            }
            Op::Testp { class, f64, dst, a } => {
                let x = read(w, *a, l);
                let v = if *f64 {
                    float::testp(*class, 64, x)
                } else {
                    float::testp(*class, 32, x & 0xffff_ffff)
                };
                write(w, *dst, l, u64::from(v));
            }
            Op::Selp { dst, a, b, c } => {
                let v = select::selp(read(w, *a, l), read(w, *b, l), pred_bit(w, *c, lane));
                write(w, *dst, l, v);
            }
            Op::Tex(t) => {
                use super::texture::{Fetch, Lod, fetch};
                let tex = self.memory.objects.texture(read(w, t.handle, l))?;
                let f32_of = |s: Src| f32::from_bits(read(w, s, l) as u32);
                let f = Fetch {
                    geometry: t.geometry,
                    layer: read(w, t.layer, l) as u32,
                    coords: t.coords.map(|c| read(w, c, l) as u32),
                    int_coords: t.int_coords,
                    lod: match &t.lod {
                        crate::lower::program::TexLod::Base => Lod::Base,
                        crate::lower::program::TexLod::Level(s) => Lod::Level(f32_of(*s)),
                        crate::lower::program::TexLod::Grad(x, y) => Lod::Grad(x.map(f32_of), y.map(f32_of)),
                    },
                    gather: t.gather,
                };
                let words = fetch(tex, &f, self.memory)?;
                for (d, v) in t.dsts.iter().zip(words) {
                    if let Some(d) = d {
                        write(w, *d, l, u64::from(v));
                    }
                }
                if let Some(p) = t.pred {
                    // Every texel is resident: there are no sparse textures.
                    w.regs.pred[p as usize] |= 1 << lane;
                }
            }
            Op::Txq { dst, handle, query, level } => {
                let tex = self.memory.objects.texture(read(w, *handle, l))?;
                let v = super::texture::query(tex, *query, level.map(|s| read(w, s, l) as u32))?;
                write(w, *dst, l, u64::from(v));
            }
            Op::Suq { dst, handle, query } => {
                let v = super::texture::surface_query(&self.memory.objects, read(w, *handle, l), *query)?;
                write(w, *dst, l, u64::from(v));
            }
            Op::Surf(op) => {
                use super::texture::{SurfaceAccess, surface_address};
                use crate::lower::program::SurfKind;
                let a = SurfaceAccess {
                    geometry: op.geometry,
                    coords: op.coords.map(|c| read(w, c, l) as u32 as i32),
                    boundary: op.boundary,
                    bytes: u32::from(op.n) * u32::from(op.size),
                };
                let addr = surface_address(&self.memory.objects, read(w, op.handle, l), &a)?;
                let mem = self.memory;
                match (&op.kind, addr) {
                    // `.zero` out of range: loads read zeros, stores and reductions drop.
                    (SurfKind::Load(dsts), None) => {
                        for d in dsts.iter().take(usize::from(op.n)).flatten() {
                            write(w, *d, l, 0);
                        }
                    }
                    (_, None) => {}
                    (SurfKind::Load(dsts), Some(addr)) => {
                        let vals = mem.load_vec(addr, op.n, op.size).map_err(|e| mem.explain(e))?;
                        for (d, v) in dsts.iter().zip(vals).take(usize::from(op.n)) {
                            if let Some(d) = d {
                                write(w, *d, l, v);
                            }
                        }
                    }
                    (SurfKind::Store(srcs), Some(addr)) => {
                        let vals = srcs.map(|s| read(w, s, l));
                        mem.store_vec(addr, op.n, op.size, &vals).map_err(|e| mem.explain(e))?;
                    }
                    (SurfKind::Reduce(red, ty, b), Some(addr)) => {
                        let b = read(w, *b, l);
                        mem.atomic(addr, ty.bytes(), |old| crate::sem::atom::apply(*red, *ty, old, b, 0))
                            .map_err(|e| mem.explain(e))?;
                    }
                }
            }
            Op::Ldmatrix { .. }
            | Op::Stmatrix { .. }
            | Op::Mma(_)
            | Op::Wmma(_)
            | Op::Wgmma(_)
            | Op::Activemask { .. }
            | Op::Vote { .. }
            | Op::Shfl { .. }
            | Op::Match { .. }
            | Op::Redux { .. }
            | Op::Barrier(_)
            | Op::ClusterBarrier { .. }
            | Op::WarpSync { .. }
            | Op::Nanosleep
            | Op::Elect { .. }
            | Op::Alloca { .. }
            | Op::Mbarrier(_)
            | Op::Bra { .. }
            | Op::Brx { .. }
            | Op::Call(_)
            | Op::Ret
            | Op::Exit
            | Op::Trap
            | Op::Brkpt
            | Op::PredLogic { .. } => {}
        }
        Ok(())
    }

    /// One atomic read-modify-write of a `ty` value at `a` in `mem` by lane `l`: the
    /// old value.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        mem: Mem,
        a: u64,
        ty: AtomTy,
        l: usize,
        f: impl Fn(u64) -> u64,
    ) -> Result<u64, String> {
        let size = ty.bytes();
        Ok(match self.target(w, mem, a) {
            Target::Global(a) => self.memory.atomic(a, size, f).map_err(|e| self.memory.explain(e))?,
            Target::Shared(a) => {
                let r = self.shared_range(shared.len(), a, size as u8)?;
                shadow(w, l, r.start, r.len(), true, true);
                let old = le(&shared[r.clone()]);
                shared[r].copy_from_slice(&f(old).to_le_bytes()[..size as usize]);
                old
            }
            Target::Local(a) => {
                let r = range(w.top as usize, a, size as u8, "local")?;
                let old = le(&w.local[l][r.clone()]);
                w.local[l][r].copy_from_slice(&f(old).to_le_bytes()[..size as usize]);
                old
            }
            Target::Remote(rank, a) => {
                let mut mem = remote(w, rank, a)?.borrow_mut();
                let r = range(mem.len(), a, size as u8, "shared")?;
                let old = le(&mem[r.clone()]);
                mem[r].copy_from_slice(&f(old).to_le_bytes()[..size as usize]);
                old
            }
            Target::Param(a) => return Err(param_write(a)),
        })
    }

    /// The bytes of a shared-memory access, or why it faults: outside the CTA's
    /// shared memory, or in static shared memory the kernel does not own (another
    /// kernel's variables in the same module).
    pub(super) fn shared_range(
        &self,
        len: usize,
        a: u64,
        size: u8,
    ) -> Result<std::ops::Range<usize>, String> {
        let r = range(len, a, size, "shared")?;
        if let Some(owned) = &self.program.funcs[self.kernel as usize].shared
            && (r.start as u64) < u64::from(self.program.dynamic_shared_at)
            && !owned.iter().any(|&(lo, hi)| lo as usize <= r.start && r.end <= hi as usize)
        {
            return Err(format!(
                "out of bounds: shared address 0x{a:x} ({size} bytes) is in no shared variable of this kernel"
            ));
        }
        Ok(r)
    }

    /// `size` bytes of the kernel's parameter buffer at `offset`, extended to 64 bits.
    pub(super) fn param(&self, offset: u32, size: u8, signed: bool) -> Result<u64, String> {
        let (o, s) = (offset as usize, usize::from(size));
        let bytes = self.params.get(o..o + s).ok_or("parameter read outside the parameter buffer")?;
        let mut b = [0u8; 8];
        b[..s].copy_from_slice(bytes);
        Ok(extend(u64::from_le_bytes(b), s, signed))
    }

    pub(super) fn special(&self, n: u64, w: &Warp, sreg: Special, lane: u32) -> u64 {
        let pick = |d: Dim3, axis: u8| u64::from([d.x, d.y, d.z][axis as usize]);
        let le = (2u64 << lane) - 1;
        match sreg {
            Special::Tid(a) => u64::from(w.tid[usize::from(a)][lane as usize]),
            Special::Ntid(a) => pick(self.shape.block, a),
            Special::Ctaid(a) => pick(self.shape.ctaid(n), a),
            Special::Nctaid(a) => pick(self.shape.grid, a),
            Special::Clusterid(a) => pick(self.shape.clusterid(n), a),
            Special::Nclusterid(a) => pick(self.shape.nclusterid(), a),
            Special::ClusterCtaid(a) => pick(self.shape.cluster_ctaid(n), a),
            Special::ClusterNctaid(a) => pick(self.shape.cluster, a),
            Special::ClusterCtarank => u64::from(self.shape.rank(n)),
            Special::ClusterNctarank => u64::from(self.shape.cluster_size()),
            Special::Laneid => u64::from(lane),
            Special::Warpid => u64::from(w.index),
            Special::Nwarpid => u64::from(self.shape.warps_per_cta()),
            Special::LanemaskEq => 1 << lane,
            Special::LanemaskLt => (1 << lane) - 1,
            Special::LanemaskLe => le,
            Special::LanemaskGt => !le & 0xffff_ffff,
            Special::LanemaskGe => !((1u64 << lane) - 1) & 0xffff_ffff,
            // An H100 SXM has 132 SMs; CTAs are spread over them in launch order.
            Special::Smid => n % NSMID,
            Special::Nsmid => NSMID,
            Special::Gridid => 1,
            Special::Clock => w.clock & 0xffff_ffff,
            Special::Clock64 => w.clock,
            // Virtual nanoseconds: one per executed warp instruction.
            Special::Globaltimer => w.clock,
            Special::DynamicSmemSize => u64::from(self.dynamic_shared),
            Special::TotalSmemSize => u64::from(self.program.dynamic_shared_at + self.dynamic_shared),
            Special::Envreg(1) => self.grid_workspace >> 32,
            Special::Envreg(2) => self.grid_workspace & 0xffff_ffff,
            Special::Envreg(_) => 0,
        }
    }

    /// Resolves an address in `mem` for lane `l`.
    pub(super) fn target(&self, w: &Warp, mem: Mem, a: u64) -> Target {
        match mem {
            Mem::Global => Target::Global(a),
            Mem::Shared => shared_target(w, a),
            Mem::Local => Target::Local(a),
            Mem::Param => Target::Param(a),
            Mem::Frame => Target::Local(a.wrapping_add(u64::from(w.base))),
            Mem::Generic => {
                if (SHARED_WINDOW..SHARED_WINDOW + WINDOW).contains(&a) {
                    shared_target(w, a - SHARED_WINDOW)
                } else if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW).contains(&a) {
                    Target::Local(a - LOCAL_WINDOW)
                } else if (PARAM_WINDOW..PARAM_WINDOW + WINDOW).contains(&a) {
                    Target::Param(a - PARAM_WINDOW)
                } else {
                    Target::Global(a)
                }
            }
        }
    }

    pub(super) fn load(
        &self,
        w: &Warp,
        shared: &[u8],
        mem: Mem,
        a: u64,
        size: u8,
        l: usize,
    ) -> Result<u64, String> {
        match self.target(w, mem, a) {
            Target::Global(a) => {
                self.memory.load(a, u64::from(size)).map_err(|e: MemFault| self.memory.explain(e))
            }
            Target::Shared(a) => {
                let r = self.shared_range(shared.len(), a, size)?;
                shadow(w, l, r.start, r.len(), false, false);
                Ok(le(&shared[r]))
            }
            Target::Local(a) => Ok(le(&w.local[l][range(w.top as usize, a, size, "local")?])),
            Target::Remote(rank, a) => {
                let mem = remote(w, rank, a)?.borrow();
                Ok(le(&mem[range(mem.len(), a, size, "shared")?]))
            }
            Target::Param(a) => {
                let end = a.checked_add(u64::from(size)).filter(|&e| e <= self.params.len() as u64);
                let Some(end) = end else {
                    return Err(format!(
                        "out of bounds: the {size}-byte access at offset {a} of the kernel's parameters \
                         (generic address {:#x}) is outside its {} bytes of parameters",
                        a + PARAM_WINDOW,
                        self.params.len()
                    ));
                };
                Ok(le(&self.params[a as usize..end as usize]))
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        mem: Mem,
        a: u64,
        size: u8,
        v: u64,
        l: usize,
    ) -> Result<(), String> {
        let bytes = &v.to_le_bytes()[..size as usize];
        match self.target(w, mem, a) {
            Target::Global(a) => self.memory.store(a, u64::from(size), v).map_err(|e| self.memory.explain(e)),
            Target::Shared(a) => {
                let r = self.shared_range(shared.len(), a, size)?;
                shadow(w, l, r.start, r.len(), true, false);
                shared[r].copy_from_slice(bytes);
                Ok(())
            }
            Target::Local(a) => {
                let r = range(w.top as usize, a, size, "local")?;
                w.local[l][r].copy_from_slice(bytes);
                Ok(())
            }
            Target::Remote(rank, a) => {
                let mut mem = remote(w, rank, a)?.borrow_mut();
                let r = range(mem.len(), a, size, "shared")?;
                mem[r].copy_from_slice(bytes);
                Ok(())
            }
            Target::Param(a) => Err(param_write(a)),
        }
    }
}

/// A shared (`.shared::cta` or `.shared::cluster`) offset: the lane's own CTA's, or,
/// with a rank in bits 24.. (`cluster.rs`), another CTA's of the cluster.
fn shared_target(w: &Warp, off: u64) -> Target {
    use super::cluster::{OFFSET_MASK, RANK_SHIFT};
    match off >> RANK_SHIFT {
        0 => Target::Shared(off),
        // Another CTA's `mapa` to this one (this CTA's own gives plain offsets).
        r if w.cluster.is_some() && r - 1 == u64::from(w.rank) => Target::Shared(off & OFFSET_MASK),
        // Past the shared memory of a CTA not in a cluster: the access faults.
        r => Target::Remote((r - 1).min(u64::from(u32::MAX)) as u32, off & OFFSET_MASK),
    }
}

/// The shared memory of the CTA of rank `rank` in the lane's cluster.
fn remote(w: &Warp, rank: u32, a: u64) -> Result<&std::cell::RefCell<Vec<u8>>, String> {
    let size = w.cluster.as_ref().map_or(1, |c| c.mem.len());
    w.cluster.as_ref().and_then(|c| c.mem.get(rank as usize)).ok_or_else(|| {
        format!(
            "out of bounds: the .shared::cluster address of offset {a:#x} in the CTA of rank {rank} is outside the \
             cluster of {size} CTA{}",
            if size == 1 { "" } else { "s" }
        )
    })
}

/// Lane `l` of `w` accesses `len` shared bytes at `start`: the shadow notes it, if the
/// CTA keeps one.
#[inline]
pub(super) fn shadow(w: &Warp, l: usize, start: usize, len: usize, write: bool, atomic: bool) {
    if let Some(s) = &w.shadow {
        let synced = w.synced.as_ref().map_or([0; 32], |m| m[l]);
        let who =
            super::sanitize::Who { warp: w.index, lane: l as u32, pc: w.pc_now, wsync: w.wsync, synced };
        s.borrow_mut().access(who, start, len, write, atomic);
    }
}

/// The bits a float operand of `fmt` reads from its register.
fn src_mask(fmt: crate::sem::round::Format) -> u64 {
    let bits = fmt.frac + fmt.exp + 1;
    if bits >= 64 { u64::MAX } else { (1 << bits) - 1 }
}

/// SMs of the simulated GPU (an H100 SXM's count).
const NSMID: u64 = 132;

/// A vector access must be aligned to its whole size (PTX ISA 5.4.5).
fn vector_aligned(a: u64, n: u8, size: u8) -> Result<(), String> {
    let whole = u64::from(n) * u64::from(size);
    if n > 1 && !a.is_multiple_of(whole) {
        return Err(format!("address {a:#x} is not aligned to the {whole}-byte vector access"));
    }
    Ok(())
}

/// Why a write through generic address `PARAM_WINDOW + a` fails: kernel parameters
/// are read-only (PTX ISA 5.1.6.1: a kernel's parameters are read through their
/// generic addresses, never written).
fn param_write(a: u64) -> String {
    format!(
        "a write to the kernel's parameters (offset {a}, generic address {:#x}): they are read-only \
         (undefined behaviour)",
        a + PARAM_WINDOW
    )
}

/// The bytes of an access to a `len`-byte memory, or why it faults.
pub(super) fn range(len: usize, addr: u64, size: u8, space: &str) -> Result<std::ops::Range<usize>, String> {
    let size = u64::from(size);
    if !addr.is_multiple_of(size) {
        return Err(format!("{space} address 0x{addr:x} is not aligned to the {size}-byte access"));
    }
    match addr.checked_add(size) {
        Some(end) if end <= len as u64 => Ok(addr as usize..end as usize),
        _ => {
            let owner = if space == "shared" { "CTA's" } else { "thread's" };
            Err(format!(
                "out of bounds: {space} address 0x{addr:x} ({size} bytes) is outside the {owner} {len} bytes of {space} memory"
            ))
        }
    }
}

fn le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// The comparison of two operand values as `kind` reads them.
fn compare_values(kind: CmpKind, op: cmp::CmpOp, x: u64, y: u64) -> bool {
    match kind {
        CmpKind::Int { width, signed } => {
            let (x, y) = if signed {
                (width.signed(x) as u64, width.signed(y) as u64)
            } else {
                (x & width.mask(), y & width.mask())
            };
            cmp::cmp_int(op, x, y, signed)
        }
        CmpKind::F32 { ftz } => cmp::cmp_f32(op, x as u32, y as u32, ftz),
        CmpKind::F64 => cmp::cmp_f64(op, x, y),
        CmpKind::F16 { ftz } => cmp::cmp_f16(op, x as u16, y as u16, ftz),
        CmpKind::BF16 => cmp::cmp_bf16(op, x as u16, y as u16),
        // The packed forms are handled where both results are written.
        CmpKind::F16x2 { ftz } => cmp::cmp_f16x2(op, x as u32, y as u32, ftz).0,
        CmpKind::BF16x2 => cmp::cmp_bf16x2(op, x as u32, y as u32).0,
    }
}

fn pred_bit(w: &Warp, p: Pred, lane: u32) -> bool {
    (w.regs.pred[p.row as usize] >> lane & 1 == 1) != p.negated
}

/// The address `[addr+offset]` gives in `lane`: with a 32-bit register, the sum is
/// taken in 32 bits (nvcc relies on it: `[%r2+128]` with `%r2` the shared address of a
/// variable less 128 is the variable itself), then zero-extended.
pub(super) fn address(w: &Warp, addr: Src, offset: i64, lane: usize) -> u64 {
    let a = read(w, addr, lane).wrapping_add(offset as u64);
    match addr {
        Src::Reg(Slot { file: RegFile::R32, .. }) => a & 0xffff_ffff,
        _ => a,
    }
}

pub(super) fn read(w: &Warp, src: Src, lane: usize) -> u64 {
    match src {
        Src::Imm(v) => v,
        Src::Reg(Slot { file: RegFile::R32, index, .. }) => u64::from(w.regs.r32[index as usize][lane]),
        Src::Reg(Slot { file: RegFile::R64, index, .. }) => w.regs.r64[index as usize][lane],
        Src::Reg(Slot { file: RegFile::Pred, index, .. }) => {
            u64::from(w.regs.pred[index as usize] >> lane & 1)
        }
    }
}

pub(super) fn write(w: &mut Warp, dst: Slot, lane: usize, v: u64) {
    write_regs(&mut w.regs, dst, lane, v);
}

/// Writes lane `lane` of register `dst` in `regs` (any frame's).
pub(super) fn write_regs(regs: &mut Regs, dst: Slot, lane: usize, v: u64) {
    match dst.file {
        RegFile::R32 => regs.r32[dst.index as usize][lane] = v as u32,
        RegFile::R64 => regs.r64[dst.index as usize][lane] = v,
        RegFile::Pred => {
            let bit = 1u32 << lane;
            let r = &mut regs.pred[dst.index as usize];
            *r = if v & 1 == 1 { *r | bit } else { *r & !bit };
        }
    }
}

/// A loaded value of `size` bytes, sign-extended to 64 bits when `signed`.
fn extend(v: u64, size: usize, signed: bool) -> u64 {
    if !signed || size >= 8 {
        return v;
    }
    let shift = 64 - 8 * size as u32;
    (((v << shift) as i64) >> shift) as u64
}

const _: () = assert!(WARP_SIZE == 32);
