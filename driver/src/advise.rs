//! Managed-memory hints: prefetches, advice and the range attributes that report
//! them. Every allocation is one memory on the CPU, reachable from host and kernels
//! alike, so a prefetch moves nothing and advice changes no result; each is checked
//! as CUDA checks it (the range must be memory the driver knows), and the advice a
//! program gave is what the range attributes report back.

use crate::error;
use crate::state::{self, Driver};
use crate::types::{CUdevice, CUdeviceptr, CUresult, Handle};
use std::ffi::c_void;

/// `CUmemLocation`, passed by value.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemLocation {
    pub type_: u32,
    pub id: i32,
}

/// `CU_DEVICE_INVALID`, which range attributes give for "no location".
const DEVICE_INVALID: i32 = -2;
/// `CU_DEVICE_CPU`.
const DEVICE_CPU: i32 = -1;
/// `CUmem_advise` values.
const SET_READ_MOSTLY: u32 = 1;
const UNSET_READ_MOSTLY: u32 = 2;
const SET_PREFERRED_LOCATION: u32 = 3;
const UNSET_PREFERRED_LOCATION: u32 = 4;
const SET_ACCESSED_BY: u32 = 5;
const UNSET_ACCESSED_BY: u32 = 6;

/// What a program said of one allocation.
#[derive(Clone, Copy, Default, Debug)]
pub struct Advice {
    pub read_mostly: bool,
    /// The preferred location's device (or `CU_DEVICE_CPU`), if one was set.
    pub preferred: Option<i32>,
    /// Devices (or the CPU) set to access it, as a set of ordinals + 1.
    pub accessed_by: u8,
    /// Where it was last prefetched to.
    pub prefetched: Option<i32>,
}

/// The base of the allocation that holds `count` bytes at `ptr`.
///
/// # Errors
/// `CUDA_ERROR_INVALID_VALUE` when they are not inside memory the driver knows.
fn range(d: &Driver, ptr: CUdeviceptr, count: usize) -> Result<u64, CUresult> {
    let r = d.device.range(ptr).ok_or_else(|| {
        crate::fail(error::INVALID_VALUE, format!("0x{ptr:x} is not memory the driver knows"))
    })?;
    if ptr.checked_add(count as u64).is_none_or(|end| end > r.base + r.bytes) {
        return Err(crate::fail(
            error::INVALID_VALUE,
            format!("{count} bytes at 0x{ptr:x} run past the allocation"),
        ));
    }
    Ok(r.base)
}

/// A location as a device ordinal, `CU_DEVICE_CPU` for the host.
fn ordinal(loc: MemLocation) -> Result<i32, CUresult> {
    match loc.type_ {
        // CU_MEM_LOCATION_TYPE_DEVICE
        1 => crate::device::check(loc.id).map(|()| loc.id),
        // _HOST, _HOST_NUMA, _HOST_NUMA_CURRENT
        2..=4 => Ok(DEVICE_CPU),
        t => Err(crate::fail(error::INVALID_VALUE, format!("memory location type {t} is not one CUDA has"))),
    }
}

/// A device argument of the older forms as a location.
fn device_location(dev: CUdevice) -> MemLocation {
    if dev == DEVICE_CPU { MemLocation { type_: 2, id: 0 } } else { MemLocation { type_: 1, id: dev } }
}

fn prefetch(ptr: CUdeviceptr, count: usize, loc: MemLocation, stream: Handle) -> Result<(), CUresult> {
    let to = ordinal(loc)?;
    state::with(|d| {
        d.ctx()?;
        d.check_stream(stream as u64)?;
        if count == 0 {
            return Ok(());
        }
        let base = range(d, ptr, count)?;
        d.advice.entry(base).or_default().prefetched = Some(to);
        Ok(())
    })
}

fn advise(ptr: CUdeviceptr, count: usize, advice: u32, loc: MemLocation) -> Result<(), CUresult> {
    let to = match advice {
        SET_PREFERRED_LOCATION | SET_ACCESSED_BY | UNSET_ACCESSED_BY => Some(ordinal(loc)?),
        SET_READ_MOSTLY | UNSET_READ_MOSTLY | UNSET_PREFERRED_LOCATION => None,
        a => return Err(crate::fail(error::INVALID_VALUE, format!("advice {a} is not one CUDA has"))),
    };
    state::with(|d| {
        let base = range(d, ptr, count)?;
        let a = d.advice.entry(base).or_default();
        let bit = |o: i32| 1u8 << (o + 1);
        match (advice, to) {
            (SET_READ_MOSTLY, _) => a.read_mostly = true,
            (UNSET_READ_MOSTLY, _) => a.read_mostly = false,
            (SET_PREFERRED_LOCATION, to) => a.preferred = to,
            (UNSET_PREFERRED_LOCATION, _) => a.preferred = None,
            (SET_ACCESSED_BY, Some(o)) => a.accessed_by |= bit(o),
            (UNSET_ACCESSED_BY, Some(o)) => a.accessed_by &= !bit(o),
            _ => {}
        }
        Ok(())
    })
}

/// One range attribute into `data` (`size` bytes).
fn range_attribute(
    d: &Driver,
    data: *mut c_void,
    size: usize,
    attribute: u32,
    ptr: CUdeviceptr,
    count: usize,
) -> Result<(), CUresult> {
    let base = range(d, ptr, count)?;
    let a = d.advice.get(&base).copied().unwrap_or_default();
    let location = |o: Option<i32>| o.unwrap_or(DEVICE_INVALID);
    // CUmemLocationType of a location: device 1, host 2, none 0.
    let kind = |o: Option<i32>| match o {
        Some(DEVICE_CPU) => 2,
        Some(_) => 1,
        None => 0,
    };
    let id = |o: Option<i32>| o.filter(|&o| o >= 0).unwrap_or(0);
    let one = match attribute {
        1 => i32::from(a.read_mostly),
        2 => location(a.preferred),
        3 => {
            // An array of the devices set to access the range, then CU_DEVICE_INVALID.
            if data.is_null() || size == 0 || !size.is_multiple_of(4) {
                return Err(error::INVALID_VALUE);
            }
            let list: Vec<i32> =
                [DEVICE_CPU, 0].into_iter().filter(|&o| a.accessed_by & (1 << (o + 1)) != 0).collect();
            for k in 0..size / 4 {
                // SAFETY: `size` writable bytes at `data`, checked a multiple of 4.
                unsafe { data.cast::<i32>().add(k).write(list.get(k).copied().unwrap_or(DEVICE_INVALID)) };
            }
            return Ok(());
        }
        4 => location(a.prefetched),
        5 => kind(a.preferred),
        6 => id(a.preferred),
        7 => kind(a.prefetched),
        8 => id(a.prefetched),
        _ => {
            return Err(crate::fail(
                error::INVALID_VALUE,
                format!("range attribute {attribute} is not one CUDA has"),
            ));
        }
    };
    if data.is_null() || size != 4 {
        return Err(error::INVALID_VALUE);
    }
    crate::out(data.cast::<i32>(), one)
}

crate::api! {
    fn cuMemPrefetchAsync(dev_ptr: CUdeviceptr, count: usize, dst_device: CUdevice, h_stream: Handle) also cuMemPrefetchAsync_ptsz {
        prefetch(dev_ptr, count, device_location(dst_device), h_stream)
    }

    fn cuMemPrefetchAsync_v2(dev_ptr: CUdeviceptr, count: usize, location: MemLocation, flags: u32, h_stream: Handle) also cuMemPrefetchAsync_v2_ptsz {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        prefetch(dev_ptr, count, location, h_stream)
    }

    fn cuMemAdvise(dev_ptr: CUdeviceptr, count: usize, advice: u32, device: CUdevice) {
        advise(dev_ptr, count, advice, device_location(device))
    }

    fn cuMemAdvise_v2(dev_ptr: CUdeviceptr, count: usize, advice: u32, location: MemLocation) {
        advise(dev_ptr, count, advice, location)
    }

    fn cuMemRangeGetAttribute(data: *mut c_void, data_size: usize, attribute: u32, dev_ptr: CUdeviceptr, count: usize) {
        state::with(|d| range_attribute(d, data, data_size, attribute, dev_ptr, count))
    }

    fn cuMemRangeGetAttributes(data: *mut *mut c_void, data_sizes: *mut usize, attributes: *mut u32, num_attributes: usize, dev_ptr: CUdeviceptr, count: usize) {
        if num_attributes > 0 && (data.is_null() || data_sizes.is_null() || attributes.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        state::with(|d| {
            for k in 0..num_attributes {
                // SAFETY: the caller passes `num_attributes` of each.
                let (out, size, attribute) = unsafe { (*data.add(k), *data_sizes.add(k), *attributes.add(k)) };
                range_attribute(d, out, size, attribute, dev_ptr, count)?;
            }
            Ok(())
        })
    }
}
