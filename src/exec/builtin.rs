//! The CUDA runtime's device functions that nvcc-generated PTX calls and ptxvm
//! provides: `vprintf` (device `printf`), `__assertfail` (a failing `assert`), the
//! device heap's `malloc`, `free` and `__cuda_syscall_aligned_malloc`, and the
//! device runtime's launches (`exec::children`) and `cudaGetLastError`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::children::Child;
use super::threads::Dim3;
use super::warp::{Cta, Fault, Warp, frame_value, lanes, set_frame_value};
use crate::lower::program::{Builtin, Call, CallValue, Inst, Mem, Src};
use crate::sem::printf;

/// What a launch printed, kept per CTA and given back in CTA order, so the output
/// does not depend on which core ran which CTA. It holds at most [`Printed::LIMIT`]
/// bytes, the size of CUDA's default printf buffer (`cudaLimitPrintfFifoSize`); ptxvm
/// keeps the first 1 MiB and drops what comes after (CUDA's buffer is circular and
/// overwrites the oldest), and [`Printed::take`] says so.
/// A piece of printed text, by grid (in the order grids ran) and CTA.
type Piece = ((u64, u64), Vec<u8>);

#[derive(Default)]
pub struct Printed {
    parts: Mutex<Vec<Piece>>,
    /// Bytes printed, those dropped included.
    bytes: AtomicUsize,
    /// The grid running now, counted from the last [`Printed::take`]: grids
    /// launched from device code print after the grid that launched them.
    grid: std::sync::atomic::AtomicU64,
}

impl Printed {
    pub const LIMIT: usize = 1 << 20;

    fn push(&self, cta: u64, text: Vec<u8>) {
        let before = self.bytes.fetch_add(text.len(), Ordering::Relaxed);
        if before + text.len() > Self::LIMIT {
            return;
        }
        let grid = self.grid.load(Ordering::Relaxed);
        let mut parts = self.parts.lock().unwrap_or_else(|e| e.into_inner());
        parts.push(((grid, cta), text));
    }

    /// What the next grid prints comes after what this one printed.
    pub fn next_grid(&self) {
        self.grid.fetch_add(1, Ordering::Relaxed);
    }

    /// The text in grid order, then CTA launch order (within a CTA, in the order it
    /// was printed), and whether some was dropped past the limit.
    pub fn take(&self) -> (Vec<u8>, bool) {
        let mut parts = std::mem::take(&mut *self.parts.lock().unwrap_or_else(|e| e.into_inner()));
        self.grid.store(0, Ordering::Relaxed);
        parts.sort_by_key(|p| p.0);
        let text = parts.into_iter().flat_map(|p| p.1).collect();
        (text, self.bytes.swap(0, Ordering::Relaxed) > Self::LIMIT)
    }
}

/// CUDA's device heap: `cudaLimitMallocHeapSize` bytes of global memory, placed
/// when a launch of a program that calls `malloc` first needs it, and kept (with its
/// blocks) across launches, as CUDA's is. Blocks come from what `free` gave back
/// (first fit), then from the untouched rest; an exhausted heap gives null, as CUDA's
/// does. `free` of an address `malloc` did not return, or returned and was freed, is a
/// fault (undefined behaviour).
#[derive(Default)]
pub struct Heap {
    /// Its device address; 0 until placed.
    pub base: u64,
    /// Its size once placed ([`Heap::BYTES`] unless set otherwise).
    pub bytes: u64,
    blocks: Mutex<Blocks>,
}

/// The heap's bookkeeping: bytes past `base` never handed out start at `used`; `live`
/// and `free` map blocks' addresses to their sizes.
#[derive(Default)]
struct Blocks {
    used: u64,
    live: std::collections::BTreeMap<u64, u64>,
    free: std::collections::BTreeMap<u64, u64>,
}

impl Heap {
    /// CUDA's default `cudaLimitMallocHeapSize`.
    pub const BYTES: u64 = 8 << 20;

    /// `size` bytes aligned to `align` (a power of two), or 0.
    fn take(&self, size: u64, align: u64) -> u64 {
        if self.base == 0 || !align.is_power_of_two() {
            return 0;
        }
        let size = size.max(1);
        let mut b = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
        let fits = b.free.iter().find_map(|(&addr, &len)| {
            let at = addr.div_ceil(align).checked_mul(align)?;
            (at.checked_add(size)? <= addr + len).then_some((addr, len, at))
        });
        let at = if let Some((addr, len, at)) = fits {
            // The block, less what comes before and after the new one.
            b.free.remove(&addr);
            if at > addr {
                b.free.insert(addr, at - addr);
            }
            if at + size < addr + len {
                b.free.insert(at + size, addr + len - (at + size));
            }
            at
        } else {
            let at = (self.base + b.used).div_ceil(align) * align;
            let end = at.saturating_add(size);
            if end > self.base + self.bytes {
                return 0;
            }
            b.used = end - self.base;
            at
        };
        b.live.insert(at, size);
        at
    }

    /// `free(p)`: the block goes back to the heap; null does nothing.
    pub(crate) fn give_back(&self, p: u64) -> Result<(), String> {
        if p == 0 {
            return Ok(());
        }
        let mut b = self.blocks.lock().unwrap_or_else(|e| e.into_inner());
        let size = b.live.remove(&p).ok_or_else(|| {
            format!("free({p:#x}): not a block malloc returned, or one already freed (undefined behaviour)")
        })?;
        b.free.insert(p, size);
        Ok(())
    }
}

/// The longest string `%s` or a format reads (a guard against a missing NUL).
const MAX_STRING: usize = 64 * 1024;

/// One lane's view of the call's arguments and of memory.
struct LaneArgs<'c, 'w> {
    cta: &'c Cta<'c>,
    warp: &'w Warp,
    shared: &'w [u8],
    lane: usize,
    buffer: u64,
    at: u64,
}

impl LaneArgs<'_, '_> {
    fn load(&self, addr: u64, size: u8) -> Result<u64, String> {
        self.cta.load(self.warp, self.shared, Mem::Generic, addr, size, self.lane)
    }

    fn string(&self, addr: u64, max: Option<usize>) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        let max = max.unwrap_or(MAX_STRING).min(MAX_STRING);
        for k in 0..max as u64 {
            let b = self.load(addr.wrapping_add(k), 1)? as u8;
            if b == 0 {
                return Ok(out);
            }
            out.push(b);
        }
        if max < MAX_STRING {
            return Ok(out);
        }
        Err(format!("the string at {addr:#x} has no NUL in its first {MAX_STRING} bytes"))
    }
}

impl printf::Args for LaneArgs<'_, '_> {
    fn next(&mut self, bytes: u32) -> Result<u64, String> {
        self.at = self.at.next_multiple_of(u64::from(bytes));
        let v = self.load(self.buffer.wrapping_add(self.at), bytes as u8)?;
        self.at += u64::from(bytes);
        Ok(v)
    }

    fn string(&mut self, addr: u64, max: Option<usize>) -> Result<Vec<u8>, String> {
        LaneArgs::string(self, addr, max)
    }
}

impl Cta<'_> {
    /// Calls runtime function `b` for the `active` lanes, in lane order.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn builtin(
        &self,
        n: u64,
        warp: &mut Warp,
        shared: &[u8],
        inst: &Inst,
        call: &Call,
        b: Builtin,
        active: u32,
    ) -> Result<(), Fault> {
        let arg = |warp: &Warp, k: usize, lane: usize| -> u64 {
            match call.args.get(k) {
                Some(&CallValue::Frame { offset, size }) => {
                    frame_value(&warp.local[lane], warp.base + offset, size)
                }
                Some(&CallValue::Reg(src, _)) => super::lane::read(warp, src, lane),
                _ => 0,
            }
        };
        for lane in lanes(active) {
            let l = lane as usize;
            let fault = |cause: String| self.fault(n, warp, 1 << lane, inst, cause);
            match b {
                Builtin::Vprintf => {
                    let mut args =
                        LaneArgs { cta: self, warp, shared, lane: l, buffer: arg(warp, 1, l), at: 0 };
                    // A null format prints nothing and returns -1, as CUDA's does.
                    let format_at = arg(warp, 0, l);
                    let count = if format_at == 0 {
                        u64::from(u32::MAX)
                    } else {
                        let format =
                            args.string(format_at, None).map_err(|e| fault(format!("vprintf: {e}")))?;
                        let (text, count) =
                            printf::format(&format, &mut args).map_err(|e| fault(format!("vprintf: {e}")))?;
                        self.printed.push(n, text);
                        u64::from(count)
                    };
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, count);
                    }
                }
                Builtin::Malloc | Builtin::AlignedMalloc => {
                    // malloc's blocks are 16-byte aligned, as CUDA's are.
                    let align = if b == Builtin::Malloc { 16 } else { arg(warp, 1, l) };
                    let p = self.heap.take(arg(warp, 0, l), align);
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, p);
                    }
                }
                Builtin::Free => self.heap.give_back(arg(warp, 0, l)).map_err(fault)?,
                Builtin::ParameterBuffer => {
                    // func, grid (a dim3 by value), block (the same), shared bytes.
                    let func = arg(warp, 0, l);
                    let kernel = self.program.func_at(func).filter(|(_, f)| f.kernel);
                    let Some((k, f)) = kernel else {
                        return Err(fault(format!(
                            "cudaGetParameterBufferV2: {func:#x} is not the address of a kernel of this module"
                        )));
                    };
                    let dim = |k: usize| match call.args.get(k) {
                        Some(&CallValue::Frame { offset, size: 12.. }) => {
                            let at =
                                |i: u32| frame_value(&warp.local[l], warp.base + offset + 4 * i, 4) as u32;
                            Some(Dim3 { x: at(0), y: at(1), z: at(2) })
                        }
                        _ => None,
                    };
                    let (Some(grid), Some(block)) = (dim(1), dim(2)) else {
                        return Err(fault(
                            "cudaGetParameterBufferV2: the grid and block are not dim3 values".into(),
                        ));
                    };
                    let shared = arg(warp, 3, l) as u32;
                    // A buffer as CUDA's are: 64-byte aligned. None left: NULL.
                    let buffer = self.heap.take(u64::from(f.param_bytes), 64);
                    if buffer != 0 {
                        let max_shared = (super::threads::MAX_DYNAMIC_SHARED as u32)
                            .saturating_sub(self.program.static_shared(k));
                        self.children.hand_out(Child { func: k, grid, block, shared, max_shared, buffer });
                    }
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, buffer);
                    }
                }
                Builtin::LaunchDevice => {
                    let e = self.children.launch(n, (warp.index, lane), arg(warp, 0, l), arg(warp, 1, l));
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, e);
                    }
                }
                Builtin::StreamCreate | Builtin::EventCreate => {
                    // Device streams must be non-blocking, device events untimed
                    // (cudaStreamNonBlocking, cudaEventDisableTiming), as CUDA's
                    // device runtime requires.
                    let (ptr, flags) = (arg(warp, 0, l), arg(warp, 1, l));
                    let needed = if b == Builtin::StreamCreate { 1 } else { 2 };
                    let e = if flags & needed == 0 || ptr == 0 {
                        super::children::code::INVALID_VALUE
                    } else {
                        let handle = self.children.handle();
                        if let Err(cause) = self.store_out(warp, ptr, 8, handle, l) {
                            return Err(self.fault(n, warp, 1 << lane, inst, cause));
                        }
                        super::children::code::SUCCESS
                    };
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, e);
                    }
                }
                Builtin::Ordering => {
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, super::children::code::SUCCESS);
                    }
                }
                Builtin::DeviceMalloc => {
                    let (ptr, size) = (arg(warp, 0, l), arg(warp, 1, l));
                    let p = self.heap.take(size, 256);
                    // cudaErrorMemoryAllocation when the heap has no room.
                    let e = if p == 0 { 2 } else { super::children::code::SUCCESS };
                    if ptr != 0
                        && let Err(cause) = self.store_out(warp, ptr, 8, p, l)
                    {
                        return Err(self.fault(n, warp, 1 << lane, inst, cause));
                    }
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, e);
                    }
                }
                Builtin::DeviceFree => {
                    let e = match self.heap.give_back(arg(warp, 0, l)) {
                        Ok(()) => super::children::code::SUCCESS,
                        Err(_) => super::children::code::INVALID_VALUE,
                    };
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, e);
                    }
                }
                Builtin::DeviceQuery(value) => {
                    if let Err(cause) = self.store_out(warp, arg(warp, 0, l), 4, u64::from(value), l) {
                        return Err(self.fault(n, warp, 1 << lane, inst, cause));
                    }
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, super::children::code::SUCCESS);
                    }
                }
                Builtin::GetLastError | Builtin::PeekAtLastError => {
                    let e = self.children.last_error(n, (warp.index, lane), b == Builtin::GetLastError);
                    if let Some(&ret) = call.rets.first() {
                        Self::store_return(warp, ret, l, e);
                    }
                }
                Builtin::AssertFail => {
                    // Arguments: message, file, line, function, and the size of a
                    // character (1 from nvcc; the strings are read as bytes).
                    let args = LaneArgs { cta: self, warp, shared, lane: l, buffer: 0, at: 0 };
                    let text = |k: usize| {
                        args.string(arg(warp, k, l), None)
                            .map(|s| String::from_utf8_lossy(&s).into_owned())
                            .unwrap_or_else(|e| format!("<{e}>"))
                    };
                    let line = arg(warp, 2, l) as u32;
                    let cause =
                        format!("assertion `{}` failed ({}:{line}, in `{}`)", text(0), text(1), text(3));
                    return Err(fault(cause));
                }
            }
        }
        Ok(())
    }

    /// Writes `size` bytes of `v` where a device runtime call's out-pointer `addr`
    /// points: global or the lane's local memory (where nvcc puts the variables
    /// whose address it passes).
    fn store_out(&self, warp: &mut Warp, addr: u64, size: u8, v: u64, lane: usize) -> Result<(), String> {
        use super::lane::Target;
        match self.target(warp, Mem::Generic, addr) {
            Target::Global(a) => self.memory.store(a, u64::from(size), v).map_err(|e| self.memory.explain(e)),
            Target::Local(a) => {
                let at = a as usize;
                let end = at.checked_add(size as usize).filter(|&e| e <= warp.top as usize);
                let Some(end) = end else {
                    return Err(format!(
                        "out of bounds: a device runtime call writes {size} bytes at local {a:#x}"
                    ));
                };
                warp.local[lane][at..end].copy_from_slice(&v.to_le_bytes()[..size as usize]);
                Ok(())
            }
            _ => Err(format!(
                "a device runtime call's out-pointer {addr:#x} is in shared memory or the parameters; \
                 ptxvm writes its results to global or local memory"
            )),
        }
    }

    /// Writes a returned value to the caller's `.param` variable or register.
    fn store_return(warp: &mut Warp, ret: CallValue, lane: usize, v: u64) {
        match ret {
            CallValue::Frame { offset, size } => {
                set_frame_value(&mut warp.local[lane], warp.base + offset, size, v)
            }
            CallValue::Reg(Src::Reg(slot), _) => super::lane::write(warp, slot, lane, v),
            CallValue::Reg(..) | CallValue::Sink => {}
        }
    }
}
