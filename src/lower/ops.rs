//! The decoded program the executor dispatches on: instructions specialised by type
//! and modifiers, operands resolved to register slots and immediate bits, branch
//! targets to pcs (DESIGN.md, principle 1). `program.rs` builds them.

use super::regs::Slot;
use crate::check::types::Ty;
use crate::sem::approx::ApproxFn;
pub use crate::sem::atom::{AtomOp, AtomTy};
use crate::sem::bits::PrmtMode;
use crate::sem::cmp::{BoolOp, CmpOp};
use crate::sem::cvt::Fp8;
use crate::sem::cvt::{IntRound, IntTy};
use crate::sem::float::{FClass, FOp, MinMax};
use crate::sem::int::{Part, Width};
pub use crate::sem::round::{Format, Rnd};
use crate::sem::warp::{ReduxOp, ShflMode};
use crate::syntax::Span;

/// An instruction ptxvm cannot run (yet), with where it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LowerError {
    pub span: Span,
    pub message: String,
}

/// The element types of an `mma.sync`, each with its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MmaKind {
    /// `m16n8k16.f32.{f16,bf16}.{f16,bf16}.f32`, and with `acc16`
    /// `m16n8k16.f16.f16.f16.f16` (C and D two f16x2 registers).
    Half { bf16: bool, acc16: bool },
    /// `m16n8k8.f32.tf32.tf32.f32`.
    Tf32,
    /// `m16n8k32{.satfinite}.s32.{s8,u8}.{s8,u8}.s32`.
    Int8 { a_signed: bool, b_signed: bool, satfinite: bool },
    /// `m8n8k4.f64.f64.f64.f64`.
    F64,
    /// `.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32` (sparse, `m16n8k64`).
    Fp8 { a: crate::sem::cvt::Fp8, b: crate::sem::cvt::Fp8 },
}

/// What `mma.sp` adds (PTX ISA 9.7.14.6): A holds only the non-zero half of each
/// group of its elements (2 of 4; for `.tf32`, 1 of 2), and `e` holds the metadata
/// that places them, from the threads the sparsity selector names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sparse {
    /// K of the shape: A is 16 x K (K / 2 stored), B K x 8.
    pub k: u8,
    pub e: Src,
    pub selector: u8,
    /// `.sp::ordered_metadata`: each group's two indices must ascend.
    pub ordered: bool,
}

/// An `mma.sync`'s fragments: each lane's registers of `D`, `A`, `B` and `C`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mma {
    pub kind: MmaKind,
    pub d: Vec<Slot>,
    pub a: Vec<Src>,
    pub b: Vec<Src>,
    pub c: Vec<Src>,
    /// `mma.sp`.
    pub sparse: Option<Sparse>,
}

/// What a `wgmma.mma_async` multiplies (PTX ISA 9.7.15.5.2): the element types of A
/// and B, which fix K (each row of A and column of B is 32 bytes of K).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WgmmaKind {
    /// `.f16.f16` or `.bf16.bf16`, K = 16.
    Half { bf16: bool },
    /// `.tf32.tf32`, K = 8: the top 19 bits of each f32.
    Tf32,
    /// `.e4m3`/`.e5m2` in any pairing, K = 32.
    Fp8 { a: crate::sem::cvt::Fp8, b: crate::sem::cvt::Fp8 },
    /// `{.satfinite}.s32.{s8,u8}.{s8,u8}`, K = 32.
    Int8 { a_signed: bool, b_signed: bool, satfinite: bool },
    /// `.s32.b1.b1.and.popc`, K = 256.
    B1,
}

impl WgmmaKind {
    /// Bits of one element of A and B.
    pub fn bits(self) -> usize {
        match self {
            WgmmaKind::Half { .. } => 16,
            WgmmaKind::Tf32 => 32,
            WgmmaKind::Fp8 { .. } | WgmmaKind::Int8 { .. } => 8,
            WgmmaKind::B1 => 1,
        }
    }

    /// K of the shape: a row of A (and a column of B) is always 256 bits.
    pub fn k(self) -> usize {
        256 / self.bits()
    }
}

/// Where a `wgmma.mma_async` finds A: a shared-memory matrix descriptor, or each
/// lane's four registers of the warp's 16 rows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WgmmaA {
    Desc(Src),
    Regs([Src; 4]),
}

/// A `wgmma.mma_async.sync.aligned.m64nNkK`: each warp of the warpgroup computes its
/// 16 rows of `D = A*B + D` (`scale_d` false: `D = A*B`). `d` is each lane's
/// accumulator registers (N/2, or N/4 `.f16x2` ones with `acc16`); B is always a
/// descriptor. `neg_a`/`neg_b` are the immediate scales of -1, `trans_a`/`trans_b`
/// the transposes (MN-major layouts in shared memory).
#[derive(Clone, Debug, PartialEq)]
pub struct WgmmaMma {
    pub kind: WgmmaKind,
    pub acc16: bool,
    pub n: u16,
    pub d: Vec<Slot>,
    pub a: WgmmaA,
    pub b: Src,
    pub scale_d: PredSrc,
    pub neg_a: bool,
    pub neg_b: bool,
    pub trans_a: bool,
    pub trans_b: bool,
    /// Its accumulator and A registers ([`crate::lower::regs::Slot::key`]): what no
    /// other instruction may touch while it is pending.
    pub operands: Box<[u32]>,
    /// `wgmma.mma_async.sp`: the metadata register and the sparsity selector; A holds
    /// half of K (PTX ISA 9.7.15.6).
    pub sparse: Option<(Src, u8)>,
}

pub use crate::isa::operands::MapField;

/// A `tensormap.replace.tile`: `value` (scaled by `stride_unit` for a stride: PTX ISA
/// 8.3 and 8.4 give strides in units of 16 bytes, 8.5 on in bytes) into `field` of the
/// map at `[addr+offset]` of `mem`.
#[derive(Clone, Debug, PartialEq)]
pub struct TensormapReplace {
    pub field: MapField,
    pub mem: Mem,
    pub addr: Src,
    pub offset: i64,
    pub value: Src,
    pub stride_unit: u64,
}

/// A warpgroup MMA instruction (PTX ISA 9.7.15): warp-wide, `.sync.aligned`.
#[derive(Clone, Debug, PartialEq)]
pub enum Wgmma {
    /// `wgmma.fence`: orders the warp's register accesses before the wgmmas after it.
    Fence,
    /// `wgmma.commit_group`: the wgmmas issued since the last commit become a group.
    Commit,
    /// `wgmma.wait_group N`: waits until at most N groups are pending.
    Wait(u32),
    Mma(Box<WgmmaMma>),
}

pub use crate::isa::wmma::{WmmaElem, WmmaFrag, WmmaUse};

/// A `wmma` instruction (PTX ISA 9.7.14.4): warp-wide, with each lane's registers.
#[derive(Clone, Debug, PartialEq)]
pub enum Wmma {
    /// `wmma.load.{a,b,c}`: the fragment from memory at `[addr+offset]`, rows (or
    /// columns, `col`) `stride` elements apart.
    Load { frag: WmmaFrag, col: bool, at: WmmaPlace, dst: Vec<Slot> },
    /// `wmma.store.d`: the fragment to memory.
    Store { frag: WmmaFrag, col: bool, at: WmmaPlace, src: Vec<Src> },
    /// `wmma.mma`: `D = A*B + C`; `satfinite` clamps integer sums, `rnd` rounds f64
    /// ones, and single bits multiply by `and` (`.and.popc`) or else by `.xor.popc`.
    Mma {
        frags: [WmmaFrag; 4],
        satfinite: bool,
        rnd: Rnd,
        and: bool,
        d: Vec<Slot>,
        a: Vec<Src>,
        b: Vec<Src>,
        c: Vec<Src>,
    },
}

/// Where a `wmma.load` or `wmma.store` reads or writes: the address, and the stride
/// operand if there is one (the default is the matrix's leading dimension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WmmaPlace {
    pub mem: Mem,
    pub addr: Src,
    pub offset: i64,
    pub stride: Option<Src>,
}

/// What a packing `cvt` converts (PTX ISA 9.7.9.21).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PackKind {
    /// `.f16x2.f32`, `.bf16x2.f32`: two f32 into two halves of `fmt`.
    Halves(Format),
    /// `.e4m3x2.f32`, `.e5m2x2.f32`: two f32 into two bytes.
    Fp8FromF32(Fp8),
    /// `.e4m3x2.f16x2`: the two halves of one register into two bytes.
    Fp8FromF16x2(Fp8),
    /// `.f16x2.e4m3x2`: two bytes into two halves.
    F16x2FromFp8(Fp8),
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(Slot),
    Imm(u64),
}

/// A vector atomic add of f32 elements (`dsts` all `None` for `red`).
#[derive(Clone, Debug, PartialEq)]
pub struct AtomVec {
    pub mem: Mem,
    pub n: u8,
    pub dsts: [Option<Slot>; 4],
    pub addr: Src,
    pub offset: i64,
    pub srcs: [Src; 4],
}

/// The state space `isspacep` tests for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsSpace {
    Global,
    Shared,
    Local,
    Const,
    Param,
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
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
    LanemaskGt,
    LanemaskGe,
    Smid,
    Nsmid,
    Gridid,
    /// Virtual time: the warp's count of executed instructions (DESIGN.md: results
    /// never depend on wall-clock time).
    Clock,
    Clock64,
    Globaltimer,
    DynamicSmemSize,
    TotalSmemSize,
    /// `%clusterid`, `%nclusterid`, `%cluster_ctaid`, `%cluster_nctaid` (by axis),
    /// `%cluster_ctarank` and `%cluster_nctarank`.
    Clusterid(u8),
    Nclusterid(u8),
    ClusterCtaid(u8),
    ClusterNctaid(u8),
    ClusterCtarank,
    ClusterNctarank,
    /// `%envreg<N>`, which the driver sets: in a cooperative launch `%envreg1` and
    /// `%envreg2` hold the high and low halves of the grid-sync workspace's address
    /// (cooperative groups' `this_grid()`); every other one, and outside a
    /// cooperative launch these too, reads 0.
    Envreg(u8),
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
    IntInt {
        dst: IntTy,
        src: IntTy,
        sat: bool,
    },
    FloatInt {
        dst: IntTy,
        src: Format,
        round: IntRound,
        ftz: bool,
    },
    IntFloat {
        dst: Format,
        src: IntTy,
        rnd: Rnd,
    },
    FloatFloat {
        dst: Format,
        src: Format,
        rnd: Rnd,
        ftz: bool,
        sat: bool,
        /// `.relu` and `.satfinite` (conversions from f32 to a half).
        relu: bool,
        satfinite: bool,
    },
    /// `cvt.{rna,rn,rz}{.satfinite}.tf32.f32`: an f32 rounded to tf32 (`away`:
    /// `.rna`).
    Tf32 {
        rnd: Rnd,
        away: bool,
        satfinite: bool,
    },
    /// Rounding to an integral value of the same format (`cvt.rni.f32.f32`).
    RoundInt {
        fmt: Format,
        round: IntRound,
        ftz: bool,
        sat: bool,
    },
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

/// Bit operations of one source (PTX ISA 9.7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp1 {
    /// `cnot`: 1 when the source is zero, else 0.
    Cnot,
    Popc,
    Clz,
    Brev,
    Bfind {
        signed: bool,
        shiftamt: bool,
    },
}

/// Bit and byte operations of up to four sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    /// `bfe d, a, pos, len`.
    Bfe {
        signed: bool,
    },
    /// `bfi f, a, b, pos, len`.
    Bfi,
    Prmt(PrmtMode),
    Shf {
        left: bool,
        clamp: bool,
    },
    /// `sad d, a, b, c`.
    Sad {
        signed: bool,
    },
    /// `mul24` (no `c`) and `mad24` (`c` added, wrapping).
    Mul24 {
        hi: bool,
        signed: bool,
        mad: bool,
    },
    /// `copysign d, a, b`: `b` with `a`'s sign.
    Copysign,
    /// `add.sat.s32` / `sub.sat.s32`.
    SatS32 {
        subtract: bool,
    },
    /// `mad.hi.sat.s32 d, a, b, c`: the high half of `a*b`, plus `c`, clamped.
    MadHiSatS32,
    /// `dp4a d, a, b, c` and `dp2a.{lo,hi} d, a, b, c`.
    Dp4a {
        a_signed: bool,
        b_signed: bool,
    },
    Dp2a {
        hi: bool,
        a_signed: bool,
        b_signed: bool,
    },
    /// `bmsk d, a, b`, `szext d, a, b`.
    Bmsk {
        wrap: bool,
    },
    Szext {
        wrap: bool,
        signed: bool,
    },
    /// `lop3.b32 d, a, b, c, lut`.
    Lop3,
    /// `fns.b32 d, mask, base, offset`.
    Fns,
    /// `cvt.pack.sat.{u8,s8,u16,s16}.s32{.b32} d, a, b{, c}`: `a` and `b` saturated to
    /// `bits` each, `b` in the low field, `c` shifted above them.
    CvtPack {
        bits: u8,
        signed: bool,
    },
}

/// Extended-precision arithmetic through the carry flag `CC.CF`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryOp {
    Add,
    Sub,
    /// `mad{c}.{lo,hi}`: the kept part of `a*b` plus `c`.
    Mad {
        part: Part,
        signed: bool,
    },
}

/// Half-precision operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HalfOp {
    Bin(FOp),
    Fma,
    /// `fma.rn.relu` (PTX ISA 9.7.4.5): a negative result is 0 and a NaN the canonical
    /// NaN.
    FmaRelu,
    Neg,
    Abs,
    MinMax(MinMax),
    /// `ex2.approx` and `tanh.approx`.
    Approx(ApproxFn),
}

/// Floating-point operations of one source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FUnary {
    Abs,
    Neg,
    Sqrt,
    Rcp,
    /// The `.approx` functions of f32 (`rcp` and `rsqrt` `.approx` of f64 too).
    Approx(ApproxFn),
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
    /// `ld.param` of a kernel parameter (scalar or vector): `n` elements of `size` bytes
    /// from `offset` of the parameter buffer, into consecutive destinations (a `None`
    /// destination is a sink `_`).
    LdParam {
        dsts: [Option<Slot>; 4],
        n: u8,
        offset: u32,
        size: u8,
        signed: bool,
    },
    /// `ld` (scalar or vector): `n` elements of `size` bytes from `addr + offset` in
    /// `mem`, into consecutive destinations (a `None` destination is a sink `_`).
    Ld {
        mem: Mem,
        dsts: [Option<Slot>; 4],
        n: u8,
        addr: Src,
        offset: i64,
        size: u8,
        signed: bool,
        /// `.volatile`, `.relaxed` or `.acquire`: a load another thread's store is
        /// meant to change, as in a loop that waits for it.
        spin: bool,
    },
    /// `st` (scalar or vector): `n` elements of `size` bytes.
    St {
        mem: Mem,
        srcs: [Src; 4],
        n: u8,
        addr: Src,
        offset: i64,
        size: u8,
    },
    /// `atom` (with `dst`) and `red` (without), on `size`-byte values.
    Atom {
        mem: Mem,
        op: AtomOp,
        ty: AtomTy,
        dst: Option<Slot>,
        addr: Src,
        offset: i64,
        b: Src,
        c: Src,
    },
    /// `atom`/`red` `.add.vN.f32`: `n` f32 atomic adds at consecutive elements.
    AtomVec(Box<AtomVec>),
    /// The address of a frame variable: the frame's base plus `offset`, in the local
    /// space or (`generic`) in the generic window onto it.
    FrameAddr {
        dst: Slot,
        offset: u32,
        generic: bool,
    },
    /// `cvta` between generic and a window (`.shared`, `.local`): add or remove `window`.
    Cvta {
        dst: Slot,
        src: Src,
        to_generic: bool,
        window: u64,
    },
    /// `mov` of a vector register `{a, b, ..}` to or from one wider register.
    Pack {
        dst: Slot,
        srcs: [Src; 4],
        n: u8,
        bits: u8,
    },
    Unpack {
        dsts: [Option<Slot>; 4],
        n: u8,
        bits: u8,
        src: Src,
    },
    /// `mov.vN.type {d...}, {a...}` (or one `a` for every element): `n` moves, every
    /// source read before any destination is written.
    MovVector {
        dsts: [Option<Slot>; 4],
        srcs: [Src; 4],
        n: u8,
    },
    /// `call`: run a function with the lanes that take it; they continue after it
    /// once all of them have returned.
    Call(Box<Call>),
    /// `ret` from a `.func`.
    Ret,
    Int {
        op: IntOp,
        width: Width,
        signed: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    /// Packed `add/min/max.{u16x2,s16x2}` and `min/max.relu.s32`: `lane`-bit elements.
    Lanes {
        op: crate::sem::int::LaneOp,
        lane: Width,
        signed: bool,
        relu: bool,
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
        rnd: Rnd,
        ftz: bool,
        sat: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    Fma {
        f64: bool,
        rnd: Rnd,
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
    /// `set`: the comparison (combined with `c`) into a register: `one` when true,
    /// else 0, per half for packed sources. `one` is 1.0 for a float destination type
    /// and all ones (of the type, or of a half) for an integer one.
    Set {
        kind: CmpKind,
        op: CmpOp,
        one: u64,
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
        uni: bool,
    },
    Cvt {
        kind: CvtKind,
        dst: Slot,
        src: Src,
    },
    /// The packing and unpacking forms of `cvt`: two values converted into one
    /// register, `a` into the upper half and `b` into the lower, or a pair unpacked.
    CvtPack {
        kind: PackKind,
        rnd: Rnd,
        relu: bool,
        satfinite: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    /// `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}` (PTX ISA
    /// 9.7.9.25.3): `size` bytes into shared memory, the first `src_size` from global
    /// memory and the rest zeros; a true `ignore` predicate (the `ignore-src` form)
    /// copies nothing and writes `size` zeros. ptxvm copies at once;
    /// `cp.async.wait_group` and `wait_all` then have nothing left to wait for.
    CpAsync {
        dst: Src,
        dst_offset: i64,
        src: Src,
        src_offset: i64,
        size: u8,
        src_size: Src,
        ignore: Option<Pred>,
    },
    /// An operation on an mbarrier object (PTX ISA 9.7.13.15), or `cp.async`'s
    /// signal to one (9.7.9.25.3.4).
    Mbarrier(Box<Mbar>),
    /// `cp.async.bulk` (PTX ISA 9.7.9.25.4.1): `size` bytes from `src` to `dst` at once,
    /// then, for a copy into shared memory, a complete-tx of `size` bytes on the
    /// mbarrier at `mbar`.
    CpBulk(Box<CpBulk>),
    CpTensor(Box<CpTensor>),
    /// `tensormap.replace.tile` (PTX ISA 9.7.9.26): one field of the tensor map at
    /// `[addr+offset]` set to `value`.
    TensormapReplace(Box<TensormapReplace>),
    /// `tensormap.cp_fenceproxy` (PTX ISA 9.7.9.27): the 128 bytes of a tensor map
    /// copied from shared to global memory.
    TensormapCopy {
        dst: (Mem, Src, i64),
        src: (Mem, Src, i64),
    },
    /// `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.b16 d, [a]` (PTX ISA
    /// 9.7.14.5.15): a warp-wide load of 8x8 matrices of 16-bit elements, rows
    /// addressed by lanes 8i..8i+7 for matrix i.
    Ldmatrix {
        count: u8,
        trans: bool,
        dsts: [Slot; 4],
        mem: Mem,
        addr: Src,
        offset: i64,
    },
    /// `stmatrix.sync.aligned.m8n8` (PTX ISA 9.7.14.5.16): `count` 8x8 matrices of
    /// 16-bit elements from `srcs` (one register a matrix) into shared memory, each
    /// row at the address a lane gives, transposed with `trans`.
    Stmatrix {
        count: u8,
        trans: bool,
        srcs: [Src; 4],
        mem: Mem,
        addr: Src,
        offset: i64,
    },
    /// `mma.sync.aligned` (PTX ISA 9.7.14.5.14): a warp-wide `D = A*B + C`.
    Mma(Box<Mma>),
    /// `wmma.load`, `wmma.mma` and `wmma.store` (PTX ISA 9.7.14.4).
    Wmma(Box<Wmma>),
    /// `wgmma.fence`, `commit_group`, `wait_group` and `mma_async` (PTX ISA 9.7.15).
    Wgmma(Wgmma),
    /// `barrier.cluster.arrive` (`wait` false) and `barrier.cluster.wait` (PTX ISA
    /// 9.7.13.3). In a cluster of one CTA the wait is `cta`, a barrier for every
    /// thread of the CTA, and the arrival marks nothing another CTA could wait for.
    ClusterBarrier {
        wait: bool,
        cta: Box<Barrier>,
    },
    /// A video instruction (`vadd` ... `vshr`, `vadd2` ... `vset4`): `d = f(a, b, c)` on
    /// 32 bits.
    Video {
        spec: crate::sem::video::Video,
        dst: Slot,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `tex` and `tld4` (PTX ISA 9.7.10.3, 9.7.10.4): a fetch through a texture object.
    Tex(Box<TexOp>),
    /// `txq` (9.7.10.5): an attribute of a texture object.
    Txq {
        dst: Slot,
        handle: Src,
        query: ImageQuery,
        /// `txq.level`: the level asked about.
        level: Option<Src>,
    },
    /// `suld.b`, `sust.b` and `sured.b` (9.7.10.6-8).
    Surf(Box<SurfOp>),
    /// `suq` (9.7.10.9): an attribute of a surface object.
    Suq {
        dst: Slot,
        handle: Src,
        query: ImageQuery,
    },
    /// `div.approx{.ftz}.f32` and `div.full{.ftz}.f32`.
    DivApprox {
        full: bool,
        ftz: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    /// `testp.class.{f32,f64} p, a`.
    Testp {
        class: FClass,
        f64: bool,
        dst: Slot,
        a: Src,
    },
    /// `bar`/`barrier` `.sync`, `.arrive` and `.red` (PTX ISA 9.7.13.1): the warp
    /// arrives at CTA barrier `id` once its non-exited threads have reached a
    /// barrier; `.sync` and `.red` then wait for `count` threads (all of the CTA's
    /// when `None`). `aligned`: every thread of a warp must execute the same
    /// instruction (`bar.*` and `barrier.*.aligned`).
    Barrier(Box<Barrier>),
    /// `bar.warp.sync`: waits until every non-exited lane of `members` has executed
    /// one with the same mask.
    WarpSync {
        members: Src,
    },
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
    /// `brkpt`: a breakpoint. There is no debugger to stop in, so the launch stops
    /// with a fault that says where.
    Brkpt,
    /// `nanosleep`: time is virtual, so the warp just goes on.
    Nanosleep,
    /// `elect.sync d|p, membermask` (PTX ISA 9.7.13.12): the lowest lane of the
    /// members that execute it is the leader; `d` gets its lane number, `p` is true
    /// in the leader.
    Elect {
        dst: Option<Slot>,
        p: Option<u32>,
        members: Src,
    },
    /// `isspacep.space p, a` (PTX ISA 9.7.9.22): whether generic address `a` lies in
    /// the window of `space`.
    Isspacep {
        space: IsSpace,
        dst: Slot,
        a: Src,
    },
    /// `mapa` (PTX ISA 9.7.9.23): the `.shared::cluster` address of `a`'s place in
    /// the CTA of rank `rank` (`exec/cluster.rs`); `window` is the generic shared
    /// window for 64-bit addresses, 0 for 32-bit ones.
    Mapa {
        dst: Slot,
        a: Src,
        rank: Src,
        window: u64,
    },
    /// `getctarank` (PTX ISA 9.7.9.24): the rank of the CTA whose shared memory `a`
    /// (less `window`) is in.
    Getctarank {
        dst: Slot,
        a: Src,
        window: u64,
    },
    /// `alloca.type ptr, size{, align}` (PTX ISA 9.7.9.16): `size` bytes on the
    /// running frame's local stack, freed when the function returns.
    Alloca {
        dst: Slot,
        size: Src,
        align: u32,
    },
    Bits1 {
        op: BitOp1,
        width: Width,
        dst: Slot,
        a: Src,
    },
    Bits {
        op: BitOp,
        width: Width,
        dst: Slot,
        srcs: [Src; 4],
    },
    /// Arithmetic with carry-in (`cin`: `addc`, `subc`, `madc`) and carry-out (`cout`:
    /// `.cc`) through the predicate row `cc`, which holds each lane's `CC.CF`.
    Carry {
        op: CarryOp,
        width: Width,
        cin: bool,
        cout: bool,
        cc: u32,
        dst: Slot,
        a: Src,
        b: Src,
        c: Src,
    },
    FUnary {
        op: FUnary,
        f64: bool,
        rnd: Rnd,
        ftz: bool,
        dst: Slot,
        a: Src,
    },
    FMinMax {
        m: MinMax,
        f64: bool,
        ftz: bool,
        dst: Slot,
        a: Src,
        b: Src,
    },
    /// Half-precision `add`, `sub`, `mul` (`c` unused), `fma` and `neg`/`abs` (`b`, `c`
    /// unused) of f16 or bf16, on both halves of a 32-bit register when `x2`.
    Half {
        op: HalfOp,
        fmt: Format,
        x2: bool,
        ftz: bool,
        sat: bool,
        dst: Slot,
        a: Src,
        b: Src,
        c: Src,
    },
    /// `membar` and `fence`: every memory access before it is visible before any after it.
    Fence,
    /// `shfl.sync`: each lane reads `a` of the lane [`crate::sem::warp::shfl_source`] picks.
    Shfl {
        mode: ShflMode,
        dst: Slot,
        p: Option<u32>,
        a: Src,
        b: Src,
        c: Src,
        members: Src,
    },
    /// `match.{any,all}.sync`: the lanes of `members` whose `a` equals this lane's
    /// (`any`), or `members` when all are equal (`all`, with `p` the answer).
    Match {
        all: bool,
        dst: Slot,
        p: Option<u32>,
        a: Src,
        members: Src,
    },
    /// `redux.sync`: the reduction of `a` over the lanes of `members`.
    Redux {
        op: ReduxOp,
        signed: bool,
        dst: Slot,
        a: Src,
        members: Src,
    },
}

/// One decoded instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub guard: Option<Pred>,
    pub op: Op,
    /// The instruction in the source, for faults.
    pub span: Span,
}

impl Op {
    /// Whether the instruction may change anything outside its own warp's registers
    /// and groups: memory (local memory too), a barrier or mbarrier, the device heap,
    /// or output (`printf`); calls and returns count, as they copy through frames in
    /// local memory. Loads, arithmetic, branches and warp-synchronous instructions do
    /// not. A warp that keeps coming back to the same state with none of these in
    /// between waits for something only another thread can change (`exec/spin.rs`).
    pub fn has_effect(&self) -> bool {
        match self {
            Op::St { .. }
            | Op::Atom { .. }
            | Op::AtomVec(_)
            | Op::CpAsync { .. }
            | Op::Mbarrier(_)
            | Op::CpBulk(_)
            | Op::CpTensor(_)
            | Op::TensormapReplace(_)
            | Op::TensormapCopy { .. }
            | Op::Wmma(_)
            | Op::Stmatrix { .. }
            | Op::Surf(_)
            | Op::Barrier(_)
            | Op::ClusterBarrier { .. }
            | Op::Alloca { .. }
            | Op::Exit
            | Op::Trap
            | Op::Brkpt
            // A call or return copies values into or out of frames in local memory,
            // which a warp's sampled state leaves out.
            | Op::Call(_)
            | Op::Ret => true,
            _ => false,
        }
    }
}

/// What a barrier does once its threads have arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    Sync,
    /// Arrive without waiting.
    Arrive,
    /// Wait, and reduce a predicate over the participating threads.
    Red(BarRed),
}

/// The reduction of `bar.red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarRed {
    /// `.popc.u32`: how many threads' predicate is true.
    Popc,
    /// `.and.pred`: whether all are.
    And,
    /// `.or.pred`: whether any is.
    Or,
}

/// A CTA barrier instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Barrier {
    pub kind: BarKind,
    pub aligned: bool,
    pub id: Src,
    pub count: Option<Src>,
    /// `bar.red`: the destination and the predicate reduced.
    pub dst: Option<Slot>,
    pub pred: Option<PredSrc>,
}

/// What an [`Op::Mbarrier`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarOp {
    /// `mbarrier.init [addr], count`.
    Init,
    /// `mbarrier.inval [addr]`.
    Inval,
    /// `mbarrier.arrive{.expect_tx}` and `arrive_drop` `state, [addr]{, a}`: `a` is the
    /// arrival count, or with `expect_tx` the bytes (and one arrival).
    Arrive {
        drop: bool,
        no_complete: bool,
        expect_tx: bool,
    },
    /// `mbarrier.expect_tx [addr], a` and `mbarrier.complete_tx [addr], a`.
    ExpectTx,
    CompleteTx,
    /// `test_wait` (`blocking`: `try_wait`) `p, [addr], a`: `a` is a state from
    /// `arrive`, or with `parity` the phase parity.
    Wait {
        parity: bool,
        blocking: bool,
    },
    /// `mbarrier.pending_count count, a` (no address).
    PendingCount,
    /// `cp.async.mbarrier.arrive{.noinc} [addr]`.
    CpAsyncArrive {
        noinc: bool,
    },
}

/// An mbarrier operation: the object's place (shared memory, or a generic address
/// in its window), a destination and a source operand where the form has them.
#[derive(Clone, Debug, PartialEq)]
pub struct Mbar {
    pub op: MbarOp,
    pub mem: Mem,
    pub addr: Src,
    pub offset: i64,
    pub dst: Option<Slot>,
    pub a: Src,
}

/// A bulk copy: `dst` and `src` each with their space and offset; `mbar` the
/// mbarrier a copy into shared memory completes on.
#[derive(Clone, Debug, PartialEq)]
pub struct CpBulk {
    pub dst: (Mem, Src, i64),
    pub src: (Mem, Src, i64),
    pub size: Src,
    pub mbar: Option<(Mem, Src, i64)>,
    /// `cp.reduce.async.bulk`: each element of the destination becomes the
    /// reduction of itself and the source's element, as `red` makes it.
    pub red: Option<(AtomOp, AtomTy)>,
    /// `.multicast::cluster`: the CTAs of the cluster (a bit per rank) whose shared
    /// memory, at the destination's offset, gets the bytes, each completing on its
    /// mbarrier at the same offset.
    pub multicast: Option<Src>,
}

/// `cp.async.bulk.tensor.Nd` in tile mode (PTX ISA 9.7.9.25.5.1): a box of the
/// tensor a tensor map describes (`exec/tma.rs`), from global memory into shared
/// memory completing on an mbarrier, or (`mbar` none) from shared memory into global
/// memory (`.bulk_group`).
#[derive(Clone, Debug, PartialEq)]
pub struct CpTensor {
    /// The box in shared memory.
    pub smem: (Mem, Src, i64),
    /// The generic address of the tensor map (in the kernel's parameters, in
    /// `.const` or in global memory).
    pub map: Src,
    /// The box's first element: `dims` coordinates.
    pub coords: [Src; 5],
    pub dims: u8,
    pub mbar: Option<(Mem, Src, i64)>,
    /// `.multicast::cluster`: the CTAs of the cluster (a bit per rank) whose shared
    /// memory, at the same offset, gets the box, each completing on its mbarrier at
    /// the same offset.
    pub multicast: Option<Src>,
    /// `cp.reduce.async.bulk.tensor`: the box reduced into the tensor in global
    /// memory, element by element as `red` does, in the tensor map's element type.
    pub red: Option<AtomOp>,
    /// Im2col mode (`.im2col`, `.im2col_no_offs`): the filter offsets along W, H and
    /// D (`dims - 2` of them; zeros without offsets).
    pub im2col: Option<[Src; 3]>,
}

/// Where a memory access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mem {
    /// Device memory: buffers and the module's `.global` and `.const` variables.
    Global,
    /// The CTA's shared memory, addressed from 0.
    Shared,
    /// The lane's local memory (its call stack), addressed from 0.
    Local,
    /// The current frame of the lane's stack: `.local` and `.param` variables of the
    /// function and its parameters; the address is relative to the frame's base.
    Frame,
    /// A generic address: global, or inside the shared, local or parameter window.
    Generic,
    /// A kernel's parameter buffer, addressed from 0 (`ld.param` through a register
    /// that holds a parameter's address).
    Param,
}

/// One argument or return value of a call, in the caller: `size` bytes of a `.param`
/// variable of its frame, or a register or immediate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallValue {
    Frame { offset: u32, size: u32 },
    Reg(Src, u32),
    Sink,
}

/// Who a call calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callee {
    Direct(u32),
    /// A function address in a register; the lanes may disagree.
    Indirect(Src),
    /// A function of the CUDA runtime that nvcc declares `.extern` and ptxvm provides.
    Builtin(Builtin),
}

/// The CUDA runtime's device functions that ptxvm provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `vprintf(format, args)`, what `printf` compiles to.
    Vprintf,
    /// `__assertfail(message, file, line, function, char_size)`, what a failing
    /// `assert` calls.
    AssertFail,
    /// `malloc(size)`: CUDA's device heap (`cudaLimitMallocHeapSize`, 8 MiB).
    Malloc,
    /// `__cuda_syscall_aligned_malloc(size, align)`, what `__nv_aligned_device_malloc`
    /// calls.
    AlignedMalloc,
    /// `free(ptr)`.
    Free,
    /// `__cudaCDP2GetParameterBufferV2(func, grid, block, shared)` (CUDA 12's
    /// `cudaGetParameterBufferV2`): the parameter buffer of a launch from device
    /// code, from the device heap (`exec::children`).
    ParameterBuffer,
    /// `__cudaCDP2LaunchDeviceV2(buffer, stream)` (`cudaLaunchDeviceV2`): launches
    /// the child grid whose buffer the thread filled.
    LaunchDevice,
    /// `cudaGetLastError` in device code: the thread's last launch error, cleared.
    GetLastError,
    /// `cudaPeekAtLastError` in device code: the same, kept.
    PeekAtLastError,
    /// `cudaStreamCreateWithFlags(stream*, flags)` in device code (`cudaStreamNonBlocking`).
    StreamCreate,
    /// `cudaEventCreateWithFlags(event*, flags)` in device code (`cudaEventDisableTiming`).
    EventCreate,
    /// `cudaStreamDestroy`, `cudaEventDestroy`, `cudaEventRecord(WithFlags)` and
    /// `cudaStreamWaitEvent` in device code: each orders work, and ptxvm runs a
    /// grid's children in launch order, which keeps every order they can ask for.
    Ordering,
    /// `cudaMalloc(ptr*, size)` in device code: the device heap.
    DeviceMalloc,
    /// `cudaFree(ptr)` in device code.
    DeviceFree,
    /// `cudaGetDevice(int*)`, `cudaGetDeviceCount(int*)` and
    /// `cudaRuntimeGetVersion(int*)` in device code: 0, 1 and 13050.
    DeviceQuery(u32),
}

impl Builtin {
    /// The runtime function an `.extern .func` named `name` is.
    pub fn named(name: &str) -> Option<Builtin> {
        match name {
            "vprintf" => Some(Builtin::Vprintf),
            "__assertfail" => Some(Builtin::AssertFail),
            "malloc" => Some(Builtin::Malloc),
            "__cuda_syscall_aligned_malloc" => Some(Builtin::AlignedMalloc),
            "free" => Some(Builtin::Free),
            "__cudaCDP2GetParameterBufferV2" | "cudaGetParameterBufferV2" => Some(Builtin::ParameterBuffer),
            "__cudaCDP2LaunchDeviceV2" | "__cudaCDP2LaunchDeviceV2_ptsz" | "cudaLaunchDeviceV2" => {
                Some(Builtin::LaunchDevice)
            }
            "__cudaCDP2StreamCreateWithFlags" | "cudaStreamCreateWithFlags" => Some(Builtin::StreamCreate),
            "__cudaCDP2EventCreateWithFlags" | "cudaEventCreateWithFlags" => Some(Builtin::EventCreate),
            "__cudaCDP2StreamDestroy"
            | "__cudaCDP2EventDestroy"
            | "__cudaCDP2EventRecord"
            | "__cudaCDP2EventRecord_ptsz"
            | "__cudaCDP2EventRecordWithFlags"
            | "__cudaCDP2EventRecordWithFlags_ptsz"
            | "__cudaCDP2StreamWaitEvent"
            | "__cudaCDP2StreamWaitEvent_ptsz" => Some(Builtin::Ordering),
            "__cudaCDP2Malloc" => Some(Builtin::DeviceMalloc),
            "__cudaCDP2Free" => Some(Builtin::DeviceFree),
            "__cudaCDP2GetDevice" => Some(Builtin::DeviceQuery(0)),
            "__cudaCDP2GetDeviceCount" => Some(Builtin::DeviceQuery(1)),
            "__cudaCDP2RuntimeGetVersion" => Some(Builtin::DeviceQuery(13050)),
            "__cudaCDP2GetLastError" | "cudaGetLastError" => Some(Builtin::GetLastError),
            "__cudaCDP2PeekAtLastError" | "cudaPeekAtLastError" => Some(Builtin::PeekAtLastError),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub callee: Callee,
    pub args: Vec<CallValue>,
    pub rets: Vec<CallValue>,
    /// For an indirect call: the sizes of the parameters and returns its
    /// `.callprototype` (or the call's own operands) declare, which the target must have.
    pub proto: Option<(Vec<u32>, Vec<u32>)>,
}

/// A parameter or return declared `.reg`: its register and its place in the frame.
#[derive(Clone, Copy, Debug)]
pub struct RegParam {
    pub reg: Slot,
    pub offset: u32,
    pub size: u32,
}

/// A function of the program: a kernel or a `.func`.
#[derive(Debug, Clone)]
pub struct Func {
    pub name: String,
    pub kernel: bool,
    /// Its first pc.
    pub entry: u32,
    /// Rows of each register file: 32-bit, 64-bit, predicates.
    pub rows: (u32, u32, u32),
    /// Each parameter's type, byte offset and size: in the launch's parameter buffer
    /// for a kernel, in the frame for a `.func`.
    pub params: Vec<(Ty, u32, u32)>,
    /// Each return value's type, offset in the frame and size.
    pub rets: Vec<(Ty, u32, u32)>,
    /// The parameters declared `.reg` (`.func (.reg .b32 r) f(.reg .b32 x)`): the
    /// call writes them to the frame like any other, and the callee's registers take
    /// them from there at entry.
    pub reg_params: Vec<RegParam>,
    /// The returns declared `.reg`: `ret` writes the registers to the frame first.
    pub reg_rets: Vec<RegParam>,
    /// Bytes of a kernel's parameter buffer.
    pub param_bytes: u32,
    /// Bytes of one lane's frame: parameters, returns, `.local` and `.param` variables.
    pub frame_bytes: u32,
    /// Why the body could not be decoded (it has no instructions then); only an
    /// error once a launch can reach the function.
    pub error: Option<LowerError>,
    /// Functions it calls directly, and whether it makes indirect calls.
    pub callees: Vec<u32>,
    pub indirect: bool,
    /// A kernel's static shared memory, as byte ranges, when it may not touch all of
    /// the module's (other kernels' variables are out of its bounds).
    pub shared: Option<Vec<(u32, u32)>>,
    /// The cluster shape a kernel requires (`.reqnctapercluster`).
    pub cluster: Option<crate::exec::threads::Dim3>,
}

/// A whole module, decoded: every function's instructions in one pc space.
#[derive(Debug, Clone)]
pub struct Program {
    /// The `sm_` number of the module's `.target` (the last one named): below 70,
    /// a warp reaches barriers converged (no independent thread scheduling).
    pub sm: u32,
    pub insts: Vec<Inst>,
    /// Each instruction's warp-wide form, by pc (the hot loop reads only these).
    pub fast: Vec<super::fast::FastInst>,
    pub funcs: Vec<Func>,
    /// Every static `.shared` variable: its offset, bytes and name (for reports).
    pub shared_vars: Vec<(u32, u32, String)>,
    /// Bytes of static `.shared` variables per CTA; dynamic shared memory (an
    /// `.extern .shared` array) starts at `dynamic_shared_at`.
    pub shared_bytes: u32,
    pub dynamic_shared_at: u32,
    /// The module's `.global` and `.const` variables, initialised, to be placed in
    /// device memory at `image_base`.
    pub image: Vec<u8>,
    pub image_base: u64,
    /// The program's number in this process, unique: device memory tells one
    /// program's image from another's that used the same window before.
    pub serial: u64,
    /// The module's `.global` and `.const` variables: name, address and bytes
    /// (`cuModuleGetGlobal`).
    pub globals: Vec<(String, u64, u64)>,
    /// Whether any instruction waits for an mbarrier phase (`test_wait`,
    /// `try_wait`): only then does a CTA look for lanes to wake.
    pub mbarrier_waits: bool,
    /// Whether any instruction calls `malloc` (or its aligned form) or launches a
    /// grid from device code: only then does a launch place the device heap.
    pub uses_heap: bool,
    /// Whether a thread may wait on another CTA: some instruction is a `nanosleep`,
    /// an atomic, or a `.volatile`, `.relaxed` or `.acquire` load. Only then does a
    /// long-running CTA let others run (DESIGN.md, "forward progress").
    pub may_spin: bool,
    /// The addresses of the `.const` variables, `[start, end)` each (`isspacep.const`).
    pub consts: Vec<(u64, u64)>,
    /// [`Op::has_effect`] of each instruction, by pc.
    pub effect: Vec<bool>,
    /// The registers each instruction names ([`crate::lower::regs::Slot::key`]), for
    /// the bodies that use `wgmma` (empty for the others, and empty when none does):
    /// what an instruction may not touch while a `wgmma.mma_async` owns it.
    pub touches: Vec<Box<[u32]>>,
    /// Whether any instruction reads `%clock`, `%clock64` or `%globaltimer` (the
    /// warp's instruction count): then a warp's state includes its clock.
    pub reads_clock: bool,
}

impl Program {
    /// The function whose address (in the function window) is `addr`, if any.
    pub fn func_at(&self, addr: u64) -> Option<(u32, &Func)> {
        let k = addr.checked_sub(FUNC_WINDOW)?;
        if !k.is_multiple_of(FUNC_STRIDE) {
            return None;
        }
        let k = u32::try_from(k / FUNC_STRIDE).ok()?;
        Some((k, self.funcs.get(k as usize)?))
    }

    /// Bytes of static `.shared` memory a CTA of kernel `k` uses: the variables it
    /// can reach, or all of them (`CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`).
    pub fn static_shared(&self, k: u32) -> u32 {
        match &self.funcs[k as usize].shared {
            Some(ranges) => ranges.iter().map(|(a, b)| b - a).sum(),
            None => self.dynamic_shared_at,
        }
    }
}

impl Program {
    /// The first decoding error among the functions a launch of `kernel` can reach:
    /// its direct callees, transitively, and every function once an indirect call is
    /// reachable.
    pub fn reachable_error(&self, kernel: u32) -> Option<&LowerError> {
        let mut seen = vec![false; self.funcs.len()];
        let mut todo = vec![kernel];
        while let Some(f) = todo.pop() {
            if std::mem::replace(&mut seen[f as usize], true) {
                continue;
            }
            let func = &self.funcs[f as usize];
            if func.indirect {
                return self.funcs.iter().find_map(|g| g.error.as_ref());
            }
            todo.extend(&func.callees);
        }
        self.funcs.iter().zip(&seen).find_map(|(g, &s)| if s { g.error.as_ref() } else { None })
    }
}

/// The address map (DESIGN.md, "Memory"): device allocations start at
/// `exec::memory::BASE`; below them sit each module's data image, then the generic
/// windows onto shared and local memory, then function addresses. A window is 2^32
/// bytes, as on hardware, so a 32-bit shared or local address converts losslessly.
pub const IMAGE_WINDOW: u64 = 0x7e00_0000_0000;
pub const SHARED_WINDOW: u64 = 0x7d00_0000_0000;
pub const LOCAL_WINDOW: u64 = 0x7c00_0000_0000;
pub const FUNC_WINDOW: u64 = 0x7b00_0000_0000;
/// The generic window onto the kernel's parameter buffer (`cvta.param` of a
/// parameter's address, what `__grid_constant__` parameters are read through):
/// read-only.
pub const PARAM_WINDOW: u64 = 0x7a00_0000_0000;
/// Bytes of a function address slot: function `k` is at `FUNC_WINDOW + 16 k`.
pub const FUNC_STRIDE: u64 = 16;
/// Bytes reserved for each module's data image.
pub const IMAGE_STRIDE: u64 = 1 << 30;

/// The geometry a texture or surface instruction names (`.1d` ... `.acube`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Geometry {
    D1,
    D2,
    D3,
    A1D,
    A2D,
    Cube,
    ACube,
}

impl Geometry {
    /// The modifier: `.2d`.
    pub fn name(self) -> &'static str {
        match self {
            Geometry::D1 => ".1d",
            Geometry::D2 => ".2d",
            Geometry::D3 => ".3d",
            Geometry::A1D => ".a1d",
            Geometry::A2D => ".a2d",
            Geometry::Cube => ".cube",
            Geometry::ACube => ".acube",
        }
    }

    /// Coordinates besides the layer.
    pub fn dims(self) -> usize {
        match self {
            Geometry::D1 | Geometry::A1D => 1,
            Geometry::D2 | Geometry::A2D => 2,
            _ => 3,
        }
    }

    /// Whether the first coordinate is a layer.
    pub fn layered(self) -> bool {
        matches!(self, Geometry::A1D | Geometry::A2D | Geometry::ACube)
    }
}

/// The level of detail of a `tex`.
#[derive(Clone, Debug, PartialEq)]
pub enum TexLod {
    /// Plain `tex` (and `tld4`).
    Base,
    /// `tex.level`: the level of detail.
    Level(Src),
    /// `tex.grad`: the gradients in x and then y.
    Grad([Src; 3], [Src; 3]),
}

/// A `tex` or `tld4`: four destinations (`None` for `_`), the predicate of `d|p`,
/// the handle, the coordinates (32-bit each, in the instruction's order without the
/// layer), the layer of layered geometries.
#[derive(Clone, Debug, PartialEq)]
pub struct TexOp {
    pub geometry: Geometry,
    pub dsts: [Option<Slot>; 4],
    pub pred: Option<u32>,
    pub handle: Src,
    pub coords: [Src; 3],
    pub layer: Src,
    pub int_coords: bool,
    pub lod: TexLod,
    /// `tld4.r/.g/.b/.a`: the component gathered.
    pub gather: Option<u8>,
}

/// What an out-of-range surface access does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    Trap,
    Clamp,
    Zero,
}

/// What a surface instruction does.
#[derive(Clone, Debug, PartialEq)]
pub enum SurfKind {
    /// `suld.b`: into the destinations.
    Load([Option<Slot>; 4]),
    /// `sust.b`: the sources.
    Store([Src; 4]),
    /// `sured.b`: the reduction, its type, the value.
    Reduce(crate::sem::atom::AtomOp, crate::sem::atom::AtomTy, Src),
}

/// A `suld.b`, `sust.b` or `sured.b`: `n` elements of `size` bytes at byte `x` (the
/// first coordinate), then rows and slices; the layer of layered geometries last.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfOp {
    pub geometry: Geometry,
    pub handle: Src,
    pub coords: [Src; 3],
    pub boundary: Boundary,
    pub n: u8,
    pub size: u8,
    pub kind: SurfKind,
}

/// An attribute `txq` or `suq` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageQuery {
    Width,
    Height,
    Depth,
    /// The others (`.channel_data_type` ...), by name.
    Other(&'static str),
}
