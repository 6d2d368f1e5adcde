//! The `ptxvm` command line: a thin shell over the library (docs/launch-spec.md).

mod drop_in;
mod run;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Load, validate and run NVIDIA PTX without a GPU.
///
/// ptxvm reads a PTX module as nvcc, clang/LLVM or Triton emit it, checks it the way
/// NVIDIA's assembler `ptxas` does, reports every problem with its file, line and
/// column, and runs kernels warp by warp with the semantics of the PTX ISA as an H100
/// runs them. With `exec` it is the GPU of an unmodified CUDA program: its
/// libcuda.so.1 and libcudart.so serve the driver and runtime APIs, NVIDIA's own
/// runtime linked into a program included.
#[derive(Parser)]
#[command(name = "ptxvm", version, about, long_about)]
#[command(after_help = "Examples:
  ptxvm check examples/saxpy.ptx
  ptxvm run examples/saxpy.ptx --launch examples/saxpy.json
  nvcc -ptx -arch=sm_90 kernel.cu -o kernel.ptx && ptxvm check kernel.ptx
  ptxvm exec -- ./app                  # built by plain nvcc, or -cudart shared

Exit codes: 0 success, 1 invalid PTX, launch spec or command line, 2 runtime fault
(exec: the program's own).
The launch spec and result format: docs/launch-spec.md in ptxvm's repository.")]
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
    /// Run one kernel of a PTX module as a launch spec says; print its buffers as JSON.
    ///
    /// The spec (JSON) names the kernel, the grid and block shape, dynamic shared
    /// memory and one argument per kernel parameter: {"type": T, "value": V} for a
    /// scalar, {"buffer": E, "data": [...]} or {"buffer": E, "len": N} for global memory,
    /// {"type": "buffer", "npy": "x.npy"} for global memory filled from a NumPy file
    /// (its path relative to the spec's folder; dtype and length from its header),
    /// {"type": "bytes", "value": "0x0a0b.."} for a struct passed by value (its bytes in
    /// memory order, exactly the parameter's size). docs/launch-spec.md in the
    /// repository has every field.
    /// The result lists every buffer after the kernel ran (also after a fault, with
    /// what was written before it). Device printf output comes first on stdout, in
    /// CTA order and within a CTA in the order it ran; the result JSON is the last
    /// line. A failing assert is a fault with its message, file and line.
    ///
    /// Exit code 0 when the kernel ran, 1 for invalid PTX, a bad spec or an instruction
    /// ptxvm cannot run yet, 2 for a runtime fault (named with the thread and line).
    #[command(verbatim_doc_comment)]
    Run {
        /// The PTX file.
        file: PathBuf,
        /// The launch spec (JSON).
        #[arg(long, value_name = "SPEC.json")]
        launch: PathBuf,
        /// Write the result JSON here instead of stdout.
        #[arg(long, value_name = "OUT.json")]
        out: Option<PathBuf>,
        /// Write each buffer to DIR/<name>.npy (its "name" in the spec, else arg<N>;
        /// NumPy's format, the buffer's dtype; bf16 as its bits, <u2), creating DIR.
        /// The result JSON then lists the files in place of the data:
        /// {"arg": N, "buffer": E, "len": COUNT, "npy": "DIR/<name>.npy"}.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
        /// Bound on the dynamic warp instructions of the launch.
        #[arg(long, value_name = "N", default_value_t = ptxvm::api::DEFAULT_MAX_STEPS)]
        max_steps: u64,
        /// Wall-clock limit of the launch in seconds (0: none). A launch that runs
        /// longer stops with a fault naming a running thread, like Ctrl-C does.
        /// Launches over two seconds show a progress line on a terminal.
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        timeout: f64,
        /// Report as a fault what the GPU carries on from (comma-separated). div0:
        /// integer division or remainder by zero, which the PTX ISA leaves
        /// machine-specific and an H100 answers with all ones.
        #[arg(long, value_name = "WHAT", value_delimiter = ',')]
        check: Vec<Check>,
        /// Check the launch as NVIDIA's compute-sanitizer tools do (comma-separated).
        /// racecheck: two threads of a CTA touching the same shared-memory byte with
        /// no barrier between (or, within a warp, no __syncwarp), at least one
        /// writing. initcheck: a read of shared memory no thread has written. Each
        /// report names the kernel, both threads, both instructions and their CUDA
        /// lines (from .loc), and the run exits 2. memcheck and synccheck are always
        /// on: an out-of-bounds or misaligned access is a fault naming the buffer,
        /// how far past it, the CUDA line and the calls, and barrier misuse (an
        /// .aligned barrier reached from divergent paths, a barrier that cannot
        /// complete, a lane outside its own member mask) is a fault naming every
        /// waiting thread.
        #[arg(long, value_name = "TOOL", value_delimiter = ',')]
        sanitize: Vec<Sanitizer>,
    },
    /// Draw one CTA's execution as an HTML page: divergence made visible.
    ///
    /// The CTA runs alone (the launch spec as for `run`; other CTAs do not run, but
    /// those of its cluster run with it). The page (one file, an SVG inside) has a band per warp, a row per lane and a
    /// column per instruction the warp executed: dark where the lane ran it, pale
    /// where its guard was false, empty where the lane was on another path, waiting
    /// or exited. Red triangles mark divergent branches, green ones reconvergence,
    /// orange lines barrier waits, black squares exits. Hover a column for its PTX
    /// line and instruction.
    ///
    /// Exit code 0 when the CTA ran to its end, 1 for invalid PTX or a bad spec, 2
    /// when it faulted (the page shows what ran up to the fault, and the fault).
    #[command(verbatim_doc_comment)]
    Trace {
        /// The PTX file.
        file: PathBuf,
        /// The launch spec (JSON), as for `run`.
        #[arg(long, value_name = "SPEC.json")]
        launch: PathBuf,
        /// The CTA to draw, by its index in launch order (x fastest).
        #[arg(long, value_name = "N", default_value_t = 0)]
        cta: u64,
        /// The page to write.
        #[arg(short, long, value_name = "OUT.html", default_value = "trace.html")]
        out: PathBuf,
        /// Bound on the dynamic warp instructions of the CTA.
        #[arg(long, value_name = "N", default_value_t = ptxvm::api::DEFAULT_MAX_STEPS)]
        max_steps: u64,
    },
    /// Run an unmodified CUDA program with ptxvm as its GPU.
    ///
    /// The program finds ptxvm's libcuda.so.1 first on its library path: programs
    /// that call the driver API (cuModuleLoadData, cuLaunchKernel, ...) and Python
    /// frameworks that load libcuda.so.1 (cuda-python's cuda.core) run on the CPU.
    /// Kernels come as PTX. The options reach the library as environment variables,
    /// which work alone too (with LD_LIBRARY_PATH naming ptxvm-lib/ beside ptxvm):
    /// PTXVM_MAX_STEPS, PTXVM_TIMEOUT, PTXVM_CHECK, PTXVM_SANITIZE, and
    /// PTXVM_LOG=api to write each driver call, its arguments and its result.
    /// A kernel fault is reported on stderr and the program gets CUDA's error.
    ///
    /// Exit code: the program's, or 2 when --sanitize found hazards in a program
    /// that exited 0; 1 when the program cannot start.
    #[command(verbatim_doc_comment)]
    Exec {
        /// Bound on the dynamic warp instructions of each launch.
        #[arg(long, value_name = "N")]
        max_steps: Option<u64>,
        /// Wall-clock limit of each launch in seconds (0: none).
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// As for `run`: div0.
        #[arg(long, value_name = "WHAT", value_delimiter = ',')]
        check: Vec<Check>,
        /// As for `run`: racecheck, initcheck. A hazard is reported when it happens,
        /// and makes exec exit non-zero after the program ends.
        #[arg(long, value_name = "TOOL", value_delimiter = ',')]
        sanitize: Vec<Sanitizer>,
        /// `api`: each driver call, its arguments and its result on stderr.
        #[arg(long, value_name = "WHAT")]
        log: Option<String>,
        /// The program and its arguments, after `--`.
        #[arg(trailing_var_arg = true, required = true, value_name = "PROGRAM")]
        program: Vec<std::ffi::OsString>,
    },
}

/// The tools `--sanitize` takes, by compute-sanitizer's names.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Sanitizer {
    Memcheck,
    Racecheck,
    Initcheck,
    Synccheck,
}

/// What `--check` can report.
#[derive(Clone, Copy, ValueEnum)]
enum Check {
    /// Integer division or remainder by zero.
    Div0,
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
        Command::Exec { max_steps, timeout, check, sanitize, log, program } => {
            let options = drop_in::Options {
                max_steps,
                timeout,
                check: check
                    .iter()
                    .map(|c| match c {
                        Check::Div0 => "div0",
                    })
                    .collect(),
                sanitize: sanitize
                    .iter()
                    .filter_map(|s| match s {
                        Sanitizer::Racecheck => Some("racecheck"),
                        Sanitizer::Initcheck => Some("initcheck"),
                        // Always on, as for `run`.
                        Sanitizer::Memcheck | Sanitizer::Synccheck => None,
                    })
                    .collect(),
                log,
            };
            drop_in::exec(&program, &options)
        }
        Command::Trace { file, launch, cta, out, max_steps } => {
            run::trace(&file, &launch, &out, cta, max_steps)
        }
        Command::Run { file, launch, out, out_dir, max_steps, timeout, check, sanitize } => {
            // A limit past a year is no limit (and would not fit a `Duration` at 1e20).
            let timeout = if timeout > 3.2e7 { 0.0 } else { timeout };
            if !(timeout.is_finite() && timeout >= 0.0) {
                eprintln!("ptxvm: --timeout takes a number of seconds, 0 or more (0: no limit)");
                return ExitCode::from(1);
            }
            let checks = ptxvm::exec::limits::Checks {
                div0: check.iter().any(|c| matches!(c, Check::Div0)),
                racecheck: sanitize.contains(&Sanitizer::Racecheck),
                initcheck: sanitize.contains(&Sanitizer::Initcheck),
                ..Default::default()
            };
            let output = run::Output { json: out.as_deref(), npy_dir: out_dir.as_deref() };
            run::run(&file, &launch, output, max_steps, timeout, checks)
        }
    }
}

/// Reads a PTX file as text, reporting unreadable or non-UTF-8 files.
fn read_ptx(file: &std::path::Path) -> Result<String, ExitCode> {
    let shown = file.display().to_string();
    let bytes = std::fs::read(file).map_err(|e| {
        eprintln!("ptxvm: cannot read {shown}: {e}");
        ExitCode::from(1)
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
        let (line, col) = ptxvm::syntax::span::line_col(&text, good as u32);
        eprintln!("{shown}:{line}:{col}: error: the file is not valid UTF-8 text (PTX is ASCII)");
        ExitCode::from(1)
    })
}

fn check(file: &std::path::Path) -> ExitCode {
    let shown = file.display().to_string();
    let src = match read_ptx(file) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let diags = ptxvm::check_source(&src);
    if diags.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprint!("{}", ptxvm::diag::render_all(&diags, &shown, &src));
    ExitCode::from(1)
}
