//! The PTX parser: a recursive-descent reader from tokens to [`Module`].
//!
//! It accepts the whole module syntax of PTX ISA 9.x as nvcc and LLVM emit it:
//! header directives, linkage, `.entry`/`.func` with parameter and return lists,
//! performance directives, declarations in every state space, nested blocks,
//! `.branchtargets`/`.calltargets`/`.callprototype`, and generic instructions.
//! Directives without semantics (`.file`, `.loc`, `.section`, `.pragma`) are kept as
//! [`Item::Skipped`]. On an error it records a [`ParseError`] and resynchronises at the
//! next `;` or `}`, so one pass reports every syntax error. Brace nesting is capped at
//! [`MAX_DEPTH`] so hostile input cannot overflow the stack.

use super::ast::*;
use super::lexer::{Lexer, Tok, Token};
use super::span::Span;

/// Deepest nesting of `{ }` blocks or initialiser lists that the parser accepts.
pub const MAX_DEPTH: usize = 64;

/// A syntax error at a span.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ParseError {
    pub span: Span,
    pub message: String,
}

type PResult<T> = Result<T, ParseError>;

/// Parses a whole module, returning it together with every syntax error found.
pub fn parse(src: &str) -> (Module, Vec<ParseError>) {
    let mut p = Parser::new(src);
    // Reserve the pools once, from upper bounds counted in the text (a statement ends
    // in `;` or is a label, an operand is followed by `,` or `;`, a modifier starts
    // with `.`), so they never grow by copying: growth was the costliest part of
    // parsing large modules.
    p.pool.stmts.reserve(src.len() / 24);
    p.pool.operands.reserve(src.len() / 16);
    p.pool.mods.reserve(src.len() / 28);
    let module = p.module();
    (module, p.errors)
}

/// Is this dotted word a PTX fundamental type (or opaque type) name?
pub fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        ".b8"
            | ".b16"
            | ".b32"
            | ".b64"
            | ".b128"
            | ".u8"
            | ".u16"
            | ".u32"
            | ".u64"
            | ".s8"
            | ".s16"
            | ".s32"
            | ".s64"
            | ".f16"
            | ".f16x2"
            | ".bf16"
            | ".bf16x2"
            | ".f32"
            | ".f64"
            | ".pred"
            | ".tf32"
            | ".e4m3"
            | ".e5m2"
            | ".e4m3x2"
            | ".e5m2x2"
            | ".texref"
            | ".samplerref"
            | ".surfref"
    )
}

pub struct Parser<'a> {
    src: &'a str,
    lexer: Lexer<'a>,
    tok: Token,
    prev_end: u32,
    depth: usize,
    /// Set once a header-order error is reported, so it is reported only once.
    header_reported: bool,
    /// Inside the operands of `call`, where `(1)` is an argument list.
    in_call: bool,
    pool: Pool,
    /// Statements of the blocks being parsed, innermost last.
    scratch: Vec<Stmt>,
    pub errors: Vec<ParseError>,
}

fn err<T>(span: Span, message: impl Into<String>) -> PResult<T> {
    Err(ParseError { span, message: message.into() })
}

impl<'a> Parser<'a> {
    pub fn new(src: &'a str) -> Self {
        let mut lexer = Lexer::new(src);
        let tok = lexer.next_token();
        Parser {
            src,
            lexer,
            tok,
            prev_end: 0,
            depth: 0,
            header_reported: false,
            in_call: false,
            pool: Pool::default(),
            scratch: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_end = t.span.end;
        self.tok = self.lexer.next_token();
        t
    }

    fn text(&self, t: Token) -> &'a str {
        t.span.text(self.src)
    }

    fn name(&self, t: Token) -> Name {
        Name { span: t.span }
    }

    fn at_punct(&self, c: u8) -> bool {
        self.tok.tok == Tok::Punct(c)
    }

    fn eat_punct(&mut self, c: u8) -> bool {
        if self.at_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn at_dot(&self, w: &str) -> bool {
        self.tok.tok == Tok::Dot && self.text(self.tok) == w
    }

    /// Describes the current token for an error message.
    fn found(&self) -> String {
        match self.tok.tok {
            Tok::Eof => "end of file".to_string(),
            Tok::Error => format!("unexpected character `{}`", self.text(self.tok).escape_debug()),
            _ => format!("`{}`", self.text(self.tok)),
        }
    }

    fn unexpected<T>(&self, expected: &str) -> PResult<T> {
        if self.tok.tok == Tok::Error {
            let t = self.text(self.tok);
            let what = if t.starts_with('"') { "unterminated string".to_string() } else { self.found() };
            return err(self.tok.span, format!("{what}; expected {expected}"));
        }
        err(self.tok.span, format!("expected {expected}, found {}", self.found()))
    }

    fn expect_punct(&mut self, c: u8, expected: &str) -> PResult<Span> {
        if self.at_punct(c) { Ok(self.bump().span) } else { self.unexpected(expected) }
    }

    fn expect_ident(&mut self, expected: &str) -> PResult<Name> {
        if self.tok.tok == Tok::Ident {
            let t = self.bump();
            Ok(self.name(t))
        } else {
            self.unexpected(expected)
        }
    }

    fn expect_int(&mut self, expected: &str) -> PResult<(u64, Span)> {
        if self.tok.tok == Tok::Int {
            let t = self.bump();
            Ok((self.int_value(t)?, t.span))
        } else {
            self.unexpected(expected)
        }
    }

    fn int_value(&self, t: Token) -> PResult<u64> {
        let text = self.text(t);
        let body = text.strip_suffix('U').unwrap_or(text);
        let parsed = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            u64::from_str_radix(h, 16)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            u64::from_str_radix(b, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            u64::from_str_radix(&body[1..], 8)
        } else {
            body.parse::<u64>()
        };
        match parsed {
            Ok(v) => Ok(v),
            Err(_) => err(t.span, format!("invalid integer literal `{text}` (PTX integers are 64-bit)")),
        }
    }

    /// Float literal bits: `(bits, is_f32_bits)`.
    fn float_value(&self, t: Token) -> PResult<(u64, bool)> {
        let text = self.text(t);
        let lower = text.as_bytes().get(1).map(|b| b.to_ascii_lowercase());
        if text.starts_with('0') && (lower == Some(b'f') || lower == Some(b'd')) {
            let digits = &text[2..];
            let want = if lower == Some(b'f') { 8 } else { 16 };
            if digits.len() != want {
                return err(
                    t.span,
                    format!("float literal `{text}` must have exactly {want} hexadecimal digits"),
                );
            }
            let bits = u64::from_str_radix(digits, 16).map_err(|_| ParseError {
                span: t.span,
                message: format!("invalid float literal `{text}`"),
            })?;
            return Ok((bits, want == 8));
        }
        match text.parse::<f64>() {
            Ok(v) => Ok((v.to_bits(), false)),
            Err(_) => err(t.span, format!("invalid float literal `{text}`")),
        }
    }

    /// Skips to just after the next `;` at this nesting level, or to a `}` that would
    /// close the enclosing block (left in place), after an error.
    fn recover(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.tok.tok {
                Tok::Eof => return,
                Tok::Punct(b';') if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::Punct(b'{') => depth += 1,
                Tok::Punct(b'}') => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips the rest of the source line (for `.loc` and `.file`, which end at a newline).
    fn skip_line(&mut self) {
        loop {
            if self.tok.tok == Tok::Eof {
                return;
            }
            let gap = &self.src.as_bytes()[self.prev_end as usize..self.tok.span.start as usize];
            if gap.contains(&b'\n') {
                return;
            }
            self.bump();
        }
    }

    // ---- module level -------------------------------------------------------------

    fn module(&mut self) -> Module {
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

    fn module_item(&mut self, m: &mut Module) -> PResult<()> {
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

    fn version(&mut self, at: Span) -> PResult<Version> {
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

    fn section(&mut self) -> PResult<()> {
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

    fn pragma(&mut self) -> PResult<()> {
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

    fn linkage(&mut self) -> Option<Linkage> {
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

    fn function(&mut self, linkage: Option<Linkage>) -> PResult<Function> {
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

    fn param_list(&mut self) -> PResult<Vec<Param>> {
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

    fn param(&mut self) -> PResult<Param> {
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

    fn array_dims(&mut self) -> PResult<Vec<Option<u64>>> {
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
    fn var_decl(&mut self, linkage: Option<Linkage>) -> PResult<VarDecl> {
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

    fn init(&mut self) -> PResult<Init> {
        if self.at_punct(b'{') {
            let open = self.bump().span;
            self.depth += 1;
            if self.depth > MAX_DEPTH {
                return err(open, format!("initialiser nested deeper than {MAX_DEPTH} levels"));
            }
            let mut items = Vec::new();
            if !self.at_punct(b'}') {
                loop {
                    items.push(self.init()?);
                    if !self.eat_punct(b',') {
                        break;
                    }
                }
            }
            let close = self.expect_punct(b'}', "`,` or `}` in the initialiser")?;
            self.depth -= 1;
            return Ok(Init::List(items, open.to(close)));
        }
        let neg = self.eat_punct(b'-');
        match self.tok.tok {
            Tok::Int => {
                let t = self.bump();
                let v = self.int_value(t)?;
                Ok(Init::Int(if neg { v.wrapping_neg() } else { v }, t.span))
            }
            Tok::Float => {
                let t = self.bump();
                let (bits, f32_bits) = self.float_value(t)?;
                let v = if f32_bits { f32::from_bits(bits as u32) as f64 } else { f64::from_bits(bits) };
                Ok(Init::Float(if neg { -v } else { v }, t.span))
            }
            Tok::Ident if !neg => {
                let t = self.bump();
                let mut name = self.name(t);
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

    // ---- function bodies ------------------------------------------------------------

    fn block(&mut self) -> PResult<Block> {
        let open = self.expect_punct(b'{', "`{`")?;
        if self.depth >= MAX_DEPTH {
            return err(open, format!("blocks nested deeper than {MAX_DEPTH} levels"));
        }
        self.depth += 1;
        // Statements collect on the scratch stack (nested blocks above ours) and move
        // to the pool together once the block is complete.
        let base = self.scratch.len();
        let result = self.block_body(open);
        self.depth -= 1;
        let start = self.pool.stmts.len();
        self.pool.stmts.extend(self.scratch.drain(base..));
        let stmts = PoolRange { start: start as u32, len: (self.pool.stmts.len() - start) as u32 };
        result.map(|close| Block { stmts, span: open.to(close) })
    }

    /// The statements of a block up to and including its `}`.
    fn block_body(&mut self, open: Span) -> PResult<Span> {
        loop {
            match self.tok.tok {
                Tok::Punct(b'}') => return Ok(self.bump().span),
                Tok::Eof => {
                    return err(self.tok.span, "unexpected end of file: missing `}` closing this block");
                }
                _ => {}
            }
            match self.stmt() {
                Ok(Some(s)) => self.scratch.push(s),
                Ok(None) => {}
                Err(e) => {
                    // Nesting overflow is fatal for the block: do not dig deeper.
                    let fatal = e.message.contains("nested deeper");
                    self.errors.push(e);
                    if fatal {
                        return err(open, "function body abandoned after the nesting error");
                    }
                    self.recover();
                }
            }
        }
    }

    fn stmt(&mut self) -> PResult<Option<Stmt>> {
        let t = self.tok;
        match t.tok {
            Tok::Punct(b'{') => Ok(Some(Stmt::Block(self.block()?))),
            Tok::Punct(b'@') => Ok(Some(Stmt::Instr(self.instr()?))),
            Tok::Ident => {
                let name = self.name(t);
                self.bump();
                if self.eat_punct(b':') {
                    return self.after_label(name).map(Some);
                }
                Ok(Some(Stmt::Instr(self.instr_after_opcode(None, name)?)))
            }
            Tok::Dot => {
                let word = self.text(t);
                if Space::from_directive(word).is_some() {
                    let v = self.var_decl(None)?;
                    self.expect_punct(b';', "`;` after the declaration")?;
                    return Ok(Some(Stmt::Var(Box::new(v))));
                }
                self.bump();
                match word {
                    ".loc" | ".file" => {
                        self.skip_line();
                        Ok(Some(Stmt::Skipped(self.name(t))))
                    }
                    ".pragma" => {
                        self.pragma()?;
                        Ok(Some(Stmt::Skipped(self.name(t))))
                    }
                    _ => {
                        self.recover();
                        Ok(Some(Stmt::Unknown(self.name(t))))
                    }
                }
            }
            Tok::Punct(b';') => {
                self.bump();
                Ok(None)
            }
            _ => self.unexpected("an instruction, label, declaration or `}`"),
        }
    }

    fn after_label(&mut self, label: Name) -> PResult<Stmt> {
        if self.tok.tok != Tok::Dot {
            return Ok(Stmt::Label(label));
        }
        let kw = self.text(self.tok);
        match kw {
            ".branchtargets" | ".calltargets" => {
                self.bump();
                let mut targets = vec![self.expect_ident("a target name")?];
                while self.eat_punct(b',') {
                    targets.push(self.expect_ident("a target name")?);
                }
                self.expect_punct(b';', "`;`")?;
                Ok(if kw == ".branchtargets" {
                    Stmt::BranchTargets { label, targets }
                } else {
                    Stmt::CallTargets { label, targets }
                })
            }
            ".callprototype" => {
                self.bump();
                let mut rets = Vec::new();
                if self.at_punct(b'(') {
                    rets = self.param_list()?;
                }
                let placeholder = self.expect_ident("`_` in the prototype")?;
                if placeholder.text(self.src) != "_" {
                    return err(placeholder.span, "`.callprototype` names its function `_`");
                }
                let mut params = Vec::new();
                if self.at_punct(b'(') {
                    params = self.param_list()?;
                }
                let mut noreturn = false;
                while self.tok.tok == Tok::Dot {
                    let d = self.bump();
                    if self.text(d) == ".noreturn" {
                        noreturn = true;
                    } else {
                        return err(d.span, format!("unexpected `{}` in `.callprototype`", self.text(d)));
                    }
                }
                self.expect_punct(b';', "`;`")?;
                Ok(Stmt::CallPrototype { label, proto: Box::new(Prototype { rets, params, noreturn }) })
            }
            _ => Ok(Stmt::Label(label)),
        }
    }

    fn instr(&mut self) -> PResult<Instr> {
        let at = self.expect_punct(b'@', "`@`")?;
        let negated = self.eat_punct(b'!');
        let pred = self.expect_ident("a predicate register after `@`")?;
        let opcode = self.expect_ident("an instruction after the guard")?;
        let mut i = self.instr_after_opcode(Some(Guard { negated, pred }), opcode)?;
        i.span = at.to(i.span);
        Ok(i)
    }

    fn instr_after_opcode(&mut self, guard: Option<Guard>, opcode: Name) -> PResult<Instr> {
        let mods_start = self.pool.mods.len();
        while self.tok.tok == Tok::Dot {
            let t = self.bump();
            let n = self.name(t);
            self.pool.mods.push(n);
        }
        let ops_start = self.pool.operands.len();
        self.in_call = opcode.text(self.src) == "call";
        let result = self.operand_list();
        self.in_call = false;
        let mods = PoolRange { start: mods_start as u32, len: (self.pool.mods.len() - mods_start) as u32 };
        let operands =
            PoolRange { start: ops_start as u32, len: (self.pool.operands.len() - ops_start) as u32 };
        if let Err(e) = result {
            self.pool.mods.truncate(mods_start);
            self.pool.operands.truncate(ops_start);
            return Err(e);
        }
        let semi = self.tok.span;
        self.bump();
        Ok(Instr { guard, opcode, mods, operands, span: opcode.span.to(semi) })
    }

    /// Operands up to and including the `;`, pushed onto the pool.
    fn operand_list(&mut self) -> PResult<()> {
        if !self.at_punct(b';') {
            loop {
                let op = self.operand()?;
                self.pool.operands.push(op);
                if !self.eat_punct(b',') {
                    break;
                }
            }
        }
        if !self.at_punct(b';') {
            return self.unexpected("`,` or `;` after the operand");
        }
        Ok(())
    }

    fn operand(&mut self) -> PResult<Operand> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            err(self.tok.span, format!("operand nested deeper than {MAX_DEPTH} levels"))
        } else {
            self.operand_inner()
        };
        self.depth -= 1;
        r
    }

    fn operand_inner(&mut self) -> PResult<Operand> {
        let t = self.tok;
        match t.tok {
            Tok::Punct(b'!') => {
                self.bump();
                let inner = match self.tok.tok {
                    Tok::Ident | Tok::Int => self.operand_inner()?,
                    _ => return self.unexpected("a predicate or number after `!`"),
                };
                if matches!(inner, Operand::Pair(..)) {
                    return err(inner.span(), "`!` applies to one predicate, not a pair");
                }
                let span = t.span.to(inner.span());
                Ok(Operand::Not(Box::new(inner), span))
            }
            Tok::Punct(b'-') => {
                self.bump();
                match self.tok.tok {
                    Tok::Int | Tok::Punct(b'(' | b'~' | b'-') => {
                        let (v, u, span) = self.const_unary_full()?;
                        let (v, _, span) =
                            self.const_binary_rest((v.wrapping_neg(), u, t.span.to(span)), 0)?;
                        Ok(Operand::Int { bits: v, span })
                    }
                    Tok::Float => {
                        let n = self.bump();
                        let (bits, f32b) = self.float_value(n)?;
                        if self.text(n).as_bytes().get(1).is_some_and(|b| b.is_ascii_alphabetic()) {
                            // ptxas: a bit-pattern literal takes no sign.
                            return err(
                                t.span.to(n.span),
                                "a `0f`/`0d` bit-pattern literal cannot be negated",
                            );
                        }
                        let sign = if f32b { 1u64 << 31 } else { 1u64 << 63 };
                        Ok(Operand::Float { bits: bits ^ sign, is_f32_bits: f32b, span: t.span.to(n.span) })
                    }
                    _ => self.unexpected("a number after `-`"),
                }
            }
            Tok::Int | Tok::Punct(b'~') => {
                let (bits, span) = self.const_expr()?;
                Ok(Operand::Int { bits, span })
            }
            Tok::Float => {
                self.bump();
                let (bits, is_f32_bits) = self.float_value(t)?;
                Ok(Operand::Float { bits, is_f32_bits, span: t.span })
            }
            Tok::Punct(b'{') => {
                self.bump();
                let mut items = Vec::new();
                loop {
                    items.push(self.operand()?);
                    if !self.eat_punct(b',') {
                        break;
                    }
                }
                let close = self.expect_punct(b'}', "`,` or `}` in the vector operand")?;
                Ok(Operand::Vector(items, t.span.to(close)))
            }
            Tok::Punct(b'(') => {
                self.bump();
                if !self.in_call && matches!(self.tok.tok, Tok::Int | Tok::Punct(b'(' | b'-' | b'~')) {
                    // A parenthesised constant expression, not an argument list.
                    let inner = self.const_binary()?;
                    let close = self.expect_punct(b')', "`)` closing the expression")?;
                    let v = self.const_binary_rest((inner.0, inner.1, t.span.to(close)), 0)?;
                    return Ok(Operand::Int { bits: v.0, span: v.2 });
                }
                let mut items = Vec::new();
                if !self.at_punct(b')') {
                    loop {
                        items.push(self.operand()?);
                        if !self.eat_punct(b',') {
                            break;
                        }
                    }
                }
                let close = self.expect_punct(b')', "`,` or `)` in the list")?;
                Ok(Operand::List(items, t.span.to(close)))
            }
            Tok::Punct(b'[') => self.address(),
            Tok::Ident => {
                self.bump();
                let n = self.name(t);
                let first = if n.text(self.src) == "_" {
                    Operand::Sink(n.span)
                } else if self.tok.tok == Tok::Dot && self.tok.span.start == n.span.end {
                    let c = self.bump();
                    Operand::Component(n, c.span)
                } else if (self.at_punct(b'+') || self.at_punct(b'-')) && n.text(self.src).starts_with('%') {
                    // `%r1+4`: ptxas takes a register plus a constant offset.
                    let minus = self.bump().tok == Tok::Punct(b'-');
                    let (v, span) = self.const_expr()?;
                    let offset = if minus { (v as i64).wrapping_neg() } else { v as i64 };
                    Operand::Offset(n, offset, n.span.to(span))
                } else {
                    Operand::Name(n)
                };
                if self.eat_punct(b'|') {
                    let second = self.expect_ident("a predicate or `_` after `|`")?;
                    let second = if second.text(self.src) == "_" {
                        Operand::Sink(second.span)
                    } else {
                        Operand::Name(second)
                    };
                    return Ok(Operand::Pair(Box::new(first), Box::new(second)));
                }
                Ok(first)
            }
            _ => self.unexpected("an operand"),
        }
    }

    /// A constant integer expression (PTX ISA 4.6): C operators `* / % + - << >> & ^ |`
    /// and unary `- ~ !` over 64-bit integers; unsigned when any literal has `U`.
    fn const_expr(&mut self) -> PResult<(u64, Span)> {
        let (v, _, span) = self.const_binary()?;
        Ok((v, span))
    }

    fn const_binary(&mut self) -> PResult<(u64, bool, Span)> {
        let first = self.const_unary_full()?;
        self.const_binary_rest(first, 0)
    }

    /// The binary operator at the cursor with its precedence and token count.
    fn binary_op(&self) -> Option<(u8, u8)> {
        let Tok::Punct(c) = self.tok.tok else { return None };
        let prec = match c {
            b'*' | b'/' | b'%' => 5,
            b'+' | b'-' => 4,
            b'<' | b'>' => {
                // Only `<<` and `>>` (two adjacent tokens) are operators here.
                let src = self.src.as_bytes();
                let next = src.get(self.tok.span.end as usize).copied();
                if next != Some(c) {
                    return None;
                }
                3
            }
            b'&' => 2,
            b'^' => 1,
            b'|' => 0,
            _ => return None,
        };
        Some((c, prec))
    }

    fn const_binary_rest(&mut self, lhs: (u64, bool, Span), min_prec: u8) -> PResult<(u64, bool, Span)> {
        let (mut v, mut unsigned, mut span) = lhs;
        while let Some((op, prec)) = self.binary_op() {
            if prec < min_prec {
                break;
            }
            let op_span = self.bump().span;
            if op == b'<' || op == b'>' {
                self.bump();
            }
            let mut rhs = self.const_unary_full()?;
            while let Some((_, p)) = self.binary_op() {
                if p <= prec {
                    break;
                }
                rhs = self.const_binary_rest(rhs, p)?;
            }
            unsigned |= rhs.1;
            let r = rhs.0;
            v = match op {
                b'*' => v.wrapping_mul(r),
                b'+' => v.wrapping_add(r),
                b'-' => v.wrapping_sub(r),
                b'&' => v & r,
                b'^' => v ^ r,
                b'|' => v | r,
                b'<' => v.wrapping_shl(r.min(64) as u32).min(if r >= 64 { 0 } else { u64::MAX }),
                b'>' if unsigned => {
                    if r >= 64 {
                        0
                    } else {
                        v >> r
                    }
                }
                b'>' => ((v as i64) >> r.min(63)) as u64,
                b'/' | b'%' => {
                    if r == 0 {
                        return err(op_span, "division by zero in a constant expression");
                    }
                    match (op, unsigned) {
                        (b'/', true) => v / r,
                        (b'/', false) => (v as i64).wrapping_div(r as i64) as u64,
                        (_, true) => v % r,
                        (_, false) => (v as i64).wrapping_rem(r as i64) as u64,
                    }
                }
                _ => v,
            };
            span = span.to(rhs.2);
        }
        Ok((v, unsigned, span))
    }

    fn const_unary_full(&mut self) -> PResult<(u64, bool, Span)> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return err(self.tok.span, format!("expression nested deeper than {MAX_DEPTH} levels"));
        }
        let r = self.const_atom();
        self.depth -= 1;
        r
    }

    fn const_atom(&mut self) -> PResult<(u64, bool, Span)> {
        let t = self.tok;
        match t.tok {
            Tok::Int => {
                self.bump();
                let v = self.int_value(t)?;
                Ok((v, self.text(t).ends_with('U'), t.span))
            }
            Tok::Punct(c @ (b'-' | b'~' | b'!')) => {
                self.bump();
                let (v, u, s) = self.const_unary_full()?;
                let v = match c {
                    b'-' => v.wrapping_neg(),
                    b'~' => !v,
                    _ => u64::from(v == 0),
                };
                Ok((v, u, t.span.to(s)))
            }
            Tok::Punct(b'(') => {
                self.bump();
                let inner = self.const_binary()?;
                let close = self.expect_punct(b')', "`)` closing the expression")?;
                Ok((inner.0, inner.1, t.span.to(close)))
            }
            _ => self.unexpected("a number in the constant expression"),
        }
    }

    fn address(&mut self) -> PResult<Operand> {
        let open = self.expect_punct(b'[', "`[`")?;
        let mut base = None;
        let mut offset = 0i64;
        match self.tok.tok {
            Tok::Ident => {
                let t = self.bump();
                base = Some(self.name(t));
                if self.at_punct(b'+') || self.at_punct(b'-') {
                    let minus = self.bump().tok == Tok::Punct(b'-');
                    let neg = self.eat_punct(b'-') ^ minus;
                    let (v, _) = self.expect_int("an offset")?;
                    offset = if neg { (v as i64).wrapping_neg() } else { v as i64 };
                }
            }
            Tok::Int | Tok::Punct(b'-') => {
                let neg = self.eat_punct(b'-');
                let (v, _) = self.expect_int("an address")?;
                offset = if neg { (v as i64).wrapping_neg() } else { v as i64 };
            }
            _ => return self.unexpected("a register, variable or number in the address"),
        }
        let close = self.expect_punct(b']', "`]` closing the address")?;
        Ok(Operand::Addr(Address { base, offset, span: open.to(close) }))
    }
}
