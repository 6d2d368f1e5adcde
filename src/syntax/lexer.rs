//! The PTX lexer: bytes in, tokens with spans out, one at a time.
//!
//! PTX's vocabulary is mostly dotted words (`.reg`, `.u32`, `.shared::cta`), identifiers
//! (`%r1`, `$L__BB0_2`, `_Z3fooi`) and numbers in C-like and bit-pattern forms
//! (`0x1F`, `017`, `0b101`, `7U`, `0f3F800000`, `0d3FF0000000000000`, `1.5e3`).
//! The lexer never aborts: a byte it does not know becomes [`Tok::Error`] and the parser
//! decides what to say (PTX ISA 9.x, section 4 "Syntax").

use super::span::Span;

/// The kind of a token. Its text is `span.text(src)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier: `[A-Za-z][A-Za-z0-9_$]*` or `[_$%][A-Za-z0-9_$]+`, or the sink `_`.
    Ident,
    /// A dotted word with optional `::` parts: `.u32`, `.shared::cta`, `.2d`.
    Dot,
    /// An integer literal (any base, optional `U` suffix).
    Int,
    /// A floating-point literal: decimal with a point or exponent, or `0f`/`0d` bits.
    Float,
    /// A double-quoted string.
    Str,
    /// One punctuation byte: `, ; : { } ( ) [ ] < > + - | ! @ =`.
    Punct(u8),
    /// A byte (or unterminated construct) the lexer does not understand.
    Error,
    /// End of input.
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Streams tokens from PTX source text, skipping whitespace and comments.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

/// Byte classes, looked up once per byte on the hot path.
const SPACE: u8 = 1;
const IDENT_START: u8 = 2;
const IDENT_CONT: u8 = 4;

const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut k = 0;
        if c.is_ascii_whitespace() || c == 0x0b {
            k |= SPACE;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' {
            k |= IDENT_START;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            k |= IDENT_CONT;
        }
        t[b] = k;
        b += 1;
    }
    t
};

fn is_ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

fn is_ident_continue(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CONT != 0
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer { src: src.as_bytes(), pos: 0 }
    }

    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    /// Skips whitespace and comments; an unterminated block comment runs to the end.
    fn skip_trivia(&mut self) {
        loop {
            let rest = &self.src[self.pos.min(self.src.len())..];
            let n = rest.iter().position(|&b| CLASS[b as usize] & SPACE == 0).unwrap_or(rest.len());
            self.pos += n;
            if self.at(self.pos) != b'/' {
                return;
            }
            match self.at(self.pos + 1) {
                b'/' => match self.src[self.pos..].iter().position(|&b| b == b'\n') {
                    Some(n) => self.pos += n,
                    None => self.pos = self.src.len(),
                },
                b'*' => {
                    let rest = &self.src[self.pos + 2..];
                    match rest.windows(2).position(|w| w == b"*/") {
                        Some(n) => self.pos += n + 4,
                        None => self.pos = self.src.len(),
                    }
                }
                _ => return,
            }
        }
    }

    /// Advances past bytes of class `class`.
    fn eat_class(&mut self, class: u8) {
        let rest = &self.src[self.pos.min(self.src.len())..];
        self.pos += rest.iter().position(|&b| CLASS[b as usize] & class == 0).unwrap_or(rest.len());
    }

    fn eat_while(&mut self, f: impl Fn(u8) -> bool) {
        while self.pos < self.src.len() && f(self.src[self.pos]) {
            self.pos += 1;
        }
    }

    /// The next token; [`Tok::Eof`] forever once the input is exhausted.
    pub fn next_token(&mut self) -> Token {
        self.skip_trivia();
        let start = self.pos;
        let tok = self.lex_one();
        Token { tok, span: Span::new(start as u32, self.pos as u32) }
    }

    fn lex_one(&mut self) -> Tok {
        let Some(&b) = self.src.get(self.pos) else {
            return Tok::Eof;
        };
        if is_ident_start(b) {
            let start = self.pos;
            self.pos += 1;
            self.eat_class(IDENT_CONT);
            // `%` or `$` alone is not a name.
            if (b == b'%' || b == b'$') && self.pos == start + 1 {
                return Tok::Error;
            }
            return Tok::Ident;
        }
        if b == b'.' && (is_ident_continue(self.at(self.pos + 1))) {
            self.pos += 1;
            self.eat_class(IDENT_CONT);
            while self.at(self.pos) == b':'
                && self.at(self.pos + 1) == b':'
                && is_ident_continue(self.at(self.pos + 2))
            {
                self.pos += 2;
                self.eat_class(IDENT_CONT);
            }
            return Tok::Dot;
        }
        if b.is_ascii_digit() {
            return self.number();
        }
        if b == b'"' {
            self.pos += 1;
            while self.pos < self.src.len() {
                match self.src[self.pos] {
                    b'"' => {
                        self.pos += 1;
                        return Tok::Str;
                    }
                    b'\\' => self.pos += 2,
                    b'\n' => return Tok::Error,
                    _ => self.pos += 1,
                }
            }
            self.pos = self.src.len();
            return Tok::Error;
        }
        self.pos += 1;
        match b {
            b',' | b';' | b':' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'<' | b'>' | b'+' | b'-'
            | b'|' | b'!' | b'@' | b'=' | b'*' | b'/' | b'&' | b'~' | b'^' | b'?' => Tok::Punct(b),
            _ => {
                // Skip the rest of a multi-byte UTF-8 character so spans stay on char boundaries.
                while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                    self.pos += 1;
                }
                Tok::Error
            }
        }
    }

    fn number(&mut self) -> Tok {
        let b0 = self.src[self.pos];
        let b1 = self.at(self.pos + 1).to_ascii_lowercase();
        if b0 == b'0' && (b1 == b'f' || b1 == b'd') && self.at(self.pos + 2).is_ascii_hexdigit() {
            self.pos += 2;
            self.eat_while(|c| c.is_ascii_hexdigit());
            return Tok::Float;
        }
        if b0 == b'0' && (b1 == b'x' || b1 == b'b') && self.at(self.pos + 2).is_ascii_hexdigit() {
            self.pos += 2;
            self.eat_while(|c| c.is_ascii_hexdigit());
            if self.at(self.pos) == b'U' {
                self.pos += 1;
            }
            return Tok::Int;
        }
        self.eat_while(|c| c.is_ascii_digit());
        let mut float = false;
        if self.at(self.pos) == b'.' && self.at(self.pos + 1).is_ascii_digit() {
            float = true;
            self.pos += 1;
            self.eat_while(|c| c.is_ascii_digit());
        }
        let e = self.at(self.pos);
        if e == b'e' || e == b'E' {
            let s = self.at(self.pos + 1);
            let digit_at = if s == b'+' || s == b'-' { 2 } else { 1 };
            if self.at(self.pos + digit_at).is_ascii_digit() {
                float = true;
                self.pos += digit_at;
                self.eat_while(|c| c.is_ascii_digit());
            }
        }
        if float {
            return Tok::Float;
        }
        if self.at(self.pos) == b'U' {
            self.pos += 1;
        }
        Tok::Int
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Tok, &str)> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token();
            if t.tok == Tok::Eof {
                return out;
            }
            out.push((t.tok, t.span.text(src)));
        }
    }

    #[test]
    fn dotted_words_identifiers_and_numbers() {
        use Tok::*;
        assert_eq!(
            kinds("@!%p1 ld.shared::cta.u32 %r<4>, [$L__x+0x10U]; // c\n 0f3F800000 1.5e-3 017 /* x */ _"),
            vec![
                (Punct(b'@'), "@"),
                (Punct(b'!'), "!"),
                (Ident, "%p1"),
                (Ident, "ld"),
                (Dot, ".shared::cta"),
                (Dot, ".u32"),
                (Ident, "%r"),
                (Punct(b'<'), "<"),
                (Int, "4"),
                (Punct(b'>'), ">"),
                (Punct(b','), ","),
                (Punct(b'['), "["),
                (Ident, "$L__x"),
                (Punct(b'+'), "+"),
                (Int, "0x10U"),
                (Punct(b']'), "]"),
                (Punct(b';'), ";"),
                (Float, "0f3F800000"),
                (Float, "1.5e-3"),
                (Int, "017"),
                (Ident, "_"),
            ]
        );
    }

    #[test]
    fn unknown_bytes_and_unterminated_strings_are_error_tokens() {
        assert_eq!(
            kinds("é\u{1}\"abc"),
            vec![(Tok::Error, "é"), (Tok::Error, "\u{1}"), (Tok::Error, "\"abc")]
        );
        assert_eq!(kinds("% $"), vec![(Tok::Error, "%"), (Tok::Error, "$")]);
    }
}
