//! Tests of [`super::round`] and [`super::farith`] against two independent references:
//! the host's IEEE 754 arithmetic for `.rn` (random operands of every class), and, for
//! the directed modes, exact integer arithmetic: operands are drawn from a range where
//! every value scaled by a fixed power of two is an integer that fits in an `i128`, so
//! "result <= exact value" is an integer comparison.

use super::farith;
use super::float::{F32_CANONICAL_NAN, FOp};
use super::round::{self, Format, Rnd};
use std::cmp::Ordering;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// f32 bits of every class: any bits, then small and tiny exponents more often.
    fn f32(&mut self) -> u64 {
        let r = self.next();
        let bits = match r % 4 {
            0 => r >> 32,
            1 => (r >> 32) & 0x807f_ffff | (((r >> 8) % 20 + 117) << 23),
            2 => (r >> 32) & 0x80ff_ffff,
            _ => (r >> 32) & 0x807f_ffff | (((r >> 8) % 60 + 97) << 23),
        };
        bits & 0xffff_ffff
    }

    fn f64(&mut self) -> u64 {
        let r = self.next();
        match r % 4 {
            0 => self.next(),
            1 => self.next() & 0x800f_ffff_ffff_ffff | (((r >> 8) % 40 + 1003) << 52),
            2 => self.next() & 0x801f_ffff_ffff_ffff,
            _ => self.next() & 0x800f_ffff_ffff_ffff | (((r >> 8) % 200 + 923) << 52),
        }
    }

    /// A finite value of `fmt` with at most `digits` significant bits and an exponent
    /// in `-span..span`.
    fn small(&mut self, fmt: Format, digits: u32, span: i64) -> u64 {
        let m = (self.next() >> (64 - digits)) | 1 << (digits - 1);
        let e = (self.next() % (2 * span as u64)) as i64 - span;
        let x = (m as f64) * 2f64.powi((e - i64::from(digits) + 1) as i32);
        let x = if self.next() & 1 == 1 { -x } else { x };
        if fmt == round::F32 { u64::from((x as f32).to_bits()) } else { x.to_bits() }
    }
}

/// The host's result, with the H100's NaN: f32's canonical NaN; in f64 the first NaN
/// operand with its quiet bit set, or 0xfff8000000000000 when no operand is a NaN
/// (tests/hw/leaf_arith).
fn nan_or(fmt: Format, bits: u64, ops: &[u64]) -> u64 {
    if !fmt.is_nan(bits) {
        bits
    } else if fmt == round::F32 {
        u64::from(F32_CANONICAL_NAN)
    } else {
        ops.iter().find(|&&o| f64::from_bits(o).is_nan()).map_or(0xfff8_0000_0000_0000, |&o| o | 1 << 51)
    }
}

#[test]
fn round_to_nearest_matches_the_host_for_every_operation() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200_000 {
        let (a, b, c) = (rng.f32(), rng.f32(), rng.f32());
        let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
        let host = |v: f32| nan_or(round::F32, u64::from(v.to_bits()), &[]);
        for (op, want) in [(FOp::Add, x + y), (FOp::Sub, x - y), (FOp::Mul, x * y), (FOp::Div, x / y)] {
            let got = farith::binary(round::F32, op, Rnd::Rn, false, false, a, b);
            assert_eq!(got, host(want), "{op:?} {a:#x} {b:#x}");
        }
        assert_eq!(farith::fma(round::F32, Rnd::Rn, false, false, a, b, c), host(x.mul_add(y, z)));
        assert_eq!(farith::sqrt(round::F32, Rnd::Rn, false, a), host(x.sqrt()), "sqrt {a:#x}");

        let (a, b, c) = (rng.f64(), rng.f64(), rng.f64());
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
        let host = |v: f64, ops: &[u64]| nan_or(round::F64, v.to_bits(), ops);
        for (op, want) in [(FOp::Add, x + y), (FOp::Sub, x - y), (FOp::Mul, x * y), (FOp::Div, x / y)] {
            let got = farith::binary(round::F64, op, Rnd::Rn, false, false, a, b);
            assert_eq!(got, host(want, &[a, b]), "{op:?} {a:#x} {b:#x}");
        }
        assert_eq!(
            farith::fma(round::F64, Rnd::Rn, false, false, a, b, c),
            host(x.mul_add(y, z), &[a, b, c])
        );
        assert_eq!(farith::sqrt(round::F64, Rnd::Rn, false, a), host(x.sqrt(), &[a]), "sqrt {a:#x}");
        // Narrowing f64 -> f32 as the host's `as` does (round to nearest even).
        let narrowed = round::round(round::F32, round::Exact::of(round::F64, a), Rnd::Rn);
        if x.is_finite() {
            assert_eq!(narrowed, u64::from((x as f32).to_bits()), "narrow {a:#x}");
        }
    }
}

/// `bits` times 2^`scale` as an integer (which it must be).
fn scaled(fmt: Format, bits: u64, scale: i32) -> i128 {
    let (neg, m, e) = fmt.parts(bits);
    let z = if m == 0 { 0 } else { m.trailing_zeros() };
    let (m, e) = (m >> z, e + z as i32);
    assert!(e + scale >= 0, "scale too small for {bits:#x}");
    let v = i128::try_from(m).unwrap().checked_shl((e + scale) as u32).unwrap();
    assert_eq!(v >> (e + scale), i128::try_from(m).unwrap(), "overflow");
    if neg { -v } else { v }
}

/// The next value of `fmt` above finite `bits`.
fn next_up(fmt: Format, bits: u64) -> u64 {
    let sign = fmt.sign_bit();
    if bits == sign {
        1
    } else if bits & sign != 0 {
        bits - 1
    } else {
        bits + 1
    }
}

/// Checks the four results of one operation against the exact value X, given
/// `vs(v)`: the order of 2·X against `v`, where `v` is twice a candidate (or the sum
/// of two neighbours) scaled by 2^`scale`.
fn check_modes(fmt: Format, scale: i32, r: [u64; 4], vs: impl Fn(i128) -> Ordering, what: &str) {
    let [rn, rz, rm, rp] = r;
    let s = |b: u64| scaled(fmt, b, scale);
    assert!(vs(2 * s(rm)) != Ordering::Less, "{what}: rm above the exact value");
    assert!(vs(2 * s(rp)) != Ordering::Greater, "{what}: rp below the exact value");
    if vs(2 * s(rm)) == Ordering::Equal {
        assert_eq!(s(rm), s(rp), "{what}: exact, rm and rp differ");
        assert_eq!(s(rn), s(rm), "{what}: exact");
    } else {
        assert_eq!(s(next_up(fmt, rm)), s(rp), "{what}: rm and rp are not neighbours");
        let mid = vs(s(rm) + s(rp));
        let even = if fmt.parts(rm).1 & 1 == 0 { rm } else { rp };
        let want = match mid {
            Ordering::Less => rm,
            Ordering::Greater => rp,
            Ordering::Equal => even,
        };
        assert_eq!(s(rn), s(want), "{what}: rn");
    }
    let positive = vs(0) == Ordering::Greater;
    assert_eq!(s(rz), if positive { s(rm) } else { s(rp) }, "{what}: rz");
}

fn modes(f: impl Fn(Rnd) -> u64) -> [u64; 4] {
    [f(Rnd::Rn), f(Rnd::Rz), f(Rnd::Rm), f(Rnd::Rp)]
}

#[test]
fn directed_rounding_brackets_the_exact_value() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for (fmt, digits, span) in [(round::F32, 24, 10), (round::F64, 30, 6)] {
        // Operands are multiples of 2^-(span+digits); products of 2^-2(span+digits).
        let scale = 2 * (span + digits as i32) + 2;
        for _ in 0..20_000 {
            let (a, b, c) = (
                rng.small(fmt, digits, span.into()),
                rng.small(fmt, digits, span.into()),
                rng.small(fmt, digits, span.into()),
            );
            let (sa, sb, sc) = (scaled(fmt, a, scale), scaled(fmt, b, scale), scaled(fmt, c, scale));
            let half = 1i128 << (scale / 2);
            for (op, x2) in [
                (FOp::Add, 2 * (sa + sb)),
                (FOp::Sub, 2 * (sa - sb)),
                (FOp::Mul, 2 * (sa / half) * (sb / half)),
            ] {
                let r = modes(|m| farith::binary(fmt, op, m, false, false, a, b));
                check_modes(fmt, scale, r, |v| x2.cmp(&v), &format!("{op:?} {a:#x} {b:#x}"));
            }
            let x2 = 2 * ((sa / half) * (sb / half) + sc);
            let r = modes(|m| farith::fma(fmt, m, false, false, a, b, c));
            check_modes(fmt, scale, r, |v| x2.cmp(&v), &format!("fma {a:#x} {b:#x} {c:#x}"));
        }
        // Division and square root: compare through multiplication, with operands of
        // 12 digits and exponents in -4..4 (A = a·2^40 and B = b·2^40 are integers) and
        // results scaled by 2^S (their last place is at least 2^-62).
        const S: i32 = 64;
        for _ in 0..20_000 {
            let (a, b) = (rng.small(fmt, 12, 4), rng.small(fmt, 12, 4));
            let (sa, sb) = (scaled(fmt, a, 40), scaled(fmt, b, 40));
            // 2X·2^S vs v with X = A/B  <=>  2A·2^S vs v·B (reversed when B < 0).
            let quotient_vs = |num: i128| {
                move |v: i128| {
                    let o = ((2 * num) << S).cmp(&(v * sb));
                    if sb > 0 { o } else { o.reverse() }
                }
            };
            let r = modes(|m| farith::binary(fmt, FOp::Div, m, false, false, a, b));
            check_modes(fmt, S, r, quotient_vs(sa), &format!("div {a:#x} {b:#x}"));
            let r = modes(|m| farith::rcp(fmt, m, false, b));
            check_modes(fmt, S, r, quotient_vs(1 << 40), &format!("rcp {b:#x}"));
            // 2·sqrt(a)·2^T vs v (v >= 0)  <=>  4A·2^(2T-40) vs v², with T = 56 (the
            // root's last place is at least 2^-55; both sides stay below 2^119).
            const T: i32 = 56;
            let a = a & !fmt.sign_bit();
            let sa = sa.abs();
            let r = modes(|m| farith::sqrt(fmt, m, false, a));
            let vs = |v: i128| ((4 * sa) << (2 * T - 40)).cmp(&(v * v));
            check_modes(fmt, T, r, vs, &format!("sqrt {a:#x}"));
        }
    }
}

#[test]
fn overflow_underflow_and_signed_zeros_follow_the_mode() {
    let f = round::F32;
    let max = u64::from(f32::MAX.to_bits());
    let big = u64::from(f32::MAX.to_bits());
    let inf = f.inf();
    // MAX + MAX overflows: to infinity, or to MAX where the mode rounds down.
    let r = modes(|m| farith::binary(f, FOp::Add, m, false, false, big, big));
    assert_eq!(r, [inf, max, max, inf]);
    let neg = |v: u64| v | f.sign_bit();
    let r = modes(|m| farith::binary(f, FOp::Add, m, false, false, neg(big), neg(big)));
    assert_eq!(r, [neg(inf), neg(max), neg(inf), neg(max)]);
    // The smallest subnormal squared: 0, or the smallest subnormal rounding up.
    let r = modes(|m| farith::binary(f, FOp::Mul, m, false, false, 1, 1));
    assert_eq!(r, [0, 0, 0, 1]);
    let r = modes(|m| farith::binary(f, FOp::Mul, m, false, false, 1, neg(1)));
    assert_eq!(r, [neg(0), neg(0), neg(1), neg(0)]);
    // x - x is +0, except -0 toward minus infinity; -0 + -0 is -0 always.
    let one = u64::from(1f32.to_bits());
    assert_eq!(modes(|m| farith::binary(f, FOp::Sub, m, false, false, one, one)), [0, 0, neg(0), 0]);
    assert_eq!(modes(|m| farith::binary(f, FOp::Add, m, false, false, neg(0), neg(0))), [neg(0); 4]);
    assert_eq!(modes(|m| farith::fma(f, m, false, false, one, neg(one), one)), [0, 0, neg(0), 0]);
    // .ftz flushes a subnormal result; .sat clamps.
    assert_eq!(farith::binary(f, FOp::Mul, Rnd::Rp, true, false, 0x0080_0000, 0x3f00_0000), 0);
    assert_eq!(farith::binary(f, FOp::Add, Rnd::Rz, false, true, one, one), one);
    // Specials are exact in every mode.
    assert_eq!(farith::binary(f, FOp::Div, Rnd::Rz, false, false, one, 0), inf);
    assert_eq!(farith::binary(f, FOp::Div, Rnd::Rm, false, false, 0, 0), u64::from(F32_CANONICAL_NAN));
    assert_eq!(farith::sqrt(f, Rnd::Rp, false, neg(0)), neg(0));
    assert_eq!(farith::sqrt(f, Rnd::Rp, false, neg(one)), u64::from(F32_CANONICAL_NAN));
}

#[test]
fn narrowing_to_halves_matches_the_half_crate_and_brackets() {
    let mut rng = Rng(0x0bad_cafe_1234_5678);
    for _ in 0..100_000 {
        let a = rng.f32();
        let x = f32::from_bits(a as u32);
        if x.is_nan() {
            continue;
        }
        let exact = round::Exact::of(round::F32, a);
        // `half` rounds f32 -> f16/bf16 to nearest even (its documented behaviour).
        assert_eq!(
            round::round(round::F16, exact, Rnd::Rn),
            u64::from(half::f16::from_f32(x).to_bits()),
            "{a:#x}"
        );
        assert_eq!(round::round(round::BF16, exact, Rnd::Rn), u64::from(half::bf16::from_f32(x).to_bits()));
        for (fmt, widen) in [
            (round::F16, (|b: u64| half::f16::from_bits(b as u16).to_f32()) as fn(u64) -> f32),
            (round::BF16, |b: u64| half::bf16::from_bits(b as u16).to_f32()),
        ] {
            let [rz, rm, rp] = [Rnd::Rz, Rnd::Rm, Rnd::Rp].map(|m| widen(round::round(fmt, exact, m)));
            assert!(rm <= x && x <= rp, "{a:#x}: {rm} {x} {rp}");
            if rm != rp {
                let up = widen(next_up(fmt, round::round(fmt, exact, Rnd::Rm)));
                assert_eq!(up.to_bits(), rp.to_bits(), "{a:#x}");
            }
            assert!(rz.abs() <= x.abs());
        }
    }
}
