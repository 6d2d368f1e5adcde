//! Decoding f32 and f64 arithmetic in every rounding mode: `add`, `sub`, `mul`, `fma`,
//! `mad`, `div`, `sqrt`, `rcp`, `abs`, `neg`, `min`, `max` and `copysign` (PTX ISA
//! 9.7.3).

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::approx::ApproxFn;
use crate::sem::float::{FClass, FOp, MinMax};
use crate::sem::int::Width;
use crate::sem::round::Rnd;
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn float_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        let _signed = ty.is_some_and(|t| t.class() == Class::Signed);
        let width = Width(ty.map_or(32, Ty::bits));
        let _vector = has(W::V2) || has(W::V4);
        match (opcode, ty) {
            (O::Add | O::Sub, Some(Ty::F32 | Ty::F64)) => {
                let op = if opcode == O::Add { FOp::Add } else { FOp::Sub };
                self.float(op, ty.unwrap_or(Ty::F32), f, ops)
            }
            (O::Mul, Some(ty @ (Ty::F32 | Ty::F64))) => self.float(FOp::Mul, ty, f, ops),
            (O::Fma | O::Mad, Some(ty @ (Ty::F32 | Ty::F64)))
                if opcode == O::Fma || f.pick(groups::RND).is_some() =>
            {
                Ok(Op::Fma {
                    f64: ty == Ty::F64,
                    rnd: f.pick(groups::RND).unwrap_or_default(),
                    ftz: has(W::Ftz),
                    sat: has(W::Sat),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                    c: self.src(&ops[3], ty)?,
                })
            }
            (O::Testp, Some(ty @ (Ty::F32 | Ty::F64))) => {
                let Some(class) = f.pick(&[
                    (W::Finite, FClass::Finite),
                    (W::Infinite, FClass::Infinite),
                    (W::Number, FClass::Number),
                    (W::Notanumber, FClass::NotANumber),
                    (W::Normal, FClass::Normal),
                    (W::Subnormal, FClass::Subnormal),
                ]) else {
                    return self.unsupported(i);
                };
                Ok(Op::Testp {
                    class,
                    f64: ty == Ty::F64,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                })
            }
            (O::Copysign, Some(ty @ (Ty::F32 | Ty::F64))) => self.bits(BitOp::Copysign, width, ops, &[ty; 2]),
            (O::Abs | O::Neg, Some(ty @ (Ty::F32 | Ty::F64))) => {
                let op = if opcode == O::Abs { FUnary::Abs } else { FUnary::Neg };
                self.funary(op, ty, Rnd::Rn, f, ops)
            }
            (O::Ex2 | O::Lg2 | O::Sin | O::Cos | O::Tanh | O::Rcp | O::Rsqrt | O::Sqrt, Some(Ty::F32))
                if has(W::Approx) =>
            {
                let func = match opcode {
                    O::Ex2 => ApproxFn::Ex2,
                    O::Lg2 => ApproxFn::Lg2,
                    O::Sin => ApproxFn::Sin,
                    O::Cos => ApproxFn::Cos,
                    O::Tanh => ApproxFn::Tanh,
                    O::Rcp => ApproxFn::Rcp,
                    O::Rsqrt => ApproxFn::Rsqrt,
                    _ => ApproxFn::Sqrt,
                };
                self.funary(FUnary::Approx(func), Ty::F32, Rnd::Rn, f, ops)
            }
            // `rcp.approx.ftz.f64` and `rsqrt.approx{.ftz}.f64`.
            (O::Rcp | O::Rsqrt, Some(Ty::F64)) if has(W::Approx) => {
                let func = if opcode == O::Rcp { ApproxFn::Rcp } else { ApproxFn::Rsqrt };
                self.funary(FUnary::Approx(func), Ty::F64, Rnd::Rn, f, ops)
            }
            (O::Div, Some(Ty::F32)) if has(W::Approx) || has(W::Full) => Ok(Op::DivApprox {
                full: has(W::Full),
                ftz: has(W::Ftz),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], Ty::F32)?,
                b: self.src(&ops[2], Ty::F32)?,
            }),
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

    fn float(&self, op: FOp, ty: Ty, f: &Form, ops: &[Operand]) -> Result<Op, LowerError> {
        Ok(Op::Float {
            op,
            f64: ty == Ty::F64,
            rnd: f.pick(groups::RND).unwrap_or_default(),
            ftz: f.has(W::Ftz),
            sat: f.has(W::Sat),
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
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
