//! Decoding one function body against the module's [`Layout`]: registers resolved to
//! slots, names to addresses (frame, shared, module data, functions), labels to
//! program pcs, and for every branch its reconvergence pc. The instructions
//! themselves are decoded by family, one file each (`int.rs`, `float.rs`, `half.rs`,
//! `cmp.rs`, `mem.rs`, `cvt.rs`, `warp.rs`, `control.rs`).
//!
//! A function's frame (per lane, in its local memory) holds, in order: the
//! parameters and returns of a `.func`, then every `.local` and `.param` variable its
//! body declares (each declaration its own bytes, so nested call sequences never
//! share storage).

use super::flow::{EXIT, Flow};
pub use super::ops::*;
use super::program::{Layout, Symbol, fail, param_bytes, var_size};
use super::regs::{RegFile, RegScopes, Slot};
use crate::check::ModuleInfo;
use crate::check::types::Ty;
use crate::isa::{Family, Form, Opcode as O, WordSet};
use crate::syntax::ast::*;
use rustc_hash::FxHashMap as HashMap;

/// A variable of the frame: its offset from the frame's base and its size.
#[derive(Clone, Copy, Debug)]
pub(super) struct FrameVar {
    pub offset: u32,
    pub size: u32,
}

/// Names a block declares besides registers.
#[derive(Default)]
struct Scope<'m> {
    frame: HashMap<&'m str, FrameVar>,
    shared: HashMap<&'m str, u32>,
    /// `.callprototype` labels: the sizes of their parameters and returns.
    protos: HashMap<&'m str, (Vec<u32>, Vec<u32>)>,
}

/// What a name in an operand stands for.
pub(super) enum Named {
    Reg(Slot),
    Frame(FrameVar),
    KernelParam(u32),
    Shared(u32),
    Data(u64),
    Func(u32),
}

/// What decoding a body gives besides its instructions.
pub(super) struct Decoded {
    /// Rows of each register file: 32-bit, 64-bit, predicates.
    pub rows: (u32, u32, u32),
    /// The parameters and returns declared `.reg`: register and frame slot.
    pub reg_params: Vec<RegParam>,
    pub reg_rets: Vec<RegParam>,
    pub frame_bytes: u32,
    /// Offsets of the shared variables the body names, sorted.
    pub shared: Vec<u32>,
    /// In a body with a `wgmma`: the registers each instruction names (by program pc).
    pub touches: Vec<(u32, Box<[u32]>)>,
}

pub(super) struct Decoder<'m> {
    pub src: &'m str,
    /// Each instruction's form, as `check` found it.
    pub info: &'m ModuleInfo,
    pub pool: &'m Pool,
    pub layout: &'m Layout<'m>,
    pub regs: RegScopes<'m>,
    scopes: Vec<Scope<'m>>,
    pub frame_bytes: u32,
    /// A kernel's parameters: name -> (type, offset in the parameter buffer).
    pub kernel_params: HashMap<&'m str, (Ty, u32)>,
    pub kernel: bool,
    /// Whether the kernel declares its cluster shape (`.explicitcluster`,
    /// `.reqnctapercluster`): what `%is_explicit_cluster` reads.
    pub explicit_cluster: bool,
    pub flow: &'m Flow<'m>,
    /// The program pc of this body's first instruction.
    pub base: u32,
    /// The predicate row holding each lane's carry flag `CC.CF`, once an instruction
    /// uses it.
    pub carry: Option<u32>,
    /// Offsets of the shared variables it names, for the bounds of each kernel's
    /// shared memory.
    used_shared: std::cell::RefCell<Vec<u32>>,
    /// The registers each instruction names, kept for bodies with a `wgmma` (whose
    /// pending operands no other instruction may touch, `exec/wgmma.rs`).
    touches: Option<Vec<(u32, Box<[u32]>)>>,
    /// The module's `.version` (major, minor).
    pub ptx_version: (u32, u32),
}

/// Largest frame of one function per lane (a guard, not a CUDA limit).
const MAX_FRAME: u64 = 1 << 20;

impl<'m> Decoder<'m> {
    /// Decodes body `f` (index `k` of the layout), appending to `insts`. Returns the
    /// function's register rows and frame bytes.
    pub fn decode(
        module: &'m Module,
        info: &'m ModuleInfo,
        src: &'m str,
        f: &'m Function,
        layout: &'m Layout<'m>,
        insts: &mut Vec<Inst>,
    ) -> Result<Decoded, LowerError> {
        let Some(body) = &f.body else { return fail(f.name.span, "the function has no body") };
        let k = match layout.symbols.get(f.name.text(src)) {
            Some(Symbol::Func(k)) => *k as usize,
            _ => return fail(f.name.span, "the function is not in the program"),
        };
        let kernel = f.kind == FuncKind::Entry;
        let flow = Flow::build(module, src, body);
        let (params, rets) = &layout.sigs[k];
        let mut top = Scope::default();
        let mut kernel_params = HashMap::default();
        let mut frame_bytes = 0;
        for (p, &(ty, offset, size)) in f.params.iter().zip(params).chain(f.rets.iter().zip(rets)) {
            let Some(n) = p.name else { continue };
            if kernel {
                kernel_params.insert(n.text(src), (ty, offset));
            } else {
                top.frame.insert(n.text(src), FrameVar { offset, size });
                frame_bytes = frame_bytes.max(offset + size);
            }
        }
        let mut d = Decoder {
            src,
            info,
            pool: &module.pool,
            layout,
            regs: RegScopes::default(),
            scopes: vec![top],
            frame_bytes,
            kernel_params,
            kernel,
            explicit_cluster: kernel
                && f.directives
                    .iter()
                    .any(|(n, _)| matches!(n.text(src), ".explicitcluster" | ".reqnctapercluster")),
            flow: &flow,
            base: insts.len() as u32,
            carry: None,
            used_shared: Default::default(),
            touches: body.span.text(src).contains("wgmma").then(Vec::new),
            ptx_version: module.version.as_ref().map_or((0, 0), |v| (v.major, v.minor)),
        };
        // A `.func`'s parameters may also be declared as registers (`.reg` params).
        // The call passes them through the frame like the others; the function's
        // registers take them at entry and give the returns back at `ret`.
        d.regs.enter();
        let mut reg_params = Vec::new();
        let mut reg_rets = Vec::new();
        for (k, p) in f.params.iter().chain(&f.rets).enumerate() {
            if p.space == Space::Reg
                && let Some(n) = p.name
            {
                let ty = Ty::from_word(p.ty.text(src)).unwrap_or(Ty::Other);
                let Some(reg) = d.regs.declare(n.text(src), ty, None) else {
                    return fail(p.span, "a register parameter of this type is not supported");
                };
                let (is_ret, j) = if k < f.params.len() { (false, k) } else { (true, k - f.params.len()) };
                let &(_, offset, size) = if is_ret { &rets[j] } else { &params[j] };
                let slot = RegParam { reg, offset, size };
                if is_ret { reg_rets.push(slot) } else { reg_params.push(slot) }
            }
        }
        d.block(body, insts)?;
        // Falling off the end of a body leaves the function, as the flow graph says:
        // an implicit `ret` (`exit` in a kernel) at the closing brace, so that no
        // thread runs on into the next function's instructions.
        let end = crate::syntax::Span::new(body.span.end.saturating_sub(1), body.span.end);
        insts.push(Inst { guard: None, op: if kernel { Op::Exit } else { Op::Ret }, span: end });
        let mut used = d.used_shared.take();
        used.sort_unstable();
        used.dedup();
        Ok(Decoded {
            rows: d.regs.counts(),
            reg_params,
            reg_rets,
            frame_bytes: d.frame_bytes,
            shared: used,
            touches: d.touches.take().unwrap_or_default(),
        })
    }

    pub fn t(&self, n: Name) -> &'m str {
        n.span.text(self.src)
    }

    fn block(&mut self, b: &'m Block, insts: &mut Vec<Inst>) -> Result<(), LowerError> {
        self.scopes.push(Scope::default());
        self.regs.enter();
        for (k, s) in self.pool.stmts(b).iter().enumerate() {
            match s {
                Stmt::Var(v) => self.var(v)?,
                Stmt::CallPrototype { label, proto } => {
                    let sizes = |ps: &[Param]| ps.iter().map(|p| param_bytes(p, self.src)).collect();
                    let entry = (sizes(&proto.params), sizes(&proto.rets));
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.protos.insert(label.span.text(self.src), entry);
                    }
                }
                Stmt::Block(inner) => self.block(inner, insts)?,
                Stmt::Instr(i) => {
                    let pc = insts.len() as u32 - self.base;
                    let view = self.pool.view(i);
                    let Some(&form) = self.info.form(b.stmts.start as usize + k) else {
                        return fail(view.span, "the instruction was not checked");
                    };
                    let guard = match view.guard {
                        Some(g) => Some(Pred { row: self.pred_row(g.pred)?, negated: g.negated }),
                        None => None,
                    };
                    let op = self.op(&view, &form, pc)?;
                    if self.touches.is_some() {
                        let mut keys = Vec::new();
                        if let Some(g) = view.guard {
                            keys.extend(self.regs.resolve(self.t(g.pred)).map(|s| s.key()));
                        }
                        for o in view.operands {
                            self.named_regs(o, &mut keys);
                        }
                        keys.sort_unstable();
                        keys.dedup();
                        let at = insts.len() as u32;
                        self.touches.as_mut().into_iter().for_each(|t| t.push((at, keys.clone().into())));
                    }
                    insts.push(Inst { guard, op, span: view.span });
                }
                _ => {}
            }
        }
        self.regs.exit();
        self.scopes.pop();
        Ok(())
    }

    /// The registers operand `o` names, as [`crate::lower::regs::Slot::key`]s.
    fn named_regs(&self, o: &Operand, keys: &mut Vec<u32>) {
        let mut name = |n: Name| keys.extend(self.regs.resolve(self.t(n)).map(|s| s.key()));
        match o {
            Operand::Name(n) | Operand::Offset(n, ..) => name(*n),
            Operand::Addr(a) => a.base.into_iter().for_each(name),
            Operand::Not(inner, _) | Operand::Neg(inner, _) => self.named_regs(inner, keys),
            Operand::Pair(x, y) => {
                self.named_regs(x, keys);
                self.named_regs(y, keys);
            }
            Operand::Vector(items, _) | Operand::List(items, _) => {
                items.iter().for_each(|i| self.named_regs(i, keys))
            }
            Operand::Image(img) => {
                name(img.image);
                self.named_regs(&img.coords, keys);
            }
            Operand::Component(..) | Operand::Sink(_) | Operand::Int { .. } | Operand::Float { .. } => {}
        }
    }

    /// A declaration inside the body.
    fn var(&mut self, v: &'m VarDecl) -> Result<(), LowerError> {
        match v.space {
            Space::Reg => {
                let ty = Ty::from_word(self.t(v.ty)).unwrap_or(Ty::Other);
                for d in &v.vars {
                    if self.regs.declare(self.t(d.name), ty, d.count).is_none() {
                        return fail(
                            d.name.span,
                            format!(
                                "registers of type {} are not supported yet (ptxvm's registers hold at most 64 bits)",
                                ty.word()
                            ),
                        );
                    }
                }
            }
            Space::Shared => {
                for d in &v.vars {
                    let offset = match self.layout.body_shared.get(&d.name.span.start) {
                        Some(&o) => o,
                        None => self.layout.dynamic_shared_at,
                    };
                    let name = self.t(d.name);
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.shared.insert(name, offset);
                    }
                }
            }
            Space::Local | Space::Param => {
                for d in &v.vars {
                    let Some((size, align)) = var_size(v, d, self.src) else {
                        return fail(d.name.span, "a local or parameter array needs a size");
                    };
                    let offset = u64::from(self.frame_bytes).div_ceil(align) * align;
                    let end = offset + size;
                    if end > MAX_FRAME {
                        return fail(d.name.span, "a function frame beyond 1 MiB per thread");
                    }
                    if d.init.is_some() {
                        return fail(d.name.span, "initialised local variables are not supported");
                    }
                    self.frame_bytes = end as u32;
                    let fv = FrameVar { offset: offset as u32, size: size as u32 };
                    let name = self.t(d.name);
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.frame.insert(name, fv);
                    }
                }
            }
            _ => return fail(v.span, "variables of this state space inside a function are not supported"),
        }
        Ok(())
    }

    /// Are two operands the same register?
    pub fn same_register(&self, a: &Operand, b: &Operand) -> bool {
        match (a, b) {
            (Operand::Name(x), Operand::Name(y)) => {
                matches!((self.named(*x), self.named(*y)), (Some(Named::Reg(p)), Some(Named::Reg(q))) if p == q)
            }
            _ => false,
        }
    }

    /// What `n` names here: registers first, then the innermost declaration.
    pub fn named(&self, n: Name) -> Option<Named> {
        let text = self.t(n);
        if let Some(slot) = self.regs.resolve(text) {
            return Some(Named::Reg(slot));
        }
        for s in self.scopes.iter().rev() {
            if let Some(&v) = s.frame.get(text) {
                return Some(Named::Frame(v));
            }
            if let Some(&o) = s.shared.get(text) {
                self.used_shared.borrow_mut().push(o);
                return Some(Named::Shared(o));
            }
        }
        if let Some(&(_, off)) = self.kernel_params.get(text) {
            return Some(Named::KernelParam(off));
        }
        match self.layout.symbols.get(text)? {
            Symbol::Func(f) => Some(Named::Func(*f)),
            Symbol::Data(a) => Some(Named::Data(*a)),
            Symbol::Shared(o) => {
                self.used_shared.borrow_mut().push(*o);
                Some(Named::Shared(*o))
            }
        }
    }

    pub fn proto(&self, n: Name) -> Option<&(Vec<u32>, Vec<u32>)> {
        self.scopes.iter().rev().find_map(|s| s.protos.get(self.t(n)))
    }

    pub fn slot(&self, n: Name) -> Result<Slot, LowerError> {
        match self.regs.resolve(self.t(n)) {
            Some(s) => Ok(s),
            None => fail(n.span, format!("`{}` is not a register", self.t(n))),
        }
    }

    pub fn pred_row(&self, n: Name) -> Result<u32, LowerError> {
        match self.slot(n)? {
            Slot { file: RegFile::Pred, index, .. } => Ok(index),
            _ => fail(n.span, format!("`{}` is not a predicate", self.t(n))),
        }
    }

    pub fn pred(&self, op: &Operand) -> Result<Pred, LowerError> {
        match op {
            Operand::Name(n) => Ok(Pred { row: self.pred_row(*n)?, negated: false }),
            Operand::Not(inner, _) => Ok(Pred { negated: true, ..self.pred(inner)? }),
            other => fail(other.span(), "expected a predicate register"),
        }
    }

    pub fn pred_src(&self, op: &Operand) -> Result<PredSrc, LowerError> {
        match op {
            Operand::Int { bits, .. } => Ok(PredSrc::Const(*bits != 0)),
            Operand::Name(n) if self.t(*n) == "%is_explicit_cluster" => {
                Ok(PredSrc::Const(self.explicit_cluster))
            }
            Operand::Not(inner, _) if matches!(**inner, Operand::Int { .. }) => match self.pred_src(inner)? {
                PredSrc::Const(v) => Ok(PredSrc::Const(!v)),
                other => Ok(other),
            },
            other => Ok(PredSrc::Reg(self.pred(other)?)),
        }
    }

    pub fn dst(&self, op: &Operand) -> Result<Slot, LowerError> {
        match op {
            Operand::Name(n) => self.slot(*n),
            other => fail(other.span(), "expected a register destination"),
        }
    }

    /// `d` or `d|p` (`shfl.sync`, `match.sync`): a register, and the predicate row
    /// when one is named (`_` or none: no predicate).
    pub fn dst_and_pred(&self, op: &Operand) -> Result<(Slot, Option<u32>), LowerError> {
        match op {
            Operand::Pair(d, p) => {
                let p = match &**p {
                    Operand::Name(n) => Some(self.pred_row(*n)?),
                    _ => None,
                };
                Ok((self.dst(d)?, p))
            }
            other => Ok((self.dst(other)?, None)),
        }
    }

    /// A destination that may be the sink `_`.
    pub fn dst_or_sink(&self, op: &Operand) -> Result<Option<Slot>, LowerError> {
        match op {
            Operand::Sink(_) => Ok(None),
            other => self.dst(other).map(Some),
        }
    }

    /// A source operand read as type `ty` (immediates converted to its bits; names of
    /// variables and functions to their addresses).
    pub fn src(&self, op: &Operand, ty: Ty) -> Result<Src, LowerError> {
        match op {
            Operand::Name(n) => match self.named(*n) {
                Some(Named::Reg(s)) => Ok(Src::Reg(s)),
                Some(Named::Shared(o)) => Ok(Src::Imm(u64::from(o))),
                Some(Named::Data(a)) => Ok(Src::Imm(a)),
                Some(Named::Func(f)) => Ok(Src::Imm(FUNC_WINDOW + u64::from(f) * FUNC_STRIDE)),
                // The warp size as a constant (nvcc writes it for `warpSize`).
                None if self.t(*n) == "WARP_SZ" => Ok(Src::Imm(32)),
                _ => fail(n.span, format!("`{}` cannot be used as a value here", self.t(*n))),
            },
            Operand::Offset(n, off, _) => match self.src(&Operand::Name(*n), ty)? {
                Src::Imm(a) => Ok(Src::Imm(a.wrapping_add(*off as u64))),
                Src::Reg(_) => fail(op.span(), "a register plus an offset is not a value"),
            },
            Operand::Int { bits, .. } => Ok(Src::Imm(*bits)),
            Operand::Float { bits, is_f32_bits, .. } => Ok(Src::Imm(match (ty.bits(), is_f32_bits) {
                (32, true) | (64, false) => *bits,
                (32, false) => u64::from((f64::from_bits(*bits) as f32).to_bits()),
                (64, true) => f64::from(f32::from_bits(*bits as u32)).to_bits(),
                _ => return fail(op.span(), "a floating-point immediate of this size is not supported"),
            })),
            other => fail(other.span(), "this operand form is not supported here"),
        }
    }

    /// The program pc of body pc `pc`, or [`EXIT`].
    pub fn program_pc(&self, pc: u32) -> u32 {
        if pc == EXIT { EXIT } else { self.base + pc }
    }

    /// The reconvergence pc of the block that ends at body pc `pc`.
    pub fn reconverge(&self, pc: u32) -> u32 {
        let block = self.flow.block_of[pc as usize] as usize;
        self.program_pc(self.flow.reconverge[block])
    }

    pub(super) fn unsupported<T>(&self, i: &InstrView<'_>) -> Result<T, LowerError> {
        let name = i.full_name(self.src);
        fail(i.span, format!("{name}: ptxvm cannot run this instruction yet"))
    }

    /// Decodes one instruction by its family, each in its own file.
    pub(super) fn op(&mut self, i: &InstrView<'m>, f: &Form, pc: u32) -> Result<Op, LowerError> {
        // The driver's compiler folds `min`/`max` of a register with itself, without
        // modifiers, into a move: an H100 gives back a NaN `a` as it is, not the
        // canonical NaN, in f32 and f16 (not so in bf16 and the pairs;
        // tests/hw/leaf_arith).
        let ops = i.operands;
        if let (O::Min | O::Max, Some(ty @ (Ty::F32 | Ty::F16))) = (f.opcode, f.ty())
            && ops.len() == 3
            && f.words == WordSet::EMPTY
            && self.same_register(&ops[1], &ops[2])
        {
            return Ok(Op::Mov { dst: self.dst(&ops[0])?, src: self.src(&ops[1], ty)? });
        }
        match f.family() {
            Family::Int => self.int_op(i, f),
            Family::Float => self.float_op(i, f),
            Family::Half => self.half_op(i, f),
            Family::Cmp => self.cmp_op(i, f),
            Family::Mem => self.mem_op(i, f),
            Family::Cvt => self.cvt(i, f),
            Family::Warp => self.warp_op(i, f),
            Family::Control => self.control_op(i, f, pc),
            Family::Matrix => self.matrix_op(i, f),
            Family::Video => self.video_op(i, f),
            Family::Misc => self.misc_op(i, f),
            Family::Tex => self.tex_op(i, f),
        }
    }
}
