//! Decoding data movement: `mov`, `ld`, `ldu`, `st`, `atom`, `red`, `cvta` and fences,
//! with each memory operand resolved to its space and address (PTX ISA 9.7.9, 9.7.13).

use super::decode::{Decoder, Named};
use super::ops::*;
use super::program::fail;
use super::regs::{RegFile, Slot};
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::syntax::ast::*;

/// A memory operand, decoded: where it goes and how its address is formed.
pub(super) struct Place {
    pub mem: Mem,
    pub addr: Src,
    pub offset: i64,
}

impl<'m> Decoder<'m> {
    pub(super) fn mem_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        match (opcode, ty) {
            (O::Ld | O::Ldu, Some(ty)) => {
                let Operand::Addr(a) = &ops[1] else { return self.unsupported(i) };
                let space = self.access_space(f, a);
                let size = ty.bits().div_ceil(8) as u8;
                let signed = ty.class() == Class::Signed;
                if space == Some(Space::Param)
                    && let Some(b) = a.base
                    && let Some(Named::KernelParam(base)) = self.named(b)
                {
                    let offset = (i64::from(base) + a.offset) as u32;
                    let (dsts, n) = self.dsts(&ops[0])?;
                    return Ok(Op::LdParam { dsts, n, offset, size, signed });
                }
                let p = self.place(a, space)?;
                let (dsts, n) = self.dsts(&ops[0])?;
                let spin = has(W::Volatile) || has(W::Relaxed) || has(W::Acquire);
                Ok(Op::Ld { mem: p.mem, dsts, n, addr: p.addr, offset: p.offset, size, signed, spin })
            }
            (O::St, Some(ty)) => {
                let Operand::Addr(a) = &ops[0] else { return self.unsupported(i) };
                let p = self.place(a, self.access_space(f, a))?;
                let (srcs, n) = self.srcs(&ops[1], ty)?;
                let size = ty.bits().div_ceil(8) as u8;
                Ok(Op::St { mem: p.mem, srcs, n, addr: p.addr, offset: p.offset, size })
            }
            (O::Atom | O::Red, Some(ty)) => self.atom(i, f, ty),
            (O::Cvta, Some(ty)) => {
                let window = if has(W::Shared) {
                    SHARED_WINDOW
                } else if has(W::Local) {
                    LOCAL_WINDOW
                } else if has(W::Param) {
                    PARAM_WINDOW
                } else if has(W::Global) || has(W::Const) {
                    0
                } else {
                    return self.unsupported(i);
                };
                let dst = self.dst(&ops[0])?;
                // `cvta.local %rd, var`: the generic address of a frame variable.
                if let Operand::Name(n) = &ops[1]
                    && let Some(Named::Frame(v)) = self.named(*n)
                {
                    if has(W::To) || window != LOCAL_WINDOW {
                        return self.unsupported(i);
                    }
                    return Ok(Op::FrameAddr { dst, offset: v.offset, generic: true });
                }
                let src = self.src(&ops[1], ty)?;
                Ok(Op::Cvta { dst, src, to_generic: !has(W::To), window })
            }
            // `mov %rd, param`: a kernel parameter's address in the parameter space,
            // its offset in the parameter buffer (`cvta.param` makes it generic).
            (O::Mov, Some(Ty::B64 | Ty::U64 | Ty::S64))
                if let Some(Operand::Name(n)) = ops.get(1)
                    && let Some(Named::KernelParam(off)) = self.named(*n) =>
            {
                Ok(Op::Mov { dst: self.dst(&ops[0])?, src: Src::Imm(u64::from(off)) })
            }
            (O::Mov, Some(ty)) if ty != Ty::Pred => self.mov(i, f, ty),
            (O::Membar | O::Fence, _) => Ok(Op::Fence),
            (O::Isspacep, _) => {
                let Some(space) = f.pick(&[
                    (W::Global, IsSpace::Global),
                    (W::Shared, IsSpace::Shared),
                    (W::SharedCta, IsSpace::Shared),
                    (W::SharedCluster, IsSpace::Shared),
                    (W::Local, IsSpace::Local),
                    (W::Const, IsSpace::Const),
                    (W::Param, IsSpace::Param),
                ]) else {
                    return self.unsupported(i);
                };
                Ok(Op::Isspacep { space, dst: self.dst(&ops[0])?, a: self.src(&ops[1], Ty::U64)? })
            }
            // Cache hints: no effect on any value a program can read (PTX ISA 9.7.9.15),
            // so a fence is all they need to be (ptxvm has no caches).
            (O::Prefetch | O::Prefetchu, _) => Ok(Op::Fence),
            (O::Mbarrier, _) => self.mbarrier(i, f),
            (O::Cp, _) if has(W::Async) && has(W::Mbarrier) => self.mbarrier(i, f),
            (O::Cp, _) if has(W::Async) && has(W::Bulk) => self.cp_bulk(i, f),
            (O::Cp, _) if has(W::Async) => self.cp_async(i, f),
            _ => self.unsupported(i),
        }
    }

    /// `alloca`, `pmevent`, `getctarank` and `mapa` (PTX ISA 9.7.9.16, 9.7.19.2, 9.7.9.24,
    /// 9.7.9.23): `exec/cluster.rs` has what a `.shared::cluster` address holds.
    pub(super) fn misc_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        match f.opcode {
            O::Alloca if (2..=3).contains(&ops.len()) => {
                // At least 8 bytes, the alignment the ISA guarantees (PTX ISA 9.7.19.3:
                // max(immAlign, 8)); immAlign is a power of two up to 2^23.
                let align = match ops.get(2) {
                    None => 8,
                    Some(Operand::Int { bits, .. }) if bits.is_power_of_two() && *bits <= 1 << 23 => {
                        (*bits as u32).max(8)
                    }
                    Some(_) => return self.unsupported(i),
                };
                let ty = f.ty().unwrap_or(Ty::U64);
                Ok(Op::Alloca { dst: self.dst(&ops[0])?, size: self.src(&ops[1], ty)?, align })
            }
            // A performance-monitor event (`__prof_trigger`): no counters to bump here,
            // and no effect a program can read (PTX ISA 9.7.19.2).
            O::Pmevent => Ok(Op::Fence),
            // A hint of how many registers the warps of a warpgroup need (PTX ISA
            // 9.7.19.5): registers here are not a budget to share.
            O::Setmaxnreg => Ok(Op::Fence),
            O::Tensormap => self.tensormap(i, f),
            O::Getctarank if ops.len() == 2 => {
                let dst = self.dst(&ops[0])?;
                let a = self.src(&ops[1], f.ty().unwrap_or(Ty::U64))?;
                // A 32-bit `.shared::cluster` address is a shared offset; the rest are
                // generic ones here (see `Self::space`).
                let window =
                    if matches!(f.ty(), Some(Ty::U64 | Ty::B64 | Ty::S64)) { SHARED_WINDOW } else { 0 };
                Ok(Op::Getctarank { dst, a, window })
            }
            O::Mapa if ops.len() == 3 => {
                let dst = self.dst(&ops[0])?;
                let a = self.src(&ops[1], f.ty().unwrap_or(Ty::U64))?;
                let rank = self.src(&ops[2], Ty::U32)?;
                // A 64-bit address (generic, or `.shared::cluster`, which is generic here:
                // see `Self::space`) is in the shared window; a 32-bit one is the shared
                // offset itself.
                let window = if dst.file == RegFile::R64 { SHARED_WINDOW } else { 0 };
                Ok(Op::Mapa { dst, a, rank, window })
            }
            _ => self.unsupported(i),
        }
    }

    /// `cp.async` (PTX ISA 9.7.9.25.3): a copy from global to shared memory, and the
    /// commit and wait instructions, which order nothing once the copy is done.
    fn cp_async(&self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        if f.has(W::CommitGroup) || f.has(W::WaitGroup) || f.has(W::WaitAll) {
            return Ok(Op::Fence);
        }
        let ops = i.operands;
        let (Some(Operand::Addr(d)), Some(Operand::Addr(s)), Some(Operand::Int { bits: size, .. })) =
            (ops.first(), ops.get(1), ops.get(2))
        else {
            return self.unsupported(i);
        };
        if !matches!(size, 4 | 8 | 16) || !f.has(W::Shared) && !f.has(W::SharedCta) {
            return self.unsupported(i);
        }
        let dst = self.place(d, Some(Space::Shared))?;
        let src = self.place(s, Some(Space::Global))?;
        // The fourth operand: the source size, or the `ignore-src` predicate (a true
        // one copies nothing and zero-fills).
        let (src_size, ignore) = match ops.get(3) {
            None => (Src::Imm(*size), None),
            Some(o @ (Operand::Name(_) | Operand::Not(..))) if self.pred(o).is_ok() => {
                (Src::Imm(*size), Some(self.pred(o)?))
            }
            Some(o) => (self.src(o, Ty::U32)?, None),
        };
        Ok(Op::CpAsync {
            dst: dst.addr,
            dst_offset: dst.offset,
            src: src.addr,
            src_offset: src.offset,
            size: *size as u8,
            src_size,
            ignore,
        })
    }

    /// The memory space an `ld`/`st`/`atom` names (generic when none, and for
    /// `.shared::cluster`, whose addresses are generic ones here).
    pub(super) fn space(f: &Form) -> Option<Space> {
        if f.has(W::SharedCluster) { None } else { f.pick(groups::SPACE) }
    }

    /// The space of an `ld`/`st`/`atom` at `a`: [`Self::space`], but a
    /// `.shared::cluster` access through a 32-bit register (what `mapa.u32` gives) is
    /// one in the CTA's own shared memory, since a cluster here is one CTA and the
    /// `.shared::cta` window lies inside the `.shared::cluster` one (PTX ISA 5.1.3).
    fn access_space(&self, f: &Form, a: &Address) -> Option<Space> {
        if f.has(W::SharedCluster)
            && let Some(b) = a.base
            && let Some(Named::Reg(Slot { file: RegFile::R32, .. })) = self.named(b)
        {
            return Some(Space::Shared);
        }
        Self::space(f)
    }

    /// Decodes `[base+offset]` for an access in `space` (`None`: generic).
    pub(super) fn place(&self, a: &Address, space: Option<Space>) -> Result<Place, LowerError> {
        let reg_mem = match space {
            None => Some(Mem::Generic),
            Some(Space::Global | Space::Const) => Some(Mem::Global),
            Some(Space::Shared) => Some(Mem::Shared),
            Some(Space::Local) => Some(Mem::Local),
            Some(Space::Param) if self.kernel => Some(Mem::Param),
            Some(_) => None,
        };
        let Some(base) = a.base else {
            let Some(mem) = reg_mem else { return fail(a.span, "an absolute address in this state space") };
            return Ok(Place { mem, addr: Src::Imm(0), offset: a.offset });
        };
        let (mem, addr, extra) = match (self.named(base), space) {
            (Some(Named::Reg(slot)), _) if reg_mem.is_some() => {
                (reg_mem.unwrap_or(Mem::Generic), Src::Reg(slot), 0)
            }
            (Some(Named::Frame(v)), Some(Space::Local | Space::Param)) => {
                (Mem::Frame, Src::Imm(0), i64::from(v.offset))
            }
            (Some(Named::Shared(o)), Some(Space::Shared)) => (Mem::Shared, Src::Imm(u64::from(o)), 0),
            (Some(Named::Shared(o)), None) => (Mem::Generic, Src::Imm(SHARED_WINDOW + u64::from(o)), 0),
            (Some(Named::Data(d)), None | Some(Space::Global | Space::Const)) => {
                (Mem::Global, Src::Imm(d), 0)
            }
            _ => {
                let what = format!("`{}` is not addressable in this state space here", self.t(base));
                return fail(base.span, what);
            }
        };
        Ok(Place { mem, addr, offset: a.offset + extra })
    }

    /// Registers of a vector operand `{a, b, ..}` (or one register), at most four.
    pub(super) fn dsts(&self, op: &Operand) -> Result<([Option<Slot>; 4], u8), LowerError> {
        let mut out = [None; 4];
        match op {
            Operand::Vector(items, span) => {
                if items.len() > 4 {
                    return fail(*span, "vectors of more than four elements are not supported");
                }
                for (k, item) in items.iter().enumerate() {
                    out[k] = self.dst_or_sink(item)?;
                }
                Ok((out, items.len() as u8))
            }
            other => {
                out[0] = Some(self.dst(other)?);
                Ok((out, 1))
            }
        }
    }

    pub(super) fn srcs(&self, op: &Operand, ty: Ty) -> Result<([Src; 4], u8), LowerError> {
        let mut out = [Src::Imm(0); 4];
        match op {
            Operand::Vector(items, span) => {
                if items.len() > 4 {
                    return fail(*span, "vectors of more than four elements are not supported");
                }
                for (k, item) in items.iter().enumerate() {
                    out[k] = self.src(item, ty)?;
                }
                Ok((out, items.len() as u8))
            }
            other => {
                out[0] = self.src(other, ty)?;
                Ok((out, 1))
            }
        }
    }

    /// `mov`: special registers, vector packing and unpacking, addresses of
    /// variables and functions, plain values.
    fn mov(&self, i: &InstrView<'m>, f: &Form, ty: Ty) -> Result<Op, LowerError> {
        let ops = i.operands;
        // `mov.v2`/`.v4`: element by element; a scalar source goes to every element.
        if f.has(W::V2) || f.has(W::V4) {
            let (dsts, n) = self.dsts(&ops[0])?;
            let srcs = match &ops[1] {
                Operand::Vector(..) => self.srcs(&ops[1], ty)?.0,
                one => [self.src(one, ty)?; 4],
            };
            return Ok(Op::MovVector { dsts, srcs, n });
        }
        match (&ops[0], &ops[1]) {
            (Operand::Vector(..), src) => {
                let (dsts, n) = self.dsts(&ops[0])?;
                let bits = (ty.bits() / u32::from(n)) as u8;
                Ok(Op::Unpack { dsts, n, bits, src: self.src(src, ty)? })
            }
            (dst, Operand::Vector(..)) => {
                let count = match &ops[1] {
                    Operand::Vector(items, _) => items.len() as u32,
                    _ => 1,
                };
                let bits = ty.bits() / count.max(1);
                let elem = match bits {
                    8 => Ty::B8,
                    16 => Ty::B16,
                    32 => Ty::B32,
                    _ => Ty::B64,
                };
                let (srcs, n) = self.srcs(&ops[1], elem)?;
                Ok(Op::Pack { dst: self.dst(dst)?, srcs, n, bits: bits as u8 })
            }
            (dst, Operand::Component(base, comp)) => {
                let axis = match comp.text(self.src) {
                    ".x" => 0,
                    ".y" => 1,
                    ".z" => 2,
                    _ => return self.unsupported(i),
                };
                let sreg = match self.t(*base) {
                    "%tid" => Special::Tid(axis),
                    "%ntid" => Special::Ntid(axis),
                    "%ctaid" => Special::Ctaid(axis),
                    "%nctaid" => Special::Nctaid(axis),
                    "%clusterid" => Special::Clusterid(axis),
                    "%nclusterid" => Special::Nclusterid(axis),
                    "%cluster_ctaid" => Special::ClusterCtaid(axis),
                    "%cluster_nctaid" => Special::ClusterNctaid(axis),
                    _ => return self.unsupported(i),
                };
                Ok(Op::MovSpecial { dst: self.dst(dst)?, sreg })
            }
            (dst, Operand::Name(n))
                if self.t(*n).starts_with('%') && self.regs.resolve(self.t(*n)).is_none() =>
            {
                let sreg = match self.t(*n) {
                    "%laneid" => Special::Laneid,
                    "%warpid" => Special::Warpid,
                    "%nwarpid" => Special::Nwarpid,
                    "%tid" => Special::Tid(0),
                    "%ntid" => Special::Ntid(0),
                    "%ctaid" => Special::Ctaid(0),
                    "%nctaid" => Special::Nctaid(0),
                    "%lanemask_eq" => Special::LanemaskEq,
                    "%lanemask_lt" => Special::LanemaskLt,
                    "%lanemask_le" => Special::LanemaskLe,
                    "%lanemask_gt" => Special::LanemaskGt,
                    "%lanemask_ge" => Special::LanemaskGe,
                    "%smid" => Special::Smid,
                    "%nsmid" => Special::Nsmid,
                    "%gridid" => Special::Gridid,
                    "%clock" => Special::Clock,
                    "%clock64" => Special::Clock64,
                    "%globaltimer" => Special::Globaltimer,
                    "%dynamic_smem_size" => Special::DynamicSmemSize,
                    "%total_smem_size" => Special::TotalSmemSize,
                    "%clusterid" => Special::Clusterid(0),
                    "%nclusterid" => Special::Nclusterid(0),
                    "%cluster_ctaid" => Special::ClusterCtaid(0),
                    "%cluster_nctaid" => Special::ClusterNctaid(0),
                    "%cluster_ctarank" => Special::ClusterCtarank,
                    "%cluster_nctarank" => Special::ClusterNctarank,
                    // Driver-defined registers: cooperative groups read the grid-sync
                    // workspace from `%envreg1`/`%envreg2`.
                    s if s
                        .strip_prefix("%envreg")
                        .and_then(|n| n.parse::<u8>().ok())
                        .is_some_and(|n| n < 32) =>
                    {
                        Special::Envreg(s["%envreg".len()..].parse().unwrap_or(0))
                    }
                    _ => return self.unsupported(i),
                };
                Ok(Op::MovSpecial { dst: self.dst(dst)?, sreg })
            }
            (dst, Operand::Name(n)) if matches!(self.named(*n), Some(Named::Frame(_))) => {
                let Some(Named::Frame(v)) = self.named(*n) else { return self.unsupported(i) };
                Ok(Op::FrameAddr { dst: self.dst(dst)?, offset: v.offset, generic: false })
            }
            (dst, src) => Ok(Op::Mov { dst: self.dst(dst)?, src: self.src(src, ty)? }),
        }
    }

    /// `atom` and `red` (PTX ISA 9.7.13.5, 9.7.13.6).
    fn atom(&self, i: &InstrView<'m>, f: &Form, ty: Ty) -> Result<Op, LowerError> {
        let red = f.opcode == O::Red;
        let op = f.pick(&[
            (W::Add, AtomOp::Add),
            (W::Min, AtomOp::Min),
            (W::Max, AtomOp::Max),
            (W::Inc, AtomOp::Inc),
            (W::Dec, AtomOp::Dec),
            (W::And, AtomOp::And),
            (W::Or, AtomOp::Or),
            (W::Xor, AtomOp::Xor),
            (W::Exch, AtomOp::Exch),
            (W::Cas, AtomOp::Cas),
        ]);
        let Some(op) = op else { return self.unsupported(i) };
        let Some(aty) = atom_ty(op, ty) else { return self.unsupported(i) };
        let ops = i.operands;
        if let Some(n) = f.pick(groups::VEC) {
            // `atom`/`red` `.add.v2.f32`, `.v4.f32` (sm_90, `.global`; nvcc's
            // `atomicAdd(float2 *, float2)` and `float4`): each element its own atomic
            // add (PTX ISA 9.7.13.5: no atomicity across the elements).
            if aty != AtomTy::F32 || op != AtomOp::Add || n > 4 {
                return self.unsupported(i);
            }
            let (dsts, rest) = if red {
                ([None; 4], ops)
            } else {
                let (dsts, got) = self.dsts(&ops[0])?;
                if got != n {
                    let what = format!("the destination has {got} elements, the vector type {n}");
                    return super::program::fail(ops[0].span(), what);
                }
                (dsts, &ops[1..])
            };
            let Operand::Addr(a) = &rest[0] else { return self.unsupported(i) };
            let p = self.place(a, self.access_space(f, a))?;
            let (srcs, got) = self.srcs(&rest[1], ty)?;
            if got != n {
                return self.unsupported(i);
            }
            return Ok(Op::AtomVec(Box::new(AtomVec {
                mem: p.mem,
                n,
                dsts,
                addr: p.addr,
                offset: p.offset,
                srcs,
            })));
        }
        let (dst, rest) = if red { (None, ops) } else { (self.dst_or_sink(&ops[0])?, &ops[1..]) };
        let Operand::Addr(a) = &rest[0] else { return self.unsupported(i) };
        let p = self.place(a, self.access_space(f, a))?;
        let b = self.src(&rest[1], ty)?;
        let c = match rest.get(2) {
            Some(o) => self.src(o, ty)?,
            None => Src::Imm(0),
        };
        Ok(Op::Atom { mem: p.mem, op, ty: aty, dst, addr: p.addr, offset: p.offset, b, c })
    }
}

/// How `atom`, `red` and `sured` of operation `op` read a `ty` operand; `None` for
/// a combination that does not run.
pub(super) fn atom_ty(op: AtomOp, ty: Ty) -> Option<AtomTy> {
    let add = op == AtomOp::Add;
    let whole = matches!(op, AtomOp::Add | AtomOp::Exch | AtomOp::Cas);
    Some(match ty {
        Ty::B16 | Ty::U16 if matches!(op, AtomOp::Cas | AtomOp::Exch) => AtomTy::B16,
        Ty::F16 if add => AtomTy::F16,
        Ty::F16x2 if add => AtomTy::F16x2,
        Ty::BF16 if add => AtomTy::BF16,
        Ty::BF16x2 if add => AtomTy::BF16x2,
        Ty::U32 | Ty::B32 => AtomTy::U32,
        Ty::S32 => AtomTy::S32,
        Ty::U64 | Ty::B64 => AtomTy::U64,
        Ty::S64 => AtomTy::S64,
        Ty::F32 if whole => AtomTy::F32,
        Ty::F64 if whole => AtomTy::F64,
        _ => return None,
    })
}
