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

/// `CUDA_MEMCPY3D`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Memcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: Handle,
    pub reserved0: *mut c_void,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: Handle,
    pub reserved1: *mut c_void,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

impl Memcpy3D {
    /// The copy as `Depth` 2D copies of `Height` rows (at least one of each), one
    /// per slice: slice `z` of a pitched side starts `(Z + z) * height + Y` rows in.
    pub fn slices(&self) -> Option<Vec<Memcpy2D>> {
        (0..self.depth.max(1))
            .map(|z| {
                let src_y =
                    self.src_z.checked_add(z)?.checked_mul(self.src_height)?.checked_add(self.src_y)?;
                let dst_y =
                    self.dst_z.checked_add(z)?.checked_mul(self.dst_height)?.checked_add(self.dst_y)?;
                Some(Memcpy2D {
                    src_x_in_bytes: self.src_x_in_bytes,
                    src_y,
                    src_memory_type: self.src_memory_type,
                    src_host: self.src_host,
                    src_device: self.src_device,
                    src_array: self.src_array,
                    src_pitch: self.src_pitch,
                    dst_x_in_bytes: self.dst_x_in_bytes,
                    dst_y,
                    dst_memory_type: self.dst_memory_type,
                    dst_host: self.dst_host,
                    dst_device: self.dst_device,
                    dst_array: self.dst_array,
                    dst_pitch: self.dst_pitch,
                    width_in_bytes: self.width_in_bytes,
                    height: self.height.max(1),
                })
            })
            .collect()
    }
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
