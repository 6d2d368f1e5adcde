//! The warp-wide forms of the instructions real kernels spend their time in
//! (DESIGN.md, principles 1 and 2): each [`Op`] that fits one is specialised here,
//! once, by type, modifiers and operand kind, so the executor runs it as one loop
//! over the 32 lanes of a register row, with no per-lane branching on what an
//! operand is. Everything else is [`Fast::Generic`] and runs through the general
//! per-lane path. A form never changes the semantics: it computes what the general
//! path computes, bit for bit (the conformance corpus and the hardware goldens run
//! through both).
//!
//! The form is kept small (its size is pinned by a test, as wasmi pins its op) and in
//! an array of its own, so the hot loop reads 32 bytes per instruction.

use super::ops::{CmpKind, CvtKind, Inst, IntOp, Mem, Op, Pred, Special, Src};
use super::regs::{RegFile, Slot};
use crate::sem::cmp::CmpOp;
use crate::sem::float::FOp;
use crate::sem::int::Part;
use crate::sem::round::Rnd;

/// A 32-bit source: a register row or an immediate (the same for every lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum R32 {
    Reg(u16),
    Imm(u32),
}

/// A 64-bit source: a register row or a sign-extended 32-bit immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum R64 {
    Reg(u16),
    Imm(i32),
}

/// Two-source 32-bit integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum I32 {
    Add,
    Sub,
    MulLo,
    MulHiU,
    MulHiS,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
    MinU,
    MinS,
    MaxU,
    MaxS,
}

/// Two-source 64-bit integer operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum I64 {
    Add,
    Sub,
    MulLo,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
}

/// A guard: none, or a predicate row, maybe negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard(u16);

impl Guard {
    pub const NONE: Guard = Guard(u16::MAX);

    fn of(p: Option<Pred>) -> Option<Guard> {
        match p {
            None => Some(Guard::NONE),
            Some(p) if p.row < 0x7fff => Some(Guard(p.row as u16 | u16::from(p.negated) << 15)),
            Some(_) => None,
        }
    }

    /// The lanes it lets run, of the predicate rows `pred`.
    #[inline]
    pub fn mask(self, pred: &[u32]) -> u32 {
        if self.0 == u16::MAX {
            return u32::MAX;
        }
        let m = pred[usize::from(self.0 & 0x7fff)];
        if self.0 >> 15 == 1 { !m } else { m }
    }
}

/// A specialised instruction. Rows are register indices in their file; `p` rows are
/// predicate rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fast {
    /// Runs through the general path ([`Op`]).
    Generic,
    Mov32 {
        d: u16,
        a: R32,
    },
    Mov64 {
        d: u16,
        a: R64,
    },
    Int32 {
        op: I32,
        d: u16,
        a: R32,
        b: R32,
    },
    /// `mad.lo.{u32,s32}`.
    Mad32 {
        d: u16,
        a: R32,
        b: R32,
        c: R32,
    },
    /// 64-bit integer operations; for the shifts `b` names a 32-bit row (the amount).
    Int64 {
        op: I64,
        d: u16,
        a: R64,
        b: R64,
    },
    /// `mul.wide` of 32-bit sources into a 64-bit row.
    MulWide {
        signed: bool,
        d: u16,
        a: R32,
        b: R32,
    },
    /// `mad.wide`: `mul.wide` plus a 64-bit `c`.
    MadWide {
        signed: bool,
        d: u16,
        a: R32,
        b: R32,
        c: R64,
    },
    /// `cvt` of a 32-bit integer to 64 bits, sign- or zero-extended.
    Extend {
        signed: bool,
        d: u16,
        a: R32,
    },
    /// `add/sub/mul.rn{.ftz}.f32`.
    F32 {
        op: FOp,
        ftz: bool,
        d: u16,
        a: R32,
        b: R32,
    },
    /// `fma.rn{.ftz}.f32`.
    Fma32 {
        ftz: bool,
        d: u16,
        a: R32,
        b: R32,
        c: R32,
    },
    /// `add/sub/mul.rn.f64`.
    F64 {
        op: FOp,
        d: u16,
        a: R64,
        b: R64,
    },
    Fma64 {
        d: u16,
        a: R64,
        b: R64,
        c: R64,
    },
    /// `setp.CmpOp.{u32,s32,b32}` into one predicate, uncombined.
    SetpI32 {
        op: CmpOp,
        signed: bool,
        p: u16,
        a: R32,
        b: R32,
    },
    SetpI64 {
        op: CmpOp,
        signed: bool,
        p: u16,
        a: R64,
        b: R64,
    },
    SetpF32 {
        op: CmpOp,
        ftz: bool,
        p: u16,
        a: R32,
        b: R32,
    },
    /// `selp` of 32-bit values on predicate row `p` (negated: `!p`).
    Selp32 {
        d: u16,
        a: R32,
        b: R32,
        p: u16,
        negated: bool,
    },
    Selp64 {
        d: u16,
        a: R64,
        b: R64,
        p: u16,
        negated: bool,
    },
    /// A scalar `ld` of 4 or 8 bytes into a 32- or 64-bit row, from an address in a
    /// 64-bit row (`wide_addr`) or a 32-bit one.
    Ld {
        mem: Mem,
        size: u8,
        d: u16,
        addr: u16,
        wide_addr: bool,
        offset: i32,
    },
    /// A scalar `st` of 4 or 8 bytes.
    St {
        mem: Mem,
        size: u8,
        src: R64,
        addr: u16,
        wide_addr: bool,
        offset: i32,
    },
    /// `bra` (its divergent case goes through the general path).
    Bra {
        target: u32,
    },
    /// `ld.param` of a kernel parameter: the same value in every lane.
    Param {
        wide: bool,
        d: u16,
        offset: u32,
        size: u8,
        signed: bool,
    },
    /// `mov` of a special register into a 32-bit register, for the whole warp.
    Sreg {
        d: u16,
        sreg: Special,
    },
    /// `cvt` of a 64-bit integer to a 32-bit one without saturation: the low half.
    Trunc {
        d: u16,
        a: R64,
    },
}

/// An instruction as the hot loop reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastInst {
    pub guard: Guard,
    pub op: Fast,
}

fn row(s: Slot, file: RegFile) -> Option<u16> {
    (s.file == file).then_some(u16::try_from(s.index).ok()?)
}

/// A 32-bit source. Immediates hold 64 bits, sign-extended when negative; a 32-bit
/// operation reads the low 32 (the general path masks them to its width).
fn r32(s: Src) -> Option<R32> {
    match s {
        Src::Reg(s) => row(s, RegFile::R32).map(R32::Reg),
        Src::Imm(v) if v >> 32 == 0 || v >> 32 == 0xffff_ffff => Some(R32::Imm(v as u32)),
        Src::Imm(_) => None,
    }
}

fn r64(s: Src) -> Option<R64> {
    match s {
        Src::Reg(s) => row(s, RegFile::R64).map(R64::Reg),
        Src::Imm(v) => i32::try_from(v as i64).ok().map(R64::Imm),
    }
}

/// A source of either width as a 64-bit one (for `st`, whose value row is either).
fn either(s: Src, size: u8) -> Option<R64> {
    match (s, size) {
        (Src::Reg(s), 4) => row(s, RegFile::R32).map(R64::Reg),
        (Src::Imm(v), 4) if v >> 32 == 0 || v >> 32 == 0xffff_ffff => Some(R64::Imm(v as i32)),
        (s, 8) => r64(s),
        _ => None,
    }
}

impl FastInst {
    /// The specialised form of `inst`, or [`Fast::Generic`] (whose guard, when a
    /// row cannot be encoded here, is read from `inst`).
    pub fn of(inst: &Inst) -> FastInst {
        match (Guard::of(inst.guard), Self::op(&inst.op)) {
            (Some(guard), Some(op)) => FastInst { guard, op },
            (guard, _) => FastInst { guard: guard.unwrap_or(Guard::NONE), op: Fast::Generic },
        }
    }

    fn op(op: &Op) -> Option<Fast> {
        let d32 = |s: Slot| row(s, RegFile::R32);
        let d64 = |s: Slot| row(s, RegFile::R64);
        Some(match *op {
            Op::Mov { dst, src } => match dst.file {
                RegFile::R32 => Fast::Mov32 { d: d32(dst)?, a: r32(src)? },
                RegFile::R64 => Fast::Mov64 { d: d64(dst)?, a: r64(src)? },
                RegFile::Pred => return None,
            },
            Op::Int { op, width, signed, dst, a, b } if width.0 == 32 => {
                let op = match (op, signed) {
                    (IntOp::Add, _) => I32::Add,
                    (IntOp::Sub, _) => I32::Sub,
                    (IntOp::And, _) => I32::And,
                    (IntOp::Or, _) => I32::Or,
                    (IntOp::Xor, _) => I32::Xor,
                    (IntOp::Shl, _) => I32::Shl,
                    (IntOp::Shr, false) => I32::ShrU,
                    (IntOp::Shr, true) => I32::ShrS,
                    (IntOp::Min, false) => I32::MinU,
                    (IntOp::Min, true) => I32::MinS,
                    (IntOp::Max, false) => I32::MaxU,
                    (IntOp::Max, true) => I32::MaxS,
                    (IntOp::Div | IntOp::Rem, _) => return None,
                };
                Fast::Int32 { op, d: d32(dst)?, a: r32(a)?, b: r32(b)? }
            }
            Op::Int { op, width, signed, dst, a, b } if width.0 == 64 => {
                let op = match (op, signed) {
                    (IntOp::Add, _) => I64::Add,
                    (IntOp::Sub, _) => I64::Sub,
                    (IntOp::And, _) => I64::And,
                    (IntOp::Or, _) => I64::Or,
                    (IntOp::Xor, _) => I64::Xor,
                    (IntOp::Shl, _) => I64::Shl,
                    (IntOp::Shr, false) => I64::ShrU,
                    (IntOp::Shr, true) => I64::ShrS,
                    _ => return None,
                };
                // A 64-bit shift's amount is a 32-bit operand (kept in a 32-bit row).
                let b = match (op, b) {
                    (I64::Shl | I64::ShrU | I64::ShrS, Src::Reg(s)) => R64::Reg(d32(s)?),
                    (I64::Shl | I64::ShrU | I64::ShrS, Src::Imm(v)) => R64::Imm(i32::try_from(v).ok()?),
                    (_, b) => r64(b)?,
                };
                Fast::Int64 { op, d: d64(dst)?, a: r64(a)?, b }
            }
            Op::Mul { part, width, signed, dst, a, b } if width.0 == 32 => match part {
                Part::Lo => Fast::Int32 { op: I32::MulLo, d: d32(dst)?, a: r32(a)?, b: r32(b)? },
                Part::Hi => {
                    let op = if signed { I32::MulHiS } else { I32::MulHiU };
                    Fast::Int32 { op, d: d32(dst)?, a: r32(a)?, b: r32(b)? }
                }
                Part::Wide => Fast::MulWide { signed, d: d64(dst)?, a: r32(a)?, b: r32(b)? },
            },
            Op::Mul { part: Part::Lo, width, dst, a, b, .. } if width.0 == 64 => {
                Fast::Int64 { op: I64::MulLo, d: d64(dst)?, a: r64(a)?, b: r64(b)? }
            }
            Op::Mad { part, width, signed, dst, a, b, c } if width.0 == 32 => match part {
                Part::Lo => Fast::Mad32 { d: d32(dst)?, a: r32(a)?, b: r32(b)?, c: r32(c)? },
                Part::Wide => Fast::MadWide { signed, d: d64(dst)?, a: r32(a)?, b: r32(b)?, c: r64(c)? },
                Part::Hi => return None,
            },
            Op::Cvt { kind: CvtKind::IntInt { dst: to, src: from, sat: false }, dst, src }
                if to.bits == 64 && from.bits == 32 =>
            {
                Fast::Extend { signed: from.signed, d: d64(dst)?, a: r32(src)? }
            }
            Op::Float { op, f64: false, rnd: Rnd::Rn, ftz, sat: false, dst, a, b } if op != FOp::Div => {
                Fast::F32 { op, ftz, d: d32(dst)?, a: r32(a)?, b: r32(b)? }
            }
            Op::Float { op, f64: true, rnd: Rnd::Rn, dst, a, b, .. } if op != FOp::Div => {
                Fast::F64 { op, d: d64(dst)?, a: r64(a)?, b: r64(b)? }
            }
            Op::Fma { f64: false, rnd: Rnd::Rn, ftz, sat: false, dst, a, b, c } => {
                Fast::Fma32 { ftz, d: d32(dst)?, a: r32(a)?, b: r32(b)?, c: r32(c)? }
            }
            Op::Fma { f64: true, rnd: Rnd::Rn, dst, a, b, c, .. } => {
                Fast::Fma64 { d: d64(dst)?, a: r64(a)?, b: r64(b)?, c: r64(c)? }
            }
            Op::Setp { kind, op, p: Some(p), q: None, a, b, combine: None } => {
                let p = u16::try_from(p).ok()?;
                match kind {
                    CmpKind::Int { width, signed } if width.0 == 32 => {
                        Fast::SetpI32 { op, signed, p, a: r32(a)?, b: r32(b)? }
                    }
                    CmpKind::Int { width, signed } if width.0 == 64 => {
                        Fast::SetpI64 { op, signed, p, a: r64(a)?, b: r64(b)? }
                    }
                    CmpKind::F32 { ftz } => Fast::SetpF32 { op, ftz, p, a: r32(a)?, b: r32(b)? },
                    _ => return None,
                }
            }
            Op::Selp { dst, a, b, c } => {
                let p = u16::try_from(c.row).ok()?;
                match dst.file {
                    RegFile::R32 => {
                        Fast::Selp32 { d: d32(dst)?, a: r32(a)?, b: r32(b)?, p, negated: c.negated }
                    }
                    RegFile::R64 => {
                        Fast::Selp64 { d: d64(dst)?, a: r64(a)?, b: r64(b)?, p, negated: c.negated }
                    }
                    RegFile::Pred => return None,
                }
            }
            Op::Ld { mem, dsts: [Some(dst), ..], n: 1, addr: Src::Reg(addr), offset, size, .. }
                if matches!(mem, Mem::Global | Mem::Shared | Mem::Generic) =>
            {
                let d = match size {
                    4 => d32(dst)?,
                    8 => d64(dst)?,
                    _ => return None,
                };
                let (addr, wide_addr) = match addr.file {
                    RegFile::R64 => (d64(addr)?, true),
                    RegFile::R32 => (d32(addr)?, false),
                    RegFile::Pred => return None,
                };
                Fast::Ld { mem, size, d, addr, wide_addr, offset: i32::try_from(offset).ok()? }
            }
            Op::St { mem, srcs: [src, ..], n: 1, addr: Src::Reg(addr), offset, size }
                if matches!(mem, Mem::Global | Mem::Shared | Mem::Generic) =>
            {
                let (addr, wide_addr) = match addr.file {
                    RegFile::R64 => (d64(addr)?, true),
                    RegFile::R32 => (d32(addr)?, false),
                    RegFile::Pred => return None,
                };
                Fast::St {
                    mem,
                    size,
                    src: either(src, size)?,
                    addr,
                    wide_addr,
                    offset: i32::try_from(offset).ok()?,
                }
            }
            Op::Bra { target, .. } => Fast::Bra { target },
            Op::LdParam { dsts: [Some(dst), ..], n: 1, offset, size, signed } => match dst.file {
                RegFile::R32 if size <= 4 => Fast::Param { wide: false, d: d32(dst)?, offset, size, signed },
                RegFile::R64 => Fast::Param { wide: true, d: d64(dst)?, offset, size, signed },
                _ => return None,
            },
            Op::MovSpecial { dst, sreg } => Fast::Sreg { d: d32(dst)?, sreg },
            // Converting to or from the global window changes nothing.
            Op::Cvta { dst, src, window: 0, .. } if dst.file == RegFile::R64 => {
                Fast::Mov64 { d: d64(dst)?, a: r64(src)? }
            }
            Op::Cvt { kind: CvtKind::IntInt { dst: to, src: from, sat: false }, dst, src }
                if to.bits == 32 && from.bits == 64 =>
            {
                Fast::Trunc { d: d32(dst)?, a: r64(src)? }
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hot_instruction_stays_small() {
        // The hot loop reads one of these per warp instruction; keep it in half a
        // cache line, as wasmi keeps its op at 24 bytes.
        assert_eq!(std::mem::size_of::<FastInst>(), 32);
    }
}
