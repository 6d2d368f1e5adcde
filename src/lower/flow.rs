//! The control flow of one checked function body: its instructions in order (nested
//! `{ }` blocks are scopes, not control flow), labels resolved to instruction indices
//! (pcs) with the same block scoping as `check`, basic blocks, and for every block the
//! pc where lanes that diverge at its end reconverge (its immediate post-dominator).

use super::cfg::Cfg;
use crate::syntax::ast::*;
use rustc_hash::FxHashMap as HashMap;

/// A pc meaning "the function's exit": lanes reconverge only when they return.
pub const EXIT: u32 = u32::MAX;

/// The control flow of one function body.
#[derive(Debug)]
pub struct Flow<'m> {
    /// The instructions in textual order; an index is a pc.
    pub insts: Vec<&'m Instr>,
    /// Branch targets of each pc: the label of `bra`, every label of the list of
    /// `brx.idx` (in list order); empty for other instructions.
    pub targets: Vec<Vec<u32>>,
    /// Basic blocks as `start..end` pc ranges, in order.
    pub blocks: Vec<std::ops::Range<u32>>,
    /// The block of each pc.
    pub block_of: Vec<u32>,
    /// For each block, the pc where lanes that diverge at its end meet again, or
    /// [`EXIT`].
    pub reconverge: Vec<u32>,
}

/// What a label stands for in a block: a place in the code or a `.branchtargets` list.
#[derive(Clone)]
enum LabelAt<'m> {
    Pc(u32),
    List(&'m [Name]),
}

struct Builder<'m> {
    src: &'m str,
    pool: &'m Pool,
    insts: Vec<&'m Instr>,
    /// Labels declared directly in each block, by block span start.
    labels: HashMap<u32, HashMap<&'m str, LabelAt<'m>>>,
}

impl<'m> Builder<'m> {
    /// Pass 1: flattens the body and records where each block's labels point.
    fn collect(&mut self, b: &'m Block) {
        let mut here = HashMap::default();
        for s in self.pool.stmts(b) {
            match s {
                Stmt::Instr(i) => self.insts.push(i),
                Stmt::Label(l) => {
                    here.insert(l.text(self.src), LabelAt::Pc(self.insts.len() as u32));
                }
                Stmt::BranchTargets { label, targets } => {
                    here.insert(label.text(self.src), LabelAt::List(targets));
                }
                Stmt::Block(inner) => self.collect(inner),
                _ => {}
            }
        }
        self.labels.insert(b.span.start, here);
    }

    /// Pass 2: resolves branch targets with the block scopes visible at each branch.
    fn resolve(&self, b: &'m Block, scopes: &mut Vec<u32>, targets: &mut Vec<Vec<u32>>, pc: &mut u32) {
        scopes.push(b.span.start);
        for s in self.pool.stmts(b) {
            match s {
                Stmt::Instr(i) => {
                    let view = self.pool.view(i);
                    let list = match view.opcode.text(self.src) {
                        "bra" => view.operands.first().and_then(|o| self.label(o, scopes)).map(|at| vec![at]),
                        "brx" => view.operands.get(1).and_then(|o| self.list(o, scopes)),
                        _ => None,
                    };
                    targets.push(list.unwrap_or_default());
                    *pc += 1;
                }
                Stmt::Block(inner) => self.resolve(inner, scopes, targets, pc),
                _ => {}
            }
        }
        scopes.pop();
    }

    fn lookup(&self, name: &str, scopes: &[u32]) -> Option<&LabelAt<'m>> {
        scopes.iter().rev().find_map(|b| self.labels.get(b)?.get(name))
    }

    fn label(&self, op: &Operand, scopes: &[u32]) -> Option<u32> {
        let Operand::Name(n) = op else { return None };
        match self.lookup(n.text(self.src), scopes)? {
            LabelAt::Pc(pc) => Some(*pc),
            LabelAt::List(_) => None,
        }
    }

    fn list(&self, op: &Operand, scopes: &[u32]) -> Option<Vec<u32>> {
        let Operand::Name(n) = op else { return None };
        let LabelAt::List(names) = self.lookup(n.text(self.src), scopes)? else { return None };
        names
            .iter()
            .map(|t| match self.lookup(t.text(self.src), scopes)? {
                LabelAt::Pc(pc) => Some(*pc),
                LabelAt::List(_) => None,
            })
            .collect()
    }
}

impl<'m> Flow<'m> {
    /// Builds the flow of a function body that `check` accepted.
    pub fn build(module: &'m Module, src: &'m str, body: &'m Block) -> Flow<'m> {
        let mut b = Builder { src, pool: &module.pool, insts: Vec::new(), labels: HashMap::default() };
        b.collect(body);
        let mut targets = Vec::with_capacity(b.insts.len());
        b.resolve(body, &mut Vec::new(), &mut targets, &mut 0);
        let n = b.insts.len() as u32;
        let kinds: Vec<Kind> = b.insts.iter().map(|i| Kind::of(&module.pool.view(i), src)).collect();

        // Leaders: the first pc, every branch target, and the pc after a control transfer.
        let mut leader = vec![false; n as usize + 1];
        leader[0] = true;
        for (pc, k) in kinds.iter().enumerate() {
            if *k != Kind::Other {
                leader[pc + 1] = true;
            }
            for &t in &targets[pc] {
                leader[t as usize] = true;
            }
        }
        let mut blocks = Vec::new();
        let mut block_of = vec![0u32; n as usize];
        let mut start = 0;
        for pc in 1..=n {
            if leader[pc as usize] || pc == n {
                if start < pc {
                    blocks.push(start..pc);
                }
                start = pc;
            }
        }
        for (i, r) in blocks.iter().enumerate() {
            for pc in r.clone() {
                block_of[pc as usize] = i as u32;
            }
        }
        let mut cfg = Cfg::new(blocks.len());
        let exit = cfg.exit();
        let block_at = |pc: u32| if pc >= n { exit } else { block_of[pc as usize] };
        for (i, r) in blocks.iter().enumerate() {
            let last = r.end - 1;
            let guarded = b.insts[last as usize].guard.is_some();
            let i = i as u32;
            match kinds[last as usize] {
                Kind::Branch => {
                    for &t in &targets[last as usize] {
                        cfg.add_edge(i, block_at(t));
                    }
                }
                Kind::Leave => cfg.add_edge(i, exit),
                // A guarded exit also falls through; its lanes leave every mask, so
                // only that fall-through counts for where the others meet again.
                Kind::Halt if guarded => {}
                Kind::Halt => cfg.add_edge(i, exit),
                Kind::Other => {}
            }
            if guarded || kinds[last as usize] == Kind::Other {
                cfg.add_edge(i, block_at(r.end));
            }
        }
        let ipdom = cfg.immediate_post_dominators();
        let reconverge =
            ipdom.iter().map(|&d| if d == exit { EXIT } else { blocks[d as usize].start }).collect();
        Flow { insts: b.insts, targets, blocks, block_of, reconverge }
    }
}

/// How an instruction ends a block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `bra`, `brx.idx`: continue at a target.
    Branch,
    /// `ret`: leave the function.
    Leave,
    /// `exit`, `trap`: end the thread. Guarded, the path gets no edge to the exit,
    /// so it does not count against a post-dominator: the lanes that take it leave
    /// every mask, and the others still meet where they would without it (a guarded
    /// `exit` no lane takes must not keep the two sides of an `if` apart before a
    /// barrier). Unguarded, it leaves like `ret`.
    Halt,
    Other,
}

impl Kind {
    fn of(i: &InstrView<'_>, src: &str) -> Kind {
        match i.opcode.text(src) {
            "bra" | "brx" => Kind::Branch,
            "ret" => Kind::Leave,
            "exit" | "trap" => Kind::Halt,
            _ => Kind::Other,
        }
    }
}
