//! `exec`: running kernels. `cta` schedules a CTA's warps and its barriers, `warp`
//! runs a warp's groups over register rows with the `simt` tree deciding which lanes
//! run where, `sync` meets warp-synchronous instructions across groups, `mbarrier` runs
//! mbarrier objects and bulk copies, `lane` computes
//! what a lane computes alone, `threads` maps lanes to thread ids, and `memory` holds
//! the device's global memory with bounds. Faults name the kernel, the thread and the instruction.

mod builtin;
pub mod children;
pub mod cluster;
pub mod cta;
mod fast;
pub mod grid;
mod lane;
pub mod limits;
mod matrix;
mod mbarrier;
pub mod memory;
pub mod sanitize;
pub mod simt;
mod sparse;
pub mod spin;
mod storage;
mod sync;
pub mod texture;
pub mod threads;
pub mod tma;
pub mod warp;
mod wgmma;
mod wmma;

pub use builtin::{Heap, Printed};
