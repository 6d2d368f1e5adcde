//! The library API, in the style of the CUDA driver API: load a module, allocate and
//! copy device buffers, launch a kernel with a grid, a block and its parameters, read
//! the buffers back. The command line uses only this.

mod args;
mod link;
mod unified;

/// Texture and surface objects: what they read and how (`Device::create_texture`).
pub use crate::exec::texture::{
    AddressMode, ChannelKind, Format, Image, ObjectError, Resource, Sampler, Shape as ArrayShape, Texture,
    check_read,
};
pub use args::{Args, Element, LaunchError};
pub use link::link;
pub use unified::{ParamError, PlaceError, Range};

use crate::check::types::Ty;
use crate::diag::Diagnostic;
use crate::exec::cta::Scratch;
use crate::exec::limits::Limits;
use crate::exec::memory::{GlobalMemory, MemFault};
use crate::exec::threads::Shape;
use crate::exec::warp::Cta;
use crate::launch::Dim3;
use crate::lower::program::{IMAGE_STRIDE, IMAGE_WINDOW, LowerError, Op, Program, lower_module};
use crate::syntax::Span;
use crate::syntax::ast::{FuncKind, Item};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The default step budget of a launch: dynamic warp instructions.
pub const DEFAULT_MAX_STEPS: u64 = 1 << 32;

/// Modules loaded so far in this process: each program's serial number.
static MODULES: AtomicU64 = AtomicU64::new(0);

/// How many modules may be loaded at once: each holds one of the data-image windows
/// between `IMAGE_WINDOW` and device allocations.
pub const MAX_MODULES: usize = 1024;

/// Which image windows loaded modules hold, one bit each.
static WINDOWS: std::sync::Mutex<[u64; MAX_MODULES / 64]> = std::sync::Mutex::new([0; MAX_MODULES / 64]);

/// A data-image window a module holds while it or one of its kernels lives: no other
/// module's variables can be placed at its addresses meanwhile.
struct Window(usize);

impl Window {
    fn take() -> Option<Window> {
        let mut held = WINDOWS.lock().unwrap_or_else(|e| e.into_inner());
        let k = (0..MAX_MODULES).find(|&k| held[k / 64] >> (k % 64) & 1 == 0)?;
        held[k / 64] |= 1 << (k % 64);
        Some(Window(k))
    }

    fn base(&self) -> u64 {
        IMAGE_WINDOW + self.0 as u64 * IMAGE_STRIDE
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        let mut held = WINDOWS.lock().unwrap_or_else(|e| e.into_inner());
        held[self.0 / 64] &= !(1 << (self.0 % 64));
    }
}

/// A validated PTX module.
pub struct Module {
    src: String,
    /// The syntax tree, parsed once by `load` and used by every later stage.
    ast: crate::syntax::ast::Module,
    /// What `check` learned: each instruction's form, for `lower`.
    info: crate::check::ModuleInfo,
    /// The decoded program, made on first use, for the kernels asked for so far.
    program: Mutex<Option<Result<Lowered, LowerError>>>,
    window: Arc<Window>,
    serial: u64,
}

/// The module decoded so far: for some kernels (`None`: all), and how many times
/// before (0 for the first decode).
struct Lowered {
    program: Arc<Program>,
    kernels: Option<Vec<String>>,
    decodes: u32,
}

impl Lowered {
    fn covers(&self, kernel: &str) -> bool {
        self.kernels.as_ref().is_none_or(|ks| ks.iter().any(|k| k == kernel))
    }
}

/// What [`Module::decoded`] must give.
#[derive(Clone, Copy)]
enum Want<'a> {
    /// The module's variables.
    Image,
    Kernel(&'a str),
    All,
}

/// Times a module is decoded for only the kernels asked for; the next kernel asked
/// for decodes it whole: a program that launches many kernels of one module does not decode it
/// once per kernel.
const PARTIAL_DECODES: u32 = 4;

/// A kernel of a decoded module, ready to launch.
#[derive(Clone)]
pub struct Kernel {
    pub name: String,
    /// Each parameter's type, byte offset and size in the parameter buffer.
    pub params: Vec<(Ty, u32, u32)>,
    pub param_bytes: u32,
    program: Arc<Program>,
    func: u32,
    /// Its module's image window, held while the kernel lives.
    _window: Arc<Window>,
}

impl Module {
    /// Parses and validates `src`.
    ///
    /// # Errors
    /// Every diagnostic when the module is not valid PTX.
    pub fn load(src: &str) -> Result<Module, Vec<Diagnostic>> {
        let (ast, info) = crate::parse_and_check(src)?;
        let Some(window) = Window::take() else {
            let msg = format!("cannot load more than {MAX_MODULES} modules at once; unload one first");
            return Err(vec![Diagnostic::new(Span::default(), msg)]);
        };
        Ok(Module {
            src: src.to_string(),
            ast,
            info,
            program: Mutex::new(None),
            window: Arc::new(window),
            serial: MODULES.fetch_add(1, Ordering::Relaxed),
        })
    }

    pub fn source(&self) -> &str {
        &self.src
    }

    /// The names of the module's managed variables (`.global .attribute(.managed)`,
    /// as nvcc declares `__managed__` ones).
    pub fn managed_names(&self) -> Vec<String> {
        self.ast
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Var(v) if v.attrs.iter().any(|a| a.text(&self.src) == ".managed") => Some(v),
                _ => None,
            })
            .flat_map(|v| v.vars.iter().map(|d| d.name.text(&self.src).to_string()))
            .collect()
    }

    /// The names of the module's kernels (`.entry` functions with a body).
    pub fn kernel_names(&self) -> Vec<String> {
        self.ast
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Func(f) if f.kind == FuncKind::Entry && f.body.is_some() => {
                    Some(f.name.text(&self.src).to_string())
                }
                _ => None,
            })
            .collect()
    }

    /// The parameters of kernel `name` as declared (`.param .u64 x`), in order; empty
    /// when there is no such kernel.
    pub fn kernel_param_decls(&self, name: &str) -> Vec<String> {
        let kernel = self.ast.items.iter().find_map(|i| match i {
            Item::Func(f) if f.kind == FuncKind::Entry && f.name.text(&self.src) == name => Some(f),
            _ => None,
        });
        let decl = |p: &crate::syntax::ast::Param| {
            p.span.text(&self.src).split_whitespace().collect::<Vec<_>>().join(" ")
        };
        kernel.map(|f| f.params.iter().map(decl).collect()).unwrap_or_default()
    }

    /// The module decoded for execution, at least as far as `want` needs. Each
    /// kernel asked for decodes the module again for the kernels asked for so far,
    /// [`PARTIAL_DECODES`] times at most; the next decodes all of it.
    fn decoded(&self, want: Want<'_>) -> Result<Arc<Program>, LowerError> {
        let mut slot = self.program.lock().unwrap_or_else(|e| e.into_inner());
        let kernels = match (slot.as_ref(), want) {
            (Some(Err(e)), _) => return Err(e.clone()),
            (Some(Ok(l)), Want::Image) => return Ok(l.program.clone()),
            (Some(Ok(l)), Want::Kernel(k)) if l.covers(k) => return Ok(l.program.clone()),
            (Some(Ok(Lowered { kernels: None, program, .. })), Want::All) => return Ok(program.clone()),
            (None, Want::Image) => Some(Vec::new()),
            (None, Want::Kernel(k)) => Some(vec![k.to_string()]),
            (Some(Ok(Lowered { kernels: Some(ks), decodes, .. })), Want::Kernel(k))
                if *decodes + 1 < PARTIAL_DECODES =>
            {
                Some(ks.iter().cloned().chain([k.to_string()]).collect())
            }
            _ => None,
        };
        let decodes = match slot.as_ref() {
            Some(Ok(l)) => l.decodes + 1,
            _ => 0,
        };
        let names: Option<Vec<&str>> = kernels.as_ref().map(|ks| ks.iter().map(String::as_str).collect());
        let lowered = lower_module(&self.ast, &self.info, &self.src, self.window.base(), names.as_deref())
            .map(|p| Lowered { program: Arc::new(Program { serial: self.serial, ..p }), kernels, decodes });
        let program = lowered.as_ref().map(|l| l.program.clone()).map_err(Clone::clone);
        *slot = Some(lowered);
        program
    }

    /// The whole module decoded for execution.
    ///
    /// # Errors
    /// A [`LowerError`] for the first thing in the module ptxvm cannot run.
    pub fn program(&self) -> Result<Arc<Program>, LowerError> {
        self.decoded(Want::All)
    }

    /// The module's variables (`.global` and `.const`, for [`Device::place_module`]
    /// and [`Device::global`]), its kernels perhaps not decoded.
    fn image(&self) -> Result<Arc<Program>, LowerError> {
        self.decoded(Want::Image)
    }

    /// Kernel `name`, ready to launch.
    ///
    /// # Errors
    /// A [`LowerError`] when there is no such kernel or the module uses something
    /// ptxvm cannot run.
    pub fn kernel(&self, name: &str) -> Result<Kernel, LowerError> {
        let program = self.decoded(Want::Kernel(name))?;
        let Some(k) = program.funcs.iter().position(|f| f.kernel && f.name == name) else {
            let span = crate::syntax::Span::default();
            return Err(LowerError { span, message: format!("no kernel named `{name}`") });
        };
        if let Some(e) = program.reachable_error(k as u32) {
            return Err(e.clone());
        }
        let f = &program.funcs[k];
        Ok(Kernel {
            name: name.to_string(),
            params: f.params.clone(),
            param_bytes: f.param_bytes,
            func: k as u32,
            program: program.clone(),
            _window: self.window.clone(),
        })
    }
}

impl Kernel {
    /// Kernel `func` of the same module (a grid launched from device code).
    fn sibling(&self, func: u32) -> Kernel {
        let f = &self.program.funcs[func as usize];
        Kernel {
            name: f.name.clone(),
            params: f.params.clone(),
            param_bytes: f.param_bytes,
            program: self.program.clone(),
            func,
            _window: self._window.clone(),
        }
    }
}

/// A place in the source the PTX was compiled from, as the module's `.loc` and
/// `.file` directives give it (nvcc `-lineinfo` or `-G`, clang `-g`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
    /// 0 when the compiler gave none.
    pub column: u32,
}

impl std::fmt::Display for SourceLine {
    /// `file:line:column`, or `file:line` without a column.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        if self.column != 0 {
            write!(f, ":{}", self.column)?;
        }
        Ok(())
    }
}

impl Module {
    /// The source line of the instruction at `at`: the last `.loc` before it in its
    /// function (PTX ISA 11.1.3: a `.loc` applies to the instructions that follow),
    /// with its file named by `.file`. `None` without line information.
    pub fn source_line(&self, at: Span) -> Option<SourceLine> {
        let body = self.ast.items.iter().find_map(|i| match i {
            Item::Func(f) => f.body.as_ref().filter(|b| b.span.start <= at.start && at.start < b.span.end),
            _ => None,
        })?;
        let loc = self.last_loc(body, at.start)?;
        // `.loc file line column` and, from newer compilers, `, function_name ...,
        // inlined_at ...`, which name the inlined callee's own place first.
        let rest = self.rest_of_line(loc);
        let mut words = rest.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty());
        let mut number = || words.next().and_then(|w| w.parse::<u32>().ok());
        let (index, line, column) = (number()?, number()?, number().unwrap_or(0));
        let file = self.ast.items.iter().find_map(|i| match i {
            Item::Skipped(d) if d.text(&self.src) == ".file" => {
                let rest = self.rest_of_line(d.span);
                let (n, name) = rest.trim_start().split_once(char::is_whitespace)?;
                let name = name.trim_start().strip_prefix('"')?.split('"').next()?;
                (n.parse::<u32>().ok()? == index).then(|| name.to_string())
            }
            _ => None,
        });
        Some(SourceLine { file: file.unwrap_or_else(|| format!("file {index}")), line, column })
    }

    /// Where `span` is, as reports print it: `FILE:LINE:COL` and the instruction's text
    /// on one line; nothing for the empty span of a fault with no place in the source.
    fn place(&self, span: Span, file: &str) -> Option<(String, String)> {
        (span.start < span.end).then(|| {
            let (line, col) = crate::syntax::span::line_col(&self.src, span.start);
            let text = span.text(&self.src).split_whitespace().collect::<Vec<_>>().join(" ");
            (format!("{file}:{line}:{col}"), text)
        })
    }

    /// The last `.loc` directive in `block` (and its nested blocks) before `pos`.
    fn last_loc(&self, block: &crate::syntax::ast::Block, pos: u32) -> Option<Span> {
        use crate::syntax::ast::Stmt;
        let mut last = None;
        for s in self.ast.pool.stmts(block) {
            match s {
                Stmt::Skipped(d) if d.span.start < pos && d.text(&self.src) == ".loc" => last = Some(d.span),
                Stmt::Block(b) if b.span.start < pos => last = self.last_loc(b, pos).or(last),
                _ => {}
            }
        }
        last
    }

    /// The text after a directive's name up to the end of its line.
    fn rest_of_line(&self, name: Span) -> &str {
        let end = name.end as usize;
        let tail = self.src.get(end..).unwrap_or("");
        &tail[..tail.find('\n').unwrap_or(tail.len())]
    }
}

/// Why a launch stopped: the cause, the thread that met it (the first CTA in launch
/// order that faulted), and where in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub cause: String,
    pub ctaid: Dim3,
    pub tid: Dim3,
    /// The instruction.
    pub span: Span,
    /// Other instructions the cause involves (the groups of a deadlock), each with
    /// what is there.
    pub notes: Vec<(Span, String)>,
    /// The `call` instructions the thread is inside, innermost first.
    pub calls: Vec<Span>,
    /// The kernel of the grid that faulted when device code launched it (dynamic
    /// parallelism); `None` when it is the kernel the host launched.
    pub child: Option<Box<str>>,
}

impl std::fmt::Display for Fault {
    /// `ctaid=(0,0,0) tid=(5,0,0): out of bounds ...`: the thread and the cause. The
    /// place in the source is [`Fault::span`]; `ptxvm run` prints it as
    /// `file:line:col`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (c, t) = (self.ctaid, self.tid);
        write!(f, "ctaid=({},{},{}) tid=({},{},{}): {}", c.x, c.y, c.z, t.x, t.y, t.z, self.cause)
    }
}

impl std::error::Error for Fault {}

/// What a fault was, as a GPU's driver tells faults apart (`CUDA_ERROR_ILLEGAL_ADDRESS`,
/// `_MISALIGNED_ADDRESS`, `_ASSERT`, `_LAUNCH_TIMEOUT`, and `_LAUNCH_FAILED` for the
/// rest: `trap`, deadlocks, undefined behaviour ptxvm reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    OutOfBounds,
    Misaligned,
    Assert,
    /// The step budget, the time limit or Ctrl-C stopped the launch.
    Limit,
    Other,
}

impl Fault {
    /// What kind of fault this is. The executor names each cause in words; the words
    /// a kind starts with are those of [`crate::exec::memory::MemFault`], of a failed
    /// `assert` (`exec/builtin.rs`) and of [`crate::exec::limits::Stop`], which the
    /// tests below make happen.
    pub fn kind(&self) -> FaultKind {
        let c = self.cause.as_str();
        if c.starts_with("out of bounds") {
            FaultKind::OutOfBounds
        } else if c.starts_with("address 0x") && c.contains("is not aligned to the") {
            FaultKind::Misaligned
        } else if c.starts_with("assertion `") {
            FaultKind::Assert
        } else if c.starts_with("instruction budget exhausted")
            || c.starts_with("time limit of")
            || c.starts_with("interrupted")
        {
            FaultKind::Limit
        } else {
            FaultKind::Other
        }
    }
}

impl Fault {
    /// The report `ptxvm run` prints, one line each: the fault as
    /// `FILE:LINE:COL: fault: kernel `k`, ctaid=(..) tid=(..), `instruction`: cause`,
    /// then notes: the source line it came from (`.loc`), the calls the thread is
    /// inside (innermost first; of a long chain the 8 innermost and 8 outermost), and
    /// the other instructions involved. `file` names the module's source.
    pub fn report(&self, module: &Module, kernel: &str, file: &str) -> String {
        let place = |span: Span| module.place(span, file);
        let (c, t) = (self.ctaid, self.tid);
        let grid = match &self.child {
            Some(child) => format!("kernel `{child}` (a grid launched from device code under `{kernel}`)"),
            None => format!("kernel `{kernel}`"),
        };
        let who = format!("{grid}, ctaid=({},{},{}) tid=({},{},{})", c.x, c.y, c.z, t.x, t.y, t.z);
        let mut out = match place(self.span) {
            Some((at, text)) => format!("{at}: fault: {who}, `{text}`: {}", self.cause),
            None => format!("{file}: fault: {who}: {}", self.cause),
        };
        let mut note = |at: &str, what: String| out.push_str(&format!("\n{at}: note: {what}"));
        if let (Some((at, _)), Some(s)) = (place(self.span), module.source_line(self.span)) {
            note(&at, format!("at {s}"));
        }
        const SHOWN: usize = 8;
        let n = self.calls.len();
        for (k, &call) in self.calls.iter().enumerate() {
            if n > 2 * SHOWN && k == SHOWN {
                note(file, format!("... {} more calls ...", n - 2 * SHOWN));
            }
            if n > 2 * SHOWN && (SHOWN..n - SHOWN).contains(&k) {
                continue;
            }
            if let Some((at, text)) = place(call) {
                let source = module.source_line(call).map_or(String::new(), |s| format!(" ({s})"));
                note(&at, format!("called from `{text}`{source}"));
            }
        }
        for (span, what) in &self.notes {
            if let Some((at, text)) = place(*span) {
                note(&at, format!("`{text}`: {what}"));
            }
        }
        out
    }
}

/// A launch spec bound to a kernel of a module ([`Device::bind`]): the kernel, its
/// parameter buffer packed as the launch contract says, and the device buffers made
/// from the spec's buffer arguments.
pub struct Bound {
    pub kernel: Kernel,
    pub params: Vec<u8>,
    /// One per buffer argument, in argument order.
    pub buffers: Vec<BoundBuffer>,
    /// What in the spec looks wrong but binds (a float value for an integer
    /// parameter, ...), one sentence each.
    pub warnings: Vec<String>,
}

/// Whether a scalar of type `t` for a parameter declared `ty` (of its size) is
/// likely a mistake: a float for an integer parameter or the reverse, or another
/// float format. Integers of either signedness pass for each other (nvcc declares
/// every integer parameter `.u`), and bit-size types for anything.
fn scalar_mismatch(t: crate::launch::ElemType, ty: Ty) -> bool {
    use Ty::*;
    if t.is_bits() || matches!(ty, B8 | B16 | B32 | B64) {
        return false;
    }
    let float_param = matches!(ty, F16 | F16x2 | BF16 | BF16x2 | F32 | F64 | TF32);
    match (t.is_float(), float_param) {
        (false, false) => false,
        (true, true) => ty.word().strip_prefix('.') != Some(t.name()),
        _ => true,
    }
}

/// A buffer argument placed in device memory.
#[derive(Clone, Copy, Debug)]
pub struct BoundBuffer {
    /// The argument's index in the spec.
    pub arg: usize,
    pub elem: crate::launch::ElemType,
    pub addr: u64,
    pub bytes: usize,
}

/// Why a launch spec does not fit a module.
#[derive(Clone, Debug)]
pub enum BindError {
    /// The spec and the kernel disagree (no such kernel, argument counts or sizes).
    Spec(String),
    /// The kernel uses something ptxvm cannot run, at a place in the source.
    Lower(LowerError),
}

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BindError::Spec(m) => f.write_str(m),
            BindError::Lower(e) => f.write_str(&e.message),
        }
    }
}

/// The simulated GPU: its global memory, with the data of the modules launched on it.
#[derive(Default)]
pub struct Device {
    memory: GlobalMemory,
    printed: crate::exec::Printed,
    heap: crate::exec::Heap,
    /// What the last launch's `--sanitize` checks found.
    hazards: Vec<Hazard>,
}

/// A shared-memory hazard that `racecheck` or `initcheck` found
/// ([`crate::exec::limits::Checks`]): two threads of a CTA touching the same byte
/// between barriers, at least one writing, or a read of a byte never written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hazard {
    /// `read-after-write hazard`, ..., `read of uninitialized shared memory`.
    pub kind: &'static str,
    pub ctaid: Dim3,
    /// The thread whose access found it, and the instruction.
    pub tid: Dim3,
    pub span: Span,
    pub write: bool,
    /// The other thread's earlier access: its thread, instruction and whether it wrote
    /// (none for an uninitialized read).
    pub earlier: Option<(Dim3, Span, bool)>,
    /// The first byte: its offset in the CTA's shared memory, and in words
    /// (``byte 4 of `s` `` or `byte 8 of dynamic shared memory`).
    pub offset: u32,
    pub byte: String,
    /// How many accesses of the same pair of instructions met it, in how many CTAs
    /// (`ctaid` is the first).
    pub count: u64,
    pub ctas: u64,
}

impl Hazard {
    /// The report `ptxvm run --sanitize` prints: one line naming the kernel, the
    /// thread, the access and the kind, then a note for the other thread's access and
    /// the source lines (`.loc`) where the module has them.
    pub fn report(&self, module: &Module, kernel: &str, file: &str) -> String {
        let place = |span: Span| {
            let (at, text) = module.place(span, file).unwrap_or_else(|| (file.to_string(), String::new()));
            let source = module.source_line(span).map_or(String::new(), |s| format!(" ({s})"));
            (at, text, source)
        };
        let tid = |t: Dim3| format!("tid=({},{},{})", t.x, t.y, t.z);
        let verb = if self.write { "writes" } else { "reads" };
        let c = self.ctaid;
        let (at, text, source) = place(self.span);
        let times = match (self.count, self.ctas) {
            (1, _) => String::new(),
            (n, 1) => format!(" ({n} times)"),
            (n, k) => format!(" ({n} times in {k} CTAs)"),
        };
        let mut out = format!(
            "{at}: sanitize: {}: kernel `{kernel}`, ctaid=({},{},{}) {}, `{text}`{source} {verb} {}{times}",
            self.kind,
            c.x,
            c.y,
            c.z,
            tid(self.tid),
            self.byte
        );
        if let Some((t, span, write)) = self.earlier {
            let (at, text, source) = place(span);
            let past = if write { "wrote" } else { "read" };
            out += &format!(
                "\n{at}: note: {} {past} it before, with no barrier between: `{text}`{source}",
                tid(t)
            );
        }
        out
    }
}

impl Device {
    /// Binds `spec` to its kernel in `module` (the one it names, or the module's only
    /// kernel): allocates and fills a device buffer per buffer argument and packs the
    /// parameter buffer (docs: the launch contract).
    ///
    /// # Errors
    /// A [`BindError`] when the spec names no kernel of the module, when its
    /// arguments do not match the kernel's parameters, or when the kernel cannot run.
    pub fn bind(&mut self, module: &Module, spec: &crate::launch::LaunchSpec) -> Result<Bound, BindError> {
        use crate::launch::Arg;
        let names = module.kernel_names();
        let name = match (&spec.kernel, names.as_slice()) {
            (Some(k), _) => crate::demangle::resolve(&names, k).map_err(BindError::Spec)?.to_string(),
            (None, [only]) => only.clone(),
            (None, _) => {
                let shown: Vec<String> = names.iter().map(|n| crate::demangle::shown(n)).collect();
                let msg = format!(
                    "the module has {} kernels ({}); name one with \"kernel\"",
                    names.len(),
                    shown.join(", ")
                );
                return Err(BindError::Spec(msg));
            }
        };
        let kernel = module.kernel(&name).map_err(BindError::Lower)?;
        // Argument errors end with the kernel's parameters as declared.
        let declared = || {
            let decls = module.kernel_param_decls(&name);
            let list: Vec<String> = decls.iter().enumerate().map(|(k, d)| format!("  {k}: {d}")).collect();
            format!("\n{} takes:\n{}", crate::demangle::shown(&name), list.join("\n"))
        };
        if spec.args.len() != kernel.params.len() {
            let msg = format!(
                "kernel `{name}` takes {} parameters, the spec gives {} args{}",
                kernel.params.len(),
                spec.args.len(),
                declared()
            );
            return Err(BindError::Spec(msg));
        }
        let mut warnings = Vec::new();
        let mut values: Vec<Vec<u8>> = Vec::with_capacity(spec.args.len());
        let mut buffers = Vec::new();
        for (k, (arg, &(ty, _, size))) in spec.args.iter().zip(&kernel.params).enumerate() {
            let bits = match arg {
                Arg::Bytes(bytes) => {
                    if bytes.len() != size as usize {
                        let msg = format!(
                            "args[{k}]: {} bytes for a {size}-byte parameter{}",
                            bytes.len(),
                            declared()
                        );
                        return Err(BindError::Spec(msg));
                    }
                    values.push(bytes.clone());
                    continue;
                }
                Arg::Scalar { ty: t, bits } => {
                    if t.bytes() != size as usize {
                        let msg = format!(
                            "args[{k}]: a {} value for a {}-byte parameter ({}){}",
                            t.name(),
                            size,
                            ty.word(),
                            declared()
                        );
                        return Err(BindError::Spec(msg));
                    }
                    if scalar_mismatch(*t, ty) {
                        warnings.push(format!(
                            "args[{k}]: type {} given for parameter {k} of kernel `{name}`, declared {}; its bits are passed as they are",
                            t.name(),
                            ty.word()
                        ));
                    }
                    *bits
                }
                Arg::Texture(_) | Arg::Surface(_) if size != 8 => {
                    let msg = format!(
                        "args[{k}]: a texture or surface object is a 64-bit handle, not {}{}",
                        ty.word(),
                        declared()
                    );
                    return Err(BindError::Spec(msg));
                }
                Arg::Texture(t) => {
                    let spec_err = |e: String| BindError::Spec(format!("args[{k}]: {e}"));
                    let resource = self.place_texels(&t.image, k).map_err(spec_err)?;
                    let texture = Texture { resource, sampler: t.sampler() };
                    self.create_texture(texture).map_err(|e| spec_err(e.to_string()))?
                }
                Arg::Surface(i) => {
                    let spec_err = |e: String| BindError::Spec(format!("args[{k}]: {e}"));
                    let Resource::Array { shape, levels } = self.place_texels(i, k).map_err(spec_err)? else {
                        unreachable!("a surface is an array")
                    };
                    let image = levels[0];
                    buffers.push(BoundBuffer {
                        arg: k,
                        elem: i.elem,
                        addr: image.base,
                        bytes: i.bytes.len(),
                    });
                    self.create_surface(image, shape)
                }
                Arg::Buffer { .. } | Arg::NpyBuffer { .. } if size != 8 => {
                    let msg = format!(
                        "args[{k}]: a buffer's address needs a 64-bit parameter, not {}{}",
                        ty.word(),
                        declared()
                    );
                    return Err(BindError::Spec(msg));
                }
                Arg::Buffer { elem, bytes, .. } => {
                    let spec_err = |e: MemFault| BindError::Spec(format!("args[{k}]: {e}"));
                    let addr = self.memory.alloc_from(bytes).map_err(spec_err)?;
                    self.label(addr, format!("args[{k}]"));
                    buffers.push(BoundBuffer { arg: k, elem: *elem, addr, bytes: bytes.len() });
                    addr
                }
                Arg::NpyBuffer { elem, path, len, .. } => {
                    // The file's data goes straight into device memory.
                    let spec_err = |e: String| BindError::Spec(format!("args[{k}]: {}: {e}", path.display()));
                    let (head, mut file) = crate::npy::open(path).map_err(|e| spec_err(e.to_string()))?;
                    if head.len() != *len || head.elem.bytes() != elem.bytes() {
                        return Err(spec_err("the file changed after the spec was read".into()));
                    }
                    let bytes = *len * elem.bytes() as u64;
                    let addr = self
                        .memory
                        .alloc_from_reader(bytes, &mut file)
                        .map_err(|e| spec_err(e.to_string()))?;
                    self.label(addr, format!("args[{k}]"));
                    buffers.push(BoundBuffer { arg: k, elem: *elem, addr, bytes: bytes as usize });
                    addr
                }
            };
            values.push(bits.to_le_bytes()[..size as usize].to_vec());
        }
        let params =
            kernel.pack(values.iter().map(Vec::as_slice)).map_err(|e| BindError::Spec(e.to_string()))?;
        Ok(Bound { kernel, params, buffers, warnings })
    }

    /// Runs CTA `cta` (in launch order) of a launch alone, recording every instruction
    /// each of its warps executes with its lane masks, for `ptxvm trace`. Other CTAs do
    /// not run, so they write nothing it could read; but those of its cluster, which
    /// run with it (untraced in the result).
    ///
    /// # Errors
    /// None: a fault ends the trace where it happened and comes back with it.
    #[allow(clippy::too_many_arguments)]
    pub fn trace(
        &mut self,
        kernel: &Kernel,
        grid: Dim3,
        block: Dim3,
        dynamic_shared: u32,
        params: &[u8],
        limits: &Limits,
        cta: u64,
    ) -> (Trace, Option<Fault>) {
        let program = &*kernel.program;
        let cluster = crate::launch::cluster_shape(grid, None, program.funcs[kernel.func as usize].cluster)
            .unwrap_or(crate::exec::threads::ONE);
        let shape = Shape { grid, block, cluster };
        if cta >= grid.count() {
            let cause = format!("CTA {cta} is outside the grid of {} CTAs", grid.count());
            let origin = Dim3 { x: 0, y: 0, z: 0 };
            return (Trace { ctaid: origin, block, warps: Vec::new() }, Some(Fault::of_launch(cause)));
        }
        let mut trace = Trace { ctaid: shape.ctaid(cta), block, warps: Vec::new() };
        if let Err(f) = self.place_memory(program) {
            return (trace, Some(f));
        }
        let found = std::sync::Mutex::new(Vec::new());
        let checks = crate::exec::limits::Checks { trace: true, ..limits.checked() };
        // Grids the CTA launches are not run: a trace follows one CTA.
        let children = crate::exec::children::Children::default();
        let run = self.cta(kernel, shape, (dynamic_shared, params), checks, (&found, &children));
        let mut scratch = Scratch::default();
        let fault = if cluster.count() > 1 {
            // The CTA's cluster runs whole, in rounds; the trace is the CTA's own.
            let mut cl = run.start_cluster(shape.cluster_index(cta));
            let fault = loop {
                match run.cluster_round(&mut cl, limits, false) {
                    Ok((turn, _)) if turn.done => break None,
                    Ok(_) => {}
                    Err((_, f)) => break Some(f),
                }
            };
            scratch = cl.into_scratch(shape.rank(cta)).unwrap_or_default();
            fault
        } else {
            run.run(cta, limits, &mut scratch).err()
        };
        let (launched, unused) = children.take();
        for b in unused.into_iter().chain(launched.iter().map(|c| c.buffer)) {
            let _ = self.heap.give_back(b);
        }
        let span = |pc: u32| program.insts.get(pc as usize).map_or_else(Span::default, |i| i.span);
        for (lanes, steps) in scratch.take_traces(&shape) {
            let steps = steps
                .into_iter()
                .map(|s| {
                    let op = program.insts.get(s.pc as usize).map(|i| &i.op);
                    let kind = match op {
                        _ if s.active == 0 => StepKind::Plain,
                        Some(Op::Bra { .. } | Op::Brx { .. }) if s.active != s.mask => StepKind::Diverge,
                        Some(Op::Barrier(_)) => StepKind::Barrier,
                        Some(Op::Exit) => StepKind::Exit,
                        Some(Op::Ret) => StepKind::Ret,
                        _ => StepKind::Plain,
                    };
                    TraceStep { span: span(s.pc), mask: s.mask, active: s.active, kind }
                })
                .collect::<Vec<_>>();
            let truncated = steps.len() >= crate::exec::warp::MAX_TRACE;
            trace.warps.push(WarpTrace { lanes, steps, truncated });
        }
        (trace, fault.map(|f| Fault::placed(program, f)))
    }

    /// The shared-memory hazards the last launch's `racecheck` and `initcheck` found
    /// (none without them), by CTA and instruction.
    pub fn hazards(&self) -> &[Hazard] {
        &self.hazards
    }

    /// Names the allocation at `addr` in fault reports (`args[2]`), as
    /// [`Device::bind`] names each launch buffer.
    pub fn label(&mut self, addr: u64, label: impl Into<Box<str>>) {
        self.memory.label(addr, label);
    }

    /// Allocates `bytes` of zeroed global memory.
    ///
    /// # Errors
    /// [`MemFault::TooLarge`] when the size cannot be represented.
    pub fn alloc(&mut self, bytes: u64) -> Result<u64, MemFault> {
        self.memory.alloc(bytes)
    }

    /// Frees the allocation at `addr` (an address [`Device::alloc`] returned).
    ///
    /// # Errors
    /// [`MemFault::OutOfBounds`] when no allocation starts there.
    pub fn free(&mut self, addr: u64) -> Result<(), MemFault> {
        self.memory.free(addr)
    }

    /// Places a launch spec's texels in device memory as CUDA would lay them out:
    /// each level an allocation of rows of texels (pitched memory's rows 32-byte
    /// aligned), labelled `args[k]` in fault reports.
    ///
    /// # Errors
    /// Why the device cannot hold them.
    pub fn place_texels(&mut self, i: &crate::launch::ImageArg, k: usize) -> Result<Resource, String> {
        use crate::launch::ImageMemory;
        let format = i.format();
        let texel = format.texel_bytes();
        let mut at = 0usize;
        let mut images = Vec::new();
        for l in 0..i.levels {
            let [w, h, d] = i.level_dims(l);
            let row = u64::from(w) * texel;
            let pitch = if i.memory == ImageMemory::Pitch2D { row.div_ceil(32) * 32 } else { row };
            let rows = u64::from(h.max(1)) * u64::from(d.max(1));
            let level = &i.bytes[at..at + (row * rows) as usize];
            at += level.len();
            let base = if pitch == row {
                self.memory.alloc_from(level)
            } else {
                let mut bytes = vec![0u8; (pitch * rows) as usize];
                for (out, src) in bytes.chunks_exact_mut(pitch as usize).zip(level.chunks_exact(row as usize))
                {
                    out[..row as usize].copy_from_slice(src);
                }
                self.memory.alloc_from(&bytes)
            }
            .map_err(|e| e.to_string())?;
            self.label(base, format!("args[{k}]"));
            images.push(Image { base, width: w, height: h.max(1), depth: d.max(1), pitch, format });
        }
        Ok(match i.memory {
            ImageMemory::Array => Resource::Array { shape: i.shape, levels: images },
            ImageMemory::Linear => Resource::Linear { base: images[0].base, bytes: images[0].pitch, format },
            ImageMemory::Pitch2D => Resource::Pitch2D(images[0]),
        })
    }

    /// Makes a texture object over device memory; its handle, which kernels pass
    /// to `tex`, `tld4` and `txq`.
    ///
    /// # Errors
    /// [`ObjectError`] for settings CUDA refuses.
    pub fn create_texture(&mut self, texture: Texture) -> Result<u64, ObjectError> {
        self.memory.objects.create_texture(texture)
    }

    /// Destroys a texture object; false when `handle` is none.
    pub fn destroy_texture(&mut self, handle: u64) -> bool {
        self.memory.objects.destroy_texture(handle)
    }

    /// Makes a surface object over one image (an array, or a level of a mipmapped
    /// one) of `shape`; its handle, which kernels pass to `suld`, `sust`, `sured`
    /// and `suq`.
    pub fn create_surface(&mut self, image: Image, shape: ArrayShape) -> u64 {
        self.memory.objects.create_surface(image, shape)
    }

    /// Destroys a surface object; false when `handle` is none.
    pub fn destroy_surface(&mut self, handle: u64) -> bool {
        self.memory.objects.destroy_surface(handle)
    }

    /// Copies host bytes to device address `addr`.
    ///
    /// # Errors
    /// [`MemFault`] unless the range lies in one allocation.
    pub fn copy_to_device(&self, addr: u64, data: &[u8]) -> Result<(), MemFault> {
        self.memory.write_bytes(addr, data)
    }

    /// What the launches so far printed with device `printf`, in CTA order, and
    /// whether output past the 1 MiB buffer was dropped (ptxvm keeps the first 1 MiB); the
    /// buffer is emptied.
    pub fn take_printed(&self) -> (Vec<u8>, bool) {
        self.printed.take()
    }

    /// `len` device bytes at `addr`, copied to a new host vector on every core (faster
    /// than [`Device::copy_from_device`] into a buffer allocated zeroed for it).
    ///
    /// # Errors
    /// [`MemFault`] unless the range lies in one allocation.
    pub fn read_to_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>, MemFault> {
        self.memory.read_to_vec(addr, len)
    }

    /// Copies device bytes at `addr` to the host.
    ///
    /// # Errors
    /// [`MemFault`] unless the range lies in one allocation.
    pub fn copy_from_device(&self, addr: u64, out: &mut [u8]) -> Result<(), MemFault> {
        self.memory.read_bytes(addr, out)
    }

    /// Runs `kernel` over `grid` CTAs of `block` threads with `dynamic_shared` bytes
    /// of dynamic shared memory and the parameter buffer `params` (laid out as
    /// [`Kernel::params`] says), at most `max_steps` warp instructions in all. The
    /// module's `.global` and `.const` variables are placed in device memory on its
    /// first launch and keep their values across launches, as with `cuModuleLoad`.
    /// CTAs run in parallel on every core, as on a GPU; each runs to its end or its
    /// first fault.
    ///
    /// # Errors
    /// The fault of the first CTA in launch order that met one (so the report does
    /// not depend on scheduling); memory keeps everything written before the faults.
    #[allow(clippy::too_many_arguments)]
    pub fn launch(
        &mut self,
        kernel: &Kernel,
        grid: Dim3,
        block: Dim3,
        dynamic_shared: u32,
        params: &[u8],
        max_steps: u64,
    ) -> Result<(), Fault> {
        self.launch_with(kernel, grid, block, dynamic_shared, params, &Limits::new(max_steps))
    }

    /// [`Device::launch`] under `limits`: a step budget, and optionally a time limit
    /// and a cancel flag; `limits` also counts finished CTAs and lane-instructions
    /// while the launch runs, for a watcher on another thread.
    ///
    /// # Errors
    /// As [`Device::launch`]; a launch stopped by its limits faults at a running
    /// thread.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_with(
        &mut self,
        kernel: &Kernel,
        grid: Dim3,
        block: Dim3,
        dynamic_shared: u32,
        params: &[u8],
        limits: &Limits,
    ) -> Result<(), Fault> {
        self.launch_tree(kernel, (grid, block, dynamic_shared), None, params, limits, 0)
    }

    /// [`Device::launch_with`] in thread-block clusters of `cluster` CTAs
    /// (`cuLaunchKernelEx` with a cluster dimension): the CTAs of a cluster run
    /// together and reach each other's shared memory (`mapa`, `.shared::cluster`) and
    /// the cluster barrier. Without it, a kernel's `.reqnctapercluster` gives the
    /// clusters, or each is one CTA.
    ///
    /// # Errors
    /// As [`Device::launch`], and a fault of the launch when the cluster does not tile
    /// the grid, has more than 8 CTAs, or differs from the kernel's own.
    pub fn launch_clustered(
        &mut self,
        kernel: &Kernel,
        (grid, block, dynamic_shared): (Dim3, Dim3, u32),
        cluster: Dim3,
        params: &[u8],
        limits: &Limits,
    ) -> Result<(), Fault> {
        self.launch_tree(kernel, (grid, block, dynamic_shared), Some(cluster), params, limits, 0)
    }

    /// [`Device::launch_with`] as a cooperative launch (`cuLaunchCooperativeKernel`):
    /// cooperative groups' `this_grid()` is valid, and `grid.sync()` waits for every
    /// CTA of the grid, all of which run until they reach it; in clusters of
    /// `cluster` CTAs where given (`cuLaunchKernelEx` with both attributes).
    ///
    /// # Errors
    /// As [`Device::launch`], and a fault of the launch when its grid-sync workspace
    /// cannot be placed.
    pub fn launch_cooperative(
        &mut self,
        kernel: &Kernel,
        (grid, block, dynamic_shared): (Dim3, Dim3, u32),
        cluster: Option<Dim3>,
        params: &[u8],
        limits: &Limits,
    ) -> Result<(), Fault> {
        let workspace = self
            .memory
            .alloc(8)
            .map_err(|e| Fault::of_launch(format!("cannot place the grid-sync workspace: {e}")))?;
        self.memory.label(workspace, "the grid-sync workspace of a cooperative launch");
        let result =
            self.launch_tree(kernel, (grid, block, dynamic_shared), cluster, params, limits, workspace);
        let _ = self.memory.free(workspace);
        result
    }

    /// Runs a grid, then the grids its threads launched (dynamic parallelism,
    /// `exec::children`), each with its own, depth first. Hazards of them all are
    /// kept; the first fault ends the launch.
    fn launch_tree(
        &mut self,
        kernel: &Kernel,
        shape: (Dim3, Dim3, u32),
        cluster: Option<Dim3>,
        params: &[u8],
        limits: &Limits,
        grid_workspace: u64,
    ) -> Result<(), Fault> {
        let mut hazards = Vec::new();
        let mut result = Ok(());
        // Grids to run: the kernel, its shape, its parameters, its depth.
        let mut todo = vec![(kernel.func, shape, params.to_vec(), 0u32)];
        while let Some((func, shape, params, depth)) = todo.pop() {
            let k = kernel.sibling(func);
            let children = crate::exec::children::Children::at_depth(depth);
            // A cooperative launch's children are ordinary grids.
            let workspace = if depth == 0 { grid_workspace } else { 0 };
            let cluster = if depth == 0 { cluster } else { None };
            let ran = self.launch_grid(&k, shape, cluster, &params, limits, (workspace, &children));
            // A child's printf output comes after its parent's.
            self.printed.next_grid();
            hazards.append(&mut self.hazards);
            let (launched, unused) = children.take();
            // Depth first, in launch order: the stack takes them last to first. A
            // child's parameters are read when its parent's grid has ended (a parent
            // that changes a buffer after launching it has undefined behaviour).
            for child in launched.into_iter().rev() {
                let bytes = kernel.program.funcs[child.func as usize].param_bytes as usize;
                let read = self.memory.read_to_vec(child.buffer, bytes);
                let _ = self.heap.give_back(child.buffer);
                match read {
                    Ok(p) if ran.is_ok() => {
                        todo.push((child.func, (child.grid, child.block, child.shared), p, depth + 1))
                    }
                    Ok(_) => {}
                    Err(e) => result = Err(Fault::of_launch(format!("a child grid's parameters: {e}"))),
                }
            }
            for b in unused {
                let _ = self.heap.give_back(b);
            }
            if let Err(mut f) = ran {
                if depth > 0 {
                    f.child = Some(crate::demangle::shown(&k.name).into());
                }
                result = Err(f);
            }
            if result.is_err() {
                break;
            }
        }
        self.hazards = hazards;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn launch_grid(
        &mut self,
        kernel: &Kernel,
        (grid, block, dynamic_shared): (Dim3, Dim3, u32),
        cluster: Option<Dim3>,
        params: &[u8],
        limits: &Limits,
        (grid_workspace, children): (u64, &crate::exec::children::Children),
    ) -> Result<(), Fault> {
        let program = &*kernel.program;
        if let Some(e) = program.reachable_error(kernel.func) {
            return Err(Fault::of_launch(format!("`{}` cannot run: {}", kernel.name, e.message)));
        }
        let cluster =
            crate::launch::cluster_shape(grid, cluster, program.funcs[kernel.func as usize].cluster)
                .map_err(Fault::of_launch)?;
        self.place_memory(program)?;
        let shape = Shape { grid, block, cluster };
        let found = std::sync::Mutex::new(Vec::new());
        let mut cta = self.cta(kernel, shape, (dynamic_shared, params), limits.checked(), (&found, children));
        cta.grid_workspace = grid_workspace;
        let first = crate::exec::grid::run(&cta, grid.count(), limits);
        let span = |pc: u32| program.insts.get(pc as usize).map_or_else(Span::default, |i| i.span);
        // One report for each kind and pair of instructions (merged as CTAs ended),
        // with its first CTA's details, in launch order.
        let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
        found.sort_by_key(|h| (h.cta, h.access.pc, h.earlier.map(|e| e.pc)));
        self.hazards = found
            .into_iter()
            .map(|h| Hazard {
                kind: h.kind.name(),
                ctaid: shape.ctaid(h.cta),
                tid: shape.tid(h.access.warp, h.access.lane),
                span: span(h.access.pc),
                write: h.access.write,
                earlier: h.earlier.map(|e| (shape.tid(e.warp, e.lane), span(e.pc), e.write)),
                offset: h.offset,
                byte: shared_byte(program, h.offset),
                count: h.count,
                ctas: h.ctas,
            })
            .collect();
        match first {
            Some((_, f)) => Err(Fault::placed(program, f)),
            None => Ok(()),
        }
    }

    /// The executor's view of a launch of `kernel` on this device: its shape, dynamic
    /// shared bytes and parameter buffer, the checks, and where hazards go.
    fn cta<'a>(
        &'a self,
        kernel: &'a Kernel,
        shape: Shape,
        (dynamic_shared, params): (u32, &'a [u8]),
        checks: crate::exec::limits::Checks,
        (hazards, children): (
            &'a std::sync::Mutex<Vec<crate::exec::sanitize::Hazard>>,
            &'a crate::exec::children::Children,
        ),
    ) -> Cta<'a> {
        Cta {
            program: &kernel.program,
            kernel: kernel.func,
            shape,
            params,
            memory: &self.memory,
            dynamic_shared,
            checks,
            printed: &self.printed,
            heap: &self.heap,
            children,
            hazards,
            grid_workspace: 0,
        }
    }

    /// What a launch of `program` needs in device memory: the module's variables, and
    /// CUDA's device heap (once) when the program calls `malloc`.
    fn place_memory(&mut self, program: &Program) -> Result<(), Fault> {
        self.place_image(program)?;
        if self.heap.base == 0 && program.uses_heap {
            if self.heap.bytes == 0 {
                self.heap.bytes = crate::exec::Heap::BYTES;
            }
            self.heap.base = self.memory.alloc(self.heap.bytes).map_err(|e| {
                Fault::of_launch(format!("cannot place the device heap in device memory: {e}"))
            })?;
            self.memory.label(self.heap.base, "the device heap (malloc)");
        }
        Ok(())
    }

    /// Places the module's variables in device memory (once per module).
    fn place_image(&mut self, program: &Program) -> Result<(), Fault> {
        self.memory.alloc_image(program.image_base, program.serial, &program.image).map_err(|e| {
            Fault::of_launch(format!("cannot place the module's variables in device memory: {e}"))
        })
    }
}

impl Fault {
    /// A fault of the launch as a whole: no thread, no place in the source.
    fn of_launch(cause: String) -> Fault {
        let origin = Dim3 { x: 0, y: 0, z: 0 };
        Fault {
            cause,
            ctaid: origin,
            tid: origin,
            span: Span::default(),
            notes: Vec::new(),
            calls: Vec::new(),
            child: None,
        }
    }

    /// The executor's fault with its instructions placed in the source.
    fn placed(program: &Program, f: crate::exec::warp::Fault) -> Fault {
        let span = |pc: u32| program.insts.get(pc as usize).map_or_else(Span::default, |i| i.span);
        let notes = f.notes.iter().map(|(pc, what)| (span(*pc), what.clone())).collect();
        let calls = f.calls.iter().map(|&pc| span(pc)).collect();
        Fault { cause: f.cause, ctaid: f.ctaid, tid: f.tid, span: span(f.pc), notes, calls, child: None }
    }
}

/// What one CTA's warps executed ([`Device::trace`]).
#[derive(Debug, Clone)]
pub struct Trace {
    pub ctaid: Dim3,
    pub block: Dim3,
    pub warps: Vec<WarpTrace>,
}

/// One warp's instructions, in the order it executed them.
#[derive(Debug, Clone)]
pub struct WarpTrace {
    /// The lanes that hold threads.
    pub lanes: u32,
    pub steps: Vec<TraceStep>,
    /// The warp ran more instructions than a trace keeps.
    pub truncated: bool,
}

/// One executed instruction: the group's lanes (`mask`), those whose guard held
/// (`active`), and what it did to the warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceStep {
    pub span: Span,
    pub mask: u32,
    pub active: u32,
    pub kind: StepKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    Plain,
    /// A branch some lanes of the group took and others did not.
    Diverge,
    /// `bar`/`barrier`: the group waits there.
    Barrier,
    Exit,
    Ret,
}

/// A byte of a CTA's shared memory in words: in which variable, or in the dynamic part.
fn shared_byte(program: &Program, offset: u32) -> String {
    if offset >= program.dynamic_shared_at {
        return format!("byte {} of dynamic shared memory", offset - program.dynamic_shared_at);
    }
    match program.shared_vars.iter().find(|(at, n, _)| (*at..at + n).contains(&offset)) {
        Some((at, _, name)) => format!("byte {} of `{name}`", offset - at),
        None => format!("shared byte {offset}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module is decoded for the kernels asked for (and what they reach), the
    /// rest left alone until asked for; a later decode keeps the variables' values
    /// on the device, and after [`PARTIAL_DECODES`] the whole module is decoded.
    #[test]
    fn kernels_are_decoded_when_asked_for_and_variables_keep_their_values() {
        let mut src = String::from(
            ".version 8.0\n.target sm_90\n.address_size 64\n.global .align 4 .u32 box;\n\
             .func (.param .b32 r) plus_one(.param .b32 x)\n{\n.reg .b32 %v;\n\
             ld.param.u32 %v, [x];\nadd.u32 %v, %v, 1;\nst.param.u32 [r], %v;\nret;\n}\n\
             .visible .entry put(.param .u32 v)\n{\n.reg .b32 %a;\nld.param.u32 %a, [v];\nst.global.u32 [box], %a;\nret;\n}\n\
             .visible .entry get(.param .u64 out)\n{\n.reg .b32 %a<3>;\n.reg .b64 %p;\n\
             ld.param.u64 %p, [out];\nld.global.u32 %a1, [box];\n\
             { .param .b32 x; .param .b32 r; st.param.b32 [x], %a1; call (r), plus_one, (x); ld.param.b32 %a2, [r]; }\n\
             st.global.u32 [%p], %a2;\nret;\n}\n",
        );
        for k in 0..6 {
            src.push_str(&format!(".visible .entry k{k}()\n{{\nret;\n}}\n"));
        }
        let module = Module::load(&src).unwrap();
        let undecoded = |p: &Program, name: &str| {
            let f = p.funcs.iter().find(|f| f.name == name).unwrap();
            f.error.as_ref().is_some_and(|e| e.message.starts_with("not decoded"))
        };
        let put = module.kernel("put").unwrap();
        assert!(!undecoded(&put.program, "put"));
        assert!(undecoded(&put.program, "get") && undecoded(&put.program, "plus_one"));
        let mut device = Device::default();
        let one = Dim3 { x: 1, y: 1, z: 1 };
        device.launch(&put, one, one, 0, &41u32.to_le_bytes(), 1000).unwrap();
        // `get` and the function it calls are decoded now; `box` kept its 41.
        let get = module.kernel("get").unwrap();
        assert!(!undecoded(&get.program, "get") && !undecoded(&get.program, "plus_one"));
        assert!(undecoded(&get.program, "k0"));
        let out = device.alloc(4).unwrap();
        device.launch(&get, one, one, 0, &out.to_le_bytes(), 1000).unwrap();
        let mut got = [0u8; 4];
        device.copy_from_device(out, &mut got).unwrap();
        assert_eq!(u32::from_le_bytes(got), 42);
        // Two decodes so far; two more kernels are decoded with the rest, then all.
        for k in 0..3 {
            let kernel = module.kernel(&format!("k{k}")).unwrap();
            assert_eq!(undecoded(&kernel.program, "k5"), k < 2, "after k{k}");
        }
        assert!(module.program().unwrap().funcs.iter().all(|f| f.error.is_none()));
    }

    #[test]
    fn each_kind_of_fault_is_told_apart_from_a_real_launch() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .extern .func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn, .param .b64 c);\n\
            .global .align 1 .b8 text[2] = {120, 0};\n\
            .visible .entry k(.param .u64 p, .param .u32 what)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.reg .pred %q<5>;\n\
            ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [what];\n\
            setp.eq.u32 %q1, %r1, 0;\n@%q1 st.global.u32 [%rd1+4096], %r1;\n\
            setp.eq.u32 %q2, %r1, 1;\n@%q2 st.global.u32 [%rd1+2], %r1;\n\
            setp.eq.u32 %q3, %r1, 2;\n@%q3 bra ASSERT;\n\
            setp.eq.u32 %q4, %r1, 3;\n@%q4 trap;\n\
            LOOP: bra LOOP;\n\
            ASSERT: mov.u64 %rd2, text;\n\
            { .param .b64 a; .param .b64 b; .param .b32 c; .param .b64 d; .param .b64 e;\n\
            st.param.b64 [a], %rd2; st.param.b64 [b], %rd2; st.param.b32 [c], 7; st.param.b64 [d], %rd2; st.param.b64 [e], 1;\n\
            call.uni __assertfail, (a, b, c, d, e); }\n\
            ret;\n}\n";
        let module = Module::load(src).unwrap();
        let kernel = module.kernel("k").unwrap();
        let mut device = Device::default();
        let buf = device.alloc(64).unwrap();
        let one = Dim3 { x: 1, y: 1, z: 1 };
        let mut kind = |what: u32| {
            let mut params = buf.to_le_bytes().to_vec();
            params.extend_from_slice(&what.to_le_bytes());
            params.extend_from_slice(&[0; 4]);
            device
                .launch(&kernel, one, one, 0, &params[..kernel.param_bytes as usize], 10_000)
                .unwrap_err()
                .kind()
        };
        assert_eq!(kind(0), FaultKind::OutOfBounds);
        assert_eq!(kind(1), FaultKind::Misaligned);
        assert_eq!(kind(2), FaultKind::Assert);
        assert_eq!(kind(3), FaultKind::Other);
        assert_eq!(kind(4), FaultKind::Limit);
    }

    #[test]
    fn an_instruction_takes_the_last_loc_before_it_in_its_function() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n\
            mov.u32 %r1, 1;\n\
            .loc 2 7 3\n\
            mov.u32 %r2, 2;\n\
            {\n.loc 2 9 0, function_name $L1, inlined_at 2 30 5\n\
            add.u32 %r1, %r1, 1;\n}\n\
            ret;\n}\n\
            .file 1 \"a.cu\"\n.file 2 \"dir/k.cu\", 1700000000, 512\n";
        let m = Module::load(src).unwrap();
        let at = |text: &str| {
            let start = src.find(text).unwrap() as u32;
            m.source_line(Span { start, end: start + text.len() as u32 }).map(|s| s.to_string())
        };
        assert_eq!(at("mov.u32 %r1"), None);
        assert_eq!(at("mov.u32 %r2").as_deref(), Some("dir/k.cu:7:3"));
        // Inside a nested block; the inlined callee's own place comes first.
        assert_eq!(at("add.u32").as_deref(), Some("dir/k.cu:9"));
        assert_eq!(at("ret").as_deref(), Some("dir/k.cu:9"));
    }
}
