//! Which lanes of a warp run where (DESIGN.md, "SIMT model", independent thread
//! scheduling): a warp's lanes form *groups*, each with its own pc, and the groups
//! form a reconvergence tree.
//!
//! A divergent branch turns the running group into a *join* at the branch's
//! reconvergence pc (its immediate post-dominator) and gives it one child group per
//! path; a child whose pc reaches its reconvergence pc leaves the tree and its lanes
//! wait, *done*, in the join. When no child is left the join runs again with every
//! lane. This is the classic SIMT stack, but as a tree, so that any leaf may run: the
//! warp runs one leaf at a time (the newest ready one, which gives the stack's order)
//! and switches when it must wait (at a barrier or a warp-synchronous instruction).
//! A join whose remaining children are all blocked lets its done lanes go on alone
//! ([`Groups::go_alone`]); they meet the others again further out.
//!
//! A call makes the calling group a join at the return pc with one child, the
//! *call node*, running the callee. `ret` takes lanes out of the tree up to the
//! nearest call node, so they wait, done, in the caller's join until every calling
//! lane has returned (or the others are blocked). `exit` takes lanes out of the whole
//! tree: they stop counting anywhere.

/// The reconvergence pc that is never reached: lanes meet only when they leave.
pub const NEVER: u32 = u32::MAX;
/// No node.
pub const NONE: u32 = u32::MAX;

/// What a leaf is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Runnable at its pc.
    Ready,
    /// At CTA barrier `id` (the instruction at its pc) expecting `count` threads
    /// (0: all); `arrived` once its warp has counted there.
    Barrier { id: u8, count: u32, arrived: bool },
    /// At a warp-synchronous instruction, waiting for its member lanes.
    Sync,
    /// Until the mbarrier phase each lane waits for completes (`Warp::mbar_at`,
    /// `Warp::mbar_parity`): at `mbarrier.try_wait`, or (`spin`) just after a
    /// `test_wait` that found it incomplete, where the CTA also wakes it when
    /// nothing else can run (time passes).
    Mbarrier { spin: bool },
    /// At `barrier.cluster.wait`, until the cluster barrier's phase its lanes arrived
    /// in completes (`cluster.rs`).
    Cluster,
}

#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub pc: u32,
    /// Where this group meets its siblings: its parent's pc, or [`NEVER`].
    pub rpc: u32,
    /// Every lane in this subtree, children's and done ones.
    pub mask: u32,
    /// Lanes still in children: a node with none is a leaf.
    pub pending: u32,
    pub parent: u32,
    /// The call frame its lanes run in (the executor's index).
    pub frame: u32,
    /// The first node of a call: `ret` takes lanes out up to here.
    pub call: bool,
    pub wait: Wait,
    /// Scheduling order: the ready leaf with the highest runs first.
    pub seq: u64,
    used: bool,
}

/// The reconvergence tree of one warp (a forest once done lanes go on alone from
/// the outermost join). Nodes live in an arena reused across CTAs.
#[derive(Clone, Debug, Default)]
pub struct Groups {
    nodes: Vec<Node>,
    free: Vec<u32>,
    seq: u64,
    /// The lowest seq handed out, for leaves that yield.
    low: u64,
}

impl Groups {
    /// Starts a warp whose `mask` lanes are at `pc` in `frame`.
    pub fn reset(&mut self, pc: u32, mask: u32, frame: u32) {
        self.nodes.clear();
        self.free.clear();
        self.seq = 1 << 62;
        self.low = self.seq;
        if mask != 0 {
            self.alloc(Node {
                pc,
                rpc: NEVER,
                mask,
                pending: 0,
                parent: NONE,
                frame,
                call: false,
                wait: Wait::Ready,
                seq: 0,
                used: true,
            });
        }
    }

    pub fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    pub fn node_mut(&mut self, i: u32) -> &mut Node {
        &mut self.nodes[i as usize]
    }

    /// Every node in use, as (index, node).
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Node)> {
        self.nodes.iter().enumerate().filter(|(_, n)| n.used).map(|(i, n)| (i as u32, n))
    }

    /// Leaves (groups with a pc of their own), as (index, node).
    pub fn leaves(&self) -> impl Iterator<Item = (u32, &Node)> {
        self.iter().filter(|(_, n)| n.pending == 0)
    }

    /// The tree for [`super::spin::Spin`]: every node but its running order.
    pub fn put_state(&self, out: &mut Vec<u32>) {
        out.push(self.nodes.len() as u32);
        for n in &self.nodes {
            let wait = match n.wait {
                Wait::Ready => [0, 0, 0],
                Wait::Barrier { id, count, arrived } => {
                    [1 | u32::from(arrived) << 1 | u32::from(id) << 8, count, 0]
                }
                Wait::Sync => [4, 0, 0],
                Wait::Mbarrier { spin } => [5 | u32::from(spin) << 1, 0, 0],
                Wait::Cluster => [8, 0, 0],
            };
            out.extend([
                u32::from(n.used) | u32::from(n.call) << 1,
                n.pc,
                n.rpc,
                n.mask,
                n.pending,
                n.parent,
                n.frame,
            ]);
            out.extend(wait);
        }
        out.push(self.free.len() as u32);
        out.extend_from_slice(&self.free);
    }

    /// The leaf to run next: the newest ready one.
    pub fn pick(&self) -> Option<u32> {
        self.leaves().filter(|(_, n)| n.wait == Wait::Ready).max_by_key(|(_, n)| n.seq).map(|(i, _)| i)
    }

    /// Whether any group is left.
    pub fn is_empty(&self) -> bool {
        self.nodes.iter().all(|n| !n.used)
    }

    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Puts leaf `i` last in the running order (`nanosleep`, or a long run while
    /// other groups wait).
    pub fn yield_leaf(&mut self, i: u32) {
        self.low -= 1;
        self.nodes[i as usize].seq = self.low;
    }

    /// Makes a blocked leaf ready again, first in the running order.
    pub fn wake(&mut self, i: u32) {
        let seq = self.next_seq();
        let n = &mut self.nodes[i as usize];
        n.wait = Wait::Ready;
        n.seq = seq;
    }

    fn alloc(&mut self, node: Node) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    fn release(&mut self, i: u32) {
        self.nodes[i as usize].used = false;
        self.free.push(i);
    }

    /// Moves leaf `i` to `pc`. False when it reached its reconvergence point and
    /// left the tree (its lanes wait, done, in its parent).
    pub fn goto(&mut self, i: u32, pc: u32) -> bool {
        self.nodes[i as usize].pc = pc;
        self.settle(i)
    }

    /// A node with no children at its reconvergence pc leaves the tree; its parent
    /// may then become a leaf and leave in turn. True when `i` is still a leaf.
    fn settle(&mut self, i: u32) -> bool {
        let mut i = i;
        let mut first = true;
        loop {
            let n = self.nodes[i as usize];
            if n.pending != 0 {
                return false;
            }
            if n.mask != 0 && n.pc != n.rpc {
                if !first {
                    // A join whose children are all gone runs again.
                    self.wake(i);
                }
                return first;
            }
            self.release(i);
            if n.parent == NONE {
                return false;
            }
            self.nodes[n.parent as usize].pending &= !n.mask;
            i = n.parent;
            first = false;
        }
    }

    /// Splits leaf `i` between `targets` (pc, lanes), which partition its lanes;
    /// the paths meet again at `rpc` ([`NEVER`]: where `i` meets its own siblings).
    /// The paths run in the order given. True when `i` still runs alone (one path).
    pub fn split(&mut self, i: u32, targets: &[(u32, u32)], rpc: u32) -> bool {
        let mut nonempty = targets.iter().filter(|t| t.1 != 0);
        let first = nonempty.next().copied();
        if nonempty.next().is_none() {
            return match first {
                Some((pc, _)) => self.goto(i, pc),
                None => true,
            };
        }
        let n = self.nodes[i as usize];
        let rpc = if rpc == NEVER { n.rpc } else { rpc };
        self.nodes[i as usize].pc = rpc;
        let mut pending = 0;
        for &(pc, mask) in targets.iter().rev() {
            if mask == 0 || pc == rpc {
                continue;
            }
            let seq = self.next_seq();
            self.alloc(Node {
                pc,
                rpc,
                mask,
                pending: 0,
                parent: i,
                frame: n.frame,
                call: false,
                wait: Wait::Ready,
                seq,
                used: true,
            });
            pending |= mask;
        }
        self.nodes[i as usize].pending = pending;
        if pending == 0 {
            self.settle(i);
        }
        false
    }

    /// Leaf `i` parts in two groups that run independently and meet where `i` meets
    /// its siblings: `going` (pc, lanes) ready to run first, and `staying` (pc, lanes),
    /// returned, which the caller marks as waiting. Lanes of `going` already at that
    /// meeting point wait there, done.
    pub fn fork(&mut self, i: u32, going: (u32, u32), staying: (u32, u32)) -> u32 {
        let n = self.nodes[i as usize];
        let rpc = n.rpc;
        let child = |me: &mut Self, (pc, mask): (u32, u32)| {
            let seq = me.next_seq();
            me.alloc(Node { pc, rpc, mask, pending: 0, parent: i, call: false, wait: Wait::Ready, seq, ..n })
        };
        let stay = child(self, staying);
        let mut pending = staying.1;
        if going.1 != 0 && going.0 != rpc {
            child(self, going);
            pending |= going.1;
        }
        let node = &mut self.nodes[i as usize];
        node.pc = rpc;
        node.pending = pending;
        node.wait = Wait::Ready;
        stay
    }

    /// Leaf `i` calls: `lanes` (some of its lanes) run the callee from `entry` in
    /// `frame`; every lane of `i` goes on at `return_pc` once they have returned.
    /// Returns the call node.
    pub fn call(&mut self, i: u32, return_pc: u32, entry: u32, lanes: u32, frame: u32) -> u32 {
        let seq = self.next_seq();
        let c = self.alloc(Node {
            pc: entry,
            rpc: NEVER,
            mask: lanes,
            pending: 0,
            parent: i,
            frame,
            call: true,
            wait: Wait::Ready,
            seq,
            used: true,
        });
        let n = &mut self.nodes[i as usize];
        n.pc = return_pc;
        n.pending = lanes;
        c
    }

    /// `ret` by `lanes` of leaf `i`: they leave the tree up to the nearest call node
    /// and wait, done, at the caller's return pc.
    pub fn ret(&mut self, i: u32, lanes: u32) {
        let top = self.remove(i, lanes, true);
        let caller = self.nodes[top as usize].parent;
        if caller != NONE {
            self.nodes[caller as usize].pending &= !lanes;
            self.settle_join(caller);
        }
    }

    /// `exit` by `lanes` of leaf `i`: they leave every group.
    pub fn exit(&mut self, i: u32, lanes: u32) {
        self.remove(i, lanes, false);
    }

    /// Takes `lanes` out of leaf `i` and its ancestors, up to the nearest call node
    /// (`to_call`) or the root, which it returns. Empty nodes go, and a join left
    /// without children runs again (or leaves at its reconvergence pc).
    fn remove(&mut self, i: u32, lanes: u32, to_call: bool) -> u32 {
        let mut top = i;
        loop {
            let n = &mut self.nodes[top as usize];
            n.mask &= !lanes;
            n.pending &= !lanes;
            if (to_call && n.call) || n.parent == NONE {
                break;
            }
            top = n.parent;
        }
        // Bottom-up; a node released on the way keeps its parent link, and nothing
        // is allocated meanwhile.
        let mut x = i;
        loop {
            let n = self.nodes[x as usize];
            if n.used {
                if n.mask == 0 {
                    self.release(x);
                } else if x != i {
                    self.settle_join(x);
                } else if n.pc == n.rpc {
                    self.settle(x);
                }
            }
            if x == top {
                return top;
            }
            x = n.parent;
        }
    }

    /// A join that may have lost its last child: it runs again, or leaves.
    fn settle_join(&mut self, x: u32) {
        let n = self.nodes[x as usize];
        if n.used && n.pending == 0 {
            if n.mask == 0 || n.pc == n.rpc {
                self.settle(x);
            } else if n.wait == Wait::Ready {
                self.wake(x);
            }
        }
    }

    /// When every leaf is blocked: the newest join with done lanes lets them go on
    /// alone from its pc, as a sibling of the join; the blocked children stay in the
    /// join, which keeps its pc and reconvergence pc. False when there is none.
    pub fn go_alone(&mut self) -> bool {
        let Some((j, n)) = self
            .iter()
            .filter(|(_, n)| n.pending != 0 && n.mask & !n.pending != 0)
            .max_by_key(|(_, n)| n.seq)
            .map(|(j, n)| (j, *n))
        else {
            return false;
        };
        let done = n.mask & !n.pending;
        self.nodes[j as usize].mask = n.pending;
        let seq = self.next_seq();
        let k = self.alloc(Node { mask: done, pending: 0, wait: Wait::Ready, seq, ..n });
        self.settle(k);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny per-lane machine to drive the tree: each lane has a counter.
    #[derive(Clone, Copy, Debug)]
    enum Op {
        /// Any instruction: the lane records it.
        Work,
        /// counter += 1
        Inc,
        /// Branch to `target` when the lane's counter is below `limit[lane]`
        /// (lane-dependent trip counts), else fall through.
        BranchIfBelow {
            target: u32,
            rpc: u32,
            salt: u32,
        },
        /// Branch to `target` for lanes whose bit is set in `mask`.
        BranchIfLane {
            target: u32,
            rpc: u32,
            mask: u32,
        },
        /// A point where every lane still alive must be running together.
        Converged,
        Jump(u32),
        Exit,
        /// A warp-wide rendezvous: lanes wait here until every live lane has arrived.
        Sync,
    }

    fn limit(lane: u32, salt: u32) -> u32 {
        (lane.wrapping_mul(2654435761).wrapping_add(salt) >> 7) % 5
    }

    /// Each lane alone, in order: the reference trace of pcs it executes.
    fn reference(prog: &[Op], lanes: u32) -> Vec<Vec<u32>> {
        (0..32)
            .map(|lane| {
                let mut trace = Vec::new();
                if lanes >> lane & 1 == 0 {
                    return trace;
                }
                let (mut pc, mut counter) = (0u32, 0u32);
                while let Some(op) = prog.get(pc as usize) {
                    trace.push(pc);
                    pc = match *op {
                        Op::Work | Op::Converged | Op::Sync => pc + 1,
                        Op::Inc => {
                            counter += 1;
                            pc + 1
                        }
                        Op::BranchIfBelow { target, salt, .. } => {
                            if counter < limit(lane, salt) {
                                target
                            } else {
                                pc + 1
                            }
                        }
                        Op::BranchIfLane { target, mask, .. } => {
                            if mask >> lane & 1 == 1 {
                                target
                            } else {
                                pc + 1
                            }
                        }
                        Op::Jump(t) => t,
                        Op::Exit => break,
                    };
                }
                trace
            })
            .collect()
    }

    /// The warp together, through the reconvergence tree. Returns each lane's trace
    /// and how many leaves existed at most.
    fn simt(prog: &[Op], lanes: u32) -> (Vec<Vec<u32>>, usize) {
        let mut traces = vec![Vec::new(); 32];
        let mut counter = [0u32; 32];
        let mut g = Groups::default();
        g.reset(0, lanes, 0);
        let mut alive = lanes;
        let mut widest = 0;
        for _ in 0..100_000 {
            widest = widest.max(g.iter().count());
            let Some(i) = g.pick() else {
                // Every group is blocked at Sync: release it once all live lanes are
                // there, else let done lanes go on.
                let at: u32 = g
                    .leaves()
                    .filter(|(_, n)| n.wait == Wait::Sync)
                    .map(|(_, n)| n.mask)
                    .fold(0, |a, m| a | m);
                if at != 0 && at == alive {
                    let waiting: Vec<u32> =
                        g.leaves().filter(|(_, n)| n.wait == Wait::Sync).map(|(i, _)| i).collect();
                    for i in waiting {
                        g.wake(i);
                        let pc = g.node(i).pc;
                        g.goto(i, pc + 1);
                    }
                    continue;
                }
                if g.go_alone() {
                    continue;
                }
                break;
            };
            let n = *g.node(i);
            let pc = n.pc;
            let Some(op) = prog.get(pc as usize) else {
                alive &= !n.mask;
                g.exit(i, n.mask);
                continue;
            };
            for (lane, trace) in traces.iter_mut().enumerate() {
                if n.mask >> lane & 1 == 1 {
                    trace.push(pc);
                }
            }
            match *op {
                Op::Work => {
                    g.goto(i, pc + 1);
                }
                Op::Inc => {
                    for (lane, c) in counter.iter_mut().enumerate() {
                        *c += n.mask >> lane & 1;
                    }
                    g.goto(i, pc + 1);
                }
                Op::BranchIfBelow { target, rpc, salt } => {
                    let taken = (0..32)
                        .filter(|&l| n.mask >> l & 1 == 1 && counter[l as usize] < limit(l, salt))
                        .fold(0, |m, l| m | 1 << l);
                    g.split(i, &[(pc + 1, n.mask & !taken), (target, taken)], rpc);
                }
                Op::BranchIfLane { target, rpc, mask } => {
                    let taken = n.mask & mask;
                    g.split(i, &[(pc + 1, n.mask & !taken), (target, taken)], rpc);
                }
                Op::Jump(t) => {
                    g.goto(i, t);
                }
                Op::Converged => {
                    assert_eq!(n.mask, alive, "lanes not reconverged at pc {pc}");
                    g.goto(i, pc + 1);
                }
                Op::Exit => {
                    alive &= !n.mask;
                    g.exit(i, n.mask);
                }
                Op::Sync => g.node_mut(i).wait = Wait::Sync,
            }
        }
        assert!(g.is_empty(), "warp did not finish: {:?}", g.iter().collect::<Vec<_>>());
        (traces, widest)
    }

    #[test]
    fn nested_if_else_reconverges_at_each_join() {
        use Op::*;
        // 0: if (lane in A) { 1: if (lane in B) {2: work} else {4: work}; 5: join1 } else {7: work}; 8: join
        let prog = [
            BranchIfLane { target: 7, rpc: 8, mask: 0x0000_ffff ^ u32::MAX }, // 0
            BranchIfLane { target: 4, rpc: 5, mask: 0x00ff_00ff },            // 1
            Work,                                                             // 2
            Jump(5),                                                          // 3
            Work,                                                             // 4
            Work,                                                             // 5 (inner join)
            Jump(8),                                                          // 6
            Work,                                                             // 7
            Converged,                                                        // 8 (outer join)
            Exit,                                                             // 9
        ];
        let (traces, widest) = simt(&prog, u32::MAX);
        assert_eq!(traces, reference(&prog, u32::MAX));
        // The outer join, its two paths, then the inner join's two paths.
        assert_eq!(widest, 5);
    }

    #[test]
    fn loops_with_lane_dependent_trip_counts_match_each_thread_alone() {
        use Op::*;
        // do { inc; if (lane odd) work; } while (counter < limit(lane)); exit
        let prog = [
            Inc,                                                   // 0
            BranchIfLane { target: 3, rpc: 3, mask: 0x5555_5555 }, // 1: even lanes skip
            Work,                                                  // 2
            BranchIfBelow { target: 0, rpc: 4, salt: 7 },          // 3
            Converged,                                             // 4
            Exit,                                                  // 5
        ];
        for lanes in [u32::MAX, 0x8000_0001, 0x0f0f_0f0f, 1] {
            let (traces, _) = simt(&prog, lanes);
            assert_eq!(traces, reference(&prog, lanes), "lanes {lanes:#x}");
        }
    }

    #[test]
    fn early_exit_by_some_lanes_leaves_the_others_running() {
        use Op::*;
        let prog = [
            BranchIfLane { target: 3, rpc: NEVER, mask: 0xffff_0000 }, // 0
            Work,                                                      // 1
            Exit,                                                      // 2
            Work,                                                      // 3
            Converged,                                                 // 4
            Exit,                                                      // 5
        ];
        let (traces, _) = simt(&prog, u32::MAX);
        assert_eq!(traces, reference(&prog, u32::MAX));
    }

    #[test]
    fn lanes_at_a_join_go_on_alone_while_the_others_wait_for_them() {
        use Op::*;
        // if (lane < 16) goto 3 (the join, which exits); else { sync; } 3: exit.
        // The sync waits for every live lane; the done lanes must go on and exit.
        let prog = [
            BranchIfLane { target: 3, rpc: 3, mask: 0x0000_ffff }, // 0
            Sync,                                                  // 1
            Jump(3),                                               // 2
            Exit,                                                  // 3
        ];
        let (traces, _) = simt(&prog, u32::MAX);
        assert_eq!(traces, reference(&prog, u32::MAX));
    }

    #[test]
    fn both_sides_of_a_branch_meet_at_one_sync() {
        use Op::*;
        // if (odd) { work; sync } else { sync; work }; converged
        let prog = [
            BranchIfLane { target: 4, rpc: 6, mask: 0xaaaa_aaaa }, // 0
            Work,                                                  // 1
            Sync,                                                  // 2
            Jump(6),                                               // 3
            Sync,                                                  // 4
            Work,                                                  // 5
            Converged,                                             // 6
            Exit,                                                  // 7
        ];
        let (traces, _) = simt(&prog, u32::MAX);
        assert_eq!(traces, reference(&prog, u32::MAX));
    }

    #[test]
    fn random_structured_programs_match_each_thread_alone() {
        // Programs built from nested if/else, bounded loops and early exits over
        // lane-dependent conditions, with warp-wide syncs at converged points; every
        // lane's trace through the tree must equal its trace when run alone.
        fn generate(out: &mut Vec<Op>, depth: u32, rng: &mut impl FnMut(u32) -> u32) {
            for _ in 0..1 + rng(3) {
                match if depth == 0 { 0 } else { rng(4) } {
                    0 => out.push(Op::Work),
                    1 => {
                        // if/else
                        let at = out.len();
                        out.push(Op::Work); // placeholder for the branch
                        generate(out, depth - 1, rng);
                        let jump_at = out.len();
                        out.push(Op::Work); // placeholder for the jump over else
                        let else_pc = out.len() as u32;
                        generate(out, depth - 1, rng);
                        let join = out.len() as u32;
                        out[jump_at] = Op::Jump(join);
                        out[at] = Op::BranchIfLane { target: else_pc, rpc: join, mask: rng(u32::MAX) };
                    }
                    2 => {
                        // do { body; inc } while (counter < limit)
                        let head = out.len() as u32;
                        generate(out, depth - 1, rng);
                        out.push(Op::Inc);
                        let exit = out.len() as u32 + 1;
                        out.push(Op::BranchIfBelow { target: head, rpc: exit, salt: rng(1000) });
                    }
                    _ => {
                        // if (lanes) exit early
                        let at = out.len();
                        out.push(Op::Work);
                        out.push(Op::Exit);
                        let after = out.len() as u32;
                        out[at] = Op::BranchIfLane { target: after, rpc: NEVER, mask: !rng(u32::MAX) | 1 };
                    }
                }
                if depth == 3 {
                    out.push(if rng(2) == 0 { Op::Converged } else { Op::Sync });
                }
            }
        }
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rng = move |m: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if m == u32::MAX { x as u32 } else { (x % u64::from(m)) as u32 }
        };
        for _ in 0..500 {
            let mut prog = Vec::new();
            generate(&mut prog, 3, &mut rng);
            prog.push(Op::Exit);
            let lanes = rng(u32::MAX) | 1;
            let (traces, _) = simt(&prog, lanes);
            assert_eq!(traces, reference(&prog, lanes), "{prog:?}");
        }
    }
}
