//! `wmma.load`, `wmma.store` and `wmma.mma` (PTX ISA 9.7.14.4) beyond their table
//! rows: the layouts, the combination of shape, fragment and element types, and
//! each fragment operand's registers ([`crate::isa::wmma`] holds the data, as ptxas
//! 13.5 decides it: tests/ptxas_operand_matrix.rs).

use super::scope::{Def, Sym};
use super::types::Ty;
use super::{Checker, I};
use crate::isa::wmma::{WmmaElem, WmmaFrag, WmmaUse, fragment, mma_fits, register_fits, shape};
use crate::isa::{Form, Word};
use crate::syntax::ast::Operand;

impl<'a> Checker<'a> {
    pub(super) fn wmma(&mut self, i: &I<'a>, name: &str, f: &Form) {
        // The operation comes first (ptxas: `wmma.global.load.a`: "Unknown modifier
        // '.load'").
        if let Some(first) = i.mods.first()
            && !matches!(self.t(*first), ".load" | ".store" | ".mma")
        {
            self.error(
                first.span,
                format!("{name}: .load, .store or .mma comes first, not `{}`", self.t(*first)),
            );
        }
        let Some(shape) = shape(f) else { return };
        let layouts = i.mods.iter().filter(|m| matches!(self.t(*m), ".row" | ".col")).count();
        let elems: Vec<WmmaElem> = i.mods.iter().filter_map(|m| WmmaElem::parse(self.t(*m))).collect();
        let (m, n, k) = shape;
        let shape_word = format!(".m{m}n{n}k{k}");
        let n_ops = i.operands.len();
        if f.has(Word::Mma) {
            if layouts != 2 {
                self.error(
                    i.opcode.span,
                    format!("{name}: needs two layouts, of A and of B (.row or .col each)"),
                );
            }
            let [d, a, b, c] = match elems[..] {
                [d, c] => [d, WmmaElem::F16, WmmaElem::F16, c],
                [d, a, b, c] => [d, a, b, c],
                _ => return,
            };
            let frags = [
                fragment(WmmaUse::Acc, shape, d),
                fragment(WmmaUse::A, shape, a),
                fragment(WmmaUse::B, shape, b),
                fragment(WmmaUse::Acc, shape, c),
            ];
            let (Some(fd), Some(fa), Some(fb), Some(fc)) = (frags[0], frags[1], frags[2], frags[3]) else {
                self.error(i.opcode.span, format!("{name}: no such element types in shape {shape_word}"));
                return;
            };
            if !mma_fits(f, [d, a, b, c]) {
                self.error(
                    i.opcode.span,
                    format!(
                        "{name}: not a wmma.mma of the ISA's list (types, .satfinite for integers, a rounding for .f64, .and/.xor.popc for .b1)"
                    ),
                );
                return;
            }
            if n_ops != 4 {
                self.error(i.span, format!("{name}: expects 4 operands (d, a, b, c), found {n_ops}"));
                return;
            }
            for (k, (frag, what)) in [(fd, "d"), (fa, "a"), (fb, "b"), (fc, "c")].into_iter().enumerate() {
                self.fragment_operand(&i.operands[k], &frag, name, what);
            }
            return;
        }
        if layouts != 1 {
            self.error(i.opcode.span, format!("{name}: needs one layout, .row or .col"));
        }
        let load = f.has(Word::Load);
        let role = match f.pick(&[(Word::A, WmmaUse::A), (Word::B, WmmaUse::B)]) {
            Some(r) if load => r,
            _ => WmmaUse::Acc,
        };
        let &[elem] = &elems[..] else { return };
        let Some(frag) = fragment(role, shape, elem) else {
            self.error(i.opcode.span, format!("{name}: no such fragment in shape {shape_word}"));
            return;
        };
        // Sub-byte A is row-major and B column-major only ("Illegal alayout '.col'").
        let col = f.has(Word::Col);
        if elem.bits() < 8 && ((role == WmmaUse::A && col) || (role == WmmaUse::B && !col)) {
            let want = if role == WmmaUse::A { ".row" } else { ".col" };
            self.error(i.opcode.span, format!("{name}: a sub-byte fragment of this matrix is {want} only"));
        }
        if !(2..=3).contains(&n_ops) {
            self.error(i.span, format!("{name}: expects 2 or 3 operands, found {n_ops}"));
            return;
        }
        let (data, addr) = if load { (0, 1) } else { (1, 0) };
        let what = if load { "destination" } else { "source" };
        self.fragment_operand(&i.operands[data], &frag, name, what);
        if !matches!(i.operands[addr], Operand::Addr(_)) {
            self.error(i.operands[addr].span(), format!("{name}: the address must be in brackets, `[p]`"));
        }
        if let Some(stride) = i.operands.get(2) {
            self.typed_operand(stride, Ty::U32, name, "stride", true);
        }
    }

    /// A fragment: a vector of exactly its registers, each of a type that holds its
    /// elements (or a sink).
    fn fragment_operand(&mut self, op: &Operand, frag: &WmmaFrag, name: &str, what: &str) {
        let Operand::Vector(items, span) = op else {
            self.error(op.span(), format!("{name}: {what} must be a vector of {} registers", frag.regs));
            return;
        };
        if items.len() != usize::from(frag.regs) {
            self.error(
                *span,
                format!("{name}: {what} is a fragment of {} registers, found {}", frag.regs, items.len()),
            );
            return;
        }
        for item in items {
            match item {
                Operand::Sink(_) => {}
                Operand::Name(r) => {
                    if let Some(Def { sym: Sym::Reg { ty, .. }, .. }) = self.lookup(self.t(r))
                        && !register_fits(frag.elem, ty)
                    {
                        let msg = format!(
                            "{name}: {what} `{}` is a {} register, which holds no {:?} fragment element",
                            self.t(r),
                            ty.word(),
                            frag.elem
                        );
                        self.error(r.span, msg);
                    }
                }
                other => {
                    self.error(other.span(), format!("{name}: each element of {what} must be a register"));
                }
            }
        }
    }
}
