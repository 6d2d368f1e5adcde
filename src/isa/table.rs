//! The table of instruction forms. Rows of one opcode are alternatives, chosen by the
//! first type word and by the groups a row requires; the first that fits is the form.
//! Versions are `.version` major*10+minor; targets are `sm_` numbers.
//!
//! Sources: the PTX ISA 9.x syntax blocks and "PTX ISA Notes"/"Target ISA Notes" of
//! each instruction; where ptxas 13 decides differently, the row follows ptxas and the
//! agreement matrix (tests/ptxas_syntax_matrix.rs) holds it to that.

use super::Opcode as O;
use super::Word::{self, *};
use super::groups::{self, tys::*};
use super::{Opcode, WordSet};
use crate::check::types::Ty;

/// How `check` validates an instruction of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The row is the whole rule: modifier groups, types, operand count and gates.
    Table,
    /// The row validates modifiers, types and gates; a rule of its own in `check`
    /// validates the operands (control flow: labels, target lists, call signatures;
    /// video: selectors, masks, negated sources).
    Operands,
    /// The row gives the words; a rule of its own in `check` validates the form (the
    /// seed core of comparisons, textures and surfaces).
    Own,
    /// Only the operand count and the gates are validated, and modifiers outside the
    /// vocabulary pass: forms whose full grammar is not in the table yet.
    Open,
}

/// A modifier group: at most one of its words may appear; `need`: exactly one.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub words: WordSet,
    pub need: bool,
}

/// One instruction form.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub opcode: Opcode,
    /// One set of allowed types per type word, in order; empty: no type word.
    pub types: &'static [&'static [Ty]],
    pub groups: &'static [Group],
    /// Fewest and most operands.
    pub operands: (u8, u8),
    /// Minimum `.version` (major*10+minor) and `sm_` target.
    pub version: u32,
    pub sm: u32,
    pub rule: Rule,
    /// Every word of the groups.
    pub words: WordSet,
    /// A word of the first set needs one of the second (`.relaxed` needs a scope).
    pub needs: &'static [(WordSet, WordSet)],
    /// A word of the first set excludes every word of the second.
    pub excludes: &'static [(WordSet, WordSet)],
    /// Words that need a later `.version` or target than the row: (words, version, sm).
    pub gates: &'static [(WordSet, u32, u32)],
    /// The row is its opcode's alone, not the forms of the opcodes that share its rows
    /// ([`SAME_FORMS`]): `add.u16x2` has no `sub.u16x2`.
    pub unshared: bool,
    /// Words one of which must open the instruction's name, where ptxas reads the
    /// first word as the operation (`cp.async.bulk`, `wgmma.fence`): empty for none.
    pub lead: WordSet,
}

impl Row {
    const fn since(mut self, version: u32, sm: u32) -> Row {
        self.version = version;
        self.sm = sm;
        self
    }

    /// Whether the row is a form of `op`: its own opcode's, or one sharing its rows
    /// ([`SAME_FORMS`]) unless it is marked `unshared`.
    pub fn serves(&self, op: Opcode) -> bool {
        !self.unshared || self.opcode == op
    }

    const fn unshared(mut self) -> Row {
        self.unshared = true;
        self
    }

    const fn needs(mut self, needs: &'static [(WordSet, WordSet)]) -> Row {
        self.needs = needs;
        self
    }

    const fn gates(mut self, gates: &'static [(WordSet, u32, u32)]) -> Row {
        self.gates = gates;
        self
    }

    const fn excludes(mut self, excludes: &'static [(WordSet, WordSet)]) -> Row {
        self.excludes = excludes;
        self
    }

    const fn lead(mut self, words: &[Word]) -> Row {
        self.lead = WordSet::of(words);
        self
    }

    const fn operands_own(mut self) -> Row {
        self.rule = Rule::Operands;
        self
    }

    const fn own(mut self) -> Row {
        self.rule = Rule::Own;
        self
    }

    const fn open(mut self) -> Row {
        self.rule = Rule::Open;
        self
    }
}

const fn row(opcode: Opcode, types: &'static [&'static [Ty]], groups: &'static [Group], n: (u8, u8)) -> Row {
    let mut words = WordSet::EMPTY;
    let mut k = 0;
    while k < groups.len() {
        words = words.union(groups[k].words);
        k += 1;
    }
    Row {
        opcode,
        types,
        groups,
        operands: n,
        version: 0,
        sm: 0,
        rule: Rule::Table,
        words,
        needs: &[],
        excludes: &[],
        gates: &[],
        unshared: false,
        lead: WordSet::EMPTY,
    }
}

/// At most one of the words.
const fn opt(ws: &[Word]) -> Group {
    Group { words: WordSet::of(ws), need: false }
}

/// Exactly one of the words.
const fn req(ws: &[Word]) -> Group {
    Group { words: WordSet::of(ws), need: true }
}

const fn opt_of<T: Copy>(g: &[(Word, T)]) -> Group {
    Group { words: WordSet::keys(g), need: false }
}

const fn req_of<T: Copy>(g: &[(Word, T)]) -> Group {
    Group { words: WordSet::keys(g), need: true }
}

/// `tensormap.replace.tile.FIELD{.global,.shared::cta}.b1024.TYPE`, FIELD one of
/// `fields` (9.7.9.26).
const fn tensormap_fields(fields: &[Word]) -> [Group; 5] {
    [req(&[Replace]), req(&[Tile]), req(fields), opt(&[Global, SharedCta]), req(&[B1024])]
}
const TENSORMAP_RANK: [Group; 5] = tensormap_fields(&[Rank]);
const TENSORMAP_DIMS: [Group; 5] = tensormap_fields(&[BoxDim, GlobalDim, ElementStride]);
const TENSORMAP_ENUMS: [Group; 5] =
    tensormap_fields(&[Elemtype, InterleaveLayout, SwizzleMode, SwizzleAtomicity, FillMode]);
const TENSORMAP_ADDRESS: [Group; 5] = tensormap_fields(&[GlobalAddress]);
const TENSORMAP_STRIDE: [Group; 5] = tensormap_fields(&[GlobalStride]);

const WMMA_SHAPES: Group = req(&[M16n16k16, M32n8k16, M8n32k16, M16n16k8, M8n8k4, M8n8k32, M8n8k128]);
/// "State space incorrect for instruction 'wmma.load.a'" outside these.
const WMMA_SPACE: Group = opt(&[Global, Shared, SharedCta]);
const WMMA_LOAD: [Group; 7] =
    [req(&[Load]), req(&[A, B, C]), SYNC, req(&[Aligned]), req(&[Row, Col]), WMMA_SHAPES, WMMA_SPACE];
const WMMA_LOAD_SUB_BYTE: [Group; 8] = [
    req(&[Load]),
    req(&[A, B]),
    SYNC,
    req(&[Aligned]),
    req(&[Row, Col]),
    WMMA_SHAPES,
    WMMA_SPACE,
    req(&[S4, U4, B1]),
];
const WMMA_STORE: [Group; 7] =
    [req(&[Store]), req(&[D]), SYNC, req(&[Aligned]), req(&[Row, Col]), WMMA_SHAPES, WMMA_SPACE];
/// `wmma.mma` with three more groups: mma names two layouts (`.row.col`), each from
/// .row and .col, which check counts.
const fn wmma_mma([x, y, z]: [Group; 3]) -> [Group; 10] {
    [req(&[Mma]), SYNC, req(&[Aligned]), opt(&[Row]), opt(&[Col]), WMMA_SHAPES, opt(&[Satfinite]), x, y, z]
}
const WMMA_MMA: [Group; 10] = wmma_mma([opt_of(groups::RND), opt(&[]), opt(&[])]);
/// `wmma.mma{.and,.xor}.popc ... .s32.b1.b1.s32` and `.s32.s4.s4.s32`: the element
/// words are no register types.
const WMMA_MMA_SUB_BYTE: [Group; 10] = wmma_mma([req(&[S4, U4, B1]), opt(&[And, Xor]), opt(&[Popc])]);
/// Shapes by PTX version and target; `.and` on b1 (PTX 7.1, sm_80).
const WMMA_GATES: &[(WordSet, u32, u32)] = &[
    (WordSet::of(&[M32n8k16, M8n32k16]), 61, 70),
    (WordSet::of(&[M8n8k32, M8n8k128]), 63, 75),
    (WordSet::of(&[M16n16k8, M8n8k4]), 70, 80),
    (WordSet::of(&[SharedCta]), 78, 0),
    (WordSet::of(&[And]), 71, 80),
];

/// mma's words: two layouts (`.row.col`, counted by check) and the element words
/// that are no register types.
const MMA_GROUPS: [Group; 12] = [
    SYNC,
    req(&[Aligned]),
    MMA_SHAPES,
    opt(&[Row]),
    opt(&[Col]),
    opt(&[Satfinite]),
    opt(&[And, Xor]),
    opt(&[Popc]),
    opt(&[Sp, SpOrdered]),
    opt(&[S4]),
    opt(&[U4]),
    opt(&[B1]),
];
const MMA_SHAPES: Group = req(&[
    M8n8k4, M16n8k4, M16n8k8, M16n8k16, M16n8k32, M16n8k64, M16n8k128, M16n8k256, M8n8k16, M8n8k32, M8n8k128,
]);

const RND: Group = opt_of(groups::RND);
const NEED_RND: Group = req_of(groups::RND);
const FTZ: Group = opt(&[Ftz]);
const SAT: Group = opt(&[Sat]);
const CC: Group = opt(&[Cc]);
const SPACE: Group = opt_of(groups::SPACE);
const VEC: Group = opt_of(groups::VEC);
const SCOPE: Group = opt(&[Cta, Cluster, Gpu, Sys]);
const SYNC: Group = req(&[Sync]);
const ALIGNED: Group = opt(&[Aligned]);
const APPROX: Group = req(&[Approx]);
const CACHE_HINT: Group = opt(&[L2CacheHint]);
const L1_EVICT: Group = opt(&[L1EvictNormal, L1EvictUnchanged, L1EvictFirst, L1EvictLast, L1NoAllocate]);
const L2_EVICT: Group = opt(&[L2EvictNormal, L2EvictFirst, L2EvictLast]);
const PREFETCH_SIZE: Group = opt(&[L2B64, L2B128, L2B256]);
/// "Modifier '.L2::cache_hint' cannot be applied to '.shared' space"; vectors of
/// atom and red are global ("State space incorrect for feature 'atom instruction
/// with vector types'").
const ATOM_EXCLUDES: &[(WordSet, WordSet)] = &[
    (WordSet::of(&[L2CacheHint]), WordSet::of(&[Shared, SharedCta, SharedCluster])),
    (WordSet::of(&[V2, V4, V8]), WordSet::of(&[Shared, SharedCta, SharedCluster])),
];
/// red.async's groups around its operation.
const fn red_async(op: Group) -> [Group; 6] {
    [req(&[Async]), req(&[Relaxed]), req(&[Cluster]), opt(&[SharedCluster]), req(&[CompleteTx]), op]
}
const RED_ASYNC_BITS: &[Group] = &red_async(req(&[And, Or, Xor]));
const RED_ASYNC_ARITH: &[Group] = &red_async(req(&[Add, Inc, Dec, Min, Max]));
/// The spaces of the atomic instructions.
const ATOM_SPACE: Group = opt(&[Global, Shared, SharedCta, SharedCluster]);
const ATOM_SEM: Group = opt(&[Relaxed, Acquire, Release, AcqRel]);
const RED_SEM: Group = opt(&[Relaxed, Release]);
const HALVES: &[Ty] = &[Ty::F16, Ty::F16x2, Ty::BF16, Ty::BF16x2];
/// atom's and red's groups: the space, the semantics (`sem`: atom's or red's), the
/// scope, the operation and the cache hint.
const fn atomic(sem: Group, op: &[Word]) -> [Group; 5] {
    [ATOM_SPACE, sem, SCOPE, req(op), CACHE_HINT]
}
/// `.add` on a vector of f32 (`.v2`, `.v4`).
const fn atomic_vec(sem: Group) -> [Group; 6] {
    [ATOM_SPACE, sem, SCOPE, req(&[Add]), opt(&[V2, V4]), CACHE_HINT]
}
/// The half types need `.noftz`, and their min and max a vector (ptxas: "'.noftz'
/// modifier required", "Vector modifier required for instruction 'atom.min.f16'").
const fn atomic_half(sem: Group, op: &[Word], vec: Group) -> [Group; 7] {
    [ATOM_SPACE, sem, SCOPE, req(op), req(&[Noftz]), vec, CACHE_HINT]
}
const ATOM_BITS: &[Group] = &atomic(ATOM_SEM, &[And, Or, Xor]);
const ATOM_CAS: &[Group] = &[ATOM_SPACE, ATOM_SEM, SCOPE, req(&[Cas])];
const ATOM_EXCH: &[Group] = &atomic(ATOM_SEM, &[Exch]);
const ATOM_ADD: &[Group] = &atomic(ATOM_SEM, &[Add]);
const ATOM_ADD_VEC: &[Group] = &atomic_vec(ATOM_SEM);
const ATOM_HALF_ADD: &[Group] = &atomic_half(ATOM_SEM, &[Add], VEC);
const ATOM_HALF_MINMAX: &[Group] = &atomic_half(ATOM_SEM, &[Min, Max], req_of(groups::VEC));
const ATOM_INC: &[Group] = &atomic(ATOM_SEM, &[Inc, Dec]);
const ATOM_MINMAX: &[Group] = &atomic(ATOM_SEM, &[Min, Max]);
const RED_BITS: &[Group] = &atomic(RED_SEM, &[And, Or, Xor]);
const RED_ADD: &[Group] = &atomic(RED_SEM, &[Add]);
const RED_ADD_VEC: &[Group] = &atomic_vec(RED_SEM);
const RED_HALF_ADD: &[Group] = &atomic_half(RED_SEM, &[Add], VEC);
const RED_HALF_MINMAX: &[Group] = &atomic_half(RED_SEM, &[Min, Max], req_of(groups::VEC));
const RED_INC: &[Group] = &atomic(RED_SEM, &[Inc, Dec]);
const RED_MINMAX: &[Group] = &atomic(RED_SEM, &[Min, Max]);

/// A memory-ordering semantics needs a scope (ptxas: "Modifier '.relaxed' requires
/// scope").
const SEM_NEEDS_SCOPE: &[(WordSet, WordSet)] = &[
    (WordSet::of(&[Relaxed, Acquire, Release, AcqRel]), WordSet::of(&[Cta, Cluster, Gpu, Sys])),
    // "Modifier '.cta' requires memory order", "'.mmio' requires modifier '.relaxed
    // or .acquire'", "'.nc' requires .global space".
    (WordSet::of(&[Cta, Cluster, Gpu, Sys]), WordSet::of(&[Relaxed, Acquire, Release, AcqRel])),
    (WordSet::of(&[Mmio]), WordSet::of(&[Relaxed, Acquire, Release])),
    (WordSet::of(&[Nc]), WordSet::of(&[Global])),
];
/// What ld and st may not combine (ptxas: "Modifier '.mmio' cannot be applied to
/// '.shared' space", "Modifier '.volatile' cannot be combined with modifier '.ca'",
/// "State space incorrect for feature 'cache prefetching'"): the cache and eviction
/// hints are for global memory and exclude the cache operators and `.volatile`;
/// `.mmio` is global, system-scoped and scalar.
const LDST_EXCLUDES: &[(WordSet, WordSet)] = &[
    (
        WordSet::of(&[
            Mmio,
            L1EvictNormal,
            L1EvictUnchanged,
            L1EvictFirst,
            L1EvictLast,
            L1NoAllocate,
            L2CacheHint,
            L2B64,
            L2B128,
            L2B256,
        ]),
        WordSet::of(&[Shared, SharedCta, SharedCluster, Local, Param, ParamFunc, ParamEntry, Const]),
    ),
    (
        WordSet::of(&[Volatile]),
        WordSet::of(&[Param, ParamFunc, ParamEntry, Const, Ca, Cg, Cs, Cv, Lu, Wb, Wt]),
    ),
    (
        WordSet::of(&[L1EvictNormal, L1EvictUnchanged, L1EvictFirst, L1EvictLast, L1NoAllocate]),
        WordSet::of(&[Ca, Cg, Cs, Cv, Lu, Wb, Wt, Volatile]),
    ),
    (WordSet::of(&[L2CacheHint]), WordSet::of(&[Volatile])),
    (WordSet::of(&[Mmio]), WordSet::of(&[Cta, Cluster, Gpu, V2, V4, V8])),
    // "Modifier '.acquire' cannot be combined with modifier '.ca'", "... cannot be
    // applied to '.local' space": a memory order is for global and shared memory.
    (
        WordSet::of(&[Relaxed, Acquire, Release]),
        WordSet::of(&[Local, Param, ParamFunc, ParamEntry, Const, Ca, Cg, Cs, Cv, Lu, Wb, Wt]),
    ),
    // "Illegal cache operation for instruction 'ld.nc'", "Modifier '.volatile' cannot
    // be combined with modifier '.nc'".
    (WordSet::of(&[Nc]), WordSet::of(&[Cv, Lu, Volatile])),
];
/// "Feature '::cluster' requires PTX ISA .version 7.8" and ".target sm_90"; "Feature
/// '::cta' requires PTX ISA .version 7.8".
const LDST_GATES: &[(WordSet, u32, u32)] =
    &[(WordSet::of(&[SharedCluster]), 78, 90), (WordSet::of(&[SharedCta]), 78, 0)];
/// "Feature 'atom instruction with vector types' requires .target sm_90" (PTX 8.1).
const VECTOR_ATOM_GATE: &[(WordSet, u32, u32)] = &[(WordSet::of(&[V2, V4, V8]), 81, 90)];
/// ptxas: "Modifier '.relaxed' on 'mbarrier.arrive' requires PTX ISA .version 8.6",
/// "Modifier '.release' ... requires PTX ISA .version 8.0", ".expect_tx requires
/// .target sm_90".
const MBAR_GATES: &[(WordSet, u32, u32)] = &[
    (WordSet::of(&[Relaxed]), 86, 90),
    (WordSet::of(&[Release, Acquire, Cta]), 80, 0),
    (WordSet::of(&[Cluster, ExpectTx, SharedCluster]), 80, 90),
    (WordSet::of(&[TryWait]), 78, 90),
];
/// "Feature '::cta' requires PTX ISA .version 7.8".
const SHARED_CTA_GATE: &[(WordSet, u32, u32)] = &[(WordSet::of(&[SharedCta]), 78, 0)];
/// `min.relu`/`max.relu` (PTX ISA 8.0, sm_90), on `.s32` and `.s16x2` only.
const RELU_GATE: &[(WordSet, u32, u32)] = &[(WordSet::of(&[Relu]), 80, 90)];
/// An mbarrier object lives in shared memory (ptxas: "State space incorrect for
/// instruction 'mbarrier.init'").
const MBAR_SPACE: Group = opt(&[Shared, SharedCta]);
/// The video instructions (9.7.17): `.u32`/`.s32` destination and sources, a secondary
/// operation with a third source, and comparisons without the unsigned and unordered
/// spellings. Their selectors, masks and negated sources are operand rules
/// (check/video.rs).
const VIDEO_TYPES: &[&[Ty]] = &[U32_S32, U32_S32, U32_S32];
const VIDEO_OP2: Group = opt(&[Add, Min, Max]);
const VIDEO_CMP: Group = req(&[Eq, Ne, Lt, Le, Gt, Ge]);
const VIDEO_SCALAR: &[Group] = &[SAT, VIDEO_OP2];
const VIDEO_SIMD: &[Group] = &[SAT, opt(&[Add])];

/// vadd, vsub, vabsdiff, vmin, vmax (9.7.17.1).
const fn video(op: Opcode) -> Row {
    row(op, VIDEO_TYPES, VIDEO_SCALAR, (3, 4)).since(20, 20).operands_own()
}

/// The SIMD forms on two halves or four bytes: vadd2 ... vmax4 (9.7.17.3).
const fn video_simd(op: Opcode) -> Row {
    row(op, VIDEO_TYPES, VIDEO_SIMD, (4, 4)).since(30, 30).operands_own()
}
const MINMAX: &[Group] = &[FTZ, opt(&[NaN]), opt(&[Xorsign]), opt(&[Abs])];
/// bf16 has no .ftz ("Illegal modifier '.ftz' for instruction 'max'").
const MINMAX_BF16: &[Group] = &[opt(&[NaN]), opt(&[Xorsign]), opt(&[Abs])];
const HALF_ARITH: &[Group] = &[opt(&[Rn]), FTZ, SAT];

/// Every form, grouped by opcode in alphabetical order.
pub static ROWS: &[Row] = &[
    // abs, neg: integers, f32 (ftz), f64, half (9.7.1.6, 9.7.3.7, 9.7.4.6).
    row(O::Abs, &[S16_64], &[], (2, 2)),
    row(O::Abs, &[F32], &[FTZ], (2, 2)),
    row(O::Abs, &[F64], &[], (2, 2)),
    row(O::Abs, &[HALF], &[FTZ], (2, 2)).since(65, 53),
    row(O::Abs, &[BHALF], &[], (2, 2)).since(70, 80),
    row(O::Activemask, &[ONLY_B32], &[], (1, 1)).since(62, 30),
    // add, sub: 9.7.1.1, 9.7.3.1, 9.7.4.1.
    row(O::Add, &[ONLY_S32], &[SAT, CC], (3, 3)),
    row(O::Add, &[I32_64], &[CC], (3, 3)),
    row(O::Add, &[U16_64], &[], (3, 3)),
    row(O::Add, &[I16X2], &[], (3, 3)).since(80, 90).unshared(),
    row(O::Add, &[F32], &[RND, FTZ, SAT], (3, 3)),
    row(O::Add, &[F64], &[RND], (3, 3)),
    row(O::Add, &[HALF], HALF_ARITH, (3, 3)).since(42, 53),
    row(O::Add, &[BHALF], &[opt(&[Rn])], (3, 3)).since(78, 90),
    // ptxas also takes the 16-bit types.
    row(O::Addc, &[U16_64], &[CC], (3, 3)),
    row(O::Alloca, &[U32_U64], &[], (2, 3)).since(73, 52),
    row(O::And, &[], &[], (3, 3)).own(),
    row(O::Applypriority, &[], &[], (2, 2)).since(74, 80).open(),
    // atom, red: 9.7.13.5, 9.7.13.6.
    // atom (9.7.13.5): each operation takes its own types (ptxas: "Operation .add
    // requires .u32 or .s32 or .u64 or .f64 or .f16 ..."), in global or shared memory.
    row(O::Atom, &[B32_64], ATOM_BITS, (3, 4)).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[&[Ty::B16, Ty::B32, Ty::B64, Ty::B128]], ATOM_CAS, (4, 4)).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[&[Ty::B32, Ty::B64, Ty::B128]], ATOM_EXCH, (3, 4)).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[&[Ty::U32, Ty::S32, Ty::U64]], ATOM_ADD, (3, 4)).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[F32], ATOM_ADD_VEC, (3, 4)).excludes(ATOM_EXCLUDES).gates(VECTOR_ATOM_GATE),
    row(O::Atom, &[F64], ATOM_ADD, (3, 4)).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[HALVES], ATOM_HALF_ADD, (3, 4)).excludes(ATOM_EXCLUDES).gates(VECTOR_ATOM_GATE),
    row(O::Atom, &[HALVES], ATOM_HALF_MINMAX, (3, 4)).since(80, 90).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[ONLY_U32], ATOM_INC, (3, 4)).excludes(ATOM_EXCLUDES),
    row(O::Atom, &[&[Ty::U32, Ty::S32, Ty::U64, Ty::S64]], ATOM_MINMAX, (3, 4)).excludes(ATOM_EXCLUDES),
    // bar, barrier (9.7.13.1, 9.7.13.2): one form per mode; `bar` is aligned by
    // definition (ptxas: "Illegal modifier '.aligned' for instruction 'bar'").
    row(O::Bar, &[], &[req(&[Sync]), opt(&[Cta])], (1, 2)),
    row(O::Bar, &[], &[req(&[Arrive]), opt(&[Cta])], (2, 2)),
    row(O::Bar, &[], &[req(&[Warp]), req(&[Sync])], (1, 1)),
    row(O::Bar, &[ONLY_U32], &[req(&[Red]), req(&[Popc]), opt(&[Cta])], (3, 4)).since(20, 20),
    row(O::Bar, &[PRED], &[req(&[Red]), req(&[And, Or]), opt(&[Cta])], (3, 4)).since(20, 20),
    row(O::Barrier, &[], &[req(&[Sync]), ALIGNED, opt(&[Cta])], (1, 2)),
    row(O::Barrier, &[], &[req(&[Arrive]), ALIGNED, opt(&[Cta])], (2, 2)),
    row(O::Barrier, &[ONLY_U32], &[req(&[Red]), req(&[Popc]), ALIGNED, opt(&[Cta])], (3, 4)),
    row(O::Barrier, &[PRED], &[req(&[Red]), req(&[And, Or]), ALIGNED, opt(&[Cta])], (3, 4)),
    row(O::Barrier, &[], &[req(&[Cluster]), req(&[Arrive]), opt(&[Release, Relaxed]), ALIGNED], (0, 0))
        .since(78, 90),
    row(O::Barrier, &[], &[req(&[Cluster]), req(&[Wait]), opt(&[Acquire]), ALIGNED], (0, 0)).since(78, 90),
    row(O::Bfe, &[I32_64], &[], (4, 4)).since(20, 20),
    row(O::Bfi, &[B32_64], &[], (5, 5)).since(20, 20),
    row(O::Bfind, &[I32_64], &[opt(&[Shiftamt])], (2, 2)).since(20, 20),
    row(O::Bmsk, &[ONLY_B32], &[req(&[Clamp, Wrap])], (3, 3)).since(76, 70),
    row(O::Bra, &[], &[opt(&[Uni])], (1, 1)).operands_own(),
    row(O::Brev, &[B32_64], &[], (2, 2)).since(20, 20),
    row(O::Brkpt, &[], &[], (0, 0)),
    // `brx.idx`; check/control.rs also holds ptxas to `.idx` coming first.
    row(O::Brx, &[], &[opt(&[Idx]), opt(&[Uni])], (2, 2)).since(60, 30).operands_own(),
    row(O::Call, &[], &[opt(&[Uni])], (1, 8)).operands_own(),
    row(O::Clusterlaunchcontrol, &[], &[], (2, 2)).open(),
    row(O::Clz, &[B32_64], &[], (2, 2)).since(20, 20),
    row(O::Cnot, &[], &[], (2, 2)).own(),
    row(O::Copysign, &[F32_64], &[], (3, 3)),
    row(O::Cos, &[F32], &[APPROX, FTZ], (2, 2)),
    // cp.async (9.7.9.25): copies to shared memory with commit and wait groups; the
    // bulk and tensor copies are not in the table in full yet.
    row(
        O::Cp,
        &[],
        &[
            req(&[Async]),
            req(&[Ca, Cg]),
            req(&[Shared, SharedCta]),
            req(&[Global]),
            PREFETCH_SIZE,
            CACHE_HINT,
        ],
        (3, 5),
    )
    .since(70, 80)
    .lead(&[Async]),
    row(O::Cp, &[], &[req(&[Async]), req(&[CommitGroup])], (0, 0)).since(70, 80).lead(&[Async]),
    row(O::Cp, &[], &[req(&[Async]), req(&[WaitGroup])], (1, 1)).since(70, 80).lead(&[Async]),
    row(O::Cp, &[], &[req(&[Async]), req(&[WaitAll])], (0, 0)).since(70, 80).lead(&[Async]),
    row(
        O::Cp,
        &[ONLY_B64],
        &[req(&[Async]), req(&[Mbarrier]), req(&[Arrive]), opt(&[Noinc]), MBAR_SPACE],
        (1, 1),
    )
    .since(70, 80)
    .lead(&[Async]),
    // The bulk copies: ptxas reads `cp.async.bulk` (or `cp.reduce.async.bulk`) as the
    // operation, so its words come first.
    row(O::Cp, &[], &[req(&[Async]), req(&[Bulk])], (0, 6)).since(80, 90).lead(&[Async, Reduce]).open(),
    row(O::Createpolicy, &[], &[], (1, 4)).since(74, 80).open(),
    // cvt.pack.sat (9.7.9.22): two 32-bit sources packed into 8- or 16-bit halves.
    row(
        O::Cvt,
        &[&[Ty::U8, Ty::S8, Ty::U16, Ty::S16], &[Ty::S32], ONLY_B32],
        &[req(&[Pack]), req(&[Sat])],
        (4, 4),
    )
    .since(65, 72),
    row(O::Cvt, &[&[Ty::U8, Ty::S8, Ty::U16, Ty::S16], &[Ty::S32]], &[req(&[Pack]), req(&[Sat])], (3, 3))
        .since(65, 72),
    // cvt: 9.7.9.21; which pairs need which rounding is not in the table yet.
    row(
        O::Cvt,
        &[NUMERIC, NUMERIC],
        &[opt(&[Rn, Rz, Rm, Rp, Rna, Rs, Rni, Rzi, Rmi, Rpi]), FTZ, opt(&[Sat, Satfinite]), opt(&[Relu])],
        (2, 4),
    ),
    row(O::Cvta, &[U32_U64], &[req_of(groups::SPACE), opt(&[To])], (2, 2)).since(20, 20),
    row(O::Discard, &[], &[], (2, 2)).since(74, 80).open(),
    // div: 9.7.1.8, 9.7.3.8.
    row(O::Div, &[U16_64], &[], (3, 3)),
    row(O::Div, &[F32], &[req(&[Approx, Full, Rn, Rz, Rm, Rp]), FTZ], (3, 3)),
    row(O::Div, &[F64], &[NEED_RND], (3, 3)),
    row(O::Dp2a, &[U32_S32, U32_S32], &[req(&[Lo, Hi])], (4, 4)).since(50, 61),
    row(O::Dp4a, &[U32_S32, U32_S32], &[], (4, 4)).since(50, 61),
    row(O::Elect, &[], &[SYNC], (2, 2)).since(80, 90),
    row(O::Ex2, &[F32], &[APPROX, FTZ], (2, 2)),
    row(O::Ex2, &[HALF], &[APPROX, FTZ], (2, 2)).since(70, 75),
    row(O::Ex2, &[BHALF], &[APPROX, FTZ], (2, 2)).since(78, 90),
    row(O::Exit, &[], &[], (0, 0)).operands_own(),
    // fence (9.7.13.4): `.proxy` and `.mbarrier_init` name the operation first;
    // `fence.cta` (acq_rel by default) starts with its scope.
    row(O::Fence, &[], &[], (0, 2))
        .lead(&[Sc, AcqRel, Acquire, Release, Proxy, MbarrierInit, Sync, Cta, Cluster, Gpu, Sys])
        .open(),
    // fma: 9.7.3.5, 9.7.4.4.
    row(O::Fma, &[F32], &[NEED_RND, FTZ, SAT], (4, 4)),
    row(O::Fma, &[F64], &[NEED_RND], (4, 4)),
    row(O::Fma, &[HALF], &[req(&[Rn]), FTZ, SAT, opt(&[Relu]), opt(&[Oob])], (4, 4)).since(42, 53),
    row(O::Fma, &[BHALF], &[req(&[Rn]), opt(&[Relu]), opt(&[Oob])], (4, 4)).since(70, 80),
    row(O::Fns, &[ONLY_B32], &[], (4, 4)).since(60, 30),
    row(O::Getctarank, &[U32_U64], &[opt(&[SharedCluster])], (2, 2)).since(78, 90),
    row(O::Griddepcontrol, &[], &[req(&[LaunchDependents, Wait])], (0, 0)).since(78, 90),
    row(O::Isspacep, &[], &[req_of(groups::SPACE)], (2, 2)).since(20, 20),
    row(O::Istypeof, &[], &[], (2, 2)).open(),
    // ld, st, ldu: 9.7.9.8-9.7.9.10; vector widths by check/mem.rs.
    row(
        O::Ld,
        &[DATA],
        &[
            SPACE,
            opt(&[Weak, Volatile, Relaxed, Acquire]),
            opt(&[Mmio]),
            SCOPE,
            opt(&[Ca, Cg, Cs, Lu, Cv]),
            opt(&[Nc]),
            L1_EVICT,
            L2_EVICT,
            CACHE_HINT,
            PREFETCH_SIZE,
            VEC,
        ],
        (2, 3),
    )
    .needs(SEM_NEEDS_SCOPE)
    .excludes(LDST_EXCLUDES)
    .gates(LDST_GATES),
    row(
        O::Ldmatrix,
        &[ONLY_B16],
        &[SYNC, req(&[Aligned]), req(&[M8n8]), req(&[X1, X2, X4]), opt(&[Trans]), opt(&[Shared, SharedCta])],
        (2, 2),
    )
    .since(65, 75)
    .gates(SHARED_CTA_GATE),
    // The 8-bit shapes of sm_100 (ptxas: "Feature '.m16n16' not supported on .target
    // 'sm_90'"); their .b8x16 source formats are not in the vocabulary yet.
    row(
        O::Ldmatrix,
        &[&[Ty::B8]],
        &[
            SYNC,
            req(&[Aligned]),
            req(&[M16n16, M8n16]),
            req(&[X1, X2, X4]),
            opt(&[Trans]),
            opt(&[Shared, SharedCta]),
        ],
        (2, 2),
    )
    .since(86, 100),
    row(O::Ldu, &[DATA], &[opt(&[Global]), VEC], (2, 2)).since(20, 20),
    row(O::Lg2, &[F32], &[APPROX, FTZ], (2, 2)),
    row(O::Lop3, &[ONLY_B32], &[opt(&[Or, And])], (5, 6)).since(43, 50),
    // mad, mul: 9.7.1.3, 9.7.1.4, 9.7.3.4.
    // ptxas reads `mad.lo`/`mad.hi`/`mad.wide` as the operation: `.cc` and `.sat` follow.
    row(O::Mad, &[ONLY_S32], &[req(&[Hi, Lo, Wide]), SAT, CC], (4, 4)).lead(&[Hi, Lo, Wide]),
    row(O::Mad, &[I32_64], &[req(&[Hi, Lo, Wide]), CC], (4, 4)).lead(&[Hi, Lo, Wide]),
    row(O::Mad, &[U16_64], &[req(&[Hi, Lo, Wide])], (4, 4)).lead(&[Hi, Lo, Wide]),
    row(O::Mad, &[F32], &[RND, FTZ, SAT], (4, 4)),
    row(O::Mad, &[F64], &[RND], (4, 4)),
    row(O::Mad24, &[U32_S32], &[req(&[Hi, Lo]), SAT], (4, 4)),
    row(O::Madc, &[U16_64], &[req(&[Hi, Lo]), CC], (4, 4)).lead(&[Hi, Lo]),
    row(O::Mapa, &[U32_U64], &[opt(&[SharedCluster])], (3, 3)).since(78, 90),
    row(O::Match, &[B32_64], &[req(&[Any, All]), SYNC], (3, 4)).since(60, 70),
    // mbarrier (9.7.13.15): one row per operation, all on a .b64 object in shared memory.
    row(O::Mbarrier, &[ONLY_B64], &[req(&[Init]), MBAR_SPACE], (2, 2)).since(70, 80).lead(&[Init]),
    row(O::Mbarrier, &[ONLY_B64], &[req(&[Inval]), MBAR_SPACE], (1, 1)).since(70, 80).lead(&[Inval]),
    row(
        O::Mbarrier,
        &[ONLY_B64],
        &[
            req(&[Arrive, ArriveDrop]),
            opt(&[NoComplete]),
            opt(&[ExpectTx]),
            opt(&[Release, Relaxed]),
            opt(&[Cta, Cluster]),
            opt(&[Shared, SharedCta, SharedCluster]),
        ],
        (2, 3),
    )
    .since(70, 80)
    .needs(SEM_NEEDS_SCOPE)
    .gates(MBAR_GATES)
    .lead(&[Arrive, ArriveDrop]),
    row(
        O::Mbarrier,
        &[ONLY_B64],
        &[
            req(&[ExpectTx, CompleteTxOp]),
            opt(&[Relaxed]),
            opt(&[Cta, Cluster]),
            opt(&[Shared, SharedCta, SharedCluster]),
        ],
        (2, 2),
    )
    // ptxas takes `.relaxed` here from PTX 8.0, the row's own version, unlike on
    // mbarrier.arrive (8.6).
    .since(80, 90)
    .needs(SEM_NEEDS_SCOPE)
    .lead(&[ExpectTx, CompleteTxOp]),
    row(
        O::Mbarrier,
        &[ONLY_B64],
        &[
            req(&[TestWait, TryWait]),
            opt(&[Parity]),
            opt(&[Acquire, Relaxed]),
            opt(&[Cta, Cluster]),
            MBAR_SPACE,
        ],
        (3, 4),
    )
    .since(70, 80)
    .needs(SEM_NEEDS_SCOPE)
    .gates(MBAR_GATES)
    .lead(&[TestWait, TryWait]),
    row(O::Mbarrier, &[ONLY_B64], &[req(&[PendingCount])], (2, 2)).since(70, 80).lead(&[PendingCount]),
    row(O::Membar, &[], &[req(&[Cta, Gl, Sys, Proxy])], (0, 0)),
    // min, max: 9.7.1.10, 9.7.1.11; packed 16-bit halves since PTX 8.0 (sm_90).
    row(O::Min, &[ONLY_S32], &[opt(&[Relu])], (3, 3)).gates(RELU_GATE),
    row(O::Min, &[U16_64], &[], (3, 3)),
    row(O::Min, &[ONLY_S16X2], &[opt(&[Relu])], (3, 3)).since(80, 90),
    row(O::Min, &[ONLY_U16X2], &[], (3, 3)).since(80, 90),
    row(O::Min, &[F32], MINMAX, (3, 4)),
    row(O::Min, &[F64], &[], (3, 3)),
    row(O::Min, &[HALF], MINMAX, (3, 3)).since(70, 80),
    row(O::Min, &[BHALF], MINMAX_BF16, (3, 3)).since(70, 80),
    // mma (9.7.14.5): the words here (check refuses any other word of the vocabulary:
    // "Illegal modifier '.sat' for instruction 'mma'"); the fragments by check's own
    // rule (check/matrix.rs). Open: the sm_100 block-scale words are not in the
    // vocabulary, and pass.
    row(O::Mma, &[], &MMA_GROUPS, (4, 6)).since(64, 70).lead(&[Sync, Sp, SpOrdered]).open(),
    row(O::Mov, &[], &[], (2, 2)).own(),
    row(O::Movmatrix, &[], &[], (2, 2)).since(78, 75).open(),
    row(O::Mul, &[U16_64], &[req(&[Hi, Lo, Wide])], (3, 3)),
    row(O::Mul, &[F32], &[RND, FTZ, SAT], (3, 3)),
    row(O::Mul, &[F64], &[RND], (3, 3)),
    row(O::Mul, &[HALF], HALF_ARITH, (3, 3)).since(42, 53),
    row(O::Mul, &[BHALF], &[opt(&[Rn])], (3, 3)).since(78, 90),
    row(O::Mul24, &[U32_S32], &[req(&[Hi, Lo])], (3, 3)),
    row(O::Multimem, &[], &[], (2, 3)).open(),
    // ptxas 13.5 takes nanosleep from PTX 6.2 (the ISA text says 6.3).
    row(O::Nanosleep, &[ONLY_U32], &[], (1, 1)).since(62, 70).operands_own(),
    row(O::Neg, &[S16_64], &[], (2, 2)),
    row(O::Neg, &[F32], &[FTZ], (2, 2)),
    row(O::Neg, &[F64], &[], (2, 2)),
    row(O::Neg, &[HALF], &[FTZ], (2, 2)).since(60, 53),
    row(O::Neg, &[BHALF], &[], (2, 2)).since(70, 80),
    row(O::Not, &[], &[], (2, 2)).own(),
    row(O::Or, &[], &[], (3, 3)).own(),
    // pmevent (9.7.19.2): an event number, or with .mask (PTX 3.0) a 16-bit mask.
    row(O::Pmevent, &[], &[opt(&[Mask])], (1, 1)).gates(&[(WordSet::of(&[Mask]), 30, 20)]),
    row(O::Popc, &[B32_64], &[], (2, 2)).since(20, 20),
    row(O::Prefetch, &[], &[], (1, 1)).open(),
    row(O::Prefetchu, &[], &[req(&[L1])], (1, 1)).since(20, 20),
    row(O::Prmt, &[ONLY_B32], &[opt(&[F4e, B4e, Rc8, Ecl, Ecr, Rc16])], (3, 4)).since(20, 20),
    row(O::Rcp, &[F32], &[req(&[Approx, Rn, Rz, Rm, Rp]), FTZ], (2, 2)),
    // "'.ftz' modifier required for instruction 'rcp.approx.f64'".
    row(O::Rcp, &[F64], &[req(&[Approx]), req(&[Ftz])], (2, 2)),
    row(O::Rcp, &[F64], &[req(&[Rn, Rz, Rm, Rp]), FTZ], (2, 2)),
    // red.async (9.7.13.7): a remote reduction that completes an mbarrier; the bit
    // operations on .b32/.b64, the others on integers.
    row(O::Red, &[ONLY_B32], RED_ASYNC_BITS, (2, 3)).since(81, 90),
    row(O::Red, &[&[Ty::U32, Ty::S32, Ty::U64, Ty::S64]], RED_ASYNC_ARITH, (2, 3)).since(81, 90),
    row(O::Red, &[B32_64], RED_BITS, (2, 3)).excludes(ATOM_EXCLUDES),
    row(O::Red, &[&[Ty::U32, Ty::S32, Ty::U64]], RED_ADD, (2, 3)).excludes(ATOM_EXCLUDES),
    row(O::Red, &[F32], RED_ADD_VEC, (2, 3)).excludes(ATOM_EXCLUDES).gates(VECTOR_ATOM_GATE),
    row(O::Red, &[F64], RED_ADD, (2, 3)).excludes(ATOM_EXCLUDES),
    row(O::Red, &[HALVES], RED_HALF_ADD, (2, 3)).excludes(ATOM_EXCLUDES).gates(VECTOR_ATOM_GATE),
    row(O::Red, &[HALVES], RED_HALF_MINMAX, (2, 3)).since(80, 90).excludes(ATOM_EXCLUDES),
    row(O::Red, &[ONLY_U32], RED_INC, (2, 3)).excludes(ATOM_EXCLUDES),
    row(O::Red, &[&[Ty::U32, Ty::S32, Ty::U64, Ty::S64]], RED_MINMAX, (2, 3)).excludes(ATOM_EXCLUDES),
    row(O::Redux, &[BU32], &[SYNC, req(&[Add, Min, Max, And, Or, Xor])], (3, 3)).since(70, 80),
    row(O::Rem, &[U16_64], &[], (3, 3)),
    row(O::Ret, &[], &[opt(&[Uni])], (0, 0)).operands_own(),
    row(O::Rsqrt, &[F32_64], &[APPROX, FTZ], (2, 2)),
    row(O::Sad, &[U16_64], &[], (4, 4)),
    row(O::Selp, &[], &[], (4, 4)).own(),
    row(O::Set, &[], &[], (3, 4)).own(),
    // setmaxnreg (9.7.19.5): sm_90a in the ISA.
    row(O::Setmaxnreg, &[ONLY_U32], &[req(&[Inc, Dec]), SYNC, req(&[Aligned])], (1, 1))
        .since(80, 90)
        .lead(&[Inc, Dec]),
    row(O::Setp, &[], &[], (3, 4)).own(),
    row(O::Shf, &[ONLY_B32], &[req(&[L, R]), req(&[Clamp, Wrap])], (4, 4)).since(31, 32),
    // The `.sync` forms add a member mask (9.7.13.8).
    row(O::Shfl, &[ONLY_B32], &[req(&[Up, Down, Bfly, Idx]), SYNC], (5, 5)).since(60, 30),
    row(O::Shfl, &[ONLY_B32], &[req(&[Up, Down, Bfly, Idx])], (4, 4)),
    row(O::Shl, &[B16_64], &[], (3, 3)),
    row(
        O::Shr,
        &[&[Ty::B16, Ty::B32, Ty::B64, Ty::U16, Ty::U32, Ty::U64, Ty::S16, Ty::S32, Ty::S64]],
        &[],
        (3, 3),
    ),
    row(O::Sin, &[F32], &[APPROX, FTZ], (2, 2)),
    row(O::Slct, &[], &[], (4, 4)).own(),
    row(O::Sqrt, &[F32], &[req(&[Approx, Rn, Rz, Rm, Rp]), FTZ], (2, 2)),
    row(O::Sqrt, &[F64], &[NEED_RND], (2, 2)),
    // st.async (9.7.9.12): a remote store that completes an mbarrier.
    row(
        O::St,
        &[&[
            Ty::B16,
            Ty::U16,
            Ty::S16,
            Ty::B32,
            Ty::U32,
            Ty::S32,
            Ty::F32,
            Ty::B64,
            Ty::U64,
            Ty::S64,
            Ty::F64,
        ]],
        &[req(&[Async]), opt(&[V2, V4]), opt(&[Weak]), opt(&[SharedCluster]), opt(&[CompleteTx])],
        (2, 3),
    )
    .since(81, 90)
    // "Modifier '.shared::cluster' requires modifier '.completion_mechanism'".
    .needs(&[(WordSet::of(&[SharedCluster]), WordSet::of(&[CompleteTx]))]),
    // st.bulk (9.7.9.13): zero a range of shared memory.
    row(O::St, &[], &[req(&[Bulk]), opt(&[Weak]), opt(&[SharedCta])], (3, 3)).since(86, 100),
    row(
        O::St,
        &[DATA],
        &[
            // A store writes no constant memory and no kernel parameter.
            opt(&[Global, Shared, SharedCta, SharedCluster, Local, Param, ParamFunc]),
            opt(&[Weak, Volatile, Relaxed, Release]),
            opt(&[Mmio]),
            SCOPE,
            opt(&[Wb, Cg, Cs, Wt]),
            L1_EVICT,
            L2_EVICT,
            CACHE_HINT,
            VEC,
        ],
        (2, 3),
    )
    .needs(SEM_NEEDS_SCOPE)
    .excludes(LDST_EXCLUDES)
    .gates(LDST_GATES),
    row(O::Stackrestore, &[U32_U64], &[], (1, 1)).since(73, 52),
    row(O::Stacksave, &[U32_U64], &[], (1, 1)).since(73, 52),
    row(
        O::Stmatrix,
        &[ONLY_B16],
        &[SYNC, req(&[Aligned]), req(&[M8n8]), req(&[X1, X2, X4]), opt(&[Trans]), opt(&[Shared, SharedCta])],
        (2, 2),
    )
    .since(78, 90),
    // "Modifier '.trans' require for instruction stmatrix with shape '.m16n8'".
    row(
        O::Stmatrix,
        &[&[Ty::B8]],
        &[SYNC, req(&[Aligned]), req(&[M16n8]), req(&[X1, X2, X4]), req(&[Trans]), opt(&[Shared, SharedCta])],
        (2, 2),
    )
    .since(86, 100),
    row(O::Suld, &[], &[], (2, 2)).own(),
    row(O::Suq, &[], &[], (2, 2)).own(),
    row(O::Sured, &[], &[], (2, 2)).own(),
    row(O::Sust, &[], &[], (2, 2)).own(),
    row(O::Szext, &[U32_S32], &[req(&[Clamp, Wrap])], (3, 3)).since(76, 70),
    row(O::Tanh, &[F32], &[APPROX], (2, 2)).since(70, 75),
    row(O::Tanh, &[HALF], &[APPROX], (2, 2)).since(70, 75),
    row(O::Tanh, &[BHALF], &[APPROX], (2, 2)).since(78, 90),
    row(O::Tcgen05, &[], &[], (0, 5)).open(),
    // tensormap.replace (9.7.9.26): one row per field class and value type, each with
    // its operand count (`[addr], new_val` or `[addr], ord, new_val`).
    // ptxas 13.5 takes each field with one value type only; the ISA wants sm_90a.
    row(O::Tensormap, &[ONLY_B32], &TENSORMAP_RANK, (2, 2)).since(83, 90),
    row(O::Tensormap, &[ONLY_B32], &TENSORMAP_DIMS, (3, 3)).since(83, 90),
    row(O::Tensormap, &[ONLY_B32], &TENSORMAP_ENUMS, (2, 2)).since(83, 90).gates(&[(
        WordSet::of(&[SwizzleAtomicity]),
        86,
        100,
    )]),
    row(O::Tensormap, &[ONLY_B64], &TENSORMAP_ADDRESS, (2, 2)).since(83, 90),
    row(O::Tensormap, &[ONLY_B64], &TENSORMAP_STRIDE, (3, 3)).since(83, 90),
    // tensormap.cp_fenceproxy (9.7.9.27): every word required.
    row(
        O::Tensormap,
        &[],
        &[
            req(&[CpFenceproxy]),
            req(&[Global]),
            req(&[SharedCta]),
            req(&[TensormapGeneric]),
            req(&[Release]),
            req(&[Cta, Cluster, Gpu, Sys]),
            SYNC,
            req(&[Aligned]),
        ],
        (3, 3),
    )
    .since(83, 90),
    row(O::Testp, &[F32_64], &[req(&[Finite, Infinite, Number, Notanumber, Normal, Subnormal])], (2, 2)),
    row(O::Tex, &[], &[], (2, 5)).own(),
    row(O::Tld4, &[], &[], (2, 5)).own(),
    row(O::Trap, &[], &[], (0, 0)),
    row(O::Txq, &[], &[], (2, 2)).own(),
    video(O::Vabsdiff),
    video_simd(O::Vabsdiff2),
    video_simd(O::Vabsdiff4),
    video(O::Vadd),
    video_simd(O::Vadd2),
    video_simd(O::Vadd4),
    video_simd(O::Vavrg2),
    video_simd(O::Vavrg4),
    row(O::Vmad, VIDEO_TYPES, &[opt(&[Po]), SAT, opt(&[Shr7, Shr15])], (4, 4)).since(20, 20).operands_own(),
    video(O::Vmax),
    video_simd(O::Vmax2),
    video_simd(O::Vmax4),
    video(O::Vmin),
    video_simd(O::Vmin2),
    video_simd(O::Vmin4),
    row(O::Vote, &[&[Ty::Pred, Ty::B32]], &[req(&[All, Any, Uni, Ballot]), SYNC], (3, 3)).since(60, 30),
    row(O::Vote, &[&[Ty::Pred, Ty::B32]], &[req(&[All, Any, Uni, Ballot])], (2, 2)),
    row(O::Vset, &[U32_S32, U32_S32], &[VIDEO_CMP, VIDEO_OP2], (3, 4)).since(20, 20).operands_own(),
    row(O::Vset2, &[U32_S32, U32_S32], &[VIDEO_CMP, opt(&[Add])], (4, 4)).since(30, 30).operands_own(),
    row(O::Vshl, &[U32_S32, U32_S32, ONLY_U32], &[SAT, req(&[Clamp, Wrap]), VIDEO_OP2], (3, 4))
        .since(20, 20)
        .operands_own(),
    video(O::Vsub),
    video_simd(O::Vsub2),
    video_simd(O::Vsub4),
    // ptxas 13.5 takes wgmma without .aligned, not without .sync.
    row(O::Wgmma, &[], &[req(&[MmaAsync, Fence, CommitGroup, WaitGroup]), SYNC], (0, 10))
        .since(80, 90)
        .lead(&[MmaAsync, Fence, CommitGroup, WaitGroup])
        .open(),
    // wmma (9.7.14.4): the words here; the fragments, the type combinations, the two
    // layouts of mma and the operands by check's own rule (isa::wmma).
    row(O::Wmma, &[&[Ty::F16, Ty::F32]], &WMMA_LOAD, (2, 3)).since(60, 70).gates(WMMA_GATES).operands_own(),
    row(O::Wmma, &[&[Ty::S8, Ty::U8, Ty::S32]], &WMMA_LOAD, (2, 3))
        .since(63, 72)
        .gates(WMMA_GATES)
        .operands_own(),
    row(O::Wmma, &[&[Ty::BF16, Ty::TF32, Ty::F64]], &WMMA_LOAD, (2, 3))
        .since(70, 80)
        .gates(WMMA_GATES)
        .operands_own(),
    row(O::Wmma, &[], &WMMA_LOAD_SUB_BYTE, (2, 3)).since(63, 75).gates(WMMA_GATES).operands_own(),
    row(O::Wmma, &[&[Ty::F16, Ty::F32]], &WMMA_STORE, (2, 3)).since(60, 70).gates(WMMA_GATES).operands_own(),
    row(O::Wmma, &[ONLY_S32], &WMMA_STORE, (2, 3)).since(63, 72).gates(WMMA_GATES).operands_own(),
    row(O::Wmma, &[F64], &WMMA_STORE, (2, 3)).since(70, 80).gates(WMMA_GATES).operands_own(),
    row(O::Wmma, &[&[Ty::F16, Ty::F32], &[Ty::F16, Ty::F32]], &WMMA_MMA, (4, 4))
        .since(60, 70)
        .gates(WMMA_GATES)
        .operands_own(),
    row(O::Wmma, &[ONLY_S32, &[Ty::S8, Ty::U8], &[Ty::S8, Ty::U8], ONLY_S32], &WMMA_MMA, (4, 4))
        .since(63, 72)
        .gates(WMMA_GATES)
        .operands_own(),
    row(O::Wmma, &[F32, &[Ty::BF16, Ty::TF32], &[Ty::BF16, Ty::TF32], F32], &WMMA_MMA, (4, 4))
        .since(70, 80)
        .gates(WMMA_GATES)
        .operands_own(),
    row(O::Wmma, &[F64, F64, F64, F64], &WMMA_MMA, (4, 4)).since(70, 80).gates(WMMA_GATES).operands_own(),
    row(O::Wmma, &[ONLY_S32, ONLY_S32], &WMMA_MMA_SUB_BYTE, (4, 4))
        .since(63, 75)
        .gates(WMMA_GATES)
        .operands_own(),
    row(O::Xor, &[], &[], (3, 3)).own(),
];

/// Opcodes whose forms are another's, row for row: (opcode, the one whose rows it
/// shares). sub has add's forms (PTX ISA 9.7.1.2, 9.7.3.2), subc addc's, max min's,
/// vset4 vset2's and vshr vshl's.
pub const SAME_FORMS: &[(Opcode, Opcode)] =
    &[(O::Sub, O::Add), (O::Subc, O::Addc), (O::Max, O::Min), (O::Vset4, O::Vset2), (O::Vshr, O::Vshl)];

/// The opcode whose rows hold `op`'s forms: `op` itself, or the one it shares them with.
pub fn forms_of(op: Opcode) -> Opcode {
    SAME_FORMS.iter().find(|(a, _)| *a == op).map_or(op, |&(_, b)| b)
}

/// The rows of an opcode, in table order.
pub fn rows_of(op: Opcode) -> &'static [Row] {
    let op = forms_of(op);
    static INDEX: std::sync::OnceLock<Vec<(u16, u16)>> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = vec![(0u16, 0u16); Opcode::ALL.len()];
        for (k, r) in ROWS.iter().enumerate() {
            let e = &mut index[r.opcode as usize];
            if e.1 == 0 {
                e.0 = k as u16;
            }
            e.1 = k as u16 + 1;
        }
        index
    });
    let (a, b) = index[op as usize];
    &ROWS[usize::from(a)..usize::from(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_opcode_has_rows_and_they_are_contiguous() {
        for &op in Opcode::ALL {
            let rows = rows_of(op);
            assert!(!rows.is_empty(), "{} has no row", op.text());
            assert!(rows.iter().all(|r| r.opcode == forms_of(op)));
            let n = ROWS.iter().filter(|r| r.opcode == forms_of(op)).count();
            assert_eq!(n, rows.len(), "{}'s rows are not contiguous", op.text());
        }
    }

    #[test]
    fn an_opcode_sharing_forms_has_no_rows_of_its_own() {
        for &(op, with) in SAME_FORMS {
            assert!(
                ROWS.iter().all(|r| r.opcode != op),
                "{} has rows and shares {}'s",
                op.text(),
                with.text()
            );
            assert_eq!(forms_of(with), with);
        }
    }

    #[test]
    fn no_word_in_two_groups_of_a_row() {
        for r in ROWS {
            for (i, a) in r.groups.iter().enumerate() {
                for b in &r.groups[i + 1..] {
                    let both = a.words.intersect(&b.words);
                    assert!(
                        both.is_empty(),
                        "{}: {:?} in two groups",
                        r.opcode.text(),
                        both.iter().collect::<Vec<_>>()
                    );
                }
            }
        }
    }
}
