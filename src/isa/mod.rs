//! `isa`: the PTX instruction set as data. One table ([`table`]) lists every
//! instruction form ptxvm knows: its opcode, the modifier groups it takes, its types,
//! its operand count and the `.version`/`sm_` it needs. Every modifier spelling is a
//! [`Word`] declared once in [`words`]. `check` validates each instruction against its
//! row and records the result as a [`Form`]; `lower` reads the forms (typed words and
//! types) and never looks at modifier text again.
//!
//! The model is wasmi's `ir/build/isa.rs`: one list from which the parts are derived.

pub mod groups;
pub mod operands;
pub mod table;
pub mod wmma;
pub mod words;

use crate::check::types::Ty;
pub use table::{Row, Rule};
pub use words::Word;

/// A set of [`Word`]s, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WordSet([u64; WORDSET_LIMBS]);

/// 64 words per limb.
const WORDSET_LIMBS: usize = 5;

const _: () = assert!(words::COUNT <= 64 * WORDSET_LIMBS, "WordSet holds 64 words per limb");

impl WordSet {
    pub const EMPTY: WordSet = WordSet([0; WORDSET_LIMBS]);

    /// The set of the listed words.
    pub const fn of(ws: &[Word]) -> WordSet {
        let mut s = WordSet::EMPTY;
        let mut k = 0;
        while k < ws.len() {
            s = s.with(ws[k]);
            k += 1;
        }
        s
    }

    /// The set of the words of a typed group.
    pub const fn keys<T: Copy>(group: &[(Word, T)]) -> WordSet {
        let mut s = WordSet::EMPTY;
        let mut k = 0;
        while k < group.len() {
            s = s.with(group[k].0);
            k += 1;
        }
        s
    }

    pub const fn with(mut self, w: Word) -> WordSet {
        let i = w as usize;
        self.0[i / 64] |= 1 << (i % 64);
        self
    }

    pub const fn union(mut self, other: WordSet) -> WordSet {
        let mut k = 0;
        while k < WORDSET_LIMBS {
            self.0[k] |= other.0[k];
            k += 1;
        }
        self
    }

    pub fn contains(&self, w: Word) -> bool {
        let i = w as usize;
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// Every word not in the set.
    pub fn complement(&self) -> WordSet {
        WordSet(self.0.map(|w| !w))
    }

    pub fn intersect(&self, other: &WordSet) -> WordSet {
        WordSet(std::array::from_fn(|k| self.0[k] & other.0[k]))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; WORDSET_LIMBS]
    }

    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The words of the set, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = Word> + '_ {
        Word::ALL.iter().copied().filter(|w| self.contains(*w))
    }
}

/// Declares the [`Opcode`] enum from `Variant = "spelling" : Family` triples.
macro_rules! opcodes {
    ($($id:ident = $s:literal : $fam:ident),* $(,)?) => {
        /// A PTX opcode.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Opcode { $($id),* }

        impl Opcode {
            pub const ALL: &'static [Opcode] = &[$(Opcode::$id),*];

            /// The opcode spelled `s`, or `None` when PTX has no such instruction.
            pub fn parse(s: &str) -> Option<Opcode> {
                static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Opcode>> =
                    std::sync::OnceLock::new();
                INDEX.get_or_init(|| Opcode::ALL.iter().map(|o| (o.text(), *o)).collect()).get(s).copied()
            }

            pub fn text(self) -> &'static str {
                match self { $(Opcode::$id => $s),* }
            }

            /// The family of the instruction: which file holds it in every stage.
            pub fn family(self) -> Family {
                match self { $(Opcode::$id => Family::$fam),* }
            }
        }
    };
}

/// Instruction families. Each stage keeps one file per family (`check/int.rs`,
/// `lower/int.rs`, ...), so an instruction is one table row plus one file per stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Integer arithmetic and bit manipulation.
    Int,
    /// Floating-point arithmetic, f32 and f64.
    Float,
    /// Half-precision arithmetic (`.f16`, `.bf16` and their pairs), which shares the
    /// opcodes of the other two.
    Half,
    /// Comparison, selection and predicate logic: the seed core.
    Cmp,
    /// Loads, stores, atomics, fences, asynchronous copies and mbarriers.
    Mem,
    /// Conversions.
    Cvt,
    /// Warp-wide instructions and barriers.
    Warp,
    /// Branches, calls, returns.
    Control,
    /// Textures and surfaces.
    Tex,
    /// Matrix instructions (mma, wmma, wgmma, ldmatrix, stmatrix).
    Matrix,
    /// SIMD video instructions.
    Video,
    /// Everything else (stack, cluster queries, tensormap ...).
    Misc,
}

opcodes! {
    Abs = "abs": Int, Activemask = "activemask": Warp, Add = "add": Int, Addc = "addc": Int,
    Alloca = "alloca": Misc, And = "and": Cmp, Applypriority = "applypriority": Mem,
    Atom = "atom": Mem, Bar = "bar": Warp, Barrier = "barrier": Warp, Bfe = "bfe": Int,
    Bfi = "bfi": Int, Bfind = "bfind": Int, Bmsk = "bmsk": Int, Bra = "bra": Control,
    Brev = "brev": Int, Brkpt = "brkpt": Control, Brx = "brx": Control, Call = "call": Control,
    Clusterlaunchcontrol = "clusterlaunchcontrol": Misc, Clz = "clz": Int, Cnot = "cnot": Cmp,
    Copysign = "copysign": Float, Cos = "cos": Float, Cp = "cp": Mem,
    Createpolicy = "createpolicy": Mem, Cvt = "cvt": Cvt, Cvta = "cvta": Mem,
    Discard = "discard": Mem, Div = "div": Int, Dp2a = "dp2a": Int, Dp4a = "dp4a": Int,
    Elect = "elect": Warp, Ex2 = "ex2": Float, Exit = "exit": Control, Fence = "fence": Mem,
    Fma = "fma": Float, Fns = "fns": Int, Getctarank = "getctarank": Misc,
    Griddepcontrol = "griddepcontrol": Control, Isspacep = "isspacep": Mem,
    Istypeof = "istypeof": Tex, Ld = "ld": Mem, Ldmatrix = "ldmatrix": Matrix, Ldu = "ldu": Mem,
    Lg2 = "lg2": Float, Lop3 = "lop3": Int, Mad = "mad": Int, Mad24 = "mad24": Int,
    Madc = "madc": Int, Mapa = "mapa": Misc, Match = "match": Warp, Max = "max": Int,
    Mbarrier = "mbarrier": Mem, Membar = "membar": Mem, Min = "min": Int, Mma = "mma": Matrix,
    Mov = "mov": Mem, Movmatrix = "movmatrix": Matrix, Mul = "mul": Int, Mul24 = "mul24": Int,
    Multimem = "multimem": Mem, Nanosleep = "nanosleep": Control, Neg = "neg": Int,
    Not = "not": Cmp, Or = "or": Cmp, Pmevent = "pmevent": Misc, Popc = "popc": Int,
    Prefetch = "prefetch": Mem, Prefetchu = "prefetchu": Mem, Prmt = "prmt": Int,
    Rcp = "rcp": Float, Red = "red": Mem, Redux = "redux": Warp, Rem = "rem": Int,
    Ret = "ret": Control, Rsqrt = "rsqrt": Float, Sad = "sad": Int, Selp = "selp": Cmp,
    Set = "set": Cmp, Setmaxnreg = "setmaxnreg": Misc, Setp = "setp": Cmp, Shf = "shf": Int,
    Shfl = "shfl": Warp, Shl = "shl": Int, Shr = "shr": Int, Sin = "sin": Float,
    Slct = "slct": Cmp, Sqrt = "sqrt": Float, St = "st": Mem, Stackrestore = "stackrestore": Misc,
    Stacksave = "stacksave": Misc, Stmatrix = "stmatrix": Matrix, Sub = "sub": Int,
    Subc = "subc": Int, Suld = "suld": Tex, Suq = "suq": Tex, Sured = "sured": Tex,
    Sust = "sust": Tex, Szext = "szext": Int, Tanh = "tanh": Float, Tcgen05 = "tcgen05": Matrix,
    Tensormap = "tensormap": Misc, Testp = "testp": Float, Tex = "tex": Tex, Tld4 = "tld4": Tex,
    Trap = "trap": Control, Txq = "txq": Tex, Vabsdiff = "vabsdiff": Video,
    Vabsdiff2 = "vabsdiff2": Video, Vabsdiff4 = "vabsdiff4": Video, Vadd = "vadd": Video,
    Vadd2 = "vadd2": Video, Vadd4 = "vadd4": Video, Vavrg2 = "vavrg2": Video,
    Vavrg4 = "vavrg4": Video, Vmad = "vmad": Video, Vmax = "vmax": Video, Vmax2 = "vmax2": Video,
    Vmax4 = "vmax4": Video, Vmin = "vmin": Video, Vmin2 = "vmin2": Video, Vmin4 = "vmin4": Video,
    Vote = "vote": Warp, Vset = "vset": Video, Vset2 = "vset2": Video, Vset4 = "vset4": Video,
    Vshl = "vshl": Video, Vshr = "vshr": Video, Vsub = "vsub": Video, Vsub2 = "vsub2": Video,
    Vsub4 = "vsub4": Video, Wgmma = "wgmma": Matrix, Wmma = "wmma": Matrix, Xor = "xor": Cmp,
}

/// One instruction as `check` accepted it: its opcode, the words among its modifiers
/// and its types in order. `lower` decodes from this, never from text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    pub opcode: Opcode,
    pub words: WordSet,
    types: [Ty; 4],
    ntypes: u8,
}

impl Form {
    pub fn new(opcode: Opcode, words: WordSet, tys: &[Ty]) -> Form {
        let mut types = [Ty::Other; 4];
        let n = tys.len().min(4);
        types[..n].copy_from_slice(&tys[..n]);
        Form { opcode, words, types, ntypes: n as u8 }
    }

    pub fn has(&self, w: Word) -> bool {
        self.words.contains(w)
    }

    /// The type words in order (`cvt.f32.s32`: `.f32`, `.s32`).
    pub fn types(&self) -> &[Ty] {
        &self.types[..usize::from(self.ntypes)]
    }

    /// The instruction type: the last type word (`cvt`'s source, `ld`'s element).
    pub fn ty(&self) -> Option<Ty> {
        self.types().last().copied()
    }

    /// The value of the first word of `group` that the form has, in group order.
    pub fn pick<T: Copy>(&self, group: &[(Word, T)]) -> Option<T> {
        group.iter().find(|(w, _)| self.has(*w)).map(|&(_, v)| v)
    }

    /// The family of this form: the opcode's, except that the arithmetic opcodes
    /// with floating-point types are [`Family::Float`] (or [`Family::Half`]), the logic
    /// opcodes on bits are [`Family::Int`], and `mov.pred` is predicate logic.
    pub fn family(&self) -> Family {
        let base = self.opcode.family();
        match (base, self.ty()) {
            (Family::Int | Family::Float, Some(Ty::F16 | Ty::F16x2 | Ty::BF16 | Ty::BF16x2)) => Family::Half,
            (Family::Int, Some(Ty::F32 | Ty::F64)) => Family::Float,
            (Family::Cmp, Some(t))
                if t != Ty::Pred
                    && matches!(
                        self.opcode,
                        Opcode::And | Opcode::Or | Opcode::Xor | Opcode::Not | Opcode::Cnot
                    ) =>
            {
                Family::Int
            }
            (Family::Mem, Some(Ty::Pred)) if self.opcode == Opcode::Mov => Family::Cmp,
            _ => base,
        }
    }
}
