//! ptxvm: load, validate and execute NVIDIA PTX on the CPU.
//!
//! A module flows one way through the stages, each in its own folder:
//! [`syntax`] (text to AST with spans) then [`check`] (the rules of the PTX ISA and of
//! `ptxas`, with diagnostics). See README.md for the picture.

pub mod api;
pub mod check;
pub mod demangle;
pub mod diag;
pub mod exec;
pub mod fatbin;
pub mod isa;
pub mod launch;
pub mod lower;
pub mod npy;
pub mod sem;
pub mod syntax;
pub mod trace;

pub use diag::Diagnostic;

/// Parses and validates a PTX module, returning every diagnostic (empty when valid).
pub fn check_source(src: &str) -> Vec<Diagnostic> {
    parse_and_check(src).err().unwrap_or_default()
}

/// Parses and validates a PTX module: its syntax tree when valid, else every
/// diagnostic.
pub(crate) fn parse_and_check(
    src: &str,
) -> Result<(syntax::ast::Module, check::ModuleInfo), Vec<Diagnostic>> {
    let (module, parse_errors) = syntax::parse(src);
    if !parse_errors.is_empty() {
        // Checking a partly parsed module would only repeat the syntax errors as
        // undefined names; report the syntax errors alone.
        return Err(parse_errors.into_iter().map(|e| Diagnostic::new(e.span, e.message)).collect());
    }
    let info = check::validate(&module, src)?;
    Ok((module, info))
}
