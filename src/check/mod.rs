//! `check`: validates a parsed module the way `ptxas` does, reporting every error.
//!
//! The checker walks the module once: header directives (`.version`, `.target`,
//! `.address_size`), then module-level symbols (functions, variables, initialisers),
//! then each function body with its scopes, labels and target lists, and every
//! instruction against the instruction-form rules in [`instr`] and [`compare`] and
//! [`control`]. It never stops at the first error. Once it accepts a module, later
//! stages may rely on every name resolving and every seed instruction being well-formed.

mod compare;
mod control;
mod instr;
pub mod scope;
pub mod target;
pub mod types;

use crate::diag::Diagnostic;
use crate::syntax::Span;
use crate::syntax::ast::*;
use rustc_hash::FxHashMap as HashMap;
use scope::{Def, Label, LabelKind, Scope, Sym};
use target::Sm;
use types::Ty;

/// Validates `module` (parsed from `src`); returns every diagnostic, empty if valid.
pub fn check<'a>(module: &'a Module, src: &'a str) -> Vec<Diagnostic> {
    let mut c = Checker::new(src, &module.pool);
    c.module(module);
    c.diags
}

/// The signature of one parameter (or return value) of a function or prototype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSig {
    pub space: Space,
    pub ty: Ty,
    /// Total size in bytes, arrays included.
    pub bytes: u64,
}

#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub kind: FuncKind,
    pub rets: Vec<ParamSig>,
    pub params: Vec<ParamSig>,
    pub defined: bool,
    /// Declared `.extern`: defined in another module (separate compilation).
    pub external: bool,
    /// Where the function is first declared: calls must come after it.
    pub first_decl: Span,
}

/// An instruction as the rules see it: modifiers and operands as slices.
type I<'a> = InstrView<'a>;

pub struct Checker<'a> {
    src: &'a str,
    pool: &'a Pool,
    pub diags: Vec<Diagnostic>,
    /// `.version` as major*10+minor (0 when missing).
    version: u32,
    sm: Option<Sm>,
    globals: Scope<'a>,
    funcs: Vec<FuncInfo>,
    /// Module variables usable as call tables: the functions they hold, or `None`
    /// when they hold something else (so a call through them is an error).
    jump_tables: HashMap<&'a str, Option<Vec<usize>>>,
    scopes: Vec<Scope<'a>>,
    /// The body being checked, searched for labels only when a message needs it.
    body: Option<&'a Block>,
}

pub(crate) fn param_sig(p: &Param, src: &str) -> ParamSig {
    let ty = Ty::from_word(p.ty.text(src)).unwrap_or(Ty::Other);
    let elems: u64 = p.array.iter().map(|d| d.unwrap_or(1)).product();
    ParamSig { space: p.space, ty, bytes: u64::from(ty.bits().div_ceil(8)).saturating_mul(elems) }
}

impl<'a> Checker<'a> {
    fn new(src: &'a str, pool: &'a Pool) -> Self {
        Checker {
            src,
            pool,
            diags: Vec::new(),
            version: 0,
            sm: None,
            globals: Scope::default(),
            funcs: Vec::new(),
            jump_tables: HashMap::default(),
            scopes: Vec::new(),
            body: None,
        }
    }

    /// The text of a name in the module's source.
    fn t(&self, n: impl std::borrow::Borrow<Name>) -> &'a str {
        n.borrow().span.text(self.src)
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::new(span, message));
    }

    fn module(&mut self, m: &'a Module) {
        self.header(m);
        // Module-level names are visible from their declaration on: ptxas rejects an
        // initialiser or alias naming a symbol declared further down.
        for item in &m.items {
            match item {
                Item::Func(f) => self.declare_func(f),
                Item::Var(v) => {
                    self.check_initialisers(v);
                    self.declare_global_var(v);
                }
                Item::Alias { alias, aliasee } => self.check_alias(*alias, *aliasee),
                Item::Unknown(n) => self.error(n.span, format!("unknown directive `{}`", self.t(n))),
                Item::Skipped(_) => {}
            }
        }
        for item in &m.items {
            if let Item::Func(f) = item {
                self.function(f);
            }
        }
    }

    fn header(&mut self, m: &Module) {
        match m.version {
            None => self.error(Span::new(0, 0), "missing `.version` directive (it must come first)"),
            Some(v) => {
                if !target::is_known_version(v.major, v.minor) {
                    self.error(
                        v.span,
                        format!(".version: unsupported PTX ISA version {}.{}", v.major, v.minor),
                    );
                }
                self.version = v.number();
            }
        }
        let Some(tspan) = m.target_span else {
            self.error(Span::new(0, 0), "missing `.target` directive");
            return;
        };
        if let Some(first) = m.targets.first()
            && target::parse_sm(self.t(first)).is_none()
        {
            self.error(
                first.span,
                format!(".target: the first target must be an `sm_` architecture, not `{}`", self.t(first)),
            );
        }
        for t in &m.targets {
            match self.t(t) {
                "texmode_unified" | "texmode_independent" => {}
                "debug" => {
                    let has_debug_info =
                        m.items.iter().any(|i| matches!(i, Item::Skipped(n) if self.t(n) == ".section"));
                    if !has_debug_info {
                        self.error(
                            t.span,
                            ".target debug: the module has no debug information (`.section .debug_*`)",
                        );
                    }
                }
                "map_f64_to_f32" => {
                    if m.targets.iter().filter_map(|t| target::parse_sm(self.t(t))).any(|sm| sm.number >= 13)
                    {
                        self.error(t.span, ".target map_f64_to_f32: not supported with sm_13 or higher");
                    }
                }
                name => match target::parse_sm(name) {
                    Some(sm) => {
                        // Several targets may be named; like ptxas, the last one counts.
                        self.sm = Some(sm);
                        let need = target::min_version_for_sm(sm).unwrap_or(0);
                        if self.version != 0 && self.version < need {
                            self.error(
                                t.span,
                                format!(
                                    ".target {name}: requires PTX ISA version {}.{} or later (module has {}.{})",
                                    need / 10,
                                    need % 10,
                                    self.version / 10,
                                    self.version % 10
                                ),
                            );
                        }
                    }
                    None => self.error(t.span, format!(".target: unknown target `{name}`")),
                },
            }
        }
        if self.sm.is_none() && !m.targets.is_empty() {
            self.error(tspan, ".target: no `sm_` architecture named");
        }
        if let Some((bits, span)) = m.address_size {
            if self.version != 0 && self.version < 23 {
                self.error(span, ".address_size: requires PTX ISA version 2.3 or later");
            } else if bits == 32 {
                self.error(span, ".address_size 32: 32-bit addressing is no longer supported (ptxas 13)");
            } else if bits != 64 {
                self.error(span, ".address_size: must be 64");
            }
        }
    }

    /// Does the module meet a minimum PTX version and `sm_` target? Reports if not.
    fn require(&mut self, span: Span, what: &str, version: u32, sm: u32) {
        if self.version != 0 && self.version < version {
            self.error(
                span,
                format!("{what}: requires PTX ISA version {}.{} or later", version / 10, version % 10),
            );
        }
        if let Some(t) = self.sm
            && t.number < sm
        {
            self.error(span, format!("{what}: requires target sm_{sm} or higher"));
        }
    }

    fn declare_func(&mut self, f: &Function) {
        if f.kind == FuncKind::Func && self.sm.is_some_and(|sm| sm.number < 20) {
            for p in f.rets.iter().chain(&f.params).filter(|p| p.space == Space::Param) {
                self.error(
                    p.span,
                    format!("`{}`: .param function parameters need sm_20 or higher", self.t(f.name)),
                );
            }
        }
        for (d, _) in &f.directives {
            if self.t(d) == ".noreturn" && (f.kind == FuncKind::Entry || !f.rets.is_empty()) {
                self.error(
                    d.span,
                    format!("`{}`: .noreturn applies only to a .func without return values", self.t(f.name)),
                );
            }
        }
        let info = FuncInfo {
            kind: f.kind,
            rets: f.rets.iter().map(|p| param_sig(p, self.src)).collect(),
            params: f.params.iter().map(|p| param_sig(p, self.src)).collect(),
            defined: f.body.is_some(),
            first_decl: f.name.span,
            external: f.linkage == Some(Linkage::Extern),
        };
        if let Some(old) = self.globals.lookup(self.t(f.name)) {
            match old.sym {
                Sym::Func(i) => {
                    let prev = &self.funcs[i];
                    if prev.rets != info.rets || prev.params != info.params || prev.kind != info.kind {
                        self.error(
                            f.name.span,
                            format!("`{}`: declaration does not match an earlier one", self.t(f.name)),
                        );
                    } else if prev.defined && info.defined {
                        self.error(f.name.span, format!("`{}`: function defined twice", self.t(f.name)));
                    } else if info.defined {
                        self.funcs[i].defined = true;
                    }
                }
                _ => self.error(f.name.span, format!("`{}`: name already declared", self.t(f.name))),
            }
            return;
        }
        let idx = self.funcs.len();
        self.funcs.push(info);
        let _ = self.globals.declare(self.t(f.name), Def { sym: Sym::Func(idx), span: f.name.span });
    }

    fn var_def(&self, v: &VarDecl, d: &Declarator) -> Def {
        let ty = Ty::from_word(self.t(v.ty)).unwrap_or(Ty::Other);
        let sym = if v.space == Space::Reg {
            Sym::Reg { ty, vector: v.vector }
        } else {
            let elems =
                d.array.iter().map(|n| n.unwrap_or(0)).product::<u64>() * u64::from(v.vector.unwrap_or(1));
            Sym::Var { space: v.space, ty, elems }
        };
        Def { sym, span: d.name.span }
    }

    fn declare_global_var(&mut self, v: &VarDecl) {
        if matches!(v.space, Space::Reg | Space::Param | Space::Sreg) {
            self.error(v.span, format!("{}: not allowed at module scope", space_word(v.space)));
            return;
        }
        self.check_decl_shape(v);
        for d in &v.vars {
            let def = self.var_def(v, d);
            if self.globals.declare(self.t(d.name), def).is_err() {
                self.error(d.name.span, format!("`{}`: duplicate declaration", self.t(d.name)));
            }
        }
    }

    /// Types that ptxas accepts in a declaration, per version and target.
    fn check_decl_type(&mut self, ty: Name) {
        match self.t(ty) {
            ".bf16" | ".bf16x2" | ".tf32" => self.error(
                ty.span,
                format!("{}: not a declarable type; hold such values in .b16 or .b32 variables", self.t(ty)),
            ),
            ".e4m3" | ".e5m2" | ".e4m3x2" | ".e5m2x2" => {
                self.error(ty.span, format!("{}: may only be used as an instruction type", self.t(ty)))
            }
            ".b128" => self.require(ty.span, "type .b128", 83, 0),
            ".f16x2" => self.require(ty.span, "packed type .f16x2", 0, 53),
            _ => {}
        }
    }

    /// Rules common to every declaration: type, alignment, vector width, register counts.
    fn check_decl_shape(&mut self, v: &VarDecl) {
        self.check_decl_type(v.ty);
        if let Some(a) = v.align
            && (a == 0 || !a.is_power_of_two())
        {
            self.error(v.span, format!(".align {a}: alignment must be a power of two"));
        }
        if let Some(n) = v.vector
            && !matches!(n, 2 | 4 | 8)
        {
            self.error(v.span, format!(".v{n}: vectors have 2, 4 or 8 elements"));
        }
        for d in &v.vars {
            if d.count.is_some() && v.space != Space::Reg {
                self.error(
                    d.name.span,
                    format!("`{}<N>`: parameterised names are for registers only", self.t(d.name)),
                );
            }
            if v.space == Space::Reg && (d.init.is_some() || !d.array.is_empty()) {
                self.error(
                    d.name.span,
                    format!("`{}`: registers cannot be arrays or initialised", self.t(d.name)),
                );
            }
        }
    }

    fn check_initialisers(&mut self, v: &VarDecl) {
        for d in &v.vars {
            let mut funcs = Vec::new();
            let mut only_funcs = d.init.is_some();
            if let Some(init) = &d.init {
                if !matches!(v.space, Space::Global | Space::Const) {
                    let msg =
                        format!("`{}`: only .global and .const variables take initialisers", self.t(d.name));
                    self.error(d.name.span, msg);
                }
                self.check_init(init, v.ty, &mut funcs, &mut only_funcs);
            }
            if matches!(v.space, Space::Global | Space::Const) {
                self.jump_tables.insert(self.t(d.name), only_funcs.then_some(funcs));
            }
        }
    }

    /// Checks an initialiser; collects the functions it names into `funcs` and
    /// clears `only_funcs` when it holds anything else.
    fn check_init(&mut self, init: &Init, ty: Name, funcs: &mut Vec<usize>, only_funcs: &mut bool) {
        match init {
            Init::List(items, _) => items.iter().for_each(|i| self.check_init(i, ty, funcs, only_funcs)),
            Init::Symbol { name, .. } => match self.globals.lookup(self.t(name)) {
                None => self.error(
                    name.span,
                    format!("initialiser: `{}` is not declared before this point", self.t(name)),
                ),
                Some(Def { sym: Sym::Func(f), .. }) => {
                    // ptxas: "Initial value type mismatch" unless the table is .u32/.u64.
                    if !matches!(self.t(ty), ".u32" | ".u64") {
                        let msg = format!(
                            "initialiser: function address `{}` needs a .u32 or .u64 variable, not {}",
                            self.t(name),
                            self.t(ty)
                        );
                        self.error(name.span, msg);
                    }
                    funcs.push(f);
                }
                Some(_) => *only_funcs = false,
            },
            Init::Int(..) | Init::Float(..) => *only_funcs = false,
        }
    }

    fn check_alias(&mut self, alias: Name, aliasee: Name) {
        for n in [alias, aliasee] {
            if !matches!(self.globals.lookup(self.t(n)), Some(Def { sym: Sym::Func(_), .. })) {
                self.error(n.span, format!(".alias: `{}` is not a declared function", self.t(n)));
            }
        }
    }

    /// Resolves a name through the block scopes, then module scope.
    fn lookup(&self, name: &str) -> Option<Def> {
        for s in self.scopes.iter().rev() {
            if let Some(d) = s.lookup(name) {
                return Some(d);
            }
        }
        self.globals.lookup(name)
    }

    fn declare_local(&mut self, name: Name, count: Option<u32>, def: Def) {
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

    fn function(&mut self, f: &'a Function) {
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
                    elems: p.array.iter().map(|d| d.unwrap_or(1)).product(),
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
    fn declare_labels(&mut self, stmts: &[Stmt]) {
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
    fn lookup_label(&self, name: &str) -> Option<Label<'a>> {
        self.scopes.iter().rev().find_map(|s| s.labels.get(name).cloned())
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(Scope::default());
        self.block_stmts(b);
        self.scopes.pop();
    }

    fn block_stmts(&mut self, b: &Block) {
        let stmts = self.pool.stmts(b);
        self.declare_labels(stmts);
        for s in stmts {
            match s {
                Stmt::Var(v) => self.local_var(v),
                Stmt::Block(inner) => self.block(inner),
                Stmt::Instr(i) => self.instr(&self.pool.view(i)),
                Stmt::BranchTargets { label, targets } => {
                    self.require(label.span, ".branchtargets", 60, 30);
                    for t in targets {
                        self.label_target(*t, ".branchtargets");
                    }
                }
                Stmt::CallTargets { targets, .. } => {
                    for t in targets {
                        if !matches!(self.globals.lookup(self.t(t)), Some(Def { sym: Sym::Func(_), .. })) {
                            self.error(
                                t.span,
                                format!(".calltargets: `{}` is not a declared function", self.t(t)),
                            );
                        }
                    }
                }
                Stmt::CallPrototype { proto, .. } => {
                    for p in proto.rets.iter().chain(&proto.params) {
                        if p.space != Space::Param && p.space != Space::Reg {
                            self.error(p.span, ".callprototype: parameters must be `.param` or `.reg`");
                        }
                    }
                }
                Stmt::Unknown(n) => self.error(n.span, format!("unknown directive `{}`", self.t(n))),
                Stmt::Label(_) | Stmt::Skipped(_) => {}
            }
        }
    }

    /// A branch target: a plain label visible from here.
    pub(crate) fn label_target(&mut self, n: Name, instr: &str) {
        // Registers and variables shadow labels of the same name (ptxas: "Label expected").
        if self.lookup(self.t(n)).is_some() {
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

    fn local_var(&mut self, v: &VarDecl) {
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

pub(crate) fn space_word(s: Space) -> &'static str {
    match s {
        Space::Reg => ".reg",
        Space::Sreg => ".sreg",
        Space::Const => ".const",
        Space::Global => ".global",
        Space::Local => ".local",
        Space::Param => ".param",
        Space::Shared => ".shared",
        Space::Tex => ".tex",
    }
}
