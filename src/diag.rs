//! Diagnostics as users read them: `FILE:LINE:COL: error: MESSAGE`, then the source line
//! and a caret under the span. Every stage reports a [`Diagnostic`] (a span and a
//! message); line and column are computed only here, when it is printed.

use crate::syntax::span::{Span, line_bounds, line_col};
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Span,
    pub message: String,
}

impl Diagnostic {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { span, message: message.into() }
    }

    /// Renders the diagnostic against `src`, naming the file `file`.
    pub fn render(&self, file: &str, src: &str) -> String {
        let (line, col) = line_col(src, self.span.start);
        let (ls, le) = line_bounds(src, self.span.start);
        let mut out = String::new();
        let _ = writeln!(out, "{file}:{line}:{col}: error: {}", self.message);
        // Very long lines (generated code) are cut around the caret.
        let start = (self.span.start as usize).clamp(ls, le);
        let (shown_from, prefix) = if start - ls > 120 {
            let mut from = start - 60;
            while !src.is_char_boundary(from) {
                from -= 1;
            }
            (from, "...")
        } else {
            (ls, "")
        };
        let mut shown_to = le.min(shown_from + 240);
        while !src.is_char_boundary(shown_to) {
            shown_to -= 1;
        }
        let shown = &src[shown_from..shown_to];
        let gutter = line.to_string().len();
        let _ = writeln!(out, "{line:>gutter$} | {prefix}{shown}", gutter = gutter);
        let mut pad = prefix.chars().map(|_| ' ').collect::<String>();
        for c in src[shown_from..start].chars() {
            pad.push(if c == '\t' { '\t' } else { ' ' });
        }
        let end = (self.span.end as usize).clamp(start, shown_to);
        let width = src[start..end].chars().count().max(1);
        let _ = writeln!(out, "{:>gutter$} | {pad}{}", "", "^".repeat(width), gutter = gutter);
        out
    }
}

/// Renders several diagnostics in source order.
pub fn render_all(diags: &[Diagnostic], file: &str, src: &str) -> String {
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.span.end));
    sorted.iter().map(|d| d.render(file, src)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_file_line_col_and_caret() {
        let src = ".version 8.0\n\tsetp.lt.b32 %p1, %r1, %r2;\n";
        let d = Diagnostic::new(Span::new(14, 25), "setp.lt.b32: ordering comparison on a bit-size type");
        assert_eq!(
            d.render("k.ptx", src),
            "k.ptx:2:2: error: setp.lt.b32: ordering comparison on a bit-size type\n\
             2 | \tsetp.lt.b32 %p1, %r1, %r2;\n  \
             | \t^^^^^^^^^^^\n"
        );
    }
}
