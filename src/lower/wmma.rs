//! Decoding `wmma.load`, `wmma.mma` and `wmma.store` (PTX ISA 9.7.14.4).
//!
//! `check` has held each instruction to the table's rows and to the combinations and
//! fragments of [`crate::isa::wmma`]; this file builds the fragments from the same
//! functions.

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::isa::wmma::{fragment, mma_fits, shape};
use crate::isa::{Form, Word as W, groups};
use crate::syntax::ast::*;
use WmmaElem as E;

impl<'m> Decoder<'m> {
    pub(super) fn wmma_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let name = i.full_name(self.src);
        let tys: Vec<WmmaElem> = i.mods.iter().filter_map(|m| WmmaElem::parse(self.t(*m))).collect();
        let Some(shape) = shape(f) else { return self.unsupported(i) };
        let ops = i.operands;
        let bad = |what: &str| fail::<Op>(i.span, format!("{name}: {what}"));
        let regs = |o: Option<&'m Operand>, frag: &WmmaFrag| -> Result<&'m Vec<Operand>, LowerError> {
            match o {
                Some(Operand::Vector(items, _)) if items.len() == usize::from(frag.regs) => Ok(items),
                Some(o) => {
                    fail(o.span(), format!("{name}: this fragment is a vector of {} registers", frag.regs))
                }
                None => fail(i.span, format!("{name}: a fragment operand is missing")),
            }
        };
        let reg_ty = |frag: &WmmaFrag| if frag.elem == E::F64 { Ty::B64 } else { Ty::B32 };
        if f.has(W::Load) || f.has(W::Store) {
            let role = match f.pick(&[(W::A, WmmaUse::A), (W::B, WmmaUse::B), (W::C, WmmaUse::Acc)]) {
                Some(r) if f.has(W::Load) => r,
                _ if f.has(W::Store) && f.has(W::D) => WmmaUse::Acc,
                _ => return self.unsupported(i),
            };
            let (Some(col), [ty]) = (f.pick(&[(W::Row, false), (W::Col, true)]), tys.as_slice()) else {
                return self.unsupported(i);
            };
            let Some(frag) = fragment(role, shape, *ty) else { return self.unsupported(i) };
            // Sub-byte A is row-major and B column-major only.
            let sub_byte = frag.elem.bits() < 8;
            if sub_byte && ((role == WmmaUse::A && col) || (role == WmmaUse::B && !col)) {
                return self.unsupported(i);
            }
            let space = f.pick(groups::SPACE);
            if !matches!(space, None | Some(Space::Global | Space::Shared)) {
                return bad("wmma accesses only .global and .shared memory, or generic addresses");
            }
            let (vector, addr) =
                if f.has(W::Load) { (ops.first(), ops.get(1)) } else { (ops.get(1), ops.first()) };
            let Some(Operand::Addr(a)) = addr else { return bad("expected an address `[p]`") };
            let p = self.place(a, space)?;
            let stride = ops.get(2).map(|s| self.src(s, Ty::U32)).transpose()?;
            let at = WmmaPlace { mem: p.mem, addr: p.addr, offset: p.offset, stride };
            let items = regs(vector, &frag)?;
            let w = if f.has(W::Load) {
                let dst = items.iter().map(|o| self.dst(o)).collect::<Result<Vec<_>, _>>()?;
                Wmma::Load { frag, col, at, dst }
            } else {
                let src = items.iter().map(|o| self.src(o, reg_ty(&frag))).collect::<Result<Vec<_>, _>>()?;
                Wmma::Store { frag, col, at, src }
            };
            return Ok(Op::Wmma(Box::new(w)));
        }
        if !f.has(W::Mma) {
            return self.unsupported(i);
        }
        // D, A, B, C; f16 multiplicands are implied when only D and C are named.
        let (d, a, b, c) = match tys.as_slice() {
            [d, c] => (*d, E::F16, E::F16, *c),
            [d, a, b, c] => (*d, *a, *b, *c),
            _ => return self.unsupported(i),
        };
        let frags = [
            fragment(WmmaUse::Acc, shape, d),
            fragment(WmmaUse::A, shape, a),
            fragment(WmmaUse::B, shape, b),
            fragment(WmmaUse::Acc, shape, c),
        ];
        let [Some(fd), Some(fa), Some(fb), Some(fc)] = frags else { return self.unsupported(i) };
        if !mma_fits(f, [d, a, b, c]) {
            return self.unsupported(i);
        }
        let satfinite = f.has(W::Satfinite);
        let rnd = f.pick(groups::RND);
        let popc = f.pick(&[(W::And, true), (W::Xor, false)]);
        let (dv, av, bv, cv) =
            (regs(ops.first(), &fd)?, regs(ops.get(1), &fa)?, regs(ops.get(2), &fb)?, regs(ops.get(3), &fc)?);
        let srcs = |items: &Vec<Operand>, frag: &WmmaFrag| {
            items.iter().map(|o| self.src(o, reg_ty(frag))).collect::<Result<Vec<_>, _>>()
        };
        let w = Wmma::Mma {
            frags: [fd, fa, fb, fc],
            satfinite,
            rnd: rnd.unwrap_or_default(),
            and: popc == Some(true),
            d: dv.iter().map(|o| self.dst(o)).collect::<Result<Vec<_>, _>>()?,
            a: srcs(av, &fa)?,
            b: srcs(bv, &fb)?,
            c: srcs(cv, &fc)?,
        };
        Ok(Op::Wmma(Box::new(w)))
    }
}
