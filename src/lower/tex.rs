//! Decoding the texture and surface instructions (PTX ISA 9.7.10): `tex`, `tld4` and
//! `txq` through texture objects, `suld.b`, `sust.b`, `sured.b` and `suq` through
//! surface objects. `exec/texture.rs` runs them.
//!
//! Objects are 64-bit handles in registers (unified mode, what nvcc emits for
//! `cudaTextureObject_t`); `.texref` and `.surfref` variables are texture
//! references, which CUDA 12 removed, and are refused with the reason.

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::isa::{Form, Opcode as O, Word as W};
use crate::sem::atom::AtomOp;
use crate::syntax::ast::*;

const GEOMETRIES: [(W, Geometry); 7] = [
    (W::D1, Geometry::D1),
    (W::D2, Geometry::D2),
    (W::D3, Geometry::D3),
    (W::A1d, Geometry::A1D),
    (W::A2d, Geometry::A2D),
    (W::Cube, Geometry::Cube),
    (W::Acube, Geometry::ACube),
];

impl<'m> Decoder<'m> {
    pub(super) fn tex_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        match f.opcode {
            O::Tex | O::Tld4 => self.tex_fetch(i, f),
            O::Txq | O::Suq => self.image_query(i, f),
            O::Suld | O::Sust | O::Sured => self.surface(i, f),
            _ => self.unsupported(i),
        }
    }

    /// The handle of `[image, ...]`: a 64-bit register.
    fn image_handle(&self, n: Name) -> Result<Src, LowerError> {
        match self.src(&Operand::Name(n), Ty::U64) {
            Ok(Src::Reg(s)) => Ok(Src::Reg(s)),
            _ => fail(
                n.span,
                format!(
                    "`{}`: texture and surface references (.texref, .surfref) are not supported: CUDA 12 removed \
                     them; use texture and surface objects",
                    self.t(n)
                ),
            ),
        }
    }

    /// The elements of a `{...}` operand.
    fn items<'a>(&self, op: &'a Operand) -> Result<&'a [Operand], LowerError> {
        match op {
            Operand::Vector(items, _) => Ok(items),
            other => fail(other.span(), "expected a vector `{...}`"),
        }
    }

    fn tex_fetch(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        let Some(geometry) = f.pick(&GEOMETRIES) else { return self.unsupported(i) };
        let tys = f.types();
        let (Some(&dty), Some(&cty)) = (tys.first(), tys.get(1)) else { return self.unsupported(i) };
        if !matches!(dty, Ty::F32 | Ty::S32 | Ty::U32) {
            return fail(
                i.span,
                format!("{}: ptxvm cannot run half-precision texture results yet", i.full_name(self.src)),
            );
        }
        let gather = if f.opcode == O::Tld4 {
            Some(f.pick(&[(W::R, 0u8), (W::G, 1), (W::B, 2), (W::A, 3)]).unwrap_or(0))
        } else {
            None
        };
        let (Some(d), Some(Operand::Image(a))) = (ops.first(), ops.get(1)) else {
            return self.unsupported(i);
        };
        let (d, pred) = match d {
            Operand::Pair(d, p) => (
                &**d,
                match &**p {
                    Operand::Name(n) => Some(self.pred_row(*n)?),
                    _ => None,
                },
            ),
            d => (d, None),
        };
        let mut dsts = [None; 4];
        for (k, item) in self.items(d)?.iter().enumerate().take(4) {
            dsts[k] = self.dst_or_sink(item)?;
        }
        if a.sampler.is_some() {
            return fail(a.span, "independent texture mode (a separate sampler) is not supported");
        }
        let handle = self.image_handle(a.image)?;
        let coords = self.items(&a.coords)?;
        let (layer, rest) =
            if geometry.layered() { (Some(&coords[0]), &coords[1..]) } else { (None, coords) };
        let src32 = |o: &Operand| self.src(o, Ty::B32);
        let mut cs = [Src::Imm(0); 3];
        for (k, c) in rest.iter().enumerate().take(3) {
            cs[k] = src32(c)?;
        }
        let layer = match layer {
            Some(l) => src32(l)?,
            None => Src::Imm(0),
        };
        let lod = if f.has(W::Level) {
            TexLod::Level(src32(
                ops.get(2)
                    .ok_or_else(|| LowerError { span: i.span, message: "tex.level: the level".into() })?,
            )?)
        } else if f.has(W::Grad) {
            let grad = |k: usize| -> Result<[Src; 3], LowerError> {
                let items = self.items(ops.get(k).ok_or_else(|| LowerError {
                    span: i.span,
                    message: "tex.grad: the gradients".into(),
                })?)?;
                let mut g = [Src::Imm(0); 3];
                for (j, x) in items.iter().enumerate().take(3) {
                    g[j] = src32(x)?;
                }
                Ok(g)
            };
            TexLod::Grad(grad(2)?, grad(3)?)
        } else {
            TexLod::Base
        };
        let used = 2 + match lod {
            TexLod::Base => 0,
            TexLod::Level(_) => 1,
            TexLod::Grad(..) => 2,
        };
        if ops.len() > used {
            return fail(
                ops[used].span(),
                format!("{}: texel offsets and depth compare are not supported", i.full_name(self.src)),
            );
        }
        if f.has(W::Base) {
            return fail(i.span, "tex.base is not supported");
        }
        Ok(Op::Tex(Box::new(TexOp {
            geometry,
            dsts,
            pred,
            handle,
            coords: cs,
            layer,
            int_coords: cty != Ty::F32,
            lod,
            gather,
        })))
    }

    fn query(f: &Form) -> ImageQuery {
        f.pick(&[
            (W::Width, ImageQuery::Width),
            (W::Height, ImageQuery::Height),
            (W::Depth, ImageQuery::Depth),
        ])
        .or_else(|| {
            f.pick(&[
                (W::ChannelDataType, "channel_data_type"),
                (W::ChannelOrder, "channel_order"),
                (W::NormalizedCoords, "normalized_coords"),
                (W::FilterMode, "filter_mode"),
                (W::AddrMode0, "addr_mode_0"),
                (W::AddrMode1, "addr_mode_1"),
                (W::AddrMode2, "addr_mode_2"),
                (W::ArraySize, "array_size"),
                (W::NumMipmapLevels, "num_mipmap_levels"),
                (W::NumSamples, "num_samples"),
                (W::ForceUnnormalizedCoords, "force_unnormalized_coords"),
            ])
            .map(ImageQuery::Other)
        })
        .unwrap_or(ImageQuery::Other("memory_layout"))
    }

    fn image_query(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        let (Some(d), Some(Operand::Addr(a))) = (ops.first(), ops.get(1)) else { return self.unsupported(i) };
        let Some(base) = a.base else { return self.unsupported(i) };
        let dst = self.dst(d)?;
        let handle = self.image_handle(base)?;
        let query = Self::query(f);
        if f.opcode == O::Suq {
            return Ok(Op::Suq { dst, handle, query });
        }
        let level = match ops.get(2) {
            Some(l) if f.has(W::Level) => Some(self.src(l, Ty::B32)?),
            _ => None,
        };
        Ok(Op::Txq { dst, handle, query, level })
    }

    fn surface(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        let name = i.full_name(self.src);
        if f.has(W::P) {
            return fail(i.span, format!("{name}: formatted surface access (.p) is not supported on sm_90"));
        }
        let Some(geometry) = f.pick(&GEOMETRIES[..5]) else { return self.unsupported(i) };
        let boundary =
            f.pick(&[(W::Clamp, Boundary::Clamp), (W::Zero, Boundary::Zero)]).unwrap_or(Boundary::Trap);
        let n = f.pick(&[(W::V4, 4u8), (W::V2, 2)]).unwrap_or(1);
        let ty = f.ty().unwrap_or(Ty::B32);
        let size = (ty.bits() / 8) as u8;
        let (image_at, data_at) = if f.opcode == O::Suld { (1, 0) } else { (0, 1) };
        let (Some(Operand::Image(a)), Some(data)) = (ops.get(image_at), ops.get(data_at)) else {
            return self.unsupported(i);
        };
        let handle = self.image_handle(a.image)?;
        let coords = self.items(&a.coords)?;
        // The layer comes first in PTX; it goes last here.
        let (layer, rest) =
            if geometry.layered() { (Some(&coords[0]), &coords[1..]) } else { (None, coords) };
        let dims = geometry.dims();
        let mut cs = [Src::Imm(0); 3];
        for (k, c) in rest.iter().enumerate().take(dims) {
            cs[k] = self.src(c, Ty::B32)?;
        }
        if let Some(l) = layer {
            cs[dims] = self.src(l, Ty::B32)?;
        }
        let kind = match f.opcode {
            O::Suld => SurfKind::Load(self.dsts(data)?.0),
            O::Sust => SurfKind::Store(self.srcs(data, ty)?.0),
            _ => {
                let op = f
                    .pick(&[
                        (W::Add, AtomOp::Add),
                        (W::Min, AtomOp::Min),
                        (W::Max, AtomOp::Max),
                        (W::And, AtomOp::And),
                        (W::Or, AtomOp::Or),
                    ])
                    .ok_or_else(|| LowerError {
                        span: i.span,
                        message: format!("{name}: an operation such as .add"),
                    })?;
                let Some(aty) = super::mem::atom_ty(op, ty) else { return self.unsupported(i) };
                SurfKind::Reduce(op, aty, self.src(data, ty)?)
            }
        };
        Ok(Op::Surf(Box::new(SurfOp { geometry, handle, coords: cs, boundary, n, size, kind })))
    }
}
