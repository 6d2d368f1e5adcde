//! Tensor maps and the tensor copies that read them (the Tensor Memory Accelerator):
//! `cuTensorMapEncodeTiled` makes a map, `cp.async.bulk.tensor` copies a box of the
//! tensor it describes between global and shared memory (PTX ISA 9.7.9.25.5).
//!
//! A map is 128 opaque bytes, as in CUDA; their layout is ptxvm's own ([`TensorMap::
//! encode`]). The copy follows CUDA's documentation of the map's fields (`cuda.h`):
//! the box starts at the instruction's coordinates (signed, so it may start before
//! the tensor), holds `ceil(box[d] / element_strides[d])` elements along dimension
//! `d` (every `element_strides[d]`-th from the start; dimension 0 always takes every
//! element), and lies in shared memory densely, dimension 0 fastest. Elements outside
//! the tensor read as zero, or as a NaN when the map asks for it, and are not written
//! back. A swizzled box permutes the 16-byte chunks of each row of the swizzle's span
//! by the low bits of the row's shared address: bits 4.. of the address are XORed
//! with bits 7.. (1 bit for 32 bytes, 2 for 64, 3 for 128).

use crate::lower::program::MapField;

/// Shared address `a` under a swizzle of `width` bytes (0: none, 32, 64 or 128): its
/// 16-byte chunk XORed with bits 7.. of the address (one, two or three bits), as TMA
/// writes a tile and wgmma reads one.
pub fn swizzle(a: u64, width: u64) -> u64 {
    if width == 0 { a } else { a ^ ((a >> 7) & (width / 16 - 1)) << 4 }
}

/// `CUtensorMapDataType` values ptxvm copies, with their sizes in bytes.
const TYPES: &[(u32, &str, u32)] = &[
    (0, "UINT8", 1),
    (1, "UINT16", 2),
    (2, "UINT32", 4),
    (3, "INT32", 4),
    (4, "UINT64", 8),
    (5, "INT64", 8),
    (6, "FLOAT16", 2),
    (7, "FLOAT32", 4),
    (8, "FLOAT64", 8),
    (9, "BFLOAT16", 2),
];

/// Marks the bytes of a map ptxvm made ("PTXMAP" and a layout version).
const MAGIC: u64 = 0x5054_584d_4150_0001;

/// A tiled tensor map: what `cuTensorMapEncodeTiled` describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// `CUtensorMapDataType`.
    pub dtype: u32,
    pub rank: u32,
    pub global: u64,
    /// Elements along each dimension, the innermost first.
    pub dims: [u64; 5],
    /// Bytes from one element to the next along each dimension (`strides[0]` is the
    /// element's size; the others are `globalStrides`).
    pub strides: [u64; 5],
    pub boxes: [u32; 5],
    pub element_strides: [u32; 5],
    /// Bytes of the swizzle span: 0 (none), 32, 64 or 128.
    pub swizzle: u32,
    /// Elements outside the tensor read as NaN (`CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA`).
    pub nan_fill: bool,
    /// The fields of a map `cuTensorMapEncodeIm2col` made (its boxes are unused).
    pub im2col: Option<Im2col>,
    /// Bytes of an interleaved layout's channel slice (`CU_TENSOR_MAP_INTERLEAVE_16B`,
    /// `_32B`), or 0. ptxvm copies those whose dimension 0 is one slice or less.
    pub interleave: u8,
}

/// What an im2col map adds to a tiled one (PTX ISA 5.5.4): the bounding box of the
/// spatial dimensions (W, H, D: dimensions 1 to `rank - 2`), and how many channels of
/// how many pixels a copy moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Im2col {
    /// The box's lower corner along W, H and D, from the tensor's first element.
    pub lower: [i32; 3],
    /// The box's upper corner along W, H and D, from the tensor's last element.
    pub upper: [i32; 3],
    pub channels: u32,
    pub pixels: u32,
}

/// The arguments `cuTensorMapEncodeIm2col` adds to the tiled ones (which give no
/// boxes).
#[derive(Clone, Debug, Default)]
pub struct Im2colArgs {
    /// `rank - 2` values each, W first.
    pub lower: Vec<i32>,
    pub upper: Vec<i32>,
    pub channels: u32,
    pub pixels: u32,
}

/// Why `cuTensorMapEncodeTiled` refuses its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// An argument CUDA refuses (`CUDA_ERROR_INVALID_VALUE`).
    Invalid(String),
    /// A valid map ptxvm cannot copy yet (`CUDA_ERROR_NOT_SUPPORTED`).
    Unsupported(String),
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::Invalid(s) | MapError::Unsupported(s) => f.write_str(s),
        }
    }
}

/// The arguments of `cuTensorMapEncodeTiled`, read from the caller's arrays.
#[derive(Clone, Debug, Default)]
pub struct Tiled {
    pub dtype: u32,
    pub rank: u32,
    pub global: u64,
    pub dims: Vec<u64>,
    /// `rank - 1` byte strides.
    pub strides: Vec<u64>,
    pub boxes: Vec<u32>,
    pub element_strides: Vec<u32>,
    pub interleave: u32,
    pub swizzle: u32,
    pub l2_promotion: u32,
    pub oob_fill: u32,
}

/// Bytes of the swizzle span of `CUtensorMapSwizzle` `s`.
fn swizzle_bytes(s: u32) -> Result<u32, MapError> {
    match s {
        0 => Ok(0),
        1 => Ok(32),
        2 => Ok(64),
        3 => Ok(128),
        4..=6 => Err(MapError::Unsupported(format!(
            "swizzle {s} (the 128-byte span in 32- or 64-byte atoms, sm_100) is not copied yet"
        ))),
        s => Err(MapError::Invalid(format!("{s} is not a CUtensorMapSwizzle"))),
    }
}

impl TensorMap {
    /// Checks `t` against CUDA's requirements (`cuda.h`'s documentation of
    /// `cuTensorMapEncodeTiled`) and makes its map.
    pub fn tiled(t: &Tiled) -> Result<TensorMap, MapError> {
        let bad = |s: String| Err(MapError::Invalid(s));
        let unsupported = |s: String| Err(MapError::Unsupported(s));
        let Some(&(_, name, size)) = TYPES.iter().find(|(v, ..)| *v == t.dtype) else {
            return if t.dtype <= 15 {
                unsupported(format!(
                    "tensor data type {} (FLOAT32_FTZ, TFLOAT32 and the packed types) is not one ptxvm copies",
                    t.dtype
                ))
            } else {
                bad(format!("{} is not a CUtensorMapDataType", t.dtype))
            };
        };
        let rank = t.rank as usize;
        if !(1..=5).contains(&rank) {
            return bad(format!("tensorRank is {}, not 1 to 5", t.rank));
        }
        if t.interleave > 2 {
            return bad(format!("{} is not a CUtensorMapInterleave", t.interleave));
        }
        let swizzle = swizzle_bytes(t.swizzle)?;
        // An interleaved layout (NC/8HWC8: cuda.h, PTX ISA 5.5.6) groups channels in
        // slices of 16 or 32 bytes, dimension 0. Where that dimension is one slice (or
        // less), the map is a tiled one whose dimension 0 keeps its element stride;
        // how TMA splits a wider dimension 0 into slices is not documented.
        let interleave: u8 = [0, 16, 32][t.interleave as usize];
        if interleave != 0 {
            if rank < 3 {
                return bad(format!("an interleaved layout needs tensorRank 3 or more, not {rank}"));
            }
            if interleave == 32 && swizzle != 32 {
                return bad("CU_TENSOR_MAP_INTERLEAVE_32B needs CU_TENSOR_MAP_SWIZZLE_32B".into());
            }
            if interleave == 32
                && (!t.global.is_multiple_of(32) || t.strides.iter().any(|s| !s.is_multiple_of(32)))
            {
                return bad(
                    "CU_TENSOR_MAP_INTERLEAVE_32B needs globalAddress and globalStrides in 32 bytes".into()
                );
            }
            if t.dims.first().is_some_and(|&d| d.saturating_mul(u64::from(size)) > u64::from(interleave)) {
                return unsupported(format!(
                    "an interleaved layout whose dimension 0 ({} x {size} bytes) spans more than one {interleave}-byte \
                     slice: how TMA splits it into slices is not documented, and ptxvm does not guess",
                    t.dims[0]
                ));
            }
        }
        if t.l2_promotion > 3 {
            return bad(format!("{} is not a CUtensorMapL2promotion", t.l2_promotion));
        }
        let nan_fill = match t.oob_fill {
            0 => false,
            1 if matches!(t.dtype, 6..=9) => true,
            1 => return bad(format!("a NaN fill needs a floating-point type, not {name}")),
            f => return bad(format!("{f} is not a CUtensorMapFloatOOBfill")),
        };
        if !t.global.is_multiple_of(16) {
            return bad(format!("globalAddress {:#x} is not 16-byte aligned", t.global));
        }
        let mut map = TensorMap {
            dtype: t.dtype,
            rank: t.rank,
            global: t.global,
            dims: [1; 5],
            strides: [0; 5],
            boxes: [1; 5],
            element_strides: [1; 5],
            swizzle,
            nan_fill,
            im2col: None,
            interleave,
        };
        map.strides[0] = u64::from(size);
        for d in 0..rank {
            let dim = t.dims[d];
            if dim == 0 || dim > 1 << 31 {
                return bad(format!("globalDim[{d}] is {dim}, not 1 to 2^31"));
            }
            map.dims[d] = dim;
            let b = t.boxes[d];
            if b == 0 || b > 256 {
                return bad(format!("boxDim[{d}] is {b}, not 1 to 256"));
            }
            map.boxes[d] = b;
            let e = t.element_strides[d];
            if e == 0 || e > 8 {
                return bad(format!("elementStrides[{d}] is {e}, not 1 to 8"));
            }
            map.element_strides[d] = e;
        }
        for d in 1..rank {
            let s = t.strides[d - 1];
            if !s.is_multiple_of(16) || s >= 1 << 40 {
                return bad(format!("globalStrides[{}] is {s}, not a multiple of 16 below 2^40", d - 1));
            }
            map.strides[d] = s;
        }
        // The box's inner dimension: a multiple of 16 bytes, and within the swizzle's
        // span, without interleave (cuda.h).
        let inner = u64::from(map.boxes[0]) * u64::from(size);
        if interleave == 0 && !inner.is_multiple_of(16) {
            return bad(format!("boxDim[0] * {size} bytes = {inner} is not a multiple of 16 bytes"));
        }
        if interleave == 0 && swizzle != 0 && inner > u64::from(swizzle) {
            return bad(format!(
                "the box's inner dimension, {inner} bytes, is wider than the {swizzle}-byte swizzle"
            ));
        }
        Ok(map)
    }

    /// The element stride of dimension `d`: dimension 0 takes every element but in an
    /// interleaved layout (cuda.h: its element stride is ignored otherwise).
    fn stride_of(&self, d: usize) -> u32 {
        if d == 0 && self.interleave == 0 { 1 } else { self.element_strides[d] }
    }

    /// The name of the element type (`CUtensorMapDataType` without its prefix).
    pub fn dtype_name(&self) -> &'static str {
        TYPES.iter().find(|(v, ..)| *v == self.dtype).map_or("unknown", |&(_, name, _)| name)
    }

    /// Checks `t` (with no boxes) and `args` against CUDA's requirements (`cuda.h`'s
    /// documentation of `cuTensorMapEncodeIm2col`) and makes the map.
    pub fn im2col(t: &Tiled, args: &Im2colArgs) -> Result<TensorMap, MapError> {
        let bad = |s: String| Err(MapError::Invalid(s));
        if !(3..=5).contains(&t.rank) {
            return bad(format!("tensorRank is {}, not 3, 4 or 5 (im2col)", t.rank));
        }
        if t.interleave != 0 {
            return Err(MapError::Unsupported("interleaved im2col maps are not copied yet".into()));
        }
        let spatial = t.rank as usize - 2;
        // The corners' range narrows as the spatial dimensions grow (cuda.h).
        let limit = match t.rank {
            3 => 1 << 15,
            4 => 1 << 7,
            _ => 1 << 4,
        };
        // Boxes of one element (16 bytes' worth in dimension 0) and no swizzle stand in
        // for what the map has not while the shared fields are checked.
        let mut tiled = t.clone();
        tiled.boxes = vec![1; t.rank as usize];
        tiled.boxes[0] = 16;
        tiled.swizzle = 0;
        let mut map = TensorMap::tiled(&tiled)?;
        map.swizzle = swizzle_bytes(t.swizzle)?;
        let mut lower = [0; 3];
        let mut upper = [0; 3];
        for d in 0..spatial {
            let (lo, hi) = (args.lower[d], args.upper[d]);
            for (name, v) in [("pixelBoxLowerCorner", lo), ("pixelBoxUpperCorner", hi)] {
                if !(-limit..limit).contains(&v) {
                    return bad(format!(
                        "{name}[{d}] is {v}, outside [{}, {}] for a rank-{} tensor",
                        -limit,
                        limit - 1,
                        t.rank
                    ));
                }
            }
            // The box spans lo ..= dim - 1 + hi.
            if i64::from(lo) > map.dims[d + 1] as i64 - 1 + i64::from(hi) {
                return bad(format!(
                    "the bounding box along spatial dimension {d} ({lo} to {} - 1 + {hi}) is empty",
                    map.dims[d + 1]
                ));
            }
            (lower[d], upper[d]) = (lo, hi);
        }
        if !(1..=256).contains(&args.channels) {
            return bad(format!("channelsPerPixel is {}, not 1 to 256", args.channels));
        }
        if !(1..=1024).contains(&args.pixels) {
            return bad(format!("pixelsPerColumn is {}, not 1 to 1024", args.pixels));
        }
        let inner = u64::from(args.channels) * map.element_bytes();
        if map.swizzle != 0 && inner > u64::from(map.swizzle) {
            return bad(format!(
                "channelsPerPixel * {} bytes = {inner} is wider than the {}-byte swizzle",
                map.element_bytes(),
                map.swizzle
            ));
        }
        map.im2col = Some(Im2col { lower, upper, channels: args.channels, pixels: args.pixels });
        Ok(map)
    }

    /// Bytes of one element.
    pub fn element_bytes(&self) -> u64 {
        self.strides[0]
    }

    /// Elements of the box in shared memory along each dimension (of an im2col map:
    /// its channels, then its pixels).
    pub fn box_counts(&self) -> [u64; 5] {
        if let Some(i) = &self.im2col {
            return [u64::from(i.channels), u64::from(i.pixels), 1, 1, 1];
        }
        let mut n = [1u64; 5];
        for (d, n) in n.iter_mut().enumerate().take(self.rank as usize) {
            let e = self.stride_of(d);
            *n = u64::from(self.boxes[d].div_ceil(e));
        }
        n
    }

    /// Bytes of the box in shared memory: what a copy completes on its mbarrier.
    pub fn box_bytes(&self) -> u64 {
        self.box_counts().iter().product::<u64>() * self.element_bytes()
    }

    /// The 128 bytes of the map.
    pub fn encode(&self) -> [u8; 128] {
        let mut w = [0u64; 16];
        w[0] = MAGIC;
        w[1] = u64::from(self.dtype)
            | u64::from(self.rank) << 8
            | u64::from(self.swizzle) << 16
            | u64::from(self.nan_fill) << 32
            | u64::from(self.interleave / 16) << 54;
        // An im2col map: a flag, its channels and pixels, and its corners as 16-bit
        // values, W first.
        if let Some(i) = &self.im2col {
            w[1] |= 1 << 33 | u64::from(i.channels) << 34 | u64::from(i.pixels) << 43;
            let pack = |c: &[i32; 3]| (0..3).fold(0, |acc, d| acc | u64::from(c[d] as u16) << (16 * d));
            (w[14], w[15]) = (pack(&i.lower), pack(&i.upper));
        }
        w[2] = self.global;
        w[3..8].copy_from_slice(&self.dims);
        w[8..13].copy_from_slice(&self.strides);
        // Boxes (9 bits) and element strides (4 bits) of all five dimensions in one word.
        w[13] = (0..5).fold(0, |acc, d| {
            acc | u64::from(self.boxes[d]) << (13 * d) | u64::from(self.element_strides[d]) << (13 * d + 9)
        });
        let mut out = [0u8; 128];
        for (k, v) in w.iter().enumerate() {
            out[8 * k..8 * k + 8].copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// The map in `bytes`, if ptxvm made them.
    pub fn decode(bytes: &[u8; 128]) -> Option<TensorMap> {
        let w: Vec<u64> =
            bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect();
        if w[0] != MAGIC {
            return None;
        }
        let field = |k: usize, shift: u32, bits: u32| (w[k] >> shift) & ((1 << bits) - 1);
        let mut map = TensorMap {
            dtype: field(1, 0, 8) as u32,
            rank: field(1, 8, 8) as u32,
            swizzle: field(1, 16, 16) as u32,
            nan_fill: field(1, 32, 1) == 1,
            interleave: 16 * field(1, 54, 2) as u8,
            im2col: (field(1, 33, 1) == 1).then(|| {
                let unpack = |k: usize| [0, 1, 2].map(|d| i32::from((w[k] >> (16 * d)) as u16 as i16));
                Im2col {
                    lower: unpack(14),
                    upper: unpack(15),
                    channels: field(1, 34, 9) as u32,
                    pixels: field(1, 43, 11) as u32,
                }
            }),
            global: w[2],
            dims: [0; 5],
            strides: [0; 5],
            boxes: [0; 5],
            element_strides: [0; 5],
        };
        for d in 0..5 {
            map.dims[d] = w[3 + d];
            map.strides[d] = w[8 + d];
            map.boxes[d] = field(13, 13 * d as u32, 9) as u32;
            map.element_strides[d] = field(13, 13 * d as u32 + 9, 4) as u32;
        }
        let rank = map.rank as usize;
        let im2col_sane = map.im2col.is_none_or(|i| {
            (3..=5).contains(&map.rank) && (1..=256).contains(&i.channels) && (1..=1024).contains(&i.pixels)
        });
        // Bytes that are no map `tiled`, `im2col` or `tensormap.replace` could make are
        // none (a kernel may write any 128 bytes; a map being filled in from zeros has
        // dimensions of 0).
        let sane = (1..=5).contains(&map.rank)
            && im2col_sane
            && map.dims[..rank.min(5)].iter().all(|&d| d <= 1 << 31)
            && matches!(map.interleave, 0 | 16 | 32)
            && TYPES.iter().any(|(v, ..)| *v == map.dtype)
            && matches!(map.swizzle, 0 | 32 | 64 | 128)
            && map.boxes.iter().all(|&b| (1..=256).contains(&b))
            && map.element_strides.iter().all(|&e| (1..=8).contains(&e));
        sane.then_some(map)
    }

    /// The map 128 zero bytes stand for: every field zero (element type u8, rank 1,
    /// no swizzle, zero fill), but the boxes and element strides ptxvm's encoding
    /// cannot hold as zero, which are 1 until a `tensormap.replace` sets them.
    pub fn blank() -> TensorMap {
        TensorMap {
            dtype: 0,
            rank: 1,
            global: 0,
            dims: [0; 5],
            strides: [1, 0, 0, 0, 0],
            boxes: [1; 5],
            element_strides: [1; 5],
            swizzle: 0,
            nan_fill: false,
            im2col: None,
            interleave: 0,
        }
    }

    /// Sets `field` to `value` as `tensormap.replace` does (PTX ISA 9.7.9.26; a stride
    /// in units of `stride_unit` bytes). A value the map cannot hold, or one for a
    /// layout ptxvm does not copy, is refused with why.
    pub fn replace(&mut self, field: MapField, value: u64, stride_unit: u64) -> Result<(), String> {
        let v32 = value as u32;
        let bad = |what: &str| Err(format!("tensormap.replace: {what}"));
        match field {
            MapField::GlobalAddress if value.is_multiple_of(16) => self.global = value,
            MapField::GlobalAddress => {
                return bad(&format!("the global address {value:#x} is not 16-byte aligned"));
            }
            MapField::Rank if v32 < 5 => self.rank = v32 + 1,
            MapField::Rank => {
                return bad(&format!("rank {} (the value is the rank less one) is past 5", v32 + 1));
            }
            MapField::BoxDim(d) if (1..=256).contains(&v32) => self.boxes[usize::from(d)] = v32,
            MapField::BoxDim(_) => return bad(&format!("a box dimension of {v32} is outside 1 to 256")),
            MapField::GlobalDim(d) if v32 >= 1 => self.dims[usize::from(d)] = u64::from(v32),
            MapField::GlobalDim(_) => return bad("a global dimension of 0"),
            MapField::GlobalStride(d) => {
                let bytes = value.checked_mul(stride_unit).filter(|b| b.is_multiple_of(16) && *b < 1 << 40);
                let Some(bytes) = bytes else {
                    return bad(&format!(
                        "a global stride of {value} x {stride_unit} bytes is not a multiple of 16 below 2^40"
                    ));
                };
                self.strides[usize::from(d) + 1] = bytes;
            }
            MapField::ElementStride(d) if (1..=8).contains(&v32) => {
                self.element_strides[usize::from(d)] = v32
            }
            MapField::ElementStride(_) => {
                return bad(&format!("an element stride of {v32} is outside 1 to 8"));
            }
            MapField::ElemType => {
                let Some(&(_, _, size)) = TYPES.iter().find(|(v, ..)| *v == v32) else {
                    return bad(&format!(
                        "element type {v32} (the FTZ, tf32 and packed types) is one ptxvm does not copy yet"
                    ));
                };
                self.dtype = v32;
                self.strides[0] = u64::from(size);
            }
            MapField::InterleaveLayout if v32 == 0 => self.interleave = 0,
            MapField::SwizzleMode if v32 < 4 => self.swizzle = [0, 32, 64, 128][v32 as usize],
            MapField::SwizzleAtomicity if v32 == 0 => {}
            MapField::FillMode if v32 < 2 => self.nan_fill = v32 == 1,
            MapField::InterleaveLayout
            | MapField::SwizzleMode
            | MapField::SwizzleAtomicity
            | MapField::FillMode => {
                return bad(&format!(
                    "{field:?} {v32} is not a layout ptxvm copies yet (interleave, the 32- and 64-byte swizzle \
                     atoms and their flip are sm_100's or not made by tensormap.replace)"
                ));
            }
        }
        Ok(())
    }

    /// The element a box element reads or writes: each of its `rank` coordinates
    /// (the box's start `at` plus `k` steps of the element stride), or `None` when it
    /// lies outside the tensor.
    pub fn element(&self, at: &[i32; 5], k: &[u64; 5]) -> Option<u64> {
        let mut addr = self.global;
        for d in 0..self.rank as usize {
            let e = u64::from(self.stride_of(d));
            let x = i64::from(at[d]) + (k[d] * e) as i64;
            if x < 0 || x as u64 >= self.dims[d] {
                return None;
            }
            addr = addr.wrapping_add((x as u64).wrapping_mul(self.strides[d]));
        }
        Some(addr)
    }

    /// The tensor coordinates of the pixels an im2col copy at `at` ({c, w, (h, (d,)) n})
    /// with filter offsets `offsets` (W first) moves, in order (PTX ISA 5.5.4): the
    /// traversal starts at `at`'s spatial position, steps along W by its traversal
    /// stride, and past the bounding box's upper W goes back to its lower W and one
    /// step on in H (then D, then one image on in N, which has no box); each pixel
    /// read is the traversal's position plus the offsets. Past the last image, and
    /// in the padding the box may cover, pixels lie outside the tensor.
    pub fn im2col_pixels(&self, at: &[i32; 5], offsets: &[i32; 3]) -> Vec<[i64; 5]> {
        let Some(i) = &self.im2col else { return Vec::new() };
        let r = self.rank as usize;
        let mut pos: [i64; 5] = at.map(i64::from);
        let mut out = Vec::with_capacity(i.pixels as usize);
        for _ in 0..i.pixels {
            let mut x = pos;
            for d in 1..r - 1 {
                x[d] += i64::from(offsets[d - 1]);
            }
            out.push(x);
            // The spatial dimensions wrap inside the box; N, the last, goes on.
            let mut carry = true;
            for (d, p) in pos.iter_mut().enumerate().take(r - 1).skip(1) {
                *p += i64::from(self.element_strides[d]);
                if *p <= (self.dims[d] as i64).saturating_sub(1) + i64::from(i.upper[d - 1]) {
                    carry = false;
                    break;
                }
                *p = i64::from(i.lower[d - 1]);
            }
            pos[r - 1] += i64::from(carry);
        }
        out
    }

    /// The address of the element at tensor coordinates `x`, or `None` outside the
    /// tensor.
    pub fn address(&self, x: &[i64; 5]) -> Option<u64> {
        let mut addr = self.global;
        for (d, &x) in x.iter().enumerate().take(self.rank as usize) {
            if x < 0 || x as u64 >= self.dims[d] {
                return None;
            }
            addr = addr.wrapping_add((x as u64).wrapping_mul(self.strides[d]));
        }
        Some(addr)
    }

    /// Where box element `k` lies in shared memory, from the box's shared address
    /// `base` (the swizzle permutes 16-byte chunks by the address's own bits).
    pub fn shared_offset(&self, base: u64, k: &[u64; 5]) -> u64 {
        let n = self.box_counts();
        let mut index = 0;
        for d in (0..self.rank as usize).rev() {
            index = index * n[d] + k[d];
        }
        swizzle(base + index * self.element_bytes(), u64::from(self.swizzle))
    }

    /// What an element outside the tensor reads: zero, or with a NaN fill (float
    /// types only) all ones but the sign, the canonical NaN of f32 and the halves.
    pub fn fill(&self) -> u64 {
        if self.nan_fill { u64::MAX >> (65 - 8 * self.element_bytes()) } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_2d(swizzle: u32) -> Tiled {
        Tiled {
            dtype: 7,
            rank: 2,
            global: 0x1000,
            dims: vec![100, 70],
            strides: vec![416],
            boxes: vec![32, 8],
            element_strides: vec![1, 2],
            swizzle,
            ..Tiled::default()
        }
    }

    #[test]
    fn a_map_survives_its_bytes() {
        let map = TensorMap::tiled(&f32_2d(3)).unwrap();
        assert_eq!(TensorMap::decode(&map.encode()), Some(map.clone()));
        assert_eq!(map.box_counts(), [32, 4, 1, 1, 1]);
        assert_eq!(map.box_bytes(), 32 * 4 * 4);
        let mut bytes = map.encode();
        bytes[0] ^= 1;
        assert_eq!(TensorMap::decode(&bytes), None);
    }

    /// PTX ISA 9.7.9.26: `.rank` takes the rank less one; strides are in bytes from
    /// PTX 8.5 (in 16-byte units before, which CUTLASS shifts for); the field values
    /// of `.elemtype`, `.swizzle_mode` and `.fill_mode` are those of cuda.h's enums.
    #[test]
    fn tensormap_replace_sets_each_field() {
        let mut map = TensorMap::tiled(&f32_2d(0)).unwrap();
        map.replace(MapField::GlobalAddress, 0x2000, 1).unwrap();
        map.replace(MapField::Rank, 2, 1).unwrap();
        map.replace(MapField::GlobalDim(2), 5, 1).unwrap();
        map.replace(MapField::GlobalStride(1), 416 * 70, 1).unwrap();
        map.replace(MapField::GlobalStride(0), 32, 16).unwrap();
        map.replace(MapField::BoxDim(2), 3, 1).unwrap();
        map.replace(MapField::ElementStride(1), 1, 1).unwrap();
        map.replace(MapField::ElemType, 6, 1).unwrap();
        map.replace(MapField::SwizzleMode, 3, 1).unwrap();
        map.replace(MapField::FillMode, 1, 1).unwrap();
        assert_eq!((map.global, map.rank, map.dtype, map.swizzle, map.nan_fill), (0x2000, 3, 6, 128, true));
        assert_eq!(map.dims[..3], [100, 70, 5]);
        assert_eq!(map.strides[..3], [2, 512, 416 * 70]);
        assert_eq!((map.boxes[2], map.element_strides[1]), (3, 1));
        assert_eq!(TensorMap::decode(&map.encode()), Some(map.clone()));
        // The map of 128 zero bytes, before its fields are set, survives its bytes too.
        assert_eq!(TensorMap::decode(&TensorMap::blank().encode()), Some(TensorMap::blank()));
        for (field, value) in [
            (MapField::GlobalAddress, 0x2008),
            (MapField::Rank, 5),
            (MapField::BoxDim(0), 257),
            (MapField::GlobalStride(0), 24),
            (MapField::ElementStride(0), 9),
            (MapField::ElemType, 11),
            (MapField::SwizzleMode, 4),
            (MapField::InterleaveLayout, 1),
        ] {
            assert!(map.clone().replace(field, value, 1).is_err(), "{field:?} {value}");
        }
    }

    #[test]
    fn cuda_s_requirements_are_checked() {
        let invalid = |f: &dyn Fn(&mut Tiled)| {
            let mut t = f32_2d(0);
            f(&mut t);
            matches!(TensorMap::tiled(&t), Err(MapError::Invalid(_)))
        };
        assert!(invalid(&|t| t.rank = 6));
        assert!(invalid(&|t| t.global = 0x1008));
        assert!(invalid(&|t| t.strides[0] = 408));
        assert!(invalid(&|t| t.boxes[1] = 257));
        assert!(invalid(&|t| t.boxes[0] = 3));
        assert!(invalid(&|t| t.element_strides[1] = 9));
        assert!(invalid(&|t| t.dims[0] = 0));
        // 32 floats are 128 bytes: wider than a 64-byte swizzle.
        assert!(invalid(&|t| t.swizzle = 2));
        assert!(invalid(&|t| {
            t.dtype = 2;
            t.oob_fill = 1
        }));
    }

    /// CUDA's rules for interleaved maps (cuda.h's cuTensorMapEncodeTiled): rank 3 or
    /// more, 32-byte ones with the 32-byte swizzle and 32-byte aligned address and
    /// strides, no 16-byte rule on the box's inner dimension; and the element stride
    /// of dimension 0 counts. A dimension 0 wider than a slice is refused.
    #[test]
    fn interleaved_maps_of_one_slice_copy_as_tiles() {
        // NC/8HWC8 of f16: 8 channels (16 bytes) of 6 x 5 pixels of 2 images.
        let t = |interleave, swizzle| Tiled {
            dtype: 6,
            rank: 4,
            global: 0x1000,
            dims: vec![8, 6, 5, 2],
            strides: vec![16, 96, 480],
            boxes: vec![8, 4, 2, 1],
            element_strides: vec![2, 1, 1, 1],
            interleave,
            swizzle,
            ..Tiled::default()
        };
        let map = TensorMap::tiled(&t(1, 0)).unwrap();
        assert_eq!(TensorMap::decode(&map.encode()), Some(map.clone()));
        // Every other channel: 4 of the 8.
        assert_eq!(map.box_counts(), [4, 4, 2, 1, 1]);
        assert_eq!(map.element(&[0, 1, 0, 0, 0], &[3, 0, 1, 0, 0]), Some(0x1000 + 6 * 2 + 16 + 96));
        let kind = |t: &Tiled| match TensorMap::tiled(t) {
            Ok(_) => "ok",
            Err(MapError::Invalid(_)) => "invalid",
            Err(MapError::Unsupported(_)) => "unsupported",
        };
        // 32-byte interleave: the 32-byte swizzle, strides in 32 bytes.
        assert_eq!(kind(&t(2, 0)), "invalid");
        assert_eq!(kind(&t(2, 1)), "invalid");
        let mut wide = t(2, 1);
        (wide.dims[0], wide.strides) = (16, vec![32, 192, 960]);
        assert_eq!(kind(&wide), "ok");
        // Rank 2, and a dimension 0 of two slices.
        let mut flat = t(1, 0);
        (flat.rank, flat.dims, flat.strides, flat.boxes, flat.element_strides) =
            (2, vec![8, 30], vec![16], vec![8, 4], vec![1, 1]);
        assert_eq!(kind(&flat), "invalid");
        let mut two = t(1, 0);
        (two.dims[0], two.strides[0]) = (16, 32);
        assert_eq!(kind(&two), "unsupported");
        // A dimension past 2^64 bytes is no overflow.
        two.dims[0] = u64::MAX;
        assert_ne!(kind(&two), "ok");
    }

    #[test]
    fn elements_outside_the_tensor_are_none_and_strides_step() {
        let map = TensorMap::tiled(&f32_2d(0)).unwrap();
        assert_eq!(map.element(&[0, 0, 0, 0, 0], &[0; 5]), Some(0x1000));
        // Row 2 * 3 + 1 = 7, column 5.
        assert_eq!(map.element(&[0, 1, 0, 0, 0], &[5, 3, 0, 0, 0]), Some(0x1000 + 7 * 416 + 5 * 4));
        assert_eq!(map.element(&[-1, 0, 0, 0, 0], &[0; 5]), None);
        assert_eq!(map.element(&[99, 0, 0, 0, 0], &[1, 0, 0, 0, 0]), None);
        assert_eq!(map.element(&[0, 68, 0, 0, 0], &[0, 1, 0, 0, 0]), None);
    }

    #[test]
    fn a_nan_fill_is_the_canonical_nan_of_the_type() {
        for (dtype, want) in [(6, 0x7fff), (9, 0x7fff), (7, 0x7fff_ffff), (8, 0x7fff_ffff_ffff_ffff)] {
            let mut t = f32_2d(0);
            (t.dtype, t.oob_fill, t.boxes[0]) = (dtype, 1, 32);
            assert_eq!(TensorMap::tiled(&t).unwrap().fill(), want, "type {dtype}");
        }
        assert_eq!(TensorMap::tiled(&f32_2d(0)).unwrap().fill(), 0);
    }

    /// An NHWC tensor of 2 images of 4 x 4 pixels of 32 float channels as an im2col
    /// map with a box of [-1, 2] in W and H: the lower corner -1, the upper corner -1
    /// from the last pixel.
    fn nhwc_2x4x4x32(pixels: u32, element_strides: Vec<u32>) -> TensorMap {
        let t = Tiled {
            dtype: 7,
            rank: 4,
            global: 0x1000,
            dims: vec![32, 4, 4, 2],
            strides: vec![128, 512, 2048],
            element_strides,
            ..Tiled::default()
        };
        let args = Im2colArgs { lower: vec![-1, -1], upper: vec![-1, -1], channels: 32, pixels };
        TensorMap::im2col(&t, &args).unwrap()
    }

    /// Each pixel's value in Triton's examples: its index in the tensor, from 1; 0
    /// outside.
    fn pixel_values(map: &TensorMap, at: [i32; 5], offsets: [i32; 3]) -> Vec<u64> {
        let value = |x: &[i64; 5]| map.address(x).map_or(0, |a| (a - 0x1000) / 128 + 1);
        map.im2col_pixels(&at, &offsets).iter().map(value).collect()
    }

    /// Triton's Gluon tutorial on TMA im2col (python/tutorials/gluon/13-tma-im2col.py,
    /// whose outputs come from Hopper and Blackwell GPUs), examples 5 and 3.
    #[test]
    fn im2col_traverses_the_box_wrapping_into_the_next_row_and_image() {
        let map = nhwc_2x4x4x32(16, vec![1; 4]);
        assert_eq!(TensorMap::decode(&map.encode()), Some(map.clone()));
        assert_eq!((map.box_counts(), map.box_bytes()), ([32, 16, 1, 1, 1], 32 * 16 * 4));
        // Example 5: from (n 0, h 1, w 2), offsets 0; padding reads 0, and past h = 2
        // the traversal goes on in image 1 at the box's corner (-1, -1).
        let want = [7, 0, 9, 10, 11, 0, 0, 0, 0, 0, 17, 18, 19, 0, 21, 22];
        assert_eq!(pixel_values(&map, [0, 2, 1, 0, 0], [0, 0, 0]), want);
        // Example 3: from the box's corner (-1, -1) with offsets (1, 1): the image.
        assert_eq!(pixel_values(&map, [0, -1, -1, 0, 0], [1, 1, 0]), (1..=16).collect::<Vec<_>>());
        // The channel is the first coordinate: channel 5 of pixel (0, 0, 0).
        assert_eq!(map.address(&[5, 0, 0, 0, 0]), Some(0x1000 + 20));
        assert_eq!(map.address(&[32, 0, 0, 0, 0]), None);
    }

    /// Bytes a kernel forges are no map unless a map could have them: a dimension past
    /// 2^31, or im2col fields outside CUDA's ranges, make them none; and a traversal
    /// over the largest dimensions a map may hold does not overflow.
    #[test]
    fn forged_map_bytes_are_refused() {
        let map = nhwc_2x4x4x32(16, vec![1; 4]);
        let mut bytes = map.encode();
        bytes[8 * 4..8 * 5].copy_from_slice(&(1u64 << 63).to_le_bytes());
        assert_eq!(TensorMap::decode(&bytes), None);
        let mut bytes = map.encode();
        // Channels (bits 34..43 of word 1) of 0.
        let w1 = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) & !(0x1ff << 34);
        bytes[8..16].copy_from_slice(&w1.to_le_bytes());
        assert_eq!(TensorMap::decode(&bytes), None);
        let mut big = map.clone();
        big.dims = [1 << 31; 5];
        assert_eq!(big.im2col_pixels(&[0, i32::MAX, i32::MAX, i32::MAX, 0], &[0; 3]).len(), 16);
    }

    /// A traversal stride of 2 in W and H visits the box's positions -1 and 1 (CUTLASS's
    /// count of them: (4 + -1 - -1 - 1) / 2 + 1 = 2 each).
    #[test]
    fn im2col_traversal_strides_step_inside_the_box() {
        let map = nhwc_2x4x4x32(6, vec![1, 2, 2, 1]);
        // (h, w) = (-1,-1) (-1,1) (1,-1) (1,1), then image 1: (-1,-1) (-1,1); offsets (1, 1).
        assert_eq!(pixel_values(&map, [0, -1, -1, 0, 0], [1, 1, 0]), [1, 3, 9, 11, 17, 19]);
    }

    #[test]
    fn im2col_arguments_are_checked_as_cuda_documents() {
        let t = |rank: u32| Tiled {
            dtype: 7,
            rank,
            global: 0x1000,
            dims: vec![32, 4, 4, 2, 2][..rank as usize].to_vec(),
            strides: vec![128, 512, 2048, 4096][..rank as usize - 1].to_vec(),
            element_strides: vec![1; rank as usize],
            ..Tiled::default()
        };
        let args = |lower: Vec<i32>, upper: Vec<i32>, channels, pixels| Im2colArgs {
            lower,
            upper,
            channels,
            pixels,
        };
        let invalid =
            |t: &Tiled, a: &Im2colArgs| matches!(TensorMap::im2col(t, a), Err(MapError::Invalid(_)));
        assert!(invalid(&t(2), &args(vec![], vec![], 32, 16)));
        // Corners: [-128, 127] for rank 4, [-16, 15] for rank 5.
        assert!(invalid(&t(4), &args(vec![-129, 0], vec![0, 0], 32, 16)));
        assert!(TensorMap::im2col(&t(4), &args(vec![-128, 0], vec![0, 0], 32, 16)).is_ok());
        assert!(invalid(&t(5), &args(vec![0, 16, 0], vec![0, 0, 0], 32, 16)));
        // An empty box: W from 3 to 4 - 1 - 1 = 2.
        assert!(invalid(&t(4), &args(vec![3, 0], vec![-1, 0], 32, 16)));
        assert!(invalid(&t(4), &args(vec![0, 0], vec![0, 0], 257, 16)));
        assert!(invalid(&t(4), &args(vec![0, 0], vec![0, 0], 32, 1025)));
        // 32 floats are 128 bytes: wider than a 64-byte swizzle.
        let mut s = t(4);
        s.swizzle = 2;
        assert!(invalid(&s, &args(vec![0, 0], vec![0, 0], 32, 16)));
        assert!(TensorMap::im2col(&s, &args(vec![0, 0], vec![0, 0], 16, 16)).is_ok());
    }

    #[test]
    fn a_128_byte_swizzle_xors_each_row_s_chunks_with_its_row() {
        let map = TensorMap::tiled(&f32_2d(3)).unwrap();
        // Row 3 of the box (bytes 384..512 from a 1024-aligned base): chunk c goes to c ^ 3.
        for c in 0..8u64 {
            let at = map.shared_offset(0x400, &[4 * c, 3, 0, 0, 0]);
            assert_eq!(at, 0x400 + 384 + 16 * (c ^ 3));
        }
        let plain = TensorMap::tiled(&f32_2d(0)).unwrap();
        assert_eq!(plain.shared_offset(0x400, &[4, 3, 0, 0, 0]), 0x400 + 384 + 16);
    }
}
