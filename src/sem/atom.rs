//! The value `atom` and `red` store (PTX ISA 9.7.13.5 "atom"): a pure function of the
//! old value in memory and the operands, so the executor can apply it inside an
//! atomic read-modify-write of global memory or directly in shared and local memory.

use super::farith;
use super::float::{self, FOp};
use super::round::{self, Rnd};

/// `atom` operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Exch,
    Cas,
}

impl AtomOp {
    /// The operation's modifier, without its dot.
    pub fn name(self) -> &'static str {
        match self {
            AtomOp::Add => "add",
            AtomOp::Min => "min",
            AtomOp::Max => "max",
            AtomOp::Inc => "inc",
            AtomOp::Dec => "dec",
            AtomOp::And => "and",
            AtomOp::Or => "or",
            AtomOp::Xor => "xor",
            AtomOp::Exch => "exch",
            AtomOp::Cas => "cas",
        }
    }
}

/// How `atom` reads its operands (`.b32`/`.b64` read as unsigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomTy {
    /// `.b16`: `cas` and `exch` only.
    B16,
    U32,
    S32,
    U64,
    S64,
    /// `add.noftz` on halves, one or a pair (PTX ISA 9.7.13.5: sm_70 for `.f16`,
    /// sm_60 for `.f16x2`, sm_90 for `.bf16` and `.bf16x2`).
    F16,
    F16x2,
    BF16,
    BF16x2,
    F32,
    F64,
}

impl AtomTy {
    pub fn bytes(self) -> u64 {
        match self {
            AtomTy::B16 | AtomTy::F16 | AtomTy::BF16 => 2,
            AtomTy::U32 | AtomTy::S32 | AtomTy::F32 | AtomTy::F16x2 | AtomTy::BF16x2 => 4,
            _ => 8,
        }
    }
}

/// The new value for `old` with operands `b` (and `c` for `.cas`). The ISA's
/// definitions: `inc` is `old >= b ? 0 : old + 1`, `dec` is
/// `(old == 0 || old > b) ? b : old - 1`, `cas` is `old == b ? c : old`;
/// `atom.add.f32` rounds to nearest even and flushes subnormal inputs and results to
/// sign-preserving zero; `.f64` does not flush, nor do the halves (`.noftz`), which add
/// each half of a pair on its own. `min`/`max` of a half (the bulk reductions'
/// `.f16`/`.bf16`) follow the `min`/`max` instructions: a NaN gives the other input,
/// `-0 < +0`.
pub fn apply(op: AtomOp, ty: AtomTy, old: u64, b: u64, c: u64) -> u64 {
    let mask = if ty.bytes() == 8 { u64::MAX } else { (1 << (8 * ty.bytes())) - 1 };
    let half_add = |fmt, x: u64, y: u64| farith::binary(fmt, FOp::Add, Rnd::Rn, false, false, x, y);
    let pair_add = |fmt, x: u64, y: u64| {
        half_add(fmt, x & 0xffff, y & 0xffff) | half_add(fmt, x >> 16 & 0xffff, y >> 16 & 0xffff) << 16
    };
    let (old, b, c) = (old & mask, b & mask, c & mask);
    let signed = |v: u64| if ty == AtomTy::S32 { i64::from(v as u32 as i32) } else { v as i64 };
    let r = match (op, ty) {
        (AtomOp::Add, AtomTy::F32) => {
            u64::from(float::f32_binary(FOp::Add, old as u32, b as u32, true, false))
        }
        (AtomOp::Add, AtomTy::F64) => float::f64_binary(FOp::Add, old, b),
        (AtomOp::Add, AtomTy::F16) => half_add(round::F16, old, b),
        (AtomOp::Add, AtomTy::BF16) => half_add(round::BF16, old, b),
        (AtomOp::Add, AtomTy::F16x2) => pair_add(round::F16, old, b),
        (AtomOp::Add, AtomTy::BF16x2) => pair_add(round::BF16, old, b),
        (AtomOp::Add, _) => old.wrapping_add(b),
        (AtomOp::Min | AtomOp::Max, AtomTy::F16 | AtomTy::BF16) => {
            let fmt = if ty == AtomTy::F16 { round::F16 } else { round::BF16 };
            let m = float::MinMax { max: op == AtomOp::Max, nan: false, xorsign_abs: false };
            farith::half_min_max(fmt, m, false, old, b)
        }
        (AtomOp::Min, AtomTy::S32 | AtomTy::S64) => signed(old).min(signed(b)) as u64,
        (AtomOp::Max, AtomTy::S32 | AtomTy::S64) => signed(old).max(signed(b)) as u64,
        (AtomOp::Min, _) => old.min(b),
        (AtomOp::Max, _) => old.max(b),
        (AtomOp::Inc, _) => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        (AtomOp::Dec, _) => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
        (AtomOp::And, _) => old & b,
        (AtomOp::Or, _) => old | b,
        (AtomOp::Xor, _) => old ^ b,
        (AtomOp::Exch, _) => b,
        (AtomOp::Cas, _) => {
            if old == b {
                c
            } else {
                old
            }
        }
    };
    r & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inc_and_dec_wrap_at_the_bound_as_the_isa_defines() {
        // inc: 0, 1, .., b, then back to 0.
        let seq: Vec<u64> = (0..6)
            .scan(0, |v, _| {
                *v = apply(AtomOp::Inc, AtomTy::U32, *v, 3, 0);
                Some(*v)
            })
            .collect();
        assert_eq!(seq, [1, 2, 3, 0, 1, 2]);
        // dec: from 0 or from above b it restarts at b.
        assert_eq!(apply(AtomOp::Dec, AtomTy::U32, 0, 3, 0), 3);
        assert_eq!(apply(AtomOp::Dec, AtomTy::U32, 9, 3, 0), 3);
        assert_eq!(apply(AtomOp::Dec, AtomTy::U32, 2, 3, 0), 1);
        assert_eq!(apply(AtomOp::Inc, AtomTy::U32, 0xffff_ffff, 0xffff_ffff, 0), 0);
    }

    #[test]
    fn signed_and_unsigned_min_max_and_32_bit_wrap() {
        let m1 = 0xffff_ffffu64; // -1 as s32, 2^32-1 as u32
        assert_eq!(apply(AtomOp::Min, AtomTy::S32, 5, m1, 0), m1);
        assert_eq!(apply(AtomOp::Min, AtomTy::U32, 5, m1, 0), 5);
        assert_eq!(apply(AtomOp::Max, AtomTy::S32, 5, m1, 0), 5);
        assert_eq!(apply(AtomOp::Max, AtomTy::S64, 5, u64::MAX, 0), 5);
        assert_eq!(apply(AtomOp::Add, AtomTy::U32, m1, 2, 0), 1);
        assert_eq!(apply(AtomOp::Add, AtomTy::U64, m1, 2, 0), 0x1_0000_0001);
    }

    #[test]
    fn cas_exch_and_bitwise() {
        assert_eq!(apply(AtomOp::Cas, AtomTy::U32, 7, 7, 9), 9);
        assert_eq!(apply(AtomOp::Cas, AtomTy::U32, 7, 8, 9), 7);
        assert_eq!(apply(AtomOp::Exch, AtomTy::U64, 7, 8, 0), 8);
        assert_eq!(apply(AtomOp::And, AtomTy::U32, 0b1100, 0b1010, 0), 0b1000);
        assert_eq!(apply(AtomOp::Or, AtomTy::U32, 0b1100, 0b1010, 0), 0b1110);
        assert_eq!(apply(AtomOp::Xor, AtomTy::U32, 0b1100, 0b1010, 0), 0b0110);
    }

    #[test]
    fn float_add_flushes_f32_subnormals_but_not_f64() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(apply(AtomOp::Add, AtomTy::F32, f(1.5), f(2.25), 0), f(3.75));
        // 2^-149 + 2^-149 = 2^-148, subnormal: flushed to +0 (inputs are flushed first).
        assert_eq!(apply(AtomOp::Add, AtomTy::F32, 1, 1, 0), 0);
        assert_eq!(apply(AtomOp::Add, AtomTy::F32, 0x8000_0001, 0x8000_0001, 0), 0x8000_0000);
        assert_eq!(apply(AtomOp::Add, AtomTy::F64, 1, 1, 0), 2);
    }
}
