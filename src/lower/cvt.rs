//! Decoding `cvt` between integer and floating-point types, with rounding, saturation and
//! flushing (PTX ISA 9.7.9.21).

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Word as W, groups};
use crate::sem::cvt::{Fp8, IntRound, IntTy};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn cvt(&self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        if has(W::Pack) {
            let (Some(&t), n) = (f.types().first(), i.operands.len()) else { return self.unsupported(i) };
            let op = BitOp::CvtPack { bits: t.bits() as u8, signed: t.class() == Class::Signed };
            let tys = [Ty::S32, Ty::S32, Ty::B32];
            let width = crate::sem::int::Width(32);
            return self.bits(op, width, i.operands, &tys[..n.saturating_sub(1).min(3)]);
        }
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
        // Packing two f32 (`a` into the upper half), and the fp8 pairs.
        let fp8 = |t: Ty| match t {
            Ty::E4m3x2 => Some(Fp8::E4m3),
            Ty::E5m2x2 => Some(Fp8::E5m2),
            _ => None,
        };
        let pack = match (dty, sty, fp8(dty), fp8(sty)) {
            (Ty::F16x2, Ty::F32, ..) => Some((PackKind::Halves(crate::sem::round::F16), Ty::F32)),
            (Ty::BF16x2, Ty::F32, ..) => Some((PackKind::Halves(crate::sem::round::BF16), Ty::F32)),
            (_, Ty::F32, Some(f), _) => Some((PackKind::Fp8FromF32(f), Ty::F32)),
            (_, Ty::F16x2, Some(f), _) => Some((PackKind::Fp8FromF16x2(f), Ty::B32)),
            (Ty::F16x2, _, _, Some(f)) => Some((PackKind::F16x2FromFp8(f), Ty::B16)),
            _ => None,
        };
        if let (Some((kind, src_ty)), Some(rnd)) = (pack, frnd) {
            let ops = i.operands;
            let b = match ops.get(2) {
                Some(b) => self.src(b, src_ty)?,
                None => Src::Imm(0),
            };
            return Ok(Op::CvtPack {
                kind,
                rnd,
                relu,
                satfinite,
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], src_ty)?,
                b,
            });
        }
        if (dty, sty) == (Ty::TF32, Ty::F32) {
            let away = has(W::Rna);
            if relu || ftz || sat || !(away || matches!(frnd, Some(Rnd::Rn | Rnd::Rz))) {
                return self.unsupported(i);
            }
            let kind = CvtKind::Tf32 { rnd: frnd.unwrap_or_default(), away, satfinite };
            return Ok(Op::Cvt { kind, dst: self.dst(&i.operands[0])?, src: self.src(&i.operands[1], sty)? });
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
