//! Module level: header directives, linkage, functions with their parameter lists and
//! performance directives, declarations with initialisers, skipped directives.

use super::*;

impl Parser<'_> {
    pub(super) fn module(&mut self) -> Module {
        let mut m = Module::default();
        while self.tok.tok != Tok::Eof {
            if let Err(e) = self.module_item(&mut m) {
                self.errors.push(e);
                self.recover();
                // A stray `}` at module level would stop recovery forever.
                if self.at_punct(b'}') {
                    self.bump();
                }
            }
        }
        m.pool = std::mem::take(&mut self.pool);
        m
    }

    pub(super) fn module_item(&mut self, m: &mut Module) -> PResult<()> {
        if self.tok.tok != Tok::Dot {
            return self.unexpected("a directive such as `.version`, `.entry` or `.global`");
        }
        let t = self.tok;
        let word = self.text(t);
        // ptxas requires `.version` first and `.target` right after it.
        let order = match (word, m.version.is_some(), m.target_span.is_some()) {
            (".version", false, _) | (_, true, true) | (".target", true, _) => None,
            (".version", true, _) => Some("duplicate `.version` directive"),
            (_, false, _) => Some("missing `.version` directive at the start of the module"),
            (_, true, false) => Some("missing `.target` directive after `.version`"),
        };
        if let Some(message) = order {
            if word == ".version" {
                self.bump();
                return err(t.span, message);
            }
            if !self.header_reported {
                self.header_reported = true;
                self.errors.push(ParseError { span: t.span, message: message.into() });
            }
        }
        match word {
            ".version" => {
                self.bump();
                m.version = Some(self.version(t.span)?);
            }
            ".target" => {
                self.bump();
                let first = self.expect_ident("a target name such as `sm_90`")?;
                m.targets.push(first);
                while self.eat_punct(b',') {
                    let n = self.expect_ident("a target name")?;
                    m.targets.push(n);
                }
                m.target_span = Some(t.span.to(Span::new(t.span.start, self.prev_end)));
            }
            ".address_size" => {
                self.bump();
                let (v, s) = self.expect_int("32 or 64")?;
                if m.address_size.is_some() {
                    return err(t.span, "duplicate `.address_size` directive");
                }
                m.address_size = Some((v.min(u64::from(u32::MAX)) as u32, t.span.to(s)));
            }
            ".file" => {
                self.bump();
                self.skip_line();
                m.items.push(Item::Skipped(self.name(t)));
            }
            ".section" => {
                self.bump();
                self.section()?;
                m.items.push(Item::Skipped(self.name(t)));
            }
            ".pragma" => {
                self.bump();
                self.pragma()?;
                m.items.push(Item::Skipped(self.name(t)));
            }
            ".alias" => {
                self.bump();
                let alias = self.expect_ident("an alias name")?;
                self.expect_punct(b',', "`,`")?;
                let aliasee = self.expect_ident("the aliased function")?;
                self.expect_punct(b';', "`;`")?;
                m.items.push(Item::Alias { alias, aliasee });
            }
            _ => {
                let linkage = self.linkage();
                if self.at_dot(".entry") || self.at_dot(".func") {
                    let f = self.function(linkage)?;
                    m.items.push(Item::Func(f));
                } else if self.tok.tok == Tok::Dot && Space::from_directive(self.text(self.tok)).is_some() {
                    let v = self.var_decl(linkage)?;
                    self.expect_punct(b';', "`;` after the declaration")?;
                    m.items.push(Item::Var(v));
                } else if linkage.is_some() {
                    return self.unexpected("`.entry`, `.func` or a state space after the linkage");
                } else {
                    self.bump();
                    m.items.push(Item::Unknown(self.name(t)));
                    self.recover();
                }
            }
        }
        Ok(())
    }

    pub(super) fn version(&mut self, at: Span) -> PResult<Version> {
        let t = self.bump();
        let text = self.text(t);
        // ptxas reads both parts as decimal numbers: `9.05` is 9.5, `9.10` is 9.10.
        if let (Tok::Float, Some((a, b))) = (t.tok, text.split_once('.'))
            && let (Ok(major), Ok(minor)) = (a.parse::<u32>(), b.parse::<u32>())
            && b.bytes().all(|c| c.is_ascii_digit())
        {
            return Ok(Version { major, minor, span: at.to(t.span) });
        }
        err(t.span, format!("`.version` expects `major.minor` such as `8.0`, found `{text}`"))
    }

    pub(super) fn section(&mut self) -> PResult<()> {
        if self.tok.tok == Tok::Dot || self.tok.tok == Tok::Ident {
            self.bump();
        } else {
            return self.unexpected("a section name");
        }
        // Optional attributes, then a braced body skipped whole.
        while self.tok.tok != Tok::Eof && !self.at_punct(b'{') {
            self.bump();
        }
        let open = self.expect_punct(b'{', "`{` opening the section body")?;
        let mut depth = 1usize;
        while depth > 0 {
            match self.bump().tok {
                Tok::Punct(b'{') => depth += 1,
                Tok::Punct(b'}') => depth -= 1,
                Tok::Eof => return err(open, "unterminated `.section` body"),
                _ => {}
            }
        }
        Ok(())
    }

    pub(super) fn pragma(&mut self) -> PResult<()> {
        if self.tok.tok != Tok::Str {
            return self.unexpected("a string after `.pragma`");
        }
        self.bump();
        while self.eat_punct(b',') {
            if self.tok.tok != Tok::Str {
                return self.unexpected("a string");
            }
            self.bump();
        }
        self.expect_punct(b';', "`;` after `.pragma`")?;
        Ok(())
    }

    pub(super) fn linkage(&mut self) -> Option<Linkage> {
        let l = match self.text(self.tok) {
            ".visible" => Linkage::Visible,
            ".extern" => Linkage::Extern,
            ".weak" => Linkage::Weak,
            ".common" => Linkage::Common,
            _ => return None,
        };
        if self.tok.tok != Tok::Dot {
            return None;
        }
        self.bump();
        Some(l)
    }

    pub(super) fn function(&mut self, linkage: Option<Linkage>) -> PResult<Function> {
        let kw = self.bump();
        let kind = if self.text(kw) == ".entry" { FuncKind::Entry } else { FuncKind::Func };
        let mut rets = Vec::new();
        if kind == FuncKind::Func && self.at_punct(b'(') {
            rets = self.param_list()?;
        }
        let name = self.expect_ident("the function name")?;
        let mut params = Vec::new();
        if self.at_punct(b'(') {
            params = self.param_list()?;
        }
        let mut directives = Vec::new();
        while self.tok.tok == Tok::Dot {
            let d = self.bump();
            let dname = self.name(d);
            if dname.text(self.src) == ".pragma" {
                self.pragma()?;
                directives.push((dname, Vec::new()));
                continue;
            }
            let mut values = Vec::new();
            if self.tok.tok == Tok::Int {
                values.push(self.expect_int("a number")?.0);
                while self.eat_punct(b',') {
                    values.push(self.expect_int("a number")?.0);
                }
            }
            directives.push((dname, values));
        }
        let body = if self.eat_punct(b';') {
            None
        } else if self.at_punct(b'{') {
            Some(self.block()?)
        } else {
            return self.unexpected("`{` opening the function body or `;`");
        };
        Ok(Function { linkage, kind, name, rets, params, directives, body, span: kw.span.to(name.span) })
    }

    pub(super) fn param_list(&mut self) -> PResult<Vec<Param>> {
        self.expect_punct(b'(', "`(`")?;
        let mut out = Vec::new();
        if self.eat_punct(b')') {
            return Ok(out);
        }
        loop {
            out.push(self.param()?);
            if self.eat_punct(b')') {
                return Ok(out);
            }
            self.expect_punct(b',', "`,` or `)` in the parameter list")?;
        }
    }

    pub(super) fn param(&mut self) -> PResult<Param> {
        let start = self.tok.span;
        let space = match Space::from_directive(self.text(self.tok)) {
            Some(s @ (Space::Param | Space::Reg)) if self.tok.tok == Tok::Dot => s,
            _ => return self.unexpected("`.param` or `.reg` in the parameter list"),
        };
        self.bump();
        let mut ty = None;
        let mut align = None;
        while self.tok.tok == Tok::Dot {
            let t = self.bump();
            let w = self.text(t);
            if w == ".align" {
                align = Some(self.expect_int("the alignment")?.0 as u32);
            } else if is_type_word(w) {
                if ty.is_some() {
                    return err(t.span, format!("parameter has a second type `{w}`"));
                }
                ty = Some(self.name(t));
            }
            // Attributes such as `.ptr`, `.global`, `.shared` only describe kernel pointers.
        }
        let Some(ty) = ty else {
            return self.unexpected("a type such as `.u32` for the parameter");
        };
        let name = if self.tok.tok == Tok::Ident {
            let t = self.bump();
            let n = self.name(t);
            if n.text(self.src) == "_" { None } else { Some(n) }
        } else {
            return self.unexpected("the parameter name");
        };
        let array = self.array_dims()?;
        Ok(Param { space, ty, align, name, array, span: start.to(Span::new(start.start, self.prev_end)) })
    }

    pub(super) fn array_dims(&mut self) -> PResult<Vec<Option<u64>>> {
        let mut dims = Vec::new();
        while self.eat_punct(b'[') {
            if self.eat_punct(b']') {
                dims.push(None);
                continue;
            }
            let (n, _) = self.expect_int("the array size")?;
            self.expect_punct(b']', "`]`")?;
            dims.push(Some(n));
        }
        Ok(dims)
    }

    /// `space [.align N] [.vN] .type [attrs] name[<N>][dims][= init] {, ...}` (no `;`).
    pub(super) fn var_decl(&mut self, linkage: Option<Linkage>) -> PResult<VarDecl> {
        let sp = self.bump();
        let space = Space::from_directive(self.text(sp)).unwrap_or(Space::Global);
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        let mut attrs = Vec::new();
        while self.tok.tok == Tok::Dot {
            let t = self.bump();
            let w = self.text(t);
            if w == ".align" {
                align = Some(self.expect_int("the alignment")?.0 as u32);
            } else if w == ".attribute" {
                // `.attribute(.managed)`: kept as the attribute's own word.
                self.expect_punct(b'(', "`(` after `.attribute`")?;
                if self.tok.tok != Tok::Dot {
                    return self.unexpected("an attribute such as `.managed`");
                }
                let a = self.bump();
                attrs.push(self.name(a));
                self.expect_punct(b')', "`)`")?;
            } else if let Some(n) = w.strip_prefix(".v").and_then(|n| n.parse::<u32>().ok()) {
                vector = Some(n);
            } else if is_type_word(w) {
                if ty.is_some() {
                    return err(t.span, format!("declaration has a second type `{w}`"));
                }
                ty = Some(self.name(t));
            } else {
                attrs.push(self.name(t));
            }
        }
        let Some(ty) = ty else {
            return self.unexpected("a type such as `.b32` in the declaration");
        };
        let mut vars = Vec::new();
        loop {
            let name = self.expect_ident("a variable name")?;
            let mut count = None;
            if self.eat_punct(b'<') {
                let (n, s) = self.expect_int("the register count")?;
                if n > u32::MAX as u64 {
                    return err(s, "register count too large");
                }
                count = Some(n as u32);
                self.expect_punct(b'>', "`>`")?;
            }
            let array = self.array_dims()?;
            let init = if self.eat_punct(b'=') { Some(self.init()?) } else { None };
            vars.push(Declarator { name, count, array, init });
            if !self.eat_punct(b',') {
                break;
            }
        }
        Ok(VarDecl {
            linkage,
            space,
            align,
            vector,
            ty,
            attrs,
            vars,
            span: sp.span.to(Span::new(sp.span.start, self.prev_end)),
        })
    }

    pub(super) fn init(&mut self) -> PResult<Init> {
        if self.at_punct(b'{') {
            let open = self.bump().span;
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return err(open, format!("initialiser nested deeper than {MAX_DEPTH} levels"));
            }
            let (items, close) = self.list_until(b'}', true, "`,` or `}` in the initialiser", Self::init)?;
            self.depth -= 1;
            return Ok(Init::List(items, open.to(close)));
        }
        let neg = self.eat_punct(b'-');
        match self.tok.tok {
            Tok::Int => {
                let t = self.bump();
                let v = self.int_value(t)?;
                if !neg && self.eat_punct(b'(') {
                    // `0xFF00(generic(v)+4)`: a byte of an address.
                    if self.tok.tok != Tok::Ident {
                        return self.unexpected("a symbol inside the byte mask `0xFF(...)`");
                    }
                    let symbol = Box::new(self.init()?);
                    self.expect_punct(b')', "`)`")?;
                    return Ok(Init::Masked {
                        mask: v,
                        symbol,
                        span: t.span.to(Span::new(t.span.start, self.prev_end)),
                    });
                }
                Ok(Init::Int(if neg { v.wrapping_neg() } else { v }, t.span))
            }
            Tok::Float => {
                let t = self.bump();
                let (bits, f32_bits) = self.float_value(t)?;
                let v = if f32_bits { f32::from_bits(bits as u32) as f64 } else { f64::from_bits(bits) };
                let exact = f32_bits.then_some(bits as u32 ^ if neg { 1 << 31 } else { 0 });
                Ok(Init::Float(if neg { -v } else { v }, exact, t.span))
            }
            Tok::Ident if !neg => {
                let t = self.bump();
                let mut name = self.name(t);
                if self.eat_punct(b'=') {
                    // `{ filter_mode = nearest, ... }` of a `.texref` or `.samplerref`.
                    let value = Box::new(self.init()?);
                    return Ok(Init::Attribute { key: name, value });
                }
                let mut generic = false;
                if name.text(self.src) == "generic" && self.eat_punct(b'(') {
                    generic = true;
                    name = self.expect_ident("a symbol inside `generic(...)`")?;
                    self.expect_punct(b')', "`)`")?;
                }
                let mut offset = 0i64;
                if self.eat_punct(b'+') {
                    let (v, _) = self.expect_int("an offset")?;
                    offset = v as i64;
                }
                Ok(Init::Symbol { name, generic, offset })
            }
            _ => self.unexpected("an initial value"),
        }
    }
}
