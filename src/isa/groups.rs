//! Modifier groups whose words stand for a value of the semantics: at most one of each
//! group appears on an instruction, and the group says what it means. The rows of
//! [`super::table`] take their word sets from here (`WordSet::keys`), and `lower` reads
//! the values with [`Form::pick`](super::Form::pick).

use super::Word::{self, *};
use crate::check::types::Ty;
use crate::sem::cmp::{BoolOp, CmpOp};
use crate::sem::cvt::IntRound;
use crate::sem::round::Rnd;
use crate::syntax::ast::Space;

/// Floating-point rounding (PTX ISA 9.7.3).
pub const RND: &[(Word, Rnd)] = &[(Rn, Rnd::Rn), (Rz, Rnd::Rz), (Rm, Rnd::Rm), (Rp, Rnd::Rp)];

/// Rounding to an integral value (`cvt`, 9.7.9.21).
pub const IRND: &[(Word, IntRound)] =
    &[(Rni, IntRound::Nearest), (Rzi, IntRound::Zero), (Rmi, IntRound::Down), (Rpi, IntRound::Up)];

/// Comparison operators (9.7.6.1, tables 22-25).
pub const CMP: &[(Word, CmpOp)] = &[
    (Eq, CmpOp::Eq),
    (Ne, CmpOp::Ne),
    (Lt, CmpOp::Lt),
    (Le, CmpOp::Le),
    (Gt, CmpOp::Gt),
    (Ge, CmpOp::Ge),
    (Lo, CmpOp::Lo),
    (Ls, CmpOp::Ls),
    (Hi, CmpOp::Hi),
    (Hs, CmpOp::Hs),
    (Equ, CmpOp::Equ),
    (Neu, CmpOp::Neu),
    (Ltu, CmpOp::Ltu),
    (Leu, CmpOp::Leu),
    (Gtu, CmpOp::Gtu),
    (Geu, CmpOp::Geu),
    (Num, CmpOp::Num),
    (Nan, CmpOp::Nan),
];

/// The BoolOp that combines a comparison with a predicate.
pub const BOOL: &[(Word, BoolOp)] = &[(And, BoolOp::And), (Or, BoolOp::Or), (Xor, BoolOp::Xor)];

/// State spaces named by memory instructions; `None` for a word that names no space
/// of its own here.
pub const SPACE: &[(Word, Space)] = &[
    (Global, Space::Global),
    (Shared, Space::Shared),
    (SharedCta, Space::Shared),
    (SharedCluster, Space::Shared),
    (Local, Space::Local),
    (Param, Space::Param),
    (ParamFunc, Space::Param),
    (ParamEntry, Space::Param),
    (Const, Space::Const),
];

/// Vector widths (5.4).
pub const VEC: &[(Word, u8)] = &[(V2, 2), (V4, 4), (V8, 8)];

/// The type sets the rows use.
pub mod tys {
    use super::Ty;
    pub const U16_64: &[Ty] = &[Ty::U16, Ty::U32, Ty::U64, Ty::S16, Ty::S32, Ty::S64];
    pub const I32_64: &[Ty] = &[Ty::U32, Ty::U64, Ty::S32, Ty::S64];
    pub const S16_64: &[Ty] = &[Ty::S16, Ty::S32, Ty::S64];
    pub const B16_64: &[Ty] = &[Ty::B16, Ty::B32, Ty::B64];
    pub const B32_64: &[Ty] = &[Ty::B32, Ty::B64];
    pub const F32: &[Ty] = &[Ty::F32];
    pub const F64: &[Ty] = &[Ty::F64];
    pub const F32_64: &[Ty] = &[Ty::F32, Ty::F64];
    pub const HALF: &[Ty] = &[Ty::F16, Ty::F16x2];
    pub const BHALF: &[Ty] = &[Ty::BF16, Ty::BF16x2];
    pub const I16X2: &[Ty] = &[Ty::U16x2, Ty::S16x2];
    pub const ONLY_U16X2: &[Ty] = &[Ty::U16x2];
    pub const ONLY_S16X2: &[Ty] = &[Ty::S16x2];
    pub const BU32: &[Ty] = &[Ty::B32, Ty::U32, Ty::S32];
    pub const U32_S32: &[Ty] = &[Ty::U32, Ty::S32];
    pub const U32_U64: &[Ty] = &[Ty::U32, Ty::U64];
    /// Every type a load or store moves (no half types: ptxas, "Unexpected instruction
    /// types specified for 'ld'").
    #[rustfmt::skip]
    pub const DATA: &[Ty] = &[
        Ty::B8, Ty::B16, Ty::B32, Ty::B64, Ty::B128, Ty::U8, Ty::U16, Ty::U32, Ty::U64, Ty::S8,
        Ty::S16, Ty::S32, Ty::S64, Ty::F32, Ty::F64,
    ];
    /// Every type `cvt` converts between.
    #[rustfmt::skip]
    pub const NUMERIC: &[Ty] = &[
        Ty::U8, Ty::U16, Ty::U32, Ty::U64, Ty::S8, Ty::S16, Ty::S32, Ty::S64, Ty::F16,
        Ty::F16x2, Ty::BF16, Ty::BF16x2, Ty::F32, Ty::F64, Ty::TF32, Ty::B8, Ty::B16, Ty::B32,
        Ty::B64, Ty::E4m3x2, Ty::E5m2x2, Ty::Other,
    ];
    pub const PRED: &[Ty] = &[Ty::Pred];
    pub const ONLY_B32: &[Ty] = &[Ty::B32];
    pub const ONLY_B16: &[Ty] = &[Ty::B16];
    pub const ONLY_B64: &[Ty] = &[Ty::B64];
    pub const ONLY_U32: &[Ty] = &[Ty::U32];
    pub const ONLY_S32: &[Ty] = &[Ty::S32];
}
