//! Byte spans into the source text, and the line/column arithmetic used only when
//! a diagnostic is rendered (spans stay two `u32`s on every node).

/// A half-open byte range `start..end` into the module's source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// The text this span covers (empty when it is out of range).
    pub fn text(self, src: &str) -> &str {
        src.get(self.start as usize..self.end as usize).unwrap_or("")
    }
}

/// One-based line and column (in characters) of byte offset `pos` in `src`.
pub fn line_col(src: &str, pos: u32) -> (usize, usize) {
    let pos = (pos as usize).min(src.len());
    let before = &src.as_bytes()[..pos];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (line, col)
}

/// The byte range of the whole line that contains `pos`, without its newline.
pub fn line_bounds(src: &str, pos: u32) -> (usize, usize) {
    let bytes = src.as_bytes();
    let pos = (pos as usize).min(bytes.len());
    let start = bytes[..pos].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = bytes[pos..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| pos + i);
    let end = if end > start && bytes[end - 1] == b'\r' { end - 1 } else { end };
    (start, end.max(start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based() {
        let src = "ab\ncd\n\tef";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 4), (2, 2));
        assert_eq!(line_col(src, 7), (3, 2));
        assert_eq!(line_bounds(src, 4), (3, 5));
    }
}
