//! Rules for control flow: `bra`, `brx.idx`, `call` (direct and indirect), `ret`,
//! `exit` and `nanosleep` (PTX ISA 9.7.13 "Control Flow Instructions").

use super::I;
use super::scope::{Def, Label, LabelKind, Sym};
use super::types::{Ty, compatible};
use super::{Checker, ParamSig};
use crate::isa::Word;
use crate::syntax::ast::*;

impl<'a> Checker<'a> {
    pub(super) fn bra(&mut self, i: &I<'a>, instr: &str) {
        if !self.operand_count(i, instr, 1, 1) {
            return;
        }
        if let Some(n) = self.expect_name(&i.operands[0], instr, "a label") {
            self.label_target(n, instr);
        }
    }

    pub(super) fn brx(&mut self, i: &I<'a>, instr: &str) {
        if i.mods.first().map(|m| self.t(m)) != Some(Word::Idx.text()) {
            self.error(i.opcode.span, format!("{instr}: the indirect branch is written `brx.idx`"));
        }
        if !self.operand_count(i, instr, 2, 2) {
            return;
        }
        self.int32_operand(&i.operands[0], instr, "index");
        let Some(list) = self.expect_name(&i.operands[1], instr, "a `.branchtargets` label") else {
            return;
        };
        match self.lookup_label(self.t(list)) {
            Some(Label { kind: LabelKind::BranchTargets, span }) if span.start < list.span.start => {}
            Some(Label { kind: LabelKind::BranchTargets, .. }) => self.error(
                list.span,
                format!("{instr}: `.branchtargets` `{}` must be declared before its use", self.t(list)),
            ),
            _ => self.error(
                list.span,
                format!("{instr}: `{}` is not a `.branchtargets` list visible here", self.t(list)),
            ),
        }
    }

    /// A 32-bit integer operand: a `.b32`/`.u32`/`.s32` register or an integer
    /// literal (ptxas, for `brx.idx` and `nanosleep`; not `.f16x2`, not symbols).
    fn int32_operand(&mut self, op: &Operand, instr: &str, role: &str) {
        match op {
            Operand::Int { .. } => {}
            Operand::Name(n) => match self.resolve_value_name(*n, instr) {
                Some(Def { sym: Sym::Reg { ty: Ty::B32 | Ty::U32 | Ty::S32, .. }, .. }) | None => {}
                Some(Def { sym: Sym::Reg { ty, .. }, .. }) => self.error(
                    n.span,
                    format!(
                        "{instr}: {role} `{}` is a {} register; it must be a 32-bit integer",
                        self.t(n),
                        ty.word()
                    ),
                ),
                Some(_) => self.error(n.span, format!("{instr}: {role} `{}` is not a register", self.t(n))),
            },
            other => {
                self.resolve_operand(other, instr);
                self.error(
                    other.span(),
                    format!("{instr}: {role} must be a 32-bit integer register or literal"),
                );
            }
        }
    }

    pub(super) fn ret_exit(&mut self, i: &I<'a>, instr: &str) {
        self.operand_count(i, instr, 0, 0);
    }

    pub(super) fn nanosleep(&mut self, i: &I<'a>, instr: &str) {
        if self.operand_count(i, instr, 1, 1) {
            self.int32_operand(&i.operands[0], instr, "operand t");
        }
    }

    /// `call{.uni} (rets), f, (args)` and the indirect forms through a register with
    /// a `.calltargets` list, a `.callprototype` or a jump-table variable.
    pub(super) fn call(&mut self, i: &I<'a>, instr: &str) {
        let Some(CallForm { rets, target, args, extra, rest }) = CallForm::of(i.operands) else {
            self.error(i.span, format!("{instr}: missing the function to call"));
            return;
        };
        if let Some(op) = rest.first() {
            self.error(op.span(), format!("{instr}: too many operands; the form is `call (r), f, (a, b)`"));
            return;
        }
        for op in rets.iter().chain(args) {
            self.call_argument(op, instr);
        }
        let Some(tname) =
            self.expect_name(target, instr, "a function name or a register holding its address")
        else {
            return;
        };
        match self.lookup(self.t(tname)) {
            Some(Def { sym: Sym::Func(f), .. }) => {
                if let Some(e) = extra {
                    self.error(e.span(), format!("{instr}: a direct call takes no target list or prototype"));
                }
                let info = self.funcs[f].clone();
                if info.kind == FuncKind::Entry {
                    let msg =
                        format!("{instr}: `{}` is a kernel (.entry) and cannot be called", self.t(tname));
                    self.error(tname.span, msg);
                    return;
                }
                if info.first_decl.start > i.span.start {
                    let msg = format!(
                        "{instr}: `{}` is called before it is declared; declare it first",
                        self.t(tname)
                    );
                    self.error(tname.span, msg);
                    return;
                }
                // An `.extern` function is defined by another module (nvcc -rdc output);
                // ptxas accepts that with -c, and only whole-program ptxas rejects it.
                if !info.defined && !info.external {
                    let msg =
                        format!("{instr}: `{}` is declared but never defined in this module", self.t(tname));
                    self.error(tname.span, msg);
                }
                self.match_signature(i, instr, self.t(tname), &info.rets, &info.params, rets, args);
            }
            Some(Def { sym: Sym::Reg { ty, .. }, .. }) => {
                self.require(tname.span, &format!("{instr} (indirect)"), 21, 20);
                if !matches!(ty, Ty::B32 | Ty::U32 | Ty::S32 | Ty::B64 | Ty::U64 | Ty::S64) {
                    let msg =
                        format!("{instr}: function pointer `{}` must be an integer register", self.t(tname));
                    self.error(tname.span, msg);
                }
                self.indirect_targets(i, instr, extra, rets, args);
            }
            Some(_) => {
                self.error(tname.span, format!("{instr}: `{}` is not a function or register", self.t(tname)))
            }
            None => self.error(tname.span, format!("{instr}: undefined function `{}`", self.t(tname))),
        }
    }

    fn indirect_targets(
        &mut self,
        i: &I<'a>,
        instr: &str,
        extra: Option<&Operand>,
        rets: &[Operand],
        args: &[Operand],
    ) {
        let Some(extra) = extra else {
            let msg = format!(
                "{instr}: an indirect call needs a `.calltargets` list, a `.callprototype` or a jump table"
            );
            self.error(i.span, msg);
            return;
        };
        let Some(n) = self.expect_name(extra, instr, "a `.calltargets` list, `.callprototype` or jump table")
        else {
            return;
        };
        let targets: Vec<usize> = match self.lookup_label(self.t(n)) {
            Some(Label { span, .. }) if span.start > n.span.start => {
                self.error(n.span, format!("{instr}: `{}` must be declared before the call", self.t(n)));
                return;
            }
            Some(Label { kind: LabelKind::Prototype { rets: r, params: p }, .. }) => {
                self.match_signature(i, instr, self.t(n), &r, &p, rets, args);
                return;
            }
            Some(Label { kind: LabelKind::CallTargets(names), .. }) => names
                .iter()
                .filter_map(|t| match self.globals.lookup(t) {
                    Some(Def { sym: Sym::Func(f), .. }) => Some(f),
                    _ => None,
                })
                .collect(),
            Some(_) => {
                self.error(n.span, format!("{instr}: `{}` is a code label, not a target list", self.t(n)));
                return;
            }
            None => match self.jump_tables.get(self.t(n)) {
                Some(Some(funcs)) => funcs.clone(),
                Some(None) => {
                    let msg = format!("{instr}: `{}` is not a table of function addresses", self.t(n));
                    self.error(n.span, msg);
                    return;
                }
                None => {
                    let msg = format!(
                        "{instr}: `{}` is not a `.calltargets` list, `.callprototype` or function table",
                        self.t(n)
                    );
                    self.error(n.span, msg);
                    return;
                }
            },
        };
        for f in targets {
            let info = self.funcs[f].clone();
            self.match_signature(i, instr, self.t(n), &info.rets, &info.params, rets, args);
        }
    }

    /// An argument or return of `call`: a register, a `.param` variable of the calling
    /// function or an immediate (ptxas: any other variable or a function name has an
    /// "illegal state space").
    fn call_argument(&mut self, op: &Operand, instr: &str) {
        match op {
            Operand::Name(n) => match self.resolve_value_name(*n, instr) {
                Some(Def { sym: Sym::Reg { .. } | Sym::Var { space: Space::Param, .. }, .. }) | None => {}
                Some(_) => {
                    let msg = format!(
                        "{instr}: `{}` cannot be passed; use a register or a .param variable",
                        self.t(n)
                    );
                    self.error(n.span, msg);
                }
            },
            Operand::Int { .. } | Operand::Float { .. } => {}
            other => self.error(
                other.span(),
                format!("{instr}: call arguments are .param variables, registers or immediates"),
            ),
        }
    }

    /// The signature of a register or `.param` variable passed to a call.
    fn arg_sig(&self, op: &Operand) -> Option<ParamSig> {
        let Operand::Name(n) = op else { return None };
        match self.lookup(self.t(n))?.sym {
            Sym::Reg { ty, .. } => {
                let align = ty.bits().div_ceil(8);
                Some(ParamSig { space: Space::Reg, ty, elems: 1, array: false, align, any_len: false })
            }
            Sym::Var { space, ty, elems, array, align } => {
                Some(ParamSig { space, ty, elems, array, align, any_len: false })
            }
            Sym::Func(_) => None,
        }
    }

    /// Does an argument fit a formal parameter (ptxas's rules: scalars by operand
    /// type compatibility, arrays by element type, count and alignment)?
    fn argument_fits(&self, op: &Operand, want: &ParamSig) -> Result<(), String> {
        if want.space == Space::Reg && (want.ty == Ty::Pred || want.ty.bits() == 8) {
            return Err(format!(
                "{} parameters cannot be passed (the ABI passes no predicate, 8-bit or 16-bit .reg values)",
                want.ty.word()
            ));
        }
        if let Operand::Int { .. } | Operand::Float { .. } = op {
            return if !want.array && self.immediate_fits(op, want.ty) {
                Ok(())
            } else {
                Err(format!("does not fit a {} parameter", want.ty.word()))
            };
        }
        let Some(got) = self.arg_sig(op) else { return Ok(()) };
        let describe = |s: &ParamSig| {
            if s.any_len {
                format!("{}[] (align {})", s.ty.word(), s.align)
            } else if s.array {
                format!("{}[{}] (align {})", s.ty.word(), s.elems, s.align)
            } else {
                s.ty.word().to_string()
            }
        };
        let fits = if want.any_len {
            // `.b8 _[]` (ptxas): an array of the element type and alignment, any length.
            got.array && want.ty == got.ty && want.align == got.align
        } else if want.array || got.array {
            want.array == got.array && want.ty == got.ty && want.elems == got.elems && want.align == got.align
        } else {
            compatible(want.ty, got.ty)
        };
        if fits { Ok(()) } else { Err(format!("is {}, the parameter is {}", describe(&got), describe(want))) }
    }

    #[allow(clippy::too_many_arguments)]
    fn match_signature(
        &mut self,
        i: &I<'a>,
        instr: &str,
        callee: &str,
        want_rets: &[ParamSig],
        want_args: &[ParamSig],
        rets: &[Operand],
        args: &[Operand],
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
            if let Err(why) = self.argument_fits(op, want) {
                let msg = format!("{instr}: argument `{}` of `{callee}` {why}", op.span().text(self.src));
                self.error(op.span(), msg);
            }
        }
    }
}
