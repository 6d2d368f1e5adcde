//! Operand rules of the instruction forms: what each operand position takes, as
//! ptxas 13.5 decides it (tests/ptxas_operand_matrix.rs holds `check` to its
//! verdicts). `check` enforces these rules and restates none of them.
//!
//! Sources: each instruction's operand list in PTX ISA 9.7 and its "Operand Type
//! Information" (5.2.3); where ptxas departs from the text, the rule follows ptxas and
//! says so.

use super::{Form, Opcode as O, Word};
use crate::check::types::{Class, Ty, compatible};

/// What kind of operand a position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A register whose type is compatible with the slot's (PTX ISA 5.2.3: the same
    /// size, and bit-size types mix with the others), or, where the slot allows it, an
    /// immediate that fits the type.
    Value,
    /// An address operand another rule checks: a register of the slot's type, a
    /// variable's name, or an immediate.
    Address,
    /// A generic address of either width: an integer or bit-size register of 32 or
    /// 64 bits, a variable's name, or an immediate (`isspacep`).
    Pointer,
    /// A memory operand in brackets, `[addr]`, which another rule resolves.
    Memory,
    /// An integer literal from `lo` to `hi`, a multiple of `step`: an ordinal, an
    /// enumerated value, a count or a fixed size.
    Immediate { lo: u32, hi: u32, step: u32 },
    /// A register of the slot's type, or an integer literal from `lo` to `hi`, a
    /// multiple of `step` (a barrier's number and thread count).
    ValueIn { lo: u32, hi: u32, step: u32 },
    /// Not checked by the signature.
    Any,
}

/// One operand position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub ty: Ty,
    /// A source that may be an immediate.
    pub imm: bool,
    pub kind: Kind,
}

/// A destination register of type `ty`.
const fn dst(ty: Ty) -> Slot {
    Slot { ty, imm: false, kind: Kind::Value }
}

/// A source of type `ty`: a register or an immediate.
const fn src(ty: Ty) -> Slot {
    Slot { ty, imm: true, kind: Kind::Value }
}

/// A source register of type `ty`, never an immediate.
const fn reg(ty: Ty) -> Slot {
    Slot { ty, imm: false, kind: Kind::Value }
}

const ANY: Slot = Slot { ty: Ty::Other, imm: true, kind: Kind::Any };
const MEMORY: Slot = Slot { ty: Ty::Other, imm: false, kind: Kind::Memory };

/// An integer literal from `lo` to `hi`.
const fn literal(lo: u32, hi: u32) -> Slot {
    Slot { ty: Ty::U32, imm: true, kind: Kind::Immediate { lo, hi, step: 1 } }
}

/// The operands of a form, in order: the destination first, then the sources. A form
/// takes from `min` to `slots().len()` operands (trailing ones are optional).
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    slots: [Slot; 5],
    len: u8,
    min: u8,
    /// The first operand is a destination (false: every operand is a source).
    pub writes: bool,
}

impl Signature {
    fn of(slots: &[Slot]) -> Signature {
        let mut out =
            Signature { slots: [ANY; 5], len: slots.len() as u8, min: slots.len() as u8, writes: true };
        out.slots[..slots.len()].copy_from_slice(slots);
        out
    }

    /// The same signature with sources only.
    fn sources(mut self) -> Signature {
        self.writes = false;
        self
    }

    /// The same signature whose operands from `min` on may be left out.
    fn optional_from(mut self, min: usize) -> Signature {
        self.min = min as u8;
        self
    }

    pub fn slots(&self) -> &[Slot] {
        &self.slots[..usize::from(self.len)]
    }

    /// Whether an instruction with `n` operands is held to this signature.
    pub fn fits(&self, n: usize) -> bool {
        (usize::from(self.min)..=usize::from(self.len)).contains(&n)
    }
}

/// The integer type of a bit-size one's size: ptxas takes no float register where
/// these forms say `.b32` (`redux.sync.and.b32 d, %f1, m` is an error).
fn integer(t: Ty) -> Ty {
    match t {
        Ty::B16 => Ty::U16,
        Ty::B32 => Ty::U32,
        Ty::B64 => Ty::U64,
        t => t,
    }
}

/// The operand signature of a form whose every operand has a type the form fixes
/// (PTX ISA 9.7's operand lists). `None` for the forms whose operands another rule
/// checks (the arithmetic of one type, comparisons, memory, conversions, video,
/// textures, control flow), or that have no signature yet.
pub fn signature(f: &Form) -> Option<Signature> {
    let sig = Signature::of;
    let pointer = Slot { ty: Ty::U64, imm: true, kind: Kind::Pointer };
    if f.opcode == O::Tensormap {
        return tensormap(f);
    }
    // The forms without a type word.
    match f.opcode {
        // ptxas takes a 32-bit register as well as a 64-bit one, never a float one.
        O::Isspacep => return Some(sig(&[dst(Ty::Pred), pointer])),
        O::Elect => return Some(sig(&[ANY, src(Ty::U32)])),
        O::Activemask => return Some(sig(&[dst(Ty::B32)])),
        // An event number 0-15, or a mask of the 16 events.
        O::Pmevent => {
            let hi = if f.has(Word::Mask) { 0xffff } else { 15 };
            return Some(sig(&[literal(0, hi)]).sources());
        }
        // `bar{.cta}.{sync,arrive} a{, b}`, `barrier{.cta}.{sync,arrive}{.aligned} a{, b}`:
        // barrier 0-15, a thread count that is a multiple of the warp size (ptxas
        // 13.5: "Barrier number '16' out of range", "Number of threads participating
        // in barrier must be in multiple of warp size").
        O::Bar | O::Barrier if !f.has(Word::Red) && !f.has(Word::Warp) && !f.has(Word::Cluster) => {
            let id = Slot { ty: Ty::U32, imm: true, kind: Kind::ValueIn { lo: 0, hi: 15, step: 1 } };
            let count =
                Slot { ty: Ty::U32, imm: true, kind: Kind::ValueIn { lo: 0, hi: u32::MAX, step: 32 } };
            return Some(sig(&[id, count]).optional_from(1).sources());
        }
        O::Bar if f.has(Word::Warp) => return Some(sig(&[src(Ty::U32)]).sources()),
        // A register count from 24 to 256, a multiple of 8.
        O::Setmaxnreg => {
            return Some(
                sig(&[Slot { ty: Ty::U32, imm: true, kind: Kind::Immediate { lo: 24, hi: 256, step: 8 } }])
                    .sources(),
            );
        }
        _ => {}
    }
    let t = f.ty()?;
    let address = Slot { ty: t, imm: true, kind: Kind::Address };
    let same = |n: usize| -> Signature {
        let mut slots = [src(t); 5];
        slots[0] = dst(t);
        sig(&slots[..n])
    };
    let half = matches!(t, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2);
    let one_type = f.types().len() == 1;
    Some(match f.opcode {
        // The halves take no immediate (ptxas: `add.rn.f16 d, a, 0x3C00` is an error).
        O::Add | O::Sub | O::Mul | O::Fma | O::Min | O::Max | O::Abs | O::Neg if half && one_type => {
            let n = match f.opcode {
                O::Fma => 4,
                O::Abs | O::Neg => 2,
                _ => 3,
            };
            sig(&[dst(t), reg(t), reg(t), reg(t)][..n])
        }
        O::Tanh | O::Ex2 if half && one_type => sig(&[dst(t), reg(t)]),
        O::Rcp | O::Sqrt | O::Rsqrt | O::Sin | O::Cos | O::Lg2 | O::Ex2 | O::Tanh if one_type && !half => {
            same(2)
        }
        O::Copysign if one_type => same(3),
        O::Addc | O::Subc if one_type => same(3),
        O::Madc if one_type && !f.has(Word::Wide) => same(4),
        O::Sad | O::Mad24 if one_type => same(4),
        O::Mul24 if one_type => same(3),
        O::Mul if one_type && f.has(Word::Wide) => sig(&[dst(t.widened()?), src(t), src(t)]),
        O::Mad if one_type && f.has(Word::Wide) => {
            sig(&[dst(t.widened()?), src(t), src(t), src(t.widened()?)])
        }
        O::Shl | O::Shr if one_type => sig(&[dst(t), src(t), src(Ty::U32)]),
        O::Bfe if one_type => sig(&[dst(t), src(t), src(Ty::U32), src(Ty::U32)]),
        O::Bfi if one_type => sig(&[dst(t), src(t), src(t), src(Ty::U32), src(Ty::U32)]),
        O::Popc | O::Clz | O::Bfind if one_type => sig(&[dst(Ty::U32), src(t)]),
        O::Brev if one_type => same(2),
        O::Prmt if f.types() == [Ty::B32] => same(4),
        // Member masks are 32-bit integers (a float register is no mask).
        O::Redux if one_type => sig(&[dst(integer(t)), src(integer(t)), src(Ty::U32)]),
        // ptxas takes a float register for a and b, not for the shift amount.
        O::Shf if one_type => sig(&[dst(t), src(t), src(t), src(Ty::U32)]),
        O::Fns if one_type => sig(&[dst(t), src(Ty::B32), src(Ty::B32), src(Ty::S32)]),
        O::Shfl if one_type => sig(&[dst(t), src(t), src(Ty::B32), src(Ty::B32), src(Ty::U32)]),
        O::Vote if f.has(Word::Ballot) => sig(&[dst(t), src(Ty::Pred), src(Ty::U32)]),
        O::Vote => sig(&[dst(Ty::Pred), src(Ty::Pred), src(Ty::U32)]),
        // ptxas takes a float register for the value, not for the result.
        O::Match if one_type => sig(&[dst(Ty::U32), src(t), src(Ty::U32)]),
        O::Cvta if one_type => sig(&[dst(t), address]),
        O::Mapa if one_type => sig(&[dst(t), address, src(Ty::U32)]),
        O::Getctarank if one_type => sig(&[dst(Ty::U32), address]),
        // `alloca.type ptr, size{, align}`: the size is as wide as the pointer.
        O::Alloca if one_type => sig(&[dst(t), src(t), src(Ty::U32)]).optional_from(2),
        // `dp4a.atype.btype d, a, b, c`: a and b are integers of their own type words
        // (no float register), c and d signed when either is.
        O::Dp4a | O::Dp2a => {
            let &[a, b] = f.types() else { return None };
            let signed = a.class() == Class::Signed || b.class() == Class::Signed;
            let d = if signed { Ty::S32 } else { Ty::U32 };
            sig(&[dst(d), src(a), src(b), src(d)])
        }
        // `mbarrier.{test,try}_wait.parity waitComplete, [addr], phaseParity{, hint}`.
        O::Mbarrier if f.has(Word::Parity) => {
            sig(&[dst(Ty::Pred), ANY, src(Ty::U32), src(Ty::U32)]).optional_from(3)
        }
        // `mbarrier.{test,try}_wait waitComplete, [addr], state{, hint}`: a 64-bit state.
        O::Mbarrier if f.has(Word::TestWait) || f.has(Word::TryWait) => {
            sig(&[dst(Ty::Pred), ANY, src(Ty::B64), src(Ty::U32)]).optional_from(3)
        }
        // `bar.red.popc.u32 d, a, {!}c` and `bar.red.{and,or}.pred p, a, {!}c` (the
        // form with a thread count has four operands, and no signature yet).
        O::Bar | O::Barrier if f.has(Word::Red) => sig(&[dst(t), src(Ty::U32), src(Ty::Pred)]),
        _ => return None,
    })
}

/// `tensormap.replace` (PTX ISA 9.7.9.26) and `tensormap.cp_fenceproxy` (9.7.9.27).
/// ptxas 13.5 takes a float register of the value's size for `.rank`,
/// `.global_address` and `.global_stride`, but not for the dimensions and strides of
/// `.b32`; the enumerated fields take only a literal ("Integer constant expression
/// expected"), in the ranges ptxas gives. `.elemtype` takes up to 15, as ptxas does
/// from PTX 8.7 on sm_100 (up to 12 before).
fn tensormap(f: &Form) -> Option<Signature> {
    let sig = Signature::of;
    if f.has(Word::CpFenceproxy) {
        return Some(sig(&[MEMORY, MEMORY, literal(128, 128)]));
    }
    let &(_, _, ordinal, value) = MAP_FIELDS.iter().find(|(w, ..)| f.has(*w))?;
    Some(if ordinal { sig(&[MEMORY, literal(0, 4), value]) } else { sig(&[MEMORY, value]) })
}

/// The field of a tensor map that `tensormap.replace` sets, with its ordinal (the
/// dimension) where it has one (PTX ISA 9.7.9.26).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapField {
    GlobalAddress,
    Rank,
    BoxDim(u8),
    GlobalDim(u8),
    /// The stride of dimension `ord + 1` (dimension 0's is the element's size).
    GlobalStride(u8),
    ElementStride(u8),
    ElemType,
    InterleaveLayout,
    SwizzleMode,
    SwizzleAtomicity,
    FillMode,
}

/// `tensormap.replace`'s field words: the field (given the ordinal), whether an
/// ordinal 0 to 4 comes before the value, and the value's slot (PTX ISA 9.7.9.26,
/// as ptxas 13.5 takes them).
type MapFieldRow = (Word, fn(u8) -> MapField, bool, Slot);
const MAP_FIELDS: [MapFieldRow; 11] = [
    (Word::GlobalAddress, |_| MapField::GlobalAddress, false, src(Ty::B64)),
    (Word::Rank, |_| MapField::Rank, false, src(Ty::B32)),
    (Word::BoxDim, MapField::BoxDim, true, src(Ty::U32)),
    (Word::GlobalDim, MapField::GlobalDim, true, src(Ty::U32)),
    (Word::GlobalStride, MapField::GlobalStride, true, src(Ty::B64)),
    (Word::ElementStride, MapField::ElementStride, true, src(Ty::U32)),
    (Word::Elemtype, |_| MapField::ElemType, false, literal(0, 15)),
    (Word::InterleaveLayout, |_| MapField::InterleaveLayout, false, literal(0, 2)),
    (Word::SwizzleMode, |_| MapField::SwizzleMode, false, literal(0, 3)),
    (Word::SwizzleAtomicity, |_| MapField::SwizzleAtomicity, false, literal(0, 3)),
    (Word::FillMode, |_| MapField::FillMode, false, literal(0, 1)),
];

/// The field a `tensormap.replace` form sets, with ordinal `ord` (ignored by the
/// fields that have none).
pub fn map_field(f: &Form, ord: u8) -> Option<MapField> {
    MAP_FIELDS.iter().find(|(w, ..)| f.has(*w)).map(|(_, field, ..)| field(ord))
}

/// Does the form write its first operand, a register? (The comparison and selection
/// opcodes, video, texture and control instructions have rules of their own;
/// `bar`/`barrier` write only with `.red`.)
pub fn writes_first(f: &Form) -> bool {
    use super::Family;
    match f.opcode {
        O::Setp | O::Set | O::Selp | O::Slct | O::And | O::Or | O::Xor | O::Not | O::Cnot => false,
        O::Bar | O::Barrier => f.has(Word::Red),
        O::Ld
        | O::Ldu
        | O::Atom
        | O::Cvt
        | O::Cvta
        | O::Isspacep
        | O::Createpolicy
        | O::Activemask
        | O::Match
        | O::Redux
        | O::Shfl
        | O::Vote
        | O::Alloca
        | O::Getctarank
        | O::Mapa
        | O::Mov => true,
        o => matches!(o.family(), Family::Int | Family::Float),
    }
}

/// How a data register may differ from the type it carries (PTX ISA 5.2.3's relaxed
/// rules, as ptxas 13.5 applies them: tests/ptxas_operand_matrix.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// ld's destinations and st's sources: a register of the type or wider (16 bits
    /// at least), any but a predicate for a bit-size type, a bit-size or integer one
    /// otherwise, a float one only of the type's size.
    Wider,
    /// atom's and red's data: a register of the type's size (an 8-bit type also in a
    /// 16-bit integer register).
    Sized,
    /// cvt's registers: a bit-size or integer register as wide as the type or wider
    /// (16 bits at least), or a float register of exactly the type.
    Convert,
    /// cvt with .bf16 on either side: ptxas relaxes nothing, each register has its
    /// type's size.
    ConvertExact,
}

impl Fit {
    /// May a register of type `reg` carry a value of type `ty`?
    pub fn fits(self, ty: Ty, reg: Ty) -> bool {
        let int = |t: Ty| matches!(t.class(), Class::Bit | Class::Unsigned | Class::Signed);
        let wide = reg.bits() >= ty.bits().max(16) && reg.class() != Class::Pred;
        let byte_in_half = ty.bits() == 8 && int(reg) && reg.bits() == 16;
        compatible(ty, reg)
            || match self {
                Fit::Wider => wide && (ty.class() == Class::Bit || int(reg)),
                Fit::Sized | Fit::ConvertExact => byte_in_half,
                Fit::Convert => byte_in_half || (int(reg) && wide),
            }
    }

    /// What a fitting register is, for diagnostics.
    pub fn expected(self, ty: Ty) -> String {
        match self {
            Fit::Wider => format!("a register of {} or wider", ty.word()),
            Fit::Sized => format!("a register of {}'s size", ty.word()),
            Fit::Convert => {
                format!("a {} register, or a bit-size or integer one at least as wide", ty.word())
            }
            Fit::ConvertExact => {
                format!("a register of {}'s size (no wider one: the conversion involves .bf16)", ty.word())
            }
        }
    }
}

/// The data operands of ld, ldu, st, atom and red, for an instruction of `n`
/// operands: positions `first..last` (atom skips its address, position 1) and how
/// their registers fit the type. ld's data is its first operand, st's its second,
/// atom's all but the address and a cache policy, red's all after the address.
pub fn data_operands(f: &Form, n: usize) -> Option<(usize, usize, Fit)> {
    let hint = usize::from(f.has(Word::L2CacheHint));
    Some(match f.opcode {
        O::Ld | O::Ldu => (0, 1, Fit::Wider),
        O::St => (1, 2, Fit::Wider),
        O::Atom | O::Red => (usize::from(f.opcode == O::Red), n.saturating_sub(hint), Fit::Sized),
        _ => return None,
    })
}

/// How cvt's registers fit its two types (scalar conversions only).
pub fn cvt_fit(d: Ty, s: Ty) -> Fit {
    if d == Ty::BF16 || s == Ty::BF16 { Fit::ConvertExact } else { Fit::Convert }
}

/// What an instruction's `[address]` operand is held to (ptxas 13.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AddressRules {
    /// `[var+offset]` names a variable of the instruction's own state space, or one
    /// a generic address reaches (global, shared, local) when it names none.
    pub variable_space: bool,
    /// A generic address is 64 bits: a 32-bit base register is 32-bit addressing,
    /// which ptxas 13.5 no longer compiles.
    pub generic_64: bool,
}

/// The address rules of `opcode`'s memory operand (none for the others).
pub fn address_rules(opcode: O) -> AddressRules {
    AddressRules {
        variable_space: matches!(opcode, O::Ld | O::Ldu | O::St),
        generic_64: matches!(opcode, O::Ld | O::St | O::Atom | O::Red | O::Mbarrier),
    }
}

/// How wide a vector access of `ld`, `ldu` or `st` is (`.vN` of a type).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorWidth {
    /// At most 128 bits.
    Narrow,
    /// 256 bits (`.v8.b32`, `.v4.b64` ...): PTX 8.8 and sm_100 (`WIDE_VECTOR`), a
    /// global or generic address, and the only accesses that take the `.L2`
    /// eviction priorities.
    Wide,
}

/// Why a vector access of `ld`, `ldu` or `st` is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorFault {
    /// A count other than 2, 4 or 8 (`ldu` takes no `.v8`).
    Count,
    /// `.v8` of a type that is neither 32 bits nor an 8- or 16-bit integer.
    V8Type,
    /// Over 128 bits where 256-bit accesses do not apply (`ldu`, halves, predicates).
    Over128,
}

/// The PTX version (x10) and target of 256-bit loads and stores.
pub const WIDE_VECTOR: (u32, u32) = (88, 100);

/// The width of `opcode.vN.ty` (`ld`, `ldu`, `st`; PTX ISA 9.7.9.8-9.7.9.10 as ptxas
/// 13.5 applies them: `.v8` of 8- and 16-bit integers is an ordinary vector of at
/// most 128 bits).
pub fn vector_width(opcode: O, n: u32, ty: Ty) -> Result<VectorWidth, VectorFault> {
    if !matches!(n, 2 | 4 | 8) || (n == 8 && opcode == O::Ldu) {
        return Err(VectorFault::Count);
    }
    let bits = ty.bits() * n;
    let wide = bits == 256
        && opcode != O::Ldu
        && !matches!(ty, Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2 | Ty::Pred);
    let small = ty.bits() <= 16 && !ty.is_float();
    if n == 8 && ty.bits() != 32 && !small {
        return Err(VectorFault::V8Type);
    }
    if bits > 128 && !wide {
        return Err(VectorFault::Over128);
    }
    Ok(if wide { VectorWidth::Wide } else { VectorWidth::Narrow })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ptxas 13.5's verdicts (tests/data/ptxas_matrix/SYNTAX.md, 256-bit ld/st): which
    /// forms it takes, and which it refuses; the fault a refusal is filed under is
    /// ptxvm's own grouping (ptxas says "Vector type too large" for `.v8.f16`).
    #[test]
    fn vector_widths_are_ptxas_s() {
        assert_eq!(vector_width(O::Ld, 4, Ty::F32), Ok(VectorWidth::Narrow));
        assert_eq!(vector_width(O::Ld, 8, Ty::B32), Ok(VectorWidth::Wide));
        assert_eq!(vector_width(O::St, 4, Ty::B64), Ok(VectorWidth::Wide));
        assert_eq!(vector_width(O::Ld, 8, Ty::U16), Ok(VectorWidth::Narrow));
        assert_eq!(vector_width(O::Ldu, 8, Ty::B32), Err(VectorFault::Count));
        assert_eq!(vector_width(O::Ld, 3, Ty::B32), Err(VectorFault::Count));
        assert_eq!(vector_width(O::Ld, 8, Ty::F16), Err(VectorFault::V8Type));
        assert_eq!(vector_width(O::Ldu, 4, Ty::B64), Err(VectorFault::Over128));
        assert_eq!(vector_width(O::Ld, 4, Ty::F16x2), Ok(VectorWidth::Narrow));
        assert_eq!(vector_width(O::Ld, 8, Ty::F16x2), Err(VectorFault::Over128));
    }

    /// ptxas 13.5's verdicts on these forms (the operand matrix holds the rest).
    #[test]
    fn data_registers_fit_as_ptxas_takes_them() {
        // `ld.global.u8 %r, [a]` and `st.b16 [a], %fd` are accepted; `ld.f32` into a
        // .f64 register and `ld.u32` into a predicate are not.
        assert!(Fit::Wider.fits(Ty::U8, Ty::B32));
        assert!(Fit::Wider.fits(Ty::B16, Ty::F64));
        assert!(!Fit::Wider.fits(Ty::F32, Ty::F64));
        assert!(!Fit::Wider.fits(Ty::U32, Ty::Pred));
        // `atom.global.exch.b64 %h1, ...` (a .b16 register) is refused, as is a wider one.
        assert!(!Fit::Sized.fits(Ty::B64, Ty::B16));
        assert!(!Fit::Sized.fits(Ty::B32, Ty::B64));
        assert!(Fit::Sized.fits(Ty::B32, Ty::F32));
        // `cvt.u8.u16 %us1, %d2`: no 64-bit float for a .u16 source; a wider integer
        // is fine, except when .bf16 is involved.
        assert!(!cvt_fit(Ty::U8, Ty::U16).fits(Ty::U16, Ty::F64));
        assert!(cvt_fit(Ty::U8, Ty::U16).fits(Ty::U16, Ty::B64));
        assert!(!cvt_fit(Ty::F32, Ty::BF16).fits(Ty::BF16, Ty::B32));
    }
}
