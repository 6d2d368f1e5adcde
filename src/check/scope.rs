//! Symbol tables: module-level functions and variables, per-function labels and target
//! lists, and the stack of block scopes that holds registers and local variables.
//!
//! Parameterised declarations (`.reg .b32 %r<100>;`) are stored once as a prefix and a
//! count, never expanded, so a hostile `%r<4000000000>` costs nothing.

use super::ParamSig;
use super::types::Ty;
use crate::syntax::Span;
use crate::syntax::ast::Space;
use rustc_hash::FxHashMap as HashMap;

/// What a name in scope stands for.
#[derive(Clone, Copy, Debug)]
pub enum Sym {
    /// A register (or `.param`/`.reg` function parameter) with its declared type.
    Reg { ty: Ty, vector: Option<u32> },
    /// A variable in an addressable state space (includes `.param` variables):
    /// its element type, element count, whether it is an array and its alignment.
    Var { space: Space, ty: Ty, elems: u64, array: bool, align: u32 },
    /// A function; its index into the checker's function list.
    Func(usize),
}

/// A name's definition: what it is and where it was declared.
#[derive(Clone, Copy, Debug)]
pub struct Def {
    pub sym: Sym,
    pub span: Span,
}

/// What a label names: a place in the code, or one of the target-list directives.
#[derive(Clone, Debug)]
pub enum LabelKind<'a> {
    Plain,
    BranchTargets,
    CallTargets(Vec<&'a str>),
    Prototype { rets: Vec<ParamSig>, params: Vec<ParamSig> },
}

#[derive(Clone, Debug)]
pub struct Label<'a> {
    pub kind: LabelKind<'a>,
    pub span: Span,
}

#[derive(Default)]
pub struct Scope<'a> {
    names: HashMap<&'a str, Def>,
    /// Labels declared directly in this block (visible in it and nested blocks).
    pub labels: HashMap<&'a str, Label<'a>>,
    /// `%r<N>` declarations: prefix -> (count, definition).
    ranges: HashMap<&'a str, (u32, Def)>,
}

impl<'a> Scope<'a> {
    /// Declares `name`; returns the earlier definition if it is already declared here.
    pub fn declare(&mut self, name: &'a str, def: Def) -> Result<(), Def> {
        if let Some(old) = self.lookup(name) {
            return Err(old);
        }
        self.names.insert(name, def);
        Ok(())
    }

    /// Declares `prefix0 .. prefix{count-1}`.
    pub fn declare_range(&mut self, prefix: &'a str, count: u32, def: Def) -> Result<(), Def> {
        if let Some((_, old)) = self.ranges.get(prefix) {
            return Err(*old);
        }
        // A name declared alone earlier that falls inside the new range clashes too
        // (names split as ptxas does: all trailing digits are the index).
        for (name, old) in &self.names {
            if let Some((p, n)) = split_index(name)
                && p == prefix
                && n < u64::from(count)
            {
                return Err(*old);
            }
        }
        self.ranges.insert(prefix, (count, def));
        Ok(())
    }

    pub fn lookup(&self, name: &str) -> Option<Def> {
        // Compilers declare registers as ranges (`%r<42>`), so try those first; a
        // name found both ways was reported as a duplicate when declared.
        if !self.ranges.is_empty()
            && let Some((prefix, n)) = split_index(name)
            && let Some((count, def)) = self.ranges.get(prefix)
            && n < u64::from(*count)
        {
            return Some(*def);
        }
        if self.names.is_empty() {
            return None;
        }
        self.names.get(name).copied()
    }
}

/// Splits `%r012` into (`%r`, 12): all trailing digits are the index, read as a
/// number (ptxas reads `%r01` as `%r1`).
fn split_index(name: &str) -> Option<(&str, u64)> {
    let bytes = name.as_bytes();
    let digits = bytes.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits == bytes.len() {
        return None;
    }
    let split = bytes.len() - digits;
    let n =
        bytes[split..].iter().fold(0u64, |n, &d| n.saturating_mul(10).saturating_add(u64::from(d - b'0')));
    Some((&name[..split], n))
}
