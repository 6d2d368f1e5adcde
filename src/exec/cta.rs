//! One CTA: its warps, its shared memory and its sixteen barriers (PTX ISA 9.7.13.1;
//! DESIGN.md, "SIMT model").
//!
//! Warps take turns: each runs its ready groups for a quantum of instructions. A
//! group that reaches a barrier waits there; once every non-exited thread of its warp
//! waits at a barrier, the warp *arrives* (counting as 32 threads towards an explicit
//! thread count). A barrier completes when its count is reached, or, without one,
//! when every warp with non-exited threads has arrived: exited threads stop counting,
//! so `if (i >= n) return; __syncthreads();` is well defined. When nothing can run,
//! the newest join of a warp lets its done lanes go on alone; when not even that can
//! happen the CTA is deadlocked, and the fault names every waiting group.

use super::limits::{Limits, Steps};
use super::sanitize::{Shadow, ShadowChecks};
use super::simt::Wait;
use super::spin::{Loop, Spin};
use super::threads::WARP_SIZE;
use super::warp::{Cta, Fault, Warp, lanes};
use crate::lower::program::{BarKind, BarRed, Barrier, Inst, Op};
use std::cell::RefCell;
use std::rc::Rc;

/// Instructions a warp runs before the next warp's turn.
const QUANTUM: u64 = 1 << 14;

/// One barrier's state in the current phase.
#[derive(Clone, Copy, Debug, Default)]
struct Bar {
    /// Warps that arrived (one bit each).
    warps: u32,
    /// Threads counted: 32 per arrived warp.
    threads: u32,
    /// The thread count the arrivals named (0: every non-exited thread).
    count: u32,
}

/// What a CTA keeps between runs on one host thread: warps, frames and shared
/// memory are reused, so a launch allocates per resident CTA, not per CTA. It is also
/// the whole state of a CTA that let others run ([`Cta::resume`]): its warps, shared
/// memory and barriers.
#[derive(Default)]
pub struct Scratch {
    warps: Vec<Warp>,
    shared: Vec<u8>,
    /// The shadow of shared memory (`--sanitize`), kept for the next CTA.
    shadow: Option<Rc<RefCell<Shadow>>>,
    bars: [Bar; 16],
    /// What waited at try_wait when a time limit last passed (see mbarrier.rs).
    timed_out: Option<u64>,
    /// Turns the CTA has begun ([`Cta::resume`]).
    turns: u32,
    /// Warp instructions its last turn ran.
    last_used: u64,
}

/// How a turn of a CTA ended ([`Cta::resume`]).
#[derive(Debug, Default)]
pub struct Turn {
    /// It ran to its end.
    pub done: bool,
    /// Some instruction of it may have changed memory or the world outside it
    /// ([`crate::lower::program::Op::has_effect`]).
    pub wrote: bool,
    /// Watched, it waits for other CTAs: every warp with a group that can run loops
    /// without changing anything (its loops), the others are blocked, and the CTA
    /// changed nothing this turn. Nothing in it will change until another CTA
    /// changes memory (`spin.rs`).
    pub waits: Option<Vec<Loop>>,
}

/// A started CTA, or cluster, that let others run, with its whole state, to be
/// resumed on any host thread.
pub(crate) enum Suspended {
    Cta(Box<Scratch>),
    Cluster(Box<super::cluster::ClusterRun>),
}

// SAFETY: the only non-Send parts of a `Scratch` are the `Rc`s of its shared-memory
// shadow, of its warpgroups' wgmma logs and of its cluster's link; those of a CTA are
// held by its scratch and its own warps, and a cluster's link by its `ClusterRun` and
// the warps of its CTAs' scratches, which the `ClusterRun` holds: nothing outside a
// `Suspended` holds any of them. A `Suspended` moves them all together, and they are
// used by one thread at a time.
unsafe impl Send for Suspended {}

impl Scratch {
    /// The number of the turn the CTA begins now, from 0.
    pub fn next_turn(&mut self) -> u32 {
        self.turns = self.turns.wrapping_add(1);
        self.turns - 1
    }

    /// Whether its last turn ran any instruction.
    pub fn ran_last_turn(&self) -> bool {
        self.last_used > 0
    }

    /// Its warps join a cluster as rank `rank` (`cluster.rs`).
    pub(crate) fn join_cluster(&mut self, link: &Rc<super::cluster::Link>, rank: u32, warps: usize) {
        for warp in &mut self.warps[..warps] {
            warp.cluster = Some(link.clone());
            warp.rank = rank;
        }
    }

    /// Exchanges its shared memory with `other` (a cluster keeps those of the CTAs
    /// not running).
    pub fn swap_shared(&mut self, other: &mut Vec<u8>) {
        std::mem::swap(&mut self.shared, other);
    }

    /// Why CTA `n` of `cta`, with every group waiting, cannot go on: the CTA's own
    /// deadlock report (what each group waits for).
    pub fn deadlock_report(&self, cta: &Cta<'_>, n: u64) -> Fault {
        let count = cta.shape.warps_per_cta() as usize;
        cta.deadlock(n, &self.warps[..count], &self.bars, &self.shared)
    }

    /// Whether some group of the CTA waits for something other than the cluster
    /// barrier (a CTA barrier, an mbarrier, other lanes).
    pub fn waits_within(&self) -> bool {
        self.warps
            .iter()
            .any(|w| w.groups.iter().any(|(_, n)| n.wait != Wait::Cluster && n.mask & !n.pending != 0))
    }

    /// Where the first waiting group of the CTA is, for reports.
    pub fn first_pc(&self) -> Option<u32> {
        self.warps.iter().find_map(|w| w.groups.leaves().next().map(|(_, node)| node.pc))
    }

    /// The last CTA's warps' traces (`Checks::trace`), warp by warp, and each warp's
    /// lanes that hold threads.
    pub fn take_traces(&mut self, shape: &super::threads::Shape) -> Vec<(u32, Vec<super::warp::TraceStep>)> {
        let count = shape.warps_per_cta() as usize;
        self.warps
            .iter_mut()
            .take(count)
            .enumerate()
            .map(|(w, warp)| (shape.warp_mask(w as u32), warp.trace.take().unwrap_or_default()))
            .collect()
    }
}

impl Cta<'_> {
    /// Runs CTA number `n` (launch order) to completion, counting executed warp
    /// instructions against `budget`.
    ///
    /// # Errors
    /// The first [`Fault`] met.
    pub fn run(&self, n: u64, limits: &Limits, scratch: &mut Scratch) -> Result<(), Fault> {
        self.start(n, scratch);
        self.resume(n, limits, scratch, None, false).map(|_| ())
    }

    /// Runs started CTA `n` on: to its end, or, given `yield_after`, until it has run
    /// that many warp instructions and may go on later. `watch`: look for warps that
    /// wait on other CTAs ([`Turn::waits`]).
    ///
    /// # Errors
    /// The first [`Fault`] met.
    pub fn resume(
        &self,
        n: u64,
        limits: &Limits,
        scratch: &mut Scratch,
        yield_after: Option<u64>,
        watch: bool,
    ) -> Result<Turn, Fault> {
        let count = self.shape.warps_per_cta() as usize;
        for warp in &mut scratch.warps[..count] {
            match (&mut warp.spin, watch) {
                (Some(spin), on) => spin.on = on,
                (None, true) => {
                    let mut spin = Box::<Spin>::default();
                    spin.on = true;
                    warp.spin = Some(spin);
                }
                (None, false) => {}
            }
        }
        let effects = |s: &Scratch| s.warps[..count].iter().map(|w| w.effects).sum::<u64>();
        let before = effects(scratch);
        let mut steps = Steps::new(limits);
        let result = self.go(n, &mut steps, scratch, yield_after);
        scratch.last_used = steps.used();
        steps.flush();
        let wrote = effects(scratch) != before;
        let result = result.map(|looping| match looping {
            None => Turn { done: true, wrote, waits: None },
            // A CTA that changed nothing this turn, its warps blocked or looping: the
            // loops of those that loop.
            Some(looping) => {
                let loops = || {
                    let warps = scratch.warps[..count].iter();
                    warps.filter_map(|w| w.spin.as_deref().and_then(|s| s.looping(w.effects))).collect()
                };
                Turn { done: false, wrote, waits: (looping && !wrote).then(loops) }
            }
        });
        if !matches!(result, Ok(Turn { done: true, .. }) | Err(_)) {
            return result;
        }
        // The shadow's hazards, also those met before a fault.
        if let Some(shadow) = &scratch.shadow {
            let found = shadow.borrow_mut().take_hazards();
            if !found.is_empty() {
                super::sanitize::merge(&mut self.hazards.lock().unwrap_or_else(|e| e.into_inner()), found);
            }
        }
        if result.is_ok() {
            limits.cta_done();
        }
        result
    }

    /// Sets CTA `n` up in `scratch`: its warps at their entry, shared memory zeroed,
    /// barriers clear.
    pub fn start(&self, n: u64, scratch: &mut Scratch) {
        let count = self.shape.warps_per_cta() as usize;
        scratch.warps.resize_with(count, Warp::default);
        for (w, warp) in scratch.warps.iter_mut().enumerate() {
            warp.reset(w as u32, &self.shape, self.program, self.kernel);
        }
        let bytes = (self.program.dynamic_shared_at + self.dynamic_shared) as usize;
        scratch.shared.clear();
        scratch.shared.resize(bytes, 0);
        if self.checks.shadow() {
            let checks = ShadowChecks { race: self.checks.racecheck, init: self.checks.initcheck };
            let shadow = scratch.shadow.get_or_insert_with(|| Rc::new(RefCell::new(Shadow::new(checks))));
            shadow.borrow_mut().start(n, bytes);
            for warp in &mut scratch.warps[..count] {
                warp.shadow = Some(shadow.clone());
                warp.synced = Some(Box::new([[0; 32]; 32]));
            }
        }
        // A kernel with wgmma: each warpgroup's warps share the log that finds them
        // disagreeing (`wgmma.rs`).
        if !self.program.touches.is_empty() {
            for group in scratch.warps[..count].chunks_mut(4) {
                let log = Rc::new(RefCell::new(super::wgmma::WgGroup::default()));
                for warp in group {
                    warp.wg_group = Some(log.clone());
                }
            }
        }
        if self.checks.trace {
            for warp in &mut scratch.warps[..count] {
                warp.trace = Some(Vec::new());
            }
        }
        scratch.bars = [Bar::default(); 16];
        scratch.timed_out = None;
        scratch.turns = 0;
    }

    /// Runs the CTA's warps in turns: `None` once it ended, `Some(looping)` when it
    /// stepped aside after `yield_after` instructions, `looping` when in the last turn
    /// every warp that ran only looped without changing anything ([`Spin::looping`])
    /// and nothing else moved (no barrier, mbarrier or warp-synchronous instruction,
    /// no lanes going on alone).
    fn go(
        &self,
        n: u64,
        budget: &mut Steps<'_>,
        scratch: &mut Scratch,
        yield_after: Option<u64>,
    ) -> Result<Option<bool>, Fault> {
        let count = self.shape.warps_per_cta() as usize;
        let (warps, shared) = (&mut scratch.warps[..count], &mut scratch.shared[..]);
        let (bars, timed_out) = (&mut scratch.bars, &mut scratch.timed_out);
        let mut looping = false;
        loop {
            if yield_after.is_some_and(|limit| budget.used() >= limit) {
                return Ok(Some(looping));
            }
            let mut moved = false;
            for warp in warps.iter_mut() {
                if warp.groups.pick().is_some() {
                    self.run_warp(n, warp, shared, budget, QUANTUM)?;
                    moved = true;
                }
            }
            // A barrier completes as soon as its count is reached, so the warps that
            // arrive after that wait for its next phase.
            let mut acted = false;
            for w in 0..warps.len() {
                acted |= self.try_sync(n, &mut warps[w])?;
                acted |= self.wake_cluster(&mut warps[w]);
                if self.program.mbarrier_waits {
                    acted |= self.wake_mbarriers(&mut warps[w], shared);
                }
                let arrived = self.arrive(n, &mut warps[w], bars)?;
                acted |= arrived != 0;
                for b in lanes(u32::from(arrived)) {
                    self.complete(warps, bars, b as usize);
                }
            }
            // Exits can complete a barrier that waits for every thread.
            for b in 0..bars.len() {
                acted |= self.complete(warps, bars, b);
            }
            // Warps that only loop without changing anything (found in a watched
            // turn, spin.rs) wait for something from outside them, as blocked ones
            // do: what follows may run as when nothing moved.
            let only_loops = moved
                && !acted
                && warps.iter().all(|w| {
                    w.groups.pick().is_none()
                        || w.spin.as_deref().is_some_and(|s| s.looping(w.effects).is_some())
                });
            moved |= acted;
            if moved && !only_loops {
                looping = false;
                continue;
            }
            // Nothing else can run: lanes done at a join go on alone (one join a
            // warp); failing that, time passes for the lanes spinning on a test_wait.
            let mut fell = false;
            for warp in warps.iter_mut() {
                fell |= warp.groups.go_alone();
            }
            if !fell && self.program.mbarrier_waits {
                for warp in warps.iter_mut() {
                    fell |= Self::wake_spinning(warp);
                }
            }
            // In a cluster, what the CTA waits for may come from its other CTAs
            // (arrivals on its mbarriers, the cluster barrier): it steps aside for
            // them first (`cluster.rs` finds a cluster where nothing can move).
            if !fell && !only_loops && warps.iter().any(|w| w.cluster.is_some()) {
                return Ok(if warps.iter().all(|w| w.groups.is_empty()) { None } else { Some(false) });
            }
            if !fell && self.program.mbarrier_waits {
                // Failing that, the time limit of the try_waits passes, unless they
                // wait as they did when it last passed: then nothing will change.
                let seen =
                    warps.iter().fold(0xcbf2_9ce4_8422_2325, |h, w| Self::try_wait_signature(w, shared, h));
                if *timed_out != Some(seen) {
                    *timed_out = Some(seen);
                    for warp in warps.iter_mut() {
                        fell |= self.time_out_try_waits(warp);
                    }
                }
            }
            looping = !fell && only_loops;
            if only_loops || fell {
                continue;
            }
            if warps.iter().all(|w| w.groups.is_empty()) {
                return Ok(None);
            }
            return Err(self.deadlock(n, warps, bars, shared));
        }
    }

    /// Group `leaf` reaches a barrier with its `active` lanes.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn barrier(
        &self,
        n: u64,
        warp: &mut Warp,
        inst: &Inst,
        bar: &Barrier,
        leaf: u32,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<bool, Fault> {
        let uniform = |warp: &Warp, src, what: &str| -> Result<u32, Fault> {
            let first = super::lane::read(warp, src, active.trailing_zeros() as usize) as u32;
            for lane in lanes(active) {
                let v = super::lane::read(warp, src, lane as usize) as u32;
                if v != first {
                    let cause = format!("the {what} differs between lanes: {first} and {v} (lane {lane})");
                    return Err(self.fault(n, warp, 1 << lane, inst, cause));
                }
            }
            Ok(first)
        };
        let id = uniform(warp, bar.id, "barrier id")?;
        if id > 15 {
            return Err(self.fault(n, warp, active, inst, format!("barrier id {id} is not one of 0-15")));
        }
        let count = match bar.count {
            Some(c) => {
                let c = uniform(warp, c, "thread count")?;
                if c == 0 || !c.is_multiple_of(WARP_SIZE) {
                    let cause =
                        format!("barrier thread count {c} is not a positive multiple of the warp size");
                    return Err(self.fault(n, warp, active, inst, cause));
                }
                c
            }
            None => 0,
        };
        if let Some(p) = bar.pred {
            let bits = super::warp::pred_mask(warp, p);
            warp.red_bits = (warp.red_bits & !active) | (bits & active);
        }
        let wait = Wait::Barrier { id: id as u8, count, arrived: false };
        Self::park(warp, leaf, pc, mask, active, wait);
        Ok(false)
    }

    /// Counts warp `warp` at its barriers once every non-exited thread of it waits at
    /// one; `.arrive` groups then go on. Returns the barriers it arrived at (a bit
    /// each). Before sm_70 the warp must be there converged, as one group.
    fn arrive(&self, n: u64, warp: &mut Warp, bars: &mut [Bar; 16]) -> Result<u16, Fault> {
        let mut at = 0;
        let mut new = false;
        for (_, node) in warp.groups.leaves() {
            match node.wait {
                Wait::Barrier { arrived, .. } => {
                    at |= node.mask;
                    new |= !arrived;
                }
                _ => return Ok(0),
            }
        }
        if !new || at != warp.live {
            return Ok(0);
        }
        // `.aligned` barriers: every thread of the warp at the same instruction.
        // Every leaf holds a lane: at most 32 (no allocation at each barrier).
        let mut all = [(0u32, 0u32, 0u32); 32];
        let mut len = 0;
        for (i, node) in warp.groups.leaves().take(32) {
            all[len] = (i, node.pc, node.mask);
            len += 1;
        }
        let waiting = &all[..len];
        let (_, pc0, m0) = waiting[0];
        if self.program.sm < 70 && len > 1 {
            let cause = format!(
                "barrier that cannot complete: lanes {:#010x} of warp {} reach it on another path \
                 (before sm_70 a warp must reach a barrier converged)",
                warp.live & !m0,
                warp.index
            );
            return Err(self.fault(n, warp, m0, self.inst(pc0), cause));
        }
        if let Some(&(_, pc1, m1)) = waiting.iter().find(|w| w.1 != pc0) {
            let aligned = |pc: u32| matches!(&self.inst(pc).op, Op::Barrier(b) if b.aligned);
            if aligned(pc0) || aligned(pc1) {
                let (a, b) = if aligned(pc0) { (pc0, pc1) } else { (pc1, pc0) };
                let m0 = waiting.iter().filter(|w| w.1 == a).fold(0, |m, w| m | w.2);
                let other = if a == pc0 { m1 } else { m0 };
                let cause = format!(
                    "barrier that cannot complete: an .aligned barrier reached from different paths of warp {} \
                     (undefined behaviour): lanes {m0:#010x} here, lanes {other:#010x} at another barrier",
                    warp.index
                );
                let mut f = self.fault(n, warp, m0, self.inst(a), cause);
                f.notes.push((b, format!("lanes {other:#010x} of warp {} wait here", warp.index)));
                return Err(f);
            }
        }
        let mut ids = 0u16;
        for &(i, pc, _) in waiting {
            let node = warp.groups.node_mut(i);
            let Wait::Barrier { id, count, arrived: false } = node.wait else { continue };
            ids |= 1 << id;
            node.wait = Wait::Barrier { id, count, arrived: true };
            let bar = &mut bars[id as usize];
            if bar.warps >> warp.index & 1 == 0 {
                bar.warps |= 1 << warp.index;
                bar.threads += WARP_SIZE;
            }
            if count != 0 {
                bar.count = count;
            }
            if matches!(&self.inst(pc).op, Op::Barrier(b) if b.kind == BarKind::Arrive) {
                warp.groups.wake(i);
                warp.groups.goto(i, pc + 1);
            }
        }
        Ok(ids)
    }

    /// Completes barrier `b` if its threads are all there: computes `bar.red` and
    /// lets its waiting groups go on. True when it did.
    fn complete(&self, warps: &mut [Warp], bars: &mut [Bar; 16], b: usize) -> bool {
        let bar = bars[b];
        if bar.warps == 0 {
            return false;
        }
        let done = if bar.count != 0 {
            bar.threads >= bar.count
        } else {
            warps.iter().all(|w| w.live == 0 || bar.warps >> w.index & 1 == 1)
        };
        if !done {
            return false;
        }
        bars[b] = Bar::default();
        if let Some(shadow) = warps.first().and_then(|w| w.shadow.as_ref()) {
            shadow.borrow_mut().barrier();
        }
        let at_b = |wait: Wait| matches!(wait, Wait::Barrier { id, arrived: true, .. } if id as usize == b);
        // `bar.red`: the reduction over every participating thread.
        let (mut total, mut all, mut any) = (0u32, true, false);
        for warp in warps.iter() {
            for (_, node) in warp.groups.leaves().filter(|(_, n)| at_b(n.wait)) {
                if let Op::Barrier(x) = &self.inst(node.pc).op
                    && matches!(x.kind, BarKind::Red(_))
                {
                    let bits = warp.red_bits & node.mask;
                    total += bits.count_ones();
                    all &= bits == node.mask;
                    any |= bits != 0;
                }
            }
        }
        for warp in warps.iter_mut() {
            let mut waiting = [(0u32, 0u32, 0u32, 0u32); 32];
            let mut len = 0;
            for (i, n) in warp.groups.leaves().filter(|(_, n)| at_b(n.wait)).take(32) {
                waiting[len] = (i, n.pc, n.mask, n.frame);
                len += 1;
            }
            for &(i, pc, mask, frame) in &waiting[..len] {
                if let Op::Barrier(x) = &self.inst(pc).op
                    && let (BarKind::Red(red), Some(dst)) = (x.kind, x.dst)
                {
                    let v = match red {
                        BarRed::Popc => u64::from(total),
                        BarRed::And => u64::from(all),
                        BarRed::Or => u64::from(any),
                    };
                    warp.use_frame(frame);
                    for lane in lanes(mask) {
                        super::lane::write(warp, dst, lane as usize, v);
                    }
                }
                warp.groups.wake(i);
                warp.groups.goto(i, pc + 1);
            }
        }
        true
    }

    fn inst(&self, pc: u32) -> &Inst {
        &self.program.insts[pc as usize]
    }

    /// The fault of a CTA where no group can move: the first waiting group, with a
    /// note for every other.
    fn deadlock(&self, n: u64, warps: &[Warp], bars: &[Bar; 16], shared: &[u8]) -> Fault {
        let mut groups = Vec::new();
        for warp in warps {
            for (_, node) in warp.groups.iter() {
                let done = node.mask & !node.pending;
                if done == 0 {
                    continue;
                }
                let what = match node.wait {
                    _ if node.pending != 0 => {
                        format!("wait at this reconvergence point for lanes {:#010x}", node.pending)
                    }
                    Wait::Barrier { id, count, .. } => {
                        let bar = bars[id as usize];
                        let expected = if count != 0 {
                            format!("{count} threads")
                        } else {
                            "every non-exited thread of the CTA".to_string()
                        };
                        let arrived = if bar.warps >> warp.index & 1 == 1 {
                            "its warp has arrived"
                        } else {
                            "its warp has not arrived: other lanes of it are elsewhere"
                        };
                        format!(
                            "wait at barrier {id} for {expected} ({} threads arrived; {arrived})",
                            bar.threads
                        )
                    }
                    Wait::Sync => {
                        let m = lanes(done).fold(0, |m, l| m | warp.sync_mask[l as usize]);
                        format!("wait for member lanes {:#010x} (of mask {m:#010x})", m & warp.live & !done)
                    }
                    Wait::Mbarrier { .. } => Self::mbar_waits_for(warp, shared, done.trailing_zeros()),
                    Wait::Cluster => "wait at the cluster barrier".to_string(),
                    Wait::Ready => "are ready".to_string(),
                };
                let at = self.program.insts.get(node.pc as usize).unwrap_or(&self.program.insts[0]);
                groups.push((warp.index, done, at, what));
            }
        }
        let Some(&(w, lanes0, at, ref what)) = groups.first() else {
            let at = &self.program.insts[0];
            return self.fault(n, &warps[0], 1, at, "deadlock".into());
        };
        let cause = format!(
            "deadlock: no thread of the CTA can go on (barrier that cannot complete); lanes {lanes0:#010x} of warp {w} {what}"
        );
        let mut f = self.fault(n, &warps[w as usize], lanes0, at, cause);
        // The frame checked out is the last group's to run, not the waiting group's.
        f.calls.clear();
        for &(w, lanes, at, ref what) in &groups[1..] {
            f.notes.push((self.pc_of(at), format!("lanes {lanes:#010x} of warp {w} {what}")));
        }
        f
    }
}
