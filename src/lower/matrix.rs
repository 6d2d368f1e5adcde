//! Decoding the matrix instructions that run: `ldmatrix`, `stmatrix` and `mma.sync` (PTX ISA
//! 9.7.14.5). All are warp-wide; `exec/matrix.rs` gathers every lane's fragment.

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W};
use crate::lower::regs::Slot;
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn matrix_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let has = |w: W| f.has(w);
        let ops = i.operands;
        match f.opcode {
            O::Ldmatrix if has(W::M8n8) && f.ty() == Some(Ty::B16) => {
                let count = f.pick(&[(W::X4, 4), (W::X2, 2)]).unwrap_or(1);
                let (Some(Operand::Vector(items, _)), Some(Operand::Addr(a))) = (ops.first(), ops.get(1))
                else {
                    return self.unsupported(i);
                };
                if items.len() != count {
                    return self.unsupported(i);
                }
                // The first `count` are the destinations; the rest repeat the first.
                let mut dsts: [Slot; 4] = [self.dst(&items[0])?; 4];
                for (k, item) in items.iter().enumerate() {
                    dsts[k] = self.dst(item)?;
                }
                let p = self.place(a, Self::space(f))?;
                Ok(Op::Ldmatrix {
                    count: count as u8,
                    trans: has(W::Trans),
                    dsts,
                    mem: p.mem,
                    addr: p.addr,
                    offset: p.offset,
                })
            }
            O::Stmatrix if has(W::M8n8) && f.ty() == Some(Ty::B16) => {
                let count = f.pick(&[(W::X4, 4), (W::X2, 2)]).unwrap_or(1);
                let (Some(Operand::Addr(a)), Some(Operand::Vector(items, _))) = (ops.first(), ops.get(1))
                else {
                    return self.unsupported(i);
                };
                if items.len() != count {
                    return self.unsupported(i);
                }
                let mut srcs = [Src::Imm(0); 4];
                for (k, item) in items.iter().enumerate() {
                    srcs[k] = self.src(item, Ty::B32)?;
                }
                let p = self.place(a, Self::space(f))?;
                Ok(Op::Stmatrix {
                    count: count as u8,
                    trans: has(W::Trans),
                    srcs,
                    mem: p.mem,
                    addr: p.addr,
                    offset: p.offset,
                })
            }
            O::Mma if has(W::Row) && has(W::Col) => {
                // The form keeps three types; mma has four (D, A, B, C).
                let tys: Vec<Ty> = i.mods.iter().filter_map(|m| Ty::from_word(self.t(*m))).collect();
                let kind = match (
                    tys.as_slice(),
                    has(W::M16n8k16),
                    has(W::M16n8k8),
                    has(W::M16n8k32),
                    has(W::M8n8k4),
                ) {
                    ([Ty::F32, Ty::F16, Ty::F16, Ty::F32], true, ..) => {
                        MmaKind::Half { bf16: false, acc16: false }
                    }
                    ([Ty::F16, Ty::F16, Ty::F16, Ty::F16], true, ..) => {
                        MmaKind::Half { bf16: false, acc16: true }
                    }
                    ([Ty::F32, Ty::BF16, Ty::BF16, Ty::F32], true, ..) => {
                        MmaKind::Half { bf16: true, acc16: false }
                    }
                    ([Ty::F32, Ty::TF32, Ty::TF32, Ty::F32], _, true, ..) => MmaKind::Tf32,
                    ([Ty::S32, a @ (Ty::S8 | Ty::U8), b @ (Ty::S8 | Ty::U8), Ty::S32], _, _, true, _) => {
                        MmaKind::Int8 {
                            a_signed: a.class() == Class::Signed,
                            b_signed: b.class() == Class::Signed,
                            satfinite: has(W::Satfinite),
                        }
                    }
                    ([Ty::F64, Ty::F64, Ty::F64, Ty::F64], _, _, _, true) => MmaKind::F64,
                    _ => return self.unsupported(i),
                };
                let (na, nb, nc) = match kind {
                    MmaKind::F64 => (1, 1, 2),
                    MmaKind::Half { acc16: true, .. } => (4, 2, 2),
                    _ => (4, 2, 4),
                };
                fn vector(o: Option<&Operand>, n: usize) -> Option<&Vec<Operand>> {
                    match o {
                        Some(Operand::Vector(items, _)) if items.len() == n => Some(items),
                        _ => None,
                    }
                }
                let (Some(d), Some(a), Some(b), Some(c)) = (
                    vector(ops.first(), nc),
                    vector(ops.get(1), na),
                    vector(ops.get(2), nb),
                    vector(ops.get(3), nc),
                ) else {
                    return self.unsupported(i);
                };
                let reg = if kind == MmaKind::F64 { Ty::B64 } else { Ty::B32 };
                let srcs = |items: &Vec<Operand>| {
                    items.iter().map(|o| self.src(o, reg)).collect::<Result<Vec<_>, _>>()
                };
                let mma = Mma {
                    kind,
                    d: d.iter().map(|o| self.dst(o)).collect::<Result<Vec<_>, _>>()?,
                    a: srcs(a)?,
                    b: srcs(b)?,
                    c: srcs(c)?,
                };
                Ok(Op::Mma(Box::new(mma)))
            }
            O::Wmma => self.wmma_op(i, f),
            O::Wgmma => self.wgmma_op(i, f),
            _ => self.unsupported(i),
        }
    }
}
