//! `syntax`: PTX text to an AST with spans. Knows nothing of types or semantics.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod span;

pub use parser::{ParseError, parse};
pub use span::Span;
