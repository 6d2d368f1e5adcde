//! Graphs and stream capture, as frameworks record launches: a graph is its nodes in
//! the order they were added (a node can only depend on nodes added before it, so
//! that order respects every dependency, and ptxvm runs one thing at a time);
//! instantiating copies them, and launching runs them. A stream that captures records
//! the kernels, copies, fills and host functions enqueued on it instead of running
//! them. A kernel node's arguments are packed when the node is made, from either
//! argument form, as CUDA copies them then.

use crate::error;
use crate::launch::{self, Launch, Params};
use crate::memory;
use crate::state::{self, Driver};
use crate::types::{CUresult, Handle, Memcpy2D, Memcpy3D};
use std::ffi::c_void;

/// `CUDA_KERNEL_NODE_PARAMS` (v2).
#[repr(C)]
pub struct KernelNodeParams {
    pub func: Handle,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_mem_bytes: u32,
    pub kernel_params: *mut *mut c_void,
    pub extra: *mut *mut c_void,
    pub kern: Handle,
    pub ctx: Handle,
}

/// `CUDA_MEMSET_NODE_PARAMS`.
#[repr(C)]
pub struct MemsetNodeParams {
    pub dst: u64,
    pub pitch: usize,
    pub value: u32,
    pub element_size: u32,
    pub width: usize,
    pub height: usize,
}

/// `CUDA_HOST_NODE_PARAMS`.
#[repr(C)]
pub struct HostNodeParams {
    pub func: crate::types::CUhostFn,
    pub user_data: *mut c_void,
}

/// One piece of work of a stream or a graph.
#[derive(Clone)]
pub enum Work {
    Kernel {
        f: u64,
        launch: Launch,
        params: Vec<u8>,
    },
    Copy {
        dst: u64,
        src: u64,
        bytes: usize,
    },
    Copy2D(Memcpy2D),
    Copy3D(Memcpy3D),
    /// `height` rows of `width` copies of `pattern`, `pitch` bytes apart.
    Fill {
        dst: u64,
        pitch: usize,
        pattern: Vec<u8>,
        width: usize,
        height: usize,
    },
    Host {
        func: unsafe extern "C" fn(*mut c_void),
        data: usize,
    },
    Empty,
}

// SAFETY: the pointers a `Work` holds are the program's (host buffers, callback
// data), which it hands to the driver to use from whichever thread launches.
unsafe impl Send for Work {}

/// A graph's (or an instantiated graph's) nodes, in the order they were added.
#[derive(Clone, Default)]
pub struct Graph {
    pub nodes: Vec<(u64, Work)>,
}

/// Runs `work` now. Kernels run under the driver's lock; copies and host functions
/// take it as they need.
pub fn run(work: Work) -> Result<(), CUresult> {
    match work {
        Work::Kernel { f, launch, params } => state::with(|d| launch::run(d, f, &launch, &params)),
        Work::Copy { dst, src, bytes } => memory::any(dst, src, bytes),
        Work::Copy2D(m) => memory::copy_2d(&m),
        Work::Copy3D(m) => memory::copy_3d(&m),
        Work::Fill { dst, pitch, pattern, width, height } => {
            memory::fill_2d(dst, pitch, &pattern, width, height)
        }
        Work::Host { func, data } => {
            crate::printf::flush();
            // SAFETY: the program's host function with its data, called as cuda.h
            // declares it, without the driver's lock held.
            unsafe { func(data as *mut c_void) };
            Ok(())
        }
        Work::Empty => Ok(()),
    }
}

/// Runs `work` on `stream`, or adds it to the graph the stream is capturing.
pub fn submit(stream: u64, work: Work) -> Result<(), CUresult> {
    let work = state::with(|d| {
        d.check_stream(stream)?;
        let Some(g) = d.streams.get(&stream).and_then(|s| s.capture) else { return Ok(Some(work)) };
        let node = d.handle();
        let graph = d
            .graphs
            .get_mut(&g)
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, "the capturing graph is gone"))?;
        graph.nodes.push((node, work));
        Ok(None)
    })?;
    work.map_or(Ok(()), run)
}

/// Adds `work` to graph `g` (after `deps`, which must be nodes of it) and returns
/// the node.
fn add(g: Handle, deps: *const Handle, n: usize, work: Work) -> Result<u64, CUresult> {
    state::with(|d| {
        let graph = d
            .graphs
            .get(&(g as u64))
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{g:?} is not a graph")))?;
        if n > 0 && deps.is_null() {
            return Err(error::INVALID_VALUE);
        }
        for k in 0..n {
            // SAFETY: the caller passes `n` dependencies.
            let dep = unsafe { *deps.add(k) } as u64;
            if !graph.nodes.iter().any(|(h, _)| *h == dep) {
                return Err(crate::fail(
                    error::INVALID_VALUE,
                    format!("dependency 0x{dep:x} is not a node of the graph"),
                ));
            }
        }
        let node = d.handle();
        if let Some(graph) = d.graphs.get_mut(&(g as u64)) {
            graph.nodes.push((node, work));
        }
        Ok(node)
    })
}

/// A kernel node's work from its parameters.
fn kernel_work(d: &mut Driver, p: *const KernelNodeParams) -> Result<Work, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_KERNEL_NODE_PARAMS*` the caller filled.
    let p = unsafe { &*p };
    let f = if p.func.is_null() { p.kern } else { p.func } as u64;
    let l = Launch {
        grid: p.grid,
        block: p.block,
        shared: p.shared_mem_bytes,
        stream: 0,
        cooperative: false,
        cluster: None,
    };
    if !p.kernel_params.is_null() && !p.extra.is_null() {
        return Err(crate::fail(error::INVALID_VALUE, "give kernelParams or extra, not both"));
    }
    let params = if p.extra.is_null() { Params::Pointers(p.kernel_params) } else { Params::Extra(p.extra) };
    let params = launch::prepare(d, f, &l, params)?;
    Ok(Work::Kernel { f, launch: l, params })
}

fn memcpy3d(p: *const Memcpy3D) -> Result<Work, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_MEMCPY3D*` the caller filled.
    Ok(Work::Copy3D(unsafe { *p }))
}

/// Replaces node `node` of instantiated graph `exec` by `work`, of the same kind.
fn set_exec_node(exec: Handle, node: Handle, work: Work) -> Result<(), CUresult> {
    state::with(|d| {
        let e = d.execs.get_mut(&(exec as u64)).ok_or_else(|| {
            crate::fail(error::INVALID_HANDLE, format!("{exec:?} is not an instantiated graph"))
        })?;
        let slot = e.nodes.iter_mut().find(|(h, _)| *h == node as u64).ok_or_else(|| {
            crate::fail(error::INVALID_VALUE, format!("{node:?} is not a node of the graph"))
        })?;
        if std::mem::discriminant(&slot.1) != std::mem::discriminant(&work) {
            return Err(crate::fail(error::INVALID_VALUE, "a node's parameters can change, not its kind"));
        }
        slot.1 = work;
        Ok(())
    })
}

crate::api! {
    fn cuGraphCreate(ph_graph: *mut Handle, flags: u32) {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        let g = state::with(|d| {
            let g = d.handle();
            d.graphs.insert(g, Graph::default());
            Ok(g)
        })?;
        crate::out(ph_graph, g as Handle)
    }

    fn cuGraphAddKernelNode_v2(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, node_params: *const KernelNodeParams) {
        let work = state::with(|d| kernel_work(d, node_params))?;
        let node = add(h_graph, dependencies, num_dependencies, work)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddMemcpyNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, copy_params: *const Memcpy3D, ctx: Handle) {
        let _ = ctx;
        let node = add(h_graph, dependencies, num_dependencies, memcpy3d(copy_params)?)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddMemsetNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, memset_params: *const MemsetNodeParams, ctx: Handle) {
        let _ = ctx;
        if memset_params.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_MEMSET_NODE_PARAMS*` the caller filled.
        let p = unsafe { &*memset_params };
        let pattern = match p.element_size {
            1 => vec![p.value as u8],
            2 => (p.value as u16).to_le_bytes().to_vec(),
            4 => p.value.to_le_bytes().to_vec(),
            n => return Err(crate::fail(error::INVALID_VALUE, format!("elementSize {n} is not 1, 2 or 4"))),
        };
        let work = Work::Fill { dst: p.dst, pitch: p.pitch, pattern, width: p.width, height: p.height.max(1) };
        let node = add(h_graph, dependencies, num_dependencies, work)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddHostNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, node_params: *const HostNodeParams) {
        if node_params.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_HOST_NODE_PARAMS*` the caller filled.
        let p = unsafe { &*node_params };
        let func = p.func.ok_or(error::INVALID_VALUE)?;
        let node = add(h_graph, dependencies, num_dependencies, Work::Host { func, data: p.user_data as usize })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddEmptyNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize) {
        let node = add(h_graph, dependencies, num_dependencies, Work::Empty)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphInstantiateWithFlags(ph_graph_exec: *mut Handle, h_graph: Handle, flags: u64) {
        let _ = flags;
        let e = state::with(|d| {
            let g = d.graphs.get(&(h_graph as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_graph:?} is not a graph")))?.clone();
            let e = d.handle();
            d.execs.insert(e, g);
            Ok(e)
        })?;
        crate::out(ph_graph_exec, e as Handle)
    }

    fn cuGraphLaunch(h_graph_exec: Handle, h_stream: Handle) also cuGraphLaunch_ptsz {
        let nodes = state::with(|d| {
            d.ctx()?;
            d.check_stream(h_stream as u64)?;
            let e = d.execs.get(&(h_graph_exec as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_graph_exec:?} is not an instantiated graph")))?;
            Ok(e.nodes.clone())
        })?;
        for (_, work) in nodes {
            submit(h_stream as u64, work)?;
        }
        Ok(())
    }

    fn cuGraphExecKernelNodeSetParams_v2(h_graph_exec: Handle, h_node: Handle, node_params: *const KernelNodeParams) {
        let work = state::with(|d| kernel_work(d, node_params))?;
        set_exec_node(h_graph_exec, h_node, work)
    }

    fn cuGraphExecMemcpyNodeSetParams(h_graph_exec: Handle, h_node: Handle, copy_params: *const Memcpy3D, ctx: Handle) {
        let _ = ctx;
        set_exec_node(h_graph_exec, h_node, memcpy3d(copy_params)?)
    }

    fn cuGraphDestroy(h_graph: Handle) {
        state::with(|d| {
            d.graphs.remove(&(h_graph as u64)).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_graph:?} is not a graph")))
        })
    }

    fn cuGraphExecDestroy(h_graph_exec: Handle) {
        state::with(|d| {
            d.execs.remove(&(h_graph_exec as u64)).map(|_| ()).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_graph_exec:?} is not an instantiated graph")))
        })
    }

    fn cuStreamBeginCapture_v2(h_stream: Handle, mode: u32) also cuStreamBeginCapture_v2_ptsz {
        let _ = mode;
        state::with(|d| {
            d.ctx()?;
            d.check_stream(h_stream as u64)?;
            let g = d.handle();
            let Some(s) = d.streams.get_mut(&(h_stream as u64)) else {
                return Err(crate::fail(error::STREAM_CAPTURE_UNSUPPORTED, "the default (legacy) stream cannot capture; create a stream"));
            };
            if s.capture.is_some() {
                return Err(crate::fail(error::ILLEGAL_STATE, "the stream is capturing already"));
            }
            s.capture = Some(g);
            d.graphs.insert(g, Graph::default());
            Ok(())
        })
    }

    fn cuStreamEndCapture(h_stream: Handle, ph_graph: *mut Handle) also cuStreamEndCapture_ptsz {
        let g = state::with(|d| {
            d.check_stream(h_stream as u64)?;
            let s = d.streams.get_mut(&(h_stream as u64));
            s.and_then(|s| s.capture.take()).ok_or_else(|| crate::fail(error::ILLEGAL_STATE, "the stream is not capturing"))
        })?;
        crate::out(ph_graph, g as Handle)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_parameters_are_laid_out_as_cuda_h_declares_them() {
        assert_eq!(std::mem::size_of::<super::Memcpy3D>(), 200);
        assert_eq!(std::mem::size_of::<super::KernelNodeParams>(), 72);
        assert_eq!(std::mem::size_of::<super::MemsetNodeParams>(), 40);
    }
}
