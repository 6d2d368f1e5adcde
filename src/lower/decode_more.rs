//! Instruction forms beyond the core set of `decode_ops.rs`: bit manipulation,
//! extended-precision (carry) arithmetic, floating-point sign, min/max, division and
//! square root in every rounding mode, memory fences and the warp-wide `shfl.sync`
//! and `redux.sync`. Each decodes into one [`Op`]; anything else stays a clear
//! "cannot run this instruction yet".

use super::decode::Decoder;
use super::decode_ops::pick;
use super::decode_ops::rnd;
pub use super::ops::*;
use super::program::fail;
use crate::check::types::{Class, Ty};
use crate::sem::bits::PrmtMode;
use crate::sem::float::{FOp, MinMax};
use crate::sem::int::{Part, Width};
use crate::sem::warp::{ReduxOp, ShflMode};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    /// The predicate row of the carry flag, allocated on first use.
    fn carry_row(&mut self, span: crate::syntax::Span) -> Result<u32, LowerError> {
        if let Some(row) = self.carry {
            return Ok(row);
        }
        // A name no PTX register can have: the row is reached only through `carry`.
        let Some(slot) = self.regs.declare("%carry flag", Ty::Pred, None) else {
            return fail(span, "no register row for the carry flag");
        };
        self.carry = Some(slot.index);
        Ok(slot.index)
    }

    pub(super) fn more(&mut self, i: &InstrView<'m>, mods: &[&str]) -> Result<Op, LowerError> {
        let has = |m: &str| mods.contains(&m);
        let ty = mods.iter().rev().find_map(|m| Ty::from_word(m));
        let ops = i.operands;
        let opcode = self.t(i.opcode);
        let signed = ty.is_some_and(|t| t.class() == Class::Signed);
        let width = Width(ty.map_or(32, Ty::bits));
        match (opcode, ty) {
            ("membar" | "fence", _) => Ok(Op::Fence),
            ("shfl", _) if has(".sync") => {
                let Some(mode) = pick(
                    mods,
                    &[
                        (".up", ShflMode::Up),
                        (".down", ShflMode::Down),
                        (".bfly", ShflMode::Bfly),
                        (".idx", ShflMode::Idx),
                    ],
                ) else {
                    return self.unsupported(i);
                };
                let (dst, p) = self.dst_and_pred(&ops[0])?;
                Ok(Op::Shfl {
                    mode,
                    dst,
                    p,
                    a: self.src(&ops[1], Ty::B32)?,
                    b: self.src(&ops[2], Ty::B32)?,
                    c: self.src(&ops[3], Ty::B32)?,
                    members: self.src(&ops[4], Ty::B32)?,
                })
            }
            ("match", Some(ty @ (Ty::B32 | Ty::B64))) if has(".sync") && (has(".any") || has(".all")) => {
                let (dst, p) = self.dst_and_pred(&ops[0])?;
                Ok(Op::Match {
                    all: has(".all"),
                    dst,
                    p,
                    a: self.src(&ops[1], ty)?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
            ("redux", Some(ty)) if has(".sync") && ty.bits() == 32 && !ty.is_float() => {
                let Some(op) = pick(
                    mods,
                    &[
                        (".add", ReduxOp::Add),
                        (".min", ReduxOp::Min),
                        (".max", ReduxOp::Max),
                        (".and", ReduxOp::And),
                        (".or", ReduxOp::Or),
                        (".xor", ReduxOp::Xor),
                    ],
                ) else {
                    return self.unsupported(i);
                };
                Ok(Op::Redux {
                    op,
                    signed,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
            ("popc" | "clz" | "brev" | "bfind", Some(ty)) if matches!(ty.bits(), 32 | 64) => {
                let op = match opcode {
                    "popc" => BitOp1::Popc,
                    "clz" => BitOp1::Clz,
                    "brev" => BitOp1::Brev,
                    _ => BitOp1::Bfind { signed, shiftamt: has(".shiftamt") },
                };
                Ok(Op::Bits1 { op, width, dst: self.dst(&ops[0])?, a: self.src(&ops[1], ty)? })
            }
            ("bfe", Some(ty)) if matches!(ty.bits(), 32 | 64) => {
                self.bits(BitOp::Bfe { signed }, width, ops, &[ty, Ty::U32, Ty::U32])
            }
            ("bfi", Some(ty)) if matches!(ty.bits(), 32 | 64) => {
                self.bits(BitOp::Bfi, width, ops, &[ty, ty, Ty::U32, Ty::U32])
            }
            ("prmt", Some(Ty::B32)) => {
                let mode = pick(
                    mods,
                    &[
                        (".f4e", PrmtMode::F4e),
                        (".b4e", PrmtMode::B4e),
                        (".rc8", PrmtMode::Rc8),
                        (".ecl", PrmtMode::Ecl),
                        (".ecr", PrmtMode::Ecr),
                        (".rc16", PrmtMode::Rc16),
                    ],
                )
                .unwrap_or(PrmtMode::Generic);
                self.bits(BitOp::Prmt(mode), width, ops, &[Ty::B32; 3])
            }
            ("shf", Some(Ty::B32)) if has(".l") || has(".r") => {
                let op = BitOp::Shf { left: has(".l"), clamp: has(".clamp") };
                self.bits(op, width, ops, &[Ty::B32, Ty::B32, Ty::U32])
            }
            ("sad", Some(ty)) if !ty.is_float() => self.bits(BitOp::Sad { signed }, width, ops, &[ty; 3]),
            ("mul24" | "mad24", Some(ty @ (Ty::U32 | Ty::S32))) if !has(".sat") => {
                let mad = opcode == "mad24";
                let op = BitOp::Mul24 { hi: has(".hi"), signed, mad };
                let tys = [ty; 3];
                self.bits(op, width, ops, &tys[..if mad { 3 } else { 2 }])
            }
            ("copysign", Some(ty @ (Ty::F32 | Ty::F64))) => self.bits(BitOp::Copysign, width, ops, &[ty; 2]),
            ("add" | "sub", Some(Ty::S32)) if has(".sat") => {
                self.bits(BitOp::SatS32 { subtract: opcode == "sub" }, width, ops, &[Ty::S32; 2])
            }
            ("add" | "sub" | "addc" | "subc", Some(ty))
                if !ty.is_float()
                    && matches!(ty.bits(), 32 | 64)
                    && (has(".cc") || opcode.ends_with('c')) =>
            {
                let op = if opcode.starts_with("add") { CarryOp::Add } else { CarryOp::Sub };
                self.carry(op, ty, opcode.ends_with('c'), has(".cc"), i, false)
            }
            ("mad" | "madc", Some(ty))
                if !ty.is_float()
                    && matches!(ty.bits(), 32 | 64)
                    && !has(".wide")
                    && !has(".sat")
                    && (has(".cc") || opcode == "madc") =>
            {
                let part = if has(".hi") { Part::Hi } else { Part::Lo };
                self.carry(CarryOp::Mad { part, signed }, ty, opcode == "madc", has(".cc"), i, true)
            }
            ("abs" | "neg", Some(ty @ (Ty::F32 | Ty::F64))) => {
                let op = if opcode == "abs" { FUnary::Abs } else { FUnary::Neg };
                self.funary(op, ty, Rnd::Rn, mods, ops)
            }
            ("sqrt" | "rcp", Some(ty @ (Ty::F32 | Ty::F64))) if !has(".approx") => {
                let Some(r) = rnd(mods) else { return self.unsupported(i) };
                let op = if opcode == "sqrt" { FUnary::Sqrt } else { FUnary::Rcp };
                self.funary(op, ty, r, mods, ops)
            }
            ("div", Some(ty @ (Ty::F32 | Ty::F64))) => {
                // `div.approx` and `div.full` are approximations the ISA does not pin down.
                let Some(r) = rnd(mods) else { return self.unsupported(i) };
                Ok(Op::Float {
                    op: FOp::Div,
                    f64: ty == Ty::F64,
                    rnd: r,
                    ftz: has(".ftz"),
                    sat: false,
                    dst: self.dst(&ops[0])?,
                    a: self.src(&ops[1], ty)?,
                    b: self.src(&ops[2], ty)?,
                })
            }
            (
                "add" | "sub" | "mul" | "fma" | "neg" | "abs" | "min" | "max",
                Some(ty @ (Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)),
            ) if matches!(rnd(mods), None | Some(Rnd::Rn)) && !has(".relu") => {
                let op = match opcode {
                    "add" => HalfOp::Bin(FOp::Add),
                    "sub" => HalfOp::Bin(FOp::Sub),
                    "mul" => HalfOp::Bin(FOp::Mul),
                    "fma" => HalfOp::Fma,
                    "neg" => HalfOp::Neg,
                    "abs" => HalfOp::Abs,
                    _ => HalfOp::MinMax(MinMax {
                        max: opcode == "max",
                        nan: has(".NaN"),
                        xorsign_abs: has(".xorsign"),
                    }),
                };
                let bf = matches!(ty, Ty::BF16 | Ty::BF16x2);
                let x2 = matches!(ty, Ty::F16x2 | Ty::BF16x2);
                let src = |k: usize| match ops.get(k) {
                    Some(o) => self.src(o, ty),
                    None => Ok(Src::Imm(0)),
                };
                Ok(Op::Half {
                    op,
                    fmt: if bf { crate::sem::round::BF16 } else { crate::sem::round::F16 },
                    x2,
                    ftz: has(".ftz"),
                    sat: has(".sat"),
                    dst: self.dst(&ops[0])?,
                    a: src(1)?,
                    b: src(2)?,
                    c: src(3)?,
                })
            }
            ("min" | "max", Some(ty @ (Ty::F32 | Ty::F64))) if ops.len() == 3 => Ok(Op::FMinMax {
                m: MinMax { max: opcode == "max", nan: has(".NaN"), xorsign_abs: has(".xorsign") },
                f64: ty == Ty::F64,
                ftz: has(".ftz"),
                dst: self.dst(&ops[0])?,
                a: self.src(&ops[1], ty)?,
                b: self.src(&ops[2], ty)?,
            }),
            _ => self.unsupported(i),
        }
    }

    /// A [`BitOp`] with sources of the types `tys` (the rest are 0).
    fn bits(&self, op: BitOp, width: Width, ops: &[Operand], tys: &[Ty]) -> Result<Op, LowerError> {
        let mut srcs = [Src::Imm(0); 4];
        for (k, ty) in tys.iter().enumerate() {
            let Some(o) = ops.get(k + 1) else { return fail(ops[0].span(), "missing operand") };
            srcs[k] = self.src(o, *ty)?;
        }
        Ok(Op::Bits { op, width, dst: self.dst(&ops[0])?, srcs })
    }

    fn carry(
        &mut self,
        op: CarryOp,
        ty: Ty,
        cin: bool,
        cout: bool,
        i: &InstrView<'m>,
        three: bool,
    ) -> Result<Op, LowerError> {
        let ops = i.operands;
        Ok(Op::Carry {
            op,
            width: Width(ty.bits()),
            cin,
            cout,
            cc: self.carry_row(i.span)?,
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
            b: self.src(&ops[2], ty)?,
            c: if three { self.src(&ops[3], ty)? } else { Src::Imm(0) },
        })
    }

    fn funary(&self, op: FUnary, ty: Ty, rnd: Rnd, mods: &[&str], ops: &[Operand]) -> Result<Op, LowerError> {
        Ok(Op::FUnary {
            op,
            f64: ty == Ty::F64,
            rnd,
            ftz: mods.contains(&".ftz"),
            dst: self.dst(&ops[0])?,
            a: self.src(&ops[1], ty)?,
        })
    }
}
