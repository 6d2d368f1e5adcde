//! The C types of `cuda.h` 13.x that cross the boundary, as Rust spells them. Handles
//! (`CUcontext`, `CUmodule`, ...) are opaque pointers to C; ptxvm hands out numbers
//! that it never dereferences and checks on the way back in ([`crate::state`]).

use std::ffi::c_void;

/// `CUresult`: an enum, which C passes as an `int`.
pub type CUresult = u32;
/// `CUdevice`: an ordinal.
pub type CUdevice = i32;
/// `CUdeviceptr`: `unsigned long long`.
pub type CUdeviceptr = u64;
/// Every opaque handle: `CUcontext`, `CUmodule`, `CUfunction`, `CUstream`, ...
pub type Handle = *mut c_void;

/// `CUuuid`.
#[repr(C)]
pub struct CUuuid {
    pub bytes: [u8; 16],
}

/// `CUhostFn`.
pub type CUhostFn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;
/// `CUstreamCallback`.
pub type CUstreamCallback =
    Option<unsafe extern "C" fn(stream: Handle, status: CUresult, user_data: *mut c_void)>;

/// `CUDA_MEMCPY2D`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Memcpy2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: Handle,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: Handle,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUmemorytype`.
pub const MEMORYTYPE_HOST: u32 = 1;
pub const MEMORYTYPE_DEVICE: u32 = 2;
pub const MEMORYTYPE_ARRAY: u32 = 3;
pub const MEMORYTYPE_UNIFIED: u32 = 4;

/// `CUlaunchConfig`.
#[repr(C)]
pub struct LaunchConfig {
    pub grid_dim_x: u32,
    pub grid_dim_y: u32,
    pub grid_dim_z: u32,
    pub block_dim_x: u32,
    pub block_dim_y: u32,
    pub block_dim_z: u32,
    pub shared_mem_bytes: u32,
    pub h_stream: Handle,
    pub attrs: *mut LaunchAttribute,
    pub num_attrs: u32,
}

/// `CUlaunchAttribute`: an id, then a 64-byte union aligned to 8.
#[repr(C)]
pub struct LaunchAttribute {
    pub id: u32,
    pub pad: [u8; 4],
    pub value: [u64; 8],
}

/// `CUlaunchAttributeID` values ptxvm reads.
pub const LAUNCH_ATTRIBUTE_COOPERATIVE: u32 = 2;
pub const LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: u32 = 4;
