//! Models of the video instructions (PTX ISA 9.7.18): the scalar ones with their
//! selectors, merges and secondary operations, `vmad`, and the SIMD ones.

use super::*;

/// The selectors of the video forms: none, then `.b0`-`.b3`, `.h0`, `.h1`.
pub(crate) const SELS: [&str; 7] = ["", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"];

/// partSelectSignExtend: the part of `v` that selector `sel` (an index into [`SELS`])
/// names, extended to a signed 33-bit value.
pub(crate) fn part(v: u64, sel: usize, signed: bool) -> i128 {
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
pub(crate) fn vid(
    kind: u8,
    signs: [bool; 3],
    sat: bool,
    sec: Option<u8>,
    imm: u64,
    merge: bool,
    s: &[u64],
) -> u64 {
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
pub(crate) fn lanes_ref(op: u8, bits: u32, signed: bool, relu: bool, s: &[u64]) -> u64 {
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
pub(crate) const fn simd_choices(n: u32) -> (u64, u64) {
    if n == 2 { (16, 3) } else { (4096, 15) }
}

/// The immediate of a SIMD video form as its selectors `(d.mask, a.asel, b.bsel)`:
/// asel + A bsel + A² mask, A the selector choices. Selector digits name, highest
/// element first, the element of `b:a` each element takes.
pub(crate) fn simd_sels(n: u32, imm: u64) -> [String; 3] {
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
pub(crate) fn simd_ref(kind: u8, n: u32, signs: [bool; 3], sat: bool, add: bool, imm: u64, s: &[u64]) -> u64 {
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
pub(crate) const VCMPS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

/// `vset` (PTX ISA 9.7.18.1.4): compare the extended parts, 1 or 0, then the secondary
/// operation or the merge with c, all unsigned. The immediate holds asel + 7 bsel + 49
/// cmp (+ 294 (dsel - 1) when `merge`).
pub(crate) fn vset_ref(signs: [bool; 3], sec: Option<u8>, imm: u64, merge: bool, s: &[u64]) -> u64 {
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

/// Which of `vmad`'s sources a `{neg}` form negates, by `imm / 49 % 6`: none, a, b,
/// a and b, c, or all three (a and b together leave the product as it is, so the
/// product and c are never both negated, which ptxas refuses).
pub(crate) const VMAD_NEGS: [[bool; 3]; 6] = [
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
pub(crate) fn vmad_ref(signs: [bool; 2], po: bool, sat: bool, scale: u32, imm: u64, s: &[u64]) -> u64 {
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

/// optMerge of the video instructions: the low byte (`dsel` 1-4, `.b0`-`.b3`) or half
/// (5-6, `.h0`/`.h1`) of `d` into that place of `c`; `d` itself for no selector.
pub(crate) fn video_merge(dsel: usize, d: u64, c: u64) -> u64 {
    let (field, at) = match dsel {
        0 => return d,
        1..=4 => (0xff, 8 * (dsel - 1)),
        _ => (0xffff, 16 * (dsel - 5)),
    };
    ((d & field) << at) | (c & !(field << at))
}
