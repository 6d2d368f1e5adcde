//! Modules: PTX text from memory or a file, checked as `ptxas` checks it. Invalid PTX
//! is `CUDA_ERROR_INVALID_PTX` with ptxvm's diagnostics in the JIT error log and on
//! stderr. A fat binary gives its PTX ([`ptxvm::fatbin`]); a cubin, or a fat binary
//! of machine code alone, is refused with how to keep PTX in a build. A module
//! is decoded for execution, and its `.global` and `.const` variables placed in device
//! memory, when a function, a variable or a launch first needs them.

use crate::error;
use crate::state::{self, FunctionEntry, ModuleEntry};
use crate::types::{CUdeviceptr, CUresult, Handle};
use ptxvm::api::Module;
use ptxvm::diag::Diagnostic;
use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::Arc;

/// `CUjit_option` values ptxvm reads.
const JIT_INFO_LOG_BUFFER: u32 = 3;
const JIT_INFO_LOG_BUFFER_SIZE_BYTES: u32 = 4;
const JIT_ERROR_LOG_BUFFER: u32 = 5;
const JIT_ERROR_LOG_BUFFER_SIZE_BYTES: u32 = 6;

/// Where a JIT log goes: the caller's buffer and its size slot.
#[derive(Default, Clone, Copy)]
pub struct Logs {
    error: Option<(*mut c_char, *mut *mut c_void)>,
    info: Option<(*mut c_char, *mut *mut c_void)>,
}

impl Logs {
    /// The logs of `cuModuleLoadDataEx`-style options.
    pub(crate) fn from_options(
        n: u32,
        options: *const u32,
        values: *mut *mut c_void,
    ) -> Result<Logs, CUresult> {
        if n > 0 && (options.is_null() || values.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        let mut logs = Logs::default();
        let (mut buffers, mut sizes) = (HashMap::new(), HashMap::new());
        for k in 0..n as usize {
            // SAFETY: the caller passes `n` options and `n` values.
            let (opt, slot) = unsafe { (*options.add(k), values.add(k)) };
            // SAFETY: `slot` is one of the `n` value slots.
            let value = unsafe { *slot };
            match opt {
                JIT_INFO_LOG_BUFFER | JIT_ERROR_LOG_BUFFER => {
                    buffers.insert(opt, value.cast::<c_char>());
                }
                JIT_INFO_LOG_BUFFER_SIZE_BYTES | JIT_ERROR_LOG_BUFFER_SIZE_BYTES => {
                    sizes.insert(opt - 1, slot);
                }
                // Optimisation levels, targets, register limits and the rest shape
                // machine code, which ptxvm does not make.
                _ => {}
            }
        }
        for (opt, buf) in buffers {
            let Some(&size) = sizes.get(&opt) else { continue };
            if buf.is_null() {
                continue;
            }
            if opt == JIT_ERROR_LOG_BUFFER {
                logs.error = Some((buf, size));
            } else {
                logs.info = Some((buf, size));
            }
        }
        Ok(logs)
    }

    /// Writes `text` into the error log (cut to its size, NUL-terminated) and the
    /// bytes written into its size slot; the info log is emptied.
    pub fn write(&self, text: &str) {
        for (log, body) in [(self.error, text), (self.info, "")] {
            let Some((buf, size)) = log else { continue };
            // SAFETY: `size` is the option's value slot; it holds the buffer's size
            // in bytes, and the buffer at `buf` is that large (cuda.h's contract).
            let cap = unsafe { *size } as usize;
            if cap == 0 {
                continue;
            }
            let n = body.len().min(cap - 1);
            // SAFETY: `n + 1 <= cap` bytes of the caller's buffer.
            unsafe {
                std::ptr::copy_nonoverlapping(body.as_ptr().cast::<c_char>(), buf, n);
                buf.add(n).write(0);
                *size = n as *mut c_void;
            }
        }
    }
}

/// Why an image is not PTX, with how to get PTX, or `None` for text.
fn not_ptx(image: &[u8]) -> Option<(CUresult, String)> {
    let keep = "ptxvm runs PTX: build with `-arch=sm_90` (or `-gencode arch=compute_90,code=compute_90`) \
                to keep PTX, or load the .ptx file (`nvcc -ptx`)";
    if image.starts_with(b"\x7fELF") {
        return Some((error::NO_BINARY_FOR_GPU, format!("the image is a cubin (ELF machine code); {keep}")));
    }
    None
}

/// The PTX of a fat binary (the PTX of the highest `sm_` number ptxvm runs), or the
/// image itself when it is not one.
///
/// # Errors
/// `CUDA_ERROR_NO_BINARY_FOR_GPU` for a fat binary without PTX, and
/// `CUDA_ERROR_INVALID_IMAGE` for one that cannot be read, with the reason.
pub(crate) fn unpack(image: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, (CUresult, String)> {
    if ptxvm::fatbin::container_size(image).is_none() {
        return Ok(std::borrow::Cow::Borrowed(image));
    }
    match ptxvm::fatbin::pick_ptx(image, 90) {
        Ok((_, text)) => Ok(std::borrow::Cow::Owned(text.into_bytes())),
        Err(e @ ptxvm::fatbin::FatbinError::NoPtx(_)) => Err((error::NO_BINARY_FOR_GPU, e.to_string())),
        Err(e) => Err((error::INVALID_IMAGE, e.to_string())),
    }
}

/// Loads PTX `text` into the current context, or (a library) into none when there
/// is no current context; `file` names it in reports.
pub fn load(text: &[u8], file: Option<String>, logs: Logs, library: bool) -> Result<u64, CUresult> {
    if let Some((code, why)) = not_ptx(text) {
        logs.write(&why);
        return Err(crate::fail(code, why));
    }
    let text = match unpack(text) {
        Ok(t) => t,
        Err((code, why)) => {
            logs.write(&why);
            return Err(crate::fail(code, why));
        }
    };
    // Up to the first NUL: a length-counted image may or may not include one.
    let text = &text[..text.iter().position(|&b| b == 0).unwrap_or(text.len())];
    let Ok(src) = std::str::from_utf8(text) else {
        let why = "the image is neither PTX text (not UTF-8) nor a cubin";
        logs.write(why);
        return Err(crate::fail(error::INVALID_IMAGE, why));
    };
    state::with(|d| {
        // A library belongs to no context (CUDA 12's context-independent loading):
        // destroying or resetting one leaves it loaded.
        let c = if library {
            d.sticky()?;
            0
        } else {
            d.ctx()?
        };
        d.loaded += 1;
        let file = file.unwrap_or_else(|| format!("module-{}.ptx", d.loaded));
        let module = match Module::load(src) {
            Ok(m) => m,
            Err(diags) => {
                let text: String = diags.iter().map(|x| x.render(&file, src)).collect();
                logs.write(&text);
                eprint!("{text}");
                return Err(crate::fail(error::INVALID_PTX, format!("{file}: {} errors", diags.len())));
            }
        };
        // Decoding for execution, and placing the variables, wait for the first
        // function, variable or launch that needs them: a framework may load a large
        // module for one kernel.
        logs.write("");
        let m = d.handle();
        let entry = ModuleEntry { ctx: c, module: Arc::new(module), file, functions: HashMap::new() };
        d.modules.insert(m, entry);
        Ok(m)
    })
}

/// The NUL-terminated image at `image`: PTX text, a cubin's header, a fat binary,
/// or the PTX that the translation units of an `-rdc=true` program link into.
pub(crate) fn image_bytes<'a>(image: *const c_void) -> Result<Cow<'a, [u8]>, CUresult> {
    if image.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // A cubin or fat binary is not NUL-terminated: its header tells it apart first.
    // SAFETY: an image is at least 4 bytes (a magic number, or PTX text that ends in
    // its NUL within them).
    let head = unsafe { std::slice::from_raw_parts(image.cast::<u8>(), 4) };
    let magic = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    if magic == ptxvm::fatbin::WRAPPER_MAGIC {
        // SAFETY: nvcc's wrapper (`__fatBinC_Wrapper_t`), 24 bytes and 8-aligned:
        // magic, version, the container, and (version 2) the list of prelinked ones.
        let (version, data, units) = unsafe {
            let w = image.cast::<u8>();
            (*w.add(4).cast::<u32>(), *w.add(8).cast::<*const c_void>(), *w.add(16).cast::<*const usize>())
        };
        if version == 2 && !units.is_null() {
            // SAFETY: version 2's list is NULL-terminated, of container addresses.
            return Ok(Cow::Owned(unsafe { link_units(units) }?));
        }
        return image_bytes(data);
    }
    if magic == ptxvm::fatbin::MAGIC {
        // SAFETY: a container starts with its 16-byte header, which gives its size.
        let header = unsafe { std::slice::from_raw_parts(image.cast::<u8>(), 16) };
        let size = ptxvm::fatbin::container_size(header).ok_or(error::INVALID_IMAGE)?;
        let size = usize::try_from(size).map_err(|_| error::INVALID_IMAGE)?;
        // SAFETY: the container holds the size its header gives.
        return Ok(Cow::Borrowed(unsafe { std::slice::from_raw_parts(image.cast::<u8>(), size) }));
    }
    if head.starts_with(b"\x7fELF") {
        return Ok(Cow::Borrowed(head));
    }
    // SAFETY: PTX text handed to cuModuleLoadData is NUL-terminated.
    Ok(Cow::Borrowed(unsafe { std::ffi::CStr::from_ptr(image.cast::<c_char>()) }.to_bytes()))
}

/// The PTX of an `-rdc=true` program: its wrapper's image is the device-linked
/// machine code alone, and its list (`__nv_relfatbin`, nvcc's `crt/link.stub`) gives
/// each translation unit's own fat binary, whose PTX ptxvm links as nvlink joins
/// their machine code: calls and variables resolve across units.
///
/// # Safety
/// `units` is a NULL-terminated list of fat binary container addresses.
unsafe fn link_units(mut units: *const usize) -> Result<Vec<u8>, CUresult> {
    let mut inputs = Vec::new();
    // SAFETY: the list goes on to its NULL (the caller's contract).
    while let Some(&f) = unsafe { units.as_ref() }.filter(|&&f| f != 0) {
        let k = inputs.len();
        let bad = |why: String| {
            crate::fail(
                error::INVALID_IMAGE,
                format!("translation unit {k} of this -rdc=true program: {why}"),
            )
        };
        // SAFETY: a container begins with its 16-byte header, and is as long as
        // the header says.
        let bytes = unsafe {
            let head = std::slice::from_raw_parts(f as *const u8, 16);
            let size = ptxvm::fatbin::container_size(head).ok_or_else(|| bad("not a fat binary".into()))?;
            std::slice::from_raw_parts(f as *const u8, size as usize)
        };
        let (_, ptx) = ptxvm::fatbin::pick_ptx(bytes, 90).map_err(|e| {
            bad(format!(
                "{e}; build with -arch=sm_90 (or -gencode arch=compute_90,code=compute_90) to keep PTX"
            ))
        })?;
        // NVIDIA's device runtime (libcudadevrt) is built on the device launch
        // system calls of NVIDIA's GPU driver (`__cuda_syscall_cnpv2*`, which only
        // it calls); ptxvm provides what it provides as builtins.
        if !ptx.contains("__cuda_syscall_cnpv2") {
            inputs.push((format!("translation unit {k}"), ptx));
        }
        // SAFETY: within the NULL-terminated list.
        units = unsafe { units.add(1) };
    }
    match ptxvm::api::link(&inputs) {
        Ok(text) => Ok(text.into_bytes()),
        Err(why) => {
            eprint!("{why}");
            Err(crate::fail(
                error::INVALID_PTX,
                "the translation units of this -rdc=true program do not link",
            ))
        }
    }
}

/// Module `m`'s entry.
fn module_entry(modules: &HashMap<u64, ModuleEntry>, m: u64) -> Result<&ModuleEntry, CUresult> {
    modules.get(&m).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{m:x} is not a module")))
}

/// Function `name` of module `m`: the same handle each time.
pub fn function(m: u64, name: &str) -> Result<u64, CUresult> {
    state::with(|d| {
        d.sticky()?;
        let entry = module_entry(&d.modules, m)?;
        if let Some(&f) = entry.functions.get(name) {
            return Ok(f);
        }
        if !entry.module.kernel_names().iter().any(|k| k == name) {
            return Err(crate::fail(error::NOT_FOUND, format!("{}: no kernel named `{name}`", entry.file)));
        }
        let kernel = entry.module.kernel(name).map_err(|e| {
            let text = Diagnostic::new(e.span, e.message).render(&entry.file, entry.module.source());
            eprint!("{text}");
            crate::fail(error::NOT_SUPPORTED, format!("kernel `{name}` uses what ptxvm cannot run yet"))
        })?;
        let f = d.handle();
        let fe = FunctionEntry {
            module: m,
            kernel,
            max_dynamic_shared: crate::device::SHARED_PER_BLOCK as u32,
            attributes: HashMap::new(),
        };
        d.functions.insert(f, fe);
        if let Some(e) = d.modules.get_mut(&m) {
            e.functions.insert(name.to_string(), f);
        }
        Ok(f)
    })
}

/// The address and size of variable `name` of module `m`.
pub fn global(m: u64, name: &str) -> Result<(u64, u64), CUresult> {
    state::with(|d| {
        d.sticky()?;
        let entry = module_entry(&d.modules, m)?;
        if let Err(e) = d.device.place_module(&entry.module) {
            return Err(crate::fail(error::INVALID_IMAGE, format!("{}: {e}", entry.file)));
        }
        d.device.global(&entry.module, name).ok_or_else(|| {
            crate::fail(
                error::NOT_FOUND,
                format!("{}: no .global or .const variable named `{name}`", entry.file),
            )
        })
    })
}

crate::api! {
    fn cuModuleLoad(module: *mut Handle, fname: *const c_char) {
        crate::printf::flush();
        if module.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let path = crate::c_string(fname)?;
        let bytes = std::fs::read(path).map_err(|e| crate::fail(error::FILE_NOT_FOUND, format!("{path}: {e}")))?;
        let m = load(&bytes, Some(path.to_string()), Logs::default(), false)?;
        crate::out(module, m as Handle)
    }

    fn cuModuleLoadData(module: *mut Handle, image: *const c_void) {
        crate::printf::flush();
        if module.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let m = load(&image_bytes(image)?, None, Logs::default(), false)?;
        crate::out(module, m as Handle)
    }

    fn cuModuleLoadDataEx(module: *mut Handle, image: *const c_void, num_options: u32, options: *const u32, option_values: *mut *mut c_void) {
        crate::printf::flush();
        if module.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let logs = Logs::from_options(num_options, options, option_values)?;
        let m = load(&image_bytes(image)?, None, logs, false)?;
        crate::out(module, m as Handle)
    }

    fn cuModuleUnload(hmod: Handle) {
        crate::printf::flush();
        state::with(|d| {
            d.current()?;
            d.unload(hmod as u64).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{hmod:?} is not a module")))
        })
    }

    fn cuModuleGetFunction(hfunc: *mut Handle, hmod: Handle, name: *const c_char) {
        if hfunc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let f = function(hmod as u64, crate::c_string(name)?)?;
        crate::out(hfunc, f as Handle)
    }

    fn cuModuleGetFunctionCount(count: *mut u32, hmod: Handle) {
        let n = state::with(|d| Ok(module_entry(&d.modules, hmod as u64)?.module.kernel_names().len()))?;
        crate::out(count, n as u32)
    }

    fn cuModuleEnumerateFunctions(functions: *mut Handle, num_functions: u32, hmod: Handle) {
        let names = state::with(|d| Ok(module_entry(&d.modules, hmod as u64)?.module.kernel_names()))?;
        if functions.is_null() || (num_functions as usize) < names.len() {
            return Err(crate::fail(error::INVALID_VALUE, format!("the module has {} functions", names.len())));
        }
        for (k, name) in names.iter().enumerate() {
            let f = function(hmod as u64, name)?;
            // SAFETY: the caller's array holds `num_functions >= names.len()` handles.
            unsafe { functions.add(k).write(f as Handle) };
        }
        Ok(())
    }

    fn cuModuleGetLoadingMode(mode: *mut u32) {
        // Modules are decoded when a function or variable is first used:
        // CU_MODULE_LAZY_LOADING (2), CUDA's default, unless CUDA_MODULE_LOADING
        // asks for CU_MODULE_EAGER_LOADING (1).
        let eager = std::env::var("CUDA_MODULE_LOADING").is_ok_and(|v| v.eq_ignore_ascii_case("EAGER"));
        crate::out(mode, if eager { 1 } else { 2 })
    }

    fn cuModuleGetGlobal_v2(dptr: *mut CUdeviceptr, bytes: *mut usize, hmod: Handle, name: *const c_char) {
        let (addr, size) = global(hmod as u64, crate::c_string(name)?)?;
        if !dptr.is_null() {
            crate::out(dptr, addr)?;
        }
        if !bytes.is_null() {
            crate::out(bytes, size as usize)?;
        }
        Ok(())
    }
}
