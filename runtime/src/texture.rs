//! Texture and surface objects through the runtime: `cudaCreateTextureObject`,
//! `cudaCreateSurfaceObject` and their `Destroy`, over the driver's
//! `cuTexObjectCreate` and `cuSurfObjectCreate`. The runtime's descriptors become
//! the driver's, and the runtime's own checks give its own error codes
//! (`cudaErrorInvalidFilterSetting`, `cudaErrorInvalidNormSetting`).

use crate::array::ChannelFormatDesc;
use crate::driver as cu;
use crate::error::{self, CudaError};
use crate::{check, out};
use std::ffi::c_void;

type P = *mut c_void;

/// `struct cudaResourceDesc` (144 bytes; offsets measured with offsetof on
/// cuda_runtime_api.h 13): the type, then a union, then flags.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ResourceDesc {
    pub res_type: u32,
    pub pad: u32,
    /// `array.array` / `mipmap.mipmap` / `linear.devPtr` / `pitch2D.devPtr`.
    pub handle: u64,
    /// `linear.desc` / `pitch2D.desc`.
    pub desc: ChannelFormatDesc,
    pub pad1: u32,
    /// `linear.sizeInBytes` / `pitch2D.width`.
    pub size_or_width: usize,
    pub height: usize,
    pub pitch: usize,
    pub rest: [u8; 72],
    pub flags: u32,
    pub pad2: u32,
}

/// `struct cudaTextureDesc` (72 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct TextureDesc {
    pub address_mode: [u32; 3],
    pub filter_mode: u32,
    pub read_mode: u32,
    pub srgb: i32,
    pub border_color: [f32; 4],
    pub normalized_coords: i32,
    pub max_anisotropy: u32,
    pub mipmap_filter_mode: u32,
    pub mipmap_level_bias: f32,
    pub min_mipmap_level_clamp: f32,
    pub max_mipmap_level_clamp: f32,
    pub disable_trilinear_optimization: i32,
    pub seamless_cubemap: i32,
}

const _: () = assert!(std::mem::size_of::<ResourceDesc>() == 144);
const _: () = assert!(std::mem::size_of::<TextureDesc>() == 72);

/// `cudaReadModeElementType`.
const ELEMENT_TYPE: u32 = 0;

/// The driver's resource descriptor and the format textures read.
fn resource(r: &ResourceDesc) -> Result<(cu::ResourceDesc, u32), CudaError> {
    let mut d =
        cu::ResourceDesc { res_type: r.res_type, handle: r.handle, flags: r.flags, ..Default::default() };
    let format = match r.res_type {
        0 | 1 => {
            let mut array = r.handle as P;
            if r.res_type == 1 {
                check(cu::cuMipmappedArrayGetLevel(&mut array, r.handle as P, 0))?;
            }
            let mut a = cu::Array3DDescriptor::default();
            check(cu::cuArray3DGetDescriptor_v2(&mut a, array))?;
            a.format
        }
        2 | 3 => {
            let (f, n) = crate::array::format(&r.desc)?;
            d.format = f;
            d.num_channels = n;
            d.size_or_width = r.size_or_width;
            d.height = r.height;
            d.pitch = r.pitch;
            f
        }
        t => return Err(crate::fail(error::INVALID_VALUE, format!("cudaResourceDesc: resource type {t}"))),
    };
    Ok((d, format))
}

crate::rt! {
    fn cudaCreateTextureObject(obj: *mut u64, res: *const ResourceDesc, tex: *const TextureDesc, view: *const c_void) {
        crate::register::ready()?;
        if res.is_null() || tex.is_null() || obj.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if !view.is_null() {
            return Err(crate::fail(error::INVALID_VALUE, "resource views (cudaResourceViewDesc) are not supported"));
        }
        // SAFETY: non-NULL descriptors the caller filled.
        let (r, t) = unsafe { (*res, *tex) };
        let (rd, format) = resource(&r)?;
        // CUDA's read rules, as the library makes objects by them, with the
        // runtime's own codes.
        let f = ptxvm::api::Format::from_cu(format, 1).ok_or(error::INVALID_VALUE)?;
        match ptxvm::api::check_read(f, t.filter_mode == 1, t.read_mode != ELEMENT_TYPE) {
            Err(e @ ptxvm::api::ObjectError::NormalizedRead) => {
                return Err(crate::fail(error::INVALID_NORM_SETTING, e));
            }
            Err(e) => return Err(crate::fail(error::INVALID_FILTER_SETTING, e)),
            Ok(()) => {}
        }
        let td = cu::TextureDesc {
            address_mode: t.address_mode,
            filter_mode: t.filter_mode,
            // CU_TRSF_READ_AS_INTEGER, _NORMALIZED_COORDINATES, _SRGB, _SEAMLESS_CUBEMAP.
            flags: u32::from(t.read_mode == ELEMENT_TYPE)
                | (u32::from(t.normalized_coords != 0) << 1)
                | (u32::from(t.srgb != 0) << 4)
                | (u32::from(t.seamless_cubemap != 0) << 6),
            max_anisotropy: t.max_anisotropy,
            mipmap_filter_mode: t.mipmap_filter_mode,
            mipmap_level_bias: t.mipmap_level_bias,
            min_mipmap_level_clamp: t.min_mipmap_level_clamp,
            max_mipmap_level_clamp: t.max_mipmap_level_clamp,
            border_color: t.border_color,
            reserved: [0; 12],
        };
        let mut h = 0u64;
        check(cu::cuTexObjectCreate(&mut h, &rd, &td, std::ptr::null()))?;
        out(obj, h)
    }

    fn cudaDestroyTextureObject(obj: u64) {
        crate::register::ready()?;
        check(cu::cuTexObjectDestroy(obj))
    }

    fn cudaCreateSurfaceObject(obj: *mut u64, res: *const ResourceDesc) {
        crate::register::ready()?;
        if res.is_null() || obj.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL descriptor the caller filled.
        let r = unsafe { *res };
        if r.res_type != 0 {
            return Err(crate::fail(error::INVALID_VALUE, "a surface is made over an array (cudaResourceTypeArray)"));
        }
        let rd = cu::ResourceDesc { res_type: 0, handle: r.handle, ..Default::default() };
        let mut h = 0u64;
        check(cu::cuSurfObjectCreate(&mut h, &rd))?;
        out(obj, h)
    }

    fn cudaDestroySurfaceObject(obj: u64) {
        crate::register::ready()?;
        check(cu::cuSurfObjectDestroy(obj))
    }
}
