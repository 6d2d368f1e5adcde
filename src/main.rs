//! The `ptxvm` command line: a thin shell over the library (see launch-contract.md).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Load, validate and run NVIDIA PTX on the CPU.
///
/// ptxvm reads a PTX module (as emitted by nvcc, clang/LLVM or Triton), checks it the
/// way NVIDIA's assembler `ptxas` does, and reports every problem with its file, line
/// and column.
#[derive(Parser)]
#[command(name = "ptxvm", version, about, long_about = None)]
#[command(
    after_help = "Examples:\n  ptxvm check examples/saxpy.ptx\n\nExit codes: 0 valid, 1 invalid PTX or bad command line."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and validate a PTX module; prints nothing when it is valid.
    ///
    /// Every error is printed to stderr as `FILE:LINE:COL: error: MESSAGE` followed by
    /// the source line and a caret. Exit code 0 when valid, 1 when invalid.
    Check {
        /// The PTX file to validate.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Check { file } => check(&file),
    }
}

fn check(file: &PathBuf) -> ExitCode {
    let shown = file.display().to_string();
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("ptxvm: cannot read {shown}: {e}");
            return ExitCode::from(1);
        }
    };
    let src = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
            let (line, col) = ptxvm::syntax::span::line_col(&text, good as u32);
            eprintln!("{shown}:{line}:{col}: error: the file is not valid UTF-8 text (PTX is ASCII)");
            return ExitCode::from(1);
        }
    };
    let diags = ptxvm::check_source(&src);
    if diags.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprint!("{}", ptxvm::diag::render_all(&diags, &shown, &src));
    ExitCode::from(1)
}
