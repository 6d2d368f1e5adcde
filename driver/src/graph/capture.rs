//! Stream capture: while a stream captures, the work enqueued on it becomes nodes of
//! its graph, each depending on the node before it. An event recorded on a
//! capturing stream carries the capture: a stream that waits on it joins the
//! capture (CUDA's fork), and the streams' work meets again where the first stream
//! waits on an event recorded on the other (the join). Ending the capture on the
//! stream that began it ends it on every stream that joined.

use super::{Node, Work};
use crate::error;
use crate::state::{self, Capture, Driver};
use crate::types::{CUresult, Handle};

/// `CUstreamCaptureStatus`.
const STATUS_NONE: u32 = 0;
const STATUS_ACTIVE: u32 = 1;

/// Adds `work` to the graph `stream` captures, after the stream's last captured
/// work; gives it back when the stream does not capture (it runs then).
pub fn record(stream: u64, work: Work) -> Result<Option<Work>, CUresult> {
    state::with(|d| {
        d.check_stream(stream)?;
        if d.streams.get(&stream).is_none_or(|s| s.capture.is_none()) {
            return Ok(Some(work));
        }
        append(d, stream, work)?;
        Ok(None)
    })
}

/// Appends `work` to the graph capturing `stream` captures into; returns the node.
pub fn append(d: &mut Driver, stream: u64, work: Work) -> Result<u64, CUresult> {
    let Some(c) = d.streams.get(&stream).and_then(|s| s.capture.clone()) else {
        return Err(crate::fail(error::ILLEGAL_STATE, "the stream is not capturing"));
    };
    let node = d.handle();
    // A child graph's allocations are held once the node is in the graph.
    let held = if let Work::Child(child) = &work { child.allocations() } else { Vec::new() };
    let graph = d.graphs.get_mut(&c.graph).ok_or_else(|| {
        crate::fail(error::INVALID_HANDLE, "the graph the stream captures into was destroyed")
    })?;
    graph.nodes.push(Node { handle: node, work, deps: c.deps, enabled: true, origin: node });
    d.hold(&held);
    if let Some(s) = d.streams.get_mut(&stream).and_then(|s| s.capture.as_mut()) {
        s.deps = vec![node];
    }
    Ok(node)
}

/// Whether `stream` captures.
pub fn capturing(d: &Driver, stream: u64) -> bool {
    d.streams.get(&stream).is_some_and(|s| s.capture.is_some())
}

/// An event recorded on `stream`: a node when the stream captures (and the event
/// carries the capture), else the event is recorded now.
pub fn record_event(d: &mut Driver, stream: u64, event: u64) -> Result<(), CUresult> {
    if capturing(d, stream) {
        let node = append(d, stream, Work::EventRecord(event))?;
        let graph = d.streams[&stream].capture.as_ref().map(|c| c.graph);
        if let (Some(e), Some(g)) = (d.events.get_mut(&event), graph) {
            e.captured = Some((g, node));
        }
        return Ok(());
    }
    if let Some(e) = d.events.get_mut(&event) {
        e.recorded = Some(std::time::Instant::now());
        e.captured = None;
    }
    Ok(())
}

/// `stream` waits on `event`: it joins the capture the event carries, or, already
/// capturing into the same graph, its next work also waits on the event's node.
pub fn wait_event(d: &mut Driver, stream: u64, event: u64) -> Result<(), CUresult> {
    let Some((g, node)) = d.events.get(&event).and_then(|e| e.captured) else { return Ok(()) };
    if !d.graphs.contains_key(&g) {
        return Ok(());
    }
    let Some(s) = d.streams.get_mut(&stream) else {
        return Err(crate::fail(
            error::STREAM_CAPTURE_UNSUPPORTED,
            "the default (legacy) stream cannot wait on an event of a capture; create a stream",
        ));
    };
    match &mut s.capture {
        Some(c) if c.graph == g => {
            if !c.deps.contains(&node) {
                c.deps.push(node);
            }
            Ok(())
        }
        Some(_) => {
            Err(crate::fail(error::STREAM_CAPTURE_ISOLATION, "the stream captures into another graph"))
        }
        None => {
            s.capture = Some(Capture { graph: g, deps: vec![node], origin: false, edge_data: Vec::new() });
            Ok(())
        }
    }
}

/// Starts capturing `stream` into graph `g` after `deps`.
fn begin(h_stream: Handle, g: Option<u64>, deps: Vec<u64>) -> Result<(), CUresult> {
    state::with(|d| {
        d.ctx()?;
        d.check_stream(h_stream as u64)?;
        let g = match g {
            Some(g) => g,
            None => {
                let g = d.handle();
                d.graphs.insert(g, super::Graph::default());
                g
            }
        };
        let Some(s) = d.streams.get_mut(&(h_stream as u64)) else {
            return Err(crate::fail(
                error::STREAM_CAPTURE_UNSUPPORTED,
                "the default (legacy) stream cannot capture; create a stream",
            ));
        };
        if s.capture.is_some() {
            return Err(crate::fail(error::ILLEGAL_STATE, "the stream is capturing already"));
        }
        s.capture = Some(Capture { graph: g, deps, origin: true, edge_data: Vec::new() });
        Ok(())
    })
}

/// The capture state of `stream`: status, ID (its graph's handle), graph, current
/// dependencies and their (plain, zero) edge data, both valid until the stream's
/// next call, as CUDA's are.
fn info(h_stream: Handle) -> Result<(u32, u64, u64, *const u64, *const u64, usize), CUresult> {
    state::with(|d| {
        d.check_stream(h_stream as u64)?;
        Ok(match d.streams.get_mut(&(h_stream as u64)).and_then(|s| s.capture.as_mut()) {
            Some(c) => {
                c.edge_data.clear();
                c.edge_data.resize(c.deps.len(), 0);
                (STATUS_ACTIVE, c.graph, c.graph, c.deps.as_ptr(), c.edge_data.as_ptr(), c.deps.len())
            }
            None => (STATUS_NONE, 0, 0, std::ptr::null(), std::ptr::null(), 0),
        })
    })
}

/// Writes what [`info`] gives through the out-pointers that are not NULL.
fn info_out(
    h_stream: Handle,
    status: *mut u32,
    id: *mut u64,
    graph: *mut Handle,
    deps: *mut *const u64,
    edge_data: *mut *const u64,
    n: *mut usize,
) -> Result<(), CUresult> {
    let (s, i, g, p, e, k) = info(h_stream)?;
    crate::out(status, s)?;
    if !id.is_null() {
        crate::out(id, i)?;
    }
    if !graph.is_null() {
        crate::out(graph, g as Handle)?;
    }
    if !deps.is_null() {
        crate::out(deps, p)?;
    }
    if !edge_data.is_null() {
        crate::out(edge_data, e)?;
    }
    if !n.is_null() {
        crate::out(n, k)?;
    }
    Ok(())
}

crate::api! {
    fn cuStreamBeginCapture_v2(h_stream: Handle, mode: u32) also cuStreamBeginCapture_v2_ptsz {
        if mode > 2 {
            return Err(error::INVALID_VALUE);
        }
        begin(h_stream, None, Vec::new())
    }

    fn cuStreamBeginCapture(h_stream: Handle) also cuStreamBeginCapture_ptsz {
        begin(h_stream, None, Vec::new())
    }

    fn cuStreamBeginCaptureToGraph(h_stream: Handle, h_graph: Handle, dependencies: *const Handle, dependency_data: *const u64, num_dependencies: usize, mode: u32) also cuStreamBeginCaptureToGraph_ptsz {
        let _ = dependency_data;
        if mode > 2 || (num_dependencies > 0 && dependencies.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        let deps = state::with(|d| {
            let graph = d.graph(h_graph)?;
            (0..num_dependencies)
                .map(|k| {
                    // SAFETY: the caller passes `num_dependencies` nodes.
                    let n = unsafe { *dependencies.add(k) } as u64;
                    graph.node(n).map(|_| n).ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("0x{n:x} is not a node of the graph")))
                })
                .collect::<Result<Vec<u64>, CUresult>>()
        })?;
        begin(h_stream, Some(h_graph as u64), deps)
    }

    fn cuStreamEndCapture(h_stream: Handle, ph_graph: *mut Handle) also cuStreamEndCapture_ptsz {
        let g = state::with(|d| {
            d.check_stream(h_stream as u64)?;
            let c = d.streams.get(&(h_stream as u64)).and_then(|s| s.capture.clone());
            let c = c.ok_or_else(|| crate::fail(error::ILLEGAL_STATE, "the stream is not capturing"))?;
            if !c.origin {
                return Err(crate::fail(error::STREAM_CAPTURE_UNMATCHED, "the capture ends on the stream that began it"));
            }
            for s in d.streams.values_mut() {
                if s.capture.as_ref().is_some_and(|x| x.graph == c.graph) {
                    s.capture = None;
                }
            }
            // An event recorded in the capture no longer joins a stream to it.
            for e in d.events.values_mut() {
                if e.captured.is_some_and(|(g, _)| g == c.graph) {
                    e.captured = None;
                }
            }
            Ok(c.graph)
        })?;
        crate::out(ph_graph, g as Handle)
    }

    fn cuStreamGetCaptureInfo(h_stream: Handle, capture_status: *mut u32, id: *mut u64) also cuStreamGetCaptureInfo_ptsz {
        info_out(h_stream, capture_status, id, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut())
    }

    fn cuStreamGetCaptureInfo_v2(h_stream: Handle, capture_status: *mut u32, id: *mut u64, graph: *mut Handle, dependencies: *mut *const u64, num_dependencies: *mut usize) also cuStreamGetCaptureInfo_v2_ptsz {
        info_out(h_stream, capture_status, id, graph, dependencies, std::ptr::null_mut(), num_dependencies)
    }

    fn cuStreamGetCaptureInfo_v3(h_stream: Handle, capture_status: *mut u32, id: *mut u64, graph: *mut Handle, dependencies: *mut *const u64, edge_data: *mut *const u64, num_dependencies: *mut usize) also cuStreamGetCaptureInfo_v3_ptsz {
        info_out(h_stream, capture_status, id, graph, dependencies, edge_data, num_dependencies)
    }

    fn cuStreamUpdateCaptureDependencies(h_stream: Handle, dependencies: *const Handle, num_dependencies: usize, flags: u32) also cuStreamUpdateCaptureDependencies_ptsz {
        update_dependencies(h_stream, dependencies, num_dependencies, flags)
    }

    fn cuStreamUpdateCaptureDependencies_v2(h_stream: Handle, dependencies: *const Handle, dependency_data: *const u64, num_dependencies: usize, flags: u32) also cuStreamUpdateCaptureDependencies_v2_ptsz {
        let _ = dependency_data;
        update_dependencies(h_stream, dependencies, num_dependencies, flags)
    }
}

/// `CU_STREAM_ADD_CAPTURE_DEPENDENCIES` (0) or `_SET_` (1) `dependencies`.
fn update_dependencies(
    h_stream: Handle,
    dependencies: *const Handle,
    n: usize,
    flags: u32,
) -> Result<(), CUresult> {
    if flags > 1 || (n > 0 && dependencies.is_null()) {
        return Err(error::INVALID_VALUE);
    }
    state::with(|d| {
        d.check_stream(h_stream as u64)?;
        let Some(c) = d.streams.get(&(h_stream as u64)).and_then(|s| s.capture.clone()) else {
            return Err(crate::fail(error::ILLEGAL_STATE, "the stream is not capturing"));
        };
        let graph = d.graphs.get(&c.graph).ok_or(error::INVALID_HANDLE)?;
        let mut deps = if flags == 1 { Vec::new() } else { c.deps };
        for k in 0..n {
            // SAFETY: the caller passes `n` nodes.
            let node = unsafe { *dependencies.add(k) } as u64;
            if graph.node(node).is_none() {
                return Err(crate::fail(
                    error::INVALID_VALUE,
                    format!("0x{node:x} is not a node of the capture's graph"),
                ));
            }
            if !deps.contains(&node) {
                deps.push(node);
            }
        }
        if let Some(s) = d.streams.get_mut(&(h_stream as u64)).and_then(|s| s.capture.as_mut()) {
            s.deps = deps;
        }
        Ok(())
    })
}
