//! Module-level declarations: functions (prototypes, definitions, `.noreturn`),
//! variables in every state space, their types per version and target, initialisers
//! (declared-before-use, function-address tables) and `.alias`.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn declare_func(&mut self, f: &Function) {
        if f.kind == FuncKind::Func && self.sm.is_some_and(|sm| sm.number < 20) {
            for p in f.rets.iter().chain(&f.params).filter(|p| p.space == Space::Param) {
                self.error(
                    p.span,
                    format!("`{}`: .param function parameters need sm_20 or higher", self.t(f.name)),
                );
            }
        }
        if f.kind == FuncKind::Entry {
            for p in f.params.iter().filter(|p| p.space != Space::Param) {
                let name = p.name.map_or("_", |n| self.t(n));
                self.error(p.span, format!("`{name}`: kernel parameters must be in the .param state space"));
            }
        }
        // ptxas: "Predicate variable ... must be in register state space".
        for p in f.rets.iter().chain(&f.params) {
            if p.space == Space::Param && self.t(p.ty) == ".pred" {
                let name = p.name.map_or("_", |n| self.t(n));
                self.error(p.span, format!("`{name}`: a .pred parameter must be a .reg parameter"));
            }
        }
        for (d, _) in &f.directives {
            if self.t(d) == ".noreturn" {
                self.require(d.span, ".noreturn", 64, 0);
            }
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
                    } else if prev.defined {
                        // ptxas: a second definition, or a declaration after the
                        // definition, is a duplicate definition.
                        self.error(f.name.span, format!("`{}`: function already defined", self.t(f.name)));
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

    pub(super) fn var_def(&self, v: &VarDecl, d: &Declarator) -> Def {
        let ty = Ty::from_word(self.t(v.ty)).unwrap_or(Ty::Other);
        let sym = if v.space == Space::Reg {
            Sym::Reg { ty, vector: v.vector }
        } else {
            let elems =
                d.array.iter().map(|n| n.unwrap_or(0)).product::<u64>() * u64::from(v.vector.unwrap_or(1));
            let align = v.align.unwrap_or(ty.bits().div_ceil(8));
            Sym::Var { space: v.space, ty, elems, array: !d.array.is_empty(), align }
        };
        Def { sym, span: d.name.span }
    }

    pub(super) fn declare_global_var(&mut self, v: &VarDecl) {
        // ptxas: no module-scope .local under the ABI, and .tex is gone since PTX 1.5.
        if matches!(v.space, Space::Reg | Space::Param | Space::Sreg | Space::Local | Space::Tex) {
            self.error(v.span, format!("{}: not allowed at module scope", space_word(v.space)));
            return;
        }
        self.check_decl_shape(v);
        for d in &v.vars {
            let def = self.var_def(v, d);
            let res = match d.count {
                Some(n) => self.globals.declare_range(self.t(d.name), n, def),
                None => self.globals.declare(self.t(d.name), def),
            };
            if res.is_err() {
                self.error(d.name.span, format!("`{}`: duplicate declaration", self.t(d.name)));
            }
        }
    }

    /// Types that ptxas accepts in a declaration, per version and target.
    pub(super) fn check_decl_type(&mut self, ty: Name) {
        match self.t(ty) {
            ".bf16" | ".bf16x2" | ".tf32" => self.error(
                ty.span,
                format!("{}: not a declarable type; hold such values in .b16 or .b32 variables", self.t(ty)),
            ),
            ".e4m3" | ".e5m2" | ".e4m3x2" | ".e5m2x2" | ".u16x2" | ".s16x2" => {
                self.error(ty.span, format!("{}: may only be used as an instruction type", self.t(ty)))
            }
            ".b128" => self.require(ty.span, "type .b128", 83, 70),
            ".f16x2" => self.require(ty.span, "packed type .f16x2", 0, 53),
            _ => {}
        }
    }

    /// Rules common to every declaration: type, alignment, vector width, register counts.
    pub(super) fn check_decl_shape(&mut self, v: &VarDecl) {
        self.check_decl_type(v.ty);
        // ptxas: a sampler, even one never used, "violates .target texmode_unified".
        if self.t(v.ty) == ".samplerref" && !self.texmode_independent {
            self.error(
                v.ty.span,
                ".samplerref: needs `.target ..., texmode_independent` (textures are unified by default)",
            );
        }
        if matches!(self.t(v.ty), ".texref" | ".samplerref" | ".surfref") && v.space != Space::Global {
            self.error(
                v.ty.span,
                format!("{}: texture, sampler and surface variables are .global", self.t(v.ty)),
            );
        }
        if let Some(a) = v.align
            && (a == 0 || !a.is_power_of_two())
        {
            self.error(v.span, format!(".align {a}: alignment must be a power of two"));
        }
        if let Some(n) = v.vector {
            let ty = Ty::from_word(self.t(v.ty)).unwrap_or(Ty::Other);
            if !matches!(n, 2 | 4) {
                self.error(v.span, format!(".v{n}: declared vectors have 2 or 4 elements"));
            } else if ty == Ty::Pred {
                self.error(v.span, ".pred: predicates are scalar; no vector of .pred");
            } else if ty.bits() * n > 128 {
                self.error(v.span, format!(".v{n} {}: vectors hold at most 128 bits", self.t(v.ty)));
            }
        }
        for d in &v.vars {
            if v.space == Space::Reg && (d.init.is_some() || !d.array.is_empty()) {
                self.error(
                    d.name.span,
                    format!("`{}`: registers cannot be arrays or initialised", self.t(d.name)),
                );
            }
        }
    }

    pub(super) fn check_initialisers(&mut self, v: &VarDecl) {
        for d in &v.vars {
            let mut funcs = Vec::new();
            let mut only_funcs = d.init.is_some();
            if let Some(init) = &d.init {
                if !matches!(v.space, Space::Global | Space::Const) {
                    let msg =
                        format!("`{}`: only .global and .const variables take initialisers", self.t(d.name));
                    self.error(d.name.span, msg);
                }
                // ptxas: "No initial value is allowed for .f16 type"; a .f16x2 takes
                // none but a braced list ("Initial value type mismatch").
                let ty = self.t(v.ty);
                if ty == ".f16" || (ty == ".f16x2" && !matches!(init, Init::List(..))) {
                    self.error(
                        d.name.span,
                        format!("`{}`: a {ty} variable takes no initial value", self.t(d.name)),
                    );
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
    pub(super) fn check_init(
        &mut self,
        init: &Init,
        ty: Name,
        funcs: &mut Vec<usize>,
        only_funcs: &mut bool,
    ) {
        match init {
            Init::List(items, _) => items.iter().for_each(|i| self.check_init(i, ty, funcs, only_funcs)),
            Init::Masked { mask, symbol, span } => {
                // A byte of an address in a byte array (nvcc, packed structs).
                let byte = (0..8).any(|k| *mask == 0xFF << (8 * k));
                if !byte {
                    self.error(
                        *span,
                        format!(
                            "initialiser: {mask:#x} is not a byte mask (0xFF, 0xFF00, ... 0xFF00000000000000)"
                        ),
                    );
                }
                // ptxas: "Initial value type mismatch" unless .u8, .u32 or .u64.
                if !matches!(self.t(ty), ".u8" | ".u32" | ".u64") {
                    let msg = format!(
                        "initialiser: a byte of an address needs a .u8, .u32 or .u64 variable, not {}",
                        self.t(ty)
                    );
                    self.error(*span, msg);
                }
                match &**symbol {
                    Init::Symbol { name, .. } => self.init_symbol(*name, funcs, only_funcs),
                    _ => self
                        .error(*span, "initialiser: a byte mask applies to a symbol such as `generic(v)+4`"),
                }
            }
            Init::Symbol { name, .. } => {
                // ptxas: "Initial value type mismatch" unless the variable is .u32/.u64.
                if !matches!(self.t(ty), ".u32" | ".u64") {
                    let msg = format!(
                        "initialiser: the address of `{}` needs a .u32 or .u64 variable, not {}",
                        self.t(name),
                        self.t(ty)
                    );
                    self.error(name.span, msg);
                }
                self.init_symbol(*name, funcs, only_funcs);
            }
            Init::Int(..) | Init::Float(..) => *only_funcs = false,
            Init::Attribute { key, value } => {
                *only_funcs = false;
                self.texture_attribute(*key, value, ty);
            }
        }
    }

    /// `key = value` in the initialiser of a `.texref`, `.samplerref` or `.surfref`
    /// (PTX ISA 5.3.3, table "Opaque Type Fields").
    fn texture_attribute(&mut self, key: Name, value: &Init, ty: Name) {
        let kind = self.t(ty);
        let sampler_keys =
            ["filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "force_unnormalized_coords"];
        let image_keys = ["width", "height", "depth", "channel_data_type", "channel_order"];
        let k = self.t(key);
        let known = match kind {
            ".texref" => sampler_keys.contains(&k) || image_keys.contains(&k) || k == "normalized_coords",
            ".samplerref" => sampler_keys.contains(&k) || k == "normalized_coords",
            ".surfref" => image_keys.contains(&k),
            _ => {
                let msg =
                    format!("initialiser: `{k} = ...` is an attribute of a .texref, .samplerref or .surfref");
                self.error(key.span, msg);
                return;
            }
        };
        if !known {
            self.error(key.span, format!("initialiser: {kind} has no attribute `{k}`"));
        }
        let ok = match value {
            Init::Int(..) => !matches!(k, "filter_mode" | "addr_mode_0" | "addr_mode_1" | "addr_mode_2"),
            Init::Symbol { name, generic: false, offset: 0 } => match k {
                "filter_mode" => matches!(self.t(name), "nearest" | "linear"),
                "addr_mode_0" | "addr_mode_1" | "addr_mode_2" => {
                    matches!(
                        self.t(name),
                        "wrap" | "mirror" | "clamp_ogl" | "clamp_to_edge" | "clamp_to_border"
                    )
                }
                _ => false,
            },
            _ => false,
        };
        if !ok {
            self.error(key.span, format!("initialiser: not a value of `{k}`"));
        }
    }

    /// The symbol an initialiser names: declared before, and a function or not.
    fn init_symbol(&mut self, name: Name, funcs: &mut Vec<usize>, only_funcs: &mut bool) {
        let Some(def) = self.globals.lookup(self.t(name)) else {
            let msg = format!("initialiser: `{}` is not declared before this point", self.t(name));
            self.error(name.span, msg);
            return;
        };
        match def.sym {
            Sym::Func(f) => funcs.push(f),
            _ => *only_funcs = false,
        }
    }

    /// `.alias a, f;` (PTX ISA 11.x, ptxas): `a` is a declared prototype without a
    /// body, `f` a defined `.func` with the same signature; afterwards `a` is defined.
    pub(super) fn check_alias(&mut self, alias: Name, aliasee: Name) {
        self.require(alias.span, ".alias", 63, 30);
        let func = |c: &Self, n: Name| match c.globals.lookup(c.t(n)) {
            Some(Def { sym: Sym::Func(i), .. }) => Some(i),
            _ => None,
        };
        let (Some(a), Some(f)) = (func(self, alias), func(self, aliasee)) else {
            for n in [alias, aliasee] {
                if func(self, n).is_none() {
                    self.error(n.span, format!(".alias: `{}` is not a declared function", self.t(n)));
                }
            }
            return;
        };
        let (ai, fi) = (&self.funcs[a], &self.funcs[f]);
        let problem = if fi.kind == FuncKind::Entry {
            Some(format!("`{}` is a kernel; only a .func can be aliased", self.t(aliasee)))
        } else if ai.defined {
            Some(format!("`{}` already has a body", self.t(alias)))
        } else if !fi.defined {
            Some(format!("`{}` is not defined in this module", self.t(aliasee)))
        } else if ai.rets != fi.rets || ai.params != fi.params || ai.kind != fi.kind {
            Some(format!("the prototypes of `{}` and `{}` differ", self.t(alias), self.t(aliasee)))
        } else {
            None
        };
        match problem {
            Some(p) => self.error(alias.span, format!(".alias: {p}")),
            None => self.funcs[a].defined = true,
        }
    }

    /// Every `.func` declared without `.extern` must be defined in the module (ptxas
    /// reports "Unresolved extern function" even when compiling separately).
    pub(super) fn check_definitions(&mut self, m: &Module) {
        for item in &m.items {
            if let Item::Func(f) = item
                && f.linkage != Some(Linkage::Extern)
                && let Some(Def { sym: Sym::Func(i), .. }) = self.globals.lookup(self.t(f.name))
                && !self.funcs[i].defined
                && self.funcs[i].first_decl == f.name.span
            {
                let msg = format!(
                    "`{}` is declared but never defined (declare it .extern if another module defines it)",
                    self.t(f.name)
                );
                self.error(f.name.span, msg);
            }
        }
    }
}
