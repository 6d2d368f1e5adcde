//! The driver's state: one simulated device (a [`ptxvm::api::Device`] with unified
//! addressing), the contexts on it, and every object handed to C by handle.
//!
//! A handle is a number from one counter that never repeats, looked up in the map of
//! its kind: a handle of another kind, a destroyed object's or a made-up one is simply
//! not there, and the call answers `CUDA_ERROR_INVALID_HANDLE` (or `_CONTEXT`). All
//! state sits behind one lock; a launch holds it while the kernel runs, and callbacks
//! into the program run without it.

use crate::error;
use crate::types::CUresult;
use ptxvm::api::{Device, Kernel, Module};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// A context: what CUDA keeps per context that a program can observe.
pub struct Context {
    pub flags: u32,
    /// The error a kernel fault left: every later call that uses the context gets it.
    pub sticky: Option<CUresult>,
    /// `cuCtxSetLimit` values by `CUlimit`.
    pub limits: HashMap<u32, u64>,
    /// What NVIDIA's runtime keeps with the context (context-local storage).
    pub storage: Vec<crate::export::storage::Stored>,
}

/// What kind of memory an allocation is, as pointer queries report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemKind {
    Device,
    /// Page-locked host memory (`cuMemAllocHost`, `cuMemHostAlloc`), with its flags.
    Host(u32),
    Managed,
    /// Host memory the program registered (`cuMemHostRegister`), with its flags.
    Registered(u32),
}

pub struct Alloc {
    pub ctx: u64,
    pub kind: MemKind,
    pub bytes: u64,
    /// The memory pool it came from (`cuMemAllocAsync`), or 0.
    pub pool: u64,
}

/// A memory pool (`cuMemPoolCreate`, or the device's default): its attributes and
/// what its allocations hold now and at most.
#[derive(Default)]
pub struct Pool {
    /// `CU_MEMPOOL_ATTR_REUSE_*`, by attribute number (1 to 3).
    pub reuse: [i32; 3],
    pub release_threshold: u64,
    pub used: u64,
    pub used_high: u64,
    pub max_size: u64,
}

pub struct ModuleEntry {
    pub ctx: u64,
    pub module: Arc<Module>,
    /// How reports name the module's source: the file it came from, or
    /// `module-N.ptx` for data.
    pub file: String,
    /// Kernel name to function handle, so that a name gives the same handle twice.
    pub functions: HashMap<String, u64>,
}

pub struct FunctionEntry {
    pub module: u64,
    pub kernel: Kernel,
    /// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`.
    pub max_dynamic_shared: u32,
    /// Other attributes a program set, by `CUfunction_attribute`.
    pub attributes: HashMap<u32, i32>,
}

pub struct StreamEntry {
    pub ctx: u64,
    pub flags: u32,
    pub priority: i32,
    /// The capture the stream records into, while it captures.
    pub capture: Option<Capture>,
    /// Attribute values set with `cuStreamSetAttribute` (`CUstreamAttrValue`), by
    /// attribute; others read as zeros.
    pub attributes: HashMap<u32, [u8; 64]>,
}

/// A stream's part in a capture: the graph, and the nodes its next work depends on.
#[derive(Clone)]
pub struct Capture {
    pub graph: u64,
    pub deps: Vec<u64>,
    /// Whether the capture began on this stream (rather than the stream joining it
    /// by waiting on a captured event).
    pub origin: bool,
    /// The edge data `cuStreamGetCaptureInfo_v3` hands out: one plain (zero)
    /// `CUgraphEdgeData` per dependency, kept as long as the dependencies are.
    pub edge_data: Vec<u64>,
}

pub struct EventEntry {
    pub ctx: u64,
    pub flags: u32,
    /// When it was last recorded (work runs as it is enqueued, so a record completes
    /// at once).
    pub recorded: Option<Instant>,
    /// The graph and node of its last record, when a capturing stream recorded it.
    pub captured: Option<(u64, u64)>,
}

pub struct Driver {
    pub device: Device,
    next: u64,
    pub contexts: HashMap<u64, Context>,
    /// The primary context and how many retains hold it.
    pub primary: Option<(u64, u32)>,
    pub primary_flags: u32,
    pub allocs: HashMap<u64, Alloc>,
    pub modules: HashMap<u64, ModuleEntry>,
    pub functions: HashMap<u64, FunctionEntry>,
    pub streams: HashMap<u64, StreamEntry>,
    pub events: HashMap<u64, EventEntry>,
    /// Modules loaded from data so far, to name them in reports.
    pub loaded: u64,
    /// Each library's module.
    pub libraries: HashMap<u64, u64>,
    pub pools: HashMap<u64, Pool>,
    /// The device's default pool (made on first use) and its current pool.
    pub default_pool: u64,
    pub current_pool: u64,
    pub graphs: HashMap<u64, crate::graph::Graph>,
    /// Instantiated graphs.
    pub execs: HashMap<u64, crate::graph::exec::Exec>,
    /// Memory that graphs allocated, and how many graphs and instantiations hold it.
    pub graph_allocs: HashMap<u64, u32>,
    /// User objects, by handle.
    pub user_objects: HashMap<u64, crate::graph::objects::UserObject>,
    /// The most graphs' own allocations held at once, since it was last reset.
    pub graph_memory_high: u64,
    /// Graph handles given out for child graph nodes (`cuGraphChildGraphNodeGetGraph`),
    /// by node.
    pub child_views: HashMap<u64, u64>,
    /// Virtual memory management: reserved ranges, physical allocations, mappings.
    pub vmm: crate::vmm::Vmm,
    /// What programs advised of managed memory, by allocation base.
    pub advice: HashMap<u64, crate::advise::Advice>,
    /// CUDA arrays, by handle.
    pub arrays: HashMap<u64, crate::array::ArrayEntry>,
    /// Mipmapped arrays: their levels' array handles, level 0 first.
    pub mipmaps: HashMap<u64, Vec<u64>>,
}

static DRIVER: Mutex<Option<Driver>> = Mutex::new(None);

/// A thread's context stack. It has no destructor, so thread-local storage keeps it
/// to the end: a driver call from a static destructor or an `atexit` handler (which
/// run after the thread's other thread-locals are gone) still finds its context.
#[derive(Clone, Copy)]
struct Stack {
    items: [u64; 64],
    len: usize,
}

impl Stack {
    fn top(&self) -> Option<u64> {
        self.len.checked_sub(1).map(|k| self.items[k])
    }

    fn push(&mut self, ctx: u64) {
        // Deeper than any program nests contexts: the bottom one goes.
        if self.len == self.items.len() {
            self.items.copy_within(1.., 0);
            self.len -= 1;
        }
        self.items[self.len] = ctx;
        self.len += 1;
    }

    fn pop(&mut self) -> Option<u64> {
        let top = self.top()?;
        self.len -= 1;
        Some(top)
    }
}

thread_local! {
    /// This thread's context stack; the top is the current context.
    static STACK: Cell<Stack> = const { Cell::new(Stack { items: [0; 64], len: 0 }) };
}

/// Changes this thread's context stack with `f`.
fn with_stack<R>(f: impl FnOnce(&mut Stack) -> R) -> R {
    STACK.with(|s| {
        let mut stack = s.get();
        let r = f(&mut stack);
        s.set(stack);
        r
    })
}

/// The driver's state, locked.
fn lock() -> MutexGuard<'static, Option<Driver>> {
    DRIVER.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the driver (`cuInit`); a second call does nothing.
pub fn init() {
    let mut d = lock();
    if d.is_none() {
        *d = Some(Driver {
            device: Device::unified(),
            next: 0x1000,
            contexts: HashMap::new(),
            primary: None,
            primary_flags: 0,
            allocs: HashMap::new(),
            modules: HashMap::new(),
            functions: HashMap::new(),
            streams: HashMap::new(),
            events: HashMap::new(),
            loaded: 0,
            libraries: HashMap::new(),
            pools: HashMap::new(),
            default_pool: 0,
            current_pool: 0,
            graphs: HashMap::new(),
            execs: HashMap::new(),
            graph_allocs: HashMap::new(),
            child_views: HashMap::new(),
            user_objects: HashMap::new(),
            graph_memory_high: 0,
            vmm: crate::vmm::Vmm::default(),
            advice: HashMap::new(),
            arrays: HashMap::new(),
            mipmaps: HashMap::new(),
        });
    }
}

/// Runs `f` on the driver's state.
///
/// # Errors
/// `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`, or what `f` returns.
pub fn with<R>(f: impl FnOnce(&mut Driver) -> Result<R, CUresult>) -> Result<R, CUresult> {
    let mut d = lock();
    match d.as_mut() {
        Some(d) => f(d),
        None => Err(crate::fail(error::NOT_INITIALIZED, "cuInit has not been called")),
    }
}

/// This thread's current context handle, if any (not checked).
pub fn top() -> Option<u64> {
    STACK.with(|s| s.get().top())
}

/// Replaces the current context (`cuCtxSetCurrent`): the top of the stack, or
/// nothing with 0.
pub fn set_top(ctx: u64) {
    with_stack(|s| {
        s.pop();
        if ctx != 0 {
            s.push(ctx);
        }
    });
}

pub fn push(ctx: u64) {
    with_stack(|s| s.push(ctx));
}

pub fn pop() -> Option<u64> {
    with_stack(Stack::pop)
}

impl Driver {
    /// A new handle, never handed out before.
    pub fn handle(&mut self) -> u64 {
        self.next += 0x10;
        self.next
    }

    /// The current context's handle.
    ///
    /// # Errors
    /// `CUDA_ERROR_INVALID_CONTEXT` when there is none, or it was destroyed.
    pub fn current(&self) -> Result<u64, CUresult> {
        match top() {
            Some(c) if self.contexts.contains_key(&c) => Ok(c),
            Some(_) => Err(crate::fail(error::INVALID_CONTEXT, "the current context was destroyed")),
            None => Err(crate::fail(
                error::INVALID_CONTEXT,
                "no current context (cuCtxCreate or cuCtxSetCurrent first)",
            )),
        }
    }

    /// The current context, for a call that uses it: its sticky error, if a kernel
    /// faulted in it, ends the call.
    ///
    /// # Errors
    /// As [`Driver::current`], or the sticky error.
    pub fn ctx(&mut self) -> Result<u64, CUresult> {
        let c = self.current()?;
        match self.contexts[&c].sticky {
            Some(code) => Err(code),
            None => Ok(c),
        }
    }

    /// The current context if there is one, for a call that may run without one
    /// (libraries are context-independent): its sticky error ends the call.
    ///
    /// # Errors
    /// The current context's sticky error.
    pub fn sticky(&self) -> Result<Option<u64>, CUresult> {
        match top().and_then(|c| self.contexts.get(&c).map(|x| (c, x.sticky))) {
            Some((_, Some(code))) => Err(code),
            Some((c, None)) => Ok(Some(c)),
            None => Ok(None),
        }
    }

    /// Destroys context `c` and everything made in it.
    pub fn destroy_context(&mut self, c: u64) {
        self.clear_context(c);
        self.contexts.remove(&c);
    }

    /// Frees everything made in context `c` (its memory, modules, streams and events).
    pub fn clear_context(&mut self, c: u64) {
        let addrs: Vec<u64> = self.allocs.iter().filter(|(_, a)| a.ctx == c).map(|(&k, _)| k).collect();
        for addr in addrs {
            self.free(addr);
        }
        let modules: Vec<u64> = self.modules.iter().filter(|(_, m)| m.ctx == c).map(|(&k, _)| k).collect();
        for m in modules {
            self.unload(m);
        }
        self.streams.retain(|_, s| s.ctx != c);
        self.events.retain(|_, e| e.ctx != c);
        // Arrays' texels were allocations of the context, freed above.
        self.arrays.retain(|_, a| a.ctx != c);
        let arrays = &self.arrays;
        self.mipmaps.retain(|_, levels| levels.iter().all(|l| arrays.contains_key(l)));
    }

    /// Frees the allocation at `addr` (any kind), forgetting it.
    pub fn free(&mut self, addr: u64) -> Option<Alloc> {
        let a = self.allocs.remove(&addr)?;
        self.advice.remove(&addr);
        // A graph that held it must not free the address again once reused.
        self.graph_allocs.remove(&addr);
        if let Some(p) = self.pools.get_mut(&a.pool) {
            p.used -= a.bytes;
        }
        let _ = match a.kind {
            MemKind::Registered(_) => self.device.take_back(addr),
            _ => self.device.free(addr),
        };
        Some(a)
    }

    /// Unloads module `m` and its functions.
    pub fn unload(&mut self, m: u64) -> Option<ModuleEntry> {
        let entry = self.modules.remove(&m)?;
        self.functions.retain(|_, f| f.module != m);
        self.device.unload(&entry.module);
        Some(entry)
    }

    /// Whether `stream` names a stream of the current context, or a default stream.
    ///
    /// # Errors
    /// `CUDA_ERROR_INVALID_HANDLE` otherwise.
    pub fn check_stream(&self, stream: u64) -> Result<(), CUresult> {
        // NULL, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD.
        if stream <= 2 || self.streams.contains_key(&stream) {
            Ok(())
        } else {
            Err(crate::fail(error::INVALID_HANDLE, format!("0x{stream:x} is not a stream")))
        }
    }
}
