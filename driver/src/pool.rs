//! Stream-ordered allocation and memory pools. Work runs when it is enqueued, so an
//! allocation "on a stream" is ready when the call returns and a free on a stream
//! frees at once; a pool keeps its attributes and counts what its allocations hold
//! (`USED_MEM_CURRENT`, `_HIGH`), and reserves no more than that.

use crate::error;
use crate::memory;
use crate::state::{self, Driver, MemKind, Pool};
use crate::types::{CUdevice, CUdeviceptr, CUresult, Handle};
use std::ffi::c_void;

/// A `CUmemLocation` of `CUmemAllocationType` `type_` that names the device.
fn device_location(location: *const crate::advise::MemLocation, type_: u32) -> Result<(), CUresult> {
    if location.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUmemLocation*`.
    let loc = unsafe { *location };
    // CU_MEM_ALLOCATION_TYPE_PINNED (1) on CU_MEM_LOCATION_TYPE_DEVICE (1).
    if type_ != 1 || loc.type_ != 1 {
        return Err(crate::fail(
            error::NOT_SUPPORTED,
            "pools of host or managed memory: ptxvm's pools are the device's",
        ));
    }
    crate::device::check(loc.id)
}

/// The device's default pool, made on first use.
fn default_pool(d: &mut Driver) -> u64 {
    if d.default_pool == 0 {
        let p = d.handle();
        d.pools.insert(p, Pool::default());
        d.default_pool = p;
    }
    if d.current_pool == 0 {
        d.current_pool = d.default_pool;
    }
    d.default_pool
}

fn pool(d: &mut Driver, p: Handle) -> Result<&mut Pool, CUresult> {
    d.pools
        .get_mut(&(p as u64))
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{p:?} is not a memory pool")))
}

/// Allocates `bytes` from pool `p` on `stream`.
fn alloc_from(dptr: *mut CUdeviceptr, bytes: usize, p: u64, stream: Handle) -> Result<(), CUresult> {
    if dptr.is_null() || bytes == 0 {
        return Err(error::INVALID_VALUE);
    }
    memory::check_stream(stream)?;
    let addr = state::with(|d| {
        let max = pool(d, p as Handle)?.max_size;
        let used = d.pools[&p].used;
        if max != 0 && used.saturating_add(bytes as u64) > max {
            return Err(crate::fail(
                error::OUT_OF_MEMORY,
                format!("the pool holds {used} of its {max} bytes"),
            ));
        }
        let addr = memory::alloc(d, bytes, MemKind::Device, "cuMemAllocAsync")?;
        if let Some(a) = d.allocs.get_mut(&addr) {
            a.pool = p;
        }
        let pl = pool(d, p as Handle)?;
        pl.used += bytes as u64;
        pl.used_high = pl.used_high.max(pl.used);
        // While the stream captures, the allocation belongs to its graph.
        if crate::graph::capture::capturing(d, stream as u64) {
            d.hold(&[addr]);
            let node = crate::graph::Work::MemAlloc { addr, bytes };
            if let Err(e) = crate::graph::capture::append(d, stream as u64, node) {
                // No graph took it: the allocation goes, and no address leaks.
                d.release(&[addr]);
                return Err(e);
            }
        }
        Ok(addr)
    })?;
    crate::out(dptr, addr)
}

/// Writes attribute `attr` of pool `p` to `value` (an int or a cuuint64_t).
fn get(p: &Pool, attr: u32, value: *mut c_void) -> Result<(), CUresult> {
    let int = |v: i32| crate::out(value.cast::<i32>(), v);
    let u64_ = |v: u64| crate::out(value.cast::<u64>(), v);
    match attr {
        1..=3 => int(p.reuse[attr as usize - 1]),
        4 => u64_(p.release_threshold),
        5 | 7 => u64_(p.used),
        6 | 8 => u64_(p.used_high),
        9 => int(1),  // CU_MEM_ALLOCATION_TYPE_PINNED
        10 => int(0), // no shareable handle types
        11 => int(0), // device 0
        12 => int(1), // CU_MEM_LOCATION_TYPE_DEVICE
        13 => u64_(p.max_size),
        _ => Err(crate::fail(error::INVALID_VALUE, format!("unknown memory pool attribute {attr}"))),
    }
}

fn set(p: &mut Pool, attr: u32, value: *mut c_void) -> Result<(), CUresult> {
    if value.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: `value` points at the attribute's type: an int for 1 to 3, a
    // cuuint64_t for 4, 6 and 8 (cuda.h).
    unsafe {
        match attr {
            1..=3 => p.reuse[attr as usize - 1] = *value.cast::<i32>(),
            4 => p.release_threshold = *value.cast::<u64>(),
            // Only 0 may be set: it resets the high-water mark to the current use.
            6 | 8 if *value.cast::<u64>() == 0 => p.used_high = p.used,
            _ => {
                return Err(crate::fail(
                    error::INVALID_VALUE,
                    format!("memory pool attribute {attr} cannot be set so"),
                ));
            }
        }
    }
    Ok(())
}

crate::api! {
    fn cuDeviceGetDefaultMemPool(pool_out: *mut Handle, dev: CUdevice) {
        crate::device::check(dev)?;
        let p = state::with(|d| Ok(default_pool(d)))?;
        crate::out(pool_out, p as Handle)
    }

    fn cuDeviceGetMemPool(pool_out: *mut Handle, dev: CUdevice) {
        crate::device::check(dev)?;
        let p = state::with(|d| {
            default_pool(d);
            Ok(d.current_pool)
        })?;
        crate::out(pool_out, p as Handle)
    }

    fn cuDeviceSetMemPool(dev: CUdevice, mem_pool: Handle) {
        crate::device::check(dev)?;
        state::with(|d| {
            pool(d, mem_pool)?;
            d.current_pool = mem_pool as u64;
            Ok(())
        })
    }

    fn cuMemGetDefaultMemPool(pool_out: *mut Handle, location: *const crate::advise::MemLocation, type_: u32) {
        device_location(location, type_)?;
        let p = state::with(|d| Ok(default_pool(d)))?;
        crate::out(pool_out, p as Handle)
    }

    fn cuMemGetMemPool(pool_out: *mut Handle, location: *mut crate::advise::MemLocation, type_: u32) {
        device_location(location, type_)?;
        let p = state::with(|d| {
            default_pool(d);
            Ok(d.current_pool)
        })?;
        crate::out(pool_out, p as Handle)
    }

    fn cuMemSetMemPool(location: *mut crate::advise::MemLocation, type_: u32, pool_: Handle) {
        device_location(location, type_)?;
        state::with(|d| {
            pool(d, pool_)?;
            d.current_pool = pool_ as u64;
            Ok(())
        })
    }

    fn cuMemPoolSetAccess(pool_: Handle, map: *const [u32; 3], count: usize) {
        if count > 0 && map.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // CUmemAccessDesc: a location (type, id) and the flags. The one device and
        // the host reach every pool's memory; only the location is checked.
        for k in 0..count {
            // SAFETY: the caller passes `count` descriptors.
            let [type_, id, flags] = unsafe { *map.add(k) };
            if type_ != 1 || id != 0 || flags > 3 {
                return Err(crate::fail(error::INVALID_DEVICE, format!("access for location ({type_}, {id}): the pool is device 0's, the one device")));
            }
        }
        state::with(|d| pool(d, pool_).map(|_| ()))
    }

    fn cuMemPoolGetAccess(flags: *mut u32, mem_pool: Handle, location: *mut crate::advise::MemLocation) {
        if location.is_null() {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| pool(d, mem_pool).map(|_| ()))?;
        // CU_MEM_ACCESS_FLAGS_PROT_READWRITE from the device that owns the pool.
        crate::out(flags, 3)
    }

    fn cuMemPoolCreate(pool_out: *mut Handle, pool_props: *const c_void) {
        if pool_out.is_null() || pool_props.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // CUmemPoolProps: allocType (int), handleTypes (int), location (two ints),
        // win32SecurityAttributes (pointer), maxSize (size_t) at byte 24.
        // SAFETY: a non-NULL `CUmemPoolProps*` the caller filled.
        let max_size = unsafe { *pool_props.cast::<u8>().add(24).cast::<usize>() } as u64;
        let p = state::with(|d| {
            let p = d.handle();
            d.pools.insert(p, Pool { max_size, ..Pool::default() });
            Ok(p)
        })?;
        crate::out(pool_out, p as Handle)
    }

    fn cuMemPoolDestroy(mem_pool: Handle) {
        state::with(|d| {
            let p = mem_pool as u64;
            pool(d, mem_pool)?;
            if p == d.default_pool {
                return Err(crate::fail(error::INVALID_VALUE, "the default memory pool cannot be destroyed"));
            }
            // Its allocations stay valid until freed, as in CUDA.
            d.pools.remove(&p);
            if d.current_pool == p {
                d.current_pool = d.default_pool;
            }
            Ok(())
        })
    }

    fn cuMemPoolSetAttribute(mem_pool: Handle, attr: u32, value: *mut c_void) {
        state::with(|d| set(pool(d, mem_pool)?, attr, value))
    }

    fn cuMemPoolGetAttribute(mem_pool: Handle, attr: u32, value: *mut c_void) {
        state::with(|d| get(pool(d, mem_pool)?, attr, value))
    }

    fn cuMemPoolTrimTo(mem_pool: Handle, min_bytes_to_keep: usize) {
        // A pool reserves only what its allocations hold: nothing to give back.
        let _ = min_bytes_to_keep;
        state::with(|d| pool(d, mem_pool).map(|_| ()))
    }

    fn cuMemAllocAsync(dptr: *mut CUdeviceptr, bytesize: usize, h_stream: Handle) also cuMemAllocAsync_ptsz {
        let p = state::with(|d| {
            default_pool(d);
            Ok(d.current_pool)
        })?;
        alloc_from(dptr, bytesize, p, h_stream)
    }

    fn cuMemAllocFromPoolAsync(dptr: *mut CUdeviceptr, bytesize: usize, mem_pool: Handle, h_stream: Handle) also cuMemAllocFromPoolAsync_ptsz {
        alloc_from(dptr, bytesize, mem_pool as u64, h_stream)
    }

    fn cuMemFreeAsync(dptr: CUdeviceptr, h_stream: Handle) also cuMemFreeAsync_ptsz {
        memory::check_stream(h_stream)?;
        // While the stream captures, the free is a node of its graph.
        let captured = state::with(|d| {
            if !crate::graph::capture::capturing(d, h_stream as u64) {
                return Ok(false);
            }
            if !d.allocs.contains_key(&dptr) {
                return Err(crate::fail(error::INVALID_VALUE, format!("0x{dptr:x} is not the start of an allocation")));
            }
            crate::graph::capture::append(d, h_stream as u64, crate::graph::Work::MemFree(dptr)).map(|_| true)
        })?;
        if captured { Ok(()) } else { memory::free_device(dptr) }
    }
}
