//! Comparisons against an independent reference written from the ISA text: floats
//! are decoded from their sign, exponent and mantissa fields by hand (not through the
//! `half` crate or Rust's float types), NaN is read off the bit pattern, and every
//! operator is the formula of tables 22 to 25. Half types are tested exhaustively:
//! every one of the 65,536 values against 64 special and boundary values.

use super::cmp::*;

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
        return (false, sign * man as f64 * pow2(1 - bias - man_bits as i32));
    }
    let significand = (man + (1 << man_bits)) as f64;
    (false, sign * significand * pow2(exp as i32 - bias - man_bits as i32))
}

/// 2^e, exact down to 2^-1074. `powi` alone is not: unoptimised, it computes 2^-1074
/// as 1 / 2^1074 = 1 / inf = 0, which decoded every f64 subnormal as zero in debug builds.
fn pow2(e: i32) -> f64 {
    2f64.powi(e / 2) * 2f64.powi(e - e / 2)
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
    // Every pair of specials: the low halves compare x with y and the high halves y with
    // x, so a result taken from the wrong half or a half flushed with the other's `ftz`
    // shows up. ISA 9.7.7.2: t[0] from bits 0..15 goes to p, t[1] from bits 16..31 to q.
    for (exp_bits, man_bits) in [(5, 10), (8, 7)] {
        let specials = specials16(exp_bits);
        for ftz in [false, true] {
            let value = |h: u16| decode(u64::from(h), exp_bits, man_bits, ftz);
            for &x in &specials {
                for &y in &specials {
                    let a = u32::from(x) | u32::from(y) << 16;
                    let b = u32::from(y) | u32::from(x) << 16;
                    for op in FLOAT_OPS {
                        let want = (reference(op, value(x), value(y)), reference(op, value(y), value(x)));
                        let got = if exp_bits == 5 { cmp_f16x2(op, a, b, ftz) } else { cmp_bf16x2(op, a, b) };
                        assert_eq!(got, want, "{op:?} {a:#010x} {b:#010x} ftz={ftz} e{exp_bits}");
                    }
                }
            }
            if exp_bits == 8 {
                break; // bf16 has no .ftz
            }
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

/// f64 boundaries that no widened f32 reaches: min and max subnormal, min normal,
/// max finite, a signalling NaN with a payload and the default quiet NaN.
const F64_EXTRAS: [u64; 6] = [
    1,
    0x000f_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x7ff4_dead_beef_0001,
    0x7ff8_0000_0000_0000,
];

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
        .chain(F64_EXTRAS.iter().flat_map(|&x| [x, x | 1 << 63]))
        .collect();
    for &a in &s {
        for &b in &s {
            for op in FLOAT_OPS {
                let want = reference(op, decode(a, 11, 52, false), decode(b, 11, 52, false));
                assert_eq!(cmp_f64(op, a, b), want, "{op:?} {a:#x} {b:#x}");
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

#[test]
fn the_reference_decoder_reads_known_values() {
    // Decimal literals from the IEEE 754 and bfloat16 definitions, so a slip in
    // `decode` (such as 2^-1074 underflowing to zero) cannot hide behind agreement.
    let f = |bits: u64, e, m| decode(bits, e, m, false);
    assert_eq!(f(1, 11, 52), (false, 5e-324)); // 2^-1074, shortest spelling
    assert_eq!(f(0x0010_0000_0000_0000, 11, 52), (false, 2.225_073_858_507_201_4e-308));
    assert_eq!(f(0xffef_ffff_ffff_ffff, 11, 52), (false, -1.797_693_134_862_315_7e308));
    assert_eq!(f(1, 8, 23), (false, 1.401_298_464_324_817e-45));
    assert_eq!(f(0x3f80_0000, 8, 23), (false, 1.0));
    assert_eq!(f(1, 5, 10), (false, 5.960_464_477_539_063e-8));
    assert_eq!(f(0x7bff, 5, 10), (false, 65504.0));
    assert_eq!(f(0xc000, 5, 10), (false, -2.0));
    assert_eq!(f(0x7f7f, 8, 7), (false, 3.389_531_389_251_535_5e38));
    assert_eq!(f(0x3f80, 8, 7), (false, 1.0));
    assert_eq!(f(0xfc00, 5, 10), (false, f64::NEG_INFINITY));
    assert!(f(0xfc01, 5, 10).0 && f(0x7ff0_0000_0000_0001, 11, 52).0 && f(0xff81, 8, 7).0);
    assert_eq!(decode(0x8000_0001, 8, 23, true), (false, -0.0));
}

#[test]
fn operators_outside_their_type_class_are_total() {
    // `check` rejects these forms; the functions still answer, as documented on
    // `CmpOp::holds`: on floats `lo ls hi hs` are `lt le gt ge` (ordered, so NaN gives
    // false); on integers the unordered forms are the ordered ones, `num` is true and
    // `nan` false; `cmp_int` compares `lo ls hi hs` unsigned even when `signed`.
    use CmpOp::*;
    let unsigned_only = [(Lo, Lt), (Ls, Le), (Hi, Gt), (Hs, Ge)];
    let f32s = specials32();
    for &a in &f32s {
        for &b in &f32s {
            for (op, ordered) in unsigned_only {
                for ftz in [false, true] {
                    assert_eq!(cmp_f32(op, a, b, ftz), cmp_f32(ordered, a, b, ftz), "{op:?} {a:#x} {b:#x}");
                }
                let (wa, wb) = (u64::from(a) << 32, u64::from(b) << 32);
                assert_eq!(cmp_f64(op, wa, wb), cmp_f64(ordered, wa, wb));
                let (ha, hb) = ((a >> 16) as u16, (b >> 16) as u16);
                assert_eq!(cmp_bf16(op, ha, hb), cmp_bf16(ordered, ha, hb));
                assert_eq!(cmp_f16(op, ha, hb, false), cmp_f16(ordered, ha, hb, false));
            }
        }
    }
    assert!(!cmp_f32(Lo, 0x7fc0_0000, 0, false) && !cmp_f32(Hs, 0, 0x7fc0_0000, false));
    let ints = [0u64, 1, 2, 0x7fff_ffff_ffff_ffff, 1 << 63, u64::MAX];
    let float_only = [(Equ, Eq), (Neu, Ne), (Ltu, Lt), (Leu, Le), (Gtu, Gt), (Geu, Ge)];
    for &a in &ints {
        for &b in &ints {
            for signed in [false, true] {
                for (op, ordered) in float_only {
                    assert_eq!(cmp_int(op, a, b, signed), cmp_int(ordered, a, b, signed));
                }
                assert!(cmp_int(Num, a, b, signed) && !cmp_int(Nan, a, b, signed));
            }
            assert_eq!(cmp_int(Lo, a, b, true), a < b, "lo is unsigned whatever `signed` says");
            assert_eq!(cmp_int(Hs, a, b, true), a >= b);
        }
    }
}
