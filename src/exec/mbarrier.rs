//! mbarrier objects at run time (PTX ISA 9.7.13.15) and the bulk copies that complete
//! on them (9.7.9.25.4.1); the state machine itself is `sem::mbarrier`.
//!
//! An object is the 8 bytes of shared memory it was initialised in. Each lane's
//! operation is applied in lane order, so the arrivals of one warp instruction count
//! one after another, and one that completes a phase makes the next count towards the
//! following phase, as on hardware.
//!
//! `test_wait` never blocks: a lane whose phase is not complete gets false. Kernels
//! spin on it, so those lanes then wait before their next instruction until the
//! phase completes or nothing else in the CTA can run (time passes): the lanes and
//! threads they wait for run first, also lanes of their own group that are done
//! with the loop and wait at its reconvergence point, which go on alone only when
//! nothing can run. A `test_wait` loop on a phase that never completes ends at the
//! step budget. `try_wait` suspends the thread until the phase completes or a time
//! limit passes, after which it returns false (PTX ISA: "potentially blocking"): its
//! lanes wait, as at a barrier, and [`Cta::wake_mbarriers`] lets them go with true
//! once their phase has completed. The time limit passes when nothing else in the CTA
//! can run ([`Cta::time_out_try_waits`]): the lanes go on with false, so a program
//! may do other work and try again. When nothing can run a second time with the same
//! lanes waiting at the same `try_wait`s on unchanged mbarriers, nothing ever will:
//! a barrier that can never complete is a deadlock fault that names it, not a hang.
//!
//! Copies are done when issued (as `cp.async` is), so `cp.async.mbarrier.arrive`
//! (which counts one more pending arrival, then arrives once the copies are done)
//! changes nothing, its `.noinc` form is one arrival, and a bulk copy's
//! complete-tx happens at once.

use super::lane::{Target, read, write};
use super::simt::Wait;
use super::warp::{Cta, Fault, Warp, lanes};
use crate::lower::ops::{AtomOp, AtomTy};
use crate::lower::program::{CpBulk, CpTensor, Inst, Mbar, MbarOp, Mem, Op, Src};
use crate::sem::mbarrier::{self as mb, Arrive, Mbarrier};

impl Cta<'_> {
    /// Group `leaf` executes an mbarrier instruction with its `active` lanes; false
    /// when the group stops running (it waits, or left the tree).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mbarrier(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        m: &Mbar,
        leaf: u32,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<bool, Fault> {
        let MbarOp::Wait { parity, blocking } = m.op else {
            for lane in lanes(active) {
                self.mbar_lane(warp, shared, m, lane as usize)
                    .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
            }
            return Ok(warp.groups.goto(leaf, pc + 1));
        };
        let (mut waiting, mut pending) = (0u32, 0u32);
        for lane in lanes(active) {
            let l = lane as usize;
            let checked = |warp: &Warp| -> Result<(usize, bool, bool), String> {
                let at = self.mbar_at(warp, shared.len(), m.mem, m.addr, m.offset, l)?;
                let b = object(shared, at)?;
                let a = read(warp, m.a, l);
                // A phase's parity is the operand's low bit: ptxas shifts bit 0 alone
                // into the phase check (tests/run_mbarrier.rs), and Triton passes
                // -(phase & 1).
                let want = if parity { a & 1 == 1 } else { mb::state_parity(a)? };
                Ok((at, want, b.parity_done(want)))
            };
            let (at, want, done) =
                checked(warp).map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
            warp.mbar_at[l] = at as u32;
            warp.mbar_parity = (warp.mbar_parity & !(1 << lane)) | u32::from(want) << lane;
            if blocking && !done {
                waiting |= 1 << lane;
                continue;
            }
            pending |= u32::from(!done) << lane;
            if let Some(d) = m.dst {
                write(warp, d, l, u64::from(done));
            }
        }
        if waiting != 0 {
            Self::park(warp, leaf, pc, mask, waiting, Wait::Mbarrier { spin: false });
            return Ok(false);
        }
        let running = warp.groups.goto(leaf, pc + 1);
        if pending != 0 && running {
            // A `test_wait` that found its phase incomplete: those lanes go on when
            // it completes, or when nothing else can run, so the lanes and threads
            // they wait for run first (a spin loop would otherwise keep them from
            // it), and the others go on now.
            let spin = Wait::Mbarrier { spin: true };
            if pending == mask {
                warp.groups.node_mut(leaf).wait = spin;
            } else {
                let stay = warp.groups.fork(leaf, (pc + 1, mask & !pending), (pc + 1, pending));
                warp.groups.node_mut(stay).wait = spin;
            }
            return Ok(false);
        }
        Ok(running)
    }

    /// When nothing else can run: groups delayed after a `test_wait` go on (the
    /// phase they wait for is still incomplete). True when there was one.
    pub(super) fn wake_spinning(warp: &mut Warp) -> bool {
        let (spinning, len) = waiting(warp, |spin| spin);
        for w in &spinning[..len] {
            warp.groups.wake(w.leaf);
        }
        len != 0
    }

    /// Lets lanes waiting for an mbarrier phase go on once it has completed: those
    /// at `try_wait` with true, those delayed after a `test_wait` to run it again.
    /// True when some did.
    pub(super) fn wake_mbarriers(&self, warp: &mut Warp, shared: &[u8]) -> bool {
        let (groups, len) = waiting(warp, |_| true);
        let mut moved = false;
        for &Waiting { leaf: i, pc, mask, frame, spin } in &groups[..len] {
            let done = lanes(mask).fold(0, |done, lane| {
                let want = warp.mbar_parity >> lane & 1 == 1;
                let at = warp.mbar_at[lane as usize] as usize;
                let complete = object(shared, at).is_ok_and(|b| b.parity_done(want));
                done | u32::from(complete) << lane
            });
            if done == 0 {
                continue;
            }
            moved = true;
            if spin {
                // After a test_wait: the lanes run its loop again, and find the phase
                // complete this time.
                if done == mask {
                    warp.groups.wake(i);
                } else {
                    let stay = warp.groups.fork(i, (pc, done), (pc, mask & !done));
                    warp.groups.node_mut(stay).wait = Wait::Mbarrier { spin: true };
                }
                continue;
            }
            if let Op::Mbarrier(m) = &self.program.insts[pc as usize].op
                && let Some(d) = m.dst
            {
                warp.use_frame(frame);
                for lane in lanes(done) {
                    write(warp, d, lane as usize, 1);
                }
            }
            if done == mask {
                warp.groups.wake(i);
                warp.groups.goto(i, pc + 1);
            } else {
                let stay = warp.groups.fork(i, (pc + 1, done), (pc, mask & !done));
                warp.groups.node_mut(stay).wait = Wait::Mbarrier { spin: false };
            }
        }
        moved
    }

    /// When nothing else can run, the time limit of every waiting `try_wait` passes:
    /// its lanes get false and go on. True when there was one.
    pub(super) fn time_out_try_waits(&self, warp: &mut Warp) -> bool {
        let (groups, len) = waiting(warp, |spin| !spin);
        for &Waiting { leaf: i, pc, mask, frame, .. } in &groups[..len] {
            if let Op::Mbarrier(m) = &self.program.insts[pc as usize].op
                && let Some(d) = m.dst
            {
                warp.use_frame(frame);
                for lane in lanes(mask) {
                    write(warp, d, lane as usize, 0);
                }
            }
            warp.groups.wake(i);
            warp.groups.goto(i, pc + 1);
        }
        len != 0
    }

    /// Mixes into `h` what the lanes of `warp` waiting at a `try_wait` wait at and
    /// for (each group's pc and lanes, each lane's mbarrier word) and how often the
    /// warp changed an mbarrier. Equal before and after a time limit passed, no
    /// mbarrier changed in between and the same lanes wait where they did.
    pub(super) fn try_wait_signature(warp: &Warp, shared: &[u8], mut h: u64) -> u64 {
        let mut mix = |v: u64| h = (h ^ v).wrapping_mul(0x0100_0000_01b3);
        mix(warp.mbar_updates.get());
        for (_, node) in warp.groups.leaves().filter(|(_, n)| n.wait == (Wait::Mbarrier { spin: false })) {
            mix(u64::from(node.pc) << 32 | u64::from(node.mask));
            for lane in lanes(node.mask) {
                let at = warp.mbar_at[lane as usize] as usize;
                let word =
                    shared.get(at..at + 8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_le_bytes);
                mix(word);
            }
        }
        h
    }

    /// What lane `lane` of a group waiting at `try_wait` waits for, for a deadlock
    /// report.
    pub(super) fn mbar_waits_for(warp: &Warp, shared: &[u8], lane: u32) -> String {
        let at = warp.mbar_at[lane as usize];
        let want = warp.mbar_parity >> lane & 1;
        let state = match object(shared, at as usize) {
            Ok(b) => format!(
                "{} of {} arrivals pending, tx-count {}, current phase parity {}",
                b.pending,
                b.expected,
                b.tx,
                u8::from(b.parity)
            ),
            Err(e) => e,
        };
        format!(
            "wait at mbarrier.try_wait for the phase of parity {want} of the mbarrier at shared address {at:#x} to complete ({state})"
        )
    }

    /// One lane's mbarrier operation other than a wait.
    fn mbar_lane(&self, w: &mut Warp, shared: &mut [u8], m: &Mbar, l: usize) -> Result<(), String> {
        let a = read(w, m.a, l);
        if m.op == MbarOp::PendingCount {
            if let Some(d) = m.dst {
                write(w, d, l, u64::from(mb::pending_count(a)?));
            }
            return Ok(());
        }
        let (rank, at) = self.mbar_place(w, shared.len(), m.mem, m.addr, m.offset, l)?;
        let Some(rank) = rank else { return Self::mbar_apply(w, shared, at, m, a, l) };
        // Another CTA's mbarrier (`.shared::cluster`): arrivals and tx counts reach it.
        if !matches!(m.op, MbarOp::Arrive { .. } | MbarOp::ExpectTx | MbarOp::CompleteTx) {
            return Err(format!(
                "this mbarrier operation on the mbarrier at {at:#x} of the CTA of rank {rank}: only arrivals and \
                 tx-counts may reach another CTA's mbarrier"
            ));
        }
        let link = w.cluster.clone().ok_or("a .shared::cluster address outside any cluster")?;
        let mut mem = link.mem[rank as usize].borrow_mut();
        Self::mbar_apply(w, &mut mem, at, m, a, l)
    }

    /// Operation `m` (with operand `a`) of lane `l` on the mbarrier at `at` of `shared`.
    fn mbar_apply(
        w: &mut Warp,
        shared: &mut [u8],
        at: usize,
        m: &Mbar,
        a: u64,
        l: usize,
    ) -> Result<(), String> {
        // Every operation here changes the object (counted once, for try_wait).
        w.mbar_updates.set(w.mbar_updates.get() + 1);
        if m.op == MbarOp::Init {
            store(shared, at, Mbarrier::init(a)?.encode());
            return Ok(());
        }
        let mut b = object(shared, at)?;
        let before = b;
        match m.op {
            MbarOp::Inval => {
                store(shared, at, 0);
                return Ok(());
            }
            MbarOp::Arrive { drop, no_complete, expect_tx } => {
                let how = Arrive { drop, no_complete, expect_tx: expect_tx.then_some(a) };
                let state = b.arrive(if expect_tx { 1 } else { a }, how)?;
                if let Some(d) = m.dst {
                    write(w, d, l, state);
                }
            }
            MbarOp::ExpectTx => b.expect_tx(a)?,
            MbarOp::CompleteTx => b.complete_tx(a)?,
            MbarOp::CpAsyncArrive { noinc: true } => {
                b.arrive(1, Arrive::default())?;
            }
            MbarOp::CpAsyncArrive { noinc: false }
            | MbarOp::Init
            | MbarOp::Wait { .. }
            | MbarOp::PendingCount => {}
        }
        update(w, shared, at, before, b);
        Ok(())
    }

    /// The shared-memory offset of lane `l`'s mbarrier object, in its own CTA (a wait
    /// waits on its own CTA's mbarriers only).
    fn mbar_at(
        &self,
        w: &Warp,
        len: usize,
        mem: Mem,
        addr: Src,
        offset: i64,
        l: usize,
    ) -> Result<usize, String> {
        match self.mbar_place(w, len, mem, addr, offset, l)? {
            (None, at) => Ok(at),
            (Some(rank), at) => Err(format!(
                "the mbarrier object at {at:#x} is in the shared memory of the CTA of rank {rank}, not this CTA's"
            )),
        }
    }

    /// Where lane `l`'s mbarrier object is: the rank of the CTA of the cluster it is
    /// in (`None`: the lane's own) and its shared offset there.
    fn mbar_place(
        &self,
        w: &Warp,
        len: usize,
        mem: Mem,
        addr: Src,
        offset: i64,
        l: usize,
    ) -> Result<(Option<u32>, usize), String> {
        let a = super::lane::address(w, addr, offset, l);
        let (rank, s) = match self.target(w, mem, a) {
            Target::Shared(s) => (None, s),
            Target::Remote(rank, s) => (Some(rank), s),
            _ => return Err(format!("the mbarrier object's address {a:#x} is not in shared memory")),
        };
        if !s.is_multiple_of(8) {
            return Err(format!("the mbarrier object at shared address {s:#x} is not 8-byte aligned"));
        }
        if let Some(rank) = rank {
            let size = w.cluster.as_ref().map_or(0, |c| c.mem.len());
            if rank as usize >= size {
                return Err(format!("the mbarrier's CTA rank {rank} is outside the cluster of {size} CTAs"));
            }
            // Every CTA of the cluster has the same shared memory size.
            return Ok((Some(rank), super::lane::range(len, s, 8, "shared")?.start));
        }
        Ok((None, self.shared_range(len, s, 8)?.start))
    }

    /// `cp.async.bulk` for lane `l`: the copy (or the reduction of `cp.reduce.async.
    /// bulk`), then the complete-tx on its mbarrier; a multicast copy does so in each
    /// CTA of its mask.
    pub(super) fn cp_bulk(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        c: &CpBulk,
        l: usize,
    ) -> Result<(), String> {
        let size = read(w, c.size, l) & 0xffff_ffff;
        let d = super::lane::address(w, c.dst.1, c.dst.2, l);
        let s = super::lane::address(w, c.src.1, c.src.2, l);
        if !size.is_multiple_of(16) || !d.is_multiple_of(16) || !s.is_multiple_of(16) {
            return Err(format!(
                "cp.async.bulk: size {size} and addresses {d:#x}, {s:#x} must be multiples of 16"
            ));
        }
        let Some(mask) = c.multicast.map(|m| read(w, m, l) as u16) else {
            // The whole mbarrier is checked before any byte moves.
            let mbar = self.bulk_mbar(w, shared, c.mbar, l)?;
            self.bulk_bytes(w, shared, c, (c.dst.0, d), s, size, l)?;
            return complete_bulk(w, shared, mbar, size);
        };
        let d = match self.target(w, c.dst.0, d) {
            Target::Shared(a) | Target::Remote(_, a) => a,
            _ => {
                return Err(format!(
                    "cp.async.bulk.multicast::cluster: {d:#x} is not a shared-memory address"
                ));
            }
        };
        for (r, mbar) in self.multicast_ranks(w, mask, c.mbar, l)? {
            let mbar = self.bulk_mbar(w, shared, Some(mbar), l)?;
            self.bulk_bytes(w, shared, c, (Mem::Shared, in_rank(w, d, r)), s, size, l)?;
            complete_bulk(w, shared, mbar, size)?;
        }
        Ok(())
    }

    /// The `size` bytes of bulk copy `c` from `s` to `dst`, 8 at a time, or reduced
    /// element by element into `dst`.
    #[allow(clippy::too_many_arguments)]
    fn bulk_bytes(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        c: &CpBulk,
        dst: (Mem, u64),
        s: u64,
        size: u64,
        l: usize,
    ) -> Result<(), String> {
        let Some((op, ty)) = c.red else {
            for k in (0..size).step_by(8) {
                let v = self.load(w, shared, c.src.0, s.wrapping_add(k), 8, l)?;
                self.store(w, shared, dst.0, dst.1.wrapping_add(k), 8, v, l)?;
            }
            return Ok(());
        };
        let n = ty.bytes();
        for k in (0..size).step_by(n as usize) {
            let v = self.load(w, shared, c.src.0, s.wrapping_add(k), n as u8, l)?;
            let f = |old| crate::sem::atom::apply(op, ty, old, v, 0);
            self.atomic(w, shared, dst.0, dst.1.wrapping_add(k), ty, l, f)?;
        }
        Ok(())
    }

    /// The ranks a multicast copy goes to, each with its mbarrier: the one at the
    /// same shared offset as lane `l`'s `mbar`, in that CTA.
    fn multicast_ranks(
        &self,
        w: &Warp,
        mask: u16,
        mbar: Option<(Mem, Src, i64)>,
        l: usize,
    ) -> Result<Vec<(u32, Place)>, String> {
        // A launch without clusters is a cluster of one CTA.
        let size = self.shape.cluster_size().max(1);
        if u32::from(mask) >> size != 0 {
            return Err(format!(
                "multicast::cluster: the CTA mask {mask:#06x} names CTAs outside the cluster of {size} (undefined \
                 behaviour)"
            ));
        }
        let Some((mem, addr, offset)) = mbar else {
            return Err("multicast::cluster: a multicast copy completes on an mbarrier".into());
        };
        let a = super::lane::address(w, addr, offset, l);
        let off = match self.target(w, mem, a) {
            Target::Shared(s) | Target::Remote(_, s) => s,
            _ => {
                return Err(format!(
                    "multicast::cluster: the mbarrier's address {a:#x} is not in shared memory"
                ));
            }
        };
        Ok(lanes(u32::from(mask)).map(|r| (r, (Mem::Shared, Src::Imm(in_rank(w, off, r)), 0))).collect())
    }

    /// The mbarrier a bulk copy completes on, checked before any byte moves: its
    /// shared offset and object.
    fn bulk_mbar(
        &self,
        w: &Warp,
        shared: &[u8],
        mbar: Option<(Mem, Src, i64)>,
        l: usize,
    ) -> Result<Option<BulkMbar>, String> {
        let Some((mem, addr, offset)) = mbar else { return Ok(None) };
        let (rank, at) = self.mbar_place(w, shared.len(), mem, addr, offset, l)?;
        let b = match (rank, &w.cluster) {
            (Some(r), Some(link)) => object(&link.mem[r as usize].borrow(), at)?,
            _ => object(shared, at)?,
        };
        Ok(Some(BulkMbar { rank, at, b }))
    }
}

/// An operand's place in memory: its space, address and offset.
type Place = (Mem, Src, i64);

/// The mbarrier a bulk copy completes on: in the CTA of `rank` of the cluster (`None`:
/// the copying CTA), at shared offset `at`, as it was before the copy.
pub(super) struct BulkMbar {
    rank: Option<u32>,
    at: usize,
    b: Mbarrier,
}

/// The complete-tx of `bytes` a bulk copy makes on its mbarrier (if it has one) once
/// its bytes have moved.
fn complete_bulk(w: &Warp, shared: &mut [u8], mbar: Option<BulkMbar>, bytes: u64) -> Result<(), String> {
    let Some(BulkMbar { rank, at, b }) = mbar else { return Ok(()) };
    w.mbar_updates.set(w.mbar_updates.get() + 1);
    let link = w.cluster.clone();
    let mut remote = match (rank, &link) {
        (Some(r), Some(link)) => Some(link.mem[r as usize].borrow_mut()),
        _ => None,
    };
    let shared: &mut [u8] = match remote.as_mut() {
        Some(mem) => mem,
        None => shared,
    };
    let before = object(shared, at).unwrap_or(b);
    let mut after = before;
    after.complete_tx(bytes)?;
    update(w, shared, at, before, after);
    Ok(())
}

impl Cta<'_> {
    /// `tensormap.replace` for lane `l`: the map's 128 bytes read, one field set, and
    /// written back.
    pub(super) fn tensormap_replace(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        r: &crate::lower::program::TensormapReplace,
        l: usize,
    ) -> Result<(), String> {
        use super::tma::TensorMap;
        let at = super::lane::address(w, r.addr, r.offset, l);
        if !at.is_multiple_of(64) {
            return Err(format!("tensormap.replace: the tensor map at {at:#x} is not 64-byte aligned"));
        }
        let mut bytes = [0u8; 128];
        for k in 0..16 {
            let v = self.load(w, shared, r.mem, at.wrapping_add(8 * k), 8, l)?;
            bytes[8 * k as usize..][..8].copy_from_slice(&v.to_le_bytes());
        }
        // 128 zero bytes are a map whose every field is zero, which the replaces then
        // fill in (Triton makes its maps on the device so).
        let blank = bytes.iter().all(|&b| b == 0);
        let mut map = TensorMap::decode(&bytes).or_else(|| blank.then(TensorMap::blank)).ok_or_else(|| {
            format!(
                "tensormap.replace: the 128 bytes at {at:#x} are neither a tensor map made by cuTensorMapEncodeTiled \
                 nor zero"
            )
        })?;
        map.replace(r.field, read(w, r.value, l), r.stride_unit)?;
        for (k, chunk) in map.encode().chunks_exact(8).enumerate() {
            let v = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            self.store(w, shared, r.mem, at.wrapping_add(8 * k as u64), 8, v, l)?;
        }
        Ok(())
    }
}

impl Cta<'_> {
    /// `cp.async.bulk.tensor` for lane `l`: the box the tensor map describes at the
    /// lane's coordinates, element by element (`exec/tma.rs`), then the complete-tx
    /// of the box's bytes on the mbarrier of a copy into shared memory.
    pub(super) fn cp_tensor(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        c: &CpTensor,
        l: usize,
    ) -> Result<(), String> {
        use super::tma::TensorMap;
        let at = read(w, c.map, l);
        let mut bytes = [0u8; 128];
        for k in 0..16 {
            let v = self.load(w, shared, Mem::Generic, at.wrapping_add(8 * k), 8, l)?;
            bytes[8 * k as usize..][..8].copy_from_slice(&v.to_le_bytes());
        }
        let map = TensorMap::decode(&bytes).ok_or_else(|| {
            format!(
                "cp.async.bulk.tensor: the 128 bytes at {at:#x} are not a tensor map made by cuTensorMapEncodeTiled \
                 or cuTensorMapEncodeIm2col"
            )
        })?;
        if map.rank != u32::from(c.dims) {
            return Err(format!(
                "cp.async.bulk.tensor.{}d with a tensor map of rank {} (undefined behaviour)",
                c.dims, map.rank
            ));
        }
        if map.im2col.is_some() != c.im2col.is_some() {
            let (copy, made) = match c.im2col {
                Some(_) => ("an im2col", "cuTensorMapEncodeTiled"),
                None => ("a tile", "cuTensorMapEncodeIm2col"),
            };
            return Err(format!(
                "cp.async.bulk.tensor: {copy} copy through a tensor map {made} made (undefined behaviour)"
            ));
        }
        let s = super::lane::address(w, c.smem.1, c.smem.2, l);
        if !s.is_multiple_of(128) {
            return Err(format!("cp.async.bulk.tensor: the shared address {s:#x} is not 128-byte aligned"));
        }
        let base = match self.target(w, c.smem.0, s) {
            Target::Shared(a) => a,
            _ => return Err(format!("cp.async.bulk.tensor: {s:#x} is not a shared-memory address")),
        };
        // The whole box lies in shared memory (so a box far outside the tensor is no
        // long walk over nothing).
        if base.checked_add(map.box_bytes()).is_none_or(|end| end > shared.len() as u64) {
            return Err(format!(
                "out of bounds: the cp.async.bulk.tensor box of {} bytes at shared address {base:#x} does not fit \
                 in the CTA's {} bytes of shared memory",
                map.box_bytes(),
                shared.len()
            ));
        }
        let mut start = [0i32; 5];
        for (d, x) in start.iter_mut().enumerate().take(usize::from(c.dims)) {
            *x = read(w, c.coords[d], l) as u32 as i32;
        }
        // A multicast copy goes to each CTA of its mask, at the same offsets (the
        // rank + 1 in bits 24.. of a shared address: `cluster.rs`); its own copy is
        // the CTA's.
        let Some(mask) = c.multicast.map(|m| read(w, m, l) as u16) else {
            let mbar = self.bulk_mbar(w, shared, c.mbar, l)?;
            return self.tensor_box(w, shared, c, &map, &start, base, l, mbar);
        };
        for (r, mbar) in self.multicast_ranks(w, mask, c.mbar, l)? {
            let mbar = self.bulk_mbar(w, shared, Some(mbar), l)?;
            self.tensor_box(w, shared, c, &map, &start, in_rank(w, base, r), l, mbar)?;
        }
        Ok(())
    }

    /// Moves one box of a tensor copy between global memory and shared memory at
    /// `base` (a shared address, maybe another CTA's), then completes `mbar`.
    #[allow(clippy::too_many_arguments)]
    fn tensor_box(
        &self,
        w: &mut Warp,
        shared: &mut [u8],
        c: &CpTensor,
        map: &super::tma::TensorMap,
        start: &[i32; 5],
        base: u64,
        l: usize,
        mbar: Option<BulkMbar>,
    ) -> Result<(), String> {
        let (n, size) = (map.box_counts(), map.element_bytes() as u8);
        let red = c.red.map(|op| tensor_reduction(op, map)).transpose()?;
        // An im2col copy's pixels, each a row of channels.
        let pixels = match c.im2col {
            Some(o) => map.im2col_pixels(start, &o.map(|o| read(w, o, l) as u16 as i32)),
            None => Vec::new(),
        };
        let mut k = [0u64; 5];
        'each: loop {
            let smem = map.shared_offset(base, &k);
            let global = match pixels.get(k[1] as usize) {
                Some(&(mut x)) if c.im2col.is_some() => {
                    x[0] += k[0] as i64;
                    map.address(&x)
                }
                _ => map.element(start, &k),
            };
            match (c.mbar.is_some(), global) {
                (true, Some(g)) => {
                    let v = self.load(w, shared, Mem::Global, g, size, l)?;
                    self.store(w, shared, Mem::Shared, smem, size, v, l)?;
                }
                (true, None) => self.store(w, shared, Mem::Shared, smem, size, map.fill(), l)?,
                (false, Some(g)) => {
                    let v = self.load(w, shared, Mem::Shared, smem, size, l)?;
                    match red {
                        Some((op, ty)) => {
                            let f = |old| crate::sem::atom::apply(op, ty, old, v, 0);
                            self.atomic(w, shared, Mem::Global, g, ty, l, f)?;
                        }
                        None => self.store(w, shared, Mem::Global, g, size, v, l)?,
                    }
                }
                // Elements outside the tensor are not written back.
                (false, None) => {}
            }
            for d in 0..5 {
                k[d] += 1;
                if k[d] < n[d] {
                    continue 'each;
                }
                k[d] = 0;
            }
            break;
        }
        complete_bulk(w, shared, mbar, map.box_bytes())
    }
}

/// The reduction `cp.reduce.async.bulk.tensor` does with `op` on the elements of
/// `map`: the pairs of PTX ISA 9.7.9.25.5.2's table, where `.add` takes 32-bit
/// integers, `.u64`, `.f32` and the halves, `.min`/`.max` the integers of 32 and 64
/// bits and the halves, `.inc`/`.dec` `.u32`, and the bitwise operations integers of
/// 32 and 64 bits. Another pair is undefined behaviour, reported.
fn tensor_reduction(op: AtomOp, map: &super::tma::TensorMap) -> Result<(AtomOp, AtomTy), String> {
    let ty = match map.dtype {
        2 => Some(AtomTy::U32),
        3 => Some(AtomTy::S32),
        4 => Some(AtomTy::U64),
        5 => Some(AtomTy::S64),
        6 => Some(AtomTy::F16),
        7 => Some(AtomTy::F32),
        9 => Some(AtomTy::BF16),
        _ => None,
    };
    let ok = match (op, ty) {
        (AtomOp::Add, Some(t)) => t != AtomTy::S64,
        (AtomOp::Min | AtomOp::Max, Some(t)) => t != AtomTy::F32,
        (AtomOp::Inc | AtomOp::Dec, Some(t)) => t == AtomTy::U32,
        (_, Some(t)) => matches!(t, AtomTy::U32 | AtomTy::S32 | AtomTy::U64 | AtomTy::S64),
        (_, None) => false,
    };
    match ty {
        Some(ty) if ok => Ok((op, ty)),
        _ => Err(format!(
            "cp.reduce.async.bulk.tensor: .{} on a tensor of {} elements is not a reduction the ISA defines \
             (undefined behaviour)",
            op.name(),
            map.dtype_name()
        )),
    }
}

/// Shared offset `off` in the CTA of rank `r` of the cluster: the rank + 1 in bits
/// 24.. of a shared address (`cluster.rs`); outside clusters, where only rank 0 is
/// named, the CTA's own offset.
fn in_rank(w: &Warp, off: u64, r: u32) -> u64 {
    use super::cluster::{OFFSET_MASK, RANK_SHIFT};
    match w.cluster {
        None => off & OFFSET_MASK,
        Some(_) => (off & OFFSET_MASK) | (u64::from(r) + 1) << RANK_SHIFT,
    }
}

/// The mbarrier object at shared offset `at` (8 bytes known to be there).
fn object(shared: &[u8], at: usize) -> Result<Mbarrier, String> {
    let word = shared.get(at..at + 8).and_then(|b| b.try_into().ok()).map_or(0, u64::from_le_bytes);
    Mbarrier::decode(word).ok_or_else(|| {
        format!(
            "no initialised mbarrier object at shared address {at:#x} (no mbarrier.init, or an mbarrier.inval, \
             before it: undefined behaviour)"
        )
    })
}

/// A group of a warp waiting at an mbarrier: at `try_wait`, or (`spin`) delayed after
/// a `test_wait`.
#[derive(Clone, Copy, Default)]
struct Waiting {
    leaf: u32,
    pc: u32,
    mask: u32,
    frame: u32,
    spin: bool,
}

/// The groups of `warp` waiting at an mbarrier whose kind `which` takes (it gets
/// `spin`), and how many.
fn waiting(warp: &Warp, which: impl Fn(bool) -> bool) -> ([Waiting; 32], usize) {
    let mut out = [Waiting::default(); 32];
    let mut len = 0;
    // A warp has at most 32 leaves: each holds at least one lane.
    for (leaf, node) in warp.groups.leaves().take(32) {
        if let Wait::Mbarrier { spin } = node.wait
            && which(spin)
        {
            out[len] = Waiting { leaf, pc: node.pc, mask: node.mask, frame: node.frame, spin };
            len += 1;
        }
    }
    (out, len)
}

/// Stores the object at `at` as it is `after` an operation. A phase that completed
/// orders what its arrivals did before what its waiters do after: for racecheck it
/// starts a new phase, as a CTA barrier does (it may then miss a race between
/// threads the mbarrier does not order, never report one that is not there).
fn update(w: &Warp, shared: &mut [u8], at: usize, before: Mbarrier, after: Mbarrier) {
    store(shared, at, after.encode());
    if before.parity != after.parity
        && let Some(s) = &w.shadow
    {
        s.borrow_mut().barrier();
    }
}

fn store(shared: &mut [u8], at: usize, word: u64) {
    if let Some(b) = shared.get_mut(at..at + 8) {
        b.copy_from_slice(&word.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::tma::{TensorMap, Tiled};

    /// PTX ISA 9.7.9.25.5.2: the operation and element type pairs of
    /// `cp.reduce.async.bulk.tensor`; the element type is the tensor map's.
    #[test]
    fn a_tensor_reduction_takes_the_pairs_the_isa_lists() {
        let map = |dtype| {
            let t = Tiled {
                dtype,
                rank: 1,
                global: 0x1000,
                dims: vec![64],
                boxes: vec![16],
                element_strides: vec![1],
                ..Tiled::default()
            };
            TensorMap::tiled(&t).unwrap()
        };
        // UINT8, UINT16, UINT32, INT32, UINT64, INT64, FLOAT16, FLOAT32, FLOAT64, BFLOAT16.
        let table: [(AtomOp, [bool; 10]); 5] = [
            (AtomOp::Add, [false, false, true, true, true, false, true, true, false, true]),
            (AtomOp::Min, [false, false, true, true, true, true, true, false, false, true]),
            (AtomOp::Inc, [false, false, true, false, false, false, false, false, false, false]),
            (AtomOp::Dec, [false, false, true, false, false, false, false, false, false, false]),
            (AtomOp::Xor, [false, false, true, true, true, true, false, false, false, false]),
        ];
        for (op, row) in table {
            for (dtype, ok) in row.into_iter().enumerate() {
                let got = tensor_reduction(op, &map(dtype as u32));
                assert_eq!(got.is_ok(), ok, "{op:?} on type {dtype}: {got:?}");
            }
        }
        let err = tensor_reduction(AtomOp::Add, &map(8)).unwrap_err();
        assert!(err.contains(".add on a tensor of FLOAT64 elements"), "{err}");
    }
}
