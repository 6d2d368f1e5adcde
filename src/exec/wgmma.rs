//! The warpgroup MMA (PTX ISA 9.7.15): `wgmma.mma_async` and its fence, commit and
//! wait.
//!
//! A warpgroup is four consecutive warps, the first a multiple of four. Warp `w` of
//! the group holds rows `16w .. 16w + 16` of A and D, and every column of B, so each
//! warp computes its part alone, when it executes the instruction: it reads its rows
//! of A (registers or shared memory), all of B (shared memory) and its accumulators,
//! and writes its accumulators. Reading the operands at issue is one of the orders the
//! ISA allows ("at the latest when the group is waited on").
//!
//! Register fragments (9.7.15.5.1.1) follow `mma.sync`'s for each of the warp's 16 rows
//! (`g` = lane / 4, `t` = lane % 4): D register `i` holds row `g + 8 * (i / 2 % 2)`,
//! column `8 * (i / 4) + 2t + i % 2` (two to a `.f16x2` register with f16
//! accumulators, the first in the low half); A in registers holds, per element width,
//! what `mma.m16n8k{16,8,32,256}` A holds.
//!
//! Shared-memory operands (9.7.15.5.1.2) are read through a 64-bit matrix descriptor:
//! bits 0-13 the start address, 16-29 the leading dimension byte offset (LBO), 32-45
//! the stride dimension byte offset (SBO), each in units of 16 bytes; 49-51 the base
//! offset; 62-63 the swizzle (0 none, 1 128-byte, 2 64-byte, 3 32-byte). The matrix is
//! made of core matrices of 8 rows of 16 bytes. In the canonical layouts (with `W` the
//! swizzle width, `mn` the row of A or column of B, `kb` the byte of K, K-major):
//!
//! - no swizzle: `start + mn % 8 * 16 + mn / 8 * SBO + kb % 16 + kb / 16 * LBO`;
//! - swizzled: `start + mn % 8 * W + mn / 8 * SBO + kb`;
//!
//! and MN-major (the transposes, f16 and bf16 only), with `mb` the byte of M or N and
//! `k` the element of K:
//!
//! - no swizzle: `start + mb % 16 + mb / 16 * SBO + k % 8 * 16 + k / 8 * LBO`;
//! - swizzled: `start + mb % W + mb / W * LBO + k % 8 * W + k / 8 * SBO`.
//!
//! A swizzle then XORs address bits 4.. with bits 7.. (one, two or three bits for 32,
//! 64 and 128 bytes) of the shared address, as TMA writes a tile (`tma.rs`).
//!
//! What the ISA leaves undefined, and ptxvm reports:
//!
//! - an instruction other than a wgmma that names an accumulator or A register of a
//!   `wgmma.mma_async` before a `wgmma.wait_group` has waited for it (the lowering lists
//!   the registers each instruction names, [`Program::touches`]);
//! - a `wgmma.mma_async` with no `wgmma.fence` before it, or whose accumulator or A
//!   registers another instruction named since the last fence (each register's last
//!   naming is noted, with the warp's clock, in kernels that have wgmma);
//! - shared memory that a pending `wgmma.mma_async` read, changed (by any thread, or a
//!   copy) before the wait: the bytes read are kept and compared at the wait;
//! - the warps of a warpgroup executing different `wgmma.mma_async`s (another
//!   instruction, other descriptors or scale-d), or a warp exiting without executing
//!   one that the others did: each warpgroup keeps a log of them ([`WgGroup`]);
//! - descriptors or scale-d that differ across a warp, and a CTA without the whole
//!   warpgroup.
//!
//! [`Program::touches`]: crate::lower::program::Program::touches

use super::warp::{Cta, Fault, Warp, pred_mask};
use crate::lower::program::{Inst, Wgmma, WgmmaA, WgmmaKind, WgmmaMma};
use crate::lower::program::{Rnd, Src};
use crate::sem::cvt::{float_to_float, fp8_to_f16, widen};
use crate::sem::matrix::{dot_b1, dot_f32, dot_int};
use crate::sem::round;

/// The K data of one row of A or column of B: 32 bytes, K in order.
type Row = [u8; 32];

/// Why a wgmma is undefined, with the instruction a note names (its pc and what it is).
type Note = (String, Option<(u32, &'static str)>);

/// A `wgmma.mma_async` that no `wgmma.wait_group` has waited for yet.
struct Pending {
    pc: u32,
    frame: u32,
    /// Its number among its warpgroup's wgmma.mma_asyncs.
    seq: u64,
    /// The group it belongs to: the warp's commits before it.
    group: u64,
    /// The shared memory it read: (address, length) and, in order, the bytes.
    reads: Vec<(u32, u8)>,
    bytes: Vec<u8>,
}

/// A warp's `wgmma.mma_async`s not yet waited for, its commits, the clock of its last
/// `wgmma.fence`, and when (clock, frame) each register was last named by another
/// instruction.
#[derive(Default)]
pub(super) struct WgWarp {
    pending: Vec<Pending>,
    commits: u64,
    fence: Option<u64>,
    seen: rustc_hash::FxHashMap<u32, (u64, u32, u32)>,
}

/// What identifies one `wgmma.mma_async` of a warpgroup: every warp must execute the
/// same one, with the same descriptors and scale-d.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sig {
    pc: u32,
    desc_a: Option<u64>,
    desc_b: u64,
    scale_d: bool,
}

/// Most `wgmma.mma_async`s one warp of a warpgroup may run ahead of another.
const MAX_AHEAD: usize = 1 << 16;

/// The `wgmma.mma_async`s of one warpgroup that not all of its warps have executed
/// yet, shared by its four warps: entry `i` is the warpgroup's `base + i`-th, with
/// the warps that executed it (a bit each).
#[derive(Default)]
pub(crate) struct WgGroup {
    log: std::collections::VecDeque<(Sig, u8)>,
    base: u64,
    /// How many each warp executed.
    next: [u64; 4],
    /// Warps whose threads all exited.
    gone: u8,
    /// The warpgroup operations below this number have completed: a warp's wait for
    /// them returned (they read nothing more after it).
    done_below: u64,
}

impl WgGroup {
    /// Records warp `rank` executing `sig`; an error says how the warps disagree, and
    /// the pc of the other instruction.
    fn execute(&mut self, rank: usize, sig: Sig) -> Result<u64, Note> {
        let seq = self.next[rank];
        self.next[rank] += 1;
        let at = (seq - self.base) as usize;
        if let Some((first, seen)) = self.log.get_mut(at) {
            if *first != sig {
                let what = if first.pc != sig.pc {
                    "a different wgmma.mma_async".to_string()
                } else {
                    format!(
                        "this wgmma.mma_async with descriptors A {} B {:#x} and scale-d {}",
                        first.desc_a.map_or("in registers".into(), |d| format!("{d:#x}")),
                        first.desc_b,
                        first.scale_d
                    )
                };
                let who = seen.trailing_zeros();
                let cause = format!(
                    "the warpgroup disagrees: as its wgmma.mma_async number {seq}, warp {rank} of the warpgroup \
                     executes this one (A {}, B {:#x}, scale-d {}), and warp {who} executed {what} (undefined \
                     behaviour)",
                    sig.desc_a.map_or("in registers".into(), |d| format!("{d:#x}")),
                    sig.desc_b,
                    sig.scale_d
                );
                return Err((cause, (first.pc != sig.pc).then_some((first.pc, "the other wgmma.mma_async"))));
            }
            *seen |= 1 << rank;
        } else {
            if self.log.len() >= MAX_AHEAD {
                return Err((
                    format!(
                        "warp {rank} of the warpgroup ran {MAX_AHEAD} wgmma.mma_async ahead of another warp of it"
                    ),
                    None,
                ));
            }
            self.log.push_back((sig, 1 << rank));
        }
        self.settle().map(|()| seq)
    }

    /// Whether every warp of the warpgroup has issued its wgmma.mma_async number
    /// `seq` (or exited): only then does the warpgroup's operation complete.
    fn issued_by_all(&self, seq: u64) -> bool {
        match seq.checked_sub(self.base) {
            None => true,
            Some(at) => self.log.get(at as usize).is_none_or(|&(_, seen)| seen | self.gone == 0xf),
        }
    }

    /// Drops the entries every live warp executed; an error names an entry that a
    /// warp which exited never executed.
    fn settle(&mut self) -> Result<(), Note> {
        while let Some(&(sig, seen)) = self.log.front() {
            if seen | self.gone != 0xf {
                break;
            }
            if seen & self.gone != self.gone {
                let gone = (self.gone & !seen).trailing_zeros();
                let cause = format!(
                    "warp {gone} of the warpgroup exited without executing a wgmma.mma_async that the others \
                     executed (undefined behaviour)"
                );
                return Err((cause, Some((sig.pc, "the wgmma.mma_async"))));
            }
            self.log.pop_front();
            self.base += 1;
        }
        Ok(())
    }
}

/// A shared-memory matrix descriptor, its fields in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Desc {
    start: u64,
    lbo: u64,
    sbo: u64,
    /// The swizzle width in bytes (0: none).
    width: u64,
}

impl Desc {
    fn of(d: u64) -> Result<Desc, String> {
        let field = |at: u32| (d >> at & 0x3fff) << 4;
        let base = d >> 49 & 7;
        if base != 0 {
            return Err(format!(
                "the matrix descriptor {d:#x} has base offset {base}; ptxvm runs only base offset 0 (the canonical \
                 layouts, with swizzle patterns aligned to their size)"
            ));
        }
        let width = match d >> 62 {
            0 => 0,
            1 => 128,
            2 => 64,
            _ => 32,
        };
        Ok(Desc { start: field(0), lbo: field(16), sbo: field(32), width })
    }

    fn swizzle(&self, a: u64) -> u64 {
        super::tma::swizzle(a, self.width)
    }

    /// The address of byte `kb` (< 32) of row `mn` in a K-major layout.
    fn k_major(&self, mn: u64, kb: u64) -> u64 {
        let lin = if self.width == 0 {
            self.start + mn % 8 * 16 + mn / 8 * self.sbo + kb % 16 + kb / 16 * self.lbo
        } else {
            self.start + mn % 8 * self.width + mn / 8 * self.sbo + kb
        };
        self.swizzle(lin)
    }

    /// The address of byte `mb` of M or N at element `k` of K in an MN-major layout.
    fn mn_major(&self, mb: u64, k: u64) -> u64 {
        let lin = if self.width == 0 {
            self.start + mb % 16 + mb / 16 * self.sbo + k % 8 * 16 + k / 8 * self.lbo
        } else {
            let w = self.width;
            self.start + mb % w + mb / w * self.lbo + k % 8 * w + k / 8 * self.sbo
        };
        self.swizzle(lin)
    }
}

/// The D of a sparse wgmma for each lane's `elems` accumulator elements into `out`:
/// each row's kept elements of A (`kept`, with the K each meets) times the elements of
/// B's column `b(column, k)` they meet, plus `c0(lane, element)` (raw), summed as the
/// dense forms sum.
fn sparse_products(
    mma: &WgmmaMma,
    kept: &[Vec<(u64, usize)>],
    b: impl Fn(usize, usize) -> u64,
    c0: impl Fn(usize, usize) -> u64,
    elems: usize,
    out: &mut [[u64; 128]],
) {
    let kind = mma.kind;
    let (fa, fb) = match kind {
        WgmmaKind::Fp8 { a, b } => (Some(a), Some(b)),
        _ => (None, None),
    };
    let value = |v: u64, fp8: Option<crate::sem::cvt::Fp8>, neg: bool| -> f32 {
        let x = match (kind, fp8) {
            (WgmmaKind::Half { bf16 }, _) => widen(if bf16 { round::BF16 } else { round::F16 }, v) as f32,
            (WgmmaKind::Tf32, _) => f32::from_bits(v as u32 & 0xffff_e000),
            (_, Some(f)) => widen(round::F16, fp8_to_f16(f, v as u8)) as f32,
            _ => 0.0,
        };
        if neg { -x } else { x }
    };
    let int = |v: u64, signed: bool| if signed { i64::from(v as u8 as i8) } else { v as i64 };
    let (a_signed, b_signed) = match kind {
        WgmmaKind::Int8 { a_signed, b_signed, .. } => (a_signed, b_signed),
        _ => (false, false),
    };
    // Each row's kept elements of A as values, once.
    let a_f: Vec<Vec<f32>> =
        kept.iter().map(|ks| ks.iter().map(|&(x, _)| value(x, fa, mma.neg_a)).collect()).collect();
    let a_i: Vec<Vec<i64>> =
        kept.iter().map(|ks| ks.iter().map(|&(x, _)| int(x, a_signed)).collect()).collect();
    for (lane, o) in out.iter_mut().enumerate() {
        for (i, e) in o.iter_mut().take(elems).enumerate() {
            let (r, c) = d_place(lane / 4, lane % 4, i);
            let ks = &kept[r];
            *e = match kind {
                WgmmaKind::Int8 { satfinite, .. } => {
                    let bv: Vec<i64> = ks.iter().map(|&(_, kk)| int(b(c, kk), b_signed)).collect();
                    u64::from(dot_int(&a_i[r], &bv, i64::from(c0(lane, i) as u32 as i32), satfinite))
                }
                _ => {
                    let bv: Vec<f32> = ks.iter().map(|&(_, kk)| value(b(c, kk), fb, mma.neg_b)).collect();
                    let c = c0(lane, i);
                    let c = if mma.acc16 { widen(round::F16, c) as f32 } else { f32::from_bits(c as u32) };
                    let sum = u64::from(dot_f32(&a_f[r], &bv, c).to_bits());
                    if mma.acc16 {
                        float_to_float(round::F16, round::F32, Rnd::Rn, false, false, sum)
                    } else {
                        sum
                    }
                }
            };
        }
    }
}

/// Element `k` of `bits` bits (1, 8, 16 or 32) of a row.
fn elem(row: &Row, k: usize, bits: usize) -> u64 {
    match bits {
        1 => u64::from(row[k / 8] >> (k % 8) & 1),
        _ => {
            let size = bits / 8;
            row[k * size..(k + 1) * size].iter().rev().fold(0, |v, b| v << 8 | u64::from(*b))
        }
    }
}

/// Sets element `k` of `bits` bits of a row.
fn set_elem(row: &mut Row, k: usize, bits: usize, v: u64) {
    match bits {
        1 => {
            let m = 1 << (k % 8);
            row[k / 8] = (row[k / 8] & !m) | if v & 1 == 1 { m } else { 0 };
        }
        _ => {
            let size = bits / 8;
            for (j, b) in row[k * size..(k + 1) * size].iter_mut().enumerate() {
                *b = (v >> (8 * j)) as u8;
            }
        }
    }
}

/// Where lane (`g`, `t`)'s element `i` of A in registers lies: (row, k, register,
/// bit offset in it), as `mma.sync` A fragments of 16 rows place them.
fn a_place(bits: usize, g: usize, t: usize, i: usize) -> (usize, usize, usize, usize) {
    match bits {
        16 => (g + 8 * (i >> 1 & 1), 2 * t + (i & 1) + 8 * (i >> 2), i / 2, 16 * (i & 1)),
        32 => (g + 8 * (i & 1), t + 4 * (i >> 1), i, 0),
        8 => (g + 8 * (i >> 2 & 1), 4 * t + (i & 3) + 16 * (i >> 3), i / 4, 8 * (i & 3)),
        // Single bits: register r holds 32 of them, row g (+8 in r = 1, 3), K from
        // 32t (+128 in r = 2, 3).
        _ => {
            let (r, j) = (i / 32, i % 32);
            (g + 8 * (r & 1), 32 * t + j + 128 * (r >> 1), r, j)
        }
    }
}

/// Where lane (`g`, `t`)'s accumulator element `i` lies in the warp's 16 rows.
fn d_place(g: usize, t: usize, i: usize) -> (usize, usize) {
    (g + 8 * (i >> 1 & 1), 8 * (i >> 2) + 2 * t + (i & 1))
}

impl Cta<'_> {
    /// Runs a `wgmma` instruction for a whole warp.
    pub(super) fn wgmma(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        w: &Wgmma,
    ) -> Result<(), Fault> {
        let fault = |warp: &Warp, (cause, note): Note| {
            let mut f = self.fault(n, warp, u32::MAX, inst, cause);
            f.notes.extend(note.map(|(pc, what)| (pc, what.to_string())));
            f
        };
        match w {
            // Each wgmma completes as it is issued: the fence marks where register
            // accesses may no longer touch the wgmmas' operands.
            Wgmma::Fence => {
                warp.wg.get_or_insert_default().fence = Some(warp.clock);
                Ok(())
            }
            Wgmma::Commit => {
                warp.wg.get_or_insert_default().commits += 1;
                Ok(())
            }
            Wgmma::Wait(keep) => {
                let Some(wg) = warp.wg.as_mut() else { return Ok(()) };
                // The groups older than the newest `keep` complete now.
                let done = wg.commits.saturating_sub(u64::from(*keep));
                let (finished, pending): (Vec<_>, Vec<_>) =
                    wg.pending.drain(..).partition(|p| p.group < done);
                wg.pending = pending;
                warp.wg_watch = !wg.pending.is_empty();
                // A warpgroup operation another warp's wait already completed read its
                // operands by then: what changed since is no hazard.
                let mut group = warp.wg_group.as_ref().map(|g| g.borrow_mut());
                let done_below = group.as_ref().map_or(0, |g| g.done_below);
                if let (Some(g), Some(last)) = (group.as_mut(), finished.iter().map(|p| p.seq + 1).max()) {
                    g.done_below = g.done_below.max(last);
                }
                drop(group);
                for p in finished.into_iter().filter(|p| p.seq >= done_below) {
                    let mut at = 0;
                    for &(a, len) in &p.reads {
                        let (a, len) = (a as usize, usize::from(len));
                        let was = &p.bytes[at..at + len];
                        if let Some(k) = (0..len).find(|&k| shared.get(a + k) != Some(&was[k])) {
                            let cause = format!(
                                "shared memory at {:#x} that a wgmma.mma_async read changed before this \
                                 wgmma.wait_group waited for it (undefined behaviour: the wgmma may read its \
                                 operands at any time until then)",
                                a + k
                            );
                            let mut f = self.fault(n, warp, u32::MAX, inst, cause);
                            f.notes.push((p.pc, "the wgmma.mma_async that read it".into()));
                            return Err(f);
                        }
                        at += len;
                    }
                }
                Ok(())
            }
            Wgmma::Mma(mma) => self.wgmma_mma(warp, shared, mma).map_err(|e| fault(warp, e)),
        }
    }

    /// Whether `wgmma.wait_group keep` may complete now: the warpgroup operations of
    /// the groups it waits for have been issued by every warp of the warpgroup (each
    /// warp computes its part when it issues it; the operation is the warpgroup's, so
    /// a warp that ran ahead waits here for the others, as on the GPU).
    pub(super) fn wgmma_wait_ready(&self, warp: &Warp, keep: u32) -> bool {
        let (Some(wg), Some(group)) = (warp.wg.as_ref(), warp.wg_group.as_ref()) else { return true };
        let done = wg.commits.saturating_sub(u64::from(keep));
        let group = group.borrow();
        wg.pending.iter().filter(|p| p.group < done).all(|p| group.issued_by_all(p.seq))
    }

    /// In a kernel with wgmma, before the instruction at `pc` runs: whether it names a
    /// register that a pending `wgmma.mma_async` owns (the cause, and the wgmma's pc);
    /// else it notes when it named each of its registers, for the fence rule.
    pub(super) fn wgmma_track(&self, warp: &mut Warp, pc: u32) -> Option<(String, u32)> {
        if matches!(self.program.insts[pc as usize].op, crate::lower::program::Op::Wgmma(_)) {
            return None;
        }
        let keys = self.program.touches.get(pc as usize)?;
        let (frame, clock, watch) = (warp.frame_id(), warp.clock, warp.wg_watch);
        let wg = warp.wg.get_or_insert_default();
        if !watch {
            for &k in keys.iter() {
                wg.seen.insert(k, (clock, frame, pc));
            }
            return None;
        }
        let owns = |p: &Pending| match &self.program.insts[p.pc as usize].op {
            crate::lower::program::Op::Wgmma(Wgmma::Mma(m)) => keys.iter().any(|k| m.operands.contains(k)),
            _ => false,
        };
        let p = wg.pending.iter().find(|p| p.frame == frame && owns(p))?;
        let cause = "this instruction names an accumulator or A register of a wgmma.mma_async that no \
                     wgmma.wait_group has waited for (undefined behaviour in the PTX ISA; ptxas 13 makes such \
                     code wait, at a cost, and says so in its C7514 and C7517 notes)"
            .to_string();
        Some((cause, p.pc))
    }

    /// A warp whose threads all exited: its warpgroup learns it.
    pub(super) fn wgmma_gone(&self, n: u64, warp: &Warp, inst: &Inst) -> Result<(), Fault> {
        let Some(group) = warp.wg_group.as_ref() else { return Ok(()) };
        let mut g = group.borrow_mut();
        g.gone |= 1 << (warp.index % 4);
        g.settle().map_err(|(cause, note)| {
            let mut f = self.fault(n, warp, u32::MAX, inst, cause);
            f.notes.extend(note.map(|(pc, what)| (pc, what.to_string())));
            f
        })
    }

    fn wgmma_mma(&self, warp: &mut Warp, shared: &[u8], mma: &WgmmaMma) -> Result<(), Note> {
        let pc = warp.pc_now;
        // PTX ISA 9.7.15.5.1: wgmma.fence before the first wgmma.mma_async, and between
        // any other access to a wgmma's accumulator or A registers and the wgmma.
        let frame = warp.frame_id();
        let wg = warp.wg.get_or_insert_default();
        let Some(fence) = wg.fence else {
            let cause = "wgmma.mma_async with no wgmma.fence before it (undefined behaviour)".to_string();
            return Err((cause, None));
        };
        let late =
            mma.operands.iter().filter_map(|k| wg.seen.get(k)).find(|&&(c, f, _)| f == frame && c >= fence);
        if let Some(&(_, _, at)) = late {
            let cause = "an accumulator or A register of this wgmma.mma_async was accessed since the last \
                         wgmma.fence, which must come between the two (undefined behaviour)"
                .to_string();
            return Err((cause, Some((at, "the access"))));
        }
        let mut reads = Vec::new();
        let sig = self.wgmma_compute(warp, shared, mma, &mut reads).map_err(|c| (c, None))?;
        let seq = match warp.wg_group.clone() {
            Some(group) => group.borrow_mut().execute((warp.index % 4) as usize, sig)?,
            None => 0,
        };
        let bytes = reads
            .iter()
            .flat_map(|&(a, len)| &shared[a as usize..a as usize + usize::from(len)])
            .copied()
            .collect();
        let frame = warp.frame_id();
        let wg = warp.wg.get_or_insert_default();
        let group = wg.commits;
        wg.pending.push(Pending { pc, frame, seq, group, reads, bytes });
        warp.wg_watch = true;
        Ok(())
    }

    /// Computes the warp's part of a `wgmma.mma_async`, listing the shared memory it
    /// reads; returns what the warpgroup's other warps must agree on.
    fn wgmma_compute(
        &self,
        warp: &mut Warp,
        shared: &[u8],
        mma: &WgmmaMma,
        reads: &mut Vec<(u32, u8)>,
    ) -> Result<Sig, String> {
        use super::lane::{read, write};
        let first = warp.index / 4 * 4;
        if self.shape.warps_per_cta() < first + 4 || self.shape.warp_mask(first + 3) != u32::MAX {
            return Err(format!(
                "wgmma.mma_async needs a whole warpgroup (threads {}..{}), and the CTA has {} threads \
                 (undefined behaviour)",
                first * 32,
                first * 32 + 128,
                self.shape.block.count()
            ));
        }
        let rank = (warp.index % 4) as u64;
        let uniform = |src: Src, what: &str| -> Result<u64, String> {
            let v = read(warp, src, 0);
            match (1..32).find(|&l| read(warp, src, l) != v) {
                Some(l) => Err(format!(
                    "{what} differs across the warp: lane 0 has {v:#x}, lane {l} {:#x} (undefined behaviour)",
                    read(warp, src, l)
                )),
                None => Ok(v),
            }
        };
        let kind = mma.kind;
        let bits = kind.bits();
        let k = kind.k();
        let n_cols = usize::from(mma.n);
        // The warp's 16 rows of A.
        let mut a = [[0u8; 32]; 16];
        let mut desc_a = None;
        match mma.a {
            WgmmaA::Desc(src) => {
                let raw = uniform(src, "the descriptor of A")?;
                desc_a = Some(raw);
                let d = Desc::of(raw)?;
                for (r, row) in a.iter_mut().enumerate() {
                    *row =
                        self.wgmma_row(warp, shared, &d, 16 * rank + r as u64, mma.trans_a, bits, 0, reads)?;
                }
            }
            WgmmaA::Regs(srcs) => {
                // Four 32-bit registers a lane.
                let count = 128 / bits;
                for lane in 0..32 {
                    let (g, t) = (lane / 4, lane % 4);
                    for i in 0..count {
                        let (r, kk, reg, shift) = a_place(bits, g, t, i);
                        let v = read(warp, srcs[reg], lane) >> shift;
                        set_elem(&mut a[r], kk, bits, v);
                    }
                }
            }
        }
        let desc_b = uniform(mma.b, "the descriptor of B")?;
        let db = Desc::of(desc_b)?;
        let mut b = Vec::with_capacity(n_cols);
        for col in 0..n_cols {
            b.push(self.wgmma_row(warp, shared, &db, col as u64, mma.trans_b, bits, 0, reads)?);
        }
        // A sparse wgmma's B has twice the K: the second 32 bytes of each column.
        let mut b_hi = Vec::new();
        if mma.sparse.is_some() {
            for col in 0..n_cols {
                b_hi.push(self.wgmma_row(warp, shared, &db, col as u64, mma.trans_b, bits, 1, reads)?);
            }
        }
        let scale = pred_mask(warp, mma.scale_d);
        if scale != 0 && scale != u32::MAX {
            return Err(format!(
                "scale-d differs across the warp: true in lanes {scale:#010x} only (undefined behaviour)"
            ));
        }
        let keep = scale != 0;
        // Each lane's accumulator elements: N/2 of them.
        let elems = n_cols / 2;
        let acc = |lane: usize, i: usize| -> u64 {
            if mma.acc16 {
                read(warp, Src::Reg(mma.d[i / 2]), lane) >> (16 * (i & 1)) & 0xffff
            } else {
                read(warp, Src::Reg(mma.d[i]), lane) & 0xffff_ffff
            }
        };
        let mut out = vec![[0u64; 128]; 32];
        if let Some((meta, sel)) = mma.sparse {
            let e: [u64; 32] = std::array::from_fn(|lane| read(warp, meta, lane));
            let kept = super::sparse::kept(bits, 2 * k, sel, false, &e, |r, c| elem(&a[r], c, bits))
                .map_err(|e| format!("wgmma.mma_async.sp: {e}"))?;
            // Element `kk` of K of column `c` of B.
            let b_at = |c: usize, kk: usize| {
                if kk < k { elem(&b[c], kk, bits) } else { elem(&b_hi[c], kk - k, bits) }
            };
            let c0 = |lane: usize, i: usize| if keep { acc(lane, i) } else { 0 };
            sparse_products(mma, &kept, b_at, c0, elems, &mut out);
        } else {
            match kind {
                WgmmaKind::Int8 { a_signed, b_signed, satfinite } => {
                    let value = |row: &Row, kk: usize, signed: bool| {
                        let v = elem(row, kk, 8) as u8;
                        if signed { i64::from(v as i8) } else { i64::from(v) }
                    };
                    let am: Vec<Vec<i64>> =
                        a.iter().map(|r| (0..k).map(|kk| value(r, kk, a_signed)).collect()).collect();
                    let bm: Vec<Vec<i64>> =
                        b.iter().map(|r| (0..k).map(|kk| value(r, kk, b_signed)).collect()).collect();
                    for (lane, o) in out.iter_mut().enumerate() {
                        for (i, e) in o.iter_mut().take(elems).enumerate() {
                            let (r, c) = d_place(lane / 4, lane % 4, i);
                            let c0 = if keep { i64::from(acc(lane, i) as u32 as i32) } else { 0 };
                            *e = u64::from(dot_int(&am[r], &bm[c], c0, satfinite));
                        }
                    }
                }
                WgmmaKind::B1 => {
                    let bit = |row: &Row| (0..k).map(|kk| elem(row, kk, 1) == 1).collect::<Vec<_>>();
                    let am: Vec<Vec<bool>> = a.iter().map(bit).collect();
                    let bm: Vec<Vec<bool>> = b.iter().map(bit).collect();
                    for (lane, o) in out.iter_mut().enumerate() {
                        for (i, e) in o.iter_mut().take(elems).enumerate() {
                            let (r, c) = d_place(lane / 4, lane % 4, i);
                            let c0 = if keep { i64::from(acc(lane, i) as u32 as i32) } else { 0 };
                            *e = u64::from(dot_b1(&am[r], &bm[c], c0, true));
                        }
                    }
                }
                _ => {
                    let value = |row: &Row, kk: usize, fp8: Option<crate::sem::cvt::Fp8>| -> f32 {
                        let e = elem(row, kk, bits);
                        match (kind, fp8) {
                            (WgmmaKind::Half { bf16 }, _) => {
                                widen(if bf16 { round::BF16 } else { round::F16 }, e) as f32
                            }
                            (WgmmaKind::Tf32, _) => f32::from_bits(e as u32 & 0xffff_e000),
                            (_, Some(f)) => widen(round::F16, fp8_to_f16(f, e as u8)) as f32,
                            _ => unreachable!("integer kinds are handled above"),
                        }
                    };
                    let (fa, fb) = match kind {
                        WgmmaKind::Fp8 { a, b } => (Some(a), Some(b)),
                        _ => (None, None),
                    };
                    let signed = |x: f32, neg: bool| if neg { -x } else { x };
                    let am: Vec<Vec<f32>> = a
                        .iter()
                        .map(|r| (0..k).map(|kk| signed(value(r, kk, fa), mma.neg_a)).collect())
                        .collect();
                    let bm: Vec<Vec<f32>> = b
                        .iter()
                        .map(|r| (0..k).map(|kk| signed(value(r, kk, fb), mma.neg_b)).collect())
                        .collect();
                    for (lane, o) in out.iter_mut().enumerate() {
                        for (i, e) in o.iter_mut().take(elems).enumerate() {
                            let (r, c) = d_place(lane / 4, lane % 4, i);
                            let c0 = match (keep, mma.acc16) {
                                (false, _) => 0.0,
                                (true, false) => f32::from_bits(acc(lane, i) as u32),
                                (true, true) => widen(round::F16, acc(lane, i)) as f32,
                            };
                            let sum = dot_f32(&am[r], &bm[c], c0);
                            *e = if mma.acc16 {
                                // Summed as f32 accumulators are, then rounded to f16 once.
                                float_to_float(
                                    round::F16,
                                    round::F32,
                                    Rnd::Rn,
                                    false,
                                    false,
                                    u64::from(sum.to_bits()),
                                )
                            } else {
                                u64::from(sum.to_bits())
                            };
                        }
                    }
                }
            }
        }
        let sig = Sig { pc: warp.pc_now, desc_a, desc_b, scale_d: keep };
        for (lane, o) in out.iter().enumerate() {
            if mma.acc16 {
                for (j, slot) in mma.d.iter().enumerate() {
                    write(warp, *slot, lane, o[2 * j] | o[2 * j + 1] << 16);
                }
            } else {
                for (slot, v) in mma.d.iter().zip(o) {
                    write(warp, *slot, lane, *v);
                }
            }
        }
        Ok(sig)
    }

    /// The K data of row `mn` (of A, or column of B) of a descriptor's matrix:
    /// K-major, or MN-major when transposed; its 32 bytes number `part` (a sparse
    /// wgmma's B has two). Each range read is added to `reads`.
    #[allow(clippy::too_many_arguments)]
    fn wgmma_row(
        &self,
        warp: &Warp,
        shared: &[u8],
        d: &Desc,
        mn: u64,
        trans: bool,
        bits: usize,
        part: u64,
        reads: &mut Vec<(u32, u8)>,
    ) -> Result<Row, String> {
        let mut row = [0u8; 32];
        let mut read = |a: u64, into: &mut [u8]| -> Result<(), String> {
            let r = self
                .shared_range(shared.len(), a, into.len() as u8)
                .map_err(|e| format!("wgmma.mma_async: {e}"))?;
            super::lane::shadow(warp, 0, r.start, r.len(), false, false);
            reads.push((r.start as u32, r.len() as u8));
            into.copy_from_slice(&shared[r]);
            Ok(())
        };
        if !trans {
            // 64 bytes of K in a row of a 32-byte swizzle: how they lie is not the
            // canonical layouts' (each of which holds one row's K in the swizzle's span).
            if part == 1 && d.width == 32 {
                return Err(
                    "wgmma.mma_async.sp: B's 64 bytes of K in a K-major layout with the 32-byte swizzle are not \
                     laid out as ptxvm knows (use no swizzle, or 64 or 128 bytes)"
                        .into(),
                );
            }
            let (lo, hi) = row.split_at_mut(16);
            read(d.k_major(mn, 32 * part), lo)?;
            read(d.k_major(mn, 32 * part + 16), hi)?;
        } else {
            // MN-major: 16-bit elements only (the lowering allows no other).
            let size = bits as u64 / 8;
            let per = 256 / bits;
            for kk in 0..per {
                let at = d.mn_major(mn * size, (kk + per * part as usize) as u64);
                read(at, &mut row[kk * size as usize..(kk + 1) * size as usize])?;
            }
        }
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_fields_and_swizzles() {
        // start 0x400, LBO 16, SBO 1024, 128-byte swizzle.
        let d = Desc::of(0x400 >> 4 | 1 << 16 | 64 << 32 | 1 << 62).unwrap();
        assert_eq!(d, Desc { start: 0x400, lbo: 16, sbo: 1024, width: 128 });
        // Row 3's first chunk: 0x400 + 3 * 128 = 0x580; bits 7-9 are 3, so chunk 0 -> 3.
        assert_eq!(d.k_major(3, 0), 0x580 ^ 0x30);
        assert_eq!(d.k_major(3, 16), 0x590 ^ 0x30);
        // Row 9: the second group of 8 rows, SBO on: 0x400 + 1024 + 128.
        assert_eq!(d.k_major(9, 0), (0x400 + 1024 + 128) ^ 0x10);
        // No swizzle: rows 16 bytes apart in a core matrix, LBO between the K halves.
        let n = Desc::of(0x100 >> 4 | (128 >> 4) << 16 | (256 >> 4) << 32).unwrap();
        assert_eq!(n.k_major(1, 0), 0x110);
        assert_eq!(n.k_major(1, 16), 0x110 + 128);
        assert_eq!(n.k_major(8, 2), 0x100 + 256 + 2);
        assert!(Desc::of(1 << 49).is_err());
    }

    #[test]
    fn fragments_cover_the_warp_rows_once() {
        for bits in [1, 8, 16, 32] {
            let per_lane = 128 / bits;
            let mut seen = vec![vec![0; 256 / bits]; 16];
            for lane in 0..32 {
                for i in 0..per_lane {
                    let (r, k, reg, shift) = a_place(bits, lane / 4, lane % 4, i);
                    assert!(reg < 4 && shift + bits <= 32);
                    seen[r][k] += 1;
                }
            }
            assert!(seen.iter().flatten().all(|&c| c == 1), "bits {bits}");
        }
        let mut seen = [[0; 256]; 16];
        for lane in 0..32 {
            for i in 0..128 {
                let (r, c) = d_place(lane / 4, lane % 4, i);
                seen[r][c] += 1;
            }
        }
        assert!(seen.iter().flatten().all(|&c| c == 1));
    }
}
