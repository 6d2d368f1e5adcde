//! Models of the float instructions, written from the PTX ISA and IEEE 754: the
//! formats and their rounding, exact f64 arithmetic in every rounding mode,
//! conversions between the float formats, half-precision arithmetic, comparisons.

use super::*;

pub(crate) fn sx(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

pub(crate) fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

pub(crate) fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}

pub(crate) fn bits32(x: f32) -> u64 {
    u64::from(x.to_bits())
}

/// `.ftz`: a subnormal becomes a zero of its sign.
pub(crate) fn ftz(x: f32) -> f32 {
    if x.is_subnormal() { f32::from_bits(x.to_bits() & 0x8000_0000) } else { x }
}

pub(crate) fn h(v: u64) -> f64 {
    f16::from_bits(v as u16).to_f64()
}

/// `x` rounded once to a format of `p` significand bits and smallest normal exponent
/// `emin` (ties to even), as an f64 the format holds exactly.
pub(crate) fn round_to(x: f64, p: i32, emin: i32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let e = (x.abs().log2().floor() as i32).max(emin);
    // `log2` can be one off near powers of two; the quantum only needs e to be right
    // when |x| is at least 2^e, which the correction keeps.
    let e = if x.abs() < 2f64.powi(e) && e > emin { e - 1 } else { e };
    let e = if x.abs() >= 2f64.powi(e + 1) { e + 1 } else { e };
    let q = 2f64.powi(e - (p - 1));
    (x / q).round_ties_even() * q
}

/// An f16 from an f64, rounded once (the `half` crate may go through f32).
pub(crate) fn hbits(x: f64) -> u64 {
    let r = round_to(x, 11, -14);
    let r = if r.abs() >= 65536.0 { r.signum() * f64::INFINITY } else { r };
    u64::from(f16::from_f64(r).to_bits())
}

/// `a * b + c` rounded once to f16: the product is exact in f64, the sum is rounded
/// to odd there (its last bit set when inexact), which then rounds to f16 correctly.
pub(crate) fn fma16(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let s = p + c;
    if !s.is_finite() {
        return s;
    }
    // The sum's exact error (Knuth's two-sum).
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    if e == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    let toward = if (e > 0.0) == (s > 0.0) { s.to_bits() + 1 } else { s.to_bits() - 1 };
    f64::from_bits(toward)
}

/// Two f16 halves of a register, each through `f`.
pub(crate) fn x2(a: u64, b: u64, f: impl Fn(f64, f64) -> f64) -> u64 {
    (0..2).fold(0, |acc, k| acc | hbits(f(h(a >> (16 * k)), h(b >> (16 * k)))) << (16 * k))
}

/// `.ftz` of an f16 (PTX ISA 9.7.4.1-9.7.4.4, `.ftz`): a subnormal becomes a zero of
/// its sign.
pub(crate) fn hftz(v: u64) -> u64 {
    let v = v & 0xffff;
    if v & 0x7c00 == 0 { v & 0x8000 } else { v }
}

/// `.sat` of an f16 result (PTX ISA 9.7.4.1-9.7.4.4): clamped to [0.0, 1.0], a NaN
/// (and -0) made +0.
pub(crate) fn hsat(v: u64) -> u64 {
    let x = h(v);
    if x.is_nan() { 0 } else { hbits(x.clamp(0.0, 1.0) + 0.0) }
}

/// An f16 `add`, `sub`, `mul` or `fma` (`f` of the operands' values, rounded once by
/// [`hbits`]), with `.ftz` flushing the inputs and the result and then `.sat`.
pub(crate) fn half_op(srcs: &[u64], flush: bool, saturate: bool, f: impl Fn(&[f64]) -> f64) -> u64 {
    let x: Vec<f64> = srcs.iter().map(|&v| h(if flush { hftz(v) } else { v })).collect();
    let r = hbits(f(&x));
    let r = if flush { hftz(r) } else { r };
    if saturate { hsat(r) } else { r }
}

/// [`half_op`] on each half of `.f16x2` registers.
pub(crate) fn half_op2(srcs: &[u64], flush: bool, saturate: bool, f: impl Fn(&[f64]) -> f64) -> u64 {
    (0..2).fold(0, |acc, k| {
        let part: Vec<u64> = srcs.iter().map(|v| (v >> (16 * k)) & 0xffff).collect();
        acc | half_op(&part, flush, saturate, &f) << (16 * k)
    })
}

pub(crate) fn bh(v: u64) -> f64 {
    bf16::from_bits(v as u16).to_f64()
}

pub(crate) fn bbits(x: f64) -> u64 {
    let r = round_to(x, 8, -126);
    let r = if r.abs() >= 2f64.powi(128) { r.signum() * f64::INFINITY } else { r };
    u64::from(bf16::from_f64(r).to_bits())
}

/// `testp` (PTX ISA 9.7.3.x): the class of a float. Zero counts as normal, as the
/// H100 computes it (tests/hw/README.md, `leaf_arith`), and is not subnormal.
pub(crate) fn testp(finite: bool, nan: bool, subnormal: bool, op: u64) -> u64 {
    u64::from(match op {
        0 => finite,
        1 => !finite && !nan,
        2 => !nan,
        3 => nan,
        4 => finite && !subnormal,
        _ => subnormal,
    })
}

/// A 32-bit atomic on the low half of a memory word: `f` of the old value is stored,
/// the old value returned.
/// `.relu` of a 16-bit float's bits `v` of value `x`.
pub(crate) fn relu_half(v: u64, x: f64) -> u64 {
    if x.is_nan() {
        0x7fff
    } else if v & 0x8000 != 0 {
        0
    } else {
        v
    }
}

/// `cvt.{rna,rn,rz}{.satfinite}.tf32.f32` (PTX ISA 9.7.9.21; tf32 has f32's exponent
/// and 10 fraction bits, kept in 32 bits with the low 13 zero): the value rounded to
/// the tf32 quantum, 2^(e - 10) for a value in [2^e, 2^(e+1)) and 2^-136 below the
/// smallest normal; ties away from zero (`mode` 0, `.rna`), to even (1, `.rn`) or
/// toward zero (2, `.rz`); a result past the largest finite value is infinite, or with
/// `.satfinite` that largest value (0x7f7fe000), as an infinite operand is then.
pub(crate) fn tf32_ref(bits: u64, mode: u8, satfinite: bool) -> u64 {
    let x = f32_of(bits);
    let sign = bits & 0x8000_0000;
    if x.is_nan() {
        return bits;
    }
    let (max, inf) = (sign | 0x7f7f_e000, sign | 0x7f80_0000);
    if x.is_infinite() {
        return if satfinite { max } else { bits };
    }
    let a = f64::from(x.abs());
    if a == 0.0 {
        return bits;
    }
    let q = pow2((a.log2().floor() as i32 - 10).max(-136));
    let r = a / q;
    let (f, frac) = (r.floor(), r - r.floor());
    let n = match mode {
        0 => {
            if frac >= 0.5 {
                f + 1.0
            } else {
                f
            }
        }
        1 => {
            if frac > 0.5 || (frac == 0.5 && f % 2.0 == 1.0) {
                f + 1.0
            } else {
                f
            }
        }
        _ => f,
    };
    let v = n * q;
    if v >= pow2(128) {
        return if satfinite { max } else { inf };
    }
    sign | u64::from((v as f32).to_bits())
}

/// `slct`'s choice of `a` by an `.f32` selector (PTX ISA 9.7.6.4, slct): `c >= 0`,
/// where -0 equals 0, a NaN selects `b` ("the comparison is ordered"), and `.ftz`
/// flushes a subnormal `c` to a zero of its sign, which selects `a`.
pub(crate) fn slct_f32(c: u64, flush: bool) -> bool {
    let c = if flush { ftz(f32_of(c)) } else { f32_of(c) };
    c >= 0.0
}

/// `min`/`max` `.xorsign.abs` of f32s (PTX ISA 9.7.3.10, 9.7.3.11): of the absolute
/// values as plain `min`/`max` choose, with the sign bit set to the XOR of the
/// operands' sign bits unless the result is NaN.
pub(crate) fn xorsign(max: bool, a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & 0x8000_0000;
    let (x, y) = (f64::from(f32_of(a & 0x7fff_ffff)), f64::from(f32_of(b & 0x7fff_ffff)));
    let d = if max { fmax(x, y) } else { fmin(x, y) } as f32;
    if d.is_nan() { bits32(d) } else { bits32(d) | sign }
}

/// `div`, `rcp` (a = 1) and `sqrt` of f32s rounded toward zero (`mode` 0), minus
/// infinity (1) or plus infinity (2), without `.ftz`, from the f64 result: a quotient
/// or root of f32s that is not itself an f32 differs from every f32 `r` by at least
/// 2^-48 of it (`a - r*b` and `a - r*r` are nonzero multiples of the smaller quantum),
/// more than the f64 rounding error, so the f64 result lies on the same side of each
/// f32 as the exact one, and equals it when it is one.
pub(crate) fn div32(a: f32, b: f32, mode: u64) -> u64 {
    bits32(directed32(f64::from(a) / f64::from(b), 0.0, mode))
}

pub(crate) fn sqrt32(a: f32, mode: u64) -> u64 {
    bits32(directed32(f64::from(a).sqrt(), 0.0, mode))
}

/// `.sat` of an f32 result.
pub(crate) fn sat(x: f32) -> u64 {
    if x.is_nan() { 0 } else { bits32(x.clamp(0.0, 1.0) + 0.0) }
}

/// `.sat` of an f64 result.
pub(crate) fn sat64(x: f64) -> u64 {
    if x.is_nan() { 0 } else { (x.clamp(0.0, 1.0) + 0.0).to_bits() }
}

/// The exact value `s + e` (an f64 and its rounding error) rounded to f32 toward zero
/// (`mode` 0), minus infinity (1) or plus infinity (2): the host's round to nearest,
/// moved one step where it went the wrong way.
pub(crate) fn directed32(s: f64, e: f64, mode: u64) -> f32 {
    let r = s as f32;
    if s.is_nan() || s.is_infinite() {
        return r;
    }
    if r.is_infinite() {
        // Past the largest finite f32: only the rounding toward the value's infinity
        // reaches it.
        let max = f32::MAX.copysign(r);
        return match mode {
            1 if r > 0.0 => max,
            2 if r < 0.0 => max,
            0 => max,
            _ => r,
        };
    }
    let d = s - f64::from(r);
    let above = if d != 0.0 { d > 0.0 } else { e > 0.0 };
    let below = if d != 0.0 { d < 0.0 } else { e < 0.0 };
    match mode {
        0 if r > 0.0 && below => r.next_down(),
        0 if r < 0.0 && above => r.next_up(),
        1 if below => r.next_down(),
        2 if above => r.next_up(),
        _ => r,
    }
}

/// `x + y` of f64 operands and its exact error (Knuth's two-sum).
pub(crate) fn two_sum(x: f64, y: f64) -> (f64, f64) {
    let s = x + y;
    let bb = s - x;
    (s, (x - (s - bb)) + (y - bb))
}

/// A sum of f32s in a directed mode, with IEEE 754's zero signs: an exact zero sum of
/// operands that are not both -0 (or both +0) is +0, and -0 toward minus infinity.
pub(crate) fn add_dir(a: f32, b: f32, mode: u64) -> u64 {
    let (s, e) = two_sum(f64::from(a), f64::from(b));
    if s == 0.0 && e == 0.0 && !(a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative()) {
        return bits32(if mode == 1 { -0.0 } else { 0.0 });
    }
    bits32(directed32(s, e, mode))
}

pub(crate) fn fma_dir(a: f32, b: f32, c: f32, mode: u64) -> u64 {
    let p = f64::from(a) * f64::from(b);
    if !p.is_finite() || !c.is_finite() {
        return bits32(a.mul_add(b, c));
    }
    let (s, e) = two_sum(p, f64::from(c));
    if s == 0.0 && e == 0.0 && !(p == 0.0 && c == 0.0 && p.is_sign_negative() == c.is_sign_negative()) {
        return bits32(if mode == 1 { -0.0 } else { 0.0 });
    }
    bits32(directed32(s, e, mode))
}

/// `m * 2^e` rounded to an f64 toward zero (`mode` 0), minus infinity (1), plus
/// infinity (2) or to nearest even (3), negated when `neg`; `m` is not 0. The value is
/// exact: a caller that cut bits off below 2^e leaves the lowest bit of `m` set, which
/// decides the rounding like the bits it stands for as long as `m` keeps at least 55
/// bits (IEEE 754 section 4.3; PTX ISA 9.7.4, rounding modifiers).
pub(crate) fn round64(neg: bool, m: u128, e: i32, mode: u64) -> f64 {
    round_to_format(F64, neg, m, e, mode)
}

/// A binary float format: significant bits, the exponent of the smallest subnormal,
/// and the power of two that its finite values stay below.
#[derive(Clone, Copy)]
pub(crate) struct Format {
    p: i32,
    qmin: i32,
    top: i32,
}

pub(crate) const F64: Format = Format { p: 53, qmin: -1074, top: 1024 };

pub(crate) const F16: Format = Format { p: 11, qmin: -24, top: 16 };

pub(crate) const BF16: Format = Format { p: 8, qmin: -133, top: 128 };

/// e4m3's largest exponent also holds finite values, up to 448 (PTX ISA 5.2.5.1), so
/// its `max` is not its largest value: [`cvt_fp8x2`] saturates to 448 first.
pub(crate) const E4M3: Format = Format { p: 4, qmin: -9, top: 9 };

pub(crate) const E5M2: Format = Format { p: 3, qmin: -16, top: 16 };

impl Format {
    /// The largest finite value (IEEE formats).
    fn max(self) -> f64 {
        ((1u64 << self.p) - 1) as f64 * 2f64.powi(self.top - self.p)
    }
}

/// [`round64`] into any binary format: the result as an f64, which holds it exactly.
pub(crate) fn round_to_format(fmt: Format, neg: bool, m: u128, e: i32, mode: u64) -> f64 {
    let len = 128 - m.leading_zeros() as i32;
    // The quantum of the result: p significant bits, or the smallest subnormal.
    let q = (e + len - fmt.p).max(fmt.qmin);
    let (mut r, up) = if q <= e {
        (m << (e - q), false)
    } else {
        let shift = (q - e) as u32;
        let (r, rem) = if shift >= 128 { (0, m) } else { (m >> shift, m & ((1 << shift) - 1)) };
        // Past half the quantum: never when the quantum is above all of m's bits.
        let past_half = |odd: bool| {
            shift <= 128 && {
                let half = 1u128 << (shift - 1);
                rem > half || (rem == half && odd)
            }
        };
        let up = match mode {
            0 => false,
            1 => neg && rem != 0,
            2 => !neg && rem != 0,
            _ => past_half(r & 1 == 1),
        };
        (r, up)
    };
    r += u128::from(up);
    let sign = if neg { -1.0 } else { 1.0 };
    if r == 0 {
        return 0.0 * sign;
    }
    if 128 - r.leading_zeros() as i32 + q > fmt.top {
        // Past the largest finite value: only the rounding away from zero reaches the
        // infinity.
        let away = match mode {
            0 => false,
            1 => neg,
            2 => !neg,
            _ => true,
        };
        return sign * if away { f64::INFINITY } else { fmt.max() };
    }
    sign * (r as f64) * pow2(q)
}

/// An f32 or f64 value (exact as an f64) converted to `fmt` in `mode` (as [`round64`]),
/// as an f64; `.satfinite` makes a value past the largest finite one that one, an
/// infinity too, and `.relu` makes a negative one +0 (PTX ISA 9.7.9.21, cvt).
pub(crate) fn cvt_float(fmt: Format, x: f64, mode: u64, satfinite: bool, relu: bool) -> f64 {
    if x.is_nan() {
        return x;
    }
    let max = fmt.max();
    let x = if satfinite && x.abs() > max { max.copysign(x) } else { x };
    let x = if relu && x.is_sign_negative() { 0.0 } else { x };
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let (neg, m, e) = parts64(x);
    round_to_format(fmt, neg, m, e, mode)
}

/// `cvt` of an f32 or f64 to f16 bits, and of an f32 to bf16 bits.
pub(crate) fn cvt_f16(x: f64, mode: u64, satfinite: bool, relu: bool) -> u64 {
    u64::from(f16::from_f64(cvt_float(F16, x, mode, satfinite, relu)).to_bits())
}

pub(crate) fn cvt_bf16(x: f64, mode: u64, satfinite: bool, relu: bool) -> u64 {
    u64::from(bf16::from_f64(cvt_float(BF16, x, mode, satfinite, relu)).to_bits())
}

/// The two 8-bit float formats (PTX ISA 5.2.5.1): e4m3 (bias 7, no infinity, NaN
/// S.1111.111) and e5m2 (bias 15, IEEE-like).
pub(crate) fn fp8_of(x: f64, e5m2: bool) -> u64 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = u64::from(x.is_sign_negative()) << 7;
    if x.is_nan() {
        return sign | if e5m2 { 0x7e } else { 0x7f };
    }
    if x.is_infinite() {
        return sign | 0x7c;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let e = (a.log2().floor() as i32).max(1 - bias);
    // log2 of an exact power of two in these ranges is exact.
    let (field, frac) = if a < 2f64.powi(1 - bias) {
        (0, a / 2f64.powi(1 - bias - mbits))
    } else {
        ((e + bias) as u64, (a / 2f64.powi(e) - 1.0) * f64::from(1u32 << mbits))
    };
    sign | field << mbits | frac as u64
}

pub(crate) fn fp8_value(b: u64, e5m2: bool) -> f64 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let (field, frac) = ((b >> mbits) & ((1 << (7 - mbits)) - 1), b & ((1 << mbits) - 1));
    let nan = if e5m2 { field == 31 && frac != 0 } else { b & 0x7f == 0x7f };
    if nan {
        return f64::NAN;
    }
    if e5m2 && field == 31 {
        return sign * f64::INFINITY;
    }
    let m = frac as f64 / f64::from(1u32 << mbits);
    sign * if field == 0 { m * 2f64.powi(1 - bias) } else { (1.0 + m) * 2f64.powi(field as i32 - bias) }
}

/// `cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f32 d, a, b`: a into the high byte.
pub(crate) fn cvt_fp8x2(a: u64, b: u64, e5m2: bool, relu: bool) -> u64 {
    let fmt = if e5m2 { E5M2 } else { E4M3 };
    let one = |v: u64| {
        let x = f64::from(f32_of(v));
        // e4m3's largest finite value is 448, below its format's `top` by one quantum.
        let x = if !e5m2 && x.abs() > 448.0 { 448f64.copysign(x) } else { x };
        fp8_of(cvt_float(fmt, x, 3, true, relu), e5m2)
    };
    one(a) << 8 | one(b)
}

/// `cvt.rn.satfinite.e4m3x2/.e5m2x2.f16x2 d, a`: the high half into the high byte.
pub(crate) fn cvt_fp8x2_f16x2(a: u64, e5m2: bool) -> u64 {
    cvt_fp8x2(bits32(h(a >> 16) as f32), bits32(h(a) as f32), e5m2, false)
}

/// `cvt.rn{.relu}.f16x2.e4m3x2/.e5m2x2 d, a`: the high byte into the high half; the
/// conversion is exact.
pub(crate) fn cvt_f16x2_fp8(a: u64, e5m2: bool, relu: bool) -> u64 {
    let one = |b: u64| {
        let x = fp8_value(b, e5m2);
        hbits(if relu && !x.is_nan() && x.is_sign_negative() { 0.0 } else { x })
    };
    one((a >> 8) & 0xff) << 16 | one(a & 0xff)
}

/// 2^k as an f64, for k from -1074 to 1023.
pub(crate) fn pow2(k: i32) -> f64 {
    if k >= -1022 { f64::from_bits(((k + 1023) as u64) << 52) } else { f64::from_bits(1 << (k + 1074)) }
}

/// A finite, nonzero f64 as its sign, integer significand and exponent: `m * 2^e`.
pub(crate) fn parts64(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let (exp, frac) = ((b >> 52) & 0x7ff, b & ((1 << 52) - 1));
    let (m, e) = if exp == 0 { (frac, -1074) } else { (frac | 1 << 52, exp as i32 - 1075) };
    (b >> 63 == 1, u128::from(m), e)
}

/// A number that holds every exact sum and product of f64s: bit k of the limbs weighs
/// 2^(k - BIG_ORIGIN), from the square of the smallest subnormal, 2^-2148, to past the
/// square of the largest f64.
pub(crate) type Big = [u64; 68];

pub(crate) const BIG_ORIGIN: i32 = 2176;

pub(crate) fn big(m: u128, e: i32) -> Big {
    let mut b = [0; 68];
    for k in 0..128 {
        if (m >> k) & 1 == 1 {
            let at = (e + BIG_ORIGIN) as usize + k;
            b[at / 64] |= 1 << (at % 64);
        }
    }
    b
}

/// The signed sum of two signed magnitudes.
pub(crate) fn big_sum((na, a): (bool, Big), (nb, b): (bool, Big)) -> (bool, Big) {
    let mut out = [0u64; 68];
    if na == nb {
        let mut carry = 0u128;
        for k in 0..68 {
            let t = u128::from(a[k]) + u128::from(b[k]) + carry;
            out[k] = t as u64;
            carry = t >> 64;
        }
        return (na, out);
    }
    // Opposite signs: the larger magnitude less the smaller, with the larger's sign.
    let (neg, hi, lo) =
        if a.iter().rev().cmp(b.iter().rev()) == std::cmp::Ordering::Less { (nb, b, a) } else { (na, a, b) };
    let mut borrow = 0i128;
    for k in 0..68 {
        let t = i128::from(hi[k]) - i128::from(lo[k]) - borrow;
        out[k] = t as u64;
        borrow = i128::from(t < 0);
    }
    (neg, out)
}

/// A nonzero Big rounded to an f64: its top 120 bits, the lowest one also set when any
/// bit below them is.
pub(crate) fn big_round((neg, b): (bool, Big), mode: u64) -> f64 {
    let bit = |k: usize| (b[k / 64] >> (k % 64)) & 1;
    let top = (0..68 * 64).rev().find(|&k| bit(k) == 1).expect("a nonzero sum");
    let low = top.saturating_sub(119);
    let mut m = (low..=top).rev().fold(0u128, |m, k| m << 1 | u128::from(bit(k)));
    if (0..low).any(|k| bit(k) == 1) {
        m |= 1;
    }
    round64(neg, m, low as i32 - BIG_ORIGIN, mode)
}

/// `a * b + c` (`b` = 1 for a sum) of f64s rounded once in `mode` (as [`round64`]),
/// with IEEE 754's zero signs: an exact zero sum is -0 toward minus infinity and +0
/// otherwise, unless both terms are zeros of the same sign.
pub(crate) fn fma64(a: f64, b: f64, c: f64, mode: u64) -> f64 {
    if !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return a.mul_add(b, c);
    }
    let (p_neg, c_neg) = (a.is_sign_negative() != b.is_sign_negative(), c.is_sign_negative());
    let p = if a == 0.0 || b == 0.0 {
        [0; 68]
    } else {
        let ((_, ma, ea), (_, mb, eb)) = (parts64(a), parts64(b));
        big(ma * mb, ea + eb)
    };
    let cm = if c == 0.0 { [0; 68] } else { big(parts64(c).1, parts64(c).2) };
    let s = big_sum((p_neg, p), (c_neg, cm));
    if s.1.iter().all(|&w| w == 0) {
        // Terms of one sign sum to zero only when both are zeros.
        let neg = if p_neg == c_neg { p_neg } else { mode == 1 };
        return if neg { -0.0 } else { 0.0 };
    }
    big_round(s, mode)
}

pub(crate) fn mul64(a: f64, b: f64, mode: u64) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a * b;
    }
    let ((na, ma, ea), (nb, mb, eb)) = (parts64(a), parts64(b));
    round64(na != nb, ma * mb, ea + eb, mode)
}

pub(crate) fn div64(a: f64, b: f64, mode: u64) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a / b;
    }
    let ((na, ma, ea), (nb, mb, eb)) = (parts64(a), parts64(b));
    // Significands with their top bit at 52, then a quotient of at least 64 bits and a
    // remainder that says whether it is exact.
    let (sa, sb) = (ma.leading_zeros() - 75, mb.leading_zeros() - 75);
    let (ma, mb) = (ma << sa, mb << sb);
    let (q, rem) = ((ma << 64) / mb, (ma << 64) % mb);
    let e = ea - sa as i32 - (eb - sb as i32) - 64;
    round64(na != nb, q << 1 | u128::from(rem != 0), e - 1, mode)
}

pub(crate) fn sqrt64(a: f64, mode: u64) -> f64 {
    if !a.is_finite() || a <= 0.0 {
        return a.sqrt();
    }
    let (_, m, e) = parts64(a);
    // m * 2^k of 119 or 120 bits with e - k even, whose integer root has 60 bits.
    let mut k = 120 - (128 - m.leading_zeros() as i32);
    if (e - k) % 2 != 0 {
        k -= 1;
    }
    let n = m << k;
    let mut r = (n as f64).sqrt() as u128;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    round64(false, r << 1 | u128::from(r * r != n), (e - k) / 2 - 1, mode)
}

/// PTX `min`/`max` of floats: a NaN operand is ignored; -0 is below +0.
pub(crate) fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}

pub(crate) fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}

pub(crate) fn setp(a: f64, b: f64, cmp: u64) -> u64 {
    let un = a.is_nan() || b.is_nan();
    u64::from(match cmp {
        0 => !un && a == b,
        1 => !un && a != b,
        2 => !un && a < b,
        3 => !un && a <= b,
        4 => !un && a > b,
        5 => !un && a >= b,
        6 => un || a == b,
        7 => un || a != b,
        8 => un || a < b,
        9 => un || a <= b,
        10 => un || a > b,
        11 => un || a >= b,
        12 => !un,
        _ => un,
    })
}
