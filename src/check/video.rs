//! The video instructions' operands (PTX ISA 9.7.17): which operand may carry a byte
//! or half selector and which selectors, the destination mask of the SIMD forms, the
//! third source that a secondary operation needs, and `vmad`'s negated sources. The
//! table rows have already judged the types and words; this file judges what ptxas 13
//! judges between them and the operands (tests/ptxas_table_matrix.rs).

use super::types::Ty;
use super::{Checker, I};
use crate::isa::{Form, Opcode as O, Word};
use crate::syntax::ast::{Name, Operand};

/// The operand shapes of a video instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// `vop d, a{.asel}, b{.bsel}{, c}` with byte/half selectors; `d.dsel` in the
    /// four-operand form without a secondary operation.
    Scalar,
    /// `vmad d, {-}a{.asel}, {-}b{.bsel}, {-}c`.
    Mad,
    /// `vop2 d{.mask}, a{.hxy}, b{.hxy}, c`: two 16-bit lanes.
    Simd2,
    /// `vop4 d{.mask}, a{.bwxyz}, b{.bwxyz}, c`: four 8-bit lanes.
    Simd4,
}

fn shape(op: O) -> Shape {
    match op {
        O::Vmad => Shape::Mad,
        O::Vadd2 | O::Vsub2 | O::Vavrg2 | O::Vabsdiff2 | O::Vmin2 | O::Vmax2 | O::Vset2 => Shape::Simd2,
        O::Vadd4 | O::Vsub4 | O::Vavrg4 | O::Vabsdiff4 | O::Vmin4 | O::Vmax4 | O::Vset4 => Shape::Simd4,
        _ => Shape::Scalar,
    }
}

/// Where an operand stands: the destination, a selectable source (a or b), or c.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    D,
    Ab,
    C,
}

/// Is `sel` (with its dot) a selector this operand may carry?
fn selector_fits(shape: Shape, role: Role, sel: &str) -> bool {
    let digits = |prefix: &str| sel.strip_prefix(prefix).map(str::as_bytes);
    match (shape, role) {
        // `.b0`-`.b3`, `.h0`, `.h1`.
        (Shape::Scalar | Shape::Mad, _) => {
            matches!(sel, ".b0" | ".b1" | ".b2" | ".b3" | ".h0" | ".h1")
        }
        (Shape::Simd2, Role::D) => matches!(sel, ".h0" | ".h1" | ".h10"),
        // `.hxy`, each half one of the four of a and b.
        (Shape::Simd2, _) => {
            digits(".h").is_some_and(|d| d.len() == 2 && d.iter().all(|c| (b'0'..=b'3').contains(c)))
        }
        // A mask of bytes, highest first: `.b3210`, `.b20`, `.b1` ...
        (Shape::Simd4, Role::D) => digits(".b").is_some_and(|d| {
            !d.is_empty() && d.iter().all(|c| (b'0'..=b'3').contains(c)) && d.windows(2).all(|w| w[0] > w[1])
        }),
        // `.bwxyz`, each byte one of the eight of a and b.
        (Shape::Simd4, _) => {
            digits(".b").is_some_and(|d| d.len() == 4 && d.iter().all(|c| (b'0'..=b'7').contains(c)))
        }
    }
}

/// What one operand of a video instruction may be.
struct Slot<'s> {
    shape: Shape,
    role: Role,
    ty: Ty,
    which: &'s str,
    /// May it carry a selector (the destination only in some forms, c never)?
    selects: bool,
    /// May it be negated (vmad's sources without `.po`)?
    negates: bool,
}

impl<'a> Checker<'a> {
    /// The operands of a video instruction whose words and types the table accepted.
    pub(super) fn video(&mut self, i: &I<'a>, name: &str, f: &Form) {
        let shape = shape(f.opcode);
        let op2 = f.has(Word::Add) || f.has(Word::Min) || f.has(Word::Max);
        let n = i.operands.len();
        let counts: &[usize] = match shape {
            Shape::Scalar if op2 => &[4],
            Shape::Scalar => &[3, 4],
            _ => &[4],
        };
        if !counts.contains(&n) {
            let want = if counts.len() == 2 { "3 or 4" } else { "4" };
            let why = if shape == Shape::Scalar && op2 { " (a secondary operation takes c)" } else { "" };
            self.error(i.span, format!("{name}: expects {want} operands{why}, found {n}"));
            return;
        }
        // A comparison's destination is unsigned; the sources have the instruction's
        // types, and c the destination's.
        let (d_ty, a_ty, b_ty) = match f.types() {
            [a, b] => (Ty::U32, *a, *b),
            [d, a, b] => (*d, *a, *b),
            _ => (Ty::U32, Ty::U32, Ty::U32),
        };
        // ptxas: "Operand negation limited to either (source A xor source B) or
        // source C": negating a and b both leaves the product as it is.
        let neg = |k: usize| matches!(i.operands.get(k), Some(Operand::Neg(..)));
        if (neg(1) != neg(2)) && neg(3) {
            self.error(i.span, format!("{name}: negation of either the product (a xor b) or c, not both"));
        }
        for (k, op) in i.operands.iter().enumerate() {
            let (role, ty, which) = match k {
                0 => (Role::D, d_ty, "destination"),
                1 => (Role::Ab, a_ty, "source a"),
                2 => (Role::Ab, b_ty, "source b"),
                _ => (Role::C, d_ty, "source c"),
            };
            let selects = match (shape, role) {
                (_, Role::C) | (Shape::Mad, Role::D) => false,
                // `d.dsel` only in the four-operand form without a secondary operation.
                (Shape::Scalar, Role::D) => n == 4 && !op2,
                _ => true,
            };
            let negates = shape == Shape::Mad && role != Role::D && !f.has(Word::Po);
            self.video_operand(name, op, &Slot { shape, role, ty, which, selects, negates });
        }
    }

    fn video_operand(&mut self, name: &str, op: &Operand, slot: &Slot) {
        let which = slot.which;
        let op = match op {
            // ISA 9.7.17.2: vmad negates a, b or c, except in its `.po` form.
            Operand::Neg(inner, _) if slot.negates => &**inner,
            Operand::Neg(_, span) => {
                self.error(
                    *span,
                    format!("{name}: {which} cannot be negated (only vmad's sources, without .po)"),
                );
                return;
            }
            op => op,
        };
        let base;
        let op = match op {
            Operand::Component(name_, sel) => {
                let text = sel.text(self.src);
                if !slot.selects {
                    self.error(*sel, format!("{name}: no selector on {which} (`{text}`)"));
                } else if !selector_fits(slot.shape, slot.role, text) {
                    let valid = match (slot.shape, slot.role) {
                        (Shape::Scalar | Shape::Mad, _) => ".b0-.b3, .h0, .h1",
                        (Shape::Simd2, Role::D) => ".h0, .h1, .h10",
                        (Shape::Simd2, _) => ".hxy with x, y in 0-3",
                        (Shape::Simd4, Role::D) => ".b and bytes 3-0 in descending order",
                        (Shape::Simd4, _) => ".bwxyz with each digit in 0-7",
                    };
                    self.error(*sel, format!("{name}: `{text}` is not a selector of {which} ({valid})"));
                }
                base = Operand::Name(Name { span: name_.span });
                &base
            }
            op => op,
        };
        // The SIMD forms take no immediate source (ptxas 13.5: "Incorrect video
        // selector for operand 1"); the scalar forms and vmad do.
        let simd = matches!(slot.shape, Shape::Simd2 | Shape::Simd4);
        self.typed_operand(op, slot.ty, name, which, slot.role != Role::D && !simd);
    }
}
