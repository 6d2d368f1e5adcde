//! Decoding the seed core: `setp`, `set`, `selp`, `slct` and predicate logic (PTX ISA
//! 9.7.6, 9.7.7.2, 9.3.2).

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::int::Width;
use crate::syntax::ast::*;

/// The bits `set` writes for true into a `dty` destination from `sty` sources (ISA
/// 9.7.6.1, 9.7.7.2): 1.0 for a float type, all ones for an integer one, per half for
/// the packed sources.
fn set_one(dty: Ty, sty: Ty) -> u64 {
    let half = matches!(sty, Ty::F16x2 | Ty::BF16x2);
    match dty {
        Ty::F32 => 0x3f80_0000,
        Ty::F16 | Ty::F16x2 => 0x3c00,
        Ty::BF16 | Ty::BF16x2 => 0x3f80,
        t if half => 0xffff & Width(t.bits()).mask(),
        t => Width(t.bits()).mask(),
    }
}

/// How values of `ty` compare.
fn cmp_kind(ty: Ty, ftz: bool) -> CmpKind {
    match ty {
        Ty::F32 => CmpKind::F32 { ftz },
        Ty::F64 => CmpKind::F64,
        Ty::F16 => CmpKind::F16 { ftz },
        Ty::BF16 => CmpKind::BF16,
        Ty::F16x2 => CmpKind::F16x2 { ftz },
        Ty::BF16x2 => CmpKind::BF16x2,
        t => CmpKind::Int { width: Width(t.bits()), signed: t.class() == Class::Signed },
    }
}

impl<'m> Decoder<'m> {
    pub(super) fn cmp_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        match (opcode, ty) {
            (O::Setp, Some(ty)) => {
                let Some(op) = f.pick(groups::CMP) else {
                    return self.unsupported(i);
                };
                let (p, q) = match &ops[0] {
                    Operand::Name(n) => (Some(self.pred_row(*n)?), None),
                    Operand::Pair(a, b) => {
                        let side = |o: &Operand| match o {
                            Operand::Name(n) => self.pred_row(*n).map(Some),
                            _ => Ok(None),
                        };
                        (side(a)?, side(b)?)
                    }
                    _ => (None, None),
                };
                let combine = match f.pick(groups::BOOL) {
                    Some(b) => Some((b, self.pred(&ops[3])?)),
                    None => None,
                };
                let kind = cmp_kind(ty, has(W::Ftz));
                Ok(Op::Setp { kind, op, p, q, a: self.src(&ops[1], ty)?, b: self.src(&ops[2], ty)?, combine })
            }
            (O::And | O::Or | O::Xor | O::Not | O::Mov, Some(Ty::Pred)) => {
                let op = match opcode {
                    O::And => PredOp::And,
                    O::Or => PredOp::Or,
                    O::Xor => PredOp::Xor,
                    O::Not => PredOp::Not,
                    _ => PredOp::Mov,
                };
                let Operand::Name(d) = &ops[0] else { return self.unsupported(i) };
                let a = self.pred_src(&ops[1])?;
                let b = match ops.get(2) {
                    Some(o) => self.pred_src(o)?,
                    None => PredSrc::Const(false),
                };
                Ok(Op::PredLogic { op, dst: self.pred_row(*d)?, a, b })
            }
            (O::Set, _) => {
                let &[dty, sty] = f.types() else { return self.unsupported(i) };
                // Half sources set halves (1.0 or 0.0) or all-ones integers, per half
                // for the packed forms (PTX ISA 9.7.4.4).
                let ok = match sty {
                    Ty::F16 | Ty::BF16 => {
                        matches!(dty, Ty::F16 | Ty::BF16 | Ty::U16 | Ty::S16 | Ty::U32 | Ty::S32)
                    }
                    Ty::F16x2 | Ty::BF16x2 => matches!(dty, Ty::F16x2 | Ty::BF16x2 | Ty::U32 | Ty::S32),
                    _ => matches!(dty, Ty::U32 | Ty::S32 | Ty::F32),
                };
                if !ok {
                    return self.unsupported(i);
                }
                let Some(op) = f.pick(groups::CMP) else {
                    return self.unsupported(i);
                };
                let combine = match f.pick(groups::BOOL) {
                    Some(b) => Some((b, self.pred(&ops[3])?)),
                    None => None,
                };
                Ok(Op::Set {
                    kind: cmp_kind(sty, has(W::Ftz)),
                    op,
                    one: set_one(dty, sty),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], sty)?,
                    b: self.src(&ops[2], sty)?,
                    combine,
                })
            }
            (O::Slct, _) => {
                let &[dty, cty] = f.types() else { return self.unsupported(i) };
                Ok(Op::Slct {
                    f32: cty == Ty::F32,
                    ftz: has(W::Ftz),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], dty)?,
                    b: self.src(&ops[2], dty)?,
                    c: self.src(&ops[3], cty)?,
                })
            }
            (O::Selp, Some(ty)) => Ok(Op::Selp {
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
                c: self.pred(&ops[3])?,
            }),
            _ => self.unsupported(i),
        }
    }
}
