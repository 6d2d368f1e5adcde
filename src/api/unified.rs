//! What a drop-in CUDA driver needs of a [`Device`] beyond the command line's
//! launches: unified addressing (an allocation's device address is the host address
//! of its bytes), host memory lent to kernels, copies and fills between any two
//! places, the allocation that holds an address, and a module's variables.

use super::{Device, Fault, Module};
use crate::exec::memory::{GlobalMemory, MemFault};
use crate::lower::program::LowerError;

/// What holds an address ([`Device::range`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub base: u64,
    pub bytes: u64,
}

impl Device {
    /// A device with unified addressing: every allocation's address is the host
    /// address of its bytes, so host code may read and write them in place (managed
    /// and mapped host memory), and kernels may be lent host memory
    /// ([`Device::lend`]). Addresses differ from run to run, as a GPU's do.
    pub fn unified() -> Device {
        Device { memory: GlobalMemory::unified(), ..Device::default() }
    }

    /// Lends `len` bytes of the host program's memory at `addr` to kernels, which
    /// read and write them in place (`cuMemHostRegister`); returns the device
    /// address, which is `addr` rounded down to 8 bytes.
    ///
    /// # Safety
    /// The memory stays allocated until [`Device::take_back`] or the device is
    /// dropped, and Rust code touches it only through the device meanwhile.
    ///
    /// # Errors
    /// [`MemFault::Overlaps`] when the range overlaps an allocation or another loan.
    pub unsafe fn lend(&mut self, addr: u64, len: u64) -> Result<u64, MemFault> {
        // SAFETY: the caller's promise, passed on.
        unsafe { self.memory.lend(addr, len) }
    }

    /// Ends the loan at `addr` that [`Device::lend`] made.
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] when no loan starts there.
    pub fn take_back(&mut self, addr: u64) -> Result<(), MemFault> {
        self.memory.take_back(addr)
    }

    /// The allocation, module image or loan holding `addr`.
    pub fn range(&self, addr: u64) -> Option<Range> {
        self.memory.range(addr).map(|(base, bytes)| Range { base, bytes })
    }

    /// Whether `addr` is in device memory freed lately and in none live (with unified
    /// addressing, the last 256 allocations freed, up to 64 MiB, keep their addresses
    /// from reuse so that a stale pointer is known as one).
    pub fn was_freed(&self, addr: u64) -> bool {
        self.memory.was_freed(addr)
    }

    /// Copies `len` bytes of device memory from `src` to `dst`.
    ///
    /// # Errors
    /// [`MemFault`] unless each range lies in one allocation.
    pub fn copy(&self, dst: u64, src: u64, len: u64) -> Result<(), MemFault> {
        self.memory.copy(dst, src, len)
    }

    /// Writes `pattern` (1, 2 or 4 bytes) `count` times from `addr` (`cuMemsetD*`).
    ///
    /// # Errors
    /// [`MemFault`] unless the range lies in one allocation.
    pub fn fill(&self, addr: u64, pattern: &[u8], count: u64) -> Result<(), MemFault> {
        self.memory.fill(addr, pattern, count)
    }

    /// Places `module`'s `.global` and `.const` variables in device memory, as a
    /// launch would, so that host code can reach them before the first launch
    /// (`cuModuleLoad` does this).
    ///
    /// # Errors
    /// A [`LowerError`] when the module cannot be decoded, or a [`Fault`] of the
    /// launch as a whole when its image does not fit.
    pub fn place_module(&mut self, module: &Module) -> Result<(), PlaceError> {
        let program = module.image().map_err(PlaceError::Lower)?;
        self.place_memory(&program).map_err(PlaceError::Fault)
    }

    /// Frees `module`'s variables in device memory (`cuModuleUnload`); a later
    /// launch of one of its kernels places them again, from their initialisers.
    pub fn unload(&mut self, module: &Module) {
        self.memory.free_image(module.serial);
    }

    /// The address and bytes of the module's `.global` or `.const` variable `name`,
    /// where [`Device::place_module`] puts it.
    pub fn global(&self, module: &Module, name: &str) -> Option<(u64, u64)> {
        let program = module.image().ok()?;
        program.globals.iter().find(|g| g.0 == name).map(|g| (g.1, g.2))
    }

    /// Sets the bytes of CUDA's device heap (`cudaLimitMallocHeapSize`), which only a
    /// device whose heap is not placed yet can change.
    ///
    /// # Errors
    /// A message when the heap is already placed.
    pub fn set_heap_bytes(&mut self, bytes: u64) -> Result<(), String> {
        if self.heap.base != 0 {
            let msg =
                "the device heap is in use; its size can change only before the first launch that needs it";
            return Err(msg.into());
        }
        self.heap.bytes = bytes;
        Ok(())
    }
}

/// Why [`Device::place_module`] failed.
#[derive(Debug, Clone)]
pub enum PlaceError {
    Lower(LowerError),
    Fault(Fault),
}

impl std::fmt::Display for PlaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlaceError::Lower(e) => f.write_str(&e.message),
            PlaceError::Fault(e) => f.write_str(&e.cause),
        }
    }
}

impl super::Kernel {
    /// Bytes of static `.shared` memory a CTA of this kernel uses
    /// (`CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`).
    pub fn static_shared_bytes(&self) -> u32 {
        self.program.static_shared(self.func)
    }

    /// Bytes of a thread's frame: parameters, returns and `.local` variables of the
    /// kernel itself (`CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES`).
    pub fn local_bytes(&self) -> u32 {
        self.program.funcs[self.func as usize].frame_bytes
    }

    /// Registers a thread of the kernel holds, in 32-bit units, as the decoded
    /// program counts them (`CU_FUNC_ATTRIBUTE_NUM_REGS`).
    pub fn registers(&self) -> u32 {
        let (r32, r64, _) = self.program.funcs[self.func as usize].rows;
        r32 + 2 * r64
    }

    /// The `.target` of the module, as `sm_` number (`CU_FUNC_ATTRIBUTE_PTX_VERSION`
    /// reports it as major * 10 + minor).
    pub fn target(&self) -> u32 {
        self.program.sm
    }

    /// Packs one value per parameter, each given as its bytes in memory order, into
    /// the parameter buffer as [`Kernel::params`](super::Kernel::params) lays it out: the one place where
    /// every door (launch spec, [`super::Args`], Python, the CUDA driver) turns
    /// arguments into a launch's parameters.
    ///
    /// # Errors
    /// A [`ParamError`] when the count of values or one value's size does not match.
    pub fn pack<'v>(&self, values: impl ExactSizeIterator<Item = &'v [u8]>) -> Result<Vec<u8>, ParamError> {
        if values.len() != self.params.len() {
            return Err(ParamError::Count {
                kernel: self.name.clone(),
                takes: self.params.len(),
                given: values.len(),
            });
        }
        let mut out = vec![0u8; self.param_bytes as usize];
        for (index, (v, &(ty, offset, size))) in values.zip(&self.params).enumerate() {
            if v.len() != size as usize {
                let kernel = self.name.clone();
                return Err(ParamError::Size { kernel, index, given: v.len(), size, ty: ty.word() });
            }
            out[offset as usize..(offset + size) as usize].copy_from_slice(v);
        }
        Ok(out)
    }

    /// A parameter buffer packed by the caller (`cuLaunchKernel`'s `extra`), checked
    /// against the parameter list: its size must be the list's, or the list's rounded
    /// up to its widest parameter's alignment (a C struct of the parameters).
    ///
    /// # Errors
    /// [`ParamError::Buffer`] when the size matches neither.
    pub fn packed(&self, buffer: &[u8]) -> Result<Vec<u8>, ParamError> {
        let bytes = self.param_bytes as usize;
        let align =
            self.params.iter().map(|p| (p.2 as usize).clamp(1, 8).next_power_of_two()).max().unwrap_or(1);
        if buffer.len() != bytes && buffer.len() != bytes.next_multiple_of(align) {
            return Err(ParamError::Buffer { kernel: self.name.clone(), given: buffer.len(), bytes });
        }
        Ok(buffer[..bytes].to_vec())
    }
}

/// Why arguments do not fit a kernel's parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    #[error("kernel `{kernel}` takes {takes} parameters, given {given}")]
    Count { kernel: String, takes: usize, given: usize },
    #[error("argument {index} of kernel `{kernel}`: {given} bytes for a {size}-byte parameter ({ty})")]
    Size { kernel: String, index: usize, given: usize, size: u32, ty: &'static str },
    #[error("kernel `{kernel}` takes {bytes} bytes of parameters, the packed buffer has {given}")]
    Buffer { kernel: String, given: usize, bytes: usize },
}
