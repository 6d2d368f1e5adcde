//! Function bodies: block scopes for registers and variables, labels scoped by block
//! with their target lists, and the walk that checks every instruction.

use super::*;

impl<'a> Checker<'a> {
    /// Resolves a name through the block scopes, then module scope.
    pub(super) fn lookup(&self, name: &str) -> Option<Def> {
        for s in self.scopes.iter().rev() {
            if let Some(d) = s.lookup(name) {
                return Some(d);
            }
        }
        self.globals.lookup(name)
    }

    pub(super) fn declare_local(&mut self, name: Name, count: Option<u32>, def: Def) {
        let text = self.t(name);
        let scope = self.scopes.last_mut().expect("a function body has a scope");
        let res = match count {
            Some(n) => scope.declare_range(text, n, def),
            None => scope.declare(text, def),
        };
        if res.is_err() {
            self.error(name.span, format!("`{}`: duplicate declaration", self.t(name)));
        }
    }

    pub(super) fn function(&mut self, f: &'a Function) {
        let Some(body) = &f.body else { return };
        self.body = Some(body);
        let mut params = Scope::default();
        for p in f.rets.iter().chain(&f.params) {
            self.check_decl_type(p.ty);
            let Some(name) = p.name else {
                self.error(p.span, "parameter needs a name");
                continue;
            };
            let sig = param_sig(p, self.src);
            let sym = if p.space == Space::Reg {
                Sym::Reg { ty: sig.ty, vector: None }
            } else {
                Sym::Var {
                    space: Space::Param,
                    ty: sig.ty,
                    elems: sig.elems,
                    array: sig.array,
                    align: sig.align,
                }
            };
            if params.declare(self.t(name), Def { sym, span: name.span }).is_err() {
                self.error(name.span, format!("`{}`: duplicate parameter name", self.t(name)));
            }
        }
        // The body's outermost block shares its scope with the parameters: ptxas
        // rejects a register named like a parameter.
        self.scopes.push(params);
        self.block_stmts(body);
        self.scopes.pop();
    }

    /// Is `name` a label anywhere in the current body, visible here or not? (For
    /// messages only, so it walks the body on demand.)
    pub(crate) fn label_in_body(&self, name: &str) -> bool {
        fn walk(src: &str, pool: &Pool, stmts: &[Stmt], name: &str) -> bool {
            stmts.iter().any(|s| match s {
                Stmt::Label(l)
                | Stmt::BranchTargets { label: l, .. }
                | Stmt::CallTargets { label: l, .. }
                | Stmt::CallPrototype { label: l, .. } => l.text(src) == name,
                Stmt::Block(b) => walk(src, pool, pool.stmts(b), name),
                _ => false,
            })
        }
        self.body.is_some_and(|b| walk(self.src, self.pool, self.pool.stmts(b), name))
    }

    /// Declares the labels of one block in the innermost scope. Labels are scoped by
    /// block (ptxas: a label in a nested block is unknown outside it), visible from
    /// the whole block, so forward branches resolve.
    pub(super) fn declare_labels(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            let (name, kind) = match s {
                Stmt::Label(l) => (*l, LabelKind::Plain),
                Stmt::BranchTargets { label, .. } => (*label, LabelKind::BranchTargets),
                Stmt::CallTargets { label, targets } => {
                    (*label, LabelKind::CallTargets(targets.iter().map(|t| self.t(t)).collect()))
                }
                Stmt::CallPrototype { label, proto } => (
                    *label,
                    LabelKind::Prototype {
                        rets: proto.rets.iter().map(|p| param_sig(p, self.src)).collect(),
                        params: proto.params.iter().map(|p| param_sig(p, self.src)).collect(),
                    },
                ),
                _ => continue,
            };
            let text = self.t(name);
            let scope = self.scopes.last_mut().expect("a function body has a scope");
            if scope.labels.insert(text, Label { kind, span: name.span }).is_some() {
                self.error(name.span, format!("`{}`: duplicate label", self.t(name)));
            }
        }
    }

    /// The label visible here with this name, innermost block first.
    pub(super) fn lookup_label(&self, name: &str) -> Option<Label<'a>> {
        self.scopes.iter().rev().find_map(|s| s.labels.get(name).cloned())
    }

    pub(super) fn block(&mut self, b: &Block) {
        self.scopes.push(Scope::default());
        self.block_stmts(b);
        self.scopes.pop();
    }

    pub(super) fn block_stmts(&mut self, b: &Block) {
        let stmts = self.pool.stmts(b);
        self.declare_labels(stmts);
        for (k, s) in stmts.iter().enumerate() {
            match s {
                Stmt::Var(v) => self.local_var(v),
                Stmt::Block(inner) => self.block(inner),
                Stmt::Instr(i) => {
                    let index = b.stmts.start as usize + k;
                    if let Some(form) = self.instr(&self.pool.view(i))
                        && let Some(slot) = self.form_of.get_mut(index)
                    {
                        *slot = form;
                    }
                }
                Stmt::BranchTargets { label, targets } => {
                    self.require(label.span, ".branchtargets", 60, 30);
                    for t in targets {
                        self.label_target(*t, ".branchtargets");
                    }
                }
                Stmt::CallTargets { label, targets } => {
                    self.require(label.span, ".calltargets", 21, 20);
                    for t in targets {
                        if !matches!(self.globals.lookup(self.t(t)), Some(Def { sym: Sym::Func(_), .. })) {
                            self.error(
                                t.span,
                                format!(".calltargets: `{}` is not a declared function", self.t(t)),
                            );
                        }
                    }
                }
                Stmt::CallPrototype { label, proto } => {
                    self.require(label.span, ".callprototype", 21, 20);
                    if proto.noreturn && !proto.rets.is_empty() {
                        let msg =
                            ".callprototype: .noreturn applies only to a prototype without return values";
                        self.error(label.span, msg);
                    }
                }
                Stmt::Unknown(n) => self.error(n.span, format!("unknown directive `{}`", self.t(n))),
                Stmt::Label(_) | Stmt::Skipped(_) => {}
            }
        }
    }

    /// A branch target: a plain label visible from here.
    pub(crate) fn label_target(&mut self, n: Name, instr: &str) {
        // Registers and variables shadow labels of the same name (ptxas: "Label
        // expected"); a function name does not.
        if self.lookup(self.t(n)).is_some_and(|d| !matches!(d.sym, Sym::Func(_))) {
            self.error(n.span, format!("{instr}: `{}` is a register or variable, not a label", self.t(n)));
            return;
        }
        match self.lookup_label(self.t(n)) {
            Some(Label { kind: LabelKind::Plain, .. }) => {}
            Some(_) => {
                self.error(n.span, format!("{instr}: `{}` names a target list, not a code label", self.t(n)))
            }
            None if self.label_in_body(self.t(n)) => self.error(
                n.span,
                format!("{instr}: label `{}` is inside a nested block and not visible here", self.t(n)),
            ),
            None => {
                let what = if self.lookup(self.t(n)).is_some() {
                    "is not a label"
                } else {
                    "is not a label in this function"
                };
                self.error(n.span, format!("{instr}: `{}` {what}", self.t(n)));
            }
        }
    }

    pub(super) fn local_var(&mut self, v: &VarDecl) {
        if v.linkage.is_some() {
            self.error(v.span, "linkage directives are not allowed inside a function");
        }
        if v.space == Space::Sreg || v.space == Space::Tex {
            self.error(v.span, format!("{}: cannot be declared in a function", space_word(v.space)));
        }
        self.check_decl_shape(v);
        for d in &v.vars {
            if let Some(init) = &d.init {
                if !matches!(v.space, Space::Global | Space::Const) {
                    self.error(
                        d.name.span,
                        format!("`{}`: only .global and .const variables take initialisers", self.t(d.name)),
                    );
                }
                self.check_init(init, v.ty, &mut Vec::new(), &mut false);
            }
            let def = self.var_def(v, d);
            self.declare_local(d.name, d.count, def);
        }
    }
}
