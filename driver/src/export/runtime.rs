//! The runtime interface table, through which NVIDIA's static runtime loads each
//! fat binary the program registered (`__cudaRegisterFatBinary`) as a module and
//! gets the device's primary context; and the context creation bypass, which creates
//! a context as `cuCtxCreate` does.

use super::{Slot, Table};
use crate::error;
use crate::types::{CUdevice, CUresult, Handle};
use std::ffi::c_void;

pub(super) const RUNTIME_ID: [u8; 16] =
    [0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9];
pub(super) const BYPASS_ID: [u8; 16] =
    [0x0c, 0xa5, 0x0b, 0x8c, 0x10, 0x04, 0x92, 0x9a, 0x89, 0xa7, 0xd0, 0xdf, 0x10, 0xe7, 0x72, 0x86];

pub(super) static RUNTIME: Table<10> = Table::new::<0>(true)
    .with(1, load_wrapper as Slot)
    .with(2, primary_context as Slot)
    .with(6, load_wrapper_with as Slot)
    .with(7, runtime_slot7 as Slot)
    .with(8, load_container_with as Slot);

pub(super) static BYPASS: Table<2> = Table::new::<1>(true).with(1, create_context as Slot);

/// Slot 1: the module of nvcc's fat binary wrapper (`__fatBinC_Wrapper_t`).
unsafe extern "C" fn load_wrapper(module: *mut Handle, wrapper: *const c_void) -> CUresult {
    // SAFETY: the arguments of cuModuleLoadData: an out-pointer and an image.
    unsafe { crate::module::cuModuleLoadData(module, wrapper) }
}

/// Slot 6: as slot 1, with three more arguments NVIDIA's runtime passes as NULL,
/// NULL and 0 for an ordinary program.
unsafe extern "C" fn load_wrapper_with(
    module: *mut Handle,
    wrapper: *const c_void,
    a: *mut c_void,
    b: *mut c_void,
    c: u32,
) -> CUresult {
    let _ = (a, b, c);
    // SAFETY: as [`load_wrapper`].
    unsafe { crate::module::cuModuleLoadData(module, wrapper) }
}

/// Slot 8: the module of a fat binary container (its header, not nvcc's wrapper).
unsafe extern "C" fn load_container_with(
    container: *const c_void,
    module: *mut Handle,
    a: *mut c_void,
    b: *mut c_void,
    c: u32,
) -> CUresult {
    let _ = (a, b, c);
    // SAFETY: as [`load_wrapper`].
    unsafe { crate::module::cuModuleLoadData(module, container) }
}

/// Slot 2: the device's primary context, retained.
unsafe extern "C" fn primary_context(pctx: *mut Handle, dev: CUdevice) -> CUresult {
    // SAFETY: the arguments of cuDevicePrimaryCtxRetain.
    unsafe { crate::context::cuDevicePrimaryCtxRetain(pctx, dev) }
}

/// Slot 7: called with one number at start-up; nothing for ptxvm to do.
extern "C" fn runtime_slot7(arg: usize) -> CUresult {
    let _ = arg;
    error::SUCCESS
}

/// The bypass's slot 1: `cuCtxCreate_v2`.
unsafe extern "C" fn create_context(pctx: *mut Handle, flags: u32, dev: CUdevice) -> CUresult {
    // SAFETY: the arguments of cuCtxCreate_v2.
    unsafe { crate::context::cuCtxCreate_v2(pctx, flags, dev) }
}
