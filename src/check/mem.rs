//! Rules of the memory instructions that go beyond operand counts: vector widths of
//! `ld`, `st` and `ldu`, including the 256-bit forms (PTX ISA 9.7.9.8-9.7.9.10;
//! the verdicts of ptxas 13.5 in tests/data/ptxas_matrix/syntax_cases.jsonl, group
//! `v8`, and SYNTAX.md there).

use super::Checker;
use super::I;
use super::scope::{Def, Sym};
use super::types::{Class, Ty, compatible};
use crate::syntax::ast::{Name, Operand, Space};

/// May a register of type `reg` hold an element of a 256-bit access of type `instr`?
/// ptxas: as for other instructions, and a float type also takes the integer
/// registers of its size.
pub(super) fn element_fits(instr: Ty, reg: Ty) -> bool {
    compatible(instr, reg)
        || (instr.class() == Class::Float
            && matches!(reg.class(), Class::Signed | Class::Unsigned)
            && instr.bits() == reg.bits())
}

impl<'a> Checker<'a> {
    /// Reports register `n`, of type `reg`, where an element of type `want` goes;
    /// `what` (`""`, `"source "`, ...) says which operand.
    pub(super) fn element_mismatch(&mut self, n: Name, reg: Ty, want: Ty, name: &str, what: &str) {
        let msg = format!(
            "{name}: {what}`{}` is a {} register, not one for {}",
            self.t(n),
            reg.word(),
            want.word()
        );
        self.error(n.span, msg);
    }

    /// The registers of a 256-bit access's vector: each of a fitting type (a store's
    /// bit-size sources may be wider), and not a mixture of float and integer
    /// registers.
    fn wide_elements(&mut self, items: &[Operand], ty: Ty, name: &str, store: bool) {
        let mut classes = Vec::new();
        for item in items {
            let Operand::Name(n) = item else { continue };
            let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) = self.lookup(self.t(n)) else { continue };
            // A store's bit-size source may be wider than the type (ISA 6.4.1.1).
            let wider = store && ty.class() == Class::Bit && reg.bits() > ty.bits();
            if !element_fits(ty, reg) && !wider {
                self.element_mismatch(*n, reg, ty, name, "");
            }
            classes.push(reg.class() == Class::Float);
        }
        if classes.iter().any(|&f| f) && classes.iter().any(|&f| !f) && ty.class() == Class::Float {
            self.error(items[0].span(), format!("{name}: a vector mixes float and integer registers"));
        }
    }

    /// `.v2`/`.v4`/`.v8` of `ld`, `st` and `ldu`: element counts, the 128-bit limit,
    /// and the 256-bit forms (`.v8` of a 32-bit type, `.v4` of a 64-bit type), which
    /// need PTX 8.8, sm_100 and global or generic memory.
    /// `atom`/`red` `.v2`/`.v4`/`.v8`: each vector operand (the destination, the
    /// value) has the vector's size (ptxas: "Argument vector size mismatch").
    pub(super) fn atom_vector(&mut self, i: &I<'a>, name: &str) {
        let width = |m: &str| m.strip_prefix(".v").and_then(|n| n.parse::<usize>().ok());
        let Some(n) = i.mods.iter().find_map(|m| width(self.t(*m))) else {
            // ptxas: "Vector is not expected for argument 2 of instruction 'atom'".
            if let Some(v) =
                i.operands.iter().find(|o| matches!(o, Operand::Vector(items, _) if items.len() > 1))
            {
                self.error(v.span(), format!("{name}: a vector operand needs a .v2, .v4 or .v8 operation"));
            }
            return;
        };
        for o in i.operands {
            if let Operand::Vector(items, span) = o
                && items.len() != n
            {
                self.error(
                    *span,
                    format!("{name}: a .v{n} operand needs {n} elements, found {}", items.len()),
                );
            }
        }
    }

    pub(super) fn memory_vector(&mut self, i: &I<'a>, name: &str, form: &crate::isa::Form) {
        use crate::isa::{Opcode as O, Word};
        let opcode = form.opcode;
        use crate::isa::operands::{VectorFault, VectorWidth, vector_width};
        // Most accesses are scalar: look for a vector width before collecting anything.
        let width = |m: &str| m.strip_prefix(".v").and_then(|n| n.parse::<u32>().ok());
        let l2_priority =
            [Word::L2EvictNormal, Word::L2EvictFirst, Word::L2EvictLast].iter().any(|w| form.has(*w));
        let data = if opcode == O::St { i.operands.get(1) } else { i.operands.first() };
        let Some(n) = i.mods.iter().find_map(|m| width(self.t(*m))) else {
            if l2_priority {
                self.error(i.span, format!("{name}: the .L2 eviction priorities are for 256-bit accesses"));
            }
            // ptxas: "Argument vector size mismatch" (a braced single register is one).
            if let Some(v @ Operand::Vector(items, _)) = data
                && items.len() > 1
            {
                self.error(v.span(), format!("{name}: a vector operand needs a .v2, .v4 or .v8 access"));
            }
            return;
        };
        let Some(ty) = form.ty() else { return };
        // The rule is the table's (isa::operands); what is said of it, check's.
        let wide = match vector_width(opcode, n, ty) {
            Ok(w) => w == VectorWidth::Wide,
            Err(VectorFault::Count) => return self.error(i.span, format!("{name}: illegal vector size {n}")),
            Err(VectorFault::V8Type) => {
                return self.error(
                    i.span,
                    format!("{name}: .v8 takes a 32-bit type or an 8- or 16-bit integer, not {}", ty.word()),
                );
            }
            Err(VectorFault::Over128) => {
                return self.error(i.span, format!("{name}: a vector of {n} {} exceeds 128 bits", ty.word()));
            }
        };
        if !wide && l2_priority {
            // ptxas: "requires '.v8.b32/.v4.b64' type with '.L2::evict_last' modifier".
            self.error(i.span, format!("{name}: the .L2 eviction priorities are for 256-bit accesses"));
        }
        if wide {
            let (version, target) = crate::isa::operands::WIDE_VECTOR;
            self.require(i.span, "256-bit wide load/store", version, target);
            let space = i.mods.iter().map(|m| self.t(*m)).find(|m| {
                matches!(
                    m.split("::").next().unwrap_or(""),
                    ".shared" | ".local" | ".param" | ".const" | ".global"
                )
            });
            if let Some(s) = space.filter(|s| *s != ".global") {
                self.error(
                    i.span,
                    format!("{name}: 256-bit loads and stores are global or generic, not {s}"),
                );
            }
        }
        // The data operand: the destination of a load, the source of a store.
        match data {
            Some(Operand::Vector(items, span)) if items.len() != n as usize => {
                self.error(
                    *span,
                    format!("{name}: a .v{n} access needs {n} elements, found {}", items.len()),
                );
            }
            Some(Operand::Vector(items, _)) if wide => self.wide_elements(items, ty, name, opcode == O::St),
            Some(Operand::Vector(..)) | None => {}
            Some(other) => {
                self.error(other.span(), format!("{name}: a .v{n} access needs a vector `{{...}}`"))
            }
        }
        if wide
            && let Some(Operand::Addr(a)) = i.operands.iter().find(|o| matches!(o, Operand::Addr(_)))
            && a.base.is_none()
        {
            self.error(a.span, format!("{name}: an absolute address is allowed only in .local memory"));
        }
    }
}

impl<'a> Checker<'a> {
    /// The address `[var+offset]` of a variable names the variable's own state space
    /// (ptxas 13.5: "State space mismatch between instruction and address"): that
    /// space, or, in a generic access, a space a generic address reaches (global,
    /// shared, local; not const or param).
    pub(super) fn variable_address(&mut self, i: &I<'a>, name: &str, space: Option<Space>) {
        let Some(Operand::Addr(a)) = i.operands.iter().find(|o| matches!(o, Operand::Addr(_))) else {
            return;
        };
        let Some(base) = a.base else { return };
        let Some(Def { sym: Sym::Var { space: var, .. }, .. }) = self.lookup(self.t(base)) else { return };
        let fits = match space {
            Some(s) => s == var,
            None => matches!(var, Space::Global | Space::Shared | Space::Local),
        };
        if !fits {
            let access = space.map_or("a generic access", super::space_word);
            let msg = format!(
                "{name}: `{}` is a {} variable, which {access} cannot address",
                self.t(base),
                super::space_word(var)
            );
            self.error(base.span, msg);
        }
    }

    /// A generic address (no state space) is 64 bits wide: ptxas 13.5 takes a 32-bit
    /// register for one as 32-bit addressing ("32-Bit compilation is no longer
    /// supported"). `.local.volatile` needs PTX 9.1.
    pub(super) fn generic_address(&mut self, i: &I<'a>, name: &str, f: &crate::isa::Form) {
        use crate::isa::{Word, groups};
        let space = f.pick(groups::SPACE);
        if f.has(Word::Volatile) && space == Some(Space::Local) {
            self.require(i.span, &format!("{name} (.local.volatile)"), 91, 0);
        }
        if space.is_some() {
            return;
        }
        let Some(Operand::Addr(a)) = i.operands.iter().find(|o| matches!(o, Operand::Addr(_))) else {
            return;
        };
        let Some(base) = a.base else { return };
        if let Some(Def { sym: Sym::Reg { ty, .. }, .. }) = self.lookup(self.t(base))
            && ty.bits() == 32
        {
            let msg = format!(
                "{name}: a generic address is 64 bits wide; `{}` is a {} register (name the state space of a 32-bit address)",
                self.t(base),
                ty.word()
            );
            self.error(base.span, msg);
        }
    }

    /// `mov.v2`/`mov.v4` (ptxas 13.5, tests/data/ptxas_matrix/SYNTAX.md, `vecmov`):
    /// 16-, 32- and (`.v2` only) 64-bit types; the destination a vector of exactly N
    /// registers (sinks allowed, not all); the source N elements or one register or
    /// immediate for all of them.
    pub(super) fn mov_vector(&mut self, i: &I<'a>, instr: &str) {
        let (v, t) = (self.t(i.mods[0]), self.t(i.mods[1]));
        let n: usize = match v {
            ".v2" => 2,
            ".v4" => 4,
            _ => {
                self.error(
                    i.mods[0].span,
                    format!("{instr}: illegal vector size `{v}` (mov takes .v2 or .v4)"),
                );
                return;
            }
        };
        let Some(ty) = Ty::from_word(t) else {
            self.error(i.mods[1].span, format!("{instr}: `{t}` is not a type for mov"));
            return;
        };
        if ty == Ty::Pred {
            self.error(i.mods[0].span, format!("{instr}: a .pred mov has no vector form"));
            return;
        }
        let ok = match ty.bits() {
            16 | 32 => !matches!(ty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2),
            64 => n == 2,
            _ => false,
        };
        if !ok {
            self.error(
                i.mods[1].span,
                format!("{instr}: vector mov takes 16-, 32- or (.v2) 64-bit integer, .f32 or .f64 types"),
            );
            return;
        }
        if !self.operand_count(i, instr, 2, 2) {
            return;
        }
        match &i.operands[0] {
            Operand::Vector(items, span) => {
                if items.len() != n {
                    self.error(
                        *span,
                        format!("{instr}: the destination needs {n} elements, found {}", items.len()),
                    );
                }
                if items.iter().all(|o| matches!(o, Operand::Sink(_))) {
                    self.error(*span, format!("{instr}: every destination element is `_`"));
                }
                let ty = self.vector_type(items, ty, instr);
                for item in items.iter().filter(|o| !matches!(o, Operand::Sink(_))) {
                    self.vector_element(item, ty, instr, "destination");
                }
            }
            other => self.error(
                other.span(),
                format!("{instr}: the destination of a .v{n} mov is a vector `{{...}}`"),
            ),
        }
        match &i.operands[1] {
            Operand::Vector(items, span) => {
                if items.len() != n {
                    self.error(
                        *span,
                        format!("{instr}: the source needs {n} elements, found {}", items.len()),
                    );
                }
                let ty = self.vector_type(items, ty, instr);
                for item in items {
                    self.vector_element(item, ty, instr, "source");
                }
            }
            // One register or immediate for every element.
            one => self.vector_element(one, ty, instr, "source"),
        }
    }

    /// The type a vector's elements are checked against (ptxas): a `.bN` register of
    /// the type's size among them makes it that bit type, which any register of the
    /// size fits; float and integer registers do not mix.
    fn vector_type(&mut self, items: &[Operand], ty: Ty, instr: &str) -> Ty {
        let regs: Vec<Ty> = items
            .iter()
            .filter_map(|o| match o {
                Operand::Name(n) => match self.lookup(self.t(n)) {
                    Some(Def { sym: Sym::Reg { ty, vector: None, .. }, .. }) => Some(ty),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        if let Some(bit) = regs.iter().find(|r| r.class() == Class::Bit && r.bits() == ty.bits()) {
            return *bit;
        }
        let float = regs.iter().any(|r| r.class() == Class::Float);
        if float && regs.iter().any(|r| matches!(r.class(), Class::Signed | Class::Unsigned)) {
            self.error(items[0].span(), format!("{instr}: a vector mixes float and integer registers"));
        }
        ty
    }

    /// One element of a vector operand of type `ty`: a register that fits it (a float
    /// type also takes the integer registers of its size), or an immediate.
    fn vector_element(&mut self, op: &Operand, ty: Ty, instr: &str, role: &str) {
        match op {
            Operand::Name(n) => match self.resolve_value_name(*n, instr) {
                Some(Def { sym: Sym::Reg { ty: reg, vector: None, .. }, .. }) if !element_fits(ty, reg) => {
                    self.element_mismatch(*n, reg, ty, instr, &format!("{role} "));
                }
                Some(Def { sym: Sym::Reg { .. }, .. }) | None => {}
                Some(_) => self.error(n.span, format!("{instr}: {role} `{}` is not a register", self.t(n))),
            },
            Operand::Int { .. } | Operand::Float { .. } if role == "source" => {}
            Operand::Sink(span) => self.error(*span, format!("{instr}: `_` is not a {role} here")),
            other => self.error(
                other.span(),
                format!(
                    "{instr}: a {role} element is a register{}",
                    if role == "source" { " or an immediate" } else { "" }
                ),
            ),
        }
    }
}

impl<'a> Checker<'a> {
    /// Packing and unpacking with `mov` (`mov.b32 {%h1, %h2}, %r1;` and back): a
    /// `.bN` type, a vector on one side only, of 2 or 4 elements (ptxas 13.5,
    /// SYNTAX.md `vecmov`); not every destination element `_`, and `_` among the
    /// sources only of `.b32`.
    pub(super) fn mov_pack(&mut self, i: &I<'a>, ty: Ty, instr: &str) {
        let (d, a) = (&i.operands[0], &i.operands[1]);
        if ty.class() != Class::Bit {
            self.error(
                i.span,
                format!("{instr}: packing and unpacking need a .b16, .b32, .b64 or .b128 type"),
            );
            return;
        }
        if let Operand::Sink(span) = d {
            self.error(*span, format!("{instr}: the result of mov cannot be discarded with `_`"));
        }
        if let Operand::Sink(span) = a {
            self.error(*span, format!("{instr}: `_` is not a source operand"));
        }
        if let (Operand::Vector(..), Operand::Vector(..)) = (d, a) {
            self.error(i.span, format!("{instr}: a vector on both sides is `mov.v2`/`mov.v4`, not packing"));
            return;
        }
        if let Operand::Vector(items, span) = d {
            if !matches!(items.len(), 2 | 4) {
                self.error(*span, format!("{instr}: illegal vector size {}", items.len()));
            } else if items.iter().all(|o| matches!(o, Operand::Sink(_))) {
                self.error(*span, format!("{instr}: every destination element is `_`"));
            }
        }
        for side in [d, a] {
            let Operand::Vector(items, span) = side else { continue };
            let sizes: Vec<u32> = items
                .iter()
                .filter_map(|o| match o {
                    Operand::Name(n) => match self.lookup(self.t(n)) {
                        Some(Def { sym: Sym::Reg { ty, vector: None, .. }, .. }) => Some(ty.bits()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            if sizes.windows(2).any(|w| w[0] != w[1]) {
                self.error(*span, format!("{instr}: the elements have different sizes"));
            } else if let Some(&bits) = sizes.first()
                && u64::from(bits) * items.len() as u64 != u64::from(ty.bits())
            {
                let msg =
                    format!("{instr}: {} elements of {bits} bits do not make a {}", items.len(), ty.word());
                self.error(*span, msg);
            }
        }
        if let Operand::Vector(items, span) = a {
            if !matches!(items.len(), 2 | 4) {
                self.error(*span, format!("{instr}: illegal vector size {}", items.len()));
            } else if ty != Ty::B32 && items.iter().any(|o| matches!(o, Operand::Sink(_))) {
                self.error(*span, format!("{instr}: `_` is not a source operand"));
            }
        }
    }
}
