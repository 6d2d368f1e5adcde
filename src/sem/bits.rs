//! Bit manipulation (PTX ISA 9.7.1 "Integer Arithmetic Instructions": `popc`, `clz`,
//! `bfind`, `brev`, `bfe`, `bfi`, `sad`, `mul24`/`mad24`; 9.7.8.7 `prmt`; 9.7.8.3
//! `shf`) on values of 32 or 64 bits held in the low bits of a `u64`. Each function
//! is the closed form of the ISA's bit-by-bit pseudocode; the tests run that
//! pseudocode literally, one bit at a time, as the reference.

use super::int::Width;

/// `cnot.bN` (PTX ISA 9.7.8.4): `a == 0 ? 1 : 0` within the width.
pub fn cnot(w: Width, a: u64) -> u64 {
    u64::from(a & w.mask() == 0)
}

/// `popc.bN`: the number of one bits.
pub fn popc(w: Width, a: u64) -> u64 {
    u64::from((a & w.mask()).count_ones())
}

/// `clz.bN`: leading zeros within the width (N for zero).
pub fn clz(w: Width, a: u64) -> u64 {
    u64::from((a & w.mask()).leading_zeros() - (64 - w.0))
}

/// `brev.bN`: bit `i` of the result is bit `N-1-i` of `a`.
pub fn brev(w: Width, a: u64) -> u64 {
    a.reverse_bits() >> (64 - w.0)
}

/// `bfind{.shiftamt}.{u,s}N`: the position of the most significant bit that is not a
/// sign bit (for a signed negative value, the most significant zero), or
/// 0xffffffff when there is none. `.shiftamt` returns `N-1-position` instead: the
/// left shift that brings that bit to the top.
pub fn bfind(w: Width, signed: bool, shiftamt: bool, a: u64) -> u64 {
    let msb = w.0 - 1;
    let mut a = a & w.mask();
    if signed && a >> msb & 1 == 1 {
        a = !a & w.mask();
    }
    if a == 0 {
        return 0xffff_ffff;
    }
    let pos = 63 - a.leading_zeros();
    u64::from(if shiftamt { msb - pos } else { pos })
}

/// `bfe.{u,s}N d, a, pos, len`: `len` bits of `a` from bit `pos`, zero- or
/// sign-extended. Bits past the top of `a` read as the sign bit (signed) or zero; a
/// zero length gives 0. The 32-bit forms take `pos` and `len` from their low 8 bits,
/// as the ISA says; the 64-bit forms, which the H100 runs as several 32-bit
/// instructions, take them whole, so that `pos = 0x10000` is past the top rather than
/// 0 (tests/hw/leaf_arith: 736 of 736 bfe.u64 results).
pub fn bfe(w: Width, signed: bool, a: u64, pos: u64, len: u64) -> u64 {
    let field = |v: u64| if w.0 == 64 { (v & 0xffff_ffff).min(255) as u32 } else { (v & 0xff) as u32 };
    let (pos, len) = (field(pos), field(len));
    let a = a & w.mask();
    if len == 0 {
        return 0;
    }
    let msb = w.0 - 1;
    // The sign bit is the field's top bit, or the operand's when the field runs past it.
    let sbit = signed && a >> (pos + len - 1).min(msb) & 1 == 1;
    let field = if pos > msb { 0 } else { a >> pos };
    let valid = len.min(w.0.saturating_sub(pos));
    let low = if valid >= 64 { field } else { field & ((1u64 << valid) - 1) };
    let high = if sbit && valid < 64 { !0u64 << valid } else { 0 };
    (low | high) & w.mask()
}

/// `bfi.bN f, a, b, pos, len`: `b` with bits `pos..pos+len` replaced by the low bits
/// of `a` (bits past the top of `b` are dropped).
pub fn bfi(w: Width, a: u64, b: u64, pos: u64, len: u64) -> u64 {
    let (pos, len) = ((pos & 0xff) as u32, (len & 0xff) as u32);
    if pos >= w.0 || len == 0 {
        return b & w.mask();
    }
    let n = len.min(w.0 - pos);
    let field = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 } << pos;
    ((b & !field) | (a << pos & field)) & w.mask()
}

/// The modes of `prmt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// Four 4-bit selectors in `c[15:0]`, with sign replication.
    Generic,
    F4e,
    B4e,
    Rc8,
    Ecl,
    Ecr,
    Rc16,
}

/// `prmt.b32{.mode} d, a, b, c`: four bytes picked from `{b, a}` (bytes 7..0).
pub fn prmt(mode: PrmtMode, a: u64, b: u64, c: u64) -> u64 {
    let src = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    let byte = |k: u64| src >> (8 * (k & 7)) & 0xff;
    let sel = (c & 3) as usize;
    // The source byte of d.b0..d.b3 for the specialised modes (ISA table, read right
    // to left).
    let table: [[u64; 4]; 4] = match mode {
        PrmtMode::Generic => {
            let mut d = 0;
            for i in 0..4 {
                let s = c >> (4 * i) & 0xf;
                let v = byte(s);
                let v = if s & 8 != 0 { if v & 0x80 != 0 { 0xff } else { 0 } } else { v };
                d |= v << (8 * i);
            }
            return d;
        }
        PrmtMode::F4e => [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
        PrmtMode::B4e => [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
        PrmtMode::Rc8 => [[0; 4], [1; 4], [2; 4], [3; 4]],
        PrmtMode::Ecl => [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
        PrmtMode::Ecr => [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
        PrmtMode::Rc16 => [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
    };
    (0..4).fold(0, |d, i| d | byte(table[sel][i]) << (8 * i))
}

/// `shf.{l,r}.{wrap,clamp}.b32 d, a, b, c`: a funnel shift of the 64-bit `{b, a}` by
/// `c` (mod 32 with `.wrap`, at most 32 with `.clamp`); `.l` keeps the high word,
/// `.r` the low word.
pub fn shf(left: bool, clamp: bool, a: u64, b: u64, c: u64) -> u64 {
    let n = if clamp { (c & 0xffff_ffff).min(32) } else { c & 0x1f };
    let pair = (b & 0xffff_ffff) << 32 | (a & 0xffff_ffff);
    if left { (pair << n) >> 32 } else { (pair >> n) & 0xffff_ffff }
}

/// `sad.{u,s}N d, a, b, c`: `c + |a - b|`, wrapping to the width.
pub fn sad(w: Width, signed: bool, a: u64, b: u64, c: u64) -> u64 {
    let (x, y) = if signed { (w.signed(a), w.signed(b)) } else { (w.unsigned(a), w.unsigned(b)) };
    ((x - y).unsigned_abs() as u64).wrapping_add(c) & w.mask()
}

/// `mul24.{lo,hi}.{u,s}32`: the 48-bit product of the low 24 bits of `a` and `b`
/// (sign-extended from bit 23 when signed); `.lo` keeps bits 0..31, `.hi` bits 16..47.
pub fn mul24(hi: bool, signed: bool, a: u64, b: u64) -> u64 {
    let ext = |v: u64| if signed { i64::from(((v as u32) << 8) as i32 >> 8) } else { (v & 0xff_ffff) as i64 };
    let p = ext(a) * ext(b);
    (if hi { p >> 16 } else { p }) as u64 & 0xffff_ffff
}

/// `dp4a.atype.btype d, a, b, c` (PTX ISA 9.7.1.23): `c` plus the four products of
/// the bytes of `a` and `b`, each byte sign- or zero-extended by its type, wrapped to
/// 32 bits.
pub fn dp4a(a_signed: bool, b_signed: bool, a: u64, b: u64, c: u64) -> u64 {
    let byte = |v: u64, k: u32, signed: bool| {
        let x = (v >> (8 * k)) as u8;
        if signed { i64::from(x as i8) } else { i64::from(x) }
    };
    let sum = (0..4).fold(c as u32 as i64, |acc, k| acc + byte(a, k, a_signed) * byte(b, k, b_signed));
    u64::from(sum as u32)
}

/// `dp2a.{lo,hi}.atype.btype d, a, b, c` (PTX ISA 9.7.1.24): `c` plus the products of
/// the two 16-bit halves of `a` with two bytes of `b`, bytes 0-1 (`.lo`) or 2-3
/// (`.hi`), each sign- or zero-extended by its type, wrapped to 32 bits.
pub fn dp2a(hi: bool, a_signed: bool, b_signed: bool, a: u64, b: u64, c: u64) -> u64 {
    let half = |k: u32| {
        let x = (a >> (16 * k)) as u16;
        if a_signed { i64::from(x as i16) } else { i64::from(x) }
    };
    let byte = |k: u32| {
        let x = (b >> (8 * (k + if hi { 2 } else { 0 }))) as u8;
        if b_signed { i64::from(x as i8) } else { i64::from(x) }
    };
    u64::from((c as u32 as i64 + half(0) * byte(0) + half(1) * byte(1)) as u32)
}

/// `bmsk.{clamp,wrap}.b32 d, a, b` (PTX ISA 9.7.8.12): `b` one-bits from bit `a`. With
/// `.wrap` both operands are taken modulo 32; with `.clamp` a position of 32 or more
/// gives 0 and the mask stops at bit 31.
pub fn bmsk(wrap: bool, a: u64, b: u64) -> u64 {
    let (pos, len) =
        if wrap { (a as u32 & 31, b as u32 & 31) } else { ((a as u32).min(32), (b as u32).min(32)) };
    // `len` ones inserted at `pos` into zeros.
    bfi(Width(32), u64::MAX, 0, u64::from(pos), u64::from(len))
}

/// `szext.{clamp,wrap}.{u32,s32} d, a, b` (PTX ISA 9.7.8.13): the low `b` bits of `a`,
/// zero- or sign-extended; `b` is taken modulo 32 (`.wrap`) or clamped to 32
/// (`.clamp`); a width of 0 gives 0.
pub fn szext(wrap: bool, signed: bool, a: u64, b: u64) -> u64 {
    let n = if wrap { b as u32 & 31 } else { (b as u32).min(32) };
    bfe(Width(32), signed, a, 0, u64::from(n))
}

/// `cvt.pack.sat.T.s32.b32 d, a, b, c` (PTX ISA 9.7.9.22): `a` and `b`, read as s32,
/// clamped to the range of the `bits`-bit type T; `b` goes in bits `0..bits`, `a` in
/// `bits..2*bits`, and `c` fills the bits above (none for 16-bit T).
pub fn cvt_pack(bits: u32, signed: bool, a: u64, b: u64, c: u64) -> u64 {
    let (lo, hi) = super::cvt::IntTy { bits, signed }.range();
    let field = |v: u64| (i128::from(v as u32 as i32).clamp(lo, hi) as u64) & ((1 << bits) - 1);
    let packed = field(b) | field(a) << bits;
    if 2 * bits >= 32 { packed & 0xffff_ffff } else { (packed | c << (2 * bits)) & 0xffff_ffff }
}

/// `fns.b32 d, mask, base, offset` (PTX ISA 9.7.8.x "fns"): the position of the
/// `|offset|`-th set bit of `mask`, counting from bit `base` upwards (offset > 0) or
/// downwards (offset < 0), `base` itself included; for offset 0, `base` when that bit
/// is set. All ones when there is none. `base` must be at most 31 (the caller checks).
pub fn fns(mask: u64, base: u64, offset: u64) -> u64 {
    let (mask, offset) = (mask as u32, offset as u32 as i32);
    let set = |pos: i64| (0..32).contains(&pos) && mask >> pos & 1 == 1;
    let base = i64::from(base as u32);
    if offset == 0 {
        return if set(base) { base as u64 } else { 0xffff_ffff };
    }
    let step = if offset > 0 { 1 } else { -1 };
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = base;
    while (0..32).contains(&pos) {
        if set(pos) {
            if count == 0 {
                return pos as u64;
            }
            count -= 1;
        }
        pos += step;
    }
    0xffff_ffff
}

/// `lop3.b32 d, a, b, c, immLut` (PTX ISA 9.7.8.6): each bit of `d` is bit
/// `a_i*4 + b_i*2 + c_i` of the 8-bit truth table `lut`.
pub fn lop3(a: u64, b: u64, c: u64, lut: u64) -> u64 {
    let mut d = 0u32;
    for k in 0..8u32 {
        if lut >> k & 1 == 1 {
            let sel = |v: u64, bit: u32| if k >> bit & 1 == 1 { v as u32 } else { !(v as u32) };
            d |= sel(a, 2) & sel(b, 1) & sel(c, 0);
        }
    }
    u64::from(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fns_follows_the_isa_examples() {
        // PTX ISA "fns": the four examples on 0xaaaaaaaa (the odd bits set).
        assert_eq!(fns(0xaaaa_aaaa, 3, 1), 3);
        assert_eq!(fns(0xaaaa_aaaa, 3, (-1i32) as u32 as u64), 3);
        assert_eq!(fns(0xaaaa_aaaa, 2, 1), 3);
        assert_eq!(fns(0xaaaa_aaaa, 2, (-1i32) as u32 as u64), 1);
        // offset 0 looks at base alone; running off either end gives all ones.
        assert_eq!((fns(0xaaaa_aaaa, 2, 0), fns(0xaaaa_aaaa, 3, 0)), (0xffff_ffff, 3));
        assert_eq!(fns(0xaaaa_aaaa, 31, 2), 0xffff_ffff);
        assert_eq!(fns(0xaaaa_aaaa, 0, (-1i32) as u32 as u64), 0xffff_ffff);
        assert_eq!(fns(0xffff_ffff, 0, 32), 31);
    }

    fn bit(v: u64, i: u32) -> u64 {
        if i >= 64 { 0 } else { v >> i & 1 }
    }

    /// Values with every kind of bit pattern at the edges of 32 and 64 bits.
    fn values() -> Vec<u64> {
        let mut v = vec![0, 1, 2, 3, 0x80, 0xff, 0x8000_0000, 0x7fff_ffff, 0xffff_ffff, 0x1_0000_0000];
        v.extend([u64::MAX, 1 << 63, (1 << 63) - 1, 0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210]);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..40 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.push(x);
            v.push(x >> (x % 61));
        }
        v
    }

    #[test]
    fn counting_and_reversal_match_loops_over_bits() {
        for w in [32, 64] {
            let wd = Width(w);
            for a in values() {
                let a_w = a & wd.mask();
                let ones = (0..w).filter(|&i| bit(a, i) == 1).count() as u64;
                assert_eq!(popc(wd, a), ones);
                let lz = (0..w).rev().take_while(|&i| bit(a, i) == 0).count() as u64;
                assert_eq!(clz(wd, a), lz, "clz {a:#x}");
                let rev = (0..w).fold(0u64, |r, i| r | bit(a, i) << (w - 1 - i));
                assert_eq!(brev(wd, a), rev);
                for signed in [false, true] {
                    // The ISA pseudocode: negate negative signed inputs, then scan down.
                    let msb = w - 1;
                    let x = if signed && bit(a, msb) == 1 { !a_w & wd.mask() } else { a_w };
                    let found = (0..=msb).rev().find(|&i| bit(x, i) == 1);
                    let want = found.map_or(0xffff_ffff, u64::from);
                    assert_eq!(bfind(wd, signed, false, a), want);
                    let want = found.map_or(0xffff_ffff, |d| u64::from(msb - d));
                    assert_eq!(bfind(wd, signed, true, a), want);
                }
            }
        }
    }

    /// dp4a/dp2a, bmsk, szext and lop3 against bit loops and products written from the
    /// ISA's descriptions.
    #[test]
    fn dot_products_masks_extensions_and_truth_tables_follow_the_isa() {
        // 0x80 is -128 as s8 and 128 as u8; 0xff is -1 or 255.
        assert_eq!(dp4a(true, true, 0x0180_ff02, 0x0380_0103, 10), (10 + 2 * 3 - 1 + 128 * 128 + 3) as u64);
        assert_eq!(dp4a(false, false, 0xff, 0xff, 0), 255 * 255);
        assert_eq!(dp4a(true, false, 0xff, 0xff, 0), (-255i64) as u32 as u64);
        assert_eq!(dp2a(false, true, false, 0xffff_0002, 0x0000_0503, 1), (1 + 2 * 3 - 5) as u64);
        assert_eq!(dp2a(true, false, false, 0x0001_0002, 0x0403_0000, 0), 2 * 3 + 4);
        for a in [0u64, 1, 5, 31, 32, 40] {
            for b in [0u64, 1, 3, 31, 32, 33] {
                let (p, l) = (a.min(32), b.min(32));
                let want: u64 = (0..32).filter(|&i| i >= p && i < p + l).map(|i| 1u64 << i).sum();
                assert_eq!(bmsk(false, a, b), if a >= 32 { 0 } else { want }, "clamp {a} {b}");
                let (p, l) = (a & 31, b & 31);
                let want: u64 = (0..32).filter(|&i| i >= p && i < p + l).map(|i| 1u64 << i).sum();
                assert_eq!(bmsk(true, a, b), want, "wrap {a} {b}");
            }
        }
        assert_eq!(szext(false, true, 0x80, 8), 0xffff_ff80);
        assert_eq!(szext(false, false, 0x1ff, 8), 0xff);
        assert_eq!(szext(true, true, 0xffff_ffff, 33), 0xffff_ffff);
        assert_eq!(szext(false, true, 0x7, 0), 0);
        for lut in [0x00u64, 0xff, 0xf0, 0xcc, 0xaa, 0x96, 0xe8, 0x3c] {
            let (a, b, c) = (0xf0f0_a5a5u64, 0xcc33_ff00u64, 0xaaaa_0f0fu64);
            let mut want = 0u64;
            for i in 0..32 {
                let k = (a >> i & 1) << 2 | (b >> i & 1) << 1 | (c >> i & 1);
                want |= (lut >> k & 1) << i;
            }
            assert_eq!(lop3(a, b, c, lut), want, "lut {lut:#x}");
        }
    }

    #[test]
    fn bit_fields_match_the_isa_loops() {
        let places = [0u64, 1, 5, 8, 16, 31, 32, 33, 60, 63, 64, 65, 200, 255, 256, 0x105];
        for w in [32u32, 64] {
            let wd = Width(w);
            let msb = w - 1;
            for a in values().into_iter().step_by(3) {
                for b in [0u64, u64::MAX, 0x5555_5555_5555_5555] {
                    for &pos in &places {
                        for &len in &places {
                            let (p, l) = ((pos & 0xff) as u32, (len & 0xff) as u32);
                            // bfe.64 takes the whole of pos and len (the H100's
                            // 64-bit bfe, tests/hw/leaf_arith), clamped to 255 here.
                            let (bp, bl) =
                                if w == 64 { (pos.min(255) as u32, len.min(255) as u32) } else { (p, l) };
                            for signed in [false, true] {
                                let (p, l) = (bp, bl);
                                let sbit = if !signed || l == 0 { 0 } else { bit(a, (p + l - 1).min(msb)) };
                                let mut d = 0;
                                for i in 0..=msb {
                                    let v = if i < l && p + i <= msb { bit(a, p + i) } else { sbit };
                                    d |= v << i;
                                }
                                assert_eq!(bfe(wd, signed, a, pos, len), d, "bfe {w} {a:#x} {pos} {len}");
                            }
                            let mut f = b & wd.mask();
                            let mut i = 0;
                            while i < l && p + i <= msb {
                                f = (f & !(1 << (p + i))) | bit(a, i) << (p + i);
                                i += 1;
                            }
                            assert_eq!(bfi(wd, a, b, pos, len), f, "bfi {w} {a:#x} {pos} {len}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn prmt_picks_bytes_as_the_isa_tables_say() {
        let (a, b) = (0x8382_0180u64, 0x8786_8504u64); // bytes 0..7: 80 01 82 83 04 85 86 87
        let bytes = [0x80u64, 0x01, 0x82, 0x83, 0x04, 0x85, 0x86, 0x87];
        let pack = |s: [usize; 4]| s.iter().enumerate().fold(0, |d, (i, &k)| d | bytes[k] << (8 * i));
        // Generic: selectors per byte, msb = replicate the sign of the byte.
        assert_eq!(prmt(PrmtMode::Generic, a, b, 0x3210), a);
        assert_eq!(prmt(PrmtMode::Generic, a, b, 0x7654), b);
        assert_eq!(prmt(PrmtMode::Generic, a, b, 0x0123), pack([3, 2, 1, 0]));
        // d.b0 = sign of byte 1 (01), d.b1 = sign of byte 0 (80), d.b2 = byte 4 (04), d.b3 = byte 0.
        assert_eq!(prmt(PrmtMode::Generic, a, b, 0x8c89), 0xff00_ff00);
        assert_eq!(prmt(PrmtMode::Generic, a, b, 0xffff_4444), pack([4, 4, 4, 4]), "upper bits ignored");
        // The mode tables, written here as d.b3 d.b2 d.b1 d.b0 per selector (ISA order).
        let rows: [(PrmtMode, [[usize; 4]; 4]); 6] = [
            (PrmtMode::F4e, [[3, 2, 1, 0], [4, 3, 2, 1], [5, 4, 3, 2], [6, 5, 4, 3]]),
            (PrmtMode::B4e, [[5, 6, 7, 0], [6, 7, 0, 1], [7, 0, 1, 2], [0, 1, 2, 3]]),
            (PrmtMode::Rc8, [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]),
            (PrmtMode::Ecl, [[3, 2, 1, 0], [3, 2, 1, 1], [3, 2, 2, 2], [3, 3, 3, 3]]),
            (PrmtMode::Ecr, [[0, 0, 0, 0], [1, 1, 1, 0], [2, 2, 1, 0], [3, 2, 1, 0]]),
            (PrmtMode::Rc16, [[1, 0, 1, 0], [3, 2, 3, 2], [1, 0, 1, 0], [3, 2, 3, 2]]),
        ];
        for (mode, table) in rows {
            for (sel, row) in table.iter().enumerate() {
                let want = pack([row[3], row[2], row[1], row[0]]);
                assert_eq!(prmt(mode, a, b, sel as u64 | 0xf0), want, "{mode:?} {sel}");
            }
        }
    }

    #[test]
    fn funnel_shifts_match_the_isa_formulas() {
        for a in values().into_iter().step_by(5) {
            for b in values().into_iter().step_by(7) {
                for c in [0u64, 1, 7, 31, 32, 33, 63, 64, 0xffff_ffff, 0x1_0000_0001] {
                    let (a32, b32) = (a as u32, b as u32);
                    let c = c & 0xffff_ffff;
                    for clamp in [false, true] {
                        let n = if clamp { c.min(32) as u32 } else { c as u32 & 0x1f };
                        // The ISA: l = (b << n) | (a >> (32-n)); r = (b << (32-n)) | (a >> n),
                        // with shifts by 32 giving 0.
                        let sh = |x: u32, k: u32, left: bool| {
                            if k >= 32 {
                                0
                            } else if left {
                                x << k
                            } else {
                                x >> k
                            }
                        };
                        let l = sh(b32, n, true) | sh(a32, 32 - n, false);
                        let r = sh(b32, 32 - n, true) | sh(a32, n, false);
                        assert_eq!(shf(true, clamp, a, b, c), u64::from(l));
                        assert_eq!(shf(false, clamp, a, b, c), u64::from(r));
                    }
                }
            }
        }
    }

    #[test]
    fn sad_and_mul24_match_wide_arithmetic() {
        for a in values().into_iter().step_by(2) {
            for b in values().into_iter().step_by(3) {
                let (sa, sb) = (i128::from(a as u32 as i32), i128::from(b as u32 as i32));
                let (ua, ub) = (i128::from(a as u32), i128::from(b as u32));
                let want = |d: i128| (d.abs() + 7).rem_euclid(1 << 32) as u64;
                assert_eq!(sad(Width(32), true, a, b, 7), want(sa - sb));
                assert_eq!(sad(Width(32), false, a, b, 7), want(ua - ub));
                let (x, y) = (i128::from(a & 0xff_ffff), i128::from(b & 0xff_ffff));
                let sx = |v: i128| if v >= 1 << 23 { v - (1 << 24) } else { v };
                let lo = |p: i128| p.rem_euclid(1 << 32) as u64;
                assert_eq!(mul24(false, false, a, b), lo(x * y));
                assert_eq!(mul24(true, false, a, b), lo((x * y) >> 16));
                assert_eq!(mul24(false, true, a, b), lo(sx(x) * sx(y)));
                assert_eq!(mul24(true, true, a, b), lo((sx(x) * sx(y)).div_euclid(1 << 16)));
            }
        }
    }
}
