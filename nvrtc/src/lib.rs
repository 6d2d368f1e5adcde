//! `ptxvm exec`'s NVRTC interposer. Programs that compile CUDA C++ at run time
//! often ask NVRTC for a cubin (`--gpu-architecture=sm_90`, then
//! `nvrtcGetCUBIN`): machine code, which ptxvm cannot run. `ptxvm exec` preloads
//! this library in front of the program's own NVRTC. It passes every call on to
//! NVIDIA's NVRTC (found with `dlsym(RTLD_NEXT, ...)`) except three:
//!
//! - `nvrtcCompileProgram` with a real architecture (`sm_XX`) compiles for the
//!   virtual one of the same number (`compute_XX`) instead, and remembers that;
//! - `nvrtcGetCUBINSize` and `nvrtcGetCUBIN` of such a program give its PTX,
//!   NUL-terminated, which the driver loads where the cubin would have gone.
//!
//! A program that loads NVRTC itself with `dlopen` and looks functions up in that
//! handle reaches NVIDIA's NVRTC directly; its cubin is then refused by the
//! driver with how to ask for PTX instead.

#![allow(clippy::missing_safety_doc)]

use std::collections::HashSet;
use std::ffi::{CStr, CString, c_char, c_int, c_void};
use std::sync::Mutex;

/// `nvrtcResult`.
type NvrtcResult = c_int;
const NVRTC_ERROR_INVALID_INPUT: NvrtcResult = 3;
const NVRTC_ERROR_INTERNAL_ERROR: NvrtcResult = 11;

/// Programs compiled for `compute_XX` in place of the `sm_XX` they asked for.
static REWRITTEN: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn rewritten() -> std::sync::MutexGuard<'static, Option<HashSet<usize>>> {
    REWRITTEN.lock().unwrap_or_else(|e| e.into_inner())
}

/// NVIDIA's function `name` (NUL-terminated), behind this library: among the
/// objects loaded after it, or in an NVRTC loaded privately (`RTLD_LOCAL`, as by
/// a Python extension), found by its soname.
fn next(name: &CStr) -> Option<*mut c_void> {
    // SAFETY: `name` is NUL-terminated; RTLD_NEXT searches the objects loaded after
    // this one, where the program's own libnvrtc is when it was linked with it.
    let f = unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) };
    if !f.is_null() {
        return Some(f);
    }
    for soname in [c"libnvrtc.so.13", c"libnvrtc.so.12"] {
        // SAFETY: NUL-terminated names; RTLD_NOLOAD only finds a library already
        // loaded, and the handle's reference is given back after the lookup (the
        // library stays loaded by whoever loaded it).
        unsafe {
            let h = libc::dlopen(soname.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD);
            if !h.is_null() {
                let f = libc::dlsym(h, name.as_ptr());
                libc::dlclose(h);
                if !f.is_null() {
                    return Some(f);
                }
            }
        }
    }
    eprintln!("ptxvm: {} not found: the program's NVRTC is not loaded", name.to_string_lossy());
    None
}

/// The option `o` with a real architecture `sm_XX` (with or without `a`/`f`)
/// turned into the virtual `compute_XX` of the same number; `None` when it names
/// none.
fn virtual_arch(o: &str) -> Option<String> {
    for prefix in ["--gpu-architecture=", "-arch=", "--gpu-architecture", "-arch"] {
        if let Some(arch) = o.strip_prefix(prefix)
            && let Some(number) = arch.strip_prefix("sm_")
        {
            return Some(format!("{prefix}compute_{number}"));
        }
    }
    o.strip_prefix("sm_").map(|number| format!("compute_{number}"))
}

/// `nvrtcCompileProgram`: a real architecture compiles as the virtual one.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvrtcCompileProgram(
    prog: *mut c_void,
    num_options: c_int,
    options: *const *const c_char,
) -> NvrtcResult {
    type F = unsafe extern "C" fn(*mut c_void, c_int, *const *const c_char) -> NvrtcResult;
    let Some(f) = next(c"nvrtcCompileProgram") else { return NVRTC_ERROR_INTERNAL_ERROR };
    // SAFETY: NVIDIA's nvrtcCompileProgram, whose type nvrtc.h declares.
    let real: F = unsafe { std::mem::transmute::<*mut c_void, F>(f) };
    let n = usize::try_from(num_options).unwrap_or(0);
    if options.is_null() || n == 0 {
        // SAFETY: the caller's arguments, passed on.
        return unsafe { real(prog, num_options, options) };
    }
    // SAFETY: `options` holds `num_options` NUL-terminated strings (nvrtc.h).
    let given: Vec<&CStr> = (0..n).map(|k| unsafe { CStr::from_ptr(*options.add(k)) }).collect();
    let mut changed = false;
    let owned: Vec<CString> = given
        .iter()
        .map(|o| match o.to_str().ok().and_then(virtual_arch) {
            Some(v) => {
                changed = true;
                CString::new(v).unwrap_or_default()
            }
            None => (*o).to_owned(),
        })
        .collect();
    let ptrs: Vec<*const c_char> = owned.iter().map(|o| o.as_ptr()).collect();
    // SAFETY: the program handle as given, and options that live until it returns.
    let r = unsafe { real(prog, num_options, ptrs.as_ptr()) };
    let mut set = rewritten();
    let set = set.get_or_insert_with(HashSet::new);
    if changed {
        set.insert(prog as usize);
    } else {
        set.remove(&(prog as usize));
    }
    r
}

/// `nvrtcGetCUBINSize`: of a program compiled in place of a cubin, its PTX's size.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvrtcGetCUBINSize(prog: *mut c_void, size: *mut usize) -> NvrtcResult {
    type F = unsafe extern "C" fn(*mut c_void, *mut usize) -> NvrtcResult;
    let name = if was_rewritten(prog) { c"nvrtcGetPTXSize" } else { c"nvrtcGetCUBINSize" };
    let Some(f) = next(name) else { return NVRTC_ERROR_INTERNAL_ERROR };
    // SAFETY: NVIDIA's function of that name, with the caller's arguments.
    unsafe { std::mem::transmute::<*mut c_void, F>(f)(prog, size) }
}

/// `nvrtcGetCUBIN`: of a program compiled in place of a cubin, its PTX.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvrtcGetCUBIN(prog: *mut c_void, cubin: *mut c_char) -> NvrtcResult {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_char) -> NvrtcResult;
    if cubin.is_null() {
        return NVRTC_ERROR_INVALID_INPUT;
    }
    let name = if was_rewritten(prog) { c"nvrtcGetPTX" } else { c"nvrtcGetCUBIN" };
    let Some(f) = next(name) else { return NVRTC_ERROR_INTERNAL_ERROR };
    // SAFETY: NVIDIA's function of that name, with the caller's arguments.
    unsafe { std::mem::transmute::<*mut c_void, F>(f)(prog, cubin) }
}

/// `nvrtcDestroyProgram`: forgets the program, then destroys it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nvrtcDestroyProgram(prog: *mut *mut c_void) -> NvrtcResult {
    type F = unsafe extern "C" fn(*mut *mut c_void) -> NvrtcResult;
    if !prog.is_null() {
        // SAFETY: a non-NULL `nvrtcProgram*` (nvrtc.h).
        let p = unsafe { *prog };
        if let Some(set) = rewritten().as_mut() {
            set.remove(&(p as usize));
        }
    }
    let Some(f) = next(c"nvrtcDestroyProgram") else { return NVRTC_ERROR_INTERNAL_ERROR };
    // SAFETY: NVIDIA's nvrtcDestroyProgram, with the caller's argument.
    unsafe { std::mem::transmute::<*mut c_void, F>(f)(prog) }
}

fn was_rewritten(prog: *mut c_void) -> bool {
    rewritten().as_ref().is_some_and(|s| s.contains(&(prog as usize)))
}

#[cfg(test)]
mod tests {
    use super::virtual_arch;

    #[test]
    fn real_architectures_become_virtual_ones_of_the_same_number() {
        assert_eq!(
            virtual_arch("--gpu-architecture=sm_90").as_deref(),
            Some("--gpu-architecture=compute_90")
        );
        assert_eq!(virtual_arch("-arch=sm_80").as_deref(), Some("-arch=compute_80"));
        assert_eq!(virtual_arch("-arch=sm_90a").as_deref(), Some("-arch=compute_90a"));
        // The value of a two-word option.
        assert_eq!(virtual_arch("sm_86").as_deref(), Some("compute_86"));
        assert_eq!(virtual_arch("--gpu-architecture=compute_90"), None);
        assert_eq!(virtual_arch("-default-device"), None);
        assert_eq!(virtual_arch("--std=c++17"), None);
    }
}
