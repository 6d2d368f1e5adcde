//! `lower`: the executable program. `flow` flattens a checked body and finds every
//! block's reconvergence point (`cfg`: immediate post-dominators), `regs` gives every
//! register a slot in the per-warp files, `program` links the module (functions,
//! shared memory, the data image) and `decode` turns each body's instructions into the
//! `ops` the executor dispatches on, one file per instruction family (`int`, `float`,
//! `half`, `cmp`, `mem` (with `mbarrier`), `cvt`, `warp`, `control`, as in [`crate::isa::Family`]). Nothing here looks at
//! names again at run time.

pub mod cfg;
mod cmp;
mod control;
mod cvt;
mod decode;
pub mod fast;
mod float;
pub mod flow;
mod half;
mod int;
mod matrix;
mod mbarrier;
mod mem;
pub mod ops;
pub mod program;
pub mod regs;
mod shared;
mod tensormap;
mod tex;
mod video;
mod warp;
mod wgmma;
mod wmma;
