//! The rest of the runtime that is its driver function: memory pools, stream and
//! event queries and attributes, peers and PCI identities of the one device,
//! managed ranges, libraries and kernel handles, and the asynchronous symbol and
//! peer copies. Each is the driver's, with the kernel named by its host stub where
//! the runtime names it so.

use crate::api::kind_ok;
use crate::error::{self, CudaError};
use crate::register::{self, ready};
use crate::{check, driver_call, out};
use std::ffi::{c_char, c_void};

type P = *mut c_void;

/// Whether `device` is the one device.
fn device(device: i32) -> Result<(), CudaError> {
    if device == 0 { Ok(()) } else { Err(error::INVALID_DEVICE) }
}

/// The device address of `count` bytes at `offset` into the variable whose host
/// shadow is `symbol`.
fn symbol_at(symbol: *const c_void, offset: usize, count: usize) -> Result<u64, CudaError> {
    let (addr, size) = register::variable(symbol as usize)?;
    if offset.checked_add(count).is_none_or(|end| end > size) {
        return Err(error::INVALID_VALUE);
    }
    Ok(addr + offset as u64)
}

crate::rt! {
    fn cudaDeviceEnablePeerAccess(peer_device: i32, flags: u32) {
        ready()?;
        device(peer_device)?;
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        // The one device is not its own peer, as CUDA answers for it.
        Err(error::INVALID_DEVICE)
    }

    fn cudaDeviceDisablePeerAccess(peer_device: i32) {
        ready()?;
        device(peer_device)?;
        Err(error::INVALID_DEVICE)
    }

    fn cudaDeviceGetTexture1DLinearMaxWidth(max_width: *mut usize, fmt: *const c_void, dev: i32) {
        ready()?;
        device(dev)?;
        if fmt.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH's 2^28 texels.
        out(max_width, 1 << 28)
    }

    fn cudaInitDevice(dev: i32, device_flags: u32, flags: u32) {
        let _ = (device_flags, flags);
        device(dev)?;
        ready()
    }

    fn cudaSetValidDevices(device_arr: *mut i32, len: i32) {
        if len < 0 || (len > 0 && device_arr.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        for k in 0..len as usize {
            // SAFETY: the caller passes `len` devices.
            device(unsafe { *device_arr.add(k) })?;
        }
        Ok(())
    }

    fn cudaMemcpyPeer(dst: P, dst_device: i32, src: *const c_void, src_device: i32, count: usize) {
        ready()?;
        device(dst_device)?;
        device(src_device)?;
        check(driver_call!(cuMemcpy(dst as u64 => u64, src as u64 => u64, count => usize)))
    }

    fn cudaMemcpyPeerAsync(dst: P, dst_device: i32, src: *const c_void, src_device: i32, count: usize, stream: P) {
        ready()?;
        device(dst_device)?;
        device(src_device)?;
        check(driver_call!(cuMemcpyAsync(dst as u64 => u64, src as u64 => u64, count => usize, stream => P)))
    }

    fn cudaMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: u32, stream: P) also cudaMemcpyToSymbolAsync_ptsz {
        ready()?;
        kind_ok(kind)?;
        let dst = symbol_at(symbol, offset, count)?;
        check(driver_call!(cuMemcpyAsync(dst => u64, src as u64 => u64, count => usize, stream => P)))
    }

    fn cudaMemcpyFromSymbolAsync(dst: P, symbol: *const c_void, count: usize, offset: usize, kind: u32, stream: P) also cudaMemcpyFromSymbolAsync_ptsz {
        ready()?;
        kind_ok(kind)?;
        let src = symbol_at(symbol, offset, count)?;
        check(driver_call!(cuMemcpyAsync(dst as u64 => u64, src => u64, count => usize, stream => P)))
    }

    fn cudaMallocFromPoolAsync(ptr: *mut P, size: usize, pool: P, stream: P) also cudaMallocFromPoolAsync_ptsz {
        ready()?;
        if ptr.is_null() {
            return Err(error::INVALID_VALUE);
        }
        check(driver_call!(cuMemAllocFromPoolAsync(ptr.cast::<u64>() => *mut u64, size => usize, pool => P, stream => P)))
    }

    fn cudaGetKernel(kernel: *mut P, entry: *const c_void) {
        ready()?;
        out(kernel, register::function(entry as usize)?)
    }

    fn cudaGetFuncBySymbol(function: *mut P, symbol: *const c_void) {
        ready()?;
        out(function, register::function(symbol as usize)?)
    }

    fn cudaFuncGetName(name: *mut *const c_char, func: *const c_void) {
        ready()?;
        let f = register::function(func as usize)?;
        check(driver_call!(cuFuncGetName(name => *mut *const c_char, f => P)))
    }

    fn cudaFuncGetParamCount(func: *const c_void, count: *mut usize) {
        ready()?;
        let f = register::function(func as usize)?;
        check(driver_call!(cuFuncGetParamCount(f => P, count => *mut usize)))
    }

    fn cudaFuncGetParamInfo(func: *const c_void, index: usize, offset: *mut usize, size: *mut usize) {
        ready()?;
        let f = register::function(func as usize)?;
        check(driver_call!(cuFuncGetParamInfo(f => P, index => usize, offset => *mut usize, size => *mut usize)))
    }

    fn cudaKernelSetAttributeForDevice(kernel: P, attr: u32, value: i32, dev: i32) {
        ready()?;
        let attr = crate::api::driver_func_attribute(attr);
        check(driver_call!(cuKernelSetAttribute(attr => u32, value => i32, kernel => P, dev => i32)))
    }

    fn cudaOccupancyAvailableDynamicSMemPerBlock(size: *mut usize, func: *const c_void, num_blocks: i32, block_size: i32) {
        ready()?;
        let f = register::function(func as usize)?;
        check(driver_call!(cuOccupancyAvailableDynamicSMemPerBlock(size => *mut usize, f => P, num_blocks => i32, block_size => i32)))
    }

    fn cudaOccupancyMaxPotentialClusterSize(cluster_size: *mut i32, func: *const c_void, config: *const crate::api::RtLaunchConfig) {
        ready()?;
        let f = register::function(func as usize)?;
        let dc = crate::api::driver_config(config)?;
        check(driver_call!(cuOccupancyMaxPotentialClusterSize(cluster_size => *mut i32, f => P, &dc => *const crate::driver::LaunchConfig)))
    }
}

crate::forward! {
    fn cudaDeviceGetDefaultMemPool(pool: *mut P, device: i32) => cuDeviceGetDefaultMemPool;
    fn cudaDeviceGetMemPool(pool: *mut P, device: i32) => cuDeviceGetMemPool;
    fn cudaDeviceSetMemPool(device: i32, pool: P) => cuDeviceSetMemPool;
    fn cudaMemPoolCreate(pool: *mut P, props: *const c_void) => cuMemPoolCreate;
    fn cudaMemPoolDestroy(pool: P) => cuMemPoolDestroy;
    fn cudaMemPoolSetAttribute(pool: P, attr: u32, value: P) => cuMemPoolSetAttribute;
    fn cudaMemPoolGetAttribute(pool: P, attr: u32, value: P) => cuMemPoolGetAttribute;
    fn cudaMemPoolTrimTo(pool: P, keep: usize) => cuMemPoolTrimTo;
    fn cudaMemPoolSetAccess(pool: P, descs: *const c_void, count: usize) => cuMemPoolSetAccess;
    fn cudaMemPoolGetAccess(flags: *mut u32, pool: P, location: *mut c_void) => cuMemPoolGetAccess;
    fn cudaMemGetDefaultMemPool(pool: *mut P, location: *mut c_void, type_: u32) => cuMemGetDefaultMemPool;
    fn cudaMemGetMemPool(pool: *mut P, location: *mut c_void, type_: u32) => cuMemGetMemPool;
    fn cudaMemSetMemPool(location: *mut c_void, type_: u32, pool: P) => cuMemSetMemPool;
    fn cudaDeviceGetStreamPriorityRange(least: *mut i32, greatest: *mut i32) => cuCtxGetStreamPriorityRange;
    fn cudaStreamGetPriority(stream: P, priority: *mut i32) => cuStreamGetPriority also cudaStreamGetPriority_ptsz;
    fn cudaStreamGetFlags(stream: P, flags: *mut u32) => cuStreamGetFlags also cudaStreamGetFlags_ptsz;
    fn cudaStreamGetId(stream: P, id: *mut u64) => cuStreamGetId also cudaStreamGetId_ptsz;
    fn cudaStreamGetDevice(stream: P, device: *mut i32) => cuStreamGetDevice also cudaStreamGetDevice_ptsz;
    fn cudaStreamGetAttribute(stream: P, attr: u32, value: *mut c_void) => cuStreamGetAttribute also cudaStreamGetAttribute_ptsz;
    fn cudaStreamSetAttribute(stream: P, attr: u32, value: *const c_void) => cuStreamSetAttribute also cudaStreamSetAttribute_ptsz;
    fn cudaStreamCopyAttributes(dst: P, src: P) => cuStreamCopyAttributes also cudaStreamCopyAttributes_ptsz;
    fn cudaStreamAttachMemAsync(stream: P, dev_ptr: P, length: usize, flags: u32) => cuStreamAttachMemAsync also cudaStreamAttachMemAsync_ptsz;
    fn cudaLaunchHostFunc_v2(stream: P, func: Option<unsafe extern "C" fn(P)>, data: P, sync_mode: u32) => cuLaunchHostFunc_v2 also cudaLaunchHostFunc_v2_ptsz;
    fn cudaEventRecordWithFlags(event: P, stream: P, flags: u32) => cuEventRecordWithFlags also cudaEventRecordWithFlags_ptsz;
    fn cudaDeviceCanAccessPeer(can_access: *mut i32, device: i32, peer: i32) => cuDeviceCanAccessPeer;
    fn cudaDeviceGetP2PAttribute(value: *mut i32, attr: u32, src: i32, dst: i32) => cuDeviceGetP2PAttribute;
    fn cudaDeviceGetPCIBusId(id: *mut c_char, len: i32, device: i32) => cuDeviceGetPCIBusId;
    fn cudaDeviceGetByPCIBusId(device: *mut i32, id: *const c_char) => cuDeviceGetByPCIBusId;
    fn cudaDeviceFlushGPUDirectRDMAWrites(target: u32, scope: u32) => cuFlushGPUDirectRDMAWrites;
    fn cudaDeviceGetCacheConfig(config: *mut u32) => cuCtxGetCacheConfig;
    fn cudaDeviceSetCacheConfig(config: u32) => cuCtxSetCacheConfig;
    fn cudaCtxResetPersistingL2Cache() => cuCtxResetPersistingL2Cache;
    fn cudaHostGetFlags(flags: *mut u32, host: P) => cuMemHostGetFlags;
    fn cudaMemRangeGetAttribute(data: P, size: usize, attr: u32, dev_ptr: *const c_void, count: usize) => cuMemRangeGetAttribute;
    fn cudaMemRangeGetAttributes(data: *mut P, sizes: *mut usize, attrs: *mut u32, n: usize, dev_ptr: *const c_void, count: usize) => cuMemRangeGetAttributes;
    fn cudaLibraryLoadData(library: *mut P, code: *const c_void, jit_options: *mut u32, jit_values: *mut P, num_jit: u32, lib_options: *mut u32, lib_values: *mut P, num_lib: u32) => cuLibraryLoadData;
    fn cudaLibraryLoadFromFile(library: *mut P, file: *const c_char, jit_options: *mut u32, jit_values: *mut P, num_jit: u32, lib_options: *mut u32, lib_values: *mut P, num_lib: u32) => cuLibraryLoadFromFile;
    fn cudaLibraryUnload(library: P) => cuLibraryUnload;
    fn cudaLibraryGetKernel(kernel: *mut P, library: P, name: *const c_char) => cuLibraryGetKernel;
    fn cudaLibraryGetKernelCount(count: *mut u32, library: P) => cuLibraryGetKernelCount;
    fn cudaLibraryEnumerateKernels(kernels: *mut P, n: u32, library: P) => cuLibraryEnumerateKernels;
    fn cudaLibraryGetGlobal(dptr: *mut P, bytes: *mut usize, library: P, name: *const c_char) => cuLibraryGetGlobal;
}
