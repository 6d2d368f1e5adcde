//! One warp: its groups (the reconvergence tree of `simt.rs`), its call frames and
//! registers, and the loop that runs one group until it must stop (DESIGN.md, "SIMT
//! model"). Registers live per frame in rows of 32 lanes; a guard is a lane mask.
//! Instructions that change which lanes run (branches, calls, returns, exits) are
//! here; barriers are in `cta.rs`, warp-synchronous instructions in `sync.rs`, and
//! everything a lane computes alone in `lane.rs`.
//!
//! Frames: a call gives the calling lanes a new frame (registers, and a region of
//! each lane's local memory above the caller's), so groups of one warp may run in
//! different functions at once. Lanes of one frame share its register rows, each in
//! its own column. `ret` copies the returning lanes' results into the caller's frame
//! at once; a frame is reused once its last lane has left it.

use super::limits::Steps;
use super::memory::GlobalMemory;
use super::sanitize::{Hazard, Shadow};
use super::simt::{Groups, NONE, Wait};
use super::spin::{Loop, Spin, put_rows32, put_rows64};
use super::threads::Dim3;
use super::threads::{Shape, WARP_SIZE};
use crate::lower::fast::Fast;
use crate::lower::program::{Call, CallValue, Callee, Inst, Op, Pred, PredOp, PredSrc, Program, Src};
use std::cell::RefCell;
use std::rc::Rc;

/// Why a launch stopped: the cause, and the thread and instruction that met it.
/// Instructions are indices into [`Program::insts`]; the API turns them into source
/// places.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub cause: String,
    pub ctaid: Dim3,
    pub tid: Dim3,
    pub pc: u32,
    /// Other instructions the cause involves (the groups of a deadlock), each with
    /// what is there.
    pub notes: Vec<(u32, String)>,
    /// The `call` instructions the faulting thread is inside, innermost first.
    pub calls: Vec<u32>,
}

/// One frame's registers for the whole warp.
#[derive(Default)]
pub(super) struct Regs {
    pub r32: Vec<[u32; 32]>,
    pub r64: Vec<[u64; 32]>,
    pub pred: Vec<u32>,
}

impl Regs {
    /// Zeroed rows for a function, reusing the storage.
    fn reset(&mut self, (r32, r64, pred): (u32, u32, u32)) {
        self.r32.clear();
        self.r32.resize(r32 as usize, [0; 32]);
        self.r64.clear();
        self.r64.resize(r64 as usize, [0; 32]);
        self.pred.clear();
        self.pred.resize(pred as usize, 0);
    }
}

/// A function activation of some lanes of the warp.
#[derive(Default)]
struct Frame {
    /// Its registers; empty while checked out into [`Warp::regs`].
    regs: Regs,
    func: u32,
    base: u32,
    top: u32,
    /// The caller's frame, and the call instruction (for return values).
    parent: u32,
    call_pc: u32,
    /// Lanes running in it or in frames it called.
    lanes: u32,
    depth: u32,
}

/// One instruction a warp executed: the pc, the lanes of the group that ran it, and
/// those of them whose guard held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub pc: u32,
    pub mask: u32,
    pub active: u32,
}

/// Most instructions a warp's trace keeps.
pub const MAX_TRACE: usize = 100_000;

/// One warp.
#[derive(Default)]
pub(super) struct Warp {
    pub index: u32,
    /// The CTA's shared-memory shadow, under `--sanitize racecheck/initcheck`.
    pub shadow: Option<Rc<RefCell<Shadow>>>,
    /// The instruction that accesses memory now (kept for the shadow).
    pub pc_now: u32,
    /// `bar.warp.sync`s the warp has completed, and for each pair of lanes the number
    /// of the last one both took part in (kept for the shadow: they order accesses).
    pub wsync: u32,
    pub synced: Option<Box<[[u32; 32]; 32]>>,
    /// Under `ptxvm trace`: each instruction the warp executed, in order.
    pub trace: Option<Vec<TraceStep>>,
    /// Lanes that hold threads that have not exited.
    pub live: u32,
    pub groups: Groups,
    /// The registers, function and local-memory frame of frame `frame`, checked out
    /// for the group that runs.
    pub regs: Regs,
    pub func: u32,
    pub base: u32,
    /// Bytes of the running frame's top: local addresses at or past it fault.
    pub top: u32,
    frame: u32,
    frames: Vec<Frame>,
    free_frames: Vec<u32>,
    /// Each lane's local memory: its stack of frames.
    pub local: Vec<Vec<u8>>,
    /// Virtual time: instructions this warp executed.
    pub clock: u64,
    /// Each lane's member mask at the warp-synchronous instruction it waits at.
    pub sync_mask: [u32; 32],
    /// Each lane's mbarrier object (its shared address) and the phase parity it
    /// waits for at a `try_wait` (a bit each).
    pub mbar_at: [u32; 32],
    pub mbar_parity: u32,
    /// How many times this warp changed an mbarrier object (what tells a `try_wait`
    /// that timed out and waits again from one that can never finish).
    pub mbar_updates: std::cell::Cell<u64>,
    /// Each lane's predicate at the `bar.red` it waits at.
    pub red_bits: u32,
    /// Each lane's `%tid.x`, `%tid.y`, `%tid.z`.
    pub tid: [[u32; 32]; 3],
    /// Instructions run that may have changed something outside the warp
    /// ([`Op::has_effect`]).
    pub effects: u64,
    /// What finds the warp looping with nothing changing (`spin.rs`), kept across
    /// CTAs once made; on in the turns the grid watches.
    pub spin: Option<Box<Spin>>,
    /// The clock at which the next sample for `spin` is due (`u64::MAX`: none).
    pub sample_at: u64,
    /// Its `wgmma.mma_async`s not yet waited for (`wgmma.rs`); `wg_watch` while there
    /// are any, when each instruction is checked for touching their registers.
    pub wg: Option<Box<super::wgmma::WgWarp>>,
    pub wg_watch: bool,
    /// In a kernel with wgmma: each instruction's registers are noted (`wgmma.rs`).
    pub wg_track: bool,
    /// Its warpgroup's log of `wgmma.mma_async`s, in a kernel that has them.
    pub wg_group: Option<Rc<RefCell<super::wgmma::WgGroup>>>,
    /// Its CTA's cluster, when it has more than one CTA, and the CTA's rank in it.
    pub cluster: Option<Rc<super::cluster::Link>>,
    pub rank: u32,
    /// Lanes that arrived at the cluster barrier and have not waited yet, and the
    /// phase each arrived in.
    pub cl_pending: u32,
    pub cl_phase: [u64; 32],
}

/// Deepest call nesting, and most local memory per thread (CUDA's stack limit is
/// settable too; a runaway recursion becomes a fault, not an abort).
const MAX_CALL_DEPTH: u32 = 4096;
const MAX_LOCAL_BYTES: u32 = 1 << 20;
const FRAME_ALIGN: u32 = 16;
/// Instructions a group runs before the warp's other ready groups get a turn, so a
/// group spinning on a flag that another group sets still lets it be set.
const SLICE: u32 = 1024;

impl Warp {
    /// Makes warp `index` of a CTA of `shape` start kernel `func`, reusing storage.
    pub fn reset(&mut self, index: u32, shape: &Shape, program: &Program, func: u32) {
        let mask = shape.warp_mask(index);
        let f = &program.funcs[func as usize];
        self.index = index;
        self.shadow = None;
        self.wsync = 0;
        self.synced = None;
        self.trace = None;
        self.live = mask;
        // Frames (and their register storage) from earlier CTAs are reused.
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        self.free_frames.clear();
        self.free_frames.extend((1..self.frames.len() as u32).rev());
        self.regs.reset(f.rows);
        let root = &mut self.frames[0];
        root.func = func;
        root.base = 0;
        root.top = f.frame_bytes;
        root.parent = NONE;
        root.call_pc = 0;
        root.lanes = mask;
        root.depth = 0;
        self.frame = 0;
        self.func = func;
        self.base = 0;
        self.top = f.frame_bytes;
        self.groups.reset(f.entry, mask, 0);
        self.local.resize_with(WARP_SIZE as usize, Vec::new);
        for l in &mut self.local {
            l.clear();
            l.resize(f.frame_bytes as usize, 0);
        }
        self.clock = 0;
        self.red_bits = 0;
        self.mbar_updates.set(0);
        self.effects = 0;
        if let Some(spin) = self.spin.as_mut() {
            spin.on = false;
        }
        self.sample_at = u64::MAX;
        self.wg = None;
        self.wg_watch = false;
        self.wg_track = !program.touches.is_empty();
        self.wg_group = None;
        self.cluster = None;
        self.rank = 0;
        self.cl_pending = 0;
        // Each lane's thread id, for `%tid` (lanes past the block's threads never run).
        for l in 0..WARP_SIZE {
            let t =
                if self.live >> l & 1 == 1 { shape.tid(self.index, l) } else { Dim3 { x: 0, y: 0, z: 0 } };
            let l = l as usize;
            (self.tid[0][l], self.tid[1][l], self.tid[2][l]) = (t.x, t.y, t.z);
        }
    }

    /// Everything the warp's next instructions depend on but memory, for [`Spin`]:
    /// groups (not their running order, which only decides between ready groups),
    /// registers and frames, and the clock if the program reads it. Local memory is
    /// left out: only instructions counted as effects write it.
    fn put_state(&self, out: &mut Vec<u32>, clock: bool) {
        if clock {
            out.extend([self.clock as u32, (self.clock >> 32) as u32]);
        }
        self.groups.put_state(out);
        out.extend([self.live, self.func, self.base, self.top, self.frame, self.mbar_parity, self.red_bits]);
        out.extend_from_slice(&self.sync_mask);
        out.extend_from_slice(&self.mbar_at);
        let regs = |out: &mut Vec<u32>, r: &Regs| {
            put_rows32(out, &r.r32);
            put_rows64(out, &r.r64);
            out.push(r.pred.len() as u32);
            out.extend_from_slice(&r.pred);
        };
        regs(out, &self.regs);
        out.push(self.frames.len() as u32);
        for fr in &self.frames {
            regs(out, &fr.regs);
            out.extend([fr.func, fr.base, fr.top, fr.parent, fr.call_pc, fr.lanes, fr.depth]);
        }
        out.push(self.free_frames.len() as u32);
        out.extend_from_slice(&self.free_frames);
    }

    /// A sample for [`Spin`] at a backward branch from `back` to `head` taken by
    /// group `leaf` (whose pc is already `head`). Only a warp whose one ready group
    /// is this one is sampled: then which group runs next is never a question.
    fn sample_spin(&mut self, leaf: u32, back: u32, head: u32, clock: bool) {
        let Some(mut spin) = self.spin.take() else { return };
        if self.groups.leaves().filter(|(_, n)| n.wait == Wait::Ready).count() == 1 {
            let at = Loop { warp: self.index, lanes: self.groups.node(leaf).mask, head, back };
            spin.sample(self.clock, self.effects, at, |out| self.put_state(out, clock));
        } else {
            spin.skip(self.clock);
        }
        self.sample_at = spin.next_due();
        self.spin = Some(spin);
    }

    /// The running frame now ends at `top` (it only grows: `alloca`).
    pub fn grow_frame(&mut self, top: u32) {
        self.top = self.top.max(top);
        if let Some(fr) = self.frames.get_mut(self.frame as usize) {
            fr.top = fr.top.max(top);
        }
    }

    /// The frame whose registers are checked out now.
    pub fn frame_id(&self) -> u32 {
        self.frame
    }

    /// Checks frame `f`'s registers out into [`Warp::regs`].
    pub fn use_frame(&mut self, f: u32) {
        if f == self.frame {
            return;
        }
        if self.frame != NONE {
            std::mem::swap(&mut self.regs, &mut self.frames[self.frame as usize].regs);
        }
        let fr = &mut self.frames[f as usize];
        std::mem::swap(&mut self.regs, &mut fr.regs);
        self.func = fr.func;
        self.base = fr.base;
        self.top = fr.top;
        self.frame = f;
    }

    /// The `call` instructions of the running frame and the frames that called it,
    /// innermost first: the call stack of a fault.
    fn calls(&self) -> Vec<u32> {
        let mut calls = Vec::new();
        let mut f = self.frame as usize;
        while f != 0 && calls.len() <= MAX_CALL_DEPTH as usize {
            let Some(fr) = self.frames.get(f) else { break };
            calls.push(fr.call_pc);
            f = fr.parent as usize;
        }
        calls
    }

    /// A new frame for `lanes` calling `func` from the running frame at `call_pc`.
    fn push_frame(&mut self, program: &Program, func: u32, base: u32, call_pc: u32, lanes: u32) -> u32 {
        let f = &program.funcs[func as usize];
        let parent = self.frame;
        let depth = self.frames[parent as usize].depth + 1;
        let k = match self.free_frames.pop() {
            Some(k) => k,
            None => {
                self.frames.push(Frame::default());
                (self.frames.len() - 1) as u32
            }
        };
        let fr = &mut self.frames[k as usize];
        fr.regs.reset(f.rows);
        fr.func = func;
        fr.base = base;
        fr.top = base + f.frame_bytes;
        fr.parent = parent;
        fr.call_pc = call_pc;
        fr.lanes = lanes;
        fr.depth = depth;
        k
    }

    /// `lanes` leave frame `f` and (`to_root`) every frame that called it; frames
    /// left empty are reused.
    fn leave_frames(&mut self, f: u32, lanes: u32, to_root: bool) {
        let mut f = f;
        while f != NONE {
            let fr = &mut self.frames[f as usize];
            fr.lanes &= !lanes;
            let (empty, parent) = (fr.lanes == 0, fr.parent);
            if empty && f != 0 {
                if f == self.frame {
                    std::mem::swap(&mut self.regs, &mut self.frames[f as usize].regs);
                    self.frame = NONE;
                }
                self.free_frames.push(f);
            }
            if !to_root {
                return;
            }
            f = parent;
        }
    }

    /// The registers of frame `f`, whether checked out or not.
    pub fn regs_of(&mut self, f: u32) -> &mut Regs {
        if f == self.frame { &mut self.regs } else { &mut self.frames[f as usize].regs }
    }
}

/// What a CTA needs to run.
pub struct Cta<'a> {
    pub program: &'a Program,
    /// The kernel: an index into [`Program::funcs`].
    pub kernel: u32,
    pub shape: Shape,
    pub params: &'a [u8],
    pub memory: &'a GlobalMemory,
    pub dynamic_shared: u32,
    /// What to report as faults beyond undefined behaviour.
    pub checks: super::limits::Checks,
    /// Where device `printf` writes.
    pub printed: &'a super::builtin::Printed,
    pub heap: &'a super::builtin::Heap,
    /// The grids this grid's threads launch (dynamic parallelism).
    pub children: &'a super::children::Children,
    /// Where the CTAs' shared-memory hazards go (`--sanitize`).
    pub hazards: &'a std::sync::Mutex<Vec<Hazard>>,
    /// The grid-sync workspace of a cooperative launch (0 otherwise): 8 zeroed bytes
    /// whose address `%envreg1:%envreg2` hold.
    pub grid_workspace: u64,
}

/// The lanes of `mask`, lowest first.
pub(super) fn lanes(mask: u32) -> impl Iterator<Item = u32> {
    let mut m = mask;
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let l = m.trailing_zeros();
            m &= m - 1;
            l
        })
    })
}

impl Cta<'_> {
    /// Runs the warp's ready groups until none is left ready or it has run about
    /// `quantum` instructions.
    pub(super) fn run_warp(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        budget: &mut Steps<'_>,
        quantum: u64,
    ) -> Result<(), Fault> {
        let until = warp.clock + quantum;
        warp.sample_at = match warp.spin.as_mut() {
            Some(spin) if spin.on => {
                spin.restart();
                warp.clock
            }
            _ => u64::MAX,
        };
        while let Some(leaf) = warp.groups.pick() {
            self.run_leaf(n, warp, shared, budget, leaf)?;
            if warp.clock >= until {
                break;
            }
        }
        Ok(())
    }

    /// Runs group `leaf` until it splits, waits, leaves the tree or has run a slice,
    /// with the widest vector instructions the CPU has: the loop and the warp-wide
    /// arms are compiled once for each ([`super::fast::level`]).
    fn run_leaf(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        budget: &mut Steps<'_>,
        leaf: u32,
    ) -> Result<(), Fault> {
        #[cfg(target_arch = "x86_64")]
        {
            match super::fast::level() {
                // SAFETY: `level` found the CPU has every feature `run_leaf_wide` is
                // built for.
                3 => return unsafe { self.run_leaf_wide(n, warp, shared, budget, leaf) },
                // SAFETY: as above, for `run_leaf_avx2`.
                2 => return unsafe { self.run_leaf_avx2(n, warp, shared, budget, leaf) },
                _ => {}
            }
        }
        self.run_leaf_any(n, warp, shared, budget, leaf)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,fma,bmi1,bmi2,popcnt")]
    fn run_leaf_wide(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        budget: &mut Steps<'_>,
        leaf: u32,
    ) -> Result<(), Fault> {
        self.run_leaf_any(n, warp, shared, budget, leaf)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,bmi1,bmi2,popcnt")]
    fn run_leaf_avx2(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        budget: &mut Steps<'_>,
        leaf: u32,
    ) -> Result<(), Fault> {
        self.run_leaf_any(n, warp, shared, budget, leaf)
    }

    /// Instructions with a warp-wide form run here, on the group's pc and lanes held
    /// in locals; the others go through [`Cta::step`].
    #[inline(always)]
    fn run_leaf_any(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        budget: &mut Steps<'_>,
        leaf: u32,
    ) -> Result<(), Fault> {
        let node = *warp.groups.node(leaf);
        warp.use_frame(node.frame);
        let (mut pc, mut mask, rpc) = (node.pc, node.mask, node.rpc);
        for _ in 0..SLICE {
            let Some(fi) = self.program.fast.get(pc as usize) else {
                // Past the last instruction: only a kernel falling off its end gets here.
                warp.groups.node_mut(leaf).pc = pc;
                self.exit(warp, leaf, mask);
                return Ok(());
            };
            let active = mask & fi.guard.mask(&warp.regs.pred);
            if let Some(trace) = warp.trace.as_mut()
                && trace.len() < MAX_TRACE
            {
                trace.push(TraceStep { pc, mask, active });
            }
            if warp.wg_track
                && active != 0
                && let Some((cause, wgmma)) = self.wgmma_track(warp, pc)
            {
                warp.groups.node_mut(leaf).pc = pc;
                let mut f = self.fault(n, warp, active, &self.program.insts[pc as usize], cause);
                f.notes.push((wgmma, "the wgmma.mma_async".into()));
                return Err(f);
            }
            if let Err(stop) = budget.step(active.count_ones()) {
                warp.groups.node_mut(leaf).pc = pc;
                return Err(self.fault(n, warp, mask, &self.program.insts[pc as usize], stop.to_string()));
            }
            warp.clock += 1;
            let next = match fi.op {
                Fast::Generic => None,
                Fast::Bra { target } if active == mask => {
                    if warp.clock >= warp.sample_at && target <= pc {
                        warp.groups.node_mut(leaf).pc = target;
                        warp.sample_spin(leaf, pc, target, self.program.reads_clock);
                    }
                    Some(target)
                }
                Fast::Bra { .. } if active == 0 => Some(pc + 1),
                Fast::Bra { .. } => None,
                op @ (Fast::Param { .. } | Fast::Sreg { .. }) => {
                    if let Err(cause) = self.fast_uniform(n, warp, op, active) {
                        warp.groups.node_mut(leaf).pc = pc;
                        return Err(self.fault(n, warp, active, &self.program.insts[pc as usize], cause));
                    }
                    Some(pc + 1)
                }
                op @ (Fast::Ld { .. } | Fast::St { .. }) => {
                    warp.effects += u64::from(matches!(op, Fast::St { .. }));
                    warp.pc_now = pc;
                    let inst = &self.program.insts[pc as usize];
                    if let Err(f) = self.fast_mem_any(n, warp, shared, inst, op, active) {
                        warp.groups.node_mut(leaf).pc = pc;
                        return Err(f);
                    }
                    Some(pc + 1)
                }
                op => {
                    super::fast::run_any(&mut warp.regs, op, active);
                    Some(pc + 1)
                }
            };
            match next {
                Some(next) => {
                    pc = next;
                    if pc == rpc {
                        warp.groups.goto(leaf, pc);
                        return Ok(());
                    }
                }
                None => {
                    warp.groups.node_mut(leaf).pc = pc;
                    warp.pc_now = pc;
                    let inst = &self.program.insts[pc as usize];
                    let active = mask & guard_mask(warp, inst.guard);
                    if !self.step(n, warp, shared, inst, leaf, pc, mask, active)? {
                        return Ok(());
                    }
                    let node = warp.groups.node(leaf);
                    (pc, mask) = (node.pc, node.mask);
                }
            }
        }
        warp.groups.node_mut(leaf).pc = pc;
        warp.groups.yield_leaf(leaf);
        Ok(())
    }

    pub(super) fn fault(&self, n: u64, warp: &Warp, mask: u32, inst: &Inst, cause: String) -> Fault {
        let lane = mask.trailing_zeros().min(WARP_SIZE - 1);
        Fault {
            cause,
            ctaid: self.shape.ctaid(n),
            tid: self.shape.tid(warp.index, lane),
            pc: self.pc_of(inst),
            notes: Vec::new(),
            calls: warp.calls(),
        }
    }

    /// The index of `inst` in the program (a search: only faults need it).
    pub(super) fn pc_of(&self, inst: &Inst) -> u32 {
        self.program.insts.iter().position(|i| std::ptr::eq(i, inst)).unwrap_or(0) as u32
    }

    /// Executes one instruction for group `leaf`; false when the group stops running
    /// (it split, waits, or left the tree).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        leaf: u32,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<bool, Fault> {
        // An instruction no lane runs (guard false everywhere) only moves the group on.
        if active == 0 {
            return Ok(warp.groups.goto(leaf, pc + 1));
        }
        warp.effects += u64::from(self.program.effect[pc as usize]);
        match &inst.op {
            Op::Bra { target, reconverge, uni } => {
                if *uni && active != mask {
                    let cause = format!(
                        "bra.uni is not uniform: lanes {active:#010x} take it, lanes {:#010x} do not",
                        mask & !active
                    );
                    return Err(self.fault(n, warp, mask & !active, inst, cause));
                }
                Ok(warp.groups.split(leaf, &[(pc + 1, mask & !active), (*target, active)], *reconverge))
            }
            Op::Brx { index, targets, reconverge } => {
                // Lanes are grouped by target, in target-list order.
                let mut paths = [(0u32, 0u32); 33];
                paths[0] = (pc + 1, mask & !active);
                let mut len = 1;
                for lane in lanes(active) {
                    let k = super::lane::read(warp, *index, lane as usize) & 0xffff_ffff;
                    let Some(&t) = targets.get(k as usize) else {
                        let cause =
                            format!("brx.idx index {k} is past the {} targets of its list", targets.len());
                        return Err(self.fault(n, warp, 1 << lane, inst, cause));
                    };
                    match paths[..len].iter_mut().find(|(pc, _)| *pc == t) {
                        Some(p) => p.1 |= 1 << lane,
                        None => {
                            paths[len] = (t, 1 << lane);
                            len += 1;
                        }
                    }
                }
                Ok(warp.groups.split(leaf, &paths[..len], *reconverge))
            }
            Op::Call(call) => self.call(n, warp, shared, inst, call, leaf, pc, mask, active),
            Op::Ret => {
                self.return_values(warp, active);
                let f = warp.groups.node(leaf).frame;
                warp.leave_frames(f, active, false);
                warp.groups.ret(leaf, active);
                if warp.live == 0 {
                    self.wgmma_gone(n, warp, inst)?;
                }
                Ok(mask & !active != 0 && warp.groups.goto(leaf, pc + 1))
            }
            Op::Exit => {
                self.exit(warp, leaf, active);
                self.cluster_exit(warp, active);
                if warp.live == 0 {
                    self.wgmma_gone(n, warp, inst)?;
                }
                Ok(mask & !active != 0 && warp.groups.goto(leaf, pc + 1))
            }
            Op::Trap => Err(self.fault(n, warp, active, inst, "trap".into())),
            Op::Brkpt => {
                let cause = "brkpt: breakpoint reached, and ptxvm has no debugger to stop in".into();
                Err(self.fault(n, warp, active, inst, cause))
            }
            Op::Activemask { dst } => {
                for lane in lanes(active) {
                    super::lane::write(warp, *dst, lane as usize, u64::from(active));
                }
                Ok(warp.groups.goto(leaf, pc + 1))
            }
            Op::Nanosleep => {
                // Time is virtual: the group lets the others run first.
                if warp.groups.goto(leaf, pc + 1) {
                    warp.groups.yield_leaf(leaf);
                }
                Ok(false)
            }
            Op::Alloca { dst, size, align } => {
                self.alloca(warp, *dst, *size, *align, active)
                    .map_err(|c| self.fault(n, warp, active, inst, c))?;
                Ok(warp.groups.goto(leaf, pc + 1))
            }
            Op::Barrier(bar) => self.barrier(n, warp, inst, bar, leaf, pc, mask, active),
            Op::ClusterBarrier { wait, cta } => {
                if warp.cluster.is_none() {
                    return if *wait {
                        self.barrier(n, warp, inst, cta, leaf, pc, mask, active)
                    } else {
                        Ok(warp.groups.goto(leaf, pc + 1))
                    };
                }
                if !*wait {
                    self.cluster_arrive(warp, active).map_err(|c| self.fault(n, warp, active, inst, c))?;
                    return Ok(warp.groups.goto(leaf, pc + 1));
                }
                if active != mask {
                    let cause =
                        "barrier.cluster.wait with a guard false for some lanes of the group: ptxvm waits \
                                 with whole groups"
                            .to_string();
                    return Err(self.fault(n, warp, mask & !active, inst, cause));
                }
                if self.cluster_waited(warp, active).map_err(|c| self.fault(n, warp, active, inst, c))? {
                    return Ok(warp.groups.goto(leaf, pc + 1));
                }
                warp.groups.node_mut(leaf).wait = super::simt::Wait::Cluster;
                Ok(false)
            }
            Op::Mbarrier(m) => self.mbarrier(n, warp, shared, inst, m, leaf, pc, mask, active),
            Op::Ldmatrix { .. } | Op::Stmatrix { .. } | Op::Mma(_) | Op::Wmma(_) | Op::Wgmma(_) => {
                // A wait for warpgroup operations the other warps have yet to issue
                // waits for them: the group lets the others run and comes back.
                if let Op::Wgmma(crate::lower::program::Wgmma::Wait(keep)) = &inst.op
                    && active == mask
                    && !self.wgmma_wait_ready(warp, *keep)
                {
                    warp.groups.yield_leaf(leaf);
                    return Ok(false);
                }
                self.matrix(n, warp, shared, inst, active)?;
                Ok(warp.groups.goto(leaf, pc + 1))
            }
            Op::Vote { members, .. }
            | Op::Shfl { members, .. }
            | Op::Match { members, .. }
            | Op::Redux { members, .. }
            | Op::Elect { members, .. }
            | Op::WarpSync { members } => self.warp_sync(n, warp, inst, *members, leaf, pc, mask, active),
            Op::PredLogic { op, dst, a, b } => {
                // Predicates are lane masks: one operation for the whole warp.
                let (x, y) = (pred_mask(warp, *a), pred_mask(warp, *b));
                let r = match op {
                    PredOp::And => x & y,
                    PredOp::Or => x | y,
                    PredOp::Xor => x ^ y,
                    PredOp::Not => !x,
                    PredOp::Mov => x,
                };
                let row = &mut warp.regs.pred[*dst as usize];
                *row = (*row & !active) | (r & active);
                Ok(warp.groups.goto(leaf, pc + 1))
            }
            _ => {
                for lane in lanes(active) {
                    self.lane(n, warp, shared, inst, lane)
                        .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                }
                Ok(warp.groups.goto(leaf, pc + 1))
            }
        }
    }

    /// `alloca` by `active` lanes (PTX ISA 9.7.9.16): each gets `size` bytes (its own
    /// operand) at the same local address, the running frame's top rounded up to
    /// `align`; the frame grows past the largest, zeroed. Returning from the function
    /// frees them with the frame.
    fn alloca(
        &self,
        warp: &mut Warp,
        dst: crate::lower::regs::Slot,
        size: Src,
        align: u32,
        active: u32,
    ) -> Result<(), String> {
        let at = u64::from(warp.top).div_ceil(u64::from(align)) * u64::from(align);
        let mut top = at;
        for lane in lanes(active) {
            let s = super::lane::read(warp, size, lane as usize);
            top = top.max(at.saturating_add(s));
        }
        if top > u64::from(MAX_LOCAL_BYTES) {
            return Err(format!(
                "alloca: the thread's local memory would reach {top} bytes (the limit is {MAX_LOCAL_BYTES})"
            ));
        }
        let top = top as u32;
        for lane in lanes(active) {
            let stack = &mut warp.local[lane as usize];
            stack.resize(stack.len().max(top as usize), 0);
            stack[at as usize..top as usize].fill(0);
            super::lane::write(warp, dst, lane as usize, at);
        }
        warp.grow_frame(top);
        Ok(())
    }

    /// `exit` (or `ret` from the kernel) by `lanes` of group `leaf`: the threads end,
    /// and leave every group and frame.
    fn exit(&self, warp: &mut Warp, leaf: u32, lanes: u32) {
        warp.live &= !lanes;
        let f = warp.groups.node(leaf).frame;
        warp.leave_frames(f, lanes, true);
        warp.groups.exit(leaf, lanes);
    }

    /// `call`: direct, or indirect with lanes split by target (PTX ISA 9.7.12.9).
    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &[u8],
        inst: &Inst,
        call: &Call,
        leaf: u32,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<bool, Fault> {
        let callee = match call.callee {
            Callee::Direct(f) => f,
            Callee::Builtin(b) => {
                self.builtin(n, warp, shared, inst, call, b, active)?;
                return Ok(warp.groups.goto(leaf, pc + 1));
            }
            Callee::Indirect(src) => {
                let mut groups = [(0u32, 0u32); 32];
                let mut len = 0;
                for lane in lanes(active) {
                    let addr = super::lane::read(warp, src, lane as usize);
                    let f = self.function_at(addr).ok_or_else(|| {
                        let cause =
                            format!("indirect call to {addr:#x}, which is not the address of a .func");
                        self.fault(n, warp, 1 << lane, inst, cause)
                    })?;
                    match groups[..len].iter_mut().find(|(g, _)| *g == f) {
                        Some(g) => g.1 |= 1 << lane,
                        None => {
                            groups[len] = (f, 1 << lane);
                            len += 1;
                        }
                    }
                }
                if len == 1 {
                    groups[0].0
                } else {
                    // Each target's lanes run the call in turn and meet after it.
                    let mut paths = [(0u32, 0u32); 33];
                    paths[0] = (pc + 1, mask & !active);
                    for (p, &(_, m)) in paths[1..].iter_mut().zip(&groups[..len]) {
                        *p = (pc, m);
                    }
                    return Ok(warp.groups.split(leaf, &paths[..=len], pc + 1));
                }
            }
        };
        let f = &self.program.funcs[callee as usize];
        if let Some((params, rets)) = &call.proto
            && !(f.params.iter().map(|p| p.2).eq(params.iter().copied())
                && f.rets.iter().map(|p| p.2).eq(rets.iter().copied()))
        {
            let has: Vec<u32> = f.params.iter().map(|p| p.2).collect();
            let gives: Vec<u32> = f.rets.iter().map(|p| p.2).collect();
            let cause = format!(
                "indirect call to `{}`, whose parameters {has:?} and returns {gives:?} (bytes) do not match \
                 the prototype's {params:?} and {rets:?}",
                f.name
            );
            return Err(self.fault(n, warp, active, inst, cause));
        }
        // Frames start 16-byte aligned, so a variable's alignment in its frame holds
        // in local memory too (`.align` above 16 in a frame is not supported).
        let base = warp.top.div_ceil(FRAME_ALIGN) * FRAME_ALIGN;
        let top = u64::from(base) + u64::from(f.frame_bytes);
        let depth = warp.frames[warp.frame as usize].depth;
        if depth >= MAX_CALL_DEPTH || top > u64::from(MAX_LOCAL_BYTES) {
            let cause = format!(
                "call stack overflow: {} nested calls, {top} bytes of local memory per thread",
                depth + 1
            );
            return Err(self.fault(n, warp, active, inst, cause));
        }
        let top = top as u32;
        for lane in lanes(active) {
            let l = lane as usize;
            let stack = &mut warp.local[l];
            stack.resize(stack.len().max(top as usize), 0);
            stack[base as usize..top as usize].fill(0);
            for (arg, &(_, offset, size)) in call.args.iter().zip(&f.params) {
                let at = (base + offset) as usize;
                match *arg {
                    CallValue::Frame { offset: from, size: s } => {
                        let from = (warp.base + from) as usize;
                        let k = s.min(size) as usize;
                        warp.local[l].copy_within(from..from + k, at);
                    }
                    CallValue::Reg(src, _) => {
                        let v = super::lane::read(warp, src, l);
                        set_frame_value(&mut warp.local[l], base + offset, size, v);
                    }
                    CallValue::Sink => {}
                }
            }
        }
        let frame = warp.push_frame(self.program, callee, base, pc, active);
        // Parameters declared `.reg` start in the callee's registers.
        for p in &f.reg_params {
            for lane in lanes(active) {
                let l = lane as usize;
                let v = frame_value(&warp.local[l], base + p.offset, p.size);
                super::lane::write_regs(warp.regs_of(frame), p.reg, l, v);
            }
        }
        warp.groups.call(leaf, pc + 1, f.entry, active, frame);
        Ok(false)
    }

    /// The function at a function address, if it is one (kernels cannot be called).
    fn function_at(&self, addr: u64) -> Option<u32> {
        self.program.func_at(addr).filter(|(_, f)| !f.kernel).map(|(k, _)| k)
    }

    /// `ret` by `lanes` of the running frame: copy their return values to the
    /// caller's variables and registers.
    fn return_values(&self, warp: &mut Warp, returning: u32) {
        let fr = &warp.frames[warp.frame as usize];
        let (caller, call_pc) = (fr.parent, fr.call_pc);
        let callee = &self.program.funcs[warp.func as usize];
        let Op::Call(call) = &self.program.insts[call_pc as usize].op else { return };
        let callee_base = warp.base;
        // Returns declared `.reg` go to the frame first, where the copy below finds them.
        for r in &callee.reg_rets {
            for lane in lanes(returning) {
                let l = lane as usize;
                let v = super::lane::read(warp, Src::Reg(r.reg), l);
                set_frame_value(&mut warp.local[l], callee_base + r.offset, r.size, v);
            }
        }
        let caller_base = warp.frames[caller as usize].base;
        for (ret, &(_, offset, size)) in call.rets.iter().zip(&callee.rets) {
            for lane in lanes(returning) {
                let l = lane as usize;
                let from = (callee_base + offset) as usize;
                match *ret {
                    CallValue::Frame { offset: to, size: s } => {
                        let k = s.min(size) as usize;
                        let to = (caller_base + to) as usize;
                        warp.local[l].copy_within(from..from + k, to);
                    }
                    CallValue::Reg(Src::Reg(slot), _) => {
                        let v = frame_value(&warp.local[l], callee_base + offset, size);
                        super::lane::write_regs(warp.regs_of(caller), slot, l, v);
                    }
                    _ => {}
                }
            }
        }
    }

    /// Marks group `leaf`'s `lanes` as waiting with `wait` at its pc; the group's
    /// other lanes (whose guard is false) go on to `pc + 1` as a group of their own.
    /// Returns the waiting group.
    pub(super) fn park(warp: &mut Warp, leaf: u32, pc: u32, mask: u32, lanes: u32, wait: Wait) -> u32 {
        let g =
            if lanes == mask { leaf } else { warp.groups.fork(leaf, (pc + 1, mask & !lanes), (pc, lanes)) };
        warp.groups.node_mut(g).wait = wait;
        g
    }
}

/// The `size`-byte little-endian value at `at` in a lane's local memory (at most 8
/// bytes: a register's worth).
pub(super) fn frame_value(local: &[u8], at: u32, size: u32) -> u64 {
    let mut bytes = [0u8; 8];
    let (at, k) = (at as usize, (size as usize).min(8));
    bytes[..k].copy_from_slice(&local[at..at + k]);
    u64::from_le_bytes(bytes)
}

/// Writes the low `size` bytes (at most 8) of `v`, little-endian, at `at` in a lane's
/// local memory.
pub(super) fn set_frame_value(local: &mut [u8], at: u32, size: u32, v: u64) {
    let (at, k) = (at as usize, (size as usize).min(8));
    local[at..at + k].copy_from_slice(&v.to_le_bytes()[..k]);
}

pub(super) fn pred_mask(w: &Warp, src: PredSrc) -> u32 {
    match src {
        PredSrc::Const(v) => {
            if v {
                u32::MAX
            } else {
                0
            }
        }
        PredSrc::Reg(p) => guard_mask(w, Some(p)),
    }
}

pub(super) fn guard_mask(w: &Warp, guard: Option<Pred>) -> u32 {
    match guard {
        None => u32::MAX,
        Some(p) => {
            let m = w.regs.pred[p.row as usize];
            if p.negated { !m } else { m }
        }
    }
}
