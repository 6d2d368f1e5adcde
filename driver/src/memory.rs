//! Memory: device, page-locked host, managed and registered host memory, copies in
//! every direction and fills. With unified addressing a device pointer is the host
//! address of its bytes, so host code reads managed and mapped memory in place, and
//! `cuMemcpy` tells the direction from the addresses. Kernels still reach only the
//! allocations and registered ranges (a fault names the allocation).

use crate::error;
use crate::graph::Work;
use crate::state::{self, Alloc, Driver, MemKind};
use crate::types::{
    CUdeviceptr, CUresult, MEMORYTYPE_ARRAY, MEMORYTYPE_DEVICE, MEMORYTYPE_HOST, MEMORYTYPE_UNIFIED,
    Memcpy2D, Memcpy3D,
};
use std::ffi::c_void;

/// Pitch alignment of `cuMemAllocPitch` (an H100's texture pitch alignment rounds
/// rows up to 512 bytes).
const PITCH_ALIGN: usize = 512;

const HOST_ALLOC_DEVICEMAP: u32 = 0x02;

/// Allocates `bytes` of `kind` in the current context.
pub(crate) fn alloc(
    d: &mut Driver,
    bytes: usize,
    kind: MemKind,
    label: &str,
) -> Result<CUdeviceptr, CUresult> {
    let c = d.ctx()?;
    let available = crate::device::available_memory();
    if bytes as u64 > available {
        let why = format!("{bytes} bytes asked, the machine has {available} available");
        return Err(crate::fail(error::OUT_OF_MEMORY, why));
    }
    let addr = d
        .device
        .alloc(bytes as u64)
        .map_err(|e| crate::fail(error::OUT_OF_MEMORY, format!("{bytes} bytes: {e}")))?;
    d.device.label(addr, format!("a {label} allocation"));
    d.allocs.insert(addr, Alloc { ctx: c, kind, bytes: bytes as u64, pool: 0 });
    Ok(addr)
}

/// The allocation (or registered range) holding `addr`: its base and what it is.
/// Every entry is filed under the base of its device range (a registered range's
/// is the word that holds its first byte); a module's variables have none.
pub fn find(d: &Driver, addr: u64) -> Option<(u64, &Alloc)> {
    let base = d.device.range(addr)?.base;
    d.allocs.get(&base).map(|a| (base, a))
}

/// Checks that `len` bytes at `addr` are device-reachable memory (device, managed,
/// mapped host or a module's variables).
fn device_range(d: &Driver, addr: u64, len: usize, what: &str) -> Result<(), CUresult> {
    // A copy of nothing touches nothing: any address, NULL too, as on CUDA.
    if len == 0 {
        return Ok(());
    }
    let end = addr.checked_add(len as u64);
    let r = d.device.range(addr).filter(|r| end.is_some_and(|e| e <= r.base + r.bytes.max(1)));
    match r {
        Some(_) => Ok(()),
        None if addr == 0 => Err(crate::fail(error::INVALID_VALUE, format!("the {what} is NULL"))),
        None if d.device.was_freed(addr) => {
            let why = format!("the {what} 0x{addr:x} is in memory that was freed");
            Err(crate::fail(error::INVALID_VALUE, why))
        }
        None => {
            let why = format!(
                "the {what} 0x{addr:x} ({len} bytes) is not inside an allocation (freed, or never allocated)"
            );
            Err(crate::fail(error::INVALID_VALUE, why))
        }
    }
}

/// The host bytes at `p`.
fn host<'a>(p: *const c_void, len: usize) -> Result<&'a [u8], CUresult> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(crate::fail(error::INVALID_VALUE, "the host pointer is NULL"));
    }
    if len > isize::MAX as usize {
        return Err(crate::fail(error::INVALID_VALUE, format!("{len} bytes is more than any memory")));
    }
    // SAFETY: the caller passes `len` readable bytes at the non-NULL host pointer `p`
    // (the contract of the copy functions; the crate's documentation).
    Ok(unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) })
}

/// The host bytes at `p`, writable.
fn host_mut<'a>(p: *mut c_void, len: usize) -> Result<&'a mut [u8], CUresult> {
    if len == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(crate::fail(error::INVALID_VALUE, "the host pointer is NULL"));
    }
    if len > isize::MAX as usize {
        return Err(crate::fail(error::INVALID_VALUE, format!("{len} bytes is more than any memory")));
    }
    // SAFETY: the caller passes `len` writable bytes at the non-NULL host pointer `p`,
    // not aliased by any Rust reference.
    Ok(unsafe { std::slice::from_raw_parts_mut(p.cast::<u8>(), len) })
}

fn fault(e: ptxvm::exec::memory::MemFault) -> CUresult {
    crate::fail(error::INVALID_VALUE, e)
}

fn htod(dst: CUdeviceptr, src: *const c_void, n: usize) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        device_range(d, dst, n, "destination")?;
        d.device.copy_to_device(dst, host(src, n)?).map_err(fault)
    })
}

fn dtoh(dst: *mut c_void, src: CUdeviceptr, n: usize) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        device_range(d, src, n, "source")?;
        d.device.copy_from_device(src, host_mut(dst, n)?).map_err(fault)
    })
}

fn dtod(dst: CUdeviceptr, src: CUdeviceptr, n: usize) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        device_range(d, dst, n, "destination")?;
        device_range(d, src, n, "source")?;
        d.device.copy(dst, src, n as u64).map_err(fault)
    })
}

/// `cuMemcpy`: the direction from the addresses (unified addressing). An address in
/// device memory, or in device memory freed lately, is a device address (so a copy
/// past an allocation's end, or into freed memory, is refused); any other is the
/// program's own host memory.
pub(crate) fn any(dst: u64, src: u64, n: usize) -> Result<(), CUresult> {
    let (on_dst, on_src) = state::with(|d| {
        d.ctx()?;
        let on = |a: u64| d.device.range(a).is_some() || d.device.was_freed(a);
        Ok((on(dst), on(src)))
    })?;
    match (on_dst, on_src) {
        (true, true) => dtod(dst, src, n),
        (true, false) => htod(dst, src as usize as *const c_void, n),
        (false, true) => dtoh(dst as usize as *mut c_void, src, n),
        (false, false) => {
            let from = host(src as usize as *const c_void, n)?;
            let to = host_mut(dst as usize as *mut c_void, n)?;
            // Host to host: the program's own memory both sides (may overlap).
            // SAFETY: both ranges are valid for `n` bytes (checked non-NULL above);
            // `copy` allows overlap.
            unsafe { std::ptr::copy(from.as_ptr(), to.as_mut_ptr(), n) };
            Ok(())
        }
    }
}

fn fill(dst: CUdeviceptr, pattern: &[u8], count: usize) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        let bytes = count
            .checked_mul(pattern.len())
            .ok_or_else(|| crate::fail(error::INVALID_VALUE, "the size overflows"))?;
        // A fill of nothing touches nothing, NULL included, as on CUDA.
        if bytes == 0 {
            return Ok(());
        }
        device_range(d, dst, bytes, "destination")?;
        if !dst.is_multiple_of(pattern.len() as u64) {
            let why = format!("0x{dst:x} is not aligned to the {}-byte value", pattern.len());
            return Err(crate::fail(error::INVALID_VALUE, why));
        }
        d.device.fill(dst, pattern, count as u64).map_err(fault)
    })
}

/// A 2D fill: `height` rows of `width` values, `pitch` bytes apart.
pub(crate) fn fill_2d(
    dst: CUdeviceptr,
    pitch: usize,
    pattern: &[u8],
    width: usize,
    height: usize,
) -> Result<(), CUresult> {
    let overflow = || crate::fail(error::INVALID_VALUE, "the fill's extent overflows");
    let row_bytes = width.checked_mul(pattern.len()).ok_or_else(overflow)?;
    if height > 1 && pitch < row_bytes {
        return Err(crate::fail(error::INVALID_VALUE, "the pitch is narrower than a row"));
    }
    for row in 0..height {
        let at = row.checked_mul(pitch).and_then(|o| dst.checked_add(o as u64)).ok_or_else(overflow)?;
        fill(at, pattern, width)?;
    }
    Ok(())
}

/// One side of a 2D copy: where row `y` starts, on the host or on the device (an
/// array side was made a device side by [`resolve_arrays`]).
fn side(
    kind: u32,
    (host, device): (u64, u64),
    x: usize,
    y: usize,
    pitch: usize,
) -> Result<(bool, u64), CUresult> {
    let at = |base: u64| {
        let offset = y.checked_mul(pitch).and_then(|o| o.checked_add(x));
        offset
            .and_then(|o| base.checked_add(o as u64))
            .ok_or_else(|| crate::fail(error::INVALID_VALUE, "the copy's extent overflows"))
    };
    match kind {
        MEMORYTYPE_HOST => Ok((false, at(host)?)),
        MEMORYTYPE_DEVICE => Ok((true, at(device)?)),
        // Unified: the device pointer is the address; its range tells where it lives.
        MEMORYTYPE_UNIFIED => {
            let a = at(device)?;
            Ok((state::with(|d| Ok(d.device.range(a).is_some() || d.device.was_freed(a)))?, a))
        }
        _ => Err(crate::fail(error::INVALID_VALUE, format!("memory type {kind} is not one of CUmemorytype"))),
    }
}

/// The caller's `CUDA_MEMCPY2D`.
fn memcpy2d(p: *const Memcpy2D) -> Result<Memcpy2D, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_MEMCPY2D*`, which the caller fills.
    Ok(unsafe { *p })
}

/// The caller's `CUDA_MEMCPY3D`.
fn memcpy3d(p: *const Memcpy3D) -> Result<Memcpy3D, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_MEMCPY3D*`, which the caller fills.
    Ok(unsafe { *p })
}

/// A 3D copy: a 2D copy per slice.
pub(crate) fn copy_3d(m: &Memcpy3D) -> Result<(), CUresult> {
    if m.src_lod != 0 || m.dst_lod != 0 {
        return Err(crate::fail(error::INVALID_VALUE, "srcLOD and dstLOD must be 0"));
    }
    if m.depth > 1
        && (m.src_height < m.height && m.src_memory_type != MEMORYTYPE_ARRAY
            || m.dst_height < m.height && m.dst_memory_type != MEMORYTYPE_ARRAY)
    {
        return Err(crate::fail(error::INVALID_VALUE, "a srcHeight or dstHeight is less than Height"));
    }
    // An array's slices are as high as the array.
    let mut m = *m;
    if m.src_memory_type == MEMORYTYPE_ARRAY {
        m.src_height = state::with(|d| crate::array::get(d, m.src_array))?.height();
    }
    if m.dst_memory_type == MEMORYTYPE_ARRAY {
        m.dst_height = state::with(|d| crate::array::get(d, m.dst_array))?.height();
    }
    let slices =
        m.slices().ok_or_else(|| crate::fail(error::INVALID_VALUE, "the copy's extent overflows"))?;
    // The last slice first: a copy past an array's slices copies nothing.
    if let Some(last) = slices.last() {
        resolve_arrays(last)?;
    }
    slices.iter().try_for_each(copy_2d)
}

/// The device memory of an array side of a copy: its texels' address at row `y`,
/// byte `x`, and its row pitch. The copy must stay inside the array (`width` bytes
/// of each of `height` rows, in its rows, slices and layers), else nothing is copied.
fn array_side(
    array: crate::types::Handle,
    x: usize,
    y: usize,
    width: usize,
    height: usize,
) -> Result<(u64, usize), CUresult> {
    let a = state::with(|d| crate::array::get(d, array))?;
    let rows = a.height() * a.depth();
    let fits = x.checked_add(width).is_some_and(|end| end <= a.row())
        && y.checked_add(height).is_some_and(|end| end <= rows);
    if !fits {
        let last = y.saturating_add(height.saturating_sub(1));
        let why = format!(
            "the copy reaches past the array: {width} bytes at byte {x} of row {last}, of {rows} rows of {} bytes",
            a.row()
        );
        return Err(crate::fail(error::INVALID_VALUE, why));
    }
    Ok((a.data + (y * a.row() + x) as u64, a.row()))
}

/// `m` with each array side made the device memory it is, checked whole first.
fn resolve_arrays(m: &Memcpy2D) -> Result<Memcpy2D, CUresult> {
    let mut m = *m;
    if m.src_memory_type == MEMORYTYPE_ARRAY {
        (m.src_device, m.src_pitch) =
            array_side(m.src_array, m.src_x_in_bytes, m.src_y, m.width_in_bytes, m.height)?;
        (m.src_memory_type, m.src_x_in_bytes, m.src_y) = (MEMORYTYPE_DEVICE, 0, 0);
    }
    if m.dst_memory_type == MEMORYTYPE_ARRAY {
        (m.dst_device, m.dst_pitch) =
            array_side(m.dst_array, m.dst_x_in_bytes, m.dst_y, m.width_in_bytes, m.height)?;
        (m.dst_memory_type, m.dst_x_in_bytes, m.dst_y) = (MEMORYTYPE_DEVICE, 0, 0);
    }
    Ok(m)
}

pub(crate) fn copy_2d(m: &Memcpy2D) -> Result<(), CUresult> {
    if m.height > 1
        && (m.src_pitch < m.width_in_bytes && m.src_memory_type != MEMORYTYPE_ARRAY
            || m.dst_pitch < m.width_in_bytes && m.dst_memory_type != MEMORYTYPE_ARRAY)
    {
        return Err(crate::fail(error::INVALID_VALUE, "a pitch is narrower than WidthInBytes"));
    }
    let overflow = || crate::fail(error::INVALID_VALUE, "the copy's extent overflows");
    let m = &resolve_arrays(m)?;
    for y in 0..m.height {
        let (sy, dy) =
            (m.src_y.checked_add(y).ok_or_else(overflow)?, m.dst_y.checked_add(y).ok_or_else(overflow)?);
        let n = m.width_in_bytes;
        let (s_dev, s) =
            side(m.src_memory_type, (m.src_host as u64, m.src_device), m.src_x_in_bytes, sy, m.src_pitch)?;
        let (d_dev, t) =
            side(m.dst_memory_type, (m.dst_host as u64, m.dst_device), m.dst_x_in_bytes, dy, m.dst_pitch)?;
        match (d_dev, s_dev) {
            (true, true) => dtod(t, s, n)?,
            (true, false) => htod(t, s as usize as *const c_void, n)?,
            (false, true) => dtoh(t as usize as *mut c_void, s, n)?,
            (false, false) => any(t, s, n)?,
        }
    }
    Ok(())
}

pub(crate) fn check_stream(stream: crate::types::Handle) -> Result<(), CUresult> {
    state::with(|d| d.check_stream(stream as u64))
}

/// Frees device or managed memory at `dptr` (`cuMemFree`, `cuMemFreeAsync`).
pub(crate) fn free_device(dptr: CUdeviceptr) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        match d.allocs.get(&dptr).map(|a| a.kind) {
            // A graph's allocation outlives a free outside the graph: the graph
            // owns its address for every launch, and frees it when destroyed.
            Some(MemKind::Device | MemKind::Managed) if d.graph_allocs.contains_key(&dptr) => Ok(()),
            Some(MemKind::Device | MemKind::Managed) => {
                d.free(dptr);
                Ok(())
            }
            Some(_) => Err(crate::fail(
                error::INVALID_VALUE,
                format!("0x{dptr:x} is host memory: free it with cuMemFreeHost"),
            )),
            None => Err(crate::fail(
                error::INVALID_VALUE,
                format!("0x{dptr:x} is not the start of an allocation (freed already, or never allocated)"),
            )),
        }
    })
}

/// Whether `stream` is capturing into a graph (its work is then recorded).
fn capturing(stream: crate::types::Handle) -> Result<bool, CUresult> {
    state::with(|d| {
        d.check_stream(stream as u64)?;
        Ok(crate::graph::capture::capturing(d, stream as u64))
    })
}

fn submit(stream: crate::types::Handle, work: Work) -> Result<(), CUresult> {
    crate::graph::submit(stream as u64, work)
}

crate::api! {
    fn cuMemAlloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) {
        if dptr.is_null() || bytesize == 0 {
            return Err(error::INVALID_VALUE);
        }
        let addr = state::with(|d| alloc(d, bytesize, MemKind::Device, "cuMemAlloc"))?;
        crate::out(dptr, addr)
    }

    fn cuMemAllocPitch_v2(dptr: *mut CUdeviceptr, pitch: *mut usize, width: usize, height: usize, element_size: u32) {
        if dptr.is_null() || pitch.is_null() || width == 0 || height == 0 || ![4, 8, 16].contains(&element_size) {
            return Err(error::INVALID_VALUE);
        }
        let row = width.div_ceil(PITCH_ALIGN) * PITCH_ALIGN;
        let bytes = row.checked_mul(height).ok_or(error::INVALID_VALUE)?;
        let addr = state::with(|d| alloc(d, bytes, MemKind::Device, "cuMemAllocPitch"))?;
        crate::out(pitch, row)?;
        crate::out(dptr, addr)
    }

    fn cuMemFree_v2(dptr: CUdeviceptr) {
        if dptr == 0 {
            return Ok(());
        }
        free_device(dptr)
    }

    fn cuMemAllocHost_v2(pp: *mut *mut c_void, bytesize: usize) {
        if pp.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let addr = state::with(|d| alloc(d, bytesize.max(1), MemKind::Host(HOST_ALLOC_DEVICEMAP), "cuMemAllocHost"))?;
        crate::out(pp, addr as usize as *mut c_void)
    }

    fn cuMemHostAlloc(pp: *mut *mut c_void, bytesize: usize, flags: u32) {
        if pp.is_null() || flags & !0x7 != 0 {
            return Err(error::INVALID_VALUE);
        }
        // With unified addressing every page-locked allocation is mapped.
        let addr = state::with(|d| alloc(d, bytesize.max(1), MemKind::Host(flags | HOST_ALLOC_DEVICEMAP), "cuMemHostAlloc"))?;
        crate::out(pp, addr as usize as *mut c_void)
    }

    fn cuMemHostGetDevicePointer_v2(pdptr: *mut CUdeviceptr, p: *mut c_void, flags: u32) {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            d.ctx()?;
            match find(d, p as u64) {
                Some((_, a)) if matches!(a.kind, MemKind::Host(_) | MemKind::Registered(_)) => Ok(()),
                _ => Err(crate::fail(error::INVALID_VALUE, format!("{p:?} is not page-locked host memory"))),
            }
        })?;
        crate::out(pdptr, p as u64)
    }

    fn cuMemFreeHost(p: *mut c_void) {
        state::with(|d| {
            d.ctx()?;
            match d.allocs.get(&(p as u64)).map(|a| a.kind) {
                Some(MemKind::Host(_)) => {
                    d.free(p as u64);
                    Ok(())
                }
                _ => Err(crate::fail(error::INVALID_VALUE, format!("{p:?} is not from cuMemAllocHost or cuMemHostAlloc"))),
            }
        })
    }

    fn cuMemHostRegister_v2(p: *mut c_void, bytesize: usize, flags: u32) {
        if p.is_null() || bytesize == 0 || flags & !0xf != 0 {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            let c = d.ctx()?;
            // SAFETY: the program lends `bytesize` bytes at `p` until it unregisters
            // them (cuMemHostRegister's contract); ptxvm touches them only through
            // the device's atomic words meanwhile.
            let base = unsafe { d.device.lend(p as u64, bytesize as u64) }
                .map_err(|e| crate::fail(error::HOST_MEMORY_ALREADY_REGISTERED, e))?;
            d.device.label(base, "registered host memory");
            d.allocs.insert(base, Alloc { ctx: c, kind: MemKind::Registered(flags), bytes: bytesize as u64, pool: 0 });
            Ok(())
        })
    }

    fn cuMemHostUnregister(p: *mut c_void) {
        state::with(|d| {
            d.ctx()?;
            let base = p as u64 & !7;
            match d.allocs.get(&base).map(|a| a.kind) {
                Some(MemKind::Registered(_)) => {
                    d.free(base);
                    Ok(())
                }
                _ => Err(crate::fail(error::HOST_MEMORY_NOT_REGISTERED, format!("{p:?} was not registered"))),
            }
        })
    }

    fn cuMemAllocManaged(dptr: *mut CUdeviceptr, bytesize: usize, flags: u32) {
        if dptr.is_null() || bytesize == 0 || !(flags == 1 || flags == 2) {
            return Err(error::INVALID_VALUE);
        }
        let addr = state::with(|d| alloc(d, bytesize, MemKind::Managed, "cuMemAllocManaged"))?;
        crate::out(dptr, addr)
    }

    fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) {
        state::with(|d| d.ctx().map(|_| ()))?;
        crate::out(free, crate::device::available_memory() as usize)?;
        crate::out(total, crate::device::total_memory() as usize)
    }

    fn cuMemGetAddressRange_v2(pbase: *mut CUdeviceptr, psize: *mut usize, dptr: CUdeviceptr) {
        let r = state::with(|d| {
            d.ctx()?;
            let r = d.device.range(dptr);
            r.ok_or_else(|| crate::fail(error::NOT_FOUND, format!("0x{dptr:x} is not inside an allocation")))
        })?;
        if !pbase.is_null() {
            crate::out(pbase, r.base)?;
        }
        if !psize.is_null() {
            crate::out(psize, r.bytes as usize)?;
        }
        Ok(())
    }

    fn cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize) also cuMemcpy_ptds {
        crate::printf::flush();
        any(dst, src, byte_count)
    }

    fn cuMemcpyAsync(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize, stream: crate::types::Handle) also cuMemcpyAsync_ptsz {
        submit(stream, Work::Copy { dst, src, bytes: byte_count })
    }

    fn cuMemcpyHtoD_v2(dst: CUdeviceptr, src: *const c_void, byte_count: usize) also cuMemcpyHtoD_v2_ptds {
        crate::printf::flush();
        htod(dst, src, byte_count)
    }

    fn cuMemcpyDtoH_v2(dst: *mut c_void, src: CUdeviceptr, byte_count: usize) also cuMemcpyDtoH_v2_ptds {
        crate::printf::flush();
        dtoh(dst, src, byte_count)
    }

    fn cuMemcpyDtoD_v2(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize) also cuMemcpyDtoD_v2_ptds {
        crate::printf::flush();
        dtod(dst, src, byte_count)
    }

    fn cuMemcpyHtoDAsync_v2(dst: CUdeviceptr, src: *const c_void, byte_count: usize, stream: crate::types::Handle) also cuMemcpyHtoDAsync_v2_ptsz {
        if capturing(stream)? {
            return submit(stream, Work::Copy { dst, src: src as u64, bytes: byte_count });
        }
        htod(dst, src, byte_count)
    }

    fn cuMemcpyDtoHAsync_v2(dst: *mut c_void, src: CUdeviceptr, byte_count: usize, stream: crate::types::Handle) also cuMemcpyDtoHAsync_v2_ptsz {
        if capturing(stream)? {
            return submit(stream, Work::Copy { dst: dst as u64, src, bytes: byte_count });
        }
        dtoh(dst, src, byte_count)
    }

    fn cuMemcpyDtoDAsync_v2(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize, stream: crate::types::Handle) also cuMemcpyDtoDAsync_v2_ptsz {
        if capturing(stream)? {
            return submit(stream, Work::Copy { dst, src, bytes: byte_count });
        }
        dtod(dst, src, byte_count)
    }

    fn cuMemcpy2D_v2(copy: *const Memcpy2D) also cuMemcpy2D_v2_ptds {
        crate::printf::flush();
        copy_2d(&memcpy2d(copy)?)
    }

    fn cuMemcpy2DUnaligned_v2(copy: *const Memcpy2D) also cuMemcpy2DUnaligned_v2_ptds {
        crate::printf::flush();
        copy_2d(&memcpy2d(copy)?)
    }

    fn cuMemcpy2DAsync_v2(copy: *const Memcpy2D, stream: crate::types::Handle) also cuMemcpy2DAsync_v2_ptsz {
        submit(stream, Work::Copy2D(memcpy2d(copy)?))
    }

    fn cuMemcpy3D_v2(copy: *const Memcpy3D) also cuMemcpy3D_v2_ptds {
        crate::printf::flush();
        copy_3d(&memcpy3d(copy)?)
    }

    fn cuMemcpy3DAsync_v2(copy: *const Memcpy3D, stream: crate::types::Handle) also cuMemcpy3DAsync_v2_ptsz {
        submit(stream, Work::Copy3D(memcpy3d(copy)?))
    }

    fn cuMemsetD8_v2(dst: CUdeviceptr, uc: u8, n: usize) also cuMemsetD8_v2_ptds {
        fill(dst, &[uc], n)
    }

    fn cuMemsetD16_v2(dst: CUdeviceptr, us: u16, n: usize) also cuMemsetD16_v2_ptds {
        fill(dst, &us.to_le_bytes(), n)
    }

    fn cuMemsetD32_v2(dst: CUdeviceptr, ui: u32, n: usize) also cuMemsetD32_v2_ptds {
        fill(dst, &ui.to_le_bytes(), n)
    }

    fn cuMemsetD8Async(dst: CUdeviceptr, uc: u8, n: usize, stream: crate::types::Handle) also cuMemsetD8Async_ptsz {
        submit(stream, Work::Fill { dst, pitch: 0, pattern: vec![uc], width: n, height: 1 })
    }

    fn cuMemsetD16Async(dst: CUdeviceptr, us: u16, n: usize, stream: crate::types::Handle) also cuMemsetD16Async_ptsz {
        submit(stream, Work::Fill { dst, pitch: 0, pattern: us.to_le_bytes().to_vec(), width: n, height: 1 })
    }

    fn cuMemsetD32Async(dst: CUdeviceptr, ui: u32, n: usize, stream: crate::types::Handle) also cuMemsetD32Async_ptsz {
        submit(stream, Work::Fill { dst, pitch: 0, pattern: ui.to_le_bytes().to_vec(), width: n, height: 1 })
    }

    fn cuMemsetD2D8_v2(dst: CUdeviceptr, pitch: usize, uc: u8, width: usize, height: usize) also cuMemsetD2D8_v2_ptds {
        fill_2d(dst, pitch, &[uc], width, height)
    }

    fn cuMemsetD2D16_v2(dst: CUdeviceptr, pitch: usize, us: u16, width: usize, height: usize) also cuMemsetD2D16_v2_ptds {
        fill_2d(dst, pitch, &us.to_le_bytes(), width, height)
    }

    fn cuMemsetD2D32_v2(dst: CUdeviceptr, pitch: usize, ui: u32, width: usize, height: usize) also cuMemsetD2D32_v2_ptds {
        fill_2d(dst, pitch, &ui.to_le_bytes(), width, height)
    }

    fn cuMemsetD2D8Async(dst: CUdeviceptr, pitch: usize, uc: u8, width: usize, height: usize, stream: crate::types::Handle) also cuMemsetD2D8Async_ptsz {
        submit(stream, Work::Fill { dst, pitch, pattern: vec![uc], width, height })
    }

    fn cuMemsetD2D16Async(dst: CUdeviceptr, pitch: usize, us: u16, width: usize, height: usize, stream: crate::types::Handle) also cuMemsetD2D16Async_ptsz {
        submit(stream, Work::Fill { dst, pitch, pattern: us.to_le_bytes().to_vec(), width, height })
    }

    fn cuMemsetD2D32Async(dst: CUdeviceptr, pitch: usize, ui: u32, width: usize, height: usize, stream: crate::types::Handle) also cuMemsetD2D32Async_ptsz {
        submit(stream, Work::Fill { dst, pitch, pattern: ui.to_le_bytes().to_vec(), width, height })
    }

    fn cuMemcpyPeer(dst_device: CUdeviceptr, dst_context: crate::types::Handle, src_device: CUdeviceptr, src_context: crate::types::Handle, byte_count: usize) also cuMemcpyPeer_ptds {
        // Every context is on the one device: a copy within it.
        let _ = (dst_context, src_context);
        crate::printf::flush();
        dtod(dst_device, src_device, byte_count)
    }

    fn cuMemcpyPeerAsync(dst_device: CUdeviceptr, dst_context: crate::types::Handle, src_device: CUdeviceptr, src_context: crate::types::Handle, byte_count: usize, stream: crate::types::Handle) also cuMemcpyPeerAsync_ptsz {
        let _ = (dst_context, src_context);
        submit(stream, Work::Copy { dst: dst_device, src: src_device, bytes: byte_count })
    }

    fn cuMemcpy3DPeer(copy: *const Memcpy3D) also cuMemcpy3DPeer_ptds {
        // CUDA_MEMCPY3D_PEER is CUDA_MEMCPY3D with the contexts where the latter
        // has its reserved fields.
        crate::printf::flush();
        copy_3d(&memcpy3d(copy)?)
    }

    fn cuMemcpy3DPeerAsync(copy: *const Memcpy3D, stream: crate::types::Handle) also cuMemcpy3DPeerAsync_ptsz {
        submit(stream, Work::Copy3D(memcpy3d(copy)?))
    }

    fn cuMemHostGetFlags(flags: *mut u32, p: *mut c_void) {
        let f = state::with(|d| match find(d, p as u64) {
            Some((_, a)) => match a.kind {
                MemKind::Host(f) | MemKind::Registered(f) => Ok(f),
                _ => Err(crate::fail(error::INVALID_VALUE, format!("{p:?} is not page-locked host memory"))),
            },
            None => Err(crate::fail(error::INVALID_VALUE, format!("{p:?} is not page-locked host memory"))),
        })?;
        crate::out(flags, f)
    }

    fn cuPointerSetAttribute(value: *const c_void, attribute: u32, ptr: CUdeviceptr) {
        // CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: every memory operation is synchronous.
        if attribute != 6 || value.is_null() {
            return Err(crate::fail(error::INVALID_VALUE, format!("pointer attribute {attribute} cannot be set")));
        }
        state::with(|d| {
            d.device.range(ptr).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("0x{ptr:x} is not memory the driver knows")))
        })
    }

}
