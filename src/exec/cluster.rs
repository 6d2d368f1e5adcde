//! Thread-block clusters (PTX ISA 2.2.1, 5.1.3, 9.7.13.3): the CTAs of a cluster run
//! together, on one host thread, taking turns; each reaches the others' shared memory
//! and waits with them at the cluster barrier.
//!
//! A `.shared::cluster` address is ptxvm's own: a `.shared::cta` address (below 2^24)
//! is the executing CTA's, as the ISA says (the CTA's window lies inside the
//! cluster's), and `mapa` to rank `r` sets bits 24.. to `r + 1`. Generic addresses
//! are the same offsets in the shared window.
//!
//! The cluster barrier counts threads: `barrier.cluster.arrive` adds a thread's
//! arrival to the current phase, which completes when every thread of the cluster
//! that has not exited has arrived; `barrier.cluster.wait` waits for the phase the
//! thread arrived in. A thread waiting without having arrived, or arriving twice
//! before it waits, is undefined behaviour and a fault. A CTA whose threads all wait
//! on the cluster steps aside for the cluster's other CTAs; when none of them can go on
//! either, the cluster is deadlocked.
//!
//! A kernel that may wait on other CTAs (`grid.rs`) runs its clusters in rounds, a
//! slice for each CTA, and a cluster steps aside for the others after each round, so
//! a cluster may wait on memory another cluster writes.

use super::cta::{Scratch, Turn};
use super::limits::Limits;
use super::simt::Wait;
use super::warp::{Cta, Fault, Warp, lanes};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Bits of a `.shared::cluster` address below the rank.
pub const RANK_SHIFT: u32 = 24;
/// The offset bits of a `.shared::cluster` address.
pub const OFFSET_MASK: u64 = (1 << RANK_SHIFT) - 1;

/// Warp instructions a CTA of a cluster runs before the next CTA's turn.
const SLICE: u64 = 1 << 16;

/// A cluster started: its CTAs (by launch order), their states, which of them ended,
/// and what they share.
pub struct ClusterRun {
    link: Rc<Link>,
    ctas: Vec<u64>,
    scratches: Vec<Scratch>,
    done: Vec<bool>,
    turns: u32,
}

impl ClusterRun {
    /// The state of its CTA of rank `rank` (for `ptxvm trace`, once the cluster ran):
    /// the run ends, so the link's other holders go with it.
    pub fn into_scratch(mut self, rank: u32) -> Option<Scratch> {
        let r = rank as usize;
        (r < self.scratches.len()).then(|| self.scratches.swap_remove(r))
    }

    /// Where its first CTA still running waits, for reports: that CTA and the place.
    pub fn first_pc(&self) -> Option<(u64, u32)> {
        let r = (0..self.ctas.len()).find(|&r| !self.done[r])?;
        Some((self.ctas[r], self.scratches[r].first_pc()?))
    }
}

/// What the CTAs of one cluster share: their shared memories (each kept here while
/// its CTA does not run) and the cluster barrier.
pub struct Link {
    pub mem: Vec<RefCell<Vec<u8>>>,
    /// The barrier's phase, the arrivals in it, the threads that exited and, of those,
    /// the ones that had arrived in this phase.
    phase: Cell<u64>,
    arrived: Cell<u32>,
    exited: Cell<u32>,
    exited_arrived: Cell<u32>,
    /// Every thread of the cluster.
    threads: u32,
}

impl Link {
    pub(crate) fn new(ranks: u32, threads: u32) -> Link {
        Link {
            mem: (0..ranks).map(|_| RefCell::new(Vec::new())).collect(),
            phase: Cell::new(0),
            arrived: Cell::new(0),
            exited: Cell::new(0),
            exited_arrived: Cell::new(0),
            threads,
        }
    }

    pub fn phase(&self) -> u64 {
        self.phase.get()
    }

    /// Completes the phase once every thread that has not exited has arrived.
    fn settle(&self) {
        let counted = self.arrived.get() + self.exited.get() - self.exited_arrived.get();
        if self.arrived.get() > 0 && counted >= self.threads {
            self.phase.set(self.phase.get() + 1);
            self.arrived.set(0);
            self.exited_arrived.set(0);
        }
    }
}

impl Cta<'_> {
    /// `barrier.cluster.arrive` by the `active` lanes of `warp`.
    pub(super) fn cluster_arrive(&self, warp: &mut Warp, active: u32) -> Result<(), String> {
        let Some(link) = warp.cluster.clone() else { return Ok(()) };
        if let Some(lane) = lanes(active & warp.cl_pending).next() {
            return Err(format!(
                "barrier.cluster.arrive: lane {lane} arrives again before it waited for its last arrival \
                 (undefined behaviour)"
            ));
        }
        for lane in lanes(active) {
            warp.cl_phase[lane as usize] = link.phase();
        }
        warp.cl_pending |= active;
        link.arrived.set(link.arrived.get() + active.count_ones());
        link.settle();
        Ok(())
    }

    /// `barrier.cluster.wait` by the `active` lanes: whether they may go on (the
    /// phases they arrived in have completed).
    pub(super) fn cluster_waited(&self, warp: &mut Warp, active: u32) -> Result<bool, String> {
        let Some(link) = warp.cluster.clone() else { return Ok(true) };
        if let Some(lane) = lanes(active & !warp.cl_pending).next() {
            return Err(format!(
                "barrier.cluster.wait: lane {lane} waits without having arrived (undefined behaviour)"
            ));
        }
        let done = lanes(active).all(|l| warp.cl_phase[l as usize] < link.phase());
        if done {
            warp.cl_pending &= !active;
        }
        Ok(done)
    }

    /// Lets the groups of `warp` waiting at the cluster barrier go on once the phases
    /// their lanes arrived in have completed; true when some did.
    pub(super) fn wake_cluster(&self, warp: &mut Warp) -> bool {
        let Some(link) = warp.cluster.clone() else { return false };
        let mut waiting = [(0u32, 0u32, 0u32); 32];
        let mut len = 0;
        for (i, node) in warp.groups.leaves().filter(|(_, n)| n.wait == Wait::Cluster).take(32) {
            waiting[len] = (i, node.pc, node.mask);
            len += 1;
        }
        let mut moved = false;
        for &(i, pc, mask) in &waiting[..len] {
            if lanes(mask).all(|l| warp.cl_phase[l as usize] < link.phase()) {
                warp.cl_pending &= !mask;
                warp.groups.wake(i);
                warp.groups.goto(i, pc + 1);
                moved = true;
            }
        }
        moved
    }

    /// Lanes of `warp` that exited: the cluster barrier stops counting them.
    pub(super) fn cluster_exit(&self, warp: &mut Warp, lanes_out: u32) {
        let Some(link) = warp.cluster.clone() else { return };
        link.exited.set(link.exited.get() + lanes_out.count_ones());
        // Of those, the ones whose arrival counts in the current phase (an arrival in a
        // phase that has completed counts no more).
        let phase = link.phase();
        let arrived_now =
            lanes(lanes_out & warp.cl_pending).filter(|&l| warp.cl_phase[l as usize] == phase).count();
        link.exited_arrived.set(link.exited_arrived.get() + arrived_now as u32);
        warp.cl_pending &= !lanes_out;
        link.settle();
    }

    /// Runs cluster number `c` to its end: its CTAs in turns on this thread.
    ///
    /// # Errors
    /// The first fault met, with its CTA's launch-order number.
    pub fn run_cluster(&self, c: u64, limits: &Limits) -> Result<(), (u64, Fault)> {
        let mut run = self.start_cluster(c);
        while !self.cluster_round(&mut run, limits, false)?.0.done {}
        Ok(())
    }

    /// Sets up cluster number `c`: each of its CTAs started, their shared memories in
    /// the link.
    pub fn start_cluster(&self, c: u64) -> ClusterRun {
        let ranks = self.shape.cluster_size();
        let link = Rc::new(Link::new(ranks, ranks * self.shape.block.count() as u32));
        let ctas: Vec<u64> = (0..ranks).map(|r| self.shape.cta_of(c, r)).collect();
        let mut scratches: Vec<Scratch> = Vec::with_capacity(ranks as usize);
        for (r, &n) in ctas.iter().enumerate() {
            let mut s = Scratch::default();
            self.start(n, &mut s);
            s.join_cluster(&link, r as u32, self.shape.warps_per_cta() as usize);
            // Its shared memory lives in the link but while it runs.
            s.swap_shared(&mut link.mem[r].borrow_mut());
            scratches.push(s);
        }
        ClusterRun { done: vec![false; ranks as usize], link, ctas, scratches, turns: 0 }
    }

    /// One round of cluster `run`: a turn of a slice for each CTA not done. The
    /// cluster's turn: done when every CTA is; watched, it waits on other clusters
    /// when it changed nothing and each CTA not done either looped without changing
    /// anything or ran nothing (blocked on the others), with the first CTA that loops
    /// (by launch order) and its loops.
    ///
    /// # Errors
    /// The first fault met, with its CTA's launch-order number; a cluster where
    /// nothing can move is deadlocked.
    pub fn cluster_round(
        &self,
        run: &mut ClusterRun,
        limits: &Limits,
        watch: bool,
    ) -> Result<(Turn, u64), (u64, Fault)> {
        let ClusterRun { link, ctas, scratches, done, .. } = run;
        let phase = link.phase();
        let (mut ran, mut wrote) = (false, false);
        let mut waits: Option<(u64, Vec<super::spin::Loop>)> = None;
        let mut all_wait = watch;
        for r in 0..ctas.len() {
            if done[r] {
                continue;
            }
            let (n, scratch) = (ctas[r], &mut scratches[r]);
            // The CTA runs on its own shared memory; the others' stay in the link.
            scratch.swap_shared(&mut link.mem[r].borrow_mut());
            let turn = self.resume(n, limits, scratch, Some(SLICE), watch);
            scratch.swap_shared(&mut link.mem[r].borrow_mut());
            let turn = turn.map_err(|f| (n, f))?;
            wrote |= turn.wrote;
            if turn.done {
                done[r] = true;
                ran = true;
                continue;
            }
            ran |= scratch.ran_last_turn();
            match turn.waits {
                Some(loops) if !loops.is_empty() => {
                    waits.get_or_insert((n, loops));
                }
                _ => all_wait &= !scratch.ran_last_turn(),
            }
        }
        let finished = done.iter().all(|&d| d);
        if !finished && !ran && link.phase() == phase {
            return Err(self.cluster_deadlock(ctas, scratches, done, link));
        }
        let waits = waits.filter(|_| all_wait && !wrote && link.phase() == phase);
        let at = waits.as_ref().map_or(ctas[0], |(n, _)| *n);
        Ok((Turn { done: finished, wrote, waits: waits.map(|(_, l)| l) }, at))
    }

    /// The number of the turn cluster `run` begins now, from 0.
    pub fn next_cluster_turn(run: &mut ClusterRun) -> u32 {
        run.turns = run.turns.wrapping_add(1);
        run.turns - 1
    }

    /// The fault of a cluster none of whose CTAs can go on: the first waiting CTA's own
    /// deadlock report (what each of its groups waits for: the cluster barrier, an
    /// mbarrier, a CTA barrier), with a note for each other waiting CTA.
    fn cluster_deadlock(
        &self,
        ctas: &[u64],
        scratches: &mut [Scratch],
        done: &[bool],
        link: &Link,
    ) -> (u64, Fault) {
        let waiting: Vec<usize> = (0..ctas.len()).filter(|&r| !done[r]).collect();
        // The CTA that waits for something of its own first: the likelier culprit.
        let first = waiting.iter().copied().find(|&r| scratches[r].waits_within()).unwrap_or(waiting[0]);
        let scratch = &mut scratches[first];
        scratch.swap_shared(&mut link.mem[first].borrow_mut());
        let mut f = scratch.deadlock_report(self, ctas[first]);
        scratch.swap_shared(&mut link.mem[first].borrow_mut());
        f.cause = format!(
            "deadlock in a cluster: none of its CTAs can go on (ranks {waiting:?} wait; {} ended). In rank {first}: {}",
            done.iter().filter(|&&d| d).count(),
            f.cause
        );
        for &r in waiting.iter().filter(|&&r| r != first).take(8) {
            if let Some(pc) = scratches[r].first_pc() {
                let c = self.shape.ctaid(ctas[r]);
                f.notes.push((pc, format!("CTA ({},{},{}) (rank {r}) waits here", c.x, c.y, c.z)));
            }
        }
        (ctas[first], f)
    }
}
