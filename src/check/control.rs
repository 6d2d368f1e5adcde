//! Rules for control flow: `bra`, `brx.idx`, `call` (direct and indirect), `ret`,
//! `exit` and `nanosleep` (PTX ISA 9.7.13 "Control Flow Instructions").

use super::I;
use super::scope::{Def, Sym};
use super::types::Ty;
use super::{Checker, ParamSig};
use crate::syntax::ast::*;

impl<'a> Checker<'a> {
    pub(super) fn bra(&mut self, i: &I<'a>, instr: &str) {
        self.only_mods(i, instr, &[".uni"]);
        if !self.operand_count(i, instr, 1, 1) {
            return;
        }
        if let Some(n) = self.expect_name(&i.operands[0], instr, "a label") {
            self.label_operand(n, instr);
        }
    }

    fn label_operand(&mut self, n: Name<'a>, instr: &str) {
        if !self.fn_state.labels.contains_key(n.text) {
            let why = if self.lookup(n.text).is_some() {
                "is not a label"
            } else {
                "is not a label in this function"
            };
            self.error(n.span, format!("{instr}: branch target `{}` {why}", n.text));
        }
    }

    pub(super) fn brx(&mut self, i: &I<'a>, instr: &str) {
        self.require(i.opcode.span, instr, 60, 30);
        if i.mods.first().map(|m| m.text) != Some(".idx") {
            self.error(
                i.opcode.span,
                format!("{instr}: the indirect branch is written `brx.idx`"),
            );
        }
        self.only_mods(i, instr, &[".idx", ".uni"]);
        if !self.operand_count(i, instr, 2, 2) {
            return;
        }
        self.typed_operand(&i.operands[0], Ty::U32, instr, "index", false);
        let Some(list) = self.expect_name(&i.operands[1], instr, "a `.branchtargets` label") else {
            return;
        };
        match self.fn_state.branch_targets.get(list.text) {
            Some(&(def, _)) if def.start < list.span.start => {}
            Some(_) => self.error(
                list.span,
                format!(
                    "{instr}: `.branchtargets` `{}` must be declared before its use",
                    list.text
                ),
            ),
            None => self.error(
                list.span,
                format!(
                    "{instr}: `{}` is not a `.branchtargets` list in this function",
                    list.text
                ),
            ),
        }
    }

    pub(super) fn ret_exit(&mut self, i: &I<'a>, instr: &str) {
        let allowed: &[&str] = if i.opcode.text == "ret" {
            &[".uni"]
        } else {
            &[]
        };
        self.only_mods(i, instr, allowed);
        self.operand_count(i, instr, 0, 0);
    }

    pub(super) fn nanosleep(&mut self, i: &I<'a>, instr: &str) {
        self.require(i.opcode.span, instr, 63, 70);
        if i.mods.len() != 1 || i.mods[0].text != ".u32" {
            self.error(
                i.opcode.span,
                format!("{instr}: the form is `nanosleep.u32 t`"),
            );
            return;
        }
        if self.operand_count(i, instr, 1, 1) {
            self.typed_operand(&i.operands[0], Ty::U32, instr, "operand t", true);
        }
    }

    /// `call{.uni} (rets), f, (args)` and the indirect forms through a register with
    /// a `.calltargets` list, a `.callprototype` or a jump-table variable.
    pub(super) fn call(&mut self, i: &I<'a>, instr: &str) {
        self.only_mods(i, instr, &[".uni"]);
        let ops = &i.operands;
        let mut k = 0;
        let rets: &[Operand<'a>] = match ops.first() {
            Some(Operand::List(items, _)) => {
                k = 1;
                items
            }
            _ => &[],
        };
        let Some(target) = ops.get(k) else {
            self.error(i.span, format!("{instr}: missing the function to call"));
            return;
        };
        k += 1;
        let args: &[Operand<'a>] = match ops.get(k) {
            Some(Operand::List(items, _)) => {
                k += 1;
                items
            }
            _ => &[],
        };
        let extra = ops.get(k);
        if ops.len() > k + 1 {
            self.error(ops[k + 1].span(), format!("{instr}: too many operands"));
        }
        for op in rets.iter().chain(args) {
            self.call_argument(op, instr);
        }
        let Some(tname) = self.expect_name(
            target,
            instr,
            "a function name or a register holding its address",
        ) else {
            return;
        };
        match self.lookup(tname.text) {
            Some(Def {
                sym: Sym::Func(f), ..
            }) => {
                if let Some(e) = extra {
                    self.error(
                        e.span(),
                        format!("{instr}: a direct call takes no target list or prototype"),
                    );
                }
                let info = self.funcs[f].clone();
                if info.kind == FuncKind::Entry {
                    self.error(
                        tname.span,
                        format!(
                            "{instr}: `{}` is a kernel (.entry) and cannot be called",
                            tname.text
                        ),
                    );
                    return;
                }
                self.match_signature(i, instr, tname.text, &info.rets, &info.params, rets, args);
            }
            Some(Def {
                sym: Sym::Reg { ty, .. },
                ..
            }) => {
                self.require(tname.span, &format!("{instr} (indirect)"), 21, 20);
                if !matches!(
                    ty,
                    Ty::B32 | Ty::U32 | Ty::S32 | Ty::B64 | Ty::U64 | Ty::S64
                ) {
                    self.error(
                        tname.span,
                        format!(
                            "{instr}: function pointer `{}` must be an integer register",
                            tname.text
                        ),
                    );
                }
                self.indirect_targets(i, instr, extra, rets, args);
            }
            Some(_) => self.error(
                tname.span,
                format!("{instr}: `{}` is not a function or register", tname.text),
            ),
            None => self.error(
                tname.span,
                format!("{instr}: undefined function `{}`", tname.text),
            ),
        }
    }

    fn indirect_targets(
        &mut self,
        i: &I<'a>,
        instr: &str,
        extra: Option<&Operand<'a>>,
        rets: &[Operand<'a>],
        args: &[Operand<'a>],
    ) {
        let Some(extra) = extra else {
            self.error(i.span, format!("{instr}: an indirect call needs a `.calltargets` list, a `.callprototype` or a jump table"));
            return;
        };
        let Some(n) = self.expect_name(
            extra,
            instr,
            "a `.calltargets` list, `.callprototype` or jump table",
        ) else {
            return;
        };
        if let Some((_, r, p)) = self.fn_state.prototypes.get(n.text).cloned() {
            self.match_signature(i, instr, n.text, &r, &p, rets, args);
            return;
        }
        let targets: Vec<&'a str> = if let Some((_, t)) = self.fn_state.call_targets.get(n.text) {
            t.clone()
        } else if let Some(Def {
            sym: Sym::Var {
                func_table: true, ..
            },
            ..
        }) = self.lookup(n.text)
        {
            return;
        } else {
            self.error(n.span, format!("{instr}: `{}` is not a `.calltargets` list, `.callprototype` or function table", n.text));
            return;
        };
        for t in targets {
            if let Some(Def {
                sym: Sym::Func(f), ..
            }) = self.globals.lookup(t)
            {
                let info = self.funcs[f].clone();
                self.match_signature(i, instr, t, &info.rets, &info.params, rets, args);
            }
        }
    }

    /// An argument or return of `call`: a `.param` variable, a register or an immediate.
    fn call_argument(&mut self, op: &Operand<'a>, instr: &str) {
        match op {
            Operand::Name(n) => {
                self.resolve_value_name(*n, instr);
            }
            Operand::Int { .. } | Operand::Float { .. } => {}
            other => self.error(
                other.span(),
                format!("{instr}: call arguments are .param variables, registers or immediates"),
            ),
        }
    }

    fn arg_sig(&self, op: &Operand<'a>) -> Option<ParamSig> {
        let Operand::Name(n) = op else { return None };
        match self.lookup(n.text)?.sym {
            Sym::Reg { ty, .. } => Some(ParamSig {
                space: Space::Reg,
                ty,
                bytes: u64::from(ty.bits().div_ceil(8)),
            }),
            Sym::Var {
                space, ty, elems, ..
            } => Some(ParamSig {
                space,
                ty,
                bytes: u64::from(ty.bits().div_ceil(8)) * elems.max(1),
            }),
            Sym::Func(_) => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn match_signature(
        &mut self,
        i: &I<'a>,
        instr: &str,
        callee: &str,
        want_rets: &[ParamSig],
        want_args: &[ParamSig],
        rets: &[Operand<'a>],
        args: &[Operand<'a>],
    ) {
        if rets.len() != want_rets.len() {
            self.error(
                i.span,
                format!(
                    "{instr}: `{callee}` returns {} value(s), the call takes {}",
                    want_rets.len(),
                    rets.len()
                ),
            );
        }
        if args.len() != want_args.len() {
            self.error(
                i.span,
                format!(
                    "{instr}: `{callee}` takes {} argument(s), the call passes {}",
                    want_args.len(),
                    args.len()
                ),
            );
            return;
        }
        for (op, want) in rets.iter().zip(want_rets).chain(args.iter().zip(want_args)) {
            if let Some(got) = self.arg_sig(op)
                && got.bytes != want.bytes
            {
                self.error(
                    op.span(),
                    format!(
                        "{instr}: argument `{}` has {} bytes, `{callee}` expects {}",
                        op.span().text(self.src),
                        got.bytes,
                        want.bytes
                    ),
                );
            }
        }
    }
}
