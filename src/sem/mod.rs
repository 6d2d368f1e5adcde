//! `sem`: the semantics of PTX instructions as pure functions of bits, with no warps,
//! memory or text, each tested alone against an independent reference (DESIGN.md,
//! principle 3). Comparisons, selection, integer and floating-point arithmetic, conversions and
//! atomic operations.

pub mod approx;
pub mod atom;
pub mod bits;
pub mod cmp;
pub mod cvt;
pub mod farith;
pub mod float;
pub mod int;
pub mod matrix;
pub mod mbarrier;
pub mod printf;
pub mod round;
pub mod select;
pub mod video;
pub mod warp;

#[cfg(test)]
mod cmp_tests;
#[cfg(test)]
mod round_tests;
