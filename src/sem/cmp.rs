//! Comparisons as pure functions of the operands' bits (PTX ISA 9.3.1 "Comparisons",
//! 9.7.6.2 `setp`, 9.7.7.2 half-precision `setp`).
//!
//! Integers are compared as 64-bit values, zero- or sign-extended by the caller; the
//! bit-size comparisons are `eq` and `ne`. Floats follow tables 23 to 25: ordered
//! operators are false when either operand is NaN, unordered ones true, `num` tests
//! that neither is NaN and `nan` that one is; +0 equals -0; subnormals compare
//! exactly unless `.ftz` flushes them to zero of the same sign first. Half-precision
//! values widen exactly to f32 before comparing.

use std::cmp::Ordering;

/// A comparison operator (PTX ISA 9.3.1, tables 22 to 25).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

impl CmpOp {
    /// The result for operands in `order`, or `None` when either is NaN. Operators
    /// `check` allows only elsewhere act as their ordered counterparts (`lo` as `lt`
    /// on floats, so a NaN makes it false; `equ` as `eq`, `num` as true and `nan` as
    /// false on integers), so the function is total.
    fn holds(self, order: Option<Ordering>) -> bool {
        use CmpOp::*;
        let Some(o) = order else {
            return matches!(self, Equ | Neu | Ltu | Leu | Gtu | Geu | Nan);
        };
        match self {
            Eq | Equ => o == Ordering::Equal,
            Ne | Neu => o != Ordering::Equal,
            Lt | Ltu | Lo => o == Ordering::Less,
            Le | Leu | Ls => o != Ordering::Greater,
            Gt | Gtu | Hi => o == Ordering::Greater,
            Ge | Geu | Hs => o != Ordering::Less,
            Num => true,
            Nan => false,
        }
    }
}

/// A Boolean operator combining a comparison with a predicate `c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

impl BoolOp {
    pub fn apply(self, t: bool, c: bool) -> bool {
        match self {
            BoolOp::And => t & c,
            BoolOp::Or => t | c,
            BoolOp::Xor => t ^ c,
        }
    }
}

/// Integer comparison of two 64-bit values (zero-extended when `signed` is false,
/// sign-extended when true); `lo ls hi hs` always compare unsigned (ISA 9.3.1.1 allows
/// them on unsigned types only). Bit-size types use `eq` and `ne`, where `signed` does
/// not matter.
pub fn cmp_int(op: CmpOp, a: u64, b: u64, signed: bool) -> bool {
    let unsigned_op = matches!(op, CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs);
    let order = if signed && !unsigned_op { (a as i64).cmp(&(b as i64)) } else { a.cmp(&b) };
    op.holds(Some(order))
}

/// f32 comparison on bits; `ftz` flushes subnormal inputs to zero of the same sign.
pub fn cmp_f32(op: CmpOp, a: u32, b: u32, ftz: bool) -> bool {
    let value = |bits: u32| {
        let v = f32::from_bits(bits);
        if ftz && v.is_subnormal() { f32::from_bits(bits & 0x8000_0000) } else { v }
    };
    op.holds(value(a).partial_cmp(&value(b)))
}

/// f64 comparison on bits (`.ftz` applies only to f32).
pub fn cmp_f64(op: CmpOp, a: u64, b: u64) -> bool {
    op.holds(f64::from_bits(a).partial_cmp(&f64::from_bits(b)))
}

/// f16 comparison on bits; `ftz` flushes f16 subnormals to zero of the same sign.
pub fn cmp_f16(op: CmpOp, a: u16, b: u16, ftz: bool) -> bool {
    let value = |bits: u16| {
        let bits = if ftz && bits & 0x7c00 == 0 { bits & 0x8000 } else { bits };
        half::f16::from_bits(bits).to_f32()
    };
    op.holds(value(a).partial_cmp(&value(b)))
}

/// bf16 comparison on bits (a bf16 is the top half of an f32).
pub fn cmp_bf16(op: CmpOp, a: u16, b: u16) -> bool {
    let value = |bits: u16| f32::from_bits(u32::from(bits) << 16);
    op.holds(value(a).partial_cmp(&value(b)))
}

/// Packed `.f16x2`: (low halves, high halves), as `setp` writes them to p and q.
pub fn cmp_f16x2(op: CmpOp, a: u32, b: u32, ftz: bool) -> (bool, bool) {
    (cmp_f16(op, a as u16, b as u16, ftz), cmp_f16(op, (a >> 16) as u16, (b >> 16) as u16, ftz))
}

/// Packed `.bf16x2`: (low halves, high halves).
pub fn cmp_bf16x2(op: CmpOp, a: u32, b: u32) -> (bool, bool) {
    (cmp_bf16(op, a as u16, b as u16), cmp_bf16(op, (a >> 16) as u16, (b >> 16) as u16))
}
