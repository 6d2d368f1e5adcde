//! The launch spec and result JSON of the command-line contract
//! (`docs/launch-spec.md`): which kernel, the grid and block shape, dynamic
//! shared memory, and one argument per kernel parameter (a scalar or a global-memory
//! buffer), with values given as JSON numbers or exact bit patterns. Values are
//! converted here once, to the bits the kernel will see; results are printed back
//! as integers or the shortest decimal that round-trips in the element's own type.

use serde_json::Value;
use std::path::Path;

/// An error in a launch spec, naming where in the JSON it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct SpecError {
    pub path: String,
    pub message: String,
}

fn err<T>(path: &str, message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError { path: path.to_string(), message: message.into() })
}

/// The element type of a scalar argument or a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    U8,
    S8,
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
    B8,
    B16,
    B32,
    B64,
    F16,
    BF16,
    F32,
    F64,
}

impl ElemType {
    pub fn from_name(s: &str) -> Option<ElemType> {
        use ElemType::*;
        Some(match s {
            "u8" => U8,
            "s8" => S8,
            "u16" => U16,
            "s16" => S16,
            "u32" => U32,
            "s32" => S32,
            "u64" => U64,
            "s64" => S64,
            "b8" => B8,
            "b16" => B16,
            "b32" => B32,
            "b64" => B64,
            "f16" => F16,
            "bf16" => BF16,
            "f32" => F32,
            "f64" => F64,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        use ElemType::*;
        match self {
            U8 => "u8",
            S8 => "s8",
            U16 => "u16",
            S16 => "s16",
            U32 => "u32",
            S32 => "s32",
            U64 => "u64",
            S64 => "s64",
            B8 => "b8",
            B16 => "b16",
            B32 => "b32",
            B64 => "b64",
            F16 => "f16",
            BF16 => "bf16",
            F32 => "f32",
            F64 => "f64",
        }
    }

    pub fn bytes(self) -> usize {
        use ElemType::*;
        match self {
            U8 | S8 | B8 => 1,
            U16 | S16 | B16 | F16 | BF16 => 2,
            U32 | S32 | B32 | F32 => 4,
            U64 | S64 | B64 | F64 => 8,
        }
    }

    fn bits(self) -> u32 {
        self.bytes() as u32 * 8
    }

    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, ElemType::S8 | ElemType::S16 | ElemType::S32 | ElemType::S64)
    }

    /// Bit-size types take any value of their width, signed or not.
    pub fn is_bits(self) -> bool {
        matches!(self, ElemType::B8 | ElemType::B16 | ElemType::B32 | ElemType::B64)
    }
}

/// A grid or block shape (defined with the threads it shapes).
pub use crate::exec::threads::Dim3;

/// One kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A value passed in the parameter itself, as its bits.
    Scalar { ty: ElemType, bits: u64 },
    /// A buffer in global memory (its device address is passed), as little-endian
    /// bytes; `name` (the spec's `"name"`) names its file under `--out-dir`.
    Buffer { elem: ElemType, bytes: Vec<u8>, name: Option<String> },
    /// A buffer whose contents are the data of a `.npy` file, read straight into
    /// device memory when the spec is bound: `len` elements of `elem`, as the
    /// file's header said when the spec was read.
    NpyBuffer { elem: ElemType, path: std::path::PathBuf, len: u64, name: Option<String> },
    /// A parameter given byte by byte (`{"type": "bytes", "value": "0x0a0b.."}`): a
    /// struct passed by value, of any size. The first byte goes to the lowest address.
    /// Only the size must match the parameter's: the bytes may stand for any type.
    Bytes(Vec<u8>),
    /// A texture object over texels the spec gives (`{"texture": {...}}`): the
    /// parameter (64-bit) receives its handle.
    Texture(Box<TextureArg>),
    /// A surface object over an array the spec gives (`{"surface": {...}}`): the
    /// parameter receives its handle, and the result holds its texels after the run.
    Surface(Box<ImageArg>),
}

/// Where a texture's texels are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageMemory {
    /// A CUDA array (or a mipmapped one).
    Array,
    /// Linear memory (`tex1Dfetch`).
    Linear,
    /// Pitched 2D memory.
    Pitch2D,
}

/// The texels of a texture or surface argument and their shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageArg {
    /// The element type of a channel: u8 s8 u16 s16 u32 s32 f16 f32.
    pub elem: ElemType,
    pub channels: u8,
    /// Width, height and depth (layers for layered shapes, 6 faces a layer for
    /// cubemaps); 0 where the shape has no such axis.
    pub dims: [u32; 3],
    pub shape: crate::exec::texture::Shape,
    /// Mipmap levels (1: a plain array).
    pub levels: u32,
    pub memory: ImageMemory,
    /// Every level's texels in order, rows of width texels, channels interleaved.
    pub bytes: Vec<u8>,
    pub name: Option<String>,
}

impl ImageArg {
    /// The width, height and depth of level `l` (layers and faces are not halved).
    pub fn level_dims(&self, l: u32) -> [u32; 3] {
        use crate::exec::texture::Shape;
        let half = |n: u32| if n == 0 { 0 } else { (n >> l).max(1) };
        let layered =
            matches!(self.shape, Shape::Layered1D | Shape::Layered2D | Shape::Cube | Shape::LayeredCube);
        [half(self.dims[0]), half(self.dims[1]), if layered { self.dims[2] } else { half(self.dims[2]) }]
    }

    /// The library's texel format.
    pub fn format(&self) -> crate::exec::texture::Format {
        use crate::exec::texture::ChannelKind;
        let kind = if self.elem.is_float() {
            ChannelKind::Float
        } else if self.elem.is_signed() {
            ChannelKind::Signed
        } else {
            ChannelKind::Unsigned
        };
        crate::exec::texture::Format { kind, bits: self.elem.bits() as u8, channels: self.channels }
    }

    /// Bytes of level `l`.
    pub fn level_bytes(&self, l: u32) -> u64 {
        let [w, h, d] = self.level_dims(l);
        u64::from(w) * u64::from(h.max(1)) * u64::from(d.max(1)) * self.format().texel_bytes()
    }
}

/// How a texture argument reads: CUDA's texture descriptor, floats as their bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureArg {
    pub image: ImageArg,
    pub address: [crate::exec::texture::AddressMode; 3],
    pub linear: bool,
    pub mip_linear: bool,
    pub normalized_read: bool,
    pub srgb: bool,
    /// Seamless cubemap filtering (CUDA's `seamlessCubemap`).
    pub seamless: bool,
    pub normalized_coords: bool,
    pub border: [u32; 4],
    pub lod_bias: u32,
    pub min_lod: u32,
    pub max_lod: u32,
}

impl TextureArg {
    /// The library's sampler.
    pub fn sampler(&self) -> crate::exec::texture::Sampler {
        crate::exec::texture::Sampler {
            address: self.address,
            linear: self.linear,
            mip_linear: self.mip_linear,
            normalized_read: self.normalized_read,
            srgb: self.srgb,
            normalized_coords: self.normalized_coords,
            border: self.border.map(f32::from_bits),
            lod_bias: f32::from_bits(self.lod_bias),
            min_lod: f32::from_bits(self.min_lod),
            max_lod: f32::from_bits(self.max_lod),
            seamless_cubemap: self.seamless,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    pub kernel: Option<String>,
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_shared_bytes: u32,
    /// CTAs of a thread-block cluster (`"cluster"`); `None`: the kernel's own
    /// (`.reqnctapercluster`), or one.
    pub cluster: Option<Dim3>,
    pub args: Vec<Arg>,
}

pub use crate::exec::threads::{MAX_BLOCK, MAX_BLOCK_THREADS, MAX_DYNAMIC_SHARED, MAX_GRID, shape_fits};

/// Most CTAs a cluster holds (CUDA's portable cluster size).
pub const MAX_CLUSTER: u64 = 8;

/// The clusters a launch runs in: the launch's own (`asked`), else the kernel's
/// (`declared`: `.reqnctapercluster`), else one CTA each.
///
/// # Errors
/// Why CUDA refuses it: a cluster that does not tile the grid, holds more than
/// [`MAX_CLUSTER`] CTAs or none, or differs from the kernel's own.
pub fn cluster_shape(grid: Dim3, asked: Option<Dim3>, declared: Option<Dim3>) -> Result<Dim3, String> {
    let show = |d: Dim3| format!("({}, {}, {})", d.x, d.y, d.z);
    let c = match (asked, declared) {
        (Some(a), Some(d)) if a != d => {
            return Err(format!(
                "a cluster of {} CTAs for a kernel that requires {} (.reqnctapercluster)",
                show(a),
                show(d)
            ));
        }
        (Some(c), _) | (None, Some(c)) => c,
        (None, None) => crate::exec::threads::ONE,
    };
    if c.count() == 0 || c.count() > MAX_CLUSTER {
        return Err(format!("a cluster of {} CTAs: a cluster holds 1 to {MAX_CLUSTER} CTAs", show(c)));
    }
    if !(grid.x.is_multiple_of(c.x) && grid.y.is_multiple_of(c.y) && grid.z.is_multiple_of(c.z)) {
        return Err(format!("the grid {} is not a whole number of clusters of {}", show(grid), show(c)));
    }
    Ok(c)
}
/// Largest single buffer ptxvm allocates (a guard against typos, not a CUDA limit).
pub const MAX_BUFFER_BYTES: u64 = 4 << 30;

/// Parses and validates a launch spec.
///
/// # Errors
/// A [`SpecError`] naming the offending field for malformed JSON, unknown fields,
/// shapes outside CUDA's limits, unknown types and values that do not fit.
pub fn parse_spec(json: &str) -> Result<LaunchSpec, SpecError> {
    parse_spec_in(json, Path::new("."))
}

/// [`parse_spec`] of a spec file's text, `dir` being its folder: the paths of
/// `"npy"` buffers are relative to it.
///
/// # Errors
/// As [`parse_spec`], and for `.npy` files that cannot be read or do not agree with
/// the `elem` and `len` the spec gives.
pub fn parse_spec_in(json: &str, dir: &Path) -> Result<LaunchSpec, SpecError> {
    let (v, raw_data) = split_spec(json)?;
    spec_from(&v, &raw_data, dir)
}

/// Reads and parses the launch spec file at `path` ([`parse_spec_in`] its folder).
///
/// # Errors
/// As [`parse_spec_in`]; a file that cannot be read is an error at path `spec`.
pub fn read_spec(path: &Path) -> Result<LaunchSpec, SpecError> {
    let text = std::fs::read_to_string(path).map_err(|e| SpecError {
        path: "spec".into(),
        message: format!("cannot read {}: {e}", path.display()),
    })?;
    parse_spec_in(&text, path.parent().unwrap_or(Path::new(".")))
}

impl LaunchSpec {
    /// The file name (without `.npy`) of argument `k`'s buffer under `--out-dir`: its
    /// `"name"`, else `arg<k>`.
    pub fn buffer_name(&self, k: usize) -> String {
        match self.args.get(k) {
            Some(Arg::Buffer { name: Some(n), .. } | Arg::NpyBuffer { name: Some(n), .. }) => n.clone(),
            Some(Arg::Surface(s)) if s.name.is_some() => s.name.clone().unwrap_or_default(),
            _ => format!("arg{k}"),
        }
    }
}

/// The spec of a JSON value whose `args[i].data` lists may come as element texts.
fn spec_from(v: &Value, raw_data: &[Option<RawList<'_>>], dir: &Path) -> Result<LaunchSpec, SpecError> {
    let Value::Object(obj) = v else { return err("spec", "must be a JSON object") };
    for k in obj.keys() {
        if !matches!(k.as_str(), "kernel" | "grid" | "block" | "cluster" | "dynamic_shared_bytes" | "args") {
            return err(
                k,
                "unknown field (expected kernel, grid, block, cluster, dynamic_shared_bytes, args)",
            );
        }
    }
    let kernel = match obj.get("kernel") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return err("kernel", "must be a string"),
    };
    let grid = dim3(obj.get("grid"), "grid", MAX_GRID)?;
    let block = dim3(obj.get("block"), "block", MAX_BLOCK)?;
    if block.count() > MAX_BLOCK_THREADS {
        return err(
            "block",
            format!("{} threads per block; CUDA allows at most {MAX_BLOCK_THREADS}", block.count()),
        );
    }
    let cluster = match obj.get("cluster") {
        None => None,
        Some(v) => {
            let c = dim3(Some(v), "cluster", Dim3 { x: 8, y: 8, z: 8 })?;
            if let Err(why) = cluster_shape(grid, Some(c), None) {
                return err("cluster", why);
            }
            Some(c)
        }
    };
    let dynamic_shared_bytes = match obj.get("dynamic_shared_bytes") {
        None => 0,
        Some(v) => match v.as_u64() {
            Some(n) if n <= MAX_DYNAMIC_SHARED => n as u32,
            Some(n) => {
                return err(
                    "dynamic_shared_bytes",
                    format!("{n} bytes; at most {MAX_DYNAMIC_SHARED} per block"),
                );
            }
            None => return err("dynamic_shared_bytes", "must be a non-negative integer"),
        },
    };
    let args = match obj.get("args") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, a)| arg(a, raw_data.get(i).and_then(Option::as_ref), &format!("args[{i}]"), dir))
            .collect::<Result<_, _>>()?,
        Some(_) => return err("args", "must be a list"),
    };
    let spec = LaunchSpec { kernel, grid, block, dynamic_shared_bytes, cluster, args };
    // Two buffers may not write the same file under `--out-dir`.
    let mut names: Vec<(String, usize)> = (0..spec.args.len())
        .filter(|&k| matches!(spec.args[k], Arg::Buffer { .. } | Arg::NpyBuffer { .. } | Arg::Surface(_)))
        .map(|k| (spec.buffer_name(k), k))
        .collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0].0 == w[1].0) {
        let (a, b) = (w[0].1.min(w[1].1), w[0].1.max(w[1].1));
        return err(&format!("args[{b}].name"), format!("\"{}\" is also the name of args[{a}]", w[0].0));
    }
    Ok(spec)
}

fn dim3(v: Option<&Value>, path: &str, max: Dim3) -> Result<Dim3, SpecError> {
    let Some(v) = v else { return err(path, "missing (a number or a list of 1 to 3 numbers)") };
    let nums: Vec<&Value> = match v {
        Value::Array(items) if (1..=3).contains(&items.len()) => items.iter().collect(),
        Value::Array(_) => return err(path, "must list 1 to 3 numbers"),
        other => vec![other],
    };
    let mut d = [1u32; 3];
    let limits = [max.x, max.y, max.z];
    for (k, n) in nums.iter().enumerate() {
        let axis = ["x", "y", "z"][k];
        match n.as_u64() {
            Some(0) => return err(path, format!("{axis} is 0; every dimension is at least 1")),
            Some(x) if x <= u64::from(limits[k]) => d[k] = x as u32,
            Some(x) => return err(path, format!("{axis} is {x}; CUDA allows at most {}", limits[k])),
            None => return err(path, format!("{axis} must be a positive integer")),
        }
    }
    Ok(Dim3 { x: d[0], y: d[1], z: d[2] })
}

/// The spec as a value, but for each argument's `data` list, which comes apart as
/// the text of its elements: large buffers are read without a value per element.
/// One pass over the text finds the lists (`args[i].data`, holding no nested
/// lists or objects) and the rest is parsed as JSON with them emptied; a spec of any
/// other shape, or with an error, is parsed whole for serde's messages.
#[allow(clippy::type_complexity)]
fn split_spec(json: &str) -> Result<(Value, Vec<Option<RawList<'_>>>), SpecError> {
    let whole = || -> Result<(Value, Vec<Option<RawList<'_>>>), SpecError> {
        let v = serde_json::from_str(json)
            .map_err(|e| SpecError { path: "spec".into(), message: format!("not valid JSON: {e}") })?;
        Ok((v, Vec::new()))
    };
    let Some(lists) = data_lists(json) else { return whole() };
    if lists.is_empty() {
        return whole();
    }
    // The text with every list emptied, then each list's elements.
    let mut reduced = String::with_capacity(json.len());
    let mut at = 0;
    for &(_, open, close) in &lists {
        reduced.push_str(&json[at..=open]);
        at = close;
    }
    reduced.push_str(&json[at..]);
    let Ok(mut v) = serde_json::from_str::<Value>(&reduced) else { return whole() };
    let mut data: Vec<Option<RawList<'_>>> = Vec::new();
    for &(arg, open, close) in &lists {
        let Some(items) = RawList::new(&json[open + 1..close]) else { return whole() };
        let Some(Value::Object(o)) = v.get_mut("args").and_then(|a| a.get_mut(arg)) else { return whole() };
        // The value keeps an empty list; `arg` reads the elements from the text.
        o.insert("data".into(), Value::Array(Vec::new()));
        data.resize_with(data.len().max(arg + 1), || None);
        data[arg] = Some(items);
    }
    Ok((v, data))
}

/// Where `args[i].data` lists are: (i, index of `[`, index of `]`), in order; `None`
/// when the text is not shaped as expected (then nothing is taken apart).
fn data_lists(json: &str) -> Option<Vec<(usize, usize, usize)>> {
    let b = json.as_bytes();
    let mut out = Vec::new();
    // Containers open: `true` for an object; the key last read at each depth.
    let mut stack: Vec<bool> = Vec::new();
    let mut keys: Vec<&str> = Vec::new();
    // The index of the element of `args` being read: commas counted at its depth.
    let mut arg = 0usize;
    let mut args_lists = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i + 1;
                i = string_end(b, i)?;
                // A string followed by ':' in an object is its key.
                let mut j = i + 1;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                if stack.last() == Some(&true) && b.get(j) == Some(&b':') {
                    *keys.last_mut()? = &json[start..i];
                }
            }
            c @ (b'{' | b'[') => {
                let in_arg =
                    stack == [true, false, true] && keys.first() == Some(&"args") && keys[2] == "data";
                if c == b'[' && in_arg {
                    let close = list_end(b, i)?;
                    out.push((arg, i, close));
                    i = close;
                } else {
                    if c == b'[' && stack == [true] && keys.first() == Some(&"args") {
                        // A second `args` (serde keeps the last): read it whole.
                        args_lists += 1;
                        if args_lists > 1 {
                            return None;
                        }
                    }
                    stack.push(c == b'{');
                    keys.push("");
                }
            }
            b',' if stack == [true, false] && keys.first() == Some(&"args") => arg += 1,
            b'}' | b']' => {
                stack.pop()?;
                keys.pop();
            }
            _ => {}
        }
        i += 1;
    }
    stack.is_empty().then_some(out)
}

/// The index of the quote that ends the string starting at `b[at]`.
fn string_end(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// The index of the `]` closing the flat list at `b[at]`; `None` if it nests.
fn list_end(b: &[u8], at: usize) -> Option<usize> {
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'"' => i = string_end(b, i)?,
            b']' => return Some(i),
            b'[' | b'{' | b'}' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// A flat JSON list's elements kept as text, in runs of whole elements that
/// convert on every core: no per-element allocation for a list of millions.
struct RawList<'a> {
    /// Each run with the index of its first element.
    runs: Vec<(usize, &'a str)>,
    len: usize,
}

impl<'a> RawList<'a> {
    /// About this many bytes of text per run.
    const RUN: usize = 1 << 15;

    /// The list whose text between the brackets is `inner`; `None` for an empty
    /// element (`1,,2`) or a string that does not end.
    fn new(inner: &'a str) -> Option<Self> {
        use rayon::prelude::*;
        // Runs end at commas; a list with strings (which may hold commas) is one run.
        let mut runs = Vec::new();
        let mut at = 0;
        if !inner.contains('"') {
            while inner.len() - at > Self::RUN {
                let Some(comma) = inner[at + Self::RUN..].find(',') else { break };
                runs.push(&inner[at..at + Self::RUN + comma]);
                at += Self::RUN + comma + 1;
            }
        }
        runs.push(&inner[at..]);
        if runs.len() == 1 && inner.bytes().all(json_space) {
            return Some(RawList { runs: Vec::new(), len: 0 });
        }
        let counts: Vec<Option<usize>> = runs.par_iter().map(|run| Self::count(run)).collect();
        let mut len = 0;
        let mut out = Vec::with_capacity(runs.len());
        for (run, n) in runs.into_iter().zip(counts) {
            out.push((len, run));
            len += n?;
        }
        Some(RawList { runs: out, len })
    }

    /// How many elements a run holds; `None` for an empty one or an unended string.
    fn count(run: &str) -> Option<usize> {
        if run.contains('"') {
            return Items { run, start: 0 }.try_fold(0, |n, item| item.map(|_| n + 1));
        }
        // Without strings, one pass over the bytes: an element is there when
        // something other than JSON whitespace comes before each comma and the end.
        let (mut n, mut seen) = (0, false);
        for &b in run.as_bytes() {
            if b == b',' {
                if !seen {
                    return None;
                }
                (n, seen) = (n + 1, false);
            } else if !json_space(b) {
                seen = true;
            }
        }
        seen.then_some(n + 1)
    }
}

/// JSON's whitespace (RFC 8259): space, tab, line feed, carriage return.
fn json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The elements of a run of a [`RawList`], trimmed; `None` for an empty one or an
/// unended string.
struct Items<'a> {
    run: &'a str,
    /// Where the next element starts; past the end when done.
    start: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = Option<&'a str>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let b = self.run.as_bytes();
        if self.start > b.len() {
            return None;
        }
        let mut i = self.start;
        while i < b.len() && b[i] != b',' {
            if b[i] == b'"' {
                match string_end(b, i) {
                    Some(end) => i = end,
                    None => {
                        self.start = b.len() + 1;
                        return Some(None);
                    }
                }
            }
            i += 1;
        }
        let item = self.run[self.start..i].trim_matches(|c: char| c.is_ascii() && json_space(c as u8));
        self.start = i + 1;
        Some((!item.is_empty()).then_some(item))
    }
}

/// The bytes of a `"bytes"` argument: a string of `0x` and two hex digits per byte,
/// in memory order.
fn bytes_value(v: &Value, path: &str) -> Result<Vec<u8>, SpecError> {
    let text = v
        .as_str()
        .and_then(|s| s.strip_prefix("0x"))
        .filter(|h| !h.is_empty() && h.len() % 2 == 0 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    let Some(hex) = text else {
        return err(path, "must be a string of \"0x\" and two hex digits per byte, first byte first");
    };
    if hex.len() / 2 > 32_764 {
        return err(path, "a kernel's parameters hold at most 32,764 bytes (CUDA 12.1 and later)");
    }
    // Every character is an ASCII hex digit (checked above), so each pair parses.
    let digit = |b: u8| (b as char).to_digit(16).unwrap_or(0) as u8;
    Ok(hex.as_bytes().chunks(2).map(|p| digit(p[0]) << 4 | digit(p[1])).collect())
}

/// One argument; `raw` is its data's elements as text, when read that way; `dir`
/// the folder `"npy"` paths are relative to.
fn arg(v: &Value, raw: Option<&RawList<'_>>, path: &str, dir: &Path) -> Result<Arg, SpecError> {
    let Value::Object(o) = v else {
        return err(path, "must be an object: {\"type\", \"value\"} or {\"buffer\", ...}");
    };
    let buffer_type = o.get("type").is_some_and(|t| t == "buffer");
    if let Some(t) = o.get("type").filter(|_| !buffer_type) {
        if let Some(k) = o.keys().find(|k| !matches!(k.as_str(), "type" | "value")) {
            return err(&format!("{path}.{k}"), "unknown field of a scalar argument");
        }
        let Some(value) = o.get("value") else { return err(path, "scalar argument needs a \"value\"") };
        if t.as_str() == Some("bytes") {
            return bytes_value(value, &format!("{path}.value")).map(Arg::Bytes);
        }
        let ty = elem_type(t, &format!("{path}.type"), true)?;
        let bits = encode(ty, value, &format!("{path}.value"))?;
        return Ok(Arg::Scalar { ty, bits });
    }
    if let Some(t) = o.get("texture") {
        if let Some(k) = o.keys().find(|k| k.as_str() != "texture") {
            return err(&format!("{path}.{k}"), "unknown field beside \"texture\"");
        }
        return texture_arg(t, &format!("{path}.texture"), dir).map(|t| Arg::Texture(Box::new(t)));
    }
    if let Some(t) = o.get("surface") {
        if let Some(k) = o.keys().find(|k| k.as_str() != "surface") {
            return err(&format!("{path}.{k}"), "unknown field beside \"surface\"");
        }
        return image_arg(t, &format!("{path}.surface"), dir, true).map(|i| Arg::Surface(Box::new(i)));
    }
    // `{"buffer": E, ...}`, or `{"type": "buffer", "elem": E, ...}`.
    let (elem_key, fields): (&str, &[&str]) = if buffer_type {
        ("elem", &["type", "elem", "data", "len", "npy", "name"])
    } else if o.contains_key("buffer") {
        ("buffer", &["buffer", "data", "len", "npy", "name"])
    } else {
        return err(path, "needs \"type\" (a scalar) or \"buffer\" (global memory)");
    };
    if let Some(k) = o.keys().find(|k| !fields.contains(&k.as_str())) {
        return err(&format!("{path}.{k}"), "unknown field of a buffer argument");
    }
    let name = match o.get("name") {
        None => None,
        Some(Value::String(n)) if file_name_ok(n) => Some(n.clone()),
        Some(_) => {
            return err(
                &format!("{path}.name"),
                "must be a file name: letters, digits, '_', '-' and '.', not starting with '.'",
            );
        }
    };
    let elem = match o.get(elem_key) {
        Some(e) => Some(elem_type(e, &format!("{path}.{elem_key}"), false)?),
        None => None,
    };
    if let Some(file) = o.get("npy") {
        if o.contains_key("data") {
            return err(path, "give either \"data\" or \"npy\", not both");
        }
        let (elem, file, len) = npy_buffer(file, elem, o.get("len"), path, dir)?;
        return Ok(Arg::NpyBuffer { elem, path: file, len, name });
    }
    let Some(elem) = elem else {
        return err(path, format!("a buffer needs its element type, \"{elem_key}\""));
    };
    let bytes = match (o.get("data"), o.get("len")) {
        (Some(_), Some(_)) => return err(path, "give either \"data\" or \"len\", not both"),
        (Some(Value::Array(items)), None) => data_bytes(elem, items, raw, path)?,
        (Some(_), None) => return err(&format!("{path}.data"), "must be a list of values"),
        (None, Some(n)) => vec![0u8; buffer_len(elem, n, path)? as usize * elem.bytes()],
        (None, None) => return err(path, "a buffer needs \"data\", \"len\" or \"npy\""),
    };
    Ok(Arg::Buffer { elem, bytes, name })
}

/// Fields of a texture's texels (and a surface's).
const IMAGE_FIELDS: [&str; 8] = ["format", "channels", "dims", "shape", "levels", "memory", "data", "npy"];
/// Fields of a texture's sampling.
const SAMPLER_FIELDS: [&str; 11] = [
    "filter",
    "mip_filter",
    "address",
    "read",
    "srgb",
    "normalized_coords",
    "seamless",
    "border",
    "lod_bias",
    "min_lod",
    "max_lod",
];

fn object<'v>(v: &'v Value, path: &str) -> Result<&'v serde_json::Map<String, Value>, SpecError> {
    match v {
        Value::Object(o) => Ok(o),
        _ => err(path, "must be an object"),
    }
}

fn word<'v>(
    o: &'v serde_json::Map<String, Value>,
    key: &str,
    path: &str,
    words: &[&str],
) -> Result<Option<&'v str>, SpecError> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::String(w)) if words.contains(&w.as_str()) => Ok(Some(w.as_str())),
        Some(_) => err(&format!("{path}.{key}"), format!("must be one of {}", words.join(", "))),
    }
}

fn flag(o: &serde_json::Map<String, Value>, key: &str, path: &str) -> Result<bool, SpecError> {
    match o.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => err(&format!("{path}.{key}"), "must be true or false"),
    }
}

fn f32_field(o: &serde_json::Map<String, Value>, key: &str, path: &str) -> Result<u32, SpecError> {
    match o.get(key) {
        None => Ok(0),
        Some(v) => Ok(encode(ElemType::F32, v, &format!("{path}.{key}"))? as u32),
    }
}

/// `{"texture": {...}}`: texels, then how to read them.
fn texture_arg(v: &Value, path: &str, dir: &Path) -> Result<TextureArg, SpecError> {
    texture_with(v, path, dir, None)
}

/// A texture from its launch-spec description, with its texels (`Some`) given
/// apart from the JSON, as the Python package gives them from NumPy arrays.
///
/// # Errors
/// A [`SpecError`] naming the field that is wrong.
pub fn texture_with(
    v: &Value,
    path: &str,
    dir: &Path,
    texels: Option<Vec<u8>>,
) -> Result<TextureArg, SpecError> {
    use crate::exec::texture::AddressMode;
    let o = object(v, path)?;
    if let Some(k) =
        o.keys().find(|k| !IMAGE_FIELDS.contains(&k.as_str()) && !SAMPLER_FIELDS.contains(&k.as_str()))
    {
        return err(&format!("{path}.{k}"), "unknown field of a texture");
    }
    let image = image_with(v, path, dir, false, texels)?;
    let mode = |w: &Value, at: &str| -> Result<AddressMode, SpecError> {
        Ok(match w.as_str() {
            Some("wrap") => AddressMode::Wrap,
            Some("clamp") => AddressMode::Clamp,
            Some("mirror") => AddressMode::Mirror,
            Some("border") => AddressMode::Border,
            _ => return err(at, "must be \"wrap\", \"clamp\", \"mirror\" or \"border\""),
        })
    };
    let address = match o.get("address") {
        None => [AddressMode::Clamp; 3],
        Some(Value::Array(items)) if (1..=3).contains(&items.len()) => {
            let mut a = [AddressMode::Clamp; 3];
            for (k, w) in items.iter().enumerate() {
                a[k] = mode(w, &format!("{path}.address[{k}]"))?;
            }
            a
        }
        Some(w) => [mode(w, &format!("{path}.address"))?; 3],
    };
    let filter = |key| word(o, key, path, &["point", "linear"]);
    let normalized_read = match word(o, "read", path, &["element", "normalized"])? {
        Some("normalized") => {
            if image.elem.is_float() {
                return err(&format!("{path}.read"), "\"normalized\" reads 8- and 16-bit integer texels");
            }
            true
        }
        _ => false,
    };
    let border = match o.get("border") {
        None => [0; 4],
        Some(Value::Array(items)) if items.len() == 4 => {
            let mut b = [0u32; 4];
            for (k, x) in items.iter().enumerate() {
                b[k] = encode(ElemType::F32, x, &format!("{path}.border[{k}]"))? as u32;
            }
            b
        }
        Some(_) => return err(&format!("{path}.border"), "must be a list of 4 numbers (the border colour)"),
    };
    let t = TextureArg {
        address,
        linear: filter("filter")? == Some("linear"),
        mip_linear: filter("mip_filter")? == Some("linear"),
        normalized_read,
        srgb: flag(o, "srgb", path)?,
        normalized_coords: flag(o, "normalized_coords", path)?,
        seamless: flag(o, "seamless", path)?,
        border,
        lod_bias: f32_field(o, "lod_bias", path)?,
        min_lod: f32_field(o, "min_lod", path)?,
        max_lod: f32_field(o, "max_lod", path)?,
        image,
    };
    // CUDA's rules, as the library checks them when it makes the object.
    use crate::exec::texture::{ObjectError, check_read};
    match check_read(t.image.format(), t.linear, t.normalized_read) {
        Err(ObjectError::NormalizedRead) => {
            return err(&format!("{path}.read"), "\"normalized\" reads 8- and 16-bit integer texels");
        }
        Err(_) => {
            return err(
                &format!("{path}.filter"),
                "linear filtering needs floats: float texels, or \"read\": \"normalized\"",
            );
        }
        Ok(()) => {}
    }
    if t.srgb && !(t.image.elem == ElemType::U8 && t.normalized_read) {
        return err(&format!("{path}.srgb"), "sRGB is for u8 texels read \"normalized\"");
    }
    let cube =
        matches!(t.image.shape, crate::exec::texture::Shape::Cube | crate::exec::texture::Shape::LayeredCube);
    if t.seamless && !cube {
        return err(&format!("{path}.seamless"), "seamless filtering is for cubemaps");
    }
    if let Err(e) = crate::exec::texture::check_seamless(t.image.shape, t.image.levels as usize, &t.sampler())
    {
        return err(&format!("{path}.mip_filter"), e.to_string());
    }
    Ok(t)
}

/// The texels and shape of a texture (`surface` false) or surface.
fn image_arg(v: &Value, path: &str, dir: &Path, surface: bool) -> Result<ImageArg, SpecError> {
    image_with(v, path, dir, surface, None)
}

/// The texels and shape of a texture (`surface` false) or surface from its
/// launch-spec description, with its texels (`Some`) given apart from the JSON.
///
/// # Errors
/// A [`SpecError`] naming the field that is wrong.
pub fn image_with(
    v: &Value,
    path: &str,
    dir: &Path,
    surface: bool,
    texels: Option<Vec<u8>>,
) -> Result<ImageArg, SpecError> {
    use crate::exec::texture::Shape;
    let o = object(v, path)?;
    let surface_field =
        |k: &str| matches!(k, "format" | "channels" | "dims" | "shape" | "data" | "npy" | "len" | "name");
    if let Some(k) = o.keys().find(|k| surface && !surface_field(k)) {
        return err(&format!("{path}.{k}"), "unknown field of a surface");
    }
    let elem = match o.get("format") {
        Some(f) => match elem_type(f, &format!("{path}.format"), false)? {
            e @ (ElemType::U8
            | ElemType::S8
            | ElemType::U16
            | ElemType::S16
            | ElemType::U32
            | ElemType::S32
            | ElemType::F16
            | ElemType::F32) => e,
            _ => {
                return err(
                    &format!("{path}.format"),
                    "textures hold u8 s8 u16 s16 u32 s32 f16 or f32 texels",
                );
            }
        },
        None => return err(path, "needs \"format\", the element type of a channel"),
    };
    let channels = match o.get("channels") {
        None => 1,
        Some(n) => match n.as_u64() {
            Some(c @ (1 | 2 | 4)) => c as u8,
            _ => return err(&format!("{path}.channels"), "must be 1, 2 or 4"),
        },
    };
    let dims_list: Vec<u32> = match o.get("dims") {
        Some(Value::Array(items)) if (1..=3).contains(&items.len()) => items
            .iter()
            .enumerate()
            .map(|(k, n)| match n.as_u64() {
                Some(n) if (1..=65536).contains(&n) => Ok(n as u32),
                _ => err(&format!("{path}.dims[{k}]"), "must be from 1 to 65536"),
            })
            .collect::<Result<_, _>>()?,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(n) if (1..=65536).contains(&n) => vec![n as u32],
            _ => return err(&format!("{path}.dims"), "must be from 1 to 65536"),
        },
        _ => return err(path, "needs \"dims\": [width], [width, height] or [width, height, depth]"),
    };
    let memory = match word(o, "memory", path, &["array", "linear", "pitch2d"])? {
        None | Some("array") => ImageMemory::Array,
        Some("linear") => ImageMemory::Linear,
        _ => ImageMemory::Pitch2D,
    };
    let n = dims_list.len();
    let shapes = ["1d", "2d", "3d", "layered1d", "layered2d", "cubemap", "layered_cubemap"];
    let shape = match word(o, "shape", path, &shapes)? {
        None => [Shape::D1, Shape::D2, Shape::D3][n - 1],
        Some(s) => [
            Shape::D1,
            Shape::D2,
            Shape::D3,
            Shape::Layered1D,
            Shape::Layered2D,
            Shape::Cube,
            Shape::LayeredCube,
        ][shapes.iter().position(|x| *x == s).unwrap_or(0)],
    };
    let want_dims = match shape {
        Shape::D1 => 1,
        Shape::D2 | Shape::Layered1D => 2,
        _ => 3,
    };
    if n != want_dims {
        return err(&format!("{path}.dims"), format!("this shape takes {want_dims} dimensions"));
    }
    let mut dims = [0u32; 3];
    match shape {
        // A layered 1D array's layers are its depth.
        Shape::Layered1D => dims = [dims_list[0], 0, dims_list[1]],
        _ => dims[..n].copy_from_slice(&dims_list),
    }
    if matches!(shape, Shape::Cube | Shape::LayeredCube)
        && (dims[0] != dims[1] || dims[2] % 6 != 0 || (shape == Shape::Cube && dims[2] != 6))
    {
        return err(&format!("{path}.dims"), "a cubemap is [size, size, 6] (6 faces a layer when layered)");
    }
    if memory != ImageMemory::Array
        && (surface
            || !matches!(
                (memory, shape),
                (ImageMemory::Linear, Shape::D1) | (ImageMemory::Pitch2D, Shape::D2)
            ))
    {
        return err(
            &format!("{path}.memory"),
            "linear memory is 1D and pitched memory 2D, for textures only",
        );
    }
    let levels = match o.get("levels") {
        None => 1,
        Some(n) => match n.as_u64() {
            Some(l) if (1..=17).contains(&l) && (l == 1 || memory == ImageMemory::Array) => l as u32,
            _ => return err(&format!("{path}.levels"), "must be from 1 to 17 (mipmaps are arrays)"),
        },
    };
    let image = ImageArg { elem, channels, dims, shape, levels, memory, bytes: Vec::new(), name: None };
    let want: u64 = (0..levels).map(|l| image.level_bytes(l)).sum();
    if want > MAX_BUFFER_BYTES {
        return err(path, format!("{want} bytes of texels; ptxvm allocates at most {MAX_BUFFER_BYTES}"));
    }
    let bytes = match (o.get("data"), o.get("npy"), o.get("len")) {
        _ if texels.is_some() => texels.unwrap_or_default(),
        (Some(Value::Array(items)), None, None) => data_bytes(elem, items, None, path)?,
        (None, Some(f), None) => {
            let Some(f) = f.as_str() else { return err(&format!("{path}.npy"), "must be a path") };
            let full = dir.join(f);
            let (head, bytes) = crate::npy::read(&full).map_err(|e| SpecError {
                path: format!("{path}.npy"),
                message: format!("{}: {e}", full.display()),
            })?;
            if head.elem.bytes() != elem.bytes() {
                return err(
                    &format!("{path}.npy"),
                    format!("{} holds {}, not {}", full.display(), head.elem.name(), elem.name()),
                );
            }
            bytes
        }
        (None, None, Some(_)) if surface => vec![0; want as usize],
        (None, None, None) if surface => vec![0; want as usize],
        _ => return err(path, "give the texels as \"data\" or \"npy\""),
    };
    if bytes.len() as u64 != want {
        return err(
            path,
            format!(
                "{} texel values given; the shape holds {} ({} channels, {} levels)",
                bytes.len() / elem.bytes(),
                want / elem.bytes() as u64,
                channels,
                levels
            ),
        );
    }
    let name = match o.get("name") {
        None => None,
        Some(Value::String(n)) if file_name_ok(n) => Some(n.clone()),
        Some(_) => return err(&format!("{path}.name"), "must be a file name"),
    };
    Ok(ImageArg { bytes, name, ..image })
}

/// A `"len"`: a number of elements that fits [`MAX_BUFFER_BYTES`].
fn buffer_len(elem: ElemType, n: &Value, path: &str) -> Result<u64, SpecError> {
    match n.as_u64() {
        Some(n) if n.saturating_mul(elem.bytes() as u64) <= MAX_BUFFER_BYTES => Ok(n),
        Some(n) => err(&format!("{path}.len"), format!("{n} elements exceed {MAX_BUFFER_BYTES} bytes")),
        None => err(&format!("{path}.len"), "must be a non-negative integer"),
    }
}

/// A name a file can have in any folder on any system.
fn file_name_ok(n: &str) -> bool {
    !n.is_empty()
        && n.len() <= 200
        && !n.starts_with('.')
        && n.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// The element type, path and length of a buffer read from the `.npy` file `file`
/// (relative to `dir`), whose header is checked here; `elem` and `len`, when the
/// spec gives them, must agree with it. A bf16 buffer reads a `<u2` file as its bits
/// (NumPy has no bf16).
fn npy_buffer(
    file: &Value,
    elem: Option<ElemType>,
    len: Option<&Value>,
    path: &str,
    dir: &Path,
) -> Result<(ElemType, std::path::PathBuf, u64), SpecError> {
    let Some(file) = file.as_str().filter(|f| !f.is_empty()) else {
        return err(&format!("{path}.npy"), "must be the path of a .npy file");
    };
    let full = dir.join(file);
    let (head, _) = crate::npy::open(&full).map_err(|e| SpecError {
        path: format!("{path}.npy"),
        message: format!("{}: {e}", full.display()),
    })?;
    let bytes = head.len() * head.elem.bytes() as u64;
    if bytes > MAX_BUFFER_BYTES {
        let message = format!(
            "{}: {bytes} bytes; ptxvm allocates at most {MAX_BUFFER_BYTES} per buffer",
            full.display()
        );
        return err(&format!("{path}.npy"), message);
    }
    let elem = match elem {
        None => head.elem,
        Some(e) if e == head.elem || (e == ElemType::BF16 && head.elem == ElemType::U16) => e,
        Some(e) => {
            let message = format!(
                "the spec says {}, but {} holds '{}' ({})",
                e.name(),
                full.display(),
                head.descr,
                head.elem.name()
            );
            return err(path, message);
        }
    };
    if let Some(n) = len {
        let n = buffer_len(elem, n, path)?;
        if n != head.len() {
            let message = format!(
                "the spec says {n} elements, but {} holds {} (shape {:?})",
                full.display(),
                head.len(),
                head.shape
            );
            return err(&format!("{path}.len"), message);
        }
    }
    Ok((elem, full, head.len()))
}

/// The bytes of a `"data"` list of `elem` values.
fn data_bytes(
    elem: ElemType,
    items: &[Value],
    raw: Option<&RawList<'_>>,
    path: &str,
) -> Result<Vec<u8>, SpecError> {
    let count = raw.map_or(items.len(), |r| r.len);
    let total = count as u64 * elem.bytes() as u64;
    if total > MAX_BUFFER_BYTES {
        return err(path, format!("{total} bytes; ptxvm allocates at most {MAX_BUFFER_BYTES} per buffer"));
    }
    let mut bytes = Vec::with_capacity(total as usize);
    // The path is written only for an error.
    let at =
        |i: usize| move |e: SpecError| SpecError { path: format!("{path}.data[{i}]"), message: e.message };
    match raw {
        Some(raw) => {
            // Runs convert on every core; the error is the first bad element's (lowest
            // index).
            use rayon::prelude::*;
            let k = elem.bytes();
            bytes.resize(raw.len * k, 0);
            let mut outs = Vec::with_capacity(raw.runs.len());
            let mut rest = &mut bytes[..];
            for w in raw.runs.windows(2) {
                let (out, tail) = rest.split_at_mut((w[1].0 - w[0].0) * k);
                outs.push(out);
                rest = tail;
            }
            outs.push(rest);
            let results: Vec<Result<(), SpecError>> = outs
                .into_par_iter()
                .zip(&raw.runs)
                .map(|(out, &(first, run))| {
                    // Every element is there: `RawList::new` counted them.
                    for (j, (o, item)) in out.chunks_exact_mut(k).zip(Items { run, start: 0 }).enumerate() {
                        let bits = encode_text(elem, item.unwrap_or("")).map_err(at(first + j))?;
                        o.copy_from_slice(&bits.to_le_bytes()[..k]);
                    }
                    Ok(())
                })
                .collect();
            results.into_iter().collect::<Result<(), SpecError>>()?;
        }
        _ => {
            for (i, item) in items.iter().enumerate() {
                let bits = encode(elem, item, "").map_err(at(i))?;
                bytes.extend_from_slice(&bits.to_le_bytes()[..elem.bytes()]);
            }
        }
    }
    Ok(bytes)
}

fn elem_type(v: &Value, path: &str, scalar: bool) -> Result<ElemType, SpecError> {
    let name = v.as_str().unwrap_or("");
    match ElemType::from_name(name) {
        Some(t) if scalar || !t.is_bits() => Ok(t),
        _ if scalar => err(
            path,
            format!("unknown type {v}; one of u8 s8 u16 s16 u32 s32 u64 s64 b8 b16 b32 b64 f16 bf16 f32 f64"),
        ),
        _ => err(
            path,
            format!("unknown buffer type {v}; one of u8 s8 u16 s16 u32 s32 u64 s64 f16 bf16 f32 f64"),
        ),
    }
}

/// [`encode`] of one element given as JSON text: numbers are read from their text
/// directly, anything else as a JSON value.
fn encode_text(ty: ElemType, text: &str) -> Result<u64, SpecError> {
    let number = text.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    if number
        && ty.is_float()
        && let Some(bits) = decimal_bits(ty, text)
    {
        return Ok(bits);
    }
    let v: Value =
        serde_json::from_str(text).map_err(|e| SpecError { path: String::new(), message: e.to_string() })?;
    encode(ty, &v, "")
}

/// A decimal's bits as float type `ty`, rounded once to it (f32 and f64); f16 and
/// bf16 go through f64, which can round twice only for decimals within 2^-53 of a
/// half-way point (16 or more significant digits).
fn decimal_bits(ty: ElemType, text: &str) -> Option<u64> {
    // A whole number (not `-0`) converts from an integer: Rust's integer-to-float
    // conversion rounds to nearest even, once, as parsing the decimal does.
    if text.len() <= 18
        && let Ok(i) = text.parse::<i64>()
        && !(i == 0 && text.starts_with('-'))
    {
        return Some(match ty {
            ElemType::F32 => u64::from((i as f32).to_bits()),
            // Exact in f64 (|i| < 10^18 < 2^60 rounds once, in the `as`, only above
            // 2^53; f16 and bf16 then round again, as the f64 path below does).
            _ => float_bits(ty, i as f64),
        });
    }
    match ty {
        ElemType::F32 => text.parse::<f32>().ok().map(|x| u64::from(x.to_bits())),
        _ => text.parse::<f64>().ok().map(|x| float_bits(ty, x)),
    }
}

/// The bits of value `v` as an element of type `ty`: a JSON number (floats rounded to
/// nearest even; integers exact and in range), `"0x..."` (the exact bits), or
/// `"nan"`, `"inf"`, `"-inf"` for float types.
///
/// # Errors
/// A [`SpecError`] at `path` when the value does not fit the type.
pub fn encode(ty: ElemType, v: &Value, path: &str) -> Result<u64, SpecError> {
    let width = ty.bits();
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    match v {
        Value::String(s) => {
            if let Some(hex) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                return match u64::from_str_radix(hex, 16) {
                    Ok(bits) if bits <= mask => Ok(bits),
                    Ok(_) => err(path, format!("\"{s}\" has more than {width} bits")),
                    Err(_) => err(path, format!("\"{s}\" is not a hexadecimal bit pattern")),
                };
            }
            let special = match s.as_str() {
                "nan" => f64::NAN,
                "inf" => f64::INFINITY,
                "-inf" => f64::NEG_INFINITY,
                _ => {
                    return err(
                        path,
                        format!("\"{s}\": strings are \"0x...\" bits, \"nan\", \"inf\" or \"-inf\""),
                    );
                }
            };
            if !ty.is_float() {
                return err(path, format!("\"{s}\" is only for float types, not {}", ty.name()));
            }
            Ok(float_bits(ty, special))
        }
        Value::Number(n) if ty.is_float() => match decimal_bits(ty, &n.to_string()) {
            Some(bits) => Ok(bits),
            None => err(path, format!("{n} is not representable")),
        },
        Value::Number(n) => {
            let value: i128 = if let Some(u) = n.as_u64() {
                i128::from(u)
            } else if let Some(i) = n.as_i64() {
                i128::from(i)
            } else {
                match n.as_f64() {
                    Some(f) if f.fract() == 0.0 && f.abs() < 1.8e19 => f as i128,
                    _ => return err(path, format!("{n} is not an integer, as {} requires", ty.name())),
                }
            };
            let (lo, hi): (i128, i128) = if ty.is_signed() {
                (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
            } else if ty.is_bits() {
                (-(1i128 << (width - 1)), (1i128 << width) - 1)
            } else {
                (0, (1i128 << width) - 1)
            };
            if value < lo || value > hi {
                return err(path, format!("{value} does not fit {} ({lo}..={hi})", ty.name()));
            }
            Ok((value as u64) & mask)
        }
        other => err(path, format!("{other} is not a number or a string")),
    }
}

fn float_bits(ty: ElemType, x: f64) -> u64 {
    match ty {
        ElemType::F16 => u64::from(half::f16::from_f64(x).to_bits()),
        ElemType::BF16 => u64::from(half::bf16::from_f64(x).to_bits()),
        ElemType::F32 => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    }
}

/// The JSON text of one element: an integer, or for floats the shortest decimal that
/// reads back to the same value of the element's type, or `"nan"`, `"inf"`, `"-inf"`.
pub fn decode(ty: ElemType, bits: u64) -> String {
    let mut out = String::new();
    decode_into(&mut out, ty, bits, &mut String::new());
    out
}

/// The decimal digits of `v`, appended to `out` (what `{v}` prints, without the
/// formatting machinery: buffers print millions of them).
fn push_digits(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &d in &buf[at..] {
        out.push(char::from(d));
    }
}

/// `v` in decimal with its sign, appended to `out`.
fn push_int(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_digits(out, v.unsigned_abs());
}

/// [`decode`], appended to `out`; `scratch` is working space, so that printing a
/// buffer allocates nothing per element.
#[inline(always)]
fn decode_into(out: &mut String, ty: ElemType, bits: u64, scratch: &mut String) {
    let value = match ty {
        ElemType::F16 => f64::from(half::f16::from_bits(bits as u16)),
        ElemType::BF16 => f64::from(half::bf16::from_bits(bits as u16)),
        ElemType::F32 => f64::from(f32::from_bits(bits as u32)),
        ElemType::F64 => f64::from_bits(bits),
        t if t.is_signed() => {
            let shift = 64 - t.bits();
            push_int(out, ((bits << shift) as i64) >> shift);
            return;
        }
        _ => {
            push_digits(out, bits);
            return;
        }
    };
    if value.is_nan() {
        out.push_str("\"nan\"");
        return;
    }
    if value.is_infinite() {
        out.push_str(if value > 0.0 { "\"inf\"" } else { "\"-inf\"" });
        return;
    }
    // Whole numbers below 2^precision, where every integer is a value of the type,
    // print as integers (what the search below gives them, without it); zero keeps
    // its `.0` and sign.
    let exact = match ty {
        ElemType::F16 => 2048.0,
        ElemType::BF16 => 256.0,
        ElemType::F32 => 16_777_216.0,
        _ => 9_007_199_254_740_992.0,
    };
    if value == 0.0 {
        out.push_str(if value.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    // (`as` truncates; no call to `trunc`.)
    if value.abs() <= exact && value == (value as i64) as f64 {
        push_int(out, value as i64);
        return;
    }
    shortest_into(out, ty, bits, value, scratch);
}

/// The shortest decimal for float `value` (the bits `bits` of `ty`), appended to
/// `out`: the slow path of [`decode_into`].
#[inline(never)]
fn shortest_into(out: &mut String, ty: ElemType, bits: u64, value: f64, scratch: &mut String) {
    use std::fmt::Write;
    scratch.clear();
    // f32 and f64 print the shortest decimal that reads back to the same value of
    // their own type; the halves search for it.
    match ty {
        ElemType::F32 => {
            let _ = write!(scratch, "{:e}", f32::from_bits(bits as u32));
        }
        ElemType::F64 => {
            let _ = write!(scratch, "{value:e}");
        }
        _ => {
            // The fewest significant digits that round back to the same bits of `ty`.
            let mask = if ty.bytes() == 8 { u64::MAX } else { (1 << ty.bits()) - 1 };
            for digits in 1..=17 {
                scratch.clear();
                let _ = write!(scratch, "{:.*e}", digits - 1, value);
                let back: f64 = scratch.parse().unwrap_or(f64::NAN);
                if float_bits(ty, back) == bits & mask {
                    break;
                }
            }
        }
    }
    json_number_into(out, scratch);
}

#[cfg(test)]
fn json_number(sci: &str) -> String {
    let mut out = String::new();
    json_number_into(&mut out, sci);
    out
}

/// Appends a number in Rust's `{:e}` form (`-1.25e-3`) as JSON text the way people
/// write it: positional from 1e-5 to below 1e16 (`0.00125`), zero as `0.0`.
fn json_number_into(out: &mut String, sci: &str) {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mantissa.starts_with('-');
    let digits = mantissa.as_bytes().iter().filter(|b| b.is_ascii_digit());
    let sign = if neg { "-" } else { "" };
    if digits.clone().all(|&d| d == b'0') {
        out.push_str(sign);
        out.push_str("0.0");
        return;
    }
    if !(-5..=15).contains(&exp) {
        out.push_str(mantissa);
        out.push('e');
        out.push_str(&exp.to_string());
        return;
    }
    out.push_str(sign);
    let n = digits.clone().count();
    let point = exp + 1;
    if point <= 0 {
        out.push_str("0.");
        (0..-point).for_each(|_| out.push('0'));
        digits.for_each(|&d| out.push(char::from(d)));
    } else if point as usize >= n {
        digits.for_each(|&d| out.push(char::from(d)));
        (n..point as usize).for_each(|_| out.push('0'));
    } else {
        for (k, &d) in digits.enumerate() {
            if k == point as usize {
                out.push('.');
            }
            out.push(char::from(d));
        }
    }
}

/// The result JSON: one entry per buffer argument, in argument order.
pub fn result_json(kernel: &str, buffers: &[(usize, ElemType, &[u8])]) -> String {
    let mut out = Vec::with_capacity(buffers.iter().map(|b| b.2.len() * 3).sum());
    // Writing to a Vec cannot fail, and every piece written is UTF-8.
    let _ = write_result_json(&mut out, kernel, buffers);
    String::from_utf8(out).unwrap_or_default()
}

/// [`result_json`], written to `w` piece by piece: a large buffer's text is printed
/// in chunks on every core and never gathered into one string.
///
/// # Errors
/// What writing to `w` returns.
pub fn write_result_json(
    w: &mut impl std::io::Write,
    kernel: &str,
    buffers: &[(usize, ElemType, &[u8])],
) -> std::io::Result<()> {
    use rayon::prelude::*;
    write!(w, "{{\"kernel\": {}, \"buffers\": [", Value::String(kernel.into()))?;
    for (k, (arg, elem, bytes)) in buffers.iter().enumerate() {
        if k > 0 {
            w.write_all(b", ")?;
        }
        write!(w, "{{\"arg\": {arg}, \"buffer\": \"{}\", \"data\": [", elem.name())?;
        let size = elem.bytes();
        let chunks: Vec<String> = bytes
            .par_chunks(size * 4096)
            .enumerate()
            .map(|(c, part)| {
                let mut text = String::with_capacity(part.len() * 3);
                let mut scratch = String::new();
                for (i, chunk) in part.chunks_exact(size).enumerate() {
                    if c > 0 || i > 0 {
                        // Two pushes: `push_str` of two bytes is a call to memcpy.
                        text.push(',');
                        text.push(' ');
                    }
                    // Little-endian bits without a variable-length memcpy call.
                    let bits = chunk.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
                    decode_into(&mut text, *elem, bits, &mut scratch);
                }
                text
            })
            .collect();
        for c in &chunks {
            w.write_all(c.as_bytes())?;
        }
        w.write_all(b"]}")?;
    }
    w.write_all(b"]}")
}

/// The result JSON of `ptxvm run --out-dir`: per buffer argument, in argument order,
/// the `.npy` file its contents were written to and its length in elements, in place
/// of the data: `{"arg": 1, "buffer": "f32", "len": 10, "npy": "out/y.npy"}`.
///
/// # Errors
/// What writing to `w` returns.
pub fn write_result_files_json(
    w: &mut impl std::io::Write,
    kernel: &str,
    files: &[(usize, ElemType, u64, &str)],
) -> std::io::Result<()> {
    write!(w, "{{\"kernel\": {}, \"buffers\": [", Value::String(kernel.into()))?;
    for (k, &(arg, elem, len, file)) in files.iter().enumerate() {
        let sep = if k > 0 { ", " } else { "" };
        let file = Value::String(file.into());
        write!(
            w,
            "{sep}{{\"arg\": {arg}, \"buffer\": \"{}\", \"len\": {len}, \"npy\": {file}}}",
            elem.name()
        )?;
    }
    w.write_all(b"]}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift generator of test inputs from `seed`.
    fn xorshift(mut x: u64) -> impl FnMut() -> u64 {
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    #[test]
    fn integers_print_as_the_standard_library_prints_them() {
        let mut next = xorshift(0x0123_4567_89ab_cdef);
        let mut values = vec![0, 1, -1, 9, 10, -10, 99, 100, i64::MAX, i64::MIN, i64::MIN + 1];
        for _ in 0..2000 {
            let x = next();
            values.push((x as i64) >> (x % 64));
        }
        for v in values {
            let mut s = String::new();
            push_int(&mut s, v);
            assert_eq!(s, v.to_string());
            s.clear();
            push_digits(&mut s, v as u64);
            assert_eq!(s, (v as u64).to_string());
        }
    }

    /// The printed f32 and f64 values read back to the same bits and have as few
    /// significant digits as a search over the number of digits finds, for 20,000
    /// random bit patterns (on a tie between two such decimals either may print).
    #[test]
    fn printed_floats_are_the_shortest_that_read_back() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let search = |ty: ElemType, bits: u64, value: f64| -> String {
            (1..=17)
                .map(|d| format!("{:.*e}", d - 1, value))
                .find(|t| encode(ty, &serde_json::from_str(t).unwrap(), "t").unwrap() == bits)
                .map(|t| json_number(&t))
                .unwrap()
        };
        // Whole numbers around each type's last exact integer, and random bits.
        let wholes = (0..64u32).flat_map(|k| {
            [(1u64 << 24) - 32 + u64::from(k), (1 << 53) - 32 + u64::from(k), u64::from(k) * 977 + 1]
        });
        for w in wholes {
            for (ty, bits, value) in [
                (ElemType::F32, u64::from((w as f32).to_bits()), f64::from(w as f32)),
                (ElemType::F64, (w as f64).to_bits(), w as f64),
                (
                    ElemType::F16,
                    u64::from(half::f16::from_f64(w as f64).to_bits()),
                    half::f16::from_f64(w as f64).to_f64(),
                ),
            ] {
                if value.is_finite() {
                    assert_eq!(decode(ty, bits), search(ty, bits, value), "{ty:?} {value}");
                }
            }
        }
        for _ in 0..20_000 {
            let b = next();
            let (f, d) = (f32::from_bits(b as u32), f64::from_bits(b));
            let digits = |t: &str| {
                let m = t.split('e').next().unwrap_or(t);
                m.trim_start_matches(['-', '0', '.']).chars().filter(char::is_ascii_digit).count()
                    - m.chars().rev().take_while(|&c| c == '0' || c == '.').filter(|&c| c == '0').count()
            };
            for (ty, bits, value, finite) in [
                (ElemType::F32, b & 0xffff_ffff, f64::from(f), f.is_finite()),
                (ElemType::F64, b, d, d.is_finite()),
            ] {
                if !finite {
                    continue;
                }
                let got = decode(ty, bits);
                assert_eq!(encode(ty, &serde_json::from_str(&got).unwrap(), "t").unwrap(), bits, "{got}");
                let want = search(ty, bits, value);
                assert_eq!(digits(&got), digits(&want), "{got} vs {want}");
            }
        }
    }

    /// Specs of every shape read the same through the text scan of their data lists
    /// as through a whole JSON value, errors included.
    #[test]
    fn data_lists_read_from_text_equal_whole_values() {
        let specs = [
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "f32", "data": [1, -2.5, "0x7fc00001", "inf"]}, {"type": "u32", "value": 7}]}"#,
            r#"{"args": [{"data": [1, 2], "buffer": "u8"}, {"buffer": "u16", "len": 3}, {"buffer": "s32", "data": []}], "grid": [2, 1], "block": 32}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1, 2, 300]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1, "x,]\"y", 3]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1, [2], 3]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [5, {"buffer": "u8", "data": [1]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1]}], "args": [{"buffer": "u8", "data": [2, 3]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1], "data": [4, 5]}]}"#,
            r#"{"kernel": "k\"args", "grid": 1, "block": 1, "args": [{"buffer": "f64", "data": [ 1e300 , -0.0 ]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1,,2]}]}"#,
            r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": "no"}]}"#,
        ];
        for text in specs {
            let whole = serde_json::from_str::<Value>(text)
                .map_err(|e| SpecError { path: "spec".into(), message: format!("not valid JSON: {e}") })
                .and_then(|v| spec_from(&v, &[], Path::new(".")));
            assert_eq!(parse_spec(text), whole, "{text}");
        }
        // The first spec's lists were taken apart, not read whole.
        assert!(data_lists(specs[0]).is_some_and(|l| l.len() == 1));
    }

    #[test]
    fn raw_lists_count_elements_and_refuse_empty_ones() {
        let len = |t: &str| RawList::new(t).map(|l| l.len);
        assert_eq!(len(""), Some(0));
        assert_eq!(len(" \n "), Some(0));
        assert_eq!(len("1"), Some(1));
        assert_eq!(len(" 1 ,\t2\r\n, 3 "), Some(3));
        assert_eq!(len("\"a,b\", 2"), Some(2));
        for bad in [",1", "1,", "1,,2", "1, ,2", "1,\n,2", "\"a", "1, \""] {
            assert_eq!(len(bad), None, "{bad:?}");
        }
        // A form feed is not JSON whitespace: an element, which fails to convert.
        assert_eq!(len("\u{c}"), Some(1));
        // Long lists are cut into runs at commas; the elements keep their order.
        let text: String = (0..100_000).map(|i| i.to_string()).collect::<Vec<_>>().join(", ");
        let list = RawList::new(&text).unwrap();
        assert_eq!(list.len, 100_000);
        assert!(list.runs.len() > 1);
        let mut seen = 0;
        for &(first, run) in &list.runs {
            assert_eq!(first, seen);
            for item in (Items { run, start: 0 }) {
                assert_eq!(item, Some(seen.to_string().as_str()));
                seen += 1;
            }
        }
        assert_eq!(seen, 100_000);
    }

    /// Whole numbers take an integer path; the standard library's decimal parser
    /// (correctly rounded) says what they must read as, `-0` included.
    #[test]
    fn whole_number_inputs_round_as_decimals_do() {
        let texts = [
            "0",
            "-0",
            "1",
            "-5",
            "16777216",
            "16777217",
            "16777219",
            "-16777221",
            "2049",
            "65519",
            "65520",
            "9007199254740993",
            "-9007199254740995",
            "999999999999999999",
            "-999999999999999999",
            "123456789012345678",
        ];
        for t in texts {
            let f32_bits = u64::from(t.parse::<f32>().unwrap().to_bits());
            assert_eq!(decimal_bits(ElemType::F32, t), Some(f32_bits), "f32 {t}");
            let f64 = t.parse::<f64>().unwrap();
            assert_eq!(decimal_bits(ElemType::F64, t), Some(f64.to_bits()), "f64 {t}");
            for ty in [ElemType::F16, ElemType::BF16] {
                assert_eq!(decimal_bits(ty, t), Some(float_bits(ty, f64)), "{} {t}", ty.name());
            }
        }
        assert_eq!(decimal_bits(ElemType::F32, "-0"), Some(0x8000_0000));
    }

    /// 20,000 random f64 and 20,000 random f32 values, written as the shortest
    /// decimal that reads back to them and with 17 (f64) or 9 (f32) significant
    /// digits: both forms must read back to exactly the same bits.
    #[test]
    fn decimal_inputs_are_read_exactly() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        let read = |ty: ElemType, text: &str| -> u64 {
            let v: Value = serde_json::from_str(text).unwrap();
            encode(ty, &v, "t").unwrap()
        };
        let (mut f64s, mut f32s) = (0, 0);
        while f64s < 20_000 {
            let v = f64::from_bits(next());
            if !v.is_finite() {
                continue;
            }
            for text in [format!("{v:e}"), format!("{v:.16e}")] {
                assert_eq!(read(ElemType::F64, &text), v.to_bits(), "{text}");
            }
            f64s += 1;
        }
        while f32s < 20_000 {
            let v = f32::from_bits(next() as u32);
            if !v.is_finite() {
                continue;
            }
            for text in [format!("{v:e}"), format!("{v:.8e}")] {
                assert_eq!(read(ElemType::F32, &text), u64::from(v.to_bits()), "{text}");
            }
            f32s += 1;
        }
        // The same through a whole spec, whose data lists are read from their text.
        let f64s: Vec<f64> = (0..2000).map(|_| f64::from_bits(next() >> 2)).collect();
        let f32s: Vec<f32> = (0..2000).map(|_| f32::from_bits(next() as u32 >> 2)).collect();
        let list = |v: Vec<String>| v.join(", ");
        let spec = format!(
            r#"{{"grid": 1, "block": 1, "args": [{{"buffer": "f64", "data": [{}]}}, {{"buffer": "f32", "data": [{}]}}]}}"#,
            list(f64s.iter().map(|v| format!("{v:.16e}")).collect()),
            list(f32s.iter().map(|v| format!("{v:e}")).collect())
        );
        let parsed = parse_spec(&spec).unwrap();
        let want64: Vec<u8> = f64s.iter().flat_map(|v| v.to_le_bytes()).collect();
        let want32: Vec<u8> = f32s.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert!(matches!(&parsed.args[0], Arg::Buffer { bytes, .. } if *bytes == want64));
        assert!(matches!(&parsed.args[1], Arg::Buffer { bytes, .. } if *bytes == want32));
    }

    fn spec(json: &str) -> Result<LaunchSpec, SpecError> {
        parse_spec(json)
    }

    #[test]
    fn shapes_default_and_follow_cuda_limits() {
        let s = spec(r#"{"grid": 4, "block": [32, 2], "args": []}"#).unwrap();
        assert_eq!((s.grid, s.block), (Dim3 { x: 4, y: 1, z: 1 }, Dim3 { x: 32, y: 2, z: 1 }));
        assert_eq!(s.kernel, None);
        assert!(spec(r#"{"grid": 1, "block": [1024, 2]}"#).unwrap_err().message.contains("2048 threads"));
        assert!(spec(r#"{"grid": [1, 1, 1, 1], "block": 1}"#).unwrap_err().message.contains("1 to 3"));
        assert!(spec(r#"{"grid": 0, "block": 1}"#).unwrap_err().message.contains("x is 0"));
        assert!(spec(r#"{"grid": [1, 70000], "block": 1}"#).unwrap_err().message.contains("65535"));
        assert_eq!(spec(r#"{"grid": 1, "block": 1, "blok": 2}"#).unwrap_err().path, "blok");
        assert!(spec("{\"grid\": 1,").unwrap_err().message.contains("not valid JSON"));
    }

    #[test]
    fn integers_are_exact_and_in_range() {
        let v = |t, j: &str| encode(t, &serde_json::from_str(j).unwrap(), "v");
        assert_eq!(v(ElemType::U8, "255"), Ok(255));
        assert!(v(ElemType::U8, "256").is_err());
        assert!(v(ElemType::U32, "-1").is_err());
        assert_eq!(v(ElemType::S8, "-128"), Ok(0x80));
        assert!(v(ElemType::S8, "128").is_err());
        assert_eq!(v(ElemType::B32, "-1"), Ok(0xffff_ffff));
        assert_eq!(v(ElemType::U64, "18446744073709551615"), Ok(u64::MAX));
        assert_eq!(v(ElemType::S64, "-9223372036854775808"), Ok(1 << 63));
        assert!(v(ElemType::S32, "1.5").is_err());
        assert_eq!(v(ElemType::U32, "\"0xdeadbeef\""), Ok(0xdead_beef));
        assert!(v(ElemType::U16, "\"0x10000\"").is_err());
        assert!(v(ElemType::U32, "\"nan\"").is_err());
    }

    #[test]
    fn floats_round_to_nearest_even_and_name_specials() {
        let v = |t, j: &str| encode(t, &serde_json::from_str(j).unwrap(), "v").unwrap();
        // IEEE 754 encodings, from the formats' definitions.
        assert_eq!(v(ElemType::F32, "0.1"), 0x3dcc_cccd);
        assert_eq!(v(ElemType::F32, "\"nan\""), 0x7fc0_0000);
        assert_eq!(v(ElemType::F32, "\"-inf\""), 0xff80_0000);
        assert_eq!(v(ElemType::F64, "1"), 0x3ff0_0000_0000_0000);
        assert_eq!(v(ElemType::F16, "0.1"), 0x2e66);
        assert_eq!(v(ElemType::F16, "65504"), 0x7bff);
        assert_eq!(v(ElemType::F16, "65520"), 0x7c00, "rounds to infinity");
        assert_eq!(v(ElemType::BF16, "1"), 0x3f80);
        assert_eq!(v(ElemType::F32, "\"0x7fa00001\""), 0x7fa0_0001, "exact bits keep a signalling payload");
    }

    #[test]
    fn results_print_the_shortest_round_trip_decimal() {
        assert_eq!(decode(ElemType::F32, 0x3dcc_cccd), "0.1");
        assert_eq!(decode(ElemType::F32, f32::to_bits(1.0 / 3.0) as u64), "0.33333334");
        assert_eq!(decode(ElemType::F64, 0.1f64.to_bits()), "0.1");
        assert_eq!(decode(ElemType::F64, 1e20f64.to_bits()), "1e20");
        assert_eq!(decode(ElemType::F32, 1), "1e-45");
        assert_eq!(decode(ElemType::F16, 0x2e66), "0.1");
        // numpy agrees: np.float16(65504) prints as 65500.0, the shortest round trip.
        assert_eq!(decode(ElemType::F16, 0x7bff), "65500");
        assert_eq!(decode(ElemType::BF16, 0x3f80), "1");
        assert_eq!(decode(ElemType::F32, 0x8000_0000), "-0.0");
        assert_eq!(decode(ElemType::F32, 0), "0.0");
        assert_eq!(decode(ElemType::F16, 0x8000), "-0.0");
        assert_eq!(decode(ElemType::BF16, 0), "0.0");
        assert_eq!(decode(ElemType::F64, 1 << 63), "-0.0");
        assert_eq!(decode(ElemType::F32, 0x4b80_0000), "16777216");
        assert_eq!(decode(ElemType::F32, 0x4b80_0001), "16777218");
        assert_eq!(decode(ElemType::F32, 0xcb00_0001), "-8388609");
        assert_eq!(decode(ElemType::F32, 0x7fc0_0001), "\"nan\"");
        assert_eq!(decode(ElemType::F64, f64::NEG_INFINITY.to_bits()), "\"-inf\"");
        assert_eq!(decode(ElemType::S16, 0xffff), "-1");
        assert_eq!(decode(ElemType::U64, u64::MAX), "18446744073709551615");
        assert_eq!(decode(ElemType::F32, 2.5e-7f32.to_bits() as u64), "2.5e-7");
    }

    #[test]
    fn bytes_arguments_come_in_memory_order() {
        let s =
            spec(r#"{"grid": 1, "block": 1, "args": [{"type": "bytes", "value": "0x0a0B00ff"}]}"#).unwrap();
        assert_eq!(s.args[0], Arg::Bytes(vec![0x0a, 0x0b, 0x00, 0xff]));
        for bad in ["\"0x123\"", "\"0x\"", "\"12\"", "\"0xzz\"", "12", "\"0xaé0a0\"", "\"0x+1+2\""] {
            let text = format!(r#"{{"grid": 1, "block": 1, "args": [{{"type": "bytes", "value": {bad}}}]}}"#);
            let e = spec(&text).unwrap_err();
            assert_eq!(e.path, "args[0].value", "{bad}");
        }
    }

    #[test]
    fn buffers_and_scalars() {
        let s = spec(
            r#"{"grid": 1, "block": 1, "args": [
            {"type": "f32", "value": 2.0},
            {"buffer": "u16", "data": [1, "0xffff"]},
            {"buffer": "f64", "len": 3}]}"#,
        )
        .unwrap();
        assert_eq!(s.args[0], Arg::Scalar { ty: ElemType::F32, bits: 0x4000_0000 });
        assert_eq!(s.args[1], Arg::Buffer { elem: ElemType::U16, bytes: vec![1, 0, 0xff, 0xff], name: None });
        assert_eq!(s.args[2], Arg::Buffer { elem: ElemType::F64, bytes: vec![0; 24], name: None });
        let e = spec(r#"{"grid": 1, "block": 1, "args": [{"buffer": "b32", "len": 1}]}"#).unwrap_err();
        assert_eq!(e.path, "args[0].buffer");
        let e = spec(r#"{"grid": 1, "block": 1, "args": [{"buffer": "u8", "data": [1, 300]}]}"#).unwrap_err();
        assert_eq!(e.path, "args[0].data[1]");
        let e = spec(r#"{"grid": 1, "block": 1, "args": [{"buffer": "u64", "len": 1000000000000}]}"#)
            .unwrap_err();
        assert!(e.message.contains("exceed"));
        let json = result_json("k", &[(1, ElemType::U16, &[1, 0, 0xff, 0xff])]);
        assert_eq!(json, r#"{"kernel": "k", "buffers": [{"arg": 1, "buffer": "u16", "data": [1, 65535]}]}"#);
    }

    /// A spec with `args` read in tests/data/npy/ (files NumPy wrote; make_fixtures.py).
    fn npy_spec(args: &str) -> Result<LaunchSpec, SpecError> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy");
        parse_spec_in(&format!(r#"{{"grid": 1, "block": 1, "args": [{args}]}}"#), &dir)
    }

    #[test]
    fn npy_buffers_take_type_and_length_from_the_file() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy");
        let npy = |elem, file: &str, len, name: Option<&str>| Arg::NpyBuffer {
            elem,
            path: dir.join(file),
            len,
            name: name.map(String::from),
        };
        let s = npy_spec(r#"{"type": "buffer", "npy": "f4.npy", "name": "x"}, {"buffer": "f32", "npy": "f4.npy", "len": 3}"#)
            .unwrap();
        assert_eq!(s.args[0], npy(ElemType::F32, "f4.npy", 3, Some("x")));
        assert_eq!(s.args[1], npy(ElemType::F32, "f4.npy", 3, None));
        assert_eq!((s.buffer_name(0), s.buffer_name(1)), ("x".to_string(), "arg1".to_string()));
        // A 2x3 C-order array is its 6 elements in order; bf16 reads <u2 as bits.
        let s = npy_spec(r#"{"type": "buffer", "npy": "c_2x3_i4.npy", "elem": "s32", "len": 6}, {"type": "buffer", "elem": "bf16", "npy": "u2.npy"}"#).unwrap();
        assert_eq!(s.args[0], npy(ElemType::S32, "c_2x3_i4.npy", 6, None));
        assert_eq!(s.args[1], npy(ElemType::BF16, "u2.npy", 2, None));
    }

    #[test]
    fn npy_buffers_that_disagree_or_cannot_be_read_are_errors() {
        let cases = [
            (r#"{"type": "buffer", "npy": "f4.npy", "elem": "f64"}"#, "args[0]", "'<f4' (f32)"),
            (r#"{"buffer": "s32", "npy": "f4.npy"}"#, "args[0]", "the spec says s32"),
            (r#"{"type": "buffer", "npy": "f4.npy", "len": 4}"#, "args[0].len", "holds 3"),
            (
                r#"{"type": "buffer", "npy": "big_f4.npy"}"#,
                "args[0].npy",
                "big_f4.npy: dtype '>f4' is big-endian",
            ),
            (r#"{"type": "buffer", "npy": "object.npy"}"#, "args[0].npy", "object.npy: dtype '|O'"),
            (r#"{"type": "buffer", "npy": "fortran_2x3_i4.npy"}"#, "args[0].npy", "Fortran order"),
            (r#"{"type": "buffer", "npy": "none.npy"}"#, "args[0].npy", "none.npy"),
            (r#"{"type": "buffer", "npy": 3}"#, "args[0].npy", "path"),
            (r#"{"type": "buffer", "npy": "f4.npy", "data": [1]}"#, "args[0]", "not both"),
            (r#"{"type": "buffer", "len": 3}"#, "args[0]", "\"elem\""),
            (r#"{"type": "buffer", "elem": "f32", "len": 1, "value": 3}"#, "args[0].value", "unknown field"),
            (r#"{"type": "buffer", "npy": "f4.npy", "name": "../x"}"#, "args[0].name", "file name"),
            (
                r#"{"type": "buffer", "npy": "f4.npy", "name": "arg1"}, {"buffer": "u8", "len": 1}"#,
                "args[1].name",
                "args[0]",
            ),
        ];
        for (args, path, message) in cases {
            let e = npy_spec(args).unwrap_err();
            assert_eq!(e.path, path, "{args}: {e}");
            assert!(e.message.contains(message), "{args}: {e}");
        }
    }

    #[test]
    fn file_results_list_each_file_and_length() {
        let mut out = Vec::new();
        write_result_files_json(
            &mut out,
            "k",
            &[(1, ElemType::BF16, 3, "o/a \"b\".npy"), (2, ElemType::U8, 0, "o/arg2.npy")],
        )
        .unwrap();
        let want = r#"{"kernel": "k", "buffers": [{"arg": 1, "buffer": "bf16", "len": 3, "npy": "o/a \"b\".npy"}, {"arg": 2, "buffer": "u8", "len": 0, "npy": "o/arg2.npy"}]}"#;
        assert_eq!(String::from_utf8(out).unwrap(), want);
    }
}
