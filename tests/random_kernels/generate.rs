//! proptest strategies for [`Program`]s, launch shapes and input data.
//!
//! Operations are drawn only with the types PTX (and ptxas) allow for them, immediates
//! favour the values where integer semantics have edges, and at most one source of an
//! instruction is an immediate. Compound statements nest up to [`MAX_DEPTH`] deep.
//! Besides statements drawn one by one (barriers, shared-memory stores and loads and
//! warp-synchronous instructions anywhere, which [`finalize`] balances), two templates
//! put synchronisation in divergent code on purpose: [`sync_if`], an `if` on lane data
//! whose sides meet the same barriers, exchanges and warp-synchronous instructions with
//! their own instructions and operands, and [`tile_if`], a branch uniform across tiles
//! whose sides use the tile as member mask. The drawn body goes through [`finalize`], so
//! shrinking never produces an ill-defined program.

use super::program::*;
use super::reference::Shape;
use proptest::prelude::*;

/// Values where integer semantics have edges.
#[rustfmt::skip]
pub const BOUNDARY: &[u32] = &[
    0, 1, 2, 7, 31, 32, 33, 63, 0x7fff, 0x8000, 0xffff, 0x1_0000,
    0x7fff_ffff, 0x8000_0000, 0x8000_0001, 0xffff_fffe, 0xffff_ffff,
];

fn reg() -> impl Strategy<Value = u8> {
    0..NREG
}

fn pred() -> impl Strategy<Value = u8> {
    0..NPRED
}

fn pred_ref() -> impl Strategy<Value = PredRef> {
    (pred(), any::<bool>()).prop_map(|(idx, neg)| PredRef { idx, neg })
}

fn psrc() -> impl Strategy<Value = PSrc> {
    let lit = prop_oneof![
        (0i8..=2, any::<bool>()).prop_map(|(value, neg)| PSrc::Lit { value, neg }),
        Just(PSrc::Lit { value: -1, neg: false }),
    ];
    prop_oneof![6 => pred_ref().prop_map(PSrc::Reg), 1 => lit]
}

fn guard() -> impl Strategy<Value = Guard> {
    prop::option::weighted(0.3, pred_ref())
}

pub fn imm() -> impl Strategy<Value = u32> {
    prop_oneof![3 => prop::sample::select(BOUNDARY), 2 => 0u32..40, 2 => any::<u32>()]
}

fn opnd() -> impl Strategy<Value = Opnd> {
    prop_oneof![3 => reg().prop_map(Opnd::Reg), 1 => imm().prop_map(Opnd::Imm)]
}

/// Two sources with at most one immediate, on either side.
fn two_sources() -> impl Strategy<Value = (Opnd, Opnd)> {
    prop_oneof![
        4 => (reg().prop_map(Opnd::Reg), opnd()),
        1 => (imm().prop_map(Opnd::Imm), reg().prop_map(Opnd::Reg)),
    ]
}

fn int_ty() -> impl Strategy<Value = Ty> {
    prop_oneof![Just(Ty::U32), Just(Ty::S32)]
}

fn any_ty() -> impl Strategy<Value = Ty> {
    prop_oneof![Just(Ty::B32), Just(Ty::U32), Just(Ty::S32)]
}

/// An operation with a type PTX allows for it.
fn bin_op() -> impl Strategy<Value = (BinOp, Ty)> {
    let arith = prop::sample::select(vec![
        BinOp::Add,
        BinOp::Sub,
        BinOp::MulLo,
        BinOp::MulHi,
        BinOp::Min,
        BinOp::Max,
        BinOp::Div,
        BinOp::Rem,
    ]);
    let bits = prop::sample::select(vec![BinOp::And, BinOp::Or, BinOp::Xor, BinOp::Shl]);
    prop_oneof![
        4 => (arith, int_ty()),
        2 => bits.prop_map(|op| (op, Ty::B32)),
        2 => any_ty().prop_map(|ty| (BinOp::Shr, ty)),
    ]
}

fn un_op() -> impl Strategy<Value = (UnOp, Ty)> {
    prop_oneof![
        Just((UnOp::Not, Ty::B32)),
        Just((UnOp::Neg, Ty::S32)),
        Just((UnOp::Abs, Ty::S32)),
        any_ty().prop_map(|ty| (UnOp::Mov, ty)),
    ]
}

/// A comparison with a type PTX allows for it (ptxas: bit types only eq/ne, signed
/// types no lo/ls/hi/hs).
fn cmp() -> impl Strategy<Value = (CmpOp, Ty)> {
    use CmpOp::*;
    prop_oneof![
        prop::sample::select(vec![Eq, Ne]).prop_map(|c| (c, Ty::B32)),
        prop::sample::select(vec![Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs]).prop_map(|c| (c, Ty::U32)),
        prop::sample::select(vec![Eq, Ne, Lt, Le, Gt, Ge]).prop_map(|c| (c, Ty::S32)),
    ]
}

fn bool_op() -> impl Strategy<Value = BoolOp> {
    prop_oneof![Just(BoolOp::And), Just(BoolOp::Or), Just(BoolOp::Xor)]
}

/// `setp` writing `p`, `p|q` (q another predicate) or `_|q`.
pub fn setp(p: impl Strategy<Value = u8>) -> impl Strategy<Value = Stmt> {
    let dst = prop_oneof![
        6 => Just((true, None)),
        3 => (1..NPRED).prop_map(|k| (true, Some(k))),
        1 => (1..NPRED).prop_map(|k| (false, Some(k))),
    ];
    let combine = prop::option::weighted(0.3, (bool_op(), pred_ref()));
    (cmp(), p, dst, two_sources(), combine, guard()).prop_map(
        |((cmp, ty), p, (keep_p, q), (a, b), combine, guard)| {
            Stmt::Setp {
                cmp,
                ty,
                p: keep_p.then_some(p),
                q: q.map(|k| (p + k) % NPRED),
                a,
                b,
                combine,
                // ptxas 13.5 crashes (SIGSEGV) on a guarded `setp` into `_|q`, so no oracle
                // could confirm that form is valid; it is generated unguarded only.
                guard: guard.filter(|_| keep_p),
            }
        },
    )
}

fn width() -> impl Strategy<Value = u32> {
    prop_oneof![6 => Just(32u32), 1 => Just(16u32), 1 => Just(8u32), 1 => Just(4u32)]
}

/// Which warp-synchronous instruction: what lanes that meet must agree on.
#[derive(Clone, Copy, Debug)]
enum WarpKind {
    Ballot,
    Vote(VoteMode),
    Shfl(ShflMode),
    BarWarp,
    MatchAny,
    Redux(ReduxOp, Ty),
}

fn warp_kind() -> impl Strategy<Value = WarpKind> {
    let vote = prop_oneof![Just(VoteMode::Any), Just(VoteMode::All), Just(VoteMode::Uni)];
    let shfl =
        prop_oneof![Just(ShflMode::Up), Just(ShflMode::Down), Just(ShflMode::Bfly), Just(ShflMode::Idx)];
    let arith = (prop_oneof![Just(ReduxOp::Add), Just(ReduxOp::Min), Just(ReduxOp::Max)], int_ty());
    let bits = prop_oneof![Just(ReduxOp::And), Just(ReduxOp::Or), Just(ReduxOp::Xor)];
    prop_oneof![
        2 => Just(WarpKind::Ballot),
        2 => vote.prop_map(WarpKind::Vote),
        5 => shfl.prop_map(WarpKind::Shfl),
        1 => Just(WarpKind::BarWarp),
        2 => Just(WarpKind::MatchAny),
        2 => arith.prop_map(|(op, ty)| WarpKind::Redux(op, ty)),
        1 => bits.prop_map(|op| WarpKind::Redux(op, Ty::B32)),
    ]
}

/// `shfl.sync`'s `c`: a segment mask for segments of 32, 16, 8, 4 or 2 lanes and a clamp
/// value (nvcc's forms: the segment's last lane, 0 for `up`), sometimes another clamp.
fn shfl_c(mode: ShflMode) -> impl Strategy<Value = u32> {
    let seg = prop::sample::select(vec![32u32, 32, 16, 8, 4, 2]);
    let clamp = prop_oneof![3 => Just(if mode == ShflMode::Up { 0u32 } else { 31 }), 1 => 0u32..32];
    (seg, clamp).prop_map(|(seg, clamp)| ((32 - seg) << 8) | clamp)
}

/// An instruction of kind `kind` with drawn operands.
fn warp_op_of(kind: WarpKind) -> BoxedStrategy<WarpOp> {
    match kind {
        WarpKind::Ballot => (reg(), psrc()).prop_map(|(d, p)| WarpOp::Ballot { d, p }).boxed(),
        WarpKind::Vote(mode) => (pred(), psrc()).prop_map(move |(d, p)| WarpOp::Vote { mode, d, p }).boxed(),
        WarpKind::Shfl(mode) => {
            // The lane or offset: small immediates, one past the segment, or a register
            // (lane-dependent: each lane names its own source).
            let b = prop_oneof![
                3 => (0u32..32).prop_map(Opnd::Imm),
                1 => prop::sample::select(vec![32u32, 33, 0xffff_ffff]).prop_map(Opnd::Imm),
                2 => reg().prop_map(Opnd::Reg),
            ];
            (reg(), reg(), b, shfl_c(mode), prop::option::weighted(0.3, pred()))
                .prop_map(move |(d, a, b, c, q)| WarpOp::Shfl { mode, d, a, b, c, q })
                .boxed()
        }
        WarpKind::BarWarp => Just(WarpOp::BarWarp).boxed(),
        WarpKind::MatchAny => (reg(), reg()).prop_map(|(d, a)| WarpOp::MatchAny { d, a }).boxed(),
        WarpKind::Redux(op, ty) => {
            (reg(), reg()).prop_map(move |(d, a)| WarpOp::Redux { op, ty, d, a }).boxed()
        }
    }
}

fn warp_sync() -> impl Strategy<Value = Stmt> {
    (warp_kind().prop_flat_map(warp_op_of), width()).prop_map(|(op, width)| Stmt::WarpSync { op, width })
}

fn shift() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), 1u32..40, Just(31), Just(32), Just(33)]
}

/// A statement without compound statements inside. With `sync`, also the
/// synchronisation of issue 7 (warp-synchronous instructions, barriers, shared-memory
/// stores and loads anywhere); without, only `Bar` exchanges, mostly at the top level.
fn leaf(top: bool, sync: bool) -> BoxedStrategy<Stmt> {
    let bin = (bin_op(), reg(), two_sources(), guard()).prop_map(|((op, ty), d, (a, b), guard)| Stmt::Bin {
        op,
        ty,
        d,
        a,
        b,
        guard,
    });
    let un = (un_op(), reg(), opnd(), guard()).prop_map(|((op, ty), d, a, guard)| Stmt::Un {
        op,
        ty,
        d,
        a,
        guard,
    });
    let mad = (any::<bool>(), int_ty(), reg(), two_sources(), opnd(), guard())
        .prop_map(|(hi, ty, d, (a, b), c, guard)| Stmt::Mad { hi, ty, d, a, b, c, guard });
    let selp = (any_ty(), reg(), two_sources(), pred_ref(), guard())
        .prop_map(|(ty, d, (a, b), c, guard)| Stmt::Selp { ty, d, a, b, c, guard });
    let pred_op = prop::sample::select(vec![PredOp::And, PredOp::Or, PredOp::Xor, PredOp::Not, PredOp::Mov]);
    let logic = (pred_op, pred(), psrc(), psrc(), guard()).prop_map(|(op, d, a, b, guard)| Stmt::PredLogic {
        op,
        d,
        a,
        b,
        guard,
    });
    let exit = prop::option::weighted(0.85, pred_ref()).prop_map(|guard| Stmt::Exit { guard, id: 0 });
    let ballot = (reg(), psrc()).prop_map(|(d, p)| Stmt::Ballot { d, p });
    let vote_mode = prop_oneof![Just(VoteMode::Any), Just(VoteMode::All), Just(VoteMode::Uni)];
    let vote = (vote_mode, pred(), psrc()).prop_map(|(mode, d, p)| Stmt::Vote { mode, d, p });
    let activemask = reg().prop_map(|d| Stmt::Activemask { d });
    let bar = (reg(), reg(), shift(), 0..REGIONS).prop_map(|(src, dst, shift, region)| Stmt::Bar {
        src,
        dst,
        shift,
        region,
    });
    let barrier = any::<bool>().prop_map(|aligned| Stmt::Barrier { aligned, count: false });
    let store = (reg(), 0..REGIONS).prop_map(|(src, region)| Stmt::StShared { src, region });
    let load = (reg(), shift(), 0..REGIONS).prop_map(|(dst, shift, region)| Stmt::LdShared {
        dst,
        shift,
        region,
        id: 0,
    });
    let plain = prop_oneof![
        12 => bin,
        3 => un,
        3 => mad,
        3 => selp,
        5 => setp(pred()),
        3 => logic,
        1 => exit,
        2 => ballot,
        1 => vote,
        1 => activemask,
    ];
    if !sync {
        let weight = if top { 17 } else { 20 };
        return prop_oneof![weight => plain, 1 => bar].boxed();
    }
    // `Bar` exchanges mostly at the top level; barriers mostly in divergent code.
    let (bar_weight, barrier_weight) = if top { (2, 1) } else { (1, 2) };
    prop_oneof![
        34 => plain,
        2 => warp_sync(),
        1 => store,
        1 => load,
        bar_weight => bar,
        barrier_weight => barrier,
    ]
    .boxed()
}

/// One synchronisation point of a [`sync_if`]: both sides meet one of these.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Barrier,
    Warp(WarpKind, u32),
    /// Store, barrier, load of the region, barrier.
    Exchange(u32),
}

/// The statements of one side of a [`sync_if`] for `slots`, with other statements
/// before each, sometimes a guarded `exit` (so lanes end while others wait for them):
/// each side meets the same synchronisation with its own instructions and operands.
fn sync_side(slots: Vec<Slot>, sub: &BoxedStrategy<Stmt>) -> BoxedStrategy<Vec<Stmt>> {
    let parts: Vec<BoxedStrategy<Vec<Stmt>>> = slots
        .into_iter()
        .map(|slot| {
            let exit = pred_ref().prop_map(|p| Stmt::Exit { guard: Some(p), id: 0 });
            let before = (prop::collection::vec(sub.clone(), 0..=2), prop::option::weighted(0.08, exit))
                .prop_map(|(mut v, exit)| {
                    v.extend(exit);
                    v
                });
            let point: BoxedStrategy<Vec<Stmt>> = match slot {
                Slot::Barrier => Just(vec![Stmt::Barrier { aligned: false, count: false }]).boxed(),
                Slot::Warp(kind, width) => {
                    warp_op_of(kind).prop_map(move |op| vec![Stmt::WarpSync { op, width }]).boxed()
                }
                Slot::Exchange(region) => (reg(), reg(), shift(), prop::collection::vec(sub.clone(), 0..=1))
                    .prop_map(move |(src, dst, shift, middle)| {
                        let mut v = vec![Stmt::StShared { src, region }];
                        v.extend(middle);
                        v.push(Stmt::Barrier { aligned: false, count: false });
                        v.push(Stmt::LdShared { dst, shift, region, id: 0 });
                        v.push(Stmt::Barrier { aligned: false, count: false });
                        v
                    })
                    .boxed(),
            };
            (before, point)
                .prop_map(|(mut v, p)| {
                    v.extend(p);
                    v
                })
                .boxed()
        })
        .collect();
    parts.prop_map(|parts| parts.concat()).boxed()
}

/// An `if` on lane data whose two sides meet the same barriers, shared-memory exchanges
/// and warp-synchronous instructions at different instructions.
fn sync_if(sub: BoxedStrategy<Stmt>) -> BoxedStrategy<Stmt> {
    let slot = prop_oneof![
        2 => Just(Slot::Barrier),
        4 => (warp_kind(), width()).prop_map(|(k, w)| Slot::Warp(k, w)),
        2 => (0..REGIONS).prop_map(Slot::Exchange),
    ];
    (pred_ref(), prop::collection::vec(slot, 1..=3))
        .prop_flat_map(move |(cond, slots)| {
            (Just(cond), sync_side(slots.clone(), &sub), sync_side(slots, &sub))
        })
        .prop_map(|(cond, then, els)| Stmt::If { cond, then, els })
        .boxed()
}

/// A branch uniform across tiles of `width` lanes, whose sides hold instructions with
/// that tile as member mask.
fn tile_if(sub: BoxedStrategy<Stmt>) -> BoxedStrategy<Stmt> {
    let side = move |width: u32| {
        let op = warp_kind().prop_flat_map(warp_op_of).prop_map(move |op| Stmt::WarpSync { op, width });
        (prop::collection::vec(sub.clone(), 0..=3), op, prop::collection::vec(sub.clone(), 0..=2)).prop_map(
            |(mut a, op, b)| {
                a.push(op);
                a.extend(b);
                a
            },
        )
    };
    let widths = prop_oneof![Just(4u32), Just(8u32), Just(16u32), Just(32u32)];
    (widths, reg(), 0u8..6)
        .prop_flat_map(move |(width, reg, bit)| {
            (Just((width, reg, bit)), side(width), prop::option::weighted(0.7, side(width)))
        })
        .prop_map(|((width, reg, bit), then, els)| Stmt::TileIf {
            width,
            reg,
            bit,
            then,
            els: els.unwrap_or_default(),
        })
        .boxed()
}

/// A statement with at most `depth` levels of compound statements inside.
fn stmt(depth: u32, top: bool, sync: bool) -> BoxedStrategy<Stmt> {
    if depth == 0 {
        return leaf(top, sync);
    }
    let sub = stmt(depth - 1, false, sync);
    let inner = || prop::collection::vec(sub.clone(), 0..=5);
    let if_ = (pred_ref(), inner(), prop::option::weighted(0.5, inner()))
        .prop_map(|(cond, then, els)| Stmt::If { cond, then, els: els.unwrap_or_default() });
    let trips = prop_oneof![
        2 => (reg(), 0u32..=7).prop_map(|(reg, mask)| Trips::Lanes { reg, mask }),
        1 => (0u32..=4).prop_map(Trips::Uniform),
    ];
    let loop_ = (trips, any::<bool>(), inner()).prop_map(|(trips, do_while, body)| Stmt::Loop {
        trips,
        do_while,
        body,
        pad: Vec::new(),
    });
    if !sync {
        return prop_oneof![12 => leaf(top, sync), 3 => if_, 2 => loop_].boxed();
    }
    prop_oneof![12 => leaf(top, sync), 3 => if_, 2 => loop_, 1 => tile_if(sub.clone()), 2 => sync_if(sub)]
        .boxed()
}

fn init() -> impl Strategy<Value = Init> {
    prop_oneof![
        8 => Just(Init::Input),
        1 => Just(Init::TidX),
        1 => Just(Init::TidY),
        1 => Just(Init::TidZ),
        2 => Just(Init::Linear),
        2 => Just(Init::Lane),
        1 => Just(Init::CtaX),
        1 => Just(Init::CtaY),
        1 => Just(Init::Gtid),
        1 => imm().prop_map(Init::Imm),
    ]
}

pub fn program() -> impl Strategy<Value = Program> {
    let preds = (0..NPRED).map(|k| setp(Just(k)).boxed()).collect::<Vec<_>>();
    (
        prop::collection::vec(init(), NREG as usize),
        preds,
        // A third of the programs as before issue 7, where votes over the active mask
        // and aligned barriers survive more often.
        prop_oneof![
            1 => prop::collection::vec(stmt(MAX_DEPTH, true, false), 1..=24),
            // Fewer statements: their templates are larger.
            2 => prop::collection::vec(stmt(MAX_DEPTH, true, true), 1..=16),
        ],
        // Barriers with a thread count (kept only in programs without exits).
        prop::bool::weighted(0.75),
    )
        .prop_map(|(init, pred_init, body, count_form)| {
            // Predicate initialisation writes each predicate from registers only: no
            // sink, no guard, no combine yet.
            let pred_init = pred_init
                .into_iter()
                .enumerate()
                .map(|(k, s)| match s {
                    Stmt::Setp { cmp, ty, q, a, b, .. } => {
                        Stmt::Setp { cmp, ty, p: Some(k as u8), q, a, b, combine: None, guard: None }
                    }
                    other => other,
                })
                .collect();
            Program { init, pred_init, body: finalize(body, count_form) }
        })
}

pub fn shape() -> impl Strategy<Value = Shape> {
    let block = prop_oneof![
        // One row of 33-100 threads: the last warp is partial.
        4 => (33u32..=100).prop_map(|x| [x, 1, 1]),
        // A single partial warp.
        1 => (1u32..=32).prop_map(|x| [x, 1, 1]),
        // Rows and planes that do not line up with warps.
        2 => (5u32..=40, 2u32..=3).prop_map(|(x, y)| [x, y, 1]),
        1 => (3u32..=12, 1u32..=3, 2u32..=3).prop_map(|(x, y, z)| [x, y, z]),
        1 => Just([64, 2, 1]),
        // Up to the largest block.
        1 => (129u32..=MAX_THREADS).prop_map(|x| [x, 1, 1]),
    ];
    let grid =
        prop_oneof![3 => (1u32..=3).prop_map(|x| [x, 1, 1]), 1 => Just([1, 2, 1]), 1 => Just([2, 1, 2])];
    (grid, block).prop_map(|(grid, block)| Shape { grid, block })
}

/// Input words from a seed: mostly boundary values and small numbers, some arbitrary.
pub fn input(seed: u64, len: usize) -> Vec<u32> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            match z % 8 {
                0 | 1 => BOUNDARY[(z >> 8) as usize % BOUNDARY.len()],
                2 | 3 => (z >> 8) as u32 % 40,
                _ => (z >> 32) as u32,
            }
        })
        .collect()
}
