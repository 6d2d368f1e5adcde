//! `cvt` (PTX ISA 9.7.9.21) between integer widths, between f32 and f64, and between
//! integers and floats with round-to-nearest-even (`.rn`, `.rni`) or toward zero
//! (`.rzi`). Integer sources are sign- or zero-extended by their own type first;
//! float-to-integer results saturate to the destination's range and NaN becomes 0,
//! as the ISA specifies.

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

    fn range(self) -> (i128, i128) {
        if self.signed {
            (-(1i128 << (self.bits - 1)), (1i128 << (self.bits - 1)) - 1)
        } else {
            (0, (1i128 << self.bits) - 1)
        }
    }

    fn bits_of(self, v: i128) -> u64 {
        (v as u64) & if self.bits == 64 { u64::MAX } else { (1u64 << self.bits) - 1 }
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

#[cfg(test)]
mod tests {
    use super::*;

    const U8: IntTy = IntTy { bits: 8, signed: false };
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
        assert_eq!(int_to_int(S16, S8, 0x80, false), 0xff80);
        assert_eq!(int_to_int(U32, U64, 0x1_2345_6789, false), 0x2345_6789, "truncate");
        assert_eq!(int_to_int(U8, S32, 300, true), 255);
        assert_eq!(int_to_int(U8, S32, (-5i32) as u32 as u64, true), 0);
        assert_eq!(int_to_int(S8, U32, 200, true), 127);
    }

    #[test]
    fn floats_round_saturate_and_send_nan_where_the_isa_says() {
        assert_eq!(float_to_int(S32, 2.5, false, IntRound::Nearest), 2);
        assert_eq!(float_to_int(S32, 3.5, false, IntRound::Nearest), 4);
        assert_eq!(float_to_int(S32, -2.7, false, IntRound::Zero), (-2i32) as u32 as u64);
        assert_eq!(float_to_int(S32, -2.2, false, IntRound::Down), (-3i32) as u32 as u64);
        assert_eq!(float_to_int(S32, 2.2, false, IntRound::Up), 3);
        assert_eq!(float_to_int(S32, 1e20, false, IntRound::Zero), 0x7fff_ffff);
        assert_eq!(float_to_int(S32, f64::NEG_INFINITY, false, IntRound::Zero), 0x8000_0000);
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
}
