//! Decoding the scalar video instructions that run: `vadd`, `vsub`, `vabsdiff`, `vmin`,
//! `vmax`, `vshl`, `vshr`, `vset` (PTX ISA 9.7.18.1). Their operands may carry byte or half
//! selectors (`%r2.b0`), which the parser keeps as a component of the register.

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::video::{Scalar, SecOp, Sel, VideoOp};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn video_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        let clamp = has(W::Clamp);
        let op = match f.opcode {
            O::Vadd => VideoOp::Add,
            O::Vsub => VideoOp::Sub,
            O::Vabsdiff => VideoOp::Absdiff,
            O::Vmin => VideoOp::Min,
            O::Vmax => VideoOp::Max,
            O::Vshl => VideoOp::Shl { clamp },
            O::Vshr => VideoOp::Shr { clamp },
            O::Vset => match f.pick(groups::CMP) {
                Some(c) => VideoOp::Set(c),
                None => return self.unsupported(i),
            },
            _ => return self.unsupported(i),
        };
        // vset has no destination type: its result is unsigned.
        let (d, a, b) = match *f.types() {
            [d, a, b] => (d, a, b),
            [a, b] if f.opcode == O::Vset => (Ty::U32, a, b),
            _ => return self.unsupported(i),
        };
        let signed = |t: Ty| t.class() == Class::Signed;
        let secop = f.pick(&[(W::Add, SecOp::Add), (W::Min, SecOp::Min), (W::Max, SecOp::Max)]);
        let ops = i.operands;
        // An operand and its selector.
        let part = |o: &Operand| -> Result<(Operand, Sel), LowerError> {
            match o {
                Operand::Component(name, sel) => match Sel::parse(sel.text(self.src)) {
                    Some(s) => Ok((Operand::Name(Name { span: name.span }), s)),
                    None => self.unsupported(i),
                },
                other => Ok((other.clone(), Sel::Word)),
            }
        };
        let (Some(od), Some(oa), Some(ob)) = (ops.first(), ops.get(1), ops.get(2)) else {
            return self.unsupported(i);
        };
        let ((od, dsel), (oa, asel), (ob, bsel)) = (part(od)?, part(oa)?, part(ob)?);
        let spec = Scalar {
            op,
            d_signed: signed(d),
            a_signed: signed(a),
            b_signed: signed(b),
            sat: has(W::Sat),
            secop,
            asel,
            bsel,
            dsel,
        };
        let c = match ops.get(3) {
            Some(o) => self.src(o, Ty::B32)?,
            None => Src::Imm(0),
        };
        Ok(Op::Video { spec, dst: self.dst(&od)?, a: self.src(&oa, Ty::B32)?, b: self.src(&ob, Ty::B32)?, c })
    }
}
