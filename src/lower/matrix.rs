//! Decoding the matrix instructions that run: `ldmatrix`, `stmatrix` and `mma.sync` (PTX ISA
//! 9.7.14.5). All are warp-wide; `exec/matrix.rs` gathers every lane's fragment.

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W};
use crate::lower::regs::Slot;
use crate::syntax::ast::*;

/// The items of vector operand `o` when it has `n` of them.
fn vector(o: Option<&Operand>, n: usize) -> Option<&Vec<Operand>> {
    match o {
        Some(Operand::Vector(items, _)) if items.len() == n => Some(items),
        _ => None,
    }
}

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
            O::Mma if has(W::Row) && has(W::Col) && (has(W::Sp) || has(W::SpOrdered)) => self.mma_sp(i, f),
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
                let (Some(d), Some(a), Some(b), Some(c)) = (
                    vector(ops.first(), nc),
                    vector(ops.get(1), na),
                    vector(ops.get(2), nb),
                    vector(ops.get(3), nc),
                ) else {
                    return self.unsupported(i);
                };
                let reg = if kind == MmaKind::F64 { Ty::B64 } else { Ty::B32 };
                self.mma_of(kind, [d, a, b, c], reg, None)
            }
            O::Wmma => self.wmma_op(i, f),
            O::Wgmma => self.wgmma_op(i, f),
            _ => self.unsupported(i),
        }
    }

    /// `mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.D.A.B.C d,
    /// a, b, c, e, f`: the shapes and types sm_90 runs (PTX ISA 9.7.14.6): f16 and
    /// bf16 at k16 and k32, tf32 at k8 and k16, s8/u8 at k32 and k64, e4m3/e5m2 at k64.
    /// A holds half of K; the selector `f` is an immediate, in the range ptxas takes.
    fn mma_sp(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        use crate::sem::cvt::Fp8;
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let name = i.full_name(self.src);
        let ordered = name.starts_with("mma.sp::ordered_metadata");
        let words: Vec<&str> = name.split('.').collect();
        let k: u8 = match words.iter().find(|w| w.starts_with("m16n8k")).map(|w| &w[6..]) {
            Some("8") => 8,
            Some("16") => 16,
            Some("32") => 32,
            Some("64") => 64,
            _ => return self.unsupported(i),
        };
        let tys: Vec<&str> = words.iter().rev().take(4).rev().copied().collect();
        let fp8 = |t: &str| match t {
            "e4m3" => Some(Fp8::E4m3),
            "e5m2" => Some(Fp8::E5m2),
            _ => None,
        };
        let signed = |t: &str| t == "s8";
        let kind = match (tys.as_slice(), k) {
            (["f32", "f16", "f16", "f32"], 16 | 32) => MmaKind::Half { bf16: false, acc16: false },
            (["f16", "f16", "f16", "f16"], 16 | 32) => MmaKind::Half { bf16: false, acc16: true },
            (["f32", "bf16", "bf16", "f32"], 16 | 32) => MmaKind::Half { bf16: true, acc16: false },
            (["f32", "tf32", "tf32", "f32"], 8 | 16) => MmaKind::Tf32,
            (["s32", a @ ("s8" | "u8"), b @ ("s8" | "u8"), "s32"], 32 | 64) => {
                MmaKind::Int8 { a_signed: signed(a), b_signed: signed(b), satfinite: has(W::Satfinite) }
            }
            (["f32", a, b, "f32"], 64) => match (fp8(a), fp8(b)) {
                (Some(a), Some(b)) => MmaKind::Fp8 { a, b },
                _ => return self.unsupported(i),
            },
            _ => return self.unsupported(i),
        };
        // A holds K / 2 elements of 16 rows, B K of 8 columns, in 32 lanes' 32-bit
        // registers.
        let bits = match kind {
            MmaKind::Half { .. } => 16,
            MmaKind::Tf32 => 32,
            _ => 8,
        };
        let (na, nb) = (usize::from(k) * bits / 2 * 16 / 1024, usize::from(k) * bits * 8 / 1024);
        let nc = if matches!(kind, MmaKind::Half { acc16: true, .. }) { 2 } else { 4 };
        // ptxas takes selectors 0 to 3, and only 0 at k64 (each row's metadata takes
        // two registers); the executor reports those the ISA leaves undefined.
        let max_selector = if k == 64 { 0 } else { 3 };
        let (Some(d), Some(a), Some(b), Some(c), Some(e), Some(sel)) = (
            vector(ops.first(), nc),
            vector(ops.get(1), na),
            vector(ops.get(2), nb),
            vector(ops.get(3), nc),
            ops.get(4),
            ops.get(5),
        ) else {
            return self.unsupported(i);
        };
        let selector = match self.src(sel, Ty::U32)? {
            Src::Imm(v) if v <= max_selector => v as u8,
            Src::Imm(v) => {
                return super::program::fail(
                    i.span,
                    format!(
                        "{name}: the sparsity selector {v} is outside 0 to {max_selector} for this shape"
                    ),
                );
            }
            _ => {
                return super::program::fail(
                    i.span,
                    format!("{name}: the sparsity selector must be a constant"),
                );
            }
        };
        let sparse = Sparse { k, e: self.src(e, Ty::B32)?, selector, ordered };
        self.mma_of(kind, [d, a, b, c], Ty::B32, Some(sparse))
    }

    /// An `mma` of `kind` from its fragments' operands (D, A, B, C), each register
    /// of `reg` bits.
    fn mma_of(
        &mut self,
        kind: MmaKind,
        [d, a, b, c]: [&Vec<Operand>; 4],
        reg: Ty,
        sparse: Option<Sparse>,
    ) -> Result<Op, LowerError> {
        let srcs =
            |items: &Vec<Operand>| items.iter().map(|o| self.src(o, reg)).collect::<Result<Vec<_>, _>>();
        let mma = Mma {
            kind,
            d: d.iter().map(|o| self.dst(o)).collect::<Result<Vec<_>, _>>()?,
            a: srcs(a)?,
            b: srcs(b)?,
            c: srcs(c)?,
            sparse,
        };
        Ok(Op::Mma(Box::new(mma)))
    }
}
