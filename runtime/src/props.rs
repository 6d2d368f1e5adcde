//! `cudaGetDeviceProperties`: `struct cudaDeviceProp` laid out as the 13.x headers
//! lay it out (1,008 bytes; the test pins the size and offsets measured against
//! `driver_types.h` 13.5), filled from the driver's device attributes; and
//! `cudaGetDeviceProperties_v2`, which the 12.x headers name instead, with 12.x's
//! layout (1,032 bytes, with eight fields 13.x dropped).

use crate::driver as cu;
use crate::error::{self, CudaError};
use std::ffi::c_char;

#[repr(C)]
pub struct DeviceProp {
    pub name: [c_char; 256],
    pub uuid: [u8; 16],
    pub luid: [c_char; 8],
    pub luid_device_node_mask: u32,
    pub total_global_mem: usize,
    pub shared_mem_per_block: usize,
    pub regs_per_block: i32,
    pub warp_size: i32,
    pub mem_pitch: usize,
    pub max_threads_per_block: i32,
    pub max_threads_dim: [i32; 3],
    pub max_grid_size: [i32; 3],
    pub total_const_mem: usize,
    pub major: i32,
    pub minor: i32,
    pub texture_alignment: usize,
    pub texture_pitch_alignment: usize,
    pub multi_processor_count: i32,
    pub integrated: i32,
    pub can_map_host_memory: i32,
    pub max_texture_1d: i32,
    pub max_texture_1d_mipmap: i32,
    pub max_texture_2d: [i32; 2],
    pub max_texture_2d_mipmap: [i32; 2],
    pub max_texture_2d_linear: [i32; 3],
    pub max_texture_2d_gather: [i32; 2],
    pub max_texture_3d: [i32; 3],
    pub max_texture_3d_alt: [i32; 3],
    pub max_texture_cubemap: i32,
    pub max_texture_1d_layered: [i32; 2],
    pub max_texture_2d_layered: [i32; 3],
    pub max_texture_cubemap_layered: [i32; 2],
    pub max_surface_1d: i32,
    pub max_surface_2d: [i32; 2],
    pub max_surface_3d: [i32; 3],
    pub max_surface_1d_layered: [i32; 2],
    pub max_surface_2d_layered: [i32; 3],
    pub max_surface_cubemap: i32,
    pub max_surface_cubemap_layered: [i32; 2],
    pub surface_alignment: usize,
    /// From `concurrentKernels` to `hostNumaMultinodeIpcSupported`: 30 ints, then a
    /// size_t, and so on; filled field by field in [`fill`].
    pub concurrent_kernels: i32,
    pub ecc_enabled: i32,
    pub pci_bus_id: i32,
    pub pci_device_id: i32,
    pub pci_domain_id: i32,
    pub tcc_driver: i32,
    pub async_engine_count: i32,
    pub unified_addressing: i32,
    pub memory_bus_width: i32,
    pub l2_cache_size: i32,
    pub persisting_l2_cache_max_size: i32,
    pub max_threads_per_multi_processor: i32,
    pub stream_priorities_supported: i32,
    pub global_l1_cache_supported: i32,
    pub local_l1_cache_supported: i32,
    pub shared_mem_per_multiprocessor: usize,
    pub regs_per_multiprocessor: i32,
    pub managed_memory: i32,
    pub is_multi_gpu_board: i32,
    pub multi_gpu_board_group_id: i32,
    pub host_native_atomic_supported: i32,
    pub pageable_memory_access: i32,
    pub concurrent_managed_access: i32,
    pub compute_preemption_supported: i32,
    pub can_use_host_pointer_for_registered_mem: i32,
    pub cooperative_launch: i32,
    pub shared_mem_per_block_optin: usize,
    pub pageable_memory_access_uses_host_page_tables: i32,
    pub direct_managed_mem_access_from_host: i32,
    pub max_blocks_per_multi_processor: i32,
    pub access_policy_max_window_size: i32,
    pub reserved_shared_mem_per_block: usize,
    pub host_register_supported: i32,
    pub sparse_cuda_array_supported: i32,
    pub host_register_read_only_supported: i32,
    pub timeline_semaphore_interop_supported: i32,
    pub memory_pools_supported: i32,
    pub gpu_direct_rdma_supported: i32,
    pub gpu_direct_rdma_flush_writes_options: u32,
    pub gpu_direct_rdma_writes_ordering: i32,
    pub memory_pool_supported_handle_types: u32,
    pub deferred_mapping_cuda_array_supported: i32,
    pub ipc_event_supported: i32,
    pub cluster_launch: i32,
    pub unified_function_pointers: i32,
    pub device_numa_config: i32,
    pub device_numa_id: i32,
    pub mps_enabled: i32,
    pub host_numa_id: i32,
    pub gpu_pci_device_id: u32,
    pub gpu_pci_subsystem_id: u32,
    pub host_numa_multinode_ipc_supported: i32,
    pub reserved: [i32; 56],
}

/// Device attribute `a` (the driver's `CUdevice_attribute` numbers).
fn attr(a: i32) -> Result<i32, CudaError> {
    let mut v = 0;
    crate::check(cu::cuDeviceGetAttribute(&mut v, a, 0))?;
    Ok(v)
}

/// The properties of device 0, from the driver.
pub fn fill(p: &mut DeviceProp) -> Result<(), CudaError> {
    // SAFETY: `DeviceProp` is plain integers and arrays of them: all zeros is valid.
    *p = unsafe { std::mem::zeroed() };
    let name = b"ptxvm (sm_90)";
    for (d, s) in p.name.iter_mut().zip(name) {
        *d = *s as c_char;
    }
    p.uuid = *b"ptxvm-sm90-dev-0";
    let total = crate::register::total_memory()?;
    p.total_global_mem = total;
    p.shared_mem_per_block = attr(8)? as usize;
    p.regs_per_block = attr(12)?;
    p.warp_size = attr(10)?;
    p.mem_pitch = attr(11)? as usize;
    p.max_threads_per_block = attr(1)?;
    p.max_threads_dim = [attr(2)?, attr(3)?, attr(4)?];
    p.max_grid_size = [attr(5)?, attr(6)?, attr(7)?];
    p.total_const_mem = attr(9)? as usize;
    p.major = attr(75)?;
    p.minor = attr(76)?;
    p.texture_alignment = attr(14)? as usize;
    p.texture_pitch_alignment = attr(51)? as usize;
    p.multi_processor_count = attr(16)?;
    p.integrated = attr(18)?;
    p.can_map_host_memory = attr(19)?;
    p.max_texture_1d = attr(21)?;
    p.max_texture_1d_mipmap = attr(77)?;
    p.max_texture_2d = [attr(22)?, attr(23)?];
    p.max_texture_2d_mipmap = [attr(73)?, attr(74)?];
    p.max_texture_2d_linear = [attr(70)?, attr(71)?, attr(72)?];
    p.max_texture_2d_gather = [attr(45)?, attr(46)?];
    p.max_texture_3d = [attr(24)?, attr(25)?, attr(26)?];
    p.max_texture_3d_alt = [attr(47)?, attr(48)?, attr(49)?];
    p.max_texture_cubemap = attr(52)?;
    p.max_texture_1d_layered = [attr(42)?, attr(43)?];
    p.max_texture_2d_layered = [attr(27)?, attr(28)?, attr(29)?];
    p.max_texture_cubemap_layered = [attr(53)?, attr(54)?];
    p.max_surface_1d = attr(55)?;
    p.max_surface_2d = [attr(56)?, attr(57)?];
    p.max_surface_3d = [attr(58)?, attr(59)?, attr(60)?];
    p.max_surface_1d_layered = [attr(61)?, attr(62)?];
    p.max_surface_2d_layered = [attr(63)?, attr(64)?, attr(65)?];
    p.max_surface_cubemap = attr(66)?;
    p.max_surface_cubemap_layered = [attr(67)?, attr(68)?];
    p.surface_alignment = attr(30)? as usize;
    p.concurrent_kernels = attr(31)?;
    p.ecc_enabled = attr(32)?;
    p.pci_bus_id = attr(33)?;
    p.pci_device_id = attr(34)?;
    p.pci_domain_id = attr(50)?;
    p.tcc_driver = attr(35)?;
    p.async_engine_count = attr(40)?;
    p.unified_addressing = attr(41)?;
    p.memory_bus_width = attr(37)?;
    p.l2_cache_size = attr(38)?;
    p.persisting_l2_cache_max_size = attr(108)?;
    p.max_threads_per_multi_processor = attr(39)?;
    p.stream_priorities_supported = attr(78)?;
    p.global_l1_cache_supported = attr(79)?;
    p.local_l1_cache_supported = attr(80)?;
    p.shared_mem_per_multiprocessor = attr(81)? as usize;
    p.regs_per_multiprocessor = attr(82)?;
    p.managed_memory = attr(83)?;
    p.is_multi_gpu_board = attr(84)?;
    p.multi_gpu_board_group_id = attr(85)?;
    p.host_native_atomic_supported = attr(86)?;
    p.pageable_memory_access = attr(88)?;
    p.concurrent_managed_access = attr(89)?;
    p.compute_preemption_supported = attr(90)?;
    p.can_use_host_pointer_for_registered_mem = attr(91)?;
    p.cooperative_launch = attr(95)?;
    p.shared_mem_per_block_optin = attr(97)? as usize;
    p.pageable_memory_access_uses_host_page_tables = attr(100)?;
    p.direct_managed_mem_access_from_host = attr(101)?;
    p.max_blocks_per_multi_processor = attr(106)?;
    p.access_policy_max_window_size = attr(109)?;
    p.reserved_shared_mem_per_block = attr(111)? as usize;
    p.host_register_supported = attr(99)?;
    p.sparse_cuda_array_supported = attr(112)?;
    p.host_register_read_only_supported = attr(113)?;
    p.timeline_semaphore_interop_supported = attr(114)?;
    p.memory_pools_supported = attr(115)?;
    p.gpu_direct_rdma_supported = attr(116)?;
    p.gpu_direct_rdma_flush_writes_options = attr(117)? as u32;
    p.gpu_direct_rdma_writes_ordering = attr(118)?;
    p.memory_pool_supported_handle_types = attr(119)? as u32;
    p.deferred_mapping_cuda_array_supported = attr(121)?;
    p.ipc_event_supported = attr(125)?;
    p.cluster_launch = attr(120)?;
    p.unified_function_pointers = attr(129)?;
    p.device_numa_config = attr(130)?;
    p.device_numa_id = attr(131)?;
    p.mps_enabled = attr(133)?;
    p.host_numa_id = attr(134)?;
    p.gpu_pci_device_id = attr(139)? as u32;
    p.gpu_pci_subsystem_id = attr(140)? as u32;
    p.host_numa_multinode_ipc_supported = attr(143)?;
    Ok(())
}

/// Where 13.x's fields sit in 12.x's `cudaDeviceProp`: runs of (offset in 12.x,
/// offset in 13.x, bytes), measured with `offsetof` against `driver_types.h` of
/// pip's nvidia-cuda-runtime-cu12 12.9 and nvidia-cuda-runtime 13.5.
const RUNS_12: [(usize, usize, usize); 11] = [
    (0, 0, 284),
    (288, 288, 60),
    (352, 352, 32),
    (388, 384, 4),
    (396, 388, 8),
    (408, 396, 8),
    (420, 404, 188),
    (612, 592, 28),
    (640, 624, 28),
    (672, 652, 20),
    (696, 672, 84),
];

/// 12.x's fields that 13.x dropped: offset, and the device attribute each is.
const ONLY_12: [(usize, i32); 8] = [
    (348, 13), // clockRate
    (384, 15), // deviceOverlap
    (392, 17), // kernelExecTimeoutEnabled
    (404, 20), // computeMode
    (416, 69), // maxTexture1DLinear
    (608, 36), // memoryClockRate
    (668, 87), // singleToDoublePrecisionPerfRatio
    (692, 96), // cooperativeMultiDeviceLaunch
];

/// Bytes of 12.x's `cudaDeviceProp`.
pub const SIZE_12: usize = 1032;

/// The properties of device 0 in 12.x's layout.
fn fill_12(out: &mut [u8; SIZE_12]) -> Result<(), CudaError> {
    // SAFETY: `DeviceProp` is plain integers and arrays of them: all zeros is valid.
    let mut p: DeviceProp = unsafe { std::mem::zeroed() };
    fill(&mut p)?;
    // SAFETY: `p` is a plain `repr(C)` struct, read as its bytes.
    let bytes =
        unsafe { std::slice::from_raw_parts((&raw const p).cast::<u8>(), std::mem::size_of::<DeviceProp>()) };
    out.fill(0);
    for (at12, at13, n) in RUNS_12 {
        out[at12..at12 + n].copy_from_slice(&bytes[at13..at13 + n]);
    }
    for (at, a) in ONLY_12 {
        out[at..at + 4].copy_from_slice(&attr(a)?.to_le_bytes());
    }
    Ok(())
}

/// The checks both forms make: the driver started, device 0, a place to write.
fn ready_for<T>(prop: *mut T, device: i32) -> Result<(), CudaError> {
    crate::register::ready()?;
    if device != 0 {
        return Err(error::INVALID_DEVICE);
    }
    if prop.is_null() {
        return Err(error::INVALID_VALUE);
    }
    Ok(())
}

crate::rt! {
    fn cudaGetDeviceProperties(prop: *mut DeviceProp, device: i32) {
        ready_for(prop, device)?;
        // SAFETY: a non-NULL `cudaDeviceProp*` the caller owns.
        fill(unsafe { &mut *prop })
    }

    /// What 12.x's headers call `cudaGetDeviceProperties`: 12.x's layout.
    fn cudaGetDeviceProperties_v2(prop: *mut [u8; SIZE_12], device: i32) {
        ready_for(prop, device)?;
        // SAFETY: a non-NULL `cudaDeviceProp*` (12.x's, 1,032 bytes) the caller owns.
        fill_12(unsafe { &mut *prop })
    }
}

#[cfg(test)]
mod tests {
    use super::DeviceProp;
    use std::mem::{offset_of, size_of};

    /// The runs cover 12.x's struct but for its eight own fields, its padding and
    /// its `reserved` tail, in order and without overlap.
    #[test]
    fn the_12_layout_is_every_byte_accounted_for() {
        let mut spans: Vec<(usize, usize)> = super::RUNS_12.iter().map(|&(a, _, n)| (a, a + n)).collect();
        spans.extend(super::ONLY_12.iter().map(|&(a, _)| (a, a + 4)));
        spans.sort_unstable();
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "{w:?} overlap");
        }
        // 4 bytes of padding after luidDeviceNodeMask, then 252 of reserved[63].
        let covered: usize = spans.iter().map(|s| s.1 - s.0).sum();
        assert_eq!(covered + 4 + 252, super::SIZE_12);
        assert_eq!(spans.last().unwrap().1, super::SIZE_12 - 252);
    }

    #[test]
    fn the_layout_is_driver_types_h_13() {
        // Measured with offsetof against pip's nvidia-cuda-runtime 13.5 headers.
        assert_eq!(size_of::<DeviceProp>(), 1008);
        assert_eq!(offset_of!(DeviceProp, total_global_mem), 288);
        assert_eq!(offset_of!(DeviceProp, multi_processor_count), 384);
        assert_eq!(offset_of!(DeviceProp, shared_mem_per_block_optin), 672);
        assert_eq!(offset_of!(DeviceProp, host_numa_multinode_ipc_supported), 780);
    }
}
