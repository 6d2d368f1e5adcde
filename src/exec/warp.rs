//! Running a decoded program, one CTA at a time and one warp instruction at a time
//! (DESIGN.md, principle 2): registers live per warp in rows of 32 lanes, a guard is a
//! lane mask, and the SIMT stack decides which lanes run. Instructions that change
//! which lanes run (branches, calls, returns, exits, barriers, votes) are here;
//! everything a lane computes alone is in `lane.rs`.
//!
//! A call saves the caller's registers and gives the callee fresh ones; each lane's
//! local memory is a stack of frames (parameters, returns, `.local` and `.param`
//! variables), the callee's right above the caller's. When the call's frame entry
//! leaves the SIMT stack (every calling lane returned or exited), return values are
//! copied back and the caller's registers restored.

use super::memory::GlobalMemory;
use super::simt::{NEVER, SimtStack};
use super::threads::{Shape, WARP_SIZE};
use crate::launch::Dim3;
use crate::lower::flow::EXIT;
use crate::lower::program::{
    Call, CallValue, Callee, FUNC_STRIDE, FUNC_WINDOW, Inst, Op, Pred, PredOp, PredSrc, Program, VoteMode,
};
use crate::syntax::Span;

/// Why a launch stopped: the cause, and the thread and instruction that met it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub cause: String,
    pub ctaid: Dim3,
    pub tid: Dim3,
    pub span: Span,
}

/// One function activation's registers for the whole warp.
pub(super) struct Regs {
    pub r32: Vec<[u32; 32]>,
    pub r64: Vec<[u64; 32]>,
    pub pred: Vec<u32>,
}

impl Regs {
    fn new((r32, r64, pred): (u32, u32, u32)) -> Regs {
        Regs {
            r32: vec![[0; 32]; r32 as usize],
            r64: vec![[0; 32]; r64 as usize],
            pred: vec![0; pred as usize],
        }
    }
}

/// A caller waiting for its call to return.
struct Saved {
    regs: Regs,
    func: u32,
    base: u32,
    call_pc: u32,
    lanes: u32,
}

/// One warp: its running function's registers and frame, its callers, its SIMT stack.
pub(super) struct Warp {
    pub index: u32,
    pub regs: Regs,
    stack: SimtStack,
    /// Waiting at `bar.sync` for the rest of the CTA.
    at_barrier: bool,
    /// The running function and its frame's offset in each lane's local memory.
    pub func: u32,
    pub base: u32,
    /// Bytes of the running frame's top: local addresses at or past it fault.
    pub top: u32,
    saved: Vec<Saved>,
    /// Each lane's local memory: its stack of frames.
    pub local: Vec<Vec<u8>>,
    /// Virtual time: instructions this warp executed.
    pub clock: u64,
}

/// Deepest call nesting, and most local memory per thread (CUDA's stack limit is
/// settable too; a runaway recursion becomes a fault, not an abort).
const MAX_CALL_DEPTH: usize = 4096;
const MAX_LOCAL_BYTES: u32 = 1 << 20;
const FRAME_ALIGN: u32 = 16;

/// The step budget of a launch, shared by CTAs running on several threads; each
/// takes steps in chunks so they rarely touch the shared counter.
pub struct Budget(std::sync::atomic::AtomicU64);

impl Budget {
    pub fn new(steps: u64) -> Self {
        Budget(std::sync::atomic::AtomicU64::new(steps))
    }

    /// Takes up to `want` steps; 0 when the budget is spent.
    fn take(&self, want: u64) -> u64 {
        use std::sync::atomic::Ordering::Relaxed;
        match self.0.fetch_update(Relaxed, Relaxed, |left| Some(left - left.min(want))) {
            Ok(left) => left.min(want),
            Err(_) => 0,
        }
    }
}

/// One CTA's view of the budget: steps taken from it in chunks.
struct Steps<'b> {
    budget: &'b Budget,
    local: u64,
}

impl Steps<'_> {
    /// Uses one step; false when the launch's budget is spent.
    fn step(&mut self) -> bool {
        if self.local == 0 {
            self.local = self.budget.take(1 << 16);
        }
        if self.local == 0 {
            return false;
        }
        self.local -= 1;
        true
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
}

/// The lanes of `mask`, lowest first.
pub(super) fn lanes(mask: u32) -> impl Iterator<Item = u32> {
    (0..WARP_SIZE).filter(move |l| mask >> l & 1 == 1)
}

impl Cta<'_> {
    /// Runs CTA number `n` (launch order) to completion, counting executed warp
    /// instructions against `budget`.
    ///
    /// # Errors
    /// The first [`Fault`] met.
    pub fn run(&self, n: u64, budget: &Budget) -> Result<(), Fault> {
        let budget = &mut Steps { budget, local: 0 };
        let f = &self.program.funcs[self.kernel as usize];
        let mut warps: Vec<Warp> = (0..self.shape.warps_per_cta())
            .map(|w| Warp {
                index: w,
                regs: Regs::new(f.rows),
                stack: SimtStack::new(f.entry, self.shape.warp_mask(w)),
                at_barrier: false,
                func: self.kernel,
                base: 0,
                top: f.frame_bytes,
                saved: Vec::new(),
                local: vec![vec![0; f.frame_bytes as usize]; WARP_SIZE as usize],
                clock: 0,
            })
            .collect();
        let mut shared = vec![0u8; (self.program.dynamic_shared_at + self.dynamic_shared) as usize];
        loop {
            // Each warp runs until it finishes or waits at a barrier.
            for warp in warps.iter_mut().filter(|w| !w.at_barrier) {
                self.run_warp(n, warp, &mut shared, budget)?;
            }
            // Every warp still running waits at the barrier; exited threads do not
            // count (PTX ISA: barriers stop counting exited threads), so release them.
            let mut waiting = false;
            for warp in warps.iter_mut().filter(|w| w.at_barrier) {
                warp.at_barrier = false;
                let pc = warp.stack.top().map_or(0, |t| t.pc);
                warp.stack.goto(pc + 1);
                waiting = true;
            }
            if !waiting {
                return Ok(());
            }
        }
    }

    /// Runs one warp until it finishes or arrives at a barrier.
    fn run_warp(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        budget: &mut Steps<'_>,
    ) -> Result<(), Fault> {
        while let Some(top) = warp.stack.top() {
            let pc = top.pc;
            let Some(inst) = self.program.insts.get(pc as usize) else {
                // Past the last instruction: only a kernel falling off its end gets here.
                warp.stack.exit_lanes(top.mask);
                continue;
            };
            if !budget.step() {
                let cause = "instruction budget exhausted (raise it with --max-steps)".to_string();
                return Err(self.fault(n, warp, top.mask, inst, cause));
            }
            warp.clock += 1;
            let active = top.mask & guard_mask(warp, inst.guard);
            if let Op::Bar = inst.op
                && active != 0
            {
                // Under the SIMT stack, lanes parked on another path cannot arrive.
                let live = warp.stack.live();
                if active != live {
                    let cause = format!(
                        "barrier that cannot complete: lanes {:#010x} of warp {} wait on another path",
                        live & !active,
                        warp.index
                    );
                    return Err(self.fault(n, warp, active, inst, cause));
                }
                warp.at_barrier = true;
                return Ok(());
            }
            self.step(n, warp, shared, inst, pc, top.mask, active)?;
            while warp.saved.len() > warp.stack.frames() {
                self.leave(warp);
            }
        }
        Ok(())
    }

    pub(super) fn fault(&self, n: u64, warp: &Warp, mask: u32, inst: &Inst, cause: String) -> Fault {
        let lane = mask.trailing_zeros().min(WARP_SIZE - 1);
        Fault { cause, ctaid: self.shape.ctaid(n), tid: self.shape.tid(warp.index, lane), span: inst.span }
    }

    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &mut [u8],
        inst: &Inst,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<(), Fault> {
        let rpc = |r: u32| if r == EXIT { NEVER } else { r };
        match &inst.op {
            Op::Bra { target, reconverge, uni } => {
                if *uni && active != 0 && active != mask {
                    let cause = format!(
                        "bra.uni is not uniform: lanes {active:#010x} take it, lanes {:#010x} do not",
                        mask & !active
                    );
                    return Err(self.fault(n, warp, mask & !active, inst, cause));
                }
                warp.stack.split(&[(pc + 1, mask & !active), (*target, active)], rpc(*reconverge));
            }
            Op::Brx { index, targets, reconverge } => {
                // Lanes are grouped by target, in target-list order.
                let mut groups: Vec<(u32, u32)> = vec![(pc + 1, mask & !active)];
                for lane in lanes(active) {
                    let k = super::lane::read(warp, *index, lane as usize) & 0xffff_ffff;
                    let Some(&t) = targets.get(k as usize) else {
                        let cause =
                            format!("brx.idx index {k} is past the {} targets of its list", targets.len());
                        return Err(self.fault(n, warp, 1 << lane, inst, cause));
                    };
                    match groups.iter_mut().find(|(pc, _)| *pc == t) {
                        Some(g) => g.1 |= 1 << lane,
                        None => groups.push((t, 1 << lane)),
                    }
                }
                warp.stack.split(&groups, rpc(*reconverge));
            }
            Op::Call(call) => self.call(n, warp, inst, call, pc, mask, active)?,
            Op::Ret => {
                warp.stack.ret(active);
                if mask & !active != 0 {
                    warp.stack.goto(pc + 1);
                }
            }
            Op::Exit => {
                warp.stack.exit_lanes(active);
                if mask & !active != 0 {
                    warp.stack.goto(pc + 1);
                }
            }
            Op::Trap if active != 0 => return Err(self.fault(n, warp, active, inst, "trap".into())),
            Op::Activemask { dst } => {
                for lane in lanes(active) {
                    super::lane::write(warp, *dst, lane as usize, u64::from(active));
                }
                warp.stack.goto(pc + 1);
            }
            Op::Vote { mode, dst, pred, members } => {
                if active != 0 {
                    let first = active.trailing_zeros() as usize;
                    let members = super::lane::read(warp, *members, first) as u32;
                    if members & !active != 0 {
                        // Under the SIMT stack a member parked on another path has not
                        // arrived; ptxvm does not run that path first (DESIGN.md).
                        let cause = format!(
                            "vote.sync: member lanes {:#010x} are not executing it here",
                            members & !active
                        );
                        return Err(self.fault(n, warp, active, inst, cause));
                    }
                    let votes = pred_mask(warp, *pred) & members;
                    let v = match mode {
                        VoteMode::Ballot => u64::from(votes),
                        VoteMode::All => u64::from(votes == members),
                        VoteMode::Any => u64::from(votes != 0),
                        VoteMode::Uni => u64::from(votes == 0 || votes == members),
                    };
                    for lane in lanes(active) {
                        super::lane::write(warp, *dst, lane as usize, v);
                    }
                }
                warp.stack.goto(pc + 1);
            }
            Op::Shfl { .. } | Op::Match { .. } | Op::Redux { .. } => {
                let live = warp.stack.live();
                self.collective(warp, &inst.op, active, live)
                    .map_err(|(lanes, cause)| self.fault(n, warp, lanes, inst, cause))?;
                warp.stack.goto(pc + 1);
            }
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
                warp.stack.goto(pc + 1);
            }
            _ => {
                for lane in lanes(active) {
                    self.lane(n, warp, shared, inst, lane)
                        .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
                }
                warp.stack.goto(pc + 1);
            }
        }
        Ok(())
    }

    /// `call`: direct, or indirect with lanes split by target (PTX ISA 9.7.12.9).
    #[allow(clippy::too_many_arguments)]
    fn call(
        &self,
        n: u64,
        warp: &mut Warp,
        inst: &Inst,
        call: &Call,
        pc: u32,
        mask: u32,
        active: u32,
    ) -> Result<(), Fault> {
        if active == 0 {
            warp.stack.goto(pc + 1);
            return Ok(());
        }
        let callee = match call.callee {
            Callee::Direct(f) => f,
            Callee::Indirect(src) => {
                let mut groups: Vec<(u32, u32)> = Vec::new();
                for lane in lanes(active) {
                    let addr = super::lane::read(warp, src, lane as usize);
                    let f = self.function_at(addr).ok_or_else(|| {
                        let cause =
                            format!("indirect call to {addr:#x}, which is not the address of a .func");
                        self.fault(n, warp, 1 << lane, inst, cause)
                    })?;
                    match groups.iter_mut().find(|(g, _)| *g == f) {
                        Some(g) => g.1 |= 1 << lane,
                        None => groups.push((f, 1 << lane)),
                    }
                }
                if let [(f, _)] = groups[..] {
                    f
                } else {
                    // Each target's lanes run the call in turn and meet after it.
                    let mut paths = vec![(pc + 1, mask & !active)];
                    paths.extend(groups.iter().map(|&(_, m)| (pc, m)));
                    warp.stack.split(&paths, pc + 1);
                    return Ok(());
                }
            }
        };
        let f = &self.program.funcs[callee as usize];
        if let Some((params, rets)) = &call.proto {
            let has: Vec<u32> = f.params.iter().map(|p| p.2).collect();
            let gives: Vec<u32> = f.rets.iter().map(|p| p.2).collect();
            if &has != params || &gives != rets {
                let cause = format!(
                    "indirect call to `{}`, whose parameters {has:?} and returns {gives:?} (bytes) do not match \
                     the prototype's {params:?} and {rets:?}",
                    f.name
                );
                return Err(self.fault(n, warp, active, inst, cause));
            }
        }
        // Frames start 16-byte aligned, so a variable's alignment in its frame holds
        // in local memory too (`.align` above 16 in a frame is not supported).
        let base = warp.top.div_ceil(FRAME_ALIGN) * FRAME_ALIGN;
        let top = u64::from(base) + u64::from(f.frame_bytes);
        if warp.saved.len() >= MAX_CALL_DEPTH || top > u64::from(MAX_LOCAL_BYTES) {
            let cause = format!(
                "call stack overflow: {} nested calls, {top} bytes of local memory per thread",
                warp.saved.len() + 1
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
                        let bytes = super::lane::read(warp, src, l).to_le_bytes();
                        let k = (size as usize).min(8);
                        warp.local[l][at..at + k].copy_from_slice(&bytes[..k]);
                    }
                    CallValue::Sink => {}
                }
            }
        }
        let regs = std::mem::replace(&mut warp.regs, Regs::new(f.rows));
        warp.saved.push(Saved { regs, func: warp.func, base: warp.base, call_pc: pc, lanes: active });
        warp.func = callee;
        warp.base = base;
        warp.top = top;
        warp.stack.call(pc + 1, f.entry, active);
        Ok(())
    }

    /// The function at a function address, if it is one (kernels cannot be called).
    fn function_at(&self, addr: u64) -> Option<u32> {
        let k = addr.checked_sub(FUNC_WINDOW)?;
        if !k.is_multiple_of(FUNC_STRIDE) {
            return None;
        }
        let k = u32::try_from(k / FUNC_STRIDE).ok()?;
        let f = self.program.funcs.get(k as usize)?;
        (!f.kernel).then_some(k)
    }

    /// The innermost call is over: copy its return values to the caller's variables
    /// and registers, for the lanes that returned, and restore the caller.
    fn leave(&self, warp: &mut Warp) {
        let Some(saved) = warp.saved.pop() else { return };
        let callee = &self.program.funcs[warp.func as usize];
        let callee_base = warp.base;
        warp.regs = saved.regs;
        warp.func = saved.func;
        warp.base = saved.base;
        warp.top = saved.base + self.program.funcs[saved.func as usize].frame_bytes;
        let Op::Call(call) = &self.program.insts[saved.call_pc as usize].op else { return };
        let returned = warp.stack.live() & saved.lanes;
        for (ret, &(_, offset, size)) in call.rets.iter().zip(&callee.rets) {
            for lane in lanes(returned) {
                let l = lane as usize;
                let from = (callee_base + offset) as usize;
                match *ret {
                    CallValue::Frame { offset: to, size: s } => {
                        let k = s.min(size) as usize;
                        let to = (warp.base + to) as usize;
                        warp.local[l].copy_within(from..from + k, to);
                    }
                    CallValue::Reg(crate::lower::program::Src::Reg(slot), _) => {
                        let mut bytes = [0u8; 8];
                        let k = (size as usize).min(8);
                        bytes[..k].copy_from_slice(&warp.local[l][from..from + k]);
                        super::lane::write(warp, slot, l, u64::from_le_bytes(bytes));
                    }
                    _ => {}
                }
            }
        }
    }
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
