//! Comparisons against an independent reference written from the ISA text: floats
//! are decoded from their sign, exponent and mantissa fields by hand (not through the
//! `half` crate or Rust's float types), NaN is read off the bit pattern, and every
//! operator is the formula of tables 22 to 25. Half types are tested exhaustively:
//! every one of the 65,536 values against 64 special and boundary values.

use super::compare::*;

/// (is NaN, value) of an IEEE-style float with the given field widths.
fn decode(bits: u64, exp_bits: u32, man_bits: u32, ftz: bool) -> (bool, f64) {
    let sign = if bits >> (exp_bits + man_bits) & 1 == 1 { -1.0 } else { 1.0 };
    let exp = (bits >> man_bits) & ((1 << exp_bits) - 1);
    let man = bits & ((1 << man_bits) - 1);
    let bias = (1i32 << (exp_bits - 1)) - 1;
    if exp == (1 << exp_bits) - 1 {
        return if man != 0 { (true, 0.0) } else { (false, sign * f64::INFINITY) };
    }
    if exp == 0 {
        if ftz {
            return (false, sign * 0.0);
        }
        return (false, sign * man as f64 * 2f64.powi(1 - bias - man_bits as i32));
    }
    let significand = (man + (1 << man_bits)) as f64;
    (false, sign * significand * 2f64.powi(exp as i32 - bias - man_bits as i32))
}

/// Tables 23 to 25, word for word.
fn reference(op: CmpOp, (na, a): (bool, f64), (nb, b): (bool, f64)) -> bool {
    let nan = na || nb;
    use CmpOp::*;
    match op {
        Eq => a == b && !nan,
        Ne => a != b && !nan,
        Lt => a < b && !nan,
        Le => a <= b && !nan,
        Gt => a > b && !nan,
        Ge => a >= b && !nan,
        Equ => a == b || nan,
        Neu => a != b || nan,
        Ltu => a < b || nan,
        Leu => a <= b || nan,
        Gtu => a > b || nan,
        Geu => a >= b || nan,
        Num => !nan,
        Nan => nan,
        Lo | Ls | Hi | Hs => unreachable!("not a float operator"),
    }
}

const FLOAT_OPS: [CmpOp; 14] = [
    CmpOp::Eq,
    CmpOp::Ne,
    CmpOp::Lt,
    CmpOp::Le,
    CmpOp::Gt,
    CmpOp::Ge,
    CmpOp::Equ,
    CmpOp::Neu,
    CmpOp::Ltu,
    CmpOp::Leu,
    CmpOp::Gtu,
    CmpOp::Geu,
    CmpOp::Num,
    CmpOp::Nan,
];

/// 64 special and boundary values of a 16-bit float with `exp_bits` exponent bits.
fn specials16(exp_bits: u32) -> Vec<u16> {
    let man_bits = 15 - exp_bits;
    let exp_all = ((1u16 << exp_bits) - 1) << man_bits;
    let one = ((1u16 << (exp_bits - 1)) - 1) << man_bits;
    let mut v = vec![
        0,
        1,                               // min subnormal
        (1 << man_bits) - 1,             // max subnormal
        1 << man_bits,                   // min normal
        one,                             // 1.0
        one + 1,                         // just above 1
        one - 1,                         // just below 1
        one + (1 << man_bits),           // 2.0
        one - (1 << man_bits),           // 0.5
        exp_all - 1,                     // max finite
        exp_all,                         // infinity
        exp_all | (1 << (man_bits - 1)), // quiet NaN
        exp_all | 1,                     // signalling NaN
        exp_all | 0x15,                  // NaN with a payload
        exp_all | ((1 << man_bits) - 1), // all-ones NaN
        2,
    ];
    let positive = v.clone();
    v.extend(positive.iter().map(|x| x | 0x8000));
    // Fill up to 64 with spread-out finite values of both signs.
    let mut x: u16 = 0x1234;
    while v.len() < 64 {
        x = x.wrapping_mul(25173).wrapping_add(13849);
        if x & exp_all != exp_all {
            v.push(x);
        }
    }
    v
}

#[test]
fn every_f16_against_64_specials_for_every_float_operator() {
    let specials = specials16(5);
    for ftz in [false, true] {
        let table: Vec<(bool, f64)> = (0..=u16::MAX).map(|a| decode(u64::from(a), 5, 10, ftz)).collect();
        for a in 0..=u16::MAX {
            for &b in &specials {
                for op in FLOAT_OPS {
                    let want = reference(op, table[a as usize], table[b as usize]);
                    assert_eq!(cmp_f16(op, a, b, ftz), want, "{op:?} {a:#06x} {b:#06x} ftz={ftz}");
                }
            }
        }
    }
}

#[test]
fn every_bf16_against_64_specials_for_every_float_operator() {
    let specials = specials16(8);
    let table: Vec<(bool, f64)> = (0..=u16::MAX).map(|a| decode(u64::from(a), 8, 7, false)).collect();
    for a in 0..=u16::MAX {
        for &b in &specials {
            for op in FLOAT_OPS {
                let want = reference(op, table[a as usize], table[b as usize]);
                assert_eq!(cmp_bf16(op, a, b), want, "{op:?} {a:#06x} {b:#06x}");
            }
        }
    }
}

#[test]
fn packed_halves_compare_low_and_high_independently() {
    let specials = specials16(5);
    for (&x, &y) in specials.iter().zip(specials.iter().rev()) {
        for op in FLOAT_OPS {
            let a = u32::from(x) | u32::from(y) << 16;
            let b = u32::from(y) | u32::from(x) << 16;
            let lo = reference(op, decode(u64::from(x), 5, 10, false), decode(u64::from(y), 5, 10, false));
            let hi = reference(op, decode(u64::from(y), 5, 10, false), decode(u64::from(x), 5, 10, false));
            assert_eq!(cmp_f16x2(op, a, b, false), (lo, hi));
            let lo = reference(op, decode(u64::from(x), 8, 7, false), decode(u64::from(y), 8, 7, false));
            let hi = reference(op, decode(u64::from(y), 8, 7, false), decode(u64::from(x), 8, 7, false));
            assert_eq!(cmp_bf16x2(op, a, b), (lo, hi));
        }
    }
}

fn specials32() -> Vec<u32> {
    let mut v = vec![
        0,
        1,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0x3f80_0001,
        0x3f7f_ffff,
        0x7f7f_ffff,
        0x7f80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0x7fa5_5555,
        0x7fff_ffff,
        0x4000_0000,
        0x0000_0002,
        0x0040_0000,
    ];
    let positive = v.clone();
    v.extend(positive.iter().map(|x| x | 0x8000_0000));
    v
}

#[test]
fn f32_specials_with_and_without_ftz() {
    let s = specials32();
    for ftz in [false, true] {
        for &a in &s {
            for &b in &s {
                for op in FLOAT_OPS {
                    let want =
                        reference(op, decode(u64::from(a), 8, 23, ftz), decode(u64::from(b), 8, 23, ftz));
                    assert_eq!(cmp_f32(op, a, b, ftz), want, "{op:?} {a:#x} {b:#x} ftz={ftz}");
                }
            }
        }
    }
    // The ISA's own examples: +0 == -0, and .ftz makes a subnormal equal zero.
    assert!(cmp_f32(CmpOp::Eq, 0, 0x8000_0000, false));
    assert!(!cmp_f32(CmpOp::Eq, 1, 0, false));
    assert!(cmp_f32(CmpOp::Eq, 1, 0x8000_0000, true));
}

#[test]
fn f64_specials() {
    let s: Vec<u64> = specials32()
        .iter()
        .map(|&x| {
            // Widen each f32 pattern to the f64 with the same class and sign.
            let sign = u64::from(x >> 31) << 63;
            let exp = u64::from(x >> 23 & 0xff);
            let man = u64::from(x & 0x7f_ffff) << 29;
            let exp = match exp {
                0 => 0,
                0xff => 0x7ff,
                e => e + 1023 - 127,
            };
            sign | exp << 52 | man
        })
        .chain([1u64, 0x000f_ffff_ffff_ffff, 0x7ff0_0000_0000_0001])
        .collect();
    for &a in &s {
        for &b in &s {
            for op in FLOAT_OPS {
                assert_eq!(
                    cmp_f64(op, a, b),
                    reference(op, decode(a, 11, 52, false), decode(b, 11, 52, false))
                );
            }
        }
    }
}

#[test]
fn integers_of_every_width_and_signedness() {
    let values: [i128; 12] =
        [0, 1, -1, 2, 127, -128, 255, 32767, -32768, 65535, i32::MIN as i128, u32::MAX as i128];
    for width in [8u32, 16, 32, 64] {
        let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        let extra = [(1i128 << (width - 1)) - 1, -(1i128 << (width - 1)), (1i128 << width) - 1];
        for &x in values.iter().chain(&extra) {
            for &y in values.iter().chain(&extra) {
                let (xb, yb) = (x as u64 & mask, y as u64 & mask);
                // Signed view: sign-extend from `width`; unsigned view: the raw bits.
                let sx = |v: u64| ((v << (64 - width)) as i64 >> (64 - width)) as i128;
                let (ua, ub) = (xb as i128, yb as i128);
                let (sa, sb) = (sx(xb), sx(yb));
                let (ea, eb) = (sa as i64 as u64, sb as i64 as u64);
                let cases = [
                    (CmpOp::Eq, ua == ub, ua == ub),
                    (CmpOp::Ne, ua != ub, ua != ub),
                    (CmpOp::Lt, ua < ub, sa < sb),
                    (CmpOp::Le, ua <= ub, sa <= sb),
                    (CmpOp::Gt, ua > ub, sa > sb),
                    (CmpOp::Ge, ua >= ub, sa >= sb),
                    (CmpOp::Lo, ua < ub, ua < ub),
                    (CmpOp::Ls, ua <= ub, ua <= ub),
                    (CmpOp::Hi, ua > ub, ua > ub),
                    (CmpOp::Hs, ua >= ub, ua >= ub),
                ];
                for (op, unsigned, signed) in cases {
                    assert_eq!(cmp_int(op, xb, yb, false), unsigned, "u{width} {op:?} {x} {y}");
                    if !matches!(op, CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs) {
                        assert_eq!(cmp_int(op, ea, eb, true), signed, "s{width} {op:?} {x} {y}");
                    }
                }
            }
        }
    }
}

#[test]
fn boolean_operators() {
    for (t, c) in [(false, false), (false, true), (true, false), (true, true)] {
        assert_eq!(BoolOp::And.apply(t, c), t && c);
        assert_eq!(BoolOp::Or.apply(t, c), t || c);
        assert_eq!(BoolOp::Xor.apply(t, c), t != c);
    }
}
