//! The reference: runs a structured [`Program`] directly, never its PTX, with the
//! integer semantics written here from the PTX ISA text and the synchronisation
//! semantics of DESIGN.md ("SIMT model").
//!
//! Registers are per thread, so each thread runs on its own through the program
//! (flattened to steps and jumps, [`Code`]) until it reaches a point where it meets
//! other threads: a barrier, a warp-synchronous instruction, or a vote over the active
//! mask. When every thread of the block waits at such a point or has ended, the points
//! whose threads are all there are resolved, and the threads go on:
//!
//! - A barrier completes when every non-exited thread of the CTA waits at one (not
//!   necessarily the same instruction; exited threads do not count). Barriers split the
//!   run into phases. Shared-memory stores and loads act at once: `finalize` keeps the
//!   program free of races (a load of another thread's word in the phase that thread
//!   stores it), and the reference checks that it is.
//! - A warp-synchronous instruction with member mask `m` completes when every
//!   non-exited lane of `m` waits at one with the same mask (they must then have the same
//!   kind and qualifiers, else the program is invalid). Each lane's result combines the
//!   operands of those lanes, each read from its own instruction.
//! - A vote over the active mask is executed by the lanes of the warp at the same
//!   dynamic instance (the statement, in the same iteration of each enclosing loop): the
//!   lanes the SIMT model reconverges there (`finalize` keeps such votes only where that
//!   holds). Once nothing else can move, the first instance in the order a lockstep walk
//!   of the tree executes them (a `then` side before its `else` side, a loop iteration
//!   by iteration) goes first, so lanes that reach it later are not left out.

use super::program::*;
use std::cmp::Ordering;

/// One thread's words in the output buffer: 8 registers, status, predicate bits.
pub const OUT_WORDS: usize = 10;
/// Status of a thread that reached the end of the kernel; `2 + id` for exit `id`.
pub const DONE: u32 = 1;

/// A launch's grid and block sizes (x, y, z).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub grid: [u32; 3],
    pub block: [u32; 3],
}

impl Shape {
    pub fn threads(self) -> u32 {
        self.block.iter().product()
    }

    pub fn ctas(self) -> u32 {
        self.grid.iter().product()
    }

    /// The coordinates of linear index `i` in a box of `dims` (x fastest).
    pub fn coords(dims: [u32; 3], i: u32) -> [u32; 3] {
        [i % dims[0], i / dims[0] % dims[1], i / (dims[0] * dims[1])]
    }
}

/// A loop's trip count as a thread computes it on entry.
#[derive(Clone, Copy)]
enum Count {
    Lanes {
        reg: u8,
        mask: u32,
    },
    Uniform(u32),
    /// The rest of `total` after the trips of loop `main` (at least one when `do_while`).
    Rest {
        main: usize,
        total: u32,
        do_while: bool,
    },
}

/// The program flattened: what a thread does at each step.
enum Step<'p> {
    /// An instruction that only touches this thread.
    Do(&'p Stmt),
    Jump(usize),
    /// Goes to the target unless the predicate holds.
    Unless(PredRef, usize),
    /// Goes to the target unless the last tile condition holds.
    UnlessTile(usize),
    LoopInit {
        slot: usize,
        count: Count,
    },
    /// A `while` loop's test: leaves when the trips are done.
    LoopTest {
        slot: usize,
        exit: usize,
    },
    /// Counts an iteration; goes back to `top` (a `do while` only while trips remain).
    LoopNext {
        slot: usize,
        top: usize,
        do_while: bool,
    },
    Exit {
        guard: Guard,
        id: u32,
    },
    Store {
        src: u8,
        region: u32,
    },
    Load {
        dst: u8,
        shift: u32,
        region: u32,
    },
    /// Waits.
    Barrier,
    /// Waits.
    Warp {
        op: WarpOp,
        width: u32,
    },
    /// Waits: `redux.sync.xor.b32` of `r[reg]` over the tile, whose bit `bit` is the
    /// condition of a [`Stmt::TileIf`].
    TileCond {
        width: u32,
        reg: u8,
        bit: u8,
    },
    /// Waits: an active-mask vote; `loops` are the slots of the enclosing loops, outer first.
    Vote {
        stmt: &'p Stmt,
        loops: Vec<usize>,
    },
    End,
}

struct Code<'p> {
    steps: Vec<Step<'p>>,
    /// Loops (each has a slot for its trip count and iteration).
    slots: usize,
}

impl<'p> Code<'p> {
    fn new(p: &'p Program) -> Self {
        let mut code = Code { steps: Vec::new(), slots: 0 };
        let mut loops = Vec::new();
        code.block(&p.pred_init, &mut loops);
        code.block(&p.body, &mut loops);
        code.steps.push(Step::End);
        code
    }

    fn block(&mut self, stmts: &'p [Stmt], loops: &mut Vec<usize>) {
        for s in stmts {
            self.stmt(s, loops);
        }
    }

    /// `test(else)`, the `then` side, a jump to the end, the `else` side.
    fn branch(
        &mut self,
        test: impl Fn(usize) -> Step<'p>,
        then: &'p [Stmt],
        els: &'p [Stmt],
        loops: &mut Vec<usize>,
    ) {
        let at = self.steps.len();
        self.steps.push(Step::End);
        self.block(then, loops);
        let jump = self.steps.len();
        self.steps.push(Step::End);
        self.steps[at] = test(self.steps.len());
        self.block(els, loops);
        self.steps[jump] = Step::Jump(self.steps.len());
    }

    /// A `while` loop (or `do while`) around `body` with trips `count`; its slot.
    fn looped(&mut self, count: Count, do_while: bool, body: &'p [Stmt], loops: &mut Vec<usize>) -> usize {
        let slot = self.slots;
        self.slots += 1;
        self.steps.push(Step::LoopInit { slot, count });
        let top = self.steps.len();
        loops.push(slot);
        if do_while {
            self.block(body, loops);
            self.steps.push(Step::LoopNext { slot, top, do_while });
        } else {
            self.steps.push(Step::End);
            self.block(body, loops);
            self.steps.push(Step::LoopNext { slot, top, do_while });
            self.steps[top] = Step::LoopTest { slot, exit: self.steps.len() };
        }
        loops.pop();
        slot
    }

    fn stmt(&mut self, s: &'p Stmt, loops: &mut Vec<usize>) {
        match s {
            Stmt::If { cond, then, els } => self.branch(|to| Step::Unless(*cond, to), then, els, loops),
            Stmt::TileIf { width, reg, bit, then, els } => {
                self.steps.push(Step::TileCond { width: *width, reg: *reg, bit: *bit });
                self.branch(Step::UnlessTile, then, els, loops);
            }
            Stmt::Loop { trips, do_while, body, pad } => {
                let count = match *trips {
                    Trips::Lanes { reg, mask } => Count::Lanes { reg, mask },
                    Trips::Uniform(n) => Count::Uniform(n),
                };
                let main = self.looped(count, *do_while, body, loops);
                if let (Trips::Lanes { mask, .. }, false) = (trips, pad.is_empty()) {
                    let total = if *do_while { (*mask).max(1) } else { *mask };
                    let rest = Count::Rest { main, total, do_while: *do_while };
                    self.looped(rest, false, pad, loops);
                }
            }
            Stmt::Exit { guard, id } => self.steps.push(Step::Exit { guard: *guard, id: *id }),
            Stmt::Ballot { .. } | Stmt::Vote { .. } | Stmt::Activemask { .. } => {
                self.steps.push(Step::Vote { stmt: s, loops: loops.clone() });
            }
            Stmt::Bar { .. } => unreachable!("finalize writes Bar out"),
            Stmt::Barrier { .. } => self.steps.push(Step::Barrier),
            Stmt::WarpSync { op, width } => self.steps.push(Step::Warp { op: *op, width: *width }),
            Stmt::StShared { src, region } => self.steps.push(Step::Store { src: *src, region: *region }),
            Stmt::LdShared { dst, shift, region, .. } => {
                self.steps.push(Step::Load { dst: *dst, shift: *shift, region: *region });
            }
            simple => self.steps.push(Step::Do(simple)),
        }
    }
}

#[derive(Clone)]
struct Thread {
    r: [u32; NREG as usize],
    p: [bool; NPRED as usize],
    /// Neither exited nor at the end.
    live: bool,
    pc: usize,
    /// At a step that waits for other threads.
    waiting: bool,
    /// The condition of the tile branch being entered.
    tile: bool,
    trips: Vec<u32>,
    iter: Vec<u32>,
}

struct Cta<'a, 'p> {
    code: &'a Code<'p>,
    threads: Vec<Thread>,
    n: u32,
    shared: Vec<u32>,
    /// Per shared word: the phase of its last store, and the last phase in which a thread
    /// other than its owner loaded it.
    stored: Vec<u32>,
    loaded: Vec<u32>,
    /// Barriers completed.
    phase: u32,
    /// This block's part of the output buffer.
    out: &'a mut [u32],
}

/// The expected output buffer of a launch: `OUT_WORDS` words per thread, zero for
/// words a thread never stores.
pub fn expected(p: &Program, shape: Shape, input: &[u32]) -> Vec<u32> {
    let n = shape.threads();
    let code = Code::new(p);
    let mut out = vec![0u32; (shape.ctas() * n) as usize * OUT_WORDS];
    let words = (REGIONS * MAX_THREADS) as usize;
    for (cta, chunk) in out.chunks_mut(n as usize * OUT_WORDS).enumerate() {
        let ctaid = Shape::coords(shape.grid, cta as u32);
        let threads = (0..n)
            .map(|linear| {
                let tid = Shape::coords(shape.block, linear);
                let gtid = cta as u32 * n + linear;
                let mut t = Thread {
                    r: [0; NREG as usize],
                    p: [false; NPRED as usize],
                    live: true,
                    pc: 0,
                    waiting: false,
                    tile: false,
                    trips: vec![0; code.slots],
                    iter: vec![0; code.slots],
                };
                for (k, init) in p.init.iter().enumerate() {
                    t.r[k] = match *init {
                        Init::Input => input[gtid as usize * NREG as usize + k],
                        Init::TidX => tid[0],
                        Init::TidY => tid[1],
                        Init::TidZ => tid[2],
                        Init::Linear => linear,
                        Init::Lane => linear % 32,
                        Init::CtaX => ctaid[0],
                        Init::CtaY => ctaid[1],
                        Init::Gtid => gtid,
                        Init::Imm(v) => v,
                    };
                }
                t
            })
            .collect();
        let mut c = Cta {
            code: &code,
            threads,
            n,
            shared: vec![0; words],
            stored: vec![u32::MAX; words],
            loaded: vec![u32::MAX; words],
            phase: 0,
            out: chunk,
        };
        c.run();
    }
    out
}

/// `b` as the divisor of `div`/`rem`: odd, so never 0 (the ISA leaves division by zero
/// machine-specific), and for `.s32` non-negative, so never -1 (the most negative value
/// divided by -1 overflows). `emit.rs` writes the same steps.
pub fn safe_divisor(ty: Ty, b: u32) -> u32 {
    match ty {
        Ty::S32 => (b | 1) & 0x7fff_ffff,
        _ => b | 1,
    }
}

/// Integer instructions of two sources (ISA 9.7.1 and 9.7.8).
pub fn bin(op: BinOp, ty: Ty, a: u32, b: u32) -> u32 {
    let signed = ty == Ty::S32;
    let (sa, sb) = (a as i32, b as i32);
    match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::MulLo => a.wrapping_mul(b),
        // mul.hi: bits 63..32 of the full 64-bit product.
        BinOp::MulHi if signed => ((i64::from(sa) * i64::from(sb)) >> 32) as u32,
        BinOp::MulHi => ((u64::from(a) * u64::from(b)) >> 32) as u32,
        BinOp::Min if signed => sa.min(sb) as u32,
        BinOp::Min => a.min(b),
        BinOp::Max if signed => sa.max(sb) as u32,
        BinOp::Max => a.max(b),
        BinOp::Div | BinOp::Rem => {
            let b = safe_divisor(ty, b);
            match (op, signed) {
                // Integer division truncates toward zero; the remainder takes a's sign.
                (BinOp::Div, true) => (sa / b as i32) as u32,
                (BinOp::Div, false) => a / b,
                (_, true) => (sa % b as i32) as u32,
                (_, false) => a % b,
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        // Shift amounts past the register width are clamped to it.
        BinOp::Shl => a.checked_shl(b).unwrap_or(0),
        // shr.s32 fills with the sign bit; a clamped shift leaves only sign bits.
        BinOp::Shr if signed => (sa >> b.min(31)) as u32,
        BinOp::Shr => a.checked_shr(b).unwrap_or(0),
    }
}

pub fn un(op: UnOp, a: u32) -> u32 {
    match op {
        UnOp::Not => !a,
        // neg/abs.s32 wrap: the most negative value stays itself.
        UnOp::Neg => a.wrapping_neg(),
        UnOp::Abs => (a as i32).wrapping_abs() as u32,
        UnOp::Mov => a,
    }
}

/// `mad.lo`/`mad.hi`: the low or high half of the 64-bit product `a * b`, plus `c`.
pub fn mad(hi: bool, ty: Ty, a: u32, b: u32, c: u32) -> u32 {
    let product = if ty == Ty::S32 {
        (i64::from(a as i32) * i64::from(b as i32)) as u64
    } else {
        u64::from(a) * u64::from(b)
    };
    let half = if hi { (product >> 32) as u32 } else { product as u32 };
    half.wrapping_add(c)
}

/// Integer comparisons (ISA 9.7.6): `.s32` signed, `.u32` unsigned where `lo ls hi hs`
/// mean `lt le gt ge`, `.b32` only `eq ne`.
pub fn compare(cmp: CmpOp, ty: Ty, a: u32, b: u32) -> bool {
    let ord = if ty == Ty::S32 { (a as i32).cmp(&(b as i32)) } else { a.cmp(&b) };
    match cmp {
        CmpOp::Eq => ord.is_eq(),
        CmpOp::Ne => ord.is_ne(),
        CmpOp::Lt | CmpOp::Lo => ord.is_lt(),
        CmpOp::Le | CmpOp::Ls => ord.is_le(),
        CmpOp::Gt | CmpOp::Hi => ord.is_gt(),
        CmpOp::Ge | CmpOp::Hs => ord.is_ge(),
    }
}

fn boolean(op: BoolOp, a: bool, b: bool) -> bool {
    match op {
        BoolOp::And => a && b,
        BoolOp::Or => a || b,
        BoolOp::Xor => a != b,
    }
}

impl Thread {
    fn val(&self, o: Opnd) -> u32 {
        match o {
            Opnd::Reg(r) => self.r[r as usize],
            Opnd::Imm(v) => v,
        }
    }

    fn pred(&self, p: PredRef) -> bool {
        self.p[p.idx as usize] != p.neg
    }

    fn psrc(&self, s: PSrc) -> bool {
        match s {
            PSrc::Reg(p) => self.pred(p),
            PSrc::Lit { value, neg } => (value != 0) != neg,
        }
    }

    fn guard(&self, g: Guard) -> bool {
        g.is_none_or(|p| self.pred(p))
    }

    /// One instruction that only touches this thread.
    fn step(&mut self, s: &Stmt) {
        match *s {
            Stmt::Bin { op, ty, d, a, b, guard } if self.guard(guard) => {
                self.r[d as usize] = bin(op, ty, self.val(a), self.val(b));
            }
            Stmt::Un { op, d, a, guard, .. } if self.guard(guard) => self.r[d as usize] = un(op, self.val(a)),
            Stmt::Mad { hi, ty, d, a, b, c, guard } if self.guard(guard) => {
                self.r[d as usize] = mad(hi, ty, self.val(a), self.val(b), self.val(c));
            }
            Stmt::Selp { d, a, b, c, guard, .. } if self.guard(guard) => {
                self.r[d as usize] = if self.pred(c) { self.val(a) } else { self.val(b) };
            }
            Stmt::Setp { cmp, ty, p, q, a, b, combine, guard } if self.guard(guard) => {
                // setp: p = BoolOp(t, c), q = BoolOp(!t, c); c is read before either write.
                let t = compare(cmp, ty, self.val(a), self.val(b));
                let (pv, qv) = match combine {
                    Some((op, c)) => {
                        let c = self.pred(c);
                        (boolean(op, t, c), boolean(op, !t, c))
                    }
                    None => (t, !t),
                };
                if let Some(p) = p {
                    self.p[p as usize] = pv;
                }
                if let Some(q) = q {
                    self.p[q as usize] = qv;
                }
            }
            Stmt::PredLogic { op, d, a, b, guard } if self.guard(guard) => {
                let (a, b) = (self.psrc(a), self.psrc(b));
                self.p[d as usize] = match op {
                    PredOp::And => a && b,
                    PredOp::Or => a || b,
                    PredOp::Xor => a != b,
                    PredOp::Not => !a,
                    PredOp::Mov => a,
                };
            }
            _ => {}
        }
    }
}

/// `shfl.sync`'s source lane for `lane` and whether it is in range, after the ISA's
/// pseudo-code (9.7.9.6): `b` is the lane or offset, `c` packs the clamp value (bits
/// 0-4) and the segment mask (bits 8-12). Out of range, the lane reads itself.
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let lane = lane as i32;
    let bval = (b & 31) as i32;
    let cval = (c & 31) as i32;
    let segmask = (c >> 8 & 31) as i32;
    let max_lane = (lane & segmask) | (cval & !segmask);
    let min_lane = lane & segmask;
    let (j, pval) = match mode {
        ShflMode::Up => (lane - bval, lane - bval >= max_lane),
        ShflMode::Down => (lane + bval, lane + bval <= max_lane),
        ShflMode::Bfly => (lane ^ bval, (lane ^ bval) <= max_lane),
        ShflMode::Idx => {
            let j = min_lane | (bval & !segmask);
            (j, j <= max_lane)
        }
    };
    if pval { (j as u32, true) } else { (lane as u32, false) }
}

/// `redux.sync` over `values` (ISA 9.7.13.11): `add` wraps, `min`/`max` compare as the
/// type says.
pub fn reduce(op: ReduxOp, ty: Ty, values: &[u32]) -> u32 {
    let signed = ty == Ty::S32;
    values
        .iter()
        .copied()
        .reduce(|a, v| match op {
            ReduxOp::Add => a.wrapping_add(v),
            ReduxOp::Min if signed => (a as i32).min(v as i32) as u32,
            ReduxOp::Min => a.min(v),
            ReduxOp::Max if signed => (a as i32).max(v as i32) as u32,
            ReduxOp::Max => a.max(v),
            ReduxOp::And => a & v,
            ReduxOp::Or => a | v,
            ReduxOp::Xor => a ^ v,
        })
        .expect("a warp-synchronous instruction has at least the lane that executes it")
}

/// The member mask over tiles of `width` lanes, as lane `lane` computes it.
pub fn tile_mask(lane: u32, width: u32) -> u32 {
    if width >= 32 { u32::MAX } else { ((1u32 << width) - 1) << (lane & !(width - 1)) }
}

impl Cta<'_, '_> {
    fn record(&mut self, i: usize, status: u32) {
        let t = &self.threads[i];
        let words = &mut self.out[i * OUT_WORDS..(i + 1) * OUT_WORDS];
        words[..NREG as usize].copy_from_slice(&t.r);
        words[8] = status;
        words[9] = t.p.iter().enumerate().map(|(k, &v)| u32::from(v) << k).sum();
    }

    /// Runs every thread to the end, meeting the others at the synchronisation points.
    fn run(&mut self) {
        let warps = self.n.div_ceil(32) as usize;
        loop {
            for i in 0..self.n as usize {
                if self.threads[i].live && !self.threads[i].waiting {
                    self.run_thread(i);
                }
            }
            if !self.threads.iter().any(|t| t.live) {
                return;
            }
            let mut moved = self.barrier();
            for w in 0..warps {
                moved |= self.warp_sync(w);
            }
            if !moved {
                for w in 0..warps {
                    moved |= self.vote(w);
                }
            }
            assert!(moved, "reference: no thread can go on, the program is not valid:\n{}", self.waits());
        }
    }

    /// Where the live threads wait, for the message of an invalid program.
    fn waits(&self) -> String {
        let mut s = String::new();
        for (i, t) in self.threads.iter().enumerate().filter(|(_, t)| t.live).take(64) {
            let what = match &self.code.steps[t.pc] {
                Step::Barrier => "a barrier".to_string(),
                Step::Warp { op, width } => format!("{op:?} over tiles of {width}"),
                Step::TileCond { width, .. } => format!("a tile condition over tiles of {width}"),
                Step::Vote { stmt, .. } => format!("{stmt:?}"),
                _ => "?".to_string(),
            };
            s += &format!("  thread {i} (warp {}, lane {}) at step {}: {what}\n", i / 32, i % 32, t.pc);
        }
        s
    }

    /// Runs thread `i` until it waits or ends.
    fn run_thread(&mut self, i: usize) {
        let code = self.code;
        loop {
            let t = &mut self.threads[i];
            match code.steps[t.pc] {
                Step::Do(s) => {
                    t.step(s);
                    t.pc += 1;
                }
                Step::Jump(to) => t.pc = to,
                Step::Unless(cond, to) => t.pc = if t.pred(cond) { t.pc + 1 } else { to },
                Step::UnlessTile(to) => t.pc = if t.tile { t.pc + 1 } else { to },
                Step::LoopInit { slot, count } => {
                    t.trips[slot] = match count {
                        Count::Lanes { reg, mask } => t.r[reg as usize] & mask,
                        Count::Uniform(n) => n,
                        Count::Rest { main, total, do_while } => {
                            total - if do_while { t.trips[main].max(1) } else { t.trips[main] }
                        }
                    };
                    t.iter[slot] = 0;
                    t.pc += 1;
                }
                Step::LoopTest { slot, exit } => {
                    t.pc = if t.iter[slot] >= t.trips[slot] { exit } else { t.pc + 1 };
                }
                Step::LoopNext { slot, top, do_while } => {
                    t.iter[slot] += 1;
                    t.pc = if !do_while || t.iter[slot] < t.trips[slot] { top } else { t.pc + 1 };
                }
                Step::Exit { guard, id } => {
                    if t.guard(guard) {
                        t.live = false;
                        self.record(i, 2 + id);
                        return;
                    }
                    t.pc += 1;
                }
                Step::Store { src, region } => {
                    let v = t.r[src as usize];
                    t.pc += 1;
                    let w = (region * MAX_THREADS) as usize + i;
                    assert!(
                        self.loaded[w] != self.phase,
                        "reference: thread {i} stores word {i} of region {region} in phase {} in which another \
                         thread loads it: a data race",
                        self.phase
                    );
                    self.shared[w] = v;
                    self.stored[w] = self.phase;
                }
                Step::Load { dst, shift, region } => {
                    let from = (i as u32).wrapping_add(shift) % self.n;
                    let w = (region * MAX_THREADS + from) as usize;
                    if from as usize != i {
                        assert!(
                            self.stored[w] != self.phase,
                            "reference: thread {i} loads word {from} of region {region} in phase {}, in which \
                             thread {from} stores it: a data race",
                            self.phase
                        );
                        self.loaded[w] = self.phase;
                    }
                    t.r[dst as usize] = self.shared[w];
                    t.pc += 1;
                }
                Step::End => {
                    t.live = false;
                    self.record(i, DONE);
                    return;
                }
                Step::Barrier | Step::Warp { .. } | Step::TileCond { .. } | Step::Vote { .. } => {
                    t.waiting = true;
                    return;
                }
            }
        }
    }

    /// Completes the barrier once every live thread waits at one.
    fn barrier(&mut self) -> bool {
        let code = self.code;
        if !self.threads.iter().all(|t| !t.live || (t.waiting && matches!(code.steps[t.pc], Step::Barrier))) {
            return false;
        }
        for t in self.threads.iter_mut().filter(|t| t.live) {
            t.waiting = false;
            t.pc += 1;
        }
        self.phase += 1;
        true
    }

    /// The warp-synchronous instruction thread `i` waits at: its key and tile width.
    fn sync_at(&self, i: usize) -> Option<((u8, u8), u32)> {
        let t = &self.threads[i];
        if !t.live || !t.waiting {
            return None;
        }
        match self.code.steps[t.pc] {
            Step::Warp { op, width } => Some((op.key(), width)),
            // The condition of a tile branch is a `redux.sync.xor.b32`.
            Step::TileCond { width, .. } => {
                Some((WarpOp::Redux { op: ReduxOp::Xor, ty: Ty::B32, d: 0, a: 0 }.key(), width))
            }
            _ => None,
        }
    }

    /// Completes, in warp `w`, the warp-synchronous instructions whose member lanes all
    /// wait at one with the same mask.
    fn warp_sync(&mut self, w: usize) -> bool {
        let lanes: Vec<usize> =
            (w * 32..(w * 32 + 32).min(self.n as usize)).filter(|&i| self.threads[i].live).collect();
        let mut done = 0u32;
        let mut moved = false;
        for &i in &lanes {
            let lane = (i % 32) as u32;
            let Some((key, width)) = self.sync_at(i) else { continue };
            if done >> lane & 1 == 1 {
                continue;
            }
            let mask = tile_mask(lane, width);
            let members: Vec<usize> = lanes.iter().copied().filter(|&j| mask >> (j % 32) & 1 == 1).collect();
            if !members.iter().all(|&j| self.sync_at(j).is_some_and(|(_, wd)| wd == width)) {
                continue;
            }
            for &j in &members {
                assert_eq!(
                    self.sync_at(j).unwrap().0,
                    key,
                    "reference: warp-synchronous instructions of different kinds meet with mask {mask:#010x} \
                     (lanes {lane} and {}): the program is not valid\n{}",
                    j % 32,
                    self.waits()
                );
                done |= 1 << (j % 32);
            }
            self.warp_exec(&members);
            moved = true;
        }
        moved
    }

    /// Executes the warp-synchronous instructions that `members` wait at, together: each
    /// lane's operands are read from its own instruction before any result is written.
    fn warp_exec(&mut self, members: &[usize]) {
        let code = self.code;
        let taking_part: u32 = members.iter().fold(0, |m, &i| m | 1 << (i % 32));
        let values: Vec<u32> = members
            .iter()
            .map(|&i| {
                let t = &self.threads[i];
                match code.steps[t.pc] {
                    Step::Warp { op: WarpOp::Ballot { p, .. } | WarpOp::Vote { p, .. }, .. } => {
                        u32::from(t.psrc(p))
                    }
                    Step::Warp {
                        op: WarpOp::Shfl { a, .. } | WarpOp::MatchAny { a, .. } | WarpOp::Redux { a, .. },
                        ..
                    } => t.r[a as usize],
                    Step::TileCond { reg, .. } => t.r[reg as usize],
                    _ => 0,
                }
            })
            .collect();
        let votes: u32 =
            members.iter().zip(&values).filter(|(_, v)| **v != 0).fold(0, |m, (&i, _)| m | 1 << (i % 32));
        let of_lane = |lane: u32| members.iter().position(|&i| i % 32 == lane as usize).map(|k| values[k]);
        for (k, &i) in members.iter().enumerate() {
            let lane = (i % 32) as u32;
            let t = &mut self.threads[i];
            match code.steps[t.pc] {
                Step::Warp { op, .. } => match op {
                    // vote.sync.ballot: bit `lane` set for each member whose predicate is true.
                    WarpOp::Ballot { d, .. } => t.r[d as usize] = votes,
                    WarpOp::Vote { mode, d, .. } => {
                        t.p[d as usize] = match mode {
                            VoteMode::Any => votes != 0,
                            VoteMode::All => votes == taking_part,
                            VoteMode::Uni => votes == 0 || votes == taking_part,
                        };
                    }
                    WarpOp::Shfl { mode, d, b, c, q, .. } => {
                        let (j, in_range) = shfl_source(mode, lane, t.val(b), c);
                        // A source lane that does not take part gives an undefined value,
                        // which the kernel replaces with the lane's own.
                        t.r[d as usize] = if in_range { of_lane(j) } else { None }.unwrap_or(values[k]);
                        if let Some(q) = q {
                            t.p[q as usize] = in_range;
                        }
                    }
                    WarpOp::BarWarp => {}
                    WarpOp::MatchAny { d, .. } => {
                        t.r[d as usize] = members
                            .iter()
                            .zip(&values)
                            .filter(|(_, v)| **v == values[k])
                            .fold(0, |m, (&j, _)| m | 1 << (j % 32));
                    }
                    WarpOp::Redux { op, ty, d, .. } => t.r[d as usize] = reduce(op, ty, &values),
                },
                Step::TileCond { bit, .. } => t.tile = reduce(ReduxOp::Xor, Ty::B32, &values) >> bit & 1 == 1,
                _ => unreachable!(),
            }
            t.waiting = false;
            t.pc += 1;
        }
    }

    /// The order in which a lockstep walk of the tree reaches the votes that threads `i`
    /// and `j` wait at: by the iterations of their common enclosing loops, outer first,
    /// then by position in the program.
    fn lockstep(&self, i: usize, j: usize) -> Ordering {
        let (a, b) = (&self.threads[i], &self.threads[j]);
        let (Step::Vote { loops: la, .. }, Step::Vote { loops: lb, .. }) =
            (&self.code.steps[a.pc], &self.code.steps[b.pc])
        else {
            unreachable!()
        };
        for (&x, &y) in la.iter().zip(lb) {
            if x != y {
                break;
            }
            match a.iter[x].cmp(&b.iter[x]) {
                Ordering::Equal => {}
                other => return other,
            }
        }
        a.pc.cmp(&b.pc)
    }

    /// Executes, in warp `w`, the first active-mask vote in lockstep order with the lanes
    /// at the same instance of it.
    fn vote(&mut self, w: usize) -> bool {
        let code = self.code;
        let at: Vec<usize> = (w * 32..(w * 32 + 32).min(self.n as usize))
            .filter(|&i| {
                let t = &self.threads[i];
                t.live && t.waiting && matches!(code.steps[t.pc], Step::Vote { .. })
            })
            .collect();
        let Some(&first) = at.iter().min_by(|&&i, &&j| self.lockstep(i, j)) else { return false };
        let set: Vec<usize> =
            at.iter().copied().filter(|&i| self.lockstep(i, first) == Ordering::Equal).collect();
        let Step::Vote { stmt, .. } = code.steps[self.threads[first].pc] else { unreachable!() };
        let mask: u32 = set.iter().fold(0, |m, &i| m | 1 << (i % 32));
        let ballot = |p: PSrc, threads: &[Thread]| {
            set.iter().filter(|&&i| threads[i].psrc(p)).fold(0u32, |m, &i| m | 1 << (i % 32))
        };
        match *stmt {
            Stmt::Ballot { d, p } => {
                let b = ballot(p, &self.threads);
                for &i in &set {
                    self.threads[i].r[d as usize] = b;
                }
            }
            Stmt::Vote { mode, d, p } => {
                let b = ballot(p, &self.threads);
                for &i in &set {
                    self.threads[i].p[d as usize] = match mode {
                        VoteMode::Any => b != 0,
                        VoteMode::All => b == mask,
                        VoteMode::Uni => b == 0 || b == mask,
                    };
                }
            }
            Stmt::Activemask { d } => {
                for &i in &set {
                    self.threads[i].r[d as usize] = mask;
                }
            }
            _ => unreachable!(),
        }
        for &i in &set {
            self.threads[i].waiting = false;
            self.threads[i].pc += 1;
        }
        true
    }
}
