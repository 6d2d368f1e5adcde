//! `sem`: the semantics of PTX instructions as pure functions of bits, with no warps,
//! memory or text, each tested alone against an independent reference (DESIGN.md,
//! principle 3). Comparisons, selection, integer and floating-point arithmetic, conversions and
//! atomic operations.

pub mod atom;
pub mod compare;
pub mod convert;
pub mod float;
pub mod int;
pub mod select;

#[cfg(test)]
mod compare_tests;
