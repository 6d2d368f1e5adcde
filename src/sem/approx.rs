//! The approximate instructions (PTX ISA 9.7.3.15-9.7.3.23, 9.7.4.7-9.7.4.8): `ex2`,
//! `lg2`, `sin`, `cos`, `rcp`, `rsqrt`, `sqrt` and `tanh` `.approx`, `div.approx` and
//! `div.full`, and the f16/bf16 forms of `ex2` and `tanh`.
//!
//! An H100 runs each of these on its special-function unit (SASS `MUFU.*`), and ptxas
//! wraps the unit in a few instructions that this file reproduces exactly (the SASS of
//! ptxas 13.5 for sm_90, quoted at each function): the unit flushes subnormal inputs
//! and results to zero, so the forms without `.ftz` scale small operands by 2^24 first
//! and scale the result back; `sin` and `cos` take their operand in revolutions, times
//! 1/2π rounded toward zero; `div` multiplies by the reciprocal.
//!
//! The unit itself interpolates in tables whose contents NVIDIA does not publish.
//! ptxvm computes each of its functions in f64 and rounds once to the result format,
//! so it is at least as accurate as the hardware; tests/approx.rs measures how far
//! from the H100's bits that lands, instruction by instruction (the README has the
//! figures), and checks the special values (zeros, infinities, NaN, subnormals) bit for
//! bit.

use super::round::{self, Format};

/// A function of the special-function unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApproxFn {
    Ex2,
    Lg2,
    Sin,
    Cos,
    Rcp,
    Rsqrt,
    Sqrt,
    Tanh,
}

/// The smallest normal f32.
const MIN_NORMAL: f32 = f32::MIN_POSITIVE;

fn flush(x: f32) -> f32 {
    if x.is_subnormal() { 0.0f32.copysign(x) } else { x }
}

/// The f64 value of `f` at `x`, rounded once to f32.
fn exact(f: ApproxFn, x: f32) -> f32 {
    let x = f64::from(x);
    let r = match f {
        ApproxFn::Ex2 => x.exp2(),
        ApproxFn::Lg2 => x.log2(),
        // In revolutions: the fraction of a turn of |x|, with the sign of x for sin
        // (the H100 gives sin of -0 and of -2^31 revolutions as -0).
        ApproxFn::Sin => {
            let s = (std::f64::consts::TAU * x.abs().fract()).sin();
            if x.is_sign_negative() { -s } else { s }
        }
        ApproxFn::Cos => (std::f64::consts::TAU * x.abs().fract()).cos(),
        ApproxFn::Rcp => 1.0 / x,
        ApproxFn::Rsqrt => 1.0 / x.sqrt(),
        ApproxFn::Sqrt => x.sqrt(),
        ApproxFn::Tanh => x.tanh(),
    };
    r as f32
}

/// The special-function unit on f32 (`MUFU.EX2` ...): subnormal operands and results
/// are flushed, except by `tanh`, which passes a subnormal through; NaN gives the
/// canonical NaN; `sin`/`cos` of an infinity is NaN.
fn mufu(f: ApproxFn, x: f32) -> f32 {
    if f == ApproxFn::Tanh {
        return if x.is_nan() { f32::from_bits(CANONICAL) } else { exact(f, x) };
    }
    let x = flush(x);
    if x.is_nan() || (matches!(f, ApproxFn::Sin | ApproxFn::Cos) && x.is_infinite()) {
        return f32::from_bits(CANONICAL);
    }
    let r = match (f, x) {
        // The exact results the f64 route could miss by a sign.
        (ApproxFn::Rcp | ApproxFn::Rsqrt, z) if z == 0.0 => f32::INFINITY.copysign(z),
        (ApproxFn::Sqrt, z) if z == 0.0 => z,
        (ApproxFn::Lg2, 0.0) => f32::NEG_INFINITY,
        _ => exact(f, x),
    };
    if r.is_nan() { f32::from_bits(CANONICAL) } else { flush(r) }
}

const CANONICAL: u32 = super::float::F32_CANONICAL_NAN;

/// `ex2/lg2/sin/cos/rcp/rsqrt/sqrt/tanh.approx{.ftz}.f32` on bits.
pub fn approx_f32(f: ApproxFn, ftz: bool, bits: u32) -> u32 {
    let x = f32::from_bits(bits);
    let tiny = |x: f32| x.abs() < MIN_NORMAL;
    let r = match f {
        _ if ftz && f != ApproxFn::Sin && f != ApproxFn::Cos => mufu(f, x),
        // FSETP.GEU P0, x, -126; @!P0 FMUL x, x, 0.5; MUFU.EX2; @!P0 FMUL r, r, r
        ApproxFn::Ex2 if x < -126.0 => {
            let r = mufu(f, x * 0.5);
            r * r
        }
        // |x| < 2^-126: FMUL x, 2^24; MUFU.LG2; FADD r, -24
        ApproxFn::Lg2 if tiny(x) => mufu(f, x * 16_777_216.0) - 24.0,
        // FMUL.RZ x, 0.15915493667125701904; MUFU.SIN / MUFU.COS
        ApproxFn::Sin | ApproxFn::Cos => {
            let x = if ftz { flush(x) } else { x };
            mufu(f, mul_rz(x, f32::from_bits(0x3e22_f983)))
        }
        // The scale is 2^24 below 2^-126, 1/4 above 2^126, 1 otherwise:
        // FMUL x, s; MUFU.RCP; FMUL r, s, r
        ApproxFn::Rcp => {
            let s = if tiny(x) {
                16_777_216.0
            } else if x.abs() > 8.507_059e37 {
                0.25
            } else {
                1.0
            };
            s * mufu(f, x * s)
        }
        // |x| < 2^-126: FMUL x, 2^24; MUFU.RSQ; FMUL r, 4096
        ApproxFn::Rsqrt if tiny(x) => mufu(f, x * 16_777_216.0) * 4096.0,
        // |x| < 2^-126: FMUL x, 2^24; MUFU.SQRT; FMUL r, 2^-12
        ApproxFn::Sqrt if tiny(x) => mufu(f, x * 16_777_216.0) / 4096.0,
        _ => mufu(f, x),
    };
    if r.is_nan() { CANONICAL } else { r.to_bits() }
}

/// `a * b` in f32, rounded toward zero.
fn mul_rz(a: f32, b: f32) -> f32 {
    use super::float::FOp;
    use super::round::{F32, Rnd};
    let r =
        super::farith::binary(F32, FOp::Mul, Rnd::Rz, false, false, a.to_bits().into(), b.to_bits().into());
    f32::from_bits(r as u32)
}

/// `div.approx{.ftz}.f32` and `div.full{.ftz}.f32`: `a` times the unit's reciprocal of
/// `b`, after scaling both by 2^24 when `|b| < 2^-126` (not under `.ftz`) and, for
/// `.full`, by 1/4 when `|b| > 2^126`:
/// `MUFU.RCP r, b; FMUL d, r, a` (`FMUL.FTZ` under `.ftz`).
pub fn div_approx(full: bool, ftz: bool, a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (f32::from_bits(a), f32::from_bits(b));
    if ftz {
        (x, y) = (flush(x), flush(y));
    }
    if full && y.abs() > 8.507_059e37 {
        (x, y) = (x * 0.25, y * 0.25);
    }
    if !ftz && y.abs() < MIN_NORMAL {
        (x, y) = (x * 16_777_216.0, y * 16_777_216.0);
    }
    let r = mufu(ApproxFn::Rcp, y) * x;
    let r = if ftz { flush(r) } else { r };
    if r.is_nan() { CANONICAL } else { r.to_bits() }
}

/// `rcp.approx.ftz.f64`: the unit's reciprocal (`MUFU.RCP64H`) of the operand's high
/// word, the rest of its mantissa dropped (PTX ISA 9.7.3.14: "tmp = a\[63:32\]",
/// "d\[31:0\] = 0"), truncated to the result's high word (a NaN gives 0x7fffffff00000000,
/// subnormal operands and results are zeros). Against the H100 table this gives 93.1%
/// of the results bit for bit and the rest one unit of the high word away; reading
/// the whole operand gave 50.6%, and rounding the result to nearest 57.2%.
pub fn rcp_approx_f64(bits: u64) -> u64 {
    let x = f64::from_bits(bits & 0xffff_ffff_0000_0000);
    let x = if x.is_subnormal() { 0.0f64.copysign(x) } else { x };
    if x.is_nan() {
        return 0x7fff_ffff_0000_0000;
    }
    let r = 1.0 / x;
    let r = if r.is_subnormal() { 0.0f64.copysign(r) } else { r };
    r.to_bits() & 0xffff_ffff_0000_0000
}

/// `rsqrt.approx.f64`: the reciprocal square root, rounded once (a NaN operand is
/// quieted, a negative one gives the default NaN, as f64 arithmetic does); 8,192 of
/// 8,192 H100 results bit for bit.
///
/// `rsqrt.approx.ftz.f64` is the unit's (`MUFU.RSQ64H`) and, like
/// [`rcp_approx_f64`], reads the operand's high word only and writes the result's high
/// word only (PTX ISA 9.7.3.17: "tmp = a\[63:32\]", "d\[31:0\] = 0x00000000"; input NaNs
/// give 0x7fffffff00000000, subnormal operands and results are zeros); the high word
/// is truncated, as the H100 does for `rcp` (an inference: tests/hw/approx has no
/// `rsqrt.approx.ftz.f64` results).
pub fn rsqrt_approx_f64(ftz: bool, bits: u64) -> u64 {
    const HIGH: u64 = 0xffff_ffff_0000_0000;
    let x = f64::from_bits(if ftz { bits & HIGH } else { bits });
    let x = if ftz && x.is_subnormal() { 0.0f64.copysign(x) } else { x };
    if x.is_nan() || x < 0.0 {
        return if ftz { 0x7fff_ffff_0000_0000 } else { super::float::f64_nan(&[x.to_bits()]) };
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x).to_bits();
    }
    let r = 1.0 / x.sqrt();
    if ftz { r.to_bits() & HIGH } else { r.to_bits() }
}

/// `ex2.approx{.ftz}` and `tanh.approx` of a half (`MUFU.EX2.F16`, `MUFU.TANH.BF16`
/// ...): the function of the half's value, rounded once to the half's format; NaN
/// gives 0x7fff; `.ftz` flushes subnormal bf16 results.
pub fn approx_half(f: ApproxFn, fmt: Format, ftz: bool, bits: u64) -> u64 {
    let x = super::cvt::widen(fmt, bits);
    if x.is_nan() {
        return fmt.nan();
    }
    let r = match f {
        ApproxFn::Ex2 => x.exp2(),
        _ => x.tanh(),
    };
    let out = if r.is_infinite() {
        fmt.inf() | if r < 0.0 { fmt.sign_bit() } else { 0 }
    } else {
        round::round(fmt, round::Exact::of(round::F64, r.to_bits()), round::Rnd::Rn)
    };
    if ftz { fmt.flush(out) } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values the H100 computed (tests/hw/approx): the scaled paths, the revolutions,
    /// the special values.
    #[test]
    fn the_wrappers_around_the_unit_give_the_h100s_special_values() {
        let f = |x: f32| x.to_bits();
        // 2^0 and lg2 of the smallest subnormal (-149, through the 2^24 scaling).
        assert_eq!(approx_f32(ApproxFn::Ex2, false, 0), f(1.0));
        assert_eq!(approx_f32(ApproxFn::Lg2, false, 1), 0xc315_0000);
        assert_eq!(approx_f32(ApproxFn::Lg2, false, 0x8000_0000), f(f32::NEG_INFINITY));
        assert_eq!(approx_f32(ApproxFn::Lg2, false, f(-1.0)), CANONICAL);
        // sin(2^23) lands on 1/8 turn: the revolutions keep 2^23/2pi's f32 rounding.
        // sin(pi) is 0 on the H100 and 1.9e-7 here (pi/2pi is half a turn less 2^-25,
        // which the unit rounds to half a turn): within the unit's absolute error.
        assert_eq!(approx_f32(ApproxFn::Sin, false, f(8_388_608.0)), 0x3f35_04f3);
        assert!(f32::from_bits(approx_f32(ApproxFn::Sin, false, 0x4049_0fdb)).abs() < 2.0f32.powi(-21));
        assert_eq!(approx_f32(ApproxFn::Sin, false, 1), 0);
        assert_eq!(approx_f32(ApproxFn::Cos, false, f(f32::INFINITY)), CANONICAL);
        // rcp of the largest finite: through the 1/4 scaling, a subnormal result.
        assert_eq!(approx_f32(ApproxFn::Rcp, false, 0x7f7f_ffff), 0x0020_0000);
        assert_eq!(approx_f32(ApproxFn::Rcp, false, 0x8000_0000), f(f32::NEG_INFINITY));
        assert_eq!(approx_f32(ApproxFn::Rsqrt, false, 1), 0x64b5_04f3);
        assert_eq!(approx_f32(ApproxFn::Sqrt, false, 0x8000_0000), 0x8000_0000);
        assert_eq!(approx_f32(ApproxFn::Tanh, false, 0x007f_ffff), 0x007f_ffff);
        assert_eq!(approx_f32(ApproxFn::Ex2, true, f(-1.0)), f(0.5));
        assert_eq!(rcp_approx_f64(std::f64::consts::FRAC_1_PI.recip().to_bits()) >> 32, 0x3fd4_5f30);
        assert_eq!(rcp_approx_f64(f64::NAN.to_bits()), 0x7fff_ffff_0000_0000);
        // The ftz f64 forms read the operand's high word only (2 + 2^-52 is 2) and
        // write the high word of the result: rsqrt(2) = 0x3fe6a09e667f3bcd.
        assert_eq!(rsqrt_approx_f64(true, 0x4000_0000_0000_0001), 0x3fe6_a09e_0000_0000);
        assert_eq!(rsqrt_approx_f64(true, 4f64.to_bits()), 0.5f64.to_bits());
        assert_eq!(rsqrt_approx_f64(true, (-1f64).to_bits()), 0x7fff_ffff_0000_0000);
        assert_eq!(rsqrt_approx_f64(true, 1), f64::INFINITY.to_bits());
        assert_eq!(rsqrt_approx_f64(false, 0x4000_0000_0000_0001), 0x3fe6_a09e_667f_3bcc);
        assert_eq!(rcp_approx_f64(0x4000_0000_ffff_ffff), 0.5f64.to_bits());
    }
}
