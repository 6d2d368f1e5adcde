//! f32 and f64 `add`, `sub`, `mul`, `fma`, `div`, `sqrt` and `rcp` in any rounding
//! mode (PTX ISA 9.7.3), and the half-precision `add`, `sub`, `mul`, `fma` of f16 and
//! bf16 (9.7.4, `.rn` only), with `.ftz` (subnormal inputs and results flushed to
//! zero of the same sign) and `.sat`: each result is computed exactly by
//! [`super::round`] and rounded once. Special operands (NaN, infinities, division by
//! zero) give the IEEE 754 result, which no rounding mode changes; a NaN result is
//! the canonical NaN, except in f64, where it is [`super::float::f64_nan`] of the
//! operands. An exact zero sum of operands of opposite signs is +0, or -0 under `.rm`
//! (IEEE 754 section 6.3).

use super::float::{F32_CANONICAL_NAN, FOp, f64_nan};
use super::round::{self, Exact, Format, Rnd};
use std::cmp::Ordering;

fn to_f64(fmt: Format, bits: u64) -> f64 {
    super::cvt::widen(fmt, bits)
}

/// A value the format holds exactly (infinities, zeros, results of exact operations).
fn from_f64(fmt: Format, x: f64) -> u64 {
    if x.is_infinite() {
        fmt.inf() | if x < 0.0 { fmt.sign_bit() } else { 0 }
    } else {
        round::round(fmt, Exact::of(round::F64, x.to_bits()), Rnd::Rn)
    }
}

/// The NaN result of an operation on `ops`: the canonical NaN of f32 and the halves
/// (0x7fff), the NaN operand (or default NaN) of f64.
fn nan(fmt: Format, ops: &[u64]) -> u64 {
    match fmt {
        round::F32 => u64::from(F32_CANONICAL_NAN),
        round::F64 => f64_nan(ops),
        _ => fmt.nan(),
    }
}

fn negate(x: Exact) -> Exact {
    Exact { neg: !x.neg, ..x }
}

/// `a + b` with the sign rule for an exact zero.
fn add(a: Exact, b: Exact, rnd: Rnd) -> Exact {
    let r = round::sum(a, b);
    if r.m == 0 && r.rest == Ordering::Equal {
        return Exact { neg: if a.neg == b.neg { a.neg } else { rnd == Rnd::Rm }, ..r };
    }
    r
}

/// `.sat`: clamped to [0.0, 1.0], NaN and -0.0 to +0.0.
pub fn saturate(fmt: Format, bits: u64) -> u64 {
    let x = to_f64(fmt, bits);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        from_f64(fmt, 1.0)
    } else {
        bits
    }
}

/// `add/sub/mul/div.rnd{.ftz}{.sat}` on `fmt` bits.
pub fn binary(fmt: Format, op: FOp, rnd: Rnd, ftz: bool, sat: bool, a: u64, b: u64) -> u64 {
    let flush = |v: u64| if ftz { fmt.flush(v) } else { v };
    let (a, b) = (flush(a), flush(b));
    let (x, y) = (to_f64(fmt, a), to_f64(fmt, b));
    let native = match op {
        FOp::Add => x + y,
        FOp::Sub => x - y,
        FOp::Mul => x * y,
        FOp::Div => x / y,
    };
    let r = if native.is_nan() {
        nan(fmt, &[a, b])
    } else if !x.is_finite() || !y.is_finite() || (op == FOp::Div && y == 0.0) {
        from_f64(fmt, native)
    } else {
        let (p, q) = (Exact::of(fmt, a), Exact::of(fmt, b));
        let exact = match op {
            FOp::Add => add(p, q, rnd),
            FOp::Sub => add(p, negate(q), rnd),
            FOp::Mul => round::product(p, q),
            FOp::Div => round::quotient(p, q),
        };
        flush(round::round(fmt, exact, rnd))
    };
    if sat { saturate(fmt, r) } else { r }
}

/// `fma.rnd{.ftz}{.sat}`: `a*b + c` rounded once.
pub fn fma(fmt: Format, rnd: Rnd, ftz: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let flush = |v: u64| if ftz { fmt.flush(v) } else { v };
    let (a, b, c) = (flush(a), flush(b), flush(c));
    let (x, y, z) = (to_f64(fmt, a), to_f64(fmt, b), to_f64(fmt, c));
    let native = x.mul_add(y, z);
    let r = if native.is_nan() {
        nan(fmt, &[a, b, c])
    } else if !x.is_finite() || !y.is_finite() || !z.is_finite() {
        from_f64(fmt, native)
    } else {
        let p = round::product(Exact::of(fmt, a), Exact::of(fmt, b));
        flush(round::round(fmt, add(p, Exact::of(fmt, c), rnd), rnd))
    };
    if sat { saturate(fmt, r) } else { r }
}

/// `sqrt.rnd{.ftz}`.
pub fn sqrt(fmt: Format, rnd: Rnd, ftz: bool, a: u64) -> u64 {
    let a = if ftz { fmt.flush(a) } else { a };
    let x = to_f64(fmt, a);
    if x.is_nan() || x < 0.0 {
        nan(fmt, &[a])
    } else if x == 0.0 || x.is_infinite() {
        a
    } else {
        let r = round::round(fmt, round::root(Exact::of(fmt, a)), rnd);
        if ftz { fmt.flush(r) } else { r }
    }
}

/// `rcp.rnd{.ftz}`: `1 / a` rounded once.
pub fn rcp(fmt: Format, rnd: Rnd, ftz: bool, a: u64) -> u64 {
    binary(fmt, FOp::Div, rnd, ftz, false, from_f64(fmt, 1.0), a)
}

/// `min`/`max{.ftz}{.NaN}{.xorsign.abs}` of a half, with the rules of f32 `min`/`max`
/// (PTX ISA 9.7.4.9, 9.7.4.10): one NaN input gives the other, two give the canonical
/// NaN, `-0 < +0`.
pub fn half_min_max(fmt: Format, m: super::float::MinMax, ftz: bool, a: u64, b: u64) -> u64 {
    let (a, b) = if ftz { (fmt.flush(a), fmt.flush(b)) } else { (a, b) };
    let sb = fmt.sign_bit();
    let sign = (a ^ b) & sb;
    let (x, y) = if m.xorsign_abs { (a & !sb, b & !sb) } else { (a, b) };
    let key = |v: u64| {
        let mag = (v & !sb) as i64;
        if v & sb != 0 { -mag - 1 } else { mag }
    };
    match super::float::min_max(m, x, y, |v| fmt.is_nan(v), |p, q| key(p) < key(q)) {
        None => nan(fmt, &[]),
        Some(r) if m.xorsign_abs => r | sign,
        Some(r) => r,
    }
}

/// `neg`/`abs` of a half: the sign bit flipped or cleared (NaN: the canonical NaN).
pub fn half_abs_neg(fmt: Format, abs: bool, ftz: bool, a: u64) -> u64 {
    let a = if ftz { fmt.flush(a) } else { a };
    if fmt.is_nan(a) {
        nan(fmt, &[a])
    } else if abs {
        a & !fmt.sign_bit()
    } else {
        a ^ fmt.sign_bit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::{bf16, f16};

    #[test]
    fn half_arithmetic_is_the_exact_result_rounded_once() {
        // f16 sums and products are exact in f64, so f64 arithmetic and one rounding
        // is a reference: scaled to the f16 quantum and rounded to an integer, ties to
        // even, by the host. (The half crate's from_f64 goes through f32 and can round
        // twice, so it only encodes the already rounded value.)
        let f16_rn = |r: f64| -> u64 {
            if r.is_nan() {
                return 0x7fff;
            }
            let e = if r == 0.0 || r.is_infinite() { 0 } else { (r.abs().log2().floor() as i32).max(-14) };
            // log2 can round up just below a power of two.
            let e = if r.abs() < 2f64.powi(e) && e > -14 { e - 1 } else { e };
            let q = 2f64.powi(e - 10);
            let v = if r.is_infinite() { r } else { (r / q).round_ties_even() * q };
            let v = if v.abs() >= 65536.0 { v.signum() * f64::INFINITY } else { v };
            u64::from(f16::from_f64(v).to_bits())
        };
        let vals: Vec<u16> = (0..=0xffffu32).step_by(97).map(|v| v as u16).collect();
        for &a in &vals {
            for &b in vals.iter().step_by(5) {
                let (x, y) = (f16::from_bits(a).to_f64(), f16::from_bits(b).to_f64());
                for (op, r) in [(FOp::Add, x + y), (FOp::Sub, x - y), (FOp::Mul, x * y)] {
                    let want = f16_rn(r);
                    let got = binary(round::F16, op, Rnd::Rn, false, false, u64::from(a), u64::from(b));
                    assert_eq!(got, want, "{op:?} {a:#x} {b:#x}");
                }
            }
        }
        // bf16: 1 + 2^-8 is halfway between 1 and 1 + 2^-7; a tiny addend decides.
        let one = u64::from(bf16::from_f32(1.0).to_bits());
        let half_ulp = u64::from(bf16::from_f32(2f32.powi(-8)).to_bits());
        let tiny = u64::from(bf16::from_f32(2f32.powi(-60)).to_bits());
        let mid = binary(round::BF16, FOp::Add, Rnd::Rn, false, false, one, half_ulp);
        assert_eq!(mid, one, "a tie goes to even");
        // (1 + 2^-4)^2 = 1 + 2^-3 + 2^-8 is a tie too; a tiny addend puts the exact
        // sum above it (computing in f64 first would lose the addend and round to even).
        let a = u64::from(bf16::from_f32(1.0625).to_bits());
        let up = u64::from(bf16::from_f32(1.0 + 2f32.powi(-3) + 2f32.powi(-7)).to_bits());
        let even = u64::from(bf16::from_f32(1.125).to_bits());
        assert_eq!(fma(round::BF16, Rnd::Rn, false, false, a, a, tiny), up);
        assert_eq!(fma(round::BF16, Rnd::Rn, false, false, a, a, 0), even);
        // .sat and .ftz on f16.
        let two = u64::from(f16::from_f32(2.0).to_bits());
        assert_eq!(binary(round::F16, FOp::Mul, Rnd::Rn, false, true, two, two), 0x3c00);
        assert_eq!(binary(round::F16, FOp::Mul, Rnd::Rn, true, false, 0x0400, 0x3800), 0);
        assert_eq!(binary(round::F16, FOp::Mul, Rnd::Rn, false, false, 0x0400, 0x3800), 0x0200);
        assert_eq!(half_abs_neg(round::F16, false, false, 0x3c00), 0xbc00);
        // min/max: f16 values compare as their f32 widenings, -0 below +0, NaN ignored.
        let mm = super::super::float::MinMax::default();
        let mx = super::super::float::MinMax { max: true, ..mm };
        for &a in vals.iter().step_by(3) {
            for &b in vals.iter().step_by(7) {
                let (x, y) = (f16::from_bits(a).to_f32(), f16::from_bits(b).to_f32());
                let lt = |p: f32, q: f32| {
                    p < q || (p == 0.0 && q == 0.0 && p.is_sign_negative() && q.is_sign_positive())
                };
                let pick = |first: bool| u64::from(if first { a } else { b });
                let (want_min, want_max) = match (x.is_nan(), y.is_nan()) {
                    (true, true) => (0x7fff, 0x7fff),
                    (true, false) => (pick(false), pick(false)),
                    (false, true) => (pick(true), pick(true)),
                    _ => (pick(lt(x, y)), pick(lt(y, x))),
                };
                assert_eq!(half_min_max(round::F16, mm, false, u64::from(a), u64::from(b)), want_min);
                assert_eq!(half_min_max(round::F16, mx, false, u64::from(a), u64::from(b)), want_max);
            }
        }
        assert_eq!(half_abs_neg(round::BF16, true, false, 0xff80), 0x7f80);
    }
}
