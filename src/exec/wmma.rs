//! `wmma.load`, `wmma.mma` and `wmma.store` across a warp (PTX ISA 9.7.14.4).
//!
//! The ISA and CUDA leave the map of matrix elements into each lane's fragment
//! unspecified, so ptxvm chooses one; load, mma and store agree on it, and it is a map
//! of logical elements, so the memory layout (`.row`, `.col`) changes only where
//! elements are read and written. [`WmmaFrag::place`] is the map: the one `mma.sync`
//! uses for its fragments (9.7.14.5.8 and its siblings), tiled over the matrix as an
//! Ampere or Hopper GPU is reported to tile it. Registers beyond what the matrix needs
//! (f16 multiplicands in eight registers) repeat the elements from the start.
//!
//! The products and sums are `mma.sync`'s (`sem::matrix`): f16, bf16 and tf32 summed
//! into f32 as the H100's tensor cores sum, an f16 result rounded from that to nearest,
//! integers exact (wrapped or `.satfinite`), single bits counted (`.and.popc`,
//! `.xor.popc`), f64 one `fma` per product in the instruction's rounding mode.

use super::lane::{read, write};
use super::warp::{Cta, Fault, Warp};
use crate::lower::program::{Inst, Rnd, Src, Wmma, WmmaElem, WmmaFrag, WmmaPlace, WmmaUse};
use crate::sem::cvt::{float_to_float, widen};
use crate::sem::matrix::{dot_b1, dot_f32, dot_f64_rounded, dot_int};
use crate::sem::round;

impl WmmaFrag {
    /// Elements of the matrix each lane holds.
    pub fn distinct(&self) -> usize {
        usize::from(self.rows) * usize::from(self.cols) / 32
    }

    /// Elements per register.
    fn per_reg(&self) -> usize {
        if self.elem == WmmaElem::F64 { 1 } else { 32 / self.elem.bits() }
    }

    /// Elements the registers hold: [`WmmaFrag::distinct`] or, for f16 multiplicands
    /// of eight registers, a multiple of it.
    fn slots(&self) -> usize {
        usize::from(self.regs) * self.per_reg()
    }

    /// `(row, column)` in the matrix of element `e` (< [`WmmaFrag::distinct`]) of
    /// `lane`'s fragment. With `g` = lane / 4 and `t` = lane % 4, the matrix is cut into
    /// tiles of 8 rows and `4p` columns, where `p` elements lie side by side in a lane
    /// (two for f16, bf16 and every C and D; four for s8 and u8; eight for s4 and u4;
    /// 32 for b1; one for tf32 and f64 multiplicands). Lane (`g`, `t`) holds row `g` and columns `pt .. pt+p-1` of each
    /// tile, tiles going down the rows first. B is placed as its transpose is, so a
    /// lane holds a column of B where it holds a row of A: for 16x16 f16 A this is
    /// `mma.m16n8k16`'s A fragment (a0, a1 row `g`, columns `2t`, `2t+1`; a2, a3 row
    /// `g+8`; a4..a7 the same 8 columns on), and for C `mma`'s accumulator.
    pub fn place(&self, lane: usize, e: usize) -> (usize, usize) {
        let (g, t) = (lane / 4, lane % 4);
        let tile = |rows: usize, p: usize| {
            let (j, b) = (e % p, e / p);
            let down = (rows / 8).max(1);
            (8 * (b % down) + g, 4 * p * (b / down) + p * t + j)
        };
        let p = (32 / self.elem.bits()).max(1);
        match self.role {
            WmmaUse::A => tile(usize::from(self.rows), p),
            WmmaUse::B => {
                let (n, k) = tile(usize::from(self.cols), p);
                (k, n)
            }
            WmmaUse::Acc => tile(usize::from(self.rows), 2),
        }
    }

    /// Element `e` of a lane's registers.
    fn get(&self, regs: &[u64], e: usize) -> u64 {
        let (per, bits) = (self.per_reg(), self.elem.bits());
        let r = regs.get(e / per).copied().unwrap_or(0) >> (bits * (e % per));
        if bits == 64 { r } else { r & ((1 << bits) - 1) }
    }

    /// A lane's registers holding `value(e)` for each of its elements (repeated
    /// where the registers hold more than the matrix needs).
    fn pack(&self, value: impl Fn(usize) -> u64) -> Vec<u64> {
        let (per, bits, n) = (self.per_reg(), self.elem.bits(), self.distinct());
        let mut regs = vec![0u64; usize::from(self.regs)];
        for s in 0..self.slots() {
            regs[s / per] |= value(s % n) << (bits * (s % per));
        }
        regs
    }
}

impl Cta<'_> {
    /// Runs a `wmma` instruction for the whole warp (the caller checked that all 32
    /// lanes execute it).
    pub(super) fn wmma(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        w: &Wmma,
    ) -> Result<(), Fault> {
        match w {
            Wmma::Load { frag, col, at, dst } => {
                let (base, stride) = self.wmma_place(n, warp, inst, frag, *col, at, "wmma.load")?;
                let size = (frag.elem.bits() / 8) as u8;
                let mut out = Vec::with_capacity(32);
                for lane in 0..32 {
                    if size == 0 {
                        // Sub-byte: a lane's elements lie side by side in a row of A (or a
                        // column of B), 32 bits from the first, which is byte-aligned.
                        let a = element(frag, *col, base, stride, lane, 0);
                        let v = self
                            .load(warp, shared, at.mem, a, 4, lane)
                            .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                        out.push(vec![v]);
                        continue;
                    }
                    let mut vals = vec![0u64; frag.distinct()];
                    for (e, v) in vals.iter_mut().enumerate() {
                        let a = element(frag, *col, base, stride, lane, e);
                        *v = self
                            .load(warp, shared, at.mem, a, size, lane)
                            .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                    }
                    out.push(frag.pack(|e| vals[e]));
                }
                for (lane, regs) in out.iter().enumerate() {
                    for (slot, v) in dst.iter().zip(regs) {
                        write(warp, *slot, lane, *v);
                    }
                }
            }
            Wmma::Store { frag, col, at, src } => {
                let (base, stride) = self.wmma_place(n, warp, inst, frag, *col, at, "wmma.store")?;
                let size = (frag.elem.bits() / 8) as u8;
                for lane in 0..32 {
                    let regs: Vec<u64> = src.iter().map(|s| read(warp, *s, lane)).collect();
                    for e in 0..frag.distinct() {
                        let a = element(frag, *col, base, stride, lane, e);
                        self.store(warp, shared, at.mem, a, size, frag.get(&regs, e), lane)
                            .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                    }
                }
            }
            Wmma::Mma { frags: [fd, fa, fb, fc], satfinite, rnd, and, d, a, b, c } => {
                let am = matrix(warp, fa, a);
                let bm = matrix(warp, fb, b);
                let cm = matrix(warp, fc, c);
                let dm = mma([fd, fa, fb, fc], &am, &bm, &cm, *satfinite, *rnd, *and);
                let cols = usize::from(fd.cols);
                for lane in 0..32 {
                    let regs = fd.pack(|e| {
                        let (r, c) = fd.place(lane, e);
                        dm[r * cols + c]
                    });
                    for (slot, v) in d.iter().zip(&regs) {
                        write(warp, *slot, lane, *v);
                    }
                }
            }
        }
        Ok(())
    }

    /// The address of the matrix and the distance in bytes between its rows (`.row`)
    /// or columns (`.col`), after checking what the ISA asks (9.7.14.4.2): the same
    /// address and stride in every lane, a stride no less than the leading dimension,
    /// the matrix starting at a multiple of the fragment's size in bytes (32 for eight
    /// f16x2 registers, as CUDA's 256-bit aligned `mptr`), and each further row or
    /// column too; but CUDA lets `ldm` be a multiple of 16 bytes, narrower than eight
    /// f16x2 registers, and nvcc passes it through, so rows and columns need only 16
    /// bytes where the fragment is larger. Each is undefined behaviour, reported as a
    /// fault.
    #[allow(clippy::too_many_arguments)]
    fn wmma_place(
        &self,
        n: u64,
        warp: &Warp,
        inst: &Inst,
        frag: &WmmaFrag,
        col: bool,
        at: &WmmaPlace,
        name: &str,
    ) -> Result<(u64, u64), Fault> {
        let addr = |lane| super::lane::address(warp, at.addr, at.offset, lane);
        let stride = |lane| at.stride.map(|s: Src| read(warp, s, lane) as u32);
        if let Some(lane) = (1..32).find(|&l| addr(l) != addr(0) || stride(l) != stride(0)) {
            let cause = format!(
                "{name} needs the same address and stride in every lane; lane {lane} gives {:#x}{}, lane 0 {:#x}{} \
                 (undefined behaviour)",
                addr(lane),
                stride(lane).map_or(String::new(), |s| format!(" and stride {s}")),
                addr(0),
                stride(0).map_or(String::new(), |s| format!(" and stride {s}")),
            );
            return Err(self.fault(n, warp, 1 << lane, inst, cause));
        }
        let (lead, what) = if col { (frag.rows, "rows") } else { (frag.cols, "columns") };
        let stride = stride(0).unwrap_or(u32::from(lead));
        if stride < u32::from(lead) {
            let cause = format!(
                "{name}: the stride {stride} is less than the matrix's {lead} {what} (undefined behaviour)"
            );
            return Err(self.fault(n, warp, u32::MAX, inst, cause));
        }
        let bits = frag.elem.bits() as u64;
        let reg_bytes = if frag.elem == WmmaElem::F64 { 8 } else { 4 };
        let size = u64::from(frag.regs) * reg_bytes;
        let align = size.min(16);
        // Sub-byte rows are a whole number of bytes apart, or misaligned.
        let step = u64::from(stride) * bits / 8;
        let base = addr(0);
        let whole = (u64::from(stride) * bits).is_multiple_of(8);
        if !base.is_multiple_of(size) {
            let cause = format!(
                "{name}: misaligned: the matrix must start at a multiple of the fragment's {size} bytes; it starts \
                 at {base:#x} (undefined behaviour)"
            );
            return Err(self.fault(n, warp, u32::MAX, inst, cause));
        }
        if !step.is_multiple_of(align) || !whole {
            let line = if col { "column" } else { "row" };
            let cause = format!(
                "{name}: misaligned: each {line} must start at a multiple of {align} bytes; the matrix starts at \
                 {base:#x} and its {line}s are {} bytes apart (undefined behaviour)",
                (u64::from(stride) * bits) as f64 / 8.0
            );
            return Err(self.fault(n, warp, u32::MAX, inst, cause));
        }
        Ok((base, step))
    }
}

/// The address of element `e` of `lane`'s fragment (for sub-byte elements, of the
/// byte holding it), rows (or columns) `stride` bytes apart.
fn element(frag: &WmmaFrag, col: bool, base: u64, stride: u64, lane: usize, e: usize) -> u64 {
    let (r, c) = frag.place(lane, e);
    let (line, at) = if col { (c, r) } else { (r, c) };
    let bits = frag.elem.bits() as u64;
    base.wrapping_add((line as u64).wrapping_mul(stride)).wrapping_add(at as u64 * bits / 8)
}

/// Every lane's fragment gathered into its matrix, row by row (element bits).
fn matrix(warp: &Warp, frag: &WmmaFrag, srcs: &[Src]) -> Vec<u64> {
    let cols = usize::from(frag.cols);
    let mut m = vec![0u64; usize::from(frag.rows) * cols];
    for lane in 0..32 {
        let regs: Vec<u64> = srcs.iter().map(|s| read(warp, *s, lane)).collect();
        for e in 0..frag.distinct() {
            let (r, c) = frag.place(lane, e);
            m[r * cols + c] = frag.get(&regs, e);
        }
    }
    m
}

/// An element as the f32 the tensor cores multiply and add.
fn as_f32(elem: WmmaElem, bits: u64) -> f32 {
    match elem {
        WmmaElem::F16 => widen(round::F16, bits) as f32,
        WmmaElem::Bf16 => widen(round::BF16, bits) as f32,
        // tf32: the low 13 bits of the f32 are not read (as `mma.sync`'s).
        WmmaElem::Tf32 => f32::from_bits(bits as u32 & 0xffff_e000),
        _ => f32::from_bits(bits as u32),
    }
}

/// An integer element.
fn as_int(elem: WmmaElem, bits: u64) -> i64 {
    match elem {
        WmmaElem::S8 => i64::from(bits as u8 as i8),
        WmmaElem::U8 => i64::from(bits as u8),
        WmmaElem::S4 => i64::from(((bits as u8) << 4) as i8 >> 4),
        WmmaElem::U4 | WmmaElem::B1 => i64::from(bits as u8),
        _ => i64::from(bits as u32 as i32),
    }
}

/// `D = A*B + C` on matrices of element bits (row by row), into D's elements. A is
/// converted once by rows and B once by columns, so each element is a dot product of
/// two slices.
fn mma(
    [fd, fa, fb, fc]: [&WmmaFrag; 4],
    am: &[u64],
    bm: &[u64],
    cm: &[u64],
    satfinite: bool,
    rnd: Rnd,
    and: bool,
) -> Vec<u64> {
    let (m, k, n) = (usize::from(fa.rows), usize::from(fa.cols), usize::from(fb.cols));
    // A's rows and B's columns, each k elements, converted by `conv`.
    fn operands<T>(
        am: &[u64],
        bm: &[u64],
        k: usize,
        n: usize,
        conv: impl Fn(bool, u64) -> T,
    ) -> (Vec<T>, Vec<T>) {
        let a = am.iter().map(|x| conv(true, *x)).collect();
        let b = (0..n).flat_map(|j| (0..k).map(move |x| bm[x * n + j])).map(|x| conv(false, x)).collect();
        (a, b)
    }
    let each = |f: &dyn Fn(usize, usize, u64) -> u64| -> Vec<u64> {
        (0..m * n).map(|e| f(e / n, e % n, cm[e])).collect()
    };
    let elem = |a: bool| if a { fa.elem } else { fb.elem };
    match fa.elem {
        WmmaElem::B1 => {
            let (a, b) = operands(am, bm, k, n, |_, x| x != 0);
            each(&|i, j, c| u64::from(dot_b1(&a[i * k..][..k], &b[j * k..][..k], as_int(fc.elem, c), and)))
        }
        WmmaElem::S8 | WmmaElem::U8 | WmmaElem::S4 | WmmaElem::U4 => {
            let (a, b) = operands(am, bm, k, n, |is_a, x| as_int(elem(is_a), x));
            each(&|i, j, c| {
                u64::from(dot_int(&a[i * k..][..k], &b[j * k..][..k], as_int(fc.elem, c), satfinite))
            })
        }
        WmmaElem::F64 => {
            let (a, b) = operands(am, bm, k, n, |_, x| f64::from_bits(x));
            each(&|i, j, c| {
                dot_f64_rounded(&a[i * k..][..k], &b[j * k..][..k], f64::from_bits(c), rnd).to_bits()
            })
        }
        _ => {
            let (a, b) = operands(am, bm, k, n, |is_a, x| as_f32(elem(is_a), x));
            each(&|i, j, c| {
                let r = u64::from(dot_f32(&a[i * k..][..k], &b[j * k..][..k], as_f32(fc.elem, c)).to_bits());
                if fd.elem == WmmaElem::F16 {
                    float_to_float(round::F16, round::F32, Rnd::Rn, false, false, r)
                } else {
                    r
                }
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fragment ptxvm runs places each element of its matrix in exactly one
    /// (lane, element) of the warp.
    #[test]
    fn every_fragment_covers_its_matrix_once() {
        use WmmaElem::*;
        let shapes =
            [(16, 16, 16), (32, 8, 16), (8, 32, 16), (16, 16, 8), (8, 8, 4), (8, 8, 32), (8, 8, 128)];
        for (m, n, k) in shapes {
            let elems: &[WmmaElem] = match k {
                16 => &[F16, Bf16, S8, U8, F32, S32],
                8 => &[Tf32, F32],
                32 => &[S4, U4, S32],
                128 => &[B1, S32],
                _ => &[F64],
            };
            for &elem in elems {
                for (role, rows, cols) in [(WmmaUse::A, m, k), (WmmaUse::B, k, n), (WmmaUse::Acc, m, n)] {
                    let frag = WmmaFrag { role, rows, cols, elem, regs: 1 };
                    let mut seen = vec![0; usize::from(rows) * usize::from(cols)];
                    for lane in 0..32 {
                        for e in 0..frag.distinct() {
                            let (r, c) = frag.place(lane, e);
                            assert!(r < usize::from(rows) && c < usize::from(cols), "{frag:?} {lane} {e}");
                            seen[r * usize::from(cols) + c] += 1;
                        }
                    }
                    assert!(seen.iter().all(|&s| s == 1), "{frag:?}");
                }
            }
        }
    }

    /// 16x16 f16 A is `mma.m16n8k16`'s A fragment, as on Ampere and Hopper.
    #[test]
    fn f16_a_is_the_mma_fragment() {
        let frag = WmmaFrag { role: WmmaUse::A, rows: 16, cols: 16, elem: WmmaElem::F16, regs: 8 };
        let lane = 4 * 3 + 2; // g = 3, t = 2
        let want = [(3, 4), (3, 5), (11, 4), (11, 5), (3, 12), (3, 13), (11, 12), (11, 13)];
        for (e, w) in want.iter().enumerate() {
            assert_eq!(frag.place(lane, e), *w);
        }
        // Registers 4..7 repeat 0..3.
        let regs = frag.pack(|e| e as u64 + 1);
        assert_eq!(regs[..4], regs[4..]);
        assert_eq!(regs[0], 1 | 2 << 16);
    }
}
