//! Texture and surface objects, and the fetches through them: `tex`, `tld4`, `txq`,
//! `suld`, `sust`, `sured` and `suq` (PTX ISA 9.7.10).
//!
//! The texel arithmetic is the CUDA C++ Programming Guide's ("Texture Fetching"),
//! made bit-exact where the Guide leaves room, by what a GPU computed for the cases
//! of tests/tex (tests/tex/gpu.bin, recorded on a GH100; tests/tex/reference.py is
//! the same arithmetic in numpy, written independently of this file):
//!
//! - normalized coordinates keep 21 fractional bits (truncated) before they are
//!   scaled by the size; `x - 0.5` of linear filtering is then rounded to 1/256
//!   (halves up) and split into the texel and an 8-bit weight;
//! - unnormalized coordinates take clamp and border only (wrap and mirror clamp);
//! - 2D weights are 8-bit themselves (`w11 = a*b/256` rounded, the others what
//!   makes rows and columns add up); 3D and trilinear weights split 256 by z or the
//!   level first, then each share by x and each column by y, each split rounding
//!   one side (`plane_weights`, `volume`; tests/tex/gpu_probes.bin); past a
//!   clamped edge the first tap takes the axis' whole weight;
//! - a 1D texture is fetched as a 2D one of one row at y = 0, so that linear
//!   filtering in border mode blends the border colour in at half weight;
//! - float texels are aligned to the largest tap's binade and cut to the
//!   significand and 3 more bits, then summed exactly and rounded once, ties away
//!   from zero (to a half for a half texture); 8- and 16-bit normalized texels are
//!   filtered as 16-bit integers and rounded to one, signed 8-bit ones summed as
//!   they are and scaled as the GPU does (`snorm8_sum`); sRGB goes through the GPU's
//!   own table, and filters aligned to 8 bits into a half (`srgb_sum`);
//! - the channels a format lacks read 0, the border colour too; integer textures
//!   read the low bits of the border colour's float encoding;
//! - a layer is an unsigned index held at the last layer; integer coordinates out
//!   of range read zeros; of equal cubemap axes, z wins over y and y over x;
//!   seamless cubemap filtering reads the face beyond an edge and shares a missing
//!   corner's weight among the other three taps (`seamless_taps`);
//! - `tex.grad`'s level of detail comes from an approximate vector length and an
//!   8-bit log2 table (`grad_lod`).

// Tap indices (p, q, r) and channels index several arrays at once here.
#![allow(clippy::needless_range_loop)]

use super::memory::GlobalMemory;
pub use crate::lower::program::{Boundary, Geometry, ImageQuery};
use rustc_hash::FxHashMap as HashMap;

/// How a channel's bits are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelKind {
    Signed,
    Unsigned,
    Float,
}

/// A texel format: one to four channels of 8, 16 or 32 bits (16-bit floats are halves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    pub kind: ChannelKind,
    pub bits: u8,
    pub channels: u8,
}

impl Format {
    /// Bytes per texel.
    pub fn texel_bytes(self) -> u64 {
        u64::from(self.bits / 8) * u64::from(self.channels)
    }

    /// The format of CUDA's `CUarray_format` `code` with `channels` channels;
    /// `None` for what arrays do not hold.
    pub fn from_cu(code: u32, channels: u32) -> Option<Format> {
        let (kind, bits) = match code {
            0x01 => (ChannelKind::Unsigned, 8),
            0x02 => (ChannelKind::Unsigned, 16),
            0x03 => (ChannelKind::Unsigned, 32),
            0x08 => (ChannelKind::Signed, 8),
            0x09 => (ChannelKind::Signed, 16),
            0x0a => (ChannelKind::Signed, 32),
            0x10 => (ChannelKind::Float, 16),
            0x20 => (ChannelKind::Float, 32),
            _ => return None,
        };
        let f = Format { kind, bits, channels: u8::try_from(channels).ok()? };
        f.is_valid().then_some(f)
    }

    /// Whether a format is one CUDA arrays hold: 8/16/32-bit integers, 16/32-bit
    /// floats, 1, 2 or 4 channels.
    pub fn is_valid(self) -> bool {
        matches!(self.channels, 1 | 2 | 4)
            && match self.kind {
                ChannelKind::Float => matches!(self.bits, 16 | 32),
                _ => matches!(self.bits, 8 | 16 | 32),
            }
    }
}

/// One image: `depth` slices (or layers, or faces) of `height` rows of `width` texels,
/// rows `pitch` bytes apart, slices `height * pitch` apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Image {
    pub base: u64,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub pitch: u64,
    pub format: Format,
}

impl Image {
    fn texel_address(&self, x: u32, y: u32, z: u32) -> u64 {
        self.base
            + (u64::from(z) * u64::from(self.height) + u64::from(y)) * self.pitch
            + u64::from(x) * self.format.texel_bytes()
    }
}

/// The shape of an array, as its dimensions and flags make it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    D1,
    D2,
    D3,
    Layered1D,
    Layered2D,
    Cube,
    LayeredCube,
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::D1 => "a 1D array",
            Shape::D2 => "a 2D array",
            Shape::D3 => "a 3D array",
            Shape::Layered1D => "a layered 1D array",
            Shape::Layered2D => "a layered 2D array",
            Shape::Cube => "a cubemap array",
            Shape::LayeredCube => "a layered cubemap array",
        }
    }
}

/// What a texture or surface reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Resource {
    /// An array, or the levels of a mipmapped array (level 0 first). A layered
    /// array's images hold its layers as slices (6 faces a layer for cubemaps).
    Array { shape: Shape, levels: Vec<Image> },
    /// Linear memory: `bytes` bytes of texels from `base`.
    Linear { base: u64, bytes: u64, format: Format },
    /// Pitched 2D memory.
    Pitch2D(Image),
}

impl Resource {
    fn format(&self) -> Format {
        match self {
            Resource::Array { levels, .. } => levels[0].format,
            Resource::Linear { format, .. } => *format,
            Resource::Pitch2D(i) => i.format,
        }
    }
}

/// An address mode (CUDA's `cudaTextureAddressMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressMode {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

/// How a texture reads: CUDA's texture descriptor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampler {
    pub address: [AddressMode; 3],
    /// Linear filtering (else nearest-point).
    pub linear: bool,
    /// Linear filtering between mipmap levels.
    pub mip_linear: bool,
    /// Integer texels read as normalized floats.
    pub normalized_read: bool,
    pub srgb: bool,
    pub normalized_coords: bool,
    pub border: [f32; 4],
    pub lod_bias: f32,
    pub min_lod: f32,
    pub max_lod: f32,
    pub seamless_cubemap: bool,
}

/// A texture object.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    pub resource: Resource,
    pub sampler: Sampler,
}

/// Why a texture or surface cannot be made, in CUDA's terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObjectError {
    /// Linear filtering of textures read as integers (`cudaErrorInvalidFilterSetting`).
    #[error(
        "linear filtering needs a texture read as floats (floats, or 8- and 16-bit integers read normalized)"
    )]
    Filter,
    /// A normalized read of 32-bit integers (`cudaErrorInvalidNormSetting`).
    #[error("only 8- and 16-bit integers read as normalized floats")]
    NormalizedRead,
    /// Anything else (`cudaErrorInvalidValue`).
    #[error("{0}")]
    Invalid(String),
    /// What ptxvm cannot do yet (`cudaErrorNotSupported`).
    #[error("{0}")]
    NotSupported(String),
}

/// The texture and surface objects of a device: handles to what each reads.
/// Handles count up from 1, textures and surfaces from one counter: a handle of one
/// kind is never one of the other.
#[derive(Debug, Default)]
pub struct Objects {
    textures: HashMap<u64, Texture>,
    surfaces: HashMap<u64, (Image, Shape)>,
    last: u64,
}

/// Whether a texture of `format` may be read as `sampler` says: CUDA refuses
/// linear filtering of texels read as integers, and a normalized read of 32-bit
/// integers. The runtime and the launch spec ask this too, each in its own terms.
///
/// # Errors
/// [`ObjectError::Filter`] or [`ObjectError::NormalizedRead`].
pub fn check_read(format: Format, linear: bool, normalized_read: bool) -> Result<(), ObjectError> {
    let integer = format.kind != ChannelKind::Float;
    if normalized_read && integer && format.bits == 32 {
        return Err(ObjectError::NormalizedRead);
    }
    // Linear filtering needs floats; integers still blend between levels (GPU).
    if linear && integer && !normalized_read {
        return Err(ObjectError::Filter);
    }
    Ok(())
}

/// Refuses seamless cubemap filtering between the levels of a mipmapped cubemap (a
/// linear mipmap filter): seamless filtering within a level is measured
/// (tests/tex/probes.py), its blend between levels is not.
///
/// # Errors
/// [`ObjectError::NotSupported`] for that combination.
pub fn check_seamless(shape: Shape, levels: usize, s: &Sampler) -> Result<(), ObjectError> {
    if matches!(shape, Shape::Cube | Shape::LayeredCube)
        && s.seamless_cubemap
        && s.linear
        && s.mip_linear
        && levels > 1
    {
        return Err(ObjectError::NotSupported(
            "seamless cubemap filtering between mipmap levels (a linear mipmap filter) is not supported; within \
             one level, or with a point mipmap filter, it is"
                .into(),
        ));
    }
    Ok(())
}

impl Objects {
    /// Makes a texture object; its handle.
    ///
    /// # Errors
    /// [`ObjectError`] for settings CUDA refuses.
    pub fn create_texture(&mut self, texture: Texture) -> Result<u64, ObjectError> {
        let f = texture.resource.format();
        if !f.is_valid() {
            return Err(ObjectError::Invalid(format!("{f:?} is not a texel format")));
        }
        let s = &texture.sampler;
        if let Resource::Array { shape, levels } = &texture.resource {
            check_seamless(*shape, levels.len(), s)?;
        }
        check_read(f, s.linear, s.normalized_read)?;
        let h = self.handle();
        self.textures.insert(h, texture);
        Ok(h)
    }

    fn handle(&mut self) -> u64 {
        self.last += 1;
        self.last
    }

    /// Makes a surface object over one image of an array of `shape`; its handle.
    pub fn create_surface(&mut self, image: Image, shape: Shape) -> u64 {
        let h = self.handle();
        self.surfaces.insert(h, (image, shape));
        h
    }

    /// Destroys a texture object; false when `handle` is none.
    pub fn destroy_texture(&mut self, handle: u64) -> bool {
        self.textures.remove(&handle).is_some()
    }

    /// Destroys a surface object; false when `handle` is none.
    pub fn destroy_surface(&mut self, handle: u64) -> bool {
        self.surfaces.remove(&handle).is_some()
    }

    /// The texture object `handle`, or a fault's cause: a handle that is no live
    /// texture object faults as an access out of bounds does.
    ///
    /// # Errors
    /// The cause.
    pub fn texture(&self, handle: u64) -> Result<&Texture, String> {
        self.textures.get(&handle).ok_or_else(|| {
            format!("out of bounds: texture handle {handle:#x} is not a live texture object (cudaCreateTextureObject)")
        })
    }

    /// The surface object `handle`, or a fault's cause, as for textures.
    fn surface(&self, handle: u64) -> Result<(&Image, Shape), String> {
        let (image, shape) = self.surfaces.get(&handle).ok_or_else(|| {
            format!("out of bounds: surface handle {handle:#x} is not a live surface object (cudaCreateSurfaceObject)")
        })?;
        Ok((image, *shape))
    }
}

impl Geometry {
    fn fits(self, shape: Shape) -> bool {
        matches!(
            (self, shape),
            (Geometry::D1, Shape::D1)
                | (Geometry::D2, Shape::D2)
                | (Geometry::D3, Shape::D3)
                | (Geometry::A1D, Shape::Layered1D)
                | (Geometry::A2D, Shape::Layered2D)
                | (Geometry::Cube, Shape::Cube)
                | (Geometry::ACube, Shape::LayeredCube)
        )
    }
}

/// The level of detail of a fetch.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lod {
    /// Level 0 (`tex` without `.level` or `.grad`).
    Base,
    /// `tex.level`.
    Level(f32),
    /// `tex.grad`: the gradients in x and y.
    Grad([f32; 3], [f32; 3]),
}

/// One lane's `tex` or `tld4`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fetch {
    pub geometry: Geometry,
    /// The layer (layered geometries).
    pub layer: u32,
    /// The coordinates: f32 bits, or s32 (`int_coords`).
    pub coords: [u32; 3],
    pub int_coords: bool,
    pub lod: Lod,
    /// `tld4`: the component gathered.
    pub gather: Option<u8>,
}

/// A value in the middle of a fetch: a float, or an integer read as one.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Value {
    F(f32),
    I(i64),
}

impl Value {
    fn bits(self) -> u32 {
        match self {
            Value::F(f) => f.to_bits(),
            Value::I(i) => i as u32,
        }
    }
}

/// The four words of a texel (or a filtered one), in CUDA's channel order.
type Texel4 = [Value; 4];

/// Reads texels from global memory (a fault names the address).
fn read_raw(mem: &GlobalMemory, image: &Image, x: u32, y: u32, z: u32) -> Result<[i64; 4], String> {
    let f = image.format;
    let a = image.texel_address(x, y, z);
    let size = u64::from(f.bits / 8);
    let mut out = [0i64; 4];
    for (c, o) in out.iter_mut().enumerate().take(usize::from(f.channels)) {
        let raw = mem
            .load(a + c as u64 * size, size)
            .map_err(|e| format!("{} (texel ({x}, {y}, {z}))", mem.explain(e)))?;
        *o = match (f.kind, f.bits) {
            (ChannelKind::Signed, 8) => i64::from(raw as u8 as i8),
            (ChannelKind::Signed, 16) => i64::from(raw as u16 as i16),
            (ChannelKind::Signed, _) => i64::from(raw as u32 as i32),
            _ => raw as i64,
        };
    }
    Ok(out)
}

/// The GPU's sRGB table: an 8-bit sRGB value's linear value in 65536ths (measured:
/// tests/tex/gpu.bin, the sRGB probe; within 1/2^8 relative of the sRGB curve).
const SRGB: [u32; 256] = [
    0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200, 220, 240, 264, 288, 312, 340, 368, 396, 428, 460, 492,
    524, 560, 600, 636, 676, 720, 760, 804, 852, 896, 944, 1000, 1048, 1104, 1160, 1216, 1272, 1328, 1392,
    1456, 1520, 1584, 1648, 1720, 1792, 1864, 1936, 2016, 2096, 2176, 2256, 2336, 2416, 2496, 2592, 2688,
    2768, 2864, 2960, 3056, 3152, 3264, 3360, 3456, 3584, 3680, 3776, 3904, 4000, 4128, 4256, 4352, 4480,
    4608, 4736, 4864, 4992, 5120, 5248, 5408, 5536, 5664, 5824, 5952, 6112, 6240, 6400, 6560, 6688, 6848,
    7008, 7168, 7328, 7488, 7680, 7808, 8000, 8192, 8320, 8512, 8704, 8896, 9088, 9280, 9472, 9664, 9856,
    10048, 10240, 10432, 10624, 10816, 11008, 11264, 11456, 11648, 11904, 12096, 12288, 12544, 12736, 12992,
    13184, 13440, 13696, 13888, 14144, 14400, 14656, 14848, 15104, 15360, 15616, 15872, 16128, 16384, 16640,
    16896, 17152, 17408, 17664, 18048, 18304, 18560, 18816, 19072, 19456, 19712, 19968, 20224, 20608, 20864,
    21120, 21504, 21760, 22144, 22400, 22784, 23040, 23296, 23680, 24064, 24320, 24704, 24960, 25344, 25600,
    25984, 26368, 26752, 27008, 27392, 27776, 28032, 28416, 28800, 29184, 29568, 29952, 30336, 30720, 30976,
    31488, 31744, 32256, 32512, 33024, 33280, 33792, 34048, 34560, 35072, 35328, 35840, 36096, 36608, 37120,
    37376, 37888, 38400, 38656, 39168, 39680, 39936, 40448, 40960, 41216, 41728, 42240, 42752, 43264, 43520,
    44032, 44544, 45056, 45568, 45824, 46336, 46848, 47360, 47872, 48384, 48896, 49408, 49920, 50432, 50944,
    51456, 51968, 52480, 52992, 53504, 54016, 54528, 55040, 55552, 56064, 56576, 57088, 57600, 58112, 58624,
    59392, 59904, 60416, 60928, 61440, 61952, 62464, 62976, 64000, 64512, 65024, 65536,
];

/// Normalized coordinates keep this many fractional bits before scaling (GPU).
const NORMALIZED_BITS: i32 = 21;

/// How a texture's texels become values.
struct Reader<'t> {
    format: Format,
    sampler: &'t Sampler,
}

impl Reader<'_> {
    fn normalized(&self) -> bool {
        self.sampler.normalized_read && self.format.kind != ChannelKind::Float
    }

    /// A texel as nearest-point filtering returns it.
    fn point(&self, raw: [i64; 4]) -> Texel4 {
        let f = self.format;
        let mut out = [Value::I(0); 4];
        for c in 0..usize::from(f.channels) {
            let v = raw[c];
            out[c] = match f.kind {
                ChannelKind::Float => Value::F(float_of(v, f.bits)),
                _ if !self.normalized() => Value::I(v),
                ChannelKind::Unsigned if self.srgb() && c < 3 => Value::F(SRGB[v as usize] as f32 / 65536.0),
                ChannelKind::Unsigned => Value::F((v as f64 / ((1u64 << f.bits) - 1) as f64) as f32),
                ChannelKind::Signed => {
                    Value::F((v as f64 / ((1i64 << (f.bits - 1)) - 1) as f64).max(-1.0) as f32)
                }
            };
        }
        for o in out.iter_mut().skip(usize::from(f.channels)) {
            *o = if self.reads_floats() { Value::F(0.0) } else { Value::I(0) };
        }
        out
    }

    fn reads_floats(&self) -> bool {
        self.format.kind == ChannelKind::Float || self.normalized()
    }

    /// The border colour as nearest-point filtering returns it.
    fn border(&self) -> Texel4 {
        let f = self.format;
        let mut out = [Value::I(0); 4];
        for (c, o) in out.iter_mut().enumerate() {
            let b = if c < usize::from(f.channels) { self.sampler.border[c] } else { 0.0 };
            *o = if self.reads_floats() {
                Value::F(b)
            } else {
                // GPU: the low bits of the float's encoding.
                let low = u64::from(b.to_bits()) & ((1u64 << f.bits) - 1);
                let v = if f.kind == ChannelKind::Signed && low >> (f.bits - 1) != 0 {
                    low as i64 - (1i64 << f.bits)
                } else {
                    low as i64
                };
                Value::I(v)
            };
        }
        out
    }

    /// A texel in the 16-bit filtering domain.
    fn wide(&self, raw: [i64; 4]) -> [i64; 4] {
        let f = self.format;
        let mut out = [0i64; 4];
        for c in 0..usize::from(f.channels) {
            let v = raw[c];
            out[c] = match (f.kind, f.bits) {
                _ if self.srgb() && c < 3 => i64::from(SRGB[v as usize]),
                (ChannelKind::Unsigned, 8) => v * 257,
                // Signed 8-bit texels are summed as they are (see `snorm8_sum`).
                _ => v,
            };
        }
        out
    }

    fn wide_border(&self) -> [i64; 4] {
        let den = if self.format.kind == ChannelKind::Unsigned { 65535.0 } else { 32767.0 };
        let mut out = [0i64; 4];
        for c in 0..usize::from(self.format.channels) {
            // Held to +-2^16 (NaN as 0) so that the sums stay in range: a border
            // colour is meant to lie in [-1, 1].
            let b = f64::from(self.sampler.border[c]).clamp(-65536.0, 65536.0);
            let b = if b.is_nan() { 0.0 } else { b };
            // GPU: a signed 8-bit texture's border colour is floor(b * 127).
            out[c] = if self.snorm8() { (b * 127.0).floor() as i64 } else { (b * den + 0.5).floor() as i64 };
        }
        out
    }

    /// sRGB colour channels (of an 8-bit unsigned texture read as normalized floats).
    fn srgb(&self) -> bool {
        self.sampler.srgb && self.format.kind == ChannelKind::Unsigned && self.format.bits == 8
    }

    fn snorm8(&self) -> bool {
        self.format.kind == ChannelKind::Signed && self.format.bits == 8
    }

    /// A 16-bit-domain sum back to a float.
    fn narrow(&self, q: i64) -> f32 {
        // (sRGB colour channels are `srgb_sum`'s.)
        if self.format.kind == ChannelKind::Unsigned {
            (q as f64 / 65535.0) as f32
        } else {
            (q.max(-32767) as f64 / 32767.0) as f32
        }
    }
}

/// GPU: the sRGB codes whose linear value counts one binade higher when the taps
/// are aligned (`srgb_sum`): read off probes 33-35 of tests/tex/probes.py (a fixed
/// texel filtered with every code at five weights) and probes 4 and 5; the codes
/// whose bit those probes cannot show are taken as 0.
const SRGB_BUMP: [usize; 17] =
    [48, 49, 64, 68, 70, 136, 184, 185, 186, 187, 248, 249, 250, 251, 252, 253, 254];

/// GPU: linear filtering of sRGB colour channels, from each tap's weight (out of
/// `scale`) and linear value (65536ths, `SRGB`): the values are aligned to the
/// largest one's binade 2^E (one higher for `SRGB_BUMP`'s codes) and cut to 7 bits
/// below it, then summed exactly and rounded once to a half, ties away from zero
/// (tests/tex/gpu_probes.bin).
fn srgb_sum(taps: impl Iterator<Item = (u32, i64)> + Clone, scale: u32) -> f32 {
    let binade = |v: i64| {
        let bump = SRGB_BUMP.iter().any(|&code| i64::from(SRGB[code]) == v);
        63 - v.leading_zeros() as i32 + i32::from(bump)
    };
    let Some(top) = taps.clone().filter(|&(_, v)| v > 0).map(|(_, v)| binade(v)).max() else {
        return 0.0;
    };
    let quantum = 1i64 << (top - 7).max(0);
    // Cut toward zero (a border colour can be negative).
    let total: i64 = taps.map(|(w, v)| i64::from(w) * (v / quantum * quantum)).sum();
    let mut mag = [0u64; 5];
    mag[0] = total.unsigned_abs();
    round_wide(&mag, -(16 + scale.trailing_zeros() as i32), total < 0, true)
}

/// GPU: a weighted sum `s` of signed 8-bit texels (weights out of 256) as a 16-bit
/// value of 32767ths: `s * 32767 / (256 * 127)` computed as `s + (s >> 4) / 8 +
/// s / 2^15` and rounded halves up (tests/tex/gpu_probes.bin: every weight between
/// 15 pairs of texels in four channels, and 4,096 2D fetches; the 2^-7 term drops
/// the sum's low 4 bits).
fn snorm8_sum(s: i64) -> i64 {
    (s * 32768 + (s >> 4) * 4096 + s + 16384) >> 15
}

fn float_of(raw: i64, bits: u8) -> f32 {
    if bits == 16 { half::f16::from_bits(raw as u16).to_f32() } else { f32::from_bits(raw as u32) }
}

/// Texel index `k` of an axis of `n` texels under `mode`; `None` for the border.
fn address(k: i64, n: u32, mode: AddressMode) -> Option<u32> {
    let n = i64::from(n);
    let i = match mode {
        AddressMode::Wrap => k.rem_euclid(n),
        AddressMode::Mirror => {
            let m = k.rem_euclid(2 * n);
            if m >= n { 2 * n - 1 - m } else { m }
        }
        AddressMode::Border if k < 0 || k >= n => return None,
        _ => k.clamp(0, n - 1),
    };
    Some(i as u32)
}

/// A coordinate in texels, exactly (normalized ones keep 21 fractional bits first).
fn scaled(x: f32, n: u32, normalized: bool) -> f64 {
    let x = f64::from(x);
    if normalized {
        let s = f64::from(1u32 << NORMALIZED_BITS);
        (x * s).floor() / s * f64::from(n)
    } else {
        x
    }
}

fn floor_index(x: f64) -> i64 {
    x.clamp(-(2f64.powi(62)), 2f64.powi(62)).floor() as i64
}

/// One axis: the texels a fetch reads and the weight of the second (0..255).
#[derive(Debug, Clone, Copy)]
struct Axis {
    taps: [Option<u32>; 2],
    a: u32,
}

fn axis(x: f32, n: u32, normalized: bool, mode: AddressMode, linear: bool) -> Axis {
    let mode = if !normalized && matches!(mode, AddressMode::Wrap | AddressMode::Mirror) {
        AddressMode::Clamp
    } else {
        mode
    };
    let u = scaled(x, n, normalized);
    if !linear {
        let t = address(floor_index(u), n, mode);
        return Axis { taps: [t, t], a: 0 };
    }
    let (i, a) = weight_split(u);
    let taps = [address(i, n, mode), address(i + 1, n, mode)];
    // GPU: past a clamped edge, where both taps are the edge texel, the first takes
    // all the weight (it shows in 3D, where the other axes' splits round by it).
    let a = if mode == AddressMode::Clamp && taps[0] == taps[1] { 0 } else { a };
    Axis { taps, a }
}

/// A linear fetch's first texel and the second's weight (0..255) at `u` texels:
/// `u - 0.5` rounded to 1/256, halves up (GPU).
fn weight_split(u: f64) -> (i64, u32) {
    let lim = 2f64.powi(52);
    let q = ((u - 0.5).clamp(-lim, lim) * 256.0 + 0.5).floor() as i64;
    (q >> 8, (q & 255) as u32)
}

/// GPU: the weights of a plane's four taps out of `s` (256, or a slice's or a
/// level's share), indexed `[p][q]` for x's tap p and y's q: `s` is split by x,
/// its x1 part rounded to nearest (halves up), then each column by y, the x0
/// column rounding its y0 part and the x1 column its y1 part. With `s` = 256,
/// `w11 = a*b/256` rounded and the others what makes rows and columns add up.
fn plane_weights(s: u32, a: u32, b: u32) -> [[u32; 2]; 2] {
    let x1 = (s * a + 128) >> 8;
    let x0 = s - x1;
    let y00 = (x0 * (256 - b) + 128) >> 8;
    let y11 = (x1 * b + 128) >> 8;
    [[y00, x0 - y00], [x1 - y11, y11]]
}

/// GPU: the weights of a volume's eight taps out of `s`, indexed `[r][p][q]` for
/// z's tap r: `s` is split by z, its z0 part rounded to nearest (halves up), then
/// each part as `plane_weights` does. (The rounded side shows only where `s` is a level's
/// share, in 3D trilinear filtering.)
fn volume(s: u32, a: u32, b: u32, c: u32) -> [[[u32; 2]; 2]; 2] {
    let z0 = (s * (256 - c) + 128) >> 8;
    [plane_weights(z0, a, b), plane_weights(s - z0, a, b)]
}

/// The most taps a fetch reads: 16 (3D between two levels).
const MAX_TAPS: usize = 16;

/// One tap: a texel (or the border) and its weight out of `scale`.
#[derive(Clone, Copy)]
struct Tap {
    texel: Option<(u32, u32, u32)>,
    weight: u32,
}

/// An image with the slice a layer or face starts at.
#[derive(Clone, Copy)]
struct Plane<'a> {
    image: &'a Image,
    slice: u32,
}

/// The texel of taps (p, q, r) of the axes' first `dims`; `None` for the border.
fn tap_texel(ax: &[Axis; 3], dims: usize, p: usize, q: usize, r: usize) -> Option<(u32, u32, u32)> {
    let x = ax[0].taps[p]?;
    let y = if dims > 1 { ax[1].taps[q]? } else { 0 };
    let z = if dims > 2 { ax[2].taps[r]? } else { 0 };
    Some((x, y, z))
}

/// Appends the taps of a linear fetch from `plane` with weights out of `share`
/// (`volume`'s, a missing axis' fraction 0 and its one tap) to `taps[*n..]`.
fn linear_taps<'a>(
    plane: Plane<'a>,
    ax: &[Axis; 3],
    dims: usize,
    share: u32,
    taps: &mut [(Plane<'a>, Tap)],
    n: &mut usize,
) {
    let frac = |k: usize| if dims > k { ax[k].a } else { 0 };
    let span = |k: usize| if dims > k { 2 } else { 1 };
    let w = volume(share, frac(0), frac(1), frac(2));
    for r in 0..span(2) {
        for p in 0..2 {
            for q in 0..span(1) {
                taps[*n] = (plane, Tap { texel: tap_texel(ax, dims, p, q, r), weight: w[r][p][q] });
                *n += 1;
            }
        }
    }
}

impl<'t> Reader<'t> {
    /// Nearest-point filtering of one tap.
    fn point_tap(
        &self,
        mem: &GlobalMemory,
        plane: &Plane,
        t: Option<(u32, u32, u32)>,
    ) -> Result<Texel4, String> {
        match t {
            None => Ok(self.border()),
            Some((x, y, z)) => Ok(self.point(read_raw(mem, plane.image, x, y, plane.slice + z)?)),
        }
    }

    /// The weighted sum of taps, each on its plane (a level's layer or face), with
    /// weights out of `scale` (a power of two); taps of weight 0 take no part.
    fn filter(&self, mem: &GlobalMemory, taps: &[(Plane, Tap)], scale: u32) -> Result<Texel4, String> {
        let live = taps.iter().filter(|(_, t)| t.weight != 0);
        if self.normalized() {
            let mut wide = [(0u32, [0i64; 4]); MAX_TAPS];
            let mut n = 0;
            for (plane, t) in live {
                let v = match t.texel {
                    None => self.wide_border(),
                    Some((x, y, z)) => self.wide(read_raw(mem, plane.image, x, y, plane.slice + z)?),
                };
                wide[n] = (t.weight, v);
                n += 1;
            }
            let wide = &wide[..n];
            let s = i64::from(scale);
            let mut out = [Value::F(0.0); 4];
            for c in 0..usize::from(self.format.channels) {
                if self.srgb() && c < 3 {
                    out[c] = Value::F(srgb_sum(wide.iter().map(|(w, v)| (*w, v[c])), scale));
                    continue;
                }
                let total: i64 = wide.iter().map(|(w, v)| i64::from(*w) * v[c]).sum();
                let q = if self.snorm8() {
                    debug_assert_eq!(scale, 256);
                    snorm8_sum(total)
                } else {
                    (total + s / 2).div_euclid(s)
                };
                out[c] = Value::F(self.narrow(q));
            }
            return Ok(out);
        }
        let mut values = [(0u32, [Value::F(0.0); 4]); MAX_TAPS];
        let mut n = 0;
        for (plane, t) in live {
            values[n] = (t.weight, self.point_tap(mem, plane, t.texel)?);
            n += 1;
        }
        Ok(self.sum(&values[..n], scale))
    }

    /// Σ weight·value / scale of point-read values: floats exact then rounded once,
    /// integers (linear mipmap filtering of integer textures) rounded halves up.
    fn sum(&self, values: &[(u32, Texel4)], scale: u32) -> Texel4 {
        let mut out = [Value::F(0.0); 4];
        let half = self.format.kind == ChannelKind::Float && self.format.bits == 16;
        for (c, o) in out.iter_mut().enumerate() {
            if !self.reads_floats() {
                let s = i64::from(scale);
                let total: i64 = values
                    .iter()
                    .map(|(w, v)| {
                        i64::from(*w)
                            * match v[c] {
                                Value::I(i) => i,
                                Value::F(f) => f as i64,
                            }
                    })
                    .sum();
                *o = Value::I((total + s / 2).div_euclid(s));
                continue;
            }
            let mut terms = [(0u32, 0f32); MAX_TAPS];
            for (t, (w, v)) in terms.iter_mut().zip(values) {
                *t = (
                    *w,
                    match v[c] {
                        Value::F(f) => f,
                        Value::I(i) => i as f32,
                    },
                );
            }
            *o = Value::F(exact_sum(&terms[..values.len()], scale.trailing_zeros(), half));
        }
        out
    }
}

/// Σ w·v / 2^shift over weighted f32 values, their taps aligned as a GPU aligns
/// them, then exact, rounded once to f32 (or to a half, returned as f32) with ties
/// away from zero; a sum of -0s is -0.
fn exact_sum(terms: &[(u32, f32)], shift: u32, half: bool) -> f32 {
    if terms.is_empty() {
        return 0.0;
    }
    if terms.iter().any(|(_, v)| v.is_nan()) {
        return f32::NAN;
    }
    let pos = terms.iter().any(|(_, v)| *v == f32::INFINITY);
    let neg = terms.iter().any(|(_, v)| *v == f32::NEG_INFINITY);
    match (pos, neg) {
        (true, true) => return f32::NAN,
        (true, false) => return f32::INFINITY,
        (false, true) => return f32::NEG_INFINITY,
        _ => {}
    }
    if terms.iter().all(|(_, v)| *v == 0.0) {
        return if terms.iter().all(|(_, v)| v.is_sign_negative()) { -0.0 } else { 0.0 };
    }
    // Each value is m·2^(e - 149) with m < 2^24 and e >= 0.
    let parts = |v: f32| {
        let bits = v.to_bits();
        let exp = ((bits >> 23) & 0xff) as i32;
        let frac = bits & 0x7f_ffff;
        if exp == 0 { (frac, 0) } else { (frac | 0x80_0000, exp - 1) }
    };
    // GPU: the taps are aligned to the binade 2^E of the largest one of nonzero
    // weight and cut toward zero to 2^(E - 27), or 2^(E - 14) in a half texture: the
    // significand and 3 more bits (tests/tex/gpu_probes.bin, probe 36).
    let top = terms
        .iter()
        .filter(|(w, v)| *w != 0 && *v != 0.0)
        .map(|(_, v)| {
            let (m, e) = parts(*v);
            e + 31 - m.leading_zeros() as i32
        })
        .max()
        .unwrap_or(0);
    let keep = top - if half { 14 } else { 27 };
    // Sum w·m·2^e in a wide integer; the value is that · 2^(-149 - shift).
    let mut acc = Wide::default();
    for (w, v) in terms {
        let (mut m, e) = parts(*v);
        if e < keep {
            let cut = (keep - e) as u32;
            m = if cut >= 32 { 0 } else { (m >> cut) << cut };
        }
        let mag = u128::from(m) * u128::from(*w);
        acc.add(mag, e as u32, v.is_sign_negative());
    }
    let (negative, mag) = acc.magnitude();
    round_wide(&mag, -149 - shift as i32, negative, half)
}

/// A signed 320-bit integer, little-endian words (two's complement).
#[derive(Default, Clone)]
struct Wide([u64; 5]);

impl Wide {
    /// Adds (or subtracts) `mag · 2^shift`.
    fn add(&mut self, mag: u128, shift: u32, negative: bool) {
        let mut t = [0u64; 5];
        let (word, bit) = ((shift / 64) as usize, shift % 64);
        let lo = mag << bit;
        let carry = if bit == 0 { 0 } else { mag >> (128 - bit) };
        let parts = [lo as u64, (lo >> 64) as u64, carry as u64];
        for (k, p) in parts.iter().enumerate() {
            if word + k < 5 {
                t[word + k] = *p;
            }
        }
        if negative {
            // two's complement of t
            let mut c = 1u128;
            for x in t.iter_mut() {
                let v = u128::from(!*x) + c;
                *x = v as u64;
                c = v >> 64;
            }
        }
        let mut c = 0u128;
        for (a, b) in self.0.iter_mut().zip(t) {
            let v = u128::from(*a) + u128::from(b) + c;
            *a = v as u64;
            c = v >> 64;
        }
    }

    /// (is negative, magnitude).
    fn magnitude(&self) -> (bool, [u64; 5]) {
        if self.0[4] >> 63 == 0 {
            return (false, self.0);
        }
        let mut t = self.0;
        let mut c = 1u128;
        for x in t.iter_mut() {
            let v = u128::from(!*x) + c;
            *x = v as u64;
            c = v >> 64;
        }
        (true, t)
    }
}

/// mag · 2^exp to f32 (or a half, returned as f32), nearest, ties away from zero,
/// through the one rounding of `sem::round`: the top 126 bits of `mag`, the rest
/// folded into the sticky remainder.
fn round_wide(mag: &[u64; 5], exp: i32, negative: bool, half: bool) -> f32 {
    use crate::sem::round::{Exact, F16, F32, Rnd, round};
    let Some(hi) = mag.iter().rposition(|&w| w != 0) else {
        return if negative { -0.0 } else { 0.0 };
    };
    let top = 64 * hi as i32 + 63 - mag[hi].leading_zeros() as i32;
    let low = (top - 125).max(0);
    // mag >> low, at most 126 bits, and whether anything below `low` was set.
    let (word, bit) = ((low / 64) as usize, (low % 64) as u32);
    let mut m: u128 = 0;
    for k in (word..mag.len().min(word + 3)).rev() {
        m = (m << 64) | u128::from(mag[k]);
    }
    let m =
        if bit == 0 { m } else { (m >> bit) | (u128::from(*mag.get(word + 2).unwrap_or(&0)) << (128 - bit)) };
    let below = mag[..word].iter().any(|&w| w != 0) || (bit > 0 && mag[word] & ((1u64 << bit) - 1) != 0);
    let x = Exact {
        neg: negative,
        m: m & ((1u128 << 126) - 1),
        e: exp + low,
        rest: if below { std::cmp::Ordering::Greater } else { std::cmp::Ordering::Equal },
    };
    if half {
        half::f16::from_bits(round(F16, x, Rnd::Ra) as u16).to_f32()
    } else {
        f32::from_bits(round(F32, x, Rnd::Ra) as u32)
    }
}

/// The result of `tex` or `tld4` on one lane: four 32-bit words.
///
/// # Errors
/// A fault's cause: a geometry the texture does not have, a texel outside memory.
pub fn fetch(tex: &Texture, f: &Fetch, mem: &GlobalMemory) -> Result<[u32; 4], String> {
    let s = &tex.sampler;
    let reader = Reader { format: tex.resource.format(), sampler: s };
    let words = |v: Texel4| [v[0].bits(), v[1].bits(), v[2].bits(), v[3].bits()];
    let (levels, shape): (&[Image], Shape) = match &tex.resource {
        Resource::Linear { base, bytes, format } => {
            if f.geometry != Geometry::D1 || !f.int_coords {
                return Err(format!(
                    "tex{}{} through a texture over linear memory: it takes .1d with integer coordinates (tex1Dfetch)",
                    f.geometry.name(),
                    if f.int_coords { ".s32" } else { ".f32" }
                ));
            }
            let n = (bytes / format.texel_bytes()) as i64;
            let x = f.coords[0] as i32 as i64;
            if x < 0 || x >= n {
                return Ok([0; 4]);
            }
            let image =
                Image { base: *base, width: n as u32, height: 1, depth: 1, pitch: 0, format: *format };
            return Ok(words(reader.point(read_raw(mem, &image, x as u32, 0, 0)?)));
        }
        Resource::Pitch2D(i) => (std::slice::from_ref(i), Shape::D2),
        Resource::Array { shape, levels } => (levels, *shape),
    };
    if !f.geometry.fits(shape) {
        return Err(format!(
            "tex{} through a texture over {} (undefined behaviour)",
            f.geometry.name(),
            shape.name()
        ));
    }
    let layers = match shape {
        Shape::LayeredCube => levels[0].depth / 6,
        Shape::Layered1D | Shape::Layered2D => levels[0].depth,
        _ => 1,
    };
    let layer = if f.geometry.layered() { f.layer.min(layers - 1) } else { 0 };
    if f.int_coords {
        let img = &levels[0];
        let c = |k: usize| f.coords[k] as i32 as i64;
        let (x, y, z) = (
            c(0),
            if f.geometry.dims() > 1 { c(1) } else { 0 },
            if f.geometry == Geometry::D3 { c(2) } else { 0 },
        );
        let slices = if f.geometry == Geometry::D3 { img.depth } else { 1 };
        let inside = x >= 0
            && x < i64::from(img.width)
            && y >= 0
            && y < i64::from(img.height)
            && z >= 0
            && z < i64::from(slices);
        if !inside {
            return Ok([0; 4]);
        }
        let z = if f.geometry.layered() { layer } else { z as u32 };
        return Ok(words(reader.point(read_raw(mem, img, x as u32, y as u32, z)?)));
    }
    let coord = |k: usize| f32::from_bits(f.coords[k]);
    // Cubemaps: a face and coordinates on it.
    let (xy, face) = if matches!(f.geometry, Geometry::Cube | Geometry::ACube) {
        let (face, u, v) = cube_face(coord(0), coord(1), coord(2));
        ([u, v, 0.0], face)
    } else {
        ([coord(0), coord(1), coord(2)], 0)
    };
    // The slice a layer or face starts at, the same in every level.
    let slice = match shape {
        Shape::Cube | Shape::LayeredCube => layer * 6 + face,
        Shape::Layered1D | Shape::Layered2D => layer,
        _ => 0,
    };
    let cube = matches!(f.geometry, Geometry::Cube | Geometry::ACube);
    let normalized = s.normalized_coords || cube;
    let modes = if cube { [AddressMode::Clamp; 3] } else { s.address };
    // 1D arrays fetch as 2D ones of one row at y = 0 (GPU); layered 1D ones do not.
    let dims = match f.geometry {
        Geometry::D1 => 2,
        Geometry::A1D => 1,
        g if g.dims() == 3 && !cube => 3,
        _ => 2,
    };
    // The axes of a level: a 1D texture's y is 0.
    let axes = |level: &Image, n: usize, linear: bool| -> [Axis; 3] {
        let sizes = [level.width, level.height, level.depth];
        std::array::from_fn(|k| {
            let x = if f.geometry == Geometry::D1 && k == 1 { 0.0 } else { xy[k] };
            if k < n {
                axis(x, sizes[k], normalized, modes[k], linear)
            } else {
                Axis { taps: [None; 2], a: 0 }
            }
        })
    };
    let sample = |level: &Image, gather: Option<u8>| -> Result<Texel4, String> {
        let plane = Plane { image: level, slice };
        let linear = s.linear || gather.is_some();
        let ax = axes(level, dims, linear);
        let tap = |p: usize, q: usize, r: usize| tap_texel(&ax, dims, p, q, r);
        if let Some(comp) = gather {
            let c = usize::from(comp);
            let mut out = [Value::I(0); 4];
            for (k, (p, q)) in [(0, 1), (1, 1), (1, 0), (0, 0)].into_iter().enumerate() {
                out[k] = reader.point_tap(mem, &plane, tap(p, q, 0))?[c];
            }
            return Ok(out);
        }
        if !linear {
            return reader.point_tap(mem, &plane, tap(0, 0, 0));
        }
        if cube && s.seamless_cubemap {
            let taps = seamless_taps(xy[0], xy[1], face, level.width).map(|(face, x, y, weight)| {
                (Plane { image: level, slice: layer * 6 + face }, Tap { texel: Some((x, y, 0)), weight })
            });
            return reader.filter(mem, &taps, 256);
        }
        let mut taps = [(plane, Tap { texel: None, weight: 0 }); MAX_TAPS];
        let mut n = 0;
        linear_taps(plane, &ax, dims, 256, &mut taps, &mut n);
        reader.filter(mem, &taps[..n], 256)
    };
    if let Some(comp) = f.gather {
        return Ok(words(sample(&levels[0], Some(comp))?));
    }
    let last = levels.len() - 1;
    let lod = match f.lod {
        // A mipmapped texture without .level: level of detail 0, biased and clamped.
        Lod::Base => 0.0,
        Lod::Level(l) => f64::from(l),
        Lod::Grad(dx, dy) => {
            let img = &levels[0];
            let n = f.geometry.dims().min(if cube { 2 } else { 3 });
            let sizes = [img.width, img.height, img.depth];
            grad_lod(dx, dy, n, sizes)
        }
    };
    if last == 0 {
        return Ok(words(sample(&levels[0], None)?));
    }
    // Held at the minimum, then the maximum (a minimum above the maximum gives the
    // maximum), then in the levels there are; never a panic on NaN.
    let lod = (lod + f64::from(s.lod_bias)).max(f64::from(s.min_lod)).min(f64::from(s.max_lod));
    let lod = lod.max(0.0).min(last as f64);
    if !s.mip_linear {
        let level = ((lod + 0.5).floor() as usize).min(last);
        return Ok(words(sample(&levels[level], None)?));
    }
    let q = (lod * 256.0).floor() as i64;
    let (l0, frac) = (((q >> 8) as usize).min(last), (q & 255) as u32);
    let l1 = (l0 + 1).min(last);
    if frac == 0 || l0 == last {
        return Ok(words(sample(&levels[l0], None)?));
    }
    if s.linear && dims >= 2 && reader.reads_floats() {
        // Trilinear: 256 split by the level fraction exactly, then each level's
        // share as a plane (or a volume) of its own coordinates.
        let mut taps = [(Plane { image: &levels[l0], slice }, Tap { texel: None, weight: 0 }); MAX_TAPS];
        let mut n = 0;
        for (lv, share) in [(l0, 256 - frac), (l1, frac)] {
            let level = &levels[lv];
            linear_taps(
                Plane { image: level, slice },
                &axes(level, dims, true),
                dims,
                share,
                &mut taps,
                &mut n,
            );
        }
        return reader.filter(mem, &taps[..n], 256).map(words);
    }
    // Otherwise: each level filtered, then blended by the level fraction.
    let a = sample(&levels[l0], None)?;
    let b = sample(&levels[l1], None)?;
    Ok(words(reader.sum(&[(256 - frac, a), (frac, b)], 256)))
}

/// GPU: `tex.grad`'s log2 of a length `2^e (1 + m/256 + ...)` is `e + LOG2[m]/256`,
/// the mantissa cut to 8 bits and looked up in the hardware's table (probe 28 of
/// tests/tex/probes.py: a length of each 8-bit mantissa, 8 times over).
const LOG2: [u8; 256] = [
    0, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19, 20, 22, 23, 24, 26, 27, 28, 30, 31, 32, 34, 35, 36, 38,
    39, 40, 42, 43, 44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63, 64, 65, 66, 68, 69, 70,
    71, 72, 74, 75, 76, 77, 78, 79, 81, 82, 83, 84, 85, 86, 88, 89, 90, 91, 92, 93, 94, 95, 97, 98, 99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122,
    123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 135, 136, 137, 137, 138, 139, 140, 141, 142, 143,
    144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163,
    164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179, 180, 181, 181, 182,
    183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193, 194, 195, 195, 196, 197, 198, 199, 200, 200,
    201, 202, 203, 204, 205, 205, 206, 207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218,
    218, 219, 220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232, 233, 233, 234,
    235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244, 245, 245, 246, 247, 248, 248, 249, 250,
    251, 251, 252, 253, 253, 254, 255, 255,
];

/// GPU: `tex.grad`'s level of detail from the gradients `dx` and `dy` of the first
/// `n` coordinates, on a texture of `sizes` texels (tests/tex/gpu_probes.bin). A
/// vector's length is its largest component in texels, cut to 9 fractional bits of
/// mantissa, plus 11/32 of the second and 1/4 of the third; the length that counts
/// is the longer gradient's, or 11/16 of the longer of `dx + dy` and `dx - dy` when
/// that is longer still (gradients far from orthogonal); its log2 is `LOG2`'s, to
/// 1/256 of a level.
fn grad_lod(dx: [f32; 3], dy: [f32; 3], n: usize, sizes: [u32; 3]) -> f64 {
    let length = |d: [f64; 3]| {
        let mut a: [f64; 3] =
            std::array::from_fn(|k| if k < n { (d[k] * f64::from(sizes[k])).abs() } else { 0.0 });
        a.sort_by(|x, y| y.total_cmp(x));
        // The largest component keeps 9 bits of mantissa below its leading one.
        let top = if a[0].is_finite() { f64::from_bits(a[0].to_bits() & !((1u64 << 43) - 1)) } else { a[0] };
        top + 11.0 / 32.0 * a[1] + a[2] / 4.0
    };
    let (x, y) = (dx.map(f64::from), dy.map(f64::from));
    let sum = std::array::from_fn(|k| x[k] + y[k]);
    let diff = std::array::from_fn(|k| x[k] - y[k]);
    let len = length(x).max(length(y)).max(11.0 / 16.0 * length(sum).max(length(diff)));
    if len == 0.0 || !len.is_finite() {
        return len.log2();
    }
    // len is a normal f64: its exponent and the top 8 bits of its mantissa.
    let bits = len.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let m = ((bits >> 44) & 0xff) as usize;
    e as f64 + f64::from(LOG2[m]) / 256.0
}

/// GPU: seamless cubemap filtering of face coordinates `u`, `v` on `face` (n x n
/// texels), as (face, x, y, weight) taps (tests/tex/probes.py 21-27): the bilinear
/// weights as on a face; a tap past an edge reads the edge texel of the face beyond;
/// past a corner, where no texel is, its weight w goes to the other three,
/// `(w + 1) / 3` to each of the two beyond an edge and the rest to the one on the
/// face (which then carries the corner's 0-weight place).
fn seamless_taps(u: f32, v: f32, face: u32, n: u32) -> [(u32, u32, u32, u32); 4] {
    let ((i, a), (j, b)) = (weight_split(scaled(u, n, true)), weight_split(scaled(v, n, true)));
    let w = plane_weights(256, a, b);
    let n64 = i64::from(n);
    let within = |k: i64| (0..n64).contains(&k);
    let mut taps = [(i, j, w[0][0]), (i, j + 1, w[0][1]), (i + 1, j, w[1][0]), (i + 1, j + 1, w[1][1])];
    // The corner (off the face in both axes), if any: its weight to the others.
    if let Some(k) = taps.iter().position(|&(x, y, _)| !within(x) && !within(y)) {
        let wc = std::mem::replace(&mut taps[k].2, 0);
        let third = (wc + 1) / 3;
        for t in taps.iter_mut() {
            match (within(t.0), within(t.1)) {
                (true, true) => t.2 += wc - 2 * third,
                (false, false) => {}
                _ => t.2 += third,
            }
        }
    }
    taps.map(|(x, y, weight)| {
        if within(x) && within(y) {
            (face, x as u32, y as u32, weight)
        } else if !within(x) && !within(y) {
            // The emptied corner: weight 0, any texel of the face.
            (face, 0, 0, 0)
        } else {
            let (f, x, y) = across(face, x, y, n);
            (f, x, y, weight)
        }
    })
}

/// The direction of face coordinates `s`, `t` in [-1, 1] (`cube_face` undone).
fn cube_direction(face: u32, s: f32, t: f32) -> (f32, f32, f32) {
    match face {
        0 => (1.0, -t, -s),
        1 => (-1.0, -t, s),
        2 => (s, 1.0, t),
        3 => (s, -1.0, -t),
        4 => (s, -t, 1.0),
        _ => (-s, -t, -1.0),
    }
}

/// The texel (x, y) of `face` (n x n) one past an edge: the edge texel of the face
/// beyond, found by pushing the texel centre's direction just past the edge and
/// choosing its face again.
fn across(face: u32, x: i64, y: i64, n: u32) -> (u32, u32, u32) {
    let nf = f64::from(n);
    let centre = |k: i64| 2.0 * (k as f64 + 0.5) / nf - 1.0;
    let past =
        |c: f64, k: i64| if (0..i64::from(n)).contains(&k) { c } else { (1.0 + 2f64.powi(-20)).copysign(c) };
    let (s, t) = (past(centre(x), x), past(centre(y), y));
    let (dx, dy, dz) = cube_direction(face, s as f32, t as f32);
    let (f, u, v) = cube_face(dx, dy, dz);
    let texel = |c: f32| ((f64::from(c) * nf).floor().max(0.0) as u32).min(n - 1);
    (f, texel(u), texel(v))
}

/// The face and normalized face coordinates of a cubemap direction (the Guide's
/// table; of equal magnitudes z wins over y and x, y over x: GPU).
fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, m, s, t) = if az >= ay && az >= ax {
        if z >= 0.0 { (4, az, x, -y) } else { (5, az, -x, -y) }
    } else if ay >= ax {
        if y >= 0.0 { (2, ay, x, z) } else { (3, ay, x, -z) }
    } else if x >= 0.0 {
        (0, ax, -z, -y)
    } else {
        (1, ax, z, -y)
    };
    ((face), (s / m + 1.0) * 0.5, (t / m + 1.0) * 0.5)
}

/// `txq` on one lane: `level` for `txq.level.*`.
///
/// # Errors
/// The attributes a GPU refuses on texture objects.
pub fn query(tex: &Texture, q: ImageQuery, level: Option<u32>) -> Result<u32, String> {
    // GPU (tests/tex/query.txt): width, height and depth of level 0, a 1D array's
    // height 1, a layered array's layers as its depth, a cubemap's depth 0; linear
    // memory its texels wide and 0 high; txq.level of an array with one level 0.
    let (w, h, d) = match (&tex.resource, level) {
        (Resource::Linear { .. } | Resource::Pitch2D(_), Some(_)) => (0, 0, 0),
        (Resource::Linear { bytes, format, .. }, None) => ((bytes / format.texel_bytes()) as u32, 0, 0),
        (Resource::Pitch2D(i), None) => (i.width, i.height, 0),
        (Resource::Array { shape, levels }, _) => {
            let lv = match level {
                None => 0,
                Some(l) if levels.len() > 1 => (l as usize).min(levels.len() - 1),
                Some(_) => return Ok(0),
            };
            let i = &levels[lv];
            match shape {
                Shape::D1 => (i.width, 1, 0),
                Shape::D2 => (i.width, i.height, 0),
                Shape::D3 => (i.width, i.height, i.depth),
                Shape::Layered1D => (i.width, 1, i.depth),
                Shape::Layered2D => (i.width, i.height, i.depth),
                Shape::Cube | Shape::LayeredCube => (i.width, i.height, 0),
            }
        }
    };
    match q {
        ImageQuery::Width => Ok(w),
        ImageQuery::Height => Ok(h),
        ImageQuery::Depth => Ok(d),
        ImageQuery::Other(name) => Err(format!(
            "txq.{name} of a texture object: a GPU refuses to launch it (CUDA_ERROR_INVALID_HANDLE); it answers \
             width, height and depth only"
        )),
    }
}

/// One lane's surface access: byte x, then rows and slices or the layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceAccess {
    pub geometry: Geometry,
    pub coords: [i32; 3],
    pub boundary: Boundary,
    /// Bytes the instruction moves (its element size times its vector length).
    pub bytes: u32,
}

/// Where a surface access (`suld`, `sust`, `sured`) lands: `None` when `.zero`
/// drops it.
///
/// # Errors
/// A fault's cause: a dead handle, a geometry or size the surface does not have,
/// `.trap` out of range.
pub fn surface_address(objects: &Objects, handle: u64, a: &SurfaceAccess) -> Result<Option<u64>, String> {
    let (image, shape) = objects.surface(handle)?;
    if !a.geometry.fits(shape) {
        return Err(format!(
            "a {} surface access to {} (undefined behaviour)",
            a.geometry.name(),
            shape.name()
        ));
    }
    let size = image.format.texel_bytes();
    if u64::from(a.bytes) != size {
        return Err(format!(
            "a {}-byte surface access to {}-byte texels (undefined behaviour: the access must match the format)",
            a.bytes, size
        ));
    }
    let x = i64::from(a.coords[0]);
    if x.rem_euclid(size as i64) != 0 {
        return Err(format!(
            "surface x {x} is not a multiple of the {size}-byte texel (undefined behaviour)"
        ));
    }
    let (dims, layered) = (a.geometry.dims(), a.geometry.layered());
    let mut pos = [x.div_euclid(size as i64), 0, 0];
    // A layered 1D surface's layers are its slices: (x, layer).
    let lims = if layered && dims == 1 {
        [i64::from(image.width), i64::from(image.depth), 1]
    } else {
        [i64::from(image.width), i64::from(image.height), i64::from(image.depth)]
    };
    for k in 1..dims {
        pos[k] = i64::from(a.coords[k]);
    }
    let layer_axis = if layered { dims } else { 3 };
    if layered {
        pos[layer_axis] = i64::from(a.coords[dims] as u32);
    }
    let used = if layered { dims + 1 } else { dims };
    let inside = (0..used).all(|k| pos[k] >= 0 && pos[k] < lims[k]);
    if !inside {
        match a.boundary {
            Boundary::Zero => return Ok(None),
            Boundary::Trap => {
                return Err(format!(
                    "out of bounds: surface texel ({}) is outside the {}x{}x{} surface (.trap)",
                    pos[..used].iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", "),
                    lims[0],
                    lims[1],
                    lims[2]
                ));
            }
            Boundary::Clamp => {
                for k in 0..used {
                    pos[k] =
                        if k == layer_axis { pos[k].min(lims[k] - 1) } else { pos[k].clamp(0, lims[k] - 1) };
                }
            }
        }
    }
    if layered && dims == 1 {
        // The layer is the slice: (x, layer) is (x, 0, layer).
        pos = [pos[0], 0, pos[1]];
    }
    Ok(Some(image.texel_address(pos[0] as u32, pos[1] as u32, pos[2] as u32)))
}

/// `suq` on one lane.
///
/// # Errors
/// A dead handle; the attributes a GPU refuses.
pub fn surface_query(objects: &Objects, handle: u64, q: ImageQuery) -> Result<u32, String> {
    let (image, shape) = objects.surface(handle)?;
    // GPU (tests/tex/query.txt): a 1D surface's height 0; a layered one's layers as
    // its depth.
    let (h, d) = match shape {
        Shape::D1 => (0, 0),
        Shape::D2 => (image.height, 0),
        Shape::Layered1D => (0, image.depth),
        _ => (image.height, image.depth),
    };
    match q {
        ImageQuery::Width => Ok(image.width),
        ImageQuery::Height => Ok(h),
        ImageQuery::Depth => Ok(d),
        ImageQuery::Other(name) => Err(format!(
            "suq.{name}: a GPU refuses to load a module that asks it (CUDA_ERROR_NOT_SUPPORTED); it answers width, \
             height and depth only"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sums_round_once_with_ties_away_from_zero() {
        // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: away from zero.
        let t = [(128, 1.0f32), (128, 1.0 + f32::EPSILON)];
        assert_eq!(exact_sum(&t, 8, false), 1.0 + f32::EPSILON);
        let t = [(128, -1.0f32), (128, -1.0 - f32::EPSILON)];
        assert_eq!(exact_sum(&t, 8, false), -1.0 - f32::EPSILON);
        // Cancellation to zero is +0; a sum of -0s is -0.
        assert!(exact_sum(&[(128, 1.0), (128, -1.0)], 8, false).is_sign_positive());
        assert!(exact_sum(&[(200, -0.0), (56, -0.0)], 8, false).is_sign_negative());
        // Subnormals and a half's overflow.
        assert_eq!(exact_sum(&[(256, f32::from_bits(1))], 8, false), f32::from_bits(1));
        assert_eq!(exact_sum(&[(1, f32::from_bits(1))], 8, false), 0.0);
        assert_eq!(exact_sum(&[(128, f32::from_bits(1))], 8, false), f32::from_bits(1));
        assert_eq!(exact_sum(&[(256, 70000.0)], 8, true), f32::INFINITY);
        assert_eq!(exact_sum(&[(256, 1.0 / 3.0)], 8, true), half::f16::from_f32(1.0 / 3.0).to_f32());
        // Terms 250 binades apart: the smallest is cut away by the alignment, so it
        // no longer breaks a tie (which goes away from zero) nor adds anything.
        let tiny = f32::from_bits(1);
        assert_eq!(
            exact_sum(&[(128, 1.0 + f32::EPSILON), (128, 1.0), (1, -tiny)], 8, false),
            1.0 + f32::EPSILON
        );
        assert_eq!(exact_sum(&[(256, 1.0), (1, tiny)], 8, false), 1.0);
        assert_eq!(exact_sum(&[(1, f32::MAX), (255, tiny)], 8, false), f32::MAX / 256.0);
    }

    #[test]
    fn weights_add_up_to_256_in_2d_and_3d() {
        for a in (0..256).step_by(7) {
            for b in (0..256).step_by(5) {
                let w = plane_weights(256, a, b);
                assert_eq!(w.iter().flatten().sum::<u32>(), 256);
                assert_eq!(w[1][0] + w[1][1], a);
                assert_eq!(w[0][1] + w[1][1], b);
                for c in (0..256).step_by(11) {
                    let v = volume(256, a, b, c);
                    assert_eq!(v.iter().flatten().flatten().sum::<u32>(), 256);
                    assert_eq!(v[1].iter().flatten().sum::<u32>(), c);
                }
            }
        }
        // An H200's weights of the one-hot probe at (108, 102, 224)/256
        // (tests/tex/gpu_probes.bin): the y splits round by column.
        assert_eq!(volume(256, 108, 102, 224), [[[11, 7], [8, 6]], [[78, 51], [57, 38]]]);
    }

    #[test]
    fn float_taps_are_aligned_to_the_largest_before_the_sum() {
        // An H200 (tests/tex/gpu_probes.bin, probe 36): 1.0 at weight 1 and
        // 1.624797e-9 at weight 255 gives exactly 1/256; the small texel falls below
        // 2^-27 of the large one's binade. Exactly, it would be 1/256 + 1.6e-9.
        let small = f32::from_bits(819_941_238);
        assert_eq!(exact_sum(&[(1, 1.0), (255, small)], 8, false), 0.003_906_25);
        // On its own the small texel keeps all its bits.
        assert_eq!(exact_sum(&[(255, small), (1, 0.0)], 8, false), (f64::from(small) * 255.0 / 256.0) as f32);
    }

    #[test]
    fn srgb_taps_are_aligned_and_the_sum_is_a_half() {
        // An H200 (probe 35): code 10 (200/65536) at weight 255 beside code 255 (1.0)
        // at weight 1 filters to exactly 1/256, code 10 cut away; beside code 0 it is
        // 199.22/65536 rounded to a half, 199.25/65536.
        assert_eq!(srgb_sum([(255, 200), (1, 65536)].into_iter(), 256), 256.0 / 65536.0);
        assert_eq!(srgb_sum([(255, 200), (1, 0)].into_iter(), 256), 199.25 / 65536.0);
    }

    #[test]
    fn seamless_cubemaps_filter_across_edges_and_corners_as_the_gpu_does() {
        // Two directions of probe 21 (tests/tex/probes.py) on 2 x 2 faces, with an
        // H200's weights. Near an edge: face 3's two texels and face 5's two beyond.
        let dir = |x: u32, y: u32, z: u32| cube_face(f32::from_bits(x), f32::from_bits(y), f32::from_bits(z));
        let sorted = |mut t: [(u32, u32, u32, u32); 4]| {
            t.sort();
            t.into_iter().filter(|t| t.3 != 0).collect::<Vec<_>>()
        };
        let (face, u, v) = dir(0xbedd_008c, 0xbf71_b013, 0xbf66_623e);
        assert_eq!(
            sorted(seamless_taps(u, v, face, 2)),
            [(3, 0, 1, 134), (3, 1, 1, 6), (5, 0, 1, 5), (5, 1, 1, 111)]
        );
        // Near a corner: three texels, the missing fourth's weight shared out.
        let (face, u, v) = dir(0x3ece_3826, 0xbf21_3e75, 0x3eca_f3f5);
        assert_eq!(sorted(seamless_taps(u, v, face, 2)), [(0, 0, 1, 33), (3, 1, 0, 193), (4, 1, 1, 30)]);
    }

    #[test]
    fn seamless_filtering_between_cubemap_levels_is_refused_and_within_one_is_not() {
        let mut mem = GlobalMemory::default();
        let mut t = two_levels(&mut mem, 0.0, 1.0);
        if let Resource::Array { shape, .. } = &mut t.resource {
            *shape = Shape::Cube;
        }
        t.sampler.seamless_cubemap = true;
        t.sampler.linear = true;
        t.sampler.mip_linear = true;
        let mut objects = Objects::default();
        let err = objects.create_texture(t.clone()).unwrap_err();
        assert!(
            matches!(&err, ObjectError::NotSupported(m) if m.contains("between mipmap levels")),
            "{err:?}"
        );
        t.sampler.mip_linear = false;
        assert!(objects.create_texture(t).is_ok());
    }

    #[test]
    fn signed_8_bit_sums_scale_as_the_gpu_does() {
        // Texel centres: 127 -> 32767; 64 and -64 sit half a step off 32767ths, and
        // the GPU rounds both up. Between 127 and -59 at weight 1/256: 32579 (the
        // exact 32579.54 would round to 32580).
        assert_eq!(snorm8_sum(127 * 256), 32767);
        assert_eq!(snorm8_sum(64 * 256), 16513);
        assert_eq!(snorm8_sum(-64 * 256), -16512);
        assert_eq!(snorm8_sum(127 * 255 - 59), 32579);
    }

    /// A mipmapped 2x1 / 1x1 float texture whose texels hold their level.
    fn two_levels(mem: &mut GlobalMemory, min_lod: f32, max_lod: f32) -> Texture {
        let format = Format { kind: ChannelKind::Float, bits: 32, channels: 1 };
        let l0 = mem.alloc_from(&[0f32.to_le_bytes(), 0f32.to_le_bytes()].concat()).unwrap();
        let l1 = mem.alloc_from(&1f32.to_le_bytes()).unwrap();
        let image =
            |base, width| Image { base, width, height: 1, depth: 1, pitch: 4 * u64::from(width), format };
        let sampler = Sampler {
            address: [AddressMode::Clamp; 3],
            linear: false,
            mip_linear: false,
            normalized_read: false,
            srgb: false,
            normalized_coords: true,
            border: [0.0; 4],
            lod_bias: 0.0,
            min_lod,
            max_lod,
            seamless_cubemap: false,
        };
        Texture {
            resource: Resource::Array { shape: Shape::D1, levels: vec![image(l0, 2), image(l1, 1)] },
            sampler,
        }
    }

    #[test]
    fn level_clamps_out_of_order_or_nan_pick_a_level_without_panicking() {
        let mut mem = GlobalMemory::default();
        let fetch_at = |mem: &GlobalMemory, t: &Texture, lod: f32| {
            let f = Fetch {
                geometry: Geometry::D1,
                layer: 0,
                coords: [0.5f32.to_bits(), 0, 0],
                int_coords: false,
                lod: Lod::Level(lod),
                gather: None,
            };
            f32::from_bits(fetch(t, &f, mem).unwrap()[0])
        };
        // A minimum above the maximum gives the maximum (level 1), as CUDA's clamp
        // of the minimum first, then the maximum, does.
        let t = two_levels(&mut mem, 3.0, 1.0);
        assert_eq!(fetch_at(&mem, &t, 0.0), 1.0);
        // A NaN level of detail is held at the minimum.
        let t = two_levels(&mut mem, 0.0, 1.0);
        assert_eq!(fetch_at(&mem, &t, f32::NAN), 0.0);
        assert_eq!(fetch_at(&mem, &t, 0.75), 1.0);
    }

    #[test]
    fn an_infinite_or_nan_border_colour_filters_without_overflow() {
        // Signed and unsigned 8-bit (sRGB too) texels read normalized, filtered
        // halfway into an infinite or NaN border: the sums stay in range.
        let mut mem = GlobalMemory::default();
        for (kind, srgb) in
            [(ChannelKind::Signed, false), (ChannelKind::Unsigned, false), (ChannelKind::Unsigned, true)]
        {
            for b in [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e30] {
                let mut t = two_levels(&mut mem, 0.0, 0.0);
                let format = Format { kind, bits: 8, channels: 1 };
                let base = mem.alloc_from(&[100u8, 20]).unwrap();
                let image = Image { base, width: 2, height: 1, depth: 1, pitch: 2, format };
                t.resource = Resource::Array { shape: Shape::D1, levels: vec![image] };
                t.sampler.linear = true;
                t.sampler.normalized_read = true;
                t.sampler.srgb = srgb;
                t.sampler.normalized_coords = false;
                t.sampler.address = [AddressMode::Border; 3];
                t.sampler.border = [b; 4];
                let f = Fetch {
                    geometry: Geometry::D1,
                    layer: 0,
                    coords: [0.0f32.to_bits(), 0, 0],
                    int_coords: false,
                    lod: Lod::Base,
                    gather: None,
                };
                let v = f32::from_bits(fetch(&t, &f, &mem).unwrap()[0]);
                assert!(!v.is_nan(), "{kind:?} srgb {srgb} border {b}: {v}");
            }
        }
    }

    #[test]
    fn addresses_wrap_mirror_clamp_and_border() {
        assert_eq!(address(-1, 5, AddressMode::Wrap), Some(4));
        assert_eq!(address(5, 5, AddressMode::Mirror), Some(4));
        assert_eq!(address(-1, 5, AddressMode::Mirror), Some(0));
        assert_eq!(address(9, 5, AddressMode::Mirror), Some(0));
        assert_eq!(address(7, 5, AddressMode::Clamp), Some(4));
        assert_eq!(address(5, 5, AddressMode::Border), None);
    }
}
