//! Instruction checking shared by every opcode: guards, the dispatch to each opcode's
//! rule (the instruction table, [`super::form`], for most), name resolution, and the
//! operand-kind helpers that the seed-instruction rules in [`super::cmp`] and
//! [`super::control`] build on.

use super::I;
use super::scope::{Def, Sym};
use super::types::{Class, Ty, compatible};
use super::{Checker, space_word};
use crate::isa::operands::{Fit, Kind, Signature, data_operands, signature, writes_first};
use crate::isa::{Family, Form, Opcode as O, Word};
use crate::syntax::ast::*;

/// The type of every operand of an arithmetic form, when they all share it: integer,
/// f32 and f64 types, not the `.wide` forms (whose destination is twice as wide).
fn same_typed(f: &Form) -> Option<Ty> {
    let ty = f.ty()?;
    let plain = ty.is_int() || matches!(ty, Ty::F32 | Ty::F64);
    (plain && f.types().len() == 1 && !f.has(Word::Wide)).then_some(ty)
}

/// Special registers (PTX ISA 10) and whether they have `.x/.y/.z` components.
pub fn special_register(name: &str) -> Option<bool> {
    Some(match name {
        "%tid" | "%ntid" | "%ctaid" | "%nctaid" | "%clusterid" | "%nclusterid" | "%cluster_ctaid"
        | "%cluster_nctaid" => true,
        "%laneid"
        | "%warpid"
        | "%nwarpid"
        | "%smid"
        | "%nsmid"
        | "%gridid"
        | "%lanemask_eq"
        | "%lanemask_le"
        | "%lanemask_lt"
        | "%lanemask_ge"
        | "%lanemask_gt"
        | "%clock"
        | "%clock_hi"
        | "%clock64"
        | "%globaltimer"
        | "%globaltimer_lo"
        | "%globaltimer_hi"
        | "%total_smem_size"
        | "%aggr_smem_size"
        | "%dynamic_smem_size"
        | "%is_explicit_cluster"
        | "%cluster_ctarank"
        | "%cluster_nctarank"
        | "%current_graph_exec"
        | "%reserved_smem_offset_begin"
        | "%reserved_smem_offset_end"
        | "%reserved_smem_offset_cap"
        | "%reserved_smem_offset_0"
        | "%reserved_smem_offset_1"
        | "WARP_SZ" => false,
        _ => {
            let n =
                name.strip_prefix("%pm").or_else(|| name.strip_prefix("%envreg"))?.trim_end_matches("_64");
            if n.parse::<u32>().is_ok_and(|v| v < 32) {
                false
            } else {
                return None;
            }
        }
    })
}

/// Roles of operands in diagnostics, by position.
const ROLES: [&str; 6] = ["destination", "operand 1", "operand 2", "operand 3", "operand 4", "operand 5"];

impl<'a> Checker<'a> {
    /// A register destination given an immediate or an address: ptxas's "Result
    /// register required".
    fn register_destination(&mut self, i: &I<'a>, name: &str) {
        let found = match i.operands.first() {
            Some(Operand::Int { .. } | Operand::Float { .. }) => "an immediate",
            Some(Operand::Addr(_)) => "an address",
            _ => return,
        };
        let op = &i.operands[0];
        self.error(
            op.span(),
            format!(
                "{name}: the destination must be a register, found {found} `{}`",
                op.span().text(self.src)
            ),
        );
    }

    /// A register holding a generic address of either width: an integer or bit-size
    /// register of 32 or 64 bits.
    fn pointer_register(&mut self, n: Name, ty: Ty, name: &str, role: &str) {
        let int = matches!(ty.class(), Class::Bit | Class::Unsigned | Class::Signed);
        if !(int && matches!(ty.bits(), 32 | 64)) {
            let msg = format!(
                "{name}: {role} `{}` is a {} register; expected a 32- or 64-bit integer register",
                self.t(n),
                ty.word()
            );
            self.error(n.span, msg);
        }
    }

    /// Checks one instruction; its form's index when the opcode is known.
    pub(super) fn instr(&mut self, i: &I<'a>) -> Option<u32> {
        let name = i.full_name(self.src);
        if let Some(g) = i.guard {
            self.pred_operand(g.pred, name, "guard");
        }
        let k = self.form(i, name)?;
        let opcode = self.forms[k as usize].opcode;
        // The arithmetic forms of one type check their destination with their sources.
        let form = self.forms[k as usize];
        let arithmetic = matches!(
            opcode,
            O::Add | O::Sub | O::Mul | O::Mad | O::Div | O::Rem | O::Min | O::Max | O::Abs | O::Neg | O::Fma
        ) && same_typed(&form).is_some();
        let signed = signature(&form).filter(|_| !arithmetic);
        if writes_first(&form) && !arithmetic && signed.is_none() {
            self.register_destination(i, name);
        }
        // Operands resolved here, which `generic` need not look up again.
        let mut done = 0u32;
        if let Some(sig) = &signed
            && sig.fits(i.operands.len())
        {
            done |= self.signed_operands(i, name, sig);
        }
        if matches!(opcode, O::Ld | O::Ldu | O::St | O::Atom | O::Red) {
            done |= self.data_registers(i, name, &form);
        }
        let address = crate::isa::operands::address_rules(opcode);
        if address.variable_space {
            self.variable_address(i, name, form.pick(crate::isa::groups::SPACE));
        }
        if address.generic_64 {
            self.generic_address(i, name, &form);
        }
        // `(a, b)` lists belong to call (ptxas: a syntax error anywhere else).
        if opcode != O::Call
            && let Some(op) = i.operands.iter().find(|o| matches!(o, Operand::List(..)))
        {
            self.error(op.span(), format!("{name}: a parenthesised list is an operand of call only"));
        }
        match opcode {
            O::Setp => self.setp(i, name),
            O::Set => self.set(i, name),
            O::Selp => self.selp(i, name),
            O::Slct => self.slct(i, name),
            O::And | O::Or | O::Xor | O::Not | O::Cnot => self.logic(i, name),
            O::Mov => self.mov(i, name),
            O::Bra => self.bra(i, name),
            O::Brx => self.brx(i, name),
            O::Call => self.call(i, name),
            O::Ret | O::Exit => self.ret_exit(i, name),
            O::Nanosleep => self.nanosleep(i, name),
            O::Tex | O::Tld4 => self.texture(i, name),
            O::Suld | O::Sust | O::Sured => self.surface(i, name),
            O::Txq | O::Suq => self.image_query(i, name),
            O::Wmma => {
                self.wmma(i, name, &form);
                self.generic(i, name, &form, done);
            }
            O::Mma | O::Wgmma | O::Ldmatrix | O::Stmatrix => {
                match opcode {
                    O::Mma => self.mma(i, name, &form),
                    O::Wgmma => self.wgmma(i, name, &form),
                    _ => self.matrix_transfer(i, name, &form),
                }
                self.generic(i, name, &form, done);
            }
            _ if opcode.family() == Family::Video => {
                let form = self.forms[k as usize];
                self.video(i, name, &form);
            }
            O::Cvt if !self.forms[k as usize].has(Word::Pack) => {
                let form = self.forms[k as usize];
                self.cvt_rules(i, name, &form);
                self.generic(i, name, &form, done);
            }
            // ptxas: "32-Bit ABI ... is not supported on sm_90 or higher architectures".
            O::Cvta => {
                if self.forms[k as usize].ty() == Some(Ty::U32) && self.sm.is_some_and(|s| s.number >= 90) {
                    self.error(
                        i.span,
                        format!("{name}: 32-bit addresses are not supported on sm_90 or higher"),
                    );
                }
                self.generic(i, name, &form, done);
            }
            // Arithmetic whose operands all have the instruction type: registers of a
            // compatible type, immediates that fit it (ptxas rejects `add.u32 d, a, 1.5`).
            O::Add
            | O::Sub
            | O::Mul
            | O::Mad
            | O::Div
            | O::Rem
            | O::Min
            | O::Max
            | O::Abs
            | O::Neg
            | O::Fma
                if let Some(ty) = same_typed(&self.forms[k as usize]) =>
            {
                for (n, op) in i.operands.iter().enumerate() {
                    let role = ROLES.get(n).copied().unwrap_or("operand");
                    self.typed_operand(op, ty, name, role, n > 0);
                }
            }
            _ => self.generic(i, name, &form, done),
        }
        Some(k)
    }

    /// The operands of a form with a signature (`isa::operands`), each held to its
    /// slot; a bit for each operand resolved here, which `generic` need not look up.
    fn signed_operands(&mut self, i: &I<'a>, name: &str, sig: &Signature) -> u32 {
        let mut done = 0u32;
        // Roles by position: the destination first, unless every operand is a source.
        let roles = &ROLES[usize::from(!sig.writes)..];
        for (k, (op, slot)) in i.operands.iter().zip(sig.slots()).enumerate() {
            // Pairs, negations, sinks and vectors have rules of their own; ptxas
            // takes an integer for a predicate source (`vote.all.pred p, 1, m`).
            let int_pred = k > 0 && slot.ty == Ty::Pred && matches!(op, Operand::Int { .. });
            let plain = matches!(
                op,
                Operand::Name(_) | Operand::Offset(..) | Operand::Int { .. } | Operand::Float { .. }
            );
            if !plain || int_pred {
                continue;
            }
            let checked = match slot.kind {
                Kind::Any => false,
                Kind::Memory => {
                    self.error(op.span(), format!("{name}: {} must be an address in brackets", roles[k]));
                    true
                }
                Kind::ValueIn { .. } if !matches!(op, Operand::Int { .. }) => {
                    self.typed_operand(op, slot.ty, name, roles[k], false);
                    true
                }
                Kind::Immediate { lo, hi, step } | Kind::ValueIn { lo, hi, step } => {
                    let value = match op {
                        Operand::Int { bits, .. } => Some(*bits),
                        _ => None,
                    };
                    let fits = |v: u64| {
                        (u64::from(lo)..=u64::from(hi)).contains(&v) && v.is_multiple_of(u64::from(step))
                    };
                    if !value.is_some_and(fits) {
                        let want = match (lo == hi, step, hi) {
                            (true, ..) => format!("the literal {lo}"),
                            (false, 1, _) => format!("an integer literal from {lo} to {hi}"),
                            (false, _, u32::MAX) => format!("a multiple of {step}"),
                            (false, ..) => format!("a multiple of {step} from {lo} to {hi}"),
                        };
                        let text = op.span().text(self.src);
                        self.error(op.span(), format!("{name}: {} must be {want}, found `{text}`", roles[k]));
                    }
                    // A name in a literal's place still resolves.
                    !matches!(op, Operand::Name(_) | Operand::Offset(..))
                }
                Kind::Value => {
                    self.typed_operand(op, slot.ty, name, roles[k], slot.imm);
                    true
                }
                // An address may be a variable's name; a register has the slot's type.
                Kind::Address | Kind::Pointer => match op {
                    Operand::Name(n) => match self.lookup(self.t(n)) {
                        Some(Def { sym: Sym::Reg { ty, .. }, .. }) if slot.kind == Kind::Pointer => {
                            self.pointer_register(*n, ty, name, roles[k]);
                            true
                        }
                        Some(Def { sym: Sym::Reg { .. }, .. }) => {
                            self.typed_operand(op, slot.ty, name, roles[k], slot.imm);
                            true
                        }
                        _ => false,
                    },
                    Operand::Int { .. } | Operand::Float { .. } => {
                        self.typed_operand(op, slot.ty, name, roles[k], slot.imm);
                        true
                    }
                    _ => false,
                },
            };
            if checked {
                done |= 1 << k;
            }
        }
        done
    }

    /// The data registers of ld, ldu, st, atom and red, each held to the instruction's
    /// type by the fit of `isa::operands::data_operands`; source immediates fit it.
    fn data_registers(&mut self, i: &I<'a>, name: &str, f: &Form) -> u32 {
        let Some(ty) = f.ty() else { return 0 };
        let n = i.operands.len();
        let Some((first, last, fit)) = data_operands(f, n) else { return 0 };
        let mut done = 0;
        // ptxas 13.5 takes an immediate compare value for `atom.cas.b128`, but not an
        // immediate new value (the ISA says nothing of either).
        if f.opcode == O::Atom
            && ty == Ty::B128
            && f.has(Word::Cas)
            && let Some(op @ (Operand::Int { .. } | Operand::Float { .. })) =
                last.checked_sub(1).map(|k| &i.operands[k])
        {
            let text = op.span().text(self.src);
            self.error(op.span(), format!("{name}: the new value `{text}` must be a .b128 register"));
        }
        for k in first..last.min(n).min(32) {
            if f.opcode == O::Atom && k == 1 {
                continue;
            }
            let op = &i.operands[k];
            let items = match op {
                Operand::Vector(items, _) => &items[..],
                op => std::slice::from_ref(op),
            };
            for op in items {
                self.data_operand(
                    op,
                    ty,
                    fit,
                    name,
                    if k == 0 && f.opcode != O::Red { "destination" } else { "source" },
                );
            }
            // Resolved whole when every item was a name, a sink or a literal.
            let plain = |o: &Operand| {
                matches!(o, Operand::Name(_) | Operand::Sink(_) | Operand::Int { .. } | Operand::Float { .. })
            };
            if items.iter().all(plain) {
                done |= 1 << k;
            }
        }
        done
    }

    /// One data operand of [`Self::data_registers`]: a register that `fit` takes for
    /// `ty`, or a source immediate that fits `ty`.
    fn data_operand(&mut self, op: &Operand, ty: Ty, fit: Fit, name: &str, role: &str) {
        match op {
            // A source immediate fits the type (ptxas: `st.f32 [a], 1` is an error).
            Operand::Int { .. } | Operand::Float { .. } if ty != Ty::B128 && !self.immediate_fits(op, ty) => {
                let text = op.span().text(self.src);
                self.error(op.span(), format!("{name}: `{text}` is not a {} immediate", ty.word()));
            }
            Operand::Name(r) => {
                let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) = self.resolve_value_name(*r, name)
                else {
                    return;
                };
                self.fitting_register(*r, reg, ty, fit, name, role);
            }
            _ => {}
        }
    }

    /// Register `r`, of type `reg`, carries a value of type `ty` as `fit` allows.
    pub(super) fn fitting_register(&mut self, r: Name, reg: Ty, ty: Ty, fit: Fit, name: &str, role: &str) {
        if !fit.fits(ty, reg) {
            let msg = format!(
                "{name}: {role} `{}` is a {} register; expected {}",
                self.t(r),
                reg.word(),
                fit.expected(ty)
            );
            self.error(r.span, msg);
        }
    }

    /// Operands of an instruction the table validates: names resolve, vector widths
    /// fit, and image operands appear only where they belong.
    /// Operands `done` (a bit each) were resolved already.
    fn generic(&mut self, i: &I<'a>, name: &str, form: &crate::isa::Form, done: u32) {
        let opcode = form.opcode;
        if matches!(opcode, O::Ld | O::St | O::Ldu) {
            self.memory_vector(i, name, form);
        }
        if matches!(opcode, O::Atom | O::Red) {
            self.atom_vector(i, name);
        }
        // `[image, {coords}]` belongs to the texture and surface instructions, and to
        // the tensor copies (`cp.async.bulk.tensor`, `[tensorMap, {coords}]`).
        if opcode != O::Cp
            && let Some(op) = i.operands.iter().find(|o| matches!(o, Operand::Image(_)))
        {
            let msg = format!(
                "{name}: `[image, {{coordinates}}]` is an operand of tex, tld4, suld, sust, sured and cp only"
            );
            self.error(op.span(), msg);
        }
        for (k, op) in i.operands.iter().enumerate() {
            if k >= 32 || done >> k & 1 == 0 {
                self.resolve_operand(op, name);
            }
        }
    }

    /// Checks that every name inside an operand resolves to a register, variable,
    /// function or special register.
    pub(super) fn resolve_operand(&mut self, op: &Operand, instr: &str) {
        match op {
            Operand::Name(n) => {
                self.resolve_value_name(*n, instr);
            }
            Operand::Not(inner, _) => self.resolve_operand(inner, instr),
            Operand::Neg(inner, span) => {
                self.resolve_operand(inner, instr);
                self.error(*span, format!("{instr}: a negated register is a source of vmad only"));
            }
            Operand::Offset(n, _, _) => {
                self.resolve_value_name(*n, instr);
            }
            Operand::Component(base, comp_span) => {
                let comp = Name { span: *comp_span };
                if special_register(self.t(base)) == Some(true) {
                    // ptxas also takes `.w` and the colour names `.r .g .b .a`.
                    if !matches!(self.t(comp), ".x" | ".y" | ".z" | ".w" | ".r" | ".g" | ".b" | ".a") {
                        self.error(
                            comp.span,
                            format!(
                                "{instr}: `{}` has components .x, .y, .z, not `{}`",
                                self.t(base),
                                self.t(comp)
                            ),
                        );
                    }
                } else if let Some(Def { sym: Sym::Reg { vector: Some(_), .. } | Sym::Var { .. }, .. }) =
                    self.lookup(self.t(base))
                {
                } else {
                    self.error(
                        base.span,
                        format!("{instr}: `{}{}` is not a register component", self.t(base), self.t(comp)),
                    );
                }
            }
            Operand::Pair(a, b) => {
                self.resolve_operand(a, instr);
                self.resolve_operand(b, instr);
            }
            Operand::Vector(items, _) | Operand::List(items, _) => {
                for it in items {
                    self.resolve_operand(it, instr);
                }
            }
            Operand::Addr(a) => {
                if let Some(b) = a.base {
                    self.resolve_value_name(b, instr);
                }
            }
            Operand::Image(a) => {
                self.resolve_value_name(a.image, instr);
                if let Some(s) = a.sampler {
                    self.resolve_value_name(s, instr);
                }
                self.resolve_operand(&a.coords, instr);
            }
            Operand::Sink(_) | Operand::Int { .. } | Operand::Float { .. } => {}
        }
    }

    /// Resolves a name used as a value; reports it when undefined or a label.
    pub(super) fn resolve_value_name(&mut self, n: Name, instr: &str) -> Option<Def> {
        if let Some(d) = self.lookup(self.t(n)) {
            return Some(d);
        }
        if special_register(self.t(n)).is_some() {
            return None;
        }
        if self.label_in_body(self.t(n)) {
            self.error(n.span, format!("{instr}: label `{}` cannot be used as a value", self.t(n)));
        } else {
            self.error(n.span, format!("{instr}: undefined name `{}`", self.t(n)));
        }
        None
    }

    /// A predicate source: a declared `.pred` register.
    pub(super) fn pred_operand(&mut self, n: Name, instr: &str, role: &str) {
        match self.resolve_value_name(n, instr) {
            Some(Def { sym: Sym::Reg { ty: Ty::Pred, .. }, .. }) | None => {}
            Some(_) => self.error(n.span, format!("{instr}: {role} `{}` is not a .pred register", self.t(n))),
        }
    }

    /// A value operand of type `ty`: a compatible register, or an immediate when
    /// `imm` allows it. Returns false after reporting an error.
    pub(super) fn typed_operand(&mut self, op: &Operand, ty: Ty, instr: &str, role: &str, imm: bool) -> bool {
        match op {
            Operand::Name(n) | Operand::Offset(n, _, _) => {
                if special_register(self.t(n)).is_some() && self.lookup(self.t(n)).is_none() {
                    self.error(
                        n.span,
                        format!(
                            "{instr}: special register `{}` is not allowed here; read it with mov",
                            self.t(n)
                        ),
                    );
                    return false;
                }
                match self.resolve_value_name(*n, instr) {
                    None => false,
                    Some(Def { sym: Sym::Reg { ty: rt, .. }, .. }) => {
                        // ptxas folds `%r+imm` to a constant of the instruction's size:
                        // only the register's class must fit, not its width.
                        let offset = matches!(op, Operand::Offset(..));
                        if compatible(ty, rt) || (offset && same_class(ty, rt)) {
                            return true;
                        }
                        let msg = format!(
                            "{instr}: {role} `{}` is a {} register, incompatible with {}",
                            self.t(n),
                            rt.word(),
                            ty.word()
                        );
                        self.error(n.span, msg);
                        false
                    }
                    // A function name stands for its address, like an immediate.
                    Some(Def { sym: Sym::Func(_), .. }) if imm && matches!(op, Operand::Name(_)) => true,
                    Some(Def { sym: Sym::Var { space, .. }, .. }) => {
                        let msg = format!(
                            "{instr}: {role} `{}` is a {} variable; this operand must be a register",
                            self.t(n),
                            space_word(space)
                        );
                        self.error(n.span, msg);
                        false
                    }
                    Some(Def { sym: Sym::Func(_), .. }) => {
                        self.error(
                            n.span,
                            format!("{instr}: {role} `{}` is a function, not a register", self.t(n)),
                        );
                        false
                    }
                }
            }
            Operand::Component(base, _) if special_register(self.t(base)).is_some() => {
                self.resolve_operand(op, instr);
                self.error(
                    op.span(),
                    format!(
                        "{instr}: special register `{}` is not allowed here; read it with mov",
                        op.span().text(self.src)
                    ),
                );
                false
            }
            Operand::Int { span, .. } | Operand::Float { span, .. } => {
                if imm && self.immediate_fits(op, ty) {
                    return true;
                }
                let why = if imm {
                    format!("is not a valid {} immediate", ty.word())
                } else {
                    "must be a register".to_string()
                };
                self.error(*span, format!("{instr}: {role} {why}"));
                false
            }
            Operand::Vector(..) => {
                self.resolve_operand(op, instr);
                self.error(op.span(), format!("{instr}: {role} cannot be a vector"));
                false
            }
            other => {
                self.resolve_operand(other, instr);
                let what = if imm { " or immediate" } else { "" };
                self.error(other.span(), format!("{instr}: {role} must be a {} register{what}", ty.word()));
                false
            }
        }
    }

    /// Is this literal acceptable for an operand of type `ty`? (ptxas 13.5, see
    /// tools/ptxas_matrix_findings.md): integer literals fit every integer and
    /// bit-size type (any value, truncated) but no float type; a float literal fits
    /// `.f32` and `.f64`, and the bit-size type of its own width (`0f` is 32-bit,
    /// `0d` and decimal literals are 64-bit).
    pub(super) fn immediate_fits(&self, op: &Operand, ty: Ty) -> bool {
        use super::types::Class;
        match op {
            Operand::Int { .. } => matches!(ty.class(), Class::Bit | Class::Unsigned | Class::Signed),
            Operand::Float { is_f32_bits, .. } => {
                matches!(ty, Ty::F32 | Ty::F64)
                    || (ty.class() == Class::Bit && ty.bits() == if *is_f32_bits { 32 } else { 64 })
            }
            _ => false,
        }
    }

    /// The operand must be a name; reports otherwise.
    pub(super) fn expect_name(&mut self, op: &Operand, instr: &str, what: &str) -> Option<Name> {
        match op {
            Operand::Name(n) => Some(*n),
            other => {
                self.error(other.span(), format!("{instr}: expected {what}"));
                None
            }
        }
    }

    pub(super) fn operand_count(&mut self, i: &I<'a>, instr: &str, lo: usize, hi: usize) -> bool {
        let n = i.operands.len();
        if n < lo || n > hi {
            let want = match hi - lo {
                0 => format!("{lo}"),
                1 => format!("{lo} or {hi}"),
                _ => format!("{lo} to {hi}"),
            };
            self.error(i.span, format!("{instr}: expects {want} operands, found {n}"));
            return false;
        }
        true
    }
}

/// Do two types hold the same kind of value, whatever their widths? (Bit-size types
/// and the two integer classes mix, as in [`compatible`].)
fn same_class(a: Ty, b: Ty) -> bool {
    let int = |c: Class| matches!(c, Class::Bit | Class::Unsigned | Class::Signed);
    a.class() == b.class() || (int(a.class()) && int(b.class()))
}
