//! The decoded program the executor dispatches on: instructions specialised by type
//! and modifiers, operands resolved to register slots and immediate bits, branch
//! targets to pcs (DESIGN.md, principle 1). `program.rs` builds them.

use super::regs::Slot;
use crate::check::types::Ty;
use crate::sem::compare::{BoolOp, CmpOp};
use crate::sem::convert::{IntRound, IntTy};
use crate::sem::float::FOp;
use crate::sem::int::{Part, Width};
use crate::syntax::Span;

/// An instruction ptxvm cannot run (yet), with where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LowerError {
    pub span: Span,
    pub message: String,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(Slot),
    Imm(u64),
}

/// A special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    Laneid,
    Warpid,
    Nwarpid,
}

/// A predicate operand: its mask row and whether it is negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pred {
    pub row: u32,
    pub negated: bool,
}

/// What `cvt` converts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CvtKind {
    IntInt { dst: IntTy, src: IntTy, sat: bool },
    FloatInt { dst: IntTy, src_f64: bool, round: IntRound },
    IntFloat { dst_f64: bool, src: IntTy },
    F32ToF64,
    F64ToF32,
}

/// What `vote.sync` computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    Ballot,
    All,
    Any,
    Uni,
}

/// Predicate logic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredOp {
    And,
    Or,
    Xor,
    Not,
    Mov,
}

/// A predicate source of predicate logic: a register (maybe negated) or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredSrc {
    Reg(Pred),
    Const(bool),
}

/// How `setp` compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpKind {
    Int {
        width: Width,
        signed: bool,
    },
    F32 {
        ftz: bool,
    },
    F64,
    F16 {
        ftz: bool,
    },
    BF16,
    /// Packed halves: the low halves' result goes to p, the high halves' to q.
    F16x2 {
        ftz: bool,
    },
    BF16x2,
}

/// Integer operations of two sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Div,
    Rem,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Mov {
        dst: Slot,
        src: Src,
    },
    MovSpecial {
        dst: Slot,
        sreg: Special,
    },
    /// `ld.param` of a kernel parameter: `size` bytes at `offset` of the parameter buffer.
    LdParam {
        dst: Slot,
        offset: u32,
        size: u8,
        signed: bool,
    },
    /// `ld.global` (or generic): `size` bytes at `addr + offset`.
    Ld {
        dst: Slot,
        addr: Src,
        offset: i64,
        size: u8,
        signed: bool,
    },
    St {
        addr: Src,
        offset: i64,
        src: Src,
        size: u8,
    },
    Int {
        op: IntOp,
        width: Width,
        signed: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    Not {
        width: Width,
        dst: Slot,
        a: Src,
    },
    /// `neg.sN` (`abs: false`) or `abs.sN` (`abs: true`).
    NegAbs {
        abs: bool,
        width: Width,
        dst: Slot,
        a: Src,
    },
    Mul {
        part: Part,
        width: Width,
        signed: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    Mad {
        part: Part,
        width: Width,
        signed: bool,
        dst: Slot,
        a: Src,
        b: Src,
        c: Src,
    },
    Float {
        op: FOp,
        f64: bool,
        ftz: bool,
        sat: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    Fma {
        f64: bool,
        ftz: bool,
        sat: bool,
        dst: Slot,
        a: Src,
        b: Src,
        c: Src,
    },
    Setp {
        kind: CmpKind,
        op: CmpOp,
        p: Option<u32>,
        q: Option<u32>,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, Pred)>,
    },
    Selp {
        dst: Slot,
        a: Src,
        b: Src,
        c: Pred,
    },
    /// `set`: `result` bits of the comparison (combined with `c`) into a register.
    Set {
        kind: CmpKind,
        op: CmpOp,
        float_dtype: bool,
        dst: Slot,
        a: Src,
        b: Src,
        combine: Option<(BoolOp, Pred)>,
    },
    /// `slct`: `a` when the selector `c` is non-negative (`.s32` or `.f32` selector).
    Slct {
        f32: bool,
        ftz: bool,
        dst: Slot,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `and/or/xor/not/mov.pred` on whole lane masks.
    PredLogic {
        op: PredOp,
        dst: u32,
        a: PredSrc,
        b: PredSrc,
    },
    /// A branch; lanes that diverge meet again at `reconverge` (or never:
    /// [`super::flow::EXIT`]).
    Bra {
        target: u32,
        reconverge: u32,
    },
    Cvt {
        kind: CvtKind,
        dst: Slot,
        src: Src,
    },
    /// `ld.shared`: `size` bytes at `addr + offset` of the CTA's shared memory.
    LdShared {
        dst: Slot,
        addr: Src,
        offset: i64,
        size: u8,
        signed: bool,
    },
    StShared {
        addr: Src,
        offset: i64,
        src: Src,
        size: u8,
    },
    /// `bar.sync` / `barrier.sync`: wait for every live thread of the CTA.
    Bar,
    /// `activemask.b32`: the lanes executing it.
    Activemask {
        dst: Slot,
    },
    /// `vote.sync.{ballot,all,any,uni}` over the lanes of `members`.
    Vote {
        mode: VoteMode,
        dst: Slot,
        pred: PredSrc,
        members: Src,
    },
    /// `brx.idx`: lanes go to `targets[index]`, meeting again at `reconverge`.
    Brx {
        index: Src,
        targets: Vec<u32>,
        reconverge: u32,
    },
    /// `exit`, or `ret` in a kernel.
    Exit,
    /// `trap`: the launch stops with a fault.
    Trap,
    /// `nanosleep`: time is virtual, so the warp just goes on.
    Nanosleep,
}

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub guard: Option<Pred>,
    pub op: Op,
    /// The instruction in the source, for faults.
    pub span: Span,
}

/// A kernel ready to run.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub name: String,
    /// Each parameter's type, byte offset and size in the parameter buffer.
    pub params: Vec<(Ty, u32, u32)>,
    pub param_bytes: u32,
    pub insts: Vec<Inst>,
    /// Rows of each register file: 32-bit, 64-bit, predicates.
    pub rows: (u32, u32, u32),
    /// Bytes of static `.shared` variables per CTA.
    pub shared_bytes: u32,
}
