//! Decoding the warpgroup MMA instructions (PTX ISA 9.7.15): `wgmma.fence`,
//! `wgmma.commit_group`, `wgmma.wait_group` and `wgmma.mma_async`.
//!
//! `check` holds `wgmma` to an open row (with its operation words, the number of
//! types, D's length and the descriptors' registers), so this file reads its words:
//! the shape
//! `.m64nNkK`, the types (D, A, B), `.satfinite` and `.and.popc`, each against the
//! ISA's list of variants (9.7.15.5.2), and the operands: D as a vector of N/2
//! registers (N/4 `.f16x2` ones for f16 accumulators), A as four registers or a
//! descriptor, B as a descriptor, the `scale-d` predicate, and the immediates
//! `imm-scale-a`/`imm-scale-b` (1 or -1, floating-point types only) and
//! `imm-trans-a`/`imm-trans-b` (0 or 1, f16 and bf16 only; trans-a only with A in
//! shared memory). A combination outside the list is an error before the launch.
//! `wgmma.mma_async.sp` (9.7.15.6) doubles K and adds the metadata register and the
//! sparsity selector after B.

use super::decode::Decoder;
use super::ops::*;
use super::program::fail;
use crate::check::types::Ty;
use crate::isa::Form;
use crate::sem::cvt::Fp8;
use crate::syntax::Span;
use crate::syntax::ast::*;

/// The N values of the integer and single-bit shapes (9.7.15.5.2): multiples of 8 up
/// to 32, then of 16 (up to 224 for s8/u8, 256 for b1).
fn int_n(n: u16, b1: bool) -> bool {
    n.is_multiple_of(8) && (8..=32).contains(&n)
        || n.is_multiple_of(16) && n > 32 && n <= if b1 { 256 } else { 224 }
}

impl<'m> Decoder<'m> {
    pub(super) fn wgmma_op(&mut self, i: &InstrView<'m>, _f: &Form) -> Result<Op, LowerError> {
        let name = i.full_name(self.src);
        let mods: Vec<&str> = i.mods.iter().map(|m| self.t(*m)).collect();
        let ops = i.operands;
        let bad = |span: Span, what: &str| fail::<Op>(span, format!("{name}: {what}"));
        let Some(&verb) = mods.first() else { return self.unsupported(i) };
        // .sync is required of all four (ptxas 13.5 says so for each, and takes
        // them without .aligned).
        if !mods.contains(&".sync") {
            return bad(i.span, "wgmma needs .sync");
        }
        let plain = mods.len() == 2 + usize::from(mods.contains(&".aligned"));
        match verb {
            ".fence" | ".commit_group" if ops.is_empty() && plain => {
                return Ok(Op::Wgmma(if verb == ".fence" { Wgmma::Fence } else { Wgmma::Commit }));
            }
            ".wait_group" if plain => {
                return match ops {
                    [Operand::Int { bits, .. }] if *bits <= u64::from(u32::MAX) => {
                        Ok(Op::Wgmma(Wgmma::Wait(*bits as u32)))
                    }
                    _ => bad(i.span, "wait_group takes one integer constant"),
                };
            }
            ".mma_async" => {}
            _ => return self.unsupported(i),
        }
        // The shape, then the types and words in the order the ISA writes them.
        let Some((n, k)) = mods.iter().find_map(|m| {
            let rest = m.strip_prefix(".m64n")?;
            let (n, k) = rest.split_once('k')?;
            Some((n.parse::<u16>().ok()?, k.parse::<u16>().ok()?))
        }) else {
            return bad(i.span, "expected a shape .m64nNkK");
        };
        let sparse = mods.contains(&".sp");
        let mut words: Vec<&str> = mods
            .iter()
            .copied()
            .filter(|m| !matches!(*m, ".mma_async" | ".sync" | ".aligned" | ".sp") && !m.starts_with(".m64n"))
            .collect();
        // The sparse form may give .satfinite after the types.
        if sparse && words.last() == Some(&".satfinite") {
            words.rotate_right(1);
        }
        let fp8 = |w: &str| match w {
            ".e4m3" => Some(Fp8::E4m3),
            ".e5m2" => Some(Fp8::E5m2),
            _ => None,
        };
        let signed = |w: &str| match w {
            ".s8" => Some(true),
            ".u8" => Some(false),
            _ => None,
        };
        let (kind, acc16) = match words.as_slice() {
            [d @ (".f16" | ".f32"), ".f16", ".f16"] => (WgmmaKind::Half { bf16: false }, *d == ".f16"),
            [".f32", ".bf16", ".bf16"] => (WgmmaKind::Half { bf16: true }, false),
            [".f32", ".tf32", ".tf32"] => (WgmmaKind::Tf32, false),
            [d @ (".f16" | ".f32"), a, b] if fp8(a).is_some() && fp8(b).is_some() => {
                (WgmmaKind::Fp8 { a: fp8(a).unwrap(), b: fp8(b).unwrap() }, *d == ".f16")
            }
            [sat @ .., ".s32", a, b] if signed(a).is_some() && signed(b).is_some() && sat.len() <= 1 => {
                if sat.first().is_some_and(|s| *s != ".satfinite") {
                    return self.unsupported(i);
                }
                let satfinite = !sat.is_empty();
                (
                    WgmmaKind::Int8 { a_signed: signed(a).unwrap(), b_signed: signed(b).unwrap(), satfinite },
                    false,
                )
            }
            [".s32", ".b1", ".b1", ".and", ".popc"] => (WgmmaKind::B1, false),
            _ => return bad(i.span, "these types are not a wgmma.mma_async variant"),
        };
        if sparse && kind == WgmmaKind::B1 {
            return bad(i.span, "b1 has no sparse wgmma");
        }
        let shape_ok = usize::from(k) == kind.k() * if sparse { 2 } else { 1 }
            && match kind {
                WgmmaKind::Int8 { .. } => int_n(n, false),
                WgmmaKind::B1 => int_n(n, true),
                _ => n.is_multiple_of(8) && (8..=256).contains(&n),
            };
        if !shape_ok {
            return bad(i.span, &format!("m64n{n}k{k} is not a shape of this type"));
        }
        let float = !matches!(kind, WgmmaKind::Int8 { .. } | WgmmaKind::B1);
        let half = matches!(kind, WgmmaKind::Half { .. });
        let regs_a = matches!(ops.get(1), Some(Operand::Vector(..)));
        // d, a, b-desc, (sp-meta, sp-sel,) scale-d, then the immediates.
        let imms = usize::from(float) * 2 + usize::from(half) * (1 + usize::from(!regs_a));
        let at = if sparse { 5 } else { 3 };
        if ops.len() != at + 1 + imms {
            return bad(i.span, &format!("expected {} operands, found {}", at + 1 + imms, ops.len()));
        }
        let count = if acc16 { n / 4 } else { n / 2 };
        let d = match &ops[0] {
            Operand::Vector(items, _) if items.len() == usize::from(count) => {
                items.iter().map(|o| self.dst(o)).collect::<Result<Vec<_>, _>>()?
            }
            o => return bad(o.span(), &format!("D is a vector of {count} registers")),
        };
        let a = match &ops[1] {
            Operand::Vector(items, span) => {
                if items.len() != 4 {
                    return bad(*span, "A in registers is a vector of 4 .b32 registers");
                }
                let mut r = [Src::Imm(0); 4];
                for (slot, o) in r.iter_mut().zip(items) {
                    *slot = self.src(o, Ty::B32)?;
                }
                WgmmaA::Regs(r)
            }
            o => WgmmaA::Desc(self.src(o, Ty::B64)?),
        };
        let b = self.src(&ops[2], Ty::B64)?;
        // The selector: a pair of threads of each group of four (16- and 32-bit
        // types), or all four (8-bit).
        let sparse = match sparse {
            false => None,
            true => {
                let most = if kind.bits() == 8 { 0 } else { 1 };
                let sel = match &ops[4] {
                    Operand::Int { bits, .. } if *bits <= most => *bits as u8,
                    o => return bad(o.span(), &format!("sp-sel is a constant from 0 to {most}")),
                };
                Some((self.src(&ops[3], Ty::B32)?, sel))
            }
        };
        let scale_d = self.pred_src(&ops[at])?;
        let imm = |k: usize, allowed: &[i64], what: &str| -> Result<i64, LowerError> {
            match ops.get(k) {
                Some(Operand::Int { bits, .. }) if allowed.contains(&(*bits as i64)) => Ok(*bits as i64),
                Some(o) => fail(o.span(), format!("{name}: {what} must be one of {allowed:?}")),
                None => fail(i.span, format!("{name}: {what} is missing")),
            }
        };
        let (mut neg_a, mut neg_b, mut trans_a, mut trans_b) = (false, false, false, false);
        if float {
            neg_a = imm(at + 1, &[1, -1], "imm-scale-a")? == -1;
            neg_b = imm(at + 2, &[1, -1], "imm-scale-b")? == -1;
        }
        if half {
            if regs_a {
                trans_b = imm(at + 3, &[0, 1], "imm-trans-b")? == 1;
            } else {
                trans_a = imm(at + 3, &[0, 1], "imm-trans-a")? == 1;
                trans_b = imm(at + 4, &[0, 1], "imm-trans-b")? == 1;
            }
        }
        let mut operands: Vec<u32> = d.iter().map(|s| s.key()).collect();
        if let WgmmaA::Regs(srcs) = a {
            operands.extend(srcs.iter().filter_map(|s| match s {
                Src::Reg(slot) => Some(slot.key()),
                Src::Imm(_) => None,
            }));
        }
        let operands = operands.into();
        let mma =
            WgmmaMma { kind, acc16, n, d, a, b, scale_d, neg_a, neg_b, trans_a, trans_b, operands, sparse };
        Ok(Op::Wgmma(Wgmma::Mma(Box::new(mma))))
    }
}
