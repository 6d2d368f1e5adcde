//! Tensor maps (`cuTensorMapEncodeTiled`, `cuTensorMapEncodeIm2col`,
//! `cuTensorMapReplaceAddress`): 128 opaque
//! bytes that `cp.async.bulk.tensor` reads in a kernel; the library defines them
//! (`ptxvm::exec::tma`) and checks CUDA's requirements of the arguments.

use crate::error;
use crate::types::CUresult;
use ptxvm::exec::tma::{Im2colArgs, MapError, TensorMap, Tiled};
use std::ffi::c_void;

/// `rank` elements of the caller's array `p` (`count` of them), or `INVALID_VALUE`
/// for a NULL pointer.
fn array<T: Copy>(p: *const T, count: usize, what: &str) -> Result<Vec<T>, CUresult> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(crate::fail(error::INVALID_VALUE, format!("{what} is NULL")));
    }
    // SAFETY: a non-NULL array the caller passes with at least `count` elements (the
    // tensor's rank, which cuda.h documents as its length), read-only.
    Ok(unsafe { std::slice::from_raw_parts(p, count) }.to_vec())
}

/// Writes `map` through the caller's `CUtensorMap*`, which must be 64-byte aligned.
fn write_map(p: *mut u8, map: &TensorMap) -> Result<(), CUresult> {
    if p.is_null() {
        return Err(crate::fail(error::INVALID_VALUE, "tensorMap is NULL"));
    }
    if !(p as usize).is_multiple_of(64) {
        return Err(crate::fail(error::INVALID_VALUE, format!("tensorMap {p:?} is not 64-byte aligned")));
    }
    let bytes = map.encode();
    // SAFETY: a non-NULL, aligned CUtensorMap (128 bytes) the caller owns, writable.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len()) };
    Ok(())
}

/// The arguments both encoders share, read from the caller's arrays (`boxDim` given
/// only to the tiled one).
#[allow(clippy::too_many_arguments)]
fn tiled_args(
    dtype: u32,
    rank: u32,
    global_address: *mut c_void,
    global_dim: *const u64,
    global_strides: *const u64,
    box_dim: Option<*const u32>,
    element_strides: *const u32,
    [interleave, swizzle, l2_promotion, oob_fill]: [u32; 4],
) -> Result<Tiled, CUresult> {
    let r = rank as usize;
    Ok(Tiled {
        dtype,
        rank,
        global: global_address as u64,
        dims: array(global_dim, r, "globalDim")?,
        strides: array(global_strides, r - 1, "globalStrides")?,
        boxes: match box_dim {
            Some(b) => array(b, r, "boxDim")?,
            None => Vec::new(),
        },
        element_strides: array(element_strides, r, "elementStrides")?,
        interleave,
        swizzle,
        l2_promotion,
        oob_fill,
    })
}

fn map_error(e: MapError) -> CUresult {
    match e {
        MapError::Invalid(why) => crate::fail(error::INVALID_VALUE, why),
        MapError::Unsupported(why) => crate::fail(error::NOT_SUPPORTED, why),
    }
}

crate::api! {
    fn cuTensorMapEncodeTiled(
        tensor_map: *mut u8,
        dtype: u32,
        rank: u32,
        global_address: *mut c_void,
        global_dim: *const u64,
        global_strides: *const u64,
        box_dim: *const u32,
        element_strides: *const u32,
        interleave: u32,
        swizzle: u32,
        l2_promotion: u32,
        oob_fill: u32,
    ) {
        if !(1..=5).contains(&rank) {
            return Err(crate::fail(error::INVALID_VALUE, format!("tensorRank is {rank}, not 1 to 5")));
        }
        let modes = [interleave, swizzle, l2_promotion, oob_fill];
        let tiled = tiled_args(dtype, rank, global_address, global_dim, global_strides, Some(box_dim), element_strides, modes)?;
        let map = TensorMap::tiled(&tiled).map_err(map_error)?;
        write_map(tensor_map, &map)
    }

    fn cuTensorMapEncodeIm2col(
        tensor_map: *mut u8,
        dtype: u32,
        rank: u32,
        global_address: *mut c_void,
        global_dim: *const u64,
        global_strides: *const u64,
        pixel_box_lower_corner: *const i32,
        pixel_box_upper_corner: *const i32,
        channels_per_pixel: u32,
        pixels_per_column: u32,
        element_strides: *const u32,
        interleave: u32,
        swizzle: u32,
        l2_promotion: u32,
        oob_fill: u32,
    ) {
        if !(3..=5).contains(&rank) {
            return Err(crate::fail(error::INVALID_VALUE, format!("tensorRank is {rank}, not 3, 4 or 5 (im2col)")));
        }
        let r = rank as usize;
        let modes = [interleave, swizzle, l2_promotion, oob_fill];
        let tiled = tiled_args(dtype, rank, global_address, global_dim, global_strides, None, element_strides, modes)?;
        let args = Im2colArgs {
            lower: array(pixel_box_lower_corner, r - 2, "pixelBoxLowerCorner")?,
            upper: array(pixel_box_upper_corner, r - 2, "pixelBoxUpperCorner")?,
            channels: channels_per_pixel,
            pixels: pixels_per_column,
        };
        let map = TensorMap::im2col(&tiled, &args).map_err(map_error)?;
        write_map(tensor_map, &map)
    }

    fn cuTensorMapReplaceAddress(tensor_map: *mut u8, global_address: *mut c_void) {
        if tensor_map.is_null() || !(tensor_map as usize).is_multiple_of(64) {
            return Err(crate::fail(error::INVALID_VALUE, "tensorMap is NULL or not 64-byte aligned"));
        }
        let mut bytes = [0u8; 128];
        // SAFETY: a non-NULL, aligned CUtensorMap of 128 bytes, read before it is written.
        unsafe { std::ptr::copy_nonoverlapping(tensor_map, bytes.as_mut_ptr(), 128) };
        let Some(mut map) = TensorMap::decode(&bytes) else {
            return Err(crate::fail(error::INVALID_VALUE, "tensorMap is not a map cuTensorMapEncodeTiled or cuTensorMapEncodeIm2col made"));
        };
        if !(global_address as u64).is_multiple_of(16) {
            return Err(crate::fail(error::INVALID_VALUE, format!("globalAddress {global_address:?} is not 16-byte aligned")));
        }
        map.global = global_address as u64;
        write_map(tensor_map, &map)
    }
}
