//! The SIMT stack of one warp (DESIGN.md, "SIMT model"): which lanes run, at which
//! pc, and where diverged lanes meet again.
//!
//! Each entry is `(pc, reconvergence pc, lane mask)`; the top entry runs. A branch
//! that splits the active lanes turns the top entry into the join entry (its pc
//! becomes the reconvergence pc, its mask keeps every lane) and pushes one entry per
//! path; an entry pops when its pc reaches its reconvergence pc, so the lanes wait
//! in the join entry below until every path has arrived. `brx.idx` and indirect calls
//! split by target the same way. Lanes that exit leave every mask; empty entries pop.
//!
//! A call pushes an entry marked as a frame, running the callee with the calling
//! lanes, above the caller's entry (already moved to the return pc). `ret` takes
//! lanes out of the entries of the innermost frame only, so they wait below it until
//! every calling lane has returned; then the frame entry pops and the caller goes on.

/// The reconvergence pc that is never reached: lanes meet only when they leave.
pub const NEVER: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub pc: u32,
    pub rpc: u32,
    pub mask: u32,
    /// The first entry of a call: the callee's lanes, popped when all have returned.
    pub frame: bool,
}

#[derive(Clone, Debug, Default)]
pub struct SimtStack {
    entries: Vec<Entry>,
    /// Frame entries on the stack: the call depth.
    frames: usize,
}

impl SimtStack {
    /// A warp whose `mask` lanes start at `pc`.
    pub fn new(pc: u32, mask: u32) -> Self {
        let mut s = SimtStack { entries: Vec::new(), frames: 0 };
        if mask != 0 {
            s.entries.push(Entry { pc, rpc: NEVER, mask, frame: false });
        }
        s
    }

    /// The entry that runs now, if any lane is left.
    pub fn top(&self) -> Option<Entry> {
        self.entries.last().copied()
    }

    /// Every lane not yet exited, whichever path it waits on.
    pub fn live(&self) -> u32 {
        self.entries.iter().fold(0, |m, e| m | e.mask)
    }

    pub fn depth(&self) -> usize {
        self.entries.len()
    }

    /// Moves the running lanes to `pc` (after an instruction, or a uniform branch).
    pub fn goto(&mut self, pc: u32) {
        if let Some(top) = self.entries.last_mut() {
            top.pc = pc;
        }
        self.settle();
    }

    /// Splits the running lanes between `targets` (pc, lanes), which must partition
    /// the running mask, reconverging at `rpc`. A branch whose only common
    /// post-dominator is the exit (one path leaves the function) reconverges where
    /// the enclosing region does, so lanes still meet at the outer join.
    pub fn split(&mut self, targets: &[(u32, u32)], rpc: u32) {
        let Some(top) = self.entries.last_mut() else { return };
        let rpc = if rpc == NEVER { top.rpc } else { rpc };
        let groups: Vec<(u32, u32)> = targets.iter().copied().filter(|&(_, m)| m & top.mask != 0).collect();
        if let [(pc, _)] = groups[..] {
            top.pc = pc;
        } else {
            // The current entry becomes the join point; the paths run in the order
            // given (the executor passes the fall-through path first, so lanes that
            // leave early do so before the others run on).
            top.pc = rpc;
            for &(pc, mask) in groups.iter().rev() {
                self.entries.push(Entry { pc, rpc, mask, frame: false });
            }
        }
        self.settle();
    }

    /// Removes `lanes` from the warp (exit, or `ret` from the kernel).
    pub fn exit_lanes(&mut self, lanes: u32) {
        for e in &mut self.entries {
            e.mask &= !lanes;
        }
        self.settle();
    }

    /// The call depth: frame entries on the stack.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Calls: the running lanes continue at `return_pc` once `lanes` (a subset of
    /// them) have run the callee from `entry` and returned.
    pub fn call(&mut self, return_pc: u32, entry: u32, lanes: u32) {
        let Some(top) = self.entries.last_mut() else { return };
        top.pc = return_pc;
        if lanes != 0 {
            self.entries.push(Entry { pc: entry, rpc: NEVER, mask: lanes, frame: true });
            self.frames += 1;
        }
        self.settle();
    }

    /// `ret` by `lanes`: they leave the innermost frame's entries and wait for the
    /// other lanes of the call.
    pub fn ret(&mut self, lanes: u32) {
        let from = self.entries.iter().rposition(|e| e.frame).unwrap_or(0);
        for e in &mut self.entries[from..] {
            e.mask &= !lanes;
        }
        self.settle();
    }

    /// Pops entries that reached their reconvergence point or lost every lane.
    fn settle(&mut self) {
        while let Some(top) = self.entries.last() {
            if top.mask == 0 || top.pc == top.rpc {
                if top.frame {
                    self.frames -= 1;
                }
                self.entries.pop();
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny per-lane machine to drive the stack: each lane has a counter.
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
                        Op::Work | Op::Converged => pc + 1,
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

    /// The warp together, through the SIMT stack.
    fn simt(prog: &[Op], lanes: u32) -> (Vec<Vec<u32>>, usize) {
        let mut traces = vec![Vec::new(); 32];
        let mut counter = [0u32; 32];
        let mut stack = SimtStack::new(0, lanes);
        let mut alive = lanes;
        let mut max_depth = 0;
        for _ in 0..100_000 {
            let Some(top) = stack.top() else { break };
            max_depth = max_depth.max(stack.depth());
            let pc = top.pc;
            let Some(op) = prog.get(pc as usize) else {
                stack.exit_lanes(top.mask);
                continue;
            };
            for (lane, trace) in traces.iter_mut().enumerate() {
                if top.mask >> lane & 1 == 1 {
                    trace.push(pc);
                }
            }
            match *op {
                Op::Work => stack.goto(pc + 1),
                Op::Inc => {
                    for (lane, c) in counter.iter_mut().enumerate() {
                        *c += top.mask >> lane & 1;
                    }
                    stack.goto(pc + 1);
                }
                Op::BranchIfBelow { target, rpc, salt } => {
                    let taken = (0..32)
                        .filter(|&l| top.mask >> l & 1 == 1 && counter[l as usize] < limit(l, salt))
                        .fold(0, |m, l| m | 1 << l);
                    stack.split(&[(pc + 1, top.mask & !taken), (target, taken)], rpc);
                }
                Op::BranchIfLane { target, rpc, mask } => {
                    let taken = top.mask & mask;
                    stack.split(&[(pc + 1, top.mask & !taken), (target, taken)], rpc);
                }
                Op::Jump(t) => stack.goto(t),
                Op::Converged => {
                    assert_eq!(top.mask, alive, "lanes not reconverged at pc {pc}");
                    stack.goto(pc + 1);
                }
                Op::Exit => {
                    alive &= !top.mask;
                    stack.exit_lanes(top.mask);
                }
            }
        }
        assert!(stack.top().is_none(), "warp did not finish");
        (traces, max_depth)
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
            Work,                                                             // 8 (outer join)
            Exit,                                                             // 9
        ];
        let (traces, depth) = simt(&prog, u32::MAX);
        assert_eq!(traces, reference(&prog, u32::MAX));
        // The fall-through path (pc 1) runs first and splits again while the else
        // path waits: [join 8, path 7, join 5, path 4, path 2].
        assert_eq!(depth, 5);
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
            Work,                                                  // 4
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
            BranchIfLane { target: 3, rpc: u32::MAX, mask: 0xffff_0000 }, // 0
            Work,                                                         // 1
            Exit,                                                         // 2
            Work,                                                         // 3
            Work,                                                         // 4
            Exit,                                                         // 5
        ];
        let (traces, _) = simt(&prog, u32::MAX);
        assert_eq!(traces, reference(&prog, u32::MAX));
    }

    #[test]
    fn random_structured_programs_match_each_thread_alone() {
        // Programs built from nested if/else and bounded loops over lane-dependent
        // conditions; every lane's trace through the SIMT stack must equal its trace
        // when run alone.
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
                    out.push(Op::Converged);
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
