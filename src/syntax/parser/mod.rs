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

mod body;
mod module;
mod operand;

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
            | ".u16x2"
            | ".s16x2"
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

    /// Items separated by commas up to and including the `close` byte (the opening
    /// bracket is already consumed); `may_be_empty` allows `()` and `{}`.
    fn list_until<T>(
        &mut self,
        close: u8,
        may_be_empty: bool,
        expected: &str,
        mut item: impl FnMut(&mut Self) -> PResult<T>,
    ) -> PResult<(Vec<T>, Span)> {
        let mut items = Vec::new();
        if !(may_be_empty && self.at_punct(close)) {
            loop {
                items.push(item(self)?);
                if !self.eat_punct(b',') {
                    break;
                }
            }
        }
        let end = self.expect_punct(close, expected)?;
        Ok((items, end))
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
}
