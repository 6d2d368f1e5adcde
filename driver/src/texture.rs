//! Texture and surface objects (`cuTexObjectCreate`, `cuSurfObjectCreate`): a
//! `CUDA_RESOURCE_DESC` (an array, a mipmapped array, linear or pitched memory) and
//! a `CUDA_TEXTURE_DESC` become a library object, whose handle kernels fetch through.

use crate::array::{self, ArrayEntry};
use crate::error;
use crate::state::{self, Driver};
use crate::types::{CUresult, Handle};
use ptxvm::api::{AddressMode, ArrayShape, Format, Image, ObjectError, Resource, Sampler, Texture};

/// `CUDA_RESOURCE_DESC`: the type, then a union of 128 bytes, then flags (144 bytes;
/// offsets measured with offsetof on cuda.h 13).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ResourceDesc {
    pub res_type: u32,
    pub pad: u32,
    /// `array.hArray` / `mipmap.hMipmappedArray` / `linear.devPtr` / `pitch2D.devPtr`.
    pub handle: u64,
    /// `linear.format` / `pitch2D.format`.
    pub format: u32,
    pub num_channels: u32,
    /// `linear.sizeInBytes` / `pitch2D.width`.
    pub size_or_width: usize,
    pub height: usize,
    pub pitch: usize,
    pub rest: [u8; 88],
    pub flags: u32,
    pub pad2: u32,
}

/// `CUDA_TEXTURE_DESC` (104 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct TextureDesc {
    pub address_mode: [u32; 3],
    pub filter_mode: u32,
    pub flags: u32,
    pub max_anisotropy: u32,
    pub mipmap_filter_mode: u32,
    pub mipmap_level_bias: f32,
    pub min_mipmap_level_clamp: f32,
    pub max_mipmap_level_clamp: f32,
    pub border_color: [f32; 4],
    pub reserved: [i32; 12],
}

const _: () = assert!(std::mem::size_of::<ResourceDesc>() == 144);
const _: () = assert!(std::mem::size_of::<TextureDesc>() == 104);

/// `CU_TRSF_*`.
const READ_AS_INTEGER: u32 = 0x01;
const NORMALIZED_COORDINATES: u32 = 0x02;
const SRGB: u32 = 0x10;
const SEAMLESS_CUBEMAP: u32 = 0x40;

/// An array as the library sees it: its image and shape.
pub(crate) fn image_of(a: &ArrayEntry) -> Result<(Image, ArrayShape), CUresult> {
    let f = Format::from_cu(a.desc.format, a.desc.num_channels)
        .ok_or_else(|| crate::fail(error::INVALID_VALUE, "the array's format is not one textures read"))?;
    let d = &a.desc;
    let shape = match (d.flags & array::CUBEMAP != 0, d.flags & array::LAYERED != 0) {
        (true, true) => ArrayShape::LayeredCube,
        (true, false) => ArrayShape::Cube,
        (false, true) if d.height == 0 => ArrayShape::Layered1D,
        (false, true) => ArrayShape::Layered2D,
        _ if d.depth > 0 => ArrayShape::D3,
        _ if d.height > 0 => ArrayShape::D2,
        _ => ArrayShape::D1,
    };
    let image = Image {
        base: a.data,
        width: d.width as u32,
        height: a.height() as u32,
        depth: a.depth() as u32,
        pitch: a.row() as u64,
        format: f,
    };
    Ok((image, shape))
}

fn bad(why: impl std::fmt::Display) -> CUresult {
    crate::fail(error::INVALID_VALUE, why)
}

fn resource(d: &Driver, r: &ResourceDesc) -> Result<Resource, CUresult> {
    match r.res_type {
        0 => {
            let a = array::get(d, r.handle as Handle)?;
            let (image, shape) = image_of(&a)?;
            Ok(Resource::Array { shape, levels: vec![image] })
        }
        1 => {
            let levels = d
                .mipmaps
                .get(&r.handle)
                .ok_or_else(|| crate::fail(error::INVALID_HANDLE, "not a mipmapped array"))?;
            let mut images = Vec::new();
            for l in levels {
                images.push(image_of(&array::get(d, *l as Handle)?)?.0);
            }
            let shape = image_of(&array::get(d, levels[0] as Handle)?)?.1;
            Ok(Resource::Array { shape, levels: images })
        }
        2 => {
            let f = Format::from_cu(r.format, r.num_channels)
                .ok_or_else(|| bad("linear texture: not a texel format"))?;
            if r.handle == 0 || !r.handle.is_multiple_of(f.texel_bytes()) {
                return Err(bad(format!("linear texture at {:#x}: not aligned to its texels", r.handle)));
            }
            Ok(Resource::Linear { base: r.handle, bytes: r.size_or_width as u64, format: f })
        }
        3 => {
            let f = Format::from_cu(r.format, r.num_channels)
                .ok_or_else(|| bad("pitched texture: not a texel format"))?;
            let row = r.size_or_width as u64 * f.texel_bytes();
            if r.handle == 0
                || !(r.pitch as u64).is_multiple_of(32)
                || (r.pitch as u64) < row
                || r.height == 0
            {
                return Err(bad(format!(
                    "pitched texture: pitch {} (a multiple of 32 of at least a row of {row} bytes), height {}",
                    r.pitch, r.height
                )));
            }
            Ok(Resource::Pitch2D(Image {
                base: r.handle,
                width: r.size_or_width as u32,
                height: r.height as u32,
                depth: 1,
                pitch: r.pitch as u64,
                format: f,
            }))
        }
        t => {
            Err(bad(format!("resource type {t} is not an array, mipmapped array, linear or pitched memory")))
        }
    }
}

fn address_mode(m: u32) -> Result<AddressMode, CUresult> {
    Ok(match m {
        0 => AddressMode::Wrap,
        1 => AddressMode::Clamp,
        2 => AddressMode::Mirror,
        3 => AddressMode::Border,
        m => return Err(bad(format!("address mode {m}"))),
    })
}

/// The library's texture for a resource and texture descriptor.
pub(crate) fn texture(d: &Driver, r: &ResourceDesc, t: &TextureDesc) -> Result<Texture, CUresult> {
    let resource = resource(d, r)?;
    let bits = match &resource {
        Resource::Array { levels, .. } => levels[0].format.bits,
        Resource::Linear { format, .. } => format.bits,
        Resource::Pitch2D(i) => i.format.bits,
    };
    let sampler = Sampler {
        address: [
            address_mode(t.address_mode[0])?,
            address_mode(t.address_mode[1])?,
            address_mode(t.address_mode[2])?,
        ],
        linear: t.filter_mode == 1,
        mip_linear: t.mipmap_filter_mode == 1,
        // The driver reads 8- and 16-bit integers as normalized floats unless told
        // to read them as integers.
        normalized_read: t.flags & READ_AS_INTEGER == 0 && bits < 32,
        srgb: t.flags & SRGB != 0,
        normalized_coords: t.flags & NORMALIZED_COORDINATES != 0,
        border: t.border_color,
        lod_bias: t.mipmap_level_bias,
        min_lod: t.min_mipmap_level_clamp,
        max_lod: t.max_mipmap_level_clamp,
        seamless_cubemap: t.flags & SEAMLESS_CUBEMAP != 0,
    };
    Ok(Texture { resource, sampler })
}

/// Makes a texture object.
pub(crate) fn create_texture(d: &mut Driver, r: &ResourceDesc, t: &TextureDesc) -> Result<u64, CUresult> {
    let tex = texture(d, r, t)?;
    d.device.create_texture(tex).map_err(|e| match e {
        ObjectError::NotSupported(_) => crate::fail(error::NOT_SUPPORTED, e),
        ObjectError::Filter | ObjectError::NormalizedRead | ObjectError::Invalid(_) => bad(e.to_string()),
    })
}

crate::api! {
    fn cuTexObjectCreate(obj: *mut u64, res: *const ResourceDesc, tex: *const TextureDesc, view: *const u8) {
        if obj.is_null() || res.is_null() || tex.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if !view.is_null() {
            return Err(bad("resource views (CUDA_RESOURCE_VIEW_DESC) are not supported"));
        }
        // SAFETY: non-NULL descriptors the caller filled.
        let (r, t) = unsafe { (*res, *tex) };
        let h = state::with(|d| create_texture(d, &r, &t))?;
        crate::out(obj, h)
    }

    fn cuTexObjectDestroy(obj: u64) {
        state::with(|d| {
            if d.device.destroy_texture(obj) {
                Ok(())
            } else {
                Err(crate::fail(error::INVALID_VALUE, format!("{obj:#x} is not a texture object")))
            }
        })
    }

    fn cuSurfObjectCreate(obj: *mut u64, res: *const ResourceDesc) {
        if obj.is_null() || res.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL descriptor the caller filled.
        let r = unsafe { *res };
        let h = state::with(|d| {
            if r.res_type != 0 {
                return Err(bad("a surface is made over an array (CU_RESOURCE_TYPE_ARRAY)"));
            }
            let a = array::get(d, r.handle as Handle)?;
            if a.desc.flags & array::SURFACE_LDST == 0 {
                return Err(bad("a surface needs an array made with CUDA_ARRAY3D_SURFACE_LDST"));
            }
            let (image, shape) = image_of(&a)?;
            Ok(d.device.create_surface(image, shape))
        })?;
        crate::out(obj, h)
    }

    fn cuSurfObjectDestroy(obj: u64) {
        state::with(|d| {
            if d.device.destroy_surface(obj) {
                Ok(())
            } else {
                Err(crate::fail(error::INVALID_VALUE, format!("{obj:#x} is not a surface object")))
            }
        })
    }
}
