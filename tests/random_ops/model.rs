//! The reference machine: each thread's registers and memory words, what is known
//! of each, and how outputs compare.

use super::*;

/// What is known of a register: its bits, or only that it is a NaN (a float
/// instruction made it; the ISA fixes NaN-ness, not the payload), or nothing (an
/// integer instruction read such a NaN's bits).
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Known {
    Bits,
    /// A NaN of this format.
    Nan(Cmp),
    /// An approximate result: checked in the output, unknown to what reads it.
    Approx,
    Nothing,
}

/// The register file (an index into [`Thread::regs`]) of a register or memory word.
pub(crate) fn file(w: W) -> usize {
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
pub(crate) struct Thread {
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
        if holds_mbarrier(o) {
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
            if holds_mbarrier(o) {
                // The mbarrier object's encoding is the implementation's.
                self.cmp[f][w] = Cmp::Bits;
                self.known[f][w] = Known::Nothing;
                return;
            }
            // The word holds more than a narrower float's bits: compared whole, and
            // free when the float is a NaN of unknown payload.
            self.cmp[f][w] = if matches!(o.cmp, Cmp::F64 | Cmp::F32x2) { o.cmp } else { Cmp::Bits };
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
pub(crate) fn reference(prog: &[Inst], input: &[u64]) -> Vec<(Vec<u64>, Vec<Option<Cmp>>)> {
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
                if holds_mbarrier(o) {
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
/// NaN's payload decides, a load (of `.f32` too) copies the bits, `slct` copies the
/// bits of `a` or `b`, and `rcp`/`rsqrt` `.approx.ftz.f64` read only the high word,
/// where a NaN whose payload is all in the low word looks infinite.
pub(crate) fn reads_float(o: &Op) -> Option<Cmp> {
    if o.ptx.starts_with("copysign")
        || o.ptx.starts_with("ld.")
        || o.ptx.contains(".xorsign")
        || o.ptx.starts_with("slct")
        || o.ptx.ends_with(".approx.ftz.f64")
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

pub(crate) fn is_nan(how: Cmp, v: u64) -> bool {
    match how {
        Cmp::Bits | Cmp::Approx(_) => false,
        Cmp::F16 => f16::from_bits(v as u16).is_nan(),
        Cmp::F16x2 => f16::from_bits(v as u16).is_nan() || f16::from_bits((v >> 16) as u16).is_nan(),
        Cmp::Bf16 => bf16::from_bits(v as u16).is_nan(),
        Cmp::Bf16x2 => bf16::from_bits(v as u16).is_nan() || bf16::from_bits((v >> 16) as u16).is_nan(),
        Cmp::E4m3x2 => v & 0x7f == 0x7f || (v >> 8) & 0x7f == 0x7f,
        Cmp::E5m2x2 => v & 0x7f > 0x7c || (v >> 8) & 0x7f > 0x7c,
        Cmp::F32 => f32_of(v).is_nan(),
        Cmp::F32x2 => f32_of(v).is_nan() || f32_of(v >> 32).is_nan(),
        Cmp::F64 => f64_of(v).is_nan(),
    }
}

pub(crate) fn same(how: Option<Cmp>, got: u64, want: u64) -> bool {
    match how {
        None => true,
        Some(Cmp::F16x2) => {
            (0..2).all(|k| same(Some(Cmp::F16), (got >> (16 * k)) & 0xffff, (want >> (16 * k)) & 0xffff))
        }
        Some(Cmp::F32x2) => (0..2)
            .all(|k| same(Some(Cmp::F32), (got >> (32 * k)) & 0xffff_ffff, (want >> (32 * k)) & 0xffff_ffff)),
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

/// Whether the form keeps an mbarrier object in its first source's word: the word's
/// contents are then the implementation's (the ISA leaves the object opaque), and
/// `mbarrier.init` overwrites whatever the word held.
pub(crate) fn holds_mbarrier(o: &Op) -> bool {
    o.ptx.starts_with("mbarrier")
}
