//! Python values to a launch: grid and block dimensions, the kernel's parameter
//! buffer, and the NumPy arrays that stand for device buffers.
//!
//! Each argument is checked against the type the kernel declares for its parameter
//! (`Kernel::params`), as the launch contract checks a JSON spec: a NumPy scalar must
//! have the parameter's size and kind (any kind for a bit-size `.bN` parameter), a
//! Python `int` fills an integer or bit-size parameter it fits in, a Python `float`
//! an `.f32` or `.f64` one, `bytes` a parameter of exactly its size (a struct passed
//! by value), and an array a 64-bit parameter, which receives its device address.
//!
//! Arrays whose memory overlaps (the same array twice, views of one array) share one
//! device allocation with the same offsets between them, so a kernel sees the
//! aliasing it would see on a GPU.

use numpy::npyffi::flags::NPY_ARRAY_WRITEABLE;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use ptxvm::api::{Device, Kernel};
use ptxvm::check::types::{Class, Ty};
use ptxvm::launch::Dim3;
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyList, PyTuple};

/// `grid` or `block`: an int or a tuple of 1 to 3 ints, each from 1 to its axis's
/// limit in `max`.
///
/// # Errors
/// `TypeError` for another kind of value, `ValueError` for a dimension out of range.
pub fn dim3(value: &Bound<'_, PyAny>, what: &str, max: Dim3) -> PyResult<Dim3> {
    let items: Vec<Bound<'_, PyAny>> = if let Ok(t) = value.cast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(l) = value.cast::<PyList>() {
        l.iter().collect()
    } else {
        vec![value.clone()]
    };
    if !(1..=3).contains(&items.len()) {
        let msg = format!("{what} must be an int or a tuple of 1 to 3 ints, got {} items", items.len());
        return Err(PyValueError::new_err(msg));
    }
    let limits = [max.x, max.y, max.z];
    let mut d = [1u32; 3];
    for (k, item) in items.iter().enumerate() {
        let axis = ["x", "y", "z"][k];
        if !item.is_instance_of::<PyInt>() && !is_numpy_integer(item)? {
            let msg =
                format!("{what} must be an int or a tuple of 1 to 3 ints; {axis} is {}", type_name(item));
            return Err(PyTypeError::new_err(msg));
        }
        let n: i128 = item.call_method0("__index__")?.extract()?;
        if n < 1 || n > i128::from(limits[k]) {
            let msg = format!("{what}: {axis} is {n}; it must be from 1 to {}", limits[k]);
            return Err(PyValueError::new_err(msg));
        }
        d[k] = n as u32;
    }
    Ok(Dim3 { x: d[0], y: d[1], z: d[2] })
}

/// An array argument: where its bytes are on the host and which parameter takes its
/// device address.
pub struct HostArray<'py> {
    /// Kept so the memory stays alive and for messages.
    _array: Bound<'py, PyUntypedArray>,
    ptr: *mut u8,
    len: usize,
    /// The argument's index: the parameter that takes its address, and the name
    /// fault reports give it (`args[2]`).
    arg: usize,
}

/// Each parameter's bytes (zeros where array addresses go until [`Packed::place`]),
/// the arrays, and once placed, each group of overlapping arrays as its host start,
/// length and device address. [`Packed::params`] packs them by the kernel's list.
pub struct Packed<'py> {
    values: Vec<Vec<u8>>,
    arrays: Vec<HostArray<'py>>,
    regions: Vec<(*mut u8, usize, u64)>,
    /// Texture and surface objects, by argument; made on the device by `place`.
    objects: Vec<(usize, Object<'py>)>,
    /// Each surface's array and where its texels are on the device, once placed.
    surfaces: Vec<(Bound<'py, PyUntypedArray>, u64, usize)>,
}

/// A texture or surface argument.
enum Object<'py> {
    Texture(Bound<'py, crate::texture::Texture>),
    Surface(ptxvm::launch::ImageArg, Bound<'py, PyUntypedArray>),
}

/// A parameter's type as messages show it: `.f32`, or `.b8[16]` for an array
/// parameter (a struct passed by value).
pub fn param_type(ty: Ty, size: u32) -> String {
    let natural = (ty.bits() / 8).max(1);
    if size == natural { ty.word().to_string() } else { format!("{}[{}]", ty.word(), size / natural) }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().map_or_else(|_| "object".to_string(), |n| n.to_string())
}

fn numpy_generic<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
    py.import("numpy")?.getattr("generic")
}

fn is_numpy_integer(value: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = value.py();
    value.is_instance(&py.import("numpy")?.getattr("integer")?)
}

/// Packs `args` (a tuple or list, one per parameter) for `kernel`.
///
/// # Errors
/// `TypeError` for a wrong count or an argument that does not fit its parameter,
/// `OverflowError` for a Python int out of the parameter's range.
pub fn pack<'py>(kernel: &Kernel, args: &Bound<'py, PyAny>) -> PyResult<Packed<'py>> {
    let items: Vec<Bound<'py, PyAny>> = if let Ok(t) = args.cast::<PyTuple>() {
        t.iter().collect()
    } else if let Ok(l) = args.cast::<PyList>() {
        l.iter().collect()
    } else {
        let msg = format!("args must be a tuple of the kernel's arguments, not {}", type_name(args));
        return Err(PyTypeError::new_err(msg));
    };
    let name = &kernel.name;
    if items.len() != kernel.params.len() {
        let msg = format!("kernel `{name}` takes {} arguments, {} given", kernel.params.len(), items.len());
        return Err(PyTypeError::new_err(msg));
    }
    let mut values = Vec::with_capacity(items.len());
    let mut arrays = Vec::new();
    let mut objects = Vec::new();
    for (k, (item, &(ty, _, size))) in items.iter().zip(&kernel.params).enumerate() {
        let declared = param_type(ty, size);
        let plural = if size == 1 { "" } else { "s" };
        let param = format!("parameter {k} of type {declared} ({size} byte{plural})");
        let mismatch =
            |what: String| PyTypeError::new_err(format!("kernel `{name}`, argument {k}: {what} for {param}"));
        let overflow = |v: i128, lo: i128, hi: i128| {
            let msg =
                format!("kernel `{name}`, argument {k}: {v} is outside {lo}..={hi}, the range of {param}");
            PyOverflowError::new_err(msg)
        };
        if let Ok(t) = item.cast::<crate::texture::Texture>() {
            if size != 8 {
                return Err(mismatch("a texture object (a 64-bit handle)".to_string()));
            }
            objects.push((k, Object::Texture(t.clone())));
            values.push(vec![0; 8]);
            continue;
        }
        if let Ok(sf) = item.cast::<crate::texture::Surface>() {
            if size != 8 {
                return Err(mismatch("a surface object (a 64-bit handle)".to_string()));
            }
            let s = sf.get();
            let array = s.array.bind(item.py()).clone();
            host_array(array.clone(), &format!("kernel `{name}`, argument {k}"), k)?;
            objects.push((k, Object::Surface(s.now(item.py())?, array)));
            values.push(vec![0; 8]);
            continue;
        }
        if let Ok(array) = item.cast::<PyUntypedArray>() {
            if size != 8 {
                return Err(mismatch("an array (a 64-bit device address)".to_string()));
            }
            let prefix = format!("kernel `{name}`, argument {k}");
            arrays.push(host_array(array.clone(), &prefix, k)?);
            values.push(vec![0; 8]);
            continue;
        }
        values.push(scalar_bytes(item, ty, size, &mismatch, &overflow)?);
    }
    Ok(Packed { values, arrays, regions: Vec::new(), objects, surfaces: Vec::new() })
}

/// A contiguous, writeable array's memory.
fn host_array<'py>(array: Bound<'py, PyUntypedArray>, prefix: &str, arg: usize) -> PyResult<HostArray<'py>> {
    if !array.is_contiguous() {
        let msg = format!(
            "{prefix}: the array is not contiguous; a device buffer is one block of memory \
             (pass np.ascontiguousarray(a) and read the result from that copy)"
        );
        return Err(PyTypeError::new_err(msg));
    }
    // SAFETY: `array` is a live NumPy array (checked by the cast), so its object
    // pointer is a valid `PyArrayObject`; only its fields are read.
    let (data, flags) = unsafe {
        let raw = array.as_array_ptr();
        ((*raw).data, (*raw).flags)
    };
    if flags & NPY_ARRAY_WRITEABLE == 0 {
        let msg = format!(
            "{prefix}: the array is read-only; every array is copied back after the launch \
             (pass a writeable copy, np.array(a))"
        );
        return Err(PyTypeError::new_err(msg));
    }
    // The kernel sees raw bytes: plain numbers in the machine's order, no objects.
    let dtype = array.dtype();
    if dtype.has_object() || !matches!(dtype.kind(), b'b' | b'i' | b'u' | b'f' | b'c' | b'V') {
        let msg = format!(
            "{prefix}: an array of dtype {} is not plain numbers; device memory holds bytes \
             (pass an array of a numeric dtype)",
            dtype
        );
        return Err(PyTypeError::new_err(msg));
    }
    if dtype.byteorder() == b'>' {
        let msg = format!(
            "{prefix}: the array is big-endian ({dtype}); the kernel would read its bytes swapped \
             (pass a.astype(a.dtype.newbyteorder('<')))"
        );
        return Err(PyTypeError::new_err(msg));
    }
    let len = array.len() * dtype.itemsize();
    Ok(HostArray { _array: array, ptr: data.cast::<u8>(), len, arg })
}

/// The bytes of a scalar argument for a parameter of type `ty` and `size` bytes.
fn scalar_bytes(
    item: &Bound<'_, PyAny>,
    ty: Ty,
    size: u32,
    mismatch: &dyn Fn(String) -> PyErr,
    overflow: &dyn Fn(i128, i128, i128) -> PyErr,
) -> PyResult<Vec<u8>> {
    let py = item.py();
    let class = ty.class();
    if let Ok(b) = item.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        if bytes.len() != size as usize {
            return Err(mismatch(format!("{} bytes", bytes.len())));
        }
        return Ok(bytes.to_vec());
    }
    // NumPy scalars first: np.float64 is also a Python float.
    if item.is_instance(&numpy_generic(py)?)? {
        let dtype = item.getattr("dtype")?;
        let kind: char = dtype.getattr("kind")?.extract()?;
        let itemsize: usize = dtype.getattr("itemsize")?.extract()?;
        let what = format!("numpy.{} ({itemsize} bytes)", type_name(item));
        if itemsize != size as usize {
            return Err(mismatch(what));
        }
        let fits = match class {
            Class::Bit => true,
            Class::Unsigned | Class::Signed => matches!(kind, 'b' | 'i' | 'u'),
            // np.float16/32/64 for .f16/.f32/.f64; packed and bf16 types take their bits.
            Class::Float if matches!(ty, Ty::F16 | Ty::F32 | Ty::F64) => kind == 'f',
            _ => matches!(kind, 'b' | 'i' | 'u' | 'V'),
        } || kind == 'V';
        if !fits {
            return Err(mismatch(what));
        }
        return item.call_method0("tobytes")?.extract();
    }
    if item.is_instance_of::<PyInt>() {
        let v: i128 = item.extract()?;
        let what = if item.is_instance_of::<PyBool>() { "a Python bool" } else { "a Python int" };
        if !matches!(class, Class::Bit | Class::Unsigned | Class::Signed) || size > 8 {
            let hint = if matches!(ty, Ty::F32 | Ty::F64) { "a float" } else { "a NumPy scalar of its type" };
            return Err(mismatch(format!("{what} (pass {hint})")));
        }
        let bits = 8 * size;
        // A bit-size parameter takes the signed and the unsigned range of its width.
        let (lo, hi) = match class {
            Class::Unsigned => (0, (1i128 << bits) - 1),
            Class::Signed => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            _ => (-(1i128 << (bits - 1)), (1i128 << bits) - 1),
        };
        if v < lo || v > hi {
            return Err(overflow(v, lo, hi));
        }
        return Ok(v.to_le_bytes()[..size as usize].to_vec());
    }
    if let Ok(f) = item.cast::<PyFloat>() {
        let v = f.value();
        return match ty {
            Ty::F32 => Ok((v as f32).to_le_bytes().to_vec()),
            Ty::F64 => Ok(v.to_le_bytes().to_vec()),
            _ => Err(mismatch("a Python float (pass a NumPy scalar of the parameter's type)".to_string())),
        };
    }
    Err(mismatch(format!(
        "a {} (expected a NumPy array, a NumPy scalar, an int, a float or bytes)",
        type_name(item)
    )))
}

impl Packed<'_> {
    /// The parameter buffer, packed by the library's one packing path.
    ///
    /// # Errors
    /// `TypeError` when a value does not fit its parameter (checked before, so not
    /// expected).
    pub fn params(&self, kernel: &Kernel) -> PyResult<Vec<u8>> {
        kernel.pack(self.values.iter().map(Vec::as_slice)).map_err(|e| PyTypeError::new_err(e.to_string()))
    }

    /// Allocates and fills device memory for the arrays, each group of overlapping
    /// arrays in one allocation, and writes their addresses into the parameters.
    ///
    /// # Errors
    /// `MemoryError` when the device cannot allocate an array.
    pub fn place(&mut self, device: &mut Device) -> PyResult<()> {
        let mut order: Vec<(usize, usize, usize)> =
            self.arrays.iter().map(|a| (a.ptr as usize, a.len, a.arg)).collect();
        order.sort_unstable();
        let mut k = 0;
        while k < order.len() {
            let start = order[k].0;
            let mut end = start + order[k].1;
            let mut members = k + 1;
            while members < order.len() && order[members].0 < end {
                end = end.max(order[members].0 + order[members].1);
                members += 1;
            }
            let len = end - start;
            let too_large = |e| {
                PyMemoryError::new_err(format!("cannot place an array of {len} bytes in device memory: {e}"))
            };
            let addr = device.alloc(len as u64).map_err(too_large)?;
            if len > 0 {
                // SAFETY: [start, end) is covered by the arrays of this group, which
                // overlap one another, so it lies in one live host allocation: `self`
                // holds the arrays, and the caller the GIL.
                let host = unsafe { std::slice::from_raw_parts(start as *const u8, len) };
                device.copy_to_device(addr, host).map_err(too_large)?;
            }
            let mut args: Vec<String> = order[k..members].iter().map(|m| format!("args[{}]", m.2)).collect();
            args.dedup();
            device.label(addr, args.join(" and "));
            for &(ptr, _, arg) in &order[k..members] {
                let at = addr + (ptr - start) as u64;
                self.values[arg] = at.to_le_bytes().to_vec();
            }
            self.regions.push((start as *mut u8, len, addr));
            k = members;
        }
        for (k, object) in &self.objects {
            let at = |e: String| PyValueError::new_err(format!("argument {k}: {e}"));
            let handle = match object {
                Object::Texture(t) => {
                    let t = &t.get().arg;
                    let resource = device.place_texels(&t.image, *k).map_err(at)?;
                    let texture = ptxvm::api::Texture { resource, sampler: t.sampler() };
                    device.create_texture(texture).map_err(|e| at(e.to_string()))?
                }
                Object::Surface(i, array) => {
                    let ptxvm::api::Resource::Array { shape, levels } =
                        device.place_texels(i, *k).map_err(at)?
                    else {
                        return Err(at("a surface is an array".into()));
                    };
                    self.surfaces.push((array.clone(), levels[0].base, i.bytes.len()));
                    device.create_surface(levels[0], shape)
                }
            };
            self.values[*k] = handle.to_le_bytes().to_vec();
        }
        Ok(())
    }

    /// Copies device memory back into the arrays.
    ///
    /// # Errors
    /// `MemoryError` if a region cannot be read back (it was allocated whole).
    pub fn copy_back(&self, device: &Device) -> PyResult<()> {
        for &(start, len, addr) in self.regions.iter().filter(|r| r.1 > 0) {
            let data = device
                .read_to_vec(addr, len)
                .map_err(|e| PyMemoryError::new_err(format!("cannot read an array back: {e}")))?;
            // SAFETY: as in `place`: the region lies in the live memory of the arrays,
            // all checked writeable; `self` holds them, and the caller the GIL.
            unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), start, len) };
        }
        for (array, addr, len) in &self.surfaces {
            let data = device
                .read_to_vec(*addr, *len)
                .map_err(|e| PyMemoryError::new_err(format!("cannot read a surface back: {e}")))?;
            // SAFETY: `array` is a live, C-contiguous, writeable NumPy array (checked
            // when the surface was made and by `host_array` at packing) of exactly
            // `len` bytes (the surface's texels came from it); the caller holds the GIL.
            unsafe {
                let raw = array.as_array_ptr();
                std::ptr::copy_nonoverlapping(data.as_ptr(), (*raw).data.cast::<u8>(), *len);
            }
        }
        Ok(())
    }
}
