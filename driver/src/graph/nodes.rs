//! Building graphs by hand: nodes of each kind, their dependencies, their
//! parameters read and changed, and the queries that walk a graph.

use super::{Graph, HostNodeParams, KernelNodeParams, MemsetNodeParams, Node, Work};
use crate::error;
use crate::state::{self, Driver, MemKind};
use crate::types::{CUresult, Handle, Memcpy3D};
use std::ffi::c_void;

/// `CUDA_MEM_ALLOC_NODE_PARAMS`: the pool's properties (88 bytes), the access
/// descriptors, the size, and the address the node allocated (an output).
#[repr(C)]
pub struct MemAllocNodeParams {
    pub pool_props: [u8; 88],
    pub access_descs: *const c_void,
    pub access_desc_count: usize,
    pub bytesize: usize,
    pub dptr: u64,
}

/// `CUgraphNodeType` of a node's work.
fn node_type(w: &Work) -> u32 {
    match w {
        Work::Kernel { .. } => 0,
        Work::Copy { .. } | Work::Copy2D(_) | Work::Copy3D(_) => 1,
        Work::Fill { .. } => 2,
        Work::Host { .. } => 3,
        Work::Child(_) => 4,
        Work::Empty => 5,
        Work::EventWait(_) => 6,
        Work::EventRecord(_) => 7,
        Work::MemAlloc { .. } => 10,
        Work::MemFree(_) => 11,
    }
}

/// The graph that holds node `node`, and the node's place in it.
pub(super) fn find(d: &Driver, node: Handle) -> Result<(u64, usize), CUresult> {
    let h = node as u64;
    d.graphs
        .iter()
        .find_map(|(&g, graph)| graph.nodes.iter().position(|n| n.handle == h).map(|k| (g, k)))
        .ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("{node:?} is not a node of a graph")))
}

/// Node `node`, wherever it is.
fn node_mut(d: &mut Driver, node: Handle) -> Result<&mut Node, CUresult> {
    let (g, k) = find(d, node)?;
    Ok(&mut d.graphs.get_mut(&g).expect("found above").nodes[k])
}

/// The dependencies `deps[..n]`, each a node of graph `g`.
fn dependencies(graph: &Graph, deps: *const Handle, n: usize) -> Result<Vec<u64>, CUresult> {
    if n > 0 && deps.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        // SAFETY: the caller passes `n` dependencies.
        let dep = unsafe { *deps.add(k) } as u64;
        if graph.node(dep).is_none() {
            return Err(crate::fail(
                error::INVALID_VALUE,
                format!("dependency 0x{dep:x} is not a node of the graph"),
            ));
        }
        if !out.contains(&dep) {
            out.push(dep);
        }
    }
    Ok(out)
}

/// Adds `work` to graph `g` after `deps` (nodes of it) and returns the node.
pub(super) fn add_node(
    d: &mut Driver,
    g: Handle,
    deps: *const Handle,
    n: usize,
    work: Work,
) -> Result<u64, CUresult> {
    let deps = dependencies(d.graph(g)?, deps, n)?;
    let node = d.handle();
    if let Work::Child(child) = &work {
        let held = child.allocations();
        d.hold(&held);
    }
    d.graph(g)?.nodes.push(Node { handle: node, work, deps, enabled: true, origin: node });
    Ok(node)
}

/// `graph` with new nodes: fresh handles, the same edges, each remembering its
/// original (cuGraphNodeFindInClone), so that no handle names two nodes.
fn copy_of(d: &mut Driver, mut graph: Graph) -> Graph {
    let renamed: Vec<(u64, u64)> = graph.nodes.iter().map(|n| (n.handle, d.handle())).collect();
    let rename = |h: u64| renamed.iter().find(|r| r.0 == h).map_or(h, |r| r.1);
    for n in &mut graph.nodes {
        n.origin = n.handle;
        n.handle = rename(n.handle);
        n.deps = n.deps.iter().map(|&x| rename(x)).collect();
    }
    graph
}

fn add(g: Handle, deps: *const Handle, n: usize, work: Work) -> Result<u64, CUresult> {
    state::with(|d| add_node(d, g, deps, n, work))
}

/// Writes `list` to the caller's array `out` of `*count` handles (or only the count
/// when `out` is NULL), and the number of them to `*count`, as cuda.h's queries do.
fn hand_out(list: &[u64], out: *mut Handle, count: *mut usize) -> Result<(), CUresult> {
    if count.is_null() {
        return Err(error::INVALID_VALUE);
    }
    if !out.is_null() {
        // SAFETY: a non-NULL in-out count.
        let room = unsafe { *count };
        for (k, &h) in list.iter().take(room).enumerate() {
            // SAFETY: the caller's array holds `room` handles.
            unsafe { out.add(k).write(h as Handle) };
        }
        for k in list.len()..room {
            // SAFETY: as above; the rest are NULL, as CUDA writes them.
            unsafe { out.add(k).write(std::ptr::null_mut()) };
        }
    }
    crate::out(count, list.len())
}

/// The nodes of the graph of `node` that depend on it.
fn dependents(d: &Driver, node: Handle) -> Result<Vec<u64>, CUresult> {
    let (g, _) = find(d, node)?;
    Ok(d.graphs[&g].nodes.iter().filter(|n| n.deps.contains(&(node as u64))).map(|n| n.handle).collect())
}

/// The edges of graph `g`, as (from, to) pairs.
fn edges(graph: &Graph) -> Vec<(u64, u64)> {
    graph.nodes.iter().flat_map(|n| n.deps.iter().map(move |&from| (from, n.handle))).collect()
}

/// Changes the parameters of node `node` to `work`, of the same kind.
fn set_params(node: Handle, work: Work) -> Result<(), CUresult> {
    state::with(|d| {
        let n = node_mut(d, node)?;
        if node_type(&n.work) != node_type(&work) {
            return Err(crate::fail(error::INVALID_VALUE, "a node's parameters can change, not its kind"));
        }
        n.work = work;
        Ok(())
    })
}

/// Node `node`'s work, cloned.
fn work_of(node: Handle) -> Result<Work, CUresult> {
    state::with(|d| Ok(node_mut(d, node)?.work.clone()))
}

/// Writes a kernel node's parameters (`v1`: the first 56 bytes).
fn kernel_params_out(node: Handle, out: *mut KernelNodeParams, v1: bool) -> Result<(), CUresult> {
    if out.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let p = match work_of(node)? {
        Work::Kernel { made: Some(p), .. } => p,
        Work::Kernel { made: None, .. } => {
            let why = "a captured kernel node's parameters were packed, not kept: read them from the launch";
            return Err(crate::fail(error::NOT_SUPPORTED, why));
        }
        _ => return Err(crate::fail(error::INVALID_VALUE, format!("{node:?} is not a kernel node"))),
    };
    let bytes = if v1 { 56 } else { size_of::<KernelNodeParams>() };
    // SAFETY: a non-NULL `CUDA_KERNEL_NODE_PARAMS*` of the variant's size.
    unsafe { std::ptr::copy_nonoverlapping((&raw const p).cast::<u8>(), out.cast::<u8>(), bytes) };
    Ok(())
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

    fn cuGraphDestroy(h_graph: Handle) {
        state::with(|d| {
            let g = d.graphs.remove(&(h_graph as u64)).ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h_graph:?} is not a graph")))?;
            d.release_graph(&g);
            Ok(())
        })
    }

    fn cuGraphClone(ph_graph_clone: *mut Handle, original_graph: Handle) {
        let g = state::with(|d| {
            let original = d.graph(original_graph)?.clone();
            let copy = copy_of(d, original);
            d.hold_graph(&copy);
            let g = d.handle();
            d.graphs.insert(g, copy);
            Ok(g)
        })?;
        crate::out(ph_graph_clone, g as Handle)
    }

    fn cuGraphAddKernelNode_v2(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, node_params: *const KernelNodeParams) {
        let node = state::with(|d| {
            let work = super::kernel_work(d, node_params, false)?;
            add_node(d, h_graph, dependencies, num_dependencies, work)
        })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddKernelNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, node_params: *const KernelNodeParams) {
        let node = state::with(|d| {
            let work = super::kernel_work(d, node_params, true)?;
            add_node(d, h_graph, dependencies, num_dependencies, work)
        })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddMemcpyNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, copy_params: *const Memcpy3D, ctx: Handle) {
        let _ = ctx;
        let node = add(h_graph, dependencies, num_dependencies, super::memcpy3d(copy_params)?)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddMemsetNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, memset_params: *const MemsetNodeParams, ctx: Handle) {
        let _ = ctx;
        let node = add(h_graph, dependencies, num_dependencies, super::memset(memset_params)?)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddHostNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, node_params: *const HostNodeParams) {
        let node = add(h_graph, dependencies, num_dependencies, super::host(node_params)?)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddEmptyNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize) {
        let node = add(h_graph, dependencies, num_dependencies, Work::Empty)?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddChildGraphNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, child_graph: Handle) {
        let node = state::with(|d| {
            // The node holds a copy of the graph, whose nodes are its own.
            let child = d.graph(child_graph)?.clone();
            let child = copy_of(d, child);
            add_node(d, h_graph, dependencies, num_dependencies, Work::Child(child))
        })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddEventRecordNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, event: Handle) {
        let node = state::with(|d| {
            crate::stream::check_event(d, event)?;
            add_node(d, h_graph, dependencies, num_dependencies, Work::EventRecord(event as u64))
        })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddEventWaitNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, event: Handle) {
        let node = state::with(|d| {
            crate::stream::check_event(d, event)?;
            add_node(d, h_graph, dependencies, num_dependencies, Work::EventWait(event as u64))
        })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddMemAllocNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, node_params: *mut MemAllocNodeParams) {
        if node_params.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_MEM_ALLOC_NODE_PARAMS*`, whose dptr is written.
        let bytes = unsafe { (*node_params).bytesize };
        if bytes == 0 {
            return Err(error::INVALID_VALUE);
        }
        let (node, addr) = state::with(|d| {
            d.graph(h_graph)?;
            let addr = crate::memory::alloc(d, bytes, MemKind::Device, "cuGraphAddMemAllocNode")?;
            d.hold(&[addr]);
            match add_node(d, h_graph, dependencies, num_dependencies, Work::MemAlloc { addr, bytes }) {
                Ok(node) => Ok((node, addr)),
                Err(e) => {
                    d.release(&[addr]);
                    Err(e)
                }
            }
        })?;
        // SAFETY: as above.
        unsafe { (*node_params).dptr = addr };
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphAddMemFreeNode(ph_graph_node: *mut Handle, h_graph: Handle, dependencies: *const Handle, num_dependencies: usize, dptr: u64) {
        let node = state::with(|d| {
            if !d.allocs.contains_key(&dptr) {
                return Err(crate::fail(error::INVALID_VALUE, format!("0x{dptr:x} is not the start of an allocation")));
            }
            add_node(d, h_graph, dependencies, num_dependencies, Work::MemFree(dptr))
        })?;
        crate::out(ph_graph_node, node as Handle)
    }

    fn cuGraphMemAllocNodeGetParams(h_node: Handle, params_out: *mut MemAllocNodeParams) {
        let Work::MemAlloc { addr, bytes } = work_of(h_node)? else {
            return Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a memory allocation node")));
        };
        crate::out(params_out, MemAllocNodeParams { pool_props: [0; 88], access_descs: std::ptr::null(), access_desc_count: 0, bytesize: bytes, dptr: addr })
    }

    fn cuGraphMemFreeNodeGetParams(h_node: Handle, dptr_out: *mut u64) {
        let Work::MemFree(addr) = work_of(h_node)? else {
            return Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a memory free node")));
        };
        crate::out(dptr_out, addr)
    }

    fn cuGraphKernelNodeGetParams_v2(h_node: Handle, node_params: *mut KernelNodeParams) {
        kernel_params_out(h_node, node_params, false)
    }

    fn cuGraphKernelNodeGetParams(h_node: Handle, node_params: *mut KernelNodeParams) {
        kernel_params_out(h_node, node_params, true)
    }

    fn cuGraphKernelNodeSetParams_v2(h_node: Handle, node_params: *const KernelNodeParams) {
        let work = state::with(|d| super::kernel_work(d, node_params, false))?;
        set_params(h_node, work)
    }

    fn cuGraphKernelNodeSetParams(h_node: Handle, node_params: *const KernelNodeParams) {
        let work = state::with(|d| super::kernel_work(d, node_params, true))?;
        set_params(h_node, work)
    }

    fn cuGraphMemcpyNodeGetParams(h_node: Handle, node_params: *mut Memcpy3D) {
        match work_of(h_node)? {
            Work::Copy3D(m) => crate::out(node_params, m),
            _ => Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a memcpy node made with CUDA_MEMCPY3D"))),
        }
    }

    fn cuGraphMemcpyNodeSetParams(h_node: Handle, node_params: *const Memcpy3D) {
        set_params(h_node, super::memcpy3d(node_params)?)
    }

    fn cuGraphMemsetNodeGetParams(h_node: Handle, node_params: *mut MemsetNodeParams) {
        let Work::Fill { dst, pitch, pattern, width, height } = work_of(h_node)? else {
            return Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a memset node")));
        };
        let mut value = [0u8; 4];
        value[..pattern.len()].copy_from_slice(&pattern);
        crate::out(node_params, MemsetNodeParams { dst, pitch, value: u32::from_le_bytes(value), element_size: pattern.len() as u32, width, height })
    }

    fn cuGraphMemsetNodeSetParams(h_node: Handle, node_params: *const MemsetNodeParams) {
        set_params(h_node, super::memset(node_params)?)
    }

    fn cuGraphHostNodeGetParams(h_node: Handle, node_params: *mut HostNodeParams) {
        let Work::Host { func, data } = work_of(h_node)? else {
            return Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a host node")));
        };
        crate::out(node_params, HostNodeParams { func: Some(func), user_data: data as *mut c_void })
    }

    fn cuGraphHostNodeSetParams(h_node: Handle, node_params: *const HostNodeParams) {
        set_params(h_node, super::host(node_params)?)
    }

    fn cuGraphChildGraphNodeGetGraph(h_node: Handle, ph_graph: *mut Handle) {
        // The child is the node's own graph, reachable by handle while the node is.
        let g = state::with(|d| {
            let (parent, k) = find(d, h_node)?;
            let Work::Child(child) = &d.graphs[&parent].nodes[k].work else {
                return Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not a child graph node")));
            };
            let child = child.clone();
            // The view holds what its graph holds, as any graph does (its
            // destruction releases them).
            d.hold_graph(&child);
            if let Some((&g, _)) = d.child_views.iter().find(|(_, n)| **n == h_node as u64) {
                if let Some(old) = d.graphs.insert(g, child) {
                    d.release_graph(&old);
                }
                return Ok(g);
            }
            let g = d.handle();
            d.child_views.insert(g, h_node as u64);
            d.graphs.insert(g, child);
            Ok(g)
        })?;
        crate::out(ph_graph, g as Handle)
    }

    fn cuGraphEventRecordNodeGetEvent(h_node: Handle, event_out: *mut Handle) {
        match work_of(h_node)? {
            Work::EventRecord(e) => crate::out(event_out, e as Handle),
            _ => Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not an event record node"))),
        }
    }

    fn cuGraphEventRecordNodeSetEvent(h_node: Handle, event: Handle) {
        state::with(|d| crate::stream::check_event(d, event))?;
        set_params(h_node, Work::EventRecord(event as u64))
    }

    fn cuGraphEventWaitNodeGetEvent(h_node: Handle, event_out: *mut Handle) {
        match work_of(h_node)? {
            Work::EventWait(e) => crate::out(event_out, e as Handle),
            _ => Err(crate::fail(error::INVALID_VALUE, format!("{h_node:?} is not an event wait node"))),
        }
    }

    fn cuGraphEventWaitNodeSetEvent(h_node: Handle, event: Handle) {
        state::with(|d| crate::stream::check_event(d, event))?;
        set_params(h_node, Work::EventWait(event as u64))
    }

    fn cuGraphNodeGetType(h_node: Handle, type_: *mut u32) {
        let t = node_type(&work_of(h_node)?);
        crate::out(type_, t)
    }

    fn cuGraphGetNodes(h_graph: Handle, nodes: *mut Handle, num_nodes: *mut usize) {
        let list: Vec<u64> = state::with(|d| Ok(d.graph(h_graph)?.nodes.iter().map(|n| n.handle).collect()))?;
        hand_out(&list, nodes, num_nodes)
    }

    fn cuGraphGetRootNodes(h_graph: Handle, root_nodes: *mut Handle, num_root_nodes: *mut usize) {
        let list: Vec<u64> = state::with(|d| Ok(d.graph(h_graph)?.nodes.iter().filter(|n| n.deps.is_empty()).map(|n| n.handle).collect()))?;
        hand_out(&list, root_nodes, num_root_nodes)
    }

    fn cuGraphGetEdges(h_graph: Handle, from: *mut Handle, to: *mut Handle, num_edges: *mut usize) {
        let list = state::with(|d| Ok(edges(d.graph(h_graph)?)))?;
        let (a, b): (Vec<u64>, Vec<u64>) = list.into_iter().unzip();
        if from.is_null() != to.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: reading the in-out count before `hand_out` writes it.
        let room = if num_edges.is_null() { 0 } else { unsafe { *num_edges } };
        hand_out(&a, from, num_edges)?;
        crate::out(num_edges, room)?;
        hand_out(&b, to, num_edges)
    }

    fn cuGraphNodeGetDependencies(h_node: Handle, dependencies: *mut Handle, num_dependencies: *mut usize) {
        let list = state::with(|d| Ok(node_mut(d, h_node)?.deps.clone()))?;
        hand_out(&list, dependencies, num_dependencies)
    }

    fn cuGraphNodeGetDependentNodes(h_node: Handle, dependent_nodes: *mut Handle, num_dependent_nodes: *mut usize) {
        let list = state::with(|d| dependents(d, h_node))?;
        hand_out(&list, dependent_nodes, num_dependent_nodes)
    }

    fn cuGraphAddDependencies(h_graph: Handle, from: *const Handle, to: *const Handle, num_dependencies: usize) {
        if num_dependencies > 0 && (from.is_null() || to.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            let graph = d.graph(h_graph)?;
            // Every edge is checked before any is added: a refused call changes nothing.
            let mut edges = Vec::with_capacity(num_dependencies);
            for k in 0..num_dependencies {
                // SAFETY: the caller passes `num_dependencies` of each (checked non-NULL).
                let (f, t) = unsafe { (*from.add(k) as u64, *to.add(k) as u64) };
                let fi = graph.nodes.iter().position(|n| n.handle == f);
                let ti = graph.nodes.iter().position(|n| n.handle == t);
                match (fi, ti) {
                    // ptxvm runs nodes in the order they were added: an edge must
                    // point forward in it.
                    (Some(a), Some(b)) if a < b => edges.push((f, b)),
                    (Some(_), Some(_)) => {
                        return Err(crate::fail(error::NOT_SUPPORTED, "an edge to a node added earlier than its source: ptxvm runs a graph's nodes in the order they were added"));
                    }
                    _ => return Err(crate::fail(error::INVALID_VALUE, "an edge names a node that is not in the graph")),
                }
            }
            for (f, b) in edges {
                if !graph.nodes[b].deps.contains(&f) {
                    graph.nodes[b].deps.push(f);
                }
            }
            Ok(())
        })
    }

    fn cuGraphRemoveDependencies(h_graph: Handle, from: *const Handle, to: *const Handle, num_dependencies: usize) {
        if num_dependencies > 0 && (from.is_null() || to.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            let graph = d.graph(h_graph)?;
            for k in 0..num_dependencies {
                // SAFETY: the caller passes `num_dependencies` of each.
                let (f, t) = unsafe { (*from.add(k) as u64, *to.add(k) as u64) };
                let n = graph.node_mut(t).ok_or_else(|| crate::fail(error::INVALID_VALUE, "an edge names a node that is not in the graph"))?;
                let before = n.deps.len();
                n.deps.retain(|&x| x != f);
                if n.deps.len() == before {
                    return Err(crate::fail(error::INVALID_VALUE, format!("there is no edge from 0x{f:x} to 0x{t:x}")));
                }
            }
            Ok(())
        })
    }

    fn cuGraphGetEdges_v2(h_graph: Handle, from: *mut Handle, to: *mut Handle, edge_data: *mut u64, num_edges: *mut usize) {
        // SAFETY: the same arguments, passed on.
        with_plain_edges(from.is_null(), edge_data, num_edges, || unsafe { cuGraphGetEdges(h_graph, from, to, num_edges) })
    }

    fn cuGraphNodeGetDependencies_v2(h_node: Handle, dependencies: *mut Handle, edge_data: *mut u64, num_dependencies: *mut usize) {
        // SAFETY: the same arguments, passed on.
        with_plain_edges(dependencies.is_null(), edge_data, num_dependencies, || unsafe { cuGraphNodeGetDependencies(h_node, dependencies, num_dependencies) })
    }

    fn cuGraphNodeGetDependentNodes_v2(h_node: Handle, dependent_nodes: *mut Handle, edge_data: *mut u64, num_dependent_nodes: *mut usize) {
        // SAFETY: the same arguments, passed on.
        with_plain_edges(dependent_nodes.is_null(), edge_data, num_dependent_nodes, || unsafe { cuGraphNodeGetDependentNodes(h_node, dependent_nodes, num_dependent_nodes) })
    }

    fn cuGraphAddDependencies_v2(h_graph: Handle, from: *const Handle, to: *const Handle, edge_data: *const u64, num_dependencies: usize) {
        check_plain_edges(edge_data, num_dependencies)?;
        // SAFETY: the same arguments, passed on.
        let code = unsafe { cuGraphAddDependencies(h_graph, from, to, num_dependencies) };
        if code == error::SUCCESS { Ok(()) } else { Err(code) }
    }

    fn cuGraphRemoveDependencies_v2(h_graph: Handle, from: *const Handle, to: *const Handle, edge_data: *const u64, num_dependencies: usize) {
        check_plain_edges(edge_data, num_dependencies)?;
        // SAFETY: the same arguments, passed on.
        let code = unsafe { cuGraphRemoveDependencies(h_graph, from, to, num_dependencies) };
        if code == error::SUCCESS { Ok(()) } else { Err(code) }
    }

    fn cuGraphNodeGetContainingGraph(h_node: Handle, ph_graph: *mut Handle) {
        let g = state::with(|d| find(d, h_node).map(|(g, _)| g))?;
        crate::out(ph_graph, g as Handle)
    }

    fn cuGraphNodeFindInClone(ph_node: *mut Handle, h_original_node: Handle, h_cloned_graph: Handle) {
        let n = state::with(|d| {
            let original = h_original_node as u64;
            let clone = d.graph(h_cloned_graph)?;
            clone
                .nodes
                .iter()
                .find(|n| n.origin == original)
                .map(|n| n.handle)
                .ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("{h_original_node:?} has no copy in the graph")))
        })?;
        crate::out(ph_node, n as Handle)
    }

    fn cuGraphGetId(h_graph: Handle, graph_id: *mut u32) {
        state::with(|d| d.graph(h_graph).map(|_| ()))?;
        // Handles are never reused: the handle's number serves as the ID.
        crate::out(graph_id, (h_graph as u64 >> 4) as u32)
    }

    fn cuGraphDestroyNode(h_node: Handle) {
        state::with(|d| {
            let (g, k) = find(d, h_node)?;
            let graph = d.graphs.get_mut(&g).expect("found above");
            let node = graph.nodes.remove(k);
            for n in &mut graph.nodes {
                n.deps.retain(|&x| x != node.handle);
            }
            let held = match &node.work {
                Work::MemAlloc { addr, .. } => vec![*addr],
                Work::Child(c) => c.allocations(),
                _ => Vec::new(),
            };
            d.release(&held);
            Ok(())
        })
    }

    fn cuGraphDebugDotPrint(h_graph: Handle, path: *const std::ffi::c_char, flags: u32) {
        let _ = flags;
        let path = crate::c_string(path)?;
        let dot = state::with(|d| {
            let graph = d.graph(h_graph)?;
            let mut dot = format!("digraph ptxvm_graph_{:x} {{\n", h_graph as u64);
            for n in &graph.nodes {
                dot += &format!("  n{:x} [label=\"{} 0x{:x}\"];\n", n.handle, NAMES[node_type(&n.work) as usize], n.handle);
            }
            for (f, t) in edges(graph) {
                dot += &format!("  n{f:x} -> n{t:x};\n");
            }
            dot += "}\n";
            Ok(dot)
        })?;
        std::fs::write(path, dot).map_err(|e| crate::fail(error::OPERATING_SYSTEM, format!("{path}: {e}")))
    }
}

/// A `_v2` node query: runs `query` (the form without edge data, which writes the
/// nodes and `*count`), then the plain edge data of as many nodes as it wrote; a
/// count query (`count_only`: no node array) writes none.
fn with_plain_edges(
    count_only: bool,
    edge_data: *mut u64,
    count: *mut usize,
    query: impl FnOnce() -> CUresult,
) -> Result<(), CUresult> {
    // SAFETY: the caller's in-out count, read before the query writes it.
    let room = if count.is_null() { 0 } else { unsafe { *count } };
    let code = query();
    if code != error::SUCCESS {
        return Err(code);
    }
    // SAFETY: the query succeeded, so `count` is valid and written.
    let written = if count_only { 0 } else { room.min(unsafe { *count }) };
    plain_edges(edge_data, written)
}

/// Fills `written` edge data entries (`CUgraphEdgeData`, 8 bytes each) with the
/// plain edge's zeros: every edge of a ptxvm graph is one.
fn plain_edges(edge_data: *mut u64, written: usize) -> Result<(), CUresult> {
    if !edge_data.is_null() {
        for k in 0..written {
            // SAFETY: the caller's edge data array holds as many entries as its node array.
            unsafe { edge_data.add(k).write(0) };
        }
    }
    Ok(())
}

/// Edge data other than plain edges (ports, programmatic dependencies) is refused.
fn check_plain_edges(edge_data: *const u64, n: usize) -> Result<(), CUresult> {
    if edge_data.is_null() {
        return Ok(());
    }
    for k in 0..n {
        // SAFETY: the caller passes `n` entries.
        if unsafe { *edge_data.add(k) } != 0 {
            return Err(crate::fail(
                error::NOT_SUPPORTED,
                "edge data other than a plain dependency (ports, programmatic launches)",
            ));
        }
    }
    Ok(())
}

/// Node kinds by `CUgraphNodeType`, for the DOT output.
const NAMES: [&str; 14] = [
    "kernel",
    "memcpy",
    "memset",
    "host",
    "graph",
    "empty",
    "wait event",
    "event record",
    "signal",
    "wait",
    "mem alloc",
    "mem free",
    "batch mem op",
    "conditional",
];
