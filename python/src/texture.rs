//! `ptxvm.Texture` and `ptxvm.Surface`: texture and surface objects over NumPy
//! arrays, passed to a kernel's `cudaTextureObject_t` / `cudaSurfaceObject_t`
//! parameter. Their settings are the launch spec's (docs/launch-spec.md, "Textures
//! and surfaces"), checked by the same code; the texels come from the arrays.

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use ptxvm::launch::{ImageArg, TextureArg};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use serde_json::{Value, json};

/// The launch spec's name of a NumPy dtype that textures hold.
fn format_of(array: &Bound<'_, PyUntypedArray>) -> PyResult<&'static str> {
    let d = array.dtype();
    let name = match (d.kind(), d.itemsize()) {
        (b'u', 1) => "u8",
        (b'i', 1) => "s8",
        (b'u', 2) => "u16",
        (b'i', 2) => "s16",
        (b'u', 4) => "u32",
        (b'i', 4) => "s32",
        (b'f', 2) => "f16",
        (b'f', 4) => "f32",
        _ => {
            return Err(PyTypeError::new_err(format!(
                "texels of dtype {d}: textures hold uint8, int8, uint16, int16, uint32, int32, float16 or float32"
            )));
        }
    };
    if d.byteorder() == b'>' {
        return Err(PyTypeError::new_err(format!("texels of dtype {d} are big-endian")));
    }
    Ok(name)
}

/// The arrays of `data`: one array, or a list of arrays (mipmap levels).
fn arrays<'py>(data: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyUntypedArray>>> {
    if let Ok(a) = data.cast::<PyUntypedArray>() {
        return Ok(vec![a.clone()]);
    }
    let items: Vec<Bound<'py, PyAny>> = if let Ok(l) = data.cast::<PyList>() {
        l.iter().collect()
    } else if let Ok(t) = data.cast::<PyTuple>() {
        t.iter().collect()
    } else {
        return Err(PyTypeError::new_err("texels must be a NumPy array or a list of arrays (mipmap levels)"));
    };
    items
        .iter()
        .map(|i| {
            i.cast::<PyUntypedArray>()
                .cloned()
                .map_err(|_| PyTypeError::new_err("each mipmap level must be a NumPy array"))
        })
        .collect()
}

/// Width, height and depth of an array of texels (C order, channels last when
/// more than one), as the launch spec's `"dims"`.
fn dims_of(a: &Bound<'_, PyUntypedArray>, channels: u8) -> PyResult<Vec<usize>> {
    let mut shape = a.shape().to_vec();
    if channels > 1 {
        if shape.last() != Some(&usize::from(channels)) {
            return Err(PyValueError::new_err(format!(
                "an array of shape {:?} for {channels} channels: the last axis holds the channels",
                a.shape()
            )));
        }
        shape.pop();
    }
    if !(1..=3).contains(&shape.len()) {
        return Err(PyValueError::new_err(format!(
            "texels of shape {:?}: 1 to 3 axes besides channels",
            a.shape()
        )));
    }
    shape.reverse();
    Ok(shape)
}

/// The texels of every array, in order.
fn texels(arrays: &[Bound<'_, PyUntypedArray>]) -> PyResult<Vec<u8>> {
    let mut bytes = Vec::new();
    for a in arrays {
        let b: Vec<u8> = a.call_method1("tobytes", ("C",))?.extract()?;
        bytes.extend(b);
    }
    Ok(bytes)
}

fn spec_error(e: ptxvm::launch::SpecError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A texture object over NumPy texels, for a `cudaTextureObject_t` parameter.
///
/// `data` is an array (C order; with `channels` > 1 its last axis holds them) or a
/// list of arrays, one per mipmap level. The keywords are the launch spec's
/// texture fields: `shape` ("2d", "layered2d", "cubemap", ...), `memory` ("array",
/// "linear", "pitch2d"), `filter` and `mip_filter` ("point", "linear"), `address`
/// ("wrap", "clamp", "mirror", "border", or a list of them), `read` ("element",
/// "normalized"), `srgb`, `normalized_coords`, `seamless` (cubemaps), `border` (4
/// numbers), `lod_bias`, `min_lod`, `max_lod`. Raises ValueError for what CUDA
/// refuses.
#[pyclass(name = "Texture", module = "ptxvm", frozen)]
pub struct Texture {
    pub arg: TextureArg,
}

#[pymethods]
impl Texture {
    #[new]
    #[pyo3(signature = (data, *, channels=1, shape=None, memory="array", filter="point", mip_filter="point",
        address=None, read="element", srgb=false, normalized_coords=false, seamless=false, border=None,
        lod_bias=0.0, min_lod=0.0, max_lod=0.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        data: &Bound<'_, PyAny>,
        channels: u8,
        shape: Option<String>,
        memory: &str,
        filter: &str,
        mip_filter: &str,
        address: Option<&Bound<'_, PyAny>>,
        read: &str,
        srgb: bool,
        normalized_coords: bool,
        seamless: bool,
        border: Option<Vec<f64>>,
        lod_bias: f64,
        min_lod: f64,
        max_lod: f64,
    ) -> PyResult<Self> {
        let arrays = arrays(data)?;
        let Some(first) = arrays.first() else { return Err(PyValueError::new_err("no texels")) };
        let format = format_of(first)?;
        let mut v = json!({
            "format": format, "channels": channels, "dims": dims_of(first, channels)?,
            "levels": arrays.len(), "memory": memory, "filter": filter, "mip_filter": mip_filter,
            "read": read, "srgb": srgb, "normalized_coords": normalized_coords, "seamless": seamless,
            "lod_bias": lod_bias, "min_lod": min_lod, "max_lod": max_lod,
        });
        if let Some(s) = shape {
            v["shape"] = Value::String(s);
        }
        if let Some(b) = border {
            v["border"] = json!(b);
        }
        if let Some(a) = address {
            v["address"] = match a.extract::<String>() {
                Ok(s) => Value::String(s),
                Err(_) => json!(a.extract::<Vec<String>>()?),
            };
        }
        for a in &arrays[1..] {
            if format_of(a)? != format {
                return Err(PyTypeError::new_err("every mipmap level has the first level's dtype"));
            }
        }
        let bytes = texels(&arrays)?;
        let arg = ptxvm::launch::texture_with(&v, "texture", std::path::Path::new("."), Some(bytes))
            .map_err(spec_error)?;
        Ok(Texture { arg })
    }

    fn __repr__(&self) -> String {
        let i = &self.arg.image;
        format!("<ptxvm.Texture {:?} {}x{} {:?}>", i.shape, i.elem.name(), i.channels, i.dims)
    }
}

/// A surface object over a NumPy array, for a `cudaSurfaceObject_t` parameter: the
/// kernel's `suld`/`sust`/`sured` read and write the array, which holds what they
/// wrote after the launch. `shape` as for Texture ("2d", "layered2d", ...).
#[pyclass(name = "Surface", module = "ptxvm", frozen)]
pub struct Surface {
    /// The shape and format; its texels are the array's at each launch.
    arg: ImageArg,
    /// The array read before and written back after a launch.
    pub array: Py<PyUntypedArray>,
}

#[pymethods]
impl Surface {
    #[new]
    #[pyo3(signature = (array, *, channels=1, shape=None))]
    fn new(array: &Bound<'_, PyUntypedArray>, channels: u8, shape: Option<String>) -> PyResult<Self> {
        if !array.is_c_contiguous() {
            return Err(PyTypeError::new_err("a surface's array is C-contiguous (np.ascontiguousarray)"));
        }
        let mut v =
            json!({"format": format_of(array)?, "channels": channels, "dims": dims_of(array, channels)?});
        if let Some(s) = shape {
            v["shape"] = Value::String(s);
        }
        let bytes = texels(std::slice::from_ref(array))?;
        let mut arg = ptxvm::launch::image_with(&v, "surface", std::path::Path::new("."), true, Some(bytes))
            .map_err(spec_error)?;
        arg.bytes = Vec::new();
        Ok(Surface { arg, array: array.clone().unbind() })
    }

    fn __repr__(&self) -> String {
        let i = &self.arg;
        format!("<ptxvm.Surface {:?} {}x{} {:?}>", i.shape, i.elem.name(), i.channels, i.dims)
    }
}

impl Surface {
    /// The surface with the array's texels as they are now.
    ///
    /// # Errors
    /// `ValueError` when the array no longer has the surface's size.
    pub fn now(&self, py: Python<'_>) -> PyResult<ImageArg> {
        let bytes = texels(std::slice::from_ref(self.array.bind(py)))?;
        let want: u64 = self.arg.level_bytes(0);
        if bytes.len() as u64 != want {
            return Err(PyValueError::new_err(format!(
                "the surface's array holds {} bytes now, {want} when it was made",
                bytes.len()
            )));
        }
        Ok(ImageArg { bytes, ..self.arg.clone() })
    }
}
