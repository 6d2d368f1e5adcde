//! Register slots (DESIGN.md, "Design notes"): every register a function declares,
//! its parameters in `.reg` included, gets a slot in one of three per-warp files:
//! 32-bit rows (8, 16 and 32-bit values and packed halves, zero-extended), 64-bit rows,
//! and predicate masks (one `u32` bit per lane). Names resolve with the block scoping
//! of `check`; a `%r<N>` range takes N consecutive slots.

use crate::check::types::Ty;
use rustc_hash::FxHashMap as HashMap;

/// Which register file a slot lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    R32,
    R64,
    Pred,
}

impl RegFile {
    /// The file for a declared type, or `None` for types no register holds.
    pub fn of(ty: Ty) -> Option<RegFile> {
        match ty.bits() {
            1 => Some(RegFile::Pred),
            8 | 16 | 32 => Some(RegFile::R32),
            64 => Some(RegFile::R64),
            _ => None,
        }
    }
}

/// A register: its file, row in that file, and declared type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub file: RegFile,
    pub index: u32,
    pub ty: Ty,
}

impl Slot {
    /// The register as one number, its file in the top bits: what
    /// [`crate::lower::program::Program::touches`] lists.
    pub fn key(self) -> u32 {
        let file = match self.file {
            RegFile::R32 => 0,
            RegFile::R64 => 1,
            RegFile::Pred => 2,
        };
        file << 30 | self.index
    }
}

/// Register names of one function, in nested block scopes, mapped to slots.
#[derive(Default)]
pub struct RegScopes<'m> {
    scopes: Vec<Scope<'m>>,
    /// Rows used so far in each file: R32, R64, Pred.
    counts: [u32; 3],
}

#[derive(Default)]
struct Scope<'m> {
    names: HashMap<&'m str, Slot>,
    ranges: HashMap<&'m str, (u32, Slot)>,
}

fn file_index(f: RegFile) -> usize {
    match f {
        RegFile::R32 => 0,
        RegFile::R64 => 1,
        RegFile::Pred => 2,
    }
}

impl<'m> RegScopes<'m> {
    pub fn enter(&mut self) {
        self.scopes.push(Scope::default());
    }

    pub fn exit(&mut self) {
        self.scopes.pop();
    }

    /// Rows each file needs for the whole function: (32-bit, 64-bit, predicates).
    pub fn counts(&self) -> (u32, u32, u32) {
        (self.counts[0], self.counts[1], self.counts[2])
    }

    /// Declares `name` (or `name0 .. name{count-1}` when `count` is given) of type
    /// `ty` in the innermost block. Returns `None` for a type no register holds.
    pub fn declare(&mut self, name: &'m str, ty: Ty, count: Option<u32>) -> Option<Slot> {
        let file = RegFile::of(ty)?;
        let rows = &mut self.counts[file_index(file)];
        let slot = Slot { file, index: *rows, ty };
        *rows = rows.saturating_add(count.unwrap_or(1));
        let scope = self.scopes.last_mut()?;
        match count {
            Some(n) => {
                scope.ranges.insert(name, (n, slot));
            }
            None => {
                scope.names.insert(name, slot);
            }
        }
        Some(slot)
    }

    /// The slot `name` stands for here, innermost block first.
    pub fn resolve(&self, name: &str) -> Option<Slot> {
        let split = split_index(name);
        for s in self.scopes.iter().rev() {
            if let Some(&slot) = s.names.get(name) {
                return Some(slot);
            }
            if let Some((prefix, n)) = split
                && let Some(&(count, base)) = s.ranges.get(prefix)
                && n < u64::from(count)
            {
                return Some(Slot { index: base.index + n as u32, ..base });
            }
        }
        None
    }
}

/// `%r12` -> (`%r`, 12), as `check` splits range names.
fn split_index(name: &str) -> Option<(&str, u64)> {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits == name.len() {
        return None;
    }
    let (prefix, num) = name.split_at(name.len() - digits);
    Some((prefix, num.bytes().fold(0u64, |n, d| n.saturating_mul(10).saturating_add(u64::from(d - b'0')))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_scalars_get_consecutive_rows_per_file() {
        let mut r = RegScopes::default();
        r.enter();
        r.declare("%r", Ty::B32, Some(4));
        r.declare("%rd", Ty::U64, Some(3));
        r.declare("%p", Ty::Pred, Some(2));
        r.declare("%h", Ty::F16, None);
        assert_eq!(r.resolve("%r3"), Some(Slot { file: RegFile::R32, index: 3, ty: Ty::B32 }));
        assert_eq!(r.resolve("%r4"), None);
        assert_eq!(r.resolve("%r03"), r.resolve("%r3"));
        assert_eq!(r.resolve("%rd2"), Some(Slot { file: RegFile::R64, index: 2, ty: Ty::U64 }));
        assert_eq!(r.resolve("%h"), Some(Slot { file: RegFile::R32, index: 4, ty: Ty::F16 }));
        assert_eq!(r.resolve("%p1").map(|s| s.file), Some(RegFile::Pred));
        // A nested block shadows and then forgets its names, but keeps its rows.
        r.enter();
        let inner = r.declare("%r1", Ty::F32, None).unwrap();
        assert_eq!(r.resolve("%r1"), Some(inner));
        r.exit();
        assert_eq!(r.resolve("%r1").map(|s| s.index), Some(1));
        assert_eq!(r.counts(), (6, 3, 2));
    }
}
