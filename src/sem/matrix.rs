//! The arithmetic of `mma.sync` (PTX ISA 9.7.14.5.14): one element of `D = A*B + C`
//! from a row of `A`, a column of `B` and an element of `C`.
//!
//! - f64 (`m8n8k4`): an H100 computes `fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0,
//!   b0, c))))`, each fused and rounded to nearest: 6,333 of the 6,336 elements of
//!   tests/hw/tensor's f64 cases; ptxvm's NaN rule (`sem::float::f64_nan`) gives
//!   the other 3.
//! - integers (`.s8`/`.u8` into `.s32`): exact, wrapped to 32 bits or, with
//!   `.satfinite`, clamped.
//! - f16, bf16 and tf32 into f32: the tensor cores do not round each step; they align
//!   the exact products and `c` to the largest exponent and drop the bits below it.
//!   [`dot_f32`] models that: each product's exponent is the sum of its factors'
//!   exponents, terms keep 2 bits below the largest one's 24, the sum is truncated
//!   toward zero, and a sum past the largest finite f32 becomes infinity. It gives the
//!   H100's bits for every element of tests/hw/tensor's 94 f16, bf16 and tf32 cases
//!   (random bit patterns, extremes included); tf32 operands are their register's top
//!   19 bits.

use super::float::f64_nan;
use super::round::{Exact, F32, F64, Rnd, product, round};
use std::cmp::Ordering;

/// `c + sum(a[k] * b[k])` in f32, as the tensor cores add (see the module's text).
pub fn dot_f32(a: &[f32], b: &[f32], c: f32) -> f32 {
    let specials = a.iter().chain(b).any(|x| !x.is_finite()) || !c.is_finite();
    if specials {
        let r = a.iter().zip(b).fold(f64::from(c), |s, (x, y)| s + f64::from(*x) * f64::from(*y));
        return if r.is_nan() { f32::from_bits(0x7fff_ffff) } else { r as f32 };
    }
    let exact = |x: f32| Exact::of(F32, u64::from(x.to_bits()));
    // Each term exactly, with the exponent the tensor cores align it by: a product's
    // is the sum of its factors' leading-bit exponents.
    let mut terms: Vec<(Exact, i32)> = Vec::with_capacity(a.len() + 1);
    for (x, y) in a.iter().zip(b) {
        if *x != 0.0 && *y != 0.0 {
            let (ex, ey) = (exact(*x), exact(*y));
            terms.push((product(ex, ey), ex.top() + ey.top()));
        }
    }
    if c != 0.0 {
        terms.push((exact(c), exact(c).top()));
    }
    let Some(top) = terms.iter().map(|t| t.1).max() else {
        // Every term is zero: +0, or -0 when c is -0 and no product is non-zero.
        return if c == 0.0 && a.iter().zip(b).all(|(x, y)| *x == 0.0 || *y == 0.0) { c } else { 0.0 };
    };
    // Keep 24 + 2 bits below the largest term's leading bit, dropping the rest.
    let q = top - 25;
    let sum: i128 = terms
        .iter()
        .map(|(t, _)| {
            let shift = q - t.e;
            let m = t.m as i128;
            let v = if shift >= 0 { if shift >= 127 { 0 } else { m >> shift } } else { m << -shift };
            if t.neg { -v } else { v }
        })
        .sum();
    let sum = Exact { neg: sum < 0, m: sum.unsigned_abs(), e: q, rest: Ordering::Equal };
    // Rounded toward zero; but past the largest finite value, infinity (as the H100
    // gives), where rounding toward zero would stop at the largest finite value.
    if sum.m != 0 && sum.top() > 127 {
        return if sum.neg { f32::NEG_INFINITY } else { f32::INFINITY };
    }
    f32::from_bits(round(F32, sum, Rnd::Rz) as u32)
}

/// `c + sum(a[k] * b[k])` of f64, as the H100's double-precision `mma` fuses it: one
/// `fma` per product, in order. A NaN result is the first NaN of `a`, then `b`, then
/// `c`, quieted ([`f64_nan`] of the operands in that order), which is what the H100
/// gave for the 3 NaN elements of tests/hw/tensor.
pub fn dot_f64(a: &[f64], b: &[f64], c: f64) -> f64 {
    dot_f64_rounded(a, b, c, Rnd::Rn)
}

/// [`dot_f64`] with each `fma` rounded by `rnd` (`wmma.mma`'s `.rn`, `.rz`, `.rm`,
/// `.rp`, PTX ISA 9.7.14.4.5).
pub fn dot_f64_rounded(a: &[f64], b: &[f64], c: f64, rnd: Rnd) -> f64 {
    let fma = |x: &f64, y: &f64, acc: f64| match rnd {
        Rnd::Rn => x.mul_add(*y, acc),
        _ => f64::from_bits(super::farith::fma(
            F64,
            rnd,
            false,
            false,
            x.to_bits(),
            y.to_bits(),
            acc.to_bits(),
        )),
    };
    let r = a.iter().zip(b).fold(c, |acc, (x, y)| fma(x, y, acc));
    if r.is_nan() {
        let ops: Vec<u64> = a.iter().chain(b).chain([&c]).map(|x| x.to_bits()).collect();
        f64::from_bits(f64_nan(&ops))
    } else {
        r
    }
}

/// `c + sum(a[k] * b[k])` of integers, wrapped to 32 bits or clamped (`.satfinite`).
pub fn dot_int(a: &[i64], b: &[i64], c: i64, satfinite: bool) -> u32 {
    let s = a.iter().zip(b).fold(c, |acc, (x, y)| acc + x * y);
    if satfinite { s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32 } else { s as u32 }
}

/// `c + popc(a & b)` (`.and.popc`) or `c + popc(a ^ b)` (`.xor.popc`) over a row of
/// single bits and a column, wrapped to 32 bits (PTX ISA 9.7.14.4.5).
pub fn dot_b1(a: &[bool], b: &[bool], c: i64, and: bool) -> u32 {
    let count = a.iter().zip(b).filter(|(x, y)| if and { **x && **y } else { x != y }).count();
    (c + count as i64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sums_come_out_exact_and_the_rest_toward_zero() {
        // Small integers: exact whatever the alignment.
        assert_eq!(dot_f32(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], 0.5), 32.5);
        assert_eq!(dot_f32(&[-1.0], &[1.0], 1.0), 0.0);
        // 1 + 2^-30 and 1 - 2^-30: the small term lies 30 bits below the large one and
        // is dropped, whatever its sign.
        assert_eq!(dot_f32(&[2f32.powi(-15)], &[2f32.powi(-15)], 1.0), 1.0);
        assert_eq!(dot_f32(&[-(2f32.powi(-15))], &[2f32.powi(-15)], 1.0), 1.0);
        // 1 + 2^-25 keeps the term (2 bits below the 24) and rounds toward zero, to 1.
        assert_eq!(dot_f32(&[2f32.powi(-12)], &[2f32.powi(-13)], 1.0), 1.0);
        // 1 - 2^-25 rounds toward zero, to the f32 just below 1.
        assert_eq!(dot_f32(&[-(2f32.powi(-12))], &[2f32.powi(-13)], 1.0), f32::from_bits(0x3f7f_ffff));
        assert!(dot_f32(&[f32::INFINITY], &[0.0], 1.0).is_nan());
        assert_eq!(dot_f64(&[1.0, 2.0], &[3.0, 4.0], 1.0), 12.0);
        assert_eq!(dot_int(&[127, 127], &[127, 127], i64::from(i32::MAX), true), i32::MAX as u32);
        assert_eq!(dot_int(&[-128], &[127], 0, false), (-128i32 * 127) as u32);
        let (x, y) = ([true, true, false, false], [true, false, true, false]);
        assert_eq!(dot_b1(&x, &y, 10, true), 11);
        assert_eq!(dot_b1(&x, &y, -1, false), 1);
        // 1 + 2^-60 is not an f64: toward zero 1, upward the next f64 above 1.
        let tiny = 2f64.powi(-30);
        assert_eq!(dot_f64_rounded(&[tiny], &[tiny], 1.0, Rnd::Rz), 1.0);
        assert_eq!(dot_f64_rounded(&[tiny], &[tiny], 1.0, Rnd::Rp), 1.0 + f64::EPSILON);
        assert_eq!(dot_f64_rounded(&[-tiny], &[tiny], 1.0, Rnd::Rm), 1.0 - f64::EPSILON / 2.0);
        assert_eq!(dot_f64_rounded(&[tiny], &[tiny], 1.0, Rnd::Rn), 1.0);
    }
}
