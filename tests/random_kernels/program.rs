//! The structured programs the property test runs: 8 `b32` registers and 4 predicates
//! per thread, and a tree of statements.
//!
//! Statements are straight-line integer instructions (each maybe guarded by `@%p` /
//! `@!%p`), `setp`, predicate logic, `if`/`else` on a predicate, counted loops whose trip
//! count comes from a register (so it differs between lanes), guarded `exit`, the warp
//! votes (`activemask`, `vote.sync` with the active mask as member mask) and `bar.sync`
//! with a shared-memory exchange. The tree is structured so that the reference
//! (`reference.rs`) runs it without a CFG; `emit.rs` writes it as PTX with labels and
//! `generate.rs` holds the proptest strategies.
//!
//! [`finalize`] drops what would make a program's result ill-defined (see there), so
//! every generated and every shrunk program is a valid kernel with one right answer.

pub const NREG: u8 = 8;
pub const NPRED: u8 = 4;
/// Compound statements (if, loop) nest at most this deep.
pub const MAX_DEPTH: u32 = 3;
/// Barriers with a shared-memory exchange per program; each gets its own region.
pub const MAX_BARS: u32 = 4;
/// Threads per block at most (the shared regions are this many words).
pub const MAX_THREADS: u32 = 1024;

/// The type an instruction is written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    B32,
    U32,
    S32,
}

impl Ty {
    pub fn word(self) -> &'static str {
        match self {
            Ty::B32 => "b32",
            Ty::U32 => "u32",
            Ty::S32 => "s32",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    Reg(u8),
    Imm(u32),
}

/// A predicate register read as is or negated (`!%p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredRef {
    pub idx: u8,
    pub neg: bool,
}

pub type Guard = Option<PredRef>;

/// A predicate source of predicate logic or `vote`: a register or an integer literal,
/// true when non-zero (`1`, `!0`, `-1`, ...), as ptxas accepts there. (`selp`'s and
/// `setp`'s `c` accept literals too, but ptxvm cannot run that yet: "only predicate
/// registers are supported here yet"; they are generated with registers only.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PSrc {
    Reg(PredRef),
    Lit { value: i8, neg: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    MulLo,
    MulHi,
    Min,
    Max,
    /// The divisor is made safe first (`safe_divisor`): never 0, never -1 for `.s32`.
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
    Abs,
    Mov,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredOp {
    And,
    Or,
    Xor,
    Not,
    Mov,
}

/// `vote.sync` modes that write a predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    Any,
    All,
    Uni,
}

/// Where a register's first value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// `in[gtid * 8 + k]` for register k.
    Input,
    TidX,
    TidY,
    TidZ,
    /// The linear thread index in the block.
    Linear,
    Lane,
    CtaX,
    CtaY,
    /// The linear CTA index times threads per block, plus the linear thread index.
    Gtid,
    Imm(u32),
}

/// A loop's trip count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trips {
    /// `r[reg] & mask`: differs between lanes, so the loop diverges.
    Lanes { reg: u8, mask: u32 },
    /// The same for every thread: the loop stays converged.
    Uniform(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Bin {
        op: BinOp,
        ty: Ty,
        d: u8,
        a: Opnd,
        b: Opnd,
        guard: Guard,
    },
    Un {
        op: UnOp,
        ty: Ty,
        d: u8,
        a: Opnd,
        guard: Guard,
    },
    /// `mad.lo` / `mad.hi`: the low or high half of `a * b`, plus `c`.
    Mad {
        hi: bool,
        ty: Ty,
        d: u8,
        a: Opnd,
        b: Opnd,
        c: Opnd,
        guard: Guard,
    },
    Selp {
        ty: Ty,
        d: u8,
        a: Opnd,
        b: Opnd,
        c: PredRef,
        guard: Guard,
    },
    /// `setp.cmp[.bool].ty p[|q], a, b[, c]`; `p: None` is the sink `_` (then `q` is set).
    Setp {
        cmp: CmpOp,
        ty: Ty,
        p: Option<u8>,
        q: Option<u8>,
        a: Opnd,
        b: Opnd,
        combine: Option<(BoolOp, PredRef)>,
        guard: Guard,
    },
    PredLogic {
        op: PredOp,
        d: u8,
        a: PSrc,
        b: PSrc,
        guard: Guard,
    },
    If {
        cond: PredRef,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// Runs `body` `trips` times (at least once when `do_while`).
    Loop {
        trips: Trips,
        do_while: bool,
        body: Vec<Stmt>,
    },
    /// The thread stores its state with status `2 + id` and ends (`exit`, or `ret` for
    /// odd ids). `id` is set by [`finalize`].
    Exit {
        guard: Guard,
        id: u32,
    },
    /// `activemask.b32 %t; vote.sync.ballot.b32 %r{d}, p, %t;`
    Ballot {
        d: u8,
        p: PSrc,
    },
    /// `activemask.b32 %t; vote.sync.MODE.pred %p{d}, p, %t;`
    Vote {
        mode: VoteMode,
        d: u8,
        p: PSrc,
    },
    /// `activemask.b32 %r{d}`
    Activemask {
        d: u8,
    },
    /// Every thread stores `r[src]` to its word of shared region `region`, `bar.sync 0`,
    /// loads the word of thread `(linear + shift) % threads` into `r[dst]`, and
    /// `barrier.sync 0` (so a later round in a loop may write the region again). The
    /// word of a thread that exited before holds 0 (the kernel clears all regions first).
    Bar {
        src: u8,
        dst: u8,
        shift: u32,
        region: u32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub init: Vec<Init>,
    /// Runs first; gives every predicate a value.
    pub pred_init: Vec<Stmt>,
    pub body: Vec<Stmt>,
}

/// Makes a generated (or shrunk) body well-defined and numbers exits and barriers.
///
/// - Which lanes of a warp execute a warp vote together is fixed by reconvergence at
///   immediate post-dominators. An `exit` inside an `if` or loop makes the virtual exit
///   the post-dominator of the enclosing branches, so lanes may not meet again after
///   it: votes after such an exit (in program order), and votes in a loop that holds
///   an exit (a later iteration runs after it), are dropped. Elsewhere the lanes that
///   vote together are those that reach the statement in the same loop iteration.
/// - `bar.sync` stays only outside divergence (at the top level or in loops with a
///   uniform trip count), so every live thread of the block arrives; at most
///   [`MAX_BARS`]. Threads that exited before it do not hold it up (ISA, `exit`:
///   "barriers exclusively waiting on arrivals from exited threads are always
///   released"), so top-level exits before it are fine. After an `if` or loop that
///   holds an `exit`, and in a loop that holds one, it is dropped: there the lanes of a
///   warp do not reconverge and ptxvm reports a barrier deadlock, even when no lane
///   takes the exit (a bug, reported; `bar_after_branch_with_exit` in main.rs).
pub fn finalize(body: Vec<Stmt>) -> Vec<Stmt> {
    let mut f = Finalizer::default();
    f.block(body, Scope { depth: 0, divergent: false, exit_loop: false })
}

#[derive(Default)]
struct Finalizer {
    nested_exit_seen: bool,
    exits: u32,
    bars: u32,
}

/// Where a statement sits.
#[derive(Clone, Copy)]
struct Scope {
    /// Compound statements around it.
    depth: u32,
    /// Inside an `if` or a loop with lane-dependent trips.
    divergent: bool,
    /// Inside a loop that holds an `exit`.
    exit_loop: bool,
}

fn contains_exit(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Exit { .. } => true,
        Stmt::If { then, els, .. } => contains_exit(then) || contains_exit(els),
        Stmt::Loop { body, .. } => contains_exit(body),
        _ => false,
    })
}

impl Finalizer {
    fn block(&mut self, stmts: Vec<Stmt>, at: Scope) -> Vec<Stmt> {
        let inner = Scope { depth: at.depth + 1, ..at };
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            match s {
                Stmt::If { cond, then, els } => {
                    let then = self.block(then, Scope { divergent: true, ..inner });
                    let els = self.block(els, Scope { divergent: true, ..inner });
                    out.push(Stmt::If { cond, then, els });
                }
                Stmt::Loop { trips, do_while, body } => {
                    let divergent = at.divergent || matches!(trips, Trips::Lanes { .. });
                    let exit_loop = at.exit_loop || contains_exit(&body);
                    let body = self.block(body, Scope { divergent, exit_loop, ..inner });
                    out.push(Stmt::Loop { trips, do_while, body });
                }
                Stmt::Exit { guard, .. } => {
                    self.nested_exit_seen |= at.depth > 0;
                    out.push(Stmt::Exit { guard, id: self.exits });
                    self.exits += 1;
                }
                Stmt::Ballot { .. } | Stmt::Vote { .. } | Stmt::Activemask { .. } => {
                    if !self.nested_exit_seen && !at.exit_loop {
                        out.push(s);
                    }
                }
                Stmt::Bar { src, dst, shift, .. } => {
                    if !at.divergent && !at.exit_loop && !self.nested_exit_seen && self.bars < MAX_BARS {
                        out.push(Stmt::Bar { src, dst, shift, region: self.bars });
                        self.bars += 1;
                    }
                }
                other => out.push(other),
            }
        }
        out
    }
}
