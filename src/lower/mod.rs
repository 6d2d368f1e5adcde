//! `lower`: the executable program (in progress, issue 3). So far: control-flow graphs
//! and the immediate post-dominators that are the reconvergence points of divergent
//! branches.

pub mod cfg;
pub mod flow;
pub mod program;
pub mod regs;
