//! Rules of the memory instructions that go beyond operand counts: vector widths of
//! `ld`, `st` and `ldu`, including the 256-bit forms (PTX ISA 9.7.9.8-9.7.9.10;
//! the verdicts of ptxas 13.5 in tests/data/ptxas_matrix/syntax_cases.jsonl, group
//! `v8`, and SYNTAX.md there).

use super::Checker;
use super::I;
use super::scope::{Def, Sym};
use super::types::{Class, Ty, compatible};
use crate::syntax::ast::Operand;

/// May a register of type `reg` hold an element of a 256-bit access of type `instr`?
/// ptxas: as for other instructions, and a float type also takes the integer
/// registers of its size.
fn element_fits(instr: Ty, reg: Ty) -> bool {
    compatible(instr, reg)
        || (instr.class() == Class::Float
            && matches!(reg.class(), Class::Signed | Class::Unsigned)
            && instr.bits() == reg.bits())
}

impl<'a> Checker<'a> {
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
                self.error(
                    n.span,
                    format!(
                        "{name}: `{}` is a {} register, not one for {}",
                        self.t(n),
                        reg.word(),
                        ty.word()
                    ),
                );
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
    pub(super) fn memory_vector(&mut self, i: &I<'a>, name: &str) {
        let opcode = self.t(i.opcode);
        let mods: Vec<&str> = i.mods.iter().map(|m| self.t(*m)).collect();
        let Some(n) = mods.iter().find_map(|m| m.strip_prefix(".v").and_then(|n| n.parse::<u32>().ok()))
        else {
            return;
        };
        let Some(ty) = mods.iter().rev().find_map(|m| Ty::from_word(m)) else { return };
        let bits = ty.bits() * n;
        if !matches!(n, 2 | 4 | 8) || (n == 8 && opcode == "ldu") {
            self.error(i.span, format!("{name}: illegal vector size {n}"));
            return;
        }
        let wide = bits == 256
            && opcode != "ldu"
            && !matches!(ty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2 | Ty::Pred);
        if n == 8 && ty.bits() != 32 {
            self.error(i.span, format!("{name}: .v8 takes a 32-bit type, not {}", ty.word()));
            return;
        }
        if bits > 128 && !wide {
            self.error(i.span, format!("{name}: a vector of {n} {} exceeds 128 bits", ty.word()));
            return;
        }
        if wide {
            self.require(i.span, "256-bit wide load/store", 88, 100);
            let space = mods.iter().find(|m| {
                matches!(
                    m.split("::").next().unwrap_or(""),
                    ".shared" | ".local" | ".param" | ".const" | ".global"
                )
            });
            if let Some(s) = space.filter(|s| **s != ".global") {
                self.error(
                    i.span,
                    format!("{name}: 256-bit loads and stores are global or generic, not {s}"),
                );
            }
            if mods.contains(&".mmio") {
                self.error(i.span, format!("{name}: .mmio cannot be combined with a 256-bit vector"));
            }
        }
        // The data operand: the destination of a load, the source of a store.
        let data = if opcode == "st" { i.operands.get(1) } else { i.operands.first() };
        match data {
            Some(Operand::Vector(items, span)) if items.len() != n as usize => {
                self.error(
                    *span,
                    format!("{name}: a .v{n} access needs {n} elements, found {}", items.len()),
                );
            }
            Some(Operand::Vector(items, _)) if wide => self.wide_elements(items, ty, name, opcode == "st"),
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
