//! Decoding `wmma.load`, `wmma.mma` and `wmma.store` (PTX ISA 9.7.14.4).
//!
//! `check` holds `wmma` to an open row (operand count and gates), so this file is
//! where its words are read: the shape, the fragment (`.a`, `.b`, `.c`, `.d`), the
//! layout and the element types, each combination against the ISA's list, and the
//! number of registers of each fragment against "Matrix Fragments for WMMA"
//! (9.7.14.4.1). A combination outside the list is an error before the launch.

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::isa::{Form, Word as W, groups};
use crate::syntax::ast::*;
use WmmaElem as E;

/// `(m, n, k)` of the `.shape` word.
fn shape(f: &Form) -> Option<(u8, u8, u8)> {
    f.pick(&[
        (W::M16n16k16, (16, 16, 16)),
        (W::M32n8k16, (32, 8, 16)),
        (W::M8n32k16, (8, 32, 16)),
        (W::M16n16k8, (16, 16, 8)),
        (W::M8n8k4, (8, 8, 4)),
        (W::M8n8k32, (8, 8, 32)),
        (W::M8n8k128, (8, 8, 128)),
    ])
}

/// The element a type word names.
fn elem(word: &str) -> Option<WmmaElem> {
    Some(match word {
        ".f16" => E::F16,
        ".bf16" => E::Bf16,
        ".tf32" => E::Tf32,
        ".f32" => E::F32,
        ".s32" => E::S32,
        ".s8" => E::S8,
        ".u8" => E::U8,
        ".f64" => E::F64,
        ".s4" => E::S4,
        ".u4" => E::U4,
        ".b1" => E::B1,
        _ => return None,
    })
}

/// The fragment of `role` for `shape` holding `elem`, if the ISA lists the
/// combination: f16, s8 and u8 multiplicands in the three 16-row shapes, bf16 too
/// (sm_80), tf32 in m16n16k8, f64 in m8n8k4, s4 and u4 in m8n8k32, b1 in m8n8k128; f16,
/// f32 and s32 accumulators where they go with those.
fn fragment(role: WmmaUse, (m, n, k): (u8, u8, u8), elem: WmmaElem) -> Option<WmmaFrag> {
    let k16 = k == 16;
    let ab = role != WmmaUse::Acc;
    let fits = match elem {
        E::F16 => k16,
        E::Bf16 | E::S8 | E::U8 => ab && k16,
        E::Tf32 => ab && k == 8,
        E::F64 => k == 4,
        E::S4 | E::U4 => ab && k == 32,
        E::B1 => ab && k == 128,
        E::F32 => !ab && (k16 || k == 8),
        E::S32 => !ab && (k16 || k == 32 || k == 128),
    };
    if !fits {
        return None;
    }
    let (rows, cols) = match role {
        WmmaUse::A => (m, k),
        WmmaUse::B => (k, n),
        WmmaUse::Acc => (m, n),
    };
    let bits = elem.bits();
    let regs = if elem == WmmaElem::F16 && role != WmmaUse::Acc {
        // f16 multiplicands take eight .f16x2 registers in every shape (9.7.14.4.1).
        8
    } else {
        let reg_bits = if elem == WmmaElem::F64 { 64 } else { 32 };
        (usize::from(rows) * usize::from(cols) * bits / 32 / reg_bits) as u8
    };
    Some(WmmaFrag { role, rows, cols, elem, regs })
}

impl WmmaElem {
    /// Bits of one element.
    pub fn bits(self) -> usize {
        match self {
            WmmaElem::B1 => 1,
            WmmaElem::S4 | WmmaElem::U4 => 4,
            WmmaElem::S8 | WmmaElem::U8 => 8,
            WmmaElem::F16 | WmmaElem::Bf16 => 16,
            WmmaElem::Tf32 | WmmaElem::F32 | WmmaElem::S32 => 32,
            WmmaElem::F64 => 64,
        }
    }
}

impl<'m> Decoder<'m> {
    pub(super) fn wmma_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let name = i.full_name(self.src);
        let tys: Vec<WmmaElem> = i.mods.iter().filter_map(|m| elem(self.t(*m))).collect();
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
        let (x, y) = (fa.elem, fb.elem);
        let ints = |e: WmmaElem| matches!(e, E::S8 | E::U8);
        let nibbles = |e: WmmaElem| matches!(e, E::S4 | E::U4);
        let fits = match x {
            E::F16 => y == x && matches!(fd.elem, E::F16 | E::F32),
            E::Bf16 | E::Tf32 => y == x && fd.elem == E::F32 && fc.elem == E::F32,
            E::S8 | E::U8 => ints(y) && fd.elem == E::S32 && fc.elem == E::S32,
            E::S4 | E::U4 => nibbles(y) && fd.elem == E::S32 && fc.elem == E::S32,
            E::B1 => y == x && fd.elem == E::S32 && fc.elem == E::S32,
            E::F64 => y == x && fd.elem == x && fc.elem == x,
            _ => false,
        };
        let satfinite = f.has(W::Satfinite);
        let rnd = f.pick(groups::RND);
        let popc = f.pick(&[(W::And, true), (W::Xor, false)]);
        let bad_popc = if x == E::B1 { popc.is_none() || !f.has(W::Popc) } else { popc.is_some() };
        if !fits || bad_popc || (satfinite && !(ints(x) || nibbles(x))) || (rnd.is_some() && x != E::F64) {
            return self.unsupported(i);
        }
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
