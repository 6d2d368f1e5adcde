//! NumPy's `.npy` files (format versions 1.0, 2.0 and 3.0, as NumPy's
//! `numpy/lib/format.py` defines them): the magic `\x93NUMPY`, a version, the length
//! of a header, the header (a Python dict literal with `descr`, `fortran_order` and
//! `shape`, padded with spaces to a multiple of 64 bytes and ended by a newline), then
//! the elements' bytes in C order.
//!
//! Buffers of a launch are read from and written to these files byte for byte, with
//! no text in between: only the header is parsed. Only little-endian (or one-byte)
//! numbers map to buffer element types; other dtypes are refused with their name.

use crate::launch::ElemType;
use std::io::Read;
use std::path::Path;

/// Why a `.npy` file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpyError {
    #[error("not a .npy file (it does not start with \\x93NUMPY)")]
    Magic,
    #[error("npy format version {0}.{1} is not one ptxvm reads (1.0, 2.0, 3.0)")]
    Version(u8, u8),
    #[error("the file ends inside its {0}")]
    Truncated(&'static str),
    #[error("malformed npy header: {0}")]
    Header(String),
    #[error(
        "dtype '{0}' is big-endian; ptxvm reads little-endian data (use arr.astype(arr.dtype.newbyteorder('<')))"
    )]
    BigEndian(String),
    #[error("dtype '{0}' is not a number type ptxvm reads (f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1)")]
    Dtype(String),
    #[error("the array is in Fortran order; save it in C order (np.ascontiguousarray)")]
    FortranOrder,
    #[error("shape {0:?} holds more elements than fit in memory")]
    TooLarge(Vec<u64>),
    #[error("the header announces {want} data bytes, the file holds {have}")]
    Length { want: u64, have: u64 },
    #[error("{0}")]
    Io(String),
}

/// What a header says: the element type, the dtype as written, and the shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub elem: ElemType,
    /// The `descr` text, such as `<f4`.
    pub descr: String,
    pub shape: Vec<u64>,
    /// Bytes before the data: magic, version, length and header.
    pub data_offset: usize,
}

impl Header {
    /// Elements in the array (1 for shape `()`).
    pub fn len(&self) -> u64 {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

const MAGIC: &[u8] = b"\x93NUMPY";

/// Parses the header at the start of `bytes` (which may stop anywhere after it).
///
/// # Errors
/// An [`NpyError`] for a missing magic, an unknown version, a header that does not
/// parse, Fortran order, or a dtype that is not a little-endian number.
pub fn parse_header(bytes: &[u8]) -> Result<Header, NpyError> {
    if bytes.len() < MAGIC.len() + 2 {
        return Err(if bytes.starts_with(&MAGIC[..bytes.len().min(MAGIC.len())]) {
            NpyError::Truncated("magic")
        } else {
            NpyError::Magic
        });
    }
    if &bytes[..6] != MAGIC {
        return Err(NpyError::Magic);
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (len, start) = match (major, minor) {
        (1, 0) => {
            let b = bytes.get(8..10).ok_or(NpyError::Truncated("header length"))?;
            (usize::from(u16::from_le_bytes([b[0], b[1]])), 10)
        }
        (2 | 3, 0) => {
            let b = bytes.get(8..12).ok_or(NpyError::Truncated("header length"))?;
            (u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize, 12)
        }
        _ => return Err(NpyError::Version(major, minor)),
    };
    let text = bytes.get(start..start + len).ok_or(NpyError::Truncated("header"))?;
    // Versions 1 and 2 are Latin-1, 3 is UTF-8; the keys and values we accept are ASCII.
    let text = std::str::from_utf8(text).map_err(|_| NpyError::Header("not ASCII text".into()))?;
    let dict = Literal::parse(text)?;
    let Literal::Dict(entries) = dict else { return Err(NpyError::Header("not a dict".into())) };
    let get = |key: &str| entries.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let descr = match get("descr") {
        Some(Literal::Str(s)) => s.clone(),
        Some(_) => return Err(NpyError::Dtype("a structured dtype".into())),
        None => return Err(NpyError::Header("no 'descr'".into())),
    };
    let fortran = match get("fortran_order") {
        Some(Literal::Bool(b)) => *b,
        _ => return Err(NpyError::Header("no 'fortran_order' True or False".into())),
    };
    let shape = match get("shape") {
        Some(Literal::Tuple(dims)) => dims.clone(),
        _ => return Err(NpyError::Header("no 'shape' tuple".into())),
    };
    let elem = elem_of(&descr)?;
    // A Fortran-ordered array of one dimension or fewer has C's layout too.
    if fortran && shape.iter().filter(|&&d| d != 1).count() > 1 {
        return Err(NpyError::FortranOrder);
    }
    let count = shape.iter().try_fold(1u64, |n, &d| n.checked_mul(d));
    if count.and_then(|n| n.checked_mul(elem.bytes() as u64)).is_none() {
        return Err(NpyError::TooLarge(shape));
    }
    Ok(Header { elem, descr, shape, data_offset: start + len })
}

/// The buffer element type of a dtype: `<` (little-endian), `=` (native, which
/// ptxvm's buffers are) or `|` (one byte) with a kind and size.
fn elem_of(descr: &str) -> Result<ElemType, NpyError> {
    use ElemType::*;
    // The first character, whatever its width: a version 3 header is UTF-8.
    let at = descr.chars().next().map_or(0, char::len_utf8);
    let (order, code) = descr.split_at(at);
    let elem = match code {
        "f2" => F16,
        "f4" => F32,
        "f8" => F64,
        "i1" => S8,
        "i2" => S16,
        "i4" => S32,
        "i8" => S64,
        "u1" | "b1" => U8,
        "u2" => U16,
        "u4" => U32,
        "u8" => U64,
        _ => return Err(NpyError::Dtype(descr.into())),
    };
    match order {
        "<" | "=" => Ok(elem),
        "|" if elem.bytes() == 1 => Ok(elem),
        ">" if elem.bytes() == 1 => Ok(elem),
        ">" => Err(NpyError::BigEndian(descr.into())),
        _ => Err(NpyError::Dtype(descr.into())),
    }
}

/// The dtype written for a buffer of `elem`: bf16, which NumPy has no type for, is
/// written as its bits, `<u2`.
pub fn descr_of(elem: ElemType) -> &'static str {
    use ElemType::*;
    match elem {
        U8 | B8 => "|u1",
        S8 => "|i1",
        U16 | B16 | BF16 => "<u2",
        S16 => "<i2",
        U32 | B32 => "<u4",
        S32 => "<i4",
        U64 | B64 => "<u8",
        S64 => "<i8",
        F16 => "<f2",
        F32 => "<f4",
        F64 => "<f8",
    }
}

/// A version 1.0 header for a 1-D array of `len` elements of `elem`, padded as NumPy
/// pads it (the data starts at a multiple of 64 bytes); version 2.0 when the header
/// would not fit 1.0's 16-bit length (it always does for one dimension).
pub fn header(elem: ElemType, len: u64) -> Vec<u8> {
    let dict = format!("{{'descr': '{}', 'fortran_order': False, 'shape': ({len},), }}", descr_of(elem));
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&[1, 0]);
    // Magic, version and length take 10 bytes; the dict, spaces and `\n` the rest.
    let total = (10 + dict.len() + 1).div_ceil(64) * 64;
    let len = (total - 10) as u16;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

/// Opens a `.npy` file: its header, and the file positioned at the data, which is
/// exactly as long as the header says.
///
/// # Errors
/// An [`NpyError`] when the file cannot be read, its header is not one ptxvm reads,
/// or the data is shorter or longer than the header says.
pub fn open(path: &Path) -> Result<(Header, std::fs::File), NpyError> {
    use std::io::{Seek, SeekFrom};
    let io = |e: std::io::Error| NpyError::Io(e.to_string());
    let mut file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    // The header is at most a few kilobytes; read a prefix, then seek to the data.
    let mut prefix = Vec::with_capacity(4096);
    (&mut file).take(1 << 16).read_to_end(&mut prefix).map_err(io)?;
    let head = parse_header(&prefix)?;
    let want = head.len() * head.elem.bytes() as u64;
    let have = size.saturating_sub(head.data_offset as u64);
    if want != have {
        return Err(NpyError::Length { want, have });
    }
    file.seek(SeekFrom::Start(head.data_offset as u64)).map_err(io)?;
    Ok((head, file))
}

/// Reads a `.npy` file: its header and its data bytes (in the file's order, which is
/// the device's little-endian order).
///
/// # Errors
/// As [`open`], and when the file changes while it is read.
pub fn read(path: &Path) -> Result<(Header, Vec<u8>), NpyError> {
    let (head, file) = open(path)?;
    let want = head.len() * head.elem.bytes() as u64;
    let mut data = Vec::with_capacity(want as usize);
    file.take(want).read_to_end(&mut data).map_err(|e| NpyError::Io(e.to_string()))?;
    if data.len() as u64 != want {
        return Err(NpyError::Length { want, have: data.len() as u64 });
    }
    Ok((head, data))
}

/// The part of Python's literal syntax a header uses.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Literal {
    Str(String),
    Bool(bool),
    Int(u64),
    Tuple(Vec<u64>),
    List,
    Dict(Vec<(String, Literal)>),
}

impl Literal {
    fn parse(text: &str) -> Result<Literal, NpyError> {
        let mut p = LiteralParser { b: text.as_bytes(), at: 0, depth: 0 };
        let v = p.value()?;
        p.space();
        if p.at != p.b.len() {
            return Err(p.error("text after the dict"));
        }
        Ok(v)
    }
}

struct LiteralParser<'a> {
    b: &'a [u8],
    at: usize,
    depth: u32,
}

impl LiteralParser<'_> {
    fn error(&self, what: &str) -> NpyError {
        NpyError::Header(format!("{what} at byte {}", self.at))
    }

    fn space(&mut self) {
        while self.at < self.b.len() && self.b[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        let hit = self.b.get(self.at) == Some(&c);
        self.at += usize::from(hit);
        hit
    }

    fn value(&mut self) -> Result<Literal, NpyError> {
        self.space();
        self.depth += 1;
        if self.depth > 16 {
            return Err(self.error("nesting too deep"));
        }
        let v = match self.b.get(self.at) {
            Some(b'\'' | b'"') => Literal::Str(self.string()?),
            Some(b'{') => {
                self.at += 1;
                let mut entries = Vec::new();
                while !self.eat(b'}') {
                    self.space();
                    let key = self.string()?;
                    if !self.eat(b':') {
                        return Err(self.error("expected ':'"));
                    }
                    entries.push((key, self.value()?));
                    if self.eat(b'}') {
                        break;
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' or '}'"));
                    }
                }
                Literal::Dict(entries)
            }
            Some(&open @ (b'(' | b'[')) => {
                self.at += 1;
                let close = if open == b'(' { b')' } else { b']' };
                let mut items = Vec::new();
                let mut other = false;
                while !self.eat(close) {
                    match self.value()? {
                        Literal::Int(n) => items.push(n),
                        _ => other = true,
                    }
                    if self.eat(close) {
                        break;
                    }
                    if !self.eat(b',') {
                        return Err(self.error("expected ',' or a closing bracket"));
                    }
                }
                if open == b'[' || other { Literal::List } else { Literal::Tuple(items) }
            }
            Some(b'0'..=b'9') => {
                let start = self.at;
                while self.b.get(self.at).is_some_and(u8::is_ascii_digit) {
                    self.at += 1;
                }
                // Digits are ASCII.
                let digits = std::str::from_utf8(&self.b[start..self.at]).unwrap_or("");
                // NumPy 1.x wrote `10L` for Python 2 longs.
                self.at += usize::from(self.b.get(self.at) == Some(&b'L'));
                Literal::Int(digits.parse().map_err(|_| self.error("integer too large"))?)
            }
            _ if self.b[self.at..].starts_with(b"True") => {
                self.at += 4;
                Literal::Bool(true)
            }
            _ if self.b[self.at..].starts_with(b"False") => {
                self.at += 5;
                Literal::Bool(false)
            }
            _ => return Err(self.error("unexpected text")),
        };
        self.depth -= 1;
        Ok(v)
    }

    /// A quoted string without escapes (dtype names and keys have none).
    fn string(&mut self) -> Result<String, NpyError> {
        let quote = match self.b.get(self.at) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => return Err(self.error("expected a quoted string")),
        };
        let start = self.at + 1;
        let Some(len) = self.b[start..].iter().position(|&c| c == quote) else {
            return Err(self.error("string does not end"));
        };
        self.at = start + len + 1;
        Ok(String::from_utf8_lossy(&self.b[start..start + len]).into_owned())
    }
}
