//! A [`Program`] as PTX text and its launch spec (docs/launch-spec.md).
//!
//! The kernel takes `in` (8 words per thread) and `out` (`OUT_WORDS` per thread).
//! Control flow is the usual compiler shape: `@!%p bra ELSE` around an `if`, a loop
//! with its test at the top (`while`) or a back edge at the bottom (`do while`), each
//! with its own counter registers, so the program's registers never steer a loop.
//! Unconditional jumps, and the branches of loops with a uniform trip count, are
//! `bra.uni` as nvcc writes them. Tile member masks (`%tm4`, `%tm8`, `%tm16`), the
//! thread count of a counted barrier (`%nbar`) and the thread's shared word (`%sh`) are
//! computed once at the start. `shfl.sync` is written with a `vote.sync.ballot` of the
//! same mask before it and a `selp` after it that keeps the shuffled value only when its
//! source lane took part, so no output depends on an undefined value.

use super::program::*;
use super::reference::{DONE, OUT_WORDS, Shape, safe_divisor};
use std::fmt::Write;

pub const KERNEL: &str = "random_kernel";

struct Emitter {
    text: String,
    labels: u32,
}

fn pred(p: PredRef) -> String {
    format!("{}%p{}", if p.neg { "!" } else { "" }, p.idx)
}

fn psrc(s: PSrc) -> String {
    match s {
        PSrc::Reg(p) => pred(p),
        PSrc::Lit { value, neg } => format!("{}{value}", if neg { "!" } else { "" }),
    }
}

fn guard(g: Guard) -> String {
    g.map(|p| format!("@{} ", pred(p))).unwrap_or_default()
}

/// An immediate in one of PTX's literal forms: mostly as a compiler writes it for the
/// type (signed decimal for `.s32`, hexadecimal for large `.b32`, unsigned decimal), and
/// for some values octal, binary, hexadecimal, a `U` suffix, or a negative decimal (a
/// 64-bit literal whose low 32 bits are `v`). The form depends on the value only, so a
/// shrunk case keeps its text.
fn imm(ty: Ty, v: u32) -> String {
    match v.wrapping_mul(0x9e37_79b9) >> 28 {
        0 => format!("0{v:o}"),
        1 => format!("0b{v:b}"),
        2 => format!("{v}U"),
        3 => format!("0x{v:x}"),
        4 if v >= 0x8000_0000 => (v as i32).to_string(),
        _ => match ty {
            Ty::S32 => (v as i32).to_string(),
            Ty::B32 if v > 0xffff => format!("0x{v:08X}"),
            _ => v.to_string(),
        },
    }
}

fn opnd(ty: Ty, o: Opnd) -> String {
    match o {
        Opnd::Reg(r) => format!("%r{r}"),
        Opnd::Imm(v) => imm(ty, v),
    }
}

fn cmp_word(c: CmpOp) -> &'static str {
    match c {
        CmpOp::Eq => "eq",
        CmpOp::Ne => "ne",
        CmpOp::Lt => "lt",
        CmpOp::Le => "le",
        CmpOp::Gt => "gt",
        CmpOp::Ge => "ge",
        CmpOp::Lo => "lo",
        CmpOp::Ls => "ls",
        CmpOp::Hi => "hi",
        CmpOp::Hs => "hs",
    }
}

fn bool_word(b: BoolOp) -> &'static str {
    match b {
        BoolOp::And => "and",
        BoolOp::Or => "or",
        BoolOp::Xor => "xor",
    }
}

impl Emitter {
    fn line(&mut self, s: impl AsRef<str>) {
        self.text.push('\t');
        self.text.push_str(s.as_ref());
        self.text.push('\n');
    }

    fn label(&mut self) -> u32 {
        self.labels += 1;
        self.labels
    }

    /// Stores the thread's registers, `status` and predicate bits to its `out` words.
    fn store_state(&mut self, g: Guard, status: u32) {
        self.line("selp.u32 %t0, 1, 0, %p0;");
        for k in 1..NPRED {
            self.line(format!("selp.u32 %t1, {}, 0, %p{k};", 1 << k));
            self.line("or.b32 %t0, %t0, %t1;");
        }
        self.line(format!("mov.u32 %t1, {status};"));
        let g = guard(g);
        for k in 0..NREG {
            self.line(format!("{g}st.global.u32 [%out+{}], %r{k};", 4 * k));
        }
        self.line(format!("{g}st.global.u32 [%out+32], %t1;"));
        self.line(format!("{g}st.global.u32 [%out+36], %t0;"));
    }

    fn block(&mut self, stmts: &[Stmt], depth: u32) {
        for s in stmts {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: u32) {
        match *s {
            Stmt::Bin { op, ty, d, a, b, guard: g } => {
                let (name, b_ty) = match op {
                    BinOp::Add => ("add", ty),
                    BinOp::Sub => ("sub", ty),
                    BinOp::MulLo => ("mul.lo", ty),
                    BinOp::MulHi => ("mul.hi", ty),
                    BinOp::Min => ("min", ty),
                    BinOp::Max => ("max", ty),
                    BinOp::Div => ("div", ty),
                    BinOp::Rem => ("rem", ty),
                    BinOp::And => ("and", ty),
                    BinOp::Or => ("or", ty),
                    BinOp::Xor => ("xor", ty),
                    // The shift amount is always .u32.
                    BinOp::Shl => ("shl", Ty::U32),
                    BinOp::Shr => ("shr", Ty::U32),
                };
                let b = match (op, b) {
                    (BinOp::Div | BinOp::Rem, Opnd::Imm(v)) => imm(ty, safe_divisor(ty, v)),
                    (BinOp::Div | BinOp::Rem, Opnd::Reg(r)) => {
                        self.line(format!("or.b32 %t0, %r{r}, 1;"));
                        if ty == Ty::S32 {
                            self.line("and.b32 %t0, %t0, 0x7FFFFFFF;");
                        }
                        "%t0".to_string()
                    }
                    _ => opnd(b_ty, b),
                };
                self.line(format!("{}{name}.{} %r{d}, {}, {b};", guard(g), ty.word(), opnd(ty, a)));
            }
            Stmt::Un { op, ty, d, a, guard: g } => {
                let name = match op {
                    UnOp::Not => "not",
                    UnOp::Neg => "neg",
                    UnOp::Abs => "abs",
                    UnOp::Mov => "mov",
                };
                self.line(format!("{}{name}.{} %r{d}, {};", guard(g), ty.word(), opnd(ty, a)));
            }
            Stmt::Mad { hi, ty, d, a, b, c, guard: g } => {
                let (a, b, c) = (opnd(ty, a), opnd(ty, b), opnd(ty, c));
                let part = if hi { "hi" } else { "lo" };
                self.line(format!("{}mad.{part}.{} %r{d}, {a}, {b}, {c};", guard(g), ty.word()));
            }
            Stmt::Selp { ty, d, a, b, c, guard: g } => {
                let (a, b) = (opnd(ty, a), opnd(ty, b));
                self.line(format!("{}selp.{} %r{d}, {a}, {b}, {};", guard(g), ty.word(), pred(c)));
            }
            Stmt::Setp { cmp, ty, p, q, a, b, combine, guard: g } => {
                let p = p.map_or("_".to_string(), |p| format!("%p{p}"));
                let dst = match q {
                    Some(q) => format!("{p}|%p{q}"),
                    None => p,
                };
                let (a, b) = (opnd(ty, a), opnd(ty, b));
                let (bool_mod, c) = match combine {
                    Some((op, c)) => (format!(".{}", bool_word(op)), format!(", {}", pred(c))),
                    None => (String::new(), String::new()),
                };
                let cmp = cmp_word(cmp);
                self.line(format!("{}setp.{cmp}{bool_mod}.{} {dst}, {a}, {b}{c};", guard(g), ty.word()));
            }
            Stmt::PredLogic { op, d, a, b, guard: g } => {
                let g = guard(g);
                let (a, b) = (psrc(a), psrc(b));
                match op {
                    PredOp::And => self.line(format!("{g}and.pred %p{d}, {a}, {b};")),
                    PredOp::Or => self.line(format!("{g}or.pred %p{d}, {a}, {b};")),
                    PredOp::Xor => self.line(format!("{g}xor.pred %p{d}, {a}, {b};")),
                    PredOp::Not => self.line(format!("{g}not.pred %p{d}, {a};")),
                    PredOp::Mov => self.line(format!("{g}mov.pred %p{d}, {a};")),
                }
            }
            Stmt::If { cond, ref then, ref els } => {
                let k = self.label();
                let skip = pred(PredRef { neg: !cond.neg, ..cond });
                if els.is_empty() {
                    self.line(format!("@{skip} bra $L_end{k};"));
                    self.block(then, depth + 1);
                } else {
                    self.line(format!("@{skip} bra $L_else{k};"));
                    self.block(then, depth + 1);
                    self.line(format!("bra.uni $L_end{k};"));
                    let _ = writeln!(self.text, "$L_else{k}:");
                    self.block(els, depth + 1);
                }
                let _ = writeln!(self.text, "$L_end{k}:");
            }
            Stmt::TileIf { width, reg, bit, ref then, ref els } => {
                let k = self.label();
                self.line(format!("redux.sync.xor.b32 %t3, %r{reg}, {};", mask(width)));
                self.line(format!("and.b32 %t3, %t3, {};", 1u32 << bit));
                self.line("setp.eq.u32 %tq, %t3, 0;");
                if els.is_empty() {
                    self.line(format!("@%tq bra $L_end{k};"));
                    self.block(then, depth + 1);
                } else {
                    self.line(format!("@%tq bra $L_else{k};"));
                    self.block(then, depth + 1);
                    self.line(format!("bra.uni $L_end{k};"));
                    let _ = writeln!(self.text, "$L_else{k}:");
                    self.block(els, depth + 1);
                }
                let _ = writeln!(self.text, "$L_end{k}:");
            }
            Stmt::Loop { trips, do_while, ref body, ref pad } => {
                let k = self.label();
                // All lanes that run a uniform loop leave it together: its branch is `.uni`.
                let uni = if matches!(trips, Trips::Uniform(_)) { ".uni" } else { "" };
                match trips {
                    Trips::Lanes { reg, mask } => self.line(format!("and.b32 %n{depth}, %r{reg}, {mask};")),
                    Trips::Uniform(n) => self.line(format!("mov.u32 %n{depth}, {n};")),
                }
                self.line(format!("mov.u32 %c{depth}, 0;"));
                let _ = writeln!(self.text, "$L_top{k}:");
                if do_while {
                    self.block(body, depth + 1);
                    self.line(format!("add.u32 %c{depth}, %c{depth}, 1;"));
                    self.line(format!("setp.lt.u32 %lp{depth}, %c{depth}, %n{depth};"));
                    self.line(format!("@%lp{depth} bra{uni} $L_top{k};"));
                } else {
                    self.line(format!("setp.ge.u32 %lp{depth}, %c{depth}, %n{depth};"));
                    self.line(format!("@%lp{depth} bra{uni} $L_end{k};"));
                    self.block(body, depth + 1);
                    self.line(format!("add.u32 %c{depth}, %c{depth}, 1;"));
                    self.line(format!("bra.uni $L_top{k};"));
                    let _ = writeln!(self.text, "$L_end{k}:");
                }
                if let (Trips::Lanes { mask, .. }, false) = (trips, pad.is_empty()) {
                    // The rest of the most trips, so that every lane meets the same
                    // synchronisation as often: `total - trips` runs of `pad`.
                    let total = if do_while { mask.max(1) } else { mask };
                    if do_while {
                        self.line(format!("max.u32 %n{depth}, %n{depth}, 1;"));
                    }
                    self.line(format!("sub.u32 %n{depth}, {total}, %n{depth};"));
                    self.line(format!("mov.u32 %c{depth}, 0;"));
                    let _ = writeln!(self.text, "$L_pad{k}:");
                    self.line(format!("setp.ge.u32 %lp{depth}, %c{depth}, %n{depth};"));
                    self.line(format!("@%lp{depth} bra $L_pad_end{k};"));
                    self.block(pad, depth + 1);
                    self.line(format!("add.u32 %c{depth}, %c{depth}, 1;"));
                    self.line(format!("bra.uni $L_pad{k};"));
                    let _ = writeln!(self.text, "$L_pad_end{k}:");
                }
            }
            Stmt::Exit { guard: g, id } => {
                self.store_state(g, 2 + id);
                let end = if id % 2 == 1 { "ret" } else { "exit" };
                self.line(format!("{}{end};", guard(g)));
            }
            Stmt::Ballot { d, p } => {
                self.line("activemask.b32 %t0;");
                self.line(format!("vote.sync.ballot.b32 %r{d}, {}, %t0;", psrc(p)));
            }
            Stmt::Vote { mode, d, p } => {
                self.line("activemask.b32 %t0;");
                self.line(format!("vote.sync.{}.pred %p{d}, {}, %t0;", vote_word(mode), psrc(p)));
            }
            Stmt::Activemask { d } => self.line(format!("activemask.b32 %r{d};")),
            Stmt::Bar { .. } => unreachable!("finalize writes Bar out"),
            Stmt::Barrier { aligned, count } => match (aligned, count) {
                (true, _) => self.line("bar.sync 0;"),
                (false, true) => self.line("barrier.sync 0, %nbar;"),
                (false, false) => self.line("barrier.sync 0;"),
            },
            Stmt::StShared { src, region } => {
                self.line(format!("st.shared.u32 [%sh+{}], %r{src};", 4 * region * MAX_THREADS));
            }
            Stmt::LdShared { dst, shift, region, .. } => {
                self.line(format!("add.u32 %t2, %tl, {shift};"));
                self.line("rem.u32 %t2, %t2, %nt;");
                self.line("shl.b32 %t2, %t2, 2;");
                self.line("add.u32 %t2, %shb, %t2;");
                self.line(format!("ld.shared.u32 %r{dst}, [%t2+{}];", 4 * region * MAX_THREADS));
            }
            Stmt::WarpSync { op, width } => self.warp_sync(op, &mask(width)),
        }
    }

    fn warp_sync(&mut self, op: WarpOp, m: &str) {
        match op {
            WarpOp::Ballot { d, p } => self.line(format!("vote.sync.ballot.b32 %r{d}, {}, {m};", psrc(p))),
            WarpOp::Vote { mode, d, p } => {
                self.line(format!("vote.sync.{}.pred %p{d}, {}, {m};", vote_word(mode), psrc(p)));
            }
            WarpOp::BarWarp => self.line(format!("bar.warp.sync {m};")),
            WarpOp::MatchAny { d, a } => self.line(format!("match.any.sync.b32 %r{d}, %r{a}, {m};")),
            WarpOp::Redux { op, ty, d, a } => {
                let op = match op {
                    ReduxOp::Add => "add",
                    ReduxOp::Min => "min",
                    ReduxOp::Max => "max",
                    ReduxOp::And => "and",
                    ReduxOp::Or => "or",
                    ReduxOp::Xor => "xor",
                };
                self.line(format!("redux.sync.{op}.{} %r{d}, %r{a}, {m};", ty.word()));
            }
            WarpOp::Shfl { mode, d, a, b, c, q } => {
                // Which lanes take part, then the shuffle; the source lane j (as the ISA
                // computes it) must be one of them, unless out of range (own value).
                self.line(format!("vote.sync.ballot.b32 %t3, 1, {m};"));
                let word = match mode {
                    ShflMode::Up => "up",
                    ShflMode::Down => "down",
                    ShflMode::Bfly => "bfly",
                    ShflMode::Idx => "idx",
                };
                let b_text = match b {
                    Opnd::Imm(v) => imm(Ty::B32, v),
                    Opnd::Reg(r) => format!("%r{r}"),
                };
                self.line(format!("shfl.sync.{word}.b32 %t4|%tq, %r{a}, {b_text}, 0x{c:x}, {m};"));
                let seg = (c >> 8) & 31;
                let bv = match b {
                    Opnd::Imm(v) => (v & 31).to_string(),
                    Opnd::Reg(r) => {
                        self.line(format!("and.b32 %t5, %r{r}, 31;"));
                        "%t5".to_string()
                    }
                };
                match mode {
                    ShflMode::Up => self.line(format!("sub.u32 %t5, %ln, {bv};")),
                    ShflMode::Down => self.line(format!("add.u32 %t5, %ln, {bv};")),
                    ShflMode::Bfly => self.line(format!("xor.b32 %t5, %ln, {bv};")),
                    ShflMode::Idx => {
                        self.line(format!("and.b32 %t6, %ln, {seg};"));
                        match b {
                            Opnd::Imm(v) => self.line(format!("or.b32 %t5, %t6, {};", v & !seg & 31)),
                            Opnd::Reg(_) => {
                                self.line(format!("and.b32 %t5, %t5, {};", !seg & 31));
                                self.line("or.b32 %t5, %t5, %t6;");
                            }
                        }
                    }
                }
                self.line("shr.b32 %t3, %t3, %t5;");
                self.line("and.b32 %t3, %t3, 1;");
                self.line("setp.ne.or.u32 %tv, %t3, 0, !%tq;");
                self.line(format!("selp.b32 %r{d}, %t4, %r{a}, %tv;"));
                if let Some(q) = q {
                    self.line(format!("mov.pred %p{q}, %tq;"));
                }
            }
        }
    }
}

/// The member mask of a warp-synchronous instruction over tiles of `width` lanes.
fn mask(width: u32) -> String {
    if width == 32 { "0xffffffff".to_string() } else { format!("%tm{width}") }
}

fn vote_word(mode: VoteMode) -> &'static str {
    match mode {
        VoteMode::Any => "any",
        VoteMode::All => "all",
        VoteMode::Uni => "uni",
    }
}

/// The module's text.
pub fn ptx(p: &Program) -> String {
    let mut e = Emitter { text: String::new(), labels: 0 };
    let words = REGIONS * MAX_THREADS;
    let _ = write!(
        e.text,
        "//\n// Generated by tests/random_kernels (ptxvm property test).\n//\n\n\
         .version 8.0\n.target sm_90\n.address_size 64\n\n\
         .shared .align 4 .b32 shared_words[{words}];\n\n\
         .visible .entry {KERNEL}(\n\t.param .u64 {KERNEL}_param_0,\n\t.param .u64 {KERNEL}_param_1\n)\n{{\n"
    );
    let depth = MAX_DEPTH;
    e.line(format!(".reg .b32 %r<{NREG}>;"));
    e.line(format!(".reg .pred %p<{NPRED}>;"));
    e.line(format!(".reg .b32 %c<{depth}>;"));
    e.line(format!(".reg .b32 %n<{depth}>;"));
    e.line(format!(".reg .pred %lp<{depth}>;"));
    e.line(".reg .b32 %t<7>;");
    e.line(".reg .pred %tq, %tv;");
    e.line(".reg .b32 %tx, %ty, %tz, %nx, %ny, %tl, %nt, %cx, %cy, %cz, %ncx, %ncy, %gt;");
    e.line(".reg .b32 %ln, %tm4, %tm8, %tm16, %nbar, %shb, %sh;");
    e.line(".reg .b64 %in, %out, %off;");
    e.text.push('\n');
    e.line(format!("ld.param.u64 %in, [{KERNEL}_param_0];"));
    e.line(format!("ld.param.u64 %out, [{KERNEL}_param_1];"));
    e.line("cvta.to.global.u64 %in, %in;");
    e.line("cvta.to.global.u64 %out, %out;");
    // Linear thread index (tz * ny + ty) * nx + tx, threads per block, and the global
    // index ((cz * ncy + cy) * ncx + cx) * threads + linear.
    e.line("mov.u32 %tx, %tid.x;");
    e.line("mov.u32 %ty, %tid.y;");
    e.line("mov.u32 %tz, %tid.z;");
    e.line("mov.u32 %nx, %ntid.x;");
    e.line("mov.u32 %ny, %ntid.y;");
    e.line("mov.u32 %t0, %ntid.z;");
    e.line("mad.lo.u32 %tl, %tz, %ny, %ty;");
    e.line("mad.lo.u32 %tl, %tl, %nx, %tx;");
    e.line("mul.lo.u32 %nt, %nx, %ny;");
    e.line("mul.lo.u32 %nt, %nt, %t0;");
    e.line("mov.u32 %cx, %ctaid.x;");
    e.line("mov.u32 %cy, %ctaid.y;");
    e.line("mov.u32 %cz, %ctaid.z;");
    e.line("mov.u32 %ncx, %nctaid.x;");
    e.line("mov.u32 %ncy, %nctaid.y;");
    e.line("mad.lo.u32 %gt, %cz, %ncy, %cy;");
    e.line("mad.lo.u32 %gt, %gt, %ncx, %cx;");
    e.line("mad.lo.u32 %gt, %gt, %nt, %tl;");
    e.line(format!("mul.wide.u32 %off, %gt, {};", 4 * NREG));
    e.line("add.s64 %in, %in, %off;");
    e.line(format!("mul.wide.u32 %off, %gt, {};", 4 * OUT_WORDS));
    e.line("add.s64 %out, %out, %off;");
    for (k, init) in p.init.iter().enumerate() {
        match init {
            Init::Input => e.line(format!("ld.global.u32 %r{k}, [%in+{}];", 4 * k)),
            Init::TidX => e.line(format!("mov.u32 %r{k}, %tid.x;")),
            Init::TidY => e.line(format!("mov.u32 %r{k}, %tid.y;")),
            Init::TidZ => e.line(format!("mov.u32 %r{k}, %tid.z;")),
            Init::Linear => e.line(format!("mov.u32 %r{k}, %tl;")),
            Init::Lane => e.line(format!("mov.u32 %r{k}, %laneid;")),
            Init::CtaX => e.line(format!("mov.u32 %r{k}, %ctaid.x;")),
            Init::CtaY => e.line(format!("mov.u32 %r{k}, %ctaid.y;")),
            Init::Gtid => e.line(format!("mov.u32 %r{k}, %gt;")),
            Init::Imm(v) => e.line(format!("mov.b32 %r{k}, {};", imm(Ty::B32, *v))),
        }
    }
    // The lane, its tiles of 4, 8 and 16 lanes as member masks, and the thread count of
    // `barrier.sync 0, %nbar`: every warp of the block.
    e.line("mov.u32 %ln, %laneid;");
    for w in [4u32, 8, 16] {
        e.line(format!("and.b32 %t0, %ln, {};", -(w as i32)));
        e.line(format!("shl.b32 %tm{w}, {}, %t0;", (1u32 << w) - 1));
    }
    e.line("add.u32 %nbar, %nt, 31;");
    e.line("and.b32 %nbar, %nbar, -32;");
    // Clear this thread's word of every shared region, so a load reads 0 from threads
    // that did not store (or exited before they did).
    e.line("mov.u32 %shb, shared_words;");
    e.line("shl.b32 %t1, %tl, 2;");
    e.line("add.u32 %sh, %shb, %t1;");
    for region in 0..REGIONS {
        e.line(format!("st.shared.u32 [%sh+{}], 0;", 4 * region * MAX_THREADS));
    }
    e.line("bar.sync 0;");
    e.block(&p.pred_init, 0);
    e.text.push('\n');
    e.block(&p.body, 0);
    e.text.push('\n');
    e.store_state(None, DONE);
    e.line("ret;");
    e.text.push_str("}\n");
    e.text
}

/// The launch spec: `in` with `input`, `out` zero-filled.
pub fn spec(shape: Shape, input: &[u32]) -> String {
    let n = shape.ctas() * shape.threads();
    let data: Vec<String> = input.iter().map(u32::to_string).collect();
    let [gx, gy, gz] = shape.grid;
    let [bx, by, bz] = shape.block;
    format!(
        "{{\"kernel\": \"{KERNEL}\", \"grid\": [{gx}, {gy}, {gz}], \"block\": [{bx}, {by}, {bz}], \"args\": [\
         {{\"buffer\": \"u32\", \"data\": [{}]}}, {{\"buffer\": \"u32\", \"len\": {}}}]}}\n",
        data.join(", "),
        n as usize * OUT_WORDS
    )
}
