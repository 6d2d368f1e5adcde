//! Managed memory hints, and the names CUDA 12's headers give functions that CUDA
//! 13 renamed: `cudaMemAdvise_v2`, `cudaGraphGetEdges_v2`, `cudaStreamGetCaptureInfo_v3`
//! and the rest are CUDA 13's `cudaMemAdvise`, `cudaGraphGetEdges`,
//! `cudaStreamGetCaptureInfo`, argument for argument; a program built with CUDA 12's
//! headers against `libcudart.so.12` calls them by those names.

use crate::api::MemLocation;
use std::ffi::c_void;

type P = *mut c_void;

crate::forward! {
    fn cudaMemPrefetchAsync_v2(dev_ptr: *const c_void, count: usize, location: MemLocation, flags: u32, stream: P) => cuMemPrefetchAsync_v2 also cudaMemPrefetchAsync_v2_ptsz;
    fn cudaMemAdvise_v2(dev_ptr: *const c_void, count: usize, advice: u32, location: MemLocation) => cuMemAdvise_v2;
    fn cudaGraphGetEdges_v2(graph: P, from: *mut P, to: *mut P, edge_data: *mut u64, n: *mut usize) => cuGraphGetEdges_v2;
    fn cudaGraphNodeGetDependencies_v2(node: P, deps: *mut P, edge_data: *mut u64, n: *mut usize) => cuGraphNodeGetDependencies_v2;
    fn cudaGraphNodeGetDependentNodes_v2(node: P, nodes: *mut P, edge_data: *mut u64, n: *mut usize) => cuGraphNodeGetDependentNodes_v2;
    fn cudaGraphAddDependencies_v2(graph: P, from: *const P, to: *const P, edge_data: *const u64, n: usize) => cuGraphAddDependencies_v2;
    fn cudaGraphRemoveDependencies_v2(graph: P, from: *const P, to: *const P, edge_data: *const u64, n: usize) => cuGraphRemoveDependencies_v2;
    fn cudaStreamGetCaptureInfo_v3(stream: P, status: *mut u32, id: *mut u64, graph: *mut P, deps: *mut *const P, edge_data: *mut *const u64, n: *mut usize) => cuStreamGetCaptureInfo_v3 also cudaStreamGetCaptureInfo_v3_ptsz;
    fn cudaStreamGetCaptureInfo_v2(stream: P, status: *mut u32, id: *mut u64, graph: *mut P, deps: *mut *const P, n: *mut usize) => cuStreamGetCaptureInfo_v2 also cudaStreamGetCaptureInfo_v2_ptsz;
    fn cudaStreamUpdateCaptureDependencies_v2(stream: P, deps: *mut P, edge_data: *const u64, n: usize, flags: u32) => cuStreamUpdateCaptureDependencies_v2 also cudaStreamUpdateCaptureDependencies_v2_ptsz;
    fn cudaEventElapsedTime_v2(ms: *mut f32, start: P, end: P) => cuEventElapsedTime_v2;
}

/// Runtime functions whose CUDA 12 form takes other arguments than CUDA 13's under
/// the same name: each is defined a second time, at the version `libcudart.so.12`
/// (`.symver`), which a program linked against NVIDIA's CUDA 12 runtime asks for;
/// the loader gives every other request the unversioned CUDA 13 form. The CUDA 12
/// forms take no edge data (every edge is a plain one) and a device ordinal where
/// CUDA 13 takes a location.
macro_rules! cuda12 {
    ($($export:ident = $name:literal: fn($($arg:ident: $ty:ty),*) $body:block)*) => {$(
        crate::rt! {
            fn $export($($arg: $ty),*) $body
        }
        std::arch::global_asm!(concat!(".symver ", stringify!($export), ", ", $name, "@libcudart.so.12"));
    )*};
}

/// The CUDA 13 forms of the same names: defined under a name of ptxvm's and given
/// the default version `libcudart.so.13` (`.symver ...@@`), so that a request at
/// `libcudart.so.12` finds only the CUDA 12 form.
macro_rules! cuda13 {
    ($($export:ident = $name:literal: fn($($arg:ident: $ty:ty),*) => $driver:ident;)*) => {$(
        crate::forward! {
            fn $export($($arg: $ty),*) => $driver;
        }
        std::arch::global_asm!(concat!(".symver ", stringify!($export), ", ", $name, "@@libcudart.so.13"));
    )*};
}

cuda13! {
    cuda13_cudaGraphGetEdges = "cudaGraphGetEdges": fn(graph: P, from: *mut P, to: *mut P, edge_data: *mut u64, n: *mut usize) => cuGraphGetEdges_v2;
    cuda13_cudaGraphNodeGetDependencies = "cudaGraphNodeGetDependencies": fn(node: P, deps: *mut P, edge_data: *mut u64, n: *mut usize) => cuGraphNodeGetDependencies_v2;
    cuda13_cudaGraphNodeGetDependentNodes = "cudaGraphNodeGetDependentNodes": fn(node: P, nodes: *mut P, edge_data: *mut u64, n: *mut usize) => cuGraphNodeGetDependentNodes_v2;
    cuda13_cudaGraphAddDependencies = "cudaGraphAddDependencies": fn(graph: P, from: *const P, to: *const P, edge_data: *const u64, n: usize) => cuGraphAddDependencies_v2;
    cuda13_cudaGraphRemoveDependencies = "cudaGraphRemoveDependencies": fn(graph: P, from: *const P, to: *const P, edge_data: *const u64, n: usize) => cuGraphRemoveDependencies_v2;
    cuda13_cudaStreamGetCaptureInfo = "cudaStreamGetCaptureInfo": fn(stream: P, status: *mut u32, id: *mut u64, graph: *mut P, deps: *mut *const P, edge_data: *mut *const u64, n: *mut usize) => cuStreamGetCaptureInfo_v3;
    cuda13_cudaStreamUpdateCaptureDependencies = "cudaStreamUpdateCaptureDependencies": fn(stream: P, deps: *mut P, edge_data: *const u64, n: usize, flags: u32) => cuStreamUpdateCaptureDependencies_v2;
    cuda13_cudaMemPrefetchAsync = "cudaMemPrefetchAsync": fn(dev_ptr: *const c_void, count: usize, location: MemLocation, flags: u32, stream: P) => cuMemPrefetchAsync_v2;
    cuda13_cudaMemAdvise = "cudaMemAdvise": fn(dev_ptr: *const c_void, count: usize, advice: u32, location: MemLocation) => cuMemAdvise_v2;
    cuda13_cudaMemPrefetchAsync_ptsz = "cudaMemPrefetchAsync_ptsz": fn(dev_ptr: *const c_void, count: usize, location: MemLocation, flags: u32, stream: P) => cuMemPrefetchAsync_v2;
    cuda13_cudaStreamUpdateCaptureDependencies_ptsz = "cudaStreamUpdateCaptureDependencies_ptsz": fn(stream: P, deps: *mut P, edge_data: *const u64, n: usize, flags: u32) => cuStreamUpdateCaptureDependencies_v2;
}

crate::forward! {
    fn cudaStreamGetCaptureInfo_ptsz(stream: P, status: *mut u32, id: *mut u64, graph: *mut P, deps: *mut *const P, edge_data: *mut *const u64, n: *mut usize) => cuStreamGetCaptureInfo_v3;
}

/// A CUDA 12 device ordinal as a `cudaMemLocation` (`cudaCpuDeviceId`, -1, is the host).
fn location(device: i32) -> MemLocation {
    if device == -1 { MemLocation { kind: 2, id: 0 } } else { MemLocation { kind: 1, id: device } }
}

/// Calls the driver once the runtime is ready (its context current, its modules
/// registered): `call` runs only after.
fn driver(call: impl FnOnce() -> u32) -> Result<(), crate::error::CudaError> {
    crate::register::ready()?;
    crate::check(call())
}

cuda12! {
    cuda12_cudaGraphGetEdges = "cudaGraphGetEdges": fn(graph: P, from: *mut P, to: *mut P, n: *mut usize) {
        driver(|| crate::driver_call!(cuGraphGetEdges(graph => P, from => *mut P, to => *mut P, n => *mut usize)))
    }
    cuda12_cudaGraphNodeGetDependencies = "cudaGraphNodeGetDependencies": fn(node: P, deps: *mut P, n: *mut usize) {
        driver(|| crate::driver_call!(cuGraphNodeGetDependencies(node => P, deps => *mut P, n => *mut usize)))
    }
    cuda12_cudaGraphNodeGetDependentNodes = "cudaGraphNodeGetDependentNodes": fn(node: P, nodes: *mut P, n: *mut usize) {
        driver(|| crate::driver_call!(cuGraphNodeGetDependentNodes(node => P, nodes => *mut P, n => *mut usize)))
    }
    cuda12_cudaGraphAddDependencies = "cudaGraphAddDependencies": fn(graph: P, from: *const P, to: *const P, n: usize) {
        driver(|| crate::driver_call!(cuGraphAddDependencies(graph => P, from => *const P, to => *const P, n => usize)))
    }
    cuda12_cudaGraphRemoveDependencies = "cudaGraphRemoveDependencies": fn(graph: P, from: *const P, to: *const P, n: usize) {
        driver(|| crate::driver_call!(cuGraphRemoveDependencies(graph => P, from => *const P, to => *const P, n => usize)))
    }
    cuda12_cudaStreamUpdateCaptureDependencies = "cudaStreamUpdateCaptureDependencies": fn(stream: P, deps: *mut P, n: usize, flags: u32) {
        driver(|| crate::driver_call!(cuStreamUpdateCaptureDependencies(stream => P, deps => *mut P, n => usize, flags => u32)))
    }
    cuda12_cudaStreamUpdateCaptureDependencies_ptsz = "cudaStreamUpdateCaptureDependencies_ptsz": fn(stream: P, deps: *mut P, n: usize, flags: u32) {
        driver(|| crate::driver_call!(cuStreamUpdateCaptureDependencies(stream => P, deps => *mut P, n => usize, flags => u32)))
    }
    cuda12_cudaMemPrefetchAsync_ptsz = "cudaMemPrefetchAsync_ptsz": fn(dev_ptr: *const c_void, count: usize, device: i32, stream: P) {
        let loc = location(device);
        driver(|| crate::driver_call!(cuMemPrefetchAsync_v2(dev_ptr => *const c_void, count => usize, loc => MemLocation, 0 => u32, stream => P)))
    }
    cuda12_cudaStreamGetCaptureInfo = "cudaStreamGetCaptureInfo": fn(stream: P, status: *mut u32, id: *mut u64) {
        driver(|| crate::driver_call!(cuStreamGetCaptureInfo(stream => P, status => *mut u32, id => *mut u64)))
    }
    cuda12_cudaMemPrefetchAsync = "cudaMemPrefetchAsync": fn(dev_ptr: *const c_void, count: usize, device: i32, stream: P) {
        let loc = location(device);
        driver(|| crate::driver_call!(cuMemPrefetchAsync_v2(dev_ptr => *const c_void, count => usize, loc => MemLocation, 0 => u32, stream => P)))
    }
    cuda12_cudaMemAdvise = "cudaMemAdvise": fn(dev_ptr: *const c_void, count: usize, advice: u32, device: i32) {
        let loc = location(device);
        driver(|| crate::driver_call!(cuMemAdvise_v2(dev_ptr => *const c_void, count => usize, advice => u32, loc => MemLocation)))
    }
}

crate::rt! {
    /// `cudaPointerGetAttributes` of CUDA 13: its 88-byte `cudaPointerAttributes`.
    fn cuda13_cudaPointerGetAttributes(attributes: *mut crate::api::PointerAttributes, ptr: *const c_void) {
        crate::out(attributes, crate::api::pointer_attributes(ptr)?)
    }

    /// `cudaPointerGetAttributes` of CUDA 12: the struct's first 24 bytes (type,
    /// device, device and host pointers), all CUDA 12's has.
    fn cuda12_cudaPointerGetAttributes(attributes: *mut c_void, ptr: *const c_void) {
        let a = crate::api::pointer_attributes(ptr)?;
        if attributes.is_null() {
            return Err(crate::error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `cudaPointerAttributes*` of CUDA 12: 24 writable bytes,
        // the first 24 of CUDA 13's struct.
        unsafe { std::ptr::copy_nonoverlapping((&raw const a).cast::<u8>(), attributes.cast::<u8>(), 24) };
        Ok(())
    }
}
std::arch::global_asm!(".symver cuda13_cudaPointerGetAttributes, cudaPointerGetAttributes@@libcudart.so.13");
std::arch::global_asm!(".symver cuda12_cudaPointerGetAttributes, cudaPointerGetAttributes@libcudart.so.12");
/// Names for the list of what is exported (runtime/gen_unsupported.py):
/// cuda13_cudaPointerGetAttributes = "cudaPointerGetAttributes".
const _: () = ();
