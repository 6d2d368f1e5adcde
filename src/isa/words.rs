//! Every modifier spelling PTX uses (PTX ISA 9.x), in one place. A [`Word`] is one
//! dotted modifier such as `.ftz` or `.shared::cta`; what it means depends on the
//! opcode (`.and` is a BoolOp of `setp` and an operation of `atom`), which the rows of
//! [`super::table`] and the typed groups of [`super::groups`] say. Types (`.u32`) are
//! not words: they are [`Ty`](crate::check::types::Ty).

/// Declares the [`Word`] enum from `Variant = ".spelling"` pairs, with its parser and
/// its spelling.
macro_rules! words {
    ($($id:ident = $s:literal),* $(,)?) => {
        /// One modifier spelling.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u16)]
        pub enum Word { $($id),* }

        /// The spelling of each word, by discriminant.
        const TEXT: &[&str] = &[$($s),*];

        impl Word {
            /// Every word, in declaration order.
            pub const ALL: &'static [Word] = &[$(Word::$id),*];

            /// The word a modifier spells, or `None` when PTX has no such modifier.
            pub fn parse(s: &str) -> Option<Word> {
                // A hash lookup: a `match` over every spelling compares them in turn.
                static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Word>> =
                    std::sync::OnceLock::new();
                INDEX.get_or_init(|| Word::ALL.iter().map(|w| (w.text(), *w)).collect()).get(s).copied()
            }
        }
    };
}

impl Word {
    /// The dotted spelling.
    pub fn text(self) -> &'static str {
        TEXT[self as usize]
    }
}

/// How many words there are.
pub const COUNT: usize = TEXT.len();

words! {
    // Rounding (9.7.3) and rounding to an integer (cvt, 9.7.9.21).
    Rn = ".rn", Rz = ".rz", Rm = ".rm", Rp = ".rp", Rna = ".rna", Rs = ".rs",
    Rni = ".rni", Rzi = ".rzi", Rmi = ".rmi", Rpi = ".rpi",
    // Comparison operators (9.7.6.1).
    Eq = ".eq", Ne = ".ne", Lt = ".lt", Le = ".le", Gt = ".gt", Ge = ".ge",
    Lo = ".lo", Ls = ".ls", Hi = ".hi", Hs = ".hs",
    Equ = ".equ", Neu = ".neu", Ltu = ".ltu", Leu = ".leu", Gtu = ".gtu", Geu = ".geu",
    Num = ".num", Nan = ".nan",
    // Boolean operators and reduction operations.
    And = ".and", Or = ".or", Xor = ".xor", Add = ".add", Min = ".min", Max = ".max",
    Inc = ".inc", Dec = ".dec", Exch = ".exch", Cas = ".cas", Popc = ".popc",
    // Arithmetic modifiers.
    Ftz = ".ftz", Sat = ".sat", Approx = ".approx", Full = ".full", Cc = ".cc",
    Wide = ".wide", Shiftamt = ".shiftamt", Relu = ".relu", Satfinite = ".satfinite",
    NaN = ".NaN", Xorsign = ".xorsign", Abs = ".abs", Oob = ".oob", Pack = ".pack",
    Clamp = ".clamp", Wrap = ".wrap", L = ".l", R = ".r", Noftz = ".noftz",
    // Video instructions (9.7.17): vmad's product and scale.
    Po = ".po", Shr7 = ".shr7", Shr15 = ".shr15",
    // testp classes (9.7.3.6).
    Finite = ".finite", Infinite = ".infinite", Number = ".number", Notanumber = ".notanumber",
    Normal = ".normal", Subnormal = ".subnormal",
    // prmt modes (9.7.8.7).
    F4e = ".f4e", B4e = ".b4e", Rc8 = ".rc8", Ecl = ".ecl", Ecr = ".ecr", Rc16 = ".rc16",
    // Control flow, warps and barriers.
    Uni = ".uni", Sync = ".sync", Aligned = ".aligned", Idx = ".idx", Up = ".up", Down = ".down",
    Bfly = ".bfly", All = ".all", Any = ".any", Ballot = ".ballot", Arrive = ".arrive",
    Red = ".red", Wait = ".wait", Warp = ".warp", LaunchDependents = ".launch_dependents",
    // State spaces (5.1) as instruction modifiers.
    Global = ".global", Shared = ".shared", SharedCta = ".shared::cta",
    SharedCluster = ".shared::cluster", Local = ".local", Param = ".param",
    ParamFunc = ".param::func", ParamEntry = ".param::entry", Const = ".const", To = ".to",
    // Vectors (5.4).
    V2 = ".v2", V4 = ".v4", V8 = ".v8",
    // Cache operators (9.7.9.1) and cache and eviction hints.
    Ca = ".ca", Cg = ".cg", Cs = ".cs", Lu = ".lu", Cv = ".cv", Wb = ".wb", Wt = ".wt", Nc = ".nc",
    L1EvictNormal = ".L1::evict_normal", L1EvictUnchanged = ".L1::evict_unchanged",
    L1EvictFirst = ".L1::evict_first", L1EvictLast = ".L1::evict_last",
    L1NoAllocate = ".L1::no_allocate", L2EvictNormal = ".L2::evict_normal",
    L2EvictFirst = ".L2::evict_first", L2EvictLast = ".L2::evict_last",
    L2EvictUnchanged = ".L2::evict_unchanged", L2CacheHint = ".L2::cache_hint",
    L2B64 = ".L2::64B", L2B128 = ".L2::128B", L2B256 = ".L2::256B", L1 = ".L1", L2 = ".L2",
    Fractional = ".fractional", LevelEvictionPriority = ".level::eviction_priority",
    Tensormap = ".tensormap", Uniform = ".uniform",
    // Memory consistency: semantics, scopes and proxies (8, 9.7.13.4).
    Weak = ".weak", Volatile = ".volatile", Relaxed = ".relaxed", Acquire = ".acquire",
    Release = ".release", AcqRel = ".acq_rel", Sc = ".sc", Mmio = ".mmio",
    Cta = ".cta", Cluster = ".cluster", Gpu = ".gpu", Sys = ".sys", Gl = ".gl",
    Proxy = ".proxy", Async = ".async", Alias = ".alias", MbarrierInit = ".mbarrier_init",
    // Asynchronous copies and mbarriers (9.7.9.25, 9.7.13.15).
    Bulk = ".bulk", Tensor = ".tensor", CommitGroup = ".commit_group", WaitGroup = ".wait_group",
    WaitAll = ".wait_all", BulkGroup = ".bulk_group", Read = ".read",
    CompleteTx = ".mbarrier::complete_tx::bytes", MulticastCluster = ".multicast::cluster",
    Tile = ".tile", Im2col = ".im2col", D1 = ".1d", D2 = ".2d", D3 = ".3d", D4 = ".4d",
    D5 = ".5d", Init = ".init", Inval = ".inval", Parity = ".parity", TryWait = ".try_wait",
    TestWait = ".test_wait", ExpectTx = ".expect_tx", CompleteTxOp = ".complete_tx",
    PendingCount = ".pending_count", Noinc = ".noinc", Mbarrier = ".mbarrier",
    ArriveDrop = ".arrive_drop", NoComplete = ".noComplete",
    // Matrix instructions (9.7.14-9.7.16).
    M8n8 = ".m8n8", M16n8k4 = ".m16n8k4", M16n8k8 = ".m16n8k8", M16n8k16 = ".m16n8k16",
    M16n8k32 = ".m16n8k32", M16n8k64 = ".m16n8k64", M16n8k128 = ".m16n8k128",
    M16n8k256 = ".m16n8k256", M8n8k4 = ".m8n8k4", M8n8k16 = ".m8n8k16", M8n8k32 = ".m8n8k32",
    M8n8k128 = ".m8n8k128", M16n16k16 = ".m16n16k16", M32n8k16 = ".m32n8k16",
    M8n32k16 = ".m8n32k16", M16n16k8 = ".m16n16k8", M16n16 = ".m16n16", M16n8 = ".m16n8",
    M8n16 = ".m8n16",
    X1 = ".x1", X2 = ".x2", X4 = ".x4", Trans = ".trans", Row = ".row", Col = ".col",
    Load = ".load", Store = ".store", Mma = ".mma", A = ".a", B = ".b", C = ".c", D = ".d",
    Fence = ".fence", CommitGroupWg = ".commit", Sp = ".sp", SpOrdered = ".sp::ordered_metadata",
    // The sub-byte element types of wmma and mma (no register has them).
    S4 = ".s4", U4 = ".u4", B1 = ".b1",
    // Operations read as part of the name: `wgmma.mma_async`, `cp.reduce.async.bulk`.
    MmaAsync = ".mma_async", Reduce = ".reduce", Mask = ".mask",
    // Textures and surfaces (9.7.10, 9.7.11).
    A1d = ".a1d", A2d = ".a2d", Cube = ".cube", Acube = ".acube", D2ms = ".2dms",
    A2dms = ".a2dms", G = ".g", P = ".p", Zero = ".zero", Trap = ".trap",
    Level = ".level", Grad = ".grad", Base = ".base",
    Width = ".width", Height = ".height", Depth = ".depth",
    ChannelDataType = ".channel_data_type", ChannelOrder = ".channel_order",
    NormalizedCoords = ".normalized_coords", FilterMode = ".filter_mode",
    AddrMode0 = ".addr_mode_0", AddrMode1 = ".addr_mode_1", AddrMode2 = ".addr_mode_2",
    ArraySize = ".array_size", NumMipmapLevels = ".num_mipmap_levels",
    NumSamples = ".num_samples", ForceUnnormalizedCoords = ".force_unnormalized_coords",
    Texref = ".texref", Samplerref = ".samplerref", Surfref = ".surfref",
    // Tensor-map edits (9.7.9.26, 9.7.9.27).
    Replace = ".replace", CpFenceproxy = ".cp_fenceproxy", TensormapGeneric = ".tensormap::generic",
    B1024 = ".b1024", GlobalAddress = ".global_address", Rank = ".rank", BoxDim = ".box_dim",
    GlobalDim = ".global_dim", GlobalStride = ".global_stride", ElementStride = ".element_stride",
    Elemtype = ".elemtype", InterleaveLayout = ".interleave_layout", SwizzleMode = ".swizzle_mode",
    SwizzleAtomicity = ".swizzle_atomicity", FillMode = ".fill_mode",
}
