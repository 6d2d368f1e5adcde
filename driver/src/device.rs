//! Start-up and the one device ptxvm reports: compute capability 9.0, named
//! "ptxvm (sm_90)", with the attributes of an H100 SXM (132 SMs, 228 KiB of shared
//! memory per SM, 227 KiB per block opted in, 64 Ki registers, ...) and the total
//! memory of the machine it runs on. Features ptxvm runs answer yes: unified
//! addressing, managed memory and concurrent managed access, mapped host memory,
//! cooperative launch, memory pools, virtual memory management, tensor maps, cluster
//! launch. Those it does not (IPC handles) answer no.

use crate::error;
use crate::state;
use crate::types::{CUdevice, CUresult, CUuuid};
use std::ffi::c_char;

/// The CUDA version whose `cuda.h` ptxvm implements (13.5).
pub const DRIVER_VERSION: i32 = 13050;

/// The device's UUID (`cuDeviceGetUuid`).
pub const UUID: [u8; 16] = *b"ptxvm-sm90-dev-0";
/// The device's name.
pub const NAME: &str = "ptxvm (sm_90)";
/// Streaming multiprocessors, as on an H100 SXM.
pub const SM_COUNT: i32 = 132;
/// Shared memory per block without opting in, and the opt-in limit.
pub const SHARED_PER_BLOCK: i32 = 48 * 1024;
pub const SHARED_PER_BLOCK_OPTIN: i32 = 227 * 1024;
pub const SHARED_PER_SM: i32 = 228 * 1024;
pub const MAX_THREADS_PER_BLOCK: i32 = 1024;
pub const MAX_THREADS_PER_SM: i32 = 2048;
pub const MAX_BLOCKS_PER_SM: i32 = 32;
pub const REGISTERS_PER_BLOCK: i32 = 64 * 1024;
pub const MAX_GRID: [i32; 3] = [i32::MAX, 65535, 65535];
pub const MAX_BLOCK: [i32; 3] = [1024, 1024, 64];

/// `CUdevprop`, the legacy properties of `cuDeviceGetProperties`.
#[repr(C)]
pub struct DevProp {
    pub max_threads_per_block: i32,
    pub max_threads_dim: [i32; 3],
    pub max_grid_size: [i32; 3],
    pub shared_mem_per_block: i32,
    pub total_constant_memory: i32,
    pub simd_width: i32,
    pub mem_pitch: i32,
    pub regs_per_block: i32,
    pub clock_rate: i32,
    pub texture_align: i32,
}

/// The device's PCI bus ID as `cuDeviceGetPCIBusId` writes it: domain, bus and
/// device from its attributes, function 0.
fn pci_bus_id_text() -> String {
    let a = |k: i32| attribute(k).unwrap_or(0);
    format!("{:04x}:{:02x}:{:02x}.0", a(50), a(33), a(34))
}

/// `CUdevice_attribute` values by number, for device 0.
pub(crate) fn attribute(attrib: i32) -> Option<i32> {
    Some(match attrib {
        1 => MAX_THREADS_PER_BLOCK,
        2..=4 => MAX_BLOCK[(attrib - 2) as usize],
        5..=7 => MAX_GRID[(attrib - 5) as usize],
        8 => SHARED_PER_BLOCK,
        9 => 64 * 1024, // total constant memory
        10 => 32,       // warp size
        11 => i32::MAX, // max pitch
        12 => REGISTERS_PER_BLOCK,
        13 => 1_980_000, // clock rate, kHz
        14 => 512,       // texture alignment
        15 => 1,         // GPU overlap
        16 => SM_COUNT,
        17 | 18 => 0, // kernel execution timeout, integrated
        19 => 1,      // can map host memory
        20 => 0,      // compute mode: default
        21 => 131_072,
        22 => 131_072,
        23 => 65_536,
        24..=26 => 16_384,
        27 | 28 => 32_768,
        29 => 2048,
        30 => 512,              // surface alignment
        31 => 1,                // concurrent kernels
        32 => 1,                // ECC
        33..=35 => 0,           // PCI bus and device, TCC
        36 => 2_619_000,        // memory clock, kHz
        37 => 5120,             // memory bus width, bits
        38 => 50 * 1024 * 1024, // L2
        39 => MAX_THREADS_PER_SM,
        40 => 2, // async engines
        41 => 1, // unified addressing
        42 => 32_768,
        43 => 2048,
        44 => 1,
        45 | 46 => 32_768,
        47 | 48 => 8192,
        49 => 32_768,
        50 => 0,  // PCI domain
        51 => 32, // texture pitch alignment
        52 | 53 => 32_768,
        54 => 2046,
        55 => 32_768,
        56 => 131_072,
        57 => 65_536,
        58..=60 => 16_384,
        61 => 32_768,
        62 => 2048,
        63 | 64 => 32_768,
        65 => 2048,
        66 | 67 => 32_768,
        68 => 2046,
        69 => 268_435_456,
        70 => 131_072,
        71 => 65_000,
        72 => 2_097_120,
        73 | 74 => 32_768,
        75 => 9, // compute capability
        76 => 0,
        77 => 32_768,
        78..=80 => 1, // stream priorities, L1 caches
        81 => SHARED_PER_SM,
        82 => 64 * 1024, // registers per SM
        83 => 1,         // managed memory
        84 | 85 => 0,    // multi-GPU board
        86 => 0,         // host-native atomics
        87 => 2,         // single to double precision ratio
        88 => 0,         // pageable memory access
        89 => 1,         // concurrent managed access
        90 | 91 => 1,    // preemption; host pointer for registered memory
        92..=94 => 0,    // stream memory operations
        95 => 1,         // cooperative launch
        96 => 0,
        97 => SHARED_PER_BLOCK_OPTIN,
        98 => 0,
        99 => 1, // host register
        100 => 0,
        101 => 1,       // direct managed memory access from the host
        102 => 1,       // virtual memory management
        103..=105 => 0, // IPC handle types
        106 => MAX_BLOCKS_PER_SM,
        107 => 0,
        108 | 109 => 0, // persisting L2, access policy window
        110 => 0,
        111 => 1024, // shared memory reserved per block
        112..=114 => 0,
        115 => 1, // memory pools
        116..=119 => 0,
        120 => 1, // cluster launch (up to 8 CTAs, src/exec/cluster.rs)
        121..=125 => 0,
        126 => 4,       // memory synchronisation domains
        127 => 1,       // tensor maps (cuTensorMapEncodeTiled, cuTensorMapEncodeIm2col, cp.async.bulk.tensor)
        128 | 129 => 0, // fabric handles, unified function pointers
        130 => 0,
        131 => -1, // NUMA id
        132 | 133 => 0,
        134 => -1, // host NUMA id
        135..=161 => 0,
        _ => return None,
    })
}

/// The machine's memory, which the device reports as its own.
pub fn total_memory() -> u64 {
    meminfo("MemTotal:").unwrap_or(16 << 30)
}

/// Memory the machine could still give (`MemAvailable`).
pub fn available_memory() -> u64 {
    meminfo("MemAvailable:").unwrap_or(0)
}

fn meminfo(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Device `dev` is device 0.
pub fn check(dev: CUdevice) -> Result<(), CUresult> {
    state::with(|_| Ok(()))?;
    if dev == 0 {
        Ok(())
    } else {
        Err(crate::fail(
            error::INVALID_DEVICE,
            format!("device {dev} does not exist; ptxvm has one device, 0"),
        ))
    }
}

crate::api! {
    fn cuInit(flags: u32) {
        if flags != 0 {
            return Err(crate::fail(error::INVALID_VALUE, "flags must be 0"));
        }
        state::init();
        crate::printf::flush_at_exit_once();
        Ok(())
    }

    fn cuDriverGetVersion(driver_version: *mut i32) {
        crate::out(driver_version, DRIVER_VERSION)
    }

    fn cuDeviceGet(device: *mut CUdevice, ordinal: i32) {
        check(ordinal)?;
        crate::out(device, 0)
    }

    fn cuDeviceGetCount(count: *mut i32) {
        state::with(|_| Ok(()))?;
        crate::out(count, 1)
    }

    fn cuDeviceGetName(name: *mut c_char, len: i32, dev: CUdevice) {
        check(dev)?;
        if name.is_null() || len <= 0 {
            return Err(error::INVALID_VALUE);
        }
        let n = NAME.len().min(len as usize - 1);
        // SAFETY: the caller provides `len` writable bytes at `name`; `n + 1 <= len`.
        unsafe {
            std::ptr::copy_nonoverlapping(NAME.as_ptr().cast::<c_char>(), name, n);
            name.add(n).write(0);
        }
        Ok(())
    }

    fn cuDeviceGetUuid(uuid: *mut CUuuid, dev: CUdevice) {
        check(dev)?;
        crate::out(uuid, CUuuid { bytes: UUID })
    }

    fn cuDeviceGetUuid_v2(uuid: *mut CUuuid, dev: CUdevice) {
        check(dev)?;
        crate::out(uuid, CUuuid { bytes: UUID })
    }

    fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) {
        check(dev)?;
        crate::out(bytes, total_memory() as usize)
    }

    fn cuDeviceGetAttribute(pi: *mut i32, attrib: i32, dev: CUdevice) {
        check(dev)?;
        let value = attribute(attrib)
            .ok_or_else(|| crate::fail(error::INVALID_VALUE, format!("unknown device attribute {attrib}")))?;
        crate::out(pi, value)
    }

    fn cuDeviceGetPCIBusId(pci_bus_id: *mut c_char, len: i32, dev: CUdevice) {
        check(dev)?;
        if pci_bus_id.is_null() || len <= 0 {
            return Err(error::INVALID_VALUE);
        }
        let id = pci_bus_id_text();
        let n = id.len().min(len as usize - 1);
        // SAFETY: the caller provides `len` writable bytes; `n + 1 <= len`.
        unsafe {
            std::ptr::copy_nonoverlapping(id.as_ptr().cast::<c_char>(), pci_bus_id, n);
            pci_bus_id.add(n).write(0);
        }
        Ok(())
    }

    fn cuDeviceGetByPCIBusId(dev: *mut CUdevice, pci_bus_id: *const c_char) {
        let id = crate::c_string(pci_bus_id)?;
        // `[domain]:[bus]:[device].[function]` in hexadecimal; the domain may be
        // left out. Only this device's matches.
        let numbers: Vec<Option<u32>> =
            id.split([':', '.']).map(|p| u32::from_str_radix(p.trim(), 16).ok()).collect();
        let ours = [attribute(50), attribute(33), attribute(34)].map(|v| v.map(|v| v as u32));
        let matches = match numbers.as_slice() {
            [d, b, v, f] => [*d, *b, *v] == ours && *f == Some(0),
            [b, v, f] => [*b, *v] == ours[1..] && *f == Some(0),
            _ => false,
        };
        if !matches {
            return Err(crate::fail(error::INVALID_DEVICE, format!("no device has PCI bus ID `{id}` (ptxvm's is {})", pci_bus_id_text())));
        }
        crate::out(dev, 0)
    }

    fn cuDeviceGetProperties(prop: *mut DevProp, dev: CUdevice) {
        check(dev)?;
        let a = |k: i32| attribute(k).unwrap_or(0);
        crate::out(prop, DevProp {
            max_threads_per_block: a(1),
            max_threads_dim: [a(2), a(3), a(4)],
            max_grid_size: [a(5), a(6), a(7)],
            shared_mem_per_block: a(8),
            total_constant_memory: a(9),
            simd_width: a(10),
            mem_pitch: a(11),
            regs_per_block: a(12),
            clock_rate: a(13),
            texture_align: a(14),
        })
    }

    fn cuDeviceGetP2PAttribute(value: *mut i32, attrib: u32, src_device: CUdevice, dst_device: CUdevice) {
        let _ = (value, attrib);
        check(src_device)?;
        check(dst_device)?;
        // The one device is no peer of itself, as CUDA answers for src == dst.
        Err(crate::fail(error::INVALID_DEVICE, "there is one device, and a device is not its own peer"))
    }

    fn cuDeviceGetTexture1DLinearMaxWidth(max_width_in_elements: *mut usize, format: u32, num_channels: u32, dev: CUdevice) {
        check(dev)?;
        if !matches!(num_channels, 1 | 2 | 4) {
            return Err(error::INVALID_VALUE);
        }
        let _ = format;
        // CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH's 2^28 texels.
        crate::out(max_width_in_elements, 1 << 28)
    }

    fn cuDeviceGetExecAffinitySupport(pi: *mut i32, type_: u32, dev: CUdevice) {
        check(dev)?;
        let _ = type_;
        // SM partitions (execution affinity) are not modelled.
        crate::out(pi, 0)
    }

    fn cuFlushGPUDirectRDMAWrites(target: u32, scope: u32) {
        // Every write is visible at once: nothing to flush.
        let _ = (target, scope);
        Ok(())
    }

    fn cuDeviceComputeCapability(major: *mut i32, minor: *mut i32, dev: CUdevice) {
        check(dev)?;
        crate::out(major, 9)?;
        crate::out(minor, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attribute_of_the_header_has_a_value() {
        for a in 1..=161 {
            assert!(attribute(a).is_some(), "attribute {a}");
        }
        assert_eq!(attribute(0), None);
        assert_eq!(attribute(162), None);
        assert_eq!(attribute(75), Some(9));
        assert_eq!(attribute(16), Some(132));
    }
}
