//! The instruction forms ptxvm runs, each decoded into one [`Op`]: the opcode and its
//! modifiers pick the operation, its type and its memory space once, here, so the
//! executor never looks at text. Anything else is a [`LowerError`] that names the
//! instruction.

use super::decode::{Decoder, Named};
pub use super::ops::*;
use super::program::fail;
use super::regs::Slot;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W, groups};
use crate::sem::convert::{IntRound, IntTy};
use crate::sem::float::FOp;
use crate::sem::int::{Part, Width};
use crate::syntax::ast::*;

/// The bits `set` writes for true into a `dty` destination from `sty` sources (ISA
/// 9.7.6.1, 9.7.7.2): 1.0 for a float type, all ones for an integer one, per half for
/// the packed sources.
fn set_one(dty: Ty, sty: Ty) -> u64 {
    let half = matches!(sty, Ty::F16x2 | Ty::BF16x2);
    match dty {
        Ty::F32 => 0x3f80_0000,
        Ty::F16 | Ty::F16x2 => 0x3c00,
        Ty::BF16 | Ty::BF16x2 => 0x3f80,
        t if half => 0xffff & Width(t.bits()).mask(),
        t => Width(t.bits()).mask(),
    }
}

/// A memory operand, decoded: where it goes and how its address is formed.
struct Place {
    mem: Mem,
    addr: Src,
    offset: i64,
}

impl<'m> Decoder<'m> {
    pub(super) fn unsupported<T>(&self, i: &InstrView<'_>) -> Result<T, LowerError> {
        let name = i.full_name(self.src);
        fail(i.span, format!("{name}: ptxvm cannot run this instruction yet"))
    }

    /// `bar`/`barrier` `.sync`, `.arrive`, `.red` (PTX ISA 9.7.13.1): `a{, b}` for
    /// `.sync`, `a, b` for `.arrive`, `d, a{, b}, {!}c` for `.red`.
    fn barrier(&self, i: &InstrView<'_>, aligned: bool, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        if f.has(W::Cluster) {
            return self.unsupported(i);
        }
        let has = |w: W| f.has(w);
        let kind = if has(W::Sync) {
            BarKind::Sync
        } else if has(W::Arrive) {
            BarKind::Arrive
        } else if has(W::Red) {
            let Some(red) = f.pick(&[(W::Popc, BarRed::Popc), (W::And, BarRed::And), (W::Or, BarRed::Or)])
            else {
                return self.unsupported(i);
            };
            BarKind::Red(red)
        } else {
            return self.unsupported(i);
        };
        let (dst, rest, pred) = match kind {
            BarKind::Red(_) if (3..=4).contains(&ops.len()) => {
                let last = ops.len() - 1;
                (Some(self.dst(&ops[0])?), &ops[1..last], Some(self.pred_src(&ops[last])?))
            }
            BarKind::Sync if (1..=2).contains(&ops.len()) => (None, ops, None),
            BarKind::Arrive if ops.len() == 2 => (None, ops, None),
            _ => return self.unsupported(i),
        };
        let id = self.src(&rest[0], Ty::U32)?;
        let count = rest.get(1).map(|c| self.src(c, Ty::U32)).transpose()?;
        Ok(Op::Barrier(Box::new(Barrier { kind, aligned, id, count, dst, pred })))
    }

    /// The memory space an `ld`/`st`/`atom` names (generic when none, and for
    /// `.shared::cluster`, whose addresses are generic ones here).
    fn space(f: &Form) -> Option<Space> {
        if f.has(W::SharedCluster) { None } else { f.pick(groups::SPACE) }
    }

    /// Decodes `[base+offset]` for an access in `space` (`None`: generic).
    fn place(&self, a: &Address, space: Option<Space>) -> Result<Place, LowerError> {
        let reg_mem = match space {
            None => Some(Mem::Generic),
            Some(Space::Global | Space::Const) => Some(Mem::Global),
            Some(Space::Shared) => Some(Mem::Shared),
            Some(Space::Local) => Some(Mem::Local),
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
    fn dsts(&self, op: &Operand) -> Result<([Option<Slot>; 4], u8), LowerError> {
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

    fn srcs(&self, op: &Operand, ty: Ty) -> Result<([Src; 4], u8), LowerError> {
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

    pub(super) fn op(&mut self, i: &InstrView<'m>, f: &Form, pc: u32) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        let width = |ty: Ty| Width(ty.bits());
        let vector = has(W::V2) || has(W::V4);
        match (opcode, ty) {
            (O::Exit, _) => Ok(Op::Exit),
            (O::Ret, _) => Ok(if self.kernel { Op::Exit } else { Op::Ret }),
            (O::Call, _) => self.call(i),
            (O::Cvt, _) => self.cvt(i, f),
            (O::Bar, _) if has(W::Warp) && has(W::Sync) && ops.len() == 1 => {
                Ok(Op::WarpSync { members: self.src(&ops[0], Ty::B32)? })
            }
            (O::Bar | O::Barrier, _) => self.barrier(i, opcode == O::Bar || has(W::Aligned), f),
            (O::Ld | O::Ldu, Some(ty)) => {
                let Operand::Addr(a) = &ops[1] else { return self.unsupported(i) };
                let space = Self::space(f);
                let size = ty.bits().div_ceil(8) as u8;
                let signed = ty.class() == Class::Signed;
                if space == Some(Space::Param)
                    && !vector
                    && let Some(b) = a.base
                    && let Some(Named::KernelParam(base)) = self.named(b)
                {
                    let offset = (i64::from(base) + a.offset) as u32;
                    return Ok(Op::LdParam { dst: self.dst(&ops[0])?, offset, size, signed });
                }
                let p = self.place(a, space)?;
                let (dsts, n) = self.dsts(&ops[0])?;
                Ok(Op::Ld { mem: p.mem, dsts, n, addr: p.addr, offset: p.offset, size, signed })
            }
            (O::St, Some(ty)) => {
                let Operand::Addr(a) = &ops[0] else { return self.unsupported(i) };
                let p = self.place(a, Self::space(f))?;
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
            (O::Activemask, _) => Ok(Op::Activemask { dst: self.dst(&ops[0])? }),
            (O::Vote, _) if has(W::Sync) => {
                let Some(mode) = f.pick(&[
                    (W::Ballot, VoteMode::Ballot),
                    (W::All, VoteMode::All),
                    (W::Any, VoteMode::Any),
                    (W::Uni, VoteMode::Uni),
                ]) else {
                    return self.unsupported(i);
                };
                Ok(Op::Vote {
                    mode,
                    dst: self.dst(&ops[0])?,
                    pred: self.pred_src(&ops[1])?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
            (O::Trap, _) => Ok(Op::Trap),
            (O::Nanosleep, _) => Ok(Op::Nanosleep),
            (O::Brx, _) => Ok(Op::Brx {
                index: self.src(&ops[0], Ty::U32)?,
                targets: self.flow.targets[pc as usize].iter().map(|&t| self.program_pc(t)).collect(),
                reconverge: self.reconverge(pc),
            }),
            (O::Bra, _) => {
                let Some(&target) = self.flow.targets[pc as usize].first() else {
                    return fail(i.span, "branch target not resolved");
                };
                Ok(Op::Bra {
                    target: self.program_pc(target),
                    reconverge: self.reconverge(pc),
                    uni: has(W::Uni),
                })
            }
            (O::Mov, Some(ty)) if ty != Ty::Pred => self.mov(i, f, ty),
            (O::Add | O::Sub, Some(Ty::F32 | Ty::F64)) => {
                let op = if opcode == O::Add { FOp::Add } else { FOp::Sub };
                self.float(op, ty.unwrap_or(Ty::F32), f, ops)
            }
            (O::Mul, Some(ty @ (Ty::F32 | Ty::F64))) => self.float(FOp::Mul, ty, f, ops),
            (O::Fma | O::Mad, Some(ty @ (Ty::F32 | Ty::F64)))
                if opcode == O::Fma || f.pick(groups::RND).is_some() =>
            {
                Ok(Op::Fma {
                    f64: ty == Ty::F64,
                    rnd: f.pick(groups::RND).unwrap_or_default(),
                    ftz: has(W::Ftz),
                    sat: has(W::Sat),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                    c: self.src(&ops[3], ty)?,
                })
            }
            (O::Mul | O::Mad, Some(ty)) if !ty.is_float() && !has(W::Sat) && !has(W::Cc) => {
                let part = if has(W::Hi) {
                    Part::Hi
                } else if has(W::Wide) {
                    Part::Wide
                } else {
                    Part::Lo
                };
                let signed = ty.class() == Class::Signed;
                let (dst, a, b) = (self.dst(&ops[0])?, self.src(&ops[1], ty)?, self.src(&ops[2], ty)?);
                if opcode == O::Mul {
                    Ok(Op::Mul { part, width: width(ty), signed, dst, a, b })
                } else {
                    let c_ty = if part == Part::Wide { Ty::B64 } else { ty };
                    Ok(Op::Mad { part, width: width(ty), signed, dst, a, b, c: self.src(&ops[3], c_ty)? })
                }
            }
            (
                O::Add
                | O::Sub
                | O::Min
                | O::Max
                | O::And
                | O::Or
                | O::Xor
                | O::Shl
                | O::Shr
                | O::Div
                | O::Rem,
                Some(ty),
            ) if !ty.is_float() && ty != Ty::Pred && !has(W::Sat) && !has(W::Cc) => {
                let op = match opcode {
                    O::Add => IntOp::Add,
                    O::Sub => IntOp::Sub,
                    O::Min => IntOp::Min,
                    O::Max => IntOp::Max,
                    O::And => IntOp::And,
                    O::Or => IntOp::Or,
                    O::Xor => IntOp::Xor,
                    O::Shl => IntOp::Shl,
                    O::Shr => IntOp::Shr,
                    O::Div => IntOp::Div,
                    _ => IntOp::Rem,
                };
                let b_ty = if matches!(op, IntOp::Shl | IntOp::Shr) { Ty::U32 } else { ty };
                Ok(Op::Int {
                    op,
                    width: width(ty),
                    signed: ty.class() == Class::Signed,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], b_ty)?,
                })
            }
            (O::Neg | O::Abs, Some(ty)) if ty.class() == Class::Signed => Ok(Op::NegAbs {
                abs: opcode == O::Abs,
                width: width(ty),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
            }),
            (O::Not, Some(ty)) if ty != Ty::Pred => {
                Ok(Op::Not { width: width(ty), dst: self.dst(&ops[0])?, a: self.src(&ops[1], ty)? })
            }
            (O::Setp, Some(ty)) => {
                let Some(op) = f.pick(groups::CMP) else {
                    return self.unsupported(i);
                };
                let (p, q) = match &ops[0] {
                    Operand::Name(n) => (Some(self.pred_row(*n)?), None),
                    Operand::Pair(a, b) => {
                        let side = |o: &Operand| match o {
                            Operand::Name(n) => self.pred_row(*n).map(Some),
                            _ => Ok(None),
                        };
                        (side(a)?, side(b)?)
                    }
                    _ => (None, None),
                };
                let combine = match f.pick(groups::BOOL) {
                    Some(b) => Some((b, self.pred(&ops[3])?)),
                    None => None,
                };
                let kind = cmp_kind(ty, has(W::Ftz));
                Ok(Op::Setp { kind, op, p, q, a: self.src(&ops[1], ty)?, b: self.src(&ops[2], ty)?, combine })
            }
            (O::And | O::Or | O::Xor | O::Not | O::Mov, Some(Ty::Pred)) => {
                let op = match opcode {
                    O::And => PredOp::And,
                    O::Or => PredOp::Or,
                    O::Xor => PredOp::Xor,
                    O::Not => PredOp::Not,
                    _ => PredOp::Mov,
                };
                let Operand::Name(d) = &ops[0] else { return self.unsupported(i) };
                let a = self.pred_src(&ops[1])?;
                let b = match ops.get(2) {
                    Some(o) => self.pred_src(o)?,
                    None => PredSrc::Const(false),
                };
                Ok(Op::PredLogic { op, dst: self.pred_row(*d)?, a, b })
            }
            (O::Set, _) => {
                let &[dty, sty] = f.types() else { return self.unsupported(i) };
                // Half sources set halves (1.0 or 0.0) or all-ones integers, per half
                // for the packed forms (PTX ISA 9.7.4.4).
                let ok = match sty {
                    Ty::F16 | Ty::BF16 => {
                        matches!(dty, Ty::F16 | Ty::BF16 | Ty::U16 | Ty::S16 | Ty::U32 | Ty::S32)
                    }
                    Ty::F16x2 | Ty::BF16x2 => matches!(dty, Ty::F16x2 | Ty::BF16x2 | Ty::U32 | Ty::S32),
                    _ => matches!(dty, Ty::U32 | Ty::S32 | Ty::F32),
                };
                if !ok {
                    return self.unsupported(i);
                }
                let Some(op) = f.pick(groups::CMP) else {
                    return self.unsupported(i);
                };
                let combine = match f.pick(groups::BOOL) {
                    Some(b) => Some((b, self.pred(&ops[3])?)),
                    None => None,
                };
                Ok(Op::Set {
                    kind: cmp_kind(sty, has(W::Ftz)),
                    op,
                    one: set_one(dty, sty),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], sty)?,
                    b: self.src(&ops[2], sty)?,
                    combine,
                })
            }
            (O::Slct, _) => {
                let &[dty, cty] = f.types() else { return self.unsupported(i) };
                Ok(Op::Slct {
                    f32: cty == Ty::F32,
                    ftz: has(W::Ftz),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], dty)?,
                    b: self.src(&ops[2], dty)?,
                    c: self.src(&ops[3], cty)?,
                })
            }
            (O::Selp, Some(ty)) => Ok(Op::Selp {
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
                c: self.pred(&ops[3])?,
            }),
            _ => self.more(i, f),
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

    fn cvt(&self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
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
        if has(W::Relu) || has(W::Satfinite) {
            return self.unsupported(i);
        }
        let (ftz, sat, frnd) = (has(W::Ftz), has(W::Sat), f.pick(groups::RND));
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
            (_, _, Some(d), Some(s)) if round.is_none() => {
                CvtKind::FloatFloat { dst: d, src: s, rnd: frnd.unwrap_or_default(), ftz, sat }
            }
            _ => return self.unsupported(i),
        };
        Ok(Op::Cvt { kind, dst: self.dst(&i.operands[0])?, src: self.src(&i.operands[1], sty)? })
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
        let aty = match ty {
            Ty::U32 | Ty::B32 => AtomTy::U32,
            Ty::S32 => AtomTy::S32,
            Ty::U64 | Ty::B64 => AtomTy::U64,
            Ty::S64 => AtomTy::S64,
            Ty::F32 if matches!(op, AtomOp::Add | AtomOp::Exch | AtomOp::Cas) => AtomTy::F32,
            Ty::F64 if matches!(op, AtomOp::Add | AtomOp::Exch | AtomOp::Cas) => AtomTy::F64,
            _ => return self.unsupported(i),
        };
        if f.pick(groups::VEC).is_some() {
            return self.unsupported(i);
        }
        let ops = i.operands;
        let (dst, rest) = if red { (None, ops) } else { (self.dst_or_sink(&ops[0])?, &ops[1..]) };
        let Operand::Addr(a) = &rest[0] else { return self.unsupported(i) };
        let p = self.place(a, Self::space(f))?;
        let b = self.src(&rest[1], ty)?;
        let c = match rest.get(2) {
            Some(o) => self.src(o, ty)?,
            None => Src::Imm(0),
        };
        Ok(Op::Atom { mem: p.mem, op, ty: aty, dst, addr: p.addr, offset: p.offset, b, c })
    }

    /// `call (rets), f, (args)` and the indirect forms (PTX ISA 9.7.12.9).
    fn call(&self, i: &InstrView<'m>) -> Result<Op, LowerError> {
        let Some(CallForm { rets, target: Operand::Name(target), args, extra, .. }) =
            CallForm::of(i.operands)
        else {
            return self.unsupported(i);
        };
        let extra = match extra {
            Some(Operand::Name(n)) => Some(*n),
            _ => None,
        };
        let (callee, sizes) = match self.named(*target) {
            Some(Named::Func(f)) => {
                let (p, r) = &self.layout.sigs[f as usize];
                (Callee::Direct(f), (p.iter().map(|x| x.2).collect(), r.iter().map(|x| x.2).collect()))
            }
            Some(Named::Reg(slot)) => {
                let declared = extra.and_then(|n| self.proto(n).cloned());
                let sizes = match declared {
                    Some(s) => s,
                    None => {
                        let own =
                            |ops: &[Operand]| ops.iter().map(|o| self.value_size(o).unwrap_or(0)).collect();
                        (own(args), own(rets))
                    }
                };
                (Callee::Indirect(Src::Reg(slot)), sizes)
            }
            _ => {
                let name = self.t(*target);
                return fail(target.span, format!("call: `{name}` is not defined in this module"));
            }
        };
        let value = |o: &Operand, size: u32, dst: bool| -> Result<CallValue, LowerError> {
            match o {
                Operand::Sink(_) if dst => Ok(CallValue::Sink),
                Operand::Name(n) => match self.named(*n) {
                    Some(Named::Frame(v)) => Ok(CallValue::Frame { offset: v.offset, size: v.size }),
                    Some(Named::Reg(s)) => Ok(CallValue::Reg(Src::Reg(s), size)),
                    _ => fail(n.span, format!("call: `{}` cannot be passed", self.t(*n))),
                },
                other if !dst => Ok(CallValue::Reg(self.src(other, Ty::B64)?, size)),
                other => fail(other.span(), "call: a return goes to a .param variable or a register"),
            }
        };
        let args =
            args.iter().enumerate().map(|(k, o)| value(o, sizes.0.get(k).copied().unwrap_or(8), false));
        let rets = rets.iter().enumerate().map(|(k, o)| value(o, sizes.1.get(k).copied().unwrap_or(8), true));
        let call = Call {
            callee,
            args: args.collect::<Result<_, _>>()?,
            rets: rets.collect::<Result<_, _>>()?,
            proto: matches!(callee, Callee::Indirect(_)).then_some(sizes),
        };
        Ok(Op::Call(Box::new(call)))
    }

    /// Bytes of a call operand: a `.param` variable's size or a register's width.
    fn value_size(&self, o: &Operand) -> Option<u32> {
        let Operand::Name(n) = o else { return None };
        match self.named(*n)? {
            Named::Frame(v) => Some(v.size),
            Named::Reg(s) => Some(s.ty.bits().div_ceil(8)),
            _ => None,
        }
    }

    fn float(&self, op: FOp, ty: Ty, f: &Form, ops: &[Operand]) -> Result<Op, LowerError> {
        Ok(Op::Float {
            op,
            f64: ty == Ty::F64,
            rnd: f.pick(groups::RND).unwrap_or_default(),
            ftz: f.has(W::Ftz),
            sat: f.has(W::Sat),
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
        })
    }
}

/// How values of `ty` compare.
fn cmp_kind(ty: Ty, ftz: bool) -> CmpKind {
    match ty {
        Ty::F32 => CmpKind::F32 { ftz },
        Ty::F64 => CmpKind::F64,
        Ty::F16 => CmpKind::F16 { ftz },
        Ty::BF16 => CmpKind::BF16,
        Ty::F16x2 => CmpKind::F16x2 { ftz },
        Ty::BF16x2 => CmpKind::BF16x2,
        t => CmpKind::Int { width: Width(t.bits()), signed: t.class() == Class::Signed },
    }
}
