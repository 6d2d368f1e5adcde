//! The reference: runs a structured [`Program`] directly, never its PTX, with the
//! integer semantics written here from the PTX ISA text.
//!
//! Registers are per thread, so each instruction is applied to each thread on its own.
//! Only the warp votes and the barrier look at other threads; for them the threads of a
//! block step through the statement tree together: an `if` runs its `then` part with
//! the threads whose condition holds and then its `else` part with the others, a loop
//! runs iteration `i` with the threads whose trip count exceeds `i`. The lanes of one
//! warp that execute a vote together are then exactly those the SIMT model reconverges
//! (`program::finalize` keeps votes only where that holds).

use super::program::*;

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

#[derive(Clone)]
struct Thread {
    r: [u32; NREG as usize],
    p: [bool; NPRED as usize],
    alive: bool,
}

struct Cta<'a> {
    threads: Vec<Thread>,
    n: u32,
    shared: Vec<u32>,
    /// This block's part of the output buffer.
    out: &'a mut [u32],
}

/// The expected output buffer of a launch: `OUT_WORDS` words per thread, zero for
/// words a thread never stores.
pub fn expected(p: &Program, shape: Shape, input: &[u32]) -> Vec<u32> {
    let n = shape.threads();
    let mut out = vec![0u32; (shape.ctas() * n) as usize * OUT_WORDS];
    for (cta, chunk) in out.chunks_mut(n as usize * OUT_WORDS).enumerate() {
        let ctaid = Shape::coords(shape.grid, cta as u32);
        let threads = (0..n)
            .map(|linear| {
                let tid = Shape::coords(shape.block, linear);
                let gtid = cta as u32 * n + linear;
                let mut t = Thread { r: [0; NREG as usize], p: [false; NPRED as usize], alive: true };
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
        let mut c = Cta { threads, n, shared: vec![0; (MAX_BARS * MAX_THREADS) as usize], out: chunk };
        let all: Vec<usize> = (0..n as usize).collect();
        c.block(&p.pred_init, &all);
        c.block(&p.body, &all);
        for i in 0..n as usize {
            if c.threads[i].alive {
                c.record(i, DONE);
            }
        }
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

impl Cta<'_> {
    fn record(&mut self, i: usize, status: u32) {
        let t = &self.threads[i];
        let words = &mut self.out[i * OUT_WORDS..(i + 1) * OUT_WORDS];
        words[..NREG as usize].copy_from_slice(&t.r);
        words[8] = status;
        words[9] = t.p.iter().enumerate().map(|(k, &v)| u32::from(v) << k).sum();
    }

    fn block(&mut self, stmts: &[Stmt], set: &[usize]) {
        for s in stmts {
            let live: Vec<usize> = set.iter().copied().filter(|&i| self.threads[i].alive).collect();
            if live.is_empty() {
                return;
            }
            self.stmt(s, &live);
        }
    }

    /// The lanes of `set` grouped by warp: (warp, lane mask) for each warp present.
    fn warps(set: &[usize]) -> Vec<(usize, u32)> {
        let mut groups: Vec<(usize, u32)> = Vec::new();
        for &i in set {
            match groups.iter_mut().find(|g| g.0 == i / 32) {
                Some(g) => g.1 |= 1 << (i % 32),
                None => groups.push((i / 32, 1 << (i % 32))),
            }
        }
        groups
    }

    /// Applies `f(lane, group mask, predicate ballot of the group)` to every thread of `set`.
    fn vote(&mut self, set: &[usize], p: PSrc, mut f: impl FnMut(&mut Thread, u32, u32, u32)) {
        for (w, mask) in Self::warps(set) {
            let lanes: Vec<usize> = set.iter().copied().filter(|&i| i / 32 == w).collect();
            let ballot = lanes.iter().filter(|&&i| self.threads[i].psrc(p)).map(|&i| 1u32 << (i % 32)).sum();
            for i in lanes {
                f(&mut self.threads[i], (i % 32) as u32, mask, ballot);
            }
        }
    }

    fn stmt(&mut self, s: &Stmt, set: &[usize]) {
        match s {
            Stmt::If { cond, then, els } => {
                let (t, e): (Vec<usize>, Vec<usize>) =
                    set.iter().partition(|&&i| self.threads[i].pred(*cond));
                self.block(then, &t);
                self.block(els, &e);
            }
            Stmt::Loop { trips, do_while, body } => {
                let trips: Vec<(usize, u32)> = set
                    .iter()
                    .map(|&i| {
                        let n = match *trips {
                            Trips::Lanes { reg, mask } => self.threads[i].r[reg as usize] & mask,
                            Trips::Uniform(n) => n,
                        };
                        (i, if *do_while { n.max(1) } else { n })
                    })
                    .collect();
                for iteration in 0.. {
                    let running: Vec<usize> = trips
                        .iter()
                        .filter(|&&(i, n)| n > iteration && self.threads[i].alive)
                        .map(|&(i, _)| i)
                        .collect();
                    if running.is_empty() {
                        break;
                    }
                    self.block(body, &running);
                }
            }
            Stmt::Exit { guard, id } => {
                for &i in set {
                    if self.threads[i].guard(*guard) {
                        self.record(i, 2 + id);
                        self.threads[i].alive = false;
                    }
                }
            }
            // vote.sync.ballot: bit `lane` set for each member whose predicate is true.
            Stmt::Ballot { d, p } => self.vote(set, *p, |t, _, _, ballot| t.r[*d as usize] = ballot),
            Stmt::Vote { mode, d, p } => self.vote(set, *p, |t, _, mask, ballot| {
                t.p[*d as usize] = match mode {
                    VoteMode::Any => ballot != 0,
                    VoteMode::All => ballot == mask,
                    VoteMode::Uni => ballot == 0 || ballot == mask,
                };
            }),
            Stmt::Activemask { d } => {
                self.vote(set, PSrc::Lit { value: 1, neg: false }, |t, _, mask, _| t.r[*d as usize] = mask);
            }
            Stmt::Bar { src, dst, shift, region } => {
                let base = (region * MAX_THREADS) as usize;
                for &i in set {
                    self.shared[base + i] = self.threads[i].r[*src as usize];
                }
                for &i in set {
                    let from = (i as u32).wrapping_add(*shift) % self.n;
                    self.threads[i].r[*dst as usize] = self.shared[base + from as usize];
                }
            }
            simple => {
                for &i in set {
                    self.threads[i].step(simple);
                }
            }
        }
    }
}
