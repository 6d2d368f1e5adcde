//! `cvt` (PTX ISA 9.7.9.21): which type pairs convert, which rounding each pair needs
//! or refuses, and where `.ftz`, `.sat`, `.relu` and `.satfinite` apply, as ptxas 13
//! judges them (tests/data/ptxas_matrix/table_cases.jsonl). The table row has already
//! checked the words themselves; this is the rule between them and the types.

use super::types::{Class, Ty};
use super::{Checker, I};
use crate::isa::{Form, Word, groups};
use crate::syntax::ast::Operand;

/// How a conversion changes a value, for the rounding rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    IntToInt,
    FloatToInt,
    IntToFloat,
    /// The same floating-point type: rounding to an integral value is optional.
    Same,
    /// Fewer bits of precision or range: a floating-point rounding is required.
    Narrow,
    /// Every value is exact: no rounding.
    Widen,
    /// Between f16 and bf16, or from bf16 to a wider type: rounding is optional.
    Either,
    /// Two .f32 sources packed into a pair (`.f16x2`, `.bf16x2`, fp8 pairs), or an
    /// fp8 pair unpacked.
    Pack,
}

fn is_int(t: Ty) -> bool {
    matches!(t.class(), Class::Signed | Class::Unsigned)
}

/// The fp8 formats (pairs, and the single `.e4m3`/`.e5m2` ptxas also takes).
fn is_fp8(t: Ty) -> bool {
    matches!(t, Ty::E4m3x2 | Ty::E5m2x2 | Ty::Other)
}

fn is_half(t: Ty) -> bool {
    matches!(t, Ty::F16 | Ty::BF16)
}

/// The range of an integer type as (min, max) in i128.
fn range(t: Ty) -> (i128, i128) {
    let bits = t.bits();
    if t.class() == Class::Signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// What kind of conversion `d ← s` is, or `None` when ptxas has no such conversion
/// (bit-size types, 8-bit integers with bf16, ...).
fn kind(d: Ty, s: Ty) -> Option<Kind> {
    let float = |t: Ty| matches!(t, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64);
    let byte = |t: Ty| matches!(t, Ty::U8 | Ty::S8);
    Some(match (d, s) {
        (d, s) if is_int(d) && is_int(s) => Kind::IntToInt,
        (Ty::BF16, s) | (s, Ty::BF16) if byte(s) => return None,
        (d, s) if is_int(d) && float(s) => Kind::FloatToInt,
        (d, s) if float(d) && is_int(s) => Kind::IntToFloat,
        (d, s) if d == s && float(d) => Kind::Same,
        (Ty::F16, Ty::BF16) | (Ty::BF16, Ty::F16) | (Ty::F32 | Ty::F64, Ty::BF16) => Kind::Either,
        (Ty::F32, Ty::F16) | (Ty::F64, Ty::F16 | Ty::F32) => Kind::Widen,
        (Ty::F16 | Ty::BF16, Ty::F32 | Ty::F64) | (Ty::F32, Ty::F64) | (Ty::TF32, Ty::F32) => Kind::Narrow,
        (Ty::F16x2 | Ty::BF16x2, Ty::F32) => Kind::Pack,
        (d, s) if (is_fp8(d) && matches!(s, Ty::F32 | Ty::F16x2)) || (d == Ty::F16x2 && is_fp8(s)) => {
            Kind::Pack
        }
        _ => return None,
    })
}

impl<'a> Checker<'a> {
    /// The registers of a scalar cvt, each held to its type by the relaxed rule of
    /// `isa::operands::cvt_fit`; a source immediate fits the source type.
    fn cvt_registers(&mut self, i: &I<'a>, name: &str, d: Ty, s: Ty) {
        use super::scope::{Def, Sym};
        let scalar = |t: Ty| t.is_int() || matches!(t, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64);
        if !scalar(d) || !scalar(s) || i.operands.len() != 2 {
            return;
        }
        let fit = crate::isa::operands::cvt_fit(d, s);
        // A source immediate fits the source type (ptxas: `cvt.rzi.s32.f32 d, 1` is an
        // error, `cvt.rn.f32.s32 d, 1` is not).
        let src = &i.operands[1];
        if matches!(src, Operand::Int { .. } | Operand::Float { .. }) && !self.immediate_fits(src, s) {
            let text = src.span().text(self.src);
            self.error(src.span(), format!("{name}: source `{text}` is not a {} immediate", s.word()));
        }
        for (k, ty) in [(0, d), (1, s)] {
            let Operand::Name(n) = &i.operands[k] else { continue };
            let Some(Def { sym: Sym::Reg { ty: reg, .. }, .. }) = self.lookup(self.t(n)) else { continue };
            let role = if k == 0 { "destination" } else { "source" };
            self.fitting_register(*n, reg, ty, fit, name, role);
        }
    }

    pub(super) fn cvt_rules(&mut self, i: &I<'a>, name: &str, f: &Form) {
        let &[d, s] = f.types() else { return };
        let Some(kind) = kind(d, s) else {
            self.error(i.opcode.span, format!("{name}: cvt does not convert {} to {}", s.word(), d.word()));
            return;
        };
        let irnd = f.pick(groups::IRND).is_some();
        let frnd = f.pick(groups::RND).is_some();
        let (rna, rs) = (f.has(Word::Rna), f.has(Word::Rs));
        let fail = |c: &mut Self, what: &str| c.error(i.opcode.span, format!("{name}: {what}"));
        let rounding_ok = match kind {
            Kind::IntToInt => !irnd && !frnd && !rna && !rs,
            Kind::FloatToInt => irnd && !frnd && !rna && !rs,
            Kind::IntToFloat => frnd && !irnd && !rna && !rs,
            Kind::Same => !frnd && !rna && !rs,
            Kind::Narrow if d == Ty::TF32 => {
                (f.has(Word::Rn) || f.has(Word::Rz) || rna)
                    && !irnd
                    && !rs
                    && !f.has(Word::Rm)
                    && !f.has(Word::Rp)
            }
            Kind::Narrow => frnd && !irnd && !rna && !rs,
            Kind::Widen => !frnd && !irnd && !rna && !rs,
            Kind::Either => !irnd && !rna && !rs,
            Kind::Pack if is_fp8(s) || is_fp8(d) => {
                f.has(Word::Rn) && !irnd && !rna && !rs && !f.has(Word::Rz)
            }
            // `.rs` (stochastic rounding) takes random bits as a fourth operand.
            Kind::Pack => (f.has(Word::Rn) || f.has(Word::Rz) || rs) && !irnd && !rna,
        };
        if !rounding_ok {
            let want = match kind {
                Kind::IntToInt | Kind::Widen => "takes no rounding modifier",
                Kind::FloatToInt => "needs an integer rounding (.rni, .rzi, .rmi, .rpi)",
                Kind::IntToFloat | Kind::Narrow => "needs a floating-point rounding (.rn, .rz, .rm, .rp)",
                Kind::Same => "takes only an integer rounding (.rni, .rzi, .rmi, .rpi)",
                Kind::Either => "takes only a floating-point rounding (.rn, .rz, .rm, .rp)",
                Kind::Pack => "needs .rn (or .rz for .f16x2 and .bf16x2)",
            };
            fail(self, &format!("{} to {} {want}", s.word(), d.word()));
        }
        // .ftz flushes .f32 subnormals: a float conversion with an .f32 side.
        if f.has(Word::Ftz)
            && !(matches!(
                kind,
                Kind::Same | Kind::Narrow | Kind::Widen | Kind::Either | Kind::FloatToInt | Kind::IntToFloat
            ) && (d == Ty::F32 || s == Ty::F32))
        {
            fail(self, ".ftz applies to conversions from or to .f32");
        }
        // .sat clamps what can overflow: an integer that does not fit, anything
        // converted to an integer or a float.
        if f.has(Word::Sat) {
            let ok = match kind {
                _ if d == Ty::BF16 || s == Ty::BF16 => false,
                Kind::IntToInt => {
                    let ((dl, dh), (sl, sh)) = (range(d), range(s));
                    sl < dl || sh > dh
                }
                Kind::Pack => false,
                _ => d != Ty::TF32,
            };
            if !ok {
                fail(self, &format!(".sat does not apply from {} to {}", s.word(), d.word()));
            }
        }
        self.cvt_registers(i, name, d, s);
        let narrow_from_f32 =
            s == Ty::F32 && (is_half(d) || is_fp8(d) || matches!(d, Ty::TF32 | Ty::F16x2 | Ty::BF16x2));
        let unpack_or_fp8 = (d == Ty::F16x2 && is_fp8(s)) || (is_fp8(d) && s == Ty::F16x2);
        if f.has(Word::Relu) && !(narrow_from_f32 || unpack_or_fp8) {
            fail(self, ".relu applies to conversions from .f32 to the half and fp8 types");
        }
        let fp8 = is_fp8(d);
        if f.has(Word::Satfinite) && !(narrow_from_f32 || fp8) {
            fail(self, ".satfinite applies to conversions from .f32 to the half, tf32 and fp8 types");
        }
        if fp8 && !f.has(Word::Satfinite) {
            fail(self, "a conversion to an fp8 pair needs .satfinite");
        }
        if d == Ty::TF32 && f.has(Word::Satfinite) && !rna {
            self.require(i.opcode.span, ".satfinite of cvt.rn/.rz.tf32.f32", 86, 100);
        }
        if rs {
            self.require(i.opcode.span, "cvt.rs", 87, 100);
        }
        // Two .f32 sources make a pair; everything else converts one value.
        let want = match kind {
            Kind::Pack if rs => 4,
            Kind::Pack if s == Ty::F32 => 3,
            _ => 2,
        };
        if i.operands.len() != want {
            self.error(i.span, format!("{name}: expects {want} operands, found {}", i.operands.len()));
        }
    }
}
