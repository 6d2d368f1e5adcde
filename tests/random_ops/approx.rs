//! The approximate instructions' results against the ISA's error bounds and special
//! values.

use super::*;

/// The distance in representable f32 values between two non-NaN floats (the zeros are
/// one value, the infinities one past the largest finite ones).
pub(crate) fn ulps32(a: f32, b: f32) -> u64 {
    let ord = |x: f32| {
        let v = i64::from(x.to_bits() & 0x7fff_ffff);
        if x.is_sign_negative() { -v } else { v }
    };
    ord(a).abs_diff(ord(b))
}

/// Whether `got` is a result the ISA allows for the approximate instruction `ax` on
/// the operands `ops` (the low word, and the high word for `div`'s divisor). The
/// bounds and special values are the ISA's (PTX ISA 9.7.3.13-9.7.3.22, 9.7.4.9-10):
///
/// - `sin`, `cos`: absolute error 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi],
///   no guarantee beyond; sin(±0) = ±0, cos(±0) = 1, of ±Inf NaN.
/// - `lg2`: absolute error 2^-22 for operands in (0.5, 2), relative 2^-22 elsewhere;
///   of ±0 -Inf, of a negative NaN, lg2(+Inf) = +Inf.
/// - `ex2`: 2 ulp from the correctly rounded result; ex2(-Inf) = +0, ex2(±0) = 1.
/// - `rcp`: 1 ulp; of ±0 ±Inf, of ±Inf ±0.
/// - `rsqrt`: relative error 2^-22.9; of ±0 ±Inf, of +Inf +0, of a negative NaN.
/// - `sqrt`: relative error 2^-23; of ±0 ±0, of a negative NaN.
/// - `tanh`: relative error 2^-11; of ±Inf ±1, of ±0 ±0.
/// - `div.approx`: `a * (1/b)`, 2 ulp for |b| in [2^-126, 2^126]; above, NaN when `a`
///   is infinite and a zero of the quotient's sign otherwise; for b = ±0 or ±Inf the
///   product with `rcp`'s special value; no bound for a subnormal `b`. `div.full`: 2
///   ulp everywhere.
/// - half `ex2`: relative error 2^-9.9 (`.f16`, subnormals supported) or 2^-7
///   (`.ftz.bf16`); half `tanh`: absolute error 2^-10.987 (`.f16`) or 2^-8 (`.bf16`).
/// - `rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64`: computed from the operand's high
///   word, the result's low word 0, a NaN operand gives 0x7fffffff00000000. The ISA
///   gives no error bound for these nor for `rsqrt.approx.f64`; the test asks for a
///   relative error of 2^-19, what 20 bits of mantissa allow.
///
/// `.ftz` flushes subnormal operands to zeros of their sign, and a result the exact
/// function puts below the smallest normal may be such a zero. Any NaN operand gives a
/// NaN ("an unspecified NaN" for f32).
pub(crate) fn approx_ok(ax: Ax, ops: u64, got: u64) -> bool {
    let flush32 = |x: f32, ftz: bool| if ftz && x.is_subnormal() { 0f32.copysign(x) } else { x };
    match ax {
        Ax::F32(fun, ftz) => {
            let (x, r) = (flush32(f32_of(ops), ftz), f32_of(got));
            if x.is_nan() {
                return r.is_nan();
            }
            let special = match fun {
                Fun::Sin if x == 0.0 => Some(x),
                Fun::Sin | Fun::Cos if x.is_infinite() => Some(f32::NAN),
                Fun::Cos if x == 0.0 => Some(1.0),
                Fun::Lg2 | Fun::Rsqrt | Fun::Sqrt if x < 0.0 => Some(f32::NAN),
                Fun::Lg2 if x == 0.0 => Some(f32::NEG_INFINITY),
                Fun::Ex2 if x == 0.0 => Some(1.0),
                Fun::Ex2 if x == f32::NEG_INFINITY => Some(0.0),
                Fun::Rcp | Fun::Rsqrt if x == 0.0 => Some(f32::INFINITY.copysign(x)),
                Fun::Rcp | Fun::Rsqrt if x.is_infinite() => Some(0f32.copysign(x)),
                Fun::Sqrt | Fun::Tanh if x == 0.0 => Some(x),
                Fun::Tanh if x.is_infinite() => Some(1f32.copysign(x)),
                Fun::Lg2 | Fun::Ex2 | Fun::Sqrt if x == f32::INFINITY => Some(x),
                _ => None,
            };
            if let Some(want) = special {
                return (want.is_nan() && r.is_nan()) || want.to_bits() == r.to_bits();
            }
            let x = f64::from(x);
            let e = match fun {
                Fun::Sin => x.sin(),
                Fun::Cos => x.cos(),
                Fun::Lg2 => x.log2(),
                Fun::Ex2 => x.exp2(),
                Fun::Rcp => 1.0 / x,
                Fun::Rsqrt => 1.0 / x.sqrt(),
                Fun::Sqrt => x.sqrt(),
                Fun::Tanh => x.tanh(),
            };
            if r.is_nan() {
                return false;
            }
            if ftz && r == 0.0 && e.abs() < f64::from(f32::MIN_POSITIVE) && r.is_sign_negative() == (e < 0.0)
            {
                return true;
            }
            let (r, tiny) = (f64::from(r), |k: f64| 2f64.powf(-k));
            match fun {
                Fun::Sin | Fun::Cos if x.abs() <= 2.0 * std::f64::consts::PI => (r - e).abs() <= tiny(20.5),
                Fun::Sin | Fun::Cos if x.abs() <= 100.0 * std::f64::consts::PI => (r - e).abs() <= tiny(14.7),
                Fun::Sin | Fun::Cos => true,
                Fun::Lg2 if x > 0.5 && x < 2.0 => (r - e).abs() <= tiny(22.0),
                Fun::Lg2 => (r - e).abs() <= tiny(22.0) * e.abs(),
                Fun::Ex2 => ulps32(r as f32, e as f32) <= 2,
                Fun::Rcp => ulps32(r as f32, e as f32) <= 1,
                Fun::Rsqrt => (r - e).abs() <= tiny(22.9) * e,
                Fun::Sqrt => (r - e).abs() <= tiny(23.0) * e,
                Fun::Tanh => (r - e).abs() <= tiny(11.0) * e.abs(),
            }
        }
        Ax::Div(full, ftz) => {
            let (a, b, r) = (flush32(f32_of(ops), ftz), flush32(f32_of(ops >> 32), ftz), f32_of(got));
            let q = f64::from(a) / f64::from(b);
            if a.is_nan() || b.is_nan() {
                return r.is_nan();
            }
            let flushed = ftz && r == 0.0 && q.abs() < f64::from(f32::MIN_POSITIVE);
            let within = |r: f32| !r.is_nan() && (ulps32(r, q as f32) <= 2 || flushed);
            let m = b.abs();
            if full {
                return if q.is_nan() { r.is_nan() } else { within(r) };
            }
            if m >= f32::MIN_POSITIVE && m <= 2f32.powi(126) {
                if q.is_nan() { r.is_nan() } else { within(r) }
            } else if m > 2f32.powi(126) && m.is_finite() {
                if a.is_infinite() {
                    r.is_nan()
                } else {
                    r == 0.0 && r.is_sign_negative() != (a.is_sign_negative() == b.is_sign_negative())
                }
            } else if m == 0.0 || m.is_infinite() {
                let p = a * if m == 0.0 { f32::INFINITY.copysign(b) } else { 0f32.copysign(b) };
                (p.is_nan() && r.is_nan()) || p.to_bits() == r.to_bits()
            } else {
                true
            }
        }
        Ax::Half(fun, bf16, pair) => (0..if pair { 2 } else { 1 }).all(|k| {
            let (x, r) = ((ops >> (16 * k)) & 0xffff, (got >> (16 * k)) & 0xffff);
            let (x, r, max, min_normal) = if bf16 {
                (bh(x), bh(r), f64::from(bf16::MAX), f64::from(f32::MIN_POSITIVE))
            } else {
                (h(x), h(r), 65504.0, 2f64.powi(-14))
            };
            // Only the bf16 ex2 flushes (it exists only with .ftz).
            let flush = bf16 && fun == Fun::Ex2;
            let x = if flush && x != 0.0 && x.abs() < min_normal { 0f64.copysign(x) } else { x };
            if x.is_nan() {
                return r.is_nan();
            }
            let e = if fun == Fun::Ex2 { x.exp2() } else { x.tanh() };
            let special = x == 0.0 || x.is_infinite();
            if special {
                // ex2: -Inf +0, ±0 1, +Inf +Inf; tanh: ±0 ±0, ±Inf ±1.
                return r.to_bits() == e.to_bits();
            }
            if r.is_nan() {
                return false;
            }
            if fun == Fun::Tanh {
                return (r - e).abs() <= 2f64.powf(if bf16 { -8.0 } else { -10.987 });
            }
            let bound = 2f64.powf(if bf16 { -7.0 } else { -9.9 });
            if r.is_infinite() {
                return e * (1.0 + bound) > max;
            }
            if flush && r == 0.0 && e < min_normal {
                return true;
            }
            // Below the smallest normal, the format's own spacing (2^-24 for f16).
            (r - e).abs() <= (bound * e).max(if bf16 { 0.0 } else { 2f64.powi(-24) })
        }),
        Ax::F64(fun, ftz) => {
            const HIGH: u64 = 0xffff_ffff_0000_0000;
            let x = f64_of(if ftz { ops & HIGH } else { ops });
            let x = if ftz && x.is_subnormal() { 0f64.copysign(x) } else { x };
            let r = f64_of(got);
            if ftz && got & !HIGH != 0 {
                return false;
            }
            if x.is_nan() {
                return if ftz { got == 0x7fff_ffff_0000_0000 } else { r.is_nan() };
            }
            let e = if fun == Fun::Rcp { 1.0 / x } else { 1.0 / x.sqrt() };
            if fun == Fun::Rsqrt && x < 0.0 {
                return r.is_nan();
            }
            if x == 0.0 || x.is_infinite() {
                return r.to_bits() == e.to_bits();
            }
            if ftz && r == 0.0 && e.abs() < f64::MIN_POSITIVE && r.is_sign_negative() == (e < 0.0) {
                return true;
            }
            !r.is_nan() && (r - e).abs() <= 2f64.powi(-19) * e.abs()
        }
    }
}
