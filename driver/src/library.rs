//! Libraries and kernels (CUDA 12's context-independent loading): a library is a
//! module loaded whether or not a context is current, and a kernel is the same
//! handle as the function it gives (`cuKernelGetFunction`), so either launches.

use crate::error;
use crate::module::{self, Logs};
use crate::state;
use crate::types::{CUdevice, CUdeviceptr, CUresult, Handle};
use std::ffi::{c_char, c_void};

fn library_module(lib: Handle) -> Result<u64, CUresult> {
    state::with(|d| {
        d.libraries
            .get(&(lib as u64))
            .copied()
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{lib:?} is not a library")))
    })
}

fn add_library(m: u64) -> Result<u64, CUresult> {
    state::with(|d| {
        let l = d.handle();
        d.libraries.insert(l, m);
        Ok(l)
    })
}

/// Checks that `k` names a kernel or function.
fn kernel(k: Handle) -> Result<u64, CUresult> {
    state::with(|d| {
        if d.functions.contains_key(&(k as u64)) {
            Ok(k as u64)
        } else {
            Err(crate::fail(error::INVALID_HANDLE, format!("{k:?} is not a kernel")))
        }
    })
}

/// A kernel's parameter `index`: its offset and size in the parameter buffer.
fn param_info(f: u64, index: usize) -> Result<(usize, usize), CUresult> {
    state::with(|d| {
        let fe = d
            .functions
            .get(&f)
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{f:x} is not a function")))?;
        let p = fe.kernel.params.get(index).ok_or_else(|| {
            crate::fail(
                error::INVALID_VALUE,
                format!("kernel `{}` has {} parameters", fe.kernel.name, fe.kernel.params.len()),
            )
        })?;
        Ok((p.1 as usize, p.2 as usize))
    })
}

fn result(code: CUresult) -> Result<(), CUresult> {
    if code == error::SUCCESS { Ok(()) } else { Err(code) }
}

crate::api! {
    fn cuLibraryLoadData(library: *mut Handle, code: *const c_void, jit_options: *const u32, jit_option_values: *mut *mut c_void, num_jit_options: u32, library_options: *const u32, library_option_values: *mut *mut c_void, num_library_options: u32) {
        crate::printf::flush();
        // Library options (binary preservation, managed-variable handling) do not
        // change what runs.
        let _ = (library_options, library_option_values, num_library_options);
        if library.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let logs = Logs::from_options(num_jit_options, jit_options, jit_option_values)?;
        let m = module::load(&module::image_bytes(code)?, None, logs, true)?;
        crate::out(library, add_library(m)? as Handle)
    }

    fn cuLibraryLoadFromFile(library: *mut Handle, file_name: *const c_char, jit_options: *const u32, jit_option_values: *mut *mut c_void, num_jit_options: u32, library_options: *const u32, library_option_values: *mut *mut c_void, num_library_options: u32) {
        crate::printf::flush();
        let _ = (library_options, library_option_values, num_library_options);
        if library.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let path = crate::c_string(file_name)?;
        let bytes = std::fs::read(path).map_err(|e| crate::fail(error::FILE_NOT_FOUND, format!("{path}: {e}")))?;
        let logs = Logs::from_options(num_jit_options, jit_options, jit_option_values)?;
        let m = module::load(&bytes, Some(path.to_string()), logs, true)?;
        crate::out(library, add_library(m)? as Handle)
    }

    fn cuLibraryUnload(library: Handle) {
        crate::printf::flush();
        state::with(|d| {
            let m = d.libraries.remove(&(library as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{library:?} is not a library")))?;
            d.unload(m);
            Ok(())
        })
    }

    fn cuLibraryGetKernel(p_kernel: *mut Handle, library: Handle, name: *const c_char) {
        if p_kernel.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let f = module::function(library_module(library)?, crate::c_string(name)?)?;
        crate::out(p_kernel, f as Handle)
    }

    fn cuLibraryGetKernelCount(count: *mut u32, lib: Handle) {
        let m = library_module(lib)?;
        let n = state::with(|d| Ok(d.modules.get(&m).map_or(0, |e| e.module.kernel_names().len())))?;
        crate::out(count, n as u32)
    }

    fn cuLibraryEnumerateKernels(kernels: *mut Handle, num_kernels: u32, lib: Handle) {
        let m = library_module(lib)?;
        let names = state::with(|d| Ok(d.modules.get(&m).map(|e| e.module.kernel_names()).unwrap_or_default()))?;
        if kernels.is_null() || (num_kernels as usize) < names.len() {
            return Err(crate::fail(error::INVALID_VALUE, format!("the library has {} kernels", names.len())));
        }
        for (k, name) in names.iter().enumerate() {
            let f = module::function(m, name)?;
            // SAFETY: the caller's array holds `num_kernels >= names.len()` handles.
            unsafe { kernels.add(k).write(f as Handle) };
        }
        Ok(())
    }

    fn cuLibraryGetModule(p_mod: *mut Handle, library: Handle) {
        let m = library_module(library)?;
        crate::out(p_mod, m as Handle)
    }

    fn cuLibraryGetGlobal(dptr: *mut CUdeviceptr, bytes: *mut usize, library: Handle, name: *const c_char) {
        let (addr, size) = module::global(library_module(library)?, crate::c_string(name)?)?;
        if !dptr.is_null() {
            crate::out(dptr, addr)?;
        }
        if !bytes.is_null() {
            crate::out(bytes, size as usize)?;
        }
        Ok(())
    }

    fn cuLibraryGetManaged(dptr: *mut CUdeviceptr, bytes: *mut usize, library: Handle, name: *const c_char) {
        // A managed variable (`__managed__`, `.attribute(.managed)`): its memory is
        // where host code reaches it in place, at the address the device has.
        let m = library_module(library)?;
        let name = crate::c_string(name)?;
        let managed = state::with(|d| Ok(d.modules.get(&m).is_some_and(|e| e.module.managed_names().iter().any(|n| n == name))))?;
        if !managed {
            return Err(crate::fail(error::NOT_FOUND, format!("no managed variable named `{name}`")));
        }
        let (addr, size) = module::global(m, name)?;
        if !dptr.is_null() {
            crate::out(dptr, addr)?;
        }
        if !bytes.is_null() {
            crate::out(bytes, size as usize)?;
        }
        Ok(())
    }

    fn cuKernelGetFunction(p_func: *mut Handle, kernel_: Handle) {
        let f = kernel(kernel_)?;
        crate::out(p_func, f as Handle)
    }

    fn cuKernelGetLibrary(p_lib: *mut Handle, kernel_: Handle) {
        let lib = state::with(|d| {
            let f = d.functions.get(&(kernel_ as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{kernel_:?} is not a kernel")))?;
            let m = f.module;
            d.libraries.iter().find(|(_, lm)| **lm == m).map(|(l, _)| *l).ok_or_else(|| crate::fail(error::NOT_FOUND, "the kernel is not from a library"))
        })?;
        crate::out(p_lib, lib as Handle)
    }

    fn cuKernelGetAttribute(pi: *mut i32, attrib: u32, kernel_: Handle, dev: CUdevice) {
        crate::device::check(dev)?;
        // SAFETY: the same arguments, passed on.
        result(unsafe { crate::launch::cuFuncGetAttribute(pi, attrib, kernel_) })
    }

    fn cuKernelSetAttribute(attrib: u32, val: i32, kernel_: Handle, dev: CUdevice) {
        crate::device::check(dev)?;
        // SAFETY: the same arguments, passed on.
        result(unsafe { crate::launch::cuFuncSetAttribute(kernel_, attrib, val) })
    }

    fn cuKernelSetCacheConfig(kernel_: Handle, config: u32, dev: CUdevice) {
        let _ = config;
        crate::device::check(dev)?;
        kernel(kernel_).map(|_| ())
    }

    fn cuKernelGetName(name: *mut *const c_char, hfunc: Handle) {
        // SAFETY: the same arguments, passed on.
        result(unsafe { crate::launch::cuFuncGetName(name, hfunc) })
    }

    fn cuKernelGetParamInfo(kernel_: Handle, param_index: usize, param_offset: *mut usize, param_size: *mut usize) {
        let (offset, size) = param_info(kernel_ as u64, param_index)?;
        crate::out(param_offset, offset)?;
        if !param_size.is_null() {
            crate::out(param_size, size)?;
        }
        Ok(())
    }

    fn cuFuncGetParamInfo(func: Handle, param_index: usize, param_offset: *mut usize, param_size: *mut usize) {
        let (offset, size) = param_info(func as u64, param_index)?;
        crate::out(param_offset, offset)?;
        if !param_size.is_null() {
            crate::out(param_size, size)?;
        }
        Ok(())
    }

    fn cuKernelGetParamCount(kernel_: Handle, param_count: *mut usize) {
        let n = state::with(|d| {
            let fe = d.functions.get(&(kernel_ as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{kernel_:?} is not a kernel")))?;
            Ok(fe.kernel.params.len())
        })?;
        crate::out(param_count, n)
    }

    fn cuFuncGetParamCount(func: Handle, param_count: *mut usize) {
        // SAFETY: the same arguments, passed on.
        result(unsafe { cuKernelGetParamCount(func, param_count) })
    }
}
