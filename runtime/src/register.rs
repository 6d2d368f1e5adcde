//! The registration ABI nvcc's host stubs call (read off nvcc 13.5's
//! `.cudafe1.stub.c` and `crt/host_runtime.h`): at start-up each translation unit
//! registers its fat binary, then its kernels (by the host stub's address and the
//! kernel's name) and its variables; `<<<>>>` pushes a launch configuration that the
//! stub pops before it calls `__cudaLaunchKernel` with the stub's address as the
//! kernel. A fat binary's module is loaded when one of its kernels or variables is
//! first used, so a program pays for what it launches.

use crate::driver;
use crate::error::{self, CudaError};
use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_void};
use std::sync::{Mutex, OnceLock};

/// A registered fat binary: nvcc's wrapper, and its module once loaded.
pub struct Binary {
    wrapper: usize,
    module: Mutex<Option<usize>>,
}

/// What the stubs registered, by host address.
#[derive(Default)]
struct Registry {
    /// Host stub address to (binary, kernel name), and the loaded function.
    functions: HashMap<usize, (usize, CString)>,
    loaded: HashMap<usize, usize>,
    /// Host shadow address to (binary, variable name, bytes).
    variables: HashMap<usize, (usize, CString, usize)>,
    /// `__managed__` variables: where the host's pointer to each lives, by binary.
    managed: Vec<(usize, usize, CString)>,
    binaries: Vec<usize>,
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    R.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// A launch configuration of `<<<>>>`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// A `<<<>>>` configuration: grid, block, dynamic shared memory, stream.
type Config = (Dim3, Dim3, usize, usize);
const NO_DIM: Dim3 = Dim3 { x: 0, y: 0, z: 0 };

thread_local! {
    /// The configurations `<<<>>>` pushed and the stubs have not popped yet (a fixed
    /// array: no destructor, so a launch from a static destructor still works).
    static CONFIGS: std::cell::Cell<([Config; 16], usize)> =
        const { std::cell::Cell::new(([(NO_DIM, NO_DIM, 0, 0); 16], 0)) };
}

/// The driver started, with the device's primary context current on this thread.
pub fn ready() -> Result<(), CudaError> {
    static CTX: OnceLock<Result<usize, CudaError>> = OnceLock::new();
    thread_local! {
        static CURRENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    let ctx = *CTX.get_or_init(|| {
        if let Err(why) = driver::get() {
            eprintln!("ptxvm: {why}");
            return Err(error::INITIALIZATION_ERROR);
        }
        crate::check(driver::cuInit(0))?;
        let mut ctx = std::ptr::null_mut();
        crate::check(driver::cuDevicePrimaryCtxRetain(&mut ctx, 0))?;
        Ok(ctx as usize)
    });
    let ctx = ctx?;
    if !CURRENT.with(|c| c.get()) {
        crate::check(driver::cuCtxSetCurrent(ctx as *mut c_void))?;
        CURRENT.with(|c| c.set(true));
    }
    Ok(())
}

/// The device's total memory (`cuDeviceTotalMem`).
pub fn total_memory() -> Result<usize, CudaError> {
    ready()?;
    let mut bytes = 0usize;
    crate::check(driver::cuDeviceTotalMem_v2(&mut bytes, 0))?;
    Ok(bytes)
}

/// The module of binary `b`, loaded on first use.
fn module(b: usize) -> Result<usize, CudaError> {
    ready()?;
    // SAFETY: `b` is a `Binary` this module leaked in `__cudaRegisterFatBinary`.
    let binary = unsafe { &*(b as *const Binary) };
    let mut slot = binary.module.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(m) = *slot {
        return Ok(m);
    }
    // The driver reads nvcc's wrapper, and links an `-rdc=true` program's units.
    let mut m = std::ptr::null_mut();
    crate::check(driver::cuModuleLoadData(&mut m, binary.wrapper as *const c_void))?;
    // `__managed__` variables: the host reaches them through the pointer the stub
    // registered, which now points at the variable.
    let managed: Vec<(usize, CString)> =
        registry().managed.iter().filter(|v| v.0 == b).map(|v| (v.1, v.2.clone())).collect();
    for (host, name) in managed {
        let (mut addr, mut size) = (0u64, 0usize);
        crate::check(driver::cuModuleGetGlobal_v2(&mut addr, &mut size, m, name.as_ptr()))?;
        // SAFETY: `host` is the `void**` the stub registered for this variable.
        unsafe { *(host as *mut usize) = addr as usize };
    }
    *slot = Some(m as usize);
    Ok(m as usize)
}

/// Forgets every loaded module and function (`cudaDeviceReset` unloaded them): the
/// next use loads them again.
pub fn forget_modules() {
    // The registry's lock is not held while a binary's is taken (`module` takes
    // them the other way round).
    let binaries = {
        let mut r = registry();
        r.loaded.clear();
        r.binaries.clone()
    };
    for &b in &binaries {
        // SAFETY: as in `module`.
        let binary = unsafe { &*(b as *const Binary) };
        *binary.module.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// The driver function of the kernel whose host stub is at `host`.
///
/// Anything else is handed to the driver as a kernel handle (`cudaKernel_t`, which
/// CUDA 12 lets a program pass for a kernel), as NVIDIA's runtime hands it: the
/// driver answers for a pointer that is neither (`CUDA_ERROR_INVALID_HANDLE`).
pub fn function(host: usize) -> Result<*mut c_void, CudaError> {
    if let Some(&f) = registry().loaded.get(&host) {
        return Ok(f as *mut c_void);
    }
    let Some((b, name)) = registry().functions.get(&host).cloned() else {
        return Ok(host as *mut c_void);
    };
    let m = module(b)?;
    let mut f = std::ptr::null_mut();
    crate::check(driver::cuModuleGetFunction(&mut f, m as *mut c_void, name.as_ptr()))?;
    registry().loaded.insert(host, f as usize);
    Ok(f)
}

/// The host stub of the kernel whose driver function is `f`, if one was loaded.
pub fn host_of(f: usize) -> Option<usize> {
    registry().loaded.iter().find(|(_, g)| **g == f).map(|(h, _)| *h)
}

/// The device address and size of the variable whose host shadow is at `host`.
pub fn variable(host: usize) -> Result<(u64, usize), CudaError> {
    let (b, name, _) = registry().variables.get(&host).cloned().ok_or_else(|| {
        eprintln!("ptxvm: 0x{host:x} is not a registered __device__ or __constant__ variable");
        error::INVALID_SYMBOL
    })?;
    let m = module(b)?;
    let (mut addr, mut size) = (0u64, 0usize);
    crate::check(driver::cuModuleGetGlobal_v2(&mut addr, &mut size, m as *mut c_void, name.as_ptr()))?;
    Ok((addr, size))
}

fn name_of(p: *const c_char) -> Option<CString> {
    // SAFETY: the stubs pass NUL-terminated names.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_owned())
}

/// The configuration `<<<>>>` pushed last, popped.
pub fn pop_config() -> Option<(Dim3, Dim3, usize, usize)> {
    CONFIGS.with(|c| {
        let (mut all, n) = c.get();
        let top = n.checked_sub(1).map(|k| std::mem::replace(&mut all[k], (NO_DIM, NO_DIM, 0, 0)))?;
        c.set((all, n - 1));
        Some(top)
    })
}

crate::rt! {
    fn __cudaRegisterFunction(handle: *mut *mut c_void, host_fun: *const c_char, device_fun: *mut c_char, device_name: *const c_char, thread_limit: i32, tid: *mut c_void, bid: *mut c_void, b_dim: *mut c_void, g_dim: *mut c_void, w_size: *mut i32) {
        let _ = (device_fun, thread_limit, tid, bid, b_dim, g_dim, w_size);
        let name = name_of(device_name).ok_or(error::INVALID_VALUE)?;
        registry().functions.insert(host_fun as usize, (handle as usize, name));
        Ok(())
    }

    fn __cudaRegisterVar(handle: *mut *mut c_void, host_var: *mut c_char, device_address: *mut c_char, device_name: *const c_char, ext: i32, size: usize, constant: i32, global: i32) {
        let _ = (device_address, ext, constant, global);
        let name = name_of(device_name).ok_or(error::INVALID_VALUE)?;
        registry().variables.insert(host_var as usize, (handle as usize, name, size));
        Ok(())
    }

    fn __cudaRegisterManagedVar(handle: *mut *mut c_void, host_var_ptr_address: *mut *mut c_void, device_address: *mut c_char, device_name: *const c_char, ext: i32, size: usize, constant: i32, global: i32) {
        let _ = (device_address, ext, constant, global);
        let name = name_of(device_name).ok_or(error::INVALID_VALUE)?;
        let mut r = registry();
        r.variables.insert(host_var_ptr_address as usize, (handle as usize, name.clone(), size));
        r.managed.push((handle as usize, host_var_ptr_address as usize, name));
        Ok(())
    }

    fn __cudaPopCallConfiguration(grid_dim: *mut Dim3, block_dim: *mut Dim3, shared_mem: *mut usize, stream: *mut *mut c_void) {
        let (g, b, s, st) = pop_config().ok_or(52u32)?; // cudaErrorMissingConfiguration
        crate::out(grid_dim, g)?;
        crate::out(block_dim, b)?;
        crate::out(shared_mem, s)?;
        crate::out(stream, st as *mut c_void)
    }

    fn __cudaGetKernel(kernel: *mut *mut c_void, host_fun: *const c_void) {
        // The stub's address stands for the kernel; it is looked up when launched.
        crate::out(kernel, host_fun as *mut c_void)
    }
}

/// `__cudaRegisterFatBinary`: remembers nvcc's wrapper; the handle is this runtime's
/// own record of it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fat_cubin: *mut c_void) -> *mut *mut c_void {
    let binary = Box::into_raw(Box::new(Binary { wrapper: fat_cubin as usize, module: Mutex::new(None) }));
    registry().binaries.push(binary as usize);
    binary.cast()
}

/// `__cudaRegisterFatBinaryEnd`: nothing to do until a kernel is used.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaRegisterFatBinaryEnd(handle: *mut *mut c_void) {
    let _ = handle;
}

/// `__cudaUnregisterFatBinary`, at exit: the module stays (the process is ending,
/// and other binaries' exit handlers may still launch).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) {
    let _ = handle;
}

/// `__cudaInitModule`: loads the binary's module now (for its `__managed__`
/// variables); 1 when it loaded.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaInitModule(handle: *mut *mut c_void) -> c_char {
    std::panic::catch_unwind(|| c_char::from(module(handle as usize).is_ok())).unwrap_or(0)
}

/// `__cudaPushCallConfiguration`: `<<<grid, block, shared, stream>>>`; 0 on success.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __cudaPushCallConfiguration(
    grid_dim: Dim3,
    block_dim: Dim3,
    shared_mem: usize,
    stream: *mut c_void,
) -> u32 {
    CONFIGS.with(|c| {
        let (mut all, n) = c.get();
        // Sixteen launches configured and not made: the oldest is dropped.
        let n = if n == all.len() {
            all.copy_within(1.., 0);
            n - 1
        } else {
            n
        };
        all[n] = (grid_dim, block_dim, shared_mem, stream as usize);
        c.set((all, n + 1));
    });
    0
}
