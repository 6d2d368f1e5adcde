//! Models of the integer and bit instructions, written from the PTX ISA: `prmt`,
//! `cvt.pack`, `fns`, `bfe`/`bfi`, integer `cvt`, `dp4a`/`dp2a`, narrow atomics.

use super::*;

/// An atom on the low 16 bits of a memory word: the old half, and the word with the new.
pub(crate) fn atom16(word: u64, m: &mut u64, f: impl Fn(u64) -> u64) -> u64 {
    let old = word & 0xffff;
    *m = (word & !0xffff) | (f(old) & 0xffff);
    old
}

pub(crate) fn atom32(word: u64, m: &mut u64, f: impl Fn(u32) -> u32) -> u64 {
    let old = word as u32;
    *m = (word & !0xffff_ffff) | u64::from(f(old));
    u64::from(old)
}

/// prmt's modes, in the order the immediate picks them.
pub(crate) const PRMT_MODES: [&str; 6] = ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"];

/// The table of prmt's modes (PTX ISA 9.7.9.7): for each mode and selector `c[1:0]`,
/// the source byte of `d.b3`, `d.b2`, `d.b1`, `d.b0`, as the ISA prints it.
pub(crate) const PRMT_TABLE: [[[u8; 4]; 4]; 6] = [
    [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]],
    [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]],
    [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
    [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]],
    [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]],
    [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]],
];

pub(crate) fn prmt_mode(mode: usize, a: u64, b: u64, c: u64) -> u64 {
    let bytes = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    let row = PRMT_TABLE[mode][(c & 3) as usize];
    (0..4).fold(0, |d, k| d | ((bytes >> (8 * u64::from(row[3 - k]))) & 0xff) << (8 * k))
}

/// `cvt.pack.sat`, bit by bit as the ISA's pseudocode writes it.
pub(crate) fn pack_ref(size: u32, signed: bool, a: u64, b: u64, c: u64) -> u64 {
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

/// `fns.b32 d, mask, base, offset` (PTX ISA 9.7.1.17), as its semantics are written:
/// the `|offset|`-th set bit of `mask` from bit `base` upward (`offset > 0`) or
/// downward, `base` itself for offset 0 if set, 0xffffffff when there is none.
pub(crate) fn fns(mask: u64, base: u64, offset: u64) -> u64 {
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

/// `bfe` (PTX ISA 9.7.8.x "bfe"): `len` bits from `pos`, sign-extended from the last
/// one taken for signed types. The ISA takes pos and len as the low 8 bits of their
/// operands; for 64-bit types the H100 takes the whole 32-bit operand, clamped to 255
/// (tests/hw/README.md, `leaf_arith`), which ptxvm follows.
pub(crate) fn bfe(a: u64, pos: u64, len: u64, bits: u32, signed: bool) -> u64 {
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

pub(crate) fn bfi(a: u64, b: u64, pos: u64, len: u64, bits: u32) -> u64 {
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    let mut d = b;
    for i in 0..len {
        if pos + i < bits {
            d = (d & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        }
    }
    d
}

pub(crate) fn cvt_int(
    v: u64,
    src_bits: u32,
    src_signed: bool,
    dst_bits: u32,
    dst_signed: bool,
    sat: bool,
) -> i128 {
    let x: i128 = if src_signed { i128::from(sx(v, src_bits)) } else { i128::from(v & mask_bits(src_bits)) };
    if sat {
        let (lo, hi) = int_range(dst_bits, dst_signed);
        x.clamp(lo, hi)
    } else {
        x
    }
}

/// The low `bits` bits set.
pub(crate) fn mask_bits(bits: u32) -> u64 {
    if bits >= 64 { u64::MAX } else { (1 << bits) - 1 }
}

/// The smallest and largest values of a `bits`-bit integer type.
pub(crate) fn int_range(bits: u32, signed: bool) -> (i128, i128) {
    if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) }
}

/// A cvt result in a register of `reg_bits`: the value's low `dst_bits`, sign-extended
/// to the register for a signed type and zero-extended otherwise (PTX ISA 5.2.4,
/// "Operand Size Exceeding Instruction-Type Size").
pub(crate) fn in_reg(x: i128, dst_bits: u32, dst_signed: bool) -> u64 {
    let v = (x as u64) & mask_bits(dst_bits);
    if dst_signed { sx(v, dst_bits) as u64 } else { v }
}

pub(crate) fn dp4a(a: u64, b: u64, c: u64, sa: bool, sb: bool) -> u64 {
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

pub(crate) fn dp2a(a: u64, b: u64, c: u64, sa: bool, sb: bool, hi: bool) -> u64 {
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
