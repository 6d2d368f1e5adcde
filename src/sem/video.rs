//! The video instructions.
//!
//! The scalar ones, `vadd`, `vsub`, `vabsdiff`, `vmin`, `vmax`, `vshl`, `vshr` and `vset`
//! (PTX ISA 9.7.18.1): each source's byte, half or word is extended to a signed 33-bit
//! value by its type, the operation gives a 34-bit result, which is optionally clamped
//! to the destination's type (or to the byte or half it merges into), then either
//! combined with `c` by a secondary operation or merged into `c`.
//!
//! The SIMD ones, `vadd2` ... `vset2` and `vadd4` ... `vset4` (9.7.18.2): the same
//! operations on two halves or four bytes at once, each element picked from the eight
//! bytes (four halves) of `b:a`, then either merged into `c` under a mask or summed
//! into `c` (`.add`).

use super::bits::bfi;
use super::cmp::{CmpOp, cmp_int};
use super::cvt::IntTy;
use super::int::Width;

/// What part of a 32-bit register a selector names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sel {
    /// No selector: the whole word.
    Word,
    /// `.b0`-`.b3`.
    Byte(u8),
    /// `.h0`, `.h1`.
    Half(u8),
}

impl Sel {
    /// The selector spelled `text` (with its dot), if it is one.
    pub fn parse(text: &str) -> Option<Sel> {
        match text {
            ".b0" => Some(Sel::Byte(0)),
            ".b1" => Some(Sel::Byte(1)),
            ".b2" => Some(Sel::Byte(2)),
            ".b3" => Some(Sel::Byte(3)),
            ".h0" => Some(Sel::Half(0)),
            ".h1" => Some(Sel::Half(1)),
            _ => None,
        }
    }

    /// `partSelectSignExtend`: the selected part, extended by `signed`.
    fn extract(self, v: u32, signed: bool) -> i64 {
        let (w, pos) = self.field();
        let x = u64::from(v >> pos);
        (if signed { w.signed(x) } else { w.unsigned(x) }) as i64
    }

    /// The part's width and its lowest bit.
    fn field(self) -> (Width, u32) {
        match self {
            Sel::Word => (Width(32), 0),
            Sel::Byte(k) => (Width(8), 8 * u32::from(k)),
            Sel::Half(k) => (Width(16), 16 * u32::from(k)),
        }
    }
}

/// The primary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoOp {
    Add,
    Sub,
    Absdiff,
    Min,
    Max,
    /// `vshl`/`vshr`, the amount clamped to 32 (`.clamp`) or taken mod 32 (`.wrap`).
    Shl {
        clamp: bool,
    },
    Shr {
        clamp: bool,
    },
    /// `vset` (9.7.18.1.4): 1 when the comparison (`eq` ... `ge`) of the extended
    /// values holds, else 0; the result, `c` and `d` are unsigned.
    Set(CmpOp),
}

/// The secondary operation with `c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecOp {
    Add,
    Min,
    Max,
}

/// One scalar video instruction's modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scalar {
    pub op: VideoOp,
    pub d_signed: bool,
    pub a_signed: bool,
    pub b_signed: bool,
    pub sat: bool,
    pub secop: Option<SecOp>,
    pub asel: Sel,
    pub bsel: Sel,
    /// The part of `c` the result merges into (`d.dsel`), or `Word` for none.
    pub dsel: Sel,
}

/// The instruction on `a`, `b` and `c`: the 32 bits written to `d`.
pub fn scalar(s: &Scalar, a: u32, b: u32, c: u32) -> u32 {
    let ta = s.asel.extract(a, s.a_signed);
    // The shift amount is always read as .u32.
    let shifting = matches!(s.op, VideoOp::Shl { .. } | VideoOp::Shr { .. });
    let tb = s.bsel.extract(b, s.b_signed && !shifting);
    let amount = |clamp: bool| if clamp { tb.min(32) } else { tb & 0x1f };
    let tmp: i64 = match s.op {
        VideoOp::Add => ta + tb,
        VideoOp::Sub => ta - tb,
        VideoOp::Absdiff => (ta - tb).abs(),
        VideoOp::Min => ta.min(tb),
        VideoOp::Max => ta.max(tb),
        // The ISA's intermediate is a signed 34-bit value: a left shift keeps the low
        // 34 bits of the product, sign-extended.
        VideoOp::Shl { clamp } => {
            let wide = i128::from(ta) << amount(clamp);
            ((wide << 94) >> 94) as i64
        }
        VideoOp::Shr { clamp } => ta >> amount(clamp),
        VideoOp::Set(cmp) => i64::from(cmp_int(cmp, ta as u64, tb as u64, true)),
    };
    // Saturation is to the destination's type, or to the byte or half it merges into.
    let tmp = if s.sat {
        let (lo, hi) = IntTy { bits: s.dsel.field().0.0, signed: s.d_signed }.range();
        tmp.clamp(lo as i64, hi as i64)
    } else {
        tmp
    };
    // c's sign follows the destination type (unsigned for vset).
    let tc = if s.d_signed { i64::from(c as i32) } else { i64::from(c) };
    let d = match s.secop {
        Some(SecOp::Add) => tmp + tc,
        Some(SecOp::Min) => tmp.min(tc),
        Some(SecOp::Max) => tmp.max(tc),
        None => tmp,
    };
    match s.dsel {
        Sel::Word => d as u32,
        // optMerge: the result's low byte or half into that part of c.
        sel => {
            let (w, pos) = sel.field();
            bfi(Width(32), d as u64, u64::from(c), u64::from(pos), u64::from(w.0)) as u32
        }
    }
}

/// A video instruction, scalar or SIMD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Video {
    Scalar(Scalar),
    Simd(Simd),
    Mad(Mad),
}

impl Video {
    /// The instruction on `a`, `b` and `c`: the 32 bits written to `d`.
    pub fn eval(&self, a: u32, b: u32, c: u32) -> u32 {
        match self {
            Video::Scalar(s) => scalar(s, a, b, c),
            Video::Simd(s) => simd(s, a, b, c),
            Video::Mad(m) => mad(m, a, b, c),
        }
    }
}

/// `vmad.dtype.atype.btype{.po}{.sat}{.scale} d, {-}a{.asel}, {-}b{.bsel}, {-}c`
/// (PTX ISA 9.7.18.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mad {
    pub a_signed: bool,
    pub b_signed: bool,
    pub asel: Sel,
    pub bsel: Sel,
    /// Exactly one of `a` and `b` is negated: the product is.
    pub neg_product: bool,
    pub neg_c: bool,
    /// `.po`: plus one.
    pub po: bool,
    pub sat: bool,
    /// `.shr7` or `.shr15`: 7 or 15, else 0.
    pub shift: u8,
}

/// `vmad` as the ISA's semantics write it: `ta * tb` of the selected parts, extended
/// by their types, in 128 bits; `.po` adds 1, a negated product is `~tmp + 1`, a
/// negated `c` is `~c + 1` (only one of the two: the ISA and ptxas allow either the
/// product or `c` negated, not both); `c` is sign-extended when the final result is
/// signed (a signed source or a negation; `.dtype` plays no part), zero-extended
/// otherwise; the sum is shifted right arithmetically by the scale, clamped to the s32
/// or u32 range under `.sat`, and its low 32 bits written.
pub fn mad(m: &Mad, a: u32, b: u32, c: u32) -> u32 {
    let ta = i128::from(m.asel.extract(a, m.a_signed));
    let tb = i128::from(m.bsel.extract(b, m.b_signed));
    let signed = m.a_signed || m.b_signed || m.neg_product || m.neg_c;
    let mut tmp = ta * tb;
    let mut c = if signed { i128::from(c as i32) } else { i128::from(c) };
    if m.po {
        tmp += 1;
    } else if m.neg_product {
        tmp = -tmp;
    } else if m.neg_c {
        c = -c;
    }
    let result = (tmp + c) >> m.shift;
    let result = match (m.sat, signed) {
        (false, _) => result,
        (true, true) => result.clamp(i128::from(i32::MIN), i128::from(i32::MAX)),
        (true, false) => result.clamp(0, i128::from(u32::MAX)),
    };
    result as u32
}

/// The operation of a SIMD video instruction (9.7.18.2.1, 9.7.18.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdOp {
    Add,
    Sub,
    /// `vavrg`: the mean, rounded up for a non-negative sum and down for a negative one.
    Avrg,
    Absdiff,
    Min,
    Max,
    /// `vset2`/`vset4`: 1 where the comparison holds, else 0; `d` and `c` are unsigned.
    Set(CmpOp),
}

/// One SIMD video instruction's modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd {
    pub op: SimdOp,
    /// The element width: 16 (`vop2`) or 8 (`vop4`).
    pub width: Width,
    pub d_signed: bool,
    pub a_signed: bool,
    pub b_signed: bool,
    pub sat: bool,
    /// `.add`: `d = c` plus the sum of the selected elements, instead of a merge.
    pub add: bool,
    /// For each element, which element of `b:a` it takes (`.asel`, `.bsel`; the
    /// defaults are `a`'s elements for `a` and `b`'s for `b`).
    pub asel: [u8; 4],
    pub bsel: [u8; 4],
    /// Bit `i` set: element `i` is written (`d.mask`, default all).
    pub mask: u8,
}

impl Simd {
    /// How many elements a 32-bit register holds.
    pub fn lanes(&self) -> usize {
        (32 / self.width.0) as usize
    }
}

/// The instruction on `a`, `b` and `c`: the 32 bits written to `d`.
///
/// The ISA's merge pseudocode (`d |= mask[i] ? t[i] : Vc[i]`) leaves out where each
/// element lands; its text says it: "for half-word positions indicated in mask, the
/// selected half-word results are copied into destination d. For all other positions,
/// the corresponding half-word from source operand c is copied to d." Each result is
/// truncated to its element there, after the optional clamp.
pub fn simd(s: &Simd, a: u32, b: u32, c: u32) -> u32 {
    let w = s.width;
    let both = u64::from(b) << 32 | u64::from(a);
    let element = |k: u8, signed: bool| -> i64 {
        let x = both >> (u32::from(k) * w.0);
        (if signed { w.signed(x) } else { w.unsigned(x) }) as i64
    };
    let (lo, hi) = IntTy { bits: w.0, signed: s.d_signed }.range();
    let mut d = if s.add { c } else { 0 };
    for i in 0..s.lanes() {
        let (x, y) = (element(s.asel[i], s.a_signed), element(s.bsel[i], s.b_signed));
        let t = match s.op {
            SimdOp::Add => x + y,
            SimdOp::Sub => x - y,
            SimdOp::Avrg if x + y >= 0 => (x + y + 1) >> 1,
            SimdOp::Avrg => (x + y) >> 1,
            SimdOp::Absdiff => (x - y).abs(),
            SimdOp::Min => x.min(y),
            SimdOp::Max => x.max(y),
            SimdOp::Set(cmp) => i64::from(cmp_int(cmp, x as u64, y as u64, true)),
        };
        let t = if s.sat { t.clamp(lo as i64, hi as i64) } else { t };
        let selected = s.mask >> i & 1 == 1;
        let pos = i as u32 * w.0;
        if s.add {
            if selected {
                d = d.wrapping_add(t as u32);
            }
        } else {
            let part = if selected { t as u64 } else { u64::from(c) >> pos };
            d = bfi(Width(32), part, u64::from(d), u64::from(pos), u64::from(w.0)) as u32;
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vmad_follows_the_isa_examples() {
        let m = |signs: [bool; 2], sel: [Sel; 2], negs: [bool; 3], po: bool, sat: bool, shift: u8| Mad {
            a_signed: signs[0],
            b_signed: signs[1],
            asel: sel[0],
            bsel: sel[1],
            neg_product: negs[0] != negs[1],
            neg_c: negs[2],
            po,
            sat,
            shift,
        };
        let w = [Sel::Word; 2];
        // vmad.s32.s32.u32.sat r0, r1, r2, -r3: 3 * 5 - 20.
        assert_eq!(mad(&m([true, false], w, [false, false, true], false, true, 0), 3, 5, 20), -5i32 as u32);
        // vmad.u32.u32.u32.shr15 r0, r1.h0, r2.h0, r3: (2^15 * 2^15 + 2^14) >> 15.
        let h0 = [Sel::Half(0); 2];
        assert_eq!(
            mad(&m([false; 2], h0, [false; 3], false, false, 15), 0xffff_8000, 0x1_8000, 0x4000),
            0x8000
        );
        // .po: 3 * 5 + 20 + 1; -a and -b leave the product alone.
        assert_eq!(mad(&m([false; 2], w, [false; 3], true, false, 0), 3, 5, 20), 36);
        assert_eq!(mad(&m([false; 2], w, [true, true, false], false, false, 0), 3, 5, 20), 35);
        // Unsigned: (2^32 - 1)^2 + c, saturated to u32; negated product: signed, to s32.
        assert_eq!(mad(&m([false; 2], w, [false; 3], false, true, 0), u32::MAX, u32::MAX, 1), u32::MAX);
        assert_eq!(
            mad(&m([false; 2], w, [true, false, false], false, true, 0), u32::MAX, 2, 0),
            i32::MIN as u32
        );
        // Without .sat the low 32 bits: -(2^32 - 1) * 2 = -2^33 + 2.
        assert_eq!(mad(&m([false; 2], w, [true, false, false], false, false, 0), u32::MAX, 2, 0), 2);
    }

    fn spec(op: VideoOp) -> Scalar {
        Scalar {
            op,
            d_signed: false,
            a_signed: false,
            b_signed: false,
            sat: false,
            secop: None,
            asel: Sel::Word,
            bsel: Sel::Word,
            dsel: Sel::Word,
        }
    }

    #[test]
    fn the_isa_examples() {
        // vadd.s32.u32.s32.sat r1, r2.b0, r3.h0: 0xff (u8 255) + 0x8000 (s16 -32768).
        let s = Scalar {
            d_signed: true,
            b_signed: true,
            sat: true,
            asel: Sel::Byte(0),
            bsel: Sel::Half(0),
            ..spec(VideoOp::Add)
        };
        assert_eq!(scalar(&s, 0xff, 0x8000, 0) as i32, 255 - 32768);
        // Unsigned saturation of a negative difference gives 0; without .sat it wraps.
        let s = Scalar { sat: true, ..spec(VideoOp::Sub) };
        assert_eq!(scalar(&s, 1, 2, 0), 0);
        assert_eq!(scalar(&spec(VideoOp::Sub), 1, 2, 0), u32::MAX);
        // vabsdiff.s32.s32.s32.sat r1.h0, r2.b0, r3.b2, c: merged into c's low half.
        let s = Scalar {
            d_signed: true,
            a_signed: true,
            b_signed: true,
            sat: true,
            asel: Sel::Byte(0),
            bsel: Sel::Byte(2),
            dsel: Sel::Half(0),
            ..spec(VideoOp::Absdiff)
        };
        assert_eq!(scalar(&s, 0x80, 0x7f_0000, 0xabcd_1234), 0xabcd_00ff);
        // vshr.u32.u32.u32.wrap by 33 is by 1; .clamp by 40 is by 32.
        assert_eq!(scalar(&spec(VideoOp::Shr { clamp: false }), 8, 33, 0), 4);
        assert_eq!(scalar(&spec(VideoOp::Shr { clamp: true }), u32::MAX, 40, 0), 0);
    }
}
