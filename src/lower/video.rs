//! Decoding the video instructions that run: the scalar `vadd`, `vsub`, `vabsdiff`,
//! `vmin`, `vmax`, `vshl`, `vshr`, `vset` (PTX ISA 9.7.18.1) and the SIMD `vadd2` ...
//! `vset4` (9.7.18.2), and `vmad` (9.7.18.1.3). Their operands may carry selectors (`%r2.b0`, `%r3.h32`,
//! `%r1.b20`), which the parser keeps as a component of the register.

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::int::Width;
use crate::sem::video::{Mad, Scalar, SecOp, Sel, Simd, SimdOp, Video, VideoOp};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn video_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        if let Some((op, width)) = simd_op(f) {
            return self.video_simd(i, f, op, width);
        }
        if f.opcode == O::Vmad {
            return self.video_mad(i, f);
        }
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
        let spec = Video::Scalar(spec);
        Ok(Op::Video { spec, dst: self.dst(&od)?, a: self.src(&oa, Ty::B32)?, b: self.src(&ob, Ty::B32)?, c })
    }

    /// `vmad d, {-}a{.asel}, {-}b{.bsel}, {-}c` (9.7.18.1.3); `check` has made sure
    /// that the product (`a` xor `b`) and `c` are not both negated, and that `.po`
    /// negates nothing.
    fn video_mad(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let [Some(od), Some(oa), Some(ob), Some(oc)] = [0, 1, 2, 3].map(|k| i.operands.get(k)) else {
            return self.unsupported(i);
        };
        let [_, a_ty, b_ty] = *f.types() else {
            return self.unsupported(i);
        };
        // A source: whether it is negated, the register and its selector.
        let source = |o: &Operand| -> Result<(bool, Operand, Sel), LowerError> {
            let (neg, o) = match o {
                Operand::Neg(inner, _) => (true, &**inner),
                o => (false, o),
            };
            match o {
                Operand::Component(name, sel) => match Sel::parse(sel.text(self.src)) {
                    Some(s) => Ok((neg, Operand::Name(Name { span: name.span }), s)),
                    None => self.unsupported(i),
                },
                o => Ok((neg, o.clone(), Sel::Word)),
            }
        };
        let ((na, oa, asel), (nb, ob, bsel), (nc, oc, _)) = (source(oa)?, source(ob)?, source(oc)?);
        let signed = |t: Ty| t.class() == Class::Signed;
        let spec = Video::Mad(Mad {
            a_signed: signed(a_ty),
            b_signed: signed(b_ty),
            asel,
            bsel,
            neg_product: na != nb,
            neg_c: nc,
            po: f.has(W::Po),
            sat: f.has(W::Sat),
            shift: f.pick(&[(W::Shr7, 7), (W::Shr15, 15)]).unwrap_or(0),
        });
        let (dst, a, b, c) =
            (self.dst(od)?, self.src(&oa, Ty::B32)?, self.src(&ob, Ty::B32)?, self.src(&oc, Ty::B32)?);
        Ok(Op::Video { spec, dst, a, b, c })
    }

    /// `vop2`/`vop4 d{.mask}, a{.asel}, b{.bsel}, c` (9.7.18.2).
    fn video_simd(
        &mut self,
        i: &InstrView<'m>,
        f: &Form,
        op: SimdOp,
        width: Width,
    ) -> Result<Op, LowerError> {
        let op = match op {
            SimdOp::Set(_) => match f.pick(groups::CMP) {
                Some(c) => SimdOp::Set(c),
                None => return self.unsupported(i),
            },
            op => op,
        };
        // vset2/vset4 have no destination type: their result is unsigned.
        let (d, a, b) = match *f.types() {
            [d, a, b] => (d, a, b),
            [a, b] if matches!(op, SimdOp::Set(_)) => (Ty::U32, a, b),
            _ => return self.unsupported(i),
        };
        let [Some(od), Some(oa), Some(ob), Some(oc)] = [0, 1, 2, 3].map(|k| i.operands.get(k)) else {
            return self.unsupported(i);
        };
        let n = (32 / width.0) as u8;
        let identity = [0, 1, 2, 3];
        let split = |o: &Operand, default: [u8; 4], mask: bool| -> Option<(Operand, [u8; 4], u8)> {
            let Operand::Component(name, sel) = o else {
                return Some((o.clone(), default, (1 << n) - 1));
            };
            // `.h10`, `.b7654`: one digit per element, the highest element first; a
            // mask (`.b20`) names the elements it keeps.
            let digits = sel.text(self.src).strip_prefix(if n == 2 { ".h" } else { ".b" })?.as_bytes();
            let mut picks = default;
            let mut bits = 0u8;
            for (k, c) in digits.iter().rev().enumerate() {
                let v = c.checked_sub(b'0').filter(|&v| v < 2 * n)?;
                if mask {
                    bits |= 1u8.checked_shl(u32::from(v)).filter(|_| v < n)?;
                } else {
                    *picks.get_mut(k)? = v;
                }
            }
            if !mask && digits.len() != usize::from(n) {
                return None;
            }
            Some((Operand::Name(Name { span: name.span }), picks, bits))
        };
        let (Some((od, _, mask)), Some((oa, asel, _)), Some((ob, bsel, _))) = (
            split(od, identity, true),
            split(oa, identity, false),
            split(ob, identity.map(|k| k + n), false),
        ) else {
            return self.unsupported(i);
        };
        let signed = |t: Ty| t.class() == Class::Signed;
        let spec = Video::Simd(Simd {
            op,
            width,
            d_signed: signed(d),
            a_signed: signed(a),
            b_signed: signed(b),
            sat: f.has(W::Sat),
            add: f.has(W::Add),
            asel,
            bsel,
            mask,
        });
        let (dst, a, b) = (self.dst(&od)?, self.src(&oa, Ty::B32)?, self.src(&ob, Ty::B32)?);
        Ok(Op::Video { spec, dst, a, b, c: self.src(oc, Ty::B32)? })
    }
}

/// The SIMD video opcodes: their operation and element width.
fn simd_op(f: &Form) -> Option<(SimdOp, Width)> {
    let set = SimdOp::Set(crate::sem::cmp::CmpOp::Eq);
    Some(match f.opcode {
        O::Vadd2 => (SimdOp::Add, Width(16)),
        O::Vsub2 => (SimdOp::Sub, Width(16)),
        O::Vavrg2 => (SimdOp::Avrg, Width(16)),
        O::Vabsdiff2 => (SimdOp::Absdiff, Width(16)),
        O::Vmin2 => (SimdOp::Min, Width(16)),
        O::Vmax2 => (SimdOp::Max, Width(16)),
        O::Vset2 => (set, Width(16)),
        O::Vadd4 => (SimdOp::Add, Width(8)),
        O::Vsub4 => (SimdOp::Sub, Width(8)),
        O::Vavrg4 => (SimdOp::Avrg, Width(8)),
        O::Vabsdiff4 => (SimdOp::Absdiff, Width(8)),
        O::Vmin4 => (SimdOp::Min, Width(8)),
        O::Vmax4 => (SimdOp::Max, Width(8)),
        O::Vset4 => (set, Width(8)),
        _ => return None,
    })
}
