//! CUDA arrays (`cuArrayCreate`, `cuArray3DCreate`): texels of one format and one
//! to four channels, in 1D, 2D, 3D, layered or cubemap shape, for textures and
//! surfaces. Their layout is ptxvm's own and opaque, as on a GPU: rows of `Width`
//! texels, `Height` rows to a slice (or layer, or cube face), in device memory the
//! driver allocates. Copies reach them as `CU_MEMORYTYPE_ARRAY`. A mipmapped array
//! is its levels, each an array of half the size of the one before (at least 1).

use crate::error;
use crate::memory::alloc;
use crate::state::{self, Driver, MemKind};
use crate::types::{CUresult, Handle};
use ptxvm::api::Format;
use std::ffi::c_void;

/// `CUDA_ARRAY3D_*` flags: layered, surface load/store, cubemap, texture gather.
pub const LAYERED: u32 = 0x01;
pub const SURFACE_LDST: u32 = 0x02;
pub const CUBEMAP: u32 = 0x04;
const FLAGS: u32 = LAYERED | SURFACE_LDST | CUBEMAP | 0x08;

/// `CUDA_ARRAY_DESCRIPTOR`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct ArrayDescriptor {
    pub width: usize,
    pub height: usize,
    pub format: u32,
    pub num_channels: u32,
}

/// `CUDA_ARRAY3D_DESCRIPTOR`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct Array3DDescriptor {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: u32,
    pub num_channels: u32,
    pub flags: u32,
}

/// An array: its shape as created, and where its texels are.
#[derive(Debug, Clone, Copy)]
pub struct ArrayEntry {
    pub ctx: u64,
    pub desc: Array3DDescriptor,
    /// Its texels in device memory.
    pub data: u64,
}

impl ArrayEntry {
    /// Bytes of one texel (all channels; the format was checked when it was made).
    pub fn texel(&self) -> usize {
        Format::from_cu(self.desc.format, self.desc.num_channels).map_or(0, |f| f.texel_bytes() as usize)
    }

    /// Bytes of a row.
    pub fn row(&self) -> usize {
        self.desc.width * self.texel()
    }

    /// Rows in a slice (1 for a 1D array).
    pub fn height(&self) -> usize {
        self.desc.height.max(1)
    }

    /// Slices, layers or faces (1 for a 1D or 2D array).
    pub fn depth(&self) -> usize {
        self.desc.depth.max(1)
    }

    pub fn bytes(&self) -> usize {
        self.row() * self.height() * self.depth()
    }
}

/// Makes an array of shape `desc`.
fn create(d: &mut Driver, desc: Array3DDescriptor) -> Result<u64, CUresult> {
    let bad = |why: String| Err(crate::fail(error::INVALID_VALUE, why));
    if Format::from_cu(desc.format, 1).is_none() {
        return bad(format!(
            "array format {:#x} is not one ptxvm holds (8/16/32-bit integers, half, float)",
            desc.format
        ));
    }
    if Format::from_cu(desc.format, desc.num_channels).is_none() {
        return bad(format!("an array has 1, 2 or 4 channels, not {}", desc.num_channels));
    }
    if desc.flags & !FLAGS != 0 {
        return bad(format!("array flags {:#x} are not ones ptxvm knows", desc.flags));
    }
    if desc.width == 0 || (desc.height == 0 && desc.depth != 0 && desc.flags & LAYERED == 0) {
        return bad(format!("an array of {} x {} x {} texels", desc.width, desc.height, desc.depth));
    }
    if desc.flags & CUBEMAP != 0
        && (desc.width != desc.height || desc.depth == 0 || !desc.depth.is_multiple_of(6))
    {
        return bad("a cubemap has square faces and a depth of 6 (times its layers)".into());
    }
    let mut entry = ArrayEntry { ctx: d.ctx()?, desc, data: 0 };
    let total = entry
        .row()
        .checked_mul(entry.height())
        .and_then(|b| b.checked_mul(entry.depth()))
        .ok_or_else(|| crate::fail(error::OUT_OF_MEMORY, "the array's size overflows"))?;
    entry.data = alloc(d, total.max(1), MemKind::Device, "a CUDA array")?;
    let h = d.handle();
    d.arrays.insert(h, entry);
    Ok(h)
}

/// The levels of a mipmapped array `desc` with `levels` levels: each dimension
/// halved per level, at least 1 (0 stays 0: a 1D or 2D array).
fn level_shapes(desc: Array3DDescriptor, levels: u32) -> Result<Vec<Array3DDescriptor>, CUresult> {
    let layered = desc.flags & (LAYERED | CUBEMAP) != 0;
    let largest = desc.width.max(desc.height).max(if layered { 0 } else { desc.depth });
    let most = usize::BITS - largest.leading_zeros();
    if levels == 0 || levels > most {
        let why =
            format!("a mipmapped array of largest dimension {largest} has 1 to {most} levels, not {levels}");
        return Err(crate::fail(error::INVALID_VALUE, why));
    }
    let half = |n: usize, l: u32| if n == 0 { 0 } else { (n >> l).max(1) };
    Ok((0..levels)
        .map(|l| Array3DDescriptor {
            width: half(desc.width, l),
            height: half(desc.height, l),
            // Layers and faces are not halved.
            depth: if layered { desc.depth } else { half(desc.depth, l) },
            ..desc
        })
        .collect())
}

/// Frees the arrays of a mipmapped array's levels.
pub(crate) fn free_levels(d: &mut Driver, levels: &[u64]) {
    for a in levels {
        if let Some(entry) = d.arrays.remove(a) {
            d.free(entry.data);
        }
    }
}

/// Array `h`, checked.
/// The device address of byte `offset` of array `h`, its texels read as one run
/// (rows follow rows, slices slices): `bytes` from there must stay inside it.
fn linear(h: Handle, offset: usize, bytes: usize) -> Result<u64, CUresult> {
    let a = crate::state::with(|d| get(d, h))?;
    let size = a.row() * a.height() * a.depth();
    if offset.checked_add(bytes).is_none_or(|end| end > size) {
        let why = format!("{bytes} bytes at byte {offset} reach past the array's {size}");
        return Err(crate::fail(error::INVALID_VALUE, why));
    }
    Ok(a.data + offset as u64)
}

pub(crate) fn get(d: &Driver, h: Handle) -> Result<ArrayEntry, CUresult> {
    d.arrays
        .get(&(h as u64))
        .copied()
        .ok_or_else(|| crate::fail(error::INVALID_HANDLE, format!("{h:?} is not a CUDA array")))
}

crate::api! {
    fn cuArrayCreate_v2(handle: *mut Handle, desc: *const ArrayDescriptor) {
        if desc.is_null() || handle.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_ARRAY_DESCRIPTOR*` the caller filled.
        let a = unsafe { *desc };
        let d3 = Array3DDescriptor {
            width: a.width,
            height: a.height,
            depth: 0,
            format: a.format,
            num_channels: a.num_channels,
            flags: 0,
        };
        let h = state::with(|d| create(d, d3))?;
        crate::out(handle, h as Handle)
    }

    fn cuArray3DCreate_v2(handle: *mut Handle, desc: *const Array3DDescriptor) {
        if desc.is_null() || handle.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_ARRAY3D_DESCRIPTOR*` the caller filled.
        let a = unsafe { *desc };
        let h = state::with(|d| create(d, a))?;
        crate::out(handle, h as Handle)
    }

    fn cuArrayDestroy(handle: Handle) {
        state::with(|d| {
            let a = get(d, handle)?;
            if d.mipmaps.values().any(|levels| levels.contains(&(handle as u64))) {
                let why = "a level of a mipmapped array goes with it (cuMipmappedArrayDestroy)";
                return Err(crate::fail(error::INVALID_VALUE, why));
            }
            d.arrays.remove(&(handle as u64));
            d.free(a.data);
            Ok(())
        })
    }

    fn cuArrayGetDescriptor_v2(desc: *mut ArrayDescriptor, handle: Handle) {
        let a = state::with(|d| get(d, handle))?;
        let flat = ArrayDescriptor {
            width: a.desc.width,
            height: a.desc.height,
            format: a.desc.format,
            num_channels: a.desc.num_channels,
        };
        crate::out(desc, flat)
    }

    fn cuArray3DGetDescriptor_v2(desc: *mut Array3DDescriptor, handle: Handle) {
        let a = state::with(|d| get(d, handle))?;
        crate::out(desc, a.desc)
    }

    fn cuMipmappedArrayCreate(handle: *mut Handle, desc: *const Array3DDescriptor, num_levels: u32) {
        if desc.is_null() || handle.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: a non-NULL `CUDA_ARRAY3D_DESCRIPTOR*` the caller filled.
        let shapes = level_shapes(unsafe { *desc }, num_levels)?;
        let h = state::with(|d| {
            let mut levels = Vec::with_capacity(shapes.len());
            for shape in shapes {
                match create(d, shape) {
                    Ok(a) => levels.push(a),
                    Err(e) => {
                        free_levels(d, &levels);
                        return Err(e);
                    }
                }
            }
            let h = d.handle();
            d.mipmaps.insert(h, levels);
            Ok(h)
        })?;
        crate::out(handle, h as Handle)
    }

    fn cuMipmappedArrayGetLevel(level_array: *mut Handle, handle: Handle, level: u32) {
        let a = state::with(|d| {
            let levels = d.mipmaps.get(&(handle as u64)).ok_or_else(|| {
                crate::fail(error::INVALID_HANDLE, format!("{handle:?} is not a mipmapped array"))
            })?;
            levels.get(level as usize).copied().ok_or_else(|| {
                crate::fail(error::INVALID_VALUE, format!("level {level} of a mipmapped array of {} levels", levels.len()))
            })
        })?;
        crate::out(level_array, a as Handle)
    }

    fn cuMipmappedArrayDestroy(handle: Handle) {
        state::with(|d| {
            let levels = d.mipmaps.remove(&(handle as u64)).ok_or_else(|| {
                crate::fail(error::INVALID_HANDLE, format!("{handle:?} is not a mipmapped array"))
            })?;
            free_levels(d, &levels);
            Ok(())
        })
    }

    fn cuMemcpyAtoH_v2(dst_host: *mut c_void, src_array: Handle, src_offset: usize, byte_count: usize) also cuMemcpyAtoH_v2_ptds {
        let src = linear(src_array, src_offset, byte_count)?;
        crate::memory::any(dst_host as u64, src, byte_count)
    }

    fn cuMemcpyHtoA_v2(dst_array: Handle, dst_offset: usize, src_host: *const c_void, byte_count: usize) also cuMemcpyHtoA_v2_ptds {
        let dst = linear(dst_array, dst_offset, byte_count)?;
        crate::memory::any(dst, src_host as u64, byte_count)
    }

    fn cuMemcpyAtoD_v2(dst_device: u64, src_array: Handle, src_offset: usize, byte_count: usize) also cuMemcpyAtoD_v2_ptds {
        let src = linear(src_array, src_offset, byte_count)?;
        crate::memory::any(dst_device, src, byte_count)
    }

    fn cuMemcpyDtoA_v2(dst_array: Handle, dst_offset: usize, src_device: u64, byte_count: usize) also cuMemcpyDtoA_v2_ptds {
        let dst = linear(dst_array, dst_offset, byte_count)?;
        crate::memory::any(dst, src_device, byte_count)
    }

    fn cuMemcpyAtoA_v2(dst_array: Handle, dst_offset: usize, src_array: Handle, src_offset: usize, byte_count: usize) also cuMemcpyAtoA_v2_ptds {
        let dst = linear(dst_array, dst_offset, byte_count)?;
        let src = linear(src_array, src_offset, byte_count)?;
        crate::memory::any(dst, src, byte_count)
    }

    fn cuMemcpyHtoAAsync_v2(dst_array: Handle, dst_offset: usize, src_host: *const c_void, byte_count: usize, stream: Handle) also cuMemcpyHtoAAsync_v2_ptsz {
        let dst = linear(dst_array, dst_offset, byte_count)?;
        crate::graph::submit(stream as u64, crate::graph::Work::Copy { dst, src: src_host as u64, bytes: byte_count })
    }

    fn cuMemcpyAtoHAsync_v2(dst_host: *mut c_void, src_array: Handle, src_offset: usize, byte_count: usize, stream: Handle) also cuMemcpyAtoHAsync_v2_ptsz {
        let src = linear(src_array, src_offset, byte_count)?;
        crate::graph::submit(stream as u64, crate::graph::Work::Copy { dst: dst_host as u64, src, bytes: byte_count })
    }

}
