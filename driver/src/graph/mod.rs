//! Graphs and stream capture, as frameworks record launches. A graph is its nodes
//! in the order they were added, each with the nodes it depends on; a node can only
//! depend on nodes added before it, so that order respects every dependency, and
//! ptxvm runs one thing at a time. Instantiating copies the nodes, and launching
//! runs the enabled ones in order. A stream that captures records the kernels,
//! copies, fills, host functions, events and stream-ordered allocations enqueued on
//! it instead of running them, each after the one before it.
//!
//! Memory a graph allocates (a memory allocation node, or `cuMemAllocAsync` while
//! capturing) is allocated when the node is made, at the address the program is
//! given, and belongs to the graph: its free node frees nothing while a graph or an
//! instantiation of it still holds the allocation, and the memory goes back when
//! the last of them is destroyed. A free node of memory the graph did not allocate
//! frees it when the graph runs.
//!
//! - [`nodes`]: adding nodes, their parameters, dependencies and queries;
//! - [`exec`]: instantiating, launching, updating and the executable graph's nodes;
//! - [`capture`]: stream capture.

pub mod capture;
pub mod exec;
pub mod nodes;
pub mod objects;

use crate::error;
use crate::launch::{self, Launch, Params};
use crate::memory;
use crate::state::{self, Driver};
use crate::types::{CUresult, Handle, Memcpy2D, Memcpy3D};
use std::ffi::c_void;

/// `CUDA_KERNEL_NODE_PARAMS` (v2; v1 is its first 56 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
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
#[derive(Clone, Copy)]
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
#[derive(Clone, Copy)]
pub struct HostNodeParams {
    pub func: crate::types::CUhostFn,
    pub user_data: *mut c_void,
}

/// One piece of work of a stream or a graph.
#[derive(Clone)]
pub enum Work {
    /// A launch, with what made it (the node's parameters, for queries) and its
    /// arguments packed when it was made, as CUDA copies them.
    Kernel {
        f: u64,
        launch: Launch,
        params: Vec<u8>,
        made: Option<KernelNodeParams>,
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
    /// A child graph, run in place.
    Child(Graph),
    EventRecord(u64),
    EventWait(u64),
    /// Memory the graph allocated, `bytes` at `addr` (allocated when the node was
    /// made; running the node does nothing).
    MemAlloc {
        addr: u64,
        bytes: usize,
    },
    /// Frees `addr` when the graph runs, unless the graph allocated it.
    MemFree(u64),
    Empty,
}

// SAFETY: the pointers a `Work` holds are the program's (host buffers, callback
// data, the kernel parameters a node was made with), which it hands to the driver
// to use from whichever thread launches.
unsafe impl Send for Work {}

/// A node of a graph.
#[derive(Clone)]
pub struct Node {
    pub handle: u64,
    pub work: Work,
    /// The nodes it depends on, each added before it.
    pub deps: Vec<u64>,
    /// Whether an instantiated graph runs it (`cuGraphNodeSetEnabled`).
    pub enabled: bool,
    /// The node it was cloned from (`cuGraphClone`), or itself.
    pub origin: u64,
}

/// A graph's (or an instantiated graph's) nodes, in the order they were added.
#[derive(Clone, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// User objects the graph holds, with its references to each.
    pub objects: Vec<(u64, u32)>,
}

impl Graph {
    /// The node with handle `h`.
    pub fn node(&self, h: u64) -> Option<&Node> {
        self.nodes.iter().find(|n| n.handle == h)
    }

    pub fn node_mut(&mut self, h: u64) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.handle == h)
    }

    /// The allocations its memory allocation nodes made, child graphs' included.
    pub fn allocations(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for n in &self.nodes {
            match &n.work {
                Work::MemAlloc { addr, .. } => out.push(*addr),
                Work::Child(g) => out.extend(g.allocations()),
                _ => {}
            }
        }
        out
    }
}

impl Driver {
    /// Graph `g`.
    ///
    /// # Errors
    /// `CUDA_ERROR_INVALID_HANDLE` when it is not one.
    pub fn graph(&mut self, g: Handle) -> Result<&mut Graph, CUresult> {
        self.graphs
            .get_mut(&(g as u64))
            .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{g:?} is not a graph")))
    }

    /// A graph (or an instantiation) `g` was made: it holds its allocations and its
    /// user objects.
    pub fn hold_graph(&mut self, g: &Graph) {
        self.hold(&g.allocations());
        for &(o, n) in &g.objects {
            let _ = self.retain_object(o, n);
        }
    }

    /// Graph (or instantiation) `g` went.
    pub fn release_graph(&mut self, g: &Graph) {
        self.release(&g.allocations());
        for &(o, n) in &g.objects {
            let _ = self.release_object(o, n);
        }
    }

    /// A graph (or an instantiation) that holds `allocations` was made.
    pub fn hold(&mut self, allocations: &[u64]) {
        for a in allocations {
            *self.graph_allocs.entry(*a).or_default() += 1;
        }
        self.graph_memory_high = self.graph_memory_high.max(self.graph_memory());
    }

    /// A graph (or an instantiation) that held `allocations` went: the ones no
    /// other holds are freed.
    pub fn release(&mut self, allocations: &[u64]) {
        for a in allocations {
            let left = self.graph_allocs.get_mut(a).map(|n| {
                *n -= 1;
                *n
            });
            if left == Some(0) {
                self.graph_allocs.remove(a);
                self.free(*a);
            }
        }
    }
}

/// Runs `work` now. Kernels run under the driver's lock; copies and host functions
/// take it as they need.
pub fn run(work: Work) -> Result<(), CUresult> {
    match work {
        Work::Kernel { f, launch, params, .. } => state::with(|d| launch::run(d, f, &launch, &params)),
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
        Work::Child(g) => run_graph(&g),
        Work::EventRecord(e) => state::with(|d| {
            if let Some(ev) = d.events.get_mut(&e) {
                ev.recorded = Some(std::time::Instant::now());
            }
            Ok(())
        }),
        // Work runs in one order: what an event marks has run.
        Work::EventWait(_) | Work::MemAlloc { .. } | Work::Empty => Ok(()),
        Work::MemFree(addr) => state::with(|d| {
            if d.graph_allocs.contains_key(&addr) {
                return Ok(());
            }
            d.free(addr).map(|_| ()).ok_or_else(|| {
                crate::fail(
                    error::INVALID_VALUE,
                    format!("a free node's 0x{addr:x} is not an allocation (freed already?)"),
                )
            })
        }),
    }
}

/// Runs the enabled nodes of `g` in order.
pub fn run_graph(g: &Graph) -> Result<(), CUresult> {
    g.nodes.iter().filter(|n| n.enabled).try_for_each(|n| run(n.work.clone()))
}

/// Runs `work` on `stream`, or adds it to the graph the stream is capturing.
pub fn submit(stream: u64, work: Work) -> Result<(), CUresult> {
    match capture::record(stream, work)? {
        Some(work) => run(work),
        None => Ok(()),
    }
}

/// A kernel node's work from its parameters (v2, or v1's first 56 bytes).
fn kernel_work(d: &mut Driver, p: *const KernelNodeParams, v1: bool) -> Result<Work, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_KERNEL_NODE_PARAMS*` the caller filled: 72 bytes, or
    // for v1 the first 56 (the rest are read as NULL).
    let p = unsafe {
        let mut all = std::mem::zeroed::<KernelNodeParams>();
        let bytes = if v1 { 56 } else { size_of::<KernelNodeParams>() };
        std::ptr::copy_nonoverlapping(p.cast::<u8>(), (&raw mut all).cast::<u8>(), bytes);
        all
    };
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
    Ok(Work::Kernel { f, launch: l, params, made: Some(p) })
}

fn memcpy3d(p: *const Memcpy3D) -> Result<Work, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_MEMCPY3D*` the caller filled.
    Ok(Work::Copy3D(unsafe { *p }))
}

fn memset(p: *const MemsetNodeParams) -> Result<Work, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_MEMSET_NODE_PARAMS*` the caller filled.
    let p = unsafe { &*p };
    let pattern = match p.element_size {
        1 => vec![p.value as u8],
        2 => (p.value as u16).to_le_bytes().to_vec(),
        4 => p.value.to_le_bytes().to_vec(),
        n => return Err(crate::fail(error::INVALID_VALUE, format!("elementSize {n} is not 1, 2 or 4"))),
    };
    Ok(Work::Fill { dst: p.dst, pitch: p.pitch, pattern, width: p.width, height: p.height.max(1) })
}

fn host(p: *const HostNodeParams) -> Result<Work, CUresult> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `CUDA_HOST_NODE_PARAMS*` the caller filled.
    let p = unsafe { &*p };
    let func = p.func.ok_or(error::INVALID_VALUE)?;
    Ok(Work::Host { func, data: p.user_data as usize })
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_parameters_are_laid_out_as_cuda_h_declares_them() {
        // sizeof and offsetof against cuda.h 13.5 (gcc).
        assert_eq!(size_of::<super::Memcpy3D>(), 200);
        assert_eq!(size_of::<super::KernelNodeParams>(), 72);
        assert_eq!(size_of::<super::MemsetNodeParams>(), 40);
        assert_eq!(size_of::<super::HostNodeParams>(), 16);
        assert_eq!(size_of::<super::nodes::MemAllocNodeParams>(), 120);
        assert_eq!(std::mem::offset_of!(super::nodes::MemAllocNodeParams, dptr), 112);
        assert_eq!(size_of::<super::exec::InstantiateParams>(), 32);
    }
}
