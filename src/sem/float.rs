//! Single- and double-precision arithmetic with the default `.rn` rounding (PTX ISA
//! 9.7.3 "Floating-Point Instructions"): `add`, `sub`, `mul`, `fma` on bits, with
//! `.ftz` (f32 only: subnormal inputs and results flushed to zero of the same sign)
//! and `.sat` (results clamped to [0.0, 1.0], NaN becomes +0.0). Rust's `+ - *` and
//! `mul_add` are IEEE 754 round-to-nearest-even with a single rounding for `fma`,
//! which is exactly `.rn`. The ISA leaves the bits of a NaN result unspecified; ptxvm
//! writes NVIDIA's canonical NaN 0x7fffffff for f32 and, by the same pattern,
//! 0x7fffffffffffffff for f64. Both are to be confirmed against real hardware when a
//! GPU is lent (DESIGN.md, "Oracles"), as are NaN results of every other operation.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    Mul,
}

/// The canonical NaN NVIDIA GPUs produce for single precision.
pub const F32_CANONICAL_NAN: u32 = 0x7fff_ffff;
/// The NaN ptxvm writes for double precision (not yet confirmed on hardware).
pub const F64_NAN: u64 = 0x7fff_ffff_ffff_ffff;

fn flush32(v: f32, ftz: bool) -> f32 {
    if ftz && v.is_subnormal() { f32::from_bits(v.to_bits() & 0x8000_0000) } else { v }
}

fn finish32(r: f32, ftz: bool, sat: bool) -> u32 {
    if r.is_nan() {
        return if sat { 0 } else { F32_CANONICAL_NAN };
    }
    let r = flush32(r, ftz);
    let r = if sat { r.clamp(0.0, 1.0) } else { r };
    // clamp keeps -0.0; saturation maps it to +0.0.
    if sat && r == 0.0 { 0 } else { r.to_bits() }
}

/// `add/sub/mul{.rn}{.ftz}{.sat}.f32`.
pub fn f32_binary(op: FOp, a: u32, b: u32, ftz: bool, sat: bool) -> u32 {
    let (x, y) = (flush32(f32::from_bits(a), ftz), flush32(f32::from_bits(b), ftz));
    let r = match op {
        FOp::Add => x + y,
        FOp::Sub => x - y,
        FOp::Mul => x * y,
    };
    finish32(r, ftz, sat)
}

/// `fma.rn{.ftz}{.sat}.f32`: `a*b + c` rounded once.
pub fn f32_fma(a: u32, b: u32, c: u32, ftz: bool, sat: bool) -> u32 {
    let f = |x: u32| flush32(f32::from_bits(x), ftz);
    finish32(f(a).mul_add(f(b), f(c)), ftz, sat)
}

/// `add/sub/mul{.rn}.f64`.
pub fn f64_binary(op: FOp, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let r = match op {
        FOp::Add => x + y,
        FOp::Sub => x - y,
        FOp::Mul => x * y,
    };
    if r.is_nan() { F64_NAN } else { r.to_bits() }
}

/// `fma.rn.f64`.
pub fn f64_fma(a: u64, b: u64, c: u64) -> u64 {
    let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
    if r.is_nan() { F64_NAN } else { r.to_bits() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn round_to_nearest_even() {
        // 1 + 2^-24 is exactly halfway between 1 and the next f32: ties go to even (1).
        assert_eq!(f32_binary(FOp::Add, b(1.0), b(5.960_464_5e-8), false, false), b(1.0));
        // 1 + 3*2^-24 is halfway between 1+2^-23 and 1+2^-22: ties to even (1+2^-22).
        assert_eq!(f32_binary(FOp::Add, b(1.0), b(1.788_139_3e-7), false, false), 0x3f80_0002);
        assert_eq!(f32_binary(FOp::Mul, b(3.0), b(0.1), false, false), 0x3e99_999a);
        assert_eq!(f64_binary(FOp::Add, 0.1f64.to_bits(), 0.2f64.to_bits()), 0x3fd3_3333_3333_3334);
    }

    #[test]
    fn fma_rounds_once() {
        // (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24: exact under one rounding, lost under two.
        let x = b(1.0 + 2f32.powi(-12));
        assert_eq!(f32_fma(x, x, b(-1.0), false, false), b(2f32.powi(-11) + 2f32.powi(-24)));
        let two_roundings =
            f32_binary(FOp::Add, f32_binary(FOp::Mul, x, x, false, false), b(-1.0), false, false);
        assert_ne!(two_roundings, b(2f32.powi(-11) + 2f32.powi(-24)));
    }

    #[test]
    fn ftz_flushes_inputs_and_results_keeping_the_sign() {
        let min_sub = 1u32;
        assert_eq!(f32_binary(FOp::Add, min_sub, 0, false, false), min_sub);
        assert_eq!(f32_binary(FOp::Add, min_sub, 0, true, false), 0);
        assert_eq!(f32_binary(FOp::Mul, b(-1.0), min_sub, true, false), 0x8000_0000);
        // A normal product whose result is subnormal is flushed too.
        assert_eq!(f32_binary(FOp::Mul, b(1e-20), b(1e-20), true, false), 0);
        assert_ne!(f32_binary(FOp::Mul, b(1e-20), b(1e-20), false, false), 0);
    }

    #[test]
    fn sat_clamps_and_nan_becomes_zero() {
        assert_eq!(f32_binary(FOp::Add, b(0.75), b(0.5), false, true), b(1.0));
        assert_eq!(f32_binary(FOp::Sub, b(0.25), b(0.5), false, true), 0);
        assert_eq!(f32_binary(FOp::Mul, b(-0.0), b(1.0), false, true), 0, "-0 saturates to +0");
        assert_eq!(f32_binary(FOp::Add, b(f32::INFINITY), b(f32::NEG_INFINITY), false, true), 0);
        assert_eq!(
            f32_binary(FOp::Add, b(f32::INFINITY), b(f32::NEG_INFINITY), false, false),
            F32_CANONICAL_NAN
        );
        assert_eq!(f32_fma(b(2.0), b(2.0), b(-3.5), false, true), b(0.5));
    }
}
