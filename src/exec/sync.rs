//! Warp-synchronous instructions: `vote.sync`, `shfl.sync`, `match.sync`,
//! `redux.sync`, `elect.sync` and `bar.warp.sync` (PTX ISA 9.7.13, 9.7.9.6; DESIGN.md, "SIMT model").
//!
//! Each lane names its own member mask (its operand value). A lane goes on once every
//! non-exited lane of its mask has executed a warp-synchronous instruction of the same
//! kind and qualifiers with the same mask: on sm_70 and later not necessarily the same
//! instruction, so the lanes of a set may come from several groups, each with its own
//! operands and destinations. Until then its group waits and the warp runs others.
//! The common case, every member in the executing group, runs at once.

use super::simt::Wait;
use super::warp::{Cta, Fault, Warp, lanes, pred_mask};
use crate::lower::program::{Inst, Op, Src, VoteMode};
use crate::sem::warp::shfl_source;

/// Which instructions may meet: the kind and its qualifiers.
fn key(op: &Op) -> Option<u32> {
    Some(match op {
        Op::Vote { mode, .. } => *mode as u32,
        Op::Shfl { mode, .. } => 0x10 | *mode as u32,
        Op::Match { all, .. } => 0x20 | u32::from(*all),
        Op::Redux { op, signed, .. } => 0x40 | (*op as u32) << 1 | u32::from(*signed),
        Op::WarpSync { .. } => 0x80,
        Op::Elect { .. } => 0x100,
        _ => return None,
    })
}

fn name(op: &Op) -> &'static str {
    match op {
        Op::Vote { .. } => "vote.sync",
        Op::Shfl { .. } => "shfl.sync",
        Op::Match { .. } => "match.sync",
        Op::Redux { .. } => "redux.sync",
        Op::Elect { .. } => "elect.sync",
        _ => "bar.warp.sync",
    }
}

impl Cta<'_> {
    /// Group `leaf` executes a warp-synchronous instruction with its `active` lanes,
    /// whose member masks are `members`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn warp_sync(
        &self,
        n: u64,
        warp: &mut Warp,
        inst: &Inst,
        members: Src,
        leaf: u32,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<bool, Fault> {
        let mut missing = 0;
        for lane in lanes(active) {
            let m = super::lane::read(warp, members, lane as usize) as u32;
            if m >> lane & 1 == 0 {
                let cause = format!(
                    "{}: lane {lane} executes it but is not in its member mask {m:#010x}",
                    name(&inst.op)
                );
                return Err(self.fault(n, warp, 1 << lane, inst, cause));
            }
            warp.sync_mask[lane as usize] = m;
            missing |= m & warp.live & !active;
        }
        if missing == 0 {
            self.execute(warp, &[(leaf, active)]);
            return Ok(warp.groups.goto(leaf, pc + 1));
        }
        Self::park(warp, leaf, pc, mask, active, Wait::Sync);
        self.try_sync(n, warp)?;
        Ok(false)
    }

    /// Runs every set of waiting lanes whose members have all arrived. True when
    /// some did.
    pub(super) fn try_sync(&self, n: u64, warp: &mut Warp) -> Result<bool, Fault> {
        let mut keys = [u32::MAX; 32];
        let mut waiting = 0u32;
        let mut parts = [(0u32, 0u32); 32];
        let mut len = 0;
        for (i, node) in warp.groups.leaves() {
            if node.wait != Wait::Sync || len == parts.len() {
                continue;
            }
            let k = key(&self.program.insts[node.pc as usize].op).unwrap_or(u32::MAX);
            for lane in lanes(node.mask) {
                keys[lane as usize] = k;
            }
            waiting |= node.mask;
            parts[len] = (i, node.mask);
            len += 1;
        }
        if waiting == 0 {
            return Ok(false);
        }
        let mut ready = 0;
        for lane in lanes(waiting) {
            let m = warp.sync_mask[lane as usize];
            let need = m & warp.live;
            if need & !waiting != 0 {
                continue;
            }
            let k = keys[lane as usize];
            let mut ok = true;
            for j in lanes(need) {
                if warp.sync_mask[j as usize] != m {
                    ok = false;
                } else if keys[j as usize] != k {
                    let (a, b) = (self.find(warp, lane), self.find(warp, j));
                    let cause = format!(
                        "warp-synchronous instructions of different kinds meet with the same member mask \
                         {m:#010x}: lane {lane} executes `{}`, lane {j} `{}` (undefined behaviour)",
                        name(&a.op),
                        name(&b.op)
                    );
                    let mut f = self.fault(n, warp, 1 << lane, a, cause);
                    f.notes.push((self.pc_of(b), format!("lane {j} waits here")));
                    return Err(f);
                }
            }
            if ok {
                ready |= 1 << lane;
            }
        }
        if ready == 0 {
            return Ok(false);
        }
        let mut run = [(0u32, 0u32); 32];
        let mut k = 0;
        for &(i, m) in &parts[..len] {
            if m & ready != 0 {
                run[k] = (i, m & ready);
                k += 1;
            }
        }
        if self.program.sm < 70 && k > 1 {
            // Before sm_70 the members execute it converged, as one group.
            let (i, m) = run[0];
            let inst = &self.program.insts[warp.groups.node(i).pc as usize];
            let cause = format!(
                "{}: member lanes {:#010x} execute it on another path (before sm_70 the members must \
                 execute it converged)",
                name(&inst.op),
                ready & !m
            );
            return Err(self.fault(n, warp, m, inst, cause));
        }
        self.execute(warp, &run[..k]);
        for &(i, lanes) in &run[..k] {
            let node = *warp.groups.node(i);
            if lanes == node.mask {
                warp.groups.wake(i);
                warp.groups.goto(i, node.pc + 1);
            } else {
                // The lanes that are through go on, as a group of their own; the rest
                // keep waiting (independent thread scheduling: neither waits for the
                // other until they meet where the group would have).
                let rest = node.mask & !lanes;
                let stay = warp.groups.fork(i, (node.pc + 1, lanes), (node.pc, rest));
                warp.groups.node_mut(stay).wait = Wait::Sync;
            }
        }
        Ok(true)
    }

    /// The instruction lane `lane` waits at.
    fn find(&self, warp: &Warp, lane: u32) -> &Inst {
        let pc = warp.groups.leaves().find(|(_, n)| n.mask >> lane & 1 == 1).map_or(0, |(_, n)| n.pc);
        &self.program.insts[pc as usize]
    }

    /// Executes the instruction of each group of `parts` for its lanes, together:
    /// sources are gathered from every group before any destination is written.
    fn execute(&self, warp: &mut Warp, parts: &[(u32, u32)]) {
        let ready = parts.iter().fold(0, |m, p| m | p.1);
        if warp.synced.is_some()
            && let Some(&(i, _)) = parts.first()
            && matches!(self.program.insts[warp.groups.node(i).pc as usize].op, Op::WarpSync { .. })
        {
            // `__syncwarp()` orders the shared-memory accesses of the lanes taking part.
            warp.wsync += 1;
            let n = warp.wsync;
            if let Some(synced) = warp.synced.as_mut() {
                for a in lanes(ready) {
                    for b in lanes(ready) {
                        synced[a as usize][b as usize] = n;
                    }
                }
            }
        }
        let mut a = [0u64; 32];
        // For shfl: the lane read, whether in range, and the value of a source lane
        // that is not taking part (what that lane's register holds).
        let mut src = [0u32; 32];
        let mut inrange = 0u32;
        let mut outside = [0u64; 32];
        let mut votes = 0u32;
        for &(i, m) in parts {
            let node = *warp.groups.node(i);
            warp.use_frame(node.frame);
            match &self.program.insts[node.pc as usize].op {
                Op::Vote { pred, .. } => votes |= pred_mask(warp, *pred) & m,
                Op::Shfl { mode, a: x, b, c, .. } => {
                    for lane in lanes(m) {
                        let l = lane as usize;
                        let (bv, cv) =
                            (super::lane::read(warp, *b, l) as u32, super::lane::read(warp, *c, l) as u32);
                        let (j, p) = shfl_source(*mode, lane, bv, cv);
                        src[l] = j;
                        inrange |= u32::from(p) << lane;
                        a[l] = super::lane::read(warp, *x, l);
                        if ready >> j & 1 == 0 {
                            // A source lane not executing it gives an undefined value
                            // (ISA), not undefined behaviour: code such as a reduction
                            // over `__activemask()` reads it and discards it.
                            outside[l] = super::lane::read(warp, *x, j as usize);
                        }
                    }
                }
                Op::Match { a: x, .. } | Op::Redux { a: x, .. } => {
                    for lane in lanes(m) {
                        a[lane as usize] = super::lane::read(warp, *x, lane as usize);
                    }
                }
                _ => {}
            }
        }
        for &(i, m) in parts {
            let node = *warp.groups.node(i);
            warp.use_frame(node.frame);
            match &self.program.insts[node.pc as usize].op {
                Op::Vote { mode, dst, .. } => {
                    for lane in lanes(m) {
                        let members = warp.sync_mask[lane as usize] & ready;
                        let v = votes & members;
                        let r = match mode {
                            VoteMode::Ballot => u64::from(v),
                            VoteMode::All => u64::from(v == members),
                            VoteMode::Any => u64::from(v != 0),
                            VoteMode::Uni => u64::from(v == 0 || v == members),
                        };
                        super::lane::write(warp, *dst, lane as usize, r);
                    }
                }
                Op::Shfl { dst, p, .. } => {
                    for lane in lanes(m) {
                        let l = lane as usize;
                        let j = src[l];
                        let v = if ready >> j & 1 == 1 { a[j as usize] } else { outside[l] };
                        super::lane::write(warp, *dst, l, v);
                        if let Some(row) = p {
                            let r = &mut warp.regs.pred[*row as usize];
                            *r = (*r & !(1 << lane)) | (inrange & 1 << lane);
                        }
                    }
                }
                Op::Match { all, dst, p, .. } => {
                    for lane in lanes(m) {
                        let l = lane as usize;
                        let group = warp.sync_mask[l] & ready;
                        let same = lanes(group).filter(|&j| a[j as usize] == a[l]).fold(0, |s, j| s | 1 << j);
                        let (v, pv) = if *all {
                            let uniform = same == group;
                            (if uniform { warp.sync_mask[l] } else { 0 }, uniform)
                        } else {
                            (same, false)
                        };
                        super::lane::write(warp, *dst, l, u64::from(v));
                        if let Some(row) = p {
                            let r = &mut warp.regs.pred[*row as usize];
                            *r = (*r & !(1 << lane)) | u32::from(pv) << lane;
                        }
                    }
                }
                Op::Elect { dst, p, .. } => {
                    for lane in lanes(m) {
                        // The leader: the lowest member lane that executes it.
                        let leader = (warp.sync_mask[lane as usize] & ready).trailing_zeros();
                        if let Some(d) = dst {
                            super::lane::write(warp, *d, lane as usize, u64::from(leader));
                        }
                        if let Some(row) = p {
                            let r = &mut warp.regs.pred[*row as usize];
                            *r = (*r & !(1 << lane)) | u32::from(lane == leader) << lane;
                        }
                    }
                }
                Op::Redux { op, signed, dst, .. } => {
                    for lane in lanes(m) {
                        let group =
                            lanes(warp.sync_mask[lane as usize] & ready).map(|j| a[j as usize] as u32);
                        let v = crate::sem::warp::redux(*op, *signed, group);
                        super::lane::write(warp, *dst, lane as usize, u64::from(v));
                    }
                }
                _ => {}
            }
        }
    }
}
