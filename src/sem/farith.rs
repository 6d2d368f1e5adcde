//! f32 and f64 `add`, `sub`, `mul`, `fma`, `div`, `sqrt` and `rcp` in any rounding
//! mode (PTX ISA 9.7.3), with `.ftz` (f32: subnormal inputs and results flushed to
//! zero of the same sign) and `.sat`: each result is computed exactly by
//! [`super::round`] and rounded once. Special operands (NaN, infinities, division by
//! zero) give the IEEE 754 result, which no rounding mode changes; a NaN result is
//! the canonical NaN. An exact zero sum of operands of opposite signs is +0, or -0
//! under `.rm` (IEEE 754 section 6.3).

use super::float::{F32_CANONICAL_NAN, F64_NAN, FOp};
use super::round::{self, Exact, Format, Rnd};
use std::cmp::Ordering;

fn to_f64(fmt: Format, bits: u64) -> f64 {
    if fmt == round::F32 { f64::from(f32::from_bits(bits as u32)) } else { f64::from_bits(bits) }
}

/// A value the format holds exactly (infinities, zeros, results of exact operations).
fn from_f64(fmt: Format, x: f64) -> u64 {
    if fmt == round::F32 { u64::from((x as f32).to_bits()) } else { x.to_bits() }
}

fn nan(fmt: Format) -> u64 {
    if fmt == round::F32 { u64::from(F32_CANONICAL_NAN) } else { F64_NAN }
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

/// `.sat`: clamped to [0.0, 1.0], NaN and -0.0 to +0.0 (f32 only).
pub fn saturate(bits: u64) -> u64 {
    let x = f32::from_bits(bits as u32);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        u64::from(1f32.to_bits())
    } else {
        bits
    }
}

/// `add/sub/mul/div.rnd{.ftz}{.sat}` on `fmt` (F32 or F64) bits.
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
        nan(fmt)
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
    if sat { saturate(r) } else { r }
}

/// `fma.rnd{.ftz}{.sat}`: `a*b + c` rounded once.
pub fn fma(fmt: Format, rnd: Rnd, ftz: bool, sat: bool, a: u64, b: u64, c: u64) -> u64 {
    let flush = |v: u64| if ftz { fmt.flush(v) } else { v };
    let (a, b, c) = (flush(a), flush(b), flush(c));
    let (x, y, z) = (to_f64(fmt, a), to_f64(fmt, b), to_f64(fmt, c));
    let native = x.mul_add(y, z);
    let r = if native.is_nan() {
        nan(fmt)
    } else if !x.is_finite() || !y.is_finite() || !z.is_finite() {
        from_f64(fmt, native)
    } else {
        let p = round::product(Exact::of(fmt, a), Exact::of(fmt, b));
        flush(round::round(fmt, add(p, Exact::of(fmt, c), rnd), rnd))
    };
    if sat { saturate(r) } else { r }
}

/// `sqrt.rnd{.ftz}`.
pub fn sqrt(fmt: Format, rnd: Rnd, ftz: bool, a: u64) -> u64 {
    let a = if ftz { fmt.flush(a) } else { a };
    let x = to_f64(fmt, a);
    if x.is_nan() || x < 0.0 {
        nan(fmt)
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
