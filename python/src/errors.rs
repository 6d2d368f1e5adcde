//! The two exceptions of the module and how ptxvm's errors become them.
//!
//! `PtxError` is a module that is not valid PTX, or a kernel that uses something
//! ptxvm cannot run yet: its message is the diagnostics as `ptxvm check` prints them
//! (`FILE:LINE:COL: error: MESSAGE`, the line and a caret). `KernelFault` is a launch
//! that met undefined behaviour (or its step or time limit): its message is the line
//! `ptxvm run` prints, and its attributes carry each part of `ptxvm::api::Fault`.

use ptxvm::api::{Fault, Hazard, Module};
use ptxvm::diag::Diagnostic;
use ptxvm::syntax::Span;
use ptxvm::syntax::span::line_col;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyList;

pyo3::create_exception!(
    ptxvm,
    PtxError,
    PyException,
    "The module is not valid PTX, or a kernel uses something ptxvm cannot run yet.\n\n\
     str(e) is every diagnostic as `FILE:LINE:COL: error: MESSAGE` with the source line\n\
     and a caret; e.diagnostics lists them as (line, column, message) tuples."
);

pyo3::create_exception!(
    ptxvm,
    KernelFault,
    PyException,
    "A launch stopped on undefined behaviour (an out-of-bounds access, a deadlock,\n\
     `trap`, ...) or on its step or time limit.\n\n\
     Attributes: kernel (str), ctaid and tid (tuples of 3 ints) of the thread that\n\
     met it, line and column (ints, None when the fault has no place in the source),\n\
     instruction (str or None), cause (str), source (\"file.cu:LINE:COL\" from the\n\
     module's .loc line information, or None), calls (the calls the thread is inside,\n\
     innermost first, as (line, column, instruction, source)), notes (a list of\n\
     (line, column, instruction, note) for the other instructions involved, such as\n\
     each waiting group of a deadlock). The arrays hold what the kernel wrote before\n\
     the fault."
);

pyo3::create_exception!(
    ptxvm,
    SanitizerError,
    PyException,
    "A launch with sanitize=[\"racecheck\", \"initcheck\"] found shared-memory hazards:\n\
     two threads of a CTA touching a byte with no barrier between, one writing, or a\n\
     read of a byte no thread wrote. str(e) is the reports as `ptxvm run --sanitize`\n\
     prints them; e.hazards lists each as a dict with kind, ctaid, tid, line,\n\
     instruction, source (the CUDA line or None), byte, count and earlier (the other\n\
     thread's access as a dict with tid, line, instruction, source and write, or None)."
);

/// Where `span` is in `src`: line, column and the instruction's text on one line, or
/// nothing for the empty span of a fault with no place in the source.
fn place(src: &str, span: Span) -> (Option<usize>, Option<usize>, Option<String>) {
    if span.start >= span.end {
        return (None, None, None);
    }
    let (line, col) = line_col(src, span.start);
    let text = span.text(src).split_whitespace().collect::<Vec<_>>().join(" ");
    (Some(line), Some(col), Some(text))
}

/// A `PtxError` for `diags` in `src`, read from `file`.
pub fn ptx_error(py: Python<'_>, diags: &[Diagnostic], file: &str, src: &str) -> PyErr {
    let message = ptxvm::diag::render_all(diags, file, src);
    let err = PtxError::new_err(message.trim_end().to_string());
    let listed: Vec<(usize, usize, String)> = diags
        .iter()
        .map(|d| {
            let (line, col) = line_col(src, d.span.start);
            (line, col, d.message.clone())
        })
        .collect();
    match err.value(py).setattr("diagnostics", listed) {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A `KernelFault` for `fault` of kernel `kernel` of `module`, read from `file`; the
/// message is the report `ptxvm run` prints.
pub fn kernel_fault(py: Python<'_>, fault: &Fault, kernel: &str, file: &str, module: &Module) -> PyErr {
    let src = module.source();
    let (c, t) = (fault.ctaid, fault.tid);
    let (line, col, text) = place(src, fault.span);
    let source = |span: Span| module.source_line(span).map(|s| s.to_string());
    let calls: Vec<_> = fault
        .calls
        .iter()
        .map(|&span| {
            let (line, col, text) = place(src, span);
            (line, col, text, source(span))
        })
        .collect();
    let notes: Vec<_> = fault
        .notes
        .iter()
        .map(|(span, note)| {
            let (line, col, text) = place(src, *span);
            (line, col, text, note.clone())
        })
        .collect();
    let err = KernelFault::new_err(fault.report(module, kernel, file));
    let set = || -> PyResult<()> {
        let v = err.value(py);
        v.setattr("kernel", kernel)?;
        v.setattr("ctaid", (c.x, c.y, c.z))?;
        v.setattr("tid", (t.x, t.y, t.z))?;
        v.setattr("line", line)?;
        v.setattr("column", col)?;
        v.setattr("instruction", text)?;
        v.setattr("cause", &fault.cause)?;
        v.setattr("source", source(fault.span))?;
        v.setattr("calls", PyList::new(py, calls)?)?;
        v.setattr("notes", PyList::new(py, notes)?)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A `SanitizerError` for the `hazards` a launch of `kernel` found.
pub fn sanitizer_error(
    py: Python<'_>,
    hazards: &[Hazard],
    kernel: &str,
    file: &str,
    module: &Module,
) -> PyErr {
    let src = module.source();
    let message: Vec<String> = hazards.iter().map(|h| h.report(module, kernel, file)).collect();
    let err = SanitizerError::new_err(message.join("\n"));
    let listed = || -> PyResult<Bound<'_, PyList>> {
        let list = PyList::empty(py);
        for h in hazards {
            let d = pyo3::types::PyDict::new(py);
            let (line, _, text) = place(src, h.span);
            d.set_item("kind", h.kind)?;
            d.set_item("ctaid", (h.ctaid.x, h.ctaid.y, h.ctaid.z))?;
            d.set_item("tid", (h.tid.x, h.tid.y, h.tid.z))?;
            d.set_item("line", line)?;
            d.set_item("instruction", text)?;
            d.set_item("source", module.source_line(h.span).map(|s| s.to_string()))?;
            d.set_item("write", h.write)?;
            d.set_item("byte", &h.byte)?;
            d.set_item("count", h.count)?;
            let earlier = match h.earlier {
                Some((t, span, write)) => {
                    let e = pyo3::types::PyDict::new(py);
                    let (line, _, text) = place(src, span);
                    e.set_item("tid", (t.x, t.y, t.z))?;
                    e.set_item("line", line)?;
                    e.set_item("instruction", text)?;
                    e.set_item("source", module.source_line(span).map(|s| s.to_string()))?;
                    e.set_item("write", write)?;
                    Some(e)
                }
                None => None,
            };
            d.set_item("earlier", earlier)?;
            list.append(d)?;
        }
        Ok(list)
    };
    match listed().and_then(|l| err.value(py).setattr("hazards", l)) {
        Ok(()) => err,
        Err(e) => e,
    }
}
