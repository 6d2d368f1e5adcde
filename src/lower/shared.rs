//! Static shared memory laid out per kernel. Each `.shared` variable gets one
//! offset, used by every instruction that names it; two variables share bytes
//! only when no kernel can reach both (through the functions it calls, or any
//! function once it calls through a register). A module of many kernels, each
//! with its own tiles, then needs as much shared memory as its largest kernel,
//! not the sum of them all: ptxas's limit of 48 KiB of static shared memory is
//! per kernel ("Entry function 'k' uses too much shared data (.., 0xc000 max)").

use super::program::{LowerError, fail, var_size};
use crate::syntax::ast::*;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The static shared memory ptxas lets a kernel have.
const MAX_STATIC: u64 = 0xc000;

/// A set of kernels, by their index among the module's kernels.
#[derive(Clone, Default)]
struct Kernels(Vec<u64>);

impl Kernels {
    fn insert(&mut self, k: usize) {
        if self.0.len() <= k / 64 {
            self.0.resize(k / 64 + 1, 0);
        }
        self.0[k / 64] |= 1 << (k % 64);
    }

    fn union(&mut self, other: &Kernels) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    fn meets(&self, other: &Kernels) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

/// Which kernels may touch each static shared variable: module-level ones by
/// name, body-level ones by their declarator's position.
pub(super) struct Reach<'m> {
    by_name: HashMap<&'m str, Kernels>,
    by_decl: HashMap<u32, Kernels>,
}

impl<'m> Reach<'m> {
    /// Works it out from what each body names: variables, functions (called, or
    /// taken as an address), and whether it calls through a register.
    pub(super) fn of(refs: &References<'m>, bodies: &[&'m Function]) -> Reach<'m> {
        // The kernels that reach each body.
        let mut reached_by = vec![Kernels::default(); bodies.len()];
        let kernels = bodies.iter().enumerate().filter(|(_, f)| f.kind == FuncKind::Entry);
        for (nk, (k, _)) in kernels.enumerate() {
            for (f, s) in refs.reached_from(&[k]).iter().enumerate() {
                if *s {
                    reached_by[f].insert(nk);
                }
            }
        }
        let mut by_name: HashMap<&str, Kernels> = HashMap::default();
        let mut by_decl = HashMap::default();
        for (f, reach) in reached_by.iter().enumerate() {
            for n in &refs.names[f] {
                by_name.entry(n).or_default().union(reach);
            }
            for &d in &refs.decls[f] {
                by_decl.insert(d, reach.clone());
            }
        }
        Reach { by_name, by_decl }
    }
}

/// What each body names: variables, functions (called, or taken as an address),
/// its own `.shared` declarators, and whether it calls through a register.
pub(super) struct References<'m> {
    index: HashMap<&'m str, usize>,
    names: Vec<HashSet<&'m str>>,
    decls: Vec<Vec<u32>>,
    indirect: Vec<bool>,
}

impl<'m> References<'m> {
    pub(super) fn of(module: &'m Module, src: &'m str, bodies: &[&'m Function]) -> References<'m> {
        let index: HashMap<&str, usize> =
            bodies.iter().enumerate().map(|(k, f)| (f.name.text(src), k)).collect();
        // Every function the module declares, with a body or not (`.extern .func
        // vprintf`): a call to one is direct.
        let declared: HashSet<&str> = module
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Func(f) => Some(f.name.text(src)),
                _ => None,
            })
            .collect();
        let mut names: Vec<HashSet<&str>> = Vec::with_capacity(bodies.len());
        let mut decls: Vec<Vec<u32>> = Vec::with_capacity(bodies.len());
        let mut indirect = vec![false; bodies.len()];
        for (k, f) in bodies.iter().enumerate() {
            let (mut n, mut d) = (HashSet::default(), Vec::new());
            if let Some(b) = &f.body {
                scan(module, src, b, &declared, &mut n, &mut d, &mut indirect[k]);
            }
            names.push(n);
            decls.push(d);
        }
        References { index, names, decls, indirect }
    }

    /// The body of function `name`, if it has one.
    pub(super) fn body(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The bodies whose addresses module variables hold (`.global .u64 table[2] =
    /// {f, g}`): code may call or launch them through a pointer it loads, so they
    /// are decoded with any kernel.
    pub(super) fn in_initialisers(&self, module: &Module, src: &str) -> Vec<usize> {
        fn names<'a>(init: &Init, src: &'a str, out: &mut Vec<&'a str>) {
            match init {
                Init::List(items, _) => items.iter().for_each(|i| names(i, src, out)),
                Init::Symbol { name, .. } => out.push(name.text(src)),
                Init::Masked { symbol, .. } => names(symbol, src, out),
                _ => {}
            }
        }
        let mut found = Vec::new();
        for item in &module.items {
            if let Item::Var(v) = item {
                for d in &v.vars {
                    if let Some(init) = &d.init {
                        names(init, src, &mut found);
                    }
                }
            }
        }
        found.into_iter().filter_map(|n| self.body(n)).collect()
    }

    /// The bodies that bodies `roots` can reach (themselves included): through the
    /// functions they name, and every body once one calls through a register.
    pub(super) fn reached_from(&self, roots: &[usize]) -> Vec<bool> {
        let mut seen = vec![false; self.names.len()];
        let mut todo = roots.to_vec();
        while let Some(f) = todo.pop() {
            if std::mem::replace(&mut seen[f], true) {
                continue;
            }
            if self.indirect[f] {
                seen.iter_mut().for_each(|s| *s = true);
                break;
            }
            todo.extend(self.names[f].iter().filter_map(|n| self.index.get(n).copied()));
        }
        seen
    }
}

/// Adds what body block `b` names to `names`, its `.shared` declarators to
/// `decls`, and sets `indirect` when it calls through a register.
fn scan<'m>(
    module: &'m Module,
    src: &'m str,
    b: &Block,
    functions: &HashSet<&str>,
    names: &mut HashSet<&'m str>,
    decls: &mut Vec<u32>,
    indirect: &mut bool,
) {
    for s in module.pool.stmts(b) {
        match s {
            Stmt::Instr(i) => {
                let view = module.pool.view(i);
                for o in view.operands {
                    operand_names(o, src, names);
                }
                if view.opcode.text(src) == "call" {
                    let target = view.operands.iter().find_map(|o| match o {
                        Operand::Name(n) => Some(n.text(src)),
                        _ => None,
                    });
                    if target.is_some_and(|t| !functions.contains(t)) {
                        *indirect = true;
                    }
                }
            }
            Stmt::Var(v) if v.space == Space::Shared => {
                decls.extend(v.vars.iter().map(|d| d.name.span.start))
            }
            Stmt::Block(inner) => scan(module, src, inner, functions, names, decls, indirect),
            _ => {}
        }
    }
}

fn operand_names<'m>(o: &Operand, src: &'m str, names: &mut HashSet<&'m str>) {
    match o {
        Operand::Name(n) | Operand::Offset(n, ..) => {
            names.insert(n.text(src));
        }
        Operand::Addr(a) => {
            if let Some(b) = a.base {
                names.insert(b.text(src));
            }
        }
        Operand::Not(o, _) | Operand::Neg(o, _) => operand_names(o, src, names),
        Operand::Pair(a, b) => {
            operand_names(a, src, names);
            operand_names(b, src, names);
        }
        Operand::Vector(v, _) | Operand::List(v, _) => v.iter().for_each(|o| operand_names(o, src, names)),
        _ => {}
    }
}

/// Static shared memory: module-level and body-level declarations.
#[derive(Default)]
pub(super) struct SharedLayout {
    /// The end of the highest variable: the most any kernel needs.
    pub end: u64,
    /// Every static variable placed: offset and bytes (the largest placed there).
    pub vars: HashMap<u32, u32>,
    /// The same with names, in placing order.
    pub named: Vec<(u32, u32, String)>,
    /// Placed so far: start, end, the kernels that reach it.
    placed: Vec<(u64, u64, Kernels)>,
}

impl SharedLayout {
    /// Places one declarator that `reach` says which kernels touch: at the first
    /// offset, aligned, that overlaps no variable one of them touches too. `None`
    /// for an unsized `.extern` array (dynamic shared memory, which starts after
    /// every static variable).
    pub(super) fn place(
        &mut self,
        src: &str,
        v: &VarDecl,
        d: &Declarator,
        reach: &Reach<'_>,
        body_level: bool,
    ) -> Result<Option<u32>, LowerError> {
        let Some((size, align)) = var_size(v, d, src) else { return Ok(None) };
        let none = Kernels::default();
        let kernels = if body_level {
            reach.by_decl.get(&d.name.span.start)
        } else {
            reach.by_name.get(d.name.text(src))
        }
        .unwrap_or(&none);
        let mut taken: Vec<(u64, u64)> =
            self.placed.iter().filter(|p| p.2.meets(kernels)).map(|p| (p.0, p.1)).collect();
        taken.sort_unstable();
        let mut offset = 0u64;
        for (a, b) in taken {
            let at = offset.div_ceil(align) * align;
            if at.saturating_add(size) <= a {
                break;
            }
            offset = offset.max(b);
        }
        let offset = offset.div_ceil(align) * align;
        let end = offset.saturating_add(size);
        if end > MAX_STATIC {
            return fail(
                d.name.span,
                "a kernel uses more than 48 KiB (0xc000 bytes) of static shared memory, as ptxas allows \
                 no kernel to; more takes dynamic shared memory",
            );
        }
        self.end = self.end.max(end);
        let slot = self.vars.entry(offset as u32).or_insert(0);
        *slot = (*slot).max(size as u32);
        self.named.push((offset as u32, size as u32, d.name.text(src).to_string()));
        self.placed.push((offset, end, kernels.clone()));
        Ok(Some(offset as u32))
    }

    /// Places the `.shared` declarations inside body block `b`, noting each one's
    /// offset by its declarator's position in `out`.
    pub(super) fn walk_bodies(
        &mut self,
        module: &Module,
        src: &str,
        b: &Block,
        reach: &Reach<'_>,
        out: &mut HashMap<u32, u32>,
    ) -> Result<(), LowerError> {
        for s in module.pool.stmts(b) {
            match s {
                Stmt::Var(v) if v.space == Space::Shared => {
                    for d in &v.vars {
                        if let Some(off) = self.place(src, v, d, reach, true)? {
                            out.insert(d.name.span.start, off);
                        }
                    }
                }
                Stmt::Block(inner) => self.walk_bodies(module, src, inner, reach, out)?,
                _ => {}
            }
        }
        Ok(())
    }
}
