//! Decoding a checked module into one [`Program`] the executor only dispatches on
//! (DESIGN.md, principle 1). This file is the linker: it numbers the functions (a
//! call is a jump to the callee's first pc, so every body shares one pc space), lays
//! out static shared memory for the CTA, and builds the data image of the module's
//! `.global` and `.const` variables with their initialisers (function addresses
//! included, for jump tables). `decode.rs` decodes each body against this layout.
//!
//! Anything ptxvm cannot run is a [`LowerError`] naming the instruction or
//! declaration and its place, never a silent guess.

use super::decode::Decoder;
pub use super::ops::*;
use crate::check::ModuleInfo;
use crate::check::types::Ty;
use crate::syntax::Span;
use crate::syntax::ast::*;
use rustc_hash::FxHashMap as HashMap;

pub(super) fn fail<T>(span: Span, message: impl Into<String>) -> Result<T, LowerError> {
    Err(LowerError { span, message: message.into() })
}

/// What a module-level name stands for once linked.
#[derive(Clone, Copy, Debug)]
pub(super) enum Symbol {
    /// A function with a body: its index in [`Program::funcs`].
    Func(u32),
    /// A `.global` or `.const` variable at this device address.
    Data(u64),
    /// A static `.shared` variable at this offset of the CTA's shared memory.
    Shared(u32),
}

/// Where a function's parameters and returns sit: (type, offset, size) of each.
pub(super) type Signature = (Vec<(Ty, u32, u32)>, Vec<(Ty, u32, u32)>);

/// The module-wide layout every body is decoded against.
pub(super) struct Layout<'m> {
    pub symbols: HashMap<&'m str, Symbol>,
    /// Offsets of `.shared` variables declared inside bodies, by declarator span.
    pub body_shared: HashMap<u32, u32>,
    pub dynamic_shared_at: u32,
    /// Every function's parameter and return layout, by index.
    pub sigs: Vec<Signature>,
}

/// Decodes the functions of a module that `check` accepted: every one, or with
/// `kernels`, those kernels, the functions whose addresses module variables hold,
/// and what they can reach (the rest stay undecoded, an error only if launched: a
/// program pays for the kernels it runs). Its data image
/// will sit at `image_base`. A body ptxvm cannot decode keeps its error in its
/// [`Func`] (see [`Program::reachable_error`]), so other kernels still run.
/// Function numbers, the shared-memory layout and the image do not depend on
/// `kernels`.
///
/// # Errors
/// A [`LowerError`] for a module-level declaration ptxvm cannot lay out.
pub fn lower_module(
    module: &Module,
    info: &ModuleInfo,
    src: &str,
    image_base: u64,
    kernels: Option<&[&str]>,
) -> Result<Program, LowerError> {
    let bodies: Vec<&Function> = module
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Func(f) if f.body.is_some() => Some(f),
            _ => None,
        })
        .collect();
    let mut symbols: HashMap<&str, Symbol> = HashMap::default();
    for (k, f) in bodies.iter().enumerate() {
        symbols.insert(f.name.text(src), Symbol::Func(k as u32));
    }
    let refs = super::shared::References::of(module, src, &bodies);
    let reach = super::shared::Reach::of(&refs, &bodies);
    let decode = match kernels {
        Some(names) => {
            let mut roots: Vec<usize> = names.iter().filter_map(|n| refs.body(n)).collect();
            roots.extend(refs.in_initialisers(module, src));
            refs.reached_from(&roots)
        }
        None => vec![true; bodies.len()],
    };
    let mut shared = super::shared::SharedLayout::default();
    let mut dynamic = Vec::new();
    let mut image = Image { bytes: Vec::new(), base: image_base, pending: Vec::new() };
    let mut consts = Vec::new();
    let mut globals = Vec::new();
    for item in &module.items {
        let Item::Var(v) = item else { continue };
        match v.space {
            Space::Shared => {
                for d in &v.vars {
                    match shared.place(src, v, d, &reach, false)? {
                        Some(off) => {
                            symbols.insert(d.name.text(src), Symbol::Shared(off));
                        }
                        None => dynamic.push(d.name.text(src)),
                    }
                }
            }
            Space::Global | Space::Const => {
                for d in &v.vars {
                    let addr = image.place(src, v, d)?;
                    let end = image.base + image.bytes.len() as u64;
                    if v.space == Space::Const {
                        consts.push((addr, end));
                    }
                    globals.push((d.name.text(src).to_string(), addr, end - addr));
                    symbols.insert(d.name.text(src), Symbol::Data(addr));
                }
            }
            _ => {}
        }
    }
    let mut body_shared = HashMap::default();
    for f in &bodies {
        if let Some(b) = &f.body {
            shared.walk_bodies(module, src, b, &reach, &mut body_shared)?;
        }
    }
    image.initialise(src, &symbols)?;
    // Every unsized `.extern .shared` array is the CTA's dynamic shared memory, after
    // all static variables (CUDA's `extern __shared__`).
    let dynamic_shared_at = shared.end.div_ceil(16) * 16;
    for name in dynamic {
        symbols.insert(name, Symbol::Shared(dynamic_shared_at as u32));
    }
    let sigs = bodies.iter().map(|f| signature(src, f)).collect();
    let layout = Layout { symbols, body_shared, dynamic_shared_at: dynamic_shared_at as u32, sigs };

    let mut insts = Vec::new();
    let mut funcs: Vec<Func> = Vec::new();
    let mut touched: Vec<(u32, Box<[u32]>)> = Vec::new();
    let mut used_shared: Vec<Vec<u32>> = Vec::new();
    for (k, f) in bodies.iter().enumerate() {
        let entry = insts.len() as u32;
        let (params, rets) = layout.sigs[k].clone();
        let kernel = f.kind == FuncKind::Entry;
        let decoded = if decode[k] {
            Decoder::decode(module, info, src, f, &layout, &mut insts)
        } else {
            let why = "not decoded: the module was decoded for other kernels".to_string();
            Err(LowerError { span: f.name.span, message: why })
        };
        let (rows, frame_bytes, used, error, reg_params, reg_rets) = match decoded {
            Ok(d) => {
                touched.extend(d.touches);
                (d.rows, d.frame_bytes, d.shared, None, d.reg_params, d.reg_rets)
            }
            Err(e) => {
                insts.truncate(entry as usize);
                ((0, 0, 0), 0, Vec::new(), Some(e), Vec::new(), Vec::new())
            }
        };
        let body = &insts[entry as usize..];
        let callees = body
            .iter()
            .filter_map(|i| match &i.op {
                Op::Call(c) => match c.callee {
                    Callee::Direct(f) => Some(f),
                    Callee::Indirect(_) | Callee::Builtin(_) => None,
                },
                _ => None,
            })
            .collect();
        let indirect =
            body.iter().any(|i| matches!(&i.op, Op::Call(c) if matches!(c.callee, Callee::Indirect(_))));
        let param_bytes = if kernel { params.iter().map(|p| p.1 + p.2).max().unwrap_or(0) } else { 0 };
        funcs.push(Func {
            name: f.name.text(src).to_string(),
            kernel,
            entry,
            rows,
            params,
            rets,
            reg_params,
            reg_rets,
            param_bytes,
            frame_bytes,
            error,
            callees,
            indirect,
            shared: None,
            cluster: f.directives.iter().find(|(n, _)| n.text(src) == ".reqnctapercluster").map(|(_, d)| {
                let at = |k: usize| d.get(k).map_or(1, |&v| u32::try_from(v).unwrap_or(u32::MAX));
                crate::exec::threads::Dim3 { x: at(0), y: at(1), z: at(2) }
            }),
        });
        used_shared.push(used);
    }
    for k in 0..funcs.len() {
        if funcs[k].kernel {
            funcs[k].shared = kernel_shared(&funcs, k as u32, &used_shared, &shared.vars);
        }
    }
    let sm = module
        .targets
        .iter()
        .rev()
        .find_map(|t| crate::check::target::parse_sm(t.text(src)))
        .map_or(90, |sm| sm.number);
    let fast = insts.iter().map(super::fast::FastInst::of).collect();
    let mbarrier_waits =
        insts.iter().any(|i| matches!(&i.op, Op::Mbarrier(m) if matches!(m.op, MbarOp::Wait { .. })));
    // The device heap holds malloc's blocks and the parameter buffers of launches
    // from device code.
    let uses_heap = insts.iter().any(|i| {
        matches!(&i.op, Op::Call(c)
            if matches!(c.callee, Callee::Builtin(Builtin::Malloc | Builtin::AlignedMalloc | Builtin::ParameterBuffer)))
    });
    let may_spin = insts.iter().any(|i| {
        matches!(&i.op, Op::Nanosleep | Op::Atom { .. } | Op::AtomVec(_) | Op::Ld { spin: true, .. })
    });
    let effect = insts.iter().map(|i| i.op.has_effect()).collect();
    let mut touches = Vec::new();
    if !touched.is_empty() {
        touches.resize(insts.len(), Box::default());
        for (pc, keys) in touched {
            touches[pc as usize] = keys;
        }
    }
    let reads_clock = insts.iter().any(|i| {
        matches!(i.op, Op::MovSpecial { sreg: Special::Clock | Special::Clock64 | Special::Globaltimer, .. })
    });
    Ok(Program {
        touches,
        may_spin,
        effect,
        reads_clock,
        sm,
        fast,
        insts,
        funcs,
        shared_bytes: shared.end as u32,
        shared_vars: shared.named,
        dynamic_shared_at: dynamic_shared_at as u32,
        image: image.bytes,
        image_base,
        serial: 0,
        globals,
        mbarrier_waits,
        uses_heap,
        consts,
    })
}

/// Lays out parameters (and, for a `.func`, returns after them) at their natural
/// alignment: in the launch's parameter buffer for a kernel, in the frame for a
/// `.func` (DESIGN.md: `.param` per launch and per call frame).
fn signature(src: &str, f: &Function) -> Signature {
    let mut offset = 0u32;
    let mut place = |p: &Param| {
        let ty = Ty::from_word(p.ty.text(src)).unwrap_or(Ty::Other);
        let size = param_bytes(p, src);
        let align = p.align.unwrap_or(ty.bits().div_ceil(8)).max(1);
        offset = offset.div_ceil(align) * align;
        let at = offset;
        offset += size;
        (ty, at, size)
    };
    let params = f.params.iter().map(&mut place).collect();
    let rets = f.rets.iter().map(&mut place).collect();
    (params, rets)
}

/// Bytes a `.func` parameter declared as an unsized array holds (CUDA passes at most
/// 4 KB of parameters to a function).
const UNSIZED_PARAM_BYTES: u32 = 4096;

/// Bytes of a function or prototype parameter. An unsized array (`.param .b8 a[]`)
/// takes whatever its caller passes, up to [`UNSIZED_PARAM_BYTES`].
pub(super) fn param_bytes(p: &Param, src: &str) -> u32 {
    let ty = Ty::from_word(p.ty.text(src)).unwrap_or(Ty::Other);
    let elems: u64 = p.array.iter().map(|d| d.unwrap_or(1)).product();
    let size = (u64::from(ty.bits().div_ceil(8).max(1)) * elems).min(u64::from(u32::MAX / 4)) as u32;
    if p.array.iter().any(Option::is_none) { size.max(UNSIZED_PARAM_BYTES) } else { size }
}

/// Bytes and alignment of one declarator of `v`; `None` for an unsized array.
pub(super) fn var_size(v: &VarDecl, d: &Declarator, src: &str) -> Option<(u64, u64)> {
    let ty = Ty::from_word(v.ty.text(src)).unwrap_or(Ty::Other);
    let elem = u64::from(ty.bits().div_ceil(8).max(1)) * u64::from(v.vector.unwrap_or(1));
    let elems = d.array.iter().try_fold(1u64, |n, x| x.map(|x| n.saturating_mul(x)))?;
    let align = u64::from(v.align.unwrap_or(elem as u32).max(1));
    Some((elems.saturating_mul(elem), align))
}

/// The static shared memory kernel `k` may touch, as sorted byte ranges: the
/// variables named by it and every function it can reach (all of them once an
/// indirect call is reachable). `None` when that is all of it, as with one kernel.
fn kernel_shared(
    funcs: &[Func],
    k: u32,
    used: &[Vec<u32>],
    vars: &HashMap<u32, u32>,
) -> Option<Vec<(u32, u32)>> {
    let mut seen = vec![false; funcs.len()];
    let mut todo = vec![k];
    while let Some(f) = todo.pop() {
        if std::mem::replace(&mut seen[f as usize], true) {
            continue;
        }
        if funcs[f as usize].indirect {
            seen.iter_mut().for_each(|s| *s = true);
            break;
        }
        todo.extend(&funcs[f as usize].callees);
    }
    let mut ranges: Vec<(u32, u32)> = seen
        .iter()
        .zip(used)
        .filter(|(s, _)| **s)
        .flat_map(|(_, offs)| offs.iter().filter_map(|o| vars.get(o).map(|&n| (*o, *o + n))))
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let end = vars.iter().map(|(o, n)| o + n).max().unwrap_or(0);
    if end == 0 || merged == [(0, end)] { None } else { Some(merged) }
}

/// The module's data image: `.global` and `.const` variables, initialised.
struct Image<'m> {
    bytes: Vec<u8>,
    base: u64,
    /// Declarations whose initialisers are written once every address is known.
    pending: Vec<(&'m VarDecl, &'m Declarator, usize)>,
}

/// Largest data image ptxvm builds (a guard, not a CUDA limit).
const MAX_IMAGE: u64 = 1 << 30;

impl<'m> Image<'m> {
    fn place(&mut self, src: &str, v: &'m VarDecl, d: &'m Declarator) -> Result<u64, LowerError> {
        if v.linkage == Some(Linkage::Extern) {
            return fail(
                d.name.span,
                "an `.extern` variable is defined in another module; ptxvm runs one module",
            );
        }
        let (size, align) = var_size(v, d, src).unwrap_or((0, 1));
        let offset = (self.bytes.len() as u64).div_ceil(align) * align;
        let end = offset.saturating_add(size);
        if end > MAX_IMAGE {
            return fail(d.name.span, "module variables beyond 1 GiB");
        }
        self.bytes.resize(end as usize, 0);
        if d.init.is_some() {
            self.pending.push((v, d, offset as usize));
        }
        Ok(self.base + offset)
    }

    /// Writes every initialiser: numbers in the variable's type, names as addresses.
    fn initialise(&mut self, src: &str, symbols: &HashMap<&str, Symbol>) -> Result<(), LowerError> {
        for (v, d, offset) in std::mem::take(&mut self.pending) {
            let ty = Ty::from_word(v.ty.text(src)).unwrap_or(Ty::Other);
            let elem = ty.bits().div_ceil(8).max(1) as usize;
            let size = var_size(v, d, src).map_or(0, |s| s.0 as usize);
            let mut values = Vec::new();
            if let Some(init) = &d.init {
                flatten(init, &mut values);
            }
            for (k, init) in values.into_iter().enumerate() {
                let at = offset + k * elem;
                if at + elem > offset + size {
                    return fail(d.name.span, "more initialisers than elements");
                }
                let bits = match init {
                    Init::Int(v, _) => *v,
                    // A `0f` literal into an f32: its bits as written (PTX ISA 4.5.2).
                    Init::Float(_, Some(bits), _) if ty == Ty::F32 => u64::from(*bits),
                    Init::Float(x, _, _) => match ty {
                        Ty::F32 => u64::from((*x as f32).to_bits()),
                        Ty::F64 => x.to_bits(),
                        // Rounded once from the literal's f64 (the half crate's from_f64
                        // goes through f32 and can round twice).
                        Ty::F16 | Ty::BF16 => {
                            use crate::sem::round::{BF16, F16, F64, Rnd};
                            let fmt = if ty == Ty::F16 { F16 } else { BF16 };
                            crate::sem::cvt::float_to_float(fmt, F64, Rnd::Rn, false, false, x.to_bits())
                        }
                        _ => *x as i64 as u64,
                    },
                    Init::Symbol { .. } => symbol_address(init, src, symbols)?,
                    // Byte k of an address: `(addr & 0xFF << 8k) >> 8k`.
                    Init::Masked { mask, symbol, .. } => {
                        (symbol_address(symbol, src, symbols)? & mask) >> mask.trailing_zeros().min(63)
                    }
                    // Texture and sampler attributes: ptxvm runs no texture instruction.
                    Init::List(..) | Init::Attribute { .. } => continue,
                };
                self.bytes[at..at + elem].copy_from_slice(&bits.to_le_bytes()[..elem.min(8)]);
            }
        }
        Ok(())
    }
}

/// The address an initialiser's symbol (`v`, `generic(v)+8`, a function) stands for.
fn symbol_address(init: &Init, src: &str, symbols: &HashMap<&str, Symbol>) -> Result<u64, LowerError> {
    let Init::Symbol { name, offset, .. } = init else {
        return fail(Span::default(), "an initialiser that is not a symbol where one was expected");
    };
    match symbols.get(name.text(src)) {
        Some(Symbol::Func(f)) => Ok(FUNC_WINDOW + u64::from(*f) * FUNC_STRIDE),
        Some(Symbol::Data(a)) => Ok(a.wrapping_add(*offset as u64)),
        _ => fail(name.span, format!("`{}` has no address here", name.text(src))),
    }
}

fn flatten<'a>(init: &'a Init, out: &mut Vec<&'a Init>) {
    match init {
        Init::List(items, _) => items.iter().for_each(|i| flatten(i, out)),
        other => out.push(other),
    }
}
