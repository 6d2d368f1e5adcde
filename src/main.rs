//! The `ptxvm` command line: a thin shell over the library (see launch-contract.md).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Load and validate NVIDIA PTX without a GPU.
///
/// ptxvm reads a PTX module as nvcc, clang/LLVM or Triton emit it, checks it the way
/// NVIDIA's assembler `ptxas` does, and reports every problem with its file, line and
/// column. (Running kernels is being built.)
#[derive(Parser)]
#[command(name = "ptxvm", version, about, long_about)]
#[command(after_help = "Examples:
  ptxvm check examples/saxpy.ptx
  nvcc -ptx -arch=sm_90 kernel.cu -o kernel.ptx && ptxvm check kernel.ptx

Exit codes: 0 valid, 1 invalid PTX or bad command line.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and validate a PTX module; prints nothing when it is valid.
    ///
    /// Checks the module syntax, the .version/.target rules, names and scopes, and
    /// the forms of comparison, selection and control-flow instructions as ptxas 13.5
    /// does. Every error goes to stderr, in source order, as FILE:LINE:COL: error:
    /// MESSAGE, the source line and a caret:
    ///
    ///   kernel.ptx:12:6: error: setp.lt.b32: ordering comparison on a bit-size type
    ///   12 |     setp.lt.b32 %p1, %r1, %r2;
    ///      |         ^^^
    ///
    /// Exit code 0 when valid, 1 when invalid.
    #[command(verbatim_doc_comment)]
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
