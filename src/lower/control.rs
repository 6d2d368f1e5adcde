//! Decoding control flow: `bra`, `brx.idx`, `call`, `ret`, `exit`, `trap` and `nanosleep`
//! (PTX ISA 9.7.13). Branch targets and reconvergence pcs come from the body's flow
//! graph.

use super::decode::{Decoder, Named};
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::isa::{Form, Opcode as O, Word as W};
use crate::syntax::ast::*;

impl<'m> Decoder<'m> {
    pub(super) fn control_op(&mut self, i: &InstrView<'m>, f: &Form, pc: u32) -> Result<Op, LowerError> {
        let ty = f.ty();
        let has = |w: W| f.has(w);
        let ops = i.operands;
        let opcode = f.opcode;
        match (opcode, ty) {
            (O::Exit, _) => Ok(Op::Exit),
            (O::Ret, _) => Ok(if self.kernel { Op::Exit } else { Op::Ret }),
            (O::Call, _) => self.call(i),
            (O::Trap, _) => Ok(Op::Trap),
            (O::Brkpt, _) => Ok(Op::Brkpt),
            (O::Nanosleep, _) => Ok(Op::Nanosleep),
            // Programmatic dependent launch (PTX ISA 9.7.13.17): ptxvm runs one grid at
            // a time, so the prerequisite grids are done and no dependent grid waits;
            // only the memory ordering is left.
            (O::Griddepcontrol, _) => Ok(Op::Fence),
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
            _ => self.unsupported(i),
        }
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
                match Builtin::named(name) {
                    // Its arguments are read from the caller's operands as they are.
                    Some(b) => (Callee::Builtin(b), (Vec::new(), Vec::new())),
                    None => {
                        return fail(target.span, format!("call: `{name}` is not defined in this module"));
                    }
                }
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
}
