//! Single- and double-precision arithmetic with the default `.rn` rounding (PTX ISA
//! 9.7.3 "Floating-Point Instructions"): `add`, `sub`, `mul`, `fma` on bits, with
//! `.ftz` (f32 only: subnormal inputs and results flushed to zero of the same sign)
//! and `.sat` (results clamped to [0.0, 1.0], NaN becomes +0.0). Rust's `+ - *` and
//! `mul_add` are IEEE 754 round-to-nearest-even with a single rounding for `fma`,
//! which is exactly `.rn`.
//!
//! NaN results, as an H100 writes them (tests/hw/leaf_arith): f32 arithmetic gives the
//! canonical NaN 0x7fffffff. f64 arithmetic passes a NaN operand through, quieted
//! ([`f64_nan`]), and an invalid operation on numbers (0 * inf, inf - inf, 0 / 0, the
//! square root of a negative) gives 0xfff8000000000000.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    Mul,
    /// `div.rn` (and `rcp.rn` as `1 / a`); the host's division is IEEE 754's.
    Div,
}

/// The canonical NaN NVIDIA GPUs produce for single precision.
pub const F32_CANONICAL_NAN: u32 = 0x7fff_ffff;
/// The NaN an H100 writes for an invalid f64 operation whose operands are numbers.
pub const F64_DEFAULT_NAN: u64 = 0xfff8_0000_0000_0000;

fn f64_is_nan(x: u64) -> bool {
    x & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000
}

/// The result of an f64 operation that gives NaN, from its operands in PTX order: the
/// first NaN operand with its quiet bit set (sign and payload kept), or
/// [`F64_DEFAULT_NAN`] when every operand is a number. The H100 showed this for `add`,
/// `sub`, `mul`, `div`, `fma`, `rcp`, `sqrt`, `neg` and `abs` (tests/hw/leaf_arith).
/// When two operands are different NaNs, which one the hardware returns depends on how
/// ptxas ordered the operands, not on the PTX (tests/hw/README.md lists those cases).
pub fn f64_nan(ops: &[u64]) -> u64 {
    ops.iter().find(|&&x| f64_is_nan(x)).map_or(F64_DEFAULT_NAN, |&x| x | 1 << 51)
}

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

/// `add/sub/mul/div{.rn}{.ftz}{.sat}.f32`.
pub fn f32_binary(op: FOp, a: u32, b: u32, ftz: bool, sat: bool) -> u32 {
    let (x, y) = (flush32(f32::from_bits(a), ftz), flush32(f32::from_bits(b), ftz));
    let r = match op {
        FOp::Add => x + y,
        FOp::Sub => x - y,
        FOp::Mul => x * y,
        FOp::Div => x / y,
    };
    finish32(r, ftz, sat)
}

/// `fma.rn{.ftz}{.sat}.f32`: `a*b + c` rounded once.
pub fn f32_fma(a: u32, b: u32, c: u32, ftz: bool, sat: bool) -> u32 {
    let f = |x: u32| flush32(f32::from_bits(x), ftz);
    finish32(f(a).mul_add(f(b), f(c)), ftz, sat)
}

/// `add/sub/mul/div{.rn}.f64`.
pub fn f64_binary(op: FOp, a: u64, b: u64) -> u64 {
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    let r = match op {
        FOp::Add => x + y,
        FOp::Sub => x - y,
        FOp::Mul => x * y,
        FOp::Div => x / y,
    };
    if r.is_nan() { f64_nan(&[a, b]) } else { r.to_bits() }
}

/// `fma.rn.f64`.
pub fn f64_fma(a: u64, b: u64, c: u64) -> u64 {
    let r = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
    if r.is_nan() { f64_nan(&[a, b, c]) } else { r.to_bits() }
}

/// `abs{.ftz}.f32` and `neg{.ftz}.f32`: the sign bit cleared or flipped. The ISA
/// leaves a NaN result unspecified; ptxvm writes the canonical NaN, as for every other
/// f32 NaN result.
pub fn f32_abs_neg(abs: bool, a: u32, ftz: bool) -> u32 {
    let x = flush32(f32::from_bits(a), ftz);
    if x.is_nan() {
        return F32_CANONICAL_NAN;
    }
    let b = x.to_bits();
    if abs { b & 0x7fff_ffff } else { b ^ 0x8000_0000 }
}

/// `abs.f64` and `neg.f64`. A NaN comes back quieted with its sign unchanged, by both
/// (the H100; the ISA leaves `neg` of a NaN unspecified).
pub fn f64_abs_neg(abs: bool, a: u64) -> u64 {
    if f64_is_nan(a) {
        return f64_nan(&[a]);
    }
    if abs { a & !(1 << 63) } else { a ^ 1 << 63 }
}

/// The classes `testp` tests for (PTX ISA 9.7.3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FClass {
    Finite,
    Infinite,
    Number,
    NotANumber,
    Normal,
    Subnormal,
}

/// `testp.class` on f32 (`bits` 32) or f64 bits (PTX ISA 9.7.3.6). As the H100
/// answers (tests/hw/leaf_arith), zero counts as `.normal`: normal means finite and not
/// subnormal.
pub fn testp(class: FClass, bits: u32, x: u64) -> bool {
    use FClass::*;
    let (exp_mask, frac_mask) = if bits == 64 {
        (0x7ff0_0000_0000_0000u64, 0x000f_ffff_ffff_ffffu64)
    } else {
        (0x7f80_0000, 0x007f_ffff)
    };
    let (e, f) = (x & exp_mask, x & frac_mask);
    let nan = e == exp_mask && f != 0;
    let inf = e == exp_mask && f == 0;
    let sub = e == 0 && f != 0;
    match class {
        Finite => e != exp_mask,
        Infinite => inf,
        Number => !nan,
        NotANumber => nan,
        Normal => e != exp_mask && !sub,
        Subnormal => sub,
    }
}

/// `copysign.{f32,f64} d, a, b`: `b` with the sign bit of `a` (bits only, NaNs
/// included). `bits` is 32 or 64.
pub fn copysign(bits: u32, a: u64, b: u64) -> u64 {
    let sign = 1u64 << (bits - 1);
    (b & !sign) | (a & sign)
}

/// How `min`/`max` treat NaN and signs (PTX ISA 9.7.3.11, 9.7.3.12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MinMax {
    pub max: bool,
    /// `.NaN`: any NaN input gives the canonical NaN (otherwise a NaN input is
    /// ignored and only two NaNs give NaN).
    pub nan: bool,
    /// `.xorsign.abs`: compare magnitudes; the result's sign is the XOR of the inputs'.
    pub xorsign_abs: bool,
}

/// `min`/`max` of two values as ordered by `less` (-0 before +0), NaN rules included;
/// `None` stands for a NaN result.
pub(super) fn min_max<T: Copy>(
    m: MinMax,
    x: T,
    y: T,
    is_nan: impl Fn(T) -> bool,
    less: impl Fn(T, T) -> bool,
) -> Option<T> {
    match (is_nan(x), is_nan(y)) {
        (true, true) => None,
        (true, false) | (false, true) if m.nan => None,
        (true, false) => Some(y),
        (false, true) => Some(x),
        // The ISA: (x < y) ? x : y for min, (x > y) ? x : y for max.
        (false, false) if m.max => Some(if less(y, x) { x } else { y }),
        (false, false) => Some(if less(x, y) { x } else { y }),
    }
}

/// Total order of two non-NaN floats by their bits with -0 < +0: sign-magnitude.
fn key(bits: u64, width: u32) -> i128 {
    let sign = bits >> (width - 1) & 1 == 1;
    let mag = i128::from(bits & ((1u64 << (width - 1)) - 1));
    if sign { -mag - 1 } else { mag }
}

/// `min/max{.ftz}{.NaN}{.xorsign.abs}.f32`.
pub fn f32_min_max(m: MinMax, a: u32, b: u32, ftz: bool) -> u32 {
    let (mut x, mut y) =
        (flush32(f32::from_bits(a), ftz).to_bits(), flush32(f32::from_bits(b), ftz).to_bits());
    let sign = (x ^ y) & 0x8000_0000;
    if m.xorsign_abs {
        (x, y) = (x & 0x7fff_ffff, y & 0x7fff_ffff);
    }
    let nan = |v: u32| f32::from_bits(v).is_nan();
    match min_max(m, x, y, nan, |p, q| key(u64::from(p), 32) < key(u64::from(q), 32)) {
        None => F32_CANONICAL_NAN,
        Some(r) if m.xorsign_abs => r | sign,
        Some(r) => r,
    }
}

/// `min/max.f64`.
pub fn f64_min_max(m: MinMax, a: u64, b: u64) -> u64 {
    let nan = |v: u64| f64::from_bits(v).is_nan();
    min_max(m, a, b, nan, |p, q| key(p, 64) < key(q, 64)).unwrap_or_else(|| f64_nan(&[a, b]))
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

    /// Values covering each class: zeros, subnormals, normals, infinities, NaNs.
    fn specials32() -> Vec<u32> {
        let v = [0.0f32, -0.0, 1.0, -1.0, 2.5, -3.75, 1e-40, -1e-40, f32::MAX, f32::MIN, f32::INFINITY];
        let mut out: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
        out.extend([f32::NEG_INFINITY.to_bits(), 0x7fc0_0000, 0xffc0_0001, 0x7f80_0001, 1, 0x8000_0001]);
        out
    }

    #[test]
    fn min_max_follow_the_isa_nan_and_zero_rules() {
        for &a in &specials32() {
            for &b in &specials32() {
                for ftz in [false, true] {
                    let fl = |v: u32| if ftz { flush32(f32::from_bits(v), true).to_bits() } else { v };
                    let (x, y) = (f32::from_bits(fl(a)), f32::from_bits(fl(b)));
                    // The reference: IEEE comparisons, with -0 below +0 decided by the sign.
                    let lt = |p: f32, q: f32| {
                        p < q || (p == 0.0 && q == 0.0 && p.is_sign_negative() && !q.is_sign_negative())
                    };
                    let (want_min, want_max) = match (x.is_nan(), y.is_nan()) {
                        (true, true) => (F32_CANONICAL_NAN, F32_CANONICAL_NAN),
                        (true, false) => (y.to_bits(), y.to_bits()),
                        (false, true) => (x.to_bits(), x.to_bits()),
                        _ => (
                            if lt(x, y) { x.to_bits() } else { y.to_bits() },
                            if lt(y, x) { x.to_bits() } else { y.to_bits() },
                        ),
                    };
                    let min = MinMax::default();
                    let max = MinMax { max: true, ..min };
                    assert_eq!(f32_min_max(min, a, b, ftz), want_min, "min {a:#x} {b:#x}");
                    assert_eq!(f32_min_max(max, a, b, ftz), want_max, "max {a:#x} {b:#x}");
                    let any_nan = x.is_nan() || y.is_nan();
                    let nan_min = MinMax { nan: true, ..min };
                    let want = if any_nan { F32_CANONICAL_NAN } else { want_min };
                    assert_eq!(f32_min_max(nan_min, a, b, ftz), want);
                    // f64 follows the same rules on the widened values.
                    let (wa, wb) =
                        (f64::from(f32::from_bits(a)).to_bits(), f64::from(f32::from_bits(b)).to_bits());
                    let got = f64::from_bits(f64_min_max(max, wa, wb));
                    if want_max == F32_CANONICAL_NAN && !ftz {
                        assert!(got.is_nan());
                    } else if !ftz {
                        assert_eq!(got.to_bits(), f64::from(f32::from_bits(want_max)).to_bits());
                    }
                }
            }
        }
        // .xorsign.abs: the smaller magnitude with the XOR of the signs.
        let xs = MinMax { xorsign_abs: true, ..MinMax::default() };
        assert_eq!(f32_min_max(xs, b(-3.0), b(2.0), false), b(-2.0));
        assert_eq!(f32_min_max(xs, b(-3.0), b(-2.0), false), b(2.0));
        assert_eq!(f32_min_max(MinMax { max: true, ..xs }, b(-3.0), b(2.0), false), b(-3.0));
    }

    #[test]
    fn abs_neg_and_copysign_work_on_the_sign_bit() {
        for &a in &specials32() {
            let x = f32::from_bits(a);
            let want = |v: f32| if v.is_nan() { F32_CANONICAL_NAN } else { v.to_bits() };
            assert_eq!(f32_abs_neg(true, a, false), want(x.abs()));
            assert_eq!(f32_abs_neg(false, a, false), want(-x));
            let flushed = if x.is_subnormal() { 0.0f32.copysign(x) } else { x };
            assert_eq!(f32_abs_neg(false, a, true), want(-flushed));
            let w = f64::from(x).to_bits();
            if !x.is_nan() {
                assert_eq!(f64_abs_neg(true, w), f64::from(x).abs().to_bits());
                assert_eq!(f64_abs_neg(false, w), (-f64::from(x)).to_bits());
            }
            for &c in &specials32() {
                let y = f32::from_bits(c);
                assert_eq!(copysign(32, u64::from(a), u64::from(c)), u64::from(y.copysign(x).to_bits()));
            }
        }
        // A NaN comes back quieted with its sign, from abs.f64 and neg.f64 alike (the
        // H100: tests/hw/leaf_arith, e.g. neg.f64 of 0x7ff4000000000000 is
        // 0x7ffc000000000000).
        assert_eq!(f64_abs_neg(true, 0xfff8_0000_0000_0001), 0xfff8_0000_0000_0001);
        assert_eq!(f64_abs_neg(false, 0xfff8_0000_0000_0001), 0xfff8_0000_0000_0001);
        assert_eq!(f64_abs_neg(false, 0x7ff4_0000_0000_0000), 0x7ffc_0000_0000_0000);
        assert_eq!(f64_abs_neg(true, 0xfff4_0000_0000_0000), 0xfffc_0000_0000_0000);
    }
}
