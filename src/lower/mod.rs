//! `lower`: the executable program. `flow` flattens a checked body and finds every
//! block's reconvergence point (`cfg`: immediate post-dominators), `regs` gives every
//! register a slot in the per-warp files, `program` links the module (functions,
//! shared memory, the data image) and `decode`/`decode_ops` turn each body's
//! instructions into the `ops` the executor dispatches on. Nothing here looks at
//! names again at run time.

pub mod cfg;
mod decode;
mod decode_more;
mod decode_ops;
pub mod fast;
pub mod flow;
pub mod ops;
pub mod program;
pub mod regs;
