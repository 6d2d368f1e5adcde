//! Operands of `mma`, `ldmatrix`/`stmatrix` and `wgmma.mma_async` (PTX ISA 9.7.14,
//! 9.7.15) as ptxas 13.5 judges them (tests/ptxas_operand_matrix.rs): the number of
//! type words, each fragment's number of registers, the words `mma` never takes,
//! and `wgmma`'s descriptors and `scale-d` predicate. The rows of `isa::table` give
//! the words; the semantics of the forms `run` executes are `lower`'s.

use super::scope::{Def, Sym};
use super::types::Ty;
use super::{Checker, I};
use crate::isa::{Form, Word, WordSet};
use crate::syntax::ast::Operand;

/// Bits of an `mma`/`wgmma` element type word (`.s4`, `.b1` and the fp8 types
/// included), or `None` for a word that is no element type.
fn element_bits(word: &str) -> Option<u32> {
    Some(match word {
        ".b1" => 1,
        ".s4" | ".u4" | ".e2m1" => 4,
        ".e3m2" | ".e2m3" => 6,
        ".s8" | ".u8" | ".e4m3" | ".e5m2" => 8,
        ".f16" | ".bf16" => 16,
        ".f32" | ".tf32" | ".s32" => 32,
        ".f64" => 64,
        _ => return None,
    })
}

/// `(m, n, k)` of a shape word `.mMnNkK`.
fn shape_of(word: &str) -> Option<(u32, u32, u32)> {
    let rest = word.strip_prefix(".m")?;
    let (m, rest) = rest.split_once('n')?;
    let (n, k) = rest.split_once('k')?;
    Some((m.parse().ok()?, n.parse().ok()?, k.parse().ok()?))
}

impl<'a> Checker<'a> {
    /// `mma{.sp}.sync.aligned.shape.row.col{...}.D.A.B.C d, a, b, c{, e, f}`.
    pub(super) fn mma(&mut self, i: &I<'a>, name: &str, f: &Form) {
        // The words of mma's row are its vocabulary: ptxas refuses any other known
        // word ("Illegal modifier '.sat' for instruction 'mma'").
        let vocabulary =
            crate::isa::table::rows_of(f.opcode).iter().fold(WordSet::EMPTY, |a, r| a.union(r.words));
        for m in i.mods {
            // The words ptxas takes on any instruction and ignores (`.normal`) pass.
            if let Some(w) = Word::parse(self.t(*m))
                && !vocabulary.contains(w)
                && !super::form::ignored_by_ptxas(self.t(*m))
            {
                self.error(m.span, format!("{name}: mma takes no `{}`", self.t(*m)));
            }
        }
        // "'.blayout' modifier required": the layouts of A and B.
        let layouts = i.mods.iter().filter(|m| matches!(self.t(**m), ".row" | ".col")).count();
        if layouts != 2 {
            self.error(
                i.opcode.span,
                format!("{name}: needs two layouts, of A and of B (.row or .col each)"),
            );
        }
        let elems: Vec<u32> = i.mods.iter().filter_map(|m| element_bits(self.t(*m))).collect();
        if elems.len() != 4 {
            self.error(
                i.opcode.span,
                format!("{name}: needs four element types, of D, A, B and C; found {}", elems.len()),
            );
            return;
        }
        // The fragments of the dense forms, one register of 32 bits (64 for f64)
        // holding 32 / bits elements: M*K of A, K*N of B, M*N of C and D over the
        // warp's 32 lanes. m8n8k4 with halves works in quad-pairs and sparse A holds
        // half of K: their own rules (lower) count those.
        let Some((m, n, k)) = i.mods.iter().find_map(|w| shape_of(self.t(*w))) else { return };
        if f.has(Word::Sp) || f.has(Word::SpOrdered) || (m, n, k) == (8, 8, 4) && elems[1] != 64 {
            return;
        }
        let reg = |bits: u32| if bits == 64 { 64 } else { 32 };
        let count = |rows: u32, cols: u32, bits: u32| rows * cols * bits / (32 * reg(bits));
        let [d, a, b, c] = [elems[0], elems[1], elems[2], elems[3]];
        let want = [count(m, n, d), count(m, k, a), count(k, n, b), count(m, n, c)];
        for (op, (want, what)) in i.operands.iter().zip(want.into_iter().zip(["d", "a", "b", "c"])) {
            self.vector_length(op, want as usize, name, what);
        }
    }

    /// `ldmatrix`/`stmatrix` `.m8n8.xN.b16`: N registers.
    pub(super) fn matrix_transfer(&mut self, i: &I<'a>, name: &str, f: &Form) {
        if !f.has(Word::M8n8) {
            return;
        }
        let Some(count) = f.pick(&[(Word::X1, 1), (Word::X2, 2), (Word::X4, 4)]) else { return };
        let k = if f.opcode == crate::isa::Opcode::Ldmatrix { 0 } else { 1 };
        if let Some(op) = i.operands.get(k) {
            self.vector_length(op, count, name, if k == 0 { "destination" } else { "source" });
        }
    }

    /// `wgmma.mma_async.sync.aligned.m64nNkK.D.A.B d, a-desc|{a}, b-desc, scale-d,
    /// ...`: three element types (with `.b1` and `.satfinite` forms), D of N/2
    /// registers (N/4 for f16 accumulators), 64-bit descriptors and a predicate
    /// `scale-d` (ptxas 13.5: "Arguments mismatch" for any other register).
    pub(super) fn wgmma(&mut self, i: &I<'a>, name: &str, f: &Form) {
        if !f.has(Word::MmaAsync) {
            return;
        }
        let elems: Vec<u32> = i.mods.iter().filter_map(|m| element_bits(self.t(*m))).collect();
        if elems.len() != 3 {
            let msg = format!("{name}: needs three element types, of D, A and B; found {}", elems.len());
            self.error(i.opcode.span, msg);
            return;
        }
        let Some((_, n, _)) = i.mods.iter().find_map(|w| shape_of(self.t(*w))) else {
            self.error(i.opcode.span, format!("{name}: needs a shape .m64nNkK"));
            return;
        };
        let count = if elems[0] == 16 { n / 4 } else { n / 2 };
        if let Some(d) = i.operands.first() {
            self.vector_length(d, count as usize, name, "d");
        }
        let sparse = f.has(Word::Sp);
        // a-desc (unless A is in registers) and b-desc, then scale-d.
        let scale_d = if sparse { 5 } else { 3 };
        for (k, what) in [(1, "a-desc"), (2, "b-desc")] {
            if let Some(Operand::Name(r)) = i.operands.get(k)
                && let Some(Def { sym: Sym::Reg { ty, .. }, .. }) = self.lookup(self.t(r))
                && !matches!(ty, Ty::B64 | Ty::U64 | Ty::S64)
            {
                let msg = format!(
                    "{name}: {what} `{}` is a {} register; a descriptor is 64-bit",
                    self.t(r),
                    ty.word()
                );
                self.error(r.span, msg);
            }
        }
        if let Some(Operand::Name(r)) = i.operands.get(scale_d)
            && let Some(Def { sym: Sym::Reg { ty, .. }, .. }) = self.lookup(self.t(r))
            && ty != Ty::Pred
        {
            let msg = format!("{name}: scale-d `{}` is a {} register, not a predicate", self.t(r), ty.word());
            self.error(r.span, msg);
        }
    }

    /// A vector operand of exactly `want` elements.
    fn vector_length(&mut self, op: &Operand, want: usize, name: &str, what: &str) {
        match op {
            Operand::Vector(items, span) if items.len() != want => {
                let msg = format!("{name}: {what} is a vector of {want} registers, found {}", items.len());
                self.error(*span, msg);
            }
            Operand::Vector(..) => {}
            other => self.error(other.span(), format!("{name}: {what} must be a vector of {want} registers")),
        }
    }
}
