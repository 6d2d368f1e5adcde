//! The smaller tables: the tools' thread-local storage and callback hooks (buffers a
//! profiler such as Nsight would fill, empty here), heap access, extended device
//! attributes and the context checks.

use super::{Slot, Table};
use crate::error;
use crate::types::{CUresult, Handle};
use std::ffi::c_void;

pub(super) const TLS_ID: [u8; 16] =
    [0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc];
pub(super) const HOOKS_ID: [u8; 16] =
    [0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66];
pub(super) const HEAP_ID: [u8; 16] =
    [0x19, 0x5b, 0xcb, 0xf4, 0xd6, 0x7d, 0x02, 0x4a, 0xac, 0xc5, 0x1d, 0x29, 0xce, 0xa6, 0x31, 0xae];
pub(super) const DEVICE_ID: [u8; 16] =
    [0xb1, 0x05, 0x41, 0xe1, 0xf7, 0xc7, 0xc7, 0x4a, 0x9f, 0x64, 0xf2, 0x23, 0xbe, 0x99, 0xf1, 0xe2];
pub(super) const CHECKS_ID: [u8; 16] =
    [0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e];

pub(super) const CONTEXT_ID: [u8; 16] =
    [0x21, 0x31, 0x8c, 0x60, 0x97, 0x14, 0x32, 0x48, 0x8c, 0xa6, 0x41, 0xff, 0x73, 0x24, 0xc8, 0xf2];

pub(super) static CONTEXT: Table<95> = Table::new::<9>(true);
pub(super) static TLS: Table<4> = Table::new::<3>(true);
pub(super) static HOOKS: Table<7> =
    Table::new::<4>(true).with(2, hooks_buffer as Slot).with(6, hooks_flags as Slot);
pub(super) static HEAP: Table<3> = Table::new::<5>(true);
pub(super) static DEVICE: Table<26> = Table::new::<6>(true);
pub(super) static CHECKS: Table<4> =
    Table::new::<8>(true).with(2, context_check as Slot).with(3, checks_slot3 as Slot);

/// Zeroed memory the runtime may read and write through [`hooks_buffer`] and
/// [`hooks_flags`]: it lives as long as the process, and only the runtime touches it.
struct Scratch<const N: usize>(std::cell::UnsafeCell<[u64; N]>);
// SAFETY: ptxvm never reads or writes the buffer; it only hands out its address.
unsafe impl<const N: usize> Sync for Scratch<N> {}

static HOOKS_BUFFER: Scratch<1024> = Scratch(std::cell::UnsafeCell::new([0; 1024]));
static HOOKS_FLAGS: Scratch<2> = Scratch(std::cell::UnsafeCell::new([0; 2]));

/// The callback hooks' slot 2: a buffer of callback slots, all empty (no profiler).
unsafe extern "C" fn hooks_buffer(ptr: *mut *mut c_void, size: *mut usize) {
    // SAFETY: out-pointers the runtime provides; NULL ones are skipped.
    unsafe { hand_out(ptr, size, HOOKS_BUFFER.0.get().cast(), 1024 * 8) }
}

/// The callback hooks' slot 6: a small buffer of flags, all clear.
unsafe extern "C" fn hooks_flags(ptr: *mut *mut c_void, size: *mut usize) {
    // SAFETY: as [`hooks_buffer`]. The runtime reads 14 bytes of it.
    unsafe { hand_out(ptr, size, HOOKS_FLAGS.0.get().cast(), 14) }
}

/// Writes a buffer's address and size through the runtime's out-pointers.
///
/// # Safety
/// `ptr` and `size` are NULL or writable.
unsafe fn hand_out(ptr: *mut *mut c_void, size: *mut usize, buffer: *mut c_void, bytes: usize) {
    if !ptr.is_null() {
        // SAFETY: a non-NULL out-pointer (the caller's contract).
        unsafe { ptr.write(buffer) };
    }
    if !size.is_null() {
        // SAFETY: as above.
        unsafe { size.write(bytes) };
    }
}

/// The context checks' slot 2: whether `ctx` wraps another context. ptxvm's
/// contexts never do: 0 and NULL.
unsafe extern "C" fn context_check(ctx: Handle, wrapped: *mut u32, inner: *mut *const c_void) -> CUresult {
    let _ = ctx;
    if !wrapped.is_null() {
        // SAFETY: a non-NULL out-pointer.
        unsafe { wrapped.write(0) };
    }
    if !inner.is_null() {
        // SAFETY: a non-NULL out-pointer.
        unsafe { inner.write(std::ptr::null()) };
    }
    error::SUCCESS
}

/// The context checks' slot 3: 0, as NVIDIA's driver answers.
extern "C" fn checks_slot3() -> u32 {
    0
}
