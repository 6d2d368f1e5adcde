//! Decoding half-precision arithmetic: `.f16`, `.bf16` and their pairs (PTX ISA 9.7.4).

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::Ty;
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::approx::ApproxFn;
use crate::sem::float::{FOp, MinMax};
use crate::sem::round::Rnd;
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn half_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        match (opcode, ty) {
            (
                O::Add | O::Sub | O::Mul | O::Fma | O::Neg | O::Abs | O::Min | O::Max | O::Ex2 | O::Tanh,
                Some(ty @ (Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)),
            ) if matches!(f.pick(groups::RND), None | Some(Rnd::Rn))
                && (!has(W::Relu) || opcode == O::Fma) =>
            {
                let op = match opcode {
                    O::Ex2 => HalfOp::Approx(ApproxFn::Ex2),
                    O::Tanh => HalfOp::Approx(ApproxFn::Tanh),
                    O::Add => HalfOp::Bin(FOp::Add),
                    O::Sub => HalfOp::Bin(FOp::Sub),
                    O::Mul => HalfOp::Bin(FOp::Mul),
                    O::Fma if has(W::Relu) => HalfOp::FmaRelu,
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
            _ => self.unsupported(i),
        }
    }
}
