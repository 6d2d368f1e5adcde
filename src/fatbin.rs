//! NVIDIA's fat binaries, as nvcc embeds them in programs and `cuModuleLoadData`
//! receives them: the PTX inside, which is what ptxvm runs.
//!
//! A program's `.nv_fatbin` section holds containers (magic `0xBA55ED50`): a 16-byte
//! header (magic, version, header size, then the size of the entries that follow),
//! then entries, each a header and a payload padded to its stated size. An entry's
//! header gives its kind (1: PTX, 2: an ELF cubin), the `sm_` number it targets, its
//! flags (`0x2000`: the payload is LZ4-compressed, `0x8000`: zstd) and, compressed,
//! the payload's size before and after compression. A host stub registers a wrapper
//! (magic `0x466243B1`) that points at the container. The layout was read off
//! nvcc 13.5's output (tests/data/fatbin has the files and the command).

/// A container's magic number.
pub const MAGIC: u32 = 0xBA55_ED50;
/// The magic number of the wrapper nvcc's host stubs register.
pub const WRAPPER_MAGIC: u32 = 0x466_243B1;

const KIND_PTX: u16 = 1;
const KIND_ELF: u16 = 2;
const FLAG_LZ4: u64 = 0x2000;
const FLAG_ZSTD: u64 = 0x8000;

/// Why a fat binary gave no PTX.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FatbinError {
    #[error("not a fat binary (its magic number is 0x{0:08x})")]
    NotFatbin(u32),
    #[error("the fat binary is cut short: {0}")]
    Truncated(&'static str),
    #[error(
        "the fat binary holds no PTX, only machine code for {0}: ptxvm runs PTX, so build with `-arch=sm_90` (or `-gencode arch=compute_90,code=compute_90`) to keep it"
    )]
    NoPtx(String),
    #[error("the PTX for sm_{arch} does not decompress: {why}")]
    Decompress { arch: u32, why: String },
    #[error("the PTX for sm_{0} is not text")]
    NotText(u32),
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The whole size of the container that `head` (at least its first 16 bytes) begins,
/// or `None` when it is not one.
pub fn container_size(head: &[u8]) -> Option<u64> {
    (u32_at(head, 0)? == MAGIC).then_some(())?;
    let header = u64::from(u16_at(head, 6)?);
    header.checked_add(u64_at(head, 8)?)
}

/// One entry of a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry<'a> {
    pub kind: u16,
    /// The `sm_` number it targets (90 for `sm_90` or `compute_90`).
    pub arch: u32,
    pub flags: u64,
    /// The payload as stored (compressed or not).
    pub payload: &'a [u8],
    /// The payload's size once decompressed (0 when it is not compressed).
    pub uncompressed: u64,
}

/// The entries of the container `bytes` begins.
///
/// # Errors
/// [`FatbinError::NotFatbin`] or [`FatbinError::Truncated`].
pub fn entries(bytes: &[u8]) -> Result<Vec<Entry<'_>>, FatbinError> {
    let magic = u32_at(bytes, 0).ok_or(FatbinError::Truncated("no header"))?;
    if magic != MAGIC {
        return Err(FatbinError::NotFatbin(magic));
    }
    let end = container_size(bytes).ok_or(FatbinError::Truncated("no header"))?;
    let end =
        usize::try_from(end).ok().filter(|&e| e <= bytes.len()).ok_or(FatbinError::Truncated("entries"))?;
    let mut at = usize::from(u16_at(bytes, 6).ok_or(FatbinError::Truncated("no header"))?);
    let mut out = Vec::new();
    while at < end {
        let short = FatbinError::Truncated("an entry's header");
        let kind = u16_at(bytes, at).ok_or(short.clone())?;
        let header = u32_at(bytes, at + 4).ok_or(short.clone())? as usize;
        let padded = u64_at(bytes, at + 8).ok_or(short.clone())?;
        let compressed = u32_at(bytes, at + 16).ok_or(short.clone())? as usize;
        let arch = u32_at(bytes, at + 28).ok_or(short.clone())?;
        let flags = u64_at(bytes, at + 40).ok_or(short.clone())?;
        let uncompressed = if header >= 64 { u64_at(bytes, at + 56).ok_or(short)? } else { 0 };
        let start = at.checked_add(header).ok_or(FatbinError::Truncated("an entry"))?;
        let next = usize::try_from(padded).ok().and_then(|p| start.checked_add(p)).filter(|&n| n <= end);
        let next = next.ok_or(FatbinError::Truncated("an entry's payload"))?;
        let stored =
            if flags & (FLAG_LZ4 | FLAG_ZSTD) != 0 && compressed > 0 { compressed } else { next - start };
        let payload =
            bytes.get(start..start + stored.min(next - start)).ok_or(FatbinError::Truncated("a payload"))?;
        out.push(Entry { kind, arch, flags, payload, uncompressed });
        if header == 0 && padded == 0 {
            break;
        }
        at = next;
    }
    Ok(out)
}

/// The PTX text of `entry` (decompressed, up to its NUL).
///
/// # Errors
/// [`FatbinError::Decompress`] or [`FatbinError::NotText`].
pub fn ptx_text(entry: &Entry<'_>) -> Result<String, FatbinError> {
    let arch = entry.arch;
    let fail = |why: String| FatbinError::Decompress { arch, why };
    let size = usize::try_from(entry.uncompressed).map_err(|_| fail("too large".into()))?;
    let bytes = if entry.flags & FLAG_ZSTD != 0 {
        let mut out = vec![0u8; size];
        let n = ruzstd::decoding::FrameDecoder::new()
            .decode_all(entry.payload, &mut out)
            .map_err(|e| fail(e.to_string()))?;
        out.truncate(n);
        out
    } else if entry.flags & FLAG_LZ4 != 0 {
        lz4_flex::block::decompress(entry.payload, size).map_err(|e| fail(e.to_string()))?
    } else {
        entry.payload.to_vec()
    };
    let text = &bytes[..bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len())];
    String::from_utf8(text.to_vec()).map_err(|_| FatbinError::NotText(arch))
}

/// The PTX to run from the container `bytes` begins: of the highest `sm_` number at
/// most `max_arch`, or failing that the lowest above it; with its `sm_` number.
///
/// # Errors
/// [`FatbinError::NoPtx`] naming the machine code there is, or why the container or
/// the PTX cannot be read.
pub fn pick_ptx(bytes: &[u8], max_arch: u32) -> Result<(u32, String), FatbinError> {
    let all = entries(bytes)?;
    let ptx: Vec<&Entry<'_>> = all.iter().filter(|e| e.kind == KIND_PTX).collect();
    let best = ptx
        .iter()
        .filter(|e| e.arch <= max_arch)
        .max_by_key(|e| e.arch)
        .or_else(|| ptx.iter().min_by_key(|e| e.arch));
    match best {
        Some(e) => Ok((e.arch, ptx_text(e)?)),
        None => {
            let mut machine: Vec<String> =
                all.iter().filter(|e| e.kind == KIND_ELF).map(|e| format!("sm_{}", e.arch)).collect();
            machine.dedup();
            let what = if machine.is_empty() { "nothing".to_string() } else { machine.join(", ") };
            Err(FatbinError::NoPtx(what))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str) -> Vec<u8> {
        std::fs::read(format!("{}/tests/data/fatbin/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn ptx_comes_out_the_same_stored_lz4_or_zstd() {
        let plain = pick_ptx(&file("vadd.fatbin"), 90).unwrap();
        assert_eq!(plain.0, 90);
        assert!(plain.1.contains(".visible .entry vadd("), "{}", plain.1);
        assert!(plain.1.trim_start().starts_with(".version 9.5\n.target sm_90"), "{}", plain.1);
        for name in ["vadd_lz4.fatbin", "vadd_zstd.fatbin"] {
            assert_eq!(pick_ptx(&file(name), 90).unwrap(), plain, "{name}");
        }
        let zstd = file("vadd_zstd.fatbin");
        let entries = entries(&zstd).unwrap();
        assert_eq!(entries.iter().map(|e| (e.kind, e.arch)).collect::<Vec<_>>(), [(2, 90), (1, 90)]);
    }

    #[test]
    fn machine_code_alone_is_named_with_the_fix() {
        let e = pick_ptx(&file("vadd_sass.fatbin"), 90).unwrap_err();
        assert!(matches!(&e, FatbinError::NoPtx(m) if m == "sm_90"), "{e}");
        assert!(e.to_string().contains("-arch=sm_90"));
        assert!(matches!(pick_ptx(b"\x7fELF....", 90), Err(FatbinError::NotFatbin(_))));
        let mut cut = file("vadd.fatbin");
        cut.truncate(100);
        assert!(matches!(pick_ptx(&cut, 90), Err(FatbinError::Truncated(_))));
    }
}
