//! Integer arithmetic (PTX ISA 9.7.1 "Integer Arithmetic Instructions") on values of
//! 8, 16, 32 or 64 bits held in the low bits of a `u64`. Results are truncated to the
//! width (two's complement wrap-around), except where an instruction says otherwise:
//! `.hi` and `.wide` products, `.sat`, and shifts clamped to the width. Division or
//! remainder by zero is "unspecified, machine-specific" in PTX: [`div`] and [`rem`]
//! return `None`, and the executor writes [`by_zero`] (the H100's value) or, under
//! `--check div0`, reports a fault.

/// The width of an integer operation in bits: 8, 16, 32 or 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Width(pub u32);

impl Width {
    pub fn mask(self) -> u64 {
        if self.0 >= 64 { u64::MAX } else { (1u64 << self.0) - 1 }
    }

    /// The value as a signed integer (sign-extended from the width).
    pub fn signed(self, v: u64) -> i128 {
        let shift = 64 - self.0;
        i128::from(((v << shift) as i64) >> shift)
    }

    /// The value as an unsigned integer.
    pub fn unsigned(self, v: u64) -> i128 {
        i128::from(v & self.mask())
    }

    fn value(self, v: u64, signed: bool) -> i128 {
        if signed { self.signed(v) } else { self.unsigned(v) }
    }

    fn wrap(self, v: i128) -> u64 {
        (v as u64) & self.mask()
    }
}

pub fn add(w: Width, a: u64, b: u64) -> u64 {
    w.wrap(w.unsigned(a) + w.unsigned(b))
}

pub fn sub(w: Width, a: u64, b: u64) -> u64 {
    w.wrap(w.unsigned(a) - w.unsigned(b))
}

/// `add.sat.s32` / `sub.sat.s32`: clamped to the signed 32-bit range.
pub fn add_sat_s32(a: u64, b: u64, subtract: bool) -> u64 {
    let w = Width(32);
    let (x, y) = (w.signed(a), w.signed(b));
    let r = if subtract { x - y } else { x + y };
    w.wrap(r.clamp(i128::from(i32::MIN), i128::from(i32::MAX)))
}

/// Which part of a `mul`/`mad` product is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Lo,
    Hi,
    /// The whole product, twice the width (16- and 32-bit operands only).
    Wide,
}

/// `mul.{lo,hi,wide}.{u,s}N`: the kept part of the full 2N-bit product.
pub fn mul(w: Width, part: Part, signed: bool, a: u64, b: u64) -> u64 {
    // A u64 x u64 product needs 128 unsigned bits, one more than i128 holds: multiply
    // modulo 2^128, which keeps bits 0..127 exact and so every part (`.hi` of 64-bit
    // operands is bits 64..127; `.wide` is only for 16- and 32-bit operands).
    let p = w.value(a, signed).wrapping_mul(w.value(b, signed));
    match part {
        Part::Lo => w.wrap(p),
        Part::Hi => w.wrap(p >> w.0),
        Part::Wide => Width(w.0 * 2).wrap(p),
    }
}

/// `mad.{lo,hi,wide}.{u,s}N`: `c` plus the kept part of `a*b` (`c` is 2N bits wide
/// for `.wide`).
pub fn mad(w: Width, part: Part, signed: bool, a: u64, b: u64, c: u64) -> u64 {
    let m = mul(w, part, signed, a, b);
    let out = if part == Part::Wide { Width(w.0 * 2) } else { w };
    out.wrap(out.unsigned(m) + out.unsigned(c))
}

/// What an H100 writes for `div` and `rem` by zero, signed or not, at every width: all
/// ones. The code ptxas 13.5 emits for sm_90 ends each of these divisions with a
/// select on `divisor == 0` (`@!P LOP3.LUT R, RZ, Rdivisor, RZ, 0x33` for 32 bits,
/// `SEL R, R, 0xffffffff, P` on both halves for 64, `IMAD.MOV.U32 R, RZ, RZ, -0x1` for
/// 16); the project's goldens show that the GPU does not trap.
pub fn by_zero(w: Width) -> u64 {
    w.mask()
}

/// `div.{u,s}N`: truncates toward zero; `None` when dividing by zero. The signed
/// overflow `MIN / -1` wraps to `MIN`.
pub fn div(w: Width, signed: bool, a: u64, b: u64) -> Option<u64> {
    let (x, y) = (w.value(a, signed), w.value(b, signed));
    (y != 0).then(|| w.wrap(x / y))
}

/// `rem.{u,s}N`: the remainder with the sign of the dividend; `None` for zero.
pub fn rem(w: Width, signed: bool, a: u64, b: u64) -> Option<u64> {
    let (x, y) = (w.value(a, signed), w.value(b, signed));
    (y != 0).then(|| w.wrap(x % y))
}

/// `shl.bN`: shift amounts of N or more give 0 (the ISA clamps them to N).
pub fn shl(w: Width, a: u64, amount: u32) -> u64 {
    if amount >= w.0 { 0 } else { w.wrap(i128::from(a << amount)) }
}

/// `shr.{u,s,b}N`: logical for unsigned and bit-size types, arithmetic for signed;
/// amounts of N or more are clamped to N (all zeros or all sign bits).
pub fn shr(w: Width, signed: bool, a: u64, amount: u32) -> u64 {
    w.wrap(w.value(a, signed) >> amount.min(w.0))
}

pub fn min(w: Width, signed: bool, a: u64, b: u64) -> u64 {
    if w.value(a, signed) <= w.value(b, signed) { a & w.mask() } else { b & w.mask() }
}

pub fn max(w: Width, signed: bool, a: u64, b: u64) -> u64 {
    if w.value(a, signed) >= w.value(b, signed) { a & w.mask() } else { b & w.mask() }
}

/// The operations on packed halves (`add/min/max.{u16x2,s16x2}`) and with `.relu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOp {
    Add,
    Min,
    Max,
}

/// `op` on each `lane`-bit element of the 32-bit `a` and `b` (PTX ISA 9.7.1.1, 9.7.1.10,
/// 9.7.1.11): the `.u16x2`/`.s16x2` forms split each register into halves, `.s32` is one
/// element. `.relu` clamps a negative element's result to 0.
pub fn lanes(op: LaneOp, lane: Width, signed: bool, relu: bool, a: u64, b: u64) -> u64 {
    let mut d = 0;
    for pos in (0..32).step_by(lane.0 as usize) {
        let (x, y) = (a >> pos & lane.mask(), b >> pos & lane.mask());
        let v = match op {
            LaneOp::Add => add(lane, x, y),
            LaneOp::Min => min(lane, signed, x, y),
            LaneOp::Max => max(lane, signed, x, y),
        };
        let v = if relu && lane.signed(v) < 0 { 0 } else { v };
        d |= v << pos;
    }
    d
}

/// `abs.sN`: `MIN` stays `MIN`, as two's complement wraps.
pub fn abs(w: Width, a: u64) -> u64 {
    w.wrap(w.signed(a).abs())
}

pub fn neg(w: Width, a: u64) -> u64 {
    w.wrap(-w.signed(a))
}

/// `mad.hi.sat.s32`: the high 32 bits of the 64-bit product `a*b`, plus `c`, clamped to
/// the s32 range (PTX ISA 9.7.1.4).
pub fn mad_hi_sat_s32(a: u64, b: u64, c: u64) -> u64 {
    let hi = (i64::from(a as u32 as i32) * i64::from(b as u32 as i32)) >> 32;
    let r = (hi + i64::from(c as u32 as i32)).clamp(i64::from(i32::MIN), i64::from(i32::MAX));
    u64::from(r as i32 as u32)
}

/// `add.cc`, `addc{.cc}` (PTX ISA 9.7.2, extended-precision arithmetic): `a + b + cin`
/// wrapped to the width, with the carry-out for `CC.CF`.
pub fn add_carry(w: Width, a: u64, b: u64, cin: bool) -> (u64, bool) {
    let r = w.unsigned(a) + w.unsigned(b) + i128::from(cin);
    (w.wrap(r), r > w.unsigned(u64::MAX))
}

/// `sub.cc`, `subc{.cc}` as the H100 computes them: `a + !b + carry`, wrapped to the
/// width, and the carry-out of that sum for `CC.CF`. `sub.cc` adds 1 (`a - b`), and
/// `subc` adds `CC.CF`: the flag is an inverted borrow, set when nothing was borrowed.
/// (The ISA's text, `d = a - (b + CC.CF)` with CF a borrow, is what hardware does with
/// the flag inverted; tests/hw/leaf_width measured it.)
pub fn sub_carry(w: Width, a: u64, b: u64, carry: bool) -> (u64, bool) {
    let r = w.unsigned(a) + w.unsigned(!b) + i128::from(carry);
    (w.wrap(r), r > w.unsigned(u64::MAX))
}

/// `mad{c}.{lo,hi}{.cc}`: the kept part of `a*b`, plus `c` and the carry-in, with the
/// carry-out of that addition.
pub fn mad_carry(w: Width, part: Part, signed: bool, a: u64, b: u64, c: u64, cin: bool) -> (u64, bool) {
    add_carry(w, mul(w, part, signed, a, b), c, cin)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIDTHS: [u32; 4] = [8, 16, 32, 64];

    /// Boundary values of a width, as raw bits.
    fn values(w: u32) -> Vec<u64> {
        let m = Width(w).mask();
        let half = 1u64 << (w - 1);
        vec![0, 1, 2, 3, 7, half - 1, half, half + 1, m - 1, m, m / 3, 0x5a5a_5a5a_5a5a_5a5a & m]
    }

    /// The reference: ordinary integer arithmetic in i128 (u128 for unsigned products,
    /// which reach 2^128 - 2^65 + 1), then the ISA's truncation to N bits written out
    /// as a remainder.
    fn trunc(v: i128, bits: u32) -> u64 {
        v.rem_euclid(1i128 << bits) as u64
    }

    fn trunc_u(v: u128, bits: u32) -> u64 {
        (v % (1u128 << bits)) as u64
    }

    fn sx(v: u64, bits: u32) -> i128 {
        let v = i128::from(v);
        if v >= 1i128 << (bits - 1) { v - (1i128 << bits) } else { v }
    }

    #[test]
    fn add_sub_mul_mad_match_wide_arithmetic() {
        for bits in WIDTHS {
            let w = Width(bits);
            for &a in &values(bits) {
                for &b in &values(bits) {
                    let (ua, ub) = (i128::from(a), i128::from(b));
                    let (sa, sb) = (sx(a, bits), sx(b, bits));
                    assert_eq!(add(w, a, b), trunc(ua + ub, bits));
                    assert_eq!(sub(w, a, b), trunc(ua - ub, bits));
                    let up = u128::from(a) * u128::from(b);
                    assert_eq!(mul(w, Part::Lo, false, a, b), trunc_u(up, bits));
                    assert_eq!(mul(w, Part::Hi, false, a, b), trunc_u(up >> bits, bits));
                    assert_eq!(
                        mul(w, Part::Hi, true, a, b),
                        trunc((sa * sb).div_euclid(1i128 << bits), bits)
                    );
                    if bits <= 32 {
                        assert_eq!(mul(w, Part::Wide, false, a, b), trunc(ua * ub, 2 * bits));
                        assert_eq!(mul(w, Part::Wide, true, a, b), trunc(sa * sb, 2 * bits));
                        assert_eq!(mad(w, Part::Wide, true, a, b, 5), trunc(sa * sb + 5, 2 * bits));
                    }
                    assert_eq!(mad(w, Part::Lo, true, a, b, a), trunc(sa * sb + sa, bits));
                }
            }
        }
    }

    #[test]
    fn division_truncates_toward_zero_and_zero_divisors_are_reported() {
        for bits in WIDTHS {
            let w = Width(bits);
            for &a in &values(bits) {
                for &b in &values(bits) {
                    if b == 0 {
                        assert_eq!(div(w, true, a, b), None);
                        assert_eq!(rem(w, false, a, b), None);
                        continue;
                    }
                    let (ua, ub) = (i128::from(a), i128::from(b));
                    let (sa, sb) = (sx(a, bits), sx(b, bits));
                    assert_eq!(div(w, false, a, b), Some(trunc(ua / ub, bits)));
                    assert_eq!(rem(w, false, a, b), Some(trunc(ua % ub, bits)));
                    // Rust's i128 `/` and `%` truncate toward zero, as C and PTX do.
                    assert_eq!(div(w, true, a, b), Some(trunc(sa / sb, bits)));
                    assert_eq!(rem(w, true, a, b), Some(trunc(sa % sb, bits)));
                }
            }
        }
        assert_eq!(div(Width(32), true, 0x8000_0000, 0xffff_ffff), Some(0x8000_0000));
        assert_eq!(rem(Width(32), true, (-7i32) as u32 as u64, 2), Some((-1i32) as u32 as u64));
    }

    #[test]
    fn shifts_clamp_to_the_width() {
        assert_eq!(shl(Width(32), 1, 31), 0x8000_0000);
        assert_eq!(shl(Width(32), 1, 32), 0);
        assert_eq!(shl(Width(32), 1, 1000), 0);
        assert_eq!(shr(Width(32), false, 0x8000_0000, 31), 1);
        assert_eq!(shr(Width(32), false, 0x8000_0000, 40), 0);
        assert_eq!(shr(Width(32), true, 0x8000_0000, 31), 0xffff_ffff);
        assert_eq!(shr(Width(32), true, 0x8000_0000, 40), 0xffff_ffff);
        assert_eq!(shr(Width(16), true, 0x4000, 99), 0);
        assert_eq!(shr(Width(64), true, 1 << 63, 64), u64::MAX);
        assert_eq!(shl(Width(8), 0xff, 4), 0xf0);
    }

    #[test]
    fn min_max_abs_neg_and_saturation() {
        let w = Width(32);
        assert_eq!(min(w, true, 0xffff_ffff, 1), 0xffff_ffff);
        assert_eq!(min(w, false, 0xffff_ffff, 1), 1);
        assert_eq!(max(w, true, 0xffff_ffff, 1), 1);
        assert_eq!(abs(w, 0x8000_0000), 0x8000_0000);
        assert_eq!(abs(w, 0xffff_fffb), 5);
        assert_eq!(neg(w, 5), 0xffff_fffb);
        assert_eq!(add_sat_s32(0x7fff_ffff, 1, false), 0x7fff_ffff);
        assert_eq!(add_sat_s32(0x8000_0000, 1, true), 0x8000_0000);
        assert_eq!(add_sat_s32(5, 7, true), 0xffff_fffe);
    }

    #[test]
    fn carries_and_borrows_match_wide_arithmetic() {
        for bits in [32, 64] {
            let w = Width(bits);
            for &a in &values(bits) {
                for &b in &values(bits) {
                    for cin in [false, true] {
                        let (ua, ub, c) = (i128::from(a), i128::from(b), i128::from(cin));
                        let sum = ua + ub + c;
                        assert_eq!(add_carry(w, a, b, cin), (trunc(sum, bits), sum >= 1i128 << bits));
                        // The H100's subtraction: the flag is "no borrow", so `sub.cc`
                        // (carry 1) is a - b and `subc` with the flag clear takes one more.
                        let diff = ua - ub - (1 - c);
                        assert_eq!(sub_carry(w, a, b, cin), (trunc(diff, bits), diff >= 0));
                        let lo = trunc_u(u128::from(a) * u128::from(b), bits);
                        let s = i128::from(lo) + ub + c;
                        assert_eq!(
                            mad_carry(w, Part::Lo, false, a, b, b, cin),
                            (trunc(s, bits), s >= 1i128 << bits)
                        );
                    }
                }
            }
        }
    }
}
