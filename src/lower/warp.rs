//! Decoding the warp-wide instructions: barriers, `activemask`, `vote`, `shfl`, `match`
//! and `redux` (PTX ISA 9.7.13).

use super::decode::Decoder;
use super::ops::*;
use crate::check::types::{Class, Ty};
use crate::isa::{Form, Opcode as O, Word as W};
use crate::sem::warp::{ReduxOp, ShflMode};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn warp_op(&mut self, i: &InstrView<'m>, f: &Form) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        let signed = ty.is_some_and(|t| t.class() == Class::Signed);
        match (opcode, ty) {
            (O::Bar, _) if has(W::Warp) && has(W::Sync) && ops.len() == 1 => {
                Ok(Op::WarpSync { members: self.src(&ops[0], Ty::B32)? })
            }
            (O::Bar | O::Barrier, _) => self.barrier(i, opcode == O::Bar || has(W::Aligned), f),
            (O::Activemask, _) => Ok(Op::Activemask { dst: self.dst(&ops[0])? }),
            (O::Elect, _) if ops.len() == 2 => {
                let (dst, p) = match &ops[0] {
                    Operand::Pair(d, p) => {
                        let p = match &**p {
                            Operand::Name(n) => Some(self.pred_row(*n)?),
                            _ => None,
                        };
                        (self.dst_or_sink(d)?, p)
                    }
                    other => (self.dst_or_sink(other)?, None),
                };
                Ok(Op::Elect { dst, p, members: self.src(&ops[1], Ty::B32)? })
            }
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
            (O::Shfl, _) if has(W::Sync) => {
                let Some(mode) = f.pick(&[
                    (W::Up, ShflMode::Up),
                    (W::Down, ShflMode::Down),
                    (W::Bfly, ShflMode::Bfly),
                    (W::Idx, ShflMode::Idx),
                ]) else {
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
            (O::Match, Some(ty @ (Ty::B32 | Ty::B64))) if has(W::Sync) && (has(W::Any) || has(W::All)) => {
                let (dst, p) = self.dst_and_pred(&ops[0])?;
                Ok(Op::Match {
                    all: has(W::All),
                    dst,
                    p,
                    a: self.src(&ops[1], ty)?,
                    members: self.src(&ops[2], Ty::B32)?,
                })
            }
            (O::Redux, Some(ty)) if has(W::Sync) && ty.bits() == 32 && !ty.is_float() => {
                let Some(op) = f.pick(&[
                    (W::Add, ReduxOp::Add),
                    (W::Min, ReduxOp::Min),
                    (W::Max, ReduxOp::Max),
                    (W::And, ReduxOp::And),
                    (W::Or, ReduxOp::Or),
                    (W::Xor, ReduxOp::Xor),
                ]) else {
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
            _ => self.unsupported(i),
        }
    }

    /// `bar`/`barrier` `.sync`, `.arrive`, `.red` (PTX ISA 9.7.13.1): `a{, b}` for
    /// `.sync`, `a, b` for `.arrive`, `d, a{, b}, {!}c` for `.red`.
    fn barrier(&self, i: &InstrView<'_>, aligned: bool, f: &Form) -> Result<Op, LowerError> {
        let ops = i.operands;
        if f.has(W::Cluster) {
            // In a cluster of one CTA, `.wait` waits for every thread of the CTA, as
            // an unaligned CTA barrier does (PTX ISA 9.7.13.3): barrier 0 stands in
            // for it there (`exec/cluster.rs` has the clusters of more).
            let cta = Box::new(Barrier {
                kind: BarKind::Sync,
                aligned: f.has(W::Aligned),
                id: Src::Imm(0),
                count: None,
                dst: None,
                pred: None,
            });
            return Ok(Op::ClusterBarrier { wait: !f.has(W::Arrive), cta });
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
}
