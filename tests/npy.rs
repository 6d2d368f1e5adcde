//! The `.npy` reader and writer (src/npy.rs) against files NumPy wrote
//! (tests/data/npy/, made by make_fixtures.py there): the values below are what that
//! script put in each file, written out by hand.

use ptxvm::launch::ElemType;
use ptxvm::npy::{self, NpyError};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy").join(name)
}

fn read(name: &str) -> Result<(npy::Header, Vec<u8>), NpyError> {
    npy::read(&fixture(name))
}

fn le<const N: usize>(values: &[[u8; N]]) -> Vec<u8> {
    values.concat()
}

#[test]
fn every_number_dtype_reads_as_its_element_type() {
    let cases: Vec<(&str, ElemType, &str, Vec<u8>)> = vec![
        (
            "f4.npy",
            ElemType::F32,
            "<f4",
            le(&[1.0f32.to_le_bytes(), (-2.5f32).to_le_bytes(), 0.125f32.to_le_bytes()]),
        ),
        // IEEE binary16: 1.0 = 0x3c00, -2.0 = 0xc000, 65504 = 0x7bff.
        (
            "f2.npy",
            ElemType::F16,
            "<f2",
            le(&[0x3c00u16.to_le_bytes(), 0xc000u16.to_le_bytes(), 0x7bffu16.to_le_bytes()]),
        ),
        ("f8.npy", ElemType::F64, "<f8", le(&[0.5f64.to_le_bytes(), 1e300f64.to_le_bytes()])),
        ("i1.npy", ElemType::S8, "|i1", vec![0xff, 2, 0x80]),
        ("u1.npy", ElemType::U8, "|u1", vec![0, 255]),
        ("i2.npy", ElemType::S16, "<i2", le(&[(-2i16).to_le_bytes(), 300i16.to_le_bytes()])),
        ("u2.npy", ElemType::U16, "<u2", le(&[65535u16.to_le_bytes(), 1u16.to_le_bytes()])),
        ("i4.npy", ElemType::S32, "<i4", le(&[(-7i32).to_le_bytes(), (1i32 << 30).to_le_bytes()])),
        ("u4.npy", ElemType::U32, "<u4", le(&[u32::MAX.to_le_bytes(), 3u32.to_le_bytes()])),
        ("i8.npy", ElemType::S64, "<i8", le(&[(-(1i64 << 62)).to_le_bytes(), 5i64.to_le_bytes()])),
        ("u8.npy", ElemType::U64, "<u8", u64::MAX.to_le_bytes().to_vec()),
        ("b1.npy", ElemType::U8, "|b1", vec![1, 0, 1]),
    ];
    for (name, elem, descr, data) in cases {
        let (h, bytes) = read(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((h.elem, h.descr.as_str()), (elem, descr), "{name}");
        assert_eq!(h.len() as usize * elem.bytes(), data.len(), "{name}");
        assert_eq!(bytes, data, "{name}");
    }
}

#[test]
fn versions_two_and_three_shapes_and_c_order() {
    for name in ["v2_f4.npy", "v3_f4.npy"] {
        let (h, bytes) = read(name).unwrap();
        // Versions 2 and 3 have a 4-byte header length: magic 6 + version 2 + 4.
        assert_eq!(h.shape, [2]);
        assert_eq!(bytes, le(&[1.0f32.to_le_bytes(), 2.0f32.to_le_bytes()]), "{name}");
        assert_eq!(h.data_offset % 64, 0, "{name}");
    }
    let (h, bytes) = read("scalar_f4.npy").unwrap();
    assert_eq!((h.shape.len(), h.len()), (0, 1));
    assert_eq!(bytes, 3.0f32.to_le_bytes());
    let (h, bytes) = read("empty_f4.npy").unwrap();
    assert_eq!((h.shape.as_slice(), bytes.len()), ([0u64].as_slice(), 0));
    // np.arange(6).reshape(2, 3) in C order is 0..6 in memory.
    let (h, bytes) = read("c_2x3_i4.npy").unwrap();
    assert_eq!(h.shape, [2, 3]);
    let want: Vec<u8> = (0..6i32).flat_map(i32::to_le_bytes).collect();
    assert_eq!(bytes, want);
}

#[test]
fn unsupported_files_are_refused_by_name() {
    assert_eq!(read("fortran_2x3_i4.npy").unwrap_err(), NpyError::FortranOrder);
    assert_eq!(read("big_f4.npy").unwrap_err(), NpyError::BigEndian(">f4".into()));
    assert_eq!(read("object.npy").unwrap_err(), NpyError::Dtype("|O".into()));
    assert_eq!(read("c8.npy").unwrap_err(), NpyError::Dtype("<c8".into()));
    assert!(matches!(read("structured.npy").unwrap_err(), NpyError::Dtype(_)));
    assert!(matches!(read("make_fixtures.py").unwrap_err(), NpyError::Magic));
    assert!(matches!(read("missing.npy").unwrap_err(), NpyError::Io(_)));
}

#[test]
fn damaged_headers_and_lengths_are_errors_not_panics() {
    let good = std::fs::read(fixture("f4.npy")).unwrap();
    // Every prefix that stops inside the header (128 bytes in NumPy's file): an error.
    for cut in 0..128 {
        assert!(npy::parse_header(&good[..cut]).is_err(), "prefix {cut}");
    }
    assert_eq!(npy::parse_header(&good[..128]).unwrap().data_offset, 128);
    let dir = std::env::temp_dir().join(format!("ptxvm-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.npy");
    std::fs::write(&short, &good[..good.len() - 1]).unwrap();
    assert_eq!(npy::read(&short).unwrap_err(), NpyError::Length { want: 12, have: 11 });
    let mut version = good.clone();
    version[6] = 4;
    assert_eq!(npy::parse_header(&version).unwrap_err(), NpyError::Version(4, 0));
    // Every single-byte change to the header: an error or a header, never a panic.
    for at in 8..64 {
        for b in [0u8, b'(', b')', b'{', b'}', b'\'', b',', b'9', 0xff] {
            let mut v = good.clone();
            v[at] = b;
            let _ = npy::parse_header(&v);
        }
    }
    // A version 3 (UTF-8) header whose dtype starts with a multi-byte character.
    let dict = "{'descr': '\u{e9}f4', 'fortran_order': False, 'shape': (3,), }";
    let mut v3 = b"\x93NUMPY\x03\x00".to_vec();
    let pad = (16 - (12 + dict.len() + 1) % 16) % 16;
    let text = format!("{dict}{}\n", " ".repeat(pad));
    v3.extend((text.len() as u32).to_le_bytes());
    v3.extend(text.as_bytes());
    v3.extend([0u8; 12]);
    assert!(matches!(npy::parse_header(&v3), Err(NpyError::Dtype(d)) if d == "\u{e9}f4"));
}

#[test]
fn written_headers_are_byte_for_byte_what_numpy_writes() {
    let cases = [
        ("f4.npy", ElemType::F32, 3),
        ("f2.npy", ElemType::F16, 3),
        ("f8.npy", ElemType::F64, 2),
        ("i1.npy", ElemType::S8, 3),
        ("u1.npy", ElemType::U8, 2),
        ("i2.npy", ElemType::S16, 2),
        ("u2.npy", ElemType::U16, 2),
        ("i4.npy", ElemType::S32, 2),
        ("u4.npy", ElemType::U32, 2),
        ("i8.npy", ElemType::S64, 2),
        ("u8.npy", ElemType::U64, 1),
        ("empty_f4.npy", ElemType::F32, 0),
    ];
    for (name, elem, len) in cases {
        let file = std::fs::read(fixture(name)).unwrap();
        let h = npy::header(elem, len);
        assert_eq!(h, file[..h.len()], "{name}");
        assert_eq!(h.len(), file.len() - len as usize * elem.bytes(), "{name}");
    }
    // A long shape still ends the header at a multiple of 64.
    let h = npy::header(ElemType::F32, 1 << 40);
    assert_eq!(h.len() % 64, 0);
    assert_eq!(npy::parse_header(&h).unwrap().shape, [1 << 40]);
}
