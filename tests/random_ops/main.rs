//! Random straight-line programs over the arithmetic that `run` executes, against a
//! per-thread reference written here from the PTX ISA's definitions (never from ptxvm's
//! code): integer arithmetic at 16, 32 and 64 bits (with `.sat`, `mul24`/`mad24`,
//! `sad`), carry chains (`add.cc`/`addc`,
//! `sub.cc`/`subc`, `mad.cc`/`madc`, 32 and 64 bit), the bit instructions (`prmt` in
//! every mode, `bfe bfi prmt shf lop3 bmsk szext dp4a dp2a popc clz brev bfind cnot`),
//! `cvt` between integer types of every width (with `.sat`, into registers wider than
//! the type; `cvt.pack.sat`), loads of narrow types into wide registers, f16, f16x2,
//! bf16, f32 and f64 `add sub mul fma min max abs neg` (f32 also with `.ftz` and
//! rounded toward zero, minus and plus infinity, with `.sat`, and `min`/`max` with
//! `.NaN` and `.xorsign.abs`), IEEE `div rcp sqrt` (f32 and f64 also rounded toward
//! zero, minus and plus infinity), `copysign`, `setp` with every float comparison (and
//! combined with a predicate by `.and .or .xor`, into `p|q`), `set`, the predicate
//! logic, `selp`, `slct` (with `.s32` and `.f32` selectors, `.ftz`), `testp`, and
//! conversions between the float formats (with `.ftz` and `.sat`, and rounding to an
//! integral value in the same format) and to and from
//! integers, loads, stores (vector ones too, and vector loads of up to 16 bytes) and
//! atomics (`ld`, `st`, `atom` and `red` on the thread's own words of global, shared
//! and local memory), loads of initialised `.const` variables and of kernel parameters
//! at offsets inside them, the packing and unpacking `mov`s, packed `add/min/max` on
//! `.u16x2`/`.s16x2` and `.relu`, the scalar video instructions (`vset` included) with
//! random selectors and the SIMD ones (`vadd2` ... `vset4`) with random masks and
//! selectors, f64 `add sub mul fma div
//! sqrt` rounded toward zero, minus and plus infinity against exact results, and `cvt`
//! into f16 and bf16 (directed roundings, `.relu`, `.satfinite`, packed pairs) and
//! between f32, f16 and the 8-bit floats e4m3 and e5m2; and the collectives, whose
//! reference reads every thread of the group: `bar.red` (`.popc`, `.and`, `.or`) over
//! the CTA, and over each warp with a full member mask the integer `mma.sync` m16n8k32
//! on s8 and u8, `shfl.sync` in every mode (with register and immediate lanes and clamp/segment
//! masks, and the `d|p` destination), `vote.sync` (`.all .any .uni .ballot`, negated
//! predicates too), `match.sync` (`.any`, `.all` with and without its predicate),
//! `redux.sync` and `activemask`, with the special registers of the lane and the CTA
//! (`%laneid`, `%lanemask_*`, `%tid.x` ...), and the f64 `mma.sync` m8n8k4 on small
//! integers (exact in any order of addition), with the f16, bf16 and tf32 `mma.sync`
//! (m16n8k16, m16n8k8) on small integers packed just before them, `ldmatrix` (`.x1`,
//! `.x2`, `.x4`, with and without `.trans`) from the warp's shared memory, and
//! `cp.async` (`.ca` of 4 and 8 bytes, `.cg` of 16, with every source size and the
//! `ignore-src` predicate, then committed and waited for), and the approximate
//! instructions (`sin cos lg2 ex2 rcp rsqrt sqrt tanh` `.approx` on f32, `div.approx`
//! and `div.full`, half `ex2` and `tanh`, the f64 `rcp` and `rsqrt`), whose results
//! are checked against the ISA's error bounds and special values rather than
//! compared, `fns` with every base from 0 to 31, and control flow within the straight
//! line (`brx.idx` to one of four targets by each lane's own index, calls with `.reg`
//! and `.param` parameters, a nested call, an indirect call through a pointer each
//! lane picks), `nanosleep`, `membar`, `fence` and `prefetch`, and `vmad` with every
//! selector and negation, `.po`, `.sat`, `.shr7` and `.shr15`, `wmma` on the warp's
//! shared memory (load and store in different layouts, and a product whose fragments
//! are masked element by element to exact values: what does not depend on the map of
//! elements into fragments, which CUDA leaves open), and an mbarrier in the thread's
//! own shared word (`init`, `arrive` with a count, `test_wait`/`try_wait` by parity,
//! `inval`) and one warp suspended at `try_wait` until the other arrives, bulk copies between global and shared memory (one completing on an
//! mbarrier, the other committed and waited for) and `cp.async.mbarrier.arrive` with
//! and without `.noinc`, and `cvt` from f32 to tf32 (`.rna`, `.rn`, `.rz`,
//! `.rna.satfinite`), `cvta` both ways and `prefetchu`, and what the sm_90 runtime
//! sweep made run (`elect.sync`, `isspacep`, `alloca`, `mapa`, `getctarank`, device
//! `malloc`/`free`, vector f32 atomics, the cluster barrier, `griddepcontrol`,
//! `pmevent`): 638 forms. Branches,
//! loops, `exit`, `ret` and barriers in divergent code are `tests/random_kernels`'s. f16 and f16x2 arithmetic is
//! drawn with `.ftz` and `.sat` too, and the atomics include `cas.b16` and the half adds
//! (`add.noftz` on `.f16`, `.f16x2`, `.bf16`, `.bf16x2`). The CTA is one-dimensional, so `%tid.y/.z` and
//! `%ntid.y/.z` (0 and 1) are not drawn.
//!
//! Each case is a kernel of two warps whose threads load 12 registers (`.b16`, `.b32`,
//! `.b64`, four each, from special and random bit patterns), two predicates and four
//! words each of global, shared and local memory, run 24 random instructions on them
//! and store every register and word; the output is compared word for word with the
//! reference. Float results that are NaN compare equal to any NaN (the H100 goldens pin
//! NaN bits; the ISA does not, for most of these). An approximate result is checked
//! on its own, and what later reads it is not compared. `PTXVM_PROPTEST_CASES` sets the
//! number of cases; `PTXVM_RANDOM_OPS_DUMP=DIR` writes each module there (all accepted
//! by `ptxas -arch=sm_90`).

use half::{bf16, f16};
use proptest::prelude::*;
use ptxvm::api::{Device, Module};
use ptxvm::launch::parse_spec;

mod approx;
mod emit;
mod floats;
mod forms;
mod ints;
mod model;
mod video;
mod warp;

use approx::*;
use emit::*;
use floats::*;
use forms::*;
use ints::*;
use model::*;
use video::*;
use warp::*;

/// A register file: 16, 32 or 64 bits, or a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum W {
    H,
    R,
    D,
    P,
    /// One of the thread's four 64-bit words of global memory.
    M,
    /// One of the thread's four words of shared memory.
    S,
    /// One of the thread's four words of local memory.
    L,
    /// A 16-byte aligned pair of the thread's words of global, shared or local memory
    /// (words 2k and 2k + 1), for 128-bit vector loads.
    M2,
    S2,
    L2,
    /// A module `.const` variable or kernel parameter at `[name+stride*k]`, k below the
    /// count: it reads the 16 bytes of the variable's image from there, as two words.
    K(&'static str, u8, u8),
    /// The operand `0`: the barrier of `bar.red`.
    Z,
    /// An operand written as it is, which the reference knows from the form: a full
    /// member mask, a special register. It reads as 0.
    X(&'static str),
    /// A predicate, negated: `!%p0`.
    NP,
    /// A 32-bit register and a predicate, `%r0|%p0`: the `d|p` destination of `shfl`
    /// and `match.all` (a form's first value goes to the register, its second to the
    /// predicate).
    RP,
    /// Two predicates, `%p0|%p1`: the `p|q` destination of `setp` (a form's first value
    /// goes to the first, its second to the other predicate).
    PQ,
    /// No destination (`red`).
    N,
}

impl W {
    fn name(self, k: u8) -> String {
        match self {
            W::H => format!("%h{k}"),
            W::R => format!("%r{k}"),
            W::D => format!("%rd{k}"),
            W::P => format!("%p{k}"),
            W::M => format!("[%a1+{}]", MEM_AT + 8 * usize::from(k)),
            W::S => format!("[%sa+{}]", 8 * k),
            W::L => format!("[lo+{}]", 8 * k),
            W::M2 => format!("[%a1+{}]", MEM_AT + 16 * usize::from(k)),
            W::S2 => format!("[%sa+{}]", 16 * k),
            W::L2 => format!("[lo+{}]", 16 * k),
            W::K(name, _, _) if k == 0 => format!("[{name}]"),
            W::K(name, stride, _) => format!("[{name}+{}]", usize::from(stride) * usize::from(k)),
            W::Z => "0".to_string(),
            W::X(text) => text.to_string(),
            W::NP => format!("!%p{k}"),
            W::RP => format!("%r{k}|%p{}", k % 2),
            W::PQ => format!("%p{k}|%p{}", 1 - k),
            W::N => String::new(),
        }
    }
    fn mask(self) -> u64 {
        match self {
            W::H => 0xffff,
            W::D => u64::MAX,
            W::P | W::NP | W::PQ => 1,
            W::R | W::RP => 0xffff_ffff,
            W::M | W::S | W::L | W::M2 | W::S2 | W::L2 | W::K(..) => u64::MAX,
            W::N | W::Z | W::X(_) => 0,
        }
    }
    fn count(self) -> u8 {
        match self {
            W::P | W::NP | W::PQ | W::M2 | W::S2 | W::L2 => 2,
            W::K(_, _, n) => n,
            W::N | W::Z | W::X(_) => 1,
            _ => 4,
        }
    }
}

/// How an instruction uses the carry flag: the add family (`add.cc`, `addc`, `mad.cc`,
/// `madc`) or the sub family; a chain never mixes them (the ISA defines each family's
/// flag only for its own kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cf {
    None,
    Write(bool),
    Read(bool),
    ReadWrite(bool),
}

/// What a result is compared as: bits, or a float whose NaNs are all alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Bits,
    F16,
    /// Two f16 in a register: each half compared on its own.
    F16x2,
    Bf16,
    Bf16x2,
    /// Two 8-bit floats in a register, each byte compared on its own.
    E4m3x2,
    E5m2x2,
    F32,
    /// Two f32 in a 64-bit word, each compared on its own.
    F32x2,
    F64,
    /// The result of an approximate instruction, checked against the ISA's error bound
    /// for it from the instruction's operands, which the reference holds in its place
    /// (see [`approx_ok`]).
    Approx(Ax),
}

/// The approximate instructions (PTX ISA 9.7.3 and 9.7.4): the function and its form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ax {
    /// `sin cos lg2 ex2 rcp rsqrt sqrt tanh` `.approx{.ftz}.f32`.
    F32(Fun, bool),
    /// `div.approx` (false) or `div.full` (true), `.ftz`.
    Div(bool, bool),
    /// `ex2` or `tanh` `.approx` on `.f16` (false) or `.bf16` (true), one half or a pair.
    Half(Fun, bool, bool),
    /// `rcp.approx.ftz.f64`, `rsqrt.approx{.ftz}.f64`.
    F64(Fun, bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fun {
    Sin,
    Cos,
    Lg2,
    Ex2,
    Rcp,
    Rsqrt,
    Sqrt,
    Tanh,
}

/// An instruction's meaning: from its sources, immediate and carry flag, its result;
/// an atomic also updates the memory word (its first source) through the last argument.
type Eval = fn(&[u64], u64, &mut bool, &mut u64) -> u64;

/// One instruction form: its PTX (`{imm}` stands for the immediate), destination and
/// source files, the immediate's range, its carry use and its meaning. A form with
/// several destinations (`lanes` > 1: a vector load, an unpacking `mov`) writes the
/// registers `dst`, `dst + 1`, ... (modulo 4) in braces, and its meaning is called once
/// per destination with the destination's place in the braces as the immediate.
struct Op {
    ptx: &'static str,
    dst: W,
    lanes: u8,
    srcs: &'static [W],
    imm: (u64, u64),
    cf: Cf,
    cmp: Cmp,
    f: Eval,
    /// A collective instruction: the size of the group of threads that executes it
    /// together, and its meaning for one destination (the immediate) of one thread
    /// (the rank) from the sources of every thread of the group.
    group: Option<(usize, Collective)>,
}

/// A collective's meaning: from the sources of every thread of the group, the rank of
/// the thread, the place of the destination and the immediate, that destination.
type Collective = fn(&[Vec<u64>], usize, u64, u64) -> u64;

const fn op(ptx: &'static str, dst: W, srcs: &'static [W], f: Eval) -> Op {
    Op { ptx, dst, lanes: 1, srcs, imm: (0, 0), cf: Cf::None, cmp: Cmp::Bits, f, group: None }
}

const fn fop(ptx: &'static str, dst: W, srcs: &'static [W], cmp: Cmp, f: Eval) -> Op {
    Op { ptx, dst, lanes: 1, srcs, imm: (0, 0), cf: Cf::None, cmp, f, group: None }
}

const fn iop(ptx: &'static str, dst: W, srcs: &'static [W], imm: (u64, u64), f: Eval) -> Op {
    Op { ptx, dst, lanes: 1, srcs, imm, cf: Cf::None, cmp: Cmp::Bits, f, group: None }
}

const fn ifop(ptx: &'static str, dst: W, srcs: &'static [W], imm: (u64, u64), cmp: Cmp, f: Eval) -> Op {
    Op { ptx, dst, lanes: 1, srcs, imm, cf: Cf::None, cmp, f, group: None }
}

const fn cop(ptx: &'static str, dst: W, srcs: &'static [W], cf: Cf, f: Eval) -> Op {
    Op { ptx, dst, lanes: 1, srcs, imm: (0, 0), cf, cmp: Cmp::Bits, f, group: None }
}

/// An approximate instruction: the reference keeps its operand (two operands: the
/// first in the low word) in place of the result, which [`approx_ok`] then checks.
const fn aop(ptx: &'static str, dst: W, srcs: &'static [W], ax: Ax) -> Op {
    let f: Eval = if srcs.len() == 2 { |s, _, _, _| s[0] | s[1] << 32 } else { |s, _, _, _| s[0] };
    Op { ptx, dst, lanes: 1, srcs, imm: (0, 0), cf: Cf::None, cmp: Cmp::Approx(ax), f, group: None }
}

/// A form with `lanes` destinations, in braces; `f` gets the destination's place as
/// its immediate.
const fn vop(ptx: &'static str, dst: W, lanes: u8, srcs: &'static [W], f: Eval) -> Op {
    Op { ptx, dst, lanes, srcs, imm: (0, 0), cf: Cf::None, cmp: Cmp::Bits, f, group: None }
}

/// A collective form: `g` gives each of a group's threads its destinations.
const fn gop(ptx: &'static str, dst: W, lanes: u8, srcs: &'static [W], size: usize, g: Collective) -> Op {
    igop(ptx, dst, lanes, srcs, (0, 0), size, g)
}

/// A collective form with an immediate.
const fn igop(
    ptx: &'static str,
    dst: W,
    lanes: u8,
    srcs: &'static [W],
    imm: (u64, u64),
    size: usize,
    g: Collective,
) -> Op {
    Op {
        ptx,
        dst,
        lanes,
        srcs,
        imm,
        cf: Cf::None,
        cmp: Cmp::Bits,
        f: |_, _, _, _| unreachable!("a collective form"),
        group: Some((size, g)),
    }
}

use W::{D, H, K, L, L2, M, M2, N, NP, P, PQ, R, RP, S, S2, X, Z};

/// Where the thread's memory words start in its output record.
const MEM_AT: usize = 112;

/// The module's `.const` variables, with their initialisers: name, element type and
/// elements (as bits), declared 16-byte aligned so that every vector load is legal.
const CONSTS: [(&str, &str, &[u64]); 5] = [
    ("cd", "b64", &[0x8899_aabb_ccdd_eeff, 0x0123_4567_89ab_cdef]),
    ("cw", "b32", &[0x8000_0001, 0x7fff_ffff, 0xdead_beef, 0x0000_ff80]),
    ("ch", "b16", &[0x8001, 0x7ffe, 0xff80, 0x0042]),
    // A signalling NaN, -inf, 1 and the smallest subnormal: loads copy bits.
    ("cf", "f32", &[0x7f80_0001, 0xff80_0000, 0x3f80_0000, 0x0000_0001]),
    ("cb", "b8", &[0x80, 0xff, 0x01, 0x7f, 0xc3, 0x00, 0x9a, 0x55]),
];

/// The kernel's parameters after `in` and `out`: name, declaration and bytes (given to
/// the launch as they are).
const PARAMS: [(&str, &str, &[u8]); 4] = [
    (
        "pb",
        ".align 16 .b8 pb[16]",
        &[0xf0, 0x81, 0x02, 0xe3, 0x84, 0x75, 0x96, 0xa7, 0x18, 0x29, 0xba, 0xcb, 0x5c, 0xed, 0x7e, 0x8f],
    ),
    ("pw", ".u32 pw", &[0x01, 0x80, 0xff, 0x9f]),
    ("ph", ".u16 ph", &[0xfe, 0x8f]),
    // -1.5 as an f64.
    ("pd", ".f64 pd", &[0, 0, 0, 0, 0, 0, 0xf8, 0xbf]),
];

/// A `.const` variable's or parameter's image: its bytes in memory (little-endian).
fn image(name: &str) -> Vec<u8> {
    if let Some((_, ty, elems)) = CONSTS.iter().find(|c| c.0 == name) {
        let size = match *ty {
            "b8" => 1,
            "b16" => 2,
            "b32" | "f32" => 4,
            _ => 8,
        };
        return elems.iter().flat_map(|e| e.to_le_bytes()[..size].to_vec()).collect();
    }
    PARAMS.iter().find(|p| p.0 == name).map(|p| p.2.to_vec()).expect("a declared name")
}

/// The two little-endian words of `name`'s image from byte `at` (zeros past its end).
fn image_words(name: &str, at: usize) -> [u64; 2] {
    let bytes = image(name);
    let byte = |k: usize| u64::from(bytes.get(at + k).copied().unwrap_or(0));
    [0, 8].map(|w| (0..8).fold(0, |v, k| v | byte(w + k) << (8 * k)))
}

const ROUNDINGS: [&str; 3] = ["rz", "rm", "rp"];

const CLASSES: [&str; 6] = ["finite", "infinite", "number", "notanumber", "normal", "subnormal"];

const CMPS: [&str; 14] =
    ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];

/// One generated instruction: the form, its registers and its immediate.
#[derive(Clone, Debug)]
struct Inst {
    op: usize,
    dst: u8,
    srcs: Vec<u8>,
    imm: u64,
}

/// ptxas 13 refuses the byte selector spelled `.b1024` ("Parsing error near
/// '.b1024'"), though the ISA allows it and `.b1023` and `.b1025` pass: the SIMD video
/// forms draw `.b1025` (selector 533) in its place, so every module stays valid.
fn avoid_b1024(imm: u64) -> u64 {
    let fix = |sel: u64| if sel == 532 { 533 } else { sel };
    let (asel, rest) = (imm % 4096, imm / 4096);
    fix(asel) + 4096 * (fix(rest % 4096) + 4096 * (rest / 4096))
}

/// How many times more often than other forms a carry writer (`add.cc`, `sub.cc`,
/// `mad.cc`) is drawn: a reader is dropped unless a writer of its family comes before
/// it, so with hundreds of forms the readers would all but vanish otherwise.
const CARRY_WEIGHT: usize = 3;

fn inst() -> impl Strategy<Value = Inst> {
    let writers: Vec<usize> = (0..OPS.len()).filter(|&k| matches!(OPS[k].cf, Cf::Write(_))).collect();
    let draws = OPS.len() + writers.len() * (CARRY_WEIGHT - 1);
    (0..draws, 0u8..4, proptest::collection::vec(0u8..4, 10), any::<u64>()).prop_map(
        move |(op, dst, srcs, r)| {
            let op = if op < OPS.len() { op } else { writers[(op - OPS.len()) % writers.len()] };
            let o = &OPS[op];
            let imm = if o.imm.1 > o.imm.0 { o.imm.0 + r % (o.imm.1 - o.imm.0 + 1) } else { o.imm.0 };
            let imm = if o.ptx.contains("{s4}") { avoid_b1024(imm) } else { imm };
            let srcs = o.srcs.iter().zip(&srcs).map(|(w, &k)| k % w.count()).collect();
            if o.ptx.contains("{wmma") {
                // The whole of the thread's shared words, in order.
                return Inst { op, dst: 0, srcs: vec![0, 1], imm };
            }
            Inst { op, dst: dst % o.dst.count(), srcs, imm }
        },
    )
}

/// Drops the carry readers whose chain is missing or of the other family, so every
/// flag read has a writer of its own family before it.
fn well_formed(prog: Vec<Inst>) -> Vec<Inst> {
    let mut family: Option<bool> = None;
    prog.into_iter()
        .filter(|i| match OPS[i.op].cf {
            Cf::None => true,
            Cf::Write(f) => {
                family = Some(f);
                true
            }
            Cf::Read(f) | Cf::ReadWrite(f) => family == Some(f),
        })
        .collect()
}

/// Bit patterns that find the corners: zeros, ones, signs, f32/f64/f16 specials.
fn value() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => any::<u64>(),
        1 => prop::sample::select(vec![
            0u64, 1, 2, 0xff, 0x80, 0x7f, 0xffff, 0x8000, 0x7fff, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff,
            u64::MAX, 1 << 63, (1 << 63) - 1, 31, 32, 33, 63, 64, 65, 0x1_0000_0000,
            0x3f80_0000, 0xbf80_0000, 0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x7f80_0001, 0x0000_0001,
            0x807f_ffff, 0x7f7f_ffff, 0x0080_0000, 0x3ff0_0000_0000_0000, 0x7ff0_0000_0000_0000,
            0xfff8_0000_0000_0000, 0x0000_0000_0000_0001, 0x3c00, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8400,
            0x4f00_0000, 0xdf00_0000, 0x43e0_0000_0000_0000,
        ]),
        1 => (any::<u32>(), 0u32..64).prop_map(|(v, s)| u64::from(v) << s),
    ]
}

const THREADS: usize = 64;
/// Input words per thread: 4 of each register file, the predicates, and the 4 memory
/// words.
const IN_WORDS: usize = 17;
const OUT_WORDS: usize = 26;

fn check(prog: Vec<Inst>, input: Vec<u64>) -> Result<(), TestCaseError> {
    let prog = well_formed(prog);
    let ptx = emit(&prog);
    if let Some(dir) = std::env::var_os("PTXVM_RANDOM_OPS_DUMP") {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(std::path::Path::new(&dir).join(format!("case{n:04}.ptx")), &ptx).unwrap();
    }
    let module = Module::load(&ptx).map_err(|e| TestCaseError::fail(format!("{e:?}\n{ptx}")))?;
    let words: Vec<String> = input.iter().map(|v| format!("\"{v:#x}\"")).collect();
    let spec = format!(
        r#"{{"kernel": "k", "grid": 1, "block": {THREADS}, "args": [{{"buffer": "u64", "data": [{}]}}, {{"buffer": "u64", "len": {}}}{}]}}"#,
        words.join(","),
        THREADS * OUT_WORDS,
        PARAMS
            .iter()
            .map(|p| {
                let hex: String = p.2.iter().map(|b| format!("{b:02x}")).collect();
                format!(r#", {{"type": "bytes", "value": "0x{hex}"}}"#)
            })
            .collect::<String>()
    );
    let spec = parse_spec(&spec).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    let mut device = Device::default();
    let bound = device.bind(&module, &spec).map_err(|e| TestCaseError::fail(format!("{e:?}\n{ptx}")))?;
    device
        .launch(&bound.kernel, spec.grid, spec.block, 0, &bound.params, 1 << 24)
        .map_err(|f| TestCaseError::fail(format!("fault {}\n{ptx}", f.cause)))?;
    let out = &bound.buffers[1];
    let bytes = device.read_to_vec(out.addr, out.bytes).unwrap();
    for (t, (want, how)) in reference(&prog, &input).iter().enumerate() {
        for (w, (&want, &how)) in want.iter().zip(how).enumerate() {
            let at = (t * OUT_WORDS + w) * 8;
            let got = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            prop_assert!(
                same(how, got, want),
                "thread {t} word {w}: got {got:#x}, want {want:#x}\ninputs {:x?}\n{ptx}",
                &input[t * IN_WORDS..(t + 1) * IN_WORDS]
            );
        }
    }
    Ok(())
}

/// Gives each input predicate a shape over the CTA, so that the collectives that reduce
/// predicates (`vote`, `bar.red`) see more than random bits, where `.all` is all but
/// never true and `.any` all but never false: for predicate k, shape 0 keeps the
/// random bits, 1 gives every thread thread 0's bit, 2 does so except for one thread
/// of the CTA, and 3 except for one lane of each warp, which get the other value.
fn shape_preds(mut input: Vec<u64>, preds: &[(u8, usize)]) -> Vec<u64> {
    for (k, &(shape, odd)) in preds.iter().enumerate() {
        let bit = 1 << k;
        let first = input[12] & bit;
        for t in 0..THREADS {
            let w = &mut input[t * IN_WORDS + 12];
            let v = match shape {
                0 => *w & bit,
                1 => first,
                2 if t == odd => first ^ bit,
                3 if t % 32 == odd % 32 => first ^ bit,
                _ => first,
            };
            *w = (*w & !bit) | v;
        }
    }
    input
}

fn cases() -> u32 {
    std::env::var("PTXVM_PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_arithmetic_matches_the_isa_reference(
        prog in proptest::collection::vec(inst(), 24),
        input in proptest::collection::vec(value(), THREADS * IN_WORDS),
        preds in proptest::collection::vec((0u8..4, 0..THREADS), 2),
    ) {
        check(prog, shape_preds(input, &preds))?;
    }
}

/// The exact f64 arithmetic of the reference: rounded to nearest, it is the host's;
/// the directed roundings bracket that, one step apart at most, toward zero being one
/// of them by the sign.
#[test]
fn exact_f64_rounding_agrees_with_the_host() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let three = proptest::collection::vec(value(), 3);
    runner
        .run(&three, |v| {
            let (a, b, c) = (f64_of(v[0]), f64_of(v[1]), f64_of(v[2]));
            let ops: [(&dyn Fn(u64) -> f64, f64); 5] = [
                (&|m| fma64(a, 1.0, b, m), a + b),
                (&|m| mul64(a, b, m), a * b),
                (&|m| fma64(a, b, c, m), a.mul_add(b, c)),
                (&|m| div64(a, b, m), a / b),
                (&|m| sqrt64(a, m), a.sqrt()),
            ];
            for (k, (f, host)) in ops.into_iter().enumerate() {
                let [z, dn, up, near] = [0, 1, 2, 3].map(f);
                let what = format!("{k}: {a:e} {b:e} {c:e}: {z:e} {dn:e} {up:e} {near:e} vs {host:e}");
                if host.is_nan() {
                    prop_assert!([z, dn, up, near].iter().all(|x| x.is_nan()), "{what}");
                    continue;
                }
                prop_assert!(near.to_bits() == host.to_bits(), "{what}");
                prop_assert!(dn <= near && near <= up && (dn == up || dn.next_up() == up), "{what}");
                let toward_zero = if near > 0.0 { dn } else { up };
                prop_assert!(z.to_bits() == toward_zero.to_bits() || (near == 0.0 && z == 0.0), "{what}");
            }
            Ok(())
        })
        .unwrap();
}

/// Every form of the table is drawn: a census over as many programs as CI runs.
#[test]
fn every_form_is_generated() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = vec![false; OPS.len()];
    for _ in 0..cases() {
        let prog = proptest::collection::vec(inst(), 24).new_tree(&mut runner).unwrap().current();
        for i in well_formed(prog) {
            seen[i.op] = true;
        }
    }
    let missing: Vec<&str> = OPS.iter().zip(&seen).filter(|(_, s)| !**s).map(|(o, _)| o.ptx).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
