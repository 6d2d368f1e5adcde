//! Virtual memory management: address ranges reserved from the operating system
//! (`mmap` with no access), physical allocations, and mappings of one onto the
//! other. A mapping's bytes live at its address, so host code and kernels reach
//! them there once `cuMemSetAccess` grants access (kernels before that fault, as on a
//! GPU). A physical allocation keeps its bytes across an unmap and a later map;
//! mapping one allocation at two addresses at once is not supported.

use crate::error;
use crate::state::{self, Driver};
use crate::types::{CUdeviceptr, CUresult};
use std::collections::{BTreeMap, HashMap};
use std::ffi::c_void;

/// The granularity of reservations, allocations and mappings (an H100's: 2 MiB).
pub const GRANULARITY: usize = 2 << 20;

struct Physical {
    size: usize,
    /// Its bytes while it is not mapped (none yet: zeros).
    saved: Option<Vec<u8>>,
    mapped_at: Option<u64>,
    /// Released while mapped: freed when unmapped.
    released: bool,
}

struct Mapping {
    size: usize,
    handle: u64,
    /// Lent to kernels (after `cuMemSetAccess`).
    accessible: bool,
}

#[derive(Default)]
pub struct Vmm {
    /// Reserved ranges: base to size.
    reserved: BTreeMap<u64, usize>,
    physical: HashMap<u64, Physical>,
    mappings: BTreeMap<u64, Mapping>,
}

fn bad(why: impl std::fmt::Display) -> CUresult {
    crate::fail(error::INVALID_VALUE, why)
}

fn granular(size: usize, what: &str) -> Result<(), CUresult> {
    if size == 0 || !size.is_multiple_of(GRANULARITY) {
        return Err(bad(format!("{what} {size} is not a multiple of the granularity, {GRANULARITY} bytes")));
    }
    Ok(())
}

/// Sets the access of `len` bytes at `addr` (`libc::PROT_*`).
fn protect(addr: u64, len: usize, prot: i32) -> Result<(), CUresult> {
    // SAFETY: `addr..addr + len` lies in a range this module reserved with mmap.
    let r = unsafe { libc::mprotect(addr as usize as *mut c_void, len, prot) };
    if r == 0 { Ok(()) } else { Err(crate::fail(error::OUT_OF_MEMORY, std::io::Error::last_os_error())) }
}

fn reserve(d: &mut Driver, size: usize, alignment: usize) -> Result<u64, CUresult> {
    granular(size, "the size")?;
    let align = alignment.max(GRANULARITY);
    if !align.is_power_of_two() {
        return Err(bad(format!("alignment {alignment} is not a power of two")));
    }
    let span = size.checked_add(align).ok_or_else(|| bad("the size is too large"))?;
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
    // SAFETY: a new anonymous mapping with no access; nothing else refers to it.
    let raw = unsafe { libc::mmap(std::ptr::null_mut(), span, libc::PROT_NONE, flags, -1, 0) };
    if raw == libc::MAP_FAILED {
        return Err(crate::fail(
            error::OUT_OF_MEMORY,
            format!("cannot reserve {size} bytes: {}", std::io::Error::last_os_error()),
        ));
    }
    let start = raw as usize;
    let base = start.next_multiple_of(align);
    // SAFETY: the parts before `base` and after `base + size` are this mapping's own,
    // which nothing uses.
    unsafe {
        if base > start {
            libc::munmap(raw, base - start);
        }
        libc::munmap((base + size) as *mut c_void, start + span - base - size);
    }
    d.vmm.reserved.insert(base as u64, size);
    Ok(base as u64)
}

/// The reservation that holds `addr..addr + size`.
fn reserved_range(v: &Vmm, addr: u64, size: usize) -> Result<(), CUresult> {
    match v.reserved.range(..=addr).next_back() {
        Some((&b, &n)) if end(addr, size)? <= b + n as u64 => Ok(()),
        _ => Err(bad(format!("0x{addr:x} ({size} bytes) is not inside a reserved range"))),
    }
}

fn map(d: &mut Driver, ptr: u64, size: usize, offset: usize, handle: u64) -> Result<(), CUresult> {
    granular(size, "the size")?;
    if offset != 0 {
        return Err(bad("the offset into the allocation must be 0"));
    }
    reserved_range(&d.vmm, ptr, size)?;
    let overlaps =
        d.vmm.mappings.range(..end(ptr, size)?).next_back().is_some_and(|(&b, m)| b + m.size as u64 > ptr);
    if overlaps {
        return Err(bad(format!("0x{ptr:x} ({size} bytes) overlaps a mapping")));
    }
    let p = d.vmm.physical.get_mut(&handle).ok_or_else(|| {
        crate::fail(error::INVALID_HANDLE, format!("0x{handle:x} is not a physical allocation"))
    })?;
    if size > p.size {
        return Err(bad(format!("a mapping of {size} bytes of an allocation of {}", p.size)));
    }
    if let Some(at) = p.mapped_at {
        return Err(crate::fail(
            error::NOT_SUPPORTED,
            format!(
                "the allocation is mapped at 0x{at:x} already; ptxvm maps an allocation at one address at a time"
            ),
        ));
    }
    protect(ptr, size, libc::PROT_READ | libc::PROT_WRITE)?;
    if let Some(saved) = p.saved.take() {
        // SAFETY: `ptr..ptr + size` was just made writable; `saved` holds the bytes
        // of the allocation, at least `size`.
        unsafe {
            std::ptr::copy_nonoverlapping(saved.as_ptr(), ptr as usize as *mut u8, size.min(saved.len()))
        };
    }
    p.mapped_at = Some(ptr);
    d.vmm.mappings.insert(ptr, Mapping { size, handle, accessible: false });
    Ok(())
}

/// The end of `ptr..ptr + size`.
fn end(ptr: u64, size: usize) -> Result<u64, CUresult> {
    ptr.checked_add(size as u64)
        .ok_or_else(|| bad(format!("0x{ptr:x} + {size} bytes is past the address space")))
}

fn unmap(d: &mut Driver, ptr: u64, size: usize) -> Result<(), CUresult> {
    let inside: Vec<u64> = d.vmm.mappings.range(ptr..end(ptr, size)?).map(|(&b, _)| b).collect();
    if inside.is_empty() {
        return Err(bad(format!("nothing is mapped at 0x{ptr:x} ({size} bytes)")));
    }
    for base in inside {
        let m = d.vmm.mappings.remove(&base).expect("listed above");
        if m.accessible {
            let _ = d.device.take_back(base);
        }
        if let Some(p) = d.vmm.physical.get_mut(&m.handle) {
            p.mapped_at = None;
            if p.released {
                d.vmm.physical.remove(&m.handle);
            } else {
                let mut saved = vec![0u8; m.size];
                // SAFETY: the mapping's bytes are readable until the mprotect below.
                unsafe {
                    std::ptr::copy_nonoverlapping(base as usize as *const u8, saved.as_mut_ptr(), m.size)
                };
                p.saved = Some(saved);
            }
        }
        // SAFETY: the range is this module's reservation; its pages are dropped.
        unsafe { libc::madvise(base as usize as *mut c_void, m.size, libc::MADV_DONTNEED) };
        protect(base, m.size, libc::PROT_NONE)?;
    }
    Ok(())
}

crate::api! {
    fn cuMemGetAllocationGranularity(granularity: *mut usize, prop: *const c_void, option: u32) {
        if prop.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let _ = option;
        crate::out(granularity, GRANULARITY)
    }

    fn cuMemAddressReserve(ptr: *mut CUdeviceptr, size: usize, alignment: usize, addr: CUdeviceptr, flags: u64) {
        // The address hint is a hint; flags are reserved.
        let _ = (addr, flags);
        let base = state::with(|d| reserve(d, size, alignment))?;
        crate::out(ptr, base)
    }

    fn cuMemAddressFree(ptr: CUdeviceptr, size: usize) {
        state::with(|d| {
            if d.vmm.reserved.get(&ptr) != Some(&size) {
                return Err(bad(format!("0x{ptr:x} ({size} bytes) is not a reserved range")));
            }
            if d.vmm.mappings.range(ptr..end(ptr, size)?).next().is_some() {
                return Err(bad("unmap the range before freeing it"));
            }
            d.vmm.reserved.remove(&ptr);
            // SAFETY: the whole reservation, which nothing maps any more.
            unsafe { libc::munmap(ptr as usize as *mut c_void, size) };
            Ok(())
        })
    }

    fn cuMemCreate(handle: *mut u64, size: usize, prop: *const c_void, flags: u64) {
        if prop.is_null() || flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        granular(size, "the size")?;
        let h = state::with(|d| {
            d.ctx()?;
            let h = d.handle();
            d.vmm.physical.insert(h, Physical { size, saved: None, mapped_at: None, released: false });
            Ok(h)
        })?;
        crate::out(handle, h)
    }

    fn cuMemRelease(handle: u64) {
        state::with(|d| {
            let p = d.vmm.physical.get_mut(&handle).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("0x{handle:x} is not a physical allocation")))?;
            if p.mapped_at.is_some() {
                p.released = true;
            } else {
                d.vmm.physical.remove(&handle);
            }
            Ok(())
        })
    }

    fn cuMemMap(ptr: CUdeviceptr, size: usize, offset: usize, handle: u64, flags: u64) {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| map(d, ptr, size, offset, handle))
    }

    fn cuMemUnmap(ptr: CUdeviceptr, size: usize) {
        state::with(|d| unmap(d, ptr, size))
    }

    fn cuMemSetAccess(ptr: CUdeviceptr, size: usize, desc: *const c_void, count: usize) {
        if desc.is_null() || count == 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            let inside: Vec<(u64, usize, bool)> =
                d.vmm.mappings.range(ptr..end(ptr, size)?).map(|(&b, m)| (b, m.size, m.accessible)).collect();
            if inside.is_empty() {
                return Err(bad(format!("nothing is mapped at 0x{ptr:x} ({size} bytes)")));
            }
            for (base, len, accessible) in inside {
                if !accessible {
                    // SAFETY: the mapping's bytes stay mapped until cuMemUnmap, which
                    // takes them back first.
                    unsafe { d.device.lend(base, len as u64) }.map_err(bad)?;
                    d.device.label(base, "a cuMemMap mapping");
                    if let Some(m) = d.vmm.mappings.get_mut(&base) {
                        m.accessible = true;
                    }
                }
            }
            Ok(())
        })
    }

    fn cuMemGetAccess(flags: *mut u64, location: *const c_void, ptr: CUdeviceptr) {
        let _ = location;
        let access = state::with(|d| {
            let m = d.vmm.mappings.range(..=ptr).next_back().filter(|(b, m)| ptr < **b + m.size as u64);
            Ok(m.is_some_and(|(_, m)| m.accessible))
        })?;
        // CU_MEM_ACCESS_FLAGS_PROT_READWRITE or _NONE.
        crate::out(flags, if access { 3 } else { 0 })
    }
}
