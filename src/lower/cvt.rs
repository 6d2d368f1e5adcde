//! Decoding `cvt` between integer and floating-point types, with rounding, saturation and
//! flushing (PTX ISA 9.7.9.21).

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Word as W, groups};
use crate::sem::cvt::{IntRound, IntTy};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn cvt(&self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        let &[dty, sty] = f.types() else { return self.unsupported(i) };
        let int = |t: Ty| {
            (!t.is_float() && t != Ty::Pred && t.bits() >= 8)
                .then(|| IntTy { bits: t.bits(), signed: t.class() == Class::Signed })
        };
        let round = f.pick(groups::IRND);
        let float = |t: Ty| match t {
            Ty::F16 => Some(crate::sem::round::F16),
            Ty::BF16 => Some(crate::sem::round::BF16),
            Ty::F32 => Some(crate::sem::round::F32),
            Ty::F64 => Some(crate::sem::round::F64),
            _ => None,
        };
        let (ftz, sat, frnd) = (has(W::Ftz), has(W::Sat), f.pick(groups::RND));
        let (relu, satfinite) = (has(W::Relu), has(W::Satfinite));
        // `.f16x2`/`.bf16x2` from two f32 sources: `a` into the upper half.
        if let (Ty::F16x2 | Ty::BF16x2, Ty::F32, Some(rnd), [d, a, b]) = (dty, sty, frnd, i.operands) {
            let fmt = if dty == Ty::F16x2 { crate::sem::round::F16 } else { crate::sem::round::BF16 };
            return Ok(Op::CvtPack {
                fmt,
                rnd,
                relu,
                satfinite,
                dst: self.dst(d)?,
                a: self.src(a, Ty::F32)?,
                b: self.src(b, Ty::F32)?,
            });
        }
        let narrows_to_half = matches!(dty, Ty::F16 | Ty::BF16) && sty == Ty::F32;
        if (relu || satfinite) && !narrows_to_half {
            return self.unsupported(i);
        }
        let kind = match (int(dty), int(sty), float(dty), float(sty)) {
            (Some(d), Some(s), ..) if round.is_none() && frnd.is_none() => {
                CvtKind::IntInt { dst: d, src: s, sat }
            }
            (Some(d), _, _, Some(s)) if frnd.is_none() => match round {
                Some(r) => CvtKind::FloatInt { dst: d, src: s, round: r, ftz },
                None => return self.unsupported(i),
            },
            (_, Some(s), Some(d), _) if round.is_none() && !sat => {
                CvtKind::IntFloat { dst: d, src: s, rnd: frnd.unwrap_or_default() }
            }
            (_, _, Some(d), Some(s)) if round.is_some() && frnd.is_none() && d == s => {
                CvtKind::RoundInt { fmt: d, round: round.unwrap_or(IntRound::Nearest), ftz, sat }
            }
            (_, _, Some(d), Some(s)) if round.is_none() => CvtKind::FloatFloat {
                dst: d,
                src: s,
                rnd: frnd.unwrap_or_default(),
                ftz,
                sat,
                relu,
                satfinite,
            },
            _ => return self.unsupported(i),
        };
        Ok(Op::Cvt { kind, dst: self.dst(&i.operands[0])?, src: self.src(&i.operands[1], sty)? })
    }
}
