//! `ptxvm._ptxvm`, the extension module of the `ptxvm` Python package
//! (`python/ptxvm/__init__.py` re-exports it): PTX loaded, checked and run on the CPU from NumPy, in
//! the shape of cupy's `RawModule` (`Module(code=..)` or `Module(path=..)`,
//! `get_function`, then `f(grid, block, args, shared_mem=0)`).
//!
//! The binding is a thin shell over `ptxvm::api`, like the command line: `module.rs`
//! holds the two classes, `args.rs` turns Python values into the launch (dimensions,
//! the parameter buffer, NumPy arrays placed in device memory) and `errors.rs` the
//! exceptions. No Rust panic crosses into Python: every failure is an exception.

mod args;
mod errors;
mod module;
mod texture;

use pyo3::prelude::*;

/// Load, validate and run NVIDIA PTX on the CPU, with NumPy arrays as device memory.
#[pymodule(name = "_ptxvm")]
fn ptxvm_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<module::Module>()?;
    m.add_class::<module::Function>()?;
    m.add_class::<texture::Texture>()?;
    m.add_class::<texture::Surface>()?;
    m.add("PtxError", py.get_type::<errors::PtxError>())?;
    m.add("KernelFault", py.get_type::<errors::KernelFault>())?;
    m.add("SanitizerError", py.get_type::<errors::SanitizerError>())?;
    Ok(())
}
