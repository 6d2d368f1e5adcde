//! Running a decoded kernel, one CTA at a time and one warp instruction at a time
//! (DESIGN.md, principle 2): registers live per warp in rows of 32 lanes, a guard is a
//! lane mask, and the SIMT stack decides which lanes run.

use super::memory::{GlobalMemory, MemFault};
use super::simt::{NEVER, SimtStack};
use super::threads::{Shape, WARP_SIZE};
use crate::launch::Dim3;
use crate::lower::flow::EXIT;
use crate::lower::program::{
    CmpKind, CvtKind, Inst, IntOp, Kernel, Op, Pred, PredOp, PredSrc, Special, Src, VoteMode,
};
use crate::lower::regs::{RegFile, Slot};
use crate::sem::{compare, convert, float, int, select};
use crate::syntax::Span;

/// Why a launch stopped: the cause, and the thread and instruction that met it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub cause: String,
    pub ctaid: Dim3,
    pub tid: Dim3,
    pub span: Span,
}

/// One warp's registers and SIMT stack.
struct Warp {
    index: u32,
    r32: Vec<[u32; 32]>,
    r64: Vec<[u64; 32]>,
    pred: Vec<u32>,
    stack: SimtStack,
    /// Waiting at `bar.sync` for the rest of the CTA.
    at_barrier: bool,
}

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
    pub kernel: &'a Kernel,
    pub shape: Shape,
    pub params: &'a [u8],
    pub memory: &'a GlobalMemory,
}

impl Cta<'_> {
    /// Runs CTA number `n` (launch order) to completion, counting executed warp
    /// instructions against `budget`.
    ///
    /// # Errors
    /// The first [`Fault`] met.
    pub fn run(&self, n: u64, budget: &Budget) -> Result<(), Fault> {
        let budget = &mut Steps { budget, local: 0 };
        let (r32, r64, pred) = self.kernel.rows;
        let mut warps: Vec<Warp> = (0..self.shape.warps_per_cta())
            .map(|w| Warp {
                index: w,
                r32: vec![[0; 32]; r32 as usize],
                r64: vec![[0; 32]; r64 as usize],
                pred: vec![0; pred as usize],
                stack: SimtStack::new(0, self.shape.warp_mask(w)),
                at_barrier: false,
            })
            .collect();
        let mut shared = vec![0u8; self.kernel.shared_bytes as usize];
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
            let Some(inst) = self.kernel.insts.get(pc as usize) else {
                // Falling off the end of the kernel returns.
                warp.stack.exit_lanes(top.mask);
                continue;
            };
            if !budget.step() {
                let cause = "instruction budget exhausted (raise it with --max-steps)".to_string();
                return Err(self.fault(n, warp, top.mask, inst, cause));
            }
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
        }
        Ok(())
    }

    fn fault(&self, n: u64, warp: &Warp, mask: u32, inst: &Inst, cause: String) -> Fault {
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
        match &inst.op {
            Op::Bra { target, reconverge } => {
                let rpc = if *reconverge == EXIT { NEVER } else { *reconverge };
                warp.stack.split(&[(pc + 1, mask & !active), (*target, active)], rpc);
                return Ok(());
            }
            Op::Brx { index, targets, reconverge } => {
                // Lanes are grouped by target, in target-list order.
                let mut groups: Vec<(u32, u32)> = vec![(pc + 1, mask & !active)];
                for lane in (0..WARP_SIZE).filter(|l| active >> l & 1 == 1) {
                    let k = read(warp, *index, lane as usize) & 0xffff_ffff;
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
                let rpc = if *reconverge == EXIT { NEVER } else { *reconverge };
                warp.stack.split(&groups, rpc);
                return Ok(());
            }
            Op::Activemask { dst } => {
                for lane in (0..WARP_SIZE).filter(|l| active >> l & 1 == 1) {
                    write(warp, *dst, lane as usize, u64::from(active));
                }
                warp.stack.goto(pc + 1);
                return Ok(());
            }
            Op::Vote { mode, dst, pred, members } => {
                if active != 0 {
                    let first = active.trailing_zeros() as usize;
                    let members = read(warp, *members, first) as u32;
                    if members & !active != 0 {
                        // Under the SIMT stack a member parked on another path has not
                        // arrived; ptxvm does not yet run that path first (DESIGN.md).
                        let cause = format!(
                            "vote.sync: member lanes {:#010x} are not executing it here",
                            members & !active
                        );
                        return Err(self.fault(n, warp, active, inst, cause));
                    }
                    let votes = pred_mask(warp, *pred) & members;
                    for lane in (0..WARP_SIZE).filter(|l| active >> l & 1 == 1) {
                        let v = match mode {
                            VoteMode::Ballot => u64::from(votes),
                            VoteMode::All => u64::from(votes == members),
                            VoteMode::Any => u64::from(votes != 0),
                            VoteMode::Uni => u64::from(votes == 0 || votes == members),
                        };
                        write(warp, *dst, lane as usize, v);
                    }
                }
                warp.stack.goto(pc + 1);
                return Ok(());
            }
            Op::Trap => {
                if active != 0 {
                    return Err(self.fault(n, warp, active, inst, "trap".into()));
                }
                warp.stack.goto(pc + 1);
                return Ok(());
            }
            Op::Exit => {
                warp.stack.exit_lanes(active);
                if mask & !active != 0 {
                    warp.stack.goto(pc + 1);
                }
                return Ok(());
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
                let row = &mut warp.pred[*dst as usize];
                *row = (*row & !active) | (r & active);
                warp.stack.goto(pc + 1);
                return Ok(());
            }
            _ => {}
        }
        for lane in (0..WARP_SIZE).filter(|l| active >> l & 1 == 1) {
            self.lane(n, warp, shared, inst, lane)
                .map_err(|cause| self.fault(n, warp, 1 << lane, inst, cause))?;
        }
        warp.stack.goto(pc + 1);
        Ok(())
    }

    /// Executes a non-branch instruction for one lane.
    fn lane(&self, n: u64, w: &mut Warp, shared: &mut [u8], inst: &Inst, lane: u32) -> Result<(), String> {
        let l = lane as usize;
        let mem = |e: MemFault| e.to_string();
        match &inst.op {
            Op::Mov { dst, src } => {
                let v = read(w, *src, l);
                write(w, *dst, l, v);
            }
            Op::MovSpecial { dst, sreg } => {
                let pick = |d: Dim3, axis: u8| u64::from([d.x, d.y, d.z][axis as usize]);
                let v = match sreg {
                    Special::Tid(a) => pick(self.shape.tid(w.index, lane), *a),
                    Special::Ntid(a) => pick(self.shape.block, *a),
                    Special::Ctaid(a) => pick(self.shape.ctaid(n), *a),
                    Special::Nctaid(a) => pick(self.shape.grid, *a),
                    Special::Laneid => u64::from(lane),
                    Special::Warpid => u64::from(w.index),
                    Special::Nwarpid => u64::from(self.shape.warps_per_cta()),
                };
                write(w, *dst, l, v);
            }
            Op::LdParam { dst, offset, size, signed } => {
                let (o, s) = (*offset as usize, *size as usize);
                let bytes = self.params.get(o..o + s).ok_or("parameter read outside the parameter buffer")?;
                let mut b = [0u8; 8];
                b[..s].copy_from_slice(bytes);
                write(w, *dst, l, extend(u64::from_le_bytes(b), s, *signed));
            }
            Op::Ld { dst, addr, offset, size, signed } => {
                let a = read(w, *addr, l).wrapping_add(*offset as u64);
                let v = self.memory.load(a, u64::from(*size)).map_err(mem)?;
                write(w, *dst, l, extend(v, *size as usize, *signed));
            }
            Op::St { addr, offset, src, size } => {
                let a = read(w, *addr, l).wrapping_add(*offset as u64);
                self.memory.store(a, u64::from(*size), read(w, *src, l)).map_err(mem)?;
            }
            Op::Int { op, width, signed, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let v = match op {
                    IntOp::Add => int::add(*width, x, y),
                    IntOp::Sub => int::sub(*width, x, y),
                    IntOp::Min => int::min(*width, *signed, x, y),
                    IntOp::Max => int::max(*width, *signed, x, y),
                    IntOp::And => x & y,
                    IntOp::Or => x | y,
                    IntOp::Xor => x ^ y,
                    IntOp::Shl => int::shl(*width, x, y.min(u64::from(u32::MAX)) as u32),
                    IntOp::Shr => int::shr(*width, *signed, x, y.min(u64::from(u32::MAX)) as u32),
                    IntOp::Div => int::div(*width, *signed, x, y).ok_or("integer division by zero")?,
                    IntOp::Rem => int::rem(*width, *signed, x, y).ok_or("integer remainder by zero")?,
                };
                write(w, *dst, l, v & width.mask());
            }
            Op::Not { width, dst, a } => {
                let v = !read(w, *a, l) & width.mask();
                write(w, *dst, l, v);
            }
            Op::Mul { part, width, signed, dst, a, b } => {
                let v = int::mul(*width, *part, *signed, read(w, *a, l), read(w, *b, l));
                write(w, *dst, l, v);
            }
            Op::Mad { part, width, signed, dst, a, b, c } => {
                let v = int::mad(*width, *part, *signed, read(w, *a, l), read(w, *b, l), read(w, *c, l));
                write(w, *dst, l, v);
            }
            Op::Float { op, f64, ftz, sat, dst, a, b } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let v = if *f64 {
                    float::f64_binary(*op, x, y)
                } else {
                    u64::from(float::f32_binary(*op, x as u32, y as u32, *ftz, *sat))
                };
                write(w, *dst, l, v);
            }
            Op::Fma { f64, ftz, sat, dst, a, b, c } => {
                let (x, y, z) = (read(w, *a, l), read(w, *b, l), read(w, *c, l));
                let v = if *f64 {
                    float::f64_fma(x, y, z)
                } else {
                    u64::from(float::f32_fma(x as u32, y as u32, z as u32, *ftz, *sat))
                };
                write(w, *dst, l, v);
            }
            Op::Setp { kind, op, p, q, a, b, combine } => {
                let (x, y) = (read(w, *a, l), read(w, *b, l));
                let c = combine.map(|(bop, c)| (bop, pred_bit(w, c, lane)));
                let (pv, qv) = match kind {
                    // Packed halves: p = BoolOp(t_low, c), q = BoolOp(t_high, c) (ISA 9.7.7.2).
                    CmpKind::F16x2 { ftz } => {
                        let (lo, hi) = compare::cmp_f16x2(*op, x as u32, y as u32, *ftz);
                        (select::setp(lo, c).0, select::setp(hi, c).0)
                    }
                    CmpKind::BF16x2 => {
                        let (lo, hi) = compare::cmp_bf16x2(*op, x as u32, y as u32);
                        (select::setp(lo, c).0, select::setp(hi, c).0)
                    }
                    _ => select::setp(compare_values(*kind, *op, x, y), c),
                };
                for (row, v) in [(p, pv), (q, qv)] {
                    if let Some(row) = row {
                        let bit = 1u32 << lane;
                        let r = &mut w.pred[*row as usize];
                        *r = if v { *r | bit } else { *r & !bit };
                    }
                }
            }
            Op::Set { kind, op, float_dtype, dst, a, b, combine } => {
                let t = compare_values(*kind, *op, read(w, *a, l), read(w, *b, l));
                let r = match combine {
                    Some((bop, c)) => bop.apply(t, pred_bit(w, *c, lane)),
                    None => t,
                };
                write(w, *dst, l, u64::from(select::set_value(r, *float_dtype)));
            }
            Op::Slct { f32, ftz, dst, a, b, c } => {
                let (x, y, z) = (read(w, *a, l), read(w, *b, l), read(w, *c, l));
                let v = if *f32 {
                    select::slct_f32(x, y, z as u32, *ftz)
                } else {
                    select::slct_s32(x, y, z as u32 as i32)
                };
                write(w, *dst, l, v);
            }
            Op::LdShared { dst, addr, offset, size, signed } => {
                let a = read(w, *addr, l).wrapping_add(*offset as u64);
                let bytes = shared_range(shared.len(), a, *size)?;
                let mut b = [0u8; 8];
                b[..*size as usize].copy_from_slice(&shared[bytes]);
                write(w, *dst, l, extend(u64::from_le_bytes(b), *size as usize, *signed));
            }
            Op::StShared { addr, offset, src, size } => {
                let a = read(w, *addr, l).wrapping_add(*offset as u64);
                let bytes = shared_range(shared.len(), a, *size)?;
                let v = read(w, *src, l).to_le_bytes();
                shared[bytes].copy_from_slice(&v[..*size as usize]);
            }
            Op::NegAbs { abs, width, dst, a } => {
                let x = read(w, *a, l);
                write(w, *dst, l, if *abs { int::abs(*width, x) } else { int::neg(*width, x) });
            }
            Op::Cvt { kind, dst, src } => {
                let v = read(w, *src, l);
                let out = match *kind {
                    CvtKind::IntInt { dst, src, sat } => convert::int_to_int(dst, src, v, sat),
                    CvtKind::FloatInt { dst, src_f64, round } => {
                        let x = if src_f64 { f64::from_bits(v) } else { f64::from(f32::from_bits(v as u32)) };
                        convert::float_to_int(dst, x, round)
                    }
                    CvtKind::IntFloat { dst_f64: true, src } => convert::int_to_f64(src, v),
                    CvtKind::IntFloat { dst_f64: false, src } => u64::from(convert::int_to_f32(src, v)),
                    CvtKind::F32ToF64 => f64::from(f32::from_bits(v as u32)).to_bits(),
                    CvtKind::F64ToF32 => u64::from((f64::from_bits(v) as f32).to_bits()),
                };
                write(w, *dst, l, out);
            }
            Op::Selp { dst, a, b, c } => {
                let v = select::selp(read(w, *a, l), read(w, *b, l), pred_bit(w, *c, lane));
                write(w, *dst, l, v);
            }
            Op::Activemask { .. }
            | Op::Vote { .. }
            | Op::Bar
            | Op::Nanosleep
            | Op::Bra { .. }
            | Op::Brx { .. }
            | Op::Exit
            | Op::Trap
            | Op::PredLogic { .. } => {}
        }
        Ok(())
    }
}

/// The bytes of a shared-memory access, or why it faults.
fn shared_range(len: usize, addr: u64, size: u8) -> Result<std::ops::Range<usize>, String> {
    let size = u64::from(size);
    if !addr.is_multiple_of(size) {
        return Err(format!("shared address 0x{addr:x} is not aligned to the {size}-byte access"));
    }
    match addr.checked_add(size) {
        Some(end) if end <= len as u64 => Ok(addr as usize..end as usize),
        _ => Err(format!("shared address 0x{addr:x} ({size} bytes) is outside the CTA's {len} bytes")),
    }
}

/// The comparison of two operand values as `kind` reads them.
fn compare_values(kind: CmpKind, op: compare::CmpOp, x: u64, y: u64) -> bool {
    match kind {
        CmpKind::Int { width, signed } => {
            let (x, y) = if signed {
                (width.signed(x) as u64, width.signed(y) as u64)
            } else {
                (x & width.mask(), y & width.mask())
            };
            compare::cmp_int(op, x, y, signed)
        }
        CmpKind::F32 { ftz } => compare::cmp_f32(op, x as u32, y as u32, ftz),
        CmpKind::F64 => compare::cmp_f64(op, x, y),
        CmpKind::F16 { ftz } => compare::cmp_f16(op, x as u16, y as u16, ftz),
        CmpKind::BF16 => compare::cmp_bf16(op, x as u16, y as u16),
        // The packed forms are handled where both results are written.
        CmpKind::F16x2 { ftz } => compare::cmp_f16x2(op, x as u32, y as u32, ftz).0,
        CmpKind::BF16x2 => compare::cmp_bf16x2(op, x as u32, y as u32).0,
    }
}

fn pred_mask(w: &Warp, src: PredSrc) -> u32 {
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

fn guard_mask(w: &Warp, guard: Option<Pred>) -> u32 {
    match guard {
        None => u32::MAX,
        Some(p) => {
            let m = w.pred[p.row as usize];
            if p.negated { !m } else { m }
        }
    }
}

fn pred_bit(w: &Warp, p: Pred, lane: u32) -> bool {
    (w.pred[p.row as usize] >> lane & 1 == 1) != p.negated
}

fn read(w: &Warp, src: Src, lane: usize) -> u64 {
    match src {
        Src::Imm(v) => v,
        Src::Reg(Slot { file: RegFile::R32, index, .. }) => u64::from(w.r32[index as usize][lane]),
        Src::Reg(Slot { file: RegFile::R64, index, .. }) => w.r64[index as usize][lane],
        Src::Reg(Slot { file: RegFile::Pred, index, .. }) => u64::from(w.pred[index as usize] >> lane & 1),
    }
}

fn write(w: &mut Warp, dst: Slot, lane: usize, v: u64) {
    match dst.file {
        RegFile::R32 => w.r32[dst.index as usize][lane] = v as u32,
        RegFile::R64 => w.r64[dst.index as usize][lane] = v,
        RegFile::Pred => {
            let bit = 1u32 << lane;
            let r = &mut w.pred[dst.index as usize];
            *r = if v & 1 == 1 { *r | bit } else { *r & !bit };
        }
    }
}

/// A loaded value of `size` bytes, sign-extended to 64 bits when `signed`.
fn extend(v: u64, size: usize, signed: bool) -> u64 {
    if !signed || size >= 8 {
        return v;
    }
    let shift = 64 - 8 * size as u32;
    (((v << shift) as i64) >> shift) as u64
}
