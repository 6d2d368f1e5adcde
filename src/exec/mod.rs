//! `exec`: running kernels. `warp` executes a CTA warp by warp over register rows,
//! with the `simt` stack deciding which lanes run, `threads` mapping lanes to thread
//! ids and special registers, and `memory` holding the device's global memory with
//! bounds. Faults name the kernel, the thread and the instruction.

mod lane;
pub mod memory;
pub mod simt;
pub mod threads;
pub mod warp;
