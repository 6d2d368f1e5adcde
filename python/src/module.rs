//! `ptxvm.Module` and `ptxvm.Function`, after cupy's `RawModule` and `RawKernel`.
//!
//! A `Module` is a checked PTX module (`ptxvm::api::Module`); `get_function` decodes
//! one kernel. Calling a `Function` launches it on a fresh simulated device: the
//! arrays are copied in, the kernel runs with the GIL released (on every core, as the
//! command line runs it), the arrays are copied back, also after a fault, with what
//! the kernel wrote before it. Ctrl-C stops a launch with `KeyboardInterrupt`.

use crate::args::{Packed, dim3, pack, param_type};
use crate::errors::{kernel_fault, ptx_error, sanitizer_error};
use ptxvm::api::{DEFAULT_MAX_STEPS, Device, Fault, Kernel};
use ptxvm::diag::Diagnostic;
use ptxvm::exec::limits::{Checks, Limits};
use ptxvm::launch::{MAX_BLOCK, MAX_BLOCK_THREADS, MAX_DYNAMIC_SHARED, MAX_GRID};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A PTX module, parsed and validated as `ptxvm check` does.
///
/// Module(code=None, *, path=None): the PTX text, or the path of a .ptx file.
/// Raises PtxError (with every diagnostic) when it is not valid PTX.
#[pyclass(module = "ptxvm", frozen)]
pub struct Module {
    inner: Arc<ptxvm::api::Module>,
    /// How messages name the source: the path, or `<string>`.
    file: Arc<str>,
}

/// A kernel of a module, ready to launch:
/// f(grid, block, args, *, shared_mem=0, max_steps=None, timeout=None, check=()).
#[pyclass(module = "ptxvm", frozen)]
pub struct Function {
    kernel: Kernel,
    module: Arc<ptxvm::api::Module>,
    file: Arc<str>,
}

#[pymethods]
impl Module {
    #[new]
    #[pyo3(signature = (code=None, *, path=None))]
    fn new(py: Python<'_>, code: Option<String>, path: Option<PathBuf>) -> PyResult<Self> {
        let (src, file) = match (code, path) {
            (Some(code), None) => (code, "<string>".to_string()),
            (None, Some(path)) => (read_ptx(py, &path)?, path.display().to_string()),
            _ => return Err(PyTypeError::new_err("Module takes either code= or path=, not both or neither")),
        };
        match py.detach(|| ptxvm::api::Module::load(&src)) {
            Ok(m) => Ok(Module { inner: Arc::new(m), file: file.into() }),
            Err(diags) => Err(ptx_error(py, &diags, &file, &src)),
        }
    }

    /// The names of the module's kernels (`.entry` functions with a body).
    #[getter]
    fn kernel_names(&self) -> Vec<String> {
        self.inner.kernel_names()
    }

    /// Kernel `name`, decoded for execution.
    ///
    /// Raises ValueError when the module has no such kernel, PtxError (with the line)
    /// when the kernel can reach something ptxvm cannot run yet.
    fn get_function(&self, py: Python<'_>, name: &str) -> PyResult<Function> {
        let names = self.inner.kernel_names();
        if !names.iter().any(|n| n == name) {
            let msg = format!("no kernel named `{name}` (kernels: {})", names.join(", "));
            return Err(PyValueError::new_err(msg));
        }
        let module = self.inner.clone();
        match py.detach(|| module.kernel(name)) {
            Ok(kernel) => Ok(Function { kernel, module: self.inner.clone(), file: self.file.clone() }),
            Err(e) => {
                let diag = Diagnostic::new(e.span, e.message);
                Err(ptx_error(py, &[diag], &self.file, self.inner.source()))
            }
        }
    }

    fn __repr__(&self) -> String {
        format!("<ptxvm.Module {} kernels=[{}]>", self.file, self.inner.kernel_names().join(", "))
    }
}

#[pymethods]
impl Function {
    /// The kernel's name.
    #[getter]
    fn name(&self) -> &str {
        &self.kernel.name
    }

    /// Each parameter's declared type, such as ".f32" or ".u64" (".b8[16]" for a
    /// struct passed by value).
    #[getter]
    fn param_types(&self) -> Vec<String> {
        self.kernel.params.iter().map(|&(ty, _, size)| param_type(ty, size)).collect()
    }

    /// Launches the kernel over `grid` CTAs of `block` threads (each an int or a
    /// tuple of 1 to 3 ints) with `shared_mem` bytes of dynamic shared memory.
    ///
    /// `args` has one value per parameter: a NumPy array (its device address; copied
    /// in before and back after the launch), a NumPy scalar of the parameter's type,
    /// a Python int for an integer parameter, a Python float for `.f32`/`.f64`, or
    /// bytes of the parameter's size. `max_steps` bounds the warp instructions run,
    /// `timeout` the seconds; reaching either is a KernelFault. `check` names what to
    /// report as a fault although the GPU carries on, as `ptxvm run --check` does:
    /// "div0", integer division or remainder by zero (all ones on an H100).
    /// `sanitize` runs compute-sanitizer's checks as `ptxvm run --sanitize` does:
    /// "racecheck" and "initcheck" watch shared memory and raise SanitizerError with
    /// what they found ("memcheck" and "synccheck" are always on: their findings are
    /// faults).
    ///
    /// Raises KernelFault on a fault, SanitizerError for hazards, TypeError for
    /// arguments that do not fit the kernel's parameters, ValueError for dimensions
    /// out of range.
    #[pyo3(signature = (grid, block, args, *, shared_mem=0, max_steps=None, timeout=None, check=Vec::new(), sanitize=Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn __call__(
        &self,
        py: Python<'_>,
        grid: &Bound<'_, PyAny>,
        block: &Bound<'_, PyAny>,
        args: &Bound<'_, PyAny>,
        shared_mem: i64,
        max_steps: Option<u64>,
        timeout: Option<f64>,
        check: Vec<String>,
        sanitize: Vec<String>,
    ) -> PyResult<()> {
        let grid = dim3(grid, "grid", MAX_GRID)?;
        let block = dim3(block, "block", MAX_BLOCK)?;
        if block.count() > MAX_BLOCK_THREADS {
            let msg = format!("block: {} threads; CUDA allows at most {MAX_BLOCK_THREADS}", block.count());
            return Err(PyValueError::new_err(msg));
        }
        if !(0..=MAX_DYNAMIC_SHARED as i64).contains(&shared_mem) {
            let msg = format!("shared_mem is {shared_mem} bytes; it must be from 0 to {MAX_DYNAMIC_SHARED}");
            return Err(PyValueError::new_err(msg));
        }
        let mut packed: Packed<'_> = pack(&self.kernel, args)?;
        let cancel = Arc::new(AtomicBool::new(false));
        let mut checks = Checks::default();
        for c in &check {
            match c.as_str() {
                "div0" => checks.div0 = true,
                other => {
                    return Err(PyValueError::new_err(format!("check: unknown `{other}` (known: div0)")));
                }
            }
        }
        for s in &sanitize {
            match s.as_str() {
                "racecheck" => checks.racecheck = true,
                "initcheck" => checks.initcheck = true,
                "memcheck" | "synccheck" => {}
                other => {
                    let known = "memcheck, racecheck, initcheck, synccheck";
                    return Err(PyValueError::new_err(format!(
                        "sanitize: unknown `{other}` (known: {known})"
                    )));
                }
            }
        }
        let mut limits =
            Limits::new(max_steps.unwrap_or(DEFAULT_MAX_STEPS)).cancel(cancel.clone()).checks(checks);
        match timeout {
            None => {}
            Some(t) if t.is_finite() && t > 0.0 && t < 3.2e7 => {
                limits = limits.timeout(Duration::from_secs_f64(t));
            }
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "timeout is {t}; it must be a positive number of seconds"
                )));
            }
        }
        let mut device = Device::default();
        packed.place(&mut device)?;
        let params = packed.params(&self.kernel)?;
        let (result, interrupted) = launch_watched(
            py,
            &mut device,
            &self.kernel,
            (grid, block, shared_mem as u32),
            &params,
            &limits,
            &cancel,
        )?;
        packed.copy_back(&device)?;
        print_device_output(py, &device)?;
        if let Some(e) = interrupted {
            return Err(e);
        }
        match result {
            Err(f) => Err(kernel_fault(py, &f, &self.kernel.name, &self.file, &self.module)),
            Ok(()) if !device.hazards().is_empty() => {
                Err(sanitizer_error(py, device.hazards(), &self.kernel.name, &self.file, &self.module))
            }
            Ok(()) => Ok(()),
        }
    }

    fn __repr__(&self) -> String {
        format!("<ptxvm.Function {}({})>", self.kernel.name, self.param_types().join(", "))
    }
}

/// The text of a PTX file; an `OSError` when it cannot be read, a `PtxError` at the
/// first byte that is not UTF-8.
fn read_ptx(py: Python<'_>, path: &std::path::Path) -> PyResult<String> {
    let bytes = std::fs::read(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
        let span = ptxvm::syntax::Span { start: good as u32, end: good as u32 + 1 };
        let diag = Diagnostic::new(span, "the file is not valid UTF-8 text (PTX is ASCII)");
        ptx_error(py, &[diag], &path.display().to_string(), &text)
    })
}

/// Runs the launch on another thread with the GIL released, while this one wakes
/// every 100 ms to let Python handle signals: on Ctrl-C (`KeyboardInterrupt`) the
/// launch is cancelled and stops with a fault, returned with the interrupt.
fn launch_watched(
    py: Python<'_>,
    device: &mut Device,
    kernel: &Kernel,
    (grid, block, shared): (ptxvm::launch::Dim3, ptxvm::launch::Dim3, u32),
    params: &[u8],
    limits: &Limits,
    cancel: &AtomicBool,
) -> PyResult<(Result<(), Fault>, Option<PyErr>)> {
    let mut interrupted = None;
    let me = std::thread::current();
    let done = AtomicBool::new(false);
    let joined = std::thread::scope(|s| {
        let launch = s.spawn(|| {
            let result = device.launch_with(kernel, grid, block, shared, params, limits);
            // Set before the wake-up, so the watcher never parks again after it.
            done.store(true, Ordering::Release);
            me.unpark();
            result
        });
        while !done.load(Ordering::Acquire) {
            py.detach(|| std::thread::park_timeout(Duration::from_millis(100)));
            if done.load(Ordering::Acquire) {
                break;
            }
            if interrupted.is_none()
                && let Err(e) = py.check_signals()
            {
                cancel.store(true, Ordering::Relaxed);
                interrupted = Some(e);
            }
        }
        launch.join()
    });
    match joined {
        Ok(result) => Ok((result, interrupted)),
        Err(_) => Err(PyRuntimeError::new_err("ptxvm: the launch stopped on an internal error (a panic)")),
    }
}

/// Writes what the kernel printed with `printf` to Python's `sys.stdout`, so that
/// notebooks and pytest's capture see it.
fn print_device_output(py: Python<'_>, device: &Device) -> PyResult<()> {
    let (printed, dropped) = device.take_printed();
    if !printed.is_empty() {
        let stdout = py.import("sys")?.getattr("stdout")?;
        if !stdout.is_none() {
            stdout.call_method1("write", (String::from_utf8_lossy(&printed),))?;
        }
    }
    if dropped {
        let warning = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        let msg = c"device printf wrote more than 1 MiB (CUDA's default buffer); ptxvm kept the first 1 MiB";
        PyErr::warn(py, &warning, msg, 1)?;
    }
    Ok(())
}
