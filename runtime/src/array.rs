//! CUDA arrays through the runtime: `cudaMallocArray`, `cudaMalloc3DArray`,
//! mipmapped arrays and their levels, `cudaFreeArray`, `cudaArrayGetInfo` and the
//! 2D copies to and from arrays, over
//! the driver's `cuArray3DCreate` and `cuMemcpy2D` (`CU_MEMORYTYPE_ARRAY`). A
//! `cudaChannelFormatDesc` becomes the driver's format and channel count.

use crate::driver as cu;
use crate::error::{self, CudaError};
use crate::{check, out};
use std::ffi::c_void;

type P = *mut c_void;

/// `struct cudaChannelFormatDesc`: bits per channel, and the kind (signed,
/// unsigned, float).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChannelFormatDesc {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    pub w: i32,
    pub f: u32,
}

/// `cudaChannelFormatKind`s: signed, unsigned, float.
const SIGNED: u32 = 0;
const UNSIGNED: u32 = 1;
const FLOAT: u32 = 2;

/// The driver's `CUarray_format` and channel count for `desc`: channels of the
/// same 8, 16 or 32 bits, signed or unsigned integers, or 16- or 32-bit floats.
pub(crate) fn format(desc: &ChannelFormatDesc) -> Result<(u32, u32), CudaError> {
    let bits = [desc.x, desc.y, desc.z, desc.w];
    let channels = bits.iter().take_while(|&&b| b != 0).count();
    let bad = || {
        crate::fail(
            error::INVALID_CHANNEL_DESCRIPTOR,
            format!("{desc:?} is not a channel format of CUDA arrays"),
        )
    };
    if channels == 0
        || channels == 3
        || bits[channels..].iter().any(|&b| b != 0)
        || bits[..channels].iter().any(|&b| b != bits[0])
    {
        return Err(bad());
    }
    let f = match (desc.f, bits[0]) {
        (UNSIGNED, 8) => 0x01,
        (UNSIGNED, 16) => 0x02,
        (UNSIGNED, 32) => 0x03,
        (SIGNED, 8) => 0x08,
        (SIGNED, 16) => 0x09,
        (SIGNED, 32) => 0x0a,
        (FLOAT, 16) => 0x10,
        (FLOAT, 32) => 0x20,
        _ => return Err(bad()),
    };
    Ok((f, channels as u32))
}

/// Bytes of one channel of `CUarray_format` `f`.
pub fn format_bytes(f: u32) -> usize {
    ptxvm::api::Format::from_cu(f, 1).map_or(4, |f| f.texel_bytes() as usize)
}

/// Bytes of one texel of array `a` (0 for no array: a null handle).
pub fn texel_bytes(a: P) -> Result<usize, CudaError> {
    if a.is_null() {
        return Ok(0);
    }
    let mut d = cu::Array3DDescriptor::default();
    check(cu::cuArray3DGetDescriptor_v2(&mut d, a))?;
    Ok(format_bytes(d.format) * d.num_channels as usize)
}

/// `CUmemorytype` of one side of a copy: an array, or any other memory (unified).
pub fn memory_type(array: P) -> u32 {
    if array.is_null() { 4 } else { 3 }
}

/// The channel descriptor of `CUarray_format` `f` with `channels` channels.
fn desc_of(f: u32, channels: u32) -> ChannelFormatDesc {
    let kind = match f {
        0x01..=0x03 => UNSIGNED,
        0x08..=0x0a => SIGNED,
        _ => FLOAT,
    };
    let bits = 8 * format_bytes(f) as i32;
    let mut c = [0i32; 4];
    c.iter_mut().take(channels as usize).for_each(|b| *b = bits);
    ChannelFormatDesc { x: c[0], y: c[1], z: c[2], w: c[3], f: kind }
}

/// The driver's descriptor of an array of `desc` texels, `(w, h, d)` of them, to
/// be written through `out`.
fn descriptor(
    out: *mut P,
    desc: *const ChannelFormatDesc,
    (w, h, d): (usize, usize, usize),
    flags: u32,
) -> Result<cu::Array3DDescriptor, CudaError> {
    crate::register::ready()?;
    if out.is_null() || desc.is_null() {
        return Err(error::INVALID_VALUE);
    }
    // SAFETY: a non-NULL `cudaChannelFormatDesc*` the caller filled.
    let (format, num_channels) = format(unsafe { &*desc })?;
    // cudaArray* flags and CUDA_ARRAY3D_* flags have the same values.
    Ok(cu::Array3DDescriptor { width: w, height: h, depth: d, format, num_channels, flags })
}

fn create(
    array: *mut P,
    desc: *const ChannelFormatDesc,
    shape: (usize, usize, usize),
    flags: u32,
) -> Result<(), CudaError> {
    let d3 = descriptor(array, desc, shape, flags)?;
    let mut a = std::ptr::null_mut();
    check(cu::cuArray3DCreate_v2(&mut a, &d3))?;
    out(array, a)
}

/// A 2D copy with an array on one side: `width` bytes by `height` rows.
#[allow(clippy::too_many_arguments)]
fn copy(
    (dst, dst_array, dx, dy, dpitch): (P, P, usize, usize, usize),
    (src, src_array, sx, sy, spitch): (*const c_void, P, usize, usize, usize),
    width: usize,
    height: usize,
    kind: u32,
    stream: Option<P>,
) -> Result<(), CudaError> {
    crate::register::ready()?;
    crate::api::kind_ok(kind)?;
    let m = cu::Memcpy2D {
        src_x_in_bytes: sx,
        src_y: sy,
        src_memory_type: memory_type(src_array),
        src_device: src as u64,
        src_array: src_array as usize,
        src_pitch: spitch,
        dst_x_in_bytes: dx,
        dst_y: dy,
        dst_memory_type: memory_type(dst_array),
        dst_device: dst as u64,
        dst_array: dst_array as usize,
        dst_pitch: dpitch,
        width_in_bytes: width,
        height,
        ..Default::default()
    };
    check(match stream {
        Some(s) => cu::cuMemcpy2DAsync_v2(&m, s),
        None => cu::cuMemcpy2DUnaligned_v2(&m),
    })
}

/// The deprecated linear copies to and from an array (`cudaMemcpyToArray`,
/// `FromArray`): `count` bytes from row `hy`, byte `wx` on, running on through the
/// rows, as up to three 2D copies (the rest of the first row, whole rows, the start
/// of the last). A range past the array is refused before anything is copied.
#[allow(clippy::too_many_arguments)]
fn linear_copy(
    array: P,
    wx: usize,
    hy: usize,
    host: (P, *const c_void),
    count: usize,
    kind: u32,
    to_array: bool,
    stream: Option<P>,
) -> Result<(), CudaError> {
    crate::register::ready()?;
    let mut d = cu::Array3DDescriptor::default();
    check(cu::cuArray3DGetDescriptor_v2(&mut d, array))?;
    let row = d.width * format_bytes(d.format) * d.num_channels as usize;
    if row == 0 {
        return Err(crate::fail(error::INVALID_VALUE, "the array has rows of 0 bytes"));
    }
    // A row at a time, as NVIDIA's runtime copies: a copy that runs past the array
    // fails at the first row outside it, with the rows before it copied.
    let mut at = hy.checked_mul(row).and_then(|b| b.checked_add(wx)).ok_or(error::INVALID_VALUE)?;
    let (mut done, none) = (0usize, std::ptr::null_mut());
    while done < count {
        let (y, x) = (at / row, at % row);
        let (width, height) = ((row - x).min(count - done), 1);
        let moved = width * height;
        if to_array {
            // The source may be a device address: an offset, not a host access.
            let src = host.1.cast::<u8>().wrapping_add(done).cast();
            copy((none, array, x, y, 0), (src, none, 0, 0, row), width, height, kind, stream)?;
        } else {
            let dst = host.0.cast::<u8>().wrapping_add(done).cast();
            copy((dst, none, 0, 0, row), (std::ptr::null(), array, x, y, 0), width, height, kind, stream)?;
        }
        at += moved;
        done += moved;
    }
    Ok(())
}

/// `cudaCreateChannelDesc`: the descriptor of those bits and kind, as given.
#[unsafe(no_mangle)]
pub extern "C" fn cudaCreateChannelDesc(x: i32, y: i32, z: i32, w: i32, f: u32) -> ChannelFormatDesc {
    ChannelFormatDesc { x, y, z, w, f }
}

crate::rt! {
    fn cudaMallocArray(array: *mut P, desc: *const ChannelFormatDesc, width: usize, height: usize, flags: u32) {
        create(array, desc, (width, height, 0), flags)
    }

    fn cudaMalloc3DArray(array: *mut P, desc: *const ChannelFormatDesc, extent: crate::api::Extent, flags: u32) {
        create(array, desc, (extent.width, extent.height, extent.depth), flags)
    }

    fn cudaMallocMipmappedArray(mipmap: *mut P, desc: *const ChannelFormatDesc, extent: crate::api::Extent, num_levels: u32, flags: u32) {
        let d3 = descriptor(mipmap, desc, (extent.width, extent.height, extent.depth), flags)?;
        let mut m = std::ptr::null_mut();
        check(cu::cuMipmappedArrayCreate(&mut m, &d3, num_levels))?;
        out(mipmap, m)
    }

    fn cudaGetMipmappedArrayLevel(level_array: *mut P, mipmap: P, level: u32) {
        crate::register::ready()?;
        check(cu::cuMipmappedArrayGetLevel(level_array, mipmap, level))
    }

    fn cudaFreeMipmappedArray(mipmap: P) {
        crate::register::ready()?;
        if mipmap.is_null() {
            return Ok(());
        }
        check(cu::cuMipmappedArrayDestroy(mipmap))
    }

    fn cudaFreeArray(array: P) {
        crate::register::ready()?;
        if array.is_null() {
            return Ok(());
        }
        check(cu::cuArrayDestroy(array))
    }

    fn cudaArrayGetInfo(desc: *mut ChannelFormatDesc, extent: *mut crate::api::Extent, flags: *mut u32, array: P) {
        crate::register::ready()?;
        let mut d = cu::Array3DDescriptor::default();
        check(cu::cuArray3DGetDescriptor_v2(&mut d, array))?;
        if !desc.is_null() {
            out(desc, desc_of(d.format, d.num_channels))?;
        }
        if !extent.is_null() {
            out(extent, crate::api::Extent { width: d.width, height: d.height, depth: d.depth })?;
        }
        if !flags.is_null() {
            out(flags, d.flags)?;
        }
        Ok(())
    }

    fn cudaGetChannelDesc(desc: *mut ChannelFormatDesc, array: P) {
        crate::register::ready()?;
        let mut d = cu::Array3DDescriptor::default();
        check(cu::cuArray3DGetDescriptor_v2(&mut d, array))?;
        out(desc, desc_of(d.format, d.num_channels))
    }

    fn cudaMemcpy2DToArray(dst: P, w_offset: usize, h_offset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: u32) also cudaMemcpy2DToArray_ptds {
        let none = std::ptr::null_mut();
        copy((none, dst, w_offset, h_offset, 0), (src, none, 0, 0, spitch), width, height, kind, None)
    }

    fn cudaMemcpy2DToArrayAsync(dst: P, w_offset: usize, h_offset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: u32, stream: P) also cudaMemcpy2DToArrayAsync_ptsz {
        let none = std::ptr::null_mut();
        copy((none, dst, w_offset, h_offset, 0), (src, none, 0, 0, spitch), width, height, kind, Some(stream))
    }

    fn cudaMemcpy2DFromArray(dst: P, dpitch: usize, src: P, w_offset: usize, h_offset: usize, width: usize, height: usize, kind: u32) also cudaMemcpy2DFromArray_ptds {
        let none = std::ptr::null_mut();
        copy((dst, none, 0, 0, dpitch), (std::ptr::null(), src, w_offset, h_offset, 0), width, height, kind, None)
    }

    fn cudaMemcpy2DFromArrayAsync(dst: P, dpitch: usize, src: P, w_offset: usize, h_offset: usize, width: usize, height: usize, kind: u32, stream: P) also cudaMemcpy2DFromArrayAsync_ptsz {
        let none = std::ptr::null_mut();
        copy((dst, none, 0, 0, dpitch), (std::ptr::null(), src, w_offset, h_offset, 0), width, height, kind, Some(stream))
    }

    fn cudaMemcpyToArray(dst: P, w_offset: usize, h_offset: usize, src: *const c_void, count: usize, kind: u32) also cudaMemcpyToArray_ptds {
        linear_copy(dst, w_offset, h_offset, (std::ptr::null_mut(), src), count, kind, true, None)
    }

    fn cudaMemcpyToArrayAsync(dst: P, w_offset: usize, h_offset: usize, src: *const c_void, count: usize, kind: u32, stream: P) also cudaMemcpyToArrayAsync_ptsz {
        linear_copy(dst, w_offset, h_offset, (std::ptr::null_mut(), src), count, kind, true, Some(stream))
    }

    fn cudaMemcpyFromArray(dst: P, src: P, w_offset: usize, h_offset: usize, count: usize, kind: u32) also cudaMemcpyFromArray_ptds {
        linear_copy(src, w_offset, h_offset, (dst, std::ptr::null()), count, kind, false, None)
    }

    fn cudaMemcpyFromArrayAsync(dst: P, src: P, w_offset: usize, h_offset: usize, count: usize, kind: u32, stream: P) also cudaMemcpyFromArrayAsync_ptsz {
        linear_copy(src, w_offset, h_offset, (dst, std::ptr::null()), count, kind, false, Some(stream))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_descriptors_become_the_drivers_formats_and_back() {
        let d = |x, y, z, w, f| ChannelFormatDesc { x, y, z, w, f };
        assert_eq!(format(&d(32, 32, 32, 32, FLOAT)), Ok((0x20, 4)));
        assert_eq!(format(&d(8, 0, 0, 0, UNSIGNED)), Ok((0x01, 1)));
        assert_eq!(format(&d(16, 16, 0, 0, SIGNED)), Ok((0x09, 2)));
        assert_eq!(format(&d(16, 0, 0, 0, FLOAT)), Ok((0x10, 1)));
        for bad in [
            d(0, 0, 0, 0, FLOAT),
            d(8, 16, 0, 0, UNSIGNED),
            d(32, 32, 32, 0, FLOAT),
            d(64, 0, 0, 0, FLOAT),
            d(0, 8, 0, 0, SIGNED),
            d(8, 0, 0, 0, 9),
        ] {
            assert_eq!(format(&bad), Err(error::INVALID_CHANNEL_DESCRIPTOR), "{bad:?}");
        }
        for (f, c) in [(0x01, 1), (0x0a, 4), (0x10, 2), (0x20, 4)] {
            assert_eq!(format(&desc_of(f, c)), Ok((f, c)));
        }
    }
}
