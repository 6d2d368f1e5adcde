//! Instruction forms beyond the core set of `decode_ops.rs`: bit manipulation,
//! extended-precision (carry) arithmetic, floating-point sign, min/max, division and
//! square root in every rounding mode, memory fences and the warp-wide `shfl.sync`
//! and `redux.sync`. Each decodes into one [`Op`]; anything else stays a clear
//! "cannot run this instruction yet".

use super::decode::Decoder;
pub use super::ops::*;
use super::program::fail;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::bits::PrmtMode;
use crate::sem::float::{FOp, MinMax};
use crate::sem::int::{Part, Width};
use crate::sem::warp::{ReduxOp, ShflMode};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
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

    pub(super) fn more(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        let ty = f.ty();
        let ops = i.operands;
        let opcode = f.opcode;
        let signed = ty.is_some_and(|t| t.class() == Class::Signed);
        let width = Width(ty.map_or(32, Ty::bits));
        match (opcode, ty) {
            (O::Membar | O::Fence, _) => Ok(Op::Fence),
            (O::Shfl, _) if has(W::Sync) => {
                let Some(mode) = f.pick(&[
                    (W::Up, ShflMode::Up),
                    (W::Down, ShflMode::Down),
                    (W::Bfly, ShflMode::Bfly),
                    (W::Idx, ShflMode::Idx),
                ]) else {
                    return self.unsupported(i);
                };
                let (dst, p) = self.dst_and_pred(&ops[0])?;
                Ok(Op::Shfl {
                    mode,
                    dst,
                    p,
                    a: self.src(&ops[1], Ty::B32)?,
                    b: self.src(&ops[2], Ty::B32)?,
                    c: self.src(&ops[3], Ty::B32)?,
                    members: self.src(&ops[4], Ty::B32)?,
                })
            }
            (O::Match, Some(ty @ (Ty::B32 | Ty::B64))) if has(W::Sync) && (has(W::Any) || has(W::All)) => {
                let (dst, p) = self.dst_and_pred(&ops[0])?;
                Ok(Op::Match {
                    all: has(W::All),
                    dst,
                    p,
                    a: self.src(&ops[1], ty)?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
            (O::Redux, Some(ty)) if has(W::Sync) && ty.bits() == 32 && !ty.is_float() => {
                let Some(op) = f.pick(&[
                    (W::Add, ReduxOp::Add),
                    (W::Min, ReduxOp::Min),
                    (W::Max, ReduxOp::Max),
                    (W::And, ReduxOp::And),
                    (W::Or, ReduxOp::Or),
                    (W::Xor, ReduxOp::Xor),
                ]) else {
                    return self.unsupported(i);
                };
                Ok(Op::Redux {
                    op,
                    signed,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
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
            (O::Copysign, Some(ty @ (Ty::F32 | Ty::F64))) => self.bits(BitOp::Copysign, width, ops, &[ty; 2]),
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
            (O::Abs | O::Neg, Some(ty @ (Ty::F32 | Ty::F64))) => {
                let op = if opcode == O::Abs { FUnary::Abs } else { FUnary::Neg };
                self.funary(op, ty, Rnd::Rn, f, ops)
            }
            (O::Sqrt | O::Rcp, Some(ty @ (Ty::F32 | Ty::F64))) if !has(W::Approx) => {
                let Some(r) = f.pick(groups::RND) else { return self.unsupported(i) };
                let op = if opcode == O::Sqrt { FUnary::Sqrt } else { FUnary::Rcp };
                self.funary(op, ty, r, f, ops)
            }
            (O::Div, Some(ty @ (Ty::F32 | Ty::F64))) => {
                // `div.approx` and `div.full` are approximations the ISA does not pin down.
                let Some(r) = f.pick(groups::RND) else { return self.unsupported(i) };
                Ok(Op::Float {
                    op: FOp::Div,
                    f64: ty == Ty::F64,
                    rnd: r,
                    ftz: has(W::Ftz),
                    sat: false,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                })
            }
            (
                O::Add | O::Sub | O::Mul | O::Fma | O::Neg | O::Abs | O::Min | O::Max,
                Some(ty @ (Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)),
            ) if matches!(f.pick(groups::RND), None | Some(Rnd::Rn)) && !has(W::Relu) => {
                let op = match opcode {
                    O::Add => HalfOp::Bin(FOp::Add),
                    O::Sub => HalfOp::Bin(FOp::Sub),
                    O::Mul => HalfOp::Bin(FOp::Mul),
                    O::Fma => HalfOp::Fma,
                    O::Neg => HalfOp::Neg,
                    O::Abs => HalfOp::Abs,
                    _ => HalfOp::MinMax(MinMax {
                        max: opcode == O::Max,
                        nan: has(W::NaN),
                        xorsign_abs: has(W::Xorsign),
                    }),
                };
                let bf = matches!(ty, Ty::BF16 | Ty::BF16x2);
                let x2 = matches!(ty, Ty::F16x2 | Ty::BF16x2);
                let src = |k: usize| match ops.get(k) {
                    Some(o) => self.src(o, ty),
                    None => Ok(Src::Imm(0)),
                };
                Ok(Op::Half {
                    op,
                    fmt: if bf { crate::sem::round::BF16 } else { crate::sem::round::F16 },
                    x2,
                    ftz: has(W::Ftz),
                    sat: has(W::Sat),
                    dst: self.dst(&ops[0])?,
                    a: src(1)?,
                    b: src(2)?,
                    c: src(3)?,
                })
            }
            (O::Min | O::Max, Some(ty @ (Ty::F32 | Ty::F64))) if ops.len() == 3 => Ok(Op::FMinMax {
                m: MinMax { max: opcode == O::Max, nan: has(W::NaN), xorsign_abs: has(W::Xorsign) },
                f64: ty == Ty::F64,
                ftz: has(W::Ftz),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
            }),
            _ => self.unsupported(i),
        }
    }

    /// A [`BitOp`] with sources of the types `tys` (the rest are 0).
    fn bits(&self, op: BitOp, width: Width, ops: &[Operand], tys: &[Ty]) -> Result<Op, LowerError> {
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

    fn funary(&self, op: FUnary, ty: Ty, rnd: Rnd, f: &Form, ops: &[Operand]) -> Result<Op, LowerError> {
        Ok(Op::FUnary {
            op,
            f64: ty == Ty::F64,
            rnd,
            ftz: f.has(W::Ftz),
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
        })
    }
}
