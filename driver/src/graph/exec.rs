//! Executable graphs: instantiating copies a graph's nodes (and holds the memory its
//! allocation nodes made), launching runs them on a stream (or records them into a
//! graph the stream captures), and the executable's nodes can be given new
//! parameters, turned off and on, or updated from a graph of the same shape.

use super::{Graph, HostNodeParams, KernelNodeParams, MemsetNodeParams, Work};
use crate::error;
use crate::state::{self, Driver};
use crate::types::{CUresult, Handle, Memcpy3D};

/// `CUDA_GRAPH_INSTANTIATE_PARAMS`.
#[repr(C)]
pub struct InstantiateParams {
    pub flags: u64,
    pub upload_stream: Handle,
    pub err_node_out: Handle,
    pub result_out: u32,
}

/// `CUgraphExecUpdateResultInfo`.
#[repr(C)]
pub struct UpdateResultInfo {
    pub result: u32,
    pub error_node: Handle,
    pub error_from_node: Handle,
}

/// `CUDA_GRAPH_INSTANTIATE_FLAG_*` ptxvm knows: auto-free on launch, upload,
/// device launch, use node priorities.
const INSTANTIATE_FLAGS: u64 = 0x1 | 0x2 | 0x4 | 0x8;

/// Instantiates graph `g` with `flags`.
fn instantiate(g: Handle, flags: u64) -> Result<u64, CUresult> {
    if flags & !INSTANTIATE_FLAGS != 0 {
        return Err(crate::fail(
            error::INVALID_VALUE,
            format!("instantiation flags {flags:#x} are not ones CUDA has"),
        ));
    }
    state::with(|d| {
        let graph = d.graph(g)?.clone();
        d.hold_graph(&graph);
        let e = d.handle();
        d.execs.insert(e, Exec { graph, flags });
        Ok(e)
    })
}

/// An instantiated graph.
#[derive(Clone)]
pub struct Exec {
    pub graph: Graph,
    pub flags: u64,
}

fn exec(d: &mut Driver, e: Handle) -> Result<&mut Exec, CUresult> {
    d.execs
        .get_mut(&(e as u64))
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{e:?} is not an instantiated graph")))
}

/// Replaces node `node` of instantiated graph `exec` by `work`, of the same kind.
fn set_exec_node(e: Handle, node: Handle, work: Work) -> Result<(), CUresult> {
    state::with(|d| {
        let n = exec(d, e)?.graph.node_mut(node as u64).ok_or_else(|| {
            crate::fail(error::INVALID_VALUE, format!("{node:?} is not a node of the graph"))
        })?;
        if std::mem::discriminant(&n.work) != std::mem::discriminant(&work) {
            return Err(crate::fail(error::INVALID_VALUE, "a node's parameters can change, not its kind"));
        }
        n.work = work;
        Ok(())
    })
}

/// `CUgraphExecUpdateResult`: why graph `g` cannot update `e`, or 0 (success) and
/// the new nodes. The update keeps the executable's node handles: node `k` of the
/// graph updates node `k` of the executable, which must be of the same kind.
fn update(d: &mut Driver, e: Handle, g: Handle) -> Result<(u32, Option<u64>), CUresult> {
    let graph = d.graph(g)?.clone();
    let x = exec(d, e)?;
    if graph.nodes.len() != x.graph.nodes.len() {
        // CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED
        return Ok((2, None));
    }
    for (new, old) in graph.nodes.iter().zip(&x.graph.nodes) {
        if std::mem::discriminant(&new.work) != std::mem::discriminant(&old.work) {
            // CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED
            return Ok((3, Some(new.handle)));
        }
        if new.deps.len() != old.deps.len() {
            return Ok((2, Some(new.handle)));
        }
        if matches!(new.work, Work::MemAlloc { .. } | Work::MemFree(_)) {
            // CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED: CUDA does not update them.
            return Ok((6, Some(new.handle)));
        }
        if let (Work::Child(a), Work::Child(b)) = (&new.work, &old.work) {
            if a.nodes.len() != b.nodes.len() {
                return Ok((2, Some(new.handle)));
            }
            // The executable owns its children's allocations: they cannot change.
            if a.allocations() != b.allocations() {
                return Ok((6, Some(new.handle)));
            }
        }
    }
    for (k, new) in graph.nodes.into_iter().enumerate() {
        x.graph.nodes[k].work = new.work;
    }
    Ok((0, None))
}

crate::api! {
    fn cuGraphInstantiateWithFlags(ph_graph_exec: *mut Handle, h_graph: Handle, flags: u64) {
        if ph_graph_exec.is_null() {
            return Err(error::INVALID_VALUE);
        }
        crate::out(ph_graph_exec, instantiate(h_graph, flags)? as Handle)
    }

    fn cuGraphInstantiate(ph_graph_exec: *mut Handle, h_graph: Handle, ph_error_node: *mut Handle, log_buffer: *mut std::ffi::c_char, buffer_size: usize) also cuGraphInstantiate_v2 {
        if ph_graph_exec.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let e = instantiate(h_graph, 0)?;
        if !ph_error_node.is_null() {
            crate::out(ph_error_node, std::ptr::null_mut())?;
        }
        if !log_buffer.is_null() && buffer_size > 0 {
            // SAFETY: the caller's log buffer of `buffer_size` bytes: an empty log.
            unsafe { log_buffer.write(0) };
        }
        crate::out(ph_graph_exec, e as Handle)
    }

    fn cuGraphInstantiateWithParams(ph_graph_exec: *mut Handle, h_graph: Handle, instantiate_params: *mut InstantiateParams) also cuGraphInstantiateWithParams_ptsz {
        if ph_graph_exec.is_null() || instantiate_params.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_GRAPH_INSTANTIATE_PARAMS*`, whose outputs are written.
        let p = unsafe { &mut *instantiate_params };
        match instantiate(h_graph, p.flags) {
            Ok(e) => {
                p.err_node_out = std::ptr::null_mut();
                // CUDA_GRAPH_INSTANTIATE_SUCCESS
                p.result_out = 0;
                crate::out(ph_graph_exec, e as Handle)
            }
            Err(code) => {
                // CUDA_GRAPH_INSTANTIATE_ERROR
                p.result_out = 1;
                Err(code)
            }
        }
    }

    fn cuGraphExecGetId(h_graph_exec: Handle, graph_id: *mut u32) {
        state::with(|d| exec(d, h_graph_exec).map(|_| ()))?;
        crate::out(graph_id, (h_graph_exec as u64 >> 4) as u32)
    }

    fn cuGraphExecGetFlags(h_graph_exec: Handle, flags: *mut u64) {
        let f = state::with(|d| Ok(exec(d, h_graph_exec)?.flags))?;
        crate::out(flags, f)
    }

    fn cuGraphLaunch(h_graph_exec: Handle, h_stream: Handle) also cuGraphLaunch_ptsz {
        let nodes = state::with(|d| {
            d.ctx()?;
            d.check_stream(h_stream as u64)?;
            let graph = exec(d, h_graph_exec)?.graph.clone();
            // Launched into a capture, the graph becomes one child graph node of it.
            if super::capture::capturing(d, h_stream as u64) {
                super::capture::append(d, h_stream as u64, Work::Child(graph))?;
                return Ok(Vec::new());
            }
            Ok(graph.nodes)
        })?;
        for n in nodes.into_iter().filter(|n| n.enabled) {
            super::submit(h_stream as u64, n.work)?;
        }
        Ok(())
    }

    fn cuGraphUpload(h_graph_exec: Handle, h_stream: Handle) also cuGraphUpload_ptsz {
        // Nothing to upload: the graph runs from host memory.
        state::with(|d| {
            d.check_stream(h_stream as u64)?;
            exec(d, h_graph_exec).map(|_| ())
        })
    }

    fn cuGraphExecDestroy(h_graph_exec: Handle) {
        state::with(|d| {
            let x = d.execs.remove(&(h_graph_exec as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_graph_exec:?} is not an instantiated graph")))?;
            d.release_graph(&x.graph);
            Ok(())
        })
    }

    fn cuGraphExecKernelNodeSetParams_v2(h_graph_exec: Handle, h_node: Handle, node_params: *const KernelNodeParams) {
        let work = state::with(|d| super::kernel_work(d, node_params, false))?;
        set_exec_node(h_graph_exec, h_node, work)
    }

    fn cuGraphExecKernelNodeSetParams(h_graph_exec: Handle, h_node: Handle, node_params: *const KernelNodeParams) {
        let work = state::with(|d| super::kernel_work(d, node_params, true))?;
        set_exec_node(h_graph_exec, h_node, work)
    }

    fn cuGraphExecMemcpyNodeSetParams(h_graph_exec: Handle, h_node: Handle, copy_params: *const Memcpy3D, ctx: Handle) {
        let _ = ctx;
        set_exec_node(h_graph_exec, h_node, super::memcpy3d(copy_params)?)
    }

    fn cuGraphExecMemsetNodeSetParams(h_graph_exec: Handle, h_node: Handle, memset_params: *const MemsetNodeParams, ctx: Handle) {
        let _ = ctx;
        set_exec_node(h_graph_exec, h_node, super::memset(memset_params)?)
    }

    fn cuGraphExecHostNodeSetParams(h_graph_exec: Handle, h_node: Handle, node_params: *const HostNodeParams) {
        set_exec_node(h_graph_exec, h_node, super::host(node_params)?)
    }

    fn cuGraphExecChildGraphNodeSetParams(h_graph_exec: Handle, h_node: Handle, child_graph: Handle) {
        let child = state::with(|d| Ok(d.graph(child_graph)?.clone()))?;
        let same_shape = state::with(|d| {
            let n = exec(d, h_graph_exec)?.graph.node(h_node as u64).ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a node of the graph")))?;
            Ok(matches!(&n.work, Work::Child(old) if old.nodes.len() == child.nodes.len() && old.allocations().is_empty() && child.allocations().is_empty()))
        })?;
        if !same_shape {
            return Err(crate::fail(error::INVALID_VALUE, "the child graph's shape differs from the node's, or it allocates memory"));
        }
        set_exec_node(h_graph_exec, h_node, Work::Child(child))
    }

    fn cuGraphExecEventRecordNodeSetEvent(h_graph_exec: Handle, h_node: Handle, event: Handle) {
        state::with(|d| crate::stream::check_event(d, event))?;
        set_exec_node(h_graph_exec, h_node, Work::EventRecord(event as u64))
    }

    fn cuGraphExecEventWaitNodeSetEvent(h_graph_exec: Handle, h_node: Handle, event: Handle) {
        state::with(|d| crate::stream::check_event(d, event))?;
        set_exec_node(h_graph_exec, h_node, Work::EventWait(event as u64))
    }

    fn cuGraphNodeSetEnabled(h_graph_exec: Handle, h_node: Handle, is_enabled: u32) {
        state::with(|d| {
            let n = exec(d, h_graph_exec)?.graph.node_mut(h_node as u64).ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a node of the graph")))?;
            if !matches!(n.work, Work::Kernel { .. } | Work::Copy { .. } | Work::Copy2D(_) | Work::Copy3D(_) | Work::Fill { .. }) {
                return Err(crate::fail(error::INVALID_VALUE, "only kernel, memcpy and memset nodes can be turned off"));
            }
            n.enabled = is_enabled != 0;
            Ok(())
        })
    }

    fn cuGraphNodeGetEnabled(h_graph_exec: Handle, h_node: Handle, is_enabled: *mut u32) {
        let on = state::with(|d| {
            let n = exec(d, h_graph_exec)?.graph.node(h_node as u64).ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a node of the graph")))?;
            Ok(n.enabled)
        })?;
        crate::out(is_enabled, u32::from(on))
    }

    fn cuGraphExecUpdate_v2(h_graph_exec: Handle, h_graph: Handle, result_info: *mut UpdateResultInfo) {
        if result_info.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let (result, node) = state::with(|d| update(d, h_graph_exec, h_graph))?;
        let node = node.map_or(std::ptr::null_mut(), |n| n as Handle);
        crate::out(result_info, UpdateResultInfo { result, error_node: node, error_from_node: std::ptr::null_mut() })?;
        // CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE
        if result == 0 { Ok(()) } else { Err(910) }
    }

    fn cuGraphExecUpdate(h_graph_exec: Handle, h_graph: Handle, h_error_node_out: *mut Handle, update_result_out: *mut u32) {
        let (result, node) = state::with(|d| update(d, h_graph_exec, h_graph))?;
        crate::out(update_result_out, result)?;
        if !h_error_node_out.is_null() {
            crate::out(h_error_node_out, node.map_or(std::ptr::null_mut(), |n| n as Handle))?;
        }
        if result == 0 { Ok(()) } else { Err(910) }
    }
}
