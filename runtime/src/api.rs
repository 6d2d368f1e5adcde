//! The runtime API programs call, each a translation to the driver (device,
//! memory, copies and fills, symbols, launches, streams, events, errors). Work runs
//! when it is enqueued, as in the driver.

use crate::array;
use crate::driver as cu;
use crate::error::{self, CudaError};
use crate::register::{self, Dim3, ready};
use crate::{check, out};
use std::ffi::{c_char, c_void};

type P = *mut c_void;

/// `cudaMemcpyKind`: host-to-host 0 to default 4 (unified addressing tells the
/// direction from the addresses, so each kind copies the same way).
pub(crate) fn kind_ok(kind: u32) -> Result<(), CudaError> {
    if kind <= 4 { Ok(()) } else { Err(error::INVALID_MEMCPY_DIRECTION) }
}

fn launch(
    host: P,
    grid: Dim3,
    block: Dim3,
    args: *mut P,
    shared: usize,
    stream: P,
    cooperative: bool,
) -> Result<(), CudaError> {
    ready()?;
    let f = register::function(host as usize)?;
    let shared = u32::try_from(shared).map_err(|_| error::INVALID_VALUE)?;
    let (g, b) = (grid, block);
    let r = if cooperative {
        cu::cuLaunchCooperativeKernel(f, g.x, g.y, g.z, b.x, b.y, b.z, shared, stream, args)
    } else {
        cu::cuLaunchKernel(f, g.x, g.y, g.z, b.x, b.y, b.z, shared, stream, args, std::ptr::null_mut())
    };
    launch_result(r, g, b)
}

/// A launch's error as the runtime gives it: a shape past the device's limits is
/// `cudaErrorInvalidConfiguration` ("invalid configuration argument"), where the
/// driver says `CUDA_ERROR_INVALID_VALUE` (and why, on stderr).
fn launch_result(r: u32, grid: Dim3, block: Dim3) -> Result<(), CudaError> {
    let dim = |d: Dim3| ptxvm::launch::Dim3 { x: d.x, y: d.y, z: d.z };
    match r {
        0 => Ok(()),
        _ if !ptxvm::launch::shape_fits(dim(grid), dim(block)) => Err(error::INVALID_CONFIGURATION),
        _ => check(r),
    }
}

/// Resident CTAs of `func` per SM (`cudaOccupancyMaxActiveBlocksPerMultiprocessor`).
fn occupancy(
    num_blocks: *mut i32,
    func: P,
    block_size: i32,
    dynamic_smem: usize,
    flags: u32,
) -> Result<(), CudaError> {
    ready()?;
    let f = register::function(func as usize)?;
    check(cu::cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        num_blocks,
        f,
        block_size,
        dynamic_smem,
        flags,
    ))
}

/// `struct cudaFuncAttributes` (144 bytes in the 13.x headers): three sizes, the
/// ints CUB's dispatch reads, then cluster fields and reserved space, all 0 here.
#[repr(C)]
pub struct FuncAttributes {
    pub shared_size_bytes: usize,
    pub const_size_bytes: usize,
    pub local_size_bytes: usize,
    pub max_threads_per_block: i32,
    pub num_regs: i32,
    pub ptx_version: i32,
    pub binary_version: i32,
    pub cache_mode_ca: i32,
    pub max_dynamic_shared_size_bytes: i32,
    pub preferred_shmem_carveout: i32,
    pub rest: [i32; 23],
}

/// `struct cudaMemLocation`: a type and an id (8 bytes), passed by value.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MemLocation {
    pub kind: i32,
    pub id: i32,
}

/// `struct cudaPointerAttributes` (88 bytes in the 13.x headers).
#[repr(C)]
pub struct PointerAttributes {
    pub kind: u32,
    pub device: i32,
    pub device_pointer: P,
    pub host_pointer: P,
    /// `localityDomainOrdinal` (an int, -1: not localized) in a union with a long.
    pub locality: i64,
    pub reserved: [i64; 7],
}

/// What `cudaPointerGetAttributes` says of `ptr` (CUDA 13's struct; CUDA 12's is
/// its first 24 bytes).
pub(crate) fn pointer_attributes(ptr: *const c_void) -> Result<PointerAttributes, CudaError> {
    ready()?;
    let (mut kind, mut managed) = (0u32, 0u32);
    let known = cu::cuPointerGetAttribute((&raw mut kind).cast(), 2, ptr as u64) == 0;
    if known {
        check(cu::cuPointerGetAttribute((&raw mut managed).cast(), 8, ptr as u64))?;
    }
    let p = ptr as usize as P;
    // cudaMemoryType: unregistered 0, host 1, device 2, managed 3.
    let (kind, device, dev, host) = match (known, kind, managed) {
        (false, ..) => (0, -2, std::ptr::null_mut(), p),
        (true, _, 1) => (3, 0, p, p),
        (true, 1, _) => (1, 0, p, p),
        (true, ..) => (2, 0, p, std::ptr::null_mut()),
    };
    let locality = i64::from(u32::MAX);
    Ok(PointerAttributes {
        kind,
        device,
        device_pointer: dev,
        host_pointer: host,
        locality,
        reserved: [0; 7],
    })
}

/// `cudaLaunchConfig_t`.
#[repr(C)]
pub struct RtLaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_smem_bytes: usize,
    pub stream: P,
    pub attrs: P,
    pub num_attrs: u32,
}

/// `struct cudaPitchedPtr`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct PitchedPtr {
    pub ptr: P,
    pub pitch: usize,
    pub xsize: usize,
    pub ysize: usize,
}

/// `struct cudaExtent`: a width (in bytes, for linear memory), height and depth.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Extent {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
}

/// `struct cudaPos`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Pos {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

/// `struct cudaMemcpy3DParms`.
#[repr(C)]
pub struct Memcpy3DParms {
    pub src_array: P,
    pub src_pos: Pos,
    pub src_ptr: PitchedPtr,
    pub dst_array: P,
    pub dst_pos: Pos,
    pub dst_ptr: PitchedPtr,
    pub extent: Extent,
    pub kind: u32,
}

/// The driver's `CUDA_MEMCPY3D` for the caller's `cudaMemcpy3DParms`: pitched
/// memory anywhere (`CU_MEMORYTYPE_UNIFIED`, as [`copy_2d`]) or CUDA arrays. With
/// an array on either side, the extent's width and an array's x position count
/// texels, as CUDA defines them; otherwise bytes.
pub(crate) fn copy_3d(p: *const Memcpy3DParms) -> Result<cu::Memcpy3D, CudaError> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `cudaMemcpy3DParms*`, which the caller fills.
    let p = unsafe { &*p };
    kind_ok(p.kind)?;
    let (st, dt) = (array::texel_bytes(p.src_array)?, array::texel_bytes(p.dst_array)?);
    // With an array in the copy, extents and both positions count its elements, a
    // pointer side's too (as NVIDIA's runtime converts them); bytes otherwise.
    let unit = st.max(dt).max(1);
    let (src_x, dst_x) = (p.src_pos.x * unit, p.dst_pos.x * unit);
    Ok(cu::Memcpy3D {
        src_x_in_bytes: src_x,
        src_y: p.src_pos.y,
        src_z: p.src_pos.z,
        src_memory_type: array::memory_type(p.src_array),
        src_device: p.src_ptr.ptr as u64,
        src_array: p.src_array as usize,
        src_pitch: p.src_ptr.pitch,
        src_height: p.src_ptr.ysize,
        dst_x_in_bytes: dst_x,
        dst_y: p.dst_pos.y,
        dst_z: p.dst_pos.z,
        dst_memory_type: array::memory_type(p.dst_array),
        dst_device: p.dst_ptr.ptr as u64,
        dst_array: p.dst_array as usize,
        dst_pitch: p.dst_ptr.pitch,
        dst_height: p.dst_ptr.ysize,
        width_in_bytes: p.extent.width * unit,
        height: p.extent.height,
        depth: p.extent.depth,
        ..Default::default()
    })
}

/// `cudaMemset3D`: `value` into each of `extent.depth` slices of `pitched`, on
/// `stream` when there is one.
fn set_3d(pitched: PitchedPtr, value: i32, extent: Extent, stream: Option<P>) -> Result<(), CudaError> {
    ready()?;
    if extent.width > pitched.pitch || (extent.depth > 1 && extent.height > pitched.ysize) {
        return Err(crate::fail(
            error::INVALID_VALUE,
            "cudaMemset3D: the extent is larger than the pitched allocation",
        ));
    }
    let slice = pitched.pitch.checked_mul(pitched.ysize).ok_or(error::INVALID_VALUE)?;
    for z in 0..extent.depth {
        let at = (pitched.ptr as u64).wrapping_add((z as u64).wrapping_mul(slice as u64));
        let (w, h, v) = (extent.width, extent.height, value as u8);
        check(match stream {
            Some(s) => cu::cuMemsetD2D8Async(at, pitched.pitch, v, w, h, s),
            None => cu::cuMemsetD2D8_v2(at, pitched.pitch, v, w, h),
        })?;
    }
    Ok(())
}

/// A 2D copy between any two places: with unified addressing each side's address
/// tells the driver where it is (`CU_MEMORYTYPE_UNIFIED`).
fn copy_2d(
    dst: P,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
) -> cu::Memcpy2D {
    cu::Memcpy2D {
        src_memory_type: 4,
        src_device: src as u64,
        src_pitch: spitch,
        dst_memory_type: 4,
        dst_device: dst as u64,
        dst_pitch: dpitch,
        width_in_bytes: width,
        height,
        ..Default::default()
    }
}

fn static_str(s: &'static str) -> *const c_char {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static std::ffi::CStr>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    let c = cache
        .entry(s)
        .or_insert_with(|| Box::leak(std::ffi::CString::new(s).unwrap_or_default().into_boxed_c_str()));
    c.as_ptr()
}

/// `cudaGetDriverEntryPoint(ByVersion)`: the driver's `cuGetProcAddress_v2`, whose
/// flags and status values are the runtime's. A function the driver lacks is no
/// error: `*func` is NULL and `*status` says why (CUDA's documentation).
fn entry_point(
    symbol: *const std::ffi::c_char,
    func: *mut P,
    version: i32,
    flags: u64,
    status: *mut i32,
) -> Result<(), CudaError> {
    ready()?;
    if symbol.is_null() || func.is_null() || flags > 2 {
        return Err(error::INVALID_VALUE);
    }
    let mut found = 0i32;
    match cu::cuGetProcAddress_v2(symbol, func, version, flags, &mut found) {
        // Older drivers answer CUDA_ERROR_NOT_FOUND: `*func` is NULL and `found`
        // says why all the same.
        0 | 500 => {}
        code => return check(code),
    }
    if !status.is_null() {
        out(status, found)?;
    }
    Ok(())
}

/// The driver's `CUlaunchConfig` for the runtime's `cudaLaunchConfig_t`.
pub(crate) fn driver_config(config: *const RtLaunchConfig) -> Result<cu::LaunchConfig, CudaError> {
    if config.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `cudaLaunchConfig_t*` the caller filled.
    let c = unsafe { &*config };
    Ok(cu::LaunchConfig {
        grid: [c.grid.x, c.grid.y, c.grid.z],
        block: [c.block.x, c.block.y, c.block.z],
        shared_mem_bytes: u32::try_from(c.dynamic_smem_bytes).map_err(|_| error::INVALID_VALUE)?,
        stream: c.stream,
        attrs: c.attrs,
        num_attrs: c.num_attrs,
    })
}

crate::rt! {
    fn cudaLaunchKernel(func: P, grid_dim: Dim3, block_dim: Dim3, args: *mut P, shared_mem: usize, stream: P) also cudaLaunchKernel_ptsz {
        launch(func, grid_dim, block_dim, args, shared_mem, stream, false)
    }

    fn __cudaLaunchKernel(kernel: P, grid_dim: Dim3, block_dim: Dim3, args: *mut P, shared_mem: usize, stream: P) also __cudaLaunchKernel_ptsz {
        launch(kernel, grid_dim, block_dim, args, shared_mem, stream, false)
    }

    fn cudaLaunchKernelExC(config: *const RtLaunchConfig, func: *const c_void, args: *mut P) also cudaLaunchKernelExC_ptsz {
        ready()?;
        if config.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `cudaLaunchConfig_t*` the caller filled.
        let c = unsafe { &*config };
        let f = register::function(func as usize)?;
        let shared = u32::try_from(c.dynamic_smem_bytes).map_err(|_| error::INVALID_VALUE)?;
        // cudaLaunchAttribute and CUlaunchAttribute share their layout and ids.
        let dc = cu::LaunchConfig {
            grid: [c.grid.x, c.grid.y, c.grid.z],
            block: [c.block.x, c.block.y, c.block.z],
            shared_mem_bytes: shared,
            stream: c.stream,
            attrs: c.attrs,
            num_attrs: c.num_attrs,
        };
        launch_result(cu::cuLaunchKernelEx(&dc, f, args, std::ptr::null_mut()), c.grid, c.block)
    }

    fn cudaLaunchCooperativeKernel(func: P, grid_dim: Dim3, block_dim: Dim3, args: *mut P, shared_mem: usize, stream: P) also cudaLaunchCooperativeKernel_ptsz {
        launch(func, grid_dim, block_dim, args, shared_mem, stream, true)
    }

    fn cudaFuncSetAttribute(func: P, attr: u32, value: i32) {
        ready()?;
        check(cu::cuFuncSetAttribute(register::function(func as usize)?, driver_func_attribute(attr), value))
    }

    fn cudaFuncGetAttributes(attr: *mut FuncAttributes, func: *const c_void) {
        ready()?;
        if attr.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let f = register::function(func as usize)?;
        let get = |a: u32| {
            let mut v = 0;
            check(cu::cuFuncGetAttribute(&mut v, a, f)).map(|()| v)
        };
        let a = FuncAttributes {
            shared_size_bytes: get(1)? as usize,
            const_size_bytes: get(2)? as usize,
            local_size_bytes: get(3)? as usize,
            max_threads_per_block: get(0)?,
            num_regs: get(4)?,
            ptx_version: get(5)?,
            binary_version: get(6)?,
            cache_mode_ca: get(7)?,
            max_dynamic_shared_size_bytes: get(8)?,
            preferred_shmem_carveout: get(9)?,
            rest: [0; 23],
        };
        out(attr, a)
    }

    fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks: *mut i32, func: P, block_size: i32, dynamic_smem: usize) {
        occupancy(num_blocks, func, block_size, dynamic_smem, 0)
    }

    fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num_blocks: *mut i32, func: P, block_size: i32, dynamic_smem: usize, flags: u32) {
        occupancy(num_blocks, func, block_size, dynamic_smem, flags)
    }

    fn cudaOccupancyMaxActiveClusters(num_clusters: *mut i32, func: *const c_void, config: *const RtLaunchConfig) {
        ready()?;
        if config.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let f = register::function(func as usize)?;
        let dc = driver_config(config)?;
        check(cu::cuOccupancyMaxActiveClusters(num_clusters, f, &dc))
    }

    fn cudaGetDeviceCount(count: *mut i32) {
        ready()?;
        check(cu::cuDeviceGetCount(count))
    }

    fn cudaGetDevice(device: *mut i32) {
        ready()?;
        out(device, 0)
    }

    fn cudaSetDevice(device: i32) {
        ready()?;
        if device == 0 { Ok(()) } else { Err(error::INVALID_DEVICE) }
    }

    fn cudaDeviceGetAttribute(value: *mut i32, attr: i32, device: i32) {
        ready()?;
        // cudaDeviceAttr numbers are the driver's CUdevice_attribute numbers.
        check(cu::cuDeviceGetAttribute(value, attr, device))
    }

    fn cudaSetDeviceFlags(flags: u32) {
        // Scheduling flags (spin, yield, blocking sync) and host mapping, which is
        // always on with unified addressing.
        ready()?;
        if flags & !0x1f != 0 { Err(error::INVALID_VALUE) } else { Ok(()) }
    }

    fn cudaGetDeviceFlags(flags: *mut u32) {
        ready()?;
        // cudaDeviceMapHost.
        out(flags, 0x08)
    }

    fn cudaChooseDevice(device: *mut i32, prop: *const c_void) {
        ready()?;
        let _ = prop;
        out(device, 0)
    }

    fn cudaFuncSetCacheConfig(func: *const c_void, config: u32) {
        // A preference for the split of L1 and shared memory, which ptxvm has not.
        let _ = config;
        ready()?;
        register::function(func as usize).map(|_| ())
    }

    fn cudaDeviceSynchronize() {
        ready()?;
        check(cu::cuCtxSynchronize())
    }

    fn cudaDeviceReset() {
        ready()?;
        check(cu::cuDevicePrimaryCtxReset_v2(0))?;
        register::forget_modules();
        Ok(())
    }

    fn cudaDeviceSetLimit(limit: u32, value: usize) {
        ready()?;
        check(cu::cuCtxSetLimit(limit, value))
    }

    fn cudaDeviceGetLimit(value: *mut usize, limit: u32) {
        ready()?;
        check(cu::cuCtxGetLimit(value, limit))
    }

    fn cudaGetDriverEntryPoint(symbol: *const std::ffi::c_char, func: *mut P, flags: u64, status: *mut i32) also cudaGetDriverEntryPoint_ptsz {
        entry_point(symbol, func, 13050, flags, status)
    }

    fn cudaGetDriverEntryPointByVersion(symbol: *const std::ffi::c_char, func: *mut P, version: u32, flags: u64, status: *mut i32) also cudaGetDriverEntryPointByVersion_ptsz {
        entry_point(symbol, func, version as i32, flags, status)
    }

    fn cudaRuntimeGetVersion(version: *mut i32) {
        out(version, 13050)
    }

    fn cudaDriverGetVersion(version: *mut i32) {
        ready()?;
        check(cu::cuDriverGetVersion(version))
    }

    fn cudaMalloc(dev_ptr: *mut P, size: usize) {
        ready()?;
        if dev_ptr.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if size == 0 {
            return out(dev_ptr, std::ptr::null_mut());
        }
        let mut p = 0u64;
        check(cu::cuMemAlloc_v2(&mut p, size))?;
        out(dev_ptr, p as usize as P)
    }

    fn cudaMallocManaged(dev_ptr: *mut P, size: usize, flags: u32) {
        ready()?;
        let mut p = 0u64;
        check(cu::cuMemAllocManaged(&mut p, size, flags))?;
        out(dev_ptr, p as usize as P)
    }

    fn cudaMallocHost(ptr: *mut P, size: usize) {
        ready()?;
        check(cu::cuMemAllocHost_v2(ptr, size))
    }

    fn cudaHostAlloc(ptr: *mut P, size: usize, flags: u32) {
        ready()?;
        check(cu::cuMemHostAlloc(ptr, size, flags))
    }

    fn cudaFreeHost(ptr: P) {
        ready()?;
        check(cu::cuMemFreeHost(ptr))
    }

    fn cudaFree(dev_ptr: P) {
        ready()?;
        check(cu::cuMemFree_v2(dev_ptr as u64))
    }

    fn cudaMemGetInfo(free: *mut usize, total: *mut usize) {
        ready()?;
        check(cu::cuMemGetInfo_v2(free, total))
    }

    fn cudaMemcpy(dst: P, src: *const c_void, count: usize, kind: u32) also cudaMemcpy_ptds {
        ready()?;
        kind_ok(kind)?;
        check(cu::cuMemcpy(dst as u64, src as u64, count))
    }

    fn cudaMemcpyAsync(dst: P, src: *const c_void, count: usize, kind: u32, stream: P) also cudaMemcpyAsync_ptsz {
        ready()?;
        kind_ok(kind)?;
        check(cu::cuMemcpyAsync(dst as u64, src as u64, count, stream))
    }

    fn cudaMemset(dev_ptr: P, value: i32, count: usize) also cudaMemset_ptds {
        ready()?;
        check(cu::cuMemsetD8_v2(dev_ptr as u64, value as u8, count))
    }

    fn cudaMemsetAsync(dev_ptr: P, value: i32, count: usize, stream: P) also cudaMemsetAsync_ptsz {
        ready()?;
        check(cu::cuMemsetD8Async(dev_ptr as u64, value as u8, count, stream))
    }

    fn cudaMallocPitch(dev_ptr: *mut P, pitch: *mut usize, width: usize, height: usize) {
        ready()?;
        let mut p = 0u64;
        // The element size only bounds what the driver accepts; 4 fits every width.
        check(cu::cuMemAllocPitch_v2(&mut p, pitch, width, height, 4))?;
        out(dev_ptr, p as usize as P)
    }

    fn cudaMemcpy2D(dst: P, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: u32) also cudaMemcpy2D_ptds {
        ready()?;
        kind_ok(kind)?;
        check(cu::cuMemcpy2DUnaligned_v2(&copy_2d(dst, dpitch, src, spitch, width, height)))
    }

    fn cudaMemcpy2DAsync(dst: P, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: u32, stream: P) also cudaMemcpy2DAsync_ptsz {
        ready()?;
        kind_ok(kind)?;
        check(cu::cuMemcpy2DAsync_v2(&copy_2d(dst, dpitch, src, spitch, width, height), stream))
    }

    fn cudaMemset2D(dev_ptr: P, pitch: usize, value: i32, width: usize, height: usize) also cudaMemset2D_ptds {
        ready()?;
        check(cu::cuMemsetD2D8_v2(dev_ptr as u64, pitch, value as u8, width, height))
    }

    fn cudaMemset2DAsync(dev_ptr: P, pitch: usize, value: i32, width: usize, height: usize, stream: P) also cudaMemset2DAsync_ptsz {
        ready()?;
        check(cu::cuMemsetD2D8Async(dev_ptr as u64, pitch, value as u8, width, height, stream))
    }

    fn cudaMalloc3D(pitched: *mut PitchedPtr, extent: Extent) {
        ready()?;
        if pitched.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let rows = extent.height.checked_mul(extent.depth.max(1)).ok_or(error::MEMORY_ALLOCATION)?;
        let (mut p, mut pitch) = (0u64, 0usize);
        if extent.width != 0 && rows != 0 {
            check(cu::cuMemAllocPitch_v2(&mut p, &mut pitch, extent.width, rows, 4))?;
        }
        let ptr = PitchedPtr { ptr: p as usize as P, pitch, xsize: extent.width, ysize: extent.height };
        out(pitched, ptr)
    }

    fn cudaMemcpy3D(p: *const Memcpy3DParms) also cudaMemcpy3D_ptds {
        ready()?;
        check(cu::cuMemcpy3D_v2(&copy_3d(p)?))
    }

    fn cudaMemcpy3DAsync(p: *const Memcpy3DParms, stream: P) also cudaMemcpy3DAsync_ptsz {
        ready()?;
        check(cu::cuMemcpy3DAsync_v2(&copy_3d(p)?, stream))
    }

    fn cudaMemset3D(pitched: PitchedPtr, value: i32, extent: Extent) also cudaMemset3D_ptds {
        set_3d(pitched, value, extent, None)
    }

    fn cudaMemset3DAsync(pitched: PitchedPtr, value: i32, extent: Extent, stream: P) also cudaMemset3DAsync_ptsz {
        set_3d(pitched, value, extent, Some(stream))
    }

    fn cudaStreamBeginCapture(stream: P, mode: u32) also cudaStreamBeginCapture_ptsz {
        ready()?;
        check(cu::cuStreamBeginCapture_v2(stream, mode))
    }

    fn cudaStreamEndCapture(stream: P, graph: *mut P) also cudaStreamEndCapture_ptsz {
        ready()?;
        check(cu::cuStreamEndCapture(stream, graph))
    }

    fn cudaGraphInstantiate(exec: *mut P, graph: P, flags: u64) {
        ready()?;
        check(cu::cuGraphInstantiateWithFlags(exec, graph, flags))
    }

    fn cudaGraphInstantiateWithFlags(exec: *mut P, graph: P, flags: u64) {
        // SAFETY: the same arguments, passed on.
        match unsafe { cudaGraphInstantiate(exec, graph, flags) } {
            0 => Ok(()),
            e => Err(e),
        }
    }

    fn cudaGraphLaunch(exec: P, stream: P) also cudaGraphLaunch_ptsz {
        ready()?;
        check(cu::cuGraphLaunch(exec, stream))
    }

    fn cudaGraphDestroy(graph: P) {
        ready()?;
        check(cu::cuGraphDestroy(graph))
    }

    fn cudaGraphExecDestroy(exec: P) {
        ready()?;
        check(cu::cuGraphExecDestroy(exec))
    }

    fn cudaMallocAsync(dev_ptr: *mut P, size: usize, stream: P) also cudaMallocAsync_ptsz {
        ready()?;
        let mut p = 0u64;
        check(cu::cuMemAllocAsync(&mut p, size, stream))?;
        out(dev_ptr, p as usize as P)
    }

    fn cudaFreeAsync(dev_ptr: P, stream: P) also cudaFreeAsync_ptsz {
        ready()?;
        check(cu::cuMemFreeAsync(dev_ptr as u64, stream))
    }

    fn cudaHostRegister(ptr: P, size: usize, flags: u32) {
        ready()?;
        check(cu::cuMemHostRegister_v2(ptr, size, flags))
    }

    fn cudaHostUnregister(ptr: P) {
        ready()?;
        check(cu::cuMemHostUnregister(ptr))
    }

    fn cudaHostGetDevicePointer(p_device: *mut P, p_host: P, flags: u32) {
        ready()?;
        let mut d = 0u64;
        check(cu::cuMemHostGetDevicePointer_v2(&mut d, p_host, flags))?;
        out(p_device, d as usize as P)
    }

    fn cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: u32) also cudaMemcpyToSymbol_ptds {
        ready()?;
        kind_ok(kind)?;
        let (addr, size) = register::variable(symbol as usize)?;
        if offset.checked_add(count).is_none_or(|end| end > size) {
            return Err(error::INVALID_VALUE);
        }
        check(cu::cuMemcpy(addr + offset as u64, src as u64, count))
    }

    fn cudaMemcpyFromSymbol(dst: P, symbol: *const c_void, count: usize, offset: usize, kind: u32) also cudaMemcpyFromSymbol_ptds {
        ready()?;
        kind_ok(kind)?;
        let (addr, size) = register::variable(symbol as usize)?;
        if offset.checked_add(count).is_none_or(|end| end > size) {
            return Err(error::INVALID_VALUE);
        }
        check(cu::cuMemcpy(dst as u64, addr + offset as u64, count))
    }

    fn cudaGetSymbolAddress(dev_ptr: *mut P, symbol: *const c_void) {
        ready()?;
        let (addr, _) = register::variable(symbol as usize)?;
        out(dev_ptr, addr as usize as P)
    }

    fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) {
        ready()?;
        let (_, bytes) = register::variable(symbol as usize)?;
        out(size, bytes)
    }

    fn cudaStreamCreate(stream: *mut P) {
        ready()?;
        check(cu::cuStreamCreate(stream, 0))
    }

    fn cudaStreamCreateWithFlags(stream: *mut P, flags: u32) {
        ready()?;
        check(cu::cuStreamCreate(stream, flags))
    }

    fn cudaStreamCreateWithPriority(stream: *mut P, flags: u32, priority: i32) {
        ready()?;
        check(cu::cuStreamCreateWithPriority(stream, flags, priority))
    }

    fn cudaStreamDestroy(stream: P) {
        ready()?;
        check(cu::cuStreamDestroy_v2(stream))
    }

    fn cudaStreamSynchronize(stream: P) also cudaStreamSynchronize_ptsz {
        ready()?;
        check(cu::cuStreamSynchronize(stream))
    }

    fn cudaStreamQuery(stream: P) also cudaStreamQuery_ptsz {
        ready()?;
        check(cu::cuStreamQuery(stream))
    }

    fn cudaStreamWaitEvent(stream: P, event: P, flags: u32) also cudaStreamWaitEvent_ptsz {
        ready()?;
        check(cu::cuStreamWaitEvent(stream, event, flags))
    }

    fn cudaStreamAddCallback(stream: P, callback: Option<unsafe extern "C" fn(P, u32, P)>, user_data: P, flags: u32) also cudaStreamAddCallback_ptsz {
        ready()?;
        check(cu::cuStreamAddCallback(stream, callback, user_data, flags))
    }

    fn cudaLaunchHostFunc(stream: P, func: Option<unsafe extern "C" fn(P)>, user_data: P) also cudaLaunchHostFunc_ptsz {
        ready()?;
        check(cu::cuLaunchHostFunc(stream, func, user_data))
    }

    fn cudaEventCreate(event: *mut P) {
        ready()?;
        check(cu::cuEventCreate(event, 0))
    }

    fn cudaEventCreateWithFlags(event: *mut P, flags: u32) {
        ready()?;
        check(cu::cuEventCreate(event, flags))
    }

    fn cudaEventRecord(event: P, stream: P) also cudaEventRecord_ptsz {
        ready()?;
        check(cu::cuEventRecord(event, stream))
    }

    fn cudaEventSynchronize(event: P) {
        ready()?;
        check(cu::cuEventSynchronize(event))
    }

    fn cudaEventQuery(event: P) {
        ready()?;
        check(cu::cuEventQuery(event))
    }

    fn cudaEventElapsedTime(ms: *mut f32, start: P, end: P) {
        ready()?;
        check(cu::cuEventElapsedTime_v2(ms, start, end))
    }

    fn cudaEventDestroy(event: P) {
        ready()?;
        check(cu::cuEventDestroy_v2(event))
    }

    fn cudaProfilerStart() {
        Ok(())
    }

    fn cudaProfilerStop() {
        Ok(())
    }
}

/// `cudaGetLastError`: the last error of this thread, cleared.
#[unsafe(no_mangle)]
pub extern "C" fn cudaGetLastError() -> CudaError {
    crate::last_error(true)
}

/// `cudaPeekAtLastError`: the last error of this thread, kept.
#[unsafe(no_mangle)]
pub extern "C" fn cudaPeekAtLastError() -> CudaError {
    crate::last_error(false)
}

/// `cudaGetErrorString`.
#[unsafe(no_mangle)]
pub extern "C" fn cudaGetErrorString(error: CudaError) -> *const c_char {
    static_str(error::description(error).unwrap_or("unrecognized error code"))
}

/// `cudaGetErrorName`.
#[unsafe(no_mangle)]
pub extern "C" fn cudaGetErrorName(error: CudaError) -> *const c_char {
    static_str(error::name(error).unwrap_or("cudaErrorUnknown"))
}

/// The driver's `CUfunction_attribute` for a settable `cudaFuncAttribute`: 8 to 15
/// (dynamic shared memory, carveout, cluster shape and policy) have the same
/// numbers; the runtime's 16, `cudaFuncAttributeSharedMemoryMode`, is the driver's
/// 17 (the driver's 16 is a read-only attribute the runtime has no name for).
pub(crate) fn driver_func_attribute(attr: u32) -> u32 {
    if attr == 16 { 17 } else { attr }
}

#[cfg(test)]
mod tests {
    #[test]
    fn shared_memory_mode_is_the_drivers_17() {
        // driver_types.h 13: cudaFuncAttributeSharedMemoryMode = 16; cuda.h:
        // CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE = 17; 8..=15 agree.
        assert_eq!(super::driver_func_attribute(16), 17);
        assert_eq!(super::driver_func_attribute(8), 8);
        assert_eq!(super::driver_func_attribute(15), 15);
    }

    #[test]
    fn func_attributes_are_laid_out_as_driver_types_h_13() {
        // Measured with offsetof against pip's nvidia-cuda-runtime 13.5 headers.
        assert_eq!(std::mem::size_of::<super::FuncAttributes>(), 144);
        assert_eq!(std::mem::offset_of!(super::FuncAttributes, ptx_version), 32);
        assert_eq!(std::mem::offset_of!(super::FuncAttributes, max_dynamic_shared_size_bytes), 44);
        assert_eq!(std::mem::size_of::<super::RtLaunchConfig>(), 56);
        assert_eq!(std::mem::size_of::<super::PointerAttributes>(), 88);
    }
}
