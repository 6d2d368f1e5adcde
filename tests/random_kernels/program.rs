//! The structured programs the property test runs: 8 `b32` registers and 4 predicates
//! per thread, and a tree of statements.
//!
//! Statements are straight-line integer instructions (each maybe guarded by `@%p` /
//! `@!%p`), `setp`, predicate logic, `if`/`else` on a predicate, `if`/`else` on a value
//! that is uniform across tiles of 4-32 lanes, counted loops whose trip count comes from
//! a register (so it differs between lanes), guarded `exit`, the warp votes over the
//! active mask (`activemask`, `vote.sync` with it as member mask), and synchronisation
//! that may sit in divergent code: `barrier.sync` (non-aligned, with or without a thread
//! count) or `bar.sync`, shared-memory stores and loads exchanged across them, and the
//! warp-synchronous instructions (`vote.sync`, `shfl.sync`, `bar.warp.sync`,
//! `match.any.sync`, `redux.sync`) with a full or a tile member mask. The tree is
//! structured so that the reference (`reference.rs`) runs it without a CFG; `emit.rs`
//! writes it as PTX with labels and `generate.rs` holds the proptest strategies.
//!
//! [`finalize`] rebalances and drops what would make a program's result ill-defined
//! (see there), so every generated and every shrunk program is a valid kernel with one
//! right answer.

use std::collections::BTreeSet;

pub const NREG: u8 = 8;
pub const NPRED: u8 = 4;
/// Compound statements (if, loop) nest at most this deep.
pub const MAX_DEPTH: u32 = 3;
/// Shared-memory regions (of [`MAX_THREADS`] words, one per thread).
pub const REGIONS: u32 = 6;
/// [`Stmt::Bar`] exchanges kept per program.
pub const MAX_BARS: u32 = 4;
/// Other barriers kept per program (padding added by [`finalize`] comes on top).
pub const MAX_BARRIERS: u32 = 8;
/// Threads per block at most (the shared regions are this many words).
pub const MAX_THREADS: u32 = 1024;
/// The scope of a barrier and the uniformity of code outside divergent branches: wider
/// than any tile of lanes.
pub const CTA: u32 = 1 << 16;
/// A loop with a lane-dependent trip count that holds synchronisation runs at most this
/// many times (its trip mask is cut down to it), which bounds the padding.
pub const SYNC_LOOP_MASK: u32 = 3;

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

/// `shfl.sync` modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// `redux.sync` operations: `add`, `min` and `max` as `.u32` or `.s32`, the bitwise ones
/// as `.b32` (the types ptxas accepts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// A warp-synchronous instruction; the statement that holds it gives the member mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// `vote.sync.ballot.b32 %r{d}, p, mask`
    Ballot { d: u8, p: PSrc },
    /// `vote.sync.MODE.pred %p{d}, p, mask`
    Vote { mode: VoteMode, d: u8, p: PSrc },
    /// `shfl.sync.MODE.b32 %t|%q, %r{a}, b, c, mask`, after a `vote.sync.ballot` of the
    /// same mask that tells which lanes take part. The value of a source lane that does not
    /// take part (outside the mask, exited, past the end of the block) is undefined, so
    /// `r[d]` gets the shuffled value only when the source lane is in range and takes part,
    /// and the lane's own `r[a]` otherwise. `p[q]` gets the in-range bit.
    Shfl { mode: ShflMode, d: u8, a: u8, b: Opnd, c: u32, q: Option<u8> },
    /// `bar.warp.sync mask`
    BarWarp,
    /// `match.any.sync.b32 %r{d}, %r{a}, mask`
    MatchAny { d: u8, a: u8 },
    /// `redux.sync.OP.TY %r{d}, %r{a}, mask`
    Redux { op: ReduxOp, ty: Ty, d: u8, a: u8 },
}

impl WarpOp {
    /// What the lanes that meet at a warp-synchronous instruction must agree on: the
    /// instruction and its qualifiers. Operands and destinations may differ.
    pub fn key(&self) -> (u8, u8) {
        match *self {
            WarpOp::Ballot { .. } => (0, 0),
            WarpOp::Vote { mode, .. } => (1, mode as u8),
            WarpOp::Shfl { mode, .. } => (2, mode as u8),
            WarpOp::BarWarp => (3, 0),
            WarpOp::MatchAny { .. } => (4, 0),
            WarpOp::Redux { op, ty, .. } => (5, op as u8 * 4 + ty as u8),
        }
    }

    /// The same instruction with other registers: what [`finalize`] puts in the other
    /// side of a branch so that every lane meets it.
    fn pad(self) -> WarpOp {
        let d = |r: u8| (r + 1) % NREG;
        let a = |r: u8| (r + 3) % NREG;
        match self {
            WarpOp::Ballot { d: x, p } => WarpOp::Ballot { d: d(x), p },
            WarpOp::Vote { mode, d: x, p } => WarpOp::Vote { mode, d: (x + 1) % NPRED, p },
            WarpOp::Shfl { mode, d: x, a: y, b, c, q } => WarpOp::Shfl { mode, d: d(x), a: a(y), b, c, q },
            WarpOp::BarWarp => WarpOp::BarWarp,
            WarpOp::MatchAny { d: x, a: y } => WarpOp::MatchAny { d: d(x), a: a(y) },
            WarpOp::Redux { op, ty, d: x, a: y } => WarpOp::Redux { op, ty, d: d(x), a: a(y) },
        }
    }
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
    /// `if` on bit `bit` of the xor of `r[reg]` over the lane's tile of `width` lanes
    /// (`redux.sync.xor.b32` with the tile as member mask), so each tile goes one way.
    /// Only where every lane of a tile is there together ([`finalize`] turns it into an
    /// `if` on a predicate elsewhere).
    TileIf {
        width: u32,
        reg: u8,
        bit: u8,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// Runs `body` `trips` times (at least once when `do_while`). When `pad` is not empty
    /// (set by [`finalize`] for a lane-dependent loop that synchronises) a second loop
    /// runs it `total - trips` times, `total` being the most trips any lane can have, so
    /// every lane meets the same synchronisation the same number of times.
    Loop {
        trips: Trips,
        do_while: bool,
        body: Vec<Stmt>,
        pad: Vec<Stmt>,
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
    /// Generated only: every thread stores `r[src]` to its word of shared region
    /// `region`, a barrier, it loads the word of thread `(linear + shift) % threads` into
    /// `r[dst]`, and a second barrier (so a later round in a loop may write the region
    /// again). [`finalize`] writes it out as those four statements.
    Bar {
        src: u8,
        dst: u8,
        shift: u32,
        region: u32,
    },
    /// `barrier.sync 0` (`bar.sync 0` when `aligned`; `barrier.sync 0, %nbar` with the
    /// block's warps times 32 when `count`).
    Barrier {
        aligned: bool,
        count: bool,
    },
    /// A warp-synchronous instruction whose member mask is the lane's tile of `width`
    /// lanes: `0xffffffff` for 32, else `((1 << width) - 1) << (laneid & -width)`.
    WarpSync {
        op: WarpOp,
        width: u32,
    },
    /// `st.shared.u32` of `r[src]` to the thread's word of region `region`.
    StShared {
        src: u8,
        region: u32,
    },
    /// `ld.shared.u32` into `r[dst]` of the word of thread `(linear + shift) % threads` in
    /// region `region` (0 until that thread stores it: the kernel clears the regions
    /// first). `id` is set by [`finalize`].
    LdShared {
        dst: u8,
        shift: u32,
        region: u32,
        id: u32,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub init: Vec<Init>,
    /// Runs first; gives every predicate a value.
    pub pred_init: Vec<Stmt>,
    pub body: Vec<Stmt>,
}

/// Makes a generated (or shrunk) body well-defined, numbers exits and loads, and writes
/// out [`Stmt::Bar`]. Barriers get a thread count when `count_form` and the program has
/// no exit (an exited warp would never arrive to make up the count).
///
/// - Synchronisation balance. Each lane must meet the same sequence of barriers (every
///   non-exited thread of the CTA arrives at one) and of warp-synchronous instructions
///   (every non-exited lane of the member mask executes one with the same qualifiers and
///   mask, not necessarily the same instruction). A branch on lane data may split any
///   group, so after its two sides are built, if their sequences of synchronisation
///   differ, the `then` side gets the `else` side's sequence appended and the `else` side
///   the `then` side's prepended (the same instructions with other registers): both then
///   meet `then ++ else`. A [`Stmt::TileIf`] of width `w` keeps whole tiles together, so
///   only synchronisation wider than `w` needs the balance. A loop with a lane-dependent
///   trip count that synchronises gets a second loop (`pad`) that runs the rest of the
///   most trips, and its trip mask is cut to [`SYNC_LOOP_MASK`]. A lane that exits stops
///   counting, so exits need no balance.
/// - Shared memory. Barriers split the run into phases; with the balance above, the
///   phase a statement runs in depends only on the iterations of enclosing loops, not on
///   the lane. A load that may run in a phase where its region is stored is dropped
///   (threads write only their own word, so stores never race).
/// - Reconvergence and the active mask. Which lanes of a warp execute an `activemask`
///   vote together is fixed by reconvergence at immediate post-dominators, as the
///   reference's lockstep order says, only while nothing has let lanes of a warp go on
///   apart: an `exit` inside an `if` or loop makes the virtual exit the post-dominator of
///   the enclosing branches; a tile warp-synchronous instruction reached by part of a
///   tile lets the lanes whose tiles are complete go on first; a lane-dependent loop that
///   synchronises makes lanes done with it go on alone. Votes after such a statement (in
///   program order), and in a loop that holds one, are dropped. `bar.sync` (aligned) is
///   kept only outside divergence under the same conditions, else it becomes
///   `barrier.sync`.
pub fn finalize(body: Vec<Stmt>, count_form: bool) -> Vec<Stmt> {
    let mut f = Finalizer::default();
    let at = Ctx { depth: 0, uniform: CTA, exit_loop: false, nonconv_loop: false };
    let (body, _) = f.block(body, at);
    let count = count_form && !contains_exit(&body);
    // Loads in a loop that never runs keep no phase.
    let loads = vec![(0, BTreeSet::new()); f.loads as usize];
    let mut phases = Phases { stores: vec![BTreeSet::new(); REGIONS as usize], loads };
    phases.walk(&body, BTreeSet::from([0]));
    let racy: Vec<bool> = phases
        .loads
        .iter()
        .map(|(region, at)| at.intersection(&phases.stores[*region as usize]).next().is_some())
        .collect();
    fix(body, &racy, count)
}

#[derive(Default)]
struct Finalizer {
    nested_exit_seen: bool,
    /// Something let lanes of a warp go on apart (see [`finalize`]).
    apart_seen: bool,
    exits: u32,
    bars: u32,
    barriers: u32,
    loads: u32,
}

/// Where a statement sits.
#[derive(Clone, Copy)]
struct Ctx {
    /// Compound statements around it.
    depth: u32,
    /// The lanes that surely run it together: 1 inside a branch on lane data or a loop
    /// with lane-dependent trips, `w` inside a tile branch of width `w`, else [`CTA`].
    uniform: u32,
    /// Inside a loop that holds an `exit`.
    exit_loop: bool,
    /// Inside a loop that holds something that lets lanes go on apart.
    nonconv_loop: bool,
}

pub fn contains_exit(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Exit { .. } => true,
        Stmt::If { then, els, .. } | Stmt::TileIf { then, els, .. } => {
            contains_exit(then) || contains_exit(els)
        }
        Stmt::Loop { body, .. } => contains_exit(body),
        _ => false,
    })
}

/// Whether `stmts` hold a barrier or a warp-synchronous instruction.
pub fn contains_sync(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Bar { .. } | Stmt::Barrier { .. } | Stmt::WarpSync { .. } | Stmt::TileIf { .. } => true,
        Stmt::If { then, els, .. } => contains_sync(then) || contains_sync(els),
        Stmt::Loop { body, .. } => contains_sync(body),
        _ => false,
    })
}

/// Whether `stmts` may hold something that lets lanes of a warp go on apart: a tile
/// warp-synchronous instruction or a lane-dependent loop that synchronises.
fn may_part(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::WarpSync { width, .. } => *width < 32,
        Stmt::If { then, els, .. } | Stmt::TileIf { then, els, .. } => may_part(then) || may_part(els),
        Stmt::Loop { trips: Trips::Lanes { .. }, body, .. } => contains_sync(body) || may_part(body),
        Stmt::Loop { body, .. } => may_part(body),
        _ => false,
    })
}

/// The scope of a synchronising statement: the lanes it waits for.
fn scope(s: &Stmt) -> u32 {
    match s {
        Stmt::WarpSync { width, .. } => *width,
        _ => CTA,
    }
}

/// What must match between the sides of a branch.
fn sync_key(s: &Stmt) -> Option<(u8, u8, u32)> {
    match s {
        Stmt::Barrier { .. } => Some((9, 0, CTA)),
        Stmt::WarpSync { op, width } => Some((op.key().0, op.key().1, *width)),
        _ => None,
    }
}

fn same_sync(a: &[Stmt], b: &[Stmt]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| sync_key(x) == sync_key(y))
}

/// The statement that meets `s` on the other side of a branch.
fn pad(s: &Stmt) -> Stmt {
    match s {
        Stmt::WarpSync { op, width } => Stmt::WarpSync { op: op.pad(), width: *width },
        _ => Stmt::Barrier { aligned: false, count: false },
    }
}

/// The part of a synchronisation sequence wider than `uniform`.
fn wider(seq: &[Stmt], uniform: u32) -> impl Iterator<Item = Stmt> + '_ {
    seq.iter().filter(move |s| scope(s) > uniform).cloned()
}

impl Finalizer {
    fn converged(&self, at: Ctx) -> bool {
        !self.nested_exit_seen && !self.apart_seen && !at.exit_loop && !at.nonconv_loop
    }

    /// The finalized statements and the sequence of synchronisation each lane meets in
    /// them that is wider than `at.uniform`.
    fn block(&mut self, stmts: Vec<Stmt>, at: Ctx) -> (Vec<Stmt>, Vec<Stmt>) {
        let inner = Ctx { depth: at.depth + 1, ..at };
        let mut out = Vec::with_capacity(stmts.len());
        let mut seq = Vec::new();
        for s in stmts {
            match s {
                Stmt::If { cond, then, els } => {
                    let (then, els, s) = self.branch(then, els, Ctx { uniform: 1, ..inner });
                    out.push(Stmt::If { cond, then, els });
                    seq.extend(wider(&s, at.uniform));
                }
                Stmt::TileIf { width, reg, bit, then, els } => {
                    if at.uniform < width {
                        // Lanes of a tile may be apart here: a branch on a predicate instead.
                        let cond = PredRef { idx: bit % NPRED, neg: reg % 2 == 1 };
                        let (then, els, s) = self.branch(then, els, Ctx { uniform: 1, ..inner });
                        out.push(Stmt::If { cond, then, els });
                        seq.extend(wider(&s, at.uniform));
                    } else {
                        let (then, els, s) = self.branch(then, els, Ctx { uniform: width, ..inner });
                        out.push(Stmt::TileIf { width, reg, bit, then, els });
                        seq.extend(wider(&s, at.uniform));
                    }
                }
                Stmt::Loop { trips, do_while, body, .. } => {
                    let exit_loop = at.exit_loop || contains_exit(&body);
                    match trips {
                        Trips::Uniform(n) => {
                            let nonconv_loop = at.nonconv_loop || may_part(&body);
                            let (body, s) = self.block(body, Ctx { exit_loop, nonconv_loop, ..inner });
                            for _ in 0..if do_while { n.max(1) } else { n } {
                                seq.extend(s.iter().cloned());
                            }
                            out.push(Stmt::Loop { trips, do_while, body, pad: Vec::new() });
                        }
                        Trips::Lanes { reg, mask } => {
                            let nonconv_loop = at.nonconv_loop || contains_sync(&body) || may_part(&body);
                            let ctx = Ctx { uniform: 1, exit_loop, nonconv_loop, ..inner };
                            let (body, s) = self.block(body, ctx);
                            if s.is_empty() {
                                out.push(Stmt::Loop { trips, do_while, body, pad: Vec::new() });
                            } else {
                                let mask = mask & SYNC_LOOP_MASK;
                                let total = if do_while { mask.max(1) } else { mask };
                                for _ in 0..total {
                                    seq.extend(wider(&s, at.uniform));
                                }
                                self.apart_seen = true;
                                let pad = s.iter().map(pad).collect();
                                out.push(Stmt::Loop {
                                    trips: Trips::Lanes { reg, mask },
                                    do_while,
                                    body,
                                    pad,
                                });
                            }
                        }
                    }
                }
                Stmt::Exit { guard, .. } => {
                    self.nested_exit_seen |= at.depth > 0;
                    out.push(Stmt::Exit { guard, id: self.exits });
                    self.exits += 1;
                }
                Stmt::Ballot { .. } | Stmt::Vote { .. } | Stmt::Activemask { .. } => {
                    if self.converged(at) {
                        out.push(s);
                    }
                }
                Stmt::Bar { src, dst, shift, region } => {
                    if self.bars < MAX_BARS {
                        self.bars += 1;
                        let aligned = at.uniform == CTA && self.converged(at);
                        let id = self.loads;
                        self.loads += 1;
                        out.push(Stmt::StShared { src, region });
                        out.push(Stmt::Barrier { aligned, count: false });
                        out.push(Stmt::LdShared { dst, shift, region, id });
                        out.push(Stmt::Barrier { aligned: false, count: false });
                        if at.uniform < CTA {
                            seq.extend([pad(&out[out.len() - 1]), pad(&out[out.len() - 1])]);
                        }
                    }
                }
                Stmt::Barrier { aligned, .. } => {
                    if self.barriers < MAX_BARRIERS {
                        self.barriers += 1;
                        let aligned = aligned && at.uniform == CTA && self.converged(at);
                        out.push(Stmt::Barrier { aligned, count: false });
                        if at.uniform < CTA {
                            seq.push(Stmt::Barrier { aligned: false, count: false });
                        }
                    }
                }
                Stmt::WarpSync { width, .. } => {
                    if width > at.uniform {
                        seq.push(s.clone());
                        if width < 32 {
                            // Part of a tile may be here: the lanes of complete tiles go on first.
                            self.apart_seen = true;
                        }
                    }
                    out.push(s);
                }
                Stmt::LdShared { dst, shift, region, .. } => {
                    out.push(Stmt::LdShared { dst, shift, region, id: self.loads });
                    self.loads += 1;
                }
                other => out.push(other),
            }
        }
        (out, seq)
    }

    /// The two sides of a branch, balanced, and their common synchronisation sequence.
    fn branch(&mut self, then: Vec<Stmt>, els: Vec<Stmt>, arm: Ctx) -> (Vec<Stmt>, Vec<Stmt>, Vec<Stmt>) {
        let (mut then, st) = self.block(then, arm);
        let (els, se) = self.block(els, arm);
        if same_sync(&st, &se) {
            return (then, els, st);
        }
        then.extend(se.iter().map(pad));
        let mut padded: Vec<Stmt> = st.iter().map(pad).collect();
        padded.extend(els);
        let mut seq = st;
        seq.extend(se);
        (then, padded, seq)
    }
}

/// Barriers a lane meets running `stmts` once (the same for every lane: balanced).
fn barriers(stmts: &[Stmt]) -> u32 {
    stmts
        .iter()
        .map(|s| match s {
            Stmt::Barrier { .. } => 1,
            Stmt::If { then, .. } | Stmt::TileIf { then, .. } => barriers(then),
            Stmt::Loop { trips: Trips::Uniform(n), do_while, body, .. } => {
                barriers(body) * if *do_while { (*n).max(1) } else { *n }
            }
            Stmt::Loop { trips: Trips::Lanes { mask, .. }, do_while, body, .. } => {
                barriers(body) * if *do_while { (*mask).max(1) } else { *mask }
            }
            _ => 0,
        })
        .sum()
}

/// The phases (barriers completed since the kernel's first) in which shared memory is
/// stored, per region, and loaded, per load.
struct Phases {
    stores: Vec<BTreeSet<u32>>,
    loads: Vec<(u32, BTreeSet<u32>)>,
}

impl Phases {
    /// Records the statements of `stmts` entered in any phase of `start`; returns the
    /// phases at the end.
    fn walk(&mut self, stmts: &[Stmt], start: BTreeSet<u32>) -> BTreeSet<u32> {
        let shift = |set: &BTreeSet<u32>, by: u32| set.iter().map(|p| p + by).collect::<BTreeSet<u32>>();
        let mut at = start;
        for s in stmts {
            match s {
                Stmt::Barrier { .. } => at = shift(&at, 1),
                Stmt::StShared { region, .. } => self.stores[*region as usize].extend(at.iter().copied()),
                Stmt::LdShared { region, id, .. } => {
                    let id = *id as usize;
                    self.loads[id].0 = *region;
                    self.loads[id].1.extend(at.iter().copied());
                }
                Stmt::If { then, els, .. } | Stmt::TileIf { then, els, .. } => {
                    let end = self.walk(then, at.clone());
                    let other = self.walk(els, at);
                    assert_eq!(end, other, "unbalanced barriers");
                    at = end;
                }
                Stmt::Loop { trips: Trips::Uniform(n), do_while, body, .. } => {
                    for _ in 0..if *do_while { (*n).max(1) } else { *n } {
                        at = self.walk(body, at);
                    }
                }
                Stmt::Loop { trips: Trips::Lanes { mask, .. }, do_while, body, pad } => {
                    // Iteration j of either loop starts in phase `at + j * per`.
                    let per = barriers(body);
                    let total = if *do_while { (*mask).max(1) } else { *mask };
                    for j in 0..total.max(1) {
                        self.walk(body, shift(&at, j * per));
                        self.walk(pad, shift(&at, j * per));
                    }
                    at = shift(&at, total * per);
                }
                _ => {}
            }
        }
        at
    }
}

/// Drops the loads that `racy` names and gives barriers their final form.
fn fix(stmts: Vec<Stmt>, racy: &[bool], count: bool) -> Vec<Stmt> {
    stmts
        .into_iter()
        .filter_map(|s| match s {
            Stmt::LdShared { id, .. } if racy[id as usize] => None,
            Stmt::Barrier { aligned, .. } => Some(Stmt::Barrier { aligned, count: count && !aligned }),
            Stmt::If { cond, then, els } => {
                Some(Stmt::If { cond, then: fix(then, racy, count), els: fix(els, racy, count) })
            }
            Stmt::TileIf { width, reg, bit, then, els } => Some(Stmt::TileIf {
                width,
                reg,
                bit,
                then: fix(then, racy, count),
                els: fix(els, racy, count),
            }),
            Stmt::Loop { trips, do_while, body, pad } => {
                Some(Stmt::Loop { trips, do_while, body: fix(body, racy, count), pad: fix(pad, racy, count) })
            }
            other => Some(other),
        })
        .collect()
}
