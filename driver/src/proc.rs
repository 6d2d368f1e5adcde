//! `cuGetProcAddress`, through which cuda-python and NVIDIA's runtime find every
//! driver function: by base name (`cuMemAlloc`) and the CUDA version the caller was
//! written for, the newest variant of the function no newer than that version
//! (`cuMemAlloc_v2` since 3.2). The table (`procs.rs`) is generated from `cuda.h`'s
//! versioned typedefs by `driver/gen_procs.py`.

use crate::error;
use crate::types::CUresult;
use std::ffi::{c_char, c_void};

include!("procs.rs");

/// `CUdriverProcAddressQueryResult`.
const SYMBOL_SUCCESS: i32 = 0;
const SYMBOL_NOT_FOUND: i32 = 1;
const VERSION_NOT_SUFFICIENT: i32 = 2;

/// The newest variant of `name` at `version`, or why there is none.
pub fn lookup(name: &str, version: i32) -> Result<usize, i32> {
    let variants: Vec<&(&str, i32, usize)> = TABLE.iter().filter(|t| t.0 == name).collect();
    if variants.is_empty() {
        return Err(SYMBOL_NOT_FOUND);
    }
    variants.iter().filter(|t| t.1 <= version).max_by_key(|t| t.1).map(|t| t.2).ok_or(VERSION_NOT_SUFFICIENT)
}

fn get(symbol: *const c_char, pfn: *mut *mut c_void, version: i32, status: *mut i32) -> Result<(), CUresult> {
    let name = crate::c_string(symbol)?;
    if pfn.is_null() {
        return Err(error::INVALID_VALUE);
    }
    if version > crate::device::DRIVER_VERSION {
        let why = format!("CUDA {version} is newer than this driver's {}", crate::device::DRIVER_VERSION);
        return Err(crate::fail(error::INVALID_VALUE, why));
    }
    let found = lookup(name, version);
    if found.is_err() && crate::config::get().log_api {
        eprintln!("ptxvm api: {name} (CUDA {version}) is not a function ptxvm has");
    }
    if !status.is_null() {
        crate::out(status, found.err().unwrap_or(SYMBOL_SUCCESS))?;
    }
    // A function the driver lacks, or lacks at that version, is no error: the
    // pointer is NULL and the status says why (cuda.h 13.5).
    crate::out(pfn, found.map_or(std::ptr::null_mut(), |f| f as *mut c_void))
}

crate::api! {
    fn cuGetProcAddress(symbol: *const c_char, pfn: *mut *mut c_void, cuda_version: i32, flags: u64) {
        // Per-thread default streams are the legacy stream in ptxvm: work runs as it
        // is enqueued, in one order, whichever stream it names.
        let _ = flags;
        get(symbol, pfn, cuda_version, std::ptr::null_mut())
    }

    fn cuGetProcAddress_v2(symbol: *const c_char, pfn: *mut *mut c_void, cuda_version: i32, flags: u64, symbol_status: *mut i32) {
        let _ = flags;
        get(symbol, pfn, cuda_version, symbol_status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_resolves_to_its_newest_variant_at_a_version() {
        let v2 = crate::memory::cuMemAlloc_v2 as *const () as usize;
        assert_eq!(lookup("cuMemAlloc", 12000), Ok(v2));
        assert_eq!(lookup("cuMemAlloc", 3020), Ok(v2));
        // Only the 2.0 variant (32-bit sizes and pointers) existed before 3.2: ptxvm
        // exports it, answering CUDA_ERROR_NOT_SUPPORTED.
        assert_eq!(lookup("cuMemAlloc", 3000), Ok(crate::unsupported::cuMemAlloc as *const () as usize));
        assert_eq!(lookup("cuMemAlloc", 1000), Err(VERSION_NOT_SUFFICIENT));
        assert_eq!(lookup("cuCtxCreate", 13000), Ok(crate::context::cuCtxCreate_v4 as *const () as usize));
        assert_eq!(lookup("cuCtxCreate", 12000), Ok(crate::context::cuCtxCreate_v3 as *const () as usize));
        assert_eq!(lookup("cuNoSuchFunction", 13000), Err(SYMBOL_NOT_FOUND));
    }
}
