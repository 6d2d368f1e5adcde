//! Decoding the mbarrier family (PTX ISA 9.7.13.15), `cp.async.mbarrier.arrive`
//! (9.7.9.25.3.4) and the bulk copies that complete on an mbarrier (9.7.9.25.4.1).
//!
//! An mbarrier object is in shared memory, named by a shared address (`.shared`,
//! `.shared::cta`, and `.shared::cluster`, which for ptxvm's clusters of one CTA is
//! the same window) or by a generic one. The executor (`exec/mbarrier.rs`) keeps its
//! state in those 8 bytes.

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::Ty;
use crate::isa::{Form, Opcode as O, Word as W};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    /// `mbarrier.*`, `cp.async.mbarrier.arrive`.
    pub(super) fn mbarrier(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        let has = |w: W| f.has(w);
        let (op, addr_at) = if f.opcode == O::Cp {
            (MbarOp::CpAsyncArrive { noinc: has(W::Noinc) }, 0)
        } else if has(W::Init) {
            (MbarOp::Init, 0)
        } else if has(W::Inval) {
            (MbarOp::Inval, 0)
        } else if has(W::Arrive) || has(W::ArriveDrop) {
            let op = MbarOp::Arrive {
                drop: has(W::ArriveDrop),
                no_complete: has(W::NoComplete),
                expect_tx: has(W::ExpectTx),
            };
            (op, 1)
        } else if has(W::ExpectTx) {
            (MbarOp::ExpectTx, 0)
        } else if has(W::CompleteTxOp) {
            (MbarOp::CompleteTx, 0)
        } else if has(W::TestWait) || has(W::TryWait) {
            (MbarOp::Wait { parity: has(W::Parity), blocking: has(W::TryWait) }, 1)
        } else if has(W::PendingCount) {
            let (Some(d), Some(s)) = (ops.first(), ops.get(1)) else { return self.unsupported(i) };
            let (dst, a) = (Some(self.dst(d)?), self.src(s, Ty::B64)?);
            return Ok(Op::Mbarrier(Box::new(Mbar {
                op: MbarOp::PendingCount,
                mem: Mem::Shared,
                addr: Src::Imm(0),
                offset: 0,
                dst,
                a,
            })));
        } else {
            return self.unsupported(i);
        };
        let Some(Operand::Addr(place)) = ops.get(addr_at) else { return self.unsupported(i) };
        let p = self.place(place, Self::mbar_space(f))?;
        let dst = match addr_at {
            1 => self.dst_or_sink(&ops[0])?,
            _ => None,
        };
        // The operand after the address: a count, bytes, a state or a parity (the
        // arrival count is 1 when there is none).
        let a = match (op, ops.get(addr_at + 1)) {
            (MbarOp::Wait { parity: false, .. }, Some(o)) => self.src(o, Ty::B64)?,
            (_, Some(o)) => self.src(o, Ty::U32)?,
            (_, None) => Src::Imm(1),
        };
        Ok(Op::Mbarrier(Box::new(Mbar { op, mem: p.mem, addr: p.addr, offset: p.offset, dst, a })))
    }

    /// Any shared space names the CTA's shared memory; none, a generic address.
    fn mbar_space(f: &Form) -> Option<Space> {
        (f.has(W::Shared) || f.has(W::SharedCta) || f.has(W::SharedCluster)).then_some(Space::Shared)
    }

    /// `cp.async.bulk`: global or shared memory into shared memory completing on an
    /// mbarrier (into several CTAs' with `.multicast::cluster`), shared memory into
    /// global memory (`.bulk_group`), and the commit, wait and prefetch forms, which
    /// have nothing left to order once the copy is done. `cp.reduce.async.bulk` is
    /// the same copy reducing into its destination.
    pub(super) fn cp_bulk(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        let name = i.full_name(self.src);
        let reduce = name.starts_with("cp.reduce.");
        if has(W::Tensor) {
            return self.cp_tensor(i, f, reduce);
        }
        // The table's row for bulk copies is open: modifiers it does not know yet
        // (`.cp_mask`, ...) are not in the form, so the name itself must hold only
        // those of the copies run understands.
        let known = name
            .split('.')
            .skip(1)
            .all(|m| BULK_MODIFIERS.contains(&m) || reduce && REDUCE_MODIFIERS.contains(&m));
        if !known {
            return self.unsupported(i);
        }
        let red =
            if reduce { Some(bulk_reduction(name, has(W::Global)).map_err(|m| err(i, m))?) } else { None };
        // `cp.async.bulk.prefetch.L2.global [a], size`: a cache hint.
        if !reduce && (has(W::CommitGroup) || has(W::WaitGroup) || has(W::L2)) {
            return Ok(Op::Fence);
        }
        let ops = i.operands;
        let (Some(Operand::Addr(d)), Some(Operand::Addr(s)), Some(size)) =
            (ops.first(), ops.get(1), ops.get(2))
        else {
            return self.unsupported(i);
        };
        // After the size: the mbarrier of a copy into shared memory, the CTA mask of a
        // multicast, then a cache policy with `.L2::cache_hint`.
        let multicast = has(W::MulticastCluster);
        let want =
            3 + usize::from(has(W::CompleteTx)) + usize::from(multicast) + usize::from(has(W::L2CacheHint));
        if ops.len() != want || multicast && (reduce || !has(W::CompleteTx) || !has(W::Global)) {
            return self.unsupported(i);
        }
        let shared = Some(Space::Shared);
        let (dst_space, src_space, mbar) = if has(W::CompleteTx) {
            let Some(Operand::Addr(m)) = ops.get(3) else { return self.unsupported(i) };
            let src = if has(W::Global) { Some(Space::Global) } else { shared };
            (shared, src, Some(self.place(m, shared)?))
        } else if has(W::BulkGroup) && has(W::Global) {
            (Some(Space::Global), shared, None)
        } else {
            return self.unsupported(i);
        };
        let (dp, sp) = (self.place(d, dst_space)?, self.place(s, src_space)?);
        let multicast = if multicast { Some(self.src(&ops[4], Ty::B16)?) } else { None };
        Ok(Op::CpBulk(Box::new(CpBulk {
            dst: (dp.mem, dp.addr, dp.offset),
            src: (sp.mem, sp.addr, sp.offset),
            size: self.src(size, Ty::U32)?,
            mbar: mbar.map(|m| (m.mem, m.addr, m.offset)),
            red,
            multicast,
        })))
    }
}

/// An error at instruction `i`.
fn err(i: &InstrView<'_>, message: String) -> LowerError {
    LowerError { span: i.span, message }
}

/// The reduction of `cp.reduce.async.bulk` named `name`, into global memory or (not
/// `global`) into a CTA's shared memory: those ptxas 13.5 accepts (and CCCL's
/// `cuda::ptx` lists), each the operation `red` does on that type. Into shared memory
/// only 32-bit operations and `.add.u64`; into global memory also the 64-bit ones, the
/// floats, and min/max of halves; an add of halves needs `.noftz` and nothing else
/// takes it.
fn bulk_reduction(name: &str, global: bool) -> Result<(AtomOp, AtomTy), String> {
    let words: Vec<&str> = name.split('.').collect();
    let op = [
        ("add", AtomOp::Add),
        ("min", AtomOp::Min),
        ("max", AtomOp::Max),
        ("inc", AtomOp::Inc),
        ("dec", AtomOp::Dec),
        ("and", AtomOp::And),
        ("or", AtomOp::Or),
        ("xor", AtomOp::Xor),
    ]
    .into_iter()
    .find(|(w, _)| words.contains(w));
    let ty = words.last().copied().unwrap_or_default();
    let Some((op_name, op)) = op else {
        return Err(format!(
            "{name}: a bulk reduction needs its operation (.add, .min, .max, .inc, .dec, .and, .or, .xor)"
        ));
    };
    let noftz = words.contains(&"noftz");
    let allowed: &[&str] = match (op, global) {
        (AtomOp::Add, true) => &["u32", "s32", "u64", "f32", "f64", "f16", "bf16"],
        (AtomOp::Add, false) => &["u32", "s32", "u64"],
        (AtomOp::Min | AtomOp::Max, true) => &["u32", "s32", "u64", "s64", "f16", "bf16"],
        (AtomOp::Min | AtomOp::Max, false) => &["u32", "s32"],
        (AtomOp::Inc | AtomOp::Dec, _) => &["u32"],
        (_, true) => &["b32", "b64"],
        (_, false) => &["b32"],
    };
    let half = matches!(ty, "f16" | "bf16");
    if !allowed.contains(&ty) || noftz != (op == AtomOp::Add && half) {
        let into = if global { "global" } else { "shared" };
        let why = if op == AtomOp::Add && half && !noftz {
            format!(".add on .{ty} needs .noftz")
        } else if noftz && allowed.contains(&ty) {
            format!(".noftz is only for .add on .f16 and .bf16, not .{op_name}.{ty}")
        } else {
            format!(
                ".{op_name} into {into} memory takes {}, not .{ty}",
                allowed.iter().map(|t| format!(".{t}")).collect::<Vec<_>>().join(", ")
            )
        };
        return Err(format!("{name}: {why}"));
    }
    let ty = match ty {
        "b32" | "u32" => AtomTy::U32,
        "s32" => AtomTy::S32,
        "b64" | "u64" => AtomTy::U64,
        "s64" => AtomTy::S64,
        "f16" => AtomTy::F16,
        "bf16" => AtomTy::BF16,
        "f32" => AtomTy::F32,
        _ => AtomTy::F64,
    };
    Ok((op, ty))
}

impl<'m> Decoder<'m> {
    /// `cp.async.bulk.tensor.Nd` in tile mode, global to shared memory completing on
    /// an mbarrier, or shared to global memory in a bulk group, which
    /// `cp.reduce.async.bulk.tensor` reduces into the tensor; in tile or im2col mode.
    fn cp_tensor(&mut self, i: &InstrView<'m>, f: &Form, reduce: bool) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        let name = i.full_name(self.src);
        let known = name
            .split('.')
            .skip(1)
            .all(|m| TENSOR_MODIFIERS.contains(&m) || reduce && REDUCE_MODIFIERS.contains(&m));
        let Some(dims) = f.pick(&[(W::D1, 1u8), (W::D2, 2), (W::D3, 3), (W::D4, 4), (W::D5, 5)]) else {
            return self.unsupported(i);
        };
        if !known {
            return self.unsupported(i);
        }
        // The element type is the tensor map's: the executor checks the pair.
        let red = match reduce {
            true => {
                let ops = [
                    AtomOp::Add,
                    AtomOp::Min,
                    AtomOp::Max,
                    AtomOp::Inc,
                    AtomOp::Dec,
                    AtomOp::And,
                    AtomOp::Or,
                    AtomOp::Xor,
                ];
                let found = ops.into_iter().find(|op| name.split('.').any(|m| m == op.name()));
                let (Some(op), false) = (found, has(W::CompleteTx)) else { return self.unsupported(i) };
                Some(op)
            }
            false => None,
        };
        // `cp.async.bulk.prefetch.tensor.Nd.L2.global`: a cache hint, nothing a
        // program can read.
        if i.full_name(self.src).split('.').any(|m| m == "prefetch") {
            return Ok(Op::Fence);
        }
        let ops = i.operands;
        let hint = usize::from(has(W::L2CacheHint));
        let im2col = name.split('.').find(|m| m.starts_with("im2col"));
        if im2col.is_some() && dims < 3 {
            return self.unsupported(i);
        }
        // The filter offsets of `.im2col`: a vector of `dims - 2` 16-bit values.
        let offsets = |at: usize| -> Result<Option<[Src; 3]>, LowerError> {
            match im2col {
                None => Ok(None),
                Some("im2col") => {
                    let Some(Operand::Vector(items, _)) = ops.get(at) else { return self.unsupported(i) };
                    if items.len() != usize::from(dims) - 2 {
                        return self.unsupported(i);
                    }
                    let mut o = [Src::Imm(0); 3];
                    for (k, item) in items.iter().enumerate() {
                        o[k] = self.src(item, Ty::U16)?;
                    }
                    Ok(Some(o))
                }
                Some(_) => Ok(Some([Src::Imm(0); 3])),
            }
        };
        let coords = |image: &ImageAddr| -> Result<(Src, [Src; 5]), LowerError> {
            let Operand::Vector(items, _) = &image.coords else { return self.unsupported(i) };
            if items.len() != usize::from(dims) || image.sampler.is_some() {
                return self.unsupported(i);
            }
            let mut c = [Src::Imm(0); 5];
            for (k, item) in items.iter().enumerate() {
                c[k] = self.src(item, Ty::S32)?;
            }
            // A kernel parameter named directly is read through its generic address.
            let map = match self.named(image.image) {
                Some(super::decode::Named::KernelParam(off)) => Src::Imm(PARAM_WINDOW + u64::from(off)),
                _ => self.src(&Operand::Name(image.image), Ty::U64)?,
            };
            Ok((map, c))
        };
        let shared = Some(Space::Shared);
        if has(W::CompleteTx) {
            let (Some(Operand::Addr(d)), Some(Operand::Image(m)), Some(Operand::Addr(b))) =
                (ops.first(), ops.get(1), ops.get(2))
            else {
                return self.unsupported(i);
            };
            let multicast = usize::from(has(W::MulticastCluster));
            let with_offsets = usize::from(im2col == Some("im2col"));
            if ops.len() != 3 + with_offsets + multicast + hint || im2col == Some("im2col_no_offs") {
                return self.unsupported(i);
            }
            let (map, coords) = coords(m)?;
            let (dp, bp) = (self.place(d, shared)?, self.place(b, shared)?);
            let im2col = offsets(3)?;
            let multicast =
                if multicast == 1 { Some(self.src(&ops[3 + with_offsets], Ty::B16)?) } else { None };
            return Ok(Op::CpTensor(Box::new(CpTensor {
                smem: (dp.mem, dp.addr, dp.offset),
                map,
                coords,
                dims,
                mbar: Some((bp.mem, bp.addr, bp.offset)),
                multicast,
                red,
                im2col,
            })));
        }
        if has(W::BulkGroup) {
            let (Some(Operand::Image(m)), Some(Operand::Addr(s))) = (ops.first(), ops.get(1)) else {
                return self.unsupported(i);
            };
            if ops.len() != 2 + hint || im2col == Some("im2col") {
                return self.unsupported(i);
            }
            let (map, coords) = coords(m)?;
            let sp = self.place(s, shared)?;
            if has(W::MulticastCluster) {
                return self.unsupported(i);
            }
            return Ok(Op::CpTensor(Box::new(CpTensor {
                smem: (sp.mem, sp.addr, sp.offset),
                map,
                coords,
                dims,
                mbar: None,
                multicast: None,
                red,
                im2col: offsets(0)?,
            })));
        }
        self.unsupported(i)
    }
}

/// The modifiers of the `cp.async.bulk.tensor` forms ptxvm runs.
const TENSOR_MODIFIERS: &[&str] = &[
    "async",
    "bulk",
    "tensor",
    "1d",
    "2d",
    "3d",
    "4d",
    "5d",
    "shared::cluster",
    "shared::cta",
    "global",
    "tile",
    "im2col",
    "im2col_no_offs",
    "mbarrier::complete_tx::bytes",
    "bulk_group",
    "L2::cache_hint",
    "prefetch",
    "L2",
    "multicast::cluster",
];

/// The modifiers `cp.reduce.async.bulk(.tensor)` adds to the copies': the operation,
/// `.noftz` and the element type.
const REDUCE_MODIFIERS: &[&str] = &[
    "reduce", "add", "min", "max", "inc", "dec", "and", "or", "xor", "noftz", "f16", "bf16", "b32", "u32",
    "s32", "b64", "u64", "s64", "f32", "f64",
];

/// The modifiers of the `cp.async.bulk` forms ptxvm runs.
const BULK_MODIFIERS: &[&str] = &[
    "async",
    "bulk",
    "shared::cluster",
    "shared::cta",
    "global",
    "mbarrier::complete_tx::bytes",
    "bulk_group",
    "L2::cache_hint",
    "commit_group",
    "wait_group",
    "read",
    "prefetch",
    "L2",
    "multicast::cluster",
];
