//! `exec`: running kernels (in progress, issue 3). So far: global memory.

pub mod memory;
pub mod simt;
