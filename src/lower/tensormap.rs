//! Decoding `tensormap.replace` and `tensormap.cp_fenceproxy` (PTX ISA 9.7.9.26,
//! 9.7.9.27), with which grouped and pointer-array GEMMs edit a tensor map on the
//! device. `check` holds `tensormap` to an open row: the words are read here.

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    /// `tensormap.replace.tile.FIELD{.global,.shared::cta}.b1024.{b32,b64} [addr],
    /// {ord,} value` and `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic
    /// .release.SCOPE.sync.aligned [dst], [src], 128`.
    pub(super) fn tensormap(&mut self, i: &InstrView<'m>) -> Result<Op, LowerError> {
        let name = i.full_name(self.src);
        let words: Vec<&str> = name.split('.').skip(1).collect();
        let ops = i.operands;
        let bad = |what: &str| fail::<Op>(i.span, format!("{name}: {what}"));
        match words.first() {
            Some(&"cp_fenceproxy") => {
                let (Some(Operand::Addr(d)), Some(Operand::Addr(s)), Some(Operand::Int { bits: 128, .. })) =
                    (ops.first(), ops.get(1), ops.get(2))
                else {
                    return bad("expected [dst], [src], 128");
                };
                if words.get(1) != Some(&"global") || words.get(2) != Some(&"shared::cta") {
                    return bad("copies from .shared::cta to .global");
                }
                let (d, s) = (self.place(d, Some(Space::Global))?, self.place(s, Some(Space::Shared))?);
                Ok(Op::TensormapCopy { dst: (d.mem, d.addr, d.offset), src: (s.mem, s.addr, s.offset) })
            }
            Some(&"replace") if words.get(1) == Some(&"tile") => {
                let field = words.get(2).copied().unwrap_or("");
                let mut rest = &words[3.min(words.len())..];
                let space = match rest.first() {
                    Some(&"global") => Some(Space::Global),
                    Some(&"shared::cta") => Some(Space::Shared),
                    _ => None,
                };
                if space.is_some() {
                    rest = &rest[1..];
                }
                let ty = match rest {
                    ["b1024", "b64"] => Ty::B64,
                    ["b1024", "b32"] => Ty::B32,
                    _ => return bad("expected .b1024 and the value's type"),
                };
                let ordinal = matches!(field, "box_dim" | "global_dim" | "global_stride" | "element_stride");
                let (addr, ord, value) = match (ordinal, ops) {
                    (false, [Operand::Addr(a), v]) => (a, 0, v),
                    (true, [Operand::Addr(a), Operand::Int { bits, .. }, v]) if *bits < 5 => {
                        (a, *bits as u8, v)
                    }
                    _ => return bad("expected [addr], value, or [addr], ord, value with ord 0 to 4"),
                };
                let field = match field {
                    "global_address" => MapField::GlobalAddress,
                    "rank" => MapField::Rank,
                    "box_dim" => MapField::BoxDim(ord),
                    "global_dim" => MapField::GlobalDim(ord),
                    "global_stride" if ord < 4 => MapField::GlobalStride(ord),
                    "element_stride" => MapField::ElementStride(ord),
                    "elemtype" => MapField::ElemType,
                    "interleave_layout" => MapField::InterleaveLayout,
                    "swizzle_mode" => MapField::SwizzleMode,
                    "swizzle_atomicity" => MapField::SwizzleAtomicity,
                    "fill_mode" => MapField::FillMode,
                    _ => return bad("not a field of a tiled tensor map"),
                };
                let wide = matches!(field, MapField::GlobalAddress | MapField::GlobalStride(_));
                if wide != (ty == Ty::B64) {
                    return bad(if wide {
                        "this field takes a .b64 value"
                    } else {
                        "this field takes a .b32 value"
                    });
                }
                let value = self.src(value, ty)?;
                let p = self.place(addr, space)?;
                let stride_unit = if self.ptx_version >= (8, 5) { 1 } else { 16 };
                let r = TensormapReplace {
                    field,
                    mem: p.mem,
                    addr: p.addr,
                    offset: p.offset,
                    value,
                    stride_unit,
                };
                Ok(Op::TensormapReplace(Box::new(r)))
            }
            _ => self.unsupported(i),
        }
    }
}
