//! What the generated programs contain: counts of the synchronisation in divergent code
//! that issue 7 asks the generator for, so a test can check that it really occurs.

use super::program::*;

/// Features of one finalized program.
#[derive(Clone, Copy, Debug, Default)]
pub struct Census {
    /// A barrier inside a branch on lane data or a tile branch, or a lane-dependent loop.
    pub divergent_barrier: bool,
    /// A branch on lane data with a barrier on both sides.
    pub barrier_both_sides: bool,
    /// A branch on lane data whose sides both store to shared memory, wait at a barrier
    /// and load from it.
    pub exchange_both_sides: bool,
    /// A warp-synchronous instruction wider than the lanes surely there with it.
    pub divergent_warp_sync: bool,
    /// A branch on lane data with a full-mask warp-synchronous instruction on both sides.
    pub warp_sync_both_sides: bool,
    /// A tile-mask warp-synchronous instruction in a branch on lane data.
    pub divergent_tile_sync: bool,
    /// A branch uniform across tiles of fewer than 32 lanes that holds a tile-mask
    /// instruction.
    pub tile_branch: bool,
    /// A lane-dependent loop that synchronises (so it has a `pad` loop).
    pub sync_in_lane_loop: bool,
    /// A barrier or warp-synchronous instruction after an `exit` or `ret` (in program
    /// order).
    pub sync_after_exit: bool,
    /// A branch on lane data with an `exit` or `ret` and synchronisation after it on one
    /// side: the other side's lanes may wait for lanes that end.
    pub exit_in_sync_branch: bool,
    /// `barrier.sync 0, %nbar`.
    pub counted_barrier: bool,
    /// `bar.sync` (aligned).
    pub aligned_barrier: bool,
    /// A vote over the active mask (the kind that existed before).
    pub activemask_vote: bool,
    /// Warp-synchronous instructions by [`WarpOp::key`]'s first half:
    /// ballot, vote, shfl, bar.warp.sync, match.any, redux.
    pub kinds: [bool; 6],
}

impl Census {
    /// Each feature by name.
    pub fn features(&self) -> Vec<(&'static str, bool)> {
        let mut v = vec![
            ("barrier in divergent code", self.divergent_barrier),
            ("barrier on both sides of a lane branch", self.barrier_both_sides),
            ("shared-memory exchange on both sides", self.exchange_both_sides),
            ("warp-sync wider than the lanes surely there", self.divergent_warp_sync),
            ("full-mask warp-sync on both sides", self.warp_sync_both_sides),
            ("tile-mask warp-sync in a lane branch", self.divergent_tile_sync),
            ("tile branch with tile-mask warp-sync", self.tile_branch),
            ("lane-dependent loop that synchronises", self.sync_in_lane_loop),
            ("synchronisation after exit/ret", self.sync_after_exit),
            ("exit/ret before synchronisation in a lane branch", self.exit_in_sync_branch),
            ("barrier.sync with a thread count", self.counted_barrier),
            ("bar.sync (aligned)", self.aligned_barrier),
            ("vote over the active mask", self.activemask_vote),
        ];
        let names = [
            "vote.sync.ballot",
            "vote.sync.any/all/uni",
            "shfl.sync",
            "bar.warp.sync",
            "match.any.sync",
            "redux.sync",
        ];
        v.extend(names.into_iter().zip(self.kinds));
        v
    }

    pub fn of(p: &Program) -> Census {
        let mut c = Census::default();
        let mut exit_seen = false;
        c.block(&p.body, CTA, &mut exit_seen);
        c
    }

    fn block(&mut self, stmts: &[Stmt], uniform: u32, exit_seen: &mut bool) {
        for s in stmts {
            match s {
                Stmt::If { then, els, .. } => {
                    let both = |f: &dyn Fn(&Stmt) -> bool| any(then, f) && any(els, f);
                    self.barrier_both_sides |= both(&|s| matches!(s, Stmt::Barrier { .. }));
                    self.warp_sync_both_sides |= both(&|s| matches!(s, Stmt::WarpSync { width: 32, .. }));
                    self.exchange_both_sides |= both(&|s| matches!(s, Stmt::StShared { .. }))
                        && both(&|s| matches!(s, Stmt::LdShared { .. }))
                        && both(&|s| matches!(s, Stmt::Barrier { .. }));
                    self.exit_in_sync_branch |= exit_then_sync(then) || exit_then_sync(els);
                    self.block(then, 1, exit_seen);
                    self.block(els, 1, exit_seen);
                }
                Stmt::TileIf { width, then, els, .. } => {
                    let tile_op = |s: &Stmt| matches!(s, Stmt::WarpSync { width: w, .. } if *w <= *width);
                    self.tile_branch |= *width < 32 && (any(then, &tile_op) || any(els, &tile_op));
                    self.block(then, *width, exit_seen);
                    self.block(els, *width, exit_seen);
                }
                Stmt::Loop { trips, body, pad, .. } => {
                    let lanes = matches!(trips, Trips::Lanes { .. });
                    self.sync_in_lane_loop |= !pad.is_empty();
                    let inner = if lanes { 1 } else { uniform };
                    self.block(body, inner, exit_seen);
                    self.block(pad, inner, exit_seen);
                }
                Stmt::Exit { .. } => *exit_seen = true,
                Stmt::Barrier { aligned, count } => {
                    self.divergent_barrier |= uniform < CTA;
                    self.sync_after_exit |= *exit_seen;
                    self.counted_barrier |= *count;
                    self.aligned_barrier |= *aligned;
                }
                Stmt::WarpSync { op, width } => {
                    self.divergent_warp_sync |= *width > uniform;
                    self.divergent_tile_sync |= *width < 32 && uniform == 1;
                    self.sync_after_exit |= *exit_seen;
                    self.kinds[op.key().0 as usize] = true;
                }
                Stmt::Ballot { .. } | Stmt::Vote { .. } | Stmt::Activemask { .. } => {
                    self.activemask_vote = true
                }
                _ => {}
            }
        }
    }
}

/// Whether `f` holds for a statement of `stmts`, at any depth.
fn any(stmts: &[Stmt], f: &dyn Fn(&Stmt) -> bool) -> bool {
    stmts.iter().any(|s| {
        f(s) || match s {
            Stmt::If { then, els, .. } | Stmt::TileIf { then, els, .. } => any(then, f) || any(els, f),
            Stmt::Loop { body, pad, .. } => any(body, f) || any(pad, f),
            _ => false,
        }
    })
}

/// Whether `stmts` (one side of a branch) hold an `exit` with synchronisation after it.
fn exit_then_sync(stmts: &[Stmt]) -> bool {
    let sync = |s: &Stmt| matches!(s, Stmt::Barrier { .. } | Stmt::WarpSync { .. });
    stmts.iter().position(|s| matches!(s, Stmt::Exit { .. })).is_some_and(|k| any(&stmts[k + 1..], &sync))
}
