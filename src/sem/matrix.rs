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

/// `floor(log2 |x|)` of a finite non-zero f32, and its significand as an integer
/// (`x = m * 2^(e - 23)`, `m` below 2^24).
fn parts(x: f32) -> (i32, i64) {
    let b = x.to_bits();
    let (exp, frac) = ((b >> 23 & 0xff) as i32, i64::from(b & 0x7f_ffff));
    if exp == 0 {
        // Subnormal: normalise.
        let lead = 63 - frac.leading_zeros() as i32;
        (lead - 149, frac << (23 - lead))
    } else {
        (exp - 127, frac | 1 << 23)
    }
}

/// `c + sum(a[k] * b[k])` in f32, as the tensor cores add (see the module's text).
pub fn dot_f32(a: &[f32], b: &[f32], c: f32) -> f32 {
    let specials = a.iter().chain(b).any(|x| !x.is_finite()) || !c.is_finite();
    if specials {
        let r = a.iter().zip(b).fold(f64::from(c), |s, (x, y)| s + f64::from(*x) * f64::from(*y));
        return if r.is_nan() { f32::from_bits(0x7fff_ffff) } else { r as f32 };
    }
    // Terms as (sign, exponent of the term's leading bit estimate, significand, scale):
    // value = m * 2^scale.
    let mut terms: Vec<(bool, i32, i128, i32)> = Vec::with_capacity(a.len() + 1);
    for (x, y) in a.iter().zip(b) {
        if *x == 0.0 || *y == 0.0 {
            continue;
        }
        let ((ex, mx), (ey, my)) = (parts(*x), parts(*y));
        let neg = x.is_sign_negative() != y.is_sign_negative();
        terms.push((neg, ex + ey, i128::from(mx * my), ex + ey - 46));
    }
    if c != 0.0 {
        let (ec, mc) = parts(c);
        terms.push((c.is_sign_negative(), ec, i128::from(mc), ec - 23));
    }
    let Some(top) = terms.iter().map(|t| t.1).max() else {
        // Every term is zero: +0, or -0 when c is -0 and no product is non-zero.
        return if c == 0.0 && a.iter().zip(b).all(|(x, y)| *x == 0.0 || *y == 0.0) { c } else { 0.0 };
    };
    // Keep 24 + 2 bits below the largest term's leading bit, dropping the rest.
    let q = top - 25;
    let sum: i128 = terms
        .iter()
        .map(|&(neg, _, m, scale)| {
            let shift = q - scale;
            let v = if shift >= 0 { if shift >= 127 { 0 } else { m >> shift } } else { m << -shift };
            if neg { -v } else { v }
        })
        .sum();
    round_toward_zero(sum, q)
}

/// `v * 2^scale` rounded toward zero to f32; past the largest finite value, infinity
/// (as the H100 gives).
fn round_toward_zero(v: i128, scale: i32) -> f32 {
    if v == 0 {
        return 0.0;
    }
    let neg = v < 0;
    let mut m = v.unsigned_abs();
    let mut e = scale;
    // Normalise to 24 significant bits, dropping the rest.
    let bits = 128 - m.leading_zeros() as i32;
    if bits > 24 {
        m >>= bits - 24;
        e += bits - 24;
    } else {
        m <<= 24 - bits;
        e -= 24 - bits;
    }
    // Value: m * 2^e with m in [2^23, 2^24): the leading bit's exponent is e + 23.
    let lead = e + 23;
    let sign = if neg { 0x8000_0000 } else { 0 };
    if lead > 127 {
        return f32::from_bits(sign | 0x7f80_0000);
    }
    if lead < -126 {
        // Subnormal: shift out what does not fit, toward zero.
        let shift = -126 - lead;
        let frac = if shift >= 24 { 0 } else { (m >> shift) as u32 };
        return f32::from_bits(sign | frac);
    }
    f32::from_bits(sign | ((lead + 127) as u32) << 23 | (m as u32 & 0x7f_ffff))
}

/// `c + sum(a[k] * b[k])` of f64, as the H100's double-precision `mma` fuses it: one
/// `fma` per product, in order. A NaN result is the first NaN of `a`, then `b`, then
/// `c`, quieted ([`f64_nan`] of the operands in that order), which is what the H100
/// gave for the 3 NaN elements of tests/hw/tensor.
pub fn dot_f64(a: &[f64], b: &[f64], c: f64) -> f64 {
    let r = a.iter().zip(b).fold(c, |acc, (x, y)| x.mul_add(*y, acc));
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
    }
}
