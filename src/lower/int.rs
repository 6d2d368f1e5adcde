//! Decoding integer arithmetic, extended-precision (carry) arithmetic and bit
//! manipulation (PTX ISA 9.7.1, 9.7.2, 9.7.8).

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W};
use crate::sem::bits::PrmtMode;
use crate::sem::int::{LaneOp, Part, Width};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn int_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        let signed = ty.is_some_and(|t| t.class() == Class::Signed);
        let width = Width(ty.map_or(32, Ty::bits));
        match (opcode, ty) {
            (O::Mul | O::Mad, Some(ty)) if !ty.is_float() && !has(W::Sat) && !has(W::Cc) => {
                let part = if has(W::Hi) {
                    Part::Hi
                } else if has(W::Wide) {
                    Part::Wide
                } else {
                    Part::Lo
                };
                let signed = ty.class() == Class::Signed;
                let (dst, a, b) = (self.dst(&ops[0])?, self.src(&ops[1], ty)?, self.src(&ops[2], ty)?);
                if opcode == O::Mul {
                    Ok(Op::Mul { part, width: Width(ty.bits()), signed, dst, a, b })
                } else {
                    let c_ty = if part == Part::Wide { Ty::B64 } else { ty };
                    Ok(Op::Mad {
                        part,
                        width: Width(ty.bits()),
                        signed,
                        dst,
                        a,
                        b,
                        c: self.src(&ops[3], c_ty)?,
                    })
                }
            }
            (O::Add | O::Min | O::Max, Some(ty @ (Ty::U16x2 | Ty::S16x2 | Ty::S32)))
                if matches!(ty, Ty::U16x2 | Ty::S16x2) || has(W::Relu) =>
            {
                let op = match opcode {
                    O::Add => LaneOp::Add,
                    O::Min => LaneOp::Min,
                    _ => LaneOp::Max,
                };
                Ok(Op::Lanes {
                    op,
                    lane: Width(if ty == Ty::S32 { 32 } else { 16 }),
                    signed,
                    relu: has(W::Relu),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                })
            }
            (
                O::Add
                | O::Sub
                | O::Min
                | O::Max
                | O::And
                | O::Or
                | O::Xor
                | O::Shl
                | O::Shr
                | O::Div
                | O::Rem,
                Some(ty),
            ) if !ty.is_float() && ty != Ty::Pred && !has(W::Sat) && !has(W::Cc) => {
                let op = match opcode {
                    O::Add => IntOp::Add,
                    O::Sub => IntOp::Sub,
                    O::Min => IntOp::Min,
                    O::Max => IntOp::Max,
                    O::And => IntOp::And,
                    O::Or => IntOp::Or,
                    O::Xor => IntOp::Xor,
                    O::Shl => IntOp::Shl,
                    O::Shr => IntOp::Shr,
                    O::Div => IntOp::Div,
                    _ => IntOp::Rem,
                };
                let b_ty = if matches!(op, IntOp::Shl | IntOp::Shr) { Ty::U32 } else { ty };
                Ok(Op::Int {
                    op,
                    width: Width(ty.bits()),
                    signed: ty.class() == Class::Signed,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], b_ty)?,
                })
            }
            (O::Neg | O::Abs, Some(ty)) if ty.class() == Class::Signed => Ok(Op::NegAbs {
                abs: opcode == O::Abs,
                width: Width(ty.bits()),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
            }),
            (O::Not, Some(ty)) if ty != Ty::Pred => {
                Ok(Op::Not { width: Width(ty.bits()), dst: self.dst(&ops[0])?, a: self.src(&ops[1], ty)? })
            }
            (O::Cnot, Some(ty)) if matches!(ty.bits(), 16 | 32 | 64) => Ok(Op::Bits1 {
                op: BitOp1::Cnot,
                width: Width(ty.bits()),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
            }),
            (O::Popc | O::Clz | O::Brev | O::Bfind, Some(ty)) if matches!(ty.bits(), 32 | 64) => {
                let op = match opcode {
                    O::Popc => BitOp1::Popc,
                    O::Clz => BitOp1::Clz,
                    O::Brev => BitOp1::Brev,
                    _ => BitOp1::Bfind { signed, shiftamt: has(W::Shiftamt) },
                };
                Ok(Op::Bits1 { op, width, dst: self.dst(&ops[0])?, a: self.src(&ops[1], ty)? })
            }
            (O::Bfe, Some(ty)) if matches!(ty.bits(), 32 | 64) => {
                self.bits(BitOp::Bfe { signed }, width, ops, &[ty, Ty::U32, Ty::U32])
            }
            (O::Bfi, Some(ty)) if matches!(ty.bits(), 32 | 64) => {
                self.bits(BitOp::Bfi, width, ops, &[ty, ty, Ty::U32, Ty::U32])
            }
            (O::Prmt, Some(Ty::B32)) => {
                let mode = f
                    .pick(&[
                        (W::F4e, PrmtMode::F4e),
                        (W::B4e, PrmtMode::B4e),
                        (W::Rc8, PrmtMode::Rc8),
                        (W::Ecl, PrmtMode::Ecl),
                        (W::Ecr, PrmtMode::Ecr),
                        (W::Rc16, PrmtMode::Rc16),
                    ])
                    .unwrap_or(PrmtMode::Generic);
                self.bits(BitOp::Prmt(mode), width, ops, &[Ty::B32; 3])
            }
            (O::Shf, Some(Ty::B32)) if has(W::L) || has(W::R) => {
                let op = BitOp::Shf { left: has(W::L), clamp: has(W::Clamp) };
                self.bits(op, width, ops, &[Ty::B32, Ty::B32, Ty::U32])
            }
            (O::Sad, Some(ty)) if !ty.is_float() => self.bits(BitOp::Sad { signed }, width, ops, &[ty; 3]),
            (O::Mul24 | O::Mad24, Some(ty @ (Ty::U32 | Ty::S32))) if !has(W::Sat) => {
                let mad = opcode == O::Mad24;
                let op = BitOp::Mul24 { hi: has(W::Hi), signed, mad };
                let tys = [ty; 3];
                self.bits(op, width, ops, &tys[..if mad { 3 } else { 2 }])
            }
            (O::Dp4a | O::Dp2a, Some(_)) => {
                let signed = |t: Ty| t.class() == Class::Signed;
                let (a_signed, b_signed) = match f.types() {
                    [a, b] => (signed(*a), signed(*b)),
                    _ => return self.unsupported(i),
                };
                let op = if opcode == O::Dp4a {
                    BitOp::Dp4a { a_signed, b_signed }
                } else {
                    BitOp::Dp2a { hi: has(W::Hi), a_signed, b_signed }
                };
                self.bits(op, Width(32), ops, &[Ty::B32; 3])
            }
            (O::Bmsk, Some(Ty::B32)) => {
                self.bits(BitOp::Bmsk { wrap: has(W::Wrap) }, width, ops, &[Ty::U32; 2])
            }
            (O::Szext, Some(ty @ (Ty::U32 | Ty::S32))) => {
                let op = BitOp::Szext { wrap: has(W::Wrap), signed: ty == Ty::S32 };
                self.bits(op, width, ops, &[ty, Ty::U32])
            }
            // The predicate-writing form (`lop3.or.b32 d|p, ...`) is not run yet.
            (O::Lop3, Some(Ty::B32)) if ops.len() == 5 => self.bits(BitOp::Lop3, width, ops, &[Ty::B32; 4]),
            (O::Fns, Some(Ty::B32)) => self.bits(BitOp::Fns, width, ops, &[Ty::B32, Ty::B32, Ty::S32]),
            (O::Mad, Some(Ty::S32)) if has(W::Sat) && has(W::Hi) => {
                self.bits(BitOp::MadHiSatS32, width, ops, &[Ty::S32; 3])
            }
            (O::Add | O::Sub, Some(Ty::S32)) if has(W::Sat) => {
                self.bits(BitOp::SatS32 { subtract: opcode == O::Sub }, width, ops, &[Ty::S32; 2])
            }
            (O::Add | O::Sub | O::Addc | O::Subc, Some(ty))
                if !ty.is_float()
                    && matches!(ty.bits(), 32 | 64)
                    && (has(W::Cc) || matches!(opcode, O::Addc | O::Subc)) =>
            {
                let op = if matches!(opcode, O::Add | O::Addc) { CarryOp::Add } else { CarryOp::Sub };
                self.carry(op, ty, matches!(opcode, O::Addc | O::Subc), has(W::Cc), i, false)
            }
            (O::Mad | O::Madc, Some(ty))
                if !ty.is_float()
                    && matches!(ty.bits(), 32 | 64)
                    && !has(W::Wide)
                    && !has(W::Sat)
                    && (has(W::Cc) || opcode == O::Madc) =>
            {
                let part = if has(W::Hi) { Part::Hi } else { Part::Lo };
                self.carry(CarryOp::Mad { part, signed }, ty, opcode == O::Madc, has(W::Cc), i, true)
            }
            _ => self.unsupported(i),
        }
    }

    /// The predicate row of the carry flag, allocated on first use.
    fn carry_row(&mut self, span: crate::syntax::Span) -> Result<u32, LowerError> {
        if let Some(row) = self.carry {
            return Ok(row);
        }
        // A name no PTX register can have: the row is reached only through `carry`.
        let Some(slot) = self.regs.declare("%carry flag", Ty::Pred, None) else {
            return fail(span, "no register row for the carry flag");
        };
        self.carry = Some(slot.index);
        Ok(slot.index)
    }

    /// A [`BitOp`] with sources of the types `tys` (the rest are 0).
    pub(super) fn bits(
        &self,
        op: BitOp,
        width: Width,
        ops: &[Operand],
        tys: &[Ty],
    ) -> Result<Op, LowerError> {
        let mut srcs = [Src::Imm(0); 4];
        for (k, ty) in tys.iter().enumerate() {
            let Some(o) = ops.get(k + 1) else { return fail(ops[0].span(), "missing operand") };
            srcs[k] = self.src(o, *ty)?;
        }
        Ok(Op::Bits { op, width, dst: self.dst(&ops[0])?, srcs })
    }

    fn carry(
        &mut self,
        op: CarryOp,
        ty: Ty,
        cin: bool,
        cout: bool,
        i: &InstrView<'m>,
        three: bool,
    ) -> Result<Op, LowerError> {
        let ops = i.operands;
        Ok(Op::Carry {
            op,
            width: Width(ty.bits()),
            cin,
            cout,
            cc: self.carry_row(i.span)?,
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
            c: if three { self.src(&ops[3], ty)? } else { Src::Imm(0) },
        })
    }
}
