//! Combining and selecting (PTX ISA 9.7.6.1 `set`, 9.7.6.2 `setp`, 9.7.6.3 `selp`,
//! 9.7.6.4 `slct`): pure functions from a comparison's outcome and operand bits to
//! the values written.

use super::cmp::BoolOp;

/// `setp`'s two destinations: `p = BoolOp(t, c)`, `q = BoolOp(!t, c)`; without a
/// BoolOp, `p = t` and `q = !t`. `t` is the comparison's result, which is false for
/// an ordered comparison with a NaN operand, so `q` is then true.
pub fn setp(t: bool, combine: Option<(BoolOp, bool)>) -> (bool, bool) {
    match combine {
        Some((op, c)) => (op.apply(t, c), op.apply(!t, c)),
        None => (t, !t),
    }
}

/// `set`'s destination: all ones for an integer `.dtype`, 1.0f for `.f32`, else zero.
pub fn set_value(result: bool, float_dtype: bool) -> u32 {
    match (result, float_dtype) {
        (false, _) => 0,
        (true, false) => 0xffff_ffff,
        (true, true) => 0x3f80_0000,
    }
}

/// `selp`: `a` when `c`, else `b` (bits copied unchanged).
pub fn selp(a: u64, b: u64, c: bool) -> u64 {
    if c { a } else { b }
}

/// `slct.s32`: `a` when `c >= 0`, else `b`.
pub fn slct_s32(a: u64, b: u64, c: i32) -> u64 {
    if c >= 0 { a } else { b }
}

/// `slct.f32`: `a` when `c >= 0` (-0 counts as zero), else `b`; a NaN selector
/// selects `b` (the comparison is ordered); with `ftz` a subnormal selector is
/// flushed to zero of its sign and so selects `a`. The chosen bits are copied
/// unchanged, NaN payloads included.
pub fn slct_f32(a: u64, b: u64, c: u32, ftz: bool) -> u64 {
    let sign = c >> 31 == 1;
    let exp = c >> 23 & 0xff;
    let man = c & 0x7f_ffff;
    let nan = exp == 0xff && man != 0;
    let zero = exp == 0 && (man == 0 || ftz);
    if nan {
        b
    } else if zero || !sign {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setp_writes_the_combination_and_its_complement() {
        // Without BoolOp, q is the complement: a NaN makes an ordered t false, q true.
        assert_eq!(setp(false, None), (false, true));
        assert_eq!(setp(true, None), (true, false));
        // ISA: p = BoolOp(t, c); q = BoolOp(!t, c), for every t, c and op.
        for t in [false, true] {
            for c in [false, true] {
                assert_eq!(setp(t, Some((BoolOp::And, c))), (t && c, !t && c));
                assert_eq!(setp(t, Some((BoolOp::Or, c))), (t || c, !t || c));
                assert_eq!(setp(t, Some((BoolOp::Xor, c))), (t != c, t == c));
            }
        }
    }

    #[test]
    fn set_writes_all_ones_or_one_point_zero() {
        assert_eq!(set_value(true, false), 0xffff_ffff);
        assert_eq!(set_value(true, true), 1.0f32.to_bits());
        assert_eq!(set_value(false, true), 0);
        assert_eq!(set_value(false, false), 0);
    }

    #[test]
    fn slct_selects_on_the_sign_of_c() {
        let (a, b) = (0xaaaa_aaaa_aaaa_aaaa, 0x7ff8_dead_beef_0001);
        assert_eq!(slct_s32(a, b, 0), a);
        assert_eq!(slct_s32(a, b, i32::MAX), a);
        assert_eq!(slct_s32(a, b, -1), b);
        assert_eq!(slct_s32(a, b, i32::MIN), b);
        let f = |x: f32| x.to_bits();
        assert_eq!(slct_f32(a, b, f(1.5), false), a);
        assert_eq!(slct_f32(a, b, f(-1.5), false), b);
        assert_eq!(slct_f32(a, b, f(0.0), false), a);
        assert_eq!(slct_f32(a, b, f(-0.0), false), a, "-0 equals zero");
        assert_eq!(slct_f32(a, b, 0x7fc0_0000, false), b, "NaN selects b");
        assert_eq!(slct_f32(a, b, 0xffc0_0001, false), b, "negative NaN too");
        assert_eq!(slct_f32(a, b, f(f32::INFINITY), false), a);
        assert_eq!(slct_f32(a, b, f(f32::NEG_INFINITY), false), b);
        assert_eq!(slct_f32(a, b, 0x8000_0001, false), b, "a negative subnormal is below zero");
        assert_eq!(slct_f32(a, b, 0x8000_0001, true), a, ".ftz flushes it to -0, so a is selected");
        assert_eq!(slct_f32(a, b, 0x0000_0001, true), a);
        // The chosen operand is copied bit for bit, NaN payload included.
        assert_eq!(slct_f32(a, b, f(-2.0), false), 0x7ff8_dead_beef_0001);
        assert_eq!(selp(a, b, true), a);
        assert_eq!(selp(a, b, false), b);
    }

    #[test]
    fn setp_after_a_nan_comparison_and_with_a_negated_c() {
        use crate::sem::cmp::{CmpOp, cmp_f32};
        let (nan, one) = (0x7fc0_0000, 1f32.to_bits());
        // setp.lt.f32 p|q, NaN, 1: t is false (ordered), so p is false and q true.
        let t = cmp_f32(CmpOp::Lt, nan, one, false);
        assert_eq!(setp(t, None), (false, true));
        // setp.ge.f32 p|q, NaN, 1 gives the same: q is not "a < b".
        assert_eq!(setp(cmp_f32(CmpOp::Ge, nan, one, false), None), (false, true));
        // Unordered: t is true.
        assert_eq!(setp(cmp_f32(CmpOp::Ltu, nan, one, false), None), (true, false));
        // setp.lt.and.f32 p|q, NaN, 1, !c with c true: the operand is false, so both are.
        let c = true;
        assert_eq!(setp(t, Some((BoolOp::And, !c))), (false, false));
        assert_eq!(setp(t, Some((BoolOp::Or, !c))), (false, true));
        assert_eq!(setp(t, Some((BoolOp::Xor, !c))), (false, true));
        assert_eq!(setp(t, Some((BoolOp::Xor, c))), (true, false));
        // set.lt.or.f32.f32 d, NaN, 1, c: d = (false | c) ? 1.0 : 0.
        assert_eq!(set_value(BoolOp::Or.apply(t, c), true), 0x3f80_0000);
        assert_eq!(set_value(BoolOp::And.apply(t, c), false), 0);
    }

    #[test]
    fn slct_f32_follows_the_sign_of_c_over_a_sweep_of_bit_patterns() {
        // Reference from the ISA text: d = (c >= 0) ? a : b, with c read as a real
        // number (NaN compares false, -0 == 0) after `.ftz` flushes a subnormal to zero.
        let reference = |c: u32, ftz: bool| {
            let subnormal = c & 0x7f80_0000 == 0 && c & 0x7f_ffff != 0;
            let c = if ftz && subnormal { 0.0 } else { f64::from(f32::from_bits(c)) };
            c >= 0.0
        };
        let (a, b) = (0x7ff4_0000_0000_0bad, 0xfff8_0000_1234_5678); // two NaNs, distinct payloads
        let sweep = (0..=u32::MAX).step_by(65_521).chain([0x8000_0000, 1, 0x807f_ffff, 0xff80_0001]);
        for c in sweep {
            for ftz in [false, true] {
                let want = if reference(c, ftz) { a } else { b };
                assert_eq!(slct_f32(a, b, c, ftz), want, "c={c:#010x} ftz={ftz}");
            }
        }
    }
}
