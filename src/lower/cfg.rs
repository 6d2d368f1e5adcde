//! Control-flow graphs and immediate post-dominators, the reconvergence points of the
//! SIMT stack (DESIGN.md, "SIMT model").
//!
//! A divergent branch at the end of block `b` reconverges at `ipdom(b)`: the first
//! block that every path from `b` to the function's exit must pass through. The
//! post-dominator tree is the dominator tree of the reversed graph rooted at one
//! virtual exit node that every `ret`, `exit` and `trap` block feeds; it is computed
//! with the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
//! Dominance Algorithm", 2001) over a reverse post-order of the reversed graph.
//! Paths that never reach the exit (endless loops) do not count against a
//! post-dominator, and blocks that cannot reach the exit at all get the exit itself;
//! lanes stuck in such a loop end the launch through the step budget.

/// A control-flow graph over blocks `0..n`, with the virtual exit as node `n`.
#[derive(Debug, Clone)]
pub struct Cfg {
    /// Successors of each block; the virtual exit is `exit()`.
    pub succs: Vec<Vec<u32>>,
}

impl Cfg {
    /// A graph of `n` blocks with no edges yet.
    pub fn new(n: usize) -> Self {
        Cfg { succs: vec![Vec::new(); n] }
    }

    pub fn blocks(&self) -> usize {
        self.succs.len()
    }

    /// The virtual exit node.
    pub fn exit(&self) -> u32 {
        self.succs.len() as u32
    }

    pub fn add_edge(&mut self, from: u32, to: u32) {
        let s = &mut self.succs[from as usize];
        if !s.contains(&to) {
            s.push(to);
        }
    }

    /// The immediate post-dominator of every block (`exit()` for blocks whose only
    /// post-dominator is the exit, including blocks that cannot reach it).
    pub fn immediate_post_dominators(&self) -> Vec<u32> {
        let n = self.blocks();
        let exit = n;
        // Predecessors in the reversed graph are the successors in the original.
        let mut rev_succs: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (b, ss) in self.succs.iter().enumerate() {
            for &s in ss {
                rev_succs[s as usize].push(b);
            }
        }
        // Reverse post-order of the reversed graph from the exit (iterative DFS).
        let mut order = Vec::with_capacity(n + 1);
        let mut seen = vec![false; n + 1];
        let mut stack = vec![(exit, 0usize)];
        seen[exit] = true;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&child) = rev_succs[node].get(*next) {
                *next += 1;
                if !seen[child] {
                    seen[child] = true;
                    stack.push((child, 0));
                }
            } else {
                order.push(node);
                stack.pop();
            }
        }
        order.reverse();
        let mut rpo_index = vec![usize::MAX; n + 1];
        for (i, &b) in order.iter().enumerate() {
            rpo_index[b] = i;
        }
        const UNDEF: usize = usize::MAX;
        let mut ipdom = vec![UNDEF; n + 1];
        ipdom[exit] = exit;
        let intersect = |ipdom: &[usize], mut a: usize, mut b: usize| {
            while a != b {
                while rpo_index[a] > rpo_index[b] {
                    a = ipdom[a];
                }
                while rpo_index[b] > rpo_index[a] {
                    b = ipdom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in order.iter().skip(1) {
                // In the reversed graph, b's predecessors are its original successors
                // (or the exit, for blocks that leave the function).
                let preds: &[u32] = &self.succs[b];
                let mut new = UNDEF;
                for &p in preds {
                    let p = p as usize;
                    if ipdom[p] == UNDEF {
                        continue;
                    }
                    new = if new == UNDEF { p } else { intersect(&ipdom, p, new) };
                }
                if new != UNDEF && ipdom[b] != new {
                    ipdom[b] = new;
                    changed = true;
                }
            }
        }
        ipdom.truncate(n);
        ipdom.into_iter().map(|d| if d == UNDEF { exit as u32 } else { d as u32 }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(n: usize, edges: &[(u32, u32)]) -> Cfg {
        let mut g = Cfg::new(n);
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g
    }

    #[test]
    fn if_else_reconverges_at_the_join() {
        // 0 -> {1, 2} -> 3 -> exit
        let g = cfg(4, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 4)]);
        assert_eq!(g.immediate_post_dominators(), vec![3, 3, 3, 4]);
    }

    #[test]
    fn loop_with_early_return() {
        // 0 -> 1 (header) -> {2, 4}; 2 -> {1, 3}; 3 -> exit (early ret); 4 -> exit
        let g = cfg(5, &[(0, 1), (1, 2), (1, 4), (2, 1), (2, 3), (3, 5), (4, 5)]);
        let ip = g.immediate_post_dominators();
        // The header and the body can leave through either exit, so only the virtual
        // exit post-dominates them.
        assert_eq!(ip, vec![1, 5, 5, 5, 5]);
    }

    #[test]
    fn nested_if_inside_loop() {
        // 0 -> 1; 1 -> {2, 3}; 2 -> 4; 3 -> 4; 4 -> {1, 5}; 5 -> exit(6)
        let g = cfg(6, &[(0, 1), (1, 2), (1, 3), (2, 4), (3, 4), (4, 1), (4, 5), (5, 6)]);
        assert_eq!(g.immediate_post_dominators(), vec![1, 4, 4, 4, 5, 6]);
    }

    #[test]
    fn endless_loop_post_dominated_by_exit_only() {
        // 0 -> {1, 2}; 1 -> 1 (spins forever); 2 -> exit. Every path from 0 that
        // reaches the exit passes 2; the spinning block itself gets the exit.
        let g = cfg(3, &[(0, 1), (0, 2), (1, 1), (2, 3)]);
        assert_eq!(g.immediate_post_dominators(), vec![2, 3, 3]);
    }

    #[test]
    fn switch_fans_out_and_joins() {
        // 0 -> {1, 2, 3, 4} -> 5 -> exit
        let g = cfg(6, &[(0, 1), (0, 2), (0, 3), (0, 4), (1, 5), (2, 5), (3, 5), (4, 5), (5, 6)]);
        assert_eq!(g.immediate_post_dominators(), vec![5, 5, 5, 5, 5, 6]);
    }

    /// Post-dominator sets by the textbook data-flow equations, an independent
    /// reference: pdom(exit) = {exit}, pdom(b) = {b} ∪ ⋂ pdom(s) over successors s.
    fn reference_ipdoms(g: &Cfg) -> Vec<u32> {
        let n = g.blocks();
        let all: u64 = (1u64 << (n + 1)) - 1;
        let mut pdom = vec![all; n + 1];
        pdom[n] = 1 << n;
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..n {
                let meet = g.succs[b].iter().fold(all, |acc, &s| acc & pdom[s as usize]);
                let new = if g.succs[b].is_empty() { all } else { meet } | (1 << b);
                if new != pdom[b] {
                    pdom[b] = new;
                    changed = true;
                }
            }
        }
        // Which blocks can reach the exit at all (the others get the exit).
        let mut reaches = vec![false; n + 1];
        reaches[n] = true;
        let mut grew = true;
        while grew {
            grew = false;
            for b in 0..n {
                if !reaches[b] && g.succs[b].iter().any(|&s| reaches[s as usize]) {
                    reaches[b] = true;
                    grew = true;
                }
            }
        }
        (0..n)
            .map(|b| {
                if !reaches[b] {
                    return n as u32;
                }
                let strict = pdom[b] & !(1 << b);
                // The immediate one is post-dominated by every other strict post-dominator.
                (0..=n).find(|&d| strict >> d & 1 == 1 && pdom[d] == strict).map_or(n as u32, |d| d as u32)
            })
            .collect()
    }

    #[test]
    fn agrees_with_the_dataflow_definition_on_random_graphs() {
        let mut x: u64 = 0x2545F4914F6CDD1D;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for _ in 0..3000 {
            let n = 1 + next(12) as usize;
            let mut g = Cfg::new(n);
            for b in 0..n {
                for _ in 0..next(3) + 1 {
                    // Targets include the virtual exit (index n).
                    g.add_edge(b as u32, next(n as u64 + 1) as u32);
                }
            }
            assert_eq!(g.immediate_post_dominators(), reference_ipdoms(&g), "{g:?}");
        }
    }
}
