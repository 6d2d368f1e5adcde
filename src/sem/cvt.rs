//! `cvt` (PTX ISA 9.7.9.21) between integer widths, between float formats (f16,
//! bf16, f32, f64) and between integers and floats, in every rounding mode (`.rn .rz
//! .rm .rp` to a float, `.rni .rzi .rmi .rpi` to an integer or an integral float).
//! Integer sources are sign- or zero-extended by their own type first, and integer
//! results by theirs, to the width of the destination register;
//! float-to-integer results saturate to the destination's range and NaN becomes 0,
//! as the ISA specifies. Narrowing goes through [`super::round`]; widening is exact.

/// An integer type of `cvt`: width in bits and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub bits: u32,
    pub signed: bool,
}

impl IntTy {
    fn value(self, v: u64) -> i128 {
        let shift = 64 - self.bits;
        if self.signed {
            i128::from(((v << shift) as i64) >> shift)
        } else {
            i128::from((v << shift) >> shift)
        }
    }

    /// The smallest and largest values of the type.
    pub fn range(self) -> (i128, i128) {
        if self.signed {
            (-(1i128 << (self.bits - 1)), (1i128 << (self.bits - 1)) - 1)
        } else {
            (0, (1i128 << self.bits) - 1)
        }
    }

    /// `v` wrapped to the type, then extended to 64 bits by the type's signedness: a
    /// destination register wider than the type receives the sign-extended value (PTX
    /// ISA 6.4.1, "Operand Size Exceeding Instruction-Type Size"; the H100 writes
    /// `cvt.s16.s8` into a `.b32` register as `0xffffffc2`, tests/hw/leaf_width).
    fn bits_of(self, v: i128) -> u64 {
        self.value(v as u64) as u64
    }
}

/// Integer to integer: extend by the source type, then truncate (or with `sat`,
/// clamp) to the destination.
pub fn int_to_int(dst: IntTy, src: IntTy, v: u64, sat: bool) -> u64 {
    let x = src.value(v);
    let (lo, hi) = dst.range();
    dst.bits_of(if sat { x.clamp(lo, hi) } else { x })
}

/// How a float becomes an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntRound {
    /// `.rni`: to nearest, ties to even.
    Nearest,
    /// `.rzi`: toward zero.
    Zero,
    /// `.rmi`: toward minus infinity.
    Down,
    /// `.rpi`: toward plus infinity.
    Up,
}

/// Float (as f64, exactly widened; `src_f64` says whether it was an `.f64`) to
/// integer: rounded and saturated. A NaN gives 0 when the source is not `.f64` and the
/// destination is not 64 bits wide, and `1 << (width - 1)` otherwise (PTX ISA 9.0,
/// `cvt`: MININT for signed destinations, (MAXINT >> 1) + 1 for unsigned ones).
pub fn float_to_int(dst: IntTy, x: f64, src_f64: bool, round: IntRound) -> u64 {
    if x.is_nan() {
        return if src_f64 || dst.bits == 64 { 1 << (dst.bits - 1) } else { 0 };
    }
    let r = match round {
        IntRound::Nearest => x.round_ties_even(),
        IntRound::Zero => x.trunc(),
        IntRound::Down => x.floor(),
        IntRound::Up => x.ceil(),
    };
    let (lo, hi) = dst.range();
    let v = if r <= lo as f64 {
        lo
    } else if r >= hi as f64 {
        hi
    } else {
        r as i128
    };
    dst.bits_of(v)
}

/// Integer to f32 bits, rounded to nearest even.
pub fn int_to_f32(src: IntTy, v: u64) -> u32 {
    (src.value(v) as f32).to_bits()
}

/// Integer to f64 bits, rounded to nearest even.
pub fn int_to_f64(src: IntTy, v: u64) -> u64 {
    (src.value(v) as f64).to_bits()
}

use super::round::{self, Exact, Format, Rnd};

/// A float format's bits widened exactly to f64 (NaN payloads kept where they fit).
pub fn widen(fmt: Format, bits: u64) -> f64 {
    match fmt {
        round::F64 => f64::from_bits(bits),
        round::F32 => f64::from(f32::from_bits(bits as u32)),
        round::F16 => f64::from(half::f16::from_bits(bits as u16).to_f32()),
        _ => f64::from(half::bf16::from_bits(bits as u16).to_f32()),
    }
}

/// `.ftz` applies to f32 operands only.
fn flush_f32(fmt: Format, ftz: bool, bits: u64) -> u64 {
    if ftz && fmt == round::F32 { fmt.flush(bits) } else { bits }
}

/// `.sat` on a float result: clamped to [0.0, 1.0], NaN to +0.0.
fn saturate(fmt: Format, bits: u64) -> u64 {
    let x = widen(fmt, bits);
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= 1.0 {
        round::round(fmt, Exact::of(round::F64, 1f64.to_bits()), Rnd::Rn)
    } else {
        bits
    }
}

/// Float to float (`cvt{.rnd}{.ftz}{.sat}.dst.src`): exact when widening, rounded by
/// `rnd` when narrowing. NaNs as `nan_to_float` says.
pub fn float_to_float(dst: Format, src: Format, rnd: Rnd, ftz: bool, sat: bool, bits: u64) -> u64 {
    let bits = flush_f32(src, ftz, bits);
    let x = widen(src, bits);
    let out = if x.is_nan() {
        nan_to_float(dst, src, ftz, bits)
    } else if x.is_infinite() {
        dst.inf() | if x < 0.0 { dst.sign_bit() } else { 0 }
    } else {
        round::round(dst, Exact::of(src, bits), rnd)
    };
    let out = flush_f32(dst, ftz, out);
    if sat { saturate(dst, out) } else { out }
}

/// A NaN converted to another float format, as an H100 converts it
/// (tests/hw/leaf_arith; the ISA leaves NaN payloads unspecified):
/// - f32 to f64 keeps the sign and the payload (shifted up 29 bits) and sets the quiet
///   bit; with `.ftz` every NaN becomes the canonical f32 NaN widened,
///   0x7fffffffe0000000;
/// - f64 to f32 keeps the sign and the payload's top 22 bits and sets the quiet bit;
/// - bf16 to f32 is exact: the 16 bits are f32's top half, signalling NaNs included;
/// - anything else gives the destination's canonical NaN (f16 to f32: 0x7fffffff, to
///   f16 and bf16: 0x7fff).
fn nan_to_float(dst: Format, src: Format, ftz: bool, bits: u64) -> u64 {
    const F32_QUIET: u64 = 1 << 22;
    const F64_QUIET: u64 = 1 << 51;
    match (dst, src) {
        (round::F64, round::F32) if ftz => 0x7fff_ffff_e000_0000,
        (round::F64, round::F32) => {
            let sign = (bits >> 31 & 1) << 63;
            sign | 0x7ff0_0000_0000_0000 | F64_QUIET | (bits & 0x7f_ffff) << 29
        }
        (round::F32, round::F64) => {
            let sign = (bits >> 63) << 31;
            sign | 0x7f80_0000 | F32_QUIET | (bits >> 29 & 0x7f_ffff)
        }
        (round::F32, round::BF16) => (bits & 0xffff) << 16,
        _ => dst.nan(),
    }
}

/// `.relu` and `.satfinite` after a conversion to a narrower float (PTX ISA 9.7.9.21):
/// `.relu` makes a negative result +0, `.satfinite` makes an infinite one the largest
/// finite value of its sign, and both give the canonical NaN for a NaN (the H100:
/// 0x7fff for f16 and bf16, tests/hw/leaf_arith).
pub fn relu_satfinite(fmt: Format, relu: bool, satfinite: bool, bits: u64) -> u64 {
    if (relu || satfinite) && fmt.is_nan(bits) {
        return fmt.nan();
    }
    let sign = bits & fmt.sign_bit();
    if relu && sign != 0 {
        return 0;
    }
    if satfinite && bits & !fmt.sign_bit() == fmt.inf() {
        return sign | (fmt.inf() - 1);
    }
    bits
}

/// The 8-bit float formats of `cvt` (PTX ISA 5.2.5): e4m3 (bias 7, no infinity, NaN
/// `S.1111.111`, largest 448) and e5m2 (f16's top byte: bias 15, infinities and NaNs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fp8 {
    E4m3,
    E5m2,
}

/// `x` (exact in f64) to fp8 with `.rn.satfinite{.relu}`: rounded to nearest even, an
/// overflow (or infinity) clamped to the largest finite value of its sign, NaN to
/// 0x7f, and under `.relu` a negative value to +0.
pub fn to_fp8(f: Fp8, relu: bool, x: f64) -> u8 {
    if x.is_nan() {
        return 0x7f;
    }
    if relu && x < 0.0 {
        return 0;
    }
    let sign = if x.is_sign_negative() { 0x80 } else { 0 };
    let a = x.abs();
    let magnitude = match f {
        Fp8::E5m2 => {
            const E5M2: Format = Format { frac: 2, exp: 5 };
            let r = if a.is_infinite() {
                E5M2.inf()
            } else {
                round::round(E5M2, Exact::of(round::F64, a.to_bits()), Rnd::Rn)
            };
            // The largest finite e5m2 is 0x7b (57344).
            r.min(0x7b) as u8
        }
        Fp8::E4m3 => {
            // e4m3 is a 3-bit-fraction format whose exponent field 15 still holds
            // numbers (up to 448, 0x7e; 0x7f is NaN). Scaled by 2^-8 its values are
            // those of a format with 5 exponent bits, in the same encoding; larger
            // magnitudes saturate to 448.
            const F3E5: Format = Format { frac: 3, exp: 5 };
            let x = Exact::of(round::F64, a.to_bits());
            if a.is_infinite() {
                0x7e
            } else {
                round::round(F3E5, Exact { e: x.e - 8, ..x }, Rnd::Rn).min(0x7e) as u8
            }
        }
    };
    sign | magnitude
}

/// An fp8 value as f16 bits (exact: every e4m3 and e5m2 value is an f16); NaN gives
/// the canonical 0x7fff.
pub fn fp8_to_f16(f: Fp8, b: u8) -> u64 {
    let sign = u64::from(b & 0x80) << 8;
    let m = b & 0x7f;
    match f {
        Fp8::E5m2 if m > 0x7c => 0x7fff,
        Fp8::E5m2 => u64::from(b) << 8,
        Fp8::E4m3 if m == 0x7f => 0x7fff,
        Fp8::E4m3 => {
            let (e, frac) = (i32::from(m >> 3), f64::from(m & 7));
            let v = if e == 0 { frac * 2f64.powi(-9) } else { (8.0 + frac) * 2f64.powi(e - 10) };
            sign | round::round(round::F16, Exact::of(round::F64, v.to_bits()), Rnd::Rn)
        }
    }
}

/// Integer to float, rounded by `rnd`.
pub fn int_to_float(dst: Format, src: IntTy, rnd: Rnd, v: u64) -> u64 {
    let x = src.value(v);
    round::round(dst, Exact { neg: x < 0, m: x.unsigned_abs(), e: 0, rest: std::cmp::Ordering::Equal }, rnd)
}

/// Float to integer (`cvt.{rni,rzi,rmi,rpi}{.ftz}.int.float`).
pub fn float_bits_to_int(dst: IntTy, src: Format, round: IntRound, ftz: bool, bits: u64) -> u64 {
    float_to_int(dst, widen(src, flush_f32(src, ftz, bits)), src == round::F64, round)
}

/// A float rounded to an integral value of the same format (`cvt.rni.f32.f32`...).
pub fn round_to_integral(fmt: Format, round: IntRound, ftz: bool, sat: bool, bits: u64) -> u64 {
    let bits = flush_f32(fmt, ftz, bits);
    let x = widen(fmt, bits);
    let out = if x.is_nan() {
        fmt.nan()
    } else {
        let r = match round {
            IntRound::Nearest => x.round_ties_even(),
            IntRound::Zero => x.trunc(),
            IntRound::Down => x.floor(),
            IntRound::Up => x.ceil(),
        };
        // An integral value of the format is exact in it: this rounding is exact.
        float_to_float(fmt, round::F64, Rnd::Rn, false, false, r.to_bits())
    };
    if sat { saturate(fmt, out) } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    const U8: IntTy = IntTy { bits: 8, signed: false };
    const U16: IntTy = IntTy { bits: 16, signed: false };
    const S8: IntTy = IntTy { bits: 8, signed: true };
    const S16: IntTy = IntTy { bits: 16, signed: true };
    const U32: IntTy = IntTy { bits: 32, signed: false };
    const S32: IntTy = IntTy { bits: 32, signed: true };
    const U64: IntTy = IntTy { bits: 64, signed: false };
    const S64: IntTy = IntTy { bits: 64, signed: true };

    #[test]
    fn integers_extend_by_source_and_truncate_or_saturate_to_destination() {
        assert_eq!(int_to_int(S64, S32, 0xffff_ffff, false), u64::MAX, "sign-extend -1");
        assert_eq!(int_to_int(U64, U32, 0xffff_ffff, false), 0xffff_ffff, "zero-extend");
        assert_eq!(int_to_int(S64, U8, 0x80, false), 0x80);
        // Signed results come sign-extended to 64 bits: the register takes its width of
        // them (the H100: cvt.s16.s8 into a .b32 register gives 0xffffff80).
        assert_eq!(int_to_int(S16, S8, 0x80, false), 0xffff_ffff_ffff_ff80);
        assert_eq!(int_to_int(U16, S8, 0x80, false), 0xff80, "unsigned: zero-extended");
        assert_eq!(int_to_int(U32, U64, 0x1_2345_6789, false), 0x2345_6789, "truncate");
        assert_eq!(int_to_int(U8, S32, 300, true), 255);
        assert_eq!(int_to_int(U8, S32, (-5i32) as u32 as u64, true), 0);
        assert_eq!(int_to_int(S8, U32, 200, true), 127);
    }

    #[test]
    fn floats_round_saturate_and_send_nan_where_the_isa_says() {
        assert_eq!(float_to_int(S32, 2.5, false, IntRound::Nearest), 2);
        assert_eq!(float_to_int(S32, 3.5, false, IntRound::Nearest), 4);
        assert_eq!(float_to_int(S32, -2.7, false, IntRound::Zero), (-2i64) as u64);
        assert_eq!(float_to_int(S32, -2.2, false, IntRound::Down), (-3i64) as u64);
        assert_eq!(float_to_int(S32, 2.2, false, IntRound::Up), 3);
        assert_eq!(float_to_int(S32, 1e20, false, IntRound::Zero), 0x7fff_ffff);
        assert_eq!(float_to_int(S32, f64::NEG_INFINITY, false, IntRound::Zero), (i64::from(i32::MIN)) as u64);
        assert_eq!(float_to_int(U32, -1.0, false, IntRound::Zero), 0);
        // NaN (PTX ISA 9.0, cvt): 0 unless the source is .f64 or the destination 64-bit,
        // where it is 1 << (width - 1).
        assert_eq!(float_to_int(S32, f64::NAN, false, IntRound::Nearest), 0);
        assert_eq!(float_to_int(IntTy { bits: 16, signed: false }, f64::NAN, false, IntRound::Zero), 0);
        assert_eq!(float_to_int(S32, f64::NAN, true, IntRound::Zero), 0x8000_0000);
        assert_eq!(float_to_int(U32, f64::NAN, true, IntRound::Zero), 0x8000_0000);
        assert_eq!(float_to_int(U64, f64::NAN, false, IntRound::Nearest), 1 << 63);
        assert_eq!(float_to_int(S64, f64::NAN, true, IntRound::Nearest), 1 << 63);
        assert_eq!(float_to_int(S64, 9.3e18, false, IntRound::Zero), i64::MAX as u64);
    }

    #[test]
    fn integers_to_floats_round_to_nearest_even() {
        assert_eq!(int_to_f32(S32, 16_777_217), 16_777_216f32.to_bits(), "2^24+1 ties to even");
        assert_eq!(int_to_f32(S32, 16_777_219), 16_777_220f32.to_bits());
        assert_eq!(int_to_f32(S32, 0xffff_ffff), (-1.0f32).to_bits());
        assert_eq!(int_to_f32(U32, 0xffff_ffff), 4_294_967_296f32.to_bits());
        assert_eq!(int_to_f64(U64, u64::MAX), 18_446_744_073_709_551_616f64.to_bits());
        assert_eq!(int_to_f64(S64, 1 << 63), (-9_223_372_036_854_775_808f64).to_bits());
    }

    #[test]
    fn integers_to_every_format_in_every_mode() {
        let values: [i64; 12] =
            [0, 1, -1, 2047, 2049, -2049, 65519, 65520, 70000, 16_777_217, -16_777_219, i64::MIN];
        for &v in &values {
            let bits = v as u64;
            // Round to nearest matches the host's conversions and the half crate's
            // from_f32 (these integers are exact in f32 or round there the same way).
            assert_eq!(int_to_float(round::F32, S64, Rnd::Rn, bits), u64::from((v as f32).to_bits()));
            assert_eq!(int_to_float(round::F64, S64, Rnd::Rn, bits), (v as f64).to_bits());
            assert_eq!(
                int_to_float(round::F16, S64, Rnd::Rn, bits),
                u64::from(half::f16::from_f32(v as f32).to_bits())
            );
            for fmt in [round::F16, round::BF16, round::F32] {
                let [rz, rm, rp] =
                    [Rnd::Rz, Rnd::Rm, Rnd::Rp].map(|m| widen(fmt, int_to_float(fmt, S64, m, bits)));
                let exact = v as i128;
                // Results are integers (or infinite): compare exactly.
                let le = |f: f64, i: i128| f.is_infinite() && f < 0.0 || (f.is_finite() && f as i128 <= i);
                let ge = |f: f64, i: i128| f.is_infinite() && f > 0.0 || (f.is_finite() && f as i128 >= i);
                assert!(le(rm, exact) && ge(rp, exact), "{v}: {rm} {rp}");
                assert_eq!(rz, if v >= 0 { rm } else { rp });
            }
        }
        // 65520 is past f16's largest finite value 65504 (to nearest: infinity).
        assert_eq!(int_to_float(round::F16, S64, Rnd::Rn, 65520), 0x7c00);
        assert_eq!(int_to_float(round::F16, S64, Rnd::Rz, 65520), 0x7bff);
        assert_eq!(int_to_float(round::F32, S32, Rnd::Rz, 16_777_217), u64::from(16_777_216f32.to_bits()));
        assert_eq!(int_to_float(round::F32, S32, Rnd::Rp, 16_777_217), u64::from(16_777_218f32.to_bits()));
    }

    #[test]
    fn floats_between_formats() {
        let f = |x: f32| u64::from(x.to_bits());
        // Widening is exact; f16 -> f32 as the half crate widens.
        for h in [0u64, 0x8000, 1, 0x3c00, 0x7bff, 0xfc00, 0x0400] {
            let want = u64::from(half::f16::from_bits(h as u16).to_f32().to_bits());
            assert_eq!(float_to_float(round::F32, round::F16, Rnd::Rn, false, false, h), want);
        }
        // Narrowing: 1 + 2^-11 is halfway between two f16 values.
        let x = f(1.0 + 2f32.powi(-11));
        assert_eq!(float_to_float(round::F16, round::F32, Rnd::Rn, false, false, x), 0x3c00);
        assert_eq!(float_to_float(round::F16, round::F32, Rnd::Rp, false, false, x), 0x3c01);
        assert_eq!(float_to_float(round::F16, round::F32, Rnd::Rm, false, false, x | 1 << 31), 0xbc01);
        assert_eq!(float_to_float(round::F16, round::F32, Rnd::Rn, false, false, 0x7fc0_0001), 0x7fff);
        assert_eq!(float_to_float(round::F16, round::F32, Rnd::Rz, false, false, f(1e6)), 0x7bff);
        assert_eq!(
            float_to_float(round::F16, round::F32, Rnd::Rn, false, false, f(f32::NEG_INFINITY)),
            0xfc00
        );
        assert_eq!(
            float_to_float(round::BF16, round::F32, Rnd::Rn, false, false, f(1.0 + 2f32.powi(-8))),
            0x3f80
        );
        // f64 -> f32 toward minus infinity, and .sat / .ftz on f32 -> f32.
        let third = (1.0f64 / 3.0).to_bits();
        let rm = float_to_float(round::F32, round::F64, Rnd::Rm, false, false, third);
        let rp = float_to_float(round::F32, round::F64, Rnd::Rp, false, false, third);
        assert!(
            f64::from(f32::from_bits(rm as u32)) < 1.0 / 3.0
                && f64::from(f32::from_bits(rp as u32)) > 1.0 / 3.0
        );
        assert_eq!(rp, rm + 1);
        assert_eq!(float_to_float(round::F32, round::F32, Rnd::Rn, false, true, f(1.5)), f(1.0));
        assert_eq!(float_to_float(round::F32, round::F32, Rnd::Rn, false, true, f(-0.0)), 0);
        assert_eq!(float_to_float(round::F32, round::F32, Rnd::Rn, false, true, 0x7fc0_0000), 0);
        assert_eq!(float_to_float(round::F32, round::F32, Rnd::Rn, true, false, 0x8000_0001), 0x8000_0000);
    }

    #[test]
    fn rounding_to_integral_values_and_from_halves_to_integers() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(round_to_integral(round::F32, IntRound::Nearest, false, false, f(2.5)), f(2.0));
        assert_eq!(round_to_integral(round::F32, IntRound::Nearest, false, false, f(-3.5)), f(-4.0));
        assert_eq!(round_to_integral(round::F32, IntRound::Zero, false, false, f(-0.5)), f(-0.0));
        assert_eq!(round_to_integral(round::F32, IntRound::Down, false, false, f(-0.5)), f(-1.0));
        assert_eq!(round_to_integral(round::F32, IntRound::Up, false, false, f(0.25)), f(1.0));
        assert_eq!(round_to_integral(round::F32, IntRound::Down, true, false, 0x8000_0001), f(-0.0));
        assert_eq!(
            round_to_integral(round::F64, IntRound::Up, false, false, 2.5f64.to_bits()),
            3f64.to_bits()
        );
        // f16 -2.5 (0xc100) to s32 toward zero.
        assert_eq!(float_bits_to_int(S32, round::F16, IntRound::Zero, false, 0xc100), (-2i64) as u64);
        assert_eq!(float_bits_to_int(U32, round::F16, IntRound::Nearest, false, 0x7c00), 0xffff_ffff);
        // .ftz: a negative subnormal is -0 before rounding down.
        assert_eq!(float_bits_to_int(S32, round::F32, IntRound::Down, true, 0x8000_0001), 0);
        assert_eq!(float_bits_to_int(S32, round::F32, IntRound::Down, false, 0x8000_0001), u64::MAX);
    }
}

/// `cvt.{rna,rn,rz}.tf32.f32` (PTX ISA 9.7.9.21): an f32 rounded to tf32's 10 fraction
/// bits (ties away from zero with `.rna`, to even with `.rn`, toward zero with `.rz`),
/// kept in 32 bits with the low 13 zero; a carry past the largest finite value gives
/// infinity, or with `.satfinite` the largest finite tf32 of its sign (0x7f7fe000), as
/// an infinite operand does. A NaN gives the canonical NaN, 0x7fffffff (the ISA does
/// not say; this is what ptxvm's other narrowing conversions give).
pub fn f32_to_tf32(rnd: super::round::Rnd, away: bool, satfinite: bool, bits: u32) -> u32 {
    use super::round::Rnd;
    let sign = bits & 0x8000_0000;
    if bits & 0x7fff_ffff > 0x7f80_0000 {
        return 0x7fff_ffff;
    }
    if bits & 0x7f80_0000 == 0x7f80_0000 {
        return if satfinite { sign | 0x7f7f_e000 } else { bits };
    }
    let add = match (away, rnd) {
        (true, _) => 0x1000,
        (false, Rnd::Rn) => 0xfff + ((bits >> 13) & 1),
        _ => 0,
    };
    // The magnitude's carry runs into the exponent, as rounding up should.
    let magnitude = ((bits & 0x7fff_ffff) + add) & 0x7fff_e000;
    if satfinite && magnitude == 0x7f80_0000 {
        return sign | 0x7f7f_e000;
    }
    sign | magnitude
}

#[cfg(test)]
mod tf32_tests {
    use super::*;
    use crate::sem::round::Rnd;

    #[test]
    fn tf32_rounds_at_the_tenth_fraction_bit() {
        let one = 1f32.to_bits();
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
        let half = one | 0x1000;
        assert_eq!(f32_to_tf32(Rnd::Rn, true, false, half), one + 0x2000);
        assert_eq!(f32_to_tf32(Rnd::Rn, false, false, half), one);
        assert_eq!(f32_to_tf32(Rnd::Rn, false, false, half + 0x2000), one + 0x4000);
        assert_eq!(f32_to_tf32(Rnd::Rz, false, false, half | 0xfff), one);
        assert_eq!(f32_to_tf32(Rnd::Rn, true, false, half | 0x8000_0000), (one + 0x2000) | 0x8000_0000);
        assert_eq!(f32_to_tf32(Rnd::Rn, true, false, f32::MAX.to_bits()), f32::INFINITY.to_bits());
        assert_eq!(f32_to_tf32(Rnd::Rn, true, false, 0x7f80_0001), 0x7fff_ffff);
        assert_eq!(
            f32_to_tf32(Rnd::Rn, true, false, f32::NEG_INFINITY.to_bits()),
            f32::NEG_INFINITY.to_bits()
        );
        // .satfinite: the largest finite tf32 for a rounding past it and for infinities.
        assert_eq!(f32_to_tf32(Rnd::Rn, true, true, f32::MAX.to_bits()), 0x7f7f_e000);
        assert_eq!(f32_to_tf32(Rnd::Rn, true, true, f32::NEG_INFINITY.to_bits()), 0xff7f_e000);
        assert_eq!(f32_to_tf32(Rnd::Rn, true, true, 0x7f80_0001), 0x7fff_ffff);
    }
}
