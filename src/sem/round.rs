//! Correct rounding to any IEEE binary format under the four PTX rounding modes
//! (PTX ISA 9.7.3: `.rn` to nearest even, `.rz` toward zero, `.rm` toward -inf, `.rp`
//! toward +inf). A result is first computed exactly as an integer `m × 2^e`, plus the
//! sign of whatever did not fit (a sticky remainder), and then rounded once by
//! [`round`]. `add`, `sub`, `mul`, `fma`, `div` and `sqrt` of f32 and f64 in every
//! mode, and every narrowing `cvt`, go through here; the `.rn` forms of the f32/f64
//! arithmetic use the host's IEEE operations, which the tests hold this module to.

use std::cmp::Ordering;

/// A rounding mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rnd {
    #[default]
    Rn,
    Rz,
    Rm,
    Rp,
    /// To nearest, ties away from zero: no PTX mode, but what the texture unit's
    /// filter rounds by (exec/texture.rs).
    Ra,
}

/// An IEEE binary interchange format: fraction and exponent bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub frac: u32,
    pub exp: u32,
}

pub const F16: Format = Format { frac: 10, exp: 5 };
pub const BF16: Format = Format { frac: 7, exp: 8 };
pub const F32: Format = Format { frac: 23, exp: 8 };
pub const F64: Format = Format { frac: 52, exp: 11 };

impl Format {
    fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }

    fn emin(self) -> i32 {
        1 - self.bias()
    }

    pub fn sign_bit(self) -> u64 {
        1 << (self.frac + self.exp)
    }

    pub fn inf(self) -> u64 {
        ((1 << self.exp) - 1) << self.frac
    }

    /// The NaN NVIDIA GPUs write: all exponent and fraction bits set, sign clear
    /// (0x7fff for halves, 0x7fffffff for f32; f64 follows `float::F64_NAN`).
    pub fn nan(self) -> u64 {
        self.inf() | ((1 << self.frac) - 1)
    }

    /// Whether `bits` is a subnormal of this format.
    pub fn is_subnormal(self, bits: u64) -> bool {
        bits & self.inf() == 0 && bits & ((1 << self.frac) - 1) != 0
    }

    /// `bits` with a subnormal flushed to zero of the same sign.
    pub fn flush(self, bits: u64) -> u64 {
        if self.is_subnormal(bits) { bits & self.sign_bit() } else { bits }
    }

    /// A finite value's sign, integer significand and exponent: `(-1)^neg m 2^e`.
    pub fn parts(self, bits: u64) -> (bool, u128, i32) {
        let neg = bits & self.sign_bit() != 0;
        let field = (bits >> self.frac) & ((1 << self.exp) - 1);
        let f = u128::from(bits & ((1 << self.frac) - 1));
        let e0 = self.emin() - self.frac as i32;
        if field == 0 { (neg, f, e0) } else { (neg, f | 1 << self.frac, e0 + field as i32 - 1) }
    }

    pub fn is_nan(self, bits: u64) -> bool {
        bits & self.inf() == self.inf() && bits & ((1 << self.frac) - 1) != 0
    }
}

/// An exact value `(-1)^neg (m 2^e + δ)` where `0 <= |δ| < 2^e` has the sign `rest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exact {
    pub neg: bool,
    pub m: u128,
    pub e: i32,
    pub rest: Ordering,
}

impl Exact {
    pub fn of(fmt: Format, bits: u64) -> Exact {
        let (neg, m, e) = fmt.parts(bits);
        Exact { neg, m, e, rest: Ordering::Equal }
    }

    /// The exponent of the leading bit, `floor(log2 |x|)` for a nonzero exact `x`.
    pub fn top(self) -> i32 {
        self.e + (127 - self.m.leading_zeros() as i32)
    }
}

/// Rounds `x` to `fmt` under `rnd`: the bits of the result, overflow to infinity or
/// the largest finite value as the mode says. `x.m` must be below 2^127, and when
/// `x.m` is 0, `x.rest` must be `Equal` (a signed zero).
pub fn round(fmt: Format, x: Exact, rnd: Rnd) -> u64 {
    let sign = if x.neg { fmt.sign_bit() } else { 0 };
    let Exact { mut m, mut e, mut rest, neg } = x;
    if m == 0 {
        return sign;
    }
    if rest == Ordering::Less {
        // m 2^e - δ = (2m - 1) 2^(e-1) + (2^(e-1) - δ), a positive remainder.
        (m, e, rest) = (2 * m - 1, e - 1, Ordering::Greater);
    }
    let top = Exact { neg, m, e, rest }.top();
    let overflow = || match rnd {
        Rnd::Rn | Rnd::Ra => fmt.inf(),
        Rnd::Rz => fmt.inf() - 1,
        Rnd::Rp if neg => fmt.inf() - 1,
        Rnd::Rm if !neg => fmt.inf() - 1,
        _ => fmt.inf(),
    } | sign;
    if top > fmt.bias() {
        return overflow();
    }
    // The exponent of the result's last place: normal, or the subnormals' fixed one.
    let q = top.max(fmt.emin()) - fmt.frac as i32;
    let mut shift = q - e;
    if shift < 1 && rest != Ordering::Equal {
        // Bring the remainder below the last place (m then has at most 2p+1 bits).
        m <<= 1 - shift;
        shift = 1;
    }
    let kept = if shift <= 0 {
        m << -shift
    } else {
        let (kept, rem) = if shift >= 128 { (0, m) } else { (m >> shift, m & ((1u128 << shift) - 1)) };
        let vs_half = if shift > 128 { Ordering::Less } else { rem.cmp(&(1u128 << (shift - 1))).then(rest) };
        let inexact = rem != 0 || rest != Ordering::Equal;
        let up = match rnd {
            Rnd::Rn => vs_half == Ordering::Greater || (vs_half == Ordering::Equal && kept & 1 == 1),
            Rnd::Rz => false,
            Rnd::Rp => !neg && inexact,
            Rnd::Rm => neg && inexact,
            Rnd::Ra => vs_half != Ordering::Less,
        };
        kept + u128::from(up)
    };
    // Normal: the biased exponent above the hidden bit plus the significand; subnormal:
    // the fraction alone (a carry out of either lands in the exponent field, as the
    // encoding wants).
    let bits =
        if top >= fmt.emin() { (((top - fmt.emin()) as u64) << fmt.frac) + kept as u64 } else { kept as u64 };
    if bits >= fmt.inf() { overflow() } else { bits | sign }
}

/// `a + b` exactly (up to the sticky remainder), for operands of at most 106 bits.
pub fn sum(a: Exact, b: Exact) -> Exact {
    if b.m == 0 {
        return a;
    }
    if a.m == 0 {
        return b;
    }
    let (big, small) = if a.top() >= b.top() { (a, b) } else { (b, a) };
    // The sum fits below bit 126 of a common scale: align there, folding what of the
    // smaller operand lies below it into the remainder (the larger always fits).
    let cut = big.top() + 2 - 126;
    let e0 = big.e.min(small.e).max(cut);
    let bm = big.m << (big.e - e0);
    let (sm, srest) = if small.e >= e0 {
        (small.m << (small.e - e0), Ordering::Equal)
    } else {
        let k = (e0 - small.e) as u32;
        let (kept, lost) = if k >= 128 { (0, small.m) } else { (small.m >> k, small.m & ((1u128 << k) - 1)) };
        (kept, if lost != 0 { Ordering::Greater } else { Ordering::Equal })
    };
    if big.neg == small.neg {
        Exact { neg: big.neg, m: bm + sm, e: e0, rest: srest }
    } else if bm >= sm {
        Exact { neg: big.neg, m: bm - sm, e: e0, rest: srest.reverse() }
    } else {
        Exact { neg: small.neg, m: sm - bm, e: e0, rest: srest }
    }
}

/// `a × b` exactly.
pub fn product(a: Exact, b: Exact) -> Exact {
    Exact { neg: a.neg != b.neg, m: a.m * b.m, e: a.e + b.e, rest: Ordering::Equal }
}

/// Shifts a nonzero significand up to exactly `bits` bits.
fn normalize(x: Exact, bits: u32) -> Exact {
    let k = bits as i32 - (128 - x.m.leading_zeros() as i32);
    Exact { m: x.m << k, e: x.e - k, ..x }
}

/// `a / b` for nonzero finite `b`, to 75 or more bits plus the remainder's sign.
pub fn quotient(a: Exact, b: Exact) -> Exact {
    if a.m == 0 {
        return Exact { neg: a.neg != b.neg, ..a };
    }
    let (a, b) = (normalize(a, 53), normalize(b, 53));
    let n = a.m << 75;
    let rest = if n % b.m == 0 { Ordering::Equal } else { Ordering::Greater };
    Exact { neg: a.neg != b.neg, m: n / b.m, e: a.e - b.e - 75, rest }
}

/// `sqrt(a)` for non-negative finite `a`, to 56 or more bits plus the remainder's sign.
pub fn root(a: Exact) -> Exact {
    if a.m == 0 {
        return a;
    }
    let a = normalize(a, 53);
    let k = if (a.e - 60).rem_euclid(2) == 0 { 60 } else { 61 };
    let n = a.m << k;
    let r = n.isqrt();
    let rest = if r * r == n { Ordering::Equal } else { Ordering::Greater };
    Exact { neg: false, m: r, e: (a.e - k) / 2, rest }
}
