//! `ptxvm run`: the launch contract over the library API (docs/launch-spec.md).

use ptxvm::api::{BindError, BoundBuffer, Device, Module};
use ptxvm::diag::Diagnostic;
use ptxvm::exec::limits::{Checks, Limits};
use ptxvm::launch::{ElemType, read_spec, write_result_files_json, write_result_json};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by Ctrl-C: the running launch stops with a fault report.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    // Without a handler (another one is installed) Ctrl-C ends the process as usual.
    let _ = ctrlc::set_handler(move || set.store(true, Ordering::Relaxed));
    flag
}

/// Runs `launch` while a watcher thread shows, on a terminal and after two seconds,
/// a progress line: CTAs done of `total`, and lane-instructions per second.
fn watch<T: Send>(limits: &Limits, total: u64, launch: impl FnOnce() -> T + Send) -> T {
    // The launch drops the sender when it ends, a panic included, which wakes the
    // watcher at once.
    let (done, ended) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            let start = Instant::now();
            let mut bar: Option<indicatif::ProgressBar> = None;
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                ended.recv_timeout(Duration::from_millis(100))
            {
                let secs = start.elapsed().as_secs_f64();
                if bar.is_none() && secs >= 2.0 && std::io::stderr().is_terminal() {
                    let b = indicatif::ProgressBar::new(total).with_elapsed(start.elapsed());
                    b.set_style(
                        indicatif::ProgressStyle::with_template(
                            "{elapsed} [{bar:30}] {pos}/{len} CTAs, {msg}",
                        )
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                    );
                    bar = Some(b);
                }
                if let Some(b) = &bar {
                    b.set_position(limits.ctas_done());
                    let rate = limits.lane_instructions() as f64 / secs / 1e6;
                    b.set_message(format!("{rate:.0} M lane-instructions/s"));
                }
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        let _done = done;
        launch()
    })
}

fn invalid(message: String) -> ExitCode {
    eprintln!("ptxvm: {message}");
    ExitCode::from(1)
}

/// Where and how `ptxvm run` writes its results.
pub struct Output<'a> {
    /// The result JSON's file (else stdout).
    pub json: Option<&'a Path>,
    /// A folder for one `.npy` file per buffer, listed in the JSON in place of the data.
    pub npy_dir: Option<&'a Path>,
}

/// What the result JSON lists: the buffers' data, or the `.npy` files it went to
/// (with each buffer's element count).
enum Listed<'a> {
    Data(Vec<(usize, ElemType, &'a [u8])>),
    Files(Vec<(usize, ElemType, u64, String)>),
}

/// The result JSON and a newline, written to `w`.
fn write_json_line(w: impl Write, kernel: &str, listed: &Listed<'_>) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, w);
    match listed {
        Listed::Data(buffers) => write_result_json(&mut w, kernel, buffers)?,
        Listed::Files(files) => {
            let files: Vec<(usize, ElemType, u64, &str)> =
                files.iter().map(|(arg, elem, len, f)| (*arg, *elem, *len, f.as_str())).collect();
            write_result_files_json(&mut w, kernel, &files)?;
        }
    }
    w.write_all(b"\n")?;
    w.flush()
}

/// Writes each buffer as `dir/<name>.npy`, creating `dir`, straight from device
/// memory in pieces (no copy of the whole buffer on the host).
fn write_npy_files(
    dir: &Path,
    spec: &ptxvm::launch::LaunchSpec,
    device: &Device,
    buffers: &[BoundBuffer],
) -> Result<Vec<(usize, ElemType, u64, String)>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut files = Vec::with_capacity(buffers.len());
    let mut piece = vec![0u8; 1 << 20];
    for b in buffers {
        let path = dir.join(format!("{}.npy", spec.buffer_name(b.arg)));
        let failed = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
        let len = (b.bytes / b.elem.bytes()) as u64;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).map_err(failed)?);
        f.write_all(&ptxvm::npy::header(b.elem, len)).map_err(failed)?;
        let mut at = 0;
        while at < b.bytes {
            let n = piece.len().min(b.bytes - at);
            // Each buffer was allocated with exactly `b.bytes` bytes at `b.addr`.
            let _ = device.copy_from_device(b.addr + at as u64, &mut piece[..n]);
            f.write_all(&piece[..n]).map_err(failed)?;
            at += n;
        }
        f.flush().map_err(failed)?;
        files.push((b.arg, b.elem, len, path.display().to_string()));
    }
    Ok(files)
}

/// A module loaded and a spec bound to it on a fresh device: what `run` and `trace`
/// start from.
struct Prepared {
    shown: String,
    module: Module,
    spec: ptxvm::launch::LaunchSpec,
    device: Device,
    bound: ptxvm::api::Bound,
}

/// Loads `file`, reads the spec and binds it, reporting what goes wrong (exit 1).
fn prepare(file: &Path, spec_path: &Path) -> Result<Prepared, ExitCode> {
    let shown = file.display().to_string();
    let src = crate::read_ptx(file)?;
    let module = match Module::load(&src) {
        Ok(m) => m,
        Err(diags) => {
            eprint!("{}", ptxvm::diag::render_all(&diags, &shown, &src));
            return Err(ExitCode::from(1));
        }
    };
    let spec = match read_spec(spec_path) {
        Ok(s) => s,
        Err(e) if e.path == "spec" && e.message.starts_with("cannot read") => return Err(invalid(e.message)),
        Err(e) => return Err(invalid(format!("{}: {e}", spec_path.display()))),
    };
    let mut device = Device::default();
    let bound = match device.bind(&module, &spec) {
        Ok(b) => b,
        Err(BindError::Lower(e)) => {
            eprint!("{}", Diagnostic::new(e.span, e.message).render(&shown, &src));
            return Err(ExitCode::from(1));
        }
        Err(BindError::Spec(m)) => return Err(invalid(format!("{}: {m}", spec_path.display()))),
    };
    for w in &bound.warnings {
        eprintln!("ptxvm: warning: {}: {w}", spec_path.display());
    }
    Ok(Prepared { shown, module, spec, device, bound })
}

/// `ptxvm trace`: runs CTA `cta` of the launch alone and writes its page to `out`.
pub fn trace(file: &Path, spec_path: &Path, out: &Path, cta: u64, max_steps: u64) -> ExitCode {
    let Prepared { shown, module, spec, mut device, bound } = match prepare(file, spec_path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if cta >= spec.grid.count() {
        return invalid(format!(
            "--cta {cta}: the grid has {} CTAs (0 to {})",
            spec.grid.count(),
            spec.grid.count() - 1
        ));
    }
    let limits = Limits::new(max_steps).cancel(interrupt_flag());
    let (trace, fault) = device.trace(
        &bound.kernel,
        spec.grid,
        spec.block,
        spec.dynamic_shared_bytes,
        &bound.params,
        &limits,
        cta,
    );
    let name = &bound.kernel.name;
    let page = ptxvm::trace::html(&trace, &module, name, &shown, fault.as_ref());
    if let Err(e) = std::fs::write(out, page) {
        return invalid(format!("cannot write {}: {e}", out.display()));
    }
    let steps: usize = trace.warps.iter().map(|w| w.steps.len()).sum();
    eprintln!("ptxvm: wrote {} ({} warps, {steps} warp instructions)", out.display(), trace.warps.len());
    match fault {
        Some(f) => {
            eprintln!("{}", f.report(&module, name, &shown));
            ExitCode::from(2)
        }
        None => ExitCode::SUCCESS,
    }
}

pub fn run(
    file: &Path,
    spec_path: &Path,
    output: Output<'_>,
    max_steps: u64,
    timeout: f64,
    checks: Checks,
) -> ExitCode {
    let Prepared { shown, module, spec, mut device, bound } = match prepare(file, spec_path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let out = output.json;
    let name = bound.kernel.name.clone();
    let mut limits = Limits::new(max_steps).cancel(interrupt_flag()).checks(checks);
    if timeout > 0.0 {
        limits = limits.timeout(Duration::from_secs_f64(timeout));
    }
    let total = spec.grid.count();
    let result = watch(&limits, total, || match spec.cluster {
        Some(c) => device.launch_clustered(
            &bound.kernel,
            (spec.grid, spec.block, spec.dynamic_shared_bytes),
            c,
            &bound.params,
            &limits,
        ),
        None => device.launch_with(
            &bound.kernel,
            spec.grid,
            spec.block,
            spec.dynamic_shared_bytes,
            &bound.params,
            &limits,
        ),
    });
    // Device printf output comes first on stdout, as a CUDA program's does before the
    // host prints its results; the result JSON follows on a line of its own.
    let (printed, dropped) = device.take_printed();
    if !printed.is_empty() {
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        let _ = stdout.write_all(&printed).and_then(|()| {
            if printed.ends_with(b"\n") || out.is_some() { Ok(()) } else { stdout.write_all(b"\n") }
        });
        let _ = stdout.flush();
    }
    if dropped {
        eprintln!(
            "warning: device printf wrote more than 1 MiB (CUDA's default buffer); ptxvm kept the first 1 MiB"
        );
    }
    let contents: Vec<Vec<u8>> = match output.npy_dir {
        Some(_) => Vec::new(),
        // Each buffer was allocated with exactly `b.bytes` bytes at `b.addr`.
        None => {
            bound.buffers.iter().map(|b| device.read_to_vec(b.addr, b.bytes).unwrap_or_default()).collect()
        }
    };
    let listed = match output.npy_dir {
        Some(dir) => match write_npy_files(dir, &spec, &device, &bound.buffers) {
            Ok(files) => Listed::Files(files),
            Err(message) => return invalid(message),
        },
        None => Listed::Data(
            bound.buffers.iter().zip(&contents).map(|(b, d)| (b.arg, b.elem, d.as_slice())).collect(),
        ),
    };
    let written = match out {
        Some(path) => std::fs::File::create(path).and_then(|f| write_json_line(f, &name, &listed)),
        None => write_json_line(std::io::stdout().lock(), &name, &listed),
    };
    // A reader that stops early (`| head`) is not an error of ours.
    let stopped_reading = |e: &std::io::Error| out.is_none() && e.kind() == std::io::ErrorKind::BrokenPipe;
    if let Err(e) = written.or_else(|e| if stopped_reading(&e) { Ok(()) } else { Err(e) }) {
        let to = out.map_or("the result".to_string(), |p| p.display().to_string());
        return invalid(format!("cannot write {to}: {e}"));
    }
    // The sanitizer's reports, the first few in full, as compute-sanitizer prints them.
    const SHOWN: usize = 10;
    let hazards = device.hazards();
    for h in hazards.iter().take(SHOWN) {
        eprintln!("{}", h.report(&module, &name, &shown));
    }
    if !hazards.is_empty() {
        let more = hazards.len().saturating_sub(SHOWN);
        let more = if more > 0 { format!(" ({more} not shown)") } else { String::new() };
        let n = hazards.len();
        let reports = if n == 1 { "1 hazard report".to_string() } else { format!("{n} hazard reports") };
        eprintln!("{shown}: sanitize: {reports} in kernel `{name}`{more}");
        if result.is_ok() {
            return ExitCode::from(2);
        }
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.report(&module, &name, &shown));
            ExitCode::from(2)
        }
    }
}
