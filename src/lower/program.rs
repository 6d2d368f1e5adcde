//! Decoding a checked kernel into instructions the executor only dispatches on
//! (DESIGN.md, principle 1): registers resolved to slots, immediates to bits, labels
//! to pcs, kernel parameters to offsets, and for every branch its reconvergence pc.
//!
//! This is the first slice of the instruction set (moves, parameters, global loads and
//! stores, integer and f32/f64 arithmetic, comparisons, selection, branches, exit);
//! anything else is a [`LowerError`] naming the instruction and its place, never a
//! silent guess.

use super::flow::Flow;
pub use super::ops::*;
use super::regs::{RegFile, RegScopes, Slot};
use crate::check::types::{Class, Ty};
use crate::sem::compare::{BoolOp, CmpOp};
use crate::sem::convert::{IntRound, IntTy};
use crate::sem::float::FOp;
use crate::sem::int::{Part, Width};
use crate::syntax::Span;
use crate::syntax::ast::*;
use rustc_hash::FxHashMap as HashMap;

struct Decoder<'m> {
    src: &'m str,
    pool: &'m Pool,
    regs: RegScopes<'m>,
    params: HashMap<&'m str, (Ty, u32)>,
    /// Static `.shared` variables: name -> offset in the CTA's shared memory.
    shared: HashMap<&'m str, u32>,
    shared_bytes: u32,
    flow: &'m Flow<'m>,
    insts: Vec<Inst>,
}

fn fail<T>(span: Span, message: impl Into<String>) -> Result<T, LowerError> {
    Err(LowerError { span, message: message.into() })
}

/// Decodes kernel `f` of a module that `check` accepted.
///
/// # Errors
/// A [`LowerError`] for the first instruction or parameter ptxvm cannot run yet.
pub fn lower_kernel(module: &Module, src: &str, f: &Function) -> Result<Kernel, LowerError> {
    let Some(body) = &f.body else { return fail(f.name.span, "the kernel has no body") };
    let mut params = HashMap::default();
    let mut layout = Vec::new();
    let mut offset = 0u32;
    for p in &f.params {
        let ty = Ty::from_word(p.ty.text(src)).unwrap_or(Ty::Other);
        let elems: u64 = p.array.iter().map(|d| d.unwrap_or(1)).product();
        let size = (u64::from(ty.bits().div_ceil(8)) * elems) as u32;
        let align = p.align.unwrap_or(ty.bits().div_ceil(8)).max(1);
        offset = offset.div_ceil(align) * align;
        if let Some(n) = p.name {
            params.insert(n.text(src), (ty, offset));
        }
        layout.push((ty, offset, size));
        offset += size;
    }
    let flow = Flow::build(module, src, body);
    let mut d = Decoder {
        src,
        pool: &module.pool,
        regs: RegScopes::default(),
        params,
        shared: HashMap::default(),
        shared_bytes: 0,
        flow: &flow,
        insts: Vec::new(),
    };
    for item in &module.items {
        if let Item::Var(v) = item
            && v.space == Space::Shared
        {
            d.shared_var(v)?;
        }
    }
    d.regs.enter();
    d.block(body)?;
    Ok(Kernel {
        name: f.name.text(src).to_string(),
        params: layout,
        param_bytes: offset,
        insts: d.insts,
        rows: d.regs.counts(),
        shared_bytes: d.shared_bytes,
    })
}

impl<'m> Decoder<'m> {
    fn t(&self, n: Name) -> &'m str {
        n.span.text(self.src)
    }

    fn block(&mut self, b: &'m Block) -> Result<(), LowerError> {
        for s in self.pool.stmts(b) {
            match s {
                Stmt::Var(v) if v.space == Space::Reg => {
                    let ty = Ty::from_word(self.t(v.ty)).unwrap_or(Ty::Other);
                    for d in &v.vars {
                        if self.regs.declare(self.t(d.name), ty, d.count).is_none() {
                            return fail(
                                d.name.span,
                                format!("registers of type {} are not supported yet", ty.word()),
                            );
                        }
                    }
                }
                Stmt::Var(v) if v.space == Space::Shared => self.shared_var(v)?,
                Stmt::Var(v) => {
                    return fail(v.span, "local and nested .param variables are not supported yet");
                }
                Stmt::Block(inner) => {
                    self.regs.enter();
                    self.block(inner)?;
                    self.regs.exit();
                }
                Stmt::Instr(i) => {
                    let pc = self.insts.len();
                    let view = self.pool.view(i);
                    let guard =
                        view.guard.map(|g| self.pred_row(g.pred).map(|row| Pred { row, negated: g.negated }));
                    let guard = guard.transpose()?;
                    let op = self.op(&view, pc)?;
                    self.insts.push(Inst { guard, op, span: view.span });
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Lays out a static `.shared` declaration.
    fn shared_var(&mut self, v: &'m VarDecl) -> Result<(), LowerError> {
        let ty = Ty::from_word(self.t(v.ty)).unwrap_or(Ty::Other);
        let elem = u64::from(ty.bits().div_ceil(8)) * u64::from(v.vector.unwrap_or(1));
        let align = u64::from(v.align.unwrap_or(elem as u32).max(1));
        for d in &v.vars {
            let Some(elems) = d.array.iter().try_fold(1u64, |n, x| x.map(|x| n * x)) else {
                return fail(d.name.span, "dynamic (unsized) shared memory is not supported yet");
            };
            let offset = u64::from(self.shared_bytes).div_ceil(align) * align;
            let end = offset + elems * elem;
            if end > crate::launch::MAX_DYNAMIC_SHARED {
                return fail(d.name.span, "shared memory beyond 227 KiB per block");
            }
            self.shared.insert(self.t(d.name), offset as u32);
            self.shared_bytes = end as u32;
        }
        Ok(())
    }

    /// The base of a shared-memory address: a register holding an offset, a
    /// `.shared` variable's offset, or 0 for an absolute `[imm]`.
    fn shared_base(&self, a: &Address) -> Result<Src, LowerError> {
        match a.base {
            Some(b) => self.src(&Operand::Name(b), Ty::U32),
            None => Ok(Src::Imm(0)),
        }
    }

    fn unsupported<T>(&self, i: &InstrView<'_>) -> Result<T, LowerError> {
        let name = i.full_name(self.src);
        fail(i.span, format!("{name}: ptxvm cannot run this instruction yet"))
    }

    fn slot(&self, n: Name) -> Result<Slot, LowerError> {
        match self.regs.resolve(self.t(n)) {
            Some(s) => Ok(s),
            None => fail(n.span, format!("`{}` is not a register ptxvm can run with yet", self.t(n))),
        }
    }

    fn pred_row(&self, n: Name) -> Result<u32, LowerError> {
        match self.slot(n)? {
            Slot { file: RegFile::Pred, index, .. } => Ok(index),
            _ => fail(n.span, format!("`{}` is not a predicate", self.t(n))),
        }
    }

    fn pred(&self, op: &Operand) -> Result<Pred, LowerError> {
        match op {
            Operand::Name(n) => Ok(Pred { row: self.pred_row(*n)?, negated: false }),
            Operand::Not(inner, _) => Ok(Pred { negated: true, ..self.pred(inner)? }),
            other => fail(other.span(), "only predicate registers are supported here yet"),
        }
    }

    fn pred_src(&self, op: &Operand) -> Result<PredSrc, LowerError> {
        match op {
            Operand::Int { bits, .. } => Ok(PredSrc::Const(*bits != 0)),
            Operand::Not(inner, _) if matches!(**inner, Operand::Int { .. }) => match self.pred_src(inner)? {
                PredSrc::Const(v) => Ok(PredSrc::Const(!v)),
                other => Ok(other),
            },
            other => Ok(PredSrc::Reg(self.pred(other)?)),
        }
    }

    fn dst(&self, op: &Operand) -> Result<Slot, LowerError> {
        match op {
            Operand::Name(n) => self.slot(*n),
            other => fail(other.span(), "only a register destination is supported here yet"),
        }
    }

    /// A source operand read as type `ty` (immediates converted to its bits).
    fn src(&self, op: &Operand, ty: Ty) -> Result<Src, LowerError> {
        match op {
            Operand::Name(n)
                if self.regs.resolve(self.t(*n)).is_none() && self.shared.contains_key(self.t(*n)) =>
            {
                Ok(Src::Imm(u64::from(self.shared[self.t(*n)])))
            }
            Operand::Name(n) => Ok(Src::Reg(self.slot(*n)?)),
            Operand::Int { bits, .. } => Ok(Src::Imm(*bits)),
            Operand::Float { bits, is_f32_bits, .. } => Ok(Src::Imm(match (ty, is_f32_bits) {
                (Ty::F32, true) | (Ty::F64, false) | (Ty::B32, true) | (Ty::B64, false) => *bits,
                (Ty::F32, false) => u64::from((f64::from_bits(*bits) as f32).to_bits()),
                (Ty::F64, true) => f64::from(f32::from_bits(*bits as u32)).to_bits(),
                _ => return fail(op.span(), "this immediate is not supported here yet"),
            })),
            other => fail(other.span(), "this operand form is not supported here yet"),
        }
    }

    fn op(&mut self, i: &InstrView<'m>, pc: usize) -> Result<Op, LowerError> {
        let mods: Vec<&str> = i.mods.iter().map(|m| self.t(*m)).collect();
        let ty = mods.iter().rev().find_map(|m| Ty::from_word(m));
        let has = |m: &str| mods.contains(&m);
        let ops = i.operands;
        let opcode = self.t(i.opcode);
        let width = |ty: Ty| Width(ty.bits());
        match (opcode, ty) {
            ("ret" | "exit", _) => Ok(Op::Exit),
            ("cvt", _) => {
                let types: Vec<Ty> = mods.iter().filter_map(|m| Ty::from_word(m)).collect();
                let [dty, sty] = types[..] else { return self.unsupported(i) };
                let int = |t: Ty| {
                    (!t.is_float() && t != Ty::Pred && t.bits() >= 8)
                        .then(|| IntTy { bits: t.bits(), signed: t.class() == Class::Signed })
                };
                let round = if has(".rni") {
                    Some(IntRound::Nearest)
                } else if has(".rzi") {
                    Some(IntRound::Zero)
                } else if has(".rmi") {
                    Some(IntRound::Down)
                } else if has(".rpi") {
                    Some(IntRound::Up)
                } else {
                    None
                };
                let plain = !has(".ftz") && !mods.iter().any(|m| matches!(*m, ".rz" | ".rm" | ".rp"));
                let kind = match (int(dty), int(sty), dty, sty) {
                    (Some(d), Some(s), ..) if round.is_none() => {
                        CvtKind::IntInt { dst: d, src: s, sat: has(".sat") }
                    }
                    (Some(d), None, _, Ty::F32 | Ty::F64) if plain && !has(".sat") => match round {
                        Some(r) => CvtKind::FloatInt { dst: d, src_f64: sty == Ty::F64, round: r },
                        None => return self.unsupported(i),
                    },
                    (None, Some(s), Ty::F32 | Ty::F64, _) if plain && !has(".sat") && round.is_none() => {
                        CvtKind::IntFloat { dst_f64: dty == Ty::F64, src: s }
                    }
                    (None, None, Ty::F64, Ty::F32) if plain && !has(".sat") => CvtKind::F32ToF64,
                    (None, None, Ty::F32, Ty::F64) if plain && !has(".sat") && round.is_none() => {
                        CvtKind::F64ToF32
                    }
                    _ => return self.unsupported(i),
                };
                Ok(Op::Cvt { kind, dst: self.dst(&ops[0])?, src: self.src(&ops[1], sty)? })
            }
            ("bar" | "barrier", _) if has(".sync") && ops.len() == 1 && !has(".red") => Ok(Op::Bar),
            ("ld", Some(ty)) if has(".shared") && !mods.iter().any(|m| m.starts_with(".v")) => {
                let Operand::Addr(a) = &ops[1] else { return self.unsupported(i) };
                let addr = self.shared_base(a)?;
                Ok(Op::LdShared {
                    dst: self.dst(&ops[0])?,
                    addr,
                    offset: a.offset,
                    size: ty.bits().div_ceil(8) as u8,
                    signed: ty.class() == Class::Signed,
                })
            }
            ("st", Some(ty)) if has(".shared") && !mods.iter().any(|m| m.starts_with(".v")) => {
                let Operand::Addr(a) = &ops[0] else { return self.unsupported(i) };
                let addr = self.shared_base(a)?;
                Ok(Op::StShared {
                    addr,
                    offset: a.offset,
                    src: self.src(&ops[1], ty)?,
                    size: ty.bits().div_ceil(8) as u8,
                })
            }
            ("activemask", _) => Ok(Op::Activemask { dst: self.dst(&ops[0])? }),
            ("vote", _) if has(".sync") => {
                let mode = if has(".ballot") {
                    VoteMode::Ballot
                } else if has(".all") {
                    VoteMode::All
                } else if has(".any") {
                    VoteMode::Any
                } else if has(".uni") {
                    VoteMode::Uni
                } else {
                    return self.unsupported(i);
                };
                Ok(Op::Vote {
                    mode,
                    dst: self.dst(&ops[0])?,
                    pred: self.pred_src(&ops[1])?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
            ("trap", _) => Ok(Op::Trap),
            ("nanosleep", _) => Ok(Op::Nanosleep),
            ("brx", _) => {
                let block = self.flow.block_of[pc] as usize;
                Ok(Op::Brx {
                    index: self.src(&ops[0], Ty::U32)?,
                    targets: self.flow.targets[pc].clone(),
                    reconverge: self.flow.reconverge[block],
                })
            }
            ("bra", _) => {
                let target = self.flow.targets[pc].first().copied().ok_or_else(|| LowerError {
                    span: i.span,
                    message: "branch target not resolved".into(),
                })?;
                let block = self.flow.block_of[pc] as usize;
                Ok(Op::Bra { target, reconverge: self.flow.reconverge[block] })
            }
            ("mov", Some(ty)) if ty != Ty::Pred => match &ops[1] {
                Operand::Component(base, comp) => {
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
                    Ok(Op::MovSpecial { dst: self.dst(&ops[0])?, sreg })
                }
                Operand::Name(n) if matches!(self.t(*n), "%laneid" | "%warpid" | "%nwarpid") => {
                    let sreg = match self.t(*n) {
                        "%laneid" => Special::Laneid,
                        "%warpid" => Special::Warpid,
                        _ => Special::Nwarpid,
                    };
                    Ok(Op::MovSpecial { dst: self.dst(&ops[0])?, sreg })
                }
                src => Ok(Op::Mov { dst: self.dst(&ops[0])?, src: self.src(src, ty)? }),
            },
            ("ld", Some(ty)) if has(".param") => {
                let Operand::Addr(a) = &ops[1] else { return self.unsupported(i) };
                let Some(&(_, base)) = a.base.and_then(|b| self.params.get(self.t(b))) else {
                    return self.unsupported(i);
                };
                let offset = (i64::from(base) + a.offset) as u32;
                let size = ty.bits().div_ceil(8) as u8;
                Ok(Op::LdParam { dst: self.dst(&ops[0])?, offset, size, signed: ty.class() == Class::Signed })
            }
            ("ld", Some(ty)) if scalar_global(&mods) => {
                let Operand::Addr(a) = &ops[1] else { return self.unsupported(i) };
                let Some(base) = a.base else { return self.unsupported(i) };
                let size = ty.bits().div_ceil(8) as u8;
                let signed = ty.class() == Class::Signed;
                Ok(Op::Ld {
                    dst: self.dst(&ops[0])?,
                    addr: Src::Reg(self.slot(base)?),
                    offset: a.offset,
                    size,
                    signed,
                })
            }
            ("st", Some(ty)) if scalar_global(&mods) => {
                let Operand::Addr(a) = &ops[0] else { return self.unsupported(i) };
                let Some(base) = a.base else { return self.unsupported(i) };
                let size = ty.bits().div_ceil(8) as u8;
                Ok(Op::St {
                    addr: Src::Reg(self.slot(base)?),
                    offset: a.offset,
                    src: self.src(&ops[1], ty)?,
                    size,
                })
            }
            // Global and generic addresses are the same numbers in ptxvm.
            ("cvta", Some(ty)) if has(".global") => {
                Ok(Op::Mov { dst: self.dst(&ops[0])?, src: self.src(&ops[1], ty)? })
            }
            ("add" | "sub", Some(ty)) if ty.is_float() && matches!(ty, Ty::F32 | Ty::F64) => {
                let op = if opcode == "add" { FOp::Add } else { FOp::Sub };
                self.float(op, ty, &mods, ops)
            }
            ("mul", Some(ty)) if matches!(ty, Ty::F32 | Ty::F64) => self.float(FOp::Mul, ty, &mods, ops),
            ("fma", Some(ty)) if matches!(ty, Ty::F32 | Ty::F64) => Ok(Op::Fma {
                f64: ty == Ty::F64,
                ftz: has(".ftz"),
                sat: has(".sat"),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
                c: self.src(&ops[3], ty)?,
            }),
            ("mul" | "mad", Some(ty)) if !ty.is_float() && !has(".sat") && !has(".cc") => {
                let part = if has(".hi") {
                    Part::Hi
                } else if has(".wide") {
                    Part::Wide
                } else {
                    Part::Lo
                };
                let signed = ty.class() == Class::Signed;
                let (dst, a, b) = (self.dst(&ops[0])?, self.src(&ops[1], ty)?, self.src(&ops[2], ty)?);
                if opcode == "mul" {
                    Ok(Op::Mul { part, width: width(ty), signed, dst, a, b })
                } else {
                    Ok(Op::Mad { part, width: width(ty), signed, dst, a, b, c: self.src(&ops[3], ty)? })
                }
            }
            (
                "add" | "sub" | "min" | "max" | "and" | "or" | "xor" | "shl" | "shr" | "div" | "rem",
                Some(ty),
            ) if !ty.is_float() && ty != Ty::Pred && !has(".sat") && !has(".cc") => {
                let op = match opcode {
                    "add" => IntOp::Add,
                    "sub" => IntOp::Sub,
                    "min" => IntOp::Min,
                    "max" => IntOp::Max,
                    "and" => IntOp::And,
                    "or" => IntOp::Or,
                    "xor" => IntOp::Xor,
                    "shl" => IntOp::Shl,
                    "shr" => IntOp::Shr,
                    "div" => IntOp::Div,
                    _ => IntOp::Rem,
                };
                let b_ty = if matches!(op, IntOp::Shl | IntOp::Shr) { Ty::U32 } else { ty };
                let signed = ty.class() == Class::Signed;
                Ok(Op::Int {
                    op,
                    width: width(ty),
                    signed,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], b_ty)?,
                })
            }
            ("neg" | "abs", Some(ty)) if ty.class() == Class::Signed => Ok(Op::NegAbs {
                abs: opcode == "abs",
                width: width(ty),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
            }),
            ("not", Some(ty)) if ty != Ty::Pred => {
                Ok(Op::Not { width: width(ty), dst: self.dst(&ops[0])?, a: self.src(&ops[1], ty)? })
            }
            ("setp", Some(ty)) => {
                let Some(op) = mods.iter().find_map(|m| CmpOp::from_word(m)) else {
                    return self.unsupported(i);
                };
                let kind = cmp_kind(ty, has(".ftz"));
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
                let combine = match boolop(&mods) {
                    Some(b) => Some((b, self.pred(&ops[3])?)),
                    None => None,
                };
                Ok(Op::Setp { kind, op, p, q, a: self.src(&ops[1], ty)?, b: self.src(&ops[2], ty)?, combine })
            }
            ("and" | "or" | "xor" | "not" | "mov", Some(Ty::Pred)) => {
                let op = match opcode {
                    "and" => PredOp::And,
                    "or" => PredOp::Or,
                    "xor" => PredOp::Xor,
                    "not" => PredOp::Not,
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
            ("set", _) => {
                let types: Vec<Ty> = mods.iter().filter_map(|m| Ty::from_word(m)).collect();
                let [dty, sty] = types[..] else { return self.unsupported(i) };
                if !matches!(dty, Ty::U32 | Ty::S32 | Ty::F32)
                    || matches!(sty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)
                {
                    return self.unsupported(i);
                }
                let Some(op) = mods.iter().find_map(|m| CmpOp::from_word(m)) else {
                    return self.unsupported(i);
                };
                let combine = match boolop(&mods) {
                    Some(b) => Some((b, self.pred(&ops[3])?)),
                    None => None,
                };
                Ok(Op::Set {
                    kind: cmp_kind(sty, has(".ftz")),
                    op,
                    float_dtype: dty == Ty::F32,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], sty)?,
                    b: self.src(&ops[2], sty)?,
                    combine,
                })
            }
            ("slct", _) => {
                let types: Vec<Ty> = mods.iter().filter_map(|m| Ty::from_word(m)).collect();
                let [dty, cty] = types[..] else { return self.unsupported(i) };
                Ok(Op::Slct {
                    f32: cty == Ty::F32,
                    ftz: has(".ftz"),
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], dty)?,
                    b: self.src(&ops[2], dty)?,
                    c: self.src(&ops[3], cty)?,
                })
            }
            ("selp", Some(ty)) => Ok(Op::Selp {
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
                c: self.pred(&ops[3])?,
            }),
            _ => self.unsupported(i),
        }
    }

    fn float(&self, op: FOp, ty: Ty, mods: &[&str], ops: &[Operand]) -> Result<Op, LowerError> {
        Ok(Op::Float {
            op,
            f64: ty == Ty::F64,
            ftz: mods.contains(&".ftz"),
            sat: mods.contains(&".sat"),
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
        })
    }
}

/// A scalar `ld`/`st` in global (or generic) memory: the forms decoded so far.
fn scalar_global(mods: &[&str]) -> bool {
    !mods.iter().any(|m| matches!(*m, ".shared" | ".local" | ".const" | ".param") || m.starts_with(".v"))
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

/// The BoolOp among a comparison's modifiers.
fn boolop(mods: &[&str]) -> Option<BoolOp> {
    mods.iter().find_map(|m| match *m {
        ".and" => Some(BoolOp::And),
        ".or" => Some(BoolOp::Or),
        ".xor" => Some(BoolOp::Xor),
        _ => None,
    })
}
