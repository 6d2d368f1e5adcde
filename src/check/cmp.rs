//! Rules for the comparison and selection instructions and predicate logic:
//! `setp` (PTX ISA 9.7.6.2), half-precision `setp` (9.7.7.2), `set` (9.7.6.1),
//! `selp` (9.7.6.3), `slct` (9.7.6.4) and `and/or/xor/not/mov.pred` (9.3.2).
//! Where `ptxas` departs from the ISA text, the rule follows `ptxas` and says so.

use super::Checker;
use super::I;
use super::scope::{Def, Sym};
use super::types::{Class, Ty};
use crate::sem::cmp::CmpOp;
use crate::syntax::ast::*;

// `CmpOp` is the semantics' type (`sem::cmp`); `check` adds how it is spelled and
// which types it is valid for.
impl CmpOp {
    /// The operator a modifier such as `.lt` names (spellings: [`crate::isa::groups::CMP`]).
    pub fn from_word(w: &str) -> Option<CmpOp> {
        let w = crate::isa::Word::parse(w)?;
        crate::isa::groups::CMP.iter().find(|(k, _)| *k == w).map(|&(_, op)| op)
    }

    /// Is this operator defined for operands of `ty`?
    pub fn allowed_for(self, ty: Ty) -> Result<(), &'static str> {
        use CmpOp::*;
        let ordering = matches!(self, Lt | Le | Gt | Ge);
        let unsigned_only = matches!(self, Lo | Ls | Hi | Hs);
        let float_only = matches!(self, Equ | Neu | Ltu | Leu | Gtu | Geu | Num | Nan);
        match ty.class() {
            Class::Bit if ordering || unsigned_only => Err("ordering comparison on a bit-size type"),
            Class::Bit | Class::Unsigned | Class::Signed if float_only => {
                Err("unordered and NaN-testing comparisons are for floating-point types")
            }
            // ISA 9.3.1.1 lists lo/ls/hi/hs for unsigned types only; ptxas agrees.
            Class::Signed if unsigned_only => Err("unsigned comparison on a signed type"),
            Class::Float if unsigned_only => Err("unsigned comparison on a floating-point type"),
            _ => Ok(()),
        }
    }
}

/// The dotted modifiers of a comparison, sorted into their roles.
#[derive(Default)]
struct CmpMods {
    cmp: Option<(CmpOp, Name)>,
    boolop: Option<Name>,
    ftz: Option<Name>,
    types: Vec<(Ty, Name)>,
}

impl<'a> Checker<'a> {
    /// Sorts modifiers into CmpOp, BoolOp, `.ftz` and types; reports unknown or repeated ones.
    fn cmp_mods(&mut self, i: &I<'a>, instr: &str, with_cmp: bool) -> CmpMods {
        let mut m = CmpMods::default();
        for &md in i.mods {
            if let (true, Some(op)) = (with_cmp, CmpOp::from_word(self.t(md))) {
                if m.cmp.is_some() {
                    self.error(md.span, format!("{instr}: more than one comparison operator"));
                }
                m.cmp = Some((op, md));
            } else if with_cmp && matches!(self.t(md), ".and" | ".or" | ".xor") {
                if m.boolop.is_some() {
                    self.error(md.span, format!("{instr}: more than one boolean operator"));
                }
                m.boolop = Some(md);
            } else if self.t(md) == ".ftz" {
                self.require(md.span, instr, 14, 0);
                if m.ftz.is_some() {
                    self.error(md.span, format!("{instr}: duplicate `.ftz`"));
                }
                m.ftz = Some(md);
            } else if let Some(t) = Ty::from_word(self.t(md)) {
                m.types.push((t, md));
            } else if super::form::ignored_by_ptxas(self.t(md)) {
            } else {
                self.error(md.span, format!("{instr}: unexpected modifier `{}`", self.t(md)));
            }
        }
        if with_cmp && m.cmp.is_none() {
            self.error(i.opcode.span, format!("{instr}: missing comparison operator (.eq, .lt, ...)"));
        }
        m
    }

    /// Checks the optional `c` operand against the presence of a BoolOp.
    fn boolop_operand(&mut self, i: &I<'a>, instr: &str, m: &CmpMods, ops: usize, reg_only: bool) {
        match (m.boolop, i.operands.get(ops)) {
            (Some(b), None) => self.error(
                b.span,
                format!("{instr}: boolean operator `{}` needs a predicate operand c", self.t(b)),
            ),
            (None, Some(c)) => self
                .error(c.span(), format!("{instr}: operand c requires a boolean operator (.and, .or, .xor)")),
            (Some(_), Some(c)) => {
                // ptxas: for .bf16/.bf16x2 comparisons c must be a predicate register.
                let inner = if let Operand::Not(x, _) = c { &**x } else { c };
                if reg_only && !matches!(inner, Operand::Name(_)) {
                    self.error(c.span(), format!("{instr}: operand c must be a predicate register"));
                } else {
                    self.pred_operand_of(c, instr, "operand c", false);
                }
            }
            (None, None) => {}
        }
        if i.operands.len() > ops + 1 {
            self.error(i.operands[ops + 1].span(), format!("{instr}: too many operands"));
        }
    }

    /// A predicate destination: `p`, or `p|q` (with `_` for either) when `pair` is allowed.
    fn pred_dest(&mut self, op: &Operand, instr: &str, pair: bool) {
        match op {
            Operand::Name(n) => self.pred_operand(*n, instr, "destination"),
            Operand::Pair(a, b) if pair => {
                if matches!((&**a, &**b), (Operand::Sink(_), Operand::Sink(_))) {
                    self.error(op.span(), format!("{instr}: at most one destination can be `_`"));
                }
                for side in [a, b] {
                    match &**side {
                        Operand::Name(n) => self.pred_operand(*n, instr, "destination"),
                        Operand::Sink(_) => {}
                        other => {
                            self.error(other.span(), format!("{instr}: destination must be a predicate"))
                        }
                    }
                }
            }
            Operand::Pair(..) => {
                self.error(op.span(), format!("{instr}: this form has one destination predicate"))
            }
            Operand::Sink(_) => {}
            other => self.error(other.span(), format!("{instr}: destination must be a .pred register")),
        }
    }

    pub(super) fn setp(&mut self, i: &I<'a>, instr: &str) {
        let m = self.cmp_mods(i, instr, true);
        let [(ty, tname)] = m.types[..] else {
            let at = m.types.get(1).map_or(i.opcode.span, |t| t.1.span);
            self.error(at, format!("{instr}: needs exactly one type"));
            return;
        };
        let half = is_half(ty);
        if !half && !is_standard(ty) {
            self.error(tname.span, format!("{instr}: setp does not compare {} values", ty.word()));
            return;
        }
        self.half_requirements(tname, ty, instr);
        if let Some((op, n)) = m.cmp
            && let Err(why) = op.allowed_for(ty)
        {
            self.error(n.span, format!("{instr}: {why}"));
        }
        if let Some(f) = m.ftz
            && !matches!(ty, Ty::F32 | Ty::F16 | Ty::F16x2)
        {
            self.error(f.span, format!("{instr}: `.ftz` applies only to .f32, .f16 and .f16x2 comparisons"));
        }
        if i.operands.len() < 3 {
            let c = if m.boolop.is_some() { ", c" } else { "" };
            self.error(i.span, format!("{instr}: expects destination, a, b{c}"));
            return;
        }
        self.setp_dest(&i.operands[0], instr, ty);
        // ptxas takes no immediates for the half types.
        for (k, role) in [(1, "operand a"), (2, "operand b")] {
            self.typed_operand(&i.operands[k], ty, instr, role, !half);
        }
        self.boolop_operand(i, instr, &m, 3, matches!(ty, Ty::BF16 | Ty::BF16x2));
    }

    /// Minimum version and target of the half-precision forms.
    fn half_requirements(&mut self, tname: Name, ty: Ty, instr: &str) {
        match ty {
            Ty::F16 | Ty::F16x2 => self.require(tname.span, instr, 42, 53),
            Ty::BF16 | Ty::BF16x2 => self.require(tname.span, instr, 78, 90),
            _ => {}
        }
    }

    /// `setp` destinations (ptxas): `p`, `_`, `p|q`, `_|q`, `p|_`, `p|p` for every
    /// type except `.f16`/`.bf16`, which write one predicate: `p`, `_` or `p|_`.
    fn setp_dest(&mut self, op: &Operand, instr: &str, ty: Ty) {
        let single = matches!(ty, Ty::F16 | Ty::BF16);
        if single
            && let Operand::Pair(_, q) = op
            && !matches!(**q, Operand::Sink(_))
        {
            self.error(op.span(), format!("{instr}: {} comparison writes one predicate", ty.word()));
            return;
        }
        self.pred_dest(op, instr, true);
    }

    /// `set` (PTX ISA 9.7.6.1, and the half-precision `set` of 9.7.7.1 that ptxas
    /// also accepts): the first type is the destination's, the second the sources'.
    pub(super) fn set(&mut self, i: &I<'a>, instr: &str) {
        let m = self.cmp_mods(i, instr, true);
        let [(dty, dname), (sty, sname)] = m.types[..] else {
            self.error(i.opcode.span, format!("{instr}: needs a destination type and a source type"));
            return;
        };
        if !is_standard(sty) && !is_half(sty) {
            self.error(sname.span, format!("{instr}: source type {} is not comparable by set", sty.word()));
            return;
        }
        if !set_types_allowed(dty, sty) {
            let msg = format!("{instr}: set cannot write {} from {} comparisons", dty.word(), sty.word());
            self.error(dname.span, msg);
            return;
        }
        let bf16 = matches!(dty, Ty::BF16 | Ty::BF16x2) || matches!(sty, Ty::BF16 | Ty::BF16x2);
        if bf16 {
            self.require(sname.span, instr, 78, 90);
        } else if matches!(sty, Ty::F16 | Ty::F16x2) && matches!(dty, Ty::U16 | Ty::S16 | Ty::U32 | Ty::S32) {
            self.require(sname.span, &format!("{instr} (integer result of a half comparison)"), 65, 53);
        } else if dty == Ty::F16 || sty == Ty::F16x2 || sty == Ty::F16 {
            self.require(sname.span, instr, 42, 53);
        }
        if let Some((op, n)) = m.cmp
            && let Err(why) = op.allowed_for(sty)
        {
            self.error(n.span, format!("{instr}: {why}"));
        }
        if let Some(f) = m.ftz
            && (bf16 || !matches!(sty, Ty::F32 | Ty::F16 | Ty::F16x2))
        {
            self.error(f.span, format!("{instr}: `.ftz` applies only to .f32, .f16 and .f16x2 comparisons"));
        }
        if i.operands.len() < 3 {
            let c = if m.boolop.is_some() { ", c" } else { "" };
            self.error(i.span, format!("{instr}: expects d, a, b{c}"));
            return;
        }
        match &i.operands[0] {
            Operand::Pair(..) | Operand::Sink(_) => {
                self.error(i.operands[0].span(), format!("{instr}: the destination is one register"));
            }
            d => {
                self.typed_operand(d, dty, instr, "destination", false);
            }
        }
        let half = is_half(sty);
        self.typed_operand(&i.operands[1], sty, instr, "operand a", !half);
        self.typed_operand(&i.operands[2], sty, instr, "operand b", !half);
        self.boolop_operand(i, instr, &m, 3, bf16);
    }

    pub(super) fn selp(&mut self, i: &I<'a>, instr: &str) {
        let m = self.cmp_mods(i, instr, false);
        if let Some(f) = m.ftz {
            self.error(f.span, format!("{instr}: selp has no `.ftz`"));
        }
        let [(ty, tname)] = m.types[..] else {
            self.error(i.opcode.span, format!("{instr}: needs exactly one type"));
            return;
        };
        if !matches!(ty.bits(), 16 | 32 | 64)
            || matches!(ty, Ty::F16 | Ty::BF16 | Ty::F16x2 | Ty::BF16x2 | Ty::TF32)
        {
            self.error(tname.span, format!("{instr}: selp does not select {} values", ty.word()));
            return;
        }
        if !self.operand_count(i, instr, 4, 4) {
            return;
        }
        self.typed_operand(&i.operands[0], ty, instr, "destination", false);
        self.typed_operand(&i.operands[1], ty, instr, "operand a", true);
        self.typed_operand(&i.operands[2], ty, instr, "operand b", true);
        self.pred_operand_of(&i.operands[3], instr, "operand c", false);
    }

    pub(super) fn slct(&mut self, i: &I<'a>, instr: &str) {
        let m = self.cmp_mods(i, instr, false);
        let [(dty, dname), (cty, cname)] = m.types[..] else {
            self.error(
                i.opcode.span,
                format!("{instr}: needs a destination type and a selector type (.s32 or .f32)"),
            );
            return;
        };
        if !matches!(dty.bits(), 16 | 32 | 64)
            || matches!(dty, Ty::F16 | Ty::BF16 | Ty::F16x2 | Ty::BF16x2 | Ty::TF32)
        {
            self.error(dname.span, format!("{instr}: slct does not select {} values", dty.word()));
            return;
        }
        if !matches!(cty, Ty::S32 | Ty::F32) {
            self.error(cname.span, format!("{instr}: selector type must be .s32 or .f32"));
            return;
        }
        if let Some(f) = m.ftz
            && cty != Ty::F32
        {
            self.error(f.span, format!("{instr}: `.ftz` applies only to an .f32 selector"));
        }
        if !self.operand_count(i, instr, 4, 4) {
            return;
        }
        self.typed_operand(&i.operands[0], dty, instr, "destination", false);
        self.typed_operand(&i.operands[1], dty, instr, "operand a", true);
        self.typed_operand(&i.operands[2], dty, instr, "operand b", true);
        self.typed_operand(&i.operands[3], cty, instr, "operand c", true);
    }

    /// A predicate source: a `.pred` register, an integer immediate (non-zero is
    /// true) or a symbol, optionally negated with `!`. ptxas also takes an `.f16x2`
    /// register wherever a predicate goes (it shares the predicate's register
    /// class); ptxvm follows ptxas (tools/ptxas_matrix_findings.md).
    pub(super) fn pred_source(&mut self, op: &Operand, instr: &str, role: &str) {
        self.pred_operand_of(op, instr, role, true)
    }

    /// A predicate source that may (`symbols`) or may not be a function address;
    /// ptxas takes a function name as a source of `and/or/xor/not/mov.pred` but not
    /// as the `c` operand of `setp`, `set` or `selp`, and never a variable.
    pub(super) fn pred_operand_of(&mut self, op: &Operand, instr: &str, role: &str, symbols: bool) {
        match op {
            Operand::Not(inner, _) => self.pred_operand_of(inner, instr, role, symbols),
            Operand::Int { .. } => {}
            Operand::Name(n) => match self.resolve_value_name(*n, instr) {
                Some(Def { sym: Sym::Reg { ty: Ty::Pred | Ty::F16x2, .. }, .. }) | None => {}
                Some(Def { sym: Sym::Func(_), .. }) if symbols => {}
                Some(Def { sym: Sym::Func(_) | Sym::Var { .. }, .. }) => {
                    self.error(n.span, format!("{instr}: {role} `{}` is not a predicate register", self.t(n)))
                }
                Some(Def { sym: Sym::Reg { ty, .. }, .. }) => self.error(
                    n.span,
                    format!("{instr}: {role} `{}` is a {} register, not a predicate", self.t(n), ty.word()),
                ),
            },
            other => self.error(
                other.span(),
                format!("{instr}: {role} must be a predicate, optionally negated with `!`"),
            ),
        }
    }

    /// A predicate destination of predicate logic: a `.pred` (or `.f16x2`) register;
    /// ptxas refuses the sink `_` here ("Result discard mode is not allowed").
    fn pred_logic_dest(&mut self, op: &Operand, instr: &str) {
        match op {
            Operand::Name(n) => match self.resolve_value_name(*n, instr) {
                Some(Def { sym: Sym::Reg { ty: Ty::Pred | Ty::F16x2, .. }, .. }) | None => {}
                Some(_) => self
                    .error(n.span, format!("{instr}: destination `{}` is not a .pred register", self.t(n))),
            },
            Operand::Sink(s) => self.error(*s, format!("{instr}: the destination cannot be the sink `_`")),
            other => self.error(other.span(), format!("{instr}: destination must be a .pred register")),
        }
    }

    /// `and/or/xor/not/cnot` (PTX ISA 9.7.8, and 9.3.2 for `.pred`): one type among
    /// `.b16 .b32 .b64` (and `.pred` except for `cnot`).
    pub(super) fn logic(&mut self, i: &I<'a>, instr: &str) {
        let [tname] = i.mods else {
            self.error(i.opcode.span, format!("{instr}: needs exactly one type (.pred, .b16, .b32 or .b64)"));
            return;
        };
        let ty = Ty::from_word(self.t(tname));
        let ok = match ty {
            Some(Ty::B16 | Ty::B32 | Ty::B64) => true,
            Some(Ty::Pred) => self.t(i.opcode) != "cnot",
            _ => false,
        };
        let Some(ty) = ty.filter(|_| ok) else {
            self.error(
                tname.span,
                format!("{instr}: `{}` is not a type for {}", self.t(tname), self.t(i.opcode)),
            );
            return;
        };
        let sources = if matches!(self.t(i.opcode), "not" | "cnot") { 1 } else { 2 };
        if !self.operand_count(i, instr, sources + 1, sources + 1) {
            return;
        }
        let roles = ["operand a", "operand b"];
        if ty == Ty::Pred {
            self.pred_logic_dest(&i.operands[0], instr);
            for (op, role) in i.operands[1..].iter().zip(roles) {
                self.pred_source(op, instr, role);
            }
        } else {
            self.typed_operand(&i.operands[0], ty, instr, "destination", false);
            for (op, role) in i.operands[1..].iter().zip(roles) {
                self.typed_operand(op, ty, instr, role, true);
            }
        }
    }

    /// `mov.type d, a` with a register or immediate source; other forms (special
    /// registers, symbol addresses, vectors) only need their names resolved.
    pub(super) fn mov(&mut self, i: &I<'a>, instr: &str) {
        if let [v, _] = i.mods
            && self.t(v).starts_with(".v")
        {
            self.mov_vector(i, instr);
            return;
        }
        let ty = match i.mods {
            [m] => match Ty::from_word(self.t(m)) {
                Some(t) => t,
                None => {
                    self.error(m.span, format!("{instr}: `{}` is not a type for mov", self.t(m)));
                    return;
                }
            },
            [] => {
                self.error(i.opcode.span, format!("{instr}: needs a type such as .u32"));
                return;
            }
            [_, extra, ..] => {
                self.error(extra.span, format!("{instr}: unexpected modifier `{}`", self.t(extra)));
                return;
            }
        };
        if !self.operand_count(i, instr, 2, 2) {
            return;
        }
        if ty == Ty::Pred {
            self.pred_logic_dest(&i.operands[0], instr);
            self.pred_source(&i.operands[1], instr, "operand a");
            return;
        }
        if matches!(i.operands[0], Operand::Vector(..)) || matches!(i.operands[1], Operand::Vector(..)) {
            self.mov_pack(i, ty, instr);
        }
        match &i.operands[0] {
            Operand::Name(_) => {
                self.typed_operand(&i.operands[0], ty, instr, "destination", false);
            }
            other => self.resolve_operand(other, instr),
        }
        match &i.operands[1] {
            op @ Operand::Name(n)
                if matches!(self.lookup(self.t(n)), Some(Def { sym: Sym::Reg { .. }, .. })) =>
            {
                self.typed_operand(op, ty, instr, "operand a", true);
            }
            op @ (Operand::Int { .. } | Operand::Float { .. }) => {
                self.typed_operand(op, ty, instr, "operand a", true);
            }
            // A texture, sampler or surface handle moves into a 64-bit register
            // (ptxas: "Indirect access to texture requires .u64 type").
            Operand::Name(n)
                if matches!(
                    self.lookup(self.t(n)),
                    Some(Def { sym: Sym::Var { ty: Ty::TexRef | Ty::SamplerRef | Ty::SurfRef, .. }, .. })
                ) && ty.bits() != 64 =>
            {
                self.error(
                    n.span,
                    format!("{instr}: a texture, sampler or surface handle needs a 64-bit mov"),
                );
            }
            other => self.resolve_operand(other, instr),
        }
    }
}

/// The eleven types of the integer and single/double `setp`/`set`/`selp` forms.
fn is_standard(ty: Ty) -> bool {
    matches!(
        ty,
        Ty::B16
            | Ty::B32
            | Ty::B64
            | Ty::U16
            | Ty::U32
            | Ty::U64
            | Ty::S16
            | Ty::S32
            | Ty::S64
            | Ty::F32
            | Ty::F64
    )
}

fn is_half(ty: Ty) -> bool {
    matches!(ty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)
}

/// The destination/source type pairs of `set` that ptxas 13.5 accepts
/// (tools/ptxas_matrix_findings.md, section 4).
fn set_types_allowed(d: Ty, s: Ty) -> bool {
    match d {
        Ty::U32 | Ty::S32 => true,
        Ty::F32 => is_standard(s),
        Ty::U16 | Ty::S16 => matches!(s, Ty::F16 | Ty::BF16),
        Ty::F16 => is_standard(s) || s == Ty::F16,
        Ty::BF16 => is_standard(s) || matches!(s, Ty::F16 | Ty::BF16),
        Ty::F16x2 => s == Ty::F16x2,
        Ty::BF16x2 => s == Ty::BF16x2,
        _ => false,
    }
}
