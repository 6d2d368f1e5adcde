//! Decoding `tensormap.replace` and `tensormap.cp_fenceproxy` (PTX ISA 9.7.9.26,
//! 9.7.9.27), with which grouped and pointer-array GEMMs edit a tensor map on the
//! device. `check` has held the words and operands to the table's rows
//! (`isa::table`, `isa::operands`).

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::isa::{Form, Word};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    /// `tensormap.replace.tile.FIELD{.global,.shared::cta}.b1024.{b32,b64} [addr],
    /// {ord,} value` and `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic
    /// .release.SCOPE.sync.aligned [dst], [src], 128`.
    pub(super) fn tensormap(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let name = i.full_name(self.src);
        let ops = i.operands;
        let bad = |what: &str| fail::<Op>(i.span, format!("{name}: {what}"));
        if f.has(Word::CpFenceproxy) {
            let (Some(Operand::Addr(d)), Some(Operand::Addr(s))) = (ops.first(), ops.get(1)) else {
                return bad("expected [dst], [src], 128");
            };
            let (d, s) = (self.place(d, Some(Space::Global))?, self.place(s, Some(Space::Shared))?);
            return Ok(Op::TensormapCopy { dst: (d.mem, d.addr, d.offset), src: (s.mem, s.addr, s.offset) });
        }
        let space = if f.has(Word::Global) {
            Some(Space::Global)
        } else if f.has(Word::SharedCta) {
            Some(Space::Shared)
        } else {
            None
        };
        let ty = f.ty().unwrap_or(Ty::B32);
        let (addr, ord, value) = match ops {
            [Operand::Addr(a), v] => (a, 0, v),
            [Operand::Addr(a), Operand::Int { bits, .. }, v] if *bits < 5 => (a, *bits as u8, v),
            _ => return bad("expected [addr], value, or [addr], ord, value with ord 0 to 4"),
        };
        let Some(field) = crate::isa::operands::map_field(f, ord) else {
            return bad("expected a tensor-map field (.global_address, .rank, .box_dim, ...)");
        };
        // `.global_stride` with ordinal 4 is refused: a map holds four strides
        // (dimension 0's is the element size), though ptxas 13.5 takes the ordinal.
        if field == MapField::GlobalStride(4) {
            return bad("a tensor map has global strides 0 to 3 (dimension 0 is packed)");
        }
        let value = self.src(value, ty)?;
        let p = self.place(addr, space)?;
        let stride_unit = if self.ptx_version >= (8, 5) { 1 } else { 16 };
        let r = TensormapReplace { field, mem: p.mem, addr: p.addr, offset: p.offset, value, stride_unit };
        Ok(Op::TensormapReplace(Box::new(r)))
    }
}
