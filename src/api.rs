//! The library API, in the style of the CUDA driver API: load a module, allocate and
//! copy device buffers, launch a kernel with a grid, a block and its parameters, read
//! the buffers back. The command line uses only this.

use crate::diag::Diagnostic;
use crate::exec::memory::{GlobalMemory, MemFault};
use crate::exec::threads::Shape;
use crate::exec::warp::{Budget, Cta, Fault};
use crate::launch::Dim3;
use crate::lower::program::{Kernel, LowerError, lower_kernel};
use crate::syntax::ast::{FuncKind, Item};
use rayon::prelude::*;

/// The default step budget of a launch: dynamic warp instructions.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;

/// A validated PTX module.
pub struct Module {
    src: String,
}

impl Module {
    /// Parses and validates `src`.
    ///
    /// # Errors
    /// Every diagnostic when the module is not valid PTX.
    pub fn load(src: &str) -> Result<Module, Vec<Diagnostic>> {
        let diags = crate::check_source(src);
        if diags.is_empty() { Ok(Module { src: src.to_string() }) } else { Err(diags) }
    }

    pub fn source(&self) -> &str {
        &self.src
    }

    /// The names of the module's kernels (`.entry` functions with a body).
    pub fn kernel_names(&self) -> Vec<String> {
        let (module, _) = crate::syntax::parse(&self.src);
        module
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Func(f) if f.kind == FuncKind::Entry && f.body.is_some() => {
                    Some(f.name.text(&self.src).to_string())
                }
                _ => None,
            })
            .collect()
    }

    /// Decodes kernel `name` for execution.
    ///
    /// # Errors
    /// A [`LowerError`] when there is no such kernel or it uses something ptxvm
    /// cannot run yet.
    pub fn kernel(&self, name: &str) -> Result<Kernel, LowerError> {
        let (module, _) = crate::syntax::parse(&self.src);
        for item in &module.items {
            if let Item::Func(f) = item
                && f.kind == FuncKind::Entry
                && f.body.is_some()
                && f.name.text(&self.src) == name
            {
                return lower_kernel(&module, &self.src, f);
            }
        }
        Err(LowerError { span: crate::syntax::Span::default(), message: format!("no kernel named `{name}`") })
    }
}

/// The simulated GPU: its global memory.
#[derive(Default)]
pub struct Device {
    memory: GlobalMemory,
}

impl Device {
    /// Allocates `bytes` of zeroed global memory.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the size cannot be represented.
    pub fn alloc(&mut self, bytes: u64) -> Result<u64, MemFault> {
        self.memory.alloc(bytes)
    }

    /// Copies host bytes to device address `addr`.
    ///
    /// # Errors
    /// [`MemFault`] unless the range lies in one allocation.
    pub fn copy_to_device(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.memory.write_bytes(addr, data)
    }

    /// Copies device bytes at `addr` to the host.
    ///
    /// # Errors
    /// [`MemFault`] unless the range lies in one allocation.
    pub fn copy_from_device(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        self.memory.read_bytes(addr, out)
    }

    /// Runs `kernel` over `grid` CTAs of `block` threads with the parameter buffer
    /// `params` (laid out as [`Kernel::params`] says), at most `max_steps` warp
    /// instructions in all. CTAs run in parallel on every core, as on a GPU; each runs
    /// to its end or its first fault.
    ///
    /// # Errors
    /// The fault of the first CTA in launch order that met one (so the report does
    /// not depend on scheduling); memory keeps everything written before the faults.
    pub fn launch(
        &self,
        kernel: &Kernel,
        grid: Dim3,
        block: Dim3,
        params: &[u8],
        max_steps: u64,
    ) -> Result<(), Fault> {
        let shape = Shape { grid, block };
        let cta = Cta { kernel, shape, params, memory: &self.memory };
        let budget = Budget::new(max_steps);
        let first = (0..grid.count())
            .into_par_iter()
            .filter_map(|n| cta.run(n, &budget).err().map(|f| (n, f)))
            .min_by_key(|(n, _)| *n);
        match first {
            Some((_, fault)) => Err(fault),
            None => Ok(()),
        }
    }
}
