//! Dynamic parallelism: grids that device code launches through CUDA's device
//! runtime (CDP2, what nvcc 13 compiles `kernel<<<...>>>` in device code to).
//!
//! A launch is two calls: `__cudaCDP2GetParameterBufferV2(func, grid, block,
//! shared)` returns a buffer (from the device heap) that the thread fills with the
//! child's parameters, and `__cudaCDP2LaunchDeviceV2(buffer, stream)` launches it.
//! In CDP2 a parent cannot wait for its children: a grid is complete when it and
//! all its children are, and a child only sees what its parent wrote before the
//! launch. ptxvm runs a grid's children after it, in launch order (by CTA, then by
//! the order the CTA launched them), each with its own children, then the grids
//! launched into `cudaStreamTailLaunch`; every schedule the CUDA Programming Guide
//! allows may be this one. A launch past 2,048 launches pending from one grid,
//! past 24 levels of nesting, or of a shape CUDA refuses returns CUDA's error to
//! the thread, which `cudaGetLastError` in device code also gives.

use super::threads::Dim3;
use std::collections::HashMap;
use std::sync::Mutex;

/// `cudaLimitDevRuntimePendingLaunchCount`'s default: launches made and not yet run.
pub const MAX_PENDING: usize = 2048;
/// The deepest nesting of launches CUDA allows (`cudaErrorLaunchMaxDepthExceeded`).
pub const MAX_DEPTH: u32 = 24;

/// `cudaStreamTailLaunch`.
const TAIL_LAUNCH: u64 = 3;

/// `cudaError_t` values the device runtime returns.
pub mod code {
    pub const SUCCESS: u64 = 0;
    pub const INVALID_VALUE: u64 = 1;
    pub const INVALID_CONFIGURATION: u64 = 9;
    pub const LAUNCH_MAX_DEPTH_EXCEEDED: u64 = 65;
    pub const LAUNCH_PENDING_COUNT_EXCEEDED: u64 = 69;
}

/// A child grid: its kernel (an index into `Program::funcs`), shape, dynamic shared
/// bytes, and the parameter buffer its parent filled.
#[derive(Debug, Clone, Copy)]
pub struct Child {
    pub func: u32,
    pub grid: Dim3,
    pub block: Dim3,
    pub shared: u32,
    /// The most dynamic shared memory the kernel may have.
    pub max_shared: u32,
    pub buffer: u64,
}

#[derive(Default)]
struct State {
    /// Buffers handed out and not yet launched.
    buffers: HashMap<u64, Child>,
    /// Launched: (tail launch, CTA, the launch's number), the child.
    launched: Vec<((bool, u64, u64), Child)>,
    next: u64,
    /// Each thread's last launch error (`cudaGetLastError` in device code), by CTA,
    /// warp and lane; only failures are kept.
    errors: HashMap<(u64, u32, u32), u64>,
    /// Stream and event handles made so far.
    handles: u64,
}

/// The launches one grid's threads make.
#[derive(Default)]
pub struct Children {
    state: Mutex<State>,
    /// The grid's nesting depth: 0 for a grid the host launched.
    depth: u32,
}

impl Children {
    /// The launches of a grid at nesting depth `depth`.
    pub fn at_depth(depth: u32) -> Children {
        Children { depth, ..Children::default() }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes the buffer `buffer` was handed out for `child`.
    pub fn hand_out(&self, child: Child) {
        self.state().buffers.insert(child.buffer, child);
    }

    /// `cudaLaunchDeviceV2(buffer, stream)` from thread `who` of CTA `cta`: the
    /// `cudaError_t` it returns. A launch that fails keeps its buffer's child out.
    pub fn launch(&self, cta: u64, who: (u32, u32), buffer: u64, stream: u64) -> u64 {
        let mut s = self.state();
        let result = match s.buffers.get(&buffer).copied() {
            None => code::INVALID_VALUE,
            Some(_) if self.depth >= MAX_DEPTH => code::LAUNCH_MAX_DEPTH_EXCEEDED,
            Some(_) if s.launched.len() >= MAX_PENDING => code::LAUNCH_PENDING_COUNT_EXCEEDED,
            Some(child)
                if !super::threads::shape_fits(child.grid, child.block)
                    || child.shared > child.max_shared =>
            {
                code::INVALID_CONFIGURATION
            }
            Some(child) => {
                s.buffers.remove(&buffer);
                let n = s.next;
                s.next += 1;
                s.launched.push(((stream == TAIL_LAUNCH, cta, n), child));
                code::SUCCESS
            }
        };
        if result != code::SUCCESS {
            s.errors.insert((cta, who.0, who.1), result);
        }
        result
    }

    /// A new stream or event handle for device code: never 0 (the default stream) nor
    /// the special streams (`cudaStreamTailLaunch`, `cudaStreamFireAndForget`).
    pub fn handle(&self) -> u64 {
        let mut s = self.state();
        s.handles += 1;
        0x1000 + s.handles
    }

    /// `cudaGetLastError` (cleared) or `cudaPeekAtLastError` in device code.
    pub fn last_error(&self, cta: u64, who: (u32, u32), clear: bool) -> u64 {
        let mut s = self.state();
        let key = (cta, who.0, who.1);
        let e = s.errors.get(&key).copied().unwrap_or(code::SUCCESS);
        if clear {
            s.errors.remove(&key);
        }
        e
    }

    /// The launched children in the order they run, and the buffers handed out
    /// and never launched (to give back to the heap).
    pub fn take(&self) -> (Vec<Child>, Vec<u64>) {
        let mut s = self.state();
        let mut launched = std::mem::take(&mut s.launched);
        launched.sort_by_key(|l| l.0);
        let unused = s.buffers.drain().map(|(b, _)| b).collect();
        (launched.into_iter().map(|l| l.1).collect(), unused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn child(buffer: u64) -> Child {
        let one = Dim3 { x: 1, y: 1, z: 1 };
        Child { func: 0, grid: one, block: Dim3 { x: 32, y: 1, z: 1 }, shared: 0, max_shared: 1024, buffer }
    }

    #[test]
    fn children_run_by_cta_then_launch_order_and_tail_launches_last() {
        let c = Children::default();
        for b in 1..=4 {
            c.hand_out(child(b));
        }
        assert_eq!(c.launch(5, (0, 0), 1, TAIL_LAUNCH), code::SUCCESS);
        assert_eq!(c.launch(7, (0, 0), 2, 0), code::SUCCESS);
        assert_eq!(c.launch(3, (1, 4), 3, 4), code::SUCCESS);
        // A buffer launched twice, or never handed out, is an invalid value.
        assert_eq!(c.launch(3, (1, 4), 3, 0), code::INVALID_VALUE);
        assert_eq!(c.last_error(3, (1, 4), false), code::INVALID_VALUE);
        assert_eq!(c.last_error(3, (1, 4), true), code::INVALID_VALUE);
        assert_eq!(c.last_error(3, (1, 4), true), code::SUCCESS);
        let (order, unused) = c.take();
        assert_eq!(order.iter().map(|c| c.buffer).collect::<Vec<_>>(), [3, 2, 1]);
        assert_eq!(unused, [4]);
    }

    #[test]
    fn bad_shapes_and_too_many_pending_launches_are_refused() {
        let c = Children::default();
        let mut bad = child(1);
        bad.block.x = 1025;
        c.hand_out(bad);
        assert_eq!(c.launch(0, (0, 0), 1, 0), code::INVALID_CONFIGURATION);
        let mut big = child(2);
        big.shared = 1025;
        c.hand_out(big);
        assert_eq!(c.launch(0, (0, 0), 2, 0), code::INVALID_CONFIGURATION);
        for b in 10..10 + MAX_PENDING as u64 {
            c.hand_out(child(b));
            assert_eq!(c.launch(0, (0, 0), b, 0), code::SUCCESS);
        }
        c.hand_out(child(5));
        assert_eq!(c.launch(0, (0, 0), 5, 0), code::LAUNCH_PENDING_COUNT_EXCEEDED);
        // A grid at the deepest nesting launches nothing.
        let deepest = Children::at_depth(MAX_DEPTH);
        deepest.hand_out(child(1));
        assert_eq!(deepest.launch(0, (0, 0), 1, 0), code::LAUNCH_MAX_DEPTH_EXCEEDED);
        let below = Children::at_depth(MAX_DEPTH - 1);
        below.hand_out(child(1));
        assert_eq!(below.launch(0, (0, 0), 1, 0), code::SUCCESS);
    }
}
