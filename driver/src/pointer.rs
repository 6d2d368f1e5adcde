//! Pointer attributes: what memory an address is in, as `cuPointerGetAttribute`
//! reports it with unified addressing (device and host pointers are one address).

use crate::error;
use crate::memory::find;
use crate::state::{self, Driver, MemKind};
use crate::types::{CUdeviceptr, CUresult, Handle, MEMORYTYPE_DEVICE, MEMORYTYPE_HOST};
use std::ffi::c_void;

/// Whether `ptr` is in a managed variable of a module whose variables are placed.
fn managed_variable(d: &Driver, ptr: CUdeviceptr) -> bool {
    d.modules.values().any(|m| {
        m.module.managed_names().iter().any(|name| {
            d.device
                .global(&m.module, name)
                .is_some_and(|(addr, bytes)| ptr >= addr && ptr < addr + bytes.max(1))
        })
    })
}

/// One attribute of `ptr`, written to `data`: `None` when `ptr` is not memory the
/// driver knows.
///
/// # Errors
/// `CUDA_ERROR_INVALID_VALUE` for an attribute ptxvm does not know.
fn attribute(d: &Driver, attr: u32, ptr: CUdeviceptr, data: *mut c_void) -> Result<Option<()>, CUresult> {
    let range = d.device.range(ptr);
    let alloc = find(d, ptr);
    let Some(r) = range else { return Ok(None) };
    // A module's variables are device memory of the context that loaded the module;
    // its managed ones (`__managed__`, `.attribute(.managed)`) are managed memory.
    let kind = alloc.map_or_else(
        || if managed_variable(d, ptr) { MemKind::Managed } else { MemKind::Device },
        |(_, a)| a.kind,
    );
    let ctx = alloc.map_or_else(|| state::top().unwrap_or(0), |(_, a)| a.ctx);
    let host = !matches!(kind, MemKind::Device);
    let (start, bytes) = alloc.map_or((r.base, r.bytes), |(k, a)| (k, a.bytes));
    let put_u32 = |v: u32| crate::out(data.cast::<u32>(), v);
    let put_u64 = |v: u64| crate::out(data.cast::<u64>(), v);
    match attr {
        1 => crate::out(data.cast::<Handle>(), ctx as Handle)?,
        2 => put_u32(if matches!(kind, MemKind::Host(_) | MemKind::Registered(_)) {
            MEMORYTYPE_HOST
        } else {
            MEMORYTYPE_DEVICE
        })?,
        3 => put_u64(ptr)?,
        4 => put_u64(if host { ptr } else { 0 })?,
        6 => put_u32(1)?,     // synchronous memory operations
        7 => put_u64(start)?, // buffer id: the allocation's start is unique
        8 => put_u32(u32::from(kind == MemKind::Managed))?,
        9 => put_u32(0)?,       // device ordinal
        10 | 15 => put_u32(0)?, // IPC, GPUDirect RDMA
        11 | 19 => put_u64(start)?,
        12 | 18 => put_u64(bytes)?,
        13 => put_u32(1)?, // mapped
        14 => put_u64(0)?, // no shareable handle types
        16 => put_u32(3)?, // read and write
        17 => crate::out(data.cast::<Handle>(), std::ptr::null_mut())?,
        20 => put_u64(start)?,
        21 => put_u32(0)?,                         // not for hardware decompression
        22 => crate::out(data.cast::<i32>(), -1)?, // no locality domain
        _ => return Err(crate::fail(error::INVALID_VALUE, format!("unknown pointer attribute {attr}"))),
    }
    Ok(Some(()))
}

crate::api! {
    fn cuPointerGetAttribute(data: *mut c_void, attribute_: u32, ptr: CUdeviceptr) {
        if data.is_null() {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| match attribute(d, attribute_, ptr, data)? {
            Some(()) => Ok(()),
            // Plain host memory: NVIDIA's runtime asks about it in
            // cudaPointerGetAttributes and expects this error, so nothing is said.
            None => Err(error::INVALID_VALUE),
        })
    }

    fn cuPointerGetAttributes(num_attributes: u32, attributes: *mut u32, data: *mut *mut c_void, ptr: CUdeviceptr) {
        if attributes.is_null() || data.is_null() {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            for k in 0..num_attributes as usize {
                // SAFETY: the caller passes `num_attributes` attributes and as many
                // out-pointers.
                let (attr, out) = unsafe { (*attributes.add(k), *data.add(k)) };
                if out.is_null() {
                    continue;
                }
                // Memory the driver does not know reads as zeros (memory type 0),
                // as CUDA answers for plain host memory.
                if attribute(d, attr, ptr, out)?.is_none() {
                    let bytes = if matches!(attr, 1 | 3 | 4 | 7 | 11 | 12 | 14 | 17..=20) { 8 } else { 4 };
                    // SAFETY: `out` points at the attribute's value, of `bytes` bytes.
                    unsafe { std::ptr::write_bytes(out.cast::<u8>(), 0, bytes) };
                }
            }
            Ok(())
        })
    }
}
