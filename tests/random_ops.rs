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
//! `.rna.satfinite`), `cvta` both ways and `prefetchu`: 627 forms. Branches,
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

fn sx(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}
fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}
fn bits32(x: f32) -> u64 {
    u64::from(x.to_bits())
}
/// `.ftz`: a subnormal becomes a zero of its sign.
fn ftz(x: f32) -> f32 {
    if x.is_subnormal() { f32::from_bits(x.to_bits() & 0x8000_0000) } else { x }
}
fn h(v: u64) -> f64 {
    f16::from_bits(v as u16).to_f64()
}
/// `x` rounded once to a format of `p` significand bits and smallest normal exponent
/// `emin` (ties to even), as an f64 the format holds exactly.
fn round_to(x: f64, p: i32, emin: i32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let e = (x.abs().log2().floor() as i32).max(emin);
    // `log2` can be one off near powers of two; the quantum only needs e to be right
    // when |x| is at least 2^e, which the correction keeps.
    let e = if x.abs() < 2f64.powi(e) && e > emin { e - 1 } else { e };
    let e = if x.abs() >= 2f64.powi(e + 1) { e + 1 } else { e };
    let q = 2f64.powi(e - (p - 1));
    (x / q).round_ties_even() * q
}
/// An f16 from an f64, rounded once (the `half` crate may go through f32).
fn hbits(x: f64) -> u64 {
    let r = round_to(x, 11, -14);
    let r = if r.abs() >= 65536.0 { r.signum() * f64::INFINITY } else { r };
    u64::from(f16::from_f64(r).to_bits())
}
/// `a * b + c` rounded once to f16: the product is exact in f64, the sum is rounded
/// to odd there (its last bit set when inexact), which then rounds to f16 correctly.
fn fma16(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let s = p + c;
    if !s.is_finite() {
        return s;
    }
    // The sum's exact error (Knuth's two-sum).
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    if e == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    let toward = if (e > 0.0) == (s > 0.0) { s.to_bits() + 1 } else { s.to_bits() - 1 };
    f64::from_bits(toward)
}
/// Two f16 halves of a register, each through `f`.
fn x2(a: u64, b: u64, f: impl Fn(f64, f64) -> f64) -> u64 {
    (0..2).fold(0, |acc, k| acc | hbits(f(h(a >> (16 * k)), h(b >> (16 * k)))) << (16 * k))
}
/// `.ftz` of an f16 (PTX ISA 9.7.4.1-9.7.4.4, `.ftz`): a subnormal becomes a zero of
/// its sign.
fn hftz(v: u64) -> u64 {
    let v = v & 0xffff;
    if v & 0x7c00 == 0 { v & 0x8000 } else { v }
}
/// `.sat` of an f16 result (PTX ISA 9.7.4.1-9.7.4.4): clamped to [0.0, 1.0], a NaN
/// (and -0) made +0.
fn hsat(v: u64) -> u64 {
    let x = h(v);
    if x.is_nan() { 0 } else { hbits(x.clamp(0.0, 1.0) + 0.0) }
}
/// An f16 `add`, `sub`, `mul` or `fma` (`f` of the operands' values, rounded once by
/// [`hbits`]), with `.ftz` flushing the inputs and the result and then `.sat`.
fn half_op(srcs: &[u64], flush: bool, saturate: bool, f: impl Fn(&[f64]) -> f64) -> u64 {
    let x: Vec<f64> = srcs.iter().map(|&v| h(if flush { hftz(v) } else { v })).collect();
    let r = hbits(f(&x));
    let r = if flush { hftz(r) } else { r };
    if saturate { hsat(r) } else { r }
}
/// [`half_op`] on each half of `.f16x2` registers.
fn half_op2(srcs: &[u64], flush: bool, saturate: bool, f: impl Fn(&[f64]) -> f64) -> u64 {
    (0..2).fold(0, |acc, k| {
        let part: Vec<u64> = srcs.iter().map(|v| (v >> (16 * k)) & 0xffff).collect();
        acc | half_op(&part, flush, saturate, &f) << (16 * k)
    })
}
fn bh(v: u64) -> f64 {
    bf16::from_bits(v as u16).to_f64()
}
fn bbits(x: f64) -> u64 {
    let r = round_to(x, 8, -126);
    let r = if r.abs() >= 2f64.powi(128) { r.signum() * f64::INFINITY } else { r };
    u64::from(bf16::from_f64(r).to_bits())
}
/// `testp` (PTX ISA 9.7.3.x): the class of a float. Zero counts as normal, as the
/// H100 computes it (tests/hw/README.md, `leaf_arith`), and is not subnormal.
fn testp(finite: bool, nan: bool, subnormal: bool, op: u64) -> u64 {
    u64::from(match op {
        0 => finite,
        1 => !finite && !nan,
        2 => !nan,
        3 => nan,
        4 => finite && !subnormal,
        _ => subnormal,
    })
}

/// A 32-bit atomic on the low half of a memory word: `f` of the old value is stored,
/// the old value returned.
/// `.relu` of a 16-bit float's bits `v` of value `x`.
fn relu_half(v: u64, x: f64) -> u64 {
    if x.is_nan() {
        0x7fff
    } else if v & 0x8000 != 0 {
        0
    } else {
        v
    }
}

/// An atom on the low 16 bits of a memory word: the old half, and the word with the new.
fn atom16(word: u64, m: &mut u64, f: impl Fn(u64) -> u64) -> u64 {
    let old = word & 0xffff;
    *m = (word & !0xffff) | (f(old) & 0xffff);
    old
}

fn atom32(word: u64, m: &mut u64, f: impl Fn(u32) -> u32) -> u64 {
    let old = word as u32;
    *m = (word & !0xffff_ffff) | u64::from(f(old));
    u64::from(old)
}

/// prmt's modes, in the order the immediate picks them.
const PRMT_MODES: [&str; 6] = ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"];

/// The table of prmt's modes (PTX ISA 9.7.9.7): for each mode and selector `c[1:0]`,
/// the source byte of `d.b3`, `d.b2`, `d.b1`, `d.b0`, as the ISA prints it.
const PRMT_TABLE: [[[u8; 4]; 4]; 6] = [
    [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
    [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
    [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
    [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
];

fn prmt_mode(mode: usize, a: u64, b: u64, c: u64) -> u64 {
    let bytes = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    let row = PRMT_TABLE[mode][(c & 3) as usize];
    (0..4).fold(0, |d, k| d | ((bytes >> (8 * u64::from(row[3 - k]))) & 0xff) << (8 * k))
}

/// `cvt.pack.sat`, bit by bit as the ISA's pseudocode writes it.
fn pack_ref(size: u32, signed: bool, a: u64, b: u64, c: u64) -> u64 {
    let (min, max) = int_range(size, signed);
    let (min, max) = (min as i64, max as i64);
    let sat = |v: u64| {
        let v = sx(v, 32);
        if v < min {
            min
        } else if v > max {
            max
        } else {
            v
        }
    };
    let (ta, tb) = (sat(a) as u64, sat(b) as u64);
    let mut d = 0u64;
    for i in 0..size {
        d |= ((tb >> i) & 1) << i;
    }
    for i in size..2 * size {
        d |= ((ta >> (i - size)) & 1) << i;
    }
    if size < 16 {
        for i in 2 * size..32 {
            d |= ((c >> (i - 2 * size)) & 1) << i;
        }
    }
    d
}

/// The selectors of the video forms: none, then `.b0`-`.b3`, `.h0`, `.h1`.
const SELS: [&str; 7] = ["", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"];

/// partSelectSignExtend: the part of `v` that selector `sel` (an index into [`SELS`])
/// names, extended to a signed 33-bit value.
fn part(v: u64, sel: usize, signed: bool) -> i128 {
    let (width, at) = match sel {
        0 => (32, 0),
        1..=4 => (8, 8 * (sel - 1)),
        _ => (16, 16 * (sel - 5)),
    };
    let x = (v >> at) & ((1u64 << width) - 1);
    if signed && (x >> (width - 1)) & 1 == 1 { i128::from(x) - (1i128 << width) } else { i128::from(x) }
}

/// A scalar video instruction, step by step as PTX ISA 9.7.18.1 writes it: `kind` 0
/// vadd, 1 vsub, 2 vabsdiff, 3 vmin, 4 vmax, 5 vshl.clamp, 6 vshr.wrap, 7 vshr.clamp;
/// `signs` of d, a and b; `sec` 0 add, 1 min, 2 max; the immediate holds asel + 7 bsel
/// (+ 49 (dsel - 1) when `merge`).
fn vid(kind: u8, signs: [bool; 3], sat: bool, sec: Option<u8>, imm: u64, merge: bool, s: &[u64]) -> u64 {
    let (asel, bsel) = ((imm % 7) as usize, (imm / 7 % 7) as usize);
    let dsel = if merge { 1 + (imm / 49 % 6) as usize } else { 0 };
    let shifting = kind >= 5;
    let (ta, tb) = (part(s[0], asel, signs[1]), part(s[1], bsel, signs[2] && !shifting));
    let mut tmp: i128 = match kind {
        0 => ta + tb,
        1 => ta - tb,
        2 => (ta - tb).abs(),
        3 => ta.min(tb),
        4 => ta.max(tb),
        5 => ta << tb.min(32),
        6 => ta >> (tb & 0x1f),
        _ => ta >> tb.min(32),
    };
    // The intermediate result is a signed 34-bit value.
    tmp = (tmp << 94) >> 94;
    if sat {
        let bits = match dsel {
            0 => 32,
            1..=4 => 8,
            _ => 16,
        };
        let (lo, hi) = int_range(bits, signs[0]);
        tmp = tmp.clamp(lo, hi);
    }
    let c = s.get(2).copied().unwrap_or(0) & 0xffff_ffff;
    let tc = if signs[0] { i128::from(c as u32 as i32) } else { i128::from(c) };
    let d = match sec {
        Some(0) => tmp + tc,
        Some(1) => tmp.min(tc),
        Some(_) => tmp.max(tc),
        None => tmp,
    } as u64
        & 0xffff_ffff;
    video_merge(dsel, d, c)
}

/// `op` (0 add, 1 min, 2 max) on each `bits`-wide element of two words, PTX ISA
/// 9.7.1.1/9.7.1.10/9.7.1.11: `.u16x2`/`.s16x2` are two halves, `.s32` one word;
/// `relu` makes a negative result 0.
fn lanes_ref(op: u8, bits: u32, signed: bool, relu: bool, s: &[u64]) -> u64 {
    let mut d = 0;
    for at in (0..32).step_by(bits as usize) {
        let part = |v: u64| {
            let x = (v >> at) & mask_bits(bits);
            if signed { i128::from(sx(x, bits)) } else { i128::from(x) }
        };
        let (x, y) = (part(s[0]), part(s[1]));
        let v = match op {
            0 => x + y,
            1 => x.min(y),
            _ => x.max(y),
        };
        let v = if relu { v.max(0) } else { v };
        d |= (v as u64 & mask_bits(bits)) << at;
    }
    d
}

/// The selector choices of the SIMD video forms: (asel and bsel each, masks) for two
/// halves (`.hxy`; `.h0 .h1 .h10`) and four bytes (`.bwxyz`; `.b0` ... `.b3210`).
const fn simd_choices(n: u32) -> (u64, u64) {
    if n == 2 { (16, 3) } else { (4096, 15) }
}

/// The immediate of a SIMD video form as its selectors `(d.mask, a.asel, b.bsel)`:
/// asel + A bsel + A² mask, A the selector choices. Selector digits name, highest
/// element first, the element of `b:a` each element takes.
fn simd_sels(n: u32, imm: u64) -> [String; 3] {
    let (a, m) = simd_choices(n);
    let (asel, bsel, mask) = (imm % a, imm / a % a, imm / (a * a) % m);
    let digits = |sel: u64| -> String {
        let (bits, prefix) = if n == 2 { (2, ".h") } else { (3, ".b") };
        let ds: String = (0..n)
            .rev()
            .map(|i| char::from(b'0' + ((sel >> (bits * i)) & ((1 << bits) - 1)) as u8))
            .collect();
        format!("{prefix}{ds}")
    };
    let set = mask + 1;
    let m: String = (0..n).rev().filter(|i| set >> i & 1 == 1).map(|i| char::from(b'0' + i as u8)).collect();
    [format!("{}{m}", if n == 2 { ".h" } else { ".b" }), digits(asel), digits(bsel)]
}

/// A SIMD video instruction (PTX ISA 9.7.18.2) on `n` elements: `kind` 0 vadd, 1 vsub,
/// 2 vavrg, 3 vabsdiff, 4 vmin, 5 vmax, 6.. vset with [`VCMPS`]`[kind - 6]`; `signs` of
/// d, a and b. Each element of a and b is picked from `b:a` and extended by its type;
/// the result is clamped to the element's range (`.sat`), then either summed into c
/// over the mask (`.add`) or written into its element where the mask has it, c's
/// element elsewhere (the ISA text: "the corresponding half-word from source operand c
/// is copied to d").
fn simd_ref(kind: u8, n: u32, signs: [bool; 3], sat: bool, add: bool, imm: u64, s: &[u64]) -> u64 {
    let bits = 32 / n;
    let (a, m) = simd_choices(n);
    let (asel, bsel, mask) = (imm % a, imm / a % a, imm / (a * a) % m + 1);
    let pair = (s[1] & 0xffff_ffff) << 32 | (s[0] & 0xffff_ffff);
    let digit_bits = if n == 2 { 2 } else { 3 };
    let element = |sel: u64, i: u32, signed: bool| {
        let k = (sel >> (digit_bits * i)) & ((1 << digit_bits) - 1);
        let x = (pair >> (k as u32 * bits)) & mask_bits(bits);
        if signed { i128::from(sx(x, bits)) } else { i128::from(x) }
    };
    let c = s[2] & 0xffff_ffff;
    let mut d = if add { c } else { 0 };
    for i in 0..n {
        let (x, y) = (element(asel, i, signs[1]), element(bsel, i, signs[2]));
        let mut t = match kind {
            0 => x + y,
            1 => x - y,
            2 if x + y >= 0 => (x + y + 1) >> 1,
            2 => (x + y) >> 1,
            3 => (x - y).abs(),
            4 => x.min(y),
            5 => x.max(y),
            k => i128::from(match VCMPS[usize::from(k - 6)] {
                "eq" => x == y,
                "ne" => x != y,
                "lt" => x < y,
                "le" => x <= y,
                "gt" => x > y,
                _ => x >= y,
            }),
        };
        if sat {
            let (lo, hi) = int_range(bits, signs[0]);
            t = t.clamp(lo, hi);
        }
        let on = mask >> i & 1 == 1;
        if add {
            if on {
                d = (d as i128 + t) as u64 & 0xffff_ffff;
            }
        } else {
            let at = i * bits;
            let v = if on { t as u64 } else { c >> at };
            d |= (v & mask_bits(bits)) << at;
        }
    }
    d
}

/// `vset`'s comparisons, in the order the immediate picks them.
const VCMPS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

/// `vset` (PTX ISA 9.7.18.1.4): compare the extended parts, 1 or 0, then the secondary
/// operation or the merge with c, all unsigned. The immediate holds asel + 7 bsel + 49
/// cmp (+ 294 (dsel - 1) when `merge`).
fn vset_ref(signs: [bool; 3], sec: Option<u8>, imm: u64, merge: bool, s: &[u64]) -> u64 {
    let (asel, bsel, cmp) = ((imm % 7) as usize, (imm / 7 % 7) as usize, imm / 49 % 6);
    let (ta, tb) = (part(s[0], asel, signs[1]), part(s[1], bsel, signs[2]));
    let t = u64::from(match cmp {
        0 => ta == tb,
        1 => ta != tb,
        2 => ta < tb,
        3 => ta <= tb,
        4 => ta > tb,
        _ => ta >= tb,
    });
    let c = s.get(2).copied().unwrap_or(0) & 0xffff_ffff;
    let d = match sec {
        Some(0) => (t + c) & 0xffff_ffff,
        Some(1) => t.min(c),
        Some(_) => t.max(c),
        None => t,
    };
    video_merge(if merge { 1 + (imm / 294 % 6) as usize } else { 0 }, d, c)
}

/// `mma.sync.aligned.m16n8k32.row.col{.satfinite}.s32.atype.btype.s32` with `.s8` or
/// `.u8` A and B (PTX ISA 9.7.14.5.14): element `j` of lane `lane`'s D fragment, from
/// the warp's A (four registers of four bytes each), B (two of four bytes) and C (four
/// s32) fragments, each element placed by the ISA's "row and column of a matrix
/// fragment" formulas. `.satfinite` clamps the exact sum to the s32 range; without it
/// the sum wraps. `signs` says whether A and B are signed.
fn mma_s8(warp: &[Vec<u64>], lane: usize, j: u64, satfinite: bool, signs: [bool; 2]) -> u64 {
    let (mut a, mut b, mut c) = ([[0i64; 32]; 16], [[0i64; 8]; 32], [[0i64; 8]; 16]);
    let byte = |v: u64, k: usize, signed: bool| {
        let x = (v >> (8 * k)) as u8;
        if signed { i64::from(x as i8) } else { i64::from(x) }
    };
    for (l, s) in warp.iter().enumerate() {
        let (g, t) = (l >> 2, l % 4);
        for i in 0..16 {
            let row = if i < 4 || (8..12).contains(&i) { g } else { g + 8 };
            let col = t * 4 + (i & 3) + if i >= 8 { 16 } else { 0 };
            a[row][col] = byte(s[i / 4], i % 4, signs[0]);
        }
        for i in 0..8 {
            let row = t * 4 + (i & 3) + if i >= 4 { 16 } else { 0 };
            b[row][g] = byte(s[4 + i / 4], i % 4, signs[1]);
        }
        for i in 0..4 {
            let row = if i < 2 { g } else { g + 8 };
            c[row][t * 2 + (i & 1)] = i64::from(s[6 + i] as u32 as i32);
        }
    }
    let (g, t, j) = (lane >> 2, lane % 4, j as usize);
    let (row, col) = (if j < 2 { g } else { g + 8 }, t * 2 + (j & 1));
    let d = (0..32).map(|k| a[row][k] * b[k][col]).sum::<i64>() + c[row][col];
    let d = if satfinite { d.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) } else { d };
    u64::from(d as u32)
}

/// `mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64` (PTX ISA 9.7.14.5.14, matrix
/// fragments for `.m8n8k4` with `.f64`): element `j` of lane `lane`'s D fragment, from
/// the warp's A (one f64: row `lane >> 2`, column `lane % 4`), B (one f64: row
/// `lane % 4`, column `lane >> 2`) and C (two f64: row `lane >> 2`, column
/// `(lane % 4) * 2 + i`). Each element is the low byte of an H register as an s8 (the
/// emitted `cvt.rn.f64.s8`), so every partial sum is an integer below 2^17 and the
/// result is exact in whatever order the machine adds.
fn mma_f64(warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let v = |l: usize, k: usize| sx(warp[l][k], 8);
    let (g, col) = (lane >> 2, (lane % 4) * 2 + j as usize);
    let a = |row: usize, k: usize| v(row * 4 + k, 0);
    let b = |k: usize, col: usize| v(col * 4 + k, 1);
    let c = v(g * 4 + col / 2, 2 + col % 2);
    let d = (0..4).map(|k| a(g, k) * b(k, col)).sum::<i64>() + c;
    (d as f64).to_bits()
}

/// `mma.sync.aligned.m16n8k16.row.col.f32.atype.btype.f32` with `.f16` or `.bf16` A
/// and B (PTX ISA 9.7.14.5.14, "Matrix Fragments for mma.m16n8k16 with floating point
/// type"): element `j` of lane `lane`'s D fragment. A (sources 0-3) holds a0-a7, two
/// per register, a_i at row `g` (`g + 8` for i in 2, 3, 6, 7) and column `2t + (i & 1)`
/// (`+ 8` from a4); B (sources 4-5) holds b0-b3 at row `2t + (i & 1)` (`+ 8` from b2)
/// and column `g`; C (sources 6-9) and D hold c0-c3 at row `g` (`g + 8` from c2) and
/// column `2t + (i & 1)`; `g` is the lane's group (lane / 4) and `t` its place in it.
/// Each A and B element is a 4-bit field of its source as a small signed integer (see
/// [`mma_elem`]) and each C element the low byte, so every sum is an integer below 2^11
/// and exact in whatever order the tensor cores add; the result is its f32 bits.
fn mma_half(warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let (mut a, mut b, mut c) = ([[0i64; 16]; 16], [[0i64; 8]; 16], [[0i64; 8]; 16]);
    for (l, s) in warp.iter().enumerate() {
        let (g, t) = (l >> 2, l % 4);
        for i in 0..8 {
            let row = if matches!(i, 2 | 3 | 6 | 7) { g + 8 } else { g };
            let col = 2 * t + (i & 1) + if i >= 4 { 8 } else { 0 };
            a[row][col] = mma_elem(s[i / 2], i % 2);
        }
        for i in 0..4 {
            let row = 2 * t + (i & 1) + if i >= 2 { 8 } else { 0 };
            b[row][g] = mma_elem(s[4 + i / 2], i % 2);
        }
        for i in 0..4 {
            let row = if i < 2 { g } else { g + 8 };
            c[row][2 * t + (i & 1)] = sx(s[6 + i], 8);
        }
    }
    let (g, t, j) = (lane >> 2, lane % 4, j as usize);
    let (row, col) = (if j < 2 { g } else { g + 8 }, 2 * t + (j & 1));
    let d = (0..16).map(|k| a[row][k] * b[k][col]).sum::<i64>() + c[row][col];
    bits32(d as f32)
}

/// An A or B element of the half-precision `mma` forms: the signed 4-bit field at bit
/// 0 (the low half of the register) or bit 16 (the high half) of the source, which the
/// generated code extracts with `bfe.s32` and packs with `cvt.rn.{f16,bf16}x2.f32`.
fn mma_elem(v: u64, half: usize) -> i64 {
    sx(v >> (16 * half), 4)
}

/// `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32` (PTX ISA 9.7.14.5.14, "Matrix
/// Fragments for mma.m16n8k8" with `.tf32`): A (sources 0-3) holds a0-a3 at row `g`
/// (`g + 8` for a1, a3) and column `t` (`t + 4` for a2, a3); B (sources 4-5) b0, b1 at
/// row `t` (`t + 4` for b1) and column `g`; C and D as for m16n8k16. Every element is
/// the low byte of its source as an s8 (an exact tf32), so the sums are exact.
fn mma_tf32(warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let (mut a, mut b, mut c) = ([[0i64; 8]; 16], [[0i64; 8]; 8], [[0i64; 8]; 16]);
    for (l, s) in warp.iter().enumerate() {
        let (g, t) = (l >> 2, l % 4);
        for i in 0..4 {
            a[if i % 2 == 1 { g + 8 } else { g }][if i >= 2 { t + 4 } else { t }] = sx(s[i], 8);
        }
        for i in 0..2 {
            b[if i == 1 { t + 4 } else { t }][g] = sx(s[4 + i], 8);
        }
        for i in 0..4 {
            c[if i < 2 { g } else { g + 8 }][2 * t + (i & 1)] = sx(s[6 + i], 8);
        }
    }
    let (g, t, j) = (lane >> 2, lane % 4, j as usize);
    let (row, col) = (if j < 2 { g } else { g + 8 }, 2 * t + (j & 1));
    let d = (0..8).map(|k| a[row][k] * b[k][col]).sum::<i64>() + c[row][col];
    bits32(d as f32)
}

/// `ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16` (PTX ISA 9.7.14.5.15):
/// row `r` of matrix `m` is the eight 16-bit elements at the address lane `8m + r`
/// gives (here its thread's 16 bytes of shared memory, two words). Destination `m` of
/// lane (`g`, `t`) holds elements (`g`, `2t`) and (`g`, `2t + 1`) of matrix `m`, the
/// first in the low half; `.trans` loads the matrix transposed, elements (`2t`, `g`)
/// and (`2t + 1`, `g`).
fn ldmatrix(warp: &[Vec<u64>], lane: usize, m: u64, trans: bool) -> u64 {
    let elem = |row: usize, col: usize| (warp[8 * m as usize + row][col / 4] >> (16 * (col % 4))) & 0xffff;
    let (g, t) = (lane >> 2, lane % 4);
    if trans { elem(2 * t, g) | elem(2 * t + 1, g) << 16 } else { elem(g, 2 * t) | elem(g, 2 * t + 1) << 16 }
}

/// `cp.async` of `size` bytes (PTX ISA 9.7.9.25.3.1) into the shared word `old` from
/// the global word `from`: the first `src_size` bytes come from global memory, the
/// rest of the `size` bytes are zeros, and the bytes past `size` keep their value.
/// `first` is where this word starts in the copy (8 for the second word of a 16-byte
/// one).
fn cp_async(old: u64, from: u64, size: u64, src_size: u64, first: u64) -> u64 {
    let bytes = |n: u64| if n >= 8 { u64::MAX } else { (1u64 << (8 * n)) - 1 };
    let (copy, zero) = (src_size.min(size).saturating_sub(first), size.saturating_sub(first));
    (old & !bytes(zero)) | (from & bytes(copy))
}

/// The distance in representable f32 values between two non-NaN floats (the zeros are
/// one value, the infinities one past the largest finite ones).
fn ulps32(a: f32, b: f32) -> u64 {
    let ord = |x: f32| {
        let v = i64::from(x.to_bits() & 0x7fff_ffff);
        if x.is_sign_negative() { -v } else { v }
    };
    ord(a).abs_diff(ord(b))
}

/// Whether `got` is a result the ISA allows for the approximate instruction `ax` on
/// the operands `ops` (the low word, and the high word for `div`'s divisor). The
/// bounds and special values are the ISA's (PTX ISA 9.7.3.13-9.7.3.22, 9.7.4.9-10):
///
/// - `sin`, `cos`: absolute error 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi],
///   no guarantee beyond; sin(±0) = ±0, cos(±0) = 1, of ±Inf NaN.
/// - `lg2`: absolute error 2^-22 for operands in (0.5, 2), relative 2^-22 elsewhere;
///   of ±0 -Inf, of a negative NaN, lg2(+Inf) = +Inf.
/// - `ex2`: 2 ulp from the correctly rounded result; ex2(-Inf) = +0, ex2(±0) = 1.
/// - `rcp`: 1 ulp; of ±0 ±Inf, of ±Inf ±0.
/// - `rsqrt`: relative error 2^-22.9; of ±0 ±Inf, of +Inf +0, of a negative NaN.
/// - `sqrt`: relative error 2^-23; of ±0 ±0, of a negative NaN.
/// - `tanh`: relative error 2^-11; of ±Inf ±1, of ±0 ±0.
/// - `div.approx`: `a * (1/b)`, 2 ulp for |b| in [2^-126, 2^126]; above, NaN when `a`
///   is infinite and a zero of the quotient's sign otherwise; for b = ±0 or ±Inf the
///   product with `rcp`'s special value; no bound for a subnormal `b`. `div.full`: 2
///   ulp everywhere.
/// - half `ex2`: relative error 2^-9.9 (`.f16`, subnormals supported) or 2^-7
///   (`.ftz.bf16`); half `tanh`: absolute error 2^-10.987 (`.f16`) or 2^-8 (`.bf16`).
/// - `rcp.approx.ftz.f64`, `rsqrt.approx.ftz.f64`: computed from the operand's high
///   word, the result's low word 0, a NaN operand gives 0x7fffffff00000000. The ISA
///   gives no error bound for these nor for `rsqrt.approx.f64`; the test asks for a
///   relative error of 2^-19, what 20 bits of mantissa allow.
///
/// `.ftz` flushes subnormal operands to zeros of their sign, and a result the exact
/// function puts below the smallest normal may be such a zero. Any NaN operand gives a
/// NaN ("an unspecified NaN" for f32).
fn approx_ok(ax: Ax, ops: u64, got: u64) -> bool {
    let flush32 = |x: f32, ftz: bool| if ftz && x.is_subnormal() { 0f32.copysign(x) } else { x };
    match ax {
        Ax::F32(fun, ftz) => {
            let (x, r) = (flush32(f32_of(ops), ftz), f32_of(got));
            if x.is_nan() {
                return r.is_nan();
            }
            let special = match fun {
                Fun::Sin if x == 0.0 => Some(x),
                Fun::Sin | Fun::Cos if x.is_infinite() => Some(f32::NAN),
                Fun::Cos if x == 0.0 => Some(1.0),
                Fun::Lg2 | Fun::Rsqrt | Fun::Sqrt if x < 0.0 => Some(f32::NAN),
                Fun::Lg2 if x == 0.0 => Some(f32::NEG_INFINITY),
                Fun::Ex2 if x == 0.0 => Some(1.0),
                Fun::Ex2 if x == f32::NEG_INFINITY => Some(0.0),
                Fun::Rcp | Fun::Rsqrt if x == 0.0 => Some(f32::INFINITY.copysign(x)),
                Fun::Rcp | Fun::Rsqrt if x.is_infinite() => Some(0f32.copysign(x)),
                Fun::Sqrt | Fun::Tanh if x == 0.0 => Some(x),
                Fun::Tanh if x.is_infinite() => Some(1f32.copysign(x)),
                Fun::Lg2 | Fun::Ex2 | Fun::Sqrt if x == f32::INFINITY => Some(x),
                _ => None,
            };
            if let Some(want) = special {
                return (want.is_nan() && r.is_nan()) || want.to_bits() == r.to_bits();
            }
            let x = f64::from(x);
            let e = match fun {
                Fun::Sin => x.sin(),
                Fun::Cos => x.cos(),
                Fun::Lg2 => x.log2(),
                Fun::Ex2 => x.exp2(),
                Fun::Rcp => 1.0 / x,
                Fun::Rsqrt => 1.0 / x.sqrt(),
                Fun::Sqrt => x.sqrt(),
                Fun::Tanh => x.tanh(),
            };
            if r.is_nan() {
                return false;
            }
            if ftz && r == 0.0 && e.abs() < f64::from(f32::MIN_POSITIVE) && r.is_sign_negative() == (e < 0.0)
            {
                return true;
            }
            let (r, tiny) = (f64::from(r), |k: f64| 2f64.powf(-k));
            match fun {
                Fun::Sin | Fun::Cos if x.abs() <= 2.0 * std::f64::consts::PI => (r - e).abs() <= tiny(20.5),
                Fun::Sin | Fun::Cos if x.abs() <= 100.0 * std::f64::consts::PI => (r - e).abs() <= tiny(14.7),
                Fun::Sin | Fun::Cos => true,
                Fun::Lg2 if x > 0.5 && x < 2.0 => (r - e).abs() <= tiny(22.0),
                Fun::Lg2 => (r - e).abs() <= tiny(22.0) * e.abs(),
                Fun::Ex2 => ulps32(r as f32, e as f32) <= 2,
                Fun::Rcp => ulps32(r as f32, e as f32) <= 1,
                Fun::Rsqrt => (r - e).abs() <= tiny(22.9) * e,
                Fun::Sqrt => (r - e).abs() <= tiny(23.0) * e,
                Fun::Tanh => (r - e).abs() <= tiny(11.0) * e.abs(),
            }
        }
        Ax::Div(full, ftz) => {
            let (a, b, r) = (flush32(f32_of(ops), ftz), flush32(f32_of(ops >> 32), ftz), f32_of(got));
            let q = f64::from(a) / f64::from(b);
            if a.is_nan() || b.is_nan() {
                return r.is_nan();
            }
            let flushed = ftz && r == 0.0 && q.abs() < f64::from(f32::MIN_POSITIVE);
            let within = |r: f32| !r.is_nan() && (ulps32(r, q as f32) <= 2 || flushed);
            let m = b.abs();
            if full {
                return if q.is_nan() { r.is_nan() } else { within(r) };
            }
            if m >= f32::MIN_POSITIVE && m <= 2f32.powi(126) {
                if q.is_nan() { r.is_nan() } else { within(r) }
            } else if m > 2f32.powi(126) && m.is_finite() {
                if a.is_infinite() {
                    r.is_nan()
                } else {
                    r == 0.0 && r.is_sign_negative() != (a.is_sign_negative() == b.is_sign_negative())
                }
            } else if m == 0.0 || m.is_infinite() {
                let p = a * if m == 0.0 { f32::INFINITY.copysign(b) } else { 0f32.copysign(b) };
                (p.is_nan() && r.is_nan()) || p.to_bits() == r.to_bits()
            } else {
                true
            }
        }
        Ax::Half(fun, bf16, pair) => (0..if pair { 2 } else { 1 }).all(|k| {
            let (x, r) = ((ops >> (16 * k)) & 0xffff, (got >> (16 * k)) & 0xffff);
            let (x, r, max, min_normal) = if bf16 {
                (bh(x), bh(r), f64::from(bf16::MAX), f64::from(f32::MIN_POSITIVE))
            } else {
                (h(x), h(r), 65504.0, 2f64.powi(-14))
            };
            // Only the bf16 ex2 flushes (it exists only with .ftz).
            let flush = bf16 && fun == Fun::Ex2;
            let x = if flush && x != 0.0 && x.abs() < min_normal { 0f64.copysign(x) } else { x };
            if x.is_nan() {
                return r.is_nan();
            }
            let e = if fun == Fun::Ex2 { x.exp2() } else { x.tanh() };
            let special = x == 0.0 || x.is_infinite();
            if special {
                // ex2: -Inf +0, ±0 1, +Inf +Inf; tanh: ±0 ±0, ±Inf ±1.
                return r.to_bits() == e.to_bits();
            }
            if r.is_nan() {
                return false;
            }
            if fun == Fun::Tanh {
                return (r - e).abs() <= 2f64.powf(if bf16 { -8.0 } else { -10.987 });
            }
            let bound = 2f64.powf(if bf16 { -7.0 } else { -9.9 });
            if r.is_infinite() {
                return e * (1.0 + bound) > max;
            }
            if flush && r == 0.0 && e < min_normal {
                return true;
            }
            // Below the smallest normal, the format's own spacing (2^-24 for f16).
            (r - e).abs() <= (bound * e).max(if bf16 { 0.0 } else { 2f64.powi(-24) })
        }),
        Ax::F64(fun, ftz) => {
            const HIGH: u64 = 0xffff_ffff_0000_0000;
            let x = f64_of(if ftz { ops & HIGH } else { ops });
            let x = if ftz && x.is_subnormal() { 0f64.copysign(x) } else { x };
            let r = f64_of(got);
            if ftz && got & !HIGH != 0 {
                return false;
            }
            if x.is_nan() {
                return if ftz { got == 0x7fff_ffff_0000_0000 } else { r.is_nan() };
            }
            let e = if fun == Fun::Rcp { 1.0 / x } else { 1.0 / x.sqrt() };
            if fun == Fun::Rsqrt && x < 0.0 {
                return r.is_nan();
            }
            if x == 0.0 || x.is_infinite() {
                return r.to_bits() == e.to_bits();
            }
            if ftz && r == 0.0 && e.abs() < f64::MIN_POSITIVE && r.is_sign_negative() == (e < 0.0) {
                return true;
            }
            !r.is_nan() && (r - e).abs() <= 2f64.powi(-19) * e.abs()
        }
    }
}

/// `fns.b32 d, mask, base, offset` (PTX ISA 9.7.1.17), as its semantics are written:
/// the `|offset|`-th set bit of `mask` from bit `base` upward (`offset > 0`) or
/// downward, `base` itself for offset 0 if set, 0xffffffff when there is none.
fn fns(mask: u64, base: u64, offset: u64) -> u64 {
    let offset = offset as u32 as i32;
    let set = |pos: i64| mask >> pos & 1 == 1;
    if offset == 0 {
        return if set(base as i64) { base } else { 0xffff_ffff };
    }
    let (mut pos, mut count, inc) = (base as i64, offset.unsigned_abs() - 1, if offset > 0 { 1 } else { -1 });
    while (0..32).contains(&pos) {
        if set(pos) {
            if count == 0 {
                return pos as u64;
            }
            count -= 1;
        }
        pos += inc;
    }
    0xffff_ffff
}

/// The value `brx.idx` form's target `j` writes: each of the four targets writes its
/// own constant, from the immediate.
fn brx_value(imm: u64, j: u64) -> u64 {
    (imm ^ (0x1357_9bdf * (j + 1))) & 0xffff_ffff
}

/// The module's functions, which the call forms use: `fadd` takes and returns `.reg`
/// parameters; `fmix` and `fsub` take and return `.param` ones (`fsub` calls `fadd`)
/// and share the prototype of the indirect call.
const FUNCS: &str = "\
.func (.reg .b32 r) fadd(.reg .b32 a, .reg .b32 b)\n{\n\tadd.s32 r, a, b;\n\tret;\n}\n\n\
.func (.param .b32 r) fmix(.param .b32 a, .param .b32 b)\n{\n\t.reg .b32 %x<3>;\n\tld.param.b32 %x0, [a];\n\tld.param.b32 %x1, [b];\n\
\txor.b32 %x2, %x0, %x1;\n\tshl.b32 %x2, %x2, 3;\n\tst.param.b32 [r], %x2;\n\tret;\n}\n\n\
.func (.param .b32 r) fsub(.param .b32 a, .param .b32 b)\n{\n\t.reg .b32 %x<3>;\n\tld.param.b32 %x0, [a];\n\tld.param.b32 %x1, [b];\n\
\tneg.s32 %x1, %x1;\n\tcall (%x2), fadd, (%x0, %x1);\n\tst.param.b32 [r], %x2;\n\tret;\n}\n\n";

/// `fmix` and `fsub` of [`FUNCS`].
fn fmix(a: u64, b: u64) -> u64 {
    ((a ^ b) << 3) & 0xffff_ffff
}
fn fsub(a: u64, b: u64) -> u64 {
    a.wrapping_sub(b) & 0xffff_ffff
}

/// Which of `vmad`'s sources a `{neg}` form negates, by `imm / 49 % 6`: none, a, b,
/// a and b, c, or all three (a and b together leave the product as it is, so the
/// product and c are never both negated, which ptxas refuses).
const VMAD_NEGS: [[bool; 3]; 6] = [
    [false; 3],
    [true, false, false],
    [false, true, false],
    [true, true, false],
    [false, false, true],
    [true; 3],
];

/// `vmad` (PTX ISA 9.7.18.1.3) as its semantics block writes it, in 128-bit two's
/// complement: `tmp = ta * tb`; `.po` sets `lsb`, else a negated product becomes
/// `~tmp` with `lsb`, else a negated `c` becomes `~c` with `lsb`; `c` is sign-extended
/// from 32 bits when the final result is signed, zero-extended otherwise; the sum
/// `tmp + c + lsb` is shifted right by the scale and cut to 64 bits, clamped under
/// `.sat` to the s32 or u32 range, and `d` is its low 32 bits. `imm` holds the
/// selectors (`asel + 7 bsel`) and the negations (see [`VMAD_NEGS`]).
fn vmad_ref(signs: [bool; 2], po: bool, sat: bool, scale: u32, imm: u64, s: &[u64]) -> u64 {
    let neg = if po { [false; 3] } else { VMAD_NEGS[(imm / 49 % 6) as usize] };
    let (ta, tb) = (part(s[0], (imm % 7) as usize, signs[0]), part(s[1], (imm / 7 % 7) as usize, signs[1]));
    let signed_final = signs[0] || signs[1] || (neg[0] ^ neg[1]) || neg[2];
    let mut tmp = (ta * tb) as u128;
    let mut c = s[2] & 0xffff_ffff;
    let mut lsb = 0u128;
    if po {
        lsb = 1;
    } else if neg[0] ^ neg[1] {
        tmp = !tmp;
        lsb = 1;
    } else if neg[2] {
        c = !c & 0xffff_ffff;
        lsb = 1;
    }
    let c128 = if signed_final { c as u32 as i32 as i128 as u128 } else { u128::from(c) };
    let tmp = tmp.wrapping_add(c128).wrapping_add(lsb);
    // The scaled result is 64 bits; the unscaled one keeps the sum's 128.
    let result: i128 = match scale {
        0 => tmp as i128,
        k => ((tmp as i128 >> k) as u64) as i64 as i128,
    };
    let result = if !sat {
        result
    } else if signed_final {
        result.clamp(i128::from(i32::MIN), i128::from(i32::MAX))
    } else {
        (result as u128 as i128).clamp(0, i128::from(u32::MAX))
    };
    result as u64 & 0xffff_ffff
}

/// The `wmma` forms (PTX ISA 9.7.14.4), on the warp's 1,024 bytes of shared memory
/// (its threads' 32 bytes each, in order). CUDA leaves the map of matrix elements into
/// fragments to the implementation, so only what does not depend on it is drawn: a
/// load and a store in different layouts (kind 0: a 16x16 f32 matrix loaded by rows
/// and stored by columns, so transposed; kind 1: the first 512 bytes as a 16x16 f16
/// matrix, loaded by columns and stored by rows), and (kind 2) `D = A * B + C` with A
/// the first 512 bytes as f16 by rows, B the next 512 as f16 by columns, C the whole
/// region as f32 by rows, each fragment register first masked to a small value by the
/// same operation on every element (see [`wmma_a`], [`wmma_c`]) so that the sums are
/// exact; D is stored by rows over the region. The result is word `j` of the
/// thread's four.
fn wmma_ref(kind: u64, warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let bytes: Vec<u8> = warp.iter().flat_map(|w| w.iter().flat_map(|v| v.to_le_bytes())).collect();
    let half = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let mut out = bytes.clone();
    for i in 0..16 {
        for k in 0..16 {
            match kind {
                0 => out[4 * (k * 16 + i)..][..4].copy_from_slice(&word(4 * (i * 16 + k)).to_le_bytes()),
                1 => out[2 * (i * 16 + k)..][..2].copy_from_slice(&half(2 * (k * 16 + i)).to_le_bytes()),
                _ => {
                    let a = |i: usize, k: usize| wmma_a(half(2 * (i * 16 + k)));
                    let b = |k: usize, j: usize| wmma_a(half(512 + 2 * (j * 16 + k)));
                    let d = (0..16).map(|m| a(i, m) * b(m, k)).sum::<f64>() + wmma_c(word(4 * (i * 16 + k)));
                    out[4 * (i * 16 + k)..][..4].copy_from_slice(&(d as f32).to_bits().to_le_bytes());
                }
            }
        }
    }
    let at = 32 * lane + 8 * j as usize;
    u64::from_le_bytes(out[at..at + 8].try_into().unwrap())
}

/// An A or B element after the mask `and.b32 0x83008300; or.b32 0x3c003c00` on its
/// f16x2 register: the sign, exponent 0 and two mantissa bits, ±(1 + m/4).
fn wmma_a(h: u16) -> f64 {
    let v = 1.0 + f64::from((h >> 8) & 3) / 4.0;
    if h & 0x8000 != 0 { -v } else { v }
}

/// A C element after `and.b32 0x80700000; or.b32 0x41000000` on its f32 register:
/// ±(8 + m), m in 0..8.
fn wmma_c(v: u32) -> f64 {
    let x = 8.0 + f64::from((v >> 20) & 7);
    if v & 0x8000_0000 != 0 { -x } else { x }
}

/// The code of a `wmma` form of [`wmma_ref`]'s `kind`: the warp's base address into
/// %a3, then the loads, masks, product and store on %wf0 ... %wf23.
fn wmma_text(kind: u64) -> String {
    let regs = |from: usize, n: usize| {
        let r: Vec<String> = (from..from + n).map(|k| format!("%wf{k}")).collect();
        format!("{{{}}}", r.join(", "))
    };
    let mut s = String::from(
        "\tshr.u32 %t1, %t0, 5;\n\tmul.wide.u32 %a2, %t1, 1024;\n\tmov.u64 %a3, sh;\n\tadd.s64 %a3, %a3, %a2;\n",
    );
    let w = "sync.aligned";
    match kind {
        0 => {
            s += &format!("\twmma.load.c.{w}.row.m16n16k16.shared.f32 {}, [%a3];\n", regs(0, 8));
            s += &format!("\twmma.store.d.{w}.col.m16n16k16.shared.f32 [%a3], {};\n", regs(0, 8));
        }
        1 => {
            s += &format!("\twmma.load.c.{w}.col.m16n16k16.shared.f16 {}, [%a3];\n", regs(0, 4));
            s += &format!("\twmma.store.d.{w}.row.m16n16k16.shared.f16 [%a3], {};\n", regs(0, 4));
        }
        _ => {
            s += &format!("\twmma.load.a.{w}.row.m16n16k16.shared.f16 {}, [%a3];\n", regs(0, 8));
            s += &format!("\twmma.load.b.{w}.col.m16n16k16.shared.f16 {}, [%a3+512];\n", regs(8, 8));
            s += &format!("\twmma.load.c.{w}.row.m16n16k16.shared.f32 {}, [%a3];\n", regs(16, 8));
            for k in 0..24 {
                let (and, or) =
                    if k < 16 { ("0x83008300", "0x3c003c00") } else { ("0x80700000", "0x41000000") };
                s += &format!("\tand.b32 %wf{k}, %wf{k}, {and};\n\tor.b32 %wf{k}, %wf{k}, {or};\n");
            }
            s += &format!(
                "\twmma.mma.{w}.row.col.m16n16k16.f32.f32 {}, {}, {}, {};\n",
                regs(16, 8),
                regs(0, 8),
                regs(8, 8),
                regs(16, 8)
            );
            s += &format!("\twmma.store.d.{w}.row.m16n16k16.shared.f32 [%a3], {};\n", regs(16, 8));
        }
    }
    s
}

/// The mbarrier form (PTX ISA 9.7.13.15): `mbarrier.init` of the thread's own word with
/// an expected count `c` of 1 to 3, `n` arrivals in one `mbarrier.arrive` with a count
/// (none when `n` is 0; at most `c`: more than the pending count is undefined), then
/// whether the phase of parity 0 has completed: `mbarrier.test_wait.parity`, or the
/// blocking `try_wait.parity` when it has; then `mbarrier.inval`. The immediate holds
/// `c - 1`, then `n`, then whether to use `try_wait`. The word's contents are the
/// implementation's.
fn mbar_parts(imm: u64) -> (u64, u64, bool) {
    let c = imm % 3 + 1;
    let n = (imm / 3) % 4 % (c + 1);
    (c, n, imm / 12 % 2 == 1 && n == c)
}

/// `cvt.{rna,rn,rz}{.satfinite}.tf32.f32` (PTX ISA 9.7.9.21; tf32 has f32's exponent
/// and 10 fraction bits, kept in 32 bits with the low 13 zero): the value rounded to
/// the tf32 quantum, 2^(e - 10) for a value in [2^e, 2^(e+1)) and 2^-136 below the
/// smallest normal; ties away from zero (`mode` 0, `.rna`), to even (1, `.rn`) or
/// toward zero (2, `.rz`); a result past the largest finite value is infinite, or with
/// `.satfinite` that largest value (0x7f7fe000), as an infinite operand is then.
fn tf32_ref(bits: u64, mode: u8, satfinite: bool) -> u64 {
    let x = f32_of(bits);
    let sign = bits & 0x8000_0000;
    if x.is_nan() {
        return bits;
    }
    let (max, inf) = (sign | 0x7f7f_e000, sign | 0x7f80_0000);
    if x.is_infinite() {
        return if satfinite { max } else { bits };
    }
    let a = f64::from(x.abs());
    if a == 0.0 {
        return bits;
    }
    let q = pow2((a.log2().floor() as i32 - 10).max(-136));
    let r = a / q;
    let (f, frac) = (r.floor(), r - r.floor());
    let n = match mode {
        0 => {
            if frac >= 0.5 {
                f + 1.0
            } else {
                f
            }
        }
        1 => {
            if frac > 0.5 || (frac == 0.5 && f % 2.0 == 1.0) {
                f + 1.0
            } else {
                f
            }
        }
        _ => f,
    };
    let v = n * q;
    if v >= pow2(128) {
        return if satfinite { max } else { inf };
    }
    sign | u64::from((v as f32).to_bits())
}

/// `setp` and `set` with a boolean operation (PTX ISA 9.7.6.1, 9.7.6.2): `op` 0 and, 1
/// or, 2 xor of the comparison `t` (or, for the second destination `j` 1, of `!t`) with
/// the predicate `c`.
fn combine(op: u8, t: bool, c: u64, j: u64) -> u64 {
    let (t, c) = (t != (j == 1), c & 1 == 1);
    u64::from(match op {
        0 => t && c,
        1 => t || c,
        _ => t != c,
    })
}

/// `slct`'s choice of `a` by an `.f32` selector (PTX ISA 9.7.6.4, slct): `c >= 0`,
/// where -0 equals 0, a NaN selects `b` ("the comparison is ordered"), and `.ftz`
/// flushes a subnormal `c` to a zero of its sign, which selects `a`.
fn slct_f32(c: u64, flush: bool) -> bool {
    let c = if flush { ftz(f32_of(c)) } else { f32_of(c) };
    c >= 0.0
}

/// `min`/`max` `.xorsign.abs` of f32s (PTX ISA 9.7.3.10, 9.7.3.11): of the absolute
/// values as plain `min`/`max` choose, with the sign bit set to the XOR of the
/// operands' sign bits unless the result is NaN.
fn xorsign(max: bool, a: u64, b: u64) -> u64 {
    let sign = (a ^ b) & 0x8000_0000;
    let (x, y) = (f64::from(f32_of(a & 0x7fff_ffff)), f64::from(f32_of(b & 0x7fff_ffff)));
    let d = if max { fmax(x, y) } else { fmin(x, y) } as f32;
    if d.is_nan() { bits32(d) } else { bits32(d) | sign }
}

/// `div`, `rcp` (a = 1) and `sqrt` of f32s rounded toward zero (`mode` 0), minus
/// infinity (1) or plus infinity (2), without `.ftz`, from the f64 result: a quotient
/// or root of f32s that is not itself an f32 differs from every f32 `r` by at least
/// 2^-48 of it (`a - r*b` and `a - r*r` are nonzero multiples of the smaller quantum),
/// more than the f64 rounding error, so the f64 result lies on the same side of each
/// f32 as the exact one, and equals it when it is one.
fn div32(a: f32, b: f32, mode: u64) -> u64 {
    bits32(directed32(f64::from(a) / f64::from(b), 0.0, mode))
}
fn sqrt32(a: f32, mode: u64) -> u64 {
    bits32(directed32(f64::from(a).sqrt(), 0.0, mode))
}

/// The `b` and `c` operands of a `shfl` form with immediates: `b` below 32, and `c`
/// with a clamp value in bits 0-4 and a segment mask in bits 8-12.
fn shfl_bc(imm: u64) -> (u64, u64) {
    (imm % 32, ((imm / 32) % 32) | ((imm / 1024 % 32) << 8))
}

/// `shfl.sync` with a full member mask (PTX ISA 9.7.9.6, shfl.sync), step by step as
/// its semantics write it: `mode` 0 `.up`, 1 `.down`, 2 `.bfly`, 3 `.idx`; lane
/// `lane`'s `d` (`j` 0) or `p` (`j` 1), from the warp's sources `a` and the lane's own
/// `b` and `c`.
fn shfl(mode: u8, warp: &[Vec<u64>], lane: usize, j: u64, b: u64, c: u64) -> u64 {
    let lane = lane as i64;
    let (bval, cval, mask) = ((b & 31) as i64, (c & 31) as i64, (c >> 8 & 31) as i64);
    let max_lane = (lane & mask) | (cval & !mask);
    let min_lane = lane & mask;
    let (src, pval) = match mode {
        0 => (lane - bval, lane - bval >= max_lane),
        1 => (lane + bval, lane + bval <= max_lane),
        2 => (lane ^ bval, (lane ^ bval) <= max_lane),
        _ => (min_lane | (bval & !mask), (min_lane | (bval & !mask)) <= max_lane),
    };
    let src = if pval { src } else { lane };
    if j == 1 { u64::from(pval) } else { warp[src as usize][0] & 0xffff_ffff }
}

/// `match.sync` with a full member mask (PTX ISA, match.sync) on the warp's
/// first sources: `.any` gives the lanes whose value equals the lane's own; `.all`
/// gives the member mask (and true) when all values are equal, else 0 (and false).
fn match_sync(all: bool, warp: &[Vec<u64>], lane: usize, j: u64) -> u64 {
    let same = |v: u64| (0..warp.len()).filter(|&l| warp[l][0] == v).fold(0, |m, l| m | 1 << l);
    if !all {
        return same(warp[lane][0]);
    }
    let uniform = warp.iter().all(|s| s[0] == warp[0][0]);
    if j == 1 {
        u64::from(uniform)
    } else if uniform {
        0xffff_ffff
    } else {
        0
    }
}

/// `redux.sync` with a full member mask (PTX ISA, redux.sync): `op` 0 add
/// (modulo 2^32), 1 min, 2 max (of the type's signedness), 3 and, 4 or, 5 xor over
/// the warp's first sources.
fn redux(op: u8, signed: bool, warp: &[Vec<u64>]) -> u64 {
    let v = |s: &Vec<u64>| if signed { i64::from(s[0] as u32 as i32) } else { i64::from(s[0] as u32) };
    let r = match op {
        0 => warp.iter().fold(0i64, |a, s| a.wrapping_add(v(s))),
        1 => warp.iter().map(v).min().unwrap_or(0),
        2 => warp.iter().map(v).max().unwrap_or(0),
        3 => warp.iter().fold(-1i64, |a, s| a & v(s)),
        4 => warp.iter().fold(0i64, |a, s| a | v(s)),
        _ => warp.iter().fold(0i64, |a, s| a ^ v(s)),
    };
    r as u64 & 0xffff_ffff
}

/// `vote.sync` with a full member mask (PTX ISA, vote.sync) on the warp's
/// first sources (predicates): `mode` 0 `.all`, 1 `.any`, 2 `.uni`, 3 `.ballot.b32`
/// (bit l is lane l's predicate).
fn vote(mode: u8, warp: &[Vec<u64>]) -> u64 {
    let p = |s: &Vec<u64>| s[0] & 1 == 1;
    match mode {
        0 => u64::from(warp.iter().all(p)),
        1 => u64::from(warp.iter().any(p)),
        2 => u64::from(warp.iter().all(p) || !warp.iter().any(p)),
        _ => warp.iter().enumerate().filter(|(_, s)| p(s)).fold(0, |m, (l, _)| m | 1 << l),
    }
}

/// `.sat` of an f32 result.
fn sat(x: f32) -> u64 {
    if x.is_nan() { 0 } else { bits32(x.clamp(0.0, 1.0) + 0.0) }
}

/// `.sat` of an f64 result.
fn sat64(x: f64) -> u64 {
    if x.is_nan() { 0 } else { (x.clamp(0.0, 1.0) + 0.0).to_bits() }
}

/// The exact value `s + e` (an f64 and its rounding error) rounded to f32 toward zero
/// (`mode` 0), minus infinity (1) or plus infinity (2): the host's round to nearest,
/// moved one step where it went the wrong way.
fn directed32(s: f64, e: f64, mode: u64) -> f32 {
    let r = s as f32;
    if s.is_nan() || s.is_infinite() {
        return r;
    }
    if r.is_infinite() {
        // Past the largest finite f32: only the rounding toward the value's infinity
        // reaches it.
        let max = f32::MAX.copysign(r);
        return match mode {
            1 if r > 0.0 => max,
            2 if r < 0.0 => max,
            0 => max,
            _ => r,
        };
    }
    let d = s - f64::from(r);
    let above = if d != 0.0 { d > 0.0 } else { e > 0.0 };
    let below = if d != 0.0 { d < 0.0 } else { e < 0.0 };
    match mode {
        0 if r > 0.0 && below => r.next_down(),
        0 if r < 0.0 && above => r.next_up(),
        1 if below => r.next_down(),
        2 if above => r.next_up(),
        _ => r,
    }
}
/// `x + y` of f64 operands and its exact error (Knuth's two-sum).
fn two_sum(x: f64, y: f64) -> (f64, f64) {
    let s = x + y;
    let bb = s - x;
    (s, (x - (s - bb)) + (y - bb))
}
/// A sum of f32s in a directed mode, with IEEE 754's zero signs: an exact zero sum of
/// operands that are not both -0 (or both +0) is +0, and -0 toward minus infinity.
fn add_dir(a: f32, b: f32, mode: u64) -> u64 {
    let (s, e) = two_sum(f64::from(a), f64::from(b));
    if s == 0.0 && e == 0.0 && !(a == 0.0 && b == 0.0 && a.is_sign_negative() == b.is_sign_negative()) {
        return bits32(if mode == 1 { -0.0 } else { 0.0 });
    }
    bits32(directed32(s, e, mode))
}
fn fma_dir(a: f32, b: f32, c: f32, mode: u64) -> u64 {
    let p = f64::from(a) * f64::from(b);
    if !p.is_finite() || !c.is_finite() {
        return bits32(a.mul_add(b, c));
    }
    let (s, e) = two_sum(p, f64::from(c));
    if s == 0.0 && e == 0.0 && !(p == 0.0 && c == 0.0 && p.is_sign_negative() == c.is_sign_negative()) {
        return bits32(if mode == 1 { -0.0 } else { 0.0 });
    }
    bits32(directed32(s, e, mode))
}

/// `m * 2^e` rounded to an f64 toward zero (`mode` 0), minus infinity (1), plus
/// infinity (2) or to nearest even (3), negated when `neg`; `m` is not 0. The value is
/// exact: a caller that cut bits off below 2^e leaves the lowest bit of `m` set, which
/// decides the rounding like the bits it stands for as long as `m` keeps at least 55
/// bits (IEEE 754 section 4.3; PTX ISA 9.7.4, rounding modifiers).
fn round64(neg: bool, m: u128, e: i32, mode: u64) -> f64 {
    round_to_format(F64, neg, m, e, mode)
}

/// A binary float format: significant bits, the exponent of the smallest subnormal,
/// and the power of two that its finite values stay below.
#[derive(Clone, Copy)]
struct Format {
    p: i32,
    qmin: i32,
    top: i32,
}
const F64: Format = Format { p: 53, qmin: -1074, top: 1024 };
const F16: Format = Format { p: 11, qmin: -24, top: 16 };
const BF16: Format = Format { p: 8, qmin: -133, top: 128 };
/// e4m3's largest exponent also holds finite values, up to 448 (PTX ISA 5.2.5.1), so
/// its `max` is not its largest value: [`cvt_fp8x2`] saturates to 448 first.
const E4M3: Format = Format { p: 4, qmin: -9, top: 9 };
const E5M2: Format = Format { p: 3, qmin: -16, top: 16 };

impl Format {
    /// The largest finite value (IEEE formats).
    fn max(self) -> f64 {
        ((1u64 << self.p) - 1) as f64 * 2f64.powi(self.top - self.p)
    }
}

/// [`round64`] into any binary format: the result as an f64, which holds it exactly.
fn round_to_format(fmt: Format, neg: bool, m: u128, e: i32, mode: u64) -> f64 {
    let len = 128 - m.leading_zeros() as i32;
    // The quantum of the result: p significant bits, or the smallest subnormal.
    let q = (e + len - fmt.p).max(fmt.qmin);
    let (mut r, up) = if q <= e {
        (m << (e - q), false)
    } else {
        let shift = (q - e) as u32;
        let (r, rem) = if shift >= 128 { (0, m) } else { (m >> shift, m & ((1 << shift) - 1)) };
        // Past half the quantum: never when the quantum is above all of m's bits.
        let past_half = |odd: bool| {
            shift <= 128 && {
                let half = 1u128 << (shift - 1);
                rem > half || (rem == half && odd)
            }
        };
        let up = match mode {
            0 => false,
            1 => neg && rem != 0,
            2 => !neg && rem != 0,
            _ => past_half(r & 1 == 1),
        };
        (r, up)
    };
    r += u128::from(up);
    let sign = if neg { -1.0 } else { 1.0 };
    if r == 0 {
        return 0.0 * sign;
    }
    if 128 - r.leading_zeros() as i32 + q > fmt.top {
        // Past the largest finite value: only the rounding away from zero reaches the
        // infinity.
        let away = match mode {
            0 => false,
            1 => neg,
            2 => !neg,
            _ => true,
        };
        return sign * if away { f64::INFINITY } else { fmt.max() };
    }
    sign * (r as f64) * pow2(q)
}

/// An f32 or f64 value (exact as an f64) converted to `fmt` in `mode` (as [`round64`]),
/// as an f64; `.satfinite` makes a value past the largest finite one that one, an
/// infinity too, and `.relu` makes a negative one +0 (PTX ISA 9.7.9.21, cvt).
fn cvt_float(fmt: Format, x: f64, mode: u64, satfinite: bool, relu: bool) -> f64 {
    if x.is_nan() {
        return x;
    }
    let max = fmt.max();
    let x = if satfinite && x.abs() > max { max.copysign(x) } else { x };
    let x = if relu && x.is_sign_negative() { 0.0 } else { x };
    if x == 0.0 || x.is_infinite() {
        return x;
    }
    let (neg, m, e) = parts64(x);
    round_to_format(fmt, neg, m, e, mode)
}

/// `cvt` of an f32 or f64 to f16 bits, and of an f32 to bf16 bits.
fn cvt_f16(x: f64, mode: u64, satfinite: bool, relu: bool) -> u64 {
    u64::from(f16::from_f64(cvt_float(F16, x, mode, satfinite, relu)).to_bits())
}
fn cvt_bf16(x: f64, mode: u64, satfinite: bool, relu: bool) -> u64 {
    u64::from(bf16::from_f64(cvt_float(BF16, x, mode, satfinite, relu)).to_bits())
}

/// The two 8-bit float formats (PTX ISA 5.2.5.1): e4m3 (bias 7, no infinity, NaN
/// S.1111.111) and e5m2 (bias 15, IEEE-like).
fn fp8_of(x: f64, e5m2: bool) -> u64 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = u64::from(x.is_sign_negative()) << 7;
    if x.is_nan() {
        return sign | if e5m2 { 0x7e } else { 0x7f };
    }
    if x.is_infinite() {
        return sign | 0x7c;
    }
    let a = x.abs();
    if a == 0.0 {
        return sign;
    }
    let e = (a.log2().floor() as i32).max(1 - bias);
    // log2 of an exact power of two in these ranges is exact.
    let (field, frac) = if a < 2f64.powi(1 - bias) {
        (0, a / 2f64.powi(1 - bias - mbits))
    } else {
        ((e + bias) as u64, (a / 2f64.powi(e) - 1.0) * f64::from(1u32 << mbits))
    };
    sign | field << mbits | frac as u64
}
fn fp8_value(b: u64, e5m2: bool) -> f64 {
    let (mbits, bias) = if e5m2 { (2, 15) } else { (3, 7) };
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    let (field, frac) = ((b >> mbits) & ((1 << (7 - mbits)) - 1), b & ((1 << mbits) - 1));
    let nan = if e5m2 { field == 31 && frac != 0 } else { b & 0x7f == 0x7f };
    if nan {
        return f64::NAN;
    }
    if e5m2 && field == 31 {
        return sign * f64::INFINITY;
    }
    let m = frac as f64 / f64::from(1u32 << mbits);
    sign * if field == 0 { m * 2f64.powi(1 - bias) } else { (1.0 + m) * 2f64.powi(field as i32 - bias) }
}
/// `cvt.rn.satfinite{.relu}.e4m3x2/.e5m2x2.f32 d, a, b`: a into the high byte.
fn cvt_fp8x2(a: u64, b: u64, e5m2: bool, relu: bool) -> u64 {
    let fmt = if e5m2 { E5M2 } else { E4M3 };
    let one = |v: u64| {
        let x = f64::from(f32_of(v));
        // e4m3's largest finite value is 448, below its format's `top` by one quantum.
        let x = if !e5m2 && x.abs() > 448.0 { 448f64.copysign(x) } else { x };
        fp8_of(cvt_float(fmt, x, 3, true, relu), e5m2)
    };
    one(a) << 8 | one(b)
}
/// `cvt.rn.satfinite.e4m3x2/.e5m2x2.f16x2 d, a`: the high half into the high byte.
fn cvt_fp8x2_f16x2(a: u64, e5m2: bool) -> u64 {
    cvt_fp8x2(bits32(h(a >> 16) as f32), bits32(h(a) as f32), e5m2, false)
}
/// `cvt.rn{.relu}.f16x2.e4m3x2/.e5m2x2 d, a`: the high byte into the high half; the
/// conversion is exact.
fn cvt_f16x2_fp8(a: u64, e5m2: bool, relu: bool) -> u64 {
    let one = |b: u64| {
        let x = fp8_value(b, e5m2);
        hbits(if relu && !x.is_nan() && x.is_sign_negative() { 0.0 } else { x })
    };
    one((a >> 8) & 0xff) << 16 | one(a & 0xff)
}

/// 2^k as an f64, for k from -1074 to 1023.
fn pow2(k: i32) -> f64 {
    if k >= -1022 { f64::from_bits(((k + 1023) as u64) << 52) } else { f64::from_bits(1 << (k + 1074)) }
}

/// A finite, nonzero f64 as its sign, integer significand and exponent: `m * 2^e`.
fn parts64(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let (exp, frac) = ((b >> 52) & 0x7ff, b & ((1 << 52) - 1));
    let (m, e) = if exp == 0 { (frac, -1074) } else { (frac | 1 << 52, exp as i32 - 1075) };
    (b >> 63 == 1, u128::from(m), e)
}

/// A number that holds every exact sum and product of f64s: bit k of the limbs weighs
/// 2^(k - BIG_ORIGIN), from the square of the smallest subnormal, 2^-2148, to past the
/// square of the largest f64.
type Big = [u64; 68];
const BIG_ORIGIN: i32 = 2176;

fn big(m: u128, e: i32) -> Big {
    let mut b = [0; 68];
    for k in 0..128 {
        if (m >> k) & 1 == 1 {
            let at = (e + BIG_ORIGIN) as usize + k;
            b[at / 64] |= 1 << (at % 64);
        }
    }
    b
}

/// The signed sum of two signed magnitudes.
fn big_sum((na, a): (bool, Big), (nb, b): (bool, Big)) -> (bool, Big) {
    let mut out = [0u64; 68];
    if na == nb {
        let mut carry = 0u128;
        for k in 0..68 {
            let t = u128::from(a[k]) + u128::from(b[k]) + carry;
            out[k] = t as u64;
            carry = t >> 64;
        }
        return (na, out);
    }
    // Opposite signs: the larger magnitude less the smaller, with the larger's sign.
    let (neg, hi, lo) =
        if a.iter().rev().cmp(b.iter().rev()) == std::cmp::Ordering::Less { (nb, b, a) } else { (na, a, b) };
    let mut borrow = 0i128;
    for k in 0..68 {
        let t = i128::from(hi[k]) - i128::from(lo[k]) - borrow;
        out[k] = t as u64;
        borrow = i128::from(t < 0);
    }
    (neg, out)
}

/// A nonzero Big rounded to an f64: its top 120 bits, the lowest one also set when any
/// bit below them is.
fn big_round((neg, b): (bool, Big), mode: u64) -> f64 {
    let bit = |k: usize| (b[k / 64] >> (k % 64)) & 1;
    let top = (0..68 * 64).rev().find(|&k| bit(k) == 1).expect("a nonzero sum");
    let low = top.saturating_sub(119);
    let mut m = (low..=top).rev().fold(0u128, |m, k| m << 1 | u128::from(bit(k)));
    if (0..low).any(|k| bit(k) == 1) {
        m |= 1;
    }
    round64(neg, m, low as i32 - BIG_ORIGIN, mode)
}

/// `a * b + c` (`b` = 1 for a sum) of f64s rounded once in `mode` (as [`round64`]),
/// with IEEE 754's zero signs: an exact zero sum is -0 toward minus infinity and +0
/// otherwise, unless both terms are zeros of the same sign.
fn fma64(a: f64, b: f64, c: f64, mode: u64) -> f64 {
    if !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return a.mul_add(b, c);
    }
    let (p_neg, c_neg) = (a.is_sign_negative() != b.is_sign_negative(), c.is_sign_negative());
    let p = if a == 0.0 || b == 0.0 {
        [0; 68]
    } else {
        let ((_, ma, ea), (_, mb, eb)) = (parts64(a), parts64(b));
        big(ma * mb, ea + eb)
    };
    let cm = if c == 0.0 { [0; 68] } else { big(parts64(c).1, parts64(c).2) };
    let s = big_sum((p_neg, p), (c_neg, cm));
    if s.1.iter().all(|&w| w == 0) {
        // Terms of one sign sum to zero only when both are zeros.
        let neg = if p_neg == c_neg { p_neg } else { mode == 1 };
        return if neg { -0.0 } else { 0.0 };
    }
    big_round(s, mode)
}

fn mul64(a: f64, b: f64, mode: u64) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a * b;
    }
    let ((na, ma, ea), (nb, mb, eb)) = (parts64(a), parts64(b));
    round64(na != nb, ma * mb, ea + eb, mode)
}

fn div64(a: f64, b: f64, mode: u64) -> f64 {
    if !a.is_finite() || !b.is_finite() || a == 0.0 || b == 0.0 {
        return a / b;
    }
    let ((na, ma, ea), (nb, mb, eb)) = (parts64(a), parts64(b));
    // Significands with their top bit at 52, then a quotient of at least 64 bits and a
    // remainder that says whether it is exact.
    let (sa, sb) = (ma.leading_zeros() - 75, mb.leading_zeros() - 75);
    let (ma, mb) = (ma << sa, mb << sb);
    let (q, rem) = ((ma << 64) / mb, (ma << 64) % mb);
    let e = ea - sa as i32 - (eb - sb as i32) - 64;
    round64(na != nb, q << 1 | u128::from(rem != 0), e - 1, mode)
}

fn sqrt64(a: f64, mode: u64) -> f64 {
    if !a.is_finite() || a <= 0.0 {
        return a.sqrt();
    }
    let (_, m, e) = parts64(a);
    // m * 2^k of 119 or 120 bits with e - k even, whose integer root has 60 bits.
    let mut k = 120 - (128 - m.leading_zeros() as i32);
    if (e - k) % 2 != 0 {
        k -= 1;
    }
    let n = m << k;
    let mut r = (n as f64).sqrt() as u128;
    while r * r > n {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= n {
        r += 1;
    }
    round64(false, r << 1 | u128::from(r * r != n), (e - k) / 2 - 1, mode)
}

/// PTX `min`/`max` of floats: a NaN operand is ignored; -0 is below +0.
fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b || (a == b && a.is_sign_negative()) {
        a
    } else {
        b
    }
}
fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b || (a == b && b.is_sign_negative()) {
        a
    } else {
        b
    }
}
/// `bfe` (PTX ISA 9.7.8.x "bfe"): `len` bits from `pos`, sign-extended from the last
/// one taken for signed types. The ISA takes pos and len as the low 8 bits of their
/// operands; for 64-bit types the H100 takes the whole 32-bit operand, clamped to 255
/// (tests/hw/README.md, `leaf_arith`), which ptxvm follows.
fn bfe(a: u64, pos: u64, len: u64, bits: u32, signed: bool) -> u64 {
    let byte = |v: u64| if bits == 64 { (v as u32).min(255) } else { (v & 0xff) as u32 };
    let (pos, len) = (byte(pos), byte(len));
    let top = (pos + len).saturating_sub(1).min(bits - 1);
    let sbit = signed && len > 0 && (a >> top) & 1 == 1;
    let mut d = 0u64;
    for i in 0..bits {
        let bit = if i < len && pos + i < bits { (a >> (pos + i)) & 1 == 1 } else { sbit };
        d |= u64::from(bit) << i;
    }
    d
}
fn bfi(a: u64, b: u64, pos: u64, len: u64, bits: u32) -> u64 {
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    let mut d = b;
    for i in 0..len {
        if pos + i < bits {
            d = (d & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        }
    }
    d
}
fn cvt_int(v: u64, src_bits: u32, src_signed: bool, dst_bits: u32, dst_signed: bool, sat: bool) -> i128 {
    let x: i128 = if src_signed { i128::from(sx(v, src_bits)) } else { i128::from(v & mask_bits(src_bits)) };
    if sat {
        let (lo, hi) = int_range(dst_bits, dst_signed);
        x.clamp(lo, hi)
    } else {
        x
    }
}

/// The low `bits` bits set.
fn mask_bits(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1 << bits) - 1 }
}

/// The smallest and largest values of a `bits`-bit integer type.
fn int_range(bits: u32, signed: bool) -> (i128, i128) {
    if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) }
}

/// optMerge of the video instructions: the low byte (`dsel` 1-4, `.b0`-`.b3`) or half
/// (5-6, `.h0`/`.h1`) of `d` into that place of `c`; `d` itself for no selector.
fn video_merge(dsel: usize, d: u64, c: u64) -> u64 {
    let (field, at) = match dsel {
        0 => return d,
        1..=4 => (0xff, 8 * (dsel - 1)),
        _ => (0xffff, 16 * (dsel - 5)),
    };
    ((d & field) << at) | (c & !(field << at))
}

/// A cvt result in a register of `reg_bits`: the value's low `dst_bits`, sign-extended
/// to the register for a signed type and zero-extended otherwise (PTX ISA 5.2.4,
/// "Operand Size Exceeding Instruction-Type Size").
fn in_reg(x: i128, dst_bits: u32, dst_signed: bool) -> u64 {
    let v = (x as u64) & mask_bits(dst_bits);
    if dst_signed { sx(v, dst_bits) as u64 } else { v }
}

fn setp(a: f64, b: f64, cmp: u64) -> u64 {
    let un = a.is_nan() || b.is_nan();
    u64::from(match cmp {
        0 => !un && a == b,
        1 => !un && a != b,
        2 => !un && a < b,
        3 => !un && a <= b,
        4 => !un && a > b,
        5 => !un && a >= b,
        6 => un || a == b,
        7 => un || a != b,
        8 => un || a < b,
        9 => un || a <= b,
        10 => un || a > b,
        11 => un || a >= b,
        12 => !un,
        _ => un,
    })
}

fn dp4a(a: u64, b: u64, c: u64, sa: bool, sb: bool) -> u64 {
    let byte = |v: u64, k: u32, s: bool| {
        let x = (v >> (8 * k)) & 0xff;
        if s { sx(x, 8) } else { x as i64 }
    };
    let mut acc = c as u32 as i64;
    for k in 0..4 {
        acc = acc.wrapping_add(byte(a, k, sa) * byte(b, k, sb));
    }
    u64::from(acc as u32)
}

fn dp2a(a: u64, b: u64, c: u64, sa: bool, sb: bool, hi: bool) -> u64 {
    let half = |v: u64, k: u32| {
        let x = (v >> (16 * k)) & 0xffff;
        if sa { sx(x, 16) } else { x as i64 }
    };
    let byte = |v: u64, k: u32| {
        let x = (v >> (8 * k)) & 0xff;
        if sb { sx(x, 8) } else { x as i64 }
    };
    let base = if hi { 2 } else { 0 };
    let acc = (c as u32 as i64)
        .wrapping_add(half(a, 0) * byte(b, base))
        .wrapping_add(half(a, 1) * byte(b, base + 1));
    u64::from(acc as u32)
}

#[rustfmt::skip]
static OPS: &[Op] = &[
    // Integer arithmetic at every width.
    op("add.u16", H, &[H, H], |s, _, _, _| s[0].wrapping_add(s[1])),
    op("sub.s16", H, &[H, H], |s, _, _, _| s[0].wrapping_sub(s[1])),
    op("mul.lo.u16", H, &[H, H], |s, _, _, _| s[0].wrapping_mul(s[1])),
    op("mul.hi.s16", H, &[H, H], |s, _, _, _| ((sx(s[0], 16) * sx(s[1], 16)) >> 16) as u64),
    op("min.s16", H, &[H, H], |s, _, _, _| sx(s[0], 16).min(sx(s[1], 16)) as u64),
    op("max.u16", H, &[H, H], |s, _, _, _| (s[0] & 0xffff).max(s[1] & 0xffff)),
    op("mul.wide.s16", R, &[H, H], |s, _, _, _| (sx(s[0], 16) * sx(s[1], 16)) as u64),
    op("mul.wide.u16", R, &[H, H], |s, _, _, _| (s[0] & 0xffff) * (s[1] & 0xffff)),
    op("add.s32", R, &[R, R], |s, _, _, _| s[0].wrapping_add(s[1])),
    op("sub.u32", R, &[R, R], |s, _, _, _| s[0].wrapping_sub(s[1])),
    op("mul.lo.s32", R, &[R, R], |s, _, _, _| s[0].wrapping_mul(s[1])),
    op("mul.hi.u32", R, &[R, R], |s, _, _, _| ((s[0] & 0xffff_ffff) * (s[1] & 0xffff_ffff)) >> 32),
    op("mul.hi.s32", R, &[R, R], |s, _, _, _| ((sx(s[0], 32) * sx(s[1], 32)) >> 32) as u64),
    op("mad.lo.u32", R, &[R, R, R], |s, _, _, _| s[0].wrapping_mul(s[1]).wrapping_add(s[2])),
    op("mad.hi.s32", R, &[R, R, R], |s, _, _, _| (((sx(s[0], 32) * sx(s[1], 32)) >> 32) as u64).wrapping_add(s[2])),
    op("mul24.lo.u32", R, &[R, R], |s, _, _, _| (s[0] & 0xff_ffff).wrapping_mul(s[1] & 0xff_ffff)),
    op("mad24.lo.s32", R, &[R, R, R], |s, _, _, _| (sx(s[0], 24).wrapping_mul(sx(s[1], 24)) as u64).wrapping_add(s[2])),
    op("sad.u32", R, &[R, R, R], |s, _, _, _| ((s[0] as u32).abs_diff(s[1] as u32) as u64).wrapping_add(s[2])),
    op("min.s32", R, &[R, R], |s, _, _, _| sx(s[0], 32).min(sx(s[1], 32)) as u64),
    op("max.s32", R, &[R, R], |s, _, _, _| sx(s[0], 32).max(sx(s[1], 32)) as u64),
    op("mul.wide.u32", D, &[R, R], |s, _, _, _| (s[0] & 0xffff_ffff) * (s[1] & 0xffff_ffff)),
    op("mul.wide.s32", D, &[R, R], |s, _, _, _| (sx(s[0], 32) * sx(s[1], 32)) as u64),
    op("mad.wide.s32", D, &[R, R, D], |s, _, _, _| ((sx(s[0], 32) * sx(s[1], 32)) as u64).wrapping_add(s[2])),
    op("add.u64", D, &[D, D], |s, _, _, _| s[0].wrapping_add(s[1])),
    op("sub.s64", D, &[D, D], |s, _, _, _| s[0].wrapping_sub(s[1])),
    op("mul.lo.u64", D, &[D, D], |s, _, _, _| s[0].wrapping_mul(s[1])),
    op("mul.hi.u64", D, &[D, D], |s, _, _, _| ((u128::from(s[0]) * u128::from(s[1])) >> 64) as u64),
    op("mul.hi.s64", D, &[D, D], |s, _, _, _| ((i128::from(s[0] as i64) * i128::from(s[1] as i64)) >> 64) as u64),
    op("min.u64", D, &[D, D], |s, _, _, _| s[0].min(s[1])),
    op("max.s64", D, &[D, D], |s, _, _, _| (s[0] as i64).max(s[1] as i64) as u64),
    op("neg.s16", H, &[H], |s, _, _, _| s[0].wrapping_neg()),
    op("abs.s32", R, &[R], |s, _, _, _| sx(s[0], 32).wrapping_abs() as u64),
    op("abs.s64", D, &[D], |s, _, _, _| (s[0] as i64).wrapping_abs() as u64),
    op("not.b64", D, &[D], |s, _, _, _| !s[0]),
    op("cnot.b32", R, &[R], |s, _, _, _| u64::from(s[0] as u32 == 0)),
    op("and.b16", H, &[H, H], |s, _, _, _| s[0] & s[1]),
    op("or.b32", R, &[R, R], |s, _, _, _| s[0] | s[1]),
    op("xor.b64", D, &[D, D], |s, _, _, _| s[0] ^ s[1]),
    // Shifts: the amount is a .u32 and shifts past the width give 0 (or the sign).
    op("shl.b16", H, &[H, R], |s, _, _, _| if (s[1] as u32) >= 16 { 0 } else { s[0] << (s[1] as u32) }),
    op("shr.s32", R, &[R, R], |s, _, _, _| (sx(s[0], 32) >> (s[1] as u32).min(31)) as u64),
    op("shr.u64", D, &[D, R], |s, _, _, _| if (s[1] as u32) >= 64 { 0 } else { s[0] >> (s[1] as u32) }),
    op("shl.b64", D, &[D, R], |s, _, _, _| if (s[1] as u32) >= 64 { 0 } else { s[0] << (s[1] as u32) }),
    // Division by an immediate that is neither 0 nor -1.
    iop("div.u32", R, &[R], (1, 1000), |s, i, _, _| (s[0] as u32 / i as u32) as u64),
    iop("rem.s32", R, &[R], (2, 1000), |s, i, _, _| (sx(s[0], 32) % i as i64) as u64),
    iop("div.s64", D, &[D], (1, 1 << 40), |s, i, _, _| ((s[0] as i64) / i as i64) as u64),
    iop("rem.u16", H, &[H], (1, 300), |s, i, _, _| (s[0] & 0xffff) % i),
    // Carry chains (PTX ISA 9.7.2): the flag is the carry-out of the add family and
    // the borrow of the sub family, read by the next instruction of the same family.
    cop("add.cc.u32", R, &[R, R], Cf::Write(true), |s, _, cf, _| { let t = (s[0] & 0xffff_ffff) + (s[1] & 0xffff_ffff); *cf = t >> 32 != 0; t }),
    cop("addc.cc.u32", R, &[R, R], Cf::ReadWrite(true), |s, _, cf, _| { let t = (s[0] & 0xffff_ffff) + (s[1] & 0xffff_ffff) + u64::from(*cf); *cf = t >> 32 != 0; t }),
    cop("addc.u32", R, &[R, R], Cf::Read(true), |s, _, cf, _| s[0].wrapping_add(s[1]).wrapping_add(u64::from(*cf))),
    cop("mad.lo.cc.u32", R, &[R, R, R], Cf::Write(true), |s, _, cf, _| { let t = (s[0].wrapping_mul(s[1]) & 0xffff_ffff) + (s[2] & 0xffff_ffff); *cf = t >> 32 != 0; t }),
    cop("madc.hi.cc.u32", R, &[R, R, R], Cf::ReadWrite(true), |s, _, cf, _| { let t = (((s[0] & 0xffff_ffff) * (s[1] & 0xffff_ffff)) >> 32) + (s[2] & 0xffff_ffff) + u64::from(*cf); *cf = t >> 32 != 0; t }),
    cop("add.cc.u64", D, &[D, D], Cf::Write(true), |s, _, cf, _| { let (t, c) = s[0].overflowing_add(s[1]); *cf = c; t }),
    cop("addc.cc.u64", D, &[D, D], Cf::ReadWrite(true), |s, _, cf, _| { let t = u128::from(s[0]) + u128::from(s[1]) + u128::from(*cf); *cf = t >> 64 != 0; t as u64 }),
    cop("addc.u64", D, &[D, D], Cf::Read(true), |s, _, cf, _| s[0].wrapping_add(s[1]).wrapping_add(u64::from(*cf))),
    cop("madc.lo.u64", D, &[D, D, D], Cf::Read(true), |s, _, cf, _| s[0].wrapping_mul(s[1]).wrapping_add(s[2]).wrapping_add(u64::from(*cf))),
    cop("sub.cc.u32", R, &[R, R], Cf::Write(false), |s, _, cf, _| { *cf = (s[0] as u32) < (s[1] as u32); s[0].wrapping_sub(s[1]) }),
    cop("subc.cc.u32", R, &[R, R], Cf::ReadWrite(false), |s, _, cf, _| { let t = i64::from(s[0] as u32) - i64::from(s[1] as u32) - i64::from(*cf); *cf = t < 0; t as u64 }),
    cop("subc.u32", R, &[R, R], Cf::Read(false), |s, _, cf, _| s[0].wrapping_sub(s[1]).wrapping_sub(u64::from(*cf))),
    cop("sub.cc.u64", D, &[D, D], Cf::Write(false), |s, _, cf, _| { *cf = s[0] < s[1]; s[0].wrapping_sub(s[1]) }),
    cop("subc.cc.u64", D, &[D, D], Cf::ReadWrite(false), |s, _, cf, _| { let t = i128::from(s[0]) - i128::from(s[1]) - i128::from(*cf); *cf = t < 0; t as u64 }),
    cop("subc.u64", D, &[D, D], Cf::Read(false), |s, _, cf, _| s[0].wrapping_sub(s[1]).wrapping_sub(u64::from(*cf))),
    // Bits.
    op("popc.b64", R, &[D], |s, _, _, _| u64::from(s[0].count_ones())),
    op("clz.b32", R, &[R], |s, _, _, _| u64::from((s[0] as u32).leading_zeros())),
    op("brev.b32", R, &[R], |s, _, _, _| u64::from((s[0] as u32).reverse_bits())),
    op("brev.b64", D, &[D], |s, _, _, _| s[0].reverse_bits()),
    op("bfind.u32", R, &[R], |s, _, _, _| { let a = s[0] as u32; if a == 0 { 0xffff_ffff } else { u64::from(31 - a.leading_zeros()) } }),
    op("bfind.s64", R, &[D], |s, _, _, _| { let a = s[0] as i64; let a = if a < 0 { !a } else { a } as u64; if a == 0 { 0xffff_ffff } else { u64::from(63 - a.leading_zeros()) } }),
    op("bfind.shiftamt.u64", R, &[D], |s, _, _, _| if s[0] == 0 { 0xffff_ffff } else { u64::from(s[0].leading_zeros()) }),
    op("bfe.u32", R, &[R, R, R], |s, _, _, _| bfe(s[0], s[1], s[2], 32, false)),
    op("bfe.s32", R, &[R, R, R], |s, _, _, _| bfe(s[0], s[1], s[2], 32, true)),
    op("bfe.s64", D, &[D, R, R], |s, _, _, _| bfe(s[0], s[1], s[2], 64, true)),
    op("bfi.b32", R, &[R, R, R, R], |s, _, _, _| bfi(s[0], s[1], s[2], s[3], 32)),
    op("bfi.b64", D, &[D, D, R, R], |s, _, _, _| bfi(s[0], s[1], s[2], s[3], 64)),
    op("prmt.b32", R, &[R, R, R], |s, _, _, _| {
        let bytes = (s[1] << 32) | (s[0] & 0xffff_ffff);
        let mut d = 0u64;
        for k in 0..4 {
            let sel = (s[2] >> (4 * k)) & 0xf;
            let b = (bytes >> (8 * (sel & 7))) & 0xff;
            let b = if sel & 8 != 0 { if b & 0x80 != 0 { 0xff } else { 0 } } else { b };
            d |= b << (8 * k);
        }
        d
    }),
    iop("prmt.b32.{pm}", R, &[R, R, R], (0, 5), |s, m, _, _| prmt_mode(m as usize, s[0], s[1], s[2])),
    op("shf.l.wrap.b32", R, &[R, R, R], |s, _, _, _| { let n = (s[2] & 31) as u32; let v = ((s[1] & 0xffff_ffff) << 32 | (s[0] & 0xffff_ffff)) << n; v >> 32 }),
    op("shf.r.clamp.b32", R, &[R, R, R], |s, _, _, _| { let n = (s[2] as u32).min(32); let v = (s[1] & 0xffff_ffff) << 32 | (s[0] & 0xffff_ffff); (v >> n) & 0xffff_ffff }),
    iop("lop3.b32", R, &[R, R, R], (0, 255), |s, lut, _, _| {
        let mut d = 0u64;
        for k in 0..32 {
            let idx = ((s[0] >> k) & 1) << 2 | ((s[1] >> k) & 1) << 1 | ((s[2] >> k) & 1);
            d |= ((lut >> idx) & 1) << k;
        }
        d
    }),
    op("bmsk.clamp.b32", R, &[R, R], |s, _, _, _| { let (a, b) = ((s[0] as u32).min(32), (s[1] as u32).min(32)); let m = if b >= 32 { u64::MAX } else { (1u64 << b) - 1 }; (m << a) & 0xffff_ffff }),
    op("bmsk.wrap.b32", R, &[R, R], |s, _, _, _| { let (a, b) = ((s[0] & 31) as u32, (s[1] & 31) as u32); (((1u64 << b) - 1) << a) & 0xffff_ffff }),
    op("szext.wrap.s32", R, &[R, R], |s, _, _, _| { let n = (s[1] & 31) as u32; if n == 0 { 0 } else { sx(s[0], n) as u64 } }),
    op("szext.clamp.u32", R, &[R, R], |s, _, _, _| { let n = (s[1] as u32).min(32); s[0] & mask_bits(n) }),
    op("dp4a.u32.u32", R, &[R, R, R], |s, _, _, _| dp4a(s[0], s[1], s[2], false, false)),
    op("dp4a.s32.u32", R, &[R, R, R], |s, _, _, _| dp4a(s[0], s[1], s[2], true, false)),
    op("dp4a.s32.s32", R, &[R, R, R], |s, _, _, _| dp4a(s[0], s[1], s[2], true, true)),
    op("dp2a.lo.u32.s32", R, &[R, R, R], |s, _, _, _| dp2a(s[0], s[1], s[2], false, true, false)),
    op("dp2a.hi.s32.s32", R, &[R, R, R], |s, _, _, _| dp2a(s[0], s[1], s[2], true, true, true)),
    // cvt between integers, into registers wider than the destination type.
    op("cvt.s8.s32", H, &[R], |s, _, _, _| in_reg(cvt_int(s[0], 32, true, 8, true, false), 8, true)),
    op("cvt.sat.u8.s16", H, &[H], |s, _, _, _| in_reg(cvt_int(s[0], 16, true, 8, false, true), 8, false)),
    op("cvt.sat.s8.u64", R, &[D], |s, _, _, _| in_reg(cvt_int(s[0], 64, false, 8, true, true), 8, true)),
    op("cvt.s16.s8", R, &[H], |s, _, _, _| in_reg(cvt_int(s[0], 8, true, 16, true, false), 16, true)),
    op("cvt.u16.u8", D, &[H], |s, _, _, _| in_reg(cvt_int(s[0], 8, false, 16, false, false), 16, false)),
    op("cvt.sat.s16.s64", D, &[D], |s, _, _, _| in_reg(cvt_int(s[0], 64, true, 16, true, true), 16, true)),
    op("cvt.u32.s16", R, &[H], |s, _, _, _| in_reg(cvt_int(s[0], 16, true, 32, false, false), 32, false)),
    op("cvt.sat.u32.s64", R, &[D], |s, _, _, _| in_reg(cvt_int(s[0], 64, true, 32, false, true), 32, false)),
    op("cvt.s64.s32", D, &[R], |s, _, _, _| in_reg(cvt_int(s[0], 32, true, 64, true, false), 64, true)),
    op("cvt.sat.s32.u32", D, &[R], |s, _, _, _| in_reg(cvt_int(s[0], 32, false, 32, true, true), 32, true)),
    op("cvt.u8.u32", R, &[R], |s, _, _, _| in_reg(cvt_int(s[0], 32, false, 8, false, false), 8, false)),
    // cvt.pack.sat (PTX ISA 9.7.9.22): td = sat(b), then td[size..2*size] = sat(a), then
    // (8-bit types) d[2*size..32] = c[0..32-2*size].
    op("cvt.pack.sat.u8.s32.b32", R, &[R, R, R], |s, _, _, _| pack_ref(8, false, s[0], s[1], s[2])),
    op("cvt.pack.sat.s8.s32.b32", R, &[R, R, R], |s, _, _, _| pack_ref(8, true, s[0], s[1], s[2])),
    op("cvt.pack.sat.s16.s32", R, &[R, R], |s, _, _, _| pack_ref(16, true, s[0], s[1], 0)),
    op("cvt.pack.sat.u16.s32", R, &[R, R], |s, _, _, _| pack_ref(16, false, s[0], s[1], 0)),
    // Scalar video instructions (PTX ISA 9.7.18.1) with random selectors: the
    // immediate picks asel, bsel and (merging forms) dsel.
    iop("vadd.s32.u32.s32.sat{v}", R, &[R, R], (0, 48), |s, i, _, _| vid(0, [true, false, true], true, None, i, false, s)),
    iop("vsub.u32.s32.s32{v}", R, &[R, R], (0, 48), |s, i, _, _| vid(1, [false, true, true], false, None, i, false, s)),
    iop("vabsdiff.u32.u32.s32.sat{v}", R, &[R, R], (0, 48), |s, i, _, _| vid(2, [false, false, true], true, None, i, false, s)),
    iop("vmin.s32.s32.u32.add{v}", R, &[R, R, R], (0, 48), |s, i, _, _| vid(3, [true, true, false], false, Some(0), i, false, s)),
    iop("vmax.u32.s32.s32.sat.max{v}", R, &[R, R, R], (0, 48), |s, i, _, _| vid(4, [false, true, true], true, Some(2), i, false, s)),
    iop("vmin.s32.u32.s32.min{v}", R, &[R, R, R], (0, 48), |s, i, _, _| vid(3, [true, false, true], false, Some(1), i, false, s)),
    iop("vadd.u32.s32.u32.sat{vd}", R, &[R, R, R], (0, 293), |s, i, _, _| vid(0, [false, true, false], true, None, i, true, s)),
    iop("vsub.s32.s32.s32.sat{vd}", R, &[R, R, R], (0, 293), |s, i, _, _| vid(1, [true, true, true], true, None, i, true, s)),
    iop("vshl.u32.s32.u32.clamp{v}", R, &[R, R], (0, 48), |s, i, _, _| vid(5, [false, true, false], false, None, i, false, s)),
    iop("vshr.s32.s32.u32.wrap.add{v}", R, &[R, R, R], (0, 48), |s, i, _, _| vid(6, [true, true, false], false, Some(0), i, false, s)),
    iop("vshr.u32.u32.u32.clamp.sat{v}", R, &[R, R], (0, 48), |s, i, _, _| vid(7, [false, false, false], true, None, i, false, s)),
    // vset: the immediate also picks the comparison (and, merging, dsel).
    iop("vset.s32.u32.{c6}{v}", R, &[R, R], (0, 293), |s, i, _, _| vset_ref([false, true, false], None, i, false, s)),
    iop("vset.u32.s32.{c6}.add{v}", R, &[R, R, R], (0, 293), |s, i, _, _| vset_ref([false, false, true], Some(0), i, false, s)),
    iop("vset.s32.s32.{c6}.max{v}", R, &[R, R, R], (0, 293), |s, i, _, _| vset_ref([false, true, true], Some(2), i, false, s)),
    iop("vset.u32.u32.{c6}{vsd}", R, &[R, R, R], (0, 1763), |s, i, _, _| vset_ref([false, false, false], None, i, true, s)),
    // Packed halves and .relu (PTX 8.0, sm_90).
    op("add.u16x2", R, &[R, R], |s, _, _, _| lanes_ref(0, 16, false, false, s)),
    op("add.s16x2", R, &[R, R], |s, _, _, _| lanes_ref(0, 16, true, false, s)),
    op("min.u16x2", R, &[R, R], |s, _, _, _| lanes_ref(1, 16, false, false, s)),
    op("min.s16x2", R, &[R, R], |s, _, _, _| lanes_ref(1, 16, true, false, s)),
    op("max.u16x2", R, &[R, R], |s, _, _, _| lanes_ref(2, 16, false, false, s)),
    op("max.s16x2", R, &[R, R], |s, _, _, _| lanes_ref(2, 16, true, false, s)),
    op("min.relu.s16x2", R, &[R, R], |s, _, _, _| lanes_ref(1, 16, true, true, s)),
    op("max.relu.s16x2", R, &[R, R], |s, _, _, _| lanes_ref(2, 16, true, true, s)),
    op("min.relu.s32", R, &[R, R], |s, _, _, _| lanes_ref(1, 32, true, true, s)),
    op("max.relu.s32", R, &[R, R], |s, _, _, _| lanes_ref(2, 32, true, true, s)),
    // SIMD video (PTX ISA 9.7.18.2): the immediate picks the mask and both selectors.
    iop("vadd2.u32.u32.s32.sat{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(0, 2, [false, false, true], true, false, i, s)),
    iop("vsub2.s32.s32.s32{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(1, 2, [true, true, true], false, false, i, s)),
    iop("vavrg2.s32.u32.s32{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(2, 2, [true, false, true], false, false, i, s)),
    iop("vabsdiff2.u32.s32.u32.add{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(3, 2, [false, true, false], false, true, i, s)),
    iop("vmin2.s32.s32.u32.sat{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(4, 2, [true, true, false], true, false, i, s)),
    iop("vmax2.u32.u32.u32.add{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(5, 2, [false, false, false], false, true, i, s)),
    iop("vset2.s32.u32.lt.add{s2}", R, &[R, R, R], (0, 767), |s, i, _, _| simd_ref(8, 2, [false, true, false], false, true, i, s)),
    iop("vadd4.s32.s32.s32.sat{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(0, 4, [true, true, true], true, false, i, s)),
    iop("vsub4.u32.u32.s32.add{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(1, 4, [false, false, true], false, true, i, s)),
    iop("vavrg4.u32.u32.u32{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(2, 4, [false, false, false], false, false, i, s)),
    iop("vabsdiff4.s32.s32.u32{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(3, 4, [true, true, false], false, false, i, s)),
    iop("vmin4.u32.s32.s32.add{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(4, 4, [false, true, true], false, true, i, s)),
    iop("vmax4.s32.u32.s32.sat{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(5, 4, [true, false, true], true, false, i, s)),
    iop("vset4.u32.s32.ge{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(11, 4, [false, false, true], false, false, i, s)),
    iop("vset4.s32.s32.ne.add{s4}", R, &[R, R, R], (0, 251_658_239), |s, i, _, _| simd_ref(7, 4, [false, true, true], false, true, i, s)),
    // Floats: IEEE 754 round to nearest, as the host computes it.
    fop("add.f32", R, &[R, R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]) + f32_of(s[1]))),
    fop("sub.rn.ftz.f32", R, &[R, R], Cmp::F32, |s, _, _, _| bits32(ftz(ftz(f32_of(s[0])) - ftz(f32_of(s[1]))))),
    fop("mul.rn.f32", R, &[R, R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]) * f32_of(s[1]))),
    fop("fma.rn.f32", R, &[R, R, R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]).mul_add(f32_of(s[1]), f32_of(s[2])))),
    fop("fma.rn.ftz.f32", R, &[R, R, R], Cmp::F32, |s, _, _, _| bits32(ftz(ftz(f32_of(s[0])).mul_add(ftz(f32_of(s[1])), ftz(f32_of(s[2])))))),
    fop("min.f32", R, &[R, R], Cmp::F32, |s, _, _, _| bits32(fmin(f64::from(f32_of(s[0])), f64::from(f32_of(s[1]))) as f32)),
    fop("max.ftz.f32", R, &[R, R], Cmp::F32, |s, _, _, _| bits32(fmax(f64::from(ftz(f32_of(s[0]))), f64::from(ftz(f32_of(s[1])))) as f32)),
    fop("abs.f32", R, &[R], Cmp::F32, |s, _, _, _| s[0] & 0x7fff_ffff),
    fop("neg.f64", D, &[D], Cmp::F64, |s, _, _, _| s[0] ^ (1 << 63)),
    fop("add.rn.f64", D, &[D, D], Cmp::F64, |s, _, _, _| (f64_of(s[0]) + f64_of(s[1])).to_bits()),
    fop("mul.f64", D, &[D, D], Cmp::F64, |s, _, _, _| (f64_of(s[0]) * f64_of(s[1])).to_bits()),
    fop("fma.rn.f64", D, &[D, D, D], Cmp::F64, |s, _, _, _| f64_of(s[0]).mul_add(f64_of(s[1]), f64_of(s[2])).to_bits()),
    fop("min.f64", D, &[D, D], Cmp::F64, |s, _, _, _| fmin(f64_of(s[0]), f64_of(s[1])).to_bits()),
    fop("add.f16", H, &[H, H], Cmp::F16, |s, _, _, _| hbits(h(s[0]) + h(s[1]))),
    fop("sub.rn.f16", H, &[H, H], Cmp::F16, |s, _, _, _| hbits(h(s[0]) - h(s[1]))),
    fop("mul.f16", H, &[H, H], Cmp::F16, |s, _, _, _| hbits(h(s[0]) * h(s[1]))),
    // Conversions between integers and floats.
    fop("cvt.rn.f32.s32", R, &[R], Cmp::F32, |s, _, _, _| bits32(sx(s[0], 32) as f32)),
    fop("cvt.rn.f32.u64", R, &[D], Cmp::F32, |s, _, _, _| bits32(s[0] as f32)),
    fop("cvt.rn.f64.s64", D, &[D], Cmp::F64, |s, _, _, _| (s[0] as i64 as f64).to_bits()),
    fop("cvt.f64.f32", D, &[R], Cmp::F64, |s, _, _, _| f64::from(f32_of(s[0])).to_bits()),
    fop("cvt.rn.f32.f64", R, &[D], Cmp::F32, |s, _, _, _| bits32(f64_of(s[0]) as f32)),
    op("cvt.rzi.s32.f32", R, &[R], |s, _, _, _| u64::from(f32_of(s[0]) as i32 as u32)),
    // A NaN converts to 0, but to 1 << (width - 1) from .f64 or into 64 bits (PTX ISA
    // 9.0, cvt: "MININT for signed, (MAXINT >> 1) + 1 for unsigned").
    op("cvt.rzi.u64.f64", D, &[D], |s, _, _, _| { let x = f64_of(s[0]); if x.is_nan() { 1 << 63 } else { x as u64 } }),
    op("cvt.rni.s64.f32", D, &[R], |s, _, _, _| { let x = f32_of(s[0]); if x.is_nan() { 1 << 63 } else { x.round_ties_even() as i64 as u64 } }),
    // Atomics on the thread's own words (PTX ISA 9.7.12.5): the old value comes back,
    // the 32-bit forms change the low half of the word.
    op("atom.global.add.u32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o.wrapping_add(s[1] as u32))),
    op("atom.global.exch.b32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |_| s[1] as u32)),
    op("atom.global.cas.b32", R, &[M, R, R], |s, _, _, m| atom32(s[0], m, |o| if o == s[1] as u32 { s[2] as u32 } else { o })),
    op("atom.global.min.s32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| (o as i32).min(s[1] as i32) as u32)),
    op("atom.global.max.u32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o.max(s[1] as u32))),
    op("atom.global.and.b32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o & s[1] as u32)),
    op("atom.global.or.b32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o | s[1] as u32)),
    op("atom.global.xor.b32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o ^ s[1] as u32)),
    op("atom.global.inc.u32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| if o >= s[1] as u32 { 0 } else { o + 1 })),
    op("atom.global.dec.u32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| if o == 0 || o > s[1] as u32 { s[1] as u32 } else { o - 1 })),
    op("atom.global.add.u64", D, &[M, D], |s, _, _, m| { *m = s[0].wrapping_add(s[1]); s[0] }),
    op("atom.global.exch.b64", D, &[M, D], |s, _, _, m| { *m = s[1]; s[0] }),
    op("atom.global.cas.b64", D, &[M, D, D], |s, _, _, m| { *m = if s[0] == s[1] { s[2] } else { s[0] }; s[0] }),
    op("atom.global.min.s64", D, &[M, D], |s, _, _, m| { *m = (s[0] as i64).min(s[1] as i64) as u64; s[0] }),
    op("atom.global.max.u64", D, &[M, D], |s, _, _, m| { *m = s[0].max(s[1]); s[0] }),
    op("atom.global.and.b64", D, &[M, D], |s, _, _, m| { *m = s[0] & s[1]; s[0] }),
    // atom.add.f32 flushes subnormal inputs and results to zero; add.f64 does not.
    fop("atom.global.add.f32", R, &[M, R], Cmp::F32, |s, _, _, m| atom32(s[0], m, |o| ftz(ftz(f32::from_bits(o)) + ftz(f32_of(s[1]))).to_bits())),
    fop("atom.global.add.f64", D, &[M, D], Cmp::F64, |s, _, _, m| { *m = (f64_of(s[0]) + f64_of(s[1])).to_bits(); s[0] }),
    op("atom.global.min.u64", D, &[M, D], |s, _, _, m| { *m = s[0].min(s[1]); s[0] }),
    op("atom.global.max.s64", D, &[M, D], |s, _, _, m| { *m = (s[0] as i64).max(s[1] as i64) as u64; s[0] }),
    op("atom.global.or.b64", D, &[M, D], |s, _, _, m| { *m = s[0] | s[1]; s[0] }),
    op("atom.shared.xor.b64", D, &[S, D], |s, _, _, m| { *m = s[0] ^ s[1]; s[0] }),
    op("atom.shared.inc.u32", R, &[S, R], |s, _, _, m| atom32(s[0], m, |o| if o >= s[1] as u32 { 0 } else { o + 1 })),
    op("atom.shared.dec.u32", R, &[S, R], |s, _, _, m| atom32(s[0], m, |o| if o == 0 || o > s[1] as u32 { s[1] as u32 } else { o - 1 })),
    op("atom.shared.exch.b32", R, &[S, R], |s, _, _, m| atom32(s[0], m, |_| s[1] as u32)),
    op("red.shared.min.s32", N, &[S, R], |s, _, _, m| { atom32(s[0], m, |o| (o as i32).min(s[1] as i32) as u32); 0 }),
    op("red.global.max.u64", N, &[M, D], |s, _, _, m| { *m = s[0].max(s[1]); 0 }),
    op("red.global.add.u32", N, &[M, R], |s, _, _, m| { atom32(s[0], m, |o| o.wrapping_add(s[1] as u32)); 0 }),
    op("red.global.xor.b64", N, &[M, D], |s, _, _, m| { *m = s[0] ^ s[1]; 0 }),
    // More types and spaces: `atom.add.f32` flushes subnormals in shared memory and
    // as `red` too. (ptxvm does not lower the
    // half adds, `.add.noftz.f16` ..., nor `atom.cas.b16`.)
    fop("atom.shared.add.f32", R, &[S, R], Cmp::F32, |s, _, _, m| atom32(s[0], m, |o| ftz(ftz(f32::from_bits(o)) + ftz(f32_of(s[1]))).to_bits())),
    fop("red.global.add.f32", N, &[M, R], Cmp::F32, |s, _, _, m| { atom32(s[0], m, |o| ftz(ftz(f32::from_bits(o)) + ftz(f32_of(s[1]))).to_bits()); 0 }),
    fop("atom.shared.add.f64", D, &[S, D], Cmp::F64, |s, _, _, m| { *m = (f64_of(s[0]) + f64_of(s[1])).to_bits(); s[0] }),
    fop("red.shared.add.f64", N, &[S, D], Cmp::F64, |s, _, _, m| { *m = (f64_of(s[0]) + f64_of(s[1])).to_bits(); 0 }),
    op("atom.shared.cas.b32", R, &[S, R, R], |s, _, _, m| atom32(s[0], m, |o| if o == s[1] as u32 { s[2] as u32 } else { o })),
    // 16-bit compare-and-swap and the half adds (`.noftz`: no flush, one rounding).
    op("atom.global.cas.b16", H, &[M, H, H], |s, _, _, m| atom16(s[0], m, |o| if o == s[1] & 0xffff { s[2] } else { o })),
    op("atom.shared.cas.b16", H, &[S, H, H], |s, _, _, m| atom16(s[0], m, |o| if o == s[1] & 0xffff { s[2] } else { o })),
    fop("atom.global.add.noftz.f16", H, &[M, H], Cmp::F16, |s, _, _, m| atom16(s[0], m, |o| hbits(h(o) + h(s[1])))),
    fop("red.shared.add.noftz.f16", N, &[S, H], Cmp::F16, |s, _, _, m| { atom16(s[0], m, |o| hbits(h(o) + h(s[1]))); 0 }),
    fop("atom.shared.add.noftz.bf16", H, &[S, H], Cmp::Bf16, |s, _, _, m| atom16(s[0], m, |o| bbits(bh(o) + bh(s[1])))),
    fop("red.global.add.noftz.bf16", N, &[M, H], Cmp::Bf16, |s, _, _, m| { atom16(s[0], m, |o| bbits(bh(o) + bh(s[1]))); 0 }),
    fop("atom.global.add.noftz.f16x2", R, &[M, R], Cmp::F16x2, |s, _, _, m| atom32(s[0], m, |o| x2(u64::from(o), s[1], |a, b| a + b) as u32)),
    fop("red.shared.add.noftz.f16x2", N, &[S, R], Cmp::F16x2, |s, _, _, m| { atom32(s[0], m, |o| x2(u64::from(o), s[1], |a, b| a + b) as u32); 0 }),
    fop("atom.shared.add.noftz.bf16x2", R, &[S, R], Cmp::Bf16x2, |s, _, _, m| atom32(s[0], m, |o| (0..2).fold(0, |acc, k| acc | (bbits(bh(u64::from(o) >> (16 * k)) + bh(s[1] >> (16 * k))) as u32) << (16 * k)))),
    op("atom.global.add.s32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o.wrapping_add(s[1] as u32))),
    op("atom.global.min.u32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| o.min(s[1] as u32))),
    op("atom.global.max.s32", R, &[M, R], |s, _, _, m| atom32(s[0], m, |o| (o as i32).max(s[1] as i32) as u32)),
    op("atom.global.xor.b64", D, &[M, D], |s, _, _, m| { *m = s[0] ^ s[1]; s[0] }),
    op("atom.shared.exch.b64", D, &[S, D], |s, _, _, m| { *m = s[1]; s[0] }),
    op("atom.shared.min.u64", D, &[S, D], |s, _, _, m| { *m = s[0].min(s[1]); s[0] }),
    op("atom.shared.max.s64", D, &[S, D], |s, _, _, m| { *m = (s[0] as i64).max(s[1] as i64) as u64; s[0] }),
    op("atom.shared.and.b32", R, &[S, R], |s, _, _, m| atom32(s[0], m, |o| o & s[1] as u32)),
    op("red.global.and.b32", N, &[M, R], |s, _, _, m| { atom32(s[0], m, |o| o & s[1] as u32); 0 }),
    op("red.shared.or.b64", N, &[S, D], |s, _, _, m| { *m = s[0] | s[1]; 0 }),
    op("red.shared.inc.u32", N, &[S, R], |s, _, _, m| { atom32(s[0], m, |o| if o >= s[1] as u32 { 0 } else { o + 1 }); 0 }),
    op("red.global.dec.u32", N, &[M, R], |s, _, _, m| { atom32(s[0], m, |o| if o == 0 || o > s[1] as u32 { s[1] as u32 } else { o - 1 }); 0 }),
    op("red.shared.add.u64", N, &[S, D], |s, _, _, m| { *m = s[0].wrapping_add(s[1]); 0 }),
    op("red.global.min.s64", N, &[M, D], |s, _, _, m| { *m = (s[0] as i64).min(s[1] as i64) as u64; 0 }),
    // cp.async from the thread's global words into its shared words, then
    // `cp.async.commit_group; cp.async.wait_group 0;` or `cp.async.wait_all;`, after
    // which the copy is complete (PTX ISA 9.7.9.25.3): the immediate is the source size
    // (`size + 1`: none written, the whole copy), or the `ignore-src` predicate. A
    // 16-byte copy is run once per shared word: its sources are then word j of each
    // pair, and j.
    iop("cp.async.ca.shared.global{cp4}", N, &[S, M], (0, 5), |s, i, _, m| { *m = cp_async(s[0], s[1], 4, i, 0); 0 }),
    iop("cp.async.ca.shared.global{cp8}", N, &[S, M], (0, 9), |s, i, _, m| { *m = cp_async(s[0], s[1], 8, i, 0); 0 }),
    iop("cp.async.cg.shared.global{cp16}", N, &[S2, M2], (0, 17), |s, i, _, m| { *m = cp_async(s[0], s[1], 16, i, 8 * s[2]); 0 }),
    op("cp.async.ca.shared.global{cpi4}", N, &[S, M, P], |s, _, _, m| { *m = cp_async(s[0], s[1], 4, if s[2] & 1 == 1 { 0 } else { 4 }, 0); 0 }),
    op("cp.async.ca.shared.global{cpi8}", N, &[S, M, NP], |s, _, _, m| { *m = cp_async(s[0], s[1], 8, if s[2] & 1 == 1 { 0 } else { 8 }, 0); 0 }),
    op("cp.async.cg.shared.global{cpi16}", N, &[S2, M2, P], |s, _, _, m| { *m = cp_async(s[0], s[1], 16, if s[2] & 1 == 1 { 0 } else { 16 }, 8 * s[3]); 0 }),
    // Loads and stores of every width in global, shared and local memory; the loads
    // extend to the register by the type's signedness.
    op("ld.global.s16", D, &[M], |s, _, _, _| sx(s[0], 16) as u64),
    op("ld.global.u8", R, &[M], |s, _, _, _| s[0] & 0xff),
    op("ld.shared.u32", R, &[S], |s, _, _, _| s[0] & 0xffff_ffff),
    op("ld.shared.s8", H, &[S], |s, _, _, _| sx(s[0], 8) as u64),
    op("ld.shared.b64", D, &[S], |s, _, _, _| s[0]),
    op("ld.local.s32", D, &[L], |s, _, _, _| sx(s[0], 32) as u64),
    op("ld.local.u16", R, &[L], |s, _, _, _| s[0] & 0xffff),
    op("st.global.u8", N, &[M, R], |s, _, _, m| { *m = (s[0] & !0xff) | (s[1] & 0xff); 0 }),
    op("st.shared.u16", N, &[S, H], |s, _, _, m| { *m = (s[0] & !0xffff) | (s[1] & 0xffff); 0 }),
    op("st.shared.b32", N, &[S, R], |s, _, _, m| { *m = (s[0] & !0xffff_ffff) | (s[1] & 0xffff_ffff); 0 }),
    op("st.local.b64", N, &[L, D], |s, _, _, m| { *m = s[1]; 0 }),
    op("st.local.s8", N, &[L, H], |s, _, _, m| { *m = (s[0] & !0xff) | (s[1] & 0xff); 0 }),
    // Vector stores and packing moves: the sources in braces.
    op("st.global.v2.u32{brace}", N, &[M, R, R], |s, _, _, m| { *m = (s[1] & 0xffff_ffff) | (s[2] & 0xffff_ffff) << 32; 0 }),
    op("st.shared.v2.u16{brace}", N, &[S, H, H], |s, _, _, m| { *m = (s[0] & !0xffff_ffff) | (s[1] & 0xffff) | (s[2] & 0xffff) << 16; 0 }),
    op("st.local.v4.u16{brace}", N, &[L, H, H, H, H], |s, _, _, m| { *m = (0..4).fold(0, |w, k| w | (s[1 + k] & 0xffff) << (16 * k)); 0 }),
    op("mov.b64{brace}", D, &[R, R], |s, _, _, _| (s[0] & 0xffff_ffff) | (s[1] & 0xffff_ffff) << 32),
    op("mov.b32{brace}", R, &[H, H], |s, _, _, _| (s[0] & 0xffff) | (s[1] & 0xffff) << 16),
    op("mov.b64{brace}", D, &[H, H, H, H], |s, _, _, _| (0..4).fold(0, |w, k| w | (s[k] & 0xffff) << (16 * k))),
    // Vector loads (PTX ISA 9.7.9.8, ld): element j from the j-th piece of the memory,
    // extended to the register by the type's signedness; 16-byte ones from an aligned
    // pair of words.
    vop("ld.global.v2.u32", R, 2, &[M], |s, j, _, _| s[0] >> (32 * j)),
    vop("ld.global.v4.u16", H, 4, &[M], |s, j, _, _| s[0] >> (16 * j)),
    vop("ld.global.v4.u8", H, 4, &[M], |s, j, _, _| (s[0] >> (8 * j)) & 0xff),
    vop("ld.global.v2.b64", D, 2, &[M2], |s, j, _, _| s[j as usize]),
    vop("ld.global.v4.f32", R, 4, &[M2], |s, j, _, _| s[j as usize / 2] >> (32 * (j % 2))),
    vop("ld.global.v2.f64", D, 2, &[M2], |s, j, _, _| s[j as usize]),
    vop("ld.shared.v2.f32", R, 2, &[S], |s, j, _, _| s[0] >> (32 * j)),
    vop("ld.shared.v4.b32", R, 4, &[S2], |s, j, _, _| s[j as usize / 2] >> (32 * (j % 2))),
    vop("ld.shared.v2.s16", R, 2, &[S], |s, j, _, _| sx(s[0] >> (16 * j), 16) as u64),
    vop("ld.shared.v2.b16", H, 2, &[S], |s, j, _, _| s[0] >> (16 * j)),
    vop("ld.shared.v2.u64", D, 2, &[S2], |s, j, _, _| s[j as usize]),
    vop("ld.local.v2.u64", D, 2, &[L2], |s, j, _, _| s[j as usize]),
    vop("ld.local.v4.s8", R, 4, &[L], |s, j, _, _| sx(s[0] >> (8 * j), 8) as u64),
    vop("ld.local.v2.f32", R, 2, &[L], |s, j, _, _| s[0] >> (32 * j)),
    vop("ld.local.v4.u32", R, 4, &[L2], |s, j, _, _| s[j as usize / 2] >> (32 * (j % 2))),
    vop("ld.local.v2.s32", D, 2, &[L], |s, j, _, _| sx(s[0] >> (32 * j), 32) as u64),
    // Loads of the module's initialised `.const` variables and of the kernel's
    // parameters, at offsets inside them.
    op("ld.const.u64", D, &[K("cd", 8, 2)], |s, _, _, _| s[0]),
    vop("ld.const.v2.u64", D, 2, &[K("cd", 16, 1)], |s, j, _, _| s[j as usize]),
    vop("ld.const.v4.b32", R, 4, &[K("cw", 16, 1)], |s, j, _, _| s[j as usize / 2] >> (32 * (j % 2))),
    op("ld.const.s32", D, &[K("cw", 4, 4)], |s, _, _, _| sx(s[0], 32) as u64),
    vop("ld.const.v2.s16", R, 2, &[K("ch", 4, 2)], |s, j, _, _| sx(s[0] >> (16 * j), 16) as u64),
    op("ld.const.u16", H, &[K("ch", 2, 4)], |s, _, _, _| s[0]),
    op("ld.const.f32", R, &[K("cf", 4, 4)], |s, _, _, _| s[0]),
    vop("ld.const.v2.f32", R, 2, &[K("cf", 8, 2)], |s, j, _, _| s[0] >> (32 * j)),
    op("ld.const.s8", R, &[K("cb", 1, 8)], |s, _, _, _| sx(s[0], 8) as u64),
    vop("ld.const.v4.u8", H, 4, &[K("cb", 4, 2)], |s, j, _, _| (s[0] >> (8 * j)) & 0xff),
    op("ld.param.u32", R, &[K("pw", 0, 1)], |s, _, _, _| s[0]),
    op("ld.param.s16", D, &[K("ph", 0, 1)], |s, _, _, _| sx(s[0], 16) as u64),
    op("ld.param.b16", H, &[K("ph", 0, 1)], |s, _, _, _| s[0]),
    op("ld.param.f64", D, &[K("pd", 0, 1)], |s, _, _, _| s[0]),
    op("ld.param.u32", R, &[K("pb", 4, 4)], |s, _, _, _| s[0]),
    op("ld.param.s8", R, &[K("pb", 1, 16)], |s, _, _, _| sx(s[0], 8) as u64),
    op("ld.param.u8", H, &[K("pb", 1, 16)], |s, _, _, _| s[0] & 0xff),
    op("ld.param.b64", D, &[K("pb", 8, 2)], |s, _, _, _| s[0]),
    vop("ld.param.v2.u32", R, 2, &[K("pb", 8, 2)], |s, j, _, _| s[0] >> (32 * j)),
    vop("ld.param.v4.b32", R, 4, &[K("pb", 16, 1)], |s, j, _, _| s[j as usize / 2] >> (32 * (j % 2))),
    vop("ld.param.v2.s16", R, 2, &[K("pb", 4, 4)], |s, j, _, _| sx(s[0] >> (16 * j), 16) as u64),
    vop("ld.param.v4.u8", H, 4, &[K("pb", 4, 4)], |s, j, _, _| (s[0] >> (8 * j)) & 0xff),
    // Unpacking moves: the source's pieces from the lowest, in the braces' order.
    vop("mov.b32", H, 2, &[R], |s, j, _, _| s[0] >> (16 * j)),
    vop("mov.b64", R, 2, &[D], |s, j, _, _| s[0] >> (32 * j)),
    vop("mov.b64", H, 4, &[D], |s, j, _, _| s[0] >> (16 * j)),
    // Collectives: a reduction over the CTA's predicates at a barrier (PTX ISA
    // 9.7.13.4, bar.red), and an integer matrix product of the warp's fragments.
    gop("bar.red.popc.u32", R, 1, &[Z, P], THREADS, |ps, _, _, _| ps.iter().filter(|s| s[1] & 1 == 1).count() as u64),
    gop("bar.red.and.pred", P, 1, &[Z, P], THREADS, |ps, _, _, _| u64::from(ps.iter().all(|s| s[1] & 1 == 1))),
    gop("bar.red.or.pred", P, 1, &[Z, P], THREADS, |ps, _, _, _| u64::from(ps.iter().any(|s| s[1] & 1 == 1))),
    gop("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32{mma}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_s8(w, l, j, false, [true; 2])),
    gop("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32{mma}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_s8(w, l, j, true, [true; 2])),
    gop("mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32{mma}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_s8(w, l, j, false, [false, true])),
    gop("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32{mma}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_s8(w, l, j, true, [true, false])),
    gop("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32{mma}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_s8(w, l, j, true, [false, false])),
    // The f64 matrix product, on small integers converted just before it.
    gop("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64{mma64}", D, 2, &[H, H, H, H], 32, |w, l, j, _| mma_f64(w, l, j)),
    // The half-precision and tf32 matrix products, on small integers packed just
    // before them (exact in any order of addition).
    gop("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32{mmah}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_half(w, l, j)),
    gop("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32{mmab}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_half(w, l, j)),
    gop("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32{mmat}", R, 4, &[R, R, R, R, R, R, R, R, R, R], 32, |w, l, j, _| mma_tf32(w, l, j)),
    // ldmatrix from each thread's 16 bytes of shared memory.
    gop("ldmatrix.sync.aligned.m8n8.x1.shared.b16{ldm}", R, 1, &[S2], 32, |w, l, j, _| ldmatrix(w, l, j, false)),
    gop("ldmatrix.sync.aligned.m8n8.x2.shared.b16", R, 2, &[S2], 32, |w, l, j, _| ldmatrix(w, l, j, false)),
    gop("ldmatrix.sync.aligned.m8n8.x4.shared.b16", R, 4, &[S2], 32, |w, l, j, _| ldmatrix(w, l, j, false)),
    gop("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16{ldm}", R, 1, &[S2], 32, |w, l, j, _| ldmatrix(w, l, j, true)),
    gop("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", R, 2, &[S2], 32, |w, l, j, _| ldmatrix(w, l, j, true)),
    gop("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", R, 4, &[S2], 32, |w, l, j, _| ldmatrix(w, l, j, true)),
    // fns with an immediate base (a base above 31 is undefined behaviour).
    iop("fns.b32{fns}", R, &[R, R], (0, 31), |s, i, _, _| fns(s[0], i, s[1])),
    // Control flow inside the straight line: `brx.idx` to one of four targets by the
    // low two bits of the source (each lane its own, so a warp diverges and meets again
    // after), a direct call with `.reg` parameters, a direct call with `.param` ones
    // whose callee calls another function, and an indirect call through a pointer each
    // lane picks by the source's low bit (PTX ISA 9.7.12.3, 9.7.12.5, 9.7.12.6).
    iop("brx.idx{brx}", R, &[R], (0, u32::MAX as u64), |s, i, _, _| brx_value(i, s[0] & 3)),
    op("call{fadd}", R, &[R, R], |s, _, _, _| s[0].wrapping_add(s[1]) & 0xffff_ffff),
    op("call{fmix}", R, &[R, R], |s, _, _, _| fmix(s[0], s[1])),
    op("call{fptr}", R, &[R, R], |s, _, _, _| if s[0] & 1 == 1 { fmix(s[0], s[1]) } else { fsub(s[0], s[1]) }),
    // Instructions with no value: a sleep, fences and a prefetch leave every register
    // and word as it was.
    iop("nanosleep.u32", N, &[], (0, 500), |_, _, _, _| 0),
    op("membar.cta", N, &[], |_, _, _, _| 0),
    op("fence.acq_rel.gpu", N, &[], |_, _, _, _| 0),
    op("prefetch.global.L2", N, &[M], |s, _, _, m| { *m = s[0]; 0 }),
    // vmad with every selector and negation, and its `.po`, `.sat` and scale forms.
    iop("vmad.u32.u32.u32{v}{neg}", R, &[R, R, R], (0, 293), |s, i, _, _| vmad_ref([false, false], false, false, 0, i, s)),
    iop("vmad.s32.s32.s32.sat{v}{neg}", R, &[R, R, R], (0, 293), |s, i, _, _| vmad_ref([true, true], false, true, 0, i, s)),
    iop("vmad.s32.u32.s32.shr7{v}{neg}", R, &[R, R, R], (0, 293), |s, i, _, _| vmad_ref([false, true], false, false, 7, i, s)),
    iop("vmad.u32.s32.u32.sat.shr15{v}{neg}", R, &[R, R, R], (0, 293), |s, i, _, _| vmad_ref([true, false], false, true, 15, i, s)),
    iop("vmad.u32.u32.u32.sat{v}{neg}", R, &[R, R, R], (0, 293), |s, i, _, _| vmad_ref([false, false], false, true, 0, i, s)),
    iop("vmad.s32.u32.u32.shr15{v}{neg}", R, &[R, R, R], (0, 293), |s, i, _, _| vmad_ref([false, false], false, false, 15, i, s)),
    iop("vmad.s32.s32.u32.po{v}", R, &[R, R, R], (0, 48), |s, i, _, _| vmad_ref([true, false], true, false, 0, i, s)),
    iop("vmad.u32.u32.u32.po.sat.shr15{v}", R, &[R, R, R], (0, 48), |s, i, _, _| vmad_ref([false, false], true, true, 15, i, s)),
    // wmma on the warp's shared memory: two layout round trips and a product (see
    // `wmma_ref`; the generator fixes their operands to the thread's four words).
    gop("wmma{wmma0}", S, 4, &[S2, S2], 32, |w, l, j, _| wmma_ref(0, w, l, j)),
    gop("wmma{wmma1}", S, 4, &[S2, S2], 32, |w, l, j, _| wmma_ref(1, w, l, j)),
    gop("wmma{wmma2}", S, 4, &[S2, S2], 32, |w, l, j, _| wmma_ref(2, w, l, j)),
    // An mbarrier in the thread's own shared word: init, arrive, test or wait.
    // Across warps: warp 0 waits at try_wait for an mbarrier of warp 1's, which warp 1
    // arrives on afterwards (so warp 0 is suspended first); warp 1 then waits on its
    // own. Every thread's predicate is true.
    gop("mbarrier{mbar2}", P, 1, &[S], THREADS, |_, _, _, _| 1),
    iop("mbarrier{mbar}", P, &[S], (0, 23), |_, i, _, _| { let (c, n, _) = mbar_parts(i); u64::from(n == c) }),
    // Bulk copies (PTX ISA 9.7.9.25.4.1) of a 16-byte pair of words: shared to global,
    // committed and waited for; global to shared, completing on an mbarrier in the
    // thread's other word (`{bulkld}`: init, `arrive.expect_tx` 16, the copy,
    // `try_wait`, which would never return without the copy's 16 bytes, `inval`). And
    // `cp.async.mbarrier.arrive` on a fresh mbarrier of count 1 (PTX ISA 9.7.9.25.3.4):
    // with `.noinc` its arrival completes the phase; without, the pending count is
    // raised first, so the phase stays open.
    op("cp.async.bulk.global.shared::cta.bulk_group{bulkst}", N, &[M2, S2], |s, _, _, m| { *m = s[1]; 0 }),
    op("cp.async.bulk{bulkld}", N, &[S2, M2], |s, _, _, m| { *m = s[1]; 0 }),
    iop("mbarrier{cpmbar}", P, &[S], (0, 1), |_, i, _, _| i),
    // f32 to tf32, in each rounding and with `.satfinite`.
    fop("cvt.rna.tf32.f32", R, &[R], Cmp::F32, |s, _, _, _| tf32_ref(s[0], 0, false)),
    fop("cvt.rn.tf32.f32", R, &[R], Cmp::F32, |s, _, _, _| tf32_ref(s[0], 1, false)),
    fop("cvt.rz.tf32.f32", R, &[R], Cmp::F32, |s, _, _, _| tf32_ref(s[0], 2, false)),
    fop("cvt.rna.satfinite.tf32.f32", R, &[R], Cmp::F32, |s, _, _, _| tf32_ref(s[0], 0, true)),
    // Address conversion (PTX ISA 9.7.9.20): the thread's shared words through a
    // generic address (`cvta.shared`, then a generic `ld`), and back (`cvta.to.shared`,
    // then `ld.shared`); and a generic prefetch, which changes nothing.
    op("cvta{cvta}", D, &[S], |s, _, _, _| s[0]),
    op("cvta{cvtato}", D, &[S], |s, _, _, _| s[0]),
    op("prefetchu.L1", N, &[M], |s, _, _, m| { *m = s[0]; 0 }),
    // The approximate instructions, each checked against the ISA's error bound and
    // special values (see `approx_ok`).
    aop("sin.approx.f32", R, &[R], Ax::F32(Fun::Sin, false)),
    aop("sin.approx.ftz.f32", R, &[R], Ax::F32(Fun::Sin, true)),
    aop("cos.approx.f32", R, &[R], Ax::F32(Fun::Cos, false)),
    aop("cos.approx.ftz.f32", R, &[R], Ax::F32(Fun::Cos, true)),
    aop("lg2.approx.f32", R, &[R], Ax::F32(Fun::Lg2, false)),
    aop("lg2.approx.ftz.f32", R, &[R], Ax::F32(Fun::Lg2, true)),
    aop("ex2.approx.f32", R, &[R], Ax::F32(Fun::Ex2, false)),
    aop("ex2.approx.ftz.f32", R, &[R], Ax::F32(Fun::Ex2, true)),
    aop("rcp.approx.f32", R, &[R], Ax::F32(Fun::Rcp, false)),
    aop("rcp.approx.ftz.f32", R, &[R], Ax::F32(Fun::Rcp, true)),
    aop("rsqrt.approx.f32", R, &[R], Ax::F32(Fun::Rsqrt, false)),
    aop("rsqrt.approx.ftz.f32", R, &[R], Ax::F32(Fun::Rsqrt, true)),
    aop("sqrt.approx.f32", R, &[R], Ax::F32(Fun::Sqrt, false)),
    aop("sqrt.approx.ftz.f32", R, &[R], Ax::F32(Fun::Sqrt, true)),
    aop("tanh.approx.f32", R, &[R], Ax::F32(Fun::Tanh, false)),
    aop("div.approx.f32", R, &[R, R], Ax::Div(false, false)),
    aop("div.approx.ftz.f32", R, &[R, R], Ax::Div(false, true)),
    aop("div.full.f32", R, &[R, R], Ax::Div(true, false)),
    aop("div.full.ftz.f32", R, &[R, R], Ax::Div(true, true)),
    aop("ex2.approx.f16", H, &[H], Ax::Half(Fun::Ex2, false, false)),
    aop("ex2.approx.f16x2", R, &[R], Ax::Half(Fun::Ex2, false, true)),
    aop("ex2.approx.ftz.bf16", H, &[H], Ax::Half(Fun::Ex2, true, false)),
    aop("ex2.approx.ftz.bf16x2", R, &[R], Ax::Half(Fun::Ex2, true, true)),
    aop("tanh.approx.f16", H, &[H], Ax::Half(Fun::Tanh, false, false)),
    aop("tanh.approx.f16x2", R, &[R], Ax::Half(Fun::Tanh, false, true)),
    aop("tanh.approx.bf16", H, &[H], Ax::Half(Fun::Tanh, true, false)),
    aop("tanh.approx.bf16x2", R, &[R], Ax::Half(Fun::Tanh, true, true)),
    aop("rcp.approx.ftz.f64", D, &[D], Ax::F64(Fun::Rcp, true)),
    aop("rsqrt.approx.f64", D, &[D], Ax::F64(Fun::Rsqrt, false)),
    aop("rsqrt.approx.ftz.f64", D, &[D], Ax::F64(Fun::Rsqrt, true)),
    // Warp collectives with a full member mask (PTX ISA 9.7.9.6 shfl.sync, vote.sync,
    // match.sync, redux.sync, activemask), and the lane's special registers.
    gop("shfl.sync.up.b32", R, 1, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(0, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.down.b32", R, 1, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(1, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.bfly.b32", R, 1, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(2, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.idx.b32", R, 1, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(3, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.up.b32", RP, 2, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(0, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.down.b32", RP, 2, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(1, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.bfly.b32", RP, 2, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(2, w, l, j, w[l][1], w[l][2])),
    gop("shfl.sync.idx.b32", RP, 2, &[R, R, R, X("0xffffffff")], 32, |w, l, j, _| shfl(3, w, l, j, w[l][1], w[l][2])),
    igop("shfl.sync.up.b32{bc}", RP, 2, &[R, X("0xffffffff")], (0, 32767), 32, |w, l, j, i| { let (b, c) = shfl_bc(i); shfl(0, w, l, j, b, c) }),
    igop("shfl.sync.down.b32{bc}", R, 1, &[R, X("0xffffffff")], (0, 32767), 32, |w, l, j, i| { let (b, c) = shfl_bc(i); shfl(1, w, l, j, b, c) }),
    igop("shfl.sync.bfly.b32{bc}", RP, 2, &[R, X("0xffffffff")], (0, 32767), 32, |w, l, j, i| { let (b, c) = shfl_bc(i); shfl(2, w, l, j, b, c) }),
    igop("shfl.sync.idx.b32{bc}", RP, 2, &[R, X("0xffffffff")], (0, 32767), 32, |w, l, j, i| { let (b, c) = shfl_bc(i); shfl(3, w, l, j, b, c) }),
    gop("vote.sync.all.pred", P, 1, &[P, X("0xffffffff")], 32, |w, _, _, _| vote(0, w)),
    gop("vote.sync.any.pred", P, 1, &[NP, X("0xffffffff")], 32, |w, _, _, _| vote(1, w)),
    gop("vote.sync.uni.pred", P, 1, &[P, X("0xffffffff")], 32, |w, _, _, _| vote(2, w)),
    gop("vote.sync.all.pred", P, 1, &[NP, X("0xffffffff")], 32, |w, _, _, _| vote(0, w)),
    gop("vote.sync.ballot.b32", R, 1, &[P, X("0xffffffff")], 32, |w, _, _, _| vote(3, w)),
    gop("vote.sync.ballot.b32", R, 1, &[NP, X("0xffffffff")], 32, |w, _, _, _| vote(3, w)),
    gop("match.any.sync.b32", R, 1, &[R, X("0xffffffff")], 32, |w, l, j, _| match_sync(false, w, l, j)),
    gop("match.any.sync.b64", R, 1, &[D, X("0xffffffff")], 32, |w, l, j, _| match_sync(false, w, l, j)),
    gop("match.all.sync.b32", RP, 2, &[R, X("0xffffffff")], 32, |w, l, j, _| match_sync(true, w, l, j)),
    gop("match.all.sync.b64", RP, 2, &[D, X("0xffffffff")], 32, |w, l, j, _| match_sync(true, w, l, j)),
    gop("match.all.sync.b32", R, 1, &[R, X("0xffffffff")], 32, |w, l, j, _| match_sync(true, w, l, j)),
    gop("redux.sync.add.u32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(0, false, w)),
    gop("redux.sync.add.s32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(0, true, w)),
    gop("redux.sync.min.u32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(1, false, w)),
    gop("redux.sync.min.s32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(1, true, w)),
    gop("redux.sync.max.u32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(2, false, w)),
    gop("redux.sync.max.s32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(2, true, w)),
    gop("redux.sync.and.b32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(3, false, w)),
    gop("redux.sync.or.b32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(4, false, w)),
    gop("redux.sync.xor.b32", R, 1, &[R, X("0xffffffff")], 32, |w, _, _, _| redux(5, false, w)),
    gop("activemask.b32", R, 1, &[], 32, |_, _, _, _| 0xffff_ffff),
    gop("mov.u32", R, 1, &[X("%laneid")], 32, |_, l, _, _| l as u64),
    gop("mov.u32", R, 1, &[X("%lanemask_eq")], 32, |_, l, _, _| 1 << l),
    gop("mov.u32", R, 1, &[X("%lanemask_lt")], 32, |_, l, _, _| (1 << l) - 1),
    gop("mov.u32", R, 1, &[X("%lanemask_le")], 32, |_, l, _, _| (2 << l) - 1),
    gop("mov.u32", R, 1, &[X("%lanemask_gt")], 32, |_, l, _, _| 0xffff_ffff & !((2 << l) - 1)),
    gop("mov.u32", R, 1, &[X("%lanemask_ge")], 32, |_, l, _, _| 0xffff_ffff & !((1 << l) - 1)),
    gop("mov.u32", R, 1, &[X("%tid.x")], THREADS, |_, t, _, _| t as u64),
    gop("mov.u32", R, 1, &[X("%ntid.x")], THREADS, |_, _, _, _| THREADS as u64),
    gop("mov.u32", R, 1, &[X("%ctaid.x")], THREADS, |_, _, _, _| 0),
    gop("mov.u32", R, 1, &[X("%nctaid.x")], THREADS, |_, _, _, _| 1),
    op("atom.shared.add.u32", R, &[S, R], |s, _, _, m| atom32(s[0], m, |o| o.wrapping_add(s[1] as u32))),
    op("atom.shared.cas.b64", D, &[S, D, D], |s, _, _, m| { *m = if s[0] == s[1] { s[2] } else { s[0] }; s[0] }),
    op("atom.shared.max.s32", R, &[S, R], |s, _, _, m| atom32(s[0], m, |o| (o as i32).max(s[1] as i32) as u32)),
    // Comparison and selection.
    op("setp.lt.and.s32", P, &[R, R, P], |s, _, _, _| combine(0, sx(s[0], 32) < sx(s[1], 32), s[2], 0)),
    op("setp.ne.or.b64", P, &[D, D, NP], |s, _, _, _| combine(1, s[0] != s[1], s[2], 0)),
    op("setp.hs.xor.u16", P, &[H, H, P], |s, _, _, _| combine(2, s[0] >= s[1], s[2], 0)),
    gop("setp.gt.and.s64", PQ, 2, &[D, D, P], 1, |w, _, j, _| combine(0, (w[0][0] as i64) > (w[0][1] as i64), w[0][2], j)),
    gop("setp.le.or.u32", PQ, 2, &[R, R, NP], 1, |w, _, j, _| combine(1, w[0][0] <= w[0][1], w[0][2], j)),
    gop("setp.eq.xor.b32", PQ, 2, &[R, R, P], 1, |w, _, j, _| combine(2, w[0][0] == w[0][1], w[0][2], j)),
    gop("setp.lo.u32", PQ, 2, &[R, R], 1, |w, _, j, _| u64::from((w[0][0] < w[0][1]) != (j == 1))),
    igop("setp.{cmp}.and.f32", PQ, 2, &[R, R, P], (0, 13), 1, |w, _, j, c| combine(0, setp(f64::from(f32_of(w[0][0])), f64::from(f32_of(w[0][1])), c) == 1, w[0][2], j)),
    igop("setp.{cmp}.xor.f64", PQ, 2, &[D, D, NP], (0, 13), 1, |w, _, j, c| combine(2, setp(f64_of(w[0][0]), f64_of(w[0][1]), c) == 1, w[0][2], j)),
    iop("setp.{cmp}.or.f64", P, &[D, D, P], (0, 13), |s, c, _, _| combine(1, setp(f64_of(s[0]), f64_of(s[1]), c) == 1, s[2], 0)),
    op("set.lt.and.u32.s32", R, &[R, R, NP], |s, _, _, _| combine(0, sx(s[0], 32) < sx(s[1], 32), s[2], 0) * 0xffff_ffff),
    iop("set.{cmp}.or.f32.f32", R, &[R, R, P], (0, 13), |s, c, _, _| combine(1, setp(f64::from(f32_of(s[0])), f64::from(f32_of(s[1])), c) == 1, s[2], 0) * 0x3f80_0000),
    // Predicate logic (PTX ISA 9.7.7.1 ... and, or, xor, not, mov on .pred).
    op("and.pred", P, &[P, NP], |s, _, _, _| s[0] & s[1] & 1),
    op("or.pred", P, &[NP, P], |s, _, _, _| (s[0] | s[1]) & 1),
    op("xor.pred", P, &[P, P], |s, _, _, _| (s[0] ^ s[1]) & 1),
    op("not.pred", P, &[P], |s, _, _, _| !s[0] & 1),
    op("mov.pred", P, &[P], |s, _, _, _| s[0] & 1),
    iop("setp.{cmp}.f32", P, &[R, R], (0, 13), |s, c, _, _| setp(f64::from(f32_of(s[0])), f64::from(f32_of(s[1])), c)),
    iop("setp.{cmp}.f64", P, &[D, D], (0, 13), |s, c, _, _| setp(f64_of(s[0]), f64_of(s[1]), c)),
    op("setp.lt.s16", P, &[H, H], |s, _, _, _| u64::from(sx(s[0], 16) < sx(s[1], 16))),
    op("setp.hi.u64", P, &[D, D], |s, _, _, _| u64::from(s[0] > s[1])),
    op("selp.b32", R, &[R, R, P], |s, _, _, _| if s[2] & 1 == 1 { s[0] } else { s[1] }),
    op("selp.b64", D, &[D, D, P], |s, _, _, _| if s[2] & 1 == 1 { s[0] } else { s[1] }),
    op("selp.b16", H, &[H, H, P], |s, _, _, _| if s[2] & 1 == 1 { s[0] } else { s[1] }),
    iop("set.{cmp}.u32.f32", R, &[R, R], (0, 13), |s, c, _, _| if setp(f64::from(f32_of(s[0])), f64::from(f32_of(s[1])), c) == 1 { 0xffff_ffff } else { 0 }),
    iop("set.{cmp}.f32.f64", R, &[D, D], (0, 13), |s, c, _, _| if setp(f64_of(s[0]), f64_of(s[1]), c) == 1 { 0x3f80_0000 } else { 0 }),
    op("slct.s32.s32", R, &[R, R, R], |s, _, _, _| if sx(s[2], 32) >= 0 { s[0] } else { s[1] }),
    op("slct.b64.s32", D, &[D, D, R], |s, _, _, _| if sx(s[2], 32) >= 0 { s[0] } else { s[1] }),
    // slct with an .f32 selector: NaN selects b, -0 a, a subnormal by its sign (a
    // under .ftz); the chosen operand's bits are copied unchanged.
    op("slct.b32.f32", R, &[R, R, R], |s, _, _, _| if slct_f32(s[2], false) { s[0] } else { s[1] }),
    op("slct.ftz.u32.f32", R, &[R, R, R], |s, _, _, _| if slct_f32(s[2], true) { s[0] } else { s[1] }),
    op("slct.f32.f32", R, &[R, R, R], |s, _, _, _| if slct_f32(s[2], false) { s[0] } else { s[1] }),
    op("slct.ftz.f32.f32", R, &[R, R, R], |s, _, _, _| if slct_f32(s[2], true) { s[0] } else { s[1] }),
    op("slct.f64.f32", D, &[D, D, R], |s, _, _, _| if slct_f32(s[2], false) { s[0] } else { s[1] }),
    op("slct.ftz.s64.f32", D, &[D, D, R], |s, _, _, _| if slct_f32(s[2], true) { s[0] } else { s[1] }),
    op("slct.u16.f32", H, &[H, H, R], |s, _, _, _| if slct_f32(s[2], false) { s[0] } else { s[1] }),
    op("slct.ftz.b16.f32", H, &[H, H, R], |s, _, _, _| if slct_f32(s[2], true) { s[0] } else { s[1] }),
    op("slct.f64.s32", D, &[D, D, R], |s, _, _, _| if sx(s[2], 32) >= 0 { s[0] } else { s[1] }),
    op("slct.s16.s32", H, &[H, H, R], |s, _, _, _| if sx(s[2], 32) >= 0 { s[0] } else { s[1] }),
    op("slct.f32.s32", R, &[R, R, R], |s, _, _, _| if sx(s[2], 32) >= 0 { s[0] } else { s[1] }),
    // More integer forms.
    op("add.sat.s32", R, &[R, R], |s, _, _, _| (sx(s[0], 32) + sx(s[1], 32)).clamp(i32::MIN.into(), i32::MAX.into()) as u64),
    op("sub.sat.s32", R, &[R, R], |s, _, _, _| (sx(s[0], 32) - sx(s[1], 32)).clamp(i32::MIN.into(), i32::MAX.into()) as u64),
    op("mad.hi.sat.s32", R, &[R, R, R], |s, _, _, _| (((sx(s[0], 32) * sx(s[1], 32)) >> 32) + sx(s[2], 32)).clamp(i32::MIN.into(), i32::MAX.into()) as u64),
    op("mad24.hi.u32", R, &[R, R, R], |s, _, _, _| (((s[0] & 0xff_ffff) * (s[1] & 0xff_ffff)) >> 16).wrapping_add(s[2])),
    op("mad24.hi.s32", R, &[R, R, R], |s, _, _, _| (((sx(s[0], 24) * sx(s[1], 24)) >> 16) as u64).wrapping_add(s[2])),
    op("mad24.lo.u32", R, &[R, R, R], |s, _, _, _| ((s[0] & 0xff_ffff) * (s[1] & 0xff_ffff)).wrapping_add(s[2])),
    op("mul24.lo.s32", R, &[R, R], |s, _, _, _| (sx(s[0], 24) * sx(s[1], 24)) as u64),
    op("sad.s32", R, &[R, R, R], |s, _, _, _| (sx(s[0], 32).abs_diff(sx(s[1], 32))).wrapping_add(s[2])),
    op("sad.u64", D, &[D, D, D], |s, _, _, _| s[0].abs_diff(s[1]).wrapping_add(s[2])),
    op("sad.s16", H, &[H, H, H], |s, _, _, _| (sx(s[0], 16).abs_diff(sx(s[1], 16))).wrapping_add(s[2])),
    op("not.b32", R, &[R], |s, _, _, _| !s[0]),
    op("cnot.b16", H, &[H], |s, _, _, _| u64::from(s[0] & 0xffff == 0)),
    op("cnot.b64", D, &[D], |s, _, _, _| u64::from(s[0] == 0)),
    op("ldu.global.u32", R, &[M], |s, _, _, _| s[0] & 0xffff_ffff),
    op("ldu.global.b64", D, &[M], |s, _, _, _| s[0]),
    op("mad.lo.s16", H, &[H, H, H], |s, _, _, _| s[0].wrapping_mul(s[1]).wrapping_add(s[2])),
    op("mad.wide.u16", R, &[H, H, R], |s, _, _, _| ((s[0] & 0xffff) * (s[1] & 0xffff)).wrapping_add(s[2])),
    op("mad.hi.u64", D, &[D, D, D], |s, _, _, _| (((u128::from(s[0]) * u128::from(s[1])) >> 64) as u64).wrapping_add(s[2])),
    op("neg.s64", D, &[D], |s, _, _, _| s[0].wrapping_neg()),
    op("abs.s16", H, &[H], |s, _, _, _| sx(s[0], 16).wrapping_abs() as u64),
    op("shr.u16", H, &[H, R], |s, _, _, _| if (s[1] as u32) >= 16 { 0 } else { (s[0] & 0xffff) >> (s[1] as u32) }),
    op("shr.s64", D, &[D, R], |s, _, _, _| ((s[0] as i64) >> (s[1] as u32).min(63)) as u64),
    op("shl.b32", R, &[R, R], |s, _, _, _| if (s[1] as u32) >= 32 { 0 } else { s[0] << (s[1] as u32) }),
    op("popc.b32", R, &[R], |s, _, _, _| u64::from((s[0] as u32).count_ones())),
    op("clz.b64", R, &[D], |s, _, _, _| u64::from(s[0].leading_zeros())),
    op("bfind.s32", R, &[R], |s, _, _, _| { let a = s[0] as u32 as i32; let a = if a < 0 { !a } else { a } as u32; if a == 0 { 0xffff_ffff } else { u64::from(31 - a.leading_zeros()) } }),
    op("bfe.u64", D, &[D, R, R], |s, _, _, _| bfe(s[0], s[1], s[2], 64, false)),
    op("shf.r.wrap.b32", R, &[R, R, R], |s, _, _, _| { let n = (s[2] & 31) as u32; let v = (s[1] & 0xffff_ffff) << 32 | (s[0] & 0xffff_ffff); (v >> n) & 0xffff_ffff }),
    op("shf.l.clamp.b32", R, &[R, R, R], |s, _, _, _| { let n = (s[2] as u32).min(32); let v = ((s[1] & 0xffff_ffff) << 32 | (s[0] & 0xffff_ffff)) << n; (v >> 32) & 0xffff_ffff }),
    // IEEE division and square root, correctly rounded (the host's are).
    fop("div.rn.f32", R, &[R, R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]) / f32_of(s[1]))),
    fop("div.rn.f64", D, &[D, D], Cmp::F64, |s, _, _, _| (f64_of(s[0]) / f64_of(s[1])).to_bits()),
    fop("rcp.rn.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(1.0 / f32_of(s[0]))),
    fop("rcp.rn.f64", D, &[D], Cmp::F64, |s, _, _, _| (1.0 / f64_of(s[0])).to_bits()),
    fop("sqrt.rn.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]).sqrt())),
    fop("sqrt.rn.f64", D, &[D], Cmp::F64, |s, _, _, _| f64_of(s[0]).sqrt().to_bits()),
    fop("copysign.f64", D, &[D, D], Cmp::F64, |s, _, _, _| (s[1] & !(1 << 63)) | (s[0] & (1 << 63))),
    fop("max.f64", D, &[D, D], Cmp::F64, |s, _, _, _| fmax(f64_of(s[0]), f64_of(s[1])).to_bits()),
    fop("abs.f64", D, &[D], Cmp::F64, |s, _, _, _| s[0] & !(1 << 63)),
    fop("min.xorsign.abs.f32", R, &[R, R], Cmp::F32, |s, _, _, _| xorsign(false, s[0], s[1])),
    fop("max.xorsign.abs.f32", R, &[R, R], Cmp::F32, |s, _, _, _| xorsign(true, s[0], s[1])),
    ifop("div.{rnd}.f32", R, &[R, R], (0, 2), Cmp::F32, |s, m, _, _| div32(f32_of(s[0]), f32_of(s[1]), m)),
    ifop("rcp.{rnd}.f32", R, &[R], (0, 2), Cmp::F32, |s, m, _, _| div32(1.0, f32_of(s[0]), m)),
    ifop("sqrt.{rnd}.f32", R, &[R], (0, 2), Cmp::F32, |s, m, _, _| sqrt32(f32_of(s[0]), m)),
    ifop("rcp.{rnd}.f64", D, &[D], (0, 2), Cmp::F64, |s, m, _, _| div64(1.0, f64_of(s[0]), m).to_bits()),
    fop("copysign.f32", R, &[R, R], Cmp::F32, |s, _, _, _| (s[1] & 0x7fff_ffff) | (s[0] & 0x8000_0000)),
    iop("testp.{class}.f32", P, &[R], (0, 5), |s, c, _, _| { let x = f32_of(s[0]); testp(x.is_finite(), x.is_nan(), x.is_subnormal(), c) }),
    iop("testp.{class}.f64", P, &[D], (0, 5), |s, c, _, _| { let x = f64_of(s[0]); testp(x.is_finite(), x.is_nan(), x.is_subnormal(), c) }),
    // Halves.
    fop("fma.rn.f16", H, &[H, H, H], Cmp::F16, |s, _, _, _| hbits(fma16(h(s[0]), h(s[1]), h(s[2])))),
    fop("min.f16", H, &[H, H], Cmp::F16, |s, _, _, _| hbits(fmin(h(s[0]), h(s[1])))),
    fop("max.f16", H, &[H, H], Cmp::F16, |s, _, _, _| hbits(fmax(h(s[0]), h(s[1])))),
    fop("neg.f16", H, &[H], Cmp::F16, |s, _, _, _| s[0] ^ 0x8000),
    fop("abs.f16", H, &[H], Cmp::F16, |s, _, _, _| s[0] & 0x7fff),
    fop("add.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| x2(s[0], s[1], |a, b| a + b)),
    fop("mul.rn.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| x2(s[0], s[1], |a, b| a * b)),
    fop("sub.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| x2(s[0], s[1], |a, b| a - b)),
    fop("fma.rn.f16x2", R, &[R, R, R], Cmp::F16x2, |s, _, _, _| (0..2).fold(0, |acc, k| acc | hbits(fma16(h(s[0] >> (16 * k)), h(s[1] >> (16 * k)), h(s[2] >> (16 * k)))) << (16 * k))),
    fop("fma.rn.bf16", H, &[H, H, H], Cmp::Bf16, |s, _, _, _| bbits(fma16(bh(s[0]), bh(s[1]), bh(s[2])))),
    // fma.relu (PTX ISA 9.7.4.5): a negative result 0 (-0 too, as the H100's cvt.relu
    // gives), a NaN the canonical 0x7fff.
    fop("fma.rn.relu.f16", H, &[H, H, H], Cmp::F16, |s, _, _, _| { let r = hbits(fma16(h(s[0]), h(s[1]), h(s[2]))); relu_half(r, h(r)) }),
    fop("fma.rn.relu.f16x2", R, &[R, R, R], Cmp::F16x2, |s, _, _, _| (0..2).fold(0, |acc, k| { let r = hbits(fma16(h(s[0] >> (16 * k)), h(s[1] >> (16 * k)), h(s[2] >> (16 * k)))); acc | relu_half(r, h(r)) << (16 * k) })),
    fop("fma.rn.relu.bf16", H, &[H, H, H], Cmp::Bf16, |s, _, _, _| { let r = bbits(fma16(bh(s[0]), bh(s[1]), bh(s[2]))); relu_half(r, bh(r)) }),
    fop("min.bf16", H, &[H, H], Cmp::Bf16, |s, _, _, _| bbits(fmin(bh(s[0]), bh(s[1])))),
    fop("max.bf16", H, &[H, H], Cmp::Bf16, |s, _, _, _| bbits(fmax(bh(s[0]), bh(s[1])))),
    fop("neg.bf16", H, &[H], Cmp::Bf16, |s, _, _, _| s[0] ^ 0x8000),
    fop("abs.bf16", H, &[H], Cmp::Bf16, |s, _, _, _| s[0] & 0x7fff),
    fop("add.rn.bf16x2", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| (0..2).fold(0, |acc, k| acc | bbits(bh(s[0] >> (16 * k)) + bh(s[1] >> (16 * k))) << (16 * k))),
    fop("fma.rn.bf16x2", R, &[R, R, R], Cmp::Bf16x2, |s, _, _, _| (0..2).fold(0, |acc, k| acc | bbits(fma16(bh(s[0] >> (16 * k)), bh(s[1] >> (16 * k)), bh(s[2] >> (16 * k)))) << (16 * k))),
    fop("max.bf16x2", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| (0..2).fold(0, |acc, k| acc | bbits(fmax(bh(s[0] >> (16 * k)), bh(s[1] >> (16 * k)))) << (16 * k))),
    fop("min.NaN.f16", H, &[H, H], Cmp::F16, |s, _, _, _| if h(s[0]).is_nan() || h(s[1]).is_nan() { 0x7fff } else { hbits(fmin(h(s[0]), h(s[1]))) }),
    fop("max.NaN.bf16", H, &[H, H], Cmp::Bf16, |s, _, _, _| if bh(s[0]).is_nan() || bh(s[1]).is_nan() { 0x7fff } else { bbits(fmax(bh(s[0]), bh(s[1]))) }),
    fop("min.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| x2(s[0], s[1], fmin)),
    fop("neg.f16x2", R, &[R], Cmp::F16x2, |s, _, _, _| s[0] ^ 0x8000_8000),
    fop("abs.bf16x2", R, &[R], Cmp::Bf16x2, |s, _, _, _| s[0] & 0x7fff_7fff),
    fop("add.rn.bf16", H, &[H, H], Cmp::Bf16, |s, _, _, _| bbits(bh(s[0]) + bh(s[1]))),
    fop("mul.rn.bf16", H, &[H, H], Cmp::Bf16, |s, _, _, _| bbits(bh(s[0]) * bh(s[1]))),
    // f16 and f16x2 with `.ftz` (subnormal inputs and results to zeros of their sign)
    // and `.sat` (clamped to [0, 1], NaN to +0); bf16 has neither.
    fop("add.ftz.f16", H, &[H, H], Cmp::F16, |s, _, _, _| half_op(s, true, false, |x| x[0] + x[1])),
    fop("add.rn.sat.f16", H, &[H, H], Cmp::F16, |s, _, _, _| half_op(s, false, true, |x| x[0] + x[1])),
    fop("sub.rn.ftz.sat.f16", H, &[H, H], Cmp::F16, |s, _, _, _| half_op(s, true, true, |x| x[0] - x[1])),
    fop("sub.ftz.f16", H, &[H, H], Cmp::F16, |s, _, _, _| half_op(s, true, false, |x| x[0] - x[1])),
    fop("mul.rn.ftz.f16", H, &[H, H], Cmp::F16, |s, _, _, _| half_op(s, true, false, |x| x[0] * x[1])),
    fop("mul.sat.f16", H, &[H, H], Cmp::F16, |s, _, _, _| half_op(s, false, true, |x| x[0] * x[1])),
    fop("fma.rn.ftz.f16", H, &[H, H, H], Cmp::F16, |s, _, _, _| half_op(s, true, false, |x| fma16(x[0], x[1], x[2]))),
    fop("fma.rn.sat.f16", H, &[H, H, H], Cmp::F16, |s, _, _, _| half_op(s, false, true, |x| fma16(x[0], x[1], x[2]))),
    fop("fma.rn.ftz.sat.f16", H, &[H, H, H], Cmp::F16, |s, _, _, _| half_op(s, true, true, |x| fma16(x[0], x[1], x[2]))),
    fop("add.ftz.sat.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, true, true, |x| x[0] + x[1])),
    fop("sub.rn.ftz.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, true, false, |x| x[0] - x[1])),
    fop("sub.sat.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, false, true, |x| x[0] - x[1])),
    fop("mul.ftz.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, true, false, |x| x[0] * x[1])),
    fop("mul.rn.ftz.sat.f16x2", R, &[R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, true, true, |x| x[0] * x[1])),
    fop("fma.rn.ftz.f16x2", R, &[R, R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, true, false, |x| fma16(x[0], x[1], x[2]))),
    fop("fma.rn.sat.f16x2", R, &[R, R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, false, true, |x| fma16(x[0], x[1], x[2]))),
    fop("fma.rn.ftz.sat.f16x2", R, &[R, R, R], Cmp::F16x2, |s, _, _, _| half_op2(s, true, true, |x| fma16(x[0], x[1], x[2]))),
    iop("setp.{cmp}.f16", P, &[H, H], (0, 13), |s, c, _, _| setp(h(s[0]), h(s[1]), c)),
    iop("setp.{cmp}.bf16", P, &[H, H], (0, 13), |s, c, _, _| setp(bh(s[0]), bh(s[1]), c)),
    // `.sat` clamps to [0, 1] and sends NaN (and -0) to +0; `.NaN` makes min and max
    // return NaN when an operand is one.
    fop("add.sat.f32", R, &[R, R], Cmp::F32, |s, _, _, _| sat(f32_of(s[0]) + f32_of(s[1]))),
    fop("mul.rn.sat.f32", R, &[R, R], Cmp::F32, |s, _, _, _| sat(f32_of(s[0]) * f32_of(s[1]))),
    fop("fma.rn.sat.f32", R, &[R, R, R], Cmp::F32, |s, _, _, _| sat(f32_of(s[0]).mul_add(f32_of(s[1]), f32_of(s[2])))),
    fop("min.NaN.f32", R, &[R, R], Cmp::F32, |s, _, _, _| { let (a, b) = (f32_of(s[0]), f32_of(s[1])); if a.is_nan() || b.is_nan() { bits32(f32::NAN) } else { bits32(fmin(f64::from(a), f64::from(b)) as f32) } }),
    fop("max.NaN.f32", R, &[R, R], Cmp::F32, |s, _, _, _| { let (a, b) = (f32_of(s[0]), f32_of(s[1])); if a.is_nan() || b.is_nan() { bits32(f32::NAN) } else { bits32(fmax(f64::from(a), f64::from(b)) as f32) } }),
    // Rounding to an integral value in the float format.
    fop("cvt.rni.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]).round_ties_even())),
    fop("cvt.rzi.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]).trunc())),
    fop("cvt.rmi.f64.f64", D, &[D], Cmp::F64, |s, _, _, _| f64_of(s[0]).floor().to_bits()),
    fop("cvt.rpi.f64.f64", D, &[D], Cmp::F64, |s, _, _, _| f64_of(s[0]).ceil().to_bits()),
    // cvt between float formats with `.ftz` and `.sat` (PTX ISA 9.7.9.21, cvt): `.ftz`
    // flushes subnormal .f32 inputs and .f32 results (only) to zeros of their sign,
    // `.sat` clamps the result to [0.0, 1.0] with NaN to +0; no `.sat` into bf16.
    fop("cvt.ftz.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(ftz(f32_of(s[0])))),
    fop("cvt.sat.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| sat(f32_of(s[0]))),
    fop("cvt.ftz.sat.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| sat(ftz(f32_of(s[0])))),
    fop("cvt.rn.sat.f32.f64", R, &[D], Cmp::F32, |s, _, _, _| sat(f64_of(s[0]) as f32)),
    ifop("cvt.{rnd}.ftz.f32.f64", R, &[D], (0, 2), Cmp::F32, |s, m, _, _| bits32(ftz(directed32(f64_of(s[0]), 0.0, m)))),
    fop("cvt.rn.ftz.sat.f32.f64", R, &[D], Cmp::F32, |s, _, _, _| sat(ftz(f64_of(s[0]) as f32))),
    fop("cvt.ftz.f64.f32", D, &[R], Cmp::F64, |s, _, _, _| f64::from(ftz(f32_of(s[0]))).to_bits()),
    fop("cvt.sat.f64.f32", D, &[R], Cmp::F64, |s, _, _, _| sat64(f64::from(f32_of(s[0])))),
    fop("cvt.sat.f64.f64", D, &[D], Cmp::F64, |s, _, _, _| sat64(f64_of(s[0]))),
    fop("cvt.ftz.sat.f32.f16", R, &[H], Cmp::F32, |s, _, _, _| sat(h(s[0]) as f32)),
    fop("cvt.ftz.f32.bf16", R, &[H], Cmp::F32, |s, _, _, _| bits32(ftz(bh(s[0]) as f32))),
    fop("cvt.rn.ftz.f16.f32", H, &[R], Cmp::F16, |s, _, _, _| cvt_f16(f64::from(ftz(f32_of(s[0]))), 3, false, false)),
    fop("cvt.rn.ftz.sat.f16.f32", H, &[R], Cmp::F16, |s, _, _, _| hsat(cvt_f16(f64::from(ftz(f32_of(s[0]))), 3, false, false))),
    ifop("cvt.{rnd}.sat.f16.f64", H, &[D], (0, 2), Cmp::F16, |s, m, _, _| hsat(cvt_f16(f64_of(s[0]), m, false, false))),
    fop("cvt.sat.f16.f16", H, &[H], Cmp::F16, |s, _, _, _| hsat(s[0])),
    // Rounding to an integral value in the same format, with `.ftz` and `.sat`.
    fop("cvt.rmi.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]).floor())),
    fop("cvt.rpi.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(f32_of(s[0]).ceil())),
    fop("cvt.rzi.f64.f64", D, &[D], Cmp::F64, |s, _, _, _| f64_of(s[0]).trunc().to_bits()),
    fop("cvt.rni.f64.f64", D, &[D], Cmp::F64, |s, _, _, _| f64_of(s[0]).round_ties_even().to_bits()),
    fop("cvt.rmi.ftz.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| bits32(ftz(f32_of(s[0])).floor())),
    fop("cvt.rpi.ftz.sat.f32.f32", R, &[R], Cmp::F32, |s, _, _, _| sat(ftz(f32_of(s[0])).ceil())),
    fop("cvt.rni.sat.f64.f64", D, &[D], Cmp::F64, |s, _, _, _| sat64(f64_of(s[0]).round_ties_even())),
    fop("cvt.rni.f16.f16", H, &[H], Cmp::F16, |s, _, _, _| hbits(h(s[0]).round_ties_even())),
    fop("cvt.rmi.f16.f16", H, &[H], Cmp::F16, |s, _, _, _| hbits(h(s[0]).floor())),
    fop("cvt.rzi.sat.f16.f16", H, &[H], Cmp::F16, |s, _, _, _| hsat(hbits(h(s[0]).trunc()))),
    fop("cvt.rni.bf16.bf16", H, &[H], Cmp::Bf16, |s, _, _, _| bbits(bh(s[0]).round_ties_even())),
    fop("cvt.rpi.bf16.bf16", H, &[H], Cmp::Bf16, |s, _, _, _| bbits(bh(s[0]).ceil())),
    // The high 32 bits of the 48-bit product of 24-bit operands.
    op("mul24.hi.u32", R, &[R, R], |s, _, _, _| ((s[0] & 0xff_ffff) * (s[1] & 0xff_ffff)) >> 16),
    op("mul24.hi.s32", R, &[R, R], |s, _, _, _| ((sx(s[0], 24) * sx(s[1], 24)) >> 16) as u64),
    // f32 arithmetic rounded toward zero, minus or plus infinity.
    ifop("add.{rnd}.f32", R, &[R, R], (0, 2), Cmp::F32, |s, m, _, _| add_dir(f32_of(s[0]), f32_of(s[1]), m)),
    ifop("sub.{rnd}.f32", R, &[R, R], (0, 2), Cmp::F32, |s, m, _, _| add_dir(f32_of(s[0]), -f32_of(s[1]), m)),
    ifop("mul.{rnd}.f32", R, &[R, R], (0, 2), Cmp::F32, |s, m, _, _| bits32(directed32(f64::from(f32_of(s[0])) * f64::from(f32_of(s[1])), 0.0, m))),
    ifop("fma.{rnd}.f32", R, &[R, R, R], (0, 2), Cmp::F32, |s, m, _, _| fma_dir(f32_of(s[0]), f32_of(s[1]), f32_of(s[2]), m)),
    // f64 arithmetic rounded toward zero, minus or plus infinity, against the exact
    // result rounded here.
    ifop("add.{rnd}.f64", D, &[D, D], (0, 2), Cmp::F64, |s, m, _, _| fma64(f64_of(s[0]), 1.0, f64_of(s[1]), m).to_bits()),
    ifop("sub.{rnd}.f64", D, &[D, D], (0, 2), Cmp::F64, |s, m, _, _| fma64(f64_of(s[0]), 1.0, -f64_of(s[1]), m).to_bits()),
    ifop("mul.{rnd}.f64", D, &[D, D], (0, 2), Cmp::F64, |s, m, _, _| mul64(f64_of(s[0]), f64_of(s[1]), m).to_bits()),
    ifop("fma.{rnd}.f64", D, &[D, D, D], (0, 2), Cmp::F64, |s, m, _, _| fma64(f64_of(s[0]), f64_of(s[1]), f64_of(s[2]), m).to_bits()),
    ifop("div.{rnd}.f64", D, &[D, D], (0, 2), Cmp::F64, |s, m, _, _| div64(f64_of(s[0]), f64_of(s[1]), m).to_bits()),
    ifop("sqrt.{rnd}.f64", D, &[D], (0, 2), Cmp::F64, |s, m, _, _| sqrt64(f64_of(s[0]), m).to_bits()),
    ifop("cvt.{rnd}.f32.f64", R, &[D], (0, 2), Cmp::F32, |s, m, _, _| bits32(directed32(f64_of(s[0]), 0.0, m))),
    // f32 and f64 to f16 and bf16 rounded toward zero, minus or plus infinity, and
    // with `.relu` and `.satfinite`; to the 8-bit floats and back.
    ifop("cvt.{rnd}.f16.f32", H, &[R], (0, 2), Cmp::F16, |s, m, _, _| cvt_f16(f64::from(f32_of(s[0])), m, false, false)),
    ifop("cvt.{rnd}.f16.f64", H, &[D], (0, 2), Cmp::F16, |s, m, _, _| cvt_f16(f64_of(s[0]), m, false, false)),
    ifop("cvt.{rnd}.bf16.f32", H, &[R], (0, 2), Cmp::Bf16, |s, m, _, _| cvt_bf16(f64::from(f32_of(s[0])), m, false, false)),
    fop("cvt.rn.satfinite.f16.f32", H, &[R], Cmp::F16, |s, _, _, _| cvt_f16(f64::from(f32_of(s[0])), 3, true, false)),
    fop("cvt.rz.relu.bf16.f32", H, &[R], Cmp::Bf16, |s, _, _, _| cvt_bf16(f64::from(f32_of(s[0])), 0, false, true)),
    fop("cvt.rn.relu.f16x2.f32", R, &[R, R], Cmp::F16x2, |s, _, _, _| cvt_f16(f64::from(f32_of(s[0])), 3, false, true) << 16 | cvt_f16(f64::from(f32_of(s[1])), 3, false, true)),
    fop("cvt.rn.satfinite.f16x2.f32", R, &[R, R], Cmp::F16x2, |s, _, _, _| cvt_f16(f64::from(f32_of(s[0])), 3, true, false) << 16 | cvt_f16(f64::from(f32_of(s[1])), 3, true, false)),
    fop("cvt.rz.relu.satfinite.f16x2.f32", R, &[R, R], Cmp::F16x2, |s, _, _, _| cvt_f16(f64::from(f32_of(s[0])), 0, true, true) << 16 | cvt_f16(f64::from(f32_of(s[1])), 0, true, true)),
    fop("cvt.rn.relu.satfinite.f16x2.f32", R, &[R, R], Cmp::F16x2, |s, _, _, _| cvt_f16(f64::from(f32_of(s[0])), 3, true, true) << 16 | cvt_f16(f64::from(f32_of(s[1])), 3, true, true)),
    fop("cvt.rn.relu.bf16x2.f32", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| cvt_bf16(f64::from(f32_of(s[0])), 3, false, true) << 16 | cvt_bf16(f64::from(f32_of(s[1])), 3, false, true)),
    fop("cvt.rn.satfinite.bf16x2.f32", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| cvt_bf16(f64::from(f32_of(s[0])), 3, true, false) << 16 | cvt_bf16(f64::from(f32_of(s[1])), 3, true, false)),
    fop("cvt.rn.bf16x2.f32", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| cvt_bf16(f64::from(f32_of(s[0])), 3, false, false) << 16 | cvt_bf16(f64::from(f32_of(s[1])), 3, false, false)),
    fop("cvt.rn.relu.satfinite.bf16x2.f32", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| cvt_bf16(f64::from(f32_of(s[0])), 3, true, true) << 16 | cvt_bf16(f64::from(f32_of(s[1])), 3, true, true)),
    fop("cvt.rz.satfinite.bf16x2.f32", R, &[R, R], Cmp::Bf16x2, |s, _, _, _| cvt_bf16(f64::from(f32_of(s[0])), 0, true, false) << 16 | cvt_bf16(f64::from(f32_of(s[1])), 0, true, false)),
    fop("cvt.rn.satfinite.e4m3x2.f32", H, &[R, R], Cmp::E4m3x2, |s, _, _, _| cvt_fp8x2(s[0], s[1], false, false)),
    // Not drawn: `cvt.rn.satfinite.relu.e4m3x2.f32` and `.e5m2x2.f32`. `.relu` "clamps
    // the result to 0 if negative" for every destination type alike; ptxvm makes -0 +0
    // into f16 and bf16 (as here, and as the H100 does into f16: tests/hw/leaf_arith/
    // 00618_arith, thread 15) but keeps -0 (0x80) into the 8-bit formats, which no
    // golden pins.
    fop("cvt.rn.satfinite.e5m2x2.f32", H, &[R, R], Cmp::E5m2x2, |s, _, _, _| cvt_fp8x2(s[0], s[1], true, false)),
    fop("cvt.rn.satfinite.e4m3x2.f16x2", H, &[R], Cmp::E4m3x2, |s, _, _, _| cvt_fp8x2_f16x2(s[0], false)),
    fop("cvt.rn.satfinite.e5m2x2.f16x2", H, &[R], Cmp::E5m2x2, |s, _, _, _| cvt_fp8x2_f16x2(s[0], true)),
    fop("cvt.rn.f16x2.e4m3x2", R, &[H], Cmp::F16x2, |s, _, _, _| cvt_f16x2_fp8(s[0], false, false)),
    fop("cvt.rn.relu.f16x2.e4m3x2", R, &[H], Cmp::F16x2, |s, _, _, _| cvt_f16x2_fp8(s[0], false, true)),
    fop("cvt.rn.f16x2.e5m2x2", R, &[H], Cmp::F16x2, |s, _, _, _| cvt_f16x2_fp8(s[0], true, false)),
    fop("cvt.rn.relu.f16x2.e5m2x2", R, &[H], Cmp::F16x2, |s, _, _, _| cvt_f16x2_fp8(s[0], true, true)),
    op("cvt.rmi.s32.f32", R, &[R], |s, _, _, _| u64::from(f32_of(s[0]).floor() as i32 as u32)),
    op("cvt.rpi.u32.f32", R, &[R], |s, _, _, _| u64::from(f32_of(s[0]).ceil() as u32)),
    // Conversions between float formats.
    fop("cvt.rn.f16.f32", H, &[R], Cmp::F16, |s, _, _, _| u64::from(f16::from_f32(f32_of(s[0])).to_bits())),
    fop("cvt.f32.f16", R, &[H], Cmp::F32, |s, _, _, _| bits32(f16::from_bits(s[0] as u16).to_f32())),
    fop("cvt.rn.bf16.f32", H, &[R], Cmp::Bf16, |s, _, _, _| u64::from(bf16::from_f32(f32_of(s[0])).to_bits())),
    fop("cvt.f32.bf16", R, &[H], Cmp::F32, |s, _, _, _| bits32(bf16::from_bits(s[0] as u16).to_f32())),
    fop("cvt.rn.f16.f64", H, &[D], Cmp::F16, |s, _, _, _| hbits(f64_of(s[0]))),
    fop("cvt.rn.f16x2.f32", R, &[R, R], Cmp::F16x2, |s, _, _, _| u64::from(f16::from_f32(f32_of(s[0])).to_bits()) << 16 | u64::from(f16::from_f32(f32_of(s[1])).to_bits())),
    op("cvt.rzi.s16.f16", H, &[H], |s, _, _, _| { let x = h(s[0]); if x.is_nan() { 0 } else { (x as i16) as u16 as u64 } }),
    fop("cvt.rn.f16.s32", H, &[R], Cmp::F16, |s, _, _, _| hbits(sx(s[0], 32) as f64)),
];

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

/// The code of a control-flow form (`{brx}`, `{fadd}`, `{fmix}`, `{fptr}`), the `n`th
/// instruction, with `ops` its destination and sources.
fn control(o: &Op, i: &Inst, n: usize, ops: &[String]) -> Option<String> {
    if let Some(kind) = ["{wmma0}", "{wmma1}", "{wmma2}"].iter().position(|t| o.ptx.contains(t)) {
        return Some(wmma_text(kind as u64));
    }
    if o.ptx.contains("{cvta") {
        // The source is `[%sa+8k]`: the same word through a converted address.
        let (d, at) = (&ops[0], ops[1].trim_start_matches("[%sa"));
        let mut s = String::from("\tcvta.shared.u64 %a3, %sa;\n");
        if o.ptx.contains("{cvtato}") {
            s += &format!("\tcvta.to.shared.u64 %a3, %a3;\n\tld.shared.u64 {d}, [%a3{at};\n");
        } else {
            s += &format!("\tld.u64 {d}, [%a3{at};\n");
        }
        return Some(s);
    }
    if o.ptx.contains("{bulkst}") {
        let (dst, src) = (&ops[0], &ops[1]);
        return Some(format!(
            "\tcp.async.bulk.global.shared::cta.bulk_group {dst}, {src}, 16;\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;\n"
        ));
    }
    if o.ptx.contains("{bulkld}") {
        // The mbarrier: the thread's shared word outside the destination pair.
        let (dst, src, bar) = (&ops[0], &ops[1], W::S.name(2 - 2 * i.srcs[0]));
        return Some(format!(
            "\tmbarrier.init.shared.b64 {bar}, 1;\n\tmbarrier.arrive.expect_tx.shared.b64 %fp0, {bar}, 16;\n\
             \tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes {dst}, {src}, 16, {bar};\n\
             \tmbarrier.try_wait.parity.shared.b64 %pt, {bar}, 0;\n\tmbarrier.inval.shared.b64 {bar};\n"
        ));
    }
    if o.ptx.contains("{cpmbar}") {
        let (p, at) = (&ops[0], &ops[1]);
        let noinc = if i.imm == 1 { ".noinc" } else { "" };
        return Some(format!(
            "\tmbarrier.init.shared.b64 {at}, 1;\n\tcp.async.mbarrier.arrive{noinc}.shared.b64 {at};\n\
             \tmbarrier.test_wait.parity.shared.b64 {p}, {at}, 0;\n\tmbarrier.inval.shared.b64 {at};\n"
        ));
    }
    if o.ptx.contains("{mbar2}") {
        let (p, at) = (&ops[0], &ops[1]);
        let partner = at.replace("[%sa", "[%a3");
        return Some(format!(
            "\tmbarrier.init.shared.b64 {at}, 1;\n\tbar.sync 0;\n\tadd.s64 %a3, %sa, 1024;\n\tsetp.lt.u32 %pt, %t0, 32;\n\
             \t@%pt mbarrier.try_wait.parity.shared.b64 {p}, {partner}, 0;\n\
             \t@!%pt mbarrier.arrive.shared.b64 %fp0, {at};\n\t@!%pt mbarrier.try_wait.parity.shared.b64 {p}, {at}, 0;\n\
             \tbar.sync 0;\n\tmbarrier.inval.shared.b64 {at};\n"
        ));
    }
    if o.ptx.contains("{mbar}") {
        let (c, n, wait) = mbar_parts(i.imm);
        let (p, at) = (&ops[0], &ops[1]);
        let mut s = format!("\tmbarrier.init.shared.b64 {at}, {c};\n");
        if n > 0 {
            s += &format!("\tmbarrier.arrive.shared.b64 %fp0, {at}, {n};\n");
        }
        let test = if wait { "try_wait" } else { "test_wait" };
        s += &format!(
            "\tmbarrier.{test}.parity.shared.b64 {p}, {at}, 0;\n\tmbarrier.inval.shared.b64 {at};\n"
        );
        return Some(s);
    }
    if !["{brx}", "{fadd}", "{fmix}", "{fptr}"].iter().any(|t| o.ptx.contains(t)) {
        return None;
    }
    let (d, a) = (&ops[0], &ops[1]);
    if o.ptx.contains("{brx}") {
        let mut s = format!(
            "\tand.b32 %t1, {a}, 3;\nT{n}: .branchtargets L{n}_0, L{n}_1, L{n}_2, L{n}_3;\n\tbrx.idx %t1, T{n};\n"
        );
        for j in 0..4 {
            s += &format!("L{n}_{j}:\n\tmov.b32 {d}, {};\n\tbra J{n};\n", brx_value(i.imm, j));
        }
        return Some(s + &format!("J{n}:\n"));
    }
    let b = &ops[2];
    if o.ptx.contains("{fadd}") {
        return Some(format!("\tcall ({d}), fadd, ({a}, {b});\n"));
    }
    let callee = if o.ptx.contains("{fmix}") {
        "fmix".to_string()
    } else if o.ptx.contains("{fptr}") {
        "%fp2, proto".to_string()
    } else {
        return None;
    };
    let mut s = String::new();
    if o.ptx.contains("{fptr}") {
        s += &format!(
            "\tmov.u64 %fp0, fmix;\n\tmov.u64 %fp1, fsub;\n\tand.b32 %t1, {a}, 1;\n\tsetp.ne.u32 %pt, %t1, 0;\n\tselp.b64 %fp2, %fp0, %fp1, %pt;\n"
        );
    }
    let proto = if o.ptx.contains("{fptr}") {
        "\tproto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);\n"
    } else {
        ""
    };
    let (callee, args) = match callee.split_once(", ") {
        Some((f, p)) => (f.to_string(), format!("(ca, cb), {p}")),
        None => (callee, "(ca, cb)".to_string()),
    };
    s += &format!(
        "\t{{\n\t.param .b32 ca;\n\t.param .b32 cb;\n\t.param .b32 cr;\n{proto}\tst.param.b32 [ca], {a};\n\tst.param.b32 [cb], {b};\n\tcall (cr), {callee}, {args};\n\tld.param.b32 {d}, [cr];\n\t}}\n"
    );
    Some(s)
}

fn emit(prog: &[Inst]) -> String {
    let mut s = String::from(".version 8.3\n.target sm_90\n.address_size 64\n\n");
    for (name, ty, elems) in CONSTS {
        let elems: Vec<String> = elems
            .iter()
            .map(|&e| if ty == "f32" { format!("0f{e:08X}") } else { format!("{e:#x}") })
            .collect();
        s += &format!(".const .align 16 .{ty} {name}[{}] = {{{}}};\n", elems.len(), elems.join(", "));
    }
    s += "\n";
    s += FUNCS;
    s += ".visible .entry k(.param .u64 in, .param .u64 out";
    for (_, decl, _) in PARAMS {
        s += &format!(", .param {decl}");
    }
    s += ")\n{\n\
         \t.reg .pred %p<2>;\n\t.reg .b16 %h<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %t<3>;\n\t.reg .b64 %a<4>;\n\t.reg .b64 %sa;\n\t.reg .f64 %fm<4>;\n\t.reg .b32 %fa<10>;\n\t.reg .f32 %fs<2>;\n\t.reg .b64 %fp<3>;\n\t.reg .pred %pt;\n\t.reg .b32 %wf<24>;\n\
         \t.shared .align 16 .b8 sh[2048];\n\t.local .align 16 .b8 lo[32];\n\
         \tld.param.u64 %a0, [in];\n\tld.param.u64 %a1, [out];\n\tcvta.to.global.u64 %a0, %a0;\n\tcvta.to.global.u64 %a1, %a1;\n\
         \tmov.u32 %t0, %tid.x;\n\tmul.wide.u32 %a2, %t0, 136;\n\tadd.s64 %a0, %a0, %a2;\n\tmul.wide.u32 %a2, %t0, 208;\n\tadd.s64 %a1, %a1, %a2;\n";
    // Loads, some of types narrower than the register: %h0 from .s8, %r0 from .s8, %r1
    // from .u16, %rd0 from .s32 (sign- or zero-extended to the register).
    for k in 0..4 {
        let (th, tr, td) = match k {
            0 => ("s8", "s8", "s32"),
            1 => ("u16", "u16", "u64"),
            _ => ("u16", "u32", "u64"),
        };
        s += &format!("\tld.global.{th} %h{k}, [%a0+{}];\n", 8 * k);
        s += &format!("\tld.global.{tr} %r{k}, [%a0+{}];\n", 8 * (4 + k));
        s += &format!("\tld.global.{td} %rd{k}, [%a0+{}];\n", 8 * (8 + k));
    }
    // The memory words: the thread's 32 bytes of global, shared and local memory, all
    // from the same four input words.
    s += "\tmov.u64 %sa, sh;\n\tmul.wide.u32 %a2, %t0, 32;\n\tadd.s64 %sa, %sa, %a2;\n";
    for k in 0..4 {
        s += &format!(
            "\tld.global.u64 %a3, [%a0+{}];\n\tst.global.u64 [%a1+{}], %a3;\n\tst.shared.u64 [%sa+{}], %a3;\n\tst.local.u64 [lo+{}], %a3;\n",
            104 + 8 * k,
            MEM_AT + 8 * k,
            8 * k,
            8 * k
        );
    }
    s += "\tld.global.u32 %t1, [%a0+96];\n\tand.b32 %t2, %t1, 1;\n\tsetp.ne.u32 %p0, %t2, 0;\n\
          \tand.b32 %t2, %t1, 2;\n\tsetp.ne.u32 %p1, %t2, 0;\n";
    for (n, i) in prog.iter().enumerate() {
        let o = &OPS[i.op];
        let name = o
            .ptx
            .replace("{cmp}", CMPS[i.imm as usize % 14])
            .replace("{class}", CLASSES[i.imm as usize % 6])
            .replace("{rnd}", ROUNDINGS[i.imm as usize % 3])
            .replace("{c6}", VCMPS[(i.imm / 49 % 6) as usize])
            .replace("{pm}", PRMT_MODES[i.imm as usize % 6])
            .replace("{vd}", "")
            .replace("{vsd}", "")
            .replace("{v}", "")
            .replace("{s2}", "")
            .replace("{s4}", "")
            .replace("{brace}", "")
            .replace("{mma}", "")
            .replace("{mma64}", "")
            .replace("{bc}", "");
        // The remaining tags only steer how the operands are written.
        let name = match name.find('{') {
            Some(at) if name.ends_with('}') => name[..at].to_string(),
            _ => name,
        };
        let mut ops: Vec<String> = match o.lanes {
            _ if o.dst == N => vec![],
            _ if matches!(o.dst, RP | PQ) => vec![o.dst.name(i.dst)],
            1 => vec![o.dst.name(i.dst)],
            n => {
                let dsts: Vec<String> = (0..n).map(|j| o.dst.name((i.dst + j) % 4)).collect();
                vec![format!("{{{}}}", dsts.join(", "))]
            }
        };
        let names: Vec<String> = o.srcs.iter().zip(&i.srcs).map(|(w, &k)| w.name(k)).collect();
        if o.ptx.contains("{mma64}") {
            // The f64 mma's A, B and C elements: the low bytes of its sources as s8,
            // converted into %fm0 ... %fm3.
            for (k, name) in names.iter().enumerate() {
                s += &format!("\tcvt.rn.f64.s8 %fm{k}, {name};\n");
            }
            ops.extend(["{%fm0}", "{%fm1}", "{%fm2, %fm3}"].map(String::from));
        } else if let Some(kind) = ["{mmah}", "{mmab}", "{mmat}"].iter().position(|t| o.ptx.contains(t)) {
            // The half-precision and tf32 mma's fragments in %fa0 ... %fa9: A and B
            // elements from signed 4-bit fields (f16, bf16) or the low byte (tf32), C
            // elements from the low byte, each as an f32 first (see `mma_half`).
            for (k, name) in names.iter().enumerate() {
                if k < 6 && kind < 2 {
                    for (f, at) in [(0, 0), (1, 16)] {
                        s += &format!("\tbfe.s32 %t1, {name}, {at}, 4;\n\tcvt.rn.f32.s32 %fs{f}, %t1;\n");
                    }
                    let ty = if kind == 0 { "f16x2" } else { "bf16x2" };
                    s += &format!("\tcvt.rn.{ty}.f32 %fa{k}, %fs1, %fs0;\n");
                } else {
                    s += &format!(
                        "\tbfe.s32 %t1, {name}, 0, 8;\n\tcvt.rn.f32.s32 %fs0, %t1;\n\tmov.b32 %fa{k}, %fs0;\n"
                    );
                }
            }
            ops.extend(
                ["{%fa0, %fa1, %fa2, %fa3}", "{%fa4, %fa5}", "{%fa6, %fa7, %fa8, %fa9}"].map(String::from),
            );
        } else if o.ptx.contains("{mma}") {
            // mma's A, B and C fragments, each a vector.
            for part in [&names[..4], &names[4..6], &names[6..]] {
                ops.push(format!("{{{}}}", part.join(", ")));
            }
        } else if o.ptx.contains("{brace}") {
            // A vector operand: the registers after the address (all of them for mov).
            let at = usize::from(matches!(o.srcs[0], M | S | L));
            ops.extend(names[..at].iter().cloned());
            ops.push(format!("{{{}}}", names[at..].join(", ")));
        } else {
            ops.extend(names);
        }
        if o.ptx.contains("{fns}") {
            // fns's base, between the mask and the offset.
            ops.insert(2, i.imm.to_string());
        }
        if o.ptx.contains("{ldm}") {
            // ldmatrix's one destination, as a vector.
            ops[0] = format!("{{{}}}", ops[0]);
        }
        let copy = ["4}", "8}", "16}"]
            .iter()
            .find(|t| o.ptx.contains(&format!("{{cp{t}")) || o.ptx.contains(&format!("{{cpi{t}")));
        if let Some(size) = copy {
            // cp.async's size, then its source size or ignore-src predicate, and the wait.
            let size: u64 = size.trim_end_matches('}').parse().unwrap();
            ops.insert(2, size.to_string());
            if o.imm.1 > 0 && i.imm <= size {
                ops.push(i.imm.to_string());
            }
        }
        if o.ptx.contains("{bc}") {
            // shfl's lane (or offset) and clamp/segment operands as immediates.
            let (b, c) = shfl_bc(i.imm);
            ops.insert(2, b.to_string());
            ops.insert(3, format!("{c:#x}"));
        }
        if o.imm.1 > 0 && !o.ptx.contains('{') {
            ops.push(i.imm.to_string());
        }
        if o.ptx.contains("{v") {
            ops[1] += SELS[(i.imm % 7) as usize];
            ops[2] += SELS[(i.imm / 7 % 7) as usize];
            if o.ptx.contains("{vd}") {
                ops[0] += SELS[1 + (i.imm / 49 % 6) as usize];
            }
            if o.ptx.contains("{vsd}") {
                ops[0] += SELS[1 + (i.imm / 294 % 6) as usize];
            }
        }
        if o.ptx.contains("{neg}") {
            for (op, neg) in ops[1..].iter_mut().zip(VMAD_NEGS[(i.imm / 49 % 6) as usize]) {
                if neg {
                    op.insert(0, '-');
                }
            }
        }
        for (n, tag) in [(2, "{s2}"), (4, "{s4}")] {
            if o.ptx.contains(tag) {
                for (op, sel) in ops.iter_mut().zip(simd_sels(n, i.imm)) {
                    *op += &sel;
                }
            }
        }
        if let Some(text) = control(o, i, n, &ops) {
            s += &text;
            continue;
        }
        s += &format!("\t{name} {};\n", ops.join(", "));
        if copy.is_some() {
            s += if i.imm % 2 == 0 {
                "\tcp.async.commit_group;\n\tcp.async.wait_group 0;\n"
            } else {
                "\tcp.async.wait_all;\n"
            };
        }
    }
    for k in 0..4 {
        s += &format!("\tst.global.u16 [%a1+{}], %h{k};\n", 8 * k);
        s += &format!("\tst.global.u32 [%a1+{}], %r{k};\n", 8 * (4 + k));
        s += &format!("\tst.global.u64 [%a1+{}], %rd{k};\n", 8 * (8 + k));
    }
    for k in 0..2 {
        s += &format!("\tselp.u32 %t1, 1, 0, %p{k};\n\tst.global.u32 [%a1+{}], %t1;\n", 8 * (12 + k));
    }
    for k in 0..4 {
        s +=
            &format!("\tld.shared.u64 %a3, [%sa+{}];\n\tst.global.u64 [%a1+{}], %a3;\n", 8 * k, 8 * (18 + k));
        s += &format!("\tld.local.u64 %a3, [lo+{}];\n\tst.global.u64 [%a1+{}], %a3;\n", 8 * k, 8 * (22 + k));
    }
    s + "\tret;\n}\n"
}

/// What is known of a register: its bits, or only that it is a NaN (a float
/// instruction made it; the ISA fixes NaN-ness, not the payload), or nothing (an
/// integer instruction read such a NaN's bits).
#[derive(Clone, Copy, PartialEq)]
enum Known {
    Bits,
    /// A NaN of this format.
    Nan(Cmp),
    /// An approximate result: checked in the output, unknown to what reads it.
    Approx,
    Nothing,
}

/// The register file (an index into [`Thread::regs`]) of a register or memory word.
fn file(w: W) -> usize {
    match w {
        H => 0,
        R => 1,
        D => 2,
        P => 3,
        M | M2 => 4,
        N | Z | X(_) => 5,
        NP => 3,
        RP | PQ => unreachable!("a destination of two registers"),
        S | S2 => 6,
        L | L2 => 7,
        K(..) => unreachable!("a constant is no register"),
    }
}

/// One thread of the reference: register files H, R, D, P, the memory words, a sink
/// for `red`, the shared and local words; what is known of each, and the carry flag.
struct Thread {
    regs: [[u64; 4]; 8],
    cmp: [[Cmp; 4]; 8],
    known: [[Known; 4]; 8],
    cf: bool,
    cf_unknown: bool,
}

impl Thread {
    fn new(input: &[u64]) -> Thread {
        let mut regs: [[u64; 4]; 8] = [[0; 4]; 8];
        for k in 0..4 {
            regs[0][k] = input[k] & 0xffff;
            regs[1][k] = input[4 + k] & 0xffff_ffff;
            regs[2][k] = input[8 + k];
        }
        // ld of a type narrower than the register extends by the type's signedness
        // (PTX ISA 5.2.4, "Operand Size Exceeding Instruction-Type Size").
        regs[0][0] = sx(input[0], 8) as u64 & 0xffff;
        regs[1][0] = sx(input[4], 8) as u64 & 0xffff_ffff;
        regs[1][1] = input[5] & 0xffff;
        regs[2][0] = sx(input[8], 32) as u64;
        regs[3][0] = input[12] & 1;
        regs[3][1] = (input[12] >> 1) & 1;
        for f in [4, 6, 7] {
            regs[f].copy_from_slice(&input[13..17]);
        }
        Thread { regs, cmp: [[Cmp::Bits; 4]; 8], known: [[Known::Bits; 4]; 8], cf: false, cf_unknown: false }
    }

    /// The sources' values, and whether the ISA leaves any of them unknown: a pair of
    /// memory words gives both, a constant or parameter the two words of its image
    /// there.
    fn read(&self, o: &Op, i: &Inst) -> (Vec<u64>, bool) {
        let (mut srcs, mut worst) = (vec![], vec![]);
        for (&w, &k) in o.srcs.iter().zip(&i.srcs) {
            let k = usize::from(k);
            match w {
                K(name, stride, _) => srcs.extend(image_words(name, usize::from(stride) * k)),
                Z | X(_) => srcs.push(0),
                NP => {
                    srcs.push(self.regs[3][k] ^ 1);
                    worst.push(self.known[3][k]);
                }
                M2 | S2 | L2 => {
                    srcs.extend_from_slice(&self.regs[file(w)][2 * k..2 * k + 2]);
                    worst.extend_from_slice(&self.known[file(w)][2 * k..2 * k + 2]);
                }
                _ => {
                    srcs.push(self.regs[file(w)][k]);
                    worst.push(self.known[file(w)][k]);
                }
            }
        }
        if o.ptx.starts_with("mbarrier") {
            // mbarrier.init overwrites its word, whatever it held.
            return (srcs, false);
        }
        let float_in = reads_float(o);
        let reads_cf = matches!(o.cf, Cf::Read(_) | Cf::ReadWrite(_));
        let unknown = worst.into_iter().any(|k| match k {
            Known::Bits => false,
            Known::Nan(fmt) => float_in != Some(fmt),
            Known::Approx | Known::Nothing => true,
        }) || (reads_cf && self.cf_unknown);
        (srcs, unknown)
    }

    /// Runs a thread's own instruction on its sources.
    fn run(&mut self, o: &Op, i: &Inst, srcs: &[u64], unknown: bool) {
        if matches!(o.cf, Cf::Write(_) | Cf::ReadWrite(_)) {
            self.cf_unknown = unknown;
        }
        if let Some(&pair @ (M2 | S2 | L2)) = o.srcs.first().filter(|_| o.dst == N) {
            // A form that writes a pair of memory words (a 16-byte cp.async): once per
            // word j, from word j of each pair among its sources, then j.
            let (f, k) = (file(pair), 2 * usize::from(i.srcs[0]));
            for j in 0..2 {
                let (mut at, mut word_srcs) = (0, vec![]);
                for w in o.srcs {
                    let two = matches!(w, M2 | S2 | L2);
                    word_srcs.push(srcs[at + if two { j } else { 0 }]);
                    at += if two { 2 } else { 1 };
                }
                word_srcs.push(j as u64);
                let mut mem = self.regs[f][k + j];
                (o.f)(&word_srcs, i.imm, &mut self.cf, &mut mem);
                self.regs[f][k + j] = mem;
                self.cmp[f][k + j] = Cmp::Bits;
                self.known[f][k + j] = Self::state(o, unknown, mem);
            }
            if o.ptx.contains("{bulkld}") {
                // The mbarrier's word: the implementation's encoding.
                self.known[f][2 - k] = Known::Nothing;
            }
            return;
        }
        // A memory instruction's word is its first source.
        let word = o.srcs.first().filter(|w| matches!(w, M | S | L)).map(|w| (file(*w), i.srcs[0] as usize));
        let mut mem = word.map_or(0, |(f, w)| self.regs[f][w]);
        // Every destination from the sources as they were before the instruction.
        let imms: Vec<u64> = if o.lanes > 1 { (0..u64::from(o.lanes)).collect() } else { vec![i.imm] };
        let vs: Vec<u64> = imms.into_iter().map(|imm| (o.f)(srcs, imm, &mut self.cf, &mut mem)).collect();
        self.write(o, i, &vs, unknown);
        if let Some((f, w)) = word {
            self.regs[f][w] = mem;
            if o.ptx.starts_with("mbarrier") {
                // The mbarrier object's encoding is the implementation's.
                self.cmp[f][w] = Cmp::Bits;
                self.known[f][w] = Known::Nothing;
                return;
            }
            // The word holds more than a narrower float's bits: compared whole, and
            // free when the float is a NaN of unknown payload.
            self.cmp[f][w] = if o.cmp == Cmp::F64 { Cmp::F64 } else { Cmp::Bits };
            self.known[f][w] = Self::state(o, unknown, mem);
        }
    }

    fn state(o: &Op, unknown: bool, v: u64) -> Known {
        if unknown {
            Known::Nothing
        } else if matches!(o.cmp, Cmp::Approx(_)) {
            Known::Approx
        } else if is_nan(o.cmp, v) {
            Known::Nan(o.cmp)
        } else {
            Known::Bits
        }
    }

    /// Writes the destinations `dst`, `dst + 1`, ... (modulo 4).
    fn write(&mut self, o: &Op, i: &Inst, vs: &[u64], unknown: bool) {
        if matches!(o.dst, RP | PQ) {
            let k = usize::from(i.dst);
            let first = if o.dst == RP { (1, k, vs[0] & 0xffff_ffff) } else { (3, k, vs[0] & 1) };
            for (f, k, v) in [first, (3, if o.dst == RP { k % 2 } else { 1 - k }, vs[1] & 1)] {
                self.regs[f][k] = v;
                self.cmp[f][k] = Cmp::Bits;
                self.known[f][k] = Self::state(o, unknown, v);
            }
            return;
        }
        let f = file(o.dst);
        for (j, &v) in (0u8..).zip(vs) {
            // An approximate form's operands are kept whole (two of them for `div`).
            let mask = if matches!(o.cmp, Cmp::Approx(_)) { u64::MAX } else { o.dst.mask() };
            let (k, v) = (usize::from((i.dst + j) % 4), v & mask);
            self.regs[f][k] = v;
            self.cmp[f][k] = o.cmp;
            self.known[f][k] = Self::state(o, unknown, v);
        }
    }

    /// The output words, and how each compares (`None` when its bits are the
    /// machine's to choose): registers h, r, rd, the predicates, then the global,
    /// shared and local words.
    fn output(&self) -> (Vec<u64>, Vec<Option<Cmp>>) {
        let mut out = Vec::with_capacity(OUT_WORDS);
        let mut how = Vec::with_capacity(OUT_WORDS);
        for (f, n) in [(0, 4), (1, 4), (2, 4), (3, 2), (4, 4), (6, 4), (7, 4)] {
            for k in 0..n {
                out.push(self.regs[f][k]);
                let (known, cmp) = (self.known[f][k], self.cmp[f][k]);
                let free = known == Known::Nothing || (matches!(known, Known::Nan(_)) && cmp == Cmp::Bits);
                how.push((!free).then_some(cmp));
            }
        }
        (out, how)
    }
}

/// The reference: every thread's output words after the program, and how each
/// compares. A collective instruction (`bar.red`, `mma`) reads its group's sources,
/// and its result is unknown to all of the group when any of them is.
fn reference(prog: &[Inst], input: &[u64]) -> Vec<(Vec<u64>, Vec<Option<Cmp>>)> {
    let mut threads: Vec<Thread> = input.chunks(IN_WORDS).map(Thread::new).collect();
    for i in prog {
        let o = &OPS[i.op];
        let reads: Vec<(Vec<u64>, bool)> = threads.iter().map(|t| t.read(o, i)).collect();
        let Some((size, g)) = o.group else {
            for (t, (srcs, unknown)) in threads.iter_mut().zip(&reads) {
                t.run(o, i, srcs, *unknown);
            }
            continue;
        };
        for (ts, rs) in threads.chunks_mut(size).zip(reads.chunks(size)) {
            let srcs: Vec<Vec<u64>> = rs.iter().map(|r| r.0.clone()).collect();
            let unknown = rs.iter().any(|r| r.1);
            for (rank, t) in ts.iter_mut().enumerate() {
                let vs: Vec<u64> = (0..u64::from(o.lanes)).map(|j| g(&srcs, rank, j, i.imm)).collect();
                t.write(o, i, &vs, unknown);
                if o.ptx.starts_with("mbarrier") {
                    // The mbarrier object's encoding is the implementation's.
                    t.known[file(o.srcs[0])][usize::from(i.srcs[0])] = Known::Nothing;
                }
            }
        }
    }
    threads.iter().map(Thread::output).collect()
}

/// The float format an instruction reads its sources as (its last type), if any: then
/// the ISA fixes its result whatever a NaN operand's bits are, up to the result's own
/// NaN bits (`abs` and `neg` of a NaN included). `copysign` reads a sign bit, which a
/// NaN's payload decides, a load (of `.f32` too) copies the bits, and `slct` copies
/// the bits of `a` or `b`.
fn reads_float(o: &Op) -> Option<Cmp> {
    if o.ptx.starts_with("copysign")
        || o.ptx.starts_with("ld.")
        || o.ptx.contains(".xorsign")
        || o.ptx.starts_with("slct")
    {
        return None;
    }
    match o.ptx.rsplit('.').next()? {
        "f16" => Some(Cmp::F16),
        "f16x2" => Some(Cmp::F16x2),
        "bf16" => Some(Cmp::Bf16),
        "bf16x2" => Some(Cmp::Bf16x2),
        "e4m3x2" => Some(Cmp::E4m3x2),
        "e5m2x2" => Some(Cmp::E5m2x2),
        "f32" => Some(Cmp::F32),
        "f64" => Some(Cmp::F64),
        _ => None,
    }
}

fn is_nan(how: Cmp, v: u64) -> bool {
    match how {
        Cmp::Bits | Cmp::Approx(_) => false,
        Cmp::F16 => f16::from_bits(v as u16).is_nan(),
        Cmp::F16x2 => f16::from_bits(v as u16).is_nan() || f16::from_bits((v >> 16) as u16).is_nan(),
        Cmp::Bf16 => bf16::from_bits(v as u16).is_nan(),
        Cmp::Bf16x2 => bf16::from_bits(v as u16).is_nan() || bf16::from_bits((v >> 16) as u16).is_nan(),
        Cmp::E4m3x2 => v & 0x7f == 0x7f || (v >> 8) & 0x7f == 0x7f,
        Cmp::E5m2x2 => v & 0x7f > 0x7c || (v >> 8) & 0x7f > 0x7c,
        Cmp::F32 => f32_of(v).is_nan(),
        Cmp::F64 => f64_of(v).is_nan(),
    }
}

fn same(how: Option<Cmp>, got: u64, want: u64) -> bool {
    match how {
        None => true,
        Some(Cmp::F16x2) => {
            (0..2).all(|k| same(Some(Cmp::F16), (got >> (16 * k)) & 0xffff, (want >> (16 * k)) & 0xffff))
        }
        Some(Cmp::Bf16x2) => {
            (0..2).all(|k| same(Some(Cmp::Bf16), (got >> (16 * k)) & 0xffff, (want >> (16 * k)) & 0xffff))
        }
        // One byte: a NaN of its format in both, or the same bits.
        Some(how @ (Cmp::E4m3x2 | Cmp::E5m2x2)) => {
            (0..2).all(|k| {
                let (g, w) = ((got >> (8 * k)) & 0xff, (want >> (8 * k)) & 0xff);
                (is_nan(how, g) && is_nan(how, w)) || g == w
            }) && got >> 16 == want >> 16
        }
        Some(Cmp::Approx(ax)) => approx_ok(ax, want, got),
        Some(how) => (is_nan(how, got) && is_nan(how, want)) || got == want,
    }
}

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
