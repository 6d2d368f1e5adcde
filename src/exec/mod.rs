//! `exec`: running kernels (in progress, issue 3). So far: global memory, the SIMT
//! stack, and threads cut into warps with their special registers.

pub mod memory;
pub mod simt;
pub mod threads;
pub mod warp;
