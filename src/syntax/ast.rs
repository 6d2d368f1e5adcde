//! The PTX abstract syntax tree. Every node carries a [`Span`] into the source; a
//! [`Name`] is only its span (8 bytes), read back with [`Name::text`], so the tree
//! holds no borrowed strings and stays compact (a 13 MB module makes about a million
//! nodes).
//!
//! The tree is deliberately generic about instructions: an [`Instr`] is a guard, an
//! opcode, its dotted modifiers and operands. Which combinations are valid is the
//! business of `check`, not of the parser (PTX ISA 9.x, sections 4 to 11).

use super::span::Span;

/// A name (identifier, dotted word, opcode) by its place in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name {
    pub span: Span,
}

impl Name {
    /// The name as written in `src` (the text the module was parsed from).
    pub fn text(self, src: &str) -> &str {
        self.span.text(src)
    }
}

#[derive(Debug, Default)]
pub struct Module {
    pub version: Option<Version>,
    pub targets: Vec<Name>,
    pub target_span: Option<Span>,
    pub address_size: Option<(u32, Span)>,
    pub items: Vec<Item>,
    /// The modifiers and operands of every instruction, stored flat (see [`Pool`]).
    pub pool: Pool,
}

/// Modifiers and operands of all instructions, and the statements of all blocks, in
/// flat vectors: an [`Instr`] or [`Block`] holds ranges into them, so parsing does
/// not allocate per instruction or block and the tree stays compact. [`Pool::view`] gives an instruction with its slices.
#[derive(Debug, Default)]
pub struct Pool {
    pub mods: Vec<Name>,
    pub operands: Vec<Operand>,
    /// Statements of all blocks; each block's are contiguous.
    pub stmts: Vec<Stmt>,
}

/// A range `start..start+len` into one of the [`Pool`] vectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolRange {
    pub start: u32,
    pub len: u32,
}

impl PoolRange {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

impl Pool {
    /// The statements of a block, in order.
    pub fn stmts(&self, b: &Block) -> &[Stmt] {
        self.stmts.get(b.stmts.range()).unwrap_or(&[])
    }

    /// The instruction with its modifiers and operands as slices.
    pub fn view<'p>(&'p self, i: &Instr) -> InstrView<'p> {
        InstrView {
            guard: i.guard,
            opcode: i.opcode,
            mods: self.mods.get(i.mods.range()).unwrap_or(&[]),
            operands: self.operands.get(i.operands.range()).unwrap_or(&[]),
            span: i.span,
        }
    }
}

/// `.version major.minor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub span: Span,
}

impl Version {
    /// The version as `major * 10 + minor`, e.g. 78 for PTX ISA 7.8.
    pub fn number(self) -> u32 {
        self.major * 10 + self.minor
    }
}

#[derive(Debug)]
pub enum Item {
    Func(Function),
    Var(VarDecl),
    /// `.alias alias, aliasee;`
    Alias {
        alias: Name,
        aliasee: Name,
    },
    /// A directive that carries no semantics for ptxvm (`.file`, `.section`, `.pragma`, ...).
    Skipped(Name),
    /// A directive the parser does not know; `check` reports it.
    Unknown(Name),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    Visible,
    Extern,
    Weak,
    Common,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    Entry,
    Func,
}

#[derive(Debug)]
pub struct Function {
    pub linkage: Option<Linkage>,
    pub kind: FuncKind,
    pub name: Name,
    pub rets: Vec<Param>,
    pub params: Vec<Param>,
    /// Performance and attribute directives: `.maxntid 256,1,1`, `.noreturn`, ...
    pub directives: Vec<(Name, Vec<u64>)>,
    /// `None` for a declaration (prototype) without a body.
    pub body: Option<Block>,
    pub span: Span,
}

/// A parameter of a function, kernel or call prototype: `.param .align 8 .b8 x[16]`.
#[derive(Debug, Clone)]
pub struct Param {
    pub space: Space,
    pub ty: Name,
    pub align: Option<u32>,
    /// `None` for the `_` placeholder of a `.callprototype`.
    pub name: Option<Name>,
    pub array: Vec<Option<u64>>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Reg,
    Sreg,
    Const,
    Global,
    Local,
    Param,
    Shared,
    Tex,
}

impl Space {
    pub fn from_directive(d: &str) -> Option<Space> {
        Some(match d {
            ".reg" => Space::Reg,
            ".sreg" => Space::Sreg,
            ".const" => Space::Const,
            ".global" => Space::Global,
            ".local" => Space::Local,
            ".param" => Space::Param,
            ".shared" => Space::Shared,
            ".tex" => Space::Tex,
            _ => return None,
        })
    }
}

#[derive(Debug)]
pub struct VarDecl {
    pub linkage: Option<Linkage>,
    pub space: Space,
    pub align: Option<u32>,
    /// `.v2`, `.v4` (or `.v8`): the element count of a vector variable.
    pub vector: Option<u32>,
    pub ty: Name,
    /// Further attributes such as `.ptr` in kernel parameters.
    pub attrs: Vec<Name>,
    pub vars: Vec<Declarator>,
    pub span: Span,
}

#[derive(Debug)]
pub struct Declarator {
    pub name: Name,
    /// `%r<10>`: declares `%r0` .. `%r9`.
    pub count: Option<u32>,
    /// Array dimensions; `None` for `[]` (size from the initialiser or external).
    pub array: Vec<Option<u64>>,
    pub init: Option<Init>,
}

#[derive(Debug)]
pub enum Init {
    List(Vec<Init>, Span),
    Int(u64, Span),
    /// A float literal as an f64; a `0f` literal also keeps its exact single-precision
    /// bits (PTX ISA 4.5.2), which the f64 loses for a signalling NaN.
    Float(f64, Option<u32>, Span),
    /// A symbol address: `name`, `name+8`, `generic(name)`, `generic(name)+8`.
    Symbol {
        name: Name,
        generic: bool,
        offset: i64,
    },
    /// One byte of a symbol's address, as nvcc writes a pointer into a byte array
    /// (packed structs): `0xFF00(generic(v)+4)` is byte 1 of `generic(v)+4`.
    Masked {
        mask: u64,
        symbol: Box<Init>,
        span: Span,
    },
    /// An attribute of a texture, sampler or surface (PTX ISA 5.3.3):
    /// `filter_mode = nearest`, `width = 64`.
    Attribute {
        key: Name,
        value: Box<Init>,
    },
}

/// A `{ }` block; its statements are a range of [`Pool::stmts`].
#[derive(Debug, Clone, Copy)]
pub struct Block {
    pub stmts: PoolRange,
    pub span: Span,
}

#[derive(Debug)]
pub enum Stmt {
    Label(Name),
    Instr(Instr),
    /// Boxed: declarations are rare in bodies and would make every statement larger.
    Var(Box<VarDecl>),
    Block(Block),
    /// `label: .branchtargets L1, L2;`
    BranchTargets {
        label: Name,
        targets: Vec<Name>,
    },
    /// `label: .calltargets f, g;`
    CallTargets {
        label: Name,
        targets: Vec<Name>,
    },
    /// `label: .callprototype (.param .b32 _) _ (.param .b32 _);` (boxed: rare and large)
    CallPrototype {
        label: Name,
        proto: Box<Prototype>,
    },
    /// `.loc`, `.pragma` and other directives without semantics for ptxvm.
    Skipped(Name),
    Unknown(Name),
}

/// The signature a `.callprototype` declares.
#[derive(Debug)]
pub struct Prototype {
    pub rets: Vec<Param>,
    pub params: Vec<Param>,
    pub noreturn: bool,
}

/// A guard predicate `@p` or `@!p`.
#[derive(Clone, Copy, Debug)]
pub struct Guard {
    pub negated: bool,
    pub pred: Name,
}

/// An instruction as stored in the tree; [`Pool::view`] resolves its ranges.
#[derive(Debug)]
pub struct Instr {
    pub guard: Option<Guard>,
    pub opcode: Name,
    pub mods: PoolRange,
    pub operands: PoolRange,
    pub span: Span,
}

/// An instruction with its modifiers and operands.
#[derive(Debug, Clone, Copy)]
pub struct InstrView<'p> {
    pub guard: Option<Guard>,
    pub opcode: Name,
    /// The dotted modifiers in order: `setp.lt.and.f32` has `.lt`, `.and`, `.f32`.
    pub mods: &'p [Name],
    pub operands: &'p [Operand],
    pub span: Span,
}

/// The operands of `call` (PTX ISA 9.7.12.9): `call (rets), f, (args)` and the
/// indirect forms through a register, `call (rets), %r, (args), targets`, where the
/// lists are optional.
#[derive(Clone, Copy, Debug)]
pub struct CallForm<'p> {
    pub rets: &'p [Operand],
    pub target: &'p Operand,
    pub args: &'p [Operand],
    /// The `.calltargets` list, `.callprototype` or jump table of an indirect call.
    pub extra: Option<&'p Operand>,
    /// Operands past the form (an error).
    pub rest: &'p [Operand],
}

impl<'p> CallForm<'p> {
    /// The parts of a `call`'s operands; `None` when the function is missing.
    pub fn of(ops: &'p [Operand]) -> Option<CallForm<'p>> {
        let list = |o: Option<&'p Operand>| match o {
            Some(Operand::List(items, _)) => Some(&items[..]),
            _ => None,
        };
        let (rets, k) = list(ops.first()).map_or((&[][..], 0), |r| (r, 1));
        let target = ops.get(k)?;
        let (args, k) = list(ops.get(k + 1)).map_or((&[][..], k + 1), |a| (a, k + 2));
        Some(CallForm { rets, target, args, extra: ops.get(k), rest: ops.get(k + 1..).unwrap_or(&[]) })
    }
}

impl InstrView<'_> {
    /// The whole `opcode.mod.mod` text, as diagnostics name the instruction.
    pub fn full_name<'s>(&self, src: &'s str) -> &'s str {
        let end = self.mods.last().map_or(self.opcode.span.end, |m| m.span.end);
        Span::new(self.opcode.span.start, end).text(src)
    }
}

#[derive(Debug, Clone)]
pub enum Operand {
    /// A register, variable, label or function name.
    Name(Name),
    /// A special register with a component: `%tid.x`.
    Component(Name, Span),
    /// The sink `_`.
    Sink(Span),
    /// `%r1+4`: a register plus a constant (ptxas folds it).
    Offset(Name, i64, Span),
    /// `!p` (or `!1`): a negated predicate source.
    Not(Box<Operand>, Span),
    /// `-%r2` (or `-%r2.h0`): a negated register, a source form of `vmad` only.
    Neg(Box<Operand>, Span),
    /// `p|q`: the two predicate destinations of `setp` (either may be `_`).
    Pair(Box<Operand>, Box<Operand>),
    /// An integer immediate as 64 bits (negative values two's complement).
    Int { bits: u64, span: Span },
    /// A float immediate: `0fXXXXXXXX` (f32 bits), `0dXXXXXXXXXXXXXXXX` or decimal (f64).
    Float { bits: u64, is_f32_bits: bool, span: Span },
    /// `{a, b, c, d}`.
    Vector(Vec<Operand>, Span),
    /// `[base+offset]`.
    Addr(Address),
    /// `[tex, {x, y}]` or `[tex, sampler, {x, y}]`: a texture or surface and its
    /// coordinates (`tex`, `tld4`, `suld`, `sust`, `sured`).
    Image(Box<ImageAddr>),
    /// `(a, b)`: the argument and return lists of `call`.
    List(Vec<Operand>, Span),
}

#[derive(Debug, Clone)]
pub struct Address {
    /// A register or variable name; `None` for an absolute `[imm]`.
    pub base: Option<Name>,
    pub offset: i64,
    pub span: Span,
}

/// The operand of [`Operand::Image`].
#[derive(Debug, Clone)]
pub struct ImageAddr {
    /// A `.texref`/`.surfref` variable or a 64-bit texture or surface object.
    pub image: Name,
    /// A `.samplerref` (independent texturing mode).
    pub sampler: Option<Name>,
    /// The coordinates: `{x}`, `{x, y}`, `{x, y, z, w}`.
    pub coords: Operand,
    pub span: Span,
}

impl Operand {
    pub fn span(&self) -> Span {
        match self {
            Operand::Name(n) => n.span,
            Operand::Not(_, s) | Operand::Neg(_, s) | Operand::Offset(_, _, s) => *s,
            Operand::Component(a, b) => a.span.to(*b),
            Operand::Sink(s) | Operand::Int { span: s, .. } | Operand::Float { span: s, .. } => *s,
            Operand::Vector(_, s) | Operand::List(_, s) => *s,
            Operand::Pair(a, b) => a.span().to(b.span()),
            Operand::Addr(a) => a.span,
            Operand::Image(a) => a.span,
        }
    }
}

#[cfg(test)]
mod size_tests {
    /// The parser writes one of these per operand and statement of a module (about
    /// 100 MB for 13 MB of nvcc output); keep them from growing by accident.
    #[test]
    fn node_sizes_stay_small() {
        assert!(size_of::<super::Operand>() <= 40, "Operand is {} bytes", size_of::<super::Operand>());
        assert!(size_of::<super::Stmt>() <= 48, "Stmt is {} bytes", size_of::<super::Stmt>());
        assert!(size_of::<super::Name>() <= 8);
    }
}
