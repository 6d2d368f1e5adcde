//! Graphs and stream capture through the runtime: each function is its driver
//! function (handles, node types and edge data are the driver's), but for the
//! parameters the runtime describes its own way: a kernel node names a kernel by
//! its host stub, a copy node by `cudaMemcpy3DParms`, a 1D copy or a symbol's.

use crate::api::{Memcpy3DParms, copy_3d, kind_ok};
use crate::driver::Memcpy3D;
use crate::error::{self, CudaError};
use crate::register::{self, Dim3, ready};
use crate::{check, driver_call};
use std::ffi::c_void;

type P = *mut c_void;

/// `cudaKernelNodeParams`: the host stub (or a `cudaKernel_t`), the shape, and the
/// arguments; `CUDA_KERNEL_NODE_PARAMS`'s first 56 bytes but for the function.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct KernelNodeParams {
    pub func: P,
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_mem_bytes: u32,
    pub kernel_params: *mut P,
    pub extra: *mut P,
}

/// `CUDA_KERNEL_NODE_PARAMS` (v2).
#[repr(C)]
struct DriverKernelParams {
    runtime: KernelNodeParams,
    kern: P,
    ctx: P,
}

/// The driver's kernel node parameters for the runtime's.
fn kernel(p: *const KernelNodeParams) -> Result<DriverKernelParams, CudaError> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `cudaKernelNodeParams*` the caller filled.
    let mut runtime = unsafe { *p };
    runtime.func = register::function(runtime.func as usize)?;
    Ok(DriverKernelParams { runtime, kern: std::ptr::null_mut(), ctx: std::ptr::null_mut() })
}

/// A 1D copy of `count` bytes as the driver's 3D copy (unified addressing: each
/// side's own address says where it lives).
fn copy_1d(dst: u64, src: u64, count: usize, kind: u32) -> Result<Memcpy3D, CudaError> {
    kind_ok(kind)?;
    // CU_MEMORYTYPE_UNIFIED
    Ok(Memcpy3D {
        src_memory_type: 4,
        src_device: src,
        src_pitch: count,
        src_height: 1,
        dst_memory_type: 4,
        dst_device: dst,
        dst_pitch: count,
        dst_height: 1,
        width_in_bytes: count,
        height: 1,
        depth: 1,
        ..Default::default()
    })
}

/// The device address of `offset` bytes into the variable whose host shadow is
/// `symbol`, for `count` bytes.
fn symbol_at(symbol: *const c_void, offset: usize, count: usize) -> Result<u64, CudaError> {
    let (addr, size) = register::variable(symbol as usize)?;
    if offset.checked_add(count).is_none_or(|end| end > size) {
        return Err(crate::fail(
            error::INVALID_VALUE,
            format!("{count} bytes at {offset} run past the {size}-byte symbol"),
        ));
    }
    Ok(addr + offset as u64)
}

fn add_copy(node: *mut P, graph: P, deps: *const P, n: usize, m: &Memcpy3D) -> Result<(), CudaError> {
    ready()?;
    check(
        driver_call!(cuGraphAddMemcpyNode(node => *mut P, graph => P, deps => *const P, n => usize, m => *const Memcpy3D, std::ptr::null_mut() => P)),
    )
}

fn set_copy(node: P, m: &Memcpy3D) -> Result<(), CudaError> {
    ready()?;
    check(driver_call!(cuGraphMemcpyNodeSetParams(node => P, m => *const Memcpy3D)))
}

fn set_exec_copy(exec: P, node: P, m: &Memcpy3D) -> Result<(), CudaError> {
    ready()?;
    check(
        driver_call!(cuGraphExecMemcpyNodeSetParams(exec => P, node => P, m => *const Memcpy3D, std::ptr::null_mut() => P)),
    )
}

crate::rt! {
    fn cudaGraphAddKernelNode(node: *mut P, graph: P, deps: *const P, n: usize, params: *const KernelNodeParams) {
        ready()?;
        let p = kernel(params)?;
        check(driver_call!(cuGraphAddKernelNode_v2(node => *mut P, graph => P, deps => *const P, n => usize, &p => *const DriverKernelParams)))
    }

    fn cudaGraphKernelNodeSetParams(node: P, params: *const KernelNodeParams) {
        ready()?;
        let p = kernel(params)?;
        check(driver_call!(cuGraphKernelNodeSetParams_v2(node => P, &p => *const DriverKernelParams)))
    }

    fn cudaGraphKernelNodeGetParams(node: P, params: *mut KernelNodeParams) {
        ready()?;
        if params.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let mut p = std::mem::MaybeUninit::<DriverKernelParams>::zeroed();
        check(driver_call!(cuGraphKernelNodeGetParams_v2(node => P, p.as_mut_ptr() => *mut DriverKernelParams)))?;
        // SAFETY: the driver filled it.
        let mut runtime = unsafe { p.assume_init() }.runtime;
        // The kernel as the program named it: its host stub when it has one.
        runtime.func = register::host_of(runtime.func as usize).map_or(runtime.func, |h| h as P);
        crate::out(params, runtime)
    }

    fn cudaGraphExecKernelNodeSetParams(exec: P, node: P, params: *const KernelNodeParams) {
        ready()?;
        let p = kernel(params)?;
        check(driver_call!(cuGraphExecKernelNodeSetParams_v2(exec => P, node => P, &p => *const DriverKernelParams)))
    }

    fn cudaGraphAddMemcpyNode(node: *mut P, graph: P, deps: *const P, n: usize, params: *const Memcpy3DParms) {
        add_copy(node, graph, deps, n, &copy_3d(params)?)
    }

    fn cudaGraphMemcpyNodeSetParams(node: P, params: *const Memcpy3DParms) {
        set_copy(node, &copy_3d(params)?)
    }

    fn cudaGraphExecMemcpyNodeSetParams(exec: P, node: P, params: *const Memcpy3DParms) {
        set_exec_copy(exec, node, &copy_3d(params)?)
    }

    fn cudaGraphAddMemcpyNode1D(node: *mut P, graph: P, deps: *const P, n: usize, dst: P, src: *const c_void, count: usize, kind: u32) {
        add_copy(node, graph, deps, n, &copy_1d(dst as u64, src as u64, count, kind)?)
    }

    fn cudaGraphMemcpyNodeSetParams1D(node: P, dst: P, src: *const c_void, count: usize, kind: u32) {
        set_copy(node, &copy_1d(dst as u64, src as u64, count, kind)?)
    }

    fn cudaGraphExecMemcpyNodeSetParams1D(exec: P, node: P, dst: P, src: *const c_void, count: usize, kind: u32) {
        set_exec_copy(exec, node, &copy_1d(dst as u64, src as u64, count, kind)?)
    }

    fn cudaGraphAddMemcpyNodeToSymbol(node: *mut P, graph: P, deps: *const P, n: usize, symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: u32) {
        let dst = symbol_at(symbol, offset, count)?;
        add_copy(node, graph, deps, n, &copy_1d(dst, src as u64, count, kind)?)
    }

    fn cudaGraphAddMemcpyNodeFromSymbol(node: *mut P, graph: P, deps: *const P, n: usize, dst: P, symbol: *const c_void, count: usize, offset: usize, kind: u32) {
        let src = symbol_at(symbol, offset, count)?;
        add_copy(node, graph, deps, n, &copy_1d(dst as u64, src, count, kind)?)
    }

    fn cudaGraphMemcpyNodeSetParamsToSymbol(node: P, symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: u32) {
        let dst = symbol_at(symbol, offset, count)?;
        set_copy(node, &copy_1d(dst, src as u64, count, kind)?)
    }

    fn cudaGraphMemcpyNodeSetParamsFromSymbol(node: P, dst: P, symbol: *const c_void, count: usize, offset: usize, kind: u32) {
        let src = symbol_at(symbol, offset, count)?;
        set_copy(node, &copy_1d(dst as u64, src, count, kind)?)
    }

    fn cudaGraphExecMemcpyNodeSetParamsToSymbol(exec: P, node: P, symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: u32) {
        let dst = symbol_at(symbol, offset, count)?;
        set_exec_copy(exec, node, &copy_1d(dst, src as u64, count, kind)?)
    }

    fn cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec: P, node: P, dst: P, symbol: *const c_void, count: usize, offset: usize, kind: u32) {
        let src = symbol_at(symbol, offset, count)?;
        set_exec_copy(exec, node, &copy_1d(dst as u64, src, count, kind)?)
    }

    fn cudaGraphAddMemsetNode(node: *mut P, graph: P, deps: *const P, n: usize, params: *const c_void) {
        // cudaMemsetParams is CUDA_MEMSET_NODE_PARAMS; the driver takes a context too.
        ready()?;
        check(driver_call!(cuGraphAddMemsetNode(node => *mut P, graph => P, deps => *const P, n => usize, params => *const c_void, std::ptr::null_mut() => P)))
    }

    fn cudaGraphExecMemsetNodeSetParams(exec: P, node: P, params: *const c_void) {
        ready()?;
        check(driver_call!(cuGraphExecMemsetNodeSetParams(exec => P, node => P, params => *const c_void, std::ptr::null_mut() => P)))
    }
}

crate::forward! {
    fn cudaGraphCreate(graph: *mut P, flags: u32) => cuGraphCreate;
    fn cudaGraphClone(clone: *mut P, original: P) => cuGraphClone;
    fn cudaGraphNodeFindInClone(node: *mut P, original: P, cloned: P) => cuGraphNodeFindInClone;
    fn cudaGraphNodeGetType(node: P, type_: *mut u32) => cuGraphNodeGetType;
    fn cudaGraphNodeGetContainingGraph(node: P, graph: *mut P) => cuGraphNodeGetContainingGraph;
    fn cudaGraphGetId(graph: P, id: *mut u32) => cuGraphGetId;
    fn cudaGraphExecGetId(exec: P, id: *mut u32) => cuGraphExecGetId;
    fn cudaGraphGetNodes(graph: P, nodes: *mut P, n: *mut usize) => cuGraphGetNodes;
    fn cudaGraphGetRootNodes(graph: P, nodes: *mut P, n: *mut usize) => cuGraphGetRootNodes;
    fn cudaGraphDestroyNode(node: P) => cuGraphDestroyNode;
    fn cudaGraphAddEmptyNode(node: *mut P, graph: P, deps: *const P, n: usize) => cuGraphAddEmptyNode;
    fn cudaGraphAddHostNode(node: *mut P, graph: P, deps: *const P, n: usize, params: *const c_void) => cuGraphAddHostNode;
    fn cudaGraphHostNodeGetParams(node: P, params: *mut c_void) => cuGraphHostNodeGetParams;
    fn cudaGraphHostNodeSetParams(node: P, params: *const c_void) => cuGraphHostNodeSetParams;
    fn cudaGraphExecHostNodeSetParams(exec: P, node: P, params: *const c_void) => cuGraphExecHostNodeSetParams;
    fn cudaGraphMemsetNodeGetParams(node: P, params: *mut c_void) => cuGraphMemsetNodeGetParams;
    fn cudaGraphMemsetNodeSetParams(node: P, params: *const c_void) => cuGraphMemsetNodeSetParams;
    fn cudaGraphAddChildGraphNode(node: *mut P, graph: P, deps: *const P, n: usize, child: P) => cuGraphAddChildGraphNode;
    fn cudaGraphChildGraphNodeGetGraph(node: P, graph: *mut P) => cuGraphChildGraphNodeGetGraph;
    fn cudaGraphExecChildGraphNodeSetParams(exec: P, node: P, child: P) => cuGraphExecChildGraphNodeSetParams;
    fn cudaGraphAddEventRecordNode(node: *mut P, graph: P, deps: *const P, n: usize, event: P) => cuGraphAddEventRecordNode;
    fn cudaGraphEventRecordNodeGetEvent(node: P, event: *mut P) => cuGraphEventRecordNodeGetEvent;
    fn cudaGraphEventRecordNodeSetEvent(node: P, event: P) => cuGraphEventRecordNodeSetEvent;
    fn cudaGraphAddEventWaitNode(node: *mut P, graph: P, deps: *const P, n: usize, event: P) => cuGraphAddEventWaitNode;
    fn cudaGraphEventWaitNodeGetEvent(node: P, event: *mut P) => cuGraphEventWaitNodeGetEvent;
    fn cudaGraphEventWaitNodeSetEvent(node: P, event: P) => cuGraphEventWaitNodeSetEvent;
    fn cudaGraphExecEventRecordNodeSetEvent(exec: P, node: P, event: P) => cuGraphExecEventRecordNodeSetEvent;
    fn cudaGraphExecEventWaitNodeSetEvent(exec: P, node: P, event: P) => cuGraphExecEventWaitNodeSetEvent;
    fn cudaGraphAddMemAllocNode(node: *mut P, graph: P, deps: *const P, n: usize, params: *mut c_void) => cuGraphAddMemAllocNode;
    fn cudaGraphMemAllocNodeGetParams(node: P, params: *mut c_void) => cuGraphMemAllocNodeGetParams;
    fn cudaGraphAddMemFreeNode(node: *mut P, graph: P, deps: *const P, n: usize, dptr: P) => cuGraphAddMemFreeNode;
    fn cudaGraphMemFreeNodeGetParams(node: P, dptr: *mut c_void) => cuGraphMemFreeNodeGetParams;
    fn cudaDeviceGraphMemTrim(device: i32) => cuDeviceGraphMemTrim;
    fn cudaDeviceGetGraphMemAttribute(device: i32, attr: u32, value: *mut c_void) => cuDeviceGetGraphMemAttribute;
    fn cudaDeviceSetGraphMemAttribute(device: i32, attr: u32, value: *mut c_void) => cuDeviceSetGraphMemAttribute;
    fn cudaGraphInstantiateWithParams(exec: *mut P, graph: P, params: *mut c_void) => cuGraphInstantiateWithParams also cudaGraphInstantiateWithParams_ptsz;
    fn cudaGraphExecGetFlags(exec: P, flags: *mut u64) => cuGraphExecGetFlags;
    fn cudaGraphNodeSetEnabled(exec: P, node: P, enabled: u32) => cuGraphNodeSetEnabled;
    fn cudaGraphNodeGetEnabled(exec: P, node: P, enabled: *mut u32) => cuGraphNodeGetEnabled;
    fn cudaGraphExecUpdate(exec: P, graph: P, result: *mut c_void) => cuGraphExecUpdate_v2;
    fn cudaGraphUpload(exec: P, stream: P) => cuGraphUpload also cudaGraphUpload_ptsz;
    fn cudaGraphDebugDotPrint(graph: P, path: *const std::ffi::c_char, flags: u32) => cuGraphDebugDotPrint;
    fn cudaUserObjectCreate(object: *mut P, ptr: P, destroy: Option<unsafe extern "C" fn(P)>, refcount: u32, flags: u32) => cuUserObjectCreate;
    fn cudaUserObjectRetain(object: P, count: u32) => cuUserObjectRetain;
    fn cudaUserObjectRelease(object: P, count: u32) => cuUserObjectRelease;
    fn cudaGraphRetainUserObject(graph: P, object: P, count: u32, flags: u32) => cuGraphRetainUserObject;
    fn cudaGraphReleaseUserObject(graph: P, object: P, count: u32) => cuGraphReleaseUserObject;
    fn cudaStreamBeginCaptureToGraph(stream: P, graph: P, deps: *const P, edge_data: *const u64, n: usize, mode: u32) => cuStreamBeginCaptureToGraph also cudaStreamBeginCaptureToGraph_ptsz;
    fn cudaStreamIsCapturing(stream: P, status: *mut u32) => cuStreamIsCapturing also cudaStreamIsCapturing_ptsz;
    fn cudaThreadExchangeStreamCaptureMode(mode: *mut u32) => cuThreadExchangeStreamCaptureMode;
}
