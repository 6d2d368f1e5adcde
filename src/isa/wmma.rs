//! The `wmma` forms (PTX ISA 9.7.14.4) as data: shapes, element types, fragments and
//! the combinations the ISA lists. `check` holds each instruction to them before a
//! launch; `lower` builds its fragments from the same functions.

use super::{Form, Word};
use crate::check::types::Ty;

/// The elements a `wmma` fragment holds (PTX ISA 9.7.14.4.1), in memory and, packed
/// from the low bits up, in its registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WmmaElem {
    F16,
    Bf16,
    /// An f32 in memory and registers of which `mma` reads the top 19 bits.
    Tf32,
    F32,
    S32,
    S8,
    U8,
    F64,
    /// Sub-byte integers: two to a byte, the first in the low bits.
    S4,
    U4,
    /// Single bits, the first in the lowest bit of a byte.
    B1,
}

/// Which matrix of `D = A*B + C` a `wmma` fragment holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WmmaUse {
    A,
    B,
    /// C or D.
    Acc,
}

/// A `wmma` fragment: which matrix, its size (`rows` x `cols` of the matrix: M x K
/// for A, K x N for B, M x N for C and D), its element and how many registers hold it.
/// `exec/wmma.rs` maps its elements onto the warp's lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WmmaFrag {
    pub role: WmmaUse,
    pub rows: u8,
    pub cols: u8,
    pub elem: WmmaElem,
    pub regs: u8,
}

impl WmmaElem {
    /// The element a type word names (`.s4`, `.u4` and `.b1` included).
    pub fn parse(word: &str) -> Option<WmmaElem> {
        use WmmaElem as E;
        Some(match word {
            ".f16" => E::F16,
            ".bf16" => E::Bf16,
            ".tf32" => E::Tf32,
            ".f32" => E::F32,
            ".s32" => E::S32,
            ".s8" => E::S8,
            ".u8" => E::U8,
            ".f64" => E::F64,
            ".s4" => E::S4,
            ".u4" => E::U4,
            ".b1" => E::B1,
            _ => return None,
        })
    }

    /// Bits of one element.
    pub fn bits(self) -> usize {
        match self {
            WmmaElem::B1 => 1,
            WmmaElem::S4 | WmmaElem::U4 => 4,
            WmmaElem::S8 | WmmaElem::U8 => 8,
            WmmaElem::F16 | WmmaElem::Bf16 => 16,
            WmmaElem::Tf32 | WmmaElem::F32 | WmmaElem::S32 => 32,
            WmmaElem::F64 => 64,
        }
    }

    /// Bits of each register of a fragment of these elements.
    pub fn register_bits(self) -> u32 {
        if self == WmmaElem::F64 { 64 } else { 32 }
    }
}

/// `(m, n, k)` of the `.shape` word.
pub fn shape(f: &Form) -> Option<(u8, u8, u8)> {
    f.pick(&[
        (Word::M16n16k16, (16, 16, 16)),
        (Word::M32n8k16, (32, 8, 16)),
        (Word::M8n32k16, (8, 32, 16)),
        (Word::M16n16k8, (16, 16, 8)),
        (Word::M8n8k4, (8, 8, 4)),
        (Word::M8n8k32, (8, 8, 32)),
        (Word::M8n8k128, (8, 8, 128)),
    ])
}

/// The fragment of `role` for `shape` holding `elem`, if the ISA lists the
/// combination: f16, s8 and u8 multiplicands in the three 16-row shapes, bf16 too
/// (sm_80), tf32 in m16n16k8, f64 in m8n8k4, s4 and u4 in m8n8k32, b1 in m8n8k128; f16,
/// f32 and s32 accumulators where they go with those.
pub fn fragment(role: WmmaUse, (m, n, k): (u8, u8, u8), elem: WmmaElem) -> Option<WmmaFrag> {
    use WmmaElem as E;
    let k16 = k == 16;
    let ab = role != WmmaUse::Acc;
    let fits = match elem {
        E::F16 => k16,
        E::Bf16 | E::S8 | E::U8 => ab && k16,
        E::Tf32 => ab && k == 8,
        E::F64 => k == 4,
        E::S4 | E::U4 => ab && k == 32,
        E::B1 => ab && k == 128,
        E::F32 => !ab && (k16 || k == 8),
        E::S32 => !ab && (k16 || k == 32 || k == 128),
    };
    if !fits {
        return None;
    }
    let (rows, cols) = match role {
        WmmaUse::A => (m, k),
        WmmaUse::B => (k, n),
        WmmaUse::Acc => (m, n),
    };
    let regs = if elem == E::F16 && role != WmmaUse::Acc {
        // f16 multiplicands take eight .f16x2 registers in every shape (9.7.14.4.1).
        8
    } else {
        (usize::from(rows) * usize::from(cols) * elem.bits() / 32 / elem.register_bits() as usize) as u8
    };
    Some(WmmaFrag { role, rows, cols, elem, regs })
}

/// Whether `wmma.mma` multiplies A of `a` by B of `b` into D of `d` from C of `c`
/// (9.7.14.4.3's type table), with `.satfinite` (integers only), a rounding
/// modifier (f64 only) and `.and`/`.xor` with `.popc` (b1 only, and always).
pub fn mma_fits(f: &Form, [d, a, b, c]: [WmmaElem; 4]) -> bool {
    use WmmaElem as E;
    let ints = |e: WmmaElem| matches!(e, E::S8 | E::U8 | E::S4 | E::U4);
    let types = match a {
        E::F16 => b == a && matches!(d, E::F16 | E::F32) && matches!(c, E::F16 | E::F32),
        E::Bf16 | E::Tf32 => b == a && d == E::F32 && c == E::F32,
        // ptxas 13.5 takes no mixture (`.s32.s8.u8.s32`: "Unexpected instruction
        // types"), though the ISA's table lists .atype and .btype apart.
        E::S8 | E::U8 | E::S4 | E::U4 => b == a && d == E::S32 && c == E::S32,
        E::B1 => b == a && d == E::S32 && c == E::S32,
        E::F64 => b == a && d == a && c == a,
        _ => false,
    };
    let rounding = [Word::Rn, Word::Rz, Word::Rm, Word::Rp].iter().any(|w| f.has(*w));
    let bitwise = f.has(Word::And) || f.has(Word::Xor);
    let b1_ok = if a == E::B1 { bitwise && f.has(Word::Popc) } else { !bitwise && !f.has(Word::Popc) };
    types && b1_ok && (!f.has(Word::Satfinite) || ints(a)) && (!rounding || a == E::F64)
}

/// May a register of type `reg` hold part of a fragment of `elem`? (ptxas 13.5:
/// `.f16` fragments in `.b32` or `.f16x2` registers, `.f32` ones in `.f32` or `.b32`,
/// `.s32` and the integer multiplicands in 32-bit integer registers, `.bf16` and
/// `.tf32` in `.b32` only, `.f64` in `.f64` or `.b64`.)
pub fn register_fits(elem: WmmaElem, reg: Ty) -> bool {
    use WmmaElem as E;
    match elem {
        E::F16 => matches!(reg, Ty::B32 | Ty::F16x2),
        E::F32 => matches!(reg, Ty::B32 | Ty::F32),
        E::S32 | E::S8 | E::U8 | E::S4 | E::U4 | E::B1 => matches!(reg, Ty::B32 | Ty::U32 | Ty::S32),
        E::Bf16 | E::Tf32 => reg == Ty::B32,
        E::F64 => matches!(reg, Ty::B64 | Ty::F64),
    }
}
