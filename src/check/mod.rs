//! `check`: validates a parsed module the way `ptxas` does, reporting every error.
//!
//! The checker walks the module once: header directives (`.version`, `.target`,
//! `.address_size`), then module-level symbols (functions, variables, initialisers),
//! then each function body with its scopes, labels and target lists, and every
//! instruction against the instruction-form rules in `instr.rs` and `cmp.rs` and
//! `control.rs`. It never stops at the first error. Once it accepts a module, later
//! stages may rely on every name resolving and every seed instruction being well-formed.

mod body;
mod cmp;
mod control;
mod cvt;
mod decl;
mod form;
mod instr;
mod matrix;
mod mem;
pub mod scope;
pub mod target;
mod tex;
pub mod types;
mod video;
mod wmma;

use crate::diag::Diagnostic;
use crate::isa::Form;
use crate::syntax::Span;
use crate::syntax::ast::*;
use rustc_hash::FxHashMap as HashMap;
use scope::{Def, Label, LabelKind, Scope, Sym};
use target::Sm;
use types::Ty;

/// Is `name` one of PTX's special registers (`%tid`, `%laneid`, `%clock64`, ...)?
pub fn is_special_register(name: &str) -> bool {
    instr::special_register(name).is_some()
}

/// Validates `module` (parsed from `src`); returns every diagnostic, empty if valid.
pub fn check<'a>(module: &'a Module, src: &'a str) -> Vec<Diagnostic> {
    validate(module, src).err().unwrap_or_default()
}

/// What `check` hands on about a valid module (in the manner of naga's `ModuleInfo`):
/// the [`Form`] of each instruction, by the instruction's index in the statement pool.
/// Instructions spelled alike share one form.
#[derive(Debug, Default)]
pub struct ModuleInfo {
    /// The distinct forms of the module.
    pub forms: Vec<Form>,
    /// For each statement of the pool, its form's index in `forms` ([`NO_FORM`] for
    /// a statement that is not an instruction).
    pub form_of: Vec<u32>,
}

/// The form index of a statement that is not an instruction.
pub const NO_FORM: u32 = u32::MAX;

impl ModuleInfo {
    /// The form of the statement at `index` of the pool, when it is an instruction.
    pub fn form(&self, index: usize) -> Option<&Form> {
        self.forms.get(*self.form_of.get(index)? as usize)
    }
}

/// Validates `module` (parsed from `src`): what later stages need to know about it, or
/// every diagnostic.
pub fn validate<'a>(module: &'a Module, src: &'a str) -> Result<ModuleInfo, Vec<Diagnostic>> {
    let mut c = Checker::new(src, &module.pool);
    c.form_of = vec![NO_FORM; module.pool.stmts.len()];
    c.module(module);
    if c.diags.is_empty() { Ok(ModuleInfo { forms: c.forms, form_of: c.form_of }) } else { Err(c.diags) }
}

/// The signature of one parameter (or return value) of a function or prototype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSig {
    pub space: Space,
    pub ty: Ty,
    /// Element count (1 for a scalar).
    pub elems: u64,
    pub array: bool,
    /// Alignment in bytes (`.align N`, else the element size).
    pub align: u32,
    /// An array with an unsized dimension (`.param .b8 _[]`): any element count.
    pub any_len: bool,
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
    /// `.target ..., texmode_independent`: samplers are separate from textures.
    texmode_independent: bool,
    /// The distinct forms met so far, and each instruction's, by statement index.
    forms: Vec<Form>,
    form_of: Vec<u32>,
    /// Forms found valid, by their text (opcode and modifiers).
    form_cache: HashMap<&'a str, form::Cached>,
}

pub(crate) fn param_sig(p: &Param, src: &str) -> ParamSig {
    let ty = Ty::from_word(p.ty.text(src)).unwrap_or(Ty::Other);
    let elems: u64 = p.array.iter().map(|d| d.unwrap_or(1)).product();
    let align = p.align.unwrap_or(ty.bits().div_ceil(8));
    let any_len = p.array.iter().any(Option::is_none);
    ParamSig { space: p.space, ty, elems, array: !p.array.is_empty(), align, any_len }
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
            texmode_independent: false,
            forms: Vec::new(),
            form_of: Vec::new(),
            form_cache: HashMap::default(),
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
        self.check_definitions(m);
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
                "texmode_unified" => {}
                "texmode_independent" => self.texmode_independent = true,
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
